/*
 * cli/cli_collect.c - `gotcha collect [-o FILE] PATH...`: one .tar.zst to attach to a bug report:
 * every readable member of the PATHs (decoded, one member per input member), the host facts, and
 * the Markdown report, with host and user names, addresses and secrets redacted unless
 * --no-redact. The members keep their line numbers, so `gotcha scan FILE` reads the bundle as it
 * read the directory: same evidence lines, same verdict.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/host.h"
#include "cli/live.h"
#include "common/az.h"
#include "correlate/corr.h"
#include "ingest/ingest.h"
#include "match/match.h"
#include "report/report.h"

#ifndef GOTCHA_VERSION
#define GOTCHA_VERSION "0.0.0"
#endif

/* Every member goes under this folder in the bundle, so it unpacks into one directory. */
#define COLLECT_ROOT "gotcha-bundle"
/* The name of a recorded run's host facts (cli_record.c writes it). */
#define COLLECT_FACTS "host-facts.txt"

static const char collect_help[] =
    "Usage: gotcha collect [-o FILE] [--no-redact] PATH...\n"
    "Bundle a run for a bug report: every readable file of the PATHs (archives and compressed\n"
    "files decoded), the host facts (a recorded run's own, else this host's), and the\n"
    "Markdown report, in one .tar.zst. 'gotcha scan FILE' reads the bundle as the PATHs.\n"
    "\n"
    "  -o, --output FILE       the bundle (default gotcha-bundle-<UTC time>.tar.zst)\n"
    "      --redact            replace host and user names, addresses and secrets (default)\n"
    "      --no-redact         keep them\n"
    "      --no-host           add no facts of this host when the PATHs have none\n"
    "  -q, --quiet             no warnings\n"
    "  -h, --help              show this help\n"
    "Exit status: 0 the bundle was written, 2 usage error, an unreadable PATH or a failed\n"
    "write.\n";

struct collect {
    struct ingest_bundle *bundle;
    int redact;
    const char *const *hosts; /* learned from the run's logs, plus this host's name */
    size_t nhosts;
    struct az_buf scratch;
    int64_t mtime; /* every member's modification time (seconds) */
    size_t members;
    int failed;
};

/* A member name inside the bundle from a display path: archive separators become folders,
 * "..", "." and empty components go, a decoded member loses its compression suffix. */
static char *member_name(const char *display, int decoded)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, COLLECT_ROOT);
    const char *p = display;
    while (*p) {
        size_t n = strcspn(p, "/:");
        if (n && !(n == 1 && p[0] == '.') && !(n == 2 && p[0] == '.' && p[1] == '.')) {
            az_buf_putc(&b, '/');
            az_buf_append(&b, p, n);
        }
        p += n;
        if (*p) p++;
    }
    if (decoded) {
        static const char *const exts[] = {".gz", ".zst", ".xz", ".bz2", ".lz4"};
        for (size_t i = 0; i < AZ_ARRAY_LEN(exts); i++) {
            size_t el = strlen(exts[i]);
            if (b.len > el + strlen(COLLECT_ROOT) + 1 &&
                strcmp(b.data + b.len - el, exts[i]) == 0) {
                b.len -= el;
                b.data[b.len] = '\0';
                break;
            }
        }
    }
    return az_buf_steal(&b);
}

static void put_text(struct collect *c, FILE *tmp, const char *p, size_t len)
{
    if (!c->redact) {
        fwrite(p, 1, len, tmp);
        return;
    }
    az_buf_reset(&c->scratch);
    report_redact(&c->scratch, p, len, c->hosts, c->nhosts);
    fwrite(c->scratch.data, 1, c->scratch.len, tmp);
}

static void add_tmp(struct collect *c, const char *name, FILE *tmp, FILE *err)
{
    if (c->failed) return;
    long size = ftell(tmp);
    rewind(tmp);
    if (size < 0 || ferror(tmp) ||
        ingest_bundle_add_file(c->bundle, name, tmp, (uint64_t)size, c->mtime) != AZ_OK) {
        fprintf(err, "gotcha: cannot add '%s' to the bundle: %s\n", name,
                ingest_bundle_error(c->bundle));
        c->failed = 1;
        return;
    }
    c->members++;
}

/* One input: each readable member, decoded, redacted, line numbers kept (a record that shares
 * its line number with the one before was cut at a lone CR, and gets it back). */
static void add_input(struct collect *c, const struct ingest_entry *e,
                      const struct ingest_options *io, int quiet, FILE *err)
{
    struct ingest_reader *r = NULL;
    if (ingest_reader_open(&r, e->path, e->display, io) != AZ_OK) {
        if (!quiet) fprintf(err, "gotcha: warning: %s\n", ingest_reader_error(r));
        ingest_reader_free(r);
        return;
    }
    struct ingest_member m;
    enum az_status st;
    while (!c->failed && (st = ingest_reader_next_member(r, &m)) != AZ_EOF && st != AZ_FATAL) {
        if (st == AZ_FAIL) {
            if (!quiet) fprintf(err, "gotcha: warning: %s (not bundled)\n", ingest_reader_error(r));
            continue;
        }
        struct az_buf shown = AZ_BUF_INIT; /* a path names its user too: redact it */
        if (c->redact) report_redact(&shown, m.display, strlen(m.display), c->hosts, c->nhosts);
        char *name =
            member_name(c->redact ? shown.data : m.display, strcmp(m.compression, "none") != 0);
        az_buf_free(&shown);
        FILE *tmp = tmpfile();
        if (!tmp) {
            fprintf(err, "gotcha: cannot create a temporary file: %s\n", strerror(errno));
            c->failed = 1;
            free(name);
            break;
        }
        struct ingest_line line;
        uint64_t prev = 0;
        int any = 0;
        while ((st = ingest_reader_next_line(r, &line)) == AZ_OK || st == AZ_WARN) {
            if (any) fputc(line.lineno == prev ? '\r' : '\n', tmp);
            for (uint64_t k = prev + 1; any && k < line.lineno; k++) fputc('\n', tmp);
            put_text(c, tmp, line.text, line.len);
            prev = line.lineno;
            any = 1;
        }
        if (any) fputc('\n', tmp);
        if (st == AZ_FAIL && !quiet) fprintf(err, "gotcha: warning: %s\n", ingest_reader_error(r));
        add_tmp(c, name, tmp, err);
        fclose(tmp);
        free(name);
    }
    ingest_reader_free(r);
}

static int has_facts(const struct ingest_walk *w)
{
    for (size_t i = 0; i < ingest_walk_count(w); i++) {
        const char *d = ingest_walk_entry(w, i)->display;
        size_t n = strlen(d), fl = strlen(COLLECT_FACTS);
        if (n >= fl && strcmp(d + n - fl, COLLECT_FACTS) == 0 && (n == fl || d[n - fl - 1] == '/'))
            return 1;
    }
    return 0;
}

/* This host's facts, for inputs that carry none (collected where the run ran). */
static void add_live_facts(struct collect *c, const struct match_pack *pack, FILE *err)
{
    struct cli_host_limits lim;
    cli_host_limits_default(&lim);
    struct cli_host h;
    cli_host_gather(&h, &lim, pack);
    struct cli_preflight p;
    cli_preflight_check(&h, &lim, &p);
    char *mem = NULL;
    size_t len = 0;
    FILE *ms = open_memstream(&mem, &len);
    if (ms) {
        cli_host_write_facts(&h, ms, GOTCHA_VERSION);
        cli_preflight_write_text(&p, ms);
        fclose(ms);
        FILE *tmp = tmpfile();
        if (tmp) {
            put_text(c, tmp, mem, len);
            add_tmp(c, COLLECT_ROOT "/collect-host/" COLLECT_FACTS, tmp, err);
            fclose(tmp);
        }
    }
    free(mem);
    cli_preflight_free(&p);
    cli_host_free(&h);
}

int cli_cmd_collect(int argc, char **argv, FILE *out, FILE *err)
{
    enum { OPT_REDACT = 256, OPT_NO_REDACT, OPT_NO_HOST };
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"redact", no_argument, NULL, OPT_REDACT},
                                         {"no-redact", no_argument, NULL, OPT_NO_REDACT},
                                         {"no-host", no_argument, NULL, OPT_NO_HOST},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *path = NULL;
    int redact = 1, quiet = 0, no_host = 0, c;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, ":o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': path = optarg; break;
        case OPT_REDACT: redact = 1; break;
        case OPT_NO_REDACT: redact = 0; break;
        case OPT_NO_HOST: no_host = 1; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(collect_help, out); return CLI_EXIT_CLEAN;
        case ':': return cli_bad_usage(err, "option '%s' requires an argument", argv[optind - 1]);
        default: return cli_bad_usage(err, "unrecognized option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return cli_bad_usage(err, "'collect' needs a PATH (a run's directory)");
    const char *const *paths = (const char *const *)argv + optind;
    size_t npaths = (size_t)(argc - optind);
    for (size_t i = 0; i < npaths; i++)
        if (strcmp(paths[i], "-") == 0)
            return cli_bad_usage(err, "'collect' reads files, not standard input");

    /* the scan first: the report, and the host names the logs show, for redaction */
    struct cli_options so;
    cli_options_init(&so);
    so.command = CLI_CMD_SCAN;
    struct match_pack *pack = cli_load_pack(&so, err);
    if (!pack) return CLI_EXIT_ERROR;
    struct ingest_walk *walk = NULL;
    int rc = CLI_EXIT_ERROR;
    struct corr_result *res = NULL;
    struct match_scanner *scanner = match_scanner_new(pack);
    struct corr_config cfg;
    corr_config_default(&cfg, pack);
    char *bundle_path = NULL;
    struct collect col;
    memset(&col, 0, sizeof col);
    const char **hosts = NULL;

    if (ingest_walk_paths(paths, npaths, &walk) != AZ_OK) {
        const char *e = ingest_walk_error(walk);
        fprintf(err, "gotcha: cannot open %s", e && *e ? e : "a PATH\n");
        goto end;
    }
    if (corr_analyze(&cfg, scanner, paths, npaths, &res) != AZ_OK || !res) {
        fputs("gotcha: the scan failed\n", err);
        goto end;
    }

    char hostname[256] = "";
    if (gethostname(hostname, sizeof hostname - 1) != 0) hostname[0] = '\0';
    size_t nhosts = res->nhosts;
    hosts = az_xcalloc(nhosts + 1, sizeof *hosts);
    for (size_t i = 0; i < res->nhosts; i++) hosts[i] = res->hosts[i];
    if (*hostname && strcmp(hostname, "localhost") != 0) hosts[nhosts++] = hostname;

    if (path) {
        bundle_path = az_xstrdup(path);
    } else {
        bundle_path = cli_utc_name("gotcha-bundle", ".tar.zst");
    }
    col.redact = redact;
    col.hosts = hosts;
    col.nhosts = nhosts;
    col.mtime = 0; /* fixed, so the bundle's bytes depend on the inputs only */
    if (ingest_bundle_create(&col.bundle, bundle_path) != AZ_OK) {
        fprintf(err, "gotcha: cannot write '%s': %s\n", bundle_path,
                ingest_bundle_error(col.bundle));
        goto end;
    }
    struct ingest_options io;
    ingest_options_default(&io);
    for (size_t i = 0; i < ingest_walk_count(walk) && !col.failed; i++)
        add_input(&col, ingest_walk_entry(walk, i), &io, quiet, err);
    if (!no_host && !has_facts(walk) && !col.failed) add_live_facts(&col, pack, err);

    /* the report, marked so that a scan of the bundle skips it */
    struct report_options ro;
    memset(&ro, 0, sizeof ro);
    ro.redact = redact;
    ro.tool_version = GOTCHA_VERSION;
    FILE *tmp = tmpfile();
    if (tmp) fputs(INGEST_OWN_REPORT_MARK "\n", tmp);
    if (tmp && report_write(tmp, REPORT_MD, res, pack, &ro) == AZ_OK)
        add_tmp(&col, COLLECT_ROOT "/gotcha-report.md", tmp, err);
    else
        col.failed = 1;
    if (tmp) fclose(tmp);

    if (ingest_bundle_close(col.bundle) != AZ_OK && !col.failed) {
        fprintf(err, "gotcha: cannot write '%s': %s\n", bundle_path,
                ingest_bundle_error(col.bundle));
        col.failed = 1;
    }
    if (col.failed) {
        unlink(bundle_path);
        goto end;
    }
    fprintf(out, "%s\n", bundle_path);
    if (!quiet)
        fprintf(err, "gotcha: %zu files in %s%s\n", col.members, bundle_path,
                redact ? " (redacted: check it before you post it)" : "");
    rc = fflush(out) == 0 && !ferror(out) ? CLI_EXIT_CLEAN : CLI_EXIT_ERROR;
end:
    ingest_bundle_free(col.bundle);
    az_buf_free(&col.scratch);
    free((void *)hosts);
    free(bundle_path);
    corr_result_free(res);
    ingest_walk_free(walk);
    match_scanner_free(scanner);
    match_pack_free(pack);
    return rc;
}
