/*
 * tokenize/tok.h - what a line is: the kind of file it comes from, the prefixes around its message,
 * its timestamp, its level and the lane (host, rank) it belongs to. Pure functions over (pointer,
 * length): no allocation, no state, safe from any thread. Depends on common/ only.
 *
 * Kinds are decided from content (the first bytes of a member), the file name only a hint: a
 * `train.log` holding an nvidia-smi CSV series is an smi-csv. A job's combined stdout may hold
 * several kinds (pip output, then training, then a traceback): the kind is the dominant one and
 * later stages must not rely on it to exclude evidence.
 */
#ifndef TOK_H
#define TOK_H

#include <stddef.h>
#include <stdint.h>

#include "common/az.h"

enum tok_kind {
    TOK_KIND_TEXT = 0, /* "text": generic text */
    TOK_KIND_TRAIN,    /* "train": python logging, HF Trainer, tqdm, Lightning, Unsloth, torchrun */
    TOK_KIND_STDERR,   /* "stderr": python traceback / stderr */
    TOK_KIND_KERNEL,   /* "kernel": dmesg (raw or -T), journalctl -k, syslog */
    TOK_KIND_SMI,      /* "smi": nvidia-smi default table */
    TOK_KIND_SMI_Q,    /* "smi-q": nvidia-smi -q text */
    TOK_KIND_SMI_XML,  /* "smi-xml": nvidia-smi -q -x */
    TOK_KIND_SMI_CSV,  /* "smi-csv": nvidia-smi --query-gpu ... --format=csv */
    TOK_KIND_SMI_DMON, /* "smi-dmon": nvidia-smi dmon */
    TOK_KIND_PIP,      /* "pip": pip install output */
    TOK_KIND_PIP_LIST, /* "pip-list": pip list / pip freeze */
    TOK_KIND_COLLECT_ENV, /* "collect-env": python -m torch.utils.collect_env */
    TOK_KIND_MEMINFO,     /* "meminfo": free / /proc/meminfo */
    TOK_KIND_VLLM,        /* "vllm": vLLM / SGLang server log */
    TOK_KIND_NCCL,        /* "nccl": NCCL debug log */
    TOK_KIND_PREFLIGHT,   /* "preflight": the skill's preflight output, "G<n> STATUS: ..." */
    TOK_KIND_RUN_RECORD,  /* "run-record": the run.txt `gotcha record` writes (see below) */
    TOK_KIND_COUNT
};

/* Stable lowercase name used in patterns, reports and docs ("smi-csv"). */
const char *tok_kind_name(enum tok_kind k);
/* Inverse of tok_kind_name(); -1 when unknown. */
int tok_kind_from_name(const char *name);

/* The word lists of the classifier that are vocabulary, not parsing: the pack gives them
 * ("vocabulary" in patterns/formats.json, docs/patterns.md), the classifier keeps the shapes
 * (where a list is looked for, what it weighs). */
enum tok_vocab_list {
    TOK_VOCAB_STATUS,   /* "preflight-status": " PASS:" after a "G<n>" line start */
    TOK_VOCAB_ENV_KEYS, /* "collect-env-keys": the keys a collect_env report's lines start with */
    TOK_VOCAB_PIP,      /* "pip-lines": what pip's install output lines start with */
    TOK_VOCAB_COUNT
};

/* A file-name hint ("name-hints" in the pack): a base name holding part (lower case, matched
 * against the lower-cased name) suggests kind. */
struct tok_name_hint {
    const char *part; /* borrowed (the pack's string) */
    enum tok_kind kind;
};

struct tok_vocab {
    const char **words[TOK_VOCAB_COUNT]; /* borrowed (the pack's strings) */
    size_t n[TOK_VOCAB_COUNT];
    struct tok_name_hint *hints; /* tried in order, the first part the name holds wins */
    size_t nhints;
};

/* The list's name in the pack ("pip-lines"); NULL out of range. */
const char *tok_vocab_name(enum tok_vocab_list l);

/**
 * tok_classify() : the kind of a member from its first bytes (head, up to 64 KiB) and its base
 * name (may be NULL or empty; a hint only, through vocab's name hints). vocab: the pack's word
 * lists and name hints (borrowed; NULL: none, so only the shapes written in C count and the name
 * says nothing).
 */
enum tok_kind tok_classify(const struct tok_vocab *vocab, const char *name, const char *head,
                           size_t len);

enum tok_level {
    TOK_LEVEL_NONE = 0,
    TOK_LEVEL_DEBUG,
    TOK_LEVEL_INFO,
    TOK_LEVEL_WARN,
    TOK_LEVEL_ERROR,
    TOK_LEVEL_FATAL
};

/*
 * ---- prefixes ----
 *
 * Real logs wrap each message in prefixes written by the tools between the program and the file:
 * a container runtime ("sglang-1  | ", "[pod/x/c] ", a journald or docker JSON object), a launcher
 * ("42: ", "[1,0]<stderr>:", "[rank3]:", "(RayWorkerWrapper pid=1, ip=10.0.0.1) "), a server's
 * logger ("ERROR 11-05 12:19:32 [linear.py:210] ", "[2025-10-28 12:00:00 TP0] ") or a notebook's
 * traceback gutter ("----> 3 "). tok_prefix_strip() removes them, outermost first, and keeps what
 * they said as facts of the record; signatures then see the message alone (the body), so a
 * "^Traceback" or "^RuntimeError: " signature matches in any of those logs.
 *
 * The shapes are one table in tok_prefix.c (docs/architecture.md lists them). A layer's class
 * orders them: transport layers come first, then process tags, then at most one message layer
 * (a logger header or a gutter), after which nothing more is stripped. At most
 * TOK_PREFIX_LAYERS_MAX layers are taken; every field is length-capped, so the cost is bounded by a
 * few hundred bytes whatever the record. No allocation; safe from any thread.
 */
enum tok_prefix_class {
    TOK_PREFIX_TRANSPORT = 0, /* container, journal, launcher labels: compose, kubectl, srun ... */
    TOK_PREFIX_PROCESS,       /* which process or rank wrote it: "[rank3]:", "(Name pid=N) " */
    TOK_PREFIX_MESSAGE        /* the logger's own header or a traceback gutter: the last layer */
};

#define TOK_PREFIX_LAYERS_MAX 4

/* A span of the record; len 0 when absent. */
struct tok_span {
    uint32_t off, len;
};

/* One stripped layer. */
struct tok_layer {
    const char *name; /* the shape: "compose", "torchrun", "vllm" ... (static) */
    enum tok_prefix_class cls;
    uint32_t end; /* offset just past it */
    int timed;    /* it carried a timestamp */
};

struct tok_prefix {
    size_t body, body_len; /* the message: p[body .. body + body_len) */
    unsigned nlayers;
    struct tok_layer layer[TOK_PREFIX_LAYERS_MAX]; /* outermost first */
    /* facts, each a span of the record; an inner layer's value replaces an outer one's */
    struct tok_span process; /* "EngineCore_DP0", "RayWorkerWrapper", "TP0", torchrun's role */
    struct tok_span pid;     /* "12473" */
    struct tok_span rank;    /* "3" of "[rank3]:", "rank=3", mpirun's "[1,3]" */
    struct tok_span task;    /* srun --label task number */
    struct tok_span host;    /* syslog host, journal _HOSTNAME, pdsh host */
    struct tok_span ip;      /* Ray's "ip=" (a node address; not a host name, so not a lane) */
    struct tok_span service; /* compose service, k8s container, syslog tag / unit */
    struct tok_span pod;     /* kubectl pod name */
    struct tok_span source;  /* logger's "file.py:123" */
    enum tok_level level;    /* TOK_LEVEL_NONE when no layer states one */
    struct az_time time;     /* kind AZ_TIME_NONE when no layer carries one */
    size_t time_end;         /* offset just past that stamp */
};

/**
 * tok_prefix_strip() : strip the prefixes of record p / len, layers of class upto and below only
 * (TOK_PREFIX_MESSAGE: all of them). out->body / body_len is the message (the whole record when
 * nothing was stripped; for a JSON object, the message string's bytes as written, escapes kept).
 * @return the number of layers stripped.
 */
unsigned tok_prefix_strip(const char *p, size_t len, enum tok_prefix_class upto,
                          struct tok_prefix *out);

/* The value of a fact span as (pointer, length) into p; (NULL, 0) when absent. */
const char *tok_span_get(const char *p, struct tok_span s, size_t *n);

/**
 * tok_parse_time() : the timestamp a record starts with (a prefix's, else the one at the start of
 * its body, after leading spaces and one optional "[" or "<n>" syslog priority), in any format
 * gotcha knows:
 *   ISO-8601 "2026-11-29T10:12:55.123Z" / "2026-11-29 10:12:55", python logging
 *   "2026-11-29 10:12:55,123", glog/PyTorch "I1129 10:12:55.123456" and "[E1129 10:12:55.123 ...",
 *   syslog "Nov 29 10:12:55" (NOYEAR), dmesg -T "[Sat Nov 29 10:12:55 2026]", raw dmesg
 *   "[12345.678901]" (BOOT), nvidia-smi "2026/11/29 10:12:55.123", vLLM "INFO 11-29 10:12:55"
 *   (NOYEAR), and the timestamp first column of a CSV row.
 * The kind is a hint that lets the common case fail fast; any kind accepts any format.
 * @return the time, kind AZ_TIME_NONE when the record starts with none. When end is not NULL,
 * *end is the offset just past the timestamp (and its closing bracket), 0 when none.
 */
struct az_time tok_parse_time(enum tok_kind kind, const char *p, size_t len, size_t *end);

/* The severity a record states (a prefix's level, else "ERROR", "[E1129", "WARNING:", "<3>" ...
 * in its body). */
enum tok_level tok_parse_level(const char *p, size_t len);

/**
 * tok_record_parse() : a record's prefixes and time in one pass, for callers that need several of
 * them (the scan): pf as tok_prefix_strip(..., TOK_PREFIX_MESSAGE, pf); the result and *end as
 * tok_parse_time().
 */
struct az_time tok_record_parse(const char *p, size_t len, struct tok_prefix *pf, size_t *end);

/* tok_parse_lane() of a record already parsed by tok_record_parse() into pf. */
size_t tok_record_lane(const struct tok_prefix *pf, const char *p, size_t len, char *out,
                       size_t outsz);

/* What tok_record_lane() reads of a tok_prefix: small enough to keep beside each record, so a
 * lane asked for later (a record that matched) does not strip the prefixes again. */
struct tok_lane_src {
    size_t body, body_len;
    struct tok_span host, rank;
    struct tok_span ip; /* Ray's "ip=": never a lane, but a node other than the driver's */
};

void tok_lane_src_of(const struct tok_prefix *pf, struct tok_lane_src *out);
/* tok_record_lane() from a tok_lane_src of record p / len. */
size_t tok_lane_from(const struct tok_lane_src *src, const char *p, size_t len, char *out,
                     size_t outsz);

/**
 * tok_parse_lane() : the host and/or rank a record belongs to, when it says so: the host and rank
 * its prefixes name ("[rank1]:", torchrun's "[default0]:", vLLM's "rank=1", the host of a syslog
 * line or a journal entry), else "[Rank 1]" / "rank1:" in its body or NCCL's "host:pid:tid [rank]".
 * Writes a short NUL-terminated label such as "rank1", "spark-02", "spark-02/rank1" into out (outsz
 * >= 64) and returns its length; 0 (out = "") when the record names no lane.
 */
size_t tok_parse_lane(enum tok_kind kind, const char *p, size_t len, char *out, size_t outsz);

/**
 * tok_lane_from_path() : the rank a file name states ("rank0.log", "rank_3/stderr.log",
 * "worker-1.log", "node1"), same output contract as tok_parse_lane().
 */
size_t tok_lane_from_path(const char *path, char *out, size_t outsz);

/* Parse a decimal number at p (with optional sign, fraction, exponent); 0 on success. */
int tok_parse_double(const char *p, size_t len, double *out);

/*
 * ---- the run record (run.txt) ----
 *
 * `gotcha record` keeps how the command ended in a small file of its own format (a run record),
 * which the scan reads as such: a first line TOK_RUN_RECORD_MAGIC followed by the version, then
 * "key: value" fields, one per line, with the keys below, and free lines (the line a shell prints
 * for a command a signal ended: "Segmentation fault (core dumped)", "Killed"). The fields
 * describe the run (its command line, cwd, times): they are not log input, and no signature sees
 * them; a free line is what the terminal would have shown, and is read as log input. The
 * exit field's value is "N" (optionally followed by " (why)"), or "signal N" (optionally followed
 * by " (...)"), or absent while the command still runs.
 */
#define TOK_RUN_RECORD_MAGIC      "gotcha record "
#define TOK_RUN_RECORD_COMMAND    "command"
#define TOK_RUN_RECORD_CWD        "cwd"
#define TOK_RUN_RECORD_STARTED    "started"
#define TOK_RUN_RECORD_ENDED      "ended"
#define TOK_RUN_RECORD_DURATION   "duration_s"
#define TOK_RUN_RECORD_EXIT       "exit"
#define TOK_RUN_RECORD_KERNEL_LOG "kernel log"
#define TOK_RUN_RECORD_SIGNAL     "signal " /* the exit value of a command a signal ended */

enum tok_run_line {
    TOK_RUN_LINE_FREE = 0, /* not a field: log input */
    TOK_RUN_LINE_FIELD,    /* the first line or a field other than a readable exit status */
    TOK_RUN_LINE_EXIT      /* the exit field, with a status */
};

/* How a recorded command ended. */
struct tok_run_exit {
    int status; /* 0..255, as a shell reports it: 128 + N for signal N */
    int signal; /* N when a signal ended it, else 0 */
};

/* 1 when head (a member's first bytes) starts with a run record's first line. */
int tok_is_run_record(const char *head, size_t len);

/**
 * tok_run_record_line() : what one line of a run record is. For TOK_RUN_LINE_EXIT, *ex (may be
 * NULL) is the status it states.
 */
enum tok_run_line tok_run_record_line(const char *p, size_t len, struct tok_run_exit *ex);

#endif /* TOK_H */
