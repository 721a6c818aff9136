/* Tests for the batch dashboard (report/dash_agg.c, report/dashboard.c): the weeks runs fall in,
 * the categories and shares, first errors grouped by fingerprint, the facts kept in the cache,
 * report file names, and the page's escaping, redaction and bounds. The rows are built here in
 * the shape report_batch_row_from_result() gives them (tests/unit/test_batch.c and the CLI goldens
 * test that shape against real runs); tests/cli/batch_html.sh runs the whole command. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define DAY_US (86400LL * 1000000LL)

/* 2026-05-12 13:04:32 (a Tuesday), wall clock microseconds. */
static int64_t usec_of(int64_t y, unsigned mo, unsigned d, unsigned h)
{
    return az_usec_from_civil(y, mo, d, h, 4, 32, 0);
}

struct fixture {
    size_t n;
    struct report_batch_row rows[64];
    struct report_dash_facts facts[64];
    struct report_dash_input in[64];
};

static void set(char **field, const char *value)
{
    free(*field);
    *field = strdup(value);
}

/* One run: verdict "G4"/"none", outcome, time (0: none), first error id and fingerprint. */
static void add(struct fixture *f, const char *run, const char *verdict, enum corr_outcome oc,
                int64_t usec, const char *fe_id, const char *fp, const char *error)
{
    size_t i = f->n++;
    report_batch_row_error(&f->rows[i], run, "x");
    set(&f->rows[i].error, error ? error : "");
    set(&f->rows[i].verdict, error ? "" : verdict);
    if (fe_id) {
        set(&f->rows[i].first_error, fe_id);
        set(&f->rows[i].fingerprint, fp);
        set(&f->rows[i].fingerprint_text, "RuntimeError: CUDA error: out of memory");
        set(&f->rows[i].first_error_at, "train.log:12");
    }
    report_dash_facts_from_mtime(&f->facts[i], 0);
    f->facts[i].outcome = oc;
    if (usec) {
        f->facts[i].when = REPORT_DASH_WHEN_LOGS;
        f->facts[i].first_usec = usec;
    }
    f->in[i] = (struct report_dash_input){&f->rows[i], &f->facts[i], 0};
}

static void fixture_free(struct fixture *f)
{
    for (size_t i = 0; i < f->n; i++) {
        report_batch_row_free(&f->rows[i]);
        report_dash_facts_free(&f->facts[i]);
    }
}

static size_t cat_runs(const struct report_dash_agg *a, const char *id)
{
    for (size_t c = 0; c < a->ncats; c++)
        if (strcmp(a->cats[c].id, id) == 0) return a->cats[c].runs;
    return (size_t)-1;
}

Test(dashboard, monday_of_a_week)
{
    /* 1970-01-01 was a Thursday: its week began on Monday 1969-12-29, day -3 */
    cr_assert_eq(report_dash_monday(0), -3);
    cr_assert_eq(report_dash_monday(DAY_US - 1), -3);
    cr_assert_eq(report_dash_monday(4 * DAY_US), 4); /* Monday 1970-01-05 is its own Monday */
    cr_assert_eq(report_dash_monday(-1), -3);        /* 1969-12-31 23:59:59.999999 */
    cr_assert_eq(report_dash_monday(-4 * DAY_US), -10);
    /* Tuesday 2026-05-12 and Sunday 2026-05-17 share Monday 2026-05-11; Monday 05-18 does not */
    int64_t mon = az_days_from_civil(2026, 5, 11);
    cr_assert_eq(report_dash_monday(usec_of(2026, 5, 12, 13)), mon);
    cr_assert_eq(report_dash_monday(usec_of(2026, 5, 17, 23)), mon);
    cr_assert_eq(report_dash_monday(usec_of(2026, 5, 18, 0)), mon + 7);
}

Test(dashboard, weeks_count_runs_by_category)
{
    struct fixture f = {0};
    add(&f, "r/a", "G4", CORR_OUTCOME_COMPLETED, usec_of(2026, 5, 12, 13), NULL, NULL, NULL);
    add(&f, "r/b", "G4", CORR_OUTCOME_FAILED, usec_of(2026, 5, 17, 9), "G4", "aa", NULL);
    add(&f, "r/c", "none", CORR_OUTCOME_FAILED, usec_of(2026, 5, 18, 9), "C.xid", "bb", NULL);
    add(&f, "r/d", "none", CORR_OUTCOME_COMPLETED, usec_of(2026, 4, 1, 9), NULL, NULL, NULL);
    add(&f, "r/e", "none", CORR_OUTCOME_UNKNOWN, 0, NULL, NULL, NULL); /* no time */
    struct report_dash_agg a;
    report_dash_aggregate(&a, f.in, f.n, NULL);
    cr_assert_eq(a.nruns, 5);
    cr_assert_eq(a.ntimed, 4);
    cr_assert_eq(a.nweeks, 3); /* weeks with runs only, oldest first */
    cr_assert_eq(a.weeks[0].monday, az_days_from_civil(2026, 3, 30));
    cr_assert_eq(a.weeks[1].monday, az_days_from_civil(2026, 5, 11));
    cr_assert_eq(a.weeks[1].runs, 2);
    cr_assert_eq(a.weeks[2].runs, 1);
    size_t g4 = a.cat_of[0], other = a.cat_of[2], healthy = a.cat_of[3];
    cr_assert_str_eq(a.cats[g4].id, "G4");
    cr_assert_eq(a.week_cat[1 * a.ncats + g4], 2);
    cr_assert_eq(a.week_cat[2 * a.ncats + other], 1);
    cr_assert_eq(a.week_cat[0 * a.ncats + healthy], 1);
    cr_assert_eq(a.first_usec, usec_of(2026, 4, 1, 9));
    cr_assert_eq(a.last_usec, usec_of(2026, 5, 18, 9));
    report_dash_agg_free(&a);
    fixture_free(&f);
}

Test(dashboard, classes_and_outcome_shares)
{
    struct fixture f = {0};
    add(&f, "r/1", "G3", CORR_OUTCOME_FAILED, 0, "G3", "f1", NULL);
    add(&f, "r/2", "none", CORR_OUTCOME_FAILED, 0, "C.xid", "f2", NULL);     /* other failure */
    add(&f, "r/3", "none", CORR_OUTCOME_CUT_OFF, 0, NULL, NULL, NULL);       /* other: cut off */
    add(&f, "r/4", "none", CORR_OUTCOME_UNKNOWN, 0, "C.oom", "f3", NULL);    /* other: an error */
    add(&f, "r/5", "none", CORR_OUTCOME_COMPLETED, 0, "C.nccl", "f4", NULL); /* recovered */
    add(&f, "r/6", "none", CORR_OUTCOME_UNKNOWN, 0, NULL, NULL, NULL);       /* healthy: nothing */
    add(&f, "r/7", "", CORR_OUTCOME_UNKNOWN, 0, NULL, NULL, "binary file");  /* not read */
    add(&f, "r/8", "ACME.quota", CORR_OUTCOME_FAILED, 0, NULL, NULL, NULL);  /* not in the pack */
    struct report_dash_agg a;
    report_dash_aggregate(&a, f.in, f.n, NULL);
    cr_assert_eq(cat_runs(&a, "G3"), 1);
    cr_assert_eq(cat_runs(&a, "ACME.quota"), 1);
    cr_assert_eq(cat_runs(&a, "other"), 3);
    cr_assert_eq(cat_runs(&a, "healthy"), 2);
    cr_assert_eq(cat_runs(&a, "not read"), 1);
    /* the verdicts the rows name, sorted, then the three classes in that order */
    cr_assert_eq(a.ncats, 5);
    cr_assert_str_eq(a.cats[0].id, "ACME.quota");
    cr_assert_str_eq(a.cats[1].id, "G3");
    cr_assert_str_eq(a.cats[4].id, "not read");
    /* outcomes of the runs that were read */
    cr_assert_eq(a.outcomes[CORR_OUTCOME_FAILED], 3);
    cr_assert_eq(a.outcomes[CORR_OUTCOME_CUT_OFF], 1);
    cr_assert_eq(a.outcomes[CORR_OUTCOME_UNKNOWN], 2);
    cr_assert_eq(a.outcomes[CORR_OUTCOME_COMPLETED], 1);
    report_dash_agg_free(&a);
    fixture_free(&f);
}

Test(dashboard, first_errors_grouped_by_fingerprint)
{
    struct fixture f = {0};
    int64_t t1 = usec_of(2026, 1, 5, 1), t2 = usec_of(2026, 2, 5, 1), t3 = usec_of(2026, 3, 5, 1);
    int64_t t4 = usec_of(2026, 4, 5, 1);
    add(&f, "r/a", "none", CORR_OUTCOME_FAILED, t3, "C.xid", "fp-xid", NULL);
    add(&f, "r/b", "none", CORR_OUTCOME_FAILED, t1, "C.xid", "fp-xid", NULL);
    add(&f, "r/c", "G3", CORR_OUTCOME_FAILED, t2, "G3", "fp-oom", NULL);
    add(&f, "r/d", "none", CORR_OUTCOME_FAILED, 0, "C.xid", "fp-xid", NULL); /* untimed */
    add(&f, "r/e", "none", CORR_OUTCOME_FAILED, t4, "C.xid", "fp-xid", NULL);
    add(&f, "r/f", "none", CORR_OUTCOME_FAILED, t2, "C.xid", "fp-xid", NULL);
    add(&f, "r/g", "G3", CORR_OUTCOME_FAILED, t1, "G3", "fp-oom", NULL);
    add(&f, "r/h", "", CORR_OUTCOME_UNKNOWN, 0, "C.xid", "fp-xid", "cannot be read"); /* skipped */
    add(&f, "r/i", "none", CORR_OUTCOME_FAILED, t1, "C.nan", "fp-nan", NULL);
    struct report_dash_agg a;
    report_dash_aggregate(&a, f.in, f.n, NULL);
    cr_assert_eq(a.nerrors_distinct, 3);
    cr_assert_eq(a.nerrors, 3);
    /* most common first, ties by fingerprint */
    cr_assert_str_eq(a.errors[0].fingerprint, "fp-xid");
    cr_assert_eq(a.errors[0].runs, 5);
    cr_assert_str_eq(a.errors[1].fingerprint, "fp-oom");
    cr_assert_str_eq(a.errors[2].fingerprint, "fp-nan");
    cr_assert_str_eq(a.errors[0].id, "C.xid");
    /* first and last seen over the timed runs */
    cr_assert(a.errors[0].timed);
    cr_assert_eq(a.errors[0].first_usec, t1);
    cr_assert_eq(a.errors[0].last_usec, t4);
    /* the newest three examples, newest first; the untimed run comes after every timed one */
    cr_assert_eq(a.errors[0].nexamples, REPORT_DASH_EXAMPLES);
    cr_assert_eq(a.errors[0].example[0], 4); /* r/e, t4 */
    cr_assert_eq(a.errors[0].example[1], 0); /* r/a, t3 */
    cr_assert_eq(a.errors[0].example[2], 5); /* r/f, t2 */
    cr_assert_eq(a.errors[1].nexamples, 2);
    cr_assert_eq(a.errors[1].example[0], 2);
    report_dash_agg_free(&a);
    fixture_free(&f);
}

Test(dashboard, first_errors_keep_the_most_common)
{
    static struct fixture f; /* large: off the stack */
    memset(&f, 0, sizeof f);
    /* REPORT_DASH_TOP_ERRORS + 5 distinct errors: fp-00..fp-04 in 5 runs each, the rest once */
    const size_t kinds = REPORT_DASH_TOP_ERRORS + 5;
    for (size_t k = 0; k < kinds; k++) {
        char fp[32];
        snprintf(fp, sizeof fp, "fp-%02zu", k);
        for (size_t r = 0; r < (k < 5 ? 5u : 1u); r++) {
            char run[32];
            snprintf(run, sizeof run, "r/%02zu-%zu", k, r);
            cr_assert_lt(f.n, 64);
            add(&f, run, "none", CORR_OUTCOME_FAILED, 0, "C.x", fp, NULL);
        }
    }
    struct report_dash_agg a;
    report_dash_aggregate(&a, f.in, f.n, NULL);
    cr_assert_eq(a.nerrors_distinct, kinds);
    cr_assert_eq(a.nerrors, REPORT_DASH_TOP_ERRORS);
    for (size_t k = 0; k < 5; k++) {
        char fp[32];
        snprintf(fp, sizeof fp, "fp-%02zu", k);
        cr_assert_str_eq(a.errors[k].fingerprint, fp);
        cr_assert_eq(a.errors[k].runs, 5);
    }
    for (size_t k = 5; k < a.nerrors; k++) cr_assert_eq(a.errors[k].runs, 1);
    report_dash_agg_free(&a);
    fixture_free(&f);
}

Test(dashboard, facts_round_trip_through_the_cache_encoding)
{
    struct report_dash_facts f, g;
    report_dash_facts_from_mtime(&f, 1767225600); /* 2026-01-01 00:00:00 UTC */
    cr_assert_eq(f.when, REPORT_DASH_WHEN_MTIME);
    cr_assert_eq(f.first_usec, 1767225600LL * 1000000LL);
    f.outcome = CORR_OUTCOME_CUT_OFF;
    f.hosts = calloc(2, sizeof *f.hosts);
    f.hosts[0] = strdup("spark-01");
    f.hosts[1] = strdup("tab\there");
    f.nhosts = 2;
    char *js = report_dash_facts_json(&f);
    cr_assert_null(strchr(js, '\t')); /* the cache separates the row and the facts by a tab */
    cr_assert_null(strchr(js, '\n'));
    cr_assert_eq(report_dash_facts_parse(&g, js, strlen(js)), AZ_OK);
    cr_assert_eq(g.outcome, CORR_OUTCOME_CUT_OFF);
    cr_assert_eq(g.when, REPORT_DASH_WHEN_MTIME);
    cr_assert_eq(g.first_usec, f.first_usec);
    cr_assert_eq(g.nhosts, 2);
    cr_assert_str_eq(g.hosts[1], "tab\there");
    const char *bad[] = {"{}", "[]",
                         "{\"outcome\":\"exploded\",\"when\":\"logs\",\"first_usec\":1,"
                         "\"hosts\":[]}",
                         "{\"outcome\":\"failed\",\"when\":\"logs\",\"first_usec\":\"x\","
                         "\"hosts\":[]}",
                         "not json"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct report_dash_facts h;
        cr_assert_eq(report_dash_facts_parse(&h, bad[i], strlen(bad[i])), AZ_FAIL, "%s", bad[i]);
    }
    free(js);
    report_dash_facts_free(&f);
    report_dash_facts_free(&g);
}

Test(dashboard, report_names_are_safe_stable_and_distinct)
{
    char a[160], b[160], c[160], d[160];
    report_dash_report_name("runs/team a/job-1", 0, a, sizeof a);
    report_dash_report_name("runs/team_a/job-1", 0, b, sizeof b);
    report_dash_report_name("runs/team a/job-1", 0, c, sizeof c);
    cr_assert_str_eq(a, c);
    cr_assert_str_neq(a, b); /* same slug, different paths: the hash tells them apart */
    cr_assert_eq(strncmp(a, "runs_team_a_job-1-", 18), 0, "%s", a);
    cr_assert_eq(strcmp(a + strlen(a) - 5, ".html"), 0);
    for (const char *p = a; *p; p++)
        cr_assert(strchr("abcdefghijklmnopqrstuvwxyz0123456789._-", *p));
    /* redacted: nothing of the path shows */
    report_dash_report_name("/home/alice/runs/job-1", 1, d, sizeof d);
    cr_assert_null(strstr(d, "alice"));
    cr_assert_eq(strncmp(d, "run-", 4), 0);
    report_dash_report_name("../.hidden", 0, d, sizeof d);
    cr_assert_neq(d[0], '.');
}

/* The page for runs f, in a string. */
static char *page_of(struct fixture *f, const struct report_dash_options *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    cr_assert_eq(report_dash_write(mem, f->in, f->n, NULL, o), AZ_OK);
    fclose(mem);
    return buf;
}

Test(dashboard, page_escapes_and_redacts_strings_from_runs)
{
    struct fixture f = {0};
    add(&f, "/home/alice/runs/<script>alert(1)</script>", "none", CORR_OUTCOME_FAILED,
        usec_of(2026, 5, 12, 1), "C.xid", "fp1", NULL);
    set(&f.rows[0].fingerprint_text, "NCCL WARN dgx-07 \x1b[31m 10.1.2.3 \"quoted\" & more");
    f.facts[0].hosts = calloc(1, sizeof *f.facts[0].hosts);
    f.facts[0].hosts[0] = strdup("dgx-07");
    f.facts[0].nhosts = 1;
    struct report_dash_options o = {1, "9.9", NULL};
    char *html = page_of(&f, &o);
    cr_assert_null(strstr(html, "<script"));
    cr_assert_not_null(strstr(html, "&lt;script&gt;"));
    cr_assert_null(strstr(html, "alice"));
    cr_assert_null(strstr(html, "dgx-07"));
    cr_assert_null(strstr(html, "10.1.2.3"));
    cr_assert_null(strchr(html, '\x1b'));
    cr_assert_not_null(strstr(html, "&quot;quoted&quot; &amp; more"));
    cr_assert_not_null(strstr(html, "Content-Security-Policy"));
    free(html);
    /* without redaction the names show, still escaped */
    o.redact = 0;
    html = page_of(&f, &o);
    cr_assert_not_null(strstr(html, "alice"));
    cr_assert_not_null(strstr(html, "dgx-07"));
    cr_assert_null(strstr(html, "<script>alert"));
    free(html);
    fixture_free(&f);
}

Test(dashboard, page_is_deterministic_and_links_reports)
{
    struct fixture f = {0};
    add(&f, "runs/job 1", "G4", CORR_OUTCOME_COMPLETED, usec_of(2026, 5, 12, 1), NULL, NULL, NULL);
    add(&f, "runs/job2", "none", CORR_OUTCOME_FAILED, usec_of(2026, 5, 19, 1), "C.x", "fp", NULL);
    f.in[0].has_report = 1;
    struct report_dash_options o = {0, "9.9", "../my reports"};
    char *a = page_of(&f, &o), *b = page_of(&f, &o);
    cr_assert_str_eq(a, b);
    char name[160], want[256];
    report_dash_report_name("runs/job 1", 0, name, sizeof name);
    snprintf(want, sizeof want, "href=\"../my%%20reports/%s\"", name);
    cr_assert_not_null(strstr(a, want), "%s", want);
    cr_assert_not_null(strstr(a, "id=\"run-2\""));
    /* run 2 has no report: its path is not a link to one */
    report_dash_report_name("runs/job2", 0, name, sizeof name);
    cr_assert_null(strstr(a, name));
    free(a);
    free(b);
    fixture_free(&f);
}

Test(dashboard, run_table_is_capped_at_the_newest_runs)
{
    size_t n = REPORT_DASH_MAX_TABLE_ROWS + 50;
    struct report_batch_row *rows = calloc(n, sizeof *rows);
    struct report_dash_facts *facts = calloc(n, sizeof *facts);
    struct report_dash_input *in = calloc(n, sizeof *in);
    for (size_t i = 0; i < n; i++) {
        char run[32];
        snprintf(run, sizeof run, "runs/%06zu", i);
        report_batch_row_error(&rows[i], run, "x");
        set(&rows[i].error, "");
        set(&rows[i].verdict, "none");
        report_dash_facts_from_mtime(&facts[i], 0);
        facts[i].outcome = CORR_OUTCOME_COMPLETED;
        /* run i at day i: the oldest 50 are the first 50 runs */
        facts[i].when = REPORT_DASH_WHEN_LOGS;
        facts[i].first_usec = (int64_t)i * DAY_US;
        in[i] = (struct report_dash_input){&rows[i], &facts[i], 0};
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    struct report_dash_options o = {0, "9.9", NULL};
    cr_assert_eq(report_dash_write(mem, in, n, NULL, &o), AZ_OK);
    fclose(mem);
    cr_assert_null(strstr(buf, "id=\"run-50\""));
    cr_assert_not_null(strstr(buf, "id=\"run-51\""));
    char last[32];
    snprintf(last, sizeof last, "id=\"run-%zu\"", n);
    cr_assert_not_null(strstr(buf, last));
    /* listed in run order */
    cr_assert_lt(strstr(buf, "id=\"run-51\""), strstr(buf, "id=\"run-52\""));
    cr_assert_not_null(strstr(buf, "The newest 10,000 of 10,050 runs"));
    /* the shares still count every run */
    cr_assert_not_null(strstr(buf, "<b>10,050</b> (100.0 %) healthy"));
    free(buf);
    for (size_t i = 0; i < n; i++) {
        report_batch_row_free(&rows[i]);
        report_dash_facts_free(&facts[i]);
    }
    free(rows);
    free(facts);
    free(in);
}
