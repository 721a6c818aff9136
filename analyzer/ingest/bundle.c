/* ingest/bundle.c - write a .tar.zst bundle (`gotcha collect`), the one writer beside the
 * readers: libarchive stays inside ingest/. See ingest.h. */
#include "ingest/ingest.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ingest_bundle {
    struct archive *a;
    char error[512];
};

/* The reason alone: the caller names the bundle or the member once. The system's word for an
 * errno (a full disk) says more than libarchive's "Write error". */
static enum az_status fail(struct ingest_bundle *b)
{
    int e = b->a ? archive_errno(b->a) : 0;
    const char *why = b->a ? archive_error_string(b->a) : NULL;
    snprintf(b->error, sizeof b->error, "%s", e > 0 ? strerror(e) : why ? why : "unknown error");
    return AZ_FAIL;
}

enum az_status ingest_bundle_create(struct ingest_bundle **out, const char *path)
{
    struct ingest_bundle *b = az_xcalloc(1, sizeof *b);
    *out = b;
    b->a = archive_write_new();
    if (!b->a) {
        snprintf(b->error, sizeof b->error, "cannot create an archive writer");
        return AZ_FAIL;
    }
    /* pax: long member names and UTF-8 survive; zstd: the compression gotcha reads fastest */
    if (archive_write_set_format_pax_restricted(b->a) != ARCHIVE_OK ||
        archive_write_add_filter_zstd(b->a) != ARCHIVE_OK)
        return fail(b);
    if (archive_write_open_filename(b->a, path) != ARCHIVE_OK) return fail(b);
    return AZ_OK;
}

enum az_status ingest_bundle_add_file(struct ingest_bundle *b, const char *name, FILE *data,
                                      uint64_t size, int64_t mtime)
{
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, name);
    archive_entry_set_size(e, (la_int64_t)size);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_mtime(e, (time_t)mtime, 0);
    enum az_status st = AZ_OK;
    if (archive_write_header(b->a, e) != ARCHIVE_OK) {
        st = fail(b);
        goto end;
    }
    char buf[65536];
    uint64_t left = size;
    while (left > 0) {
        size_t n = fread(buf, 1, left < sizeof buf ? (size_t)left : sizeof buf, data);
        if (n == 0) {
            snprintf(b->error, sizeof b->error, "short read while bundling");
            st = AZ_FAIL;
            goto end;
        }
        if (archive_write_data(b->a, buf, n) < 0) {
            st = fail(b);
            goto end;
        }
        left -= n;
    }
end:
    archive_entry_free(e);
    return st;
}

enum az_status ingest_bundle_close(struct ingest_bundle *b)
{
    if (!b) return AZ_OK;
    enum az_status st = AZ_OK;
    if (b->a && archive_write_close(b->a) != ARCHIVE_OK) st = fail(b);
    return st;
}

const char *ingest_bundle_error(const struct ingest_bundle *b)
{
    return b ? b->error : "";
}

void ingest_bundle_free(struct ingest_bundle *b)
{
    if (!b) return;
    if (b->a) archive_write_free(b->a);
    free(b);
}
