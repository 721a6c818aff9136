/*
 * tests/unit/test_triton_pair.c - torch beside a triton of another release (issue #20, G9's
 * version pairs), scanned with the shipped pack. The lines are built from their emitters' format
 * strings with values of our own (docs/emitters.md names the file and release of each):
 *  - torch.utils.collect_env (pytorch/pytorch torch/utils/collect_env.py): "[pip3] name==version"
 *    rows for every package matching DEFAULT_PIP_PATTERNS ("torch", "triton", ...);
 *  - pip freeze's "name==version" (pip src/pip/_internal/operations/freeze.py);
 *  - torch/_inductor/exc.py (stored commit 031e0e8) TritonMissing: "Cannot find a working triton
 *    installation. Either the package is not installed or it is too old. More information on
 *    installing Triton can be found at: https://github.com/triton-lang/triton"; InductorError:
 *    "{type(inner).__name__}: {inner}" (torch 2.7 on, the class path printed before it).
 * The table is torch's own triton pin per release (G9.json, the torch x triton version-pair
 * rule): torch 2.6 pins triton 3.2.0, 2.10 pins 3.6.0.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "correlate/corr.h"
#include "scan_fixture.h"

TestSuite(triton_pair, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

/* collect_env's package block, then what the run printed after it. */
static const char *const env_then = "Versions of relevant libraries:\n"
                                    "[pip3] numpy==2.1.3\n"
                                    "[pip3] torch==%s\n"
                                    "[pip3] triton==%s\n"
                                    "%s";

static const char *const triton_missing =
    "torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the "
    "package is not installed or it is too old. More information on installing Triton can be "
    "found at: https://github.com/triton-lang/triton\n";

static struct corr_result *scan_env(const char *sub, const char *torch, const char *triton,
                                    const char *after)
{
    char text[1024];
    snprintf(text, sizeof text, env_then, torch, triton, after);
    return fx_scan_one(sub, "env.txt", text);
}

/* A torch and a triton of different releases, and torch.compile failing in inductor for want of
 * a working triton: the drift is the cause. */
Test(triton_pair, torch_beside_another_tritons_release_with_a_compile_failure_is_g9)
{
    struct corr_result *r = scan_env("mis", "2.6.0+cu124", "3.3.0", triton_missing);
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect_not_null(strstr(r->findings[0].summary, "pins triton 3.2"), "%s",
                       r->findings[0].summary);
    corr_result_free(r);
    /* near miss: the triton torch 2.6 pins, the same failure: no drift to name */
    r = scan_env("paired", "2.6.0+cu124", "3.2.0", triton_missing);
    cr_assert_lt(fx_conf(r, "G9"), 0.35, "G9 %.2f", fx_conf(r, "G9"));
    cr_assert_eq(r->records, 5u, "the listing and the failure were read: %zu records",
                 (size_t)r->records);
    corr_result_free(r);
}

/* The consequence guard: the same mismatched pair in a run that never failed is a hint. */
Test(triton_pair, a_mismatched_pair_in_a_healthy_run_is_a_hint)
{
    struct corr_result *r =
        scan_env("healthy", "2.6.0+cu124", "3.3.0", "{'loss': 1.234, 'learning_rate': 2e-05}\n");
    cr_assert_lt(fx_conf(r, "G9"), 0.2, "G9 %.2f", fx_conf(r, "G9"));
    cr_assert_gt(fx_conf(r, "G9"), 0.0, "the pair is a hint: G9 %.2f", fx_conf(r, "G9"));
    cr_assert_eq(r->records, 5u, "the listing was read: %zu records", (size_t)r->records);
    corr_result_free(r);
}

/* Each side to the table's precision: torch 2.10 is not 2.1 (which pins triton 2.1), and the
 * inductor wrapper of torch 2.7 on, quoting an import failure of Triton's internals, is a failure
 * the guard takes (torch/_inductor/runtime/triton_compat.py, stored commit 0fe901f: "from
 * triton.runtime.cache import triton_key", else "from triton.compiler.compiler import triton_key":
 * a triton with neither fails there). */
Test(triton_pair, torch_2_10_beside_triton_3_5_with_an_inductor_import_failure_is_g9)
{
    struct corr_result *r =
        scan_env("ten", "2.10.0", "3.5.1",
                 "torch._inductor.exc.InductorError: ImportError: cannot import name "
                 "'triton_key' from 'triton.compiler.compiler' (/opt/venv/lib/python3.12/"
                 "site-packages/triton/compiler/compiler.py)\n");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_expect_not_null(strstr(r->findings[0].summary, "pins triton 3.6"), "%s",
                       r->findings[0].summary);
    corr_result_free(r);
}

/* A pre-release build (an NGC container's torch 2.9.0a0+...nv25.9) ships the triton of its build
 * day: the release table says nothing of it, whatever fails. */
Test(triton_pair, an_ngc_pre_release_torch_is_not_paired)
{
    struct corr_result *r = scan_env("ngc", "2.9.0a0+50eac811a6.nv25.9", "3.4.0", triton_missing);
    cr_assert_lt(fx_conf(r, "G9"), 0.35, "G9 %.2f", fx_conf(r, "G9"));
    cr_assert_eq(r->records, 5u, "the listing and the failure were read: %zu records",
                 (size_t)r->records);
    corr_result_free(r);
}
