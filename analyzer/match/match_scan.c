/*
 * match/match_scan.c - tag records with the pack's signatures, typed facts, the examples check.
 *
 * Hot path: match_scanner_scan(). One literal pass marks candidate signatures (a per-scanner
 * generation stamp dedupes them without clearing anything per record); only candidates run their
 * regex. Everything it touches was allocated by match_scanner_new().
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/match_private.h"

#define FACT_NUM_MAX 64 /* longest numeric text parsed; longer captures are not numbers */

/* A key signature's records (1-based in the stream; 0: none) of its last hit and the one before. */
struct after_key {
    uint64_t last, prev;
};

struct match_scanner {
    const struct match_pack *p;
    pcre2_match_data *md;      /* sized for the regex with the most groups */
    pcre2_match_context *mctx; /* the pack's limits plus this scanner's JIT stack */
    pcre2_jit_stack *jit_stack;
    uint32_t *stamp;     /* per signature: generation of the last record that marked it */
    uint32_t *lit_stamp; /* per literal: the same, so a literal is reported once */
    uint32_t gen;
    uint32_t *cand; /* marked signatures of the current record */
    size_t ncand;
    uint32_t kind_mask;       /* kinds bit of the current record */
    uint64_t *limit_hits;     /* per signature */
    struct match_fact *facts; /* scratch for one hit */
    struct match_probe_stats ps;
    /* "after": records of the current stream so far (the record being scanned is rec), and a
     * row per key signature (p->nkeys, by key_slot - 1) */
    uint64_t rec;
    struct after_key *keys;
};

/* ---- facts ---- */

/*
 * The common plain decimal ("3.4317", "-12", "1367.6") without strtod(): at most 15 digits and no
 * exponent, hex prefix or thousands separator after them. The digits are an exact integer and
 * 10^k is exact, so one IEEE division rounds exactly as strtod() would (Clinger's fast path).
 * @return 1 with *out and *rest set, 0 when v needs the general path.
 */
static int plain_decimal(const char *v, size_t len, double *out, const char **rest)
{
    static const double pow10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    size_t i = 0;
    int neg = 0;
    if (i < len && (v[i] == '-' || v[i] == '+')) neg = v[i++] == '-';
    uint64_t mant = 0;
    unsigned ndig = 0, nfrac = 0;
    for (int frac = 0; frac < 2; frac++) {
        if (frac && !(i < len && v[i] == '.')) break;
        if (frac) i++;
        while (i < len && v[i] >= '0' && v[i] <= '9' && ndig < 16) {
            mant = mant * 10 + (uint64_t)(v[i++] - '0');
            ndig++;
            nfrac += (unsigned)frac;
        }
    }
    unsigned char next = i < len ? (unsigned char)v[i] : 0;
    if (ndig == 0 || ndig > 15 || (next >= '0' && next <= '9') || next == 'e' || next == 'E' ||
        next == 'x' || next == 'X' || next == ',' || next == '.')
        return 0;
    double d = (double)mant / pow10[nfrac];
    *out = neg ? -d : d;
    *rest = v + i;
    return 1;
}

static double parse_number(const char *v, size_t len, const char **rest)
{
    char buf[FACT_NUM_MAX + 1];
    size_t n = 0;
    while (len > 0 && (*v == ' ' || *v == '\t')) {
        v++;
        len--;
    }
    double fast;
    if (plain_decimal(v, len, &fast, rest)) return fast;
    /* thousands separators ("1,024") are dropped; the copy bounds strtod */
    for (size_t i = 0; i < len && n < FACT_NUM_MAX; i++) {
        if (v[i] == ',' && i > 0 && i + 1 < len && v[i + 1] >= '0' && v[i + 1] <= '9') continue;
        buf[n++] = v[i];
    }
    buf[n] = '\0';
    char *end;
    double d = strtod(buf, &end);
    if (end == buf) return NAN;
    /* map the end back onto v: count kept bytes */
    size_t used = (size_t)(end - buf), i = 0;
    for (size_t kept = 0; i < len && kept < used; i++)
        if (!(v[i] == ',' && i > 0 && i + 1 < len && v[i + 1] >= '0' && v[i + 1] <= '9')) kept++;
    *rest = v + i;
    return d;
}

static int unit_is(const char *u, size_t n, const char *name)
{
    if (strlen(name) != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (match_lower[(uint8_t)u[i]] != (uint8_t)name[i]) return 0;
    return 1;
}

/* "20.00 MiB" -> 20971520; units are binary multiples whatever their spelling ("Gi" is
 * procps' free -h: local/units.c scale_size prints "%.1f%ci"). */
static double parse_bytes(const char *v, size_t len)
{
    const char *rest;
    double d = parse_number(v, len, &rest);
    if (isnan(d)) return d;
    const char *end = v + len;
    while (rest < end && (*rest == ' ' || *rest == '\t')) rest++;
    size_t n = (size_t)(end - rest);
    while (n > 0 && (rest[n - 1] == ' ' || rest[n - 1] == '\t')) n--;
    static const char *const units[][4] = {
        {"", "b", "bytes", "byte"}, {"k", "kb", "kib", "ki"}, {"m", "mb", "mib", "mi"},
        {"g", "gb", "gib", "gi"},   {"t", "tb", "tib", "ti"}, {"p", "pb", "pib", "pi"},
    };
    double mult = 1;
    for (size_t i = 0; i < AZ_ARRAY_LEN(units); i++, mult *= 1024.0)
        for (size_t j = 0; j < AZ_ARRAY_LEN(units[0]); j++)
            if (unit_is(rest, n, units[i][j])) return d * mult;
    return NAN;
}

static void fill_fact(struct match_fact *f, const struct match_fact_def *def, const char *subject,
                      const PCRE2_SIZE *ov, uint32_t group, uint32_t ngroups)
{
    f->def = def;
    f->val = NULL;
    f->len = 0;
    f->num = NAN;
    if (group >= ngroups || ov[2 * group] == PCRE2_UNSET) return;
    f->val = subject + ov[2 * group];
    f->len = ov[2 * group + 1] - ov[2 * group];
    if (def->type == MATCH_FACT_NUMBER) {
        const char *rest;
        f->num = parse_number(f->val, f->len, &rest);
    } else if (def->type == MATCH_FACT_BYTES) {
        f->num = parse_bytes(f->val, f->len);
    }
}

const struct match_fact *match_hit_fact(const struct match_hit *h, const char *name)
{
    for (size_t i = 0; i < h->nfacts; i++)
        if (strcmp(h->facts[i].def->name, name) == 0) return h->facts[i].val ? &h->facts[i] : NULL;
    return NULL;
}

/* ---- running one regex ---- */

/* pcre2 result: > 0 match, PCRE2_ERROR_NOMATCH, or a limit / other error (< 0). */
static int run_regex(const struct match_sig_priv *s, const char *p, size_t len,
                     pcre2_match_data *md, pcre2_match_context *mctx)
{
    if (s->jit) return pcre2_jit_match(s->code, (PCRE2_SPTR)p, len, 0, 0, md, mctx);
    return pcre2_match(s->code, (PCRE2_SPTR)p, len, 0, 0, md, mctx);
}

/* ---- scanner ---- */

struct match_scanner *match_scanner_new(const struct match_pack *p)
{
    struct match_scanner *s = az_xcalloc(1, sizeof(*s));
    s->p = p;
    s->md = pcre2_match_data_create(p->max_groups ? p->max_groups : 1, NULL);
    s->mctx = pcre2_match_context_copy(p->mctx);
    s->jit_stack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL);
    if (!s->md || !s->mctx || !s->jit_stack) az_xmalloc((size_t)-1); /* out of memory */
    pcre2_jit_stack_assign(s->mctx, NULL, s->jit_stack);
    size_t n = p->nsigs ? p->nsigs : 1;
    s->stamp = az_xcalloc(n, sizeof(*s->stamp));
    s->lit_stamp = az_xcalloc(p->search.nlits ? p->search.nlits : 1, sizeof(*s->lit_stamp));
    s->cand = az_xcalloc(n, sizeof(*s->cand));
    s->limit_hits = az_xcalloc(n, sizeof(*s->limit_hits));
    s->facts = az_xcalloc(p->max_facts ? p->max_facts : 1, sizeof(*s->facts));
    s->keys = az_xcalloc(p->nkeys ? p->nkeys : 1, sizeof(*s->keys));
    return s;
}

void match_scanner_begin_stream(struct match_scanner *s)
{
    s->rec = 0;
    memset(s->keys, 0, s->p->nkeys * sizeof(*s->keys));
}

/* An "after" signature's condition on the current record: its key matched in one of the
 * after_within records before it (a hit on this same record is not before it). */
static int after_holds(const struct match_scanner *s, const struct match_sig_priv *sig)
{
    const struct after_key *k = &s->keys[sig->after_slot - 1];
    uint64_t at = k->last == s->rec ? k->prev : k->last;
    if (!at || s->rec - at > sig->pub.after_within) return 0;
    if (!sig->until_slot) return 1;
    /* "until": no line of that signature between the key's and this one */
    const struct after_key *u = &s->keys[sig->until_slot - 1];
    uint64_t end = u->last == s->rec ? u->prev : u->last;
    return end <= at;
}

/* A hit of sig on the current record, for the "after" signatures that name it. */
static void note_key(struct match_scanner *s, const struct match_sig_priv *sig)
{
    if (!sig->key_slot) return;
    struct after_key *k = &s->keys[sig->key_slot - 1];
    if (k->last == s->rec) return;
    k->prev = k->last;
    k->last = s->rec;
}

void match_scanner_free(struct match_scanner *s)
{
    if (!s) return;
    pcre2_match_data_free(s->md);
    pcre2_match_context_free(s->mctx);
    pcre2_jit_stack_free(s->jit_stack);
    free(s->stamp);
    free(s->lit_stamp);
    free(s->cand);
    free(s->limit_hits);
    free(s->facts);
    free(s->keys);
    free(s);
}

/* splitmix64's finaliser: candidate numbers to well-spread bits (see struct match_sampling). */
static inline uint64_t sample_hash(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}

static void mark_literal(void *ctx, const struct match_lit *lit)
{
    struct match_scanner *s = ctx;
    const uint32_t *sigs = s->p->search.lit_sigs + lit->first_sig;
    for (uint32_t i = 0; i < lit->nsigs; i++) {
        uint32_t k = sigs[i];
        if (s->stamp[k] == s->gen) continue;
        s->stamp[k] = s->gen;
        if (s->p->sigs[k]->pub.kinds & s->kind_mask) s->cand[s->ncand++] = k;
    }
}

size_t match_scanner_scan(struct match_scanner *s, enum tok_kind kind, const char *p, size_t len,
                          match_hit_fn fn, void *ctx)
{
    return match_scanner_scan_sampled(s, kind, p, len, NULL, fn, ctx);
}

/* The candidates of one record, in pack order, into s->cand[0 .. s->ncand). */
static void collect_candidates(struct match_scanner *s, enum tok_kind kind, const char *p,
                               size_t len)
{
    const struct match_pack *pk = s->p;
    s->ncand = 0;
    if (len < MATCH_MIN_LITERAL) return; /* no literal fits: blank lines cost nothing */
    if (AZ_UNLIKELY(++s->gen == 0)) {    /* wrapped: old stamps could collide */
        memset(s->stamp, 0, pk->nsigs * sizeof(*s->stamp));
        memset(s->lit_stamp, 0, pk->search.nlits * sizeof(*s->lit_stamp));
        s->gen = 1;
    }
    s->kind_mask = 1u << kind;
    uint64_t lits0 = s->ps.lit_hits;
    match_searcher_run_once(&pk->search, (const uint8_t *)p, len, s->lit_stamp, s->gen, &s->ps,
                            mark_literal, s);
    s->ps.lit_records += (uint64_t)(s->ps.lit_hits != lits0);
    /* pack order: few candidates, insertion sort */
    for (size_t i = 1; i < s->ncand; i++) {
        uint32_t v = s->cand[i];
        size_t j = i;
        for (; j > 0 && s->cand[j - 1] > v; j--) s->cand[j] = s->cand[j - 1];
        s->cand[j] = v;
    }
}

/* 0 when signature k has a gate and the current record holds none of its strings: its regex
 * cannot match (match_derive_gate()), so it is not run. The searcher stamped every literal the
 * record holds, gate strings included. */
static int gate_open(const struct match_scanner *s, uint32_t k)
{
    const struct match_sig_priv *sig = s->p->sigs[k];
    for (size_t g = 0; g < sig->ngate; g++)
        if (s->lit_stamp[sig->gate_lits[g]] == s->gen) return 1;
    return sig->ngate == 0;
}

/* 1 when sampling skips signature k's regex on this candidate (counted either way). */
static int sampled_out(struct match_sampling *smp, uint32_t k)
{
    if (!smp) return 0;
    uint64_t c = smp->seen[k]++;
    uint32_t every = smp->every[k];
    if (every == MATCH_SAMPLE_NEVER) return 1;
    return every > 1 && (sample_hash(c) & (every - 1)) != 0;
}

/* A regex result rc with its ovector: a hit (counted, facts filled, fn called), a miss, or a
 * limit hit (counted, never a match). @return 1 for a hit. */
static int deliver(struct match_scanner *s, uint32_t k, int rc, const PCRE2_SIZE *ov, const char *p,
                   match_hit_fn fn, void *ctx)
{
    if (rc == PCRE2_ERROR_NOMATCH) return 0;
    if (rc < 0) {
        /* match/depth/JIT-stack limit (or a PCRE2 error): counted, never a match */
        s->limit_hits[k]++;
        return 0;
    }
    const struct match_sig_priv *sig = s->p->sigs[k];
    if (sig->after_slot && !after_holds(s, sig)) return 0; /* no key line above it */
    if (!fn && !sig->follow_up) {
        note_key(s, sig);
        return 1;
    }
    for (size_t f = 0; f < sig->pub.nfacts; f++)
        fill_fact(&s->facts[f], &sig->facts[f], p, ov, sig->fact_group[f], (uint32_t)rc);
    /* a catalogue shape's hit stands for its code's signature, which has no facts of its own
     * (the shapes of one catalogue capture different groups; the code says it all) */
    const struct match_sig_priv *as = sig->cat ? match_catalogue_resolve(sig, s->facts) : sig;
    if (!as) return 0; /* a follow-up record of a code that says nothing */
    note_key(s, sig);
    if (!fn) return 1;
    size_t at = ov[0], len = ov[1] - ov[0]; /* a route's regex reuses the match data */
    /* a routed shape's hit stands for the case's signature, with the shape's facts */
    if (sig->nroutes) as = match_route_resolve(sig, s->facts, s->md, s->mctx);
    struct match_hit hit = {&as->pub, at, len, as->pub.code ? 0 : sig->pub.nfacts, s->facts};
    fn(ctx, &hit);
    return 1;
}

size_t match_scanner_scan_sampled(struct match_scanner *s, enum tok_kind kind, const char *p,
                                  size_t len, struct match_sampling *smp, match_hit_fn fn,
                                  void *ctx)
{
    s->rec++;
    collect_candidates(s, kind, p, len);
    size_t nhit = 0;
    for (size_t i = 0; i < s->ncand; i++) {
        uint32_t k = s->cand[i];
        if (sampled_out(smp, k) || !gate_open(s, k)) continue;
        int rc = run_regex(s->p->sigs[k], p, len, s->md, s->mctx);
        s->ps.regex_runs++;
        s->ps.regex_hits += (uint64_t)(rc >= 0);
        nhit += (size_t)deliver(s, k, rc, pcre2_get_ovector_pointer(s->md), p, fn, ctx);
    }
    return nhit;
}

/* ---- matching ahead ---- */

#define RC_DEFERRED INT32_MIN /* a series signature: its regex runs at replay, if sampled in */

struct batch_cand {
    uint32_t sig;
    int32_t rc;  /* run_regex()'s result, or RC_DEFERRED */
    uint32_t ov; /* a hit's 2 * rc ovector entries start at ov[this] */
};

struct match_batch {
    uint32_t *first; /* per record: its candidates are cands[first[i] .. first[i + 1]) */
    size_t nrecs, cap_first;
    struct batch_cand *cands;
    size_t ncands, cap_cands;
    PCRE2_SIZE *ov;
    size_t nov, cap_ov;
};

struct match_batch *match_batch_new(void)
{
    struct match_batch *b = az_xcalloc(1, sizeof(*b));
    match_batch_reset(b);
    return b;
}

void match_batch_reset(struct match_batch *b)
{
    b->nrecs = b->ncands = b->nov = 0;
    az_grow((void **)&b->first, &b->cap_first, 1, sizeof(*b->first));
    b->first[0] = 0;
}

void match_batch_free(struct match_batch *b)
{
    if (!b) return;
    free(b->first);
    free(b->cands);
    free(b->ov);
    free(b);
}

void match_scanner_prepare(struct match_scanner *s, enum tok_kind kind, const char *p, size_t len,
                           struct match_batch *b)
{
    collect_candidates(s, kind, p, len);
    az_grow((void **)&b->cands, &b->cap_cands, b->ncands + s->ncand, sizeof(*b->cands));
    for (size_t i = 0; i < s->ncand; i++) {
        uint32_t k = s->cand[i];
        const struct match_sig_priv *sig = s->p->sigs[k];
        struct batch_cand *c = &b->cands[b->ncands++];
        c->sig = k;
        c->rc = RC_DEFERRED;
        c->ov = 0;
        if (!gate_open(s, k)) { /* known now: replay needs the searcher's stamps for it */
            c->rc = PCRE2_ERROR_NOMATCH;
            continue;
        }
        const struct match_entry *e = sig->pub.entry;
        if (e && e->family == MATCH_FAMILY_SERIES) continue;
        c->rc = run_regex(sig, p, len, s->md, s->mctx);
        s->ps.regex_runs++;
        s->ps.regex_hits += (uint64_t)(c->rc >= 0);
        if (c->rc <= 0) continue;
        size_t n = 2 * (size_t)c->rc;
        az_grow((void **)&b->ov, &b->cap_ov, b->nov + n, sizeof(*b->ov));
        memcpy(b->ov + b->nov, pcre2_get_ovector_pointer(s->md), n * sizeof(*b->ov));
        c->ov = (uint32_t)b->nov;
        b->nov += n;
    }
    az_grow((void **)&b->first, &b->cap_first, b->nrecs + 2, sizeof(*b->first));
    b->first[++b->nrecs] = (uint32_t)b->ncands;
}

size_t match_scanner_replay(struct match_scanner *s, const struct match_batch *b, size_t i,
                            const char *p, size_t len, struct match_sampling *smp, match_hit_fn fn,
                            void *ctx)
{
    size_t nhit = 0;
    s->rec++;
    for (uint32_t j = b->first[i]; j < b->first[i + 1]; j++) {
        const struct batch_cand *c = &b->cands[j];
        if (sampled_out(smp, c->sig)) continue;
        int rc = c->rc;
        const PCRE2_SIZE *ov = NULL; /* b->ov is NULL until a prepared regex matched */
        if (rc == RC_DEFERRED) {
            rc = run_regex(s->p->sigs[c->sig], p, len, s->md, s->mctx);
            s->ps.regex_runs++;
            s->ps.regex_hits += (uint64_t)(rc >= 0);
            ov = pcre2_get_ovector_pointer(s->md);
        } else if (rc > 0) {
            ov = b->ov + c->ov;
        }
        nhit += (size_t)deliver(s, c->sig, rc, ov, p, fn, ctx);
    }
    return nhit;
}

void match_scanner_probe_stats(const struct match_scanner *s, struct match_probe_stats *out)
{
    out->records += s->ps.records;
    out->bytes += s->ps.bytes;
    out->probe_hits += s->ps.probe_hits;
    out->false_probes += s->ps.false_probes;
    out->lit_hits += s->ps.lit_hits;
    out->lit_records += s->ps.lit_records;
    out->regex_runs += s->ps.regex_runs;
    out->regex_hits += s->ps.regex_hits;
}

size_t match_scanner_limit_hits(const struct match_scanner *s, struct az_buf *err)
{
    size_t n = 0;
    for (size_t i = 0; i < s->p->nsigs; i++) {
        if (!s->limit_hits[i]) continue;
        n++;
        if (err)
            az_buf_printf(err, "%s (%llu records hit the PCRE2 match limit)\n",
                          s->p->sigs[i]->pub.id, (unsigned long long)s->limit_hits[i]);
    }
    return n;
}

/* ---- examples ---- */

/* Route cases of s that match example line[0..len) takes (the bit of each, up to 64), with the
 * example's facts filled into facts. */
static uint64_t route_taken(const struct match_scanner *sc, const struct match_sig_priv *s,
                            const char *line, const PCRE2_SIZE *ov, int rc,
                            struct match_fact *facts)
{
    if (!s->nroutes) return 0;
    for (size_t f = 0; f < s->pub.nfacts; f++)
        fill_fact(&facts[f], &s->facts[f], line, ov, s->fact_group[f], (uint32_t)rc);
    const struct match_sig_priv *to = match_route_resolve(s, facts, sc->md, sc->mctx);
    for (size_t k = 0; k < s->nroutes && k < 64; k++)
        if (s->routes[k].sig == &to->pub) return (uint64_t)1 << k;
    return 0;
}

/* Every case of a route is taken by one match example at least (a case no example reaches
 * is untested text). */
static size_t route_check(const struct match_sig_priv *s, uint64_t taken, struct az_buf *report)
{
    size_t fails = 0;
    for (size_t k = 0; k < s->nroutes && k < 64; k++)
        if (s->routes[k].sig && !(taken & ((uint64_t)1 << k))) {
            fails++;
            az_buf_printf(report, "%s: no match example takes route case %zu (to %s)\n", s->pub.id,
                          k, s->routes[k].sig->id);
        }
    return fails;
}

/* What the scan hands the regexes of example line ex (tok_prefix_strip()): its body. */
static const char *example_body(const char *ex, size_t *len)
{
    struct tok_prefix pf;
    tok_prefix_strip(ex, strlen(ex), TOK_PREFIX_MESSAGE, &pf);
    *len = pf.body_len;
    return ex + pf.body;
}

size_t match_pack_check(const struct match_pack *p, struct az_buf *report)
{
    size_t fails = 0;
    struct match_scanner *sc = match_scanner_new(p);
    for (size_t i = 0; i < p->nsigs; i++) {
        const struct match_sig_priv *s = p->sigs[i];
        const char *id = s->pub.id;
        uint64_t taken = 0;
        for (size_t e = 0; e < s->nex_match; e++) {
            /* an example is checked as the scan sees its line: past the line's prefixes */
            size_t len;
            const char *line = example_body(s->ex_match[e], &len);
            int has_lit = 0;
            for (size_t l = 0; l < s->nliterals && !has_lit; l++)
                has_lit = match_contains_lower(line, len, s->literals[l], strlen(s->literals[l]));
            if (!has_lit) {
                fails++;
                az_buf_printf(report, "%s: match example %zu contains none of the literals: %s\n",
                              id, e, line);
            }
            int rc = run_regex(s, line, len, sc->md, sc->mctx);
            if (rc < 0) {
                fails++;
                az_buf_printf(report, "%s: match example %zu does not match%s: %s\n", id, e,
                              rc == PCRE2_ERROR_NOMATCH ? "" : " (PCRE2 limit or error)", line);
                continue;
            }
            const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(sc->md);
            for (size_t f = 0; f < s->pub.nfacts; f++) {
                if (!s->fact_declared[f]) continue;
                struct match_fact fact;
                fill_fact(&fact, &s->facts[f], line, ov, s->fact_group[f], (uint32_t)rc);
                if (!fact.val) {
                    fails++;
                    az_buf_printf(report, "%s: match example %zu does not set fact \"%s\"\n", id, e,
                                  s->facts[f].name);
                } else if (s->facts[f].type != MATCH_FACT_STRING && isnan(fact.num)) {
                    fails++;
                    az_buf_printf(report,
                                  "%s: match example %zu: fact \"%s\" = \"%.*s\" is not "
                                  "a %s\n",
                                  id, e, s->facts[f].name, (int)fact.len, fact.val,
                                  s->facts[f].type == MATCH_FACT_BYTES ? "size" : "number");
                }
            }
            taken |= route_taken(sc, s, line, ov, rc, sc->facts);
        }
        fails += route_check(s, taken, report);
        for (size_t e = 0; e < s->nex_nomatch; e++) {
            size_t len;
            const char *line = example_body(s->ex_nomatch[e], &len);
            int rc = run_regex(s, line, len, sc->md, sc->mctx);
            if (rc != PCRE2_ERROR_NOMATCH) {
                fails++;
                az_buf_printf(report, "%s: no_match example %zu %s: %s\n", id, e,
                              rc >= 0 ? "matches" : "hits a PCRE2 limit", line);
            }
        }
    }
    match_scanner_free(sc);
    return fails;
}

/* ---- version ---- */

static char pcre2_version_text[64];
static pthread_once_t pcre2_version_once = PTHREAD_ONCE_INIT;

static void pcre2_version_fill(void)
{
    if (pcre2_config(PCRE2_CONFIG_VERSION, pcre2_version_text) < 0)
        snprintf(pcre2_version_text, sizeof(pcre2_version_text), "unknown");
}

const char *match_pcre2_version(void)
{
    pthread_once(&pcre2_version_once, pcre2_version_fill);
    return pcre2_version_text;
}

/* ---- per-signature access ---- */

const char *const *match_sig_examples(const struct match_sig *s, int want_match, size_t *n)
{
    const struct match_sig_priv *sp = match_sig_priv_of(s);
    *n = want_match ? sp->nex_match : sp->nex_nomatch;
    return (const char *const *)(want_match ? sp->ex_match : sp->ex_nomatch);
}

const char *const *match_sig_literals(const struct match_sig *s, size_t *n)
{
    const struct match_sig_priv *sp = match_sig_priv_of(s);
    *n = sp->nliterals;
    return (const char *const *)sp->literals;
}

int match_sig_exec(const struct match_sig *s, const char *p, size_t len)
{
    const struct match_sig_priv *sp = match_sig_priv_of(s);
    if (!sp->code) return 0; /* a catalogue code's signature has no regex of its own */
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(sp->code, NULL);
    pcre2_match_context *mctx = pcre2_match_context_create(NULL);
    if (!md || !mctx) az_xmalloc((size_t)-1); /* out of memory */
    pcre2_set_match_limit(mctx, MATCH_PCRE2_MATCH_LIMIT);
    pcre2_set_depth_limit(mctx, MATCH_PCRE2_DEPTH_LIMIT);
    int rc = run_regex(sp, p, len, md, mctx);
    pcre2_match_data_free(md);
    pcre2_match_context_free(mctx);
    return rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}
