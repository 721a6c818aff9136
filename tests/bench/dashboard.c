/* tests/bench/dashboard.c - the batch dashboard at scale (make bench-dashboard, dashboard.sh).
 *
 * Usage: dashboard PACK_DIR RUNS OUT.html
 *
 * Generates RUNS synthetic batch rows and their dashboard facts, the shape cli/batch.c hands to
 * report_dash_write() (rows as report_batch_row_from_result() fills them; not RUNS scans), and
 * times report_dash_write() alone: the aggregation and the page. Prints "runs N bytes B ms T".
 *
 * The rows are deterministic (a fixed LCG) and made to be costly, not kind: two years of runs
 * with 3 % untimed and 5 % on file time; verdicts and first-error ids from the pack's own entries
 * (no id is spelled here); about 20,000 distinct first errors whose texts follow real formats
 * (the corpus' OOM, Xid, undefined symbol, KeyError and NCCL lines, masked as fingerprints are);
 * paths of 60-90 bytes, one in 50 of 300 with '&', '<', quotes and UTF-8 that escape longer; host
 * names to redact (redaction on, as the CLI's default); 1 % of runs unreadable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "match/match.h"
#include "report/report.h"

static uint64_t lcg_state = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(uint32_t n)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(lcg_state >> 33) % n;
}

static void set(char **field, char *value)
{
    free(*field);
    *field = value;
}

static const char *const error_shapes[] = {
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate <n> MiB. GPU <n> has a total "
    "capacity of <n> GiB of which <n> MiB is free. Including non-PyTorch memory, this process "
    "has <n> GiB memory in use. In stage",
    "NVRM: Xid (PCI:<n>:<n>:<n>): <n>, pid=<n>, name=python3, GPU has fallen off the bus. In",
    "ImportError: <path> undefined symbol: cudaGetDriverEntryPointByVersion, version "
    "libcudart.so.<n> from",
    "KeyError: 'labels' in",
    "RuntimeError: NCCL error in: <path>, unhandled system error (run with NCCL_DEBUG=INFO for "
    "details), NCCL version <n> & \"peer\" <lost> at",
};

/* A word for variant v (letters only: fingerprints mask digits), "qbz". */
static void variant_word(uint32_t v, char out[8])
{
    size_t k = 0;
    do {
        out[k++] = (char)('a' + v % 26);
        v /= 26;
    } while (v && k < 7);
    out[k] = '\0';
}

struct ids {
    const char **v;
    size_t n;
};

static void ids_of(const struct match_pack *pack, enum match_family fam, struct ids *out)
{
    out->v = calloc(match_pack_entry_count(pack) + 1, sizeof *out->v);
    out->n = 0;
    for (size_t i = 0; i < match_pack_entry_count(pack); i++)
        if (match_pack_entry(pack, i)->family == fam)
            out->v[out->n++] = match_pack_entry(pack, i)->id;
}

static void make_run(size_t i, const struct ids *gotchas, const struct ids *common,
                     struct report_batch_row *row, struct report_dash_facts *f)
{
    const int64_t start = az_usec_from_civil(2024, 6, 3, 8, 0, 0, 0);
    const int64_t span = 104LL * 7 * 86400 * 1000000LL;
    char *run =
        rnd(300) == 0
            ? az_xasprintf("/shared/runs/team-%02u/\"odd\" & <dir> caf\xc3\xa9 '%zu'/job-%06zu",
                           rnd(40), i, i)
            : az_xasprintf("/shared/runs/team-%02u/2025-%02u/job-%06zu-%08x", rnd(40), 1 + rnd(12),
                           i, rnd(0x7fffffff));
    report_batch_row_error(row, run, "x");
    free(run);
    report_dash_facts_from_mtime(f, 0);
    f->nhosts = 1 + rnd(2);
    f->hosts = az_xcalloc(f->nhosts, sizeof *f->hosts);
    for (size_t h = 0; h < f->nhosts; h++) f->hosts[h] = az_xasprintf("spark-%03u", rnd(500));
    uint32_t t = rnd(100);
    if (t >= 3) {
        f->when = t < 8 ? REPORT_DASH_WHEN_MTIME : REPORT_DASH_WHEN_LOGS;
        f->first_usec = start + (int64_t)(((uint64_t)rnd(1u << 30) << 20) % (uint64_t)span);
    }
    if (rnd(100) == 0) {
        set(&row->error, az_xstrdup("no readable input: binary file"));
        return;
    }
    set(&row->error, az_xstrdup(""));
    uint32_t v = rnd(100);
    int gotcha = v < 45 && gotchas->n;
    set(&row->verdict, az_xstrdup(gotcha ? gotchas->v[rnd((uint32_t)gotchas->n)] : "none"));
    row->confidence = gotcha ? 0.35 + rnd(65) / 100.0 : rnd(35) / 100.0;
    f->outcome = v < 80   ? CORR_OUTCOME_FAILED
                 : v < 95 ? CORR_OUTCOME_COMPLETED
                          : CORR_OUTCOME_CUT_OFF;
    if (f->outcome == CORR_OUTCOME_COMPLETED && rnd(2)) return; /* no error at all */
    uint32_t shape = rnd(AZ_ARRAY_LEN(error_shapes)), variant = rnd(400);
    const char *id = gotcha ? row->verdict : common->n ? common->v[shape % common->n] : "?";
    set(&row->first_error, az_xstrdup(id));
    set(&row->first_error_at,
        az_xasprintf("/shared/runs/team-07/2025-03/job-%06zu/rank%u/stderr.log:%u", i, rnd(8),
                     1 + rnd(90000)));
    char word[8];
    variant_word(variant, word);
    set(&row->fingerprint_text, az_xasprintf("%s %s()", error_shapes[shape], word));
    char hex[17];
    struct az_buf masked = AZ_BUF_INIT;
    report_fingerprint(id, row->fingerprint_text, strlen(row->fingerprint_text), &masked, hex);
    az_buf_free(&masked);
    set(&row->fingerprint, az_xstrdup(hex));
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s PACK_DIR RUNS OUT.html\n", argv[0]);
        return 2;
    }
    const char *dirs[1] = {argv[1]};
    struct match_pack *pack = NULL;
    struct az_buf err = AZ_BUF_INIT;
    if (match_pack_load(&pack, dirs, 1, &err) != AZ_OK) {
        fprintf(stderr, "%s", err.data ? err.data : "cannot load the pack\n");
        return 2;
    }
    size_t n = strtoul(argv[2], NULL, 10);
    struct ids gotchas, common;
    ids_of(pack, MATCH_FAMILY_GOTCHA, &gotchas);
    ids_of(pack, MATCH_FAMILY_COMMON, &common);
    struct report_batch_row *rows = az_xcalloc(n ? n : 1, sizeof *rows);
    struct report_dash_facts *facts = az_xcalloc(n ? n : 1, sizeof *facts);
    struct report_dash_input *in = az_xcalloc(n ? n : 1, sizeof *in);
    for (size_t i = 0; i < n; i++) {
        make_run(i, &gotchas, &common, &rows[i], &facts[i]);
        in[i] = (struct report_dash_input){&rows[i], &facts[i], 1};
    }
    FILE *out = fopen(argv[3], "w");
    if (!out) {
        perror(argv[3]);
        return 2;
    }
    struct report_dash_options o = {1, NULL, "reports"};
    double t0 = now_ms();
    enum az_status st = report_dash_write(out, in, n, pack, &o);
    double ms = now_ms() - t0;
    long bytes = ftell(out);
    if (fclose(out) != 0 || st != AZ_OK) {
        fprintf(stderr, "writing %s failed\n", argv[3]);
        return 2;
    }
    printf("runs %zu bytes %ld ms %.0f\n", n, bytes, ms);
    for (size_t i = 0; i < n; i++) {
        report_batch_row_free(&rows[i]);
        report_dash_facts_free(&facts[i]);
    }
    free(rows);
    free(facts);
    free(in);
    free(gotchas.v);
    free(common.v);
    az_buf_free(&err);
    match_pack_free(pack);
    return 0;
}
