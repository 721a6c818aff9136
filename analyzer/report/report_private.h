/*
 * report/report_private.h - what the report writers (text.c, json.c, md.c, html.c,
 * preflight.c) share: the writing context, input-string preparation, time and number formatting.
 *
 * Every writer renders into c->out (one buffer) and report_write() writes it to the FILE * at
 * the end, so a writer never deals with IO errors and a failed write leaves nothing half-checked.
 */
#ifndef REPORT_PRIVATE_H
#define REPORT_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/az.h"
#include "correlate/corr.h"
#include "report/report.h"

#define RPT_TOOL_NAME  "gotcha"
#define RPT_SCHEMA     "gotcha.report/1"
#define RPT_NONE_TITLE "No known gotcha (none of G1\xe2\x80\x93G10)"
/* A finding at or above this confidence counts as found (preflight FAIL) even when not the verdict.
 */
#define RPT_HIGH_CONFIDENCE 0.5
/* Compact views (no --verbose): at most this many evidence lines and timeline events. */
#define RPT_TOP_EVIDENCE 5
#define RPT_TOP_EVENTS   12

struct rpt {
    const struct corr_result *r;
    const struct match_pack *pack;    /* may be NULL */
    const struct report_options *o;   /* never NULL (defaults filled in by report_write()) */
    struct az_buf out;                /* the whole report */
    struct az_buf red;                /* scratch of rpt_input() */
    const struct report_names *names; /* with redact: o->names, else own_names */
    struct report_names *own_names;   /* learnt from r when o->names is NULL; owned */
    int failed;                       /* a writer could not render (out of memory in jansson) */
    char none_title[256];             /* rpt_none_title()'s text */
};

/* "No known gotcha (none of G1–G10)", naming the pack's gotchas: the numbered range, then up to
 * three site ids ("and N more" past them); RPT_NONE_TITLE without a pack. Borrowed from c. */
const char *rpt_none_title(struct rpt *c);

/**
 * rpt_input() : the input-derived string s (NULL counts as "") as it may be shown: redacted when
 * the options ask for it. Borrowed, valid until the next rpt_input() call. *len gets its length.
 */
const char *rpt_input(struct rpt *c, const char *s, size_t *len);

/* Append s (with length) as valid UTF-8: invalid bytes become the text "\xNN". */
void rpt_utf8_clean(struct az_buf *out, const char *p, size_t len);
/* Append p[0..len) with & < > " ' escaped for HTML text and attribute values. */
void rpt_html_escape(struct az_buf *out, const char *p, size_t len);
/* Code points in a UTF-8 string (continuation bytes are not counted): its width on a terminal,
 * near enough (wide CJK characters are counted as one). */
size_t rpt_columns(const char *p, size_t len);
/* Byte length of the longest prefix of p[0..len) that has at most cols code points. */
size_t rpt_prefix_for_columns(const char *p, size_t len, size_t cols);

/* Where the shortest suffix of paths[i] that starts a path component ('/' or ':' before it) and
 * that no other distinct path of paths[0..n) ends with starts: "dmesg.log" when it alone tells
 * the lanes apart, "a/dmesg.log" beside "b/dmesg.log", 0 (the whole path) when even that is a
 * suffix of another. A byte offset into paths[i]. */
size_t rpt_unique_suffix(const char *const *paths, size_t n, size_t i);

/* ISO-8601 for JSON: ABS "2026-11-29T10:12:55" (".123" when the stamp has a fraction),
 * NOYEAR "--11-29T10:12:55", BOOT "+123.456789s", NONE "" (the writers emit null). */
void rpt_time_iso(struct az_time t, char *out, size_t outsz);
/* Short time for people: clock "13:21:03" when the run's span is one day (or unknown), else
 * "05-12 13:21:03"; BOOT "+123.4s"; NONE "". A "~" prefix when approx. */
void rpt_time_short(const struct corr_result *r, struct az_time t, int approx, char *out,
                    size_t outsz);
/* "1 h 49 min", "12 min 5 s", "45 s". */
void rpt_duration(int64_t usec, char *out, size_t outsz);
/* "48,213". */
void rpt_thousands(uint64_t v, char *out, size_t outsz);
/* The run's span for a header line: "2026-05-12 13:04 → 14:53 (1 h 49 min)" or "" when unknown. */
void rpt_span_text(const struct corr_result *r, char *out, size_t outsz);
/* "GB10, aarch64, CUDA 13.0, container" from what is known; may be "". Input-derived: the
 * caller treats it as such (it goes through rpt_input()). Caller frees with free(). */
char *rpt_context_text(const struct rpt *c);

/* The tool version to print: the option's, else the build's. */
const char *rpt_tool_version(const struct rpt *c);
/* "G4", a common id, or "none". */
const char *rpt_verdict_id(const struct corr_result *r);
/* Confidence rounded to two decimals, clamped to 0..1 (NaN gives 0). */
double rpt_round2(double x);
/* The verdict's finding, or NULL. */
const struct corr_finding *rpt_verdict_finding(const struct corr_result *r);
/* Entry id or "?" when an entry pointer is missing (never expected; keeps writers total). */
const char *rpt_entry_id(const struct match_entry *e);
const char *rpt_entry_title(const struct match_entry *e);
const char *rpt_entry_fix(const struct match_entry *e);
/* The first error's title and fix: a catalogue code's own ("Xid 79: GPU has fallen off the
 * bus", its action; "Xid 999: not in the catalogue" and the entry's fix for a code the table does
 * not list), else its entry's; "" when none. */
const char *rpt_first_error_title(const struct corr_result *r);
const char *rpt_first_error_fix(const struct corr_result *r);
/* The catalogue code of the first error, or NULL; and how often the run shows it (NULL when
 * not a code). */
const struct match_code *rpt_first_error_code(const struct corr_result *r);
const struct corr_code_seen *rpt_code_seen(const struct corr_result *r,
                                           const struct match_code *code);

/* The fault codes the run shows, repeats collapsed, for people: "Xid 13 ×812 (10:01:02 → 10:44:10),
 * Xid 79 ×1 (10:44:12)"; nothing when no code repeats and at most one is seen (the first error
 * says it already). Appends to out. */
void rpt_codes_text(const struct corr_result *r, struct az_buf *out);

/* Room for rpt_outcome_why()'s text. */
#define RPT_OUTCOME_WHY_MAX 64
/* The outcome's reason, before the path:line of r->outcome_at: "exit status 3 at" (a run
 * record's), "first error at", "ended at" (an end marker), "log stops at" (cut-off); for
 * unknown, the whole reason ("no job log among the inputs", "nothing was read"). Static text,
 * or written into buf (bufsz >= RPT_OUTCOME_WHY_MAX) and returned. */
const char *rpt_outcome_why(const struct corr_result *r, char *buf, size_t bufsz);

/* 1 when warning i only repeats a skipped entry ("path: reason"), which is shown already. */
int rpt_warning_is_skip(const struct corr_result *r, size_t i);
/* Index of events for the compact timeline: all when verbose, else the first and last, those that
 * support a finding, then the run's own events (inputs starting and ending, errors), never
 * background facts, at most RPT_TOP_EVENTS. Returns the count; idx must hold r->nevents entries. */
size_t rpt_pick_events(const struct rpt *c, size_t *idx);

/* ---- HTML pieces shared by html.c (scan's page) and dashboard.c (batch's page) ---- */

/* The page's opening up to its <title>: doctype, charset, a Content-Security-Policy that allows
 * no script and no request (inline style only), the viewport. */
#define RPT_HTML_HEAD                                                                              \
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"                          \
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "                  \
    "style-src 'unsafe-inline'\">\n"                                                               \
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
/* The style sheet of every page (layout, tables, code, SVG axes and text). */
extern const char rpt_html_css[];
/* Append p[0..len) sanitized (report_sanitize_terminal()) and HTML-escaped, cut to cols code
 * points with "…" (cols 0: whole). scratch is the caller's work buffer. */
void rpt_html_text(struct az_buf *out, struct az_buf *scratch, const char *p, size_t len,
                   size_t cols);
/* As rpt_html_text(), keeping the end ("…job42/dmesg.log"): a path's last components are the
 * ones that tell two apart. */
void rpt_html_text_tail(struct az_buf *out, struct az_buf *scratch, const char *p, size_t len,
                        size_t cols);
/* 1, 2 or 5 times a power of ten, at least raw: steps people read at a glance. */
double rpt_nice_step(double raw);

void rpt_write_text(struct rpt *c);
void rpt_write_json(struct rpt *c);
void rpt_write_md(struct rpt *c);
void rpt_write_html(struct rpt *c);
void rpt_write_preflight(struct rpt *c);

#endif /* REPORT_PRIVATE_H */
