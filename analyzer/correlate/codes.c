/*
 * correlate/codes.c - the catalogue fault codes a run shows (Xid, SXid), collapsed: one entry per
 * code with its count and its first and last time, so 800,000 repeated Xid lines read as one line.
 */
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

struct seen {
    const struct match_code *code;
    uint64_t count;
    const struct corr_rec *first, *last; /* in timeline order; last among the timed ones */
};

struct span_ctx {
    const struct corr_state *st;
    struct seen *e;
};

static void span_visit(void *vctx, const struct corr_rec *r)
{
    struct span_ctx *c = vctx;
    if (!c->e->first || corr_rec_cmp(c->st, r, c->e->first) < 0) c->e->first = r;
    /* untimed lines sort after timed ones: the span ends at the last line with a time */
    int timed = r->time.kind != AZ_TIME_NONE,
        last_timed = c->e->last && c->e->last->time.kind != AZ_TIME_NONE;
    if (!c->e->last || (timed && !last_timed) ||
        (timed == last_timed && corr_rec_cmp(c->st, r, c->e->last) > 0))
        c->e->last = r;
}

void corr_codes_collect(const struct corr_state *st, struct corr_result *r)
{
    size_t n = 0, cap = 0;
    struct seen *v = NULL;
    /* per code: its signatures (one per severity) are merged */
    for (size_t s = 0; s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (!sig->code) continue;
        struct seen *e = NULL;
        for (size_t k = 0; k < n && !e; k++)
            if (v[k].code == sig->code) e = &v[k];
        if (!e) {
            az_grow((void **)&v, &cap, n + 1, sizeof *v);
            e = &v[n++];
            memset(e, 0, sizeof *e);
            e->code = sig->code;
        }
        struct span_ctx c = {st, e};
        corr_sig_each(st, s, span_visit, &c);
        e->count += st->sigs[s]->count;
    }
    /* in timeline order of their first line (corr_rec_cmp is a total order); few codes */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && corr_rec_cmp(st, v[j].first, v[j - 1].first) < 0; j--) {
            struct seen t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    r->codes = az_xcalloc(n ? n : 1, sizeof *r->codes);
    for (size_t i = 0; i < n; i++) {
        r->codes[i].code = v[i].code;
        r->codes[i].count = v[i].count;
        r->codes[i].first = v[i].first->time;
        r->codes[i].last = v[i].last->time;
    }
    r->ncodes = n;
    free(v);
}
