/* Tests for the batch rows (report/batch_row.c) and the fingerprints that group recurring failures.
 * Run discovery, -j determinism, the cache and the GNU parallel split are tested end to end in
 * tests/cli/batch_*.sh. */
#include <criterion/criterion.h>
#include <string.h>

#include "report/report.h"

static void fingerprint_of(const char *text, struct az_buf *masked, char hex[17])
{
    report_fingerprint("C.test", text, strlen(text), masked, hex);
}

Test(batch, fingerprint_masks_numbers_paths_and_addresses)
{
    struct az_buf a = AZ_BUF_INIT, b = AZ_BUF_INIT;
    char ha[17], hb[17];
    /* The same kernel OOM kill in two runs: different pids, sizes and uids (dmesg shape from the
     * kernel's oom_kill.c "Out of memory: Killed process %d (%s) total-vm:%lukB ..."). */
    fingerprint_of("Out of memory: Killed process 31337 (pt_data_worker) total-vm:48213044kB, "
                   "anon-rss:40123456kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:80000kB",
                   &a, ha);
    fingerprint_of("Out of memory: Killed process 4242 (pt_data_worker) total-vm:51000000kB, "
                   "anon-rss:39999999kB, file-rss:12kB, shmem-rss:0kB, UID:1001 pgtables:79000kB",
                   &b, hb);
    cr_assert_str_eq(a.data, b.data);
    cr_assert_str_eq(ha, hb);
    cr_assert_not_null(strstr(a.data, "Killed process <n> (pt_data_worker)"));
    az_buf_free(&a);
    az_buf_free(&b);
}

Test(batch, fingerprint_masks_hex_paths_and_ids)
{
    struct az_buf m = AZ_BUF_INIT;
    char h[17];
    fingerprint_of("python3[2211]: segfault at 7f3a2c000000 ip 0x00007f3a2b4d1e2f sp "
                   "0x00007ffd5c1e8a40 error 4 in libcuda.so.1 /home/alice/.venv/lib/x.so "
                   "job 3f2a9c1e-77b0-4c1e-9a51-0e2f7d6b1a44",
                   &m, h);
    cr_assert_null(strstr(m.data, "0x00007f3a2b4d1e2f"));
    cr_assert_null(strstr(m.data, "alice"));
    cr_assert_null(strstr(m.data, "3f2a9c1e"));
    cr_assert_not_null(strstr(m.data, "<hex>"));
    cr_assert_not_null(strstr(m.data, "<path>"));
    cr_assert_not_null(strstr(m.data, "<id>"));
    cr_assert_eq(strlen(h), 16);
    az_buf_free(&m);
}

Test(batch, fingerprint_tells_different_failures_apart)
{
    struct az_buf a = AZ_BUF_INIT, b = AZ_BUF_INIT;
    char ha[17], hb[17];
    fingerprint_of("RuntimeError: CUDA error: an illegal memory access was encountered", &a, ha);
    fingerprint_of("RuntimeError: CUDA error: device-side assert triggered", &b, hb);
    cr_assert_str_neq(ha, hb);
    az_buf_free(&a);
    az_buf_free(&b);
}

Test(batch, fingerprint_drops_the_timestamp_and_keys_on_the_entry)
{
    struct az_buf a = AZ_BUF_INIT, b = AZ_BUF_INIT;
    char ha[17], hb[17], hc[17];
    /* python logging stamps differ run to run; the failure is the same */
    const char *l1 =
        "2026-11-29 10:12:55,123 ERROR RuntimeError: NCCL error: unhandled system error";
    const char *l2 =
        "2026-11-30 03:00:01,999 ERROR RuntimeError: NCCL error: unhandled system error";
    report_fingerprint("C.nccl", l1, strlen(l1), &a, ha);
    report_fingerprint("C.nccl", l2, strlen(l2), &b, hb);
    cr_assert_str_eq(ha, hb);
    cr_assert_eq(strncmp(a.data, "ERROR RuntimeError", 18), 0);
    report_fingerprint("C.python-exception", l1, strlen(l1), &b, hc);
    cr_assert_str_neq(ha, hc);
    az_buf_free(&a);
    az_buf_free(&b);
}

Test(batch, row_json_round_trips)
{
    struct report_batch_row row;
    report_batch_row_error(&row, "runs/job \"7\"", "runs/job 7: No such file or directory");
    char *js = report_batch_row_json(&row);
    cr_assert_not_null(strstr(js, "\"schema\":\"gotcha.batch/1\""));
    cr_assert_null(strchr(js, '\n'));
    struct report_batch_row back;
    cr_assert_eq(report_batch_row_parse(&back, js, strlen(js)), AZ_OK);
    cr_assert_str_eq(back.run, "runs/job \"7\"");
    cr_assert_str_eq(back.error, "runs/job 7: No such file or directory");
    cr_assert_eq(back.nfindings, 0);
    char *again = report_batch_row_json(&back);
    cr_assert_str_eq(js, again);
    free(js);
    free(again);
    report_batch_row_free(&row);
    report_batch_row_free(&back);
}

Test(batch, row_parse_rejects_foreign_json)
{
    struct report_batch_row row;
    const char *bad[] = {"", "{", "[]", "{\"schema\":\"gotcha.report/1\"}",
                         "{\"schema\":\"gotcha.batch/1\",\"run\":\"x\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(report_batch_row_parse(&row, bad[i], strlen(bad[i])), AZ_FAIL, "%s", bad[i]);
}

Test(batch, csv_quotes_fields_with_commas_and_quotes)
{
    struct report_batch_row row;
    report_batch_row_error(&row, "runs/a,b", "say \"no\"");
    struct az_buf out = AZ_BUF_INIT;
    report_batch_row_csv(&out, &row);
    cr_assert_eq(strncmp(out.data, "\"runs/a,b\",", 11), 0);
    cr_assert_not_null(strstr(out.data, "\"say \"\"no\"\"\""));
    /* as many fields as the header names, with and without the duration_ms column */
    size_t commas_header = 0, commas_row = 0;
    for (const char *p = report_batch_csv_header(0); *p; p++) commas_header += *p == ',';
    cr_assert_eq(commas_header, 11);
    cr_assert_null(strstr(report_batch_csv_header(0), "duration_ms"));
    row.timed = 1;
    row.duration_ms = 41;
    az_buf_reset(&out);
    report_batch_row_csv(&out, &row);
    commas_header = 0;
    for (const char *p = report_batch_csv_header(1); *p; p++) commas_header += *p == ',';
    cr_assert_eq(commas_header, 12);
    cr_assert_not_null(strstr(out.data, ",0,0,41,"), "%s", out.data);
    /* the quoted fields hold two commas and no column: count those outside quotes */
    int quoted = 0;
    for (const char *p = out.data; *p; p++) {
        if (*p == '"') quoted = !quoted;
        commas_row += !quoted && *p == ',';
    }
    cr_assert_eq(commas_row, commas_header, "%s", out.data);
    az_buf_free(&out);
    report_batch_row_free(&row);
}

/* duration_ms is wall time: written only when the row is timed (batch --timing), so two scans
 * of the same runs give the same rows; a timed row keeps it through a parse. */
Test(batch, row_json_has_duration_only_when_timed)
{
    struct report_batch_row row, back;
    report_batch_row_error(&row, "runs/job-1", "cannot be read");
    char *js = report_batch_row_json(&row);
    cr_assert_null(strstr(js, "duration_ms"), "%s", js);
    cr_assert_eq(report_batch_row_parse(&back, js, strlen(js)), AZ_OK);
    cr_assert_eq(back.timed, 0);
    report_batch_row_free(&back);
    free(js);
    row.timed = 1;
    row.duration_ms = 1234;
    js = report_batch_row_json(&row);
    cr_assert_not_null(strstr(js, ",\"duration_ms\":1234,"), "%s", js);
    cr_assert_eq(report_batch_row_parse(&back, js, strlen(js)), AZ_OK);
    cr_assert_eq(back.timed, 1);
    cr_assert_eq(back.duration_ms, 1234);
    report_batch_row_free(&back);
    report_batch_row_free(&row);
    free(js);
}

/* The outcome travels with the row (NDJSON "outcome", CSV's second column), null for a run that
 * could not be read; a row without the field (an older cache line) is not a row of this shape. */
Test(batch, row_outcome_round_trips_and_is_required)
{
    struct report_batch_row row, back;
    report_batch_row_error(&row, "runs/job-1", "cannot be read");
    char *js = report_batch_row_json(&row);
    cr_assert_not_null(strstr(js, "\"run\":\"runs/job-1\",\"outcome\":null,"), "%s", js);
    free(js);
    free(row.outcome);
    row.outcome = strdup("failed");
    free(row.fingerprint_text);
    row.fingerprint_text = strdup("KeyError: 'labels'");
    js = report_batch_row_json(&row);
    cr_assert_not_null(strstr(js, "\"outcome\":\"failed\""), "%s", js);
    cr_assert_eq(report_batch_row_parse(&back, js, strlen(js)), AZ_OK);
    cr_assert_str_eq(back.outcome, "failed");
    report_batch_row_free(&back);
    struct az_buf csv = AZ_BUF_INIT;
    report_batch_row_csv(&csv, &row);
    cr_assert_eq(strncmp(csv.data, "runs/job-1,failed,", 18), 0, "%s", csv.data);
    cr_assert_not_null(strstr(csv.data, ",KeyError: 'labels',"), "%s", csv.data);
    az_buf_free(&csv);
    const char *old = "{\"schema\":\"gotcha.batch/1\",\"run\":\"x\",\"verdict\":\"none\","
                      "\"confidence\":0.0,\"first_error\":null,\"findings\":[],\"inputs\":1,"
                      "\"skipped\":0,\"error\":null}";
    cr_assert_eq(report_batch_row_parse(&back, old, strlen(old)), AZ_FAIL);
    free(js);
    report_batch_row_free(&row);
}
