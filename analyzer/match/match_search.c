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
#define L4(i) L1(i), L1(i + 1), L1(i + 2), L1(i + 3)
#define L1(i) (uint8_t)((i) >= 'A' && (i) <= 'Z' ? (i) + 32 : (i))
#define L16(i) L4(i), L4(i + 4), L4(i + 8), L4(i + 12)
#define L64(i) L16(i), L16(i + 16), L16(i + 32), L16(i + 48)
    L64(0), L64(64), L64(128), L64(192)
#undef L64
#undef L16
#undef L1
#undef L4
};

int match_contains_lower(const char *p, size_t len, const char *needle, size_t nlen) {
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
static inline uint32_t fold_load(const uint8_t *q) {
    uint32_t x;
    memcpy(&x, q, 4);
    return x | 0x20202020u;
}

static inline uint32_t key_hash(uint32_t folded, unsigned bits) {
    return (uint32_t)(((uint64_t)folded * KEY_MULT) >> (64 - bits));
}

static int lit_cmp(const void *a, const void *b) {
    const struct match_lit *x = a, *y = b;
    size_t n = AZ_MIN(x->len, y->len);
    int c = memcmp(x->s, y->s, n);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->first_sig < y->first_sig ? -1 : x->first_sig > y->first_sig;
}

static int key_cmp(const void *a, const void *b) {
    const struct match_key *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return x->lit < y->lit ? -1 : x->lit > y->lit;
}

static void add_key(struct match_searcher *w, size_t *cap, const uint8_t *four, uint32_t lit) {
    az_grow((void **)&w->keys, cap, w->nkeys + 1, sizeof(*w->keys));
    w->keys[w->nkeys].hash = fold_load(four); /* hashed once bits is known */
    w->keys[w->nkeys].lit = lit;
    w->nkeys++;
}

static void build_keys(struct match_searcher *w) {
    size_t cap = 0;
    for (size_t i = 0; i < w->nlits; i++) {
        const struct match_lit *l = &w->lits[i];
        if (l->len >= 4) {
            add_key(w, &cap, l->s, (uint32_t)i);
            continue;
        }
        w->lits3 = az_xrealloc(w->lits3, (w->nlits3 + 1) * sizeof(*w->lits3));
        w->lits3[w->nlits3++] = (uint32_t)i;
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
    w->key_start = az_xcalloc(((size_t)1 << bits) + 1, sizeof(uint32_t));
    for (size_t k = 0; k < w->nkeys; k++) w->key_start[w->keys[k].hash + 1]++;
    for (size_t h = 0; h < ((size_t)1 << bits); h++) w->key_start[h + 1] += w->key_start[h];
}

void match_searcher_build(struct match_pack *p) {
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

    build_keys(w);
}

void match_searcher_free(struct match_searcher *w) {
    free(w->bitmap);
    free(w->keys);
    free(w->key_start);
    free(w->lits3);
    free(w->lits);
    free(w->lit_sigs);
    memset(w, 0, sizeof(*w));
}

/* 1 when literal l occurs at p[0..room). */
static inline int lit_at(const struct match_lit *l, const uint8_t *p, size_t room) {
    if (l->len > room) return 0;
    for (uint32_t k = 0; k < l->len; k++)
        if (match_lower[p[k]] != l->s[k]) return 0;
    return 1;
}

/* A probe hit at p[0..room) with hash h: report the literals of that hash that really occur. */
static void verify(const struct match_searcher *w, uint32_t h, const uint8_t *p, size_t room,
                   match_lit_fn fn, void *ctx) {
    for (uint32_t k = w->key_start[h]; k < w->key_start[h + 1]; k++) {
        const struct match_lit *l = &w->lits[w->keys[k].lit];
        if (lit_at(l, p, room)) fn(ctx, l);
    }
}

static inline uint32_t probe_hash(const struct match_searcher *w, const uint8_t *q) {
    return key_hash(fold_load(q), w->bits);
}

static inline uint64_t probe_bit(const struct match_searcher *w, uint32_t h) {
    return (w->bitmap[h >> 6] >> (h & 63)) & 1;
}

void match_searcher_run(const struct match_searcher *w, const uint8_t *p, size_t len,
                        match_lit_fn fn, void *ctx) {
    if (w->bits == 0 || len < 3) return;
    if (len >= 4) {
        const size_t end = len - 3; /* positions with 4 bytes ahead */
        size_t pos = 0;
        /* four independent probes per step: one branch, no dependency between them */
        for (; pos + 4 <= end; pos += 4) {
            uint32_t h[4];
            h[0] = probe_hash(w, p + pos);
            h[1] = probe_hash(w, p + pos + 1);
            h[2] = probe_hash(w, p + pos + 2);
            h[3] = probe_hash(w, p + pos + 3);
            uint64_t any = probe_bit(w, h[0]) | probe_bit(w, h[1]) | probe_bit(w, h[2]) |
                           probe_bit(w, h[3]);
            if (AZ_LIKELY(!any)) continue;
            for (size_t k = 0; k < 4; k++)
                if (probe_bit(w, h[k])) verify(w, h[k], p + pos + k, len - pos - k, fn, ctx);
        }
        for (; pos < end; pos++) {
            uint32_t h = probe_hash(w, p + pos);
            if (probe_bit(w, h)) verify(w, h, p + pos, len - pos, fn, ctx);
        }
    }
    /* a 3-byte literal ending the record has no 4th byte to probe with */
    for (size_t k = 0; k < w->nlits3; k++) {
        const struct match_lit *l = &w->lits[w->lits3[k]];
        if (lit_at(l, p + len - 3, 3)) fn(ctx, l);
    }
}
