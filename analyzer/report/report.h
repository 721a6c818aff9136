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

enum report_format { REPORT_TEXT = 0, REPORT_JSON, REPORT_MD, REPORT_HTML, REPORT_PREFLIGHT,
                     REPORT_FORMAT_COUNT };

struct report_options {
    int color;       /* 1: ANSI colour (text only; cli decides from TTY, NO_COLOR, --color) */
    int redact;      /* 1: apply report_redact() to every input-derived string */
    int verbose;     /* 1: all evidence and the whole timeline, not the top of each */
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

/* Version of the linked jansson, "2.14". Static. */
const char *report_jansson_version(void);

#endif /* REPORT_H */
