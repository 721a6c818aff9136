/*
 * report/report.h - write a diagnosis (struct corr_result) for people and programs:
 * text (terminal), json (schema gotcha.report/1, docs/report.schema.json), md (GitHub issue),
 * html (one self-contained page with SVG plots), preflight (the skill's "G<n> STATUS: ..." lines).
 *
 * Contract:
 *  - Writers print to the FILE * they are given and nothing else; they never exit.
 *  - Output is a pure function of the result and the options: byte-identical for equal inputs.
 *  - Text from logs is sanitized for the target: no byte from an input reaches a terminal as a
 *    control sequence (report_sanitize_terminal()); JSON, Markdown and HTML escape per format.
 *  - With redact set, host names, user names in home paths, IP and MAC addresses and secrets are
 *    replaced in every string taken from the inputs (report_redact()).
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "common/az.h"
#include "correlate/corr.h"

enum report_format {
    REPORT_TEXT = 0,
    REPORT_JSON,
    REPORT_MD,
    REPORT_HTML,
    REPORT_PREFLIGHT,
    REPORT_FORMAT_COUNT
};

struct report_options {
    int color;   /* 1: ANSI colour (text only; cli decides from TTY, NO_COLOR, --color) */
    int redact;  /* 1: apply report_redact() to every input-derived string */
    int verbose; /* 1: all evidence and the whole timeline, not the top of each */
    const char *tool_version;
};

/* "text", "json", "md", "html", "preflight"; -1 when unknown. */
int report_format_from_name(const char *name);
const char *report_format_name(enum report_format f);
/* File extension for -o BASE with several formats: "txt", "json", "md", "html", "preflight". */
const char *report_format_ext(enum report_format f);

/**
 * report_write() : write r in format f to out.
 * @return AZ_OK, or AZ_FAIL when writing failed (ferror).
 */
enum az_status report_write(FILE *out, enum report_format f, const struct corr_result *r,
                            const struct match_pack *pack, const struct report_options *o);

/**
 * report_sanitize_terminal() : append p[0..len) to out so that it is safe on a terminal: escape
 * sequences and C0/C1 controls other than TAB are shown as visible escapes ("\x1b"), invalid UTF-8
 * bytes as "\xNN"; valid UTF-8 text is kept as is.
 */
void report_sanitize_terminal(struct az_buf *out, const char *p, size_t len);

/**
 * report_redact() : append p[0..len) to out with secrets and identities replaced: HF, OpenAI,
 * AWS, GitHub tokens and password=/token=/secret= values by "<redacted>", IPv4/IPv6 by "<ip>",
 * MAC addresses by "<mac>", /home/USER and /Users/USER by /home/<user>, and host names given in
 * hosts (learned from the run's own logs: syslog hosts, NCCL prefixes) by "<host>".
 */
void report_redact(struct az_buf *out, const char *p, size_t len, const char *const *hosts,
                   size_t nhosts);

/* ---- batch rows: one object per run, schema gotcha.batch/1 (docs/batch.md) ---- */

struct report_batch_row {
    char *run;              /* the run's path as found or listed */
    char *verdict;          /* "G4", ..., or "none"; "" when the run could not be read */
    double confidence;      /* of the verdict (or of the best candidate when none) */
    char *first_error;      /* entry id of the first error ("C.xid"), "" when none */
    char *first_error_at;   /* "path:line" of the first error, "" when none */
    char *fingerprint;      /* 16 hex digits naming "the same failure" across runs, "" when none */
    char *fingerprint_text; /* the first error with numbers, paths, hex and ids masked */
    size_t nfindings;
    char **findings;      /* finding ids, in result order */
    uint64_t inputs;      /* members read */
    uint64_t skipped;     /* entries and members skipped */
    uint64_t duration_ms; /* wall time of the analysis (meaningful when timed) */
    int timed;            /* 1: duration_ms is known and written (batch --timing; the cache
                             always keeps it); 0: left out, so rows are a function of the runs */
    char *error;          /* why the run could not be read; "" when it was */
};

/* Fill row (all strings owned by row) from a result; the row is timed with duration_ms. */
void report_batch_row_from_result(struct report_batch_row *row, const char *run,
                                  const struct corr_result *r, uint64_t duration_ms);
/* A row for a run that could not be read at all. */
void report_batch_row_error(struct report_batch_row *row, const char *run, const char *error);
/* One JSON object on one line, no newline; "duration_ms" only when row->timed. Caller frees
 * with free(). */
char *report_batch_row_json(const struct report_batch_row *row);
/* Parse a line made by report_batch_row_json() (timed when it has "duration_ms").
 * @return AZ_OK or AZ_FAIL (row left empty). */
enum az_status report_batch_row_parse(struct report_batch_row *row, const char *json, size_t len);
/* The CSV header line (no newline; with a duration_ms column when timing), and one row in the
 * same columns (duration_ms when row->timed; RFC 4180 quoting). */
const char *report_batch_csv_header(int timing);
void report_batch_row_csv(struct az_buf *out, const struct report_batch_row *row);
void report_batch_row_free(struct report_batch_row *row);

/**
 * report_fingerprint() : mask a first-error text so that the same failure in different runs reads
 * the same: a leading timestamp is dropped, hex addresses -> <hex>, paths -> <path>, numbers ->
 * <n>, UUIDs and long ids -> <id>. masked receives the text; hex (17 bytes) a 64-bit FNV-1a of
 * the entry id (may be NULL) and the masked text, in hex: the same words from two entries differ.
 */
void report_fingerprint(const char *id, const char *text, size_t len, struct az_buf *masked,
                        char hex[17]);

/* Version of the linked jansson, "2.14". Static. */
const char *report_jansson_version(void);

#endif /* REPORT_H */
