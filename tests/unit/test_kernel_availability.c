/*
 * tests/unit/test_kernel_availability.c - the "Kernel availability on SM121" family (issue #20,
 * docs/emitters.md) with the shipped pack: a kernel, backend or dispatcher that says it has no
 * code for this GPU names G7 only on a run the inputs place on GB10, flash-attn's own kernels
 * name G2 anywhere, and the lines that state the device's capability place the run.
 *
 * Where the line shapes come from (each built from the emitter's format string with values of
 * our own, not copied from a thread):
 *  - FlashInfer nightly-v0.6.18 (fb28d72) flashinfer/utils.py backend_requirement:
 *    "{fn} does not support backend '{b}' with capability {major*10+minor}";
 *    csrc/trtllm_batched_gemm_runner.cu "Error occurred when running GEMM! (numBatches: ...";
 *    include/flashinfer/exception.h "Error in function '%s' at %s:%d: %s";
 *    flashinfer/autotuner/autotuner.py "[Autotuner]: Skipping tactic {r} {tac}, due to failure
 *    while profiling: {e}";
 *  - vLLM fused_moe/oracle/mxfp8.py "Using '%s' MxFp8 MoE backend.", oracle/int_wna16.py's
 *    WNA16 line of the same shape; vLLM's logger header "INFO 05-30 10:02:11 [file.py:88] ";
 *  - Triton python/triton/runtime/errors.py OutOfResources: "out of resource: {name}, Required:
 *    {required}, Hardware limit: {limit}. Reducing block sizes or `num_stages` may help.";
 *  - DeepGEMM csrc/utils/exception.hpp "Assertion error (%s:%d): %s" with get_default_recipe's
 *    "Unknown recipe"; glibc ld.so "undefined symbol: %s";
 *  - flash-attention hopper/cuda_check.h "CUDA error (%s:%d): %s\n" (the poster's copy may
 *    break the line after the location, as here) and flash_attn/cute/interface.py's asserts;
 *  - xformers v0.0.35 ops/fmha/common.py "requires device with capability <= %s but your GPU
 *    has capability %s (too new)"; ggml-cuda.cu's "  Device %d: %s, compute capability %d.%d,
 *    VMM: %s, VRAM: %zu MiB"; deviceQuery's "CUDA Capability Major/Minor version number:";
 *  - ptxas's "<file>, line <n>; error   : Feature '%s' not supported on .target '%s'" with the
 *    PTX ISA's sm_100a/sm_90a-only qualifiers and instructions; vLLM fused_moe/modular_kernel.py
 *    (commit 003d383) is_supported_config's "kernel does not support current device {device}";
 *    DeepGEMM (54e2261) csrc/utils/exception.hpp DG_CUDA_DRIVER_CHECK "CUDA driver error (%s:%d):
 *    %d (%s, %s)" with cuda.h's CUresult names; TileLang (a35008a) tilelang/carver/arch/cuda.py
 *    "Unsupported architecture: {arch}" with CUDA.__repr__ "CUDA({target})".
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "correlate/corr.h"
#include "scan_fixture.h"

/* A GB10 and an RTX 5090 (SM 12.0: the same SM12x family, not GB10), as ggml prints them. */
#define GB10_LINE "  Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes, VRAM: 122502 MiB\n"
#define RTX_LINE                                                                                   \
    "  Device 0: NVIDIA GeForce RTX 5090, compute capability 12.0, VMM: yes, VRAM: 32607 MiB\n"

TestSuite(kernel_availability, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

/* Write text as sub/serve.log, scan it, and assert that it was read: a negative result must
 * come from input the scan saw. */
static struct corr_result *scan(const char *sub, const char *text)
{
    return fx_scan_one(sub, "serve.log", text);
}

/* line names want on a GB10, and not G7 beside an RTX 5090 (other, when given, is the line the
 * RTX prints instead); on the RTX the line is still read as a hint. */
static void expect_on_gb10_only(const char *sub, const char *want, const char *line,
                                const char *other)
{
    char *t = az_xasprintf(GB10_LINE "%s\n", line);
    struct corr_result *r = scan(sub, t);
    cr_assert_str_eq(r->context.platform, "gb10", "%s", line);
    cr_assert_str_eq(fx_verdict(r), want, "%s on GB10: verdict %s", line, fx_verdict(r));
    corr_result_free(r);
    free(t);
    char osub[64];
    snprintf(osub, sizeof osub, "%s-rtx", sub);
    t = az_xasprintf(RTX_LINE "%s\n", other ? other : line);
    r = scan(osub, t);
    cr_assert_str_eq(r->context.platform, "other", "%s", line);
    cr_assert_str_neq(fx_verdict(r), "G7", "%s off GB10: verdict %s", line, fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G7"), 0.0, "%s off GB10 is still read as a hint", line);
    corr_result_free(r);
    free(t);
}

/* FlashInfer's backend check prints the device's own capability: 121 places the run on GB10 by
 * itself, so the one line names G7; 120 (an RTX 50) places it off GB10 and names nothing. */
Test(kernel_availability, a_backend_check_naming_capability_121_places_gb10_and_names_g7)
{
    struct corr_result *r = scan("fi121", "flashinfer.utils.BackendSupportedError: bmm_fp8 does "
                                          "not support backend 'cutlass' with capability 121\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = scan("fi120", "flashinfer.utils.BackendSupportedError: bmm_fp8 does not support backend "
                      "'cutlass' with capability 120\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_eq(fx_verdict(r), "none", "an sm_120 kernel refused on an RTX 50 is not G7");
    corr_result_free(r);
    /* a backend refused without a capability (no tensor argument) is no arch statement */
    r = scan(
        "fiauto",
        "flashinfer.utils.BackendSupportedError: No suitable auto backends found for mm_fp4\n");
    cr_assert_str_eq(r->context.platform, "unknown");
    cr_assert_eq(fx_conf(r, "G7"), 0.0);
    corr_result_free(r);
}

Test(kernel_availability, kernel_families_name_g7_on_gb10_only)
{
    expect_on_gb10_only("trtllm", "G7",
                        "RuntimeError: Error in function 'run' at "
                        "/workspace/csrc/trtllm_batched_gemm_runner.cu:383: Error occurred when "
                        "running GEMM! (numBatches: 32, GemmMNK: 128 4096 2048, Kernel: "
                        "bmm_E2m1_E2m1E2m1_Fp32_t128x8x512_s4_sm100f)",
                        NULL);
    expect_on_gb10_only("marlin", "G7",
                        "INFO 05-30 10:02:11 [mxfp8.py:88] Using 'MARLIN' MxFp8 MoE backend.",
                        NULL);
    expect_on_gb10_only("deepgemm", "G7",
                        "RuntimeError: Assertion error (csrc/jit_kernels/impls/layout.hpp:71): "
                        "Unknown recipe",
                        NULL);
    expect_on_gb10_only("symbol", "G7",
                        "ImportError: /opt/venv/lib/python3.12/site-packages/vllm/_C.abi3.so: "
                        "undefined symbol: _Z20cutlass_moe_mm_sm100RN2at6TensorERKS0_S3_bb",
                        NULL);
    expect_on_gb10_only("unsupported", "G7", "RuntimeError: Unsupported architecture", NULL);
    /* flashinfer trace/templates/gemm.py: f"mm_bf16_fp4 is not supported on SM{major}{minor}" */
    expect_on_gb10_only("notsm", "G7", "NotImplementedError: mm_bf16_fp4 is not supported on SM121",
                        "NotImplementedError: mm_bf16_fp4 is not supported on SM120");
    expect_on_gb10_only("guard", "G7", "ValueError: TGV GEMM requires SM100, SM103 architecture",
                        NULL);
    /* vLLM's attention selector: every backend refused the device's capability */
    expect_on_gb10_only("attn", "G7",
                        "ValueError: No valid attention backend found for cuda with "
                        "AttentionSelectorConfig(head_size=576, dtype=torch.bfloat16, "
                        "use_mla=True, use_sparse=True). Reasons: {FLASHMLA_SPARSE: [compute "
                        "capability not supported], FLASHINFER_MLA: [sparse not supported, "
                        "compute capability not supported]}.",
                        NULL);
    expect_on_gb10_only("triton", "G7",
                        "triton.runtime.errors.OutOfResources: out of resource: shared memory, "
                        "Required: 196608, Hardware limit: 101376. Reducing block sizes or "
                        "`num_stages` may help.",
                        NULL);
}

/* The same GEMM failure logged by FlashInfer's autotuner, which skipped the tactic and went on,
 * is no failed run: on a GB10 it names nothing. Weight-only Marlin for a WNA16 (int4) MoE is the
 * native path, not a fallback. A CPU architecture an installer refuses is not a kernel's. */
Test(kernel_availability, a_skipped_tactic_native_marlin_and_a_cpu_arch_are_not_g7)
{
    static const char *const lines[] = {
        "[Autotuner]: Skipping tactic <TrtllmGenBatchedGemmRunner> 7, due to failure while "
        "profiling: Error occurred when running GEMM!",
        "INFO 08-03 21:02:58 [int_wna16.py:197] Using 'MARLIN' WNA16 MoE backend.",
        "ERROR: Unsupported architecture: aarch64",
        "RuntimeError: XQA is only supported on SM90, SM100, SM120/SM121 GPUs",
        /* one backend failed for another reason (sparse): the capability is not the cause */
        "ValueError: No valid attention backend found for cuda with "
        "AttentionSelectorConfig(head_size=576, use_mla=True, use_sparse=True). Reasons: "
        "{FLASHMLA_SPARSE: [compute capability not supported], TRITON_MLA: [sparse not "
        "supported]}.",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "neg%zu", i);
        char *t = az_xasprintf(GB10_LINE "%s\n", lines[i]);
        struct corr_result *r = scan(sub, t);
        cr_assert_str_eq(r->context.platform, "gb10");
        cr_assert_eq(fx_conf(r, "G7"), 0.0, "%s weighs G7 %.2f", lines[i], fx_conf(r, "G7"));
        corr_result_free(r);
        free(t);
    }
}

/* Triton's 99 KB limit is every SM12x part's (and SM86/89's): alone it places nothing, so the
 * one line stays a hint where nothing else says GB10. */
Test(kernel_availability, the_shared_memory_limit_alone_does_not_place_gb10)
{
    struct corr_result *r = scan("smem", "triton.runtime.errors.OutOfResources: out of resource: "
                                         "shared memory, Required: 196608, Hardware limit: 101376. "
                                         "Reducing block sizes or `num_stages` may help.\n");
    cr_assert_str_eq(r->context.platform, "unknown");
    cr_assert_str_eq(fx_verdict(r), "none");
    cr_expect_gt(fx_conf(r, "G7"), 0.0, "read as a hint");
    corr_result_free(r);
}

/* Lines that state the device's capability place the run; a requirement does not. */
Test(kernel_availability, the_devices_capability_places_the_run_a_requirement_does_not)
{
    static const struct {
        const char *text, *platform;
    } cases[] = {
        {"  CUDA Capability Major/Minor version number:    12.1\n", "gb10"},
        {"`fa3F@2.8.0` is not supported because:\n    requires device with capability <= (9, 0) "
         "but your GPU has capability (12, 0) (too new)\n",
         "other"},
        {"ValueError: backend='sparse' requires SM120/SM121, got SM100\n", "other"},
        {"device_name: GB10\n", "gb10"},
        {"    requires device with capability >= (8, 0)\n", "unknown"},
        {"TORCH_CUDA_ARCH_LIST=12.0\n", "unknown"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "cap%zu", i);
        struct corr_result *r = scan(sub, cases[i].text);
        cr_assert_str_eq(r->context.platform, cases[i].platform, "%s", cases[i].text);
        corr_result_free(r);
    }
}

/* flash-attn's own kernels are G2 on any machine: a CUDA error its check macro locates in its
 * hopper/ sources (FA3, here bundled by xformers), with "no kernel image" on the next line, and
 * FA4's arch assert. The same error located in vLLM's own csrc is not flash-attn's. */
Test(kernel_availability, flash_attn_own_kernels_are_g2_anywhere)
{
    struct corr_result *r =
        scan("fa3", RTX_LINE "CUDA error (/opt/xformers/third_party/flash-attention/hopper/"
                             "flash_fwd_launch_template.h:188):\n"
                             "  no kernel image is available for execution on the device\n");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = scan("vllm-csrc",
             RTX_LINE "CUDA error (/opt/vllm/csrc/attention/paged_attention_v1.cu:42):\n"
                      "  no kernel image is available for execution on the device\n");
    cr_assert_str_neq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = scan("fa4", "AssertionError: Unsupported compute capability. Supported: 10.x, 11.x\n");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* ptxas refusing an instruction or PTX feature of another SM family (TMA .tile::gather4 and
 * .cta_group are sm_100a/100f/110f in the PTX ISA, tcgen05 sm_100a, wgmma sm_90a) in code built
 * for sm_121a: the target is the device's own SM (Triton compiles for the GPU it runs on), so the
 * line alone places the run on GB10 and names G7. The same refusal for sm_120a is an RTX 50's
 * build: it places nothing as GB10 and G7 does not read it. */
Test(kernel_availability, ptxas_feature_of_another_sm_in_sm121_code_is_g7_and_sm120_is_not)
{
    static const char *const feats[] = {"Feature '.tile::gather4'", "Feature '.cta_group::2'",
                                        "Instruction 'tcgen05.alloc'",
                                        "Instruction 'wgmma.mma_async'"};
    for (size_t i = 0; i < sizeof feats / sizeof feats[0]; i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "ptx121-%zu", i);
        char *t = az_xasprintf("ptxas /tmp/tmpk3v9x2ab.ptx, line 2210; error   : %s not "
                               "supported on .target 'sm_121a'\n",
                               feats[i]);
        struct corr_result *r = scan(sub, t);
        cr_assert_str_eq(r->context.platform, "gb10", "%s", t);
        cr_assert_str_eq(fx_verdict(r), "G7", "%s: verdict %s", t, fx_verdict(r));
        corr_result_free(r);
        free(t);
    }
    struct corr_result *r =
        scan("ptx120", RTX_LINE "ptxas /tmp/tmpk3v9x2ab.ptx, line 2210; error   : Feature "
                                "'.tile::gather4' not supported on .target 'sm_120a'\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_neq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    cr_assert_eq(fx_conf(r, "G7"), 0.0, "an sm_120a build's refusal is not read as G7");
    corr_result_free(r);
}

/* vLLM's MoE oracle (fused_moe/modular_kernel.py is_supported_config: f"kernel does not support
 * {reason}" with reason f"current device {current_platform.device_name}"; the oracle's "{quant}
 * MoE backend '{b}' does not support the deployment configuration since {reason}.") and
 * DeepGEMM's JIT (csrc/utils/exception.hpp DG_CUDA_DRIVER_CHECK: "CUDA driver error (%s:%d): %d
 * (%s, %s)" around cuLibraryLoadFromFile in csrc/jit/handle.hpp) refusing the device: G7 on a
 * GB10 only; so does TileLang's carver. A MoE backend refused for its quantization scheme is not
 * an arch statement. */
Test(kernel_availability, moe_gate_deepgemm_jit_and_tilelang_arch_name_g7_on_gb10_only)
{
    expect_on_gb10_only("moegate", "G7",
                        "ValueError: Mxfp4 MoE backend 'FLASHINFER_TRTLLM_MXFP4_BF16' does not "
                        "support the deployment configuration since kernel does not support "
                        "current device cuda.",
                        NULL);
    expect_on_gb10_only("dgjit", "G7",
                        "RuntimeError: CUDA driver error (/opt/deep_gemm/csrc/jit/handle.hpp:156): "
                        "200 (CUDA_ERROR_INVALID_IMAGE, device kernel image is invalid)",
                        NULL);
    /* TileLang's carver (tilelang/carver/arch/cuda.py: f"Unsupported architecture: {arch}", the
     * device printed as f"CUDA({self.target})") has tensor-core tables up to Hopper only */
    expect_on_gb10_only("tilelang", "G7",
                        "ValueError: Unsupported architecture: CUDA(cuda -keys=cuda,gpu "
                        "-arch=sm_121 -max_num_threads=1024 -thread_warp_size=32)",
                        "ValueError: Unsupported architecture: CUDA(cuda -keys=cuda,gpu "
                        "-arch=sm_120 -max_num_threads=1024 -thread_warp_size=32)");
    /* 209 from the same check is DeepGEMM's kernel, not a framework build without the GPU's code:
     * G7 on GB10, and G1's "no kernel image" line does not take it */
    struct corr_result *r =
        scan("dgjit209", GB10_LINE "RuntimeError: CUDA driver error (csrc/jit/handle.hpp:141): 209 "
                                   "(CUDA_ERROR_NO_BINARY_FOR_GPU, no kernel image is available "
                                   "for execution on the device)\n");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    cr_assert_eq(fx_conf(r, "G1"), 0.0, "G1 weighs %g", fx_conf(r, "G1"));
    corr_result_free(r);
    r = scan("moequant", GB10_LINE "ValueError: NvFp4 MoE backend 'FLASHINFER_CUTLASS' does not "
                                   "support the deployment configuration since kernel does not "
                                   "support quantization scheme kNvfp4StaticxkNvfp4Dynamic.\n");
    /* the NvFp4 word alone is CTX.quant's hint (0.15); a device-gate line would add 0.2 more */
    cr_assert_str_neq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    cr_assert_lt(fx_conf(r, "G7"), 0.2, "G7 weighs %g", fx_conf(r, "G7"));
    corr_result_free(r);
}

/* FlashInfer's SM120/SM121 FP4 runner tags its StreamK tiles (fp4_gemm_template_sm120.h
 * runFp4GemmImpl: "[FP4 gemm Runner" + scheduler_name + "] ", scheduler_name " StreamK"): the
 * raised failure is G7 on a GB10 only, as the untagged DP runner's. */
Test(kernel_availability, fp4_runner_streamk_tag_is_the_same_runner)
{
    expect_on_gb10_only("streamk", "G7",
                        "RuntimeError: [FP4 gemm Runner StreamK] Failed to initialize cutlass FP4 "
                        "gemm on sm120/sm121. Error: Error Internal",
                        NULL);
}

/* Guards and selectors that refuse a quantized kernel without naming the device (issue #20):
 * the line names the mechanism, never the platform. Each names G7 only beside a line that places
 * the run on GB10, is a hint beside an RTX 5090, and alone leaves G7 possible with the command
 * that places the run. Shapes from the emitters' format strings:
 *  - FlashInfer nightly-v0.6.18 (fb28d72) flashinfer/prefill.py fmha_v2_prefill_sm120 ("... is
 *    only supported on SM120 GPUs; SM121 has not been validated.", raised for a capability other
 *    than (12, 0)) and v0.6.2 flashinfer/xqa.py ("XQA MLA is only supported on SM120 GPUs");
 *  - vLLM vllm/v1/attention/backends/mla/prefill/selector.py: f"Selected MLA prefill backend
 *    {name} is not valid for this configuration. Reason: {invalid_reasons}" (a Python list);
 *  - vLLM vllm/v1/attention/backends/flashinfer.py: "--kv-cache-dtype nvfp4 requires the SM100
 *    trtllm-gen FlashInfer path.";
 *  - Kimi-K3's model code kimi_k3/nvidia/mla.py _decode_concat_cache's assert message. */
static const char *const UNPLACED_GUARDS[] = {
    "ValueError: fmha_v2_prefill_sm120 is only supported on SM120 GPUs; SM121 has not been "
    "validated.",
    "RuntimeError: XQA MLA is only supported on SM120 GPUs",
    "ValueError: Selected MLA prefill backend FLASHINFER is not valid for this configuration. "
    "Reason: ['compute capability not supported']",
    "ValueError: --kv-cache-dtype nvfp4 requires the SM100 trtllm-gen FlashInfer path.",
    "AssertionError: Kimi-K3 fp8 KV cache decode requires a backend that accepts an fp8 "
    "(quantized) query input.",
};

Test(kernel_availability, guards_without_the_device_name_g7_on_gb10_only_else_possible)
{
    char sub[32];
    for (size_t i = 0; i < sizeof UNPLACED_GUARDS / sizeof UNPLACED_GUARDS[0]; i++) {
        snprintf(sub, sizeof sub, "guard%zu", i);
        expect_on_gb10_only(sub, "G7", UNPLACED_GUARDS[i], NULL);
        snprintf(sub, sizeof sub, "alone%zu", i);
        char *t = az_xasprintf("%s\n", UNPLACED_GUARDS[i]);
        struct corr_result *r = scan(sub, t);
        cr_assert_str_eq(r->context.platform, "unknown", "%s", UNPLACED_GUARDS[i]);
        cr_assert_str_neq(fx_verdict(r), "G7", "%s alone: verdict %s", UNPLACED_GUARDS[i],
                          fx_verdict(r));
        cr_assert_geq(r->npossible, 1, "%s alone: nothing possible", UNPLACED_GUARDS[i]);
        cr_assert_str_eq(r->possible[0].entry->id, "G7", "%s", UNPLACED_GUARDS[i]);
        cr_assert(r->possible[0].by_platform, "%s: the platform decides", UNPLACED_GUARDS[i]);
        corr_result_free(r);
        free(t);
    }
}

/* An SM120-only guard is refused by an SM121 device, but a guard that admits SM12x or lists
 * SM121 says nothing of GB10 (FlashInfer v0.6.4's "SM12x", the XQA list "SM120/SM121"). */
Test(kernel_availability, guards_admitting_sm121_are_not_read)
{
    static const char *const lines[] = {
        "ValueError: fmha_v2_prefill_deepseek is only supported on SM12x GPUs.",
        "RuntimeError: XQA MLA is only supported on SM120/SM121 GPUs",
        "ValueError: --kv-cache-dtype nvfp4 requires sm100f or SM12x, please try a different "
        "dtype or remove it.",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "admit%zu", i);
        char *t = az_xasprintf(GB10_LINE "%s\n", lines[i]);
        struct corr_result *r = scan(sub, t);
        cr_assert_str_eq(r->context.platform, "gb10", "the GB10 line was read");
        cr_assert_str_neq(fx_verdict(r), "G7", "%s: verdict %s", lines[i], fx_verdict(r));
        cr_assert_lt(fx_conf(r, "G7"), 0.2, "%s weighs G7 %.2f", lines[i], fx_conf(r, "G7"));
        corr_result_free(r);
        free(t);
    }
}

/* vLLM's selector refusing a backend for the KV-cache dtype is a hint even on GB10 (Triton has
 * no nvfp4 KV on any GPU; FlashInfer's refusal is family 100's): G7 stays possible, no verdict;
 * also when a console wrapped the message before "for this configuration". A reason that is no
 * dtype or arch (attention sinks) is not read. */
Test(kernel_availability, kv_dtype_refusal_is_a_hint_even_on_gb10)
{
    struct corr_result *r =
        scan("kvgb10", GB10_LINE "ValueError: Selected backend AttentionBackendEnum.FLASH_ATTN is "
                                 "not valid\nfor this configuration. Reason: ['kv_cache_dtype not "
                                 "supported']\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_neq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    cr_assert_gt(fx_conf(r, "G7"), 0.0, "the wrapped reason is read: %.2f", fx_conf(r, "G7"));
    cr_assert_geq(r->npossible, 1);
    cr_assert_str_eq(r->possible[0].entry->id, "G7");
    corr_result_free(r);
    r = scan("kvrtx", RTX_LINE "ValueError: Selected backend AttentionBackendEnum.FLASH_ATTN is "
                               "not valid for this configuration. Reason: ['kv_cache_dtype not "
                               "supported']\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_neq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    cr_assert_eq(r->npossible, 0, "G7 off GB10: %zu possible", r->npossible);
    corr_result_free(r);
    r = scan("sink", GB10_LINE "ValueError: Selected backend AttentionBackendEnum.FLASHINFER is "
                               "not valid for this configuration. Reason: ['sink setting not "
                               "supported']\n");
    cr_assert_str_eq(r->context.platform, "gb10", "the input was read");
    cr_assert_eq(fx_conf(r, "G7"), 0.0, "G7 weighs %.2f", fx_conf(r, "G7"));
    corr_result_free(r);
}

/* torch.utils.cpp_extension (commit 0011ec5) _get_cuda_arch_flags: "Unknown CUDA arch ({arch})
 * or GPU not supported" for a TORCH_CUDA_ARCH_LIST entry the installed torch does not know. A
 * Blackwell arch (12.1 on GB10, 10.0 on a B200) means the torch predates the GPU: G1 on any
 * machine. A pre-Blackwell arch (8.9 on torch 1.13) and the builder's "not set" warning are not
 * read as G1. */
Test(kernel_availability, cpp_extension_unknown_blackwell_arch_is_g1_anywhere)
{
    static const char *const g1[] = {
        GB10_LINE
        "  File \"/usr/local/lib/python3.12/dist-packages/torch/utils/cpp_extension.py\", "
        "line 2340, in _get_cuda_arch_flags\n"
        "ValueError: Unknown CUDA arch (12.1) or GPU not supported\n",
        "ValueError: Unknown CUDA arch (10.0+PTX) or GPU not supported\n",
    };
    for (size_t i = 0; i < sizeof g1 / sizeof g1[0]; i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "cppext%zu", i);
        struct corr_result *r = scan(sub, g1[i]);
        cr_assert_str_eq(fx_verdict(r), "G1", "%s: verdict %s", g1[i], fx_verdict(r));
        cr_assert_not_null(fx_finding(r, "G1"));
        corr_result_free(r);
    }
    static const char *const not_g1[] = {
        "ValueError: Unknown CUDA arch (8.9) or GPU not supported\n",
        "UserWarning: TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are included "
        "for compilation.\n",
    };
    for (size_t i = 0; i < sizeof not_g1 / sizeof not_g1[0]; i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "cppold%zu", i);
        struct corr_result *r = scan(sub, not_g1[i]);
        cr_assert_str_neq(fx_verdict(r), "G1", "%s: verdict %s", not_g1[i], fx_verdict(r));
        cr_assert_lt(fx_conf(r, "G1"), 0.2, "%s weighs G1 %.2f", not_g1[i], fx_conf(r, "G1"));
        corr_result_free(r);
    }
}

/* vLLM's quantization gate (vllm/config/vllm.py): "The quantization method {q} is not supported
 * for the current GPU. Minimum capability: {min}. Current capability: {cc}." GB10 (121) is above
 * every method's minimum, so the line is an older GPU's: it places the run off GB10 and names
 * no kernel-availability gotcha. */
Test(kernel_availability, vllm_quant_min_capability_places_an_older_gpu)
{
    struct corr_result *r =
        scan("quantmin", "ValueError: The quantization method fp8 is not supported for the "
                         "current GPU. Minimum capability: 89. Current capability: 86.\n");
    cr_assert_str_eq(r->context.platform, "other", "the capability places the run");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_eq(fx_conf(r, "G7"), 0.0, "G7 weighs %.2f", fx_conf(r, "G7"));
    cr_assert_lt(fx_conf(r, "G1"), 0.2, "G1 weighs %.2f", fx_conf(r, "G1"));
    corr_result_free(r);
}

/* sgl-kernel (commit b227f63) csrc/gemm/fp8_blockwise_gemm_kernel.cu: "No implemented
 * fp8_blockwise_scaled_mm for current compute capability: " sm_version after its SM90 / SM100
 * branches. The SM printed is the device's: 121 names G7 by itself, 120 (an RTX 50) places the
 * run off GB10; an int8 GEMM of the same shape is no FP8/FP4 kernel. */
Test(kernel_availability, sgl_kernel_no_implemented_names_g7_on_sm121_only)
{
    struct corr_result *r = scan("sgl121", "NotImplementedError: No implemented "
                                           "fp8_blockwise_scaled_mm for current compute "
                                           "capability: 121\n");
    cr_assert_str_eq(r->context.platform, "gb10", "the SM places the run");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = scan("sgl120", "NotImplementedError: No implemented fp8_blockwise_scaled_mm for current "
                       "compute capability: 120\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_neq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = scan("sglint8", GB10_LINE "NotImplementedError: No implemented int8_scaled_mm for current "
                                  "compute capability.\n");
    cr_assert_str_eq(r->context.platform, "gb10", "the input was read");
    cr_assert_eq(fx_conf(r, "G7"), 0.0, "int8 weighs G7 %.2f", fx_conf(r, "G7"));
    corr_result_free(r);
}

/* ggml's CUDA backend reports the archs it was compiled for (ggml-cuda.cu
 * ggml_backend_cuda_get_features: "ARCHS" = STRINGIFY(__CUDA_ARCH_LIST__), nvcc's list of
 * major*100 + minor*10), and llama.cpp's llama_print_system_info prints it as
 * "CUDA : ARCHS = ... | FEATURE = value | ". A list with SM120 code and none for SM121 on a GB10
 * is a build for another SM of the family: G7. The same list beside an RTX 5090 is that card's
 * own build, and a list with 1210 is the GB10 build. */
Test(kernel_availability, ggml_arch_list_without_sm121_is_g7_on_gb10_only)
{
    expect_on_gb10_only("ggmlarch", "G7",
                        "system_info: n_threads = 20 (n_threads_batch = 20) / 20 | CUDA : ARCHS = "
                        "750,800,860,890,1000,1200 | USE_GRAPHS = 1 | PEER_MAX_BATCH_SIZE = 128 | "
                        "BLACKWELL_NATIVE_FP4 = 1 | CPU : NEON = 1 | ARM_FMA = 1 |",
                        NULL);
    struct corr_result *r =
        scan("ggml1210", GB10_LINE "system_info: n_threads = 20 (n_threads_batch = 20) / 20 | "
                                   "CUDA : ARCHS = 1210 | USE_GRAPHS = 1 | PEER_MAX_BATCH_SIZE = "
                                   "128 | BLACKWELL_NATIVE_FP4 = 1 | CPU : NEON = 1 |\n");
    cr_assert_str_eq(r->context.platform, "gb10", "the device line was read");
    cr_assert_str_neq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    cr_assert_eq(fx_conf(r, "G7"), 0.0, "a 1210 build weighs G7 %.2f", fx_conf(r, "G7"));
    corr_result_free(r);
    /* a list with no SM12x code at all is no statement about the family (G1's question) */
    r = scan("ggmlold", GB10_LINE "CUDA : ARCHS = 600,700,800,860,890 | USE_GRAPHS = 1 |\n");
    cr_assert_str_eq(r->context.platform, "gb10", "the device line was read");
    cr_assert_eq(fx_conf(r, "G7"), 0.0, "G7 weighs %.2f", fx_conf(r, "G7"));
    corr_result_free(r);
}

/* DeepGEMM's check macros (csrc/utils/exception.hpp: DGException("CUDA driver" | "CUDA runtime",
 * __FILE__, __LINE__, "<code> (<name>, <string>)")) around its JIT kernel's launch
 * (csrc/jit/handle.hpp launch_kernel): a launch failure or an illegal instruction is G7 on a
 * GB10 (its kernels are SM90 / SM100 code), a hint on an RTX 5090, and alone leaves G7 possible
 * with the command that places the run. Out of memory from the same macro is not read. */
Test(kernel_availability, deepgemm_launch_failure_is_g7_on_gb10_else_possible)
{
    static const char line[] = "RuntimeError: CUDA driver error (/opt/dg/csrc/jit/handle.hpp:149): "
                               "719 (CUDA_ERROR_LAUNCH_FAILED, unspecified launch failure)";
    expect_on_gb10_only("dglaunch", "G7", line, NULL);
    char *t = az_xasprintf("%s\n", line);
    struct corr_result *r = scan("dgalone", t);
    cr_assert_str_eq(r->context.platform, "unknown");
    cr_assert_str_neq(fx_verdict(r), "G7", "alone: verdict %s", fx_verdict(r));
    cr_assert_geq(r->npossible, 1, "alone: nothing possible");
    cr_assert_str_eq(r->possible[0].entry->id, "G7");
    cr_assert(r->possible[0].by_platform, "the platform decides");
    corr_result_free(r);
    free(t);
    r = scan("dgoom", GB10_LINE "RuntimeError: CUDA driver error (csrc/jit/handle.hpp:149): 2 "
                                "(CUDA_ERROR_OUT_OF_MEMORY, out of memory)\n");
    cr_assert_str_eq(r->context.platform, "gb10", "the device line was read");
    cr_assert_eq(fx_conf(r, "G7"), 0.0, "G7 weighs %.2f", fx_conf(r, "G7"));
    corr_result_free(r);
}

/* CuTe DSL's arch guard (NVIDIA/cutlass v4.3.0 python/CuTeDSL/cutlass/cute/nvgpu/tcgen05/mma.py
 * MmaOp.__post_init__: f"expects arch to be one of {self.admissible_archs}, but got {arch}",
 * raised as OpError, whose base_dsl/common.py message is "OpError: <message>" then "Error Code:
 * <Op> error"). A quantized MMA (MmaMXF4NVF4Op) refusing sm_121a is a quantized kernel written
 * for another SM: the line places the run on GB10 and names G7. An FP16 MMA (MmaF16BF16Op) of
 * the user's own code refused the same way is a hint only (an SM100 tutorial is no kernel
 * availability failure). The same guard inside flash-attn 4's CuTe kernels (a flash_attn/cute
 * frame, or a pytest id of its tests/cute suite) is flash-attn's own kernel: G2 by the labelling
 * rules, with G7 lowered. sm_120a (an RTX 50) is not G7; another OpError of the same module is
 * no arch statement. */
Test(kernel_availability, cute_dsl_arch_guard_is_g7_on_gb10_and_g2_inside_flash_attn_4)
{
    static const char guard[] = "cutlass.cute.nvgpu.common.OpError: OpError: expects arch to be "
                                "one of [Arch.sm_100a, Arch.sm_100f, Arch.sm_103a], but got "
                                "Arch.sm_121a\nError Code: MmaF16BF16Op error\n";
    char *t = az_xasprintf("Traceback (most recent call last):\n"
                           "  File \"/srv/app/kernels/grouped_gemm.py\", line 77, in build\n"
                           "    mma = make_tiled_mma(op)\n"
                           "cutlass.cute.nvgpu.common.OpError: OpError: expects arch to be one of "
                           "[Arch.sm_100a, Arch.sm_103a], but got Arch.sm_121a\n"
                           "Error Code: MmaMXF4NVF4Op error\n");
    struct corr_result *r = scan("cute-nvfp4", t);
    cr_assert_str_eq(r->context.platform, "gb10", "got sm_121a names the GPU's own arch");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    free(t);

    t = az_xasprintf("  File \"/home/me/tutorial/fp16_gemm.py\", line 240, in kernel\n%s", guard);
    r = scan("cute-fp16-own", t);
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_neq(fx_verdict(r), "G7", "the user's own FP16 kernel: verdict %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G7"), 0.0, "the guard is read as a hint");
    corr_result_free(r);
    free(t);

    t = az_xasprintf("Traceback (most recent call last):\n"
                     "  File \"/opt/venv/lib/python3.12/site-packages/flash_attn/cute/"
                     "flash_fwd_sm100.py\", line 412, in __call__\n"
                     "    tiled_mma_qk = sm100_utils_basic.make_trivial_tiled_mma(\n%s",
                     guard);
    r = scan("cute-fa4", t);
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    cr_expect_lt(fx_conf(r, "G7"), 0.35, "flash-attn's own kernel is not G7");
    corr_result_free(r);
    free(t);

    r = scan("cute-fa4-test",
             "FAILED tests/cute/test_score_mod.py::test_score_mod_causal[32-64-bfloat16] - "
             "cutlass.cute.nvgpu.common.OpError: OpError: expects arch to be one of "
             "[Arch.sm_100a, Arch.sm_110a], but got Arch.sm_121a\n");
    cr_assert_str_eq(fx_verdict(r), "G2", "a pytest id of FA4's suite: verdict %s", fx_verdict(r));
    corr_result_free(r);

    r = scan("cute-rtx", RTX_LINE "OpError: expects arch to be one of ['sm_100a', 'sm_100f'], "
                                  "but got sm_120a\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_neq(fx_verdict(r), "G7", "an RTX 50 is not GB10: verdict %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G7"), 0.0, "the guard is still read as a hint");
    corr_result_free(r);

    r = scan("cute-param", GB10_LINE "cutlass.cute.nvgpu.common.OpError: OpError: expects the "
                                     "'a_src' Op parameter to be a warpgroup.OperandSource "
                                     "instance\n");
    cr_assert_str_eq(r->context.platform, "gb10", "the input was read");
    cr_assert_eq(fx_conf(r, "G7"), 0.0, "a parameter check is no arch guard");
    corr_result_free(r);
}

/* xformers v0.0.35 (commit 03b91d7) ops/fmha/dispatch.py _run_priority_list: "No operator found
 * for `{name}` with inputs:" then, per operator, "`{op.NAME}` is not supported because:" and
 * its reasons (common.py not_supported_reasons: "requires device with capability <= {max} but
 * your GPU has capability {cc} (too new)"; "operator wasn't built - see `python -m
 * xformers.info` for more info"). The dispatcher's failure with an operator refusing the GPU as
 * too new is G2 (flash-attn 3 and CUTLASS kernels bundled by xformers stop at SM90) on any
 * machine; the same header over dtype or shape reasons is not, and the reason alone stays a
 * hint. */
#define XF_HEADER                                                                                  \
    "NotImplementedError: No operator found for `memory_efficient_attention_forward` with "        \
    "inputs:\n"                                                                                    \
    "     query       : shape=(1, 4096, 16, 128) (torch.bfloat16)\n"                               \
    "     key         : shape=(1, 4096, 16, 128) (torch.bfloat16)\n"                               \
    "     value       : shape=(1, 4096, 16, 128) (torch.bfloat16)\n"                               \
    "     attn_bias   : <class 'NoneType'>\n"                                                      \
    "     p           : 0.0\n"
Test(kernel_availability, xformers_dispatcher_with_a_too_new_operator_is_g2_anywhere)
{
    static const char *const caps[] = {"12, 1", "12, 0"};
    static const char *const platforms[] = {"gb10", "other"};
    for (size_t i = 0; i < 2; i++) {
        char *t =
            az_xasprintf(XF_HEADER "`fa3F@2.7.4` is not supported because:\n"
                                   "    requires device with capability <= (9, 0) but your GPU has "
                                   "capability (%s) (too new)\n"
                                   "`fa2F@0.0.0` is not supported because:\n"
                                   "    operator wasn't built - see `python -m xformers.info` for "
                                   "more info\n"
                                   "`cutlassF-pt` is not supported because:\n"
                                   "    requires device with capability <= (9, 0) but your GPU has "
                                   "capability (%s) (too new)\n",
                         caps[i], caps[i]);
        char sub[32];
        snprintf(sub, sizeof sub, "xf%zu", i);
        struct corr_result *r = scan(sub, t);
        cr_assert_str_eq(r->context.platform, platforms[i], "%s", caps[i]);
        cr_assert_str_eq(fx_verdict(r), "G2", "(%s): verdict %s", caps[i], fx_verdict(r));
        corr_result_free(r);
        free(t);
    }
    /* the reason alone (no dispatcher failure around it) is a hint */
    struct corr_result *r = scan("xf-reason", "    requires device with capability <= (9, 0) but "
                                              "your GPU has capability (12, 1) (too new)\n");
    cr_assert_str_neq(fx_verdict(r), "G2", "alone: verdict %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G2"), 0.0, "the reason is still read");
    corr_result_free(r);
    /* the header over dtype reasons is no arch statement */
    r = scan("xf-dtype", XF_HEADER "`cutlassF-pt` is not supported because:\n"
                                   "    dtype=torch.float64 (supported: {torch.float32, "
                                   "torch.float16, torch.bfloat16})\n");
    cr_assert_eq(fx_conf(r, "G2"), 0.0, "G2 weighs %.2f", fx_conf(r, "G2"));
    corr_result_free(r);
}

/* ggml's no_device_code (ggml v0.21.0-2, d99724f, src/ggml-cuda/common.cuh: "%s:%d: ERROR: CUDA
 * kernel %s has no device code compatible with CUDA arch %d. ggml-cuda.cu was compiled for:
 * %s", the arch being __CUDA_ARCH__ of the code that ran). A list with no SM10x-12x entry is a
 * build without the GPU's generation: G1 on a GB10 and beside an RTX 50's device line, a hint
 * on an older GPU; a list with 1200 on GB10 stays G7 (SM120 code). */
Test(kernel_availability, ggml_device_code_of_a_build_without_blackwell_is_g1)
{
    static const char line[] = "/opt/llama.cpp/ggml/src/ggml-cuda/mmq.cuh:3211: ERROR: CUDA "
                               "kernel mul_mat_q has no device code compatible with CUDA arch "
                               "860. ggml-cuda.cu was compiled for: 610,700,750,800,860\n";
    char *t = az_xasprintf(GB10_LINE "%s", line);
    struct corr_result *r = scan("gg-gb10", t);
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    cr_assert(fx_cites(r, "G1", "G1.ggml-pre-blackwell-device-code"));
    corr_result_free(r);
    free(t);
    t = az_xasprintf(RTX_LINE "%s", line);
    r = scan("gg-rtx", t);
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    free(t);
    t = az_xasprintf("  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes, "
                     "VRAM: 24124 MiB\n%s",
                     line);
    r = scan("gg-3090", t);
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_neq(fx_verdict(r), "G1", "an older GPU: verdict %s", fx_verdict(r));
    corr_result_free(r);
    free(t);
    r = scan("gg-1200", GB10_LINE "/opt/llama.cpp/ggml/src/ggml-cuda/mma.cuh:894: ERROR: CUDA "
                                  "kernel mul_mat_q has no device code compatible with CUDA arch "
                                  "1200. ggml-cuda.cu was compiled for: 800,860,890,1200\n");
    cr_assert_str_eq(fx_verdict(r), "G7", "SM120 code on GB10: verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* An SM120 card named in prose without the vendor word ("The RTX PRO 6000 ...", "4x RTX 5090")
 * places the run off GB10: a CUTLASS FP4 grouped-GEMM failure there is not G7. A GB10 device
 * line beside a comparison ("slower than RTX 5090") still places GB10 and names G7. */
Test(kernel_availability, an_sm120_card_named_in_prose_places_the_run_off_gb10)
{
    static const char fail[] =
        "[TensorRT-LLM][ERROR] Assertion failed: Failed to initialize cutlass TMA WS grouped gemm. "
        "Error: Error Internal "
        "(/src/moe_gemm/launchers/fused_moe_gemm_sm120_M128.generated.cu:60)\n";
    char *t =
        az_xasprintf("Serving the NVFP4 checkpoint on 2x RTX PRO 6000 Blackwell cards.\n%s", fail);
    struct corr_result *r = scan("rtxpro", t);
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_neq(fx_verdict(r), "G7", "an SM120 card: verdict %s", fx_verdict(r));
    corr_result_free(r);
    free(t);
    t = az_xasprintf(GB10_LINE "decode is slower than RTX 5090 by far\n%s", fail);
    r = scan("gb10-cmp", t);
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G7", "GB10: verdict %s", fx_verdict(r));
    corr_result_free(r);
    free(t);
}

/* vLLM's ScaledMM selector (kernels/scaled_mm/__init__.py, commit 08386ee: "Failed to find a
 * kernel that can implement the ScaledMM linear layer. Reasons: \n" + each f"{kernel.__name__}
 * {failure_reason}.") with scaled_mm/cutlass.py's (commit 0525b6a) block-FP8 refusal "The device
 * compute capability of \<newline>                {cc} is not supported." (the continuation keeps
 * the indentation). The refusal names the device's capability: beside the selector's failure
 * on 121 it is G7; on 120 (an RTX 50) it is not; alone (Triton took the layer) it says nothing. */
Test(kernel_availability, vllm_selector_failure_with_a_capability_reason_is_g7_on_gb10_only)
{
    static const char head[] = "ValueError: Failed to find a kernel that can implement the "
                               "ScaledMM linear layer. Reasons: \n";
    static const char *const caps[] = {"121", "120"};
    for (size_t i = 0; i < 2; i++) {
        char *t = az_xasprintf("%sCutlassFp8BlockScaledMMKernel The device compute capability "
                               "of                 %s is not supported..\n"
                               "TritonFp8BlockScaledMMKernel requires CUDA..\n",
                               head, caps[i]);
        char sub[32];
        snprintf(sub, sizeof sub, "vsel%zu", i);
        struct corr_result *r = scan(sub, t);
        cr_assert_str_eq(r->context.platform, i ? "other" : "gb10", "%s", caps[i]);
        if (i)
            cr_assert_str_neq(fx_verdict(r), "G7", "120: verdict %s", fx_verdict(r));
        else
            cr_assert_str_eq(fx_verdict(r), "G7", "121: verdict %s", fx_verdict(r));
        corr_result_free(r);
        free(t);
    }
    struct corr_result *r = scan("vsel-alone", "CutlassFp8BlockScaledMMKernel The device compute "
                                               "capability of121 is not supported..\n");
    cr_assert_str_eq(r->context.platform, "gb10", "the reason places the run");
    cr_assert_eq(fx_conf(r, "G7"), 0.0, "alone G7 weighs %.2f", fx_conf(r, "G7"));
    corr_result_free(r);
}

/* line names want beside a GB10's device line and beside an RTX 50's: a mechanism of any machine.
 */
static void expect_anywhere(const char *sub, const char *want, const char *line)
{
    static const char *const devices[] = {GB10_LINE, RTX_LINE};
    for (size_t i = 0; i < 2; i++) {
        char *t = az_xasprintf("%s%s", devices[i], line);
        char dsub[64];
        snprintf(dsub, sizeof dsub, "%s-%zu", sub, i);
        struct corr_result *r = scan(dsub, t);
        cr_assert_str_eq(fx_verdict(r), want, "%s (%s): verdict %s", line, i ? "RTX" : "GB10",
                         fx_verdict(r));
        corr_result_free(r);
        free(t);
    }
}

/* Numba's driver-API check (NVIDIA/numba-cuda v0.30.4-4, b18b944, cudadrv/driver.py: "Call to %s
 * results in %s" % (fname, retcode.name), raised as CudaAPIError whose str is "[%s] %s"): the
 * code's name without the runtime string. CUDA_ERROR_NO_BINARY_FOR_GPU reads as "no kernel
 * image": G1 on a GB10 and beside an RTX 50's device line; another code is not read. */
Test(kernel_availability, numba_no_binary_for_gpu_reads_as_no_kernel_image)
{
    static const char line[] = "numba.cuda.cudadrv.driver.CudaAPIError: [209] Call to "
                               "cuModuleLoadDataEx results in CUDA_ERROR_NO_BINARY_FOR_GPU\n";
    expect_anywhere("nb", "G1", line);
    struct corr_result *r =
        scan("nb-other", GB10_LINE "numba.cuda.cudadrv.driver.CudaAPIError: [700] Call to "
                                   "cuMemcpyDtoH results in CUDA_ERROR_ILLEGAL_ADDRESS\n");
    cr_assert_str_eq(r->context.platform, "gb10", "the input was read");
    cr_assert_eq(fx_conf(r, "G1"), 0.0, "G1 weighs %.2f", fx_conf(r, "G1"));
    corr_result_free(r);
}

/* FlashInfer's CuTe DSL FMHA (flashinfer nightly-v0.6.18, fb28d72,
 * flashinfer/cute_dsl/attention/fmha/fmha.py) builds tcgen05 FP16/BF16 MMA atoms: on sm_121a
 * CuTe DSL's arch guard refuses them with "Error Code: MmaF16BF16Op error". An FP16 attention
 * kernel refused is a hint, never G7 alone; its block-scaled variant (fmha_blockscaled.py, a
 * block-scaled FP4 MMA) refused the same way is G7. */
Test(kernel_availability, flashinfer_cute_fmha_fp16_refusal_is_a_hint_quantized_is_g7)
{
    static const char frame[] = "  File \"/opt/venv/lib/python3.12/site-packages/flashinfer/"
                                "cute_dsl/attention/fmha/%s.py\", line 512, in __call__\n"
                                "cutlass.cute.nvgpu.common.OpError: OpError: expects arch to be "
                                "one of [Arch.sm_100a, Arch.sm_103a], but got Arch.sm_121a\n"
                                "Error Code: %s error\n";
    char *t = az_xasprintf(frame, "fmha", "MmaF16BF16Op");
    struct corr_result *r = scan("fi-fmha", t);
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_neq(fx_verdict(r), "G7", "FP16 FMHA: verdict %s", fx_verdict(r));
    cr_assert_str_neq(fx_verdict(r), "G2", "FlashInfer is not flash-attn: %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G7"), 0.0, "the guard is read as a hint");
    corr_result_free(r);
    free(t);
    t = az_xasprintf(frame, "fmha_blockscaled", "MmaMXF4NVF4Op");
    r = scan("fi-fmha-fp4", t);
    cr_assert_str_eq(fx_verdict(r), "G7", "block-scaled FMHA: verdict %s", fx_verdict(r));
    corr_result_free(r);
    free(t);
}

/* vLLM's CUTLASS MoE entry points (csrc/quantization/w8a8/cutlass/scaled_mm_entry.cu:
 * "No compiled get_cutlass_moe_mm_data: no cutlass_scaled_mm kernel for " "CUDA device
 * capability: ", version_num, ". Required capability: 90, 100, or 120") print the device's own
 * capability: 121 places the run on GB10 and names G7; the same line on an RTX 50 (120) is an
 * SM120 build gap, not G7. */
Test(kernel_availability, vllm_cutlass_moe_entry_without_an_sm121_kernel_is_g7)
{
    struct corr_result *r =
        scan("moe121", "NotImplementedError: No compiled get_cutlass_moe_mm_data: no "
                       "cutlass_scaled_mm kernel for CUDA device capability: 121. Required "
                       "capability: 90, 100, or 120\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = scan("moe-mm121", "NotImplementedError: No compiled cutlass_moe_mm for CUDA device "
                          "capability: 121. Required capability: 90\n");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = scan("moe120", "NotImplementedError: No compiled get_cutlass_moe_mm_data: no "
                       "cutlass_scaled_mm kernel for CUDA device capability: 120. Required "
                       "capability: 90 or 100\n");
    cr_assert_str_neq(fx_verdict(r), "G7", "capability 120 is not GB10");
    corr_result_free(r);
}

/* 1 when r's possible list names entry id. */
static int possible_names(const struct corr_result *r, const char *id)
{
    for (size_t i = 0; i < r->npossible; i++)
        if (strcmp(r->possible[i].entry->id, id) == 0) return 1;
    return 0;
}

/* The Hugging Face kernels library picks a Hub kernel's build by torch version, ABI, torch's CUDA,
 * CPU and OS, never by the GPU's arch (huggingface/kernels v0.16.0, commit 272cd12,
 * kernels/src/kernels/utils.py: f"Cannot find a build variant for this system in {repo_id}
 * (revision: {revision}):\n\n{variants_trace_str(trace)}"; variants.py: f"{variant_str}:
 * {reason}" with "Torch version ({v}) does not match environment Torch version ({t})" and "CUDA
 * version ({v}) is not compatible with system CUDA version ({s})"). The message is the run's
 * first error and names no gotcha; the refused builds' reasons leave G9 (another torch) or G1
 * (another CUDA major) possible, never a verdict; a higher minor of the same major is not read.
 * flash-attn's own Hub kernel without a build is G2 in every release's form (v0.4.5 97db49b
 * "Kernel `{repo_id}` at revision {revision} does not have build: {variant}", v0.8.2 f3fce86
 * "Kernel at path `{repo_path}` does not have one of build variants: {...}", v0.13.0 584b562
 * "... (revision: {revision}). Available variants: ...", v0.16.0 above). */
Test(kernel_availability, hub_kernel_without_a_build_is_a_first_error_its_reasons_possible)
{
    static const char head[] = "FileNotFoundError: Cannot find a build variant for this system in "
                               "kernels-community/activation (revision: v1):\n\n";
    char *t = az_xasprintf("%storch29-cxx11-cu130-aarch64-linux: Torch version (2.9) does not "
                           "match environment Torch version (2.10)\n"
                           "torch210-cxx11-cu128-x86_64-linux: CPU (x86_64) does not match "
                           "system CPU (aarch64)\n",
                           head);
    struct corr_result *r = scan("hubk-torch", t);
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_not_null(r->first_error_entry);
    cr_assert_str_eq(r->first_error_entry->id, "C.install", "first error %s",
                     r->first_error_entry->id);
    cr_assert(fx_cites(r, "G9", "G9.hub-kernel-torch-version"), "the torch reason was read");
    cr_assert(possible_names(r, "G9"), "another torch's build leaves G9 possible");
    corr_result_free(r);
    free(t);
    t = az_xasprintf("%storch210-cxx11-cu126-aarch64-linux: CUDA version (12.6) is not compatible "
                     "with system CUDA version (13.0)\n"
                     "torch210-cxx11-cu128-aarch64-linux: CUDA version (12.8) is not compatible "
                     "with system CUDA version (13.0)\n",
                     head);
    r = scan("hubk-cuda", t);
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert(possible_names(r, "G1"), "CUDA 12 builds under a CUDA 13 torch leave G1 possible");
    corr_result_free(r);
    free(t);
    t = az_xasprintf("%storch210-cxx11-cu129-aarch64-linux: CUDA version (12.9) is not compatible "
                     "with system CUDA version (12.8)\n",
                     head);
    r = scan("hubk-minor", t);
    cr_assert_eq(fx_conf(r, "G1"), 0.0, "a newer minor of the same major: G1 %.2f",
                 fx_conf(r, "G1"));
    corr_result_free(r);
    free(t);
    static const char *const fa[] = {
        "FileNotFoundError: Cannot find a build variant for this system in "
        "kernels-community/flash-attn3 (revision: v1):\n\ntorch29-cxx11-cu130-aarch64-linux: "
        "Torch version (2.9) does not match environment Torch version (2.10)\n",
        "FileNotFoundError: Cannot find a build variant for this system in "
        "kernels-community/flash-attn2 (revision: main). Available variants: "
        "torch28-cxx11-cu128-x86_64-linux\n",
        "FileNotFoundError: Kernel at path `/root/.cache/huggingface/hub/"
        "models--kernels-community--flash-attn/snapshots/3f1c2a9` does not have one of build "
        "variants: torch210-cxx11-cu130-aarch64-linux, torch-universal\n",
        /* transformers' load_and_register_attn_kernel (integrations/hub_kernels.py, 0170d40):
         * raise ValueError(f"An error occurred while trying to load from '{repo_id}': {e}.") */
        "ValueError: An error occurred while trying to load from 'kernels-community/flash-attn2': "
        "Cannot find a build variant for this system in kernels-community/flash-attn2 "
        "(revision: v3):\n"};
    for (size_t i = 0; i < sizeof fa / sizeof fa[0]; i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "hubk-fa%zu", i);
        r = scan(sub, fa[i]);
        cr_assert_str_eq(fx_verdict(r), "G2", "%s: verdict %s", fa[i], fx_verdict(r));
        corr_result_free(r);
    }
}

/* vLLM's attention selector failure (vllm/platforms/cuda.py, commit 002db49,
 * get_attn_backend_cls: f"No valid attention backend found for {cls.device_name} with
 * {config_str}. Reasons: {reasons_str}." with reasons_str "{NAME: [r, r], ...}") is one line;
 * a copy wrapped at a space puts its reasons on the next line or breaks the reasons between or
 * inside entries. Read as one message: every backend refusing the capability is G7 on GB10 and a
 * hint beside an RTX 50; a backend refusing something else (on the first line) is not G7. */
Test(kernel_availability, a_wrapped_attention_selector_failure_reads_as_one_message)
{
    static const char head[] = "ValueError: No valid attention backend found for cuda with "
                               "AttentionSelectorConfig(head_size=576, dtype=torch.bfloat16, ";
    char *t = az_xasprintf("%skv_cache_dtype=fp8_ds_mla, block_size=None,\nuse_mla=True, "
                           "has_sink=False, use_sparse=True). Reasons: {FLASHMLA_SPARSE: "
                           "[compute capability not supported], FLASHINFER_MLA_SPARSE: [sparse "
                           "not supported, compute capability not supported]}.",
                           head);
    expect_on_gb10_only("attn-wrap", "G7", t, NULL);
    free(t);
    t = az_xasprintf("%suse_mla=True, use_sparse=True). Reasons: {FLASHMLA_SPARSE: [compute "
                     "capability not supported], FLASHINFER_MLA_SPARSE: [sparse not supported,\n"
                     "compute capability not supported]}.",
                     head);
    expect_on_gb10_only("attn-wrap-in", "G7", t, NULL);
    free(t);
    t = az_xasprintf(GB10_LINE "%suse_mla=True, use_sparse=True). Reasons: {TRITON_MLA: [sparse "
                               "not supported],\nFLASHMLA_SPARSE: [compute capability not "
                               "supported]}.\n",
                     head);
    struct corr_result *r = scan("attn-wrap-other", t);
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_neq(fx_verdict(r), "G7", "a backend refusing sparse: verdict %s", fx_verdict(r));
    corr_result_free(r);
    free(t);
}

/* SGLang's FA3 (sgl-project/sglang python/sglang/jit_kernel/flash_attention_v3.py, commit
 * 31c27cd: _is_fa3_supported admits capability 8.x and 9.x, else raise NotImplementedError(
 * "flash_attn at sgl-kernel is only supported on sm90 and above")) is flash-attention's Hopper
 * code refusing the GPU: G2 on GB10 and off it. The same file's fallback warning, which quotes the
 * kernels library's message for the Hub FA3 build and goes on with sgl-kernel's, is no failure. */
Test(kernel_availability, sglang_fa3_refusing_the_gpu_is_g2_and_its_hub_fallback_is_not)
{
    static const char line[] =
        "NotImplementedError: flash_attn at sgl-kernel is only supported on sm90 and above\n";
    expect_anywhere("sglfa3", "G2", line);
    struct corr_result *r =
        scan("sglfa3-rollback",
             "WARNING 12-03 10:11:12 [flash_attention_v3.py:60] Rollback to implementation from "
             "sgl-kernel since loading FlashAttention v3 kernels from "
             "kernels-community/sgl-flash-attn3 with lockfile /root/.cache/sglang/kernels.lock "
             "failed: Cannot find a build variant for this system in "
             "kernels-community/sgl-flash-attn3 (revision: v1):\n");
    cr_assert_str_neq(fx_verdict(r), "G2", "a fallback warning: verdict %s", fx_verdict(r));
    corr_result_free(r);
}
