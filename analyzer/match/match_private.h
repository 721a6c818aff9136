/*
 * match/match_private.h - internals shared by the match module's files: the pack's private
 * structures, literal derivation and the multi-literal searcher. Not for other modules.
 */
#ifndef MATCH_PRIVATE_H
#define MATCH_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include <pcre2.h> /* compiled regexes live in the private structs */

#include "common/az.h"
#include "match/match.h"

/* Bounds of every regex run: a signature that exceeds them counts as not matching. */
#define MATCH_PCRE2_MATCH_LIMIT 1000000u
#define MATCH_PCRE2_DEPTH_LIMIT 10000u
/* Most records an "after" condition looks back: a window, not a file (docs/patterns.md). */
#define MATCH_AFTER_MAX_WITHIN 1000u
/* Shortest literal the prefilter accepts: shorter ones would hit almost every line. */
#define MATCH_MIN_LITERAL 3u

struct match_sig_priv {
    struct match_sig pub; /* first member: a public pointer converts back */
    pcre2_code *code;     /* owned */
    int jit;              /* 1 when pcre2_jit_compile() succeeded */
    char **literals;      /* owned, lowercased, each >= MATCH_MIN_LITERAL bytes */
    size_t nliterals;
    char **gate; /* owned: match_derive_gate()'s strings; the searcher finds them too */
    size_t ngate;
    uint32_t *gate_lits;           /* owned: their literal indices in the pack's searcher */
    char **ex_match, **ex_nomatch; /* owned example lines */
    size_t nex_match, nex_nomatch;
    struct match_fact_def *facts; /* owned, by group number; pub.facts points here */
    uint32_t *fact_group;         /* capture group number of each fact */
    uint8_t *fact_declared;       /* listed in "facts": every match example must set it */
    /* a line-shape signature ("catalogue"): its hits are looked up by code */
    char *cat_name;                         /* as written, until resolved at the end of loading */
    const struct match_catalogue_priv *cat; /* resolved; NULL for an ordinary signature */
    int code_fact, sev_fact;                /* indices of facts "code" / "severity", -1 none */
    long fixed_code;       /* "code": N, a shape whose lines are always that code; -1 otherwise */
    int follow_up;         /* "follow_up": its lines repeat a fault line's code with data */
    const char **own_tags; /* its own "tags" (in the pack's blocks) */
    size_t nown_tags;
    char *after_name;    /* "after": {"sig"} as written, until resolved at the end of loading */
    uint32_t key_slot;   /* a signature some "after" names: 1 + its row in a scanner's key table;
                            0 for none */
    uint32_t after_slot; /* an "after" signature: its key's key_slot; 0 for none */
    char *until_name;    /* "after": {"until"} as written, until resolved */
    uint32_t until_slot; /* its "until" signature's key_slot; 0 for none */
    /* "route" (docs/patterns.md, "Route"): a hit whose fact route_fact a case's regex finds is
     * reported as that case's signature (in the case's entry); NULL/0 for none */
    struct match_route *routes;
    size_t nroutes;
    int route_fact; /* index of the routed fact, -1 none */
    char *route_fact_name;
};

/* One case of a signature's "route": where its regex finds the fact's value, the hit stands for
 * sig, made at load in entry `entry` (match_route.c). */
struct match_route {
    pcre2_code *code; /* owned */
    int jit;
    char *entry; /* as written, until the signature is made */
    const char *summary;
    const struct match_sig *sig;
};

/* A catalogue (docs/patterns.md, "Catalogues"): its rows and, per row, the signatures a hit of
 * that code is reported as (the catalogue's severity, and the other one when a shape reads the
 * line's own word). */
struct match_cat_row {
    struct match_code pub;
    int strength;        /* the row's explicit strength, or -1 */
    int action_strength; /* its action's declared strength, or -1 */
    int noise;           /* its action is declared "role": "noise" */
};

struct match_catalogue_priv {
    struct match_catalogue pub; /* first member */
    struct match_cat_row *rows; /* owned, as loaded; sorted by code when built */
    struct match_code *codes;   /* owned, sorted by code (pub.codes points here) */
    const struct match_sig **sig_fatal, **sig_nonfatal; /* per row; NULL where not made */
    int reads_severity;                                 /* some shape captures (?<severity>...) */
    const char **sev_tags[2]; /* "severity_tags": [0] nonfatal, [1] fatal (pack blocks) */
    size_t nsev_tags[2];
};

struct match_entry_priv {
    struct match_entry pub;        /* first member */
    const struct match_sig **sigs; /* owned array (pub.sigs points here) */
    size_t cap;
};

/* One distinct literal of the searcher and the signatures that require it. */
struct match_lit {
    const uint8_t *s; /* lowercased bytes (owned by a signature) */
    uint8_t *fold;    /* per byte 0x20 where s has a letter, else 0 (owned by the searcher) */
    uint32_t len;
    uint32_t first_sig; /* index into match_searcher.lit_sigs */
    uint32_t nsigs;
    uint32_t key_off; /* where its 4-byte key starts in s (the rarest window; 0 for 3 bytes) */
    int32_t key_off2; /* the window next to it, key_off +- 1, for the other parity of a start;
                       * -1 or len - 3: one past an end of the literal (match_search.c) */
};

/*
 * The searcher: at every even position of a record its next 4 bytes, case-folded with | 0x20 and
 * hashed, index a bitmap of two adjacent 4-byte windows of each literal, one for either parity of
 * its start, chosen among the rarest (key_off, key_off2: "ughp" of "avg generation throughput",
 * not "avg ", which every vLLM "Avg prompt throughput" line has); a window past a literal's end
 * (3- and 4-byte literals) enters once per possible byte there. The
 * positions are independent, so the loop runs at the CPU's throughput instead of a dependent skip
 * chain's latency, and short literals cost nothing extra. A set bit is verified against the keys of
 * that hash. A probe hit is the searcher's other cost (one every ~20 bytes of a training log, two
 * in three of them true), so a key carries what rejects a wrong literal without another load: the
 * literal's first bytes, its length and its key's offset.
 */
struct match_key {
    uint32_t hash;
    uint32_t lit;       /* index into lits */
    uint64_t head;      /* the literal's first min(len, 8) bytes | 0x20 each, in load order */
    uint64_t head_mask; /* 0xff for each byte of head in use */
    int32_t key_off;    /* where the window starts in the literal: lits[lit].key_off, one past
                         * it, or -1 (one byte before it; match_search.c, build_keys()) */
    uint32_t len;       /* lits[lit].len */
};

struct match_searcher {
    unsigned bits; /* the bitmap has 1 << bits bits; 0 when there is no literal */
    uint64_t *bitmap;
    struct match_key *keys; /* sorted by hash, then lit */
    size_t nkeys;
    /* the keys whose hash is in bitmap word i are keys[wstart[i] .. wstart[i + 1]): one offset
     * per 64 possible hashes (64 KiB at most), so a probe hit reads one offset and its keys */
    uint32_t *wstart; /* (1 << bits) / 64 + 1 entries */
    struct match_lit *lits;
    size_t nlits;
    uint32_t *lit_sigs; /* signature indices, grouped per literal */
};

struct match_pack {
    struct match_entry_priv **entries; /* sorted: G1..G10, common, context, series */
    size_t nentries, cap_entries;
    struct match_sig_priv **sigs; /* pack order: by entry, then as loaded */
    size_t nsigs, cap_sigs;
    struct match_catalogue_priv **cats; /* in load order */
    size_t ncats, cap_cats;
    char **strings; /* every owned string of the public structs */
    size_t nstrings, cap_strings;
    size_t max_facts;    /* largest nfacts of any signature */
    size_t nkeys;        /* signatures some "after" names (key_slot 1 .. nkeys) */
    uint32_t max_groups; /* largest capture count of any regex */
    void **blocks;       /* owned arrays of the entries' data model (tags, rules, ...) */
    size_t nblocks, cap_blocks;
    pcre2_match_context *mctx; /* the limits; copied by each scanner */
    struct match_searcher search;
    struct match_platform **platforms; /* "platforms" of every file, in load order */
    char **pf_ids, **pf_json;          /* "preflight": entry id -> its check (JSON text, owned) */
    const char **pf_files;
    size_t npf, cap_pf;
    size_t nplatforms, cap_platforms;
    struct tok_vocab vocab; /* "vocabulary" of every file, appended in load order, and
                             * "name-hints", a later file's first */
    size_t vocab_cap[TOK_VOCAB_COUNT], hints_cap;
};

static inline const struct match_sig_priv *match_sig_priv_of(const struct match_sig *s)
{
    return (const struct match_sig_priv *)(const void *)s;
}

/**
 * match_derive_literals() : the literals a regex needs, per the rules in docs/patterns.md: one per
 * top-level alternative, else the longest mandatory run of literal bytes. Each is lowercased.
 * @return the number of literals stored in out (at most maxout, each caller-freed with free()),
 * 0 when none of MATCH_MIN_LITERAL bytes can be derived.
 */
size_t match_derive_literals(const char *regex, char **out, size_t maxout);

/* Most strings in a gate: a larger covering set would cost the searcher more than it saves. */
#define MATCH_GATE_MAX 16

/**
 * match_derive_gate() : a covering set of the regex that the declared literals do not imply:
 * strings (lowercased, each >= MATCH_MIN_LITERAL bytes) one of which every match contains. The
 * scan skips the regex of a record holding none (match_literal.c says how it is chosen).
 * @return how many were stored in out (at most MATCH_GATE_MAX, each caller-freed), 0 for none.
 */
size_t match_derive_gate(const char *regex, const char *const *declared, size_t ndeclared,
                         char **out);

/* ---- loading (match_load.c; match_catalog.c shares its helpers) ---- */

struct json_t; /* jansson's (json_t), included only by the loader's .c files */

struct match_loader {
    struct match_pack *p;
    struct az_buf *err;
    size_t nerr;
    const char *file; /* path of the file being loaded */
    int extra;        /* loading an extra pack */
};

/* One problem, "file: what: message", counted. */
void match_ld_problem(struct match_loader *ld, const char *what, const char *fmt, ...)
    AZ_PRINTF(3, 4);
/* A copy of s ("" for NULL) owned by the pack. */
const char *match_ld_own(struct match_pack *p, const char *s);
/* Report every key of obj not in allowed (NULL-terminated). */
void match_ld_fields(struct match_loader *ld, const char *what, struct json_t *obj,
                     const char *const *allowed);
/* The string field key of obj; NULL (reported when required) when absent or not a string. */
const char *match_ld_str(struct match_loader *ld, const char *what, struct json_t *obj,
                         const char *key, int required);
/* The tag list obj[key] ("tags", "cascade_of"), each checked (lowercase letters, digits, '-'),
 * copied into the pack's blocks; *n its length; NULL when absent. */
const char **match_ld_tags(struct match_loader *ld, const char *what, struct json_t *obj,
                           const char *key, size_t *n);
/* An array of n zeroed elements owned by the pack (NULL when n is 0). */
void *match_ld_block(struct match_pack *p, size_t n, size_t size);
/* The list of strings obj[key]; NULL (reported when required, or empty and nonempty) otherwise. */
struct json_t *match_ld_str_list(struct match_loader *ld, const char *what, struct json_t *obj,
                                 const char *key, int required, int nonempty);
/* Named values with their reasons ({"name": {"value": ..., "why": "..."}}) into r->values. */
void match_ld_values(struct match_loader *ld, const char *what, struct json_t *params,
                     struct match_rule *r);
/* regex compiled (JIT where it can: *jit), or NULL with PCRE2's message reported for what. */
pcre2_code *match_ld_compile(struct match_loader *ld, const char *what, const char *regex,
                             int *jit);
/* s appended to the pack's signatures and to entry e's (before ordering). */
void match_ld_add_sig(struct match_pack *p, struct match_entry_priv *e, struct match_sig_priv *s);
/* The index of the fact called name among s's facts, or -1. */
int match_sig_fact_index(const struct match_sig_priv *s, const char *name);
/* "decisive" ... "context" -> enum match_strength; -1 when unknown. */
int match_ld_strength(const char *name);

/* A file's "catalogues" list (match_catalog.c): each catalogue parsed and kept in the pack. */
void match_catalogues_load(struct match_loader *ld, struct json_t *list);
/* After every file: each catalogue's code signatures made and added to its entry, and each
 * line-shape signature tied to its catalogue (problems reported). */
void match_catalogues_build(struct match_loader *ld);
void match_catalogues_free(struct match_pack *p);

/* A file's "platforms" list (match_platform.c): each platform checked and kept in the pack. */
void match_platforms_load(struct match_loader *ld, struct json_t *list);
void match_platforms_free(struct match_pack *p);

/* Build p->search from every signature's literals. */
void match_searcher_build(struct match_pack *p);
void match_searcher_free(struct match_searcher *w);

/* Callback of match_searcher_run(): the literal lit occurs in the record. */
typedef void (*match_lit_fn)(void *ctx, const struct match_lit *lit);
void match_searcher_run(const struct match_searcher *w, const uint8_t *p, size_t len,
                        match_lit_fn fn, void *ctx);
/* The same, reporting each literal once per record: stamp has w->nlits entries (the caller's,
 * never shared between threads), gen differs from every value it held for earlier records.
 * ps (may be NULL) gets the run's probe hits added, counted off the hot loop (only where a
 * probe's bit is set). */
void match_searcher_run_once(const struct match_searcher *w, const uint8_t *p, size_t len,
                             uint32_t *stamp, uint32_t gen, struct match_probe_stats *ps,
                             match_lit_fn fn, void *ctx);

/* The signature a line-shape hit with these facts stands for: its code's (by the line's
 * severity word when it has one), or the shape itself for a code not in the catalogue. NULL for
 * a follow-up shape's line (docs/patterns.md) whose code is not listed or is noise: the record
 * repeats a fault line's code with data, and alone it says nothing more than that code does. */
const struct match_sig_priv *match_catalogue_resolve(const struct match_sig_priv *shape,
                                                     const struct match_fact *facts);

/* A signature's "route" field (match_route.c): its cases parsed and compiled into s. */
void match_route_load(struct match_loader *ld, const char *what, struct json_t *js,
                      struct match_sig_priv *s);
/* After every file: each case's signature made and added to its entry (problems reported). */
void match_routes_build(struct match_loader *ld);
void match_route_free(struct match_sig_priv *s);
/* The signature a routed shape's hit stands for: the first case whose regex finds the routed
 * fact's value, else the shape itself. md: match data of one pair at least (the scanner's). */
const struct match_sig_priv *match_route_resolve(const struct match_sig_priv *shape,
                                                 const struct match_fact *facts,
                                                 pcre2_match_data *md, pcre2_match_context *mctx);

/* ASCII lowercase table shared by the searcher and the checks. */
extern const uint8_t match_lower[256];

/* 1 when the lowercased needle occurs in p[0..len) ASCII case-insensitively. */
int match_contains_lower(const char *p, size_t len, const char *needle, size_t nlen);

#endif /* MATCH_PRIVATE_H */
