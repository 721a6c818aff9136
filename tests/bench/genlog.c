/*
 * tests/bench/genlog.c - deterministic generator of a large training-style log for `make bench`.
 *
 *   genlog SIZE_BYTES > train.log
 *
 * Mixes the record shapes gotcha meets in a failed run's combined output, each copied from real
 * tool output: python logging, HF Trainer step dicts, tqdm progress bars refreshed with CR, NCCL
 * INFO lines, vLLM INFO/metrics lines, dmesg lines and nvidia-smi CSV rows. About one line in
 * 50,000 is a real failure line (CUDA OOM, undefined symbol, Xid, OOM killer, NCCL WARN). The same
 * seed gives the same bytes on every machine (own LCG, no rand()).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static unsigned rnd_below(unsigned n) { return rnd() % n; }

static const char *const loggers[] = {"transformers.trainer", "accelerate.utils", "__main__",
                                      "torch.distributed.run", "datasets.builder", "peft.tuners"};
static const char *const info_msgs[] = {
    "***** Running training *****",
    "  Num examples = 52,002",
    "  Gradient Accumulation steps = 4",
    "Saving model checkpoint to /workspace/out/checkpoint-%u",
    "Loading checkpoint shards: done in %u.%02us",
    "Configuration saved in /workspace/out/config.json",
    "tokenizer config file saved in /workspace/out/tokenizer_config.json",
    "Setting ds_accelerator to cuda (auto detect)",
    "Using custom data configuration default-%u",
    "Reusing dataset alpaca (/root/.cache/huggingface/datasets/alpaca)",
};

/* Failure lines, as printed by the tools (see tests/unit/test_match.c for sources). */
static const char *const rare[] = {
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
    "capacity of 119.70 GiB of which 9.88 MiB is free. Including non-PyTorch memory, this process "
    "has 104.21 GiB memory in use.",
    "ImportError: /usr/local/lib/python3.12/dist-packages/flash_attn_2_cuda.cpython-312-aarch64-"
    "linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
    "[ 8812.402917] NVRM: Xid (PCI:000f:01:00): 79, pid=4121, name=python3, GPU has fallen off the "
    "bus.",
    "[ 9120.118263] Out of memory: Killed process 4121 (python3) total-vm:131880220kB, "
    "anon-rss:118112340kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:231004kB oom_score_adj:0",
    "spark-02:4121:4388 [1] NCCL WARN socketStartConnect: Connect to 192.168.100.11<43817> failed "
    ": Software caused connection abort",
    "libcudart.so.12: cannot open shared object file: No such file or directory",
};

static unsigned long long line_no;

static int gen_line(char *out, size_t cap) {
    unsigned sec = (unsigned)(line_no / 40);
    unsigned hh = (10 + sec / 3600) % 24, mm = (sec / 60) % 60, ss = sec % 60;
    unsigned ms = (unsigned)(line_no * 7 % 1000);
    line_no++;
    if (rnd_below(50000) == 0)
        return snprintf(out, cap, "%s\n", rare[rnd_below(sizeof(rare) / sizeof(rare[0]))]);
    unsigned r = rnd_below(100);
    if (r < 22) {
        const char *fmt = info_msgs[rnd_below(sizeof(info_msgs) / sizeof(info_msgs[0]))];
        char msg[256];
        snprintf(msg, sizeof(msg), fmt, rnd_below(5000), rnd_below(60), rnd_below(100));
        return snprintf(out, cap, "2026-11-29 %02u:%02u:%02u,%03u - INFO - %s - %s\n", hh, mm, ss, ms,
                        loggers[rnd_below(sizeof(loggers) / sizeof(loggers[0]))], msg);
    }
    if (r < 40) /* HF Trainer's per-step dict */
        return snprintf(out, cap,
                        "{'loss': %u.%04u, 'grad_norm': %u.%06u, 'learning_rate': %u.%ue-05, "
                        "'epoch': %u.%02u}\n",
                        1 + rnd_below(3), rnd_below(10000), rnd_below(4), rnd_below(1000000),
                        1 + rnd_below(9), rnd_below(10), rnd_below(3), rnd_below(100));
    if (r < 55) { /* tqdm: several CR refreshes on one physical line */
        int n = 0;
        unsigned step = rnd_below(9000);
        for (int k = 0; k < 4; k++, step++) {
            unsigned pct = step * 100 / 9375;
            n += snprintf(out + n, cap - (size_t)n,
                          "%s%3u%%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8c      | %u/9375 "
                          "[%02u:%02u<%02u:%02u,  %u.%02uit/s]",
                          k ? "\r" : "", pct, step, mm, ss, (59 - mm), (59 - ss), 1 + rnd_below(6),
                          rnd_below(100));
        }
        return n + snprintf(out + n, cap - (size_t)n, "\n");
    }
    if (r < 68) /* NCCL INFO (NCCL_DEBUG=INFO) */
        return snprintf(out, cap,
                        "spark-0%u:%u:%u [%u] NCCL INFO Channel %02u/0 : %u[%u] -> %u[%u] via "
                        "P2P/IPC/read\n",
                        1 + rnd_below(2), 4000 + rnd_below(200), 4300 + rnd_below(200),
                        rnd_below(2), rnd_below(32), rnd_below(2), rnd_below(2), rnd_below(2),
                        rnd_below(2));
    if (r < 80) /* vLLM metrics logger */
        return snprintf(out, cap,
                        "INFO 11-29 %02u:%02u:%02u [metrics.py:455] Avg prompt throughput: %u.%u "
                        "tokens/s, Avg generation throughput: %u.%u tokens/s, Running: %u reqs, "
                        "Swapped: 0 reqs, Pending: %u reqs, GPU KV cache usage: %u.%u%%, CPU KV "
                        "cache usage: 0.0%%.\n",
                        hh, mm, ss, rnd_below(2000), rnd_below(10), rnd_below(80), rnd_below(10),
                        rnd_below(16), rnd_below(4), rnd_below(100), rnd_below(10));
    if (r < 90) { /* dmesg */
        static const char *const dm[] = {
            "eth0: renamed from veth%u",
            "docker0: port %u(veth5f2c) entered forwarding state",
            "audit: type=1400 audit(1732875175.%u:412): apparmor=\"STATUS\" operation=\"profile_load\"",
            "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Quota mode: none. (%u)",
            "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  %u",
        };
        char msg[200];
        snprintf(msg, sizeof(msg), dm[rnd_below(sizeof(dm) / sizeof(dm[0]))], rnd_below(1000));
        return snprintf(out, cap, "[%5u.%06u] %s\n", sec, rnd_below(1000000), msg);
    }
    /* nvidia-smi --query-gpu=timestamp,power.draw,temperature.gpu,clocks.sm,utilization.gpu
     * --format=csv: memory columns read [N/A] on GB10's unified memory */
    return snprintf(out, cap, "2026/11/29 %02u:%02u:%02u.%03u, %u.%02u W, %u, %u MHz, %u %%, [N/A]\n",
                    hh, mm, ss, ms, 20 + rnd_below(60), rnd_below(100), 40 + rnd_below(40),
                    1800 + rnd_below(700), rnd_below(101));
}

int main(int argc, char **argv) {
    unsigned long long size = argc > 1 ? strtoull(argv[1], NULL, 10) : 400ull << 20;
    static char buf[1 << 20];
    size_t used = 0;
    unsigned long long total = 0;
    while (total < size) {
        int n = gen_line(buf + used, sizeof(buf) - used);
        used += (size_t)n;
        total += (unsigned long long)n;
        if (sizeof(buf) - used < 4096) {
            if (fwrite(buf, 1, used, stdout) != used) return 1;
            used = 0;
        }
    }
    if (used && fwrite(buf, 1, used, stdout) != used) return 1;
    return fflush(stdout) == 0 ? 0 : 1;
}
