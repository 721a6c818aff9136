/*
 * match/match_load.c - load and validate the signature pack (docs/patterns.md), compile its
 * regexes with JIT and build the literal searcher.
 *
 * Validation is strict and exhaustive: every problem of every file is reported, one per line, so a
 * pack author fixes them in one round. Unknown fields are errors: a typo must never silently
 * disable a signature.
 */
#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "match/match_private.h"

#define MAX_LITERALS  64          /* per signature */
#define PACK_FILE_MAX (16u << 20) /* bytes of one pack file; the shipped ones are under 1 MiB */

void match_ld_problem(struct match_loader *ld, const char *what, const char *fmt, ...)
{
    va_list ap;
    ld->nerr++;
    if (!ld->err) return;
    az_buf_printf(ld->err, "%s: %s: ", ld->file, what);
    va_start(ap, fmt);
    az_buf_vprintf(ld->err, fmt, ap);
    va_end(ap);
    az_buf_putc(ld->err, '\n');
}

const char *match_ld_own(struct match_pack *p, const char *s)
{
    char *c = az_xstrdup(s ? s : "");
    az_grow((void **)&p->strings, &p->cap_strings, p->nstrings + 1, sizeof(*p->strings));
    p->strings[p->nstrings++] = c;
    return c;
}

/* An array of n elements the pack owns (freed with it); NULL when n is 0. */
void *match_ld_block(struct match_pack *p, size_t n, size_t size)
{
    if (!n) return NULL;
    void *b = az_xcalloc(n, size);
    az_grow((void **)&p->blocks, &p->cap_blocks, p->nblocks + 1, sizeof(*p->blocks));
    p->blocks[p->nblocks++] = b;
    return b;
}

/* ---- names ---- */

static const char *const strength_names[] = {"context", "weak", "strong", "decisive"};
static const char *const family_names[] = {"gotcha", "common", "context", "series"};
static const char *const fact_type_names[] = {"string", "number", "bytes"};
static const char *const role_names[] = {"root", "cascade", "context", "contrary", "noise"};

static int name_index(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return (int)i;
    return -1;
}

int match_ld_strength(const char *name)
{
    return name_index(strength_names, AZ_ARRAY_LEN(strength_names), name);
}

const char *match_strength_name(enum match_strength s)
{
    return (size_t)s < AZ_ARRAY_LEN(strength_names) ? strength_names[s] : "?";
}

const char *match_role_name(enum match_role r)
{
    return (size_t)r < AZ_ARRAY_LEN(role_names) ? role_names[r] : "?";
}

const char *match_family_name(enum match_family f)
{
    return (size_t)f < AZ_ARRAY_LEN(family_names) ? family_names[f] : "?";
}

/* ---- field checks ---- */

/* Report every key of obj not in allowed (NULL-terminated). */
void match_ld_fields(struct match_loader *ld, const char *what, json_t *obj,
                     const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        size_t i = 0;
        while (allowed[i] && strcmp(allowed[i], key) != 0) i++;
        if (!allowed[i]) match_ld_problem(ld, what, "unknown field \"%s\"", key);
    }
}

/* The string field key of obj; NULL (reported when required) when absent or not a string. */
const char *match_ld_str(struct match_loader *ld, const char *what, json_t *obj, const char *key,
                         int required)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required) match_ld_problem(ld, what, "missing required field \"%s\"", key);
        return NULL;
    }
    if (!json_is_string(v)) {
        match_ld_problem(ld, what, "field \"%s\" must be a string", key);
        return NULL;
    }
    return json_string_value(v);
}

/* A list of strings; NULL (reported) when absent, not a list, or holding a non-string. */
json_t *match_ld_str_list(struct match_loader *ld, const char *what, json_t *obj, const char *key,
                          int required, int nonempty)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required) match_ld_problem(ld, what, "missing required field \"%s\"", key);
        return NULL;
    }
    if (!json_is_array(v)) {
        match_ld_problem(ld, what, "field \"%s\" must be a list of strings", key);
        return NULL;
    }
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x)
    {
        if (!json_is_string(x)) {
            match_ld_problem(ld, what, "field \"%s\" must be a list of strings (item %zu)", key, i);
            return NULL;
        }
    }
    if (nonempty && json_array_size(v) == 0) {
        match_ld_problem(ld, what, "field \"%s\" must not be empty", key);
        return NULL;
    }
    return v;
}

static char **copy_str_list(json_t *list, size_t *n)
{
    *n = list ? json_array_size(list) : 0;
    if (*n == 0) return NULL;
    char **out = az_xcalloc(*n, sizeof(*out));
    for (size_t i = 0; i < *n; i++) out[i] = az_xstrdup(json_string_value(json_array_get(list, i)));
    return out;
}

static void free_str_list(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++) free(l[i]);
    free(l);
}

/* G1, G2, ... -> 1, 2, ...; 0 otherwise (a site id, or not a gotcha id). */
static long gotcha_number(const char *id)
{
    if (id[0] != 'G' || !isdigit((unsigned char)id[1]) || id[1] == '0') return 0;
    char *end;
    long n = strtol(id + 1, &end, 10);
    return *end == '\0' && n >= 1 && n <= 99999 ? n : 0;
}

static int valid_name_chars(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.') return 0;
    return 1;
}

/* A site's own gotcha: "ACME.quota" (capitals and digits, a dot, a name); never a prefix the
 * other families or the numbered gotchas use. */
static int site_id(const char *id)
{
    const char *dot = strchr(id, '.');
    if (!dot || dot == id || !valid_name_chars(dot + 1)) return 0;
    for (const char *c = id; c < dot; c++)
        if (!isupper((unsigned char)*c) && !isdigit((unsigned char)*c)) return 0;
    size_t n = (size_t)(dot - id);
    if ((n == 1 && id[0] == 'C') || (n == 3 && !strncmp(id, "CTX", 3)) ||
        (n == 6 && !strncmp(id, "SERIES", 6)))
        return 0;
    if (id[0] == 'G') {
        const char *c = id + 1;
        while (c < dot && isdigit((unsigned char)*c)) c++;
        if (c == dot) return 0; /* G11.x: a signature id shape, not an entry */
    }
    return 1;
}

/* The entry id's shape for its family; NULL when fine, else what is wrong. */
static const char *entry_id_problem(enum match_family f, const char *id)
{
    switch (f) {
    case MATCH_FAMILY_GOTCHA:
        return gotcha_number(id) || site_id(id)
                   ? NULL
                   : "gotcha ids are G<n> or a site id <SITE>.<name> "
                     "(SITE: capitals and digits, not C, CTX, SERIES or G<n>)";
    case MATCH_FAMILY_COMMON:
        return strncmp(id, "C.", 2) == 0 && valid_name_chars(id + 2) ? NULL
                                                                     : "common ids are C.<name>";
    case MATCH_FAMILY_CONTEXT:
        return strcmp(id, "CTX") == 0 || (strncmp(id, "CTX.", 4) == 0 && valid_name_chars(id + 4))
                   ? NULL
                   : "context ids are CTX or CTX.<name>";
    case MATCH_FAMILY_SERIES:
        return strcmp(id, "SERIES") == 0 ||
                       (strncmp(id, "SERIES.", 7) == 0 && valid_name_chars(id + 7))
                   ? NULL
                   : "series ids are SERIES or SERIES.<name>";
    }
    return "unknown family";
}

/* ---- entries and signatures ---- */

static struct match_entry_priv *find_entry(struct match_pack *p, const char *id)
{
    for (size_t i = 0; i < p->nentries; i++)
        if (strcmp(p->entries[i]->pub.id, id) == 0) return p->entries[i];
    return NULL;
}

static struct match_sig_priv *find_sig(const struct match_pack *p, const char *id)
{
    for (size_t i = 0; i < p->nsigs; i++)
        if (strcmp(p->sigs[i]->pub.id, id) == 0) return p->sigs[i];
    return NULL;
}

static void sig_free(struct match_sig_priv *s)
{
    if (!s) return;
    free(s->cat_name);
    free(s->after_name);
    free(s->until_name);
    match_route_free(s);
    pcre2_code_free(s->code);
    free_str_list(s->literals, s->nliterals);
    free_str_list(s->gate, s->ngate);
    free(s->gate_lits);
    free_str_list(s->ex_match, s->nex_match);
    free_str_list(s->ex_nomatch, s->nex_nomatch);
    free(s->facts);
    free(s->fact_group);
    free(s->fact_declared);
    free(s);
}

pcre2_code *match_ld_compile(struct match_loader *ld, const char *what, const char *regex, int *jit)
{
    int ec;
    PCRE2_SIZE eoff;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED, 0, &ec, &eoff, NULL);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof(msg));
        match_ld_problem(ld, what, "bad regex: %s at offset %zu", (const char *)msg, (size_t)eoff);
        return NULL;
    }
    *jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    return code;
}

int match_sig_fact_index(const struct match_sig_priv *s, const char *name)
{
    for (size_t f = 0; f < s->pub.nfacts; f++)
        if (strcmp(s->facts[f].name, name) == 0) return (int)f;
    return -1;
}

void match_ld_add_sig(struct match_pack *p, struct match_entry_priv *e, struct match_sig_priv *s)
{
    az_grow((void **)&p->sigs, &p->cap_sigs, p->nsigs + 1, sizeof(*p->sigs));
    p->sigs[p->nsigs++] = s;
    az_grow((void **)&e->sigs, &e->cap, e->pub.nsigs + 1, sizeof(*e->sigs));
    e->sigs[e->pub.nsigs++] = &s->pub;
    e->pub.sigs = e->sigs;
}

/* Compile the regex and collect its named groups as facts. 0 on success. */
static int sig_compile(struct match_loader *ld, struct match_sig_priv *s, const char *id,
                       json_t *facts)
{
    s->code = match_ld_compile(ld, id, s->pub.regex, &s->jit);
    if (!s->code) return -1;

    uint32_t nnames = 0, entry_size = 0, ncap = 0;
    PCRE2_SPTR table = NULL;
    pcre2_pattern_info(s->code, PCRE2_INFO_NAMECOUNT, &nnames);
    pcre2_pattern_info(s->code, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
    pcre2_pattern_info(s->code, PCRE2_INFO_NAMETABLE, &table);
    pcre2_pattern_info(s->code, PCRE2_INFO_CAPTURECOUNT, &ncap);
    if (ncap + 1 > ld->p->max_groups) ld->p->max_groups = ncap + 1;

    int bad = 0;
    if (facts) {
        const char *key;
        json_t *v;
        json_object_foreach(facts, key, v)
        {
            if (!json_is_string(v) || name_index(fact_type_names, AZ_ARRAY_LEN(fact_type_names),
                                                 json_string_value(v)) < 0) {
                match_ld_problem(ld, id, "fact \"%s\": unknown fact type (string, number or bytes)",
                                 key);
                bad = 1;
            }
            if (pcre2_substring_number_from_name(s->code, (PCRE2_SPTR)key) < 0) {
                match_ld_problem(ld, id,
                                 "fact \"%s\" is declared but the regex has no group (?<%s>...)",
                                 key, key);
                bad = 1;
            }
        }
    }
    if (bad) return -1;

    s->pub.nfacts = nnames;
    if (nnames == 0) return 0;
    s->facts = az_xcalloc(nnames, sizeof(*s->facts));
    s->fact_group = az_xcalloc(nnames, sizeof(*s->fact_group));
    s->fact_declared = az_xcalloc(nnames, sizeof(*s->fact_declared));
    /* The name table is sorted by name; store the facts by group number, as they appear. */
    for (uint32_t i = 0; i < nnames; i++) {
        PCRE2_SPTR e = table + (size_t)i * entry_size;
        uint32_t group = ((uint32_t)e[0] << 8) | e[1];
        const char *name = (const char *)(e + 2);
        uint32_t at = i;
        while (at > 0 && s->fact_group[at - 1] > group) {
            s->facts[at] = s->facts[at - 1];
            s->fact_group[at] = s->fact_group[at - 1];
            s->fact_declared[at] = s->fact_declared[at - 1];
            at--;
        }
        json_t *t = facts ? json_object_get(facts, name) : NULL;
        s->facts[at].name = match_ld_own(ld->p, name);
        s->facts[at].type =
            t ? (enum match_fact_type)name_index(fact_type_names, AZ_ARRAY_LEN(fact_type_names),
                                                 json_string_value(t))
              : MATCH_FACT_STRING;
        s->fact_group[at] = group;
        s->fact_declared[at] = t != NULL;
    }
    if (nnames > ld->p->max_facts) ld->p->max_facts = nnames;
    s->pub.facts = s->facts;
    return 0;
}

static const char *const sig_fields[] = {
    "id",        "kinds",    "strength",  "regex",      "literals", "facts",    "summary",
    "note",      "examples", "sources",   "role",       "tags",     "contrary", "decisive_on",
    "catalogue", "code",     "follow_up", "cascade_of", "after",    "route",    NULL};

/* A tag: lowercase letters, digits and '-' ("oom", "pip-change"). */
static int valid_tag(const char *t)
{
    if (!*t) return 0;
    for (; *t; t++)
        if (!islower((unsigned char)*t) && !isdigit((unsigned char)*t) && *t != '-') return 0;
    return 1;
}

const char **match_ld_tags(struct match_loader *ld, const char *what, json_t *obj, const char *key,
                           size_t *n)
{
    *n = 0;
    json_t *list = match_ld_str_list(ld, what, obj, key, 0, 1);
    if (!list) return NULL;
    const char **out = match_ld_block(ld->p, json_array_size(list), sizeof(*out));
    size_t i;
    json_t *t;
    json_array_foreach(list, i, t)
    {
        const char *ts = json_string_value(t);
        if (!valid_tag(ts))
            match_ld_problem(ld, what, "tag \"%s\": tags are lowercase letters, digits and '-'",
                             ts);
        out[(*n)++] = match_ld_own(ld->p, ts);
    }
    return out;
}

/* A number field in [lo, hi]; NAN (reported when required or out of range) when absent/bad. */
static double get_num(struct match_loader *ld, const char *what, json_t *obj, const char *key,
                      int required, double lo, double hi)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required) match_ld_problem(ld, what, "missing required field \"%s\"", key);
        return NAN;
    }
    if (!json_is_number(v)) {
        match_ld_problem(ld, what, "field \"%s\" must be a number", key);
        return NAN;
    }
    double d = json_number_value(v);
    if (!(d >= lo && d <= hi)) {
        match_ld_problem(ld, what, "field \"%s\" must be from %g to %g", key, lo, hi);
        return NAN;
    }
    return d;
}

/* "after": {"sig", "within"} (docs/patterns.md, "After"): the key's id is resolved after every
 * file (link_after), so it may be any file's. */
static void load_sig_after(struct match_loader *ld, const char *what, json_t *js,
                           struct match_sig_priv *s)
{
    json_t *af = json_object_get(js, "after");
    if (!af) return;
    static const char *const afields[] = {"sig", "within", "until", NULL};
    char awhat[300];
    snprintf(awhat, sizeof(awhat), "%s: after", what);
    if (!json_is_object(af)) {
        match_ld_problem(ld, what, "field \"after\" must be {\"sig\": id, \"within\": N}");
        return;
    }
    match_ld_fields(ld, awhat, af, afields);
    const char *key = match_ld_str(ld, awhat, af, "sig", 1);
    json_t *w = json_object_get(af, "within");
    if (!w || !json_is_integer(w) || json_integer_value(w) < 1 ||
        json_integer_value(w) > (json_int_t)MATCH_AFTER_MAX_WITHIN) {
        match_ld_problem(ld, awhat, "field \"within\" must be a whole number of records, 1 to %u",
                         MATCH_AFTER_MAX_WITHIN);
        return;
    }
    if (s->cat_name) {
        match_ld_problem(ld, what, "\"after\" and \"catalogue\" do not go together");
        return;
    }
    if (!key) return;
    s->after_name = az_xstrdup(key);
    const char *until = match_ld_str(ld, awhat, af, "until", 0);
    if (until) s->until_name = az_xstrdup(until);
    s->pub.after_within = (unsigned)json_integer_value(w);
}

/* A signature's role and what goes with it: "contrary", "decisive_on", and a catalogue code's
 * "catalogue", "code", "follow_up". */
static void load_sig_role(struct match_loader *ld, const char *what, json_t *js,
                          struct match_sig_priv *s)
{
    const char *role = match_ld_str(ld, what, js, "role", 0);
    s->pub.role = s->pub.strength == MATCH_CONTEXT ? MATCH_ROLE_CONTEXT : MATCH_ROLE_ROOT;
    s->pub.contrary_factor = 1;
    if (role) {
        int r = name_index(role_names, AZ_ARRAY_LEN(role_names), role);
        if (r < 0)
            match_ld_problem(
                ld, what, "unknown role \"%s\" (root, cascade, context, contrary or noise)", role);
        else
            s->pub.role = (enum match_role)r;
    }
    json_t *contrary = json_object_get(js, "contrary");
    if (s->pub.role == MATCH_ROLE_CONTRARY) {
        static const char *const cfields[] = {"factor", "says", "why", NULL};
        char cwhat[300];
        snprintf(cwhat, sizeof(cwhat), "%s: contrary", what);
        if (!contrary || !json_is_object(contrary)) {
            match_ld_problem(ld, what,
                             "role \"contrary\" needs \"contrary\": {\"factor\", \"says\", "
                             "\"why\"}");
        } else {
            match_ld_fields(ld, cwhat, contrary, cfields);
            double f = get_num(ld, cwhat, contrary, "factor", 1, 0, 1);
            if (!isnan(f)) s->pub.contrary_factor = f;
            s->pub.contrary_says =
                match_ld_own(ld->p, match_ld_str(ld, cwhat, contrary, "says", 1));
            match_ld_str(ld, cwhat, contrary, "why", 1);
        }
    } else if (contrary) {
        match_ld_problem(ld, what, "field \"contrary\" needs role \"contrary\"");
    }
    /* decisive on one platform: a root line of a weaker strength that names the cause by itself
     * once the run is known to be on that platform */
    const char *don = match_ld_str(ld, what, js, "decisive_on", 0);
    if (don) {
        /* the id is checked against the declared platforms after every file (link_model) */
        if (s->pub.strength != MATCH_STRONG && s->pub.strength != MATCH_WEAK)
            match_ld_problem(ld, what, "\"decisive_on\" needs strength strong or weak");
        else if (s->pub.role != MATCH_ROLE_ROOT)
            match_ld_problem(ld, what, "\"decisive_on\" needs role root");
        else
            s->pub.decisive_on = match_ld_own(ld->p, don);
    }
    const char *cat = match_ld_str(ld, what, js, "catalogue", 0);
    if (cat) s->cat_name = az_xstrdup(cat);
    s->fixed_code = -1;
    json_t *fixed = json_object_get(js, "code");
    if (fixed && (!json_is_integer(fixed) || json_integer_value(fixed) < 0 || !cat))
        match_ld_problem(ld, what, "field \"code\" must be a code number, with \"catalogue\"");
    else if (fixed)
        s->fixed_code = (long)json_integer_value(fixed);
    json_t *fu = json_object_get(js, "follow_up");
    if (fu && (!json_is_boolean(fu) || !cat))
        match_ld_problem(ld, what, "field \"follow_up\" must be true or false, with \"catalogue\"");
    else if (fu)
        s->follow_up = json_is_true(fu);
    load_sig_after(ld, what, js, s);
}

/* The signature's gate (match_derive_gate()), kept only if every match example holds one of its
 * strings: a gate is derived, never declared, so one that would turn a
 * match away is a derivation bug, and the signature then runs without one. */
static void sig_gate(struct match_sig_priv *s)
{
    char *gate[MATCH_GATE_MAX];
    size_t n =
        match_derive_gate(s->pub.regex, (const char *const *)s->literals, s->nliterals, gate);
    int ok = n > 0;
    for (size_t e = 0; ok && e < s->nex_match; e++) {
        const char *ex = s->ex_match[e];
        int held = 0;
        for (size_t g = 0; g < n && !held; g++)
            held = match_contains_lower(ex, strlen(ex), gate[g], strlen(gate[g]));
        ok = held;
    }
    if (!ok) {
        for (size_t g = 0; g < n; g++) free(gate[g]);
        return;
    }
    s->gate = az_xcalloc(n, sizeof *s->gate);
    memcpy(s->gate, gate, n * sizeof *gate);
    s->ngate = n;
}

/* A signature's examples, regex (compiled with its facts) and literals (declared or derived). */
static void load_sig_text(struct match_loader *ld, const char *what, json_t *js, json_t *facts,
                          struct match_sig_priv *s)
{
    size_t i;
    json_t *ex = json_object_get(js, "examples");
    if (!ex) {
        match_ld_problem(ld, what, "missing required field \"examples\"");
    } else if (!json_is_object(ex)) {
        match_ld_problem(ld, what,
                         "field \"examples\" must be an object {\"match\": [...], "
                         "\"no_match\": [...]}");
    } else {
        static const char *const ex_fields[] = {"match", "no_match", NULL};
        char exwhat[300];
        snprintf(exwhat, sizeof(exwhat), "%s: examples", what);
        match_ld_fields(ld, exwhat, ex, ex_fields);
        s->ex_match =
            copy_str_list(match_ld_str_list(ld, exwhat, ex, "match", 1, 1), &s->nex_match);
        s->ex_nomatch =
            copy_str_list(match_ld_str_list(ld, exwhat, ex, "no_match", 1, 1), &s->nex_nomatch);
    }

    const char *regex = match_ld_str(ld, what, js, "regex", 1);
    if (regex) {
        s->pub.regex = match_ld_own(ld->p, regex);
        sig_compile(ld, s, what, facts);

        json_t *lits = match_ld_str_list(ld, what, js, "literals", 0, 1);
        if (lits) {
            json_t *l;
            s->literals = az_xcalloc(json_array_size(lits), sizeof(*s->literals));
            json_array_foreach(lits, i, l)
            {
                const char *ls = json_string_value(l);
                size_t n = json_string_length(l);
                if (n < MATCH_MIN_LITERAL || memchr(ls, '\0', n)) {
                    match_ld_problem(ld, what, "literal \"%s\" is shorter than %u bytes", ls,
                                     MATCH_MIN_LITERAL);
                    continue;
                }
                char *low = az_xstrndup(ls, n);
                for (char *c = low; *c; c++) *c = (char)match_lower[(uint8_t)*c];
                s->literals[s->nliterals++] = low;
            }
        } else if (!json_object_get(js, "literals")) {
            char *derived[MAX_LITERALS];
            size_t n = match_derive_literals(regex, derived, MAX_LITERALS);
            if (n == 0) {
                match_ld_problem(ld, what,
                                 "no literal of %u+ bytes can be derived from the regex: declare "
                                 "\"literals\"",
                                 MATCH_MIN_LITERAL);
            } else {
                s->literals = az_xcalloc(n, sizeof(*s->literals));
                memcpy(s->literals, derived, n * sizeof(*derived));
                s->nliterals = n;
            }
        }
        if (s->nliterals) sig_gate(s);
    }
}

/* Parse one signature of entry e; NULL (problems reported) when unusable. */
static struct match_sig_priv *load_sig(struct match_loader *ld, const struct match_entry_priv *e,
                                       json_t *js, size_t idx)
{
    char what[256];
    if (!json_is_object(js)) {
        snprintf(what, sizeof(what), "%s: signature %zu", e->pub.id, idx);
        match_ld_problem(ld, what, "must be an object");
        return NULL;
    }
    size_t nerr0 = ld->nerr;
    const char *id = match_ld_str(ld, e->pub.id, js, "id", 0);
    if (!id) {
        snprintf(what, sizeof(what), "%s: signature %zu", e->pub.id, idx);
        if (!json_object_get(js, "id")) match_ld_problem(ld, what, "missing required field \"id\"");
    } else {
        snprintf(what, sizeof(what), "%s", id);
        size_t elen = strlen(e->pub.id);
        if (strncmp(id, e->pub.id, elen) != 0 || id[elen] != '.' ||
            !valid_name_chars(id + elen + 1))
            match_ld_problem(ld, what, "signature ids are \"%s.<name>\"", e->pub.id);
        if (find_sig(ld->p, id)) match_ld_problem(ld, what, "duplicate signature id");
    }
    match_ld_fields(ld, what, js, sig_fields);

    struct match_sig_priv *s = az_xcalloc(1, sizeof(*s));
    s->pub.id = id ? match_ld_own(ld->p, id) : "";
    s->pub.entry = &e->pub;

    json_t *kinds = match_ld_str_list(ld, what, js, "kinds", 1, 1);
    size_t i;
    json_t *k;
    if (kinds) json_array_foreach(kinds, i, k)
        {
            const char *kn = json_string_value(k);
            int kind;
            if (strcmp(kn, "any") == 0) {
                s->pub.kinds = (1u << TOK_KIND_COUNT) - 1;
            } else if ((kind = tok_kind_from_name(kn)) >= 0) {
                s->pub.kinds |= 1u << kind;
            } else {
                match_ld_problem(ld, what, "unknown kind \"%s\"", kn);
            }
        }

    const char *strength = match_ld_str(ld, what, js, "strength", 1);
    if (strength) {
        int st = name_index(strength_names, AZ_ARRAY_LEN(strength_names), strength);
        if (st < 0)
            match_ld_problem(
                ld, what, "unknown strength \"%s\" (decisive, strong, weak or context)", strength);
        else
            s->pub.strength = (enum match_strength)st;
    }
    s->pub.summary = match_ld_own(ld->p, match_ld_str(ld, what, js, "summary", 0));
    s->pub.note = match_ld_own(ld->p, match_ld_str(ld, what, js, "note", 0));
    s->own_tags = match_ld_tags(ld, what, js, "tags", &s->nown_tags);
    s->pub.cascade_of = match_ld_tags(ld, what, js, "cascade_of", &s->pub.ncascade_of);
    s->pub.severity = "";
    s->code_fact = s->sev_fact = -1;
    load_sig_role(ld, what, js, s);
    match_route_load(ld, what, js, s);
    match_ld_str_list(ld, what, js, "sources", 1, 1);

    json_t *facts = json_object_get(js, "facts");
    if (facts && !json_is_object(facts)) {
        match_ld_problem(ld, what, "field \"facts\" must be an object {\"name\": \"type\"}");
        facts = NULL;
    }

    load_sig_text(ld, what, js, facts, s);
    if (ld->nerr != nerr0 || !id) {
        sig_free(s);
        return NULL;
    }
    return s;
}

static const char *const entry_fields[] = {
    "id",         "family", "title",     "symptom", "cause",    "check", "fix",     "decide",
    "signatures", "scope",  "ruled_out", "tags",    "explains", "rules", "outcome", NULL};

/* "params": {"name": {"value": 80, "why": "..."}} of a rule. */
void match_ld_values(struct match_loader *ld, const char *what, json_t *params,
                     struct match_rule *r)
{
    if (!params) return;
    if (!json_is_object(params)) {
        match_ld_problem(ld, what,
                         "field \"params\" must be an object {\"name\": {\"value\", \"why\"}}");
        return;
    }
    struct match_value *vals = match_ld_block(ld->p, json_object_size(params), sizeof(*vals));
    size_t n = 0;
    const char *key;
    json_t *v;
    json_object_foreach(params, key, v)
    {
        char vwhat[300];
        snprintf(vwhat, sizeof(vwhat), "%s: param \"%s\"", what, key);
        struct match_value *mv = &vals[n++];
        mv->name = match_ld_own(ld->p, key);
        mv->num = NAN;
        if (!json_is_object(v)) {
            match_ld_problem(ld, vwhat, "must be {\"value\": ..., \"why\": \"...\"}");
            continue;
        }
        static const char *const vfields[] = {"value", "why", NULL};
        match_ld_fields(ld, vwhat, v, vfields);
        const char *why = match_ld_str(ld, vwhat, v, "why", 1);
        if (why && !*why) match_ld_problem(ld, vwhat, "\"why\" must say why");
        mv->why = match_ld_own(ld->p, why);
        json_t *x = json_object_get(v, "value");
        if (json_is_number(x)) {
            mv->num = json_number_value(x);
        } else if (json_is_string(x)) {
            mv->str = match_ld_own(ld->p, json_string_value(x));
        } else if (json_is_array(x) && match_ld_str_list(ld, vwhat, v, "value", 1, 1)) {
            const char **l = match_ld_block(ld->p, json_array_size(x), sizeof(*l));
            size_t i;
            json_t *e;
            json_array_foreach(x, i, e) l[i] = match_ld_own(ld->p, json_string_value(e));
            mv->list = l;
            mv->nlist = json_array_size(x);
        } else if (!json_is_array(x)) {
            match_ld_problem(ld, vwhat,
                             "\"value\" must be a number, a string or a list of strings");
        }
    }
    r->values = vals;
    r->nvalues = n;
}

/* "outcomes": {"name": {"weight" | "factor" | "cap", "decisive", "note", "says", "text", "mark",
 * "why"}}. */
static void load_outcomes(struct match_loader *ld, const char *what, json_t *outs,
                          struct match_rule *r)
{
    if (!outs || !json_is_object(outs)) {
        match_ld_problem(ld, what, "missing required field \"outcomes\" (an object)");
        return;
    }
    struct match_outcome *o = match_ld_block(ld->p, json_object_size(outs), sizeof(*o));
    size_t n = 0;
    const char *key;
    json_t *v;
    json_object_foreach(outs, key, v)
    {
        char owhat[300];
        snprintf(owhat, sizeof(owhat), "%s: outcome \"%s\"", what, key);
        struct match_outcome *mo = &o[n++];
        mo->name = match_ld_own(ld->p, key);
        mo->factor = 1;
        if (!json_is_object(v)) {
            match_ld_problem(ld, owhat, "must be an object");
            continue;
        }
        static const char *const ofields[] = {"weight", "factor", "cap", "note",     "says",
                                              "text",   "mark",   "why", "decisive", NULL};
        match_ld_fields(ld, owhat, v, ofields);
        double w = get_num(ld, owhat, v, "weight", 0, 0, 1);
        double f = get_num(ld, owhat, v, "factor", 0, 0, 1);
        double c = get_num(ld, owhat, v, "cap", 0, 0, 1);
        int nset = !isnan(w) + !isnan(f) + !isnan(c);
        if (nset > 1) match_ld_problem(ld, owhat, "give one of \"weight\", \"factor\" or \"cap\"");
        mo->weight = isnan(w) ? 0 : w;
        mo->factor = isnan(f) ? 1 : f;
        mo->cap = isnan(c) ? 0 : c;
        mo->note = json_object_get(v, "note")
                       ? match_ld_own(ld->p, match_ld_str(ld, owhat, v, "note", 0))
                       : NULL;
        mo->says = json_object_get(v, "says")
                       ? match_ld_own(ld->p, match_ld_str(ld, owhat, v, "says", 0))
                       : NULL;
        mo->text = json_object_get(v, "text")
                       ? match_ld_own(ld->p, match_ld_str(ld, owhat, v, "text", 0))
                       : NULL;
        mo->mark = json_object_get(v, "mark")
                       ? match_ld_own(ld->p, match_ld_str(ld, owhat, v, "mark", 0))
                       : NULL;
        /* a weight that names the cause by itself: the entry's caps do not hold it back */
        json_t *dec = json_object_get(v, "decisive");
        if (dec && !json_is_boolean(dec))
            match_ld_problem(ld, owhat, "field \"decisive\" must be true or false");
        else if (dec && json_is_true(dec) && isnan(w))
            match_ld_problem(ld, owhat, "\"decisive\" needs a \"weight\"");
        else
            mo->decisive = dec && json_is_true(dec);
        const char *why = match_ld_str(ld, owhat, v, "why", nset > 0);
        mo->why = why ? match_ld_own(ld->p, why) : NULL;
        /* a factor or cap must say why the entry is less likely; a weight may add only a note */
        if ((!isnan(f) || !isnan(c)) && !mo->says)
            match_ld_problem(ld, owhat, "missing required field \"says\"");
    }
    r->outcomes = o;
    r->noutcomes = n;
}

/* "decide": {"fact", "command", "why"?, "platform"?: {"fact", "command"}} of a gotcha entry: the
 * one fact that would decide it when the evidence leaves it open, and the command that shows it
 * (the reports' "possible" list). "platform" is the fact that places the run where the entry's
 * scope holds: a gb10-scoped entry must give it, so a run held back only by its unknown platform
 * is told which fact decides it. */
static void load_decide(struct match_loader *ld, const char *what, json_t *je,
                        struct match_entry_priv *e)
{
    json_t *d = json_object_get(je, "decide");
    if (!d) return;
    char dwhat[200];
    snprintf(dwhat, sizeof(dwhat), "%s: decide", what);
    static const char *const dfields[] = {"fact", "command", "why", "platform", NULL};
    static const char *const pfields[] = {"fact", "command", NULL};
    if (!json_is_object(d)) {
        match_ld_problem(ld, dwhat, "must be {\"fact\", \"command\", \"platform\"?, \"why\"?}");
        return;
    }
    match_ld_fields(ld, dwhat, d, dfields);
    e->pub.decide.fact = match_ld_own(ld->p, match_ld_str(ld, dwhat, d, "fact", 1));
    e->pub.decide.command = match_ld_own(ld->p, match_ld_str(ld, dwhat, d, "command", 1));
    e->pub.decide.why = match_ld_own(ld->p, match_ld_str(ld, dwhat, d, "why", 0));
    json_t *pl = json_object_get(d, "platform");
    if (pl) {
        char pwhat[220];
        snprintf(pwhat, sizeof(pwhat), "%s: platform", dwhat);
        if (!json_is_object(pl)) {
            match_ld_problem(ld, pwhat, "must be {\"fact\", \"command\"}");
        } else {
            match_ld_fields(ld, pwhat, pl, pfields);
            e->pub.decide.platform_fact =
                match_ld_own(ld->p, match_ld_str(ld, pwhat, pl, "fact", 1));
            e->pub.decide.platform_command =
                match_ld_own(ld->p, match_ld_str(ld, pwhat, pl, "command", 1));
        }
    }
}

/* The gotcha data model of an entry: scope, ruled_out, tags, explains, rules. An extra pack
 * may add tags, explains and rules to an entry; scope and ruled_out are the base pack's. */
static void load_model(struct match_loader *ld, const char *what, json_t *je,
                       struct match_entry_priv *e, int fresh)
{
    int gotcha = e->pub.family == MATCH_FAMILY_GOTCHA;
    static const char *const gotcha_only[] = {"scope", "ruled_out", "explains", "rules", "decide"};
    for (size_t i = 0; i < AZ_ARRAY_LEN(gotcha_only); i++)
        if (!gotcha && json_object_get(je, gotcha_only[i]))
            match_ld_problem(ld, what, "field \"%s\" is for gotcha entries", gotcha_only[i]);
    if (fresh) {
        e->pub.scope.platform = NULL;
        e->pub.scope.factor = 1;
        e->pub.ruled_out = match_ld_own(ld->p, match_ld_str(ld, what, je, "ruled_out", 0));
        if (gotcha) load_decide(ld, what, je, e);
    } else if (json_object_get(je, "scope") || json_object_get(je, "ruled_out") ||
               json_object_get(je, "decide")) {
        match_ld_problem(ld, what,
                         "\"scope\", \"ruled_out\" and \"decide\" belong to the entry's first "
                         "definition");
    }
    json_t *scope = json_object_get(je, "scope");
    if (scope && json_is_string(scope) && !strcmp(json_string_value(scope), "any")) {
        /* the default */
    } else if (scope) {
        char swhat[200];
        snprintf(swhat, sizeof(swhat), "%s: scope", what);
        static const char *const sfields[] = {"platform", "factor", "says", "why", NULL};
        if (!json_is_object(scope)) {
            match_ld_problem(ld, swhat,
                             "must be \"any\" or {\"platform\": <a declared platform's id>, "
                             "\"factor\", \"says\", \"why\"}");
        } else {
            match_ld_fields(ld, swhat, scope, sfields);
            const char *pl = match_ld_str(ld, swhat, scope, "platform", 1);
            /* a declared platform's id, checked after every file (link_model) */
            e->pub.scope.platform = pl && strcmp(pl, "any") ? match_ld_own(ld->p, pl) : NULL;
            double f = get_num(ld, swhat, scope, "factor", 1, 0, 1);
            e->pub.scope.factor = isnan(f) ? 1 : f;
            e->pub.scope.says = match_ld_own(ld->p, match_ld_str(ld, swhat, scope, "says", 1));
            e->pub.scope.why = match_ld_own(ld->p, match_ld_str(ld, swhat, scope, "why", 1));
        }
    }
    if (fresh && e->pub.scope.platform && e->pub.decide.fact && !e->pub.decide.platform_fact)
        match_ld_problem(ld, what,
                         "\"decide\" of an entry scoped to a platform needs \"platform\" (the "
                         "fact that places the run there)");
    /* tags: appended to the entry's */
    size_t nt;
    const char **t = match_ld_tags(ld, what, je, "tags", &nt);
    if (nt) {
        const char **all = match_ld_block(ld->p, e->pub.ntags + nt, sizeof(*all));
        for (size_t i = 0; i < e->pub.ntags; i++) all[i] = e->pub.tags[i];
        for (size_t i = 0; i < nt; i++) all[e->pub.ntags + i] = t[i];
        e->pub.tags = all;
        e->pub.ntags += nt;
    }
    json_t *ex = json_object_get(je, "explains");
    if (ex && !json_is_array(ex)) match_ld_problem(ld, what, "field \"explains\" must be a list");
    if (ex && json_is_array(ex) && json_array_size(ex)) {
        size_t n0 = e->pub.nexplains, n = n0 + json_array_size(ex);
        struct match_explains *all = match_ld_block(ld->p, n, sizeof(*all));
        for (size_t i = 0; i < n0; i++) all[i] = e->pub.explains[i];
        size_t i;
        json_t *x;
        json_array_foreach(ex, i, x)
        {
            char xwhat[200];
            snprintf(xwhat, sizeof(xwhat), "%s: explains %zu", what, i);
            static const char *const xfields[] = {"id", "min_cause", "why", NULL};
            if (!json_is_object(x)) {
                match_ld_problem(ld, xwhat, "must be {\"id\", \"min_cause\", \"why\"}");
                continue;
            }
            match_ld_fields(ld, xwhat, x, xfields);
            all[n0 + i].id = match_ld_own(ld->p, match_ld_str(ld, xwhat, x, "id", 1));
            double m = get_num(ld, xwhat, x, "min_cause", 1, 0, 1);
            all[n0 + i].min_cause = isnan(m) ? 1 : m;
            all[n0 + i].why = match_ld_own(ld->p, match_ld_str(ld, xwhat, x, "why", 1));
        }
        e->pub.explains = all;
        e->pub.nexplains = n;
    }
    json_t *rules = json_object_get(je, "rules");
    if (rules && !json_is_array(rules))
        match_ld_problem(ld, what, "field \"rules\" must be a list");
    if (rules && json_is_array(rules) && json_array_size(rules)) {
        size_t n0 = e->pub.nrules, n = n0 + json_array_size(rules);
        const struct match_rule **all = match_ld_block(ld->p, n, sizeof(*all));
        for (size_t i = 0; i < n0; i++) all[i] = e->pub.rules[i];
        size_t i;
        json_t *x;
        json_array_foreach(rules, i, x)
        {
            char rwhat[200];
            snprintf(rwhat, sizeof(rwhat), "%s: rule %zu", what, n0 + i + 1);
            struct match_rule *r = match_ld_block(ld->p, 1, sizeof(*r));
            r->entry = &e->pub;
            r->index = n0 + i;
            all[n0 + i] = r;
            r->use = "";
            if (!json_is_object(x)) {
                match_ld_problem(ld, rwhat, "must be {\"use\", \"params\", \"outcomes\"}");
                continue;
            }
            static const char *const rfields[] = {"use", "params", "outcomes", NULL};
            match_ld_fields(ld, rwhat, x, rfields);
            const char *use = match_ld_str(ld, rwhat, x, "use", 1);
            r->use = match_ld_own(ld->p, use);
            if (use) snprintf(rwhat, sizeof(rwhat), "%s: rule %zu (%s)", what, n0 + i + 1, use);
            match_ld_values(ld, rwhat, json_object_get(x, "params"), r);
            load_outcomes(ld, rwhat, json_object_get(x, "outcomes"), r);
        }
        e->pub.rules = all;
        e->pub.nrules = n;
    }
}

static void load_entry(struct match_loader *ld, json_t *je, size_t idx)
{
    char what[128];
    snprintf(what, sizeof(what), "entry %zu", idx);
    if (!json_is_object(je)) {
        match_ld_problem(ld, what, "must be an object");
        return;
    }
    const char *id = match_ld_str(ld, what, je, "id", 1);
    if (id) snprintf(what, sizeof(what), "%s", id);
    match_ld_fields(ld, what, je, entry_fields);
    json_t *sigs = json_object_get(je, "signatures");
    if (!sigs) {
        match_ld_problem(ld, what, "missing required field \"signatures\"");
    } else if (!json_is_array(sigs)) {
        match_ld_problem(ld, what, "field \"signatures\" must be a list");
        sigs = NULL;
    }
    if (!id) return;

    struct match_entry_priv *e = find_entry(ld->p, id);
    const char *family = match_ld_str(ld, what, je, "family", e == NULL);
    int fam = -1;
    if (family) {
        fam = name_index(family_names, AZ_ARRAY_LEN(family_names), family);
        if (fam < 0)
            match_ld_problem(ld, what, "unknown family \"%s\" (gotcha, common, context or series)",
                             family);
    }
    if (e) {
        /* Extra packs extend an entry; the base pack defines each entry once. */
        if (!ld->extra)
            match_ld_problem(ld, what, "duplicate entry id (also in %s)", e->pub.source);
        if (fam >= 0 && (enum match_family)fam != e->pub.family)
            match_ld_problem(ld, what, "family \"%s\" differs from the existing entry's \"%s\"",
                             family, match_family_name(e->pub.family));
        load_model(ld, what, je, e, 0);
    } else {
        if (fam >= 0) {
            const char *shape = entry_id_problem((enum match_family)fam, id);
            if (shape) match_ld_problem(ld, what, "bad id: %s", shape);
        }
        int gotcha = fam == MATCH_FAMILY_GOTCHA;
        const char *title = match_ld_str(ld, what, je, "title", 1);
        const char *symptom = match_ld_str(ld, what, je, "symptom", gotcha);
        const char *cause = match_ld_str(ld, what, je, "cause", gotcha);
        const char *check = match_ld_str(ld, what, je, "check", gotcha);
        const char *fix = match_ld_str(ld, what, je, "fix", gotcha);
        e = az_xcalloc(1, sizeof(*e));
        e->pub.id = match_ld_own(ld->p, id);
        e->pub.family = fam >= 0 ? (enum match_family)fam : MATCH_FAMILY_COMMON;
        e->pub.title = match_ld_own(ld->p, title);
        e->pub.symptom = match_ld_own(ld->p, symptom);
        e->pub.cause = match_ld_own(ld->p, cause);
        e->pub.check = match_ld_own(ld->p, check);
        e->pub.fix = match_ld_own(ld->p, fix);
        e->pub.source = match_ld_own(ld->p, ld->file);
        e->pub.sigs = NULL;
        const char *outcome = match_ld_str(ld, what, je, "outcome", 0);
        if (outcome) {
            /* the one outcome a line can show: the run's failures are its error records */
            if (strcmp(outcome, "completed") != 0)
                match_ld_problem(ld, what, "unknown outcome \"%s\" (only \"completed\")", outcome);
            else if (fam != MATCH_FAMILY_CONTEXT)
                match_ld_problem(
                    ld, what, "\"outcome\" is for context entries (an end marker is no finding)");
            e->pub.ends_run = 1;
        }
        az_grow((void **)&ld->p->entries, &ld->p->cap_entries, ld->p->nentries + 1,
                sizeof(*ld->p->entries));
        ld->p->entries[ld->p->nentries++] = e;
        load_model(ld, what, je, e, 1);
    }
    if (!sigs) return;
    size_t i;
    json_t *js;
    json_array_foreach(sigs, i, js)
    {
        struct match_sig_priv *s = load_sig(ld, e, js, i);
        if (!s) continue;
        match_ld_add_sig(ld->p, e, s);
    }
}

/* The whole file in b (NUL-terminated); 0 on success, else errno. Read in one go: jansson's own
 * file reader takes a locked getc() per byte, the larger part of loading the pack. */
static int read_small_file(const char *path, struct az_buf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f) return errno;
    char chunk[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b->len + n > PACK_FILE_MAX) {
            rc = EFBIG;
            break;
        }
        az_buf_append(b, chunk, n);
    }
    if (!rc && ferror(f)) rc = EIO;
    fclose(f);
    az_buf_ensure(b, 1);
    b->data[b->len] = '\0';
    return rc;
}

static void load_preflight(struct match_loader *ld, json_t *pf);
static void load_vocabulary(struct match_loader *ld, json_t *voc);
static void load_name_hints(struct match_loader *ld, json_t *nh);

static void load_file(struct match_loader *ld, const char *path)
{
    json_error_t jerr;
    ld->file = path;
    struct az_buf text = AZ_BUF_INIT;
    int rc = read_small_file(path, &text);
    if (rc) {
        ld->nerr++;
        if (ld->err) az_buf_printf(ld->err, "%s: cannot read: %s\n", path, strerror(rc));
        az_buf_free(&text);
        return;
    }
    json_t *root = json_loadb(text.data, text.len, JSON_REJECT_DUPLICATES, &jerr);
    az_buf_free(&text);
    if (!root) {
        ld->nerr++;
        if (ld->err)
            az_buf_printf(ld->err, "%s:%d:%d: bad JSON: %s\n", path, jerr.line, jerr.column,
                          jerr.text);
        return;
    }
    if (!json_is_object(root)) {
        match_ld_problem(ld, "file", "must be a JSON object {\"entries\": [...]}");
    } else {
        static const char *const top_fields[] = {
            "entries", "catalogues", "platforms", "preflight", "vocabulary", "name-hints", NULL};
        match_ld_fields(ld, "file", root, top_fields);
        json_t *voc = json_object_get(root, "vocabulary");
        if (voc) load_vocabulary(ld, voc);
        json_t *nh = json_object_get(root, "name-hints");
        if (nh) load_name_hints(ld, nh);
        json_t *pf = json_object_get(root, "preflight");
        if (pf) load_preflight(ld, pf);
        json_t *plat = json_object_get(root, "platforms");
        if (plat) match_platforms_load(ld, plat);
        json_t *cats = json_object_get(root, "catalogues");
        if (cats) match_catalogues_load(ld, cats);
        json_t *entries = json_object_get(root, "entries");
        if (!entries || !json_is_array(entries)) {
            match_ld_problem(ld, "file", "missing required field \"entries\" (a list)");
        } else {
            size_t i;
            json_t *je;
            json_array_foreach(entries, i, je) load_entry(ld, je, i);
        }
    }
    json_decref(root);
}

/* "vocabulary": {"pip-lines": {"why": "...", "words": [...]}, ...}: the classifier's word lists
 * (tok.h), each list's words appended to those of earlier files. */
static void load_vocabulary(struct match_loader *ld, json_t *voc)
{
    if (!json_is_object(voc)) {
        match_ld_problem(ld, "vocabulary", "must be an object {\"<list>\": {...}}");
        return;
    }
    static const char *const fields[] = {"why", "words", NULL};
    const char *key;
    json_t *v;
    json_object_foreach(voc, key, v)
    {
        int l = 0;
        while (l < TOK_VOCAB_COUNT && strcmp(tok_vocab_name((enum tok_vocab_list)l), key)) l++;
        if (l == TOK_VOCAB_COUNT) {
            match_ld_problem(ld, "vocabulary",
                             "unknown list \"%s\" (known: preflight-status, "
                             "collect-env-keys, pip-lines)",
                             key);
            continue;
        }
        if (!json_is_object(v)) {
            match_ld_problem(ld, "vocabulary", "\"%s\" must be an object", key);
            continue;
        }
        match_ld_fields(ld, "vocabulary", v, fields);
        match_ld_str(ld, "vocabulary", v, "why", 1);
        json_t *words = match_ld_str_list(ld, "vocabulary", v, "words", 1, 1);
        if (!words) continue;
        struct tok_vocab *tv = &ld->p->vocab;
        size_t i;
        json_t *w;
        json_array_foreach(words, i, w)
        {
            if (!*json_string_value(w)) {
                match_ld_problem(ld, "vocabulary", "\"%s\": an empty word", key);
                continue;
            }
            az_grow((void **)&tv->words[l], &ld->p->vocab_cap[l], tv->n[l] + 1,
                    sizeof *tv->words[l]);
            tv->words[l][tv->n[l]++] = match_ld_own(ld->p, json_string_value(w));
        }
    }
}

/* One {"part", "kind"} of "name-hints" into *h; 0 (reported) when it is not one. */
static int name_hint_of(struct match_loader *ld, json_t *o, struct tok_name_hint *h)
{
    static const char *const fields[] = {"part", "kind", NULL};
    if (!json_is_object(o)) {
        match_ld_problem(ld, "name-hints", "each hint must be an object {\"part\", \"kind\"}");
        return 0;
    }
    match_ld_fields(ld, "name-hints", o, fields);
    const char *part = match_ld_str(ld, "name-hints", o, "part", 1),
               *kind = match_ld_str(ld, "name-hints", o, "kind", 1);
    if (!part || !kind) return 0;
    int k = tok_kind_from_name(kind);
    if (k < 0) {
        match_ld_problem(ld, "name-hints", "\"%s\": unknown kind \"%s\"", part, kind);
        return 0;
    }
    int upper = 0;
    for (const char *c = part; *c; c++) upper |= *c >= 'A' && *c <= 'Z';
    if (!*part || upper) {
        match_ld_problem(ld, "name-hints",
                         "\"%s\": a part must be non-empty and lower case (names are "
                         "matched lower-cased)",
                         part);
        return 0;
    }
    h->part = match_ld_own(ld->p, part);
    h->kind = (enum tok_kind)k;
    return 1;
}

/* "name-hints": {"why": "...", "hints": [{"part": "dmesg", "kind": "kernel"}, ...]}: the kinds
 * base names suggest (tok.h), tried in order; a later file's hints (a site pack's) go before
 * those of earlier files, so a site can refine a shipped hint. */
static void load_name_hints(struct match_loader *ld, json_t *nh)
{
    static const char *const fields[] = {"why", "hints", NULL};
    if (!json_is_object(nh)) {
        match_ld_problem(ld, "name-hints", "must be an object {\"why\", \"hints\": [...]}");
        return;
    }
    match_ld_fields(ld, "name-hints", nh, fields);
    match_ld_str(ld, "name-hints", nh, "why", 1);
    json_t *list = json_object_get(nh, "hints");
    if (!json_is_array(list) || !json_array_size(list)) {
        match_ld_problem(ld, "name-hints", "\"hints\" must be a non-empty list");
        return;
    }
    struct tok_vocab *tv = &ld->p->vocab;
    size_t m = json_array_size(list), got = 0, i;
    az_grow((void **)&tv->hints, &ld->p->hints_cap, tv->nhints + m, sizeof *tv->hints);
    memmove(tv->hints + m, tv->hints, tv->nhints * sizeof *tv->hints);
    json_t *o;
    json_array_foreach(list, i, o) got += (size_t)name_hint_of(ld, o, &tv->hints[got]);
    if (got < m) memmove(tv->hints + got, tv->hints + m, tv->nhints * sizeof *tv->hints);
    tv->nhints += got;
}

const struct tok_vocab *match_pack_vocab(const struct match_pack *p)
{
    return p ? &p->vocab : NULL;
}

/* "preflight": {"G1": {...}, ...}: each an object, one per entry id in the whole pack; kept as
 * text for the live runner, the ids checked against the entries after every file. */
static void load_preflight(struct match_loader *ld, json_t *pf)
{
    if (!json_is_object(pf)) {
        match_ld_problem(ld, "preflight", "must be an object {\"<entry id>\": {...}}");
        return;
    }
    const char *key;
    json_t *v;
    json_object_foreach(pf, key, v)
    {
        if (!json_is_object(v)) {
            match_ld_problem(ld, "preflight", "\"%s\" must be an object", key);
            continue;
        }
        struct match_pack *p = ld->p;
        if (match_pack_preflight(p, key)) {
            match_ld_problem(ld, "preflight", "\"%s\" declared twice", key);
            continue;
        }
        az_grow((void **)&p->pf_ids, &p->cap_pf, p->npf + 1, sizeof *p->pf_ids);
        p->pf_json = az_xrealloc(p->pf_json, p->cap_pf * sizeof *p->pf_json);
        p->pf_files = az_xrealloc(p->pf_files, p->cap_pf * sizeof *p->pf_files);
        p->pf_ids[p->npf] = az_xstrdup(key);
        p->pf_json[p->npf] = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
        if (!p->pf_json[p->npf]) az_xmalloc((size_t)-1);
        p->pf_files[p->npf] = match_ld_own(p, ld->file);
        p->npf++;
    }
}

const char *match_pack_preflight(const struct match_pack *p, const char *id)
{
    for (size_t i = 0; p && id && i < p->npf; i++)
        if (!strcmp(p->pf_ids[i], id)) return p->pf_json[i];
    return NULL;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_dir(struct match_loader *ld, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        ld->nerr++;
        if (ld->err)
            az_buf_printf(ld->err, "%s: cannot open pattern directory: %s\n", dir, strerror(errno));
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    const struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || de->d_name[0] == '.' || strcmp(de->d_name + len - 5, ".json") != 0)
            continue;
        az_grow((void **)&names, &cap, n + 1, sizeof(*names));
        names[n++] = az_xasprintf("%s/%s", dir, de->d_name);
    }
    closedir(d);
    if (n == 0) {
        ld->nerr++;
        if (ld->err) az_buf_printf(ld->err, "%s: no *.json pattern files\n", dir);
    }
    qsort(names, n, sizeof(*names), str_cmp);
    for (size_t i = 0; i < n; i++) {
        load_file(ld, names[i]);
        free(names[i]);
    }
    free(names);
}

/* ---- ordering ---- */

static int entry_rank(const struct match_entry *e, long *num)
{
    /* numbered gotchas first (by number), then site gotchas (num LONG_MAX, by id) */
    *num = 0;
    if (e->family == MATCH_FAMILY_GOTCHA) {
        *num = gotcha_number(e->id);
        if (!*num) *num = LONG_MAX;
    }
    return (int)e->family;
}

static int entry_cmp(const void *a, const void *b)
{
    const struct match_entry *x = &(*(struct match_entry_priv *const *)a)->pub;
    const struct match_entry *y = &(*(struct match_entry_priv *const *)b)->pub;
    long nx, ny;
    int rx = entry_rank(x, &nx), ry = entry_rank(y, &ny);
    if (rx != ry) return rx < ry ? -1 : 1;
    if (nx != ny) return nx < ny ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* Sort entries, then lay the signatures out in entry order: that is "pack order". */
static void order_pack(struct match_pack *p)
{
    /* a pack of no entries (one that only declares the platform) has no array to sort */
    if (p->nentries) qsort(p->entries, p->nentries, sizeof(*p->entries), entry_cmp);
    size_t k = 0;
    for (size_t i = 0; i < p->nentries; i++) {
        struct match_entry_priv *e = p->entries[i];
        e->pub.order = i;
        for (size_t j = 0; j < e->pub.nsigs; j++) {
            struct match_sig_priv *s = (struct match_sig_priv *)(void *)(uintptr_t)e->sigs[j];
            s->pub.index = k;
            p->sigs[k++] = s;
        }
    }
    assert(k == p->nsigs);
}

/* "cascade_of" (docs/patterns.md, "Roles"): a root line's own field, naming tags that some
 * signature of the pack carries (after every file, so the fault may be defined anywhere). */
static void check_cascade_of(struct match_loader *ld, const struct match_sig *s)
{
    if (!s->ncascade_of) return;
    ld->file = s->entry->source;
    if (s->role != MATCH_ROLE_ROOT)
        match_ld_problem(ld, s->id, "\"cascade_of\" needs role root (it makes a root a cascade)");
    for (size_t k = 0; k < s->ncascade_of; k++)
        if (!match_pack_has_tag(ld->p, s->cascade_of[k]))
            match_ld_problem(ld, s->id, "cascade_of \"%s\": no signature carries this tag",
                             s->cascade_of[k]);
}

/* After every file: each signature gets its entry's tags after its own, and every "explains"
 * names an existing gotcha (reported with the entry's file). */
/* "gb10, acme-box": the declared ids, for a message (static; "none declared" when none). */
static const char *platform_ids(const struct match_pack *p)
{
    static char buf[256];
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < p->nplatforms && n < sizeof buf; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", p->platforms[i]->id);
    return p->nplatforms ? buf : "none declared";
}

/* "after" (docs/patterns.md, "After"): the key is a signature of the pack with a regex of its
 * own, not the signature itself, and no chain of keys comes back to where it started (such a
 * line could never match). */
static void link_after(struct match_loader *ld)
{
    struct match_pack *p = ld->p;
    for (size_t i = 0; i < p->nsigs; i++) {
        struct match_sig_priv *s = p->sigs[i];
        if (!s->after_name) continue;
        ld->file = s->pub.entry->source;
        struct match_sig_priv *k = find_sig(p, s->after_name);
        if (!k || !k->code) {
            match_ld_problem(ld, s->pub.id, "after \"%s\": no such signature with a regex",
                             s->after_name);
            continue;
        }
        if (k == s) {
            match_ld_problem(ld, s->pub.id, "after itself");
            continue;
        }
        s->pub.after = &k->pub;
        if (!s->until_name) continue;
        struct match_sig_priv *u = find_sig(p, s->until_name);
        if (!u || !u->code || u == s || u == k)
            match_ld_problem(ld, s->pub.id,
                             "after: until \"%s\": no such signature with a regex (not the key "
                             "and not itself)",
                             s->until_name);
        else
            s->pub.until = &u->pub;
    }
    for (size_t i = 0; i < p->nsigs; i++) {
        const struct match_sig *k = p->sigs[i]->pub.after;
        for (size_t n = 0; k && n <= p->nsigs; n++, k = k->after)
            if (k == &p->sigs[i]->pub) {
                ld->file = p->sigs[i]->pub.entry->source;
                match_ld_problem(ld, p->sigs[i]->pub.id, "\"after\" chain comes back to itself");
                break;
            }
    }
}

/* After ordering: each signature an "after" names gets a row of the scanners' key table. */
static void after_slots(struct match_pack *p)
{
    for (size_t i = 0; i < p->nsigs; i++) {
        struct match_sig_priv *s = p->sigs[i];
        if (!s->pub.after) continue;
        struct match_sig_priv *k = p->sigs[s->pub.after->index];
        if (!k->key_slot) k->key_slot = (uint32_t)++p->nkeys;
        s->after_slot = k->key_slot;
        if (!s->pub.until) continue;
        struct match_sig_priv *u = p->sigs[s->pub.until->index];
        if (!u->key_slot) u->key_slot = (uint32_t)++p->nkeys;
        s->until_slot = u->key_slot;
    }
}

static void link_model(struct match_loader *ld)
{
    struct match_pack *p = ld->p;
    link_after(ld);
    for (size_t i = 0; i < p->nsigs; i++) {
        struct match_sig_priv *s = p->sigs[i];
        const struct match_entry *e = s->pub.entry;
        size_t n = s->nown_tags + e->ntags;
        const char **all = match_ld_block(p, n, sizeof(*all));
        for (size_t k = 0; k < s->nown_tags; k++) all[k] = s->own_tags[k];
        for (size_t k = 0; k < e->ntags; k++) all[s->nown_tags + k] = e->tags[k];
        s->pub.tags = all;
        s->pub.ntags = n;
    }
    for (size_t i = 0; i < p->nsigs; i++) check_cascade_of(ld, &p->sigs[i]->pub);
    /* a preflight check is some entry's */
    for (size_t i = 0; i < p->npf; i++) {
        ld->file = p->pf_files[i];
        if (!find_entry(p, p->pf_ids[i]))
            match_ld_problem(ld, "preflight", "\"%s\": no such entry", p->pf_ids[i]);
    }
    /* the platforms "decisive_on" and "scope" name: declared by some file of the pack */
    for (size_t i = 0; i < p->nsigs; i++) {
        const struct match_sig *s = &p->sigs[i]->pub;
        ld->file = s->entry->source;
        if (s->decisive_on && !match_pack_find_platform(p, s->decisive_on))
            match_ld_problem(ld, s->id, "unknown platform \"%s\" in \"decisive_on\" (%s)",
                             s->decisive_on, platform_ids(p));
    }
    for (size_t i = 0; i < p->nentries; i++) {
        struct match_entry *e = &p->entries[i]->pub;
        ld->file = e->source;
        if (e->scope.platform && !match_pack_find_platform(p, e->scope.platform))
            match_ld_problem(ld, e->id, "scope: unknown platform \"%s\" (%s or any)",
                             e->scope.platform, platform_ids(p));
        for (size_t k = 0; k < e->nexplains; k++) {
            struct match_explains *x = (struct match_explains *)(uintptr_t)&e->explains[k];
            const struct match_entry_priv *t = x->id ? find_entry(p, x->id) : NULL;
            if (!t || t->pub.family != MATCH_FAMILY_GOTCHA)
                match_ld_problem(ld, e->id, "explains \"%s\": no such gotcha entry",
                                 x->id ? x->id : "");
            else if (&t->pub == e)
                match_ld_problem(ld, e->id, "explains itself");
            else
                x->entry = &t->pub;
        }
    }
}

enum az_status match_pack_load(struct match_pack **out, const char *const *dirs, size_t ndirs,
                               struct az_buf *err)
{
    *out = NULL;
    (void)match_pcre2_version(); /* fill the static text while still single-threaded */
    struct match_pack *p = az_xcalloc(1, sizeof(*p));
    struct match_loader ld = {p, err, 0, "", 0};
    if (ndirs == 0) {
        ld.nerr++;
        if (err) az_buf_puts(err, "no pattern directory given\n");
    }
    for (size_t i = 0; i < ndirs; i++) {
        ld.extra = i > 0;
        load_dir(&ld, dirs[i]);
    }
    if (!ld.nerr) match_catalogues_build(&ld);
    if (!ld.nerr) match_routes_build(&ld);
    if (!ld.nerr) link_model(&ld);
    if (ld.nerr) {
        match_pack_free(p);
        return AZ_FAIL;
    }
    order_pack(p);
    after_slots(p);
    p->mctx = pcre2_match_context_create(NULL);
    if (!p->mctx) az_xmalloc((size_t)-1); /* PCRE2 reports exhaustion only this way */
    pcre2_set_match_limit(p->mctx, MATCH_PCRE2_MATCH_LIMIT);
    pcre2_set_depth_limit(p->mctx, MATCH_PCRE2_DEPTH_LIMIT);
    match_searcher_build(p);
    *out = p;
    return AZ_OK;
}

void match_pack_free(struct match_pack *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nsigs; i++) sig_free(p->sigs[i]);
    for (size_t i = 0; i < p->nentries; i++) {
        free(p->entries[i]->sigs);
        free(p->entries[i]);
    }
    free_str_list(p->strings, p->nstrings);
    match_platforms_free(p);
    for (size_t i = 0; i < p->npf; i++) {
        free(p->pf_ids[i]);
        free(p->pf_json[i]);
    }
    free(p->pf_ids);
    free(p->pf_json);
    free(p->pf_files);
    for (size_t i = 0; i < TOK_VOCAB_COUNT; i++) free(p->vocab.words[i]);
    free(p->vocab.hints);
    for (size_t i = 0; i < p->nblocks; i++) free(p->blocks[i]);
    free(p->blocks);
    free(p->sigs);
    free(p->entries);
    match_catalogues_free(p);
    pcre2_match_context_free(p->mctx);
    match_searcher_free(&p->search);
    free(p);
}

/* ---- lookups ---- */

size_t match_pack_entry_count(const struct match_pack *p)
{
    return p->nentries;
}

const struct match_entry *match_pack_entry(const struct match_pack *p, size_t i)
{
    return i < p->nentries ? &p->entries[i]->pub : NULL;
}

const struct match_entry *match_pack_find_entry(const struct match_pack *p, const char *id)
{
    for (size_t i = 0; i < p->nentries; i++)
        if (strcmp(p->entries[i]->pub.id, id) == 0) return &p->entries[i]->pub;
    return NULL;
}

size_t match_pack_sig_count(const struct match_pack *p)
{
    return p->nsigs;
}

const struct match_sig *match_pack_sig(const struct match_pack *p, size_t i)
{
    return i < p->nsigs ? &p->sigs[i]->pub : NULL;
}

const struct match_sig *match_pack_find_sig(const struct match_pack *p, const char *id)
{
    const struct match_sig_priv *s = find_sig(p, id);
    return s ? &s->pub : NULL;
}

int match_sig_has_tag(const struct match_sig *s, const char *tag)
{
    for (size_t i = 0; i < s->ntags; i++)
        if (!strcmp(s->tags[i], tag)) return 1;
    return 0;
}

int match_pack_has_tag(const struct match_pack *p, const char *tag)
{
    for (size_t i = 0; i < p->nsigs; i++)
        if (match_sig_has_tag(&p->sigs[i]->pub, tag)) return 1;
    return 0;
}

const struct match_value *match_rule_value(const struct match_rule *r, const char *name)
{
    for (size_t i = 0; i < r->nvalues; i++)
        if (!strcmp(r->values[i].name, name)) return &r->values[i];
    return NULL;
}

const struct match_outcome *match_rule_outcome(const struct match_rule *r, const char *name)
{
    for (size_t i = 0; i < r->noutcomes; i++)
        if (!strcmp(r->outcomes[i].name, name)) return &r->outcomes[i];
    return NULL;
}
