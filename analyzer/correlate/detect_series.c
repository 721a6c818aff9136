/* correlate/detect_series.c - primitives over the numeric series and the structural counters:
 * plateau (a series held inside a band for a time), change-point (a sustained drop, not noise),
 * clock-reasons (nvidia-smi's clock-event reasons) and counter (a count the parsers keep). Each
 * decides one of its outcomes from the thresholds the rule passes and claims it; it may mark the
 * series it read for the report's sparkline. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/detect_private.h"

/* ---- series helpers ---- */

static int same_file_series(const struct corr_state *st, const char *name, size_t file)
{
    for (size_t i = 0; i < st->nseries; i++)
        if (st->series[i].file == file && !strcmp(st->series[i].name, name) && st->series[i].n)
            return (int)i;
    return corr_series_find(st, name, NULL, 0);
}

/* Mean of the points of b with t in [t0, t1] among the first/last 1/parts of them. */
static void window_stats(const struct corr_sbuild *b, double t0, double t1, size_t parts,
                         double *first, double *last, double *maxv, size_t *count)
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
    size_t k = AZ_MAX((size_t)1, *count / parts);
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
    if (tp >= 0)
        window_stats(&st->series[tp], t0, t1, AZ_MAX((size_t)1, (size_t)N("end_parts")), &tf, &tl,
                     &tmax, &tc);
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
    const struct corr_rec *rec = corr_series_rec(st, b, best_lo, text);
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
        size_t min_seg =
            AZ_MAX((size_t)N("min_segment"), b->n / AZ_MAX((size_t)1, (size_t)N("segment_parts")));
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
    const struct corr_rec *rec = corr_series_rec(st, b, d.at, text);
    corr_fmt_clock(st, rec->time, clock, sizeof clock);
    v[4].str = clock;
    if (corr_rule_claim(rr, outcome, rec, v, AZ_ARRAY_LEN(v)))
        mark_series(st, d.series, d.t, corr_rule_mark(rr, outcome));
}

/* ---- counter: a count the structural parsers keep ---- */

void corr_prim_counter(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    if (!corr_when_tag(rr)) return;
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
