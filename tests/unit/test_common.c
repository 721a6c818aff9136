/* Tests for common/: buffers, time arithmetic and formatting, size parsing, string helpers. */
#include <criterion/criterion.h>
#include <string.h>

#include "common/az.h"

Test(common, buf_grows_and_stays_nul_terminated)
{
    struct az_buf b = AZ_BUF_INIT;
    for (int i = 0; i < 1000; i++) az_buf_puts(&b, "abc");
    cr_assert_eq(b.len, 3000);
    cr_assert_eq(b.data[3000], '\0');
    cr_assert_eq(strncmp(b.data + 2997, "abc", 3), 0);
    az_buf_free(&b);
    cr_assert_null(b.data);
}

Test(common, buf_printf_formats_long_output)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_printf(&b, "%s-%d", "x", 7);
    char big[300];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    az_buf_printf(&b, "[%s]", big);
    cr_assert_eq(b.len, 3 + 2 + 299);
    cr_assert_eq(strncmp(b.data, "x-7[qqq", 7), 0);
    cr_assert_eq(b.data[b.len - 1], ']');
    az_buf_free(&b);
}

Test(common, buf_steal_hands_over_and_empties)
{
    struct az_buf b = AZ_BUF_INIT;
    char *empty = az_buf_steal(&b);
    cr_assert_str_eq(empty, "");
    free(empty);
    az_buf_puts(&b, "hello");
    char *s = az_buf_steal(&b);
    cr_assert_str_eq(s, "hello");
    cr_assert_eq(b.len, 0);
    cr_assert_null(b.data);
    free(s);
}

Test(common, civil_round_trips_across_leap_days_and_centuries)
{
    static const int dates[][3] = {{1970, 1, 1}, {2000, 2, 29},  {2026, 11, 29},
                                   {2100, 3, 1}, {1969, 12, 31}, {2024, 12, 31}};
    for (size_t i = 0; i < AZ_ARRAY_LEN(dates); i++) {
        int64_t days =
            az_days_from_civil(dates[i][0], (unsigned)dates[i][1], (unsigned)dates[i][2]);
        int64_t y;
        unsigned m, d;
        az_civil_from_days(days, &y, &m, &d);
        cr_assert_eq(y, dates[i][0]);
        cr_assert_eq(m, (unsigned)dates[i][1]);
        cr_assert_eq(d, (unsigned)dates[i][2]);
    }
    cr_assert_eq(az_days_from_civil(1970, 1, 1), 0);
    /* 2026-11-29 is day 20,786 of the Unix epoch (date -d 2026-11-29 +%s / 86400). */
    cr_assert_eq(az_days_from_civil(2026, 11, 29), 20786);
}

Test(common, time_format_abs_with_and_without_ms)
{
    struct az_time t = {az_usec_from_civil(2026, 11, 29, 10, 12, 55, 123456), AZ_TIME_ABS};
    char out[40];
    cr_assert_str_eq(az_time_format(t, 0, out, sizeof out), "2026-11-29 10:12:55");
    cr_assert_str_eq(az_time_format(t, 1, out, sizeof out), "2026-11-29 10:12:55.123");
    cr_assert_str_eq(az_time_format_clock(t, out, sizeof out), "10:12:55");
}

Test(common, noyear_time_moves_into_the_run_year)
{
    /* syslog "Nov 29 10:12:55" is stored as if in 2000. */
    struct az_time t = {az_usec_from_civil(2000, 11, 29, 10, 12, 55, 0), AZ_TIME_NOYEAR};
    char out[40];
    cr_assert_str_eq(az_time_format(t, 0, out, sizeof out), "11-29 10:12:55");
    struct az_time placed = az_time_set_year(t, 2026);
    cr_assert_eq(placed.kind, AZ_TIME_ABS);
    cr_assert_str_eq(az_time_format(placed, 0, out, sizeof out), "2026-11-29 10:12:55");
    cr_assert_eq(az_time_year(placed), 2026);
}

Test(common, boot_and_none_times_format_distinctly)
{
    struct az_time boot = {INT64_C(12345678901), AZ_TIME_BOOT};
    struct az_time none = {0, AZ_TIME_NONE};
    char out[40];
    cr_assert_str_eq(az_time_format(boot, 0, out, sizeof out), "+12345.678901s");
    cr_assert_str_eq(az_time_format(none, 0, out, sizeof out), "");
}

Test(common, parse_size_accepts_binary_units_and_rejects_garbage)
{
    uint64_t v = 0;
    cr_assert_eq(az_parse_size("64", &v), 0);
    cr_assert_eq(v, 64);
    cr_assert_eq(az_parse_size("64K", &v), 0);
    cr_assert_eq(v, 65536);
    cr_assert_eq(az_parse_size("1GiB", &v), 0);
    cr_assert_eq(v, UINT64_C(1) << 30);
    cr_assert_eq(az_parse_size("2m", &v), 0);
    cr_assert_eq(v, UINT64_C(2) << 20);
    cr_assert_eq(az_parse_size("-1", &v), -1);
    cr_assert_eq(az_parse_size("12X", &v), -1);
    cr_assert_eq(az_parse_size("", &v), -1);
    cr_assert_eq(az_parse_size("99999999999999999999T", &v), -1);
    /* fits in 64 bits as a number, overflows once scaled: 2^24 TiB is 2^64 bytes */
    cr_assert_eq(az_parse_size("16777216T", &v), -1);
    cr_assert_eq(az_parse_size("16777215T", &v), 0);
    cr_assert_eq(v, UINT64_C(16777215) << 40);
}

Test(common, memcasemem_finds_ascii_case_insensitively)
{
    const char *s = "RuntimeError: CUDA Out Of Memory";
    const char *hit = az_memcasemem(s, strlen(s), "out of memory", 13);
    cr_assert_not_null(hit);
    cr_assert_eq(hit - s, 19);
    cr_assert_null(az_memcasemem(s, strlen(s), "memory!", 7));
    cr_assert_null(az_memcasemem("ab", 2, "abc", 3));
}

Test(common, grow_doubles_capacity_and_keeps_items)
{
    int *items = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < 100; i++) {
        az_grow((void **)&items, &cap, i + 1, sizeof *items);
        items[i] = (int)i;
    }
    cr_assert_geq(cap, 100);
    cr_assert_eq(items[99], 99);
    cr_assert_eq(items[0], 0);
    free(items);
}
