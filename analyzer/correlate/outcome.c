/* correlate/outcome.c - how the run ended, from evidence the correlator already holds: the exit
 * status a run record states (gotcha record's run.txt, tok.h), its error records, the end markers
 * the pack names (context entries with "outcome": "completed": HF Trainer's final metrics,
 * uvicorn's "Application shutdown complete." ...) and the last record of every member. A
 * recorded exit status decides alone: not 0 is failed, 0 is completed, whatever the logs show
 * (the process said how it ended). Without one, the rule, in order:
 *   failed     an error record and no end marker after the latest of them. Error records: the
 *              error lines among the kept hits of strong (or decisive) gotcha and common
 *              signatures; of weak common ones (a Python exception) in job logs only, since a
 *              diagnostic dump quotes such lines from checks ("ls: cannot access ..."); and a
 *              job log's last record when it states ERROR or FATAL (a job that logs why it
 *              stops: "ERROR trainer: ... aborting run");
 *   completed  an end marker, and no error record after the latest one;
 *   cut-off    neither, and the run has a job log (train, stderr, vllm, nccl member): it stops
 *              with no error and no end marker, so the log was cut mid-run (a hang, a kill that
 *              left no line, a reboot, a copy taken while it ran);
 *   unknown    neither, and only snapshots (nvidia-smi, pip, dmesg, collect_env, notes) were read.
 * Knowledge stays in the pack: which lines end a run is data; this file only orders records. */
#include <stdint.h>
#include <string.h>

#include "correlate/corr_private.h"

const char *corr_outcome_name(enum corr_outcome o)
{
    switch (o) {
    case CORR_OUTCOME_FAILED: return "failed";
    case CORR_OUTCOME_COMPLETED: return "completed";
    case CORR_OUTCOME_CUT_OFF: return "cut-off";
    case CORR_OUTCOME_UNKNOWN: return "unknown";
    }
    return "unknown";
}

/* Members a running job writes as it goes; the others are snapshots taken once. */
static int is_job_log(enum tok_kind k)
{
    return k == TOK_KIND_TRAIN || k == TOK_KIND_STDERR || k == TOK_KIND_VLLM || k == TOK_KIND_NCCL;
}

struct pick {
    const struct corr_state *st;
    const struct corr_rec *first, *last; /* earliest and latest in timeline order */
};

static void pick_rec(struct pick *p, const struct corr_rec *r)
{
    if (!p->first || corr_rec_cmp(p->st, r, p->first) < 0) p->first = r;
    if (!p->last || corr_rec_cmp(p->st, r, p->last) > 0) p->last = r;
}

static void error_visit(void *ctx, const struct corr_rec *r)
{
    struct pick *p = ctx;
    if (!corr_rec_is_error(r)) return;
    if (r->sig && r->sig->strength < MATCH_STRONG &&
        (r->file >= p->st->nfiles || !is_job_log(p->st->files[r->file].kind)))
        return;
    pick_rec(p, r);
}

static void any_visit(void *ctx, const struct corr_rec *r)
{
    pick_rec(ctx, r);
}

/* The last record of member i as a record of the timeline (its text is the kept prefix). */
static void last_record(const struct corr_state *st, size_t i, struct corr_rec *out)
{
    const struct corr_file *f = &st->files[i];
    memset(out, 0, sizeof *out);
    out->file = i;
    out->line = f->last_line;
    out->seq = UINT64_MAX; /* after every kept hit of the same line */
    out->level = f->last_level;
    out->text = (char *)(uintptr_t)f->last_text; /* borrowed; never freed through this copy */
    int approx = 0;
    out->time = corr_timeline_map(st, i, f->last_time,
                                  f->last_time.kind == AZ_TIME_BOOT ? f->boot_seg : 0, &approx);
    out->approx = approx;
}

int corr_outcome_run_line(struct corr_state *st, size_t file, const char *p, size_t len,
                          uint64_t line)
{
    struct tok_run_exit ex;
    enum tok_run_line kind = tok_run_record_line(p, len, &ex);
    if (kind == TOK_RUN_LINE_FREE) return 0;
    if (kind == TOK_RUN_LINE_EXIT && (!st->have_exit || (st->exit.status == 0 && ex.status))) {
        st->have_exit = 1;
        st->exit = ex;
        size_t n = AZ_MIN(len, sizeof st->exit_text - 1);
        memcpy(st->exit_text, p, n);
        st->exit_text[n] = '\0';
        memset(&st->exit_rec, 0, sizeof st->exit_rec);
        st->exit_rec.file = file;
        st->exit_rec.line = line;
        st->exit_rec.text = st->exit_text;
    }
    return 1;
}

/* The outcome a run record's exit status states. */
static void recorded_outcome(const struct corr_state *st, struct corr_result *r)
{
    r->outcome = st->exit.status ? CORR_OUTCOME_FAILED : CORR_OUTCOME_COMPLETED;
    r->exit_recorded = 1;
    r->exit_status = st->exit.status;
    r->exit_signal = st->exit.signal;
    r->outcome_at = az_xcalloc(1, sizeof *r->outcome_at);
    corr_evidence_from_rec(st, &st->exit_rec, NULL, r->outcome_at);
}

void corr_outcome(const struct corr_state *st, struct corr_result *r)
{
    if (st->have_exit) {
        recorded_outcome(st, r);
        return;
    }
    struct pick err = {st, NULL, NULL}, end = {st, NULL, NULL}, tail = {st, NULL, NULL};
    for (size_t s = 0; s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        const struct match_entry *e = sig->entry;
        if (e->ends_run)
            corr_sig_each(st, s, any_visit, &end);
        else if ((e->family == MATCH_FAMILY_GOTCHA && sig->strength >= MATCH_STRONG) ||
                 (e->family == MATCH_FAMILY_COMMON && sig->strength >= MATCH_WEAK))
            corr_sig_each(st, s, error_visit, &err);
    }
    /* job logs: the one that ends last frames the run; one that ends on an ERROR line failed */
    struct corr_rec lasts[2]; /* [0]: latest job-log end; [1]: latest ERROR/FATAL job-log end */
    int have_tail = 0, have_err_tail = 0;
    for (size_t i = 0; i < st->nfiles; i++) {
        if (!st->files[i].records || !is_job_log(st->files[i].kind)) continue;
        struct corr_rec lr;
        last_record(st, i, &lr);
        if (!have_tail || corr_rec_cmp(st, &lr, &lasts[0]) > 0) lasts[0] = lr, have_tail = 1;
        if (lr.level >= TOK_LEVEL_ERROR && (!have_err_tail || corr_rec_cmp(st, &lr, &lasts[1]) > 0))
            lasts[1] = lr, have_err_tail = 1;
    }
    if (have_tail) pick_rec(&tail, &lasts[0]);
    if (have_err_tail) pick_rec(&err, &lasts[1]);

    const struct corr_rec *at = NULL;
    if (err.last && !(end.last && corr_rec_cmp(st, end.last, err.last) > 0)) {
        r->outcome = CORR_OUTCOME_FAILED;
        at = err.first;
    } else if (end.last) {
        r->outcome = CORR_OUTCOME_COMPLETED;
        at = end.last;
    } else if (tail.last) {
        r->outcome = CORR_OUTCOME_CUT_OFF;
        at = tail.last;
    } else {
        r->outcome = CORR_OUTCOME_UNKNOWN;
    }
    if (r->outcome == CORR_OUTCOME_FAILED && r->first_error) {
        /* the report's first error is the failure's evidence (same record, already copied) */
        r->outcome_at = az_xcalloc(1, sizeof *r->outcome_at);
        const struct corr_evidence *fe = r->first_error;
        *r->outcome_at = (struct corr_evidence){az_xstrdup(fe->path),
                                                fe->line,
                                                fe->time,
                                                fe->time_approx,
                                                az_xstrdup(fe->lane),
                                                az_xstrdup(fe->text),
                                                fe->sig,
                                                az_xstrdup(fe->note)};
    } else if (at) {
        r->outcome_at = az_xcalloc(1, sizeof *r->outcome_at);
        corr_evidence_from_rec(st, at, NULL, r->outcome_at);
    }
}
