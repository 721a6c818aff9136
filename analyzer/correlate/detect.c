/* correlate/detect.c - the run's context and the generic primitives the pack's rules use
 * (rules.c runs them). A primitive reads series, kept hits and context, decides which of its
 * outcomes happened and makes that outcome's claim: supporting evidence with a weight, contrary
 * evidence with a factor, or a cap. Every number, id and sentence comes from the rule's
 * parameters and outcomes in the pack (docs/patterns.md, "Rules"); this file names none. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
/* The pack's "platform" params (docs/patterns.md, "Platform"): the band of device totals that is
 * GB10's unified pool, used for the run's context (is it a GB10?), never for a verdict. */
#define PLATFORM_POOL_LO "pool_lo_gib"
#define PLATFORM_POOL_HI "pool_hi_gib"
/* Context tags (docs/patterns.md): entries that say the run is in a container, or on a bare
 * host. */
#define TAG_CONTAINER "container"
#define TAG_BARE_HOST "bare-host"
/* A host fact that rules GB10 out (an x86_64 machine: every GB10 system is aarch64), and one
 * that names a GB10 machine (its vendor's default host name). */
#define TAG_OTHER_HOST "other-host"
#define TAG_GB10_HOST  "gb10-host"

#define N(name)  corr_rule_num(rr, name)
#define S(name)  corr_rule_str(rr, name)
#define VN(n, v) ((struct corr_var){n, (v), NULL})
#define VS(n, v) ((struct corr_var){n, NAN, (v)})

struct corr_claim *corr_claim_add(struct corr_state *st, const struct match_entry *e, double weight,
                                  double factor, const struct corr_rec *rec, char *note,
                                  char *summary, char *reason)
{
    az_grow((void **)&st->claims, &st->capclaims, st->nclaims + 1, sizeof *st->claims);
    struct corr_claim *c = &st->claims[st->nclaims++];
    memset(c, 0, sizeof *c);
    c->entry = e;
    c->weight = weight;
    c->factor = factor;
    c->strength = -1;
    c->rec = rec;
    c->note = note;
    c->summary = summary;
    c->reason = reason;
    return c;
}

/* ---- iteration helpers ---- */

typedef void (*rec_visit_fn)(struct corr_state *st, void *ctx, const struct corr_rec *r);

struct visit_ctx {
    struct corr_state *st;
    rec_visit_fn fn;
    void *ctx;
};

static void visit_tramp(void *vctx, const struct corr_rec *r)
{
    struct visit_ctx *v = vctx;
    v->fn(v->st, v->ctx, r);
}

/* Every kept record of the entry (or, e NULL, of every entry). */
static void each_rec(struct corr_state *st, const struct match_entry *e, rec_visit_fn fn, void *ctx)
{
    struct visit_ctx v = {st, fn, ctx};
    for (size_t s = 0; s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (e && sig->entry != e) continue;
        corr_sig_each(st, s, visit_tramp, &v);
    }
}

/* The earliest (or, with latest, the last) kept record that has the fact (NULL when none). */
struct fact_find {
    const char *fact;
    int latest;
    const struct corr_rec *best;
};

static void fact_find_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct fact_find *f = vctx;
    if (!corr_rec_fact(r, f->fact)) return;
    int c = f->best ? corr_rec_cmp(st, r, f->best) : 0;
    if (!f->best || (f->latest ? c > 0 : c < 0)) f->best = r;
}

static const struct corr_rec *find_fact_at(struct corr_state *st, const struct match_entry *e,
                                           const char *fact, int latest)
{
    struct fact_find f = {fact, latest, NULL};
    if (fact) each_rec(st, e, fact_find_visit, &f);
    return f.best;
}

static const struct corr_rec *find_fact(struct corr_state *st, const struct match_entry *e,
                                        const char *fact)
{
    return find_fact_at(st, e, fact, 0);
}

static const char *fact_str(const struct corr_rec *r, const char *fact)
{
    const struct corr_fact_copy *f = r && fact ? corr_rec_fact(r, fact) : NULL;
    return f ? f->val : NULL;
}

static double fact_num(const struct corr_rec *r, const char *fact)
{
    const struct corr_fact_copy *f = r && fact ? corr_rec_fact(r, fact) : NULL;
    if (!f) return NAN;
    if (!isnan(f->num)) return f->num;
    double v;
    return tok_parse_double(f->val, strlen(f->val), &v) ? NAN : v;
}

static const struct match_entry *entry_of(const struct corr_state *st, const char *id)
{
    return id ? match_pack_find_entry(st->pack, id) : NULL;
}

static int entry_hit(const struct corr_state *st, const struct match_entry *e)
{
    for (size_t i = 0; e && i < e->nsigs; i++)
        if (e->sigs[i]->index < st->nsigs && st->sigs[e->sigs[i]->index]) return 1;
    return 0;
}

static const struct corr_rec *entry_earliest(const struct corr_state *st,
                                             const struct match_entry *e)
{
    const struct corr_rec *best = NULL;
    for (size_t i = 0; e && i < e->nsigs; i++) {
        const struct corr_rec *r = corr_sig_earliest(st, e->sigs[i]->index);
        if (r && (!best || corr_rec_cmp(st, r, best) < 0)) best = r;
    }
    return best;
}

/* Earliest kept record of the signature with that id, or NULL. */
static const struct corr_rec *find_sig_rec(const struct corr_state *st, const char *sig_id)
{
    const struct match_sig *s = sig_id ? match_pack_find_sig(st->pack, sig_id) : NULL;
    return s && s->index < st->nsigs && st->sigs[s->index] ? corr_sig_earliest(st, s->index) : NULL;
}

/* Earliest kept record of any signature with the tag (of a gotcha or common entry and not
 * context-strength when failures_only), or NULL. */
static const struct corr_rec *tag_earliest(const struct corr_state *st, const char *tag,
                                           int failures_only)
{
    const struct corr_rec *best = NULL;
    for (size_t s = 0; tag && s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (!match_sig_has_tag(sig, tag)) continue;
        if (failures_only &&
            (sig->strength == MATCH_CONTEXT || (sig->entry->family != MATCH_FAMILY_GOTCHA &&
                                                sig->entry->family != MATCH_FAMILY_COMMON)))
            continue;
        const struct corr_rec *r = corr_sig_earliest(st, s);
        if (r && (!best || corr_rec_cmp(st, r, best) < 0)) best = r;
    }
    return best;
}

static int contains(const char *s, const char *needle)
{
    return s && needle && az_memcasemem(s, strlen(s), needle, strlen(needle)) != NULL;
}

/* 1 when name contains one of the list's strings. */
static int contains_any(const char *name, const struct match_value *list)
{
    for (size_t i = 0; list && i < list->nlist; i++)
        if (contains(name, list->list[i])) return 1;
    return 0;
}

/* A rule's "when_tag": 1 when absent, else when a failure line carries the tag. */
static int when_tag(const struct corr_rule_run *rr)
{
    const char *t = corr_rule_str(rr, "when_tag");
    return !t || tag_earliest(rr->st, t, 1) != NULL;
}

/* ---- hosts: the machines the logs show ---- */

#define RUN_HOSTS_MAX 8

struct host_set {
    size_t n;
    char name[RUN_HOSTS_MAX][CORR_LANE_MAX];
};

static void host_set_add(struct host_set *h, const char *p, size_t len)
{
    if (!len || len >= CORR_LANE_MAX) return;
    for (size_t i = 0; i < h->n; i++)
        if (strlen(h->name[i]) == len && !memcmp(h->name[i], p, len)) return;
    if (h->n >= RUN_HOSTS_MAX) return;
    memcpy(h->name[h->n], p, len);
    h->name[h->n][len] = '\0';
    h->n++;
}

/* NCCL prefixes every line with "host:pid:tid [dev] NCCL"; under Ray or torchrun that prefix sits
 * after the launcher's own ("(RayWorkerWrapper pid=2790, ip=...) spark-b:2790:2790 [0] NCCL"),
 * where the tokenizer's lane parser does not look. */
static void nccl_host_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct host_set *h = vctx;
    const char *t = r->text;
    if (!t) return;
    const char *m = strstr(t, "] NCCL ");
    if (!m) return;
    const char *b = m;
    while (b > t && b[-1] != '[') b--; /* the "[dev]" */
    if (b == t) return;
    const char *e = b - 1; /* at '[' */
    while (e > t && e[-1] == ' ') e--;
    const char *s = e;
    while (s > t && s[-1] != ' ' && s[-1] != ')' && s[-1] != ']') s--;
    /* s..e is "host:pid:tid" */
    const char *c1 = memchr(s, ':', (size_t)(e - s));
    if (!c1 || c1 == s) return;
    const char *q = c1 + 1;
    size_t digits = 0;
    while (q < e && (isdigit((unsigned char)*q) || *q == ':')) q++, digits++;
    if (q != e || digits < 3) return;
    host_set_add(h, s, (size_t)(c1 - s));
}

/* Hosts named by syslog/lane prefixes and by NCCL line prefixes. */
static struct host_set run_hosts(struct corr_state *st)
{
    struct host_set h;
    memset(&h, 0, sizeof h);
    for (size_t i = 0; i < st->nhosts; i++) host_set_add(&h, st->hosts[i], strlen(st->hosts[i]));
    each_rec(st, NULL, nccl_host_visit, &h);
    return h;
}

static void fmt_clock(const struct corr_state *st, struct az_time t, char *out, size_t n)
{
    (void)st;
    if (t.kind == AZ_TIME_ABS)
        az_time_format_clock(t, out, n);
    else
        az_time_format(t, 0, out, n);
    if (!*out) snprintf(out, n, "?");
}

static const char *where(const struct corr_state *st, const struct corr_rec *r, char *buf, size_t n)
{
    snprintf(buf, n, "%s:%llu", corr_file_path(st, r->file), (unsigned long long)r->line);
    return buf;
}

/* A detector evidence record at a series point. */
static const struct corr_rec *series_rec(struct corr_state *st, const struct corr_sbuild *b,
                                         size_t i, const char *text)
{
    struct az_time t = {0, AZ_TIME_NONE};
    if (!b->approx || b->tkind != AZ_TIME_NONE) {
        if (st->have_run_clock && !isnan(b->pts[i].t)) {
            t.kind = st->clock_kind;
            t.usec = st->run_start + (int64_t)(b->pts[i].t * 1e6);
        }
    }
    struct corr_rec *r = corr_det_rec(st, b->file, b->pts[i].line, t, text);
    r->approx = b->approx;
    free(r->lane);
    r->lane = az_xstrdup(b->lane);
    return r;
}

/* ---- context ---- */

static void set_str(char **dst, const char *v)
{
    if (*dst || !v || !*v) return;
    *dst = az_xstrdup(v);
}

struct ctx_scan {
    int gb10, other;
    char *other_name;
    double pool_lo, pool_hi; /* GiB; NAN when the pack declares no band */
};

static void ctx_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct ctx_scan *c = vctx;
    const char *g = fact_str(r, "gpu_name");
    if (g) {
        if (contains(g, "GB10")) {
            c->gb10 = 1;
            set_str(&st->ctx.gpu_name, g);
        } else if (strlen(g) > 2) {
            c->other = 1;
            set_str(&c->other_name, g);
        }
    }
    const char *cap = fact_str(r, "capability");
    if (cap) {
        int major = 0, minor = 0;
        const char *p = cap;
        while (*p && !isdigit((unsigned char)*p)) p++;
        major = atoi(p);
        while (*p && isdigit((unsigned char)*p)) p++;
        if (*p == '.' || *p == ',' || *p == ' ') {
            while (*p && !isdigit((unsigned char)*p)) p++;
            minor = atoi(p);
        } else if (major >= 10) {
            /* "sm_121" / "121": major and minor run together */
            minor = major % 10;
            major /= 10;
        }
        if (major == 12 && minor == 1)
            c->gb10 = 1;
        else if (major > 0) {
            c->other = 1;
            if (!c->other_name) c->other_name = az_xasprintf("capability (%d, %d)", major, minor);
        }
    }
    /* An OOM names its device's capacity: GB10's pool reads ~119.7 GiB, anything far from it
     * (an 80 GiB H100, a 139.7 GiB H200/H20) is another GPU. Without a declared band a total
     * places nothing. */
    double total = fact_num(r, "total");
    if (!isnan(total) && total > 0 && r->sig && r->sig->entry->family == MATCH_FAMILY_GOTCHA &&
        !isnan(c->pool_lo) && !isnan(c->pool_hi)) {
        double gib = total / GIB;
        if (gib >= c->pool_lo && gib <= c->pool_hi) {
            c->gb10 = 1;
        } else {
            c->other = 1;
            if (!c->other_name) c->other_name = az_xasprintf("a %.1f GiB device", gib);
        }
    }
    set_str(&st->ctx.arch, fact_str(r, "arch"));
    set_str(&st->ctx.cuda_driver, fact_str(r, "cuda_driver"));
    set_str(&st->ctx.cuda_torch, fact_str(r, "cuda_torch"));
    const char *tv = fact_str(r, "torch_version");
    if (tv && !st->ctx.cuda_torch) {
        const char *cu = strstr(tv, "+cu");
        if (cu && isdigit((unsigned char)cu[3]) && isdigit((unsigned char)cu[4])) {
            /* "+cu128" -> "12.8", "+cu130" -> "13.0" */
            st->ctx.cuda_torch =
                az_xasprintf("%c%c.%c", cu[3], cu[4], isdigit((unsigned char)cu[5]) ? cu[5] : '0');
        }
    }
}

void corr_context_build(struct corr_state *st)
{
    struct ctx_scan c = {0, 0, NULL, match_pack_platform_num(st->pack, PLATFORM_POOL_LO),
                         match_pack_platform_num(st->pack, PLATFORM_POOL_HI)};
    each_rec(st, NULL, ctx_visit, &c);
    /* a GPU fact outweighs a host fact, and host facts that disagree place nothing: the logs
     * may mix machines */
    int gb10_host = tag_earliest(st, TAG_GB10_HOST, 0) != NULL;
    int other_host = tag_earliest(st, TAG_OTHER_HOST, 0) != NULL;
    if (c.gb10)
        st->ctx.is_gb10 = 1;
    else if (c.other || (other_host && !gb10_host))
        st->ctx.is_gb10 = 0;
    else if (gb10_host && !other_host)
        st->ctx.is_gb10 = 1;
    if (!st->ctx.gpu_name && c.other_name && !c.gb10 && strncmp(c.other_name, "capability", 10))
        st->ctx.gpu_name = az_xstrdup(c.other_name);
    if (!st->ctx.gpu_name && c.other_name && !c.gb10) st->ctx.gpu_name = az_xstrdup(c.other_name);
    free(c.other_name);
    if (tag_earliest(st, TAG_CONTAINER, 0))
        st->ctx.in_container = 1;
    else if (tag_earliest(st, TAG_BARE_HOST, 0))
        st->ctx.in_container = 0;
    if (!st->ctx.gpu_name) st->ctx.gpu_name = az_xstrdup("");
    /* the platform: from the inputs, unless the user set it */
    st->ctx.platform_from = st->ctx.is_gb10 != -1 ? "inputs" : "";
    if (st->cfg->platform != CORR_PLATFORM_AUTO) {
        st->ctx.is_gb10 = st->cfg->platform == CORR_PLATFORM_GB10;
        st->ctx.platform_from = st->cfg->platform_from ? st->cfg->platform_from : "--platform";
    }
    st->ctx.platform = st->ctx.is_gb10 == 1 ? "gb10" : st->ctx.is_gb10 == 0 ? "other" : "unknown";
    if (!st->ctx.arch) st->ctx.arch = az_xstrdup("");
    if (!st->ctx.cuda_driver) st->ctx.cuda_driver = az_xstrdup("");
    if (!st->ctx.cuda_torch) st->ctx.cuda_torch = az_xstrdup("");
}

/* ---- errors ---- */

int corr_rec_is_error(const struct corr_rec *r)
{
    if (r->level >= TOK_LEVEL_ERROR) return 1;
    if (r->level == TOK_LEVEL_DEBUG || r->level == TOK_LEVEL_INFO) return 0;
    static const char *const words[] = {
        "error",     "fail",          "fatal",        "killed",           "abort",
        "exception", "traceback",     "segmentation", "segfault",         "timeout",
        "timed out", "out of memory", "cannot",       "undefined symbol", "not found",
        "xid",       "panic",         "denied",       "refused",          "hang",
        "invalid",   "no such file",  "core dumped",  "terminated",       "died",
        "unable",    "oom",           "nan"};
    /* a decisive common failure names an error whatever its words ("fallen off the bus") */
    if (r->sig && r->sig->strength == MATCH_DECISIVE && r->sig->entry &&
        r->sig->entry->family == MATCH_FAMILY_COMMON)
        return 1;
    if (!r->text) return 0;
    size_t len = strlen(r->text);
    for (size_t i = 0; i < AZ_ARRAY_LEN(words); i++)
        if (az_memcasemem(r->text, len, words[i], strlen(words[i]))) return 1;
    return r->level == TOK_LEVEL_WARN && r->sig && r->sig->strength >= MATCH_STRONG;
}

/* ---- signature weights ---- */

/* The weight of each strength: decisive names the cause alone (above the 0.35 threshold with
 * nothing else), strong is good evidence, weak a hint (capped below the threshold in score.c),
 * context adds only a bonus beside real evidence. */
static double strength_weight(enum match_strength s)
{
    switch (s) {
    case MATCH_DECISIVE: return 0.85;
    case MATCH_STRONG: return 0.55;
    case MATCH_WEAK: return 0.2;
    case MATCH_CONTEXT: return 0.0;
    }
    return 0.0;
}

/* Does pkg (compared up to a version separator) name one of the list's packages? */
static int key_package(const char *pkg, const struct match_value *keys)
{
    if (!pkg || !keys) return 0;
    size_t n = 0;
    while (pkg[n] && pkg[n] != ' ' && pkg[n] != '=' && pkg[n] != '<' && pkg[n] != '>' &&
           !(pkg[n] == '-' && isdigit((unsigned char)pkg[n + 1])))
        n++;
    for (size_t i = 0; i < keys->nlist; i++) {
        const char *k = keys->list[i];
        size_t kl = strlen(k);
        if (n != kl) continue;
        size_t j = 0;
        while (j < kl && tolower((unsigned char)pkg[j]) == tolower((unsigned char)k[j])) j++;
        if (j == kl) return 1;
    }
    return 0;
}

struct pkg_scan {
    const char *fact;
    const struct match_value *keys;
    int key, other;
};

static void pkg_visit(void *vctx, const struct corr_rec *r)
{
    struct pkg_scan *p = vctx;
    const char *pkg = fact_str(r, p->fact);
    if (!pkg) return;
    if (key_package(pkg, p->keys))
        p->key = 1;
    else
        p->other = 1;
}

/* The entry's version-change rule, or NULL. */
static const struct match_rule *version_rule(const struct match_entry *e)
{
    for (size_t i = 0; e && i < e->nrules; i++)
        if (!strcmp(e->rules[i]->use, "version-change")) return e->rules[i];
    return NULL;
}

enum match_strength corr_sig_strength(const struct corr_state *st, const struct match_sig *sig)
{
    /* a line the pack calls decisive on GB10, on a run the inputs (or --platform) place there */
    if (sig->decisive_on == MATCH_SCOPE_GB10 && st->ctx.is_gb10 == 1) return MATCH_DECISIVE;
    return sig->strength;
}

double corr_sig_weight(const struct corr_state *st, const struct match_sig *sig)
{
    double w = strength_weight(corr_sig_strength(st, sig));
    /* a version change of packages the entry does not care about (pip moved numpy) is a hint
     * at most: the rule's other_weight */
    const struct match_rule *vr = version_rule(sig->entry);
    if (vr) {
        const struct match_value *f = match_rule_value(vr, "package_fact");
        const struct match_value *k = match_rule_value(vr, "key_packages");
        const struct match_value *ow = match_rule_value(vr, "other_weight");
        struct pkg_scan p = {f ? f->str : NULL, k, 0, 0};
        if (p.fact) corr_sig_each(st, sig->index, pkg_visit, &p);
        if (!p.key && p.other && ow) w = AZ_MIN(w, ow->num);
    }
    return w;
}

/* ---- series helpers ---- */

static int same_file_series(const struct corr_state *st, const char *name, size_t file)
{
    for (size_t i = 0; i < st->nseries; i++)
        if (st->series[i].file == file && !strcmp(st->series[i].name, name) && st->series[i].n)
            return (int)i;
    return corr_series_find(st, name, NULL, 0);
}

/* Mean of the points of b with t in [t0, t1] among the first/last tenth of them. */
static void window_stats(const struct corr_sbuild *b, double t0, double t1, double *first,
                         double *last, double *maxv, size_t *count)
{
    size_t lo = b->n, hi = 0;
    for (size_t i = 0; i < b->n; i++)
        if (b->pts[i].t >= t0 && b->pts[i].t <= t1) {
            if (lo == b->n) lo = i;
            hi = i + 1;
        }
    *count = lo < hi ? hi - lo : 0;
    *first = *last = *maxv = NAN;
    if (!*count) return;
    size_t k = AZ_MAX((size_t)1, *count / 10);
    double a = 0, z = 0, m = -INFINITY;
    for (size_t i = 0; i < k; i++) a += b->pts[lo + i].v, z += b->pts[hi - 1 - i].v;
    for (size_t i = lo; i < hi; i++) m = AZ_MAX(m, b->pts[i].v);
    *first = a / (double)k;
    *last = z / (double)k;
    *maxv = m;
}

static void mark_series(struct corr_state *st, int idx, double t, const char *label)
{
    if (idx < 0 || !label) return;
    struct corr_sbuild *b = &st->series[idx];
    if (!isnan(b->mark_t)) return;
    b->mark_t = t;
    free(b->mark_label);
    b->mark_label = az_xstrdup(label);
}

static double median_of_tail(const struct corr_sbuild *b)
{
    size_t lo = b->n / 2, n = b->n - lo;
    if (!n) return NAN;
    double *v = az_xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) v[i] = b->pts[lo + i].v;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    double m = v[n / 2];
    free(v);
    return m;
}

/* ---- plateau: a series held inside a band for a time ---- */

void corr_prim_plateau(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    int pw = corr_series_find(st, S("series"), S("unit"), 0);
    if (pw < 0) return;
    const struct corr_sbuild *b = &st->series[pw];
    double lo_v = N("lo"), hi_v = N("hi"), above_v = N("above");
    size_t min_points = (size_t)N("min_points"), untimed = (size_t)N("untimed_points");
    size_t one_in = (size_t)N("above_one_in");
    /* Longest run of samples inside the band. */
    size_t best_lo = 0, best_n = 0, lo = 0, n = 0;
    double pmin = INFINITY, pmax = -INFINITY, peak = -INFINITY;
    size_t above = 0;
    for (size_t i = 0; i < b->n; i++) {
        double v = b->pts[i].v;
        peak = AZ_MAX(peak, v);
        if (v > above_v) above++;
        if (v >= lo_v && v <= hi_v) {
            if (!n) lo = i;
            n++;
            if (n > best_n) best_n = n, best_lo = lo;
        } else {
            n = 0;
        }
    }
    double dur = best_n ? b->pts[best_lo + best_n - 1].t - b->pts[best_lo].t : 0;
    int long_enough =
        best_n >= min_points &&
        (dur >= N("min_secs") || (b->approx && b->tkind == AZ_TIME_NONE && best_n >= untimed));
    /* at most one sample in above_share above the band: a plateau, not a dip under load */
    if (!(long_enough && above * one_in < b->n)) {
        if (b->n >= min_points) {
            struct corr_var v[] = {VN("peak", peak)};
            corr_rule_claim(rr, "none", NULL, v, AZ_ARRAY_LEN(v));
        }
        return;
    }
    for (size_t i = best_lo; i < best_lo + best_n; i++)
        pmin = AZ_MIN(pmin, b->pts[i].v), pmax = AZ_MAX(pmax, b->pts[i].v);
    double t0 = b->pts[best_lo].t, t1 = b->pts[best_lo + best_n - 1].t;
    rr->plateau_t0 = t0;
    int tp = same_file_series(st, S("companion"), b->file);
    double tf = NAN, tl = NAN, tmax = NAN;
    size_t tc = 0;
    if (tp >= 0) window_stats(&st->series[tp], t0, t1, &tf, &tl, &tmax, &tc);
    char *d = dur >= 5400 ? az_xasprintf("%.1f h", dur / 3600)
              : dur >= 90 ? az_xasprintf("%.0f min", dur / 60)
                          : az_xasprintf("%.0f s", dur);
    const char *outcome = tc >= 2 && (tl - tf >= N("rise") || tmax >= N("hot")) ? "hot"
                          : tc >= 2                                             ? "steady"
                                                                                : "alone";
    struct corr_var v[] = {VN("min", pmin),
                           VN("max", pmax),
                           VS("dur", d),
                           VN("first", tf),
                           VN("last", tl),
                           VN("peak", peak),
                           VN("value", b->pts[best_lo].v)};
    char text[256];
    corr_rule_text(rr, outcome, v, AZ_ARRAY_LEN(v), text, sizeof text);
    const struct corr_rec *rec = series_rec(st, b, best_lo, text);
    if (corr_rule_claim(rr, outcome, rec, v, AZ_ARRAY_LEN(v)))
        mark_series(st, pw, t0, corr_rule_mark(rr, outcome));
    free(d);
}

/* ---- clock-reasons: nvidia-smi's clock-event reasons (read structurally) ---- */

void corr_prim_clock_reasons(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    if (!st->thr_thermal && !st->thr_power) return;
    const struct corr_rec *rec = st->have_thr_rec ? &st->thr_rec : NULL;
    struct corr_var v[] = {VN("count", (double)(st->thr_thermal ? st->thr_thermal : st->thr_power)),
                           VN("samples", (double)st->thr_samples)};
    corr_rule_claim(rr, st->thr_thermal ? "thermal" : "power", rec, v, AZ_ARRAY_LEN(v));
}

/* ---- change-point: a sustained drop (not noise) in a series ---- */

struct drop {
    int found;
    int series;
    size_t at;
    double before, after, pct, t;
};

static int drop_ok(const struct corr_rule_run *rr, const struct corr_change *c, double *pct)
{
    if (!c->found || c->before <= 0 || c->after >= c->before) return 0;
    if (c->before < N("min_before")) return 0;
    *pct = (c->before - c->after) / c->before * 100.0;
    return *pct >= N("min_drop_pct") && c->effect >= N("min_effect");
}

/* pick "longest": the series with the most points; "largest": the largest drop of any series
 * with that name. */
static struct drop find_drop(const struct corr_rule_run *rr)
{
    const struct corr_state *st = rr->st;
    struct drop d = {0, -1, 0, 0, 0, 0, NAN};
    const char *name = S("series"), *unit = S("unit");
    size_t min_points = (size_t)N("min_points");
    int longest = S("pick") && !strcmp(S("pick"), "longest");
    int only = longest ? corr_series_find(st, name, unit, 0) : -1;
    for (size_t s = 0; s < st->nseries; s++) {
        const struct corr_sbuild *b = &st->series[s];
        if (longest ? (int)s != only : strcmp(b->name, name) != 0) continue;
        if (!longest && unit && strcmp(b->unit, unit)) continue;
        if (b->n < min_points) continue;
        size_t min_seg = AZ_MAX((size_t)3, b->n / 10);
        struct corr_change c = corr_change_point(b->pts, b->n, min_seg);
        double pct;
        if (!drop_ok(rr, &c, &pct)) continue;
        if (!d.found || pct > d.pct) {
            d.found = 1;
            d.series = (int)s;
            d.at = c.at;
            d.before = c.before;
            d.after = c.after;
            d.pct = pct;
            d.t = b->pts[c.at].t;
        }
    }
    return d;
}

/* The share of a companion series' samples (same file and lane as b) from time t on that reach
 * lo: is the GPU still busy after a drop? NAN when there is no such companion. */
static double busy_after(const struct corr_state *st, const struct corr_sbuild *b, double t,
                         const char *name, double lo)
{
    for (size_t s = 0; s < st->nseries; s++) {
        const struct corr_sbuild *c = &st->series[s];
        if (c == b || c->file != b->file || strcmp(c->lane, b->lane) || strcmp(c->name, name))
            continue;
        size_t n = 0, hi = 0;
        for (size_t i = 0; i < c->n; i++) {
            if (c->pts[i].t < t) continue;
            n++;
            if (c->pts[i].v >= lo) hi++;
        }
        if (n) return (double)hi / (double)n;
    }
    return NAN;
}

void corr_prim_change_point(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const char *when = S("when");
    if (when && !strcmp(when, "coresident") && !rr->coresident) return;
    struct drop d = find_drop(rr);
    if (!d.found) return;
    const struct corr_sbuild *b = &st->series[d.series];
    double slack = N("align_slack_secs");
    int aligned =
        !isnan(slack) && !isnan(rr->plateau_t0) && (b->approx || d.t >= rr->plateau_t0 - slack);
    const char *outcome = aligned ? "aligned" : "drop";
    /* With a load series beside it: a fall while the GPU stays busy is the claim; a fall with the
     * load gone is the work ending (an idle clock), no claim at all. */
    const char *busy = S("busy_series");
    if (busy) {
        double share = busy_after(st, b, d.t, busy, N("busy_min"));
        if (!isnan(share) && share < N("busy_share")) return;
        if (!isnan(share)) outcome = "busy";
    }
    struct corr_var v[] = {VN("before", d.before), VN("after", d.after), VS("unit", b->unit),
                           VN("pct", d.pct), VS("at", "")};
    char text[256], clock[32];
    corr_rule_text(rr, outcome, v, AZ_ARRAY_LEN(v), text, sizeof text);
    const struct corr_rec *rec = series_rec(st, b, d.at, text);
    fmt_clock(st, rec->time, clock, sizeof clock);
    v[4].str = clock;
    if (corr_rule_claim(rr, outcome, rec, v, AZ_ARRAY_LEN(v)))
        mark_series(st, d.series, d.t, corr_rule_mark(rr, outcome));
}

/* ---- cutoff-boot: a job log that stops without an error, then a new boot ---- */

static int reboot_seen(const struct corr_state *st, size_t *kfile)
{
    for (size_t i = 0; i < st->nfiles; i++) {
        const struct corr_file *f = &st->files[i];
        if (f->boot_seg > 0 || f->boot_markers >= 2) {
            *kfile = i;
            return 1;
        }
    }
    return 0;
}

/* 1 when the kind is in a "train" or "vllm|stderr" group. */
static int kind_in_group(enum tok_kind k, const char *group)
{
    const char *name = tok_kind_name(k);
    size_t n = strlen(name);
    for (const char *p = group; *p;) {
        const char *e = strchr(p, '|');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == n && !memcmp(p, name, n)) return 1;
        p += l + (e != NULL);
    }
    return 0;
}

void corr_prim_cutoff_boot(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    size_t kf;
    if (!reboot_seen(st, &kf)) return;
    /* the job's own log says most: the groups of job_kinds in order */
    const struct match_value *groups = corr_rule_list(rr, "job_kinds");
    int quiet_end = 0;
    size_t lf = 0;
    for (size_t g = 0; groups && g < groups->nlist && !quiet_end; g++)
        for (size_t i = 0; i < st->nfiles; i++) {
            const struct corr_file *f = &st->files[i];
            if (kind_in_group(f->kind, groups->list[g]) && f->records &&
                f->last_level < TOK_LEVEL_WARN) {
                quiet_end = 1;
                lf = i;
                break;
            }
        }
    const struct corr_file *k = &st->files[kf];
    struct corr_rec *rec = corr_det_rec(st, kf, k->last_line, (struct az_time){0, AZ_TIME_NONE},
                                        k->boot_seg ? S("text_reset") : S("text_marker"));
    if (k->nboot_abs) {
        int approx = 0;
        rec->time = corr_timeline_map(st, kf, k->boot_abs[k->nboot_abs - 1], 0, &approx);
    }
    struct corr_var v[] = {VS("job", st->files[lf].display), VS("boot", k->display)};
    corr_rule_claim(rr, quiet_end ? "quiet_end" : "boot", rec, v, AZ_ARRAY_LEN(v));
}

/* ---- oom-capacity: an OOM against the memory the device has ---- */

struct oom_scan {
    const char *oom_tag, *lookalike_tag;
    const struct corr_rec *first;   /* earliest OOM */
    const struct corr_rec *numbers; /* an OOM with numbers */
    int lookalike;                  /* a line that looks like an OOM and is not one was seen */
};

static void oom_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct oom_scan *o = vctx;
    const struct match_entry *e = r->sig ? r->sig->entry : NULL;
    if (!e || (e->family != MATCH_FAMILY_GOTCHA && e->family != MATCH_FAMILY_COMMON)) return;
    /* a context line may carry sizes (vLLM's healthy "Free memory on device (118.12/119.70 GiB)
     * on startup"): it adds numbers to an OOM, it is never one */
    if (r->sig->strength == MATCH_CONTEXT) return;
    int lookalike = match_sig_has_tag(r->sig, o->lookalike_tag);
    if (lookalike) o->lookalike = 1;
    int numbers =
        corr_rec_fact(r, "tried") || corr_rec_fact(r, "allocated") || corr_rec_fact(r, "total");
    if (!numbers && (lookalike || !match_sig_has_tag(r->sig, o->oom_tag))) return;
    if (!o->first || corr_rec_cmp(st, r, o->first) < 0) o->first = r;
    if (numbers && (!o->numbers || corr_rec_cmp(st, r, o->numbers) < 0)) o->numbers = r;
}

static const char *const oom_facts[] = {"allocated", "reserved", "total",
                                        "free",      "tried",    "in_use"};

struct oom_numbers {
    const struct corr_rec *at;
    size_t wrap;
    double v[6];
};

static void oom_numbers_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct oom_numbers *n = vctx;
    /* the message may be wrapped over a few lines (vLLM and Ray loggers split it) */
    if (r->file != n->at->file || r->line < n->at->line || r->line > n->at->line + n->wrap) return;
    for (size_t i = 0; i < AZ_ARRAY_LEN(oom_facts); i++)
        if (isnan(n->v[i])) n->v[i] = fact_num(r, oom_facts[i]);
}

/* A hint of unified memory among the entry's own lines: its weak or context signatures (memory
 * "Not Supported", [N/A], NVML on UMA), not the OOM lines themselves. */
static void uma_hint_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    if (r->sig && r->sig->strength <= MATCH_WEAK) *(int *)vctx = 1;
}

void corr_prim_oom_capacity(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct match_entry *self = rr->rule->entry;
    struct oom_scan o = {S("oom_tag"), S("lookalike_tag"), NULL, NULL, 0};
    each_rec(st, NULL, oom_visit, &o);
    if (!o.first) {
        corr_rule_claim(rr, o.lookalike ? "lookalike" : "none", NULL, NULL, 0);
        return;
    }
    const struct corr_rec *r = o.numbers ? o.numbers : o.first;
    /* One PyTorch OOM line feeds several signatures (tried / capacity / breakdown): merge them. */
    struct oom_numbers n = {r, (size_t)N("wrap_lines"), {NAN, NAN, NAN, NAN, NAN, NAN}};
    each_rec(st, NULL, oom_numbers_visit, &n);
    double alloc = n.v[0], resv = n.v[1], total = n.v[2], freeb = n.v[3], tried = n.v[4];
    double inuse = n.v[5];
    double used = NAN;
    if (!isnan(inuse))
        used = inuse;
    else if (!isnan(alloc))
        used = alloc + (isnan(resv) ? 0 : resv);
    double tg = total / GIB;
    double cap_gib = !isnan(total) && tg >= N("device_lo_gib") ? tg : N("pool_gib");
    struct corr_var v[] = {VN("used", used / GIB), VN("total", tg), VN("cap", cap_gib),
                           VN("free", freeb / GIB), VN("tried", tried / GIB)};
    size_t nv = AZ_ARRAY_LEN(v);
    /* a device well below or above the pool is another GPU, with memory of its own */
    if (!isnan(total) && total > 0 && (tg < N("device_lo_gib") || tg > N("device_hi_gib")))
        corr_rule_claim(rr, "other_device", r, v, nv);
    /* an OOM says nothing of unified memory unless something shows the run was on the
     * platform: its name, the pool's size, or the entry's own hints */
    int pool_like = !isnan(total) && tg >= N("pool_lo_gib") && tg <= N("pool_hi_gib");
    int uma_hint = 0;
    each_rec(st, self, uma_hint_visit, &uma_hint);
    if (st->ctx.is_gb10 == -1 && !pool_like && !uma_hint)
        corr_rule_claim(rr, "no_platform", NULL, v, nv);
    /* one allocation as large as the pool (nearly) is a model that fits no such device, whatever
     * the memory in use: a real capacity OOM, never misread headroom */
    if (!isnan(tried) && tried / GIB >= N("full") * cap_gib)
        corr_rule_claim(rr, "over_pool", r, v, nv);
    else if (!isnan(used) && used / GIB < N("under") * cap_gib)
        corr_rule_claim(rr, isnan(tried) ? "under_pool" : "under_pool_tried", r, v, nv);
    else if (!isnan(used) && used / GIB >= N("full") * cap_gib)
        corr_rule_claim(rr, "full", r, v, nv);
    else if (isnan(used) && !isnan(freeb) && !isnan(total) && tg >= N("device_lo_gib") &&
             freeb / GIB > N("free_min_gib"))
        corr_rule_claim(rr, "free_reported", r, v, nv);
}

/* ---- counter: a count the structural parsers keep ---- */

void corr_prim_counter(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    if (!when_tag(rr)) return;
    const char *c = S("counter");
    double count;
    const struct corr_rec *rec;
    if (!strcmp(c, "smi-memory-na")) {
        count = (double)st->mem_na_count;
        rec = st->have_mem_na_rec ? &st->mem_na_rec : NULL;
    } else { /* page-cache-kb (checked at load) */
        count = (double)st->meminfo_cached_kb;
        rec = st->have_cache_rec ? &st->cache_rec : NULL;
    }
    if (!(count > N("min"))) return;
    struct corr_var v[] = {VN("count", count), VN("gib", count / 1024 / 1024)};
    corr_rule_claim(rr, "present", rec, v, AZ_ARRAY_LEN(v));
}

/* ---- context-before / context-present ---- */

void corr_prim_context_before(struct corr_rule_run *rr)
{
    const struct corr_rec *at = tag_earliest(rr->st, S("tag"), 1);
    const struct corr_rec *c = entry_earliest(rr->st, entry_of(rr->st, S("context")));
    if (at && c && corr_rec_cmp(rr->st, c, at) <= 0) corr_rule_claim(rr, "before", c, NULL, 0);
}

void corr_prim_context_present(struct corr_rule_run *rr)
{
    if (!when_tag(rr)) return;
    const struct corr_rec *c = entry_earliest(rr->st, entry_of(rr->st, S("context")));
    if (c) corr_rule_claim(rr, "present", c, NULL, 0);
}

/* ---- bandwidth-ceiling: weights x decode rate against a measured ceiling ---- */

/* Bytes per parameter of a dtype text, from "name=bytes" items (first that occurs wins). */
static double dtype_bytes(const char *d, const struct match_value *table)
{
    for (size_t i = 0; d && table && i < table->nlist; i++) {
        const char *eq = strchr(table->list[i], '=');
        if (!eq) continue;
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(eq - table->list[i]), table->list[i]);
        if (contains(d, key)) return atof(eq + 1);
    }
    return NAN;
}

/* Median of a numeric fact over the kept records of an entry (NAN when none). */
struct fact_med {
    const char *fact;
    size_t n;
    double v[CORR_KEEP_FIRST + CORR_KEEP_LAST];
};

static void fact_med_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct fact_med *m = vctx;
    double v = fact_num(r, m->fact);
    if (!isnan(v) && m->n < AZ_ARRAY_LEN(m->v)) m->v[m->n++] = v;
}

static double fact_median(struct corr_state *st, const struct match_entry *e, const char *fact)
{
    struct fact_med m;
    memset(&m, 0, sizeof m);
    m.fact = fact;
    each_rec(st, e, fact_med_visit, &m);
    if (!m.n) return NAN;
    for (size_t i = 1; i < m.n; i++)
        for (size_t j = i; j > 0 && m.v[j] < m.v[j - 1]; j--) {
            double x = m.v[j];
            m.v[j] = m.v[j - 1];
            m.v[j - 1] = x;
        }
    return m.v[m.n / 2];
}

void corr_prim_bandwidth(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct match_value *wf = corr_rule_list(rr, "weight_facts");
    const struct corr_rec *wr = NULL;
    double wbytes = NAN;
    for (size_t i = 0; wf && i < wf->nlist && isnan(wbytes); i++) {
        wr = find_fact(st, NULL, wf->list[i]);
        wbytes = fact_num(wr, wf->list[i]);
    }
    if (isnan(wbytes)) {
        const struct corr_rec *pr = find_fact(st, NULL, S("params_fact"));
        double pb = fact_num(pr, S("params_fact"));
        const struct match_value *df = corr_rule_list(rr, "dtype_facts");
        const struct corr_rec *dr = NULL;
        for (size_t i = 0; df && i < df->nlist && !dr; i++) dr = find_fact(st, NULL, df->list[i]);
        /* the first dtype fact the record has names the bytes */
        const char *dtext = NULL;
        for (size_t i = 0; df && dr && i < df->nlist && !dtext; i++)
            dtext = fact_str(dr, df->list[i]);
        double bpp = dtype_bytes(dtext, corr_rule_list(rr, "dtype_bytes"));
        if (!isnan(pb) && !isnan(bpp)) {
            wbytes = pb * 1e9 * bpp;
            wr = pr;
        }
    }
    /* Decode reads every weight once per step, whatever the batch: the bandwidth is weights times
     * steps per second, i.e. one sequence's rate (1000 / TPOT), not the batch's aggregate. */
    double tps = NAN;
    const char *rate_what = S("label_series");
    double seq = fact_median(st, rr->rule->entry, S("seq_fact"));
    double tpot = fact_median(st, rr->rule->entry, S("tpot_fact"));
    if (!isnan(seq) && seq > 0) {
        tps = seq;
        rate_what = S("label_seq");
    } else if (!isnan(tpot) && tpot > 0) {
        tps = 1000 / tpot;
        rate_what = S("label_tpot");
    } else {
        int tp = corr_series_find(st, S("series"), S("unit"), 0);
        if (tp >= 0) tps = median_of_tail(&st->series[tp]);
    }
    const struct corr_rec *plan = find_sig_rec(st, S("plan"));
    if (!isnan(wbytes) && wbytes > 0 && !isnan(tps)) {
        double gbs = wbytes * tps / 1e9;
        struct corr_var v[] = {VN("gbs", gbs), VS("rate", rate_what), VN("tps", tps),
                               VN("weights_gb", wbytes / 1e9), VN("bw", NAN)};
        size_t nv = AZ_ARRAY_LEN(v);
        int at_ceiling = gbs >= N("lo") && gbs <= N("hi");
        if (at_ceiling && plan) corr_rule_claim(rr, "plan", plan, v, nv);
        if (at_ceiling)
            corr_rule_claim(rr, "ceiling", wr, v, nv);
        else if (gbs > N("hi") && gbs <= N("near_hi"))
            corr_rule_claim(rr, "near", wr, v, nv);
        else if (gbs < N("far"))
            corr_rule_claim(rr, "far", wr, v, nv);
    }
    const struct match_value *bf = corr_rule_list(rr, "measured_facts");
    for (size_t i = 0; bf && i < bf->nlist; i++) {
        const struct corr_rec *br = find_fact(st, NULL, bf->list[i]);
        double bw = fact_num(br, bf->list[i]);
        if (isnan(bw)) continue;
        struct corr_var v[] = {VN("bw", bw)};
        if (bw >= N("measured_lo") && bw <= N("measured_hi"))
            corr_rule_claim(rr, "measured", br, v, AZ_ARRAY_LEN(v));
        break;
    }
}

/* The largest value of a numeric fact over every kept record (tp_size 2 beats a baseline's 1). */
struct fact_max {
    const char *fact;
    const struct corr_rec *rec;
    double v;
};

static void fact_max_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct fact_max *m = vctx;
    double v = fact_num(r, m->fact);
    if (isnan(v)) return;
    if (isnan(m->v) || v > m->v || (v == m->v && corr_rec_cmp(st, r, m->rec) < 0)) {
        m->v = v;
        m->rec = r;
    }
}

/* ---- coresident: processes sharing one memory pool, and their caps ---- */

struct proc_scan {
    const struct match_value *servers;
    size_t n;
    char names[8][64];
    double mem[8];
    const struct corr_rec *rec[8];
    int server;
};

static void proc_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct proc_scan *p = vctx;
    const char *name = fact_str(r, "process");
    const char *pid = fact_str(r, "pid");
    double mem = fact_num(r, "mem_used");
    const char *ms = fact_str(r, "mem_used");
    if (isnan(mem) && ms && isdigit((unsigned char)*ms)) {
        /* nvidia-smi's process table says "66581MiB": a size the pack leaves as text */
        char *end;
        double v = strtod(ms, &end);
        if (!strncmp(end, "MiB", 3))
            mem = v * 1024 * 1024;
        else if (!strncmp(end, "GiB", 3))
            mem = v * GIB;
    }
    char key[64];
    snprintf(key, sizeof key, "%s", pid ? pid : name ? name : "?");
    if (contains_any(name, p->servers)) p->server = 1;
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->names[i], key)) return;
    if (p->n >= 8) return;
    snprintf(p->names[p->n], sizeof p->names[p->n], "%s", key);
    p->mem[p->n] = mem;
    p->rec[p->n] = r;
    p->n++;
}

/* 1 when the kind is named in the list. */
static int kind_listed(enum tok_kind k, const struct match_value *list)
{
    for (size_t i = 0; list && i < list->nlist; i++)
        if (kind_in_group(k, list->list[i])) return 1;
    return 0;
}

void corr_prim_coresident(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct match_entry *self = rr->rule->entry;
    struct proc_scan p;
    memset(&p, 0, sizeof p);
    p.servers = corr_rule_list(rr, "server_names");
    each_rec(st, entry_of(st, S("processes")), proc_visit, &p);
    size_t heavy = 0, sized = 0;
    double heavy_gib = 0;
    const struct corr_rec *second = NULL;
    struct az_buf desc = AZ_BUF_INIT;
    for (size_t i = 0; i < p.n; i++) {
        /* mem_used is bytes when the pack types it so; small numbers are MiB. */
        double m = p.mem[i];
        double gib = isnan(m) ? NAN : m > 1e6 ? m / GIB : m / 1024;
        const char *pn = fact_str(p.rec[i], "process");
        if (!isnan(gib) && gib < N("min_gib")) continue;
        if (isnan(gib) && !contains_any(pn, corr_rule_list(rr, "compute_names")))
            continue; /* Xorg, gnome-shell: no size, not a compute job */
        heavy++;
        if (!isnan(gib)) heavy_gib += gib, sized++;
        if (heavy == 2) second = p.rec[i];
        az_buf_printf(&desc, "%s%s", desc.len ? ", " : "", pn ? pn : p.names[i]);
        if (!isnan(gib)) az_buf_printf(&desc, " (%.1f GiB)", gib);
    }
    int server = p.server, train = 0;
    for (size_t i = 0; i < st->nfiles; i++) {
        if (kind_listed(st->files[i].kind, corr_rule_list(rr, "server_kinds"))) server = 1;
        if (kind_listed(st->files[i].kind, corr_rule_list(rr, "job_kinds"))) train = 1;
    }
    /* The pool is per machine. A process table is one machine's; a server log and a training log
     * side by side are one machine's only when the run is not spread over several hosts. */
    struct fact_max nm = {"nnodes", NULL, NAN};
    each_rec(st, NULL, fact_max_visit, &nm);
    struct host_set hs = run_hosts(st);
    int multi_host = hs.n >= 2 || (!isnan(nm.v) && nm.v >= 2);
    int kinds_coloc = server && train && !multi_host;
    int coloc = heavy >= 2 || kinds_coloc;
    rr->coresident = coloc;
    double pool = N("pool_gib");
    /* Two heavy processes that together fill the pool: the one-heavy-job rule is broken whatever
     * either one's own cap says. */
    int near_full = heavy >= 2 && sized >= 2 && heavy_gib >= N("full_share") * pool;
    const struct corr_rec *srv = find_sig_rec(st, S("server"));
    const struct corr_rec *cfg0 = entry_earliest(st, entry_of(st, S("config")));
    if (cfg0 && (!srv || corr_rec_cmp(st, cfg0, srv) < 0)) srv = cfg0;
    const struct corr_rec *cfg = find_fact(st, entry_of(st, S("config")), S("util_fact"));
    if (!cfg) cfg = find_fact(st, self, S("util_fact"));
    double util = fact_num(cfg, S("util_fact"));
    struct corr_var v[] = {
        VN("count", (double)heavy), VS("list", desc.data ? desc.data : ""),
        VN("gib", heavy_gib),       VN("pool", pool),
        VN("util", util),           VN("hosts", hs.n >= 2 ? (double)hs.n : nm.v)};
    size_t nv = AZ_ARRAY_LEN(v);
    if (heavy >= 2)
        corr_rule_claim(rr, "second_process", second, v, nv);
    else if (kinds_coloc)
        corr_rule_claim(rr, "same_run", srv, v, nv);
    else if (server && train && multi_host)
        corr_rule_claim(rr, "multi_host", NULL, v, nv);
    if (near_full) corr_rule_claim(rr, "near_full", second, v, nv);
    if (coloc && !isnan(util) && util > N("util_cap"))
        corr_rule_claim(rr, "uncapped", cfg, v, nv);
    else if (coloc && server && isnan(util))
        corr_rule_claim(rr, "default_cap", srv, v, nv);
    else if (!isnan(util) && util <= N("util_cap") && !near_full)
        corr_rule_claim(rr, "capped", cfg, v, nv);
    if (!coloc && !entry_hit(st, self))
        corr_rule_claim(rr, p.n ? "none_heavy" : "none", NULL, v, nv);
    az_buf_free(&desc);
}

/* ---- build-vs-driver: what torch was built for against what the machine runs ---- */

static int starts(const char *s, const char *prefix)
{
    return s && prefix && *prefix && !strncmp(s, prefix, strlen(prefix));
}

void corr_prim_build_driver(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const char *ct = st->ctx.cuda_torch, *cd = st->ctx.cuda_driver;
    const struct corr_rec *r = find_fact(st, NULL, "cuda_torch");
    if (!r) r = find_fact(st, NULL, "torch_version");
    struct corr_var v[] = {VS("built", ct ? ct : ""), VS("driver", cd ? cd : "")};
    size_t nv = AZ_ARRAY_LEN(v);
    if (starts(ct, S("built")) && (starts(cd, S("driver")) || st->ctx.is_gb10 == 1)) {
        corr_rule_claim(rr, cd && *cd ? "mismatch" : "mismatch_gb10", r, v, nv);
        const struct match_entry *w = entry_of(st, S("with_entry"));
        if (entry_hit(st, w)) corr_rule_claim(rr, "with", entry_earliest(st, w), v, nv);
    } else if (starts(ct, S("cleared")) && !find_fact(st, rr->rule->entry, S("unless_fact"))) {
        /* a matching torch clears torch, not the extensions beside it: a wheel that names its
         * runtime library (unless_fact) is still the mismatch */
        corr_rule_claim(rr, "cleared", r, v, nv);
    }
}

/* ---- quant-arch: a quantization that needs an arch the build may lack ---- */

static double quant_throughput(const struct corr_state *st, const char *q)
{
    double best = NAN;
    for (size_t i = 0; i < st->nseries; i++) {
        const struct corr_sbuild *b = &st->series[i];
        if (strcmp(b->name, "throughput") || strcmp(b->unit, "tok/s") || !b->n) continue;
        if (!contains(st->files[b->file].quant, q)) continue;
        double m = median_of_tail(b);
        if (isnan(best) || m > best) best = m;
    }
    return best;
}

void corr_prim_quant_arch(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const char *quant = S("quant");
    int inuse = 0;
    for (size_t i = 0; i < st->nfiles; i++)
        if (contains(st->files[i].quant, quant)) inuse = 1;
    const struct corr_rec *qr = find_fact(st, NULL, S("quant_fact"));
    if (qr && contains(fact_str(qr, S("quant_fact")), quant)) inuse = 1;
    const struct corr_rec *al = find_fact(st, NULL, S("arch_fact"));
    const char *list = fact_str(al, S("arch_fact"));
    int has_a = list && contains_any(list, corr_rule_list(rr, "arch_ok"));
    double f4 = quant_throughput(st, quant), f8 = quant_throughput(st, S("compare"));
    struct corr_var v[] = {VS("list", list ? list : ""), VN("pct", (f8 - f4) / f8 * 100),
                           VN("quant_tps", f4), VN("compare_tps", f8)};
    size_t nv = AZ_ARRAY_LEN(v);
    if (inuse && st->ctx.is_gb10 != 0) {
        /* a run the inputs do not place may be another GPU's build: the pack can weigh it
         * apart (no_arch_unplaced), so its sentence claims no capability no line states */
        int unplaced = st->ctx.is_gb10 == -1 && match_rule_outcome(rr->rule, "no_arch_unplaced");
        if (list && !has_a)
            corr_rule_claim(rr, unplaced ? "no_arch_unplaced" : "no_arch", al, v, nv);
        else if (has_a)
            corr_rule_claim(rr, "arch_ok", al, v, nv);
        else
            corr_rule_claim(rr, "quant_only", qr, v, nv);
    }
    if (!isnan(f4) && !isnan(f8) && f8 > 0)
        corr_rule_claim(rr, f4 < f8 ? "slower" : "faster", qr, v, nv);
}

/* ---- version-change: packages replaced between two states of the environment ---- */

struct repl_scan {
    const char *pkg_fact, *old_fact, *new_fact, *image_tag;
    const struct match_value *keys;
    size_t n;
    const struct corr_rec *first;
    int image_build; /* a container image's own build ("2.9.0a0+50eac811a6.nv25.9") was replaced */
    char pkgs[4][96];
};

static void repl_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct repl_scan *s = vctx;
    const char *pkg = fact_str(r, s->pkg_fact);
    if (!key_package(pkg, s->keys)) return;
    if (!s->first || corr_rec_cmp(st, r, s->first) < 0) s->first = r;
    char name[96];
    const char *ov = fact_str(r, s->old_fact), *nv = fact_str(r, s->new_fact);
    const char *tag = ov ? strstr(ov, s->image_tag) : NULL;
    if (tag && isdigit((unsigned char)tag[strlen(s->image_tag)])) s->image_build = 1;
    if (ov && nv)
        snprintf(name, sizeof name, "%s %s → %s", pkg, ov, nv);
    else if (ov)
        snprintf(name, sizeof name, "%s %s", pkg, ov);
    else
        snprintf(name, sizeof name, "%s", pkg);
    for (size_t i = 0; i < s->n && i < 4; i++) {
        size_t pl = strlen(pkg);
        if (!strncmp(s->pkgs[i], pkg, pl) && (s->pkgs[i][pl] == ' ' || !s->pkgs[i][pl])) {
            if (strlen(name) > strlen(s->pkgs[i]))
                snprintf(s->pkgs[i], sizeof s->pkgs[i], "%s", name);
            return;
        }
    }
    if (s->n < 4) snprintf(s->pkgs[s->n], sizeof s->pkgs[s->n], "%s", name);
    s->n++;
}

/* 1 while every record of the entry is the only_sig signature's, 2 once another is seen. */
struct only_scan {
    const struct match_sig *sig;
    int v;
};

static void only_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct only_scan *o = vctx;
    if (!r->sig) return;
    if (r->sig != o->sig)
        o->v = 2;
    else if (o->v == 0)
        o->v = 1;
}

void corr_prim_version_change(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct match_entry *self = rr->rule->entry;
    struct repl_scan s;
    memset(&s, 0, sizeof s);
    s.pkg_fact = S("package_fact");
    s.old_fact = S("old_fact");
    s.new_fact = S("new_fact");
    s.image_tag = S("image_tag");
    s.keys = corr_rule_list(rr, "key_packages");
    each_rec(st, self, repl_visit, &s);
    if (s.n) {
        struct az_buf b = AZ_BUF_INIT;
        for (size_t i = 0; i < s.n && i < 4; i++)
            az_buf_printf(&b, "%s%s", i ? ", " : "", s.pkgs[i]);
        char clock[32];
        fmt_clock(st, s.first->time, clock, sizeof clock);
        struct corr_var v[] = {VS("packages", b.data), VS("at", clock)};
        corr_rule_claim(rr, "replaced", s.first, v, AZ_ARRAY_LEN(v));
        az_buf_free(&b);
    }
    /* A container protects the stack only until pip replaces the image's own builds. */
    if (st->ctx.in_container == 1 && !s.image_build)
        corr_rule_claim(rr, "container", tag_earliest(st, S("container_tag"), 0), NULL, 0);
    else if (st->ctx.in_container == 0 && (s.n || entry_hit(st, self)))
        corr_rule_claim(rr, "bare_host", tag_earliest(st, S("bare_tag"), 0), NULL, 0);
    /* One signature alone (an extension built against another torch says the stack is mixed,
     * not that pip mixed it): with no version change and nothing about the environment, a hint. */
    struct only_scan o = {match_pack_find_sig(st->pack, S("only_sig")), 0};
    each_rec(st, self, only_visit, &o);
    if (o.v == 1 && !s.n && st->ctx.in_container == -1 && !tag_earliest(st, S("bare_tag"), 0))
        corr_rule_claim(rr, "only_sig", NULL, NULL, 0);
}

/* ---- tp-nodes: tensor parallelism over more than one machine ---- */

void corr_prim_tp_nodes(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    struct fact_max tm = {S("tp_fact"), NULL, NAN}, nm = {S("nodes_fact"), NULL, NAN};
    each_rec(st, NULL, fact_max_visit, &tm);
    each_rec(st, NULL, fact_max_visit, &nm);
    const struct corr_rec *tr = tm.rec, *nr = nm.rec;
    double tp = tm.v, nn = nm.v;
    struct host_set hs = run_hosts(st);
    /* a line that is printed only when the group really spans machines (the spans signature) */
    const struct corr_rec *spans = find_sig_rec(st, S("spans"));
    /* or any line the pack tags as saying so (a TP size above a one-GPU node's count) */
    const struct corr_rec *spans_t = spans ? NULL : tag_earliest(st, S("spans_tag"), 0);
    const char *how_spans = spans_t && S("how_spans_tag") ? S("how_spans_tag") : S("how_spans");
    if (!spans) spans = spans_t;
    /* a launcher's worker on another node than its driver: the driver's node and that one */
    size_t remote_nodes = st->nremote ? st->nremote + 1 : 0;
    /* a platform whose machines carry one GPU each: there a group of two or more ranks cannot
     * fit on one machine, so it spans machines where no count of them is printed */
    const char *one_gpu = S("one_gpu_platform");
    int one_gpu_group =
        one_gpu && st->ctx.platform && !strcmp(st->ctx.platform, one_gpu) && !isnan(tp) && tp >= 2;
    int multi = (!isnan(nn) && nn >= 2) || hs.n >= 2 || remote_nodes >= 2 ||
                (spans && !isnan(tp) && tp >= 2) || one_gpu_group;
    const char *how_remote = S("how_remote") ? S("how_remote") : S("how_hosts");
    const char *how = !isnan(nn) && nn >= 2 ? S("how_nodes")
                      : hs.n >= 2           ? S("how_hosts")
                      : remote_nodes >= 2   ? how_remote
                      : spans               ? how_spans
                      : one_gpu_group       ? S("how_one_gpu")
                                            : how_spans;
    /* counted by the group alone (one GPU a machine), the machines are as many as its ranks */
    int counted = (!isnan(nn) && nn >= 2) || hs.n >= 2 || remote_nodes >= 2;
    int several = (!isnan(nn) && nn >= 3) || hs.n >= 3 || remote_nodes >= 3 ||
                  (!counted && one_gpu_group && tp >= 3);
    struct corr_var v[] = {VN("tp", tp), VS("nodes", several ? S("several") : S("two")),
                           VS("how", how)};
    size_t nv = AZ_ARRAY_LEN(v);
    const struct corr_rec *nc = entry_earliest(st, entry_of(st, S("failure")));
    if (!isnan(tp) && tp >= 2 && multi) {
        corr_rule_claim(rr, "across", tr, v, nv);
        if (nc) corr_rule_claim(rr, "failure", nc, v, nv);
        /* more TP ranks than the launcher's nodes: some node holds several of the group's GPUs */
        if (!isnan(nn) && nn >= 2 && tp > nn) corr_rule_claim(rr, "per_node", nr, v, nv);
    } else if (isnan(tp) && spans) {
        /* No size printed, but the spans line itself says a tensor-parallel group spans
         * machines: the servers build that communicator for the TP group only. */
        corr_rule_claim(rr, "group_spans", spans, v, nv);
        if (nc) corr_rule_claim(rr, "failure", nc, v, nv);
    } else if (!isnan(tp) && tp < 2) {
        corr_rule_claim(rr, "tp1", tr, v, nv);
    } else if (!multi && !isnan(nn)) {
        corr_rule_claim(rr, "single_node", nr, v, nv);
    }
}

/* ---- after-context: a context line, then a failure (or a run that did not learn) ---- */

struct err_scan {
    const struct corr_rec *after;
    const struct corr_rec *first_err;
};

static void err_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct err_scan *e = vctx;
    const struct match_entry *en = r->sig ? r->sig->entry : NULL;
    if (!en || (en->family != MATCH_FAMILY_GOTCHA && en->family != MATCH_FAMILY_COMMON)) return;
    if (r->sig->strength < MATCH_STRONG || !corr_rec_is_error(r)) return;
    if (e->after && corr_rec_cmp(st, r, e->after) < 0) return;
    if (!e->first_err || corr_rec_cmp(st, r, e->first_err) < 0) e->first_err = r;
}

void corr_prim_after_context(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct corr_rec *pb = entry_earliest(st, entry_of(st, S("context")));
    if (!pb) return;
    struct err_scan e = {pb, NULL};
    each_rec(st, NULL, err_visit, &e);
    if (e.first_err) {
        char w[300];
        struct corr_var v[] = {VS("at", where(st, e.first_err, w, sizeof w))};
        corr_rule_claim(rr, "failed", pb, v, AZ_ARRAY_LEN(v));
        return;
    }
    /* A fine-tune that does not learn: gradient norms far above any clipping threshold in most
     * steps and a loss that never falls. No error line; the run "succeeds" with a broken model. */
    int gi = corr_series_find(st, S("grad_series"), NULL, 0);
    int li = corr_series_find(st, S("loss_series"), NULL, 0);
    if (gi < 0 || li < 0) return;
    const struct corr_sbuild *g = &st->series[gi], *l = &st->series[li];
    size_t minp = (size_t)N("min_points");
    if (g->n < minp || l->n < minp) return;
    size_t huge = 0;
    double gmax = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (g->pts[i].v >= N("huge")) huge++;
        gmax = AZ_MAX(gmax, g->pts[i].v);
    }
    size_t q = AZ_MAX((size_t)1, l->n / 4);
    double first = 0, last = 0;
    for (size_t i = 0; i < q; i++) first += l->pts[i].v, last += l->pts[l->n - 1 - i].v;
    first /= (double)q;
    last /= (double)q;
    /* most steps exploding (one in huge_share or more), the last quarter no better than
     * loss_ratio of the first */
    if (huge * (size_t)N("huge_share") < g->n || last < N("loss_ratio") * first) return;
    struct corr_var v[] = {VN("huge", (double)huge), VN("n", (double)g->n), VN("gmax", gmax),
                           VN("first", first),       VN("last", last),      VS("at", "")};
    char text[256];
    corr_rule_text(rr, "diverged", v, AZ_ARRAY_LEN(v), text, sizeof text);
    corr_rule_claim(rr, "diverged", series_rec(st, g, 0, text), v, AZ_ARRAY_LEN(v));
}

/* ---- last-line: a tagged line of the entry is the last its log shows ---- */

struct last_scan {
    struct corr_rule_run *rr;
    int done;
};

static void last_line_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct last_scan *l = vctx;
    if (l->done || r->file >= st->nfiles || !r->sig) return;
    if (r->line == st->files[r->file].last_line &&
        match_sig_has_tag(r->sig, corr_rule_str(l->rr, "tag"))) {
        corr_rule_claim(l->rr, "last", r, NULL, 0);
        l->done = 1;
    }
}

void corr_prim_last_line(struct corr_rule_run *rr)
{
    struct last_scan l = {rr, 0};
    each_rec(rr->st, rr->rule->entry, last_line_visit, &l);
}

/* ---- dated-before: a mechanism that cannot predate the release it needs ---- */

/* The entry's earliest line carries an absolute date (as the log wrote it) before the rule's
 * `date` (YYYY-MM-DD): a log written before the software the mechanism needs existed. */
void corr_prim_dated_before(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct corr_rec *r = entry_earliest(st, rr->rule->entry);
    const char *date = S("date");
    int year;
    unsigned month, day;
    if (!r || !date || sscanf(date, "%d-%u-%u", &year, &month, &day) != 3) return;
    struct az_time t = r->raw.kind == AZ_TIME_ABS ? r->raw : r->time;
    if (t.kind != AZ_TIME_ABS) return;
    if (t.usec >= az_usec_from_civil(year, month, day, 0, 0, 0, 0)) return;
    char when[40];
    az_time_format(t, 0, when, sizeof when);
    when[strcspn(when, " T")] = '\0'; /* the date part */
    struct corr_var v[] = {VS("dated", when), VS("date", date)};
    corr_rule_claim(rr, "before", r, v, AZ_ARRAY_LEN(v));
}

/* ---- version-pair: two packages that ship in matched releases ---- */

/* "2.5.1+cu124" -> "2.5" in out (major.minor, digits only); 0 when v does not start so. */
static int major_minor(const char *v, char *out, size_t n)
{
    size_t i = 0;
    int dots = 0;
    if (!v || !isdigit((unsigned char)*v)) return 0;
    for (; v[i] && i + 1 < n; i++) {
        if (v[i] == '.' && ++dots == 2) break;
        if (v[i] != '.' && !isdigit((unsigned char)v[i])) break;
        out[i] = v[i];
    }
    out[i] = '\0';
    return dots >= 1 && i > 2 && out[i - 1] != '.';
}

/* The environment's latest versions of two packages (each the last line that states it) against
 * the pack's table of matched releases ("2.5:0.20": torch 2.5 goes with torchvision 0.20). A first
 * version the table does not list weighs nothing. */
void corr_prim_version_pair(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const char *fa = S("first_fact"), *fb = S("second_fact");
    const struct corr_rec *ra = find_fact_at(st, NULL, fa, 1), *rb = find_fact_at(st, NULL, fb, 1);
    if (!ra || !rb) return;
    const char *va = fact_str(ra, fa), *vb = fact_str(rb, fb);
    char ma[16], mb[16];
    if (!major_minor(va, ma, sizeof ma) || !major_minor(vb, mb, sizeof mb)) return;
    const struct match_value *pairs = corr_rule_list(rr, "pairs");
    for (size_t i = 0; pairs && i < pairs->nlist; i++) {
        const char *p = pairs->list[i], *colon = strchr(p, ':');
        if (!colon || (size_t)(colon - p) != strlen(ma) || strncmp(p, ma, strlen(ma))) continue;
        const struct corr_rec *later = corr_rec_cmp(st, ra, rb) > 0 ? ra : rb;
        struct corr_var v[] = {VS("first", va), VS("second", vb), VS("expected", colon + 1)};
        corr_rule_claim(rr, strcmp(colon + 1, mb) ? "mismatch" : "paired", later, v,
                        AZ_ARRAY_LEN(v));
        return;
    }
}

/* ---- requested-not-used: a setting was asked for, another was used ---- */

void corr_prim_requested(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct corr_rec *req = find_sig_rec(st, S("request"));
    if (!req) return;
    const struct corr_rec *chosen = find_sig_rec(st, S("chosen"));
    const struct corr_rec *banner = find_sig_rec(st, S("banner"));
    if (!chosen && !banner) return;
    char w[300];
    struct corr_var v[] = {VS("request", where(st, req, w, sizeof w))};
    if (chosen)
        corr_rule_claim(rr, banner ? "both" : "chosen", chosen, v, AZ_ARRAY_LEN(v));
    else
        corr_rule_claim(rr, "banner", banner, v, AZ_ARRAY_LEN(v));
}

/* ---- fact-share: one number of a line as a share of another ---- */

/* The earliest line of signature sig that carries both facts: part / whole inside [lo, hi]
 * (vLLM's startup check: free of total), and where whole_lo/whole_hi are given, only of a whole
 * inside [whole_lo, whole_hi] (one device's size). */
void corr_prim_fact_share(struct corr_rule_run *rr)
{
    const struct corr_rec *r = find_sig_rec(rr->st, S("sig"));
    if (!r) return;
    double part = fact_num(r, S("part")), whole = fact_num(r, S("whole"));
    if (isnan(part) || isnan(whole) || !(whole > 0) || part < 0) return;
    /* a share means something only of the whole it was measured on (one device's size) */
    double wlo = N("whole_lo"), whi = N("whole_hi");
    if ((!isnan(wlo) && whole < wlo) || (!isnan(whi) && whole > whi)) return;
    double share = part / whole;
    if (share < N("lo") || share > N("hi")) return;
    struct corr_var v[] = {VN("part", part), VN("whole", whole), VN("share", share)};
    corr_rule_claim(rr, "inside", r, v, AZ_ARRAY_LEN(v));
}

/* ---- all ---- */

void corr_detect_all(struct corr_state *st)
{
    corr_rules_run(st);
    /* scope: a mechanism of one platform is less likely on a run that shows another GPU */
    if (st->ctx.is_gb10 != 0) return;
    for (size_t i = 0; i < match_pack_entry_count(st->pack); i++) {
        const struct match_entry *e = match_pack_entry(st->pack, i);
        if (e->family != MATCH_FAMILY_GOTCHA || e->scope.platform != MATCH_SCOPE_GB10) continue;
        /* {gpu}: the GPU the inputs name, or what set the platform when the user did */
        char set_by[48];
        snprintf(set_by, sizeof set_by, "set by %s", st->ctx.platform_from);
        const struct corr_rec *host = tag_earliest(st, TAG_OTHER_HOST, 0);
        const char *gpu = st->cfg->platform == CORR_PLATFORM_OTHER ? set_by
                          : *st->ctx.gpu_name                      ? st->ctx.gpu_name
                          : host && *host->sig->summary            ? host->sig->summary
                                                                   : "other GPU";
        struct corr_var v[] = {VS("gpu", gpu)};
        corr_claim_add(st, e, 0, e->scope.factor, NULL, NULL, NULL,
                       corr_rule_render(e->scope.says, v, AZ_ARRAY_LEN(v)));
    }
}
