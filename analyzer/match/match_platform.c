/* match/match_platform.c - the platforms a pack declares ("platforms", docs/patterns.md
 * "Platforms") and the one detection that places a GPU on one of them. The engine knows no
 * platform: an id, a name, what identifies it (device names, compute capabilities, the band of
 * device totals that is its memory pool, host tags) and the facts the rules read (GPUs per node,
 * power rating, memory) all come from the pack. The run's context (correlate/detect_context.c) and
 * the live host (cli/host.c) both ask here, so a GPU is placed the same way everywhere. */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/match_private.h"

/* What may identify a platform; each a value with its reason. */
static const char *const identify_names[] = {
    "device_names", "capabilities",       "pool_lo_gib", "pool_hi_gib",
    "host_tag",     "contrary_host_tags", NULL};

static const struct match_value *value_of(const struct match_rule *r, const char *name)
{
    for (size_t i = 0; i < r->nvalues; i++)
        if (!strcmp(r->values[i].name, name)) return &r->values[i];
    return NULL;
}

/* A list value (a single string is taken as a list of one); 0 when absent. */
static size_t list_of(const struct match_value *v, const char *const **out)
{
    *out = NULL;
    if (!v) return 0;
    if (v->list) {
        *out = v->list;
        return v->nlist;
    }
    if (v->str) {
        *out = &v->str;
        return 1;
    }
    return 0;
}

/* A platform id: what scopes and --platform name, so lowercase letters, digits and '-'. */
static int id_ok(const char *id)
{
    /* the words --platform and scope give a meaning of their own, and the keys beside the
     * platforms' in a JSON report's context */
    static const char *const taken[] = {"other", "auto",      "any",      "unknown",
                                        "gpu",   "container", "platform", "arch"};
    if (!id || !*id) return 0;
    for (size_t i = 0; i < AZ_ARRAY_LEN(taken); i++)
        if (!strcmp(id, taken[i])) return 0;
    for (const char *c = id; *c; c++)
        if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '-') return 0;
    return 1;
}

static void load_identify(struct match_loader *ld, const char *what, json_t *js,
                          struct match_platform *pl)
{
    struct match_rule r;
    memset(&r, 0, sizeof r);
    json_t *ident = json_object_get(js, "identify");
    if (!ident) {
        match_ld_problem(ld, what, "missing required field \"identify\"");
        return;
    }
    match_ld_values(ld, what, ident, &r);
    for (size_t i = 0; i < r.nvalues; i++) {
        size_t k = 0;
        while (identify_names[k] && strcmp(identify_names[k], r.values[i].name)) k++;
        if (!identify_names[k])
            match_ld_problem(ld, what, "unknown param \"%s\"", r.values[i].name);
    }
    pl->ndevice_names = list_of(value_of(&r, "device_names"), &pl->device_names);
    pl->ncapabilities = list_of(value_of(&r, "capabilities"), &pl->capabilities);
    pl->ncontrary_host_tags = list_of(value_of(&r, "contrary_host_tags"), &pl->contrary_host_tags);
    const struct match_value *ht = value_of(&r, "host_tag");
    pl->host_tag = ht ? ht->str : NULL;
    const struct match_value *lo = value_of(&r, "pool_lo_gib"), *hi = value_of(&r, "pool_hi_gib");
    pl->pool_lo_gib = lo ? lo->num : NAN;
    pl->pool_hi_gib = hi ? hi->num : NAN;
    for (const struct match_value *b = lo; b; b = b == lo ? hi : NULL)
        if (isnan(b->num) || b->num <= 0)
            match_ld_problem(ld, what, "param \"%s\" must be a positive number", b->name);
    if (!lo != !hi)
        match_ld_problem(ld, what, "missing param \"%s\"", lo ? "pool_hi_gib" : "pool_lo_gib");
    else if (lo && !isnan(lo->num) && !isnan(hi->num) && lo->num >= hi->num)
        match_ld_problem(ld, what, "pool_lo_gib (%g) must be below pool_hi_gib (%g)", lo->num,
                         hi->num);
    if (!pl->ndevice_names && !pl->ncapabilities && !lo && !pl->host_tag)
        match_ld_problem(ld, what,
                         "identifies nothing (device_names, capabilities, pool band "
                         "or host_tag)");
}

static void load_one(struct match_loader *ld, json_t *js, size_t idx)
{
    char what[200];
    snprintf(what, sizeof what, "platforms[%zu]", idx);
    if (!json_is_object(js)) {
        match_ld_problem(ld, what, "must be an object {\"id\", \"name\", \"identify\", ...}");
        return;
    }
    static const char *const fields[] = {"id",    "name",    "title", "identify",
                                         "facts", "sources", NULL};
    match_ld_fields(ld, what, js, fields);
    const char *id = match_ld_str(ld, what, js, "id", 1);
    if (!id) return;
    snprintf(what, sizeof what, "platform %s", id);
    if (!id_ok(id)) {
        match_ld_problem(ld, what,
                         "bad id (lowercase letters, digits and '-'; not other, auto, "
                         "any or unknown)");
        return;
    }
    const struct match_platform *dup = match_pack_find_platform(ld->p, id);
    if (dup) {
        match_ld_problem(ld, what, "declared twice (already in %s)", dup->file);
        return;
    }
    struct match_platform *pl = az_xcalloc(1, sizeof *pl);
    az_grow((void **)&ld->p->platforms, &ld->p->cap_platforms, ld->p->nplatforms + 1,
            sizeof *ld->p->platforms);
    ld->p->platforms[ld->p->nplatforms++] = pl;
    pl->id = match_ld_own(ld->p, id);
    pl->name = match_ld_own(ld->p, match_ld_str(ld, what, js, "name", 1));
    pl->title = match_ld_own(ld->p, match_ld_str(ld, what, js, "title", 0));
    pl->file = match_ld_own(ld->p, ld->file);
    match_ld_str_list(ld, what, js, "sources", 1, 1);
    load_identify(ld, what, js, pl);
    struct match_rule facts;
    memset(&facts, 0, sizeof facts);
    match_ld_values(ld, what, json_object_get(js, "facts"), &facts);
    pl->facts = facts.values;
    pl->nfacts = facts.nvalues;
}

void match_platforms_load(struct match_loader *ld, json_t *list)
{
    if (!json_is_array(list)) {
        match_ld_problem(ld, "platforms", "must be a list of platforms");
        return;
    }
    size_t i;
    json_t *js;
    json_array_foreach(list, i, js) load_one(ld, js, i);
}

void match_platforms_free(struct match_pack *p)
{
    for (size_t i = 0; i < p->nplatforms; i++) free(p->platforms[i]);
    free(p->platforms);
}

/* ---- reading ---- */

size_t match_pack_platform_count(const struct match_pack *p)
{
    return p ? p->nplatforms : 0;
}

const struct match_platform *match_pack_platform(const struct match_pack *p, size_t i)
{
    return p && i < p->nplatforms ? p->platforms[i] : NULL;
}

const struct match_platform *match_pack_find_platform(const struct match_pack *p, const char *id)
{
    for (size_t i = 0; p && id && i < p->nplatforms; i++)
        if (!strcmp(p->platforms[i]->id, id)) return p->platforms[i];
    return NULL;
}

const struct match_value *match_platform_fact(const struct match_platform *pl, const char *name)
{
    for (size_t i = 0; pl && i < pl->nfacts; i++)
        if (!strcmp(pl->facts[i].name, name)) return &pl->facts[i];
    return NULL;
}

double match_platform_num(const struct match_platform *pl, const char *name)
{
    const struct match_value *v = match_platform_fact(pl, name);
    return v ? v->num : NAN;
}

const char *match_platform_str(const struct match_platform *pl, const char *name)
{
    const struct match_value *v = match_platform_fact(pl, name);
    return v && v->str ? v->str : "";
}

/* ---- the one detection ---- */

static int has_casefold(const char *s, const char *needle)
{
    return s && needle && *needle && az_memcasemem(s, strlen(s), needle, strlen(needle)) != NULL;
}

long match_place_gpu_name(const struct match_pack *p, const char *name)
{
    if (!name || !*name) return MATCH_PLACE_NONE;
    for (size_t i = 0; p && i < p->nplatforms; i++)
        for (size_t k = 0; k < p->platforms[i]->ndevice_names; k++)
            if (has_casefold(name, p->platforms[i]->device_names[k])) return (long)i;
    /* a real name ("NVIDIA H100 80GB HBM3"), not a stray token */
    return strlen(name) > 2 ? MATCH_PLACE_OTHER : MATCH_PLACE_NONE;
}

long match_place_capability(const struct match_pack *p, const char *cap, int *major, int *minor)
{
    *major = *minor = 0;
    if (!cap) return MATCH_PLACE_NONE;
    const char *c = cap;
    while (*c && !isdigit((unsigned char)*c)) c++;
    *major = atoi(c);
    while (*c && isdigit((unsigned char)*c)) c++;
    if (*c == '.' || *c == ',' || *c == ' ') {
        while (*c && !isdigit((unsigned char)*c)) c++;
        *minor = atoi(c);
    } else if (*major >= 10) {
        /* "sm_121" / "121": major and minor run together */
        *minor = *major % 10;
        *major /= 10;
    }
    if (*major <= 0) return MATCH_PLACE_NONE;
    char norm[32];
    snprintf(norm, sizeof norm, "%d.%d", *major, *minor);
    for (size_t i = 0; p && i < p->nplatforms; i++)
        for (size_t k = 0; k < p->platforms[i]->ncapabilities; k++)
            if (!strcmp(norm, p->platforms[i]->capabilities[k])) return (long)i;
    return MATCH_PLACE_OTHER;
}

long match_place_total_gib(const struct match_pack *p, double gib)
{
    int banded = 0;
    for (size_t i = 0; p && i < p->nplatforms; i++) {
        const struct match_platform *pl = p->platforms[i];
        if (isnan(pl->pool_lo_gib)) continue;
        banded = 1;
        if (gib >= pl->pool_lo_gib && gib <= pl->pool_hi_gib) return (long)i;
    }
    /* without a declared band a total places nothing */
    return banded ? MATCH_PLACE_OTHER : MATCH_PLACE_NONE;
}
