/*
 * report/report.c - format names, report_write() and the helpers every writer shares.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_private.h"

static const char *const format_names[REPORT_FORMAT_COUNT] = {"text", "json", "md", "html",
                                                              "preflight"};
static const char *const format_exts[REPORT_FORMAT_COUNT] = {"txt", "json", "md", "html",
                                                             "preflight"};

int report_format_from_name(const char *name)
{
    if (!name) return -1;
    for (int f = 0; f < REPORT_FORMAT_COUNT; f++)
        if (strcmp(name, format_names[f]) == 0) return f;
    return -1;
}

const char *report_format_name(enum report_format f)
{
    return (f >= 0 && f < REPORT_FORMAT_COUNT) ? format_names[f] : "?";
}

const char *report_format_ext(enum report_format f)
{
    return (f >= 0 && f < REPORT_FORMAT_COUNT) ? format_exts[f] : "out";
}

const char *report_jansson_version(void)
{
    return JANSSON_VERSION;
}

enum az_status report_write(FILE *out, enum report_format f, const struct corr_result *r,
                            const struct match_pack *pack, const struct report_options *o)
{
    static const struct report_options defaults = {0, 0, 0, NULL, NULL};
    struct rpt c = {r, pack, o ? o : &defaults, AZ_BUF_INIT, AZ_BUF_INIT, NULL, NULL, 0, ""};
    if (c.o->redact && c.o->names) {
        c.names = c.o->names;
    } else if (c.o->redact) {
        /* every name the report will show, learnt before the first is written */
        c.own_names = report_names_new((const char *const *)r->hosts, r->nhosts);
        report_names_learn_result(c.own_names, r);
        c.names = c.own_names;
    }
    switch (f) {
    case REPORT_TEXT: rpt_write_text(&c); break;
    case REPORT_JSON: rpt_write_json(&c); break;
    case REPORT_MD: rpt_write_md(&c); break;
    case REPORT_HTML: rpt_write_html(&c); break;
    case REPORT_PREFLIGHT: rpt_write_preflight(&c); break;
    case REPORT_FORMAT_COUNT:
    default: break;
    }
    size_t n = c.out.len ? fwrite(c.out.data, 1, c.out.len, out) : 0;
    int failed = c.failed || n != c.out.len || fflush(out) != 0 || ferror(out);
    az_buf_free(&c.out);
    az_buf_free(&c.red);
    report_names_free(c.own_names);
    return failed ? AZ_FAIL : AZ_OK;
}

const char *rpt_input(struct rpt *c, const char *s, size_t *len)
{
    if (!s) s = "";
    if (!c->o->redact) {
        *len = strlen(s);
        return s;
    }
    az_buf_reset(&c->red);
    report_redact(&c->red, s, strlen(s), c->names);
    az_buf_ensure(&c->red, 0); /* data non-NULL even for "" */
    *len = c->red.len;
    return c->red.data;
}

/* ---- time ---- */

struct civil {
    int64_t year;
    unsigned month, day, hour, min, sec, usec;
};

static struct civil civil_of(struct az_time t)
{
    const int64_t day_us = 86400LL * 1000000LL;
    int64_t days = t.usec / day_us, rem = t.usec % day_us;
    if (rem < 0) {
        rem += day_us;
        days--;
    }
    if (t.kind == AZ_TIME_NOYEAR) days += az_days_from_civil(2000, 1, 1);
    struct civil c;
    az_civil_from_days(days, &c.year, &c.month, &c.day);
    c.hour = (unsigned)(rem / 3600000000LL);
    c.min = (unsigned)(rem / 60000000LL % 60);
    c.sec = (unsigned)(rem / 1000000 % 60);
    c.usec = (unsigned)(rem % 1000000);
    return c;
}

void rpt_time_iso(struct az_time t, char *out, size_t outsz)
{
    out[0] = '\0';
    if (t.kind == AZ_TIME_NONE) return;
    if (t.kind == AZ_TIME_BOOT) {
        int64_t u = t.usec < 0 ? -t.usec : t.usec;
        snprintf(out, outsz, "%s%lld.%06llds", t.usec < 0 ? "-" : "+", (long long)(u / 1000000),
                 (long long)(u % 1000000));
        return;
    }
    struct civil c = civil_of(t);
    int n;
    if (t.kind == AZ_TIME_NOYEAR)
        n = snprintf(out, outsz, "--%02u-%02uT%02u:%02u:%02u", c.month, c.day, c.hour, c.min,
                     c.sec);
    else
        n = snprintf(out, outsz, "%04lld-%02u-%02uT%02u:%02u:%02u", (long long)c.year, c.month,
                     c.day, c.hour, c.min, c.sec);
    if (c.usec && n > 0 && (size_t)n < outsz)
        snprintf(out + n, outsz - (size_t)n, ".%03u", c.usec / 1000);
}

static int same_day(struct az_time a, struct az_time b)
{
    if (a.kind != b.kind) return 0;
    struct civil x = civil_of(a), y = civil_of(b);
    return x.year == y.year && x.month == y.month && x.day == y.day;
}

void rpt_time_short(const struct corr_result *r, struct az_time t, int approx, char *out,
                    size_t outsz)
{
    out[0] = '\0';
    if (t.kind == AZ_TIME_NONE) return;
    const char *tilde = approx ? "~" : "";
    if (t.kind == AZ_TIME_BOOT) {
        snprintf(out, outsz, "%s+%lld.%01llds", tilde, (long long)(t.usec / 1000000),
                 (long long)(t.usec % 1000000 / 100000));
        return;
    }
    struct civil c = civil_of(t);
    int one_day =
        r->start.kind == AZ_TIME_NONE || r->end.kind == AZ_TIME_NONE || same_day(r->start, r->end);
    if (one_day)
        snprintf(out, outsz, "%s%02u:%02u:%02u", tilde, c.hour, c.min, c.sec);
    else
        snprintf(out, outsz, "%s%02u-%02u %02u:%02u:%02u", tilde, c.month, c.day, c.hour, c.min,
                 c.sec);
}

void rpt_duration(int64_t usec, char *out, size_t outsz)
{
    if (usec < 0) usec = -usec;
    int64_t s = usec / 1000000, d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60, sec = s % 60;
    if (d > 0)
        snprintf(out, outsz, "%lld d %lld h", (long long)d, (long long)h);
    else if (h > 0)
        snprintf(out, outsz, "%lld h %lld min", (long long)h, (long long)m);
    else if (m > 0)
        snprintf(out, outsz, "%lld min %lld s", (long long)m, (long long)sec);
    else
        snprintf(out, outsz, "%lld s", (long long)sec);
}

void rpt_thousands(uint64_t v, char *out, size_t outsz)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < outsz; i++) {
        if (i > 0 && (n - i) % 3 == 0) out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o < outsz ? o : outsz - 1] = '\0';
}

void rpt_span_text(const struct corr_result *r, char *out, size_t outsz)
{
    out[0] = '\0';
    if (r->start.kind == AZ_TIME_NONE || r->end.kind == AZ_TIME_NONE) return;
    char dur[48];
    rpt_duration(r->end.usec - r->start.usec, dur, sizeof dur);
    if (r->start.kind == AZ_TIME_BOOT) {
        snprintf(out, outsz, "+%llds \xe2\x86\x92 +%llds since boot (%s)",
                 (long long)(r->start.usec / 1000000), (long long)(r->end.usec / 1000000), dur);
        return;
    }
    struct civil a = civil_of(r->start), b = civil_of(r->end);
    char date[24];
    if (r->start.kind == AZ_TIME_NOYEAR)
        snprintf(date, sizeof date, "%02u-%02u", a.month, a.day);
    else
        snprintf(date, sizeof date, "%04lld-%02u-%02u", (long long)a.year, a.month, a.day);
    if (same_day(r->start, r->end))
        snprintf(out, outsz, "%s %02u:%02u \xe2\x86\x92 %02u:%02u (%s)", date, a.hour, a.min,
                 b.hour, b.min, dur);
    else
        snprintf(out, outsz, "%s %02u:%02u \xe2\x86\x92 %02u-%02u %02u:%02u (%s)", date, a.hour,
                 a.min, b.month, b.day, b.hour, b.min, dur);
}

/* "GB10 or ACME X1": the names of the pack's platforms (the run's own without a pack). */
static void platform_names(struct az_buf *b, const struct rpt *c)
{
    size_t n = match_pack_platform_count(c->pack);
    for (size_t i = 0; i < n; i++)
        az_buf_printf(b, "%s%s", i ? " or " : "", match_pack_platform(c->pack, i)->name);
    if (!n) az_buf_puts(b, c->r->context.on ? c->r->context.on->name : "declared platform");
}

char *rpt_context_text(const struct rpt *c)
{
    const struct corr_context *x = &c->r->context;
    struct az_buf b = AZ_BUF_INIT;
    const char *sep = "";
    /* a platform the user set is said as such, whatever the inputs show */
    int forced = x->platform_from && x->platform_from[0] && strcmp(x->platform_from, "inputs");
    if (forced) {
        if (x->on)
            az_buf_puts(&b, x->on->name);
        else {
            az_buf_puts(&b, "not a ");
            platform_names(&b, c);
        }
        az_buf_printf(&b, " (%s)", x->platform_from);
        sep = ", ";
    } else if (x->on) {
        az_buf_puts(&b, x->on->name);
        sep = ", ";
    } else if (x->gpu_name && x->gpu_name[0]) {
        az_buf_puts(&b, x->gpu_name);
        sep = ", ";
    }
    if (x->arch && x->arch[0]) {
        az_buf_printf(&b, "%s%s", sep, x->arch);
        sep = ", ";
    }
    int drv = x->cuda_driver && x->cuda_driver[0], tor = x->cuda_torch && x->cuda_torch[0];
    if (drv && tor && strcmp(x->cuda_driver, x->cuda_torch) != 0)
        az_buf_printf(&b, "%sCUDA %s (torch %s)", sep, x->cuda_driver, x->cuda_torch);
    else if (drv || tor)
        az_buf_printf(&b, "%sCUDA %s", sep, drv ? x->cuda_driver : x->cuda_torch);
    if (drv || tor) sep = ", ";
    if (x->in_container == 1)
        az_buf_printf(&b, "%scontainer", sep);
    else if (x->in_container == 0)
        az_buf_printf(&b, "%sbare host", sep);
    return az_buf_steal(&b);
}

/* ---- result helpers ---- */

const char *rpt_tool_version(const struct rpt *c)
{
    return c->o->tool_version && c->o->tool_version[0] ? c->o->tool_version : GOTCHA_VERSION;
}

const char *rpt_entry_id(const struct match_entry *e)
{
    return e && e->id ? e->id : "?";
}
const char *rpt_entry_title(const struct match_entry *e)
{
    return e && e->title ? e->title : "";
}
const char *rpt_entry_fix(const struct match_entry *e)
{
    return e && e->fix ? e->fix : "";
}

const struct match_code *rpt_first_error_code(const struct corr_result *r)
{
    return r->first_error && r->first_error->sig ? r->first_error->sig->code : NULL;
}

const char *rpt_first_error_title(const struct corr_result *r)
{
    const struct match_code *c = rpt_first_error_code(r);
    if (c) return r->first_error->sig->summary; /* "Xid 79: GPU has fallen off the bus" */
    /* a code the catalogue does not list: "Xid 999: not in the catalogue" (its evidence note) */
    if (r->first_error && r->first_error->sig && r->first_error->sig->shape_of &&
        r->first_error->note && r->first_error->note[0])
        return r->first_error->note;
    return rpt_entry_title(r->first_error_entry);
}

const char *rpt_first_error_fix(const struct corr_result *r)
{
    const struct match_code *c = rpt_first_error_code(r);
    if (c && c->action_text[0]) return c->action_text;
    return rpt_entry_fix(r->first_error_entry);
}

const struct corr_code_seen *rpt_code_seen(const struct corr_result *r,
                                           const struct match_code *code)
{
    for (size_t i = 0; code && i < r->ncodes; i++)
        if (r->codes[i].code == code) return &r->codes[i];
    return NULL;
}

void rpt_codes_text(const struct corr_result *r, struct az_buf *out)
{
    if (r->ncodes == 0 || (r->ncodes == 1 && r->codes[0].count < 2)) return;
    for (size_t i = 0; i < r->ncodes; i++) {
        const struct corr_code_seen *s = &r->codes[i];
        char n[32], a[48], b[48];
        rpt_thousands(s->count, n, sizeof n);
        rpt_time_short(r, s->first, 0, a, sizeof a);
        rpt_time_short(r, s->last, 0, b, sizeof b);
        az_buf_printf(out, "%s%s %ld \xc3\x97%s", i ? ", " : "", s->code->cat->label, s->code->code,
                      n);
        if (a[0] && b[0] && s->count > 1 && strcmp(a, b) != 0)
            az_buf_printf(out, " (%s \xe2\x86\x92 %s)", a, b);
        else if (a[0])
            az_buf_printf(out, " (%s)", a);
    }
}

const char *rpt_verdict_id(const struct corr_result *r)
{
    return r->verdict ? rpt_entry_id(r->verdict) : "none";
}

double rpt_round2(double x)
{
    if (!(x > 0)) return 0; /* NaN and negatives */
    if (x > 1) x = 1;
    return round(x * 100.0) / 100.0;
}

const struct corr_finding *rpt_verdict_finding(const struct corr_result *r)
{
    if (!r->verdict) return NULL;
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].entry == r->verdict) return &r->findings[i];
    return NULL;
}

const char *rpt_outcome_why(const struct corr_result *r, char *buf, size_t bufsz)
{
    /* a run record's exit status decided it (correlate/outcome.c) */
    if (r->exit_recorded && r->exit_signal > 0)
        snprintf(buf, bufsz, "ended by signal %d, exit status %d at", r->exit_signal,
                 r->exit_status);
    else if (r->exit_recorded)
        snprintf(buf, bufsz, "exit status %d at", r->exit_status);
    if (r->exit_recorded) return buf;
    switch (r->outcome) {
    case CORR_OUTCOME_FAILED: return "first error at";
    case CORR_OUTCOME_COMPLETED: return "ended at";
    case CORR_OUTCOME_CUT_OFF: return "no error and no end marker; the log stops at";
    case CORR_OUTCOME_UNKNOWN: break;
    }
    return r->records ? "no job log among the inputs" : "nothing was read";
}

int rpt_warning_is_skip(const struct corr_result *r, size_t i)
{
    const char *w = r->warnings[i] ? r->warnings[i] : "";
    for (size_t k = 0; k < r->nskipped; k++) {
        const char *p = r->skipped[k].path ? r->skipped[k].path : "";
        const char *why = r->skipped[k].reason ? r->skipped[k].reason : "";
        size_t pl = strlen(p);
        if (strncmp(w, p, pl) == 0 && strncmp(w + pl, ": ", 2) == 0 && strcmp(w + pl + 2, why) == 0)
            return 1;
    }
    return 0;
}

static int event_supports_finding(const struct corr_result *r, const struct corr_event *e)
{
    if (!e->entry_id) return 0;
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].entry && r->findings[i].entry->id &&
            strcmp(r->findings[i].entry->id, e->entry_id) == 0)
            return 1;
    return 0;
}

size_t rpt_pick_events(const struct rpt *c, size_t *idx)
{
    const struct corr_result *r = c->r;
    size_t n = 0;
    if (c->o->verbose) {
        for (size_t i = 0; i < r->nevents; i++) idx[n++] = i;
        return n;
    }
    /* The first and last event frame the story; between them, events that back a finding,
     * earliest first, then fill with the rest in time order. Kept in time order. */
    char *take = az_xcalloc(r->nevents, 1);
    size_t budget = RPT_TOP_EVENTS;
    take[0] = take[r->nevents - 1] = 1;
    budget -= 2;
    for (size_t i = 1; i + 1 < r->nevents && budget; i++)
        if (event_supports_finding(r, &r->timeline[i])) {
            take[i] = 1;
            budget--;
        }
    /* then the run's own story (inputs starting and ending, errors); background facts (GPU name,
     * versions, hints of nothing found) only in the full timeline */
    for (size_t i = 1; i + 1 < r->nevents && budget; i++)
        if (!take[i] && !r->timeline[i].background) {
            take[i] = 1;
            budget--;
        }
    for (size_t i = 0; i < r->nevents; i++)
        if (take[i]) idx[n++] = i;
    free(take);
    return n;
}

const char *rpt_none_title(struct rpt *c)
{
    if (!c->pack) return RPT_NONE_TITLE;
    const char *first = NULL, *last = NULL;
    const char *site[3];
    size_t nsite = 0, more = 0;
    for (size_t i = 0; i < match_pack_entry_count(c->pack); i++) {
        const struct match_entry *e = match_pack_entry(c->pack, i);
        if (e->family != MATCH_FAMILY_GOTCHA) continue;
        if (e->id[0] == 'G' && e->id[1] >= '1' && e->id[1] <= '9' && !strchr(e->id, '.')) {
            if (!first) first = e->id;
            last = e->id;
        } else if (nsite < AZ_ARRAY_LEN(site)) {
            site[nsite++] = e->id;
        } else {
            more++;
        }
    }
    struct az_buf b = AZ_BUF_INIT;
    az_buf_puts(&b, "No known gotcha (none of ");
    if (first) az_buf_printf(&b, first == last ? "%s" : "%s\xe2\x80\x93%s", first, last);
    for (size_t i = 0; i < nsite; i++) az_buf_printf(&b, "%s%s", first || i ? ", " : "", site[i]);
    if (more) az_buf_printf(&b, " and %zu more", more);
    if (!first && !nsite) az_buf_puts(&b, "the pack's gotchas");
    az_buf_putc(&b, ')');
    snprintf(c->none_title, sizeof c->none_title, "%s", b.data);
    az_buf_free(&b);
    return c->none_title;
}

/* A path component starts at 0 or after '/' or ':' (an archive member: "run.tar.zst:job/x"). */
static int component_start(const char *p, size_t off)
{
    return off == 0 || p[off - 1] == '/' || p[off - 1] == ':';
}

/* 1 when q ends with suffix, which starts a component of q. */
static int ends_with_component(const char *q, const char *suffix)
{
    size_t lq = strlen(q), ls = strlen(suffix);
    return lq >= ls && strcmp(q + lq - ls, suffix) == 0 && component_start(q, lq - ls);
}

size_t rpt_unique_suffix(const char *const *paths, size_t n, size_t i)
{
    const char *p = paths[i] ? paths[i] : "";
    size_t len = strlen(p);
    /* candidate starts from the last component back to the whole path; a trailing separator
     * is never the start of a component name */
    for (size_t off = len; off-- > 0;) {
        if (!component_start(p, off) || off == len) continue;
        int unique = 1;
        for (size_t j = 0; j < n && unique; j++) {
            const char *q = paths[j] ? paths[j] : "";
            if (j != i && strcmp(q, p) != 0 && ends_with_component(q, p + off)) unique = 0;
        }
        if (unique) return off;
    }
    return 0;
}
