/* correlate/detect_weight.c - what one line is worth before any rule runs: whether a record
 * states an error, and a signature's strength and weight on this run (decisive where the pack
 * says so for the run's platform, lowered by its entry's version-change rule when it names only
 * packages the rule does not care about). score.c weighs with these. */
#include <stdlib.h>
#include <string.h>

#include "correlate/detect_private.h"

/* ---- errors ---- */

int corr_rec_is_error(const struct corr_rec *r)
{
    if (r->level >= TOK_LEVEL_ERROR) return 1;
    if (r->level == TOK_LEVEL_DEBUG || r->level == TOK_LEVEL_INFO) return 0;
    static const char *const words[] = {
        "error",     "fail",          "fatal",        "killed",           "abort",
        "exception", "traceback",     "segmentation", "segfault",         "timeout",
        "timed out", "out of memory", "cannot",       "undefined symbol", "not found",
        "xid",       "panic",         "denied",       "refused",          "hang",
        "invalid",   "no such file",  "core dumped",  "terminated",       "died",
        "unable",    "oom",           "nan"};
    /* a decisive common failure names an error whatever its words ("fallen off the bus") */
    if (r->sig && r->sig->strength == MATCH_DECISIVE && r->sig->entry &&
        r->sig->entry->family == MATCH_FAMILY_COMMON)
        return 1;
    if (!r->text) return 0;
    size_t len = strlen(r->text);
    for (size_t i = 0; i < AZ_ARRAY_LEN(words); i++)
        if (az_memcasemem(r->text, len, words[i], strlen(words[i]))) return 1;
    return r->level == TOK_LEVEL_WARN && r->sig && r->sig->strength >= MATCH_STRONG;
}

/* ---- signature weights ---- */

/* The weight of each strength: decisive names the cause alone (above the 0.35 threshold with
 * nothing else), strong is good evidence, weak a hint (capped below the threshold in score.c),
 * context adds only a bonus beside real evidence. */
static double strength_weight(enum match_strength s)
{
    switch (s) {
    case MATCH_DECISIVE: return 0.85;
    case MATCH_STRONG: return 0.55;
    case MATCH_WEAK: return 0.2;
    case MATCH_CONTEXT: return 0.0;
    }
    return 0.0;
}

struct pkg_scan {
    const char *fact;
    const struct match_value *keys;
    int key, other;
};

static void pkg_visit(void *vctx, const struct corr_rec *r)
{
    struct pkg_scan *p = vctx;
    const char *pkg = corr_fact_str(r, p->fact);
    if (!pkg) return;
    if (corr_key_package(pkg, p->keys))
        p->key = 1;
    else
        p->other = 1;
}

/* The entry's version-change rule, or NULL. */
static const struct match_rule *version_rule(const struct match_entry *e)
{
    for (size_t i = 0; e && i < e->nrules; i++)
        if (!strcmp(e->rules[i]->use, "version-change")) return e->rules[i];
    return NULL;
}

enum match_strength corr_sig_strength(const struct corr_state *st, const struct match_sig *sig)
{
    /* a line the pack calls decisive on GB10, on a run the inputs (or --platform) place there */
    if (sig->decisive_on && corr_context_on(&st->ctx, sig->decisive_on) == 1) return MATCH_DECISIVE;
    return sig->strength;
}

double corr_sig_weight(const struct corr_state *st, const struct match_sig *sig)
{
    double w = strength_weight(corr_sig_strength(st, sig));
    /* a version change of packages the entry does not care about (pip moved numpy) is a hint
     * at most: the rule's other_weight */
    const struct match_rule *vr = version_rule(sig->entry);
    if (vr) {
        const struct match_value *f = match_rule_value(vr, "package_fact");
        const struct match_value *k = match_rule_value(vr, "key_packages");
        const struct match_value *ow = match_rule_value(vr, "other_weight");
        struct pkg_scan p = {f ? f->str : NULL, k, 0, 0};
        if (p.fact) corr_sig_each(st, sig->index, pkg_visit, &p);
        if (!p.key && p.other && ow) w = AZ_MIN(w, ow->num);
    }
    return w;
}
