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

#define REPL_PKGS 4  /* packages the summary names ("torch, triton, xformers, transformers") */
#define REPL_VER  64 /* "2.9.0a0+50eac811a6.nv25.9" and longer local versions */

struct repl_scan {
    const char *pkg_fact, *old_fact, *new_fact, *image_tag;
    const struct match_value *keys, *conseq_tags;
    size_t n;
    const struct corr_rec *first;
    const struct corr_rec *first_install; /* the earliest of first's lines that is no consequence */
    int image_build; /* a container image's own build ("2.9.0a0+50eac811a6.nv25.9") was replaced */
    char pkgs[REPL_PKGS][96];
    /* per named package: the version a line says was removed (the earliest) and the one a line
     * says was installed (the latest), to tell a reinstall of the same version from a change */
    char old_ver[REPL_PKGS][REPL_VER], new_ver[REPL_PKGS][REPL_VER];
    const struct corr_rec *new_rec[REPL_PKGS];
};

/* Keep the versions a record states for package slot i (the removed one as first seen: the lines
 * of one uninstall name one version). */
static void repl_versions(struct corr_state *st, struct repl_scan *s, size_t i,
                          const struct corr_rec *r, const char *ov, const char *nv)
{
    if (ov && !s->old_ver[i][0]) snprintf(s->old_ver[i], sizeof s->old_ver[i], "%s", ov);
    if (nv && (!s->new_rec[i] || corr_rec_cmp(st, r, s->new_rec[i]) > 0)) {
        snprintf(s->new_ver[i], sizeof s->new_ver[i], "%s", nv);
        s->new_rec[i] = r;
    }
}

/* 1 when the signature carries one of the tags. */
static int sig_tagged(const struct match_sig *sig, const struct match_value *tags)
{
    for (size_t i = 0; sig && tags && i < tags->nlist; i++)
        if (match_sig_has_tag(sig, tags->list[i])) return 1;
    return 0;
}

static void repl_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct repl_scan *s = vctx;
    const char *pkg = corr_fact_str(r, s->pkg_fact);
    if (!corr_key_package(pkg, s->keys)) return;
    if (!s->first || corr_rec_cmp(st, r, s->first) < 0) s->first = r;
    /* a line that names the package it broke ("cannot import name ... from 'transformers'")
     * is a consequence, not an install: the consequence guard starts at the install's lines */
    if (!sig_tagged(r->sig, s->conseq_tags) &&
        (!s->first_install || corr_rec_cmp(st, r, s->first_install) < 0))
        s->first_install = r;
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
    for (size_t i = 0; i < s->n && i < REPL_PKGS; i++) {
        size_t pl = strlen(pkg);
        if (!strncmp(s->pkgs[i], pkg, pl) && (s->pkgs[i][pl] == ' ' || !s->pkgs[i][pl])) {
            if (strlen(name) > strlen(s->pkgs[i]))
                snprintf(s->pkgs[i], sizeof s->pkgs[i], "%s", name);
            repl_versions(st, s, i, r, ov, nv);
            return;
        }
    }
    if (s->n < REPL_PKGS) {
        snprintf(s->pkgs[s->n], sizeof s->pkgs[s->n], "%s", name);
        repl_versions(st, s, s->n, r, ov, nv);
    }
    s->n++;
}

/* 1 when every package the lines name was removed and installed again at the version it had
 * ("Successfully uninstalled torch-2.8.0", "Successfully installed torch-2.8.0"): a reinstall,
 * not a change of the stack. */
static int repl_same_version(const struct repl_scan *s)
{
    if (!s->n || s->n > REPL_PKGS) return 0;
    for (size_t i = 0; i < s->n; i++)
        if (!s->old_ver[i][0] || strcmp(s->old_ver[i], s->new_ver[i])) return 0;
    return 1;
}

/* What the replacement broke: the earliest failure line after the first install line that
 * carries one of the rule's consequence_tags (an import error, an undefined symbol, a CUDA
 * error), else the evidence of a claim of this entry by one of its consequence_rules (a
 * version-pair mismatch, made by a rule listed before this one). NULL when nothing follows; then
 * *other is the earliest strong failure line of another entry after the install (a step's exit
 * code, another error; a weak line is a hint, not the failure), or NULL. */
struct conseq_scan {
    const struct match_value *tags;
    const struct match_entry *self;
    const struct corr_rec *after, *found;
    const struct corr_rec *other; /* the earliest other failure after the install */
};

/* 1 when r comes after a: later in the same file, or by the clock in another. Two files whose
 * lines carry no comparable clock say nothing of their order (a run's log beside the install's),
 * so another file's line counts. */
static int rec_after(const struct corr_state *st, const struct corr_rec *r,
                     const struct corr_rec *a)
{
    if (r->file == a->file || (r->time.kind != AZ_TIME_NONE && r->time.kind == a->time.kind))
        return corr_rec_cmp(st, r, a) > 0;
    return 1;
}

static void conseq_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct conseq_scan *c = vctx;
    const struct match_sig *sig = r->sig;
    if (!sig || sig->strength == MATCH_CONTEXT || !rec_after(st, r, c->after)) return;
    if (sig_tagged(sig, c->tags)) {
        if (!c->found || corr_rec_cmp(st, r, c->found) < 0) c->found = r;
    } else if (sig->entry != c->self && sig->strength >= MATCH_STRONG &&
               (sig->entry->family == MATCH_FAMILY_GOTCHA ||
                sig->entry->family == MATCH_FAMILY_COMMON) &&
               (sig->role == MATCH_ROLE_ROOT || sig->role == MATCH_ROLE_CASCADE)) {
        if (!c->other || corr_rec_cmp(st, r, c->other) < 0) c->other = r;
    }
}

static const struct corr_rec *repl_consequence(struct corr_rule_run *rr,
                                               const struct corr_rec *after, int *any,
                                               const struct corr_rec **other)
{
    struct corr_state *st = rr->st;
    struct conseq_scan c = {corr_rule_list(rr, "consequence_tags"), rr->rule->entry, after, NULL,
                            NULL};
    corr_each_rec(st, NULL, conseq_visit, &c);
    *other = c.other;
    *any = c.found != NULL;
    if (c.found) return c.found;
    const struct match_value *uses = corr_rule_list(rr, "consequence_rules");
    for (size_t i = 0; uses && i < st->nclaims; i++) {
        const struct corr_claim *cl = &st->claims[i];
        if (cl->entry != rr->rule->entry || !cl->rule || cl->rule == rr->rule || cl->weight <= 0)
            continue;
        for (size_t j = 0; j < uses->nlist; j++)
            if (!strcmp(cl->rule->use, uses->list[j])) {
                *any = 1;
                return cl->rec;
            }
    }
    return NULL;
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
    s.conseq_tags = corr_rule_list(rr, "consequence_tags");
    corr_each_rec(st, self, repl_visit, &s);
    if (s.n) {
        struct az_buf b = AZ_BUF_INIT;
        for (size_t i = 0; i < s.n && i < REPL_PKGS; i++) {
            /* pip's uninstall and install are lines apart: "torch 2.9.0a0+… → 2.8.0" */
            if (s.old_ver[i][0] && s.new_ver[i][0] && !strstr(s.pkgs[i], "→"))
                az_buf_printf(&b, "%s%.*s %s → %s", i ? ", " : "", (int)strcspn(s.pkgs[i], " "),
                              s.pkgs[i], s.old_ver[i], s.new_ver[i]);
            else
                az_buf_printf(&b, "%s%s", i ? ", " : "", s.pkgs[i]);
        }
        char clock[32], where[256] = "";
        corr_fmt_clock(st, s.first->time, clock, sizeof clock);
        /* A replacement is the mechanism; what it broke is the failure. With the rule's
         * consequence params, a replacement an error of the replaced stack follows is confirmed,
         * one a failure of another kind follows is a hint (unconfirmed), and a reinstall of the
         * same versions is no change. */
        int any = 0;
        const struct corr_rec *other = NULL;
        const struct corr_rec *after =
            s.first_install ? repl_consequence(rr, s.first_install, &any, &other) : NULL;
        if (after || other) corr_where(st, after ? after : other, where, sizeof where);
        struct corr_var v[] = {VS("packages", b.data), VS("at", clock), VS("after", where)};
        /* only lines that name what they broke: no install to guard */
        int guarded = s.conseq_tags && s.first_install;
        if (repl_same_version(&s)) {
            if (!any) corr_rule_claim(rr, "same", s.first, v, AZ_ARRAY_LEN(v));
        } else {
            corr_rule_claim(rr, "replaced", s.first, v, AZ_ARRAY_LEN(v));
            /* a transcript alone is the replacement the report names; a run that failed after
             * it of something no line ties to the replaced stack leaves G9 possible */
            if (guarded && any)
                corr_rule_claim(rr, "confirmed", after, v, AZ_ARRAY_LEN(v));
            else if (guarded && other)
                corr_rule_claim(rr, "unconfirmed", NULL, v, AZ_ARRAY_LEN(v));
        }
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
 * does not list weighs nothing. With "when_tags", a mismatch is "unconfirmed" unless a failure
 * line carries one of them (a pair whose drift shows only where a run failed in the packages'
 * own code: a healthy run beside it is a hint); a version holding one of "skip" (a pre-release
 * or source build, whose pins are its build day's) weighs nothing. */
void corr_prim_version_pair(struct corr_rule_run *rr)
{
    struct corr_state *st = rr->st;
    const char *fa = S("first_fact"), *fb = S("second_fact");
    const struct corr_rec *ra = corr_find_fact_at(st, NULL, fa, 1),
                          *rb = corr_find_fact_at(st, NULL, fb, 1);
    if (!ra || !rb) return;
    const char *va = corr_fact_str(ra, fa), *vb = corr_fact_str(rb, fb);
    if (!vb || !isdigit((unsigned char)*vb)) return;
    const struct match_value *skip = corr_rule_list(rr, "skip");
    if (corr_contains_any(va, skip) || corr_contains_any(vb, skip)) return;
    const struct match_value *pairs = corr_rule_list(rr, "pairs");
    for (size_t i = 0; pairs && i < pairs->nlist; i++) {
        const char *p = pairs->list[i], *colon = strchr(p, ':');
        if (!colon || !in_release(va, p, (size_t)(colon - p))) continue;
        const struct corr_rec *later = corr_rec_cmp(st, ra, rb) > 0 ? ra : rb;
        struct corr_var v[] = {VS("first", va), VS("second", vb), VS("expected", colon + 1)};
        const char *out = in_release(vb, colon + 1, strlen(colon + 1)) ? "paired"
                          : corr_when_tags(rr)                         ? "mismatch"
                                                                       : "unconfirmed";
        corr_rule_claim(rr, out, later, v, AZ_ARRAY_LEN(v));
        return;
    }
}
