/*
 * report/preflight.c - the skill's preflight line format, one line per gotcha of the pack, in
 * pack order (G1, G2, ..., then site ids): "<id> <STATUS>: <text>" (tooling greps ^G[0-9]+ ).
 * What the run's files say, not a live check:
 *   the verdict, or a finding at RPT_HIGH_CONFIDENCE or above -> FAIL with its summary;
 *   any other candidate                                        -> WARN with its summary;
 *   ruled out with a reason                                    -> PASS with the reason;
 *   nothing                                                    -> SKIP: no evidence in the inputs.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_private.h"

static const struct corr_finding *finding_for(const struct corr_result *r, const char *id)
{
    for (size_t i = 0; i < r->nfindings; i++)
        if (strcmp(rpt_entry_id(r->findings[i].entry), id) == 0) return &r->findings[i];
    return NULL;
}

static const struct corr_ruled_out *ruled_out_for(const struct corr_result *r, const char *id)
{
    for (size_t i = 0; i < r->nruled_out; i++)
        if (strcmp(rpt_entry_id(r->ruled_out[i].entry), id) == 0) return &r->ruled_out[i];
    return NULL;
}

/* One line: the text sanitized (so no newline or escape can forge another line). */
static void put_line(struct rpt *c, struct az_buf *tmp, const char *id, const char *status,
                     const char *text, int input)
{
    size_t len;
    const char *p = input ? rpt_input(c, text, &len) : text;
    if (!input) len = strlen(text);
    az_buf_reset(tmp);
    report_sanitize_terminal(tmp, p, len);
    az_buf_printf(&c->out, "%s %s: %.*s", id, status, (int)tmp->len, tmp->data ? tmp->data : "");
}

void rpt_write_preflight(struct rpt *c)
{
    const struct corr_result *r = c->r;
    struct az_buf tmp = AZ_BUF_INIT;
    /* every gotcha of the pack in pack order (those the result does not name are SKIP); without
     * the pack, the result's findings and ruled-out entries */
    size_t np = c->pack ? match_pack_entry_count(c->pack) : 0;
    size_t n = r->nfindings + r->nruled_out + np;
    const struct match_entry **gs = az_xcalloc(n ? n : 1, sizeof *gs);
    size_t ng = 0;
    for (size_t i = 0; i < np; i++)
        if (match_pack_entry(c->pack, i)->family == MATCH_FAMILY_GOTCHA)
            gs[ng++] = match_pack_entry(c->pack, i);
    for (size_t i = 0; !np && i < r->nfindings; i++)
        if (r->findings[i].entry->family == MATCH_FAMILY_GOTCHA) gs[ng++] = r->findings[i].entry;
    for (size_t i = 0; !np && i < r->nruled_out; i++) gs[ng++] = r->ruled_out[i].entry;
    for (size_t i = 1; i < ng; i++)
        for (size_t j = i; j > 0 && gs[j - 1]->order > gs[j]->order; j--) {
            const struct match_entry *t = gs[j];
            gs[j] = gs[j - 1];
            gs[j - 1] = t;
        }
    for (size_t g = 0; g < ng; g++) {
        const char *id = rpt_entry_id(gs[g]);
        const struct corr_finding *f = finding_for(r, id);
        const struct corr_ruled_out *ro = ruled_out_for(r, id);
        if (f) {
            int found = (r->verdict && f->entry == r->verdict) ||
                        rpt_round2(f->confidence) >= RPT_HIGH_CONFIDENCE;
            const char *what = f->summary && f->summary[0] ? f->summary : rpt_entry_title(f->entry);
            put_line(c, &tmp, id, found ? "FAIL" : "WARN", what, f->summary && f->summary[0]);
            az_buf_printf(&c->out, " (confidence %.2f", rpt_round2(f->confidence));
            if (f->nevidence) {
                const struct corr_evidence *e = &f->evidence[0];
                size_t len;
                const char *p = rpt_input(c, e->path, &len);
                az_buf_reset(&tmp);
                report_sanitize_terminal(&tmp, p, len);
                az_buf_printf(&c->out, "; %.*s:%llu", (int)tmp.len, tmp.data ? tmp.data : "",
                              (unsigned long long)e->line);
            }
            az_buf_puts(&c->out, ")\n");
        } else if (ro && ro->reason && ro->reason[0]) {
            put_line(c, &tmp, id, "PASS", ro->reason, 1);
            az_buf_putc(&c->out, '\n');
        } else {
            put_line(c, &tmp, id, "SKIP", "no evidence in the inputs", 0);
            az_buf_putc(&c->out, '\n');
        }
    }
    free((void *)gs);
    az_buf_free(&tmp);
}
