/* correlate/detect_capacity.c - primitives that hold a measured quantity against a capacity:
 * oom-capacity (an OOM's numbers against the memory the device or pool has), bandwidth-ceiling
 * (weights times decode rate against a memory-bandwidth band) and fact-share (one number of a
 * line as a share of another). Every band and capacity is the rule's parameter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/detect_private.h"

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
        if (isnan(n->v[i])) n->v[i] = corr_fact_num(r, oom_facts[i]);
}

/* A hint of unified memory among the entry's own lines: its weak or context signatures (memory
 * "Not Supported", [N/A], NVML on UMA), not the OOM lines themselves; with a tag, only the lines
 * so tagged (a server's KV size or a failure printed on any GPU is no hint of the pool). */
struct uma_hint_scan {
    const char *tag;
    int seen;
};

static void uma_hint_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct uma_hint_scan *u = vctx;
    if (r->sig && r->sig->strength <= MATCH_WEAK && (!u->tag || match_sig_has_tag(r->sig, u->tag)))
        u->seen = 1;
}

void corr_prim_oom_capacity(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct match_entry *self = rr->rule->entry;
    struct oom_scan o = {S("oom_tag"), S("lookalike_tag"), NULL, NULL, 0};
    corr_each_rec(st, NULL, oom_visit, &o);
    if (!o.first) {
        corr_rule_claim(rr, o.lookalike ? "lookalike" : "none", NULL, NULL, 0);
        return;
    }
    const struct corr_rec *r = o.numbers ? o.numbers : o.first;
    /* One PyTorch OOM line feeds several signatures (tried / capacity / breakdown): merge them. */
    struct oom_numbers n = {r, (size_t)N("wrap_lines"), {NAN, NAN, NAN, NAN, NAN, NAN}};
    corr_each_rec(st, NULL, oom_numbers_visit, &n);
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
    struct uma_hint_scan uh = {S("uma_tag"), 0};
    corr_each_rec(st, self, uma_hint_visit, &uh);
    if (st->ctx.placed == -1 && !pool_like && !uh.seen)
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

/* ---- bandwidth-ceiling: weights x decode rate against a measured ceiling ---- */

/* Bytes per parameter of a dtype text, from "name=bytes" items (first that occurs wins). */
static double dtype_bytes(const char *d, const struct match_value *table)
{
    for (size_t i = 0; d && table && i < table->nlist; i++) {
        const char *eq = strchr(table->list[i], '=');
        if (!eq) continue;
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(eq - table->list[i]), table->list[i]);
        if (corr_contains(d, key)) return atof(eq + 1);
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
    double v = corr_fact_num(r, m->fact);
    if (!isnan(v) && m->n < AZ_ARRAY_LEN(m->v)) m->v[m->n++] = v;
}

static double fact_median(struct corr_state *st, const struct match_entry *e, const char *fact)
{
    struct fact_med m;
    memset(&m, 0, sizeof m);
    m.fact = fact;
    corr_each_rec(st, e, fact_med_visit, &m);
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
        wr = corr_find_fact(st, NULL, wf->list[i]);
        wbytes = corr_fact_num(wr, wf->list[i]);
    }
    if (isnan(wbytes)) {
        const struct corr_rec *pr = corr_find_fact(st, NULL, S("params_fact"));
        double pb = corr_fact_num(pr, S("params_fact"));
        const struct match_value *df = corr_rule_list(rr, "dtype_facts");
        const struct corr_rec *dr = NULL;
        for (size_t i = 0; df && i < df->nlist && !dr; i++)
            dr = corr_find_fact(st, NULL, df->list[i]);
        /* the first dtype fact the record has names the bytes */
        const char *dtext = NULL;
        for (size_t i = 0; df && dr && i < df->nlist && !dtext; i++)
            dtext = corr_fact_str(dr, df->list[i]);
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
        if (tp >= 0) tps = corr_median_of_tail(&st->series[tp]);
    }
    const struct corr_rec *plan = corr_find_sig_rec(st, S("plan"));
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
        const struct corr_rec *br = corr_find_fact(st, NULL, bf->list[i]);
        double bw = corr_fact_num(br, bf->list[i]);
        if (isnan(bw)) continue;
        struct corr_var v[] = {VN("bw", bw)};
        if (bw >= N("measured_lo") && bw <= N("measured_hi"))
            corr_rule_claim(rr, "measured", br, v, AZ_ARRAY_LEN(v));
        break;
    }
}

/* ---- fact-share: one number of a line as a share of another ---- */

struct share_ctx {
    struct corr_rule_run *rr;
    const struct corr_rec *whole_rec; /* the whole's line when it is another signature's */
    const struct corr_rec *best;
    double part, whole, share;
};

/* The share of one line of sig, or NAN when a figure is missing or the whole is out of band. */
static double line_share(struct corr_rule_run *rr, const struct corr_rec *r,
                         const struct corr_rec *wr, double *part, double *whole)
{
    *part = corr_fact_num(r, S("part"));
    *whole = corr_fact_num(wr ? wr : r, S("whole"));
    if (isnan(*part) || isnan(*whole) || !(*whole > 0) || *part < 0) return NAN;
    /* a share means something only of the whole it was measured on (one device's size) */
    double wlo = N("whole_lo"), whi = N("whole_hi");
    if ((!isnan(wlo) && *whole < wlo) || (!isnan(whi) && *whole > whi)) return NAN;
    return *part / *whole;
}

static void lowest_visit(void *vctx, const struct corr_rec *r)
{
    struct share_ctx *c = vctx;
    double part, whole, share = line_share(c->rr, r, c->whole_rec, &part, &whole);
    if (isnan(share)) return;
    /* the lowest share; of equal ones the earliest line, whatever order the kept lines are in */
    if (c->best &&
        (share > c->share || (share == c->share && corr_rec_cmp(c->rr->st, r, c->best) > 0)))
        return;
    c->best = r, c->part = part, c->whole = whole, c->share = share;
}

/* One line of signature sig that carries both facts: part / whole inside [lo, hi] (vLLM's startup
 * check: free of total), and where whole_lo/whole_hi are given, only of a whole inside
 * [whole_lo, whole_hi] (one device's size). The line is the earliest, or with pick "lowest" the
 * one of the lowest share (a series of memory snapshots: how close the pool came to empty). With
 * whole_sig, the whole is read from the earliest line of that signature instead (llama.cpp prints
 * a device's free memory on one line, ggml its total on another; top its total on one line, what
 * is available on the next). */
void corr_prim_fact_share(struct corr_rule_run *rr)
{
    const struct corr_rec *wr = NULL;
    if (S("whole_sig") && !(wr = corr_find_sig_rec(rr->st, S("whole_sig")))) return;
    struct share_ctx c = {rr, wr, NULL, NAN, NAN, NAN};
    if (S("pick") && !strcmp(S("pick"), "lowest")) {
        const struct match_sig *s = match_pack_find_sig(rr->st->pack, S("sig"));
        if (s) corr_sig_each(rr->st, s->index, lowest_visit, &c);
    } else if ((c.best = corr_find_sig_rec(rr->st, S("sig")))) {
        c.share = line_share(rr, c.best, wr, &c.part, &c.whole);
    }
    if (!c.best || isnan(c.share) || c.share < N("lo") || c.share > N("hi")) return;
    struct corr_var v[] = {VN("part", c.part), VN("whole", c.whole), VN("share", c.share)};
    corr_rule_claim(rr, "inside", c.best, v, AZ_ARRAY_LEN(v));
}
