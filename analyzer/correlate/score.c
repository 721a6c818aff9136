/* correlate/score.c - weighing evidence into findings: per gotcha, signature hits and detector
 * claims combine as 1 - prod(1 - w) (decisive evidence outweighs many weak hints: weak-only
 * evidence is capped below the verdict threshold, context alone adds nothing), then contrary
 * factors and caps apply. Root causes are moved before the findings they lead to; the verdict is
 * the first finding at or above the threshold; the first error is named. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

#define WEAK_ONLY_CAP 0.3  /* hints alone never reach the default threshold (0.35) */
#define CONTEXT_BONUS 0.1  /* each context hit, only beside real evidence (at most 3) */
#define MIN_FINDING   0.05 /* below this a candidate is ruled out */

struct ev_item {
    const struct corr_rec *rec;
    const char *note;
    int rank; /* 0 decisive, 1 other */
};

struct cand {
    const struct match_entry *e;
    size_t order; /* pack order */
    double conf;
    const struct corr_rec *earliest; /* earliest supporting record */
    size_t nev, capev;
    struct ev_item *ev;
    struct az_buf summary;
    struct az_buf lowered;
};

static void ev_push(struct cand *c, const struct corr_rec *r, const char *note, int rank)
{
    if (!r) return;
    for (size_t i = 0; i < c->nev; i++)
        if (c->ev[i].rec == r) return;
    az_grow((void **)&c->ev, &c->capev, c->nev + 1, sizeof *c->ev);
    c->ev[c->nev++] = (struct ev_item){r, note, rank};
}

struct last_ctx {
    const struct corr_rec *last;
    const struct corr_state *st;
};

static void last_visit(void *vctx, const struct corr_rec *r)
{
    struct last_ctx *l = vctx;
    if (!l->last || corr_rec_cmp(l->st, r, l->last) > 0) l->last = r;
}

static void weigh(struct corr_state *st, struct cand *c)
{
    double keep = 1, factor = 1, cap = 1, maxw = 0;
    int nctx = 0, nsupport = 0, decisive = 0;
    const struct match_entry *e = c->e;
    struct az_buf sigsum = AZ_BUF_INIT;
    int nsigsum = 0;
    for (size_t i = 0; i < e->nsigs; i++) {
        const struct match_sig *sig = e->sigs[i];
        if (sig->index >= st->nsigs || !st->sigs[sig->index]) continue;
        const struct corr_sigstat *ss = st->sigs[sig->index];
        const struct corr_rec *first = corr_sig_earliest(st, sig->index);
        if (sig->role == MATCH_ROLE_CONTRARY) {
            /* a line that makes its entry less likely, with the pack's sentence */
            factor *= sig->contrary_factor;
            if (sig->contrary_says)
                az_buf_printf(&c->lowered, "%s%s", c->lowered.len ? "; " : "", sig->contrary_says);
            continue;
        }
        if (sig->strength == MATCH_CONTEXT) {
            nctx++;
            continue;
        }
        enum match_strength strength = corr_sig_strength(st, sig);
        if (strength == MATCH_DECISIVE) decisive = 1;
        double w = corr_sig_weight(st, sig);
        keep *= 1 - w;
        maxw = AZ_MAX(maxw, w);
        nsupport++;
        ev_push(c, first, NULL, strength == MATCH_DECISIVE ? 0 : 1);
        if (ss->count > 1) {
            struct last_ctx l = {NULL, st};
            corr_sig_each(st, sig->index, last_visit, &l);
            if (l.last != first) ev_push(c, l.last, NULL, 2);
        }
        if (!c->earliest || corr_rec_cmp(st, first, c->earliest) < 0) c->earliest = first;
        if (nsigsum < 2) {
            char clock[32] = "";
            if (first->time.kind != AZ_TIME_NONE)
                az_time_format(first->time, 0, clock, sizeof clock);
            az_buf_printf(&sigsum, "%s%s: %llu line%s, first at %s:%llu%s%s.", nsigsum ? " " : "",
                          sig->summary && *sig->summary ? sig->summary : e->title,
                          (unsigned long long)ss->count, ss->count == 1 ? "" : "s",
                          corr_file_path(st, first->file), (unsigned long long)first->line,
                          *clock ? " at " : "", clock);
            nsigsum++;
        }
    }
    /* a rule outcome the pack calls decisive names the cause as a decisive line does */
    for (size_t i = 0; i < st->nclaims; i++)
        if (st->claims[i].entry == e && st->claims[i].decisive) decisive = 1;
    for (size_t i = 0; i < st->nclaims; i++) {
        const struct corr_claim *cl = &st->claims[i];
        if (cl->entry != e) continue;
        if (cl->weight > 0) {
            keep *= 1 - cl->weight;
            /* a detector's reading of the numbers counts as strong from 0.3 on */
            maxw = AZ_MAX(maxw, cl->weight >= 0.3 ? cl->weight + 0.2 : cl->weight);
            nsupport++;
            if (cl->rec) {
                ev_push(c, cl->rec, cl->note, cl->decisive ? 0 : 1);
                if (!c->earliest || corr_rec_cmp(st, cl->rec, c->earliest) < 0)
                    c->earliest = cl->rec;
            }
            if (cl->summary)
                az_buf_printf(&c->summary, "%s%s", c->summary.len ? " " : "", cl->summary);
        }
        if (cl->factor < 1) {
            factor *= cl->factor;
            if (cl->reason)
                az_buf_printf(&c->lowered, "%s%s", c->lowered.len ? "; " : "", cl->reason);
        }
        /* a cap holds back hints; a decisive line names the cause on its own */
        if (cl->cap > 0 && cl->cap < cap && !decisive) {
            cap = cl->cap;
            if (cl->reason && nsupport)
                az_buf_printf(&c->lowered, "%s%s", c->lowered.len ? "; " : "", cl->reason);
        }
    }
    double supp = 1 - keep;
    if (supp > 0 && nctx) supp = 1 - (1 - supp) * pow(1 - CONTEXT_BONUS, AZ_MIN(nctx, 3));
    if (maxw < 0.5) supp = AZ_MIN(supp, WEAK_ONLY_CAP);
    c->conf = AZ_MIN(supp * factor, cap);
    if (!c->summary.len && sigsum.len)
        az_buf_append(&c->summary, sigsum.data, sigsum.len);
    else if (sigsum.len && nsigsum) {
        /* detector sentences first, then what the signatures add */
        az_buf_printf(&c->summary, " %s", sigsum.data);
    }
    az_buf_free(&sigsum);
}

static int cand_cmp(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->conf != y->conf) return x->conf > y->conf ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Evidence: decisive first, then by time. */
static void sort_evidence(const struct corr_state *st, struct cand *c)
{
    for (size_t i = 1; i < c->nev; i++)
        for (size_t j = i; j > 0; j--) {
            struct ev_item *a = &c->ev[j - 1], *b = &c->ev[j];
            int ra = a->rank == 0 ? 0 : 1, rb = b->rank == 0 ? 0 : 1;
            int cmp = ra != rb ? (ra < rb ? -1 : 1) : corr_rec_cmp(st, a->rec, b->rec);
            if (cmp <= 0) break;
            struct ev_item t = *a;
            *a = *b;
            *b = t;
        }
}

/* A root cause named before the symptom it explains (an entry's "explains" in the pack) needs
 * the symptom to be at least this likely, and then absorbs this share of it. */
#define EXPLAINED_MIN   0.2
#define EXPLAINED_SHARE 0.8

struct ferr_ctx {
    const struct corr_state *st;
    const struct corr_rec *best;
};

static void ferr_visit(void *vctx, const struct corr_rec *r)
{
    struct ferr_ctx *f = vctx;
    if (!corr_rec_is_error(r)) return;
    if (!f->best || corr_rec_cmp(f->st, r, f->best) < 0) f->best = r;
}

/* The earliest error line among an entry's own signature hits, or NULL. */
static const struct corr_rec *entry_first_error(const struct corr_state *st,
                                                const struct match_entry *e)
{
    struct ferr_ctx f = {st, NULL};
    for (size_t i = 0; i < e->nsigs; i++) {
        size_t s = e->sigs[i]->index;
        if (s < st->nsigs && st->sigs[s] && e->sigs[i]->strength != MATCH_CONTEXT)
            corr_sig_each(st, s, ferr_visit, &f);
    }
    return f.best;
}

/* Does the timeline show the effect before the cause? Only placed times, or lines of one file,
 * can say so: two untimed files have no order (their path order means nothing). */
static int timeline_contradicts(const struct corr_state *st, const struct corr_rec *cause,
                                const struct corr_rec *effect)
{
    if (cause->file == effect->file) return cause->line > effect->line;
    if (cause->time.kind == AZ_TIME_NONE || effect->time.kind == AZ_TIME_NONE) return 0;
    return corr_rec_cmp(st, cause, effect) > 0;
}

/* One "explains" link of the pack: cause explains effect when cause is at least min_cause. */
struct causal_link {
    const struct match_entry *cause, *effect;
    double min_cause;
};

static void apply_link(const struct corr_state *st, struct cand *v, size_t n,
                       const struct causal_link *link)
{
    {
        size_t ci = n, ei = n;
        for (size_t i = 0; i < n; i++) {
            if (v[i].e == link->cause) ci = i;
            if (v[i].e == link->effect) ei = i;
        }
        if (ci == n || ei == n || v[ci].conf < link->min_cause || v[ei].conf < EXPLAINED_MIN)
            return;
        /* the cause must be there by the time the effect fails (its first error line; context
         * such as "loading checkpoint shards" may start long before) */
        const struct corr_rec *eff = entry_first_error(st, v[ei].e);
        if (!eff) eff = v[ei].earliest;
        if (!v[ci].earliest || !eff || timeline_contradicts(st, v[ci].earliest, eff)) return;
        /* The cause explains the effect: it is at least as likely, and named first. */
        v[ci].conf = 1 - (1 - v[ci].conf) * (1 - EXPLAINED_SHARE * v[ei].conf);
        az_buf_printf(&v[ci].summary, " It led to %s (%s).", v[ei].e->id, v[ei].e->title);
        /* named before its effect, and before anything it now outscores */
        size_t to = ei;
        while (to > 0 && v[to - 1].conf < v[ci].conf && to - 1 != ci) to--;
        if (ci > to) {
            struct cand t = v[ci];
            memmove(&v[to + 1], &v[to], (ci - to) * sizeof *v);
            v[to] = t;
        }
    }
}

/* Every "explains" link, in pack order of the causes (then as listed). */
static void order_causes(const struct corr_state *st, struct cand *v, size_t n)
{
    for (size_t i = 0; i < match_pack_entry_count(st->pack); i++) {
        const struct match_entry *e = match_pack_entry(st->pack, i);
        for (size_t k = 0; k < e->nexplains; k++) {
            if (!e->explains[k].entry) continue;
            struct causal_link link = {e, e->explains[k].entry, e->explains[k].min_cause};
            apply_link(st, v, n, &link);
        }
    }
}

/* Does the run show a root line carrying tag? (A line of a signature that is itself made a
 * cascade by its cascade_of does not count: a symptom never roots another symptom.) */
static int run_has_root_tag(const struct corr_state *st, const char *tag)
{
    for (size_t s = 0; s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (sig->role == MATCH_ROLE_ROOT && !sig->ncascade_of && match_sig_has_tag(sig, tag))
            return 1;
    }
    return 0;
}

/* The role a signature's lines have in this run: the pack's, except that a root line declaring
 * "cascade_of" tags is a cascade once the run shows a root line carrying one of them (a CUDA
 * error beside a fatal Xid of the same run), whatever the clocks say: the driver's report of
 * the fault is the cause, the application's error its consequence. */
static enum match_role run_role(const struct corr_state *st, const struct match_sig *sig)
{
    if (sig->role != MATCH_ROLE_ROOT) return sig->role;
    for (size_t k = 0; k < sig->ncascade_of; k++)
        if (run_has_root_tag(st, sig->cascade_of[k])) return MATCH_ROLE_CASCADE;
    return MATCH_ROLE_ROOT;
}

/* The first-error pass a signature's lines take part in. */
static enum match_role ferr_pass(const struct corr_state *st, const struct match_sig *sig)
{
    enum match_role role = run_role(st, sig);
    return role == MATCH_ROLE_CASCADE || role == MATCH_ROLE_NOISE ? role : MATCH_ROLE_ROOT;
}

/* Is r a failure line for the run's first error? Its words say so (corr_rec_is_error), or the pack
 * does: a root line of a signature at least strong names a failure whatever its words ("no kernel
 * image is available for execution on the device"). What a line says was done (pip's
 * "Successfully uninstalled torch-...") is the pack's context role, never a first error; a
 * warn-level one is dropped again when the run did not fail (corr_state_finish()). Only here: the
 * explains ordering and the outcome keep reading the words. */
static int ferr_candidate(const struct corr_state *st, const struct corr_rec *r)
{
    if (r->sig && run_role(st, r->sig) == MATCH_ROLE_ROOT &&
        corr_sig_strength(st, r->sig) >= MATCH_STRONG)
        return 1;
    return corr_rec_is_error(r);
}

static void ferr_pass_visit(void *vctx, const struct corr_rec *r)
{
    struct ferr_ctx *f = vctx;
    if (!ferr_candidate(f->st, r)) return;
    if (!f->best || corr_rec_cmp(f->st, r, f->best) < 0) f->best = r;
}

/* The earliest error record matched by a signature of the family (-1: gotcha or common) at
 * least as strong as min_strength, among the signatures of one pass: root (every role but cascade,
 * context, contrary and noise), cascade or noise. A context line describes the run, never fails it.
 */
static const struct corr_rec *first_error_of(const struct corr_state *st, int family,
                                             enum match_strength min_strength, enum match_role pass)
{
    struct ferr_ctx f = {st, NULL};
    for (size_t s = 0; s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (sig->role == MATCH_ROLE_CONTRARY || sig->role == MATCH_ROLE_CONTEXT ||
            ferr_pass(st, sig) != pass)
            continue;
        int fam = (int)sig->entry->family;
        if (fam != MATCH_FAMILY_GOTCHA && fam != MATCH_FAMILY_COMMON) continue;
        if (family >= 0 && fam != family) continue;
        if (corr_sig_strength(st, sig) < min_strength) continue;
        corr_sig_each(st, s, ferr_pass_visit, &f);
    }
    return f.best;
}

struct twin_ctx {
    const struct corr_state *st;
    const struct corr_rec *of, *best;
};

static void twin_visit(void *vctx, const struct corr_rec *r)
{
    struct twin_ctx *t = vctx;
    if (r->file != t->of->file || r->line != t->of->line || r->seq != t->of->seq) return;
    if (!t->best || corr_sig_strength(t->st, r->sig) > corr_sig_strength(t->st, t->best->sig))
        t->best = r;
}

/* A run no gotcha explains is named by the common family: when its first error line is a
 * gotcha's hint (an undefined symbol, vLLM's startup free-memory check on a discrete card) that a
 * common signature also matched, the same line is named by that common failure. */
static const struct corr_rec *common_twin(const struct corr_state *st, const struct corr_rec *fe)
{
    if (!fe->sig || fe->sig->entry->family == MATCH_FAMILY_COMMON) return fe;
    struct twin_ctx t = {st, fe, NULL};
    for (size_t s = 0; s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (sig->entry->family != MATCH_FAMILY_COMMON || sig->role == MATCH_ROLE_CONTEXT ||
            sig->role == MATCH_ROLE_CONTRARY || sig->role == MATCH_ROLE_NOISE)
            continue;
        corr_sig_each(st, s, twin_visit, &t);
    }
    return t.best ? t.best : fe;
}

/* The earliest root error line; a cascade line (a consequence pointing at an earlier failure)
 * only when no root line is there. With noise 1, the earliest noise line only (a warning that says
 * it is non-fatal, a code NVIDIA says to ignore): the caller asks once nothing else named one. */
static const struct corr_rec *first_error(const struct corr_state *st, int family,
                                          enum match_strength min_strength, int noise)
{
    if (noise) return first_error_of(st, family, min_strength, MATCH_ROLE_NOISE);
    const struct corr_rec *r = first_error_of(st, family, min_strength, MATCH_ROLE_ROOT);
    return r ? r : first_error_of(st, family, min_strength, MATCH_ROLE_CASCADE);
}

double corr_entry_weigh(struct corr_state *st, const struct match_entry *e,
                        const struct corr_rec **seen)
{
    struct cand c;
    memset(&c, 0, sizeof c);
    c.e = e;
    weigh(st, &c);
    sort_evidence(st, &c);
    *seen = NULL;
    /* the entry's own line first: a context line it borrows says what the run is, not what failed
     */
    for (size_t k = 0; k < c.nev && !*seen; k++)
        if (c.ev[k].rec->sig && c.ev[k].rec->sig->entry == e) *seen = c.ev[k].rec;
    if (!*seen && c.nev) *seen = c.ev[0].rec;
    double conf = AZ_MIN(1.0, AZ_MAX(0.0, c.conf));
    free(c.ev);
    az_buf_free(&c.summary);
    az_buf_free(&c.lowered);
    return conf;
}

void corr_score(struct corr_state *st, struct corr_result *r)
{
    size_t ne = match_pack_entry_count(st->pack), nc = 0;
    struct cand *cands = az_xcalloc(ne ? ne : 1, sizeof *cands);
    for (size_t i = 0; i < ne; i++) {
        const struct match_entry *e = match_pack_entry(st->pack, i);
        if (e->family != MATCH_FAMILY_GOTCHA) continue;
        struct cand *c = &cands[nc++];
        c->e = e;
        c->order = i;
        weigh(st, c);
    }
    qsort(cands, nc, sizeof *cands, cand_cmp);
    order_causes(st, cands, nc);

    size_t nf = 0;
    for (size_t i = 0; i < nc; i++)
        if (cands[i].conf >= MIN_FINDING) nf++;
    r->findings = az_xcalloc(nf ? nf : 1, sizeof *r->findings);
    r->ruled_out = az_xcalloc(nc ? nc : 1, sizeof *r->ruled_out);
    for (size_t i = 0; i < nc; i++) {
        struct cand *c = &cands[i];
        if (c->conf >= MIN_FINDING) {
            struct corr_finding *f = &r->findings[r->nfindings++];
            f->entry = c->e;
            f->confidence = AZ_MIN(1.0, AZ_MAX(0.0, c->conf));
            if (c->lowered.len)
                az_buf_printf(&c->summary, " Less likely because %s.", c->lowered.data);
            f->summary = az_buf_steal(&c->summary);
            sort_evidence(st, c);
            f->nevidence = AZ_MIN(c->nev, (size_t)CORR_EVIDENCE_MAX);
            f->evidence = az_xcalloc(f->nevidence ? f->nevidence : 1, sizeof *f->evidence);
            for (size_t k = 0; k < f->nevidence; k++)
                corr_evidence_from_rec(st, c->ev[k].rec, c->ev[k].note, &f->evidence[k]);
        } else {
            struct corr_ruled_out *ro = &r->ruled_out[r->nruled_out++];
            ro->entry = c->e;
            ro->reason = c->lowered.len ? az_xstrdup(c->lowered.data) : NULL;
            if (!ro->reason) {
                /* a reason-only claim (a detector that looked and saw nothing) */
                for (size_t k = 0; k < st->nclaims && !ro->reason; k++)
                    if (st->claims[k].entry == c->e && st->claims[k].reason)
                        ro->reason = az_xstrdup(st->claims[k].reason);
            }
            if (!ro->reason)
                ro->reason = az_xstrdup(c->e->ruled_out && *c->e->ruled_out ? c->e->ruled_out
                                                                            : "no evidence");
        }
    }
    /* ruled out in pack order, so the list reads G1..G10 */
    for (size_t i = 1; i < r->nruled_out; i++)
        for (size_t j = i; j > 0; j--) {
            size_t a = 0, b = 0;
            for (size_t k = 0; k < ne; k++) {
                if (match_pack_entry(st->pack, k) == r->ruled_out[j - 1].entry) a = k;
                if (match_pack_entry(st->pack, k) == r->ruled_out[j].entry) b = k;
            }
            if (a <= b) break;
            struct corr_ruled_out t = r->ruled_out[j - 1];
            r->ruled_out[j - 1] = r->ruled_out[j];
            r->ruled_out[j] = t;
        }
    double thr = st->cfg->threshold > 0 ? st->cfg->threshold : 0.35;
    r->confidence = r->nfindings ? r->findings[0].confidence : 0;
    r->verdict = r->nfindings && r->findings[0].confidence >= thr ? r->findings[0].entry : NULL;

    /* A run that is none of the ten is named by its first common failure; a plain Python
     * exception (a weak signature: handled ones are logged too) still beats naming nothing. */
    const struct corr_rec *fe = NULL;
    if (!r->verdict) fe = first_error(st, MATCH_FAMILY_COMMON, MATCH_STRONG, 0);
    if (!fe) fe = first_error(st, -1, MATCH_STRONG, 0);
    /* a verdict that weak lines and its rules named, with no strong line anywhere: its own
     * earliest error line is the failure the report points at */
    if (!fe && r->verdict) fe = entry_first_error(st, r->verdict);
    if (fe && !ferr_candidate(st, fe)) fe = NULL;
    if (!fe && !r->verdict) fe = first_error(st, MATCH_FAMILY_COMMON, MATCH_WEAK, 0);
    if (!fe && !r->verdict) fe = first_error(st, -1, MATCH_WEAK, 0);
    /* root before noise: a declared warning is named only when the run shows nothing else */
    if (!fe && !r->verdict) fe = first_error(st, -1, MATCH_WEAK, 1);
    if (fe && !r->verdict) fe = common_twin(st, fe);
    if (fe) {
        st->first_error_warn = fe->level == TOK_LEVEL_WARN;
        r->first_error = az_xcalloc(1, sizeof *r->first_error);
        corr_evidence_from_rec(st, fe, NULL, r->first_error);
        r->first_error_entry = fe->sig ? fe->sig->entry : NULL;
    }
    for (size_t i = 0; i < nc; i++) {
        free(cands[i].ev);
        az_buf_free(&cands[i].summary);
        az_buf_free(&cands[i].lowered);
    }
    free(cands);
}
