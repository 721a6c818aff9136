/*
 * tests/unit/test_match.c - the signature pack loader, literal derivation, the prefilter and the
 * scanner. Small packs are written into a per-test temporary directory; the shipped pack is
 * checked example by example (data-driven, like jq's tests/jq.test triples).
 *
 * Fixture lines copy real shapes; /work/shared/reference/gotcha-checks-notes.md lists where each
 * came from (public PyTorch, vLLM, NCCL and NVIDIA driver issues):
 *  - "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total
 *    capacity of ..." is PyTorch's caching allocator message (c10/cuda/CUDACachingAllocator.cpp);
 *  - "NVRM: Xid (PCI:0000:01:00): 79, pid=..., GPU has fallen off the bus." is the driver's dmesg
 *    shape (NVIDIA Xid documentation);
 *  - "ImportError: ...so: undefined symbol: ..." is the dynamic loader's message for a wheel built
 *    against another CUDA.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "match/match.h"

/* ---- temporary pack directories ---- */

static char tmp_root[64];

static void make_root(void)
{
    snprintf(tmp_root, sizeof(tmp_root), "/tmp/gotcha-match-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp_root));
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    const struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        if (unlink(path) != 0) remove_tree(path);
    }
    closedir(d);
    rmdir(dir);
}

static void setup(void)
{
    make_root();
}
static void teardown(void)
{
    remove_tree(tmp_root);
}

TestSuite(match, .init = setup, .fini = teardown);

/* Write text to <tmp_root>/<sub>/<name>; returns the directory (static storage, reused after
 * 64 calls). */
static const char *write_pack(const char *sub, const char *name, const char *text)
{
    static char dirs[64][256];
    static unsigned next;
    char *dir = dirs[next++ % 64];
    char path[512];
    snprintf(dir, 256, "%s/%s", tmp_root, sub);
    mkdir(dir, 0700);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    return dir;
}

/* A one-entry pack: entry G3 holding the given signature objects (JSON text). */
static const char *g3_pack(const char *sigs)
{
    static char buf[8192];
    snprintf(buf, sizeof(buf),
             "{\"entries\": [{\"id\": \"G3\", \"family\": \"gotcha\", \"title\": \"UMA OOM\",\n"
             " \"symptom\": \"s\", \"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\",\n"
             " \"signatures\": [%s]}]}\n",
             sigs);
    return buf;
}

/* A signature object with the given id, regex (JSON-escaped), extra fields and examples. */
static char *sig_json(const char *id, const char *regex, const char *extra, const char *match,
                      const char *no_match)
{
    static char bufs[8][2048];
    static int n;
    char *b = bufs[n++ % 8];
    snprintf(
        b, 2048,
        "{\"id\": \"%s\", \"kinds\": [\"any\"], \"strength\": \"strong\", \"regex\": \"%s\",%s\n"
        " \"examples\": {\"match\": [\"%s\"], \"no_match\": [\"%s\"]},\n"
        " \"sources\": [\"test\"]}",
        id, regex, extra ? extra : "", match, no_match);
    return b;
}

static enum az_status load1(const char *dir, struct match_pack **p, struct az_buf *err)
{
    const char *dirs[] = {dir};
    return match_pack_load(p, dirs, 1, err);
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++) n += *s == '\n';
    return n;
}

/* ---- collecting hits ---- */

struct hits {
    const char *ids[64];
    const struct match_sig *sigs[64];
    double num[64]; /* first fact's number */
    size_t n;
};

static void collect(void *ctx, const struct match_hit *h)
{
    struct hits *c = ctx;
    if (c->n < 64) {
        c->num[c->n] = h->nfacts ? h->facts[0].num : NAN;
        c->sigs[c->n] = h->sig;
        c->ids[c->n++] = h->sig->id;
    }
}

static int has_hit(const struct hits *h, const char *id)
{
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->ids[i], id) == 0) return 1;
    return 0;
}

/* A hit of s, or for a catalogue shape a hit of one of its catalogue's codes (the scanner reports
 * a shape's hit as the code's own signature), or for a routed shape a hit of a signature its
 * route made (docs/patterns.md, "Route"). */
static int has_hit_of(const struct hits *h, const struct match_sig *s)
{
    for (size_t i = 0; i < h->n; i++)
        if (h->sigs[i] == s || h->sigs[i]->routed_from == s ||
            (s->shape_of && h->sigs[i]->code && h->sigs[i]->code->cat == s->shape_of))
            return 1;
    return 0;
}

/* ---- (1) the shipped pack ---- */

static const char *shipped_dir(char *buf, size_t n)
{
    const char *env = getenv("GOTCHA_PATTERNS");
    if (env && *env) return env;
    const char *top = getenv("GOTCHA_TOP");
    if (top && *top) {
        snprintf(buf, n, "%s/patterns", top);
        return buf;
    }
    return "patterns";
}

static struct match_pack *load_shipped(void)
{
    char buf[512];
    const char *dir = shipped_dir(buf, sizeof(buf));
    size_t njson = 0;
    DIR *d = opendir(dir);
    if (d) {
        const struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            size_t l = strlen(de->d_name);
            njson += l > 5 && strcmp(de->d_name + l - 5, ".json") == 0;
        }
        closedir(d);
    }
    cr_assert_gt(njson, 0, "the shipped pack %s has no .json files (set GOTCHA_PATTERNS)", dir);
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    enum az_status st = load1(dir, &p, &err);
    cr_assert_eq(st, AZ_OK, "shipped pack %s does not load:\n%s", dir, err.data ? err.data : "");
    az_buf_free(&err);
    cr_assert_gt(match_pack_sig_count(p), 0);
    return p;
}

Test(match, shipped_pack_examples_pass_check)
{
    struct match_pack *p = load_shipped();
    struct az_buf rep = AZ_BUF_INIT;
    size_t fails = match_pack_check(p, &rep);
    cr_expect_eq(fails, 0, "%zu example failures:\n%s", fails, rep.data ? rep.data : "");
    az_buf_free(&rep);
    match_pack_free(p);
}

/* A new stream whose records are the first match example of s's key, of that key's key and so
 * on, root first: an "after" signature's examples are its value lines, which the scan counts
 * only below their key's line (docs/patterns.md, "After"). Nothing is scanned for another. */
static void after_prime(struct match_scanner *sc, const struct match_sig *s, enum tok_kind kind)
{
    if (s == NULL || s->after == NULL) {
        if (s) match_scanner_begin_stream(sc);
        return;
    }
    after_prime(sc, s->after, kind);
    size_t n;
    const char *const *ex = match_sig_examples(s->after, 1, &n);
    cr_assert_gt(n, 0u, "%s: its key %s has no match example", s->id, s->after->id);
    match_scanner_scan(sc, kind, ex[0], strlen(ex[0]), NULL, NULL);
}

/* The scan path (prefilter + kinds) must agree with the examples, not only the bare regex. */
Test(match, shipped_pack_examples_agree_through_scan)
{
    struct match_pack *p = load_shipped();
    struct match_scanner *sc = match_scanner_new(p);
    size_t bad = 0;
    for (size_t i = 0; i < match_pack_sig_count(p); i++) {
        const struct match_sig *s = match_pack_sig(p, i);
        int kind = 0;
        while (kind < TOK_KIND_COUNT && !(s->kinds & (1u << kind))) kind++;
        cr_assert_lt(kind, TOK_KIND_COUNT, "%s applies to no kind", s->id);
        size_t n;
        const char *const *ex = match_sig_examples(s, 1, &n);
        for (size_t e = 0; e < n; e++) {
            struct hits h = {0};
            after_prime(sc, s, (enum tok_kind)kind);
            match_scanner_scan(sc, (enum tok_kind)kind, ex[e], strlen(ex[e]), collect, &h);
            if (!has_hit_of(&h, s)) {
                bad++;
                cr_log_error("%s: scan misses match example: %s", s->id, ex[e]);
            }
        }
        ex = match_sig_examples(s, 0, &n);
        for (size_t e = 0; e < n; e++) {
            struct hits h = {0};
            after_prime(sc, s, (enum tok_kind)kind);
            match_scanner_scan(sc, (enum tok_kind)kind, ex[e], strlen(ex[e]), collect, &h);
            if (has_hit_of(&h, s)) {
                bad++;
                cr_log_error("%s: scan matches no_match example: %s", s->id, ex[e]);
            }
        }
    }
    cr_expect_eq(bad, 0, "%zu examples disagree through the scan path", bad);
    match_scanner_free(sc);
    match_pack_free(p);
}

/* Unsloth's banner line in its two real forms (unsloth/models/llama.py, FastLlamaModel's
 * "{chr(92)}        /    Bfloat16 = {...}. FA [Xformers = {xformers_version}. FA2 =
 * {HAS_FLASH_ATTENTION}]"; xformers_version is None without xformers, else its dotted version,
 * .postN suffix included: unsloth/models/_utils.py). Values of our own. G2's hint reads FA2 = True
 * in both, through the scan path (a training log), and FA2 = False in neither. */
Test(match, shipped_unsloth_banner_fa2_true_with_and_without_xformers)
{
    struct match_pack *p = load_shipped();
    const struct match_sig *s = match_pack_find_sig(p, "G2.unsloth-fa2-true");
    cr_assert_not_null(s, "G2.unsloth-fa2-true is not in the shipped pack");
    struct match_scanner *sc = match_scanner_new(p);
    static const struct {
        const char *line;
        int want;
    } cases[] = {
        {"\\        /    Bfloat16 = TRUE. FA [Xformers = None. FA2 = True]", 1},
        {"\\        /    Bfloat16 = TRUE. FA [Xformers = 0.0.30.post1. FA2 = True]", 1},
        {"\\        /    Bfloat16 = TRUE. FA [Xformers = 0.0.32. FA2 = True]", 1},
        {"\\        /    Bfloat16 = TRUE. FA [Xformers = None. FA2 = False]", 0},
        {"\\        /    Bfloat16 = TRUE. FA [Xformers = 0.0.30.post1. FA2 = False]", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct hits h = {0};
        size_t len = strlen(cases[i].line);
        cr_expect_eq(match_sig_exec(s, cases[i].line, len), cases[i].want, "regex on: %s",
                     cases[i].line);
        match_scanner_scan(sc, TOK_KIND_TRAIN, cases[i].line, len, collect, &h);
        cr_expect_eq(has_hit_of(&h, s), cases[i].want, "scan on: %s", cases[i].line);
    }
    match_scanner_free(sc);
    match_pack_free(p);
}

/* ---- (2) loader errors ---- */

static char *load_error(const char *dir)
{
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = (struct match_pack *)1;
    enum az_status st = load1(dir, &p, &err);
    cr_assert_eq(st, AZ_FAIL, "broken pack loaded");
    cr_assert_null(p);
    cr_assert_not_null(err.data);
    return az_buf_steal(&err);
}

#define OOM_LINE                                                                                   \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "  \
    "capacity of 119.70 GiB of which 9.88 MiB is free."
#define OOM_REGEX "CUDA out of memory\\\\. Tried to allocate (?<tried>[0-9.]+ [KMGT]i?B)"
#define NEAR_MISS "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation"

Test(match, error_bad_json_names_file_and_line)
{
    const char *dir = write_pack("p", "g3.json", "{\"entries\": [\n  {\"id\": \"G3\",,\n]}\n");
    char *e = load_error(dir);
    cr_expect(strstr(e, "g3.json:2:") != NULL, "no file:line in: %s", e);
    cr_expect(strstr(e, "bad JSON") != NULL, "%s", e);
    free(e);
}

Test(match, error_unknown_field_is_named)
{
    const char *s = sig_json("G3.oom", OOM_REGEX, " \"sumary\": \"typo\",", OOM_LINE, NEAR_MISS);
    char *e = load_error(write_pack("p", "g3.json", g3_pack(s)));
    cr_expect(strstr(e, "G3.oom: unknown field \"sumary\"") != NULL, "%s", e);
    cr_expect(strstr(e, "g3.json") != NULL, "%s", e);
    free(e);
}

Test(match, error_duplicate_signature_id_across_files)
{
    const char *s = sig_json("G3.oom", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS);
    write_pack("p", "a.json", g3_pack(s));
    const char *dir = write_pack("p", "b.json",
                                 "{\"entries\": [{\"id\": \"C.oom\", \"family\": \"common\", "
                                 "\"title\": \"t\", \"signatures\": []}]}");
    /* b.json is fine; now a second file defines G3 again with the same signature */
    write_pack("p", "c.json", g3_pack(s));
    char *e = load_error(dir);
    cr_expect(strstr(e, "c.json: G3.oom: duplicate signature id") != NULL, "%s", e);
    cr_expect(strstr(e, "c.json: G3: duplicate entry id") != NULL, "%s", e);
    free(e);
}

Test(match, error_bad_regex_has_pcre2_message_and_offset)
{
    const char *s = sig_json("G3.oom", "CUDA (out of memory", NULL, OOM_LINE, NEAR_MISS);
    char *e = load_error(write_pack("p", "g3.json", g3_pack(s)));
    cr_expect(strstr(e, "G3.oom: bad regex: missing closing parenthesis at offset 19") != NULL,
              "%s", e);
    free(e);
}

Test(match, error_unknown_kind)
{
    const char *s = sig_json("G3.oom", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS);
    char text[8192];
    snprintf(text, sizeof(text), "%s", g3_pack(s));
    char *k = strstr(text, "[\"any\"]");
    memcpy(k, "[\"krn\"]", 7);
    char *e = load_error(write_pack("p", "g3.json", text));
    cr_expect(strstr(e, "G3.oom: unknown kind \"krn\"") != NULL, "%s", e);
    free(e);
}

Test(match, error_unknown_strength)
{
    const char *s = sig_json("G3.oom", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS);
    char text[8192];
    snprintf(text, sizeof(text), "%s", g3_pack(s));
    char *k = strstr(text, "\"strong\"");
    memcpy(k, "\"strung\"", 8);
    char *e = load_error(write_pack("p", "g3.json", text));
    cr_expect(strstr(e, "G3.oom: unknown strength \"strung\"") != NULL, "%s", e);
    free(e);
}

Test(match, error_fact_without_group)
{
    const char *s =
        sig_json("G3.oom", OOM_REGEX, " \"facts\": {\"tired\": \"bytes\"},", OOM_LINE, NEAR_MISS);
    char *e = load_error(write_pack("p", "g3.json", g3_pack(s)));
    cr_expect(strstr(e, "G3.oom: fact \"tired\" is declared but the regex has no group") != NULL,
              "%s", e);
    free(e);
}

Test(match, error_unknown_fact_type)
{
    const char *s =
        sig_json("G3.oom", OOM_REGEX, " \"facts\": {\"tried\": \"size\"},", OOM_LINE, NEAR_MISS);
    char *e = load_error(write_pack("p", "g3.json", g3_pack(s)));
    cr_expect(strstr(e, "G3.oom: fact \"tried\": unknown fact type") != NULL, "%s", e);
    free(e);
}

Test(match, error_underivable_literal_asks_to_declare)
{
    const char *s = sig_json("G3.num", "\\\\d+\\\\s+\\\\d+", NULL, "12 34", "ab");
    char *e = load_error(write_pack("p", "g3.json", g3_pack(s)));
    cr_expect(strstr(e, "G3.num: no literal of 3+ bytes can be derived") != NULL, "%s", e);
    free(e);
}

Test(match, error_missing_examples_and_field)
{
    const char *pack = "{\"entries\": [{\"id\": \"G3\", \"family\": \"gotcha\", \"title\": \"t\", "
                       "\"symptom\": \"s\", \"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\", "
                       "\"signatures\": [{\"id\": \"G3.x\", \"kinds\": [\"any\"], "
                       "\"regex\": \"CUDA out of memory\", \"sources\": [\"t\"]}]}]}";
    char *e = load_error(write_pack("p", "g3.json", pack));
    cr_expect(strstr(e, "G3.x: missing required field \"strength\"") != NULL, "%s", e);
    cr_expect(strstr(e, "G3.x: missing required field \"examples\"") != NULL, "%s", e);
    free(e);
}

Test(match, error_bad_ids_reported_all_at_once)
{
    const char *s1 = sig_json("G3x", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS);
    const char *s2 = sig_json("G3.y", "foo(", NULL, "foo", "bar");
    char sigs[4096];
    snprintf(sigs, sizeof(sigs), "%s, %s", s1, s2);
    write_pack("p", "a.json", g3_pack(sigs));
    const char *dir = write_pack("p", "b.json",
                                 "{\"entries\": [{\"id\": \"g11\", \"family\": \"gotcha\", "
                                 "\"title\": \"t\", \"symptom\": \"s\", \"cause\": \"c\", "
                                 "\"check\": \"k\", \"fix\": \"f\", \"signatures\": []}]}");
    char *e = load_error(dir);
    cr_expect(strstr(e, "a.json: G3x: signature ids are \"G3.<name>\"") != NULL, "%s", e);
    cr_expect(strstr(e, "a.json: G3.y: bad regex") != NULL, "%s", e);
    cr_expect(strstr(e, "b.json: g11: bad id: gotcha ids are G<n> or a site id") != NULL, "%s", e);
    cr_expect_geq(count_lines(e), 3, "%s", e);
    free(e);
}

/* ---- (3) literal derivation ---- */

/* The literals derived for a regex (JSON-escaped), joined with '|'; "" when none. */
static void derived(const char *regex, char *out, size_t outsz)
{
    char dir[64];
    static int n;
    snprintf(dir, sizeof(dir), "d%d", n++);
    const char *s = sig_json("G3.x", regex, NULL, "x", "y");
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    out[0] = '\0';
    if (load1(write_pack(dir, "g3.json", g3_pack(s)), &p, &err) == AZ_OK) {
        size_t nl;
        const char *const *l = match_sig_literals(match_pack_sig(p, 0), &nl);
        for (size_t i = 0; i < nl; i++) {
            if (i) strncat(out, "|", outsz - strlen(out) - 1);
            strncat(out, l[i], outsz - strlen(out) - 1);
        }
        match_pack_free(p);
    }
    az_buf_free(&err);
}

#define EXPECT_LITERALS(regex, want)                                                               \
    do {                                                                                           \
        char got_[512];                                                                            \
        derived(regex, got_, sizeof(got_));                                                        \
        cr_expect_str_eq(got_, want, "regex %s", regex);                                           \
    } while (0)

Test(match, literal_longest_mandatory_run_lowercased)
{
    EXPECT_LITERALS(OOM_REGEX, "cuda out of memory. tried to allocate ");
    EXPECT_LITERALS("(?i)NVRM: Xid \\\\(PCI:[0-9a-f:.]+\\\\): (?<xid>\\\\d+)", "nvrm: xid (pci:");
}

Test(match, literal_one_per_top_level_branch)
{
    EXPECT_LITERALS("undefined symbol: (?<symbol>\\\\S+)|cannot open shared object file",
                    "undefined symbol: |cannot open shared object file");
    EXPECT_LITERALS("foo|\\\\d+", ""); /* a branch without a literal: none derivable */
}

Test(match, literal_skips_optional_parts)
{
    EXPECT_LITERALS("abc?def", "def");
    EXPECT_LITERALS("(?:Warning: )?barbaz", "barbaz");
    EXPECT_LITERALS("x{0,3}abcd", "abcd");
    EXPECT_LITERALS("colou*r is here", "r is here");
    EXPECT_LITERALS("a+bcd", "bcd");
}

Test(match, literal_through_mandatory_groups_and_escapes)
{
    EXPECT_LITERALS("(?<n>abc)def", "abcdef");
    EXPECT_LITERALS("[abc]+def\\\\[ghi\\\\]", "def[ghi]");
    EXPECT_LITERALS("NCCL (?:WARN|INFO) x", "nccl ");
    EXPECT_LITERALS("\\\\d+\\\\s\\\\w", "");
    EXPECT_LITERALS("(?x) abc def", "");
}

Test(match, declared_literal_missing_from_example_fails_check)
{
    const char *s =
        sig_json("G3.oom", OOM_REGEX, " \"literals\": [\"Tried to free\"],", OOM_LINE, NEAR_MISS);
    struct az_buf err = AZ_BUF_INIT, rep = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "g3.json", g3_pack(s)), &p, &err), AZ_OK, "%s", err.data);
    cr_expect_eq(match_pack_check(p, &rep), 1, "%s", rep.data ? rep.data : "");
    cr_expect(strstr(rep.data, "G3.oom: match example 0 contains none of the literals") != NULL);
    match_pack_free(p);
    az_buf_free(&err);
    az_buf_free(&rep);
}

Test(match, examples_are_checked_past_their_prefixes)
{
    /* an anchored signature's example pasted from a vLLM server log (the EngineCore tag and the
     * logger header of vllm-project/vllm#45784): the check sees what the scan would, the message;
     * a no_match line whose only "match" is in its prefix passes too */
    const char *s =
        sig_json("G3.exc", "^(?<exception>[A-Za-z.]*Error): CUDA out of memory", "",
                 "(EngineCore_DP0 pid=1362711) ERROR 06-22 10:58:02 [core.py:1195] "
                 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB",
                 "sglang-1  | retried after torch.OutOfMemoryError: CUDA out of memory");
    struct az_buf err = AZ_BUF_INIT, rep = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "g3.json", g3_pack(s)), &p, &err), AZ_OK, "%s", err.data);
    cr_expect_eq(match_pack_check(p, &rep), 0, "%s", rep.data ? rep.data : "");
    /* the regex matches the body, not the whole line: without the stripping the check fails */
    const struct match_sig *sig = match_pack_find_sig(p, "G3.exc");
    cr_assert_not_null(sig);
    const char *body = "torch.OutOfMemoryError: CUDA out of memory";
    cr_expect_eq(match_sig_exec(sig, body, strlen(body)), 1);
    const char *whole = "(EngineCore_DP0 pid=1) ERROR 06-22 10:58:02 [core.py:1195] " /* */
                        "torch.OutOfMemoryError: CUDA out of memory";
    cr_expect_eq(match_sig_exec(sig, whole, strlen(whole)), 0);
    match_pack_free(p);
    az_buf_free(&err);
    az_buf_free(&rep);
}

/* ---- (4) prefilter vs brute force ---- */

static const char *const fuzz_regexes[] = {
    "CUDA out of memory\\\\. Tried to allocate (?<tried>[0-9.]+ [KMGT]i?B)",
    "NVRM: Xid \\\\(PCI:[0-9a-fA-F:.]+\\\\): (?<xid>\\\\d+)",
    "undefined symbol: (?<symbol>\\\\w+)|cannot open shared object file",
    "(?i)nccl warn.*res=(?<res>\\\\d+)",
    "Out of memory: Killed process (?<pid>\\\\d+)",
    "ab+cde?fgh",
    "(?:foo)?barbaz(?:qux)+",
    "x{0,3}abcd[0-9]",
    "sm_?121|GB10",
    "(?<loss>[0-9.]+) loss",
};
static const char *const fuzz_pieces[] = {
    "CUDA out of memory. Tried to allocate ",
    "cuda OUT of memory",
    "20.00 MiB",
    "NVRM: Xid (PCI:",
    "0000:01:00",
    "): ",
    "79",
    "undefined symbol: ",
    "_ZN3c10",
    "cannot open shared object file",
    "NCCL WARN",
    "nccl warn",
    " res=3",
    "Out of memory: Killed process ",
    "1234",
    "abbbcdfgh",
    "abcdefgh",
    "barbazqux",
    "foobarbaz",
    "abcd7",
    "xxxabcd",
    "sm121",
    "sm_121",
    "gb10",
    " loss",
    "0.25",
    " ",
    "\t",
    "\xff\xfe",
    "a",
    "b",
    "ab",
    "ABCD",
    "Xid",
    "\x00",
    "=",
};

Test(match, prefilter_agrees_with_brute_force)
{
    char sigs[8192] = "";
    size_t nre = sizeof(fuzz_regexes) / sizeof(fuzz_regexes[0]);
    for (size_t i = 0; i < nre; i++) {
        char id[32];
        snprintf(id, sizeof(id), "G3.s%zu", i);
        const char *extra = strstr(fuzz_regexes[i], "loss") ? " \"literals\": [\" loss\"]," : NULL;
        if (i) strcat(sigs, ", ");
        strcat(sigs, sig_json(id, fuzz_regexes[i], extra, "x", "y"));
    }
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "g3.json", g3_pack(sigs)), &p, &err), AZ_OK, "%s", err.data);
    struct match_scanner *sc = match_scanner_new(p);
    unsigned seed = 12345;
    size_t npieces = sizeof(fuzz_pieces) / sizeof(fuzz_pieces[0]);
    size_t total_hits = 0;
    for (int iter = 0; iter < 20000; iter++) {
        char line[512];
        size_t len = 0;
        int parts = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 8;
        for (int k = 0; k < parts; k++) {
            seed = seed * 1103515245u + 12345u;
            const char *piece = fuzz_pieces[(seed >> 16) % npieces];
            size_t pl = piece[0] ? strlen(piece) : 1; /* the "\x00" piece is one NUL byte */
            if (len + pl > sizeof(line)) break;
            memcpy(line + len, piece, pl);
            /* random case flips exercise the case-insensitive prefilter */
            for (size_t c = len; c < len + pl; c++)
                if (((seed >> (c % 13)) & 7) == 0 && line[c] >= 'a' && line[c] <= 'z')
                    line[c] -= 32;
            len += pl;
        }
        struct hits h = {0};
        size_t n = match_scanner_scan(sc, TOK_KIND_TRAIN, line, len, collect, &h);
        cr_assert_eq(n, h.n);
        size_t brute = 0;
        for (size_t i = 0; i < match_pack_sig_count(p); i++) {
            const struct match_sig *s = match_pack_sig(p, i);
            int m = match_sig_exec(s, line, len);
            brute += m == 1;
            cr_assert_eq(m == 1, has_hit(&h, s->id), "%s disagrees on line '%.*s'", s->id, (int)len,
                         line);
        }
        cr_assert_eq(brute, n);
        total_hits += n;
    }
    cr_expect_gt(total_hits, 1000, "the fuzz lines hit too rarely to test anything");
    match_scanner_free(sc);
    match_pack_free(p);
    az_buf_free(&err);
}

/* ---- (4b) matching ahead: prepare on one scanner, replay on another ---- */

/* Every hit as text: id, span and each fact's value, one line per hit. */
static void log_hit(void *ctx, const struct match_hit *h)
{
    struct az_buf *b = ctx;
    az_buf_printf(b, "%s@%zu+%zu", h->sig->id, h->off, h->len);
    for (size_t f = 0; f < h->nfacts; f++) {
        if (!h->facts[f].val) continue;
        az_buf_printf(b, " %s=%.*s", h->facts[f].def->name, (int)h->facts[f].len, h->facts[f].val);
    }
    az_buf_putc(b, '\n');
}

Test(match, prepared_replay_is_scan_sampled)
{
    struct match_pack *p = load_shipped();
    size_t nsigs = match_pack_sig_count(p);
    /* every example line of the pack, three times over so the sampling counts move on */
    const char **lines = NULL;
    size_t nlines = 0, cap = 0;
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < nsigs; i++)
            for (int want = 0; want < 2; want++) {
                size_t n;
                const char *const *ex = match_sig_examples(match_pack_sig(p, i), want, &n);
                for (size_t e = 0; e < n; e++) {
                    az_grow((void **)&lines, &cap, nlines + 1, sizeof(*lines));
                    lines[nlines++] = ex[e];
                }
            }
    cr_assert_gt(nlines, 1000u);
    /* sampling on every signature (series or not): 0, 1, 2, 4 or never, fixed per signature */
    uint32_t *every = calloc(nsigs, sizeof(*every));
    uint64_t *seen_a = calloc(nsigs, sizeof(*seen_a)), *seen_b = calloc(nsigs, sizeof(*seen_b));
    for (size_t i = 0; i < nsigs; i++)
        every[i] = (uint32_t[]){0, 1, 2, 4, MATCH_SAMPLE_NEVER}[(i * 7) % 5];
    struct match_sampling sa = {seen_a, every}, sb = {seen_b, every};

    struct match_scanner *direct = match_scanner_new(p), *ahead = match_scanner_new(p),
                         *replay = match_scanner_new(p);
    struct match_batch *mb = match_batch_new();
    struct az_buf want = AZ_BUF_INIT, got = AZ_BUF_INIT;
    size_t nwant = 0, ngot = 0;
    const size_t per_batch = 37; /* batches are reset and refilled many times */
    for (size_t first = 0; first < nlines; first += per_batch) {
        size_t end = first + per_batch < nlines ? first + per_batch : nlines;
        match_batch_reset(mb);
        for (size_t i = first; i < end; i++)
            match_scanner_prepare(ahead, TOK_KIND_TRAIN, lines[i], strlen(lines[i]), mb);
        for (size_t i = first; i < end; i++) {
            size_t len = strlen(lines[i]);
            az_buf_printf(&want, "# %zu\n", i);
            az_buf_printf(&got, "# %zu\n", i);
            nwant += match_scanner_scan_sampled(direct, TOK_KIND_TRAIN, lines[i], len, &sa, log_hit,
                                                &want);
            ngot += match_scanner_replay(replay, mb, i - first, lines[i], len, &sb, log_hit, &got);
        }
    }
    cr_assert_gt(nwant, 500u, "the examples hit too rarely to test anything");
    cr_assert_eq(ngot, nwant);
    cr_assert_str_eq(got.data, want.data);
    cr_assert_eq(memcmp(seen_a, seen_b, nsigs * sizeof(*seen_a)), 0, "sampling counts differ");

    az_buf_free(&want);
    az_buf_free(&got);
    match_batch_free(mb);
    match_scanner_free(direct);
    match_scanner_free(ahead);
    match_scanner_free(replay);
    free(every);
    free(seen_a);
    free(seen_b);
    free(lines);
    match_pack_free(p);
}

/* A regex that hits the PCRE2 match limit while prepared counts on the replaying scanner, as it
 * would on the scanning one. */
/* MATCH_SAMPLE_NEVER: the candidate is counted in seen[] but its regex never runs. */
Test(match, sampling_never_runs_the_regex_but_counts_the_candidate)
{
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(
        load1(write_pack("p", "g3.json",
                         g3_pack(sig_json("G3.oom", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS))),
              &p, &err),
        AZ_OK, "%s", err.data);
    struct match_scanner *sc = match_scanner_new(p);
    uint64_t seen = 0;
    uint32_t every = MATCH_SAMPLE_NEVER;
    struct match_sampling smp = {&seen, &every};
    for (int i = 0; i < 5; i++)
        cr_assert_eq(match_scanner_scan_sampled(sc, TOK_KIND_STDERR, OOM_LINE, strlen(OOM_LINE),
                                                &smp, NULL, NULL),
                     0u);
    cr_assert_eq(seen, 5u);
    every = 1;
    cr_assert_eq(match_scanner_scan_sampled(sc, TOK_KIND_STDERR, OOM_LINE, strlen(OOM_LINE), &smp,
                                            NULL, NULL),
                 1u, "the same line matches once it is sampled in");
    match_scanner_free(sc);
    match_pack_free(p);
    az_buf_free(&err);
}

/* A pack whose one regex backtracks catastrophically on EVIL_LINE. */
#define EVIL_LINE "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"
static struct match_pack *load_evil_pack(void)
{
    const char *s = sig_json("G3.evil", "(a+)+$", " \"literals\": [\"aaa\"],", "aaa", "b");
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "g3.json", g3_pack(s)), &p, &err), AZ_OK, "%s", err.data);
    az_buf_free(&err);
    return p;
}

Test(match, prepared_limit_hit_counts_at_replay)
{
    struct match_pack *p = load_evil_pack();
    const char *line = EVIL_LINE;
    struct match_scanner *ahead = match_scanner_new(p), *replay = match_scanner_new(p),
                         *direct = match_scanner_new(p);
    struct match_batch *mb = match_batch_new();
    match_scanner_prepare(ahead, TOK_KIND_TRAIN, line, strlen(line), mb);
    cr_assert_eq(match_scanner_replay(replay, mb, 0, line, strlen(line), NULL, NULL, NULL), 0u);
    cr_assert_eq(match_scanner_scan(direct, TOK_KIND_TRAIN, line, strlen(line), NULL, NULL), 0u);
    cr_assert_eq(match_scanner_limit_hits(direct, NULL), 1u, "the fixture must hit the limit");
    cr_assert_eq(match_scanner_limit_hits(replay, NULL), 1u);
    cr_assert_eq(match_scanner_limit_hits(ahead, NULL), 0u, "counted once, where replayed");
    match_batch_free(mb);
    match_scanner_free(ahead);
    match_scanner_free(replay);
    match_scanner_free(direct);
    match_pack_free(p);
}

/* ---- (5) kinds ---- */

Test(match, kinds_filter_limits_signatures_to_their_sources)
{
    const char *s =
        sig_json("G3.xid", "NVRM: Xid \\\\(PCI:[0-9a-f:.]+\\\\): (?<xid>\\\\d+)", NULL, "x", "y");
    char text[8192];
    snprintf(text, sizeof(text), "%s", g3_pack(s));
    /* replace ["any"] by ["kernel"] */
    char *k = strstr(text, "[\"any\"]");
    char fixed[8192];
    snprintf(fixed, sizeof(fixed), "%.*s[\"kernel\"]%s", (int)(k - text), text, k + 7);
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "g3.json", fixed), &p, &err), AZ_OK, "%s", err.data);
    struct match_scanner *sc = match_scanner_new(p);
    const char *line = "[ 1234.567890] NVRM: Xid (PCI:0000:01:00): 79, pid=2817, name=python3, "
                       "GPU has fallen off the bus.";
    cr_expect_eq(match_scanner_scan(sc, TOK_KIND_KERNEL, line, strlen(line), NULL, NULL), 1);
    cr_expect_eq(match_scanner_scan(sc, TOK_KIND_TRAIN, line, strlen(line), NULL, NULL), 0);
    cr_expect_eq(match_scanner_scan(sc, TOK_KIND_TEXT, line, strlen(line), NULL, NULL), 0);
    cr_expect_eq(match_pack_sig(p, 0)->kinds, 1u << TOK_KIND_KERNEL);
    match_scanner_free(sc);
    match_pack_free(p);
    az_buf_free(&err);
}

/* ---- (6) typed facts ---- */

struct fact_probe {
    double tried;
    char tried_text[32];
    double loss;
    int nhits;
};

static void probe_facts(void *ctx, const struct match_hit *h)
{
    struct fact_probe *fp = ctx;
    fp->nhits++;
    const struct match_fact *t = match_hit_fact(h, "tried");
    if (t) {
        fp->tried = t->num;
        snprintf(fp->tried_text, sizeof(fp->tried_text), "%.*s", (int)t->len, t->val);
    }
    const struct match_fact *l = match_hit_fact(h, "loss");
    if (l) fp->loss = l->num;
    cr_expect_null(match_hit_fact(h, "nope"));
}

static struct match_pack *facts_pack(void)
{
    char sigs[4096];
    snprintf(sigs, sizeof(sigs), "%s, %s",
             sig_json("G3.oom", "Tried to allocate (?<tried>[0-9.,]+ ?[A-Za-z]*)",
                      " \"facts\": {\"tried\": \"bytes\"},", "x", "y"),
             sig_json("G3.loss", "'loss': (?<loss>[-0-9.e]+)",
                      " \"facts\": {\"loss\": \"number\"},", "x", "y"));
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "g3.json", g3_pack(sigs)), &p, &err), AZ_OK, "%s", err.data);
    az_buf_free(&err);
    return p;
}

static double tried_of(struct match_scanner *sc, const char *line)
{
    struct fact_probe fp = {NAN, "", NAN, 0};
    match_scanner_scan(sc, TOK_KIND_STDERR, line, strlen(line), probe_facts, &fp);
    cr_assert_eq(fp.nhits, 1, "line %s", line);
    return fp.tried;
}

Test(match, facts_bytes_use_binary_units)
{
    struct match_pack *p = facts_pack();
    struct match_scanner *sc = match_scanner_new(p);
    cr_expect_float_eq(tried_of(sc, OOM_LINE), 20.0 * 1048576, 1e-3);
    cr_expect_float_eq(tried_of(sc, "Tried to allocate 2.00 GiB"), 2.0 * 1073741824, 1e-3);
    cr_expect_float_eq(tried_of(sc, "Tried to allocate 512 KB"), 512.0 * 1024, 1e-6);
    cr_expect_float_eq(tried_of(sc, "Tried to allocate 1 TB"), 1099511627776.0, 1);
    cr_expect_float_eq(tried_of(sc, "Tried to allocate 100 B"), 100.0, 1e-9);
    cr_expect_float_eq(tried_of(sc, "Tried to allocate 4096"), 4096.0, 1e-9);
    cr_expect_float_eq(tried_of(sc, "Tried to allocate 1,024 MiB"), 1024.0 * 1048576, 1e-3);
    cr_expect(isnan(tried_of(sc, "Tried to allocate 3 parsecs")));
    match_scanner_free(sc);
    match_pack_free(p);
}

Test(match, facts_number_and_borrowed_text)
{
    struct match_pack *p = facts_pack();
    struct match_scanner *sc = match_scanner_new(p);
    /* HF Trainer's per-step dict */
    const char *line =
        "{'loss': 1.2345, 'grad_norm': 0.98, 'learning_rate': 1.9e-05, 'epoch': 0.5}";
    struct fact_probe fp = {NAN, "", NAN, 0};
    cr_expect_eq(match_scanner_scan(sc, TOK_KIND_TRAIN, line, strlen(line), probe_facts, &fp), 1);
    cr_expect_float_eq(fp.loss, 1.2345, 1e-12);
    struct fact_probe fp2 = {NAN, "", NAN, 0};
    match_scanner_scan(sc, TOK_KIND_STDERR, OOM_LINE, strlen(OOM_LINE), probe_facts, &fp2);
    cr_expect_str_eq(fp2.tried_text, "20.00 MiB");
    match_scanner_free(sc);
    match_pack_free(p);
}

/* ---- (7) limits ---- */

Test(match, pathological_regex_counts_a_limit_hit_quickly)
{
    struct match_pack *p = load_evil_pack();
    struct az_buf err = AZ_BUF_INIT;
    struct match_scanner *sc = match_scanner_new(p);
    const char *line = EVIL_LINE;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_expect_eq(match_scanner_scan(sc, TOK_KIND_TEXT, line, strlen(line), NULL, NULL), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cr_expect_lt(secs, 2.0, "took %.2fs", secs);
    az_buf_reset(&err);
    cr_expect_eq(match_scanner_limit_hits(sc, &err), 1);
    cr_expect(strstr(err.data, "G3.evil") != NULL, "%s", err.data);
    /* an innocent line still matches */
    cr_expect_eq(match_scanner_scan(sc, TOK_KIND_TEXT, "aaaa", 4, NULL, NULL), 1);
    match_scanner_free(sc);
    match_pack_free(p);
    az_buf_free(&err);
}

/* ---- (8) extra packs, order, lookups ---- */

Test(match, extra_pack_adds_signatures_to_existing_entry)
{
    const char *base = write_pack(
        "base", "g3.json", g3_pack(sig_json("G3.oom", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS)));
    const char *extra = write_pack(
        "extra", "mine.json",
        "{\"entries\": [{\"id\": \"G3\", \"signatures\": [{\"id\": \"G3.nvrm-oom\", "
        "\"kinds\": [\"kernel\"], \"strength\": \"strong\", "
        "\"regex\": \"NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory\", "
        "\"examples\": {\"match\": [\"NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory "
        "[NV_ERR_NO_MEMORY]\"], \"no_match\": [\"NVRM: loading\"]}, \"sources\": [\"t\"]}]}]}");
    const char *dirs[] = {base, extra};
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(match_pack_load(&p, dirs, 2, &err), AZ_OK, "%s", err.data);
    const struct match_entry *e = match_pack_find_entry(p, "G3");
    cr_assert_not_null(e);
    cr_expect_eq(match_pack_entry_count(p), 1);
    cr_assert_eq(e->nsigs, 2);
    cr_expect_str_eq(e->sigs[1]->id, "G3.nvrm-oom");
    cr_expect_eq(match_pack_find_sig(p, "G3.nvrm-oom"), e->sigs[1]);
    cr_expect_eq(e->sigs[1]->entry, e);
    cr_expect_eq(match_pack_check(p, &err), 0, "%s", err.data);
    match_pack_free(p);
    az_buf_free(&err);
}

Test(match, extra_pack_duplicate_signature_id_is_an_error)
{
    const char *sig = sig_json("G3.oom", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS);
    const char *base = write_pack("base", "g3.json", g3_pack(sig));
    const char *extra = write_pack("extra", "x.json", g3_pack(sig));
    const char *dirs[] = {base, extra};
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(match_pack_load(&p, dirs, 2, &err), AZ_FAIL);
    cr_expect(strstr(err.data, "x.json: G3.oom: duplicate signature id") != NULL, "%s", err.data);
    cr_expect(strstr(err.data, "duplicate entry id") == NULL, "%s", err.data);
    az_buf_free(&err);
}

Test(match, entries_ordered_gotchas_by_number_then_families)
{
    const char *pack =
        "{\"entries\": ["
        "{\"id\": \"SERIES.loss\", \"family\": \"series\", \"title\": \"t\", \"signatures\": []},"
        "{\"id\": \"G10\", \"family\": \"gotcha\", \"title\": \"t\", \"symptom\": \"s\", "
        "\"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\", \"signatures\": []},"
        "{\"id\": \"CTX.gpu\", \"family\": \"context\", \"title\": \"t\", \"signatures\": []},"
        "{\"id\": \"C.xid\", \"family\": \"common\", \"title\": \"t\", \"signatures\": []},"
        "{\"id\": \"G2\", \"family\": \"gotcha\", \"title\": \"t\", \"symptom\": \"s\", "
        "\"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\", \"signatures\": []},"
        "{\"id\": \"C.oom-killer\", \"family\": \"common\", \"title\": \"t\", \"signatures\": []}"
        "]}";
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "all.json", pack), &p, &err), AZ_OK, "%s", err.data);
    const char *want[] = {"G2", "G10", "C.oom-killer", "C.xid", "CTX.gpu", "SERIES.loss"};
    cr_assert_eq(match_pack_entry_count(p), 6);
    for (size_t i = 0; i < 6; i++) cr_expect_str_eq(match_pack_entry(p, i)->id, want[i]);
    cr_expect_null(match_pack_find_entry(p, "G7"));
    cr_expect_str_eq(match_family_name(match_pack_entry(p, 5)->family), "series");
    match_pack_free(p);
    az_buf_free(&err);
}

Test(match, hits_come_in_pack_order_and_survive_binary_bytes)
{
    char sigs[4096];
    snprintf(sigs, sizeof(sigs), "%s, %s, %s", sig_json("G3.b", "allocate", NULL, "x", "y"),
             sig_json("G3.a", "CUDA out of memory", NULL, "x", "y"),
             sig_json("G3.c", "GiB of which", NULL, "x", "y"));
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "g3.json", g3_pack(sigs)), &p, &err), AZ_OK, "%s", err.data);
    struct match_scanner *sc = match_scanner_new(p);
    /* NUL and invalid UTF-8 inside the record must not stop the scan */
    char line[256];
    size_t len = (size_t)snprintf(line, sizeof(line), "%s", OOM_LINE);
    line[5] = '\0';
    line[6] = (char)0xff;
    struct hits h = {0};
    cr_expect_eq(match_scanner_scan(sc, TOK_KIND_STDERR, line, len, collect, &h), 3);
    cr_assert_eq(h.n, 3);
    cr_expect_str_eq(h.ids[0], "G3.b");
    cr_expect_str_eq(h.ids[1], "G3.a");
    cr_expect_str_eq(h.ids[2], "G3.c");
    match_scanner_free(sc);
    match_pack_free(p);
    az_buf_free(&err);
}

Test(match, names_and_pcre2_version)
{
    cr_expect_str_eq(match_strength_name(MATCH_DECISIVE), "decisive");
    cr_expect_str_eq(match_strength_name(MATCH_CONTEXT), "context");
    cr_expect_str_eq(match_family_name(MATCH_FAMILY_COMMON), "common");
    const char *v = match_pcre2_version();
    cr_expect(v[0] >= '1' && v[0] <= '9' && strchr(v, '.') != NULL, "version %s", v);
}

/* ---- (3) catalogues: one line shape, a table of codes ---- */

/* A catalogue of three codes and two shapes; the line shapes follow the NVIDIA driver's
 * "NVRM: Xid (PCI:...): N, ..." print, shortened. */
#define CAT_PACK                                                                                   \
    "{\"catalogues\": [{\"id\": \"t\", \"label\": \"T\", \"title\": \"test codes\", \"entry\": "   \
    "\"C.t\", \"sources\": [\"test\"],\n"                                                          \
    " \"actions\": {\"RESET\": {\"text\": \"reset it\"}, \"IGNORE\": {\"text\": \"nothing\", "     \
    "\"role\": \"noise\"}},\n"                                                                     \
    " \"codes\": [{\"code\": 79, \"name\": \"fell off\", \"severity\": \"fatal\", \"action\": "    \
    "\"RESET\", \"strength\": \"decisive\"},\n"                                                    \
    "  {\"code\": 13, \"name\": \"app fault\", \"severity\": \"nonfatal\", \"action\": "           \
    "\"RESET\"},"                                                                                  \
    "\n  {\"code\": 63, \"name\": \"remap\", \"severity\": \"nonfatal\", \"action\": "             \
    "\"IGNORE\"}]}],"                                                                              \
    "\n \"entries\": [{\"id\": \"C.t\", \"family\": \"common\", \"title\": \"t\", "                \
    "\"signatures\": [\n"                                                                          \
    "  {\"id\": \"C.t.line\", \"kinds\": [\"any\"], \"strength\": \"weak\", \"catalogue\": \"t\"," \
    " \"regex\": \"T \\\\((?<pci>[0-9:]+)\\\\): (?<code>[0-9]+)(?:, (?<severity>Fatal|Non-fatal)"  \
    "\\\\b)?\", \"examples\": {\"match\": [\"T (0:1): 79\"], \"no_match\": [\"T 79\"]}, "          \
    "\"sources\": [\"test\"]},\n"                                                                  \
    "  {\"id\": \"C.t.bus\", \"kinds\": [\"any\"], \"strength\": \"weak\", \"catalogue\": \"t\", " \
    "\"code\": 79, \"regex\": \"has fallen off the bus\", \"examples\": {\"match\": [\"GPU has "   \
    "fallen off the bus.\"], \"no_match\": [\"bus\"]}, \"sources\": [\"test\"]}]}]}\n"

static const struct match_sig *scan_one(struct match_scanner *sc, const char *line)
{
    struct hits h = {0};
    match_scanner_scan(sc, TOK_KIND_KERNEL, line, strlen(line), collect, &h);
    cr_assert_eq(h.n, 1, "%zu hits for %s", h.n, line);
    return h.sigs[0];
}

Test(match, catalogue_shape_hit_is_reported_as_its_code)
{
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(load1(write_pack("p", "t.json", CAT_PACK), &p, &err), AZ_OK, "%s", err.data);
    struct match_scanner *sc = match_scanner_new(p);

    const struct match_sig *s = scan_one(sc, "[ 12.5] T (0:1): 79, pid=1, name=python3");
    cr_expect_str_eq(s->id, "C.t.79");
    cr_expect_eq(s->strength, MATCH_DECISIVE); /* the row's own strength */
    cr_assert_not_null(s->code);
    cr_expect_str_eq(s->code->name, "fell off");
    cr_expect_str_eq(s->code->action_text, "reset it");
    cr_expect_str_eq(s->severity, "fatal");
    cr_expect_str_eq(s->summary, "T 79: fell off");
    /* the line's own word wins over the catalogue's severity */
    s = scan_one(sc, "T (0:1): 79, Non-fatal, Link 02");
    cr_expect_str_eq(s->id, "C.t.79.nonfatal");
    cr_expect_eq(s->strength, MATCH_WEAK);
    cr_expect_str_eq(s->severity, "nonfatal");
    s = scan_one(sc, "T (0:1): 13, Fatal, Link 02");
    cr_expect_str_eq(s->id, "C.t.13.fatal");
    cr_expect_eq(s->strength, MATCH_STRONG);
    /* a code NVIDIA says to ignore is declared noise by its action */
    s = scan_one(sc, "T (0:1): 63");
    cr_expect_str_eq(s->id, "C.t.63");
    cr_expect(s->role == MATCH_ROLE_NOISE);
    cr_expect_eq(s->strength, MATCH_WEAK);
    /* a code the table does not list stays the shape's own hit */
    s = scan_one(sc, "T (0:1): 1234");
    cr_expect_str_eq(s->id, "C.t.line");
    cr_expect_null(s->code);
    /* a shape with a fixed code */
    s = scan_one(sc, "NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.");
    cr_expect_str_eq(s->id, "C.t.79");

    const struct match_catalogue *c = match_pack_find_catalogue(p, "T");
    cr_assert_not_null(c);
    cr_expect_eq(c->ncodes, 3);
    cr_expect_eq(c->codes[0].code, 13); /* sorted */
    cr_expect_str_eq(match_catalogue_find(c, 63)->name, "remap");
    cr_expect_null(match_catalogue_find(c, 64));
    /* 2 shapes + 3 codes x (catalogue severity, the other one a shape can read) */
    cr_expect_eq(match_pack_find_entry(p, "C.t")->nsigs, 8);
    match_scanner_free(sc);
    match_pack_free(p);
}

Test(match, catalogue_errors_are_named)
{
    char text[8192];
    snprintf(text, sizeof text, "%s", CAT_PACK);
    /* an action the table does not define, and a shape naming a missing catalogue */
    char *a = strstr(text, "\"action\": \"RESET\", \"strength\"");
    memcpy(a, "\"action\": \"RESEX\"", 17);
    char *k = strstr(text, "\"catalogue\": \"t\", \"code\"");
    memcpy(k, "\"catalogue\": \"u\"", 16);
    char *e = load_error(write_pack("p", "t.json", text));
    cr_expect(strstr(e, "action \"RESEX\" is not in the catalogue's actions") != NULL, "%s", e);
    free(e);
    snprintf(text, sizeof text, "%s", CAT_PACK);
    k = strstr(text, "\"catalogue\": \"t\", \"code\"");
    memcpy(k, "\"catalogue\": \"u\"", 16);
    e = load_error(write_pack("q", "t.json", text));
    cr_expect(strstr(e, "C.t.bus: unknown catalogue \"u\"") != NULL, "%s", e);
    free(e);
    /* a code listed twice */
    snprintf(text, sizeof text, "%s", CAT_PACK);
    char *c = strstr(text, "\"code\": 13");
    memcpy(c, "\"code\": 79", 10);
    e = load_error(write_pack("r", "t.json", text));
    cr_expect(strstr(e, "code 79 is listed twice") != NULL, "%s", e);
    free(e);
}

/* The shipped catalogues hold NVIDIA's whole tables, and the driver's real line shapes resolve to
 * the code's signature: raw dmesg, dmesg -T, dmesg --decode --time-format iso, syslog/journal,
 * with and without the PCI: prefix, without a comma after the code, NVLink5 severity words, SXid
 * and the fall-off-the-bus forms without a number (shapes from the NVIDIA open-gpu-kernel-modules
 * prints named in patterns/nvidia-xid.json and nvidia-sxid.json). */
Test(match, shipped_catalogues_are_complete_and_resolve_real_shapes)
{
    struct match_pack *p = load_shipped();
    const struct match_catalogue *x = match_pack_find_catalogue(p, "xid");
    const struct match_catalogue *sx = match_pack_find_catalogue(p, "sxid");
    cr_assert_not_null(x);
    cr_assert_not_null(sx);
    for (long code = 1; code <= 172; code++)
        cr_expect_not_null(match_catalogue_find(x, code), "Xid %ld missing", code);
    cr_expect_geq(sx->ncodes, 398);
    cr_expect_str_eq(match_catalogue_find(sx, 24007)->action, "RESET_GPU");
    struct match_scanner *sc = match_scanner_new(p);
    static const struct {
        const char *line, *sig;
    } cases[] = {
        {"[ 8123.456789] NVRM: Xid (PCI:0000:01:00): 79, pid=1234, name=python3, GPU has fallen "
         "off the bus.",
         "C.xid.79"},
        {"[Tue Nov 29 10:12:55 2026] NVRM: Xid (PCI:000f:01:00): 13, pid=4242, name=python3, "
         "Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range Address",
         "C.xid.13"},
        {"kern  :err   : 2026-11-29T10:12:55,123456+00:00 NVRM: Xid (PCI:0000:3f:00): 46",
         "C.xid.46"},
        {"Nov 29 10:12:55 spark-01 kernel: NVRM: Xid (0000:03:00): 31, pid=4242, name=python3",
         "C.xid.31"},
        {"NVRM: Xid (PCI:0018:01:00): 149, NETIR_LINK_DOWN Fatal XC0 i0 Link 05 (0x004505c6 "
         "0x00000000)",
         "C.xid.149"},
        {"NVRM: Xid (PCI:0000:04:00): 145, RLW_REMAP Nonfatal XC0 i0 Link 00 (0x00000004 "
         "0x00000001)",
         "C.xid.145.nonfatal"},
        {"[ 1108.858286] nvidia-nvswitch0: SXid (PCI:0000:c3:00.0): 24007, Fatal, Link 28 "
         "sourcetrack timeout error (First)",
         "C.sxid.24007"},
        {"nvidia-nvswitch3: SXid (PCI:0000:05:00.0): 12028, Non-fatal, Link 32 egress non-posted "
         "PRIV error (First)",
         "C.sxid.12028.nonfatal"},
        {"[ 1843.308145] NVRM: fallen off the bus and is not responding to commands.", "C.xid.79"},
    };
    for (size_t i = 0; i < AZ_ARRAY_LEN(cases); i++) {
        struct hits h = {0};
        match_scanner_scan(sc, TOK_KIND_KERNEL, cases[i].line, strlen(cases[i].line), collect, &h);
        cr_expect(has_hit(&h, cases[i].sig), "%s not hit by: %s", cases[i].sig, cases[i].line);
    }
    const struct match_sig *s79 = match_pack_find_sig(p, "C.xid.79");
    cr_assert_not_null(s79);
    cr_expect_eq(s79->strength, MATCH_DECISIVE);
    cr_expect_str_eq(s79->code->action, "RESTART_BM");
    /* a non-fatal code whose action restarts the application is strong: the app was stopped */
    const struct match_sig *s13 = match_pack_find_sig(p, "C.xid.13");
    cr_assert_not_null(s13);
    cr_expect_eq(s13->strength, MATCH_STRONG);
    cr_expect_str_eq(s13->severity, "nonfatal");
    match_scanner_free(sc);
    match_pack_free(p);
}

/* The data records the NVSwitch driver prints after an SXid fault line (Data {...}, Severity N
 * Engine instance ...) stand for their code only when the catalogue lists it and does not bucket
 * it as noise. Lines from NVIDIA/nvtrust#124 (an H100 boot log: 22013 is an IGNORE code) and
 * leptonai/gpud#338 (a 12028 Data record, fatal in NVIDIA's table); 29999 is a code no table
 * lists, in the same record shape. */
Test(match, sxid_follow_up_records_stand_for_listed_codes_only)
{
    struct match_pack *p = load_shipped();
    struct match_scanner *sc = match_scanner_new(p);
    static const struct {
        const char *line, *sig; /* sig NULL: no hit at all */
    } cases[] = {
        {"[   38.178720] nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Non-fatal, Link 44 "
         "Minion Link DLREQ interrupt",
         "C.sxid.22013"},
        {"[   38.180708] nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Severity 0 Engine "
         "instance 44 Sub-engine instance 00",
         NULL},
        {"[   38.183583] nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Data {0x0000002c, "
         "0x0000002c, 0x00000000, 0x0000002c, 0x80005302, 0x00000000}",
         NULL},
        {"kern  :err   : 2025-01-25T10:34:54,859532+00:00 nvidia-nvswitch1: SXid "
         "(PCI:0000:84:00.0): 12028, Data {0x000001c0, 0x00bd5c8a, 0x00000500, 0x00000064}",
         "C.sxid.12028"},
        {"[   38.183583] nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 29999, Data {0x0000002c, "
         "0x0000002c}",
         NULL},
        /* a fault line of an unlisted code is still an SXid fault, reported as the shape */
        {"[   38.187830] nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 29999, Non-fatal, Link 45 "
         "Minion Link DLREQ interrupt",
         "C.sxid.line"},
    };
    for (size_t i = 0; i < AZ_ARRAY_LEN(cases); i++) {
        struct hits h = {0};
        match_scanner_scan(sc, TOK_KIND_KERNEL, cases[i].line, strlen(cases[i].line), collect, &h);
        if (cases[i].sig)
            cr_expect(h.n == 1 && has_hit(&h, cases[i].sig), "%s not hit (alone) by: %s",
                      cases[i].sig, cases[i].line);
        else
            cr_expect_eq(h.n, 0, "%s hit by: %s", h.n ? h.ids[0] : "", cases[i].line);
    }
    match_scanner_free(sc);
    match_pack_free(p);
}

/* "follow_up" is a catalogue shape's word: a boolean, on a signature that names a catalogue. */
Test(match, error_follow_up_needs_a_catalogue)
{
    const char *s = sig_json("G3.oom", OOM_REGEX, " \"follow_up\": true,", OOM_LINE, NEAR_MISS);
    char *e = load_error(write_pack("fu", "g3.json", g3_pack(s)));
    cr_expect(strstr(e, "G3.oom: field \"follow_up\" must be true or false, with \"catalogue\"") !=
                  NULL,
              "%s", e);
    free(e);
}

/* "outcome" marks end-marker entries: only "completed", only on context entries (an end marker
 * is never a finding). */
Test(match, entry_outcome_is_completed_on_context_entries_only)
{
    const char *sig = "{\"id\": \"CTX.end.done\", \"kinds\": [\"any\"], \"strength\": \"context\","
                      " \"regex\": \"Application shutdown complete\\\\.\","
                      " \"examples\": {\"match\": [\"INFO:     Application shutdown complete.\"],"
                      " \"no_match\": [\"INFO:     Waiting for application shutdown.\"]},"
                      " \"sources\": [\"uvicorn\"]}";
    char *good =
        az_xasprintf("{\"entries\": [{\"id\": \"CTX.end\", \"family\": \"context\", "
                     "\"title\": \"t\", \"outcome\": \"completed\", \"signatures\": [%s]}]}",
                     sig);
    const char *dirs[] = {write_pack("ok", "end.json", good)};
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(match_pack_load(&p, dirs, 1, &err), AZ_OK, "%s", err.data ? err.data : "");
    const struct match_entry *e = NULL;
    for (size_t i = 0; i < match_pack_entry_count(p); i++)
        if (!strcmp(match_pack_entry(p, i)->id, "CTX.end")) e = match_pack_entry(p, i);
    cr_assert_not_null(e);
    cr_assert_eq(e->ends_run, 1);
    match_pack_free(p);
    az_buf_free(&err);
    free(good);

    char *bad = az_xasprintf("{\"entries\": [{\"id\": \"CTX.end\", \"family\": \"context\", "
                             "\"title\": \"t\", \"outcome\": \"failed\", \"signatures\": [%s]}]}",
                             sig);
    char *e1 = load_error(write_pack("bad1", "end.json", bad));
    cr_expect(strstr(e1, "unknown outcome \"failed\"") != NULL, "%s", e1);
    free(e1);
    free(bad);
    char *fam =
        az_xasprintf("{\"entries\": [{\"id\": \"C.end\", \"family\": \"common\", \"title\": \"t\", "
                     "\"fix\": \"f\", \"outcome\": \"completed\", \"signatures\": [%s]}]}",
                     sig);
    char *fixed = fam; /* the signature id must carry the entry id */
    char *at = strstr(fixed, "CTX.end.done");
    cr_assert_not_null(at);
    memcpy(at, "C.end.done__", 12);
    char *e2 = load_error(write_pack("bad2", "end.json", fixed));
    cr_expect(strstr(e2, "\"outcome\" is for context entries") != NULL, "%s", e2);
    free(e2);
    free(fam);
}

/* "decisive_on" names a platform, and only lifts a root line of strength strong or weak. */
Test(match, error_decisive_on_unknown_platform_or_strength)
{
    const char *s =
        sig_json("G3.oom", OOM_REGEX, " \"decisive_on\": \"h100\",", OOM_LINE, NEAR_MISS);
    char *e = load_error(write_pack("p", "g3.json", g3_pack(s)));
    cr_expect(strstr(e, "G3.oom: unknown platform \"h100\" in \"decisive_on\"") != NULL, "%s", e);
    free(e);
    s = sig_json("G3.oom", OOM_REGEX, " \"decisive_on\": \"gb10\", \"role\": \"cascade\",",
                 OOM_LINE, NEAR_MISS);
    e = load_error(write_pack("q", "g3.json", g3_pack(s)));
    cr_expect(strstr(e, "G3.oom: \"decisive_on\" needs role root") != NULL, "%s", e);
    free(e);
}

/* The shipped pack says which lines are decisive on GB10 only: the Marlin FP4 fallback warning
 * is one (printed on RTX Pro 6000 and Thor too, vllm#27471), and it stays weak elsewhere. */
Test(match, shipped_decisive_on_gb10_is_loaded_on_a_weak_line)
{
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    char buf[1024];
    const char *dir = shipped_dir(buf, sizeof buf);
    cr_assert_eq(load1(dir, &p, &err), AZ_OK, "%s", err.data ? err.data : "");
    const struct match_sig *s = match_pack_find_sig(p, "G7.marlin-fp4-fallback");
    cr_assert_not_null(s);
    cr_expect_eq(s->strength, MATCH_WEAK);
    cr_expect_str_eq(s->decisive_on, "gb10");
    s = match_pack_find_sig(p, "G3.torch-cuda-oom");
    cr_assert_not_null(s);
    cr_expect_null(s->decisive_on, "a line without decisive_on keeps its strength");
    match_pack_free(p);
    az_buf_free(&err);
}

/* ---- "platforms": what places a run on a platform, and its facts (docs/patterns.md,
 * "Platforms") ---- */

static const char *platform_pack(const char *platform)
{
    static char buf[8192];
    snprintf(buf, sizeof buf, "{\"platforms\": [%s], \"entries\": []}\n", platform);
    return buf;
}

#define PLATFORM_OK                                                                                \
    "{\"id\": \"gb10\", \"name\": \"GB10\", \"sources\": [\"s\"], \"identify\": {"                 \
    "\"device_names\": {\"value\": [\"GB10\"], \"why\": \"w\"}, "                                  \
    "\"capabilities\": {\"value\": [\"12.1\"], \"why\": \"w\"}, "                                  \
    "\"pool_lo_gib\": {\"value\": 110, \"why\": \"w\"}, "                                          \
    "\"pool_hi_gib\": {\"value\": 123, \"why\": \"w\"}}, "                                         \
    "\"facts\": {\"gpus_per_node\": {\"value\": 1, \"why\": \"w\"}}}"

Test(match, platform_loads_with_its_identity_and_facts)
{
    const char *dir = write_pack("plat-ok", "ctx.json", platform_pack(PLATFORM_OK));
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(load1(dir, &p, &err), AZ_OK, "%s", err.data ? err.data : "");
    cr_assert_eq(match_pack_platform_count(p), 1);
    const struct match_platform *pl = match_pack_find_platform(p, "gb10");
    cr_assert_not_null(pl);
    cr_expect_str_eq(pl->name, "GB10");
    cr_expect_eq(pl->pool_lo_gib, 110);
    cr_expect_eq(pl->pool_hi_gib, 123);
    cr_expect_eq(match_platform_num(pl, "gpus_per_node"), 1);
    /* the one detection: a name, a capability in its several spellings, a total */
    int ma, mi;
    cr_expect_eq(match_place_gpu_name(p, "NVIDIA GB10"), 0);
    cr_expect_eq(match_place_gpu_name(p, "NVIDIA H100 80GB HBM3"), MATCH_PLACE_OTHER);
    cr_expect_eq(match_place_gpu_name(p, ""), MATCH_PLACE_NONE);
    cr_expect_eq(match_place_capability(p, "(12, 1)", &ma, &mi), 0);
    cr_expect_eq(match_place_capability(p, "sm_121", &ma, &mi), 0);
    cr_expect_eq(match_place_capability(p, "9.0", &ma, &mi), MATCH_PLACE_OTHER);
    cr_expect(ma == 9 && mi == 0);
    cr_expect_eq(match_place_total_gib(p, 119.7), 0);
    cr_expect_eq(match_place_total_gib(p, 79.2), MATCH_PLACE_OTHER);
    match_pack_free(p);
    az_buf_free(&err);
}

Test(match, platform_refuses_bad_declarations_naming_them)
{
    static const struct {
        const char *platform, *problem;
    } bad[] = {
        {"{\"id\": \"gb10\", \"name\": \"GB10\", \"sources\": [\"s\"], \"identify\": "
         "{\"pool_lo_gib\": {\"value\": 110, \"why\": \"w\"}}}",
         "missing param \"pool_hi_gib\""},
        {"{\"id\": \"gb10\", \"name\": \"GB10\", \"sources\": [\"s\"], \"identify\": "
         "{\"pool_lo_gib\": {\"value\": 130, \"why\": \"w\"}, \"pool_hi_gib\": {\"value\": 123, "
         "\"why\": \"w\"}}}",
         "must be below pool_hi_gib"},
        {"{\"id\": \"gb10\", \"name\": \"GB10\", \"sources\": [\"s\"], \"identify\": "
         "{\"pool_lo_gib\": {\"value\": \"big\", \"why\": \"w\"}, \"pool_hi_gib\": {\"value\": "
         "123, \"why\": \"w\"}}}",
         "\"pool_lo_gib\" must be a positive number"},
        {"{\"id\": \"gb10\", \"name\": \"GB10\", \"sources\": [\"s\"], \"identify\": "
         "{\"pool_mid\": {\"value\": 1, \"why\": \"w\"}}}",
         "unknown param \"pool_mid\""},
        {"{\"id\": \"Thor X\", \"name\": \"Thor\", \"sources\": [\"s\"], \"identify\": "
         "{\"capabilities\": {\"value\": [\"11.0\"], \"why\": \"w\"}}}",
         "bad id"},
        {"{\"id\": \"other\", \"name\": \"O\", \"sources\": [\"s\"], \"identify\": "
         "{\"capabilities\": {\"value\": [\"11.0\"], \"why\": \"w\"}}}",
         "bad id"},
        {"{\"id\": \"gb10\", \"name\": \"GB10\", \"sources\": [\"s\"], \"identify\": {}}",
         "identifies nothing"},
        {"{\"id\": \"gb10\", \"name\": \"GB10\", \"identify\": "
         "{\"capabilities\": {\"value\": [\"12.1\"], \"why\": \"\"}}}",
         "\"why\" must say why"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "plat-bad%zu", i);
        char *e = load_error(write_pack(sub, "ctx.json", platform_pack(bad[i].platform)));
        cr_expect(strstr(e, "ctx.json: platform") != NULL, "no file and field in: %s", e);
        cr_expect(strstr(e, bad[i].problem) != NULL, "case %zu: no '%s' in: %s", i, bad[i].problem,
                  e);
        free(e);
    }
}

Test(match, platform_declared_by_two_files_is_an_error)
{
    write_pack("plat-two", "a.json", platform_pack(PLATFORM_OK));
    char *e = load_error(write_pack("plat-two", "b.json", platform_pack(PLATFORM_OK)));
    cr_expect(strstr(e, "b.json: platform gb10: declared twice (already in") != NULL, "%s", e);
    free(e);
}

/* "severity_tags": a catalogue's fatal codes carry its fatal tags (the line's own severity word
 * decides which signature, so which tags); "cascade_of" must name a tag the pack carries, on a
 * root line. */
Test(match, catalogue_severity_tags_and_cascade_of)
{
    char text[8192];
    snprintf(text, sizeof text, "%s", CAT_PACK);
    char *at = strstr(text, " \"actions\"");
    cr_assert_not_null(at);
    static const char tags[] = " \"severity_tags\": {\"fatal\": [\"dev-fault\"]},";
    memmove(at + strlen(tags), at, strlen(at) + 1);
    memcpy(at, tags, strlen(tags));
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(load1(write_pack("s", "t.json", text), &p, &err), AZ_OK, "%s", err.data);
    struct match_scanner *sc = match_scanner_new(p);
    const struct match_sig *s = scan_one(sc, "T (0:1): 79");
    cr_expect(match_sig_has_tag(s, "dev-fault"), "a fatal code carries the fatal tags");
    s = scan_one(sc, "T (0:1): 79, Non-fatal, Link 02");
    cr_expect(!match_sig_has_tag(s, "dev-fault"), "the line's own word says non-fatal");
    s = scan_one(sc, "T (0:1): 13");
    cr_expect(!match_sig_has_tag(s, "dev-fault"));
    cr_expect(match_sig_has_tag(scan_one(sc, "T (0:1): 13, Fatal"), "dev-fault"));
    match_scanner_free(sc);
    match_pack_free(p);

    /* cascade_of naming a tag no signature carries, and on a line that is not a root */
    char bad[4096];
    snprintf(bad, sizeof bad,
             "{\"entries\": [{\"id\": \"C.a\", \"family\": \"common\", "
             "\"title\": \"a\", \"signatures\": [%s, %s]}]}\n",
             sig_json("C.a.x", "CUDA error: x", " \"cascade_of\": [\"nope\"],", "CUDA error: x",
                      "CUDA error: z"),
             sig_json("C.a.y", "CUDA error: y",
                      " \"role\": \"cascade\", \"cascade_of\": [\"nope\"],", "CUDA error: y",
                      "CUDA error: z"));
    char *e = load_error(write_pack("t", "a.json", bad));
    cr_expect(strstr(e, "C.a.x: cascade_of \"nope\": no signature carries this tag") != NULL, "%s",
              e);
    cr_expect(strstr(e, "C.a.y: \"cascade_of\" needs role root") != NULL, "%s", e);
    free(e);
}

/* Regex runs of one scan of line (the scanner's probe counts before and after). */
static uint64_t regex_runs_of(struct match_scanner *sc, const char *line, size_t *nhit)
{
    struct match_probe_stats a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    match_scanner_probe_stats(sc, &a);
    *nhit = match_scanner_scan(sc, TOK_KIND_STDERR, line, strlen(line), NULL, NULL);
    match_scanner_probe_stats(sc, &b);
    return b.regex_runs - a.regex_runs;
}

/*
 * A gate (match_derive_gate()): the regex also needs nan or inf, which its literal does not say,
 * so a record with the literal but neither runs no regex, and one with them still matches ("-inf"
 * holds "inf"). The shape is Hugging Face Trainer's log dict (transformers' Trainer.log(), the
 * {'loss': ..., 'grad_norm': ...} line it prints every logging step).
 */
Test(match, gate_skips_the_regex_of_a_record_without_its_strings)
{
    const char *s = sig_json("G3.nan", "'loss': '?(?<loss_text>nan|inf|-inf)\\\\b",
                             " \"literals\": [\"'loss':\"],", "{'loss': nan, 'epoch': 0.42}",
                             "{'loss': 2.3456, 'epoch': 0.12}");
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "g3.json", g3_pack(s)), &p, &err), AZ_OK, "%s", err.data);
    struct match_scanner *sc = match_scanner_new(p);
    size_t nhit;
    cr_expect_eq(regex_runs_of(sc, "{'loss': 2.1469, 'grad_norm': 0.329220, 'epoch': 1.17}", &nhit),
                 0u, "no nan, no inf: the gate is closed");
    cr_expect_eq(nhit, 0u);
    cr_expect_eq(regex_runs_of(sc, "{'loss': nan, 'grad_norm': nan, 'epoch': 0.42}", &nhit), 1u);
    cr_expect_eq(nhit, 1u);
    cr_expect_eq(regex_runs_of(sc, "{'loss': -inf, 'epoch': 0.5}", &nhit), 1u);
    cr_expect_eq(nhit, 1u, "-inf opens the gate through inf");
    cr_expect_eq(regex_runs_of(sc, "{'loss': 2.0, 'note': 'inf'}", &nhit), 1u,
                 "a gate string anywhere in the record opens it");
    cr_expect_eq(nhit, 0u);
    match_scanner_free(sc);
    match_pack_free(p);
    az_buf_free(&err);
}

/* What a lookahead or an optional group holds is never a gate: a record without it still
 * matches. */
Test(match, gate_never_comes_from_a_lookahead_or_an_optional_part)
{
    const char *s = sig_json("G3.done", "^(?!.*skipped)(?:warning: )?steps done: [0-9]+", NULL,
                             "steps done: 12", "steps done: 3 (skipped)");
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("p", "g3.json", g3_pack(s)), &p, &err), AZ_OK, "%s", err.data);
    struct match_scanner *sc = match_scanner_new(p);
    size_t nhit;
    cr_expect_eq(regex_runs_of(sc, "steps done: 40", &nhit), 1u);
    cr_expect_eq(nhit, 1u);
    cr_expect_eq(regex_runs_of(sc, "steps done: 4 skipped", &nhit), 1u);
    cr_expect_eq(nhit, 0u, "the lookahead turns it away, not a gate");
    match_scanner_free(sc);
    match_pack_free(p);
    az_buf_free(&err);
}

/* ---- (9) boundaries of the scan path ---- */

/* A fact's number is the one strtod() reads, on both sides of the 15-digit fast path: 15 digits
 * are exact in a double, a 16th is not (9999999999999999 rounds to 1e16 before the division by
 * 1000, strtod rounds once). Values as a log dict prints them (repr of a float64 sum). */
Test(match, fact_numbers_read_as_strtod_reads_them)
{
    struct match_pack *p = facts_pack();
    struct match_scanner *sc = match_scanner_new(p);
    static const char *const values[] = {
        "999999999999.999",  /* 15 digits: the fast path */
        "9999999999999.999", /* 16 digits: strtod's */
        "0.1234567890123456", "1234567890123456", "99999999999999999.5",
    };
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        char line[128];
        snprintf(line, sizeof(line), "{'loss': %s, 'grad_norm': 0.98, 'epoch': 0.5}", values[i]);
        struct fact_probe fp = {NAN, "", NAN, 0};
        cr_assert_eq(match_scanner_scan(sc, TOK_KIND_TRAIN, line, strlen(line), probe_facts, &fp),
                     1, "%s", line);
        cr_expect_eq(fp.loss, strtod(values[i], NULL), "%s: %.17g", values[i], fp.loss);
    }
    match_scanner_free(sc);
    match_pack_free(p);
}

/* Matching ahead (prepare on a worker, replay in order) runs a series signature's regex only
 * where the sampling keeps it, and every other regex once: the hits and the regex counts of
 * `--probe-stats` are those of the scan on one thread. Lines: an HF Trainer log dict (series)
 * and PyTorch's CUDA OOM message. */
Test(match, prepared_scan_runs_only_the_sampled_series_regexes)
{
    char text[8192];
    snprintf(text, sizeof(text),
             "{\"entries\": [{\"id\": \"G3\", \"family\": \"gotcha\", \"title\": \"UMA OOM\",\n"
             " \"symptom\": \"s\", \"cause\": \"c\", \"check\": \"k\", \"fix\": \"f\",\n"
             " \"signatures\": [%s]},\n"
             " {\"id\": \"SERIES.t\", \"family\": \"series\", \"title\": \"trainer dicts\",\n"
             " \"signatures\": [%s]}]}\n",
             sig_json("G3.oom", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS),
             sig_json("SERIES.t.loss", "'loss': (?<loss>[-0-9.e]+)",
                      " \"facts\": {\"loss\": \"number\"},", "{'loss': 1.5}", "{'eval_loss': 1}"));
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(write_pack("series", "p.json", text), &p, &err), AZ_OK, "%s", err.data);
    az_buf_free(&err);
    size_t nsig = match_pack_sig_count(p);
    cr_assert_eq(nsig, 2u);
    uint32_t every[2];
    for (size_t k = 0; k < nsig; k++)
        every[k] = match_pack_sig(p, k) == match_pack_find_sig(p, "SERIES.t.loss")
                       ? MATCH_SAMPLE_NEVER
                       : 1;
    static const char *const lines[] = {OOM_LINE, "{'loss': 1.2345, 'grad_norm': 0.98}",
                                        OOM_LINE "{'loss': 2.5}"};
    const size_t n = sizeof(lines) / sizeof(lines[0]);
    struct match_probe_stats want = {0}, got = {0};
    size_t hits_serial = 0, hits_ahead = 0;
    {
        uint64_t seen[2] = {0, 0};
        struct match_sampling smp = {seen, every};
        struct match_scanner *sc = match_scanner_new(p);
        for (size_t i = 0; i < n; i++)
            hits_serial += match_scanner_scan_sampled(sc, TOK_KIND_STDERR, lines[i],
                                                      strlen(lines[i]), &smp, NULL, NULL);
        match_scanner_probe_stats(sc, &want);
        match_scanner_free(sc);
    }
    {
        uint64_t seen[2] = {0, 0};
        struct match_sampling smp = {seen, every};
        struct match_scanner *worker = match_scanner_new(p), *own = match_scanner_new(p);
        struct match_batch *b = match_batch_new();
        for (size_t i = 0; i < n; i++)
            match_scanner_prepare(worker, TOK_KIND_STDERR, lines[i], strlen(lines[i]), b);
        for (size_t i = 0; i < n; i++)
            hits_ahead +=
                match_scanner_replay(own, b, i, lines[i], strlen(lines[i]), &smp, NULL, NULL);
        match_scanner_probe_stats(worker, &got);
        match_scanner_probe_stats(own, &got);
        match_batch_free(b);
        match_scanner_free(worker);
        match_scanner_free(own);
    }
    cr_expect_eq(hits_serial, 2u, "the OOM on two lines; the series never sampled in");
    cr_expect_eq(hits_ahead, hits_serial);
    cr_expect_eq(want.regex_runs, 2u, "G3.oom's regex on its two candidates only");
    cr_expect_eq(got.regex_runs, want.regex_runs);
    cr_expect_eq(got.regex_hits, want.regex_hits);
    match_pack_free(p);
}

/* "vocabulary": a file's words are appended to the list; an unknown list is refused by name. */
Test(match, vocabulary_lists_append_and_unknown_is_refused)
{
    const char *s = sig_json("G3.oom", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS);
    write_pack("v", "g3.json", g3_pack(s));
    write_pack("v", "a.json",
               "{\"vocabulary\": {\"pip-lines\": {\"why\": \"w\", \"words\": [\"Collecting \"]}},"
               " \"entries\": []}\n");
    const char *dir = write_pack(
        "v", "b.json",
        "{\"vocabulary\": {\"pip-lines\": {\"why\": \"w\", \"words\": [\"ACME-INSTALL \"]}},"
        " \"entries\": []}\n");
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(dir, &p, &err), AZ_OK, "%s", err.data ? err.data : "");
    const struct tok_vocab *v = match_pack_vocab(p);
    cr_assert_eq(v->n[TOK_VOCAB_PIP], 2);
    cr_expect_str_eq(v->words[TOK_VOCAB_PIP][0], "Collecting ");
    cr_expect_str_eq(v->words[TOK_VOCAB_PIP][1], "ACME-INSTALL ");
    cr_expect_eq(v->n[TOK_VOCAB_ENV_KEYS], 0);
    match_pack_free(p);
    az_buf_free(&err);
    char *e = load_error(write_pack("w", "c.json",
                                    "{\"vocabulary\": {\"pip-words\": {\"why\": \"w\", \"words\": "
                                    "[\"x\"]}}, \"entries\": []}\n"));
    cr_expect(strstr(e, "c.json: vocabulary: unknown list \"pip-words\"") != NULL, "%s", e);
    free(e);
}

/* "name-hints": a later file's hints go before an earlier file's (a site refines a shipped
 * hint), each file's in its own order; an unknown kind and an upper-case part are refused. */
Test(match, name_hints_later_file_first_and_bad_ones_refused)
{
    const char *s = sig_json("G3.oom", OOM_REGEX, NULL, OOM_LINE, NEAR_MISS);
    write_pack("nh", "g3.json", g3_pack(s));
    write_pack("nh", "a.json",
               "{\"name-hints\": {\"why\": \"w\", \"hints\": [{\"part\": \"pip-list\", "
               "\"kind\": \"pip-list\"}, {\"part\": \"pip\", \"kind\": \"pip\"}]},"
               " \"entries\": []}\n");
    const char *dir = write_pack("nh", "b.json",
                                 "{\"name-hints\": {\"why\": \"w\", \"hints\": [{\"part\": "
                                 "\"acme-\", \"kind\": \"kernel\"}]}, \"entries\": []}\n");
    struct az_buf err = AZ_BUF_INIT;
    struct match_pack *p = NULL;
    cr_assert_eq(load1(dir, &p, &err), AZ_OK, "%s", err.data ? err.data : "");
    const struct tok_vocab *v = match_pack_vocab(p);
    cr_assert_eq(v->nhints, 3);
    cr_expect_str_eq(v->hints[0].part, "acme-");
    cr_expect_eq(v->hints[0].kind, TOK_KIND_KERNEL);
    cr_expect_str_eq(v->hints[1].part, "pip-list");
    cr_expect_eq(v->hints[1].kind, TOK_KIND_PIP_LIST);
    cr_expect_str_eq(v->hints[2].part, "pip");
    match_pack_free(p);
    az_buf_free(&err);
    char *e = load_error(write_pack("nhw", "c.json",
                                    "{\"name-hints\": {\"why\": \"w\", \"hints\": [{\"part\": "
                                    "\"dmesg\", \"kind\": \"dmseg\"}, {\"part\": \"Kern\", "
                                    "\"kind\": \"kernel\"}]}, \"entries\": []}\n"));
    cr_expect(strstr(e, "c.json: name-hints: \"dmesg\": unknown kind \"dmseg\"") != NULL, "%s", e);
    cr_expect(strstr(e, "\"Kern\": a part must be non-empty and lower case") != NULL, "%s", e);
    free(e);
}

/* Issue 23's done-when: every numbered gotcha of the shipped pack (G1-G10) carries its preflight
 * check as pack data (patterns/preflight.json, docs/patterns.md "Preflight"), with rules the
 * generic runner (cli/cli_preflight.c) evaluates; an entry without one would print no line. */
Test(match, every_shipped_gotcha_carries_preflight)
{
    struct match_pack *p = load_shipped();
    size_t numbered = 0;
    for (size_t i = 0; i < match_pack_entry_count(p); i++) {
        const struct match_entry *e = match_pack_entry(p, i);
        if (e->family != MATCH_FAMILY_GOTCHA || e->id[0] != 'G' ||
            strspn(e->id + 1, "0123456789") != strlen(e->id + 1) || !e->id[1])
            continue;
        numbered++;
        const char *pf = match_pack_preflight(p, e->id);
        cr_assert_not_null(pf, "%s has no preflight check", e->id);
        cr_expect_not_null(strstr(pf, "\"rules\""), "%s's preflight has no rules: %s", e->id, pf);
    }
    cr_expect_eq(numbered, 10, "numbered gotchas: %zu", numbered);
    match_pack_free(p);
}

/* ---- "after": a value line counted only below its key line ---- */

/* genai-perf's profile_export_genai_perf.json (perf_analyzer 263c5f6,
 * export_data/json_exporter.py: json.dumps(stats, indent=2); metrics/statistics.py puts "unit"
 * before "avg" in each metric's dict): the mean inter-token latency sits two lines below its
 * metric's key, and the same "avg" line ends every other metric too. */
#define ITL_KEY  "  \"inter_token_latency\": {"
#define ITL_UNIT "    \"unit\": \"ms\","
#define ITL_AVG  "    \"avg\": 82.40131578947368,"
#define TTFT_KEY "  \"time_to_first_token\": {"

static struct match_pack *after_pack(const char *within)
{
    char extra[256];
    snprintf(extra, sizeof extra,
             " \"facts\": {\"ms\": \"number\"}, \"after\": {\"sig\": \"G3.itl-key\", "
             "\"within\": %s},",
             within);
    char sigs[4096];
    snprintf(sigs, sizeof sigs, "%s,\n%s",
             sig_json("G3.itl-key", "^\\\\s*.inter_token_latency.: \\\\{$", NULL,
                      "  \\\"inter_token_latency\\\": {", "  \\\"time_to_first_token\\\": {"),
             sig_json("G3.itl-avg", "^\\\\s*.avg.: (?<ms>[0-9]+(?:\\\\.[0-9]+)?),$", extra,
                      "    \\\"avg\\\": 82.40131578947368,", "    \\\"p99\\\": 90.1,"));
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(load1(write_pack("after", "g3.json", g3_pack(sigs)), &p, &err), AZ_OK, "%s",
                 err.data ? err.data : "");
    az_buf_free(&err);
    return p;
}

/* Scan lines as one stream; the hits of signature id, their first fact in *num. */
static size_t after_hits(struct match_scanner *sc, const char *const *lines, size_t n,
                         const char *id, double *num)
{
    size_t got = 0;
    match_scanner_begin_stream(sc);
    for (size_t i = 0; i < n; i++) {
        struct hits h = {0};
        match_scanner_scan(sc, TOK_KIND_TEXT, lines[i], strlen(lines[i]), collect, &h);
        for (size_t k = 0; k < h.n; k++)
            if (!strcmp(h.ids[k], id)) {
                got++;
                if (num) *num = h.num[k];
            }
    }
    return got;
}

Test(match, after_counts_the_value_line_within_n_records_below_its_key)
{
    struct match_pack *p = after_pack("2");
    struct match_scanner *sc = match_scanner_new(p);
    double ms = 0;
    const char *const laid_out[] = {
        TTFT_KEY, "    \"unit\": \"ms\",", "    \"avg\": 95.1,", "  },", ITL_KEY, ITL_UNIT,
        ITL_AVG,  "    \"p1\": 80.0,"};
    cr_expect_eq(after_hits(sc, laid_out, 8, "G3.itl-key", NULL), 1);
    cr_expect_eq(after_hits(sc, laid_out, 8, "G3.itl-avg", &ms), 1, "only the ITL's avg");
    cr_expect_float_eq(ms, 82.40131578947368, 1e-9);
    /* the value line alone: another metric's avg names no key */
    const char *const alone[] = {TTFT_KEY, ITL_UNIT, ITL_AVG};
    cr_expect_eq(after_hits(sc, alone, 3, "G3.itl-avg", NULL), 0);
    /* three records below the key is outside a window of 2 */
    const char *const far[] = {ITL_KEY, ITL_UNIT, "    \"p1\": 80.0,", ITL_AVG};
    cr_expect_eq(after_hits(sc, far, 4, "G3.itl-key", NULL), 1, "the key was read");
    cr_expect_eq(after_hits(sc, far, 4, "G3.itl-avg", NULL), 0);
    match_scanner_free(sc);
    match_pack_free(p);
    /* the same records with a window of 3 */
    p = after_pack("3");
    sc = match_scanner_new(p);
    cr_expect_eq(after_hits(sc, far, 4, "G3.itl-avg", NULL), 1);
    match_scanner_free(sc);
    match_pack_free(p);
}

Test(match, after_looks_back_within_one_stream_only)
{
    struct match_pack *p = after_pack("2");
    struct match_scanner *sc = match_scanner_new(p);
    struct hits h = {0};
    match_scanner_begin_stream(sc);
    match_scanner_scan(sc, TOK_KIND_TEXT, ITL_KEY, strlen(ITL_KEY), collect, &h);
    cr_assert_eq(h.n, 1, "the key was read");
    match_scanner_begin_stream(sc); /* the next file */
    h.n = 0;
    match_scanner_scan(sc, TOK_KIND_TEXT, ITL_AVG, strlen(ITL_AVG), collect, &h);
    cr_expect_eq(h.n, 0, "a key of another file does not count");
    match_scanner_free(sc);
    match_pack_free(p);
}

/* One record that matches both the key and its value counts the key for the records below it,
 * not for itself (the key must come first). */
Test(match, after_key_on_the_same_record_is_not_before_it)
{
    const char *sigs =
        "{\"id\": \"G3.k\", \"kinds\": [\"any\"], \"strength\": \"context\", "
        "\"regex\": \"n_prompt.: 0\", \"examples\": {\"match\": [\"n_prompt: 0\"], "
        "\"no_match\": [\"n_prompt: 512\"]}, \"sources\": [\"test\"]},\n"
        "{\"id\": \"G3.v\", \"kinds\": [\"any\"], \"strength\": \"context\", "
        "\"regex\": \"n_gen.: [1-9]\", \"after\": {\"sig\": \"G3.k\", \"within\": 1},"
        " \"examples\": {\"match\": [\"n_gen: 128\"], \"no_match\": [\"n_gen: 0\"]},"
        " \"sources\": [\"test\"]}";
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(load1(write_pack("same", "g3.json", g3_pack(sigs)), &p, &err), AZ_OK, "%s",
                 err.data ? err.data : "");
    struct match_scanner *sc = match_scanner_new(p);
    /* llama-bench's -o jsonl puts both on one line (jsonl_printer): no line above it */
    const char *const one[] = {"{\"n_prompt\": 0, \"n_gen\": 128, \"avg_ts\": 11.8}"};
    cr_expect_eq(after_hits(sc, one, 1, "G3.k", NULL), 1, "the key was read");
    cr_expect_eq(after_hits(sc, one, 1, "G3.v", NULL), 0);
    /* the same record twice: the first one is above the second */
    const char *const two[] = {one[0], one[0]};
    cr_expect_eq(after_hits(sc, two, 2, "G3.v", NULL), 1);
    match_scanner_free(sc);
    match_pack_free(p);
    az_buf_free(&err);
}

/* Matching ahead (match_scanner_prepare() on a worker, replay in order) gives the same hits as
 * the direct scan: the condition is checked where hits are delivered, in record order. */
Test(match, after_prepared_replay_agrees_with_the_scan)
{
    struct match_pack *p = after_pack("2");
    struct match_scanner *direct = match_scanner_new(p), *ahead = match_scanner_new(p),
                         *replay = match_scanner_new(p);
    struct match_batch *mb = match_batch_new();
    const char *const lines[] = {TTFT_KEY, ITL_UNIT, ITL_AVG, ITL_KEY,
                                 ITL_UNIT, ITL_AVG,  ITL_AVG, ITL_AVG};
    for (size_t i = 0; i < 8; i++)
        match_scanner_prepare(ahead, TOK_KIND_TEXT, lines[i], strlen(lines[i]), mb);
    match_scanner_begin_stream(direct);
    match_scanner_begin_stream(replay);
    size_t want = 0, got = 0;
    for (size_t i = 0; i < 8; i++) {
        size_t len = strlen(lines[i]);
        struct hits a = {0}, b = {0};
        want += match_scanner_scan(direct, TOK_KIND_TEXT, lines[i], len, collect, &a);
        got += match_scanner_replay(replay, mb, i, lines[i], len, NULL, collect, &b);
        cr_expect_eq(a.n, b.n, "record %zu: %zu direct, %zu replayed", i, a.n, b.n);
    }
    cr_expect_eq(want, 2, "the key and its avg two below it (the later ones are outside): %zu",
                 want);
    cr_expect_eq(got, want);
    match_batch_free(mb);
    match_scanner_free(direct);
    match_scanner_free(ahead);
    match_scanner_free(replay);
    match_pack_free(p);
}

Test(match, error_after_names_its_problem)
{
    const char *key = sig_json("G3.k", "n_prompt.: 0", NULL, "n_prompt: 0", "n_prompt: 5");
    char sigs[4096];
    snprintf(sigs, sizeof sigs, "%s,\n%s", key,
             sig_json("G3.v", "n_gen", " \"after\": {\"sig\": \"G3.nope\", \"within\": 1},",
                      "n_gen: 1", "n_ge"));
    char *e = load_error(write_pack("a1", "g3.json", g3_pack(sigs)));
    cr_expect(strstr(e, "G3.v: after \"G3.nope\": no such signature") != NULL, "%s", e);
    free(e);
    snprintf(sigs, sizeof sigs, "%s,\n%s", key,
             sig_json("G3.v", "n_gen", " \"after\": {\"sig\": \"G3.k\", \"within\": 0},",
                      "n_gen: 1", "n_ge"));
    e = load_error(write_pack("a2", "g3.json", g3_pack(sigs)));
    cr_expect(strstr(e, "\"within\" must be a whole number of records, 1 to 1000") != NULL, "%s",
              e);
    free(e);
    snprintf(sigs, sizeof sigs, "%s",
             sig_json("G3.v", "n_gen", " \"after\": {\"sig\": \"G3.v\", \"within\": 1},",
                      "n_gen: 1", "n_ge"));
    e = load_error(write_pack("a3", "g3.json", g3_pack(sigs)));
    cr_expect(strstr(e, "G3.v: after itself") != NULL, "%s", e);
    free(e);
    snprintf(sigs, sizeof sigs, "%s,\n%s",
             sig_json("G3.k", "n_prompt", " \"after\": {\"sig\": \"G3.v\", \"within\": 1},",
                      "n_prompt: 0", "n_prom"),
             sig_json("G3.v", "n_gen", " \"after\": {\"sig\": \"G3.k\", \"within\": 1},",
                      "n_gen: 1", "n_ge"));
    e = load_error(write_pack("a4", "g3.json", g3_pack(sigs)));
    cr_expect(strstr(e, "\"after\" chain comes back to itself") != NULL, "%s", e);
    free(e);
}

/* ---- route: one line shape, the entry by a fact it captures (docs/patterns.md, "Route") ---- */

/* The shape of BuildKit's failed step (moby/buildkit v0.32.2 solver/llbsolver/ops/exec.go:
 * "process %q did not complete successfully", frontend/gateway/pb/exit.go "exit code: %d",
 * util/progress/progressui/printer.go "#%d ERROR: %s"), routed by the step's command. */
#define ROUTE_SHAPE                                                                                \
    "{\"id\": \"C.b.step\", \"kinds\": [\"any\"], \"strength\": \"strong\", \"summary\": "         \
    "\"built\",\n"                                                                                 \
    " \"regex\": \"^#[0-9]+ ERROR: process \\\"(?<command>[^\\\"]*)\\\" did not complete "         \
    "successfully: exit code: (?<exit_code>[0-9]+)\",\n"                                           \
    " \"facts\": {\"exit_code\": \"number\"},\n"                                                   \
    " \"route\": {\"fact\": \"%s\", \"why\": \"w\", \"cases\": [\n"                                \
    "   {\"regex\": \"\\\\bpip install\\\\b\", \"entry\": \"%s\", \"summary\": \"installed\",\n"   \
    "    \"why\": \"w\"}]},\n"                                                                     \
    " \"examples\": {\"match\": [\"#5 ERROR: process \\\"/bin/sh -c make\\\" did not complete "    \
    "successfully: exit code: 2\"%s],\n"                                                           \
    "   \"no_match\": [\"#5 DONE 1.2s\"]}, \"sources\": [\"test\"]}"

#define ROUTE_PIP_EXAMPLE                                                                          \
    ", \"#7 ERROR: process \\\"/bin/sh -c pip install x\\\" did not complete successfully: exit "  \
    "code: 1\""

static const char *route_pack(const char *fact, const char *to, const char *pip_example)
{
    static char sig[4096], buf[8192];
    snprintf(sig, sizeof(sig), ROUTE_SHAPE, fact, to, pip_example);
    snprintf(buf, sizeof(buf),
             "{\"entries\": [{\"id\": \"C.b\", \"family\": \"common\", \"title\": \"build\",\n"
             " \"signatures\": [%s]},\n"
             " {\"id\": \"C.i\", \"family\": \"common\", \"title\": \"install\", \"tags\": "
             "[\"inst\"], \"signatures\": []}]}\n",
             sig);
    return buf;
}

struct route_hit {
    const struct match_sig *sig;
    char command[64];
    double exit_code;
};

static void route_collect(void *ctx, const struct match_hit *h)
{
    struct route_hit *r = ctx;
    r->sig = h->sig;
    const struct match_fact *c = match_hit_fact(h, "command");
    const struct match_fact *x = match_hit_fact(h, "exit_code");
    snprintf(r->command, sizeof(r->command), "%.*s", c ? (int)c->len : 0, c ? c->val : "");
    r->exit_code = x ? x->num : -1;
}

Test(match, route_reports_a_hit_as_the_case_entry_signature_with_the_shape_facts)
{
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(
        load1(write_pack("p", "t.json", route_pack("command", "C.i", ROUTE_PIP_EXAMPLE)), &p, &err),
        AZ_OK, "%s", err.data);
    /* the loader made C.i.step: the case's entry, the shape's name, no regex of its own */
    const struct match_sig *made = match_pack_find_sig(p, "C.i.step");
    cr_assert_not_null(made);
    cr_expect_str_eq(made->entry->id, "C.i");
    cr_expect_str_eq(made->summary, "installed");
    cr_expect_eq(made->strength, MATCH_STRONG);
    cr_expect(match_sig_has_tag(made, "inst")); /* its entry's tags */
    cr_expect_eq(made->routed_from, match_pack_find_sig(p, "C.b.step"));
    cr_expect_eq(match_pack_find_entry(p, "C.i")->nsigs, 1);
    struct az_buf rep = AZ_BUF_INIT;
    cr_expect_eq(match_pack_check(p, &rep), 0, "%s", rep.data ? rep.data : "");
    az_buf_free(&rep);

    struct match_scanner *sc = match_scanner_new(p);
    struct route_hit h = {0};
    const char *pip =
        "#7 ERROR: process \"/bin/sh -c pip install -r req.txt\" did not complete successfully: "
        "exit code: 1";
    cr_expect_eq(match_scanner_scan(sc, TOK_KIND_TEXT, pip, strlen(pip), route_collect, &h), 1);
    cr_assert_not_null(h.sig);
    cr_expect_str_eq(h.sig->id, "C.i.step");
    cr_expect_str_eq(h.command, "/bin/sh -c pip install -r req.txt"); /* the shape's facts */
    cr_expect_eq(h.exit_code, 1);
    const char *make =
        "#9 ERROR: process \"/bin/sh -c make -j8\" did not complete successfully: exit code: 2";
    memset(&h, 0, sizeof(h));
    cr_expect_eq(match_scanner_scan(sc, TOK_KIND_TEXT, make, strlen(make), route_collect, &h), 1);
    cr_assert_not_null(h.sig);
    cr_expect_str_eq(h.sig->id, "C.b.step"); /* no case: the shape's own hit */
    cr_expect_str_eq(h.command, "/bin/sh -c make -j8");
    cr_expect_eq(h.exit_code, 2);
    match_scanner_free(sc);
    match_pack_free(p);
}

Test(match, route_errors_are_named_and_an_untaken_case_fails_check)
{
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_expect_eq(load1(write_pack("a", "t.json", route_pack("command", "C.nope", "")), &p, &err),
                 AZ_FAIL);
    cr_expect(strstr(err.data, "route: entry \"C.nope\" does not exist"), "%s", err.data);
    az_buf_reset(&err);
    cr_expect_eq(load1(write_pack("b", "t.json", route_pack("cmd", "C.i", "")), &p, &err), AZ_FAIL);
    cr_expect(strstr(err.data, "route: the regex has no group (?<cmd>...)"), "%s", err.data);
    az_buf_reset(&err);
    cr_expect_eq(load1(write_pack("c", "t.json", route_pack("command", "C.b", "")), &p, &err),
                 AZ_FAIL);
    cr_expect(strstr(err.data, "is the signature's own entry"), "%s", err.data);
    az_buf_free(&err);
    /* loads, but no match example reaches the case: the check says so */
    cr_assert_eq(load1(write_pack("d", "t.json", route_pack("command", "C.i", "")), &p, NULL),
                 AZ_OK);
    struct az_buf rep = AZ_BUF_INIT;
    cr_expect_eq(match_pack_check(p, &rep), 1);
    cr_expect(strstr(rep.data, "C.b.step: no match example takes route case 0 (to C.i.step)"), "%s",
              rep.data);
    az_buf_free(&rep);
    match_pack_free(p);
}

/* "after" with "until": BuildKit's error block (moby/buildkit v0.32.2 util/progress/progressui/
 * display.go printErrorLogs: "------", " > %s:", the step's log lines "%.3f %s", "------"): a
 * log line counts between the header and the closing line, not after it. */
Test(match, after_until_ends_the_condition_at_the_closing_line)
{
    const char *sigs =
        "{\"id\": \"G3.hdr\", \"kinds\": [\"any\"], \"strength\": \"context\", "
        "\"regex\": \"^ > \\\\[[^\\\\]]*\\\\] .*:$\", \"literals\": [\" > [\"], \"examples\": "
        "{\"match\": "
        "[\" > [2/4] RUN make:\"], \"no_match\": [\"#5 [2/4] RUN make\"]}, \"sources\": "
        "[\"test\"]},\n"
        "{\"id\": \"G3.end\", \"kinds\": [\"any\"], \"strength\": \"context\", "
        "\"regex\": \"^-{6}$\", \"literals\": [\"------\"], \"examples\": {\"match\": "
        "[\"------\"], \"no_match\": [\"-------\"]}, \"sources\": [\"test\"]},\n"
        "{\"id\": \"G3.v\", \"kinds\": [\"any\"], \"strength\": \"strong\", "
        "\"regex\": \"^[0-9]+\\\\.[0-9]+ ValueError: \", \"after\": {\"sig\": \"G3.hdr\", "
        "\"within\": 100, \"until\": \"G3.end\"}, \"examples\": {\"match\": [\"3.211 ValueError: "
        "x\"], \"no_match\": [\"ValueError: x\"]}, \"sources\": [\"test\"]}";
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(load1(write_pack("until", "g3.json", g3_pack(sigs)), &p, &err), AZ_OK, "%s",
                 err.data ? err.data : "");
    cr_expect_eq(match_pack_find_sig(p, "G3.v")->until, match_pack_find_sig(p, "G3.end"));
    struct match_scanner *sc = match_scanner_new(p);
    const char *const inside[] = {"------", " > [2/4] RUN make:", "0.412 building",
                                  "3.211 ValueError: x", "------"};
    cr_expect_eq(after_hits(sc, inside, 5, "G3.v", NULL), 1);
    const char *const past[] = {"------", " > [2/4] RUN make:", "------", "3.211 ValueError: x"};
    cr_expect_eq(after_hits(sc, past, 4, "G3.v", NULL), 0, "after the block's closing line");
    /* a second block opens the condition again */
    const char *const again[] = {" > [2/4] RUN make:", "------",
                                 " > [3/4] RUN x:", "3.211 ValueError: x"};
    cr_expect_eq(after_hits(sc, again, 4, "G3.v", NULL), 1);
    match_scanner_free(sc);
    match_pack_free(p);
    az_buf_free(&err);
}
