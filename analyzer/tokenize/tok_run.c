/*
 * tokenize/tok_run.c - the run record `gotcha record` writes (run.txt): its first line, its fields
 * and the exit status it states. See tok.h, "the run record".
 */
#include <string.h>

#include "tokenize/tok.h"

/* The keys of the fields; a line starting "key: " with one of them is a field. */
static const char *const run_keys[] = {
    TOK_RUN_RECORD_COMMAND,  TOK_RUN_RECORD_CWD,  TOK_RUN_RECORD_STARTED,    TOK_RUN_RECORD_ENDED,
    TOK_RUN_RECORD_DURATION, TOK_RUN_RECORD_EXIT, TOK_RUN_RECORD_KERNEL_LOG,
};

/* Exit statuses are 0..255; a signal number is below 128 (128 + N is the status). */
#define RUN_STATUS_MAX 255
#define RUN_SIGNAL_MAX 127

/* The version after the magic: digits and dots, then the end of the line. */
static int is_first_line(const char *p, size_t len)
{
    size_t m = strlen(TOK_RUN_RECORD_MAGIC);
    if (len <= m || !az_starts_with(p, len, TOK_RUN_RECORD_MAGIC)) return 0;
    size_t i = m;
    if (p[i] < '0' || p[i] > '9') return 0;
    while (i < len && ((p[i] >= '0' && p[i] <= '9') || p[i] == '.')) i++;
    while (i < len && (p[i] == '\r' || p[i] == ' ')) i++;
    return i == len || p[i] == '\n';
}

int tok_is_run_record(const char *head, size_t len)
{
    if (!head) return 0;
    const char *nl = memchr(head, '\n', len);
    return is_first_line(head, nl ? (size_t)(nl - head) : len);
}

/* A whole number of at most 3 digits at p[*i] within [0, max]; -1 when none. */
static int small_number(const char *p, size_t len, size_t *i, int max)
{
    size_t s = *i;
    int v = 0;
    while (*i < len && *i - s < 3 && p[*i] >= '0' && p[*i] <= '9') v = v * 10 + (p[(*i)++] - '0');
    if (*i == s || (*i < len && p[*i] >= '0' && p[*i] <= '9') || v > max) return -1;
    return v;
}

/* The exit value "N[ (...)]" or "signal N[ (...)]"; 0 when it is neither. */
static int parse_exit(const char *v, size_t len, struct tok_run_exit *ex)
{
    size_t i = 0, sl = strlen(TOK_RUN_RECORD_SIGNAL);
    int sig = 0;
    if (az_starts_with(v, len, TOK_RUN_RECORD_SIGNAL)) {
        i = sl;
        sig = small_number(v, len, &i, RUN_SIGNAL_MAX);
        if (sig <= 0) return 0;
    } else {
        int st = small_number(v, len, &i, RUN_STATUS_MAX);
        if (st < 0) return 0;
        ex->status = st;
    }
    if (i < len && v[i] != ' ' && v[i] != '\r') return 0;
    if (sig) {
        ex->signal = sig;
        ex->status = 128 + sig;
    }
    return 1;
}

enum tok_run_line tok_run_record_line(const char *p, size_t len, struct tok_run_exit *ex)
{
    if (!p) return TOK_RUN_LINE_FREE;
    if (is_first_line(p, len)) return TOK_RUN_LINE_FIELD;
    for (size_t k = 0; k < AZ_ARRAY_LEN(run_keys); k++) {
        size_t kl = strlen(run_keys[k]);
        if (len < kl + 1 || memcmp(p, run_keys[k], kl) != 0 || p[kl] != ':') continue;
        if (kl + 1 < len && p[kl + 1] != ' ') continue;
        if (strcmp(run_keys[k], TOK_RUN_RECORD_EXIT) != 0) return TOK_RUN_LINE_FIELD;
        struct tok_run_exit e = {0, 0};
        size_t vs = AZ_MIN(kl + 2, len);
        if (!parse_exit(p + vs, len - vs, &e)) return TOK_RUN_LINE_FIELD;
        if (ex) *ex = e;
        return TOK_RUN_LINE_EXIT;
    }
    return TOK_RUN_LINE_FREE;
}
