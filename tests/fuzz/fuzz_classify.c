/*
 * tests/fuzz/fuzz_classify.c - the kind sniffers (tok_classify()) over a member's head.
 * Input: an optional file name hint, then a NUL, then the head (no NUL: all of it is the head,
 * no name). The head is copied to a buffer of its exact size, so a read past it is caught.
 * The sniffers run with the shipped pack's word lists and file-name hints (patterns/formats.json
 * "vocabulary" and "name-hints", as a scan hands them over) and without any (NULL: the promise
 * holds with no pack too, and with no hints the name changes nothing).
 */
#include <stdlib.h>
#include <string.h>

#include "common/az.h"
#include "fuzz.h"
#include "tokenize/tok.h"

/* tok.h: the head is at most the first 64 KiB of a member. */
#define HEAD_MAX ((size_t)64 * 1024)

FUZZ_TARGET(classify)
{
    const uint8_t *nul = memchr(data, 0, size);
    char *name = nul ? az_xstrndup((const char *)data, (size_t)(nul - data)) : NULL;
    const uint8_t *h = nul ? nul + 1 : data;
    size_t n = AZ_MIN(size - (size_t)(h - data), HEAD_MAX);
    char *head = az_xmalloc(n ? n : 1);
    memcpy(head, h, n);
    const struct tok_vocab *vocabs[] = {match_pack_vocab(fuzz_shipped_pack()), NULL};
    for (size_t i = 0; i < sizeof vocabs / sizeof vocabs[0]; i++) {
        enum tok_kind k = tok_classify(vocabs[i], name, head, n);
        fuzz_require(k >= TOK_KIND_TEXT && k < TOK_KIND_COUNT);
        fuzz_require(tok_kind_from_name(tok_kind_name(k)) == (int)k);
        /* the name is only a hint: classifying without it must work too */
        enum tok_kind k2 = tok_classify(vocabs[i], NULL, head, n);
        fuzz_require(k2 >= TOK_KIND_TEXT && k2 < TOK_KIND_COUNT);
        /* the name only breaks ties: it moves a kind only where the pack has hints */
        fuzz_require(k == k2 || (vocabs[i] && vocabs[i]->nhints));
    }
    free(head);
    free(name);
    return 0;
}
