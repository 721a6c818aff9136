/*
 * tests/unit/test_loaders_drift.c - the CUDA generation (G1) and dependency drift (G9) families
 * of issue #20, read from the emitters' format strings, scanned with the shipped pack. Each line
 * is built from its emitter's format string with values of our own (docs/emitters.md names the
 * file and release of each):
 *  - LLVM llvm/lib/MC/MCSubtargetInfo.cpp: "'%s' is not a recognized processor for this target
 *    (ignoring processor)" (the NVPTX CPU is the sm_ target Triton asks for);
 *  - ptxas' option parser: "ptxas fatal   : Value '%s' is not defined for option 'gpu-name'",
 *    also cut after "is not defined" where a launcher quotes it;
 *  - glibc elf/dl-load.c "cannot open shared object file" (through dlerror's "%s: %s"), and
 *    elf/dl-version.c "version `%s' not found (required by %s)";
 *  - TensorFlow's dso_loader.cc "Could not load dynamic library '%s'; dlerror: %s" (a warning);
 *  - glibc elf/dl-lookup.c "undefined symbol: %s", macOS dyld "Symbol not found: %s";
 *    torch/csrc/stable/c/shim.h's torch_dtype_* C functions;
 *  - transformers src/transformers/utils/versions.py _compare_versions: "{requirement} is
 *    required for a normal functioning of this module, but found {pkg}=={got_ver}.";
 *  - mosaicml/llm-foundry llmfoundry/models/layers/attention.py: "Please install
 *    flash-attn==... or flash-attn==...".
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "correlate/corr.h"
#include "scan_fixture.h"

TestSuite(drift, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

/* Write text as <sub>/run.log, analyze <sub>; the run must have read the lines. */
static struct corr_result *scan_text(const char *sub, const char *text)
{
    return fx_scan_one(sub, "run.log", text);
}

static void expect_verdict(const char *sub, const char *text, const char *want)
{
    struct corr_result *r = scan_text(sub, text);
    cr_expect_str_eq(fx_verdict(r), want, "%s: verdict %s, want %s", sub, fx_verdict(r), want);
    corr_result_free(r);
}

/* The first error's signature id, "" without one. */
static const char *first_sig(const struct corr_result *r)
{
    return r->first_error && r->first_error->sig ? r->first_error->sig->id : "";
}

/* The run's first error must be the signature want (the report names it). */
static void expect_first(const char *sub, const char *text, const char *want)
{
    struct corr_result *r = scan_text(sub, text);
    cr_expect_str_eq(first_sig(r), want, "%s: first error %s, want %s", sub, first_sig(r), want);
    corr_result_free(r);
}

/* No gotcha, and the first error is want (one scan for both). */
static void expect_none_first(const char *sub, const char *text, const char *want)
{
    struct corr_result *r = scan_text(sub, text);
    cr_expect_str_eq(fx_verdict(r), "none", "%s: verdict %s, want none", sub, fx_verdict(r));
    cr_expect_str_eq(first_sig(r), want, "%s: first error %s, want %s", sub, first_sig(r), want);
    corr_result_free(r);
}

/* A toolchain older than the GPU: the LLVM inside Triton, ptxas. A non-GPU CPU name in the same
 * LLVM message (an M4 Mac's Julia) is nothing of the kind. */
Test(drift, a_toolchain_that_does_not_know_the_gpu_arch_is_g1)
{
    expect_verdict("llvm",
                   "'sm_103a' is not a recognized processor for this target (ignoring processor)\n"
                   "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.sync.idx.i32\n",
                   "G1");
    expect_verdict("ptxas-cut", "ptxas fatal : Value 'sm_120a' is not defined\n", "G1");
    expect_verdict("ptxas",
                   "ptxas fatal   : Value 'sm_100a' is not defined for option 'gpu-name'\n", "G1");
    expect_verdict("llvm-cpu",
                   "'znver5' is not a recognized processor for this target (ignoring processor)\n",
                   "none");
    expect_verdict("ptxas-other-option",
                   "ptxas fatal   : Value 'sm_120a' is not defined for option 'machine'\n", "none");
}

/* CUDA 7-10 sonames carried the toolkit's major.minor: a binary built for CUDA 10.1 wants
 * libcudart.so.10.1 on a CUDA 10.0 machine. cuDNN's soname is cuDNN's own major. */
Test(drift, an_old_generation_cuda_soname_missing_is_g1)
{
    expect_verdict(
        "cuda10",
        "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or "
        "directory\n",
        "G1");
    expect_verdict(
        "cudnn",
        "ImportError: libcudnn.so.7: cannot open shared object file: No such file or directory\n",
        "none");
}

/* TensorFlow's loader warns and runs on the CPU: alone a hint; beside an environment of another
 * CUDA generation (a CUDA 13 driver, nvidia-smi's header) the mechanism. The same warning no
 * longer reads as the strong ld.so line. */
Test(drift, tensorflow_dso_warning_is_a_hint_until_the_environment_is_another_generation)
{
    const char *warn = "2022-05-03 09:14:07.512301: W tensorflow/stream_executor/platform/default/"
                       "dso_loader.cc:64] Could not load dynamic library 'libcublas.so.11'; "
                       "dlerror: libcublas.so.11: cannot open shared object file: No such file or "
                       "directory\n";
    struct corr_result *r = scan_text("tf-alone", warn);
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G1"), 0.0, "weighed as a hint");
    cr_expect(fx_cites(r, "G1", "G1.tf-dso-cuda-lib"), "read as TensorFlow's warning");
    cr_expect(!fx_cites(r, "G1", "G1.cuda12-lib-missing"), "not as ld.so's strong line");
    corr_result_free(r);
    char *both = az_xasprintf("| NVIDIA-SMI 580.95.05   Driver Version: 580.95.05   CUDA Version: "
                              "13.0     |\n%s",
                              warn);
    expect_verdict("tf-cuda13", both, "G1");
    free(both);
}

/* glibc's missing version node: a CUDA library of another major under the expected name. The C++
 * runtime's node (GLIBCXX) is no CUDA generation. */
Test(drift, a_missing_cuda_version_node_is_g1_and_a_glibcxx_node_is_not)
{
    expect_verdict("vnode",
                   "ImportError: /usr/lib/aarch64-linux-gnu/libcusparse.so.12: version "
                   "`libcusparse.so.12' not found (required by "
                   "/srv/env/lib/python3.11/site-packages/spx/_kern.so)\n",
                   "G1");
    expect_verdict("glibcxx",
                   "ImportError: /lib/aarch64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' "
                   "not found (required by /srv/env/lib/python3.11/site-packages/spx/_kern.so)\n",
                   "none");
}

/* The C/C++ runtime's version node printed bare (glibc elf/dl-version.c match_symbol: "version
 * `%s' not found (required by %s)" after dlerror's "{object}: ", the program's name before it at
 * exec): the first error, named as a missing piece of the runtime, not the later error it causes;
 * no gotcha (not a CUDA generation, not torch drift). */
Test(drift, a_glibcxx_node_printed_bare_is_the_first_error)
{
    static const char text[] =
        "/srv/env/bin/python: /lib/aarch64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' "
        "not found (required by /srv/env/lib/python3.11/site-packages/spx/_kern.so)\n"
        "RuntimeError: worker exited with code 1\n";
    expect_none_first("glibcxx-bare", text, "C.missing-file.runtime-version-node");
    expect_first("glibc-exec",
                 "./infer: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found "
                 "(required by ./infer)\n",
                 "C.missing-file.runtime-version-node");
}

/* An undefined torch symbol from each loader's wording: ld.so with a package-relative object and
 * the colon dropped, torch's stable C shim, macOS dyld. A build tree's object is a build setting
 * (labelling rule: none). */
Test(drift, an_undefined_torch_symbol_from_each_loader_is_g9)
{
    expect_verdict("ldso-rel",
                   "fastops/sm90/_ops.abi3.so: undefined symbol "
                   "_ZN3c104cuda20getCurrentCUDAStreamEa\n",
                   "G9");
    expect_verdict("stable-shim", "OSError: undefined symbol: torch_dtype_float8_e8m0fnu\n", "G9");
    expect_verdict("dyld",
                   "ImportError: dlopen(/Users/ana/env/lib/python3.12/site-packages/fastops/_C.so, "
                   "0x0002): Symbol not found: __ZN2at4_ops4add_4callERNS_6TensorERKS2_RKN3c106"
                   "ScalarE\n",
                   "G9");
    expect_verdict("build-tree",
                   "ImportError: fastops/build/lib.linux-aarch64-cpython-312/fastops/_C.so: "
                   "undefined symbol: _ZN3c104cuda20getCurrentCUDAStreamEa\n",
                   "none");
}

/* transformers' require_version: a stack package out of its pinned range is drift; a tokenizer's
 * range is capped at version-change's other_weight (a hint). */
Test(drift, a_runtime_version_check_names_g9_for_the_stack_only)
{
    expect_verdict("peft",
                   "ImportError: peft>=0.11.1,<=0.12.0 is required for a normal functioning of "
                   "this module, but found peft==0.13.2.\n",
                   "G9");
    struct corr_result *r = scan_text(
        "hub", "ImportError: huggingface-hub>=0.23.2,<1.0 is required for a normal functioning "
               "of this module, but found huggingface-hub==1.1.0.\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.require-version"), "the line was read as the version check");
    cr_expect_lt(fx_conf(r, "G9"), 0.35, "a package outside the stack is a hint at most");
    corr_result_free(r);
}

/* Model code demanding exact pins: a triton pin is the stack drifting; a list of flash-attn
 * versions alone is its import failing (G2's family), not this line's. */
Test(drift, model_code_demanding_exact_stack_pins_is_g9)
{
    expect_verdict("pins", "RuntimeError: Please install flash-attn==2.4.2 and triton==2.2.0\n",
                   "G9");
    expect_verdict("fa-only",
                   "RuntimeError: Please install flash-attn==1.0.9 or flash-attn==2.4.2\n", "none");
}

/* CTranslate2's cuBLAS stub (src/cuda/cublas_stub.cc: "Library " CUBLAS_LIBNAME " is not found or
 * cannot be loaded", the name carrying the CUDA major) and the Windows runtime DLLs of CUDA 10/11
 * (cudart64_101.dll, cudart64_110.dll: CPython's ctypes "Could not find module ..."). Its NCCL stub
 * prints the same for libnccl: no CUDA generation. */
Test(drift, a_cuda_library_of_another_major_from_ctranslate2_and_windows_is_g1)
{
    expect_verdict(
        "ct2", "RuntimeError: Library cublas64_11.dll is not found or cannot be loaded\n", "G1");
    expect_verdict("ct2-nccl",
                   "RuntimeError: Library libnccl.so.2 is not found or cannot be loaded\n", "none");
    expect_verdict(
        "win-cuda101",
        "FileNotFoundError: Could not find module 'E:\\tools\\asr\\cudart64_101.dll' (or "
        "one of its dependencies). Try using the full path with constructor syntax.\n",
        "G1");
}

/* torchvision/extension.py _assert_has_ops: the torch/torchvision pair; a third-party copy of the
 * sentence names its own package, which version-change caps at other_weight. */
Test(drift, custom_ops_that_do_not_load_name_g9_for_torchvision)
{
    expect_verdict(
        "tv-ops",
        "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and "
        "torchvision versions are incompatible, or if you had errors while compiling "
        "torchvision from source.\n",
        "G9");
    struct corr_result *r =
        scan_text("copy-ops", "RuntimeError: Couldn't load custom C++ ops. This can happen if your "
                              "PyTorch and shiftops versions are incompatible, or if you had "
                              "errors while compiling shiftops from source.\n");
    cr_expect(fx_cites(r, "G9", "G9.custom-ops-not-loaded"), "the line was read");
    cr_expect_lt(fx_conf(r, "G9"), 0.35, "another package's ops: a hint at most");
    corr_result_free(r);
}

/* pip list columns (and collect_env's [pip3] rows): torchaudio ships with one torch release (0.N
 * with 1.N, then the same version from 2.0); a listing of two releases is the drift, a matched
 * pair is nothing. */
Test(drift, a_torch_torchaudio_pair_of_two_releases_is_g9)
{
    expect_verdict("ta-pair",
                   "Package                           Version\n"
                   "--------------------------------- ------------\n"
                   "torch                             2.8.0+cu129\n"
                   "torchaudio                        2.6.0+cu124\n",
                   "G9");
    expect_verdict("ta-matched",
                   "[pip3] torch==1.12.1+cu116\n"
                   "[pip3] torchaudio==0.12.1+cu116\n",
                   "none");
}

/* conda's transaction summary (conda/core/link.py: "  %-18s %38s --> %s" under "will be
 * SUPERSEDED by a higher-priority channel:"): a CUDA pytorch replaced by a CPU build, then the
 * failure it causes. The same arrow row for numpy is no stack package. */
Test(drift, conda_replacing_the_torch_build_is_g9)
{
    struct corr_result *r = scan_text(
        "conda-torch", "The following packages will be SUPERSEDED by a higher-priority channel:\n\n"
                       "  pytorch            pytorch::pytorch-2.4.1-py3.12_cuda12.4~ --> "
                       "pkgs/main::pytorch-2.4.0-cpu_py312h0a1b2c3_1\n\n"
                       "RuntimeError: Found no NVIDIA driver on your system.\n");
    cr_expect_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.conda-replaced"), "conda's row is the evidence");
    corr_result_free(r);
    r = scan_text("conda-numpy", "The following packages will be UPDATED:\n\n"
                                 "  numpy                              1.26.4-py312h5f9d8c6_0 --> "
                                 "2.1.3-py312h5f9d8c6_0\n\n"
                                 "ValueError: numpy.dtype size changed\n");
    cr_expect_str_neq(fx_verdict(r), "G9", "numpy's update is not the stack");
    corr_result_free(r);
}

/* glibc's dlerror() names the object before "undefined symbol" ("%s: %s"); a line without it
 * does not say whose extension failed (an import before torch, a copy cut at the colon), so it
 * is a hint. A terminal that wraps the message after the object's colon keeps the object on the
 * line above: that line, an installed package's, restores the verdict (symbol on the next line,
 * or "undefined symbol:" and the symbol on two more). */
Test(drift, a_wrapped_loader_message_keeps_its_object_and_a_bare_symbol_is_a_hint)
{
    struct corr_result *r =
        scan_text("bare", "undefined symbol: _ZN3c104cuda20CUDACachingAllocator9allocatorE\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.torch-symbol-no-object"), "the bare symbol was read");
    corr_result_free(r);
    expect_verdict("wrap2",
                   "ImportError: /srv/env/lib/python3.11/site-packages/fastops/_C.abi3.so:\n"
                   "undefined symbol: _ZN3c104cuda20CUDACachingAllocator9allocatorE\n",
                   "G9");
    expect_verdict("wrap3",
                   "OSError: /usr/lib/python3/dist-packages/torchvision/image.so: \n"
                   "undefined symbol: \n"
                   "_ZN2at4_ops10zeros_like4callERKNS_6TensorEN3c108optionalINS5_10ScalarTypeEEE\n",
                   "G9");
    expect_verdict("wrap-tree",
                   "ImportError: /home/ana/fastops/build/lib.linux-x86_64-cpython-311/_C.so:\n"
                   "undefined symbol: _ZN3c104cuda20CUDACachingAllocator9allocatorE\n",
                   "none");
}

/* c10/macros/Export.h: torch_cuda was split into torch_cuda_cu and torch_cuda_cpp for CUDA 11
 * builds; an extension linked against the split libraries cannot load beside a torch that ships
 * one libtorch_cuda.so (glibc dl-load.c through ctypes' OSError or an ImportError). */
Test(drift, a_split_torch_cuda_library_missing_is_g9)
{
    expect_verdict("split-cu",
                   "ImportError: libtorch_cuda_cu.so: cannot open shared object file: No such file "
                   "or directory\n",
                   "G9");
    expect_verdict("nccl-frame",
                   "#6  0x00007f1c in c10d::ProcessGroupNCCL::workCleanupLoop() () from "
                   "/opt/venv/lib/python3.8/site-packages/torch/lib/libtorch_cuda_cpp.so\n",
                   "none");
}

/* transformers' HeterogeneousConfigMixin.__getattribute__ refuses a global read of a per-layer
 * attribute: the reader predates per-layer configs. With the opt-in it only logs a warning. */
Test(drift, transformers_refusing_a_global_per_layer_read_is_g9)
{
    expect_verdict("per-layer",
                   "transformers.integrations.heterogeneity.configuration_utils."
                   "AmbiguousGlobalPerLayerAttributeError: 'intermediate_size' is a per-layer "
                   "attribute and may vary across layers. Access it via the individual layer "
                   "configs instead (e.g. config.per_layer_config[i].intermediate_size).\n",
                   "G9");
    expect_verdict("per-layer-optin",
                   "Reading global config value for per-layer attribute `intermediate_size` on a "
                   "heterogeneous config. Only do this if the caller can safely handle "
                   "heterogeneous configs; code that assumes a homogeneous model may use the "
                   "global value incorrectly.\n",
                   "none");
}

/* The user's own build as a contrary fact: CMake's flags.make (cmMakefileTargetGenerator.cxx:
 * "{lang}_FLAGS = "), its "Build files have been written to: " and setuptools' "running develop"
 * beside an undefined torch symbol in an extension named without a path: the build's setting,
 * not drift (labelling rule: none). The same symbol line alone stays G9; a pip build in /tmp is
 * an install, not the user's tree. */
Test(drift, the_users_own_build_beside_an_undefined_torch_symbol_is_not_g9)
{
    const char *sym = "ImportError: fastops.cpython-311-x86_64-linux-gnu.so: undefined symbol: "
                      "_ZN3c104cuda20CUDACachingAllocator9allocatorE\n";
    expect_verdict("sym-alone", sym, "G9");
    char text[1024];
    snprintf(text, sizeof text,
             "CMakeFiles/fastops.dir/flags.make:CXX_FLAGS = -O2 -fPIC -D_GLIBCXX_USE_CXX11_ABI=1 "
             "-std=gnu++17\n%s",
             sym);
    struct corr_result *r = scan_text("cmake-flags", text);
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.torch-cpp-abi"), "the symbol line was read");
    corr_result_free(r);
    snprintf(text, sizeof text, "-- Build files have been written to: /home/ana/fastops/build\n%s",
             sym);
    expect_verdict("cmake-gen", text, "none");
    snprintf(text, sizeof text, "running develop\n%s", sym);
    expect_verdict("develop", text, "none");
    snprintf(text, sizeof text, "-- Build files have been written to: /tmp/tmpq1w2e3/build\n%s",
             sym);
    expect_verdict("pip-tmp-build", text, "G9");
}

/* The same guard on G1's undefined CUDA runtime symbol: an extension the user built in a source
 * tree against another toolkit is its build setting. */
Test(drift, the_users_own_build_beside_an_undefined_cuda_symbol_is_not_g1)
{
    const char *sym = "ImportError: /srv/env/lib/python3.11/site-packages/fastops/_C.so: undefined "
                      "symbol: cudaStreamGetCaptureInfo_v3\n";
    expect_verdict("cuda-sym", sym, "G1");
    char text[1024];
    snprintf(text, sizeof text, "[ 50%%] Building CUDA object CMakeFiles/fastops.dir/k.cu.o\n%s",
             sym);
    expect_verdict("cuda-sym-own", text, "none");
}

/* FlashInfer refuses a companion package of another release (flashinfer/jit/env.py: "flashinfer-
 * jit-cache version ({v}) does not match flashinfer version ({v}). ..."); its collect_env row
 * that flags the same pair is a listing, not the failure. */
Test(drift, flashinfer_companion_package_of_another_release_is_g9)
{
    expect_verdict("fi-jit-cache",
                   "RuntimeError: flashinfer-jit-cache version (0.4.1+cu128) does not match "
                   "flashinfer version (0.5.0). Please install the same version of both packages. "
                   "Set FLASHINFER_DISABLE_VERSION_CHECK=1 to bypass this check.\n",
                   "G9");
    struct corr_result *r = scan_text("fi-env-row", "flashinfer-python: 0.5.0\n"
                                                    "flashinfer-cubin: 0.5.0\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_eq(fx_conf(r, "G9"), 0.0, "no G9 evidence in a matching pair");
    corr_result_free(r);
}

/* torch/backends/cudnn/__init__.py: the same cuDNN major with a lower minor is a second cuDNN
 * shadowing the wheel's own (G9); another major is another CUDA generation's library, not this. */
Test(drift, torch_cudnn_check_same_major_is_g9_other_major_is_not)
{
    expect_verdict("cudnn-minor",
                   "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against "
                   "(8, 9, 7) but found runtime version (8, 6, 0). PyTorch already comes bundled "
                   "with cuDNN. One option to resolving this error is to ensure PyTorch can find "
                   "the bundled cuDNN. one possibility is that there is a conflicting cuDNN in "
                   "LD_LIBRARY_PATH.\n",
                   "G9");
    struct corr_result *r =
        scan_text("cudnn-major", "RuntimeError: cuDNN version incompatibility: PyTorch was "
                                 "compiled  against (9, 1, 0) but found runtime version (8, 9, "
                                 "7). PyTorch already comes bundled with cuDNN.\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(!fx_cites(r, "G9", "G9.cudnn-runtime-shadowed"), "another major is not the shadow");
    corr_result_free(r);
}

/* pip's resolver (factory.py get_installation_error): the causes under "The conflict is caused
 * by:" include a torch-family pin. The same pin line without the header is a hint only. */
Test(drift, pip_conflict_header_over_a_torch_pin_is_g9)
{
    expect_verdict("pip-conflict",
                   "ERROR: Cannot install -r requirements.txt (line 3) and xformers==0.0.28 "
                   "because these package versions have conflicting dependencies.\n"
                   "\n"
                   "The conflict is caused by:\n"
                   "    The user requested torch==2.5.1\n"
                   "    xformers 0.0.28 depends on torch==2.4.1\n"
                   "\n"
                   "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/"
                   "topics/dependency-resolution/#dealing-with-dependency-conflicts\n",
                   "G9");
    struct corr_result *r = scan_text("pin-alone", "    xformers 0.0.28 depends on torch==2.4.1\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.resolver-torch-pins"), "the pin line was read");
    corr_result_free(r);
}

/* The other resolvers' refusals, as pip's: a torch-stack pin under the report's header is G9; a
 * conflict on another package is the install failure only. Shapes: uv 0.12.5
 * crates/uv-resolver/src/error.rs ("No solution found when resolving dependencies:") with
 * pubgrub/report.rs's "Because {} depends on {} and ..."; conda 26.7.1 conda/exceptions.py
 * UnsatisfiableError ("The following specifications were found to be incompatible with each
 * other:", "Package {dep} conflicts for:"); libmamba-2.0.5 libmamba/src/api/install.cpp ("Could
 * not solve for environment specs"); poetry 2.4.1 src/poetry/mixology/failure.py ("...,
 * version solving failed.") and incompatibility.py ("{name} ({constraint}) depends on ..."). */
Test(drift, other_resolvers_conflicts_on_the_torch_stack_are_g9)
{
    expect_verdict("uv-conflict",
                   "  × No solution found when resolving dependencies:\n"
                   "  ╰─▶ Because vllm==0.6.3 depends on torch==2.4.0 and you require "
                   "torch==2.5.1, we can conclude that your requirements and vllm==0.6.3 are "
                   "incompatible.\n",
                   "G9");
    static const char conda_head[] =
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "each other:\n"
        "\n"
        "Output in format: Requested package -> Available versions\n"
        "\n";
    char buf[512];
    snprintf(buf, sizeof buf,
             "%sPackage pytorch conflicts for:\nvllm=0.6.3 -> pytorch==2.4.0\n"
             "pytorch=2.5.1\n",
             conda_head);
    expect_verdict("conda-conflict", buf, "G9");
    snprintf(buf, sizeof buf,
             "%sPackage libgcc-ng conflicts for:\nnumpy -> libgcc-ng[version="
             "'>=12']\n",
             conda_head);
    expect_none_first("conda-other", buf, "C.install.conda-unsatisfiable");
    expect_first("mamba", "error    libmamba Could not solve for environment specs\n",
                 "C.install.mamba-no-solution");
    struct corr_result *r = scan_text(
        "poetry", "Because vllm (0.6.3) depends on torch (2.4.0)\n"
                  " and myproj depends on torch (2.5.1), vllm is forbidden.\n"
                  "So, because myproj depends on vllm (0.6.3), version solving failed.\n");
    cr_expect_str_eq(first_sig(r), "C.install.poetry-solving-failed", "got %s", first_sig(r));
    cr_expect(fx_cites(r, "G9", "G9.resolver-torch-pins"), "poetry's pin line was read");
    corr_result_free(r);
}

/* The loaders' "not found" as the first error of a run no gotcha explains: CPython's WinError
 * 126 (OSError_str's "[WinError %S] %S", torch/__init__.py's "Error loading ..."), printed bare;
 * raised as a traceback's final line the exception names it. cuDNN 8's own Windows loader, macOS
 * dyld at launch. WinError 127 is a missing procedure, not a missing file. */
Test(drift, loaders_not_found_name_the_missing_file)
{
    struct corr_result *r = scan_text(
        "win126", "[WinError 126] The specified module could not be found. Error loading "
                  "\"C:\\app\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll\" or one of its "
                  "dependencies.\n");
    cr_expect_str_eq(first_sig(r), "C.missing-file.win-module-not-found", "got %s", first_sig(r));
    corr_result_free(r);
    r = scan_text("win126-raised",
                  "OSError: [WinError 126] The specified module could not be found. Error loading "
                  "\"C:\\app\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll\" or one of its "
                  "dependencies.\n");
    cr_expect(strncmp(first_sig(r), "C.python-exception", 18) == 0,
              "raised as the traceback's final line, the exception names it: %s", first_sig(r));
    corr_result_free(r);
    r = scan_text("cudnn8-win", "Could not load library cudnn_adv_train64_8.dll. Error code 126\n"
                                "Please make sure cudnn_adv_train64_8.dll is in your library "
                                "path!\n");
    cr_expect_str_eq(first_sig(r), "C.missing-file.win-library-error-code", "got %s", first_sig(r));
    corr_result_free(r);
    r = scan_text("dyld", "dyld[801]: Library not loaded: '@rpath/libtorch_cpu.dylib'\n"
                          "  Referenced from: '/Users/me/bin/infer'\n"
                          "  Reason: tried: '/usr/local/lib/libtorch_cpu.dylib' (no such file)\n");
    cr_expect_str_eq(first_sig(r), "C.missing-file.dyld-not-loaded", "got %s", first_sig(r));
    corr_result_free(r);
    r = scan_text("win127", "OSError: [WinError 127] The specified procedure could not be found. "
                            "Error loading \"C:\\app\\venv\\Lib\\site-packages\\torch\\lib\\"
                            "shm.dll\" or one of its dependencies.\n");
    cr_expect(strncmp(first_sig(r), "C.missing-file", 14), "127 is not a missing file: %s",
              first_sig(r));
    corr_result_free(r);
}

/* Windows' commit limit (ERROR_COMMITMENT_LIMIT 1455 through CPython's OSError_str "[WinError %S]
 * %S" and torch/__init__.py _load_dll_libraries' " Error loading \"{dll}\" or one of its
 * dependencies."), printed bare by a worker: the first error, host memory, neither a missing file
 * nor a CUDA generation (the DLL's name carries a CUDA major) nor drift. */
Test(drift, winerror_1455_is_the_paging_file_not_the_dll)
{
    static const char text[] =
        "[WinError 1455] The paging file is too small for this operation to complete. Error "
        "loading \"C:\\app\\venv\\Lib\\site-packages\\torch\\lib\\cublas64_12.dll\" or one of "
        "its dependencies.\n";
    expect_none_first("win1455", text, "C.oom-killer.win-paging-file");
}

/* pip check's unsupported-platform line (pip src/pip/_internal/commands/check.py CheckCommand.run:
 * "%s %s is not supported on this platform" with the canonical name and version): a wheel of
 * another platform installed, the environment's install failure, not drift. */
Test(drift, pip_check_unsupported_platform_is_an_install_failure)
{
    expect_none_first("pip-check-platform",
                      "$ pip check\ntorchaudio 2.5.1+cu124 is not supported on this platform\n",
                      "C.install.pip-check-unsupported");
}

/* CPython's import_from for a name of Triton's compiler internals, which frameworks import and
 * users do not: strong. The kernel author's triton.language API missing a name stays a hint. */
Test(drift, a_name_missing_from_tritons_internals_is_g9)
{
    expect_verdict("triton-runtime",
                   "ImportError: cannot import name 'get_cuda_stream' from 'triton.runtime.jit' "
                   "(/opt/venv/lib/python3.12/site-packages/triton/runtime/jit.py)\n",
                   "G9");
    struct corr_result *r =
        scan_text("triton-language",
                  "ImportError: cannot import name 'libdevice' from 'triton.language."
                  "math' (/opt/venv/lib/python3.12/site-packages/triton/language/math.py)\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.torch-name-missing"), "read as the weak torch-family line");
    corr_result_free(r);
}

/* A call that passes a keyword the installed callee does not take (CPython Python/ceval.c
 * initialize_locals: "%U() got an unexpected keyword argument '%S'" with the qualified name;
 * PyO3's FunctionDescription::unexpected_keyword_argument prints the same for a Rust extension).
 * The TypeError is raised before the callee's frame exists, so the frame above it is the caller:
 * an installed package's frame there is two installed packages drifted apart (G9); the user's own
 * frame is that script against the package's API (not G9); a frame whose path the poster cut to
 * "..." says neither, so G9 stays possible with no verdict. Traceback shape: CPython
 * Lib/traceback.py '  File "{}", line {}, in {}' with the source line under it. */
Test(drift, an_unknown_keyword_from_an_installed_callers_frame_is_g9)
{
    static const char installed[] =
        "Traceback (most recent call last):\n"
        "  File \"/srv/venv/lib/python3.12/site-packages/servelib/loader.py\", line 310, in "
        "iter_shards\n"
        "    with shardio.reader(path, pin_memory=True) as f:\n"
        "TypeError: reader.__init__() got an unexpected keyword argument 'pin_memory'\n";
    struct corr_result *r = scan_text("kwinst", installed);
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_assert(fx_cites(r, "G9", "G9.unexpected-keyword-argument"), "the TypeError is cited");
    corr_result_free(r);

    static const char own[] =
        "Traceback (most recent call last):\n"
        "  File \"/home/me/exp/run.py\", line 42, in <module>\n"
        "    with shardio.reader(path, pin_memory=True) as f:\n"
        "TypeError: reader.__init__() got an unexpected keyword argument 'pin_memory'\n";
    r = scan_text("kwown", own);
    cr_assert_str_neq(fx_verdict(r), "G9", "own call: verdict %s", fx_verdict(r));
    cr_assert_lt(fx_conf(r, "G9"), 0.2, "own call weighs G9 %.2f", fx_conf(r, "G9"));
    cr_assert_str_eq(r->first_error_entry ? r->first_error_entry->id : "", "C.python-exception",
                     "the TypeError was read");
    corr_result_free(r);

    static const char elided[] =
        "  File \".../servelib/loader.py\", line 310, in iter_shards\n"
        "    with shardio.reader(path, pin_memory=True) as f:\n"
        "TypeError: reader.__init__() got an unexpected keyword argument 'pin_memory'\n";
    r = scan_text("kwelided", elided);
    cr_assert_str_neq(fx_verdict(r), "G9", "elided frame: verdict %s", fx_verdict(r));
    cr_assert_geq(r->npossible, 1, "elided frame: nothing possible");
    cr_assert_str_eq(r->possible[0].entry->id, "G9");
    corr_result_free(r);
}

/* CPython's import_from printed "cannot import name %R" up to 3.6 ("... from %R (%S)" since 3.7):
 * the bare form names no module, so it cannot tell two releases of packages apart from a
 * circular import of the user's own modules. A hint: G9 possible, never a verdict alone. */
Test(drift, a_bare_cannot_import_name_leaves_g9_possible)
{
    struct corr_result *r =
        scan_text("impbare", "ImportError: cannot import name 'shard_index_of'\n");
    cr_assert_str_eq(r->first_error_entry ? r->first_error_entry->id : "", "C.python-exception",
                     "the ImportError was read");
    cr_assert_str_neq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_assert_gt(fx_conf(r, "G9"), 0.0, "read as a hint");
    cr_assert_geq(r->npossible, 1, "nothing possible");
    cr_assert_str_eq(r->possible[0].entry->id, "G9");
    corr_result_free(r);
}

/* pip install's conflict report (pypa/pip 26.2.1 commands/install.py _warn_about_conflicts): the
 * header, then "{name} {version} requires {requirement}, but you have {dep} {dep_version} which
 * is incompatible." per conflict. pip prints it after installing and returns success, so the
 * report alone names nothing: a pure-Python pin, or a patch release of torch under a domain
 * library's exact pin, is a hint. Values are our own. */
#define PIP_CONFLICT_HEADER                                                                        \
    "ERROR: pip's dependency resolver does not currently take into account all the packages "      \
    "that are installed. This behaviour is the source of the following dependency "                \
    "conflicts.\n"

Test(drift, a_pip_conflict_report_alone_is_no_verdict)
{
    struct corr_result *r = scan_text("conflict-pure-python", PIP_CONFLICT_HEADER
                                      "examplelib 1.2.0 requires accelerate==0.30.0, but you have "
                                      "accelerate 0.33.0 which is incompatible.\n"
                                      "Successfully installed accelerate-0.33.0\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.resolver-conflict"), "the conflict line was read");
    corr_result_free(r);
    r = scan_text("conflict-patch",
                  PIP_CONFLICT_HEADER "torchvision 0.19.1+cu121 requires torch==2.4.1, but you "
                                      "have torch 2.4.0+cu121 which is incompatible.\n"
                                      "torchaudio 2.4.1+cu121 requires torch==2.4.1, but you "
                                      "have torch 2.4.0+cu121 which is incompatible.\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.resolver-conflict"), "the conflict lines were read");
    cr_expect(!fx_cites(r, "G9", "G9.resolver-conflict-torch-build"),
              "a patch release is no build pin");
    corr_result_free(r);
}

/* The wheels that pin the exact torch (or triton) they were built against, left with another
 * minor release: a binary built against another torch, G9 by the line itself. */
Test(drift, a_build_pin_left_at_another_minor_release_is_g9)
{
    struct corr_result *r =
        scan_text("conflict-build-pin", PIP_CONFLICT_HEADER
                  "torchvision 0.19.1+cu121 requires torch==2.4.1, but you have torch "
                  "2.6.0 which is incompatible.\n");
    cr_expect_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.resolver-conflict-torch-build"), "the build pin was read");
    corr_result_free(r);
    expect_verdict("conflict-triton",
                   PIP_CONFLICT_HEADER "torch 2.3.1+cu121 requires triton==2.3.1; platform_system "
                                       "== \"Linux\" and platform_machine == \"x86_64\", but you "
                                       "have triton 3.0.0 which is incompatible.\n",
                   "G9");
}

/* The report beside its consequence: a torch attribute the installed torch lacks, raised in the
 * user's own frame (CPython's module_getattro "module '%U' has no attribute '%U'"), is a hint
 * alone; after pip's report it is the drift that report announced. */
Test(drift, a_pip_conflict_report_then_its_consequence_is_g9)
{
    const char *failure = "Traceback (most recent call last):\n"
                          "  File \"/home/u/proj/train.py\", line 12, in <module>\n"
                          "    step = torch.compiler.cudagraph_mark_step_begin\n"
                          "AttributeError: module 'torch.compiler' has no attribute "
                          "'cudagraph_mark_step_begin'\n";
    struct corr_result *r = scan_text("consequence-alone", failure);
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.torch-attr-missing"), "the attribute line was read");
    corr_result_free(r);
    char text[2048];
    snprintf(text, sizeof text, "%s%s%s",
             PIP_CONFLICT_HEADER "examplelib 0.9.0 requires torch>=2.4, but you have torch 2.2.2 "
                                 "which is incompatible.\n",
             "Successfully installed examplelib-0.9.0\n", failure);
    expect_verdict("consequence-after-report", text, "G9");
}

/* pip's ResolutionImpossible (factory.py get_installation_error) whose causes are lower bounds
 * only: they cannot conflict with each other, so pip lists them because no torch exists for this
 * interpreter or platform. No pin, no drift; the install failure is the first error. */
Test(drift, resolution_impossible_on_lower_bounds_only_is_not_g9)
{
    struct corr_result *r =
        scan_text("lower-bounds",
                  "ERROR: Cannot install examplepkg==0.2.0 and examplepkg==0.3.0 because these "
                  "package versions have conflicting dependencies.\n"
                  "\n"
                  "The conflict is caused by:\n"
                  "    examplepkg 0.3.0 depends on torch>=2.1.0\n"
                  "    examplepkg 0.2.0 depends on torch>=2.0.0\n"
                  "\n"
                  "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/"
                  "topics/dependency-resolution/#dealing-with-dependency-conflicts\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(strncmp(first_sig(r), "C.install", 9) == 0, "first error %s", first_sig(r));
    corr_result_free(r);
}

/* The interpreter as the cause (factory.py _report_requires_python_error and
 * _report_single_requirement_conflict's "Ignored the following versions that require a different
 * python version"): a torch pin under the same failure is lowered below a verdict. */
Test(drift, a_python_version_cause_lowers_g9)
{
    const char *pins = "The conflict is caused by:\n"
                       "    The user requested torch==2.5.1\n"
                       "    examplepkg 1.0.0 depends on torch==2.4.0\n";
    expect_verdict("pins-only", pins, "G9");
    char text[1024];
    snprintf(text, sizeof text, "%s%s", pins,
             "ERROR: Ignored the following versions that require a different python version: "
             "2.4.0 Requires-Python >=3.9; 2.5.1 Requires-Python >=3.9\n");
    struct corr_result *r = scan_text("pins-python", text);
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.resolver-torch-pins"), "the pin line was read");
    corr_result_free(r);
    expect_verdict("requires-python",
                   "ERROR: Package 'examplepkg' requires a different Python: 3.12.1 not in "
                   "'<3.12,>=3.8'\n",
                   "none");
}

/* A JIT build refusing a CUDA toolkit of another major than torch's (DeepSpeed v0.19.5
 * op_builder/builder.py assert_no_cuda_mismatch; v0.3.16's plain Exception; pytorch
 * torch/utils/cpp_extension.py _check_cuda_version's CUDA_MISMATCH_MESSAGE, whose two literals
 * join as "compilePyTorch"): G1 on any machine. A minor difference is accepted or warned about,
 * and an old torch's or DeepSpeed's refusal of a minor one is a toolkit setting: not G1. */
Test(drift, a_jit_build_refusing_another_cuda_major_is_g1)
{
    struct corr_result *r = scan_text(
        "ds-major", "deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op "
                    "Builder: Installed CUDA version 12.4 does not match the version torch was "
                    "compiled with 11.8, unable to compile cuda/cpp extensions without a matching "
                    "cuda version.\n");
    cr_expect_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G1", "G1.deepspeed-cuda-major-mismatch"), "the refusal was read");
    corr_result_free(r);
    expect_verdict("ds-old",
                   "Exception: Installed CUDA version 11.3 does not match the version "
                   "torch was compiled with 10.2, unable to compile cuda/cpp extensions "
                   "without a matching cuda version.\n",
                   "G1");
    expect_verdict("ds-minor-accepted",
                   "Installed CUDA version 12.6 does not match the version torch was compiled "
                   "with 12.4 but since the APIs are compatible, accepting this combination\n",
                   "none");
    expect_verdict("ds-minor-old",
                   "Exception: Installed CUDA version 11.3 does not match the version torch was "
                   "compiled with 11.1, unable to compile cuda/cpp extensions without a matching "
                   "cuda version.\n",
                   "none");
    expect_verdict("ext-major",
                   "RuntimeError: The detected CUDA version (12.4) mismatches the version that "
                   "was used to compilePyTorch (11.8). Please make sure to use the same CUDA "
                   "versions.\n",
                   "G1");
    r = scan_text("ext-minor", "UserWarning: The detected CUDA version (12.6) has a minor version "
                               "mismatch with the version that was used to compile PyTorch (12.4). "
                               "Most likely this shouldn't be a problem.\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(r->records > 0, "the warning was read");
    corr_result_free(r);
}

/* CPython's import_from ("cannot import name %R from %R (%S)") naming diffusers: a Hugging Face
 * sibling that trl and peft import helpers from, older than its importer (a key package of
 * version-change, as transformers, accelerate and peft). A library outside the stack stays a
 * hint. */
Test(drift, a_name_missing_from_an_installed_diffusers_is_g9)
{
    expect_verdict("diffusers-name",
                   "ImportError: cannot import name 'export_lora_layers' from 'diffusers.utils' "
                   "(/opt/venv/lib/python3.11/site-packages/diffusers/utils/__init__.py)\n",
                   "G9");
    struct corr_result *r =
        scan_text("other-lib-name", "ImportError: cannot import name 'render_table' from "
                                    "'examplelib.util' (/opt/venv/lib/python3.11/site-packages/"
                                    "examplelib/util/__init__.py)\n");
    cr_expect_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.cannot-import-name"), "the import line was read");
    corr_result_free(r);
}

/* torchao's version gate (pytorch/ao v0.15.0 torchao/__init__.py): a release wheel checks its
 * own version against a table of (torchao, torch) pairs and logs "Skipping import of cpp
 * extensions due to incompatible torch version {torch} for torchao version {torchao}" (the
 * backslash continuation keeps the source's indentation in the message) for any other pair: two
 * packages drifted apart, G9. From v0.17.0 the gate is a floor ("... incompatible torch version.
 * Please upgrade to torch >= 2.11.0 (found {torch}).") that servers print on every start: a hint.
 * The user's own override (TORCHAO_FORCE_SKIP_LOADING_SO_FILES=1) is no drift. */
Test(drift, torchao_skipping_its_extensions_for_another_torch_is_g9)
{
    struct corr_result *r =
        scan_text("ao-pair", "Skipping import of cpp extensions due to incompatible torch version "
                             "2.8.0+cu126 for torchao version 0.15.0             Please see "
                             "https://github.com/pytorch/ao/issues/2919 for more info\n");
    cr_expect_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.torchao-torch-incompatible"));
    corr_result_free(r);
    r = scan_text("ao-floor", "WARNING:torchao:Skipping import of cpp extensions due to "
                              "incompatible torch version. Please upgrade to torch >= 2.11.0 "
                              "(found 2.10.0+cu128).\n");
    cr_expect(fx_cites(r, "G9", "G9.torchao-needs-newer-torch"), "the floor line was read");
    cr_expect_lt(fx_conf(r, "G9"), 0.35, "the floor alone is a hint");
    corr_result_free(r);
    r = scan_text("ao-forced", "WARNING:torchao:Skipping import of cpp extensions due to "
                               "TORCHAO_FORCE_SKIP_LOADING_SO_FILES=1\n"
                               "RuntimeError: expected scalar type Float but found Half\n");
    cr_expect_str_eq(fx_verdict(r), "none", "the user's own override: verdict %s", fx_verdict(r));
    cr_expect_eq(fx_conf(r, "G9"), 0.0);
    corr_result_free(r);
}

/* faulthandler's dump of a fatal signal (CPython Python/traceback.c dump_frame: '  File "%s",
 * line %d in %s', no comma) with torch.ops.load_library on the stack: the process died while an
 * extension's .so registered its ops against this torch, an extension built for another torch
 * (pytorch/ao#2919). A Python traceback frame of the same function (", in") did not crash there. */
Test(drift, a_crash_inside_torch_load_library_is_g9)
{
    struct corr_result *r = scan_text(
        "ld-crash", "Fatal Python error: Aborted\n\n"
                    "Current thread 0x00007f00deadbeef (most recent call first):\n"
                    "  File \"/usr/lib/python3.12/ctypes/__init__.py\", line 379 in __init__\n"
                    "  File \"/srv/env/lib/python3.12/site-packages/torch/_ops.py\", line 1392 in "
                    "load_library\n"
                    "  File \"/srv/env/lib/python3.12/site-packages/someext/__init__.py\", line 18 "
                    "in <module>\n");
    cr_expect_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.extension-load-crashed"));
    corr_result_free(r);
    r = scan_text("ld-raise",
                  "Traceback (most recent call last):\n"
                  "  File \"/srv/env/lib/python3.12/site-packages/torch/_ops.py\", line 1392, in "
                  "load_library\n"
                  "OSError: /srv/env/lib/python3.12/site-packages/someext/_C.so: cannot open "
                  "shared object file: No such file or directory\n");
    cr_expect(!fx_cites(r, "G9", "G9.extension-load-crashed"), "a traceback frame is no crash");
    corr_result_free(r);
}

/* torchao's own (torchao, torch) table (pytorch/ao v0.15.0 and v0.16.0 torchao/__init__.py) as a
 * version pair on pip list's columns (pip src/pip/_internal/commands/list.py format_for_columns:
 * a header, a dashed rule, then "name  version" rows): torchao 0.16 is built for torch 2.10. */
static const char *const pip_list_torchao = "Package                  Version\n"
                                            "------------------------ -----------\n"
                                            "torch                    %s\n"
                                            "torchao                  0.16.0\n"
                                            "transformers             4.57.1\n";

Test(drift, torchao_beside_a_torch_of_another_release_is_g9)
{
    fx_load_shipped();
    char text[512];
    snprintf(text, sizeof text, pip_list_torchao, "2.9.1+cu130");
    struct corr_result *r = fx_scan_one("torchao-drift", "pip-list.txt", text);
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect_not_null(strstr(r->findings[0].summary, "built for torch 2.10"), "%s",
                       r->findings[0].summary);
    corr_result_free(r);
    /* near miss: the pair torchao's table lists */
    snprintf(text, sizeof text, pip_list_torchao, "2.10.0+cu130");
    r = fx_scan_one("torchao-paired", "pip-list.txt", text);
    cr_assert_eq(fx_conf(r, "G9"), 0.0, "G9 %.2f", fx_conf(r, "G9"));
    cr_assert_eq(r->records, 5u, "the listing was read: %zu records", (size_t)r->records);
    corr_result_free(r);
}

/* xformers' wheel matrix per tag (facebookresearch/xformers .github/workflows/wheels.yml) as a
 * version pair on pip freeze lines (pip src/pip/_internal/operations/freeze.py "name==version"):
 * a post release is a build for another torch (0.0.28.post1 for 2.4.1, 0.0.28.post3 for 2.5.1),
 * so the pair holds to the release the table writes, not to major.minor ("0.0"). */
Test(drift, xformers_post_release_beside_another_torch_is_g9)
{
    fx_load_shipped();
    struct corr_result *r =
        fx_scan_one("xf-drift", "freeze.txt", "torch==2.5.1+cu124\nxformers==0.0.28.post1\n");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect_not_null(strstr(r->findings[0].summary, "built for torch 2.4"), "%s",
                       r->findings[0].summary);
    corr_result_free(r);
    /* near miss: the next post release of the same base is the build for torch 2.5 */
    r = fx_scan_one("xf-paired", "freeze.txt", "torch==2.5.1+cu124\nxformers==0.0.28.post3\n");
    cr_assert_lt(fx_conf(r, "G9"), 0.35, "G9 %.2f", fx_conf(r, "G9"));
    cr_assert_eq(r->records, 2u, "the listing was read: %zu records", (size_t)r->records);
    corr_result_free(r);
    /* near miss: a release the table does not write ("0.0.2" is not "0.0.28") weighs nothing */
    r = fx_scan_one("xf-unlisted", "freeze.txt", "torch==2.5.1\nxformers==0.0.2\n");
    cr_assert_lt(fx_conf(r, "G9"), 0.35, "G9 %.2f", fx_conf(r, "G9"));
    corr_result_free(r);
}

/* The Windows loader's wording of an undefined torch symbol: STATUS_ENTRYPOINT_NOT_FOUND
 * ([MS-ERREF] 2.3.1, "The procedure entry point %hs could not be located in the dynamic link
 * library %hs.") naming an extension's .pyd under site-packages is G9, as ld.so's and dyld's
 * lines are; the same message about torch's own DLL or a system DLL is not two packages
 * drifting apart. */
Test(drift, the_windows_entry_point_of_a_torch_extension_is_g9)
{
    struct corr_result *r = scan_text(
        "win-ext",
        "python.exe - Entry Point Not Found: The procedure entry point "
        "?RegisterOperators@c10@@QEAA@XZ "
        "could not be located in the dynamic link library "
        "C:\\Users\\ana\\venv\\Lib\\site-packages\\torchaudio\\lib\\libtorchaudio.pyd.\n");
    cr_expect_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.torch-ext-win-entry-point"), "the loader line is the evidence");
    corr_result_free(r);
    r = scan_text("win-torch-lib",
                  "The procedure entry point ?x@@YAXXZ could not be located in the dynamic link "
                  "library C:\\venv\\Lib\\site-packages\\torch\\lib\\torch_cpu.dll\n");
    cr_expect_str_neq(fx_verdict(r), "G9", "torch's own DLL is not drift");
    corr_result_free(r);
}

/* A GPU older than the build (labelling rule: none): torch/cuda/__init__.py _check_capability's
 * old_gpu_warn ("Found GPU%d %s which is of cuda capability %d.%d.\n    PyTorch no longer
 * supports this GPU because it is too old.\n    The minimum cuda capability supported by this
 * library is %d.%d.") comes before the "no kernel image" it causes, and is the run's root. */
Test(drift, torch_warning_that_the_gpu_is_too_old_is_the_first_error)
{
    expect_none_first("old-gpu",
                      "/opt/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:262: "
                      "UserWarning: \n"
                      "    Found GPU0 Tesla K80 which is of cuda capability 3.7.\n"
                      "    PyTorch no longer supports this GPU because it is too old.\n"
                      "    The minimum cuda capability supported by this library is 5.0.\n"
                      "  warnings.warn(\n"
                      "RuntimeError: CUDA error: no kernel image is available for execution on "
                      "the device\n",
                      "C.cuda-error.gpu-too-old");
}

/* torch's "Torch not compiled with CUDA enabled" (pytorch/pytorch torch/cuda/__init__.py,
 * _lazy_init: `if not hasattr(torch._C, "_cuda_getDeviceCount"): raise AssertionError(...)`,
 * stored commit 17e3b6a9) is what any torch built without CUDA raises when a program calls CUDA:
 * a CPU wheel pip put on an NVIDIA machine (G9), but also every Mac and every CPU-only box. The
 * verdict needs the consequence: the text showing an NVIDIA machine. The frames are CPython's
 * '  File "{}", line {}, in {}' with values of our own. */
#define NOT_COMPILED_TRACE_AT(init_py)                                                             \
    "Traceback (most recent call last):\n"                                                         \
    "  File \"" init_py "\", line 310, in _lazy_init\n"                                            \
    "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"                         \
    "AssertionError: Torch not compiled with CUDA enabled\n"
#define NOT_COMPILED_TRACE(site) NOT_COMPILED_TRACE_AT(site "/torch/cuda/__init__.py")
#define NOT_COMPILED_TRACE_WIN                                                                     \
    NOT_COMPILED_TRACE_AT("C:\\AI\\venv\\Lib\\site-packages\\torch\\cuda\\__init__.py")

/* A Mac's own words, none of them a /Users or Homebrew path: torch's MPS fallback warning
 * (aten/src/ATen/mps/MPSFallback.mm mps_fallback: "The operator '%s' is not currently supported
 * on the MPS backend and will fall back to run on the CPU. ..."), collect_env's get_os on macOS
 * 26 ("macOS %s (%s)") and CPython's macOS extension suffix (".cpython-XY-darwin.so") in
 * setuptools' "copying %s -> %s". */
Test(drift, torch_without_cuda_on_a_mac_is_no_g9)
{
    static const char *const mac[][2] = {
        {"mps",
         "UserWarning: The operator 'aten::_fft_r2c' is not currently supported on the MPS "
         "backend and will fall back to run on the CPU. This may have performance "
         "implications.\n" NOT_COMPILED_TRACE("/opt/conda/envs/tts/lib/python3.10/site-packages")},
        {"os26", "OS: macOS 26.1 (arm64)\n" NOT_COMPILED_TRACE(
                     "/opt/conda/envs/tts/lib/python3.10/site-packages")},
        {"darwin-so", "copying build/lib.macosx-11.0-arm64-cpython-310/monotonic_align/"
                      "core.cpython-310-darwin.so -> monotonic_align\n" NOT_COMPILED_TRACE(
                          "/opt/conda/envs/tts/lib/python3.10/site-packages")},
    };
    for (size_t i = 0; i < sizeof mac / sizeof mac[0]; i++) {
        struct corr_result *r = scan_text(mac[i][0], mac[i][1]);
        cr_expect_str_eq(fx_verdict(r), "none", "%s: verdict %s", mac[i][0], fx_verdict(r));
        for (size_t p = 0; p < r->npossible; p++)
            cr_expect_str_neq(r->possible[p].entry->id, "G9", "%s: G9 left possible on a Mac",
                              mac[i][0]);
        corr_result_free(r);
    }
}

/* On a Linux box whose nvidia-smi answers (its header row "NVIDIA-SMI %s  Driver Version: %s
 * CUDA Version: %s"), or whose collect_env names the driver ("Nvidia driver version: %s"), a
 * GPU (nvidia-smi -L "GPU %d: %s (UUID: ...)"), or whose install shows a CUDA torch's local
 * version ("+cu124"), the torch without CUDA is the wrong build for that machine: G9. */
Test(drift, torch_without_cuda_on_an_nvidia_machine_is_g9)
{
    static const char *const nv[][2] = {
        {"smi", "| NVIDIA-SMI 550.120                Driver Version: 550.120        CUDA Version: "
                "12.4     |\n" NOT_COMPILED_TRACE("/home/dev/venv/lib/python3.10/site-packages")},
        {"collect-env", "Nvidia driver version: 535.216.01\n" NOT_COMPILED_TRACE(
                            "/home/dev/venv/lib/python3.10/site-packages")},
        {"gpu-name",
         "GPU 0: NVIDIA GeForce RTX 3060 (UUID: GPU-0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d)"
         "\n" NOT_COMPILED_TRACE("/home/dev/venv/lib/python3.10/site-packages")},
        {"cu-wheel", "  Attempting uninstall: torch\n    Found existing installation: torch "
                     "2.4.1+cu124\n" NOT_COMPILED_TRACE_WIN},
    };
    for (size_t i = 0; i < sizeof nv / sizeof nv[0]; i++) expect_verdict(nv[i][0], nv[i][1], "G9");
}

/* pip's own transcript putting a torch in ("Installing collected packages: %s", pypa/pip
 * commands/install.py), then the assertion: the install replaced the torch, G9. */
Test(drift, torch_without_cuda_after_pip_installed_torch_is_g9)
{
    expect_verdict(
        "pip-torch",
        "Installing collected packages: sympy, networkx, torch, torchaudio\n"
        "Successfully installed networkx-3.4.2 sympy-1.13.1 torch-2.5.1 "
        "torchaudio-2.5.1\n" NOT_COMPILED_TRACE("/home/dev/venv/lib/python3.10/site-packages"),
        "G9");
}

/* The assertion alone, and under a Linux home that shows no NVIDIA machine: nothing decides
 * between a CPU wheel on a GPU machine and a machine with no GPU, so G9 is left possible, never
 * the verdict. (Windows is the exception below: PyPI's Windows torch is CPU-only.) */
Test(drift, torch_without_cuda_alone_leaves_g9_possible)
{
    static const char *const bare[][2] = {
        {"bare", "AssertionError: Torch not compiled with CUDA enabled\n"},
        {"linux", NOT_COMPILED_TRACE("/home/dev/venv/lib/python3.10/site-packages")},
    };
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++) {
        struct corr_result *r = scan_text(bare[i][0], bare[i][1]);
        cr_expect_str_eq(fx_verdict(r), "none", "%s: verdict %s", bare[i][0], fx_verdict(r));
        cr_expect_geq(r->npossible, 1, "%s: nothing possible", bare[i][0]);
        if (r->npossible)
            cr_expect_str_eq(r->possible[0].entry->id, "G9", "%s: possible %s", bare[i][0],
                             r->possible[0].entry->id);
        corr_result_free(r);
    }
}

/* On Windows, PyPI's torch wheels are CPU-only (the CUDA builds come from
 * download.pytorch.org/whl/cuXXX), so the assertion under a Windows site-packages path is the
 * CPU wheel a pip install left in place of the CUDA one: G9. */
Test(drift, torch_without_cuda_on_windows_is_g9)
{
    expect_verdict("win", NOT_COMPILED_TRACE_WIN, "G9");
}

/* cuDNN's own loader (closed source; libcudnn.so.8 dlopen()s its sub-libraries and prints "Could
 * not load library %s. Error: %s" with glibc's dlerror() "%s: cannot open shared object file: No
 * such file or directory", elf/dl-load.c; cuDNN for Windows "Could not locate %s. Please make sure
 * it is in your library path!") beside the stack's CUDA generation (pip list's torch build tag, the
 * Windows toolkit path). cuDNN 8 exists for CUDA 10.2-12 only: missing on a CUDA 13 stack it is the
 * generation mismatch (G1, tests/realworld/README.md); on CUDA 12 it is a library not installed
 * (C.missing-file, no gotcha). cuDNN 9 ships for CUDA 12 and 13 under one soname: missing, it
 * names no generation. The driver's libcuda.so missing under cuDNN 8's loader (WSL) is no cuDNN. */
static const char *cudnn_run(char *buf, size_t n, const char *torch, const char *line)
{
    snprintf(buf, n,
             "$ pip list | grep -E 'torch|ctranslate2'\n"
             "ctranslate2              4.4.0\n"
             "torch                    %s\n"
             "$ python transcribe.py talk.wav\n"
             "%s\n"
             "Aborted (core dumped)\n",
             torch, line);
    return buf;
}

#define CUDNN8_OPS                                                                                 \
    "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open " \
    "shared object file: No such file or directory"

#define CUDNN8_WIN                                                                                 \
    "PS C:\\asr> $env:CUDA_PATH\n"                                                                 \
    "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\%s\n"                                  \
    "PS C:\\asr> python app.py\n"                                                                  \
    "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\n"

Test(drift, a_cudnn_of_another_cuda_generation_is_g1_only_on_a_cuda13_stack)
{
    char buf[1024];
    struct corr_result *r =
        scan_text("cu13", cudnn_run(buf, sizeof buf, "2.9.0+cu130", CUDNN8_OPS));
    cr_expect_str_eq(fx_verdict(r), "G1", "cuDNN 8 on CUDA 13: %s", fx_verdict(r));
    cr_expect_str_eq(first_sig(r), "C.missing-file.lib-loader-cannot-open", "got %s", first_sig(r));
    corr_result_free(r);
    expect_none_first("cu12", cudnn_run(buf, sizeof buf, "2.4.1+cu121", CUDNN8_OPS),
                      "C.missing-file.lib-loader-cannot-open");
    expect_verdict("cu13-cudnn9",
                   cudnn_run(buf, sizeof buf, "2.9.0+cu130",
                             "ImportError: libcudnn.so.9: cannot open shared object file: No such "
                             "file or directory"),
                   "none");
    expect_none_first(
        "cu13-wsl",
        cudnn_run(buf, sizeof buf, "2.9.0+cu130",
                  "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: "
                  "cannot open shared object file: No such file or directory"),
        "C.missing-file.lib-loader-cannot-open");
    snprintf(buf, sizeof buf, CUDNN8_WIN, "v13.0");
    expect_verdict("win-cu13", buf, "G1");
    snprintf(buf, sizeof buf, CUDNN8_WIN, "v12.4");
    expect_none_first("win-cu12", buf, "C.missing-file.win-library-locate");
}

/* glibc's one dlerror() message ("%s: %s" of elf/dl-lookup.c's "undefined symbol: %s") broken
 * after "undefined symbol:" by a console or a copy: the object and the label on one line, the
 * mangled torch name alone below. Read together they are G9.torch-cpp-abi's message; the bare
 * name alone names nothing. */
Test(drift, an_undefined_torch_symbol_wrapped_after_its_label_is_g9)
{
    const char *sym = "  _ZN3c1010ValueErrorC1ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11"
                      "char_traitsIcESaIcEEE\n";
    char text[512];
    snprintf(text, sizeof text,
             "ImportError: /opt/venv/lib/python3.11/site-packages/geomext/libgeomext.so: "
             "undefined symbol:\n%s",
             sym);
    struct corr_result *r = scan_text("wrapped-label", text);
    cr_expect_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.torch-symbol-wrapped"), "the symbol line is evidence");
    corr_result_free(r);
    expect_verdict("bare-symbol", sym, "none");
}

/* ONNX Runtime's Windows loader (onnxruntime/core/platform/windows/env.cc LoadDynamicLibrary:
 * "LoadLibrary failed with error " << code << " \"" << message << "\" when trying to load \""
 * << path << "\"", logged by provider_bridge_ort.cc) is the run's missing file; an access
 * refusal (error 5) is not. */
Test(drift, onnxruntime_provider_loadlibrary_failure_is_a_missing_file)
{
    expect_none_first("ort-126",
                      "D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1637 "
                      "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : "
                      "LoadLibrary failed with error 126 \"\" when trying to load "
                      "\"C:\\app\\ort\\lib\\onnxruntime_providers_cuda.dll\"\n",
                      "C.missing-file.ort-loadlibrary");
    struct corr_result *r =
        scan_text("ort-5", "LoadLibrary failed with error 5 \"Access is "
                           "denied.\" when trying to load \"C:\\app\\x.dll\"\n");
    cr_expect_str_neq(first_sig(r), "C.missing-file.ort-loadlibrary", "error 5 is no missing file");
    corr_result_free(r);
}

/* transformers' AutoConfig (models/auto/configuration_auto.py: "The checkpoint you are trying
 * to load has model type `{model_type}` but Transformers does not recognize this architecture.
 * ...") behind pydantic's "Value error, {error}" in vLLM's config validation: a transformers
 * too old for the model is the run's first error, none of the ten. */
Test(drift, transformers_too_old_for_the_model_type_is_the_first_error)
{
    expect_none_first("unknown-model-type",
                      "  Value error, The checkpoint you are trying to load has model type "
                      "`glm4_moe_lite` but Transformers does not recognize this architecture. "
                      "This could be because of an issue with the checkpoint, or because your "
                      "version of Transformers is out of date. [type=value_error, "
                      "input_value=ArgsKwargs((), {'model': '/models/glm'}), "
                      "input_type=ArgsKwargs]\n",
                      "C.python-exception.unknown-model-type");
}

/* A CUDA driver API function (cu*, exported by the driver's libcuda.so) the loader cannot find
 * says the driver is older than the toolkit the binary was built with: glibc elf/dl-lookup.c's
 * "undefined symbol: %s" behind dlerror's "%s: " object, with cuGreenCtxStreamCreate (CUDA 12.5)
 * from a build of CUDA 12.5 headers on a 12.4 driver. Within one major that is a driver to
 * update, so the line alone is a hint of G1 (possible), not a verdict; a runtime symbol of the
 * versioned libcudart.so.12 still is G1. */
Test(drift, an_undefined_driver_api_function_is_a_hint_and_a_runtime_symbol_is_g1)
{
    struct corr_result *r = scan_text(
        "driver", "Traceback (most recent call last):\n"
                  "  File \"/work/tests/test_quant.py\", line 3, in <module>\n"
                  "    import mypkg\n"
                  "ImportError: /opt/conda/lib/python3.10/site-packages/mypkg/common_ops.abi3.so: "
                  "undefined symbol: cuGreenCtxStreamCreate\n");
    cr_expect_str_eq(fx_verdict(r), "none");
    cr_expect(fx_cites(r, "G1", "G1.undefined-driver-symbol"), "the line is G1's hint");
    cr_expect_lt(fx_conf(r, "G1"), 0.35);
    corr_result_free(r);
    expect_verdict("runtime",
                   "ImportError: /opt/venv/lib/python3.12/site-packages/mypkg/_C.so: undefined "
                   "symbol: cudaGetKernel, version libcudart.so.12\n",
                   "G1");
}

/* JAX's own drift checks: jaxlib/plugin_support.py's RuntimeWarning "JAX plugin {name} version
 * {v} is installed, but it is not compatible with the installed jaxlib version {v}, so it will
 * not be used." (also cut after "is installed," where a console wrapped it), and
 * jax/_src/lib/__init__.py's "jaxlib is version {v}, but this version of jax requires version >=
 * {min}." name G9; xla_bridge.py's "Jax plugin configuration error: Exception when calling
 * {mod}.initialize()" alone is a hint (a CUDA library the plugin cannot load fails the same way),
 * and a healthy jax.print_environment_info() names nothing. */
Test(drift, jax_plugin_and_jaxlib_of_two_releases_are_g9)
{
    expect_verdict("plugin",
                   "/opt/venv/lib/python3.12/site-packages/jax/_src/xla_bridge.py:912: "
                   "RuntimeWarning: JAX plugin jax_cuda12_plugin version 0.6.2 is installed, \n"
                   "but it is not compatible with the installed jaxlib version 0.6.0\n"
                   "RuntimeError: No FFI handler registered for cusolver_potrf_ffi on a platform "
                   "CUDA\n",
                   "G9");
    expect_verdict("jaxlib",
                   "  File \"/opt/venv/lib/python3.12/site-packages/jax/_src/lib/__init__.py\", "
                   "line 88, in check_jaxlib_version\n"
                   "RuntimeError: jaxlib is version 0.4.30, but this version of jax requires "
                   "version >= 0.4.35.\n",
                   "G9");
    struct corr_result *r = scan_text(
        "init", "Jax plugin configuration error: Exception when calling "
                "jax_plugins.xla_cuda12.initialize()\n"
                "Traceback (most recent call last):\n"
                "  File \"/opt/venv/lib/python3.12/site-packages/jax/_src/xla_bridge.py\", "
                "line 610, in discover_pjrt_plugins\n"
                "    plugin_module.initialize()\n");
    cr_expect_str_eq(fx_verdict(r), "none");
    cr_expect(fx_cites(r, "G9", "G9.jax-plugin-init-failed"));
    corr_result_free(r);
    expect_verdict("healthy", "jax:    0.6.0\njaxlib: 0.6.0\nnumpy:  2.2.3\npython: 3.12.3\n",
                   "none");
}

/* PTX written by a toolkit newer than the driver (CUDA's cudaErrorUnsupportedPtxVersion, 222:
 * "the provided PTX was compiled with an unsupported toolchain.", the driver API's
 * CUDA_ERROR_UNSUPPORTED_PTX_VERSION with the same text) is the run's first error, and no CUDA
 * generation: a driver to update within one major. Before, only torch's "CUDA error: " form was
 * read, as a weak generic CUDA error, and a tool's own wording ("cuLinkAddData(): ...") not at
 * all. */
Test(drift, ptx_newer_than_the_driver_is_the_first_error_and_no_gotcha)
{
    expect_none_first("ptx-link",
                      "Started on Mon Mar  2 10:01:11 2026\n"
                      "cuLinkAddData(): the provided PTX was compiled with an unsupported "
                      "toolchain.\n",
                      "C.cuda-error.unsupported-ptx");
    expect_none_first("ptx-rt",
                      "[cudaErrorUnsupportedPtxVersion] the provided PTX was compiled with an "
                      "unsupported toolchain. in expression cudaGetLastError() in memsetKernel() : "
                      "/src/kernels.cu:406\n",
                      "C.cuda-error.unsupported-ptx");
}

/* Triton before its 3.5 line maps ptxas releases 10-12 to a PTX version and raises on any other
 * (triton-lang/triton third_party/nvidia/backend/compiler.py ptx_get_version, stored commit
 * 2b43145; the later text "Triton only support CUDA 10.0 or higher, but got CUDA version: " +
 * cuda_version, facebookexperimental/triton 00788e9): a CUDA 13 ptxas is a CUDA 12-era Triton on
 * a CUDA 13 toolkit, G1 anywhere; the form without the version, or an old ptxas, names nothing. */
Test(drift, a_triton_older_than_cuda13_handed_a_cuda13_ptxas_is_g1)
{
    expect_verdict("triton13",
                   "RuntimeError: Triton only support CUDA 10.0 or higher, but got CUDA version: "
                   "13.0\n",
                   "G1");
    expect_verdict("triton9",
                   "RuntimeError: Triton only support CUDA 10.0 or higher, but got CUDA version: "
                   "9.2\n",
                   "none");
}
