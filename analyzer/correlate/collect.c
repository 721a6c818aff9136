/* correlate/collect.c - keeping what matched: evidence records capped per signature, members,
 * hosts, warnings. See corr_private.h. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

struct corr_state *corr_state_new(const struct corr_config *cfg)
{
    struct corr_state *st = az_xcalloc(1, sizeof *st);
    st->cfg = cfg;
    st->pack = cfg->pack;
    st->nsigs = match_pack_sig_count(cfg->pack);
    st->sigs = az_xcalloc(st->nsigs ? st->nsigs : 1, sizeof *st->sigs);
    st->ctx.placed = -1;
    st->ctx.in_container = -1;
    st->samp_seen = az_xcalloc(st->nsigs ? st->nsigs : 1, sizeof *st->samp_seen);
    st->samp_every = az_xcalloc(st->nsigs ? st->nsigs : 1, sizeof *st->samp_every);
    st->samp_hits = az_xcalloc(st->nsigs ? st->nsigs : 1, sizeof *st->samp_hits);
    st->series_sigs = az_xcalloc(st->nsigs ? st->nsigs : 1, sizeof *st->series_sigs);
    for (size_t i = 0; i < st->nsigs; i++) {
        const struct match_entry *e = match_pack_sig(cfg->pack, i)->entry;
        if (e && e->family == MATCH_FAMILY_SERIES)
            st->series_sigs[st->nseries_sigs++] = (uint32_t)i;
    }
    st->sampling.seen = st->samp_seen;
    st->sampling.every = st->samp_every;
    st->sigfx = az_xcalloc(st->nsigs ? st->nsigs : 1, sizeof *st->sigfx);
    for (size_t i = 0; i < st->nsigs; i++) {
        const struct match_sig *sig = match_pack_sig(cfg->pack, i);
        struct corr_sigfx *fx = &st->sigfx[i];
        fx->hostname = fx->host = fx->quant = -1;
        /* none for a signature without facts (a catalogue code's: most of the pack) */
        fx->series = sig->nfacts ? az_xcalloc(sig->nfacts, 1) : NULL;
        for (size_t k = 0; k < sig->nfacts; k++) {
            const char *name = sig->facts[k].name;
            fx->series[k] = (signed char)corr_series_fact_index(name);
            /* the first capture of a name wins, as match_hit_fact() finds it */
            if (!strcmp(name, "hostname") && fx->hostname < 0) fx->hostname = (int)k;
            if (!strcmp(name, "host") && fx->host < 0) fx->host = (int)k;
            if (!strcmp(name, "quant") && fx->quant < 0) fx->quant = (int)k;
        }
    }
    return st;
}

void corr_rec_clear(struct corr_rec *rec)
{
    if (!rec) return;
    free(rec->lane);
    free(rec->text);
    for (size_t i = 0; i < rec->nfacts; i++) free(rec->facts[i].val);
    free(rec->facts);
    memset(rec, 0, sizeof *rec);
}

void corr_state_free(struct corr_state *st)
{
    if (!st) return;
    for (size_t i = 0; i < st->nsigs; i++) {
        struct corr_sigstat *s = st->sigs[i];
        if (!s) continue;
        for (size_t k = 0; k < s->nfirst; k++) corr_rec_clear(&s->first[k]);
        for (size_t k = 0; k < CORR_KEEP_LAST; k++) corr_rec_clear(&s->last[k]);
        free(s);
    }
    free(st->sigs);
    for (size_t i = 0; st->sigfx && i < st->nsigs; i++) free(st->sigfx[i].series);
    free(st->sigfx);
    free(st->samp_seen);
    free(st->samp_every);
    free(st->samp_hits);
    free(st->series_sigs);
    for (size_t i = 0; i < st->nfiles; i++) {
        free(st->files[i].display);
        free(st->files[i].name);
        free(st->files[i].compression);
    }
    free(st->files);
    for (size_t i = 0; i < st->nseries; i++) {
        free(st->series[i].name);
        free(st->series[i].pts);
        free(st->series[i].mark_label);
    }
    free(st->series);
    for (size_t i = 0; i < st->nhosts; i++) free(st->hosts[i]);
    for (size_t i = 0; i < st->nremote; i++) free(st->remote[i]);
    corr_rec_clear(&st->mem_na_rec);
    corr_rec_clear(&st->thr_rec);
    corr_rec_clear(&st->cache_rec);
    for (size_t i = 0; i < st->ndet; i++) {
        corr_rec_clear(st->det_recs[i]);
        free(st->det_recs[i]);
    }
    free(st->det_recs);
    for (size_t i = 0; i < st->nclaims; i++) {
        free(st->claims[i].note);
        free(st->claims[i].summary);
        free(st->claims[i].reason);
    }
    free(st->claims);
    for (size_t i = 0; i < st->ninputs; i++) {
        free(st->inputs[i].path);
        free(st->inputs[i].compression);
    }
    free(st->inputs);
    for (size_t i = 0; i < st->nskipped; i++) {
        free(st->skipped[i].path);
        free(st->skipped[i].reason);
    }
    free(st->skipped);
    for (size_t i = 0; i < st->nwarnings; i++) free(st->warnings[i]);
    free(st->warnings);
    free(st->ctx.gpu_name);
    free(st->ctx.arch);
    free(st->ctx.cuda_driver);
    free(st->ctx.cuda_torch);
    free(st);
}

size_t corr_file_begin(struct corr_state *st, const struct ingest_member *m, enum tok_kind kind)
{
    az_grow((void **)&st->files, &st->capfiles, st->nfiles + 1, sizeof *st->files);
    struct corr_file *f = &st->files[st->nfiles];
    memset(f, 0, sizeof *f);
    f->display = az_xstrdup(m->display ? m->display : "");
    f->name = az_xstrdup(m->name ? m->name : "");
    f->compression = az_xstrdup(m->compression ? m->compression : "none");
    f->kind = kind;
    tok_lane_from_path(f->display, f->lane, sizeof f->lane);
    f->csv_ncols = -1;
    f->dmon_ncols = -1;
    f->free_cache_col = f->free_total_col = -1;
    for (int i = 0; i < CORR_M_COUNT; i++) f->series_idx[i] = -1;
    /* sampling starts over: a member's series are dense only once it has fed them */
    memset(st->samp_seen, 0, (st->nsigs ? st->nsigs : 1) * sizeof *st->samp_seen);
    memset(st->samp_every, 0, (st->nsigs ? st->nsigs : 1) * sizeof *st->samp_every);
    memset(st->samp_hits, 0, (st->nsigs ? st->nsigs : 1) * sizeof *st->samp_hits);
    /* a series signature whose hits would feed no series here (an epoch, a KV-cache figure, or
     * nvidia-smi figures in an nvidia-smi file, read structurally) is not run at all */
    for (size_t k = 0; k < st->nseries_sigs; k++) {
        uint32_t i = st->series_sigs[k];
        if (!corr_series_sig_feeds(st, i, corr_is_smi_kind(kind)))
            st->samp_every[i] = MATCH_SAMPLE_NEVER;
    }
    return st->nfiles++;
}

const char *corr_file_path(const struct corr_state *st, size_t file)
{
    return file < st->nfiles ? st->files[file].display : "";
}

void corr_warn(struct corr_state *st, const char *fmt, ...)
{
    struct az_buf b = AZ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    az_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    az_grow((void **)&st->warnings, &st->capwarnings, st->nwarnings + 1, sizeof *st->warnings);
    st->warnings[st->nwarnings++] = az_buf_steal(&b);
}

void corr_skip_add(struct corr_state *st, const char *path, const char *reason)
{
    az_grow((void **)&st->skipped, &st->capskipped, st->nskipped + 1, sizeof *st->skipped);
    st->skipped[st->nskipped].path = az_xstrdup(path);
    st->skipped[st->nskipped].reason = az_xstrdup(reason);
    st->nskipped++;
}

void corr_rec_fill(struct corr_rec *rec, size_t file, uint64_t line, uint64_t seq, struct az_time t,
                   int inherited, unsigned boot_seg, int level, const char *lane, const char *p,
                   size_t len, const struct match_hit *hit)
{
    memset(rec, 0, sizeof *rec);
    rec->file = file;
    rec->line = line;
    rec->seq = seq;
    rec->raw = t;
    rec->inherited = inherited;
    rec->boot_seg = boot_seg;
    rec->level = level;
    rec->lane = az_xstrdup(lane ? lane : "");
    rec->text = az_xstrndup(p, AZ_MIN(len, (size_t)CORR_TEXT_MAX));
    if (hit) {
        rec->sig = hit->sig;
        if (hit->nfacts) {
            rec->facts = az_xcalloc(hit->nfacts, sizeof *rec->facts);
            for (size_t i = 0; i < hit->nfacts; i++) {
                const struct match_fact *mf = &hit->facts[i];
                if (!mf->def || !mf->val) continue;
                struct corr_fact_copy *fc = &rec->facts[rec->nfacts++];
                fc->name = mf->def->name;
                fc->val = az_xstrndup(mf->val, AZ_MIN(mf->len, (size_t)256));
                fc->num = mf->def->type == MATCH_FACT_STRING ? NAN : mf->num;
            }
        }
    }
    rec->time = t;
}

void corr_sig_keep(struct corr_state *st, const struct match_hit *hit, const struct corr_rec *proto,
                   const char *p, size_t len)
{
    size_t i = hit->sig->index;
    if (i >= st->nsigs) return;
    struct corr_sigstat *s = st->sigs[i];
    if (!s) s = st->sigs[i] = az_xcalloc(1, sizeof *s);
    s->count++;
    struct corr_rec *slot;
    if (s->nfirst < CORR_KEEP_FIRST) {
        slot = &s->first[s->nfirst++];
    } else {
        slot = &s->last[s->nlast % CORR_KEEP_LAST];
        s->nlast++;
        corr_rec_clear(slot);
    }
    corr_rec_fill(slot, proto->file, proto->line, proto->seq, proto->raw, proto->inherited,
                  proto->boot_seg, proto->level, proto->lane, p, len, hit);
}

void corr_sig_each(const struct corr_state *st, size_t sig, corr_rec_fn fn, void *ctx)
{
    if (sig >= st->nsigs || !st->sigs[sig]) return;
    const struct corr_sigstat *s = st->sigs[sig];
    for (size_t k = 0; k < s->nfirst; k++) fn(ctx, &s->first[k]);
    uint64_t nl = AZ_MIN(s->nlast, (uint64_t)CORR_KEEP_LAST);
    for (uint64_t k = 0; k < nl; k++) {
        uint64_t idx = s->nlast > CORR_KEEP_LAST ? (s->nlast + k) % CORR_KEEP_LAST : k;
        fn(ctx, &s->last[idx]);
    }
}

struct earliest_ctx {
    const struct corr_state *st;
    const struct corr_rec *best;
};

static void earliest_visit(void *vctx, const struct corr_rec *r)
{
    struct earliest_ctx *c = vctx;
    if (!c->best || corr_rec_cmp(c->st, r, c->best) < 0) c->best = r;
}

const struct corr_rec *corr_sig_earliest(const struct corr_state *st, size_t sig)
{
    struct earliest_ctx c = {st, NULL};
    corr_sig_each(st, sig, earliest_visit, &c);
    return c.best;
}

struct corr_rec *corr_det_rec(struct corr_state *st, size_t file, uint64_t line, struct az_time t,
                              const char *text)
{
    az_grow((void **)&st->det_recs, &st->capdet, st->ndet + 1, sizeof *st->det_recs);
    struct corr_rec *r = az_xcalloc(1, sizeof *r);
    const char *lane = file < st->nfiles ? st->files[file].lane : "";
    corr_rec_fill(r, file, line, line, t, 0, 0, TOK_LEVEL_NONE, lane, text, strlen(text), NULL);
    r->time = t;
    st->det_recs[st->ndet++] = r;
    return r;
}

/* Add name to a set of at most CORR_HOSTS_MAX names (hosts, node addresses). */
static void name_set_add(char **set, size_t *n, const char *name, size_t len)
{
    if (!len || len >= CORR_LANE_MAX) return;
    for (size_t i = 0; i < *n; i++)
        if (strlen(set[i]) == len && !memcmp(set[i], name, len)) return;
    if (*n >= CORR_HOSTS_MAX) return;
    set[(*n)++] = az_xstrndup(name, len);
}

void corr_host_add(struct corr_state *st, const char *host, size_t len)
{
    name_set_add(st->hosts, &st->nhosts, host, len);
}

void corr_remote_add(struct corr_state *st, const char *addr, size_t len)
{
    name_set_add(st->remote, &st->nremote, addr, len);
}

const struct corr_fact_copy *corr_rec_fact(const struct corr_rec *r, const char *name)
{
    for (size_t i = 0; i < r->nfacts; i++)
        if (r->facts[i].name && !strcmp(r->facts[i].name, name)) return &r->facts[i];
    return NULL;
}

void corr_evidence_from_rec(const struct corr_state *st, const struct corr_rec *r, const char *note,
                            struct corr_evidence *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->path = az_xstrdup(corr_file_path(st, r->file));
    ev->line = r->line;
    ev->time = r->time;
    ev->time_approx = r->approx;
    ev->lane = az_xstrdup(r->lane ? r->lane : "");
    ev->text = az_xstrdup(r->text ? r->text : "");
    ev->sig = r->sig;
    /* a catalogue shape's own hit is a code its table does not list: say which */
    const struct corr_fact_copy *code =
        !note && r->sig && r->sig->shape_of ? corr_rec_fact(r, "code") : NULL;
    if (code && code->val)
        ev->note = az_xasprintf("%s %s: not in the catalogue", r->sig->shape_of->label, code->val);
    else
        ev->note = az_xstrdup(note ? note : (r->sig && r->sig->summary ? r->sig->summary : ""));
}
