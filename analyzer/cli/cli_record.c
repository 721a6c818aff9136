/*
 * cli/cli_record.c - `gotcha record [-o DIR] [--interval SECONDS] -- CMD [ARGS...]`: run CMD with
 * its output still on the terminal and keep, in DIR, what a post-mortem needs (docs/live.md):
 * its stdout and stderr, an nvidia-smi CSV sampled every interval, the host facts (gathered
 * beside the command, cli_record_aside.c), the kernel log of the run's window, and how the
 * command ended (run.txt, the run record format of tokenize/tok.h). When it fails, scan DIR.
 *
 * CMD starts at once: nothing slow (nvidia-smi, python3, pip, dmesg) runs before it.
 *
 * Signals: the child stays in gotcha's process group, so a Ctrl-C from the terminal reaches it
 * directly; a signal sent to gotcha alone (kill, a batch scheduler) is forwarded to it. A second
 * Ctrl-C sends it SIGTERM, and SIGKILL follows after the grace period (a third Ctrl-C: at once);
 * both are said on stderr. Either way gotcha waits for the child and exits with its status
 * (128 + N for signal N, as a shell).
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
#include "cli/record.h"
#include "common/az.h"
#include "tokenize/tok.h"

#ifndef GOTCHA_VERSION
#define GOTCHA_VERSION "0.0.0"
#endif

/* The skill's G4 sampler runs `nvidia-smi ... -l 5`: five seconds resolves a power plateau
 * without filling a disk over a multi-day run. */
#define REC_DEFAULT_INTERVAL 5
/* The columns the scan reads from a sampler CSV (correlate/series.c names them). */
static const char rec_smi_query[] = "--query-gpu=timestamp,index,temperature.gpu,power.draw,"
                                    "clocks.sm,utilization.gpu,memory.used,memory.total";
/* After the command exits, output still buffered in the pipes is read for this long at most
 * (a daemon it started may hold them open forever). */
#define REC_DRAIN_MS 500
/* How long the sampler gets to exit on SIGTERM before SIGKILL. */
#define REC_SAMPLER_GRACE_MS 1000
/* After a second Ctrl-C, how long the command gets between SIGTERM and SIGKILL: docker stop's
 * default, long enough for a trainer to flush a checkpoint's metadata and its logs. */
#define REC_DEFAULT_GRACE 10
/* The poll loop's tick: signals and deadlines are looked at least this often. */
#define REC_TICK_MS 100

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

/* Block (or unblock) the forwarded signals around a fork, so a child never runs gotcha's
 * handler before it has reset it. */
static void block_signals(int block, sigset_t *saved)
{
    if (block) {
        sigset_t set;
        sigemptyset(&set);
        for (size_t i = 0; i < AZ_ARRAY_LEN(rec_signals); i++) sigaddset(&set, rec_signals[i]);
        sigprocmask(SIG_BLOCK, &set, saved);
    } else {
        sigprocmask(SIG_SETMASK, saved, NULL);
    }
}

static void child_default_signals(void)
{
    for (size_t i = 0; i < AZ_ARRAY_LEN(rec_signals); i++) signal(rec_signals[i], SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* ---- the sampler ---- */

static pid_t start_sampler(const char *dir, unsigned interval)
{
    char *path = join_path(dir, "gpu.csv");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    free(path);
    if (fd < 0) return -1;
    char secs[16];
    snprintf(secs, sizeof secs, "%u", interval);
    sigset_t saved;
    block_signals(1, &saved);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* not in the foreground group: a Ctrl-C stops the command, the sampler
                          records to the end */
        child_default_signals();
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 2);
        }
        dup2(fd, 1);
        execlp("nvidia-smi", "nvidia-smi", rec_smi_query, "--format=csv", "-l", secs, (char *)NULL);
        _exit(127);
    }
    block_signals(0, &saved);
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
    int exited;     /* 1 once reaped */
};

/* Everything the run loop tracks. */
struct rec_run {
    struct rec_child child;
    struct rec_aside aside;
    const char *dir;
    unsigned interval; /* sampling, seconds */
    unsigned grace_ms; /* SIGTERM -> SIGKILL after a second interrupt */
    pid_t sampler;     /* -1 when none */
    FILE *out_log, *err_log;
    FILE *err;
    int interrupts;    /* SIGINTs while the command ran */
    long long kill_at; /* cli_mono_ms() when SIGKILL follows the SIGTERM; 0 when none pends */
    int forwarded;     /* the last signal gotcha forwarded or sent */
    int received;      /* the last signal gotcha received */
    unsigned reached;  /* bit N: signal N reached the command (terminal, forward, escalation) */
    int stop_waiting;  /* a signal after the command ended: do not wait for the host facts */
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
    sigset_t saved;
    block_signals(1, &saved);
    pid_t pid = fork();
    if (pid < 0) {
        block_signals(0, &saved);
        return -1;
    }
    if (pid == 0) {
        child_default_signals();
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
    block_signals(0, &saved);
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

static void send_to_child(struct rec_run *r, int sig)
{
    kill(r->child.pid, sig);
    r->forwarded = sig;
    if (sig > 0 && sig < 32) r->reached |= 1u << sig;
}

/* An interrupt while the command runs: the first is the command's (the terminal sent it to the
 * whole group), the second asks it to stop (SIGTERM), the third makes it (SIGKILL). */
static void on_interrupt(struct rec_run *r, int from_process)
{
    r->interrupts++;
    if (r->interrupts == 1) {
        if (from_process) send_to_child(r, SIGINT);
        return;
    }
    if (r->interrupts == 2) {
        send_to_child(r, SIGTERM);
        r->kill_at = cli_mono_ms() + r->grace_ms;
        fprintf(r->err,
                "gotcha: second interrupt: sent SIGTERM to the command; SIGKILL follows in %u s "
                "(a third interrupt: at once)\n",
                r->grace_ms / 1000);
        return;
    }
    send_to_child(r, SIGKILL);
    r->kill_at = 0;
    fputs("gotcha: third interrupt: sent SIGKILL to the command\n", r->err);
}

static void handle_signals(struct rec_run *r)
{
    unsigned char msg[2];
    while (read(rec_sig_pipe[0], msg, sizeof msg) == (ssize_t)sizeof msg) {
        int sig = msg[0], from_process = msg[1];
        r->received = sig;
        if (r->child.pid <= 0 || r->child.exited) {
            r->stop_waiting = 1;
            continue;
        }
        if (!from_process && sig < 32) r->reached |= 1u << sig; /* the terminal's, to the group */
        if (sig == SIGINT)
            on_interrupt(r, from_process);
        else if (from_process)
            send_to_child(r, sig);
    }
}

static void escalate_if_due(struct rec_run *r)
{
    if (!r->kill_at || r->child.exited || cli_mono_ms() < r->kill_at) return;
    send_to_child(r, SIGKILL);
    r->kill_at = 0;
    fprintf(r->err, "gotcha: the command still runs %u s after SIGTERM: sent SIGKILL\n",
            r->grace_ms / 1000);
}

/* What the gatherer says; the sampler starts once it knows nvidia-smi answers. */
static void aside_ready(struct rec_run *r)
{
    rec_aside_read(&r->aside);
    if (r->aside.smi == 1 && r->sampler < 0 && !r->child.exited)
        r->sampler = start_sampler(r->dir, r->interval);
}

static void run_child(struct rec_run *r)
{
    struct rec_child *c = &r->child;
    long long drain_until = 0;
    while (c->out >= 0 || c->err >= 0 || !c->exited) {
        struct pollfd pfd[4];
        nfds_t n = 0;
        pfd[n++] = (struct pollfd){rec_sig_pipe[0], POLLIN, 0};
        int aside_at = -1;
        if (r->aside.fd >= 0) {
            aside_at = (int)n;
            pfd[n++] = (struct pollfd){r->aside.fd, POLLIN, 0};
        }
        nfds_t io = n;
        if (c->out >= 0) pfd[n++] = (struct pollfd){c->out, POLLIN, 0};
        if (c->err >= 0) pfd[n++] = (struct pollfd){c->err, POLLIN, 0};
        int timeout = REC_TICK_MS;
        if (c->exited) {
            long long left = drain_until - cli_mono_ms();
            if (left <= 0) break;
            timeout = (int)AZ_MIN(left, (long long)REC_TICK_MS);
        }
        if (poll(pfd, n, timeout) > 0) {
            if (pfd[0].revents) handle_signals(r);
            if (aside_at >= 0 && pfd[aside_at].revents) aside_ready(r);
            for (nfds_t i = io; i < n; i++) {
                if (!pfd[i].revents) continue;
                int is_out = pfd[i].fd == c->out;
                if (pump(pfd[i].fd, is_out ? 1 : 2, is_out ? r->out_log : r->err_log) < 0) {
                    close(pfd[i].fd);
                    if (is_out)
                        c->out = -1;
                    else
                        c->err = -1;
                }
            }
        }
        escalate_if_due(r);
        if (!c->exited && waitpid(c->pid, &c->status, WNOHANG) == c->pid) {
            c->exited = 1;
            drain_until = cli_mono_ms() + REC_DRAIN_MS;
        }
    }
    if (c->out >= 0) close(c->out);
    if (c->err >= 0) close(c->err);
    c->out = c->err = -1;
    if (!c->exited) {
        while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR) {
        }
        c->exited = 1;
    }
}

/* After the command: the gatherer finishes its files (its tools have deadlines), unless a
 * signal says not to wait. @return 1 when it finished. */
static int wait_aside(struct rec_run *r)
{
    while (r->aside.fd >= 0 && !r->stop_waiting) {
        struct pollfd pfd[2] = {{rec_sig_pipe[0], POLLIN, 0}, {r->aside.fd, POLLIN, 0}};
        if (poll(pfd, 2, REC_TICK_MS) <= 0) continue;
        if (pfd[0].revents) handle_signals(r);
        if (pfd[1].revents) aside_ready(r);
    }
    int finished = r->aside.done;
    rec_aside_reap(&r->aside, !finished);
    return finished;
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
            else if (*a == '\n' || *a == '\r')
                az_buf_putc(b, ' '); /* one field, one line */
            else
                az_buf_putc(b, *a);
        }
        az_buf_putc(b, '\'');
    }
}

/* run.txt in the run record format (tokenize/tok.h): fields, and for a signal the line a shell
 * prints ("Segmentation fault (core dumped)", "Killed"), which the command itself never writes.
 * c is NULL while the command runs. */
static void write_run_txt(const struct rec_run *r, char *const *cmd, size_t ncmd, long long start,
                          long long end, const char *kernel_note)
{
    const struct rec_child *c = end >= start ? &r->child : NULL;
    struct az_buf b = AZ_BUF_INIT;
    char t0[32], t1[32];
    cli_utc_stamp(t0, sizeof t0, start);
    az_buf_printf(&b, TOK_RUN_RECORD_MAGIC "%s\n" TOK_RUN_RECORD_COMMAND ": ", GOTCHA_VERSION);
    write_command_line(&b, cmd, ncmd);
    char cwd[4096];
    az_buf_printf(&b, "\n" TOK_RUN_RECORD_CWD ": %s\n" TOK_RUN_RECORD_STARTED ": %s\n",
                  getcwd(cwd, sizeof cwd) ? cwd : "?", t0);
    if (!c) {
        az_buf_puts(&b, TOK_RUN_RECORD_ENDED ": still running\n");
        rec_write_file(r->dir, "run.txt", b.data, b.len);
        az_buf_free(&b);
        return;
    }
    cli_utc_stamp(t1, sizeof t1, end);
    az_buf_printf(&b, TOK_RUN_RECORD_ENDED ": %s\n" TOK_RUN_RECORD_DURATION ": %lld\n", t1,
                  end - start);
    if (c->exec_errno) {
        az_buf_printf(&b, TOK_RUN_RECORD_EXIT ": 127 (cannot run: %s)\n", strerror(c->exec_errno));
    } else if (WIFSIGNALED(c->status)) {
        int sig = WTERMSIG(c->status);
        az_buf_printf(&b, TOK_RUN_RECORD_EXIT ": " TOK_RUN_RECORD_SIGNAL "%d", sig);
        if (r->forwarded == sig) az_buf_puts(&b, " (sent by gotcha)");
        az_buf_printf(&b, "\n%s%s\n", strsignal(sig),
#ifdef WCOREDUMP
                      WCOREDUMP(c->status) ? " (core dumped)" : ""
#else
                      ""
#endif
        );
    } else {
        az_buf_printf(&b, TOK_RUN_RECORD_EXIT ": %d\n", WEXITSTATUS(c->status));
    }
    az_buf_printf(&b, TOK_RUN_RECORD_KERNEL_LOG ": %s\n", kernel_note);
    rec_write_file(r->dir, "run.txt", b.data, b.len);
    az_buf_free(&b);
}

/* The signal that stopped the command, when it was one that reached it through gotcha or the
 * terminal (it died of it, or exited 128 + N as a shell does on one it trapped); else 0. */
static int stopping_signal(const struct rec_run *r)
{
    const struct rec_child *c = &r->child;
    if (c->pid <= 0 || c->exec_errno) return 0;
    int sig = 0;
    if (WIFSIGNALED(c->status))
        sig = WTERMSIG(c->status);
    else if (WIFEXITED(c->status) && WEXITSTATUS(c->status) > 128)
        sig = WEXITSTATUS(c->status) - 128;
    return sig > 0 && sig < 32 && (r->reached & (1u << sig)) ? sig : 0;
}

/* ---- the command ---- */

static const char record_help[] =
    "Usage: gotcha record [-o DIR] [--interval SECONDS] [--grace SECONDS] [-q] [--] CMD\n"
    "                     [ARG]...\n"
    "Run CMD with its output on the terminal and keep in DIR (default gotcha-run-<UTC time>):\n"
    "stdout.log and stderr.log, gpu.csv (nvidia-smi sampled every interval), the host facts\n"
    "(preflight.txt/.json, host-facts.txt, nvidia-smi.txt, pip-freeze.txt, gathered while CMD\n"
    "already runs), kernel.log (the kernel messages of the run's window, from dmesg or the\n"
    "journal, where readable) and run.txt (how the command ended). When CMD fails, scan DIR\n"
    "and print the report on stderr.\n"
    "Signals sent to gotcha reach CMD; Ctrl-C stops CMD, a second Ctrl-C sends it SIGTERM and\n"
    "SIGKILL after the grace period. PYTHONUNBUFFERED=1 is set for CMD unless already set, so\n"
    "Python output stays live.\n"
    "\n"
    "  -o, --output DIR        the record directory (created; must be new or empty)\n"
    "      --interval SECONDS  nvidia-smi sampling interval (default 5)\n"
    "      --grace SECONDS     after a second Ctrl-C, SIGTERM to SIGKILL (default 10)\n"
    "  -q, --quiet             no report and no notes on stderr, only CMD's own output\n"
    "  -h, --help              show this help\n"
    "Exit status: CMD's exit status (128 + N when a signal N ended it), 127 when CMD cannot\n"
    "be run, 2 on a usage error or when DIR cannot be created.\n";

/* The options; @return -1 to go on, else the exit status. *first is CMD's index. */
static int parse_record(int argc, char **argv, struct rec_run *r, const char **want_dir, int *quiet,
                        int *first, FILE *out, FILE *err)
{
    enum { OPT_INTERVAL = 256, OPT_GRACE };
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"interval", required_argument, NULL, OPT_INTERVAL},
                                         {"grace", required_argument, NULL, OPT_GRACE},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    opterr = 0;
    optind = 0;
    /* "+": options end at CMD, so CMD's own options are never ours */
    while ((c = getopt_long(argc, argv, "+:o:qh", opts, NULL)) != -1) {
        uint64_t v;
        switch (c) {
        case 'o': *want_dir = optarg; break;
        case 'q': *quiet = 1; break;
        case OPT_INTERVAL:
            if (cli_parse_whole(optarg, 1, 86400, &v) != 0)
                return cli_bad_usage(err, "invalid --interval '%s' (whole seconds from 1)", optarg);
            r->interval = (unsigned)v;
            break;
        case OPT_GRACE:
            if (cli_parse_whole(optarg, 1, 3600, &v) != 0)
                return cli_bad_usage(err, "invalid --grace '%s' (whole seconds from 1 to 3600)",
                                     optarg);
            r->grace_ms = (unsigned)v * 1000;
            break;
        case 'h': fputs(record_help, out); return CLI_EXIT_CLEAN;
        case ':': return cli_bad_usage(err, "option '%s' requires an argument", argv[optind - 1]);
        default: return cli_bad_usage(err, "unrecognized option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return cli_bad_usage(err, "'record' needs a command: gotcha record -- CMD");
    *first = optind;
    return -1;
}

/* Signals to the self-pipe from here on (restore with restore_signals()). */
static int catch_signals(struct sigaction *old, struct sigaction *old_pipe, FILE *err)
{
    if (pipe(rec_sig_pipe) != 0) {
        fprintf(err, "gotcha: cannot create a pipe: %s\n", strerror(errno));
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        cli_cloexec(rec_sig_pipe[i]);
        fcntl(rec_sig_pipe[i], F_SETFL, O_NONBLOCK);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < AZ_ARRAY_LEN(rec_signals); i++) sigaction(rec_signals[i], &sa, &old[i]);
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, old_pipe);
    return 0;
}

static void restore_signals(const struct sigaction *old, const struct sigaction *old_pipe)
{
    for (size_t i = 0; i < AZ_ARRAY_LEN(rec_signals); i++) sigaction(rec_signals[i], &old[i], NULL);
    sigaction(SIGPIPE, old_pipe, NULL);
    close(rec_sig_pipe[0]);
    close(rec_sig_pipe[1]);
    rec_sig_pipe[0] = rec_sig_pipe[1] = -1;
}

static FILE *open_log(const char *dir, const char *name)
{
    char *path = join_path(dir, name);
    FILE *f = fopen(path, "w");
    free(path);
    if (f) cli_cloexec(fileno(f)); /* the command must not inherit it */
    return f;
}

/* The notes after the run, and the report when the command failed on its own. */
static void finish(const struct rec_run *r, const char *cmd0, int rc, long long secs, int kernel_ok,
                   const char *kernel_note, int facts_ok, int quiet, FILE *err)
{
    const struct rec_child *c = &r->child;
    const char *dir = r->dir;
    if (c->exec_errno) fprintf(err, "gotcha: cannot run '%s': %s\n", cmd0, strerror(c->exec_errno));
    if (quiet || c->pid <= 0) return;
    if (WIFSIGNALED(c->status) && !c->exec_errno)
        fprintf(err,
                "gotcha: the command ended by signal %d (%s) after %lld s; the record is in %s/\n",
                WTERMSIG(c->status), strsignal(WTERMSIG(c->status)), secs, dir);
    else
        fprintf(err, "gotcha: the command exited with %d after %lld s; the record is in %s/\n", rc,
                secs, dir);
    if (!kernel_ok) fprintf(err, "gotcha: no kernel log kept: %s\n", kernel_note);
    if (!facts_ok)
        fputs("gotcha: the host facts are incomplete (stopped before they were read)\n", err);
    int stopped = stopping_signal(r);
    if (stopped) {
        /* a run someone stopped needs no post-mortem */
        fprintf(err, "gotcha: stopped by signal %d (%s): no report; 'gotcha scan %s' gives it\n",
                stopped, strsignal(stopped), dir);
        return;
    }
    if (rc == 0 || c->exec_errno) return;
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

int cli_cmd_record(int argc, char **argv, FILE *out, FILE *err)
{
    struct rec_run r;
    memset(&r, 0, sizeof r);
    r.interval = REC_DEFAULT_INTERVAL;
    r.grace_ms = REC_DEFAULT_GRACE * 1000;
    r.sampler = -1;
    r.err = err;
    r.child = (struct rec_child){0, -1, -1, 0, 0, 0};
    r.aside.pid = -1;
    r.aside.fd = -1;
    const char *want_dir = NULL;
    int quiet = 0, first = 0;
    int prc = parse_record(argc, argv, &r, &want_dir, &quiet, &first, out, err);
    if (prc >= 0) return prc;
    char *const *cmd = argv + first;
    size_t ncmd = (size_t)(argc - first);

    char *dir = make_dir(want_dir, err);
    if (!dir) return CLI_EXIT_ERROR;
    r.dir = dir;
    if (!quiet) fprintf(err, "gotcha: recording to %s/\n", dir);
    fflush(out);
    fflush(err);

    struct sigaction old[AZ_ARRAY_LEN(rec_signals)], old_pipe;
    if (catch_signals(old, &old_pipe, err) != 0) {
        free(dir);
        return CLI_EXIT_ERROR;
    }
    r.out_log = open_log(dir, "stdout.log");
    r.err_log = open_log(dir, "stderr.log");
    long long start = wall_s();
    write_run_txt(&r, cmd, ncmd, start, -1, "");
    /* the host facts beside the command, not before it */
    if (rec_aside_start(&r.aside, dir, cmd, ncmd) != 0)
        fprintf(err, "gotcha: warning: cannot gather the host facts: %s\n", strerror(errno));
    int rc = CLI_EXIT_ERROR;
    if (spawn(cmd, &r.child) != 0)
        fprintf(err, "gotcha: cannot start the command: %s\n", strerror(errno));
    else
        run_child(&r);
    long long end = wall_s();
    if (r.child.pid > 0)
        rc = r.child.exec_errno            ? 127
             : WIFSIGNALED(r.child.status) ? 128 + WTERMSIG(r.child.status)
                                           : WEXITSTATUS(r.child.status);
    stop_sampler(r.sampler);
    if (r.out_log) fclose(r.out_log);
    if (r.err_log) fclose(r.err_log);
    int facts_ok = wait_aside(&r);
    restore_signals(old, &old_pipe);

    char kernel_note[160];
    int kernel_ok = rec_kernel_log(dir, &r.aside, start, end, kernel_note, sizeof kernel_note);
    if (r.child.pid > 0) write_run_txt(&r, cmd, ncmd, start, end, kernel_note);
    rec_aside_free(&r.aside);
    finish(&r, cmd[0], rc, end - start, kernel_ok, kernel_note, facts_ok, quiet, err);
    free(dir);
    return rc;
}
