/*
 * match/match_search.c - one multi-literal searcher over every signature's literals.
 *
 * Most records contain none of the literals; for them the cost is one pass of independent
 * bitmap probes at every other position (see match_private.h). Portable C only: unaligned loads go
 * through memcpy, the byte order only has to agree between building and probing, so it runs on
 * x86_64 and aarch64 alike.
 */
#include <stdlib.h>
#include <string.h>

#include "match/match_private.h"

/* Multiplicative hashes: KEY_MULT for the build-time tables; KEY_MULT32 for the probe, the top
 * `bits` of a 32-bit product (one 32-bit multiply per position). */
#define KEY_MULT   0x9E3779B97F4A7C15ull
#define KEY_MULT32 0x9E3779B1u

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
    return (uint32_t)(folded * KEY_MULT32) >> (32 - bits);
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

/* A key of literal lit: the window four, which starts off bytes into the literal (-1: one byte
 * before it). */
static void add_key(struct match_searcher *w, size_t *cap, const uint8_t *four, uint32_t lit,
                    int32_t off)
{
    az_grow((void **)&w->keys, cap, w->nkeys + 1, sizeof(*w->keys));
    w->keys[w->nkeys].hash = fold_load(four); /* hashed once bits is known */
    w->keys[w->nkeys].lit = lit;
    w->keys[w->nkeys].key_off = off;
    w->nkeys++;
}

/*
 * How common a string is in log text, estimated from the pack's example lines (every
 * signature's match and no_match lines: real lines of many emitters): a table of how often each
 * 3-byte window (case-folded, hashed) occurs in them. A string occurs at most as often as its
 * rarest window. Only the searcher's speed depends on it: which window keys a literal, and which
 * gates are kept.
 */
#define TRIGRAM_BITS 16

static uint32_t trigram_hash(const char *q)
{
    uint32_t v = (uint32_t)match_lower[(uint8_t)q[0]] | (uint32_t)match_lower[(uint8_t)q[1]] << 8 |
                 (uint32_t)match_lower[(uint8_t)q[2]] << 16;
    return (uint32_t)(((uint64_t)v * KEY_MULT) >> (64 - TRIGRAM_BITS));
}

/* Adds each trigram of the lines to plain once and to weighted weight times (saturating). */
static void count_trigrams(uint16_t *plain, uint16_t *weighted, char *const *lines, size_t n,
                           unsigned weight)
{
    for (size_t e = 0; e < n; e++)
        for (const char *q = lines[e]; q[0] && q[1] && q[2]; q++) {
            uint32_t h = trigram_hash(q);
            if (plain[h] < UINT16_MAX) plain[h]++;
            weighted[h] = (uint16_t)AZ_MIN((unsigned)weighted[h] + weight, (unsigned)UINT16_MAX);
        }
}

/*
 * A series signature's match lines are the lines a log repeats thousands of times (tqdm
 * refreshes, HF Trainer's log dicts, vLLM's metrics line, nvidia-smi samples), so a window that
 * they hold draws a probe on each of them: for the key windows they count SERIES_EXAMPLE_WEIGHT
 * lines each (the gates' commonness keeps 1). On the bench log (64 MB) false probe hits
 * 1.31 M -> 0.69 M; a weight of 4 gave 1.02 M, 64 gave 0.71 M.
 */
#define SERIES_EXAMPLE_WEIGHT 16u

/* The tables of p's example lines, in one pass (both caller-freed): every line once (returned;
 * the gates' commonness), and with a series signature's match lines SERIES_EXAMPLE_WEIGHT times
 * each (*weighted; the key windows'); *nlines: how many lines were counted. */
static uint16_t *example_trigrams(const struct match_pack *p, uint16_t **weighted, size_t *nlines)
{
    uint16_t *plain = az_xcalloc((size_t)1 << TRIGRAM_BITS, sizeof *plain);
    *weighted = az_xcalloc((size_t)1 << TRIGRAM_BITS, sizeof **weighted);
    *nlines = 0;
    for (size_t i = 0; i < p->nsigs; i++) {
        const struct match_sig_priv *sg = p->sigs[i];
        const struct match_entry *e = sg->pub.entry;
        int series = e && e->family == MATCH_FAMILY_SERIES;
        count_trigrams(plain, *weighted, sg->ex_match, sg->nex_match,
                       series ? SERIES_EXAMPLE_WEIGHT : 1);
        count_trigrams(plain, *weighted, sg->ex_nomatch, sg->nex_nomatch, 1);
        *nlines += sg->nex_match + sg->nex_nomatch;
    }
    return plain;
}

/* How often the n >= 3 bytes at q occur at most, by the table. */
static size_t trigram_bound(const uint16_t *counts, const char *q, size_t n)
{
    size_t least = SIZE_MAX;
    for (size_t o = 0; o + 3 <= n; o++) least = AZ_MIN(least, (size_t)counts[trigram_hash(q + o)]);
    return least;
}

/*
 * How often a (lowercased) byte is met in log text, in rough classes: the higher, the more
 * probe hits a key holding it draws. Spaces, digits and the common English letters and
 * separators fill a training log; rare letters do not. Only the choice of a literal's key window
 * depends on it, never what is found.
 */
static unsigned byte_commonness(uint8_t c)
{
    if (c == ' ') return 10;
    if (c >= '0' && c <= '9') return 8;
    if (c >= 'a' && c <= 'z') {
        static const char common[] = "etaoinsr", middle[] = "lcdumhp";
        if (strchr(common, c)) return 6;
        if (strchr(middle, c)) return 4;
        return 2; /* g f y w b v k x j q z */
    }
    if (strchr(".:/-_,='\"()[]", c)) return 5;
    return 1;
}

/* A 4-byte window of a literal, for counting how many literals hold it. */
struct window_ref {
    uint32_t bytes; /* the window as fold_load() reads it */
    uint32_t lit;
};

static int window_cmp(const void *a, const void *b)
{
    const struct window_ref *x = a, *y = b;
    if (x->bytes != y->bytes) return x->bytes < y->bytes ? -1 : 1;
    return x->lit < y->lit ? -1 : x->lit > y->lit;
}

/* How many literals hold window v (wins sorted, distinct per literal). */
static uint32_t window_count(const struct window_ref *wins, size_t n, uint32_t v)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (wins[mid].bytes < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t k = lo;
    while (k < n && wins[k].bytes == v) k++;
    return (uint32_t)(k - lo);
}

/* Penalty per other literal that holds a window: a 4-gram that many of the pack's literals
 * share ("nccl", "info", "loss", "thro") is a word the logs are full of, and each probe hit on
 * it verifies every literal of its bucket. Worth a little more than one common byte. */
#define WINDOW_SHARED_COST 8u
/* Penalty per time the example lines hold the window (trigram_bound()), above the byte classes:
 * "usage:" is in every vLLM metrics line, "Running:" and "Pending:" too, so "token usage:" and
 * "running: 1 reqs" are better keyed elsewhere than by "age:" and "ing:" (on the bench log: false
 * probe hits 1.11 M -> 0.62 M per 64 MB; 4 gave 0.86 M, 64 the same as 16). */
#define WINDOW_EXAMPLE_COST 16u

/*
 * Each literal's key window: the 4 bytes of the least common bytes that the fewest other
 * literals share (the first of equals). Only the searcher's speed depends on the choice: every
 * window of a literal is inside each of its occurrences.
 */
static void choose_windows(struct match_searcher *w, const uint16_t *tri)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nlits; i++)
        if (w->lits[i].len >= 4) n += w->lits[i].len - 3;
    struct window_ref *wins = az_xcalloc(n ? n : 1, sizeof *wins);
    size_t k = 0;
    for (size_t i = 0; i < w->nlits; i++)
        for (uint32_t o = 0; o + 4 <= w->lits[i].len; o++)
            wins[k++] = (struct window_ref){fold_load(w->lits[i].s + o), (uint32_t)i};
    qsort(wins, n, sizeof *wins, window_cmp);
    size_t d = 0; /* one entry per (window, literal) */
    for (size_t i = 0; i < n; i++)
        if (!d || wins[i].bytes != wins[d - 1].bytes || wins[i].lit != wins[d - 1].lit)
            wins[d++] = wins[i];
    unsigned *score = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < w->nlits; i++) {
        struct match_lit *l = &w->lits[i];
        l->key_off = 0;
        l->key_off2 = -1;
        if (l->len < 4) continue;
        az_grow((void **)&score, &cap, l->len, sizeof *score);
        for (uint32_t o = 0; o + 4 <= l->len; o++) {
            score[o] = 0;
            for (uint32_t b = 0; b < 4; b++) score[o] += byte_commonness(l->s[o + b]);
            score[o] += WINDOW_SHARED_COST * (window_count(wins, d, fold_load(l->s + o)) - 1);
            score[o] +=
                WINDOW_EXAMPLE_COST *
                (unsigned)AZ_MIN(trigram_bound(tri, (const char *)l->s + o, 4), (size_t)1000);
        }
        /* The window o + 1 past the last one: the literal's last 3 bytes and any byte after;
         * -1 before the first: any byte and the first 3. Scored by their 3 bytes, the unknown
         * byte as the commonest (and each costs 128 keys). */
        unsigned edge[2];
        for (unsigned e = 0; e < 2; e++) {
            const uint8_t *t = e ? l->s + l->len - 3 : l->s;
            edge[e] = byte_commonness(' ') +
                      WINDOW_EXAMPLE_COST *
                          (unsigned)AZ_MIN(trigram_bound(tri, (const char *)t, 3), (size_t)1000);
            for (unsigned b = 0; b < 3; b++) edge[e] += byte_commonness(t[b]);
        }
        /* The windows o and o + dir (dir = -1 or 1), one of which starts at an even position of
         * each occurrence (run() probes only those): the pair whose worse window scores least
         * (a score is a rough log of how often a window occurs, so the worse one dominates); of
         * equals, the least sum, then the first. */
        uint64_t best = UINT64_MAX;
        for (uint32_t o = 0; o + 4 <= l->len; o++)
            for (int dir = -1; dir <= 1; dir += 2) {
                int32_t o2 = (int32_t)o + dir;
                int edge_at = o2 < 0 || (uint32_t)o2 + 4 > l->len;
                if (edge_at && l->len >= 5) continue; /* 128 keys: only when there is no other */
                unsigned other = o2 < 0 ? edge[0] : (uint32_t)o2 + 4 > l->len ? edge[1] : score[o2];
                uint64_t key = (uint64_t)AZ_MAX(score[o], other) << 32 | (score[o] + other);
                if (key < best) {
                    best = key;
                    l->key_off = o;
                    l->key_off2 = o2;
                }
            }
    }
    free(score);
    free(wins);
}

/* Byte b of an 8-byte load, as memcpy() puts it in a uint64_t on this machine. */
static uint64_t byte_lane(unsigned b)
{
    uint64_t m = 0;
    uint8_t one[8] = {0};
    one[b] = 0xff;
    memcpy(&m, one, sizeof m);
    return m;
}

/* The rejection data a key carries for its literal l (struct match_key). */
static void key_head(struct match_key *key, const struct match_lit *l)
{
    uint8_t head[8] = {0};
    uint32_t n = AZ_MIN(l->len, (uint32_t)sizeof head);
    key->head_mask = 0;
    for (uint32_t b = 0; b < n; b++) {
        head[b] = (uint8_t)(l->s[b] | 0x20);
        key->head_mask |= byte_lane(b);
    }
    memcpy(&key->head, head, sizeof head);
    key->len = l->len;
}

/* The bitmap's largest size, 2^21 bits (256 KiB; its key index 128 KiB): the even-position
 * probe has 16,402 keys with the shipped pack, and 2^20 bits gave 32 % more false probe hits on
 * the bench log and measured 3 % slower; 2^22 measured the same as 2^21. */
#define PROBE_MAX_BITS 21

static void build_keys(struct match_searcher *w, const uint16_t *tri)
{
    size_t cap = 0;
    choose_windows(w, tri);
    /* run() probes the windows at even positions only, so each literal has a key for either
     * parity of its start: the windows at key_off and key_off2 (choose_windows()). A window
     * past either end of the literal is its 3 bytes there with each possible byte next to them
     * (any c with c | 0x20 == c: the others fold onto one of those); a 3-byte literal has only
     * those two. At a record's end, run() probes the last 3 bytes with a space after them. */
    for (size_t i = 0; i < w->nlits; i++) {
        const struct match_lit *l = &w->lits[i];
        const uint8_t *s = l->s;
        int32_t offs[2] = {l->len >= 4 ? (int32_t)l->key_off : -1, l->len >= 4 ? l->key_off2 : 0};
        for (unsigned k = 0; k < 2; k++) {
            int32_t o = offs[k];
            if (o >= 0 && (uint32_t)o + 4 <= l->len) {
                add_key(w, &cap, s + o, (uint32_t)i, o);
                continue;
            }
            const uint8_t *t = o < 0 ? s : s + l->len - 3;
            for (unsigned c = 0; c < 256; c++) {
                if ((c | 0x20) != c) continue;
                uint8_t four[4] = {t[0], t[1], t[2], (uint8_t)c};
                if (o < 0) four[0] = (uint8_t)c, four[1] = t[0], four[2] = t[1], four[3] = t[2];
                add_key(w, &cap, four, (uint32_t)i, o);
            }
        }
    }
    /* >= 512 bits per key: a random position aliases a key 1 time in 512 or less (64 gave
     * twice the false probe hits on the bench log); at most 2^20 bits (128 KiB) */
    unsigned bits = 16;
    while (bits < PROBE_MAX_BITS && ((size_t)1 << bits) < w->nkeys * 512) bits++;
    w->bits = bits;
    w->bitmap = az_xcalloc(((size_t)1 << bits) / 64, sizeof(uint64_t));
    for (size_t k = 0; k < w->nkeys; k++) {
        uint32_t h = key_hash(w->keys[k].hash, bits);
        w->keys[k].hash = h;
        w->bitmap[h >> 6] |= (uint64_t)1 << (h & 63);
    }
    qsort(w->keys, w->nkeys, sizeof(*w->keys), key_cmp);
    for (size_t k = 0; k < w->nkeys; k++) key_head(&w->keys[k], &w->lits[w->keys[k].lit]);
    size_t words = ((size_t)1 << bits) / 64;
    w->wstart = az_xcalloc(words + 1, sizeof(uint32_t));
    size_t k = 0;
    for (size_t i = 0; i <= words; i++) {
        while (k < w->nkeys && (w->keys[k].hash >> 6) < i) k++;
        w->wstart[i] = (uint32_t)k;
    }
}

/*
 * Gates worth their cost. Each gate string is one more literal for the searcher to find, and a
 * string as common as "inf" (every INFO line) or "ing" costs a verify on most records of a log,
 * more than the regexes it saves: a gate with a string that the example lines hold more than
 * once per GATE_COMMON_DIV lines is dropped (a dropped gate runs the regex, as without gates).
 */
#define GATE_COMMON_DIV 64
#define GATE_COMMON_MIN 8 /* a small pack: a string in a few of its lines is not common yet */

static void drop_common_gates(struct match_pack *p, const uint16_t *counts, size_t nlines)
{
    size_t common = AZ_MAX(nlines / GATE_COMMON_DIV, (size_t)GATE_COMMON_MIN);
    for (size_t i = 0; i < p->nsigs; i++) {
        struct match_sig_priv *sg = p->sigs[i];
        int drop = 0;
        for (size_t g = 0; g < sg->ngate && !drop; g++)
            drop = trigram_bound(counts, sg->gate[g], strlen(sg->gate[g])) > common;
        if (!drop) continue;
        for (size_t g = 0; g < sg->ngate; g++) free(sg->gate[g]);
        free(sg->gate);
        sg->gate = NULL;
        sg->ngate = 0;
    }
}

/* The first signature pair of a gate string: it marks no signature. */
#define GATE_ONLY UINT32_MAX

/* Signature s's gate strings as indices of the searcher's literals (sorted by lit_cmp's bytes). */
static void resolve_gate(const struct match_searcher *w, struct match_sig_priv *s)
{
    if (!s->ngate) return;
    s->gate_lits = az_xcalloc(s->ngate, sizeof *s->gate_lits);
    for (size_t g = 0; g < s->ngate; g++) {
        /* first_sig 0: no literal with the same bytes sorts below the key */
        struct match_lit key = {.s = (const uint8_t *)s->gate[g],
                                .len = (uint32_t)strlen(s->gate[g])};
        size_t lo = 0, hi = w->nlits;
        while (lo < hi) { /* the first literal not below key (the order the searcher sorted) */
            size_t mid = lo + (hi - lo) / 2;
            if (lit_cmp(&w->lits[mid], &key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        s->gate_lits[g] = (uint32_t)lo; /* there: every gate string was added as a pair */
    }
}

void match_searcher_build(struct match_pack *p)
{
    struct match_searcher *w = &p->search;
    memset(w, 0, sizeof(*w));
    size_t nlines;
    uint16_t *tri;
    uint16_t *plain = example_trigrams(p, &tri, &nlines);
    drop_common_gates(p, plain, nlines);
    free(plain);
    /* One (literal, signature) pair per literal first, then merge equal literals. */
    size_t npairs = 0;
    for (size_t i = 0; i < p->nsigs; i++) npairs += p->sigs[i]->nliterals + p->sigs[i]->ngate;
    if (npairs == 0) { /* a pack of signatures without literals: nothing to search for */
        free(tri);
        return;
    }
    struct match_lit *pairs = az_xcalloc(npairs, sizeof(*pairs));
    size_t k = 0;
    for (size_t i = 0; i < p->nsigs; i++) {
        const struct match_sig_priv *sg = p->sigs[i];
        for (size_t j = 0; j < sg->nliterals + sg->ngate; j++) {
            const char *ls = j < sg->nliterals ? sg->literals[j] : sg->gate[j - sg->nliterals];
            pairs[k].s = (const uint8_t *)ls;
            pairs[k].len = (uint32_t)strlen(ls);
            /* the signature, until merged; a gate string marks none (GATE_ONLY sorts last) */
            pairs[k].first_sig = j < sg->nliterals ? (uint32_t)i : GATE_ONLY;
            k++;
        }
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
        if (pairs[i].first_sig == GATE_ONLY) continue;
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

    build_keys(w, tri);
    free(tri);
    for (size_t i = 0; i < p->nsigs; i++) resolve_gate(w, p->sigs[i]);
}

void match_searcher_free(struct match_searcher *w)
{
    free(w->bitmap);
    free(w->keys);
    free(w->wstart);
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
    struct match_probe_stats *ps; /* or NULL */
};

/* Every byte | 0x20: what key_head() stored, so a differing head rules a literal out (the
 * converse is not true: lit_at() decides). */
#define FOLD8 0x2020202020202020ull

/* A probe hit at p[pos] of p[0..len) with hash h: report the literals of that hash that really
 * occur, each starting key_off bytes before pos. */
static void verify(const struct match_searcher *w, uint32_t h, const uint8_t *p, size_t pos,
                   size_t len, const struct run_ctx *rc)
{
    uint32_t word = h >> 6;
    int found = 0;
    for (uint32_t k = w->wstart[word]; k < w->wstart[word + 1]; k++) {
        const struct match_key *key = &w->keys[k];
        if (key->hash != h) continue;
        uint32_t li = key->lit;
        if (rc->stamp && rc->stamp[li] == rc->gen) { /* already reported */
            found = 1;
            continue;
        }
        if (key->key_off > 0 && pos < (size_t)key->key_off) continue;
        size_t at = (size_t)((ptrdiff_t)pos - key->key_off), room = len - at;
        if (key->len > room) continue;
        if (room >= sizeof(uint64_t)) {
            uint64_t x;
            memcpy(&x, p + at, sizeof x);
            if (((x | FOLD8) & key->head_mask) != key->head) continue;
        }
        const struct match_lit *l = &w->lits[li];
        if (!lit_at(l, p + at, room)) continue;
        found = 1;
        if (rc->stamp) rc->stamp[li] = rc->gen;
        if (rc->ps) rc->ps->lit_hits++;
        rc->fn(rc->ctx, l);
    }
    if (rc->ps) {
        rc->ps->probe_hits++;
        rc->ps->false_probes += (uint64_t)!found;
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

/* The probe of position pos: verify() where its bit is set. */
static inline void probe_at(const struct match_searcher *w, const uint8_t *p, size_t pos,
                            size_t len, const struct run_ctx *rc)
{
    uint32_t h = probe_hash(w, p + pos);
    if (probe_bit(w, h)) verify(w, h, p, pos, len, rc);
}

/*
 * The probes of p[0..len), len >= 4: the windows at even positions only (build_keys() gives each
 * literal a key for either parity of its start), half the hashes and bitmap loads of probing
 * every position. Four independent probes per step: one branch, no dependency between them; the
 * rare step with a set bit hashes again rather than keep the hashes live (they would spill).
 */
static void probe_even(const struct match_searcher *w, const uint8_t *p, size_t len,
                       const struct run_ctx *rc)
{
    const size_t end = len - 3; /* positions with 4 bytes ahead */
    size_t pos = 0;
    for (; pos + 8 <= end; pos += 8) {
        uint64_t any =
            probe_bit(w, probe_hash(w, p + pos)) | probe_bit(w, probe_hash(w, p + pos + 2)) |
            probe_bit(w, probe_hash(w, p + pos + 4)) | probe_bit(w, probe_hash(w, p + pos + 6));
        if (AZ_LIKELY(!any)) continue;
        for (size_t k = 0; k < 8; k += 2) probe_at(w, p, pos + k, len, rc);
    }
    for (; pos < end; pos += 2) probe_at(w, p, pos, len, rc);
}

static void run(const struct match_searcher *w, const uint8_t *p, size_t len,
                const struct run_ctx *rc)
{
    if (w->bits == 0 || len < 3) return;
    if (len >= 4) probe_even(w, p, len, rc);
    /* the last 3 bytes at an even position: a space stands for the byte past the end (a window
     * past a literal's end has a key for each byte there; verify() reads only the record) */
    if ((len - 3) & 1) return;
    uint8_t last[4] = {p[len - 3], p[len - 2], p[len - 1], ' '};
    uint32_t h = key_hash(fold_load(last), w->bits);
    if (probe_bit(w, h)) verify(w, h, p, len - 3, len, rc);
}

void match_searcher_run(const struct match_searcher *w, const uint8_t *p, size_t len,
                        match_lit_fn fn, void *ctx)
{
    struct run_ctx rc = {fn, ctx, NULL, 0, NULL};
    run(w, p, len, &rc);
}

void match_searcher_run_once(const struct match_searcher *w, const uint8_t *p, size_t len,
                             uint32_t *stamp, uint32_t gen, struct match_probe_stats *ps,
                             match_lit_fn fn, void *ctx)
{
    struct run_ctx rc = {fn, ctx, stamp, gen, ps};
    if (ps) {
        ps->records++;
        ps->bytes += len;
    }
    run(w, p, len, &rc);
}
