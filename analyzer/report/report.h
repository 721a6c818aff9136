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
 *  - With redact set, host and user names, e-mail, IP and MAC addresses and secrets are replaced
 *    in every string taken from the inputs (report_redact()), each name by the same placeholder
 *    everywhere in the report.
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
    const struct report_names *names; /* with redact: the names to use (borrowed; a bundle's, so
                                         its report numbers hosts as its members do); NULL: the
                                         report learns them from the result */
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

/*
 * Redaction (docs/report.md, "Redaction"): one table of what is replaced, used for every format
 * and for `gotcha collect`'s bundle (contents and member names alike).
 *
 * struct report_names holds the run's names, hosts and users, each with its numbered placeholder
 * ("<host-1>", "<user-2>", by sorted position), so one machine reads the same in every place of a
 * report or a bundle. Build it, learn every string it will see, then redact: a name learnt after
 * a redaction would renumber what was written. A name the table does not hold, found by its
 * context (an FQDN, "user=bob"), becomes the bare "<host>" / "<user>".
 */
struct report_names;

/**
 * report_names_new() : the names of hosts (the run's own: syslog hosts, NCCL prefixes, host
 * facts, the collecting machine), each by its first label ("dgx01.corp.example.com" is "dgx01";
 * addresses and "localhost" left out). Free with report_names_free().
 */
struct report_names *report_names_new(const char *const *hosts, size_t nhosts);
/* Add the names p[0..len) shows by their context: users of home directories, "user=", login
 * records; machines of FQDNs that look like one ("gpu-node-7.cluster.internal"). */
void report_names_learn(struct report_names *nm, const char *p, size_t len);
/* report_names_learn() over every input-derived string of r. */
void report_names_learn_result(struct report_names *nm, const struct corr_result *r);
void report_names_free(struct report_names *nm);

/**
 * report_redact() : append p[0..len) to out with secrets and identities replaced: HF, OpenAI,
 * AWS, GitHub tokens, password=/token=/secret= values and URL credentials by "<redacted>",
 * e-mail addresses by "<email>", IPv4/IPv6 by "<ip>", MAC addresses by "<mac>", user names (home
 * directories, "user=", sshd/PAM login records) by "<user-N>", host names (FQDNs that are no
 * public site's, URL hosts, and the names nm holds, as whole words) by "<host-N>". nm may be
 * NULL (no names known: contextual finds only, as "<host>"/"<user>").
 */
void report_redact(struct az_buf *out, const char *p, size_t len, const struct report_names *nm);

/* ---- batch rows: one object per run, schema gotcha.batch/1 (docs/batch.md) ---- */

struct report_batch_row {
    char *run;              /* the run's path as found or listed */
    char *outcome;          /* "failed", "completed", "cut-off", "unknown" (corr_outcome_name());
                               "" when the run could not be read */
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
 * same columns (duration_ms when row->timed; RFC 4180 quoting). first_error_text is the first
 * error's masked text, as the JSON row's first_error.text. */
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

/* ---- the batch dashboard: gotcha batch --format html (docs/batch.md "The dashboard") ----
 *
 * One self-contained HTML page over a batch: runs per week stacked by verdict class (inline SVG),
 * the share of each gotcha and each outcome, the most common first errors by fingerprint, and one
 * row per run. It is built from the batch rows plus a few facts per run that rows do not carry
 * (struct report_dash_facts: the outcome, the run's first time, the host names to redact), so a
 * cached run needs no second analysis. Aggregates count every run; the run table is bounded
 * (REPORT_DASH_MAX_TABLE_ROWS rows, REPORT_DASH_MAX_TABLE_BYTES bytes), so the page stays under
 * 10 MB at 100,000 runs. Same runs and options, same bytes. Not thread-safe per call; no state. */

#define REPORT_DASH_MAX_HOSTS       16      /* host names kept per run for redaction */
#define REPORT_DASH_TOP_ERRORS      20      /* first errors listed, the most common */
#define REPORT_DASH_EXAMPLES        3       /* example runs per first error, the newest */
#define REPORT_DASH_MAX_TABLE_ROWS  10000   /* runs listed in the table, the newest */
#define REPORT_DASH_MAX_TABLE_BYTES 6000000 /* and at most this much of the page */
#define REPORT_DASH_CHART_WEEKS     156     /* weeks drawn (three years), the latest */
#define REPORT_DASH_TABLE_WEEKS     520     /* weeks listed in the weekly table, the latest */

/* Where a run's time comes from. */
enum report_dash_when {
    REPORT_DASH_WHEN_NONE = 0,  /* no time at all: counted, not placed in a week */
    REPORT_DASH_WHEN_LOGS,      /* the first dated record of its logs */
    REPORT_DASH_WHEN_LOGS_YEAR, /* its first record, whose stamp has no year: the file time's */
    REPORT_DASH_WHEN_MTIME      /* the logs carry no date: the newest input's modification time */
};

struct report_dash_facts {
    enum corr_outcome outcome; /* CORR_OUTCOME_UNKNOWN for a run that was not read */
    enum report_dash_when when;
    int64_t first_usec; /* the run's time, wall clock microseconds since the epoch (when != NONE) */
    size_t nhosts;
    char **hosts; /* host names its logs show, for redaction; sorted, at most
                     REPORT_DASH_MAX_HOSTS; owned */
};

/* Facts of an analysed run: its outcome and first absolute time (r->start), else the newest
 * input's mtime (seconds; 0 = unknown). */
void report_dash_facts_from_result(struct report_dash_facts *f, const struct corr_result *r,
                                   int64_t newest_mtime);
/* Facts of a run that could not be analysed: outcome unknown, the time from newest_mtime. */
void report_dash_facts_from_mtime(struct report_dash_facts *f, int64_t newest_mtime);
/* One compact JSON object on one line (no newline, no tab: the batch cache keeps it beside the
 * row). Caller frees with free(). */
char *report_dash_facts_json(const struct report_dash_facts *f);
/* Parse what report_dash_facts_json() wrote. @return AZ_OK, or AZ_FAIL (f left empty). */
enum az_status report_dash_facts_parse(struct report_dash_facts *f, const char *json, size_t len);
void report_dash_facts_free(struct report_dash_facts *f);

/* The file name of a run's own HTML report in `batch --reports DIR`: "<tail of the run path,
 * [A-Za-z0-9._-] only>-<16 hex digits of FNV-1a of the path>.html", or, with redact (the name
 * would show what the report hides), "run-<16 hex>.html". Deterministic, distinct per path. */
void report_dash_report_name(const char *run, int redact, char *out, size_t outsz);

/* One run as the dashboard sees it. */
struct report_dash_input {
    const struct report_batch_row *row;    /* borrowed */
    const struct report_dash_facts *facts; /* borrowed */
    int has_report;                        /* 1: its report was written under reports_href */
};

/* How a run counts in the chart and the shares. */
enum report_dash_class {
    REPORT_DASH_GOTCHA = 0,    /* the verdict names an entry of the pack (G1..G10, site ids) */
    REPORT_DASH_OTHER_FAILURE, /* no gotcha; the run failed, was cut off, or shows an error */
    REPORT_DASH_HEALTHY,       /* no gotcha; completed, or no error and no known end */
    REPORT_DASH_NOT_READ       /* the run could not be read (its row has an error) */
};

struct report_dash_category {
    const char *id;    /* verdict id ("G4"), or "other", "healthy", "not read"; borrowed/static */
    const char *title; /* the entry's title, or a phrase; borrowed/static */
    enum report_dash_class cls;
    size_t runs;
};

struct report_dash_week {
    int64_t monday; /* days since 1970-01-01 of the week's Monday */
    size_t runs;
};

struct report_dash_error {
    const char *fingerprint, *id, *text; /* borrowed from a row */
    size_t runs;
    int64_t first_usec, last_usec; /* over its timed runs; valid when timed */
    int timed;
    size_t nexamples;
    size_t example[REPORT_DASH_EXAMPLES]; /* run indexes, the newest first */
};

struct report_dash_agg {
    size_t nruns;
    size_t ntimed;                 /* runs placed in a week */
    int64_t first_usec, last_usec; /* over the timed runs */
    size_t ncats;
    struct report_dash_category *cats; /* the pack's gotchas in pack order, verdicts the pack does
                                          not name (sorted), then other, healthy, not read */
    size_t *cat_of;                    /* per run: its index in cats */
    size_t outcomes[4];                /* read runs by enum corr_outcome */
    size_t nweeks;
    struct report_dash_week *weeks; /* weeks that have runs, oldest first */
    size_t *week_cat;               /* nweeks x ncats counts: week_cat[w * ncats + c] */
    size_t nerrors_distinct;        /* distinct first-error fingerprints */
    size_t nerrors;
    struct report_dash_error *errors; /* the REPORT_DASH_TOP_ERRORS most common: runs desc, then
                                         fingerprint */
};

/* Count runs[0..n) (exact; O(n log n)). pack may be NULL (categories from the rows alone). */
void report_dash_aggregate(struct report_dash_agg *a, const struct report_dash_input *runs,
                           size_t n, const struct match_pack *pack);
void report_dash_agg_free(struct report_dash_agg *a);
/* Days since the epoch of the Monday of the week holding usec (weeks start on Monday). */
int64_t report_dash_monday(int64_t usec);

struct report_dash_options {
    int redact;               /* 1: report_redact() every string from the runs (default in cli) */
    const char *tool_version; /* NULL: the build's */
    const char *reports_href; /* the reports directory relative to the page, "" or NULL: none */
};

/**
 * report_dash_write() : write the dashboard of runs[0..n) (in run order) to out.
 * @return AZ_OK, or AZ_FAIL when writing failed.
 */
enum az_status report_dash_write(FILE *out, const struct report_dash_input *runs, size_t n,
                                 const struct match_pack *pack,
                                 const struct report_dash_options *o);

/* Version of the linked jansson, "2.14". Static. */
const char *report_jansson_version(void);

#endif /* REPORT_H */
