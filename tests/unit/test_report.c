/* Tests for report/: every format on a synthetic result, determinism, the terminal sanitizer,
 * redaction, Markdown fences, HTML escaping and the preflight line format.
 *
 * The results are built by hand (struct corr_result is plain data), so these tests do not depend
 * on the correlator. The G4 case copies the shape of the design sketch in
 * shared/reference/report-mock.md; its log lines copy real tool output:
 *  - gpu.csv.gz: `nvidia-smi --query-gpu=timestamp,power.draw,temperature.gpu,clocks.sm,
 *    utilization.gpu --format=csv,noheader` rows ("2026/05/12 13:21:03.000, 104.72 W, 67, 2511
 *    MHz, 97 %"; nvidia-smi(1) --format=csv: timestamp "YYYY/MM/DD HH:MM:SS.msec", units after
 *    values);
 *  - nvidia-smi.txt: the default table's GPU row; GB10 shows "N/A" for the power cap and "Not
 *    Supported" for memory (gotcha-checks-notes.md, G3);
 *  - train.log: HF Trainer's tqdm progress line "1520/2500 [1:05:12<42:10,  2.81s/it]" and its
 *    metrics dict "{'loss': 1.2104, 'grad_norm': 0.4127, 'learning_rate': 0.00018, 'epoch': 0.61}";
 *  - dmesg: the NVRM Xid line "NVRM: Xid (PCI:000f:01:00): 79, pid=..., GPU has fallen off the
 * bus." (kernel driver message, as quoted in NVIDIA's Xid documentation).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"

/* ---- a pool for the strings of hand-built results ---- */

static char *pool[512];
static size_t npool;

static char *S(const char *s)
{
    cr_assert_lt(npool, AZ_ARRAY_LEN(pool));
    return pool[npool++] = az_xstrdup(s);
}

static void teardown(void)
{
    for (size_t i = 0; i < npool; i++) free(pool[i]);
    npool = 0;
}

TestSuite(report, .fini = teardown);

/* ---- entries as a pack would hold them (titles and fixes in the skill's words) ---- */

static struct match_entry e_g3 = {.id = "G3",
                                  .family = MATCH_FAMILY_GOTCHA,
                                  .title = "UMA OOM below 128GB",
                                  .symptom = "",
                                  .cause = "",
                                  .check = "",
                                  .fix = "drop the page cache between runs",
                                  .source = "test"};
static struct match_entry e_g4 = {
    .id = "G4",
    .family = MATCH_FAMILY_GOTCHA,
    .title = "Thermal throttling",
    .symptom = "",
    .cause = "",
    .check = "",
    .fix = "~100 W sustained is GB10's cap, not a bug: improve cooling or "
           "cap run length.",
    .source = "test"};
static struct match_entry e_g6 = {.id = "G6",
                                  .family = MATCH_FAMILY_GOTCHA,
                                  .title = "Global UMA resource contention",
                                  .symptom = "",
                                  .cause = "",
                                  .check = "",
                                  .fix = "stop other GPU processes",
                                  .source = "test"};
static struct match_entry e_g9 = {.id = "G9",
                                  .family = MATCH_FAMILY_GOTCHA,
                                  .title = "Container-first, not bare pip",
                                  .symptom = "",
                                  .cause = "",
                                  .check = "",
                                  .fix = "use an NGC container",
                                  .source = "test"};
static struct match_entry e_xid = {.id = "C.xid",
                                   .family = MATCH_FAMILY_COMMON,
                                   .title = "NVIDIA Xid error",
                                   .symptom = "",
                                   .cause = "",
                                   .check = "",
                                   .fix =
                                       "Xid 79: the GPU fell off the bus; check power and cabling, "
                                       "then reboot.",
                                   .source = "test"};
static struct match_sig sig_slowdown = {.id = "G4.sw-thermal-slowdown",
                                        .entry = &e_g4,
                                        .strength = MATCH_STRONG,
                                        .regex = "",
                                        .summary = "",
                                        .note = "",
                                        .severity = ""};

static struct az_time at(unsigned h, unsigned m, unsigned s)
{
    struct az_time t = {az_usec_from_civil(2026, 5, 12, h, m, s, 0), AZ_TIME_ABS};
    return t;
}

static struct corr_evidence ev(const char *path, uint64_t line, struct az_time t, const char *text,
                               const struct match_sig *sig, const char *note)
{
    struct corr_evidence e = {S(path), line, t, 0, S(""), S(text), sig, S(note)};
    return e;
}

static struct corr_event event(struct az_time t, const char *path, uint64_t line, const char *label,
                               const char *entry_id)
{
    struct corr_event e = {t, 0, S(path), line, S(""), S(label), entry_id, 0};
    return e;
}

/* Storage of one hand-built result (static: tests run one at a time in their own process). */
static struct corr_evidence g4_ev[4], g6_ev[1], xid_ev;
static struct corr_finding findings[2];
static struct corr_ruled_out ruled[2];
static struct corr_event timeline[40];
static struct corr_input inputs[3];
static struct corr_skip skipped[1];
static struct corr_point power_pts[120], temp_pts[120], tput_pts[60];
static struct corr_series series[3];
static char *warnings[1];

/* The mock's G4 run: power held near 100 W while the GPU heats up, SM clock and throughput fall. */
static void build_g4(struct corr_result *r)
{
    memset(r, 0, sizeof *r);
    g4_ev[0] = ev("gpu.csv.gz", 201, at(13, 21, 3),
                  "2026/05/12 13:21:03.000, 104.72 W, 67, 2511 MHz, 97 %", NULL, "plateau begins");
    g4_ev[1] = ev("gpu.csv.gz", 1004, at(13, 52, 10),
                  "2026/05/12 13:52:10.000, 99.80 W, 88, 1831 MHz, 98 %", NULL, "clock falls");
    g4_ev[2] = ev("train.log", 212, at(13, 52, 31),
                  " 61%|######    | 1520/2500 [1:05:12<42:10,  2.81s/it]", NULL,
                  "throughput \xe2\x88\x92"
                  "41 %");
    g4_ev[3] = ev("nvidia-smi.txt", 10, at(14, 53, 43),
                  "| N/A   92C    P0            100W /  N/A  | Not Supported          |",
                  &sig_slowdown, "");
    findings[0] = (struct corr_finding){&e_g4, 0.912,
                                        S("Power held at 95\xe2\x80\x93"
                                          "102 W for 64 min while the "
                                          "GPU went 67 \xe2\x86\x92 92 \xc2\xb0"
                                          "C; SM clock fell "
                                          "2511 \xe2\x86\x92 1706 MHz and throughput fell 41 %."),
                                        4, g4_ev};
    g6_ev[0] =
        ev("nvidia-smi.txt", 19, at(14, 53, 43),
           "|    0   N/A  N/A      2143      G   /usr/lib/xorg/Xorg        43MiB |", NULL, "");
    findings[1] =
        (struct corr_finding){&e_g6, 0.1249,
                              S("another GPU process: Xorg, 43 MiB \xe2\x80\x94 too small "
                                "to contend"),
                              1, g6_ev};
    ruled[0] = (struct corr_ruled_out){&e_g3, S("no OOM anywhere")};
    ruled[1] =
        (struct corr_ruled_out){&e_g9, S("pip changed no torch/triton/xformers/transformers")};
    size_t n = 0;
    timeline[n++] = event(at(13, 4, 32), "gpu.csv.gz", 2, "sampling starts, 13 W idle", NULL);
    timeline[n++] = event(at(13, 5, 34), "train.log", 40, "training starts, 7,940 tok/s", NULL);
    timeline[n++] = event(at(13, 21, 3), "gpu.csv.gz", 201, "power plateau ~100 W begins", "G4");
    timeline[n++] = event(at(13, 52, 10), "gpu.csv.gz", 1004,
                          "SM clock 2511 \xe2\x86\x92 1831 MHz at 88 \xc2\xb0"
                          "C",
                          "G4");
    timeline[n++] = event(at(13, 52, 31), "train.log", 212,
                          "throughput \xe2\x88\x92"
                          "41 %",
                          "G4");
    timeline[n++] = event(at(14, 53, 43), "nvidia-smi.txt", 10,
                          "92 \xc2\xb0"
                          "C at 100 W",
                          "G4");
    inputs[0] = (struct corr_input){S("gpu.csv.gz"), "smi-csv", 98304, 1310, S("gzip")};
    inputs[1] = (struct corr_input){S("train.log"), "train", 1048576, 46880, S("none")};
    inputs[2] = (struct corr_input){S("nvidia-smi.txt"), "smi", 2048, 23, S("none")};
    skipped[0] = (struct corr_skip){S("core.12345"), S("binary file")};
    warnings[0] = S("core.12345: binary file");
    /* 30 s samples from 13:04:32 (t = 0): idle, then ~100 W from 13:21:03 (t = 991 s) on */
    for (size_t i = 0; i < AZ_ARRAY_LEN(power_pts); i++) {
        double t = (double)i * 55.0;
        power_pts[i] = (struct corr_point){t, t < 991 ? 13.0 + t / 20.0 : 99.0 + (double)(i % 4)};
        temp_pts[i] = (struct corr_point){t, 40.0 + 52.0 * t / (55.0 * 119)};
    }
    for (size_t i = 0; i < AZ_ARRAY_LEN(tput_pts); i++) {
        double t = 62.0 + (double)i * 100.0;
        tput_pts[i] = (struct corr_point){t, t < 2879 ? 7940.0 : 4690.0};
    }
    series[0] = (struct corr_series){
        S("power.draw"),         S("W"),    S("gpu.csv.gz"), S(""),
        AZ_ARRAY_LEN(power_pts), power_pts, 991.0,           S("plateau begins")};
    series[1] = (struct corr_series){S("temperature.gpu"),
                                     S("C"),
                                     S("gpu.csv.gz"),
                                     S(""),
                                     AZ_ARRAY_LEN(temp_pts),
                                     temp_pts,
                                     NAN,
                                     S("")};
    series[2] = (struct corr_series){S("throughput"),
                                     S("tok/s"),
                                     S("train.log"),
                                     S(""),
                                     AZ_ARRAY_LEN(tput_pts),
                                     tput_pts,
                                     2879.0,
                                     S("throughput \xe2\x88\x92"
                                       "41 %")};
    r->verdict = &e_g4;
    r->confidence = 0.912;
    r->nfindings = 2;
    r->findings = findings;
    r->nevents = n;
    r->timeline = timeline;
    r->nruled_out = 2;
    r->ruled_out = ruled;
    r->ninputs = 3;
    r->inputs = inputs;
    r->nskipped = 1;
    r->skipped = skipped;
    r->nseries = 3;
    r->series = series;
    r->nwarnings = 1;
    r->warnings = warnings;
    r->records = 48213;
    r->bytes = 1148928;
    r->start = at(13, 4, 32);
    r->end = at(14, 53, 43);
    /* the shipped platform's figures (patterns/platforms.json) the charts draw */
    static const struct match_value facts[] = {{.name = "power_w", .num = 100},
                                               {.name = "memory_bytes", .num = 128e9},
                                               {.name = "unified_pool", .num = 1}};
    static const struct match_platform gb10 = {
        .id = "gb10", .name = "GB10", .nfacts = 3, .facts = facts};
    r->context = (struct corr_context){.on = &gb10,
                                       .placed = 1,
                                       .gpu_name = S("NVIDIA GB10"),
                                       .arch = S("aarch64"),
                                       .cuda_driver = S("13.0"),
                                       .cuda_torch = S("13.0"),
                                       .in_container = 1};
}

/* No gotcha: the run died of an Xid 79, a common failure. */
static void build_none(struct corr_result *r)
{
    build_g4(r);
    r->verdict = NULL;
    r->confidence = 0.12;
    r->nfindings = 1;
    r->findings = &findings[1];
    xid_ev =
        ev("dmesg.log", 1873, at(14, 2, 11),
           "NVRM: Xid (PCI:000f:01:00): 79, pid=31337, name=python3, GPU has fallen off the bus.",
           NULL, "");
    r->first_error = &xid_ev;
    r->first_error_entry = &e_xid;
    r->nseries = 0;
}

/* The report in format f as a NUL-terminated string; caller frees. */
static char *render(enum report_format f, const struct corr_result *r,
                    const struct report_options *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    cr_assert_not_null(mem);
    /* preflight lists the pack's gotchas: the shipped pack (make unit sets GOTCHA_PATTERNS) */
    struct match_pack *pack = NULL;
    const char *dir = getenv("GOTCHA_PATTERNS");
    if (f == REPORT_PREFLIGHT && dir && *dir) {
        const char *dirs[] = {dir};
        cr_assert_eq(match_pack_load(&pack, dirs, 1, NULL), AZ_OK, "cannot load %s", dir);
    }
    cr_assert_eq(report_write(mem, f, r, pack, o), AZ_OK);
    fclose(mem);
    match_pack_free(pack);
    return buf;
}

static struct report_options opts(int color, int redact, int verbose)
{
    struct report_options o = {color, redact, verbose, "0.1.0", NULL};
    return o;
}

static const char *find_after(const char *hay, const char *needle, const char *after)
{
    const char *a = strstr(hay, after);
    return a ? strstr(a, needle) : NULL;
}

/* ---- names ---- */

Test(report, format_names_round_trip)
{
    for (int f = 0; f < REPORT_FORMAT_COUNT; f++)
        cr_assert_eq(report_format_from_name(report_format_name((enum report_format)f)), f);
    cr_assert_eq(report_format_from_name("yaml"), -1);
    cr_assert_eq(report_format_from_name(NULL), -1);
    cr_assert_str_eq(report_format_ext(REPORT_TEXT), "txt");
    cr_assert_str_eq(report_jansson_version(), JANSSON_VERSION);
}

/* ---- text ---- */

Test(report, text_puts_verdict_then_evidence_timeline_and_weighed)
{
    struct corr_result r;
    build_g4(&r);
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_TEXT, &r, &o);
    cr_assert(
        az_starts_with(t, strlen(t), "gotcha 0.1.0 \xc2\xb7 3 inputs \xc2\xb7 48,213 records"),
        "%s", t);
    cr_assert_not_null(strstr(t, "2026-05-12 13:04 \xe2\x86\x92 14:53 (1 h 49 min)"));
    cr_assert_not_null(strstr(t, "GB10, aarch64, CUDA 13.0, container"));
    const char *verdict = strstr(t, "G4  Thermal throttling");
    cr_assert_not_null(verdict, "%s", t);
    cr_assert_not_null(strstr(verdict, "confidence 0.91\n"));
    const char *fix = strstr(t, "Fix: ~100 W sustained");
    const char *evid = strstr(t, "\n  evidence\n");
    const char *tl = strstr(t, "\n  timeline\n");
    const char *weighed = strstr(t, "\n  also weighed\n");
    cr_assert(verdict && fix && evid && tl && weighed);
    cr_assert(verdict < fix && fix < evid && evid < tl && tl < weighed, "%s", t);
    cr_assert_not_null(find_after(t, "gpu.csv.gz:201", "evidence"));
    cr_assert_not_null(find_after(t, "13:21:03", "evidence"));
    cr_assert_not_null(find_after(t, "plateau begins", "evidence"));
    cr_assert_not_null(find_after(t, "G6  0.12  another GPU process", "also weighed"));
    cr_assert_not_null(find_after(t, "ruled out  G3 no OOM anywhere \xc2\xb7 G9", "also weighed"));
    cr_assert_null(strchr(t, '\x1b'), "no colour unless asked");
    free(t);
}

Test(report, text_colours_only_when_asked)
{
    struct corr_result r;
    build_g4(&r);
    struct report_options o = opts(1, 0, 0);
    char *t = render(REPORT_TEXT, &r, &o);
    cr_assert_not_null(strstr(t, "\x1b[1mG4  Thermal throttling\x1b[0m"), "%s", t);
    cr_assert_not_null(strstr(t, "\x1b[2m"));
    free(t);
}

Test(report, text_without_verdict_names_first_error_and_its_fix)
{
    struct corr_result r;
    build_none(&r);
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_TEXT, &r, &o);
    const char *none = strstr(t, "No known gotcha (none of G1\xe2\x80\x93G10)");
    cr_assert_not_null(none, "%s", t);
    cr_assert_not_null(find_after(t, "First error: NVIDIA Xid error", "No known gotcha"));
    cr_assert_not_null(find_after(t, "dmesg.log:1873", "First error"));
    cr_assert_not_null(find_after(t, "NVRM: Xid (PCI:000f:01:00): 79", "dmesg.log:1873"));
    cr_assert_not_null(find_after(t, "Fix: Xid 79: the GPU fell off the bus", "dmesg.log:1873"));
    cr_assert_null(strstr(t, "G4  Thermal"));
    free(t);
}

Test(report, text_compact_timeline_caps_events_and_verbose_shows_all)
{
    struct corr_result r;
    build_g4(&r);
    size_t n = 0;
    for (; n < 30; n++)
        timeline[n] = event(at(13, 10, (unsigned)n), "train.log", 100 + n, "step logged",
                            n == 17 ? "G4" : NULL);
    r.nevents = n;
    struct report_options compact = opts(0, 0, 0), verbose = opts(0, 0, 1);
    char *t = render(REPORT_TEXT, &r, &compact);
    cr_assert_not_null(strstr(t, "\xe2\x80\xa6 18 more events"), "%s", t);
    cr_assert_not_null(strstr(t, "13:10:17"), "an event backing the verdict is kept");
    cr_assert_not_null(strstr(t, "13:10:29"), "the last event is kept");
    free(t);
    t = render(REPORT_TEXT, &r, &verbose);
    cr_assert_null(strstr(t, "more events"));
    cr_assert_not_null(strstr(t, "13:10:28"));
    free(t);
}

Test(report, text_compact_timeline_leaves_background_facts_to_verbose)
{
    struct corr_result r;
    build_g4(&r);
    timeline[1].background = 1; /* e.g. "CTX.gpu GPU is a GB10": true, but not the story */
    struct report_options compact = opts(0, 0, 0), verbose = opts(0, 0, 1);
    const char *label = timeline[1].label;
    char *t = render(REPORT_TEXT, &r, &compact);
    cr_assert_null(strstr(t, label), "%s", t);
    cr_assert_not_null(strstr(t, "1 more event (--verbose"), "%s", t);
    free(t);
    t = render(REPORT_TEXT, &r, &verbose);
    cr_assert_not_null(strstr(t, label));
    free(t);
    timeline[1].background = 0;
}

/* The path column is as wide as its widest entry, lane included: every label starts in the same
 * column, whether or not its row names a lane (the lane's width was once read before the lane was
 * sanitized into the buffer it was measured from, so the column depended on evaluation order). */
Test(report, text_timeline_labels_align_when_a_lane_is_shown)
{
    struct corr_result r;
    build_g4(&r);
    r.nevents = 3;
    timeline[0] = event(at(13, 10, 0), "train.log", 1, "training starts", NULL);
    timeline[1] = event(at(13, 10, 1), "train.log", 2, "LABEL-WITH-LANE", "G4");
    timeline[1].lane = S("rank1");
    timeline[2] = event(at(13, 10, 2), "gpu.csv.gz", 3, "LABEL-NO-LANE", NULL);
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_TEXT, &r, &o);
    const char *with = strstr(t, "LABEL-WITH-LANE"), *without = strstr(t, "LABEL-NO-LANE");
    cr_assert(with && without, "%s", t);
    const char *l1 = with, *l2 = without;
    while (l1 > t && l1[-1] != '\n') l1--;
    while (l2 > t && l2[-1] != '\n') l2--;
    cr_assert_eq(with - l1, without - l2, "labels in one column:\n%s", t);
    cr_assert_not_null(strstr(t, "train.log [rank1]  LABEL-WITH-LANE"), "%s", t);
    free(t);
}

Test(report, text_names_the_shared_directory_once)
{
    /* gotcha scan runs/job42/: every input under one directory, as in the mock's "gpu.csv.gz:201"
     */
    struct corr_result r;
    build_g4(&r);
    const char *names[] = {"runs/job42/gpu.csv.gz", "runs/job42/train.log",
                           "runs/job42/nvidia-smi.txt"};
    for (size_t i = 0; i < r.ninputs && i < 3; i++) r.inputs[i].path = S(names[i]);
    for (size_t i = 0; i < r.findings[0].nevidence; i++) {
        char *p = az_xasprintf("runs/job42/%s", r.findings[0].evidence[i].path);
        r.findings[0].evidence[i].path = S(p); /* the pool frees it at teardown */
        free(p);
    }
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_TEXT, &r, &o);
    cr_assert_not_null(strstr(t, "3 inputs in runs/job42/"), "%s", t);
    cr_assert_not_null(strstr(t, "    gpu.csv.gz:201"), "%s", t);
    cr_assert_null(strstr(t, "runs/job42/gpu.csv.gz"), "%s", t);
    free(t);
    /* JSON keeps whole paths: it is read by programs */
    t = render(REPORT_JSON, &r, &o);
    cr_assert_not_null(strstr(t, "\"runs/job42/gpu.csv.gz\""));
    free(t);
}

Test(report, text_keeps_paths_whole_without_a_shared_directory)
{
    struct corr_result r;
    build_g4(&r); /* inputs gpu.csv.gz, train.log, nvidia-smi.txt: nothing shared */
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_TEXT, &r, &o);
    cr_assert_null(strstr(t, " inputs in "), "%s", t);
    cr_assert_not_null(strstr(t, "gpu.csv.gz:201"), "%s", t);
    free(t);
}

Test(report, text_stacks_evidence_when_paths_leave_no_room_and_keeps_file_names)
{
    struct corr_result r;
    build_g4(&r);
    g4_ev[0].path = S("runs/2026-05-12/job-48213/node-a/telemetry/gpu-samples.csv.gz");
    g4_ev[0].note = S("power plateau near 100 W begins");
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_TEXT, &r, &o);
    /* the path is cut at its start so the file name and line stay */
    cr_assert_not_null(strstr(t,
                              "/gpu-samples.csv.gz:201  13:21:03  power plateau near 100 W begins\n"
                              "      2026/05/12 13:21:03.000, 104.72 W, 67, 2511 MHz, 97 %\n"),
                       "%s", t);
    cr_assert_not_null(strstr(t, "    \xe2\x80\xa6"));
    free(t);
}

/* ---- determinism ---- */

Test(report, every_format_is_byte_identical_twice)
{
    struct corr_result r;
    build_g4(&r);
    struct report_options o = opts(0, 1, 1);
    for (int f = 0; f < REPORT_FORMAT_COUNT; f++) {
        char *a = render((enum report_format)f, &r, &o), *b = render((enum report_format)f, &r, &o);
        cr_assert_gt(strlen(a), 100, "format %s is empty",
                     report_format_name((enum report_format)f));
        cr_assert_str_eq(a, b, "format %s differs", report_format_name((enum report_format)f));
        free(a);
        free(b);
    }
}

Test(report, write_error_is_reported)
{
    struct corr_result r;
    build_g4(&r);
    FILE *ro = fopen("/dev/null", "r");
    cr_assert_not_null(ro);
    cr_assert_eq(report_write(ro, REPORT_TEXT, &r, NULL, NULL), AZ_FAIL);
    fclose(ro);
}

/* ---- json ---- */

static json_t *parse(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, 0, &err);
    cr_assert_not_null(j, "line %d: %s", err.line, err.text);
    return j;
}

Test(report, json_has_the_documented_fields)
{
    struct corr_result r;
    build_g4(&r);
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_JSON, &r, &o);
    json_t *j = parse(t);
    cr_assert_str_eq(json_string_value(json_object_get(j, "schema")), "gotcha.report/1");
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "tool"), "name")),
                     "gotcha");
    json_t *v = json_object_get(j, "verdict");
    cr_assert_str_eq(json_string_value(json_object_get(v, "id")), "G4");
    cr_assert_str_eq(json_string_value(json_object_get(v, "title")), "Thermal throttling");
    cr_assert_float_eq(json_real_value(json_object_get(v, "confidence")), 0.91, 1e-12);
    json_t *fs = json_object_get(j, "findings");
    cr_assert_eq(json_array_size(fs), 2);
    double prev = 2;
    for (size_t i = 0; i < json_array_size(fs); i++) {
        double c = json_real_value(json_object_get(json_array_get(fs, i), "confidence"));
        cr_assert_leq(c, prev, "findings sorted by confidence");
        prev = c;
    }
    json_t *e0 = json_array_get(json_object_get(json_array_get(fs, 0), "evidence"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(e0, "path")), "gpu.csv.gz");
    cr_assert_eq(json_integer_value(json_object_get(e0, "line")), 201);
    cr_assert_str_eq(json_string_value(json_object_get(e0, "time")), "2026-05-12T13:21:03");
    json_t *e3 = json_array_get(json_object_get(json_array_get(fs, 0), "evidence"), 3);
    cr_assert_str_eq(json_string_value(json_object_get(e3, "signature")), "G4.sw-thermal-slowdown");
    cr_assert(json_is_null(json_object_get(j, "first_error")));
    cr_assert_eq(json_array_size(json_object_get(j, "timeline")), 6);
    cr_assert_str_eq(json_string_value(
                         json_object_get(json_array_get(json_object_get(j, "ruled_out"), 0), "id")),
                     "G3");
    cr_assert_eq(json_integer_value(
                     json_object_get(json_array_get(json_object_get(j, "inputs"), 1), "records")),
                 46880);
    cr_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(j, "skipped"), 0), "reason")),
                     "binary file");
    json_t *ctx = json_object_get(j, "context");
    cr_assert_str_eq(json_string_value(json_object_get(ctx, "gpu")), "NVIDIA GB10");
    cr_assert(json_is_true(json_object_get(ctx, "container")));
    json_t *span = json_object_get(j, "span");
    cr_assert_str_eq(json_string_value(json_object_get(span, "start")), "2026-05-12T13:04:32");
    cr_assert_str_eq(json_string_value(json_object_get(span, "end")), "2026-05-12T14:53:43");
    /* plain decimals, not binary expansions: "0.91", never "0.91000000000000003" */
    cr_assert_not_null(strstr(t, "\"confidence\": 0.91,"), "%s", t);
    cr_assert_null(strstr(t, "0.9100000"));
    json_decref(j);
    free(t);
}

Test(report, json_without_verdict_has_first_error)
{
    struct corr_result r;
    build_none(&r);
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_JSON, &r, &o);
    json_t *j = parse(t);
    json_t *v = json_object_get(j, "verdict");
    cr_assert_str_eq(json_string_value(json_object_get(v, "id")), "none");
    cr_assert_str_eq(json_string_value(json_object_get(v, "fix")), e_xid.fix);
    json_t *fe = json_object_get(j, "first_error");
    cr_assert_str_eq(json_string_value(json_object_get(fe, "id")), "C.xid");
    cr_assert_eq(json_integer_value(json_object_get(fe, "line")), 1873);
    cr_assert_str_eq(json_string_value(json_object_get(fe, "time")), "2026-05-12T14:02:11");
    json_decref(j);
    free(t);
}

Test(report, json_times_of_every_kind_are_iso_or_boot_offsets)
{
    struct corr_result r;
    build_g4(&r);
    timeline[0].time =
        (struct az_time){az_usec_from_civil(2000, 11, 29, 10, 12, 55, 250000), AZ_TIME_NOYEAR};
    timeline[1].time = (struct az_time){12345678901LL, AZ_TIME_BOOT};
    timeline[2].time = (struct az_time){0, AZ_TIME_NONE};
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_JSON, &r, &o);
    json_t *j = parse(t), *tl = json_object_get(j, "timeline");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(tl, 0), "time")),
                     "--11-29T10:12:55.250");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(tl, 1), "time")),
                     "+12345.678901s");
    cr_assert(json_is_null(json_object_get(json_array_get(tl, 2), "time")));
    json_decref(j);
    free(t);
}

Test(report, json_keeps_invalid_utf8_and_controls_as_valid_json)
{
    struct corr_result r;
    build_g4(&r);
    g4_ev[0].text = S("bad \xff\xfe byte and ESC \x1b[2J");
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_JSON, &r, &o);
    json_t *j = parse(t);
    const char *text = json_string_value(json_object_get(
        json_array_get(
            json_object_get(json_array_get(json_object_get(j, "findings"), 0), "evidence"), 0),
        "text"));
    cr_assert_str_eq(text, "bad \\xff\\xfe byte and ESC \x1b[2J");
    cr_assert_null(strchr(t, '\x1b'), "the control is escaped as \\u001b in the JSON text");
    json_decref(j);
    free(t);
}

static const char *top_dir(void)
{
    const char *top = getenv("GOTCHA_TOP");
    return top && top[0] ? top : ".";
}

/* Run tests/tools/validate_schema.py on a document; its exit status, or -1 without python3. */
static int validate(const char *doc)
{
    if (system("command -v python3 >/dev/null 2>&1") != 0) return -1;
    char path[] = "/tmp/gotcha-report-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(doc, f);
    fclose(f);
    char *cmd = az_xasprintf("python3 %s/tests/tools/validate_schema.py %s/docs/report.schema.json "
                             "%s >/dev/null 2>&1",
                             top_dir(), top_dir(), path);
    int st = system(cmd);
    free(cmd);
    unlink(path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 99;
}

Test(report, json_validates_against_the_schema)
{
    struct corr_result r;
    build_g4(&r);
    for (int verbose = 0; verbose <= 1; verbose++) {
        struct report_options o = opts(0, verbose, verbose);
        char *t = render(REPORT_JSON, &r, &o);
        int st = validate(t);
        if (st == -1) cr_skip_test("python3 not installed");
        cr_assert_eq(st, 0, "schema validation failed for:\n%s", t);
        free(t);
    }
    build_none(&r);
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_JSON, &r, &o);
    cr_assert_eq(validate(t), 0, "%s", t);
    free(t);
}

Test(report, schema_rejects_a_bad_verdict_id)
{
    struct corr_result r;
    build_g4(&r);
    struct match_entry bad = e_g4;
    bad.id = "G11";
    r.verdict = &bad;
    findings[0].entry = &bad;
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_JSON, &r, &o);
    int st = validate(t);
    if (st == -1) cr_skip_test("python3 not installed");
    cr_assert_eq(st, 1, "the validator must reject verdict id G11");
    free(t);
}

/* ---- sanitizer ---- */

/* A log line written to attack a terminal: clear screen, set the title (OSC ... BEL), hidden
 * text (SGR 8), cursor moves, an 8-bit CSI (0x9b), backspaces and a carriage return that would
 * overwrite what came before, and a right-to-left override (U+202E). */
static const char hostile[] = "ok \x1b[2J\x1b]0;pwned\x07\x1b[8mhidden\x1b[0m\x1b[5A\x1b[10;1H"
                              "\x9b"
                              "31m c1\xc2\x9b"
                              "2J bs\x08\x08\x08 cr\rFAKE rtl\xe2\x80\xae"
                              "gnp.exe DEL\x7f";

static const void *mem_find(const char *hay, size_t len, const char *needle, size_t nlen)
{
    for (size_t i = 0; i + nlen <= len; i++)
        if (memcmp(hay + i, needle, nlen) == 0) return hay + i;
    return NULL;
}

static void assert_terminal_safe(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        cr_assert(ch == '\n' || ch == '\t' || (ch >= 0x20 && ch != 0x7f),
                  "control byte 0x%02x at %zu", ch, i);
    }
    cr_assert_null(mem_find(s, len, "\xc2\x9b", 2), "C1 CSI as UTF-8");
    cr_assert_null(mem_find(s, len, "\xe2\x80\xae", 3), "bidi override");
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x80) continue;
        cr_assert(ch >= 0xc2 && ch <= 0xf4, "stray byte 0x%02x", ch); /* crude UTF-8 check */
        size_t n = ch >= 0xf0 ? 4 : ch >= 0xe0 ? 3 : 2;
        for (size_t k = 1; k < n; k++)
            cr_assert(i + k < len && ((unsigned char)s[i + k] & 0xc0) == 0x80);
        i += n - 1;
    }
}

Test(report, sanitizer_neutralises_a_hostile_line)
{
    struct az_buf b = AZ_BUF_INIT;
    report_sanitize_terminal(&b, hostile, sizeof hostile - 1);
    assert_terminal_safe(b.data, b.len);
    cr_assert_null(strchr(b.data, '\n'));
    cr_assert_not_null(strstr(b.data, "\\x1b[2J"), "%s", b.data);
    cr_assert_not_null(strstr(b.data, "\\x1b]0;pwned\\x07"));
    cr_assert_not_null(strstr(b.data, "\\x9b31m"));
    cr_assert_not_null(strstr(b.data, "\\u009b2J"));
    cr_assert_not_null(strstr(b.data, "bs\\x08\\x08\\x08"));
    cr_assert_not_null(strstr(b.data, "cr\\x0dFAKE"));
    cr_assert_not_null(strstr(b.data, "rtl\\u202egnp.exe"));
    cr_assert_not_null(strstr(b.data, "DEL\\x7f"));
    az_buf_free(&b);
}

Test(report, sanitizer_keeps_text_tabs_and_utf8)
{
    struct az_buf b = AZ_BUF_INIT;
    const char *s = "92 \xc2\xb0"
                    "C\t13:52 \xe2\x86\x92 14:53 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x94\xa5";
    report_sanitize_terminal(&b, s, strlen(s));
    cr_assert_str_eq(b.data, s);
    az_buf_reset(&b);
    /* invalid: a lone continuation, an overlong '/', a UTF-16 surrogate, a cut sequence, NUL */
    report_sanitize_terminal(&b, "a\x80 b\xc0\xaf c\xed\xa0\x80 d\xe2\x86\0e", 17);
    cr_assert_str_eq(b.data, "a\\x80 b\\xc0\\xaf c\\xed\\xa0\\x80 d\\xe2\\x86\\x00e");
    az_buf_free(&b);
}

Test(report, text_report_of_hostile_logs_is_terminal_safe)
{
    struct corr_result r;
    build_g4(&r);
    g4_ev[0].text = S(hostile);
    g4_ev[0].path = S("gpu\x1b[2J.csv");
    g4_ev[0].note = S(hostile);
    timeline[0].label = S(hostile);
    findings[0].summary = S(hostile);
    ruled[0].reason = S(hostile);
    struct report_options o = opts(0, 0, 1);
    for (int f = 0; f < REPORT_FORMAT_COUNT; f++) {
        if (f == REPORT_JSON) continue; /* JSON escapes controls as \u00XX itself */
        char *t = render((enum report_format)f, &r, &o);
        assert_terminal_safe(t, strlen(t));
        free(t);
    }
}

/* ---- redaction ---- */

/* s redacted with the names of hosts, plus those s itself teaches (as a report learns them). */
static char *redacted(const char *s, const char *const *hosts, size_t nhosts)
{
    struct report_names *nm = report_names_new(hosts, nhosts);
    report_names_learn(nm, s, strlen(s));
    struct az_buf b = AZ_BUF_INIT;
    report_redact(&b, s, strlen(s), nm);
    report_names_free(nm);
    az_buf_ensure(&b, 0);
    return az_buf_steal(&b);
}

static void assert_redacts(const char *line, const char *secret, const char *placeholder)
{
    char *out = redacted(line, NULL, 0);
    cr_assert_null(strstr(out, secret), "'%s' survived in: %s", secret, out);
    cr_assert_not_null(strstr(out, placeholder), "no %s in: %s", placeholder, out);
    free(out);
}

Test(report, redact_replaces_each_kind_of_secret)
{
    assert_redacts("export HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "hf_AbCdEf",
                   "<redacted>");
    assert_redacts("login with hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 ok", "hf_AbCdEf",
                   "<redacted>");
    assert_redacts("OPENAI key sk-AbCdEfGhIjKlMnOpQrStT3BlbkFJAbCdEfGhIjKlMnOpQrSt", "sk-AbCd",
                   "<redacted>");
    assert_redacts("key=sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56-_Qr", "Ab12Cd34", "<redacted>");
    assert_redacts("aws AKIAIOSFODNN7EXAMPLE used", "AKIAIOSFODNN7EXAMPLE", "<redacted>");
    assert_redacts("temp ASIAY34FZKBOKMUTVV7A.", "ASIAY34FZKBOKMUTVV7A", "<redacted>");
    assert_redacts("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtn",
                   "<redacted>");
    assert_redacts("git clone https://ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/x",
                   "ghp_16C7", "<redacted>");
    assert_redacts("GH github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz012345",
                   "github_pat_11", "<redacted>");
    assert_redacts("db password=hunter2 host=db", "hunter2", "<redacted>");
    assert_redacts("  password: \"correct horse\"", "correct horse", "<redacted>");
    assert_redacts("{\"api_key\": \"a1b2c3d4e5\"}", "a1b2c3d4e5", "<redacted>");
    assert_redacts("huggingface-cli login --token abcdefABCDEF123456", "abcdefABCDEF",
                   "<redacted>");
    assert_redacts("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "eyJhbGci",
                   "<redacted>");
    assert_redacts("NCCL INFO NET/Socket : Using [0]enP7s7:192.168.100.11<0>", "192.168.100.11",
                   "<ip>");
    assert_redacts("peer 10.0.0.2:29500 connected", "10.0.0.2", "<ip>");
    assert_redacts("addr fe80::1c2b:3cff:fe4d:5e6f%enp1s0", "fe80::1c2b", "<ip>");
    assert_redacts("addr 2001:0db8:85a3:0000:0000:8a2e:0370:7334 up", "2001:0db8", "<ip>");
    assert_redacts("mapped ::ffff:10.1.2.3 ok", "10.1.2.3", "<ip>");
    assert_redacts("link/ether 4c:bb:47:0a:1b:2c brd ff:ff:ff:ff:ff:ff", "4c:bb:47", "<mac>");
    assert_redacts("HWaddr 4C-BB-47-0A-1B-2C", "4C-BB-47", "<mac>");
    assert_redacts("File \"/home/alice/venv/lib/python3.12/site-packages/torch/x.py\"", "alice",
                   "/home/<user-1>/venv");
    assert_redacts("/Users/bob/runs/train.log", "bob", "/Users/<user-1>/runs");
}

/* Identities by their context (issue 21): user names after "user=" (pam_unix's "authentication
 * failure; logname=%s uid=%d euid=%d tty=%s ruser=%s rhost=%s  user=%s", linux-pam v1.7.2
 * modules/pam_unix/support.c; Slurm's UserId), in OpenSSH's "%s %s%s%s for %s%.100s from %.200s
 * port %d ssh2%s%s" (openssh-portable 0ef0f5a auth.c: Accepted/Failed, the method, "invalid
 * user ") and pam_unix's "session opened for user %s(uid=%s) by %s(uid=%lu)" (pam_unix_sess.c),
 * e-mail addresses, FQDNs of the run's machines, credentials and hosts of URLs; public sites (a
 * pip index, the model hub) are kept. */
Test(report, redact_replaces_users_emails_and_fqdns_by_their_context)
{
    assert_redacts("pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 "
                   "tty=ssh ruser= rhost=10.0.0.5  user=alice",
                   "alice", "logname= uid=0 euid=0 tty=ssh ruser= rhost=<ip>  user=<user-1>");
    assert_redacts("sshd[812]: Accepted publickey for alice from 10.0.0.5 port 52144 ssh2: "
                   "ED25519 SHA256:Qm9vYmFy",
                   "alice", "Accepted publickey for <user-1> from <ip> port");
    assert_redacts("pam_unix(sshd:session): session opened for user alice(uid=1000) by (uid=0)",
                   "alice", "for user <user-1>(uid=1000)");
    assert_redacts("JobId=42 JobName=train UserId=alice(1000) GroupId=alice(1000)", "alice",
                   "UserId=<user-1>(1000)");
    assert_redacts("sshd[901]: Failed password for invalid user bob from 10.0.0.9 port 4242 ssh2",
                   "bob", "for invalid user <user> from <ip>");
    assert_redacts("sshd[902]: Accepted keyboard-interactive/pam for carol from 10.0.0.9 port 1 "
                   "ssh2",
                   "carol", "pam for <user-1> from");
    assert_redacts("su: pam_unix(su:session): session opened for user root(uid=0) by "
                   "alice(uid=1000)",
                   "alice", "for user root(uid=0) by <user-1>(uid=1000)");
    assert_redacts("uid=1000(alice) gid=1000(alice) groups=1000(alice),27(sudo)", "alice",
                   "uid=1000(<user-1>) gid=1000(<user-1>)");
    assert_redacts("mail sent to alice@example.com and bob.smith+ml@corp.example.com", "example",
                   "to <email> and <email>");
    assert_redacts("resolved spark-dgx01.corp.example.com in 2 ms", "corp.example", "<host-1>");
    assert_redacts("NCCL INFO Bootstrap : Using spark-dgx01.corp.example.com<0>", "spark-dgx01",
                   "Using <host-1><0>");
    assert_redacts("pip download https://alice:s3cr3tpass@pypi.corp.example.com/simple/torch/",
                   "s3cr3tpass", "https://<redacted>@<host>/simple");
    assert_redacts("curl http://bob:hunter22@10.1.2.3:8000/v1/models", "hunter22",
                   "http://<redacted>@<ip>:8000");
}

/* A name learnt in one place is replaced wherever it appears, by the same placeholder: the user
 * of a home directory in sudo's own line, the machine of an FQDN inside file and member names. */
Test(report, redact_is_consistent_across_places)
{
    char *out = redacted("sudo: alice : TTY=pts/0 ; PWD=/home/alice/runs ; USER=root ; "
                         "COMMAND=/usr/bin/nvidia-smi",
                         NULL, 0);
    cr_assert_null(strstr(out, "alice"), "%s", out);
    cr_assert_not_null(strstr(out, "sudo: <user-1> : TTY"), "%s", out);
    cr_assert_not_null(strstr(out, "USER=root"), "a system account is kept: %s", out);
    free(out);
    out = redacted("host spark-dgx01.corp.example.com; job42-spark-dgx01/dmesg-spark-dgx01.txt; "
                   "bundle.tar.zst:job42-spark-dgx01/train.log",
                   NULL, 0);
    cr_assert_str_eq(out, "host <host-1>; job42-<host-1>/dmesg-<host-1>.txt; "
                          "bundle.tar.zst:job42-<host-1>/train.log");
    free(out);
    /* a timeline label the correlator cut at 72 bytes ends in "...": a name cut there is still
     * that name (timeline.c snippet()) */
    const char *known[] = {"spark-dgx01"};
    out = redacted("stderr: INFO job by alice@exam...", known, 1);
    cr_assert_str_eq(out, "stderr: INFO job by <email>...");
    free(out);
    out = redacted("kernel: May 12 13:01:07 spark-dg...", known, 1);
    cr_assert_str_eq(out, "kernel: May 12 13:01:07 <host-1>...");
    free(out);
    /* "..." cuts only at the end of a label; a version is no host, nor learnt from a cut one */
    out = redacted("train: resolved node7.corp.exa... pip: nvidia-cublas-cu12-12.8.4...", NULL, 0);
    cr_assert_str_eq(out, "train: resolved node7.corp.exa... pip: nvidia-cublas-cu12-12.8.4...");
    free(out);
    out = redacted("train: resolved node7.corp.exa...", NULL, 0);
    cr_assert_str_eq(out, "train: resolved <host>...");
    free(out);
    /* two machines, numbered by name: each keeps its own */
    const char *hosts[] = {"spark-b", "spark-a.lan"};
    out = redacted("spark-a:1:1 [0] NCCL INFO; spark-b:2:2 [0] NCCL INFO; spark-a again", hosts, 2);
    cr_assert_str_eq(out, "<host-1>:1:1 [0] NCCL INFO; <host-2>:2:2 [0] NCCL INFO; <host-1> again");
    free(out);
}

Test(report, redact_keeps_public_sites_and_code)
{
    static const char *const keep[] = {
        "Looking in indexes: https://pypi.org/simple, https://pypi.ngc.nvidia.com",
        "Downloading https://download.pytorch.org/whl/cu130/torch-2.9.0%2Bcu130-cp312.whl",
        "Training completed. Do not forget to share your model on huggingface.co/models =)",
        "    logger.info(\"step %d\", step)  # self.model.net np.int torch.nn.functional",
        "user=root uid=0 user: 5 users; Invalid user admin from",
    };
    for (size_t i = 0; i < AZ_ARRAY_LEN(keep); i++) {
        char *out = redacted(keep[i], NULL, 0);
        cr_expect_str_eq(out, keep[i]);
        free(out);
    }
}

Test(report, redact_takes_a_four_part_version_for_an_address_as_documented)
{
    /* docs/report.md: "2.9.0.1" cannot be told from an IPv4; the ambiguity is accepted. */
    char *out = redacted("driver 2.9.0.1 and 2.9.0.1.5", NULL, 0);
    cr_assert_str_eq(out, "driver <ip> and 2.9.0.1.5");
    free(out);
}

Test(report, redact_applies_to_every_input_string_in_every_format)
{
    struct corr_result r;
    build_g4(&r);
    char *hosts[] = {S("spark-node7")};
    r.hosts = hosts;
    r.nhosts = 1;
    g4_ev[0].text =
        S("spark-node7 NCCL INFO Using 192.168.7.21 hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789");
    g4_ev[0].path = S("/home/carol/runs/gpu.csv.gz");
    g4_ev[0].lane = S("spark-node7");
    g4_ev[0].note = S("on spark-node7");
    timeline[2].label = S("plateau on spark-node7");
    timeline[2].lane = S("spark-node7");
    timeline[2].path = S("/home/carol/runs/gpu.csv.gz");
    findings[0].summary = S("power of spark-node7 (192.168.7.21) held at 100 W");
    inputs[0].path = S("/home/carol/runs/gpu.csv.gz");
    series[0].path = S("/home/carol/runs/gpu.csv.gz");
    ruled[0].reason = S("no OOM on spark-node7");
    struct report_options on = opts(0, 1, 1), off = opts(0, 0, 1);
    for (int f = 0; f < REPORT_FORMAT_COUNT; f++) {
        char *t = render((enum report_format)f, &r, &on);
        const char *name = report_format_name((enum report_format)f);
        cr_assert_null(strstr(t, "spark-node7"), "%s: host survived", name);
        cr_assert_null(strstr(t, "carol"), "%s: user survived", name);
        cr_assert_null(strstr(t, "192.168.7.21"), "%s: address survived", name);
        cr_assert_null(strstr(t, "hf_AbCd"), "%s: token survived", name);
        free(t);
        t = render((enum report_format)f, &r, &off);
        if (f != REPORT_PREFLIGHT)
            cr_assert_not_null(strstr(t, "spark-node7"), "%s: redacted without asking", name);
        free(t);
    }
}

/* ---- markdown ---- */

/* Longest run of backticks in s. */
static size_t backtick_run(const char *s)
{
    size_t best = 0, run = 0;
    for (; *s; s++) {
        run = *s == '`' ? run + 1 : 0;
        best = run > best ? run : best;
    }
    return best;
}

Test(report, md_has_table_verdict_and_details)
{
    struct corr_result r;
    build_g4(&r);
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_MD, &r, &o);
    cr_assert(az_starts_with(t, strlen(t), "## gotcha: G4 Thermal throttling\n"), "%s", t);
    cr_assert_not_null(strstr(t, "| **Verdict** | G4 \xe2\x80\x94 Thermal throttling |"));
    cr_assert_not_null(strstr(t, "| **Confidence** | 0.91 |"));
    cr_assert_not_null(strstr(t, "**Fix:** "));
    cr_assert_not_null(strstr(t, "```text\ngpu.csv.gz:201     13:21:03  2026/05/12 13:21:03.000"));
    cr_assert_not_null(strstr(t, "<details><summary>Timeline (6 events)</summary>"));
    cr_assert_not_null(strstr(t, "<details><summary>Inputs (3)</summary>"));
    free(t);
}

Test(report, md_fence_outruns_backticks_in_log_text)
{
    struct corr_result r;
    build_g4(&r);
    g4_ev[1].text = S("code ````` end ``` more ``");
    findings[0].summary = S("summary with `ticks` and </details> and | pipes");
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_MD, &r, &o);
    const char *text = strstr(t, "code ````` end");
    cr_assert_not_null(text);
    /* the opening fence of the block holding that line */
    const char *open = NULL;
    for (const char *p = t; p < text; p++)
        if ((p == t || p[-1] == '\n') && *p == '`') open = p;
    cr_assert_not_null(open);
    size_t n = 0;
    while (open[n] == '`') n++;
    cr_assert_gt(n, backtick_run(g4_ev[1].text), "fence of %zu backticks cannot hold the line", n);
    /* and the block closes with the same fence after the line */
    char *close = az_xasprintf("\n%.*s\n", (int)n, open);
    cr_assert_not_null(strstr(text, close));
    free(close);
    cr_assert_null(strstr(t, "</details> and"), "inline text cannot close a <details>");
    cr_assert_not_null(strstr(t, "&lt;/details&gt; and \\| pipes"));
    free(t);
}

/* ---- html ---- */

Test(report, html_escapes_log_text_and_stays_self_contained)
{
    struct corr_result r;
    build_g4(&r);
    g4_ev[0].text = S("<script>alert(1)</script> & \"quoted\" 'single'");
    timeline[1].label = S("<img src=x onerror=alert(1)>");
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_HTML, &r, &o);
    cr_assert(az_starts_with(t, strlen(t), "<!DOCTYPE html>"));
    cr_assert_null(strstr(t, "<script"), "no script element at all");
    cr_assert_null(strstr(t, "<img"));
    cr_assert_not_null(strstr(
        t, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39;"));
    cr_assert_null(strstr(t, "http:"));
    cr_assert_null(strstr(t, "https:"));
    cr_assert_not_null(strstr(t, "&lt;img src=x onerror=alert(1)&gt;"));
    cr_assert_not_null(strstr(t, "Content-Security-Policy"));
    free(t);
}

Test(report, html_draws_timeline_and_series_with_cap_plateau_and_drop)
{
    struct corr_result r;
    build_g4(&r);
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_HTML, &r, &o);
    cr_assert_not_null(strstr(t, "aria-label=\"timeline of the run's events\""));
    cr_assert_null(strstr(t, " src="), "nothing to fetch");
    cr_assert_null(strstr(t, " href="));
    cr_assert_eq(strstr(t, "<circle class=\"ev verdict\"") != NULL, 1, "verdict events marked");
    cr_assert_not_null(strstr(t, "<line class=\"cap\""), "the ~100 W line");
    cr_assert_not_null(strstr(t, "~100 W: GB10 sustained power cap"));
    /* the plateau is shaded in the power chart and in the temperature chart */
    const char *power = strstr(t, "aria-label=\"power.draw over time\"");
    const char *temp = strstr(t, "aria-label=\"temperature.gpu over time\"");
    const char *tput = strstr(t, "aria-label=\"throughput over time\"");
    cr_assert(power && temp && tput && power < temp && temp < tput);
    cr_assert(find_after(power, "class=\"plateau\"", "") < temp);
    cr_assert(find_after(temp, "class=\"plateau\"", "") < tput);
    cr_assert_not_null(find_after(tput, "<line class=\"mark\"", ""), "the throughput drop marked");
    cr_assert_not_null(find_after(tput,
                                  "throughput \xe2\x88\x92"
                                  "41 %",
                                  "class=\"mark\""));
    free(t);
}

Test(report, html_draws_memory_against_128_gb)
{
    struct corr_result r;
    build_g4(&r);
    static struct corr_point mem[3] = {{0, 20480}, {600, 98304}, {1200, 120832}};
    series[1] =
        (struct corr_series){S("memory.used"), S("MiB"), S("free.log"), S(""), 3, mem, NAN, S("")};
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_HTML, &r, &o);
    const char *chart = strstr(t, "aria-label=\"memory.used over time\"");
    cr_assert_not_null(chart, "%s", t);
    cr_assert_not_null(find_after(chart, "128 GB unified memory", ""));
    free(t);
}

/* ---- preflight ---- */

Test(report, preflight_has_ten_lines_in_the_skill_format)
{
    struct corr_result r;
    build_g4(&r);
    findings[1].summary = S("two\nG2 PASS: forged line");
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_PREFLIGHT, &r, &o);
    regex_t re;
    cr_assert_eq(regcomp(&re, "^G([1-9]|10) (PASS|FAIL|WARN|SKIP|INFO|UNKNOWN): ", REG_EXTENDED),
                 0);
    size_t lines = 0;
    char *save = NULL;
    char *copy = az_xstrdup(t);
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char want[8];
        snprintf(want, sizeof want, "G%zu ", lines + 1);
        cr_assert(az_starts_with(line, strlen(line), want), "line %zu: %s", lines + 1, line);
        cr_assert_eq(regexec(&re, line, 0, NULL, 0), 0, "bad line: %s", line);
        lines++;
    }
    cr_assert_eq(lines, 10, "%s", t);
    cr_assert_not_null(strstr(t, "\nG4 FAIL: Power held at 95"), "%s", t);
    cr_assert_not_null(strstr(t, "(confidence 0.91; gpu.csv.gz:201)\n"));
    cr_assert_not_null(strstr(t, "\nG6 WARN: two\\x0aG2 PASS: forged line (confidence 0.12"), "%s",
                       t);
    cr_assert_not_null(strstr(t, "\nG3 PASS: no OOM anywhere\n"));
    cr_assert_not_null(strstr(t, "\nG7 SKIP: no evidence in the inputs\n"));
    cr_assert(az_starts_with(t, strlen(t), "G1 SKIP: "));
    regfree(&re);
    free(copy);
    free(t);
}

Test(report, preflight_fails_a_confident_finding_that_is_not_the_verdict)
{
    struct corr_result r;
    build_none(&r);
    findings[1].confidence = 0.62;
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_PREFLIGHT, &r, &o);
    cr_assert_not_null(strstr(t, "\nG6 FAIL: "), "%s", t);
    cr_assert_null(strstr(t, "G4 FAIL"));
    free(t);
}

/* A catalogue fault code as the first error: the title names the code, the fix is the code's
 * action, JSON carries code, severity, action and the collapsed repeats. */
static struct match_catalogue cat_xid = {"xid", "Xid", "NVIDIA Xid", "C.xid", "test", 0, NULL};
static struct match_code code79 = {&cat_xid,
                                   79,
                                   "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS",
                                   "GPU has fallen off the bus",
                                   "the GPU no longer answers on PCIe",
                                   "fatal",
                                   "RESTART_BM",
                                   "Reboot the node.",
                                   "C.xid.79"};

static void build_none_code(struct corr_result *r, struct match_sig *sig, struct corr_code_seen *s)
{
    build_none(r);
    *sig = (struct match_sig){.id = "C.xid.79",
                              .entry = &e_xid,
                              .strength = MATCH_DECISIVE,
                              .regex = "",
                              .summary = "Xid 79: GPU has fallen off the bus",
                              .note = "",
                              .code = &code79,
                              .severity = "fatal"};
    xid_ev.sig = sig;
    *s = (struct corr_code_seen){&code79, 3, at(14, 2, 11), at(14, 2, 13)};
    r->codes = s;
    r->ncodes = 1;
}

Test(report, first_error_code_is_named_with_its_action)
{
    struct corr_result r;
    struct match_sig sig;
    struct corr_code_seen seen;
    build_none_code(&r, &sig, &seen);
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_TEXT, &r, &o);
    cr_assert_not_null(find_after(t, "First error: Xid 79: GPU has fallen off the bus", "No known"),
                       "%s", t);
    cr_assert_not_null(find_after(t, "Fix: Reboot the node.", "First error"), "%s", t);
    cr_assert_not_null(find_after(t,
                                  "Seen: Xid 79 \xc3\x97"
                                  "3 (14:02:11 \xe2\x86\x92 14:02:13)",
                                  "Fix:"),
                       "%s", t);
    cr_assert_not_null(strstr(t, "More: gotcha explain xid:79"), "%s", t);
    free(t);
    t = render(REPORT_JSON, &r, &o);
    json_t *j = parse(t);
    json_t *fe = json_object_get(j, "first_error");
    cr_assert_str_eq(json_string_value(json_object_get(fe, "title")),
                     "Xid 79: GPU has fallen off the bus");
    cr_assert_str_eq(json_string_value(json_object_get(fe, "fix")), "Reboot the node.");
    cr_assert_str_eq(json_string_value(json_object_get(fe, "catalogue")), "xid");
    cr_assert_eq(json_integer_value(json_object_get(fe, "code")), 79);
    cr_assert_str_eq(json_string_value(json_object_get(fe, "severity")), "fatal");
    cr_assert_str_eq(json_string_value(json_object_get(fe, "action")), "RESTART_BM");
    cr_assert_eq(json_integer_value(json_object_get(fe, "count")), 3);
    cr_assert_str_eq(json_string_value(json_object_get(fe, "last_time")), "2026-05-12T14:02:13");
    json_t *fc = json_object_get(j, "fault_codes");
    cr_assert_eq(json_array_size(fc), 1);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(fc, 0), "name")),
                     "GPU has fallen off the bus");
    json_decref(j);
    int st = validate(t);
    if (st != -1) cr_assert_eq(st, 0, "schema validation failed for:\n%s", t);
    free(t);
}

/* ---- the outcome in every format ---- */

/* A run that died of an Xid (no gotcha) is drawn as failed: never a green badge or box. */
Test(report, a_failed_run_without_a_verdict_is_never_drawn_healthy)
{
    struct corr_result r;
    build_none(&r);
    r.outcome = CORR_OUTCOME_FAILED;
    r.outcome_at = &xid_ev;
    struct report_options o = opts(0, 0, 0);
    char *t = render(REPORT_TEXT, &r, &o);
    cr_assert_not_null(strstr(t, "\noutcome: failed (first error at dmesg.log:1873)\n"), "%s", t);
    free(t);
    char *html = render(REPORT_HTML, &r, &o);
    cr_assert_not_null(strstr(html, "<span class=\"outcome failed\">run failed</span>"), "%s",
                       html);
    cr_assert_not_null(strstr(html, "<span class=\"id none failed\">none</span>"));
    cr_assert_not_null(strstr(html, "<section class=\"verdict none failed\">"));
    cr_assert_null(strstr(html, "none completed"), "no healthy colour for a failed run");
    free(html);
    char *md = render(REPORT_MD, &r, &o);
    cr_assert_not_null(
        strstr(md, "| **Outcome** | **failed** \xe2\x80\x94 first error at dmesg.log:1873 |"), "%s",
        md);
    free(md);
    char *js = render(REPORT_JSON, &r, &o);
    json_error_t jerr;
    json_t *root = json_loads(js, 0, &jerr);
    cr_assert_not_null(root, "%s", jerr.text);
    cr_assert_str_eq(json_string_value(json_object_get(root, "outcome")), "failed");
    json_t *at = json_object_get(root, "outcome_at");
    cr_assert_eq(json_integer_value(json_object_get(at, "line")), 1873);
    /* right after "tool": the first thing a program reads after who wrote the report */
    cr_assert_lt(strstr(js, "\"tool\""), strstr(js, "\"outcome\""));
    cr_assert_lt(strstr(js, "\"outcome\""), strstr(js, "\"verdict\""));
    json_decref(root);
    free(js);
}

Test(report, a_completed_run_is_green_and_an_unknown_one_grey)
{
    struct corr_result r;
    build_none(&r);
    r.first_error = NULL;
    r.first_error_entry = NULL;
    r.outcome = CORR_OUTCOME_COMPLETED;
    struct corr_evidence end = ev("train.log", 144, at(14, 53, 0),
                                  "{'train_runtime': 9477.845, 'train_loss': 0.98133}", NULL, "");
    r.outcome_at = &end;
    struct report_options o = opts(0, 0, 0);
    char *html = render(REPORT_HTML, &r, &o);
    cr_assert_not_null(strstr(html, "<span class=\"id none completed\">none</span>"), "%s", html);
    cr_assert_not_null(strstr(html, "<span class=\"outcome completed\">run completed</span>"));
    free(html);
    char *t = render(REPORT_TEXT, &r, &o);
    cr_assert_not_null(strstr(t, "\noutcome: completed (ended at train.log:144)\n"), "%s", t);
    free(t);
    r.outcome = CORR_OUTCOME_UNKNOWN;
    r.outcome_at = NULL;
    t = render(REPORT_TEXT, &r, &o);
    cr_assert_not_null(strstr(t, "\noutcome: unknown (no job log among the inputs)\n"), "%s", t);
    free(t);
    html = render(REPORT_HTML, &r, &o);
    cr_assert_not_null(strstr(html, "<span class=\"id none unknown\">none</span>"), "%s", html);
    free(html);
}

/* ---- chart axes over short spans ---- */

static struct corr_point short_pts[11];

/* The x-axis labels of the HTML's first series chart (y = CHART_H - 8 = 202.0), in order. */
static size_t chart_ticks(const char *html, char labels[][48], size_t max)
{
    const char *p = strstr(html, "<h2>Series</h2>");
    cr_assert_not_null(p, "a chart is drawn");
    const char *end = strstr(p, "</svg>");
    size_t n = 0;
    while (n < max && (p = strstr(p, " y=\"202.0\" text-anchor=\"")) && p < end) {
        p = strchr(p, '>') + 1;
        const char *q = strchr(p, '<');
        snprintf(labels[n++], 48, "%.*s", (int)(q - p), p);
    }
    return n;
}

static void short_series(struct corr_result *r, double span_s)
{
    build_g4(r);
    for (size_t i = 0; i < AZ_ARRAY_LEN(short_pts); i++)
        short_pts[i] = (struct corr_point){span_s * (double)i / 10.0, 90.0 + (double)(i % 3)};
    series[0].points = short_pts;
    series[0].npoints = AZ_ARRAY_LEN(short_pts);
    series[0].mark_t = NAN;
    r->nseries = 1;
    r->start = at(13, 4, 32);
}

/* A series over 2 s (ticks 0.4 s apart) and one over 300 ms: never one label on every tick. */
Test(report, chart_ticks_over_short_spans_read_seconds_or_milliseconds)
{
    struct corr_result r;
    struct report_options o = opts(0, 0, 0);
    char labels[8][48];
    short_series(&r, 2.0);
    char *html = render(REPORT_HTML, &r, &o);
    size_t n = chart_ticks(html, labels, 8);
    cr_assert_eq(n, 6, "%s", html);
    cr_assert_str_eq(labels[0], "13:04:32.000");
    cr_assert_str_eq(labels[1], "+0.4 s");
    cr_assert_str_eq(labels[5], "+2.0 s");
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++) cr_assert_str_neq(labels[i], labels[k]);
    free(html);

    short_series(&r, 0.3);
    html = render(REPORT_HTML, &r, &o);
    n = chart_ticks(html, labels, 8);
    cr_assert_eq(n, 6);
    cr_assert_str_eq(labels[1], "+60 ms");
    cr_assert_str_eq(labels[5], "+300 ms");
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++) cr_assert_str_neq(labels[i], labels[k]);
    free(html);

    /* a long span keeps clock times */
    short_series(&r, 600.0);
    html = render(REPORT_HTML, &r, &o);
    n = chart_ticks(html, labels, 8);
    cr_assert_eq(n, 6);
    cr_assert_str_eq(labels[0], "13:04:32");
    cr_assert_str_eq(labels[1], "13:06:32");
    free(html);
}

/* The timeline's axis too: three events within two seconds get six different tick labels. */
Test(report, timeline_ticks_over_a_short_span_differ)
{
    struct corr_result r;
    build_g4(&r);
    r.nevents = 3;
    for (unsigned i = 0; i < 3; i++)
        timeline[i] = event(at(13, 10, i), "train.log", 10 + i, "step logged", NULL);
    r.nseries = 0;
    struct report_options o = opts(0, 0, 0);
    char *html = render(REPORT_HTML, &r, &o);
    const char *p = strstr(html, "<h2>Timeline</h2>"), *end = p ? strstr(p, "</svg>") : NULL;
    cr_assert(p && end, "%s", html);
    char labels[8][48];
    size_t n = 0;
    while (n < 8 && (p = strstr(p, " y=\"14\" text-anchor=\"")) && p < end) {
        p = strchr(p, '>') + 1;
        snprintf(labels[n++], 48, "%.*s", (int)(strchr(p, '<') - p), p);
    }
    cr_assert_eq(n, 6);
    cr_assert_str_eq(labels[0], "13:10:00.000");
    cr_assert_str_eq(labels[1], "+0.4 s");
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++) cr_assert_str_neq(labels[i], labels[k]);
    free(html);
}
