/* ingest/walk.c - expand command-line paths into a sorted list of inputs (see ingest.h). */
#include "ingest/ingest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Real directory nesting beyond this is a bind-mount loop or an attack, not a job's logs. */
#define WALK_MAX_DEPTH 64

struct dir_id {
    dev_t dev;
    ino_t ino;
};

struct ingest_walk {
    struct ingest_entry *entries; /* owned */
    size_t n, cap;
    struct ingest_skip *skips; /* owned */
    size_t nskips, skips_cap;
    struct az_buf err; /* "PATH: reason" lines for named paths */
};

static void add_entry(struct ingest_walk *w, const char *path, const char *display, uint64_t size,
                      int64_t mtime)
{
    az_grow((void **)&w->entries, &w->cap, w->n + 1, sizeof(*w->entries));
    struct ingest_entry *e = &w->entries[w->n++];
    e->path = az_xstrdup(path);
    e->display = az_xstrdup(display);
    e->size = size;
    e->mtime = mtime;
}

static void add_skip(struct ingest_walk *w, const char *display, const char *reason)
{
    az_grow((void **)&w->skips, &w->skips_cap, w->nskips + 1, sizeof(*w->skips));
    struct ingest_skip *s = &w->skips[w->nskips++];
    s->path = az_xstrdup(display);
    s->reason = az_xstrdup(reason);
}

/* strerror() text with a lower-case first letter, to read like the other skip reasons. */
static void add_skip_errno(struct ingest_walk *w, const char *display, int err)
{
    char *reason = az_xstrdup(strerror(err));
    if (reason[0] >= 'A' && reason[0] <= 'Z' && !(reason[1] >= 'A' && reason[1] <= 'Z'))
        reason[0] = (char)(reason[0] - 'A' + 'a');
    add_skip(w, display, reason);
    free(reason);
}

static void add_error(struct ingest_walk *w, const char *path, const char *reason)
{
    if (w->err.len) az_buf_putc(&w->err, '\n');
    az_buf_printf(&w->err, "%s: %s", path, reason);
}

static const char *type_reason(mode_t mode)
{
    if (S_ISFIFO(mode)) return "FIFO";
    if (S_ISSOCK(mode)) return "socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "device";
    return "unsupported file type";
}

static char *join(const char *dir, const char *name)
{
    size_t dl = strlen(dir);
    if (dl && dir[dl - 1] == '/') return az_xasprintf("%s%s", dir, name);
    return az_xasprintf("%s/%s", dir, name);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A regular file found inside a directory: open it without blocking (it may have been replaced
 * by a FIFO since lstat) and re-check its type on the descriptor. */
static void add_member_file(struct ingest_walk *w, const char *path, const char *display)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        add_skip_errno(w, display, errno);
        return;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        add_skip_errno(w, display, errno);
    } else if (!S_ISREG(st.st_mode)) {
        add_skip(w, display, type_reason(st.st_mode));
    } else {
        add_entry(w, path, display, (uint64_t)st.st_size, (int64_t)st.st_mtime);
    }
    close(fd);
}

static void walk_dir(struct ingest_walk *w, const char *path, const char *display,
                     struct dir_id *stack, size_t depth)
{
    DIR *d = opendir(path);
    if (!d) {
        add_skip_errno(w, display, errno);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    const struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        az_grow((void **)&names, &cap, n + 1, sizeof(*names));
        names[n++] = az_xstrdup(de->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof(*names), cmp_names);

    for (size_t i = 0; i < n; i++) {
        char *full = join(path, names[i]);
        char *disp = join(display, names[i]);
        struct stat lst, st;
        if (lstat(full, &lst) != 0) {
            add_skip_errno(w, disp, errno);
            goto next;
        }
        st = lst;
        if (S_ISLNK(lst.st_mode) && stat(full, &st) != 0) {
            if (errno == ELOOP)
                add_skip(w, disp, "symlink loop");
            else if (errno == ENOENT)
                add_skip(w, disp, "broken symlink");
            else
                add_skip_errno(w, disp, errno);
            goto next;
        }
        if (S_ISDIR(st.st_mode)) {
            int loop = 0;
            for (size_t k = 0; k <= depth; k++)
                if (stack[k].dev == st.st_dev && stack[k].ino == st.st_ino) loop = 1;
            if (loop) {
                add_skip(w, disp, "symlink loop"); /* reached through a link somewhere above */
            } else if (depth + 1 >= WALK_MAX_DEPTH) {
                add_skip(w, disp, "directory nesting too deep");
            } else {
                stack[depth + 1] = (struct dir_id){st.st_dev, st.st_ino};
                walk_dir(w, full, disp, stack, depth + 1);
            }
        } else if (S_ISREG(st.st_mode)) {
            add_member_file(w, full, disp);
        } else {
            add_skip(w, disp, type_reason(st.st_mode));
        }
    next:
        free(full);
        free(disp);
        free(names[i]);
    }
    free(names);
}

static void walk_named(struct ingest_walk *w, const char *path, int *failed)
{
    if (strcmp(path, "-") == 0) {
        add_entry(w, "-", "<stdin>", 0, 0);
        return;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        add_error(w, path, strerror(errno));
        *failed = 1;
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        /* Members read "ROOT/sub/file" with ROOT as typed, minus trailing slashes. */
        size_t len = strlen(path);
        while (len > 1 && path[len - 1] == '/') len--;
        char *root = az_xstrndup(path, len);
        struct dir_id stack[WALK_MAX_DEPTH];
        stack[0] = (struct dir_id){st.st_dev, st.st_ino};
        walk_dir(w, root, root, stack, 0);
        free(root);
        return;
    }
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
        /* Named on purpose, e.g. <(zstdcat run.zst) as /dev/fd/63: read like stdin. */
        add_entry(w, path, path, 0, 0);
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        add_error(w, path, type_reason(st.st_mode));
        *failed = 1;
        return;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        add_error(w, path, strerror(errno));
        *failed = 1;
        return;
    }
    close(fd);
    add_entry(w, path, path, (uint64_t)st.st_size, (int64_t)st.st_mtime);
}

enum az_status ingest_walk_paths(const char *const *paths, size_t npaths, struct ingest_walk **out)
{
    struct ingest_walk *w = az_xcalloc(1, sizeof(*w));
    int failed = 0;
    for (size_t i = 0; i < npaths; i++) walk_named(w, paths[i], &failed);
    *out = w;
    return failed ? AZ_FAIL : AZ_OK;
}

size_t ingest_walk_count(const struct ingest_walk *w)
{
    return w->n;
}

const struct ingest_entry *ingest_walk_entry(const struct ingest_walk *w, size_t i)
{
    return i < w->n ? &w->entries[i] : NULL;
}

size_t ingest_walk_skip_count(const struct ingest_walk *w)
{
    return w->nskips;
}

const struct ingest_skip *ingest_walk_skip(const struct ingest_walk *w, size_t i)
{
    return i < w->nskips ? &w->skips[i] : NULL;
}

const char *ingest_walk_error(const struct ingest_walk *w)
{
    return w->err.len ? w->err.data : "";
}

void ingest_walk_free(struct ingest_walk *w)
{
    if (!w) return;
    for (size_t i = 0; i < w->n; i++) {
        free(w->entries[i].path);
        free(w->entries[i].display);
    }
    for (size_t i = 0; i < w->nskips; i++) {
        free(w->skips[i].path);
        free(w->skips[i].reason);
    }
    free(w->entries);
    free(w->skips);
    az_buf_free(&w->err);
    free(w);
}
