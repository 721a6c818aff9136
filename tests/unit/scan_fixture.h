/* scan_fixture.h - the fixture the unit suites share to scan text with a pack.
 *
 * A suite keeps one temporary directory and one loaded pack in `fx` (each Criterion test runs
 * in its own process, so one global is one test's). The helpers write files under fx.dir, run
 * the whole pipeline (corr_analyze) on them and read the result. Every helper asserts with
 * Criterion, so a failed write or analysis fails the test that asked for it.
 */
#ifndef GOTCHA_TEST_SCAN_FIXTURE_H
#define GOTCHA_TEST_SCAN_FIXTURE_H

#include <stddef.h>

#include "correlate/corr.h"

struct scan_fixture {
    char dir[64];            /* the suite's temporary directory */
    struct match_pack *pack; /* the pack the helpers scan with */
};
extern struct scan_fixture fx;

/* fx.dir made as /tmp/gotcha-<tag>-XXXXXX (no pack loaded). */
void fx_tmpdir(const char *tag);
/* The shipped pack's directory: $GOTCHA_PATTERNS (make unit sets it), else $GOTCHA_TOP/patterns. */
void fx_shipped_dir(char *dir, size_t n);
/* The shipped pack loaded into fx.pack (the one there before freed). */
void fx_load_shipped(void);
/* fx.dir made (/tmp/gotcha-unit-XXXXXX) and the shipped pack loaded into fx.pack: a suite's .init.
 */
void fx_setup_shipped(void);
/* fx.pack freed and fx.dir removed: a suite's .fini. */
void fx_teardown(void);
void fx_remove_tree(const char *dir);

/* Write text as fx.dir/sub/name (sub made if missing; NULL or "" writes into fx.dir). */
void fx_write(const char *sub, const char *name, const char *text);

/* Analyze paths with cfg (NULL: the pack's defaults). Caller frees with corr_result_free. */
struct corr_result *fx_analyze(const struct corr_config *cfg, const char *const *paths, size_t n);
/* Analyze the directory fx.dir/sub. */
struct corr_result *fx_analyze_dir(const char *sub);
/* Write text as fx.dir/sub/name, analyze fx.dir/sub, and assert that a record was read: a
 * negative result must come from input the scan saw. */
struct corr_result *fx_scan_one(const char *sub, const char *name, const char *text);

/* The verdict's entry id, "none" without one; asserts that the run read a record. */
const char *fx_verdict(const struct corr_result *r);
/* The finding of entry id (NULL when the entry found nothing), and its confidence (0). */
const struct corr_finding *fx_finding(const struct corr_result *r, const char *id);
double fx_conf(const struct corr_result *r, const char *id);
/* 1 when a finding of entry id (of any entry when id is NULL) holds a line of signature sig
 * among its evidence: that signature read the line. */
int fx_cites(const struct corr_result *r, const char *id, const char *sig);

#endif
