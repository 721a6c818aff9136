/*
 * tests/unit/test_import_drift.c - a Python-level API drift between installed packages (issue
 * #20, family "dependency drift", emitter: CPython's import system and module objects), scanned
 * with the shipped pack. Each line is built from its emitter's format string with values of our
 * own (docs/emitters.md names the file and commit of each):
 *  - python/cpython Python/ceval.c import_from (stored commit 000ae2a9ed, the 3.11 line):
 *    "cannot import name %R from %R (%S)", "... from %R (unknown location)" and "... from
 *    partially initialized module %R (most likely due to a circular import) (%S)";
 *  - python/cpython Objects/moduleobject.c _Py_module_getattro_impl (stored commit 01dcebecdc):
 *    "module '%U' has no attribute '%U'", and an object's "'%.100s' object has no attribute '%U'"
 *    (Objects/object.c) for the guard;
 *  - python/cpython Lib/importlib/_bootstrap.py (stored commit f3fd06a2e4): "No module named
 *    {!r}" with the dotted name;
 *  - pip 26.2.1 "Successfully installed {name-version ...}", pip list's "name  version" rows,
 *    uv's "uv run --with {req}" command line (the version evidence);
 *  - glibc elf/dl-lookup.c "undefined symbol: %s" through dlfcn/dlerror.c "%s: %s", printed by
 *    a checker script after its status word and the module it imported ("FAIL {module}  {type}:
 *    {message}").
 */
#include <criterion/criterion.h>
#include <string.h>

#include "correlate/corr.h"
#include "scan_fixture.h"

TestSuite(import_drift, .init = fx_setup_shipped, .fini = fx_teardown, .timeout = 60);

static struct corr_result *scan_text(const char *sub, const char *text)
{
    return fx_scan_one(sub, "run.log", text);
}

/* 1 when G9 is among the run's possible entries. */
static int g9_possible(const struct corr_result *r)
{
    for (size_t i = 0; i < r->npossible; i++)
        if (!strcmp(r->possible[i].entry->id, "G9")) return 1;
    return 0;
}

/* The first error's signature id, "" without one. */
static const char *first_sig(const struct corr_result *r)
{
    return r->first_error && r->first_error->sig ? r->first_error->sig->id : "";
}

/* The run names G9, from a line of signature sig. */
static void expect_g9(const char *sub, const char *text, const char *sig)
{
    struct corr_result *r = scan_text(sub, text);
    cr_expect_str_eq(fx_verdict(r), "G9", "%s: verdict %s", sub, fx_verdict(r));
    cr_expect(fx_cites(r, "G9", sig), "%s: %s not cited", sub, sig);
    corr_result_free(r);
}

/* No verdict, and G9 not even weighed (the guards). */
static void expect_no_g9(const char *sub, const char *text)
{
    struct corr_result *r = scan_text(sub, text);
    cr_expect_str_eq(fx_verdict(r), "none", "%s: verdict %s", sub, fx_verdict(r));
    cr_expect(fx_conf(r, "G9") < 0.05, "%s: G9 %.2f", sub, fx_conf(r, "G9"));
    corr_result_free(r);
}

/* The failure line alone: no verdict, G9 possible (its line read by sig) and the first error a
 * Python exception; with version_line before it: G9, that line cited as version evidence by cite.
 */
static void expect_possible_then_g9(const char *sub, const char *line, const char *sig,
                                    const char *version_line, const char *cite)
{
    struct corr_result *r = scan_text(sub, line);
    cr_expect_str_eq(fx_verdict(r), "none", "%s alone: verdict %s", sub, fx_verdict(r));
    cr_expect(fx_cites(r, "G9", sig), "%s alone: %s not cited", sub, sig);
    cr_expect(g9_possible(r), "%s alone: G9 not possible (%.2f)", sub, fx_conf(r, "G9"));
    cr_expect(!strncmp(first_sig(r), "C.python-exception.", 19), "%s alone: first error %s", sub,
              first_sig(r));
    corr_result_free(r);
    char text[1024], dir[64];
    snprintf(text, sizeof text, "%s%s", version_line, line);
    snprintf(dir, sizeof dir, "%s-versioned", sub);
    expect_g9(dir, text, cite);
}

/* A name missing from an installed package that is not one of version-change's key packages
 * (huggingface_hub: import_from's "(%S)" is its site-packages __init__.py). Alone it is a hint
 * the possible list names with its check; with the same package's version in the text (pip
 * list's row, PEP 503 names: huggingface-hub for huggingface_hub) it is G9; another package's
 * version is no evidence. */
Test(import_drift, an_installed_package_missing_a_name_is_possible_alone_g9_with_its_version)
{
    static const char line[] =
        "ImportError: cannot import name 'split_torch_state_dict_into_shards' "
        "from 'huggingface_hub' (/srv/venv/lib/python3.12/site-packages/"
        "huggingface_hub/__init__.py)\n";
    expect_possible_then_g9("hub", line, "G9.cannot-import-name",
                            "huggingface-hub           0.22.2\n", "CTX.package-version.row");
    char text[1024];
    snprintf(text, sizeof text, "%s%s",
             "Successfully installed tokenizers-0.20.3 safetensors-0.4.5\n", line);
    struct corr_result *r = scan_text("hub-other", text);
    cr_expect_str_eq(fx_verdict(r), "none", "other package: verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* nvidia-cutlass-dsl installs the module cutlass (cutlass.cute): the rule's alias maps the
 * distribution uv pinned to the module the import failed in; a checker prints the exception after
 * its status and the path is elided by the poster. */
Test(import_drift, a_pinned_cutlass_dsl_lacking_a_name_is_g9_by_its_alias)
{
    expect_g9("cute",
              "$ uv run --with nvidia-cutlass-dsl==4.5.1 python check_imports.py\n"
              "[FAIL] cutlass.cute: ImportError: cannot import name 'fmin' from "
              "'cutlass.cute' (/opt/env/.../cutlass/cute/__init__.py)\n",
              "G9.listed-name-missing");
}

/* A copy cut inside the path (a terminal's or a forum's width) still shows the installed location
 * (uv's archive cache); the pin is uv's `--with name[extra]==version`. */
Test(import_drift, an_import_failure_cut_inside_its_path_is_still_read)
{
    expect_possible_then_g9("cut",
                            "ImportError: cannot import name 'fmin' from 'cutlass.cute.arch' "
                            "(/home/u/.cache/uv/archive-v0/Qx81bT2kLm9/lib\n",
                            "G9.cannot-import-name",
                            "$ uv run --with nvidia-cutlass-dsl[cu13]==4.5.1 python -c 'from "
                            "cutlass.cute.arch import fmin'\n",
                            "G9.cannot-import-name");
}

/* A dotted submodule of a drift-prone package missing (ModuleNotFoundError), printed mid-line by
 * a checker: the exception is the first error; with pip having installed that package, G9. */
Test(import_drift, a_submodule_missing_from_an_installed_transformers_is_g9)
{
    expect_possible_then_g9("sub",
                            "ERROR: import qwen3_vl failed: ModuleNotFoundError: No module named "
                            "'transformers.models.qwen3_vl'\n",
                            "G9.listed-module-missing",
                            "Successfully installed accelerate-1.1.1 transformers-4.46.3\n",
                            "CTX.package-version.pip-installed");
}

/* Guards: a circular import is the user's own code, a user's own module (a path in the project,
 * no site-packages) is not an installed package, a file named like the package is the user's
 * shadowing module, and an AttributeError on an object names no module; a version line of that
 * name beside them changes nothing. */
Test(import_drift, circular_imports_own_modules_and_object_attributes_are_not_g9)
{
    expect_no_g9("circular", "Successfully installed mytool-1.2.0\n"
                             "ImportError: cannot import name 'load_config' from partially "
                             "initialized module 'mytool.config' (most likely due to a circular "
                             "import) (/srv/venv/lib/python3.12/site-packages/mytool/config.py)\n");
    expect_no_g9("own", "utils==1.0\n"
                        "ImportError: cannot import name 'helper' from 'utils' "
                        "(/home/me/proj/utils.py)\n");
    expect_no_g9("shadow", "flashinfer-python         0.5.2\n"
                           "ImportError: cannot import name 'mm_fp4' from 'flashinfer' "
                           "(/home/me/proj/flashinfer.py)\n");
    expect_no_g9("object",
                 "peft                      0.13.2\n"
                 "AttributeError: 'PeftModel' object has no attribute 'merge_adapter_'\n");
    expect_no_g9("attr-circular", "flashinfer-python==0.5.2\n"
                                  "AttributeError: partially initialized module 'flashinfer' has "
                                  "no attribute 'mm_fp4' (most likely due to a circular import)\n");
}

/* A module attribute missing from a drift-prone package (flashinfer, installed as
 * flashinfer-python) with the distribution pinned: G9. */
Test(import_drift, an_attribute_missing_from_a_pinned_flashinfer_is_g9)
{
    expect_g9("fi",
              "Collecting flashinfer-python==0.2.14\n"
              "AttributeError: module 'flashinfer' has no attribute 'trtllm_fp4_block_scale_moe'\n",
              "G9.listed-attr-missing");
}

/* A checker's status line carrying the loader's message with an elided object path: the
 * exception is read (C.python-exception) and the undefined torch symbol feeds G9's torch-ABI
 * signature; the same line after INFO is chatter; an object in the user's build tree stays the
 * user's build. */
Test(import_drift, a_checker_line_with_an_undefined_torch_symbol_is_read)
{
    expect_g9("chk-fail",
              "FAIL   sgl_kernel   ImportError: /opt/env/.../sgl_kernel/sm100/"
              "common_ops.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEab\n",
              "G9.torch-cpp-abi");
    struct corr_result *r =
        scan_text("chk-generic", "FAIL  tokenizer_check  ValueError: vocab size mismatch: "
                                 "32000 != 32001\n");
    cr_expect_str_eq(first_sig(r), "C.python-exception.checker-line", "first error %s",
                     first_sig(r));
    corr_result_free(r);
    r = scan_text("chk-info", "INFO   sgl_kernel   ImportError: /opt/env/.../sgl_kernel/sm100/"
                              "common_ops.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEab\n");
    cr_expect_str_eq(fx_verdict(r), "none", "INFO: verdict %s", fx_verdict(r));
    cr_expect(r->first_error == NULL, "INFO: first error %s", first_sig(r));
    corr_result_free(r);
    /* no object on the checker's line: the weak hint, as dlerror's message cut at its colon */
    r = scan_text("chk-noobj",
                  "FAIL   vllm._C   ImportError: undefined symbol: _ZN3c104cuda9SetDeviceEab\n");
    cr_expect_str_eq(fx_verdict(r), "none", "no object: verdict %s", fx_verdict(r));
    cr_expect(fx_cites(r, "G9", "G9.torch-symbol-no-object"), "no object: the hint was not read");
    corr_result_free(r);
    r = scan_text("chk-build", "FAIL   myext   ImportError: /home/me/src/myext/build/lib/.../myext/"
                               "_C.so: undefined symbol: _ZN3c104cuda9SetDeviceEab\n");
    cr_expect(!fx_cites(r, "G9", "G9.torch-cpp-abi"), "a build/ object read as installed");
    corr_result_free(r);
}
