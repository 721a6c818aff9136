/*
 * report/json.c - the machine report, schema gotcha.report/1 (docs/report.schema.json).
 * Keys are written in a fixed order and reals with a fixed precision so the same result always
 * gives the same bytes. JSON is for programs: it is always complete, whatever --verbose says
 * (except series points, which only verbose includes).
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_private.h"

/* Reals print with up to 10 significant digits: confidences are rounded to 2 decimals before,
 * so 0.91 prints as 0.91, not 0.91000000000000003. */
#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

struct jctx {
    struct rpt *c;
    struct az_buf tmp;
};

static json_t *jstr_raw(struct jctx *j, const char *s, size_t len)
{
    az_buf_reset(&j->tmp);
    rpt_utf8_clean(&j->tmp, s, len);
    az_buf_ensure(&j->tmp, 0);
    return json_stringn(j->tmp.data, j->tmp.len);
}

/* A string from the inputs: redacted when asked, made valid UTF-8. */
static json_t *jin(struct jctx *j, const char *s)
{
    size_t len;
    const char *p = rpt_input(j->c, s, &len);
    return jstr_raw(j, p, len);
}

/* A string from the pack or from gotcha itself. */
static json_t *jpk(struct jctx *j, const char *s)
{
    if (!s) s = "";
    return jstr_raw(j, s, strlen(s));
}

/* An input string that may be absent: "" becomes null. */
static json_t *jin_opt(struct jctx *j, const char *s)
{
    return s && s[0] ? jin(j, s) : json_null();
}

static json_t *jtime(struct az_time t)
{
    char buf[48];
    rpt_time_iso(t, buf, sizeof buf);
    return buf[0] ? json_string(buf) : json_null();
}

static json_t *jreal(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *jconf(double x)
{
    return json_real(rpt_round2(x));
}

static json_t *juint(uint64_t v)
{
    return json_integer(v > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)v);
}

static json_t *jtristate(int v)
{
    return v == 1 ? json_true() : v == 0 ? json_false() : json_null();
}

static void set(json_t *o, const char *key, json_t *v)
{
    json_object_set_new(o, key, v ? v : json_null());
}

static json_t *evidence_obj(struct jctx *j, const struct corr_evidence *e)
{
    json_t *o = json_object();
    set(o, "path", jin(j, e->path));
    set(o, "line", juint(e->line));
    set(o, "time", jtime(e->time));
    set(o, "approx", json_boolean(e->time_approx));
    set(o, "lane", jin(j, e->lane));
    set(o, "text", jin(j, e->text));
    set(o, "signature", e->sig && e->sig->id ? jpk(j, e->sig->id) : json_null());
    set(o, "note", jin(j, e->note));
    return o;
}

/* The record that decided the outcome: where it is and what it says. */
static json_t *outcome_at_obj(struct jctx *j, const struct corr_evidence *e)
{
    json_t *o = json_object();
    set(o, "path", jin(j, e->path));
    set(o, "line", juint(e->line));
    set(o, "time", jtime(e->time));
    set(o, "text", jin(j, e->text));
    if (j->c->r->exit_recorded) set(o, "exit_status", json_integer(j->c->r->exit_status));
    return o;
}

static json_t *verdict_obj(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    const struct corr_finding *f = rpt_verdict_finding(r);
    json_t *o = json_object();
    set(o, "id", jpk(j, rpt_verdict_id(r)));
    set(o, "title", jpk(j, r->verdict ? rpt_entry_title(r->verdict) : rpt_none_title(j->c)));
    set(o, "confidence", jconf(r->confidence));
    set(o, "summary", f && f->summary && f->summary[0] ? jin(j, f->summary) : json_null());
    const char *fix = r->verdict ? rpt_entry_fix(r->verdict) : rpt_first_error_fix(r);
    set(o, "fix", fix[0] ? jpk(j, fix) : json_null());
    return o;
}

static json_t *findings_arr(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    json_t *a = json_array();
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct corr_finding *f = &r->findings[i];
        json_t *o = json_object();
        set(o, "id", jpk(j, rpt_entry_id(f->entry)));
        set(o, "title", jpk(j, rpt_entry_title(f->entry)));
        set(o, "confidence", jconf(f->confidence));
        set(o, "summary", jin(j, f->summary));
        set(o, "fix", jpk(j, rpt_entry_fix(f->entry)));
        json_t *ev = json_array();
        for (size_t k = 0; k < f->nevidence; k++)
            json_array_append_new(ev, evidence_obj(j, &f->evidence[k]));
        set(o, "evidence", ev);
        json_array_append_new(a, o);
    }
    return a;
}

/* What a run with no verdict leaves open: the line seen, the fact that would decide it and the
 * command that shows it (empty beside a verdict). */
static json_t *possible_arr(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    json_t *a = json_array();
    for (size_t i = 0; i < r->npossible; i++) {
        const struct corr_possible *p = &r->possible[i];
        json_t *o = json_object(), *seen = json_object();
        set(o, "id", jpk(j, rpt_entry_id(p->entry)));
        set(seen, "path", jin(j, p->seen.path));
        set(seen, "line", juint(p->seen.line));
        set(seen, "text", jin(j, p->seen.text));
        set(o, "seen", seen);
        set(o, "fact", jpk(j, p->fact));
        set(o, "command", jpk(j, p->command));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *first_error_obj(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    if (!r->first_error) return json_null();
    const struct corr_evidence *e = r->first_error;
    const struct match_entry *en = r->first_error_entry;
    json_t *o = json_object();
    set(o, "id", en ? jpk(j, rpt_entry_id(en)) : json_null());
    set(o, "title", en ? jpk(j, rpt_first_error_title(r)) : json_null());
    set(o, "path", jin(j, e->path));
    set(o, "line", juint(e->line));
    set(o, "time", jtime(e->time));
    set(o, "text", jin(j, e->text));
    const char *fix = rpt_first_error_fix(r);
    set(o, "fix", en && fix[0] ? jpk(j, fix) : json_null());
    /* a catalogue fault code: which, how bad (the line's word where it says), what to do */
    const struct match_code *c = rpt_first_error_code(r);
    const struct corr_code_seen *seen = rpt_code_seen(r, c);
    set(o, "catalogue", c ? jpk(j, c->cat->id) : json_null());
    set(o, "code", c ? json_integer(c->code) : json_null());
    set(o, "severity", c ? jpk(j, e->sig->severity) : json_null());
    set(o, "action", c ? jpk(j, c->action) : json_null());
    set(o, "count", seen ? juint(seen->count) : json_null());
    set(o, "last_time", seen ? jtime(seen->last) : json_null());
    return o;
}

static json_t *fault_codes_arr(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    json_t *a = json_array();
    for (size_t i = 0; i < r->ncodes; i++) {
        const struct corr_code_seen *s = &r->codes[i];
        json_t *o = json_object();
        set(o, "catalogue", jpk(j, s->code->cat->id));
        set(o, "code", json_integer(s->code->code));
        set(o, "name", jpk(j, s->code->name));
        set(o, "severity", jpk(j, s->code->severity));
        set(o, "action", jpk(j, s->code->action));
        set(o, "count", juint(s->count));
        set(o, "first_time", jtime(s->first));
        set(o, "last_time", jtime(s->last));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *timeline_arr(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    json_t *a = json_array();
    for (size_t i = 0; i < r->nevents; i++) {
        const struct corr_event *e = &r->timeline[i];
        json_t *o = json_object();
        set(o, "time", jtime(e->time));
        set(o, "approx", json_boolean(e->time_approx));
        set(o, "path", jin(j, e->path));
        set(o, "line", juint(e->line));
        set(o, "lane", jin(j, e->lane));
        set(o, "label", jin(j, e->label));
        set(o, "finding", e->entry_id ? jpk(j, e->entry_id) : json_null());
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *ruled_out_arr(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    json_t *a = json_array();
    for (size_t i = 0; i < r->nruled_out; i++) {
        json_t *o = json_object();
        set(o, "id", jpk(j, rpt_entry_id(r->ruled_out[i].entry)));
        set(o, "reason", jin(j, r->ruled_out[i].reason));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *series_arr(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    json_t *a = json_array();
    for (size_t i = 0; i < r->nseries; i++) {
        const struct corr_series *s = &r->series[i];
        double lo = NAN, hi = NAN;
        for (size_t k = 0; k < s->npoints; k++) {
            double v = s->points[k].v;
            if (!isfinite(v)) continue;
            if (!(lo <= v)) lo = v;
            if (!(hi >= v)) hi = v;
        }
        json_t *o = json_object();
        set(o, "name", jin(j, s->name));
        set(o, "unit", jin(j, s->unit));
        set(o, "path", jin(j, s->path));
        set(o, "lane", jin(j, s->lane));
        set(o, "npoints", juint(s->npoints));
        set(o, "min", jreal(lo));
        set(o, "max", jreal(hi));
        set(o, "t_first", s->npoints ? jreal(s->points[0].t) : json_null());
        set(o, "t_last", s->npoints ? jreal(s->points[s->npoints - 1].t) : json_null());
        if (isfinite(s->mark_t)) {
            json_t *m = json_object();
            set(m, "t", json_real(s->mark_t));
            set(m, "label", jin(j, s->mark_label));
            set(o, "mark", m);
        } else {
            set(o, "mark", json_null());
        }
        if (j->c->o->verbose) {
            json_t *pts = json_array();
            for (size_t k = 0; k < s->npoints; k++) {
                if (!isfinite(s->points[k].t) || !isfinite(s->points[k].v)) continue;
                json_t *pt = json_array();
                json_array_append_new(pt, json_real(s->points[k].t));
                json_array_append_new(pt, json_real(s->points[k].v));
                json_array_append_new(pts, pt);
            }
            set(o, "points", pts);
        }
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *inputs_arr(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    json_t *a = json_array();
    for (size_t i = 0; i < r->ninputs; i++) {
        const struct corr_input *in = &r->inputs[i];
        json_t *o = json_object();
        set(o, "path", jin(j, in->path));
        set(o, "kind", jpk(j, in->kind));
        set(o, "bytes", juint(in->bytes));
        set(o, "records", juint(in->records));
        set(o, "compression",
            jpk(j, in->compression && in->compression[0] ? in->compression : "none"));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *skipped_arr(struct jctx *j)
{
    const struct corr_result *r = j->c->r;
    json_t *a = json_array();
    for (size_t i = 0; i < r->nskipped; i++) {
        json_t *o = json_object();
        set(o, "path", jin(j, r->skipped[i].path));
        set(o, "reason", jin(j, r->skipped[i].reason));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *context_obj(struct jctx *j)
{
    const struct corr_context *x = &j->c->r->context;
    json_t *o = json_object();
    /* per declared platform, by its id: true when on it, false when placed elsewhere, null
     * when unplaced */
    size_t np = match_pack_platform_count(j->c->pack);
    for (size_t i = 0; i < np || (!np && x->on && !i); i++) {
        const struct match_platform *pl = np ? match_pack_platform(j->c->pack, i) : x->on;
        set(o, pl->id, jtristate(x->placed < 0 ? -1 : x->on == pl));
    }
    set(o, "gpu", jin_opt(j, x->gpu_name));
    set(o, "arch", jin_opt(j, x->arch));
    set(o, "cuda_driver", jin_opt(j, x->cuda_driver));
    set(o, "cuda_torch", jin_opt(j, x->cuda_torch));
    set(o, "container", jtristate(x->in_container));
    set(o, "platform", json_string(x->platform ? x->platform : "unknown"));
    set(o, "platform_from", json_string(x->platform_from ? x->platform_from : ""));
    return o;
}

void rpt_write_json(struct rpt *c)
{
    const struct corr_result *r = c->r;
    struct jctx j = {c, AZ_BUF_INIT};
    json_t *root = json_object();
    set(root, "schema", json_string(RPT_SCHEMA));
    json_t *tool = json_object();
    set(tool, "name", json_string(RPT_TOOL_NAME));
    set(tool, "version", jpk(&j, rpt_tool_version(c)));
    set(root, "tool", tool);
    set(root, "outcome", json_string(corr_outcome_name(r->outcome)));
    set(root, "outcome_at", r->outcome_at ? outcome_at_obj(&j, r->outcome_at) : json_null());
    set(root, "verdict", verdict_obj(&j));
    set(root, "findings", findings_arr(&j));
    set(root, "possible", possible_arr(&j));
    set(root, "first_error", first_error_obj(&j));
    set(root, "fault_codes", fault_codes_arr(&j));
    set(root, "timeline", timeline_arr(&j));
    set(root, "ruled_out", ruled_out_arr(&j));
    set(root, "series", series_arr(&j));
    set(root, "inputs", inputs_arr(&j));
    set(root, "skipped", skipped_arr(&j));
    json_t *warn = json_array();
    for (size_t i = 0; i < r->nwarnings; i++) json_array_append_new(warn, jin(&j, r->warnings[i]));
    set(root, "warnings", warn);
    set(root, "context", context_obj(&j));
    json_t *span = json_object();
    set(span, "start", jtime(r->start));
    set(span, "end", jtime(r->end));
    set(root, "span", span);
    set(root, "records", juint(r->records));
    set(root, "bytes", juint(r->bytes));
    set(root, "redacted", json_boolean(c->o->redact));
    char *text = json_dumps(root, JSON_FLAGS);
    if (text) {
        az_buf_puts(&c->out, text);
        az_buf_putc(&c->out, '\n');
        free(text);
    } else {
        c->failed = 1;
    }
    json_decref(root);
    az_buf_free(&j.tmp);
}
