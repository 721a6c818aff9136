/* correlate/detect_order.c - primitives about lines in order: cutoff-boot (a job log that stops
 * without an error, then a new boot), context-before and context-present (a context line above a
 * failure, or beside one), after-context (a context line, then a failure or a run that did not
 * learn), last-line (a tagged line is the last its log shows) and requested-not-used (a setting
 * asked for, another used). The entries, signatures and tags they read are the rule's
 * parameters. */
#include <math.h>

#include "correlate/detect_private.h"

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
            if (corr_kind_in_group(f->kind, groups->list[g]) && f->records &&
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

/* ---- context-before / context-present ---- */

/* A tagged failure line and the line of the context entry closest above it in the same file,
 * at most `within` lines above (a traceback's last frame above its exception line). */
struct near_scan {
    const struct match_entry *ctx;
    const struct match_sig *want; /* the signature the closest line must be, or NULL */
    double within;
    const struct corr_rec *fail; /* the tagged line being tried */
    const struct corr_rec *near; /* its context line, closest above */
    const struct corr_rec *best_fail, *best_near;
};

static void near_ctx_visit(struct corr_state *st, void *vctx, const struct corr_rec *c)
{
    (void)st;
    struct near_scan *n = vctx;
    const struct corr_rec *t = n->fail;
    if (c->file != t->file || c->line >= t->line || (double)(t->line - c->line) > n->within) return;
    if (!n->near || c->line > n->near->line) n->near = c;
}

static void near_fail_visit(struct corr_state *st, void *vctx, const struct corr_rec *t)
{
    struct near_scan *n = vctx;
    n->fail = t;
    n->near = NULL;
    corr_each_rec(st, n->ctx, near_ctx_visit, n);
    if (!n->near || (n->want && n->near->sig != n->want)) return;
    if (!n->best_fail || corr_rec_cmp(st, t, n->best_fail) < 0) {
        n->best_fail = t;
        n->best_near = n->near;
    }
}

/* The context line (of signature want, when given) closest above the earliest tagged failure
 * line (of a gotcha or common entry, not context-strength) that has one at most within lines
 * above it in the same file; NULL when none has. */
static const struct corr_rec *context_near(struct corr_state *st, const char *tag,
                                           const struct match_entry *ctx,
                                           const struct match_sig *want, double within)
{
    struct near_scan n = {ctx, want, within, NULL, NULL, NULL, NULL};
    for (size_t s = 0; tag && ctx && s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (!match_sig_has_tag(sig, tag) || sig->strength == MATCH_CONTEXT ||
            (sig->entry->family != MATCH_FAMILY_GOTCHA &&
             sig->entry->family != MATCH_FAMILY_COMMON))
            continue;
        struct visit_ctx v = {st, near_fail_visit, &n};
        corr_sig_each(st, s, corr_visit_tramp, &v);
    }
    return n.best_near;
}

void corr_prim_context_before(struct corr_rule_run *rr)
{
    const struct match_entry *ctx = corr_entry_of(rr->st, S("context"));
    double within = N("within_lines");
    if (!isnan(within)) {
        const char *want = S("nearest_sig");
        const struct match_sig *ws = want ? match_pack_find_sig(rr->st->pack, want) : NULL;
        const struct corr_rec *c = context_near(rr->st, S("tag"), ctx, ws, within);
        if (c) corr_rule_claim(rr, "before", c, NULL, 0);
        return;
    }
    const struct corr_rec *at = corr_tag_earliest(rr->st, S("tag"), 1);
    const struct corr_rec *c = corr_entry_earliest(rr->st, ctx);
    if (at && c && corr_rec_cmp(rr->st, c, at) <= 0) corr_rule_claim(rr, "before", c, NULL, 0);
}

void corr_prim_context_present(struct corr_rule_run *rr)
{
    if (!corr_when_tag(rr)) return;
    const struct corr_rec *c = corr_entry_earliest(rr->st, corr_entry_of(rr->st, S("context")));
    if (c) corr_rule_claim(rr, "present", c, NULL, 0);
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
    const struct corr_rec *pb = corr_entry_earliest(st, corr_entry_of(st, S("context")));
    if (!pb) return;
    struct err_scan e = {pb, NULL};
    corr_each_rec(st, NULL, err_visit, &e);
    if (e.first_err) {
        char w[300];
        struct corr_var v[] = {VS("at", corr_where(st, e.first_err, w, sizeof w))};
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
    size_t q = AZ_MAX((size_t)1, l->n / AZ_MAX((size_t)1, (size_t)N("end_parts")));
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
    corr_rule_claim(rr, "diverged", corr_series_rec(st, g, 0, text), v, AZ_ARRAY_LEN(v));
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
    corr_each_rec(rr->st, rr->rule->entry, last_line_visit, &l);
}

/* ---- requested-not-used: a setting was asked for, another was used ---- */

void corr_prim_requested(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct corr_rec *req = corr_find_sig_rec(st, S("request"));
    if (!req) return;
    const struct corr_rec *chosen = corr_find_sig_rec(st, S("chosen"));
    const struct corr_rec *banner = corr_find_sig_rec(st, S("banner"));
    if (!chosen && !banner) return;
    char w[300];
    struct corr_var v[] = {VS("request", corr_where(st, req, w, sizeof w))};
    if (chosen)
        corr_rule_claim(rr, banner ? "both" : "chosen", chosen, v, AZ_ARRAY_LEN(v));
    else
        corr_rule_claim(rr, "banner", banner, v, AZ_ARRAY_LEN(v));
}
