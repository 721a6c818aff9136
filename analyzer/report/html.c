/*
 * report/html.c - one self-contained HTML page: the report's content plus pictures drawn here as
 * inline SVG (timeline lanes, series plots). No script, no external request of any kind: the page
 * declares a Content-Security-Policy that forbids them, and holds no URL in src or href.
 *
 * Every input-derived string is sanitized (controls and bidi overrides made visible, invalid
 * UTF-8 shown as \xNN) and then HTML-escaped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_private.h"

#define SVG_W         1100.0
#define LANE_LABEL_W  280.0
#define LANE_H        26.0
#define MAX_LANES     32
#define MAX_CHARTS    10
#define CHART_H       210.0
#define SPARSE_POINTS 24
/* The platform facts (docs/patterns.md, "Platforms") a chart draws as its reference line: the
 * sustained power rating and the memory size. */
#define FACT_POWER_W      "power_w"
#define FACT_MEMORY_BYTES "memory_bytes"
#define FACT_UNIFIED_POOL "unified_pool"

struct html {
    struct rpt *c;
    struct az_buf *out;
    struct az_buf s1;
};

void rpt_html_text(struct az_buf *out, struct az_buf *scratch, const char *p, size_t len,
                   size_t cols)
{
    az_buf_reset(scratch);
    report_sanitize_terminal(scratch, p, len);
    const char *d = scratch->data ? scratch->data : "";
    size_t keep = cols ? rpt_prefix_for_columns(d, scratch->len, cols) : scratch->len;
    if (keep < scratch->len && cols > 1) {
        keep = rpt_prefix_for_columns(d, scratch->len, cols - 1);
        rpt_html_escape(out, d, keep);
        az_buf_puts(out, "\xe2\x80\xa6");
    } else {
        rpt_html_escape(out, d, scratch->len);
    }
}

void rpt_html_text_tail(struct az_buf *out, struct az_buf *scratch, const char *p, size_t len,
                        size_t cols)
{
    az_buf_reset(scratch);
    report_sanitize_terminal(scratch, p, len);
    const char *d = scratch->data ? scratch->data : "";
    size_t total = rpt_columns(d, scratch->len);
    if (total <= cols || cols < 2) {
        rpt_html_escape(out, d, scratch->len);
        return;
    }
    size_t skip = rpt_prefix_for_columns(d, scratch->len, total - (cols - 1));
    az_buf_puts(out, "\xe2\x80\xa6");
    rpt_html_escape(out, d + skip, scratch->len - skip);
}

/* Append s sanitized and escaped; input strings are redacted first when asked. */
static void h(struct html *x, const char *s, int input)
{
    size_t len;
    const char *p = input ? rpt_input(x->c, s, &len) : (s ? s : "");
    if (!input) len = strlen(p);
    rpt_html_text(x->out, &x->s1, p, len, 0);
}

/* As h(), cut to cols code points with "…". */
static void h_cut(struct html *x, const char *s, int input, size_t cols)
{
    size_t len;
    const char *p = input ? rpt_input(x->c, s, &len) : (s ? s : "");
    if (!input) len = strlen(p);
    rpt_html_text(x->out, &x->s1, p, len, cols);
}

const char rpt_html_css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;"
    "background:#fff;margin:24px auto;max-width:1140px;padding:0 16px}"
    "h1{font-size:22px;margin:4px 0 8px}h2{font-size:16px;margin:26px 0 8px;border-bottom:1px "
    "solid #e3e6ec;"
    "padding-bottom:4px}.meta{color:#69707d;font-size:13px;margin:0}"
    ".id{display:inline-block;background:#b3261e;color:#fff;border-radius:4px;padding:0 "
    "8px;margin-right:6px}"
    ".id.none{background:#69707d}.id.none.completed{background:#3b6e3b}.id.none.failed{"
    "background:#b3261e}.conf{color:#69707d;font-weight:normal;font-size:15px;margin-left:"
    "10px}"
    ".verdict{background:#fbf3f2;border-left:4px solid #b3261e;padding:8px 14px;border-radius:4px}"
    ".verdict.none{background:#f5f6f8;border-left-color:#69707d}.verdict.none.completed{"
    "background:#f2f8f2;border-left-color:#3b6e3b}.verdict.none.failed{background:#fbf3f2;"
    "border-left-color:#b3261e}"
    ".outcome{display:inline-block;border-radius:4px;padding:1px 8px;margin:6px 0 2px;"
    "font-weight:600;color:#fff;background:#69707d}.outcome.failed{background:#b3261e}"
    ".outcome.completed{background:#3b6e3b}.outcome.cut-off{background:#a86f00}"
    "table{border-collapse:collapse;width:100%;font-size:13px}td,th{text-align:left;padding:3px "
    "8px;"
    "border-bottom:1px solid #eef0f3;vertical-align:top}th{color:#69707d;font-weight:600}"
    "code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;"
    "white-space:pre-wrap;word-break:break-all}.num{text-align:right;white-space:nowrap}"
    ".note{color:#69707d}details{margin:10px 0}summary{cursor:pointer;font-weight:600}"
    "svg{display:block;margin:6px 0 14px;max-width:100%;height:auto}svg text{font:11px "
    "system-ui,sans-serif;fill:#3c4350}"
    "svg .axis{stroke:#c7ccd5;stroke-width:1}svg .grid{stroke:#eef0f3;stroke-width:1}"
    "svg .lane{fill:#f7f8fa}svg .lane.untimed{fill:#f1f2f5}svg .ev{fill:#8a94a6}svg "
    ".ev.finding{fill:#d08a00}svg "
    ".ev.verdict{fill:#b3261e}"
    "svg .line{fill:none;stroke:#2f6db5;stroke-width:1.6}svg .pt{fill:#2f6db5}svg "
    ".cap{stroke:#b3261e;stroke-dasharray:6 4;stroke-width:1.2}"
    "svg .plateau{fill:#b3261e;fill-opacity:.09}svg "
    ".mark{stroke:#d08a00;stroke-width:1.5;stroke-dasharray:3 3}"
    "svg .title{font-weight:600;fill:#1d2330;font-size:12px}svg .capl{fill:#b3261e}svg "
    ".markl{fill:#a86f00}"
    "footer{color:#8a909b;font-size:12px;margin-top:30px}";

/* ---- shared pieces ---- */

static void evidence_table(struct html *x, const struct corr_evidence *ev, size_t n)
{
    char tbuf[48];
    az_buf_puts(x->out,
                "<table class=\"ev\"><tr><th>where</th><th>time</th><th>line</th><th></th></tr>\n");
    for (size_t i = 0; i < n; i++) {
        az_buf_puts(x->out, "<tr><td class=\"mono\">");
        h(x, ev[i].path, 1);
        if (ev[i].line) az_buf_printf(x->out, ":%llu", (unsigned long long)ev[i].line);
        rpt_time_short(x->c->r, ev[i].time, ev[i].time_approx, tbuf, sizeof tbuf);
        az_buf_printf(x->out, "</td><td class=\"mono\">%s</td><td><code>", tbuf);
        h(x, ev[i].text, 1);
        az_buf_puts(x->out, "</code></td><td class=\"note\">");
        h(x, ev[i].note, 1);
        az_buf_puts(x->out, "</td></tr>\n");
    }
    az_buf_puts(x->out, "</table>\n");
}

/* An absolute (or no-year, or boot) time at offset sec from the run's start, for axis labels. */
static void axis_time(const struct corr_result *r, double sec, char *out, size_t outsz)
{
    if (r->start.kind == AZ_TIME_ABS || r->start.kind == AZ_TIME_NOYEAR) {
        struct az_time t = {r->start.usec + (int64_t)llround(sec * 1e6), r->start.kind};
        rpt_time_short(r, t, 0, out, outsz);
    } else {
        snprintf(out, outsz, "+%.0fs", sec);
    }
}

/* As axis_time(), with milliseconds: the first tick of a sub-second axis ("13:04:32.120"). */
static void axis_time_ms(const struct corr_result *r, double sec, char *out, size_t outsz)
{
    if (r->start.kind == AZ_TIME_ABS || r->start.kind == AZ_TIME_NOYEAR) {
        int64_t usec = r->start.usec + (int64_t)llround(sec * 1e6);
        struct az_time t = {usec, r->start.kind};
        rpt_time_short(r, t, 0, out, outsz);
        size_t n = strlen(out);
        long long ms = (long long)((usec % 1000000 + 1000000) % 1000000 / 1000);
        snprintf(out + n, outsz - n, ".%03lld", ms);
    } else {
        snprintf(out, outsz, "+%.3fs", sec);
    }
}

/* Ticks less than a second apart would all read the same clock second ("13:04:32" six times
 * on a 2-second chart): such an axis labels its first tick with the clock time to the
 * millisecond and the others with their offset from it, off seconds after it, in seconds
 * ("+0.4 s") when the whole span is a second or more, else in milliseconds ("+120 ms"), with
 * the decimals that keep neighbouring ticks (step apart) from reading the same. */
#define AXIS_CLOCK_MIN_STEP 1.0 /* seconds between ticks for clock labels to differ */
static void axis_offset(double off, double step, double span, char *out, size_t outsz)
{
    int in_s = span >= 1.0;
    double scale = in_s ? 1.0 : 1000.0, st = step * scale;
    int decimals = 0;
    while (decimals < 6 && st * pow(10, decimals) < 2) decimals++;
    snprintf(out, outsz, "+%.*f %s", decimals, off * scale, in_s ? "s" : "ms");
}

/* Axis labels: the first starts at its tick, the last ends there, so neither is cut off. */
static const char *anchor_of(int k, int last)
{
    return k == 0 ? "start" : k == last ? "end" : "middle";
}

double rpt_nice_step(double raw)
{
    if (!(raw > 0)) return 1;
    double mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* ---- timeline lanes ---- */

static int placeable(const struct corr_result *r, struct az_time t)
{
    enum az_time_kind k = r->start.kind != AZ_TIME_NONE ? r->start.kind : t.kind;
    return t.kind != AZ_TIME_NONE && t.kind == k;
}

static int same_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* As h_cut(), keeping the end: "…job42/dmesg.log" (a path's last components tell lanes apart). */
static void h_cut_left(struct html *x, const char *s, size_t cols)
{
    size_t len;
    const char *p = rpt_input(x->c, s, &len);
    rpt_html_text_tail(x->out, &x->s1, p, len, cols);
}

/* The timeline's rows: one lane per (file, lane) of the events placed on the run's clock, and one
 * more for the events without a comparable time (no stamp, or another clock than the run's),
 * drawn in timeline order: none is dropped. */
struct tl_lanes {
    size_t first[MAX_LANES];      /* event index of each timed lane's first event */
    const char *label[MAX_LANES]; /* the shortest unique suffix of its path (borrowed) */
    size_t n;                     /* timed lanes */
    size_t *of; /* per event: its timed lane, UNTIMED, or SIZE_MAX (past the cap) */
    size_t nplaced, nuntimed, nover;
    int64_t t0, t1; /* span of the placed events */
};
#define UNTIMED (SIZE_MAX - 1)

static void tl_assign(const struct corr_result *r, struct tl_lanes *L)
{
    memset(L, 0, sizeof *L);
    L->of = az_xmalloc((r->nevents + 1) * sizeof *L->of);
    for (size_t i = 0; i < r->nevents; i++) {
        const struct corr_event *e = &r->timeline[i];
        L->of[i] = SIZE_MAX;
        if (!placeable(r, e->time)) {
            L->of[i] = UNTIMED;
            L->nuntimed++;
            continue;
        }
        size_t l = 0;
        for (; l < L->n; l++) {
            const struct corr_event *f = &r->timeline[L->first[l]];
            if (same_str(f->path, e->path) && same_str(f->lane, e->lane)) break;
        }
        if (l == L->n) {
            if (L->n == MAX_LANES) {
                L->nover++;
                continue;
            }
            L->first[L->n++] = i;
        }
        L->of[i] = l;
        if (!L->nplaced || e->time.usec < L->t0) L->t0 = e->time.usec;
        if (!L->nplaced || e->time.usec > L->t1) L->t1 = e->time.usec;
        L->nplaced++;
    }
    const char *paths[MAX_LANES];
    for (size_t l = 0; l < L->n; l++) paths[l] = r->timeline[L->first[l]].path;
    for (size_t l = 0; l < L->n; l++)
        L->label[l] = paths[l] ? paths[l] + rpt_unique_suffix(paths, L->n, l) : "";
}

static void tl_axis(struct html *x, const struct tl_lanes *L, double top, double height)
{
    const struct corr_result *r = x->c->r;
    const double plot_x = LANE_LABEL_W, plot_w = SVG_W - LANE_LABEL_W - 20;
    double span = (double)(L->t1 - L->t0) / 1e6;
    /* events all at one time: a one-second axis around it, so the ticks still read apart */
    double lspan = span > 0 ? span : 1.0, l0 = span > 0 ? 0 : -0.5;
    for (int k = 0; L->nplaced && k <= 5; k++) {
        double gx = plot_x + plot_w * k / 5.0, step = lspan / 5.0, at = l0 + lspan * k / 5.0;
        int clock = r->start.kind == AZ_TIME_ABS || r->start.kind == AZ_TIME_NOYEAR;
        char tb[48];
        if (step < AXIS_CLOCK_MIN_STEP && k > 0) {
            axis_offset(at - l0, step, lspan, tb, sizeof tb);
        } else if (clock) {
            double sec = (double)(L->t0 - r->start.usec) / 1e6 + at;
            if (step < AXIS_CLOCK_MIN_STEP)
                axis_time_ms(r, sec, tb, sizeof tb);
            else
                axis_time(r, sec, tb, sizeof tb);
        } else {
            struct az_time t = {L->t0 + (int64_t)llround(at * 1e6), r->timeline[0].time.kind};
            if (step < AXIS_CLOCK_MIN_STEP && t.kind == AZ_TIME_BOOT)
                snprintf(tb, sizeof tb, "+%.3fs", (double)t.usec / 1e6);
            else
                rpt_time_short(r, t, 0, tb, sizeof tb);
        }
        az_buf_printf(x->out,
                      "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                      "<text x=\"%.1f\" y=\"14\" text-anchor=\"%s\">%s</text>\n",
                      gx, top, gx, height - 8, gx, anchor_of(k, 5), tb);
    }
}

static void tl_lane_rows(struct html *x, const struct tl_lanes *L, double top)
{
    const struct corr_result *r = x->c->r;
    size_t rows = L->n + (L->nuntimed > 0);
    for (size_t l = 0; l < rows; l++) {
        double y = top + (double)l * LANE_H;
        az_buf_printf(x->out,
                      "<rect class=\"lane%s\" x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\"/>"
                      "<text x=\"6\" y=\"%.1f\">",
                      l < L->n ? "" : " untimed", y + 2, SVG_W, LANE_H - 4, y + LANE_H / 2 + 4);
        if (l == L->n) {
            az_buf_puts(x->out, "no comparable time (in order)</text>\n");
            continue;
        }
        const struct corr_event *f = &r->timeline[L->first[l]];
        h_cut_left(x, L->label[l], 34);
        if (f->lane && f->lane[0]) {
            az_buf_puts(x->out, " [");
            h_cut(x, f->lane, 1, 12);
            az_buf_putc(x->out, ']');
        }
        az_buf_puts(x->out, "</text>\n");
    }
}

static void tl_events(struct html *x, const struct tl_lanes *L, double top)
{
    const struct corr_result *r = x->c->r;
    const double plot_x = LANE_LABEL_W, plot_w = SVG_W - LANE_LABEL_W - 20;
    double span = (double)(L->t1 - L->t0) / 1e6;
    const char *vid = r->verdict ? rpt_entry_id(r->verdict) : NULL;
    size_t kth_untimed = 0;
    for (size_t i = 0; i < r->nevents; i++) {
        if (L->of[i] == SIZE_MAX) continue;
        const struct corr_event *e = &r->timeline[i];
        double cx, cy;
        if (L->of[i] == UNTIMED) {
            /* spread in timeline order across the plot: a sequence, not a time */
            cx = plot_x + plot_w * ((double)kth_untimed++ + 0.5) / (double)L->nuntimed;
            cy = top + (double)L->n * LANE_H + LANE_H / 2;
        } else {
            cx = span > 0 ? plot_x + plot_w * (double)(e->time.usec - L->t0) / 1e6 / span
                          : plot_x + plot_w / 2;
            cy = top + (double)L->of[i] * LANE_H + LANE_H / 2;
        }
        const char *cls = !e->entry_id                             ? "ev"
                          : (vid && strcmp(vid, e->entry_id) == 0) ? "ev verdict"
                                                                   : "ev finding";
        char tb[48];
        rpt_time_short(r, e->time, e->time_approx, tb, sizeof tb);
        az_buf_printf(x->out, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>%s%s",
                      cls, cx, cy, tb[0] ? tb : "no time", " ");
        h(x, e->path, 1);
        if (e->line) az_buf_printf(x->out, ":%llu", (unsigned long long)e->line);
        az_buf_puts(x->out, " \xe2\x80\x94 ");
        h(x, e->label, 1);
        if (e->entry_id) {
            az_buf_puts(x->out, " (");
            h(x, e->entry_id, 0);
            az_buf_putc(x->out, ')');
        }
        az_buf_puts(x->out, "</title></circle>\n");
    }
}

static void timeline_svg(struct html *x)
{
    const struct corr_result *r = x->c->r;
    struct tl_lanes L;
    tl_assign(r, &L);
    size_t rows = L.n + (L.nuntimed > 0);
    if (rows) {
        const double top = 24;
        double height = top + (double)rows * LANE_H + 8;
        az_buf_printf(x->out,
                      "<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
                      "height=\"%.0f\" role=\"img\" aria-label=\"timeline of the run's events\">\n",
                      SVG_W, height, SVG_W, height);
        tl_axis(x, &L, top, height);
        tl_lane_rows(x, &L, top);
        tl_events(x, &L, top);
        az_buf_puts(x->out, "</svg>\n");
    }
    if (L.nuntimed)
        az_buf_printf(x->out,
                      "<p class=\"note\">%zu event%s without a comparable time (no stamp, or "
                      "another clock than the run's): the last lane, in timeline order.</p>\n",
                      L.nuntimed, L.nuntimed == 1 ? "" : "s");
    if (L.nover)
        az_buf_printf(x->out,
                      "<p class=\"note\">%zu event%s past the first %d lanes %s not drawn (the "
                      "table below lists every event).</p>\n",
                      L.nover, L.nover == 1 ? "" : "s", MAX_LANES, L.nover == 1 ? "is" : "are");
    free(L.of);
}

/* ---- series plots ---- */

static int name_is(const struct corr_series *s, const char *name)
{
    return same_str(s->name, name);
}

static int is_throughput(const struct corr_series *s)
{
    return (s->name && strstr(s->name, "throughput")) || same_str(s->unit, "tok/s") ||
           same_str(s->unit, "it/s") || same_str(s->unit, "samples/s");
}

/* Plot order: power, temperature, SM clock, throughput, memory, loss, then the rest as given. */
static int series_rank(const struct corr_series *s)
{
    if (name_is(s, "power.draw")) return 0;
    if (name_is(s, "temperature.gpu")) return 1;
    if (name_is(s, "clocks.sm")) return 2;
    if (is_throughput(s)) return 3;
    if (name_is(s, "memory.used")) return 4;
    if (name_is(s, "loss")) return 5;
    return 6;
}

/* The platform whose figures a chart draws: the run's, else the pack's first (the machine the
 * pack is about), or NULL. */
static const struct match_platform *chart_platform(const struct html *x)
{
    const struct match_platform *on = x->c->r->context.on;
    return on ? on : match_pack_platform(x->c->pack, 0);
}

/* The platform's memory in the series' unit, or NAN when the unit is not a size. */
static double memory_line(const struct corr_series *s, double memory_bytes)
{
    static const struct {
        const char *unit;
        double bytes;
    } units[] = {{"B", 1},    {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0},
                 {"KB", 1e3}, {"MB", 1e6},     {"GB", 1e9}};
    for (size_t i = 0; i < AZ_ARRAY_LEN(units); i++)
        if (same_str(s->unit, units[i].unit)) return memory_bytes / units[i].bytes;
    return NAN;
}

static void chart(struct html *x, const struct corr_series *s, double tmin, double tmax,
                  double plateau_t)
{
    const struct corr_result *r = x->c->r;
    const double ml = 64, mr = 16, mt = 26, mb = 26;
    const double pw = SVG_W - ml - mr, ph = CHART_H - mt - mb;
    double vmin = 0, vmax = -INFINITY;
    for (size_t k = 0; k < s->npoints; k++)
        if (isfinite(s->points[k].v)) {
            vmin = AZ_MIN(vmin, s->points[k].v);
            vmax = AZ_MAX(vmax, s->points[k].v);
        }
    if (!isfinite(vmax)) return;
    double cap = NAN, memline = NAN;
    const struct match_platform *pl = chart_platform(x);
    if (name_is(s, "power.draw")) cap = match_platform_num(pl, FACT_POWER_W);
    if (name_is(s, "memory.used"))
        memline = memory_line(s, match_platform_num(pl, FACT_MEMORY_BYTES));
    if (isfinite(cap)) vmax = AZ_MAX(vmax, cap);
    if (isfinite(memline)) vmax = AZ_MAX(vmax, memline);
    if (vmax <= vmin) vmax = vmin + 1;
    double step = rpt_nice_step((vmax - vmin) / 4.0);
    vmin = floor(vmin / step) * step;
    vmax = ceil(vmax * 1.02 / step) * step;
    int yticks = (int)llround((vmax - vmin) / step);
    double tspan = tmax > tmin ? tmax - tmin : 1;
#define XOF(t) (ml + pw * ((t)-tmin) / tspan)
#define YOF(v) (mt + ph * (1.0 - ((v)-vmin) / (vmax - vmin)))
    az_buf_printf(x->out,
                  "<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
                  "height=\"%.0f\" role=\"img\" aria-label=\"",
                  SVG_W, CHART_H, SVG_W, CHART_H);
    h(x, s->name, 1);
    az_buf_puts(x->out, " over time\">\n<text class=\"title\" x=\"4\" y=\"14\">");
    h(x, s->name, 1);
    if (s->unit && s->unit[0]) {
        az_buf_puts(x->out, " (");
        h(x,
          same_str(s->unit, "C") ? "\xc2\xb0"
                                   "C"
                                 : s->unit,
          1);
        az_buf_putc(x->out, ')');
    }
    az_buf_puts(x->out, " \xc2\xb7 ");
    h_cut(x, s->path, 1, 60);
    if (s->lane && s->lane[0]) {
        az_buf_puts(x->out, " [");
        h_cut(x, s->lane, 1, 16);
        az_buf_putc(x->out, ']');
    }
    az_buf_puts(x->out, "</text>\n");
    /* the plateau (power, temperature) shaded from its start to the end of the series */
    if (isfinite(plateau_t) && s->npoints) {
        double x0 = XOF(AZ_MAX(plateau_t, tmin)), x1 = XOF(s->points[s->npoints - 1].t);
        if (x1 > x0)
            az_buf_printf(
                x->out,
                "<rect class=\"plateau\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                x0, mt, x1 - x0, ph);
    }
    for (int k = 0; k <= yticks; k++) {
        double v = vmin + step * k, y = YOF(v);
        az_buf_printf(x->out,
                      "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.6g</text>\n",
                      ml, y, ml + pw, y, ml - 6, y + 4, v);
    }
    for (int k = 0; k <= 5; k++) {
        double t = tmin + tspan * k / 5.0, gx = XOF(t), tstep = tspan / 5.0;
        char tb[48];
        if (tstep >= AXIS_CLOCK_MIN_STEP)
            axis_time(r, t, tb, sizeof tb);
        else if (k == 0)
            axis_time_ms(r, t, tb, sizeof tb);
        else
            axis_offset(t - tmin, tstep, tspan, tb, sizeof tb);
        az_buf_printf(x->out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", gx,
                      CHART_H - 8, anchor_of(k, 5), tb);
    }
    az_buf_printf(x->out,
                  "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                  "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                  ml, mt, ml, mt + ph, ml, mt + ph, ml + pw, mt + ph);
    if (isfinite(cap))
        az_buf_printf(x->out,
                      "<line class=\"cap\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                      "<text class=\"capl\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">~%g W: %s "
                      "sustained power cap</text>\n",
                      ml, YOF(cap), ml + pw, YOF(cap), ml + pw - 4, YOF(cap) - 5, cap, pl->name);
    if (isfinite(memline))
        az_buf_printf(x->out,
                      "<line class=\"cap\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                      "<text class=\"capl\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g GB "
                      "%smemory</text>\n",
                      ml, YOF(memline), ml + pw, YOF(memline), ml + pw - 4, YOF(memline) - 5,
                      match_platform_num(pl, FACT_MEMORY_BYTES) / 1e9,
                      match_platform_num(pl, FACT_UNIFIED_POOL) == 1 ? "unified " : "");
    az_buf_puts(x->out, "<polyline class=\"line\" points=\"");
    int first = 1;
    for (size_t k = 0; k < s->npoints; k++) {
        const struct corr_point *pt = &s->points[k];
        if (!isfinite(pt->t) || !isfinite(pt->v)) continue;
        az_buf_printf(x->out, "%s%.1f,%.1f", first ? "" : " ", XOF(pt->t), YOF(pt->v));
        first = 0;
    }
    az_buf_puts(x->out, "\"/>\n");
    /* a few samples (one nvidia-smi snapshot, say) make no visible line: show each */
    if (s->npoints <= SPARSE_POINTS)
        for (size_t k = 0; k < s->npoints; k++) {
            const struct corr_point *pt = &s->points[k];
            if (!isfinite(pt->t) || !isfinite(pt->v)) continue;
            az_buf_printf(x->out,
                          "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" "
                          "r=\"3.5\"><title>%.6g</title></circle>\n",
                          XOF(pt->t), YOF(pt->v), pt->v);
        }
    /* a detected change that is not a plateau (a throughput drop, say): a marked vertical line */
    if (isfinite(s->mark_t) && !isfinite(plateau_t)) {
        double mx = XOF(s->mark_t);
        az_buf_printf(x->out,
                      "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                      "<text class=\"markl\" x=\"%.1f\" y=\"%.1f\">",
                      mx, mt, mx, mt + ph, mx + 5, mt + 12);
        h_cut(x, s->mark_label && s->mark_label[0] ? s->mark_label : "change", 1, 48);
        az_buf_puts(x->out, "</text>\n");
    } else if (isfinite(plateau_t) && s->mark_label && s->mark_label[0] && isfinite(s->mark_t)) {
        az_buf_printf(x->out, "<text class=\"markl\" x=\"%.1f\" y=\"%.1f\">",
                      XOF(AZ_MAX(plateau_t, tmin)) + 5, mt + 12);
        h_cut(x, s->mark_label, 1, 48);
        az_buf_puts(x->out, "</text>\n");
    }
    az_buf_puts(x->out, "</svg>\n");
#undef XOF
#undef YOF
}

static void series_charts(struct html *x)
{
    const struct corr_result *r = x->c->r;
    size_t order[MAX_CHARTS], n = 0;
    double tmin = INFINITY, tmax = -INFINITY, power_plateau = NAN;
    for (int rank = 0; rank <= 6; rank++)
        for (size_t i = 0; i < r->nseries && n < MAX_CHARTS; i++) {
            const struct corr_series *s = &r->series[i];
            if (series_rank(s) != rank || !s->npoints) continue;
            order[n++] = i;
            for (size_t k = 0; k < s->npoints; k++)
                if (isfinite(s->points[k].t)) {
                    tmin = AZ_MIN(tmin, s->points[k].t);
                    tmax = AZ_MAX(tmax, s->points[k].t);
                }
            if (rank == 0 && isfinite(s->mark_t) && !isfinite(power_plateau))
                power_plateau = s->mark_t;
        }
    if (!n || !isfinite(tmin)) return;
    az_buf_puts(x->out, "<h2>Series</h2>\n");
    for (size_t k = 0; k < n; k++) {
        const struct corr_series *s = &r->series[order[k]];
        double plateau = NAN;
        if (name_is(s, "power.draw"))
            plateau = isfinite(s->mark_t) ? s->mark_t : power_plateau;
        else if (name_is(s, "temperature.gpu"))
            plateau = power_plateau;
        chart(x, s, tmin, tmax, plateau);
    }
    if (r->nseries > n)
        az_buf_printf(x->out, "<p class=\"note\">%zu more series not drawn.</p>\n", r->nseries - n);
}

/* ---- sections ---- */

static void header(struct html *x)
{
    const struct corr_result *r = x->c->r;
    char num[40], span[160];
    az_buf_puts(x->out, "<header><p class=\"meta\">" RPT_TOOL_NAME " ");
    h(x, rpt_tool_version(x->c), 0);
    rpt_thousands(r->records, num, sizeof num);
    az_buf_printf(x->out, " \xc2\xb7 %zu input%s \xc2\xb7 %s records", r->ninputs,
                  r->ninputs == 1 ? "" : "s", num);
    rpt_span_text(r, span, sizeof span);
    if (span[0]) az_buf_printf(x->out, " \xc2\xb7 %s", span);
    char *ctx = rpt_context_text(x->c);
    if (ctx[0]) {
        az_buf_puts(x->out, " \xc2\xb7 ");
        h(x, ctx, 1);
    }
    free(ctx);
    /* the run's outcome, on its own: red when it failed, whatever the verdict (none included) */
    const char *oc = corr_outcome_name(r->outcome);
    const char *badge = r->outcome == CORR_OUTCOME_FAILED      ? "run failed"
                        : r->outcome == CORR_OUTCOME_COMPLETED ? "run completed"
                        : r->outcome == CORR_OUTCOME_CUT_OFF   ? "log cut off"
                                                               : "outcome unknown";
    az_buf_printf(x->out, "</p>\n<p><span class=\"outcome %s\">%s</span> ", oc, badge);
    char why[RPT_OUTCOME_WHY_MAX];
    h(x, rpt_outcome_why(r, why, sizeof why), 0);
    if (r->outcome_at) {
        az_buf_puts(x->out, " <span class=\"mono\">");
        h(x, r->outcome_at->path, 1);
        az_buf_printf(x->out, ":%llu</span>", (unsigned long long)r->outcome_at->line);
    }
    az_buf_puts(x->out, "</p>\n<h1>");
    if (r->verdict) {
        az_buf_puts(x->out, "<span class=\"id\">");
        h(x, rpt_entry_id(r->verdict), 0);
        az_buf_puts(x->out, "</span>");
        h(x, rpt_entry_title(r->verdict), 0);
        az_buf_printf(x->out, "<span class=\"conf\">confidence %.2f</span>",
                      rpt_round2(r->confidence));
    } else {
        /* "none" of the ten is green only for a run that completed */
        az_buf_printf(x->out, "<span class=\"id none %s\">none</span>", oc);
        h(x, rpt_none_title(x->c), 0);
    }
    az_buf_puts(x->out, "</h1></header>\n");
}

/* "Possible: G7 if <fact> — <code>command</code> (path:line)", a paragraph each. */
static void possible_list(struct html *x)
{
    const struct corr_result *r = x->c->r;
    for (size_t i = 0; i < r->npossible; i++) {
        const struct corr_possible *p = &r->possible[i];
        az_buf_puts(x->out, "<p class=\"possible\"><b>Possible:</b> ");
        h(x, rpt_entry_id(p->entry), 0);
        az_buf_puts(x->out, " if ");
        h(x, p->fact, 0);
        az_buf_puts(x->out, " \xe2\x80\x94 <code>");
        h(x, p->command, 0);
        az_buf_puts(x->out, "</code> (");
        h(x, p->seen.path, 1);
        az_buf_printf(x->out, ":%llu)</p>", (unsigned long long)p->seen.line);
    }
}

static void verdict(struct html *x)
{
    const struct corr_result *r = x->c->r;
    if (r->verdict) {
        const struct corr_finding *f = rpt_verdict_finding(r);
        az_buf_puts(x->out, "<section class=\"verdict\">");
        if (f && f->summary && f->summary[0]) {
            az_buf_puts(x->out, "<p>");
            h(x, f->summary, 1);
            az_buf_puts(x->out, "</p>");
        }
        az_buf_puts(x->out, "<p><b>Fix:</b> ");
        h(x, rpt_entry_fix(r->verdict), 0);
        az_buf_puts(x->out, "</p></section>\n");
        if (f && f->nevidence) {
            size_t n = x->c->o->verbose ? f->nevidence : AZ_MIN(f->nevidence, RPT_TOP_EVIDENCE);
            az_buf_puts(x->out, "<h2>Evidence</h2>\n");
            evidence_table(x, f->evidence, n);
        }
        return;
    }
    az_buf_printf(x->out, "<section class=\"verdict none %s\">", corr_outcome_name(r->outcome));
    if (!r->first_error) {
        az_buf_puts(x->out, "<p>No error record was found in the inputs.</p>");
        possible_list(x);
        az_buf_puts(x->out, "</section>\n");
        return;
    }
    az_buf_puts(x->out, "<p><b>First error:</b> ");
    h(x, r->first_error_entry ? rpt_first_error_title(r) : "(unclassified)", 0);
    az_buf_puts(x->out, "</p>");
    if (rpt_first_error_fix(r)[0]) {
        az_buf_puts(x->out, "<p><b>Fix:</b> ");
        h(x, rpt_first_error_fix(r), 0);
        az_buf_puts(x->out, "</p>");
    }
    struct az_buf codes = AZ_BUF_INIT;
    rpt_codes_text(r, &codes);
    if (codes.len) {
        az_buf_puts(x->out, "<p><b>Seen:</b> ");
        h(x, codes.data, 0);
        az_buf_puts(x->out, "</p>");
    }
    az_buf_free(&codes);
    possible_list(x);
    az_buf_puts(x->out, "</section>\n<h2>First error</h2>\n");
    evidence_table(x, r->first_error, 1);
}

static void timeline_table(struct html *x)
{
    const struct corr_result *r = x->c->r;
    if (!r->nevents) return;
    char tbuf[48];
    az_buf_puts(x->out, "<h2>Timeline</h2>\n");
    timeline_svg(x);
    az_buf_printf(x->out,
                  "<details><summary>All %zu events</summary>\n<table><tr><th>time</th>"
                  "<th>where</th><th>event</th><th>finding</th></tr>\n",
                  r->nevents);
    for (size_t i = 0; i < r->nevents; i++) {
        const struct corr_event *e = &r->timeline[i];
        rpt_time_short(r, e->time, e->time_approx, tbuf, sizeof tbuf);
        az_buf_printf(x->out, "<tr><td class=\"mono\">%s</td><td class=\"mono\">", tbuf);
        h(x, e->path, 1);
        if (e->line) az_buf_printf(x->out, ":%llu", (unsigned long long)e->line);
        if (e->lane && e->lane[0]) {
            az_buf_puts(x->out, " [");
            h(x, e->lane, 1);
            az_buf_putc(x->out, ']');
        }
        az_buf_puts(x->out, "</td><td>");
        h(x, e->label, 1);
        az_buf_puts(x->out, "</td><td>");
        if (e->entry_id) h(x, e->entry_id, 0);
        az_buf_puts(x->out, "</td></tr>\n");
    }
    az_buf_puts(x->out, "</table></details>\n");
}

static void weighed(struct html *x)
{
    const struct corr_result *r = x->c->r;
    size_t others = 0;
    for (size_t i = 0; i < r->nfindings; i++) others += r->findings[i].entry != r->verdict;
    if (!others && !r->nruled_out) return;
    az_buf_puts(x->out, "<h2>Also weighed</h2>\n");
    if (others) {
        az_buf_puts(x->out, "<table><tr><th>id</th><th class=\"num\">confidence</th><th>title</th>"
                            "<th>summary</th></tr>\n");
        for (size_t i = 0; i < r->nfindings; i++) {
            const struct corr_finding *f = &r->findings[i];
            if (f->entry == r->verdict) continue;
            az_buf_puts(x->out, "<tr><td>");
            h(x, rpt_entry_id(f->entry), 0);
            az_buf_printf(x->out, "</td><td class=\"num\">%.2f</td><td>",
                          rpt_round2(f->confidence));
            h(x, rpt_entry_title(f->entry), 0);
            az_buf_puts(x->out, "</td><td>");
            h(x, f->summary, 1);
            az_buf_puts(x->out, "</td></tr>\n");
        }
        az_buf_puts(x->out, "</table>\n");
    }
    if (r->nruled_out) {
        az_buf_puts(x->out, "<p><b>Ruled out:</b></p><ul>\n");
        for (size_t i = 0; i < r->nruled_out; i++) {
            az_buf_puts(x->out, "<li><b>");
            h(x, rpt_entry_id(r->ruled_out[i].entry), 0);
            az_buf_puts(x->out, "</b> ");
            h(x, r->ruled_out[i].reason, 1);
            az_buf_puts(x->out, "</li>\n");
        }
        az_buf_puts(x->out, "</ul>\n");
    }
    int any = 0;
    for (size_t i = 0; i < r->nfindings; i++) any |= r->findings[i].nevidence > 0;
    if (!any) return;
    az_buf_puts(x->out, "<details><summary>Evidence of every finding</summary>\n");
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct corr_finding *f = &r->findings[i];
        if (!f->nevidence) continue;
        az_buf_puts(x->out, "<h3>");
        h(x, rpt_entry_id(f->entry), 0);
        az_buf_puts(x->out, " ");
        h(x, rpt_entry_title(f->entry), 0);
        az_buf_puts(x->out, "</h3>\n");
        evidence_table(x, f->evidence, f->nevidence);
    }
    az_buf_puts(x->out, "</details>\n");
}

static void inputs(struct html *x)
{
    const struct corr_result *r = x->c->r;
    char num[40];
    az_buf_printf(x->out,
                  "<details><summary>Inputs (%zu)</summary>\n<table><tr><th>path</th>"
                  "<th>kind</th><th class=\"num\">bytes</th><th class=\"num\">records</th>"
                  "<th>compression</th></tr>\n",
                  r->ninputs);
    for (size_t i = 0; i < r->ninputs; i++) {
        const struct corr_input *in = &r->inputs[i];
        az_buf_puts(x->out, "<tr><td class=\"mono\">");
        h(x, in->path, 1);
        az_buf_puts(x->out, "</td><td>");
        h(x, in->kind, 0);
        rpt_thousands(in->bytes, num, sizeof num);
        az_buf_printf(x->out, "</td><td class=\"num\">%s</td>", num);
        rpt_thousands(in->records, num, sizeof num);
        az_buf_printf(x->out, "<td class=\"num\">%s</td><td>", num);
        h(x, in->compression && in->compression[0] ? in->compression : "none", 0);
        az_buf_puts(x->out, "</td></tr>\n");
    }
    az_buf_puts(x->out, "</table></details>\n");
    size_t nwarn = 0;
    for (size_t i = 0; i < r->nwarnings; i++) nwarn += !rpt_warning_is_skip(r, i);
    if (!r->nskipped && !nwarn) return;
    az_buf_printf(x->out, "<details><summary>Skipped (%zu) and warnings (%zu)</summary><ul>\n",
                  r->nskipped, nwarn);
    for (size_t i = 0; i < r->nskipped; i++) {
        az_buf_puts(x->out, "<li>skipped <span class=\"mono\">");
        h(x, r->skipped[i].path, 1);
        az_buf_puts(x->out, "</span>: ");
        h(x, r->skipped[i].reason, 1);
        az_buf_puts(x->out, "</li>\n");
    }
    for (size_t i = 0; i < r->nwarnings; i++) {
        if (rpt_warning_is_skip(r, i)) continue;
        az_buf_puts(x->out, "<li>warning: ");
        h(x, r->warnings[i], 1);
        az_buf_puts(x->out, "</li>\n");
    }
    az_buf_puts(x->out, "</ul></details>\n");
}

void rpt_write_html(struct rpt *c)
{
    struct html x = {c, &c->out, AZ_BUF_INIT};
    const struct corr_result *r = c->r;
    az_buf_puts(x.out, RPT_HTML_HEAD "<title>" RPT_TOOL_NAME ": ");
    if (r->verdict) {
        h(&x, rpt_entry_id(r->verdict), 0);
        az_buf_putc(x.out, ' ');
        h(&x, rpt_entry_title(r->verdict), 0);
    } else {
        h(&x, rpt_none_title(x.c), 0);
    }
    az_buf_printf(x.out, "</title>\n<style>%s</style>\n</head><body>\n", rpt_html_css);
    header(&x);
    verdict(&x);
    timeline_table(&x);
    series_charts(&x);
    weighed(&x);
    inputs(&x);
    az_buf_puts(x.out, "<footer>Written by " RPT_TOOL_NAME " ");
    h(&x, rpt_tool_version(c), 0);
    az_buf_printf(x.out,
                  "%s. Self-contained: no scripts, no external resources.</footer>\n"
                  "</body></html>\n",
                  c->o->redact ? "; host names, users, addresses and secrets redacted" : "");
    az_buf_free(&x.s1);
}
