/*
 * report/text.c - the terminal report: verdict first, then its proof (path:line), the run's
 * story in time, and what else was weighed. Every string from the inputs, and every pack string
 * (packs can be user-supplied), goes through report_sanitize_terminal() before it is shown.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_private.h"

#define TEXT_WIDTH    88
#define TEXT_MAX_LOC  40 /* path:line column, compact view */
#define TEXT_MAX_PATH 32 /* timeline path column, compact view */
#define TEXT_MAX_NOTE 24 /* evidence note column, compact view */
#define TEXT_MIN_LINE 30 /* evidence text gets at least this much, compact view */

#define SGR_BOLD  "\x1b[1m"
#define SGR_DIM   "\x1b[2m"
#define SGR_RESET "\x1b[0m"

struct text {
    struct rpt *c;
    struct az_buf *out;
    struct az_buf s1, s2, s3; /* sanitized strings of one line */
    size_t strip;             /* bytes of the directory every input shares, named once in the
                                 header and left out of each path:line */
};

/* s sanitized into b (b reset first); input strings are redacted first when asked. */
static const char *clean(struct text *t, struct az_buf *b, const char *s, int input)
{
    size_t len;
    az_buf_reset(b);
    if (input) {
        s = rpt_input(t->c, s, &len);
    } else {
        if (!s) s = "";
        len = strlen(s);
    }
    report_sanitize_terminal(b, s, len);
    az_buf_ensure(b, 0);
    return b->data;
}

static void sgr(struct text *t, const char *code)
{
    if (t->c->o->color) az_buf_puts(t->out, code);
}

/* Append s padded with spaces to cols columns, or cut to cols with a "…" when longer and cut. */
static void put_col(struct text *t, const char *s, size_t cols, int cut, int pad)
{
    size_t len = strlen(s), w = rpt_columns(s, len);
    if (cut && w > cols && cols > 1) {
        az_buf_append(t->out, s, rpt_prefix_for_columns(s, len, cols - 1));
        az_buf_puts(t->out, "\xe2\x80\xa6");
        w = cols;
    } else {
        az_buf_append(t->out, s, len);
    }
    if (pad)
        for (; w < cols; w++) az_buf_putc(t->out, ' ');
}

/* As put_col(), but a long s keeps its end: for paths, whose file name and line matter most. */
static void put_col_tail(struct text *t, const char *s, size_t cols, int cut)
{
    size_t len = strlen(s), w = rpt_columns(s, len);
    if (cut && w > cols && cols > 1) {
        az_buf_puts(t->out, "\xe2\x80\xa6");
        az_buf_puts(t->out, s + rpt_prefix_for_columns(s, len, w - (cols - 1)));
        return;
    }
    az_buf_append(t->out, s, len);
    for (; w < cols; w++) az_buf_putc(t->out, ' ');
}

/* Word-wrap s to TEXT_WIDTH: the first line after `first` (already counted as used columns), the
 * others indented by indent. */
static void put_wrapped(struct text *t, const char *s, size_t used, size_t indent)
{
    size_t col = used;
    const char *p = s;
    int first_word = 1;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        const char *w = p;
        while (*p && *p != ' ') p++;
        size_t wl = (size_t)(p - w), wc = rpt_columns(w, wl);
        if (!first_word && col + 1 + wc > TEXT_WIDTH) {
            az_buf_putc(t->out, '\n');
            for (size_t i = 0; i < indent; i++) az_buf_putc(t->out, ' ');
            col = indent;
        } else if (!first_word) {
            az_buf_putc(t->out, ' ');
            col++;
        }
        az_buf_append(t->out, w, wl);
        col += wc;
        first_word = 0;
    }
    az_buf_putc(t->out, '\n');
}

/* "path:line" of an evidence record, sanitized, into b. */
/* The directory (ending in '/') that every input's path starts with; 0 when none. */
static size_t common_dir(const struct corr_result *r)
{
    if (r->ninputs == 0 || !r->inputs[0].path) return 0;
    const char *first = r->inputs[0].path;
    size_t n = strlen(first);
    for (size_t i = 1; i < r->ninputs; i++) {
        const char *p = r->inputs[i].path ? r->inputs[i].path : "";
        size_t k = 0;
        while (k < n && p[k] == first[k]) k++;
        n = k;
    }
    while (n > 0 && first[n - 1] != '/') n--;
    return n;
}

/* path without the shared directory (all paths shown come from the inputs) */
static const char *shown_path(const struct text *t, const char *path)
{
    if (!path || t->strip == 0 || strlen(path) <= t->strip) return path;
    return strncmp(path, t->c->r->inputs[0].path, t->strip) == 0 ? path + t->strip : path;
}

static const char *loc_of(struct text *t, struct az_buf *b, const char *path, uint64_t line)
{
    clean(t, b, shown_path(t, path), 1);
    if (line) az_buf_printf(b, ":%llu", (unsigned long long)line);
    return b->data;
}

/* Narrow room for the log text (long paths, notes): "path:line  time  note" on one line, the
 * text below it, indented, so it keeps most of the width. */
static void put_evidence_stacked(struct text *t, const struct corr_evidence *ev, size_t n,
                                 size_t indent, size_t locw, size_t timew)
{
    char tbuf[48];
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < indent; k++) az_buf_putc(t->out, ' ');
        put_col_tail(t, loc_of(t, &t->s1, ev[i].path, ev[i].line), locw, 1);
        az_buf_puts(t->out, "  ");
        rpt_time_short(t->c->r, ev[i].time, ev[i].time_approx, tbuf, sizeof tbuf);
        sgr(t, SGR_DIM);
        put_col(t, tbuf, timew, 0, 1);
        const char *note = clean(t, &t->s3, ev[i].note, 1);
        if (note[0]) {
            az_buf_puts(t->out, "  ");
            az_buf_puts(t->out, note);
        }
        sgr(t, SGR_RESET);
        az_buf_putc(t->out, '\n');
        for (size_t k = 0; k < indent + 2; k++) az_buf_putc(t->out, ' ');
        put_col(t, clean(t, &t->s2, ev[i].text, 1), TEXT_WIDTH - indent - 2, 1, 0);
        az_buf_putc(t->out, '\n');
    }
}

static void put_evidence_rows(struct text *t, const struct corr_evidence *ev, size_t n,
                              size_t indent)
{
    int verbose = t->c->o->verbose;
    size_t locw = 0, timew = 0, textw = 0, notew = 0;
    char tbuf[48];
    for (size_t i = 0; i < n; i++) {
        loc_of(t, &t->s1, ev[i].path, ev[i].line);
        locw = AZ_MAX(locw, rpt_columns(t->s1.data, t->s1.len));
        rpt_time_short(t->c->r, ev[i].time, ev[i].time_approx, tbuf, sizeof tbuf);
        timew = AZ_MAX(timew, strlen(tbuf));
        clean(t, &t->s2, ev[i].text, 1);
        textw = AZ_MAX(textw, rpt_columns(t->s2.data, t->s2.len));
        clean(t, &t->s3, ev[i].note, 1);
        notew = AZ_MAX(notew, rpt_columns(t->s3.data, t->s3.len));
    }
    if (!verbose) {
        /* one screen wide: the log text gets what path, time and note leave */
        locw = AZ_MIN(locw, TEXT_MAX_LOC);
        notew = AZ_MIN(notew, TEXT_MAX_NOTE);
        size_t used = indent + locw + 2 + timew + 2 + (notew ? notew + 2 : 0);
        if (used + TEXT_MIN_LINE > TEXT_WIDTH && textw > TEXT_WIDTH - AZ_MIN(used, TEXT_WIDTH)) {
            put_evidence_stacked(t, ev, n, indent, locw, timew);
            return;
        }
        textw = AZ_MIN(textw, TEXT_WIDTH - used);
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < indent; k++) az_buf_putc(t->out, ' ');
        put_col_tail(t, loc_of(t, &t->s1, ev[i].path, ev[i].line), locw, !verbose);
        az_buf_puts(t->out, "  ");
        rpt_time_short(t->c->r, ev[i].time, ev[i].time_approx, tbuf, sizeof tbuf);
        sgr(t, SGR_DIM);
        put_col(t, tbuf, timew, 0, 1);
        sgr(t, SGR_RESET);
        az_buf_puts(t->out, "  ");
        const char *note = clean(t, &t->s3, ev[i].note, 1);
        put_col(t, clean(t, &t->s2, ev[i].text, 1), textw, !verbose, note[0] != '\0');
        if (note[0]) {
            az_buf_puts(t->out, "  ");
            sgr(t, SGR_DIM);
            put_col(t, note, notew, !verbose, 0);
            sgr(t, SGR_RESET);
        }
        az_buf_putc(t->out, '\n');
    }
}

static void put_header(struct text *t)
{
    const struct corr_result *r = t->c->r;
    char num[40], span[160];
    sgr(t, SGR_DIM);
    az_buf_printf(t->out, "%s %s", RPT_TOOL_NAME, clean(t, &t->s1, rpt_tool_version(t->c), 0));
    az_buf_printf(t->out, " \xc2\xb7 %zu input%s", r->ninputs, r->ninputs == 1 ? "" : "s");
    if (t->strip) {
        az_buf_reset(&t->s2);
        az_buf_append(&t->s2, r->inputs[0].path, t->strip);
        az_buf_printf(t->out, " in %s", clean(t, &t->s1, t->s2.data, 1));
    }
    rpt_thousands(r->records, num, sizeof num);
    az_buf_printf(t->out, " \xc2\xb7 %s record%s", num, r->records == 1 ? "" : "s");
    rpt_span_text(r, span, sizeof span);
    if (span[0]) az_buf_printf(t->out, " \xc2\xb7 %s", span);
    char *ctx = rpt_context_text(t->c);
    if (ctx[0]) az_buf_printf(t->out, " \xc2\xb7 %s", clean(t, &t->s1, ctx, 1));
    free(ctx);
    sgr(t, SGR_RESET);
    az_buf_putc(t->out, '\n');
    /* how the run ended, whatever the verdict says: "outcome: failed (first error at ...)" */
    const struct corr_result *res = t->c->r;
    if (res->outcome == CORR_OUTCOME_FAILED) sgr(t, SGR_BOLD);
    char why[RPT_OUTCOME_WHY_MAX];
    az_buf_printf(t->out, "outcome: %s (%s", corr_outcome_name(res->outcome),
                  rpt_outcome_why(res, why, sizeof why));
    if (res->outcome_at)
        az_buf_printf(t->out, " %s",
                      loc_of(t, &t->s1, res->outcome_at->path, res->outcome_at->line));
    az_buf_puts(t->out, ")");
    if (res->outcome == CORR_OUTCOME_FAILED) sgr(t, SGR_RESET);
    az_buf_puts(t->out, "\n\n");
}

/* "G4  Thermal throttling .... confidence 0.91" */
static void put_title_line(struct text *t, const char *id, const char *title, double conf)
{
    char right[32] = "";
    if (conf >= 0) snprintf(right, sizeof right, "confidence %.2f", rpt_round2(conf));
    struct az_buf left = AZ_BUF_INIT;
    if (id) az_buf_printf(&left, "%-3s ", clean(t, &t->s1, id, 0));
    az_buf_puts(&left, clean(t, &t->s2, title, 0));
    size_t lw = rpt_columns(left.data, left.len), rw = strlen(right);
    sgr(t, SGR_BOLD);
    az_buf_append(t->out, left.data, left.len);
    sgr(t, SGR_RESET);
    if (rw) {
        size_t pad = lw + 2 + rw < TEXT_WIDTH ? TEXT_WIDTH - lw - rw : 2;
        for (size_t i = 0; i < pad; i++) az_buf_putc(t->out, ' ');
        az_buf_puts(t->out, right);
    }
    az_buf_putc(t->out, '\n');
    az_buf_free(&left);
}

static void put_verdict(struct text *t)
{
    const struct corr_result *r = t->c->r;
    const struct corr_finding *f = rpt_verdict_finding(r);
    put_title_line(t, rpt_entry_id(r->verdict), rpt_entry_title(r->verdict), r->confidence);
    if (f && f->summary && f->summary[0]) {
        az_buf_puts(t->out, "    ");
        put_wrapped(t, clean(t, &t->s1, f->summary, 1), 4, 4);
    }
    const char *fix = rpt_entry_fix(r->verdict);
    if (fix[0]) {
        az_buf_puts(t->out, "    Fix: ");
        put_wrapped(t, clean(t, &t->s1, fix, 0), 9, 9);
    }
    sgr(t, SGR_DIM);
    az_buf_printf(t->out, "    More: gotcha explain %s", clean(t, &t->s1, rpt_verdict_id(r), 0));
    sgr(t, SGR_RESET);
    az_buf_putc(t->out, '\n');
    if (f && f->nevidence) {
        size_t n = t->c->o->verbose ? f->nevidence : AZ_MIN(f->nevidence, RPT_TOP_EVIDENCE);
        az_buf_puts(t->out, "\n  evidence\n");
        put_evidence_rows(t, f->evidence, n, 4);
        if (n < f->nevidence)
            az_buf_printf(t->out, "    \xe2\x80\xa6 %zu more (--verbose shows all)\n",
                          f->nevidence - n);
    }
}

/* "possible: G7 if this machine is a GB10 (capability 12.1) — `nvidia-smi ...` (vllm.log:12)",
 * one line each (a command is copied whole, never wrapped). */
static void put_possible(struct text *t)
{
    const struct corr_result *r = t->c->r;
    for (size_t i = 0; i < r->npossible; i++) {
        const struct corr_possible *p = &r->possible[i];
        az_buf_printf(t->out, "    possible: %s if ", clean(t, &t->s1, rpt_entry_id(p->entry), 0));
        az_buf_printf(t->out, "%s \xe2\x80\x94 `", clean(t, &t->s1, p->fact, 0));
        az_buf_printf(t->out, "%s` (", clean(t, &t->s1, p->command, 0));
        az_buf_printf(t->out, "%s)\n", loc_of(t, &t->s1, p->seen.path, p->seen.line));
    }
}

static void put_none_error(struct text *t);

static void put_none(struct text *t)
{
    put_none_error(t);
    put_possible(t);
}

static void put_none_error(struct text *t)
{
    const struct corr_result *r = t->c->r;
    put_title_line(t, NULL, rpt_none_title(t->c), -1);
    if (!r->first_error) {
        az_buf_puts(t->out, "    No error record was found in the inputs.\n");
        return;
    }
    const char *title = rpt_first_error_title(r);
    az_buf_puts(t->out, "    First error: ");
    put_wrapped(t, title[0] ? clean(t, &t->s1, title, 0) : "(unclassified)", 17, 17);
    put_evidence_rows(t, r->first_error, 1, 4);
    const char *fix = rpt_first_error_fix(r);
    if (fix[0]) {
        az_buf_puts(t->out, "    Fix: ");
        put_wrapped(t, clean(t, &t->s1, fix, 0), 9, 9);
    }
    struct az_buf codes = AZ_BUF_INIT;
    rpt_codes_text(r, &codes);
    if (codes.len) {
        az_buf_puts(t->out, "    Seen: ");
        put_wrapped(t, clean(t, &t->s1, codes.data, 0), 10, 10);
    }
    az_buf_free(&codes);
    const struct match_code *code = rpt_first_error_code(r);
    if (code) {
        sgr(t, SGR_DIM);
        az_buf_printf(t->out, "    More: gotcha explain %s:%ld\n",
                      clean(t, &t->s1, code->cat->id, 0), code->code);
        sgr(t, SGR_RESET);
    } else if (r->first_error_entry) {
        sgr(t, SGR_DIM);
        az_buf_printf(t->out, "    More: gotcha explain %s\n",
                      clean(t, &t->s1, rpt_entry_id(r->first_error_entry), 0));
        sgr(t, SGR_RESET);
    }
}

static void put_timeline(struct text *t)
{
    const struct corr_result *r = t->c->r;
    if (!r->nevents) return;
    int verbose = t->c->o->verbose;
    size_t *idx = az_xmalloc(r->nevents * sizeof *idx);
    size_t n = rpt_pick_events(t->c, idx), timew = 0, pathw = 0;
    char tbuf[48];
    for (size_t k = 0; k < n; k++) {
        const struct corr_event *e = &r->timeline[idx[k]];
        rpt_time_short(r, e->time, e->time_approx, tbuf, sizeof tbuf);
        timew = AZ_MAX(timew, strlen(tbuf));
        clean(t, &t->s1, shown_path(t, e->path), 1);
        size_t w = rpt_columns(t->s1.data, t->s1.len);
        if (e->lane && e->lane[0]) {
            /* clean() first: its result's length is read after, not in the same call */
            const char *lane = clean(t, &t->s2, e->lane, 1);
            w += 3 + rpt_columns(lane, t->s2.len); /* " [lane]" */
        }
        pathw = AZ_MAX(pathw, w);
    }
    if (!verbose) pathw = AZ_MIN(pathw, TEXT_MAX_PATH);
    az_buf_puts(t->out, "\n  timeline\n");
    struct az_buf where = AZ_BUF_INIT;
    for (size_t k = 0; k < n; k++) {
        const struct corr_event *e = &r->timeline[idx[k]];
        rpt_time_short(r, e->time, e->time_approx, tbuf, sizeof tbuf);
        az_buf_puts(t->out, "    ");
        sgr(t, SGR_DIM);
        put_col(t, tbuf, timew, 0, 1);
        sgr(t, SGR_RESET);
        az_buf_puts(t->out, "  ");
        az_buf_reset(&where);
        az_buf_puts(&where, clean(t, &t->s1, shown_path(t, e->path), 1));
        if (e->lane && e->lane[0]) az_buf_printf(&where, " [%s]", clean(t, &t->s1, e->lane, 1));
        put_col_tail(t, where.data, pathw, !verbose);
        az_buf_puts(t->out, "  ");
        az_buf_puts(t->out, clean(t, &t->s1, e->label, 1));
        az_buf_putc(t->out, '\n');
    }
    if (n < r->nevents)
        az_buf_printf(t->out, "    \xe2\x80\xa6 %zu more event%s (--verbose shows all)\n",
                      r->nevents - n, r->nevents - n == 1 ? "" : "s");
    az_buf_free(&where);
    free(idx);
}

static void put_weighed(struct text *t)
{
    const struct corr_result *r = t->c->r;
    size_t others = 0;
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].entry != r->verdict) others++;
    if (!others && !r->nruled_out) return;
    az_buf_puts(t->out, "\n  also weighed\n");
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct corr_finding *f = &r->findings[i];
        if (f->entry == r->verdict) continue;
        az_buf_printf(t->out, "    %-3s %.2f  ", clean(t, &t->s1, rpt_entry_id(f->entry), 0),
                      rpt_round2(f->confidence));
        const char *what = f->summary && f->summary[0]
                               ? clean(t, &t->s1, f->summary, 1)
                               : clean(t, &t->s1, rpt_entry_title(f->entry), 0);
        put_wrapped(t, what, 14, 14);
    }
    if (r->nruled_out) {
        struct az_buf line = AZ_BUF_INIT;
        for (size_t i = 0; i < r->nruled_out; i++) {
            const struct corr_ruled_out *ro = &r->ruled_out[i];
            if (i) az_buf_puts(&line, " \xc2\xb7 ");
            az_buf_printf(&line, "%s %s", clean(t, &t->s1, rpt_entry_id(ro->entry), 0),
                          clean(t, &t->s2, ro->reason, 1));
        }
        az_buf_puts(t->out, "    ruled out  ");
        put_wrapped(t, line.data, 15, 15);
        az_buf_free(&line);
    }
}

static void put_problems(struct text *t)
{
    const struct corr_result *r = t->c->r;
    size_t cap = t->c->o->verbose ? SIZE_MAX : 3;
    if (r->nskipped) {
        az_buf_printf(t->out, "\n  skipped %zu input%s\n", r->nskipped,
                      r->nskipped == 1 ? "" : "s");
        for (size_t i = 0; i < r->nskipped && i < cap; i++) {
            az_buf_printf(t->out, "    %s: ", clean(t, &t->s1, r->skipped[i].path, 1));
            az_buf_printf(t->out, "%s\n", clean(t, &t->s1, r->skipped[i].reason, 1));
        }
        if (r->nskipped > cap)
            az_buf_printf(t->out, "    \xe2\x80\xa6 %zu more\n", r->nskipped - cap);
    }
    size_t nwarn = 0, shown = 0;
    for (size_t i = 0; i < r->nwarnings; i++) nwarn += !rpt_warning_is_skip(r, i);
    if (nwarn) {
        az_buf_printf(t->out, "\n  %zu warning%s\n", nwarn, nwarn == 1 ? "" : "s");
        for (size_t i = 0; i < r->nwarnings && shown < cap; i++) {
            if (rpt_warning_is_skip(r, i)) continue;
            az_buf_printf(t->out, "    %s\n", clean(t, &t->s1, r->warnings[i], 1));
            shown++;
        }
        if (nwarn > shown) az_buf_printf(t->out, "    \xe2\x80\xa6 %zu more\n", nwarn - shown);
    }
}

void rpt_write_text(struct rpt *c)
{
    struct text t = {c, &c->out, AZ_BUF_INIT, AZ_BUF_INIT, AZ_BUF_INIT, common_dir(c->r)};
    put_header(&t);
    if (c->r->verdict)
        put_verdict(&t);
    else
        put_none(&t);
    put_timeline(&t);
    put_weighed(&t);
    put_problems(&t);
    az_buf_free(&t.s1);
    az_buf_free(&t.s2);
    az_buf_free(&t.s3);
}
