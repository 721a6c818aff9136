/*
 * cli/batch.h - `gotcha batch`: find the runs under some roots (or take a list of them), analyse
 * each run independently with corr_analyze() on a pool of threads, and print one gotcha.batch/1 row
 * per run (NDJSON or CSV), in run-path order, identical for any thread count, or one HTML
 * dashboard over them (report_dash_write()); optionally a summary, each run's own HTML report
 * (--reports), and a cache that makes a re-scan analyse only new or changed runs. docs/batch.md
 * has the user's view.
 *
 * Threads share the pack (read-only); each worker has its own scanner and correlator state.
 */
#ifndef CLI_BATCH_H
#define CLI_BATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "correlate/corr.h"

struct batch_options {
    const char *const *roots; /* ROOT... (borrowed) */
    size_t nroots;
    const char *files_from;        /* --files-from FILE ("-" = stdin), or NULL */
    int nul_separated;             /* -0/--null: the list is NUL-separated */
    int run_depth;                 /* --run-depth N; -1 = automatic */
    unsigned jobs;                 /* -j N; 0 = online cores */
    int csv;                       /* --format csv (default ndjson) */
    int html;                      /* --format html: the dashboard instead of rows */
    int redact;                    /* the dashboard and --reports: redacted (cli: on by default) */
    const char *reports_dir;       /* --reports DIR: each read run's scan HTML there, or NULL */
    const char *reports_href;      /* DIR as the dashboard links it (relative to the page) */
    int summary;                   /* --summary: summary table on stderr */
    int summary_only;              /* --summary-only: the summary is the only output, on stdout */
    const char *cache_path;        /* --cache FILE, or NULL */
    int timing;                    /* --timing: rows carry duration_ms (wall time) */
    int progress;                  /* 1: progress on stderr (cli sets it when stderr is a TTY) */
    int quiet;                     /* -q: no warnings on stderr */
    const struct corr_config *cfg; /* borrowed; cfg->pack is shared by the workers */
};

/* Runs found under roots (or read from the list), sorted and unique; caller frees each string and
 * the array. Entries that cannot be listed are reported on err. @return the number of runs. */
size_t batch_discover(const struct batch_options *o, char ***runs, FILE *err);

/* Run the batch. @return the exit code: 0 when every run was read, 2 when some were not (or the
 * list/roots could not be read). Findings do not change it. */
int batch_run(const struct batch_options *o, FILE *out, FILE *err);

/* 64-bit identity of the pack and settings, part of the cache key. */
uint64_t batch_config_hash(const struct corr_config *cfg);

#endif /* CLI_BATCH_H */
