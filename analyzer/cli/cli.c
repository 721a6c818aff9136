/* cli/cli.c - option parsing, help, version and command dispatch. See cli.h. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/az.h"
#include "ingest/ingest.h"
#include "match/match.h"
#include "tokenize/tok.h"

/* Long-only option ids. */
enum {
    OPT_REDACT = 256,
    OPT_NO_REDACT,
    OPT_COLOR,
    OPT_PATTERNS,
    OPT_EXTRA_PATTERNS,
    OPT_MAX_LINE,
    OPT_MAX_EXPAND,
    OPT_EXPAND_RATIO,
    OPT_THRESHOLD,
    OPT_PLATFORM,
    OPT_CHECK,
    OPT_VERSION,
    OPT_STAGE,
    OPT_PROBE_STATS,
    OPT_FILES_FROM,
    OPT_RUN_DEPTH,
    OPT_CACHE,
    OPT_SUMMARY,
    OPT_SUMMARY_ONLY,
    OPT_TIMING,
    OPT_REPORTS,
};

static const char short_options[] = ":o:f:vqhj:0";

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, 'f'},
    {"redact", no_argument, NULL, OPT_REDACT},
    {"no-redact", no_argument, NULL, OPT_NO_REDACT},
    {"color", required_argument, NULL, OPT_COLOR},
    {"patterns", required_argument, NULL, OPT_PATTERNS},
    {"extra-patterns", required_argument, NULL, OPT_EXTRA_PATTERNS},
    {"max-line", required_argument, NULL, OPT_MAX_LINE},
    {"max-expand", required_argument, NULL, OPT_MAX_EXPAND},
    {"expand-ratio", required_argument, NULL, OPT_EXPAND_RATIO},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"platform", required_argument, NULL, OPT_PLATFORM},
    {"check", no_argument, NULL, OPT_CHECK},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"stage", required_argument, NULL, OPT_STAGE},       /* hidden: benchmarks */
    {"probe-stats", no_argument, NULL, OPT_PROBE_STATS}, /* hidden: tests/bench/speed.sh */
    {"jobs", required_argument, NULL, 'j'},
    {"null", no_argument, NULL, '0'},
    {"files-from", required_argument, NULL, OPT_FILES_FROM},
    {"run-depth", required_argument, NULL, OPT_RUN_DEPTH},
    {"cache", required_argument, NULL, OPT_CACHE},
    {"summary", no_argument, NULL, OPT_SUMMARY},
    {"summary-only", no_argument, NULL, OPT_SUMMARY_ONLY},
    {"timing", no_argument, NULL, OPT_TIMING},
    {"reports", required_argument, NULL, OPT_REPORTS},
    {NULL, 0, NULL, 0},
};

static const struct {
    const char *name;
    enum cli_command cmd;
} commands[] = {
    {"scan", CLI_CMD_SCAN},         {"list", CLI_CMD_LIST},   {"explain", CLI_CMD_EXPLAIN},
    {"patterns", CLI_CMD_PATTERNS}, {"batch", CLI_CMD_BATCH},
};

/* ---- help texts (docs/gotcha.1 and docs/gotcha.bash-completion follow them) ---- */

static const char usage_short[] = "Usage: gotcha [scan] [OPTION]... PATH...\n"
                                  "       gotcha batch [OPTION]... ROOT...\n"
                                  "       gotcha preflight | record -- CMD | collect PATH...\n"
                                  "       gotcha list | explain ID | patterns [--check] [DIR]\n"
                                  "Try 'gotcha --help' for more information.\n";

static const char help_head[] =
    "Usage: gotcha [scan] [OPTION]... PATH...\n"
    "       gotcha batch [OPTION]... ROOT...\n"
    "       gotcha preflight | record -- CMD | collect PATH...\n"
    "       gotcha list | explain ID | patterns [--check] [DIR]\n"
    "Name the most likely cause of a failed ML training run on NVIDIA machines (DGX Spark)\n"
    "from its logs, dmesg, nvidia-smi output, pip and vLLM/NCCL logs: plain, compressed or\n"
    "in archives. With no PATH, or when PATH is -, read standard input (gotcha alone on a\n"
    "terminal prints the usage).\n"
    "\n"
    "Commands:\n"
    "  scan PATH...            analyse the files, directories and archives of one run\n"
    "                          (the default command)\n"
    "  batch ROOT...           analyse every run under the ROOTs, one line per run\n"
    "                          (gotcha batch --help)\n"
    "  preflight               check this host for the ten gotchas before a run\n"
    "                          (gotcha preflight --help)\n"
    "  record [--] CMD...      run CMD and keep its output, GPU samples and host facts\n"
    "                          in a directory; scan it when CMD fails\n"
    "  collect PATH...         one redacted .tar.zst of a run and its report, for a bug\n"
    "                          report\n"
    "  list                    the catalogue: id, symptom and fix of each known failure\n"
    "  explain ID              one catalogue entry in full, with its signatures;\n"
    "                          xid:79, sxid:24007: one NVIDIA fault code\n"
    "  patterns [--check] [DIR]\n"
    "                          print the pattern pack directory; with --check, validate\n"
    "                          the pack and run every signature's examples\n"
    "\n";

static const char help_scan[] =
    "Scan options:\n"
    "  -f, --format LIST       comma-separated list of text, json, md, html, preflight\n"
    "                          (default text)\n"
    "  -o, --output FILE       write the report to FILE; with several formats FILE is a\n"
    "                          base name (and needed): -f json,md -o report gives\n"
    "                          report.json, report.md\n"
    "      --redact            hide host and user names, addresses and secrets\n"
    "      --no-redact         do not (default: redact md and html only)\n"
    "      --color WHEN        colour text reports: auto (a terminal and NO_COLOR unset),\n"
    "                          always or never (default auto)\n"
    "      --threshold X       minimum confidence for a verdict, 0 to 1 (default 0.35)\n"
    "      --platform P        a platform id the pack declares, other or auto: the platform\n"
    "                          to assume (default auto = from the inputs; also\n"
    "                          GOTCHA_PLATFORM)\n"
    "      --max-line SIZE     cut records longer than SIZE bytes (default 64K)\n"
    "      --max-expand SIZE   decompressed bytes always allowed per member (default 1G)\n"
    "      --expand-ratio N    and N times the compressed size beyond it (default 64)\n"
    "  -j, --jobs N            threads that match records (default: online cores, at most\n"
    "                          8; at most 16 are used); the report is the same for any N\n"
    "  -v, --verbose           all evidence and the whole timeline\n"
    "  -q, --quiet             no warnings on standard error\n"
    "\n";

static const char help_pack[] =
    "Pattern options (every command):\n"
    "      --patterns DIR      use the pattern pack in DIR\n"
    "      --extra-patterns DIR\n"
    "                          add the patterns in DIR to the pack (repeatable)\n"
    "\n";

static const char help_tail[] =
    "  -h, --help              show this help; gotcha COMMAND --help for one command\n"
    "      --version           show the version and the linked library versions\n"
    "\n"
    "The pack is --patterns DIR, else $GOTCHA_PATTERNS, else patterns/ beside the program,\n"
    "else the installed copy.\n"
    "Exit status: 0 no gotcha is named and the run did not fail (outcome completed, cut-off\n"
    "or unknown); 1 a gotcha is named or the run failed (outcome 'failed', gotcha or not);\n"
    "2 usage error, broken pattern pack, a PATH that cannot be read, or nothing to read (no\n"
    "file, or not one line of text in them: said on stderr, and no report).\n";

static void print_help(FILE *out, enum cli_command cmd, int explicit_command)
{
    if (!explicit_command) {
        fputs(help_head, out);
        fputs(help_scan, out);
        fputs(help_pack, out);
        fputs(help_tail, out);
        return;
    }
    switch (cmd) {
    case CLI_CMD_SCAN:
        fputs("Usage: gotcha scan [OPTION]... [PATH]...\n"
              "Analyse the files, directories and archives of one run and name the most likely\n"
              "cause of its failure. With no PATH, or when PATH is -, read standard input.\n\n",
              out);
        fputs(help_scan, out);
        fputs(help_pack, out);
        break;
    case CLI_CMD_LIST:
        fputs("Usage: gotcha list [-v] [--patterns DIR] [--extra-patterns DIR]...\n"
              "Print the catalogue: id, symptom and fix of each known failure (-v: uncut).\n\n",
              out);
        fputs(help_pack, out);
        break;
    case CLI_CMD_EXPLAIN:
        fputs("Usage: gotcha explain [--patterns DIR] [--extra-patterns DIR]... ID\n"
              "Print one catalogue entry (G1..G10, C.xid, ...) in full, with its signatures;\n"
              "or one fault code: xid:79, sxid:24007 (its name, meaning, severity and action);\n"
              "or a fault-code table: xid, sxid.\n\n",
              out);
        fputs(help_pack, out);
        break;
    case CLI_CMD_PATTERNS:
        fputs("Usage: gotcha patterns [--check] [--extra-patterns DIR]... [DIR]\n"
              "Print the pattern pack directory. With --check, load the pack (DIR, or the one\n"
              "gotcha would use), run every signature's examples and print the signatures per\n"
              "entry; exit 0 when the pack is sound, 2 when it is not.\n\n",
              out);
        fputs(help_pack, out);
        break;
    case CLI_CMD_BATCH:
        fputs("Usage: gotcha batch [OPTION]... ROOT...\n"
              "       gotcha batch [OPTION]... --files-from FILE\n"
              "Find the runs under each ROOT (a directory holding log files, or a bundle\n"
              "archive), analyse each as 'gotcha scan' would, and print one gotcha.batch/1 JSON\n"
              "object per run, in run order, with its outcome, verdict and first error, or one\n"
              "HTML dashboard over them (docs/batch.md).\n\n"
              "Batch options:\n"
              "  -j, --jobs N            worker threads (default: online cores)\n"
              "      --files-from FILE   read the runs from FILE, one per line (- = stdin)\n"
              "  -0, --null              the --files-from list is NUL-separated\n"
              "      --run-depth N       the runs are the entries N levels below each ROOT\n"
              "  -f, --format FMT        ndjson (default), csv, or html: one self-contained page\n"
              "                          with the runs per week, the share of each gotcha and\n"
              "                          outcome, the most common first errors and every run\n"
              "  -o, --output FILE       write to FILE instead of standard output\n"
              "      --reports DIR       write each run's HTML report into DIR (created if\n"
              "                          missing); the dashboard links to them\n"
              "      --redact, --no-redact  for the dashboard and the reports: hide host and\n"
              "                          user names, addresses and secrets (default) or not\n"
              "      --summary           a summary table on standard error\n"
              "      --summary-only      only the summary table, on standard output\n"
              "      --cache FILE        reuse results of unchanged runs; update FILE\n"
              "      --timing            add each run's analysis wall time (duration_ms);\n"
              "                          without it two scans of the same runs are identical\n"
              "      --threshold X, --platform P, --max-line SIZE, --max-expand SIZE,\n"
              "      --expand-ratio N    as for scan\n"
              "  -q, --quiet             no warnings on standard error\n"
              "Exit status: 0 every run was read, 2 some could not be (or a usage error).\n\n",
              out);
        fputs(help_pack, out);
        break;
    case CLI_CMD_NONE:
    default: break;
    }
    fputs("  -h, --help              show this help\n", out);
}

static void print_version(FILE *out)
{
    fprintf(out, "gotcha %s\n", GOTCHA_VERSION);
    fprintf(out, "pcre2 %s\n", match_pcre2_version());
    fprintf(out, "zstd %s\n", ingest_zstd_version());
    fprintf(out, "%s\n", ingest_archive_version());
    fprintf(out, "jansson %s\n", report_jansson_version());
}

/* ---- parsing ---- */

int cli_bad_usage(FILE *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gotcha: ", err);
    vfprintf(err, fmt, ap);
    va_end(ap);
    fputs("\nTry 'gotcha --help' for more information.\n", err);
    return CLI_EXIT_ERROR;
}

static const char *long_name_of(int val)
{
    for (const struct option *lo = long_options; lo->name; lo++)
        if (lo->val == val) return lo->name;
    return "?";
}

static int parse_formats(const char *list, struct cli_options *o, FILE *err)
{
    o->nformats = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char name[32];
        if (n == 0) return cli_bad_usage(err, "empty format name in '%s'", list);
        if (n >= sizeof name)
            return cli_bad_usage(err,
                                 "unknown format '%.*s' (expected text, json, md, html, "
                                 "preflight)",
                                 (int)AZ_MIN(n, (size_t)64), p);
        memcpy(name, p, n);
        name[n] = '\0';
        int f = report_format_from_name(name);
        if (f < 0)
            return cli_bad_usage(
                err, "unknown format '%s' (expected text, json, md, html, preflight)", name);
        int dup = 0;
        for (size_t i = 0; i < o->nformats; i++) dup |= o->formats[i] == (enum report_format)f;
        if (!dup && o->nformats < REPORT_FORMAT_COUNT)
            o->formats[o->nformats++] = (enum report_format)f;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

static int parse_size_opt(const char *arg, const char *opt, uint64_t *out, FILE *err)
{
    uint64_t v;
    if (az_parse_size(arg, &v) != 0 || v == 0)
        return cli_bad_usage(err, "invalid size '%s' for --%s (e.g. 64K, 1M, 2G)", arg, opt);
    *out = v;
    return 0;
}

/* A plain decimal number (digits only: no sign, unit or blank, no more digits than hi has)
 * within [lo, hi]; 0 on success. */
int cli_parse_whole(const char *arg, uint64_t lo, uint64_t hi, uint64_t *out)
{
    size_t n = strlen(arg), max_digits = 1;
    for (uint64_t h = hi; h >= 10; h /= 10) max_digits++;
    uint64_t v;
    if (n == 0 || n > max_digits || strspn(arg, "0123456789") != n || az_parse_size(arg, &v) != 0)
        return -1;
    if (v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static void push_str(const char ***items, size_t *n, const char *s)
{
    *items = az_xrealloc((void *)*items, (*n + 1) * sizeof **items);
    (*items)[(*n)++] = s;
}

static int parse_one(int c, const char *arg, struct cli_options *o, FILE *err)
{
    switch (c) {
    case 'o': o->output = arg; return 0;
    case 'f':
        if (o->command != CLI_CMD_BATCH) return parse_formats(arg, o, err);
        if (strcmp(arg, "csv") != 0 && strcmp(arg, "ndjson") != 0 && strcmp(arg, "html") != 0)
            return cli_bad_usage(err, "unknown batch format '%s' (expected ndjson, csv or html)",
                                 arg);
        o->batch_csv = strcmp(arg, "csv") == 0;
        o->batch_html = strcmp(arg, "html") == 0;
        return 0;
    case 'j': {
        uint64_t v;
        if (cli_parse_whole(arg, 1, 1024, &v) != 0)
            return cli_bad_usage(err, "invalid --jobs '%s' (a whole number from 1 to 1024)", arg);
        o->jobs = (unsigned)v;
        return 0;
    }
    case '0': o->nul_separated = 1; return 0;
    case OPT_FILES_FROM: o->files_from = arg; return 0;
    case OPT_RUN_DEPTH: {
        uint64_t v;
        if (cli_parse_whole(arg, 0, 99, &v) != 0)
            return cli_bad_usage(err, "invalid --run-depth '%s' (a whole number from 0 to 99)",
                                 arg);
        o->run_depth = (int)v;
        return 0;
    }
    case OPT_CACHE: o->cache = arg; return 0;
    case OPT_SUMMARY: o->summary = 1; return 0;
    case OPT_SUMMARY_ONLY: o->summary_only = 1; return 0;
    case OPT_TIMING: o->timing = 1; return 0;
    case OPT_REPORTS: o->batch_reports = arg; return 0;
    case 'v': o->verbose = 1; return 0;
    case 'q': o->quiet = 1; return 0;
    case 'h': o->help = 1; return 0;
    case OPT_VERSION: o->version = 1; return 0;
    case OPT_REDACT: o->redact = 1; return 0;
    case OPT_NO_REDACT: o->redact = 0; return 0;
    case OPT_COLOR:
        if (strcmp(arg, "auto") == 0)
            o->color = CLI_COLOR_AUTO;
        else if (strcmp(arg, "always") == 0)
            o->color = CLI_COLOR_ALWAYS;
        else if (strcmp(arg, "never") == 0)
            o->color = CLI_COLOR_NEVER;
        else
            return cli_bad_usage(err, "invalid --color '%s' (expected auto, always or never)", arg);
        return 0;
    case OPT_PATTERNS: o->patterns_dir = arg; return 0;
    case OPT_EXTRA_PATTERNS: push_str(&o->extra_patterns, &o->nextra, arg); return 0;
    case OPT_MAX_LINE: return parse_size_opt(arg, "max-line", &o->max_line, err);
    case OPT_MAX_EXPAND: return parse_size_opt(arg, "max-expand", &o->max_expand, err);
    case OPT_EXPAND_RATIO: {
        uint64_t v;
        if (cli_parse_whole(arg, 1, 999999999, &v) != 0)
            return cli_bad_usage(err, "invalid --expand-ratio '%s' (a whole number from 1)", arg);
        o->expand_ratio = v;
        return 0;
    }
    case OPT_THRESHOLD: {
        double v;
        if (tok_parse_double(arg, strlen(arg), &v) != 0 || !(v >= 0.0 && v <= 1.0))
            return cli_bad_usage(err, "invalid --threshold '%s' (a number from 0 to 1)", arg);
        o->threshold = v;
        return 0;
    }
    case OPT_PLATFORM:
        /* checked against the pack's platforms once it is loaded (cli_apply_platform) */
        o->platform = arg;
        return 0;
    case OPT_CHECK: o->check = 1; return 0;
    case OPT_STAGE:
        if (strcmp(arg, "ingest") != 0)
            return cli_bad_usage(err, "invalid --stage '%s' (only 'ingest')", arg);
        o->stage_ingest = 1;
        return 0;
    case OPT_PROBE_STATS: o->probe_stats = 1; return 0;
    default: break;
    }
    return cli_bad_usage(err, "internal: unhandled option %d", c);
}

/* Options that only mean something to batch. */
static const char *batch_only_option(const struct cli_options *o)
{
    if (o->nul_separated) return "--null";
    if (o->files_from) return "--files-from";
    if (o->run_depth >= 0) return "--run-depth";
    if (o->cache) return "--cache";
    if (o->summary) return "--summary";
    if (o->summary_only) return "--summary-only";
    if (o->timing) return "--timing";
    if (o->batch_reports) return "--reports";
    return NULL;
}

/* Options that only mean something to scan (batch shares the analysis settings). */
static const char *scan_only_option(const struct cli_options *o)
{
    if (o->nformats) return "--format";
    if (o->output) return "--output";
    if (o->redact >= 0) return o->redact ? "--redact" : "--no-redact";
    if (o->color != CLI_COLOR_AUTO) return "--color";
    if (o->max_line) return "--max-line";
    if (o->max_expand) return "--max-expand";
    if (o->expand_ratio) return "--expand-ratio";
    if (o->threshold >= 0) return "--threshold";
    if (o->stage_ingest) return "--stage";
    if (o->probe_stats) return "--probe-stats";
    return NULL;
}

static int validate(struct cli_options *o, FILE *err)
{
    const char *cmd_name = "scan";
    for (size_t i = 0; i < AZ_ARRAY_LEN(commands); i++)
        if (commands[i].cmd == o->command) cmd_name = commands[i].name;
    if (o->command == CLI_CMD_BATCH) {
        const char *opt = NULL;
        if (o->color != CLI_COLOR_AUTO)
            opt = "--color";
        else if (o->stage_ingest)
            opt = "--stage";
        if (opt) return cli_bad_usage(err, "option '%s' does not apply to 'batch'", opt);
        if (o->nargs == 0 && !o->files_from)
            return cli_bad_usage(err, "'batch' needs a ROOT or --files-from FILE");
        if (o->nul_separated && !o->files_from)
            return cli_bad_usage(err, "option '--null' needs '--files-from'");
        if (o->redact >= 0 && !o->batch_html && !o->batch_reports)
            return cli_bad_usage(err,
                                 "option '%s' applies to batch's HTML only (--format html, "
                                 "--reports)",
                                 o->redact ? "--redact" : "--no-redact");
        if (o->batch_html && o->summary_only)
            return cli_bad_usage(err, "options '--format html' and '--summary-only' exclude "
                                      "each other");
    } else {
        const char *opt = batch_only_option(o);
        if (!opt && o->command != CLI_CMD_SCAN) opt = scan_only_option(o);
        if (opt) return cli_bad_usage(err, "option '%s' does not apply to '%s'", opt, cmd_name);
    }
    if (o->check && o->command != CLI_CMD_PATTERNS)
        return cli_bad_usage(err, "option '--check' applies to 'patterns' only");
    switch (o->command) {
    case CLI_CMD_LIST:
        if (o->nargs) return cli_bad_usage(err, "'list' takes no operand ('%s')", o->args[0]);
        break;
    case CLI_CMD_EXPLAIN:
        if (o->nargs == 0) return cli_bad_usage(err, "'explain' needs an entry ID, e.g. G3");
        if (o->nargs > 1)
            return cli_bad_usage(err, "'explain' takes one ID ('%s' is extra)", o->args[1]);
        break;
    case CLI_CMD_PATTERNS:
        if (o->nargs > 1)
            return cli_bad_usage(err, "'patterns' takes one DIR ('%s' is extra)", o->args[1]);
        break;
    case CLI_CMD_SCAN:
        if (o->nformats == 0) o->formats[o->nformats++] = REPORT_TEXT;
        if (o->nformats > 1 && !o->output)
            return cli_bad_usage(err,
                                 "several formats need -o BASE (-f json,md -o report writes "
                                 "report.json and report.md); one format goes to standard output");
        break;
    case CLI_CMD_BATCH:
    case CLI_CMD_NONE:
    default: break;
    }
    return 0;
}

void cli_options_init(struct cli_options *o)
{
    memset(o, 0, sizeof *o);
    o->redact = -1;
    o->threshold = -1.0;
    o->color = CLI_COLOR_AUTO;
    o->run_depth = -1;
}

/* The live commands parse their own command lines (record's ends in the command it runs). */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv, FILE *out, FILE *err);
} live_commands[] = {
    {"preflight", cli_cmd_preflight}, {"record", cli_cmd_record}, {"collect", cli_cmd_collect}};

/* Edit distance of a and b (both short: command names and what a user typed for one), capped:
 * any distance above CLI_SUGGEST_MAX is CLI_SUGGEST_MAX + 1. */
#define CLI_SUGGEST_MAX 2  /* "prefight", "colect", "bacth": one or two keys off */
#define CLI_WORD_MAX    32 /* longer than any command: never one */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > CLI_WORD_MAX || lb > CLI_WORD_MAX) return CLI_SUGGEST_MAX + 1;
    size_t row[CLI_WORD_MAX + 1];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = AZ_MIN(row[j] + 1, row[j - 1] + 1);
            row[j] = AZ_MIN(best, diag + (a[i - 1] != b[j - 1]));
            diag = up;
        }
    }
    return AZ_MIN(row[lb], (size_t)CLI_SUGGEST_MAX + 1);
}

/* The command closest to word within CLI_SUGGEST_MAX edits, or NULL. Static. */
static const char *nearest_command(const char *word)
{
    const char *best = NULL;
    size_t bd = CLI_SUGGEST_MAX + 1;
    for (size_t i = 0; i < AZ_ARRAY_LEN(commands) + AZ_ARRAY_LEN(live_commands); i++) {
        const char *name = i < AZ_ARRAY_LEN(commands)
                               ? commands[i].name
                               : live_commands[i - AZ_ARRAY_LEN(commands)].name;
        size_t d = edit_distance(word, name);
        if (d < bd) {
            bd = d;
            best = name;
        }
    }
    return best;
}

/* A first word that is neither a command nor a path: a mistyped command ("prefight"), when it
 * is a bare word (no '/', no '.', as no command has) that names no file. @return 1 after the
 * usage error. */
static int unknown_command(const char *word, FILE *err)
{
    if (!*word || word[0] == '-' || strlen(word) > CLI_WORD_MAX ||
        strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
            strlen(word))
        return 0;
    struct stat st;
    if (stat(word, &st) == 0 || errno != ENOENT) return 0;
    const char *near = nearest_command(word);
    if (near)
        cli_bad_usage(err, "unknown command '%s' (did you mean '%s'?)", word, near);
    else
        cli_bad_usage(err, "unknown command '%s', and no file of that name", word);
    return 1;
}

int cli_parse(int argc, char **argv, struct cli_options *o, FILE *err)
{
    cli_options_init(o);
    if (argc < 2) {
        o->command = CLI_CMD_NONE;
        return 0;
    }
    int first = 0; /* argv index getopt treats as the program name */
    o->command = CLI_CMD_SCAN;
    for (size_t i = 0; i < AZ_ARRAY_LEN(commands); i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            o->command = commands[i].cmd;
            o->explicit_command = 1;
            first = 1;
        }
    if (!o->explicit_command && unknown_command(argv[1], err)) return CLI_EXIT_ERROR;

    int gargc = argc - first;
    char **gargv = argv + first;
    opterr = 0;
    optind = 0; /* glibc: full re-initialisation, so cli_parse() can run more than once */
    int c;
    while ((c = getopt_long(gargc, gargv, short_options, long_options, NULL)) != -1) {
        if (c == '?') {
            if (optopt) return cli_bad_usage(err, "invalid option -- '%c'", optopt);
            return cli_bad_usage(err, "unrecognized option '%s'", gargv[optind - 1]);
        }
        if (c == ':') {
            if (optopt && optopt < 256 && gargv[optind - 1][1] != '-')
                return cli_bad_usage(err, "option requires an argument -- '%c'", optopt);
            return cli_bad_usage(err, "option '--%s' requires an argument", long_name_of(optopt));
        }
        if (parse_one(c, optarg, o, err) != 0) return CLI_EXIT_ERROR;
    }
    for (int i = optind; i < gargc; i++) push_str(&o->args, &o->nargs, gargv[i]);
    if (o->help || o->version) return 0;
    return validate(o, err);
}

void cli_options_free(struct cli_options *o)
{
    if (!o) return;
    free((void *)o->extra_patterns);
    free((void *)o->args);
    o->extra_patterns = NULL;
    o->args = NULL;
    o->nextra = o->nargs = 0;
}

/* ---- running ---- */

int cli_run(int argc, char **argv, FILE *out, FILE *err)
{
    if (argc >= 2)
        for (size_t i = 0; i < AZ_ARRAY_LEN(live_commands); i++)
            if (strcmp(argv[1], live_commands[i].name) == 0)
                return live_commands[i].run(argc - 1, argv + 1, out, err);
    struct cli_options o;
    int rc = cli_parse(argc, argv, &o, err);
    if (rc != 0) goto end;
    if (o.command == CLI_CMD_NONE && !isatty(fileno(stdin))) {
        o.command = CLI_CMD_SCAN; /* `cat dmesg | gotcha`: the input is on standard input */
        o.formats[o.nformats++] = REPORT_TEXT;
    }
    if (o.command == CLI_CMD_NONE) {
        fputs(usage_short, err);
        rc = CLI_EXIT_ERROR;
        goto end;
    }
    if (o.help) {
        print_help(out, o.command, o.explicit_command);
        rc = CLI_EXIT_CLEAN;
        goto end;
    }
    if (o.version) {
        print_version(out);
        rc = CLI_EXIT_CLEAN;
        goto end;
    }
    switch (o.command) {
    case CLI_CMD_SCAN:
        rc = o.stage_ingest ? cli_cmd_stage_ingest(&o, out, err) : cli_cmd_scan(&o, out, err);
        break;
    case CLI_CMD_LIST: rc = cli_cmd_list(&o, out, err); break;
    case CLI_CMD_EXPLAIN: rc = cli_cmd_explain(&o, out, err); break;
    case CLI_CMD_PATTERNS: rc = cli_cmd_patterns(&o, out, err); break;
    case CLI_CMD_BATCH: rc = cli_cmd_batch(&o, out, err); break;
    case CLI_CMD_NONE:
    default: rc = CLI_EXIT_ERROR; break;
    }
end:
    cli_options_free(&o);
    return rc;
}

int cli_close_stdout(int rc)
{
    /* jq's main.c: a full disk or a closed pipe must not pass for success */
    int failed = fflush(stdout) != 0 || ferror(stdout);
    if (fclose(stdout) != 0) failed = 1;
    if (failed) {
        fprintf(stderr, "gotcha: error writing standard output: %s\n", strerror(errno));
        return CLI_EXIT_ERROR;
    }
    return rc;
}
