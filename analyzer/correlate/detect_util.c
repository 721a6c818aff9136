/* correlate/detect_util.c - what every primitive family reads the run with, below them all: a
 * claim added, kept records visited (per entry, per fact, earliest and latest), entries and tags
 * looked up, the hosts the logs name, a record's clock and place, a detector record at a series
 * point, package and kind lists matched. It calls only the correlator's core (collect.c,
 * series.c, timeline.c), never a primitive, and names no pack id. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/detect_private.h"

struct corr_claim *corr_claim_add(struct corr_state *st, const struct match_entry *e, double weight,
                                  double factor, const struct corr_rec *rec, char *note,
                                  char *summary, char *reason)
{
    az_grow((void **)&st->claims, &st->capclaims, st->nclaims + 1, sizeof *st->claims);
    struct corr_claim *c = &st->claims[st->nclaims++];
    memset(c, 0, sizeof *c);
    c->entry = e;
    c->weight = weight;
    c->factor = factor;
    c->strength = -1;
    c->rec = rec;
    c->note = note;
    c->summary = summary;
    c->reason = reason;
    return c;
}

/* ---- iteration helpers ---- */

void corr_visit_tramp(void *vctx, const struct corr_rec *r)
{
    struct visit_ctx *v = vctx;
    v->fn(v->st, v->ctx, r);
}

/* Every kept record of the entry (or, e NULL, of every entry). */
void corr_each_rec(struct corr_state *st, const struct match_entry *e, rec_visit_fn fn, void *ctx)
{
    struct visit_ctx v = {st, fn, ctx};
    for (size_t s = 0; s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (e && sig->entry != e) continue;
        corr_sig_each(st, s, corr_visit_tramp, &v);
    }
}

/* The earliest (or, with latest, the last) kept record that has the fact (NULL when none). */
struct fact_find {
    const char *fact;
    int latest;
    const struct corr_rec *best;
};

static void fact_find_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct fact_find *f = vctx;
    if (!corr_rec_fact(r, f->fact)) return;
    int c = f->best ? corr_rec_cmp(st, r, f->best) : 0;
    if (!f->best || (f->latest ? c > 0 : c < 0)) f->best = r;
}

const struct corr_rec *corr_find_fact_at(struct corr_state *st, const struct match_entry *e,
                                         const char *fact, int latest)
{
    struct fact_find f = {fact, latest, NULL};
    if (fact) corr_each_rec(st, e, fact_find_visit, &f);
    return f.best;
}

const struct corr_rec *corr_find_fact(struct corr_state *st, const struct match_entry *e,
                                      const char *fact)
{
    return corr_find_fact_at(st, e, fact, 0);
}

const char *corr_fact_str(const struct corr_rec *r, const char *fact)
{
    const struct corr_fact_copy *f = r && fact ? corr_rec_fact(r, fact) : NULL;
    return f ? f->val : NULL;
}

double corr_fact_num(const struct corr_rec *r, const char *fact)
{
    const struct corr_fact_copy *f = r && fact ? corr_rec_fact(r, fact) : NULL;
    if (!f) return NAN;
    if (!isnan(f->num)) return f->num;
    double v;
    return tok_parse_double(f->val, strlen(f->val), &v) ? NAN : v;
}

const struct match_entry *corr_entry_of(const struct corr_state *st, const char *id)
{
    return id ? match_pack_find_entry(st->pack, id) : NULL;
}

int corr_entry_hit(const struct corr_state *st, const struct match_entry *e)
{
    for (size_t i = 0; e && i < e->nsigs; i++)
        if (e->sigs[i]->index < st->nsigs && st->sigs[e->sigs[i]->index]) return 1;
    return 0;
}

const struct corr_rec *corr_entry_earliest(const struct corr_state *st, const struct match_entry *e)
{
    const struct corr_rec *best = NULL;
    for (size_t i = 0; e && i < e->nsigs; i++) {
        const struct corr_rec *r = corr_sig_earliest(st, e->sigs[i]->index);
        if (r && (!best || corr_rec_cmp(st, r, best) < 0)) best = r;
    }
    return best;
}

/* Earliest kept record of the signature with that id, or NULL. */
const struct corr_rec *corr_find_sig_rec(const struct corr_state *st, const char *sig_id)
{
    const struct match_sig *s = sig_id ? match_pack_find_sig(st->pack, sig_id) : NULL;
    return s && s->index < st->nsigs && st->sigs[s->index] ? corr_sig_earliest(st, s->index) : NULL;
}

/* Earliest kept record of any signature with the tag (of a gotcha or common entry and not
 * context-strength when failures_only), or NULL. */
const struct corr_rec *corr_tag_earliest(const struct corr_state *st, const char *tag,
                                         int failures_only)
{
    const struct corr_rec *best = NULL;
    for (size_t s = 0; tag && s < st->nsigs; s++) {
        if (!st->sigs[s]) continue;
        const struct match_sig *sig = match_pack_sig(st->pack, s);
        if (!match_sig_has_tag(sig, tag)) continue;
        if (failures_only &&
            (sig->strength == MATCH_CONTEXT || (sig->entry->family != MATCH_FAMILY_GOTCHA &&
                                                sig->entry->family != MATCH_FAMILY_COMMON)))
            continue;
        const struct corr_rec *r = corr_sig_earliest(st, s);
        if (r && (!best || corr_rec_cmp(st, r, best) < 0)) best = r;
    }
    return best;
}

int corr_contains(const char *s, const char *needle)
{
    return s && needle && az_memcasemem(s, strlen(s), needle, strlen(needle)) != NULL;
}

/* 1 when name contains one of the list's strings. */
int corr_contains_any(const char *name, const struct match_value *list)
{
    for (size_t i = 0; list && i < list->nlist; i++)
        if (corr_contains(name, list->list[i])) return 1;
    return 0;
}

/* A rule's "when_tag": 1 when absent, else when a failure line carries the tag. */
int corr_when_tag(const struct corr_rule_run *rr)
{
    const char *t = corr_rule_str(rr, "when_tag");
    return !t || corr_tag_earliest(rr->st, t, 1) != NULL;
}

/* A rule's "when_tags": 1 when absent, else when a failure line carries one of the tags. */
int corr_when_tags(const struct corr_rule_run *rr)
{
    const struct match_value *l = corr_rule_list(rr, "when_tags");
    for (size_t i = 0; l && i < l->nlist; i++)
        if (corr_tag_earliest(rr->st, l->list[i], 1)) return 1;
    return !l;
}

/* ---- hosts: the machines the logs show ---- */

static void host_set_add(struct host_set *h, const char *p, size_t len)
{
    if (!len || len >= CORR_LANE_MAX) return;
    for (size_t i = 0; i < h->n; i++)
        if (strlen(h->name[i]) == len && !memcmp(h->name[i], p, len)) return;
    if (h->n >= RUN_HOSTS_MAX) return;
    memcpy(h->name[h->n], p, len);
    h->name[h->n][len] = '\0';
    h->n++;
}

/* NCCL prefixes every line with "host:pid:tid [dev] NCCL"; under Ray or torchrun that prefix sits
 * after the launcher's own ("(RayWorkerWrapper pid=2790, ip=...) spark-b:2790:2790 [0] NCCL"),
 * where the tokenizer's lane parser does not look. */
static void nccl_host_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct host_set *h = vctx;
    const char *t = r->text;
    if (!t) return;
    const char *m = strstr(t, "] NCCL ");
    if (!m) return;
    const char *b = m;
    while (b > t && b[-1] != '[') b--; /* the "[dev]" */
    if (b == t) return;
    const char *e = b - 1; /* at '[' */
    while (e > t && e[-1] == ' ') e--;
    const char *s = e;
    while (s > t && s[-1] != ' ' && s[-1] != ')' && s[-1] != ']') s--;
    /* s..e is "host:pid:tid" */
    const char *c1 = memchr(s, ':', (size_t)(e - s));
    if (!c1 || c1 == s) return;
    const char *q = c1 + 1;
    size_t digits = 0;
    while (q < e && (isdigit((unsigned char)*q) || *q == ':')) q++, digits++;
    if (q != e || digits < 3) return;
    host_set_add(h, s, (size_t)(c1 - s));
}

/* Hosts named by syslog/lane prefixes and by NCCL line prefixes. */
struct host_set corr_run_hosts(struct corr_state *st)
{
    struct host_set h;
    memset(&h, 0, sizeof h);
    for (size_t i = 0; i < st->nhosts; i++) host_set_add(&h, st->hosts[i], strlen(st->hosts[i]));
    corr_each_rec(st, NULL, nccl_host_visit, &h);
    return h;
}

void corr_fmt_clock(const struct corr_state *st, struct az_time t, char *out, size_t n)
{
    (void)st;
    if (t.kind == AZ_TIME_ABS)
        az_time_format_clock(t, out, n);
    else
        az_time_format(t, 0, out, n);
    if (!*out) snprintf(out, n, "?");
}

const char *corr_where(const struct corr_state *st, const struct corr_rec *r, char *buf, size_t n)
{
    snprintf(buf, n, "%s:%llu", corr_file_path(st, r->file), (unsigned long long)r->line);
    return buf;
}

/* A detector evidence record at a series point. */
const struct corr_rec *corr_series_rec(struct corr_state *st, const struct corr_sbuild *b, size_t i,
                                       const char *text)
{
    struct az_time t = {0, AZ_TIME_NONE};
    if (!b->approx || b->tkind != AZ_TIME_NONE) {
        if (st->have_run_clock && !isnan(b->pts[i].t)) {
            t.kind = st->clock_kind;
            t.usec = st->run_start + (int64_t)(b->pts[i].t * 1e6);
        }
    }
    struct corr_rec *r = corr_det_rec(st, b->file, b->pts[i].line, t, text);
    r->approx = b->approx;
    free(r->lane);
    r->lane = az_xstrdup(b->lane);
    return r;
}

/* Does pkg (compared up to a version separator) name one of the list's packages? */
int corr_key_package(const char *pkg, const struct match_value *keys)
{
    if (!pkg || !keys) return 0;
    size_t n = 0;
    while (pkg[n] && pkg[n] != ' ' && pkg[n] != '=' && pkg[n] != '<' && pkg[n] != '>' &&
           !(pkg[n] == '-' && isdigit((unsigned char)pkg[n + 1])))
        n++;
    for (size_t i = 0; i < keys->nlist; i++) {
        const char *k = keys->list[i];
        size_t kl = strlen(k);
        if (n != kl) continue;
        size_t j = 0;
        while (j < kl && tolower((unsigned char)pkg[j]) == tolower((unsigned char)k[j])) j++;
        if (j == kl) return 1;
    }
    return 0;
}

double corr_median_of_tail(const struct corr_sbuild *b)
{
    size_t lo = b->n / 2, n = b->n - lo;
    if (!n) return NAN;
    double *v = az_xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) v[i] = b->pts[lo + i].v;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    double m = v[n / 2];
    free(v);
    return m;
}

/* 1 when the kind is in a "train" or "vllm|stderr" group. */
int corr_kind_in_group(enum tok_kind k, const char *group)
{
    const char *name = tok_kind_name(k);
    size_t n = strlen(name);
    for (const char *p = group; *p;) {
        const char *e = strchr(p, '|');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == n && !memcmp(p, name, n)) return 1;
        p += l + (e != NULL);
    }
    return 0;
}
