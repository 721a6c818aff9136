/* correlate/detect_group.c - primitives about what shares a machine and what spans machines:
 * coresident (processes sharing one memory pool, and their caps) and tp-nodes (a tensor-parallel
 * group over more than one machine: its size, the hosts and nodes the logs show, and what the
 * group did). The fact names, entries and words they read are the rule's parameters. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/detect_private.h"

/* The largest value of a numeric fact over every kept record (tp_size 2 beats a baseline's 1). */
struct fact_max {
    const char *fact;
    const struct corr_rec *rec;
    double v;
};

static void fact_max_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct fact_max *m = vctx;
    double v = corr_fact_num(r, m->fact);
    if (isnan(v)) return;
    if (isnan(m->v) || v > m->v || (v == m->v && corr_rec_cmp(st, r, m->rec) < 0)) {
        m->v = v;
        m->rec = r;
    }
}

/* ---- coresident: processes sharing one memory pool, and their caps ---- */

struct proc_scan {
    const struct match_value *servers;
    size_t n;
    char names[8][64];
    double mem[8];
    const struct corr_rec *rec[8];
    int server;
};

static void proc_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct proc_scan *p = vctx;
    const char *name = corr_fact_str(r, "process");
    const char *pid = corr_fact_str(r, "pid");
    double mem = corr_fact_num(r, "mem_used");
    const char *ms = corr_fact_str(r, "mem_used");
    if (isnan(mem) && ms && isdigit((unsigned char)*ms)) {
        /* nvidia-smi's process table says "66581MiB": a size the pack leaves as text */
        char *end;
        double v = strtod(ms, &end);
        if (!strncmp(end, "MiB", 3))
            mem = v * 1024 * 1024;
        else if (!strncmp(end, "GiB", 3))
            mem = v * GIB;
    }
    char key[64];
    snprintf(key, sizeof key, "%s", pid ? pid : name ? name : "?");
    if (corr_contains_any(name, p->servers)) p->server = 1;
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->names[i], key)) return;
    if (p->n >= 8) return;
    snprintf(p->names[p->n], sizeof p->names[p->n], "%s", key);
    p->mem[p->n] = mem;
    p->rec[p->n] = r;
    p->n++;
}

/* 1 when the kind is named in the list. */
static int kind_listed(enum tok_kind k, const struct match_value *list)
{
    for (size_t i = 0; list && i < list->nlist; i++)
        if (corr_kind_in_group(k, list->list[i])) return 1;
    return 0;
}

void corr_prim_coresident(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct match_entry *self = rr->rule->entry;
    struct proc_scan p;
    memset(&p, 0, sizeof p);
    p.servers = corr_rule_list(rr, "server_names");
    corr_each_rec(st, corr_entry_of(st, S("processes")), proc_visit, &p);
    size_t heavy = 0, sized = 0;
    double heavy_gib = 0;
    const struct corr_rec *second = NULL;
    struct az_buf desc = AZ_BUF_INIT;
    for (size_t i = 0; i < p.n; i++) {
        /* mem_used is bytes when the pack types it so; small numbers are MiB. */
        double m = p.mem[i];
        double gib = isnan(m) ? NAN : m > 1e6 ? m / GIB : m / 1024;
        const char *pn = corr_fact_str(p.rec[i], "process");
        if (!isnan(gib) && gib < N("min_gib")) continue;
        if (isnan(gib) && !corr_contains_any(pn, corr_rule_list(rr, "compute_names")))
            continue; /* Xorg, gnome-shell: no size, not a compute job */
        heavy++;
        if (!isnan(gib)) heavy_gib += gib, sized++;
        if (heavy == 2) second = p.rec[i];
        az_buf_printf(&desc, "%s%s", desc.len ? ", " : "", pn ? pn : p.names[i]);
        if (!isnan(gib)) az_buf_printf(&desc, " (%.1f GiB)", gib);
    }
    int server = p.server, train = 0;
    for (size_t i = 0; i < st->nfiles; i++) {
        if (kind_listed(st->files[i].kind, corr_rule_list(rr, "server_kinds"))) server = 1;
        if (kind_listed(st->files[i].kind, corr_rule_list(rr, "job_kinds"))) train = 1;
    }
    /* The pool is per machine. A process table is one machine's; a server log and a training log
     * side by side are one machine's only when the run is not spread over several hosts. */
    struct fact_max nm = {S("nodes_fact"), NULL, NAN};
    corr_each_rec(st, NULL, fact_max_visit, &nm);
    struct host_set hs = corr_run_hosts(st);
    int multi_host = hs.n >= 2 || (!isnan(nm.v) && nm.v >= 2);
    int kinds_coloc = server && train && !multi_host;
    int coloc = heavy >= 2 || kinds_coloc;
    rr->coresident = coloc;
    double pool = N("pool_gib");
    /* Two heavy processes that together fill the pool: the one-heavy-job rule is broken whatever
     * either one's own cap says. */
    int near_full = heavy >= 2 && sized >= 2 && heavy_gib >= N("full_share") * pool;
    const struct corr_rec *srv = corr_find_sig_rec(st, S("server"));
    const struct corr_rec *cfg0 = corr_entry_earliest(st, corr_entry_of(st, S("config")));
    if (cfg0 && (!srv || corr_rec_cmp(st, cfg0, srv) < 0)) srv = cfg0;
    const struct corr_rec *cfg = corr_find_fact(st, corr_entry_of(st, S("config")), S("util_fact"));
    if (!cfg) cfg = corr_find_fact(st, self, S("util_fact"));
    double util = corr_fact_num(cfg, S("util_fact"));
    struct corr_var v[] = {
        VN("count", (double)heavy), VS("list", desc.data ? desc.data : ""),
        VN("gib", heavy_gib),       VN("pool", pool),
        VN("util", util),           VN("hosts", hs.n >= 2 ? (double)hs.n : nm.v)};
    size_t nv = AZ_ARRAY_LEN(v);
    if (heavy >= 2)
        corr_rule_claim(rr, "second_process", second, v, nv);
    else if (kinds_coloc)
        corr_rule_claim(rr, "same_run", srv, v, nv);
    else if (server && train && multi_host)
        corr_rule_claim(rr, "multi_host", NULL, v, nv);
    if (near_full) corr_rule_claim(rr, "near_full", second, v, nv);
    if (coloc && !isnan(util) && util > N("util_cap"))
        corr_rule_claim(rr, "uncapped", cfg, v, nv);
    else if (coloc && server && isnan(util))
        corr_rule_claim(rr, "default_cap", srv, v, nv);
    else if (!isnan(util) && util <= N("util_cap") && !near_full)
        corr_rule_claim(rr, "capped", cfg, v, nv);
    if (!coloc && !corr_entry_hit(st, self))
        corr_rule_claim(rr, p.n ? "none_heavy" : "none", NULL, v, nv);
    az_buf_free(&desc);
}

/* ---- tp-nodes: tensor parallelism over more than one machine ---- */

/* The latest kept record of the entry (NULL when none). */
struct latest_scan {
    const struct corr_rec *best;
};

static void latest_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct latest_scan *l = vctx;
    if (!l->best || corr_rec_cmp(st, r, l->best) > 0) l->best = r;
}

/* The run's earliest root failure of another entry than skip1 and skip2: a strong or decisive
 * root line of a gotcha or common entry that reads as an error. Cascades, context and noise
 * never stop a run on their own. */
struct other_root_scan {
    const struct match_entry *skip1, *skip2;
    const struct match_value *hang_words; /* an error naming one is the group's own stall */
    const struct corr_rec *best;
};

static void other_root_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct other_root_scan *o = vctx;
    const struct match_entry *e = r->sig ? r->sig->entry : NULL;
    if (!e || e == o->skip1 || e == o->skip2 || r->sig->role != MATCH_ROLE_ROOT) return;
    /* what the outcome counts as a failure: a gotcha's strong line, a common weak one */
    if (!(e->family == MATCH_FAMILY_GOTCHA && r->sig->strength >= MATCH_STRONG) &&
        !(e->family == MATCH_FAMILY_COMMON && r->sig->strength >= MATCH_WEAK))
        return;
    if (!corr_rec_is_error(r) || corr_contains_any(r->text, o->hang_words)) return;
    if (!o->best || corr_rec_cmp(st, r, o->best) < 0) o->best = r;
}

/* What the group did, beside its size: a run of it that worked after its last communication
 * failure (`works`: the group ran forward passes, so the link carried TP), or a run that
 * stopped on a failure of another kind with no communication failure at all (`other_failure`).
 * Either way the TP group across machines is not what the run shows going wrong. */
static void tp_consequence(struct corr_rule_run *rr, const struct corr_rec *nc, struct corr_var *v,
                           size_t nv)
{
    struct corr_state *st = rr->st;
    const struct match_entry *works = corr_entry_of(st, S("works"));
    if (works) {
        struct latest_scan w = {NULL}, f = {NULL};
        corr_each_rec(st, works, latest_visit, &w);
        if (nc) corr_each_rec(st, corr_entry_of(st, S("failure")), latest_visit, &f);
        if (w.best && (!f.best || corr_rec_cmp(st, w.best, f.best) > 0)) {
            corr_rule_claim(rr, "works", w.best, v, nv);
            return;
        }
    }
    if (nc) return;
    struct other_root_scan o = {rr->rule->entry, corr_entry_of(st, S("failure")),
                                corr_rule_list(rr, "hang_words"), NULL};
    corr_each_rec(st, NULL, other_root_visit, &o);
    if (o.best) corr_rule_claim(rr, "other_failure", o.best, v, nv);
}

void corr_prim_tp_nodes(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    struct fact_max tm = {S("tp_fact"), NULL, NAN}, nm = {S("nodes_fact"), NULL, NAN};
    corr_each_rec(st, NULL, fact_max_visit, &tm);
    corr_each_rec(st, NULL, fact_max_visit, &nm);
    const struct corr_rec *tr = tm.rec, *nr = nm.rec;
    double tp = tm.v, nn = nm.v;
    /* a rank inside the TP group (vLLM's "TP rank 1"): the group holds at least that rank + 1
     * members, so a printed rank raises a smaller (or missing) printed size. Rank 0 is in every
     * group and says nothing of its size. */
    if (S("tp_rank_fact")) {
        struct fact_max rm = {S("tp_rank_fact"), NULL, NAN};
        corr_each_rec(st, NULL, fact_max_visit, &rm);
        if (!isnan(rm.v) && rm.v >= 1 && (isnan(tp) || rm.v + 1 > tp)) {
            tp = rm.v + 1;
            tr = rm.rec;
        }
    }
    struct host_set hs = corr_run_hosts(st);
    /* a line that is printed only when the group really spans machines (the spans signature) */
    const struct corr_rec *spans = corr_find_sig_rec(st, S("spans"));
    /* or any line the pack tags as saying so (a TP size above a one-GPU node's count) */
    const struct corr_rec *spans_t = spans ? NULL : corr_tag_earliest(st, S("spans_tag"), 0);
    const char *how_spans = spans_t && S("how_spans_tag") ? S("how_spans_tag") : S("how_spans");
    if (!spans) spans = spans_t;
    /* a launcher's worker on another node than its driver: the driver's node and that one */
    size_t remote_nodes = st->nremote ? st->nremote + 1 : 0;
    /* a platform whose machines carry one GPU each (the one the rule names, or any whose
     * one_gpu_fact, a platform fact, is 1): there a group of two or more ranks cannot fit on one
     * machine, so it spans machines where no count of them is printed */
    const char *one_gpu = S("one_gpu_platform");
    int one_gpu_node =
        (one_gpu && corr_context_on(&st->ctx, one_gpu) == 1) ||
        (S("one_gpu_fact") && match_platform_num(st->ctx.on, S("one_gpu_fact")) == 1);
    int one_gpu_group = one_gpu_node && !isnan(tp) && tp >= 2;
    int multi = (!isnan(nn) && nn >= 2) || hs.n >= 2 || remote_nodes >= 2 ||
                (spans && !isnan(tp) && tp >= 2) || one_gpu_group;
    const char *how_remote = S("how_remote") ? S("how_remote") : S("how_hosts");
    const char *how = !isnan(nn) && nn >= 2 ? S("how_nodes")
                      : hs.n >= 2           ? S("how_hosts")
                      : remote_nodes >= 2   ? how_remote
                      : spans               ? how_spans
                      : one_gpu_group       ? S("how_one_gpu")
                                            : how_spans;
    /* counted by the group alone (one GPU a machine), the machines are as many as its ranks */
    int counted = (!isnan(nn) && nn >= 2) || hs.n >= 2 || remote_nodes >= 2;
    int several = (!isnan(nn) && nn >= 3) || hs.n >= 3 || remote_nodes >= 3 ||
                  (!counted && one_gpu_group && tp >= 3);
    struct corr_var v[] = {VN("tp", tp), VS("nodes", several ? S("several") : S("two")),
                           VS("how", how)};
    size_t nv = AZ_ARRAY_LEN(v);
    const struct corr_rec *nc = corr_entry_earliest(st, corr_entry_of(st, S("failure")));
    if (!isnan(tp) && tp >= 2 && multi) {
        corr_rule_claim(rr, "across", tr, v, nv);
        if (nc) corr_rule_claim(rr, "failure", nc, v, nv);
        tp_consequence(rr, nc, v, nv);
        /* more TP ranks than the launcher's nodes: some node holds several of the group's GPUs */
        if (!isnan(nn) && nn >= 2 && tp > nn) corr_rule_claim(rr, "per_node", nr, v, nv);
    } else if (isnan(tp) && spans) {
        /* No size printed, but the spans line itself says a tensor-parallel group spans
         * machines: the servers build that communicator for the TP group only. */
        corr_rule_claim(rr, "group_spans", spans, v, nv);
        if (nc) corr_rule_claim(rr, "failure", nc, v, nv);
        tp_consequence(rr, nc, v, nv);
    } else if (!isnan(tp) && tp < 2) {
        corr_rule_claim(rr, "tp1", tr, v, nv);
    } else if (!multi && !isnan(nn)) {
        corr_rule_claim(rr, "single_node", nr, v, nv);
    }
}
