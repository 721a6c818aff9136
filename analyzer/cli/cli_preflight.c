/* cli/cli_preflight.c - `gotcha preflight`: the skill's ten checks on the live host. See live.h
 * and docs/live.md. */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
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

/* How a check skipped for want of a GPU starts (the one line `gotcha preflight` prints names
 * why). */
#define PF_NO_GPU "no NVIDIA GPU on this host"

const char *cli_pf_status_name(enum cli_pf_status s)
{
    static const char *const names[] = {"PASS", "FAIL", "WARN", "SKIP", "INFO", "UNKNOWN"};
    return (size_t)s < AZ_ARRAY_LEN(names) ? names[s] : "UNKNOWN";
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

/* No NVIDIA GPU here: nvidia-smi is missing, fails or lists none (a hung one says nothing:
 * the driver is there), and torch names no device capability. */
static int no_gpu(const struct cli_host *h)
{
    int smi_none = h->smi_status == CLI_TOOL_MISSING || h->smi_status == CLI_TOOL_FAILED ||
                   (h->smi_status == CLI_TOOL_OK && h->ngpus == 0);
    return smi_none && !*cli_host_py(h, "cuda.capability");
}

int cli_preflight_no_gpu(const struct cli_host *h)
{
    return no_gpu(h);
}

/* ---- named values: the host facts a check reads ---- */

struct pf_vars {
    size_t n, cap;
    char **key, **val;
};

static void var_set(struct pf_vars *v, const char *key, const char *val)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->key[i], key)) {
            free(v->val[i]);
            v->val[i] = az_xstrdup(val ? val : "");
            return;
        }
    az_grow((void **)&v->key, &v->cap, v->n + 1, sizeof *v->key);
    v->val = az_xrealloc(v->val, v->cap * sizeof *v->val);
    v->key[v->n] = az_xstrdup(key);
    v->val[v->n++] = az_xstrdup(val ? val : "");
}

static void var_fmt(struct pf_vars *v, const char *key, const char *fmt, ...) AZ_PRINTF(3, 4);
static void var_fmt(struct pf_vars *v, const char *key, const char *fmt, ...)
{
    struct az_buf b = AZ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    az_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    var_set(v, key, b.data ? b.data : "");
    az_buf_free(&b);
}

static const char *var_get(const struct pf_vars *v, const char *key, size_t n)
{
    for (size_t i = 0; i < v->n; i++)
        if (strlen(v->key[i]) == n && !strncmp(v->key[i], key, n)) return v->val[i];
    return "";
}

static void vars_free(struct pf_vars *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free(v->key[i]);
        free(v->val[i]);
    }
    free(v->key);
    free(v->val);
    memset(v, 0, sizeof *v);
}

/* "{name}" is the value, "{name|fallback}" the fallback when it is empty; "{{" is "{". */
static void render(struct az_buf *b, const struct pf_vars *v, const char *t)
{
    for (const char *p = t; p && *p; p++) {
        const char *e = *p == '{' ? strchr(p, '}') : NULL;
        if (!e) {
            az_buf_putc(b, *p);
            continue;
        }
        const char *bar = memchr(p, '|', (size_t)(e - p));
        const char *name = p + 1, *end = bar ? bar : e;
        const char *val = var_get(v, name, (size_t)(end - name));
        if (*val)
            az_buf_puts(b, val);
        else if (bar)
            az_buf_append(b, bar + 1, (size_t)(e - bar - 1));
        p = e;
    }
}

static char *render_str(const struct pf_vars *v, const char *t)
{
    struct az_buf b = AZ_BUF_INIT;
    render(&b, v, t);
    az_buf_ensure(&b, 1);
    b.data[b.len] = '\0';
    return az_buf_steal(&b);
}

/* ---- extractors: host facts computed for the checks that name them ("extract") ---- */

static long long gib(long long kb)
{
    return kb < 0 ? 0 : kb / (1024 * 1024);
}

/* A number the check's params give ("params": {"name": {"value": ...}}), or dflt. */
static double param_num(json_t *check, const char *name, double dflt)
{
    json_t *v = json_object_get(json_object_get(json_object_get(check, "params"), name), "value");
    return json_is_number(v) ? json_number_value(v) : dflt;
}

static const char *param_str(json_t *check, const char *name, const char *dflt)
{
    json_t *v = json_object_get(json_object_get(json_object_get(check, "params"), name), "value");
    return json_is_string(v) ? json_string_value(v) : dflt;
}

/* /proc/meminfo in free(1)'s terms: free, used (total - available, as procps 3.3.10 counts
 * it), available, total and page cache in GB, huge pages, and whether the cache is above the
 * params' share of RAM. */
static void x_memory(const struct cli_host *h, json_t *check, struct pf_vars *v)
{
    if (h->mem_total_kb < 0 || h->mem_free_kb < 0) return;
    long long avail = h->mem_available_kb >= 0 ? h->mem_available_kb : h->mem_free_kb;
    var_set(v, "mem.readable", "1");
    var_fmt(v, "mem.free_gb", "%lld", gib(h->mem_free_kb));
    var_fmt(v, "mem.used_gb", "%lld", gib(h->mem_total_kb - avail));
    var_fmt(v, "mem.available_gb", "%lld", gib(avail));
    var_fmt(v, "mem.total_gb", "%lld", gib(h->mem_total_kb));
    var_fmt(v, "mem.cache_gb", "%lld", gib(h->cached_kb));
    if (h->huge_total > 0) var_fmt(v, "mem.huge_pages", "%lld", h->huge_total);
    double share = param_num(check, "cache_share", 1);
    if (h->cached_kb > 0 && (double)h->cached_kb > share * (double)h->mem_total_kb)
        var_set(v, "mem.cache_high", "1");
}

/* Each GPU's temperature and power as nvidia-smi's CSV gives them ("41 °C, 11.46 W; GPU 1:
 * ..."): a bare number of degrees gets its unit. */
static void x_gpu_readings(const struct cli_host *h, json_t *check, struct pf_vars *v)
{
    (void)check;
    struct az_buf b = AZ_BUF_INIT;
    for (size_t i = 0; i < h->ngpus; i++) {
        if (i) az_buf_printf(&b, "; GPU %zu: ", i);
        const char *t = h->gpus[i].temp;
        int bare = *t && strspn(t, "0123456789") == strlen(t);
        az_buf_printf(&b, "%s%s, %s", t,
                      bare ? " \xc2\xb0"
                             "C"
                           : "",
                      h->gpus[i].power);
    }
    var_set(v, "gpus.readings", b.data ? b.data : "");
    az_buf_free(&b);
}

/* The GPU-resident processes: servers at or below the params' memory cap (procs.capped), and
 * uncapped servers or jobs holding more than holder_mib (procs.heavy). */
static void x_gpu_processes(const struct cli_host *h, json_t *check, struct pf_vars *v)
{
    double cap_ok = param_num(check, "server_cap_ok", 0),
           holder = param_num(check, "holder_mib", 0);
    struct az_buf warn = AZ_BUF_INIT, ok = AZ_BUF_INIT;
    for (size_t i = 0; i < h->nprocs; i++) {
        const struct cli_proc *pr = &h->procs[i];
        long mib = strtol(pr->gpu_mem, NULL, 10);
        if (*pr->server) {
            double cap = *pr->mem_cap ? strtod(pr->mem_cap, NULL) : -1;
            struct az_buf *dst = cap >= 0 && cap <= cap_ok ? &ok : &warn;
            if (dst->len) az_buf_puts(dst, "; ");
            az_buf_printf(dst, "%s (pid %ld, ", pr->server, pr->pid);
            if (*pr->mem_cap)
                az_buf_printf(dst, "memory cap %s", pr->mem_cap);
            else
                az_buf_puts(dst, "no memory cap");
            if (*pr->gpu_mem) az_buf_printf(dst, ", %s", pr->gpu_mem);
            az_buf_putc(dst, ')');
        } else if (*pr->gpu_mem && mib >= holder) {
            if (warn.len) az_buf_puts(&warn, "; ");
            az_buf_printf(&warn, "%s (pid %ld, %s)", pr->name, pr->pid, pr->gpu_mem);
        }
    }
    var_set(v, "procs.heavy", warn.data);
    var_set(v, "procs.capped", ok.data);
    az_buf_free(&warn);
    az_buf_free(&ok);
}

/* The compute capability: torch's, else nvidia-smi's (cap.from "torch" / "smi"), and as the
 * tuple torch prints ("(12, 1)"). */
static void x_capability(const struct cli_host *h, json_t *check, struct pf_vars *v)
{
    (void)check;
    const char *cap = cli_host_py(h, "cuda.capability"), *from = "torch";
    if (!*cap && h->ngpus && *h->gpus[0].cap) {
        cap = h->gpus[0].cap;
        from = "smi";
    }
    if (!*cap) return;
    var_set(v, "cap.value", cap);
    var_set(v, "cap.from", from);
    const char *dot = strchr(cap, '.');
    if (dot)
        var_fmt(v, "cap.tuple", "(%.*s, %s)", (int)(dot - cap), cap, dot + 1);
    else
        var_fmt(v, "cap.tuple", "(%s)", cap);
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

/* The container marker and, inside one, the image's pins (the params' constraints file, or the
 * one its environment variable names) against what pip installed: pins.drift, pins.same. */
static void x_container_pins(const struct cli_host *h, json_t *check, struct pf_vars *v)
{
    const char *m = h->container_marker;
    var_set(v, "container.marker", m);
    var_set(v, "host.cgroup_readable", h->cgroup_readable ? "1" : "");
    if (!*m) return;
    var_set(v, "container.how",
            strcmp(m, "cgroup") == 0 ? "cgroup marker present"
                                     : "Docker/Podman marker file present");
    const char *env_cf = getenv(param_str(check, "constraints_env", ""));
    char *cf = env_cf && *env_cf ? az_xstrdup(env_cf)
                                 : cli_host_file(param_str(check, "constraints", "/dev/null"));
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
    if (pins.data) var_set(v, "pins.read", "1");
    struct az_buf drift = AZ_BUF_INIT, same = AZ_BUF_INIT;
    json_t *pkgs =
        json_object_get(json_object_get(json_object_get(check, "params"), "packages"), "value");
    size_t i;
    json_t *pk;
    json_array_foreach(pkgs, i, pk)
    {
        const char *name = json_string_value(pk);
        char pin[128], key[64];
        if (!name || !pins.data || !pin_of(pins.data, name, pin, sizeof pin)) continue;
        snprintf(key, sizeof key, "dist.%s", name);
        const char *have = cli_host_py(h, key);
        struct az_buf *dst = *have && same_version(have, pin) ? &same : &drift;
        if (dst->len) az_buf_puts(dst, ", ");
        if (dst == &same)
            az_buf_printf(dst, "%s %s", name, pin);
        else
            az_buf_printf(dst, "%s %s (the image pins %s)", name, *have ? have : "absent", pin);
    }
    var_set(v, "pins.drift", drift.data);
    var_set(v, "pins.same", same.data);
    az_buf_free(&pins);
    az_buf_free(&drift);
    az_buf_free(&same);
}

/* The launch's distribution: nodes, world, TP size and where it was set, and whether the world
 * spans nodes (more ranks than this node's local ranks, or than its GPUs). */
static void x_launch(const struct cli_host *h, json_t *check, struct pf_vars *v)
{
    (void)check;
    long nodes = *h->nnodes ? strtol(h->nnodes, NULL, 10) : 0;
    long world = *h->world_size ? strtol(h->world_size, NULL, 10) : 0;
    const char *lws = getenv("LOCAL_WORLD_SIZE");
    long local = lws && *lws ? strtol(lws, NULL, 10) : 0;
    long per_node = local > 0 ? local : (long)(h->ngpus ? h->ngpus : 1);
    if (nodes > 1 || (world > 1 && world > per_node)) var_set(v, "launch.multi", "1");
    long tp = *h->tp_size ? strtol(h->tp_size, NULL, 10) : 0;
    var_fmt(v, "launch.tp", "%ld", tp);
    if (*h->tp_where) var_fmt(v, "launch.where", " (%s)", h->tp_where);
    if (nodes > 1)
        var_fmt(v, "launch.span", "--nnodes %ld", nodes);
    else
        var_fmt(v, "launch.span", "WORLD_SIZE=%ld", world);
    var_set(v, "launch.world", world ? h->world_size : "unset");
    var_fmt(v, "launch.nconfigs", "%zu", h->nconfigs);
    var_set(v, "launch.configs_s", h->nconfigs == 1 ? "" : "s");
}

static const struct {
    const char *name;
    void (*fn)(const struct cli_host *, json_t *, struct pf_vars *);
} extractors[] = {
    {"memory", x_memory},
    {"gpu_readings", x_gpu_readings},
    {"gpu_processes", x_gpu_processes},
    {"capability", x_capability},
    {"container_pins", x_container_pins},
    {"launch", x_launch},
};

/* What every check may read: the python3 probe's answers (py.<key>), the tools' problems, where
 * the host is (host.placed: yes, other or unknown) and the platform's facts (platform.<name>:
 * the host's platform, else the pack's first). */
static void base_vars(const struct cli_host *h, const struct cli_host_limits *lim,
                      const struct match_pack *pack, struct pf_vars *v)
{
    char why[128];
    for (size_t i = 0; i < h->npy; i++) {
        char key[160];
        snprintf(key, sizeof key, "py.%s", h->py_keys[i]);
        var_set(v, key, h->py_values[i]);
    }
    const char *pp = py_problem(h, lim, why, sizeof why);
    var_set(v, "py.problem", pp);
    pp = smi_problem(h, lim, why, sizeof why);
    var_set(v, "smi.problem", pp);
    var_set(v, "host.no_gpu", no_gpu(h) ? "1" : "");
    var_set(v, "host.gpu_name", cli_host_gpu_name(h));
    var_set(v, "ldconfig.cudart12", h->cudart12 ? "1" : "");
    var_set(v, "ldconfig.cudart13", h->cudart13 ? "1" : "");
    long at = cli_host_platform(h, pack);
    var_set(v, "host.placed", at >= 0 ? "yes" : at == MATCH_PLACE_OTHER ? "other" : "unknown");
    const struct match_platform *pl = match_pack_platform(pack, at >= 0 ? (size_t)at : 0);
    if (!pl) return;
    var_set(v, "platform.id", pl->id);
    var_set(v, "platform.name", pl->name);
    struct az_buf caps = AZ_BUF_INIT;
    for (size_t k = 0; k < pl->ncapabilities; k++)
        az_buf_printf(&caps, "%s%s", k ? " " : "", pl->capabilities[k]);
    var_set(v, "platform.capabilities", caps.data);
    az_buf_free(&caps);
    /* "sm_121": the first capability's digits, as a kernel target names it */
    char sm[32] = "";
    size_t n = 0;
    for (const char *c = pl->ncapabilities ? pl->capabilities[0] : ""; *c && n + 1 < sizeof sm; c++)
        if (isdigit((unsigned char)*c)) sm[n++] = *c;
    sm[n] = '\0';
    var_set(v, "platform.sm", sm);
    for (size_t k = 0; k < pl->nfacts; k++) {
        char key[160];
        snprintf(key, sizeof key, "platform.%s", pl->facts[k].name);
        if (pl->facts[k].str)
            var_set(v, key, pl->facts[k].str);
        else if (!isnan(pl->facts[k].num))
            var_fmt(v, key, "%g", pl->facts[k].num);
    }
}

/* ---- probes: what a check reads beyond the host facts ---- */

/* One probe: {"env": NAME}, {"file": PATH}, {"command": [ARGV...]} or {"python": CODE}, its
 * value stored under "as" (a command's or Python's standard output, trimmed; a file's first
 * line), with "<as>.set" 1 when the variable is set or the tool answered, and "<as>.problem"
 * saying why a tool did not ("df not available", "did not answer within 5 s"). Command and
 * file strings are templates. */
static void run_probe(json_t *pr, const struct cli_host_limits *lim, struct pf_vars *v)
{
    const char *as = json_string_value(json_object_get(pr, "as"));
    if (!as) return;
    char key[200];
    snprintf(key, sizeof key, "%s.set", as);
    json_t *x;
    if ((x = json_object_get(pr, "env"))) {
        const char *val = json_is_string(x) ? getenv(json_string_value(x)) : NULL;
        var_set(v, as, val);
        var_set(v, key, val ? "1" : "");
        return;
    }
    if ((x = json_object_get(pr, "file"))) {
        char *path = render_str(v, json_is_string(x) ? json_string_value(x) : "");
        char *at = cli_host_file(path);
        FILE *f = fopen(at, "r");
        char line[4096] = "";
        if (f) {
            if (!fgets(line, sizeof line, f)) line[0] = '\0';
            fclose(f);
            line[strcspn(line, "\r\n")] = '\0';
        }
        var_set(v, as, line);
        var_set(v, key, f ? "1" : "");
        free(at);
        free(path);
        return;
    }
    const char *argv[66];
    char *owned[64];
    size_t n = 0, nowned = 0;
    if ((x = json_object_get(pr, "python"))) {
        argv[n++] = "python3";
        argv[n++] = "-c";
        owned[nowned++] = render_str(v, json_is_string(x) ? json_string_value(x) : "");
        argv[n++] = owned[0];
    } else if ((x = json_object_get(pr, "command")) && json_is_array(x)) {
        size_t i;
        json_t *a;
        json_array_foreach(x, i, a)
        {
            if (n == 64) break;
            argv[n++] = owned[nowned++] = render_str(v, json_string_value(a));
        }
    }
    argv[n] = NULL;
    if (!n) return;
    double secs = json_is_number(json_object_get(pr, "timeout_s"))
                      ? json_number_value(json_object_get(pr, "timeout_s"))
                      : lim->smi_ms / 1000.0;
    struct cli_tool_result r;
    enum cli_tool_status st = cli_tool_run(argv, (unsigned)(secs * 1000), 1 << 16, &r);
    char pkey[200];
    snprintf(pkey, sizeof pkey, "%s.problem", as);
    if (st == CLI_TOOL_OK) {
        size_t len = r.out.len;
        while (len && isspace((unsigned char)r.out.data[len - 1])) len--;
        var_fmt(v, as, "%.*s", (int)len, r.out.data ? r.out.data : "");
        var_set(v, key, "1");
    } else if (st == CLI_TOOL_MISSING) {
        var_fmt(v, pkey, "%s not available", argv[0]);
    } else if (st == CLI_TOOL_TIMEOUT) {
        var_fmt(v, pkey, "%s did not answer within %g s", argv[0], secs);
    } else {
        var_fmt(v, pkey, "%s failed", argv[0]);
    }
    /* "field": the Nth whitespace-separated field (1-based) of the last line */
    json_t *fld = json_object_get(pr, "field");
    if (st == CLI_TOOL_OK && json_is_integer(fld)) {
        const char *out = var_get(v, as, strlen(as)), *last = strrchr(out, '\n');
        last = last ? last + 1 : out;
        long want = (long)json_integer_value(fld), k = 0;
        char val[256] = "";
        for (const char *c = last; *c && k < want;) {
            while (isspace((unsigned char)*c)) c++;
            size_t w = strcspn(c, " \t");
            if (++k == want) snprintf(val, sizeof val, "%.*s", (int)w, c);
            c += w;
        }
        var_set(v, as, val);
    }
    cli_tool_result_free(&r);
    for (size_t i = 0; i < nowned; i++) free(owned[i]);
}

/* ---- conditions and rules ---- */

static int word_in(const char *list, const char *w)
{
    size_t wl = strlen(w);
    for (const char *p = list; *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n && n == wl && !strncmp(p, w, n)) return 1;
        p += n;
    }
    return 0;
}

static int cond_holds(const struct pf_vars *v, const char *name, json_t *test);

/* Every condition of the object holds; "any_of": a list of objects, one of which must. */
static int when_holds(const struct pf_vars *v, json_t *when)
{
    const char *k;
    json_t *t;
    json_object_foreach(when, k, t)
    {
        if (!strcmp(k, "any_of")) {
            int any = 0;
            size_t i;
            json_t *alt;
            json_array_foreach(t, i, alt) any |= when_holds(v, alt);
            if (!any) return 0;
        } else if (!cond_holds(v, k, t)) {
            return 0;
        }
    }
    return 1;
}

/* "set", "empty", or {"is" | "not" | "starts" | "has" | "not_has" | "in" | "not_in": template}
 * or {"gt" | "ge" | "lt" | "le": number}. */
static int cond_holds(const struct pf_vars *v, const char *name, json_t *test)
{
    const char *val = var_get(v, name, strlen(name));
    if (json_is_string(test)) return !strcmp(json_string_value(test), "set") ? *val != '\0' : !*val;
    const char *op;
    json_t *arg;
    json_object_foreach(test, op, arg)
    {
        int ok;
        if (json_is_number(arg)) {
            double x = atof(val), y = json_number_value(arg);
            ok = !strcmp(op, "gt")   ? x > y
                 : !strcmp(op, "ge") ? x >= y
                 : !strcmp(op, "lt") ? x < y
                                     : x <= y;
        } else {
            char *a = render_str(v, json_string_value(arg));
            ok = !strcmp(op, "is")        ? !strcmp(val, a)
                 : !strcmp(op, "not")     ? strcmp(val, a) != 0
                 : !strcmp(op, "starts")  ? *a && !strncmp(val, a, strlen(a))
                 : !strcmp(op, "has")     ? *a && strstr(val, a) != NULL
                 : !strcmp(op, "not_has") ? !*a || !strstr(val, a)
                 : !strcmp(op, "in")      ? word_in(a, val)
                                          : !word_in(a, val);
            free(a);
        }
        if (!ok) return 0;
    }
    return 1;
}

static enum cli_pf_status status_of(const char *s)
{
    for (int i = 0; i <= CLI_PF_UNKNOWN; i++)
        if (s && !strcmp(s, cli_pf_status_name((enum cli_pf_status)i)))
            return (enum cli_pf_status)i;
    return CLI_PF_UNKNOWN;
}

/* One check: its extractors and probes, then the first rule whose "when" holds ("says": a
 * template, or a list of templates and {"when", "text"} parts). */
static void run_check(const struct cli_host *h, const struct cli_host_limits *lim,
                      const struct match_pack *pack, const char *id, const char *text,
                      struct cli_preflight *p)
{
    size_t i = p->n++;
    p->id[i] = id;
    p->status[i] = CLI_PF_UNKNOWN;
    json_error_t je;
    json_t *check = json_loads(text, 0, &je);
    struct pf_vars v = {0};
    base_vars(h, lim, pack, &v);
    size_t k;
    json_t *x;
    json_array_foreach(json_object_get(check, "extract"), k, x)
    {
        for (size_t e = 0; e < AZ_ARRAY_LEN(extractors); e++)
            if (json_is_string(x) && !strcmp(json_string_value(x), extractors[e].name))
                extractors[e].fn(h, check, &v);
    }
    const char *pk;
    json_object_foreach(json_object_get(check, "params"), pk, x)
    {
        char key[160];
        json_t *val = json_object_get(x, "value");
        snprintf(key, sizeof key, "param.%s", pk);
        if (json_is_number(val)) var_fmt(&v, key, "%g", json_number_value(val));
        if (json_is_string(val)) var_set(&v, key, json_string_value(val));
    }
    json_array_foreach(json_object_get(check, "probes"), k, x) run_probe(x, lim, &v);
    json_array_foreach(json_object_get(check, "rules"), k, x)
    {
        json_t *when = json_object_get(x, "when");
        if (when && !when_holds(&v, when)) continue;
        struct az_buf b = AZ_BUF_INIT;
        json_t *says = json_object_get(x, "says");
        size_t j;
        json_t *part;
        if (json_is_string(says)) render(&b, &v, json_string_value(says));
        json_array_foreach(says, j, part)
        {
            if (json_is_string(part))
                render(&b, &v, json_string_value(part));
            else if (!json_object_get(part, "when") ||
                     when_holds(&v, json_object_get(part, "when")))
                render(&b, &v, json_string_value(json_object_get(part, "text")));
        }
        az_buf_ensure(&b, 1);
        b.data[b.len] = '\0';
        p->status[i] = status_of(json_string_value(json_object_get(x, "status")));
        p->text[i] = az_buf_steal(&b);
        break;
    }
    if (!p->text[i])
        p->text[i] = az_xstrdup(check ? "no rule of the pack's check applies"
                                      : "the pack's check is not JSON");
    /* with no GPU there is nothing for a check to pass on: it is skipped, with what it saw
     * (unless the check says it needs none: "needs_gpu": false) */
    if (p->status[i] == CLI_PF_PASS && no_gpu(h) &&
        !json_is_false(json_object_get(check, "needs_gpu"))) {
        char *was = p->text[i];
        p->text[i] = az_xasprintf(PF_NO_GPU "; %s", was);
        p->status[i] = CLI_PF_SKIP;
        free(was);
    }
    vars_free(&v);
    json_decref(check);
}

void cli_preflight_check(const struct cli_host *h, const struct cli_host_limits *lim,
                         const struct match_pack *pack, struct cli_preflight *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < match_pack_entry_count(pack) && p->n < CLI_PF_MAX; i++) {
        const struct match_entry *e = match_pack_entry(pack, i);
        const char *text = match_pack_preflight(pack, e->id);
        if (text) run_check(h, lim, pack, e->id, text, p);
    }
}

void cli_preflight_free(struct cli_preflight *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->n; i++) free(p->text[i]);
    memset(p, 0, sizeof *p);
}

/* Control bytes from tool output must not forge a second line. */
static void put_clean(FILE *out, const char *s)
{
    for (; *s; s++) fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, out);
}

void cli_preflight_write_text(const struct cli_preflight *p, FILE *out)
{
    for (size_t i = 0; i < p->n; i++) {
        fprintf(out, "%s %s: ", p->id[i], cli_pf_status_name(p->status[i]));
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

void cli_preflight_write_json(const struct cli_preflight *p, const struct cli_host *h,
                              const struct match_pack *pack, FILE *out, const char *tool_version)
{
    struct az_buf b = AZ_BUF_INIT;
    size_t counts[6] = {0};
    az_buf_puts(&b, "{\n  \"schema\": \"gotcha.preflight/1\",\n");
    json_kv(&b, "  ", "tool_version", tool_version, 1);
    az_buf_puts(&b, "  \"checks\": [\n");
    for (size_t i = 0; i < p->n; i++) {
        counts[p->status[i]]++;
        az_buf_puts(&b, "    {\"id\": ");
        cli_json_string(&b, p->id[i]);
        az_buf_printf(&b, ", \"status\": \"%s\", \"text\": ", cli_pf_status_name(p->status[i]));
        cli_json_string(&b, p->text[i] ? p->text[i] : "");
        az_buf_puts(&b, i + 1 < p->n ? "},\n" : "}\n");
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
    /* per declared platform ("is_<id>"): true when the host is on it, false when placed
     * elsewhere, null when unknown */
    long at = cli_host_platform(h, pack);
    for (size_t i = 0; i < match_pack_platform_count(pack); i++)
        az_buf_printf(&b, "    \"is_%s\": %s,\n", match_pack_platform(pack, i)->id,
                      at == (long)i            ? "true"
                      : at == MATCH_PLACE_NONE ? "null"
                                               : "false");
    az_buf_printf(&b, "    \"mem_total_kb\": %lld,\n    \"mem_available_kb\": %lld\n  }\n}\n",
                  h->mem_total_kb, h->mem_available_kb);
    fwrite(b.data, 1, b.len, out);
    az_buf_free(&b);
}

int cli_preflight_failed(const struct cli_preflight *p, int strict)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->status[i] == CLI_PF_FAIL || (strict && p->status[i] == CLI_PF_WARN)) return 1;
    return 0;
}

/* ---- the command ---- */

static const char preflight_help[] =
    "Usage: gotcha preflight [--format text|json] [--strict] [--timeout SECONDS] [CONFIG]...\n"
    "Check the live host for the pack's gotchas before a run, in the skill's line format:\n"
    "one '<id> PASS|FAIL|WARN|SKIP|INFO|UNKNOWN: text' line per gotcha the pack gives a\n"
    "check (G1..G10, then a site pack's). Runs\n"
    "nvidia-smi and python3 (each under a deadline), reads /proc; needs no root and changes\n"
    "nothing. CONFIG files (YAML, JSON, shell) of the launch are read for tensor parallelism.\n"
    "\n"
    "  -f, --format FMT        text (default) or json (schema gotcha.preflight/1)\n"
    "      --patterns DIR      the pattern pack (default: the installed one)\n"
    "      --extra-patterns DIR  add a site pack's entries, platforms and checks\n"
    "      --strict            exit 1 on a WARN too\n"
    "      --timeout SECONDS   deadline of each nvidia-smi call (default 10); python3 gets\n"
    "                          six times as long (torch imports slowly)\n"
    "  -h, --help              show this help\n"
    "Exit status: 0 nothing FAILed, 1 something did (--strict: or WARNed), 2 usage error.\n";

int cli_cmd_preflight(int argc, char **argv, FILE *out, FILE *err)
{
    enum { OPT_STRICT = 256, OPT_TIMEOUT, OPT_PATTERNS, OPT_EXTRA };
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"strict", no_argument, NULL, OPT_STRICT},
                                         {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                         {"patterns", required_argument, NULL, OPT_PATTERNS},
                                         {"extra-patterns", required_argument, NULL, OPT_EXTRA},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int json = 0, strict = 0, c;
    /* the pack says which processes are GPU servers, where a launch sets TP, which platform the
     * host is and what each check is */
    struct cli_options po;
    cli_options_init(&po);
    const char *extra[16];
    po.extra_patterns = extra;
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
        case OPT_PATTERNS: po.patterns_dir = optarg; break;
        case OPT_EXTRA:
            if (po.nextra == AZ_ARRAY_LEN(extra))
                return cli_bad_usage(err, "at most %zu --extra-patterns", AZ_ARRAY_LEN(extra));
            extra[po.nextra++] = optarg;
            break;
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
    struct match_pack *pack = cli_load_pack(&po, err);
    if (!pack) return CLI_EXIT_ERROR;
    struct cli_host h;
    cli_host_gather(&h, &lim, pack);
    cli_host_read_launch(&h, pack, NULL, 0, (const char *const *)argv + optind,
                         (size_t)(argc - optind));
    struct cli_preflight p;
    cli_preflight_check(&h, &lim, pack, &p);
    if (no_gpu(&h)) {
        char why[128];
        const char *sp = smi_problem(&h, &lim, why, sizeof why);
        fprintf(err,
                "gotcha: " PF_NO_GPU " (%s, and torch names none): the checks that need one are "
                "SKIP\n",
                sp ? sp : "nvidia-smi lists no GPU");
    }
    if (json)
        cli_preflight_write_json(&p, &h, pack, out, GOTCHA_VERSION);
    else
        cli_preflight_write_text(&p, out);
    int rc = cli_preflight_failed(&p, strict) ? CLI_EXIT_FINDINGS : CLI_EXIT_CLEAN;
    cli_preflight_free(&p);
    cli_host_free(&h);
    match_pack_free(pack);
    if (fflush(out) != 0 || ferror(out)) return CLI_EXIT_ERROR;
    return rc;
}
