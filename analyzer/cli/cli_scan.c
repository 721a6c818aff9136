/* cli/cli_scan.c - `gotcha scan` and the hidden `--stage=ingest` benchmark path. See cli.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/az.h"
#include "correlate/corr.h"
#include "ingest/ingest.h"
#include "match/match.h"
#include "report/report.h"
#include "tokenize/tok.h"

static const char *const stdin_paths[] = {"-"};

static void print_warning(FILE *err, const char *text)
{
    struct az_buf b = AZ_BUF_INIT;
    report_sanitize_terminal(&b, text, strlen(text));
    fprintf(err, "gotcha: warning: %s\n", b.data ? b.data : "");
    az_buf_free(&b);
}

/*
 * Named paths that cannot be opened are errors, reported here even under -q (the walk's
 * warnings are suppressed by -q). Returns the number of such paths.
 */
static size_t check_named_paths(const char *const *paths, size_t n, FILE *err)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(paths[i], "-") == 0) continue;
        struct stat st;
        if (stat(paths[i], &st) != 0 || access(paths[i], R_OK) != 0) {
            int saved = errno;
            struct az_buf b = AZ_BUF_INIT;
            report_sanitize_terminal(&b, paths[i], strlen(paths[i]));
            fprintf(err, "gotcha: cannot open '%s': %s\n", b.data ? b.data : "", strerror(saved));
            az_buf_free(&b);
            bad++;
        }
    }
    return bad;
}

/* 1 when warning line w is about a named path check_named_paths() already reported. */
static int already_reported(const char *w, const char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(paths[i]);
        if (strncmp(w, paths[i], len) == 0 && w[len] == ':' && access(paths[i], R_OK) != 0)
            return 1;
    }
    return 0;
}

#define NOTHING_READ_REASONS 4 /* distinct reasons named; the rest are counted */

/* Append "s" terminal-safe to b. */
static void put_safe(struct az_buf *b, const char *s)
{
    report_sanitize_terminal(b, s, strlen(s));
}

/* A scan that read not one record: what was found and why none of it could be read, on one line
 * ("gotcha: nothing to read in 'run/': 2 files found, none readable (binary file: 2)"). */
static void print_nothing_read(const struct corr_result *res, const char *const *paths,
                               size_t npaths, FILE *err)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "gotcha: nothing to read in ");
    for (size_t i = 0; i < npaths && i < 3; i++) {
        az_buf_puts(&b, i ? ", " : "");
        if (strcmp(paths[i], "-") == 0) {
            az_buf_puts(&b, "standard input");
            continue;
        }
        az_buf_putc(&b, '\'');
        put_safe(&b, paths[i]);
        az_buf_putc(&b, '\'');
    }
    if (npaths > 3) az_buf_printf(&b, " and %zu more", npaths - 3);
    size_t found = res->ninputs + res->nskipped;
    if (npaths == 1 && strcmp(paths[0], "-") == 0 && res->ninputs == 1 && !res->nskipped) {
        az_buf_puts(&b, ": it is empty");
    } else if (!found) {
        az_buf_puts(&b, ": no file found");
    } else {
        az_buf_printf(&b, ": %zu file%s found, none with a line of text (", found,
                      found == 1 ? "" : "s");
        /* reasons with their counts, in first-seen order; an input read to its end is empty */
        const char *why[NOTHING_READ_REASONS];
        size_t count[NOTHING_READ_REASONS], nwhy = 0, other = 0;
        for (size_t i = 0; i < found; i++) {
            const char *w = i < res->ninputs ? "empty" : res->skipped[i - res->ninputs].reason;
            size_t k = 0;
            while (k < nwhy && strcmp(why[k], w ? w : "") != 0) k++;
            if (k == nwhy && nwhy == NOTHING_READ_REASONS) {
                other++;
                continue;
            }
            if (k == nwhy) {
                why[nwhy] = w ? w : "";
                count[nwhy++] = 0;
            }
            count[k]++;
        }
        for (size_t k = 0; k < nwhy; k++) {
            az_buf_puts(&b, k ? "; " : "");
            put_safe(&b, why[k]);
            az_buf_printf(&b, ": %zu", count[k]);
        }
        if (other) az_buf_printf(&b, "; other reasons: %zu", other);
        az_buf_putc(&b, ')');
    }
    fprintf(err, "%s\n", b.data);
    az_buf_free(&b);
}

static int write_one(const struct cli_options *o, enum report_format f,
                     const struct corr_result *res, const struct match_pack *pack, FILE *out,
                     FILE *err)
{
    char *path = cli_output_path(o->output, f, o->nformats);
    int to_stdout = !path || strcmp(path, "-") == 0;
    FILE *dst = out;
    if (!to_stdout) {
        dst = fopen(path, "w");
        if (!dst) {
            fprintf(err, "gotcha: cannot write '%s': %s\n", path, strerror(errno));
            free(path);
            return 1;
        }
    }
    struct report_options ro;
    memset(&ro, 0, sizeof ro);
    ro.color = f == REPORT_TEXT &&
               cli_use_color(o->color, to_stdout && isatty(fileno(out)), getenv("NO_COLOR"));
    ro.redact = cli_redact_for(o, f);
    ro.verbose = o->verbose;
    ro.tool_version = GOTCHA_VERSION;
    int failed = report_write(dst, f, res, pack, &ro) != AZ_OK;
    if (!to_stdout) {
        if (ferror(dst)) failed = 1;
        if (fclose(dst) != 0) failed = 1;
        if (failed) fprintf(err, "gotcha: error writing '%s'\n", path);
    } /* a failed stdout is reported once, by cli_close_stdout() */
    free(path);
    return failed;
}

static void apply_scan_options(const struct cli_options *o, struct ingest_options *io)
{
    if (o->max_line) io->max_line = (size_t)o->max_line;
    if (o->max_expand) io->expand_floor = o->max_expand;
    if (o->expand_ratio) io->expand_ratio = o->expand_ratio;
}

/* --probe-stats: the literal prefilter's counts over every matching thread (speed.sh reads it). */
static void print_probe_stats(FILE *err, const struct match_scanner *scanner,
                              struct match_probe_stats *ps)
{
    match_scanner_probe_stats(scanner, ps);
    double per_mb = ps->bytes ? 1e6 / (double)ps->bytes : 0;
    fprintf(err,
            "records %llu (%llu bytes); probe hits %llu (%.0f per MB), false probe hits %llu "
            "(%.1f %% of probe hits, %.0f per MB)\n",
            (unsigned long long)ps->records, (unsigned long long)ps->bytes,
            (unsigned long long)ps->probe_hits, (double)ps->probe_hits * per_mb,
            (unsigned long long)ps->false_probes,
            ps->probe_hits ? 100.0 * (double)ps->false_probes / (double)ps->probe_hits : 0.0,
            (double)ps->false_probes * per_mb);
    fprintf(err,
            "records with a literal %llu (%.1f %%), literal hits %llu; regexes run %llu, "
            "matched %llu\n",
            (unsigned long long)ps->lit_records,
            ps->records ? 100.0 * (double)ps->lit_records / (double)ps->records : 0.0,
            (unsigned long long)ps->lit_hits, (unsigned long long)ps->regex_runs,
            (unsigned long long)ps->regex_hits);
}

int cli_cmd_scan(const struct cli_options *o, FILE *out, FILE *err)
{
    const char *const *paths = o->nargs ? o->args : stdin_paths;
    size_t npaths = o->nargs ? o->nargs : 1;
    struct match_pack *pack = cli_load_pack(o, err);
    if (!pack) return CLI_EXIT_ERROR;

    size_t unreadable = check_named_paths(paths, npaths, err);
    struct match_scanner *scanner = match_scanner_new(pack);
    struct corr_config cfg;
    corr_config_default(&cfg, pack);
    apply_scan_options(o, &cfg.ingest);
    if (o->threshold >= 0) cfg.threshold = o->threshold;
    cfg.threads = cli_jobs(o->jobs, 8);
    if (cli_apply_platform(o, &cfg, err) != 0) {
        match_scanner_free(scanner);
        match_pack_free(pack);
        return CLI_EXIT_ERROR;
    }

    struct corr_result *res = NULL;
    int rc = CLI_EXIT_ERROR;
    struct match_probe_stats ps;
    memset(&ps, 0, sizeof ps);
    if (o->probe_stats) cfg.probe_stats = &ps;
    if (corr_analyze(&cfg, scanner, paths, npaths, &res) != AZ_OK || !res) {
        fputs("gotcha: the scan failed\n", err);
        goto end;
    }
    if (o->probe_stats) print_probe_stats(err, scanner, &ps);
    if (!o->quiet)
        for (size_t i = 0; i < res->nwarnings; i++)
            if (!already_reported(res->warnings[i], paths, npaths))
                print_warning(err, res->warnings[i]);
    if (res->records == 0) {
        /* no report: one that rules out G1..G10 would claim a diagnosis of nothing; a named
         * path that could not be opened was said already */
        if (!res->named_path_failed && !unreadable) print_nothing_read(res, paths, npaths, err);
        goto end;
    }
    int write_failed = 0;
    for (size_t i = 0; i < o->nformats; i++)
        write_failed |= write_one(o, o->formats[i], res, pack, out, err);
    if (fflush(out) != 0) write_failed = 1;
    rc = cli_scan_exit_code(res->named_path_failed || unreadable > 0, res->verdict != NULL,
                            res->outcome == CORR_OUTCOME_FAILED, write_failed);
end:
    corr_result_free(res);
    match_scanner_free(scanner);
    match_pack_free(pack);
    return rc;
}

/*
 * --stage=ingest: read and stamp every record with ingest + tokenize only, so the lead can
 * measure those two stages' throughput apart from matching and correlation. The pack is loaded
 * for its word lists alone (patterns/formats.json "vocabulary"): a member is classified, and so
 * stamped, as a scan would; loading it is a constant start-up cost, not a per-record one.
 */
int cli_cmd_stage_ingest(const struct cli_options *o, FILE *out, FILE *err)
{
    const char *const *paths = o->nargs ? o->args : stdin_paths;
    size_t npaths = o->nargs ? o->nargs : 1;
    struct ingest_options io;
    ingest_options_default(&io);
    apply_scan_options(o, &io);
    struct match_pack *pack = cli_load_pack(o, err);
    if (!pack) return CLI_EXIT_ERROR;
    const struct tok_vocab *vocab = match_pack_vocab(pack);

    struct ingest_walk *walk = NULL;
    int named_failed = ingest_walk_paths(paths, npaths, &walk) != AZ_OK;
    if (named_failed) {
        const char *e = ingest_walk_error(walk);
        /* one "PATH: reason" per line */
        while (e && *e) {
            const char *nl = strchr(e, '\n');
            size_t n = nl ? (size_t)(nl - e) : strlen(e);
            fprintf(err, "gotcha: %.*s\n", (int)n, e);
            e = nl ? nl + 1 : e + n;
        }
    }
    uint64_t records = 0, bytes = 0;
    volatile int64_t sink = 0; /* keeps the stamping from being optimised away */
    for (size_t i = 0; walk && i < ingest_walk_count(walk); i++) {
        const struct ingest_entry *e = ingest_walk_entry(walk, i);
        struct ingest_reader *r = NULL;
        if (ingest_reader_open(&r, e->path, e->display, &io) != AZ_OK) {
            if (!o->quiet) print_warning(err, ingest_reader_error(r));
            ingest_reader_free(r);
            continue;
        }
        struct ingest_member m;
        enum az_status st;
        while ((st = ingest_reader_next_member(r, &m)) != AZ_EOF && st != AZ_FATAL) {
            if (st == AZ_FAIL) {
                if (!o->quiet) print_warning(err, ingest_reader_error(r));
                continue;
            }
            enum tok_kind kind = tok_classify(vocab, m.name, m.head, m.head_len);
            struct ingest_line line;
            while ((st = ingest_reader_next_line(r, &line)) == AZ_OK || st == AZ_WARN) {
                size_t end;
                struct az_time t = tok_parse_time(kind, line.text, line.len, &end);
                sink += t.usec + (int64_t)end;
                records++;
            }
            if (st == AZ_FAIL && !o->quiet) print_warning(err, ingest_reader_error(r));
        }
        if (st == AZ_FATAL && !o->quiet) print_warning(err, ingest_reader_error(r));
        bytes += ingest_reader_stats(r)->bytes_out;
        ingest_reader_free(r);
    }
    ingest_walk_free(walk);
    match_pack_free(pack);
    (void)sink;
    fprintf(out, "records %llu bytes %llu\n", (unsigned long long)records,
            (unsigned long long)bytes);
    if (fflush(out) != 0 || ferror(out)) return CLI_EXIT_ERROR;
    return named_failed ? CLI_EXIT_ERROR : CLI_EXIT_CLEAN;
}
