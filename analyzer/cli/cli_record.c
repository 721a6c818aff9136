/*
 * cli/cli_record.c - `gotcha record [-o DIR] [--interval SECONDS] -- CMD [ARGS...]`: run CMD with
 * its output still on the terminal and keep, in DIR, what a post-mortem needs (docs/live.md):
 * its stdout and stderr, an nvidia-smi CSV sampled every interval, the host facts at the start,
 * the kernel log of the run's span, and how the command ended. When it fails, scan DIR.
 *
 * Signals: the child stays in gotcha's process group, so a Ctrl-C from the terminal reaches it
 * directly; a signal sent to gotcha alone (kill, a batch scheduler) is forwarded to it. Either
 * way gotcha waits for the child and exits with its status (128 + N for signal N, as a shell).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/host.h"
#include "cli/live.h"
#include "common/az.h"
#include "match/match.h"

#ifndef GOTCHA_VERSION
#define GOTCHA_VERSION "0.0.0"
#endif

/* The skill's G4 sampler runs `nvidia-smi ... -l 5`: five seconds resolves a power plateau
 * without filling a disk over a multi-day run. */
#define REC_DEFAULT_INTERVAL 5
/* The columns the scan reads from a sampler CSV (correlate/series.c names them). */
static const char rec_smi_query[] = "--query-gpu=timestamp,index,temperature.gpu,power.draw,"
                                    "clocks.sm,utilization.gpu,memory.used,memory.total";
/* pip freeze of a large environment takes seconds; a broken pip must not hold the run. */
#define REC_PIP_TIMEOUT_MS   60000
#define REC_DMESG_TIMEOUT_MS 10000
/* The kernel log kept: the span of one run, not a machine's history. */
#define REC_DMESG_MAX (8u * 1024 * 1024)
/* After the command exits, output still buffered in the pipes is read for this long at most
 * (a daemon it started may hold them open forever). */
#define REC_DRAIN_MS 500
/* How long the sampler gets to exit on SIGTERM before SIGKILL. */
#define REC_SAMPLER_GRACE_MS 1000

/* The signals forwarded to the child. */
static const int rec_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

/* Self-pipe: the handler only writes the signal and whether a process sent it. */
static int rec_sig_pipe[2] = {-1, -1};

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    int saved = errno;
    /* si_code <= 0: sent by a process (kill, sigqueue, tkill); > 0: by the kernel, e.g. the
     * terminal's Ctrl-C, which the child (same process group) received too */
    unsigned char msg[2] = {(unsigned char)sig, (unsigned char)(si && si->si_code <= 0)};
    ssize_t w = write(rec_sig_pipe[1], msg, sizeof msg);
    (void)w;
    errno = saved;
}

static long long wall_s(void)
{
    return (long long)time(NULL);
}

static char *join_path(const char *dir, const char *name)
{
    return az_xasprintf("%s/%s", dir, name);
}

static int write_file(const char *dir, const char *name, const char *data, size_t len)
{
    char *path = join_path(dir, name);
    FILE *f = fopen(path, "w");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = 0;
    free(path);
    return ok ? 0 : -1;
}

/* A new directory: DIR as given (it must not exist or be empty), else gotcha-run-<UTC stamp>. */
static char *make_dir(const char *want, FILE *err)
{
    if (want) {
        if (mkdir(want, 0777) == 0) return az_xstrdup(want);
        if (errno == EEXIST && rmdir(want) == 0 && mkdir(want, 0777) == 0)
            return az_xstrdup(want); /* an empty directory: take it */
        fprintf(err, "gotcha: cannot use '%s' for the record: %s\n", want,
                errno == ENOTEMPTY || errno == EEXIST ? "it exists and is not empty"
                                                      : strerror(errno));
        return NULL;
    }
    char *base = cli_utc_name("gotcha-run", ""), *made = NULL;
    int e = EEXIST;
    for (int i = 1; i < 100 && !made && e == EEXIST; i++) {
        char *d = i == 1 ? az_xstrdup(base) : az_xasprintf("%s-%d", base, i);
        if (mkdir(d, 0777) == 0)
            made = d;
        else {
            e = errno;
            free(d);
        }
    }
    if (!made)
        fprintf(err, "gotcha: cannot create the record directory '%s': %s\n", base, strerror(e));
    free(base);
    return made;
}

/* ---- the host at the start ---- */

/* The host facts files; returns 1 when nvidia-smi answered (so sampling it makes sense). */
static int record_host(const char *dir, char *const *cmd, size_t ncmd, FILE *err)
{
    struct cli_host_limits lim;
    cli_host_limits_default(&lim);
    struct cli_options po;
    cli_options_init(&po);
    struct match_pack *pack = cli_load_pack(&po, err);
    struct cli_host h;
    cli_host_gather(&h, &lim, pack);
    cli_host_read_launch(&h, pack, (const char *const *)cmd, ncmd, NULL, 0);
    match_pack_free(pack);
    struct cli_preflight p;
    cli_preflight_check(&h, &lim, &p);

    static const struct {
        const char *name;
        int kind; /* 0 text, 1 json, 2 facts */
    } files[] = {{"preflight.txt", 0}, {"preflight.json", 1}, {"host-facts.txt", 2}};
    for (size_t i = 0; i < AZ_ARRAY_LEN(files); i++) {
        char *path = join_path(dir, files[i].name);
        FILE *f = fopen(path, "w");
        if (f) {
            if (files[i].kind == 0) cli_preflight_write_text(&p, f);
            if (files[i].kind == 1) cli_preflight_write_json(&p, &h, f, GOTCHA_VERSION);
            if (files[i].kind == 2) cli_host_write_facts(&h, f, GOTCHA_VERSION);
            if (fclose(f) != 0) f = NULL;
        }
        if (!f) fprintf(err, "gotcha: warning: cannot write '%s'\n", path);
        free(path);
    }
    if (*h.smi_table) write_file(dir, "nvidia-smi.txt", h.smi_table, strlen(h.smi_table));
    if (h.py_status == CLI_TOOL_OK) {
        struct cli_tool_result r;
        const char *argv[] = {"python3", "-m", "pip", "freeze", NULL};
        if (cli_tool_run(argv, REC_PIP_TIMEOUT_MS, 4u << 20, &r) == CLI_TOOL_OK)
            write_file(dir, "pip-freeze.txt", r.out.data, r.out.len);
        cli_tool_result_free(&r);
    }
    int smi_ok = h.smi_status == CLI_TOOL_OK && h.ngpus > 0;
    cli_preflight_free(&p);
    cli_host_free(&h);
    return smi_ok;
}

/* ---- the kernel log ---- */

/* dmesg with absolute times where it can print them (util-linux), else plain. */
static enum cli_tool_status read_dmesg(struct cli_tool_result *r)
{
    const char *iso[] = {"dmesg", "--time-format=iso", NULL};
    if (cli_tool_run(iso, REC_DMESG_TIMEOUT_MS, REC_DMESG_MAX, r) == CLI_TOOL_OK)
        return CLI_TOOL_OK;
    cli_tool_result_free(r);
    const char *plain[] = {"dmesg", NULL};
    return cli_tool_run(plain, REC_DMESG_TIMEOUT_MS, REC_DMESG_MAX, r);
}

/* The last line of text (without its newline), copied. */
static char *last_line(const char *text, size_t len)
{
    while (len && text[len - 1] == '\n') len--;
    size_t s = len;
    while (s && text[s - 1] != '\n') s--;
    return az_xstrndup(text + s, len - s);
}

/* The lines of now that follow the line `mark` (the last one at the start); all of them when
 * the mark rotated out of the ring buffer. */
static const char *after_mark(const char *now, const char *mark)
{
    if (!mark || !*mark) return now;
    const char *found = NULL;
    for (const char *p = now; (p = strstr(p, mark)) != NULL; p++)
        if ((p == now || p[-1] == '\n') && (p[strlen(mark)] == '\n' || !p[strlen(mark)])) found = p;
    if (!found) return now;
    const char *nl = strchr(found, '\n');
    return nl ? nl + 1 : found + strlen(found);
}

/* ---- the sampler ---- */

static pid_t start_sampler(const char *dir, unsigned interval)
{
    char *path = join_path(dir, "gpu.csv");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    free(path);
    if (fd < 0) return -1;
    char secs[16];
    snprintf(secs, sizeof secs, "%u", interval);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* not in the foreground group: a Ctrl-C stops the command, the sampler
                          records to the end */
        for (size_t i = 0; i < AZ_ARRAY_LEN(rec_signals); i++) signal(rec_signals[i], SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 2);
        }
        dup2(fd, 1);
        execlp("nvidia-smi", "nvidia-smi", rec_smi_query, "--format=csv", "-l", secs, (char *)NULL);
        _exit(127);
    }
    close(fd);
    if (pid > 0) setpgid(pid, pid);
    return pid;
}

static void stop_sampler(pid_t pid)
{
    if (pid <= 0) return;
    kill(-pid, SIGTERM);
    long long until = cli_mono_ms() + REC_SAMPLER_GRACE_MS;
    int st;
    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (cli_mono_ms() >= until) {
            kill(-pid, SIGKILL);
            waitpid(pid, &st, 0);
            break;
        }
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL); /* anything the sampler left in its group */
}

/* ---- running the command ---- */

struct rec_child {
    pid_t pid;
    int out, err;   /* pipe read ends, -1 when closed */
    int exec_errno; /* errno of a failed exec, 0 when it ran */
    int status;     /* wait status */
};

static int spawn(char *const *cmd, struct rec_child *c)
{
    int po[2], pe[2], rep[2];
    if (pipe(po) != 0) return -1;
    if (pipe(pe) != 0) {
        close(po[0]);
        close(po[1]);
        return -1;
    }
    if (pipe(rep) != 0) {
        close(po[0]);
        close(po[1]);
        close(pe[0]);
        close(pe[1]);
        return -1;
    }
    cli_cloexec(po[0]);
    cli_cloexec(pe[0]);
    cli_cloexec(rep[0]);
    cli_cloexec(rep[1]);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        for (size_t i = 0; i < AZ_ARRAY_LEN(rec_signals); i++) signal(rec_signals[i], SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[1]);
        close(pe[1]);
        /* Python block-buffers a pipe: keep its output live on the terminal and in order */
        setenv("PYTHONUNBUFFERED", "1", 0);
        execvp(cmd[0], cmd);
        int e = errno;
        ssize_t w = write(rep[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    close(rep[1]);
    c->pid = pid;
    c->out = po[0];
    c->err = pe[0];
    c->exec_errno = 0;
    ssize_t got = read(rep[0], &c->exec_errno, sizeof c->exec_errno);
    if (got != (ssize_t)sizeof c->exec_errno) c->exec_errno = 0;
    close(rep[0]);
    return 0;
}

/* Copy what fd has to the terminal stream fd_term and to the log; -1 at EOF. */
static int pump(int fd, int fd_term, FILE *log)
{
    char buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (n <= 0) return -1;
    for (ssize_t off = 0; off < n;) {
        ssize_t w = write(fd_term, buf + off, (size_t)(n - off));
        if (w <= 0) break; /* a closed terminal: keep recording */
        off += w;
    }
    if (log) {
        fwrite(buf, 1, (size_t)n, log);
        fflush(log);
    }
    return 0;
}

static void handle_signals(const struct rec_child *c, int *forwarded, int *interrupted)
{
    unsigned char msg[2];
    while (read(rec_sig_pipe[0], msg, sizeof msg) == (ssize_t)sizeof msg) {
        *interrupted = msg[0];
        if (msg[1] && c->pid > 0) {
            kill(c->pid, msg[0]);
            *forwarded = msg[0];
        }
    }
}

static void run_child(struct rec_child *c, FILE *out_log, FILE *err_log, int *forwarded,
                      int *interrupted)
{
    int exited = 0;
    long long drain_until = 0;
    while (c->out >= 0 || c->err >= 0 || !exited) {
        struct pollfd pfd[3];
        nfds_t n = 0;
        pfd[n++] = (struct pollfd){rec_sig_pipe[0], POLLIN, 0};
        int io = (int)n;
        if (c->out >= 0) pfd[n++] = (struct pollfd){c->out, POLLIN, 0};
        if (c->err >= 0) pfd[n++] = (struct pollfd){c->err, POLLIN, 0};
        int timeout = 100;
        if (exited) {
            long long left = drain_until - cli_mono_ms();
            if (left <= 0) break;
            timeout = (int)AZ_MIN(left, 100LL);
        }
        int pr = poll(pfd, n, timeout);
        if (pr > 0) {
            if (pfd[0].revents) handle_signals(c, forwarded, interrupted);
            for (nfds_t i = (nfds_t)io; i < n; i++) {
                if (!pfd[i].revents) continue;
                int is_out = pfd[i].fd == c->out;
                if (pump(pfd[i].fd, is_out ? 1 : 2, is_out ? out_log : err_log) < 0) {
                    close(pfd[i].fd);
                    if (is_out)
                        c->out = -1;
                    else
                        c->err = -1;
                }
            }
        }
        if (!exited) {
            pid_t r = waitpid(c->pid, &c->status, WNOHANG);
            if (r == c->pid) {
                exited = 1;
                drain_until = cli_mono_ms() + REC_DRAIN_MS;
            }
        }
    }
    if (c->out >= 0) close(c->out);
    if (c->err >= 0) close(c->err);
    c->out = c->err = -1;
    if (!exited)
        while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR) {
        }
}

/* ---- how it ended ---- */

static void write_command_line(struct az_buf *b, char *const *cmd, size_t ncmd)
{
    for (size_t i = 0; i < ncmd; i++) {
        if (i) az_buf_putc(b, ' ');
        const char *a = cmd[i];
        int plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789-_./=:,+@%") == strlen(a);
        if (plain) {
            az_buf_puts(b, a);
            continue;
        }
        az_buf_putc(b, '\'');
        for (; *a; a++) {
            if (*a == '\'')
                az_buf_puts(b, "'\\''");
            else
                az_buf_putc(b, *a);
        }
        az_buf_putc(b, '\'');
    }
}

static void write_run_txt(const char *dir, char *const *cmd, size_t ncmd, long long start,
                          long long end, const struct rec_child *c, int forwarded,
                          const char *kernel_note)
{
    struct az_buf b = AZ_BUF_INIT;
    char t0[32], t1[32];
    cli_utc_stamp(t0, sizeof t0, start);
    az_buf_printf(&b, "gotcha record %s\ncommand: ", GOTCHA_VERSION);
    write_command_line(&b, cmd, ncmd);
    char cwd[4096];
    az_buf_printf(&b, "\ncwd: %s\nstarted: %s\n", getcwd(cwd, sizeof cwd) ? cwd : "?", t0);
    if (end >= start) {
        cli_utc_stamp(t1, sizeof t1, end);
        az_buf_printf(&b, "ended: %s\nduration_s: %lld\n", t1, end - start);
        if (c->exec_errno) {
            az_buf_printf(&b, "exit: 127 (cannot run: %s)\n", strerror(c->exec_errno));
        } else if (WIFSIGNALED(c->status)) {
            int sig = WTERMSIG(c->status);
            az_buf_printf(&b, "exit: signal %d", sig);
            if (forwarded == sig) az_buf_puts(&b, " (forwarded by gotcha)");
            /* the line a shell prints for it ("Killed", "Segmentation fault (core dumped)"),
             * which the command itself never writes */
            az_buf_printf(&b, "\n%s%s\n", strsignal(sig),
#ifdef WCOREDUMP
                          WCOREDUMP(c->status) ? " (core dumped)" : ""
#else
                          ""
#endif
            );
        } else {
            az_buf_printf(&b, "exit: %d\n", WEXITSTATUS(c->status));
        }
        az_buf_printf(&b, "kernel log: %s\n", kernel_note);
    } else {
        az_buf_puts(&b, "ended: still running\n");
    }
    write_file(dir, "run.txt", b.data, b.len);
    az_buf_free(&b);
}

/* ---- the command ---- */

static const char record_help[] =
    "Usage: gotcha record [-o DIR] [--interval SECONDS] [--] CMD [ARG]...\n"
    "Run CMD with its output on the terminal and keep in DIR (default gotcha-run-<UTC time>):\n"
    "stdout.log and stderr.log, gpu.csv (nvidia-smi sampled every interval), the host facts\n"
    "at the start (preflight.txt/.json, host-facts.txt, nvidia-smi.txt, pip-freeze.txt),\n"
    "kernel.log (the kernel messages of the run's span, where dmesg is readable) and run.txt\n"
    "(how the command ended). When CMD fails, scan DIR and print the report on stderr.\n"
    "Signals sent to gotcha reach CMD; Ctrl-C stops CMD. PYTHONUNBUFFERED=1 is set for CMD\n"
    "unless already set, so Python output stays live.\n"
    "\n"
    "  -o, --output DIR        the record directory (created; must be new or empty)\n"
    "      --interval SECONDS  nvidia-smi sampling interval (default 5)\n"
    "  -q, --quiet             no report and no notes on stderr, only CMD's own output\n"
    "  -h, --help              show this help\n"
    "Exit status: CMD's exit status (128 + N when a signal N ended it), 127 when CMD cannot\n"
    "be run, 2 on a usage error or when DIR cannot be created.\n";

int cli_cmd_record(int argc, char **argv, FILE *out, FILE *err)
{
    enum { OPT_INTERVAL = 256 };
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"interval", required_argument, NULL, OPT_INTERVAL},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *want_dir = NULL;
    unsigned interval = REC_DEFAULT_INTERVAL;
    int quiet = 0, c;
    opterr = 0;
    optind = 0;
    /* "+": options end at CMD, so CMD's own options are never ours */
    while ((c = getopt_long(argc, argv, "+:o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': want_dir = optarg; break;
        case 'q': quiet = 1; break;
        case OPT_INTERVAL: {
            uint64_t v;
            if (cli_parse_whole(optarg, 1, 86400, &v) != 0)
                return cli_bad_usage(err, "invalid --interval '%s' (whole seconds from 1)", optarg);
            interval = (unsigned)v;
            break;
        }
        case 'h': fputs(record_help, out); return CLI_EXIT_CLEAN;
        case ':': return cli_bad_usage(err, "option '%s' requires an argument", argv[optind - 1]);
        default: return cli_bad_usage(err, "unrecognized option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return cli_bad_usage(err, "'record' needs a command: gotcha record -- CMD");
    char *const *cmd = argv + optind;
    size_t ncmd = (size_t)(argc - optind);

    char *dir = make_dir(want_dir, err);
    if (!dir) return CLI_EXIT_ERROR;
    if (!quiet) fprintf(err, "gotcha: recording to %s/\n", dir);
    fflush(out);
    fflush(err);

    /* signals go to the self-pipe from here on: a Ctrl-C while the host is read stops gotcha
     * cleanly (the tools it runs have deadlines), one while the command runs reaches it */
    struct sigaction sa, old[AZ_ARRAY_LEN(rec_signals)], old_pipe;
    struct rec_child child = {0, -1, -1, 0, 0};
    int forwarded = 0, interrupted = 0; /* the signal forwarded / the last one received */
    int rc = CLI_EXIT_ERROR;
    pid_t sampler = -1;
    FILE *out_log = NULL, *err_log = NULL;
    char *mark = NULL;
    int dmesg_ok = 0;
    long long start = wall_s(), end = start;
    if (pipe(rec_sig_pipe) != 0) {
        fprintf(err, "gotcha: cannot create a pipe: %s\n", strerror(errno));
        free(dir);
        return CLI_EXIT_ERROR;
    }
    cli_cloexec(rec_sig_pipe[0]);
    cli_cloexec(rec_sig_pipe[1]);
    fcntl(rec_sig_pipe[0], F_SETFL, O_NONBLOCK);
    fcntl(rec_sig_pipe[1], F_SETFL, O_NONBLOCK);
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < AZ_ARRAY_LEN(rec_signals); i++) sigaction(rec_signals[i], &sa, &old[i]);
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old_pipe);

    int smi_ok = record_host(dir, cmd, ncmd, err);
    struct cli_tool_result dm0;
    dmesg_ok = read_dmesg(&dm0) == CLI_TOOL_OK;
    mark = dmesg_ok ? last_line(dm0.out.data, dm0.out.len) : NULL;
    cli_tool_result_free(&dm0);
    handle_signals(&child, &forwarded, &interrupted); /* child.pid is 0: nothing to forward */
    if (interrupted) {
        rc = 128 + interrupted;
        goto restore;
    }

    if (smi_ok) sampler = start_sampler(dir, interval);
    char *out_path = join_path(dir, "stdout.log"), *err_path = join_path(dir, "stderr.log");
    out_log = fopen(out_path, "w");
    err_log = fopen(err_path, "w");
    free(out_path);
    free(err_path);
    if (out_log) cli_cloexec(fileno(out_log)); /* the command must not inherit them */
    if (err_log) cli_cloexec(fileno(err_log));

    start = wall_s();
    write_run_txt(dir, cmd, ncmd, start, -1, NULL, 0, "");
    if (spawn(cmd, &child) != 0) {
        fprintf(err, "gotcha: cannot start the command: %s\n", strerror(errno));
    } else {
        run_child(&child, out_log, err_log, &forwarded, &interrupted);
    }
    end = wall_s();
    if (child.pid > 0) {
        if (child.exec_errno)
            rc = 127;
        else if (WIFSIGNALED(child.status))
            rc = 128 + WTERMSIG(child.status);
        else
            rc = WEXITSTATUS(child.status);
    }
restore:
    for (size_t i = 0; i < AZ_ARRAY_LEN(rec_signals); i++) sigaction(rec_signals[i], &old[i], NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    close(rec_sig_pipe[0]);
    close(rec_sig_pipe[1]);
    rec_sig_pipe[0] = rec_sig_pipe[1] = -1;
    stop_sampler(sampler);
    if (out_log) fclose(out_log);
    if (err_log) fclose(err_log);

    const char *kernel_note = "not readable (dmesg failed: kernel.dmesg_restrict?)";
    char note[96];
    if (dmesg_ok && child.pid > 0) {
        struct cli_tool_result dm1;
        if (read_dmesg(&dm1) == CLI_TOOL_OK) {
            const char *span = after_mark(dm1.out.data, mark);
            size_t lines = 0;
            for (const char *p = span; *p; p++) lines += *p == '\n';
            if (*span) write_file(dir, "kernel.log", span, strlen(span));
            if (lines)
                snprintf(note, sizeof note, "%zu line%s during the run (kernel.log)", lines,
                         lines == 1 ? "" : "s");
            else
                snprintf(note, sizeof note, "no message during the run");
            kernel_note = note;
        }
        cli_tool_result_free(&dm1);
    }
    free(mark);
    if (child.pid > 0) write_run_txt(dir, cmd, ncmd, start, end, &child, forwarded, kernel_note);

    if (child.exec_errno)
        fprintf(err, "gotcha: cannot run '%s': %s\n", cmd[0], strerror(child.exec_errno));
    if (!quiet && child.pid > 0) {
        if (WIFSIGNALED(child.status) && !child.exec_errno)
            fprintf(err,
                    "gotcha: the command ended by signal %d (%s) after %lld s; the record "
                    "is in %s/\n",
                    WTERMSIG(child.status), strsignal(WTERMSIG(child.status)), end - start, dir);
        else
            fprintf(err, "gotcha: the command exited with %d after %lld s; the record is in %s/\n",
                    rc, end - start, dir);
    }
    if (!quiet && interrupted && child.pid <= 0)
        fprintf(err, "gotcha: stopped by signal %d (%s) before the command started\n", interrupted,
                strsignal(interrupted));
    else if (!quiet && interrupted)
        fprintf(err, "gotcha: stopped by signal %d (%s): no report; 'gotcha scan %s' gives it\n",
                interrupted, strsignal(interrupted), dir);
    /* a run someone stopped needs no post-mortem */
    if (!quiet && !interrupted && rc != 0 && child.pid > 0 && !child.exec_errno) {
        /* the post-mortem of the record, as `gotcha scan DIR` would print it */
        struct cli_options o;
        cli_options_init(&o);
        o.command = CLI_CMD_SCAN;
        o.quiet = 1;
        o.formats[o.nformats++] = REPORT_TEXT;
        const char *paths[] = {dir};
        o.args = paths;
        o.nargs = 1;
        fputc('\n', err);
        fflush(err);
        cli_cmd_scan(&o, err, err);
    }
    free(dir);
    return rc;
}
