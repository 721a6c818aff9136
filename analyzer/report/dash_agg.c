/*
 * report/dash_agg.c - what the batch dashboard counts (see report.h, "the batch dashboard"): the
 * per-run facts rows do not carry, their cache encoding, the name of a run's report file, and
 * the aggregation: categories, weeks, outcomes and first errors by fingerprint. Exact over every
 * run; O(n log n) in the runs; nothing here formats HTML (dashboard.c does).
 */
#include <assert.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "match/match.h"
#include "report/report.h"

#define USEC_PER_DAY (86400LL * 1000000LL)

/* ---- facts ---- */

static void facts_time_from_mtime(struct report_dash_facts *f, int64_t newest_mtime)
{
    if (newest_mtime > 0) {
        f->when = REPORT_DASH_WHEN_MTIME;
        f->first_usec = newest_mtime * 1000000LL;
    }
}

void report_dash_facts_from_mtime(struct report_dash_facts *f, int64_t newest_mtime)
{
    memset(f, 0, sizeof *f);
    f->outcome = CORR_OUTCOME_UNKNOWN;
    facts_time_from_mtime(f, newest_mtime);
}

void report_dash_facts_from_result(struct report_dash_facts *f, const struct corr_result *r,
                                   int64_t newest_mtime)
{
    report_dash_facts_from_mtime(f, newest_mtime);
    f->outcome = r->outcome;
    if (r->start.kind == AZ_TIME_ABS) {
        f->when = REPORT_DASH_WHEN_LOGS;
        f->first_usec = r->start.usec;
    } else if (r->start.kind == AZ_TIME_NOYEAR && newest_mtime > 0) {
        struct az_time mt = {newest_mtime * 1000000LL, AZ_TIME_ABS};
        f->when = REPORT_DASH_WHEN_LOGS_YEAR;
        f->first_usec = az_time_set_year(r->start, az_time_year(mt)).usec;
    }
    size_t n = AZ_MIN(r->nhosts, (size_t)REPORT_DASH_MAX_HOSTS);
    f->hosts = az_xcalloc(n ? n : 1, sizeof *f->hosts);
    for (size_t i = 0; i < n; i++) f->hosts[i] = az_xstrdup(r->hosts[i] ? r->hosts[i] : "");
    f->nhosts = n;
}

/* enum report_dash_when's values, as the cache writes them */
static const char *const when_names[] = {"none", "logs", "logs-year", "mtime"};

char *report_dash_facts_json(const struct report_dash_facts *f)
{
    json_t *o = json_object();
    json_object_set_new(o, "outcome", json_string(corr_outcome_name(f->outcome)));
    json_object_set_new(o, "when", json_string(when_names[f->when]));
    json_object_set_new(o, "first_usec", json_integer((json_int_t)f->first_usec));
    json_t *hosts = json_array();
    for (size_t i = 0; i < f->nhosts; i++) json_array_append_new(hosts, json_string(f->hosts[i]));
    json_object_set_new(o, "hosts", hosts);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    char *copy = az_xstrdup(s ? s : "{}"); /* callers free with free(), whatever jansson uses */
    free(s);
    return copy;
}

static int name_index(const char *name, const char *const *names, size_t n)
{
    for (size_t i = 0; name && i < n; i++)
        if (strcmp(name, names[i]) == 0) return (int)i;
    return -1;
}

#define NOUTCOMES 4 /* enum corr_outcome's values, 0..3 */

static int outcome_index(const char *name)
{
    for (int i = 0; name && i < NOUTCOMES; i++)
        if (strcmp(name, corr_outcome_name((enum corr_outcome)i)) == 0) return i;
    return -1;
}

enum az_status report_dash_facts_parse(struct report_dash_facts *f, const char *json, size_t len)
{
    memset(f, 0, sizeof *f);
    json_error_t jerr;
    json_t *o = json_loadb(json, len, 0, &jerr);
    json_t *hosts = json_object_get(o, "hosts"), *first = json_object_get(o, "first_usec");
    int oc = outcome_index(json_string_value(json_object_get(o, "outcome")));
    int when = name_index(json_string_value(json_object_get(o, "when")), when_names,
                          AZ_ARRAY_LEN(when_names));
    if (!json_is_object(o) || oc < 0 || when < 0 || !json_is_integer(first) ||
        !json_is_array(hosts) || json_array_size(hosts) > REPORT_DASH_MAX_HOSTS) {
        json_decref(o);
        return AZ_FAIL;
    }
    f->outcome = (enum corr_outcome)oc;
    f->when = (enum report_dash_when)when;
    f->first_usec = (int64_t)json_integer_value(first);
    f->nhosts = json_array_size(hosts);
    f->hosts = az_xcalloc(f->nhosts ? f->nhosts : 1, sizeof *f->hosts);
    for (size_t i = 0; i < f->nhosts; i++) {
        const char *h = json_string_value(json_array_get(hosts, i));
        f->hosts[i] = az_xstrdup(h ? h : "");
    }
    json_decref(o);
    return AZ_OK;
}

void report_dash_facts_free(struct report_dash_facts *f)
{
    if (!f) return;
    for (size_t i = 0; i < f->nhosts; i++) free(f->hosts[i]);
    free(f->hosts);
    memset(f, 0, sizeof *f);
}

/* ---- a run's report file ---- */

#define REPORT_NAME_TAIL 64 /* bytes of the run path kept in the name: its most specific part */

void report_dash_report_name(const char *run, int redact, char *out, size_t outsz)
{
    uint64_t h = az_fnv1a(AZ_FNV1A_SEED, run, strlen(run));
    if (redact) {
        snprintf(out, outsz, "run-%016llx.html", (unsigned long long)h);
        return;
    }
    char slug[REPORT_NAME_TAIL + 1];
    size_t n = 0, len = strlen(run);
    const char *p = run + (len > REPORT_NAME_TAIL ? len - REPORT_NAME_TAIL : 0);
    for (; *p && n < REPORT_NAME_TAIL; p++) {
        char c = *p;
        int keep = az_is_alnum((unsigned char)c) || c == '.' || c == '-' || c == '_';
        if (!keep) c = '_';
        if (c == '_' && n && slug[n - 1] == '_') continue;
        slug[n++] = c;
    }
    slug[n] = '\0';
    const char *s = slug;
    while (*s == '_' || *s == '.') s++; /* no hidden file, no leading separator */
    snprintf(out, outsz, "%s%s%016llx.html", s, *s ? "-" : "run-", (unsigned long long)h);
}

/* ---- aggregation ---- */

int64_t report_dash_monday(int64_t usec)
{
    int64_t days = usec / USEC_PER_DAY;
    if (usec % USEC_PER_DAY < 0) days--;
    int64_t wd = (days + 3) % 7; /* 1970-01-01 was a Thursday: 0 = Monday */
    if (wd < 0) wd += 7;
    return days - wd;
}

static int is_none(const char *verdict)
{
    return !verdict[0] || strcmp(verdict, "none") == 0;
}

static enum report_dash_class class_of(const struct report_dash_input *in)
{
    const struct report_batch_row *row = in->row;
    if (row->error[0]) return REPORT_DASH_NOT_READ;
    if (!is_none(row->verdict)) return REPORT_DASH_GOTCHA;
    enum corr_outcome oc = in->facts->outcome;
    if (oc == CORR_OUTCOME_COMPLETED || (oc == CORR_OUTCOME_UNKNOWN && !row->first_error[0]))
        return REPORT_DASH_HEALTHY;
    return REPORT_DASH_OTHER_FAILURE;
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void cat_push(struct report_dash_agg *a, size_t *cap, const char *id, const char *title,
                     enum report_dash_class cls)
{
    az_grow((void **)&a->cats, cap, a->ncats + 1, sizeof *a->cats);
    a->cats[a->ncats++] = (struct report_dash_category){id, title, cls, 0};
}

static size_t cat_find(const struct report_dash_agg *a, const char *id, enum report_dash_class cls)
{
    for (size_t c = 0; c < a->ncats; c++)
        if (a->cats[c].cls == cls && strcmp(a->cats[c].id, id) == 0) return c;
    return SIZE_MAX;
}

/* The pack's gotchas in pack order, then verdicts it does not name (sorted), then the classes. */
static void build_categories(struct report_dash_agg *a, const struct report_dash_input *runs,
                             size_t n, const struct match_pack *pack)
{
    size_t cap = 0;
    for (size_t i = 0; pack && i < match_pack_entry_count(pack); i++) {
        const struct match_entry *e = match_pack_entry(pack, i);
        if (e->family == MATCH_FAMILY_GOTCHA)
            cat_push(a, &cap, e->id, e->title, REPORT_DASH_GOTCHA);
    }
    const char **extra = az_xcalloc(n ? n : 1, sizeof *extra);
    size_t nextra = 0;
    for (size_t i = 0; i < n; i++)
        if (class_of(&runs[i]) == REPORT_DASH_GOTCHA &&
            cat_find(a, runs[i].row->verdict, REPORT_DASH_GOTCHA) == SIZE_MAX)
            extra[nextra++] = runs[i].row->verdict;
    qsort(extra, nextra, sizeof *extra, cmp_cstr);
    for (size_t i = 0; i < nextra; i++)
        if (i == 0 || strcmp(extra[i], extra[i - 1]) != 0)
            cat_push(a, &cap, extra[i], "", REPORT_DASH_GOTCHA);
    free(extra);
    cat_push(a, &cap, "other", "other failure: none of the gotchas", REPORT_DASH_OTHER_FAILURE);
    cat_push(a, &cap, "healthy", "healthy: no gotcha, no failure", REPORT_DASH_HEALTHY);
    cat_push(a, &cap, "not read", "could not be read", REPORT_DASH_NOT_READ);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t week_index(const struct report_dash_agg *a, int64_t monday)
{
    size_t lo = 0, hi = a->nweeks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->weeks[mid].monday < monday)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int timed(const struct report_dash_input *in)
{
    return in->facts->when != REPORT_DASH_WHEN_NONE;
}

static void count_weeks(struct report_dash_agg *a, const struct report_dash_input *runs, size_t n)
{
    int64_t *mondays = az_xcalloc(n ? n : 1, sizeof *mondays);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (timed(&runs[i])) mondays[m++] = report_dash_monday(runs[i].facts->first_usec);
    qsort(mondays, m, sizeof *mondays, cmp_i64);
    a->weeks = az_xcalloc(m ? m : 1, sizeof *a->weeks);
    for (size_t i = 0; i < m; i++)
        if (i == 0 || mondays[i] != mondays[i - 1])
            a->weeks[a->nweeks++] = (struct report_dash_week){mondays[i], 0};
    free(mondays);
    a->week_cat = az_xcalloc(a->nweeks * a->ncats + 1, sizeof *a->week_cat);
    for (size_t i = 0; i < n; i++) {
        if (!timed(&runs[i])) continue;
        size_t w = week_index(a, report_dash_monday(runs[i].facts->first_usec));
        a->weeks[w].runs++;
        a->week_cat[w * a->ncats + a->cat_of[i]]++;
    }
}

/* A run with a first error, for grouping by fingerprint (then run order). */
struct fp_key {
    const char *fingerprint; /* borrowed from the row */
    size_t run;
};

static int cmp_fp_key(const void *pa, const void *pb)
{
    const struct fp_key *a = pa, *b = pb;
    int c = strcmp(a->fingerprint, b->fingerprint);
    if (c) return c;
    return a->run < b->run ? -1 : a->run > b->run;
}

static int cmp_error(const void *pa, const void *pb)
{
    const struct report_dash_error *a = pa, *b = pb;
    if (a->runs != b->runs) return a->runs < b->runs ? 1 : -1;
    return strcmp(a->fingerprint, b->fingerprint);
}

/* 1 when run i is newer than run j (timed before untimed, then later time, then run order). */
static int newer(const struct report_dash_input *runs, size_t i, size_t j)
{
    int ti = timed(&runs[i]), tj = timed(&runs[j]);
    if (ti != tj) return ti;
    if (ti && runs[i].facts->first_usec != runs[j].facts->first_usec)
        return runs[i].facts->first_usec > runs[j].facts->first_usec;
    return i < j;
}

static void error_add_run(struct report_dash_error *e, const struct report_dash_input *runs,
                          size_t i)
{
    e->runs++;
    if (timed(&runs[i])) {
        int64_t t = runs[i].facts->first_usec;
        if (!e->timed || t < e->first_usec) e->first_usec = t;
        if (!e->timed || t > e->last_usec) e->last_usec = t;
        e->timed = 1;
    }
    /* keep the newest REPORT_DASH_EXAMPLES, newest first: insertion into a short array */
    size_t k = e->nexamples;
    if (k == REPORT_DASH_EXAMPLES) {
        if (!newer(runs, i, e->example[k - 1])) return;
        k--;
    } else {
        e->nexamples++;
    }
    while (k > 0 && newer(runs, i, e->example[k - 1])) {
        e->example[k] = e->example[k - 1];
        k--;
    }
    e->example[k] = i;
}

static void count_errors(struct report_dash_agg *a, const struct report_dash_input *runs, size_t n)
{
    struct fp_key *idx = az_xcalloc(n ? n : 1, sizeof *idx);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!runs[i].row->error[0] && runs[i].row->fingerprint[0])
            idx[m++] = (struct fp_key){runs[i].row->fingerprint, i};
    qsort(idx, m, sizeof *idx, cmp_fp_key);
    struct report_dash_error *all = az_xcalloc(m ? m : 1, sizeof *all);
    size_t ng = 0;
    for (size_t k = 0; k < m; k++) {
        const struct report_batch_row *row = runs[idx[k].run].row;
        if (k == 0 || strcmp(row->fingerprint, all[ng - 1].fingerprint) != 0) {
            struct report_dash_error *e = &all[ng++];
            e->fingerprint = row->fingerprint;
            e->id = row->first_error;
            e->text = row->fingerprint_text;
        }
        error_add_run(&all[ng - 1], runs, idx[k].run);
    }
    free(idx);
    qsort(all, ng, sizeof *all, cmp_error);
    a->nerrors_distinct = ng;
    a->nerrors = AZ_MIN(ng, (size_t)REPORT_DASH_TOP_ERRORS);
    a->errors = all;
}

void report_dash_aggregate(struct report_dash_agg *a, const struct report_dash_input *runs,
                           size_t n, const struct match_pack *pack)
{
    memset(a, 0, sizeof *a);
    a->nruns = n;
    build_categories(a, runs, n, pack);
    a->cat_of = az_xcalloc(n ? n : 1, sizeof *a->cat_of);
    for (size_t i = 0; i < n; i++) {
        enum report_dash_class cls = class_of(&runs[i]);
        const char *id = cls == REPORT_DASH_GOTCHA          ? runs[i].row->verdict
                         : cls == REPORT_DASH_OTHER_FAILURE ? "other"
                         : cls == REPORT_DASH_HEALTHY       ? "healthy"
                                                            : "not read";
        size_t c = cat_find(a, id, cls);
        assert(c != SIZE_MAX);
        a->cat_of[i] = c;
        a->cats[c].runs++;
        if (cls != REPORT_DASH_NOT_READ && (unsigned)runs[i].facts->outcome < NOUTCOMES)
            a->outcomes[runs[i].facts->outcome]++;
        if (timed(&runs[i])) {
            int64_t t = runs[i].facts->first_usec;
            if (!a->ntimed || t < a->first_usec) a->first_usec = t;
            if (!a->ntimed || t > a->last_usec) a->last_usec = t;
            a->ntimed++;
        }
    }
    count_weeks(a, runs, n);
    count_errors(a, runs, n);
}

void report_dash_agg_free(struct report_dash_agg *a)
{
    if (!a) return;
    free(a->cats);
    free(a->cat_of);
    free(a->weeks);
    free(a->week_cat);
    free(a->errors);
    memset(a, 0, sizeof *a);
}
