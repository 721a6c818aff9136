/*
 * match/match_catalog.c - fault-code catalogues (NVIDIA Xid, NVSwitch SXid): one table per
 * catalogue instead of one regex per code (docs/patterns.md, "Catalogues").
 *
 * A catalogue is data: rows of code, name, meaning, severity and action. One or more line-shape
 * signatures (an ordinary signature with "catalogue": ID and a (?<code>...) group) find the lines;
 * the loader makes one signature per code (two when a shape also reads the line's own
 * Fatal/Non-fatal word), without a regex, and the scanner reports a shape's hit as its code's
 * signature. So every code has its own evidence, counts and strength, and the engine knows no code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "match/match_private.h"

#define CODE_DIGITS_MAX 9 /* longest code text looked up (SXid codes have 5 digits) */

/* Strength of a code's signature when its row names none: a fatal fault is strong evidence of
 * the failure, a non-fatal one a hint. */
static enum match_strength default_strength(int fatal)
{
    return fatal ? MATCH_STRONG : MATCH_WEAK;
}

static int severity_of(const char *s)
{
    if (!s) return -1;
    if (strcmp(s, "fatal") == 0) return 1;
    if (strcmp(s, "nonfatal") == 0) return 0;
    return -1;
}

static int row_cmp(const void *a, const void *b)
{
    long x = ((const struct match_cat_row *)a)->pub.code;
    long y = ((const struct match_cat_row *)b)->pub.code;
    return x < y ? -1 : x > y;
}

/* "severity_tags": {"fatal": [...], "nonfatal": [...]}: the tags each code's signature of that
 * severity carries (a fatal Xid is a fault a CUDA error is the cascade of). */
static void load_severity_tags(struct match_loader *ld, const char *what, json_t *jc,
                               struct match_catalogue_priv *c)
{
    json_t *st = json_object_get(jc, "severity_tags");
    if (!st) return;
    char sw[200];
    snprintf(sw, sizeof sw, "%s: severity_tags", what);
    if (!json_is_object(st)) {
        match_ld_problem(ld, sw, "must be an object {\"fatal\": [tags], \"nonfatal\": [tags]}");
        return;
    }
    static const char *const sfields[] = {"nonfatal", "fatal", NULL};
    match_ld_fields(ld, sw, st, sfields);
    for (int fatal = 0; fatal < 2; fatal++)
        c->sev_tags[fatal] = match_ld_tags(ld, sw, st, sfields[fatal], &c->nsev_tags[fatal]);
}

static void load_one(struct match_loader *ld, json_t *jc, size_t idx)
{
    char what[160];
    snprintf(what, sizeof what, "catalogue %zu", idx);
    if (!json_is_object(jc)) {
        match_ld_problem(ld, what, "must be an object");
        return;
    }
    static const char *const fields[] = {"id",      "label", "title",         "entry", "sources",
                                         "actions", "codes", "severity_tags", NULL};
    const char *id = match_ld_str(ld, what, jc, "id", 1);
    if (id) snprintf(what, sizeof what, "catalogue %s", id);
    match_ld_fields(ld, what, jc, fields);
    const char *label = match_ld_str(ld, what, jc, "label", 1);
    const char *title = match_ld_str(ld, what, jc, "title", 1);
    const char *entry = match_ld_str(ld, what, jc, "entry", 1);
    json_t *sources = json_object_get(jc, "sources");
    if (!json_is_array(sources) || json_array_size(sources) == 0 ||
        !json_is_string(json_array_get(sources, 0)))
        match_ld_problem(ld, what, "field \"sources\" must be a non-empty list of strings");
    json_t *actions = json_object_get(jc, "actions");
    json_t *codes = json_object_get(jc, "codes");
    if (!json_is_object(actions)) {
        match_ld_problem(ld, what, "field \"actions\" must be an object {\"BUCKET\": {...}}");
        actions = NULL;
    }
    if (!json_is_array(codes) || json_array_size(codes) == 0) {
        match_ld_problem(ld, what, "field \"codes\" must be a non-empty list");
        codes = NULL;
    }
    if (id)
        for (size_t i = 0; i < ld->p->ncats; i++)
            if (strcasecmp(ld->p->cats[i]->pub.id, id) == 0)
                match_ld_problem(ld, what, "duplicate catalogue id");
    /* the action table */
    if (actions) {
        const char *key;
        json_t *a;
        json_object_foreach(actions, key, a)
        {
            char aw[240];
            snprintf(aw, sizeof aw, "%s: action %s", what, key);
            static const char *const afields[] = {"text", "role", "strength", NULL};
            if (!json_is_object(a)) {
                match_ld_problem(ld, aw, "must be an object {\"text\": ...}");
                continue;
            }
            match_ld_fields(ld, aw, a, afields);
            match_ld_str(ld, aw, a, "text", 1);
            const char *role = match_ld_str(ld, aw, a, "role", 0);
            if (role && strcmp(role, "noise") && strcmp(role, "cause"))
                match_ld_problem(ld, aw, "unknown role \"%s\" (cause or noise)", role);
            const char *st = match_ld_str(ld, aw, a, "strength", 0);
            if (st && match_ld_strength(st) < 0)
                match_ld_problem(ld, aw, "unknown strength \"%s\"", st);
        }
    }
    if (!id || !label || !title || !entry || !actions || !codes) return;

    struct match_catalogue_priv *c = az_xcalloc(1, sizeof *c);
    struct match_pack *p = ld->p;
    c->pub.id = match_ld_own(p, id);
    c->pub.label = match_ld_own(p, label);
    c->pub.title = match_ld_own(p, title);
    c->pub.entry = match_ld_own(p, entry);
    c->pub.source = match_ld_own(p, ld->file);
    load_severity_tags(ld, what, jc, c);
    size_t n = json_array_size(codes);
    c->rows = az_xcalloc(n, sizeof *c->rows);
    static const char *const rfields[] = {"code",     "mnemonic", "name",     "meaning",
                                          "severity", "action",   "strength", NULL};
    size_t i;
    json_t *jr;
    json_array_foreach(codes, i, jr)
    {
        char rw[200];
        snprintf(rw, sizeof rw, "%s: code %zu", what, i);
        json_t *jcode = json_is_object(jr) ? json_object_get(jr, "code") : NULL;
        if (!json_is_integer(jcode) || json_integer_value(jcode) < 0 ||
            json_integer_value(jcode) > 999999999) {
            match_ld_problem(ld, rw, "field \"code\" must be an integer 0..999999999");
            continue;
        }
        snprintf(rw, sizeof rw, "%s: code %lld", what, (long long)json_integer_value(jcode));
        match_ld_fields(ld, rw, jr, rfields);
        const char *name = match_ld_str(ld, rw, jr, "name", 1);
        const char *sev = match_ld_str(ld, rw, jr, "severity", 1);
        const char *act = match_ld_str(ld, rw, jr, "action", 1);
        const char *str = match_ld_str(ld, rw, jr, "strength", 0);
        if (sev && severity_of(sev) < 0)
            match_ld_problem(ld, rw, "unknown severity \"%s\" (fatal or nonfatal)", sev);
        json_t *ja = act ? json_object_get(actions, act) : NULL;
        if (act && !json_is_object(ja))
            match_ld_problem(ld, rw, "action \"%s\" is not in the catalogue's actions", act);
        struct match_cat_row *row = &c->rows[c->pub.ncodes++];
        row->strength = str ? match_ld_strength(str) : -1;
        if (str && row->strength < 0) match_ld_problem(ld, rw, "unknown strength \"%s\"", str);
        struct match_code *r = &row->pub;
        r->cat = &c->pub;
        r->code = (long)json_integer_value(jcode);
        r->mnemonic = match_ld_own(p, match_ld_str(ld, rw, jr, "mnemonic", 0));
        r->name = match_ld_own(p, name);
        r->meaning = match_ld_own(p, match_ld_str(ld, rw, jr, "meaning", 0));
        r->severity = match_ld_own(p, sev);
        r->action = match_ld_own(p, act);
        const char *text = json_is_object(ja) ? json_string_value(json_object_get(ja, "text")) : "";
        r->action_text = match_ld_own(p, text);
        const char *role = json_is_object(ja) ? json_string_value(json_object_get(ja, "role")) : 0;
        row->noise = role && strcmp(role, "noise") == 0;
        const char *ast =
            json_is_object(ja) ? json_string_value(json_object_get(ja, "strength")) : 0;
        row->action_strength = ast ? match_ld_strength(ast) : -1;
        r->sig_id = "";
    }
    az_grow((void **)&p->cats, &p->cap_cats, p->ncats + 1, sizeof *p->cats);
    p->cats[p->ncats++] = c;
}

void match_catalogues_load(struct match_loader *ld, json_t *list)
{
    if (!json_is_array(list)) {
        match_ld_problem(ld, "file", "field \"catalogues\" must be a list");
        return;
    }
    size_t i;
    json_t *jc;
    json_array_foreach(list, i, jc) load_one(ld, jc, i);
}

static struct match_entry_priv *entry_of(struct match_pack *p, const char *id)
{
    for (size_t i = 0; i < p->nentries; i++)
        if (strcmp(p->entries[i]->pub.id, id) == 0) return p->entries[i];
    return NULL;
}

/* A code's signature: no regex, the shape's kinds, the row's words. */
static const struct match_sig *make_sig(struct match_loader *ld, struct match_entry_priv *e,
                                        const struct match_catalogue_priv *c,
                                        const struct match_code *r, uint32_t kinds, int fatal,
                                        int base, const struct match_cat_row *x)
{
    struct match_pack *p = ld->p;
    struct match_sig_priv *s = az_xcalloc(1, sizeof *s);
    char *id = base ? az_xasprintf("%s.%ld", e->pub.id, r->code)
                    : az_xasprintf("%s.%ld.%s", e->pub.id, r->code, fatal ? "fatal" : "nonfatal");
    /* a signature id is its entry's id, a dot and a name: only the entry's own signatures can
     * clash (and its codes are distinct), so the check stays linear in the pack */
    for (size_t i = 0; i < e->pub.nsigs; i++)
        if (!e->pub.sigs[i]->code && strcmp(e->pub.sigs[i]->id, id) == 0)
            match_ld_problem(ld, id, "duplicate signature id (a catalogue code's)");
    s->pub.id = match_ld_own(p, id);
    free(id);
    s->pub.entry = &e->pub;
    s->pub.kinds = kinds;
    /* the row's own strength, else its action's (an application the driver stopped is strong
     * evidence of the failure whatever the GPU's state), else by severity */
    if (base && x->strength >= 0)
        s->pub.strength = (enum match_strength)x->strength;
    else if (x->action_strength >= 0)
        s->pub.strength = (enum match_strength)x->action_strength;
    else
        s->pub.strength = default_strength(fatal);
    s->pub.regex = "";
    char *sum = az_xasprintf("%s %ld: %s", r->cat->label, r->code, r->name);
    s->pub.summary = match_ld_own(p, sum);
    free(sum);
    s->pub.note = r->meaning; /* the action is the code's own (match_code.action_text) */
    if (x->noise && !fatal)
        s->pub.role = MATCH_ROLE_NOISE;
    else
        s->pub.role = s->pub.strength == MATCH_CONTEXT ? MATCH_ROLE_CONTEXT : MATCH_ROLE_ROOT;
    s->pub.contrary_factor = 1;
    s->pub.code = r;
    s->pub.severity = fatal ? "fatal" : "nonfatal";
    s->own_tags = c->sev_tags[fatal]; /* the entry's are added after, as for every signature */
    s->nown_tags = c->nsev_tags[fatal];
    s->code_fact = s->sev_fact = -1;
    match_ld_add_sig(p, e, s);
    return &s->pub;
}

void match_catalogues_build(struct match_loader *ld)
{
    struct match_pack *p = ld->p;
    /* tie each shape to its catalogue */
    size_t nsigs0 = p->nsigs;
    for (size_t i = 0; i < nsigs0; i++) {
        struct match_sig_priv *s = p->sigs[i];
        if (!s->cat_name) continue;
        ld->file = s->pub.entry->source; /* problems name the file that defines the entry */
        struct match_catalogue_priv *c = NULL;
        for (size_t k = 0; k < p->ncats && !c; k++)
            if (strcmp(p->cats[k]->pub.id, s->cat_name) == 0) c = p->cats[k];
        if (!c) {
            match_ld_problem(ld, s->pub.id, "unknown catalogue \"%s\"", s->cat_name);
            continue;
        }
        if (strcmp(s->pub.entry->id, c->pub.entry) != 0)
            match_ld_problem(ld, s->pub.id, "a shape of catalogue \"%s\" belongs to entry %s",
                             c->pub.id, c->pub.entry);
        s->cat = c;
        s->code_fact = match_sig_fact_index(s, "code");
        s->sev_fact = match_sig_fact_index(s, "severity");
        if (s->code_fact < 0 && s->fixed_code < 0)
            match_ld_problem(ld, s->pub.id,
                             "a catalogue shape needs a group (?<code>[0-9]+) or a \"code\"");
        if (s->sev_fact >= 0) c->reads_severity = 1;
        s->pub.shape_of = &c->pub;
    }
    for (size_t k = 0; k < p->ncats; k++) {
        struct match_catalogue_priv *c = p->cats[k];
        ld->file = c->pub.source;
        struct match_entry_priv *e = entry_of(p, c->pub.entry);
        uint32_t kinds = 0;
        for (size_t i = 0; i < nsigs0; i++)
            if (p->sigs[i]->cat == c) kinds |= p->sigs[i]->pub.kinds;
        if (!e) match_ld_problem(ld, c->pub.id, "entry \"%s\" does not exist", c->pub.entry);
        if (!kinds) match_ld_problem(ld, c->pub.id, "no signature names it as \"catalogue\"");
        qsort(c->rows, c->pub.ncodes, sizeof *c->rows, row_cmp);
        c->codes = az_xcalloc(c->pub.ncodes ? c->pub.ncodes : 1, sizeof *c->codes);
        for (size_t i = 0; i < c->pub.ncodes; i++) {
            c->codes[i] = c->rows[i].pub;
            if (i && c->codes[i].code == c->codes[i - 1].code)
                match_ld_problem(ld, c->pub.id, "code %ld is listed twice", c->codes[i].code);
        }
        c->pub.codes = c->codes;
        c->sig_fatal = az_xcalloc(c->pub.ncodes ? c->pub.ncodes : 1, sizeof *c->sig_fatal);
        c->sig_nonfatal = az_xcalloc(c->pub.ncodes ? c->pub.ncodes : 1, sizeof *c->sig_nonfatal);
        for (size_t i = 0; e && kinds && i < c->pub.ncodes; i++) {
            struct match_code *r = &c->codes[i];
            const struct match_cat_row *x = &c->rows[i];
            int fatal = severity_of(r->severity) == 1;
            const struct match_sig *b = make_sig(ld, e, c, r, kinds, fatal, 1, x);
            r->sig_id = b->id;
            (fatal ? c->sig_fatal : c->sig_nonfatal)[i] = b;
            if (c->reads_severity)
                (fatal ? c->sig_nonfatal : c->sig_fatal)[i] =
                    make_sig(ld, e, c, r, kinds, !fatal, 0, x);
        }
    }
    for (size_t i = 0; i < nsigs0; i++) {
        const struct match_sig_priv *s = p->sigs[i];
        ld->file = s->pub.entry->source;
        if (s->cat && s->fixed_code >= 0 && !match_catalogue_find(&s->cat->pub, s->fixed_code))
            match_ld_problem(ld, s->pub.id, "code %ld is not in catalogue %s", s->fixed_code,
                             s->cat->pub.id);
    }
}

void match_catalogues_free(struct match_pack *p)
{
    for (size_t k = 0; k < p->ncats; k++) {
        struct match_catalogue_priv *c = p->cats[k];
        free(c->sig_fatal);
        free(c->sig_nonfatal);
        free(c->rows);
        free(c->codes);
        free(c);
    }
    free(p->cats);
}

/* ---- the hot path ---- */

const struct match_code *match_catalogue_find(const struct match_catalogue *c, long code)
{
    size_t lo = 0, hi = c->ncodes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->codes[mid].code == code) return &c->codes[mid];
        if (c->codes[mid].code < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const struct match_sig_priv *match_catalogue_resolve(const struct match_sig_priv *shape,
                                                     const struct match_fact *facts)
{
    const struct match_catalogue_priv *c = shape->cat;
    long code = shape->fixed_code;
    if (code < 0) {
        const struct match_fact *fc = &facts[shape->code_fact];
        if (!fc->val || fc->len == 0 || fc->len > CODE_DIGITS_MAX)
            return shape->follow_up ? NULL : shape;
        code = 0;
        for (size_t i = 0; i < fc->len; i++) {
            if (fc->val[i] < '0' || fc->val[i] > '9') return shape->follow_up ? NULL : shape;
            code = code * 10 + (fc->val[i] - '0');
        }
    }
    const struct match_code *r = match_catalogue_find(&c->pub, code);
    if (!r) return shape->follow_up ? NULL : shape;
    size_t i = (size_t)(r - c->codes);
    const struct match_sig *s =
        severity_of(r->severity) == 1 ? c->sig_fatal[i] : c->sig_nonfatal[i];
    if (shape->sev_fact >= 0 && facts[shape->sev_fact].val) {
        /* the line says "Fatal", or "Non-fatal", "Nonfatal", "Correctable": not fatal */
        const struct match_fact *fs = &facts[shape->sev_fact];
        int fatal = fs->len == 5 && match_contains_lower(fs->val, fs->len, "fatal", 5);
        const struct match_sig *v = fatal ? c->sig_fatal[i] : c->sig_nonfatal[i];
        if (v) s = v;
    }
    if (shape->follow_up && (!s || s->role == MATCH_ROLE_NOISE)) return NULL;
    return s ? match_sig_priv_of(s) : shape;
}

/* ---- lookups ---- */

size_t match_pack_catalogue_count(const struct match_pack *p)
{
    return p->ncats;
}

const struct match_catalogue *match_pack_catalogue(const struct match_pack *p, size_t i)
{
    return i < p->ncats ? &p->cats[i]->pub : NULL;
}

const struct match_catalogue *match_pack_find_catalogue(const struct match_pack *p, const char *id)
{
    for (size_t i = 0; i < p->ncats; i++)
        if (strcasecmp(p->cats[i]->pub.id, id) == 0) return &p->cats[i]->pub;
    return NULL;
}
