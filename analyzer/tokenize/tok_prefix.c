/*
 * tokenize/tok_prefix.c - the prefixes tools put before a message, as one table of shapes, and the
 * stripper that takes them off. See tok.h.
 *
 * Each shape is a template read left to right against the record: bytes stand for themselves and
 * a '%' conversion reads one field (below). A template that reads to its end matches; what is left
 * of the record is the next layer's input. The shapes are tried in table order, only those whose
 * class may come next (transport, then process, then one message layer) and whose first byte can
 * start the record, so a record that has no prefix costs a handful of byte compares.
 *
 * Conversions (every field has a length cap, so a failed attempt is cheap):
 *   %s  compose service ending in "-N" / "_N"   -> service      %S  any compose container name
 *   %c  Kubernetes container name  -> service                   %o  pod name -> pod
 *   %h  host name -> host   %H  a host with a digit or '-' (an IPv4 address -> ip)
 *   %a  Ray's node address -> ip
 *   %g  syslog tag, with an optional "[pid]" -> service, pid
 *   %P  process / actor name (Ray's may hold ':' and '(') -> process
 *   %R  a role word and its number, "rank3" / "default0" -> process, rank
 *   %p  pid   %r  rank   %k  srun task   %d  a number (not kept)   %x  a word (not kept)
 *   %l  level word (INFO, WARNING, ERROR ...) -> level     %f  logger source "file.py:12" -> source
 *   %T  syslog or RFC 3339 stamp   %I  ISO stamp   %C  ctime stamp   %m  vLLM "MM-DD hh:mm:ss"
 *   %Z  RFC 3339 UTC stamp "2026-01-28T23:59:42Z"   %A  the same with 7 fraction digits (.NET's
 *       round-trip format, GitHub Actions: RFC 5424 syslog allows 6 at most, so never syslog's)
 *       (each -> time; the outermost layer's time is kept: the collector's stamp has the year)
 *   %t  TensorRT-LLM's "MM/DD/YYYY-hh:mm:ss" -> time   %e  a one-letter level "E", "W", "I" ->
 * level %q  TensorRT-LLM's optional "[RANK N] " -> rank (zero bytes when absent) %w  SGLang's "
 * TP0", " DP1 PP0" tags (zero or more) -> process %u  Ray's elapsed time "2m13s"   %-  a run of '-'
 * %_  one or more spaces   %2  two or more %b  one optional space           %>X  the next byte must
 * be X (not consumed) %y  a Python "assert " or "raise " statement and the rest of the record: the
 * whole line is prefix, the message is empty
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

#include "tokenize/tok_private.h"

/* Caps: longer than any real value, short enough that a failed attempt stays cheap. */
#define PF_NAME_MAX   64  /* service, host, process, syslog tag */
#define PF_POD_MAX    253 /* a Kubernetes object name is a DNS subdomain: at most 253 bytes */
#define PF_SOURCE_MAX 128 /* "very/long/module_name.py:12345:function_name" */
#define PF_NUM_MAX    10  /* pids, ranks, task numbers */
#define PF_SPACES_MAX 64  /* compose pads service names to the longest one */

struct shape {
    const char *name; /* reported in tok_prefix.layer */
    enum tok_prefix_class cls;
    const char *tmpl;
    char after_word; /* for a shape that starts with a name: the byte after that name and its
                        padding ('|' for compose, ':' for srun): a cheap filter, 0 for none */
};

/*
 * The table. Where each shape comes from (tests/unit/test_tokenize.c has one test per shape from a
 * real sample, citing it):
 *   compose      docker compose v2 "svc-1  | ", v1 "svc_1  | " (sgl-project/sglang#12496)
 *   kubectl      kubectl logs --prefix "[pod/NAME/CONTAINER] "
 *   syslog       syslog; journalctl -o short, short-iso, short-precise: "stamp host tag[pid]: "
 *   srun         srun --label "N: " (slurm writes "%0*d: ": the task, zero-padded)
 *   mpirun       Open MPI --tag-output "[job,rank]<stderr>:", also after --timestamp-output
 *   pdsh         DeepSpeed's pdsh multi-node launcher "host: " (huggingface/accelerate#1317)
 *   ci-stamp     a CI runner's stamp on every line of a job's output: Buildkite's timestamped
 *                lines "[2025-05-20T05:24:31Z] " (vllm-project/vllm#18417, vllm-omni#3397),
 *                GitHub Actions' "2026-06-02T07:46:50.8855021Z " (ppc64le/build-scripts#8270)
 *   quote        a log quoted in markdown or e-mail, "> " before each line
 * (vllm-project/vllm#12847) buildkit     docker build --progress=plain: a step's output "#6 1.547 "
 * (the step, then its elapsed seconds; dassencio/codespaces-demo-cpp#3) torchrun     PyTorch's
 * "[rank3]:", torchrun --tee's "[default0]:" process-tag  vLLM and Ray: "(EngineCore_DP0 pid=N) ",
 * "(VllmWorker rank=0 pid=N) ",
 *                "(RayWorkerWrapper pid=N, ip=A) "
 *   ray          Ray's driver: "(raylet) ", "(pid=N) ", "(autoscaler +2s) "
 *   vllm         vLLM's logger "ERROR 11-05 12:19:32 [linear.py:210] ", pre-0.7 "core.py:200] "
 *   deepspeed    DeepSpeed's logger "[stamp] [INFO] [file.py:12:fn] "
 *   sglang       SGLang's "[2025-03-07 09:25:11 TP1] "
 *   hf           transformers' examples "[INFO|trainer.py:2314] "
 *   ipython      IPython's traceback gutter "----> 3 "
 *   py-source    the source line CPython echoes under a traceback frame ("  File ..., line N, in f"
 *                then the statement indented by four spaces): "    assert cond, \"msg\"",
 *                "    raise RuntimeError(msg)". It is program text, not a message: its body is
 *                empty, so no signature takes the echo of a raise for the failure it raises
 *                (the exception line after the frames is that failure)
 *   trtllm       TensorRT-LLM's Python logger "[07/08/2025-19:47:15] [TRT-LLM] [RANK 1] [E] ",
 * before the rank was added "[10/21/2025-23:23:13] [TRT-LLM] [I] " (tensorrt_llm/logger.py:
 *                strftime "%m/%d/%Y-%H:%M:%S", severity letters F/E/W/I/V), and its C++ logger
 *                "[TensorRT-LLM][ERROR] " (cpp/tensorrt_llm/common/logger.cpp,
 * runtime/tllmLogger.cpp) Order matters within a first byte: the more specific shape first.
 */
static const struct shape shapes[] = {
    {"compose", TOK_PREFIX_TRANSPORT, "%s%_| ", '|'},
    {"compose", TOK_PREFIX_TRANSPORT, "%S%2| ", '|'},
    {"kubectl", TOK_PREFIX_TRANSPORT, "[pod/%o/%c] ", 0},
    {"ci-stamp", TOK_PREFIX_TRANSPORT, "%A ", 0},
    {"syslog", TOK_PREFIX_TRANSPORT, "%T %h %g:%b", 0},
    {"srun", TOK_PREFIX_TRANSPORT, "%k: ", ':'},
    {"srun", TOK_PREFIX_TRANSPORT, "%k:%>[", ':'},
    {"mpirun", TOK_PREFIX_TRANSPORT, "[%d,%r]<%x>:", 0},
    {"mpirun", TOK_PREFIX_TRANSPORT, "%C[%d,%r]<%x>:", 0},
    {"pdsh", TOK_PREFIX_TRANSPORT, "%H: %>[", ':'},
    {"ci-stamp", TOK_PREFIX_TRANSPORT, "[%Z] ", 0},
    {"buildkit", TOK_PREFIX_TRANSPORT, "#%d %d.%d ", 0},
    {"quote", TOK_PREFIX_TRANSPORT, "> ", 0},
    {"torchrun", TOK_PREFIX_PROCESS, "[%R]:%b", 0},
    {"process-tag", TOK_PREFIX_PROCESS, "(%P pid=%p)%b", 0},
    {"process-tag", TOK_PREFIX_PROCESS, "(%P rank=%r pid=%p)%b", 0},
    {"process-tag", TOK_PREFIX_PROCESS, "(%P pid=%p, ip=%a)%b", 0},
    {"ray", TOK_PREFIX_PROCESS, "(pid=%p)%b", 0},
    {"ray", TOK_PREFIX_PROCESS, "(pid=%p, ip=%a)%b", 0},
    {"ray", TOK_PREFIX_PROCESS, "(raylet)%b", 0},
    {"ray", TOK_PREFIX_PROCESS, "(raylet, ip=%a)%b", 0},
    {"ray", TOK_PREFIX_PROCESS, "(autoscaler +%u)%b", 0},
    {"ray", TOK_PREFIX_PROCESS, "(scheduler +%u)%b", 0},
    {"vllm", TOK_PREFIX_MESSAGE, "%l %m [%f] ", 0},
    {"vllm", TOK_PREFIX_MESSAGE, "%l %m %f] ", 0},
    {"deepspeed", TOK_PREFIX_MESSAGE, "[%I] [%l] [%f] ", 0},
    {"sglang", TOK_PREFIX_MESSAGE, "[%I%w] ", 0},
    {"hf", TOK_PREFIX_MESSAGE, "[%l|%f] ", 0},
    {"ipython", TOK_PREFIX_MESSAGE, "%-> %d ", 0},
    {"py-source", TOK_PREFIX_MESSAGE, "    %y", 0},
    {"trtllm", TOK_PREFIX_MESSAGE, "[%t] [TRT-LLM] %q[%e] ", 0},
    {"trtllm", TOK_PREFIX_MESSAGE, "[TensorRT-LLM][%l] ", 0},
};

/* candidates() keeps one bit per shape in a uint32_t */
_Static_assert(sizeof shapes / sizeof shapes[0] <= 32, "more than 32 prefix shapes");

/* ---- byte classes ---- */

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int is_upper(unsigned char c)
{
    return c >= 'A' && c <= 'Z';
}

static int is_alpha(unsigned char c)
{
    return is_upper(c) || (c >= 'a' && c <= 'z');
}

static int is_alnum(unsigned char c)
{
    return is_alpha(c) || is_digit(c);
}

/* compose services, containers, pods, hosts: [A-Za-z0-9_.-] */
static int is_name(unsigned char c)
{
    return is_alnum(c) || c == '_' || c == '.' || c == '-';
}

/* Ray actor and task names: "RayWorkerWrapper", "ServeReplica:app:Model", "MapWorker(Map(f))" */
static int is_proc(unsigned char c)
{
    return is_name(c) || c == ':' || c == '(' || c == ')';
}

/* ---- fields ---- */

enum cap_field {
    CAP_PROCESS,
    CAP_PID,
    CAP_RANK,
    CAP_TASK,
    CAP_HOST,
    CAP_IP,
    CAP_SERVICE,
    CAP_POD,
    CAP_SOURCE,
    CAP_COUNT
};

/* What one attempt read. Fields are appended, not stored in a table, so starting an attempt
 * costs three stores: most attempts fail at their first byte. */
#define CAPS_MAX 8 /* more fields than any shape has */

struct caps {
    unsigned n;
    struct {
        enum cap_field f;
        struct tok_span s;
    } put[CAPS_MAX];
    enum tok_level level;
    struct az_time time;
    size_t time_end;
};

static void caps_reset(struct caps *c)
{
    c->n = 0;
    c->level = TOK_LEVEL_NONE;
    c->time.kind = AZ_TIME_NONE;
}

static void put(struct caps *c, enum cap_field f, size_t off, size_t n)
{
    if (c->n >= CAPS_MAX) return;
    c->put[c->n].f = f;
    c->put[c->n].s.off = (uint32_t)off;
    c->put[c->n].s.len = (uint32_t)n;
    c->n++;
}

/*
 * Byte classes as bits of one table, built with the candidates table (first_byte_build()), so a
 * field is read with one load per byte: reading names is most of what a failed attempt does.
 */
enum byte_class {
    B_DIGIT = 1 << 0,
    B_UPPER = 1 << 1,
    B_ALPHA = 1 << 2,
    B_NAME = 1 << 3,    /* is_name() */
    B_PROC = 1 << 4,    /* is_proc() */
    B_TAG = 1 << 5,     /* is_tag_byte() */
    B_SOURCE = 1 << 6,  /* is_source_byte() */
    B_ELAPSED = 1 << 7, /* is_elapsed() */
};

static unsigned char byte_class[256];

/* A run of bytes of class cls at p[i..end), at most max: its length (0 when none). */
static size_t run(const char *p, size_t end, size_t i, unsigned cls, size_t max)
{
    size_t j = i, lim = end - i > max ? i + max : end;
    while (j < lim && (byte_class[(unsigned char)p[j]] & cls)) j++;
    return j - i;
}

/* A number of at most PF_NUM_MAX digits, not followed by another digit. */
static size_t number(const char *p, size_t end, size_t i)
{
    size_t n = run(p, end, i, B_DIGIT, PF_NUM_MAX);
    return n && (i + n >= end || !is_digit((unsigned char)p[i + n])) ? n : 0;
}

static int is_tag_byte(unsigned char c)
{
    return c > ' ' && c != ':' && c != '[' && c != 0x7f;
}

static int is_source_byte(unsigned char c)
{
    return c > ' ' && c != ']' && c != 0x7f;
}

static int is_elapsed(unsigned char c)
{
    return is_digit(c) || c == 'd' || c == 'h' || c == 'm' || c == 's' || c == '.';
}

/* A stamp of one of the wanted formats at p[i]; 1 and the capture on success. */
static int stamp(const char *p, size_t end, size_t i, char conv, struct caps *c, size_t *next)
{
    unsigned char c0 = (unsigned char)p[i];
    /* Cheap shape checks first: most records start with a digit or a capital and most of them
     * are not the stamp this shape wants. */
    switch (conv) {
    case 'T': /* "Nov 29 10:12:55" or "2026-11-29T10:12:55+0000" */
        if (is_digit(c0) ? i + 10 >= end || p[i + 10] != 'T'
                         : !is_upper(c0) || i + 3 >= end || p[i + 3] != ' ')
            return 0;
        break;
    case 'I':
        if (!is_digit(c0)) return 0;
        break;
    case 'Z':
    case 'A':
        if (!is_digit(c0) || i + 10 >= end || p[i + 10] != 'T') return 0;
        break;
    case 'C': /* "Thu Jun 18 14:28:35 2020" */
        if (!is_upper(c0) || i + 3 >= end || p[i + 3] != ' ') return 0;
        break;
    default: return 0;
    }
    size_t e = 0;
    enum tok_fmt fmt = TOK_FMT_NONE;
    struct az_time t = tok_stamp_at(p, end, i, &e, &fmt);
    if (t.kind == AZ_TIME_NONE) return 0;
    int ok;
    switch (conv) {
    case 'T':
        /* python logging's ",mmm" millis after an ISO stamp is not syslog */
        ok = (fmt == TOK_FMT_SYSLOG || fmt == TOK_FMT_ISO_T) && !(e >= 4 && p[e - 4] == ',');
        break;
    case 'I': ok = fmt == TOK_FMT_ISO || fmt == TOK_FMT_ISO_T; break;
    case 'Z': ok = fmt == TOK_FMT_ISO_T && p[e - 1] == 'Z'; break;
    case 'A':
        /* "hh:mm:ss." at i+11..i+19, then seven digits and the 'Z' */
        ok = fmt == TOK_FMT_ISO_T && e == i + 28 && p[i + 19] == '.' && p[e - 1] == 'Z';
        break;
    default: ok = fmt == TOK_FMT_CTIME; break;
    }
    if (!ok) return 0;
    c->time = t;
    c->time_end = e;
    *next = e;
    return 1;
}

/* SGLang's process tags after its stamp: (" " [A-Z]{2,4} digits)*, kept as one span. */
static size_t sglang_tags(const char *p, size_t end, size_t i, struct caps *c)
{
    size_t j = i;
    while (j + 3 < end && p[j] == ' ') {
        size_t w = run(p, end, j + 1, B_UPPER, 4);
        if (w < 2) break;
        size_t d = number(p, end, j + 1 + w);
        if (!d) break;
        j += 1 + w + d;
    }
    if (j > i) put(c, CAP_PROCESS, i + 1, j - i - 1);
    return j;
}

/* A dotted address names a machine too, but not the way NCCL's host names do: a launcher's
 * address is kept as an ip, so one machine seen both ways is not counted as two hosts. (A syslog
 * host stays a host, an address or not, as syslog wrote it.) */
static int is_ipv4(const char *p, size_t n)
{
    size_t dots = 0;
    for (size_t k = 0; k < n; k++) {
        if (p[k] == '.')
            dots++;
        else if (!is_digit((unsigned char)p[k]))
            return 0;
    }
    return dots == 3;
}

/* Does a value of a compose service look like "name-N" / "name_N"? */
static int replica_suffix(const char *p, size_t i, size_t n)
{
    size_t d = 0;
    while (d < n && is_digit((unsigned char)p[i + n - 1 - d])) d++;
    return d > 0 && d < n && (p[i + n - 1 - d] == '-' || p[i + n - 1 - d] == '_');
}

/*
 * Read template t against p[i..end). 1 and *next (the offset past the match) on success, with
 * the fields in c; 0 when the record does not have this shape.
 */
/* A name conversion of a template (%s service, %S, %c, %o pod, %h/%H host, %a address) at i:
 * its length, captured in c, or 0 when the bytes there are not one. */
static size_t conv_name(const char *p, size_t end, size_t i, char conv, struct caps *c)
{
    if (i >= end || !is_alnum((unsigned char)p[i])) return 0;
    size_t n = run(p, end, i, B_NAME, conv == 'o' ? PF_POD_MAX : PF_NAME_MAX);
    if (conv == 's' && !replica_suffix(p, i, n)) return 0;
    if (conv == 'H') { /* "worker-1", "node03": not a word such as "OSError" */
        size_t k = 0;
        while (k < n && p[i + k] != '-' && !is_digit((unsigned char)p[i + k])) k++;
        if (k == n) return 0;
    }
    if (conv == 'H' && is_ipv4(p + i, n)) conv = 'a'; /* a hostfile of addresses */
    put(c,
        conv == 'o'                  ? CAP_POD
        : conv == 'h' || conv == 'H' ? CAP_HOST
        : conv == 'a'                ? CAP_IP
                                     : CAP_SERVICE,
        i, n);
    return n;
}

static int match_tmpl(const char *p, size_t end, size_t i, const char *t, struct caps *c,
                      size_t *next)
{
    for (; *t; t++) {
        if (*t != '%') {
            if (i >= end || p[i] != *t) return 0;
            i++;
            continue;
        }
        char conv = *++t;
        size_t n = 0;
        switch (conv) {
        case 's':
        case 'S':
        case 'c':
        case 'o':
        case 'h':
        case 'H':
        case 'a':
            n = conv_name(p, end, i, conv, c);
            if (!n) return 0;
            break;
        case 'g':
            n = run(p, end, i, B_TAG, PF_NAME_MAX);
            if (!n) return 0;
            put(c, CAP_SERVICE, i, n);
            if (i + n < end && p[i + n] == '[') {
                size_t d = number(p, end, i + n + 1);
                if (!d || i + n + 1 + d >= end || p[i + n + 1 + d] != ']') return 0;
                put(c, CAP_PID, i + n + 1, d);
                n += d + 2;
            }
            break;
        case 'P':
            if (i >= end || !(is_alpha((unsigned char)p[i]) || p[i] == '_')) return 0;
            n = run(p, end, i, B_PROC, PF_NAME_MAX);
            put(c, CAP_PROCESS, i, n);
            break;
        case 'R': {
            size_t w = run(p, end, i, B_ALPHA, 32);
            size_t d = w ? number(p, end, i + w) : 0;
            if (!d) return 0;
            put(c, CAP_PROCESS, i, w);
            put(c, CAP_RANK, i + w, d);
            n = w + d;
            break;
        }
        case 'p':
        case 'r':
        case 'k':
        case 'd':
            n = number(p, end, i);
            if (!n) return 0;
            if (conv != 'd')
                put(c, conv == 'p' ? CAP_PID : conv == 'r' ? CAP_RANK : CAP_TASK, i, n);
            break;
        case 'x':
            n = run(p, end, i, B_ALPHA, 16);
            if (!n) return 0;
            break;
        case 'l': {
            n = run(p, end, i, B_UPPER, 8);
            enum tok_level lv = n ? tok_level_word(p + i, n) : TOK_LEVEL_NONE;
            if (lv == TOK_LEVEL_NONE) return 0;
            c->level = lv;
            break;
        }
        case 'f':
            n = run(p, end, i, B_SOURCE, PF_SOURCE_MAX);
            if (!n) return 0;
            put(c, CAP_SOURCE, i, n);
            break;
        case 'T':
        case 'I':
        case 'Z':
        case 'A':
        case 'C': {
            size_t e;
            if (i >= end || !stamp(p, end, i, conv, c, &e)) return 0;
            n = e - i;
            break;
        }
        case 'm':
        case 't': {
            size_t e = 0;
            struct az_time tm =
                conv == 'm' ? tok_mmdd_at(p, end, i, &e) : tok_slash_stamp_at(p, end, i, &e);
            if (tm.kind == AZ_TIME_NONE) return 0;
            c->time = tm;
            c->time_end = e;
            n = e - i;
            break;
        }
        case 'q':
            if (end - i > 6 && memcmp(p + i, "[RANK ", 6) == 0) {
                size_t d = number(p, end, i + 6);
                if (!d || i + 6 + d + 1 >= end || p[i + 6 + d] != ']' || p[i + 7 + d] != ' ')
                    return 0;
                put(c, CAP_RANK, i + 6, d);
                n = 6 + d + 2;
            }
            break;
        case 'e': {
            enum tok_level lv = i < end ? tok_level_letter((unsigned char)p[i]) : TOK_LEVEL_NONE;
            if (lv == TOK_LEVEL_NONE) return 0;
            c->level = lv;
            n = 1;
            break;
        }
        case 'w': n = sglang_tags(p, end, i, c) - i; break;
        case 'u':
            n = run(p, end, i, B_ELAPSED, 16);
            if (!n || !is_digit((unsigned char)p[i])) return 0;
            break;
        case '-':
            while (i + n < end && n < 16 && p[i + n] == '-') n++;
            if (!n) return 0;
            break;
        case '_':
        case '2':
            while (i + n < end && n < PF_SPACES_MAX && p[i + n] == ' ') n++;
            if (n < (conv == '2' ? 2u : 1u)) return 0;
            break;
        case 'b': n = i < end && p[i] == ' '; break;
        case 'y':
            if (!((end - i > 7 && memcmp(p + i, "assert ", 7) == 0) ||
                  (end - i > 6 && memcmp(p + i, "raise ", 6) == 0)))
                return 0;
            n = end - i;
            break;
        case '>':
            if (!*++t || i >= end || p[i] != *t) return 0;
            break;
        default: return 0; /* a typo in the table: never matches, caught by the unit tests */
        }
        i += n;
    }
    *next = i;
    return 1;
}

/* Can the record's byte c start a match of t? A cheap filter before match_tmpl(). */
static int first_ok(const char *t, unsigned char c)
{
    if (t[0] != '%') return c == (unsigned char)t[0];
    switch (t[1]) {
    case 's':
    case 'S':
    case 'h':
    case 'H': return is_alnum(c);
    case 'k':
    case 'd':
    case 'Z':
    case 'A': return is_digit(c);
    case 'T': return is_digit(c) || is_upper(c);
    case 'l':
    case 'C': return is_upper(c);
    case '-': return c == '-';
    default: return 1;
    }
}

/*
 * The shapes a record's first byte can start, as a bit set in table order, one per byte value:
 * built once from first_ok(), so the stripper tries only those (a line of python logging, tqdm
 * or NCCL output has two or three candidates, each failing within a few bytes).
 */
static uint32_t first_byte_shapes[256];
static pthread_once_t first_byte_once = PTHREAD_ONCE_INIT;

static void first_byte_build(void)
{
    for (unsigned c = 0; c < 256; c++) {
        unsigned char b = (unsigned char)c;
        for (size_t k = 0; k < AZ_ARRAY_LEN(shapes); k++)
            if (first_ok(shapes[k].tmpl, b)) first_byte_shapes[c] |= UINT32_C(1) << k;
        byte_class[c] =
            (unsigned char)((is_digit(b) ? B_DIGIT : 0) | (is_upper(b) ? B_UPPER : 0) |
                            (is_alpha(b) ? B_ALPHA : 0) | (is_name(b) ? B_NAME : 0) |
                            (is_proc(b) ? B_PROC : 0) | (is_tag_byte(b) ? B_TAG : 0) |
                            (is_source_byte(b) ? B_SOURCE : 0) | (is_elapsed(b) ? B_ELAPSED : 0));
    }
}

/* The shapes first byte c can start; the tables are built (tok_prefix_strip() made sure). */
static uint32_t candidates(unsigned char c)
{
    return first_byte_shapes[c];
}

static unsigned ctz32(uint32_t v)
{
    assert(v != 0);
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctz(v);
#else
    unsigned n = 0;
    while (!(v & 1u)) {
        v >>= 1;
        n++;
    }
    return n;
#endif
}

/* ---- JSON objects: journalctl -o json, docker's json-file driver ---- */

/* The offset of the value of "key" in the object p[from..end), 0 when absent. */
static size_t json_value(const char *p, size_t from, size_t end, const char *key)
{
    size_t kn = strlen(key);
    size_t i = from;
    while (i < end) {
        const char *q = memchr(p + i, '"', end - i);
        if (!q) return 0;
        i = (size_t)(q - p) + 1;
        if (end - i < kn + 2 || memcmp(p + i, key, kn) != 0 || p[i + kn] != '"') continue;
        size_t j = i + kn + 1;
        while (j < end && (p[j] == ' ' || p[j] == '\t')) j++;
        if (j >= end || p[j] != ':') continue;
        j++;
        while (j < end && (p[j] == ' ' || p[j] == '\t')) j++;
        return j < end ? j : 0;
    }
    return 0;
}

/* The string (escapes kept) or bare number at p[v..end) as a span; 0 when neither. */
static int json_scalar(const char *p, size_t v, size_t end, size_t *off, size_t *n)
{
    if (!v || v >= end) return 0;
    if (p[v] == '"') {
        size_t j = v + 1;
        while (j < end && p[j] != '"') j += p[j] == '\\' ? 2 : 1;
        if (j >= end) return 0;
        *off = v + 1;
        *n = j - v - 1;
        return 1;
    }
    size_t d = run(p, end, v, B_DIGIT, 20);
    if (!d) return 0;
    *off = v;
    *n = d;
    return 1;
}

static int json_field(const char *p, size_t end, const char *key, size_t *off, size_t *n)
{
    return json_scalar(p, json_value(p, 1, end, key), end, off, n);
}

/* journalctl's __REALTIME_TIMESTAMP: microseconds since the epoch, as a decimal string. */
static struct az_time epoch_usec(const char *p, size_t off, size_t n)
{
    struct az_time t = {0, AZ_TIME_NONE};
    if (n == 0 || n > 18) return t;
    int64_t v = 0;
    for (size_t k = 0; k < n; k++) {
        if (!is_digit((unsigned char)p[off + k])) return t;
        v = v * 10 + (p[off + k] - '0');
    }
    t.usec = v;
    t.kind = AZ_TIME_ABS;
    return t;
}

/*
 * A JSON object whose message is a string field: journalctl -o json ("MESSAGE", with _PID,
 * _HOSTNAME, SYSLOG_IDENTIFIER, PRIORITY, __REALTIME_TIMESTAMP) or docker's json-file log
 * ("log", with "time"). *bs / *be are the message's bytes; 0 when the record is neither.
 */
static const char *json_layer(const char *p, size_t len, struct caps *c, size_t *bs, size_t *be)
{
    size_t off, n;
    if (json_field(p, len, "MESSAGE", &off, &n)) {
        *bs = off;
        *be = off + n;
        size_t o2, n2;
        if (json_field(p, len, "_PID", &o2, &n2)) put(c, CAP_PID, o2, n2);
        if (json_field(p, len, "_HOSTNAME", &o2, &n2)) put(c, CAP_HOST, o2, n2);
        if (json_field(p, len, "SYSLOG_IDENTIFIER", &o2, &n2) ||
            json_field(p, len, "_COMM", &o2, &n2))
            put(c, CAP_SERVICE, o2, n2);
        if (json_field(p, len, "PRIORITY", &o2, &n2) && n2 == 1 && is_digit((unsigned char)p[o2]))
            c->level = tok_level_of_priority((unsigned)(p[o2] - '0'));
        if (json_field(p, len, "__REALTIME_TIMESTAMP", &o2, &n2)) {
            c->time = epoch_usec(p, o2, n2);
            c->time_end = o2 + n2;
        }
        return "journal";
    }
    if (json_field(p, len, "log", &off, &n)) {
        /* the driver keeps the line's own newline, escaped */
        if (n >= 2 && p[off + n - 2] == '\\' && p[off + n - 1] == 'n') n -= 2;
        if (n >= 2 && p[off + n - 2] == '\\' && p[off + n - 1] == 'r') n -= 2;
        *bs = off;
        *be = off + n;
        size_t o2, n2;
        if (json_field(p, len, "time", &o2, &n2)) {
            size_t e = 0;
            enum tok_fmt fmt;
            struct az_time t = tok_stamp_at(p, o2 + n2, o2, &e, &fmt);
            if (t.kind != AZ_TIME_NONE) {
                c->time = t;
                c->time_end = e;
            }
        }
        return "docker-json";
    }
    return NULL;
}

/* The byte after the name at p[i..] and the spaces after it, 0 at the end of the record. */
static int byte_after_word(const char *p, size_t end, size_t i)
{
    size_t j = i + run(p, end, i, B_NAME, PF_POD_MAX);
    while (j < end && j - i < PF_POD_MAX + PF_SPACES_MAX && p[j] == ' ') j++;
    return j < end ? (unsigned char)p[j] : 0;
}

/* `{"` or `{ "`: a JSON object with a key first (not python's `{'loss': ...}` dicts). */
static int json_object_start(const char *p, size_t end)
{
    size_t i = 1;
    while (i < end && i < 4 && (p[i] == ' ' || p[i] == '\t')) i++;
    return i < end && p[i] == '"';
}

/* Past the escaped colour codes ("\u001b[36m") a JSON string keeps around Ray's tags; after a
 * tag (after_tag), past the space Ray writes after its closing code too. */
static size_t skip_escaped_ansi(const char *p, size_t i, size_t end, int after_tag)
{
    size_t from = i;
    for (;;) {
        if (end - i < 8 || p[i] != '\\' || p[i + 1] != 'u' || memcmp(p + i + 2, "001", 3) != 0 ||
            (p[i + 5] != 'b' && p[i + 5] != 'B') || p[i + 6] != '[')
            break;
        size_t j = i + 7;
        while (j < end && (is_digit((unsigned char)p[j]) || p[j] == ';')) j++;
        if (j >= end || p[j] != 'm') break;
        i = j + 1;
    }
    if (after_tag && i > from && i < end && p[i] == ' ') i++;
    return i;
}

/* ---- the stripper ---- */

static void commit(struct tok_prefix *out, const struct caps *c)
{
    struct tok_span *dst[CAP_COUNT] = {&out->process, &out->pid,  &out->rank,
                                       &out->task,    &out->host, &out->ip,
                                       &out->service, &out->pod,  &out->source};
    for (unsigned k = 0; k < c->n; k++)
        if (c->put[k].s.len) *dst[c->put[k].f] = c->put[k].s;
    if (c->level != TOK_LEVEL_NONE) out->level = c->level;
    if (c->time.kind != AZ_TIME_NONE && out->time.kind == AZ_TIME_NONE) {
        out->time = c->time;
        out->time_end = c->time_end;
    }
}

static void add_layer(struct tok_prefix *out, const struct caps *c, const char *name,
                      enum tok_prefix_class cls, size_t end)
{
    commit(out, c);
    struct tok_layer *l = &out->layer[out->nlayers++];
    l->name = name;
    l->cls = cls;
    l->end = (uint32_t)end;
    l->timed = c->time.kind != AZ_TIME_NONE;
}

unsigned tok_prefix_strip(const char *p, size_t len, enum tok_prefix_class upto,
                          struct tok_prefix *out)
{
    /* field by field: a memset of the whole struct (layers included) costs more than the
     * stripping of most records */
    static const struct tok_span none = {0, 0};
    out->nlayers = 0;
    out->process = out->pid = out->rank = out->task = out->host = out->ip = none;
    out->service = out->pod = out->source = none;
    out->level = TOK_LEVEL_NONE;
    out->time.usec = 0;
    out->time.kind = AZ_TIME_NONE;
    out->time_end = 0;
    out->body = 0;
    out->body_len = len;
    if (!p || len == 0) return 0;
    pthread_once(&first_byte_once, first_byte_build);
    /* spans are 32-bit; a prefix lives in the first bytes anyway */
    size_t end = len > UINT32_MAX ? UINT32_MAX : len;
    size_t i = 0;
    int json = 0;
    enum tok_prefix_class floor = TOK_PREFIX_TRANSPORT;
    while (out->nlayers < TOK_PREFIX_LAYERS_MAX && i < end) {
        if (json) i = skip_escaped_ansi(p, i, end, out->nlayers > 1);
        if (i >= end) break;
        unsigned char c0 = (unsigned char)p[i];
        struct caps cp;
        caps_reset(&cp);
        if (c0 == '{' && i == 0 && json_object_start(p, end)) {
            size_t bs = 0, be = 0;
            const char *name = json_layer(p, end, &cp, &bs, &be);
            if (!name) break;
            add_layer(out, &cp, name, TOK_PREFIX_TRANSPORT, bs);
            i = bs;
            end = be;
            json = 1;
            continue;
        }
        const struct shape *hit = NULL;
        size_t next = i;
        int after = -1; /* the byte after the leading name and its padding, read when needed */
        for (uint32_t cand = candidates(c0); cand; cand &= cand - 1) {
            const struct shape *s = &shapes[ctz32(cand)];
            if (s->cls < floor || s->cls > upto) continue;
            if (s->after_word) {
                if (after < 0) after = byte_after_word(p, end, i);
                if (after != s->after_word) continue;
            }
            caps_reset(&cp);
            if (match_tmpl(p, end, i, s->tmpl, &cp, &next) && next > i) {
                hit = s;
                break;
            }
        }
        if (!hit) break;
        add_layer(out, &cp, hit->name, hit->cls, next);
        i = next;
        floor = hit->cls;
        if (hit->cls == TOK_PREFIX_MESSAGE) break;
    }
    if (json) i = skip_escaped_ansi(p, i, end, out->nlayers > 1);
    out->body = i;
    out->body_len = end - i;
    if (end == UINT32_MAX && len > end && !json) out->body_len = len - i;
    return out->nlayers;
}

const char *tok_span_get(const char *p, struct tok_span s, size_t *n)
{
    *n = s.len;
    return s.len ? p + s.off : NULL;
}
