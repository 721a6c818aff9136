/* correlate/result.c - from a scanned state to struct corr_result, and freeing it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

static void resolve_visit(void *vctx, const struct corr_rec *r)
{
    /* corr_sig_each hands out const records; the state owns them and this is the one writer. */
    corr_timeline_resolve(vctx, (struct corr_rec *)(uintptr_t)r);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int series_cmp(const void *a, const void *b)
{
    const struct corr_series *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    c = strcmp(x->path, y->path);
    if (c) return c;
    c = strcmp(x->lane, y->lane);
    return c ? c : strcmp(x->unit, y->unit);
}

static void evidence_free(struct corr_evidence *e);

struct corr_result *corr_state_finish(struct corr_state *st)
{
    struct corr_result *r = az_xcalloc(1, sizeof *r);
    corr_timeline_place(st);
    for (size_t s = 0; s < st->nsigs; s++)
        if (st->sigs[s]) corr_sig_each(st, s, resolve_visit, st);
    if (st->have_mem_na_rec) corr_timeline_resolve(st, &st->mem_na_rec);
    if (st->have_thr_rec) corr_timeline_resolve(st, &st->thr_rec);
    if (st->have_cache_rec) corr_timeline_resolve(st, &st->cache_rec);
    corr_series_finish(st);
    corr_context_build(st);
    corr_detect_all(st);
    for (size_t i = 0; i < st->ndet; i++) {
        struct corr_rec *d = st->det_recs[i];
        if (d->time.kind == AZ_TIME_BOOT || d->time.kind == AZ_TIME_NOYEAR) {
            int approx = d->approx;
            d->time = corr_timeline_map(st, d->file, d->time, 0, &approx);
            d->approx = approx;
        }
    }
    corr_score(st, r);
    corr_codes_collect(st, r);
    corr_outcome(st, r);
    corr_possible(st, r);
    /* a warning is no first error of a run known not to have failed (completed, or cut off
     * with no error: gpud's {"level":"warn",...,"error":"Not Supported"} on a healthy GB10); in
     * one that failed, or whose end is unknown, it may be the root (NCCL reports "NCCL WARN
     * NET/IB : Got completion with error 12" at warn level, ld its missing libcuda.so.1) */
    if (r->first_error && st->first_error_warn &&
        (r->outcome == CORR_OUTCOME_COMPLETED || r->outcome == CORR_OUTCOME_CUT_OFF)) {
        evidence_free(r->first_error);
        free(r->first_error);
        r->first_error = NULL;
        r->first_error_entry = NULL;
    }
    corr_timeline_events(st, r);

    /* series */
    size_t ns = 0;
    for (size_t i = 0; i < st->nseries; i++)
        if (st->series[i].n) ns++;
    r->series = az_xcalloc(ns ? ns : 1, sizeof *r->series);
    for (size_t i = 0; i < st->nseries; i++) {
        struct corr_sbuild *b = &st->series[i];
        if (!b->n) continue;
        struct corr_series *o = &r->series[r->nseries++];
        o->name = az_xstrdup(b->name);
        o->unit = az_xstrdup(b->unit);
        o->path = az_xstrdup(corr_file_path(st, b->file));
        o->lane = az_xstrdup(b->lane);
        o->npoints = b->n;
        o->points = az_xcalloc(b->n, sizeof *o->points);
        for (size_t k = 0; k < b->n; k++) {
            o->points[k].t = b->pts[k].t;
            o->points[k].v = b->pts[k].v;
        }
        o->mark_t = b->mark_t;
        o->mark_label = az_xstrdup(b->mark_label ? b->mark_label : "");
    }
    qsort(r->series, r->nseries, sizeof *r->series, series_cmp);

    /* inputs, skips, warnings: handed over */
    r->inputs = st->inputs;
    r->ninputs = st->ninputs;
    st->inputs = NULL;
    st->ninputs = 0;
    r->skipped = st->skipped;
    r->nskipped = st->nskipped;
    st->skipped = NULL;
    st->nskipped = 0;
    r->warnings = st->warnings;
    r->nwarnings = st->nwarnings;
    st->warnings = NULL;
    st->nwarnings = 0;
    r->records = st->records;
    r->bytes = st->bytes;
    r->named_path_failed = st->named_path_failed;
    r->start.kind = r->end.kind = AZ_TIME_NONE;
    if (st->have_run_clock) {
        r->start.kind = r->end.kind = st->clock_kind;
        r->start.usec = st->run_start;
        r->end.usec = st->run_end;
    }
    r->context = st->ctx;
    memset(&st->ctx, 0, sizeof st->ctx);
    r->nhosts = st->nhosts;
    r->hosts = az_xcalloc(st->nhosts ? st->nhosts : 1, sizeof *r->hosts);
    for (size_t i = 0; i < st->nhosts; i++) {
        r->hosts[i] = st->hosts[i];
        st->hosts[i] = NULL;
    }
    st->nhosts = 0;
    qsort(r->hosts, r->nhosts, sizeof *r->hosts, str_cmp);
    return r;
}

static void evidence_free(struct corr_evidence *e)
{
    free(e->path);
    free(e->lane);
    free(e->text);
    free(e->note);
}

void corr_result_free(struct corr_result *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nfindings; i++) {
        struct corr_finding *f = &r->findings[i];
        free(f->summary);
        for (size_t k = 0; k < f->nevidence; k++) evidence_free(&f->evidence[k]);
        free(f->evidence);
    }
    free(r->findings);
    for (size_t i = 0; i < r->npossible; i++) evidence_free(&r->possible[i].seen);
    free(r->possible);
    if (r->first_error) evidence_free(r->first_error);
    free(r->first_error);
    free(r->codes);
    if (r->outcome_at) evidence_free(r->outcome_at);
    free(r->outcome_at);
    for (size_t i = 0; i < r->nevents; i++) {
        free(r->timeline[i].path);
        free(r->timeline[i].lane);
        free(r->timeline[i].label);
    }
    free(r->timeline);
    for (size_t i = 0; i < r->nruled_out; i++) free(r->ruled_out[i].reason);
    free(r->ruled_out);
    for (size_t i = 0; i < r->ninputs; i++) {
        free(r->inputs[i].path);
        free(r->inputs[i].compression);
    }
    free(r->inputs);
    for (size_t i = 0; i < r->nskipped; i++) {
        free(r->skipped[i].path);
        free(r->skipped[i].reason);
    }
    free(r->skipped);
    for (size_t i = 0; i < r->nseries; i++) {
        free(r->series[i].name);
        free(r->series[i].unit);
        free(r->series[i].path);
        free(r->series[i].lane);
        free(r->series[i].points);
        free(r->series[i].mark_label);
    }
    free(r->series);
    for (size_t i = 0; i < r->nwarnings; i++) free(r->warnings[i]);
    free(r->warnings);
    free(r->context.gpu_name);
    free(r->context.arch);
    free(r->context.cuda_driver);
    free(r->context.cuda_torch);
    for (size_t i = 0; i < r->nhosts; i++) free(r->hosts[i]);
    free(r->hosts);
    free(r);
}
