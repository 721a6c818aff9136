/*
 * tests/fuzz/fuzz_time.c - the tokenizer over one record: timestamps in every kind's fast path,
 * levels, lanes from records and from paths, numbers, and the time formatting the reports use.
 * The input is one record (any bytes, NULs included); its C-string copy (up to the first NUL)
 * feeds the functions that take one.
 */
#include <stdlib.h>
#include <string.h>

#include "common/az.h"
#include "correlate/corr_private.h"
#include "fuzz.h"
#include "tokenize/tok.h"

/* tok.h: lanes are written into a buffer of at least this many bytes. */
#define LANE_OUT 64

static void check_lane(size_t n, const char *out)
{
    fuzz_require(n < LANE_OUT);
    fuzz_require(strlen(out) == n);
}

static void check_time(struct az_time t)
{
    char buf[32];
    az_time_format(t, 1, buf, sizeof buf);
    fuzz_require(strlen(buf) < sizeof buf);
    az_time_format(t, 0, buf, sizeof buf);
    char clock[16];
    if (t.kind == AZ_TIME_ABS) az_time_format_clock(t, clock, sizeof clock);
    if (t.kind == AZ_TIME_NOYEAR) check_time(az_time_set_year(t, 2026));
}

FUZZ_TARGET(time)
{
    const char *p = (const char *)data;
    for (int k = 0; k < TOK_KIND_COUNT; k++) {
        size_t end = (size_t)-1;
        struct az_time t = tok_parse_time((enum tok_kind)k, p, size, &end);
        fuzz_require(end <= size);
        fuzz_require(t.kind != AZ_TIME_NONE || end == 0);
        check_time(t);
        char lane[LANE_OUT];
        check_lane(tok_parse_lane((enum tok_kind)k, p, size, lane, sizeof lane), lane);
    }
    enum tok_level lv = tok_parse_level(p, size);
    fuzz_require(lv >= TOK_LEVEL_NONE && lv <= TOK_LEVEL_FATAL);
    double d;
    (void)tok_parse_double(p, size, &d);
    /* ctime ("Sat Nov 29 10:12:55 2026") is one of tok_parse_time()'s shapes, fuzzed above */

    char *s = az_xstrndup(p, size); /* up to the first NUL */
    char lane[LANE_OUT];
    check_lane(tok_lane_from_path(s, lane, sizeof lane), lane);
    uint64_t sz;
    (void)az_parse_size(s, &sz);
    (void)tok_kind_from_name(s);
    free(s);
    return 0;
}
