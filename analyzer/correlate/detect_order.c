/* correlate/detect_order.c - primitives about lines in order: cutoff-boot (a job log that stops
 * without an error, then a new boot), context-before and context-present (a context line above a
 * failure, or beside one; with names_fact, one naming the package a failure's fact holds),
 * after-context (a context line, then a failure or a run that did not learn), last-line (a tagged
 * line is the last its log shows) and requested-not-used (a setting asked for, another used). The
 * entries, signatures and tags they read are the rule's parameters. */
#include <ctype.h>
#include <math.h>
#include <string.h>

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

/* Every kept line carrying the tag of a gotcha or common entry that is not context-strength: the
 * failures a rule's tag names. */
static void each_tagged_failure(struct corr_state *st, const char *tag, rec_visit_fn fn, void *ctx)
{
    for (size_t s = 0; tag && s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (!match_sig_has_tag(sig, tag) || sig->strength == MATCH_CONTEXT ||
            (sig->entry->family != MATCH_FAMILY_GOTCHA &&
             sig->entry->family != MATCH_FAMILY_COMMON))
            continue;
        struct visit_ctx v = {st, fn, ctx};
        corr_sig_each(st, s, corr_visit_tramp, &v);
    }
}

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
    if (ctx) each_tagged_failure(st, tag, near_fail_visit, &n);
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

/* names_fact: a package name as pip, uv and conda print it, PEP 503 normalised (letters and digits
 * case-insensitively, a run of '-', '_' or '.' the same as any other). */
static int name_char(int c)
{
    return isalnum(c) || c == '-' || c == '_' || c == '.';
}

static int sep_char(int c)
{
    return c == '-' || c == '_' || c == '.';
}

/* Where pkg, normalised, ends when text at t starts with it; NULL when it does not. */
static const char *package_at(const char *t, const char *p)
{
    while (*p && *t) {
        if (sep_char(*p) && sep_char(*t)) {
            while (sep_char(*p)) p++;
            while (sep_char(*t)) t++;
            continue;
        }
        if (tolower((unsigned char)*p) != tolower((unsigned char)*t)) return NULL;
        p++, t++;
    }
    return *p ? NULL : t;
}

/* 1 when text names the package pkg: a name that starts where no name character precedes it, is
 * pkg normalised, and ends at a character no name holds or at a separator before a digit (pip's
 * "name-1.2.3", a wheel's "name-1.2.3-py3-none-any.whl"). */
static int names_package(const char *text, const char *pkg)
{
    if (!text || !pkg || !*pkg) return 0;
    for (const char *s = text; *s; s++) {
        if (s > text && name_char((unsigned char)s[-1])) continue;
        const char *t = package_at(s, pkg);
        if (!t) continue;
        if (!name_char((unsigned char)*t)) return 1;
        while (sep_char(*t)) t++;
        if (isdigit((unsigned char)*t) && sep_char(t[-1])) return 1;
    }
    return 0;
}

/* The earliest line of the context entry that names the package a tagged failure's fact holds,
 * itself or a distribution an alias ("nvidia-cutlass-dsl:cutlass") maps to it. */
struct naming_scan {
    const struct match_entry *ctx;
    const char *fact;
    const struct match_value *aliases;
    const char *name; /* the name being looked for */
    const struct corr_rec *best;
};

static void naming_ctx_visit(struct corr_state *st, void *vctx, const struct corr_rec *c)
{
    struct naming_scan *n = vctx;
    if (!names_package(c->text, n->name)) return;
    if (!n->best || corr_rec_cmp(st, c, n->best) < 0) n->best = c;
}

static void naming_fail_visit(struct corr_state *st, void *vctx, const struct corr_rec *t)
{
    struct naming_scan *n = vctx;
    const char *v = corr_fact_str(t, n->fact);
    if (!v || !*v) return;
    n->name = v;
    corr_each_rec(st, n->ctx, naming_ctx_visit, n);
    for (size_t i = 0; n->aliases && i < n->aliases->nlist; i++) {
        const char *a = n->aliases->list[i], *colon = strchr(a, ':');
        char dist[128];
        const char *end = colon ? package_at(colon + 1, v) : NULL;
        if (!end || *end || (size_t)(colon - a) >= sizeof dist) continue;
        memcpy(dist, a, (size_t)(colon - a));
        dist[colon - a] = '\0';
        n->name = dist;
        corr_each_rec(st, n->ctx, naming_ctx_visit, n);
    }
    n->name = NULL;
}

void corr_prim_context_present(struct corr_rule_run *rr)
{
    if (!corr_when_tag(rr)) return;
    const struct match_entry *ctx = corr_entry_of(rr->st, S("context"));
    const char *fact = S("names_fact");
    const struct corr_rec *c = NULL;
    if (fact) {
        struct naming_scan n = {ctx, fact, corr_rule_list(rr, "fact_aliases"), NULL, NULL};
        if (ctx) each_tagged_failure(rr->st, S("when_tag"), naming_fail_visit, &n);
        c = n.best;
    } else {
        c = corr_entry_earliest(rr->st, ctx);
    }
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
