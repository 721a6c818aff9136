/*
 * correlate/detect_private.h - what the detector files share (detect_*.c only).
 *
 * The layers, top down: detect.c runs the rules (rules.c dispatches each to its primitive); the
 * primitive families (detect_series.c, detect_capacity.c, detect_group.c, detect_version.c,
 * detect_order.c) each decide and claim their outcomes; detect_context.c builds the run's context
 * and detect_weight.c a line's weight; detect_util.c, at the bottom, holds the helpers below and
 * calls no detector file. The helpers borrow every record and string they return from the state
 * (valid until corr_state is freed); none allocates but corr_series_rec() (a detector record the
 * state keeps) and corr_run_hosts() (a value).
 */
#ifndef DETECT_PRIVATE_H
#define DETECT_PRIVATE_H

#include <math.h>

#include "correlate/corr_private.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* A primitive's parameter, and a template variable (number, string). */
#define N(name)  corr_rule_num(rr, name)
#define S(name)  corr_rule_str(rr, name)
#define VN(n, v) ((struct corr_var){n, (v), NULL})
#define VS(n, v) ((struct corr_var){n, NAN, (v)})

/* ---- iteration ---- */

typedef void (*rec_visit_fn)(struct corr_state *st, void *ctx, const struct corr_rec *r);

struct visit_ctx {
    struct corr_state *st;
    rec_visit_fn fn;
    void *ctx;
};

/* corr_sig_each()'s callback that calls v->fn (a struct visit_ctx). */
void corr_visit_tramp(void *vctx, const struct corr_rec *r);
/* Every kept record of the entry (or, e NULL, of every entry). */
void corr_each_rec(struct corr_state *st, const struct match_entry *e, rec_visit_fn fn, void *ctx);
/* The earliest (or, with latest, the last) kept record of e (any entry when NULL) that has the
 * fact; NULL when none. corr_find_fact() is the earliest. */
const struct corr_rec *corr_find_fact_at(struct corr_state *st, const struct match_entry *e,
                                         const char *fact, int latest);
const struct corr_rec *corr_find_fact(struct corr_state *st, const struct match_entry *e,
                                      const char *fact);
/* A record's fact as text, or as a number (NAN when absent or not a number). */
const char *corr_fact_str(const struct corr_rec *r, const char *fact);
double corr_fact_num(const struct corr_rec *r, const char *fact);

/* ---- entries, signatures, tags ---- */

const struct match_entry *corr_entry_of(const struct corr_state *st, const char *id);
/* 1 when a signature of the entry has a kept record. */
int corr_entry_hit(const struct corr_state *st, const struct match_entry *e);
const struct corr_rec *corr_entry_earliest(const struct corr_state *st,
                                           const struct match_entry *e);
/* Earliest kept record of the signature with that id, or NULL. */
const struct corr_rec *corr_find_sig_rec(const struct corr_state *st, const char *sig_id);
/* Earliest kept record of any signature with the tag (of a gotcha or common entry and not
 * context-strength when failures_only), or NULL. */
const struct corr_rec *corr_tag_earliest(const struct corr_state *st, const char *tag,
                                         int failures_only);
/* A rule's "when_tag": 1 when absent, else when a failure line carries the tag. */
int corr_when_tag(const struct corr_rule_run *rr);
/* A rule's "when_tags" (a list): 1 when absent, else when a failure line carries one of them. */
int corr_when_tags(const struct corr_rule_run *rr);

/* ---- text and lists ---- */

/* Case-insensitive substring; 0 when either is NULL. */
int corr_contains(const char *s, const char *needle);
/* 1 when name contains one of the list's strings. */
int corr_contains_any(const char *name, const struct match_value *list);
/* Does pkg (compared up to a version separator) name one of the list's packages? */
int corr_key_package(const char *pkg, const struct match_value *keys);
/* 1 when the kind is in a "train" or "vllm|stderr" group. */
int corr_kind_in_group(enum tok_kind k, const char *group);

/* ---- hosts: the machines the logs show ---- */

#define RUN_HOSTS_MAX 8

struct host_set {
    size_t n;
    char name[RUN_HOSTS_MAX][CORR_LANE_MAX];
};

/* Hosts named by syslog/lane prefixes and by NCCL line prefixes. */
struct host_set corr_run_hosts(struct corr_state *st);

/* ---- clocks, places, series ---- */

/* A time as the report's clock ("?" when none). */
void corr_fmt_clock(const struct corr_state *st, struct az_time t, char *out, size_t n);
/* "path:line" of a record, in buf. */
const char *corr_where(const struct corr_state *st, const struct corr_rec *r, char *buf, size_t n);
/* A detector evidence record at a series point. */
const struct corr_rec *corr_series_rec(struct corr_state *st, const struct corr_sbuild *b, size_t i,
                                       const char *text);
/* Median of the second half of a series' points (NAN when empty). */
double corr_median_of_tail(const struct corr_sbuild *b);

#endif
