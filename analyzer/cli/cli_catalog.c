/* cli/cli_catalog.c - the pattern pack from the command line: list, explain, patterns. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/az.h"
#include "correlate/corr.h"
#include "match/match.h"
#include "report/report.h"
#include "tokenize/tok.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

char *cli_resolve_pack_dir(const struct cli_options *o)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? (size_t)n : 0] = '\0';
    return cli_pack_dir(o->patterns_dir, getenv("GOTCHA_PATTERNS"), exe);
}

/* Print each line of text as "gotcha: <prefix><line>". */
static void print_lines(FILE *err, const char *prefix, const char *text)
{
    while (text && *text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        if (n) {
            struct az_buf b = AZ_BUF_INIT;
            report_sanitize_terminal(&b, text, n);
            fprintf(err, "gotcha: %s%s\n", prefix, b.data ? b.data : "");
            az_buf_free(&b);
        }
        text = nl ? nl + 1 : text + n;
    }
}

static struct match_pack *load_from(const char *dir, const struct cli_options *o, FILE *err)
{
    size_t ndirs = 1 + o->nextra;
    const char **dirs = az_xmalloc(ndirs * sizeof *dirs);
    dirs[0] = dir;
    for (size_t i = 0; i < o->nextra; i++) dirs[1 + i] = o->extra_patterns[i];
    struct az_buf msg = AZ_BUF_INIT;
    struct match_pack *pack = NULL;
    /* the pack's rules are checked against the correlator's primitives as part of loading */
    if (match_pack_load(&pack, dirs, ndirs, &msg) != AZ_OK || !pack ||
        corr_rules_check(pack, &msg) != 0) {
        fprintf(err, "gotcha: cannot load the pattern pack '%s':\n", dir);
        print_lines(err, "  ", msg.data);
        match_pack_free(pack);
        pack = NULL;
    }
    az_buf_free(&msg);
    free((void *)dirs);
    return pack;
}

struct match_pack *cli_load_pack(const struct cli_options *o, FILE *err)
{
    char *dir = cli_resolve_pack_dir(o);
    struct match_pack *pack = load_from(dir, o, err);
    free(dir);
    return pack;
}

/* ---- list ---- */

/* Code points in s[0..n) (UTF-8 continuation bytes do not count). */
static size_t utf8_width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++) w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

/* One table cell: s cut to width code points (with "..."), sanitized, padded when pad. */
static void put_cell(FILE *out, const char *s, size_t width, int pad, int cut)
{
    size_t n = strlen(s);
    /* a cell is one line */
    const char *nl = memchr(s, '\n', n);
    if (nl) n = (size_t)(nl - s);
    int dots = 0;
    if (cut && utf8_width(s, n) > width) {
        size_t keep = 0, w = 0;
        while (keep < n && w < width - 3) {
            keep++;
            while (keep < n && ((unsigned char)s[keep] & 0xC0) == 0x80) keep++;
            w++;
        }
        n = keep;
        dots = 1;
    }
    struct az_buf b = AZ_BUF_INIT;
    report_sanitize_terminal(&b, s, n);
    if (dots) az_buf_puts(&b, "...");
    fputs(b.data ? b.data : "", out);
    if (pad)
        for (size_t w = utf8_width(b.data ? b.data : "", b.len); w < width; w++) fputc(' ', out);
    az_buf_free(&b);
}

enum { LIST_SYMPTOM_WIDTH = 46, LIST_FIX_WIDTH = 56 };

int cli_cmd_list(const struct cli_options *o, FILE *out, FILE *err)
{
    struct match_pack *pack = cli_load_pack(o, err);
    if (!pack) return CLI_EXIT_ERROR;
    size_t idw = 2;
    for (size_t i = 0; i < match_pack_entry_count(pack); i++) {
        const struct match_entry *e = match_pack_entry(pack, i);
        if (e->family == MATCH_FAMILY_GOTCHA || e->family == MATCH_FAMILY_COMMON)
            idw = AZ_MAX(idw, strlen(e->id));
    }
    int cut = !o->verbose;
    put_cell(out, "ID", idw + 2, 1, 0);
    put_cell(out, "SYMPTOM", LIST_SYMPTOM_WIDTH + 2, 1, 0);
    fputs("FIX\n", out);
    for (size_t i = 0; i < match_pack_entry_count(pack); i++) {
        const struct match_entry *e = match_pack_entry(pack, i);
        if (e->family != MATCH_FAMILY_GOTCHA && e->family != MATCH_FAMILY_COMMON) continue;
        const char *symptom = e->symptom && *e->symptom ? e->symptom : e->title;
        put_cell(out, e->id, idw + 2, 1, 0);
        put_cell(out, symptom ? symptom : "", LIST_SYMPTOM_WIDTH, 1, cut);
        fputs("  ", out);
        put_cell(out, e->fix ? e->fix : "", LIST_FIX_WIDTH, 0, cut);
        fputc('\n', out);
    }
    match_pack_free(pack);
    return CLI_EXIT_CLEAN;
}

/* ---- explain ---- */

static void put_field(FILE *out, const char *label, const char *value)
{
    if (!value || !*value) return;
    struct az_buf b = AZ_BUF_INIT;
    report_sanitize_terminal(&b, value, strlen(value));
    fprintf(out, "%-9s %s\n", label, b.data ? b.data : "");
    az_buf_free(&b);
}

static void put_kinds(FILE *out, uint32_t kinds)
{
    uint32_t all = (uint32_t)((1u << TOK_KIND_COUNT) - 1);
    if ((kinds & all) == all) {
        fputs("any", out);
        return;
    }
    const char *sep = "";
    for (int k = 0; k < TOK_KIND_COUNT; k++)
        if (kinds & (1u << k)) {
            fprintf(out, "%s%s", sep, tok_kind_name((enum tok_kind)k));
            sep = ",";
        }
}

/* What the engine evaluates for a gotcha entry: scope, ruled-out sentence, explains links. */
static void put_model(FILE *out, const struct match_entry *e)
{
    if (e->family != MATCH_FAMILY_GOTCHA) return;
    char buf[256];
    if (e->scope.platform)
        snprintf(buf, sizeof buf, "%s (x%.2f on another GPU)", e->scope.platform, e->scope.factor);
    else
        snprintf(buf, sizeof buf, "any platform");
    put_field(out, "scope", buf);
    put_field(out, "ruled out", e->ruled_out);
    struct az_buf b = AZ_BUF_INIT;
    for (size_t i = 0; i < e->nexplains; i++)
        az_buf_printf(&b, "%s%s (when at least %.2f)", i ? ", " : "", e->explains[i].id,
                      e->explains[i].min_cause);
    if (b.len) put_field(out, "explains", b.data);
    az_buf_free(&b);
}

/* A rule: its primitive, its named values, and what each outcome adds. */
static void put_rule(FILE *out, size_t n, const struct match_rule *r)
{
    struct az_buf b = AZ_BUF_INIT, line = AZ_BUF_INIT;
    for (size_t i = 0; i < r->nvalues; i++) {
        const struct match_value *v = &r->values[i];
        az_buf_printf(&line, "%s%s=", i ? ", " : "", v->name);
        if (v->str)
            az_buf_puts(&line, v->str);
        else if (v->list)
            for (size_t k = 0; k < v->nlist; k++)
                az_buf_printf(&line, "%s%s", k ? "|" : "", v->list[k]);
        else
            az_buf_printf(&line, "%g", v->num);
    }
    report_sanitize_terminal(&b, line.data ? line.data : "", line.len);
    fprintf(out, "  %zu. %s  %s\n", n, r->use, b.data ? b.data : "");
    az_buf_reset(&line);
    az_buf_reset(&b);
    for (size_t i = 0; i < r->noutcomes; i++) {
        const struct match_outcome *o = &r->outcomes[i];
        az_buf_printf(&line, "%s%s ", i ? ", " : "", o->name);
        if (o->weight > 0)
            az_buf_printf(&line, "+%.2f%s", o->weight, o->decisive ? " decisive" : "");
        else if (o->factor < 1)
            az_buf_printf(&line, "x%.2f", o->factor);
        else if (o->cap > 0)
            az_buf_printf(&line, "cap %.2f", o->cap);
        else
            az_buf_puts(&line, "reason");
    }
    report_sanitize_terminal(&b, line.data ? line.data : "", line.len);
    fprintf(out, "     outcomes: %s\n", b.data ? b.data : "");
    az_buf_free(&line);
    az_buf_free(&b);
}

static const struct match_entry *find_entry(const struct match_pack *pack, const char *id)
{
    const struct match_entry *e = match_pack_find_entry(pack, id);
    for (size_t i = 0; !e && i < match_pack_entry_count(pack); i++)
        if (strcasecmp(match_pack_entry(pack, i)->id, id) == 0) e = match_pack_entry(pack, i);
    return e;
}

/* One code of a catalogue ("xid:79"), or the whole table ("xid"). */
static void explain_code(FILE *out, const struct match_pack *pack, const struct match_code *c)
{
    char head[64];
    snprintf(head, sizeof head, "%s %ld", c->cat->label, c->code);
    put_field(out, head, c->name);
    put_field(out, "mnemonic", c->mnemonic);
    put_field(out, "meaning", c->meaning);
    put_field(out, "severity", c->severity);
    char act[1024];
    snprintf(act, sizeof act, "%s: %s", c->action, c->action_text);
    put_field(out, "action", act);
    const struct match_sig *s = match_pack_find_sig(pack, c->sig_id);
    if (s) put_field(out, "strength", match_strength_name(s->strength));
    put_field(out, "entry", c->cat->entry);
    put_field(out, "source", c->cat->source);
    fputs("\nA line's own Fatal/Non-fatal word, where it has one, overrides the severity.\n", out);
}

static void explain_table(FILE *out, const struct match_catalogue *cat)
{
    put_field(out, cat->id, cat->title);
    put_field(out, "entry", cat->entry);
    put_field(out, "source", cat->source);
    fprintf(out, "\ncodes (%zu; gotcha explain %s:CODE for one):\n", cat->ncodes, cat->id);
    for (size_t i = 0; i < cat->ncodes; i++) {
        const struct match_code *c = &cat->codes[i];
        fprintf(out, "  %6ld  %-8s  %-26s ", c->code, c->severity, c->action);
        put_cell(out, c->name, 60, 0, 0);
        fputc('\n', out);
    }
}

/* A signature's "route" (docs/patterns.md, "Route"): the signatures its hits may stand for, or,
 * for one made by a route, the line shape whose hits stand for it. */
static void put_routes(FILE *out, const struct match_pack *pack, const struct match_sig *s)
{
    if (s->routed_from)
        fprintf(out, "    routed:  a hit of %s whose route names this entry (gotcha explain %s)\n",
                s->routed_from->id, s->routed_from->entry->id);
    for (size_t i = 0; i < match_pack_sig_count(pack); i++) {
        const struct match_sig *t = match_pack_sig(pack, i);
        if (t->routed_from == s) fprintf(out, "    route:   some hits stand for %s\n", t->id);
    }
}

/* "xid:79" or "xid": 1 when id names a catalogue (printed, or *rc set for an unknown code). */
static int explain_catalogue(const struct match_pack *pack, const char *id, FILE *out, FILE *err,
                             int *rc)
{
    char name[64];
    const char *colon = strchr(id, ':');
    size_t n = colon ? (size_t)(colon - id) : strlen(id);
    if (n == 0 || n >= sizeof name) return 0;
    memcpy(name, id, n);
    name[n] = '\0';
    const struct match_catalogue *cat = match_pack_find_catalogue(pack, name);
    if (!cat) return 0;
    *rc = CLI_EXIT_CLEAN;
    if (!colon) {
        explain_table(out, cat);
        return 1;
    }
    char *end;
    long code = strtol(colon + 1, &end, 10);
    const struct match_code *c =
        colon[1] && !*end && code >= 0 ? match_catalogue_find(cat, code) : NULL;
    if (!c) {
        struct az_buf b = AZ_BUF_INIT;
        report_sanitize_terminal(&b, colon + 1, strlen(colon + 1));
        fprintf(err, "gotcha: %s code '%s' is not in the catalogue (gotcha explain %s lists it)\n",
                cat->label, b.data ? b.data : "", cat->id);
        az_buf_free(&b);
        *rc = CLI_EXIT_ERROR;
        return 1;
    }
    explain_code(out, pack, c);
    return 1;
}

int cli_cmd_explain(const struct cli_options *o, FILE *out, FILE *err)
{
    struct match_pack *pack = cli_load_pack(o, err);
    if (!pack) return CLI_EXIT_ERROR;
    int rc;
    if (explain_catalogue(pack, o->args[0], out, err, &rc)) {
        match_pack_free(pack);
        return rc;
    }
    const struct match_entry *e = find_entry(pack, o->args[0]);
    if (!e) {
        struct az_buf b = AZ_BUF_INIT;
        report_sanitize_terminal(&b, o->args[0], strlen(o->args[0]));
        fprintf(err, "gotcha: unknown entry '%s' (see 'gotcha list')\n", b.data ? b.data : "");
        az_buf_free(&b);
        match_pack_free(pack);
        return CLI_EXIT_ERROR;
    }
    put_field(out, e->id, e->title);
    put_field(out, "family", match_family_name(e->family));
    put_field(out, "symptom", e->symptom);
    put_field(out, "cause", e->cause);
    put_field(out, "check", e->check);
    put_field(out, "fix", e->fix);
    put_field(out, "source", e->source);
    put_model(out, e);
    /* a catalogue's code signatures have no regex: the table lists them */
    size_t ncode = 0;
    for (size_t i = 0; i < e->nsigs; i++) ncode += e->sigs[i]->code != NULL;
    fprintf(out, "\nsignatures (%zu):\n", e->nsigs - ncode);
    for (size_t i = 0; i < e->nsigs; i++) {
        const struct match_sig *s = e->sigs[i];
        if (s->code) continue;
        fprintf(out, "  %s  %s  kinds: ", s->id, match_strength_name(s->strength));
        put_kinds(out, s->kinds);
        enum match_role dflt = s->strength == MATCH_CONTEXT ? MATCH_ROLE_CONTEXT : MATCH_ROLE_ROOT;
        if (s->role != dflt) fprintf(out, "  role: %s", match_role_name(s->role));
        if (s->decisive_on) fprintf(out, "  decisive on: %s", s->decisive_on);
        for (size_t k = 0; k < s->ntags; k++)
            fprintf(out, "%s%s", k ? "," : "  tags: ", s->tags[k]);
        for (size_t k = 0; k < s->ncascade_of; k++)
            fprintf(out, "%s%s", k ? "," : "  cascade of: ", s->cascade_of[k]);
        if (s->after) fprintf(out, "  after: %s within %u", s->after->id, s->after_within);
        if (s->until) fprintf(out, " until %s", s->until->id);
        fputc('\n', out);
        struct az_buf b = AZ_BUF_INIT;
        if (s->summary && *s->summary) {
            report_sanitize_terminal(&b, s->summary, strlen(s->summary));
            fprintf(out, "    summary: %s\n", b.data);
            az_buf_reset(&b);
        }
        if (s->note && *s->note) {
            report_sanitize_terminal(&b, s->note, strlen(s->note));
            fprintf(out, "    note:    %s\n", b.data);
            az_buf_reset(&b);
        }
        report_sanitize_terminal(&b, s->regex, strlen(s->regex));
        fprintf(out, "    regex:   %s\n", b.data ? b.data : "");
        az_buf_free(&b);
        if (s->shape_of)
            fprintf(out, "    codes:   looked up in catalogue %s (%zu codes: gotcha explain %s)\n",
                    s->shape_of->id, s->shape_of->ncodes, s->shape_of->id);
        put_routes(out, pack, s);
    }
    if (e->nrules) fprintf(out, "\nrules (%zu):\n", e->nrules);
    for (size_t i = 0; i < e->nrules; i++) put_rule(out, i + 1, e->rules[i]);
    match_pack_free(pack);
    return CLI_EXIT_CLEAN;
}

/* ---- patterns ---- */

int cli_cmd_patterns(const struct cli_options *o, FILE *out, FILE *err)
{
    char *dir = o->nargs ? az_xstrdup(o->args[0]) : cli_resolve_pack_dir(o);
    if (!o->check) {
        fprintf(out, "%s\n", dir);
        free(dir);
        return CLI_EXIT_CLEAN;
    }
    struct match_pack *pack = load_from(dir, o, err);
    if (!pack) {
        free(dir);
        return CLI_EXIT_ERROR;
    }
    size_t nentries = match_pack_entry_count(pack);
    for (size_t i = 0; i < nentries; i++) {
        const struct match_entry *e = match_pack_entry(pack, i);
        fprintf(out, "%-24s %-8s %3zu signature%s\n", e->id, match_family_name(e->family), e->nsigs,
                e->nsigs == 1 ? "" : "s");
    }
    struct az_buf report = AZ_BUF_INIT;
    size_t failures = match_pack_check(pack, &report);
    print_lines(err, "check: ", report.data);
    fprintf(out, "%zu entries, %zu signatures, %zu example failure%s\n", nentries,
            match_pack_sig_count(pack), failures, failures == 1 ? "" : "s");
    az_buf_free(&report);
    match_pack_free(pack);
    free(dir);
    return failures ? CLI_EXIT_ERROR : CLI_EXIT_CLEAN;
}
