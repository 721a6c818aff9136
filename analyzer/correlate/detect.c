/* correlate/detect.c - the run's context and the quantitative detectors. Each detector reads
 * series, kept hits and context and adds claims: supporting evidence with a weight, contrary
 * evidence with a factor, or a cap, each with the numbers that justify it. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

#define GIB           (1024.0 * 1024.0 * 1024.0)
#define GB10_POOL_GIB 119.7 /* what GB10's 128 GB shows as "total capacity" */
/* Upper end of "at the measured 180–192 GB/s ceiling" for bandwidth computed from weight bytes:
 * logs label GiB as "GB" and vice versa (7 %), so allow that much above 192. */
#define G5_CEILING_HI 210.0

struct corr_claim *corr_claim_add(struct corr_state *st, const char *entry_id, double weight,
                                  double factor, const struct corr_rec *rec, char *note,
                                  char *summary, char *reason)
{
    const struct match_entry *e = match_pack_find_entry(st->pack, entry_id);
    if (!e) {
        free(note);
        free(summary);
        free(reason);
        return NULL;
    }
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

/* A cap on an entry's score, with the reason (for "ruled out"). */
static void claim_cap(struct corr_state *st, const char *entry_id, double cap, char *reason)
{
    struct corr_claim *c = corr_claim_add(st, entry_id, 0, 1, NULL, NULL, NULL, reason);
    if (c) c->cap = cap;
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

/* Every kept record of the entry (or, entry_id NULL, of every entry). */
static void each_rec(struct corr_state *st, const char *entry_id, rec_visit_fn fn, void *ctx)
{
    struct visit_ctx v = {st, fn, ctx};
    for (size_t s = 0; s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (entry_id && strcmp(sig->entry->id, entry_id)) continue;
        corr_sig_each(st, s, visit_tramp, &v);
    }
}

/* The earliest kept record that has the fact (NULL when none). */
struct fact_find {
    const char *entry_id;
    const char *fact;
    const struct corr_rec *best;
};

static void fact_find_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct fact_find *f = vctx;
    if (!corr_rec_fact(r, f->fact)) return;
    if (!f->best || corr_rec_cmp(st, r, f->best) < 0) f->best = r;
}

static const struct corr_rec *find_fact(struct corr_state *st, const char *entry_id,
                                        const char *fact)
{
    struct fact_find f = {entry_id, fact, NULL};
    each_rec(st, entry_id, fact_find_visit, &f);
    return f.best;
}

static const char *fact_str(const struct corr_rec *r, const char *fact)
{
    const struct corr_fact_copy *f = r ? corr_rec_fact(r, fact) : NULL;
    return f ? f->val : NULL;
}

static double fact_num(const struct corr_rec *r, const char *fact)
{
    const struct corr_fact_copy *f = r ? corr_rec_fact(r, fact) : NULL;
    if (!f) return NAN;
    if (!isnan(f->num)) return f->num;
    double v;
    return tok_parse_double(f->val, strlen(f->val), &v) ? NAN : v;
}

static int entry_hit(const struct corr_state *st, const char *entry_id)
{
    const struct match_entry *e = match_pack_find_entry(st->pack, entry_id);
    if (!e) return 0;
    for (size_t i = 0; i < e->nsigs; i++)
        if (e->sigs[i]->index < st->nsigs && st->sigs[e->sigs[i]->index]) return 1;
    return 0;
}

static const struct corr_rec *entry_earliest(const struct corr_state *st, const char *entry_id)
{
    const struct match_entry *e = match_pack_find_entry(st->pack, entry_id);
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
    for (size_t s = 0; s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        if (!strcmp(match_pack_sig(st->pack, s)->id, sig_id)) return corr_sig_earliest(st, s);
    }
    return NULL;
}

static int contains(const char *s, const char *needle)
{
    return s && az_memcasemem(s, strlen(s), needle, strlen(needle)) != NULL;
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

static char *fmt_dur(double secs)
{
    if (secs >= 5400) return az_xasprintf("%.1f h", secs / 3600);
    if (secs >= 90) return az_xasprintf("%.0f min", secs / 60);
    return az_xasprintf("%.0f s", secs);
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
     * (an 80 GiB H100, a 139.7 GiB H200/H20) is another GPU. */
    double total = fact_num(r, "total");
    if (!isnan(total) && total > 0 && r->sig && r->sig->entry->family == MATCH_FAMILY_GOTCHA) {
        double gib = total / GIB;
        if (gib >= 110 && gib <= 125) {
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
    struct ctx_scan c = {0, 0, NULL};
    each_rec(st, NULL, ctx_visit, &c);
    if (c.gb10)
        st->ctx.is_gb10 = 1;
    else if (c.other)
        st->ctx.is_gb10 = 0;
    if (!st->ctx.gpu_name && c.other_name && !c.gb10 && strncmp(c.other_name, "capability", 10))
        st->ctx.gpu_name = az_xstrdup(c.other_name);
    if (!st->ctx.gpu_name && c.other_name && !c.gb10) st->ctx.gpu_name = az_xstrdup(c.other_name);
    free(c.other_name);
    if (entry_hit(st, "CTX.container"))
        st->ctx.in_container = 1;
    else if (entry_hit(st, "CTX.bare-host"))
        st->ctx.in_container = 0;
    if (!st->ctx.gpu_name) st->ctx.gpu_name = az_xstrdup("");
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

/* The packages whose replacement G9 is about; the name is compared up to a version separator. */
static int key_package(const char *pkg)
{
    static const char *const keys[] = {"torch",        "triton",      "xformers",
                                       "transformers", "torchvision", "torchaudio",
                                       "flash-attn",   "flash_attn",  "pytorch-triton"};
    if (!pkg) return 0;
    size_t n = 0;
    while (pkg[n] && pkg[n] != ' ' && pkg[n] != '=' && pkg[n] != '<' && pkg[n] != '>' &&
           !(pkg[n] == '-' && isdigit((unsigned char)pkg[n + 1])))
        n++;
    for (size_t i = 0; i < AZ_ARRAY_LEN(keys); i++) {
        size_t kl = strlen(keys[i]);
        if (n != kl) continue;
        size_t k = 0;
        while (k < kl && tolower((unsigned char)pkg[k]) == keys[i][k]) k++;
        if (k == kl) return 1;
    }
    return 0;
}

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

struct pkg_scan {
    int key, other;
};

static void pkg_visit(void *vctx, const struct corr_rec *r)
{
    struct pkg_scan *p = vctx;
    const char *pkg = fact_str(r, "package");
    if (!pkg) return;
    if (key_package(pkg))
        p->key = 1;
    else
        p->other = 1;
}

double corr_sig_weight(const struct corr_state *st, const struct match_sig *sig)
{
    double w = strength_weight(sig->strength);
    if (!strcmp(sig->entry->id, "G9")) {
        struct pkg_scan p = {0, 0};
        corr_sig_each(st, sig->index, pkg_visit, &p);
        if (!p.key && p.other) w = AZ_MIN(w, 0.1); /* pip moved numpy: not what G9 is about */
    }
    return w;
}

/* ---- G4: power plateau, temperature, clocks, throughput, reboot ---- */

static int same_file_series(const struct corr_state *st, const char *name, size_t file)
{
    for (size_t i = 0; i < st->nseries; i++)
        if (st->series[i].file == file && !strcmp(st->series[i].name, name) && st->series[i].n)
            return (int)i;
    return corr_series_find(st, name, NULL, 0);
}

/* Mean of the points of b with t in [t0, t1] among the first/last fraction of them. */
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

struct drop {
    int found;
    int series;
    size_t at;
    double before, after, pct, t;
};

/* A sustained drop (change point, not noise) in the best throughput-like series named name. */
static struct drop find_drop(const struct corr_state *st, const char *name, double min_pct)
{
    struct drop d = {0, -1, 0, 0, 0, 0, NAN};
    for (size_t s = 0; s < st->nseries; s++) {
        const struct corr_sbuild *b = &st->series[s];
        if (strcmp(b->name, name) || b->n < 8) continue;
        size_t min_seg = AZ_MAX((size_t)3, b->n / 10);
        struct corr_change c = corr_change_point(b->pts, b->n, min_seg);
        if (!c.found || c.before <= 0 || c.after >= c.before) continue;
        double pct = (c.before - c.after) / c.before * 100.0;
        if (pct < min_pct || c.effect < 2.0) continue;
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

static void mark_series(struct corr_state *st, int idx, double t, const char *label)
{
    if (idx < 0) return;
    struct corr_sbuild *b = &st->series[idx];
    if (!isnan(b->mark_t)) return;
    b->mark_t = t;
    free(b->mark_label);
    b->mark_label = az_xstrdup(label);
}

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

static void detect_g4(struct corr_state *st)
{
    int pw = corr_series_find(st, "power.draw", "W", 0);
    double plateau_t0 = NAN, plateau_t1 = NAN;
    char buf[256];
    if (pw >= 0) {
        const struct corr_sbuild *b = &st->series[pw];
        /* Longest run of samples under load held near GB10's ~100 W sustained cap. */
        size_t best_lo = 0, best_n = 0, lo = 0, n = 0;
        double pmin = INFINITY, pmax = -INFINITY, peak = -INFINITY;
        size_t above = 0;
        for (size_t i = 0; i < b->n; i++) {
            double v = b->pts[i].v;
            peak = AZ_MAX(peak, v);
            if (v > 150) above++;
            if (v >= 80 && v <= 125) {
                if (!n) lo = i;
                n++;
                if (n > best_n) best_n = n, best_lo = lo;
            } else {
                n = 0;
            }
        }
        double dur = best_n ? b->pts[best_lo + best_n - 1].t - b->pts[best_lo].t : 0;
        int long_enough =
            best_n >= 5 && (dur >= 300 || (b->approx && b->tkind == AZ_TIME_NONE && best_n >= 10));
        if (long_enough && above * 5 < b->n) {
            for (size_t i = best_lo; i < best_lo + best_n; i++)
                pmin = AZ_MIN(pmin, b->pts[i].v), pmax = AZ_MAX(pmax, b->pts[i].v);
            plateau_t0 = b->pts[best_lo].t;
            plateau_t1 = b->pts[best_lo + best_n - 1].t;
            int tp = same_file_series(st, "temperature.gpu", b->file);
            double tf = NAN, tl = NAN, tmax = NAN;
            size_t tc = 0;
            if (tp >= 0)
                window_stats(&st->series[tp], plateau_t0, plateau_t1, &tf, &tl, &tmax, &tc);
            char *d = fmt_dur(dur);
            snprintf(buf, sizeof buf, "%.0f W, plateau begins", b->pts[best_lo].v);
            const struct corr_rec *rec = series_rec(st, b, best_lo, buf);
            if (tc >= 2 && (tl - tf >= 5 || tmax >= 80)) {
                corr_claim_add(st, "G4", 0.6, 1, rec, az_xstrdup("power plateau near 100 W begins"),
                               az_xasprintf("Power held at %.0f–%.0f W for %s while the GPU went "
                                            "%.0f → %.0f °C.",
                                            pmin, pmax, d, tf, tl),
                               NULL);
                mark_series(st, pw, plateau_t0, "plateau ~100 W begins");
            } else if (tc >= 2) {
                corr_claim_add(st, "G4", 0.1, 1, rec,
                               az_xstrdup("power near 100 W, temperature steady"),
                               az_xasprintf("Power held at %.0f–%.0f W for %s but the temperature "
                                            "stayed at %.0f–%.0f °C.",
                                            pmin, pmax, d, tf, tl),
                               NULL);
            } else {
                corr_claim_add(st, "G4", 0.3, 1, rec, az_xstrdup("power plateau near 100 W begins"),
                               az_xasprintf("Power held at %.0f–%.0f W for %s (no temperature "
                                            "series).",
                                            pmin, pmax, d),
                               NULL);
                mark_series(st, pw, plateau_t0, "plateau ~100 W begins");
            }
            free(d);
        } else if (b->n >= 5) {
            corr_claim_add(st, "G4", 0, 1, NULL, NULL, NULL,
                           az_xasprintf("power peaked at %.0f W with no plateau near 100 W", peak));
        }
    }
    if (st->thr_thermal || st->thr_power) {
        const struct corr_rec *rec = st->have_thr_rec ? &st->thr_rec : NULL;
        if (st->thr_thermal)
            corr_claim_add(st, "G4", 0.45, 1, rec, az_xstrdup("thermal slowdown active"),
                           az_xasprintf("Thermal clock-event reasons were active in %llu of %llu "
                                        "samples.",
                                        (unsigned long long)st->thr_thermal,
                                        (unsigned long long)st->thr_samples),
                           NULL);
        else
            corr_claim_add(
                st, "G4", 0.2, 1, rec, az_xstrdup("power-cap slowdown active"),
                az_xasprintf("The power-cap clock-event reason was active in %llu of %llu "
                             "samples.",
                             (unsigned long long)st->thr_power,
                             (unsigned long long)st->thr_samples),
                NULL);
    }
    int sm = corr_series_find(st, "clocks.sm", "MHz", 0);
    if (sm >= 0 && st->series[sm].n >= 8) {
        const struct corr_sbuild *b = &st->series[sm];
        struct corr_change c = corr_change_point(b->pts, b->n, AZ_MAX((size_t)3, b->n / 10));
        if (c.found && c.before >= 1000 && c.after < c.before * 0.85 && c.effect >= 2) {
            snprintf(buf, sizeof buf, "SM clock %.0f → %.0f MHz", c.before, c.after);
            const struct corr_rec *rec = series_rec(st, b, c.at, buf);
            corr_claim_add(st, "G4", 0.35, 1, rec, az_xstrdup("SM clock falls"),
                           az_xasprintf("SM clock fell %.0f → %.0f MHz.", c.before, c.after), NULL);
            mark_series(st, sm, b->pts[c.at].t, "clock falls");
        }
    }
    struct drop d = find_drop(st, "throughput", 15);
    if (d.found) {
        const struct corr_sbuild *b = &st->series[d.series];
        int aligned = !isnan(plateau_t0) && (b->approx || d.t >= plateau_t0 - 60);
        snprintf(buf, sizeof buf, "%.4g → %.4g %s (−%.0f %%)", d.before, d.after, b->unit, d.pct);
        const struct corr_rec *rec = series_rec(st, b, d.at, buf);
        char clock[32];
        fmt_clock(st, rec->time, clock, sizeof clock);
        corr_claim_add(st, "G4", aligned ? 0.35 : 0.1, 1, rec, az_xstrdup("throughput drops"),
                       az_xasprintf("Throughput fell %.0f %% (%.4g → %.4g %s) at %s%s.", d.pct,
                                    d.before, d.after, b->unit, clock,
                                    aligned ? ", during the power plateau" : ""),
                       NULL);
        mark_series(st, d.series, d.t, "throughput drops");
    }
    size_t kf;
    if (reboot_seen(st, &kf)) {
        /* A training/job log that stops without an error, and a new boot: a spontaneous reboot. */
        int quiet_end = 0;
        size_t lf = 0;
        /* the job's own log says most: a training log, then a server/stderr log, then any text */
        static const enum tok_kind job_kinds[][2] = {{TOK_KIND_TRAIN, TOK_KIND_TRAIN},
                                                     {TOK_KIND_VLLM, TOK_KIND_STDERR},
                                                     {TOK_KIND_TEXT, TOK_KIND_TEXT}};
        for (size_t k = 0; k < AZ_ARRAY_LEN(job_kinds) && !quiet_end; k++)
            for (size_t i = 0; i < st->nfiles; i++) {
                const struct corr_file *f = &st->files[i];
                if ((f->kind == job_kinds[k][0] || f->kind == job_kinds[k][1]) && f->records &&
                    f->last_level < TOK_LEVEL_WARN) {
                    quiet_end = 1;
                    lf = i;
                    break;
                }
            }
        const struct corr_file *k = &st->files[kf];
        struct corr_rec *rec =
            corr_det_rec(st, kf, k->last_line, (struct az_time){0, AZ_TIME_NONE},
                         k->boot_seg ? "uptime reset: a new boot" : "a new boot");
        if (k->nboot_abs) {
            int approx = 0;
            rec->time = corr_timeline_map(st, kf, k->boot_abs[k->nboot_abs - 1], 0, &approx);
        }
        if (quiet_end)
            corr_claim_add(st, "G4", 0.5, 1, rec, az_xstrdup("new boot after the job log stopped"),
                           az_xasprintf("%s stops without an error and %s shows a new boot "
                                        "(spontaneous reboot).",
                                        st->files[lf].display, k->display),
                           NULL);
        else
            corr_claim_add(st, "G4", 0.15, 1, rec, az_xstrdup("a new boot"),
                           az_xasprintf("%s shows a new boot.", k->display), NULL);
    }
}

/* ---- G3: OOM below the 128 GB pool ---- */

struct oom_scan {
    const struct corr_rec *first;   /* earliest OOM */
    const struct corr_rec *numbers; /* an OOM with numbers */
    int nv_err_only;                /* NV_ERR_NO_MEMORY lines seen */
};

static int is_oom_text(const char *t)
{
    if (!t) return 0;
    if (contains(t, "NV_ERR_NO_MEMORY")) return 0;
    return contains(t, "out of memory") || contains(t, "OutOfMemory") || contains(t, "oom-kill") ||
           contains(t, "oom_reaper") || contains(t, "Killed process");
}

static void oom_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct oom_scan *o = vctx;
    const struct match_entry *e = r->sig ? r->sig->entry : NULL;
    if (!e || (e->family != MATCH_FAMILY_GOTCHA && e->family != MATCH_FAMILY_COMMON)) return;
    /* a context line may carry sizes (vLLM's healthy "Free memory on device (118.12/119.70 GiB)
     * on startup"): it adds numbers to an OOM, it is never one */
    if (r->sig->strength == MATCH_CONTEXT) return;
    if (contains(r->text, "NV_ERR_NO_MEMORY")) o->nv_err_only = 1;
    int numbers =
        corr_rec_fact(r, "tried") || corr_rec_fact(r, "allocated") || corr_rec_fact(r, "total");
    if (!numbers && !is_oom_text(r->text) && strcmp(e->id, "C.oom-killer")) return;
    if (!o->first || corr_rec_cmp(st, r, o->first) < 0) o->first = r;
    if (numbers && (!o->numbers || corr_rec_cmp(st, r, o->numbers) < 0)) o->numbers = r;
}

static const char *const oom_facts[] = {"allocated", "reserved", "total",
                                        "free",      "tried",    "in_use"};

struct oom_numbers {
    const struct corr_rec *at;
    double v[6];
};

static void oom_numbers_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct oom_numbers *n = vctx;
    /* the message may be wrapped over a few lines (vLLM and Ray loggers split it) */
    if (r->file != n->at->file || r->line < n->at->line || r->line > n->at->line + 3) return;
    for (size_t i = 0; i < AZ_ARRAY_LEN(oom_facts); i++)
        if (isnan(n->v[i])) n->v[i] = fact_num(r, oom_facts[i]);
}

/* A G3 hint of unified memory: the weak/context signatures (Not Supported, [N/A], NVML on UMA,
 * NV_ERR_NO_MEMORY), not the OOM lines themselves. */
static void uma_hint_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    if (r->sig && r->sig->strength <= MATCH_WEAK) *(int *)vctx = 1;
}

static void detect_g3(struct corr_state *st)
{
    struct oom_scan o = {NULL, NULL, 0};
    each_rec(st, NULL, oom_visit, &o);
    char wbuf[512];
    if (!o.first) {
        claim_cap(st, "G3", 0.25,
                  az_xstrdup(o.nv_err_only ? "NV_ERR_NO_MEMORY alone (it appears in healthy "
                                             "startups too) and no OOM"
                                           : "no OOM anywhere"));
        return;
    }
    const struct corr_rec *r = o.numbers ? o.numbers : o.first;
    /* One PyTorch OOM line feeds several signatures (tried / capacity / breakdown): merge them. */
    struct oom_numbers n = {r, {NAN, NAN, NAN, NAN, NAN, NAN}};
    each_rec(st, NULL, oom_numbers_visit, &n);
    double alloc = n.v[0], resv = n.v[1], total = n.v[2], freeb = n.v[3], tried = n.v[4];
    double inuse = n.v[5];
    double used = NAN;
    if (!isnan(inuse))
        used = inuse;
    else if (!isnan(alloc))
        used = alloc + (isnan(resv) ? 0 : resv);
    double cap_gib = !isnan(total) && total / GIB >= 100 ? total / GIB : GB10_POOL_GIB;
    /* GB10's allocator reports ~119.7 GiB: a device well below or above it is another GPU
     * (an 80 GiB H100, a 139.8 GiB H200), with memory of its own and no UMA pool to misread. */
    if (!isnan(total) && total > 0 && (total / GIB < 100 || total / GIB > 125)) {
        corr_claim_add(
            st, "G3", 0, 0.3, r, NULL, NULL,
            az_xasprintf("the OOM reports a %.1f GiB device, not GB10's 128 GB pool", total / GIB));
    }
    /* G3 is a unified-memory failure: an OOM says nothing of it unless something shows the run
     * was on a GB10 (its name, its ~119.7 GiB pool, or UMA's unreadable memory columns). */
    int pool_like = !isnan(total) && total / GIB >= 110 && total / GIB <= 125;
    int uma_hint = 0;
    each_rec(st, "G3", uma_hint_visit, &uma_hint);
    if (st->ctx.is_gb10 == -1 && !pool_like && !uma_hint)
        claim_cap(st, "G3", 0.3,
                  az_xstrdup("an OOM, but nothing shows a GB10 (no GB10 name, no 119.7 GiB pool, "
                             "no unreadable memory columns)"));
    if (!isnan(used) && used / GIB < 0.8 * cap_gib) {
        corr_claim_add(
            st, "G3", 0.6, 1, r, az_xstrdup("OOM well under the pool"),
            az_xasprintf(
                "OOM at %.1f GiB in use of %.1f GiB%s%s.", used / GIB, cap_gib,
                isnan(tried) ? "" : " while allocating ",
                isnan(tried) ? "" : (snprintf(wbuf, sizeof wbuf, "%.2f GiB", tried / GIB), wbuf)),
            NULL);
    } else if (!isnan(used) && used / GIB >= 0.92 * cap_gib) {
        corr_claim_add(st, "G3", 0, 0.5, r, NULL, NULL,
                       az_xasprintf("the process itself held %.1f GiB of %.1f GiB: a real capacity "
                                    "OOM",
                                    used / GIB, cap_gib));
    } else if (isnan(used) && !isnan(freeb) && !isnan(total) && total / GIB >= 100 &&
               freeb / GIB > 8) {
        corr_claim_add(st, "G3", 0.45, 1, r, az_xstrdup("OOM with free memory reported"),
                       az_xasprintf("OOM while %.1f GiB of %.1f GiB was reported free.",
                                    freeb / GIB, total / GIB),
                       NULL);
    }
    if (st->mem_na_count)
        corr_claim_add(st, "G3", 0.45, 1, st->have_mem_na_rec ? &st->mem_na_rec : NULL,
                       az_xstrdup("nvidia-smi memory [N/A]"),
                       az_xasprintf("nvidia-smi reported memory as [N/A]/Not Supported (%llu "
                                    "samples), so its headroom cannot be trusted.",
                                    (unsigned long long)st->mem_na_count),
                       NULL);
    if (st->meminfo_cached_kb > 16ULL * 1024 * 1024)
        corr_claim_add(st, "G3", 0.3, 1, st->have_cache_rec ? &st->cache_rec : NULL,
                       az_xstrdup("large page cache"),
                       az_xasprintf("The page cache held %.1f GiB.",
                                    (double)st->meminfo_cached_kb / 1024 / 1024),
                       NULL);
    const struct corr_rec *load = entry_earliest(st, "CTX.model-load");
    if (load && corr_rec_cmp(st, load, o.first) <= 0)
        corr_claim_add(st, "G3", 0.25, 1, load, az_xstrdup("model loading before the OOM"),
                       az_xstrdup("It happened during model loading."), NULL);
    const struct corr_rec *ql = entry_earliest(st, "CTX.qlora");
    if (ql)
        corr_claim_add(st, "G3", 0.15, 1, ql, az_xstrdup("QLoRA (dequantization transients)"),
                       az_xstrdup("QLoRA dequantization adds transient allocations."), NULL);
}

/* ---- G5: memory-bound decode at the measured bandwidth ceiling ---- */

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

static double dtype_bytes(const char *d)
{
    if (!d) return NAN;
    if (contains(d, "fp4") || contains(d, "nf4") || contains(d, "int4") || contains(d, "4bit") ||
        contains(d, "awq") || contains(d, "gptq"))
        return 0.5;
    if (contains(d, "fp8") || contains(d, "int8") || contains(d, "8bit")) return 1;
    if (contains(d, "bf16") || contains(d, "fp16") || contains(d, "half") ||
        contains(d, "bfloat16") || contains(d, "float16"))
        return 2;
    if (contains(d, "fp32") || contains(d, "float32")) return 4;
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

static double fact_median(struct corr_state *st, const char *entry_id, const char *fact)
{
    struct fact_med m;
    memset(&m, 0, sizeof m);
    m.fact = fact;
    each_rec(st, entry_id, fact_med_visit, &m);
    if (!m.n) return NAN;
    for (size_t i = 1; i < m.n; i++)
        for (size_t j = i; j > 0 && m.v[j] < m.v[j - 1]; j--) {
            double x = m.v[j];
            m.v[j] = m.v[j - 1];
            m.v[j - 1] = x;
        }
    return m.v[m.n / 2];
}

static void detect_g5(struct corr_state *st)
{
    static const char *const bytes_facts[] = {"model_bytes", "weights_bytes", "model_mem",
                                              "weights"};
    const struct corr_rec *wr = NULL;
    double wbytes = NAN;
    for (size_t i = 0; i < AZ_ARRAY_LEN(bytes_facts) && isnan(wbytes); i++) {
        wr = find_fact(st, NULL, bytes_facts[i]);
        wbytes = fact_num(wr, bytes_facts[i]);
    }
    if (isnan(wbytes)) {
        const struct corr_rec *pr = find_fact(st, NULL, "params_b");
        double pb = fact_num(pr, "params_b");
        const struct corr_rec *dr = find_fact(st, NULL, "dtype");
        if (!dr) dr = find_fact(st, NULL, "quant");
        double bpp =
            dtype_bytes(fact_str(dr, "dtype") ? fact_str(dr, "dtype") : fact_str(dr, "quant"));
        if (!isnan(pb) && !isnan(bpp)) {
            wbytes = pb * 1e9 * bpp;
            wr = pr;
        }
    }
    /* Decode reads every weight once per step, whatever the batch: the bandwidth is weights times
     * steps per second, i.e. one sequence's rate (1000 / TPOT), not the batch's aggregate. */
    double tps = NAN;
    const char *rate_what = "Decode";
    double seq = fact_median(st, "G5", "seq_tokens_per_s");
    double tpot = fact_median(st, "G5", "tpot_ms");
    if (!isnan(seq) && seq > 0) {
        tps = seq;
        rate_what = "Single-sequence decode";
    } else if (!isnan(tpot) && tpot > 0) {
        tps = 1000 / tpot;
        rate_what = "Decode (from TPOT)";
    } else {
        int tp = corr_series_find(st, "throughput", "tok/s", 0);
        if (tp >= 0) tps = median_of_tail(&st->series[tp]);
    }
    const struct corr_rec *plan = find_sig_rec(st, "G5.spec-273");
    if (!isnan(wbytes) && wbytes > 0 && !isnan(tps)) {
        double gbs = wbytes * tps / 1e9;
        if (gbs >= 150 && gbs <= G5_CEILING_HI && plan)
            corr_claim_add(
                st, "G5", 0.3, 1, plan, az_xstrdup("plan assumes 273 GB/s"),
                az_xasprintf("The plan budgets from the 273 GB/s spec; the run moves %.0f GB/s.",
                             gbs),
                NULL);
        if (gbs >= 150 && gbs <= G5_CEILING_HI)
            corr_claim_add(
                st, "G5", 0.6, 1, wr, az_xstrdup("decode at the bandwidth ceiling"),
                az_xasprintf("%s at %.2f tok/s over %.1f GB of weights moves %.0f GB/s: "
                             "GB10's measured 180–192 GB/s ceiling, not the 273 GB/s spec.",
                             rate_what, tps, wbytes / 1e9, gbs),
                NULL);
        else if (gbs > G5_CEILING_HI && gbs <= 280)
            corr_claim_add(
                st, "G5", 0.3, 1, wr, az_xstrdup("decode near the bandwidth ceiling"),
                az_xasprintf("%s at %.2f tok/s over %.1f GB of weights implies %.0f GB/s.",
                             rate_what, tps, wbytes / 1e9, gbs),
                NULL);
        else if (gbs < 120)
            corr_claim_add(st, "G5", 0, 0.5, wr, NULL, NULL,
                           az_xasprintf("decode moves only %.0f GB/s, far from the ceiling", gbs));
    }
    static const char *const bw_facts[] = {"bandwidth_gbs", "bandwidth_gbps", "gbps", "gb_s"};
    for (size_t i = 0; i < AZ_ARRAY_LEN(bw_facts); i++) {
        const struct corr_rec *br = find_fact(st, NULL, bw_facts[i]);
        double bw = fact_num(br, bw_facts[i]);
        if (isnan(bw)) continue;
        if (bw >= 150 && bw <= 200)
            corr_claim_add(st, "G5", 0.3, 1, br, az_xstrdup("measured bandwidth"),
                           az_xasprintf("Measured copy bandwidth %.0f GB/s.", bw), NULL);
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

/* ---- G6: another GPU process ---- */

struct proc_scan {
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
    if (name && (contains(name, "vllm") || contains(name, "ollama") || contains(name, "sglang")))
        p->server = 1;
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->names[i], key)) return;
    if (p->n >= 8) return;
    snprintf(p->names[p->n], sizeof p->names[p->n], "%s", key);
    p->mem[p->n] = mem;
    p->rec[p->n] = r;
    p->n++;
}

/* Earliest record of a GPU server (its start or its configuration), or NULL. */
static const struct corr_rec *server_rec(struct corr_state *st)
{
    const struct corr_rec *r = find_sig_rec(st, "G6.server-process");
    const struct corr_rec *c = entry_earliest(st, "CTX.vllm-config");
    if (c && (!r || corr_rec_cmp(st, c, r) < 0)) r = c;
    return r;
}

static void detect_g6(struct corr_state *st)
{
    struct proc_scan p;
    memset(&p, 0, sizeof p);
    each_rec(st, "CTX.gpu-process", proc_visit, &p);
    size_t heavy = 0, sized = 0;
    double heavy_gib = 0;
    const struct corr_rec *second = NULL;
    struct az_buf desc = AZ_BUF_INIT;
    for (size_t i = 0; i < p.n; i++) {
        /* mem_used is bytes when the pack types it so; small numbers are MiB. */
        double m = p.mem[i];
        double gib = isnan(m) ? NAN : m > 1e6 ? m / GIB : m / 1024;
        const char *pn = fact_str(p.rec[i], "process");
        if (!isnan(gib) && gib < 2) continue;
        if (isnan(gib) &&
            !(contains(pn, "python") || contains(pn, "vllm") || contains(pn, "ollama") ||
              contains(pn, "sglang") || contains(pn, "torchrun")))
            continue; /* Xorg, gnome-shell: no size, not a compute job */
        heavy++;
        if (!isnan(gib)) heavy_gib += gib, sized++;
        if (heavy == 2) second = p.rec[i];
        const char *nm = fact_str(p.rec[i], "process");
        az_buf_printf(&desc, "%s%s", desc.len ? ", " : "", nm ? nm : p.names[i]);
        if (!isnan(gib)) az_buf_printf(&desc, " (%.1f GiB)", gib);
    }
    int server = p.server, train = 0;
    for (size_t i = 0; i < st->nfiles; i++) {
        if (st->files[i].kind == TOK_KIND_VLLM) server = 1;
        if (st->files[i].kind == TOK_KIND_TRAIN) train = 1;
    }
    /* The pool is per machine. A process table is one machine's; a server log and a training log
     * side by side are one machine's only when the run is not spread over several hosts. */
    struct fact_max nm = {"nnodes", NULL, NAN};
    each_rec(st, NULL, fact_max_visit, &nm);
    struct host_set hs = run_hosts(st);
    int multi_host = hs.n >= 2 || (!isnan(nm.v) && nm.v >= 2);
    int kinds_coloc = server && train && !multi_host;
    int coloc = heavy >= 2 || kinds_coloc;
    /* Two heavy processes that together fill the pool: the one-heavy-job rule is broken whatever
     * either one's own cap says. */
    int near_full = heavy >= 2 && sized >= 2 && heavy_gib >= 0.85 * GB10_POOL_GIB;
    if (heavy >= 2)
        corr_claim_add(
            st, "G6", 0.45, 1, second, az_xstrdup("a second GPU process"),
            az_xasprintf("%zu GPU processes shared the unified memory pool: %s.", heavy, desc.data),
            NULL);
    else if (kinds_coloc)
        corr_claim_add(st, "G6", 0.2, 1, server_rec(st), NULL,
                       az_xstrdup("An inference server and a training job ran in the same run."),
                       NULL);
    else if (server && train && multi_host)
        corr_claim_add(st, "G6", 0, 0.5, NULL, NULL, NULL,
                       az_xasprintf("the run spans %zu hosts, so its server and job logs need not "
                                    "share one memory pool",
                                    hs.n >= 2 ? hs.n : (size_t)nm.v));
    if (near_full)
        corr_claim_add(st, "G6", 0.35, 1, second, az_xstrdup("GPU processes fill the pool"),
                       az_xasprintf("Together they held %.1f GiB of the %.1f GiB pool.", heavy_gib,
                                    GB10_POOL_GIB),
                       NULL);
    az_buf_free(&desc);
    const struct corr_rec *cfg = find_fact(st, "CTX.vllm-config", "gpu_mem_util");
    if (!cfg) cfg = find_fact(st, "G6", "gpu_mem_util");
    double util = fact_num(cfg, "gpu_mem_util");
    if (coloc && !isnan(util) && util > 0.5)
        corr_claim_add(
            st, "G6", 0.35, 1, cfg, az_xstrdup("uncapped gpu_memory_utilization"),
            az_xasprintf("The server took gpu_memory_utilization=%.2f beside another job.", util),
            NULL);
    else if (coloc && server && isnan(util))
        corr_claim_add(st, "G6", 0.15, 1, server_rec(st), az_xstrdup("server with the default cap"),
                       az_xstrdup("The server ran with the default gpu_memory_utilization (0.9) "
                                  "beside another job."),
                       NULL);
    else if (!isnan(util) && util <= 0.5 && !near_full)
        corr_claim_add(st, "G6", 0, 0.5, cfg, NULL, NULL,
                       az_xasprintf("the server was capped at gpu_memory_utilization=%.2f", util));
    if (coloc) {
        struct drop d = find_drop(st, "throughput", 15);
        if (d.found) {
            const struct corr_sbuild *b = &st->series[d.series];
            char buf[128];
            snprintf(buf, sizeof buf, "%.4g → %.4g %s", d.before, d.after, b->unit);
            corr_claim_add(st, "G6", 0.25, 1, series_rec(st, b, d.at, buf),
                           az_xstrdup("throughput drops beside the second job"),
                           az_xasprintf("Throughput fell %.0f %% (%.4g → %.4g %s) with both jobs "
                                        "running.",
                                        d.pct, d.before, d.after, b->unit),
                           NULL);
        }
    }
    if (!coloc && !entry_hit(st, "G6"))
        claim_cap(st, "G6", 0.2,
                  az_xstrdup(p.n ? "no second heavy GPU process" : "no other GPU process seen"));
}

/* ---- G1: torch for CUDA 12 on CUDA 13 ---- */

static void detect_g1(struct corr_state *st)
{
    const char *ct = st->ctx.cuda_torch, *cd = st->ctx.cuda_driver;
    const struct corr_rec *r = find_fact(st, NULL, "cuda_torch");
    if (!r) r = find_fact(st, NULL, "torch_version");
    if (ct && !strncmp(ct, "12", 2) && ((cd && !strncmp(cd, "13", 2)) || st->ctx.is_gb10 == 1)) {
        corr_claim_add(st, "G1", 0.55, 1, r, az_xstrdup("torch built for CUDA 12"),
                       cd && *cd
                           ? az_xasprintf("torch is built for CUDA %s on a CUDA %s driver.", ct, cd)
                           : az_xasprintf("torch is built for CUDA %s on a GB10 (CUDA 13).", ct),
                       NULL);
        if (entry_hit(st, "C.segfault"))
            corr_claim_add(st, "G1", 0.2, 1, entry_earliest(st, "C.segfault"),
                           az_xstrdup("segfault with a CUDA 12 torch"), NULL, NULL);
    } else if (ct && !strncmp(ct, "13", 2) && !find_fact(st, "G1", "library")) {
        /* A CUDA 13 torch clears torch, not the extensions beside it: a wheel that names its
         * libcudart.so.12 / libnvrtc.so.12 is still the mismatch. */
        corr_claim_add(st, "G1", 0, 0.6, r, NULL, NULL,
                       az_xasprintf("torch is built for CUDA %s", ct));
    }
}

/* ---- G7: NVFP4 on SM121 without sm_121a ---- */

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

static void detect_g7(struct corr_state *st)
{
    const struct corr_rec *qr = NULL;
    int nvfp4 = 0;
    for (size_t i = 0; i < st->nfiles; i++)
        if (contains(st->files[i].quant, "fp4")) nvfp4 = 1;
    qr = find_fact(st, NULL, "quant");
    if (qr && contains(fact_str(qr, "quant"), "fp4")) nvfp4 = 1;
    const struct corr_rec *al = find_fact(st, NULL, "arch_list");
    const char *list = fact_str(al, "arch_list");
    int has_a = list && (contains(list, "121a") || contains(list, "12.1a"));
    if (nvfp4 && st->ctx.is_gb10 != 0) {
        if (list && !has_a)
            corr_claim_add(st, "G7", 0.5, 1, al, az_xstrdup("no sm_121a in the arch list"),
                           az_xasprintf("NVFP4 on capability (12, 1) with arch list \"%s\": no "
                                        "sm_121a, so no cvt.e2m1x2.",
                                        list),
                           NULL);
        else if (has_a)
            corr_claim_add(st, "G7", 0, 0.4, al, NULL, NULL,
                           az_xasprintf("the build targets sm_121a (%s)", list));
        else
            corr_claim_add(st, "G7", 0.15, 1, qr, az_xstrdup("NVFP4 in use"),
                           az_xstrdup("NVFP4 ran on SM121 with no sign of an sm_121a build."),
                           NULL);
    }
    double f4 = quant_throughput(st, "fp4"), f8 = quant_throughput(st, "fp8");
    if (!isnan(f4) && !isnan(f8) && f8 > 0) {
        if (f4 < f8)
            corr_claim_add(st, "G7", 0.55, 1, qr, az_xstrdup("NVFP4 slower than FP8"),
                           az_xasprintf("NVFP4 ran %.0f %% slower than FP8 (%.4g vs %.4g tok/s).",
                                        (f8 - f4) / f8 * 100, f4, f8),
                           NULL);
        else
            corr_claim_add(st, "G7", 0, 0.5, qr, NULL, NULL,
                           az_xasprintf("NVFP4 was faster than FP8 (%.4g vs %.4g tok/s)", f4, f8));
    }
}

/* ---- G9: pip replaced the stack ---- */

struct repl_scan {
    size_t n;
    const struct corr_rec *first;
    int image_build; /* an NVIDIA container build ("2.9.0a0+50eac811a6.nv25.9") was replaced */
    char pkgs[4][96];
};

static void repl_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct repl_scan *s = vctx;
    const char *pkg = fact_str(r, "package");
    if (!key_package(pkg)) return;
    if (!s->first || corr_rec_cmp(st, r, s->first) < 0) s->first = r;
    char name[96];
    const char *ov = fact_str(r, "old_version"), *nv = fact_str(r, "new_version");
    const char *tag = ov ? strstr(ov, ".nv") : NULL;
    if (tag && isdigit((unsigned char)tag[3])) s->image_build = 1;
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

/* 1 while every G9 record is the torch C++ ABI error, 2 once another G9 record is seen. */
static void g9_only_abi_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    int *v = vctx;
    if (!r->sig) return;
    if (strcmp(r->sig->id, "G9.torch-cpp-abi") != 0)
        *v = 2;
    else if (*v == 0)
        *v = 1;
}

static void detect_g9(struct corr_state *st)
{
    struct repl_scan s;
    memset(&s, 0, sizeof s);
    each_rec(st, "G9", repl_visit, &s);
    if (s.n) {
        struct az_buf b = AZ_BUF_INIT;
        for (size_t i = 0; i < s.n && i < 4; i++)
            az_buf_printf(&b, "%s%s", i ? ", " : "", s.pkgs[i]);
        char clock[32];
        fmt_clock(st, s.first->time, clock, sizeof clock);
        corr_claim_add(st, "G9", 0.3, 1, s.first, az_xstrdup("pip replaced the stack"),
                       az_xasprintf("pip replaced %s at %s.", b.data, clock), NULL);
        az_buf_free(&b);
    }
    /* A container protects the stack only until pip replaces the image's own builds. */
    if (st->ctx.in_container == 1 && !s.image_build) {
        corr_claim_add(st, "G9", 0, 0.4, entry_earliest(st, "CTX.container"), NULL, NULL,
                       az_xstrdup("a container marker is present"));
    } else if (st->ctx.in_container == 0 && (s.n || entry_hit(st, "G9"))) {
        corr_claim_add(st, "G9", 0.15, 1, entry_earliest(st, "CTX.bare-host"),
                       az_xstrdup("bare host"), az_xstrdup("On a bare host (no container marker)."),
                       NULL);
    }
    /* An undefined c10/torch symbol alone (an extension built against another torch) says the
     * stack is mixed, not that pip mixed it: with no other G9 sign, no pip change and nothing
     * about the environment, it stays a hint. */
    int only_abi = 0;
    each_rec(st, "G9", g9_only_abi_visit, &only_abi);
    if (only_abi == 1 && !s.n && st->ctx.in_container == -1 && !entry_hit(st, "CTX.bare-host"))
        claim_cap(st, "G9", 0.3,
                  az_xstrdup("a torch ABI error alone: no pip change, no other drift, nothing "
                             "about the environment"));
}

/* ---- G10: tensor parallelism across two nodes ---- */

static void detect_g10(struct corr_state *st)
{
    struct fact_max tm = {"tp_size", NULL, NAN}, nm = {"nnodes", NULL, NAN};
    each_rec(st, NULL, fact_max_visit, &tm);
    each_rec(st, NULL, fact_max_visit, &nm);
    const struct corr_rec *tr = tm.rec, *nr = nm.rec;
    double tp = tm.v, nn = nm.v;
    struct host_set hs = run_hosts(st);
    /* vLLM prints "Custom allreduce is disabled because this process group spans across nodes"
     * only when the group it builds for tensor parallelism really spans machines. */
    const struct corr_rec *spans = find_sig_rec(st, "G10.custom-ar-spans-nodes");
    int multi = (!isnan(nn) && nn >= 2) || hs.n >= 2 || (spans && !isnan(tp) && tp >= 2);
    if (!isnan(tp) && tp >= 2 && multi) {
        const char *how = !isnan(nn) && nn >= 2 ? "the launcher's node count"
                          : hs.n >= 2           ? "the host names in the logs"
                                                : "vLLM's \"spans across nodes\" warning";
        corr_claim_add(st, "G10", 0.45, 1, tr, az_xstrdup("tensor parallelism across nodes"),
                       az_xasprintf("Tensor parallel size %.0f across %s nodes (from %s).", tp,
                                    !isnan(nn) && nn >= 3 ? "several" : "two", how),
                       NULL);
        const struct corr_rec *nc = entry_earliest(st, "C.nccl");
        if (nc)
            corr_claim_add(st, "G10", 0.35, 1, nc, az_xstrdup("NCCL failure"),
                           az_xstrdup("NCCL then failed or timed out."), NULL);
    } else if (!isnan(tp) && tp < 2) {
        corr_claim_add(st, "G10", 0, 0.3, tr, NULL, NULL, az_xstrdup("tensor parallel size is 1"));
    } else if (!multi && !isnan(nn)) {
        corr_claim_add(st, "G10", 0, 0.3, nr, NULL, NULL, az_xstrdup("a single node"));
    }
}

/* ---- G8: a playbook recipe, then a failure ---- */

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

/* A fine-tune that does not learn: gradient norms many orders above any clipping threshold and a
 * loss that never falls. No error line is printed; the run "succeeds" with a broken model. */
static int training_diverged(struct corr_state *st, char *why, size_t n, const struct corr_rec **at)
{
    int gi = corr_series_find(st, "grad_norm", NULL, 0), li = corr_series_find(st, "loss", NULL, 0);
    if (gi < 0 || li < 0) return 0;
    const struct corr_sbuild *g = &st->series[gi], *l = &st->series[li];
    if (g->n < 5 || l->n < 5) return 0;
    size_t huge = 0;
    double gmax = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (g->pts[i].v >= 1e3) huge++;
        gmax = AZ_MAX(gmax, g->pts[i].v);
    }
    size_t q = AZ_MAX((size_t)1, l->n / 4);
    double first = 0, last = 0;
    for (size_t i = 0; i < q; i++) first += l->pts[i].v, last += l->pts[l->n - 1 - i].v;
    first /= (double)q;
    last /= (double)q;
    /* most steps exploding, and the last quarter no better than 90 % of the first */
    if (huge * 2 < g->n || last < 0.9 * first) return 0;
    snprintf(why, n,
             "grad_norm above 1e3 in %zu of %zu steps (max %.3g) while the loss went %.2f → %.2f",
             huge, g->n, gmax, first, last);
    *at = series_rec(st, g, 0, why);
    return 1;
}

static void detect_g8(struct corr_state *st)
{
    const struct corr_rec *pb = entry_earliest(st, "CTX.playbook");
    if (!pb) return;
    struct err_scan e = {pb, NULL};
    each_rec(st, NULL, err_visit, &e);
    if (!e.first_err) {
        char why[200];
        const struct corr_rec *at = NULL;
        if (training_diverged(st, why, sizeof why, &at))
            corr_claim_add(
                st, "G8", 0.45, 1, at, az_xstrdup("playbook recipe trains a broken model"),
                az_xasprintf("A dgx-spark-playbooks recipe ran to the end without learning: "
                             "%s.",
                             why),
                NULL);
        return;
    }
    char w[300];
    corr_claim_add(st, "G8", 0.45, 1, pb, az_xstrdup("playbook recipe, then a failure"),
                   az_xasprintf("A dgx-spark-playbooks recipe ran and then failed (%s).",
                                where(st, e.first_err, w, sizeof w)),
                   NULL);
}

/* ---- G2: a flash-attn build that never finished ---- */

static void g2_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    int *done = vctx;
    if (*done || r->file >= st->nfiles) return;
    /* a build step ("Building wheel for flash-attn", "Building from source") as the last line */
    if (r->line == st->files[r->file].last_line && contains(r->text, "flash") &&
        contains(r->text, "build")) {
        corr_claim_add(st, "G2", 0.3, 1, r, az_xstrdup("flash-attn build never finished"),
                       az_xstrdup("The flash-attn build was the last thing the log shows."), NULL);
        *done = 1;
    }
}

static void detect_g2(struct corr_state *st)
{
    int done = 0;
    each_rec(st, "G2", g2_visit, &done);
    /* Unsloth prefers flash-attn when it is importable (NGC ships a working SM121 build) and drops
     * an explicit attn_implementation="sdpa". The banner's "FA2 = True" alone is normal; with an
     * SDPA request beside it, and above all with the model reporting flash_attention_2, it is G2.
     */
    const struct corr_rec *req = find_sig_rec(st, "G2.sdpa-requested");
    if (!req) return;
    const struct corr_rec *chosen = find_sig_rec(st, "G2.attn-impl-flash");
    const struct corr_rec *banner = find_sig_rec(st, "G2.unsloth-fa2-true");
    if (!chosen && !banner) return;
    char w[300];
    if (chosen)
        corr_claim_add(
            st, "G2", banner ? 0.6 : 0.5, 1, chosen,
            az_xstrdup("flash_attention_2 chosen although SDPA was requested"),
            az_xasprintf("SDPA was requested (%s) but the model ran flash_attention_2%s.",
                         where(st, req, w, sizeof w),
                         banner ? " and Unsloth's banner shows FA2 = True" : ""),
            NULL);
    else
        corr_claim_add(st, "G2", 0.4, 1, banner, az_xstrdup("FA2 = True beside an SDPA request"),
                       az_xasprintf("SDPA was requested (%s) while Unsloth reports FA2 = True: "
                                    "Unsloth auto-prefers flash-attn over the request.",
                                    where(st, req, w, sizeof w)),
                       NULL);
}

/* ---- contrary context ---- */

static void non_gb10(struct corr_state *st)
{
    if (st->ctx.is_gb10 != 0) return;
    static const char *const spark_only[] = {"G3", "G4", "G5", "G6", "G7", "G10"};
    for (size_t i = 0; i < AZ_ARRAY_LEN(spark_only); i++)
        corr_claim_add(st, spark_only[i], 0, 0.3, NULL, NULL, NULL,
                       az_xasprintf("the GPU is not a GB10 (%s)",
                                    *st->ctx.gpu_name ? st->ctx.gpu_name : "other GPU"));
}

void corr_detect_all(struct corr_state *st)
{
    detect_g4(st);
    detect_g3(st);
    detect_g5(st);
    detect_g6(st);
    detect_g1(st);
    detect_g7(st);
    detect_g9(st);
    detect_g10(st);
    detect_g8(st);
    detect_g2(st);
    non_gb10(st);
}
