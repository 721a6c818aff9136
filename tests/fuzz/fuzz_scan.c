/*
 * tests/fuzz/fuzz_scan.c - a whole scan of arbitrary bytes, written in every report format.
 *
 * Input: the files of one run, back to back. "\0@@" followed by one byte starts a new file; the
 * byte picks its name from names[] below (a classification hint); bytes before the first marker
 * are a file named run.log. Each file is written to disk and the run goes through
 * corr_analyze() (walk, ingest, tokenize, match, correlate) and report_write() in text, json,
 * md, html and preflight, with and without redaction. Promises checked: the JSON parses, the
 * text report (no colour) holds no control byte but LF and TAB, every report is valid UTF-8,
 * and, for inputs whose size is a multiple of 4, a scan on one thread and on three gives the
 * same bytes (corr.h: the result is the same for any number of threads).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr.h"
#include "fuzz.h"
#include "report/report.h"

#define FUZZ_FILES_MAX    8
#define FUZZ_MARK         "\0@@"
#define FUZZ_MARK_LEN     3
#define FUZZ_EXPAND_FLOOR ((uint64_t)1 << 20) /* small bomb cap: a run stays fast */
#define FUZZ_THREADS      3                   /* a scan thread and two matching workers */

static const char *const names[] = {
    "train.log",        "stderr.log",      "dmesg.log",        "nvidia-smi.txt",
    "nvidia-smi-q.txt", "nvidia-smi.csv",  "dmon.log",         "pip-install.log",
    "pip-freeze.txt",   "collect_env.txt", "meminfo.txt",      "vllm.log",
    "rank1.log",        "preflight.txt",   "journalctl-k.log", "logs.tar.gz",
};

static const uint8_t *find_mark(const uint8_t *p, const uint8_t *end)
{
    while (p + FUZZ_MARK_LEN <= end) {
        const uint8_t *z = memchr(p, 0, (size_t)(end - p));
        if (!z || z + FUZZ_MARK_LEN > end) return NULL;
        if (!memcmp(z, FUZZ_MARK, FUZZ_MARK_LEN)) return z;
        p = z + 1;
    }
    return NULL;
}

/* Valid UTF-8 (no overlongs, no surrogates, at most U+10FFFF). */
static int utf8_valid(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t len = c < 0x80                 ? 1
                     : c >= 0xC2 && c <= 0xDF ? 2
                     : c >= 0xE0 && c <= 0xEF ? 3
                     : c >= 0xF0 && c <= 0xF4 ? 4
                                              : 0;
        if (!len || i + len > n) return 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
        for (size_t k = 1; k < len; k++)
            if (s[i + k] < (k == 1 ? lo : 0x80) || s[i + k] > (k == 1 ? hi : 0xBF)) return 0;
        i += len;
    }
    return 1;
}

struct out {
    char *buf;
    size_t len;
};

static struct out write_report(const struct corr_result *r, enum report_format f, int redact,
                               int verbose)
{
    struct out o = {NULL, 0};
    FILE *fp = open_memstream(&o.buf, &o.len);
    fuzz_require(fp != NULL);
    struct report_options ro = {0, redact, verbose, "0.0.0-fuzz", NULL};
    fuzz_require(report_write(fp, f, r, fuzz_shipped_pack(), &ro) == AZ_OK);
    fuzz_require(fclose(fp) == 0);
    fuzz_require(utf8_valid((const unsigned char *)o.buf, o.len));
    return o;
}

static struct corr_result *scan(const char *const *paths, size_t n, unsigned threads)
{
    struct corr_config cfg;
    corr_config_default(&cfg, fuzz_shipped_pack());
    cfg.ingest.expand_floor = FUZZ_EXPAND_FLOOR;
    cfg.threads = threads;
    struct match_scanner *sc = match_scanner_new(fuzz_shipped_pack());
    struct corr_result *r = NULL;
    fuzz_require(corr_analyze(&cfg, sc, paths, n, &r) == AZ_OK && r);
    match_scanner_free(sc);
    return r;
}

FUZZ_TARGET(scan)
{
    char *paths[FUZZ_FILES_MAX];
    size_t n = 0;
    const uint8_t *p = data, *end = data + size;
    while (n < FUZZ_FILES_MAX) {
        const uint8_t *m = find_mark(p, end);
        const uint8_t *stop = m ? m : end;
        const char *name = "run.log";
        if (p != data) { /* p is just past a marker: its first byte names the file */
            name = p < end ? names[*p % AZ_ARRAY_LEN(names)] : names[0];
            if (p < end) p++;
        }
        if (p != data || stop > p) {
            char rel[64];
            snprintf(rel, sizeof rel, "scan%zu/%s", n, name);
            paths[n++] = az_xstrdup(fuzz_write_file(rel, p, (size_t)(stop - p)));
        }
        if (!m) break;
        p = m + FUZZ_MARK_LEN;
    }
    if (!n) return 0;

    struct corr_result *r1 = scan((const char *const *)paths, n, 1);
    /* the threaded scan costs as much again (threads, batches): checked on a quarter of inputs */
    struct corr_result *r3 = size % 4 == 0 ? scan((const char *const *)paths, n, FUZZ_THREADS) : r1;
    for (int f = 0; f < REPORT_FORMAT_COUNT; f++) {
        for (int redact = 0; redact <= 1; redact++) {
            struct out a = write_report(r1, (enum report_format)f, redact, 0);
            if (r3 != r1) {
                struct out b = write_report(r3, (enum report_format)f, redact, 0);
                fuzz_require(a.len == b.len && !memcmp(a.buf, b.buf, a.len));
                free(b.buf);
            }
            if (f == REPORT_JSON) {
                json_error_t jerr;
                json_t *j = json_loadb(a.buf, a.len, 0, &jerr);
                fuzz_require(j != NULL);
                json_decref(j);
            }
            if (f == REPORT_TEXT)
                for (size_t i = 0; i < a.len; i++) {
                    unsigned char c = (unsigned char)a.buf[i];
                    fuzz_require(c >= 0x20 || c == '\n' || c == '\t');
                    fuzz_require(c != 0x7f);
                }
            free(a.buf);
        }
    }
    struct out v = write_report(r1, REPORT_TEXT, 0, 1);
    free(v.buf);
    v = write_report(r1, REPORT_JSON, 1, 1);
    free(v.buf);
    if (r3 != r1) corr_result_free(r3);
    corr_result_free(r1);
    for (size_t i = 0; i < n; i++) free(paths[i]);
    return 0;
}
