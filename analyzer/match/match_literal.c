/*
 * match/match_literal.c - derive the literals a regex requires, for the prefilter.
 *
 * The walk is conservative: anything it does not fully understand ends the current run of literal
 * bytes, which can only make the literal shorter, never wrong. A literal is wrong if some line the
 * regex matches lacks it, so only bytes every match must contain, contiguously, are kept.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "match/match_private.h"

#define LIT_MAX 256 /* longer runs are cut: a prefix of a required run is required too */

struct gate_acc;

struct lit_run {
    char cur[LIT_MAX];
    size_t ncur;
    char best[LIT_MAX];
    size_t nbest;
    int fail; /* the pattern uses a feature that changes what literal bytes mean (x flag) */
    struct gate_acc *acc; /* match_derive_gate(): every covering set met is offered here */
};

static void gate_offer_run(struct gate_acc *a, const char *s, size_t n);
static void gate_offer_alternation(struct gate_acc *a, const char *re, size_t from, size_t to);

static void run_break(struct lit_run *r)
{
    if (r->acc && r->ncur >= MATCH_MIN_LITERAL) gate_offer_run(r->acc, r->cur, r->ncur);
    if (r->ncur > r->nbest) {
        memcpy(r->best, r->cur, r->ncur);
        r->nbest = r->ncur;
    }
    r->ncur = 0;
}

static void run_add(struct lit_run *r, char c)
{
    if (r->ncur < LIT_MAX) r->cur[r->ncur++] = (char)match_lower[(uint8_t)c];
}

/* Offset just past the closing ']' of the class opened at re[i] == '['; n when unterminated. */
static size_t skip_class(const char *re, size_t i, size_t n)
{
    i++;
    if (i < n && re[i] == '^') i++;
    if (i < n && re[i] == ']') i++; /* a leading ']' is a literal */
    while (i < n && re[i] != ']') {
        if (re[i] == '\\' && i + 1 < n) {
            i += 2;
        } else if (re[i] == '[' && i + 1 < n &&
                   (re[i + 1] == ':' || re[i + 1] == '.' || re[i + 1] == '=')) {
            const char *close = NULL;
            char kind = re[i + 1];
            for (size_t j = i + 2; j + 1 < n; j++)
                if (re[j] == kind && re[j + 1] == ']') {
                    close = re + j;
                    break;
                }
            i = close ? (size_t)(close - re) + 2 : i + 1;
        } else {
            i++;
        }
    }
    return i < n ? i + 1 : n;
}

/* Offset just past the ')' matching the '(' at re[i]; n when unbalanced. */
static size_t skip_group(const char *re, size_t i, size_t n)
{
    int depth = 0;
    while (i < n) {
        char c = re[i];
        if (c == '\\') {
            if (i + 1 < n && re[i + 1] == 'Q') {
                const char *e = NULL;
                for (size_t j = i + 2; j + 1 < n; j++)
                    if (re[j] == '\\' && re[j + 1] == 'E') {
                        e = re + j;
                        break;
                    }
                i = e ? (size_t)(e - re) + 2 : n;
                continue;
            }
            i += 2;
            continue;
        }
        if (c == '[') {
            i = skip_class(re, i, n);
            continue;
        }
        if (c == '(') depth++;
        if (c == ')' && --depth == 0) return i + 1;
        i++;
    }
    return n;
}

/* If re[i] starts a quantifier, its length (with a lazy/possessive suffix) and whether it allows
 * zero repetitions; 0 otherwise. */
static size_t quantifier(const char *re, size_t i, size_t n, int *optional)
{
    size_t q = 0;
    *optional = 0;
    if (i >= n) return 0;
    if (re[i] == '?' || re[i] == '*') {
        *optional = 1;
        q = 1;
    } else if (re[i] == '+') {
        q = 1;
    } else if (re[i] == '{') {
        size_t j = i + 1;
        size_t digits = 0;
        unsigned long lo = 0;
        while (j < n && isdigit((unsigned char)re[j])) {
            lo = lo * 10 + (unsigned long)(re[j] - '0');
            if (lo > 100000) lo = 100000;
            j++;
            digits++;
        }
        if (j < n && re[j] == ',') {
            j++;
            while (j < n && isdigit((unsigned char)re[j])) j++;
        }
        if (digits == 0 || j >= n || re[j] != '}') return 0; /* a literal '{' */
        *optional = lo == 0;
        q = j + 1 - i;
    } else {
        return 0;
    }
    if (i + q < n && (re[i + q] == '?' || re[i + q] == '+')) q++;
    return q;
}

/* 1 when re[from..to) holds a '|' outside groups and classes. */
/* Where the top-level alternative of re[i..to) that starts at i ends: the next '|' outside
 * escapes, classes and groups, or to. */
static size_t alternative_end(const char *re, size_t i, size_t to)
{
    while (i < to) {
        if (re[i] == '\\')
            i += 2;
        else if (re[i] == '[')
            i = skip_class(re, i, to);
        else if (re[i] == '(')
            i = skip_group(re, i, to);
        else if (re[i] == '|')
            return i;
        else
            i++;
    }
    return to;
}

static int has_top_alternation(const char *re, size_t from, size_t to)
{
    return alternative_end(re, from, to) < to;
}

static void walk(struct lit_run *r, const char *re, size_t i, size_t n);

/* The group at re[i..end) with its quantifier already known to be mandatory. */
static void walk_group(struct lit_run *r, const char *re, size_t i, size_t end, int repeated)
{
    size_t inner = i + 1;
    size_t close = end - 1; /* the ')' */
    if (inner < close && re[inner] == '?') {
        size_t j = inner + 1;
        if (j < close &&
            (re[j] == '=' || re[j] == '!' || re[j] == '#' ||
             (re[j] == '<' && j + 1 < close && (re[j + 1] == '=' || re[j + 1] == '!')))) {
            run_break(r); /* lookaround or comment: no bytes of its own */
            return;
        }
        if (j < close && (re[j] == '<' || re[j] == '\'' ||
                          (re[j] == 'P' && j + 1 < close && re[j + 1] == '<'))) {
            char term = re[j] == '\'' ? '\'' : '>';
            while (j < close && re[j] != term) j++;
            inner = j + 1;
        } else {
            /* (?:  (?i)  (?i:  (?-x:  (?|  ... flags up to ':' or ')' */
            int flags_only = 0;
            while (j < close && (isalpha((unsigned char)re[j]) || re[j] == '-' || re[j] == '^')) {
                if (re[j] == 'x') r->fail = 1;
                j++;
            }
            if (j >= close) {
                flags_only = 1; /* (?i): zero-width setting, the run goes on */
            } else if (re[j] == ':') {
                inner = j + 1;
            } else {
                run_break(r); /* (?|, (?>, (?R), conditionals: do not look inside */
                return;
            }
            if (flags_only) return;
        }
    }
    if (has_top_alternation(re, inner, close)) {
        run_break(r);
        if (r->acc) gate_offer_alternation(r->acc, re, inner, close);
        return;
    }
    walk(r, re, inner, close);
    if (repeated) run_break(r);
}

static void walk(struct lit_run *r, const char *re, size_t i, size_t n)
{
    while (i < n && !r->fail) {
        char c = re[i];
        size_t atom_end;
        int literal = 0;
        char lit = 0;
        if (c == '\\') {
            if (i + 1 >= n) {
                run_break(r);
                return;
            }
            char e = re[i + 1];
            if (e == 'Q') {
                size_t j = i + 2;
                while (j < n && !(re[j] == '\\' && j + 1 < n && re[j + 1] == 'E'))
                    run_add(r, re[j++]);
                i = j < n ? j + 2 : n;
                continue;
            }
            atom_end = i + 2;
            if (!isalnum((unsigned char)e)) {
                literal = 1;
                lit = e;
            } else if (e == 'n' || e == 't' || e == 'r' || e == 'f' || e == 'e' || e == 'a') {
                literal = 1;
                lit = e == 'n'   ? '\n'
                      : e == 't' ? '\t'
                      : e == 'r' ? '\r'
                      : e == 'f' ? '\f'
                      : e == 'e' ? '\033'
                                 : '\a';
            } else {
                /* \d \s \w \b \x.. \1 \k<..> \p{..}: not a literal byte; skip a braced argument */
                if (atom_end < n && (re[atom_end] == '{' || re[atom_end] == '<') &&
                    (e == 'x' || e == 'p' || e == 'P' || e == 'k' || e == 'g' || e == 'o' ||
                     e == 'N')) {
                    char term = re[atom_end] == '{' ? '}' : '>';
                    while (atom_end < n && re[atom_end] != term) atom_end++;
                    if (atom_end < n) atom_end++;
                }
            }
        } else if (c == '[') {
            atom_end = skip_class(re, i, n);
        } else if (c == '(') {
            atom_end = skip_group(re, i, n);
            int optional;
            size_t q = quantifier(re, atom_end, n, &optional);
            if (optional) {
                run_break(r);
            } else {
                walk_group(r, re, i, atom_end, q > 0);
            }
            i = atom_end + q;
            continue;
        } else if (c == '.' || c == '^' || c == '$' || c == '|' || c == ')') {
            atom_end = i + 1;
        } else {
            atom_end = i + 1;
            literal = 1;
            lit = c;
        }
        int optional;
        size_t q = quantifier(re, atom_end, n, &optional);
        if (literal && !optional) {
            run_add(r, lit);
            if (q) run_break(r); /* repeats: what follows is not contiguous with the run */
        } else {
            run_break(r);
        }
        i = atom_end + q;
    }
}

/* Longest mandatory literal of re[from..to); its length, 0 when the walk gave up. */
static size_t derive_one(const char *re, size_t from, size_t to, char *out)
{
    struct lit_run r;
    r.ncur = r.nbest = 0;
    r.fail = 0;
    r.acc = NULL;
    walk(&r, re, from, to);
    run_break(&r);
    if (r.fail) return 0;
    memcpy(out, r.best, r.nbest);
    return r.nbest;
}

size_t match_derive_literals(const char *regex, char **out, size_t maxout)
{
    size_t n = strlen(regex);
    char buf[LIT_MAX];
    size_t count = 0;
    int alternation = has_top_alternation(regex, 0, n);
    /* A leading (?x) changes what spaces mean anywhere; refuse rather than guess. */
    for (size_t i = 0; i < n && alternation; i++) {
        if (regex[i] == '\\') {
            i++;
        } else if (regex[i] == '(' && i + 1 < n && regex[i + 1] == '?') {
            for (size_t j = i + 2; j < n && isalpha((unsigned char)regex[j]); j++)
                if (regex[j] == 'x') return 0;
        }
    }
    for (size_t start = 0;;) {
        size_t end = alternation ? alternative_end(regex, start, n) : n;
        size_t len = derive_one(regex, start, end, buf);
        if (len < MATCH_MIN_LITERAL || count == maxout) {
            for (size_t k = 0; k < count; k++) free(out[k]);
            return 0;
        }
        out[count++] = az_xstrndup(buf, len);
        if (end >= n) break;
        start = end + 1;
    }
    return count;
}

/* ---- gates ---- */

/*
 * A gate is a covering set of a regex: strings such that every match holds one of them
 * (case-insensitively). The searcher finds them with the literals, so a candidate whose record
 * holds none skips its regex: a literal says where a regex may match ('loss':), a gate what it
 * also needs (nan or inf). Covering sets compose: a mandatory run of literal bytes is one; an
 * alternation's is the union of one per alternative; a sequence may use any of its items'. Of
 * the sets met, the one chosen adds most to the declared literals: none of its strings shares a
 * 4-byte window with them (a gate the literals already imply would cost the searcher for
 * nothing), then the longest shortest string, then the fewest strings.
 */
#define GATE_DEPTH 4  /* alternations nested deeper are not looked into */
#define GATE_LEN   31 /* longer strings are cut: a prefix of a required string is required */

struct gate_set {
    char s[MATCH_GATE_MAX][GATE_LEN + 1];
    size_t n;
    int redundant; /* some string overlaps a declared literal */
    size_t shortest;
};

struct gate_acc {
    const char *const *declared;
    size_t ndeclared;
    int depth;
    int have;
    struct gate_set best;
};

/* 1 when s (lowercase) overlaps a declared literal: a shared 4-byte window, or the shorter of
 * the two inside the other. */
static int gate_overlaps(const struct gate_acc *a, const char *s, size_t n)
{
    for (size_t d = 0; d < a->ndeclared; d++) {
        const char *l = a->declared[d];
        size_t ln = strlen(l);
        if (n < 4 || ln < 4) {
            if (n <= ln ? match_contains_lower(l, ln, s, n) : match_contains_lower(s, n, l, ln))
                return 1;
            continue;
        }
        for (size_t o = 0; o + 4 <= n; o++)
            if (match_contains_lower(l, ln, s + o, 4)) return 1;
    }
    return 0;
}

/* 1 when set x is a better gate than y. */
static int gate_better(const struct gate_set *x, const struct gate_set *y)
{
    if (x->redundant != y->redundant) return !x->redundant;
    if (x->shortest != y->shortest) return x->shortest > y->shortest;
    return x->n < y->n;
}

static void gate_offer(struct gate_acc *a, const struct gate_set *g)
{
    if (!g->n) return;
    if (a->have && !gate_better(g, &a->best)) return;
    a->best = *g;
    a->have = 1;
}

/* Add s[0..n) to g unless a string of g is inside it ("-inf" after "inf": a record holding it
 * holds that one); 0 when g is full. */
static int gate_add(const struct gate_acc *a, struct gate_set *g, const char *s, size_t n)
{
    n = AZ_MIN(n, (size_t)GATE_LEN);
    for (size_t i = 0; i < g->n; i++) {
        size_t gn = strlen(g->s[i]);
        if (gn <= n && match_contains_lower(s, n, g->s[i], gn)) return 1;
    }
    if (g->n == MATCH_GATE_MAX) return 0;
    memcpy(g->s[g->n], s, n);
    g->s[g->n][n] = '\0';
    g->n++;
    if (!g->shortest || n < g->shortest) g->shortest = n;
    g->redundant |= gate_overlaps(a, s, n);
    return 1;
}

static void gate_offer_run(struct gate_acc *a, const char *s, size_t n)
{
    struct gate_set *g = az_xcalloc(1, sizeof *g);
    gate_add(a, g, s, n);
    gate_offer(a, g);
    free(g);
}

/* The best covering set of re[from..to) into *out; 0 when it has none. */
static int gate_cover(const struct gate_acc *parent, const char *re, size_t from, size_t to,
                      struct gate_set *out);

/* An alternation re[from..to): the union of each alternative's best set, offered. */
static void gate_offer_alternation(struct gate_acc *a, const char *re, size_t from, size_t to)
{
    if (a->depth >= GATE_DEPTH) return;
    struct gate_set *u = az_xcalloc(1, sizeof *u), *alt = az_xcalloc(1, sizeof *alt);
    int ok = 1;
    for (size_t start = from; ok;) {
        size_t end = alternative_end(re, start, to);
        ok = gate_cover(a, re, start, end, alt);
        for (size_t k = 0; ok && k < alt->n; k++) ok = gate_add(a, u, alt->s[k], strlen(alt->s[k]));
        if (end >= to) break;
        start = end + 1;
    }
    if (ok) gate_offer(a, u);
    free(u);
    free(alt);
}

static int gate_cover(const struct gate_acc *parent, const char *re, size_t from, size_t to,
                      struct gate_set *out)
{
    struct gate_acc *a = az_xcalloc(1, sizeof *a);
    a->declared = parent->declared;
    a->ndeclared = parent->ndeclared;
    a->depth = parent->depth + 1;
    if (has_top_alternation(re, from, to)) {
        gate_offer_alternation(a, re, from, to);
    } else {
        struct lit_run *r = az_xcalloc(1, sizeof *r);
        r->acc = a;
        walk(r, re, from, to);
        run_break(r);
        if (r->fail) a->have = 0;
        free(r);
    }
    int have = a->have;
    if (have) *out = a->best;
    free(a);
    return have;
}

size_t match_derive_gate(const char *regex, const char *const *declared, size_t ndeclared,
                         char **out)
{
    struct gate_acc top;
    memset(&top, 0, sizeof top);
    top.declared = declared;
    top.ndeclared = ndeclared;
    top.depth = -1;
    struct gate_set *g = az_xcalloc(1, sizeof *g);
    size_t n = 0;
    if (gate_cover(&top, regex, 0, strlen(regex), g) && !g->redundant)
        for (; n < g->n; n++) out[n] = az_xstrdup(g->s[n]);
    free(g);
    return n;
}
