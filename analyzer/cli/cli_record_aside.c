/*
 * cli/cli_record_aside.c - the host facts `gotcha record` gathers beside the command, and the
 * kernel log of the run's window. See record.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/host.h"
#include "cli/live.h"
#include "cli/record.h"
#include "common/az.h"
#include "match/match.h"

#ifndef GOTCHA_VERSION
#define GOTCHA_VERSION "0.0.0"
#endif

/* pip freeze of a large environment takes seconds; a broken pip must not hold the record. */
#define REC_PIP_TIMEOUT_MS   60000
#define REC_PIP_MAX          (4u << 20)
#define REC_DMESG_TIMEOUT_MS 10000
/* The kernel log read: the span of one run, not a machine's history. */
#define REC_DMESG_MAX (8u * 1024 * 1024)
/* A kernel log line longer than this is cut in the mark (the window then starts at the top). */
#define REC_MARK_MAX 4096
/* What the parent keeps of a line it has not seen the end of: a mark and a little more. */
#define REC_ASIDE_LINE_MAX (REC_MARK_MAX + 64)

/* The gatherer's lines on its pipe. */
#define ASIDE_MARK    "mark "
#define ASIDE_NO_MARK "no-mark"
#define ASIDE_SMI     "smi "
#define ASIDE_DONE    "done"

int rec_write_file(const char *dir, const char *name, const char *data, size_t len)
{
    char *path = az_xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = 0;
    free(path);
    return ok ? 0 : -1;
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

/* The last line of text (without its newline), at most REC_MARK_MAX bytes, copied. */
static char *last_line(const char *text, size_t len)
{
    while (len && text[len - 1] == '\n') len--;
    size_t s = len;
    while (s && text[s - 1] != '\n') s--;
    return az_xstrndup(text + s, AZ_MIN(len - s, (size_t)REC_MARK_MAX));
}

/* The lines of now that follow the line mark (the last one when the run began); all of them
 * when the mark rotated out of the ring buffer. */
static const char *after_mark(const char *now, const char *mark)
{
    if (!mark || !*mark) return now;
    size_t ml = strlen(mark);
    const char *found = NULL;
    for (const char *p = now; (p = strstr(p, mark)) != NULL; p++)
        if ((p == now || p[-1] == '\n') && (p[ml] == '\n' || !p[ml])) found = p;
    if (!found) return now;
    const char *nl = strchr(found, '\n');
    return nl ? nl + 1 : found + ml;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static const char *tool_why(enum cli_tool_status s)
{
    switch (s) {
    case CLI_TOOL_MISSING: return "not available";
    case CLI_TOOL_TIMEOUT: return "did not answer";
    case CLI_TOOL_OK: return "ok";
    case CLI_TOOL_FAILED:
    default: return "failed (not permitted: kernel.dmesg_restrict?)";
    }
}

/* The kernel journal's lines of [start, end]; CLI_TOOL_FAILED when it keeps no kernel log. */
static enum cli_tool_status read_journal(long long start, long long end, struct cli_tool_result *r)
{
    /* journalctl prints nothing and exits 0 when it has no journal: ask for one line first */
    const char *probe[] = {"journalctl", "-k", "-q", "-n", "1", "--no-pager", NULL};
    enum cli_tool_status st = cli_tool_run(probe, REC_DMESG_TIMEOUT_MS, 1u << 16, r);
    int empty = st == CLI_TOOL_OK && r->out.len == 0;
    cli_tool_result_free(r);
    if (st != CLI_TOOL_OK || empty) {
        r->status = empty ? CLI_TOOL_FAILED : st;
        return r->status;
    }
    char since[32], until[32];
    snprintf(since, sizeof since, "@%lld", start);
    snprintf(until, sizeof until, "@%lld", end + 1);
    const char *win[] = {"journalctl", "-k",  "-q",      "--no-pager", "-o", "short-iso",
                         "--since",    since, "--until", until,        NULL};
    return cli_tool_run(win, REC_DMESG_TIMEOUT_MS, REC_DMESG_MAX, r);
}

static void kept_note(char *note, size_t notesz, size_t lines, const char *from)
{
    if (lines)
        snprintf(note, notesz, "%zu line%s during the run (kernel.log, from %s)", lines,
                 lines == 1 ? "" : "s", from);
    else
        snprintf(note, notesz, "no message during the run (%s)", from);
}

int rec_kernel_log(const char *dir, const struct rec_aside *a, long long start, long long end,
                   char *note, size_t notesz)
{
    struct cli_tool_result r;
    enum cli_tool_status dst = read_dmesg(&r);
    if (dst == CLI_TOOL_OK && a->have_mark) {
        const char *span = after_mark(r.out.data ? r.out.data : "", a->mark);
        if (*span) rec_write_file(dir, "kernel.log", span, strlen(span));
        kept_note(note, notesz, count_lines(span), "dmesg");
        cli_tool_result_free(&r);
        return 1;
    }
    cli_tool_result_free(&r);
    /* without the mark dmesg's ring has no window; the journal's lines have times */
    const char *dwhy = dst == CLI_TOOL_OK ? "not read when the run began" : tool_why(dst);
    enum cli_tool_status jst = read_journal(start, end, &r);
    if (jst == CLI_TOOL_OK) {
        const char *text = r.out.data ? r.out.data : "";
        if (*text) rec_write_file(dir, "kernel.log", text, strlen(text));
        kept_note(note, notesz, count_lines(text), "journalctl -k");
        cli_tool_result_free(&r);
        return 1;
    }
    cli_tool_result_free(&r);
    snprintf(note, notesz, "not readable (dmesg: %s; journalctl -k: %s)", dwhy,
             jst == CLI_TOOL_FAILED ? "no kernel journal" : tool_why(jst));
    return 0;
}

/* ---- the gatherer ---- */

/* The host facts files; returns 1 when nvidia-smi answered (so sampling it makes sense). */
static int write_host_files(const char *dir, char *const *cmd, size_t ncmd)
{
    struct cli_host_limits lim;
    cli_host_limits_default(&lim);
    struct cli_options po;
    cli_options_init(&po);
    struct match_pack *pack = cli_load_pack(&po, stderr);
    struct cli_host h;
    cli_host_gather(&h, &lim, pack);
    cli_host_read_launch(&h, pack, (const char *const *)cmd, ncmd, NULL, 0);
    struct cli_preflight p;
    cli_preflight_check(&h, &lim, pack, &p);

    static const struct {
        const char *name;
        int kind; /* 0 text, 1 json, 2 facts */
    } files[] = {{"preflight.txt", 0}, {"preflight.json", 1}, {"host-facts.txt", 2}};
    for (size_t i = 0; i < AZ_ARRAY_LEN(files); i++) {
        char *path = az_xasprintf("%s/%s", dir, files[i].name);
        FILE *f = fopen(path, "w");
        if (f) {
            if (files[i].kind == 0) cli_preflight_write_text(&p, f);
            if (files[i].kind == 1) cli_preflight_write_json(&p, &h, pack, f, GOTCHA_VERSION);
            if (files[i].kind == 2) cli_host_write_facts(&h, f, GOTCHA_VERSION);
            if (fclose(f) != 0) f = NULL;
        }
        if (!f) fprintf(stderr, "gotcha: warning: cannot write '%s'\n", path);
        free(path);
    }
    if (*h.smi_table) rec_write_file(dir, "nvidia-smi.txt", h.smi_table, strlen(h.smi_table));
    int smi_ok = h.smi_status == CLI_TOOL_OK && h.ngpus > 0;
    int py_ok = h.py_status == CLI_TOOL_OK;
    cli_preflight_free(&p);
    cli_host_free(&h);
    match_pack_free(pack);
    return smi_ok | (py_ok << 1);
}

static void say(int fd, const char *fmt, ...) AZ_PRINTF(2, 3);
static void say(int fd, const char *fmt, ...)
{
    struct az_buf b = AZ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    az_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    for (size_t off = 0; off < b.len;) {
        ssize_t w = write(fd, b.data + off, b.len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break; /* the parent stopped listening: the files still get written */
        off += (size_t)w;
    }
    az_buf_free(&b);
}

/* The gatherer's whole life: the kernel log's mark first (the run has just begun), then the
 * facts nvidia-smi and python3 give, then pip freeze (the slowest, needed last). */
static void gather(int fd, const char *dir, char *const *cmd, size_t ncmd)
{
    struct cli_tool_result r;
    if (read_dmesg(&r) == CLI_TOOL_OK && r.out.data) {
        char *mark = last_line(r.out.data, r.out.len);
        say(fd, ASIDE_MARK "%s\n", mark);
        free(mark);
    } else {
        say(fd, ASIDE_NO_MARK "\n");
    }
    cli_tool_result_free(&r);
    int got = write_host_files(dir, cmd, ncmd);
    say(fd, ASIDE_SMI "%d\n", got & 1);
    if (got & 2) {
        const char *argv[] = {"python3", "-m", "pip", "freeze", NULL};
        if (cli_tool_run(argv, REC_PIP_TIMEOUT_MS, REC_PIP_MAX, &r) == CLI_TOOL_OK)
            rec_write_file(dir, "pip-freeze.txt", r.out.data ? r.out.data : "", r.out.len);
        cli_tool_result_free(&r);
    }
    say(fd, ASIDE_DONE "\n");
}

int rec_aside_start(struct rec_aside *a, const char *dir, char *const *cmd, size_t ncmd)
{
    memset(a, 0, sizeof *a);
    a->pid = -1;
    a->fd = -1;
    a->smi = -1;
    int p[2];
    if (pipe(p) != 0) return -1;
    cli_cloexec(p[0]);
    cli_cloexec(p[1]);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0); /* not in the foreground group: a Ctrl-C stops the command, not this */
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE};
        for (size_t i = 0; i < AZ_ARRAY_LEN(sigs); i++) signal(sigs[i], SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        close(p[0]);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0); /* a background group must not read the terminal */
        gather(p[1], dir, cmd, ncmd);
        _exit(0); /* no atexit handlers, no stdio buffers of the parent flushed twice */
    }
    setpgid(pid, pid);
    close(p[1]);
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    a->pid = pid;
    a->fd = p[0];
    return 0;
}

static void take_line(struct rec_aside *a, const char *l, size_t n)
{
    size_t ml = strlen(ASIDE_MARK), sl = strlen(ASIDE_SMI);
    if (n >= ml && memcmp(l, ASIDE_MARK, ml) == 0) {
        free(a->mark);
        a->mark = az_xstrndup(l + ml, n - ml);
        a->have_mark = 1;
    } else if (n > sl && memcmp(l, ASIDE_SMI, sl) == 0) {
        a->smi = l[sl] == '1';
    } else if (n == strlen(ASIDE_DONE) && memcmp(l, ASIDE_DONE, n) == 0) {
        a->done = 1;
    }
}

int rec_aside_read(struct rec_aside *a)
{
    if (a->fd < 0) return 1;
    char buf[4096];
    ssize_t n = read(a->fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (n <= 0) {
        close(a->fd);
        a->fd = -1;
        return 1;
    }
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            take_line(a, a->in.data ? a->in.data : "", a->in.len);
            az_buf_reset(&a->in);
        } else if (a->in.len < REC_ASIDE_LINE_MAX) {
            az_buf_putc(&a->in, buf[i]);
        }
    }
    return 0;
}

void rec_aside_reap(struct rec_aside *a, int kill_it)
{
    if (a->pid <= 0) return;
    if (kill_it) kill(-a->pid, SIGKILL);
    int st;
    while (waitpid(a->pid, &st, 0) < 0 && errno == EINTR) {
    }
    a->pid = -1;
}

void rec_aside_free(struct rec_aside *a)
{
    if (!a) return;
    if (a->fd >= 0) close(a->fd);
    a->fd = -1;
    az_buf_free(&a->in);
    free(a->mark);
    a->mark = NULL;
}
