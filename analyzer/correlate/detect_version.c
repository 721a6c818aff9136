/* correlate/detect_version.c - primitives about the software stack's versions and builds:
 * build-vs-driver (the CUDA a wheel was built for against the driver's), quant-arch (a
 * quantization that needs an arch the build may lack), version-change (packages replaced between
 * two states of the environment) and version-pair (two packages that ship in matched releases).
 * The packages, facts and release tables are the rule's parameters. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "correlate/detect_private.h"

/* ---- build-vs-driver: what torch was built for against what the machine runs ---- */

static int starts(const char *s, const char *prefix)
{
    return s && prefix && *prefix && !strncmp(s, prefix, strlen(prefix));
}

void corr_prim_build_driver(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const char *ct = st->ctx.cuda_torch, *cd = st->ctx.cuda_driver;
    /* the line that shows the build: the first of built_facts some record has */
    const struct match_value *bf = corr_rule_list(rr, "built_facts");
    const struct corr_rec *r = NULL;
    for (size_t i = 0; bf && i < bf->nlist && !r; i++) r = corr_find_fact(st, NULL, bf->list[i]);
    struct corr_var v[] = {VS("built", ct ? ct : ""), VS("driver", cd ? cd : "")};
    size_t nv = AZ_ARRAY_LEN(v);
    /* the driver a platform implies: the pack gives the rule an outcome "mismatch_<id>" for a
     * run placed on that platform with no driver line */
    char on_platform[96] = "";
    if (st->ctx.on) snprintf(on_platform, sizeof on_platform, "mismatch_%s", st->ctx.on->id);
    int implied = *on_platform && match_rule_outcome(rr->rule, on_platform);
    if (starts(ct, S("built")) && (starts(cd, S("driver")) || implied)) {
        corr_rule_claim(rr, cd && *cd ? "mismatch" : on_platform, r, v, nv);
        const struct match_entry *w = corr_entry_of(st, S("with_entry"));
        if (corr_entry_hit(st, w)) corr_rule_claim(rr, "with", corr_entry_earliest(st, w), v, nv);
    } else if (starts(ct, S("cleared")) && !corr_find_fact(st, rr->rule->entry, S("unless_fact"))) {
        /* a matching torch clears torch, not the extensions beside it: a wheel that names its
         * runtime library (unless_fact) is still the mismatch */
        corr_rule_claim(rr, "cleared", r, v, nv);
    }
}

/* ---- quant-arch: a quantization that needs an arch the build may lack ---- */

/* The best median rate (the rule's series and unit) of a file that states quantization q. */
static double quant_throughput(const struct corr_rule_run *rr, const char *q)
{
    const struct corr_state *st = rr->st;
    const char *name = S("series"), *unit = S("unit");
    double best = NAN;
    for (size_t i = 0; i < st->nseries; i++) {
        const struct corr_sbuild *b = &st->series[i];
        if (strcmp(b->name, name) || strcmp(b->unit, unit) || !b->n) continue;
        if (!corr_contains(st->files[b->file].quant, q)) continue;
        double m = corr_median_of_tail(b);
        if (isnan(best) || m > best) best = m;
    }
    return best;
}

void corr_prim_quant_arch(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const char *quant = S("quant");
    int inuse = 0;
    for (size_t i = 0; i < st->nfiles; i++)
        if (corr_contains(st->files[i].quant, quant)) inuse = 1;
    const struct corr_rec *qr = corr_find_fact(st, NULL, S("quant_fact"));
    if (qr && corr_contains(corr_fact_str(qr, S("quant_fact")), quant)) inuse = 1;
    const struct corr_rec *al = corr_find_fact(st, NULL, S("arch_fact"));
    const char *list = corr_fact_str(al, S("arch_fact"));
    int has_a = list && corr_contains_any(list, corr_rule_list(rr, "arch_ok"));
    double f4 = quant_throughput(rr, quant), f8 = quant_throughput(rr, S("compare"));
    struct corr_var v[] = {VS("list", list ? list : ""), VN("pct", (f8 - f4) / f8 * 100),
                           VN("quant_tps", f4), VN("compare_tps", f8)};
    size_t nv = AZ_ARRAY_LEN(v);
    /* the entry's platform (any when it has no scope) */
    const char *scope = rr->rule->entry->scope.platform;
    int on = scope ? corr_context_on(&st->ctx, scope) : 1;
    if (inuse && on != 0) {
        /* a run the inputs do not place may be another GPU's build: the pack can weigh it
         * apart (no_arch_unplaced), so its sentence claims no capability no line states */
        int unplaced = on == -1 && match_rule_outcome(rr->rule, "no_arch_unplaced");
        if (list && !has_a)
            corr_rule_claim(rr, unplaced ? "no_arch_unplaced" : "no_arch", al, v, nv);
        else if (has_a)
            corr_rule_claim(rr, "arch_ok", al, v, nv);
        else
            corr_rule_claim(rr, "quant_only", qr, v, nv);
    }
    if (!isnan(f4) && !isnan(f8) && f8 > 0)
        corr_rule_claim(rr, f4 < f8 ? "slower" : "faster", qr, v, nv);
}

/* ---- version-change: packages replaced between two states of the environment ---- */

struct repl_scan {
    const char *pkg_fact, *old_fact, *new_fact, *image_tag;
    const struct match_value *keys;
    size_t n;
    const struct corr_rec *first;
    int image_build; /* a container image's own build ("2.9.0a0+50eac811a6.nv25.9") was replaced */
    char pkgs[4][96];
};

static void repl_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct repl_scan *s = vctx;
    const char *pkg = corr_fact_str(r, s->pkg_fact);
    if (!corr_key_package(pkg, s->keys)) return;
    if (!s->first || corr_rec_cmp(st, r, s->first) < 0) s->first = r;
    char name[96];
    const char *ov = corr_fact_str(r, s->old_fact), *nv = corr_fact_str(r, s->new_fact);
    const char *tag = ov ? strstr(ov, s->image_tag) : NULL;
    if (tag && isdigit((unsigned char)tag[strlen(s->image_tag)])) s->image_build = 1;
    if (ov && nv)
        snprintf(name, sizeof name, "%s %s → %s", pkg, ov, nv);
    else if (ov)
        snprintf(name, sizeof name, "%s %s", pkg, ov);
    else
        snprintf(name, sizeof name, "%s", pkg);
    for (size_t i = 0; i < s->n && i < 4; i++) {
        size_t pl = strlen(pkg);
        if (!strncmp(s->pkgs[i], pkg, pl) && (s->pkgs[i][pl] == ' ' || !s->pkgs[i][pl])) {
            if (strlen(name) > strlen(s->pkgs[i]))
                snprintf(s->pkgs[i], sizeof s->pkgs[i], "%s", name);
            return;
        }
    }
    if (s->n < 4) snprintf(s->pkgs[s->n], sizeof s->pkgs[s->n], "%s", name);
    s->n++;
}

/* 1 while every record of the entry is the only_sig signature's, 2 once another is seen. */
struct only_scan {
    const struct match_sig *sig;
    int v;
};

static void only_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    (void)st;
    struct only_scan *o = vctx;
    if (!r->sig) return;
    if (r->sig != o->sig)
        o->v = 2;
    else if (o->v == 0)
        o->v = 1;
}

void corr_prim_version_change(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const struct match_entry *self = rr->rule->entry;
    struct repl_scan s;
    memset(&s, 0, sizeof s);
    s.pkg_fact = S("package_fact");
    s.old_fact = S("old_fact");
    s.new_fact = S("new_fact");
    s.image_tag = S("image_tag");
    s.keys = corr_rule_list(rr, "key_packages");
    corr_each_rec(st, self, repl_visit, &s);
    if (s.n) {
        struct az_buf b = AZ_BUF_INIT;
        for (size_t i = 0; i < s.n && i < 4; i++)
            az_buf_printf(&b, "%s%s", i ? ", " : "", s.pkgs[i]);
        char clock[32];
        corr_fmt_clock(st, s.first->time, clock, sizeof clock);
        struct corr_var v[] = {VS("packages", b.data), VS("at", clock)};
        corr_rule_claim(rr, "replaced", s.first, v, AZ_ARRAY_LEN(v));
        az_buf_free(&b);
    }
    /* A container protects the stack only until pip replaces the image's own builds. */
    if (st->ctx.in_container == 1 && !s.image_build)
        corr_rule_claim(rr, "container", corr_tag_earliest(st, S("container_tag"), 0), NULL, 0);
    else if (st->ctx.in_container == 0 && (s.n || corr_entry_hit(st, self)))
        corr_rule_claim(rr, "bare_host", corr_tag_earliest(st, S("bare_tag"), 0), NULL, 0);
    /* One signature alone (an extension built against another torch says the stack is mixed,
     * not that pip mixed it): with no version change and nothing about the environment, a hint. */
    struct only_scan o = {match_pack_find_sig(st->pack, S("only_sig")), 0};
    corr_each_rec(st, self, only_visit, &o);
    if (o.v == 1 && !s.n && st->ctx.in_container == -1 && !corr_tag_earliest(st, S("bare_tag"), 0))
        corr_rule_claim(rr, "only_sig", NULL, NULL, 0);
}

/* ---- version-pair: two packages that ship in matched releases ---- */

/* Does version v lie in the release written as the n bytes of rel ("2.5", "0.0.28.post2")? v
 * starts with rel and the next byte is no digit: "2.5.1+cu124" and "2.5rc1" are in "2.5", "2.10.0"
 * is not in "2.1", "0.0.28.post2" is in "0.0.28" too (a table lists post releases first). */
static int in_release(const char *v, const char *rel, size_t n)
{
    return v && isdigit((unsigned char)*v) && n && strncmp(v, rel, n) == 0 &&
           !isdigit((unsigned char)v[n]);
}

/* The environment's latest versions of two packages (each the last line that states it) against
 * the pack's table of matched releases ("2.5:0.20": torch 2.5 goes with torchvision 0.20). Each
 * side holds to the precision the table writes ("0.0.28.post2:2.5": a post release of xformers is a
 * release of its own); the first pair whose first side holds decides. A first version the table
 * does not list weighs nothing. */
void corr_prim_version_pair(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const char *fa = S("first_fact"), *fb = S("second_fact");
    const struct corr_rec *ra = corr_find_fact_at(st, NULL, fa, 1),
                          *rb = corr_find_fact_at(st, NULL, fb, 1);
    if (!ra || !rb) return;
    const char *va = corr_fact_str(ra, fa), *vb = corr_fact_str(rb, fb);
    if (!vb || !isdigit((unsigned char)*vb)) return;
    const struct match_value *pairs = corr_rule_list(rr, "pairs");
    for (size_t i = 0; pairs && i < pairs->nlist; i++) {
        const char *p = pairs->list[i], *colon = strchr(p, ':');
        if (!colon || !in_release(va, p, (size_t)(colon - p))) continue;
        const struct corr_rec *later = corr_rec_cmp(st, ra, rb) > 0 ? ra : rb;
        struct corr_var v[] = {VS("first", va), VS("second", vb), VS("expected", colon + 1)};
        corr_rule_claim(rr, in_release(vb, colon + 1, strlen(colon + 1)) ? "paired" : "mismatch",
                        later, v, AZ_ARRAY_LEN(v));
        return;
    }
}
