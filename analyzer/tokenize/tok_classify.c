/*
 * tokenize/tok_classify.c - the kind of a member from its first bytes, kind names, lanes from
 * paths and number parsing. See tok.h.
 *
 * Classification scores every line of the head against the shapes each kind prints (weights:
 * a shape only that tool prints counts more than one several tools share) and picks the kind
 * with the highest total; the file name breaks ties and decides when no line says anything.
 */
#include "tokenize/tok.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const tok_kind_names[TOK_KIND_COUNT] = {
    [TOK_KIND_TEXT] = "text",
    [TOK_KIND_TRAIN] = "train",
    [TOK_KIND_STDERR] = "stderr",
    [TOK_KIND_KERNEL] = "kernel",
    [TOK_KIND_SMI] = "smi",
    [TOK_KIND_SMI_Q] = "smi-q",
    [TOK_KIND_SMI_XML] = "smi-xml",
    [TOK_KIND_SMI_CSV] = "smi-csv",
    [TOK_KIND_SMI_DMON] = "smi-dmon",
    [TOK_KIND_PIP] = "pip",
    [TOK_KIND_PIP_LIST] = "pip-list",
    [TOK_KIND_COLLECT_ENV] = "collect-env",
    [TOK_KIND_MEMINFO] = "meminfo",
    [TOK_KIND_VLLM] = "vllm",
    [TOK_KIND_NCCL] = "nccl",
    [TOK_KIND_PREFLIGHT] = "preflight",
    [TOK_KIND_RUN_RECORD] = "run-record",
};

const char *tok_kind_name(enum tok_kind k)
{
    if ((unsigned)k >= TOK_KIND_COUNT) return "text";
    return tok_kind_names[k];
}

int tok_kind_from_name(const char *name)
{
    if (!name) return -1;
    for (int k = 0; k < TOK_KIND_COUNT; k++)
        if (strcmp(name, tok_kind_names[k]) == 0) return k;
    return -1;
}

/* ---- small byte helpers ---- */

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int is_alpha(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int is_word(unsigned char c)
{
    return is_digit(c) || is_alpha(c) || c == '_' || c == '.';
}

static unsigned char lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static int has(const char *l, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    if (m == 0 || m > n) return m == 0;
    for (size_t i = 0; i + m <= n; i++)
        if (l[i] == lit[0] && memcmp(l + i, lit, m) == 0) return 1;
    return 0;
}

static int starts(const char *l, size_t n, const char *lit)
{
    return az_starts_with(l, n, lit);
}

/* ---- line shapes ---- */

enum { W_WEAK = 1, W_NORMAL = 2, W_STRONG = 8, W_DECISIVE = 40 };

struct classify_state {
    long score[TOK_KIND_COUNT];
    int pip_list_header;           /* saw "Package  Version" */
    int smi_xml;                   /* saw "<nvidia_smi_log" */
    const struct tok_vocab *vocab; /* the pack's word lists (borrowed), NULL: none */
};

/* 1 when the line starts with one of the pack's words of list l. */
static int starts_any(const struct classify_state *st, enum tok_vocab_list l, const char *p,
                      size_t n)
{
    if (!st->vocab) return 0;
    for (size_t k = 0; k < st->vocab->n[l]; k++)
        if (starts(p, n, st->vocab->words[l][k])) return 1;
    return 0;
}

static size_t skip_blanks(const char *l, size_t n, size_t i)
{
    while (i < n && (l[i] == ' ' || l[i] == '\t')) i++;
    return i;
}

/* "host:pid:tid [n] NCCL ..." */
static int is_nccl_line(const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && i < 80 && (is_word((unsigned char)l[i]) || l[i] == '-')) i++;
    if (i == 0 || i >= n || l[i] != ':') return 0;
    for (int f = 0; f < 2; f++) {
        size_t s = ++i;
        while (i < n && is_digit((unsigned char)l[i])) i++;
        if (i == s || i >= n) return 0;
        if (f == 0 && l[i] != ':') return 0;
    }
    return i + 1 < n && l[i] == ' ' && l[i + 1] == '[' && has(l + i, n - i, "] NCCL ");
}

/* A Python exception line: "RuntimeError: ...", "torch.OutOfMemoryError: ...". */
static int is_exception_line(const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && i < 96 && is_word((unsigned char)l[i])) i++;
    if (i < 6 || i >= n || l[i] != ':') return 0;
    return (i >= 5 && memcmp(l + i - 5, "Error", 5) == 0) ||
           (i >= 9 && memcmp(l + i - 9, "Exception", 9) == 0);
}

/* A dmon row: at least five blank-separated fields of digits or '-'. */
static int is_dmon_row(const char *l, size_t n)
{
    size_t i = 0, fields = 0;
    while (i < n) {
        i = skip_blanks(l, n, i);
        if (i >= n) break;
        size_t s = i;
        while (i < n && l[i] != ' ' && l[i] != '\t') {
            if (!is_digit((unsigned char)l[i]) && l[i] != '-' && l[i] != '.' && l[i] != ':')
                return 0;
            i++;
        }
        if (i > s) fields++;
    }
    return fields >= 5;
}

/* A headerless nvidia-smi CSV row: "NVIDIA GB10, 45, 11.17 W" / "..., [N/A]". */
static int is_smi_csv_row(const char *l, size_t n)
{
    size_t commas = 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (l[i] == ',' && l[i + 1] == ' ') commas++;
    if (commas < 1) return 0;
    return has(l, n, " W,") || (n >= 2 && memcmp(l + n - 2, " W", 2) == 0) || has(l, n, " MiB") ||
           has(l, n, " MHz") || has(l, n, "[N/A]") || has(l, n, "NVIDIA ");
}

/* "name==1.2.3" (pip freeze). */
static int is_freeze_line(const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && (is_word((unsigned char)l[i]) || l[i] == '-')) i++;
    return i > 0 && i + 2 < n && l[i] == '=' && l[i + 1] == '=' &&
           is_digit((unsigned char)l[i + 2]) && !memchr(l + i, ' ', n - i);
}

/* "MemTotal:       131072000 kB": the kernel pads every value after the colon (meminfo_proc_show's
 * "%-16s%8lu kB" columns, "HugePages_Total:       0" too), so "Dockerfile:1" (BuildKit's source
 * excerpt under a failed step) is no meminfo line */
static int is_meminfo_line(const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && (is_word((unsigned char)l[i]) || l[i] == '(' || l[i] == ')')) i++;
    if (i == 0 || i + 1 >= n || l[i] != ':' || (l[i + 1] != ' ' && l[i + 1] != '\t')) return 0;
    i = skip_blanks(l, n, i + 1);
    size_t s = i;
    while (i < n && is_digit((unsigned char)l[i])) i++;
    return i > s && (i == n || starts(l + i, n - i, " kB"));
}

static void score_shapes(struct classify_state *st, const char *l, size_t n, int tagged);

/*
 * A line is scored by what is left after the prefixes a container or launcher put on it
 * (tok_prefix_strip()), so "sglang-1  | Traceback ..." and "42: [rank42]: Traceback ..." count as
 * tracebacks. A layer that carried a stamp (syslog, journal, a logger header) stops the cut there:
 * the kinds are told apart by their stamps; but not a CI runner's stamp (ci-stamp), which is on
 * every line of every job's output and says nothing of the kind. vLLM's logger header is the vLLM
 * shape itself. A vLLM or Ray process tag also stops it: the lines under "(EngineCore_DP0 pid=1) "
 * are that server's (its NCCL INFO lines do not make it an NCCL log), and the tag itself hints at a
 * vLLM log. A rank tag hints at a traceback: PyTorch tags what a rank writes to stderr.
 */
static void score_line(struct classify_state *st, const char *l, size_t n)
{
    struct tok_prefix pf;
    tok_prefix_strip(l, n, TOK_PREFIX_MESSAGE, &pf);
    size_t cut = 0;
    int tagged = 0, ranked = 0;
    if (pf.nlayers && strcmp(pf.layer[pf.nlayers - 1].name, "vllm") == 0) {
        st->score[TOK_KIND_VLLM] += W_NORMAL;
        return;
    }
    for (unsigned k = 0; k < pf.nlayers; k++) {
        const struct tok_layer *ly = &pf.layer[k];
        tagged |= strcmp(ly->name, "process-tag") == 0;
        if ((ly->timed && strcmp(ly->name, "ci-stamp") != 0) || ly->cls == TOK_PREFIX_MESSAGE ||
            strcmp(ly->name, "process-tag") == 0 || strcmp(ly->name, "ray") == 0)
            break;
        ranked |= strcmp(ly->name, "torchrun") == 0 || strcmp(ly->name, "mpirun") == 0;
        cut = ly->end;
    }
    if (ranked) st->score[TOK_KIND_STDERR] += W_WEAK;
    score_shapes(st, l + cut, n - cut, tagged);
}

/* The shapes of score_shapes(), by family; each returns 1 when the line's shape is decided. */
static int shape_smi(struct classify_state *st, const char *l, size_t n, size_t b)
{
    long *s = st->score;
    /* -- nvidia-smi family -- */
    if (has(l, n, "NVSMI LOG")) s[TOK_KIND_SMI_Q] += W_DECISIVE;
    if (has(l, n, "<nvidia_smi_log")) {
        st->smi_xml = 1;
        s[TOK_KIND_SMI_XML] += W_DECISIVE;
    } else if (st->smi_xml && l[b] == '<') {
        s[TOK_KIND_SMI_XML] += W_WEAK;
    }
    if (starts(l, n, "| NVIDIA-SMI ")) s[TOK_KIND_SMI] += W_DECISIVE;
    if (starts(l, n, "+----") || starts(l, n, "|====") || starts(l, n, "+====")) {
        s[TOK_KIND_SMI] += W_NORMAL;
        return 1;
    }
    if (l[0] == '|' && l[n - 1] == '|') s[TOK_KIND_SMI] += W_WEAK;
    if (l[0] == '#' && (has(l, n, " gpu ") || has(l, n, "#gpu ") || starts(l, n, "#Date")) &&
        (has(l, n, "pwr") || has(l, n, " sm ") || has(l, n, "gtemp"))) {
        s[TOK_KIND_SMI_DMON] += W_DECISIVE;
        return 1;
    }
    if (starts(l, n, "# Idx") || starts(l, n, "#YYYYMMDD")) s[TOK_KIND_SMI_DMON] += W_NORMAL;
    if (has(l, n, ",") &&
        (has(l, n, "temperature.gpu") || has(l, n, "power.draw") || has(l, n, "utilization.gpu") ||
         has(l, n, "clocks.sm") || has(l, n, "clocks.current.sm") || has(l, n, "memory.used"))) {
        s[TOK_KIND_SMI_CSV] += W_DECISIVE;
        return 1;
    }

    return 0;
}

static int shape_reports(struct classify_state *st, const char *l, size_t n)
{
    long *s = st->score;
    /* -- the skill's preflight -- */
    if (starts(l, n, "== G") && n > 5 && is_digit((unsigned char)l[4])) {
        s[TOK_KIND_PREFLIGHT] += W_STRONG;
        return 1;
    }
    if (l[0] == 'G' && n > 3 && is_digit((unsigned char)l[1])) {
        size_t i = 1;
        while (i < n && is_digit((unsigned char)l[i])) i++;
        if (starts_any(st, TOK_VOCAB_STATUS, l + i, n - i)) {
            s[TOK_KIND_PREFLIGHT] += W_STRONG;
            return 1;
        }
    }

    /* -- environment reports -- */
    if (starts(l, n, "Collecting environment information")) {
        s[TOK_KIND_COLLECT_ENV] += W_DECISIVE;
        return 1;
    }
    if (starts_any(st, TOK_VOCAB_ENV_KEYS, l, n)) {
        s[TOK_KIND_COLLECT_ENV] += W_NORMAL;
        return 1;
    }

    /* -- pip -- */
    if (starts_any(st, TOK_VOCAB_PIP, l, n)) {
        s[TOK_KIND_PIP] += W_NORMAL;
        return 1;
    }
    if (starts(l, n, "Package ") && has(l, n, " Version")) {
        st->pip_list_header = 1;
        s[TOK_KIND_PIP_LIST] += W_STRONG;
        return 1;
    }
    if (starts(l, n, "-----") && has(l, n, " -")) {
        s[TOK_KIND_PIP_LIST] += st->pip_list_header ? W_STRONG : W_WEAK;
        return 1;
    }
    if (is_freeze_line(l, n)) {
        s[TOK_KIND_PIP_LIST] += W_NORMAL;
        return 1;
    }

    /* -- memory -- */
    if (has(l, n, "total") && has(l, n, "used") && has(l, n, "free") &&
        (has(l, n, "buff/cache") || has(l, n, "shared") || has(l, n, "available"))) {
        s[TOK_KIND_MEMINFO] += W_STRONG;
        return 1;
    }
    if (starts(l, n, "Mem:") || starts(l, n, "Swap:")) {
        s[TOK_KIND_MEMINFO] += W_NORMAL;
        return 1;
    }
    if (is_meminfo_line(l, n)) {
        s[TOK_KIND_MEMINFO] += starts(l, n, "MemTotal:") ? W_STRONG : W_NORMAL;
        return 1;
    }

    return 0;
}

static int shape_logs(struct classify_state *st, const char *l, size_t n, size_t b, int tagged)
{
    long *s = st->score;
    /* -- NCCL, vLLM -- */
    if (is_nccl_line(l + b, n - b)) {
        s[TOK_KIND_NCCL] += W_NORMAL;
        return 1;
    }
    if (starts(l, n, "NCCL version ")) s[TOK_KIND_NCCL] += W_NORMAL;
    if (tagged) s[TOK_KIND_VLLM] += W_WEAK;

    /* -- training output -- */
    if (starts(l + b, n - b, "{'loss': ") || starts(l + b, n - b, "{'train_runtime'") ||
        starts(l + b, n - b, "{'eval_loss'") || starts(l + b, n - b, "{'train_loss'") ||
        starts(l + b, n - b, "{'grad_norm'")) {
        s[TOK_KIND_TRAIN] += W_STRONG;
        return 1;
    }
    if (has(l, n, "==((====))==") || has(l, n, "***** Running training *****")) {
        s[TOK_KIND_TRAIN] += W_STRONG;
        return 1;
    }
    if (starts(l + b, n - b, "Unsloth") || has(l, n, "torch/distributed/")) {
        s[TOK_KIND_TRAIN] += W_NORMAL;
        return 1;
    }
    if (has(l, n, "%|")) {
        /* tqdm "50/1000 [00:30<09:30,  1.67it/s]"; Lightning "Epoch 0: 100%|" */
        s[TOK_KIND_TRAIN] += starts(l + b, n - b, "Epoch ") ? W_STRONG : W_NORMAL;
        return 1;
    }

    /* -- Python tracebacks -- */
    if (has(l, n, "Traceback (most recent call last):")) {
        s[TOK_KIND_STDERR] += W_STRONG;
        return 1;
    }
    if (starts(l + b, n - b, "File \"") && has(l, n, "\", line ")) {
        s[TOK_KIND_STDERR] += W_NORMAL;
        return 1;
    }
    if (is_exception_line(l + b, n - b)) {
        s[TOK_KIND_STDERR] += W_NORMAL;
        return 1;
    }

    return 0;
}

static void shape_stamp(struct classify_state *st, const char *l, size_t n, size_t b)
{
    long *s = st->score;
    /* -- by the timestamp -- */
    size_t end = 0;
    struct az_time t = tok_parse_time(TOK_KIND_TEXT, l, n, &end);
    size_t f = b;
    if (f < n && l[f] == '<') {
        const char *gt = memchr(l + f, '>', AZ_MIN(n - f, (size_t)6));
        if (gt) f = (size_t)(gt - l) + 1;
    }
    unsigned char c0 = f < n ? (unsigned char)l[f] : 0;
    unsigned char c1 = f + 1 < n ? (unsigned char)l[f + 1] : 0;
    int kernel_tag = has(l, n, " kernel: ");
    switch (t.kind) {
    case AZ_TIME_BOOT: s[TOK_KIND_KERNEL] += W_NORMAL; break;
    case AZ_TIME_NOYEAR:
        if (c0 >= 'A' && c0 <= 'Z' && is_alpha(c1)) /* "Nov 29 10:12:55 host tag:" */
            s[TOK_KIND_KERNEL] += kernel_tag ? W_STRONG : W_NORMAL;
        else if (c0 == '[' || is_digit(c1)) /* glog: torchrun, PyTorch C++ warnings */
            s[TOK_KIND_TRAIN] += W_NORMAL;
        break;
    case AZ_TIME_ABS:
        if (c0 == '[' && is_alpha(c1)) /* dmesg -T */
            s[TOK_KIND_KERNEL] += W_NORMAL;
        else if (kernel_tag)
            s[TOK_KIND_KERNEL] += W_STRONG;
        else if (end >= 4 && end - f >= 23 && l[f + 19] == ',') /* python logging */
            s[TOK_KIND_TRAIN] += W_NORMAL;
        else if (end > f && l[f + 4] == '/' && end < n && l[end] == ',')
            s[TOK_KIND_SMI_CSV] += W_NORMAL; /* a --query-gpu=timestamp,... row */
        else if (end > f && is_digit((unsigned char)l[f + 4]))
            s[TOK_KIND_SMI_DMON] += W_NORMAL; /* dmon -o DT */
        else
            s[TOK_KIND_TRAIN] += W_WEAK;
        break;
    case AZ_TIME_NONE: break;
    default: break;
    }
    if (t.kind != AZ_TIME_NONE) return;
    if (has(l, n, "NVRM: ") || starts(l, n, "-- Logs begin at") || starts(l, n, "-- Boot ") ||
        starts(l, n, "-- Journal begins"))
        s[TOK_KIND_KERNEL] += W_NORMAL;
    else if (is_dmon_row(l, n))
        s[TOK_KIND_SMI_DMON] += W_WEAK;
    else if (is_smi_csv_row(l, n))
        s[TOK_KIND_SMI_CSV] += W_NORMAL;
}

static void score_shapes(struct classify_state *st, const char *l, size_t n, int tagged)
{
    size_t b = skip_blanks(l, n, 0);
    if (b == n) return;
    if (shape_smi(st, l, n, b) || shape_reports(st, l, n) || shape_logs(st, l, n, b, tagged))
        return;
    shape_stamp(st, l, n, b);
}

/* The kind a base name suggests, TOK_KIND_COUNT when none: the first of the pack's name hints
 * (vocab->hints, in order) whose part the lower-cased name holds. */
static enum tok_kind kind_from_name(const struct tok_vocab *vocab, const char *name)
{
    if (!vocab || !vocab->nhints || !name || !*name) return TOK_KIND_COUNT;
    char low[256];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof low; n++) low[n] = (char)lower((unsigned char)name[n]);
    low[n] = '\0';
    for (size_t i = 0; i < vocab->nhints; i++)
        if (strstr(low, vocab->hints[i].part)) return vocab->hints[i].kind;
    return TOK_KIND_COUNT;
}

#define TOK_CLASSIFY_LINE_MAX  512
#define TOK_CLASSIFY_MAX_LINES 2000

static const char *const vocab_names[TOK_VOCAB_COUNT] = {
    [TOK_VOCAB_STATUS] = "preflight-status",
    [TOK_VOCAB_ENV_KEYS] = "collect-env-keys",
    [TOK_VOCAB_PIP] = "pip-lines",
};

const char *tok_vocab_name(enum tok_vocab_list l)
{
    return (unsigned)l < TOK_VOCAB_COUNT ? vocab_names[l] : NULL;
}

enum tok_kind tok_classify(const struct tok_vocab *vocab, const char *name, const char *head,
                           size_t len)
{
    struct classify_state st;
    memset(&st, 0, sizeof st);
    st.vocab = vocab;
    char line[TOK_CLASSIFY_LINE_MAX];
    size_t i = 0, lines = 0;
    if (len >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0) i = 3; /* UTF-8 BOM */
    /* gotcha's own run record says what it is on its first line (tok.h) */
    if (head && tok_is_run_record(head + i, len - i)) return TOK_KIND_RUN_RECORD;
    while (i < len && lines < TOK_CLASSIFY_MAX_LINES) {
        /* One record up to LF or CR (tqdm redraws with CR), escape sequences dropped, cut at
         * TOK_CLASSIFY_LINE_MAX: classification needs only the start of a line. */
        size_t n = 0;
        while (i < len && head[i] != '\n' && head[i] != '\r') {
            unsigned char c = (unsigned char)head[i];
            if (c == 0x1b && i + 1 < len) {
                if (head[i + 1] == '[') {
                    i += 2;
                    while (i < len &&
                           !((unsigned char)head[i] >= 0x40 && (unsigned char)head[i] <= 0x7e))
                        i++;
                    if (i < len) i++;
                } else {
                    i += 2;
                }
                continue;
            }
            if (n < sizeof line) line[n++] = (char)c;
            i++;
        }
        if (i < len) i++;
        if (n > 0) {
            score_line(&st, line, n);
            lines++;
        }
    }
    enum tok_kind hint = kind_from_name(vocab, name);
    enum tok_kind best = TOK_KIND_TEXT;
    long best_score = 0;
    for (int k = 0; k < TOK_KIND_COUNT; k++) {
        /* content decides; the name only breaks ties or speaks when content is silent */
        long sc = st.score[k] * 2 + (hint == (enum tok_kind)k ? 1 : 0);
        if (sc > best_score) {
            best_score = sc;
            best = (enum tok_kind)k;
        }
    }
    return best;
}

/* ---- lanes from paths ---- */

/* A "<word>[-_]?<digits>" token at p[i..] with a non-letter before it; digits span out. */
static int word_number_at(const char *p, size_t i, const char *word, size_t *ds, size_t *dn)
{
    size_t m = strlen(word);
    if (i > 0 && is_alpha((unsigned char)p[i - 1])) return 0;
    for (size_t k = 0; k < m; k++)
        if (!p[i + k] || lower((unsigned char)p[i + k]) != (unsigned char)word[k]) return 0;
    size_t j = i + m;
    if (p[j] == '-' || p[j] == '_') j++;
    size_t s = j;
    while (is_digit((unsigned char)p[j]) && j - s < 8) j++;
    if (j == s || is_digit((unsigned char)p[j])) return 0;
    while (j - s > 1 && p[s] == '0') s++;
    *ds = s;
    *dn = j - s;
    return 1;
}

size_t tok_lane_from_path(const char *path, char *out, size_t outsz)
{
    if (!out || outsz == 0) return 0;
    out[0] = '\0';
    if (!path) return 0;
    size_t rs = 0, rn = 0, ns = 0, nn = 0;
    /* the last mention wins: the base name says more than a parent directory */
    for (size_t i = 0; path[i]; i++) {
        size_t ds, dn;
        if (word_number_at(path, i, "rank", &ds, &dn) ||
            word_number_at(path, i, "worker", &ds, &dn)) {
            rs = ds;
            rn = dn;
        } else if (word_number_at(path, i, "node", &ds, &dn)) {
            ns = ds;
            nn = dn;
        }
    }
    char buf[64];
    int w;
    if (nn && rn)
        w = snprintf(buf, sizeof buf, "node%.*s/rank%.*s", (int)nn, path + ns, (int)rn, path + rs);
    else if (nn)
        w = snprintf(buf, sizeof buf, "node%.*s", (int)nn, path + ns);
    else if (rn)
        w = snprintf(buf, sizeof buf, "rank%.*s", (int)rn, path + rs);
    else
        return 0;
    if (w < 0) return 0;
    size_t n = AZ_MIN((size_t)w, AZ_MIN(outsz - 1, sizeof buf - 1));
    memcpy(out, buf, n);
    out[n] = '\0';
    return n;
}

/* ---- numbers ---- */

int tok_parse_double(const char *p, size_t len, double *out)
{
    if (!p || !out) return -1;
    size_t i = 0;
    while (i < len && (p[i] == ' ' || p[i] == '\t')) i++;
    while (len > i && (p[len - 1] == ' ' || p[len - 1] == '\t')) len--;
    size_t s = i;
    if (i < len && (p[i] == '+' || p[i] == '-')) i++;
    /* Python prints a diverged loss as "nan" / "inf" ({'loss': nan}): those are values. */
    static const struct {
        const char *word;
        double value;
    } specials[] = {{"nan", NAN}, {"inf", INFINITY}, {"infinity", INFINITY}};
    for (size_t k = 0; k < AZ_ARRAY_LEN(specials); k++) {
        size_t m = strlen(specials[k].word);
        if (len - i != m) continue;
        size_t j = 0;
        while (j < m && lower((unsigned char)p[i + j]) == (unsigned char)specials[k].word[j]) j++;
        if (j == m) {
            *out = p[s] == '-' ? -specials[k].value : specials[k].value;
            return 0;
        }
    }
    size_t int_digits = 0, frac_digits = 0;
    while (i < len && is_digit((unsigned char)p[i])) {
        i++;
        int_digits++;
    }
    if (i < len && p[i] == '.') {
        i++;
        while (i < len && is_digit((unsigned char)p[i])) {
            i++;
            frac_digits++;
        }
    }
    if (int_digits + frac_digits == 0) return -1;
    if (i < len && (p[i] == 'e' || p[i] == 'E')) {
        size_t e = i + 1;
        if (e < len && (p[e] == '+' || p[e] == '-')) e++;
        size_t es = e;
        while (e < len && is_digit((unsigned char)p[e])) e++;
        if (e == es) return -1;
        i = e;
    }
    if (i != len) return -1;
    /* The syntax is checked above, so strtod sees only [sign]digits[.digits][e[sign]digits],
     * which it reads the same in the C locale gotcha never leaves. */
    char buf[96];
    if (len - s >= sizeof buf) return -1;
    memcpy(buf, p + s, len - s);
    buf[len - s] = '\0';
    *out = strtod(buf, NULL);
    return 0;
}
