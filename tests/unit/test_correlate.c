/*
 * tests/unit/test_correlate.c - the correlator's detectors, scoring and determinism on small
 * real-shaped runs written into a per-test temporary directory, scanned with a minimal pack
 * written there too (docs/patterns.md format), so the tests do not depend on the shipped pack's
 * signatures. The rules the correlator evaluates (and the tags they refer to) are the shipped
 * pack's, merged into those small packs (with_shipped_model()).
 *
 * Where the fixture shapes come from:
 *  - nvidia-smi --query-gpu=timestamp,temperature.gpu,power.draw --format=csv rows
 *    ("2026/05/12 13:21:03.100, 67, 104.72 W"): nvidia-smi's CSV format, as sampled by the skill's
 *    thermal-sample.sh (wshobson/agents dgx-spark-ops) and shown in XuehaiPan/nvitop#208;
 *  - the nvidia-smi table row "| N/A   45C    P0    11W /  N/A |  Not Supported |" for GB10:
 *    snowflakedb/ArcticTraining#345;
 *  - the PyTorch OOM line: c10/cuda/CUDACachingAllocator.cpp's message (pytorch/pytorch);
 *  - "NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]" and
 *    "NVRM: Xid (PCI:0000:01:00): 79, pid=..., GPU has fallen off the bus.": NVIDIA driver dmesg
 *    lines quoted in public issues (gotcha-checks-notes.md);
 *  - pip's "Attempting uninstall: torch / Found existing installation / Successfully uninstalled
 *    torch-2.9.0a0+50eac811a6.nv25.9": pip's install output, as in the NGC-torch replacement issue
 *    quoted in gotcha-checks-notes.md (G9);
 *  - "ImportError: ...so: undefined symbol: cudaGetDriverEntryPointByVersion": the dynamic loader's
 *    message for a wheel linked against another CUDA runtime (G1 in the notes);
 *  - the preflight line "G9 PASS: running inside a container (Docker/Podman marker file present)":
 *    the skill's preflight.sh output contract.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "correlate/corr.h"
#include "scan_fixture.h"

/* A minimal pack: the entries and fact names the correlator relies on. */
static const char *const pack_json =
    "{\"entries\": [\n"
    " {\"id\": \"G1\", \"family\": \"gotcha\", \"title\": \"CUDA 12/13 ABI mismatch\", "
    "\"symptom\": \"s\","
    "  \"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\", \"signatures\": [\n"
    "  {\"id\": \"G1.undefined-symbol-cuda-fn\", \"kinds\": [\"any\"], \"strength\": \"strong\","
    "   \"regex\": \"undefined symbol: (?<symbol>cu[A-Za-z0-9_]+)\", \"facts\": {\"symbol\": "
    "\"string\"},"
    "   \"summary\": \"undefined CUDA symbol\","
    "   \"examples\": {\"match\": [\"ImportError: x.so: undefined symbol: "
    "cudaGetDriverEntryPointByVersion\"],"
    "    \"no_match\": [\"undefined symbol: _ZN3c10\"]}, \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"G3\", \"family\": \"gotcha\", \"title\": \"UMA OOM below 128GB\", \"symptom\": "
    "\"s\","
    "  \"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\", \"signatures\": [\n"
    "  {\"id\": \"G3.torch-cuda-oom\", \"kinds\": [\"any\"], \"strength\": \"strong\","
    "   \"regex\": \"CUDA out of memory\\\\. Tried to allocate (?<tried>[0-9.]+ [KMGT]iB)\","
    "   \"facts\": {\"tried\": \"bytes\"}, \"summary\": \"PyTorch CUDA OOM\","
    "   \"examples\": {\"match\": [\"CUDA out of memory. Tried to allocate 2.00 GiB\"],"
    "    \"no_match\": [\"out of memory\"]}, \"sources\": [\"test\"]},\n"
    "  {\"id\": \"G3.torch-oom-allocated\", \"kinds\": [\"any\"], \"strength\": \"strong\","
    "   \"regex\": \"Of the allocated memory (?<allocated>[0-9.]+ [KMGT]iB) is allocated by "
    "PyTorch, and"
    " (?<reserved>[0-9.]+ [KMGT]iB) is reserved\", \"facts\": {\"allocated\": \"bytes\", "
    "\"reserved\": \"bytes\"},"
    "   \"examples\": {\"match\": [\"Of the allocated memory 1.00 GiB is allocated by PyTorch, and "
    "1.00 GiB is reserved\"],"
    "    \"no_match\": [\"allocated\"]}, \"sources\": [\"test\"]},\n"
    "  {\"id\": \"G3.nv-err-no-memory\", \"kinds\": [\"any\"], \"strength\": \"weak\","
    "   \"regex\": \"NV_ERR_NO_MEMORY\", \"examples\": {\"match\": [\"[NV_ERR_NO_MEMORY]\"],"
    "    \"no_match\": [\"NV_ERR\"]}, \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"G4\", \"family\": \"gotcha\", \"title\": \"Thermal throttling\", \"symptom\": "
    "\"s\","
    "  \"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\", \"signatures\": []},\n"
    " {\"id\": \"G9\", \"family\": \"gotcha\", \"title\": \"Container-first, not bare pip\", "
    "\"symptom\": \"s\","
    "  \"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\", \"signatures\": [\n"
    "  {\"id\": \"G9.uninstalled\", \"kinds\": [\"any\"], \"strength\": \"strong\","
    "   \"regex\": \"Successfully uninstalled (?<package>[A-Za-z0-9_.]+)-(?<old_version>[0-9][^ "
    "]*)\","
    "   \"facts\": {\"package\": \"string\", \"old_version\": \"string\"}, \"summary\": \"pip "
    "uninstalled a package\","
    "   \"examples\": {\"match\": [\"Successfully uninstalled torch-2.9.0\"], \"no_match\": "
    "[\"Successfully installed torch-2.9.1\"]},"
    "   \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"C.xid\", \"family\": \"common\", \"title\": \"NVIDIA Xid error\", \"fix\": \"f\", "
    "\"signatures\": [\n"
    "  {\"id\": \"C.xid.79\", \"kinds\": [\"any\"], \"strength\": \"decisive\","
    "   \"regex\": \"NVRM: Xid \\\\(PCI:[^)]+\\\\): (?<xid>79),\", \"facts\": {\"xid\": "
    "\"number\"},"
    "   \"summary\": \"Xid 79: GPU has fallen off the bus\","
    "   \"examples\": {\"match\": [\"NVRM: Xid (PCI:0000:01:00): 79, pid=1\"], \"no_match\": "
    "[\"Xid 13\"]},"
    "   \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"CTX.container\", \"family\": \"context\", \"title\": \"container\", "
    "\"signatures\": [\n"
    "  {\"id\": \"CTX.container.preflight\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": \"running inside a container\", \"examples\": {\"match\": [\"G9 PASS: running "
    "inside a container\"],"
    "    \"no_match\": [\"G9 UNKNOWN\"]}, \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"CTX.gpu\", \"family\": \"context\", \"title\": \"GPU\", \"signatures\": [\n"
    "  {\"id\": \"CTX.gpu.name\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": \"(?<gpu_name>NVIDIA (?:GB10|H100[A-Za-z0-9 ]*))\", \"facts\": {\"gpu_name\": "
    "\"string\"},"
    "   \"examples\": {\"match\": [\"NVIDIA GB10\"], \"no_match\": [\"NVIDIA\"]}, \"sources\": "
    "[\"test\"]}]},\n"
    " {\"id\": \"SERIES.throughput\", \"family\": \"series\", \"title\": \"throughput\", "
    "\"signatures\": [\n"
    "  {\"id\": \"SERIES.throughput.tok-s\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": \"(?<tokens_per_s>[0-9.]+) tok/s\", \"literals\": [\"tok/s\"],"
    "   \"facts\": {\"tokens_per_s\": \"number\"},"
    "   \"examples\": {\"match\": [\"8089 tok/s\"], \"no_match\": [\"tok\"]}, \"sources\": "
    "[\"test\"]}]}\n"
    "]}\n";

/* The test pack text with the shipped pack's data model merged in: for each entry it shares
 * with the shipped pack, that entry's rules, scope, ruled_out, tags and explains (only towards
 * entries the test pack has); for each signature it shares, the shipped signature's tags; and
 * the shipped "platforms" (GB10's identity and facts). What
 * the correlator weighs lives in the pack, so the tests' small packs borrow it rather than copy
 * it. Caller frees. */
static char *with_shipped_model(const char *text)
{
    json_error_t je;
    json_t *test = json_loads(text, 0, &je);
    cr_assert_not_null(test, "test pack: %s (line %d)", je.text, je.line);
    json_t *tentries = json_object_get(test, "entries");
    char dir[1024];
    fx_shipped_dir(dir, sizeof dir);
    static const char *const files[] = {
        "G1.json", "G2.json", "G3.json",  "G4.json",     "G5.json",      "G6.json",       "G7.json",
        "G8.json", "G9.json", "G10.json", "common.json", "context.json", "platforms.json"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        json_t *shipped = json_load_file(path, 0, &je);
        cr_assert_not_null(shipped, "%s: %s", path, je.text);
        /* the platforms (platforms.json): what places a run on GB10, and its facts */
        json_t *plat = json_object_get(shipped, "platforms");
        if (plat && !json_object_get(test, "platforms")) json_object_set(test, "platforms", plat);
        size_t i, k;
        json_t *se, *te;
        json_array_foreach(json_object_get(shipped, "entries"), i, se)
        {
            const char *id = json_string_value(json_object_get(se, "id"));
            json_array_foreach(tentries, k, te)
            {
                if (strcmp(json_string_value(json_object_get(te, "id")), id)) continue;
                static const char *const model[] = {"rules", "scope", "ruled_out", "tags"};
                for (size_t m = 0; m < sizeof model / sizeof *model; m++) {
                    json_t *v = json_object_get(se, model[m]);
                    if (v && !json_object_get(te, model[m])) json_object_set(te, model[m], v);
                }
                json_t *ex = json_object_get(se, "explains"), *keep = json_array();
                size_t x, y;
                json_t *xe, *oe;
                json_array_foreach(ex, x, xe)
                {
                    const char *to = json_string_value(json_object_get(xe, "id"));
                    json_array_foreach(tentries, y, oe)
                    {
                        if (!strcmp(json_string_value(json_object_get(oe, "id")), to))
                            json_array_append(keep, xe);
                    }
                }
                if (json_array_size(keep)) json_object_set(te, "explains", keep);
                json_decref(keep);
                /* signature tags */
                size_t a, b;
                json_t *ss, *ts;
                json_array_foreach(json_object_get(se, "signatures"), a, ss)
                {
                    json_array_foreach(json_object_get(te, "signatures"), b, ts)
                    {
                        json_t *tags = json_object_get(ss, "tags");
                        if (tags && !strcmp(json_string_value(json_object_get(ss, "id")),
                                            json_string_value(json_object_get(ts, "id"))))
                            json_object_set(ts, "tags", tags);
                    }
                }
            }
        }
        json_decref(shipped);
    }
    char *out = json_dumps(test, JSON_INDENT(1));
    json_decref(test);
    cr_assert_not_null(out);
    return out;
}

static void setup(void)
{
    fx_tmpdir("corr");
    char *merged = with_shipped_model(pack_json);
    fx_write("pack", "test.json", merged);
    free(merged);
    char pdir[128];
    snprintf(pdir, sizeof pdir, "%s/pack", fx.dir);
    const char *dirs[] = {pdir};
    struct az_buf err = AZ_BUF_INIT;
    enum az_status st = match_pack_load(&fx.pack, dirs, 1, &err);
    cr_assert_eq(st, AZ_OK, "test pack failed to load: %s", err.data ? err.data : "");
    az_buf_free(&err);
}

TestSuite(correlate, .init = setup, .fini = fx_teardown, .timeout = 60);

/* Scan the files of run/<sub> given in that order. */
static struct corr_result *analyze_files(const char *sub, const char *const *names, size_t n)
{
    char paths[8][512];
    const char *pp[8];
    for (size_t i = 0; i < n && i < 8; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s/%s", fx.dir, sub, names[i]);
        pp[i] = paths[i];
    }
    return fx_analyze(NULL, pp, n);
}

/* A thermal sampler CSV: one row per 30 s for 70 min, power and temperature by row. */
static char *sampler_csv(double (*power)(int), double (*temp)(int), int rows)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "timestamp, temperature.gpu, power.draw [W]\n");
    for (int i = 0; i < rows; i++) {
        int secs = 13 * 3600 + 4 * 60 + i * 30;
        az_buf_printf(&b, "2026/05/12 %02d:%02d:%02d.100, %.0f, %.2f W\n", secs / 3600,
                      secs / 60 % 60, secs % 60, temp(i), power(i));
    }
    return az_buf_steal(&b);
}

static double p_plateau(int i)
{
    return i < 4 ? 13.0 + i : 95.0 + (i * 7 % 8);
}
static double t_rising(int i)
{
    return i < 4 ? 40.0 : 65.0 + i * 27.0 / 140.0;
}
static double p_200(int i)
{
    return i < 4 ? 13.0 : 196.0 + (i * 7 % 9);
}
static double t_steady(int i)
{
    return i < 4 ? 40.0 : 61.0 + (i % 3);
}

Test(correlate, power_plateau_near_100w_with_rising_temperature_is_g4)
{
    char *csv = sampler_csv(p_plateau, t_rising, 140);
    fx_write("run", "thermal.csv", csv);
    free(csv);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G4", "verdict %s (%.2f): %s", fx_verdict(r), r->confidence,
                     r->nfindings ? r->findings[0].summary : "");
    cr_assert(strstr(r->findings[0].summary, " W for ") != NULL, "summary has numbers: %s",
              r->findings[0].summary);
    cr_assert_gt(r->findings[0].nevidence, 0);
    int has_power = 0;
    for (size_t i = 0; i < r->nseries; i++)
        if (!strcmp(r->series[i].name, "power.draw") && r->series[i].npoints == 140) has_power = 1;
    cr_assert(has_power, "the power series has every sample");
    corr_result_free(r);
}

/* nvidia-smi --query-gpu=timestamp,pcie.link.gen.current,pcie.link.width.current,power.draw,
 * clocks.sm,utilization.gpu --format=csv,noheader: no header, each value with its unit. Row shape
 * from a public repository's notes on ml-explore/mlx#3861 (an RTX 5070 Laptop sampled every
 * 0.5 s: "03:56:05.522, 4, 8, 36.87 W, 2805 MHz, 100 %"), the date added as nvidia-smi's own
 * timestamp prints it. load_mhz: the clock in the second half; util_after: the load then. */
static char *noheader_clock_csv(int load_mhz, int util_after)
{
    struct az_buf b = AZ_BUF_INIT;
    for (int i = 0; i < 16; i++) {
        int late = i >= 8;
        az_buf_printf(&b, "2026/09/23 03:56:%02d.%03d, 4, 8, %.2f W, %d MHz, %d %%\n", 5 + i,
                      (i * 587) % 1000, late ? 18.6 + i % 3 : 36.9 + i % 2,
                      late ? load_mhz + i % 2 * 15 : 2805 - i % 2 * 15, late ? util_after : 100);
    }
    return az_buf_steal(&b);
}

Test(correlate, noheader_smi_csv_clock_collapse_under_load_is_g4)
{
    char *csv = noheader_clock_csv(600, 100);
    fx_write("run", "clocks.csv", csv);
    free(csv);
    struct corr_result *r = fx_analyze_dir("run");
    int clk = 0, util = 0;
    for (size_t i = 0; i < r->nseries; i++) {
        if (!strcmp(r->series[i].name, "clocks.sm") && r->series[i].npoints == 16) clk = 1;
        if (!strcmp(r->series[i].name, "utilization.gpu") && r->series[i].npoints == 16) util = 1;
    }
    cr_assert(clk && util, "headerless rows typed by their units (clock %d, util %d)", clk, util);
    cr_assert_str_eq(fx_verdict(r), "G4", "verdict %s (%.2f)", fx_verdict(r), r->confidence);
    cr_assert(strstr(r->findings[0].summary, "stayed busy") != NULL, "%s", r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, noheader_smi_csv_clock_fall_when_the_load_ends_is_not_g4)
{
    /* near miss, the same source's last sample: "16.75 W, 1215 MHz, 4 %" once the work ended */
    char *csv = noheader_clock_csv(1215, 4);
    fx_write("run", "clocks.csv", csv);
    free(csv);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_gt(r->records, 0);
    cr_assert_lt(fx_conf(r, "G4"), 0.05, "G4 %.2f", fx_conf(r, "G4"));
    corr_result_free(r);
}

Test(correlate, power_at_200w_with_steady_temperature_is_not_g4)
{
    char *csv = sampler_csv(p_200, t_steady, 140);
    fx_write("run", "thermal.csv", csv);
    free(csv);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none");
    cr_assert_lt(fx_conf(r, "G4"), 0.35);
    corr_result_free(r);
}

Test(correlate, plateau_with_steady_cool_temperature_is_not_g4)
{
    char *csv = sampler_csv(p_plateau, t_steady, 140);
    fx_write("run", "thermal.csv", csv);
    free(csv);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none", "a cool ~100 W run is healthy: %s",
                     r->nfindings ? r->findings[0].summary : "");
    corr_result_free(r);
}

Test(correlate, throughput_drop_during_plateau_adds_to_g4)
{
    char *csv = sampler_csv(p_plateau, t_rising, 140);
    fx_write("run", "thermal.csv", csv);
    free(csv);
    struct az_buf b = AZ_BUF_INIT;
    for (int i = 0; i < 60; i++) {
        int secs = 13 * 3600 + 6 * 60 + i * 60;
        double tps = i < 35 ? 8000 + (i % 5) * 20 : 4700 + (i % 5) * 20;
        az_buf_printf(
            &b, "2026-05-12 %02d:%02d:%02d,055 INFO [train] step %d/4000 | loss 1.9 | %.0f tok/s\n",
            secs / 3600, secs / 60 % 60, secs % 60, (i + 1) * 20, tps);
    }
    fx_write("run", "train.log", b.data);
    az_buf_free(&b);
    struct corr_result *with_drop = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(with_drop), "G4");
    cr_assert(strstr(with_drop->findings[0].summary, "Throughput fell") != NULL, "%s",
              with_drop->findings[0].summary);
    double c1 = with_drop->confidence;
    corr_result_free(with_drop);
    unlink(strcat(strcpy((char[600]){0}, fx.dir), "/run/train.log"));
    struct corr_result *plain = fx_analyze_dir("run");
    cr_assert_gt(c1, plain->confidence);
    corr_result_free(plain);
}

static const char *const oom_line =
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
    "capacity of 119.70 GiB of which 1.16 GiB is free. Including non-PyTorch memory, this process "
    "has 70.00 GiB memory in use. Of the allocated memory 68.50 GiB is allocated by PyTorch, and "
    "1.50 GiB is reserved by PyTorch but unallocated.";

Test(correlate, oom_at_70gb_with_memory_not_supported_is_g3)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "2026-05-12 10:00:01,000 INFO loading checkpoint shards\n");
    az_buf_printf(&b, "2026-05-12 10:03:12,000 ERROR %s\n", oom_line);
    fx_write("run", "train.log", b.data);
    az_buf_free(&b);
    fx_write("run", "nvidia-smi.txt",
             "Tue May 12 10:03:30 2026\n"
             "+----------------------------------------------------------------------------------"
             "-------+\n"
             "| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: "
             "13.0     |\n"
             "|=========================================+========================+==============="
             "=======|\n"
             "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |               "
             "   N/A |\n"
             "| N/A   45C    P0             11W /  N/A  | Not Supported          |      0%      "
             "Default |\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    cr_assert(strstr(r->findings[0].summary, "70.0 GiB") != NULL, "%s", r->findings[0].summary);
    cr_assert_gt(r->confidence, 0.6);
    cr_assert_str_eq(r->context.platform, "gb10");
    corr_result_free(r);
}

Test(correlate, oom_on_an_80gb_device_is_not_g3)
{
    fx_write(
        "run", "train.log",
        "2026-05-12 10:03:12,000 ERROR torch.OutOfMemoryError: CUDA out of memory. Tried to "
        "allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 20.00 MiB is free. "
        "Of the allocated memory 76.50 GiB is allocated by PyTorch, and 1.50 GiB is reserved by "
        "PyTorch but unallocated.\n"
        "2026-05-12 10:00:00,000 INFO device NVIDIA H100 80GB HBM3\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none", "a full 80 GB H100 is a plain OOM: %s (%.2f)",
                     fx_verdict(r), r->confidence);
    cr_assert_str_eq(r->context.platform, "other");
    corr_result_free(r);
}

Test(correlate, nv_err_no_memory_alone_is_not_g3)
{
    fx_write("run", "dmesg.log",
             "[Tue May 12 10:00:01 2026] NVRM: loading NVIDIA UNIX Open Kernel Module for "
             "aarch64  580.95.05\n"
             "[Tue May 12 10:00:09 2026] NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory "
             "[NV_ERR_NO_MEMORY] (0x00000051) returned from _memdescAllocInternal(pMemDesc) @ "
             "mem_desc.c:1359\n");
    fx_write("run", "train.log",
             "2026-05-12 10:01:00,000 INFO step 20 | 8000 tok/s\n"
             "2026-05-12 10:02:00,000 INFO step 40 | 8010 tok/s\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none");
    cr_assert_lt(fx_conf(r, "G3"), 0.35);
    /* G3 is either ruled out or weighed low, and either way the reason names the line */
    int explained = 0;
    for (size_t i = 0; i < r->nruled_out; i++)
        if (!strcmp(r->ruled_out[i].entry->id, "G3") &&
            strstr(r->ruled_out[i].reason, "NV_ERR_NO_MEMORY"))
            explained = 1;
    for (size_t i = 0; i < r->nfindings; i++)
        if (!strcmp(r->findings[i].entry->id, "G3") &&
            strstr(r->findings[i].summary, "healthy startups"))
            explained = 1;
    cr_assert(explained, "the reason G3 is weak is given");
    corr_result_free(r);
}

static void write_pip_then_symbol(void)
{
    fx_write("run", "job.log",
             "2026-05-12 10:02:00,000 INFO job: pip install -U unsloth\n"
             "Attempting uninstall: torch\n"
             "    Found existing installation: torch 2.9.0a0+50eac811a6.nv25.9\n"
             "    Uninstalling torch-2.9.0a0+50eac811a6.nv25.9:\n"
             "      Successfully uninstalled torch-2.9.0a0+50eac811a6.nv25.9\n"
             "Successfully installed torch-2.9.1\n"
             "2026-05-12 10:05:00,000 INFO job: python train.py\n"
             "2026-05-12 10:05:03,000 ERROR ImportError: /usr/local/lib/python3.12/dist-packages/"
             "xformers/_C.so: undefined symbol: cudaGetDriverEntryPointByVersion\n");
}

Test(correlate, pip_replacing_torch_then_undefined_symbol_is_g9_then_g1)
{
    write_pip_then_symbol();
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G9");
    cr_assert_geq(r->nfindings, 2);
    cr_assert_str_eq(r->findings[0].entry->id, "G9");
    cr_assert_str_eq(r->findings[1].entry->id, "G1");
    cr_assert(strstr(r->findings[0].summary, "torch") != NULL, "%s", r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, container_marker_lowers_g9)
{
    /* pip upgraded triton (a PyPI build: no image tag): inside a container that is less likely
     * to be the environment drift G9 names than on a bare host */
    fx_write("bare", "job.log",
             "2026-05-12 10:02:00,000 INFO job: pip install -U unsloth\n"
             "      Successfully uninstalled triton-3.3.1\n");
    fx_write("boxed", "job.log",
             "2026-05-12 10:02:00,000 INFO job: pip install -U unsloth\n"
             "      Successfully uninstalled triton-3.3.1\n");
    fx_write("boxed", "preflight.txt",
             "G9 PASS: running inside a container (Docker/Podman marker file present)\n");
    struct corr_result *bare = fx_analyze_dir("bare");
    struct corr_result *boxed = fx_analyze_dir("boxed");
    double cb = fx_conf(bare, "G9"), cx = fx_conf(boxed, "G9");
    cr_assert_gt(cb, 0.0, "bare host: %.2f", cb);
    cr_assert_lt(cx, cb * 0.6, "container %.2f vs bare %.2f", cx, cb);
    cr_assert_eq(boxed->context.in_container, 1);
    corr_result_free(bare);
    corr_result_free(boxed);
}

Test(correlate, container_marker_does_not_excuse_replacing_the_image_torch)
{
    /* near miss of the above: pip replaced the NGC image's own torch build (".nv25.9"), which is
     * how G9 happens inside a container (gotcha-checks-notes.md, G9) */
    fx_write("boxed", "job.log",
             "2026-05-12 10:02:00,000 INFO job: pip install -U unsloth\n"
             "      Successfully uninstalled torch-2.9.0a0+50eac811a6.nv25.9\n");
    fx_write("boxed", "preflight.txt",
             "G9 PASS: running inside a container (Docker/Podman marker file present)\n");
    struct corr_result *boxed = fx_analyze_dir("boxed");
    cr_assert_eq(boxed->context.in_container, 1);
    cr_assert_gt(fx_conf(boxed, "G9"), 0.35, "G9 %.2f", fx_conf(boxed, "G9"));
    corr_result_free(boxed);
}

Test(correlate, xid79_alone_is_none_with_first_error)
{
    fx_write("run", "dmesg.log",
             "[Tue May 12 10:00:01 2026] NVRM: loading NVIDIA UNIX Open Kernel Module for "
             "aarch64  580.95.05\n"
             "[Tue May 12 11:40:17 2026] NVRM: Xid (PCI:0000:01:00): 79, pid=4121, name=python3, "
             "GPU has fallen off the bus.\n");
    fx_write("run", "train.log", "2026-05-12 10:01:00,000 INFO step 20 | 8000 tok/s\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none");
    cr_assert_not_null(r->first_error_entry);
    cr_assert_str_eq(r->first_error_entry->id, "C.xid");
    cr_assert_not_null(r->first_error);
    cr_assert_eq(r->first_error->line, 2);
    cr_assert(strstr(r->first_error->path, "dmesg.log") != NULL);
    corr_result_free(r);
}

/* The first-error event is the run's story: the compact text view keeps it, every time (its
 * background flag was once left unset, so the view showed or dropped it at random). */
Test(correlate, first_error_event_is_never_background)
{
    fx_write("run", "dmesg.log",
             "[Tue May 12 10:00:01 2026] NVRM: loading NVIDIA UNIX Open Kernel Module for "
             "aarch64  580.95.05\n"
             "[Tue May 12 11:40:17 2026] NVRM: Xid (PCI:0000:01:00): 79, pid=4121, name=python3, "
             "GPU has fallen off the bus.\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_not_null(r->first_error);
    size_t found = 0;
    for (size_t i = 0; i < r->nevents; i++)
        if (strncmp(r->timeline[i].label, "first error: ", 13) == 0) {
            found++;
            cr_assert_eq(r->timeline[i].background, 0);
            cr_assert_eq(r->timeline[i].line, 2);
        }
    cr_assert_eq(found, 1, "one first-error event");
    corr_result_free(r);
}

Test(correlate, healthy_run_is_none_without_first_error)
{
    fx_write("run", "train.log",
             "2026-05-12 10:00:00,000 INFO device NVIDIA GB10\n"
             "2026-05-12 10:01:00,000 INFO step 20 | loss 2.1 | 8000 tok/s\n"
             "2026-05-12 10:02:00,000 INFO step 40 | loss 1.9 | 8010 tok/s\n"
             "2026-05-12 10:03:00,000 INFO training complete\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none");
    cr_assert_null(r->first_error);
    cr_assert_eq(r->nfindings, 0);
    cr_assert_eq(r->nruled_out, 4, "every gotcha of the pack is ruled out");
    cr_assert_eq(r->ninputs, 1);
    cr_assert_eq(r->inputs[0].records, 4);
    corr_result_free(r);
}

Test(correlate, same_result_in_any_input_order)
{
    write_pip_then_symbol();
    char *csv = sampler_csv(p_plateau, t_rising, 40);
    fx_write("run", "thermal.csv", csv);
    free(csv);
    const char *order1[] = {"job.log", "thermal.csv"};
    const char *order2[] = {"thermal.csv", "job.log"};
    struct corr_result *a = analyze_files("run", order1, 2);
    struct corr_result *b = analyze_files("run", order2, 2);
    cr_assert_str_eq(fx_verdict(a), fx_verdict(b));
    cr_assert_eq(a->nfindings, b->nfindings);
    for (size_t i = 0; i < a->nfindings; i++) {
        cr_assert_eq(a->findings[i].entry, b->findings[i].entry);
        cr_assert_float_eq(a->findings[i].confidence, b->findings[i].confidence, 1e-12);
        cr_assert_str_eq(a->findings[i].summary, b->findings[i].summary);
    }
    cr_assert_eq(a->nevents, b->nevents);
    for (size_t i = 0; i < a->nevents; i++) {
        cr_assert_str_eq(a->timeline[i].path, b->timeline[i].path);
        cr_assert_eq(a->timeline[i].line, b->timeline[i].line);
        cr_assert_str_eq(a->timeline[i].label, b->timeline[i].label);
    }
    cr_assert_eq(a->ninputs, 2);
    cr_assert_str_eq(a->inputs[0].path, b->inputs[0].path);
    corr_result_free(a);
    corr_result_free(b);
}

Test(correlate, raw_dmesg_uptime_is_placed_on_the_run_clock)
{
    fx_write("run", "dmesg.log",
             "[    0.000000] Linux version 6.11.0-1016-nvidia (buildd@ubuntu) #16-Ubuntu SMP\n"
             "[ 6017.123456] NVRM: Xid (PCI:0000:01:00): 79, pid=4121, name=python3, GPU has "
             "fallen off the bus.\n"
             "[ 6020.000000] nvidia-modeset: ERROR: GPU:0: Idling display engine timed out\n");
    fx_write("run", "train.log",
             "2026-05-12 10:00:00,000 INFO start\n"
             "2026-05-12 11:40:20,000 INFO last step\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_not_null(r->first_error);
    cr_assert_eq(r->first_error->time.kind, AZ_TIME_ABS);
    cr_assert_eq(r->first_error->time_approx, 1);
    /* end-aligned: uptime 6020 s is the run's last stamp, so the Xid is 2.877 s before it */
    int64_t end = r->end.usec;
    cr_assert_eq(end - r->first_error->time.usec, 2876544);
    corr_result_free(r);
}

/* ---- rules over several signatures: a second pack with the entries they read ----
 *
 * Fixture shapes:
 *  - vLLM under Ray: "(EngineCore_DP0 pid=..) (RayWorkerWrapper pid=.., ip=..) host:pid:tid [0]
 * NCCL INFO ..." and "Custom allreduce is disabled because this process group spans across nodes.":
 *    mark-ramsey-ri/vllm-dgx-spark#1, vllm custom_all_reduce.py;
 *  - the nvidia-smi process table row "|    0   N/A  N/A   1893   C   /usr/local/bin/ollama
 * 66581MiB |": nvidia-smi's default table (NVIDIA/nvidia-docker and vllm issues quote it);
 *  - Unsloth's banner "Bfloat16 = TRUE. FA [Xformers = None. FA2 = True]": unslothai/unsloth#3346;
 *    transformers' attn_implementation="sdpa" request and model.config._attn_implementation;
 *  - vLLM's "Loading model weights took 67.7 GB" (worker/model_runner.py) and a "per-stream N
 * tok/s" progress line (single-stream vs aggregate wording of NVIDIA/dgx-spark-playbooks#91);
 *  - HF Trainer's log dict "{'loss': 7.32, 'grad_norm': 3.877e+13, ...}" (transformers
 * Trainer.log), values as in dgx-spark-playbooks#85 (flat loss ~7, huge grad_norm).
 */
static const char *const pack2_json =
    "{\"entries\": [\n"
    " {\"id\": \"G2\", \"family\": \"gotcha\", \"title\": \"flash-attn\", \"symptom\": \"s\", "
    "\"cause\": \"c\","
    "  \"check\": \"k\", \"fix\": \"f\", \"signatures\": [\n"
    "  {\"id\": \"G2.sdpa-requested\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": "
    "\"\\\\battn_implementation['\\\"]?\\\\s*[:=]\\\\s*['\\\"]?(?<attn_requested>sdpa)\\\\b\","
    "   \"literals\": [\"attn_implementation\"],"
    "   \"examples\": {\"match\": [\"attn_implementation: sdpa\"], \"no_match\": "
    "[\"x._attn_implementation = 'sdpa'\"]},"
    "   \"sources\": [\"test\"]},\n"
    "  {\"id\": \"G2.attn-impl-flash\", \"kinds\": [\"any\"], \"strength\": \"weak\","
    "   \"regex\": \"_attn_implementation['\\\"]?\\\\s*[:=]+\\\\s*['\\\"]?flash_attention_2\","
    "   \"literals\": [\"flash_attention_2\"],"
    "   \"examples\": {\"match\": [\"_attn_implementation = 'flash_attention_2'\"], \"no_match\": "
    "[\"sdpa\"]},"
    "   \"sources\": [\"test\"]},\n"
    "  {\"id\": \"G2.unsloth-fa2-true\", \"kinds\": [\"any\"], \"strength\": \"weak\","
    "   \"regex\": \"FA2 = True\", \"examples\": {\"match\": [\"FA2 = True]\"], \"no_match\": "
    "[\"FA2 = False\"]},"
    "   \"sources\": [\"test\"]}]},\n";
static const char *const pack2_g3 =
    " {\"id\": \"G3\", \"family\": \"gotcha\", \"title\": \"UMA OOM\", \"symptom\": \"s\", "
    "\"cause\": \"c\","
    "  \"check\": \"k\", \"fix\": \"f\", \"signatures\": [\n"
    "  {\"id\": \"G3.torch-cuda-oom\", \"kinds\": [\"any\"], \"strength\": \"strong\","
    "   \"regex\": \"CUDA out of memory\\\\. Tried to allocate (?<tried>[0-9.]+ [KMGT]iB)\","
    "   \"facts\": {\"tried\": \"bytes\"},"
    "   \"examples\": {\"match\": [\"CUDA out of memory. Tried to allocate 2.00 GiB\"], "
    "\"no_match\": [\"oom\"]},"
    "   \"sources\": [\"test\"]},\n"
    "  {\"id\": \"G3.torch-oom-allocated\", \"kinds\": [\"any\"], \"strength\": \"strong\","
    "   \"regex\": \"Of the allocated memory (?<allocated>[0-9.]+ [KMGT]iB) is allocated by "
    "PyTorch, and"
    " (?<reserved>[0-9.]+ [KMGT]iB) is reserved\", \"facts\": {\"allocated\": \"bytes\", "
    "\"reserved\": \"bytes\"},"
    "   \"examples\": {\"match\": [\"Of the allocated memory 1.00 GiB is allocated by PyTorch, and "
    "1.00 GiB is reserved\"],"
    "    \"no_match\": [\"allocated\"]}, \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"G5\", \"family\": \"gotcha\", \"title\": \"bandwidth\", \"symptom\": \"s\", "
    "\"cause\": \"c\","
    "  \"check\": \"k\", \"fix\": \"f\", \"signatures\": [\n"
    "  {\"id\": \"G5.weights-size\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": \"weights took (?<weights_bytes>[0-9.]+ GB)\", \"facts\": {\"weights_bytes\": "
    "\"bytes\"},"
    "   \"examples\": {\"match\": [\"weights took 7.1 GB\"], \"no_match\": [\"weights took "
    "4.5s\"]},"
    "   \"sources\": [\"test\"]},\n"
    "  {\"id\": \"G5.single-stream-rate\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": \"per-stream (?<seq_tokens_per_s>[0-9.]+) tok/s\", \"facts\": "
    "{\"seq_tokens_per_s\": \"number\"},"
    "   \"examples\": {\"match\": [\"per-stream 2.69 tok/s\"], \"no_match\": [\"aggregate 43 "
    "tok/s\"]},"
    "   \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"G6\", \"family\": \"gotcha\", \"title\": \"UMA contention\", \"symptom\": \"s\", "
    "\"cause\": \"c\","
    "  \"check\": \"k\", \"fix\": \"f\", \"signatures\": []},\n"
    " {\"id\": \"G8\", \"family\": \"gotcha\", \"title\": \"stale playbooks\", \"symptom\": \"s\", "
    "\"cause\": \"c\","
    "  \"check\": \"k\", \"fix\": \"f\", \"signatures\": []},\n";
static const char *const pack2_g10 =
    " {\"id\": \"G10\", \"family\": \"gotcha\", \"title\": \"dual-Spark TP\", \"symptom\": \"s\", "
    "\"cause\": \"c\","
    "  \"check\": \"k\", \"fix\": \"f\", \"signatures\": [\n"
    "  {\"id\": \"G10.tp-size-flag\", \"kinds\": [\"any\"], \"strength\": \"weak\","
    "   \"regex\": \"tensor_parallel_size'?: (?<tp_size>[0-9]+)\", \"facts\": {\"tp_size\": "
    "\"number\"},"
    "   \"literals\": [\"tensor_parallel_size\"],"
    "   \"examples\": {\"match\": [\"'tensor_parallel_size': 2\"], \"no_match\": "
    "[\"tensor_parallel\"]},"
    "   \"sources\": [\"test\"]},\n"
    "  {\"id\": \"G10.custom-ar-spans-nodes\", \"kinds\": [\"any\"], \"strength\": \"weak\","
    "   \"regex\": \"spans across nodes\", \"examples\": {\"match\": [\"spans across nodes.\"], "
    "\"no_match\": [\"nodes\"]},"
    "   \"sources\": [\"test\"]},\n"
    "  {\"id\": \"G10.nccl-net\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": \"NCCL INFO Using network\", \"examples\": {\"match\": [\"NCCL INFO Using "
    "network IB\"],"
    "    \"no_match\": [\"NCCL INFO Channel\"]}, \"sources\": [\"test\"]}]},\n";
static const char *const pack2_ctx =
    " {\"id\": \"CTX.gpu\", \"family\": \"context\", \"title\": \"GPU\", \"signatures\": [\n"
    "  {\"id\": \"CTX.gpu.name\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": \"(?<gpu_name>NVIDIA GB10)\", \"facts\": {\"gpu_name\": \"string\"},"
    "   \"examples\": {\"match\": [\"NVIDIA GB10\"], \"no_match\": [\"NVIDIA\"]}, \"sources\": "
    "[\"test\"]}]},\n"
    " {\"id\": \"CTX.gpu-process\", \"family\": \"context\", \"title\": \"GPU process\", "
    "\"signatures\": [\n"
    "  {\"id\": \"CTX.gpu-process.smi-row\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": "
    "\"^\\\\|\\\\s+[0-9]+\\\\s+N/A\\\\s+N/"
    "A\\\\s+(?<pid>[0-9]+)\\\\s+C\\\\s+(?<process>\\\\S+)\\\\s+"
    "(?<mem_used>[0-9]+MiB)\", \"facts\": {\"pid\": \"number\"}, \"literals\": [\"MiB\"],"
    "   \"examples\": {\"match\": [\"|    0   N/A  N/A   1893   C   /usr/bin/ollama   66581MiB "
    "|\"],"
    "    \"no_match\": [\"| GPU Memory |\"]}, \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"CTX.playbook\", \"family\": \"context\", \"title\": \"playbook\", \"signatures\": "
    "[\n"
    "  {\"id\": \"CTX.playbook.ref\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": \"dgx-spark-playbooks\", \"examples\": {\"match\": "
    "[\"NVIDIA/dgx-spark-playbooks\"],"
    "    \"no_match\": [\"playbook\"]}, \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"SERIES.trainer\", \"family\": \"series\", \"title\": \"trainer\", \"signatures\": "
    "[\n"
    "  {\"id\": \"SERIES.trainer.loss\", \"kinds\": [\"any\"], \"strength\": \"context\","
    "   \"regex\": \"'loss': (?<loss>[0-9.]+), 'grad_norm': "
    "(?<grad_norm>[0-9.]+(?:e[-+][0-9]+)?)\","
    "   \"facts\": {\"loss\": \"number\", \"grad_norm\": \"number\"}, \"literals\": [\"'loss':\"],"
    "   \"examples\": {\"match\": [\"{'loss': 7.32, 'grad_norm': 3.877e+13}\"], \"no_match\": "
    "[\"loss\"]},"
    "   \"sources\": [\"test\"]}]}\n"
    "]}\n";

/* Swap the suite's pack for pack2. */
static void use_pack2(void)
{
    match_pack_free(fx.pack);
    struct az_buf j = AZ_BUF_INIT; /* in parts: C11 only promises 4095-byte literals */
    az_buf_printf(&j, "%s%s%s%s", pack2_json, pack2_g3, pack2_g10, pack2_ctx);
    char *merged = with_shipped_model(j.data);
    fx_write("pack2", "test.json", merged);
    free(merged);
    az_buf_free(&j);
    char pdir[128];
    snprintf(pdir, sizeof pdir, "%s/pack2", fx.dir);
    const char *dirs[] = {pdir};
    struct az_buf err = AZ_BUF_INIT;
    enum az_status st = match_pack_load(&fx.pack, dirs, 1, &err);
    cr_assert_eq(st, AZ_OK, "pack2 failed to load: %s", err.data ? err.data : "");
    az_buf_free(&err);
}

static void write_vllm_tp2(const char *host_b)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "(APIServer pid=3301) INFO 05-19 20:11:04 [utils.py:233] non-default args: "
                    "{'model': 'openai/gpt-oss-120b', 'tensor_parallel_size': 2, "
                    "'gpu_memory_utilization': 0.8}\n");
    az_buf_puts(
        &b, "(EngineCore_DP0 pid=3460) (RayWorkerWrapper pid=3601) spark-a:3601:3601 [0] NCCL INFO "
            "Using network IB\n");
    /* Ray names a worker's node address (", ip=A") only when the worker runs off the driver's
     * node (ray _private/worker.py, print_worker_logs): a worker on spark-a prints none */
    int remote = strcmp(host_b, "spark-a") != 0;
    az_buf_printf(&b,
                  "(EngineCore_DP0 pid=3460) (RayWorkerWrapper pid=2790%s) %s:2790:2790 [0] "
                  "NCCL INFO Using network IB\n",
                  remote ? ", ip=169.254.77.11" : "", host_b);
    fx_write("run", "vllm-serve.log", b.data);
    az_buf_free(&b);
}

/* A Ray worker's "(Name pid=N, ip=A)" prefix says the worker runs on another node than the
 * driver (ray _private/worker.py, print_worker_logs, prints ", ip=" only then); with a TP size
 * of 2 the group spans machines even where no host name or node count is printed. Line shape:
 * vLLM's parallel_state.py rank assignment under Ray, as in vLLM multi-node issues. */
static void write_vllm_ray_ranks(int remote)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "(APIServer pid=3301) INFO 05-19 20:11:04 [utils.py:233] non-default args: "
                    "{'model': 'Qwen/Qwen3-32B', 'tensor_parallel_size': 2, "
                    "'distributed_executor_backend': 'ray'}\n");
    az_buf_puts(&b, "(EngineCore_DP0 pid=3460) (RayWorkerWrapper pid=3601) INFO 05-19 20:11:09 "
                    "[parallel_state.py:1165] rank 0 in world size 2 is assigned as DP rank 0, PP "
                    "rank 0, TP rank 0, EP rank 0\n");
    az_buf_printf(&b,
                  "(EngineCore_DP0 pid=3460) (RayWorkerWrapper pid=2790%s) INFO 05-19 20:11:09 "
                  "[parallel_state.py:1165] rank 1 in world size 2 is assigned as DP rank 0, PP "
                  "rank 0, TP rank 1, EP rank 0\n",
                  remote ? ", ip=192.168.100.11" : "");
    fx_write("run", "vllm-serve.log", b.data);
    az_buf_free(&b);
}

Test(correlate, ray_worker_on_another_node_with_tp2_is_g10)
{
    fx_load_shipped();
    write_vllm_ray_ranks(1);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    cr_assert(strstr(r->findings[0].summary, "Ray") != NULL, "%s", r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, ray_worker_on_another_node_of_an_x86_host_is_not_g10)
{
    /* near miss: the same two-node TP 2, but the crash's C++ frames load x86_64 libraries (shape
     * of the ProcessGroupNCCL frames in public torchtitan / DistBackendError reports): a DGX
     * Spark is aarch64 */
    fx_load_shipped();
    write_vllm_ray_ranks(1);
    fx_write("run", "worker-trace.log",
             "frame #8: clone + 0x43 (0x7f9a84c7f353 in /lib/x86_64-linux-gnu/libc.so.6)\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

/* A host fact of an x86_64 machine places the run off GB10 (every GB10 system is aarch64), so
 * every GB10-scoped gotcha takes its scope factor. The line is collect_env's OS line as in
 * pytorch/pytorch#96447 (an A10G on AWS) and uname -a's tail; the pack's CTX.x86-host entry
 * carries the other-host tag the context reads. */
Test(correlate, an_x86_64_host_fact_sets_the_platform_other)
{
    fx_load_shipped();
    write_vllm_ray_ranks(1);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_neq(r->context.platform, "other", "before: %s", r->context.platform);
    cr_assert_str_eq(fx_verdict(r), "G10", "before: verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = fx_scan_one("run", "collect_env.txt",
                    "OS: Ubuntu 20.04.5 LTS (x86_64)\n"
                    "Python platform: Linux-5.15.0-1031-aws-x86_64-with-glibc2.31\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);

    /* near miss: the aarch64 forms of the same lines say nothing against GB10 */
    write_vllm_ray_ranks(1);
    r = fx_scan_one("run", "collect_env.txt",
                    "OS: Ubuntu 24.04.3 LTS (aarch64)\n"
                    "Python platform: Linux-6.11.0-1016-nvidia-aarch64-with-glibc2.39\n");
    cr_assert_str_neq(r->context.platform, "other");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* A GPU fact of GB10 (its ~121.7 GiB pool in vLLM's startup check) outweighs an x86_64 host
 * fact: logs gathered from several machines may mix them. */
Test(correlate, a_gb10_gpu_fact_outweighs_an_x86_64_host_fact)
{
    fx_load_shipped();
    fx_write("mixed", "vllm.log",
             "ValueError: Free memory on cuda:0 (30.20/121.69 GiB) < desired utilization (0.8, "
             "97.35 GiB). Decrease GPU memory utilization or reduce GPU memory used by other "
             "processes.\n");
    fx_write("mixed", "uname.txt",
             "Linux gpu-node-3 5.15.0-60-generic #66-Ubuntu SMP Fri Jan 20 14:29:49 UTC 2023 "
             "x86_64 x86_64 x86_64 GNU/Linux\n");
    struct corr_result *r = fx_analyze_dir("mixed");
    cr_assert_gt(r->records, 1, "both inputs read");
    cr_assert_str_eq(r->context.platform, "gb10");
    corr_result_free(r);
}

/* A launcher that says the TP size is larger than the one GPU a node has was asked for a TP
 * group across one-GPU machines: the line of NVIDIA/dgx-spark-playbooks#63 (a two-Spark
 * spark-vllm-docker launch with -tp 2). Near miss: the same message on a four-GPU node
 * (TP 8 > 4) is a multi-GPU server's misconfiguration. */
Test(correlate, tp_size_above_a_one_gpu_node_is_g10)
{
    fx_load_shipped();
    fx_write("one", "vllm.log",
             "vllm serve QuantTrio/MiniMax-M2-AWQ --port 8000 -tp 2 --distributed-executor-backend "
             "ray\n"
             "Tensor parallel size (2) exceeds available GPUs (1)\n");
    struct corr_result *r = fx_analyze_dir("one");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    r = fx_scan_one("four", "vllm.log",
                    "vllm serve Qwen/Qwen3-235B-A22B -tp 8 --distributed-executor-backend ray\n"
                    "Tensor parallel size (8) exceeds available GPUs (4)\n");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

Test(correlate, ray_workers_on_the_driver_node_are_not_g10)
{
    fx_load_shipped();
    write_vllm_ray_ranks(0); /* near miss: both workers on the driver's node, no ip= */
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

Test(correlate, tensor_parallel_over_two_nccl_hosts_is_g10)
{
    use_pack2();
    write_vllm_tp2("spark-b");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    cr_assert(strstr(r->findings[0].summary, "host names") != NULL, "%s", r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, tensor_parallel_on_one_host_is_not_g10)
{
    use_pack2();
    write_vllm_tp2("spark-a"); /* near miss: both ranks on one machine */
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

/* The spans line with no size printed anywhere: vLLM builds the custom allreduce for the TP group
 * only (cuda_communicator.py: "custom allreduce ... can be used only by tp"), so the line alone
 * says a tensor-parallel group spans machines. Shape: a Ray worker's warning as quoted in
 * mark-ramsey-ri/vllm-dgx-spark#1 (not the realworld case that prompted the outcome). */
Test(correlate, spans_line_without_a_size_is_tp_across_machines)
{
    use_pack2();
    fx_write("run", "vllm-serve.log",
             "(EngineCore_DP0 pid=3460) INFO 05-19 20:11:02 [core.py:93] Initializing a V1 LLM "
             "engine (v0.11.0) with config: model='openai/gpt-oss-120b'\n"
             "(EngineCore_DP0 pid=3460) (RayWorkerWrapper pid=2790, ip=169.254.77.11) WARNING "
             "05-19 20:11:09 [custom_all_reduce.py:86] Custom allreduce is disabled because this "
             "process group spans across nodes.\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_gt(r->records, 0);
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    cr_assert(strstr(r->findings[0].summary, "spans machines") != NULL, "%s",
              r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, spans_line_with_tp1_is_not_g10)
{
    use_pack2();
    /* near miss: a note quoting the line on a run whose own config says TP 1 */
    fx_write("run", "vllm-serve.log",
             "(APIServer pid=3301) INFO 05-19 20:11:04 [utils.py:233] non-default args: "
             "{'model': 'openai/gpt-oss-120b', 'tensor_parallel_size': 1}\n"
             "last week's attempt hung after: Custom allreduce is disabled because this process "
             "group spans across nodes.\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_gt(r->records, 0);
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

static void write_smi_procs(const char *second_mib)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "Fri Aug 21 10:19:40 2026\n"
                    "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |          "
                    "        N/A |\n"
                    "|    0   N/A  N/A            1893      C   /usr/local/bin/ollama              "
                    "   66581MiB |\n");
    az_buf_printf(&b,
                  "|    0   N/A  N/A            7702      C   /usr/bin/python3                     "
                  " %sMiB |\n",
                  second_mib);
    fx_write("run", "nvidia-smi.txt", b.data);
    az_buf_free(&b);
}

Test(correlate, two_processes_filling_the_pool_are_g6)
{
    use_pack2();
    write_smi_procs("47112");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G6", "verdict %s", fx_verdict(r));
    cr_assert(strstr(r->findings[0].summary, "of the 119.7 GiB pool") != NULL, "%s",
              r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, a_small_second_process_does_not_fill_the_pool)
{
    use_pack2();
    write_smi_procs("3000"); /* near miss: a 3 GiB job beside the server */
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert(strstr(r->nfindings ? r->findings[0].summary : "", "of the 119.7 GiB pool") == NULL);
    cr_assert_lt(fx_conf(r, "G6"), 0.6, "G6 %.2f", fx_conf(r, "G6"));
    corr_result_free(r);
}

static void write_trainer_oom(void)
{
    fx_write("run", "train.log",
             "2026-08-21 10:10:00,000 INFO step 100\n"
             "2026-08-21 10:20:10,000 ERROR torch.OutOfMemoryError: CUDA out of memory. Tried to "
             "allocate "
             "1.96 GiB.\n"
             "2026-08-21 10:20:10,000 ERROR Of the allocated memory 38.20 GiB is allocated by "
             "PyTorch, and "
             "2.00 GiB is reserved by PyTorch but unallocated.\n");
}

Test(correlate, oom_beside_a_second_heavy_process_is_g6_then_g3)
{
    use_pack2();
    write_smi_procs("47112");
    write_trainer_oom();
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G6", "verdict %s", fx_verdict(r));
    cr_assert_gt(fx_conf(r, "G3"), 0.35);
    cr_assert(strstr(r->findings[0].summary, "led to G3") != NULL, "%s", r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, oom_with_one_process_stays_g3)
{
    use_pack2();
    fx_write("run", "nvidia-smi.txt",
             "Fri Aug 21 10:19:40 2026\n"
             "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |               "
             "   N/A |\n"
             "|    0   N/A  N/A            7702      C   /usr/bin/python3                      "
             "47112MiB |\n");
    write_trainer_oom(); /* near miss: the trainer alone */
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

static void write_unsloth(int with_request)
{
    struct az_buf b = AZ_BUF_INIT;
    if (with_request)
        az_buf_puts(&b, "2025-12-10 19:12:40 | INFO | run_sft | config: {'attn_implementation': "
                        "'sdpa', 'lora_r': 16}\n");
    az_buf_puts(&b, "\\        /    Bfloat16 = TRUE. FA [Xformers = None. FA2 = True]\n"
                    "2025-12-10 19:13:12 | INFO | run_sft | model.config._attn_implementation = "
                    "'flash_attention_2'\n");
    fx_write("run", "train.log", b.data);
    az_buf_free(&b);
}

Test(correlate, flash_attention_2_over_an_sdpa_request_is_g2)
{
    use_pack2();
    write_unsloth(1);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

Test(correlate, fa2_banner_without_an_sdpa_request_is_not_g2)
{
    use_pack2();
    write_unsloth(0); /* near miss: FA2 used, nobody asked for SDPA */
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

static void write_decode(const char *per_stream)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b,
                "INFO 04-14 09:56:40 model_runner.py:1115] Loading model weights took 67.7 GB\n");
    for (int i = 0; i < 6; i++)
        az_buf_printf(
            &b, "2026-04-14 10:%02d:00,000 INFO gen: aggregate 43.1 tok/s | per-stream %s tok/s\n",
            10 + i * 5, per_stream);
    fx_write("run", "gen.log", b.data);
    az_buf_free(&b);
}

Test(correlate, single_stream_decode_at_the_measured_ceiling_is_g5)
{
    use_pack2();
    write_decode("2.69"); /* 67.7 GiB x 2.69/s = 196 GB/s */
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G5", "verdict %s", fx_verdict(r));
    cr_assert(strstr(r->findings[0].summary, "Single-sequence") != NULL, "%s",
              r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, decode_far_below_the_ceiling_is_not_g5)
{
    use_pack2();
    write_decode("1.20"); /* near miss: 87 GB/s, something else is slow */
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_lt(fx_conf(r, "G5"), 0.35, "G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
}

/* llama-bench's markdown table (ggml-org/llama.cpp tools/llama-bench; the rows of a DGX Spark run
 * posted at jetsonhacks.com spark-llamacpp-bench.html) gives the model's size and the tg rate of
 * one sequence on the same row. The dense row's figures are a DGX Spark's Qwen3-32B BF16 decode
 * (3.7 tok/s, lyb.re 2026-03-10): 65.5 GB x 3.7/s = 242 GB/s, the ceiling. The MoE rows (the
 * posted gpt-oss 20B ones) read a fraction of their weights per token: 12.1 GB x 79.7/s is no
 * bandwidth a GB10 has, so they say nothing about the ceiling. */
Test(correlate, llama_bench_dense_decode_at_the_ceiling_is_g5_moe_is_not)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "bench-dense", "llama-bench.log",
        "Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes\n"
        "| model | size | params | backend | ngl | test | t/s |\n"
        "| qwen3 32B BF16 | 61.03 GiB | 32.76 B | CUDA | 99 | pp2048 | 1510.32 ± 4.10 |\n"
        "| qwen3 32B BF16 | 61.03 GiB | 32.76 B | CUDA | 99 | tg32 | 3.70 ± 0.01 |\n");
    cr_assert_str_eq(fx_verdict(r), "G5", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = fx_scan_one(
        "bench-moe", "llama-bench.log",
        "Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes\n"
        "| model | size | params | test | t/s |\n"
        "| gpt-oss 20B MXFP4 MoE | 11.27 GiB | 20.91 B | pp2048 | 3610.56 ± 15.16 |\n"
        "| gpt-oss 20B MXFP4 MoE | 11.27 GiB | 20.91 B | tg32 | 79.74 ± 0.43 |\n"
        "| gpt-oss 20B MXFP4 MoE | 11.27 GiB | 20.91 B | tg32 @ d4096 | 74.63 ± 0.15 |\n");
    cr_assert_lt(fx_conf(r, "G5"), 0.35, "G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
}

/* vLLM's weights line ("Model loading took %.4f GiB and %.6f seconds",
 * v1/worker/gpu_model_runner.py) and its stats line: with "Running: 1 reqs" the generation rate is
 * one sequence's, with eight running it is the batch's and says nothing of steps per second.
 * Figures: a DGX Spark's Qwen3-8B BF16 at 13.1 tok/s (lyb.re 2026-03-10): 16.4 GB x 13.1/s = 215
 * GB/s. */
static void write_vllm_decode(const char *sub, int running, double rate)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "(EngineCore_DP0 pid=211) INFO 03-10 09:12:40 [gpu_model_runner.py:2653] "
                    "Model loading took 15.2683 GiB and 41.220713 seconds\n");
    for (int i = 0; i < 6; i++)
        az_buf_printf(&b,
                      "(APIServer pid=1) INFO 03-10 09:%02d:%02d [loggers.py:123] Engine 000: Avg "
                      "prompt throughput: 0.0 tokens/s, Avg generation throughput: %.1f tokens/s, "
                      "Running: %d reqs, Waiting: 0 reqs, GPU KV cache usage: 1.2%%, Prefix cache "
                      "hit rate: 0.0%%\n",
                      20 + i / 6, i * 10 % 60, rate, running);
    fx_write(sub, "vllm.log", b.data);
    az_buf_free(&b);
}

Test(correlate, vllm_one_running_request_at_the_ceiling_is_g5_a_batch_is_not)
{
    fx_load_shipped();
    write_vllm_decode("one", 1, 13.1);
    struct corr_result *r = fx_analyze_dir("one");
    cr_assert_gt(r->records, 0);
    cr_assert_str_eq(fx_verdict(r), "G5", "verdict %s", fx_verdict(r));
    cr_assert(strstr(r->findings[0].summary, "Single-sequence") != NULL, "%s",
              r->findings[0].summary);
    corr_result_free(r);
    write_vllm_decode("eight", 8, 104.8);
    r = fx_analyze_dir("eight");
    cr_assert_gt(r->records, 0);
    cr_assert_lt(fx_conf(r, "G5"), 0.35, "G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
}

/* A DGX Spark has one GPU: on a run the inputs place on GB10, a tensor-parallel size of 2 is a
 * group across Sparks even where no node count, host name or spans line is printed (the pack's
 * one_gpu_platform). Shapes: vLLM's "non-default args" dict (mark-ramsey-ri/vllm-dgx-spark#1),
 * nvidia-smi -L, torch's watchdog line (pytorch/pytorch#118369). The same log on an H100, or with
 * no GPU named, is no G10: the size alone does not say the group left the machine. */
static void write_tp2_watchdog(const char *sub, const char *gpu_line)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, gpu_line);
    az_buf_puts(&b, "(APIServer pid=3301) INFO 05-19 20:11:04 [utils.py:233] non-default args: "
                    "{'model': 'openai/gpt-oss-120b', 'tensor_parallel_size': 2, "
                    "'gpu_memory_utilization': 0.8}\n"
                    "[rank0]:[E519 20:41:07.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog "
                    "caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, "
                    "NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 "
                    "milliseconds before timing out.\n");
    fx_write(sub, "vllm.log", b.data);
    az_buf_free(&b);
}

Test(correlate, tp2_on_a_one_gpu_platform_spans_machines)
{
    fx_load_shipped();
    write_tp2_watchdog("spark",
                       "GPU 0: NVIDIA GB10 (UUID: GPU-2dee1e25-b3b5-007e-2b55-79f2d0f2ebe5)\n");
    struct corr_result *r = fx_analyze_dir("spark");
    cr_assert_eq(r->records, 3);
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    write_tp2_watchdog("h100", "GPU 0: NVIDIA H100 80GB HBM3 (UUID: "
                               "GPU-9a1c5e7b-3f2d-4c11-8e0a-5b6d7c8e9f01)\n");
    r = fx_analyze_dir("h100");
    cr_assert_eq(r->records, 3);
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
    write_tp2_watchdog("unknown", "");
    r = fx_analyze_dir("unknown");
    cr_assert_eq(r->records, 2);
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

/* No weights line: the served id gives the parameters and the format ("vllm serve
 * meta-llama/Llama-3.3-70B-Instruct-FP8", vLLM's command line; 70 GB at 1 byte a parameter), the
 * stats line one request's rate. A DGX Spark's dense 70B FP8 decodes ~2.7 tok/s (a compiled
 * GB10 throughput table, site-one-liart-13.vercel.app 2026-05-24): 189 GB/s, the ceiling. */
Test(correlate, served_model_id_and_one_request_rate_at_the_ceiling_is_g5)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "id70", "vllm.log",
        "vllm serve meta-llama/Llama-3.3-70B-Instruct-FP8 --max-model-len 8192\n"
        "(APIServer pid=1) INFO 05-24 10:00:10 [loggers.py:123] Engine 000: Avg prompt "
        "throughput: 0.0 tokens/s, Avg generation throughput: 2.7 tokens/s, Running: 1 reqs, "
        "Waiting: 0 reqs, GPU KV cache usage: 0.4%, Prefix cache hit rate: 0.0%\n"
        "(APIServer pid=1) INFO 05-24 10:00:20 [loggers.py:123] Engine 000: Avg prompt "
        "throughput: 0.0 tokens/s, Avg generation throughput: 2.7 tokens/s, Running: 1 reqs, "
        "Waiting: 0 reqs, GPU KV cache usage: 0.4%, Prefix cache hit rate: 0.0%\n");
    cr_assert_str_eq(fx_verdict(r), "G5", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    /* the id of a model with no size in it says nothing: no bytes, no bandwidth */
    r = fx_scan_one(
        "idnone", "vllm.log",
        "vllm serve openai/gpt-oss --max-model-len 8192\n"
        "(APIServer pid=1) INFO 05-24 10:00:10 [loggers.py:123] Engine 000: Avg prompt "
        "throughput: 0.0 tokens/s, Avg generation throughput: 2.7 tokens/s, Running: 1 "
        "reqs, Waiting: 0 reqs, GPU KV cache usage: 0.4%, Prefix cache hit rate: 0.0%\n");
    cr_assert_lt(fx_conf(r, "G5"), 0.35, "G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
}
static void write_playbook_run(int broken)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "# https://github.com/NVIDIA/dgx-spark-playbooks/tree/main/nvidia/unsloth\n");
    for (int i = 0; i < 12; i++) {
        double loss = broken ? 6.0 + (i * 7 % 5) * 0.3 : 2.0 - i * 0.1;
        if (broken)
            az_buf_printf(&b, "{'loss': %.4f, 'grad_norm': %de+%02d, 'epoch': 0.0}\n", loss,
                          1 + i % 8, 4 + i % 9);
        else
            az_buf_printf(&b, "{'loss': %.4f, 'grad_norm': 0.%d, 'epoch': 0.0}\n", loss, 3 + i % 6);
    }
    fx_write("run", "train.log", b.data);
    az_buf_free(&b);
}

Test(correlate, playbook_run_that_does_not_learn_is_g8)
{
    use_pack2();
    write_playbook_run(1);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G8", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

Test(correlate, playbook_run_that_learns_is_none)
{
    use_pack2();
    write_playbook_run(0); /* near miss: the same recipe, loss falling, grad_norm < 1 */
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

Test(correlate, oom_with_no_sign_of_a_gb10_is_not_g3)
{
    /* A CUDA OOM alone could come from any GPU: G3 is a unified-memory failure, so without a GB10
     * name, its ~119.7 GiB pool or UMA's unreadable memory columns it stays below a verdict. */
    use_pack2();
    write_trainer_oom();
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* NCCL's own count of the nodes: "comm 0x.. rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0
 * MNNVL 0" (NCCL init.cc, NCCL_DEBUG=INFO), here as a vLLM Ray worker prints it in a public
 * two-node vLLM log (host "corona"); vLLM's "non-default args" dict quotes the TP size
 * ('tensor_parallel_size': 2, as in mark-ramsey-ri/vllm-dgx-spark#1). One host name only: the
 * nodes come from NCCL. local: NCCL's localRanks; dev: the CUDA device in the line prefix. */
static void write_vllm_nccl_nodes(int local, int dev)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "(APIServer pid=3301) INFO 05-19 20:11:04 [utils.py:233] non-default args: "
                    "{'model': 'openai/gpt-oss-120b', 'tensor_parallel_size': 2}\n");
    az_buf_printf(&b,
                  "(EngineCore_DP0 pid=742) (RayWorkerWrapper pid=927) corona:927:927 [%d] NCCL "
                  "INFO comm 0x2083dd50 rank 0 nRanks 2 nNodes 2 localRanks %d localRank %d "
                  "MNNVL 0\n",
                  dev, local, dev);
    fx_write("run", "vllm-serve.log", b.data);
    az_buf_free(&b);
}

Test(correlate, nccl_node_count_with_tp2_is_g10)
{
    fx_load_shipped();
    write_vllm_nccl_nodes(1, 0);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    cr_assert(strstr(r->findings[0].summary, "NCCL") != NULL, "%s", r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, nccl_node_with_several_gpus_is_not_g10)
{
    /* near miss: the same TP and node count on a server with eight GPUs per node (localRanks 8,
     * device 3): a DGX Spark has one GPU, so the pair is no Spark pair */
    fx_load_shipped();
    write_vllm_nccl_nodes(8, 3);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

/* SGLang's multi-node launch line as sgl-project/sglang#550 documents it ("--tp 16 --nnodes 2":
 * two 8-GPU servers); tp: the TP size. */
static void write_sglang_launch(int tp)
{
    char line[320];
    snprintf(line, sizeof line,
             "GLOO_SOCKET_IFNAME=eth0 python3 -m sglang.launch_server --model-path "
             "meta-llama/Meta-Llama-3-70B-Instruct --tp %d --nccl-init-addr 172.16.5.82:20000 "
             "--nnodes 2 --node-rank 0\n",
             tp);
    fx_write("run", "launch.sh", line);
}

Test(correlate, tp_across_two_nodes_one_rank_each_is_g10)
{
    fx_load_shipped();
    write_sglang_launch(2);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

Test(correlate, tp_larger_than_the_node_count_is_not_g10)
{
    /* near miss: TP 16 over 2 nodes puts 8 GPUs on each; a DGX Spark has one */
    fx_load_shipped();
    write_sglang_launch(16);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

Test(correlate, cuda13_torch_does_not_clear_a_cuda12_extension)
{
    /* sgl_kernel built against CUDA 12 on a cu130 torch (gotcha-checks-notes.md, G1:
     * "libnvrtc.so.12 not found on GB10"): the torch build is right, the extension is the mismatch
     */
    fx_load_shipped();
    fx_write("run", "collect_env.txt",
             "PyTorch version: 2.9.0+cu130\n"
             "CUDA used to build PyTorch: 13.0\n");
    fx_write(
        "run", "server.log",
        "[2026-01-12 09:14:03] Traceback (most recent call last):\n"
        "OSError: libnvrtc.so.12: cannot open shared object file: No such file or directory\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

Test(correlate, cuda13_torch_lowers_g1_without_a_cuda12_library)
{
    /* near miss: the same cu130 torch, and only a hint (the capability warning) */
    fx_load_shipped();
    fx_write("run", "collect_env.txt",
             "PyTorch version: 2.9.0+cu130\n"
             "CUDA used to build PyTorch: 13.0\n");
    fx_write("run", "train.log",
             "UserWarning: Found GPU0 NVIDIA GB10 which is of cuda capability 12.1.\n"
             "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n"
             "    (8.0) - (12.0)\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* vLLM's startup memory line, healthy and refused (vllm-project/vllm#20305 shape; GB10's pool
 * reads ~119.7 GiB, gotcha-checks-notes.md G3). The refusal is ~10 GiB short of the request with
 * 0.82 of the pool free, an idle GB10's floor (MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks#47):
 * the pool's own headroom, G3; under 0.70 free is G6's (the test after the next one). */
static void write_vllm_startup(int refused)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "INFO 09-09 11:00:00 [__init__.py:216] Automatically detected platform cuda.\n"
                    "Loading safetensors checkpoint shards:   0% Completed | 0/8 [00:00<?, ?it/s]\n"
                    "(EngineCore_DP0 pid=2231) INFO 09-09 11:00:27 [default_loader.py:267] Loading "
                    "weights took 74.21 seconds\n");
    /* GB10's nvidia-smi cannot read unified memory: normal, and no OOM on its own */
    fx_write("run", "nvidia-smi.txt",
             "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |               "
             "   N/A |\n"
             "| N/A   55C    P0             33W /  N/A  | Not Supported          |     61%      "
             "Default |\n");
    if (refused)
        az_buf_puts(&b,
                    "(EngineCore_DP0 pid=2231) ERROR 09-09 11:01:48 [core.py:708] ValueError: Free "
                    "memory on device (97.87/119.70 GiB) on startup is less than desired GPU "
                    "memory utilization (0.9, 107.73 GiB). Decrease GPU memory utilization or "
                    "reduce GPU memory used by other processes.\n");
    else
        az_buf_puts(&b,
                    "(EngineCore_DP0 pid=2231) INFO 09-09 11:01:48 [gpu_worker.py:391] Free memory "
                    "on device (118.12/119.70 GiB) on startup. Desired GPU memory utilization is "
                    "(0.5, 59.85 GiB). Actual usage is 27.50 GiB\n");
    fx_write("run", "vllm.log", b.data);
    az_buf_free(&b);
}

Test(correlate, vllm_refusing_to_start_on_the_gb10_pool_is_g3)
{
    fx_load_shipped();
    write_vllm_startup(1);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    cr_assert_str_eq(r->context.platform, "gb10"); /* the 119.70 GiB pool names the machine */
    corr_result_free(r);
}

Test(correlate, vllm_healthy_startup_memory_line_is_not_an_oom)
{
    fx_load_shipped();
    write_vllm_startup(0);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_lt(fx_conf(r, "G3"), 0.35);
    corr_result_free(r);
}

/* sgl_kernel built against another torch (sgl-project/sglang CI logs): the c10 SymInt symbol */
/* An installed extension loaded by another torch (pytorch/extension-cpp#103) is drift between two
 * installs: G9 on its own, below the confidence a pip transcript of the change adds. The same
 * error from an extension built in the user's source tree (feihuzhang/GANet#6) is that build's
 * settings, not G9. */
#define C10_ABI_LINE                                                                               \
    "ImportError: /root/miniconda3/lib/python3.11/site-packages/extension_cpp/_C.cpython-311-"     \
    "x86_64-linux-gnu.so: undefined symbol: _ZN5torch3jit11parseSchemaERKSsb\n"

Test(correlate, torch_abi_error_of_an_installed_extension_is_g9)
{
    fx_load_shipped();
    struct corr_result *r =
        fx_scan_one("abi", "stderr.log", "Traceback (most recent call last):\n" C10_ABI_LINE);
    cr_assert_str_eq(fx_verdict(r), "G9");
    double alone = fx_conf(r, "G9");
    corr_result_free(r);
    /* the same error after pip replaced the image's torch is G9 with more confidence */
    r = fx_scan_one("abi-pip", "stderr.log",
                    "      Successfully uninstalled torch-2.9.0a0+50eac811a6.nv25.9\n"
                    "Successfully installed torch-2.9.1\n"
                    "Traceback (most recent call last):\n" C10_ABI_LINE);
    cr_assert_str_eq(fx_verdict(r), "G9");
    cr_assert_gt(fx_conf(r, "G9"), alone, "the pip transcript adds to the lone ABI error");
    corr_result_free(r);
    /* near miss: an extension built in its own source tree */
    r = fx_scan_one(
        "abi-own", "stderr.log",
        "Traceback (most recent call last):\n"
        "ImportError: /data/bq/GANet-master/libs/GANet/build/lib/GANet.cpython-36m-x86_64-"
        "linux-gnu.so: undefined symbol: _ZN3c105ErrorC1ENS_14SourceLocationERKSs\n");
    cr_assert_str_eq(fx_verdict(r), "none");
    cr_assert_eq(fx_conf(r, "G9"), 0.0, "no G9 line in an own build's error");
    corr_result_free(r);
}

/* ---- install mechanisms (G1, G2, G9) on the shipped pack ---- */

/* A CUDA 12 runtime library missing (xorbitsai/inference#1286's loader line) under a python
 * logging stamp. A binary linked against a CUDA major the system lacks is G1 on any machine
 * (tests/realworld/README.md, labelling rules), also in a log written before CUDA 13 existed
 * (a CUDA 12 wheel on a CUDA 11 system): the date does not clear it. */
static void write_cuda12_missing(const char *day)
{
    char text[512];
    snprintf(text, sizeof text,
             "%s 10:38:52,670 - ERROR - model load failed\n"
             "ImportError: libcudart.so.12: cannot open shared object file: No such file or "
             "directory\n",
             day);
    fx_write("old", "server.log", text);
}

Test(correlate, cuda12_library_missing_is_g1_whatever_the_date)
{
    fx_load_shipped();
    write_cuda12_missing("2024-08-22");
    struct corr_result *r = fx_analyze_dir("old");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    double before = fx_conf(r, "G1");
    corr_result_free(r);
    write_cuda12_missing("2026-01-12");
    r = fx_analyze_dir("old");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    cr_expect_float_eq(fx_conf(r, "G1"), before, 1e-9, "the date weighs nothing");
    corr_result_free(r);
}

/* torch.cuda's lazy init on a CPU-only torch (facebookresearch/detectron2#460's traceback) on a
 * machine whose collect_env names its NVIDIA driver ("Nvidia driver version: %s"): the GPU is
 * there, the torch has no CUDA. */
Test(correlate, cpu_only_torch_where_cuda_is_needed_is_g9)
{
    fx_load_shipped();
    fx_write("cpu", "stderr.log",
             "Nvidia driver version: 470.256.02\n"
             "  File \"/home/xx/anaconda3/envs/tf-gpu/lib/python3.7/site-packages/torch/cuda/"
             "__init__.py\", line 95, in _check_driver\n"
             "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
             "AssertionError: Torch not compiled with CUDA enabled\n");
    struct corr_result *r = fx_analyze_dir("cpu");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_assert_not_null(r->first_error);
    cr_assert_eq(r->first_error->line, 4u, "the exception line, not the raise line");
    corr_result_free(r);
    /* near miss: on a Mac (asafamr/bertwsi#1) torch has no CUDA build at all */
    fx_write("cpu", "stderr.log",
             "  File \"/opt/homebrew/lib/python3.11/site-packages/torch/cuda/__init__.py\", "
             "line 239, in _lazy_init\n"
             "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
             "AssertionError: Torch not compiled with CUDA enabled\n");
    r = fx_analyze_dir("cpu");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* An install that asked for the cu130 index and got a +cpu torch (pytorch/pytorch#168065:
 * `pip install torch` on aarch64 resolves the CPU wheel; collect_env's lines). */
Test(correlate, cpu_torch_after_asking_for_cu130_is_g1)
{
    fx_load_shipped();
    fx_write("wheel", "install.log",
             "pip3 install torch --index-url https://download.pytorch.org/whl/cu130\n"
             "PyTorch version: 2.9.1+cpu\n"
             "Is CUDA available: False\n");
    struct corr_result *r = fx_analyze_dir("wheel");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    /* near miss: the index delivered its CUDA build */
    fx_write("wheel", "install.log",
             "pip3 install torch --index-url https://download.pytorch.org/whl/cu130\n"
             "PyTorch version: 2.9.1+cu130\n"
             "Is CUDA available: True\n");
    r = fx_analyze_dir("wheel");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* flash-attn's extension against another torch (Dao-AILab/flash-attention#919's line shape):
 * flash-attn's wheel, G2; pip replacing torch first makes it G9's consequence. */
#define FA_ABI_LINE                                                                                \
    "ImportError: /usr/local/lib/python3.10/dist-packages/flash_attn_2_cuda.cpython-310-x86_64-"   \
    "linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n"

Test(correlate, flash_attn_torch_symbol_alone_is_g2_not_g9)
{
    fx_load_shipped();
    fx_write("fa", "stderr.log", "Traceback (most recent call last):\n" FA_ABI_LINE);
    struct corr_result *r = fx_analyze_dir("fa");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    cr_assert_lt(fx_conf(r, "G9"), 0.05, "G9 %.2f", fx_conf(r, "G9"));
    corr_result_free(r);
    fx_write("fa-pip", "stderr.log",
             "  Attempting uninstall: torch\n"
             "    Found existing installation: torch 2.2.1\n"
             "      Successfully uninstalled torch-2.2.1\n"
             "Successfully installed torch-2.3.0\n"
             "Traceback (most recent call last):\n" FA_ABI_LINE);
    r = fx_analyze_dir("fa-pip");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* pip's console stopping in a flash-attn source build (Dao-AILab/flash-attention#1912's shape):
 * G2 where flash-attn ships no wheel (a CUDA 13 torch, #2045), a hint elsewhere (a build that is
 * merely slow, or a console copied while it ran). */
static void write_fa_build(const char *torch)
{
    char text[1024];
    snprintf(text, sizeof text,
             "Collecting flash-attn==2.8.3\n"
             "  Downloading flash_attn-2.8.3.tar.gz (8.4 MB)\n"
             "  Preparing metadata (setup.py) ... done\n"
             "Requirement already satisfied: torch in /home/dev/.venv/lib/python3.12/site-packages "
             "(from flash-attn==2.8.3) (%s)\n"
             "Building wheels for collected packages: flash-attn\n"
             "  Building wheel for flash-attn (setup.py) ... \n",
             torch);
    fx_write("fa-build", "pip.log", text);
}

Test(correlate, flash_attn_build_as_last_line_needs_a_platform_without_wheels)
{
    fx_load_shipped();
    write_fa_build("2.9.1+cu130");
    struct corr_result *r = fx_analyze_dir("fa-build");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    write_fa_build("2.2.1+cu121");
    r = fx_analyze_dir("fa-build");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_gt(fx_conf(r, "G2"), 0.0, "still weighed");
    corr_result_free(r);
}

/* pip collecting a torch another package pins ('pip3 install vllm==0.7.3' transcript shape):
 * in a fresh venv an install, beside an installed torch (a pip list row) a replacement. */
Test(correlate, pinned_torch_collected_replaces_only_an_installed_torch)
{
    fx_load_shipped();
    static const char pip[] = "Collecting vllm==0.7.3\n"
                              "Collecting psutil (from vllm==0.7.3)\n"
                              "Collecting torch==2.5.1 (from vllm==0.7.3)\n"
                              "Collecting torchaudio==2.5.1 (from vllm==0.7.3)\n";
    fx_write("pin", "pip.log", pip);
    struct corr_result *r = fx_analyze_dir("pin");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    fx_write("pin2", "pip-list.txt",
             "torch                         2.4.0+cu121\n"
             "torchvision                   0.19.0+cu121\n");
    fx_write("pin2", "pip.log", pip);
    r = fx_analyze_dir("pin2");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* The driver's probe-time report names no Xid and none of the usual error words, yet it is the
 * run's failure (NVIDIA/NVSentinel#155): a decisive common signature is an error line. */
Test(correlate, decisive_common_failure_is_the_first_error_without_error_words)
{
    fx_load_shipped();
    fx_write("bus", "dmesg.log",
             "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
             "               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
             "               NVRM: fallen off the bus and is not responding to commands.\n");
    struct corr_result *r = fx_analyze_dir("bus");
    cr_assert_str_eq(fx_verdict(r), "none");
    cr_assert_not_null(r->first_error_entry, "a first error is named");
    cr_assert_str_eq(r->first_error_entry->id, "C.xid");
    cr_assert_eq(r->first_error->line, 3u);
    corr_result_free(r);
}

/* ---- dependency drift (G9) and the CUDA generation (G1) in each loader's and resolver's own
 * words (shipped pack). Lines are the emitters' format strings filled with values of their own
 * (docs/emitters.md names each source): glibc elf/dl-lookup.c, dyld dyld/Loader.cpp and
 * DyldAPIs.cpp, CPython Python/dynload_win.c and Lib/importlib, pip's install.py and resolvelib
 * factory.py, uv's site_packages.rs and loggers.rs, onnxruntime's DetermineLoadLibraryError. */

/* dyld-1378: "dlopen(%s, 0x%04X): Symbol not found: %s\n  Referenced from: <%s> %s\n  Expected
 * in:     <%s> %s"; a Mach-O torch symbol has one more leading underscore than ELF's. */
static void write_dyld_symbol(const char *so)
{
    char text[1400];
    snprintf(text, sizeof text,
             "Traceback (most recent call last):\n"
             "  File \"/Users/kai/work/asr/run.py\", line 3, in <module>\n"
             "    import torchaudio\n"
             "ImportError: dlopen(%s, 0x0002): Symbol not found: "
             "__ZN3c1015SmallVectorBase6grow_podEPvmm\n"
             "  Referenced from: <4F1C2B3A-9D8E-3C7B-A6F5-0E1D2C3B4A59> %s\n"
             "  Expected in:     <0A1B2C3D-4E5F-3A6B-8C7D-9E0F1A2B3C4D> "
             "/Users/kai/.pyenv/versions/3.12.4/lib/python3.12/site-packages/torch/lib/"
             "libc10.dylib\n",
             so, so);
    fx_write("dyld", "stderr.log", text);
}

Test(correlate, dyld_torch_symbol_missing_in_an_installed_extension_is_g9_on_a_mac)
{
    fx_load_shipped();
    write_dyld_symbol("/Users/kai/.pyenv/versions/3.12.4/lib/python3.12/site-packages/torchaudio/"
                      "lib/libtorchaudio.so");
    struct corr_result *r = fx_analyze_dir("dyld");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_assert_str_eq(r->context.platform, "other", "a Mac is not a GB10: %s", r->context.platform);
    corr_result_free(r);
    /* near miss: the extension was built in the user's own tree (a build setting, not drift) */
    write_dyld_symbol("/Users/kai/src/audio/build/lib.macosx-14.0-arm64-cpython-312/torchaudio/"
                      "lib/libtorchaudio.so");
    r = fx_analyze_dir("dyld");
    cr_assert_gt(r->records, 0);
    cr_assert_lt(fx_conf(r, "G9"), 0.05, "G9 %.2f", fx_conf(r, "G9"));
    corr_result_free(r);
}

/* CPython dynload_win.c: "DLL load failed while importing %s: " + FormatMessage(127). The frame
 * closest above says whose code imported the extension. */
static void write_win_proc(const char *frame)
{
    char text[1024];
    snprintf(text, sizeof text,
             "Traceback (most recent call last):\n"
             "  File \"D:\\\\proj\\\\gnn\\\\train.py\", line 7, in <module>\n"
             "    import torch_geometric\n"
             "%s"
             "    from torch_scatter import _C\n"
             "ImportError: DLL load failed while importing _C: The specified procedure could not "
             "be found.\n",
             frame);
    fx_write("win", "stderr.log", text);
}

Test(correlate, windows_procedure_not_found_under_an_installed_package_is_g9)
{
    fx_load_shipped();
    write_win_proc(
        "  File \"D:\\\\proj\\\\gnn\\\\.venv\\\\Lib\\\\site-packages\\\\torch_scatter\\\\"
        "__init__.py\", line 16, in <module>\n");
    struct corr_result *r = fx_analyze_dir("win");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_assert_str_eq(r->context.platform, "other", "%s", r->context.platform);
    corr_result_free(r);
    /* near miss: the user's own module imports it (the closest frame is theirs): a hint only */
    write_win_proc("  File \"D:\\\\proj\\\\gnn\\\\ops.py\", line 2, in <module>\n");
    r = fx_analyze_dir("win");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_gt(fx_conf(r, "G9"), 0.0, "still weighed");
    corr_result_free(r);
}

/* importlib's "No module named {!r}" for a module torch 2.0 dropped; the frames above it. */
Test(correlate, missing_torch_module_is_g9_when_the_closest_frame_is_an_installed_package)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "mod", "stderr.log",
        "Traceback (most recent call last):\n"
        "  File \"/srv/app/serve.py\", line 5, in <module>\n"
        "    from apex import amp\n"
        "  File \"/opt/conda/lib/python3.11/site-packages/apex/amp/__init__.py\", line 1, "
        "in <module>\n"
        "    from torch._six import string_classes\n"
        "ModuleNotFoundError: No module named 'torch._six'\n");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    /* near miss: an installed package's frame further up, the user's script closest above */
    r = fx_scan_one(
        "mod2", "stderr.log",
        "Traceback (most recent call last):\n"
        "  File \"/opt/conda/lib/python3.11/site-packages/accelerate/commands/launch.py\", "
        "line 1174, in launch_command\n"
        "    simple_launcher(args)\n"
        "  File \"/srv/app/serve.py\", line 5, in <module>\n"
        "    from torch._six import string_classes\n"
        "ModuleNotFoundError: No module named 'torch._six'\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* IPython 8's traceback: "File PATH:LINE" above ten lines of source context. */
Test(correlate, ipython_frame_of_an_installed_package_counts_as_the_importer)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "ipy", "nb.log",
        "Cell In[4], line 2\n"
        "      1 import torch\n"
        "----> 2 from diffusers import StableDiffusionPipeline\n"
        "\n"
        "File ~/venvs/sd/lib/python3.10/site-packages/diffusers/utils/torch_utils.py:27\n"
        "     25 import torch\n"
        "     26 \n"
        "---> 27 from torch.utils._pytree import register_pytree_node\n"
        "     29 logger = logging.get_logger(__name__)\n"
        "\n"
        "ImportError: cannot import name 'register_pytree_node' from "
        "'torch.utils._pytree' "
        "(/home/ana/venvs/sd/lib/python3.10/site-packages/torch/utils/_pytree.py)\n");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* pip's _warn_about_conflicts with a range specifier (its commas are part of the requirement) */
Test(correlate, pip_conflict_on_a_torch_range_is_g9_and_on_protobuf_is_not)
{
    fx_load_shipped();
    static const char head[] =
        "Successfully installed torch-2.7.0 triton-3.3.0\n"
        "ERROR: pip's dependency resolver does not currently take into account all the packages "
        "that are installed. This behaviour is the source of the following dependency "
        "conflicts.\n";
    char text[1024];
    snprintf(text, sizeof text, "%s%s", head,
             "torchaudio 2.6.0+cu126 requires torch<2.7,>=2.6.0, but you have torch 2.7.0 which "
             "is incompatible.\n");
    struct corr_result *r = fx_scan_one("conf", "pip.log", text);
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    snprintf(text, sizeof text, "%s%s",
             "Successfully installed protobuf-3.20.3\n"
             "ERROR: pip's dependency resolver does not currently take into account all the "
             "packages that are installed. This behaviour is the source of the following "
             "dependency conflicts.\n",
             "opentelemetry-proto 1.27.0 requires protobuf<6.0,>=5.0, but you have protobuf "
             "3.20.3 which is incompatible.\n");
    r = fx_scan_one("conf2", "pip.log", text);
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* resolvelib factory.py: the resolver refused the install. Two packages whose torch pins cannot
 * coexist (the causes under "The conflict is caused by:") are the drift G9 names, as the dependency
 * drift family of issue #20 counts resolver conflicts; the first error stays pip's "Cannot
 * install" line. A conflict over packages outside the torch stack stays an install failure. */
Test(correlate, resolution_impossible_over_torch_pins_is_g9_and_an_install_failure)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "resolve", "pip.log",
        "ERROR: Cannot install sglang==0.4.1 and torchao==0.9.0 because these package versions "
        "have conflicting dependencies.\n"
        "\n"
        "The conflict is caused by:\n"
        "    sglang 0.4.1 depends on torch==2.5.1\n"
        "    torchao 0.9.0 depends on torch>=2.6\n"
        "\n"
        "ERROR: ResolutionImpossible: for help visit "
        "https://pip.pypa.io/en/latest/topics/dependency-resolution/"
        "#dealing-with-dependency-conflicts\n");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_assert_not_null(r->first_error_entry);
    cr_assert_str_eq(r->first_error_entry->id, "C.install");
    cr_assert_eq(r->first_error->line, 1u, "the Cannot install line, not the help link");
    corr_result_free(r);
    r = fx_scan_one("resolve-other", "pip.log",
                    "ERROR: Cannot install mlflow==2.9.0 and protobuf==5.27.0 because these "
                    "package versions have conflicting dependencies.\n"
                    "\n"
                    "The conflict is caused by:\n"
                    "    The user requested protobuf==5.27.0\n"
                    "    mlflow 2.9.0 depends on protobuf<5 and >=3.12.0\n"
                    "\n"
                    "ERROR: ResolutionImpossible: for help visit "
                    "https://pip.pypa.io/en/latest/topics/dependency-resolution/"
                    "#dealing-with-dependency-conflicts\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_not_null(r->first_error_entry);
    cr_assert_str_eq(r->first_error_entry->id, "C.install");
    corr_result_free(r);
}

/* onnxruntime's DetermineLoadLibraryError on Windows: a CUDA 12 DLL the provider needs */
Test(correlate, windows_cuda12_dll_missing_is_g1_and_a_paging_file_error_is_not)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "ort", "app.log",
        "2026-02-11 09:14:03.5512345 [E:onnxruntime:Default, provider_bridge_ort.cc:2251 "
        "onnxruntime::TryGetProviderInfo_CUDA] Error loading \"E:\\\\tts\\\\env\\\\Lib\\\\"
        "site-packages\\\\onnxruntime\\\\capi\\\\onnxruntime_providers_cuda.dll\" which depends "
        "on \"cublas64_12.dll\" which is missing. (Error 126: \"The specified module could not "
        "be found.\")\n");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    /* near miss: torch's own DLL loader failing on the paging file (WinError 1455) */
    r = fx_scan_one(
        "ort2", "stderr.log",
        "OSError: [WinError 1455] The paging file is too small for this operation to "
        "complete. Error loading \"E:\\\\tts\\\\env\\\\Lib\\\\site-packages\\\\torch\\\\"
        "lib\\\\cublas64_12.dll\" or one of its dependencies.\n");
    cr_assert_lt(fx_conf(r, "G1"), 0.05, "G1 %.2f", fx_conf(r, "G1"));
    corr_result_free(r);
}

/* glibc's "undefined symbol: %s, version %s" beside a stub library: the stub's own gap */
Test(correlate, cuda_symbol_missing_beside_a_stub_is_not_g1)
{
    fx_load_shipped();
    struct corr_result *r =
        fx_scan_one("stub", "stderr.log",
                    "ImportError: /opt/sim/third_party/cudart_stub/libcudart_stub.so: undefined "
                    "symbol: cudaStreamBeginCaptureToGraph, version libcudart.so.12\n");
    cr_assert_lt(fx_conf(r, "G1"), 0.05, "G1 %.2f", fx_conf(r, "G1"));
    corr_result_free(r);
    r = fx_scan_one("nostub", "stderr.log",
                    "ImportError: /opt/sim/.venv/lib/python3.11/site-packages/simcore/_ext.so: "
                    "undefined symbol: cudaStreamBeginCaptureToGraph, version libcudart.so.12\n");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* a CUDA 13 library's version node missing where the environment is CUDA 12 (a cu126 torch) */
Test(correlate, cuda13_version_node_missing_on_a_cuda12_stack_is_g1)
{
    fx_load_shipped();
    /* nvJitLink's versioned internal name (no CUDA API prefix G1.undefined-symbol-cuda-fn reads) */
    static const char sym[] = "OSError: /home/rk/.venv/lib/python3.12/site-packages/fastkern/"
                              "libfastkern.so: undefined symbol: __nvJitLinkCreate_13_0, "
                              "version libnvJitLink.so.13\n";
    struct corr_result *r = fx_scan_one("c13", "stderr.log", sym);
    cr_assert_str_eq(fx_verdict(r), "none", "alone, a hint: %s", fx_verdict(r));
    cr_assert_gt(fx_conf(r, "G1"), 0.0);
    corr_result_free(r);
    fx_write("c13b", "pip-list.txt", "torch                    2.7.1+cu126\n");
    fx_write("c13b", "stderr.log", sym);
    r = fx_analyze_dir("c13b");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* torchvision's _check_cuda_version and uv's install changelog */
Test(correlate, domain_library_of_another_cuda_and_uv_removing_the_image_torch_are_g9)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "tv", "stderr.log",
        "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA "
        "major versions. PyTorch has CUDA Version=12.6 and torchvision has CUDA Version=13.0. "
        "Please reinstall the torchvision that matches your PyTorch install.\n");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = fx_scan_one("uv", "install.log",
                    "Resolved 38 packages in 2.10s\n"
                    "Uninstalled 2 packages in 310ms\n"
                    "Installed 2 packages in 1.02s\n"
                    " - torch==2.8.0a0+5228986c39.nv25.6\n"
                    " + torch==2.8.0\n"
                    " - torchvision==0.23.0a0+428a54c9.nv25.6\n"
                    " + torchvision==0.23.0\n");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* ---- fault codes, root before noise (shipped pack) ----
 * Shapes: the driver's "NVRM: Xid (PCI:...): N, pid=..., name=..., <text>" print
 * (open-gpu-kernel-modules, NVIDIA Xid catalogue examples) in dmesg -T form; NCCL's
 * "NCCL WARN NET/IB : Got non-fatal async event: port error" (nccl src/transport/net_ib.cc) with
 * the host:pid:tid prefix NCCL puts on every line; the kernel OOM report of mm/oom_kill.c (4.x:
 * "X invoked oom-killer: gfp_mask=...", then "Out of memory: Kill process N (x) score S or
 * sacrifice child", "Killed process N (x) total-vm:...") and Slurm's task/cgroup "Detected N
 * oom_kill events in StepId=..." error. */

static const struct corr_code_seen *seen_code(const struct corr_result *r, long code)
{
    for (size_t i = 0; i < r->ncodes; i++)
        if (r->codes[i].code->code == code) return &r->codes[i];
    return NULL;
}

Test(correlate, repeated_xids_collapse_into_counts)
{
    fx_load_shipped();
    char *log = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&log, &len);
    for (int i = 0; i < 500; i++)
        fprintf(f,
                "[Tue May 12 10:%02d:%02d 2026] NVRM: Xid (PCI:0000:01:00): 13, pid=4242, "
                "name=python3, Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range "
                "Address\n",
                i / 60 % 60, i % 60);
    fputs("[Tue May 12 11:40:17 2026] NVRM: Xid (PCI:0000:01:00): 79, pid=4242, name=python3, "
          "GPU has fallen off the bus.\n",
          f);
    fclose(f);
    fx_write("xids", "dmesg.log", log);
    free(log);
    struct corr_result *r = fx_analyze_dir("xids");
    cr_assert_str_eq(fx_verdict(r), "none");
    cr_assert_not_null(r->first_error);
    /* the driver stopped the application at the first Xid 13 (RESTART_APP: strong whatever the
     * GPU's state); the later Xid 79 is in the codes seen */
    cr_assert_not_null(r->first_error->sig->code);
    cr_expect_eq(r->first_error->sig->code->code, 13);
    cr_expect_eq(r->first_error->line, 1u);
    cr_assert_eq(r->ncodes, 2);
    const struct corr_code_seen *x13 = seen_code(r, 13), *x79 = seen_code(r, 79);
    cr_assert_not_null(x13);
    cr_assert_not_null(x79);
    cr_expect_eq(r->codes[0].code->code, 13, "in the order of their first line");
    cr_expect_eq(x13->count, 500u, "every line counted, beyond the evidence kept");
    cr_expect_eq(x79->count, 1u);
    cr_expect_lt(x13->first.usec, x13->last.usec);
    cr_expect_str_eq(x13->code->severity, "nonfatal");
    corr_result_free(r);
}

Test(correlate, a_nonfatal_warning_never_outranks_the_error_that_follows)
{
    fx_load_shipped();
    fx_write("warn", "train.log",
             "gpu-node-3:1234:5678 [0] NCCL WARN NET/IB : Got non-fatal async event: port error\n"
             "2026-05-12 10:00:01,000 INFO step 10 loss 1.23\n"
             "RuntimeError: Rank 3, iteration 12: found Inf in local grad norm\n");
    struct corr_result *r = fx_analyze_dir("warn");
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 3u, "the error, not the earlier warning");
    corr_result_free(r);
    /* alone, the warning is still what the run shows */
    fx_write("warn-alone", "train.log",
             "gpu-node-3:1234:5678 [0] NCCL WARN NET/IB : Got non-fatal async event: port error\n"
             "2026-05-12 10:00:01,000 INFO step 10 loss 1.23\n");
    r = fx_analyze_dir("warn-alone");
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 1u);
    cr_expect(r->first_error->sig->role == MATCH_ROLE_NOISE);
    corr_result_free(r);
}

/* Both demotions at once: a cascade line (torchrun's ChildFailedError, the shape of
 * torch/distributed/elastic/multiprocessing/errors/__init__.py) is still an error the run shows,
 * so it outranks an earlier non-fatal NCCL WARN; the warning is named only when nothing else is. */
Test(correlate, a_cascade_line_outranks_an_earlier_noise_line)
{
    fx_load_shipped();
    fx_write("both", "train.log",
             "gpu-node-3:1234:5678 [0] NCCL WARN NET/IB : Got non-fatal async event: port error\n"
             "2026-05-12 10:00:01,000 INFO step 10 loss 1.23\n"
             "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n");
    struct corr_result *r = fx_analyze_dir("both");
    cr_assert_eq(r->records, 3);
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 3u, "the cascade line, not the earlier warning");
    cr_expect(r->first_error->sig->role == MATCH_ROLE_CASCADE);
    corr_result_free(r);
}

Test(correlate, oom_report_names_the_victim_line_not_the_trigger)
{
    fx_load_shipped();
    fx_write("oom", "dmesg.log",
             "[ 7512.331001] python3 invoked oom-killer: gfp_mask=0x6200ca(GFP_HIGHUSER_MOVABLE), "
             "order=0, oom_score_adj=0\n"
             "[ 7512.331090] CPU: 12 PID: 41321 Comm: python3 Not tainted 4.15.0-213-generic\n"
             "[ 7512.339101] Out of memory: Kill process 41002 (pt_main_thread) score 912 or "
             "sacrifice child\n"
             "[ 7512.339104] Killed process 41002 (pt_main_thread) total-vm:130212340kB, "
             "anon-rss:120001220kB, file-rss:4kB\n");
    struct corr_result *r = fx_analyze_dir("oom");
    cr_assert_not_null(r->first_error_entry);
    cr_expect_str_eq(r->first_error_entry->id, "C.oom-killer");
    cr_expect_eq(r->first_error->line, 3u, "the kill line names the victim");
    cr_expect(strstr(r->first_error->text, "pt_main_thread") != NULL);
    corr_result_free(r);
    fx_write("slurm", "slurm-1742530.out",
             "[2026-02-16 11:35:17] iteration 656001/993410 | lm loss: 1.0 |\n"
             "slurmstepd: error: Detected 6 oom_kill events in StepId=1742530.0. Some of the "
             "step tasks have been OOM Killed.\n");
    r = fx_analyze_dir("slurm");
    cr_assert_not_null(r->first_error_entry);
    cr_expect_str_eq(r->first_error_entry->id, "C.oom-killer");
    cr_expect_eq(r->first_error->line, 2u);
    corr_result_free(r);
}

/* A code NVIDIA's table does not list (a newer driver's) is still the run's Xid, named by number.
 */
Test(correlate, an_xid_the_catalogue_does_not_list_is_named_by_its_number)
{
    fx_load_shipped();
    fx_write("new", "dmesg.log",
             "[ 8123.456789] NVRM: Xid (PCI:0000:01:00): 999, pid=4242, name=python3, new "
             "fault\n");
    struct corr_result *r = fx_analyze_dir("new");
    cr_assert_not_null(r->first_error);
    cr_assert_str_eq(r->first_error_entry->id, "C.xid");
    cr_expect_null(r->first_error->sig->code);
    cr_expect_str_eq(r->first_error->note, "Xid 999: not in the catalogue");
    cr_expect_eq(r->ncodes, 0);
    corr_result_free(r);
}

/* ---- prefixes: signatures see the message (tokenize/tok_prefix.c) ---- */

/* An SGLang server under docker compose (sgl-project/sglang#12496's prefix, #7227's scheduler
 * traceback): the exception line is anchored in the shipped pack ("^...Error: "), and only
 * matches once compose's "sglang-1  | " is stripped. */
static void write_compose_sglang(void)
{
    fx_write("run", "server.log",
             "sglang-1  | [2025-11-01 16:50:30] Load weight begin. avail mem=22.46 GB\n"
             "sglang-1  | [2025-11-01 16:50:31] Scheduler hit an exception: Traceback (most "
             "recent call last):\n"
             "sglang-1  |   File \"/sgl-workspace/sglang/python/sglang/srt/managers/"
             "scheduler.py\", line 2546, in run_scheduler_process\n"
             "sglang-1  | ValueError: tokenizer_config.json has no chat_template\n");
}

static struct corr_result *analyze_dir_threads(const char *sub, unsigned threads)
{
    struct corr_config cfg;
    corr_config_default(&cfg, fx.pack);
    cfg.threads = threads;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fx.dir, sub);
    const char *pp[] = {path};
    return fx_analyze(&cfg, pp, 1);
}

Test(correlate, anchored_signature_matches_behind_a_compose_prefix)
{
    fx_load_shipped();
    write_compose_sglang();
    for (unsigned threads = 1; threads <= 2; threads++) { /* the scan and the pipe's workers */
        struct corr_result *r = analyze_dir_threads("run", threads);
        cr_assert_eq(r->records, 4);
        cr_assert_not_null(r->first_error, "-j%u: no first error behind the prefix", threads);
        cr_assert_eq(r->first_error->line, 4);
        /* evidence keeps the whole record, prefix included */
        cr_assert(strncmp(r->first_error->text, "sglang-1  | ValueError: ", 24) == 0, "%s",
                  r->first_error->text);
        /* the time is the SGLang stamp the line inherits (line 4 has none of its own) */
        cr_assert_eq(r->first_error->time.kind, AZ_TIME_ABS);
        corr_result_free(r);
    }
}

Test(correlate, anchored_signature_still_anchored_after_stripping)
{
    /* near miss: the exception name in the middle of the message is not an exception line */
    fx_load_shipped();
    fx_write("run", "server.log",
             "sglang-1  | [2025-11-01 16:50:30] Load weight begin. avail mem=22.46 GB\n"
             "sglang-1  | retrying after ValueError: tokenizer_config.json has no "
             "chat_template\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_eq(r->records, 2);
    cr_assert_null(r->first_error, "matched mid-message: %s",
                   r->first_error ? r->first_error->text : "");
    corr_result_free(r);
}

Test(correlate, rank_prefix_names_the_lane_of_its_evidence)
{
    /* srun --label over PyTorch's rank tag: the rank is the evidence's lane */
    fx_load_shipped();
    fx_write("run", "slurm-1234.out",
             "42: [rank42]: Traceback (most recent call last):\n"
             "42: [rank42]:   File \"/w/train.py\", line 9, in <module>\n"
             "42: [rank42]: ValueError: tokenizer_config.json has no chat_template\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_not_null(r->first_error);
    cr_assert_str_eq(r->first_error->lane, "rank42");
    corr_result_free(r);
}

/* ---- roles ---- */

/* A pack of two common failures: vLLM's "See root cause above" line (role as given) and a CUDA
 * error. Line shapes: vLLM v1's core_client.py message and the CUDA runtime's error string, as
 * quoted in vllm-project/vllm issue threads. */
static void use_role_pack(const char *role)
{
    match_pack_free(fx.pack);
    fx.pack = NULL;
    struct az_buf j = AZ_BUF_INIT;
    az_buf_printf(&j,
                  "{\"entries\": [{\"id\": \"C.engine\", \"family\": \"common\", \"title\": \"t\", "
                  "\"fix\": \"f\", \"signatures\": [{\"id\": \"C.engine.dead\", \"kinds\": "
                  "[\"any\"], \"strength\": \"strong\", \"role\": \"%s\", \"regex\": \"Engine "
                  "core initialization failed\", \"examples\": {\"match\": [\"RuntimeError: "
                  "Engine core initialization failed. See root cause above.\"], \"no_match\": "
                  "[\"Engine core ready\"]}, \"sources\": [\"t\"]}]},"
                  " {\"id\": \"C.cuda\", \"family\": \"common\", \"title\": \"t\", \"fix\": \"f\", "
                  "\"signatures\": [{\"id\": \"C.cuda.no-kernel\", \"kinds\": [\"any\"], "
                  "\"strength\": \"strong\", \"regex\": \"CUDA error: no kernel image\", "
                  "\"examples\": {\"match\": [\"RuntimeError: CUDA error: no kernel image is "
                  "available for execution on the device\"], \"no_match\": [\"CUDA error\"]}, "
                  "\"sources\": [\"t\"]}]}]}\n",
                  role);
    fx_write("rolepack", "test.json", j.data);
    az_buf_free(&j);
    char pdir[128];
    snprintf(pdir, sizeof pdir, "%s/rolepack", fx.dir);
    const char *dirs[] = {pdir};
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(match_pack_load(&fx.pack, dirs, 1, &err), AZ_OK, "%s", err.data ? err.data : "");
    az_buf_free(&err);
}

static void write_engine_logs(void)
{
    /* two untimed logs: the API server's (its path sorts first) and the engine core's */
    fx_write("run", "apiserver.log",
             "(APIServer pid=2001) ERROR [core_client.py:610] Engine core proc EngineCore_DP0 "
             "died unexpectedly, shutting down client.\n"
             "RuntimeError: Engine core initialization failed. See root cause above. Failed "
             "core proc(s): {'EngineCore_DP0': 1}\n");
    fx_write("run", "enginecore.log",
             "Traceback (most recent call last):\n"
             "  File \"/usr/lib/python3/dist-packages/vllm/v1/engine/core.py\", line 498\n"
             "RuntimeError: CUDA error: no kernel image is available for execution on the "
             "device\n");
}

Test(correlate, a_cascade_line_yields_the_first_error_to_the_root)
{
    use_role_pack("cascade");
    write_engine_logs();
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_eq(r->records, 5);
    cr_assert_not_null(r->first_error);
    cr_assert_str_eq(r->first_error_entry->id, "C.cuda");
    cr_assert_eq(r->first_error->line, 3);
    corr_result_free(r);
}

Test(correlate, a_root_role_keeps_the_earliest_line_first)
{
    /* near miss: the same line as a root is the earliest error (path order of untimed logs) */
    use_role_pack("root");
    write_engine_logs();
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_eq(r->records, 5);
    cr_assert_not_null(r->first_error);
    cr_assert_str_eq(r->first_error_entry->id, "C.engine");
    corr_result_free(r);
}

/* ---- the run's outcome (correlate/outcome.c), with the shipped pack's end markers ----
 * Shapes: HF Trainer's tqdm bar, its metrics dicts and its final {'train_runtime': ...} dict
 * (transformers Trainer.train(), as in corpus/healthy-qlora-unsloth-completes); a Python
 * traceback ending in "KeyError: 'labels'" (corpus/other-01, from a data-collator issue); a
 * trainer logging why it aborts with python logging's ERROR level (corpus/G4-b); the nvidia-smi
 * default table's header (nvidia-smi(1)). */
static const char *const hf_steps =
    "2026-03-02 10:00:00,000 INFO ***** Running training *****\n"
    "{'loss': 1.8421, 'grad_norm': 0.9312, 'learning_rate': 0.0002, 'epoch': 0.1}\n"
    " 10%|#         | 30/300 [15:45<2:21:45, 31.50s/it]\n"
    "{'loss': 1.3107, 'grad_norm': 0.5120, 'learning_rate': 0.00018, 'epoch': 0.2}\n";

static struct corr_result *outcome_run(const char *tail)
{
    fx_load_shipped();
    char *text = az_xasprintf("%s%s", hf_steps, tail);
    fx_write("run", "train.log", text);
    free(text);
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_gt(r->records, 3, "the log was read");
    return r;
}

Test(correlate, outcome_failed_at_the_first_error)
{
    struct corr_result *r =
        outcome_run("Traceback (most recent call last):\n"
                    "  File \"/usr/lib/python3/dist-packages/transformers/trainer.py\", line 2240\n"
                    "KeyError: 'labels'\n");
    cr_assert_eq(r->outcome, CORR_OUTCOME_FAILED, "%s", corr_outcome_name(r->outcome));
    cr_assert_not_null(r->outcome_at);
    cr_assert_eq(r->outcome_at->line, 7);
    cr_assert_str_eq(r->outcome_at->text, "KeyError: 'labels'");
    corr_result_free(r);
}

Test(correlate, outcome_completed_at_the_end_marker)
{
    struct corr_result *r = outcome_run(
        "100%|##########| 300/300 [2:37:30<00:00, 31.50s/it]\n"
        "{'train_runtime': 9477.845, 'train_samples_per_second': 0.254, 'train_loss': 0.98133}\n");
    cr_assert_eq(r->outcome, CORR_OUTCOME_COMPLETED, "%s", corr_outcome_name(r->outcome));
    cr_assert_not_null(r->outcome_at);
    cr_assert_eq(r->outcome_at->line, 6);
    cr_assert_str_eq(corr_outcome_name(r->outcome), "completed");
    corr_result_free(r);
}

Test(correlate, outcome_error_after_the_end_marker_is_failed)
{
    struct corr_result *r = outcome_run(
        "{'train_runtime': 9477.845, 'train_samples_per_second': 0.254, 'train_loss': 0.98133}\n"
        "Traceback (most recent call last):\n"
        "  File \"save.py\", line 12, in <module>\n"
        "KeyError: 'labels'\n");
    cr_assert_eq(r->outcome, CORR_OUTCOME_FAILED, "%s", corr_outcome_name(r->outcome));
    corr_result_free(r);
}

Test(correlate, outcome_cut_off_when_the_log_just_stops)
{
    struct corr_result *r = outcome_run(" 11%|#         | 33/300 [17:20<2:20:10, 31.50s/it]\n");
    cr_assert_eq(r->outcome, CORR_OUTCOME_CUT_OFF, "%s", corr_outcome_name(r->outcome));
    cr_assert_not_null(r->outcome_at);
    cr_assert_eq(r->outcome_at->line, 5, "the log's last line");
    cr_assert_str_eq(corr_outcome_name(r->outcome), "cut-off");
    corr_result_free(r);
}

Test(correlate, outcome_failed_when_the_job_logs_its_abort)
{
    struct corr_result *r = outcome_run("2026-04-03 11:11:48,419 ERROR trainer: step time 5.05 s "
                                        "exceeds watchdog limit 5.00 s; aborting run\n");
    cr_assert_eq(r->outcome, CORR_OUTCOME_FAILED, "%s", corr_outcome_name(r->outcome));
    cr_assert_not_null(r->outcome_at);
    cr_assert_eq(r->outcome_at->line, 5);
    corr_result_free(r);
}

Test(correlate, outcome_unknown_with_snapshots_only)
{
    fx_load_shipped();
    fx_write("run", "nvidia-smi.txt",
             "Tue May 12 13:04:32 2026\n"
             "+-----------------------------------------------------------------------------------"
             "------+\n"
             "| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: "
             "13.0     |\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_gt(r->records, 0, "the snapshot was read");
    cr_assert_eq(r->outcome, CORR_OUTCOME_UNKNOWN, "%s", corr_outcome_name(r->outcome));
    cr_assert_null(r->outcome_at);
    corr_result_free(r);
}

/* ---- a lone line that names the mechanism on GB10 (issue 11: "a lone strong line is held
 * back"); the pack says per signature where it is decisive ---- */

static struct corr_result *analyze_dir_on(const char *sub, const char *platform)
{
    struct corr_config cfg;
    corr_config_default(&cfg, fx.pack);
    cfg.platform = platform;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fx.dir, sub);
    const char *pp[] = {path};
    return fx_analyze(&cfg, pp, 1);
}

/* vLLM's Marlin fallback warning as a worker printed it on 2x RTX Pro 6000 (vllm#27471): the
 * same line is printed on every GPU that takes the weight-only path, so alone and off GB10 it
 * names nothing; on a GB10 it is the NVFP4 fallback G7 is about. */
#define MARLIN_FP4_LINE                                                                            \
    "(Worker_TP0 pid=201) WARNING 10-24 09:50:14 [marlin_utils_fp4.py:137] Your GPU does not "     \
    "have native support for FP4 computation but FP4 quantization is being used. Weight-only "     \
    "FP4 compression will be used leveraging the Marlin kernel. This may degrade performance "     \
    "for compute-heavy workloads.\n"

Test(correlate, a_line_decisive_on_gb10_names_its_gotcha_only_there)
{
    fx_load_shipped();
    fx_write("run", "vllm.log", MARLIN_FP4_LINE);
    struct corr_result *r = analyze_dir_on("run", NULL);
    cr_assert_str_eq(fx_verdict(r), "none", "alone, platform unknown: a hint (%s)", fx_verdict(r));
    cr_expect_lt(fx_conf(r, "G7"), 0.35);
    corr_result_free(r);
    r = analyze_dir_on("run", "gb10");
    cr_assert_str_eq(fx_verdict(r), "G7", "on GB10 the line decides (%s)", fx_verdict(r));
    cr_expect_geq(r->findings[0].confidence, 0.8);
    corr_result_free(r);
    /* the platform from the inputs: PyTorch's capability warning names a GB10 */
    fx_write(
        "gb10", "vllm.log",
        "UserWarning: Found GPU0 NVIDIA GB10 which is of cuda capability 12.1.\n" MARLIN_FP4_LINE);
    r = analyze_dir_on("gb10", NULL);
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* The summary of a finding, or NULL when the entry was not weighed into the findings. */
static const char *finding_summary(const struct corr_result *r, const char *id)
{
    for (size_t i = 0; i < r->nfindings; i++)
        if (!strcmp(r->findings[i].entry->id, id)) return r->findings[i].summary;
    return NULL;
}

/* ptxas rejecting the block-scaled FP4 MMA of llama.cpp's MXFP4 MMQ instances for the plain
 * sm_121 target a native GB10 build asks for (ggml-org/llama.cpp#18363's lines): the kernels
 * exist only for sm_121a, so G7. The same errors for plain sm_120 (antirez/ds4#672, an RTX
 * card's build) are not GB10's. */
Test(correlate, block_scaled_fp4_mma_rejected_for_plain_sm121_is_g7)
{
    fx_load_shipped();
    fx_write("gb10", "build.log",
             "ptxas /tmp/tmpxft_0000ef4d_00000000-6_mmq-instance-mxfp4.ptx, line 123423; error   "
             ": Feature '.kind::mxf4' not supported on .target 'sm_121'\n"
             "ptxas /tmp/tmpxft_0000ef4d_00000000-6_mmq-instance-mxfp4.ptx, line 123437; error   "
             ": Instruction 'mma with block scale' not supported on .target 'sm_121'\n");
    struct corr_result *r = fx_analyze_dir("gb10");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 1u);
    corr_result_free(r);
    r = fx_scan_one("rtx", "build.log",
                    "ptxas /tmp/tmpxft_000793eb_00000000-6_ds4_mmq.ptx, line 283031; error   : "
                    "Instruction 'mma with block scale' not supported on .target 'sm_120'\n"
                    "ptxas /tmp/tmpxft_000793eb_00000000-6_ds4_mmq.ptx, line 283031; error   : "
                    "Feature '.kind::mxf4' not supported on .target 'sm_120'\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_eq(fx_conf(r, "G7"), 0.0);
    corr_result_free(r);
}

/* A toolchain that cannot target sm_121a (ptxas's option error; the Triton-bundled ptxas of
 * vllm-project/vllm#30163) under an NVFP4 model: the build asked for sm_121a and failed, which
 * must not read as "the build targets sm_121a" (G7's quant-arch rule lowers G7 for a build that
 * has the arch). */
Test(correlate, a_failed_sm121a_target_is_not_a_build_that_has_it)
{
    fx_load_shipped();
    fx_write("run", "vllm.log",
             "INFO 11-20 10:01:02 [modelopt.py:812] Detected ModelOpt NVFP4 checkpoint. Please "
             "note that the format is experimental and could change in future.\n"
             "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_gt(fx_conf(r, "G7"), 0.0, "G7 weighed");
    const char *sum = finding_summary(r, "G7");
    cr_assert_not_null(sum);
    cr_expect_null(strstr(sum, "build targets sm_121a"), "G7 lowered: %s", sum);
    corr_result_free(r);
}

/* A ptxas too old for the GPU's CUDA 13 era target is a CUDA 12 toolchain binary (Triton's wheel
 * bundles one): G1, not G9 (pip changed nothing). Shapes: NVIDIA triton-inference-server#8632
 * (Jetson Thor, torch cu130, Inductor's PTXASError over ptxas-blackwell's sm_110a) and
 * gpustack/gpustack#4372 (GB10, sm_121a). An unknown arch of an old GPU stays no verdict. */
Test(correlate, a_ptxas_too_old_for_sm110a_or_sm121a_is_g1_not_g9)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "thor", "server.log",
        "torch._inductor.runtime.triton_heuristics.NoTritonConfigsError: No valid triton "
        "configs. PTXASError: PTXAS error: Internal Triton PTX codegen error\n"
        "`ptxas` stderr:\n"
        "ptxas-blackwell fatal   : Value 'sm_110a' is not defined for option 'gpu-name'\n");
    cr_expect_str_eq(fx_verdict(r), "G1", "Thor's sm_110a: %s", fx_verdict(r));
    cr_expect_float_eq(fx_conf(r, "G9"), 0.0, 1e-9, "G9 weighed a ptxas line");
    corr_result_free(r);

    fx_write("gb10", "stderr.log",
             "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'\n");
    r = fx_analyze_dir("gb10");
    cr_expect_str_eq(fx_verdict(r), "G1", "GB10's sm_121a: %s", fx_verdict(r));
    corr_result_free(r);

    r = fx_scan_one("old", "stderr.log",
                    "ptxas fatal   : Value 'sm_89' is not defined for option 'gpu-name'\n");
    cr_expect_str_eq(fx_verdict(r), "none", "an old triton on a 4090: %s", fx_verdict(r));
    corr_result_free(r);
}

/* cudaGetDriverEntryPointByVersion exists from CUDA 12.5: missing from a libcudart.so.12 it is an
 * extension built with a newer nvcc than the CUDA 12 runtime it loads (sglang#5695 on a CUDA 12
 * host, flashinfer#928): no verdict alone; beside a CUDA 13 driver (nvidia-smi's header) it is the
 * CUDA 12 build on a CUDA 13 stack, G1. */
Test(correlate, a_missing_cuda12_5_entry_point_is_g1_only_beside_cuda13)
{
    fx_load_shipped();
    const char *line = "OSError: /home/ubuntu/.cache/flashinfer/90/cached_ops/batch_prefill/"
                       "batch_prefill.so: undefined symbol: cudaGetDriverEntryPointByVersion, "
                       "version libcudart.so.12\n";
    fx_write("cu12", "server.log", line);
    struct corr_result *r = fx_analyze_dir("cu12");
    cr_assert_gt(r->records, 0, "no record was read");
    cr_expect_str_eq(fx_verdict(r), "none", "alone: %s", fx_verdict(r));
    corr_result_free(r);

    fx_write("cu13", "server.log", line);
    fx_write("cu13", "nvidia-smi.txt",
             "| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: "
             "13.0     |\n");
    r = fx_analyze_dir("cu13");
    cr_expect_str_eq(fx_verdict(r), "G1", "beside a CUDA 13 driver: %s", fx_verdict(r));
    corr_result_free(r);
}

/* 'no kernel image' raised inside flash-attn's own call (its interface into flash_attn_gpu /
 * flash_attn_cuda: the frame shape of Dao-AILab/flash-attention#1963 and flash_attn_interface.py)
 * is the flash-attn wheel lacking the GPU's arch: G2. The same error with no flash-attn frame is
 * no G2. */
Test(correlate, no_kernel_image_inside_flash_attn_call_is_g2)
{
    fx_load_shipped();
    fx_write(
        "fa", "train.log",
        "  File \"/usr/local/lib/python3.12/dist-packages/flash_attn/flash_attn_interface.py\", "
        "line 91, in _flash_attn_forward\n"
        "    out, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
    struct corr_result *r = fx_analyze_dir("fa");
    cr_assert_gt(r->records, 0, "no record was read");
    cr_expect_str_eq(fx_verdict(r), "G2", "inside flash-attn: %s", fx_verdict(r));
    corr_result_free(r);

    fx_write(
        "plain", "train.log",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
    r = fx_analyze_dir("plain");
    cr_assert_gt(r->records, 0, "no record was read");
    cr_expect_lt(fx_conf(r, "G2"), 0.05, "G2 %.2f without a flash-attn frame", fx_conf(r, "G2"));
    corr_result_free(r);
}

/* The fmha_cutlassF/B kernels are the CUTLASS memory-efficient attention inside PyTorch's SDPA
 * (their printf in aten's mem_eff_attention kernels): a hint, not flash-attn's build. The
 * unnamed form GB10 users report for flash-attn (NVIDIA workbench-example-llama3-finetune's
 * GB10 README) and flash-attn's own FLASH_UNSUPPORTED_ARCH line are G2. */
Test(correlate, sdpa_cutlass_fmha_kernel_range_is_a_hint_flash_attn_own_is_g2)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "sdpa", "run.log",
        "FATAL: kernel `fmha_cutlassF_f32_aligned_64x64_rf_sm80` is for sm80-sm100, but "
        "was built for sm121\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_not_null(r->first_error, "still the run's first error");
    corr_result_free(r);
    fx_write("fa", "run.log", "FATAL: kernel built for sm80-sm100, but running on sm121\n");
    r = fx_analyze_dir("fa");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    fx_write("fa2", "run.log",
             "FATAL: FlashAttention requires building with sm version sm80-sm90, but was built "
             "for < 8.0!\n");
    r = fx_analyze_dir("fa2");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* flash-attn 4's CuTe kernels failing to compile on SM120 (Dao-AILab/flash-attention#2453's
 * traceback shape): the frames are context, never the first error; the MLIRError line is. Beside
 * flash_attn/cute frames it is FA4 chosen for a GPU its kernels do not cover (G2's
 * context-present rule on CTX.flash-attn-cute-call); without them (another CuTe DSL kernel,
 * here an NVFP4 GEMM's make_tiled_tma_atom_B) it stays a hint. FA4's own arch assertion on a
 * B300 sm_103 (lightseekorg/tokenspeed#5) is G2 by itself. */
Test(correlate, fa4_cute_failures_name_the_exception_line)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "mlir", "serve.log",
        "  File \"/usr/local/lib/python3.12/dist-packages/flash_attn/cute/interface.py\", "
        "line 1097, in flash_attn_varlen_func\n"
        "  File \"/usr/local/lib/python3.12/dist-packages/flash_attn/cute/flash_fwd.py\", "
        "line 386, in epilogue\n"
        "cutlass._mlir._mlir_libs._site_initialize.<locals>.MLIRError: Operation creation "
        "failed:\n"
        "error: unknown: expects `coord` and shape of view are weakly congruent\n");
    cr_assert_str_eq(fx_verdict(r), "G2", "FA4's own kernel (%s)", fx_verdict(r));
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 3u, "the exception line, not a frame");
    corr_result_free(r);
    r = fx_scan_one(
        "mlir-other", "serve.log",
        "  File \"/opt/kernels/nvfp4_gemm.py\", line 212, in make_tiled_tma_atom_B\n"
        "cutlass._mlir._mlir_libs._site_initialize.<locals>.MLIRError: Operation creation "
        "failed:\n");
    cr_assert_str_eq(fx_verdict(r), "none", "a hint only (%s)", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G2"), 0.0);
    corr_result_free(r);
    fx_write("b300", "serve.log",
             "  File \"/usr/local/lib/python3.12/dist-packages/flash_attn/cute/"
             "flash_fwd_sm100.py\", line 162, in __init__\n"
             "AssertionError: Only SM 10.x and 11.x are supported\n");
    r = fx_analyze_dir("b300");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 2u);
    corr_result_free(r);
}

/* vLLM's startup check (vllm/v1/worker/utils.py request_memory). On a 22 GiB device it is an
 * ordinary shortfall (pytorch/pytorch#175666's line): none of the GB10 gotchas. */
Test(correlate, vllm_startup_free_memory_on_a_discrete_gpu_is_none)
{
    fx_load_shipped();
    fx_write(
        "run", "vllm.log",
        "(EngineCore_DP0 pid=6940) ValueError: Free memory on device cuda:1 (19.77/22.05 GiB) "
        "on startup is less than desired GPU memory utilization (0.9, 19.84 GiB). Decrease GPU "
        "memory utilization or reduce GPU memory used by other processes.\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_str_eq(r->context.platform, "other");
    corr_result_free(r);
}

/* The same check on GB10's pool, in the later wording ("Free memory on cuda:0 (X/Y GiB) <
 * desired utilization (U, R GiB)", vLLM >= 0.12) and wrapped after its head as a terminal copy
 * leaves it: under 70 % of the pool free names a second holder (G6, a decisive rule outcome that
 * G6's caps on hints do not hold back); a few GiB short of the request is the pool's headroom
 * (G3); little free with a 100 GiB page cache in /proc/meminfo is G3 again. The numbers are
 * those of MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks#47 (101.3 of 121.69 GiB free, 105.87 GiB
 * wanted: an idle GB10's floor, 0.83 of the pool), of a pool mostly held elsewhere, and of one
 * where 0.62 is free (about 46 GiB held beyond the idle floor: another holder). */
Test(correlate, vllm_startup_free_memory_on_the_gb10_pool_splits_g6_from_g3)
{
    fx_load_shipped();
    fx_write("held", "vllm.log",
             "ValueError: Free memory on cuda:0 (30.20/121.69 GiB) < desired utilization (0.8, "
             "97.35 GiB). Decrease GPU memory utilization or reduce GPU memory used by other "
             "processes.\n");
    struct corr_result *r = fx_analyze_dir("held");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G6", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    r = fx_scan_one(
        "third", "vllm.log",
        "ValueError: Free memory on device cuda:0 (75.40/121.69 GiB) on startup is less "
        "than desired GPU memory utilization (0.8, 97.35 GiB). Decrease GPU memory "
        "utilization or reduce GPU memory used by other processes.\n");
    cr_assert_str_eq(fx_verdict(r), "G6", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    fx_write("short", "vllm.log",
             "ValueError: Free memory on device cuda:0 (101.30/121.69 GiB) on startup is\n"
             "less than desired GPU memory utilization (0.87, 105.87 GiB). Decrease GPU memory\n"
             "utilization or reduce GPU memory used by other processes.\n");
    r = fx_analyze_dir("short");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    /* /proc/meminfo's layout (proc(5)); 110 GB of it page cache */
    fx_write("cache", "vllm.log",
             "ValueError: Free memory on cuda:0 (30.20/121.69 GiB) < desired utilization (0.8, "
             "97.35 GiB).\n");
    fx_write("cache", "meminfo.txt",
             "MemTotal:       127600748 kB\n"
             "MemFree:         31666176 kB\n"
             "MemAvailable:   118210292 kB\n"
             "Buffers:           412332 kB\n"
             "Cached:         110315404 kB\n");
    r = fx_analyze_dir("cache");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* The same check on another 128 GB unified-memory machine: an AMD Strix Halo reads a larger total
 * than GB10's pool (a "125 GiB machine": pepuscz on Nathanw1014/strix-halo-llamacpp#8), and half of
 * it missing is a BIOS carve-out there, not a second process. The share rule holds only for a
 * total in GB10's band, and the run's context is another device; the line shape is vLLM's
 * request_memory (vllm/v1/worker/utils.py). */
Test(correlate, vllm_startup_share_on_a_125_gib_unified_device_is_no_gb10_gotcha)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "halo", "vllm.log",
        "ValueError: Free memory on device cuda:0 (60.10/125.0 GiB) on startup is less than "
        "desired GPU memory utilization (0.8, 100.0 GiB). Decrease GPU memory utilization "
        "or reduce GPU memory used by other processes.\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_lt(fx_conf(r, "G6"), 0.35, "G6 %.2f", fx_conf(r, "G6"));
    corr_result_free(r);
}

/* `ollama ps` lists the models Ollama holds loaded, each a holder of the pool: two of them are two
 * GPU processes (the coresident rule's second_process); one model, or one at 100 % CPU beside it,
 * is not. The rows are the CLI's table as ollama/ollama-python#490 and ollama/ollama#10760 show
 * it. */
Test(correlate, ollama_ps_rows_are_gpu_processes_for_the_coresident_rule)
{
    fx_load_shipped();
    struct corr_result *r =
        fx_scan_one("two", "ollama-ps.txt",
                    "NAME               ID              SIZE      PROCESSOR    UNTIL\n"
                    "llama3.2:latest    a80c4f17acd5    4.0 GB    100% GPU     2 minutes from now\n"
                    "llama4:latest    4f01ed6b6e01    70 GB    83%/17% CPU/GPU    Forever\n");
    cr_assert_str_eq(fx_verdict(r), "G6", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    r = fx_scan_one("one", "ollama-ps.txt",
                    "NAME               ID              SIZE      PROCESSOR    UNTIL\n"
                    "llama4:latest    4f01ed6b6e01    70 GB    83%/17% CPU/GPU    Forever\n"
                    "qwen2.5:0.5b    a8b0c5157701    1.2 GB    100% CPU     4 minutes from now\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* A run with no verdict whose only error line is a weak gotcha hint still names it as its first
 * error: the driver's allocation failure as journalctl -k showed it on a GB10
 * (NVIDIA/open-gpu-kernel-modules#1358), after an INFO line of the loader. */
Test(correlate, a_weak_gotcha_error_line_is_the_first_error_of_a_run_without_verdict)
{
    fx_load_shipped();
    fx_write("run", "kern.log",
             "INFO 09-13 10:00:01 [gpu_model_runner.py:2602] Loading model from scratch...\n"
             "NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY] "
             "(0x00000051) returned from _memdescAllocInternal(pMemDesc) @ mem_desc.c:1359\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_str_eq(fx_verdict(r), "none", "NV_ERR_NO_MEMORY alone is no verdict (%s)",
                     fx_verdict(r));
    cr_assert_not_null(r->first_error_entry, "a first error is named");
    cr_expect_str_eq(r->first_error_entry->id, "G3");
    cr_expect_eq(r->first_error->line, 2u);
    corr_result_free(r);
}

/* The driver's RM allocation failure is printed by healthy startups too; the driver failing to
 * allocate its own host memory to map a buffer is the host pool running out. The pair as a GB10's
 * kernel log showed them under two large models' memory pressure (OmniBioAI/omnibioai-workbench,
 * hardware incident notes for #530; the message of open-gpu-kernel-modules' io_vaspace.c). */
Test(correlate, nvrm_iova_mapping_alloc_failure_beside_nv_err_no_memory_is_g3)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "run", "kern.log",
        "[Fri Sep 11 23:42:24 2026] NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory "
        "[NV_ERR_NO_MEMORY] (0x00000051) returned from _memdescAllocInternal(pMemDesc) @ "
        "mem_desc.c:1359\n"
        "[Fri Sep 11 23:42:24 2026] NVRM: _iovaspaceCreateMappingDataFromMemDesc: failed to "
        "allocate 0x4000028 bytes for IOVA mapping metadata\n"
        "[Fri Sep 11 23:42:24 2026] Memory failure: 0 pages hwpoisoned\n");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* GB10's nvidia-smi row (snowflakedb/ArcticTraining#345 shape): names the machine, no memory */
static void write_gb10_smi(const char *sub)
{
    fx_write(sub, "nvidia-smi.txt",
             "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |               "
             "   N/A |\n"
             "| N/A   48C    P0             21W /  N/A  | Not Supported          |      3%      "
             "Default |\n");
}

/* ggml's CUDA buffer allocation failure on a GB10 (the line of ggml-org/llama.cpp#20431 and
 * #26297): a 4.4 GiB KV buffer refused is the unified pool running out (G3); one 141 GiB buffer
 * is a model no 128 GB machine holds (oom-capacity's over_pool), never misread headroom. */
Test(correlate, ggml_cudamalloc_oom_on_gb10_is_g3_unless_one_buffer_exceeds_the_pool)
{
    fx_load_shipped();
    write_gb10_smi("kv");
    struct corr_result *r = fx_scan_one(
        "kv", "llama-server.log",
        "llama_kv_cache_init:      CUDA0 KV buffer size =  3840.00 MiB\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4480.00 MiB on device 0: "
        "cudaMalloc failed: out of memory\n"
        "llama_kv_cache_init: failed to allocate buffer for kv cache\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    write_gb10_smi("huge");
    r = fx_scan_one(
        "huge", "llama-server.log",
        "load_tensors: loading model tensors, this can take a while... (mmap = true)\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144817.04 MiB on device 0: "
        "cudaMalloc failed: out of memory\n"
        "alloc_tensor_range: failed to allocate CUDA0 buffer of size 151851674624\n"
        "llama_model_load: error loading model: unable to allocate CUDA0 buffer\n");
    cr_assert_str_eq(fx_verdict(r), "none", "a model bigger than the pool is no G3 (%s %.2f)",
                     fx_verdict(r), r->confidence);
    cr_assert_lt(fx_conf(r, "G3"), 0.35);
    corr_result_free(r);
}

/* Ollama's device line (ollama discover/types.go, 0.12+ field order; GB10 samples from public
 * setup notes): a GB10 that counts 2.9 of 119.7 GiB available budgets its models against the
 * kernel's MemFree (G3, a decisive share); the healthy 110.7 of 119.7 GiB names nothing. */
Test(correlate, ollama_counting_a_sliver_of_the_gb10_pool_available_is_g3)
{
    fx_load_shipped();
    fx_write("warm", "ollama.log",
             "time=2025-10-03T16:52:19.742Z level=INFO source=types.go:111 msg=\"inference "
             "compute\" id=GPU-0 library=CUDA compute=12.1 name=CUDA0 description=\"NVIDIA "
             "GB10\" libdirs=ollama,cuda_v13 driver=13.0 pci_id=01:00.f type=iGPU "
             "total=\"119.7 GiB\" available=\"4.1 GiB\"\n");
    struct corr_result *r = fx_analyze_dir("warm");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    r = fx_scan_one("cold", "ollama.log",
                    "time=2025-10-03T16:52:19.742Z level=INFO source=types.go:111 msg=\"inference "
                    "compute\" id=GPU-0 library=CUDA compute=12.1 name=CUDA0 description=\"NVIDIA "
                    "GB10\" libdirs=ollama,cuda_v13 driver=13.0 pci_id=01:00.f type=iGPU "
                    "total=\"119.7 GiB\" available=\"110.7 GiB\"\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    /* the same sliver on a discrete card is another GPU's business (the scope factor) */
    r = fx_scan_one(
        "a10g", "ollama.log",
        "time=2025-11-02T10:01:02.003Z level=INFO source=types.go:42 msg=\"inference "
        "compute\" id=GPU-5f1e library=CUDA compute=8.6 name=CUDA0 description=\"NVIDIA "
        "A10G\" libdirs=ollama,cuda_v12 driver=12.2 pci_id=00:1e.0 type=discrete "
        "total=\"22.0 GiB\" available=\"1.7 GiB\"\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* torch's CUDA OOM message wrapped after its first sentence (a terminal or an issue body breaks
 * the line; torch prints "CUDA out of memory. Tried to allocate N" as one message,
 * c10/cuda/CUDACachingAllocator.cpp): the run's first error is the CUDA OOM, not the plain
 * Python exception the same line also is; on a 24 GiB card none of the GB10 gotchas. */
Test(correlate, a_wrapped_torch_cuda_oom_is_named_c_cuda_oom)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "run", "train.log",
        "torch.cuda.OutOfMemoryError: CUDA out of memory.\n"
        "Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity; 21.10 GiB already "
        "allocated; 1.12 GiB free; 21.90 GiB reserved in total by PyTorch)\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_not_null(r->first_error_entry);
    cr_assert_str_eq(r->first_error_entry->id, "C.cuda-oom");
    cr_expect_eq(r->first_error->line, 1u);
    corr_result_free(r);
}

/* The kernel's OOM report (linux mm/oom_kill.c dump_header / __oom_kill_process) when a vLLM
 * worker's own allocation through the NVIDIA driver fails, beside the driver's NV_ERR_NO_MEMORY
 * (a unified-memory hint): G3. The same report opened by a python3 process is a host OOM of
 * another kind, and NV_ERR_NO_MEMORY alone stays no verdict. */
Test(correlate, oom_killer_invoked_by_a_vllm_worker_beside_nv_err_is_g3)
{
    fx_load_shipped();
    fx_write("engine", "dmesg.log",
             "[ 8120.100001] NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory "
             "[NV_ERR_NO_MEMORY] (0x00000051) returned from _memdescAllocInternal(pMemDesc) @ "
             "mem_desc.c:1359\n"
             "[ 8120.200002] VLLM::Worker_TP0 invoked oom-killer: gfp_mask=0x102cc2(GFP_HIGHUSER), "
             "order=0, oom_score_adj=0\n"
             "[ 8120.300003] Out of memory: Killed process 2346 (VLLM::Worker_TP) "
             "total-vm:123456789kB, anon-rss:1834567kB, file-rss:0kB, shmem-rss:0kB, UID:0 "
             "pgtables:312345kB oom_score_adj:0\n");
    struct corr_result *r = fx_analyze_dir("engine");
    cr_assert_gt(r->records, 0, "no record was read");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    /* the opening line of the report is context: the first error is an error line after it */
    cr_assert_not_null(r->first_error);
    cr_expect_neq(r->first_error->line, 2u);
    corr_result_free(r);

    r = fx_scan_one(
        "python", "dmesg.log",
        "[ 8120.100001] NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory "
        "[NV_ERR_NO_MEMORY] (0x00000051) returned from _memdescAllocInternal(pMemDesc) @ "
        "mem_desc.c:1359\n"
        "[ 8120.200002] python3 invoked oom-killer: gfp_mask=0x102cc2(GFP_HIGHUSER), "
        "order=0, oom_score_adj=0\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* Unsloth's refusal on unified memory (unslothai/unsloth studio diffusion memory planner,
 * unified_memory_shortfall_message): the message itself says the device has unified memory, so
 * it stands without a GB10 name; on a log that names an H100 the entry's scope holds it back. */
Test(correlate, unsloth_unified_memory_refusal_is_g3_on_uma_only)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "uma", "studio.log",
        "ERROR diffusion.memory: refusing oversized unified-memory load: 'qwen-image' "
        "needs about 41 GB of memory for its weights, but only about 12 GB is usable on "
        "this device (of the 18 GB currently free, after reserving room for the operating "
        "system).\n");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    fx_write("h100", "studio.log",
             "INFO device NVIDIA H100 80GB HBM3\n"
             "ERROR diffusion.memory: refusing oversized unified-memory load: 'qwen-image' "
             "needs about 41 GB of memory for its weights, but only about 12 GB is usable on "
             "this device (of the 18 GB currently free, after reserving room for the operating "
             "system).\n");
    r = fx_analyze_dir("h100");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* The kernel OOM killer taking the training process (linux mm/oom_kill.c __oom_kill_process) on a
 * machine that shows a GB10: the unified pool ran out (G3). The same line beside an H100 is the
 * host's RAM, another machine's business (the entry's scope). */
Test(correlate, kernel_oom_kill_of_the_trainer_on_gb10_is_g3)
{
    fx_load_shipped();
    write_gb10_smi("gb10");
    struct corr_result *r = fx_scan_one(
        "gb10", "dmesg.log",
        "[12345.678901] Out of memory: Killed process 4242 (python3) total-vm:150312344kB, "
        "anon-rss:38234112kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:240000kB "
        "oom_score_adj:0\n");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    r = fx_scan_one(
        "h100", "dmesg.log",
        "[    2.000001] nvidia 0000:18:00.0: NVIDIA H100 80GB HBM3\n"
        "[12345.678901] Out of memory: Killed process 4242 (python3) total-vm:150312344kB, "
        "anon-rss:38234112kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:240000kB "
        "oom_score_adj:0\n");
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* A CUDA 12 runtime compiler missing says nothing by itself: on a CUDA 12 host it is a toolkit
 * that is not on the loader path (huggingface/candle#2112: libnvrtc.so.12 sat in the conda env;
 * LD_LIBRARY_PATH fixed it). Where the same environment ships CUDA 13 libraries (the image of
 * vllm-project/vllm#39923: nvidia/cu13/ wheels, /usr/local/cuda-13.0), it is the 12/13 mismatch. */
Test(correlate, a_missing_cuda12_nvrtc_is_g1_only_beside_a_cuda13_stack)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "alone", "run.log",
        "target/debug/myapp: error while loading shared libraries: libnvrtc.so.12: cannot "
        "open shared object file: No such file or directory\n");
    cr_expect_str_eq(fx_verdict(r), "none", "a lone libnvrtc.so.12 line named %s", fx_verdict(r));
    corr_result_free(r);

    fx_write("cu13", "run.log",
             "ImportError: libnvrtc.so.12: cannot open shared object file: No such file or "
             "directory\n");
    fx_write("cu13", "ldd.txt",
             "\tlibcudart.so.13 => /usr/local/lib/python3.12/dist-packages/nvidia/cu13/lib/"
             "libcudart.so.13 (0x0000ffff8c000000)\n");
    r = fx_analyze_dir("cu13");
    cr_expect_str_eq(fx_verdict(r), "G1", "beside CUDA 13 libraries: %s", fx_verdict(r));
    corr_result_free(r);
}

/* The other direction: a CUDA 13 runtime missing is G1 where the stack is CUDA 12 (a cu129
 * torch, vllm-project/vllm#43435; a -cu12 twin installed, kaito-project/kaito#2050), and a lone
 * line is no verdict (a CUDA 13 host without its runtime is no mismatch). */
Test(correlate, a_missing_cuda13_runtime_is_g1_only_on_a_cuda12_stack)
{
    fx_load_shipped();
    struct corr_result *r =
        fx_scan_one("alone13", "stderr.log",
                    "ImportError: libcudart.so.13: cannot open shared object file: No such file or "
                    "directory\n");
    cr_expect_str_eq(fx_verdict(r), "none", "a lone libcudart.so.13 line named %s", fx_verdict(r));
    corr_result_free(r);

    fx_write("on12", "env.txt", "CUDA used to build PyTorch   : 12.9\n");
    fx_write("on12", "stderr.log",
             "ImportError: libcudart.so.13: cannot open shared object file: No such file or "
             "directory\n");
    r = fx_analyze_dir("on12");
    cr_expect_str_eq(fx_verdict(r), "G1", "on a cu129 torch: %s", fx_verdict(r));
    corr_result_free(r);
}

/* A verdict that a weak line and a rule named, with no strong line in the run, points at that
 * line as the first error (the CUDA 13 runtime missing on a cu129 torch, vllm-project/vllm#43435:
 * the collect_env line is context, the import error is the failure). */
Test(correlate, a_verdict_without_a_strong_line_names_its_own_line_as_the_first_error)
{
    fx_load_shipped();
    fx_write("weakfe", "env.txt", "CUDA used to build PyTorch   : 12.9\n");
    struct corr_result *r =
        fx_scan_one("weakfe", "stderr.log",
                    "Traceback (most recent call last):\n"
                    "ImportError: libcudart.so.13: cannot open shared object file: No such file or "
                    "directory\n");
    cr_assert_str_eq(fx_verdict(r), "G1", "%s", fx_verdict(r));
    cr_assert_not_null(r->first_error, "the verdict's line is the first error");
    cr_expect_str_eq(r->first_error_entry->id, "G1");
    cr_expect(strstr(r->first_error->path, "stderr.log") != NULL, "%s", r->first_error->path);
    cr_expect_eq(r->first_error->line, 2u);
    corr_result_free(r);
}

/* A strong root line names the run's first error whatever its words: the canonical CUDA check
 * macro prints cudaGetErrorString() alone ("GPUassert: %s %s %d", the gpuErrchk idiom of the
 * CUDA programming guides and forums), and "no kernel image is available for execution on the
 * device" holds none of the error words a plain line needs. */
Test(correlate, a_strong_root_line_is_an_error_without_error_words)
{
    fx_load_shipped();
    fx_write("noimg", "run.log",
             "Launching kernel with 256 blocks\n"
             "GPUassert: no kernel image is available for execution on the device main.cu 61\n");
    struct corr_result *r = fx_analyze_dir("noimg");
    cr_assert_eq(r->records, 2);
    cr_assert_null(r->verdict);
    cr_assert_not_null(r->first_error, "the line names a failure by the pack's word, not its own");
    cr_expect_eq(r->first_error->line, 2u);
    cr_assert_not_null(r->first_error_entry);
    cr_expect_str_eq(r->first_error_entry->id, "C.cuda-error");
    corr_result_free(r);
}

/* A run no gotcha explains is named by the common family, on the same line: vLLM's startup check
 * on a 47 GiB card (the lines of vllm-project/vllm#20305) matches the unified-memory gotchas'
 * signatures, which reach no verdict off GB10, and the Python exception the common pack names. */
Test(correlate, with_no_verdict_a_gotcha_hint_line_is_named_by_its_common_failure)
{
    fx_load_shipped();
    fx_write("startup", "vllm.log",
             "ERROR 06-30 13:53:19 [multiproc_executor.py:492] ValueError: Free memory on device "
             "(31.44/47.38 GiB) on startup is less than desired GPU memory utilization (0.95, "
             "45.01 GiB). Decrease GPU memory utilization or reduce GPU memory used by other "
             "processes.\n"
             "ERROR 06-30 13:53:19 [core.py:515] EngineCore failed to start.\n");
    struct corr_result *r = fx_analyze_dir("startup");
    cr_assert_eq(r->records, 2);
    cr_assert_null(r->verdict);
    cr_assert(r->nfindings > 0, "a gotcha hint matched the line (else this proves nothing)");
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 1u);
    cr_assert_not_null(r->first_error_entry);
    cr_expect_str_eq(r->first_error_entry->id, "C.python-exception");
    corr_result_free(r);
}

/* libstdc++'s terminate handler announces an uncaught exception; its what() line says which. The
 * shape of a public study of torch's NCCL backend over the AWS OFI plugin ("Torch NCCL issue with
 * AWS plugin", a two-node ALLREDUCE watchdog): the first error is the watchdog the what() line
 * quotes, not the terminate line above it, and not the shell's "Aborted" after it. */
Test(correlate, a_terminate_line_yields_to_the_failure_its_what_line_names)
{
    fx_load_shipped();
    fx_write("terminate", "job.log",
             "x3200c0s19b1n0:191643:191866 [2] NCCL INFO comm 0x5590ec4762b0 rank 2 nranks 8 "
             "cudaDev 2 nvmlDev 2 busId 85000 commId 0xfa38415269cf0cf7 - Init COMPLETE\n"
             "terminate called after throwing an instance of 'c10::DistBackendError'\n"
             "  what():  [PG 0 Rank 1] Process group watchdog thread terminated with exception: "
             "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
             "OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=120000) ran for "
             "120092 milliseconds before timing out.\n"
             "./launcher.sh: line 14: 191644 Aborted                 (core dumped) $@\n");
    struct corr_result *r = fx_analyze_dir("terminate");
    cr_assert_eq(r->records, 4);
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 3u, "the what() line, which names the watchdog timeout");
    cr_assert_not_null(r->first_error_entry);
    cr_expect_str_eq(r->first_error_entry->id, "C.nccl");
    corr_result_free(r);
    /* alone, the terminate line is still the run's first error */
    fx_write("terminate-alone", "job.log",
             "terminate called after throwing an instance of 'std::runtime_error'\n"
             "  what():  \n");
    r = fx_analyze_dir("terminate-alone");
    cr_assert_eq(r->records, 2);
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 1u);
    cr_expect(r->first_error->sig->role == MATCH_ROLE_CASCADE);
    corr_result_free(r);
}

/* ---- the platform's pool band is the pack's ("platforms" in patterns/platforms.json) ---- */

/* A pack of one gotcha entry whose signature reads a device total (vLLM's startup check, its
 * shape in vllm/v1/worker/utils.py request_memory and in vllm#28339's GB10 log), and, when band
 * is not NULL, a "platform" declaring that pool band. */
static void use_band_pack(const char *sub, const char *band)
{
    char pack[4096];
    snprintf(
        pack, sizeof pack,
        "{%s%s%s\"entries\": [{\"id\": \"G3\", \"family\": \"gotcha\", \"title\": \"t\", "
        "\"symptom\": \"s\", \"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\", "
        "\"signatures\": [{\"id\": \"G3.startup\", \"kinds\": [\"any\"], \"strength\": \"weak\", "
        "\"regex\": \"Free memory on device \\\\(([0-9.]+)/(?<total>[0-9.]+ GiB)\\\\)\", "
        "\"facts\": {\"total\": \"bytes\"}, \"examples\": {\"match\": [\"Free memory on device "
        "(30.2/121.69 GiB) on startup\"], \"no_match\": [\"Free memory on device cuda:0\"]}, "
        "\"sources\": [\"vllm/v1/worker/utils.py (request_memory)\"]}]}]}\n",
        band ? "\"platforms\": [{\"id\": \"gb10\", \"name\": \"GB10\", \"sources\": [\"s\"], "
               "\"identify\": "
             : "",
        band ? band : "", band ? "}], " : "");
    fx_write(sub, "pack.json", pack);
    match_pack_free(fx.pack);
    fx.pack = NULL;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%s", fx.dir, sub);
    const char *dirs[] = {dir};
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(match_pack_load(&fx.pack, dirs, 1, &err), AZ_OK, "%s", err.data ? err.data : "");
    az_buf_free(&err);
}

#define BAND(lo, hi)                                                                               \
    "{\"pool_lo_gib\": {\"value\": " #lo ", \"why\": \"w\"}, \"pool_hi_gib\": {\"value\": " #hi    \
    ", \"why\": \"w\"}}"

/* The same 121.69 GiB total places the run on GB10 under the shipped band (110-123 GiB), on
 * another GPU under a band that leaves it out, and nowhere when the pack declares no band: the
 * engine holds no pool size of its own. */
Test(correlate, the_pool_band_that_places_a_run_is_the_packs)
{
    static const char line[] = "ValueError: Free memory on device (30.2/121.69 GiB) on startup is "
                               "less than desired GPU memory utilization (0.8, 97.35 GiB).\n";
    use_band_pack("p1", BAND(110, 123));
    struct corr_result *r = fx_scan_one("r1", "vllm.log", line);
    cr_assert_str_eq(r->context.platform, "gb10");
    corr_result_free(r);
    use_band_pack("p2", BAND(60, 70));
    r = fx_scan_one("r2", "vllm.log", line);
    cr_assert_str_eq(r->context.platform, "other");
    corr_result_free(r);
    use_band_pack("p3", NULL);
    r = fx_scan_one("r3", "vllm.log", line);
    cr_assert_str_eq(r->context.platform, "unknown");
    corr_result_free(r);
    /* and a total inside the narrow band is GB10 there */
    use_band_pack("p4", BAND(60, 70));
    r = fx_scan_one("r4", "vllm.log",
                    "ValueError: Free memory on device (30.2/64.00 GiB) on startup is less than "
                    "desired GPU memory utilization (0.8, 51.2 GiB).\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    corr_result_free(r);
}

/* The shipped pack declares the band: the loaded value is context.json's. */
Test(correlate, the_shipped_pack_declares_the_pool_band)
{
    fx_load_shipped();
    const struct match_platform *pl = match_pack_find_platform(fx.pack, "gb10");
    cr_assert_not_null(pl);
    double lo = pl->pool_lo_gib, hi = pl->pool_hi_gib;
    cr_assert(lo > 100 && lo < 119.6, "pool_lo_gib %g", lo);
    cr_assert(hi > 121.7 && hi < 124, "pool_hi_gib %g", hi);
    cr_assert(isnan(match_platform_num(pl, "no_such_fact")));
    cr_assert_eq(match_platform_num(pl, "gpus_per_node"), 1);
}

/* Ollama's load refusal (ollama llm/server.go: slog.Warn("model request too large for system",
 * ...) then fmt.Errorf("model requires more system memory (%s) than is available (%s)"); line
 * shapes of a posted 0.12-era server log, a 916.8 MiB EC2 host): on a GB10 (its device line)
 * a model well under the pool refused for want of "available" memory is the misread headroom;
 * one larger than the pool is a model that fits no 128 GB machine; on a 10 GiB host the
 * warning's total places the run on another machine. */
#define OLLAMA_GB10_DEVICE                                                                         \
    "time=2025-10-03T16:52:19.742Z level=INFO source=types.go:111 msg=\"inference compute\" "      \
    "id=GPU-0 library=CUDA compute=12.1 name=CUDA0 description=\"NVIDIA GB10\" "                   \
    "libdirs=ollama,cuda_v13 driver=13.0 pci_id=01:00.f type=iGPU total=\"119.7 GiB\" "            \
    "available=\"96.8 GiB\"\n"

static const char *ollama_refusal(char *buf, size_t n, const char *want, const char *avail,
                                  const char *total)
{
    snprintf(buf, n,
             "time=2025-10-03T17:02:11.156Z level=WARN source=server.go:1044 msg=\"model request "
             "too large for system\" requested=\"%s\" available=\"%s\" total=\"%s\" free=\"%s\" "
             "swap=\"0 B\"\n"
             "time=2025-10-03T17:02:11.156Z level=INFO source=sched.go:511 msg=\"Load failed\" "
             "model=/root/.ollama/models/blobs/sha256-2af3b81862c6 error=\"model requires more "
             "system memory (%s) than is available (%s)\"\n",
             want, avail, total, avail, want, avail);
    return buf;
}

Test(correlate, ollama_refusing_a_model_under_the_gb10_pool_is_g3)
{
    fx_load_shipped();
    char refusal[1024], text[2048];
    snprintf(text, sizeof text, "%s%s", OLLAMA_GB10_DEVICE,
             ollama_refusal(refusal, sizeof refusal, "59.8 GiB", "20.1 GiB", "119.7 GiB"));
    struct corr_result *r = fx_scan_one("fits", "ollama.log", text);
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    snprintf(text, sizeof text, "%s%s", OLLAMA_GB10_DEVICE,
             ollama_refusal(refusal, sizeof refusal, "164.8 GiB", "96.1 GiB", "119.7 GiB"));
    r = fx_scan_one("too-big", "ollama.log", text);
    cr_assert_str_eq(fx_verdict(r), "none", "a model larger than the pool (%s %.2f)", fx_verdict(r),
                     r->confidence);
    corr_result_free(r);

    r = fx_scan_one("small-host", "ollama.log",
                    ollama_refusal(refusal, sizeof refusal, "5.3 GiB", "4.8 GiB", "10.0 GiB"));
    cr_assert_str_eq(r->context.platform, "other");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* CUDA's "no kernel image" names G1 by itself only on a GB10: there a binary without SM12x code
 * is the wheel/arch mechanism; on a Pascal card a new wheel dropped, the same line is no gotcha.
 * The GPU lines copy nvidia-smi -L's format; the error line is pytorch/pytorch#6515's. */
Test(correlate, no_kernel_image_is_g1_on_gb10_only)
{
    fx_load_shipped();
    struct corr_result *r =
        fx_scan_one("nki-gb10", "run.log",
                    "GPU 0: NVIDIA GB10 (UUID: GPU-5f2b3c1a-0000-0000-0000-000000000000)\n"
                    "RuntimeError: CUDA error: no kernel image is available for execution on the "
                    "device\n");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = fx_scan_one(
        "nki-pascal", "run.log",
        "GPU 0: NVIDIA GeForce GTX 1080 (UUID: GPU-0a1b2c3d-0000-0000-0000-000000000000)\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the "
        "device\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G1"), 0.0, "still weighed as a hint");
    corr_result_free(r);
}

/* A +cpu torch on an aarch64 Linux host is PyPI's CPU-only linux-aarch64 wheel (G1's
 * context-present rule on CTX.linux-aarch64); the same torch on x86_64 is a choice, not G1 alone.
 * Lines copy torch/utils/collect_env.py's output (a posted aarch64 collect_env, torch 2.5.1). */
Test(correlate, cpu_torch_on_aarch64_is_g1)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one("cpu-arm", "env.txt",
                                        "PyTorch version: 2.5.1+cpu\n"
                                        "Is debug build: False\n"
                                        "CUDA used to build PyTorch: None\n"
                                        "OS: Ubuntu 18.04 LTS (aarch64)\n");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = fx_scan_one("cpu-x86", "env.txt",
                    "PyTorch version: 2.5.1+cpu\n"
                    "Is debug build: False\n"
                    "CUDA used to build PyTorch: None\n"
                    "OS: Ubuntu 22.04.4 LTS (x86_64)\n");
    cr_assert_str_neq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* vLLM's CMake skipping its NVFP4 kernels: a build fact, never NVFP4 in use (issue #20: "a build
 * line is not use"). Beside a 12.x target, a 12.1a one (only GB10 has it) included, it is a hint
 * of G7 that a run-time line must corroborate; on a 9.0a build the line is the healthy default.
 * Messages from vllm-project/vllm CMakeLists.txt (message(STATUS ...)). */
Test(correlate, vllm_fp4_skipped_in_a_build_is_a_g7_hint_never_a_verdict)
{
    fx_load_shipped();
    struct corr_result *r =
        fx_scan_one("fp4-sm121", "build.log",
                    "-- CUDA target architectures: 12.1a\n"
                    "-- Not building NVFP4 as no compatible archs were found.\n");
    cr_assert_geq(r->records, 2u, "the lines were read");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G7"), 0.0, "weighed as a hint");
    cr_expect_lt(fx_conf(r, "G7"), 0.35, "a hint only");
    corr_result_free(r);
    r = fx_scan_one("fp4-sm120", "build.log",
                    "-- CUDA target architectures: 12.0\n"
                    "-- Not building NVFP4 as no compatible archs were found.\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G7"), 0.0, "weighed as a hint");
    corr_result_free(r);
    r = fx_scan_one("fp4-h100", "build.log",
                    "-- CUDA target architectures: 9.0a\n"
                    "-- Not building NVFP4 as no compatible archs were found.\n");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* A build line that names NVFP4 is no NVFP4 in use: CTX.quant sets no quant fact from CMake,
 * ninja or BuildKit lines (the hidden set's false G7 read "Not building NVFP4" as use). The lines
 * are BuildKit-wrapped CMake/ninja output (BuildKit's "#<step> <seconds> " prefix) of
 * vllm-project/vllm's CMakeLists.txt and csrc/quantization/fp4 sources. */
Test(correlate, build_lines_naming_nvfp4_set_no_quantization_in_use)
{
    fx_load_shipped();
    struct corr_result *r =
        fx_scan_one("buildkit", "docker-build.log",
                    "#18 3.112 -- CUDA target architectures: 9.0a\n"
                    "#18 3.114 -- Not building NVFP4 as no compatible archs were found.\n"
                    "#18 912.4 [241/388] Building CUDA object "
                    "CMakeFiles/_C.dir/csrc/quantization/fp4/nvfp4_experts_quant.cu.o\n");
    cr_assert_geq(r->records, 3u, "the lines were read");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_lt(fx_conf(r, "G7"), 0.35);
    const char *sum = finding_summary(r, "G7");
    cr_expect(!sum || !strstr(sum, "NVFP4 in use"), "no NVFP4 in use: %s", sum ? sum : "");
    corr_result_free(r);
}

/* Kernel availability on SM121 from the emitters (issue #20): each line is built from its format
 * string, with values other than the pack's examples. On a GB10 (the capability line of torch's
 * get_device_capability() printout places it) each names G7 by itself; the same line on an RTX
 * PRO 6000 (sm_120; `other`, where the message names the device's SM) is a hint that G7's GB10
 * scope lowers. */
static void expect_g7_on_gb10_only(const char *sub, const char *line, const char *other)
{
    char *gb10 = az_xasprintf("torch.cuda.get_device_capability() = (12, 1)\n%s\n", line);
    struct corr_result *r = fx_scan_one(sub, "serve.log", gb10);
    cr_assert_str_eq(fx_verdict(r), "G7", "%s on GB10: verdict %s", line, fx_verdict(r));
    corr_result_free(r);
    free(gb10);
    char osub[64];
    snprintf(osub, sizeof osub, "%s-rtx", sub);
    char *rtx = az_xasprintf("GPU 0: NVIDIA RTX PRO 6000 Blackwell Workstation Edition\n%s\n",
                             other ? other : line);
    r = fx_scan_one(osub, "serve.log", rtx);
    cr_assert_str_neq(fx_verdict(r), "G7", "%s off GB10: verdict %s", line, fx_verdict(r));
    corr_result_free(r);
    free(rtx);
}

Test(correlate, kernel_availability_lines_name_g7_on_gb10_only)
{
    fx_load_shipped();
    /* flashinfer include/flashinfer/gemm/mxfp8_gemm_template_sm120.h, raised */
    expect_g7_on_gb10_only("runner",
                           "RuntimeError: [MXFP8 SM120 gemm Runner] Failed to run cutlass MXFP8 "
                           "gemm on sm120. Error: Error Invalid Problem",
                           NULL);
    /* flashinfer flashinfer/compilation_context.py: an SM100-only module */
    expect_g7_on_gb10_only(
        "jit", "RuntimeError: No supported CUDA architectures found for major versions [10].",
        NULL);
    /* flashinfer flashinfer/mla/_core.py: 'requires SM100+, got SM{cc}' */
    expect_g7_on_gb10_only("guard",
                           "ValueError: cute-dsl backend (MLA decode kernel) requires SM100+, got "
                           "SM121",
                           "ValueError: cute-dsl backend (MLA decode kernel) requires SM100+, got "
                           "SM120");
    /* DeepGEMM csrc/utils/exception.hpp DG_HOST_UNREACHABLE */
    expect_g7_on_gb10_only(
        "deepgemm",
        "RuntimeError: Assertion error (csrc/apis/einsum.hpp:57): Unsupported architecture", NULL);
    /* ggml src/ggml-cuda/common.cuh no_device_code() */
    expect_g7_on_gb10_only("ggml",
                           "/app/ggml/src/ggml-cuda/fattn-mma-f16.cuh:1612: ERROR: CUDA kernel "
                           "flash_attn_ext_f16 has no device code compatible with CUDA arch 1200. "
                           "ggml-cuda.cu was compiled for: 800,860,1200",
                           NULL);
}

/* The same runner message logged by an autotuner that skipped the tactic is no failed run: on a
 * GB10 it stays a hint (flashinfer PR #3568's judgement: the other tactics run and the model
 * loads). */
Test(correlate, a_logged_runner_tactic_failure_is_a_hint_on_gb10)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "tactic", "serve.log",
        "torch.cuda.get_device_capability() = (12, 1)\n"
        "[FP4 gemm Runner] Failed to initialize cutlass FP4 gemm on sm120/sm121. Error: "
        "Error Internal\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G7"), 0.0, "weighed as a hint");
    corr_result_free(r);
}

/* vLLM's CUTLASS_CHECK (csrc/cutlass_extensions/common.hpp): TORCH_CHECK with the CUTLASS status
 * string, then c10's location line. On a GB10 the raised status of a quantized GEMM caller is G7;
 * c10's same location line from NCCL's watchdog is not a kernel at all. */
Test(correlate, a_cutlass_check_raised_in_a_quantized_gemm_is_g7_on_gb10)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "cutlass", "serve.log",
        "Device 0: NVIDIA GB10, compute capability 12.1\n"
        "RuntimeError: Error Internal\n"
        "Exception raised from cutlass_scaled_mm_blockwise_sm120_fp8 at "
        "/opt/vllm/csrc/quantization/w8a8/cutlass/c3x/scaled_mm_blockwise_sm120_fp8.cu:41 (most "
        "recent call first):\n");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = fx_scan_one(
        "nccl", "serve.log",
        "Device 0: NVIDIA GB10, compute capability 12.1\n"
        "Exception raised from ncclCommWatchdog at "
        "/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1902 (most recent call "
        "first):\n");
    cr_assert_geq(r->records, 2u, "the lines were read");
    cr_expect_eq(fx_conf(r, "G7"), 0.0, "G7 %f", fx_conf(r, "G7"));
    corr_result_free(r);
}

/* torch's _check_cubins (torch/cuda/__init__.py) lists the archs its build carries when the GPU's
 * major is not among them; beside 'no kernel image' on any op it is the framework build with no
 * code for the GPU, G1 on any machine (here an H100 on a cu102-era wheel, values other than the
 * pack's examples). A GPU older than the build (a GTX 980 on a cu130 wheel) is the reverse. */
Test(correlate, torch_arch_list_beside_no_kernel_image_is_g1_unless_the_gpu_is_older)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "newer", "train.log",
        "UserWarning: \n"
        "NVIDIA H100 PCIe with CUDA capability sm_90 is not compatible with the current PyTorch "
        "installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75.\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = fx_scan_one(
        "older", "train.log",
        "UserWarning: Found GPU0 NVIDIA GeForce GTX 980 which is of cuda capability 5.2.\n"
        "    PyTorch no longer supports this GPU because it is too old.\n"
        "The current PyTorch install supports CUDA capabilities sm_75 sm_80 sm_86 sm_90 "
        "sm_100 sm_120.\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the "
        "device\n");
    cr_assert_geq(r->records, 4u, "the lines were read");
    cr_assert_str_neq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* flash-attn 3's interface (hopper/flash_attn_interface.py, installed at the top of site-packages,
 * calling torch.ops.flash_attn_3 through flash_attn_3_gpu) raising 'no kernel image' is
 * flash-attn's own kernels lacking the arch: G2, also where G1's line is decisive (a GB10). */
Test(correlate, no_kernel_image_inside_flash_attn_3_is_g2)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "fa3", "train.log",
        "Traceback (most recent call last):\n"
        "  File \"/opt/venv/lib/python3.12/site-packages/flash_attn_interface.py\", line 92, in "
        "_flash_attn_forward\n"
        "    out, softmax_lse, *rest = flash_attn_3_gpu.fwd(\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* A GB10 host by its OEM's default name (an ASUS Ascent GX10 is gx10-<4 hex>: a public 3-node
 * GX10 cluster inventory, plurigrid/asi skills/gx10-cluster) places the run on GB10, so a lone
 * kernel OOM kill of a vLLM engine is G3 there; an x86_64 host fact beside it places nothing
 * (logs of several machines), and a GPU fact still wins. */
#define GX10_OOM_KILL                                                                              \
    "a@gx10-9641:~$ sudo dmesg | grep -i 'killed process'\n"                                       \
    "[81234.567890] Out of memory: Killed process 400721 (VLLM::EngineCor) total-vm:123456789kB, " \
    "anon-rss:1234567kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:245678kB oom_score_adj:0\n"

Test(correlate, a_gb10_host_name_places_the_run_on_gb10)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one("gx10", "dmesg.txt", GX10_OOM_KILL);
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_str_eq(fx_verdict(r), "G3", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    /* the same kill without the host name: nothing places the run, the OOM stays capped */
    r = fx_scan_one("bare", "dmesg.txt",
                    "[81234.567890] Out of memory: Killed process 400721 (VLLM::EngineCor) "
                    "total-vm:123456789kB, anon-rss:1234567kB, file-rss:0kB, shmem-rss:0kB, UID:0 "
                    "pgtables:245678kB oom_score_adj:0\n");
    cr_assert_str_eq(r->context.platform, "unknown");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);

    fx_write("mixed", "dmesg.txt", GX10_OOM_KILL);
    fx_write("mixed", "uname.txt",
             "Linux gpu-node-3 5.15.0-60-generic #66-Ubuntu SMP Fri Jan 20 14:29:49 UTC 2023 "
             "x86_64 x86_64 x86_64 GNU/Linux\n");
    r = fx_analyze_dir("mixed");
    cr_assert_gt(r->records, 2, "both inputs read");
    cr_assert_str_eq(r->context.platform, "unknown");
    corr_result_free(r);

    fx_write("h100", "dmesg.txt", GX10_OOM_KILL);
    fx_write("h100", "smi.txt",
             "|   0  NVIDIA H100 80GB HBM3          On  |   00000000:19:00.0 Off |\n");
    r = fx_analyze_dir("h100");
    cr_assert_str_eq(r->context.platform, "other");
    corr_result_free(r);
}

/* A loader error for the CUDA 12 runtime is G1 (a CUDA 12 binary where only CUDA 13's runtime is
 * installed) unless a listing shows that runtime on disk beside it: then the library is shipped
 * and the failure is its soname link or the loader path (G1.cuda12-runtime-listed, contrary).
 * The listing lines copy an Ollama release tarball read with tar -tv; the error line is the
 * dynamic loader's. */
Test(correlate, cuda12_runtime_listed_is_contrary_to_g1)
{
    fx_load_shipped();
    const char *err = "./bin/ollama: error while loading shared libraries: libcudart.so.12: "
                      "cannot open shared object file: No such file or directory\n";
    struct corr_result *r = fx_scan_one("rt-missing", "run.log", err);
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    double alone = fx_conf(r, "G1");
    corr_result_free(r);
    fx_write("rt-listed", "run.log", err);
    fx_write("rt-listed", "tar-tv.txt",
             "-rwxr-xr-x root/root  30064856 2025-01-17 00:47 ./bin/ollama\n"
             "lrwxrwxrwx root/root         0 2025-01-17 00:52 ./lib/ollama/libcudart.so.12 -> "
             "libcudart.so.12.4.127\n"
             "-rwxr-xr-x root/root    687456 2025-01-17 00:52 "
             "./lib/ollama/libcudart.so.12.4.127\n");
    r = fx_analyze_dir("rt-listed");
    cr_assert_gt(r->records, 0u);
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_lt(fx_conf(r, "G1"), alone, "the listing lowers G1");
    corr_result_free(r);
}

/* On a GB10, "no kernel image" alone names G1 (decisive_on), but flash-attn's own arch check
 * before it (its 'kernel built for smXX-smYY' FATAL line, the shape G2.kernel-built-for-sm-range
 * cites) makes it flash-attn's kernel: G2 explains G1. */
Test(correlate, flash_attn_arch_check_explains_no_kernel_image)
{
    fx_load_shipped();
    struct corr_result *r =
        fx_scan_one("fa-nki", "run.log",
                    "GPU 0: NVIDIA GB10 (UUID: GPU-5f2b3c1a-0000-0000-0000-000000000000)\n"
                    "FATAL: kernel built for sm80-sm100, but running on sm121\n"
                    "RuntimeError: CUDA error: no kernel image is available for execution on the "
                    "device\n");
    cr_assert_str_eq(fx_verdict(r), "G2", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* ---- kr6: first error and root line across tool formats (shipped pack) ---- */

/* A parent's SIGKILL report is a consequence: with the kernel's kill line in the inputs the kill
 * line is the first error, alone the report is. Shapes: ollama's "llama runner process has
 * terminated: signal: killed" (Go os/exec's ProcessState text), the kernel's 4.19+ kill line
 * (mm/oom_kill.c). */
Test(correlate, kr6_sigkill_report_is_a_cascade_of_the_oom_kill)
{
    fx_load_shipped();
    fx_write("kr6-kill", "server.log",
             "Error: llama runner process has terminated: signal: killed\n");
    struct corr_result *r = fx_analyze_dir("kr6-kill");
    cr_assert_gt(r->records, 0u);
    cr_assert_not_null(r->first_error_entry, "the report alone is the first error");
    cr_assert_str_eq(r->first_error_entry->id, "C.oom-killer");
    cr_assert(strstr(r->first_error->path, "server.log") != NULL);
    corr_result_free(r);
    fx_write("kr6-kill", "dmesg.log",
             "[ 7512.339104] Out of memory: Killed process 13536 (ollama_llama_se) "
             "total-vm:33558652kB, anon-rss:31200920kB, file-rss:452kB, shmem-rss:0kB, UID:0 "
             "pgtables:61512kB oom_score_adj:0\n");
    r = fx_analyze_dir("kr6-kill");
    cr_assert_not_null(r->first_error);
    cr_assert(strstr(r->first_error->path, "dmesg.log") != NULL,
              "the kill line is the root, got %s", r->first_error->path);
    corr_result_free(r);
}

/* TensorRT-LLM's Python logger line reaches the signatures past its stamp, rank and level
 * (NVIDIA/TensorRT-LLM#7818's "[09/17/2025-21:24:19] [TRT-LLM] [RANK 2] [E] ..." shape), and the
 * C++ logger's assertion (TLLM_CHECK, NVIDIA/TensorRT-LLM#2419's message) is the first error. */
Test(correlate, kr6_tensorrt_llm_logger_lines_are_first_errors)
{
    fx_load_shipped();
    fx_write("kr6-trt", "trtllm.log",
             "[TensorRT-LLM][INFO] Loaded engine size: 1066 MiB\n"
             "[TensorRT-LLM][ERROR] Assertion failed: Must set crossKvCacheFraction for "
             "encoder-decoder model\n");
    struct corr_result *r = fx_analyze_dir("kr6-trt");
    cr_assert_gt(r->records, 0u);
    cr_assert_not_null(r->first_error_entry);
    cr_assert_str_eq(r->first_error_entry->id, "C.abort");
    cr_assert_eq(r->first_error->line, 2u);
    corr_result_free(r);
    fx_write("kr6-trt", "trtllm.log",
             "[09/17/2025-21:24:10] [TRT-LLM] [RANK 2] [I] Prefetching checkpoint files.\n"
             "[09/17/2025-21:24:19] [TRT-LLM] [RANK 2] [E] Failed to initialize executor on rank "
             "2: Executor creation failed due to insufficient GPU memory.\n");
    r = fx_analyze_dir("kr6-trt");
    cr_assert_not_null(r->first_error_entry);
    cr_assert_str_eq(r->first_error_entry->id, "C.cuda-oom");
    cr_assert_eq(r->first_error->line, 2u);
    corr_result_free(r);
}

/* The source line CPython echoes under a frame is program text: a signature that knows the
 * message it asserts (G2.fa4-cute-arch-assert) names the AssertionError line after it, not the
 * echo. Frame shape: Dao-AILab/flash-attention flash_attn/cute/flash_fwd_sm100.py's check as a
 * traceback prints it (CPython traceback format, four-space source indent). */
Test(correlate, kr6_traceback_source_echo_is_never_the_first_error)
{
    fx_load_shipped();
    fx_write(
        "kr6-echo", "server.log",
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.12/dist-packages/flash_attn/cute/flash_fwd_sm100.py\", "
        "line 108, in __init__\n"
        "    assert self.arch >= Arch.sm_100 and self.arch <= Arch.sm_110f, \"Only SM 10.x "
        "and 11.x are supported\"\n"
        "AssertionError: Only SM 10.x and 11.x are supported\n");
    struct corr_result *r = fx_analyze_dir("kr6-echo");
    cr_assert_gt(r->records, 0u);
    cr_assert_not_null(r->first_error);
    cr_assert_eq(r->first_error->line, 4u, "the exception line, not the echoed assert (got %u)",
                 (unsigned)r->first_error->line);
    corr_result_free(r);
}

/* ---- round 6 (kf6): scope and contrary evidence of G1, G7, G9 on the shipped pack ---- */

/* CUTLASS's Blackwell GeForce NVFP4 example built for the plain sm_120 target aborts at its
 * first MMA (NVIDIA/cutlass#3174: the nvcc line and the abort). Nothing places the run, so the
 * arch list is weighed as another GPU's own target (quant-arch's no_arch_unplaced): no G7
 * verdict, and no sentence claims capability 12.1. The same lines beside an nvidia-smi row of a
 * GB10 are G7. */
static const char *const SM120_FP4_BUILD =
    "/usr/local/cuda/bin/nvcc --expt-relaxed-constexpr -g -arch=sm_120 \\\n"
    "  examples/79_blackwell_geforce_gemm/79a_blackwell_geforce_nvfp4_bf16_gemm.cu \\\n"
    "  -o ./examples/79_blackwell_geforce_gemm/79a_blackwell_geforce_nvfp4_bf16_gemm\n"
    "./examples/79_blackwell_geforce_gemm/79a_blackwell_geforce_nvfp4_bf16_gemm --m=2048 "
    "--n=2048 --k=2048\n"
    "ERROR : Arch conditional MMA instruction used without targeting appropriate compute "
    "capability. Aborting.\n";

Test(correlate, fp4_build_for_sm120_on_an_unplaced_run_is_not_g7)
{
    fx_load_shipped();
    fx_write("fp4-120", "build-run.log", SM120_FP4_BUILD);
    struct corr_result *r = fx_analyze_dir("fp4-120");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    const char *s = finding_summary(r, "G7");
    cr_assert_not_null(s, "G7 still weighed");
    cr_expect_null(strstr(s, "(12, 1)"), "no line says 12.1: %s", s);
    cr_expect_null(strstr(s, "SM121"), "no line says SM121: %s", s);
    corr_result_free(r);
    /* near miss: the same build on a run an nvidia-smi row places on a GB10 */
    fx_write("fp4-gb10", "build-run.log", SM120_FP4_BUILD);
    fx_write("fp4-gb10", "smi.txt",
             "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |\n");
    r = fx_analyze_dir("fp4-gb10");
    cr_assert_str_eq(fx_verdict(r), "G7", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* "Torch not compiled with CUDA enabled" under a /Users/<name>/ conda env (zai-org/CodeGeeX2#183,
 * an M2 Mac): macOS has no CUDA torch, so the program called CUDA, not pip. The same traceback
 * under /home/<name>/ (a Linux box) or a Windows C:/Users path shows no NVIDIA machine either:
 * G9 stays possible; beside nvidia-smi's header row it is G9. */
static void write_cpu_torch(const char *dir, const char *home, const char *smi)
{
    char text[1024];
    snprintf(text, sizeof text,
             "%s"
             "  File \"%s/anaconda3/envs/model-fine/lib/python3.8/site-packages/torch/cuda/"
             "__init__.py\", line 293, in _lazy_init\n"
             "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
             "AssertionError: Torch not compiled with CUDA enabled\n",
             smi, home);
    fx_write(dir, "stderr.log", text);
}

Test(correlate, mac_home_path_is_contrary_to_cpu_torch_g9)
{
    static const char smi[] = "| NVIDIA-SMI 535.183.01             Driver Version: 535.183.01   "
                              "CUDA Version: 12.2     |\n";
    fx_load_shipped();
    write_cpu_torch("mac", "/Users/zhangyukun33", "");
    struct corr_result *r = fx_analyze_dir("mac");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    write_cpu_torch("mac-smi", "/Users/zhangyukun33", smi);
    r = fx_analyze_dir("mac-smi");
    cr_assert_str_eq(fx_verdict(r), "none", "a Mac path still lowers it: verdict %s",
                     fx_verdict(r));
    corr_result_free(r);
    static const char *const homes[][2] = {{"linux", "/home/zhangyukun33"},
                                           {"win", "C:/Users/zhangyukun33"}};
    for (size_t i = 0; i < 2; i++) {
        char dir[32];
        write_cpu_torch(homes[i][0], homes[i][1], "");
        r = fx_analyze_dir(homes[i][0]);
        cr_assert_str_eq(fx_verdict(r), "none", "%s: verdict %s", homes[i][0], fx_verdict(r));
        cr_assert_geq(r->npossible, 1, "%s: G9 left possible", homes[i][0]);
        cr_assert_str_eq(r->possible[0].entry->id, "G9");
        corr_result_free(r);
        snprintf(dir, sizeof dir, "%s-smi", homes[i][0]);
        write_cpu_torch(dir, homes[i][1], smi);
        r = fx_analyze_dir(dir);
        cr_assert_str_eq(fx_verdict(r), "G9", "%s: verdict %s", dir, fx_verdict(r));
        corr_result_free(r);
    }
}

/* torchvision's meta registrations finding no C++ operator (fudan-generative-vision/hallo#98's
 * traceback): torchvision was installed for another torch, G9. A custom namespace's missing
 * operator is the user's own extension. */
Test(correlate, torchvision_operator_missing_is_g9)
{
    fx_load_shipped();
    fx_write("tv", "stderr.log",
             "  File \"/usr/local/lib/python3.10/dist-packages/torchvision/_meta_registrations.py"
             "\", line 164, in <module>\n"
             "    def meta_nms(dets, scores, iou_threshold):\n"
             "  File \"/usr/local/lib/python3.10/dist-packages/torch/_library/abstract_impl.py\", "
             "line 30, in register\n"
             "    if torch._C._dispatch_has_kernel_for_dispatch_key(self.qualname, \"Meta\"):\n"
             "RuntimeError: operator torchvision::nms does not exist\n");
    struct corr_result *r = fx_analyze_dir("tv");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 5u, "the RuntimeError line");
    corr_result_free(r);
    fx_write("own", "stderr.log", "RuntimeError: operator my_ext::fused_add does not exist\n");
    r = fx_analyze_dir("own");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* torch's own loader failing to preload the nvidia-* pip libraries it depends on
 * (pytorch/vision#7032's CI traceback): the CUDA 11 library belongs to torch's own wheel set, so
 * the install layout is at fault, not a binary for a CUDA major the system lacks. The loader
 * line alone stays G1. */
Test(correlate, torch_preload_of_its_own_cuda_libs_is_contrary_to_g1)
{
    fx_load_shipped();
    const char *oserr = "OSError: libcublas.so.11: cannot open shared object file: No such file "
                        "or directory\n";
    fx_write("alone", "ci.log", oserr);
    struct corr_result *r = fx_analyze_dir("alone");
    cr_assert_str_eq(fx_verdict(r), "G1", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, oserr);
    az_buf_puts(&b, "\nDuring handling of the above exception, another exception occurred:\n\n"
                    "Traceback (most recent call last):\n"
                    "  File \"/home/circleci/project/env/lib/python3.8/site-packages/torch/"
                    "__init__.py\", line 179, in _load_global_deps\n"
                    "    _preload_cuda_deps()\n"
                    "  File \"/home/circleci/project/env/lib/python3.8/site-packages/torch/"
                    "__init__.py\", line 159, in _preload_cuda_deps\n"
                    "    ctypes.CDLL(cublas_path)\n"
                    "UnboundLocalError: local variable 'cublas_path' referenced before "
                    "assignment\n");
    fx_write("preload", "ci.log", b.data);
    az_buf_free(&b);
    r = fx_analyze_dir("preload");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_expect_gt(fx_conf(r, "G1"), 0.0, "still weighed");
    corr_result_free(r);
}

/* pip list's two columns for torch and torchvision (the row shape CTX.cuda.torch-pip and
 * CTX.torchvision-pip read). The versions follow pytorch/vision#8985's title (a torchvision
 * 0.21.0+cu126 wheel, the release built for torch 2.6): beside a torch 2.5.1 it is the drift the
 * version-pair rule weighs from the pack's table; beside torch 2.6.0 it is the matched pair. */
static void write_pip_list(const char *dir, const char *torch)
{
    char text[256];
    snprintf(text, sizeof text,
             "torch                             %s\n"
             "torchvision                       0.21.0+cu126\n",
             torch);
    fx_write(dir, "pip-list.txt", text);
}

Test(correlate, torch_and_torchvision_of_different_releases_is_g9)
{
    fx_load_shipped();
    write_pip_list("drift", "2.5.1+cu124");
    struct corr_result *r = fx_analyze_dir("drift");
    cr_assert_str_eq(fx_verdict(r), "G9", "verdict %s", fx_verdict(r));
    const char *s = finding_summary(r, "G9");
    cr_assert_not_null(s);
    cr_expect_not_null(strstr(s, "0.20"), "names the torchvision built for 2.5: %s", s);
    corr_result_free(r);
    /* near miss: the matched pair */
    write_pip_list("paired", "2.6.0+cu126");
    r = fx_analyze_dir("paired");
    cr_assert_str_eq(fx_verdict(r), "none", "verdict %s", fx_verdict(r));
    cr_assert_eq(fx_conf(r, "G9"), 0.0);
    corr_result_free(r);
    /* near miss: a torch the table does not list weighs nothing */
    write_pip_list("unlisted", "3.1.0");
    r = fx_analyze_dir("unlisted");
    cr_assert_eq(fx_conf(r, "G9"), 0.0);
    cr_assert_gt(r->records, 0u);
    corr_result_free(r);
}

/* ---- issue #20: families read from the emitters' own format strings ---- */

/* vLLM's rank assignment (vllm/distributed/parallel_state.py, initialize_model_parallel: "rank %s
 * in world size %s is assigned as DP rank %s, PP rank %s, TP rank %s, EP rank %s") filled for the
 * second rank of a two-Spark group: TP rank 1 exists only in a TP group of two or more, so with
 * NCCL's own node count ("comm %p rank %d nRanks %d nNodes %d ..." of NCCL src/init.cc) the group
 * spans machines although no TP size is printed. Host and addresses are made up. */
static const char *const vllm_rank1 =
    "spark-b2:2231:2231 [0] NCCL INFO comm 0xaaab1c2d3e40 rank 1 nRanks 2 nNodes 2 localRanks 1 "
    "localRank 0 MNNVL 0\n"
    "(Worker pid=2231) INFO 10-14 09:12:44 [parallel_state.py:1208] rank 1 in world size 2 is "
    "assigned as DP rank 0, PP rank 0, TP rank 1, EP rank 1\n";

Test(correlate, a_tp_rank_of_one_across_two_nccl_nodes_is_g10)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one("rank1", "vllm.log", vllm_rank1);
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    cr_assert(strstr(r->findings[0].summary, "Tensor parallel size 2") != NULL, "%s",
              r->findings[0].summary);
    corr_result_free(r);
}

Test(correlate, rank_zero_of_a_two_node_group_says_nothing_of_tp)
{
    /* near miss: rank 0's line is TP rank 0 in every layout (DP 2 across two Sparks too), and
     * NCCL's node count alone is a group across machines, not tensor parallelism */
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "rank0", "vllm.log",
        "spark-a1:2201:2201 [0] NCCL INFO comm 0xaaab1c2d3e40 rank 0 nRanks 2 nNodes 2 "
        "localRanks 1 localRank 0 MNNVL 0\n"
        "(Worker pid=2201) INFO 10-14 09:12:44 [parallel_state.py:1208] rank 0 in world "
        "size 2 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0\n");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
    /* and it is no evidence against TP either: beside vLLM's spans-across-nodes warning (which
     * custom_all_reduce.py prints for the TP group only) the run is still G10, where a rank 0
     * read as a TP size of 1 would rule it out */
    r = fx_scan_one("rank0", "spans.log",
                    "(Worker pid=2201) WARNING 10-14 09:12:45 [custom_all_reduce.py:136] Custom "
                    "allreduce is disabled because this process group spans across nodes.\n");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);
}

/* The guard of issue #20: a remote peer's IB error alone is not TP. NCCL's completion error
 * (src/transport/net_ib/p2p.cc: "NET/IB: Got completion from peer %s with status=%s(%d) ...") and
 * its communicator of two ranks ("%s comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx
 * commId 0x%llx - Init COMPLETE", src/init.cc) on a GB10: two Sparks talking, but nothing says the
 * group is tensor-parallel (DDP across two Sparks is G10's own fix). */
Test(correlate, a_remote_peer_ib_error_alone_is_not_g10)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "ib", "train.log",
        "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A "
        "|\n"
        "spark-a1:2201:2201 [0] NCCL INFO ncclCommInitRankConfig comm 0xaaab1c2d3e40 rank 0 nranks "
        "2 cudaDev 0 nvmlDev 0 busId f01000 commId 0x5a1e9c44d0b2f7e1 - Init COMPLETE\n"
        "spark-a1:2201:2290 [0] transport/net_ib/p2p.cc:651 NCCL WARN NET/IB: Got completion from "
        "peer 192.168.100.11<43007> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) "
        "vendor_err=129\n");
    cr_assert_str_eq(r->context.platform, "gb10");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

/* llama.cpp prints the device's free memory on one line (src/llama.cpp: "%s: using device %s (%s)
 * (%s) - %zu MiB free") and ggml its total on another (ggml-cuda.cu: "  Device %d: %s, compute
 * capability %d.%d, VMM: %s, VRAM: %zu MiB"): the fact-share rule reads the two lines together.
 * With the OOM ggml prints (ggml-cuda.cu: "%s: allocating %.2f MiB on device %d: cudaMalloc
 * failed: %s"), a sliver of GB10's pool counted free adds to G3; the same OOM with most of the
 * pool free adds less. Numbers made up in GB10's band (122502 MiB = 119.6 GiB). */
static struct corr_result *llama_load(const char *sub, const char *free_mib, int with_total)
{
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "ggml_cuda_init: found 1 CUDA devices (Total VRAM: 122502 MiB):\n");
    if (with_total)
        az_buf_puts(&b, "  Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes, VRAM: 122502 "
                        "MiB\n");
    az_buf_printf(&b,
                  "llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GB10) "
                  "(000f:01:00.0) - %s MiB free\n",
                  free_mib);
    az_buf_puts(&b, "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 40960.00 MiB on device "
                    "0: cudaMalloc failed: out of memory\n");
    struct corr_result *r = fx_scan_one(sub, "llama-server.log", b.data);
    az_buf_free(&b);
    return r;
}

Test(correlate, llamacpp_free_sliver_of_the_pool_on_another_line_adds_to_g3)
{
    fx_load_shipped();
    struct corr_result *r = llama_load("sliver", "9216", 1);
    double sliver = fx_conf(r, "G3");
    cr_assert_str_eq(r->context.platform, "gb10");
    corr_result_free(r);
    r = llama_load("plenty", "110000", 1);
    double plenty = fx_conf(r, "G3");
    corr_result_free(r);
    cr_assert_gt(sliver, plenty, "sliver %.2f, plenty %.2f", sliver, plenty);
    /* near miss: no total printed (an older ggml), so no share: as with plenty free */
    r = llama_load("nototal", "9216", 0);
    cr_assert_lt(fx_conf(r, "G3"), sliver, "no total %.2f", fx_conf(r, "G3"));
    corr_result_free(r);
}

/* docker ps (docker/cli cli/command/formatter/container.go's default table: ID, image, quoted
 * command, created, status, ports, names) on a GB10 with two GPU servers' containers up: two
 * heavy processes on one pool (G6's coresident rule). Near miss: the second one exited. */
static const char *const docker_head =
    "|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A |\n"
    "CONTAINER ID   IMAGE                      COMMAND                  CREATED       STATUS      "
    "              PORTS                      NAMES\n"
    "3f9c2a1b7d40   vllm/vllm-openai:v0.11.0   \"vllm serve openai/…\"   2 hours ago   Up 2 hours "
    "              0.0.0.0:8000->8000/tcp     vllm-gptoss\n";

Test(correlate, two_running_server_containers_share_the_pool_g6)
{
    fx_load_shipped();
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, docker_head);
    az_buf_puts(&b,
                "8e1d44c09a21   ollama/ollama:latest       \"/bin/ollama serve\"      3 days ago "
                "   Up 3 days                0.0.0.0:11434->11434/tcp   ollama\n");
    struct corr_result *r = fx_scan_one("up", "docker-ps.txt", b.data);
    az_buf_free(&b);
    double both = fx_conf(r, "G6");
    cr_assert_geq(both, 0.35, "G6 %.2f", both);
    corr_result_free(r);

    b = (struct az_buf)AZ_BUF_INIT;
    az_buf_puts(&b, docker_head);
    az_buf_puts(&b,
                "8e1d44c09a21   ollama/ollama:latest       \"/bin/ollama serve\"      3 days ago "
                "   Exited (0) 2 hours ago                              ollama\n");
    r = fx_scan_one("exited", "docker-ps.txt", b.data);
    az_buf_free(&b);
    cr_assert_lt(fx_conf(r, "G6"), both, "G6 %.2f", fx_conf(r, "G6"));
    corr_result_free(r);
}

/* llama-bench -o jsonl (tools/llama-bench/llama-bench.cpp jsonl_printer: one line per test, the
 * fields of test::get_fields() in order): a tg test (n_prompt 0, n_gen 128) of a 42.5 GB dense
 * model at 4.3 tok/s moves ~183 GB/s, GB10's bandwidth ceiling (G5). Near miss: the pp test of
 * the same model (n_gen 0) is prompt processing, no decode rate. Numbers made up. */
static const char *const bench_jsonl_fmt =
    "{\"build_commit\": \"88458164\", \"build_number\": 6771, \"gpu_info\": \"NVIDIA GB10\", "
    "\"backends\": \"CUDA\", \"model_type\": \"llama 70B Q4_K - Medium\", \"model_size\": "
    "42520395776, \"model_n_params\": 70553706496, \"n_gpu_layers\": 99, \"n_prompt\": %s, "
    "\"n_gen\": %s, \"n_depth\": 0, \"avg_ns\": 29767441860, \"stddev_ns\": 5000000, \"avg_ts\": "
    "%s, \"stddev_ts\": 0.01, \"samples_ts\": [ 4.3 ]}\n";

Test(correlate, llama_bench_jsonl_decode_at_the_bandwidth_ceiling_is_g5)
{
    fx_load_shipped();
    char line[1024];
    snprintf(line, sizeof line, bench_jsonl_fmt, "0", "128", "4.30");
    struct corr_result *r = fx_scan_one("tg", "bench.jsonl", line);
    cr_assert_str_eq(fx_verdict(r), "G5", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    snprintf(line, sizeof line, bench_jsonl_fmt, "512", "0", "4.30");
    r = fx_scan_one("pp", "bench.jsonl", line);
    cr_assert_lt(fx_conf(r, "G5"), 0.35, "G5 %.2f", fx_conf(r, "G5"));
    corr_result_free(r);
}

/* A launcher that refuses a TP group across one-GPU nodes: GPUStack 2.2.0's check
 * (gpustack/utils/vllm_topology.py: "vLLM multi-node: --tensor-parallel-size {tp} cannot divide
 * worker[{idx}] {cnt} GPUs (vLLM requires each TP unit fit inside one node).") failed the launch,
 * the consequence of asking TP across Sparks: G10 by itself. Near miss: the same refusal on a
 * six-GPU worker is a multi-GPU server's layout. Values differ from the pack's examples. */
Test(correlate, a_launcher_refusing_tp_across_one_gpu_nodes_is_g10)
{
    fx_load_shipped();
    struct corr_result *r = fx_scan_one(
        "refused", "server.log",
        "2026-03-02T11:04:17Z ERROR Failed to schedule model instance: vLLM multi-node: "
        "--tensor-parallel-size 4 cannot divide worker[3] 1 GPUs (vLLM requires each TP "
        "unit fit inside one node).\n");
    cr_assert_str_eq(fx_verdict(r), "G10", "verdict %s", fx_verdict(r));
    corr_result_free(r);
    r = fx_scan_one(
        "six", "server.log",
        "2026-03-02T11:04:17Z ERROR Failed to schedule model instance: vLLM multi-node: "
        "--tensor-parallel-size 4 cannot divide worker[1] 6 GPUs (vLLM requires each TP "
        "unit fit inside one node).\n");
    cr_assert_lt(fx_conf(r, "G10"), 0.35, "G10 %.2f", fx_conf(r, "G10"));
    corr_result_free(r);
}

/* ---- a fault over its symptom: "severity_tags" and "cascade_of" (docs/patterns.md, Roles)
 * ----
 *
 * A small pack of the mechanism only, with tag names of its own (the engine knows none): a
 * catalogue whose fatal codes carry "device-gone", and an application error line that declares
 * itself a cascade of it. Line shapes: the NVIDIA driver's "NVRM: Xid (PCI:%04x:%02x:%02x): %d,
 * " print (open-gpu-kernel-modules, as cited in patterns/nvidia-xid.json) with Xid 79's and Xid
 * 31's texts as the pack's examples give them; PyTorch's "CUDA error: " + cudaGetErrorString()
 * (c10/cuda/CUDAException.cpp), "unspecified launch failure" being cudaErrorLaunchFailure's. */
static const char *const fault_pack_json =
    "{\"catalogues\": [{\"id\": \"t\", \"label\": \"Xid\", \"title\": \"test codes\", "
    "\"entry\": \"C.t\", \"sources\": [\"test\"], "
    "\"severity_tags\": {\"fatal\": [\"device-gone\"]}, "
    "\"actions\": {\"REBOOT\": {\"text\": \"reboot the node\"}, \"APP\": {\"text\": \"restart "
    "the application\"}}, "
    "\"codes\": [{\"code\": 79, \"name\": \"GPU has fallen off the bus\", \"severity\": "
    "\"fatal\", \"action\": \"REBOOT\", \"strength\": \"decisive\"}, "
    "{\"code\": 31, \"name\": \"GPU memory page fault\", \"severity\": \"nonfatal\", "
    "\"action\": \"APP\"}]}],\n"
    " \"entries\": [{\"id\": \"C.t\", \"family\": \"common\", \"title\": \"driver fault\", "
    "\"fix\": \"f\", \"signatures\": [{\"id\": \"C.t.line\", \"kinds\": [\"any\"], "
    "\"strength\": \"weak\", \"catalogue\": \"t\", "
    "\"regex\": \"NVRM: Xid \\\\((?:PCI:)?[0-9A-Fa-f:.]+\\\\): (?<code>[0-9]{1,3})\\\\b\", "
    "\"examples\": {\"match\": [\"NVRM: Xid (PCI:0000:01:00): 79, pid=123\"], \"no_match\": "
    "[\"Xid 79\"]}, \"sources\": [\"test\"]}]},\n"
    " {\"id\": \"C.app\", \"family\": \"common\", \"title\": \"CUDA runtime error\", \"fix\": "
    "\"rerun with CUDA_LAUNCH_BLOCKING=1\", \"signatures\": [{\"id\": \"C.app.launch\", "
    "\"kinds\": [\"any\"], \"strength\": \"strong\", \"cascade_of\": [\"device-gone\"], "
    "\"regex\": \"CUDA error: (?:unspecified launch failure|an illegal memory access was "
    "encountered)\", \"examples\": {\"match\": [\"RuntimeError: CUDA error: unspecified launch "
    "failure\"], \"no_match\": [\"CUDA error: no kernel image\"]}, \"sources\": "
    "[\"test\"]}]}]}\n";

#define XID79_LINE "NVRM: Xid (PCI:0000:01:00): 79, pid=123, GPU has fallen off the bus.\n"
#define XID31_LINE                                                                                 \
    "NVRM: Xid (PCI:000f:01:00): 31, pid=4242, name=python3, channel 0x00000018, intr 00000000. "  \
    "MMU Fault: ENGINE GRAPHICS GPC0 GPCCLIENT_T1_0 faulted @ 0x7f12_34560000. Fault is of type "  \
    "FAULT_PDE ACCESS_TYPE_VIRT_READ\n"
#define CUDA_ERROR_TRAIN_LOG(error)                                                                \
    "2026-05-12 13:05:14,000 INFO step 10 loss 1.2\n"                                              \
    "Traceback (most recent call last):\n"                                                         \
    "  File \"train.py\", line 10, in <module>\n"                                                  \
    "    loss.backward()\n"                                                                        \
    "RuntimeError: CUDA error: " error "\n"

static void use_fault_pack(void)
{
    match_pack_free(fx.pack);
    fx.pack = NULL;
    fx_write("faultpack", "fault.json", fault_pack_json);
    char pdir[128];
    snprintf(pdir, sizeof pdir, "%s/faultpack", fx.dir);
    const char *dirs[] = {pdir};
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(match_pack_load(&fx.pack, dirs, 1, &err), AZ_OK, "%s", err.data ? err.data : "");
    az_buf_free(&err);
}

static void assert_first_error(const struct corr_result *r, const char *entry, const char *file,
                               uint64_t line)
{
    cr_assert_not_null(r->first_error, "a first error");
    cr_assert_not_null(r->first_error_entry);
    cr_expect_str_eq(r->first_error_entry->id, entry);
    cr_expect(strstr(r->first_error->path, file) != NULL, "first error at %s",
              r->first_error->path);
    cr_expect_eq(r->first_error->line, line);
}

Test(correlate, an_untimed_fatal_fault_is_the_root_of_the_cuda_error)
{
    use_fault_pack();
    fx_write("run", "dmesg.txt", XID79_LINE);
    fx_write("run", "train.log", CUDA_ERROR_TRAIN_LOG("unspecified launch failure"));
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_eq(r->ninputs, 2, "both files read");
    assert_first_error(r, "C.t", "dmesg.txt", 1);
    cr_assert_not_null(r->first_error->sig->code);
    cr_expect_str_eq(r->first_error->sig->code->action_text, "reboot the node");
    cr_expect_eq(r->outcome, CORR_OUTCOME_FAILED);
    corr_result_free(r);
}

/* The clocks do not decide it: the driver's report may be stamped after the error it caused. */
Test(correlate, a_fatal_fault_timed_after_the_cuda_error_is_still_its_root)
{
    use_fault_pack();
    fx_write("run", "dmesg.txt", "[Tue May 12 13:05:15 2026] " XID79_LINE);
    fx_write("run", "train.log", CUDA_ERROR_TRAIN_LOG("unspecified launch failure"));
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_eq(r->ninputs, 2);
    cr_assert_neq(r->first_error ? r->first_error->time.kind : AZ_TIME_NONE, AZ_TIME_NONE,
                  "the fault line is timed");
    assert_first_error(r, "C.t", "dmesg.txt", 1);
    corr_result_free(r);
}

/* A non-fatal code (an application's page fault the driver reports) carries no tag: the CUDA
 * error it accompanies stays the root. */
Test(correlate, a_nonfatal_fault_leaves_the_cuda_error_the_root)
{
    use_fault_pack();
    fx_write("run", "dmesg.txt", XID31_LINE);
    fx_write("run", "train.log", CUDA_ERROR_TRAIN_LOG("an illegal memory access was encountered"));
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_eq(r->ncodes, 1, "the Xid 31 line was read as its code");
    assert_first_error(r, "C.app", "train.log", 5);
    corr_result_free(r);
}

Test(correlate, a_cuda_error_alone_is_the_first_error)
{
    use_fault_pack();
    struct corr_result *r =
        fx_scan_one("run", "train.log", CUDA_ERROR_TRAIN_LOG("unspecified launch failure"));
    assert_first_error(r, "C.app", "train.log", 5);
    corr_result_free(r);
}

/* The shipped pack holds the knowledge: its Xid catalogue's fatal codes carry "gpu-fault" and
 * PyTorch's CUDA errors are its cascade (issue 21's run: an untimed dmesg, a train.log that
 * ends in the error). */
Test(correlate, shipped_pack_names_xid79_over_the_cuda_error_it_caused)
{
    fx_load_shipped();
    fx_write("run", "dmesg.txt", XID79_LINE);
    fx_write("run", "train.log",
             CUDA_ERROR_TRAIN_LOG(
                 "unspecified launch failure") "CUDA kernel errors might be asynchronously "
                                               "reported at some other API call, so "
                                               "the stacktrace below might be incorrect.\n"
                                               "For debugging consider passing "
                                               "CUDA_LAUNCH_BLOCKING=1\n");
    struct corr_result *r = fx_analyze_dir("run");
    cr_assert_eq(r->ninputs, 2);
    cr_assert_null(r->verdict);
    assert_first_error(r, "C.xid", "dmesg.txt", 1);
    cr_assert_not_null(r->first_error->sig->code);
    cr_expect_eq(r->first_error->sig->code->code, 79);
    corr_result_free(r);
}

/* A warn-level line is no first error of a run known not to have failed: gpud's zap line on a
 * healthy GB10 (corpus/healthy-bf16-sft-ngc-bundle; gpud v0.12.24 memory/memory.go:100 Warnw),
 * beside HF Trainer's final metrics. In a
 * failed run NCCL's warn-level error stays the root (b05/021's shape). */
Test(correlate, a_warning_is_no_first_error_of_a_completed_run)
{
    fx_load_shipped();
    const char *gpud =
        "{\"level\":\"warn\",\"ts\":\"2025-11-26T12:31:47.603Z\",\"caller\":\"memory/"
        "memory.go:100\","
        "\"msg\":\"NVML memory APIs not supported for unified memory device, falling back to "
        "system memory\",\"product_name\":\"NVIDIA-GB10\",\"error\":\"Not Supported\"}\n";
    fx_write("healthy", "gpud.log", gpud);
    fx_write("healthy", "train.log",
             "2025-11-26 12:31:00,000 INFO __main__: step 100 loss 1.23\n"
             "{'train_runtime': 7326.28, 'train_samples_per_second': 1.583, 'train_loss': 0.5183, "
             "'epoch': 0.73}\n");
    struct corr_result *r = fx_analyze_dir("healthy");
    cr_assert_eq(r->outcome, CORR_OUTCOME_COMPLETED);
    cr_expect_null(r->first_error, "%s", r->first_error ? r->first_error->text : "");
    cr_expect_gt(r->nevents, 0, "the warning was read");
    corr_result_free(r);
    fx_write("nccl", "nccl.log",
             "worker-1:946:988 [0] transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion "
             "with error 12, opcode 1, len 0, vendor err 129\n");
    r = fx_analyze_dir("nccl");
    cr_assert_not_null(r->first_error);
    cr_expect_eq(r->first_error->line, 1u);
    corr_result_free(r);
}

/* journald's unclean-shutdown warning is printed for any .journal file left online by a power
 * loss, the system journal or a user's (systemd src/shared/journal-file-util.c, stored commit
 * 04396f6: "File %s corrupted or uncleanly shut down, renaming and replacing."): each is read as
 * G4's hint, and the lines around it are not. Values are this test's own. */
static size_t unclean_events(const struct corr_result *r, uint64_t *line)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nevents; i++)
        if (r->timeline[i].entry_id && strcmp(r->timeline[i].entry_id, "G4") == 0 &&
            strstr(r->timeline[i].label, "without a clean shutdown")) {
            n++;
            *line = r->timeline[i].line;
        }
    return n;
}

Test(correlate, journald_unclean_shutdown_of_any_journal_file_is_read)
{
    fx_load_shipped();
    const char *const files[] = {"system.journal", "user-1000.journal"};
    for (size_t f = 0; f < 2; f++) {
        char *text = az_xasprintf(
            "Mar 02 07:41:10 gx10-a1 kernel: Linux version 6.17.0-1009-nvidia (buildd@bos02-arm64-"
            "058) #9-Ubuntu SMP PREEMPT_DYNAMIC\n"
            "Mar 02 07:41:16 gx10-a1 systemd-journald[287]: File /var/log/journal/"
            "41c7e09b2d6a4f53b8e1a0d96c5f7e21/%s corrupted or uncleanly shut down, renaming and "
            "replacing.\n"
            "Mar 02 07:41:17 gx10-a1 systemd-journald[287]: Journal started\n",
            files[f]);
        struct corr_result *r = fx_scan_one(f ? "user" : "system", "journal.txt", text);
        free(text);
        uint64_t line = 0;
        cr_expect_eq(unclean_events(r, &line), 1, "%s: one unclean-shutdown line", files[f]);
        cr_expect_eq(line, 2, "%s: read at its own line", files[f]);
        cr_expect_gt(r->nevents, 1, "the journal was read");
        corr_result_free(r);
    }
}
