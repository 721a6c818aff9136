/*
 * correlate/corr.h - from tagged records to a diagnosis.
 *
 * corr_analyze() is the whole scan of one run: it walks the paths (ingest), classifies each member
 * and stamps each record (tokenize), tags records (match), and feeds the correlator, which keeps
 * only what it needs: evidence records (copied), numeric series (downsampled), anchors for time.
 * At the end it merges one timeline across files and lanes, runs the quantitative detectors
 * (power plateau, throughput drop, memory, bandwidth, ...), scores every gotcha from its evidence
 * and names the most likely one, or "none" with the run's first error.
 *
 * Contract:
 *  - The result is a plain, read-only value owned by the caller (corr_result_free()). Every
 *    string in it is owned by the result except entry pointers, which borrow from the pack.
 *  - Deterministic: the same inputs give the same result, whatever their order on the command
 *    line and whatever thread runs it. Lists are sorted with total orders.
 *  - Thread use: corr_analyze() may run concurrently in many threads sharing one pack, each with
 *    its own scanner. With cfg->threads > 1 it starts threads - 1 workers of its own that match
 *    records ahead of the correlator (correlate/pipe.c), and joins them before it returns.
 *  - Memory is bounded per run: evidence per signature, series points and timeline events are
 *    capped (the caps are counted, never silently grown).
 */
#ifndef CORR_H
#define CORR_H

#include <stddef.h>
#include <stdint.h>

#include "common/az.h"
#include "ingest/ingest.h"
#include "match/match.h"

/* The platform the run is assumed to be on (a gotcha's scope depends on it): NULL places it
 * from the inputs (GPU name, capability, pool size, host facts); a platform the pack declares
 * (match_platform's id) places it there whatever the inputs show; this one places it on none of
 * them. */
#define CORR_PLATFORM_OTHER "other"

struct corr_config {
    const struct match_pack *pack; /* borrowed */
    const char *platform;          /* default NULL (from the inputs); see CORR_PLATFORM_OTHER */
    const char *platform_from;     /* what set it ("--platform", "GOTCHA_PLATFORM"), or NULL */
    struct ingest_options ingest;
    double threshold;        /* minimum confidence for a verdict (default 0.35) */
    uint64_t run_expand_cap; /* decompressed bytes per run, 0 = no cap beyond per member */
    unsigned threads;        /* matching threads per scan, this one included (default 1; at
                                most 16 are used); the result is the same for any number */
    struct match_probe_stats *probe_stats; /* or NULL: the -j workers' prefilter counts are
                                              added here (the caller's scanner's are its own) */
};

void corr_config_default(struct corr_config *c, const struct match_pack *pack);

struct corr_evidence {
    char *path;                  /* display path, "run.tar.zst:job42/dmesg.log.gz" */
    uint64_t line;               /* 1-based */
    struct az_time time;         /* own or inherited time; kind NONE when unknown */
    int time_approx;             /* 1 when the time was placed from anchors, not read */
    char *lane;                  /* "rank1", "spark-02", or "" */
    char *text;                  /* the record (cut at 512 bytes), raw from the log: sanitize before
                                    printing to a terminal */
    const struct match_sig *sig; /* the signature, or NULL for detector evidence */
    char *note;                  /* what this line shows, e.g. "plateau begins"; may be "" */
};

struct corr_finding {
    const struct match_entry *entry; /* the gotcha or common failure */
    double confidence;               /* 0..1 */
    char *summary;                   /* one or two sentences with the numbers, units included */
    size_t nevidence;
    struct corr_evidence *evidence; /* decisive first, then by time */
};

struct corr_ruled_out {
    const struct match_entry *entry;
    char *reason; /* "no OOM anywhere" */
};

struct corr_event {
    struct az_time time;
    int time_approx;
    char *path;
    uint64_t line;
    char *lane;
    char *label;          /* short description: "training starts, 7,940 tok/s" */
    const char *entry_id; /* the finding it supports, or NULL (borrowed from the pack) */
    int background;       /* 1: a fact about the run (hardware, versions, settings) or a
                             weak hint of nothing found; compact views show it last */
};

struct corr_point {
    double t; /* seconds since the run's first absolute time */
    double v;
};

struct corr_series {
    char *name; /* "power.draw", "temperature.gpu", "clocks.sm", "throughput",
                   "loss", "memory.used" ... */
    char *unit; /* "W", "C", "MHz", "tok/s", "it/s", "MiB", "" */
    char *path; /* where it came from */
    char *lane;
    size_t npoints;
    struct corr_point *points; /* sorted by t; downsampled to at most 2048 */
    double mark_t;             /* a detected change (plateau start, drop) or NAN */
    char *mark_label;
};

/* A catalogue fault code the run shows (Xid 79, SXid 24007), its repeats collapsed. */
struct corr_code_seen {
    const struct match_code *code; /* borrowed from the pack */
    uint64_t count;                /* lines with this code */
    struct az_time first, last;    /* placed times of the first and last; kind NONE unknown */
};

struct corr_input {
    char *path;       /* display path of the member */
    const char *kind; /* tok_kind_name() */
    uint64_t bytes;   /* decoded bytes */
    uint64_t records;
    char *compression; /* "gzip", "zstd", ..., "none" */
};

struct corr_skip {
    char *path;
    char *reason;
};

struct corr_context {
    /* the declared platform the run is on (borrowed from the pack), or NULL; placed is 1 when
     * on is set, 0 on contrary evidence (a GPU no declared platform is, host facts that rule
     * every platform out, or --platform other), -1 unknown */
    const struct match_platform *on;
    int placed;
    char *gpu_name;            /* the GPU's name as the inputs give it, or "" */
    char *arch;                /* "aarch64", "x86_64" or "" */
    char *cuda_driver;         /* nvidia-smi "CUDA Version", "" */
    char *cuda_torch;          /* torch.version.cuda / collect_env, "" */
    int in_container;          /* 1 marker seen, 0 bare host seen, -1 unknown */
    const char *platform;      /* assumed: on's id, "other" or "unknown" (borrowed/static) */
    const char *platform_from; /* "inputs", "--platform", "GOTCHA_PLATFORM" or "" (static) */
};

/* A gotcha the evidence leaves open on a run with no verdict: what was seen, and the one fact that
 * would decide it with the command that shows it (the pack's "decide" of the entry; its
 * "platform" fact when only the run's unknown platform held the entry back). */
struct corr_possible {
    const struct match_entry *entry; /* borrowed from the pack */
    struct corr_evidence seen;       /* the line that points at it (raw: redact before printing) */
    const char *fact;                /* borrowed from the pack */
    const char *command;             /* borrowed from the pack */
    int by_platform;                 /* 1: the platform's fact (named on that platform) */
};

/* At most this many possible entries: the report names a short list, never a second ranking. */
#define CORR_POSSIBLE_MAX 3

/* 1 when the run is placed on the platform with that id, 0 when placed elsewhere, -1 when
 * unplaced (correlate/detect_context.c). */
int corr_context_on(const struct corr_context *c, const char *id);

/* How the run ended, whatever caused it (correlate/outcome.c has the rule). */
enum corr_outcome {
    CORR_OUTCOME_UNKNOWN = 0, /* nothing read, or only snapshots (nvidia-smi, pip, dmesg, notes) */
    CORR_OUTCOME_FAILED,      /* a recorded exit status other than 0, or an error record with
                                 no end marker after it */
    CORR_OUTCOME_COMPLETED,   /* a recorded exit status 0, or an end marker (a pack entry with
                                 "outcome": "completed") after every error */
    CORR_OUTCOME_CUT_OFF      /* a job log that stops with no error and no end marker */
};

/* "unknown", "failed", "completed", "cut-off". Static. */
const char *corr_outcome_name(enum corr_outcome o);

struct corr_result {
    enum corr_outcome outcome;
    struct corr_evidence *outcome_at;  /* the record that decided it (a run record's exit line,
                                          the first error, the last end marker, the job log's last
                                          line), or NULL (unknown) */
    int exit_recorded;                 /* 1 when a run record (tok.h) stated the exit status,
                                          which then decided the outcome */
    int exit_status;                   /* that status: 0..255, 128 + N for signal N */
    int exit_signal;                   /* N when a signal ended the recorded command, else 0 */
    const struct match_entry *verdict; /* NULL means "none" */
    double confidence;                 /* of the verdict, or of the best candidate when none */
    size_t nfindings;
    struct corr_finding *findings; /* sorted: confidence desc, then id; root cause first where
                                      the timeline shows one leading to another */
    /* only with no verdict, on a run that did not complete: at most CORR_POSSIBLE_MAX, in
     * findings order, then pack order (correlate/possible.c) */
    size_t npossible;
    struct corr_possible *possible;
    struct corr_evidence *first_error;           /* the run's first error record, or NULL */
    const struct match_entry *first_error_entry; /* its entry (common pack or gotcha), or NULL */
    size_t ncodes;
    struct corr_code_seen *codes; /* catalogue codes seen, in timeline order of their first */
    size_t nevents;
    struct corr_event *timeline; /* sorted by time, then path, then line */
    size_t nruled_out;
    struct corr_ruled_out *ruled_out;
    size_t ninputs;
    struct corr_input *inputs;
    size_t nskipped;
    struct corr_skip *skipped;
    size_t nseries;
    struct corr_series *series;
    size_t nwarnings;
    char **warnings;           /* one line each: "path: reason" (also in skipped when a
                                  member was dropped) */
    uint64_t records;          /* records read in all inputs */
    uint64_t bytes;            /* decoded bytes in all inputs */
    struct az_time start, end; /* first and last absolute times, kind NONE when none */
    struct corr_context context;
    size_t nhosts;
    char **hosts;          /* host names the logs show (syslog, NCCL prefixes), sorted;
                              report_redact() replaces them */
    int named_path_failed; /* 1 when a path given by the user could not be opened */
};

/**
 * corr_analyze() : scan the paths of one run and diagnose it. scanner must come from cfg->pack.
 * @return AZ_OK with *out set (even when some inputs were skipped or named paths failed: see
 * (*out)->skipped and named_path_failed). *out: caller frees with corr_result_free().
 */
enum az_status corr_analyze(const struct corr_config *cfg, struct match_scanner *scanner,
                            const char *const *paths, size_t npaths, struct corr_result **out);

void corr_result_free(struct corr_result *r);

/**
 * corr_rules_check() : validate the rules of every gotcha entry of a loaded pack: each names a
 * primitive the correlator has, gives every parameter it needs with the right type, refers only
 * to entries, signatures and tags that exist, and its sentences use only the variables the
 * primitive provides. Appends one line per problem ("file: entry: rule N (use): ...").
 * @return the number of problems (a pack with any is refused, like a bad regex).
 */
size_t corr_rules_check(const struct match_pack *pack, struct az_buf *err);

#endif /* CORR_H */
