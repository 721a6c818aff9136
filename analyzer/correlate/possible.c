/* correlate/possible.c - what a run with no verdict leaves open. A report that says "none" on a
 * failure where a gotcha has partial evidence names it as possible, with the line that points at
 * it and the one fact that would decide it (the pack's "decide" of the entry), instead of falling
 * silent. Two ways in, both from what the scoring knows:
 *  - below the verdict: an entry the evidence puts at POSSIBLE_FLOOR or above (a lone hint, a
 *    capacity OOM its rule could not read the free memory of): its own fact decides it;
 *  - held back by the platform: an entry scoped to a platform, on a run the inputs do not place,
 *    that the same evidence names once the run is assumed to be on that platform (its rules run
 *    again under that assumption, then everything they added is taken back): the platform's fact
 *    (the entry's "decide.platform") decides it.
 * Never beside a verdict, nor on a run that completed; at most CORR_POSSIBLE_MAX, in findings
 * order, then pack order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

/* One weak line of an entry weighs 0.2: the least the pack names a mechanism with. Below it are
 * hints a rule scaled down, a contrary line or another GPU lowered, or context alone. */
#define POSSIBLE_FLOOR 0.2
/* A lone weak line scores 1 - (1 - 0.2), which is 0.2 less a rounding error: compared with this
 * slack, the floor means what it says. */
#define POSSIBLE_SLACK 1e-9

/* The context as the scoring reads the platform: saved before an assumption, put back after. */
struct platform_save {
    const struct match_platform *on;
    int placed;
    const char *platform;
};

static struct platform_save platform_save(const struct corr_context *c)
{
    return (struct platform_save){c->on, c->placed, c->platform};
}

static void platform_restore(struct corr_context *c, struct platform_save s)
{
    c->on = s.on;
    c->placed = s.placed;
    c->platform = s.platform;
}

/* Assume the run is on a declared platform (the scoring reads the platform from these fields). */
static void assume_platform(struct corr_context *c, const struct match_platform *pl)
{
    c->on = pl;
    c->placed = 1;
    c->platform = pl->id;
}

/* 1 when e is a gotcha scoped to platform id with a platform fact to decide it. */
static int held_candidate(const struct match_entry *e, const char *id)
{
    return e->family == MATCH_FAMILY_GOTCHA && e->scope.platform &&
           !strcmp(e->scope.platform, id) && e->decide.platform_fact;
}

struct mark_save {
    double t;
    char *label;
};

/* held[e->order] = 1 and seen[e->order] its line for every entry scoped to a platform that its
 * evidence names at the threshold once the run is assumed to be there. The state is left as it
 * was: the platform, the claims and the series marks the second pass of the rules added. */
static void platform_held(struct corr_state *st, double thr, unsigned char *held,
                          const struct corr_rec **seen)
{
    size_t ne = match_pack_entry_count(st->pack);
    size_t np = match_pack_platform_count(st->pack);
    for (size_t s = 0; s < np; s++) {
        const struct match_platform *pl = match_pack_platform(st->pack, s);
        int any = 0;
        for (size_t i = 0; i < ne && !any; i++)
            any = held_candidate(match_pack_entry(st->pack, i), pl->id);
        if (!any) continue;
        size_t nclaims = st->nclaims;
        struct mark_save *marks = az_xcalloc(st->nseries ? st->nseries : 1, sizeof *marks);
        for (size_t k = 0; k < st->nseries; k++)
            marks[k] = (struct mark_save){st->series[k].mark_t, st->series[k].mark_label};
        struct platform_save was = platform_save(&st->ctx);
        assume_platform(&st->ctx, pl);
        corr_rules_run(st);
        for (size_t i = 0; i < ne; i++) {
            const struct match_entry *e = match_pack_entry(st->pack, i);
            if (!held_candidate(e, pl->id)) continue;
            const struct corr_rec *rec = NULL;
            if (corr_entry_weigh(st, e, &rec) >= thr && rec) {
                held[e->order] = 1;
                seen[e->order] = rec;
            }
        }
        platform_restore(&st->ctx, was);
        for (size_t k = nclaims; k < st->nclaims; k++) {
            free(st->claims[k].note);
            free(st->claims[k].summary);
            free(st->claims[k].reason);
        }
        st->nclaims = nclaims;
        for (size_t k = 0; k < st->nseries; k++) {
            if (st->series[k].mark_label != marks[k].label) free(st->series[k].mark_label);
            st->series[k].mark_t = marks[k].t;
            st->series[k].mark_label = marks[k].label;
        }
        free(marks);
    }
}

static void evidence_copy(const struct corr_evidence *from, struct corr_evidence *to)
{
    *to = *from;
    to->path = az_xstrdup(from->path);
    to->lane = az_xstrdup(from->lane);
    to->text = az_xstrdup(from->text);
    to->note = az_xstrdup(from->note);
}

/* The finding's line that points at it: its own signature's first (evidence is decisive first,
 * then by time), else its first line; NULL when it has none. */
static const struct corr_evidence *finding_seen(const struct corr_finding *f)
{
    for (size_t k = 0; k < f->nevidence; k++)
        if (f->evidence[k].sig && f->evidence[k].sig->entry == f->entry) return &f->evidence[k];
    return f->nevidence ? &f->evidence[0] : NULL;
}

static struct corr_possible *add(struct corr_result *r, const struct match_entry *e,
                                 int by_platform)
{
    struct corr_possible *p = &r->possible[r->npossible++];
    p->entry = e;
    p->by_platform = by_platform;
    p->fact = by_platform ? e->decide.platform_fact : e->decide.fact;
    p->command = by_platform ? e->decide.platform_command : e->decide.command;
    return p;
}

void corr_possible(struct corr_state *st, struct corr_result *r)
{
    r->possible = az_xcalloc(CORR_POSSIBLE_MAX, sizeof *r->possible);
    /* a named gotcha is the answer; a run that ended as planned has no failure to explain */
    if (r->verdict || r->outcome == CORR_OUTCOME_COMPLETED) return;
    double thr = st->cfg->threshold > 0 ? st->cfg->threshold : 0.35;
    size_t ne = match_pack_entry_count(st->pack);
    unsigned char *held = az_xcalloc(ne ? ne : 1, 1), *done = az_xcalloc(ne ? ne : 1, 1);
    const struct corr_rec **seen = az_xcalloc(ne ? ne : 1, sizeof *seen);
    if (st->ctx.placed == -1) platform_held(st, thr, held, seen);
    for (size_t i = 0; i < r->nfindings && r->npossible < CORR_POSSIBLE_MAX; i++) {
        const struct corr_finding *f = &r->findings[i];
        const struct match_entry *e = f->entry;
        const struct corr_evidence *ev = finding_seen(f);
        if (!e->decide.fact || !ev ||
            (f->confidence + POSSIBLE_SLACK < POSSIBLE_FLOOR && !held[e->order]))
            continue;
        evidence_copy(ev, &add(r, e, held[e->order])->seen);
        done[e->order] = 1;
    }
    /* held back by the platform with too little else to be a finding */
    for (size_t i = 0; i < ne && r->npossible < CORR_POSSIBLE_MAX; i++) {
        const struct match_entry *e = match_pack_entry(st->pack, i);
        if (!held[e->order] || done[e->order]) continue;
        corr_evidence_from_rec(st, seen[e->order], NULL, &add(r, e, 1)->seen);
    }
    free(held);
    free(done);
    free(seen);
}
