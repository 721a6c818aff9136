/*
 * tests/unit/test_runtime_build.c - flash-attn's own build (G2) and the CUDA generation a loader
 * reports (G1), read from the emitters' format strings and scanned with the shipped pack. Every
 * line is built from its emitter's format with values of our own (docs/emitters.md names the
 * file and release of each):
 *  - pip 22.3 req_install.py ensure_build_location ("{name}_{uuid hex}" under pip-install-XXXX)
 *    and setuptools_build.py's shim (exec(compile(code, __file__))), through CPython's
 *    traceback '  File "{}", line {}, in {}'; the PEP 517 path execs a string: File "<string>";
 *  - pip 26.2.1 exceptions/__init__.py FailedToPrepareCandidate: "Failed to build '{name}' when
 *    {step}"; exceptions/build.py "{command} did not run successfully.";
 *  - uv 0.12.5 crates/uv-build-frontend/src/error.rs hint_build_dependency: "This error likely
 *    indicates that `{name}@{version}` depends on `{module}`, but doesn't declare it as a build
 *    dependency. ...";
 *  - flash-attention setup.py: its CUDAExtension sources csrc/flash_attn/src/flash_*_sm80.cu and
 *    add_cuda_gencodes' "-gencode arch=compute_{newest},code=compute_{newest}";
 *  - nvcc: "nvcc fatal   : Unsupported gpu architecture '%s'";
 *  - flash-attention setup.py v2.7.4 / v2.8.3 get_cuda_bare_metal_version (CUDA_HOME/bin/nvcc -V)
 *    through CPython's OSError_str "[Errno %S] %S: %R"; torch/utils/cpp_extension.py
 *    _join_cuda_home "CUDA_HOME environment variable is not set. ..."; pip's "Collecting %s",
 *    "Downloading %s";
 *  - flash-attention csrc/flash_attn/flash_api.cpp v2.7.4 / v2.8.3 "FlashAttention only supports
 *    Ampere GPUs or newer."; flash_attn/flash_attn_interface.py's flash_attn_gpu.fwd call;
 *  - CTranslate2 v4.8.1 src/cuda/cublas_stub.cc: "Library " CUBLAS_LIBNAME " is not found or
 *    cannot be loaded"; glibc elf/dl-load.c "cannot open shared object file" via dlerror.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "correlate/corr.h"
#include "scan_fixture.h"

TestSuite(runtime_build, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

static void expect_verdict(const char *sub, const char *text, const char *want)
{
    struct corr_result *r = fx_scan_one(sub, "run.log", text);
    cr_expect_str_eq(fx_verdict(r), want, "%s: verdict %s, want %s", sub, fx_verdict(r), want);
    corr_result_free(r);
}

/* pip's legacy egg_info path runs flash-attn's setup.py by its path, and setup.py imports torch
 * first: the frame names flash-attn's tree. The same traceback under another package's setup.py,
 * or under PEP 517's exec'd string, says nothing of flash-attn. */
Test(runtime_build, an_exception_in_flash_attn_setup_py_is_g2)
{
    expect_verdict(
        "legacy",
        "  Preparing metadata (setup.py) ... error\n"
        "  error: subprocess-exited-with-error\n"
        "  \xc3\x97 python setup.py egg_info did not run successfully.\n"
        "  \xe2\x94\x82 exit code: 1\n"
        "  \xe2\x95\xb0\xe2\x94\x80> [6 lines of output]\n"
        "      Traceback (most recent call last):\n"
        "        File \"<string>\", line 2, in <module>\n"
        "        File \"<pip-setuptools-caller>\", line 34, in <module>\n"
        "        File \"/tmp/pip-install-7h6g5f4d/flash-attn_a1b2c3d4e5f60718293a4b5c6d7e8f90/"
        "setup.py\", line 22, in <module>\n"
        "          import torch\n"
        "      ModuleNotFoundError: No module named 'torch'\n"
        "      [end of output]\n",
        "G2");
    expect_verdict("checkout",
                   "Traceback (most recent call last):\n"
                   "  File \"/home/dev/src/flash-attention/setup.py\", line 296, in <module>\n"
                   "    raise RuntimeError(\n"
                   "RuntimeError: Unable to find a CUDA toolkit for this build\n",
                   "G2");
    expect_verdict(
        "other-package",
        "      Traceback (most recent call last):\n"
        "        File \"/tmp/pip-install-7h6g5f4d/causal-conv1d_a1b2c3d4e5f60718293a4b5c6d7e"
        "8f90/setup.py\", line 19, in <module>\n"
        "          import torch\n"
        "      ModuleNotFoundError: No module named 'torch'\n",
        "none");
    expect_verdict("string-frame",
                   "      Traceback (most recent call last):\n"
                   "        File \"<string>\", line 22, in <module>\n"
                   "      ModuleNotFoundError: No module named 'torch'\n",
                   "none");
}

/* A flash-attn setup.py frame far above an unrelated exception is not that exception's frame. */
Test(runtime_build, a_flash_attn_frame_far_above_the_exception_is_not_g2)
{
    char text[4096];
    size_t n =
        (size_t)snprintf(text, sizeof text, "%s",
                         "  File \"/tmp/flash_attn-2.6.3/setup.py\", line 22, in <module>\n");
    for (int i = 0; i < 20; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "step %d: training batch ok\n", i);
    snprintf(text + n, sizeof text - n, "KeyError: 'labels'\n");
    expect_verdict("far", text, "none");
}

/* uv names the package whose build imported an undeclared module; only flash-attn's is G2. */
Test(runtime_build, uv_build_dependency_hint_names_g2_for_flash_attn_only)
{
    expect_verdict(
        "uv-fa",
        "  \xc3\x97 Failed to build `flash-attn==2.7.4.post1`\n"
        "  \xe2\x94\x9c\xe2\x94\x80\xe2\x96\xb6 The build backend returned an error\n"
        "      ModuleNotFoundError: No module named 'torch'\n"
        "      hint: This error likely indicates that `flash-attn@2.7.4.post1` depends on "
        "`torch`, but doesn't declare it as a build dependency. If `flash-attn` is a "
        "first-party package, consider adding `torch` to its `build-system.requires`.\n",
        "G2");
    expect_verdict("uv-hint-alone",
                   "hint: This error likely indicates that `flash-attn@2.6.3` depends on "
                   "`packaging`, but doesn't declare it as a build dependency.\n",
                   "G2");
    expect_verdict("uv-other",
                   "hint: This error likely indicates that `mamba-ssm@2.2.4` depends on `torch`, "
                   "but doesn't declare it as a build dependency. If `mamba-ssm` is a first-party "
                   "package, consider adding `torch` to its `build-system.requires`.\n",
                   "none");
}

/* pip 25.3 on names the package that failed to prepare, quoted. */
Test(runtime_build, pip_failed_to_build_quoted_name_is_g2)
{
    expect_verdict("pip253",
                   "  \xc3\x97 Getting requirements to build wheel did not run successfully.\n"
                   "  \xe2\x94\x82 exit code: 1\n"
                   "ERROR: Failed to build 'flash-attn' when getting requirements to build wheel\n",
                   "G2");
    expect_verdict(
        "pip253-other",
        "  \xc3\x97 Getting requirements to build wheel did not run successfully.\n"
        "ERROR: Failed to build 'causal-conv1d' when getting requirements to build wheel\n",
        "none");
}

/* nvcc refusing an arch: inside flash-attn's own compile it is flash-attn's arch list (G2, over
 * G1's toolkit-older-than-the-GPU reading of the same line); in another build of the GPU's own
 * arch it stays G1; an old arch an old toolkit lacks is a build failure of neither. */
Test(runtime_build, nvcc_unsupported_arch_in_flash_attn_build_is_g2)
{
    const char *fa =
        "[5/73] /usr/local/cuda/bin/nvcc -c -c /tmp/pip-install-x/flash-attn_00ff/csrc/flash_attn/"
        "src/flash_bwd_hdim64_bf16_causal_sm80.cu -o /tmp/pip-install-x/flash-attn_00ff/build/"
        "temp.linux-aarch64-cpython-310/csrc/flash_attn/src/flash_bwd_hdim64_bf16_causal_sm80.o "
        "-gencode arch=compute_80,code=sm_80 -gencode arch=compute_120,code=compute_120\n"
        "nvcc fatal   : Unsupported gpu architecture 'compute_120'\n"
        "ninja: build stopped: subcommand failed.\n";
    struct corr_result *r = fx_scan_one("fa-nvcc", "build.log", fa);
    cr_expect_str_eq(fx_verdict(r), "G2");
    cr_expect_gt(fx_conf(r, "G2"), fx_conf(r, "G1"), "G2 %.2f over G1 %.2f", fx_conf(r, "G2"),
                 fx_conf(r, "G1"));
    corr_result_free(r);
    expect_verdict("cmake-nvcc",
                   "-- CMAKE_CUDA_ARCHITECTURES not defined, setting it to `native`\n"
                   "nvcc fatal   : Unsupported gpu architecture 'compute_121'\n",
                   "G1");
    r = fx_scan_one("old-arch", "build.log",
                    "nvcc fatal   : Unsupported gpu architecture 'compute_90'\n");
    cr_expect_str_eq(fx_verdict(r), "none");
    cr_expect(r->first_error && r->first_error->sig &&
                  !strcmp(r->first_error->sig->id, "C.build.nvcc-unsupported-arch"),
              "the nvcc line is the first error");
    corr_result_free(r);
}

/* The CUDA generation as each loader reports it: CTranslate2's own dlopen of cuBLAS (Linux and
 * Windows names), ld.so for an old toolkit's major.minor soname. */
Test(runtime_build, each_loader_reports_a_cuda_major_the_system_lacks)
{
    expect_verdict("ct2-linux",
                   "RuntimeError: Library libcublas.so.12 is not found or cannot be "
                   "loaded\n",
                   "G1");
    expect_verdict("ct2-windows",
                   "RuntimeError: Library cublas64_11.dll is not found or cannot be "
                   "loaded\n",
                   "G1");
    expect_verdict("ldso-old",
                   "ImportError: libcudart.so.10.2: cannot open shared object file: No "
                   "such file or directory\n",
                   "G1");
    /* NCCL through the same stub names no CUDA generation */
    expect_verdict("ct2-nccl",
                   "RuntimeError: Library libnccl.so.2 is not found or cannot be "
                   "loaded\n",
                   "none");
}

/* The system's CUDA major from nvcc's own version line: a CUDA 13 library missing where the
 * toolkit is CUDA 12 is the mismatch the other way (G1); alone, the missing .so.13 is a hint. */
Test(runtime_build, nvcc_release_says_the_system_cuda_major)
{
    const char *missing = "ImportError: libcudart.so.13: cannot open shared object file: No such "
                          "file or directory\n";
    char text[512];
    snprintf(text, sizeof text, "%s%s",
             "nvcc: NVIDIA (R) Cuda compiler driver\n"
             "Cuda compilation tools, release 12.6, V12.6.68\n",
             missing);
    expect_verdict("nvcc12", text, "G1");
    expect_verdict("alone", missing, "none");
    snprintf(text, sizeof text, "%s%s", "Cuda compilation tools, release 13.0, V13.0.48\n",
             missing);
    expect_verdict("nvcc13", text, "none");
}

/* CUDA's crt/host_config.h refuses the host compiler (MSVC's C1189 form, clang's own): the
 * build's first error, whatever nvcc prints after it. */
Test(runtime_build, nvcc_host_compiler_check_is_the_first_build_error)
{
    struct corr_result *r = fx_scan_one(
        "msvc", "build.log",
        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1\\include\\crt/"
        "host_config.h(153): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio "
        "version! Only the versions between 2017 and 2022 (inclusive) are supported! The nvcc "
        "flag '-allow-unsupported-compiler' can be used to override this version check\n"
        "error: command 'nvcc.exe' failed with exit code 2\n");
    cr_expect_str_eq(fx_verdict(r), "none");
    cr_expect(r->first_error && r->first_error->sig &&
                  !strcmp(r->first_error->sig->id, "C.build.host-compiler-unsupported"),
              "the host-compiler check is the first error");
    corr_result_free(r);
}

/* A kernel image missing or refused on a GPU newer than most prebuilt builds (ggml's device line,
 * ggml-cuda.cu "Device %d: %s, compute capability %d.%d, VMM: %s"), and flash-attn's own call
 * raising the CUDA runtime's "device kernel image is invalid". An Ampere card with the same error
 * gets no such weight. */
Test(runtime_build, no_kernel_image_on_a_newer_gpu_is_g1_inside_flash_attn_g2)
{
    const char *tail = "CUDA error: no kernel image is available for execution on the device\n"
                       "  current device: 0, in function ggml_cuda_op_mul_mat at "
                       "/src/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:1633\n";
    char text[1024];
    snprintf(text, sizeof text,
             "ggml_cuda_init: found 1 CUDA devices:\n"
             "  Device 0: NVIDIA GeForce RTX 5080, compute capability 12.0, VMM: yes, VRAM: "
             "16302 MiB\n%s",
             tail);
    expect_verdict("ggml-120", text, "G1");
    snprintf(text, sizeof text,
             "ggml_cuda_init: found 1 CUDA devices:\n"
             "  Device 0: NVIDIA GeForce RTX 3080, compute capability 8.6, VMM: yes, VRAM: "
             "10001 MiB\n%s",
             tail);
    expect_verdict("ggml-86", text, "none");
    expect_verdict("fa-invalid-image",
                   "  File \"/opt/venv/lib/python3.11/site-packages/flash_attn/"
                   "flash_attn_interface.py\", line 96, in _flash_attn_forward\n"
                   "    out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(\n"
                   "RuntimeError: CUDA error: device kernel image is invalid\n",
                   "G2");
}

/* flash-attn's setup.py (Dao-AILab/flash-attention v2.7.4 / v2.8.3) runs
 * get_cuda_bare_metal_version(CUDA_HOME), i.e. subprocess.check_output([cuda_dir + "/bin/nvcc",
 * "-V"]), whenever CUDA_HOME is set: in a CUDA runtime image /usr/local/cuda exists without nvcc,
 * and CPython's subprocess raises "[Errno 2] No such file or directory: '%s'" (OSError_str).
 * Under Python 3.12 the carets push the setup.py frame more than 12 lines above the exception,
 * so the frame rule does not reach it: pip's own lines (PyPI's flash-attn is an sdist, pip
 * prepares it by running setup.py) say which build it is. Values are our own. */
#define FA_NVCC_TRACE                                                                              \
    "      Traceback (most recent call last):\n"                                                   \
    "        File \"<string>\", line 2, in <module>\n"                                             \
    "        File \"<pip-setuptools-caller>\", line 35, in <module>\n"                             \
    "        File \"/tmp/pip-install-q2w3e4r5/flash-attn_0f1e2d3c4b5a69788796a5b4c3d2e1f0/"        \
    "setup.py\", line 172, in <module>\n"                                                          \
    "          _, bare_metal_version = get_cuda_bare_metal_version(CUDA_HOME)\n"                   \
    "                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"                   \
    "        File \"/tmp/pip-install-q2w3e4r5/flash-attn_0f1e2d3c4b5a69788796a5b4c3d2e1f0/"        \
    "setup.py\", line 89, in get_cuda_bare_metal_version\n"                                        \
    "          raw_output = subprocess.check_output([cuda_dir + \"/bin/nvcc\", \"-V\"], "          \
    "universal_newlines=True)\n"                                                                   \
    "                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"  \
    "        File \"/usr/lib/python3.12/subprocess.py\", line 466, in check_output\n"              \
    "          return run(*popenargs, stdout=PIPE, timeout=timeout, check=True,\n"                 \
    "                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"                 \
    "        File \"/usr/lib/python3.12/subprocess.py\", line 548, in run\n"                       \
    "          with Popen(*popenargs, **kwargs) as process:\n"                                     \
    "               ^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"                                                 \
    "        File \"/usr/lib/python3.12/subprocess.py\", line 1026, in __init__\n"                 \
    "          self._execute_child(args, executable, preexec_fn, close_fds,\n"                     \
    "        File \"/usr/lib/python3.12/subprocess.py\", line 1955, in _execute_child\n"           \
    "          raise child_exception_type(errno_num, err_msg, err_filename)\n"                     \
    "      FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'\n"   \
    "      [end of output]\n"

Test(runtime_build, a_flash_attn_source_build_without_nvcc_is_g2)
{
    expect_verdict("runtime-image",
                   "Collecting flash-attn==2.8.3\n"
                   "  Downloading flash_attn-2.8.3.tar.gz (8.4 MB)\n"
                   "  Preparing metadata (setup.py) ... error\n"
                   "  error: subprocess-exited-with-error\n" FA_NVCC_TRACE,
                   "G2");
    /* pip's lines cut away (a console scrolled): the setup.py frame itself is flash-attn's build */
    expect_verdict("frame-only", FA_NVCC_TRACE, "G2");
}

/* The same "no nvcc" from another project's build, and torch's cpp_extension _join_cuda_home
 * OSError ("CUDA_HOME environment variable is not set. Please set it to your CUDA install
 * root."), raised for any CUDA extension, say nothing of flash-attn: a build failure, no G2 (not
 * even a possible one). */
Test(runtime_build, nvcc_missing_without_flash_attn_is_not_g2)
{
    static const char *const other[][2] = {
        {"own-setup", "Traceback (most recent call last):\n"
                      "  File \"/home/dev/src/rasterizer/setup.py\", line 12, in <module>\n"
                      "    out = subprocess.check_output([\"/usr/local/cuda/bin/nvcc\", \"-V\"])\n"
                      "FileNotFoundError: [Errno 2] No such file or directory: "
                      "'/usr/local/cuda/bin/nvcc'\n"},
        {"cuda-home", "  File \"/home/dev/venv/lib/python3.10/site-packages/torch/utils/"
                      "cpp_extension.py\", line 2416, in _join_cuda_home\n"
                      "    raise OSError('CUDA_HOME environment variable is not set. '\n"
                      "OSError: CUDA_HOME environment variable is not set. Please set it to your "
                      "CUDA install root.\n"},
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        struct corr_result *r = fx_scan_one(other[i][0], "run.log", other[i][1]);
        cr_expect_str_eq(fx_verdict(r), "none", "%s: verdict %s", other[i][0], fx_verdict(r));
        cr_expect_lt(fx_conf(r, "G2"), 0.2, "%s: G2 at %.2f", other[i][0], fx_conf(r, "G2"));
        for (size_t p = 0; p < r->npossible; p++)
            cr_expect_str_neq(r->possible[p].entry->id, "G2", "%s: G2 possible", other[i][0]);
        cr_expect_str_eq(r->first_error_entry ? r->first_error_entry->id : "", "C.build",
                         "%s: first error", other[i][0]);
        corr_result_free(r);
    }
}

/* flash-attn's own architecture check (csrc/flash_attn/flash_api.cpp v2.7.4 / v2.8.3:
 * TORCH_CHECK(cc_major >= 8, "FlashAttention only supports Ampere GPUs or newer."); v2.6.3 and
 * older also refused SM100/SM12x) is G2 on any GPU, a Turing T4 too; and a prebuilt wheel whose
 * kernels do not fit the GPU raises CUDA's "no kernel image" from its interface, here in a
 * Windows ComfyUI portable tree under a custom node (backslashed paths). */
Test(runtime_build, flash_attn_refusing_the_gpu_is_g2_anywhere)
{
    expect_verdict("ampere-t4",
                   "GPU 0: Tesla T4 (UUID: GPU-7d1e2f3a-4b5c-6d7e-8f90-a1b2c3d4e5f6)\n"
                   "  File \"/opt/venv/lib/python3.11/site-packages/flash_attn/"
                   "flash_attn_interface.py\", line 96, in _flash_attn_forward\n"
                   "    out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(\n"
                   "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n",
                   "G2");
    expect_verdict(
        "win-comfy",
        "!!! Exception during processing !!! CUDA error: no kernel image is available for "
        "execution on the device\n"
        "Traceback (most recent call last):\n"
        "  File \"C:\\AI\\ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\ComfyUI-VideoNodes\\"
        "nodes\\attention.py\", line 57, in forward\n"
        "    x = flash_attn_func(q, k, v, causal=False)\n"
        "  File \"C:\\AI\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\"
        "flash_attn\\flash_attn_interface.py\", line 96, in _flash_attn_forward\n"
        "    out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
        "G2");
}
