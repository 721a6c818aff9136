/*
 * cli/live.h - what the live commands share beyond the host facts (host.h): the preflight checks,
 * which `gotcha preflight` prints and `gotcha record` keeps beside the run.
 *
 * The checks are the pack's ("preflight", docs/patterns.md "Preflight": the skill's G1..G10 and
 * any a site adds) in the skill's line format, "<id> <STATUS>: <text>", one line per entry that
 * has one, in pack order (docs/live.md). The C is one runner: it extracts host facts into named
 * values, runs the check's probes (an environment variable, a file, a command or a Python
 * one-liner, each under a deadline; a missing tool is a SKIP), and takes the first rule whose
 * conditions hold. The pack's texts are worded so that a scan of a recorded run reads them as
 * the facts they state and nothing more: a FAIL the pack knows (G1) stays evidence, an INFO or a
 * SKIP never quotes a log line or an exception (those would read as the run's own errors), and
 * only a host of the platform names its kernel target (a capability fact).
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

#define CLI_PF_MAX 64 /* checks run; the pack's past this are left out (a site has a few) */

struct cli_preflight {
    size_t n;
    const char *id[CLI_PF_MAX]; /* the entry's id, borrowed from the pack */
    enum cli_pf_status status[CLI_PF_MAX];
    char *text[CLI_PF_MAX]; /* owned */
};

/* Run the pack's checks on gathered facts (timeouts name lim's values), in pack order; a check
 * the runner cannot read is an UNKNOWN line naming the problem. Free with cli_preflight_free().
 */
void cli_preflight_check(const struct cli_host *h, const struct cli_host_limits *lim,
                         const struct match_pack *pack, struct cli_preflight *p);
void cli_preflight_free(struct cli_preflight *p);
/* "PASS", "FAIL", ... */
const char *cli_pf_status_name(enum cli_pf_status s);
/* The lines, each "<id> STATUS: text\n". */
void cli_preflight_write_text(const struct cli_preflight *p, FILE *out);
/* The object of schema gotcha.preflight/1 (docs/preflight.schema.json), with a newline. */
void cli_preflight_write_json(const struct cli_preflight *p, const struct cli_host *h,
                              const struct match_pack *pack, FILE *out, const char *tool_version);
/* 1 when the host has no NVIDIA GPU (nvidia-smi missing, failing or listing none, and torch
 * naming no device): the checks that would PASS are SKIP then. */
int cli_preflight_no_gpu(const struct cli_host *h);
/* 1 when a check FAILed, or (strict) WARNed. */
int cli_preflight_failed(const struct cli_preflight *p, int strict);

#endif /* CLI_LIVE_H */
