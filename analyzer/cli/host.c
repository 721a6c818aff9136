/* cli/host.c - the live host: tools under a deadline, and the facts the live commands share. See
 * host.h. */
#include "cli/host.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "match/match.h"
#include "tokenize/tok.h"

/* nvidia-smi answers in well under a second on a healthy driver; a wedged one hangs for minutes.
 * Ten seconds is generous for the first and short enough for the second. */
#define HOST_SMI_TIMEOUT_MS 10000
/* The probe imports torch (seconds on aarch64, more on a cold page cache) and initialises CUDA. */
#define HOST_PYTHON_TIMEOUT_MS   60000
#define HOST_LDCONFIG_TIMEOUT_MS 5000
/* Tool output kept: nvidia-smi of 16 GPUs and the probe fit in a fraction of it. */
#define HOST_TOOL_MAX_OUT (256 * 1024)
/* A config file is read up to this many bytes for a tensor-parallel setting. */
#define HOST_CONFIG_MAX (1024 * 1024)
/* A process's command line is read up to this many bytes (the kernel's own page is 4 KiB+). */
#define HOST_CMDLINE_MAX (64 * 1024)
/* Slice of the wait loop: how late a finished tool is noticed at worst. */
#define HOST_POLL_SLICE_MS 20

/* ---- running a tool ---- */

long long cli_mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void cli_cloexec(int fd)
{
    int fl = fcntl(fd, F_GETFD);
    if (fl >= 0) fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

/* In a freshly forked child: the dispositions and mask a plain exec from a shell would have. */
static void child_reset_signals(void)
{
    static const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
                               SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < AZ_ARRAY_LEN(sigs); i++) signal(sigs[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

enum cli_tool_status cli_tool_run(const char *const *argv, unsigned timeout_ms, size_t max_out,
                                  struct cli_tool_result *res)
{
    memset(res, 0, sizeof *res);
    res->status = CLI_TOOL_MISSING;
    int out[2], report[2];
    if (pipe(out) != 0) return res->status;
    if (pipe(report) != 0) {
        close(out[0]);
        close(out[1]);
        return res->status;
    }
    cli_cloexec(out[0]);
    cli_cloexec(report[0]);
    cli_cloexec(report[1]);
    pid_t pid = fork();
    if (pid < 0) {
        close(out[0]);
        close(out[1]);
        close(report[0]);
        close(report[1]);
        return res->status;
    }
    if (pid == 0) {
        setpgid(0, 0); /* its own group: a kill at the deadline reaches what it spawned */
        child_reset_signals();
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 2);
        }
        dup2(out[1], 1);
        char *const *av; /* execvp's prototype predates const: it does not write argv */
        memcpy(&av, &argv, sizeof av);
        execvp(argv[0], av);
        int e = errno;
        ssize_t w = write(report[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    setpgid(pid, pid); /* also here, so the group exists before any kill below */
    close(out[1]);
    close(report[1]);

    long long deadline = cli_mono_ms() + timeout_ms;
    int status = 0, exited = 0, timed_out = 0, open_out = 1;
    char chunk[8192];
    while (!exited || open_out) {
        long long left = deadline - cli_mono_ms();
        if (left <= 0) {
            timed_out = !exited;
            break;
        }
        if (open_out) {
            struct pollfd pfd = {out[0], POLLIN, 0};
            int slice = exited ? 0 : (int)AZ_MIN(left, (long long)HOST_POLL_SLICE_MS);
            int pr = poll(&pfd, 1, slice);
            if (pr > 0) {
                ssize_t n = read(out[0], chunk, sizeof chunk);
                if (n > 0) {
                    size_t keep =
                        res->out.len < max_out ? AZ_MIN((size_t)n, max_out - res->out.len) : 0;
                    if (keep) az_buf_append(&res->out, chunk, keep);
                    if (keep < (size_t)n) res->truncated = 1;
                } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                    open_out = 0;
                }
            } else if (pr == 0 && exited) {
                open_out = 0; /* exited and nothing more buffered: a grandchild may hold it */
            }
        } else {
            struct timespec ts = {0, HOST_POLL_SLICE_MS * 1000000L};
            nanosleep(&ts, NULL);
        }
        if (!exited) {
            pid_t r = waitpid(pid, &status, WNOHANG);
            if (r == pid) exited = 1;
        }
    }
    if (timed_out) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    } else if (!exited) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    close(out[0]);
    int exec_errno = 0;
    ssize_t got = read(report[0], &exec_errno, sizeof exec_errno);
    close(report[0]);

    if (timed_out)
        res->status = CLI_TOOL_TIMEOUT;
    else if (got == (ssize_t)sizeof exec_errno)
        res->status = CLI_TOOL_MISSING;
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        res->status = CLI_TOOL_OK;
    else {
        res->status = CLI_TOOL_FAILED;
        res->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (!res->out.data) az_buf_puts(&res->out, "");
    return res->status;
}

void cli_tool_result_free(struct cli_tool_result *res)
{
    if (res) az_buf_free(&res->out);
}

/* ---- small text helpers ---- */

static char *trim_dup(const char *p, size_t n)
{
    while (n && isspace((unsigned char)*p)) p++, n--;
    while (n && isspace((unsigned char)p[n - 1])) n--;
    return az_xstrndup(p, n);
}

/* Next line of *p (without its terminator) into (line, n); 0 at the end. */
static int next_line(const char **p, const char **line, size_t *n)
{
    if (!*p || !**p) return 0;
    const char *nl = strchr(*p, '\n');
    *line = *p;
    *n = nl ? (size_t)(nl - *p) : strlen(*p);
    if (*n && (*line)[*n - 1] == '\r') (*n)--;
    *p = nl ? nl + 1 : *p + strlen(*p);
    return 1;
}

/* Split a "a, b, c" nvidia-smi CSV row into at most max trimmed fields; returns the count. */
static size_t split_csv(const char *line, size_t n, char **fields, size_t max)
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= n && k < max; i++) {
        if (i == n || line[i] == ',') {
            fields[k++] = trim_dup(line + start, i - start);
            start = i + 1;
        }
    }
    return k;
}

static int read_small_file(const char *path, struct az_buf *b, size_t cap)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    char chunk[8192];
    ssize_t n;
    while (b->len < cap && (n = read(fd, chunk, AZ_MIN(sizeof chunk, cap - b->len))) > 0)
        az_buf_append(b, chunk, (size_t)n);
    close(fd);
    if (!b->data) az_buf_puts(b, "");
    return 0;
}

/* ---- nvidia-smi ---- */

static const char smi_query[] = "--query-gpu=name,driver_version,compute_cap,temperature.gpu,"
                                "power.draw,memory.used,memory.total";
/* Drivers before compute_cap existed (R470) refuse the whole query: ask again without it. */
static const char smi_query_old[] = "--query-gpu=name,driver_version,temperature.gpu,power.draw,"
                                    "memory.used,memory.total";

static void parse_gpus(struct cli_host *h, const char *text, int with_cap)
{
    const char *p = text, *line;
    size_t n;
    while (next_line(&p, &line, &n) && h->ngpus < CLI_HOST_MAX_GPUS) {
        char *f[7] = {0};
        size_t want = with_cap ? 7 : 6;
        size_t k = split_csv(line, n, f, want);
        if (k == want && f[0][0]) {
            struct cli_gpu *g = &h->gpus[h->ngpus++];
            size_t i = 0;
            g->name = f[i++];
            g->driver = f[i++];
            g->cap = with_cap ? f[i++] : az_xstrdup("");
            g->temp = f[i++];
            g->power = f[i++];
            g->mem_used = f[i++];
            g->mem_total = f[i++];
        } else {
            for (size_t j = 0; j < k; j++) free(f[j]);
        }
    }
}

static void parse_cuda_driver(struct cli_host *h)
{
    const char *v = strstr(h->smi_table, "CUDA Version:");
    if (!v) return;
    v += strlen("CUDA Version:");
    while (*v == ' ') v++;
    size_t n = strspn(v, "0123456789.");
    if (n) {
        free(h->cuda_driver);
        h->cuda_driver = az_xstrndup(v, n);
    }
}

static void add_proc(struct cli_host *h, long pid, const char *name, const char *gpu_mem,
                     const char *server, const char *cap)
{
    for (size_t i = 0; i < h->nprocs; i++) {
        struct cli_proc *p = &h->procs[i];
        if (p->pid != pid) continue;
        if (gpu_mem && *gpu_mem && !*p->gpu_mem) {
            free(p->gpu_mem);
            p->gpu_mem = az_xstrdup(gpu_mem);
        }
        if (server && *server && !*p->server) {
            free(p->server);
            p->server = az_xstrdup(server);
        }
        if (cap && *cap && !*p->mem_cap) {
            free(p->mem_cap);
            p->mem_cap = az_xstrdup(cap);
        }
        return;
    }
    if (h->nprocs >= CLI_HOST_MAX_PROCS) return;
    struct cli_proc *p = &h->procs[h->nprocs++];
    p->pid = pid;
    p->name = az_xstrdup(name ? name : "");
    p->gpu_mem = az_xstrdup(gpu_mem ? gpu_mem : "");
    p->server = az_xstrdup(server ? server : "");
    p->mem_cap = az_xstrdup(cap ? cap : "");
}

static void parse_apps(struct cli_host *h, const char *text)
{
    const char *p = text, *line;
    size_t n;
    while (next_line(&p, &line, &n)) {
        char *f[3] = {0};
        size_t k = split_csv(line, n, f, 3);
        if (k == 3 && isdigit((unsigned char)f[0][0]))
            add_proc(h, strtol(f[0], NULL, 10), f[1], f[2], NULL, NULL);
        for (size_t j = 0; j < k; j++) free(f[j]);
    }
}

static void gather_smi(struct cli_host *h, const struct cli_host_limits *lim)
{
    struct cli_tool_result r;
    const char *q[] = {"nvidia-smi", smi_query, "--format=csv,noheader", NULL};
    h->smi_status = cli_tool_run(q, lim->smi_ms, HOST_TOOL_MAX_OUT, &r);
    if (h->smi_status == CLI_TOOL_OK) {
        parse_gpus(h, r.out.data, 1);
    } else if (h->smi_status == CLI_TOOL_FAILED) {
        cli_tool_result_free(&r);
        const char *q2[] = {"nvidia-smi", smi_query_old, "--format=csv,noheader", NULL};
        h->smi_status = cli_tool_run(q2, lim->smi_ms, HOST_TOOL_MAX_OUT, &r);
        if (h->smi_status == CLI_TOOL_OK) parse_gpus(h, r.out.data, 0);
    }
    cli_tool_result_free(&r);
    if (h->smi_status != CLI_TOOL_OK) return; /* missing, failing or hung: ask nothing more */

    const char *t[] = {"nvidia-smi", NULL};
    if (cli_tool_run(t, lim->smi_ms, HOST_TOOL_MAX_OUT, &r) == CLI_TOOL_OK) {
        free(h->smi_table);
        h->smi_table = az_buf_steal(&r.out);
        parse_cuda_driver(h);
    } else if (r.status == CLI_TOOL_TIMEOUT) {
        cli_tool_result_free(&r);
        return;
    }
    cli_tool_result_free(&r);
    const char *a[] = {"nvidia-smi", "--query-compute-apps=pid,process_name,used_memory",
                       "--format=csv,noheader", NULL};
    if (cli_tool_run(a, lim->smi_ms, HOST_TOOL_MAX_OUT, &r) == CLI_TOOL_OK)
        parse_apps(h, r.out.data);
    cli_tool_result_free(&r);
}

/* ---- python3 ---- */

/* Capabilities whose kernel targets the probe looks for (the pack declares one today). */
#define HOST_PROBE_TARGETS 8

/* One python3 run answers every question about the Python side, as "key=value" lines; every
 * step is guarded so one failure (no torch, no GPU) still leaves the others. Its arguments are
 * the kernel targets of the pack's platforms ("sm_121", "compute_121" for capability 12.1):
 * flash_attn.target says whether flash-attn's CUDA extension names one. */
static const char py_probe[] =
    "import sys, platform\n"
    "T = [a.encode() for a in sys.argv[1:]]\n"
    "def p(k, v):\n"
    "    print('%s=%s' % (k, str(v).replace('\\n', ' ').replace('\\r', ' ')[:300]))\n"
    "p('python', platform.python_version())\n"
    "p('platform', platform.platform())\n"
    "p('machine', platform.machine())\n"
    "try:\n"
    "    from importlib import metadata as md\n"
    "except Exception:\n"
    "    md = None\n"
    "for n in ('torch', 'triton', 'pytorch-triton', 'xformers', 'transformers', 'flash-attn',\n"
    "          'unsloth', 'vllm', 'trl', 'accelerate', 'bitsandbytes'):\n"
    "    try:\n"
    "        p('dist.' + n, md.version(n))\n"
    "    except Exception:\n"
    "        pass\n"
    "try:\n"
    "    import torch\n"
    "    p('torch.version', torch.__version__)\n"
    "    p('torch.cuda', torch.version.cuda or '')\n"
    "    try:\n"
    "        ok = torch.cuda.is_available()\n"
    "        p('cuda.available', int(bool(ok)))\n"
    "        if ok:\n"
    "            p('cuda.count', torch.cuda.device_count())\n"
    "            p('cuda.capability', '%d.%d' % tuple(torch.cuda.get_device_capability(0)))\n"
    "            p('cuda.name', torch.cuda.get_device_name(0))\n"
    "            p('cuda.arch_list', ' '.join(torch.cuda.get_arch_list()))\n"
    "    except Exception as e:\n"
    "        p('cuda.error', '%s: %s' % (type(e).__name__, e))\n"
    "except Exception as e:\n"
    "    p('torch.error', '%s: %s' % (type(e).__name__, e))\n"
    "try:\n"
    "    import importlib.util as u\n"
    "    p('unsloth', int(u.find_spec('unsloth') is not None))\n"
    "    if u.find_spec('flash_attn') is None:\n"
    "        p('flash_attn.error', 'not installed')\n"
    "    else:\n"
    "        try:\n"
    "            import flash_attn\n"
    "            p('flash_attn.version', getattr(flash_attn, '__version__', '?'))\n"
    "            s = u.find_spec('flash_attn_2_cuda')\n"
    "            if s and s.origin:\n"
    "                found, tail, left = 0, b'', 1 << 31\n"
    "                with open(s.origin, 'rb') as f:\n"
    "                    while left > 0 and not found:\n"
    "                        c = f.read(1 << 20)\n"
    "                        if not c:\n"
    "                            break\n"
    "                        left -= len(c)\n"
    "                        found = any(t in tail + c for t in T)\n"
    "                        tail = c[-16:]\n"
    "                p('flash_attn.target', int(bool(found)))\n"
    "        except Exception as e:\n"
    "            p('flash_attn.error', '%s: %s' % (type(e).__name__, e))\n"
    "except Exception as e:\n"
    "    p('probe.error', e)\n";

static void gather_python(struct cli_host *h, const struct cli_host_limits *lim,
                          const struct match_pack *pack)
{
    struct cli_tool_result r;
    const char *argv[3 + 2 * HOST_PROBE_TARGETS + 1] = {"python3", "-c", py_probe};
    char targets[2 * HOST_PROBE_TARGETS][32];
    size_t na = 3, nt = 0;
    for (size_t i = 0; i < match_pack_platform_count(pack); i++) {
        const struct match_platform *pl = match_pack_platform(pack, i);
        for (size_t k = 0; k < pl->ncapabilities && nt + 2 <= 2 * HOST_PROBE_TARGETS; k++) {
            char digits[16] = "";
            size_t d = 0;
            for (const char *c = pl->capabilities[k]; *c && d + 1 < sizeof digits; c++)
                if (isdigit((unsigned char)*c)) digits[d++] = *c;
            digits[d] = '\0';
            snprintf(targets[nt], sizeof targets[nt], "sm_%s", digits);
            argv[na++] = targets[nt++];
            snprintf(targets[nt], sizeof targets[nt], "compute_%s", digits);
            argv[na++] = targets[nt++];
        }
    }
    argv[na] = NULL;
    h->py_status = cli_tool_run(argv, lim->python_ms, HOST_TOOL_MAX_OUT, &r);
    if (h->py_status == CLI_TOOL_OK) {
        const char *p = r.out.data, *line;
        size_t n;
        while (next_line(&p, &line, &n)) {
            const char *eq = memchr(line, '=', n);
            if (!eq || eq == line) continue;
            h->py_keys = az_xrealloc(h->py_keys, (h->npy + 1) * sizeof *h->py_keys);
            h->py_values = az_xrealloc(h->py_values, (h->npy + 1) * sizeof *h->py_values);
            h->py_keys[h->npy] = az_xstrndup(line, (size_t)(eq - line));
            h->py_values[h->npy] = trim_dup(eq + 1, n - (size_t)(eq - line) - 1);
            h->npy++;
        }
    }
    cli_tool_result_free(&r);
}

const char *cli_host_py(const struct cli_host *h, const char *key)
{
    for (size_t i = 0; i < h->npy; i++)
        if (strcmp(h->py_keys[i], key) == 0) return h->py_values[i];
    return "";
}

/* ---- ldconfig ---- */

static void gather_ldconfig(struct cli_host *h)
{
    /* /sbin is not on every user's PATH; ldconfig -p only reads the cache, no root needed */
    static const char *const tools[] = {"ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig"};
    for (size_t i = 0; i < AZ_ARRAY_LEN(tools); i++) {
        struct cli_tool_result r;
        const char *argv[] = {tools[i], "-p", NULL};
        enum cli_tool_status st =
            cli_tool_run(argv, HOST_LDCONFIG_TIMEOUT_MS, 4 * HOST_TOOL_MAX_OUT, &r);
        if (st == CLI_TOOL_OK) {
            h->ldconfig_read = 1;
            h->cudart12 = strstr(r.out.data, "libcudart.so.12 ") != NULL;
            h->cudart13 = strstr(r.out.data, "libcudart.so.13 ") != NULL;
        }
        cli_tool_result_free(&r);
        if (st != CLI_TOOL_MISSING) return;
    }
}

/* ---- files under /proc and / ---- */

/* path under $GOTCHA_HOST_ROOT when set (the tests' fixture of another machine's /proc/meminfo
 * and container markers), else path itself. Caller frees. */
char *cli_host_file(const char *path)
{
    const char *root = getenv("GOTCHA_HOST_ROOT");
    return az_xasprintf("%s%s", root && *root ? root : "", path);
}

static void gather_container(struct cli_host *h)
{
    /* the skill's G9 markers, in its order */
    static const char *const markers[] = {"/.dockerenv", "/run/.containerenv"};
    for (size_t i = 0; i < AZ_ARRAY_LEN(markers) && !h->container_marker; i++) {
        char *f = cli_host_file(markers[i]);
        if (access(f, F_OK) == 0) h->container_marker = az_xstrdup(markers[i]);
        free(f);
    }
    struct az_buf b = AZ_BUF_INIT;
    char *cg = cli_host_file("/proc/1/cgroup");
    h->cgroup_readable = read_small_file(cg, &b, 64 * 1024) == 0;
    free(cg);
    if (!h->container_marker && h->cgroup_readable &&
        (strstr(b.data, "docker") || strstr(b.data, "containerd") || strstr(b.data, "kubepods")))
        h->container_marker = az_xstrdup("cgroup");
    az_buf_free(&b);
    if (!h->container_marker) h->container_marker = az_xstrdup("");
}

static long long meminfo_kb(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, key, kl) == 0 && p[kl] == ':') return strtoll(p + kl + 1, NULL, 10);
        p = strchr(p, '\n');
        if (p) p++;
    }
    return -1;
}

static void gather_meminfo(struct cli_host *h)
{
    struct az_buf b = AZ_BUF_INIT;
    h->mem_total_kb = h->mem_free_kb = h->mem_available_kb = h->cached_kb = h->huge_total = -1;
    char *mi = cli_host_file("/proc/meminfo");
    int ok = read_small_file(mi, &b, 64 * 1024) == 0;
    free(mi);
    if (ok) {
        h->mem_total_kb = meminfo_kb(b.data, "MemTotal");
        h->mem_free_kb = meminfo_kb(b.data, "MemFree");
        h->mem_available_kb = meminfo_kb(b.data, "MemAvailable");
        h->cached_kb = meminfo_kb(b.data, "Cached");
        h->huge_total = meminfo_kb(b.data, "HugePages_Total");
    }
    az_buf_free(&b);
}

/* ---- facts the pattern pack reads from a line ---- */

/* The first value of each wanted fact (docs/patterns.md "Fact naming") in the lines scanned. */
struct fact_want {
    const char *name;
    char val[64];
    size_t line; /* where it was found (1-based), 0 when not found */
};

struct fact_scan {
    struct fact_want *want;
    size_t nwant;
    size_t line;
};

static void on_fact_hit(void *vctx, const struct match_hit *hit)
{
    struct fact_scan *c = vctx;
    for (size_t i = 0; i < hit->nfacts; i++)
        for (size_t k = 0; k < c->nwant; k++) {
            struct fact_want *w = &c->want[k];
            if (w->line || strcmp(hit->facts[i].def->name, w->name) != 0) continue;
            snprintf(w->val, sizeof w->val, "%.*s", (int)hit->facts[i].len, hit->facts[i].val);
            w->line = c->line;
        }
}

/* Scan text line by line with the pack (every signature), filling want. */
static void scan_facts(struct match_scanner *sc, const char *text, size_t len,
                       struct fact_want *want, size_t nwant)
{
    struct fact_scan c = {want, nwant, 0};
    const char *p = text, *end = text + len;
    match_scanner_begin_stream(sc); /* one probe's output: "after" looks back only within it */
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        c.line++;
        match_scanner_scan(sc, TOK_KIND_TEXT, p, n, on_fact_hit, &c);
        p += n + 1;
    }
}

/* GPU servers: a process whose command line the pack reads as a server ("process", the G6
 * server signatures: vllm serve, ollama serve, sglang.launch_server, ...) with its memory cap
 * ("gpu_mem_util": --gpu-memory-utilization, --mem-fraction-static). The list of servers is the
 * pack's, not gotcha's. */
static void gather_procs(struct cli_host *h, struct match_scanner *sc)
{
    char *proc = cli_host_file("/proc");
    DIR *d = sc ? opendir(proc) : NULL;
    if (!d) {
        free(proc);
        return;
    }
    pid_t self = getpid(), parent = getppid();
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)de->d_name[0])) continue;
        long pid = strtol(de->d_name, NULL, 10);
        if (pid == (long)self || pid == (long)parent) continue;
        char *path = az_xasprintf("%s/%ld/cmdline", proc, pid);
        struct az_buf b = AZ_BUF_INIT;
        int unread = read_small_file(path, &b, HOST_CMDLINE_MAX) != 0 || b.len == 0;
        free(path);
        if (unread) {
            az_buf_free(&b);
            continue;
        }
        /* argv is NUL-separated: one line with blanks, as ps shows it (no newline can split it) */
        for (size_t i = 0; i < b.len; i++)
            if (b.data[i] == '\0' || b.data[i] == '\n') b.data[i] = ' ';
        struct fact_want want[] = {{"process", "", 0}, {"gpu_mem_util", "", 0}};
        scan_facts(sc, b.data, b.len, want, AZ_ARRAY_LEN(want));
        const char *argv0 = b.data;
        size_t n0 = strcspn(argv0, " ");
        char name[64];
        const char *base = argv0;
        for (size_t i = 0; i < n0; i++)
            if (argv0[i] == '/') base = argv0 + i + 1;
        snprintf(name, sizeof name, "%.*s", (int)(n0 - (size_t)(base - argv0)), base);
        if (want[0].line)
            add_proc(h, pid, name, NULL, want[0].val, want[1].val);
        else /* a GPU-holding process nvidia-smi listed: learn its cap if it has one */
            for (size_t i = 0; i < h->nprocs; i++)
                if (h->procs[i].pid == pid) add_proc(h, pid, NULL, NULL, NULL, want[1].val);
        az_buf_free(&b);
    }
    closedir(d);
    free(proc);
}

/* CUDA, allocator, distributed and build settings a post-mortem asks about. */
static const char *const env_names[] = {"CUDA_VISIBLE_DEVICES",
                                        "PYTORCH_CUDA_ALLOC_CONF",
                                        "TORCH_CUDA_ARCH_LIST",
                                        "WORLD_SIZE",
                                        "LOCAL_WORLD_SIZE",
                                        "NNODES",
                                        "RANK",
                                        "MASTER_ADDR",
                                        "NCCL_SOCKET_IFNAME",
                                        "NCCL_IB_HCA",
                                        "TRITON_PTXAS_PATH",
                                        "CUDA_HOME",
                                        "NVIDIA_PYTORCH_VERSION",
                                        "PIP_CONSTRAINT",
                                        "HF_HUB_ENABLE_HF_TRANSFER",
                                        NULL};

const char *const *cli_host_env_names(void)
{
    return env_names;
}

static void gather_env(struct cli_host *h)
{
    for (size_t i = 0; env_names[i]; i++) {
        const char *v = getenv(env_names[i]);
        if (!v) continue;
        h->env = az_xrealloc(h->env, (h->nenv + 1) * sizeof *h->env);
        h->env[h->nenv++] = az_xasprintf("%s=%s", env_names[i], v);
    }
    const char *ws = getenv("WORLD_SIZE");
    h->world_size = az_xstrdup(ws ? ws : "");
}

void cli_host_limits_default(struct cli_host_limits *l)
{
    l->smi_ms = HOST_SMI_TIMEOUT_MS;
    l->python_ms = HOST_PYTHON_TIMEOUT_MS;
}

void cli_host_gather(struct cli_host *h, const struct cli_host_limits *lim,
                     const struct match_pack *pack)
{
    memset(h, 0, sizeof *h);
    h->smi_table = az_xstrdup("");
    h->cuda_driver = az_xstrdup("");
    h->nnodes = az_xstrdup("");
    h->tp_size = az_xstrdup("");
    h->tp_where = az_xstrdup("");
    gather_smi(h, lim);
    gather_python(h, lim, pack);
    gather_ldconfig(h);
    gather_container(h);
    gather_meminfo(h);
    struct match_scanner *sc = pack ? match_scanner_new(pack) : NULL;
    gather_procs(h, sc);
    match_scanner_free(sc);
    gather_env(h);
}

void cli_host_free(struct cli_host *h)
{
    if (!h) return;
    for (size_t i = 0; i < h->ngpus; i++) {
        struct cli_gpu *g = &h->gpus[i];
        free(g->name);
        free(g->driver);
        free(g->cap);
        free(g->temp);
        free(g->power);
        free(g->mem_used);
        free(g->mem_total);
    }
    for (size_t i = 0; i < h->nprocs; i++) {
        free(h->procs[i].name);
        free(h->procs[i].gpu_mem);
        free(h->procs[i].server);
        free(h->procs[i].mem_cap);
    }
    for (size_t i = 0; i < h->npy; i++) {
        free(h->py_keys[i]);
        free(h->py_values[i]);
    }
    free(h->py_keys);
    free(h->py_values);
    for (size_t i = 0; i < h->nenv; i++) free(h->env[i]);
    free(h->env);
    free(h->smi_table);
    free(h->cuda_driver);
    free(h->container_marker);
    free(h->world_size);
    free(h->nnodes);
    free(h->tp_size);
    free(h->tp_where);
    memset(h, 0, sizeof *h);
}

/* ---- the launch ---- */

static void set_owned(char **dst, char *v)
{
    free(*dst);
    *dst = v;
}

static int looks_like_config(const char *path)
{
    static const char *const exts[] = {".yaml", ".yml", ".json", ".toml", ".sh", ".cfg"};
    size_t n = strlen(path);
    for (size_t i = 0; i < AZ_ARRAY_LEN(exts); i++) {
        size_t el = strlen(exts[i]);
        if (n > el && strcmp(path + n - el, exts[i]) == 0) return 1;
    }
    return 0;
}

/* The launch's facts as the pack reads them (CTX.vllm-config, CTX.dist): "tp_size", "nnodes". */
static void launch_facts(struct cli_host *h, struct match_scanner *sc, const char *text, size_t len,
                         const char *where)
{
    struct fact_want want[] = {{"tp_size", "", 0}, {"nnodes", "", 0}};
    scan_facts(sc, text, len, want, AZ_ARRAY_LEN(want));
    if (want[0].line && !*h->tp_size && strcmp(want[0].val, "1") != 0) {
        set_owned(&h->tp_size, az_xstrdup(want[0].val));
        set_owned(&h->tp_where, where ? az_xasprintf("%s:%zu", where, want[0].line)
                                      : az_xstrdup("the command line"));
    }
    if (want[1].line && !*h->nnodes) set_owned(&h->nnodes, az_xstrdup(want[1].val));
}

static void read_config(struct cli_host *h, struct match_scanner *sc, const char *path)
{
    struct az_buf b = AZ_BUF_INIT;
    if (read_small_file(path, &b, HOST_CONFIG_MAX) != 0) {
        az_buf_free(&b);
        return;
    }
    h->nconfigs++;
    launch_facts(h, sc, b.data, b.len, path);
    az_buf_free(&b);
}

void cli_host_read_launch(struct cli_host *h, const struct match_pack *pack,
                          const char *const *args, size_t nargs, const char *const *configs,
                          size_t nconfigs)
{
    if (!pack) return;
    struct match_scanner *sc = match_scanner_new(pack);
    struct az_buf joined = AZ_BUF_INIT; /* the command line as one line, as a log would show it */
    for (size_t i = 0; i < nargs; i++) {
        const char *a = args[i];
        if (i) az_buf_putc(&joined, ' ');
        for (const char *c = a; *c; c++) az_buf_putc(&joined, *c == '\n' ? ' ' : *c);
        if (looks_like_config(a)) read_config(h, sc, a);
        const char *eq = strchr(a, '='); /* --config=run.yaml */
        if (eq && looks_like_config(eq + 1)) read_config(h, sc, eq + 1);
    }
    if (joined.len) launch_facts(h, sc, joined.data, joined.len, NULL);
    az_buf_free(&joined);
    for (size_t i = 0; i < nconfigs; i++) read_config(h, sc, configs[i]);
    match_scanner_free(sc);
}

/* ---- summaries ---- */

long cli_host_platform(const struct cli_host *h, const struct match_pack *pack)
{
    int major, minor;
    long at;
    if (h->ngpus) {
        int other = 0;
        for (size_t i = 0; i < h->ngpus; i++) {
            if ((at = match_place_gpu_name(pack, h->gpus[i].name)) >= 0) return at;
            if ((at = match_place_capability(pack, h->gpus[i].cap, &major, &minor)) >= 0) return at;
            other |= h->gpus[i].name[0] != '\0';
        }
        if (other) return MATCH_PLACE_OTHER;
    }
    const char *cap = cli_host_py(h, "cuda.capability"), *name = cli_host_py(h, "cuda.name");
    if ((at = match_place_capability(pack, cap, &major, &minor)) >= 0) return at;
    if ((at = match_place_gpu_name(pack, name)) >= 0) return at;
    if (*cap || *name) return MATCH_PLACE_OTHER;
    return MATCH_PLACE_NONE;
}

const char *cli_host_gpu_name(const struct cli_host *h)
{
    if (h->ngpus && h->gpus[0].name[0]) return h->gpus[0].name;
    return cli_host_py(h, "cuda.name");
}

/* ---- the facts file ---- */

void cli_host_write_facts(const struct cli_host *h, FILE *out, const char *tool_version)
{
    /* "Key: value" in torch.utils.collect_env's words where it has one */
    fprintf(out, "Collecting environment information... (gotcha %s, host facts at the start)\n",
            tool_version);
    const char *tv = cli_host_py(h, "torch.version");
    fprintf(out, "PyTorch version: %s\n", *tv ? tv : "N/A");
    const char *tc = cli_host_py(h, "torch.cuda");
    if (*tv) fprintf(out, "CUDA used to build PyTorch: %s\n", *tc ? tc : "None");
    const char *pyv = cli_host_py(h, "python");
    if (*pyv) fprintf(out, "Python version: %s\n", pyv);
    const char *plat = cli_host_py(h, "platform");
    if (*plat) fprintf(out, "Python platform: %s\n", plat);
    const char *avail = cli_host_py(h, "cuda.available");
    if (*avail) fprintf(out, "Is CUDA available: %s\n", strcmp(avail, "1") == 0 ? "True" : "False");
    if (h->ngpus) {
        fputs("GPU models and configuration:\n", out);
        for (size_t i = 0; i < h->ngpus; i++) fprintf(out, "GPU %zu: %s\n", i, h->gpus[i].name);
        for (size_t i = 0; i < h->ngpus; i++)
            if (*h->gpus[i].cap)
                fprintf(out, "GPU %zu compute capability: %s\n", i, h->gpus[i].cap);
        fprintf(out, "Nvidia driver version: %s\n", h->gpus[0].driver);
    } else if (*cli_host_py(h, "cuda.name")) {
        fprintf(out, "GPU models and configuration: GPU 0: %s\n", cli_host_py(h, "cuda.name"));
    }
    const char *cap = cli_host_py(h, "cuda.capability");
    if (!h->ngpus && *cap) fprintf(out, "GPU 0 compute capability: %s\n", cap);
    if (*h->cuda_driver) fprintf(out, "CUDA driver version (nvidia-smi): %s\n", h->cuda_driver);
    /* no torch arch list here: a cu130 wheel lists sm_121 on any GPU, and a scan would read it
     * as the GPU's capability (G7's line carries it on a GB10) */
    if (*h->container_marker)
        fprintf(out, "Container: yes (%s)\n",
                strcmp(h->container_marker, "cgroup") == 0 ? "cgroup marker" : h->container_marker);
    else
        fprintf(out, "Container: no marker found (%s)\n",
                h->cgroup_readable ? "/proc/1/cgroup read" : "/proc/1/cgroup not readable");
    if (h->mem_total_kb >= 0)
        fprintf(out, "MemTotal: %lld kB\nMemAvailable: %lld kB\n", h->mem_total_kb,
                h->mem_available_kb);
    fputs("Environment:\n", out);
    for (size_t i = 0; i < h->nenv; i++) fprintf(out, "  %s\n", h->env[i]);
    fputs("Versions of relevant libraries:\n", out);
    for (size_t i = 0; i < h->npy; i++)
        if (strncmp(h->py_keys[i], "dist.", 5) == 0)
            fprintf(out, "[pip3] %s==%s\n", h->py_keys[i] + 5, h->py_values[i]);
}

/* ---- output helpers ---- */

void cli_json_string(struct az_buf *b, const char *s)
{
    az_buf_putc(b, '"');
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            az_buf_putc(b, '\\');
            az_buf_putc(b, (char)c);
            p++;
        } else if (c < 0x20) {
            static const char esc[] = "btn\0fr";
            if (c >= 8 && c <= 13 && c != 11 && esc[c - 8])
                az_buf_printf(b, "\\%c", esc[c - 8]);
            else
                az_buf_printf(b, "\\u%04x", c);
            p++;
        } else if (c < 0x80) {
            az_buf_putc(b, (char)c);
            p++;
        } else {
            /* keep a well-formed UTF-8 sequence, replace anything else */
            size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
            size_t k = 1;
            while (n && k < n && (p[k] & 0xc0) == 0x80) k++;
            if (n && k == n) {
                az_buf_append(b, p, n);
                p += n;
            } else {
                az_buf_puts(b, "\\ufffd");
                p++;
            }
        }
    }
    az_buf_putc(b, '"');
}

/* compact: "20261201-083638" (names), else ISO-8601 "2026-12-01T08:36:38Z" */
static void utc_format(char *out, size_t outsz, int compact, long long epoch_s)
{
    time_t t = (time_t)epoch_s;
    struct tm tm;
    gmtime_r(&t, &tm);
    if (compact)
        strftime(out, outsz, "%Y%m%d-%H%M%S", &tm);
    else
        strftime(out, outsz, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void cli_utc_stamp(char *out, size_t outsz, long long epoch_s)
{
    utc_format(out, outsz, 0, epoch_s);
}

char *cli_utc_name(const char *prefix, const char *suffix)
{
    char stamp[32];
    utc_format(stamp, sizeof stamp, 1, (long long)time(NULL));
    return az_xasprintf("%s-%s%s", prefix, stamp, suffix);
}
