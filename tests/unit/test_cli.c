/*
 * tests/unit/test_cli.c - cli/: option parsing, usage errors, and the small decisions (colour,
 * redaction, output names, exit codes, pack location). Runs without main(): cli/main.c is not
 * linked into the tests.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/az.h"
#include "correlate/corr.h"
#include "ingest/ingest.h"

/* ---- helpers ---- */

/* A writable argv (getopt may permute it) built from a NULL-terminated list. */
struct args {
    int argc;
    char *argv[32];
};

static void args_build(struct args *a, const char *first, va_list ap)
{
    a->argc = 0;
    a->argv[a->argc++] = az_xstrdup("gotcha");
    for (const char *s = first; s && a->argc < 31; s = va_arg(ap, const char *))
        a->argv[a->argc++] = az_xstrdup(s);
    a->argv[a->argc] = NULL;
}

static void args_free(struct args *a)
{
    for (int i = 0; i < a->argc; i++) free(a->argv[i]);
    a->argc = 0;
}

struct parsed {
    int rc;
    struct args a; /* the options borrow these strings */
    struct cli_options o;
    char *err; /* what went to stderr */
    size_t errlen;
};

/* Parse an argument list (without the program name, NULL-terminated). */
static struct parsed parse_args(const char *first, ...)
{
    struct parsed p;
    va_list ap;
    va_start(ap, first);
    args_build(&p.a, first, ap);
    va_end(ap);
    FILE *err = open_memstream(&p.err, &p.errlen);
    cr_assert_not_null(err);
    p.rc = cli_parse(p.a.argc, p.a.argv, &p.o, err);
    fclose(err);
    return p;
}

static void parsed_free(struct parsed *p)
{
    cli_options_free(&p->o);
    args_free(&p->a);
    free(p->err);
}

/* Run a whole command line; out and err captured. */
struct ran {
    int rc;
    char *out, *err;
    size_t outlen, errlen;
};

static struct ran run_args(const char *first, ...)
{
    struct args a;
    va_list ap;
    va_start(ap, first);
    args_build(&a, first, ap);
    va_end(ap);
    struct ran r;
    FILE *out = open_memstream(&r.out, &r.outlen);
    FILE *err = open_memstream(&r.err, &r.errlen);
    r.rc = cli_run(a.argc, a.argv, out, err);
    fclose(out);
    fclose(err);
    args_free(&a);
    return r;
}

static void ran_free(struct ran *r)
{
    free(r->out);
    free(r->err);
}

#define TRY_LINE "Try 'gotcha --help' for more information.\n"

/* ---- commands and operands ---- */

Test(cli, first_operand_not_a_command_means_scan)
{
    struct parsed p = parse_args("run42/", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.command, CLI_CMD_SCAN);
    cr_assert_eq(p.o.explicit_command, 0);
    cr_assert_eq(p.o.nargs, 1);
    cr_assert_str_eq(p.o.args[0], "run42/");
    parsed_free(&p);
}

Test(cli, explicit_scan_accepts_options_after_paths)
{
    struct parsed p = parse_args("scan", "a.log", "-q", "b.log", "--format", "json", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.command, CLI_CMD_SCAN);
    cr_assert_eq(p.o.quiet, 1);
    cr_assert_eq(p.o.nargs, 2);
    cr_assert_str_eq(p.o.args[0], "a.log");
    cr_assert_str_eq(p.o.args[1], "b.log");
    cr_assert_eq(p.o.nformats, 1);
    cr_assert_eq(p.o.formats[0], REPORT_JSON);
    parsed_free(&p);
}

Test(cli, dash_is_an_operand)
{
    struct parsed p = parse_args("scan", "-", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.nargs, 1);
    cr_assert_str_eq(p.o.args[0], "-");
    parsed_free(&p);
}

Test(cli, no_arguments_is_no_command)
{
    struct parsed p = parse_args(NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.command, CLI_CMD_NONE);
    parsed_free(&p);
}

Test(cli, list_and_explain_and_patterns_are_commands)
{
    struct parsed p = parse_args("explain", "G3", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.command, CLI_CMD_EXPLAIN);
    cr_assert_str_eq(p.o.args[0], "G3");
    parsed_free(&p);
    p = parse_args("patterns", "--check", "mypack", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.command, CLI_CMD_PATTERNS);
    cr_assert_eq(p.o.check, 1);
    cr_assert_str_eq(p.o.args[0], "mypack");
    parsed_free(&p);
    p = parse_args("list", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.command, CLI_CMD_LIST);
    parsed_free(&p);
}

Test(cli, explain_needs_exactly_one_id)
{
    struct parsed p = parse_args("explain", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err, "gotcha: 'explain' needs an entry ID, e.g. G3\n" TRY_LINE);
    parsed_free(&p);
    p = parse_args("explain", "G3", "G4", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    parsed_free(&p);
}

Test(cli, scan_options_rejected_for_list)
{
    struct parsed p = parse_args("list", "--format", "json", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err, "gotcha: option '--format' does not apply to 'list'\n" TRY_LINE);
    parsed_free(&p);
}

Test(cli, check_only_for_patterns)
{
    struct parsed p = parse_args("scan", "--check", "x", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    parsed_free(&p);
}

/* ---- formats ---- */

Test(cli, default_format_is_text)
{
    struct parsed p = parse_args("x.log", NULL);
    cr_assert_eq(p.o.nformats, 1);
    cr_assert_eq(p.o.formats[0], REPORT_TEXT);
    parsed_free(&p);
}

Test(cli, format_list_keeps_order_and_drops_duplicates)
{
    struct parsed p = parse_args("-f", "md,json,md,html", "-o", "report", "x.log", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.nformats, 3);
    cr_assert_eq(p.o.formats[0], REPORT_MD);
    cr_assert_eq(p.o.formats[1], REPORT_JSON);
    cr_assert_eq(p.o.formats[2], REPORT_HTML);
    parsed_free(&p);
}

Test(cli, unknown_format_is_a_usage_error)
{
    struct parsed p = parse_args("--format", "xml", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err, "gotcha: unknown format 'xml' (expected text, json, md, html, "
                            "preflight)\n" TRY_LINE);
    parsed_free(&p);
}

Test(cli, empty_format_element_is_a_usage_error)
{
    struct parsed p = parse_args("--format", "json,", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err, "gotcha: empty format name in 'json,'\n" TRY_LINE);
    parsed_free(&p);
}

/* ---- option errors ---- */

Test(cli, unknown_long_option_message)
{
    struct parsed p = parse_args("--frobnicate", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err, "gotcha: unrecognized option '--frobnicate'\n" TRY_LINE);
    parsed_free(&p);
}

Test(cli, unknown_short_option_message)
{
    struct parsed p = parse_args("-Z", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err, "gotcha: invalid option -- 'Z'\n" TRY_LINE);
    parsed_free(&p);
}

Test(cli, missing_argument_messages)
{
    struct parsed p = parse_args("x.log", "-o", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err, "gotcha: option requires an argument -- 'o'\n" TRY_LINE);
    parsed_free(&p);
    p = parse_args("x.log", "--patterns", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err, "gotcha: option '--patterns' requires an argument\n" TRY_LINE);
    parsed_free(&p);
}

Test(cli, bad_color_value)
{
    struct parsed p = parse_args("--color", "sometimes", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err, "gotcha: invalid --color 'sometimes' (expected auto, always or "
                            "never)\n" TRY_LINE);
    parsed_free(&p);
}

Test(cli, color_values)
{
    struct parsed p = parse_args("--color=always", "x.log", NULL);
    cr_assert_eq(p.o.color, CLI_COLOR_ALWAYS);
    parsed_free(&p);
    p = parse_args("--color", "never", "x.log", NULL);
    cr_assert_eq(p.o.color, CLI_COLOR_NEVER);
    parsed_free(&p);
}

Test(cli, size_options_take_units)
{
    struct parsed p = parse_args("--max-line", "1M", "--max-expand", "2G", "x.log", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.max_line, UINT64_C(1) << 20);
    cr_assert_eq(p.o.max_expand, UINT64_C(2) << 30);
    parsed_free(&p);
}

Test(cli, zero_or_garbage_size_rejected)
{
    struct parsed p = parse_args("--max-line", "0", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_str_eq(p.err,
                     "gotcha: invalid size '0' for --max-line (e.g. 64K, 1M, 2G)\n" TRY_LINE);
    parsed_free(&p);
    p = parse_args("--max-expand", "lots", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    parsed_free(&p);
}

Test(cli, expand_ratio_is_a_whole_number)
{
    struct parsed p = parse_args("--expand-ratio", "16", "x.log", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.expand_ratio, 16);
    parsed_free(&p);
    p = parse_args("--expand-ratio", "1.5", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    parsed_free(&p);
    p = parse_args("--expand-ratio", "4K", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    parsed_free(&p);
}

Test(cli, threshold_between_zero_and_one)
{
    struct parsed p = parse_args("--threshold", "0.5", "x.log", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_float_eq(p.o.threshold, 0.5, 1e-12);
    parsed_free(&p);
    p = parse_args("--threshold", "1.5", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    parsed_free(&p);
    p = parse_args("--threshold", "nan", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    parsed_free(&p);
}

Test(cli, threshold_unset_is_negative)
{
    struct parsed p = parse_args("x.log", NULL);
    cr_assert(p.o.threshold < 0);
    parsed_free(&p);
}

Test(cli, extra_patterns_repeatable)
{
    struct parsed p = parse_args("--extra-patterns", "a", "--extra-patterns=b", "x.log", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.nextra, 2);
    cr_assert_str_eq(p.o.extra_patterns[0], "a");
    cr_assert_str_eq(p.o.extra_patterns[1], "b");
    parsed_free(&p);
}

Test(cli, redact_flags_last_one_wins)
{
    struct parsed p = parse_args("--redact", "--no-redact", "x.log", NULL);
    cr_assert_eq(p.o.redact, 0);
    parsed_free(&p);
    p = parse_args("x.log", NULL);
    cr_assert_eq(p.o.redact, -1);
    parsed_free(&p);
}

Test(cli, stage_accepts_only_ingest)
{
    struct parsed p = parse_args("scan", "--stage=ingest", "x.log", NULL);
    cr_assert_eq(p.rc, 0);
    cr_assert_eq(p.o.stage_ingest, 1);
    parsed_free(&p);
    p = parse_args("scan", "--stage=match", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    parsed_free(&p);
}

Test(cli, parse_twice_resets_getopt)
{
    struct parsed p = parse_args("-q", "a.log", NULL);
    cr_assert_eq(p.o.quiet, 1);
    parsed_free(&p);
    p = parse_args("-v", "b.log", NULL);
    cr_assert_eq(p.o.quiet, 0);
    cr_assert_eq(p.o.verbose, 1);
    cr_assert_str_eq(p.o.args[0], "b.log");
    parsed_free(&p);
}

/* ---- decisions ---- */

Test(cli, color_auto_needs_tty_and_no_NO_COLOR)
{
    cr_assert_eq(cli_use_color(CLI_COLOR_AUTO, 1, NULL), 1);
    cr_assert_eq(cli_use_color(CLI_COLOR_AUTO, 0, NULL), 0);
    cr_assert_eq(cli_use_color(CLI_COLOR_AUTO, 1, "1"), 0);
    cr_assert_eq(cli_use_color(CLI_COLOR_AUTO, 1, ""), 1, "an empty NO_COLOR does not count");
    cr_assert_eq(cli_use_color(CLI_COLOR_ALWAYS, 0, "1"), 1);
    cr_assert_eq(cli_use_color(CLI_COLOR_NEVER, 1, NULL), 0);
}

Test(cli, redact_default_on_for_md_and_html_only)
{
    struct cli_options o;
    memset(&o, 0, sizeof o);
    o.redact = -1;
    cr_assert_eq(cli_redact_for(&o, REPORT_MD), 1);
    cr_assert_eq(cli_redact_for(&o, REPORT_HTML), 1);
    cr_assert_eq(cli_redact_for(&o, REPORT_TEXT), 0);
    cr_assert_eq(cli_redact_for(&o, REPORT_JSON), 0);
    cr_assert_eq(cli_redact_for(&o, REPORT_PREFLIGHT), 0);
    o.redact = 1;
    cr_assert_eq(cli_redact_for(&o, REPORT_JSON), 1);
    o.redact = 0;
    cr_assert_eq(cli_redact_for(&o, REPORT_MD), 0);
}

Test(cli, output_is_a_base_name_with_several_formats)
{
    char *p = cli_output_path("report", REPORT_JSON, 3);
    cr_assert_str_eq(p, "report.json");
    free(p);
    p = cli_output_path("report", REPORT_HTML, 3);
    cr_assert_str_eq(p, "report.html");
    free(p);
    p = cli_output_path("out.txt", REPORT_TEXT, 1);
    cr_assert_str_eq(p, "out.txt");
    free(p);
    cr_assert_null(cli_output_path(NULL, REPORT_TEXT, 1));
}

Test(cli, exit_codes_are_pinned)
{
    cr_assert_eq(CLI_EXIT_CLEAN, 0);
    cr_assert_eq(CLI_EXIT_FINDINGS, 1);
    cr_assert_eq(CLI_EXIT_ERROR, 2);
    cr_assert_eq(cli_scan_exit_code(0, 0, 0, 0), CLI_EXIT_CLEAN);
    cr_assert_eq(cli_scan_exit_code(0, 1, 0, 0), CLI_EXIT_FINDINGS);
    cr_assert_eq(cli_scan_exit_code(0, 0, 1, 0), CLI_EXIT_FINDINGS, "a failed run, no gotcha");
    cr_assert_eq(cli_scan_exit_code(1, 1, 0, 0), CLI_EXIT_ERROR, "a missing named path wins");
    cr_assert_eq(cli_scan_exit_code(0, 1, 1, 1), CLI_EXIT_ERROR, "a failed write wins");
}

Test(cli, pack_dir_option_beats_environment)
{
    char *d = cli_pack_dir("/opt/p", "/env/p", "/usr/bin/gotcha");
    cr_assert_str_eq(d, "/opt/p");
    free(d);
    d = cli_pack_dir(NULL, "/env/p", "/usr/bin/gotcha");
    cr_assert_str_eq(d, "/env/p");
    free(d);
}

Test(cli, pack_dir_beside_executable_then_datadir)
{
    char tmpl[] = "/tmp/gotcha-cli-XXXXXX";
    cr_assert_not_null(mkdtemp(tmpl));
    char *exe = az_xasprintf("%s/gotcha", tmpl);
    char *d = cli_pack_dir(NULL, "", exe);
    cr_assert_str_eq(d, GOTCHA_DATADIR "/patterns", "no patterns/ beside it yet: %s", d);
    free(d);
    char *pat = az_xasprintf("%s/patterns", tmpl);
    cr_assert_eq(mkdir(pat, 0700), 0);
    d = cli_pack_dir(NULL, NULL, exe);
    cr_assert_str_eq(d, pat);
    free(d);
    rmdir(pat);
    rmdir(tmpl);
    free(pat);
    free(exe);
}

/* ---- whole command lines ---- */

/* With standard input not a terminal, `gotcha` alone reads it (`cat dmesg | gotcha`); on a
 * terminal it prints the usage (tests/cli/no_args.sh, through a pseudo-terminal). The test's own
 * process (criterion forks one per test) gets a file as standard input. */
Test(cli, no_arguments_reads_standard_input_when_it_is_not_a_terminal)
{
    char path[] = "/tmp/gotcha-test-stdin.XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    const char xid[] = "NVRM: Xid (PCI:0000:01:00): 79, pid=123, GPU has fallen off the bus.\n";
    cr_assert_eq(write(fd, xid, sizeof xid - 1), (ssize_t)(sizeof xid - 1));
    cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
    cr_assert_geq(dup2(fd, 0), 0);
    close(fd);
    unlink(path);
    struct ran r = run_args(NULL);
    cr_assert_not_null(strstr(r.out, "<stdin>"), "%s%s", r.out, r.err);
    cr_assert_null(strstr(r.err, "Usage: gotcha "), "%s", r.err);
    ran_free(&r);
}

Test(cli, several_formats_need_an_output_base)
{
    struct parsed p = parse_args("-f", "json,md", "x.log", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_not_null(strstr(p.err, "several formats need -o BASE"), "%s", p.err);
    parsed_free(&p);
    p = parse_args("-f", "json", "x.log", NULL);
    cr_assert_eq(p.rc, 0, "one format goes to standard output");
    parsed_free(&p);
}

/* A first word that is neither a command nor a path is a mistyped command; a word that names a
 * file, or a path, is scanned. Runs in the test's own temporary directory. */
Test(cli, unknown_command_suggests_the_nearest)
{
    char dir[] = "/tmp/gotcha-test-cmd.XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(chdir(dir), 0);
    static const char *const typos[][2] = {{"prefight", "preflight"}, {"colect", "collect"},
                                           {"bacth", "batch"},        {"expalin", "explain"},
                                           {"scna", "scan"},          {"recrod", "record"}};
    for (size_t i = 0; i < sizeof typos / sizeof typos[0]; i++) {
        struct parsed p = parse_args(typos[i][0], NULL);
        char want[96];
        snprintf(want, sizeof want, "unknown command '%s' (did you mean '%s'?)", typos[i][0],
                 typos[i][1]);
        cr_assert_eq(p.rc, CLI_EXIT_ERROR, "%s", typos[i][0]);
        cr_assert_not_null(strstr(p.err, want), "%s", p.err);
        parsed_free(&p);
    }
    struct parsed p = parse_args("frobnicate", NULL);
    cr_assert_eq(p.rc, CLI_EXIT_ERROR);
    cr_assert_not_null(strstr(p.err, "unknown command 'frobnicate', and no file of that name"));
    parsed_free(&p);
    FILE *f = fopen("prefight", "w");
    cr_assert_not_null(f);
    fclose(f);
    p = parse_args("prefight", NULL);
    cr_assert_eq(p.rc, 0, "a file of that name is a path");
    cr_assert_eq(p.o.command, CLI_CMD_SCAN);
    parsed_free(&p);
    p = parse_args("no/such/run", NULL);
    cr_assert_eq(p.rc, 0, "a path that does not exist is the scan's to report");
    parsed_free(&p);
    unlink("prefight");
    cr_assert_eq(chdir("/"), 0);
    rmdir(dir);
}

Test(cli, help_goes_to_stdout_and_exits_0)
{
    struct ran r = run_args("--help", NULL);
    cr_assert_eq(r.rc, CLI_EXIT_CLEAN);
    cr_assert_eq(r.errlen, 0);
    cr_assert(strncmp(r.out, "Usage: gotcha [scan] [OPTION]... PATH...\n", 41) == 0, "%s", r.out);
    cr_assert_not_null(strstr(r.out, "--extra-patterns"));
    ran_free(&r);
}

Test(cli, command_help_is_that_commands)
{
    struct ran r = run_args("explain", "--help", NULL);
    cr_assert_eq(r.rc, CLI_EXIT_CLEAN);
    cr_assert(strncmp(r.out, "Usage: gotcha explain ", 22) == 0, "%s", r.out);
    ran_free(&r);
}

Test(cli, version_names_the_linked_libraries)
{
    struct ran r = run_args("--version", NULL);
    cr_assert_eq(r.rc, CLI_EXIT_CLEAN);
    cr_assert(strncmp(r.out, "gotcha 0.1.0\n", 13) == 0, "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\npcre2 "));
    cr_assert_not_null(strstr(r.out, "\nzstd "));
    cr_assert_not_null(strstr(r.out, "\nlibarchive "));
    cr_assert_not_null(strstr(r.out, "\njansson "));
    ran_free(&r);
}

Test(cli, batch_parses_its_options)
{
    struct parsed p = parse_args("batch", "-j", "3", "--run-depth", "2", "--cache", "c.db",
                                 "--summary", "-f", "csv", "--threshold", "0.5", "runs/", NULL);
    cr_assert_eq(p.rc, 0, "%s", p.err);
    cr_assert_eq(p.o.command, CLI_CMD_BATCH);
    cr_assert_eq(p.o.jobs, 3);
    cr_assert_eq(p.o.run_depth, 2);
    cr_assert_str_eq(p.o.cache, "c.db");
    cr_assert_eq(p.o.summary, 1);
    cr_assert_eq(p.o.batch_csv, 1);
    cr_assert_float_eq(p.o.threshold, 0.5, 1e-9);
    cr_assert_eq(p.o.nargs, 1);
    cr_assert_str_eq(p.o.args[0], "runs/");
    parsed_free(&p);
    p = parse_args("batch", "-0", "--files-from", "-", NULL);
    cr_assert_eq(p.rc, 0, "%s", p.err);
    cr_assert_eq(p.o.nul_separated, 1);
    cr_assert_str_eq(p.o.files_from, "-");
    cr_assert_eq(p.o.run_depth, -1);
    parsed_free(&p);
}

Test(cli, batch_rejects_bad_usage)
{
    static const char *const cases[][4] = {
        {"batch", NULL, NULL, NULL},            /* no ROOT and no list */
        {"batch", "-j", "0", "runs/"},          /* at least one job */
        {"batch", "-f", "json", "runs/"},       /* ndjson, csv or html only */
        {"batch", "-0", "runs/", NULL},         /* -0 needs --files-from */
        {"batch", "--color", "never", "runs/"}, /* a scan-only option */
        {"scan", "--cache", "c.db", "run/"},    /* a batch-only option */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct parsed p = parse_args(cases[i][0], cases[i][1], cases[i][2], cases[i][3], NULL);
        cr_assert_eq(p.rc, CLI_EXIT_ERROR, "case %zu", i);
        cr_assert_not_null(strstr(p.err, TRY_LINE), "case %zu: %s", i, p.err);
        parsed_free(&p);
    }
}

Test(cli, batch_parses_the_dashboard_options)
{
    struct parsed p = parse_args("batch", "-f", "html", "-o", "runs.html", "--reports", "rep",
                                 "--no-redact", "runs/", NULL);
    cr_assert_eq(p.rc, 0, "%s", p.err);
    cr_assert_eq(p.o.batch_html, 1);
    cr_assert_eq(p.o.batch_csv, 0);
    cr_assert_str_eq(p.o.output, "runs.html");
    cr_assert_str_eq(p.o.batch_reports, "rep");
    cr_assert_eq(p.o.redact, 0);
    parsed_free(&p);
    /* -o and --reports with rows too; --redact with --reports */
    p = parse_args("batch", "-o", "rows.ndjson", "--reports", "rep", "--redact", "runs/", NULL);
    cr_assert_eq(p.rc, 0, "%s", p.err);
    cr_assert_eq(p.o.batch_html, 0);
    cr_assert_eq(p.o.redact, 1);
    parsed_free(&p);
}

Test(cli, batch_rejects_dashboard_misuse)
{
    static const char *const cases[][5] = {
        {"batch", "--redact", "runs/", NULL, NULL},         /* rows are never redacted */
        {"batch", "-f", "html", "--summary-only", "runs/"}, /* one output on stdout */
        {"scan", "--reports", "rep", "run/", NULL},         /* a batch-only option */
        {"batch", "-f", "HTML", "runs/", NULL},             /* names are lower case */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct parsed p =
            parse_args(cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4], NULL);
        cr_assert_eq(p.rc, CLI_EXIT_ERROR, "case %zu", i);
        cr_assert_not_null(strstr(p.err, TRY_LINE), "case %zu: %s", i, p.err);
        parsed_free(&p);
    }
}

Test(cli, help_states_the_real_defaults)
{
    /* --help and gotcha.1 print 64K, 1G, 64 and 0.35: pin them to the code's defaults */
    struct ingest_options io;
    ingest_options_default(&io);
    cr_assert_eq(io.max_line, (size_t)64 << 10);
    cr_assert_eq(io.expand_floor, UINT64_C(1) << 30);
    cr_assert_eq(io.expand_ratio, 64);
    struct corr_config cfg;
    corr_config_default(&cfg, NULL);
    cr_assert_float_eq(cfg.threshold, 0.35, 1e-9);
    struct ran r = run_args("scan", "--help", NULL);
    cr_assert_not_null(strstr(r.out, "(default 64K)"));
    cr_assert_not_null(strstr(r.out, "(default 1G)"));
    cr_assert_not_null(strstr(r.out, "(default 64)"));
    cr_assert_not_null(strstr(r.out, "(default 0.35)"));
    ran_free(&r);
}
