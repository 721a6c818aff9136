/*
 * match/match.h - the signature pack (the JSON files in patterns/) and the matcher that tags
 * records with it.
 *
 * A pack is a list of entries (the gotchas G1..G10, the common failures, context and series
 * extractors), each with signatures: a PCRE2 regex, the source kinds it applies to, a strength,
 * required literals, typed facts from named captures, and examples. docs/patterns.md documents the
 * JSON format.
 *
 * Contract:
 *  - struct match_pack is built once by match_pack_load() and is read-only afterwards: it may be
 *    shared by any number of threads. Entry and signature structs are owned by the pack and live
 *    until match_pack_free().
 *  - struct match_scanner is per thread: it holds PCRE2 match data and scratch. Scanning a record
 *    allocates nothing.
 *  - A record is (pointer, length); it need not be NUL-terminated and may contain NULs.
 *  - Scanning: one multi-literal pass finds which signatures' literals occur in the record; only
 *    those signatures' regexes run. A record with no literal hit costs only that pass.
 *  - PCRE2 match and depth limits bound every regex; a signature that hits them is reported as an
 *    error by the scanner (match_scanner_limit_hits()) and treated as not matching, never hangs.
 */
#ifndef MATCH_H
#define MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "common/az.h"
#include "tokenize/tok.h"

enum match_strength {
    MATCH_CONTEXT =
        0,      /* "context": describes the run (GB10, CUDA 13, container); never a finding alone */
    MATCH_WEAK, /* "weak": a hint */
    MATCH_STRONG,   /* "strong": good evidence */
    MATCH_DECISIVE, /* "decisive": names the cause on its own */
};

enum match_family {
    MATCH_FAMILY_GOTCHA = 0, /* "gotcha": G1, G2, ... and site ids (ACME.quota) */
    MATCH_FAMILY_COMMON,  /* "common": failures that are none of the ten (Xid, OOM killer, ...) */
    MATCH_FAMILY_CONTEXT, /* "context": facts about the run: hardware, versions, settings */
    MATCH_FAMILY_SERIES,  /* "series": numeric series lines: throughput, loss, power */
};

enum match_fact_type { MATCH_FACT_STRING = 0, MATCH_FACT_NUMBER, MATCH_FACT_BYTES };

/* What a signature's line is in the causal chain (docs/patterns.md "Roles"). */
enum match_role {
    MATCH_ROLE_ROOT = 0, /* "root": the failure itself (default for every non-context strength) */
    MATCH_ROLE_CASCADE,  /* "cascade": a consequence of an earlier failure (engine died, "see root
                            cause above"): never the first error while a root line exists */
    MATCH_ROLE_CONTEXT,  /* "context": describes the run (default for strength context) */
    MATCH_ROLE_CONTRARY, /* "contrary": makes its entry less likely ("contrary" says how much) */
    MATCH_ROLE_NOISE,    /* "noise": worth seeing, never the failure itself (an NCCL WARN that says
                            it is non-fatal, a code NVIDIA says to ignore): the first error only
                            when the run shows no other error line */
};

/* A named value of a rule, with the reason for it ("params": {"lo": {"value": 80, "why": ...}}).
 * value is a number (num), a string (str) or a list of strings (list). */
struct match_value {
    const char *name;
    double num;      /* NAN unless a number */
    const char *str; /* NULL unless a string */
    size_t nlist;
    const char *const *list; /* NULL unless a list */
    const char *why;
};

/* What a rule adds when one of its outcomes happens. Exactly one of weight > 0 (support),
 * factor < 1 (contrary) or cap > 0 (a ceiling) is set, or none (a reason only). The texts are
 * templates: "{name}" or "{name:.1f}" are the rule's variables (docs/patterns.md). */
struct match_outcome {
    const char *name;
    double weight, factor, cap;
    int decisive;     /* "decisive": the weight names the cause by itself (caps do not apply) */
    const char *note; /* evidence note, may be NULL */
    const char *says; /* summary sentence (weight) or reason (factor, cap, none), may be NULL */
    const char *text; /* text of a detector-made evidence line, may be NULL */
    const char *mark; /* label of the series mark, may be NULL */
    const char *why;
};

/* A rule: one generic primitive of the correlator ("use"), parameterised by the pack. */
struct match_rule {
    const char *use;
    const struct match_entry *entry; /* the entry it claims for */
    size_t index;                    /* position in the entry's rules */
    size_t nvalues;
    const struct match_value *values;
    size_t noutcomes;
    const struct match_outcome *outcomes;
};

/* A root cause before its symptom: this entry explains entry id when it is at least min_cause. */
struct match_explains {
    const char *id;
    const struct match_entry *entry; /* resolved at load; NULL when absent (an error) */
    double min_cause;
    const char *why;
};

/* How much less likely a platform-scoped entry is on a run placed elsewhere, and the reason
 * the report prints ("{gpu}": the GPU name). */
struct match_scope_rule {
    const char *platform; /* a declared platform's id (match_platform), or NULL: any platform */
    double factor;
    const char *says;
    const char *why;
};

/* What would decide a gotcha entry that the evidence leaves open (the reports' "possible" list):
 * the one fact and the command that shows it; platform_fact / platform_command: the fact that
 * places the run where the entry's scope holds, for a run held back only by an unknown platform.
 * Every field NULL when the pack gives none. */
struct match_decide {
    const char *fact;
    const char *command;
    const char *why;
    const char *platform_fact;
    const char *platform_command;
};

struct match_fact_def {
    const char *name;          /* the named capture */
    enum match_fact_type type; /* "string", "number", "bytes" (number with an optional unit) */
};

struct match_entry;
struct match_catalogue;

/*
 * A fault code of a catalogue (NVIDIA's Xid or NVSwitch SXid table, patterns/nvidia-*.json): one
 * line-shape signature extracts the code, the scanner looks it up, and the hit is reported as the
 * code's own signature (match_sig.code points back here). See docs/patterns.md, "Catalogues".
 */
struct match_code {
    const struct match_catalogue *cat;
    long code;               /* 79 */
    const char *mnemonic;    /* "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS"; may be "" */
    const char *name;        /* "GPU has fallen off the bus" */
    const char *meaning;     /* what it means; may be "" */
    const char *severity;    /* the catalogue's: "fatal" or "nonfatal" */
    const char *action;      /* the resolution bucket: "RESTART_BM", "RESET_GPU", ... */
    const char *action_text; /* what to do, from the catalogue's action table */
    const char *sig_id;      /* its signature ("C.xid.79") */
};

struct match_catalogue {
    const char *id;     /* "xid": `gotcha explain xid:79` */
    const char *label;  /* "Xid": the first error is titled "Xid 79: <name>" */
    const char *title;  /* one line about the catalogue */
    const char *entry;  /* the entry its codes' signatures belong to ("C.xid") */
    const char *source; /* where the table comes from */
    size_t ncodes;
    const struct match_code *codes; /* sorted by code */
};

struct match_sig {
    const char *id;                  /* "G3.torch-cuda-oom" */
    const struct match_entry *entry; /* the entry it belongs to */
    enum match_strength strength;
    uint32_t kinds;      /* bit (1u << enum tok_kind) per kind it applies to */
    const char *regex;   /* source text */
    const char *summary; /* short label for evidence lines; may be "" */
    const char *note;    /* meaning / action (Xid codes); may be "" */
    size_t nfacts;
    const struct match_fact_def *facts;
    size_t index; /* position in the pack, 0..match_pack_sig_count()-1 */
    enum match_role role;
    size_t ntags;
    const char *const *tags;   /* its own tags and its entry's */
    double contrary_factor;    /* role contrary: multiplies its entry's score (else 1) */
    const char *contrary_says; /* role contrary: the reason the report prints, else NULL */
    /* "decisive_on": on a run of this platform the line names the cause by itself and weighs as
     * decisive; elsewhere its strength holds. A declared platform's id, or NULL: not set. */
    const char *decisive_on;
    const struct match_code *code; /* a catalogue code's signature (no regex of its own: a
                                      line-shape signature's hits are reported as it), or NULL */
    const char *severity;          /* a code's: "fatal"/"nonfatal" (the line's word where it
                                      says, else the catalogue's); "" otherwise */
    const struct match_catalogue *shape_of; /* a line-shape signature: the catalogue whose
                                               codes it extracts; NULL otherwise */
    /* "cascade_of": tags of the faults this root line is a consequence of (a CUDA error of a
     * GPU that fell off the bus): when the run shows a root line carrying one of them, this
     * line is a cascade of it, whatever the clocks say. NULL/0 when not given. */
    size_t ncascade_of;
    const char *const *cascade_of;
    /* "after": this line counts only when signature `after` matched within the `after_within`
     * records before it in the same stream (a value printed lines below its key: a pretty-printed
     * JSON's "avg" under its metric's name). NULL/0 when not given. */
    const struct match_sig *after;
    unsigned after_within;
    /* "after": {"until"}: the condition ends at a line of this signature after the key's (a
     * block's closing line). NULL when not given. */
    const struct match_sig *until;
    /* "route": a signature made for a case of another one's route (docs/patterns.md, "Route"):
     * it has no regex of its own; routed_from's hits whose routed fact the case's regex finds are
     * reported as it. NULL for every written signature. */
    const struct match_sig *routed_from;
};

struct match_entry {
    const char *id; /* "G3", "C.xid", "CTX", "SERIES" ... */
    enum match_family family;
    const char *title;
    const char *symptom;
    const char *cause;
    const char *check;
    const char *fix;
    const char *source; /* file it was loaded from */
    size_t order;       /* position in match_pack_entry() order */
    size_t nsigs;
    const struct match_sig *const *sigs;
    /* gotcha entries: the data the scorer evaluates (docs/patterns.md) */
    struct match_scope_rule scope;
    struct match_decide decide;
    const char *ruled_out; /* the sentence when nothing points at it; "" when not given */
    size_t ntags;
    const char *const *tags; /* given to every signature of the entry */
    size_t nexplains;
    const struct match_explains *explains;
    size_t nrules;
    const struct match_rule *const *rules;
    int ends_run; /* 1: pack field "outcome": "completed" (context entries only): a line matching
                     one of its signatures is written when a run ends as planned */
};

struct match_pack;

/**
 * match_pack_load() : load every *.json file of dirs[0] (the pack; files in name order), then of
 * dirs[1..] (extra packs, added). Entries with the same id in an extra pack add their signatures
 * to the existing entry. Every regex is compiled with JIT.
 * @return AZ_OK, or AZ_FAIL with every problem found in err, one per line, each naming the file
 * and the entry or signature: bad JSON (with line), unknown field, missing field, duplicate id,
 * unknown kind/strength/family/fact type, bad regex (PCRE2's message and offset), no literal
 * derivable. *out is NULL on failure.
 */
enum az_status match_pack_load(struct match_pack **out, const char *const *dirs, size_t ndirs,
                               struct az_buf *err);
void match_pack_free(struct match_pack *p);

size_t match_pack_entry_count(const struct match_pack *p);
/* Entries in a stable order: gotchas G1, G2, ... by number, then site gotchas (ACME.quota) by id,
 * then common, context, series, each by id. */
const struct match_entry *match_pack_entry(const struct match_pack *p, size_t i);
/* NULL when absent. */
const struct match_entry *match_pack_find_entry(const struct match_pack *p, const char *id);
size_t match_pack_sig_count(const struct match_pack *p);
const struct match_sig *match_pack_sig(const struct match_pack *p, size_t i);
const struct match_sig *match_pack_find_sig(const struct match_pack *p, const char *id);
size_t match_pack_catalogue_count(const struct match_pack *p);
const struct match_catalogue *match_pack_catalogue(const struct match_pack *p, size_t i);
/* The catalogue with that id (ASCII case-insensitive), or NULL. */
const struct match_catalogue *match_pack_find_catalogue(const struct match_pack *p, const char *id);
/* The row for code in c, or NULL. */
const struct match_code *match_catalogue_find(const struct match_catalogue *c, long code);
/* 1 when the signature carries the tag (its own or its entry's). */
int match_sig_has_tag(const struct match_sig *s, const char *tag);
/* 1 when any signature of the pack carries the tag. */
int match_pack_has_tag(const struct match_pack *p, const char *tag);

/*
 * A platform the pack declares ("platforms", docs/patterns.md "Platforms"): the engine knows
 * none of its own. What identifies it in the inputs and on a live host, and the facts the rules,
 * reports and preflight checks read by name ("gpus_per_node", "power_w", "memory_bytes", ...).
 */
struct match_platform {
    const char *id;    /* what "scope", "decisive_on", rule params and --platform name */
    const char *name;  /* how a report names it */
    const char *title; /* one line; may be "" */
    size_t ndevice_names;
    const char *const *device_names; /* a GPU name containing one (any case) names it */
    size_t ncapabilities;
    const char *const *capabilities; /* "major.minor" compute capabilities */
    double pool_lo_gib, pool_hi_gib; /* a device total in the band names it; NAN: no band */
    const char *host_tag;            /* lines with this tag name a host of it; NULL */
    size_t ncontrary_host_tags;
    const char *const *contrary_host_tags; /* lines with one name a host that is not it */
    size_t nfacts;
    const struct match_value *facts;
    const char *file; /* the file that declared it */
};

/* Declared platforms, in load order (the shipped pack's first, then each extra pack's). */
size_t match_pack_platform_count(const struct match_pack *p);
const struct match_platform *match_pack_platform(const struct match_pack *p, size_t i);
/* The classifier's word lists the pack gives ("vocabulary"; tok.h), borrowed until
 * match_pack_free(); NULL for a NULL pack. */
const struct tok_vocab *match_pack_vocab(const struct match_pack *p);
/* The platform with that id, or NULL. */
const struct match_platform *match_pack_find_platform(const struct match_pack *p, const char *id);
/* The named fact of a platform: the value, its number (NAN) or its string (""). pl may be NULL. */
const struct match_value *match_platform_fact(const struct match_platform *pl, const char *name);
double match_platform_num(const struct match_platform *pl, const char *name);
const char *match_platform_str(const struct match_platform *pl, const char *name);

/* The preflight check the pack gives entry id ("preflight" of a pack file, docs/patterns.md
 * "Preflight"): its JSON text (cli/cli_preflight.c runs it), or NULL. Borrowed. */
const char *match_pack_preflight(const struct match_pack *p, const char *id);

/* What one observation says about the platform: an index of match_pack_platform(), or one of
 * these. */
#define MATCH_PLACE_NONE  (-1L) /* says nothing */
#define MATCH_PLACE_OTHER (-2L) /* names a GPU no declared platform is */
/* A GPU name ("NVIDIA GB10"): a platform whose device name it contains, else OTHER when it is a
 * name (more than 2 bytes). */
long match_place_gpu_name(const struct match_pack *p, const char *name);
/* A compute capability ("12.1", "(12, 1)", "sm_121", "121"), parsed into *major, *minor (0 when
 * none): a platform that lists it, else OTHER when it parsed. */
long match_place_capability(const struct match_pack *p, const char *cap, int *major, int *minor);
/* A device total in GiB: the platform whose pool band holds it, OTHER when bands are declared
 * and none does, NONE when no platform declares a band. */
long match_place_total_gib(const struct match_pack *p, double gib);
/* The named value of a rule, or NULL. */
const struct match_value *match_rule_value(const struct match_rule *r, const char *name);
/* The named outcome of a rule, or NULL. */
const struct match_outcome *match_rule_outcome(const struct match_rule *r, const char *name);
/* Role names as written in pack files. */
const char *match_role_name(enum match_role r);

/**
 * match_pack_check() : run every signature's examples: each "match" line must match (and yield
 * every declared fact) and each "no_match" line must not, each line taken as the scan hands it to
 * the regexes (past its prefixes, tok_prefix_strip()). Appends one line per failure to report.
 * @return the number of failures.
 */
size_t match_pack_check(const struct match_pack *p, struct az_buf *report);

/* Example lines of s: the "match" ones when want_match, else the "no_match" ones. Borrowed from
 * the pack; *n is their number. */
const char *const *match_sig_examples(const struct match_sig *s, int want_match, size_t *n);
/* The literals the prefilter uses for s (declared, else derived from the regex), lowercased.
 * Borrowed from the pack; *n is their number. */
const char *const *match_sig_literals(const struct match_sig *s, size_t *n);
/**
 * match_sig_exec() : run s's regex alone on a record, without the prefilter or the kinds filter
 * (for checks, `explain` and tests; allocates, so not for the scan path).
 * @return 1 match, 0 no match, -1 a PCRE2 limit was hit.
 */
int match_sig_exec(const struct match_sig *s, const char *p, size_t len);

/* ---- scanning ---- */

struct match_fact {
    const struct match_fact_def *def;
    const char *val; /* borrowed from the record */
    size_t len;
    double num; /* parsed value for NUMBER, bytes for BYTES; NAN when unparsable */
};

struct match_hit {
    const struct match_sig *sig;
    size_t off, len; /* the whole match within the record */
    size_t nfacts;
    const struct match_fact *facts; /* borrowed, valid during the callback only */
};

/* Called once per signature that matches a record, in pack order. A catalogue shape's hit is
 * reported as its code's signature (hit->sig->code set), without facts. */
typedef void (*match_hit_fn)(void *ctx, const struct match_hit *hit);

struct match_scanner;

/* Caller frees with match_scanner_free(). */
struct match_scanner *match_scanner_new(const struct match_pack *p);
void match_scanner_free(struct match_scanner *s);

/*
 * match_scanner_begin_stream() : the next record starts a new stream (a file): a signature's
 * "after" condition looks back only over the records scanned since (docs/patterns.md, "After").
 * A scanner that is never told scans one stream. O(1) in the records seen; allocates nothing.
 */
void match_scanner_begin_stream(struct match_scanner *s);

/**
 * match_scanner_scan() : tag one record of the given kind. Calls fn for each matching signature
 * whose kinds include kind.
 * @return the number of signatures that matched.
 */
size_t match_scanner_scan(struct match_scanner *s, enum tok_kind kind, const char *p, size_t len,
                          match_hit_fn fn, void *ctx);

/*
 * Sampling: a caller that only needs a thinned stream of some signatures' hits (numeric series
 * that are downsampled anyway) lets the scanner skip their regex on most records. Both arrays
 * have match_pack_sig_count() entries and belong to the caller.
 *  - seen[i]: records so far where signature i was a candidate (its literal occurred and the kind
 *    applies); the scan increments it, the caller zeroes it (e.g. per member).
 *  - every[i]: a power of two; run signature i's regex on one candidate in every[i]: those whose
 *    number (counting from 0) hashes to a multiple of every[i]. The hash spreads the choice, so
 *    records of two streams that alternate (two ranks in one log) are both sampled. 0 or 1 runs
 *    it on every candidate; MATCH_SAMPLE_NEVER on none (the caller has no use for its hits).
 * Deterministic: the same input and the same every[] give the same hits.
 */
#define MATCH_SAMPLE_NEVER UINT32_MAX

struct match_sampling {
    uint64_t *seen;
    const uint32_t *every;
};

/* match_scanner_scan() with sampling (smp may be NULL: then exactly match_scanner_scan()). */
size_t match_scanner_scan_sampled(struct match_scanner *s, enum tok_kind kind, const char *p,
                                  size_t len, struct match_sampling *smp, match_hit_fn fn,
                                  void *ctx);

/*
 * Matching ahead on other threads. match_scanner_prepare() does a record's share that does not
 * depend on what came before it: the literal pass and the regexes of every signature outside the
 * series family (series are the only ones a caller samples). It appends to a batch, which the
 * thread that owns the sampling state then replays in record order: match_scanner_replay() makes
 * the same calls, in the same order, with the same hits, as match_scanner_scan_sampled() on that
 * record would, running only the series regexes its sampling keeps. Each thread has its own
 * scanner; a batch is filled by one thread, then read by another after a handover that orders
 * memory (a mutex).
 */
struct match_batch;

struct match_batch *match_batch_new(void);
/* Empty the batch for new records; its memory is kept. */
void match_batch_reset(struct match_batch *b);
void match_batch_free(struct match_batch *b);

/* Append record (kind, p, len) to b as its next record (numbered from 0 since the reset). */
void match_scanner_prepare(struct match_scanner *s, enum tok_kind kind, const char *p, size_t len,
                           struct match_batch *b);

/* match_scanner_scan_sampled() of record i of b, whose text p / len is the prepared one. */
size_t match_scanner_replay(struct match_scanner *s, const struct match_batch *b, size_t i,
                            const char *p, size_t len, struct match_sampling *smp, match_hit_fn fn,
                            void *ctx);

/* Signatures that hit a PCRE2 match/depth limit so far; their ids in err (one per line). */
size_t match_scanner_limit_hits(const struct match_scanner *s, struct az_buf *err);

/*
 * What the literal prefilter and the regexes did for a scanner's records (`gotcha scan
 * --probe-stats`, tests/bench/speed.sh): a probe hit is a position whose 4 bytes' hash has its
 * bit set; a false probe hit is one that verified no literal (the bitmap's aliasing and 3-byte
 * literals' extra keys); a literal hit is a (record, literal) pair; every candidate signature's
 * regex that ran is a regex run, and one that matched a regex hit.
 */
struct match_probe_stats {
    uint64_t records;      /* records the literal pass ran on */
    uint64_t bytes;        /* their bytes */
    uint64_t probe_hits;   /* positions with their bitmap bit set */
    uint64_t false_probes; /* probe hits that verified no literal */
    uint64_t lit_hits;     /* literals found, once per record */
    uint64_t lit_records;  /* records with at least one literal */
    uint64_t regex_runs;   /* candidate regexes run (after sampling) */
    uint64_t regex_hits;   /* of which matched */
};
/* Adds s's counts into *out (several scanners: one sum). */
void match_scanner_probe_stats(const struct match_scanner *s, struct match_probe_stats *out);

/* Find a fact by name in a hit; NULL when the signature has no such capture or it did not set. */
const struct match_fact *match_hit_fact(const struct match_hit *h, const char *name);

/* Names for the enums, as written in pack files. */
const char *match_strength_name(enum match_strength s);
const char *match_family_name(enum match_family f);

/* Version text of the linked PCRE2, e.g. "10.42 2022-12-11". Borrowed, static. */
const char *match_pcre2_version(void);

#endif /* MATCH_H */
