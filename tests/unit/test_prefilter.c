/*
 * tests/unit/test_prefilter.c - the literal prefilter's key windows and its probe counts
 * (match_probe_stats, `gotcha scan --probe-stats`).
 *
 * Each literal of the searcher is keyed by one 4-byte window of its own (the rarest, match/
 * match_search.c), so an occurrence is found by probing key_off bytes into it. These tests plant
 * every literal of the shipped pack at the first byte of a record, at its last bytes and in the
 * middle, with its letters' case flipped, and require the searcher to report a literal there:
 * a window chosen past the start must still find a literal that opens the record, and one at the
 * end must still find a literal that closes it. The filler byte '~' is in no literal (checked).
 * The training-log lines are genlog.c's shapes (tests/bench/genlog.c: vLLM's metrics logger,
 * NCCL INFO with NCCL_DEBUG=INFO).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/match.h"
#include "match/match_private.h"

static const char *patterns_dir(char *buf, size_t n)
{
    const char *env = getenv("GOTCHA_PATTERNS");
    if (env && *env) return env;
    const char *top = getenv("GOTCHA_TOP");
    snprintf(buf, n, "%s/patterns", top && *top ? top : ".");
    return buf;
}

static struct match_pack *load_pack(void)
{
    char buf[512];
    const char *dirs[] = {patterns_dir(buf, sizeof buf)};
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(match_pack_load(&p, dirs, 1, &err), AZ_OK, "%s", err.data ? err.data : "");
    az_buf_free(&err);
    return p;
}

static void no_hit(void *ctx, const struct match_hit *h)
{
    (void)h;
    ++*(size_t *)ctx;
}

/* The literal hits the scanner's prefilter reports for one record. */
static uint64_t literal_hits(struct match_scanner *sc, const char *line, size_t len)
{
    struct match_probe_stats before = {0}, after = {0};
    match_scanner_probe_stats(sc, &before);
    size_t n = 0;
    match_scanner_scan(sc, TOK_KIND_TRAIN, line, len, no_hit, &n);
    match_scanner_probe_stats(sc, &after);
    cr_assert_eq(after.records, before.records + (len >= 3), "the record was not searched");
    return after.lit_hits - before.lit_hits;
}

Test(prefilter, every_literal_found_at_start_middle_and_end)
{
    struct match_pack *p = load_pack();
    struct match_scanner *sc = match_scanner_new(p);
    char filler[64];
    memset(filler, '~', sizeof filler);
    cr_assert_eq(literal_hits(sc, filler, sizeof filler), 0, "the filler holds a literal");
    size_t checked = 0;
    for (size_t i = 0; i < match_pack_sig_count(p); i++) {
        size_t nl;
        const char *const *lits = match_sig_literals(match_pack_sig(p, i), &nl);
        for (size_t k = 0; k < nl; k++) {
            size_t ll = strlen(lits[k]);
            cr_assert(!memchr(lits[k], '~', ll), "literal '%s' holds the filler byte", lits[k]);
            char line[512];
            if (ll + 2 * 7 > sizeof line) continue;
            for (int where = 0; where < 3; where++) {
                size_t pre = where == 0 ? 0 : 7, post = where == 2 ? 0 : 7;
                memcpy(line, filler, pre);
                for (size_t c = 0; c < ll; c++) { /* upper-case every other letter */
                    char ch = lits[k][c];
                    line[pre + c] = (char)(c % 2 && ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
                }
                memcpy(line + pre + ll, filler, post);
                size_t len = pre + ll + post;
                cr_assert_geq(literal_hits(sc, line, len), 1, "literal '%s' missed in '%.*s'",
                              lits[k], (int)len, line);
                checked++;
            }
        }
    }
    cr_expect_gt(checked, 300, "only %zu placements checked: is the shipped pack loaded?", checked);
    match_scanner_free(sc);
    match_pack_free(p);
}

/* The counts add up over a real training-log mix: a probe hit that verified nothing is a false
 * one, and a record with a literal hit has at least one probe hit or ends in a 3-byte literal. */
Test(prefilter, probe_stats_add_up)
{
    static const char *const lines[] = {
        "INFO 11-29 10:00:05 [metrics.py:455] Avg prompt throughput: 812.3 tokens/s, Avg "
        "generation throughput: 41.2 tokens/s, Running: 3 reqs, Swapped: 0 reqs, Pending: 1 reqs, "
        "GPU KV cache usage: 12.5%, CPU KV cache usage: 0.0%.",
        "spark-01:4021:4388 [1] NCCL INFO Channel 03/0 : 0[0] -> 1[1] via P2P/IPC/read",
        "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
    };
    struct match_pack *p = load_pack();
    struct match_scanner *sc = match_scanner_new(p);
    uint64_t hits[3];
    for (size_t i = 0; i < 3; i++) hits[i] = literal_hits(sc, lines[i], strlen(lines[i]));
    struct match_probe_stats ps = {0};
    match_scanner_probe_stats(sc, &ps);
    cr_expect_eq(ps.records, 3);
    cr_expect_eq(ps.bytes, strlen(lines[0]) + strlen(lines[1]) + strlen(lines[2]));
    cr_expect_gt(hits[0], 0, "the vLLM metrics line holds the throughput literals");
    cr_expect_gt(hits[1], 0, "the NCCL INFO line holds 'nccl info'");
    cr_expect_eq(hits[2], 0);
    cr_expect_eq(ps.lit_records, 2);
    cr_expect_eq(ps.lit_hits, hits[0] + hits[1]);
    cr_expect_leq(ps.false_probes, ps.probe_hits);
    cr_expect_geq(ps.probe_hits - ps.false_probes, 2, "each literal record had a true probe");
    cr_expect_geq(ps.regex_runs, ps.regex_hits);
    match_scanner_free(sc);
    match_pack_free(p);
}

/* Which literal match_searcher_run() reported: the test watches one. */
struct watch {
    const struct match_lit *lit;
    size_t seen;
};

static void watch_lit(void *ctx, const struct match_lit *l)
{
    struct watch *w = ctx;
    w->seen += l == w->lit;
}

/* A probe hit first compares a key's copy of its literal's head with every byte | 0x20
 * (match_key.head), then lit_at() decides. The | 0x20 copy also matches a non-letter's alias
 * ('[' and '{', '_' and DEL, '@' and '`'), so each literal is planted once as it is (found, also
 * closing a record with less than 8 bytes left) and once with such a byte swapped for its alias
 * (never reported). The pack's literals hold '_' and '[' ("grad_norm", "[rank"). */
Test(prefilter, head_check_never_decides_alone)
{
    struct match_pack *p = load_pack();
    const struct match_searcher *w = &p->search;
    size_t aliased = 0;
    for (size_t i = 0; i < w->nlits; i++) {
        const struct match_lit *l = &w->lits[i];
        char line[512];
        if (l->len + 6 > sizeof line) continue;
        for (int at_end = 0; at_end < 2; at_end++) {
            size_t len = 3 + l->len + (at_end ? 0 : 3);
            memset(line, '~', len);
            memcpy(line + 3, l->s, l->len);
            struct watch wt = {l, 0};
            match_searcher_run(w, (const uint8_t *)line, len, watch_lit, &wt);
            cr_assert_geq(wt.seen, 1, "literal '%.*s' missed", (int)l->len, (const char *)l->s);
        }
        for (uint32_t b = 0; b < l->len; b++) {
            uint8_t c = l->s[b];
            if ((c | 0x20) == c || (c >= 'a' && c <= 'z')) continue; /* no alias */
            memset(line, '~', l->len + 6);
            memcpy(line + 3, l->s, l->len);
            line[3 + b] = (char)(c | 0x20);
            struct watch wt = {l, 0};
            match_searcher_run(w, (const uint8_t *)line, l->len + 6, watch_lit, &wt);
            cr_assert_eq(wt.seen, 0, "literal '%.*s' reported for its alias '%.*s'", (int)l->len,
                         (const char *)l->s, (int)l->len, line + 3);
            aliased++;
        }
    }
    cr_expect_gt(aliased, 10, "only %zu aliased bytes: is the shipped pack loaded?", aliased);
    match_pack_free(p);
}

/* The signatures whose regex matched a record (match_scanner_scan()'s hits), by pack index. */
static void mark_hit(void *ctx, const struct match_hit *h)
{
    ((unsigned char *)ctx)[h->sig->index] = 1;
}

/*
 * The lines a healthy training log is made of, one of each, must not make a signature outside
 * the series family a candidate unless its regex matches them: such a signature's literal is
 * then a factor common to every line of its kind, and its regex runs (and misses) on each of
 * millions of lines. Series signatures are meant to read these lines (sampled). The lines:
 * python logging's format of HF's example scripts ("%(asctime)s - %(levelname)s - %(name)s -
 * %(message)s", transformers examples/pytorch/language-modeling/run_clm.py), Trainer's log dict
 * (transformers/trainer.py Trainer.log(), `print(output)` of the logs dict), an `nvidia-smi
 * --query-gpu=timestamp,power.draw,temperature.gpu,clocks.sm,utilization.gpu,memory.used
 * --format=csv,noheader` row on GB10 (memory.used [N/A]), a pip freeze row and a tqdm refresh
 * (tests/bench/genlog.c's shapes). Before the literals were tightened, G9.uv-removed (" - "),
 * C.nan-loss.* ("loss", "'loss':", "grad_norm"), G3.smi-csv-na ("[N/A]"), CTX.gpu-process.
 * smi-row ("N/A"), G1.torch-wheel-cu12 and CTX.cuda.torch-pip ("torch") ran on them.
 */
Test(prefilter, healthy_lines_wake_no_signature_that_misses_them)
{
    static const char *const lines[] = {
        "2026-11-29 10:00:37,493 - INFO - accelerate.utils - Configuration saved in "
        "/workspace/out/config.json",
        "2026-11-29 10:27:02,398 - INFO - torch.distributed.run - Starting elastic_operator",
        "2026-11-29 10:23:44,993 - INFO - transformers.trainer - ***** Running training *****",
        "{'loss': 1.2834, 'grad_norm': 3.134687, 'learning_rate': 6.0e-05, 'epoch': 1.45}",
        "2026/11/29 10:04:22.493, 62.30 W, 56, 2105 MHz, 4 %, [N/A]",
        "torch==2.9.0",
        " 37%|###5      | 3525/9375 [01:52<58:07,  3.47it/s]",
    };
    struct match_pack *p = load_pack();
    struct match_scanner *sc = match_scanner_new(p);
    unsigned char *hit = calloc(p->nsigs, 1);
    cr_assert(hit);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        const char *line = lines[i];
        memset(hit, 0, p->nsigs);
        match_scanner_scan(sc, TOK_KIND_TRAIN, line, strlen(line), mark_hit, hit);
        for (size_t k = 0; k < p->nsigs; k++) {
            const struct match_sig_priv *sg = p->sigs[k];
            const struct match_entry *e = sg->pub.entry;
            if ((e && e->family == MATCH_FAMILY_SERIES) || hit[k]) continue;
            for (size_t j = 0; j < sg->nliterals; j++)
                cr_expect(!match_contains_lower(line, strlen(line), sg->literals[j],
                                                strlen(sg->literals[j])),
                          "%s's literal '%s' is in '%s', which its regex does not match",
                          sg->pub.id, sg->literals[j], line);
        }
    }
    free(hit);
    match_scanner_free(sc);
    match_pack_free(p);
}

/* False probe hits (a probe whose window verified no literal) that one record draws. */
static uint64_t false_probes(const struct match_pack *p, const char *line)
{
    struct match_scanner *sc = match_scanner_new(p);
    size_t n = 0;
    match_scanner_scan(sc, TOK_KIND_TRAIN, line, strlen(line), no_hit, &n);
    struct match_probe_stats ps = {0};
    match_scanner_probe_stats(sc, &ps);
    match_scanner_free(sc);
    return ps.false_probes;
}

/*
 * A literal's key window is scored by how often the pack's example lines hold it, a series
 * signature's match lines weighing SERIES_EXAMPLE_WEIGHT lines each (match_search.c): they are
 * the lines a log repeats, so a window in them draws a probe on every such line. vLLM's metrics
 * line (vllm/engine/metrics.py LoggingStatLogger.log(), 0.6: "Avg prompt throughput: %.1f
 * tokens/s, Avg generation throughput: %.1f tokens/s, Running: %d reqs, Swapped: %d reqs,
 * Pending: %d reqs, GPU KV cache usage: %.1f%%, CPU KV cache usage: %.1f%%.", past its logger
 * prefix) drew 9 false probes with every example line counted once ("kv c" of "KV cache
 * memory", "age:" of "token usage:", "reqs" of "Running: 1 reqs"), and HF Trainer's log dict 2
 * ("'los" of "'loss': nan", "m': " of "'grad_norm': nan"); now 3 and none.
 */
Test(prefilter, series_lines_draw_few_false_probes)
{
    struct match_pack *p = load_pack();
    cr_expect_leq(false_probes(p, "Avg prompt throughput: 1182.8 tokens/s, Avg generation "
                                  "throughput: 9.9 tokens/s, Running: 12 reqs, Swapped: 0 "
                                  "reqs, Pending: 1 reqs, GPU KV cache usage: 83.2%, CPU KV "
                                  "cache usage: 0.0%."),
                  4);
    cr_expect_eq(false_probes(p, "{'loss': 1.2834, 'grad_norm': 3.134687, 'learning_rate': "
                                 "6.0e-05, 'epoch': 1.45}"),
                 0);
    match_pack_free(p);
}

/*
 * Python logging's lines as HF's example scripts print them ("%(asctime)s - %(levelname)s -
 * %(name)s - %(message)s", transformers examples/pytorch/language-modeling/run_clm.py; the
 * messages of transformers' configuration_utils.py / modeling_utils.py save_pretrained():
 * "Configuration saved in {output_config_file}", "Model weights saved in {output_model_file}")
 * fill a training log, and each key window they hold without its literal is a false probe on
 * such a line. They were: "- in" of G10.nccl-init-ranks' "- Init START" (now " nranks "), "gura"
 * of G7's "for this configuration. Reason: [" (now ". Reason: ["), "ed i" of
 * C.nan-loss.message's "Detected inf" (now "Detected inf in" / "Detected inf loss"). Since the
 * searcher probes even positions only, a literal of 5+ bytes is keyed by two adjacent windows
 * (key_off, key_off2; match_search.c): "model=" holds "odel" in both of its pairs, and "supported
 * on sm" pairs its rarest "n sm" with "on s" (of "Configuration saved"); each costs a line such a
 * probe at one parity of its position in the line. Checked: the lines, shifted by 0 and 1 byte,
 * draw at most one false probe each on average (main's build, probing every position: 1 per
 * "Configuration saved" line, 0-1 per "Model weights saved" line).
 */
Test(prefilter, python_logging_lines_draw_few_false_probes)
{
    static const char *const lines[] = {
        "2026-11-29 10:00:37,493 - INFO - __main__ - Configuration saved in "
        "/workspace/out/config.json",
        "2026-11-29 10:00:39,002 - INFO - __main__ - Model weights saved in "
        "/workspace/out/model.safetensors",
    };
    struct match_pack *p = load_pack();
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        char shifted[256];
        snprintf(shifted, sizeof shifted, "%.24s - INFO - trainer - %s", lines[i],
                 strstr(lines[i], "__main__ - ") + strlen("__main__ - "));
        uint64_t n = false_probes(p, lines[i]) + false_probes(p, shifted);
        cr_expect_leq(n, 2, "'%s' and its shift by one byte drew %llu false probes", lines[i],
                      (unsigned long long)n);
    }
    match_pack_free(p);
}

/* Every occurrence of literal l in p[0..n), case-insensitively, as match_searcher_run() must
 * report it: a naive search at every start. */
static size_t naive_count(const struct match_lit *l, const uint8_t *p, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i + l->len <= n; i++) {
        size_t k = 0;
        while (k < l->len && match_lower[p[i + k]] == l->s[k]) k++;
        c += k == l->len;
    }
    return c;
}

static void count_lit(void *ctx, const struct match_lit *l)
{
    struct {
        const struct match_searcher *w;
        size_t *seen;
    } *c = ctx;
    c->seen[l - c->w->lits]++;
}

/*
 * The probe loop's contract (match_search.c: even positions only, two keys per literal, windows
 * past a literal's ends, the last 3 bytes probed with a space after them): every occurrence of
 * every literal is reported once, nothing else. Random records of 0-160 bytes, filled from the
 * bytes of the pack's literals in both cases and with 2-6 literals planted at random starts (so
 * both parities, the first byte and the last), against a naive search.
 */
Test(prefilter, random_records_match_a_naive_search)
{
    struct match_pack *p = load_pack();
    const struct match_searcher *w = &p->search;
    uint8_t alpha[256];
    size_t na = 0;
    for (size_t i = 0; i < w->nlits && na < sizeof alpha; i++)
        for (uint32_t b = 0; b < w->lits[i].len && na < sizeof alpha; b++)
            if (!memchr(alpha, w->lits[i].s[b], na)) alpha[na++] = w->lits[i].s[b];
    size_t *seen = calloc(w->nlits, sizeof *seen);
    struct {
        const struct match_searcher *w;
        size_t *seen;
    } c = {w, seen};
    uint64_t x = 0x9E3779B97F4A7C15ull, found = 0;
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
    for (int r = 0; r < 4000; r++) {
        uint8_t rec[160];
        size_t n = RND() % sizeof rec;
        for (size_t i = 0; i < n; i++) {
            uint8_t b = alpha[RND() % na];
            rec[i] = (uint8_t)(b >= 'a' && b <= 'z' && (RND() & 1) ? b - 32 : b);
        }
        for (int k = 0, planted = 2 + (int)(RND() % 5); k < planted; k++) {
            const struct match_lit *l = &w->lits[RND() % w->nlits];
            if (l->len > n) continue;
            size_t at = RND() % 3 == 0 ? n - l->len : RND() % (n - l->len + 1);
            for (uint32_t b = 0; b < l->len; b++)
                rec[at + b] =
                    (uint8_t)(l->s[b] >= 'a' && l->s[b] <= 'z' && (RND() & 1) ? l->s[b] - 32
                                                                              : l->s[b]);
        }
        memset(seen, 0, w->nlits * sizeof *seen);
        match_searcher_run(w, rec, n, count_lit, &c);
        for (size_t i = 0; i < w->nlits; i++) {
            size_t want = naive_count(&w->lits[i], rec, n);
            cr_assert_eq(seen[i], want,
                         "record %d (%zu bytes): literal '%.*s' reported %zu times, "
                         "occurs %zu",
                         r, n, (int)w->lits[i].len, (const char *)w->lits[i].s, seen[i], want);
            found += want;
        }
    }
#undef RND
    cr_expect_gt(found, 4000, "only %llu occurrences: is the shipped pack loaded?",
                 (unsigned long long)found);
    free(seen);
    match_pack_free(p);
}
