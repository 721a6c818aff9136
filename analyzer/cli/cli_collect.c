/*
 * cli/cli_collect.c - `gotcha collect [-o FILE] PATH...`: one .tar.zst to attach to a bug report:
 * every readable member of the PATHs (decoded, one member per input member, under
 * gotcha-bundle/<run>/ where <run> is the PATH's own name, with the file's modification time),
 * the Markdown report, and with --host this host's facts, with host and user names, addresses
 * and secrets redacted unless --no-redact. The members keep their line numbers, so
 * `gotcha scan FILE` reads the bundle as it read the directory: same evidence lines, same
 * verdict. An existing FILE is replaced only with --force.
 */
#include <errno.h>
#include <fcntl.h>
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
    "Usage: gotcha collect [-o FILE] [--force] [--host | --no-host] [--redact | --no-redact]\n"
    "                      [-q] PATH...\n"
    "Bundle a run for a bug report: every readable file of the PATHs (archives and compressed\n"
    "files decoded) under gotcha-bundle/<run>/, and the Markdown report, in one .tar.zst.\n"
    "'gotcha scan FILE' reads the bundle as the PATHs.\n"
    "\n"
    "  -o, --output FILE       the bundle (default gotcha-bundle-<UTC time>.tar.zst)\n"
    "      --force             replace FILE when it exists (default: refuse)\n"
    "      --host              add this host's facts when the PATHs hold none (collecting on\n"
    "                          the machine the run ran on)\n"
    "      --no-host           add none (default)\n"
    "      --redact            replace host and user names, addresses and secrets (default)\n"
    "      --no-redact         keep them\n"
    "  -q, --quiet             no warnings\n"
    "  -h, --help              show this help\n"
    "Exit status: 0 the bundle was written, 2 usage error, an unreadable PATH, an existing\n"
    "FILE without --force, or a failed write.\n";

struct collect {
    struct ingest_bundle *bundle;
    int redact;
    const struct report_names *names; /* the run's hosts (and this one) and users: borrowed */
    struct az_buf scratch;
    int64_t made_at; /* the modification time of the members collect writes itself (seconds) */
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
    report_redact(&c->scratch, p, len, c->names);
    fwrite(c->scratch.data, 1, c->scratch.len, tmp);
}

static void add_tmp(struct collect *c, const char *name, FILE *tmp, int64_t mtime, FILE *err)
{
    if (c->failed) return;
    long size = ftell(tmp);
    rewind(tmp);
    if (size < 0 || ferror(tmp) ||
        ingest_bundle_add_file(c->bundle, name, tmp, (uint64_t)size, mtime) != AZ_OK) {
        fprintf(err, "gotcha: cannot add '%s' to the bundle: %s\n", name,
                ingest_bundle_error(c->bundle));
        c->failed = 1;
        return;
    }
    c->members++;
}

/* display (the walk's path of a member: the PATH as typed, then its place in the run) as
 * "<run>/<place>": the first root_len bytes are the PATH. Caller frees. */
static char *run_relative(const char *display, const char *run_name, size_t root_len)
{
    size_t dl = strlen(display);
    const char *rest = display + AZ_MIN(root_len, dl);
    while (*rest == '/') rest++;
    return *rest ? az_xasprintf("%s/%s", run_name, rest) : az_xstrdup(run_name);
}

/* One input of a run: each readable member, decoded, redacted, line numbers kept (a record that
 * shares its line number with the one before was cut at a lone CR, and gets it back). Members
 * are named after the run (run_name) and their place in it (after the first root_len bytes of
 * their display path), never after where the run sits on this machine. */
static void add_input(struct collect *c, const struct ingest_entry *e, const char *run_name,
                      size_t root_len, const struct ingest_options *io, int quiet, FILE *err)
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
        char *rel = run_relative(m.display, run_name, root_len);
        struct az_buf shown = AZ_BUF_INIT; /* a path names its user too: redact it */
        if (c->redact) report_redact(&shown, rel, strlen(rel), c->names);
        char *name = member_name(c->redact ? shown.data : rel, strcmp(m.compression, "none") != 0);
        az_buf_free(&shown);
        free(rel);
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
        add_tmp(c, name, tmp, e->mtime, err);
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
    cli_preflight_check(&h, &lim, pack, &p);
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
            add_tmp(c, COLLECT_ROOT "/collect-host/" COLLECT_FACTS, tmp, c->made_at, err);
            fclose(tmp);
        }
    }
    free(mem);
    cli_preflight_free(&p);
    cli_host_free(&h);
}

/* ---- where the members go ---- */

/* The name of the run a PATH is: its last component ("runs/job42/" is "job42"); for a PATH that
 * ends in "." or ".." that of the directory it names (read textually from the working
 * directory); "run" when there is none ("/"). Caller frees. */
static char *run_name_of(const char *path)
{
    struct az_buf full = AZ_BUF_INIT;
    char cwd[4096];
    if (path[0] != '/' && getcwd(cwd, sizeof cwd)) az_buf_printf(&full, "%s/", cwd);
    az_buf_puts(&full, path);
    /* the components, ".." popping the one before */
    size_t ncomp = 0;
    const char **comp = az_xcalloc(full.len / 2 + 2, sizeof *comp);
    size_t *clen = az_xcalloc(full.len / 2 + 2, sizeof *clen);
    for (const char *p = full.data; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (ncomp) ncomp--;
        } else if (n && !(n == 1 && p[0] == '.')) {
            comp[ncomp] = p;
            clen[ncomp++] = n;
        }
        p += n;
        while (*p == '/') p++;
    }
    char *name = ncomp ? az_xstrndup(comp[ncomp - 1], clen[ncomp - 1]) : az_xstrdup("run");
    free((void *)comp);
    free(clen);
    az_buf_free(&full);
    return name;
}

/* run_name, or run_name-2, -3 ... when an earlier PATH of the bundle has it already. */
static char *unique_run_name(char *name, char **taken, size_t ntaken)
{
    for (unsigned k = 2;; k++) {
        int clash = 0;
        for (size_t i = 0; i < ntaken && !clash; i++) clash = strcmp(taken[i], name) == 0;
        if (!clash) return name;
        char *base = az_xstrndup(name, k == 2 ? strlen(name) : (size_t)(strrchr(name, '-') - name));
        free(name);
        name = az_xasprintf("%s-%u", base, k);
        free(base);
    }
}

/* The walk root's length in display paths: the PATH as typed, minus trailing slashes (walk.c). */
static size_t root_len_of(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    return n;
}

/* Every PATH's members into the bundle; sets *facts when a PATH holds host facts. */
static void add_paths(struct collect *c, const char *const *paths, size_t npaths, int quiet,
                      int *facts, FILE *err)
{
    struct ingest_options io;
    ingest_options_default(&io);
    char **names = az_xcalloc(npaths ? npaths : 1, sizeof *names);
    for (size_t p = 0; p < npaths && !c->failed; p++) {
        names[p] = unique_run_name(run_name_of(paths[p]), names, p);
        struct ingest_walk *w = NULL;
        ingest_walk_paths(paths + p, 1, &w); /* opened once already: the scan said what failed */
        if (has_facts(w)) *facts = 1;
        for (size_t i = 0; i < ingest_walk_count(w) && !c->failed; i++)
            add_input(c, ingest_walk_entry(w, i), names[p], root_len_of(paths[p]), &io, quiet, err);
        ingest_walk_free(w);
    }
    for (size_t p = 0; p < npaths; p++) free(names[p]);
    free(names);
}

/* ---- the bundle file ---- */

/* The time stamp of what collect writes itself (the report, --host facts): SOURCE_DATE_EPOCH
 * when set (reproducible bundles), else now. */
static int64_t made_at(void)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    uint64_t v;
    if (sde && cli_parse_whole(sde, 0, INT64_MAX, &v) == 0) return (int64_t)v;
    return (int64_t)time(NULL);
}

/* Make sure path may be written: a new file, or with force any. *created: 1 when this call made
 * it (a failed bundle is then removed). @return 0, or -1 after saying why. */
static int claim_output(const char *path, int force, int *created, FILE *err)
{
    *created = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
        *created = 1;
        close(fd);
        return 0;
    }
    if (errno == EEXIST && !force) {
        fprintf(err, "gotcha: '%s' exists: not overwritten (--force replaces it)\n", path);
        return -1;
    }
    if (errno == EEXIST) fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(err, "gotcha: cannot write '%s': %s\n", path, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}

struct collect_opts {
    const char *output; /* -o */
    int redact;         /* --redact / --no-redact */
    int quiet;          /* -q */
    int host;           /* --host */
    int force;          /* --force */
};

/* @return -1 to go on, else the exit status; *first is the first PATH's index. */
static int parse_collect(int argc, char **argv, struct collect_opts *o, int *first, FILE *out,
                         FILE *err)
{
    enum { OPT_REDACT = 256, OPT_NO_REDACT, OPT_HOST, OPT_NO_HOST, OPT_FORCE };
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"redact", no_argument, NULL, OPT_REDACT},
                                         {"no-redact", no_argument, NULL, OPT_NO_REDACT},
                                         {"host", no_argument, NULL, OPT_HOST},
                                         {"no-host", no_argument, NULL, OPT_NO_HOST},
                                         {"force", no_argument, NULL, OPT_FORCE},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->redact = 1;
    int c;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, ":o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': o->output = optarg; break;
        case OPT_REDACT: o->redact = 1; break;
        case OPT_NO_REDACT: o->redact = 0; break;
        case OPT_HOST: o->host = 1; break;
        case OPT_NO_HOST: o->host = 0; break;
        case OPT_FORCE: o->force = 1; break;
        case 'q': o->quiet = 1; break;
        case 'h': fputs(collect_help, out); return CLI_EXIT_CLEAN;
        case ':': return cli_bad_usage(err, "option '%s' requires an argument", argv[optind - 1]);
        default: return cli_bad_usage(err, "unrecognized option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return cli_bad_usage(err, "'collect' needs a PATH (a run's directory)");
    for (int i = optind; i < argc; i++)
        if (strcmp(argv[i], "-") == 0)
            return cli_bad_usage(err, "'collect' reads files, not standard input");
    *first = optind;
    return -1;
}

/* The report, marked so that a scan of the bundle skips it. */
static void add_report(struct collect *c, const struct corr_result *res,
                       const struct match_pack *pack, FILE *err)
{
    struct report_options ro;
    memset(&ro, 0, sizeof ro);
    ro.redact = c->redact;
    ro.names = c->names;
    ro.tool_version = GOTCHA_VERSION;
    FILE *tmp = tmpfile();
    if (tmp) fputs(INGEST_OWN_REPORT_MARK "\n", tmp);
    if (tmp && report_write(tmp, REPORT_MD, res, pack, &ro) == AZ_OK)
        add_tmp(c, COLLECT_ROOT "/gotcha-report.md", tmp, c->made_at, err);
    else
        c->failed = 1;
    if (tmp) fclose(tmp);
}

int cli_cmd_collect(int argc, char **argv, FILE *out, FILE *err)
{
    struct collect_opts opt;
    int first = 0;
    int prc = parse_collect(argc, argv, &opt, &first, out, err);
    if (prc >= 0) return prc;
    const char *const *paths = (const char *const *)argv + first;
    size_t npaths = (size_t)(argc - first);

    /* the scan first: the report, and the host names the logs show, for redaction */
    struct cli_options so;
    cli_options_init(&so);
    so.command = CLI_CMD_SCAN;
    struct match_pack *pack = cli_load_pack(&so, err);
    if (!pack) return CLI_EXIT_ERROR;
    struct ingest_walk *walk = NULL;
    int rc = CLI_EXIT_ERROR, created = 0, claimed = 0;
    struct corr_result *res = NULL;
    struct match_scanner *scanner = match_scanner_new(pack);
    struct corr_config cfg;
    corr_config_default(&cfg, pack);
    char *bundle_path = NULL;
    struct collect col;
    memset(&col, 0, sizeof col);
    const char **hosts = NULL;
    struct report_names *names = NULL;

    if (ingest_walk_paths(paths, npaths, &walk) != AZ_OK) {
        const char *e = ingest_walk_error(walk);
        fprintf(err, "gotcha: cannot open %s", e && *e ? e : "a PATH\n");
        goto end;
    }
    bundle_path = opt.output ? az_xstrdup(opt.output) : cli_utc_name("gotcha-bundle", ".tar.zst");
    if (claim_output(bundle_path, opt.force, &created, err) != 0) goto end;
    claimed = 1;
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

    /* one table for the members, their names and the report: a host reads the same in each */
    names = report_names_new(hosts, nhosts);
    report_names_learn_result(names, res);
    for (size_t i = 0; i < ingest_walk_count(walk); i++) {
        const char *d = ingest_walk_entry(walk, i)->display;
        report_names_learn(names, d, strlen(d));
    }
    col.redact = opt.redact;
    col.names = names;
    col.made_at = made_at();
    if (ingest_bundle_create(&col.bundle, bundle_path) != AZ_OK) {
        fprintf(err, "gotcha: cannot write '%s': %s\n", bundle_path,
                ingest_bundle_error(col.bundle));
        col.failed = 1;
        goto end;
    }
    int facts = 0;
    add_paths(&col, paths, npaths, opt.quiet, &facts, err);
    if (opt.host && !facts && !col.failed) add_live_facts(&col, pack, err);
    if (!col.failed) add_report(&col, res, pack, err);

    if (ingest_bundle_close(col.bundle) != AZ_OK && !col.failed) {
        fprintf(err, "gotcha: cannot write '%s': %s\n", bundle_path,
                ingest_bundle_error(col.bundle));
        col.failed = 1;
    }
    if (col.failed) goto end;
    fprintf(out, "%s\n", bundle_path);
    if (!opt.quiet)
        fprintf(err, "gotcha: %zu files in %s%s\n", col.members, bundle_path,
                opt.redact ? " (redacted: check it before you post it)" : "");
    rc = fflush(out) == 0 && !ferror(out) ? CLI_EXIT_CLEAN : CLI_EXIT_ERROR;
end:
    ingest_bundle_free(col.bundle);
    /* a bundle that failed is not left half-written where this call made it */
    if (rc != CLI_EXIT_CLEAN && claimed && created) unlink(bundle_path);
    az_buf_free(&col.scratch);
    free((void *)hosts);
    report_names_free(names);
    free(bundle_path);
    corr_result_free(res);
    ingest_walk_free(walk);
    match_scanner_free(scanner);
    match_pack_free(pack);
    return rc;
}
