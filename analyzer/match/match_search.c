/*
 * match/match_search.c - one multi-literal searcher over every signature's literals.
 *
 * Most records contain none of the literals; for them the cost is one pass of independent
 * per-position bitmap probes (see match_private.h). Portable C only: unaligned loads go through
 * memcpy, the byte order only has to agree between building and probing, so it runs on x86_64 and
 * aarch64 alike.
 */
#include <stdlib.h>
#include <string.h>

#include "match/match_private.h"

/* Multiplicative hash; 64-bit so compilers keep it scalar (SSE2 has no 32-bit vector multiply and
 * its emulation is slower than four scalar multiplies). */
#define KEY_MULT 0x9E3779B97F4A7C15ull

const uint8_t match_lower[256] = {
#define L4(i)  L1(i), L1(i + 1), L1(i + 2), L1(i + 3)
#define L1(i)  (uint8_t)((i) >= 'A' && (i) <= 'Z' ? (i) + 32 : (i))
#define L16(i) L4(i), L4(i + 4), L4(i + 8), L4(i + 12)
#define L64(i) L16(i), L16(i + 16), L16(i + 32), L16(i + 48)
    L64(0), L64(64), L64(128), L64(192)
#undef L64
#undef L16
#undef L1
#undef L4
};

int match_contains_lower(const char *p, size_t len, const char *needle, size_t nlen)
{
    if (nlen == 0) return 1;
    if (nlen > len) return 0;
    for (size_t i = 0; i + nlen <= len; i++) {
        size_t k = 0;
        while (k < nlen && match_lower[(uint8_t)p[i + k]] == (uint8_t)needle[k]) k++;
        if (k == nlen) return 1;
    }
    return 0;
}

/* The 4 bytes at q, ASCII letters folded to lowercase (other bytes may alias: verified later). */
static inline uint32_t fold_load(const uint8_t *q)
{
    uint32_t x;
    memcpy(&x, q, 4);
    return x | 0x20202020u;
}

static inline uint32_t key_hash(uint32_t folded, unsigned bits)
{
    return (uint32_t)(((uint64_t)folded * KEY_MULT) >> (64 - bits));
}

/* 12-bit hash of 3 lowercased bytes, for the record-tail filter. */
static inline uint32_t tail3_hash(uint8_t a, uint8_t b, uint8_t c)
{
    uint32_t v = (uint32_t)a | (uint32_t)b << 8 | (uint32_t)c << 16;
    return (uint32_t)(((uint64_t)v * KEY_MULT) >> 52);
}

/* Set bits of x. The builtin only where it is one instruction (x86-64 without -mpopcnt would
 * call libgcc's __popcountdi2 on every probe hit). */
static inline unsigned popcount64(uint64_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
    return (unsigned)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
#endif
}

static int lit_cmp(const void *a, const void *b)
{
    const struct match_lit *x = a, *y = b;
    size_t n = AZ_MIN(x->len, y->len);
    int c = memcmp(x->s, y->s, n);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->first_sig < y->first_sig ? -1 : x->first_sig > y->first_sig;
}

static int key_cmp(const void *a, const void *b)
{
    const struct match_key *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return x->lit < y->lit ? -1 : x->lit > y->lit;
}

static void add_key(struct match_searcher *w, size_t *cap, const uint8_t *four, uint32_t lit)
{
    az_grow((void **)&w->keys, cap, w->nkeys + 1, sizeof(*w->keys));
    w->keys[w->nkeys].hash = fold_load(four); /* hashed once bits is known */
    w->keys[w->nkeys].lit = lit;
    w->nkeys++;
}

static void build_keys(struct match_searcher *w)
{
    size_t cap = 0;
    for (size_t i = 0; i < w->nlits; i++) {
        const struct match_lit *l = &w->lits[i];
        if (l->len >= 4) {
            add_key(w, &cap, l->s, (uint32_t)i);
            continue;
        }
        w->lits3 = az_xrealloc(w->lits3, (w->nlits3 + 1) * sizeof(*w->lits3));
        w->lits3[w->nlits3++] = (uint32_t)i;
        uint32_t th = tail3_hash(l->s[0], l->s[1], l->s[2]);
        w->tail3[th >> 6] |= (uint64_t)1 << (th & 63);
        for (unsigned c = 0; c < 256; c++) {
            uint8_t four[4] = {l->s[0], l->s[1], l->s[2], (uint8_t)c};
            if ((c | 0x20) != c) continue; /* folds onto c | 0x20, added on its own turn */
            add_key(w, &cap, four, (uint32_t)i);
        }
    }
    /* >= 64 bits per key keeps false probes under ~1.5%; at most 2^20 bits (128 KiB) */
    unsigned bits = 16;
    while (bits < 20 && ((size_t)1 << bits) < w->nkeys * 64) bits++;
    w->bits = bits;
    w->bitmap = az_xcalloc(((size_t)1 << bits) / 64, sizeof(uint64_t));
    for (size_t k = 0; k < w->nkeys; k++) {
        uint32_t h = key_hash(w->keys[k].hash, bits);
        w->keys[k].hash = h;
        w->bitmap[h >> 6] |= (uint64_t)1 << (h & 63);
    }
    qsort(w->keys, w->nkeys, sizeof(*w->keys), key_cmp);
    size_t words = ((size_t)1 << bits) / 64;
    w->rank = az_xcalloc(words, sizeof(uint32_t));
    uint32_t total = 0;
    for (size_t i = 0; i < words; i++) {
        w->rank[i] = total;
        total += (uint32_t)popcount64(w->bitmap[i]);
    }
    w->bucket = az_xcalloc((size_t)total + 1, sizeof(uint32_t));
    size_t d = 0;
    for (size_t k = 0; k < w->nkeys; k++)
        if (k == 0 || w->keys[k].hash != w->keys[k - 1].hash) w->bucket[d++] = (uint32_t)k;
    w->bucket[d] = (uint32_t)w->nkeys; /* d == total: one bucket per set bit */
}

void match_searcher_build(struct match_pack *p)
{
    struct match_searcher *w = &p->search;
    memset(w, 0, sizeof(*w));
    /* One (literal, signature) pair per literal first, then merge equal literals. */
    size_t npairs = 0;
    for (size_t i = 0; i < p->nsigs; i++) npairs += p->sigs[i]->nliterals;
    if (npairs == 0) return;
    struct match_lit *pairs = az_xcalloc(npairs, sizeof(*pairs));
    size_t k = 0;
    for (size_t i = 0; i < p->nsigs; i++)
        for (size_t j = 0; j < p->sigs[i]->nliterals; j++) {
            pairs[k].s = (const uint8_t *)p->sigs[i]->literals[j];
            pairs[k].len = (uint32_t)strlen(p->sigs[i]->literals[j]);
            pairs[k].first_sig = (uint32_t)i; /* the signature, until merged */
            k++;
        }
    qsort(pairs, npairs, sizeof(*pairs), lit_cmp);
    w->lits = az_xcalloc(npairs, sizeof(*w->lits));
    w->lit_sigs = az_xcalloc(npairs, sizeof(*w->lit_sigs));
    size_t nsig_refs = 0;
    for (size_t i = 0; i < npairs; i++) {
        int same = w->nlits > 0 && w->lits[w->nlits - 1].len == pairs[i].len &&
                   memcmp(w->lits[w->nlits - 1].s, pairs[i].s, pairs[i].len) == 0;
        if (!same) {
            w->lits[w->nlits].s = pairs[i].s;
            w->lits[w->nlits].len = pairs[i].len;
            w->lits[w->nlits].first_sig = (uint32_t)nsig_refs;
            w->lits[w->nlits].nsigs = 0;
            w->nlits++;
        }
        struct match_lit *l = &w->lits[w->nlits - 1];
        /* a signature listing the same literal twice needs it once */
        if (l->nsigs == 0 || w->lit_sigs[nsig_refs - 1] != pairs[i].first_sig) {
            w->lit_sigs[nsig_refs++] = pairs[i].first_sig;
            l->nsigs++;
        }
    }
    free(pairs);
    for (size_t i = 0; i < w->nlits; i++) {
        struct match_lit *l = &w->lits[i];
        l->fold = az_xcalloc(l->len ? l->len : 1, 1);
        for (uint32_t b = 0; b < l->len; b++)
            l->fold[b] = (uint8_t)(l->s[b] >= 'a' && l->s[b] <= 'z' ? 0x20 : 0);
    }

    build_keys(w);
}

void match_searcher_free(struct match_searcher *w)
{
    free(w->bitmap);
    free(w->keys);
    free(w->rank);
    free(w->bucket);
    free(w->lits3);
    for (size_t i = 0; i < w->nlits; i++) free(w->lits[i].fold);
    free(w->lits);
    free(w->lit_sigs);
    memset(w, 0, sizeof(*w));
}

/*
 * 1 when literal l occurs at p[0..room), ASCII case-insensitively, 8 bytes at a time: a text
 * byte x equals the lowercase literal byte c case-insensitively iff (x | fold) == c, with fold
 * 0x20 for a letter c (x is c or its uppercase) and 0 for any other byte (x must be c itself).
 */
static inline int lit_at(const struct match_lit *l, const uint8_t *p, size_t room)
{
    if (l->len > room) return 0;
    uint32_t k = 0;
    for (; k + 8 <= l->len; k += 8) {
        uint64_t x, f, c;
        memcpy(&x, p + k, 8);
        memcpy(&f, l->fold + k, 8);
        memcpy(&c, l->s + k, 8);
        if ((x | f) != c) return 0;
    }
    for (; k < l->len; k++)
        if ((uint8_t)(p[k] | l->fold[k]) != l->s[k]) return 0;
    return 1;
}

/* Per-run state: the callback, and the stamps that report each literal once per record. */
struct run_ctx {
    match_lit_fn fn;
    void *ctx;
    uint32_t *stamp; /* per literal, or NULL: report every occurrence */
    uint32_t gen;
};

/* A probe hit at p[0..room) with hash h: report the literals of that hash that really occur. */
static void verify(const struct match_searcher *w, uint32_t h, const uint8_t *p, size_t room,
                   const struct run_ctx *rc)
{
    uint32_t word = h >> 6;
    uint32_t d = w->rank[word] + popcount64(w->bitmap[word] & (((uint64_t)1 << (h & 63)) - 1));
    for (uint32_t k = w->bucket[d]; k < w->bucket[d + 1]; k++) {
        uint32_t li = w->keys[k].lit;
        if (rc->stamp && rc->stamp[li] == rc->gen) continue; /* already reported */
        const struct match_lit *l = &w->lits[li];
        if (!lit_at(l, p, room)) continue;
        if (rc->stamp) rc->stamp[li] = rc->gen;
        rc->fn(rc->ctx, l);
    }
}

static inline uint32_t probe_hash(const struct match_searcher *w, const uint8_t *q)
{
    return key_hash(fold_load(q), w->bits);
}

static inline uint64_t probe_bit(const struct match_searcher *w, uint32_t h)
{
    return (w->bitmap[h >> 6] >> (h & 63)) & 1;
}

static void run(const struct match_searcher *w, const uint8_t *p, size_t len,
                const struct run_ctx *rc)
{
    if (w->bits == 0 || len < 3) return;
    if (len >= 4) {
        const size_t end = len - 3; /* positions with 4 bytes ahead */
        size_t pos = 0;
        /* four independent probes per step: one branch, no dependency between them; the rare
         * step with a set bit hashes again rather than keep the hashes live (they would spill) */
        for (; pos + 4 <= end; pos += 4) {
            uint64_t any =
                probe_bit(w, probe_hash(w, p + pos)) | probe_bit(w, probe_hash(w, p + pos + 1)) |
                probe_bit(w, probe_hash(w, p + pos + 2)) | probe_bit(w, probe_hash(w, p + pos + 3));
            if (AZ_LIKELY(!any)) continue;
            for (size_t k = 0; k < 4; k++) {
                uint32_t h = probe_hash(w, p + pos + k);
                if (probe_bit(w, h)) verify(w, h, p + pos + k, len - pos - k, rc);
            }
        }
        for (; pos < end; pos++) {
            uint32_t h = probe_hash(w, p + pos);
            if (probe_bit(w, h)) verify(w, h, p + pos, len - pos, rc);
        }
    }
    /* a 3-byte literal ending the record has no 4th byte to probe with */
    const uint8_t *t3 = p + len - 3;
    uint32_t th = tail3_hash(match_lower[t3[0]], match_lower[t3[1]], match_lower[t3[2]]);
    if (AZ_LIKELY(!((w->tail3[th >> 6] >> (th & 63)) & 1))) return;
    for (size_t k = 0; k < w->nlits3; k++) {
        uint32_t li = w->lits3[k];
        if (rc->stamp && rc->stamp[li] == rc->gen) continue;
        const struct match_lit *l = &w->lits[li];
        if (!lit_at(l, p + len - 3, 3)) continue;
        if (rc->stamp) rc->stamp[li] = rc->gen;
        rc->fn(rc->ctx, l);
    }
}

void match_searcher_run(const struct match_searcher *w, const uint8_t *p, size_t len,
                        match_lit_fn fn, void *ctx)
{
    struct run_ctx rc = {fn, ctx, NULL, 0};
    run(w, p, len, &rc);
}

void match_searcher_run_once(const struct match_searcher *w, const uint8_t *p, size_t len,
                             uint32_t *stamp, uint32_t gen, match_lit_fn fn, void *ctx)
{
    struct run_ctx rc = {fn, ctx, stamp, gen};
    run(w, p, len, &rc);
}
