/*
 * cli/cli.h - the gotcha command line: options, commands, exit codes.
 *
 * cli_parse() turns argv into a struct cli_options and never exits; cli_run() runs a whole
 * command line against the given streams and returns the exit code; main() only calls cli_run()
 * and cli_close_stdout(). Only cli/ reads argv and the environment, prints diagnostics and picks
 * exit codes. No globals: the options are passed down explicitly.
 *
 * Exit codes (linter convention, docs/style.md section 7): CLI_EXIT_CLEAN when the scan found no
 * failure, CLI_EXIT_FINDINGS when it named a gotcha or the run failed, CLI_EXIT_ERROR on a usage
 * error, a broken pattern pack, a path named on the command line that cannot be opened, inputs
 * of which not one record could be read, or a failed write.
 */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"

enum { CLI_EXIT_CLEAN = 0, CLI_EXIT_FINDINGS = 1, CLI_EXIT_ERROR = 2 };

enum cli_command {
    CLI_CMD_NONE = 0, /* no arguments at all: short usage */
    CLI_CMD_SCAN,     /* "scan", or the PATH... shorthand */
    CLI_CMD_LIST,     /* "list" */
    CLI_CMD_EXPLAIN,  /* "explain ID" */
    CLI_CMD_PATTERNS, /* "patterns [--check] [DIR]" */
    CLI_CMD_BATCH,    /* "batch ROOT..." */
};

enum cli_color { CLI_COLOR_AUTO = 0, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };

struct cli_options {
    enum cli_command command; /* the command word; CLI_CMD_SCAN for the shorthand */
    int explicit_command;     /* 1 when argv[1] named the command */
    int help;                 /* -h/--help */
    int version;              /* --version */
    size_t nformats;          /* -f/--format: how many, in the order given */
    enum report_format formats[REPORT_FORMAT_COUNT]; /* -f/--format LIST, no duplicates */
    const char *output;          /* -o/--output FILE (a base name with several formats) */
    int redact;                  /* --redact 1, --no-redact 0, -1 = per format (md, html on) */
    enum cli_color color;        /* --color auto|always|never */
    const char *patterns_dir;    /* --patterns DIR, or NULL */
    const char **extra_patterns; /* --extra-patterns DIR, repeatable (array owned) */
    size_t nextra;               /* number of --extra-patterns */
    uint64_t max_line;           /* --max-line SIZE, 0 = default */
    uint64_t max_expand;         /* --max-expand SIZE, 0 = default */
    uint64_t expand_ratio;       /* --expand-ratio N, 0 = default */
    double threshold;            /* --threshold X, negative = default */
    const char *platform;        /* --platform gb10|other|auto, or NULL */
    int verbose;                 /* -v/--verbose */
    int quiet;                   /* -q/--quiet */
    int check;                   /* patterns --check */
    int stage_ingest;            /* --stage=ingest (hidden, benchmarks) */
    int probe_stats;        /* --probe-stats (hidden, benchmarks): prefilter counts on stderr */
    unsigned jobs;          /* -j/--jobs N: batch workers or scan matching threads, 0 = default */
    const char *files_from; /* batch --files-from FILE ("-" = stdin) */
    int nul_separated;      /* batch -0/--null */
    int run_depth;          /* batch --run-depth N, -1 = automatic */
    const char *cache;      /* batch --cache FILE */
    int summary;            /* batch --summary */
    int summary_only;       /* batch --summary-only */
    int timing;             /* batch --timing: rows carry duration_ms */
    int batch_csv;          /* batch -f/--format csv (default ndjson) */
    int batch_html;         /* batch -f/--format html: the dashboard */
    const char *batch_reports; /* batch --reports DIR */
    const char **args;         /* operands: PATH..., ID, DIR (array owned, strings borrowed) */
    size_t nargs;              /* number of operands */
};

/**
 * cli_parse() : parse argv into o (cleared first). Problems are written to err as one line
 * "gotcha: <problem>" plus "Try 'gotcha --help' for more information.".
 * @return 0 when o is ready to run, CLI_EXIT_ERROR on a usage error. Free o with
 * cli_options_free() either way.
 */
int cli_parse(int argc, char **argv, struct cli_options *o, FILE *err);
/* o with every option at its default (no command, no operand), as cli_parse() starts. */
void cli_options_init(struct cli_options *o);
void cli_options_free(struct cli_options *o);

/**
 * cli_run() : parse and run one command line; the report goes to out (or -o files), help and
 * version to out, diagnostics to err.
 * @return the exit code.
 */
int cli_run(int argc, char **argv, FILE *out, FILE *err);

/* Flush and close stdout; rc, or CLI_EXIT_ERROR (with a message on stderr) when that fails. */
int cli_close_stdout(int rc);

/* ---- decisions, exposed for tests ---- */

/* Colour for text on a destination: always/never, or auto = a TTY and NO_COLOR unset/empty. */
int cli_use_color(enum cli_color c, int is_tty, const char *no_color_env);
/* Redaction for format f: --redact/--no-redact, else on for md and html only. */
int cli_redact_for(const struct cli_options *o, enum report_format f);
/* The file for format f: FILE itself with one format, "BASE.<ext>" with several; caller frees. */
char *cli_output_path(const char *output, enum report_format f, size_t nformats);
/* The exit code of a finished scan: CLI_EXIT_ERROR when a named path could not be opened or a
 * report not written; CLI_EXIT_FINDINGS when it names a gotcha (has_verdict) or the run failed
 * (its outcome is "failed", gotcha or not); CLI_EXIT_CLEAN otherwise (completed, cut-off, or
 * unknown with no verdict). A scan that read nothing never gets here (cli_cmd_scan: 2). */
int cli_scan_exit_code(int named_path_failed, int has_verdict, int run_failed, int write_failed);
/* Threads for -j N: N itself, else online cores capped at max_default (at least 1). */
unsigned cli_jobs(unsigned jobs, unsigned max_default);
/**
 * cli_pack_dir() : the pattern pack directory: --patterns, else $GOTCHA_PATTERNS (env_patterns,
 * when not empty), else "patterns" beside the executable exe_path when that is a directory, else
 * "../share/gotcha/patterns" from the executable's directory (an installed tree, wherever it was
 * installed or moved), else GOTCHA_DATADIR "/patterns". Caller frees.
 */
char *cli_pack_dir(const char *patterns_opt, const char *env_patterns, const char *exe_path);

/* A usage error: "gotcha: <problem>" and the --help hint on err; returns CLI_EXIT_ERROR. */
int cli_bad_usage(FILE *err, const char *fmt, ...) AZ_PRINTF(2, 3);
/* A plain decimal number (digits only, no more digits than hi has) within [lo, hi]; 0 on
 * success. */
int cli_parse_whole(const char *arg, uint64_t lo, uint64_t hi, uint64_t *out);

/* ---- commands (cli_scan.c, cli_catalog.c) ---- */
int cli_cmd_scan(const struct cli_options *o, FILE *out, FILE *err);
int cli_cmd_stage_ingest(const struct cli_options *o, FILE *out, FILE *err);
int cli_cmd_list(const struct cli_options *o, FILE *out, FILE *err);
int cli_cmd_explain(const struct cli_options *o, FILE *out, FILE *err);
int cli_cmd_patterns(const struct cli_options *o, FILE *out, FILE *err);
int cli_cmd_batch(const struct cli_options *o, FILE *out, FILE *err); /* batch.c */
/* The live commands take their own argv (argv[0] is the command word): cli_preflight.c,
 * cli_record.c, cli_collect.c. */
int cli_cmd_preflight(int argc, char **argv, FILE *out, FILE *err);
int cli_cmd_record(int argc, char **argv, FILE *out, FILE *err);
int cli_cmd_collect(int argc, char **argv, FILE *out, FILE *err);

struct match_pack;
/* Load the pack the options name (cli_pack_dir() plus --extra-patterns); on failure print the
 * problems to err and return NULL. */
struct match_pack *cli_load_pack(const struct cli_options *o, FILE *err);
/* The platform to assume: --platform, else $GOTCHA_PLATFORM, else auto. -1 (reported) when
 * GOTCHA_PLATFORM holds something else. */
struct corr_config;
int cli_apply_platform(const struct cli_options *o, struct corr_config *cfg, FILE *err);
/* The pack directory for these options, from the environment and /proc/self/exe; caller frees. */
char *cli_resolve_pack_dir(const struct cli_options *o);

#endif /* CLI_H */
