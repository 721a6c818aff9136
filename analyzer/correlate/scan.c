/* correlate/scan.c - the driver: walk -> members -> records -> tokenize -> match -> collectors. */
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

void corr_config_default(struct corr_config *c, const struct match_pack *pack)
{
    memset(c, 0, sizeof *c);
    c->pack = pack;
    ingest_options_default(&c->ingest);
    c->threshold = 0.35;
    c->run_expand_cap = 0;
    c->threads = 1;
}

/* Everything the hit callback needs about the current record. Level and lane are parsed at the
 * record's first hit only: most records match nothing and never need them. */
struct feed_ctx {
    struct corr_state *st;
    size_t file;
    const char *p;
    size_t len;
    const struct corr_stamp *stamp;
    struct corr_rec proto; /* fields only; lane/text point into the record, never freed */
    int smi_kind;
    int have_level, have_lane;
    char lane[CORR_LANE_MAX];
};

static void need_level(struct feed_ctx *c)
{
    if (c->have_level) return;
    c->proto.level = (int)tok_parse_level(c->p, c->len);
    c->have_level = 1;
}

static void need_lane(struct feed_ctx *c)
{
    if (c->have_lane) return;
    const struct corr_file *f = &c->st->files[c->file];
    if (!tok_lane_from(&c->stamp->src, c->p, c->len, c->lane, sizeof c->lane))
        memcpy(c->lane, f->lane, sizeof c->lane);
    c->proto.lane = c->lane;
    c->have_lane = 1;
}

static const struct match_fact *fact_at(const struct match_hit *hit, int i)
{
    if (i < 0 || (size_t)i >= hit->nfacts) return NULL;
    return hit->facts[i].val ? &hit->facts[i] : NULL;
}

static void on_hit(void *vctx, const struct match_hit *hit)
{
    struct feed_ctx *c = vctx;
    struct corr_state *st = c->st;
    const struct match_entry *e = hit->sig->entry;
    const struct corr_sigfx *fx = &st->sigfx[hit->sig->index];
    need_lane(c);
    if (e && e->family == MATCH_FAMILY_SERIES) {
        /*
         * Series are averaged into points of `stride` raw samples (doubling as they fill) and cut
         * to CORR_SERIES_MAX points at the end, so once a signature's series is dense its regex
         * need only run on about CORR_SAMPLE_DIV records per kept point; each sample then stands
         * for `every` records, which keeps the points evenly spaced.
         */
        size_t i = hit->sig->index;
        size_t w = st->samp_every[i] ? st->samp_every[i] : 1;
        size_t stride = corr_series_hit_mapped(st, c->file, c->proto.lane, hit, fx->series,
                                               c->proto.line, c->proto.raw, c->smi_kind, w);
        st->samp_hits[i]++;
        st->samp_every[i] = (uint32_t)AZ_MAX(stride / CORR_SAMPLE_DIV, (size_t)1);
        return;
    }
    need_level(c);
    corr_sig_keep(st, hit, &c->proto, c->p, c->len);
    /* Context hits may carry numbers too (the preflight's "G4 INFO: 45, 11.17 W"). */
    corr_series_hit_mapped(st, c->file, c->proto.lane, hit, fx->series, c->proto.line, c->proto.raw,
                           c->smi_kind, 1);
    const struct match_fact *h = fact_at(hit, fx->hostname);
    if (!h) h = fact_at(hit, fx->host);
    if (h && h->val && h->len) corr_host_add(st, h->val, h->len);
    const struct match_fact *q = fact_at(hit, fx->quant);
    if (q && q->val && q->len) {
        struct corr_file *f = &st->files[c->file];
        if (!f->quant[0]) {
            size_t n = AZ_MIN(q->len, sizeof f->quant - 1);
            for (size_t i = 0; i < n; i++) {
                char ch = q->val[i];
                f->quant[i] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
            }
            f->quant[n] = '\0';
        }
    }
}

/*
 * A series signature whose literal occurs on many records of a member without it ever matching
 * (a generic throughput regex on lines a more specific one takes) is sampled too: one candidate
 * in pow2(misses / CORR_SAMPLE_MISS), at most CORR_SAMPLE_MISS_MAX, so a format that starts
 * matching later in the member is still seen; its first hit hands over to the stride rule in
 * on_hit(). Run every few thousand records: cheap, and deterministic. CORR_SAMPLE_MISS is 1024
 * (it was 16384): vLLM's generic tokens/s regex on the metrics lines a specific one takes cost
 * 1.1 us a line and ran on 49 k of 65 k candidates of a 64 MB log; now on ~1 in 64 after 128 k.
 */
static void sampling_refresh(struct corr_state *st)
{
    for (size_t k = 0; k < st->nseries_sigs; k++) {
        uint32_t i = st->series_sigs[k];
        if (st->samp_every[i] == MATCH_SAMPLE_NEVER) continue;
        if (st->samp_hits[i] || st->samp_seen[i] < 2 * (uint64_t)CORR_SAMPLE_MISS) continue;
        uint32_t every = 1;
        while (every < CORR_SAMPLE_MISS_MAX &&
               (uint64_t)every * 2 * CORR_SAMPLE_MISS <= st->samp_seen[i])
            every *= 2;
        st->samp_every[i] = every;
    }
}

/* A lane label names a host unless it is a rank/worker label ("rank1", "default0", "3"). */
static void lane_host(struct corr_state *st, const char *lane, size_t n)
{
    size_t h = 0;
    while (h < n && lane[h] != '/') h++;
    if (!h) return;
    static const char *const not_host[] = {"rank", "default", "local", "gpu", "worker", "node"};
    for (size_t i = 0; i < AZ_ARRAY_LEN(not_host); i++) {
        size_t pl = strlen(not_host[i]);
        if (h >= pl && !memcmp(lane, not_host[i], pl)) {
            size_t k = pl;
            while (k < h &&
                   ((lane[k] >= '0' && lane[k] <= '9') || lane[k] == ' ' || lane[k] == '_'))
                k++;
            if (k == h) return;
        }
    }
    size_t d = 0;
    while (d < h && lane[d] >= '0' && lane[d] <= '9') d++;
    if (d == h) return;
    corr_host_add(st, lane, h);
}

static void clock_update(struct corr_file *f, struct az_time t)
{
    if (f->first_time.kind == AZ_TIME_NONE) f->first_time = t;
    switch (t.kind) {
    case AZ_TIME_ABS:
        if (!f->has_abs || t.usec < f->abs_min) f->abs_min = t.usec;
        if (!f->has_abs || t.usec > f->abs_max) f->abs_max = t.usec;
        f->has_abs = 1;
        break;
    case AZ_TIME_NOYEAR:
        if (!f->has_noyear || t.usec < f->noyear_min) f->noyear_min = t.usec;
        if (!f->has_noyear || t.usec > f->noyear_max) f->noyear_max = t.usec;
        f->has_noyear = 1;
        break;
    case AZ_TIME_BOOT:
        /* An uptime that goes back by more than a second is a new boot. */
        if (f->has_boot && t.usec + 1000000 < f->last_uptime && f->boot_seg + 1 < CORR_BOOT_SEGS)
            f->boot_seg++;
        f->has_boot = 1;
        f->last_uptime = t.usec;
        f->seg_last_uptime[f->boot_seg] = t.usec;
        break;
    case AZ_TIME_NONE: break;
    }
}

/* Keep the latest record so the member's last level and text are known at its end. */
static void keep_last(struct corr_file *f, struct feed_ctx *c)
{
    size_t n = AZ_MIN(c->len, sizeof f->lastrec);
    memcpy(f->lastrec, c->p, n);
    f->lastrec_len = n;
    f->lastrec_level = -1;
    if (c->len > sizeof f->lastrec) { /* the copy could hide a level word: parse it now */
        need_level(c);
        f->lastrec_level = c->proto.level;
    }
}

static void finish_member_last(struct corr_file *f)
{
    if (!f->records) return;
    size_t n = AZ_MIN(f->lastrec_len, sizeof f->last_text - 1);
    memcpy(f->last_text, f->lastrec, n);
    f->last_text[n] = '\0';
    f->last_level =
        f->lastrec_level >= 0 ? f->lastrec_level : (int)tok_parse_level(f->lastrec, f->lastrec_len);
}

/* The member's first record (its line and text) and its last line. */
static void note_position(struct corr_file *f, const struct ingest_line *line)
{
    if (!f->first_line) {
        f->first_line = line->lineno;
        size_t n = AZ_MIN(line->len, sizeof f->first_text - 1);
        memcpy(f->first_text, line->text, n);
        f->first_text[n] = '\0';
    }
    f->last_line = line->lineno;
}

/*
 * An empty record (a blank line, a lone CR, a line that held only escape sequences) has no time,
 * no words for a signature (every literal has MATCH_MIN_LITERAL bytes or more) and no columns:
 * it is counted and moves the member's last line, as feed_record() would, without its
 * per-record setup, so a bomb of empty lines costs a few instructions each. An nvidia-smi CSV
 * still reads it, as a row of empty columns.
 */
static void feed_empty(struct corr_state *st, size_t fi, const struct ingest_line *line)
{
    struct corr_file *f = &st->files[fi];
    uint64_t seq = f->records++;
    if (f->kind == TOK_KIND_SMI_CSV)
        corr_series_record(st, fi, line->text, 0, line->lineno, f->last_time, 0);
    if ((seq & 4095) == 4095) sampling_refresh(st);
    note_position(f, line);
    f->lastrec_len = 0;
    f->lastrec_level = -1;
}

/* n more empty records after one fed by feed_empty(), the last on line last_line: the same as
 * n feed_empty() calls, for a member that is not an nvidia-smi CSV. sampling_refresh() reads
 * nothing an empty record changes, so one call stands for every refresh the n would make. */
static void feed_empty_run(struct corr_state *st, size_t fi, uint64_t n, uint64_t last_line)
{
    struct corr_file *f = &st->files[fi];
    uint64_t seq = f->records;
    f->records += n;
    if ((seq + n) / 4096 > seq / 4096) sampling_refresh(st); /* some seq % 4096 == 4095 */
    f->last_line = last_line;
}

/* After an empty record, the empty records that follow it in bulk (at most max); 0 when the
 * member must see each (an nvidia-smi CSV reads empty rows). */
static uint64_t empty_run(const struct corr_state *st, size_t fi, struct ingest_reader *r,
                          uint64_t max, uint64_t *last_line)
{
    if (st->files[fi].kind == TOK_KIND_SMI_CSV) return 0;
    return ingest_reader_skip_empty(r, max, last_line);
}

/* One record into st. A pipe worker may have stamped it (stamp and its lane text) and prepared
 * its matching (record mi of mb); what it did not, happens here. */
static void feed_record(struct corr_state *st, struct match_scanner *scanner, size_t fi,
                        const struct ingest_line *line, const struct corr_stamp *stamp,
                        const char *stamp_lane, const struct match_batch *mb, size_t mi)
{
    struct corr_file *f = &st->files[fi];
    const char *p = line->text;
    size_t len = line->len;
    uint64_t seq = f->records++;
    struct feed_ctx c;
    struct corr_stamp local;
    if (!stamp) {
        corr_stamp_record(f->kind, p, len, &local, c.lane);
        stamp = &local;
    } else if (stamp->lane_len) {
        memcpy(c.lane, stamp_lane, stamp->lane_len);
        c.lane[stamp->lane_len] = '\0';
    }
    struct az_time t = stamp->t;
    int own = t.kind != AZ_TIME_NONE;
    if (own) {
        clock_update(f, t);
        f->last_time = t;
    } else {
        t = f->last_time;
    }
    if (stamp->boot_marker) {
        f->boot_markers++;
        if (own && t.kind != AZ_TIME_BOOT && f->nboot_abs < CORR_BOOT_SEGS)
            f->boot_abs[f->nboot_abs++] = t;
    }

    c.st = st;
    c.file = fi;
    c.p = p;
    c.len = len;
    c.stamp = stamp;
    c.smi_kind = corr_is_smi_kind(f->kind);
    c.have_level = c.have_lane = 0;
    memset(&c.proto, 0, sizeof c.proto);
    c.proto.file = fi;
    c.proto.line = line->lineno;
    c.proto.seq = seq;
    c.proto.raw = t;
    c.proto.inherited = !own;
    c.proto.boot_seg = t.kind == AZ_TIME_BOOT ? f->boot_seg : 0;
    c.proto.lane = f->lane;
    if (stamp->may_name) {
        if (stamp->lane_len)
            lane_host(st, c.lane, stamp->lane_len);
        else
            memcpy(c.lane, f->lane, sizeof c.lane);
        c.proto.lane = c.lane;
        c.have_lane = 1;
    }

    if (stamp->src.ip.len && (size_t)stamp->src.ip.off + stamp->src.ip.len <= len)
        corr_remote_add(st, p + stamp->src.ip.off, stamp->src.ip.len);

    corr_series_record(st, fi, p, len, line->lineno, t, own);
    if ((seq & 4095) == 4095) sampling_refresh(st);

    /* a run record's fields describe the run: no signature sees them (tok.h) */
    if (f->kind == TOK_KIND_RUN_RECORD && corr_outcome_run_line(st, fi, p, len, line->lineno)) {
        note_position(f, line);
        keep_last(f, &c);
        return;
    }
    /* Signatures see the message, not the prefixes around it (see tok.h); evidence keeps the
     * whole record. */
    const char *body = p + stamp->src.body;
    if (mb)
        match_scanner_replay(scanner, mb, mi, body, stamp->src.body_len, &st->sampling, on_hit, &c);
    else
        match_scanner_scan_sampled(scanner, f->kind, body, stamp->src.body_len, &st->sampling,
                                   on_hit, &c);

    f = &st->files[fi]; /* the callbacks never grow files, but stay safe */
    note_position(f, line);
    keep_last(f, &c);
}

/* feed_record(), or feed_empty() for an empty record (kept apart: a bomb of empty records then
 * pays for no more than feed_empty()'s few stores). */
static void feed(struct corr_state *st, struct match_scanner *scanner, size_t fi,
                 const struct ingest_line *line, const struct corr_stamp *stamp,
                 const char *stamp_lane, const struct match_batch *mb, size_t mi)
{
    if (line->len)
        feed_record(st, scanner, fi, line, stamp, stamp_lane, mb, mi);
    else
        feed_empty(st, fi, line);
}

/* "display: reason" -> path, reason; display may itself hold ':' (archive members). */
static void split_error(const char *err, const char *display, const char **path_end,
                        const char **reason)
{
    size_t dl = strlen(display);
    const char *from = !strncmp(err, display, dl) ? err + dl : err;
    const char *sep = strstr(from, ": ");
    if (!sep) {
        *path_end = NULL;
        *reason = err;
        return;
    }
    *path_end = sep;
    *reason = sep + 2;
}

static void member_failed(struct corr_state *st, const char *err, const char *display)
{
    const char *pe, *reason;
    split_error(err, display, &pe, &reason);
    char *path = pe ? az_xstrndup(err, (size_t)(pe - err)) : az_xstrdup(display);
    corr_skip_add(st, path, reason);
    corr_warn(st, "%s: %s", path, reason);
    free(path);
}

/* What reading a member's records came to. */
struct member_tally {
    uint64_t cut, bytes;
    enum az_status end; /* the reader's last status: AZ_EOF, or AZ_FAIL when the member broke */
    int capped;         /* the run's decompressed-bytes cap stopped it */
};

/* Count one record against the run's cap; 1 when the member must stop after it. */
static int tally_record(struct corr_state *st, struct member_tally *t, const struct ingest_line *l,
                        const char *display)
{
    if (l->cut) t->cut++;
    t->bytes += l->len + 1;
    uint64_t cap = st->cfg->run_expand_cap;
    if (cap && st->bytes + t->bytes > cap) {
        st->expand_capped = 1;
        corr_warn(st, "%s: run decompressed-bytes cap reached, rest not read", display);
        t->capped = 1;
    }
    return t->capped;
}

static void feed_member(struct corr_state *st, struct match_scanner *scanner,
                        struct ingest_reader *r, size_t fi, const char *display,
                        struct member_tally *t)
{
    struct ingest_line line;
    while ((t->end = ingest_reader_next_line(r, &line)) == AZ_OK || t->end == AZ_WARN) {
        feed(st, scanner, fi, &line, NULL, NULL, NULL, 0);
        if (tally_record(st, t, &line, display)) return;
        if (line.len || st->cfg->run_expand_cap) continue; /* a capped run stops at a record */
        uint64_t last, n = empty_run(st, fi, r, UINT64_MAX, &last);
        if (!n) continue;
        feed_empty_run(st, fi, n, last);
        t->bytes += n; /* tally_record()'s len + 1 each */
    }
}

/* feed_member() with the records stamped and matched ahead by pp's workers, batch by batch, in
 * order. Every batch of the member is replayed before it returns. */
static void feed_member_piped(struct corr_state *st, struct match_scanner *scanner,
                              struct corr_pipe *pp, struct ingest_reader *r, size_t fi,
                              const char *display, struct member_tally *t)
{
    int ended = 0;
    enum tok_kind kind = st->files[fi].kind;
    for (;;) {
        while (!ended && corr_pipe_free_slots(pp)) {
            struct corr_batch *b = corr_pipe_next(pp);
            b->kind = kind;
            struct ingest_line line;
            for (;;) {
                t->end = ingest_reader_next_line(r, &line);
                if (t->end != AZ_OK && t->end != AZ_WARN) {
                    ended = 1;
                    break;
                }
                int room = corr_batch_add(b, &line);
                if (!line.len) { /* the empty records after it ride on it */
                    struct corr_batch_rec *rec = &b->recs[b->nrecs - 1];
                    rec->empty_run = empty_run(st, fi, r, UINT64_MAX, &rec->empty_last);
                }
                if (!room) break;
            }
            corr_pipe_submit(pp);
        }
        if (!corr_pipe_in_flight(pp)) return;
        struct corr_batch *b = corr_pipe_oldest(pp);
        for (size_t i = 0; i < b->nrecs && !t->capped; i++) {
            const struct corr_batch_rec *rec = &b->recs[i];
            struct ingest_line line = {b->text + rec->off, rec->len, rec->lineno, rec->cut};
            /* b->lanes stays NULL until a record of the batch names a lane */
            const char *lane = rec->stamp.lane_len ? b->lanes + rec->lane_off : NULL;
            feed(st, scanner, fi, &line, &rec->stamp, lane, b->mb, i);
            tally_record(st, t, &line, display);
            if (rec->empty_run) {
                feed_empty_run(st, fi, rec->empty_run, rec->empty_last);
                t->bytes += rec->empty_run;
            }
        }
        corr_pipe_release(pp);
        if (t->capped) ended = 1; /* replay what is in flight, read no more */
    }
}

void corr_scan_input(struct corr_state *st, struct match_scanner *scanner, struct corr_pipe *pp,
                     const char *path, const char *display, const struct ingest_options *opts)
{
    struct ingest_reader *r = NULL;
    if (ingest_reader_open(&r, path, display, opts) != AZ_OK) {
        member_failed(st, ingest_reader_error(r), display);
        ingest_reader_free(r);
        return;
    }
    struct ingest_member m;
    enum az_status st_m;
    uint64_t cap = st->cfg->run_expand_cap;
    while ((st_m = ingest_reader_next_member(r, &m)) != AZ_EOF && st_m != AZ_FATAL) {
        if (st_m == AZ_FAIL) {
            member_failed(st, ingest_reader_error(r), display);
            continue;
        }
        if (cap && st->bytes >= cap) {
            if (!st->expand_capped)
                corr_warn(st, "%s: run decompressed-bytes cap reached, later inputs not read",
                          m.display);
            st->expand_capped = 1;
            corr_skip_add(st, m.display, "run decompressed-bytes cap reached");
            continue;
        }
        enum tok_kind kind =
            tok_classify(match_pack_vocab(st->cfg->pack), m.name, m.head, m.head_len);
        size_t fi = corr_file_begin(st, &m, kind);
        match_scanner_begin_stream(scanner); /* "after" looks back within one file */
        uint64_t bytes0 = ingest_reader_stats(r)->bytes_out;
        struct member_tally t = {0, 0, AZ_EOF, 0};
        /* a capped run stops at a record, and the bytes read ahead would show: no pipe then */
        if (pp && !cap)
            feed_member_piped(st, scanner, pp, r, fi, m.display, &t);
        else
            feed_member(st, scanner, r, fi, m.display, &t);
        uint64_t cut = t.cut, mbytes = t.bytes;
        struct corr_file *f = &st->files[fi];
        finish_member_last(f);
        if (t.end == AZ_FAIL) {
            f->broken = 1;
            corr_warn(st, "%s", ingest_reader_error(r));
        }
        if (cut)
            corr_warn(st, "%s: %llu record%s cut at the line-length cap (--max-line)", f->display,
                      (unsigned long long)cut, cut == 1 ? "" : "s");
        uint64_t delta = ingest_reader_stats(r)->bytes_out - bytes0;
        f->bytes = delta ? delta : mbytes;
        st->records += f->records;
        st->bytes += f->bytes;
        az_grow((void **)&st->inputs, &st->capinputs, st->ninputs + 1, sizeof *st->inputs);
        struct corr_input *in = &st->inputs[st->ninputs++];
        in->path = az_xstrdup(f->display);
        in->kind = tok_kind_name(kind);
        in->bytes = f->bytes;
        in->records = f->records;
        in->compression = az_xstrdup(f->compression);
    }
    if (st_m == AZ_FATAL) member_failed(st, ingest_reader_error(r), display);
    ingest_reader_free(r);
}

struct walk_order {
    const struct ingest_entry *e;
};

static int walk_order_cmp(const void *a, const void *b)
{
    const struct ingest_entry *x = ((const struct walk_order *)a)->e;
    const struct ingest_entry *y = ((const struct walk_order *)b)->e;
    int c = strcmp(x->display, y->display);
    return c ? c : strcmp(x->path, y->path);
}

enum az_status corr_analyze(const struct corr_config *cfg, struct match_scanner *scanner,
                            const char *const *paths, size_t npaths, struct corr_result **out)
{
    struct corr_state *st = corr_state_new(cfg);
    struct corr_pipe *pp = cfg->threads > 1 && !cfg->run_expand_cap
                               ? corr_pipe_new(cfg->pack, cfg->threads - 1, cfg->ingest.max_line)
                               : NULL;
    struct ingest_walk *w = NULL;
    if (ingest_walk_paths(paths, npaths, &w) != AZ_OK) st->named_path_failed = 1;
    if (w) {
        const char *err = ingest_walk_error(w);
        while (err && *err) {
            const char *nl = strchr(err, '\n');
            size_t n = nl ? (size_t)(nl - err) : strlen(err);
            if (n) corr_warn(st, "%.*s", (int)n, err);
            err += n + (nl ? 1 : 0);
        }
        for (size_t i = 0; i < ingest_walk_skip_count(w); i++) {
            const struct ingest_skip *s = ingest_walk_skip(w, i);
            corr_skip_add(st, s->path, s->reason);
            corr_warn(st, "%s: %s", s->path, s->reason);
        }
        /* The walk sorts within a root; sort across roots too, so argument order never matters. */
        size_t n = ingest_walk_count(w);
        struct walk_order *ord = az_xcalloc(n ? n : 1, sizeof *ord);
        for (size_t i = 0; i < n; i++) ord[i].e = ingest_walk_entry(w, i);
        qsort(ord, n, sizeof *ord, walk_order_cmp);
        for (size_t i = 0; i < n; i++) {
            if (i && !strcmp(ord[i].e->display, ord[i - 1].e->display) &&
                !strcmp(ord[i].e->path, ord[i - 1].e->path))
                continue; /* the same file named twice */
            corr_scan_input(st, scanner, pp, ord[i].e->path, ord[i].e->display, &cfg->ingest);
        }
        free(ord);
        ingest_walk_free(w);
    }
    if (pp && cfg->probe_stats) corr_pipe_probe_stats(pp, cfg->probe_stats);
    corr_pipe_free(pp);
    struct az_buf lim = AZ_BUF_INIT;
    if (match_scanner_limit_hits(scanner, &lim) && lim.len) {
        const char *s = lim.data;
        while (*s) {
            const char *nl = strchr(s, '\n');
            size_t n = nl ? (size_t)(nl - s) : strlen(s);
            if (n)
                corr_warn(st, "signature %.*s: PCRE2 match limit hit, treated as no match", (int)n,
                          s);
            s += n + (nl ? 1 : 0);
        }
    }
    az_buf_free(&lim);
    *out = corr_state_finish(st);
    corr_state_free(st);
    return AZ_OK;
}
