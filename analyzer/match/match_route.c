/*
 * match/match_route.c - a signature's "route" (docs/patterns.md, "Route"): one line shape whose
 * hits stand for the signature of another entry when a fact the line captures says so (a docker
 * build step's failure is an install failure when the step's command ran an installer, a build
 * failure otherwise). The loader makes one regex-less signature per case, in the case's entry;
 * the scanner runs the cases' regexes on the fact of a hit only, first case first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "match/match_private.h"

static const char *const route_fields[] = {"fact", "why", "cases", NULL};
static const char *const case_fields[] = {"regex", "entry", "summary", "why", NULL};

/* One case {"regex", "entry", "summary"?, "why"} into r. 0 on success. */
static int load_case(struct match_loader *ld, const char *what, json_t *jc, struct match_route *r)
{
    if (!json_is_object(jc)) {
        match_ld_problem(ld, what, "a route case must be {\"regex\", \"entry\", \"why\"}");
        return -1;
    }
    match_ld_fields(ld, what, jc, case_fields);
    const char *regex = match_ld_str(ld, what, jc, "regex", 1);
    const char *entry = match_ld_str(ld, what, jc, "entry", 1);
    const char *summary = match_ld_str(ld, what, jc, "summary", 0);
    match_ld_str(ld, what, jc, "why", 1);
    if (!regex || !entry) return -1;
    r->code = match_ld_compile(ld, what, regex, &r->jit);
    if (!r->code) return -1;
    r->entry = az_xstrdup(entry);
    r->summary = summary ? match_ld_own(ld->p, summary) : NULL;
    return 0;
}

void match_route_load(struct match_loader *ld, const char *what, json_t *js,
                      struct match_sig_priv *s)
{
    s->route_fact = -1;
    json_t *jr = json_object_get(js, "route");
    if (!jr) return;
    char rwhat[300];
    snprintf(rwhat, sizeof(rwhat), "%s: route", what);
    if (!json_is_object(jr)) {
        match_ld_problem(ld, what, "field \"route\" must be {\"fact\", \"why\", \"cases\": [...]}");
        return;
    }
    match_ld_fields(ld, rwhat, jr, route_fields);
    const char *fact = match_ld_str(ld, rwhat, jr, "fact", 1);
    match_ld_str(ld, rwhat, jr, "why", 1);
    json_t *cases = json_object_get(jr, "cases");
    if (!cases || !json_is_array(cases) || json_array_size(cases) == 0) {
        match_ld_problem(ld, rwhat, "field \"cases\" must be a nonempty list");
        return;
    }
    if (s->cat_name) {
        match_ld_problem(ld, what, "\"route\" and \"catalogue\" do not go together");
        return;
    }
    if (!fact) return;
    s->route_fact_name = az_xstrdup(fact);
    s->routes = az_xcalloc(json_array_size(cases), sizeof(*s->routes));
    size_t i;
    json_t *jc;
    json_array_foreach(cases, i, jc)
    {
        char cwhat[340];
        snprintf(cwhat, sizeof(cwhat), "%s case %zu", rwhat, i);
        if (load_case(ld, cwhat, jc, &s->routes[s->nroutes]) == 0) s->nroutes++;
    }
}

void match_route_free(struct match_sig_priv *s)
{
    for (size_t i = 0; i < s->nroutes; i++) {
        pcre2_code_free(s->routes[i].code);
        free(s->routes[i].entry);
    }
    free(s->routes);
    free(s->route_fact_name);
}

/* The signature of case r of shape s: "<entry>.<the shape's name>", its strength, kinds, role,
 * facts and own tags (the entry's are added after, as for every signature), no regex. */
static const struct match_sig *make_routed(struct match_loader *ld, const struct match_sig_priv *s,
                                           struct match_entry_priv *e, const struct match_route *r)
{
    struct match_pack *p = ld->p;
    const char *name = s->pub.id + strlen(s->pub.entry->id) + 1;
    char *id = az_xasprintf("%s.%s", e->pub.id, name);
    for (size_t i = 0; i < p->nsigs; i++)
        if (strcmp(p->sigs[i]->pub.id, id) == 0)
            match_ld_problem(ld, s->pub.id, "route to %s: signature %s exists", e->pub.id, id);
    struct match_sig_priv *t = az_xcalloc(1, sizeof(*t));
    t->pub = s->pub;
    t->pub.id = match_ld_own(p, id);
    free(id);
    t->pub.entry = &e->pub;
    t->pub.summary = r->summary ? r->summary : s->pub.summary;
    t->pub.after = NULL; /* the shape's condition holds before a hit is routed */
    t->pub.after_within = 0;
    t->pub.routed_from = &s->pub;
    t->own_tags = s->own_tags;
    t->nown_tags = s->nown_tags;
    t->code_fact = t->sev_fact = t->route_fact = -1;
    t->fixed_code = -1;
    match_ld_add_sig(p, e, t);
    return &t->pub;
}

void match_routes_build(struct match_loader *ld)
{
    struct match_pack *p = ld->p;
    size_t nsigs0 = p->nsigs;
    for (size_t i = 0; i < nsigs0; i++) {
        struct match_sig_priv *s = p->sigs[i];
        if (!s->route_fact_name) continue;
        ld->file = s->pub.entry->source;
        s->route_fact = match_sig_fact_index(s, s->route_fact_name);
        if (s->route_fact < 0) {
            match_ld_problem(ld, s->pub.id, "route: the regex has no group (?<%s>...)",
                             s->route_fact_name);
            continue;
        }
        for (size_t k = 0; k < s->nroutes; k++) {
            struct match_route *r = &s->routes[k];
            struct match_entry_priv *e = NULL;
            for (size_t j = 0; j < p->nentries && !e; j++)
                if (strcmp(p->entries[j]->pub.id, r->entry) == 0) e = p->entries[j];
            if (!e) {
                match_ld_problem(ld, s->pub.id, "route: entry \"%s\" does not exist", r->entry);
                continue;
            }
            if (&e->pub == s->pub.entry) {
                match_ld_problem(ld, s->pub.id, "route: \"%s\" is the signature's own entry",
                                 r->entry);
                continue;
            }
            r->sig = make_routed(ld, s, e, r);
        }
    }
}

const struct match_sig_priv *match_route_resolve(const struct match_sig_priv *shape,
                                                 const struct match_fact *facts,
                                                 pcre2_match_data *md, pcre2_match_context *mctx)
{
    const struct match_fact *f = &facts[shape->route_fact];
    if (!f->val) return shape;
    for (size_t k = 0; k < shape->nroutes; k++) {
        const struct match_route *r = &shape->routes[k];
        if (!r->sig) continue;
        int rc = r->jit ? pcre2_jit_match(r->code, (PCRE2_SPTR)f->val, f->len, 0, 0, md, mctx)
                        : pcre2_match(r->code, (PCRE2_SPTR)f->val, f->len, 0, 0, md, mctx);
        if (rc >= 0) return match_sig_priv_of(r->sig);
    }
    return shape;
}
