/*
 * tests/fuzz/fuzz_pack.c - the pattern-pack loader (match/match_load.c): JSON bytes as the one
 * file of a pack directory -> match_pack_load(): jansson, field checks, regex compilation
 * (PCRE2 + JIT), literal derivation, the prefilter's tables. A pack that loads is then checked
 * (match_pack_check() runs every example) and its own examples are scanned as records of every
 * kind, so the searcher built from fuzzed literals is run too.
 */
#include <string.h>

#include "common/az.h"
#include "fuzz.h"
#include "match/match.h"

static void count_hit(void *ctx, const struct match_hit *hit)
{
    fuzz_require(hit->sig != NULL);
    for (size_t i = 0; i < hit->nfacts; i++)
        fuzz_require(!hit->facts[i].val || hit->facts[i].len < ((size_t)1 << 20));
    (*(size_t *)ctx)++;
}

FUZZ_TARGET(pack)
{
    const char *path = fuzz_write_file("pack/fuzz.json", data, size);
    char dir[256];
    size_t dl = strlen(path) - strlen("/fuzz.json");
    memcpy(dir, path, dl);
    dir[dl] = '\0';
    const char *dirs[] = {dir};
    struct match_pack *p = NULL;
    struct az_buf err = AZ_BUF_INIT;
    enum az_status st = match_pack_load(&p, dirs, 1, &err);
    fuzz_require((st == AZ_OK) == (p != NULL));
    fuzz_require(st == AZ_OK || err.len > 0); /* a refusal always says why */
    az_buf_free(&err);
    if (!p) return 0;

    struct az_buf report = AZ_BUF_INIT;
    (void)match_pack_check(p, &report);
    az_buf_free(&report);
    struct match_scanner *sc = match_scanner_new(p);
    for (size_t i = 0; i < match_pack_sig_count(p); i++) {
        const struct match_sig *s = match_pack_sig(p, i);
        fuzz_require(s->index == i);
        fuzz_require(match_pack_find_sig(p, s->id) == s);
        for (int want = 0; want <= 1; want++) {
            size_t n;
            const char *const *ex = match_sig_examples(s, want, &n);
            for (size_t e = 0; e < n; e++)
                for (int k = 0; k < TOK_KIND_COUNT; k++) {
                    size_t hits = 0;
                    size_t n_hit = match_scanner_scan(sc, (enum tok_kind)k, ex[e], strlen(ex[e]),
                                                      count_hit, &hits);
                    fuzz_require(n_hit == hits);
                }
        }
    }
    for (size_t i = 0; i < match_pack_entry_count(p); i++) {
        const struct match_entry *e = match_pack_entry(p, i);
        fuzz_require(match_pack_find_entry(p, e->id) == e);
    }
    match_scanner_free(sc);
    match_pack_free(p);
    return 0;
}
