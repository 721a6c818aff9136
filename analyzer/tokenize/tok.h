/*
 * tokenize/tok.h - what a line is: the kind of file it comes from, its timestamp, its level and
 * the lane (host, rank) it belongs to. Pure functions over (pointer, length): no allocation, no
 * state, safe from any thread. Depends on common/ only.
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
    TOK_KIND_COUNT
};

/* Stable lowercase name used in patterns, reports and docs ("smi-csv"). */
const char *tok_kind_name(enum tok_kind k);
/* Inverse of tok_kind_name(); -1 when unknown. */
int tok_kind_from_name(const char *name);

/**
 * tok_classify() : the kind of a member from its first bytes (head, up to 64 KiB) and its base
 * name (may be NULL or empty; a hint only).
 */
enum tok_kind tok_classify(const char *name, const char *head, size_t len);

enum tok_level {
    TOK_LEVEL_NONE = 0,
    TOK_LEVEL_DEBUG,
    TOK_LEVEL_INFO,
    TOK_LEVEL_WARN,
    TOK_LEVEL_ERROR,
    TOK_LEVEL_FATAL
};

/**
 * tok_parse_time() : the timestamp a record starts with (after leading spaces and one optional
 * "[" or "<n>" syslog priority), in any format gotcha knows:
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

/* The severity a record states ("ERROR", "[E1129", "WARNING:", " E " in vLLM, "<3>" ...). */
enum tok_level tok_parse_level(const char *p, size_t len);

/**
 * tok_parse_lane() : the host and/or rank a record belongs to, when it says so: "[rank1]:",
 * "[Rank 1]", "rank1:", torchrun's "[default0]:", NCCL's "host:pid:tid [rank]" prefix, the hostname
 * of a syslog line. Writes a short NUL-terminated label such as "rank1", "spark-02",
 * "spark-02/rank1" into out (outsz >= 64) and returns its length; 0 (out = "") when the record
 * names no lane.
 */
size_t tok_parse_lane(enum tok_kind kind, const char *p, size_t len, char *out, size_t outsz);

/**
 * tok_lane_from_path() : the rank a file name states ("rank0.log", "rank_3/stderr.log",
 * "worker-1.log", "node1"), same output contract as tok_parse_lane().
 */
size_t tok_lane_from_path(const char *path, char *out, size_t outsz);

/* Parse a decimal number at p (with optional sign, fraction, exponent); 0 on success. */
int tok_parse_double(const char *p, size_t len, double *out);

#endif /* TOK_H */
