/*
 * correlate/pipe.c - matching ahead on worker threads while the correlator feeds records.
 *
 * The scan thread cuts a member's records into batches (copies: the reader's buffer is reused)
 * and queues them; workers take them in order of submission and run match_scanner_prepare() on
 * each record; the scan thread waits for the oldest batch, replays it through the correlator and
 * hands the slot back. Only the literal pass and the regexes of non-series signatures run ahead:
 * they depend on nothing but the record, so the result is the same bytes for any number of
 * workers (see match_scanner_replay()). Memory is the fixed ring of slots.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

#define PIPE_BATCH_TEXT ((size_t)256 * 1024) /* bytes of records per batch, before the last */
#define PIPE_BATCH_RECS 4096                 /* records per batch (~100 bytes each) */

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_DONE };

struct corr_pipe {
    pthread_mutex_t mu;
    pthread_cond_t work; /* a slot was queued, or quit */
    pthread_cond_t done; /* a slot was prepared */
    struct corr_batch *slots;
    enum slot_state *state;
    size_t nslots;
    uint64_t queued, taken;    /* batches submitted / picked by a worker, free-running */
    uint64_t filled, replayed; /* the scan thread's own counts: submitted / handed back */
    int quit;
    unsigned nworkers;
    pthread_t *threads;
    struct match_scanner **scanners;
    const struct match_pack *pack;
};

struct worker_arg {
    struct corr_pipe *pp;
    unsigned id;
};

static void prepare_batch(struct match_scanner *sc, struct corr_batch *b)
{
    match_batch_reset(b->mb);
    b->nlanes = 0;
    for (size_t i = 0; i < b->nrecs; i++) {
        struct corr_batch_rec *r = &b->recs[i];
        const char *p = b->text + r->off;
        char lane[CORR_LANE_MAX];
        corr_stamp_record(b->kind, p, r->len, &r->stamp, lane);
        r->lane_off = b->nlanes;
        if (r->stamp.lane_len) {
            az_grow((void **)&b->lanes, &b->cap_lanes, b->nlanes + r->stamp.lane_len, 1);
            memcpy(b->lanes + b->nlanes, lane, r->stamp.lane_len);
            b->nlanes += r->stamp.lane_len;
        }
        match_scanner_prepare(sc, b->kind, p + r->stamp.src.body, r->stamp.src.body_len, b->mb);
    }
}

static void *worker_main(void *varg)
{
    struct worker_arg *a = varg;
    struct corr_pipe *pp = a->pp;
    struct match_scanner *sc = pp->scanners[a->id];
    free(a);
    pthread_mutex_lock(&pp->mu);
    for (;;) {
        while (pp->taken == pp->queued && !pp->quit) pthread_cond_wait(&pp->work, &pp->mu);
        if (pp->taken == pp->queued) break; /* quit, and nothing left */
        size_t i = (size_t)(pp->taken++ % pp->nslots);
        pthread_mutex_unlock(&pp->mu);
        prepare_batch(sc, &pp->slots[i]);
        pthread_mutex_lock(&pp->mu);
        pp->state[i] = SLOT_DONE;
        pthread_cond_broadcast(&pp->done);
    }
    pthread_mutex_unlock(&pp->mu);
    return NULL;
}

struct corr_pipe *corr_pipe_new(const struct match_pack *pack, unsigned workers, size_t max_line)
{
    if (workers == 0) return NULL;
    if (workers > CORR_PIPE_MAX_WORKERS) workers = CORR_PIPE_MAX_WORKERS;
    struct corr_pipe *pp = az_xcalloc(1, sizeof *pp);
    pthread_mutex_init(&pp->mu, NULL);
    pthread_cond_init(&pp->work, NULL);
    pthread_cond_init(&pp->done, NULL);
    pp->pack = pack;
    pp->nslots = 2 * (size_t)workers + 2; /* each worker busy, one being filled, one replayed */
    pp->slots = az_xcalloc(pp->nslots, sizeof *pp->slots);
    pp->state = az_xcalloc(pp->nslots, sizeof *pp->state);
    for (size_t i = 0; i < pp->nslots; i++) {
        struct corr_batch *b = &pp->slots[i];
        b->cap = PIPE_BATCH_TEXT + max_line + 1;
        b->text = az_xmalloc(b->cap);
        b->recs = az_xcalloc(PIPE_BATCH_RECS, sizeof *b->recs);
        b->mb = match_batch_new();
    }
    pp->threads = az_xcalloc(workers, sizeof *pp->threads);
    pp->scanners = az_xcalloc(workers, sizeof *pp->scanners);
    for (unsigned i = 0; i < workers; i++) {
        pp->scanners[i] = match_scanner_new(pack);
        struct worker_arg *a = az_xmalloc(sizeof *a);
        a->pp = pp;
        a->id = i;
        if (pthread_create(&pp->threads[i], NULL, worker_main, a) != 0) {
            free(a);
            match_scanner_free(pp->scanners[i]);
            break; /* fewer workers (resource limits): the same result, slower */
        }
        pp->nworkers++;
    }
    if (pp->nworkers == 0) {
        corr_pipe_free(pp);
        return NULL;
    }
    return pp;
}

void corr_pipe_free(struct corr_pipe *pp)
{
    if (!pp) return;
    pthread_mutex_lock(&pp->mu);
    pp->quit = 1;
    pthread_cond_broadcast(&pp->work);
    pthread_mutex_unlock(&pp->mu);
    for (unsigned i = 0; i < pp->nworkers; i++) {
        pthread_join(pp->threads[i], NULL);
        match_scanner_free(pp->scanners[i]);
    }
    for (size_t i = 0; i < pp->nslots; i++) {
        free(pp->slots[i].text);
        free(pp->slots[i].recs);
        free(pp->slots[i].lanes);
        match_batch_free(pp->slots[i].mb);
    }
    free(pp->slots);
    free(pp->state);
    free(pp->threads);
    free(pp->scanners);
    pthread_cond_destroy(&pp->work);
    pthread_cond_destroy(&pp->done);
    pthread_mutex_destroy(&pp->mu);
    free(pp);
}

void corr_pipe_probe_stats(const struct corr_pipe *pp, struct match_probe_stats *out)
{
    for (unsigned i = 0; i < pp->nworkers; i++) match_scanner_probe_stats(pp->scanners[i], out);
}

size_t corr_pipe_free_slots(const struct corr_pipe *pp)
{
    return pp->nslots - (size_t)(pp->filled - pp->replayed);
}

size_t corr_pipe_in_flight(const struct corr_pipe *pp)
{
    return (size_t)(pp->filled - pp->replayed);
}

struct corr_batch *corr_pipe_next(struct corr_pipe *pp)
{
    struct corr_batch *b = &pp->slots[pp->filled % pp->nslots];
    b->len = 0;
    b->nrecs = 0;
    return b;
}

int corr_batch_add(struct corr_batch *b, const struct ingest_line *line)
{
    struct corr_batch_rec *r = &b->recs[b->nrecs++];
    r->off = b->len;
    r->len = line->len;
    r->lineno = line->lineno;
    r->cut = line->cut;
    r->empty_run = 0;
    memcpy(b->text + b->len, line->text, line->len); /* len <= max_line */
    b->len += line->len;
    return b->len < PIPE_BATCH_TEXT && b->nrecs < PIPE_BATCH_RECS;
}

void corr_pipe_submit(struct corr_pipe *pp)
{
    pthread_mutex_lock(&pp->mu);
    pp->state[pp->filled++ % pp->nslots] = SLOT_QUEUED;
    pp->queued++;
    pthread_cond_signal(&pp->work);
    pthread_mutex_unlock(&pp->mu);
}

struct corr_batch *corr_pipe_oldest(struct corr_pipe *pp)
{
    size_t i = (size_t)(pp->replayed % pp->nslots);
    pthread_mutex_lock(&pp->mu);
    while (pp->state[i] != SLOT_DONE) pthread_cond_wait(&pp->done, &pp->mu);
    pthread_mutex_unlock(&pp->mu);
    return &pp->slots[i];
}

void corr_pipe_release(struct corr_pipe *pp)
{
    pthread_mutex_lock(&pp->mu);
    pp->state[pp->replayed++ % pp->nslots] = SLOT_FREE;
    pthread_mutex_unlock(&pp->mu);
}
