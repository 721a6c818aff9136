/*
 * tests/unit/test_boundaries.c - the decision points at their edges (issue 25): the verdict
 * threshold at, just under and just over a finding's confidence; every entry of the redaction
 * tables in each report format; the nesting limit at and past its depth; the outcome rule with
 * the end marker before and after the last error; the clock parser's edges; and a walk that meets
 * an unreadable file as a user who cannot read it (as root, the test drops to nobody in a child
 * instead of skipping, so CI, which runs as root, runs it).
 *
 * Every test runs in its own temporary directory. Line shapes:
 *  - OOM: the message PyTorch's CUDA caching allocator raises (torch.OutOfMemoryError), as in
 *    torch/csrc/cuda/CUDACachingAllocator.cpp ("CUDA out of memory. Tried to allocate ...").
 *  - TRAINER_END: Hugging Face Trainer's closing line ("Training completed. Do not forget to share
 *    your model on huggingface.co/models =)", transformers/trainer.py).
 *  - The Authorization headers are RFC 7235's shape as requests/urllib3 debug logging prints
 *    a request's headers; the tokens' prefixes are the issuers' documented ones (Hugging Face
 *    hf_, OpenAI sk- and sk-proj-, GitHub ghp_/gho_/ghu_/ghs_/ghr_ and github_pat_).
 */
#define _GNU_SOURCE /* memmem */
#include <archive.h>
#include <archive_entry.h>
#include <criterion/criterion.h>
#include <grp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "correlate/corr.h"
#include "scan_fixture.h"
#include "ingest/ingest.h"
#include "report/report.h"
#include "tokenize/tok.h"

#define OOM                                                                                        \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total "   \
    "capacity of 119.70 GiB of which 812.00 MiB is free."
#define TRAINER_END                                                                                \
    "Training completed. Do not forget to share your model on huggingface.co/models =)"

static void setup(void)
{
    fx_tmpdir("bound");
    cr_assert_eq(chdir(fx.dir), 0);
}

static void teardown(void)
{
    if (chdir("/") != 0) cr_log_warn("cannot leave %s", fx.dir);
    fx_teardown();
}

TestSuite(bound, .init = setup, .fini = teardown, .timeout = 120);

static struct corr_result *analyze(const char *path, double threshold)
{
    struct corr_config cfg;
    corr_config_default(&cfg, fx.pack);
    if (threshold >= 0) cfg.threshold = threshold;
    const char *pp[] = {path};
    struct corr_result *r = fx_analyze(&cfg, pp, 1);
    cr_assert_gt(r->records, 0, "no record was read from %s", path);
    return r;
}

/* ---- the verdict threshold: a finding exactly at it is a verdict (>=), a hair above is not */

Test(bound, verdict_at_just_under_and_just_over_the_threshold)
{
    fx_load_shipped();
    fx_write(NULL, "train.log", "step 10 loss 1.91\n" OOM "\n");
    struct corr_result *r = analyze("train.log", -1);
    cr_assert_gt(r->nfindings, 0);
    cr_assert_not_null(r->verdict, "the OOM must give a verdict at the default threshold");
    double c = r->findings[0].confidence;
    const struct match_entry *top = r->findings[0].entry;
    corr_result_free(r);

    r = analyze("train.log", c); /* at: a verdict */
    cr_assert_eq(r->verdict, top, "a finding exactly at the threshold (%.17g) is the verdict", c);
    corr_result_free(r);
    r = analyze("train.log", nextafter(c, 0)); /* just under the finding: a verdict */
    cr_assert_eq(r->verdict, top);
    corr_result_free(r);
    r = analyze("train.log", nextafter(c, 2)); /* just over: none */
    cr_assert_null(r->verdict, "a threshold above the confidence (%.17g) gives no verdict", c);
    cr_assert_gt(r->nfindings, 0, "the finding stays listed, only the verdict goes");
    corr_result_free(r);
}

/* ---- the outcome rule: the run's end marker after its last error completes it; before, the
 * error ends it */

Test(bound, end_marker_after_the_last_error_completes_the_run)
{
    fx_load_shipped();
    fx_write(NULL, "train.log",
             "2026-05-12 10:00:00,000 - INFO - step 10 loss 1.91\n"
             "2026-05-12 10:00:05,000 - ERROR - " OOM "\n"
             "2026-05-12 10:00:09,000 - INFO - " TRAINER_END "\n");
    struct corr_result *r = analyze("train.log", -1);
    cr_assert_eq(r->outcome, CORR_OUTCOME_COMPLETED, "got %s", corr_outcome_name(r->outcome));
    corr_result_free(r);
}

Test(bound, end_marker_before_the_last_error_fails_the_run)
{
    fx_load_shipped();
    fx_write(NULL, "train.log",
             "2026-05-12 10:00:00,000 - INFO - step 10 loss 1.91\n"
             "2026-05-12 10:00:05,000 - INFO - " TRAINER_END "\n"
             "2026-05-12 10:00:09,000 - ERROR - " OOM "\n");
    struct corr_result *r = analyze("train.log", -1);
    cr_assert_eq(r->outcome, CORR_OUTCOME_FAILED, "got %s", corr_outcome_name(r->outcome));
    corr_result_free(r);
}

/* ---- the redaction tables, table-driven: each scheme and prefix at its minimum body length is
 * redacted, one character shorter is left (it is too short to be a token of that kind) */

static char *redacted(const char *s)
{
    struct report_names *nm = report_names_new(NULL, 0);
    report_names_learn(nm, s, strlen(s));
    struct az_buf b = AZ_BUF_INIT;
    report_redact(&b, s, strlen(s), nm);
    report_names_free(nm);
    az_buf_ensure(&b, 0);
    return az_buf_steal(&b);
}

static const struct {
    const char *prefix; /* as it appears before the secret */
    size_t min;         /* the shortest body that is redacted (sanitize.c's table) */
} g_tokens[] = {
    /* sk-proj- is first in the table; a body one short of its minimum is still an sk- token
     * ("proj-" counts towards sk-'s 20), so its under-minimum case is sk-'s row below */
    {"Authorization: Bearer ", 8},
    {"Authorization: Basic ", 8},
    {"authorization: bearer ", 8},
    {"AUTHORIZATION: BASIC ", 8},
    {"id hf_", 30},
    {"id sk-proj-", 20},
    {"id sk-", 20},
    {"id github_pat_", 22},
    {"id ghp_", 30},
    {"id gho_", 30},
    {"id ghu_", 30},
    {"id ghs_", 30},
    {"id ghr_", 30},
};

static void body(char *out, size_t n)
{
    static const char alnum[] = "Zq7Xw3Vb9Nm2Kc5Lp8Rt4Yh6Jd1Gf0Sa";
    for (size_t i = 0; i < n; i++) out[i] = alnum[i % (sizeof alnum - 1)];
    out[n] = 0;
}

Test(bound, every_secret_scheme_and_prefix_at_its_minimum_length)
{
    for (size_t k = 0; k < sizeof g_tokens / sizeof g_tokens[0]; k++) {
        char b[64], line[160];
        body(b, g_tokens[k].min);
        snprintf(line, sizeof line, "request headers: %s%s end", g_tokens[k].prefix, b);
        char *out = redacted(line);
        cr_assert_null(strstr(out, b), "%s with a %zu-character body survived: %s",
                       g_tokens[k].prefix, g_tokens[k].min, out);
        cr_assert_not_null(strstr(out, "<redacted>"), "no <redacted> in: %s", out);
        cr_assert_not_null(strstr(out, "request headers: "), "the line around it was lost: %s",
                           out);
        free(out);
        if (strcmp(g_tokens[k].prefix, "id sk-proj-") == 0) continue;
        body(b, g_tokens[k].min - 1);
        snprintf(line, sizeof line, "request headers: %s%s end", g_tokens[k].prefix, b);
        out = redacted(line);
        cr_assert_null(strstr(out, "<redacted>"), "%s with %zu characters is under the minimum: %s",
                       g_tokens[k].prefix, g_tokens[k].min - 1, out);
        free(out);
    }
}

/* A timeline label the correlator cut (timeline.c snippet(), "...") inside sshd's "Accepted
 * publickey for %s from" (openssh auth.c): the name is still replaced, wherever the cut falls.
 * Found by first_hour.sh: with no other line naming the user, the cut label kept it. */
Test(bound, sshd_user_redacted_in_a_cut_label)
{
    static const char *const cuts[] = {
        "sshd[812]: Accepted publickey for alice from...",
        "sshd[812]: Accepted publickey for alice fr...",
        "sshd[812]: Accepted publickey for alice...",
        "sshd[812]: Accepted publickey for ali...",
    };
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        char *out = redacted(cuts[k]);
        cr_assert_null(strstr(out, "ali"), "%s -> %s", cuts[k], out);
        cr_assert_not_null(strstr(out, "Accepted publickey for <user"), "%s -> %s", cuts[k], out);
        free(out);
    }
    char *out = redacted("sshd[812]: Accepted publickey for alice fast...");
    cr_assert_not_null(strstr(out, "alice fast"), "not sshd's shape: left as it is (%s)", out);
    free(out);
}

/* The same table through the binary, in each format a user reads: a failed run whose error
 * lines carry each secret, scanned with --redact. */
static char *run_capture(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    struct az_buf b = AZ_BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0) az_buf_append(&b, chunk, n);
    int st = pclose(p);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) <= 1, "%s: status %d", cmd, st);
    az_buf_ensure(&b, 0);
    return az_buf_steal(&b);
}

Test(bound, every_secret_redacted_in_text_md_html_and_json)
{
    const char *bin = getenv("GOTCHA_BIN");
    cr_assert(bin && *bin, "make unit sets GOTCHA_BIN");
    /* each secret on a Python error line (a failure the report quotes) and in the traceback */
    struct az_buf log = AZ_BUF_INIT;
    char bodies[sizeof g_tokens / sizeof g_tokens[0]][64];
    for (size_t k = 0; k < sizeof g_tokens / sizeof g_tokens[0]; k++) {
        body(bodies[k], g_tokens[k].min + k); /* distinct lengths: each secret its own */
        az_buf_printf(&log, "RuntimeError: upload failed, %s%s\n", g_tokens[k].prefix, bodies[k]);
    }
    az_buf_ensure(&log, 0);
    fx_write(NULL, "stderr.log", log.data);
    az_buf_free(&log);
    static const char *const formats[] = {"text", "md", "html", "json"};
    for (size_t f = 0; f < 4; f++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "'%s' scan -q -v --redact -f %s stderr.log", bin, formats[f]);
        char *out = run_capture(cmd);
        cr_assert_not_null(strstr(out, "upload failed"), "%s: the error line was not reported",
                           formats[f]);
        for (size_t k = 0; k < sizeof g_tokens / sizeof g_tokens[0]; k++)
            cr_assert_null(strstr(out, bodies[k]), "%s: the %s secret survived", formats[f],
                           g_tokens[k].prefix);
        free(out);
    }
}

/* ---- the nesting limit: a .gz inside as many tar layers as the limit allows is read, one
 * deeper is refused with the depth warning */

static void tar_one(const char *out, const char *member, const char *src)
{
    FILE *f = fopen(src, "rb");
    cr_assert_not_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    struct archive *a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    cr_assert_eq(archive_write_open_filename(a, out), ARCHIVE_OK);
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, member);
    archive_entry_set_size(e, (la_int64_t)n);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    archive_write_data(a, buf, n);
    archive_entry_free(e);
    archive_write_close(a);
    archive_write_free(a);
}

static uint64_t records_of(const char *path, int *depth_warned)
{
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open(&r, path, NULL, NULL), AZ_OK);
    uint64_t n = 0;
    struct ingest_member m;
    struct ingest_line line;
    enum az_status st;
    *depth_warned = 0;
    while ((st = ingest_reader_next_member(r, &m)) != AZ_EOF && st != AZ_FATAL) {
        if (st == AZ_FAIL) {
            if (strstr(ingest_reader_error(r), "nested deeper")) *depth_warned = 1;
            continue;
        }
        while ((st = ingest_reader_next_line(r, &line)) == AZ_OK || st == AZ_WARN)
            if (line.len >= 18 && memmem(line.text, line.len, "CUDA out of memory", 18)) n++;
    }
    ingest_reader_free(r);
    return n;
}

Test(bound, nesting_up_to_the_limit_is_read_one_deeper_is_refused)
{
    fx_write(NULL, "train.log", OOM "\n");
    cr_assert_eq(system("gzip -c train.log > l0.gz"), 0);
    /* l0.gz is one layer; each tar around it adds one */
    char prev[32] = "l0.gz", cur[32];
    for (int d = 1; d <= 5; d++) {
        snprintf(cur, sizeof cur, "l%d.tar", d);
        tar_one(cur, prev, prev);
        snprintf(prev, sizeof prev, "%s", cur);
        int warned = 0;
        uint64_t n = records_of(cur, &warned);
        /* depth d+1 layers: the default limit (4) holds up to four */
        if (d + 1 <= 4) {
            cr_assert_eq(n, 1, "%d layers: the OOM line inside was not read", d + 1);
            cr_assert(!warned, "%d layers: a false depth warning", d + 1);
        } else {
            cr_assert_eq(n, 0, "%d layers: read past the limit", d + 1);
            cr_assert(warned, "%d layers: refused without the depth warning", d + 1);
        }
    }
}

/* ---- the decompression-bomb cap in a scan: a member one byte over the cap is skipped with the
 * reason, and the scan goes on to the next input (its OOM is still the verdict) */

Test(bound, bomb_one_byte_over_the_cap_is_skipped_and_the_scan_goes_on)
{
    fx_load_shipped();
    enum { CAP = 300000 }; /* a multiple of the 16-byte line */
    cr_assert_eq(system("yes 'step 1 loss 2.5' | head -c 300000 > a.log && printf x >> a.log && "
                        "zstd -q --rm a.log"),
                 0);
    fx_write(NULL, "b.log", "step 10 loss 1.91\n" OOM "\n");
    struct corr_config cfg;
    corr_config_default(&cfg, fx.pack);
    cfg.ingest.expand_floor = CAP;
    cfg.ingest.expand_ratio = 0;
    const char *pp[] = {"a.log.zst", "b.log"};
    struct corr_result *r = fx_analyze(&cfg, pp, 2);
    int warned = 0;
    for (size_t i = 0; i < r->nwarnings; i++)
        warned |= strstr(r->warnings[i], "a.log.zst: decompression bomb? expanded past 300000 "
                                         "bytes") == r->warnings[i];
    cr_assert(warned, "no bomb warning for a.log.zst (%zu warnings)", r->nwarnings);
    cr_assert_str_neq(fx_verdict(r), "none", "b.log after the bomb was not scanned");
    cr_assert_not_null(fx_finding(r, fx_verdict(r)));
    corr_result_free(r);
}

/* ---- the clock parser's edges: 23:59:60 (a leap second) is a time, 24:00:00 and :61 are not;
 * 29 February in 2000 and 2024 is a date, in 2100 and 2025 it is not */

static int parses(const char *s)
{
    size_t end = 0;
    struct az_time t = tok_parse_time(TOK_KIND_TEXT, s, strlen(s), &end);
    return t.kind != AZ_TIME_NONE;
}

Test(bound, clock_and_calendar_edges)
{
    cr_assert(parses("2026-05-12 23:59:59 step"));
    cr_assert(parses("2026-05-12 23:59:60 step"), "a leap second is a time");
    cr_assert(!parses("2026-05-12 24:00:00 step"), "hour 24 is not");
    cr_assert(!parses("2026-05-12 23:59:61 step"));
    cr_assert(!parses("2026-05-12 23:60:00 step"));
    cr_assert(parses("2000-02-29 10:00:00 x"), "2000 is a leap year (divisible by 400)");
    cr_assert(parses("2024-02-29 10:00:00 x"));
    /* 2100, not 1900: stamps before 1970 are not taken as dates at all, so 1900 tested nothing */
    cr_assert(parses("2100-02-28 10:00:00 x"));
    cr_assert(!parses("2100-02-29 10:00:00 x"), "2100 is not (divisible by 100, not by 400)");
    cr_assert(!parses("2025-02-29 10:00:00 x"));
    cr_assert(!parses("2026-04-31 10:00:00 x"), "April has 30 days");
    cr_assert(parses("2026-04-30 10:00:00 x"));
}

/* ---- a file the user cannot read is skipped with the reason, as a user it is unreadable to */

Test(bound, walk_skips_unreadable_file_as_a_non_root_user)
{
    cr_assert_eq(mkdir("run", 0755), 0);
    fx_write(NULL, "run/secret.log", "s\n");
    fx_write(NULL, "run/ok.log", "o\n");
    cr_assert_eq(chmod("run/secret.log", 0), 0);
    cr_assert_eq(chmod(fx.dir, 0755), 0); /* nobody must reach run/ */
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        close(fd[0]);
        /* root reads mode 000 files: drop to nobody (65534) for the walk */
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
            _exit(3);
        if (geteuid() == 0) _exit(4);
        const char *paths[] = {"run"};
        struct ingest_walk *w;
        ingest_walk_paths(paths, 1, &w);
        FILE *f = fdopen(fd[1], "w");
        for (size_t i = 0; i < ingest_walk_count(w); i++)
            fprintf(f, "%s\n", ingest_walk_entry(w, i)->display);
        for (size_t i = 0; i < ingest_walk_skip_count(w); i++)
            fprintf(f, "skip %s: %s\n", ingest_walk_skip(w, i)->path,
                    ingest_walk_skip(w, i)->reason);
        fclose(f);
        ingest_walk_free(w);
        _exit(0);
    }
    close(fd[1]);
    char out[512] = "";
    size_t n = 0;
    ssize_t k;
    while ((k = read(fd[0], out + n, sizeof out - 1 - n)) > 0) n += (size_t)k;
    out[n] = 0;
    close(fd[0]);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child could not become nobody (%d)",
              WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    cr_assert_str_eq(out, "run/ok.log\nskip run/secret.log: permission denied\n");
}
