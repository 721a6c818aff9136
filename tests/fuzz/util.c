/* tests/fuzz/util.c - the harnesses' shared helpers (see fuzz.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/az.h"
#include "fuzz.h"

#ifndef FUZZ_PATTERNS
#define FUZZ_PATTERNS "patterns"
#endif

void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "fuzz: %s:%d: promise broken: %s\n", file, line, what);
    abort();
}

const struct match_pack *fuzz_shipped_pack(void)
{
    static struct match_pack *pack;
    if (pack) return pack;
    const char *dir = getenv("GOTCHA_PATTERNS");
    if (!dir || !*dir) dir = FUZZ_PATTERNS;
    const char *dirs[] = {dir};
    struct az_buf err = AZ_BUF_INIT;
    if (match_pack_load(&pack, dirs, 1, &err) != AZ_OK) {
        fprintf(stderr, "fuzz: cannot load the pattern pack %s:\n%s", dir,
                err.data ? err.data : "");
        abort();
    }
    az_buf_free(&err);
    return pack;
}

/* Files made under the directory, removed at exit (a harness makes a bounded set, reused). */
#define TMP_FILES_MAX 256
static char tmp_dir[64];
static char *tmp_files[TMP_FILES_MAX];
static size_t ntmp_files;

static void tmp_cleanup(void)
{
    for (size_t i = ntmp_files; i-- > 0;) { /* files before the subdirectory they are in */
        (void)remove(tmp_files[i]);
        free(tmp_files[i]);
    }
    ntmp_files = 0;
    if (tmp_dir[0]) rmdir(tmp_dir);
}

static void tmp_remember(const char *path)
{
    for (size_t i = 0; i < ntmp_files; i++)
        if (!strcmp(tmp_files[i], path)) return;
    fuzz_require(ntmp_files < TMP_FILES_MAX);
    tmp_files[ntmp_files++] = az_xstrdup(path);
}

const char *fuzz_tmpdir(void)
{
    if (tmp_dir[0]) return tmp_dir;
    const char *base = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/gotcha-fuzz.XXXXXX",
             base && *base && strlen(base) < 32 ? base : "/tmp");
    fuzz_require(mkdtemp(tmp_dir) != NULL);
    atexit(tmp_cleanup);
    return tmp_dir;
}

const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[256];
    const char *dir = fuzz_tmpdir();
    const char *slash = strchr(name, '/');
    if (slash) { /* one level of subdirectory: "pack/fuzz.json" */
        snprintf(path, sizeof path, "%s/%.*s", dir, (int)(slash - name), name);
        if (mkdir(path, 0700) == 0) tmp_remember(path);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    fuzz_require(fd >= 0);
    tmp_remember(path);
    size_t off = 0;
    while (off < size) {
        ssize_t n = write(fd, data + off, size - off);
        fuzz_require(n > 0);
        off += (size_t)n;
    }
    close(fd);
    return path;
}
