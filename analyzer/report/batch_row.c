/* report/batch_row.c - the one-line-per-run records of `gotcha batch` (gotcha.batch/1). */
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "tokenize/tok.h"

#define BATCH_SCHEMA "gotcha.batch/1"

static char *dup_or_empty(const char *s)
{
    return az_xstrdup(s ? s : "");
}

static void row_init(struct report_batch_row *row, const char *run)
{
    memset(row, 0, sizeof *row);
    row->run = dup_or_empty(run);
    row->outcome = dup_or_empty("");
    row->verdict = dup_or_empty("");
    row->first_error = dup_or_empty("");
    row->first_error_at = dup_or_empty("");
    row->fingerprint = dup_or_empty("");
    row->fingerprint_text = dup_or_empty("");
    row->error = dup_or_empty("");
}

void report_batch_row_from_result(struct report_batch_row *row, const char *run,
                                  const struct corr_result *r, uint64_t duration_ms)
{
    row_init(row, run);
    free(row->outcome);
    row->outcome = dup_or_empty(corr_outcome_name(r->outcome));
    free(row->verdict);
    row->verdict = dup_or_empty(r->verdict ? r->verdict->id : "none");
    row->confidence = r->confidence;
    if (r->first_error) {
        free(row->first_error);
        free(row->first_error_at);
        free(row->fingerprint);
        free(row->fingerprint_text);
        row->first_error = dup_or_empty(r->first_error_entry ? r->first_error_entry->id : "");
        row->first_error_at =
            az_xasprintf("%s:%llu", r->first_error->path, (unsigned long long)r->first_error->line);
        struct az_buf masked = AZ_BUF_INIT;
        char hex[17];
        report_fingerprint(row->first_error, r->first_error->text, strlen(r->first_error->text),
                           &masked, hex);
        row->fingerprint = az_xstrdup(hex);
        row->fingerprint_text = az_buf_steal(&masked);
    }
    row->nfindings = r->nfindings;
    row->findings = az_xcalloc(r->nfindings ? r->nfindings : 1, sizeof *row->findings);
    for (size_t i = 0; i < r->nfindings; i++)
        row->findings[i] = dup_or_empty(r->findings[i].entry ? r->findings[i].entry->id : "");
    row->inputs = r->ninputs;
    row->skipped = r->nskipped;
    row->duration_ms = duration_ms;
    row->timed = 1;
    if (r->named_path_failed) {
        free(row->error);
        row->error = dup_or_empty(r->nwarnings ? r->warnings[0] : "cannot be opened");
    }
}

void report_batch_row_error(struct report_batch_row *row, const char *run, const char *error)
{
    row_init(row, run);
    free(row->error);
    row->error = dup_or_empty(error && *error ? error : "cannot be read");
    row->findings = az_xcalloc(1, sizeof *row->findings);
}

/* Confidence with two decimals, as every other report prints it, so rows are byte-stable. */
static double round2(double v)
{
    return (double)(long long)(v * 100.0 + (v >= 0 ? 0.5 : -0.5)) / 100.0;
}

char *report_batch_row_json(const struct report_batch_row *row)
{
    json_t *o = json_object();
    json_object_set_new(o, "schema", json_string(BATCH_SCHEMA));
    json_object_set_new(o, "run", json_string(row->run));
    json_object_set_new(o, "outcome", *row->outcome ? json_string(row->outcome) : json_null());
    json_object_set_new(o, "verdict", json_string(row->verdict));
    json_object_set_new(o, "confidence", json_real(round2(row->confidence)));
    json_t *fe = json_null();
    if (*row->first_error) {
        fe = json_object();
        json_object_set_new(fe, "id", json_string(row->first_error));
        json_object_set_new(fe, "at", json_string(row->first_error_at));
        json_object_set_new(fe, "fingerprint", json_string(row->fingerprint));
        json_object_set_new(fe, "text", json_string(row->fingerprint_text));
    }
    json_object_set_new(o, "first_error", fe);
    json_t *ids = json_array();
    for (size_t i = 0; i < row->nfindings; i++)
        json_array_append_new(ids, json_string(row->findings[i]));
    json_object_set_new(o, "findings", ids);
    json_object_set_new(o, "inputs", json_integer((json_int_t)row->inputs));
    json_object_set_new(o, "skipped", json_integer((json_int_t)row->skipped));
    if (row->timed)
        json_object_set_new(o, "duration_ms", json_integer((json_int_t)row->duration_ms));
    json_object_set_new(o, "error", *row->error ? json_string(row->error) : json_null());
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(4));
    json_decref(o);
    if (!s) return az_xstrdup("{}");
    char *copy = az_xstrdup(s); /* callers free with free(), whatever jansson's allocator is */
    free(s);
    return copy;
}

static const char *get_str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

enum az_status report_batch_row_parse(struct report_batch_row *row, const char *json, size_t len)
{
    memset(row, 0, sizeof *row);
    json_error_t jerr;
    json_t *o = json_loadb(json, len, 0, &jerr);
    if (!json_is_object(o)) goto bad;
    const char *schema = get_str(o, "schema"), *run = get_str(o, "run"),
               *verdict = get_str(o, "verdict");
    json_t *conf = json_object_get(o, "confidence"), *ids = json_object_get(o, "findings");
    json_t *fe = json_object_get(o, "first_error"), *err = json_object_get(o, "error");
    json_t *oc = json_object_get(o, "outcome");
    if (!schema || strcmp(schema, BATCH_SCHEMA) != 0 || !run || !verdict || !json_is_number(conf) ||
        !(json_is_null(oc) || json_is_string(oc)) || !json_is_array(ids) ||
        !(json_is_null(fe) || json_is_object(fe)) || !(json_is_null(err) || json_is_string(err)))
        goto bad;
    row_init(row, run);
    if (json_is_string(oc)) {
        free(row->outcome);
        row->outcome = dup_or_empty(json_string_value(oc));
    }
    free(row->verdict);
    row->verdict = dup_or_empty(verdict);
    row->confidence = json_number_value(conf);
    if (json_is_object(fe)) {
        const char *id = get_str(fe, "id"), *at = get_str(fe, "at"),
                   *fp = get_str(fe, "fingerprint"), *text = get_str(fe, "text");
        if (!id || !at || !fp || !text) {
            report_batch_row_free(row);
            goto bad;
        }
        free(row->first_error);
        free(row->first_error_at);
        free(row->fingerprint);
        free(row->fingerprint_text);
        row->first_error = dup_or_empty(id);
        row->first_error_at = dup_or_empty(at);
        row->fingerprint = dup_or_empty(fp);
        row->fingerprint_text = dup_or_empty(text);
    }
    row->nfindings = json_array_size(ids);
    row->findings = az_xcalloc(row->nfindings ? row->nfindings : 1, sizeof *row->findings);
    for (size_t i = 0; i < row->nfindings; i++) {
        const char *id = json_string_value(json_array_get(ids, i));
        row->findings[i] = dup_or_empty(id);
    }
    row->inputs = (uint64_t)json_integer_value(json_object_get(o, "inputs"));
    row->skipped = (uint64_t)json_integer_value(json_object_get(o, "skipped"));
    json_t *ms = json_object_get(o, "duration_ms");
    row->timed = json_is_integer(ms);
    row->duration_ms = row->timed ? (uint64_t)json_integer_value(ms) : 0;
    if (json_is_string(err)) {
        free(row->error);
        row->error = dup_or_empty(json_string_value(err));
    }
    json_decref(o);
    return AZ_OK;
bad:
    json_decref(o);
    memset(row, 0, sizeof *row);
    return AZ_FAIL;
}

const char *report_batch_csv_header(int timing)
{
    return timing ? "run,outcome,verdict,confidence,first_error,first_error_at,fingerprint,"
                    "first_error_text,findings,inputs,skipped,duration_ms,error"
                  : "run,outcome,verdict,confidence,first_error,first_error_at,fingerprint,"
                    "first_error_text,findings,inputs,skipped,error";
}

static void csv_field(struct az_buf *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        az_buf_puts(out, s);
        return;
    }
    az_buf_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"') az_buf_putc(out, '"');
        az_buf_putc(out, *s);
    }
    az_buf_putc(out, '"');
}

void report_batch_row_csv(struct az_buf *out, const struct report_batch_row *row)
{
    struct az_buf ids = AZ_BUF_INIT;
    for (size_t i = 0; i < row->nfindings; i++) {
        if (i) az_buf_putc(&ids, ' ');
        az_buf_puts(&ids, row->findings[i]);
    }
    csv_field(out, row->run);
    az_buf_putc(out, ',');
    csv_field(out, row->outcome);
    az_buf_putc(out, ',');
    csv_field(out, row->verdict);
    az_buf_printf(out, ",%.2f,", round2(row->confidence));
    csv_field(out, row->first_error);
    az_buf_putc(out, ',');
    csv_field(out, row->first_error_at);
    az_buf_putc(out, ',');
    csv_field(out, row->fingerprint);
    az_buf_putc(out, ',');
    csv_field(out, row->fingerprint_text);
    az_buf_putc(out, ',');
    csv_field(out, ids.data ? ids.data : "");
    az_buf_printf(out, ",%llu,%llu,", (unsigned long long)row->inputs,
                  (unsigned long long)row->skipped);
    if (row->timed) az_buf_printf(out, "%llu,", (unsigned long long)row->duration_ms);
    csv_field(out, row->error);
    az_buf_free(&ids);
}

void report_batch_row_free(struct report_batch_row *row)
{
    if (!row) return;
    free(row->run);
    free(row->outcome);
    free(row->verdict);
    free(row->first_error);
    free(row->first_error_at);
    free(row->fingerprint);
    free(row->fingerprint_text);
    for (size_t i = 0; i < row->nfindings; i++) free(row->findings[i]);
    free(row->findings);
    free(row->error);
    memset(row, 0, sizeof *row);
}

/* ---- fingerprints ---- */

static int is_hex(int c)
{
    return isxdigit((unsigned char)c);
}

static int is_word(int c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Length of a run of characters that make a path after a '/' start: stops at space and quotes. */
static size_t path_len(const char *p, size_t len)
{
    size_t i = 0;
    while (i < len && !isspace((unsigned char)p[i]) && p[i] != '\'' && p[i] != '"' && p[i] != ',' &&
           p[i] != ')' && p[i] != ']')
        i++;
    return i;
}

void report_fingerprint(const char *id, const char *text, size_t len, struct az_buf *masked,
                        char hex[17])
{
    az_buf_reset(masked);
    size_t i = 0;
    tok_parse_time(TOK_KIND_TEXT, text, len, &i);
    while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
    while (i < len) {
        unsigned char c = (unsigned char)text[i];
        int boundary = i == 0 || !is_word(text[i - 1]);
        if (boundary && c == '0' && i + 2 < len && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
            is_hex(text[i + 2])) {
            i += 2;
            while (i < len && is_hex(text[i])) i++;
            az_buf_puts(masked, "<hex>");
            continue;
        }
        if (c == '/' && (i == 0 || isspace((unsigned char)text[i - 1]) || text[i - 1] == '\'' ||
                         text[i - 1] == '"' || text[i - 1] == '(' || text[i - 1] == '=' ||
                         text[i - 1] == ':')) {
            size_t n = path_len(text + i, len - i);
            if (n > 1) {
                i += n;
                az_buf_puts(masked, "<path>");
                continue;
            }
        }
        if (boundary && is_hex(c)) {
            /* A long hex/alnum token with digits (a UUID, a hash, a job id) is an id. */
            size_t j = i, digits = 0;
            while (j < len && (is_hex(text[j]) || text[j] == '-')) {
                if (isdigit((unsigned char)text[j])) digits++;
                j++;
            }
            if (j - i >= 12 && digits >= 2 && (j == len || !is_word(text[j]))) {
                i = j;
                az_buf_puts(masked, "<id>");
                continue;
            }
        }
        if (isdigit(c)) {
            while (i < len && (isdigit((unsigned char)text[i]) || text[i] == '.')) i++;
            az_buf_puts(masked, "<n>");
            continue;
        }
        az_buf_putc(masked, (char)c);
        i++;
    }
    const unsigned char sep = 0xff; /* separates the id from the text */
    uint64_t h = az_fnv1a(AZ_FNV1A_SEED, id ? id : "", id ? strlen(id) : 0);
    h = az_fnv1a(h, &sep, 1);
    h = az_fnv1a(h, masked->data ? masked->data : "", masked->len);
    static const char digits[] = "0123456789abcdef";
    for (int k = 15; k >= 0; k--) {
        hex[k] = digits[h & 15];
        h >>= 4;
    }
    hex[16] = '\0';
}
