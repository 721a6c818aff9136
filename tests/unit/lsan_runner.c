/*
 * tests/unit/lsan_runner.c - LeakSanitizer's suppressions for the unit test binary under
 * make asan, by process. Criterion 2.4's runner (the parent process) leaks one 48-byte calloc
 * of its own at exit once the binary holds 18 suites (stack: libcriterion.so only). A module
 * suppression would hide every leak of the tests too, since each test's stack ends in
 * libcriterion.so: that hid a 128 KiB leak of the pack loader until make fuzz found it
 * (tests/fuzz/README.md row 6). So only the runner gets it; a test runs in a worker, which
 * Criterion's boxfort starts with BXFI_MAP in its environment, and is checked in full.
 */
#include <stdlib.h>

const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
    return getenv("BXFI_MAP") ? "" : "leak:libcriterion.so\n";
}
