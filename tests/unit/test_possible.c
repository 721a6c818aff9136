/*
 * tests/unit/test_possible.c - the possible list (correlate/possible.c): on a run with no verdict,
 * the gotchas the evidence leaves open, each with the line seen and the one fact (and command)
 * that would decide it, from the shipped pack's "decide" fields.
 *
 * Where the fixture lines come from (each built from the emitter's format with values of ours):
 *  - "RuntimeError: [FP4 gemm Runner] Failed to run cutlass FP4 gemm on sm120. Error: ...":
 *    TensorRT-LLM / FlashInfer's CUTLASS FP4 GEMM runner (its "[FP4 gemm Runner] Failed to run
 *    cutlass FP4 gemm on sm%d. Error: %s" message), the shipped G7.fp4-gemm-runner-failed example;
 *  - "GPU 0: NVIDIA H100 80GB HBM3": torch.utils.collect_env's GPU line;
 *  - "NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY] ...": the NVIDIA
 *    kernel driver's dmesg line (gotcha-checks-notes.md, G3);
 *  - "RuntimeError: CUDA error: no kernel image is available for execution on the device": the
 *    CUDA runtime's cudaErrorNoKernelImageForDevice string as PyTorch raises it;
 *  - "Watchdog caught collective operation timeout: WorkNCCL(...)": PyTorch's ProcessGroupNCCL
 *    watchdog message.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "correlate/corr.h"
#include "scan_fixture.h"

#define FP4_RUNNER_LINE                                                                            \
    "RuntimeError: [FP4 gemm Runner] Failed to run cutlass FP4 gemm on sm120. Error: Error "       \
    "Internal\n"
#define H100_LINE "GPU 0: NVIDIA H100 80GB HBM3\n"
#define NV_NO_MEMORY_LINE                                                                          \
    "NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY] (0x00000051) "     \
    "returned from _memdescAllocInternal\n"
#define NO_KERNEL_IMAGE_LINE                                                                       \
    "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
#define NCCL_WATCHDOG_LINE                                                                         \
    "[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation "          \
    "timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "    \
    "ran for 600012 milliseconds before timing out.\n"

TestSuite(possible, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

/* Scan the named files of the test directory, in that order, on a platform and thread count. */
static struct corr_result *scan(const char *const *names, size_t n, const char *platform,
                                unsigned threads)
{
    struct corr_config cfg;
    corr_config_default(&cfg, fx.pack);
    cfg.platform = platform;
    cfg.platform_from = platform ? "--platform" : NULL;
    cfg.threads = threads;
    char paths[8][512];
    const char *pp[8];
    for (size_t i = 0; i < n && i < 8; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", fx.dir, names[i]);
        pp[i] = paths[i];
    }
    struct corr_result *r = fx_analyze(&cfg, pp, n);
    cr_assert_gt(r->records, 0, "the input must have been read");
    return r;
}

static struct corr_result *scan_one(const char *name, const char *text, const char *platform)
{
    fx_write(NULL, name, text);
    const char *names[] = {name};
    return scan(names, 1, platform, 1);
}

Test(possible, gb10_scoped_line_on_unknown_platform_names_the_platform_fact)
{
    struct corr_result *r = scan_one("vllm.log", FP4_RUNNER_LINE, NULL);
    cr_assert_null(r->verdict, "a kernel line of another SM alone names nothing off GB10");
    cr_assert_eq(r->context.placed, -1, "nothing in the input places the run");
    cr_assert_eq(r->npossible, 1, "%zu possible", r->npossible);
    const struct corr_possible *p = &r->possible[0];
    cr_assert_str_eq(p->entry->id, "G7");
    cr_assert(p->by_platform, "only the unknown platform held G7 back");
    /* the platform's fact from the pack, not G7's own */
    cr_assert_eq(p->fact, p->entry->decide.platform_fact);
    cr_assert_str_eq(p->fact, "this machine is a GB10 (capability 12.1)");
    cr_assert(strstr(p->command, "nvidia-smi --query-gpu=name,compute_cap") != NULL, "%s",
              p->command);
    cr_assert_eq(p->seen.line, 1);
    cr_assert(strstr(p->seen.path, "vllm.log") != NULL, "%s", p->seen.path);
    cr_assert(strstr(p->seen.text, "[FP4 gemm Runner]") != NULL, "%s", p->seen.text);
    /* the second pass of the rules left nothing behind: the findings are the first pass's */
    const struct corr_finding *f = fx_finding(r, "G7");
    cr_assert_not_null(f);
    cr_assert_lt(f->confidence, 0.35, "%.2f", f->confidence);
    corr_result_free(r);
}

Test(possible, same_line_on_a_known_other_platform_gives_none)
{
    /* the platform set by the user */
    struct corr_result *r = scan_one("vllm.log", FP4_RUNNER_LINE, CORR_PLATFORM_OTHER);
    cr_assert_null(r->verdict);
    cr_assert_not_null(fx_finding(r, "G7"), "the line was read and weighed");
    cr_assert_eq(r->npossible, 0, "G7 on another GPU: %zu possible", r->npossible);
    corr_result_free(r);
    /* the platform placed by the inputs: an H100 */
    r = scan_one("vllm.log", H100_LINE FP4_RUNNER_LINE, NULL);
    cr_assert_eq(r->context.placed, 0, "the H100 line places the run off GB10");
    cr_assert_null(r->verdict);
    cr_assert_not_null(fx_finding(r, "G7"), "the line was read and weighed");
    cr_assert_eq(r->npossible, 0, "%zu possible", r->npossible);
    corr_result_free(r);
}

Test(possible, a_named_verdict_has_no_possible_list)
{
    struct corr_result *r = scan_one("vllm.log", FP4_RUNNER_LINE, "gb10");
    cr_assert_not_null(r->verdict, "on a GB10 the line names G7");
    cr_assert_str_eq(r->verdict->id, "G7");
    cr_assert_eq(r->npossible, 0, "%zu possible beside a verdict", r->npossible);
    corr_result_free(r);
    /* with a second, weaker candidate beside the verdict: still none */
    r = scan_one("run.log", FP4_RUNNER_LINE NV_NO_MEMORY_LINE, "gb10");
    cr_assert_not_null(r->verdict);
    cr_assert_not_null(fx_finding(r, "G3"), "the second line was weighed");
    cr_assert_eq(r->npossible, 0);
    corr_result_free(r);
}

Test(possible, below_the_verdict_on_a_known_gb10_names_the_entry_fact)
{
    /* a lone NV_ERR_NO_MEMORY on a GB10: a hint of G3 that only the free memory decides */
    struct corr_result *r = scan_one("dmesg.log", NV_NO_MEMORY_LINE, "gb10");
    cr_assert_null(r->verdict);
    cr_assert_eq(r->npossible, 1, "%zu possible", r->npossible);
    const struct corr_possible *p = &r->possible[0];
    cr_assert_str_eq(p->entry->id, "G3");
    cr_assert_not(p->by_platform);
    cr_assert_eq(p->fact, p->entry->decide.fact);
    cr_assert(strstr(p->command, "/proc/meminfo") != NULL, "%s", p->command);
    cr_assert(strstr(p->seen.text, "NV_ERR_NO_MEMORY") != NULL, "%s", p->seen.text);
    corr_result_free(r);
}

/* The ids of the possible list, "G1 G3 G7". */
static void ids_of(const struct corr_result *r, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < r->npossible; i++) {
        size_t len = strlen(out);
        snprintf(out + len, n - len, "%s%s", i ? " " : "", r->possible[i].entry->id);
    }
}

Test(possible, order_is_deterministic_and_capped)
{
    /* four gotchas at one weak line each, in two files */
    fx_write(NULL, "a.log", FP4_RUNNER_LINE NV_NO_MEMORY_LINE);
    fx_write(NULL, "b.log", NO_KERNEL_IMAGE_LINE NCCL_WATCHDOG_LINE);
    const char *ab[] = {"a.log", "b.log"}, *ba[] = {"b.log", "a.log"};
    char first[64] = "", other[64];
    for (int k = 0; k < 4; k++) {
        struct corr_result *r = scan(k % 2 ? ba : ab, 2, NULL, k < 2 ? 1 : 2);
        cr_assert_null(r->verdict);
        cr_assert_geq(r->nfindings, 4, "the four lines were read: %zu findings", r->nfindings);
        cr_assert_eq(r->npossible, CORR_POSSIBLE_MAX, "%zu possible", r->npossible);
        ids_of(r, k ? other : first, sizeof other);
        if (k) cr_assert_str_eq(other, first, "run %d", k);
        /* findings order (confidence, then pack order): G1, G3, G7; G10 left off */
        if (!k) cr_assert_str_eq(first, "G1 G3 G7");
        for (size_t i = 0; i < r->npossible; i++)
            cr_assert_eq(r->possible[i].by_platform, !strcmp(r->possible[i].entry->id, "G7"), "%s",
                         r->possible[i].entry->id);
        corr_result_free(r);
    }
}

/* A pack's decide: a scoped entry must give its platform's fact; a non-gotcha has none. */
static int load_pack_text(const char *text, struct az_buf *err)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/pack", fx.dir);
    mkdir(dir, 0755);
    fx_write(NULL, "pack/p.json", text);
    const char *dirs[] = {dir};
    struct match_pack *p = NULL;
    enum az_status st = match_pack_load(&p, dirs, 1, err);
    match_pack_free(p);
    return st == AZ_OK;
}

#define ENTRY_HEAD                                                                                 \
    "{\"entries\": [{\"id\": \"G11\", \"family\": \"gotcha\", \"title\": \"t\", \"symptom\": "     \
    "\"s\", \"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\", "

Test(possible, pack_refuses_a_scoped_decide_without_the_platform_fact)
{
    struct az_buf err = AZ_BUF_INIT;
    cr_assert(load_pack_text(ENTRY_HEAD "\"decide\": {\"fact\": \"x\", \"command\": \"y\"}, "
                                        "\"signatures\": []}]}",
                             &err),
              "an unscoped entry's decide needs no platform: %s", err.data ? err.data : "");
    az_buf_reset(&err);
    cr_assert_not(load_pack_text(ENTRY_HEAD "\"decide\": {\"fact\": \"x\", \"command\": \"y\"}, "
                                            "\"scope\": {\"platform\": \"gb10\", \"factor\": "
                                            "0.3, \"says\": \"s\", \"why\": \"w\"}, "
                                            "\"signatures\": []}]}",
                                 &err));
    cr_assert(err.data && strstr(err.data, "needs \"platform\""), "%s", err.data ? err.data : "");
    az_buf_reset(&err);
    cr_assert_not(load_pack_text(ENTRY_HEAD "\"decide\": {\"fact\": \"x\"}, "
                                            "\"signatures\": []}]}",
                                 &err));
    cr_assert(err.data && strstr(err.data, "command"), "%s", err.data ? err.data : "");
    az_buf_free(&err);
}

Test(possible, every_shipped_gotcha_has_a_decide)
{
    size_t n = 0;
    for (size_t i = 0; i < match_pack_entry_count(fx.pack); i++) {
        const struct match_entry *e = match_pack_entry(fx.pack, i);
        if (e->family != MATCH_FAMILY_GOTCHA) continue;
        n++;
        cr_assert(e->decide.fact && *e->decide.fact, "%s has no decide.fact", e->id);
        cr_assert(e->decide.command && *e->decide.command, "%s has no decide.command", e->id);
        if (e->scope.platform)
            cr_assert(e->decide.platform_fact && *e->decide.platform_fact, "%s", e->id);
    }
    cr_assert_eq(n, 10, "G1..G10");
}
