/*
 * cli/live.h - what the live commands share beyond the host facts (host.h): the preflight checks,
 * which `gotcha preflight` prints and `gotcha record` keeps beside the run.
 *
 * The checks are the skill's G1..G10 in its line format, "G<n> <STATUS>: <text>", one line per
 * gotcha in order (docs/live.md). Their texts are worded so that a scan of a recorded run
 * reads them as the facts they state and nothing more: a FAIL the pack knows (G1) stays
 * evidence, an INFO or a SKIP never quotes a log line or an exception (those would read as the
 * run's own errors), and only a GB10 host's lines name sm_121 (a capability fact).
 */
#ifndef CLI_LIVE_H
#define CLI_LIVE_H

#include <stdio.h>

#include "cli/host.h"

enum cli_pf_status {
    CLI_PF_PASS = 0,
    CLI_PF_FAIL,
    CLI_PF_WARN,
    CLI_PF_SKIP,
    CLI_PF_INFO,
    CLI_PF_UNKNOWN
};

#define CLI_PF_CHECKS 10 /* G1..G10: the skill's numbering is load-bearing */

struct cli_preflight {
    enum cli_pf_status status[CLI_PF_CHECKS];
    char *text[CLI_PF_CHECKS]; /* owned */
};

/* Run the ten checks on gathered facts (timeouts name lim's values). Free with
 * cli_preflight_free(). */
void cli_preflight_check(const struct cli_host *h, const struct cli_host_limits *lim,
                         struct cli_preflight *p);
void cli_preflight_free(struct cli_preflight *p);
/* "PASS", "FAIL", ... */
const char *cli_pf_status_name(enum cli_pf_status s);
/* The ten lines, each "G<n> STATUS: text\n". */
void cli_preflight_write_text(const struct cli_preflight *p, FILE *out);
/* The object of schema gotcha.preflight/1 (docs/preflight.schema.json), with a newline. */
void cli_preflight_write_json(const struct cli_preflight *p, const struct cli_host *h, FILE *out,
                              const char *tool_version);
/* 1 when a check FAILed, or (strict) WARNed. */
int cli_preflight_failed(const struct cli_preflight *p, int strict);

#endif /* CLI_LIVE_H */
