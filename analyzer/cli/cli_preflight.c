/* cli/cli_preflight.c - `gotcha preflight`: the skill's ten checks on the live host. See live.h
 * and docs/live.md. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/live.h"
#include "common/az.h"
#include "match/match.h"

#ifndef GOTCHA_VERSION
#define GOTCHA_VERSION "0.0.0"
#endif

/* The CUDA major torch must be built for on a GB10 (the skill's G1: Spark ships CUDA 13). */
#define PF_CUDA_MAJOR "13."
/* GB10's compute capability (the skill's G7, torch.cuda.get_device_capability() == (12, 1)). */
#define PF_GB10_CAP "12.1"
/* The kernel target NVFP4 needs on SM121 (the skill's G7: without it FP4 runs ~32% slower). */
#define PF_ARCH_FP4 "121a"
/* The skill's G6: a small job coexists with a server capped at gpu-memory-utilization <= 0.5. */
#define PF_SERVER_CAP_OK 0.5
/* GPU memory below this is a desktop (Xorg, gnome-shell hold tens of MiB), not a competing job. */
#define PF_HOLDER_MIB 1024
/* A page cache above this share of RAM is what a large safetensors load competes with (G3). */
#define PF_CACHE_SHARE 0.25
/* The skill's G5: sustained bandwidth measured on GB10, to budget with instead of the spec. */
#define PF_BANDWIDTH_RANGE "180–192 GB/s"
/* The packages whose drift the skill's G9 names, compared with a container's pins. */
static const char *const pf_pinned[] = {"torch", "triton", "xformers", "transformers"};
/* NGC PyTorch images pin their stack in this file and point PIP_CONSTRAINT at it. */
#define PF_NGC_CONSTRAINTS "/etc/pip/constraint.txt"

const char *cli_pf_status_name(enum cli_pf_status s)
{
    static const char *const names[] = {"PASS", "FAIL", "WARN", "SKIP", "INFO", "UNKNOWN"};
    return (size_t)s < AZ_ARRAY_LEN(names) ? names[s] : "UNKNOWN";
}

/* Fill check g; returns 0 so a check can end with "return set(...)". */
static int set(struct cli_preflight *p, int g, enum cli_pf_status st, const char *fmt, ...)
    AZ_PRINTF(4, 5);
static int set(struct cli_preflight *p, int g, enum cli_pf_status st, const char *fmt, ...)
{
    struct az_buf b = AZ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    az_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    free(p->text[g - 1]);
    p->status[g - 1] = st;
    p->text[g - 1] = az_buf_steal(&b);
    return 0;
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Why python3 could not answer, or NULL when it did. */
static const char *py_problem(const struct cli_host *h, const struct cli_host_limits *lim,
                              char *buf, size_t bufsz)
{
    switch (h->py_status) {
    case CLI_TOOL_OK: return NULL;
    case CLI_TOOL_MISSING: return "python3 not available";
    case CLI_TOOL_TIMEOUT:
        snprintf(buf, bufsz, "python3 did not answer within %u s", lim->python_ms / 1000);
        return buf;
    case CLI_TOOL_FAILED:
    default: return "python3 failed";
    }
}

static const char *smi_problem(const struct cli_host *h, const struct cli_host_limits *lim,
                               char *buf, size_t bufsz)
{
    switch (h->smi_status) {
    case CLI_TOOL_OK: return h->ngpus ? NULL : "nvidia-smi lists no GPU";
    case CLI_TOOL_MISSING: return "nvidia-smi not available";
    case CLI_TOOL_TIMEOUT:
        snprintf(buf, bufsz, "nvidia-smi did not answer within %u s (a hung driver?)",
                 lim->smi_ms / 1000);
        return buf;
    case CLI_TOOL_FAILED:
    default: return "nvidia-smi failed (no driver loaded?)";
    }
}

static int torch_ok(const struct cli_host *h)
{
    return *cli_host_py(h, "torch.version") != '\0';
}

static int check_g1(const struct cli_host *h, const struct cli_host_limits *lim,
                    struct cli_preflight *p)
{
    char why[128];
    const char *pp = py_problem(h, lim, why, sizeof why);
    if (pp) return set(p, 1, CLI_PF_SKIP, "%s", pp);
    if (!torch_ok(h)) return set(p, 1, CLI_PF_SKIP, "torch not importable");
    const char *tv = cli_host_py(h, "torch.version"), *tc = cli_host_py(h, "torch.cuda");
    int gb10 = cli_host_is_gb10(h);
    if (!*tc) return set(p, 1, CLI_PF_WARN, "torch %s is a CPU-only build (no CUDA at all)", tv);
    if (starts(tc, PF_CUDA_MAJOR)) {
        if (h->cudart12 && h->cudart13)
            return set(p, 1, CLI_PF_WARN,
                       "torch built against CUDA %s, but ldconfig lists libcudart.so.12 beside "
                       "libcudart.so.13 (a leftover CUDA 12 runtime a cu12 wheel would load)",
                       tc);
        return set(p, 1, CLI_PF_PASS, "torch built against CUDA %s", tc);
    }
    if (gb10 == 0)
        return set(p, 1, CLI_PF_INFO,
                   "torch built against CUDA %s on %s: not a GB10, the CUDA 13 rule does not "
                   "apply",
                   tc, cli_host_gpu_name(h));
    set(p, 1, CLI_PF_FAIL, "torch built against CUDA %s (need 13.x — see gotcha G1)", tc);
    return 0;
}

static int check_g2(const struct cli_host *h, const struct cli_host_limits *lim,
                    struct cli_preflight *p)
{
    char why[128];
    const char *pp = py_problem(h, lim, why, sizeof why);
    if (pp) return set(p, 2, CLI_PF_SKIP, "%s", pp);
    const char *err = cli_host_py(h, "flash_attn.error"),
               *ver = cli_host_py(h, "flash_attn.version");
    const char *sm = cli_host_py(h, "flash_attn.sm121");
    int unsloth = strcmp(cli_host_py(h, "unsloth"), "1") == 0;
    int gb10 = cli_host_is_gb10(h);
    if (strcmp(err, "not installed") == 0 && gb10 == 0)
        return set(p, 2, CLI_PF_INFO,
                   "flash-attn not installed; %s is not a GB10, the GB10 flash-attn gotcha "
                   "does not apply",
                   cli_host_gpu_name(h));
    if (strcmp(err, "not installed") == 0)
        return set(p, 2, CLI_PF_PASS,
                   "flash-attn not installed: attention runs on SDPA (on a Spark do not build "
                   "flash-attn with pip: there is no wheel for it)");
    if (*err)
        return set(p, 2, CLI_PF_FAIL, "flash-attn is installed but does not import (%s)", err);
    if (!*ver) return set(p, 2, CLI_PF_SKIP, "the python3 probe said nothing about flash-attn");
    if (gb10 == 0)
        return set(
            p, 2, CLI_PF_INFO,
            "flash-attn %s imports on %s: not a GB10, the GB10 flash-attn gotcha does not apply",
            ver, cli_host_gpu_name(h));
    if (unsloth)
        return set(p, 2, CLI_PF_WARN,
                   "flash-attn %s imports and Unsloth is installed: Unsloth prefers FA2 even when "
                   "SDPA is asked for; to keep SDPA set unsloth.models._utils.HAS_FLASH_ATTENTION "
                   "= False before from_pretrained",
                   ver);
    if (gb10 < 0)
        return set(p, 2, CLI_PF_PASS,
                   "flash-attn %s imports (partial — no GPU named, so its kernel target is not "
                   "checked)",
                   ver);
    if (strcmp(sm, "0") == 0)
        return set(p, 2, CLI_PF_WARN,
                   "flash-attn %s imports, but its CUDA extension names no sm_121 target: expect "
                   "it to fail at the first attention call on GB10",
                   ver);
    if (strcmp(sm, "1") == 0)
        return set(p, 2, CLI_PF_PASS, "flash-attn %s imports and its CUDA extension targets sm_121",
                   ver);
    set(p, 2, CLI_PF_PASS,
        "flash-attn %s imports (partial — its CUDA extension was not found, so the GB10 kernel "
        "target is not checked)",
        ver);
    return 0;
}

static long long gib(long long kb)
{
    return kb < 0 ? 0 : kb / (1024 * 1024);
}

static int check_g3(const struct cli_host *h, struct cli_preflight *p)
{
    if (h->mem_total_kb < 0 || h->mem_free_kb < 0)
        return set(p, 3, CLI_PF_SKIP, "/proc/meminfo not readable");
    long long avail = h->mem_available_kb >= 0 ? h->mem_available_kb : h->mem_free_kb;
    long long used = h->mem_total_kb - avail; /* what free(1) calls used since procps 3.3.10 */
    struct az_buf b = AZ_BUF_INIT;
    az_buf_printf(&b, "free/used (GB): %lld %lld; available %lld of %lld GB, page cache %lld GB",
                  gib(h->mem_free_kb), gib(used), gib(avail), gib(h->mem_total_kb),
                  gib(h->cached_kb));
    if (h->huge_total > 0) az_buf_printf(&b, ", %lld huge pages", h->huge_total);
    if (h->cached_kb > 0 && (double)h->cached_kb > PF_CACHE_SHARE * (double)h->mem_total_kb)
        az_buf_puts(&b, " (drop the page cache before a large model load: sync; echo 3 > "
                        "/proc/sys/vm/drop_caches, as root)");
    set(p, 3, CLI_PF_INFO, "%s", b.data);
    az_buf_free(&b);
    return 0;
}

static int check_g4(const struct cli_host *h, const struct cli_host_limits *lim,
                    struct cli_preflight *p)
{
    char why[128];
    const char *sp = smi_problem(h, lim, why, sizeof why);
    if (sp) return set(p, 4, CLI_PF_SKIP, "%s", sp);
    struct az_buf b = AZ_BUF_INIT;
    for (size_t i = 0; i < h->ngpus; i++) {
        if (i) az_buf_printf(&b, "; GPU %zu: ", i);
        az_buf_printf(&b, "%s, %s", h->gpus[i].temp, h->gpus[i].power);
    }
    set(p, 4, CLI_PF_INFO, "%s", b.data);
    az_buf_free(&b);
    return 0;
}

static int check_g5(const struct cli_host *h, struct cli_preflight *p)
{
    if (cli_host_is_gb10(h) == 0)
        return set(p, 5, CLI_PF_INFO,
                   "not a GB10 (%s): the GB10 figures (%s sustained) do not "
                   "apply",
                   cli_host_gpu_name(h), PF_BANDWIDTH_RANGE);
    set(p, 5, CLI_PF_INFO,
        "not probed (a copy probe would load the GPU): budget bandwidth-limited steps at %s "
        "sustained, not the spec sheet's peak",
        PF_BANDWIDTH_RANGE);
    return 0;
}

static int check_g6(const struct cli_host *h, const struct cli_host_limits *lim,
                    struct cli_preflight *p)
{
    struct az_buf warn = AZ_BUF_INIT, ok = AZ_BUF_INIT;
    for (size_t i = 0; i < h->nprocs; i++) {
        const struct cli_proc *pr = &h->procs[i];
        long mib = strtol(pr->gpu_mem, NULL, 10);
        if (*pr->server) {
            double cap = *pr->mem_cap ? strtod(pr->mem_cap, NULL) : -1;
            struct az_buf *dst = cap >= 0 && cap <= PF_SERVER_CAP_OK ? &ok : &warn;
            if (dst->len) az_buf_puts(dst, "; ");
            az_buf_printf(dst, "%s (pid %ld, ", pr->server, pr->pid);
            if (*pr->mem_cap)
                az_buf_printf(dst, "memory cap %s", pr->mem_cap);
            else
                az_buf_puts(dst, "no memory cap");
            if (*pr->gpu_mem) az_buf_printf(dst, ", %s", pr->gpu_mem);
            az_buf_putc(dst, ')');
        } else if (*pr->gpu_mem && mib >= PF_HOLDER_MIB) {
            if (warn.len) az_buf_puts(&warn, "; ");
            az_buf_printf(&warn, "%s (pid %ld, %s)", pr->name, pr->pid, pr->gpu_mem);
        }
    }
    char why[128];
    const char *sp = smi_problem(h, lim, why, sizeof why);
    if (warn.len)
        set(p, 6, CLI_PF_WARN,
            "other processes %s: %s — cap servers at %.1f or less or stop them before a heavy "
            "run",
            cli_host_is_gb10(h) == 0 ? "hold GPU memory" : "share the one GPU memory pool",
            warn.data, PF_SERVER_CAP_OK);
    else if (ok.len)
        set(p, 6, CLI_PF_PASS, "only capped GPU servers run: %s (a small job can share)", ok.data);
    else if (sp)
        set(p, 6, CLI_PF_PASS, "no GPU server process in the process table (%s)", sp);
    else
        set(p, 6, CLI_PF_PASS, "no other GPU-resident process");
    az_buf_free(&warn);
    az_buf_free(&ok);
    return 0;
}

/* "(12, 1)" from "12.1". */
static void cap_tuple(const char *cap, char *out, size_t outsz)
{
    const char *dot = strchr(cap, '.');
    if (dot)
        snprintf(out, outsz, "(%.*s, %s)", (int)(dot - cap), cap, dot + 1);
    else
        snprintf(out, outsz, "(%s)", cap);
}

static int check_g7(const struct cli_host *h, const struct cli_host_limits *lim,
                    struct cli_preflight *p)
{
    const char *cap = cli_host_py(h, "cuda.capability");
    int from_smi = 0;
    if (!*cap && h->ngpus && *h->gpus[0].cap) {
        cap = h->gpus[0].cap;
        from_smi = 1;
    }
    if (!*cap) {
        char why[128];
        const char *pp = py_problem(h, lim, why, sizeof why);
        if (pp) return set(p, 7, CLI_PF_SKIP, "%s", pp);
        if (!torch_ok(h)) return set(p, 7, CLI_PF_SKIP, "torch not importable");
        return set(p, 7, CLI_PF_SKIP, "torch sees no GPU (torch.cuda.is_available() is False)");
    }
    char tuple[32];
    cap_tuple(cap, tuple, sizeof tuple);
    if (strcmp(cap, PF_GB10_CAP) != 0)
        return set(p, 7, CLI_PF_WARN, "unexpected capability %s (%s is not a GB10)", tuple,
                   *cli_host_gpu_name(h) ? cli_host_gpu_name(h) : "this GPU");
    if (from_smi)
        return set(p, 7, CLI_PF_PASS,
                   "SM121 hardware capability confirmed by nvidia-smi (partial — torch not "
                   "importable, so the kernel target arch (sm_%s) is not checked)",
                   PF_ARCH_FP4);
    const char *al = cli_host_py(h, "cuda.arch_list");
    const char *env = getenv("TORCH_CUDA_ARCH_LIST");
    int has = strstr(al, "sm_" PF_ARCH_FP4) ||
              (env && (strstr(env, "12.1a") || strstr(env, PF_ARCH_FP4)));
    if (has)
        return set(p, 7, CLI_PF_PASS,
                   "SM121 hardware capability confirmed, and sm_%s is targeted (torch arch list: "
                   "%s%s%s)",
                   PF_ARCH_FP4, al, env ? "; TORCH_CUDA_ARCH_LIST=" : "", env ? env : "");
    set(p, 7, CLI_PF_PASS,
        "SM121 hardware capability confirmed (partial — no sm_%s in torch's arch list (%s) or "
        "TORCH_CUDA_ARCH_LIST: stay on FP8 unless your kernels target sm_%s)",
        PF_ARCH_FP4, *al ? al : "empty", PF_ARCH_FP4);
    return 0;
}

static int check_g8(struct cli_preflight *p)
{
    /* No repository URL here: a scan of a recorded run must not read this line as a followed
     * playbook. `gotcha explain G8` gives the link. */
    set(p, 8, CLI_PF_INFO,
        "before trusting a DGX Spark playbook recipe for an expensive run, read the open issues "
        "of NVIDIA's playbooks repository (gotcha explain G8); not automatable");
    return 0;
}

/* Versions equal up to leading zeros in numbers ("nv25.09" is "nv25.9"). */
static int same_version(const char *a, const char *b)
{
    while (*a || *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0' && isdigit((unsigned char)a[1])) a++;
            while (*b == '0' && isdigit((unsigned char)b[1])) b++;
            size_t na = strspn(a, "0123456789"), nb = strspn(b, "0123456789");
            if (na != nb || strncmp(a, b, na) != 0) return 0;
            a += na;
            b += nb;
        } else {
            if (*a != *b) return 0;
            a++;
            b++;
        }
    }
    return 1;
}

/* The pin for package name in constraints text ("torch==2.9.0a0+..."), copied into out. */
static int pin_of(const char *text, const char *name, char *out, size_t outsz)
{
    size_t nl = strlen(name);
    for (const char *l = text; l && *l;) {
        if (strncmp(l, name, nl) == 0 && strncmp(l + nl, "==", 2) == 0) {
            const char *v = l + nl + 2;
            size_t n = strcspn(v, " \t\r\n;#");
            snprintf(out, outsz, "%.*s", (int)n, v);
            return 1;
        }
        l = strchr(l, '\n');
        if (l) l++;
    }
    return 0;
}

static int check_g9(const struct cli_host *h, struct cli_preflight *p)
{
    const char *m = h->container_marker;
    if (!*m) {
        if (!h->cgroup_readable) return set(p, 9, CLI_PF_SKIP, "/proc/1/cgroup not readable");
        const char *tv = cli_host_py(h, "dist.torch");
        return set(p, 9, CLI_PF_UNKNOWN,
                   "no container marker matched — this does not prove a bare host (torch %s, "
                   "triton %s: on bare pip nothing pins them to each other)",
                   *tv ? tv : "absent",
                   *cli_host_py(h, "dist.triton") ? cli_host_py(h, "dist.triton") : "absent");
    }
    const char *how =
        strcmp(m, "cgroup") == 0 ? "cgroup marker present" : "Docker/Podman marker file present";
    /* the image's pins: NGC images point PIP_CONSTRAINT at their constraint file */
    const char *env_cf = getenv("PIP_CONSTRAINT");
    char *cf = env_cf && *env_cf ? az_xstrdup(env_cf) : cli_host_file(PF_NGC_CONSTRAINTS);
    FILE *f = fopen(cf, "r");
    free(cf);
    struct az_buf pins = AZ_BUF_INIT;
    if (f) {
        char chunk[4096];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && pins.len < (1u << 20))
            az_buf_append(&pins, chunk, n);
        fclose(f);
    }
    struct az_buf drift = AZ_BUF_INIT, same = AZ_BUF_INIT;
    for (size_t i = 0; pins.data && i < AZ_ARRAY_LEN(pf_pinned); i++) {
        char pin[128], key[64];
        if (!pin_of(pins.data, pf_pinned[i], pin, sizeof pin)) continue;
        snprintf(key, sizeof key, "dist.%s", pf_pinned[i]);
        const char *have = cli_host_py(h, key);
        struct az_buf *dst = *have && same_version(have, pin) ? &same : &drift;
        if (dst->len) az_buf_puts(dst, ", ");
        if (dst == &same)
            az_buf_printf(dst, "%s %s", pf_pinned[i], pin);
        else
            az_buf_printf(dst, "%s %s (the image pins %s)", pf_pinned[i], *have ? have : "absent",
                          pin);
    }
    const char *ngc = getenv("NVIDIA_PYTORCH_VERSION");
    const char *tv = cli_host_py(h, "dist.torch");
    if (drift.len)
        set(p, 9, CLI_PF_FAIL,
            "running inside a container (%s), but pip changed its pinned "
            "packages: %s — reinstall the image's versions or use --no-deps",
            how, drift.data);
    else if (!pins.data && ngc && *ngc && *tv && !strstr(tv, ".nv"))
        set(p, 9, CLI_PF_FAIL,
            "running inside a container (%s), but torch %s is not the image's NVIDIA build "
            "(NVIDIA_PYTORCH_VERSION=%s)",
            how, tv, ngc);
    else if (same.len)
        set(p, 9, CLI_PF_PASS, "running inside a container (%s); %s match the image's pins", how,
            same.data);
    else
        set(p, 9, CLI_PF_PASS, "running inside a container (%s)", how);
    az_buf_free(&pins);
    az_buf_free(&drift);
    az_buf_free(&same);
    return 0;
}

static int check_g10(const struct cli_host *h, struct cli_preflight *p)
{
    long nodes = *h->nnodes ? strtol(h->nnodes, NULL, 10) : 0;
    long world = *h->world_size ? strtol(h->world_size, NULL, 10) : 0;
    const char *lws = getenv("LOCAL_WORLD_SIZE");
    long local = lws && *lws ? strtol(lws, NULL, 10) : 0;
    /* one GPU per Spark: a world larger than the local ranks, or than this node's GPUs, spans
     * nodes */
    long per_node = local > 0 ? local : (long)(h->ngpus ? h->ngpus : 1);
    int multi = nodes > 1 || (world > 1 && world > per_node);
    long tp = *h->tp_size ? strtol(h->tp_size, NULL, 10) : 0;
    char where[300] = "";
    if (*h->tp_where) snprintf(where, sizeof where, " (%s)", h->tp_where);
    char span[96];
    if (nodes > 1)
        snprintf(span, sizeof span, "--nnodes %ld", nodes);
    else
        snprintf(span, sizeof span, "WORLD_SIZE=%ld", world);
    if (multi && tp > 1)
        return set(p, 10, CLI_PF_FAIL,
                   "tensor parallelism across nodes: tensor parallel size %ld%s with %s — "
                   "between Sparks use DDP or FSDP; TP only within one node",
                   tp, where, span);
    if (multi)
        return set(p, 10, CLI_PF_PASS, "multi-node launch (%s) without tensor parallelism", span);
    if (tp > 1)
        return set(p, 10, CLI_PF_PASS, "tensor parallel size %ld%s within one node", tp, where);
    if (h->nconfigs)
        return set(p, 10, CLI_PF_PASS,
                   "single-node launch (WORLD_SIZE %s, no --nnodes, no tensor-parallel setting "
                   "in %zu config file%s)",
                   world ? h->world_size : "unset", h->nconfigs, h->nconfigs == 1 ? "" : "s");
    set(p, 10, CLI_PF_PASS,
        "no multi-node launch in the environment (WORLD_SIZE %s); name the launch's config "
        "files to check them for tensor parallelism",
        world ? h->world_size : "unset");
    return 0;
}

void cli_preflight_check(const struct cli_host *h, const struct cli_host_limits *lim,
                         struct cli_preflight *p)
{
    memset(p, 0, sizeof *p);
    check_g1(h, lim, p);
    check_g2(h, lim, p);
    check_g3(h, p);
    check_g4(h, lim, p);
    check_g5(h, p);
    check_g6(h, lim, p);
    check_g7(h, lim, p);
    check_g8(p);
    check_g9(h, p);
    check_g10(h, p);
}

void cli_preflight_free(struct cli_preflight *p)
{
    if (!p) return;
    for (int i = 0; i < CLI_PF_CHECKS; i++) free(p->text[i]);
    memset(p, 0, sizeof *p);
}

/* Control bytes from tool output must not forge a second line. */
static void put_clean(FILE *out, const char *s)
{
    for (; *s; s++) fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, out);
}

void cli_preflight_write_text(const struct cli_preflight *p, FILE *out)
{
    for (int i = 0; i < CLI_PF_CHECKS; i++) {
        fprintf(out, "G%d %s: ", i + 1, cli_pf_status_name(p->status[i]));
        put_clean(out, p->text[i] ? p->text[i] : "");
        fputc('\n', out);
    }
}

static const char *tool_state(enum cli_tool_status s)
{
    switch (s) {
    case CLI_TOOL_OK: return "ok";
    case CLI_TOOL_FAILED: return "failed";
    case CLI_TOOL_MISSING: return "missing";
    case CLI_TOOL_TIMEOUT:
    default: return "timeout";
    }
}

static void json_kv(struct az_buf *b, const char *indent, const char *key, const char *value,
                    int comma)
{
    az_buf_printf(b, "%s\"%s\": ", indent, key);
    cli_json_string(b, value ? value : "");
    az_buf_puts(b, comma ? ",\n" : "\n");
}

void cli_preflight_write_json(const struct cli_preflight *p, const struct cli_host *h, FILE *out,
                              const char *tool_version)
{
    struct az_buf b = AZ_BUF_INIT;
    size_t counts[6] = {0};
    az_buf_puts(&b, "{\n  \"schema\": \"gotcha.preflight/1\",\n");
    json_kv(&b, "  ", "tool_version", tool_version, 1);
    az_buf_puts(&b, "  \"checks\": [\n");
    for (int i = 0; i < CLI_PF_CHECKS; i++) {
        counts[p->status[i]]++;
        az_buf_printf(&b, "    {\"id\": \"G%d\", \"status\": \"%s\", \"text\": ", i + 1,
                      cli_pf_status_name(p->status[i]));
        cli_json_string(&b, p->text[i] ? p->text[i] : "");
        az_buf_puts(&b, i + 1 < CLI_PF_CHECKS ? "},\n" : "}\n");
    }
    az_buf_puts(&b, "  ],\n  \"counts\": {");
    for (int s = 0; s < 6; s++)
        az_buf_printf(&b, "%s\"%s\": %zu", s ? ", " : "", cli_pf_status_name((enum cli_pf_status)s),
                      counts[s]);
    az_buf_puts(&b, "},\n  \"host\": {\n");
    az_buf_printf(&b, "    \"nvidia_smi\": \"%s\",\n    \"python3\": \"%s\",\n",
                  tool_state(h->smi_status), tool_state(h->py_status));
    az_buf_puts(&b, "    \"gpus\": [");
    for (size_t i = 0; i < h->ngpus; i++) {
        const struct cli_gpu *g = &h->gpus[i];
        az_buf_puts(&b, i ? ",\n      {" : "\n      {");
        const char *keys[] = {"name",       "driver_version", "compute_cap", "temperature_gpu",
                              "power_draw", "memory_used",    "memory_total"};
        const char *vals[] = {g->name,  g->driver,   g->cap,      g->temp,
                              g->power, g->mem_used, g->mem_total};
        for (size_t k = 0; k < AZ_ARRAY_LEN(keys); k++) {
            az_buf_printf(&b, "%s\"%s\": ", k ? ", " : "", keys[k]);
            cli_json_string(&b, vals[k]);
        }
        az_buf_putc(&b, '}');
    }
    az_buf_puts(&b, h->ngpus ? "\n    ],\n" : "],\n");
    json_kv(&b, "    ", "cuda_driver", h->cuda_driver, 1);
    json_kv(&b, "    ", "torch_version", cli_host_py(h, "torch.version"), 1);
    json_kv(&b, "    ", "torch_cuda", cli_host_py(h, "torch.cuda"), 1);
    json_kv(&b, "    ", "capability", cli_host_py(h, "cuda.capability"), 1);
    json_kv(&b, "    ", "container_marker", h->container_marker, 1);
    az_buf_printf(&b, "    \"is_gb10\": %s,\n",
                  cli_host_is_gb10(h) > 0    ? "true"
                  : cli_host_is_gb10(h) == 0 ? "false"
                                             : "null");
    az_buf_printf(&b, "    \"mem_total_kb\": %lld,\n    \"mem_available_kb\": %lld\n  }\n}\n",
                  h->mem_total_kb, h->mem_available_kb);
    fwrite(b.data, 1, b.len, out);
    az_buf_free(&b);
}

int cli_preflight_failed(const struct cli_preflight *p, int strict)
{
    for (int i = 0; i < CLI_PF_CHECKS; i++)
        if (p->status[i] == CLI_PF_FAIL || (strict && p->status[i] == CLI_PF_WARN)) return 1;
    return 0;
}

/* ---- the command ---- */

static const char preflight_help[] =
    "Usage: gotcha preflight [--format text|json] [--strict] [--timeout SECONDS] [CONFIG]...\n"
    "Check the live host for the ten GB10 gotchas before a run, in the skill's line format:\n"
    "one 'G<n> PASS|FAIL|WARN|SKIP|INFO|UNKNOWN: text' line per gotcha, G1..G10. Runs\n"
    "nvidia-smi and python3 (each under a deadline), reads /proc; needs no root and changes\n"
    "nothing. CONFIG files (YAML, JSON, shell) of the launch are read for tensor parallelism.\n"
    "\n"
    "  -f, --format FMT        text (default) or json (schema gotcha.preflight/1)\n"
    "      --strict            exit 1 on a WARN too\n"
    "      --timeout SECONDS   deadline of each nvidia-smi call (default 10); python3 gets\n"
    "                          six times as long (torch imports slowly)\n"
    "  -h, --help              show this help\n"
    "Exit status: 0 nothing FAILed, 1 something did (--strict: or WARNed), 2 usage error.\n";

int cli_cmd_preflight(int argc, char **argv, FILE *out, FILE *err)
{
    enum { OPT_STRICT = 256, OPT_TIMEOUT };
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"strict", no_argument, NULL, OPT_STRICT},
                                         {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int json = 0, strict = 0, c;
    struct cli_host_limits lim;
    cli_host_limits_default(&lim);
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (strcmp(optarg, "json") == 0)
                json = 1;
            else if (strcmp(optarg, "text") == 0)
                json = 0;
            else
                return cli_bad_usage(err, "unknown preflight format '%s' (expected text or json)",
                                     optarg);
            break;
        case OPT_STRICT: strict = 1; break;
        case OPT_TIMEOUT: {
            uint64_t v;
            if (cli_parse_whole(optarg, 1, 3600, &v) != 0)
                return cli_bad_usage(err, "invalid --timeout '%s' (whole seconds from 1 to 3600)",
                                     optarg);
            lim.smi_ms = (unsigned)v * 1000;
            lim.python_ms = (unsigned)v * 6000;
            break;
        }
        case 'h': fputs(preflight_help, out); return CLI_EXIT_CLEAN;
        case ':': return cli_bad_usage(err, "option '%s' requires an argument", argv[optind - 1]);
        default: return cli_bad_usage(err, "unrecognized option '%s'", argv[optind - 1]);
        }
    }
    for (int i = optind; i < argc; i++)
        if (access(argv[i], R_OK) != 0) {
            fprintf(err, "gotcha: cannot read config '%s': %s\n", argv[i], strerror(errno));
            return CLI_EXIT_ERROR;
        }
    /* the pack says which processes are GPU servers and where a launch sets TP; without it
     * those two checks see less, the others are unchanged */
    struct cli_options po;
    cli_options_init(&po);
    struct match_pack *pack = cli_load_pack(&po, err);
    struct cli_host h;
    cli_host_gather(&h, &lim, pack);
    cli_host_read_launch(&h, pack, NULL, 0, (const char *const *)argv + optind,
                         (size_t)(argc - optind));
    struct cli_preflight p;
    cli_preflight_check(&h, &lim, &p);
    if (json)
        cli_preflight_write_json(&p, &h, out, GOTCHA_VERSION);
    else
        cli_preflight_write_text(&p, out);
    int rc = cli_preflight_failed(&p, strict) ? CLI_EXIT_FINDINGS : CLI_EXIT_CLEAN;
    cli_preflight_free(&p);
    cli_host_free(&h);
    match_pack_free(pack);
    if (fflush(out) != 0 || ferror(out)) return CLI_EXIT_ERROR;
    return rc;
}
