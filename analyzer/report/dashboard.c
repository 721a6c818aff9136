/*
 * report/dashboard.c - the batch dashboard (report.h, "the batch dashboard"): one self-contained
 * HTML page over the rows of `gotcha batch`, with the runs per week drawn as inline SVG. Like
 * scan's page (html.c, whose head, style sheet and text helpers it shares) it runs no script,
 * loads nothing, and is read without JavaScript: sorting is the tables' own order, anchors
 * (#run-N) reach each run, links reach each run's report when batch wrote them.
 *
 * Every string taken from the runs is redacted (when asked) with that run's host names,
 * sanitized and HTML-escaped, and cut to a width: a row of the run table is bounded, and the
 * table stops at REPORT_DASH_MAX_TABLE_ROWS rows or REPORT_DASH_MAX_TABLE_BYTES bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_private.h"

#define CHART_W       1100.0 /* as scan's charts: the page's content width */
#define CHART_H       280.0
#define CHART_ML      52.0 /* room for the y labels */
#define CHART_MR      16.0
#define CHART_MT      14.0
#define CHART_MB      34.0 /* room for the week labels */
#define BAR_MAX_W     40.0 /* a lone week is a bar, not a wall */
#define WEEK_LABEL_W  78.0 /* "2026-05-11" at 11px, with a gap */
#define SHARE_BAR_W   220.0
#define Y_GRID_LINES  6.0 /* about this many: the step is rounded up to 1, 2 or 5 x 10^k */
#define GOTCHA_COLORS 10

/* Widths (code points) of the strings from runs: they bound a row of the run table. */
#define RUN_COLS     110
#define TEXT_COLS    120
#define WHERE_COLS   60
#define ERROR_COLS   90
#define EXAMPLE_COLS 44
#define ID_COLS      40

/* Ten colours for the gotchas (none green or grey: those are healthy and not read), then the
 * classes. The same class fills an SVG bar and colours an HTML swatch. */
static const char DASH_CSS[] =
    ".k0{fill:#4e79a7;background:#4e79a7}.k1{fill:#f28e2b;background:#f28e2b}"
    ".k2{fill:#e15759;background:#e15759}.k3{fill:#76b7b2;background:#76b7b2}"
    ".k4{fill:#edc948;background:#edc948}.k5{fill:#b07aa1;background:#b07aa1}"
    ".k6{fill:#ff9da7;background:#ff9da7}.k7{fill:#9c755f;background:#9c755f}"
    ".k8{fill:#17becf;background:#17becf}.k9{fill:#1f3b73;background:#1f3b73}"
    ".ko{fill:#5a5f6b;background:#5a5f6b}.kh{fill:#59a14f;background:#59a14f}"
    ".kn{fill:#d5d9e0;background:#d5d9e0}"
    ".sw{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:6px;"
    "vertical-align:-1px}"
    ".legend{list-style:none;padding:0;margin:6px 0;display:flex;flex-wrap:wrap;gap:4px 18px;"
    "font-size:13px}"
    ".bar{display:inline-block;height:10px;background:#2f6db5;border-radius:2px;"
    "vertical-align:middle}"
    ".lede{font-size:15px;margin:6px 0}tr:target{background:#fff6d6}"
    "td.w{white-space:nowrap}td.run{min-width:15em}";

struct dash {
    struct az_buf *out;
    struct az_buf s1;  /* rpt_html_text()'s scratch */
    struct az_buf red; /* a redacted string */
    const struct report_dash_input *runs;
    size_t n;
    const struct report_dash_options *o;
    const struct report_dash_agg *a;
    unsigned char *listed;      /* per run: 1 when the run table lists it */
    struct report_names *names; /* run names_run's host names, built when a string of it is met */
    size_t names_run;
};

/* ---- strings ---- */

/* A string from run i (NULL counts as ""), redacted with its host names when asked. */
static const char *from_run(struct dash *x, size_t i, const char *s, size_t *len)
{
    if (!s) s = "";
    if (!x->o->redact) {
        *len = strlen(s);
        return s;
    }
    if (!x->names || x->names_run != i) {
        /* each run's own names: one machine's placeholder never stands for another run's */
        const struct report_dash_facts *f = x->runs[i].facts;
        report_names_free(x->names);
        x->names = report_names_new((const char *const *)f->hosts, f->nhosts);
        x->names_run = i;
    }
    az_buf_reset(&x->red);
    report_redact(&x->red, s, strlen(s), x->names);
    az_buf_ensure(&x->red, 0);
    *len = x->red.len;
    return x->red.data;
}

/* Append a string from run i, cut to cols code points (0: whole) at its end. */
static void put(struct dash *x, size_t i, const char *s, size_t cols)
{
    size_t len;
    const char *p = from_run(x, i, s, &len);
    rpt_html_text(x->out, &x->s1, p, len, cols);
}

/* As put(), keeping the end of the string ("…/team-a/job-101"): a path's most specific part. */
static void put_tail(struct dash *x, size_t i, const char *s, size_t cols)
{
    size_t len;
    const char *p = from_run(x, i, s, &len);
    rpt_html_text_tail(x->out, &x->s1, p, len, cols);
}

/* Append a string of the pack or of gotcha itself (an entry id, a fingerprint's hex): never
 * redacted, a name the redaction does not know. */
static void put_own(struct dash *x, const char *s)
{
    rpt_html_text(x->out, &x->s1, s ? s : "", s ? strlen(s) : 0, 0);
}

/* An id from a row (an entry id, a fingerprint): the pack's, but a row read back from a cache
 * file is still cut to a width. */
static void put_id(struct dash *x, const char *s)
{
    rpt_html_text(x->out, &x->s1, s ? s : "", s ? strlen(s) : 0, ID_COLS);
}

/* The reports directory and run i's report name, percent-encoded for an href. */
static void put_report_href(struct dash *x, size_t i)
{
    char name[160];
    report_dash_report_name(x->runs[i].row->run, x->o->redact, name, sizeof name);
    char *href = az_xasprintf("%s/%s", x->o->reports_href, name);
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)href; *p; p++) {
        if (az_is_alnum(*p) || strchr("-._~/", *p))
            az_buf_putc(x->out, (char)*p);
        else
            az_buf_printf(x->out, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
    }
    free(href);
}

static int has_reports(const struct dash *x)
{
    return x->o->reports_href && x->o->reports_href[0];
}

/* ---- numbers, dates, classes ---- */

static void put_count(struct dash *x, size_t v)
{
    char num[40];
    rpt_thousands(v, num, sizeof num);
    az_buf_puts(x->out, num);
}

static double share(size_t part, size_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "2026-05-11" for a day count since the epoch. */
static void day_text(int64_t days, char *out, size_t outsz)
{
    int64_t y;
    unsigned m, d;
    az_civil_from_days(days, &y, &m, &d);
    snprintf(out, outsz, "%04lld-%02u-%02u", (long long)y, m, d);
}

static void date_text(int64_t usec, char *out, size_t outsz)
{
    int64_t days = usec / (86400LL * 1000000LL);
    if (usec % (86400LL * 1000000LL) < 0) days--;
    day_text(days, out, outsz);
}

/* "2026-05-12 13:04" */
static void minute_text(int64_t usec, char *out, size_t outsz)
{
    struct az_time t = {usec, AZ_TIME_ABS};
    char full[48];
    az_time_format(t, 0, full, sizeof full);
    snprintf(out, outsz, "%.16s", full);
}

/* The CSS class of category c: gotchas by their position among the gotchas, then the classes. */
static const char *cat_class(const struct report_dash_agg *a, size_t c, char *buf, size_t bufsz)
{
    switch (a->cats[c].cls) {
    case REPORT_DASH_OTHER_FAILURE: return "ko";
    case REPORT_DASH_HEALTHY: return "kh";
    case REPORT_DASH_NOT_READ: return "kn";
    case REPORT_DASH_GOTCHA:
    default: break;
    }
    snprintf(buf, bufsz, "k%zu", c % GOTCHA_COLORS); /* gotchas come first in cats */
    return buf;
}

static void put_swatch(struct dash *x, size_t c)
{
    char cls[16];
    az_buf_printf(x->out, "<span class=\"sw %s\"></span>", cat_class(x->a, c, cls, sizeof cls));
}

static const char *when_text(enum report_dash_when w)
{
    switch (w) {
    case REPORT_DASH_WHEN_LOGS: return "logs";
    case REPORT_DASH_WHEN_LOGS_YEAR: return "logs, year of file time";
    case REPORT_DASH_WHEN_MTIME: return "file time";
    case REPORT_DASH_WHEN_NONE:
    default: return "no time";
    }
}

/* ---- the chart: runs per week, stacked by category ---- */

struct chart {
    int64_t first;  /* Monday of the first week drawn */
    size_t nweeks;  /* weeks drawn (consecutive, empty ones too) */
    size_t w0;      /* first index in a->weeks drawn */
    size_t earlier; /* runs in weeks before first */
    size_t top;     /* the y axis' top value */
    size_t step;    /* between y grid lines */
};

static void chart_plan(const struct report_dash_agg *a, struct chart *ch)
{
    memset(ch, 0, sizeof *ch);
    int64_t last = a->weeks[a->nweeks - 1].monday;
    ch->first = a->weeks[0].monday;
    if ((last - ch->first) / 7 + 1 > REPORT_DASH_CHART_WEEKS)
        ch->first = last - (int64_t)(REPORT_DASH_CHART_WEEKS - 1) * 7;
    ch->nweeks = (size_t)((last - ch->first) / 7 + 1);
    size_t maxv = 1;
    for (size_t w = 0; w < a->nweeks; w++) {
        if (a->weeks[w].monday < ch->first) {
            ch->earlier += a->weeks[w].runs;
            ch->w0 = w + 1;
        } else {
            maxv = AZ_MAX(maxv, a->weeks[w].runs);
        }
    }
    double step = rpt_nice_step((double)maxv / Y_GRID_LINES);
    ch->step = step < 1 ? 1 : (size_t)step;
    ch->top = (maxv + ch->step - 1) / ch->step * ch->step;
}

static void chart_axes(struct dash *x, const struct chart *ch, double pw, double ph)
{
    for (size_t v = 0; v <= ch->top; v += ch->step) {
        double y = CHART_MT + ph - ph * (double)v / (double)ch->top;
        char num[40];
        rpt_thousands(v, num, sizeof num);
        az_buf_printf(x->out,
                      "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                      CHART_ML, y, CHART_ML + pw, y, CHART_ML - 6, y + 4, num);
    }
    az_buf_printf(x->out,
                  "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                  CHART_ML, CHART_MT + ph, CHART_ML + pw, CHART_MT + ph);
    double slot = pw / (double)ch->nweeks;
    size_t every = (size_t)ceil(WEEK_LABEL_W / slot);
    if (every < 1) every = 1;
    double prev_right = -INFINITY;
    for (size_t k = 0; k < ch->nweeks; k += every) {
        double cx = CHART_ML + slot * ((double)k + 0.5), left = cx - WEEK_LABEL_W / 2;
        const char *anchor = "middle";
        if (left < 0) {
            anchor = "start";
            left = cx;
        } else if (cx + WEEK_LABEL_W / 2 > CHART_W) {
            anchor = "end"; /* pulled left of its week: it may meet the label before it */
            left = cx - WEEK_LABEL_W;
        }
        if (left < prev_right) continue;
        prev_right = left + WEEK_LABEL_W;
        char day[24];
        day_text(ch->first + (int64_t)k * 7, day, sizeof day);
        az_buf_printf(x->out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", cx,
                      CHART_H - 12, anchor, day);
    }
}

static void chart_bars(struct dash *x, const struct chart *ch, double pw, double ph)
{
    const struct report_dash_agg *a = x->a;
    double slot = pw / (double)ch->nweeks, bw = AZ_MIN(BAR_MAX_W, AZ_MAX(1.0, slot * 0.8));
    for (size_t w = ch->w0; w < a->nweeks; w++) {
        size_t k = (size_t)((a->weeks[w].monday - ch->first) / 7);
        double bx = CHART_ML + slot * (double)k + (slot - bw) / 2, base = CHART_MT + ph;
        char day[24];
        day_text(a->weeks[w].monday, day, sizeof day);
        for (size_t c = 0; c < a->ncats; c++) {
            size_t v = a->week_cat[w * a->ncats + c];
            if (!v) continue;
            double bh = ph * (double)v / (double)ch->top;
            char cls[16];
            az_buf_printf(x->out,
                          "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                          "height=\"%.1f\"><title>week of %s: ",
                          cat_class(a, c, cls, sizeof cls), bx, base - bh, bw, bh, day);
            put_id(x, a->cats[c].id);
            az_buf_puts(x->out, " ");
            put_count(x, v);
            az_buf_printf(x->out, " of %zu</title></rect>\n", a->weeks[w].runs);
            base -= bh;
        }
    }
}

static void legend(struct dash *x)
{
    const struct report_dash_agg *a = x->a;
    az_buf_puts(x->out, "<ul class=\"legend\">");
    for (size_t c = 0; c < a->ncats; c++) {
        if (!a->cats[c].runs) continue;
        az_buf_puts(x->out, "<li>");
        put_swatch(x, c);
        put_id(x, a->cats[c].id);
        az_buf_puts(x->out, " <b>");
        put_count(x, a->cats[c].runs);
        az_buf_puts(x->out, "</b></li>");
    }
    az_buf_puts(x->out, "</ul>\n");
}

static void chart(struct dash *x)
{
    const struct report_dash_agg *a = x->a;
    az_buf_puts(x->out, "<h2 id=\"weeks\">Runs per week</h2>\n");
    if (!a->nweeks) {
        az_buf_puts(x->out, "<p class=\"note\">No run has a time: nothing to draw.</p>\n");
        return;
    }
    struct chart ch;
    chart_plan(a, &ch);
    legend(x);
    const double pw = CHART_W - CHART_ML - CHART_MR, ph = CHART_H - CHART_MT - CHART_MB;
    az_buf_printf(x->out,
                  "<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
                  "aria-label=\"runs per week, stacked by verdict\">\n",
                  CHART_W, CHART_H, CHART_W, CHART_H);
    chart_axes(x, &ch, pw, ph);
    chart_bars(x, &ch, pw, ph);
    az_buf_puts(x->out, "</svg>\n<p class=\"note\">Each run counts in the week (Monday to Sunday) "
                        "of its first dated log record, or of its newest file's modification "
                        "time when its logs carry no date.");
    if (ch.earlier) {
        char day[24];
        day_text(ch.first, day, sizeof day);
        az_buf_printf(x->out,
                      " %zu run%s before %s (the chart shows %d weeks) are in the table "
                      "below.",
                      ch.earlier, ch.earlier == 1 ? "" : "s", day, REPORT_DASH_CHART_WEEKS);
    }
    if (a->ntimed < a->nruns)
        az_buf_printf(x->out, " %zu run%s without any time %s not drawn.", a->nruns - a->ntimed,
                      a->nruns - a->ntimed == 1 ? "" : "s",
                      a->nruns - a->ntimed == 1 ? "is" : "are");
    az_buf_puts(x->out, "</p>\n");
}

/* The same counts as a table, newest week first; weeks past the limit summed in one row. */
static void week_table(struct dash *x)
{
    const struct report_dash_agg *a = x->a;
    if (!a->nweeks) return;
    az_buf_printf(x->out,
                  "<details><summary>Runs per week as a table (%zu week%s)</summary>\n"
                  "<table><tr><th>week of</th><th class=\"num\">runs</th>",
                  a->nweeks, a->nweeks == 1 ? "" : "s");
    for (size_t c = 0; c < a->ncats; c++) {
        if (!a->cats[c].runs) continue;
        az_buf_puts(x->out, "<th class=\"num\">");
        put_id(x, a->cats[c].id);
        az_buf_puts(x->out, "</th>");
    }
    az_buf_puts(x->out, "</tr>\n");
    size_t shown = AZ_MIN(a->nweeks, (size_t)REPORT_DASH_TABLE_WEEKS);
    size_t *rest = az_xcalloc(a->ncats + 1, sizeof *rest), rest_runs = 0;
    for (size_t k = 0; k < a->nweeks; k++) {
        size_t w = a->nweeks - 1 - k;
        if (k >= shown) {
            rest_runs += a->weeks[w].runs;
            for (size_t c = 0; c < a->ncats; c++) rest[c] += a->week_cat[w * a->ncats + c];
            continue;
        }
        char day[24];
        day_text(a->weeks[w].monday, day, sizeof day);
        az_buf_printf(x->out, "<tr><td class=\"w\">%s</td><td class=\"num\">%zu</td>", day,
                      a->weeks[w].runs);
        for (size_t c = 0; c < a->ncats; c++)
            if (a->cats[c].runs)
                az_buf_printf(x->out, "<td class=\"num\">%zu</td>", a->week_cat[w * a->ncats + c]);
        az_buf_puts(x->out, "</tr>\n");
    }
    if (shown < a->nweeks) {
        az_buf_printf(x->out,
                      "<tr><td class=\"w\">%zu earlier weeks</td><td class=\"num\">%zu</td>",
                      a->nweeks - shown, rest_runs);
        for (size_t c = 0; c < a->ncats; c++)
            if (a->cats[c].runs) az_buf_printf(x->out, "<td class=\"num\">%zu</td>", rest[c]);
        az_buf_puts(x->out, "</tr>\n");
    }
    free(rest);
    az_buf_puts(x->out, "</table></details>\n");
}

/* ---- shares ---- */

static void share_cells(struct dash *x, size_t part, size_t whole)
{
    double pct = share(part, whole);
    az_buf_puts(x->out, "<td class=\"num\">");
    put_count(x, part);
    az_buf_printf(x->out,
                  "</td><td class=\"num\">%.1f %%</td><td><span class=\"bar\" "
                  "style=\"width:%.1fpx\"></span></td>",
                  pct, SHARE_BAR_W * pct / 100.0);
}

static void verdict_shares(struct dash *x)
{
    const struct report_dash_agg *a = x->a;
    az_buf_puts(x->out, "<h2 id=\"verdicts\">Verdicts</h2>\n<table><tr><th>verdict</th><th>"
                        "</th><th class=\"num\">runs</th><th class=\"num\">share</th><th></th>"
                        "</tr>\n");
    for (size_t c = 0; c < a->ncats; c++) {
        az_buf_puts(x->out, "<tr><td class=\"w\">");
        put_swatch(x, c);
        put_id(x, a->cats[c].id);
        az_buf_puts(x->out, "</td><td>");
        put_own(x, a->cats[c].title);
        az_buf_puts(x->out, "</td>");
        share_cells(x, a->cats[c].runs, a->nruns);
        az_buf_puts(x->out, "</tr>\n");
    }
    az_buf_puts(x->out, "</table>\n");
}

static void outcome_shares(struct dash *x)
{
    static const struct {
        enum corr_outcome oc;
        const char *means;
    } rows[] = {
        {CORR_OUTCOME_FAILED, "an error with no end marker after it"},
        {CORR_OUTCOME_COMPLETED, "an end marker after every error"},
        {CORR_OUTCOME_CUT_OFF, "a job log that stops with no error and no end marker"},
        {CORR_OUTCOME_UNKNOWN, "no job log, only snapshots (nvidia-smi, pip, dmesg)"},
    };
    const struct report_dash_agg *a = x->a;
    az_buf_puts(x->out, "<h2 id=\"outcomes\">Outcomes</h2>\n<table><tr><th>outcome</th><th>"
                        "</th><th class=\"num\">runs</th><th class=\"num\">share</th><th></th>"
                        "</tr>\n");
    size_t read = 0;
    for (size_t i = 0; i < AZ_ARRAY_LEN(rows); i++) {
        const char *name = corr_outcome_name(rows[i].oc);
        az_buf_printf(x->out,
                      "<tr><td class=\"w\"><span class=\"outcome %s\">%s</span></td><td>"
                      "%s</td>",
                      name, name, rows[i].means);
        share_cells(x, a->outcomes[rows[i].oc], a->nruns);
        az_buf_puts(x->out, "</tr>\n");
        read += a->outcomes[rows[i].oc];
    }
    az_buf_puts(x->out, "<tr><td class=\"w\"><span class=\"outcome\">not read</span></td><td>"
                        "the run could not be read</td>");
    share_cells(x, a->nruns - read, a->nruns);
    az_buf_puts(x->out, "</tr>\n</table>\n");
}

/* ---- first errors ---- */

/* A link to run i: its row in the table, else its report, else its name alone. */
static void run_link(struct dash *x, size_t i, size_t cols)
{
    if (x->listed[i])
        az_buf_printf(x->out, "<a href=\"#run-%zu\">", i + 1);
    else if (x->runs[i].has_report && has_reports(x)) {
        az_buf_puts(x->out, "<a href=\"");
        put_report_href(x, i);
        az_buf_puts(x->out, "\">");
    }
    put_tail(x, i, x->runs[i].row->run, cols);
    if (x->listed[i] || (x->runs[i].has_report && has_reports(x))) az_buf_puts(x->out, "</a>");
}

static void first_errors(struct dash *x)
{
    const struct report_dash_agg *a = x->a;
    az_buf_puts(x->out, "<h2 id=\"errors\">Most common first errors</h2>\n");
    if (!a->nerrors) {
        az_buf_puts(x->out, "<p class=\"note\">No run shows an error.</p>\n");
        return;
    }
    size_t with = 0;
    for (size_t i = 0; i < a->nerrors_distinct; i++) with += a->errors[i].runs;
    az_buf_printf(x->out, "<p class=\"note\">");
    put_count(x, with);
    az_buf_printf(x->out, " run%s show%s a first error; ", with == 1 ? "" : "s",
                  with == 1 ? "s" : "");
    put_count(x, a->nerrors_distinct);
    az_buf_printf(x->out,
                  " distinct (by fingerprint: the entry and the text with numbers, paths, "
                  "addresses and ids masked)%s.</p>\n",
                  a->nerrors < a->nerrors_distinct ? ", the most common listed" : "");
    az_buf_puts(x->out, "<table><tr><th class=\"num\">runs</th><th class=\"num\">share</th>"
                        "<th>first error</th><th>first seen</th><th>last seen</th>"
                        "<th>newest runs</th></tr>\n");
    for (size_t k = 0; k < a->nerrors; k++) {
        const struct report_dash_error *e = &a->errors[k];
        size_t ex = e->example[0];
        az_buf_puts(x->out, "<tr><td class=\"num\">");
        put_count(x, e->runs);
        az_buf_printf(x->out, "</td><td class=\"num\">%.1f %%</td><td><b>",
                      share(e->runs, a->nruns));
        put_id(x, e->id);
        az_buf_puts(x->out, "</b> <code>");
        put(x, ex, e->text, TEXT_COLS);
        az_buf_puts(x->out, "</code><br><span class=\"note mono\">");
        put_id(x, e->fingerprint);
        az_buf_puts(x->out, "</span></td>");
        char d1[24] = "", d2[24] = "";
        if (e->timed) {
            date_text(e->first_usec, d1, sizeof d1);
            date_text(e->last_usec, d2, sizeof d2);
        }
        az_buf_printf(x->out, "<td class=\"w\">%s</td><td class=\"w\">%s</td><td class=\"mono\">",
                      d1, d2);
        for (size_t j = 0; j < e->nexamples; j++) {
            if (j) az_buf_puts(x->out, "<br>");
            run_link(x, e->example[j], EXAMPLE_COLS);
        }
        az_buf_puts(x->out, "</td></tr>\n");
    }
    az_buf_puts(x->out, "</table>\n");
}

/* ---- the run table ---- */

static void run_row(struct dash *x, size_t i)
{
    const struct report_batch_row *row = x->runs[i].row;
    const struct report_dash_facts *f = x->runs[i].facts;
    char when[32] = "";
    az_buf_printf(x->out,
                  "<tr id=\"run-%zu\"><td class=\"num\"><a href=\"#run-%zu\">%zu</a></td>"
                  "<td class=\"mono run\">",
                  i + 1, i + 1, i + 1);
    int link = x->runs[i].has_report && has_reports(x);
    if (link) {
        az_buf_puts(x->out, "<a href=\"");
        put_report_href(x, i);
        az_buf_puts(x->out, "\">");
    }
    put_tail(x, i, row->run, RUN_COLS);
    if (link) az_buf_puts(x->out, "</a>");
    if (f->when != REPORT_DASH_WHEN_NONE) minute_text(f->first_usec, when, sizeof when);
    az_buf_printf(x->out,
                  "</td><td class=\"w\">%s<br><span class=\"note\">%s</span></td><td "
                  "class=\"w\">",
                  when, when_text(f->when));
    put_swatch(x, x->a->cat_of[i]);
    put_id(x, row->error[0] ? "not read" : row->verdict);
    if (row->error[0]) {
        az_buf_puts(x->out, "</td><td></td><td></td><td class=\"note\">");
        put(x, i, row->error, ERROR_COLS);
        az_buf_puts(x->out, "</td></tr>\n");
        return;
    }
    const char *oc = corr_outcome_name(f->outcome);
    az_buf_printf(x->out,
                  "</td><td><span class=\"outcome %s\">%s</span></td><td class=\"num\">"
                  "%.2f</td><td>",
                  oc, oc, rpt_round2(row->confidence));
    if (row->first_error[0]) {
        az_buf_puts(x->out, "<b>");
        put_id(x, row->first_error);
        az_buf_puts(x->out, "</b> <code>");
        put(x, i, row->fingerprint_text, TEXT_COLS);
        az_buf_puts(x->out, "</code><br><span class=\"note mono\">");
        put_tail(x, i, row->first_error_at, WHERE_COLS);
        az_buf_puts(x->out, "</span>");
    }
    az_buf_puts(x->out, "</td></tr>\n");
}

struct pick {
    size_t run;
    int timed;
    int64_t t;
    size_t off, len; /* its rendered row in the table buffer */
};

/* Newest first: timed before untimed, later before earlier, then run order. */
static int cmp_newest(const void *pa, const void *pb)
{
    const struct pick *a = pa, *b = pb;
    if (a->timed != b->timed) return a->timed ? -1 : 1;
    if (a->timed && a->t != b->t) return a->t > b->t ? -1 : 1;
    return a->run < b->run ? -1 : a->run > b->run;
}

static int cmp_run(const void *pa, const void *pb)
{
    const struct pick *a = pa, *b = pb;
    return a->run < b->run ? -1 : a->run > b->run;
}

/* Render the newest runs' rows into rows, as many as the limits allow, and mark them listed.
 * Returns the picks kept, in run order (*nkept of them); caller frees. */
static struct pick *render_rows(struct dash *x, struct az_buf *rows, size_t *nkept)
{
    struct pick *p = az_xcalloc(x->n ? x->n : 1, sizeof *p);
    for (size_t i = 0; i < x->n; i++)
        p[i] = (struct pick){i, x->runs[i].facts->when != REPORT_DASH_WHEN_NONE,
                             x->runs[i].facts->first_usec, 0, 0};
    qsort(p, x->n, sizeof *p, cmp_newest);
    struct az_buf *saved = x->out;
    x->out = rows;
    size_t k = 0;
    for (; k < x->n && k < REPORT_DASH_MAX_TABLE_ROWS; k++) {
        size_t before = rows->len;
        x->listed[p[k].run] = 1; /* its own anchor links to itself */
        run_row(x, p[k].run);
        if (rows->len > REPORT_DASH_MAX_TABLE_BYTES) {
            rows->len = before;
            x->listed[p[k].run] = 0;
            break;
        }
        p[k].off = before;
        p[k].len = rows->len - before;
    }
    x->out = saved;
    qsort(p, k, sizeof *p, cmp_run);
    *nkept = k;
    return p;
}

static void run_table(struct dash *x, const struct az_buf *rows, const struct pick *p, size_t k)
{
    az_buf_puts(x->out, "<h2 id=\"runs\">Runs</h2>\n<p class=\"note\">");
    if (k < x->n) {
        az_buf_puts(x->out, "The newest ");
        put_count(x, k);
        az_buf_puts(x->out, " of ");
        put_count(x, x->n);
        az_buf_puts(x->out, " runs, in run order (a page lists at most ");
        put_count(x, REPORT_DASH_MAX_TABLE_ROWS);
        az_buf_printf(x->out,
                      " runs and %d MB of them); every run is counted above, and "
                      "<code>gotcha batch</code> without <code>--format html</code> prints a "
                      "row for each. ",
                      REPORT_DASH_MAX_TABLE_BYTES / 1000000);
    } else {
        az_buf_puts(x->out, "Every run, in run order. ");
    }
    az_buf_puts(x->out, "<code>#run-N</code> links to the N-th run");
    if (has_reports(x)) az_buf_puts(x->out, "; a run's path links to its own report");
    az_buf_puts(x->out, ".</p>\n<table><tr><th class=\"num\">#</th><th>run</th><th>time</th>"
                        "<th>verdict</th><th>outcome</th><th class=\"num\">confidence</th>"
                        "<th>first error</th></tr>\n");
    for (size_t j = 0; j < k; j++) az_buf_append(x->out, rows->data + p[j].off, p[j].len);
    az_buf_puts(x->out, "</table>\n");
}

/* ---- the page ---- */

static void header(struct dash *x)
{
    const struct report_dash_agg *a = x->a;
    az_buf_puts(x->out, "<header><p class=\"meta\">" RPT_TOOL_NAME " ");
    put_own(x, x->o->tool_version ? x->o->tool_version : GOTCHA_VERSION);
    az_buf_puts(x->out, " \xc2\xb7 batch dashboard \xc2\xb7 ");
    put_count(x, a->nruns);
    az_buf_printf(x->out, " run%s", a->nruns == 1 ? "" : "s");
    if (a->ntimed) {
        char d1[24], d2[24];
        date_text(a->first_usec, d1, sizeof d1);
        date_text(a->last_usec, d2, sizeof d2);
        az_buf_printf(x->out, " \xc2\xb7 %s \xe2\x86\x92 %s \xc2\xb7 %zu week%s with runs", d1, d2,
                      a->nweeks, a->nweeks == 1 ? "" : "s");
    }
    az_buf_puts(x->out, "</p>\n<h1>What kills our runs</h1></header>\n<p class=\"lede\">");
    size_t by[4] = {0, 0, 0, 0};
    for (size_t c = 0; c < a->ncats; c++) by[a->cats[c].cls] += a->cats[c].runs;
    static const char *const says[4] = {"with a gotcha", "failed otherwise", "healthy",
                                        "could not be read"};
    for (int k = 0; k < 4; k++) {
        if (k) az_buf_puts(x->out, k == 3 ? " and " : ", ");
        az_buf_puts(x->out, "<b>");
        put_count(x, by[k]);
        az_buf_printf(x->out, "</b> (%.1f %%) %s", share(by[k], a->nruns), says[k]);
    }
    az_buf_puts(x->out, ".</p>\n");
}

static void page(struct dash *x)
{
    struct az_buf rows = AZ_BUF_INIT;
    size_t k = 0;
    struct pick *p = render_rows(x, &rows, &k);
    az_buf_puts(x->out, RPT_HTML_HEAD "<title>" RPT_TOOL_NAME ": ");
    put_count(x, x->n);
    az_buf_printf(x->out, " run%s</title>\n<style>%s%s</style>\n</head><body>\n",
                  x->n == 1 ? "" : "s", rpt_html_css, DASH_CSS);
    header(x);
    chart(x);
    week_table(x);
    verdict_shares(x);
    outcome_shares(x);
    first_errors(x);
    run_table(x, &rows, p, k);
    az_buf_puts(x->out, "<footer>Written by " RPT_TOOL_NAME " ");
    put_own(x, x->o->tool_version ? x->o->tool_version : GOTCHA_VERSION);
    az_buf_printf(x->out,
                  "%s. Self-contained: no scripts, no external resources.</footer>\n"
                  "</body></html>\n",
                  x->o->redact ? "; host names, users, addresses and secrets redacted" : "");
    free(p);
    az_buf_free(&rows);
}

enum az_status report_dash_write(FILE *out, const struct report_dash_input *runs, size_t n,
                                 const struct match_pack *pack, const struct report_dash_options *o)
{
    static const struct report_dash_options defaults = {0, NULL, NULL};
    struct report_dash_agg a;
    report_dash_aggregate(&a, runs, n, pack);
    struct az_buf buf = AZ_BUF_INIT;
    struct dash x = {&buf, AZ_BUF_INIT, AZ_BUF_INIT, runs, n, o ? o : &defaults, &a, NULL, NULL, 0};
    x.listed = az_xcalloc(n ? n : 1, 1);
    page(&x);
    size_t w = buf.len ? fwrite(buf.data, 1, buf.len, out) : 0;
    int failed = w != buf.len || fflush(out) != 0 || ferror(out);
    free(x.listed);
    report_names_free(x.names);
    az_buf_free(&x.s1);
    az_buf_free(&x.red);
    az_buf_free(&buf);
    report_dash_agg_free(&a);
    return failed ? AZ_FAIL : AZ_OK;
}
