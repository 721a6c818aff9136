/*
 * tests/unit/test_tokenize.c - tokenize/: kinds, timestamps, levels, lanes, numbers.
 *
 * Every record is copied into a heap buffer of exactly its length (no NUL after it), so
 * AddressSanitizer catches any read past the record. Shapes are copied from real tool output; the
 * comment above each says where the shape comes from (host names, pids and values are ours).
 */
#include <ctype.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/az.h"
#include "match/match.h"
#include "tokenize/tok.h"

/* ---- helpers ---- */

struct rec {
    char *p;
    size_t len;
};

static struct rec rec_of(const char *s)
{
    struct rec r;
    r.len = strlen(s);
    r.p = az_xmalloc(r.len ? r.len : 1);
    memcpy(r.p, s, r.len);
    return r;
}

static struct az_time parse(const char *s, size_t *end)
{
    struct rec r = rec_of(s);
    struct az_time t = tok_parse_time(TOK_KIND_TEXT, r.p, r.len, end);
    free(r.p);
    return t;
}

static enum tok_level level(const char *s)
{
    struct rec r = rec_of(s);
    enum tok_level lv = tok_parse_level(r.p, r.len);
    free(r.p);
    return lv;
}

static char lane_buf[64];
static const char *lane(enum tok_kind kind, const char *s)
{
    struct rec r = rec_of(s);
    size_t n = tok_parse_lane(kind, r.p, r.len, lane_buf, sizeof lane_buf);
    free(r.p);
    cr_assert_eq(n, strlen(lane_buf));
    return lane_buf;
}

/* The shipped pack's word lists (patterns/formats.json), loaded once per test process. */
static const struct tok_vocab *shipped_vocab(void)
{
    static struct match_pack *pack;
    if (!pack) {
        const char *dir = getenv("GOTCHA_PATTERNS"); /* make unit, make unit-one */
        cr_assert(dir, "GOTCHA_PATTERNS names the shipped pack");
        const char *dirs[] = {dir};
        struct az_buf err = AZ_BUF_INIT;
        cr_assert_eq(match_pack_load(&pack, dirs, 1, &err), AZ_OK, "%s", err.data ? err.data : "");
        az_buf_free(&err);
    }
    return match_pack_vocab(pack);
}

static enum tok_kind classify(const char *name, const char *head)
{
    struct rec r = rec_of(head);
    enum tok_kind k = tok_classify(shipped_vocab(), name, r.p, r.len);
    free(r.p);
    return k;
}

static int64_t abs_usec(int y, unsigned mo, unsigned d, unsigned h, unsigned mi, unsigned s,
                        unsigned us)
{
    return az_usec_from_civil(y, mo, d, h, mi, s, us);
}

/* AZ_TIME_NOYEAR counts from 2000-01-01 (az.h). */
static int64_t noyear_usec(unsigned mo, unsigned d, unsigned h, unsigned mi, unsigned s,
                           unsigned us)
{
    return az_usec_from_civil(2000, mo, d, h, mi, s, us) -
           az_usec_from_civil(2000, 1, 1, 0, 0, 0, 0);
}

#define ASSERT_TIME(t, k, us)                                                                      \
    do {                                                                                           \
        cr_assert_eq((t).kind, (k), "kind %d, expected %d", (int)(t).kind, (int)(k));              \
        cr_assert_eq((t).usec, (us), "usec %lld, expected %lld", (long long)(t).usec,              \
                     (long long)(us));                                                             \
    } while (0)

#define ASSERT_NO_TIME(s)                                                                          \
    do {                                                                                           \
        size_t end_ = 99;                                                                          \
        struct az_time t_ = parse((s), &end_);                                                     \
        cr_assert_eq(t_.kind, AZ_TIME_NONE, "parsed a time from \"%s\"", (s));                     \
        cr_assert_eq(end_, 0);                                                                     \
    } while (0)

/* ---- kind names ---- */

Test(tokenize, kind_names_round_trip)
{
    for (int k = 0; k < TOK_KIND_COUNT; k++)
        cr_assert_eq(tok_kind_from_name(tok_kind_name((enum tok_kind)k)), k);
}

Test(tokenize, kind_names_are_the_documented_ones)
{
    cr_assert_str_eq(tok_kind_name(TOK_KIND_SMI_CSV), "smi-csv");
    cr_assert_str_eq(tok_kind_name(TOK_KIND_COLLECT_ENV), "collect-env");
    cr_assert_str_eq(tok_kind_name(TOK_KIND_PIP_LIST), "pip-list");
    cr_assert_str_eq(tok_kind_name(TOK_KIND_TEXT), "text");
}

Test(tokenize, kind_from_unknown_name_is_minus_one)
{
    cr_assert_eq(tok_kind_from_name("dmesg"), -1);
    cr_assert_eq(tok_kind_from_name(""), -1);
    cr_assert_eq(tok_kind_from_name(NULL), -1);
}

/* ---- timestamps ---- */

Test(tokenize, time_python_logging_comma_millis)
{
    /* logging.basicConfig(format="%(asctime)s - %(levelname)s - %(message)s") */
    size_t end;
    struct az_time t = parse("2026-11-29 10:12:55,123 - INFO - __main__ - Starting training", &end);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2026, 11, 29, 10, 12, 55, 123000));
    cr_assert_eq(end, 23);
}

Test(tokenize, time_iso_t_fraction_and_zulu)
{
    /* GitHub Actions / RFC 3339 stamps before a vLLM line */
    size_t end;
    struct az_time t =
        parse("2026-06-02T07:46:50.8694207Z (EngineCore_DP0 pid=39062) ERROR 06-02 07:46:41", &end);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2026, 6, 2, 7, 46, 50, 869420));
    cr_assert_eq(end, 28);
}

Test(tokenize, time_journalctl_short_iso_zone_ignored)
{
    /* journalctl -k -o short-iso */
    size_t end;
    struct az_time t =
        parse("2026-11-29T10:12:55+0000 spark-01 kernel: NVRM: Xid (PCI:000f:01:00): 79", &end);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2026, 11, 29, 10, 12, 55, 0));
    cr_assert_eq(end, 24);
}

Test(tokenize, time_rfc3339_syslog_colon_offset)
{
    /* rsyslog's RFC 3339 template (Debian 12 /var/log/syslog) */
    size_t end;
    struct az_time t = parse("2026-11-29T10:12:55.123456+01:00 spark-01 kernel: x", &end);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2026, 11, 29, 10, 12, 55, 123456));
    cr_assert_eq(end, 32);
}

Test(tokenize, time_nvidia_smi_csv_row)
{
    /* nvidia-smi --query-gpu=timestamp,name,temperature.gpu,power.draw --format=csv */
    size_t end;
    struct az_time t = parse("2026/11/29 10:12:55.123, NVIDIA GB10, 45, 11.17 W", &end);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2026, 11, 29, 10, 12, 55, 123000));
    cr_assert_eq(end, 23);
}

Test(tokenize, time_glog_has_no_year)
{
    /* torchrun: torch/distributed/run.py warning through glog-style c10 logging */
    size_t end;
    struct az_time t = parse("W1129 10:12:55.123000 140234 torch/distributed/run.py:793] ", &end);
    ASSERT_TIME(t, AZ_TIME_NOYEAR, noyear_usec(11, 29, 10, 12, 55, 123000));
    cr_assert_eq(end, 21);
}

Test(tokenize, time_pytorch_rank_prefixed_unpadded_month)
{
    /* ProcessGroupNCCL watchdog (pytorch/pytorch#118369 era and later): month not zero-padded */
    size_t end;
    struct rec r = rec_of("[rank1]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] "
                          "Watchdog caught collective operation timeout");
    struct az_time t = tok_parse_time(TOK_KIND_TRAIN, r.p, r.len, &end);
    ASSERT_TIME(t, AZ_TIME_NOYEAR, noyear_usec(6, 26, 6, 24, 44, 903881));
    cr_assert_eq(end, strlen("[rank1]:[E626 06:24:44.903881913"));
    free(r.p);
}

Test(tokenize, time_dmesg_T_is_absolute)
{
    /* dmesg -T */
    size_t end;
    struct az_time t =
        parse("[Sat Nov 29 10:12:55 2026] NVRM: Xid (PCI:000f:01:00): 79, pid=1", &end);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2026, 11, 29, 10, 12, 55, 0));
    cr_assert_eq(end, 26, "end past the closing bracket");
}

Test(tokenize, time_dmesg_T_space_padded_day)
{
    /* dmesg -T pads single-digit days with a space, like ctime() */
    struct az_time t = parse("[Sun Nov  1 15:30:44 2026] usb 1-1: new device", NULL);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2026, 11, 1, 15, 30, 44, 0));
}

Test(tokenize, time_raw_dmesg_is_since_boot)
{
    /* dmesg */
    size_t end;
    struct az_time t = parse("[12345.678901] NVRM: GPU at PCI:000f:01:00: GPU-1", &end);
    ASSERT_TIME(t, AZ_TIME_BOOT, INT64_C(12345678901));
    cr_assert_eq(end, 14);
}

Test(tokenize, time_raw_dmesg_padded_zero)
{
    /* the first line of every dmesg */
    struct az_time t = parse("[    0.000000] Linux version 6.11.0-1016-nvidia", NULL);
    ASSERT_TIME(t, AZ_TIME_BOOT, 0);
}

Test(tokenize, time_syslog_has_no_year)
{
    /* /var/log/kern.log, journalctl -k (short) */
    size_t end;
    struct az_time t =
        parse("Nov 29 10:12:55 spark-01 kernel: NVRM: Xid (PCI:000f:01:00): 43", &end);
    ASSERT_TIME(t, AZ_TIME_NOYEAR, noyear_usec(11, 29, 10, 12, 55, 0));
    cr_assert_eq(end, 15);
}

Test(tokenize, time_syslog_with_priority)
{
    /* /dev/kmsg and logger output keep the "<n>" priority */
    struct az_time t = parse("<6>Nov  2 01:02:03 spark-01 kernel: x", NULL);
    ASSERT_TIME(t, AZ_TIME_NOYEAR, noyear_usec(11, 2, 1, 2, 3, 0));
}

Test(tokenize, time_journalctl_short_precise)
{
    /* journalctl -o short-precise */
    size_t end;
    struct az_time t = parse("Nov 29 10:12:55.123456 spark-01 kernel: x", &end);
    ASSERT_TIME(t, AZ_TIME_NOYEAR, noyear_usec(11, 29, 10, 12, 55, 123456));
    cr_assert_eq(end, 22);
}

Test(tokenize, time_vllm_level_first)
{
    /* vLLM api_server (deepseek-ai/DeepSeek-OCR#110 shape) */
    size_t end;
    struct az_time t = parse("ERROR 10-23 18:21:12 [core_client.py:597] Engine core proc "
                             "EngineCore_DP0 died unexpectedly, shutting down client.",
                             &end);
    ASSERT_TIME(t, AZ_TIME_NOYEAR, noyear_usec(10, 23, 18, 21, 12, 0));
    cr_assert_eq(end, 20);
}

Test(tokenize, time_vllm_engine_core_prefix)
{
    /* vLLM V1 engine core process (vllm-project/vllm issues) */
    struct az_time t = parse("(EngineCore_DP0 pid=123) INFO 11-29 10:12:55 [core.py:123] "
                             "Initializing a V1 LLM engine",
                             NULL);
    ASSERT_TIME(t, AZ_TIME_NOYEAR, noyear_usec(11, 29, 10, 12, 55, 0));
}

Test(tokenize, time_ray_daemon_tag)
{
    /* Ray's driver echoing the raylet (hiyouga/EasyR1#185, jchengai/planTF#28) */
    size_t end = 0;
    struct az_time t = parse("(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) "
                             "node_manager.cc:3069: 1 Workers (tasks / actors) killed due to "
                             "memory pressure (OOM)",
                             &end);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2025, 4, 2, 15, 2, 0, 117000));
    /* a parenthesised phrase is not a tag: nothing after it is read as a stamp */
    t = parse("(see below) 2025-04-02 15:02:00 something", NULL);
    cr_assert_eq(t.kind, AZ_TIME_NONE);
}

Test(tokenize, time_hf_logger_tag)
{
    /* transformers examples: "[%(levelname)s|%(filename)s:%(lineno)s] %(asctime)s >> %(message)s"
     */
    struct az_time t = parse(
        "[INFO|trainer.py:2314] 2026-11-29 10:12:55,123 >> ***** Running training *****", NULL);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2026, 11, 29, 10, 12, 55, 123000));
}

Test(tokenize, time_dmon_date_column)
{
    /* nvidia-smi dmon -o DT */
    struct az_time t = parse("20261129 10:12:55      0     11     45      -      0      0", NULL);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2026, 11, 29, 10, 12, 55, 0));
}

Test(tokenize, time_leap_day_in_leap_year)
{
    struct az_time t = parse("2028-02-29 00:00:01 x", NULL);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2028, 2, 29, 0, 0, 1, 0));
}

/* Gregorian leap years at the century: 2000 has a 29 February, 2100 does not (a date column that
 * says otherwise is not a date), in ISO and in dmesg -T / ctime() stamps. 1900 would test nothing:
 * years before 1970 are not read as dates. */
Test(tokenize, time_century_leap_years)
{
    struct az_time t = parse("2000-02-29 10:12:55 x", NULL);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2000, 2, 29, 10, 12, 55, 0));
    t = parse("2100-02-28 10:12:55 x", NULL);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2100, 2, 28, 10, 12, 55, 0));
    ASSERT_NO_TIME("2100-02-29 10:12:55 x");
    ASSERT_NO_TIME("[Mon Feb 29 10:12:55 2100] x");
}

Test(tokenize, time_version_number_is_not_a_time)
{
    ASSERT_NO_TIME("2.9.0+cu130");
    ASSERT_NO_TIME("580.95.05");
}

Test(tokenize, time_bracketed_integer_is_not_dmesg)
{
    ASSERT_NO_TIME("[12345] worker started");
    ASSERT_NO_TIME("[1.2.3] something");
}

Test(tokenize, time_month_13_rejected)
{
    ASSERT_NO_TIME("2026-13-29 10:12:55 x");
}

Test(tokenize, time_impossible_dates_rejected)
{
    ASSERT_NO_TIME("2026-02-29 10:12:55 x"); /* 2026 is not a leap year */
    ASSERT_NO_TIME("Nov 31 10:12:55 host kernel: x");
    ASSERT_NO_TIME("[Sat Feb 29 10:12:55 2026] x");
    ASSERT_NO_TIME("I1329 10:12:55.123 1 f.cpp:1] x");
}

Test(tokenize, time_hour_24_rejected)
{
    ASSERT_NO_TIME("2026-11-29 24:00:00 x");
    ASSERT_NO_TIME("Nov 29 10:60:00 host x");
}

Test(tokenize, time_truncated_stamp_rejected)
{
    ASSERT_NO_TIME("2026-11-29 10:1");
    ASSERT_NO_TIME("Nov 29 10:12");
    ASSERT_NO_TIME("[  12.5");
}

Test(tokenize, time_uvicorn_info_without_date_is_none)
{
    /* uvicorn inside vLLM: "INFO:     Started server process [1234]" */
    ASSERT_NO_TIME("INFO:     Started server process [1234]");
}

Test(tokenize, time_nul_byte_stops_the_stamp)
{
    size_t end = 99;
    struct az_time t = tok_parse_time(TOK_KIND_TEXT,
                                      "2026-11-29\0"
                                      "10:12:55 x",
                                      21, &end);
    cr_assert_eq(t.kind, AZ_TIME_NONE);
    cr_assert_eq(end, 0);
}

Test(tokenize, time_empty_record_is_none)
{
    size_t end = 99;
    struct az_time t = tok_parse_time(TOK_KIND_TEXT, "", 0, &end);
    cr_assert_eq(t.kind, AZ_TIME_NONE);
    cr_assert_eq(end, 0);
}

/* ---- levels ---- */

Test(tokenize, level_python_logging)
{
    cr_assert_eq(level("2026-11-29 10:12:55,123 - ERROR - train - CUDA out of memory"),
                 TOK_LEVEL_ERROR);
}

Test(tokenize, level_vllm_warning)
{
    cr_assert_eq(level("WARNING 11-29 10:12:55 [config.py:123] Casting torch.bfloat16"),
                 TOK_LEVEL_WARN);
}

Test(tokenize, level_glog_letter)
{
    cr_assert_eq(level("[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] "
                       "Watchdog caught collective operation timeout"),
                 TOK_LEVEL_ERROR);
    cr_assert_eq(level("W1129 10:12:55.123000 140234 torch/distributed/run.py:793] "),
                 TOK_LEVEL_WARN);
}

Test(tokenize, level_old_pytorch_bracket_without_stamp)
{
    /* PyTorch 1.x: "[E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog caught ..." */
    cr_assert_eq(level("[E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog caught collective"),
                 TOK_LEVEL_ERROR);
}

Test(tokenize, level_syslog_priority)
{
    cr_assert_eq(level("<3>NVRM: Xid (PCI:000f:01:00): 79"), TOK_LEVEL_ERROR);
    cr_assert_eq(level("<6>usb 1-1: new device"), TOK_LEVEL_INFO);
}

Test(tokenize, level_nccl_warn)
{
    /* NVIDIA/nccl#367 */
    cr_assert_eq(level("26a46eb2b1d3:111329:111329 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open "
                       "libibverbs.so[.1]"),
                 TOK_LEVEL_WARN);
}

Test(tokenize, level_python_exception_line)
{
    cr_assert_eq(level("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."),
                 TOK_LEVEL_ERROR);
    cr_assert_eq(level("Traceback (most recent call last):"), TOK_LEVEL_ERROR);
}

Test(tokenize, level_python_warning_class)
{
    cr_assert_eq(level("/usr/lib/python3/dist-packages/torch/cuda/__init__.py:235: UserWarning: "
                       "NVIDIA GB10 with CUDA capability sm_121 is not compatible"),
                 TOK_LEVEL_WARN);
}

Test(tokenize, level_pip_error)
{
    cr_assert_eq(level("ERROR: Could not find a version that satisfies the requirement flash-attn"),
                 TOK_LEVEL_ERROR);
}

Test(tokenize, level_none_for_metrics_and_counters)
{
    cr_assert_eq(level("{'loss': 1.2345, 'grad_norm': 0.51, 'learning_rate': 2e-05, 'epoch': 0.5}"),
                 TOK_LEVEL_NONE);
    cr_assert_eq(level("error_count=0 warnings_seen=0"), TOK_LEVEL_NONE);
    cr_assert_eq(level("  File \"/workspace/train.py\", line 42, in <module>"), TOK_LEVEL_NONE);
}

/* Structured logs state their level in a field: gpud's zap lines on a GB10
 * (corpus/healthy-bf16-sft-ngc-bundle; gpud v0.12.24 components/accelerator/nvidia/memory/
 * memory.go:100 Warnw, zap's production JSON encoder), logrus' "level":"error". */
Test(tokenize, level_json_field)
{
    cr_assert_eq(
        level("{\"level\":\"warn\",\"ts\":\"2025-11-26T12:31:47.603Z\",\"caller\":\"memory/"
              "memory.go:100\",\"msg\":\"NVML memory APIs not supported\",\"error\":\"Not "
              "Supported\"}"),
        TOK_LEVEL_WARN);
    cr_assert_eq(level("{\"level\": \"ERROR\", \"msg\": \"worker died\"}"), TOK_LEVEL_ERROR);
    cr_assert_eq(level("{\"severity\":\"info\",\"msg\":\"error budget ok\"}"), TOK_LEVEL_INFO);
    /* a key of that name deep in the object, or a value that is no level: the words decide */
    cr_assert_eq(level("{\"msg\":\"ok\",\"level\":\"verbose\"}"), TOK_LEVEL_NONE);
}

/* ---- the run record (gotcha record's run.txt) ---- */

Test(tokenize, run_record_is_known_by_its_first_line)
{
    const char *rec = "gotcha record 0.1.0\ncommand: sh -c 'exit 3'\nexit: 3\n";
    cr_assert(tok_is_run_record(rec, strlen(rec)));
    cr_assert_eq(tok_classify(shipped_vocab(), "notes.txt", rec, strlen(rec)), TOK_KIND_RUN_RECORD);
    cr_assert_str_eq(tok_kind_name(TOK_KIND_RUN_RECORD), "run-record");
    const char *not_one[] = {"gotcha record -- python train.py\n", "gotcha record\n",
                             "# gotcha record 0.1.0\n", "gotcha record 0.1.0 of a run\n"};
    for (size_t i = 0; i < sizeof not_one / sizeof not_one[0]; i++)
        cr_assert_not(tok_is_run_record(not_one[i], strlen(not_one[i])), "%s", not_one[i]);
}

static enum tok_run_line run_line(const char *l, struct tok_run_exit *ex)
{
    return tok_run_record_line(l, strlen(l), ex);
}

Test(tokenize, run_record_fields_and_free_lines)
{
    struct tok_run_exit ex = {-1, -1};
    cr_assert_eq(run_line("gotcha record 0.1.0", &ex), TOK_RUN_LINE_FIELD);
    cr_assert_eq(run_line("command: python train.py 'RuntimeError: CUDA error'", &ex),
                 TOK_RUN_LINE_FIELD);
    cr_assert_eq(run_line("cwd: /home/dev/ft", &ex), TOK_RUN_LINE_FIELD);
    cr_assert_eq(run_line("ended: still running", &ex), TOK_RUN_LINE_FIELD);
    cr_assert_eq(run_line("kernel log: not readable (dmesg: failed)", &ex), TOK_RUN_LINE_FIELD);
    /* the line a shell prints for a signal is what the terminal showed: log input */
    cr_assert_eq(run_line("Segmentation fault (core dumped)", &ex), TOK_RUN_LINE_FREE);
    cr_assert_eq(run_line("Killed", &ex), TOK_RUN_LINE_FREE);
    cr_assert_eq(run_line("commander: x", &ex), TOK_RUN_LINE_FREE);
    cr_assert_eq(ex.status, -1, "no exit field was read");
}

Test(tokenize, run_record_exit_status)
{
    struct tok_run_exit ex;
    cr_assert_eq(run_line("exit: 3", &ex), TOK_RUN_LINE_EXIT);
    cr_assert_eq(ex.status, 3);
    cr_assert_eq(ex.signal, 0);
    cr_assert_eq(run_line("exit: 0", &ex), TOK_RUN_LINE_EXIT);
    cr_assert_eq(ex.status, 0);
    cr_assert_eq(run_line("exit: 127 (cannot run: No such file or directory)", &ex),
                 TOK_RUN_LINE_EXIT);
    cr_assert_eq(ex.status, 127);
    cr_assert_eq(run_line("exit: signal 11", &ex), TOK_RUN_LINE_EXIT);
    cr_assert_eq(ex.status, 139);
    cr_assert_eq(ex.signal, 11);
    cr_assert_eq(run_line("exit: signal 15 (sent by gotcha)", &ex), TOK_RUN_LINE_EXIT);
    cr_assert_eq(ex.status, 143);
    /* not a status: a field all the same, never log input */
    const char *odd[] = {"exit: 256", "exit: -1", "exit: signal 0", "exit: signal 200",
                         "exit: 3x",  "exit: ",   "exit: 0003"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        cr_assert_eq(run_line(odd[i], &ex), TOK_RUN_LINE_FIELD, "%s", odd[i]);
}

/* ---- lanes ---- */

Test(tokenize, lane_pytorch_rank_prefix)
{
    cr_assert_str_eq(lane(TOK_KIND_STDERR, "[rank1]: Traceback (most recent call last):"), "rank1");
}

Test(tokenize, lane_torchrun_default_prefix)
{
    /* torchrun --tee 3: "[default0]:" per local worker */
    cr_assert_str_eq(lane(TOK_KIND_TRAIN, "[default1]:  File \"/w/train.py\", line 9"), "rank1");
}

Test(tokenize, lane_rank_word_inside_record)
{
    cr_assert_str_eq(lane(TOK_KIND_TRAIN, "[E ProcessGroupNCCL.cpp:458] [Rank 7] Watchdog caught"),
                     "rank7");
}

Test(tokenize, lane_nccl_host_and_device)
{
    /* NVIDIA/nccl#1814 shape: host:pid:tid [cudaDev] */
    cr_assert_str_eq(lane(TOK_KIND_NCCL, "spark-02:984:984 [0] NCCL INFO Bootstrap : Using enp1s0"),
                     "spark-02/gpu0");
}

Test(tokenize, lane_syslog_host)
{
    cr_assert_str_eq(lane(TOK_KIND_KERNEL, "Nov 29 10:12:55 spark-01 kernel: NVRM: Xid 79"),
                     "spark-01");
    cr_assert_str_eq(
        lane(TOK_KIND_KERNEL, "2026-11-29T10:12:55+0000 spark-01 kernel: NVRM: Xid 79"),
        "spark-01");
}

Test(tokenize, lane_no_host_after_a_python_logging_stamp)
{
    /* near miss of the syslog host: a pip line under python logging's ISO stamp with ",mmm"
     * millis and padding ("%(asctime)s   %(message)s") names no host, though a word and a ':'
     * follow the stamp */
    cr_assert_str_eq(lane(TOK_KIND_PIP, "2026-01-13T10:02:56,000   Attempting uninstall: triton"),
                     "");
    cr_assert_str_eq(lane(TOK_KIND_TEXT, "Nov 29 10:12:55  Attempting uninstall: triton"), "");
}

Test(tokenize, lane_syslog_host_and_rank)
{
    cr_assert_str_eq(lane(TOK_KIND_TEXT, "Nov 29 10:12:55 spark-02 python3[4242]: [rank1]: "
                                         "RuntimeError: NCCL error"),
                     "spark-02/rank1");
}

Test(tokenize, lane_open_mpi_tag)
{
    cr_assert_str_eq(lane(TOK_KIND_TEXT, "[1,3]<stderr>:Traceback (most recent call last):"),
                     "rank3");
}

Test(tokenize, lane_none_for_python_logging)
{
    cr_assert_str_eq(lane(TOK_KIND_TRAIN, "2026-11-29 10:12:55,123 - INFO - trainer: step 10"), "");
    cr_assert_str_eq(lane(TOK_KIND_TEXT, "loss went up"), "");
}

Test(tokenize, lane_from_path_rank_file)
{
    char out[64];
    cr_assert_eq(tok_lane_from_path("logs/rank0.log", out, sizeof out), 5);
    cr_assert_str_eq(out, "rank0");
}

Test(tokenize, lane_from_path_rank_directory)
{
    char out[64];
    tok_lane_from_path("run/rank_3/stderr.log", out, sizeof out);
    cr_assert_str_eq(out, "rank3");
}

Test(tokenize, lane_from_path_worker_and_node)
{
    char out[64];
    tok_lane_from_path("worker-1.log", out, sizeof out);
    cr_assert_str_eq(out, "rank1");
    tok_lane_from_path("node1/rank02.log", out, sizeof out);
    cr_assert_str_eq(out, "node1/rank2");
}

Test(tokenize, lane_from_path_near_misses)
{
    char out[64];
    cr_assert_eq(tok_lane_from_path("ranking.txt", out, sizeof out), 0);
    cr_assert_str_eq(out, "");
    cr_assert_eq(tok_lane_from_path("node_modules/x.log", out, sizeof out), 0);
    cr_assert_eq(tok_lane_from_path("prank1.log", out, sizeof out), 0);
}

/* ---- numbers ---- */

Test(tokenize, double_plain_and_fraction)
{
    double v;
    cr_assert_eq(tok_parse_double("11.17", 5, &v), 0);
    cr_assert_float_eq(v, 11.17, 1e-12);
    cr_assert_eq(tok_parse_double(".5", 2, &v), 0);
    cr_assert_float_eq(v, 0.5, 1e-12);
}

Test(tokenize, double_exponent_and_sign)
{
    double v;
    cr_assert_eq(tok_parse_double("-2e-05", 6, &v), 0);
    cr_assert_float_eq(v, -2e-05, 1e-18);
}

Test(tokenize, double_surrounding_blanks_allowed)
{
    double v;
    cr_assert_eq(tok_parse_double(" 45 ", 4, &v), 0);
    cr_assert_float_eq(v, 45.0, 1e-12);
}

Test(tokenize, double_accepts_nan_and_inf_as_python_prints_them)
{
    /* HF Trainer after divergence: {'loss': nan, 'grad_norm': inf, ...} */
    double v = 0;
    cr_assert_eq(tok_parse_double("nan", 3, &v), 0);
    cr_assert(isnan(v));
    cr_assert_eq(tok_parse_double("NaN", 3, &v), 0);
    cr_assert(isnan(v));
    cr_assert_eq(tok_parse_double("-inf", 4, &v), 0);
    cr_assert(isinf(v) && v < 0);
}

Test(tokenize, double_rejects_garbage)
{
    double v = 7;
    cr_assert_neq(tok_parse_double("11.17 W", 7, &v), 0);
    cr_assert_neq(tok_parse_double("infinite", 8, &v), 0);
    cr_assert_neq(tok_parse_double("nano", 4, &v), 0);
    cr_assert_neq(tok_parse_double("", 0, &v), 0);
    cr_assert_neq(tok_parse_double("1e", 2, &v), 0);
    cr_assert_neq(tok_parse_double("[N/A]", 5, &v), 0);
    cr_assert_neq(tok_parse_double("0x10", 4, &v), 0);
    cr_assert_float_eq(v, 7.0, 0, "out untouched on failure");
}

/* ---- classification ---- */

Test(tokenize, classify_hf_trainer)
{
    /* transformers Trainer stdout: tqdm bar and metric dicts */
    const char *head =
        "  5%|▌         | 50/1000 [00:30<09:30,  1.67it/s]\r"
        " 10%|█         | 100/1000 [01:00<09:00,  1.67it/s]\n"
        "{'loss': 1.2345, 'grad_norm': 0.51, 'learning_rate': 2e-05, 'epoch': 0.5}\n"
        "{'loss': 1.1002, 'grad_norm': 0.48, 'learning_rate': 1.9e-05, 'epoch': 0.6}\n";
    cr_assert_eq(classify("out.log", head), TOK_KIND_TRAIN);
}

Test(tokenize, classify_python_logging)
{
    const char *head = "2026-11-29 10:12:55,123 - INFO - __main__ - Loading model\n"
                       "2026-11-29 10:12:57,456 - INFO - __main__ - Model loaded\n"
                       "2026-11-29 10:13:01,001 - WARNING - __main__ - gradient checkpointing on\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_TRAIN);
}

Test(tokenize, classify_unsloth_banner)
{
    /* unsloth FastLanguageModel.from_pretrained banner */
    const char *head =
        "==((====))==  Unsloth 2025.11.1: Fast Llama patching. Transformers: 4.57.1.\n"
        "   \\\\   /|    NVIDIA GB10. Num GPUs = 1. Max memory: 119.7 GB. Platform: Linux.\n"
        "O^O/ \\_/ \\    Torch: 2.9.0+cu130. CUDA: 12.1. CUDA Toolkit: 13.0.\n"
        "Unsloth: Will smartly offload gradients to save VRAM!\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_TRAIN);
}

Test(tokenize, classify_lightning_progress)
{
    /* pytorch/pytorch#118369: Lightning "Epoch N:" bar */
    const char *head =
        "Epoch 0:   6%|██      | 32040/500150 [6:28:43<94:39:17,  1.37it/s, loss=2.6]\r"
        "Epoch 0:   6%|██      | 32041/500150 [6:28:44<94:39:16,  1.37it/s, loss=2.6]\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_TRAIN);
}

Test(tokenize, classify_torchrun_glog)
{
    const char *head = "W1129 10:12:55.123000 140234 torch/distributed/run.py:793] \n"
                       "W1129 10:12:55.123000 140234 torch/distributed/run.py:793] *****\n"
                       "W1129 10:12:55.123000 140234 torch/distributed/run.py:793] Setting "
                       "OMP_NUM_THREADS environment variable for each process to be 1\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_TRAIN);
}

Test(tokenize, classify_bare_traceback_is_stderr)
{
    const char *head =
        "Traceback (most recent call last):\n"
        "  File \"/workspace/train.py\", line 3, in <module>\n"
        "    import flash_attn\n"
        "  File \"/usr/lib/python3/dist-packages/flash_attn/__init__.py\", line 3, in <module>\n"
        "    from flash_attn.flash_attn_interface import (\n"
        "ImportError: /usr/lib/python3/dist-packages/flash_attn_2_cuda.cpython-312-aarch64-linux-"
        "gnu.so: undefined symbol: cudaGetDriverEntryPointByVersion\n";
    cr_assert_eq(classify("train.log", head), TOK_KIND_STDERR);
}

Test(tokenize, classify_sees_past_a_ci_runner_stamp)
{
    /* vllm-project/vllm#18417 (a Buildkite job's traceback, every line stamped): the runner's
     * stamp is on every line of every job, so the kind is read from what follows it */
    const char *head =
        "[2025-05-20T05:24:31Z]   File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/"
        "core_client.py\", line 484, in _wait_for_engine_startup\n"
        "[2025-05-20T05:24:31Z]     raise RuntimeError(\"Engine core initialization failed. \"\n"
        "[2025-05-20T05:24:31Z] RuntimeError: Engine core initialization failed. See root cause "
        "above. Failed core proc(s): {}\n";
    cr_assert_eq(classify("job.log", head), TOK_KIND_STDERR);
}

Test(tokenize, classify_training_dominates_a_late_traceback)
{
    const char *head = "{'loss': 1.2345, 'grad_norm': 0.51, 'learning_rate': 2e-05, 'epoch': 0.1}\n"
                       "{'loss': 1.2001, 'grad_norm': 0.50, 'learning_rate': 2e-05, 'epoch': 0.2}\n"
                       "{'loss': 1.1500, 'grad_norm': 0.49, 'learning_rate': 2e-05, 'epoch': 0.3}\n"
                       "Traceback (most recent call last):\n"
                       "  File \"/workspace/train.py\", line 88, in <module>\n"
                       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_TRAIN);
}

Test(tokenize, classify_raw_dmesg)
{
    const char *head = "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd871]\n"
                       "[    0.000000] Linux version 6.11.0-1016-nvidia (buildd@ubuntu)\n"
                       "[12345.678901] NVRM: Xid (PCI:000f:01:00): 79, pid=0, GPU has fallen off "
                       "the bus.\n";
    cr_assert_eq(classify("log.txt", head), TOK_KIND_KERNEL);
}

Test(tokenize, classify_buildkit_error_excerpt_is_not_meminfo)
{
    /* docker build --progress=plain stopping at its FROM step: the step's error
     * (moby/buildkit util/progress/progressui/printer.go v0.32.2 "#%d ERROR: %s"), the failed
     * step's log block (display.go printErrorLogs: "------", " > %s:") and the Dockerfile excerpt
     * (solver/errdefs/source.go: "%s:%d" then "--------------------" and " %3d | %s %s").
     * "Dockerfile:1" is a name, a colon and a number, as a /proc/meminfo row is, but the kernel
     * pads every meminfo value after its colon: this head is no meminfo */
    const char *head = "#2 [internal] load metadata for nvcr.io/nvidia/pytorch:25.13-py3\n"
                       "#2 ERROR: nvcr.io/nvidia/pytorch:25.13-py3: failed to resolve source "
                       "metadata for nvcr.io/nvidia/pytorch:25.13-py3: "
                       "nvcr.io/nvidia/pytorch:25.13-py3: not found\n"
                       "------\n"
                       " > [internal] load metadata for nvcr.io/nvidia/pytorch:25.13-py3:\n"
                       "------\n"
                       "Dockerfile:1\n"
                       "--------------------\n"
                       "   1 | >>> FROM nvcr.io/nvidia/pytorch:25.13-py3\n"
                       "--------------------\n";
    cr_assert_neq(classify("build.log", head), TOK_KIND_MEMINFO);
    /* the kernel's own rows still are (fs/proc/meminfo.c: the name padded, then the value) */
    cr_assert_eq(classify("build.log", "MemTotal:       131072000 kB\n"
                                       "MemFree:         2048000 kB\n"
                                       "HugePages_Total:       0\n"),
                 TOK_KIND_MEMINFO);
}

Test(tokenize, classify_dmesg_T)
{
    const char *head = "[Sat Nov 29 10:12:55 2026] NVRM: Xid (PCI:000f:01:00): 43, pid=4242\n"
                       "[Sat Nov 29 10:12:56 2026] nvidia-modeset: ERROR: GPU:0: Idling display\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_KERNEL);
}

Test(tokenize, classify_journalctl_kernel)
{
    const char *head = "-- Boot 0a1b2c3d4e5f --\n"
                       "Nov 29 10:12:55 spark-01 kernel: NVRM: Xid (PCI:000f:01:00): 79\n"
                       "Nov 29 10:12:56 spark-01 kernel: Out of memory: Killed process 4242 "
                       "(python3)\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_KERNEL);
}

Test(tokenize, classify_smi_table)
{
    /* nvidia-smi default output (keylase/nvidia-patch#89 shape, GB10 values) */
    const char *head = "Sat Nov 29 10:12:55 2026\n"
                       "+--------------------------------------------------------------------------"
                       "---------------+\n"
                       "| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA "
                       "Version: 13.0     |\n"
                       "|-----------------------------------------+------------------------+-------"
                       "---------------+\n"
                       "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | "
                       "Volatile Uncorr. ECC |\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_SMI);
}

Test(tokenize, classify_smi_q)
{
    /* nvidia-smi -q (MatthiasSchinzel/sysmon#12 shape) */
    const char *head = "\n==============NVSMI LOG==============\n\n"
                       "Timestamp                                 : Sat Nov 29 10:12:55 2026\n"
                       "Driver Version                            : 580.95.05\n"
                       "CUDA Version                              : 13.0\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_SMI_Q);
}

Test(tokenize, classify_smi_xml)
{
    /* nvidia-smi -q -x (CPU-X#115 shape) */
    const char *head = "<?xml version=\"1.0\" ?>\n"
                       "<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v12.dtd\">\n"
                       "<nvidia_smi_log>\n"
                       "\t<timestamp>Sat Nov 29 10:12:55 2026</timestamp>\n"
                       "\t<driver_version>580.95.05</driver_version>\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_SMI_XML);
}

Test(tokenize, classify_smi_csv_with_header_beats_name)
{
    const char *head = "timestamp, name, temperature.gpu, power.draw [W], clocks.sm [MHz], "
                       "utilization.gpu [%]\n"
                       "2026/11/29 10:12:55.123, NVIDIA GB10, 45, 11.17 W, 208 MHz, 0 %\n"
                       "2026/11/29 10:12:56.124, NVIDIA GB10, 46, 95.02 W, 2418 MHz, 99 %\n";
    cr_assert_eq(classify("train.log", head), TOK_KIND_SMI_CSV);
}

Test(tokenize, classify_smi_csv_headerless)
{
    /* --format=csv,noheader */
    const char *head = "2026/11/29 10:12:55.123, NVIDIA GB10, 45, 11.17 W\n"
                       "2026/11/29 10:12:56.123, NVIDIA GB10, 46, 96.40 W\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_SMI_CSV);
}

Test(tokenize, classify_smi_dmon)
{
    const char *head =
        "# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk\n"
        "# Idx      W      C      C      %      %      %      %      %      %    MHz    MHz\n"
        "    0     11     45      -      0      0      0      0      0      0    405    208\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_SMI_DMON);
}

Test(tokenize, classify_pip_install)
{
    const char *head =
        "Collecting torch\n"
        "  Downloading torch-2.9.0-cp312-cp312-manylinux_2_28_aarch64.whl (104.1 MB)\n"
        "Requirement already satisfied: filelock in /usr/lib/python3/dist-packages\n"
        "Installing collected packages: torch\n"
        "  Attempting uninstall: torch\n"
        "Successfully installed torch-2.9.0\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_PIP);
}

Test(tokenize, classify_pip_list_table)
{
    const char *head = "Package                  Version\n"
                       "------------------------ -----------\n"
                       "torch                    2.9.0\n"
                       "triton                   3.5.0\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_PIP_LIST);
}

Test(tokenize, classify_pip_freeze)
{
    const char *head = "accelerate==1.10.1\ntorch==2.9.0+cu130\ntransformers==4.57.1\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_PIP_LIST);
}

Test(tokenize, classify_collect_env)
{
    /* python -m torch.utils.collect_env (vllm-project/vllm#27549 shape) */
    const char *head = "Collecting environment information...\n"
                       "PyTorch version: 2.9.0+cu130\n"
                       "Is debug build: False\n"
                       "CUDA used to build PyTorch: 13.0\n"
                       "[pip3] torch==2.9.0+cu130\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_COLLECT_ENV);
}

Test(tokenize, classify_proc_meminfo)
{
    const char *head = "MemTotal:       127535892 kB\n"
                       "MemFree:         2456128 kB\n"
                       "MemAvailable:   61234512 kB\n"
                       "Buffers:           10240 kB\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_MEMINFO);
}

Test(tokenize, classify_free)
{
    const char *head =
        "               total        used        free      shared  buff/cache   available\n"
        "Mem:       127535892    66321212     2456128       12345    58758552    61234512\n"
        "Swap:       16777212           0    16777212\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_MEMINFO);
}

Test(tokenize, classify_vllm)
{
    const char *head =
        "INFO 11-29 10:12:55 [api_server.py:1234] vLLM API server version 0.11.0\n"
        "(EngineCore_DP0 pid=123) INFO 11-29 10:12:58 [core.py:72] Initializing a V1 "
        "LLM engine\n"
        "(EngineCore_DP0 pid=123) WARNING 11-29 10:13:01 [gpu_model_runner.py:88] x\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_VLLM);
}

Test(tokenize, classify_nccl)
{
    /* NVIDIA/nccl#1504 shape */
    const char *head =
        "spark-01:26023:26023 [0] NCCL INFO Bootstrap : Using enp1s0f0np0:10.0.0.1<0>\n"
        "spark-01:26023:26023 [0] NCCL INFO NET/Plugin: Using internal network plugin.\n"
        "NCCL version 2.27.7+cuda13.0\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_NCCL);
}

Test(tokenize, classify_preflight)
{
    /* the skill's preflight.sh output contract */
    const char *head = "== G1: CUDA 12/13 ABI ==\n"
                       "G1 FAIL: torch built against CUDA 12.8 (need 13.x — see gotcha G1)\n"
                       "== G4: power ==\n"
                       "G4 INFO: 45, 11.17 W\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_PREFLIGHT);
}

Test(tokenize, classify_plain_text_is_text)
{
    cr_assert_eq(classify("notes.txt", "hello world\nnothing to see here\n"), TOK_KIND_TEXT);
}

Test(tokenize, classify_name_decides_when_content_is_silent)
{
    cr_assert_eq(classify("dmesg.log", "hello\n"), TOK_KIND_KERNEL);
    cr_assert_eq(classify("nccl-debug.txt", ""), TOK_KIND_NCCL);
}

Test(tokenize, classify_binary_junk_does_not_crash)
{
    char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (char)((i * 131u + 7u) & 0xff);
    enum tok_kind k = tok_classify(shipped_vocab(), NULL, junk, sizeof junk);
    cr_assert(k >= TOK_KIND_TEXT && k < TOK_KIND_COUNT);
}

Test(tokenize, classify_strips_color_codes)
{
    /* vLLM colours the level when stdout is a TTY */
    const char *head = "\x1b[32mINFO\x1b[0m 11-29 10:12:55 [api_server.py:1234] vLLM API server\n"
                       "\x1b[32mINFO\x1b[0m 11-29 10:12:56 [launcher.py:28] Available routes\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_VLLM);
}

/* ---- prefixes ----
 *
 * One test per prefix shape, from a real sample (the comment names where it was seen; pids, hosts
 * and values are as there unless noted), and the near misses that must keep their bytes. Each
 * test checks the body signatures will see, the layers in order and the facts kept. */

struct stripped {
    char layers[128]; /* "compose+sglang" */
    char body[512];
    char process[96], pid[32], rank[32], task[32], host[96], ip[64], service[96], pod[128];
    char source[160];
    enum tok_level level;
    struct az_time time;
    unsigned n;
};

static void span_str(const char *p, struct tok_span s, char *out, size_t outsz)
{
    size_t n;
    const char *v = tok_span_get(p, s, &n);
    if (n >= outsz) n = outsz - 1;
    if (v) memcpy(out, v, n);
    out[v ? n : 0] = '\0';
}

static struct stripped strip(const char *s)
{
    struct rec r = rec_of(s);
    struct tok_prefix pf;
    struct stripped o;
    memset(&o, 0, sizeof o);
    o.n = tok_prefix_strip(r.p, r.len, TOK_PREFIX_MESSAGE, &pf);
    cr_assert_eq(o.n, pf.nlayers);
    cr_assert_leq(pf.body + pf.body_len, r.len, "body past the record");
    for (unsigned k = 0; k < pf.nlayers; k++) {
        if (k) strcat(o.layers, "+");
        strcat(o.layers, pf.layer[k].name);
        cr_assert_leq(pf.layer[k].end, pf.body, "layer %u ends past the body", k);
    }
    size_t bn = AZ_MIN(pf.body_len, sizeof o.body - 1);
    memcpy(o.body, r.p + pf.body, bn);
    o.body[bn] = '\0';
    span_str(r.p, pf.process, o.process, sizeof o.process);
    span_str(r.p, pf.pid, o.pid, sizeof o.pid);
    span_str(r.p, pf.rank, o.rank, sizeof o.rank);
    span_str(r.p, pf.task, o.task, sizeof o.task);
    span_str(r.p, pf.host, o.host, sizeof o.host);
    span_str(r.p, pf.ip, o.ip, sizeof o.ip);
    span_str(r.p, pf.service, o.service, sizeof o.service);
    span_str(r.p, pf.pod, o.pod, sizeof o.pod);
    span_str(r.p, pf.source, o.source, sizeof o.source);
    o.level = pf.level;
    o.time = pf.time;
    free(r.p);
    return o;
}

/* Nothing stripped: the body is the whole record. */
#define ASSERT_KEPT(s)                                                                             \
    do {                                                                                           \
        struct stripped k_ = strip(s);                                                             \
        cr_assert_eq(k_.n, 0, "stripped \"%s\" from \"%s\"", k_.layers, (s));                      \
        cr_assert_str_eq(k_.body, (s));                                                            \
    } while (0)

Test(tokenize, prefix_vllm_engine_core_process_and_logger)
{
    /* vllm-project/vllm#45784 (vLLM 0.23, EngineCore traceback) */
    struct stripped s = strip("(EngineCore pid=1362711) ERROR 06-22 10:58:02 [core.py:1195] "
                              "Exception: WorkerProc initialization failed due to an exception "
                              "in a background process. See stack trace for root cause.");
    cr_assert_str_eq(s.layers, "process-tag+vllm");
    cr_assert_str_eq(s.body, "Exception: WorkerProc initialization failed due to an exception in "
                             "a background process. See stack trace for root cause.");
    cr_assert_str_eq(s.process, "EngineCore");
    cr_assert_str_eq(s.pid, "1362711");
    cr_assert_str_eq(s.source, "core.py:1195");
    cr_assert_eq(s.level, TOK_LEVEL_ERROR);
    ASSERT_TIME(s.time, AZ_TIME_NOYEAR, noyear_usec(6, 22, 10, 58, 2, 0));
}

Test(tokenize, prefix_vllm_data_parallel_engine_core_keeps_traceback_indent)
{
    /* vllm-project/vllm-ascend#4503 names the process EngineCore_DP0; the frame line shape is
     * noonghunna/club-3090#60 */
    struct stripped s = strip("(EngineCore_DP0 pid=51857) ERROR 11-27 16:21:16 [core.py:1136]   "
                              "File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/"
                              "core.py\", line 1110, in run_engine_core");
    cr_assert_str_eq(s.process, "EngineCore_DP0");
    cr_assert_str_eq(s.body, "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/"
                             "core.py\", line 1110, in run_engine_core");
}

Test(tokenize, prefix_vllm_api_server_tag_without_logger)
{
    /* the APIServer re-raising the engine's failure, no logger header after the tag (vLLM >= 0.10
     * front end; corpus/G3-d-vllm-free-memory-page-cache copies the shape) */
    struct stripped s = strip("(APIServer pid=88213) RuntimeError: Engine core initialization "
                              "failed. See root cause above. Failed core proc(s): {}");
    cr_assert_str_eq(s.layers, "process-tag");
    cr_assert_str_eq(s.body, "RuntimeError: Engine core initialization failed. See root cause "
                             "above. Failed core proc(s): {}");
    cr_assert_str_eq(s.process, "APIServer");
    cr_assert_str_eq(s.pid, "88213");
    cr_assert_eq(s.level, TOK_LEVEL_NONE);
}

Test(tokenize, prefix_vllm_worker_rank_is_the_lane)
{
    /* vllm-project/vllm#17756 (multiproc executor, TP 8) */
    const char *line = "(VllmWorker rank=3 pid=406) INFO 07-23 19:34:49 [__init__.py:1152] Found "
                       "nccl from library libnccl.so.2";
    struct stripped s = strip(line);
    cr_assert_str_eq(s.body, "Found nccl from library libnccl.so.2");
    cr_assert_str_eq(s.process, "VllmWorker");
    cr_assert_str_eq(s.rank, "3");
    cr_assert_str_eq(s.pid, "406");
    cr_assert_str_eq(s.source, "__init__.py:1152");
    cr_assert_str_eq(lane(TOK_KIND_VLLM, line), "rank3");
}

Test(tokenize, prefix_vllm_old_logger_without_brackets_under_a_ray_actor)
{
    /* allenai/open-instruct#521 (vLLM 0.6 inside a Ray actor: "file.py:N]" without "[") */
    struct stripped s = strip("(LLMRayActor pid=209374) INFO 01-15 18:01:21 config.py:510] This "
                              "model supports multiple tasks: {'reward', 'classify'}");
    cr_assert_str_eq(s.layers, "process-tag+vllm");
    cr_assert_str_eq(s.body, "This model supports multiple tasks: {'reward', 'classify'}");
    cr_assert_str_eq(s.source, "config.py:510");
    cr_assert_eq(s.level, TOK_LEVEL_INFO);
    /* and with no tag at all (vllm-project/vllm PR #11721, v0.6.4) */
    s = strip("ERROR 01-03 16:21:05 core.py:200] EngineCore hit an exception: Traceback (most "
              "recent call last):");
    cr_assert_str_eq(s.layers, "vllm");
    cr_assert_str_eq(s.body, "EngineCore hit an exception: Traceback (most recent call last):");
}

Test(tokenize, prefix_sglang_stamp_and_parallel_ranks)
{
    /* sgl-project/sglang#4161 (TP8), #10741 (DP/PP), #7227 (no rank tag) */
    struct stripped s = strip("[2025-03-07 09:25:11 TP1] Load weight end. "
                              "type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail mem=36.48 "
                              "GB");
    cr_assert_str_eq(s.layers, "sglang");
    cr_assert_str_eq(s.process, "TP1");
    cr_assert_str_eq(s.body,
                     "Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, avail "
                     "mem=36.48 GB");
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2025, 3, 7, 9, 25, 11, 0));
    s = strip("[2025-09-22 10:25:22 DP0 PP0] Load weight end. type=Qwen2ForCausalLM");
    cr_assert_str_eq(s.process, "DP0 PP0");
    cr_assert_str_eq(s.body, "Load weight end. type=Qwen2ForCausalLM");
    s = strip("[2025-06-19 15:12:27] Scheduler hit an exception: Traceback (most recent call "
              "last):");
    cr_assert_str_eq(s.process, "");
    cr_assert_str_eq(s.body, "Scheduler hit an exception: Traceback (most recent call last):");
}

Test(tokenize, prefix_buildkite_stamp_before_vllm_process_tag)
{
    /* vllm-project/vllm-omni#3397 (a Buildkite job's output, every line stamped "[...Z] "): the
     * runner's stamp has the year, the logger's level and the process tag are the inner layers' */
    struct stripped s = strip("[2026-05-06T18:36:09Z] (StageEngineCoreProc pid=503) ERROR 05-06 "
                              "18:36:09 [stage_engine_core_proc.py:106] StageEngineCoreProc "
                              "encountered a fatal error.");
    cr_assert_str_eq(s.layers, "ci-stamp+process-tag+vllm");
    cr_assert_str_eq(s.body, "StageEngineCoreProc encountered a fatal error.");
    cr_assert_str_eq(s.process, "StageEngineCoreProc");
    cr_assert_str_eq(s.pid, "503");
    cr_assert_str_eq(s.source, "stage_engine_core_proc.py:106");
    cr_assert_eq(s.level, TOK_LEVEL_ERROR);
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2026, 5, 6, 18, 36, 9, 0));
    /* vllm-project/vllm#18417 (Buildkite, a traceback printed without a tag: the body is the
     * message, anchored signatures see "RuntimeError: ") */
    s = strip("[2025-05-20T05:24:31Z] RuntimeError: Engine core initialization failed. See root "
              "cause above. Failed core proc(s): {}");
    cr_assert_str_eq(s.layers, "ci-stamp");
    cr_assert_str_eq(s.body, "RuntimeError: Engine core initialization failed. See root cause "
                             "above. Failed core proc(s): {}");
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2025, 5, 20, 5, 24, 31, 0));
    s = strip("[2025-05-20T05:24:31Z]   File \"/vllm-workspace/tests/utils.py\", line 727, in "
              "wrapper");
    cr_assert_str_eq(s.body, "  File \"/vllm-workspace/tests/utils.py\", line 727, in wrapper");
    /* vllm-project/vllm#6999 (Buildkite, vLLM 0.5's logger without brackets) */
    s = strip("[2024-08-09T08:48:57Z] ERROR 08-09 08:48:57 async_llm_engine.py:61] Engine "
              "background task failed");
    cr_assert_str_eq(s.layers, "ci-stamp+vllm");
    cr_assert_str_eq(s.body, "Engine background task failed");
    /* SGLang's own stamp (no 'T', no 'Z') stays SGLang's message layer */
    s = strip("[2025-03-07 09:25:11 TP1] Load weight end.");
    cr_assert_str_eq(s.layers, "sglang");
}

Test(tokenize, prefix_github_actions_stamp_before_vllm_process_tag)
{
    /* ppc64le/build-scripts#8270 (a GitHub Actions job log: .NET's round-trip stamp, seven
     * fraction digits and 'Z', then a space, on every line) */
    struct stripped s = strip("2026-06-02T07:46:50.8855021Z (EngineCore_DP0 pid=39062) "
                              "AssertionError: VLLM_CPU_NUM_OF_RESERVED_CPU is too large");
    cr_assert_str_eq(s.layers, "ci-stamp+process-tag");
    cr_assert_str_eq(s.body, "AssertionError: VLLM_CPU_NUM_OF_RESERVED_CPU is too large");
    cr_assert_str_eq(s.process, "EngineCore_DP0");
    cr_assert_str_eq(s.pid, "39062");
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2026, 6, 2, 7, 46, 50, 885502));
    s = strip("2026-06-02T07:46:50.8838733Z (EngineCore_DP0 pid=39062)   File \"/home/tester/"
              "cpu_worker.py\", line 61, in init_device");
    cr_assert_str_eq(s.body, "  File \"/home/tester/cpu_worker.py\", line 61, in init_device");
    /* the same stamp before a vLLM logger header */
    s = strip("2026-06-02T07:46:50.8829541Z (EngineCore_DP0 pid=39062) ERROR 06-02 07:46:50 "
              "[core.py:708] EngineCore failed to start.");
    cr_assert_str_eq(s.layers, "ci-stamp+process-tag+vllm");
    cr_assert_eq(s.level, TOK_LEVEL_ERROR);
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2026, 6, 2, 7, 46, 50, 882954));
    /* near misses: six fraction digits or a zone offset may be RFC 5424 syslog, and a stamp with
     * no space after it is a value */
    s = strip("2026-11-29T10:12:55.123456+00:00 spark-02 python3[4242]: x");
    cr_assert_str_eq(s.layers, "syslog");
    ASSERT_KEPT("2026-06-02T07:46:50.885502Z (EngineCore_DP0 pid=39062) x");
    ASSERT_KEPT("2026-06-02T07:46:50.8855021Z,12,34");
}

Test(tokenize, prefix_buildkit_step_output)
{
    /* dassencio/codespaces-demo-cpp#3 (docker build --progress=plain: "#STEP SECONDS " before
     * each line a RUN step printed) */
    struct stripped s = strip("#6 1.547 Get:1 http://deb.debian.org/debian buster InRelease "
                              "[122 kB]");
    cr_assert_str_eq(s.layers, "buildkit");
    cr_assert_str_eq(s.body, "Get:1 http://deb.debian.org/debian buster InRelease [122 kB]");
    /* a pip step: the anchored pip shapes see "Collecting ..." (the shape of pip's output in a
     * RUN step, as in the step above) */
    s = strip("#10 43.66 Collecting nvidia-curand-cu11==10.2.10.91 (from torch==2.0.0)");
    cr_assert_str_eq(s.body, "Collecting nvidia-curand-cu11==10.2.10.91 (from torch==2.0.0)");
    /* BuildKit's own step lines carry no program output: kept */
    ASSERT_KEPT("#6 [dev_container_auto_added_stage_label 2/6] RUN apt-get update");
    ASSERT_KEPT("#5 DONE 45.1s");
    ASSERT_KEPT("#5 extracting "
                "sha256:4f4fb700ef54461cfa02571ae0db9a0dc1e0cdb5577484a6d75e68dc38e8acc1 done");
}

Test(tokenize, prefix_markdown_quote)
{
    /* vllm-project/vllm#12847 (a comment quoting another user's docker logs, "> " before each
     * line): the quoted line's own indent stays, and the prefixes under the quote are taken */
    struct stripped s = strip("> Collecting nvidia-ml-py<13.0.0a0,>=12.0.0 (from pynvml)");
    cr_assert_str_eq(s.layers, "quote");
    cr_assert_str_eq(s.body, "Collecting nvidia-ml-py<13.0.0a0,>=12.0.0 (from pynvml)");
    s = strip(">   Downloading pynvml-12.0.0-py3-none-any.whl.metadata (5.4 kB)");
    cr_assert_str_eq(s.body, "  Downloading pynvml-12.0.0-py3-none-any.whl.metadata (5.4 kB)");
    /* a quoted Buildkite line (the shape of vllm-omni#3397's lines, quoted) */
    s = strip("> [2026-05-06T18:36:09Z] (APIServer pid=182) INFO 05-06 18:36:09 "
              "[stage_engine_core_client.py:262] add request");
    cr_assert_str_eq(s.layers, "quote+ci-stamp+process-tag+vllm");
    cr_assert_str_eq(s.body, "add request");
    /* Python's prompt and an arrow are not quotes */
    ASSERT_KEPT(">>> import torch");
    ASSERT_KEPT(">> x");
    ASSERT_KEPT(">x");
}

Test(tokenize, prefix_compose_service_then_sglang)
{
    /* sgl-project/sglang#12496 (docker compose v2 "service-N  | ") */
    struct stripped s = strip("sglang-1  | [2025-11-01 16:50:30] server_args=ServerArgs("
                              "model_path='/models/google/gemma-3-12b-it')");
    cr_assert_str_eq(s.layers, "compose+sglang");
    cr_assert_str_eq(s.service, "sglang-1");
    cr_assert_str_eq(s.body, "server_args=ServerArgs(model_path='/models/google/gemma-3-12b-it')");
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2025, 11, 1, 16, 50, 30, 0));
    /* compose v1 "service_N | " and a container_name padded to its neighbours */
    s = strip("vllm_1     | RuntimeError: CUDA error: out of memory");
    cr_assert_str_eq(s.service, "vllm_1");
    cr_assert_str_eq(s.body, "RuntimeError: CUDA error: out of memory");
    s = strip("trainer  | Traceback (most recent call last):");
    cr_assert_str_eq(s.service, "trainer");
}

Test(tokenize, prefix_compose_near_misses_keep_their_bytes)
{
    ASSERT_KEPT("| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      |");
    ASSERT_KEPT("loss | 0.52");       /* one space: a table cell, not a compose prefix */
    ASSERT_KEPT("  | Name  | Type "); /* Lightning's model summary */
}

Test(tokenize, prefix_kubectl_pod_and_container)
{
    /* kubectl logs --prefix: "[pod/<pod>/<container>] " (kubectl logs.go; the shape quoted in
     * kubernetes-era tooling such as stern's docs) */
    struct stripped s = strip("[pod/llama-finetune-worker-0/pytorch] torch.OutOfMemoryError: CUDA "
                              "out of memory. Tried to allocate 2.00 GiB.");
    cr_assert_str_eq(s.layers, "kubectl");
    cr_assert_str_eq(s.pod, "llama-finetune-worker-0");
    cr_assert_str_eq(s.service, "pytorch");
    cr_assert_str_eq(s.body, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 "
                             "GiB.");
}

Test(tokenize, prefix_syslog_host_tag_pid_then_rank)
{
    /* journalctl -o short of a systemd-run training job; then PyTorch's rank tag */
    struct stripped s =
        strip("Nov 29 10:12:55 spark-02 python3[4242]: [rank1]: RuntimeError: NCCL error");
    cr_assert_str_eq(s.layers, "syslog+torchrun");
    cr_assert_str_eq(s.host, "spark-02");
    cr_assert_str_eq(s.service, "python3");
    cr_assert_str_eq(s.pid, "4242");
    cr_assert_str_eq(s.rank, "1");
    cr_assert_str_eq(s.body, "RuntimeError: NCCL error");
    ASSERT_TIME(s.time, AZ_TIME_NOYEAR, noyear_usec(11, 29, 10, 12, 55, 0));
}

Test(tokenize, prefix_journalctl_short_iso_kernel)
{
    /* journalctl -k -o short-iso of an Xid (NVIDIA/open-gpu-kernel-modules issues' shape) */
    struct stripped s = strip("2026-11-29T10:12:55+0000 spark-01 kernel: NVRM: Xid "
                              "(PCI:0000:01:00): 79, pid=1234, GPU has fallen off the bus.");
    cr_assert_str_eq(s.layers, "syslog");
    cr_assert_str_eq(s.host, "spark-01");
    cr_assert_str_eq(s.service, "kernel");
    cr_assert_str_eq(s.body, "NVRM: Xid (PCI:0000:01:00): 79, pid=1234, GPU has fallen off the "
                             "bus.");
    /* near misses: python logging's ",mmm" millis and a double space after the stamp */
    ASSERT_KEPT("2026-01-13T10:02:56,000 Attempting uninstall: triton");
    ASSERT_KEPT("Nov 29 10:12:55  Attempting uninstall: triton");
}

Test(tokenize, prefix_journal_json_object)
{
    /* journalctl -o json: one object per line, compact (systemd >= 246) and with " : " (older,
     * the DigitalOcean journalctl tutorial's sample); MESSAGE as written, escapes kept */
    struct stripped s = strip(
        "{\"__CURSOR\":\"s=13a2;i=116f1\",\"__REALTIME_TIMESTAMP\":\"1757942400000000\","
        "\"PRIORITY\":\"3\",\"_HOSTNAME\":\"spark-01\",\"SYSLOG_IDENTIFIER\":\"kernel\","
        "\"MESSAGE\":\"NVRM: Xid (PCI:0000:01:00): 79, pid=812, GPU has fallen off the bus.\"}");
    cr_assert_str_eq(s.layers, "journal");
    cr_assert_str_eq(s.body,
                     "NVRM: Xid (PCI:0000:01:00): 79, pid=812, GPU has fallen off the bus.");
    cr_assert_str_eq(s.host, "spark-01");
    cr_assert_str_eq(s.service, "kernel");
    cr_assert_eq(s.level, TOK_LEVEL_ERROR);
    ASSERT_TIME(s.time, AZ_TIME_ABS, INT64_C(1757942400000000));
    s = strip("{ \"__CURSOR\" : \"s=13a2\", \"__REALTIME_TIMESTAMP\" : \"1422990364739502\", "
              "\"_PID\" : \"2345\", \"_COMM\" : \"python3\", \"MESSAGE\" : \"RuntimeError: "
              "\\\"x\\\" failed\", \"PRIORITY\" : \"6\" }");
    cr_assert_str_eq(s.body, "RuntimeError: \\\"x\\\" failed");
    cr_assert_str_eq(s.pid, "2345");
    cr_assert_str_eq(s.service, "python3");
    cr_assert_eq(s.level, TOK_LEVEL_INFO);
    /* a binary MESSAGE is an array of bytes: nothing to match, the record is kept */
    ASSERT_KEPT("{\"__REALTIME_TIMESTAMP\":\"1757942402000000\",\"PRIORITY\":\"4\","
                "\"MESSAGE\":[72,105,0,33]}");
    /* a JSON metrics line is no log envelope */
    ASSERT_KEPT("{\"loss\": 0.52, \"step\": 10}");
}

Test(tokenize, prefix_docker_json_log_with_a_colored_ray_tag)
{
    /* docker's json-file driver ("log", "stream", "time"; the line keeps its "\n"), holding a
     * Ray worker's coloured tag (zhaochenyang20/Awesome-ML-SYS-Tutorial#106) */
    struct stripped s = strip("{\"log\":\"\\u001b[36m(WorkerDict pid=616, ip=192.168.149.159)"
                              "\\u001b[0m RuntimeError: CUDA error: an illegal memory access was "
                              "encountered\\n\",\"stream\":\"stderr\",\"time\":\"2025-03-01T10:00:"
                              "00.123456789Z\"}");
    cr_assert_str_eq(s.layers, "docker-json+process-tag");
    cr_assert_str_eq(s.body, "RuntimeError: CUDA error: an illegal memory access was encountered");
    cr_assert_str_eq(s.process, "WorkerDict");
    cr_assert_str_eq(s.ip, "192.168.149.159");
    cr_assert_str_eq(s.host, "", "an address is not a host name");
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2025, 3, 1, 10, 0, 0, 123456));
}

Test(tokenize, prefix_srun_label_then_rank_tags)
{
    /* srun --label: SchedMD/slurm's srun writes fprintf(out, "%0*d: ", fmt_width, tasknum), the
     * task number zero-padded to the widest; here over PyTorch's rank tag (the "42: [rank42]:"
     * shape of issue #13's peers' fixtures), and without the space before torchrun --tee's tag
     * (the "8:[default0]:" of a ModelOpt run's error log) */
    const char *line = "42: [rank42]: Traceback (most recent call last):";
    struct stripped s = strip(line);
    cr_assert_str_eq(s.layers, "srun+torchrun");
    cr_assert_str_eq(s.task, "42");
    cr_assert_str_eq(s.rank, "42");
    cr_assert_str_eq(s.body, "Traceback (most recent call last):");
    cr_assert_str_eq(lane(TOK_KIND_STDERR, line), "rank42");
    s = strip("8:[default0]:/opt/conda/lib/python3.10/site-packages/modelopt/torch/utils/"
              "logging.py:115: UserWarning: Failed to import diffusers plugin");
    cr_assert_str_eq(s.layers, "srun+torchrun");
    cr_assert_str_eq(s.task, "8");
    cr_assert_str_eq(s.process, "default");
    cr_assert_str_eq(s.rank, "0");
    cr_assert(strncmp(s.body, "/opt/conda/", 11) == 0, "%s", s.body);
    s = strip("07: RuntimeError: CUDA error: an illegal memory access was encountered");
    cr_assert_str_eq(s.task, "07");
    cr_assert_str_eq(s.body, "RuntimeError: CUDA error: an illegal memory access was encountered");
    /* near misses: a clock, a ratio */
    ASSERT_KEPT("12:30:45 training resumed");
    ASSERT_KEPT("1:2 split of the dataset");
}

Test(tokenize, prefix_torchrun_and_pytorch_rank_tags)
{
    /* PyTorch >= 2.2 tags each rank's stderr; torchtitan's docs show torchrun --tee's tag */
    struct stripped s = strip("[rank0]: ModuleNotFoundError: No module named 'bitsandbytes'");
    cr_assert_str_eq(s.layers, "torchrun");
    cr_assert_str_eq(s.body, "ModuleNotFoundError: No module named 'bitsandbytes'");
    s = strip("[rank0]:   File \"/usr/lib/python3.10/runpy.py\", line 196, in _run_module_as_main");
    cr_assert_str_eq(s.body,
                     "  File \"/usr/lib/python3.10/runpy.py\", line 196, in "
                     "_run_module_as_main",
                     "one separating space is the tag's, the indent the frame's");
    s = strip("[default0]:[titan] 2025-01-01 10:00:00,000 - root - INFO - Starting job: Llama 3 8B "
              "training");
    cr_assert_str_eq(s.process, "default");
    cr_assert_str_eq(s.rank, "0");
    cr_assert(strncmp(s.body, "[titan] ", 8) == 0, "%s", s.body);
}

Test(tokenize, prefix_open_mpi_tag_output)
{
    /* horovodrun / mpirun --tag-output (horovod docs' tensorflow_mnist run), and with
     * --timestamp-output (a TensorFlow-on-Horovod log) */
    struct stripped s = strip("[1,0]<stderr>:INFO:tensorflow:loss = 0.13126025, step = 300 (0.191 "
                              "sec)");
    cr_assert_str_eq(s.layers, "mpirun");
    cr_assert_str_eq(s.rank, "0");
    cr_assert_str_eq(s.body, "INFO:tensorflow:loss = 0.13126025, step = 300 (0.191 sec)");
    s = strip("Thu Jun 18 14:28:35 2020[1,0]<stderr>:2020-06-18 14:28:35.310263: W "
              "tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
              "dynamic library 'libnvinfer.so.6'");
    cr_assert_str_eq(s.layers, "mpirun");
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2020, 6, 18, 14, 28, 35, 0));
    cr_assert(strncmp(s.body, "2020-06-18 14:28:35.310263: W ", 30) == 0, "%s", s.body);
    cr_assert_str_eq(lane(TOK_KIND_TEXT, "[1,3]<stdout>:# nccl-tests"), "rank3");
    /* near misses: Python lists at line start */
    ASSERT_KEPT("[1, 2, 3]");
    ASSERT_KEPT("[1,2]");
}

Test(tokenize, prefix_pdsh_host_then_deepspeed_logger)
{
    /* DeepSpeed's pdsh multi-node launcher (huggingface/accelerate#1317) */
    const char *line = "104.171.201.172: [2023-04-16 02:38:19,113] [INFO] [launch.py:247:main] "
                       "dist_world_size=16";
    struct stripped s = strip(line);
    cr_assert_str_eq(s.layers, "pdsh+deepspeed");
    cr_assert_str_eq(s.ip, "104.171.201.172", "a hostfile of addresses names no host");
    cr_assert_str_eq(s.host, "");
    cr_assert_str_eq(s.source, "launch.py:247:main");
    cr_assert_eq(s.level, TOK_LEVEL_INFO);
    cr_assert_str_eq(s.body, "dist_world_size=16");
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2023, 4, 16, 2, 38, 19, 113000));
    s = strip("worker-1: [2023-04-16 02:38:19,113] [INFO] [launch.py:229:main] WORLD INFO DICT");
    cr_assert_str_eq(s.host, "worker-1");
    cr_assert_str_eq(lane(TOK_KIND_TRAIN, "worker-1: [2023-04-16 02:38:19,113] [INFO] "
                                          "[launch.py:229:main] WORLD INFO DICT"),
                     "worker-1");
    /* near miss: an exception whose message starts with a bracket is no host */
    ASSERT_KEPT("OSError: [Errno 28] No space left on device");
}

Test(tokenize, prefix_deepspeed_logger_alone)
{
    /* deepspeedai/DeepSpeed#579 */
    struct stripped s = strip("[2020-12-05 17:42:22,315] [INFO] [runner.py:283:main] Using IP "
                              "address of 192.168.2.57 for node 192.168.2.57");
    cr_assert_str_eq(s.layers, "deepspeed");
    cr_assert_str_eq(s.body, "Using IP address of 192.168.2.57 for node 192.168.2.57");
}

Test(tokenize, prefix_ray_process_tags)
{
    /* vllm-project/vllm#13535 (a Ray worker's stack, the raylet's report) */
    struct stripped s = strip("(RayWorkerWrapper pid=2667395) /lib/x86_64-linux-gnu/libc.so.6"
                              "(+0x94ac3) [0x7fdb899c4ac3]");
    cr_assert_str_eq(s.layers, "process-tag");
    cr_assert_str_eq(s.process, "RayWorkerWrapper");
    cr_assert_str_eq(s.body, "/lib/x86_64-linux-gnu/libc.so.6(+0x94ac3) [0x7fdb899c4ac3]");
    s = strip("(raylet) A worker died or was killed while executing a task by an unexpected "
              "system error.");
    cr_assert_str_eq(s.layers, "ray");
    cr_assert_str_eq(s.body, "A worker died or was killed while executing a task by an "
                             "unexpected system error.");
    /* the autoscaler's elapsed-time tag (YeWR/EfficientZero#44) */
    s = strip("(scheduler +2m13s) Warning: The following resource request cannot be scheduled "
              "right now: {'GPU': 0.125, 'CPU': 0.5}.");
    cr_assert_str_eq(s.layers, "ray");
    cr_assert(strncmp(s.body, "Warning: The following", 22) == 0, "%s", s.body);
    /* a task on another node (zhaochenyang20/Awesome-ML-SYS-Tutorial#106) */
    s = strip("(WorkerDict pid=616, ip=192.168.149.159) frame #44: + 0x29ac5d");
    cr_assert_str_eq(s.ip, "192.168.149.159");
    cr_assert_str_eq(s.body, "frame #44: + 0x29ac5d");
    s = strip("(pid=4711) RuntimeError: x");
    cr_assert_str_eq(s.pid, "4711");
    cr_assert_str_eq(s.body, "RuntimeError: x");
}

Test(tokenize, prefix_process_tag_near_misses_keep_their_bytes)
{
    ASSERT_KEPT("(venv) $ python train.py --model llama");
    ASSERT_KEPT("(base) user@spark:~$ nvidia-smi");
    ASSERT_KEPT("(see below) 2025-04-02 15:02:00 something");
}

Test(tokenize, prefix_hf_logger_header)
{
    /* transformers examples: "[%(levelname)s|%(filename)s:%(lineno)s] %(asctime)s >> " */
    struct stripped s =
        strip("[INFO|trainer.py:2314] 2026-11-29 10:12:55,123 >> ***** Running training *****");
    cr_assert_str_eq(s.layers, "hf");
    cr_assert_str_eq(s.source, "trainer.py:2314");
    cr_assert_str_eq(s.body, "2026-11-29 10:12:55,123 >> ***** Running training *****");
}

Test(tokenize, prefix_ipython_traceback_gutter)
{
    /* IPython 8 tracebacks ("----> 4 import constants" in a cell, "--> 937     fx = ..." in a
     * library frame; both shapes quoted in notebook outputs across GitHub) */
    struct stripped s = strip("----> 4 import flash_attn");
    cr_assert_str_eq(s.layers, "ipython");
    cr_assert_str_eq(s.body, "import flash_attn");
    s = strip("--> 937     fx = f(*x0)");
    cr_assert_str_eq(s.body, "    fx = f(*x0)");
    /* the header rule and the frame headers are no gutter */
    ASSERT_KEPT("---------------------------------------------------------------------------");
    ASSERT_KEPT("Cell In[3], line 4");
    ASSERT_KEPT("File ~/x/site-packages/torch/cuda/__init__.py:300, in _lazy_init()");
    ASSERT_KEPT(" ---> Running in 5f3e6a1b2c3d"); /* docker build's legacy step output */
}

Test(tokenize, prefix_tensorrt_llm_python_and_cpp_loggers)
{
    /* NVIDIA/TensorRT-LLM#7818 (the Python logger with a rank, 09/17/2025) */
    struct stripped s = strip("[09/17/2025-21:24:19] [TRT-LLM] [RANK 2] [E] Error executing "
                              "load_single_module with args ('model.layers.9.mlp.gate_up_proj', "
                              "Linear()): CUDA out of memory. Tried to allocate 40.00 MiB.");
    cr_assert_str_eq(s.layers, "trtllm");
    cr_assert_str_eq(s.body, "Error executing load_single_module with args "
                             "('model.layers.9.mlp.gate_up_proj', Linear()): CUDA out of memory. "
                             "Tried to allocate 40.00 MiB.");
    cr_assert_str_eq(s.rank, "2");
    cr_assert_eq(s.level, TOK_LEVEL_ERROR);
    ASSERT_TIME(s.time, AZ_TIME_ABS, abs_usec(2025, 9, 17, 21, 24, 19, 0));
    /* before the rank (a TensorRT-LLM deployment guide's startup log, 10/21/2025) */
    s = strip("[10/21/2025-23:23:13] [TRT-LLM] [I] TensorRT-LLM inited.");
    cr_assert_str_eq(s.body, "TensorRT-LLM inited.");
    cr_assert_eq(s.level, TOK_LEVEL_INFO);
    cr_assert_str_eq(s.rank, "");
    /* the C++ logger (NVIDIA/TensorRT-LLM#2398), and under srun --label */
    s = strip("[TensorRT-LLM][INFO] Rank 1 is using GPU 1");
    cr_assert_str_eq(s.layers, "trtllm");
    cr_assert_str_eq(s.body, "Rank 1 is using GPU 1");
    cr_assert_eq(s.level, TOK_LEVEL_INFO);
    s = strip("0: [12/04/2025-18:38:28] [TRT-LLM] [RANK 0] [I] moe_load_balancer finalizing "
              "model...");
    cr_assert_str_eq(s.layers, "srun+trtllm");
    cr_assert_str_eq(s.body, "moe_load_balancer finalizing model...");
    /* near misses: a date that is no date, a level letter that is no level, another tag */
    ASSERT_KEPT("[13/17/2025-21:24:19] [TRT-LLM] [E] x");
    ASSERT_KEPT("[09/17/2025-21:24:19] [TRT-LLM] [X] x");
    ASSERT_KEPT("[TensorRT-LLM][Rank 1] x");
}

Test(tokenize, prefix_python_traceback_source_echo_has_no_message)
{
    /* CPython prints a frame's source line under "  File ..., line N, in f", indented by four
     * spaces (traceback.FrameSummary / StackSummary.format); lines from
     * facebookresearch/detectron2#460 (raise) and Dao-AILab/flash-attention's
     * flash_attn/cute/flash_fwd_sm100.py (assert) */
    struct stripped s = strip("    raise AssertionError(\"Torch not compiled with CUDA enabled\")");
    cr_assert_str_eq(s.layers, "py-source");
    cr_assert_str_eq(s.body, "");
    s = strip(
        "    assert self.arch >= Arch.sm_100 and self.arch <= Arch.sm_110f, \"Only SM 10.x and "
        "11.x are supported\"");
    cr_assert_str_eq(s.layers, "py-source");
    cr_assert_str_eq(s.body, "");
    /* the exception line itself, other indents and other statements keep their message */
    ASSERT_KEPT("AssertionError: Torch not compiled with CUDA enabled");
    ASSERT_KEPT("  raise RuntimeError(msg)");
    ASSERT_KEPT("    raised = True");
    ASSERT_KEPT("    Uninstalling torch-2.3.1+cu121:");
    ASSERT_KEPT("assert self.arch >= Arch.sm_100, \"Only SM 10.x and 11.x are supported\"");
}

Test(tokenize, prefix_plain_records_keep_their_bytes)
{
    ASSERT_KEPT("2026-11-29 10:12:55,123 - INFO - trainer: step 10");
    ASSERT_KEPT("Traceback (most recent call last):");
    ASSERT_KEPT("[  123.456789] NVRM: Xid (PCI:0000:01:00): 79");
    ASSERT_KEPT("[Sat Nov 29 10:12:55 2026] NVRM: Xid (PCI:0000:01:00): 79");
    ASSERT_KEPT("[E1129 10:12:55.123456 ProcessGroupNCCL.cpp:563] Watchdog caught");
    ASSERT_KEPT("spark-02:984:984 [0] NCCL INFO Bootstrap : Using enp1s0");
    ASSERT_KEPT("{'loss': 0.52, 'grad_norm': 1.1, 'epoch': 0.1}");
    ASSERT_KEPT("");
}

Test(tokenize, prefix_layers_are_ordered_and_bounded)
{
    /* a logger header is the last layer: a rank tag inside the message stays */
    struct stripped s = strip("ERROR 11-05 12:19:32 [core.py:1] [rank0]: x");
    cr_assert_str_eq(s.layers, "vllm");
    cr_assert_str_eq(s.body, "[rank0]: x");
    /* a transport prefix inside a process tag is message text */
    s = strip("[rank0]: sglang-1  | x");
    cr_assert_str_eq(s.layers, "torchrun");
    cr_assert_str_eq(s.body, "sglang-1  | x");
    /* at most TOK_PREFIX_LAYERS_MAX layers, whatever the record */
    s = strip("[rank0]:[rank1]:[rank2]:[rank3]:[rank4]:[rank5]: x");
    cr_assert_eq(s.n, TOK_PREFIX_LAYERS_MAX);
    cr_assert_str_eq(s.body, "[rank4]:[rank5]: x");
    cr_assert_str_eq(s.rank, "3", "the innermost stripped layer's rank");
}

Test(tokenize, prefix_outer_time_inner_facts)
{
    /* a journal entry of a vLLM server: the journal's stamp has the year, the logger's level and
     * process are the inner layer's */
    struct stripped s = strip("{\"__REALTIME_TIMESTAMP\":\"1762345172000000\",\"_HOSTNAME\":"
                              "\"spark-01\",\"MESSAGE\":\"(EngineCore_DP0 pid=7) ERROR 11-05 "
                              "12:19:32 [core.py:708] EngineCore failed to start.\"}");
    cr_assert_str_eq(s.layers, "journal+process-tag+vllm");
    cr_assert_str_eq(s.body, "EngineCore failed to start.");
    ASSERT_TIME(s.time, AZ_TIME_ABS, INT64_C(1762345172000000));
    cr_assert_eq(s.level, TOK_LEVEL_ERROR);
    cr_assert_str_eq(s.host, "spark-01");
    cr_assert_str_eq(s.process, "EngineCore_DP0");
}

Test(tokenize, prefix_long_and_hostile_records_are_bounded)
{
    /* a name longer than any field cap is no prefix; bytes past the record are never read (the
     * helpers copy records to exact-size buffers for AddressSanitizer) */
    char big[300];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    memcpy(big + 200, "-1  | x", 7);
    ASSERT_KEPT(big);
    ASSERT_KEPT("(EngineCore_DP0 pid=");
    ASSERT_KEPT("[rank");
    ASSERT_KEPT("{\"MESSAGE\":\"unterminated");
    ASSERT_KEPT("{\"log\":");
    struct stripped s = strip("(x pid=1)");
    cr_assert_str_eq(s.body, "");
}

Test(tokenize, prefix_time_and_level_come_through_the_public_parsers)
{
    size_t end = 0;
    struct az_time t = parse("sglang-1  | [2025-11-01 16:50:30] server_args=ServerArgs()", &end);
    ASSERT_TIME(t, AZ_TIME_ABS, abs_usec(2025, 11, 1, 16, 50, 30, 0));
    cr_assert_eq(end, 32);
    /* a stamp inside a message after a stripped tag is the record's */
    t = parse("42: [rank42]: [E1129 10:12:55.123456 ProcessGroupNCCL.cpp:563] Watchdog", NULL);
    ASSERT_TIME(t, AZ_TIME_NOYEAR, noyear_usec(11, 29, 10, 12, 55, 123456));
    cr_assert_eq(level("42: [rank42]: [E1129 10:12:55.123456 ProcessGroupNCCL.cpp:563] x"),
                 TOK_LEVEL_ERROR);
    cr_assert_eq(level("{\"PRIORITY\":\"4\",\"MESSAGE\":\"NVRM: GPU at PCI:0000:01:00\"}"),
                 TOK_LEVEL_WARN);
}

Test(tokenize, classify_compose_prefixed_traceback_is_stderr)
{
    /* the same lines unprefixed are a traceback's frame and exception lines (shapes read at the
     * start of a line); compose's prefix must not hide them */
    const char *head = "trainer-1  |   File \"/app/train.py\", line 12, in <module>\n"
                       "trainer-1  | RuntimeError: CUDA error: out of memory\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_STDERR);
}

Test(tokenize, classify_rank_tagged_oom_is_not_an_smi_csv)
{
    /* one "[rank7]: torch.OutOfMemoryError: ... 18.00 MiB ..." line (tests/realworld2/08): its
     * MiB figures and ", " once made it an nvidia-smi CSV */
    const char *head = "[rank7]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                       "18.00 MiB. GPU 7 has a total capacity of 79.15 GiB of which 17.62 MiB is "
                       "free.\n";
    cr_assert_eq(classify("train.log", head), TOK_KIND_STDERR);
}

Test(tokenize, classify_vllm_server_behind_process_tags)
{
    /* vLLM's NCCL INFO lines under its process tags are still the server's log (the
     * corpus/G10-a shape: engine core, then a Ray worker) */
    const char *head =
        "(EngineCore_DP0 pid=3460) INFO 05-19 20:11:20 [core.py:77] Initializing a V1 engine\n"
        "(EngineCore_DP0 pid=3460) (RayWorkerWrapper pid=3601) spark-a:3601:3601 [0] NCCL INFO "
        "Channel 00/04 :    0   1\n"
        "(EngineCore_DP0 pid=3460) (RayWorkerWrapper pid=3601) spark-a:3601:3601 [0] NCCL INFO "
        "Channel 01/04 :    0   1\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_VLLM);
}

Test(tokenize, prefix_strip_up_to_a_class)
{
    /* a caller may take the transport and process layers only, leaving the logger's header */
    const char *s = "sglang-1  | (EngineCore_DP0 pid=7) ERROR 11-05 12:19:32 [core.py:708] x";
    struct rec r = rec_of(s);
    struct tok_prefix pf;
    cr_assert_eq(tok_prefix_strip(r.p, r.len, TOK_PREFIX_TRANSPORT, &pf), 1);
    cr_assert_str_eq(pf.layer[0].name, "compose");
    cr_assert_eq(pf.body, 12);
    cr_assert_eq(tok_prefix_strip(r.p, r.len, TOK_PREFIX_PROCESS, &pf), 2);
    cr_assert(strncmp(r.p + pf.body, "ERROR 11-05", 11) == 0);
    cr_assert_eq(pf.level, TOK_LEVEL_NONE, "the logger's level is not read when it is kept");
    cr_assert_eq(tok_prefix_strip(r.p, r.len, TOK_PREFIX_MESSAGE, &pf), 3);
    cr_assert_eq(pf.layer[2].cls, TOK_PREFIX_MESSAGE);
    cr_assert_eq(pf.layer[2].timed, 1);
    cr_assert_eq(pf.body_len, 1);
    free(r.p);
}

Test(tokenize, lane_syslog_host_may_be_an_address)
{
    /* rsyslog forwarding by address: the host field is what syslog wrote, and it stays the lane */
    cr_assert_str_eq(lane(TOK_KIND_KERNEL, "Nov 29 10:12:55 10.0.0.5 kernel: NVRM: Xid 79"),
                     "10.0.0.5");
}

/* The pip, collect_env and preflight words are the pack's (patterns/formats.json): without the
 * pack's lists the same lines are no pip log, and a list of other words makes its lines one. */
Test(tokenize, classify_words_come_from_the_vocabulary)
{
    const char *head = "Collecting torch\n"
                       "Successfully installed torch-2.9.0\n";
    cr_assert_eq(classify(NULL, head), TOK_KIND_PIP);
    cr_assert_neq(tok_classify(NULL, NULL, head, strlen(head)), TOK_KIND_PIP);
    const char *acme = "ACME-INSTALL ";
    const char *words[] = {acme};
    struct tok_vocab v = {.words = {[TOK_VOCAB_PIP] = words}, .n = {[TOK_VOCAB_PIP] = 1}};
    const char *site = "ACME-INSTALL torch 2.9.0\nACME-INSTALL triton 3.5.0\n";
    cr_assert_eq(tok_classify(&v, NULL, site, strlen(site)), TOK_KIND_PIP);
    cr_assert_neq(tok_classify(shipped_vocab(), NULL, site, strlen(site)), TOK_KIND_PIP);
    cr_assert_str_eq(tok_vocab_name(TOK_VOCAB_PIP), "pip-lines");
    cr_assert_null(tok_vocab_name(TOK_VOCAB_COUNT));
}

/* The shipped pack with tests/site-pack/pack loaded after it, as --extra-patterns loads it. */
static struct match_pack *load_with_site_pack(void)
{
    const char *top = getenv("GOTCHA_TOP");
    const char *dir = getenv("GOTCHA_PATTERNS");
    cr_assert(top && dir, "GOTCHA_TOP and GOTCHA_PATTERNS are set (make unit, make unit-one)");
    char site[1024];
    snprintf(site, sizeof site, "%s/tests/site-pack/pack", top);
    const char *dirs[] = {dir, site};
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(match_pack_load(&p, dirs, 2, &err), AZ_OK, "%s", err.data ? err.data : "");
    az_buf_free(&err);
    return p;
}

/* The file-name hints are the pack's ("name-hints" in patterns/formats.json): the shipped list
 * classifies every name as the table that was tok_classify.c's kind_from_name() did (6cd97a0,
 * copied here as the reference: first needle the lower-cased name holds wins), and with no pack
 * the name says nothing. The head is empty, so the name alone decides. */
Test(tokenize, shipped_name_hints_classify_as_the_c_table_did)
{
    static const struct {
        const char *needle;
        enum tok_kind kind;
    } was[] = {
        {"preflight", TOK_KIND_PREFLIGHT},
        {"dmon", TOK_KIND_SMI_DMON},
        {"smi.csv", TOK_KIND_SMI_CSV},
        {"smi.xml", TOK_KIND_SMI_XML},
        {"smi-q", TOK_KIND_SMI_Q},
        {"smi_q", TOK_KIND_SMI_Q},
        {"nvidia-smi", TOK_KIND_SMI},
        {"nvidia_smi", TOK_KIND_SMI},
        {"dmesg", TOK_KIND_KERNEL},
        {"kern", TOK_KIND_KERNEL},
        {"syslog", TOK_KIND_KERNEL},
        {"journal", TOK_KIND_KERNEL},
        {"collect_env", TOK_KIND_COLLECT_ENV},
        {"collect-env", TOK_KIND_COLLECT_ENV},
        {"pip-list", TOK_KIND_PIP_LIST},
        {"pip_list", TOK_KIND_PIP_LIST},
        {"freeze", TOK_KIND_PIP_LIST},
        {"requirements", TOK_KIND_PIP_LIST},
        {"pip", TOK_KIND_PIP},
        {"meminfo", TOK_KIND_MEMINFO},
        {"free", TOK_KIND_MEMINFO},
        {"vllm", TOK_KIND_VLLM},
        {"sglang", TOK_KIND_VLLM},
        {"nccl", TOK_KIND_NCCL},
        {"stderr", TOK_KIND_STDERR},
        {".err", TOK_KIND_STDERR},
        {"train", TOK_KIND_TRAIN},
        {"stdout", TOK_KIND_TRAIN},
    };
    /* each needle alone, dressed as a file name, in capitals, and names where order decides */
    static const char *const names[] = {
        "nvidia-smi-dmon.log",
        "nvidia-smi-q.txt",
        "nvidia_smi.csv",
        "pip-list.txt",
        "pip-freeze.txt",
        "PIP_LIST.TXT",
        "requirements-pip.txt",
        "kern.log",
        "Kernel.log",
        "train_stderr.log",
        "stdout-train.err",
        "collect_env.txt",
        "free-m.txt",
        "freeze-free.txt",
        "node0-rank1-vllm.log",
        "preflight-dmesg.txt",
        "sglang_nccl.log",
        "journalctl.txt",
        "syslog.1",
        "job.err",
        "a.csv",
        "notes.txt",
        "smi.xml.gz",
        "meminfo",
    };
    const struct tok_vocab *v = shipped_vocab();
    cr_assert_eq(v->nhints, AZ_ARRAY_LEN(was), "the shipped list is the table's length");
    char name[64];
    for (size_t i = 0; i < AZ_ARRAY_LEN(was) * 3 + AZ_ARRAY_LEN(names); i++) {
        size_t w = i % AZ_ARRAY_LEN(was);
        if (i < AZ_ARRAY_LEN(was))
            snprintf(name, sizeof name, "%s", was[w].needle);
        else if (i < AZ_ARRAY_LEN(was) * 2)
            snprintf(name, sizeof name, "run-%s.log", was[w].needle);
        else if (i < AZ_ARRAY_LEN(was) * 3)
            for (size_t c = 0; (name[c] = (char)toupper((unsigned char)was[w].needle[c])); c++)
                ;
        else
            snprintf(name, sizeof name, "%s", names[i - AZ_ARRAY_LEN(was) * 3]);
        char low[64];
        size_t c = 0;
        for (; name[c]; c++) low[c] = (char)tolower((unsigned char)name[c]);
        low[c] = '\0';
        enum tok_kind want = TOK_KIND_TEXT;
        for (size_t k = 0; k < AZ_ARRAY_LEN(was); k++)
            if (strstr(low, was[k].needle)) {
                want = was[k].kind;
                break;
            }
        cr_expect_eq(tok_classify(v, name, "", 0), want, "%s: %s, the table said %s", name,
                     tok_kind_name(tok_classify(v, name, "", 0)), tok_kind_name(want));
        cr_expect_eq(tok_classify(NULL, name, "", 0), TOK_KIND_TEXT, "%s with no pack", name);
    }
    cr_expect_eq(tok_classify(v, NULL, "", 0), TOK_KIND_TEXT);
    cr_expect_eq(tok_classify(v, "", "", 0), TOK_KIND_TEXT);
}

/* A site pack's name hint changes a kind (tests/site-pack/pack/site.json "name-hints": ACME's
 * acme-setup tool writes acme-setup-<job>.log, its install log) and goes before the shipped
 * hints: acme-setup-stdout.log is the site's install log, not a training stdout. */
Test(tokenize, site_pack_name_hint_changes_a_kind)
{
    struct match_pack *p = load_with_site_pack();
    const struct tok_vocab *v = match_pack_vocab(p);
    cr_expect_eq(tok_classify(shipped_vocab(), "acme-setup-4711.log", "", 0), TOK_KIND_TEXT);
    cr_expect_eq(tok_classify(v, "acme-setup-4711.log", "", 0), TOK_KIND_PIP);
    cr_expect_eq(tok_classify(shipped_vocab(), "acme-setup-stdout.log", "", 0), TOK_KIND_TRAIN);
    cr_expect_eq(tok_classify(v, "acme-setup-stdout.log", "", 0), TOK_KIND_PIP);
    cr_expect_eq(tok_classify(v, "dmesg.txt", "", 0), TOK_KIND_KERNEL, "the shipped hints stay");
    match_pack_free(p);
}

/* A site pack adds words too (tests/site-pack/pack/site.json "vocabulary"): the site's own
 * installer's lines ("acme-env: fetching torch", its format as the site pack declares it) are an
 * install log only with the site pack loaded after the shipped one. */
Test(tokenize, site_pack_word_changes_a_kind)
{
    struct match_pack *p = load_with_site_pack();
    const char *head = "acme-env: fetching torch\n"
                       "acme-env: installed torch-2.9.0\n";
    cr_expect_neq(tok_classify(shipped_vocab(), NULL, head, strlen(head)), TOK_KIND_PIP);
    cr_expect_eq(tok_classify(match_pack_vocab(p), NULL, head, strlen(head)), TOK_KIND_PIP);
    match_pack_free(p);
}
