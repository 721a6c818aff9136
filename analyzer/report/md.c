/*
 * report/md.c - the Markdown report, ready to paste into a GitHub issue: a summary table, the
 * verdict and its fix, evidence in fenced blocks, the long parts folded in <details>.
 *
 * Log text never escapes its place: inline text is stripped of controls, its Markdown
 * punctuation backslash-escaped and < > & written as entities (so "</details>" stays text);
 * a fenced block uses a fence longer than any backtick run inside it.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_private.h"

struct md {
    struct rpt *c;
    struct az_buf *out;
    struct az_buf s1, s2;
};

/* Append s for inline Markdown (paragraphs and table cells). */
static void inline_text(struct md *m, const char *s, int input)
{
    size_t len;
    const char *p = input ? rpt_input(m->c, s, &len) : (s ? s : "");
    if (!input) len = strlen(p);
    az_buf_reset(&m->s1);
    report_sanitize_terminal(&m->s1, p, len);
    for (size_t i = 0; i < m->s1.len; i++) {
        char ch = m->s1.data[i];
        switch (ch) {
        case '<': az_buf_puts(m->out, "&lt;"); break;
        case '>': az_buf_puts(m->out, "&gt;"); break;
        case '&': az_buf_puts(m->out, "&amp;"); break;
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '|':
        case '~':
        case '#':
        case '!':
        case '(':
        case ')':
            az_buf_putc(m->out, '\\');
            az_buf_putc(m->out, ch);
            break;
        default: az_buf_putc(m->out, ch); break;
        }
    }
}

/* The sanitized (and redacted) text of s into b, appended. */
static void block_text(struct md *m, struct az_buf *b, const char *s, int input)
{
    size_t len;
    const char *p = input ? rpt_input(m->c, s, &len) : (s ? s : "");
    if (!input) len = strlen(p);
    report_sanitize_terminal(b, p, len);
}

/* Put body (lines, each ending in \n) in a fenced block whose fence outruns any backtick run. */
static void fenced(struct md *m, const struct az_buf *body)
{
    size_t longest = 0, run = 0;
    for (size_t i = 0; i < body->len; i++) {
        run = body->data[i] == '`' ? run + 1 : 0;
        longest = AZ_MAX(longest, run);
    }
    size_t n = AZ_MAX((size_t)3, longest + 1);
    for (size_t i = 0; i < n; i++) az_buf_putc(m->out, '`');
    az_buf_puts(m->out, "text\n");
    if (body->len) az_buf_append(m->out, body->data, body->len);
    for (size_t i = 0; i < n; i++) az_buf_putc(m->out, '`');
    az_buf_puts(m->out, "\n\n");
}

/* "path:line" of an evidence record, sanitized, into b (reset first). */
static void loc_text(struct md *m, struct az_buf *b, const struct corr_evidence *e)
{
    az_buf_reset(b);
    block_text(m, b, e->path, 1);
    if (e->line) az_buf_printf(b, ":%llu", (unsigned long long)e->line);
    az_buf_ensure(b, 0);
}

static void pad_to(struct az_buf *b, size_t from_cols, size_t cols)
{
    for (size_t w = from_cols; w < cols; w++) az_buf_putc(b, ' ');
}

static void evidence_block(struct md *m, const struct corr_evidence *ev, size_t n)
{
    struct az_buf body = AZ_BUF_INIT;
    char tbuf[48];
    size_t locw = 0, timew = 0;
    for (size_t i = 0; i < n; i++) {
        loc_text(m, &m->s2, &ev[i]);
        locw = AZ_MAX(locw, rpt_columns(m->s2.data, m->s2.len));
        rpt_time_short(m->c->r, ev[i].time, ev[i].time_approx, tbuf, sizeof tbuf);
        timew = AZ_MAX(timew, strlen(tbuf));
    }
    for (size_t i = 0; i < n; i++) {
        loc_text(m, &m->s2, &ev[i]);
        az_buf_append(&body, m->s2.data, m->s2.len);
        pad_to(&body, rpt_columns(m->s2.data, m->s2.len), locw);
        rpt_time_short(m->c->r, ev[i].time, ev[i].time_approx, tbuf, sizeof tbuf);
        if (timew) {
            az_buf_printf(&body, "  %s", tbuf);
            pad_to(&body, strlen(tbuf), timew);
        }
        az_buf_puts(&body, "  ");
        block_text(m, &body, ev[i].text, 1);
        if (ev[i].note && ev[i].note[0]) {
            az_buf_puts(&body, "  # ");
            block_text(m, &body, ev[i].note, 1);
        }
        az_buf_putc(&body, '\n');
    }
    fenced(m, &body);
    az_buf_free(&body);
}

static void summary_table(struct md *m)
{
    const struct corr_result *r = m->c->r;
    char num[40], span[160], why[RPT_OUTCOME_WHY_MAX];
    az_buf_printf(m->out, "| | |\n|---|---|\n| **Outcome** | **%s** \xe2\x80\x94 %s",
                  corr_outcome_name(r->outcome), rpt_outcome_why(r, why, sizeof why));
    if (r->outcome_at) {
        az_buf_putc(m->out, ' ');
        inline_text(m, r->outcome_at->path, 1);
        az_buf_printf(m->out, ":%llu", (unsigned long long)r->outcome_at->line);
    }
    az_buf_puts(m->out, " |\n| **Verdict** | ");
    if (r->verdict) {
        inline_text(m, rpt_entry_id(r->verdict), 0);
        az_buf_puts(m->out, " \xe2\x80\x94 ");
        inline_text(m, rpt_entry_title(r->verdict), 0);
        az_buf_printf(m->out, " |\n| **Confidence** | %.2f |\n", rpt_round2(r->confidence));
    } else {
        inline_text(m, rpt_none_title(m->c), 0);
        az_buf_puts(m->out, " |\n");
        if (r->first_error) {
            az_buf_puts(m->out, "| **First error** | ");
            inline_text(m, r->first_error_entry ? rpt_first_error_title(r) : "(unclassified)", 0);
            az_buf_puts(m->out, " at ");
            inline_text(m, r->first_error->path, 1);
            az_buf_printf(m->out, ":%llu |\n", (unsigned long long)r->first_error->line);
        }
    }
    rpt_thousands(r->records, num, sizeof num);
    az_buf_printf(m->out, "| **Inputs** | %zu input%s, %s records |\n", r->ninputs,
                  r->ninputs == 1 ? "" : "s", num);
    rpt_span_text(r, span, sizeof span);
    if (span[0]) az_buf_printf(m->out, "| **Span** | %s |\n", span);
    char *ctx = rpt_context_text(m->c);
    if (ctx[0]) {
        az_buf_puts(m->out, "| **Context** | ");
        inline_text(m, ctx, 1);
        az_buf_puts(m->out, " |\n");
    }
    free(ctx);
    az_buf_puts(m->out, "| **Tool** | " RPT_TOOL_NAME " ");
    inline_text(m, rpt_tool_version(m->c), 0);
    az_buf_puts(m->out, " |\n\n");
}

static void verdict_section(struct md *m)
{
    const struct corr_result *r = m->c->r;
    const struct corr_finding *f = rpt_verdict_finding(r);
    if (f && f->summary && f->summary[0]) {
        inline_text(m, f->summary, 1);
        az_buf_puts(m->out, "\n\n");
    }
    if (rpt_entry_fix(r->verdict)[0]) {
        az_buf_puts(m->out, "**Fix:** ");
        inline_text(m, rpt_entry_fix(r->verdict), 0);
        az_buf_puts(m->out, "\n\n");
    }
    if (f && f->nevidence) {
        size_t n = m->c->o->verbose ? f->nevidence : AZ_MIN(f->nevidence, RPT_TOP_EVIDENCE);
        az_buf_puts(m->out, "**Evidence**\n\n");
        evidence_block(m, f->evidence, n);
    }
}

/* A code span of s (from the pack), its fence longer than any backtick run inside: a span shows
 * its text literally, so nothing inside is escaped. */
static void code_span(struct md *m, const char *s)
{
    az_buf_reset(&m->s1);
    report_sanitize_terminal(&m->s1, s ? s : "", s ? strlen(s) : 0);
    size_t longest = 0, run = 0;
    for (size_t i = 0; i < m->s1.len; i++) {
        run = m->s1.data[i] == '`' ? run + 1 : 0;
        longest = AZ_MAX(longest, run);
    }
    int pad = m->s1.len && (m->s1.data[0] == '`' || m->s1.data[m->s1.len - 1] == '`');
    for (size_t i = 0; i <= longest; i++) az_buf_putc(m->out, '`');
    if (pad) az_buf_putc(m->out, ' ');
    az_buf_append(m->out, m->s1.data, m->s1.len);
    if (pad) az_buf_putc(m->out, ' ');
    for (size_t i = 0; i <= longest; i++) az_buf_putc(m->out, '`');
}

/* "**Possible:** G7 if <fact> — `command` (path:line)", one item each. */
static void possible_list(struct md *m)
{
    const struct corr_result *r = m->c->r;
    for (size_t i = 0; i < r->npossible; i++) {
        const struct corr_possible *p = &r->possible[i];
        az_buf_puts(m->out, "- **Possible:** ");
        inline_text(m, rpt_entry_id(p->entry), 0);
        az_buf_puts(m->out, " if ");
        inline_text(m, p->fact, 0);
        az_buf_puts(m->out, " \xe2\x80\x94 ");
        code_span(m, p->command);
        az_buf_puts(m->out, " \\(");
        inline_text(m, p->seen.path, 1);
        az_buf_printf(m->out, ":%llu\\)\n", (unsigned long long)p->seen.line);
    }
    if (r->npossible) az_buf_putc(m->out, '\n');
}

static void none_error(struct md *m);

static void none_section(struct md *m)
{
    none_error(m);
    possible_list(m);
}

static void none_error(struct md *m)
{
    const struct corr_result *r = m->c->r;
    if (!r->first_error) {
        az_buf_puts(m->out, "No error record was found in the inputs.\n\n");
        return;
    }
    az_buf_puts(m->out, "**First error:** ");
    inline_text(m, r->first_error_entry ? rpt_first_error_title(r) : "(unclassified)", 0);
    az_buf_puts(m->out, "\n\n");
    evidence_block(m, r->first_error, 1);
    if (rpt_first_error_fix(r)[0]) {
        az_buf_puts(m->out, "**Fix:** ");
        inline_text(m, rpt_first_error_fix(r), 0);
        az_buf_puts(m->out, "\n\n");
    }
    struct az_buf codes = AZ_BUF_INIT;
    rpt_codes_text(r, &codes);
    if (codes.len) {
        az_buf_puts(m->out, "**Seen:** ");
        inline_text(m, codes.data, 0);
        az_buf_puts(m->out, "\n\n");
    }
    az_buf_free(&codes);
}

static void timeline_section(struct md *m)
{
    const struct corr_result *r = m->c->r;
    if (!r->nevents) return;
    struct az_buf body = AZ_BUF_INIT;
    char tbuf[48];
    az_buf_printf(m->out, "<details><summary>Timeline (%zu events)</summary>\n\n", r->nevents);
    for (size_t i = 0; i < r->nevents; i++) {
        const struct corr_event *e = &r->timeline[i];
        rpt_time_short(r, e->time, e->time_approx, tbuf, sizeof tbuf);
        az_buf_printf(&body, "%-9s  ", tbuf);
        block_text(m, &body, e->path, 1);
        if (e->line) az_buf_printf(&body, ":%llu", (unsigned long long)e->line);
        if (e->lane && e->lane[0]) {
            az_buf_puts(&body, " [");
            block_text(m, &body, e->lane, 1);
            az_buf_putc(&body, ']');
        }
        az_buf_puts(&body, "  ");
        block_text(m, &body, e->label, 1);
        if (e->entry_id) {
            az_buf_puts(&body, "  (");
            block_text(m, &body, e->entry_id, 0);
            az_buf_putc(&body, ')');
        }
        az_buf_putc(&body, '\n');
    }
    fenced(m, &body);
    az_buf_puts(m->out, "</details>\n\n");
    az_buf_free(&body);
}

static void findings_section(struct md *m)
{
    const struct corr_result *r = m->c->r;
    if (!r->nfindings) return;
    az_buf_printf(m->out, "<details><summary>All findings (%zu)</summary>\n\n", r->nfindings);
    az_buf_puts(m->out, "| id | confidence | title | summary |\n|---|---|---|---|\n");
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct corr_finding *f = &r->findings[i];
        az_buf_puts(m->out, "| ");
        inline_text(m, rpt_entry_id(f->entry), 0);
        az_buf_printf(m->out, " | %.2f | ", rpt_round2(f->confidence));
        inline_text(m, rpt_entry_title(f->entry), 0);
        az_buf_puts(m->out, " | ");
        inline_text(m, f->summary, 1);
        az_buf_puts(m->out, " |\n");
    }
    az_buf_putc(m->out, '\n');
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct corr_finding *f = &r->findings[i];
        if (!f->nevidence) continue;
        az_buf_puts(m->out, "**");
        inline_text(m, rpt_entry_id(f->entry), 0);
        az_buf_puts(m->out, "** ");
        inline_text(m, rpt_entry_title(f->entry), 0);
        az_buf_puts(m->out, "\n\n");
        evidence_block(m, f->evidence, f->nevidence);
    }
    az_buf_puts(m->out, "</details>\n\n");
}

static void ruled_out_section(struct md *m)
{
    const struct corr_result *r = m->c->r;
    if (!r->nruled_out) return;
    az_buf_puts(m->out, "**Ruled out**\n\n");
    for (size_t i = 0; i < r->nruled_out; i++) {
        az_buf_puts(m->out, "- **");
        inline_text(m, rpt_entry_id(r->ruled_out[i].entry), 0);
        az_buf_puts(m->out, "** ");
        inline_text(m, r->ruled_out[i].reason, 1);
        az_buf_putc(m->out, '\n');
    }
    az_buf_putc(m->out, '\n');
}

static void inputs_section(struct md *m)
{
    const struct corr_result *r = m->c->r;
    char num[40];
    if (r->ninputs) {
        az_buf_printf(m->out, "<details><summary>Inputs (%zu)</summary>\n\n", r->ninputs);
        az_buf_puts(m->out,
                    "| path | kind | bytes | records | compression |\n|---|---|---:|---:|---|\n");
        for (size_t i = 0; i < r->ninputs; i++) {
            const struct corr_input *in = &r->inputs[i];
            az_buf_puts(m->out, "| ");
            inline_text(m, in->path, 1);
            az_buf_puts(m->out, " | ");
            inline_text(m, in->kind, 0);
            rpt_thousands(in->bytes, num, sizeof num);
            az_buf_printf(m->out, " | %s | ", num);
            rpt_thousands(in->records, num, sizeof num);
            az_buf_printf(m->out, "%s | ", num);
            inline_text(m, in->compression && in->compression[0] ? in->compression : "none", 0);
            az_buf_puts(m->out, " |\n");
        }
        az_buf_puts(m->out, "\n</details>\n\n");
    }
    size_t nwarn = 0;
    for (size_t i = 0; i < r->nwarnings; i++) nwarn += !rpt_warning_is_skip(r, i);
    if (r->nskipped || nwarn) {
        az_buf_printf(m->out, "<details><summary>Skipped (%zu) and warnings (%zu)</summary>\n\n",
                      r->nskipped, nwarn);
        for (size_t i = 0; i < r->nskipped; i++) {
            az_buf_puts(m->out, "- skipped ");
            inline_text(m, r->skipped[i].path, 1);
            az_buf_puts(m->out, ": ");
            inline_text(m, r->skipped[i].reason, 1);
            az_buf_putc(m->out, '\n');
        }
        for (size_t i = 0; i < r->nwarnings; i++) {
            if (rpt_warning_is_skip(r, i)) continue;
            az_buf_puts(m->out, "- warning: ");
            inline_text(m, r->warnings[i], 1);
            az_buf_putc(m->out, '\n');
        }
        az_buf_puts(m->out, "\n</details>\n\n");
    }
}

void rpt_write_md(struct rpt *c)
{
    struct md m = {c, &c->out, AZ_BUF_INIT, AZ_BUF_INIT};
    const struct corr_result *r = c->r;
    az_buf_puts(m.out, "## gotcha: ");
    if (r->verdict) {
        inline_text(&m, rpt_entry_id(r->verdict), 0);
        az_buf_putc(m.out, ' ');
        inline_text(&m, rpt_entry_title(r->verdict), 0);
    } else {
        inline_text(&m, rpt_none_title(m.c), 0);
    }
    az_buf_puts(m.out, "\n\n");
    summary_table(&m);
    if (r->verdict)
        verdict_section(&m);
    else
        none_section(&m);
    timeline_section(&m);
    findings_section(&m);
    ruled_out_section(&m);
    inputs_section(&m);
    az_buf_free(&m.s1);
    az_buf_free(&m.s2);
}
