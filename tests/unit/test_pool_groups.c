/*
 * tests/unit/test_pool_groups.c - the emitters of issue #20's two GB10 families with the shipped
 * pack (docs/emitters.md, "Group size across nodes" and "Unified-pool capacity and contention"):
 * a server's own line that its TP group spans machines counts them where nothing else does, a
 * group that never formed is not G10, the unified pool's free figure read at load time weighs
 * for G3, an allocation as large as the pool stays a capacity error, and a free figure that rose
 * while vLLM profiled is a hint of another holder of the pool (G6).
 *
 * Where the line shapes come from (each built from the emitter's format string with values of
 * our own, not copied from a thread):
 *  - vLLM vllm/v1/executor/ray_utils.py (e845151) _verify_bundles: "tensor_parallel_size=%d is
 *    bigger than a reserved number of %ss (%d %ss) in a node %s. Tensor parallel workers can be
 *    spread out to 2+ nodes ..."; _wait_until_pg_ready: "Cannot provide a placement group
 *    requiring {n} GPUs (placement_group_specs={specs}) within {PG_WAIT_TIMEOUT} seconds.";
 *    vllm/v1/executor/multiproc_executor.py "RPC call to {method} timed out.";
 *  - PyTorch torch/distributed/launcher/api.py (b1ab3b3) launch_agent: "Starting
 *    elastic_operator with launch configs:\n  entrypoint       : %(entrypoint)s\n  min_nodes
 *    : %(min_nodes)s ..."; ProcessGroupNCCL.cpp's watchdog "Watchdog caught collective operation
 *    timeout: WorkNCCL(SeqNum=%d, OpType=%s, ...) ran for %d milliseconds before timing out.";
 *    Megatron-LM arguments.py "using world size: %d, ..., tensor-model-parallel size: %d";
 *  - vLLM vllm/v1/worker/gpu_worker.py (35d5cda) determine_available_memory: "Error in memory
 *    profiling. Initial free memory {x} GiB, current free memory {y} GiB. This happens when other
 *    processes sharing the same container release GPU memory ...";
 *  - llama.cpp src/llama-kv-cache.cpp (3514e9f) "failed to allocate buffer for kv cache" with
 *    llama_init_from_model's "%s: failed to initialize the context: %s"; ggml-cuda.cu's
 *    "%s: allocating %.2f MiB on device %d: cudaMalloc failed: %s" and "  Device %d: %s, compute
 *    capability %d.%d, VMM: %s, VRAM: %zu MiB";
 *  - Ollama server/sched.go:620 (v0.33.0-rc2) slog.Info("gpu memory", "id", ..., "library", ...,
 *    "available", ..., "free", ..., "minimum", ..., "overhead", ...), discover/types.go's
 *    "inference compute" line; SGLang scheduler.py's "max_total_num_tokens=%d, ..." and
 *    memory_pool.py's "KV Cache is allocated. #tokens: %d, K size: %.2f GB, V size: %.2f GB";
 *  - nvidia-smi's device row and its --query-compute-apps=process_name,used_memory CSV rows.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/az.h"
#include "correlate/corr.h"
#include "scan_fixture.h"

TestSuite(pool_groups, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

#define SMI_GB10                                                                                   \
    "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A "   \
    "|\n"

/* ---- G10: group size across nodes ---- */

/* A vLLM TP=2 launch under Ray that hung in its first all-reduce; `placement` is the line Ray's
 * placement printed (or ""), nothing places the run on a platform. */
static struct corr_result *ray_tp2(const char *sub, const char *placement)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "(APIServer pid=4090) INFO 03-04 10:15:02 [utils.py:233] non-default args: "
                    "{'model': '/models/q3-32b', 'tensor_parallel_size': 2, "
                    "'distributed_executor_backend': 'ray'}\n");
    az_buf_puts(&b, placement);
    az_buf_puts(&b, "[rank0]:[E304 10:27:41.551122334 ProcessGroupNCCL.cpp:683] [Rank 0] Watchdog "
                    "caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, "
                    "NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600081 milliseconds "
                    "before timing out.\n");
    struct corr_result *r = fx_scan_one(sub, "serve.log", b.data);
    az_buf_free(&b);
    return r;
}

Test(pool_groups, ray_placement_across_nodes_counts_the_machines)
{
    struct corr_result *r = ray_tp2(
        "spread", "(EngineCore_DP0 pid=4121) WARNING 03-04 10:15:22 [ray_utils.py:213] "
                  "tensor_parallel_size=2 is bigger than a reserved number of GPUs (1 GPUs) in a "
                  "node 3f9c2a0d81e7b64c55a19f0e2d7c6b8a91e04f3d2c1b0a9e8f7d6c5b. Tensor parallel "
                  "workers can be spread out to 2+ nodes which can degrade the performance unless "
                  "you have fast interconnect across nodes, like Infiniband. To resolve this "
                  "issue, make sure you have more than 2 GPUs available at each node.\n");
    double spread = fx_conf(r, "G10");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s (G10 %.2f)", fx_verdict(r), spread);
    cr_assert(fx_cites(r, NULL, "G10.ray-tp-spread-nodes"), "the placement line is G10's evidence");
    corr_result_free(r);
    /* near miss: the same TP 2 hang with no line that says where the ranks ran: a TP size and a
     * watchdog on one machine say nothing of a group across Sparks */
    r = ray_tp2("nowhere", "(EngineCore_DP0 pid=4121) INFO 03-04 10:15:22 [ray_utils.py:402] No "
                           "current placement group found. Creating a new placement group.\n");
    cr_assert_str_neq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    cr_assert_lt(fx_conf(r, "G10"), spread, "no placement %.2f, spread %.2f", fx_conf(r, "G10"),
                 spread);
    corr_result_free(r);
}

/* A two-Spark TP 2 launch whose placement group never formed (the second Spark's GPU was not in
 * the Ray cluster) stopped on vLLM's configuration error, not on the link: not G10. The same
 * launch stopped by its workers' RPC timing out is the group's own stall. */
static struct corr_result *gb10_tp2(const char *sub, const char *tail)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, SMI_GB10);
    az_buf_puts(&b, "(APIServer pid=4090) INFO 03-04 10:15:02 [utils.py:233] non-default args: "
                    "{'model': '/models/q3-32b', 'tensor_parallel_size': 2, "
                    "'distributed_executor_backend': 'ray'}\n");
    az_buf_puts(&b, tail);
    struct corr_result *r = fx_scan_one(sub, "serve.log", b.data);
    az_buf_free(&b);
    return r;
}

Test(pool_groups, placement_group_that_never_formed_is_not_g10)
{
    struct corr_result *r = gb10_tp2(
        "pg", "(EngineCore_DP0 pid=4121) ValueError: Cannot provide a placement group requiring "
              "2.0 GPUs (placement_group_specs=[{'GPU': 1.0, 'node:192.168.100.10': 0.001}, "
              "{'GPU': 1.0}]) within 1800 seconds.\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    cr_assert_str_neq(fx_verdict(r), "G10");
    corr_result_free(r);
    r = gb10_tp2("stall", "(EngineCore_DP0 pid=4121) ERROR 03-04 10:40:01 [core.py:1195] "
                          "TimeoutError: RPC call to sample_tokens timed out.\n");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* torchrun's launch configuration on each node, a Megatron TP 2 group, and the watchdog: the
 * rendezvous's two nodes count the machines where no host name or NCCL line does. */
static struct corr_result *torchrun_tp2(const char *sub, const char *min_nodes)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "[2026-02-03 09:14:27,118] torch.distributed.launcher.api: [INFO] Starting "
                    "elastic_operator with launch configs:\n");
    az_buf_puts(&b, "[2026-02-03 09:14:27,118] torch.distributed.launcher.api: [INFO]   entrypoint "
                    "      : pretrain_gpt.py\n");
    az_buf_printf(&b,
                  "[2026-02-03 09:14:27,118] torch.distributed.launcher.api: [INFO]   min_nodes "
                  "       : %s\n",
                  min_nodes);
    az_buf_puts(&b, "using world size: 2, data-parallel size: 1, context-parallel size: 1, "
                    "tensor-model-parallel size: 2, pipeline-model-parallel size: 1\n");
    az_buf_puts(&b, "[rank0]:[E203 09:31:02.551122334 ProcessGroupNCCL.cpp:683] [Rank 0] Watchdog "
                    "caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, "
                    "NumelIn=8192, NumelOut=8192, Timeout(ms)=600000) ran for 600040 milliseconds "
                    "before timing out.\n");
    struct corr_result *r = fx_scan_one(sub, "train.log", b.data);
    az_buf_free(&b);
    return r;
}

Test(pool_groups, torchrun_launch_config_counts_the_nodes)
{
    struct corr_result *r = torchrun_tp2("two", "2");
    double two = fx_conf(r, "G10");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s (G10 %.2f)", fx_verdict(r), two);
    corr_result_free(r);
    /* near miss: an elastic 1:N launch's lower bound says nothing of the machines that joined */
    r = torchrun_tp2("one", "1");
    cr_assert_str_neq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    cr_assert_lt(fx_conf(r, "G10"), two);
    corr_result_free(r);
}

/* ---- G6: contention for the one pool ---- */

/* vLLM's profiling check on a GB10, with nvidia-smi's compute-apps rows (`apps`) beside it. */
static struct corr_result *profiling_rose(const char *sub, const char *apps)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, SMI_GB10);
    az_buf_puts(&b, apps);
    az_buf_puts(&b, "(EngineCore_DP0 pid=733) ERROR 03-05 08:12:40 [core.py:708] AssertionError: "
                    "Error in memory profiling. Initial free memory 61.42 GiB, current free memory "
                    "63.07 GiB. This happens when other processes sharing the same container "
                    "release GPU memory while vLLM is profiling during initialization. To fix "
                    "this, ensure consistent GPU memory allocation or isolate vLLM in its own "
                    "container.\n");
    struct corr_result *r = fx_scan_one(sub, "vllm.log", b.data);
    az_buf_free(&b);
    return r;
}

Test(pool_groups, free_memory_that_rose_while_vllm_profiled_is_g6_beside_a_second_holder)
{
    struct corr_result *r =
        profiling_rose("two", "VLLM::EngineCore, 58211 MiB\npython3, 30720 MiB\n");
    cr_assert_str_eq(fx_verdict(r), "G6", "verdict %s", fx_verdict(r));
    cr_assert(fx_cites(r, NULL, "G6.vllm-profiling-free-rose"), "the assertion is G6's evidence");
    double two = fx_conf(r, "G6");
    corr_result_free(r);
    /* near miss: the assertion alone, no other holder shown: a hint (the page cache being
     * reclaimed raises the same free figure), no verdict */
    r = profiling_rose("alone", "");
    cr_assert_gt(fx_conf(r, "G6"), 0.0, "the assertion is read as a hint");
    cr_assert_lt(fx_conf(r, "G6"), two, "alone %.2f, beside a second holder %.2f", fx_conf(r, "G6"),
                 two);
    cr_assert_str_neq(fx_verdict(r), "G6", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* ---- G3: the unified pool's capacity ---- */

/* llama.cpp on a GB10 whose KV cache did not fit: ggml's allocation (`mib` MiB) and the KV
 * failure llama_init_from_model prints. */
static struct corr_result *kv_failed(const char *sub, const char *mib)
{
    char text[1024];
    snprintf(text, sizeof text,
             "ggml_cuda_init: found 1 CUDA devices:\n"
             "  Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes, VRAM: 122502 MiB\n"
             "ggml_backend_cuda_buffer_type_alloc_buffer: allocating %s MiB on device 0: "
             "cudaMalloc failed: out of memory\n"
             "llama_init_from_model: failed to initialize the context: failed to allocate buffer "
             "for kv cache\n",
             mib);
    return fx_scan_one(sub, "llama-server.log", text);
}

Test(pool_groups, kv_cache_larger_than_the_pool_is_capacity_not_g3)
{
    struct corr_result *r = kv_failed("fits", "20480.00");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    cr_assert(fx_cites(r, NULL, "G3.llamacpp-kv-alloc-failed"), "the KV failure is G3's evidence");
    corr_result_free(r);
    /* a 128 GiB cache is one no 128 GB machine holds: the oom-capacity rule's over_pool */
    r = kv_failed("over", "131072.00");
    cr_assert_lt(fx_conf(r, "G3"), 0.35, "G3 %.2f", fx_conf(r, "G3"));
    cr_assert_str_neq(fx_verdict(r), "G3");
    corr_result_free(r);
}

Test(pool_groups, kv_failure_alone_on_gb10_is_read_as_an_oom)
{
    struct corr_result *r =
        fx_scan_one("kvonly", "llama-server.log",
                    "  Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes, VRAM: 122502 MiB\n"
                    "common_init_from_params: failed to create context with model "
                    "'/models/qwen3-32b-q8_0.gguf': failed to allocate buffer for kv cache\n");
    cr_assert_gt(fx_conf(r, "G3"), 0.0, "G3 %.2f", fx_conf(r, "G3"));
    corr_result_free(r);
    /* near miss: the ggml context for the cache (host bookkeeping) is not an allocation of the
     * pool */
    r = fx_scan_one("ctx", "llama-server.log",
                    "  Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes, VRAM: 122502 MiB\n"
                    "llama_init_from_model: failed to initialize the context: failed to create "
                    "ggml context for kv cache\n");
    cr_assert_eq(fx_conf(r, "G3"), 0.0, "G3 %.2f", fx_conf(r, "G3"));
    corr_result_free(r);
}

/* The same allocation failures where nothing places the run: the KV line is an OOM, not a hint
 * of unified memory, so oom-capacity's no_platform cap holds (a discrete card's own memory ran
 * out as often). */
Test(pool_groups, kv_failure_nothing_places_on_gb10_stays_below_a_verdict)
{
    struct corr_result *r =
        fx_scan_one("unplaced", "llama-server.log",
                    "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 6144.00 MiB on device "
                    "3: cudaMalloc failed: out of memory\n"
                    "llama_init_from_model: failed to initialize the context: failed to allocate "
                    "buffer for kv cache\n");
    cr_assert_str_eq(r->context.platform, "unknown");
    cr_assert(fx_cites(r, NULL, "G3.llamacpp-kv-alloc-failed"), "the KV failure is read");
    cr_assert_lt(fx_conf(r, "G3"), 0.35, "G3 %.2f", fx_conf(r, "G3"));
    corr_result_free(r);
}

/* Ollama on a GB10: its device line (total 121.7 GiB, available at start), the load-time
 * "gpu memory" line with `free`, then the runner's CUDA OOM. */
static struct corr_result *ollama_load(const char *sub, const char *free_gib)
{
    char text[2048];
    snprintf(text, sizeof text,
             "time=2026-03-02T20:58:01.100+01:00 level=INFO source=types.go:32 msg=\"inference "
             "compute\" id=0 filter_id=0 library=CUDA compute=12.1 name=CUDA0 "
             "description=\"NVIDIA GB10\" libdirs=ollama,cuda_v13 driver=13.0 "
             "pci_id=000f:01:00.0 type=iGPU total=\"121.7 GiB\" available=\"112.3 GiB\"\n"
             "time=2026-03-02T21:04:11.512+01:00 level=INFO source=sched.go:620 msg=\"gpu "
             "memory\" id=GPU-2b7d41c0 library=CUDA available=\"%s GiB\" free=\"%s GiB\" "
             "minimum=\"457.0 MiB\" overhead=\"0 B\"\n"
             "time=2026-03-02T21:04:40.007+01:00 level=ERROR source=server.go:431 msg=\"llama "
             "runner process has terminated\" error=\"CUDA error: out of memory\"\n",
             free_gib, free_gib);
    return fx_scan_one(sub, "ollama.log", text);
}

Test(pool_groups, ollama_load_time_free_sliver_of_the_pool_weighs_for_g3)
{
    struct corr_result *r = ollama_load("sliver", "14.1");
    double sliver = fx_conf(r, "G3");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert(fx_cites(r, NULL, "CTX.server-memory.ollama-gpu-memory"),
              "the gpu memory line is G3's evidence");
    corr_result_free(r);
    /* near miss: most of the pool free when the model was placed: the rule claims nothing */
    r = ollama_load("roomy", "108.9");
    cr_assert_lt(fx_conf(r, "G3"), sliver, "roomy %.2f, sliver %.2f", fx_conf(r, "G3"), sliver);
    cr_assert(!fx_cites(r, NULL, "CTX.server-memory.ollama-gpu-memory"));
    corr_result_free(r);
}

/* The servers' KV pool sizes are context: a size, no failure, so alone they name nothing (the
 * near miss is SGLang's own failure beside them, a hint of G3). */
Test(pool_groups, kv_pool_sizes_alone_name_nothing)
{
    const char *sizes =
        SMI_GB10 "[2026-02-11 09:28:39 TP0] KV Cache is allocated. #tokens: 412160, K size: "
                 "23.59 GB, V size: 23.59 GB\n"
                 "[2026-02-11 09:28:40 TP0] max_total_num_tokens=412160, "
                 "chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=2048, "
                 "context_len=131072, available_gpu_mem=9.84 GB\n"
                 "llama_kv_cache: size = 8192.00 MiB ( 65536 cells,  32 layers,  4/1 seqs), K "
                 "(f16): 4096.00 MiB, V (f16): 4096.00 MiB\n";
    struct corr_result *r = fx_scan_one("sizes", "serve.log", sizes);
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_eq(fx_conf(r, "G3"), 0.0, "G3 %.2f", fx_conf(r, "G3"));
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    char *t = az_xasprintf("%s[2026-02-11 09:28:41 TP0] RuntimeError: Not enough memory. Please "
                           "try to increase --mem-fraction-static.\n",
                           sizes);
    r = fx_scan_one("failed", "serve.log", t);
    cr_assert_gt(fx_conf(r, "G3"), 0.0, "G3 %.2f", fx_conf(r, "G3"));
    corr_result_free(r);
    free(t);
}

/* What lifts oom-capacity's no_platform cap: only the lines tagged uma-hint (nvidia-smi's memory
 * column "Not Supported", NVML's unsupported memory APIs, ...), not every weak G3 line. vLLM's
 * "No available memory for the cache blocks" (kv_cache_utils.py) prints on any GPU. The OOM is
 * PyTorch's (CUDACachingAllocator.cpp "CUDA out of memory. Tried to allocate %s."), no total. */
static struct corr_result *unplaced_oom(const char *sub, const char *extra)
{
    char text[1024];
    snprintf(text, sizeof text,
             "%s(EngineCore_DP0 pid=811) torch.OutOfMemoryError: CUDA out of memory. Tried to "
             "allocate 2.00 GiB.\n"
             "(EngineCore_DP0 pid=811) ValueError: No available memory for the cache blocks. Try "
             "increasing `gpu_memory_utilization` when initializing the engine.\n",
             extra);
    return fx_scan_one(sub, "vllm.log", text);
}

Test(pool_groups, only_unified_memory_lines_lift_the_no_platform_cap)
{
    struct corr_result *r = unplaced_oom("generic", "");
    cr_assert_str_eq(r->context.platform, "unknown");
    double generic = fx_conf(r, "G3");
    cr_assert_lt(generic, 0.35, "G3 %.2f", generic);
    corr_result_free(r);
    /* near miss: nvidia-smi's memory column reads "Not Supported", as on GB10's unified pool */
    r = unplaced_oom("uma", "| N/A   41C    P0             11W /  N/A  |     Not Supported      "
                            "|     96%      Default |\n");
    cr_assert_gt(fx_conf(r, "G3"), generic, "uma %.2f, generic %.2f", fx_conf(r, "G3"), generic);
    corr_result_free(r);
}

/* ---- G3: the unified pool all but exhausted, read from the host's own memory reports ---- */

/* A GB10 run that stopped during a model load (no error line: the host stalled), beside one
 * memory report: procps free -h (src/free.c v4.0.6: its header, then "Mem:" and six "%11s"
 * columns, available last, scale_size's "%.1f%ci"), /proc/meminfo (fs/proc/meminfo.c:
 * "MemTotal:       " / "MemAvailable:   " then the kB value and " kB"), or top -b's summary
 * (src/top/top_nls.c: "MiB Mem : ... total, ... free, ... used, ... buff/cache" and "MiB Swap:
 * ... used. ... avail Mem"). `low` is the last snapshot's available figure. */
static struct corr_result *pool_run(const char *sub, const char *form, const char *low)
{
    fx_write(sub, "train.log",
             "2026-11-20 10:00:01 INFO Using device: NVIDIA GB10 (compute capability 12.1)\n"
             "2026-11-20 10:00:05 INFO Loading checkpoint shards:  46%|####6     | 6/13\n");
    char text[1024];
    if (!strcmp(form, "free"))
        snprintf(
            text, sizeof text,
            "               total        used        free      shared  buff/cache   available\n"
            "Mem:           119Gi        12Gi        40Gi        12Mi        67Gi       107Gi\n"
            "Swap:           15Gi          0B        15Gi\n"
            "               total        used        free      shared  buff/cache   available\n"
            "Mem:           119Gi       117Gi       312Mi        12Mi       1.6Gi       %s\n"
            "Swap:           15Gi        15Gi          0B\n",
            low);
    else if (!strcmp(form, "meminfo"))
        snprintf(text, sizeof text,
                 "MemTotal:       124756992 kB\nMemFree:         3012344 kB\n"
                 "MemAvailable:   109876544 kB\nCached:         64123456 kB\n"
                 "MemTotal:       124756992 kB\nMemFree:          301234 kB\n"
                 "MemAvailable:   %s kB\nCached:          1612345 kB\n",
                 low);
    else
        snprintf(text, sizeof text,
                 "top - 10:04:11 up 3 days,  2:01,  1 user,  load average: 9.12, 5.01, 2.10\n"
                 "MiB Mem : 121833.0 total,    301.5 free, 120012.3 used,   1519.2 buff/cache\n"
                 "MiB Swap:  16384.0 total,      0.0 free,  16384.0 used.    %s avail Mem\n",
                 low);
    fx_write(sub, !strcmp(form, "meminfo") ? "meminfo.txt" : "mem.log", text);
    return fx_analyze_dir(sub);
}

static int possible_has(const struct corr_result *r, const char *id)
{
    for (size_t i = 0; i < r->npossible; i++)
        if (!strcmp(r->possible[i].entry->id, id)) return 1;
    return 0;
}

Test(pool_groups, host_memory_reports_near_empty_pool_weigh_for_g3)
{
    static const struct {
        const char *form, *sig, *low, *roomy;
    } cases[] = {
        {"free", "CTX.meminfo.free-row", "1.1Gi", "31Gi"},
        {"meminfo", "CTX.meminfo.available", "812344", "31234567"},
        {"top", "CTX.meminfo.top-avail", "1821.5", "31012.4"},
    };
    for (size_t i = 0; i < AZ_ARRAY_LEN(cases); i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "%s-low", cases[i].form);
        struct corr_result *r = pool_run(sub, cases[i].form, cases[i].low);
        cr_assert_str_eq(r->context.platform, "gb10");
        cr_assert(fx_cites(r, "G3", cases[i].sig), "%s: the lowest snapshot is G3's evidence",
                  cases[i].form);
        /* no OOM line: the stall is partial evidence, so G3 is possible, not a verdict */
        cr_assert(possible_has(r, "G3"), "%s: G3 is possible", cases[i].form);
        double low = fx_conf(r, "G3");
        corr_result_free(r);
        /* near miss: a quarter of the pool still available, the rule claims nothing */
        snprintf(sub, sizeof sub, "%s-roomy", cases[i].form);
        r = pool_run(sub, cases[i].form, cases[i].roomy);
        cr_assert(!fx_cites(r, NULL, cases[i].sig), "%s: roomy is no evidence", cases[i].form);
        cr_assert_lt(fx_conf(r, "G3"), low, "%s", cases[i].form);
        corr_result_free(r);
    }
}

/* procps 3.3.9 and older print "buffers cached" and no available column: the same six numbers
 * under that header are not read as what is available (the row counts only under the header
 * that names its last column). */
Test(pool_groups, free_without_an_available_column_is_not_read)
{
    fx_write("old", "train.log",
             "2026-11-20 10:00:01 INFO Using device: NVIDIA GB10 (compute capability 12.1)\n");
    struct corr_result *r =
        fx_scan_one("old", "mem.log",
                    "             total       used       free     shared    buffers     cached\n"
                    "Mem:     124756992  123944648     812344      12288      40960     102400\n");
    cr_assert(!fx_cites(r, NULL, "CTX.meminfo.free-row"));
    corr_result_free(r);
}
