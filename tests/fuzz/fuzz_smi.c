/*
 * tests/fuzz/fuzz_smi.c - the structural series parsers (correlate/series.c): the nvidia-smi
 * default table, `-q` text, `--query-gpu --format=csv` rows and headers, `dmon`, and `free` /
 * /proc/meminfo, with the kind forced so every parser sees every input. Records are stamped as
 * the scan stamps them (corr_stamp_record(), nvidia-smi's ctime stamps included), then the state
 * is finished into a result, so the series are placed, downsampled and run through the detectors.
 * Input: one byte choosing the kind, then the member's bytes, split into records at LF (a CR
 * before it dropped) as the reader does.
 */
#include <string.h>

#include "correlate/corr_private.h"
#include "fuzz.h"

static const enum tok_kind kinds[] = {TOK_KIND_SMI,      TOK_KIND_SMI_Q,   TOK_KIND_SMI_CSV,
                                      TOK_KIND_SMI_DMON, TOK_KIND_MEMINFO, TOK_KIND_TEXT,
                                      TOK_KIND_TRAIN,    TOK_KIND_SMI_XML};

/* What the scan does with a record's own time (scan.c's clock_update(), ABS and NOYEAR). */
static void clock_seen(struct corr_file *f, struct az_time t)
{
    if (f->first_time.kind == AZ_TIME_NONE) f->first_time = t;
    if (t.kind == AZ_TIME_ABS) {
        if (!f->has_abs || t.usec < f->abs_min) f->abs_min = t.usec;
        if (!f->has_abs || t.usec > f->abs_max) f->abs_max = t.usec;
        f->has_abs = 1;
    } else if (t.kind == AZ_TIME_NOYEAR) {
        if (!f->has_noyear || t.usec < f->noyear_min) f->noyear_min = t.usec;
        if (!f->has_noyear || t.usec > f->noyear_max) f->noyear_max = t.usec;
        f->has_noyear = 1;
    }
    f->last_time = t;
}

FUZZ_TARGET(smi)
{
    if (size < 1) return 0;
    enum tok_kind kind = kinds[data[0] % AZ_ARRAY_LEN(kinds)];
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    struct corr_config cfg;
    corr_config_default(&cfg, fuzz_shipped_pack());
    struct corr_state *st = corr_state_new(&cfg);
    struct ingest_member m = {"nvidia-smi.log", "nvidia-smi.log", "none", "none", p,
                              (size_t)(end - p)};
    size_t fi = corr_file_begin(st, &m, kind);
    uint64_t lineno = 1;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len && p[len - 1] == '\r') len--;
        struct corr_stamp s;
        char lane[CORR_LANE_MAX];
        corr_stamp_record(kind, p, len, &s, lane);
        fuzz_require(s.tend <= len);
        struct corr_file *f = &st->files[fi];
        int own = s.t.kind != AZ_TIME_NONE;
        if (own) clock_seen(f, s.t);
        corr_series_record(st, fi, p, len, lineno, own ? s.t : f->last_time, own);
        st->files[fi].records++;
        st->files[fi].last_line = lineno++;
        p = nl ? nl + 1 : end;
    }
    st->records = st->files[fi].records;
    struct corr_result *r = corr_state_finish(st);
    for (size_t i = 0; i < r->nseries; i++) {
        const struct corr_series *sr = &r->series[i];
        fuzz_require(sr->npoints <= CORR_SERIES_MAX);
        for (size_t k = 1; k < sr->npoints; k++)
            fuzz_require(!(sr->points[k - 1].t > sr->points[k].t));
    }
    corr_result_free(r);
    corr_state_free(st);
    return 0;
}
