/*
 * correlate/corr_private.h - the correlator's internals, shared by its .c files only.
 *
 * The state (struct corr_state) lives for one run. scan.c feeds it record by record; collect.c
 * keeps the records that matched (capped per signature) and per-member facts; series.c builds the
 * numeric series; timeline.c places every time on one clock; detect.c and the detect_*.c
 * primitives under it turn numbers and hits into claims; score.c weighs the claims into findings;
 * result.c builds and frees struct corr_result.
 *
 * Hot path rule: corr_feed_record() allocates only when a record matched a signature (a copy) or a
 * series buffer grows (amortised, bounded by downsampling). Per record it parses only the time
 * and the structural series; level and lane are parsed for records that matched (and the lane
 * for records that can name a host), fact names are resolved per signature once (corr_sigfx),
 * and dense series signatures are sampled (scan.c, match_scanner_scan_sampled()).
 */
#ifndef CORR_PRIVATE_H
#define CORR_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/az.h"
#include "correlate/corr.h"
#include "ingest/ingest.h"
#include "match/match.h"
#include "tokenize/tok.h"

#define CORR_KEEP_FIRST      8   /* hits kept per signature from the start */
#define CORR_KEEP_LAST       8   /* and from the end (ring) */
#define CORR_TEXT_MAX        512 /* bytes of a record kept */
#define CORR_LANE_MAX        64
#define CORR_SERIES_MAX      2048 /* points per series in the result */
#define CORR_SERIES_RAW      8192 /* points per series while scanning, halved when full */
#define CORR_EVENTS_MAX      200
#define CORR_HOSTS_MAX       64
#define CORR_BOOT_SEGS       8 /* uptime resets tracked per member */
#define CORR_CSV_COLS        48
#define CORR_EVIDENCE_MAX    12   /* evidence lines per finding */
#define CORR_SERIES_FACTS    16   /* series facts with cached builders */
#define CORR_SAMPLE_DIV      2    /* a sampled series keeps ~this many samples per kept point */
#define CORR_SAMPLE_MISS     1024 /* candidates without a hit before a series signature is sampled */
#define CORR_SAMPLE_MISS_MAX 64   /* and at most 1 in this many of its candidates are skipped */
#define CORR_LASTREC_MAX     512 /* bytes of a member's latest record kept to parse its level late */
#define CORR_EXIT_TEXT_MAX   128 /* bytes kept of a run record's exit line ("exit: 3") */

/* A fact copied out of a hit. */
struct corr_fact_copy {
    const char *name; /* borrowed from the pack */
    char *val;
    double num; /* NAN when not a number */
};

/* A record that matched (or a detector's synthetic evidence). */
struct corr_rec {
    size_t file; /* index into corr_state.files */
    uint64_t line;
    uint64_t seq;       /* record index in its member, for stable ordering */
    struct az_time raw; /* own time, or inherited from an earlier record */
    int inherited;      /* 1 when raw is not the record's own */
    unsigned boot_seg;  /* BOOT times: which boot of the member */
    int level;          /* enum tok_level */
    char *lane;
    char *text;
    const struct match_sig *sig;
    size_t nfacts;
    struct corr_fact_copy *facts;
    /* set by corr_timeline_resolve() */
    struct az_time time;
    int approx;
};

struct corr_sigstat {
    uint64_t count;
    size_t nfirst;
    struct corr_rec first[CORR_KEEP_FIRST];
    uint64_t nlast; /* hits past the first CORR_KEEP_FIRST (ring index = nlast % KEEP) */
    struct corr_rec last[CORR_KEEP_LAST];
};

enum corr_metric {
    CORR_M_NONE = -1,
    CORR_M_POWER = 0,
    CORR_M_TEMP,
    CORR_M_SM_CLK,
    CORR_M_MEM_CLK,
    CORR_M_UTIL_GPU,
    CORR_M_UTIL_MEM,
    CORR_M_MEM_USED,
    CORR_M_MEM_TOTAL,
    CORR_M_COUNT,
    /* columns that are not series */
    CORR_M_THR_THERMAL = 100,
    CORR_M_THR_POWER,
    CORR_M_THR_ACTIVE,
    CORR_M_GPU_INDEX,
    CORR_M_TIMESTAMP,
    CORR_M_DMON_DATE,
    CORR_M_DMON_TIME
};

struct corr_file {
    char *display;
    char *name;
    char *compression;
    enum tok_kind kind;
    char lane[CORR_LANE_MAX]; /* from the path ("rank0.log") */
    uint64_t bytes, records;
    int broken; /* the stream stopped early */
    /* clock */
    struct az_time last_time;  /* last own time, for inheritance */
    struct az_time first_time; /* first own time of any kind */
    int has_abs, has_noyear, has_boot;
    int64_t abs_min, abs_max, noyear_min, noyear_max;
    unsigned boot_seg; /* current boot segment (uptime resets seen) */
    int64_t seg_last_uptime[CORR_BOOT_SEGS];
    int64_t last_uptime;
    unsigned boot_markers; /* "-- Boot" / "Linux version" lines */
    int nboot_abs;
    struct az_time boot_abs[CORR_BOOT_SEGS]; /* times (ABS/NOYEAR) of boot markers */
    int seg_placed;                          /* seg_offset valid (set by corr_timeline_place()) */
    int64_t seg_offset[CORR_BOOT_SEGS];      /* ABS usec of each boot */
    /* first and last record */
    uint64_t first_line, last_line;
    char first_text[160], last_text[160];
    int last_level;
    /* structural series parsing state */
    int csv_ncols;
    int csv_map[CORR_CSV_COLS];
    int dmon_ncols;
    int dmon_map[CORR_CSV_COLS];
    char q_section[48];
    int free_cache_col, free_total_col;   /* columns of `free` output, -1 until its header */
    uint64_t mi_cached_kb, mi_buffers_kb; /* last /proc/meminfo Cached and Buffers */
    int series_idx[CORR_M_COUNT];         /* builder per metric for this member (-1 until used) */
    char quant[16];                       /* quantization this member states (nvfp4, fp8), or "" */
    /* the latest record, so its level is parsed once at the member's end, not per record */
    size_t lastrec_len;
    int lastrec_level; /* -1: parse lastrec at the end; else the level (long record) */
    char lastrec[CORR_LASTREC_MAX];
};

/* Per signature, fact positions resolved once from the pack, so a hit never looks facts up by
 * name (see corr_sigfx_build()). */
struct corr_sigfx {
    int hostname, host, quant; /* fact index, -1 when the signature has none */
    signed char *series;       /* per fact: index into series.c's fact table, or -1 */
};

struct corr_spoint {
    double t; /* raw usec (own clock of the series), or sequence number */
    double v;
    uint64_t line;
};

struct corr_sbuild {
    char *name;
    const char *unit;
    size_t file;
    char lane[CORR_LANE_MAX];
    enum az_time_kind tkind; /* clock of t; NONE: t is a sequence number */
    unsigned boot_seg;
    size_t n, cap;
    struct corr_spoint *pts;
    size_t stride; /* raw points averaged into one kept point */
    size_t acc_n;
    double acc_t, acc_v;
    uint64_t acc_line;
    uint64_t seq;
    size_t acc_k; /* samples in acc_t/acc_v (acc_n: the raw points they stand for) */
    /* after corr_series_finish(): seconds on the run clock */
    int approx;
    double mark_t;
    char *mark_label;
};

/* A piece of evidence for (weight) or against (factor) an entry, from a detector or a signature. */
struct corr_claim {
    const struct match_entry *entry;
    double weight;                 /* 0..1, combined as 1 - prod(1 - w) */
    double factor;                 /* multiplies the score; 1 for a supporting claim */
    int strength;                  /* enum match_strength of a signature claim; -1 detector */
    const struct corr_rec *rec;    /* borrowed evidence (from a sigstat or st->det_recs), or NULL */
    char *note;                    /* evidence note */
    char *summary;                 /* sentence for the summary, or NULL */
    char *reason;                  /* for a factor < 1 or a cap: why the entry is less likely */
    double cap;                    /* the score may not exceed this (0: no cap) */
    int decisive;                  /* a weight that names the cause by itself: caps do not apply */
    const struct match_rule *rule; /* the rule whose outcome this is; NULL for a signature's */
};

struct corr_state {
    const struct corr_config *cfg;
    const struct match_pack *pack;
    size_t nsigs;
    struct corr_sigstat **sigs; /* per signature, allocated at its first hit */
    size_t nfiles, capfiles;
    struct corr_file *files;
    size_t nseries, capseries;
    struct corr_sbuild *series;
    /* run-level facts that every record may contribute */
    size_t nhosts;
    char *hosts[CORR_HOSTS_MAX];
    /* node addresses of a launcher's workers that run on another node than its driver (Ray's
     * "(Name pid=N, ip=A)" prefix: Ray names the address only for a worker off the driver's
     * node), so one of them means two nodes at least */
    size_t nremote;
    char *remote[CORR_HOSTS_MAX];
    uint64_t mem_na_count; /* nvidia-smi memory [N/A] / Not Supported samples */
    struct corr_rec mem_na_rec;
    int have_mem_na_rec;
    uint64_t thr_samples, thr_thermal, thr_power; /* clock-event reason samples */
    struct corr_rec thr_rec;
    int have_thr_rec;
    uint64_t meminfo_cached_kb; /* largest Cached + Buffers (kB) seen */
    struct corr_rec cache_rec;
    int have_cache_rec;
    /* the exit status a run record states (tok.h): the first non-zero one in input order, else
     * the first; exit_rec is its line (text: exit_text) */
    int first_error_warn; /* the first error corr_score() named is a warn-level line */
    int have_exit;
    struct tok_run_exit exit;
    struct corr_rec exit_rec;
    char exit_text[CORR_EXIT_TEXT_MAX];
    /* detector-made evidence records (owned) */
    size_t ndet, capdet;
    struct corr_rec **det_recs;
    /* claims */
    size_t nclaims, capclaims;
    struct corr_claim *claims;
    /* bookkeeping for the result */
    size_t ninputs, capinputs;
    struct corr_input *inputs;
    size_t nskipped, capskipped;
    struct corr_skip *skipped;
    size_t nwarnings, capwarnings;
    char **warnings;
    uint64_t records, bytes;
    int named_path_failed;
    int expand_capped;
    /* clock after corr_timeline_place() */
    int have_run_clock;
    enum az_time_kind clock_kind; /* the kind run_start/run_end are in */
    int64_t run_start, run_end;   /* usec, ABS */
    int64_t run_year;
    struct corr_context ctx;
    /* hot-path tables */
    struct corr_sigfx *sigfx;                /* nsigs entries, built by corr_state_new() */
    int series_hit_cache[CORR_SERIES_FACTS]; /* builder + 1 last used per series fact, 0 none */
    /* series signatures are sampled once their series are dense (see scan.c), per member */
    uint64_t *samp_seen;  /* nsigs */
    uint32_t *samp_every; /* nsigs */
    uint64_t *samp_hits;  /* nsigs: hits in the current member */
    size_t nseries_sigs;
    uint32_t *series_sigs; /* indices of the SERIES-family signatures */
    struct match_sampling sampling;
};

/* ---- collect.c ---- */
struct corr_state *corr_state_new(const struct corr_config *cfg);
void corr_state_free(struct corr_state *st);
/* Start a member; returns its index. */
size_t corr_file_begin(struct corr_state *st, const struct ingest_member *m, enum tok_kind kind);
void corr_warn(struct corr_state *st, const char *fmt, ...) AZ_PRINTF(2, 3);
void corr_skip_add(struct corr_state *st, const char *path, const char *reason);
/* Copy a record into rec (which must be zeroed or freed). */
void corr_rec_fill(struct corr_rec *rec, size_t file, uint64_t line, uint64_t seq, struct az_time t,
                   int inherited, unsigned boot_seg, int level, const char *lane, const char *p,
                   size_t len, const struct match_hit *hit);
void corr_rec_clear(struct corr_rec *rec);
/* Keep a hit (capped per signature). */
void corr_sig_keep(struct corr_state *st, const struct match_hit *hit, const struct corr_rec *proto,
                   const char *p, size_t len);
/* A detector evidence record (owned by st); text is a copy. */
struct corr_rec *corr_det_rec(struct corr_state *st, size_t file, uint64_t line, struct az_time t,
                              const char *text);
void corr_host_add(struct corr_state *st, const char *host, size_t len);
void corr_remote_add(struct corr_state *st, const char *addr, size_t len);
/* The fact named name of a kept record, or NULL. */
const struct corr_fact_copy *corr_rec_fact(const struct corr_rec *r, const char *name);
/* Visit every kept record of a signature, in scan order. */
typedef void (*corr_rec_fn)(void *ctx, const struct corr_rec *r);
void corr_sig_each(const struct corr_state *st, size_t sig, corr_rec_fn fn, void *ctx);
/* Earliest kept record of a signature in timeline order, or NULL. */
const struct corr_rec *corr_sig_earliest(const struct corr_state *st, size_t sig);

/* ---- series.c ---- */
/* Structural parsing of nvidia-smi CSV / dmon / -q / table rows and meminfo. */
void corr_series_record(struct corr_state *st, size_t file, const char *p, size_t len,
                        uint64_t line, struct az_time t, int own_time);
/* Index of a fact name in the series fact table (tokens_per_s, loss, ...), or -1. */
int corr_series_fact_index(const char *fact);
/* 1 when a hit of signature sig can feed a series in a member (smi_kind: an nvidia-smi file,
 * whose power, temperature, clock and utilisation are read structurally instead). */
int corr_series_sig_feeds(const struct corr_state *st, size_t sig, int smi_kind);
/* 1 for the nvidia-smi kinds (table, -q, XML, CSV, dmon). */
static inline int corr_is_smi_kind(enum tok_kind k)
{
    return k == TOK_KIND_SMI || k == TOK_KIND_SMI_Q || k == TOK_KIND_SMI_XML ||
           k == TOK_KIND_SMI_CSV || k == TOK_KIND_SMI_DMON;
}
/* Series facts of a hit (tokens_per_s, loss, power_w, ...), the facts already resolved:
 * fact_series[i] is corr_series_fact_index()
 * of the hit's fact i (the hit's signature's corr_sigfx.series); the hit stands for w raw records
 * (w > 1 when the scan sampled its signature). Returns the largest stride of the series it fed
 * (0 when none). */
size_t corr_series_hit_mapped(struct corr_state *st, size_t file, const char *lane,
                              const struct match_hit *hit, const signed char *fact_series,
                              uint64_t line, struct az_time t, int smi_kind, size_t w);
int corr_series_add(struct corr_state *st, size_t file, const char *lane, const char *name,
                    const char *unit, struct az_time t, double v, uint64_t line);
/* Place points on the run clock, downsample to CORR_SERIES_MAX. */
void corr_series_finish(struct corr_state *st);
/* Index of the series named name (and unit when not NULL) with the most points, from index from. */
int corr_series_find(const struct corr_state *st, const char *name, const char *unit, size_t from);

/* Change point: one split of v[0..n) minimising squared error. */
struct corr_change {
    int found;
    size_t at;            /* first index of the second segment */
    double before, after; /* segment means */
    double effect;        /* |after - before| / pooled standard deviation */
};
struct corr_change corr_change_point(const struct corr_spoint *pts, size_t n, size_t min_seg);

/* ---- timeline.c ---- */
/* Run clock: start, end, year, boot anchors. */
void corr_timeline_place(struct corr_state *st);
/* The run-clock time of a raw time of a member. */
struct az_time corr_timeline_map(const struct corr_state *st, size_t file, struct az_time raw,
                                 unsigned boot_seg, int *approx);
void corr_timeline_resolve(struct corr_state *st, struct corr_rec *r);
/* Seconds since the run start of a resolved time; NAN when not placeable. */
double corr_timeline_secs(const struct corr_state *st, struct az_time t);
/* Total order for records: time (placed first), path, line, signature index. */
int corr_rec_cmp(const struct corr_state *st, const struct corr_rec *a, const struct corr_rec *b);
/* Build the capped timeline of notable events. */
void corr_timeline_events(const struct corr_state *st, struct corr_result *r);

/* ---- detect.c, detect_context.c, detect_util.c, detect_weight.c ---- */
void corr_context_build(struct corr_state *st);
void corr_detect_all(struct corr_state *st);
/* Add a claim for entry e; takes ownership of note, summary and reason (each may be NULL). */
struct corr_claim *corr_claim_add(struct corr_state *st, const struct match_entry *e, double weight,
                                  double factor, const struct corr_rec *rec, char *note,
                                  char *summary, char *reason);
/* A signature's strength on this run: its own, or decisive where the pack says it is decisive on
 * the run's platform ("decisive_on"). */
enum match_strength corr_sig_strength(const struct corr_state *st, const struct match_sig *sig);
/* Weight of a signature's evidence, from its strength, lowered by its entry's version-change
 * rule when its hits name only packages the rule does not care about (other_weight). */
double corr_sig_weight(const struct corr_state *st, const struct match_sig *sig);
/* Does this record state an error (level, or words when the level is unknown)? */
int corr_rec_is_error(const struct corr_rec *r);

/* ---- codes.c ---- */
/* r->codes: every catalogue code with hits, merged over its signatures, in timeline order. */
void corr_codes_collect(const struct corr_state *st, struct corr_result *r);

/* ---- rules.c: the pack's rules, evaluated by the primitives of detect_*.c ---- */
/* A template variable: a string (str set) or a number. */
struct corr_var {
    const char *name;
    double num;
    const char *str;
};
/* One rule being run, and what earlier rules of the same entry left for later ones. */
struct corr_rule_run {
    struct corr_state *st;
    const struct match_rule *rule;
    double plateau_t0; /* a plateau rule's start (run seconds), NAN when none */
    int coresident;    /* a coresident rule saw processes sharing the pool */
};
typedef void (*corr_prim_fn)(struct corr_rule_run *rr);
/* Run every gotcha entry's rules, in pack order. */
void corr_rules_run(struct corr_state *st);
double corr_rule_num(const struct corr_rule_run *rr, const char *name); /* NAN when absent */
const char *corr_rule_str(const struct corr_rule_run *rr, const char *name);
const struct match_value *corr_rule_list(const struct corr_rule_run *rr, const char *name);
/* A claim for the rule's entry from one of its outcomes (NULL when the pack leaves that outcome
 * out): its weight, factor or cap, note and sentence, rendered with vars. */
struct corr_claim *corr_rule_claim(struct corr_rule_run *rr, const char *outcome,
                                   const struct corr_rec *rec, const struct corr_var *vars,
                                   size_t nvars);
/* The outcome's evidence-line text rendered into buf (empty when none). */
const char *corr_rule_text(const struct corr_rule_run *rr, const char *outcome,
                           const struct corr_var *vars, size_t nvars, char *buf, size_t n);
/* The outcome's series mark label, or NULL. */
const char *corr_rule_mark(const struct corr_rule_run *rr, const char *outcome);
/* Template t with vars substituted (a new string), NULL when t is NULL. */
char *corr_rule_render(const char *t, const struct corr_var *vars, size_t nvars);

/* The primitives (detect_series.c, detect_capacity.c, detect_group.c, detect_version.c,
 * detect_order.c). */
void corr_prim_plateau(struct corr_rule_run *rr);
void corr_prim_clock_reasons(struct corr_rule_run *rr);
void corr_prim_change_point(struct corr_rule_run *rr);
void corr_prim_cutoff_boot(struct corr_rule_run *rr);
void corr_prim_oom_capacity(struct corr_rule_run *rr);
void corr_prim_counter(struct corr_rule_run *rr);
void corr_prim_context_before(struct corr_rule_run *rr);
void corr_prim_context_present(struct corr_rule_run *rr);
void corr_prim_bandwidth(struct corr_rule_run *rr);
void corr_prim_coresident(struct corr_rule_run *rr);
void corr_prim_build_driver(struct corr_rule_run *rr);
void corr_prim_quant_arch(struct corr_rule_run *rr);
void corr_prim_version_change(struct corr_rule_run *rr);
void corr_prim_tp_nodes(struct corr_rule_run *rr);
void corr_prim_after_context(struct corr_rule_run *rr);
void corr_prim_last_line(struct corr_rule_run *rr);
void corr_prim_requested(struct corr_rule_run *rr);
void corr_prim_version_pair(struct corr_rule_run *rr);
void corr_prim_fact_share(struct corr_rule_run *rr);

/* ---- score.c ---- */
void corr_score(struct corr_state *st, struct corr_result *r);
/* One gotcha entry weighed alone, as corr_score() weighs it before the explains links: its
 * confidence, and in *seen the line that points at it most (its own signature's first, decisive
 * first; else its first evidence line; NULL when none). */
double corr_entry_weigh(struct corr_state *st, const struct match_entry *e,
                        const struct corr_rec **seen);
/* ---- possible.c ---- */
/* r->possible, after corr_score() and corr_outcome(): the gotchas a run with no verdict leaves
 * open (none on a run that completed). */
void corr_possible(struct corr_state *st, struct corr_result *r);
/* ---- outcome.c ---- */
/* r->outcome and r->outcome_at, after corr_score() (it reads r->first_error). */
void corr_outcome(const struct corr_state *st, struct corr_result *r);
/* A line of run record member file (tok.h): 1 when it is a field, which no signature sees (an
 * exit field's status is kept for corr_outcome()); 0 when it is log input. */
int corr_outcome_run_line(struct corr_state *st, size_t file, const char *p, size_t len,
                          uint64_t line);

/* ---- stamp.c: what a record says on its own ---- */
/* A record's time, boot marker and lane: they depend on nothing before it, so pipe workers
 * compute them ahead. */
struct corr_stamp {
    struct az_time t;        /* kind NONE when the record has no time of its own */
    size_t tend;             /* where the time ended (tok_parse_time()) */
    struct tok_lane_src src; /* the message past the record's prefixes (tok_prefix_strip()),
                                what the signatures see, and the rank and host they named */
    int boot_marker;         /* "-- Boot ...", "-- Reboot --", a kernel "Linux version" line */
    int may_name;            /* the record has a shape that can name a host: its lane was parsed */
    size_t lane_len;         /* tok_parse_lane()'s length, 0 when it found none */
};
/* Stamp record p / len of a member of this kind; lane gets the parsed lane (CORR_LANE_MAX). */
void corr_stamp_record(enum tok_kind kind, const char *p, size_t len, struct corr_stamp *s,
                       char *lane);

/* ---- pipe.c: matching ahead on worker threads ---- */
struct corr_batch_rec {
    size_t off; /* into corr_batch.text */
    size_t len;
    uint64_t lineno;
    int cut;
    struct corr_stamp stamp; /* filled by the worker */
    size_t lane_off;         /* the stamp's lane: lanes[lane_off .. + stamp.lane_len] */
    uint64_t empty_run;      /* empty records that follow this empty one (feed_empty_run()) */
    uint64_t empty_last;     /* the line of the last of them */
};

/* Records of one member, copied, and what the workers prepared for them. */
struct corr_batch {
    char *text;
    size_t len, cap;
    struct corr_batch_rec *recs;
    size_t nrecs;
    enum tok_kind kind;
    struct match_batch *mb;
    char *lanes; /* the records' parsed lanes, back to back */
    size_t nlanes, cap_lanes;
};

struct corr_pipe;
/* More workers would not help (the scan thread's ordered share is the limit) and each costs
 * about 1.5 MiB of batches: 15 keep a scan under ~40 MiB. */
#define CORR_PIPE_MAX_WORKERS 15
/* workers threads (at most CORR_PIPE_MAX_WORKERS), each with its own scanner; NULL when workers
 * is 0 or none could start. */
struct corr_pipe *corr_pipe_new(const struct match_pack *pack, unsigned workers, size_t max_line);
void corr_pipe_free(struct corr_pipe *pp);
/* Adds the workers' prefilter counts into *out. */
void corr_pipe_probe_stats(const struct corr_pipe *pp, struct match_probe_stats *out);
/*
 * The scan thread's cycle: while corr_pipe_free_slots(), fill corr_pipe_next() with
 * corr_batch_add() and corr_pipe_submit() it; then corr_pipe_oldest() waits for the oldest
 * batch in flight, which is replayed and given back with corr_pipe_release(). Batches are
 * replayed in the order they were submitted, across members.
 */
size_t corr_pipe_free_slots(const struct corr_pipe *pp);
size_t corr_pipe_in_flight(const struct corr_pipe *pp);
struct corr_batch *corr_pipe_next(struct corr_pipe *pp); /* emptied */
/* Copy a record in; 0 when the batch is full and must be submitted. */
int corr_batch_add(struct corr_batch *b, const struct ingest_line *line);
void corr_pipe_submit(struct corr_pipe *pp);
struct corr_batch *corr_pipe_oldest(struct corr_pipe *pp);
void corr_pipe_release(struct corr_pipe *pp);

/* ---- scan.c ---- */
/* Scan one walked input (all its members) into st; pp (may be NULL) matches ahead. */
void corr_scan_input(struct corr_state *st, struct match_scanner *scanner, struct corr_pipe *pp,
                     const char *path, const char *display, const struct ingest_options *opts);
/* Build the result from a scanned state (consumes nothing; st is freed by the caller). */
struct corr_result *corr_state_finish(struct corr_state *st);

/* ---- helpers ---- */
/* Evidence copy for the result. */
void corr_evidence_from_rec(const struct corr_state *st, const struct corr_rec *r, const char *note,
                            struct corr_evidence *ev);
const char *corr_file_path(const struct corr_state *st, size_t file);

/* 1 when needle (lowercase ASCII, n bytes) stands at p[at..] case-insensitively (stamp.c). */
int corr_lower_at(const char *p, size_t len, size_t at, const char *needle, size_t n);

#endif /* CORR_PRIVATE_H */
