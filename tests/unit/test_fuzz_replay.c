/*
 * tests/unit/test_fuzz_replay.c - every fuzz harness (tests/fuzz/) run once per kept input,
 * without libFuzzer: the crashers found by `make fuzz` (tests/fuzz/regress/HARNESS/, each fixed)
 * and a smoke set of real inputs (the demo run's files; for the pack loader, the shipped pack's
 * files). A harness aborts when gotcha breaks a promise, which fails the test; under `make asan`
 * the replays run with AddressSanitizer and UBSan, as the fuzzer ran them.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/az.h"
#include "../fuzz/fuzz.h"

/*
 * Under make asan, the leak check libFuzzer runs after every input. Criterion's worker ends a
 * test without LeakSanitizer's exit-time check, so the test asks for it itself: a harness input
 * that leaks fails here as it fails `make fuzz` (the pack loader leaked on a pack with no
 * signature, tests/fuzz/README.md row 6).
 */
#if defined(__SANITIZE_ADDRESS__)
#define HAVE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_LSAN 1
#endif
#endif
#ifdef HAVE_LSAN
#include <sanitizer/lsan_interface.h>
#endif

static void assert_no_leak(const char *name)
{
#ifdef HAVE_LSAN
    cr_assert_eq(__lsan_do_recoverable_leak_check(), 0,
                 "fuzz %s: LeakSanitizer found a leak (above)", name);
#else
    (void)name;
#endif
}

typedef int (*harness_fn)(const uint8_t *data, size_t size);

/* The demo run (Makefile DEMO_RUN): real nvidia-smi CSV, training log and more. */
#define SMOKE_RUN "corpus/G4-a-power-plateau-csv"

static const char *top(void)
{
    const char *t = getenv("GOTCHA_TOP");
    return t && *t ? t : ".";
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run fn on each regular file of dir (sorted; a missing dir holds none). Returns the count. */
static size_t replay_dir(harness_fn fn, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    char **names = NULL;
    size_t n = 0, cap = 0;
    const struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        az_grow((void **)&names, &cap, n + 1, sizeof *names);
        names[n++] = az_xasprintf("%s/%s", dir, de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, name_cmp);
    size_t ran = 0;
    for (size_t i = 0; i < n; i++) {
        FILE *f = fopen(names[i], "rb");
        cr_assert_not_null(f, "cannot open %s", names[i]);
        struct az_buf b = AZ_BUF_INIT;
        char chunk[65536];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) az_buf_append(&b, chunk, got);
        fclose(f);
        /* an exact-size copy, as libFuzzer hands it: a read past the end is caught by ASan */
        uint8_t *exact = az_xmalloc(b.len ? b.len : 1);
        if (b.len) memcpy(exact, b.data, b.len);
        fn(exact, b.len);
        free(exact);
        az_buf_free(&b);
        free(names[i]);
        ran++;
    }
    free(names);
    return ran;
}

static void replay(const char *name, harness_fn fn, const char *smoke)
{
    char *regress = az_xasprintf("%s/tests/fuzz/regress/%s", top(), name);
    char *sm = az_xasprintf("%s/%s", top(), smoke);
    size_t kept = replay_dir(fn, regress);
    size_t smoked = replay_dir(fn, sm);
    fn((const uint8_t *)"", 0);
    assert_no_leak(name);
    cr_log_info("fuzz %s: %zu kept inputs, %zu smoke inputs replayed", name, kept, smoked);
    cr_assert_gt(smoked, 0, "no smoke input found in %s", sm);
    free(regress);
    free(sm);
}

Test(fuzz_replay, time)
{
    replay("time", fuzz_time, SMOKE_RUN);
}
Test(fuzz_replay, classify)
{
    replay("classify", fuzz_classify, SMOKE_RUN);
}
Test(fuzz_replay, smi)
{
    replay("smi", fuzz_smi, SMOKE_RUN);
}
Test(fuzz_replay, pack)
{
    replay("pack", fuzz_pack, "patterns");
}
Test(fuzz_replay, ingest)
{
    replay("ingest", fuzz_ingest, SMOKE_RUN);
}
Test(fuzz_replay, scan)
{
    replay("scan", fuzz_scan, SMOKE_RUN);
}
