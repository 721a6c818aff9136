/*
 * cli/host.h - the live host, read without root and without changing anything: run a tool with
 * a deadline, and the facts `gotcha preflight`, `gotcha record` and `gotcha collect` share
 * (nvidia-smi readings, what python3/torch say, container markers, memory, GPU servers, the
 * environment).
 *
 * Contract:
 *  - cli_tool_run() never blocks past its deadline: a child that has not finished by then is
 *    killed (its whole process group, SIGKILL) and reaped; a missing tool is CLI_TOOL_MISSING.
 *    Standard input is /dev/null, standard error is discarded, standard output is kept up to a
 *    cap (the rest is read and dropped, so the child never blocks on a full pipe).
 *  - cli_host_gather() runs at most five tools (nvidia-smi three times, python3 once, ldconfig
 *    once), each under its own deadline; when nvidia-smi misses one deadline (a hung driver) the
 *    other nvidia-smi calls are not made. Everything it learns is text owned by the struct.
 *  - Nothing here prints; facts are data, the callers word them.
 */
#ifndef CLI_HOST_H
#define CLI_HOST_H

#include <stddef.h>
#include <stdio.h>

#include "common/az.h"

enum cli_tool_status {
    CLI_TOOL_OK = 0,  /* ran and exited 0 */
    CLI_TOOL_FAILED,  /* ran and exited non-zero, or died of a signal */
    CLI_TOOL_MISSING, /* not found on PATH, or not executable */
    CLI_TOOL_TIMEOUT, /* still running at the deadline: killed */
};

struct cli_tool_result {
    enum cli_tool_status status;
    int exit_code;     /* exit status when FAILED by exit; 128 + signal when killed by one */
    struct az_buf out; /* standard output, at most the cap given (owned) */
    int truncated;     /* 1 when output past the cap was dropped */
};

/**
 * cli_tool_run() : run argv[0] (looked up on PATH) with argv, stdin /dev/null, stderr
 * discarded, keeping up to max_out bytes of stdout, for at most timeout_ms milliseconds.
 * res is cleared first; free its buffer with cli_tool_result_free().
 * @return res->status.
 */
enum cli_tool_status cli_tool_run(const char *const *argv, unsigned timeout_ms, size_t max_out,
                                  struct cli_tool_result *res);
void cli_tool_result_free(struct cli_tool_result *res);

/* ---- host facts ---- */

/* How long each tool may take (gotcha preflight --timeout; the defaults have their reasons in
 * host.c). */
struct cli_host_limits {
    unsigned smi_ms;    /* each nvidia-smi call */
    unsigned python_ms; /* the python3 probe (imports torch and initialises CUDA) */
};
void cli_host_limits_default(struct cli_host_limits *l);

#define CLI_HOST_MAX_GPUS  16 /* more than any one machine gotcha targets; the rest are ignored */
#define CLI_HOST_MAX_PROCS 32 /* GPU-holding or GPU-server processes kept */

struct cli_gpu {
    char *name;      /* "NVIDIA GB10" */
    char *driver;    /* "580.95.05" */
    char *cap;       /* "12.1", "" when nvidia-smi does not know compute_cap */
    char *temp;      /* "45", "[N/A]" */
    char *power;     /* "11.17 W", "[N/A]" */
    char *mem_used;  /* "[N/A]" on GB10 (unified memory) */
    char *mem_total; /* "[N/A]" on GB10 */
};

struct cli_proc {
    long pid;
    char *name;    /* process name as nvidia-smi or /proc shows it */
    char *gpu_mem; /* nvidia-smi used_memory ("61904 MiB"), "" when unknown */
    char *server;  /* the GPU server it is ("vllm", "ollama", ...), "" when none */
    char *mem_cap; /* its --gpu-memory-utilization / --mem-fraction-static, "" when none */
};

struct cli_host {
    /* nvidia-smi */
    enum cli_tool_status smi_status; /* of the --query-gpu call */
    size_t ngpus;
    struct cli_gpu gpus[CLI_HOST_MAX_GPUS];
    char *smi_table;   /* plain `nvidia-smi` output, "" when not run or failed */
    char *cuda_driver; /* "CUDA Version" from the table header, "" */
    /* python3 probe: "key=value" lines (keys in host.c), or an empty list */
    enum cli_tool_status py_status;
    size_t npy;
    char **py_keys, **py_values;
    /* ldconfig -p */
    int ldconfig_read;      /* 1 when ldconfig -p answered */
    int cudart12, cudart13; /* libcudart.so.12 / .so.13 listed */
    /* container */
    char *container_marker; /* "/.dockerenv", "/run/.containerenv", "cgroup", "" none */
    int cgroup_readable;    /* /proc/1/cgroup could be read */
    /* memory, kB from /proc/meminfo; -1 when absent */
    long long mem_total_kb, mem_free_kb, mem_available_kb, cached_kb, huge_total;
    /* processes holding the GPU (nvidia-smi) or known GPU servers (/proc) */
    size_t nprocs;
    struct cli_proc procs[CLI_HOST_MAX_PROCS];
    /* selected environment variables, "NAME=value" (cli_host_env_names()) */
    size_t nenv;
    char **env;
    /* distributed launch: the environment, the launch command line, the config files it names */
    char *world_size; /* $WORLD_SIZE, "" */
    char *nnodes;     /* --nnodes N / --nnodes=N of the launch command, "" */
    char *tp_size;    /* the tensor-parallel size a config file or the command sets, "" */
    char *tp_where;   /* where: "configs/run.yaml:12", "the command line", "" */
    size_t nconfigs;  /* config files read for it */
};

/**
 * cli_host_gather() : read the live host under the given limits. pack (may be NULL: no GPU
 * servers are then looked for) reads the process table's command lines: which processes are GPU
 * servers and their memory caps are the pack's facts ("process", "gpu_mem_util"). Never fails:
 * what cannot be read stays empty, with the reason in the *_status fields. Free with
 * cli_host_free().
 */
struct match_pack;
void cli_host_gather(struct cli_host *h, const struct cli_host_limits *lim,
                     const struct match_pack *pack);
/**
 * cli_host_read_launch() : the launch's distributed settings as the pack reads them ("nnodes",
 * "tp_size" facts) from the command line args and from the files among args and configs that
 * exist and are regular (each read up to a cap). Either list may be empty; nothing without a
 * pack.
 */
void cli_host_read_launch(struct cli_host *h, const struct match_pack *pack,
                          const char *const *args, size_t nargs, const char *const *configs,
                          size_t nconfigs);
void cli_host_free(struct cli_host *h);

/* A host file's path: under $GOTCHA_HOST_ROOT when that is set (tests replay another machine's
 * /proc/meminfo, /proc/1/cgroup, process table and container markers), else as given. Caller
 * frees. */
char *cli_host_file(const char *path);

/* The python probe's value for key, "" when absent. Borrowed. */
const char *cli_host_py(const struct cli_host *h, const char *key);
/* The platform of pack that nvidia-smi or torch place this host on (a GPU name or a compute
 * capability a platform declares; match_place_gpu_name(), the same detection a scan uses): its
 * index of match_pack_platform(), MATCH_PLACE_OTHER when they name another GPU, MATCH_PLACE_NONE
 * when nothing is known. */
long cli_host_platform(const struct cli_host *h, const struct match_pack *pack);
/* The GPU's name from nvidia-smi or torch, "" when unknown. Borrowed. */
const char *cli_host_gpu_name(const struct cli_host *h);
/* The environment variables gotcha keeps (NULL-terminated, static). */
const char *const *cli_host_env_names(void);

/* Write the facts as "Key: value" lines in the shape of torch's collect_env report, so that a
 * scan of a recorded run reads them through the pattern pack like any collect_env file. */
void cli_host_write_facts(const struct cli_host *h, FILE *out, const char *tool_version);

/* Append s as a JSON string (quoted, escaped; invalid UTF-8 bytes as U+FFFD). */
void cli_json_string(struct az_buf *b, const char *s);

/* epoch_s as UTC "2026-12-01T08:36:38Z" into out (at least 21 bytes). */
void cli_utc_stamp(char *out, size_t outsz, long long epoch_s);
/* "PREFIX-20261201-083638SUFFIX" for now (UTC): default names of records and bundles. Caller
 * frees. */
char *cli_utc_name(const char *prefix, const char *suffix);
/* Milliseconds of the monotonic clock (deadlines). */
long long cli_mono_ms(void);
/* Set FD_CLOEXEC on fd: descriptors gotcha keeps must not leak into what it runs. */
void cli_cloexec(int fd);

#endif /* CLI_HOST_H */
