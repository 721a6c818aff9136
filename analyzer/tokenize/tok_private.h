/*
 * tokenize/tok_private.h - what tok_time.c and tok_prefix.c share: the stamp reader the prefix
 * shapes use for their time fields. Not for other modules.
 */
#ifndef TOK_PRIVATE_H
#define TOK_PRIVATE_H

#include "tokenize/tok.h"

/* Which stamp shape was read: lanes and prefixes need it (a syslog stamp is followed by a host). */
enum tok_fmt {
    TOK_FMT_NONE = 0,
    TOK_FMT_ISO,    /* 2026-11-29 10:12:55,123 / 2026/11/29 ... */
    TOK_FMT_ISO_T,  /* ISO with a 'T' separator: journalctl short-iso, RFC 3339 syslog */
    TOK_FMT_DMON,   /* nvidia-smi dmon -o DT "20261129 10:12:55" */
    TOK_FMT_GLOG,   /* I1129 10:12:55.123456 */
    TOK_FMT_SYSLOG, /* Nov 29 10:12:55 */
    TOK_FMT_CTIME,  /* [Sat Nov 29 10:12:55 2026] */
    TOK_FMT_BOOT,   /* [12345.678901] */
    TOK_FMT_VLLM,   /* INFO 11-29 10:12:55 */
    TOK_FMT_MMDD,   /* 11-29 10:12:55 (vLLM's date after its level word) */
};

/* A stamp that starts exactly at p[i] (no prefix, blank or bracket skipped): any format but raw
 * dmesg's. *end is the offset past it. */
struct az_time tok_stamp_at(const char *p, size_t len, size_t i, size_t *end, enum tok_fmt *fmt);

/* vLLM's "MM-DD hh:mm:ss[.frac]" at p[i]. */
struct az_time tok_mmdd_at(const char *p, size_t len, size_t i, size_t *end);

/* TensorRT(-LLM)'s Python logger stamp "MM/DD/YYYY-hh:mm:ss" at p[i]. */
struct az_time tok_slash_stamp_at(const char *p, size_t len, size_t i, size_t *end);

/* The level of a one-letter severity, TensorRT's "[E]" / "[W]" / "[I]" / "[V]" / "[F]" (and glog's
 * letters), else TOK_LEVEL_NONE. */
enum tok_level tok_level_letter(unsigned char c);

/* The level of a word p[0..n) when it is one of the logging level names, else TOK_LEVEL_NONE. */
enum tok_level tok_level_word(const char *p, size_t n);

/* Severity of a syslog priority (0 emerg .. 7 debug). */
enum tok_level tok_level_of_priority(unsigned prio);

#endif /* TOK_PRIVATE_H */
