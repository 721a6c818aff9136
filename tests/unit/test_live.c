/*
 * tests/unit/test_live.c - the live commands' pieces (cli/host.c, cli/cli_preflight.c): a tool
 * under a deadline, the launch's distributed settings, JSON strings, and the ten checks on
 * host facts built here (the shapes of real hosts: an NGC container whose torch pip replaced, a
 * vLLM server beside the trainer, a two-node tensor-parallel launch).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/host.h"
#include "cli/live.h"
#include "common/az.h"
#include "match/match.h"

/* ---- helpers ---- */

static void host_init(struct cli_host *h)
{
    memset(h, 0, sizeof *h);
    h->smi_table = az_xstrdup("");
    h->cuda_driver = az_xstrdup("");
    h->container_marker = az_xstrdup("");
    h->world_size = az_xstrdup("");
    h->nnodes = az_xstrdup("");
    h->tp_size = az_xstrdup("");
    h->tp_where = az_xstrdup("");
    h->smi_status = CLI_TOOL_MISSING;
    h->py_status = CLI_TOOL_OK;
    h->cgroup_readable = 1;
    h->mem_total_kb = h->mem_free_kb = h->mem_available_kb = h->cached_kb = h->huge_total = -1;
}

static void host_py(struct cli_host *h, const char *key, const char *value)
{
    h->py_keys = az_xrealloc(h->py_keys, (h->npy + 1) * sizeof *h->py_keys);
    h->py_values = az_xrealloc(h->py_values, (h->npy + 1) * sizeof *h->py_values);
    h->py_keys[h->npy] = az_xstrdup(key);
    h->py_values[h->npy] = az_xstrdup(value);
    h->npy++;
}

static void host_gpu(struct cli_host *h, const char *name, const char *cap)
{
    struct cli_gpu *g = &h->gpus[h->ngpus++];
    g->name = az_xstrdup(name);
    g->driver = az_xstrdup("580.95.05");
    g->cap = az_xstrdup(cap);
    g->temp = az_xstrdup("41");
    g->power = az_xstrdup("11.46 W");
    g->mem_used = az_xstrdup("[N/A]");
    g->mem_total = az_xstrdup("[N/A]");
    h->smi_status = CLI_TOOL_OK;
}

static void host_proc(struct cli_host *h, long pid, const char *name, const char *mem,
                      const char *server, const char *cap)
{
    struct cli_proc *p = &h->procs[h->nprocs++];
    p->pid = pid;
    p->name = az_xstrdup(name);
    p->gpu_mem = az_xstrdup(mem);
    p->server = az_xstrdup(server);
    p->mem_cap = az_xstrdup(cap);
}

static void set_str(char **dst, const char *v)
{
    free(*dst);
    *dst = az_xstrdup(v);
}

static struct match_pack *load_pack(void);

/* The shipped pack, loaded once per test process: its platforms place the host. */
static const struct match_pack *shipped(void)
{
    static struct match_pack *pack;
    if (!pack) pack = load_pack();
    return pack;
}

static enum cli_pf_status check(const struct cli_host *h, int g, char *text, size_t textsz)
{
    struct cli_host_limits lim;
    cli_host_limits_default(&lim);
    struct cli_preflight p;
    cli_preflight_check(h, &lim, shipped(), &p);
    enum cli_pf_status st = p.status[g - 1];
    snprintf(text, textsz, "%s", p.text[g - 1]);
    cli_preflight_free(&p);
    return st;
}

static long long ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The shipped pack ($GOTCHA_PATTERNS, set by `make unit`): it says what a launch's TP is. */
static struct match_pack *load_pack(void)
{
    const char *dir = getenv("GOTCHA_PATTERNS");
    cr_assert_not_null(dir, "GOTCHA_PATTERNS is not set");
    struct match_pack *pack = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(match_pack_load(&pack, &dir, 1, &err), AZ_OK, "%s", err.data ? err.data : "");
    az_buf_free(&err);
    return pack;
}

/* ---- a tool under a deadline ---- */

Test(live, tool_past_its_deadline_is_killed_in_time)
{
    struct cli_tool_result r;
    const char *argv[] = {"sh", "-c", "echo started; sleep 30", NULL};
    long long t0 = ms_now();
    cr_assert_eq(cli_tool_run(argv, 300, 1024, &r), CLI_TOOL_TIMEOUT);
    cr_assert_lt(ms_now() - t0, 3000, "waited %lld ms", ms_now() - t0);
    cr_assert_str_eq(r.out.data, "started\n"); /* what it said before the deadline is kept */
    cli_tool_result_free(&r);
}

Test(live, tool_missing_exit_code_and_output_cap)
{
    struct cli_tool_result r;
    const char *missing[] = {"gotcha-no-such-tool-xyz", NULL};
    cr_assert_eq(cli_tool_run(missing, 2000, 1024, &r), CLI_TOOL_MISSING);
    cli_tool_result_free(&r);
    const char *fails[] = {"sh", "-c", "echo out; exit 3", NULL};
    cr_assert_eq(cli_tool_run(fails, 5000, 1024, &r), CLI_TOOL_FAILED);
    cr_assert_eq(r.exit_code, 3);
    cr_assert_str_eq(r.out.data, "out\n");
    cli_tool_result_free(&r);
    const char *loud[] = {"sh", "-c",
                          "i=0; while [ $i -lt 2000 ]; do echo 0123456789; i=$((i+1)); done", NULL};
    cr_assert_eq(cli_tool_run(loud, 10000, 100, &r), CLI_TOOL_OK); /* read to the end: no stall */
    cr_assert_eq(r.out.len, 100);
    cr_assert(r.truncated);
    cli_tool_result_free(&r);
}

/* ---- the launch ---- */

Test(live, launch_tensor_parallel_from_config_and_command_line)
{
    char dir[] = "/tmp/gotcha-live-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char *cfg = az_xasprintf("%s/serve.yaml", dir);
    FILE *f = fopen(cfg, "w");
    cr_assert_not_null(f);
    fputs("model: Qwen/Qwen3-32B\ngpu_memory_utilization: 0.5\ntensor_parallel_size: 2\n", f);
    fclose(f);
    struct match_pack *pack = load_pack();
    struct cli_host h;
    host_init(&h);
    const char *args[] = {"torchrun", "--nnodes=2", "serve.py", cfg};
    cli_host_read_launch(&h, pack, args, 4, NULL, 0);
    cr_assert_str_eq(h.nnodes, "2");
    cr_assert_str_eq(h.tp_size, "2");
    char *where = az_xasprintf("%s:3", cfg);
    cr_assert_str_eq(h.tp_where, where);
    char text[512];
    cr_assert_eq(check(&h, 10, text, sizeof text), CLI_PF_FAIL, "%s", text);
    free(where);
    cli_host_free(&h);

    host_init(&h);
    host_gpu(&h, "NVIDIA GB10", "12.1"); /* with no GPU a passing check is skipped */
    const char *vllm[] = {"vllm", "serve", "Qwen/Qwen3-32B", "--tensor-parallel-size", "2"};
    cli_host_read_launch(&h, pack, vllm, 5, NULL, 0);
    cr_assert_str_eq(h.tp_size, "2");
    cr_assert_str_eq(h.tp_where, "the command line");
    cr_assert_eq(check(&h, 10, text, sizeof text), CLI_PF_PASS, "%s", text); /* one node */
    cli_host_free(&h);
    match_pack_free(pack);
    unlink(cfg);
    rmdir(dir);
    free(cfg);
}

/* ---- the checks ---- */

Test(live, g1_cuda12_torch_fails_on_gb10_and_is_info_on_another_gpu)
{
    struct cli_host h;
    host_init(&h);
    host_gpu(&h, "NVIDIA GB10", "12.1");
    host_py(&h, "torch.version", "2.9.0+cu128");
    host_py(&h, "torch.cuda", "12.8");
    char text[512];
    cr_assert_eq(check(&h, 1, text, sizeof text), CLI_PF_FAIL);
    cr_assert_str_eq(text, "torch built against CUDA 12.8 (need 13.x — gotcha explain G1)");
    set_str(&h.gpus[0].name, "NVIDIA H100 80GB HBM3");
    set_str(&h.gpus[0].cap, "9.0");
    cr_assert_eq(check(&h, 1, text, sizeof text), CLI_PF_INFO, "%s", text);
    cli_host_free(&h);

    host_init(&h);
    host_py(&h, "torch.version", "2.9.0+cu130");
    host_py(&h, "torch.cuda", "13.0");
    h.ldconfig_read = h.cudart12 = h.cudart13 = 1;
    cr_assert_eq(check(&h, 1, text, sizeof text), CLI_PF_WARN, "%s", text);
    cr_assert(strstr(text, "libcudart.so.12 beside libcudart.so.13"));
    cli_host_free(&h);
}

Test(live, g2_flash_attn_broken_fails_and_unsloth_beside_it_warns)
{
    struct cli_host h;
    host_init(&h);
    host_gpu(&h, "NVIDIA GB10", "12.1");
    host_py(&h, "flash_attn.error", "ImportError: flash_attn_2_cuda.so: undefined symbol: x");
    char text[512];
    cr_assert_eq(check(&h, 2, text, sizeof text), CLI_PF_FAIL, "%s", text);
    cli_host_free(&h);
    host_init(&h);
    host_gpu(&h, "NVIDIA GB10", "12.1");
    host_py(&h, "flash_attn.version", "2.7.4.post1");
    host_py(&h, "flash_attn.sm121", "1");
    host_py(&h, "unsloth", "1");
    cr_assert_eq(check(&h, 2, text, sizeof text), CLI_PF_WARN, "%s", text);
    cr_assert(strstr(text, "HAS_FLASH_ATTENTION = False"));
    cli_host_free(&h);
}

Test(live, g6_uncapped_server_warns_capped_one_passes)
{
    struct cli_host h;
    host_init(&h);
    host_gpu(&h, "NVIDIA GB10", "12.1");
    host_proc(&h, 4242, "vllm", "61904 MiB", "vllm", "");
    host_proc(&h, 2744, "/usr/lib/xorg/Xorg", "43 MiB", "", "");
    char text[512];
    cr_assert_eq(check(&h, 6, text, sizeof text), CLI_PF_WARN, "%s", text);
    cr_assert(strstr(text, "vllm (pid 4242, no memory cap, 61904 MiB)"), "%s", text);
    cr_assert_null(strstr(text, "Xorg"), "a desktop's 43 MiB is no competitor: %s", text);
    set_str(&h.procs[0].mem_cap, "0.4");
    cr_assert_eq(check(&h, 6, text, sizeof text), CLI_PF_PASS, "%s", text);
    cli_host_free(&h);
}

Test(live, g9_pip_replaced_the_image_torch)
{
    char path[] = "/tmp/gotcha-constraint-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    /* an NGC image's pins (PIP_CONSTRAINT=/etc/pip/constraint.txt in the image) */
    const char pins[] = "torch==2.9.0a0+50eac811a6.nv25.9\ntriton==3.4.0\n";
    cr_assert_eq(write(fd, pins, strlen(pins)), (ssize_t)strlen(pins));
    close(fd);
    setenv("PIP_CONSTRAINT", path, 1);
    struct cli_host h;
    host_init(&h);
    set_str(&h.container_marker, "/.dockerenv");
    host_py(&h, "dist.torch", "2.9.1");
    host_py(&h, "dist.triton", "3.4.0");
    char text[512];
    cr_assert_eq(check(&h, 9, text, sizeof text), CLI_PF_FAIL, "%s", text);
    cr_assert(strstr(text, "torch 2.9.1 (the image pins 2.9.0a0+50eac811a6.nv25.9)"), "%s", text);
    cli_host_free(&h);
    host_init(&h);
    host_gpu(&h, "NVIDIA GB10", "12.1"); /* with no GPU a passing check is skipped */
    set_str(&h.container_marker, "/.dockerenv");
    host_py(&h, "dist.torch",
            "2.9.0a0+50eac811a6.nv25.09"); /* the same version, spelt zero-padded */
    host_py(&h, "dist.triton", "3.4.0");
    cr_assert_eq(check(&h, 9, text, sizeof text), CLI_PF_PASS, "%s", text);
    cr_assert(strstr(text, "match the image's pins"), "%s", text);
    cli_host_free(&h);
    unsetenv("PIP_CONSTRAINT");
    unlink(path);
}

Test(live, ten_lines_in_order_and_json_strings_escaped)
{
    struct cli_host h;
    host_init(&h);
    h.py_status = CLI_TOOL_MISSING;
    struct cli_host_limits lim;
    cli_host_limits_default(&lim);
    struct cli_preflight p;
    cli_preflight_check(&h, &lim, shipped(), &p);
    char *mem = NULL;
    size_t len = 0;
    FILE *ms = open_memstream(&mem, &len);
    cli_preflight_write_text(&p, ms);
    fclose(ms);
    const char *line = mem;
    for (int g = 1; g <= 10; g++) {
        char want[16]; /* "G%d " of any int: -O1 (make asan) checks the whole range */
        snprintf(want, sizeof want, "G%d ", g);
        cr_assert(strncmp(line, want, strlen(want)) == 0, "line %d: %.40s", g, line);
        line = strchr(line, '\n');
        cr_assert_not_null(line);
        line++;
    }
    cr_assert_str_eq(line, "");
    cr_assert_eq(p.status[0], CLI_PF_SKIP);
    cr_assert_str_eq(p.text[0], "python3 not available");
    free(mem);
    cli_preflight_free(&p);
    cli_host_free(&h);

    struct az_buf b = AZ_BUF_INIT;
    cli_json_string(&b, "a\"b\\c\n\x01\xff\xc3\xa9");
    cr_assert_str_eq(b.data, "\"a\\\"b\\\\c\\n\\u0001\\ufffd\xc3\xa9\"");
    az_buf_free(&b);
}

/* A host with no NVIDIA GPU (no nvidia-smi, torch names no device): nothing passes, a check that
 * would is skipped and says why; findings stay (a cu12 torch is INFO: no GB10 to break). A hung
 * nvidia-smi is a driver that is there. */
Test(live, no_gpu_skips_what_would_pass)
{
    struct cli_host h;
    host_init(&h);
    host_py(&h, "torch.version", "2.9.0+cu128");
    host_py(&h, "torch.cuda", "12.8");
    set_str(&h.container_marker, "/.dockerenv");
    cr_assert(cli_preflight_no_gpu(&h));
    struct cli_host_limits lim;
    cli_host_limits_default(&lim);
    struct cli_preflight p;
    cli_preflight_check(&h, &lim, shipped(), &p);
    for (int g = 1; g <= (int)p.n; g++)
        cr_assert_neq(p.status[g - 1], CLI_PF_PASS, "G%d PASS: %s", g, p.text[g - 1]);
    cr_assert_eq(p.status[0], CLI_PF_INFO, "%s", p.text[0]);
    cr_assert_eq(p.status[5], CLI_PF_SKIP);
    cr_assert(az_starts_with(p.text[5], strlen(p.text[5]), "no NVIDIA GPU on this host; "));
    cr_assert_eq(p.status[8], CLI_PF_SKIP);
    cr_assert_str_eq(p.text[8], "no NVIDIA GPU on this host; running inside a container "
                                "(Docker/Podman marker file present)");
    cr_assert_eq(p.status[9], CLI_PF_SKIP);
    cli_preflight_free(&p);
    h.smi_status = CLI_TOOL_TIMEOUT;
    cr_assert_not(cli_preflight_no_gpu(&h), "a hung nvidia-smi");
    h.smi_status = CLI_TOOL_MISSING;
    host_py(&h, "cuda.capability", "12.1");
    cr_assert_not(cli_preflight_no_gpu(&h), "torch sees a device");
    cli_host_free(&h);
}

/* G7 with SM121 but no sm_121a target is a WARN (--strict counts it); G4's temperature has its
 * unit (nvidia-smi's CSV gives a bare number of degrees). */
Test(live, g7_partial_warns_and_g4_names_units)
{
    struct cli_host h;
    host_init(&h);
    host_gpu(&h, "NVIDIA GB10", "12.1");
    host_py(&h, "torch.version", "2.9.0+cu130");
    host_py(&h, "torch.cuda", "13.0");
    host_py(&h, "cuda.capability", "12.1");
    host_py(&h, "cuda.arch_list", "sm_80 sm_90 sm_100 sm_120");
    unsetenv("TORCH_CUDA_ARCH_LIST");
    char text[512];
    cr_assert_eq(check(&h, 7, text, sizeof text), CLI_PF_WARN, "%s", text);
    cr_assert(strstr(text, "stay on FP8"), "%s", text);
    cr_assert_eq(check(&h, 4, text, sizeof text), CLI_PF_INFO);
    cr_assert_str_eq(text, "41 \xc2\xb0"
                           "C, 11.46 W");
    struct cli_host_limits lim;
    cli_host_limits_default(&lim);
    struct cli_preflight p;
    cli_preflight_check(&h, &lim, shipped(), &p);
    cr_assert_not(cli_preflight_failed(&p, 0));
    cr_assert(cli_preflight_failed(&p, 1), "--strict counts the WARN");
    cli_preflight_free(&p);
    cli_host_free(&h);
}
