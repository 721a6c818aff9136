/*
 * tests/unit/test_docker_build.c - docker builds (issue #20, "Formats: docker/BuildKit build
 * logs", and "a pip install that replaced a container's torch") on the shipped pack.
 *
 * Where the fixture lines come from (each built from the emitter's format string with values of
 * ours):
 *  - BuildKit's plain progress (moby/buildkit v0.32.2 util/progress/progressui/printer.go): a
 *    step "#%d %s" (its name "[stage N/M] RUN ..."), its output "#%d %s" where display.go gives
 *    each log line its elapsed seconds ("%.[2]*[1]f %s", 3 decimals under 10 s, 2 under 100 s,
 *    1 above), "#%d DONE%s" (" %.1fs") and "#%d ERROR: %s"; the step's error from
 *    solver/llbsolver/ops/exec.go ("process %q did not complete successfully", wrapping
 *    frontend/gateway/pb/exit.go's "exit code: %d"); docker build's last line "ERROR: failed to
 *    solve: " and the same error; a FROM image that is not in the registry:
 *    client/llb/sourceresolver/imageresolver.go "failed to resolve source metadata for %s" over
 *    containerd's resolver "%s: %w" (errdefs.ErrNotFound, "not found");
 *  - the legacy builder (moby/moby v28.5.2 builder/dockerfile): builder.go "Step %d/%d : %v",
 *    internals.go " ---> Running in %s", dispatchers.go "The command '%s' returned a non-zero
 *    code: %d"; the step's output is printed as the program wrote it;
 *  - pip (pypa/pip 26.2.1): req/__init__.py "Attempting uninstall: %s", req/req_install.py
 *    "Found existing installation: %s" (name and version), req/req_uninstall.py "Uninstalling
 *    %s:" and "Successfully uninstalled %s" (name-version), commands/install.py "Successfully
 *    installed %s" (name-version pairs); the NGC torch's version is the image's own build
 *    ("2.9.0a0+50eac811a6.nv25.9": a local version with .nvYY.MM);
 *  - the loader's "undefined symbol" under CPython's ImportError, and torch's c10 symbol.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr.h"
#include "scan_fixture.h"

TestSuite(docker_build, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

/* A RUN step's pip install, BuildKit-prefixed, that replaced the NGC image's torch with PyPI's
 * (the version another package pins). */
#define BK_PIP_REPLACES_NGC_TORCH                                                                  \
    "#5 [2/4] RUN pip install -r requirements.txt\n"                                               \
    "#5 1.234 Collecting vllm==0.11.0 (from -r requirements.txt (line 1))\n"                       \
    "#5 40.12 Collecting torch==2.8.0 (from vllm==0.11.0->-r requirements.txt (line 1))\n"         \
    "#5 80.55 Installing collected packages: torch, vllm\n"                                        \
    "#5 80.60   Attempting uninstall: torch\n"                                                     \
    "#5 80.61     Found existing installation: torch 2.9.0a0+50eac811a6.nv25.9\n"                  \
    "#5 80.62     Uninstalling torch-2.9.0a0+50eac811a6.nv25.9:\n"                                 \
    "#5 85.10       Successfully uninstalled torch-2.9.0a0+50eac811a6.nv25.9\n"                    \
    "#5 120.3 Successfully installed torch-2.8.0 vllm-0.11.0\n"                                    \
    "#5 DONE 125.2s\n"

static const char *first_error_id(const struct corr_result *r)
{
    return r->first_error_entry ? r->first_error_entry->id : "none";
}

static int possible_has(const struct corr_result *r, const char *id)
{
    for (size_t i = 0; i < r->npossible; i++)
        if (!strcmp(r->possible[i].entry->id, id)) return 1;
    return 0;
}

/* ---- the step's failure line: C.install or C.build by what the step ran ---- */

/* Scan text as build.log and assert its first error's entry (and line, when line > 0). */
static void expect_first(const char *sub, const char *text, const char *id, int line)
{
    struct corr_result *r = fx_scan_one(sub, "build.log", text);
    cr_assert_str_eq(first_error_id(r), id, "%s: first error %s", sub, first_error_id(r));
    if (line > 0)
        cr_assert_eq((int)r->first_error->line, line, "%s: line %d", sub,
                     (int)r->first_error->line);
    corr_result_free(r);
}

Test(docker_build, buildkit_step_error_is_the_first_error_by_what_ran)
{
    /* the step's line, not docker build's last ("failed to solve", a cascade) */
    expect_first("bk-pip",
                 "#9 [3/6] RUN pip install --no-cache-dir flash-attn==2.7.4.post1\n"
                 "#9 0.912 Collecting flash-attn==2.7.4.post1\n"
                 "#9 ERROR: process \"/bin/sh -c pip install --no-cache-dir "
                 "flash-attn==2.7.4.post1\" did not complete successfully: exit code: 1\n"
                 "ERROR: failed to solve: process \"/bin/sh -c pip install --no-cache-dir "
                 "flash-attn==2.7.4.post1\" did not complete successfully: exit code: 1\n",
                 "C.install", 3);
    expect_first("bk-make",
                 "#14 [5/7] RUN cd /opt/vllm && python3 setup.py bdist_wheel\n"
                 "#14 ERROR: process \"/bin/sh -c cd /opt/vllm && python3 setup.py "
                 "bdist_wheel\" did not complete successfully: exit code: 1\n",
                 "C.build", 2);
    /* BuildKit before v0.10 ("executor failed running %v" of the argument list) */
    expect_first("bk-old",
                 "#10 [4/4] RUN make -j8\n"
                 "#10 ERROR: executor failed running [/bin/sh -c make -j8]: exit code: 2\n",
                 "C.build", 2);
    /* the legacy builder */
    expect_first("legacy",
                 "Step 3/5 : RUN pip install -r requirements.txt\n"
                 " ---> Running in 9c1e2d3f4a5b\n"
                 "The command '/bin/sh -c pip install -r requirements.txt' returned a "
                 "non-zero code: 1\n",
                 "C.install", 3);
}

Test(docker_build, the_step_output_error_comes_before_the_step_line)
{
    /* the error the step printed is the failure; the step's exit line follows from it */
    expect_first("bk-inner",
                 "#8 [2/3] RUN pip install torch==2.1.0\n"
                 "#8 2.331 ERROR: Could not find a version that satisfies the requirement "
                 "torch==2.1.0 (from versions: 2.5.0, 2.5.1)\n"
                 "#8 ERROR: process \"/bin/sh -c pip install torch==2.1.0\" did not complete "
                 "successfully: exit code: 1\n",
                 "C.install", 2);
}

/* ---- G9: a pip install that replaced the container's torch ---- */

Test(docker_build, ngc_torch_replaced_then_undefined_symbol_is_g9)
{
    struct corr_result *r = fx_scan_one(
        "bk-g9", "build.log",
        BK_PIP_REPLACES_NGC_TORCH
        "#6 [3/4] RUN python -c \"import vllm._C\"\n"
        "#6 3.210 Traceback (most recent call last):\n"
        "#6 3.210   File \"<string>\", line 1, in <module>\n"
        "#6 3.211 ImportError: /usr/local/lib/python3.12/dist-packages/vllm/_C.abi3.so: "
        "undefined symbol: _ZN3c104cuda9SetDeviceEa\n"
        "#6 ERROR: process \"/bin/sh -c python -c \\\"import vllm._C\\\"\" did not complete "
        "successfully: exit code: 1\n");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    const struct corr_finding *f = fx_finding(r, "G9");
    cr_assert(strstr(f->summary, "2.9.0a0+50eac811a6.nv25.9 → 2.8.0"), "%s", f->summary);
    cr_assert(strstr(f->summary, "build.log:14)"), "the ImportError after the step: %s",
              f->summary);
    corr_result_free(r);
}

Test(docker_build, ngc_torch_replaced_with_nothing_after_is_possible)
{
    /* the same transcript, then a step that fails with no output: the replacement is the
     * mechanism, not a failure the log shows. G9 is possible; the step's line is the error */
    struct corr_result *r = fx_scan_one("bk-g9-alone", "build.log",
                                        BK_PIP_REPLACES_NGC_TORCH
                                        "#6 [3/4] RUN python train.py\n"
                                        "#6 ERROR: process \"/bin/sh -c python train.py\" did not "
                                        "complete successfully: exit code: 1\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s (G9 %.2f)", fx_verdict(r),
                     fx_conf(r, "G9"));
    cr_assert_str_eq(first_error_id(r), "C.build");
    cr_assert_geq(fx_conf(r, "G9"), 0.2, "G9 %.2f", fx_conf(r, "G9"));
    cr_assert(possible_has(r, "G9"), "G9 is in the possible list");
    corr_result_free(r);
}

Test(docker_build, ngc_torch_replaced_then_version_pair_mismatch_is_g9)
{
    /* the consequence is the environment the replacement left: torch 2.8 beside the image's
     * torchvision 0.24 (built for torch 2.9), in the pip list the step printed; the step after
     * it fails with no output, which alone would leave G9 possible (the test above) */
    fx_write("bk-pair", "build.log",
             BK_PIP_REPLACES_NGC_TORCH "#6 [3/4] RUN python train.py\n"
                                       "#6 ERROR: process \"/bin/sh -c python train.py\" did not "
                                       "complete successfully: exit code: 1\n");
    fx_write("bk-pair", "pip-list.txt",
             "Package            Version\n"
             "------------------ -----------\n"
             "torch              2.8.0\n"
             "torchvision        0.24.0a0+98f8b375\n");
    struct corr_result *r = fx_analyze_dir("bk-pair");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s (G9 %.2f)", fx_verdict(r), fx_conf(r, "G9"));
    corr_result_free(r);
}

Test(docker_build, a_torch_reinstalled_at_its_version_is_no_drift)
{
    /* pip --force-reinstall of the version already installed: uninstalled and installed again,
     * the stack unchanged. Not G9, not even possible */
    struct corr_result *r = fx_scan_one(
        "bk-same", "build.log",
        "#7 [3/5] RUN pip install --force-reinstall torch==2.8.0\n"
        "#7 1.532 Collecting torch==2.8.0\n"
        "#7 20.18   Attempting uninstall: torch\n"
        "#7 20.19     Found existing installation: torch 2.8.0\n"
        "#7 20.20     Uninstalling torch-2.8.0:\n"
        "#7 24.91       Successfully uninstalled torch-2.8.0\n"
        "#7 61.33 Successfully installed torch-2.8.0\n"
        "#7 DONE 63.0s\n"
        "#8 [4/5] RUN python train.py\n"
        "#8 ERROR: process \"/bin/sh -c python train.py\" did not complete successfully: exit "
        "code: 1\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_lt(fx_conf(r, "G9"), 0.2, "G9 %.2f", fx_conf(r, "G9"));
    cr_assert(!possible_has(r, "G9"), "a reinstall is not possible drift");
    corr_result_free(r);
}

Test(docker_build, legacy_builder_transcript_then_missing_cuda_library_is_g9)
{
    struct corr_result *r = fx_scan_one(
        "legacy-g9", "build.log",
        "Step 1/4 : FROM nvcr.io/nvidia/pytorch:25.06-py3\n"
        " ---> 3f2a9c1d8e7b\n"
        "Step 2/4 : RUN pip install flash-attn==2.7.4.post1 --no-build-isolation\n"
        " ---> Running in 9c1e2d3f4a5b\n"
        "Collecting flash-attn==2.7.4.post1\n"
        "Installing collected packages: torch, flash-attn\n"
        "  Attempting uninstall: torch\n"
        "    Found existing installation: torch 2.8.0a0+5228986c39.nv25.6\n"
        "    Uninstalling torch-2.8.0a0+5228986c39.nv25.6:\n"
        "      Successfully uninstalled torch-2.8.0a0+5228986c39.nv25.6\n"
        "Successfully installed flash-attn-2.7.4.post1 torch-2.7.1\n"
        " ---> 4b5c6d7e8f90\n"
        "Step 3/4 : RUN python -c \"import flash_attn\"\n"
        " ---> Running in 1a2b3c4d5e6f\n"
        "Traceback (most recent call last):\n"
        "  File \"<string>\", line 1, in <module>\n"
        "ImportError: libcudart.so.12: cannot open shared object file: No such file or "
        "directory\n"
        "The command '/bin/sh -c python -c \"import flash_attn\"' returned a non-zero code: 1\n");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* ---- a FROM image that is gone ---- */

#define BK_FROM_NOT_FOUND(img)                                                                     \
    "#2 [internal] load metadata for " img "\n"                                                    \
    "#2 ERROR: " img ": failed to resolve source metadata for " img ": " img ": not found\n"       \
    "------\n"                                                                                     \
    " > [internal] load metadata for " img ":\n"                                                   \
    "------\n"                                                                                     \
    "Dockerfile:1\n"                                                                               \
    "--------------------\n"                                                                       \
    "   1 | >>> FROM " img "\n"                                                                    \
    "--------------------\n"                                                                       \
    "ERROR: failed to solve: " img ": failed to resolve source metadata for " img ": " img         \
    ": not found\n"

Test(docker_build, a_gone_nvidia_base_image_is_c_container_and_g8_possible)
{
    struct corr_result *r =
        fx_scan_one("from-nv", "build.log", BK_FROM_NOT_FOUND("nvcr.io/nvidia/pytorch:25.13-py3"));
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_str_eq(first_error_id(r), "C.container", "first error %s", first_error_id(r));
    cr_assert_eq(r->first_error->line, 2);
    cr_assert(possible_has(r, "G8"), "an NVIDIA tag that is gone: G8 possible");
    corr_result_free(r);
    /* a recipe of the official playbooks marks the instructions: G8 */
    r = fx_scan_one("from-nv-playbook", "build.log",
                    "git clone https://github.com/NVIDIA/dgx-spark-playbooks\n" BK_FROM_NOT_FOUND(
                        "nvcr.io/nvidia/pytorch:25.13-py3"));
    cr_assert_str_eq(fx_verdict(r), "G8", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    /* near miss: another publisher's image is no NVIDIA recipe */
    r = fx_scan_one("from-other", "build.log", BK_FROM_NOT_FOUND("docker.io/myorg/trainer:v2"));
    cr_assert_str_eq(first_error_id(r), "C.container");
    cr_assert_eq(fx_conf(r, "G8"), 0.0, "G8 %.2f", fx_conf(r, "G8"));
    corr_result_free(r);
}

/* ---- BuildKit's error block: the failed step's last lines, repeated without "#N" ---- */

/* moby/buildkit v0.32.2 util/progress/progressui/display.go printErrorLogs: "------", " > %s:"
 * (the vertex's name), the step's last log lines as the trace kept them ("%.[2]*[1]f %s": the
 * elapsed seconds, 3 decimals under 10 s), "------"; then docker build's Dockerfile excerpt and
 * "ERROR: failed to solve: " with the step's error. A post that quotes only this block (or a
 * tty-mode build, which prints the step's output only here) has no "#N" line. */
#define BK_ERROR_BLOCK(cmd, last)                                                                  \
    "------\n"                                                                                     \
    " > [builder 3/6] RUN " cmd ":\n"                                                              \
    "0.412 Traceback (most recent call last):\n"                                                   \
    "0.413   File \"<string>\", line 1, in <module>\n"                                             \
    "0.415 " last "\n"                                                                             \
    "------\n"                                                                                     \
    "Dockerfile:14\n"                                                                              \
    "--------------------\n"                                                                       \
    "  14 | >>> RUN " cmd "\n"                                                                     \
    "--------------------\n"                                                                       \
    "ERROR: failed to solve: process \"/bin/sh -c " cmd "\" did not complete successfully: exit "  \
    "code: 1\n"

Test(docker_build, buildkit_error_block_lines_are_the_step_output_inside_the_block_only)
{
    /* the exception the block quotes is the first error, not the solve line (a cascade) */
    expect_first("block-value",
                 BK_ERROR_BLOCK("python3 train.py",
                                "ValueError: invalid literal for int() with base 10: 'abc'"),
                 "C.python-exception", 5);
    expect_first("block",
                 BK_ERROR_BLOCK("python3 -c 'import xformers'",
                                "ImportError: cannot import name 'packaging' from 'pkg_resources' "
                                "(/usr/lib/python3/dist-packages/pkg_resources/__init__.py)"),
                 "C.python-exception", 5);
    /* near miss: the same elapsed-seconds line with no header above it is not a step's output */
    expect_first("no-header",
                 "0.412 Traceback (most recent call last):\n"
                 "0.415 ValueError: invalid literal for int() with base 10: 'abc'\n",
                 "none", 0);
    /* near miss: after the block's closing "------" the condition has ended */
    expect_first("after-close",
                 "------\n"
                 " > [2/4] RUN make -j8:\n"
                 "------\n"
                 "3.211 ValueError: invalid literal for int() with base 10: 'abc'\n",
                 "none", 0);
}
