/*
 * test_capacity_groups.c - the guards of issue #20 item 5 for the unified pool (G3, G6) and for
 * group size across nodes (G10): a verdict needs its consequence.
 *
 *  - G10: a TP group across two Sparks that ran its warm-up (vLLM's "init engine (profile, create
 *    kv cache, warmup model) took %.2f seconds", vllm/v1/engine/core.py) with no NCCL failure
 *    after it is not G10's hang; a run that stopped on another failure and no NCCL failure is not
 *    G10 either; a timeout (the group's own stall) or a watchdog after the warm-up still is.
 *  - G3: an OOM whose own process holds nearly the whole pool is a capacity error, not G3.
 *  - G3: the OOM killer's victim with 10 GB+ of file-backed pages (mm/oom_kill.c), systemd-oomd.
 *  - G6: nvidia-smi --query-compute-apps rows without a pid.
 *
 * Every log here is built from the emitter's format string with values of our own; every test
 * asserts the input was read (records > 0) and has a near miss beside it.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/az.h"
#include "correlate/corr.h"
#include "scan_fixture.h"

TestSuite(capacity_groups, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

/* ---- G10 ---- */

/* A vLLM TP=2 worker on the second of two GB10s: nvidia-smi's device row places the run, vLLM's
 * rank assignment (parallel_state.py: "rank %s in world size %s is assigned as DP rank %s, PP rank
 * %s, TP rank %s, EP rank %s") gives the TP rank, NCCL's init line (init.cc: "comm %p rank %d
 * nRanks %d nNodes %d localRanks %d localRank %d MNNVL %d") the two nodes. Then `tail`. */
static struct corr_result *tp2_worker(const char *sub, const char *tail)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |       "
                    "           N/A |\n");
    az_buf_puts(&b, "(Worker_TP1 pid=301) INFO 02-10 08:00:05 [parallel_state.py:1208] rank 1 in "
                    "world size 2 is assigned as DP rank 0, PP rank 0, TP rank 1, EP rank 1\n");
    az_buf_puts(&b, "spark-b2:301:340 [0] NCCL INFO comm 0xbbbb12340000 rank 1 nRanks 2 nNodes 2 "
                    "localRanks 1 localRank 0 MNNVL 0\n");
    az_buf_puts(&b, "(Worker_TP1 pid=301) INFO 02-10 08:03:41 [gpu_model_runner.py:3112] Model "
                    "loading took 30.12 GiB memory and 201.5 seconds\n");
    az_buf_puts(&b, tail);
    struct corr_result *r = fx_scan_one(sub, "worker.log", b.data);
    az_buf_free(&b);
    return r;
}

Test(capacity_groups, tp_group_that_ran_its_warmup_is_not_g10)
{
    /* the group captured its graphs and warmed up (vllm/v1/worker/gpu_model_runner.py "Graph
     * capturing finished in %.0f secs, took %.2f GiB", core.py's init engine line), then a
     * teardown left c10d's store warning: no NCCL failure after the warm-up */
    struct corr_result *r = tp2_worker(
        "ran", "(Worker_TP1 pid=301) INFO 02-10 08:05:02 [gpu_model_runner.py:4587] Graph "
               "capturing finished in 12 secs, took 0.48 GiB\n"
               "INFO 02-10 08:05:03 [core.py:259] init engine (profile, create kv cache, warmup "
               "model) took 58.20 seconds\n"
               "[rank1]:[W210 09:41:10.112233445 TCPStore.cpp:125] [c10d] recvValue failed on "
               "SocketImpl(fd=31): Failed to recv, got 0 bytes. Connection was likely closed.\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
    /* near miss: the same group that never got past its load (the hang G10 names) */
    r = tp2_worker("hung", "(Worker_TP1 pid=301) INFO 02-10 08:03:42 [gpu_worker.py:300] "
                           "Profiling the model\n");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

Test(capacity_groups, watchdog_after_the_warmup_is_still_g10)
{
    /* ProcessGroupNCCL.cpp's watchdog ("Watchdog caught collective operation timeout:
     * WorkNCCL(SeqNum=%d, OpType=%s, ...) ran for %d milliseconds before timing out") after the
     * group served: the group failed later, so its warm-up clears nothing */
    struct corr_result *r = tp2_worker(
        "late", "INFO 02-10 08:05:03 [core.py:259] init engine (profile, create kv cache, warmup "
                "model) took 58.20 seconds\n"
                "[rank1]:[E210 11:02:13.551122334 ProcessGroupNCCL.cpp:683] [Rank 1] Watchdog "
                "caught collective operation timeout: WorkNCCL(SeqNum=88123, OpType=ALLREDUCE, "
                "NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600081 milliseconds "
                "before timing out.\n");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

Test(capacity_groups, tp_run_stopped_by_another_failure_is_not_g10)
{
    /* a configuration error raised while the model loaded (a Python exception, no NCCL line) */
    struct corr_result *r = tp2_worker(
        "other", "(Worker_TP1 pid=301) ERROR 02-10 08:03:50 [multiproc_executor.py:898] "
                 "ValueError: Unsupported moe_backend for ExampleMoEMethod: BACKEND_X. Expected "
                 "TRITON or MARLIN backend.\n");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
    /* near miss: the exception is the group's own stall (vLLM's RPC to its workers timed out) */
    r = tp2_worker("stall", "(EngineCore_DP0 pid=280) ERROR 02-10 08:40:01 [core.py:1195] "
                            "TimeoutError: RPC call to sample_tokens timed out.\n");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* ---- G3 ---- */

/* PyTorch's OOM (c10/cuda/CUDACachingAllocator.cpp: "CUDA out of memory. Tried to allocate %s.
 * GPU %d has a total capacity of %s of which %s is free. Including non-PyTorch memory, this
 * process has %s memory in use. Of the allocated memory %s is allocated by PyTorch, and %s is
 * reserved by PyTorch but unallocated."), its breakdown on the next line as vLLM's logger wraps it,
 * on a GB10 (119.70 GiB pool). */
static struct corr_result *torch_oom(const char *sub, const char *in_use, const char *alloc)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |       "
                    "           N/A |\n");
    az_buf_printf(&b,
                  "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB. GPU 0 "
                  "has a total capacity of 119.70 GiB of which 402.31 MiB is free. Including "
                  "non-PyTorch memory, this process has %s memory in use.\n"
                  "Of the allocated memory %s is allocated by PyTorch, and 20.12 MiB is reserved "
                  "by PyTorch but unallocated.\n",
                  in_use, alloc);
    struct corr_result *r = fx_scan_one(sub, "train.log", b.data);
    az_buf_free(&b);
    return r;
}

Test(capacity_groups, oom_of_a_process_that_fills_the_pool_is_capacity_not_g3)
{
    struct corr_result *r = torch_oom("full", "112.85 GiB", "112.61 GiB");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_lt(fx_conf(r, "G3"), 0.35, "G3 %.2f", fx_conf(r, "G3"));
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    /* near miss: the process held half the pool when the allocator said it was full */
    r = torch_oom("half", "58.40 GiB", "58.02 GiB");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

Test(capacity_groups, oom_kill_of_an_mmap_holding_server_on_gb10_is_g3)
{
    /* mm/oom_kill.c __oom_kill_process: "%s: Killed process %d (%s) total-vm:%lukB,
     * anon-rss:%lukB, file-rss:%lukB, shmem-rss:%lukB, UID:%u pgtables:%lukB oom_score_adj:%hd" */
    const char *smi = "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |     "
                      "             N/A |\n";
    char text[1024];
    snprintf(text, sizeof text,
             "%s[ 7112.300400] Out of memory: Killed process 4410 (llama-server) "
             "total-vm:190223344kB, anon-rss:38211020kB, file-rss:47110236kB, shmem-rss:8192kB, "
             "UID:0 pgtables:282210kB oom_score_adj:0\n",
             smi);
    struct corr_result *r = fx_scan_one("mmap", "dmesg.txt", text);
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    /* near miss: the same server killed with its pages anonymous (file-rss ~2 GB): only the
     * common OOM kill, no G3 line (llama-server is no engine name G3 reads by itself) */
    snprintf(text, sizeof text,
             "%s[ 7112.300400] Out of memory: Killed process 4410 (llama-server) "
             "total-vm:190223344kB, anon-rss:88211020kB, file-rss:2110236kB, shmem-rss:8192kB, "
             "UID:0 pgtables:282210kB oom_score_adj:0\n",
             smi);
    r = fx_scan_one("anon", "dmesg.txt", text);
    cr_assert_lt(fx_conf(r, "G3"), 0.35, "G3 %.2f", fx_conf(r, "G3"));
    corr_result_free(r);
}

Test(capacity_groups, systemd_oomd_kill_is_a_g3_oom_and_its_mark_is_not)
{
    /* src/oom/oomd-manager.c: "Killed %s due to memory pressure for %s being %lu.%02lu%% >
     * %lu.%02lu%% for > %s with reclaim activity"; v256 first logs "Marked %s for killing ..." */
    const char *smi = "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |     "
                      "             N/A |\n";
    char text[1024];
    snprintf(text, sizeof text,
             "%sMar 03 14:02:11 spark-c3 systemd-oomd[733]: Killed "
             "/user.slice/user-1000.slice/user@1000.service/app.slice/train.scope due to memory "
             "pressure for /user.slice/user-1000.slice/user@1000.service being 68.20%% > 50.00%% "
             "for > 20s with reclaim activity\n",
             smi);
    struct corr_result *r = fx_scan_one("oomd", "journal.txt", text);
    double killed = fx_conf(r, "G3");
    cr_assert_gt(killed, 0.35, "G3 %.2f", killed);
    corr_result_free(r);
    snprintf(text, sizeof text,
             "%sMar 03 14:02:11 spark-c3 systemd-oomd[733]: Marked "
             "/user.slice/user-1000.slice/user@1000.service/app.slice/train.scope for killing due "
             "to memory pressure for /user.slice being 68.20%% > 50.00%% for > 20s with reclaim "
             "activity\n",
             smi);
    r = fx_scan_one("marked", "journal.txt", text);
    cr_assert_lt(fx_conf(r, "G3"), 0.35, "G3 %.2f", fx_conf(r, "G3"));
    corr_result_free(r);
}

/* ---- G6 ---- */

Test(capacity_groups, compute_apps_rows_without_a_pid_show_two_servers)
{
    /* nvidia-smi --query-compute-apps=process_name,used_memory --format=csv,noheader on a GB10
     * where a second model server still holds the pool, and vLLM's startup check that failed
     * (vllm/v1/worker/utils.py: "Free memory on device (%.2f/%.2f GiB) on startup is less than
     * desired GPU memory utilization (%.2f, %.2f GiB)") */
    const char *check = "ValueError: Free memory on device (38.12/119.70 GiB) on startup is less "
                        "than desired GPU memory utilization (0.80, 95.76 GiB). Decrease GPU "
                        "memory utilization or reduce GPU memory used by other processes.\n";
    char text[1024];
    snprintf(text, sizeof text, "VLLM::Worker_TP0, 61234 MiB\n/usr/local/bin/ollama, 20480 MiB\n%s",
             check);
    struct corr_result *r = fx_scan_one("two", "apps.txt", text);
    double two = fx_conf(r, "G6");
    cr_assert_str_eq(fx_verdict(r), "G6", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    /* near miss: one row (the failing server's own worker) and the same check */
    snprintf(text, sizeof text, "VLLM::Worker_TP0, 61234 MiB\n%s", check);
    r = fx_scan_one("one", "apps.txt", text);
    cr_assert_lt(fx_conf(r, "G6"), two, "one row %.2f, two rows %.2f", fx_conf(r, "G6"), two);
    corr_result_free(r);
}

/* vLLM's startup check names the device it starts on (vllm/v1/worker/utils.py request_memory:
 * f"Free memory on device {init_snapshot.device_} ({free}/{total} GiB) on startup is less than
 * desired GPU memory utilization ..."), while gpu_worker.py's healthy INFO line ("Free memory on
 * device (%.2f/%.2f GiB) on startup. Desired GPU memory utilization is ...") names none: a copy
 * cut after the device's figures is still the failed check, on GB10's pool G3's line; the healthy
 * line cut the same way is not, and the cut check of a 31.39 GiB RTX 5090 is not G3. */
Test(capacity_groups, vllm_check_cut_after_the_device_figures_is_still_the_check)
{
    struct corr_result *r = fx_scan_one(
        "cut", "vllm.log", "ValueError: Free memory on device cuda:0 (100.31/121.69 GiB)\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = fx_scan_one("healthy", "vllm.log",
                    "INFO 11-05 12:19:32 [gpu_worker.py:391] Free memory on device (100.31/121.69 "
                    "GiB)\n");
    cr_assert_eq(fx_conf(r, "G3"), 0.0, "G3 %.2f", fx_conf(r, "G3"));
    corr_result_free(r);
    r = fx_scan_one("rtx", "vllm.log",
                    "    ValueError: Free memory on device cuda:0 (24.85/31.39 GiB) on\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_gt(fx_conf(r, "G3"), 0.0, "the cut check is read off GB10 too");
    cr_assert_str_neq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* ---- G5 ---- */

/* genai-perf's console table (genai_perf/export_data/console_exporter.py: rich Table rows of
 * format_metric_name(name, unit) and '{:,.2f}' values for avg, min, max, p99, p90, p75) beside
 * vLLM's weight size (gpu_model_runner.py: "Model loading took %.4f GiB memory and %.6f seconds")
 * on a GB10: one stream's inter-token latency over the weights is the bandwidth it moves. */
static struct corr_result *genai_perf_run(const char *sub, const char *itl)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |       "
                    "           N/A |\n");
    az_buf_puts(&b, "(Worker pid=211) INFO 04-02 09:12:40 [gpu_model_runner.py:3112] Model "
                    "loading took 18.6031 GiB memory and 41.220113 seconds\n");
    az_buf_puts(&b, "                      NVIDIA GenAI-Perf | LLM Metrics\n");
    az_buf_printf(&b,
                  "\xE2\x94\x82         Inter Token Latency (ms) \xE2\x94\x82 %s \xE2\x94\x82  "
                  "88.10 \xE2\x94\x82 120.40 \xE2\x94\x82 119.00 \xE2\x94\x82 101.00 \xE2\x94\x82 "
                  " 97.30 \xE2\x94\x82\n",
                  itl);
    struct corr_result *r = fx_scan_one(sub, "bench.log", b.data);
    az_buf_free(&b);
    return r;
}

Test(capacity_groups, genai_perf_inter_token_latency_at_the_ceiling_names_g5)
{
    /* 18.6 GiB (20.0 GB) x 1000 / 95.2 ms = 210 GB/s: at GB10's ceiling */
    struct corr_result *r = genai_perf_run("ceiling", "95.20");
    double at = fx_conf(r, "G5");
    cr_assert_gt(at, 0.35, "G5 %.2f", at);
    corr_result_free(r);
    /* near miss: 400 ms between tokens moves 50 GB/s, far below the ceiling */
    r = genai_perf_run("far", "400.00");
    cr_assert_lt(fx_conf(r, "G5"), at, "far %.2f, ceiling %.2f", fx_conf(r, "G5"), at);
    corr_result_free(r);
}

/* SGLang's bench_one_batch (python/sglang/bench_one_batch.py, stored commit 0094415,
 * latency_test_run_once(): "Decode {i}. Batch size: {batch_size}, latency: {latency:6.5f} s,
 * throughput: {throughput:9.2f} token/s", throughput = batch_size / latency) after its model
 * runner's "Load weight end. type=%s, dtype=%s, avail mem=%.2f GB, mem usage=%.2f GB." on a GB10:
 * with a batch of one the step's throughput is that sequence's rate, 10.5 tok/s over 18.1 GB
 * of weights moves ~190 GB/s. Near miss: a batch of 16 prints the batch's aggregate, never one
 * sequence's rate, and the input is read (the weights line is G5's context) without a verdict. */
static struct corr_result *one_batch_run(const char *sub, const char *bs, const char *tps)
{
    char text[1024];
    size_t n = (size_t)snprintf(
        text, sizeof text,
        "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A "
        "|\n"
        "[2026-04-02 09:12:40 TP0] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, "
        "avail mem=96.31 GB, mem usage=18.10 GB.\n"
        "Benchmark ...\n"
        "Prefill. latency: 0.41230 s, throughput:   2483.57 token/s\n");
    for (int i = 0; i < 5 && n < sizeof text; i++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "Decode %d. Batch size: %s, latency: 0.09514 s, throughput: %9s "
                              "token/s\n",
                              i, bs, tps);
    return fx_scan_one(sub, "bench_one_batch.log", text);
}

Test(capacity_groups, sglang_one_batch_decode_of_one_sequence_at_the_ceiling_names_g5)
{
    struct corr_result *r = one_batch_run("one", "1", "10.51");
    cr_assert_str_eq(fx_verdict(r), "G5", "verdict %s (G5 %.2f)", fx_verdict(r), fx_conf(r, "G5"));
    corr_result_free(r);
    r = one_batch_run("sixteen", "16", "168.17");
    cr_assert_str_neq(fx_verdict(r), "G5", "a batch's aggregate is no sequence's rate");
    cr_assert_lt(fx_conf(r, "G5"), 0.35, "G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
}

/* llama-bench -o json (ggml-org/llama.cpp tools/llama-bench/llama-bench.cpp, commit 0104b15,
 * json_printer::print_test(): "  {", then print_fields()'s "    \"%s\": %s,\n" for every
 * test::get_fields() name in order, then samples_ns / samples_ts and "  }"): a pp512 test and a
 * tg128 test of one model on the GPU gpu_info names. model_size is llama_model_size() in bytes,
 * avg_ts = 1e9 * (n_prompt + n_gen) / t (std::to_string(double)). */
static void llama_bench_json_test(struct az_buf *b, const char *gpu, int n_prompt, int n_gen,
                                  const char *avg_ts)
{
    static const char *const fields[][2] = {{"build_commit", "\"0104b15\""},
                                            {"build_number", "7310"},
                                            {"cpu_info", "\"Cortex-X925\""},
                                            {"gpu_info", NULL},
                                            {"backends", "\"CUDA\""},
                                            {"model_filename", "\"/models/Qwen3-8B-BF16.gguf\""},
                                            {"model_type", "\"qwen3 8B BF16\""},
                                            {"model_size", "16381470720"},
                                            {"model_n_params", "8190735360"},
                                            {"n_batch", "2048"},
                                            {"n_ubatch", "512"},
                                            {"n_threads", "20"},
                                            {"cpu_mask", "\"0x0\""},
                                            {"cpu_strict", "false"},
                                            {"poll", "50"},
                                            {"type_k", "\"f16\""},
                                            {"type_v", "\"f16\""},
                                            {"n_gpu_layers", "99"},
                                            {"n_cpu_moe", "0"},
                                            {"split_mode", "\"layer\""},
                                            {"main_gpu", "0"},
                                            {"no_kv_offload", "false"},
                                            {"flash_attn", "-1"},
                                            {"devices", "\"auto\""},
                                            {"tensor_split", "\"0.00\""},
                                            {"tensor_buft_overrides", "\"none\""},
                                            {"load_mode", "\"mmap\""},
                                            {"embeddings", "false"},
                                            {"no_op_offload", "0"},
                                            {"no_host", "false"},
                                            {"fit_target", "0"},
                                            {"fit_min_ctx", "0"},
                                            {"n_prompt", NULL},
                                            {"n_gen", NULL},
                                            {"n_depth", "0"},
                                            {"test_time", "\"2026-11-20T10:00:00Z\""},
                                            {"avg_ns", "10807000000"},
                                            {"stddev_ns", "2000000"},
                                            {"avg_ts", NULL},
                                            {"stddev_ts", "0.012000"}};
    az_buf_puts(b, "  {\n");
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *k = fields[i][0];
        if (fields[i][1])
            az_buf_printf(b, "    \"%s\": %s,\n", k, fields[i][1]);
        else if (!strcmp(k, "gpu_info"))
            az_buf_printf(b, "    \"%s\": \"%s\",\n", k, gpu);
        else if (!strcmp(k, "n_prompt") || !strcmp(k, "n_gen"))
            az_buf_printf(b, "    \"%s\": %d,\n", k, !strcmp(k, "n_prompt") ? n_prompt : n_gen);
        else
            az_buf_printf(b, "    \"%s\": %s,\n", k, avg_ts);
    }
    az_buf_puts(b, "    \"samples_ns\": [ 10805000000, 10809000000 ],\n"
                   "    \"samples_ts\": [ 11.8459, 11.8415 ]\n  }");
}

static struct corr_result *llama_bench_json(const char *sub, const char *gpu, int tg_prompt)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "[\n");
    llama_bench_json_test(&b, gpu, 512, 0, "1822.512000");
    az_buf_puts(&b, ",\n");
    llama_bench_json_test(&b, gpu, tg_prompt, 128, "11.842317");
    az_buf_puts(&b, "\n]\n");
    struct corr_result *r = fx_scan_one(sub, "llama-bench.json", b.data);
    az_buf_free(&b);
    return r;
}

/* A tg128 test at 11.84 tok/s over 16.4 GB of BF16 weights moves 194 GB/s: G5 on a GB10, read
 * from the lines below the model's size ("after"). Near misses: the same numbers under a pp+tg
 * test (n_prompt 512: its avg_ts counts prompt tokens, no sequence's decode rate), and the
 * same file from an RTX 4090 (G5 is GB10's). */
Test(capacity_groups, llama_bench_json_tg_test_at_the_ceiling_names_g5)
{
    struct corr_result *r = llama_bench_json("gb10", "NVIDIA GB10", 0);
    cr_assert_str_eq(fx_verdict(r), "G5", "verdict %s (G5 %.2f)", fx_verdict(r), fx_conf(r, "G5"));
    cr_expect(fx_cites(r, "G5", "G5.llama-bench-json-model-size"), "the size line is evidence");
    corr_result_free(r);
    r = llama_bench_json("pg", "NVIDIA GB10", 512);
    cr_assert_lt(fx_conf(r, "G5"), 0.35, "pp+tg: G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
    r = llama_bench_json("rtx", "NVIDIA GeForce RTX 4090", 0);
    cr_assert_str_neq(fx_verdict(r), "G5", "off GB10 no G5");
    cr_assert_lt(fx_conf(r, "G5"), 0.35, "RTX 4090: G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
}

/* genai-perf's profile_export_genai_perf.json (perf_analyzer 263c5f6, json_exporter.py:
 * json.dumps(stats, indent=2); statistics.py: "unit" then "avg", p1..p99, min, max, std per
 * metric) beside vLLM's weight size on a GB10: one user's 12.14 tokens/s over 16.4 GB moves
 * 199 GB/s. `gap` lines stand between the per-user key and its avg: 0 is the printer's layout. */
static struct corr_result *genai_perf_json(const char *sub, int gap, const char *avg,
                                           const char *model, const char *list, int server_log)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |       "
                    "           N/A |\n"
                    "(Worker pid=211) INFO 11-20 09:12:40 [gpu_model_runner.py:3112] Model "
                    "loading took 15.2683 GiB memory and 41.220113 seconds\n");
    if (server_log) fx_write(sub, "vllm.log", b.data);
    az_buf_free(&b);
    static const char *const pct[] = {"p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"};
    az_buf_puts(&b, "{\n  \"request_throughput\": {\n    \"unit\": \"requests/sec\",\n"
                    "    \"avg\": 0.08001\n  },\n");
    az_buf_puts(&b, "  \"output_token_throughput_per_user\": {\n"
                    "    \"unit\": \"tokens/sec/user\",\n");
    for (int i = 0; i < gap; i++) az_buf_printf(&b, "    \"%s\": 11.9%d,\n", pct[i], i);
    az_buf_printf(&b, "    \"avg\": %s,\n", avg);
    for (int i = gap; i < 9; i++) az_buf_printf(&b, "    \"%s\": 12.1%d,\n", pct[i], i);
    az_buf_puts(&b, "    \"min\": 9.7,\n    \"max\": 14.6,\n    \"std\": 0.6\n  },\n"
                    "  \"output_token_throughput\": {\n    \"unit\": \"tokens/sec\",\n"
                    "    \"avg\": 190.4\n  },\n"
                    "  \"input_config\": {\n");
    az_buf_printf(&b, "    \"%s\": [\n      \"%s\"\n    ]\n  }\n}", list, model);
    struct corr_result *r = fx_scan_one(sub, "profile_export_genai_perf.json", b.data);
    az_buf_free(&b);
    return r;
}

Test(capacity_groups, genai_perf_json_per_user_avg_below_its_key_names_g5)
{
    struct corr_result *r =
        genai_perf_json("layout", 0, "12.136", "Qwen/Qwen3-8B", "model_names", 1);
    cr_assert_str_eq(fx_verdict(r), "G5", "verdict %s (G5 %.2f)", fx_verdict(r), fx_conf(r, "G5"));
    corr_result_free(r);
    /* near miss: an "avg" three lines below the key (not where the printer puts the key's own)
     * and the batch's aggregate avg (190 tokens/s: 3.1 TB/s, no sequence's rate) say nothing */
    r = genai_perf_json("far", 1, "12.136", "Qwen/Qwen3-8B", "model_names", 1);
    cr_assert_lt(fx_conf(r, "G5"), 0.35, "G5 %.2f", fx_conf(r, "G5"));
    cr_assert_str_neq(fx_verdict(r), "G5");
    corr_result_free(r);
}

/* The same export alone: the weights come from input_config's model id (json_exporter.py
 * _merge_stats_and_args(): config.to_json_dict(), "model_names" with each id on the line below
 * it): an 8B FP8 checkpoint is 8 GB, and one user's 23.5 tokens/s over it moves 188 GB/s. Near
 * misses: an id with no quantization suffix gives no byte count, and the same FP8 id as a value
 * of another key (not the line below "model_names") is not read. */
Test(capacity_groups, genai_perf_json_model_id_below_model_names_gives_the_weights)
{
    const char *fp8 = "RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8";
    struct corr_result *r = genai_perf_json("fp8", 0, "23.5", fp8, "model_names", 0);
    cr_assert_str_eq(fx_verdict(r), "G5", "verdict %s (G5 %.2f)", fx_verdict(r), fx_conf(r, "G5"));
    cr_expect(fx_cites(r, "G5", "G5.genai-perf-json-model-id"), "the id line is the evidence");
    corr_result_free(r);
    r = genai_perf_json("bf16", 0, "23.5", "Qwen/Qwen3-8B", "model_names", 0);
    cr_expect_lt(fx_conf(r, "G5"), 0.35, "no dtype, no bytes: G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
    r = genai_perf_json("other-key", 0, "23.5", fp8, "extra_inputs", 0);
    cr_expect_lt(fx_conf(r, "G5"), 0.35, "not below model_names: G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
}

/* ggml's buffer failure (ggml-alloc.c: "%s: failed to allocate %s buffer of size %zu") on a GB10
 * (ggml-cuda.cu's device line "  Device %d: %s, compute capability %d.%d, VMM: %s, VRAM: %zu MiB"
 * places it): a 20 GiB buffer that does not fit is G3's question; a 120 GiB one is a model no
 * 128 GB machine holds, a capacity error (oom-capacity's over_pool). */
static struct corr_result *ggml_buffer(const char *sub, const char *bytes)
{
    char text[512];
    snprintf(text, sizeof text,
             "ggml_cuda_init: found 1 CUDA devices:\n"
             "  Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes, VRAM: 122502 MiB\n"
             "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size %s\n",
             bytes);
    return fx_scan_one(sub, "llama-server.log", text);
}

Test(capacity_groups, ggml_buffer_larger_than_the_pool_is_capacity_not_g3)
{
    struct corr_result *r = ggml_buffer("fits", "21474836480");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = ggml_buffer("over", "128849018880");
    cr_assert_lt(fx_conf(r, "G3"), 0.35, "G3 %.2f", fx_conf(r, "G3"));
    corr_result_free(r);
}
