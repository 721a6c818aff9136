/* correlate/rules.c - the pack's rules evaluated: every gotcha entry lists rules, each naming a
 * generic primitive of the correlator (detect_*.c) with its parameters and what each of its
 * outcomes adds (a weight, a factor or a cap, and the sentences the report prints). This file
 * holds the primitives' table (their parameters, outcomes and template variables), the check
 * that a pack's rules are complete and name only things that exist, the template renderer and
 * the claim an outcome makes. It names no pack id: the ids a rule needs are its parameters. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

/* A parameter of a primitive: "name:T" with T n (number), s (string), l (list of strings),
 * e (an entry id), g (a signature id), t (a tag some signature carries), k (list of source
 * kinds or "a|b" groups of them), c (a counter the structural parsers keep); a trailing '?'
 * makes it optional. */
struct prim {
    const char *use;
    corr_prim_fn fn;
    const char *params;   /* space separated "name:T" */
    const char *outcomes; /* space separated names */
    const char *vars;     /* template variables its outcomes may use, space separated */
};

static const struct prim prims[] = {
    {"plateau", corr_prim_plateau,
     "series:s unit:s lo:n hi:n above:n above_one_in:n min_points:n min_secs:n untimed_points:n "
     "companion:s rise:n hot:n end_parts:n",
     "hot steady alone none", "min max dur first last peak value"},
    {"clock-reasons", corr_prim_clock_reasons, "", "thermal power", "count samples"},
    {"change-point", corr_prim_change_point,
     "series:s unit:s? pick:s min_points:n min_before:n min_drop_pct:n min_effect:n "
     "min_segment:n segment_parts:n align_slack_secs:n? when:s? busy_series:s? busy_min:n? "
     "busy_share:n?",
     "drop aligned busy", "before after unit pct at"},
    {"cutoff-boot", corr_prim_cutoff_boot, "job_kinds:k text_reset:s text_marker:s",
     "quiet_end boot", "job boot"},
    {"oom-capacity", corr_prim_oom_capacity,
     "oom_tag:t lookalike_tag:t pool_gib:n device_lo_gib:n device_hi_gib:n pool_lo_gib:n "
     "pool_hi_gib:n under:n full:n free_min_gib:n wrap_lines:n uma_tag:t?",
     "none lookalike other_device no_platform over_pool under_pool under_pool_tried full "
     "free_reported",
     "used total cap free tried"},
    {"counter", corr_prim_counter, "counter:c min:n when_tag:t?", "present", "count gib"},
    {"context-before", corr_prim_context_before, "context:e tag:t within_lines:n? nearest_sig:g?",
     "before", ""},
    {"context-present", corr_prim_context_present,
     "context:e when_tag:t? names_fact:s? fact_aliases:l?", "present", ""},
    {"bandwidth-ceiling", corr_prim_bandwidth,
     "weight_facts:l params_fact:s dtype_facts:l dtype_bytes:l seq_fact:s tpot_fact:s "
     "series:s unit:s lo:n hi:n near_hi:n far:n plan:g measured_facts:l measured_lo:n "
     "measured_hi:n label_seq:s label_tpot:s label_series:s",
     "plan ceiling near far measured", "gbs rate tps weights_gb bw"},
    {"coresident", corr_prim_coresident,
     "processes:e server_names:l compute_names:l min_gib:n pool_gib:n full_share:n server:g "
     "config:e util_fact:s util_cap:n server_kinds:k job_kinds:k nodes_fact:s",
     "second_process same_run multi_host near_full uncapped default_cap capped none_heavy none",
     "count list gib pool util hosts"},
    {"build-vs-driver", corr_prim_build_driver,
     "built:s driver:s cleared:s unless_fact:s with_entry:e built_facts:l",
     "mismatch mismatch_<platform> with cleared", "built driver"},
    {"quant-arch", corr_prim_quant_arch,
     "quant_fact:s quant:s arch_fact:s arch_ok:l compare:s series:s unit:s",
     "no_arch no_arch_unplaced arch_ok quant_only slower faster", "list pct quant_tps compare_tps"},
    {"version-change", corr_prim_version_change,
     "package_fact:s old_fact:s new_fact:s key_packages:l image_tag:s other_weight:n "
     "container_tag:t bare_tag:t only_sig:g consequence_tags:l? consequence_rules:l?",
     "replaced container bare_host only_sig same unconfirmed confirmed", "packages at after"},
    {"tp-nodes", corr_prim_tp_nodes,
     "tp_fact:s nodes_fact:s spans:g failure:e how_nodes:s how_hosts:s how_spans:s two:s "
     "several:s how_remote:s? spans_tag:t? how_spans_tag:s? one_gpu_platform:s? how_one_gpu:s? "
     "tp_rank_fact:s? works:e? hang_words:l? one_gpu_fact:s?",
     "across group_spans failure per_node tp1 single_node works other_failure", "tp nodes how"},
    {"after-context", corr_prim_after_context,
     "context:e grad_series:s loss_series:s min_points:n huge:n huge_share:n loss_ratio:n "
     "end_parts:n",
     "failed diverged", "at huge n gmax first last"},
    {"last-line", corr_prim_last_line, "tag:t", "last", ""},
    {"requested-not-used", corr_prim_requested, "request:g chosen:g banner:g", "both chosen banner",
     "request"},
    {"version-pair", corr_prim_version_pair,
     "first_fact:s second_fact:s pairs:l when_tags:l? skip:l?", "mismatch paired unconfirmed",
     "first second expected"},
    {"fact-share", corr_prim_fact_share,
     "sig:g part:s whole:s lo:n hi:n whole_lo:n? whole_hi:n? whole_sig:g? pick:s?", "inside",
     "part whole share"},
};

static const struct prim *prim_find(const char *use)
{
    for (size_t i = 0; i < AZ_ARRAY_LEN(prims); i++)
        if (!strcmp(prims[i].use, use)) return &prims[i];
    return NULL;
}

/* 1 when word (len n) is one of the space-separated words of list; *type gets the char after
 * a ':' (the parameter type), *opt 1 for a trailing '?'. */
static int word_in(const char *list, const char *word, size_t n, char *type, int *opt)
{
    const char *p = list;
    while (*p) {
        while (*p == ' ') p++;
        const char *s = p;
        while (*p && *p != ' ' && *p != ':') p++;
        size_t wl = (size_t)(p - s);
        char t = 0;
        int o = 0;
        if (*p == ':') {
            t = p[1];
            p += 2;
            if (*p == '?') o = 1, p++;
        }
        if (wl && wl == n && !memcmp(s, word, n)) {
            if (type) *type = t;
            if (opt) *opt = o;
            return 1;
        }
        while (*p && *p != ' ') p++;
    }
    return 0;
}

/* Report every "{name...}" of a template that is not a variable of the primitive, and every
 * bad format ("{x:.1f}": flags, width, precision, then one of f g e). */
static size_t check_template(const char *where, const char *t, const char *vars, struct az_buf *err)
{
    size_t bad = 0;
    for (const char *p = t ? strchr(t, '{') : NULL; p; p = strchr(p + 1, '{')) {
        const char *e = strchr(p, '}');
        if (!e) {
            az_buf_printf(err, "%s: unclosed '{' in \"%s\"\n", where, t);
            return bad + 1;
        }
        const char *colon = memchr(p, ':', (size_t)(e - p));
        const char *ne = colon ? colon : e;
        if (!word_in(vars, p + 1, (size_t)(ne - p - 1), NULL, NULL)) {
            az_buf_printf(err, "%s: unknown variable {%.*s} (this rule has: %s)\n", where,
                          (int)(ne - p - 1), p + 1, *vars ? vars : "none");
            bad++;
        }
        if (colon) {
            const char *f = colon + 1;
            if (*f == '.') {
                f++;
                while (f < e && isdigit((unsigned char)*f)) f++;
            }
            if (f + 1 != e || !strchr("fge", *f)) {
                az_buf_printf(err, "%s: bad format in {%.*s} (use .Nf, .Ng or .Ne)\n", where,
                              (int)(e - p - 1), p + 1);
                bad++;
            }
        }
        p = e;
    }
    return bad;
}

static size_t check_ref(const struct match_pack *pack, const char *where, char type,
                        const struct match_value *v, struct az_buf *err)
{
    int want_str = type == 's' || type == 'e' || type == 'g' || type == 't' || type == 'c';
    int want_list = type == 'l' || type == 'k';
    if ((type == 'n' && isnan(v->num)) || (want_str && !v->str) || (want_list && !v->list)) {
        az_buf_printf(err, "%s: param \"%s\" must be a %s\n", where, v->name,
                      type == 'n' ? "number"
                      : want_str  ? "string"
                                  : "list of strings");
        return 1;
    }
    if (type == 'e' && !match_pack_find_entry(pack, v->str)) {
        az_buf_printf(err, "%s: param \"%s\": no entry \"%s\" in the pack\n", where, v->name,
                      v->str);
        return 1;
    }
    if (type == 'g' && !match_pack_find_sig(pack, v->str)) {
        az_buf_printf(err, "%s: param \"%s\": no signature \"%s\" in the pack\n", where, v->name,
                      v->str);
        return 1;
    }
    if (type == 't' && !match_pack_has_tag(pack, v->str)) {
        az_buf_printf(err, "%s: param \"%s\": no signature carries the tag \"%s\"\n", where,
                      v->name, v->str);
        return 1;
    }
    if (type == 'c' && strcmp(v->str, "smi-memory-na") && strcmp(v->str, "page-cache-kb")) {
        az_buf_printf(err,
                      "%s: param \"%s\": unknown counter \"%s\" (smi-memory-na or "
                      "page-cache-kb)\n",
                      where, v->name, v->str);
        return 1;
    }
    size_t bad = 0;
    /* kinds: names, or groups "vllm|stderr" */
    for (size_t i = 0; type == 'k' && i < v->nlist; i++)
        for (const char *p = v->list[i]; *p;) {
            const char *e = strchr(p, '|');
            size_t l = e ? (size_t)(e - p) : strlen(p);
            char k[32];
            snprintf(k, sizeof k, "%.*s", (int)l, p);
            if (tok_kind_from_name(k) < 0) {
                az_buf_printf(err, "%s: param \"%s\": unknown kind \"%s\"\n", where, v->name, k);
                bad++;
            }
            p += l + (e != NULL);
        }
    return bad;
}

/* "mismatch_gb10" where the primitive lists "mismatch_<platform>": an outcome of one declared
 * platform, named by the pack's id (the primitive claims it on a run placed there). */
static int platform_outcome(const struct match_pack *pack, const char *list, const char *name)
{
    static const char mark[] = "_<platform>";
    for (const char *p = strstr(list, mark); p; p = strstr(p + 1, mark)) {
        const char *w = p;
        while (w > list && w[-1] != ' ') w--;
        size_t stem = (size_t)(p - w) + 1; /* "mismatch_" */
        if (!strncmp(name, w, stem) && match_pack_find_platform(pack, name + stem)) return 1;
    }
    return 0;
}

size_t corr_rules_check(const struct match_pack *pack, struct az_buf *err)
{
    size_t bad = 0;
    for (size_t i = 0; i < match_pack_entry_count(pack); i++) {
        const struct match_entry *e = match_pack_entry(pack, i);
        char where[400];
        if (e->scope.says) {
            snprintf(where, sizeof where, "%s: %s: scope", e->source, e->id);
            bad += check_template(where, e->scope.says, "gpu", err);
        }
        for (size_t r = 0; r < e->nrules; r++) {
            const struct match_rule *rule = e->rules[r];
            snprintf(where, sizeof where, "%s: %s: rule %zu (%s)", e->source, e->id, r + 1,
                     rule->use);
            const struct prim *pr = prim_find(rule->use);
            if (!pr) {
                az_buf_printf(err, "%s: unknown rule \"%s\" (", where, rule->use);
                for (size_t k = 0; k < AZ_ARRAY_LEN(prims); k++)
                    az_buf_printf(err, "%s%s", k ? ", " : "", prims[k].use);
                az_buf_puts(err, ")\n");
                bad++;
                continue;
            }
            for (size_t k = 0; k < rule->nvalues; k++) {
                const struct match_value *v = &rule->values[k];
                char type;
                if (!word_in(pr->params, v->name, strlen(v->name), &type, NULL)) {
                    az_buf_printf(err, "%s: unknown param \"%s\" (this rule takes: %s)\n", where,
                                  v->name, pr->params);
                    bad++;
                    continue;
                }
                bad += check_ref(pack, where, type, v, err);
            }
            /* every required parameter given */
            for (const char *p = pr->params; *p;) {
                while (*p == ' ') p++;
                const char *s = p;
                while (*p && *p != ':') p++;
                size_t n = (size_t)(p - s);
                int opt = 0;
                if (*p == ':') p += 2;
                if (*p == '?') opt = 1, p++;
                if (!n) break;
                char name[64];
                snprintf(name, sizeof name, "%.*s", (int)n, s);
                if (!opt && !match_rule_value(rule, name)) {
                    az_buf_printf(err, "%s: missing param \"%s\"\n", where, name);
                    bad++;
                }
            }
            for (size_t k = 0; k < rule->noutcomes; k++) {
                const struct match_outcome *o = &rule->outcomes[k];
                if (!word_in(pr->outcomes, o->name, strlen(o->name), NULL, NULL) &&
                    !platform_outcome(pack, pr->outcomes, o->name)) {
                    az_buf_printf(err, "%s: unknown outcome \"%s\" (this rule has: %s)\n", where,
                                  o->name, pr->outcomes);
                    bad++;
                    continue;
                }
                char ow[480];
                snprintf(ow, sizeof ow, "%s: outcome \"%s\"", where, o->name);
                bad += check_template(ow, o->note, pr->vars, err);
                bad += check_template(ow, o->says, pr->vars, err);
                bad += check_template(ow, o->text, pr->vars, err);
                bad += check_template(ow, o->mark, pr->vars, err);
            }
        }
    }
    return bad;
}

/* ---- running ---- */

void corr_rules_run(struct corr_state *st)
{
    for (size_t i = 0; i < match_pack_entry_count(st->pack); i++) {
        const struct match_entry *e = match_pack_entry(st->pack, i);
        if (e->family != MATCH_FAMILY_GOTCHA) continue;
        struct corr_rule_run rr;
        memset(&rr, 0, sizeof rr);
        rr.st = st;
        rr.plateau_t0 = NAN;
        for (size_t r = 0; r < e->nrules; r++) {
            const struct prim *pr = prim_find(e->rules[r]->use);
            if (!pr) continue; /* refused by corr_rules_check() at load */
            rr.rule = e->rules[r];
            pr->fn(&rr);
        }
    }
}

/* The value of a parameter the running primitive reads. A name its schema (prims[]) does not
 * declare is a defect of the C, not of the pack: the pack was checked against the schema, so such
 * a read would silently see "absent" (NaN) on every pack. It stops here, loudly, so any test that
 * runs the primitive finds it. */
static const struct match_value *rule_value(const struct corr_rule_run *rr, const char *name)
{
    const struct prim *pr = prim_find(rr->rule->use);
    if (!pr || !word_in(pr->params, name, strlen(name), NULL, NULL)) {
        fprintf(stderr,
                "gotcha: internal error: primitive %s reads parameter \"%s\", which its "
                "schema does not declare\n",
                rr->rule->use, name);
        abort();
    }
    return match_rule_value(rr->rule, name);
}

double corr_rule_num(const struct corr_rule_run *rr, const char *name)
{
    const struct match_value *v = rule_value(rr, name);
    return v ? v->num : NAN;
}

const char *corr_rule_str(const struct corr_rule_run *rr, const char *name)
{
    const struct match_value *v = rule_value(rr, name);
    return v ? v->str : NULL;
}

const struct match_value *corr_rule_list(const struct corr_rule_run *rr, const char *name)
{
    const struct match_value *v = rule_value(rr, name);
    return v && v->list ? v : NULL;
}

/* Append template t with the variables substituted. */
static void render(struct az_buf *b, const char *t, const struct corr_var *vars, size_t nvars)
{
    while (*t) {
        const char *o = strchr(t, '{');
        const char *c = o ? strchr(o, '}') : NULL;
        if (!o || !c) {
            az_buf_puts(b, t);
            return;
        }
        az_buf_append(b, t, (size_t)(o - t));
        const char *colon = memchr(o, ':', (size_t)(c - o));
        const char *ne = colon ? colon : c;
        size_t n = (size_t)(ne - o - 1);
        const struct corr_var *v = NULL;
        for (size_t i = 0; i < nvars && !v; i++)
            if (strlen(vars[i].name) == n && !memcmp(vars[i].name, o + 1, n)) v = &vars[i];
        if (!v) {
            az_buf_append(b, o, (size_t)(c - o + 1)); /* checked at load: not reached */
        } else if (v->str) {
            az_buf_puts(b, v->str);
        } else {
            /* "{x:.1f}": precision and conversion, checked at load */
            int prec = -1;
            char conv = 'g';
            if (colon) {
                const char *f = colon + 1;
                if (*f == '.') prec = atoi(f + 1);
                conv = c[-1];
            }
            char num[64];
            if (conv == 'f')
                snprintf(num, sizeof num, "%.*f", prec < 0 ? 6 : prec, v->num);
            else if (conv == 'e')
                snprintf(num, sizeof num, "%.*e", prec < 0 ? 6 : prec, v->num);
            else
                snprintf(num, sizeof num, "%.*g", prec < 0 ? 6 : prec, v->num);
            az_buf_puts(b, num);
        }
        t = c + 1;
    }
}

char *corr_rule_render(const char *t, const struct corr_var *vars, size_t nvars)
{
    if (!t) return NULL;
    struct az_buf b = AZ_BUF_INIT;
    render(&b, t, vars, nvars);
    if (!b.data) return az_xstrdup("");
    return az_buf_steal(&b);
}

const char *corr_rule_text(const struct corr_rule_run *rr, const char *outcome,
                           const struct corr_var *vars, size_t nvars, char *buf, size_t n)
{
    const struct match_outcome *o = match_rule_outcome(rr->rule, outcome);
    char *t = corr_rule_render(o ? o->text : NULL, vars, nvars);
    snprintf(buf, n, "%s", t ? t : "");
    free(t);
    return buf;
}

struct corr_claim *corr_rule_claim(struct corr_rule_run *rr, const char *outcome,
                                   const struct corr_rec *rec, const struct corr_var *vars,
                                   size_t nvars)
{
    const struct match_outcome *o = match_rule_outcome(rr->rule, outcome);
    if (!o) return NULL; /* the pack does not want this outcome */
    struct corr_state *st = rr->st;
    az_grow((void **)&st->claims, &st->capclaims, st->nclaims + 1, sizeof *st->claims);
    struct corr_claim *c = &st->claims[st->nclaims++];
    memset(c, 0, sizeof *c);
    c->entry = rr->rule->entry;
    c->rule = rr->rule;
    c->weight = o->weight;
    c->factor = o->factor;
    c->cap = o->cap;
    c->decisive = o->decisive && o->weight > 0;
    c->strength = -1;
    c->rec = rec;
    c->note = corr_rule_render(o->note, vars, nvars);
    char *says = corr_rule_render(o->says, vars, nvars);
    if (o->weight > 0)
        c->summary = says;
    else
        c->reason = says;
    return c;
}

const char *corr_rule_mark(const struct corr_rule_run *rr, const char *outcome)
{
    const struct match_outcome *o = match_rule_outcome(rr->rule, outcome);
    return o ? o->mark : NULL;
}
