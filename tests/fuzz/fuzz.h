/*
 * tests/fuzz/fuzz.h - what every fuzz harness shares (tests/fuzz/README.md).
 *
 * A harness is one function over bytes, declared with FUZZ_TARGET(name) in tests/fuzz/fuzz_NAME.c.
 * Built by `make fuzz` (clang, -DGOTCHA_LIBFUZZER) it is also libFuzzer's entry point; built with
 * the normal compiler it is called by tests/unit/test_fuzz_replay.c, which replays the kept
 * crashers (tests/fuzz/regress/NAME/) in `make test` and, under the sanitizers, in `make asan`.
 * A harness never returns an error for odd input: it aborts (fuzz_require()) only when gotcha
 * broke a promise of its headers, so any abort is a bug.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "match/match.h"

#ifdef GOTCHA_LIBFUZZER
#define FUZZ_TARGET(name)                                                                          \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                                  \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                                   \
    {                                                                                              \
        return fuzz_##name(data, size);                                                            \
    }                                                                                              \
    int fuzz_##name(const uint8_t *data, size_t size)
#else
#define FUZZ_TARGET(name) int fuzz_##name(const uint8_t *data, size_t size)
#endif

/* Every harness, for the replay test: X(name) per tests/fuzz/fuzz_NAME.c. */
#define FUZZ_HARNESSES(X) X(time) X(classify) X(smi) X(pack) X(ingest) X(scan)

#define FUZZ_DECLARE(name) int fuzz_##name(const uint8_t *data, size_t size);
FUZZ_HARNESSES(FUZZ_DECLARE)
#undef FUZZ_DECLARE

/* Abort with the promise that broke (file:line) when cond is false. */
#define fuzz_require(cond) ((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #cond))
void fuzz_fail(const char *file, int line, const char *what);

/* The source tree's pattern pack, loaded once ($GOTCHA_PATTERNS, else the tree it was built
 * from); never NULL (aborts when it cannot be loaded: the harness would test nothing). */
const struct match_pack *fuzz_shipped_pack(void);

/* A private directory for this process, made once and removed at exit. */
const char *fuzz_tmpdir(void);

/* Write data to fuzz_tmpdir()/name (replacing it); returns the path (static until the next call).
 */
const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size);

#endif /* FUZZ_H */
