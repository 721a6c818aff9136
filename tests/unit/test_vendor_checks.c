/*
 * tests/unit/test_vendor_checks.c - a vendor library's own check refusing this GPU or this
 * stack (issue #20: kernel availability, CUDA generation, dependency drift), and the kernel's
 * segfault report in the shapes collectors leave of it, scanned with the shipped pack. Each line is
 * built from its emitter's format string with values of our own (the signatures' `sources` and
 * docs/emitters.md name file and release):
 *  - TensorRT 10 libnvinfer's builder check through samples/common/logging.h's "[E] " prefix:
 *    "IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM %d is not
 *    supported by this TensorRT release.)";
 *  - cuDNN 9's failed check chain as cudnn-frontend prints it: "Warning: <status>; Reason:
 *    <expr>", innermost check first;
 *  - pip 26.2.1 resolvelib/factory.py "{filename} is not a supported wheel on this platform.";
 *    commands/install.py _warn_about_conflicts "{name} {version} requires {requirement}, but
 *    you have {dep_name} {dep_version} which is incompatible.";
 *  - pytorch/ao v0.17.0 torchao/__init__.py "Skipping import of cpp extensions due to
 *    incompatible torch version. Please upgrade to torch >= 2.11.0 (found {torch.__version__}).";
 *  - linux arch/x86/mm/fault.c show_signal_msg "%s%s[%d]: segfault at %lx ip %px sp %px error
 *    %lx" then " in <vma>".
 */
#include <criterion/criterion.h>
#include <string.h>

#include "correlate/corr.h"
#include "scan_fixture.h"

TestSuite(vendor, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

/* The first error's signature id, "" without one. */
static const char *first_sig(const struct corr_result *r)
{
    return r->first_error && r->first_error->sig ? r->first_error->sig->id : "";
}

/* The verdict of text scanned as sub/run.log is want, and its first error is signature sig. */
static void expect(const char *sub, const char *text, const char *want, const char *sig)
{
    struct corr_result *r = fx_scan_one(sub, "run.log", text);
    cr_expect_str_eq(fx_verdict(r), want, "%s: verdict %s, want %s", sub, fx_verdict(r), want);
    cr_expect_str_eq(first_sig(r), sig, "%s: first error %s, want %s", sub, first_sig(r), sig);
    corr_result_free(r);
}

/* A TensorRT release older than a Blackwell-class GPU has no code for it: G1 (a build without
 * the GPU's arch). The same check refusing an old GPU a new release dropped, or an unknown SM,
 * is the run's first error and no gotcha. */
Test(vendor, a_tensorrt_release_older_than_the_gpu_is_g1)
{
    expect("trt-120",
           "[07/19/2025-23:34:55] [I] [TRT] [MemUsageChange] Init CUDA: CPU +2, GPU +0, now: "
           "CPU 31, GPU 1417 (MiB)\n"
           "[07/19/2025-23:34:55] [E] Error[9]: IBuilder::buildSerializedNetwork: Error Code 9: "
           "API Usage Error (Target GPU SM 120 is not supported by this TensorRT release.)\n"
           "[07/19/2025-23:34:55] [E] Engine could not be created from network\n",
           "G1", "G1.tensorrt-release-older-than-gpu");
    expect("trt-121",
           "[TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU "
           "SM 121 is not supported by this TensorRT release. In checkCurrentSMEnabled at "
           "optimizer/common/builderHelpers.cpp:718)\n",
           "G1", "G1.tensorrt-release-older-than-gpu");
}

Test(vendor, a_tensorrt_release_that_dropped_an_old_gpu_is_no_gotcha)
{
    expect("trt-70",
           "[E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 70 "
           "is not supported by this TensorRT release.)\n",
           "none", "C.cuda-error.tensorrt-sm-unsupported");
    expect("trt-61",
           "[02/15/2026-18:39:01] [TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API "
           "Usage Error (Target GPU SM 61 is not supported by this TensorRT release.)\n",
           "none", "C.cuda-error.tensorrt-sm-unsupported");
}

/* cuDNN prints its failed check chain innermost first: the CUDA major mismatch between cudart
 * and NVRTC is G1; the callers' reasons below it alone name nothing. */
Test(vendor, cudnn_finding_cudart_and_nvrtc_of_two_majors_is_g1)
{
    expect("cudnn-major",
           "cuDNN Frontend error: No valid engine configs for Matmul_MUL_Reduction_SUB_EXP_\n"
           "Warning: CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING; Reason: major "
           "version mismatch between cudart and nvrtc at: cudaVersionMajor != nvrtcVersionMajor\n"
           "Warning: CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING; Reason: "
           "compiler.load()\n"
           "Warning: CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING; Reason: "
           "finalize_internal()\n",
           "G1", "G1.cudnn-cudart-nvrtc-major");
    struct corr_result *r =
        fx_scan_one("cudnn-callers", "run.log",
                    "Warning: CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING; Reason: "
                    "compiler.load()\n"
                    "Warning: CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING; Reason: "
                    "ptr->isSupported()\n");
    cr_expect_str_eq(fx_verdict(r), "none");
    cr_expect_eq(fx_finding(r, "G1"), NULL, "a caller's reason is no CUDA mismatch");
    corr_result_free(r);
}

/* pip refusing a wheel of another platform is an install failure, the run's first error. */
Test(vendor, a_wheel_of_another_platform_is_an_install_failure)
{
    expect("wheel",
           "Processing ./onnxruntime_gpu-1.24.0-cp312-cp312-linux_aarch64.whl\n"
           "ERROR: onnxruntime_gpu-1.24.0-cp312-cp312-linux_aarch64.whl is not a supported wheel "
           "on this platform.\n",
           "none", "C.install.unsupported-wheel");
}

/* A row of pip's conflict report naming torch, without the header a cut log lost, beside the
 * drift's consequence (torchao loading none of its C++ ops) is G9. The row alone broke nothing,
 * and a row of another package beside the same consequence is not the torch stack's drift. */
Test(vendor, a_torch_conflict_row_beside_its_consequence_is_g9)
{
    static const char torchao[] = "Skipping import of cpp extensions due to incompatible torch "
                                  "version. Please upgrade to torch >= 2.11.0 (found "
                                  "2.10.0+cu130).\n";
    static const char torch_row[] = "unsloth 2026.6.8 requires torch<2.11.0,>=2.4.0, but you "
                                    "have torch 2.11.0+cu130 which is incompatible.\n";
    static const char other_row[] = "grpcio-tools 1.62.1 requires protobuf<5.0dev,>=4.21.6, but "
                                    "you have protobuf 3.20.3 which is incompatible.\n";
    char text[512];

    snprintf(text, sizeof text, "%s%s", torch_row, torchao);
    struct corr_result *r = fx_scan_one("row-torch", "run.log", text);
    cr_expect_str_eq(fx_verdict(r), "G9");
    cr_expect(fx_cites(r, "G9", "G9.torchao-needs-newer-torch"), "the consequence is the evidence");
    corr_result_free(r);

    r = fx_scan_one("row-alone", "run.log", torch_row);
    cr_expect_str_eq(fx_verdict(r), "none", "pip's report alone broke nothing");
    corr_result_free(r);

    snprintf(text, sizeof text, "%s%s", other_row, torchao);
    r = fx_scan_one("row-other", "run.log", text);
    cr_expect_str_eq(fx_verdict(r), "none", "protobuf's row is not the torch stack's drift");
    corr_result_free(r);
}

/* The kernel's segfault report is the first error also where a collector dropped the task name
 * (gpud's kmsg matcher) or `dmesg -x` put its facility and level before it. */
Test(vendor, a_segfault_report_without_its_task_name_is_the_first_error)
{
    expect("segv-bare",
           "segfault at 7f797fe00000 ip 00007f7c7ac69996 sp 00007f7c12fd7c30 error 4 in "
           "libnccl.so.2[7f7c7a000000+1e4c000]\n",
           "none", "C.segfault.kernel-bare");
    expect("segv-dmesg-x",
           "kern  :err   : 2026-02-10T16:28:06,502716+00:00 segfault at 7f797fe00000 ip "
           "00007f7c7ac69996 sp 00007f7c12fd7c30 error 4 in libnccl.so.2[7f7c7a000000+1e4c000]\n",
           "none", "C.segfault.kernel-bare");
    expect("segv-task",
           "[ 1234.567890] python3[1234]: segfault at 0 ip 00007f3c2a1b2c3d sp 00007ffd1a2b3c40 "
           "error 4 in libc.so.6[7f3c2a000000+195000]\n",
           "none", "C.segfault.kernel");
}
