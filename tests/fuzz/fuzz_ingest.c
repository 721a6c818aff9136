/*
 * tests/fuzz/fuzz_ingest.c - one input through the reader (ingest/reader.c): format sniffing,
 * zstd (libzstd), every filter and container libarchive reads (gzip, xz, bzip2, lz4, tar, zip,
 * cpio, 7z, ...), nesting, the bomb caps, record splitting (LF, CRLF, lone CR), the line cap and
 * escape-sequence removal. The bytes come through the read callback in uneven chunks, as a pipe
 * delivers them. Limits are small so a decompression bomb is stopped within a few MiB.
 */
#include <string.h>

#include "fuzz.h"
#include "ingest/ingest.h"

#define FUZZ_MAX_LINE     1024                /* records cut here: cuts are exercised often */
#define FUZZ_EXPAND_FLOOR ((uint64_t)1 << 20) /* decoded bytes always allowed per member */
#define FUZZ_EXPAND_RATIO 16
#define FUZZ_HEAD_MAX     ((size_t)64 * 1024) /* ingest.h: a member's head */

struct src {
    const uint8_t *p;
    size_t len, off;
    unsigned calls;
};

/* Chunks of cap, 1, 7 and 4096 bytes in turn: short reads at every boundary a decoder has. */
static long src_read(void *ctx, void *buf, size_t cap, const char **err)
{
    (void)err;
    struct src *s = ctx;
    static const size_t chunk[] = {(size_t)-1, 1, 7, 4096};
    size_t n = AZ_MIN(cap, chunk[s->calls++ % AZ_ARRAY_LEN(chunk)]);
    n = AZ_MIN(n, s->len - s->off);
    memcpy(buf, s->p + s->off, n);
    s->off += n;
    return (long)n;
}

FUZZ_TARGET(ingest)
{
    struct src s = {data, size, 0, 0};
    struct ingest_options o;
    ingest_options_default(&o);
    o.max_line = FUZZ_MAX_LINE;
    o.expand_floor = FUZZ_EXPAND_FLOOR;
    o.expand_ratio = FUZZ_EXPAND_RATIO;
    o.readahead = 0;
    struct ingest_reader *r = NULL;
    fuzz_require(ingest_reader_open_cb(&r, src_read, &s, size, "fuzz.bin", &o) == AZ_OK);
    struct ingest_member m;
    enum az_status st;
    uint64_t lines = 0;
    while ((st = ingest_reader_next_member(r, &m)) != AZ_EOF && st != AZ_FATAL) {
        if (st == AZ_FAIL) {
            fuzz_require(ingest_reader_error(r)[0] != '\0');
            continue;
        }
        fuzz_require(m.display && m.name && m.compression && m.container);
        fuzz_require(m.head_len <= FUZZ_HEAD_MAX);
        struct ingest_line line;
        uint64_t last = 0;
        while ((st = ingest_reader_next_line(r, &line)) == AZ_OK || st == AZ_WARN) {
            fuzz_require(line.len <= FUZZ_MAX_LINE);
            fuzz_require((st == AZ_WARN) == (line.cut != 0));
            fuzz_require(!memchr(line.text, 0x1b, line.len)); /* escapes are removed */
            fuzz_require(line.lineno >= 1 && line.lineno >= last);
            last = line.lineno;
            lines++;
        }
        fuzz_require(st == AZ_EOF || st == AZ_FAIL);
        if (st == AZ_FAIL) fuzz_require(ingest_reader_error(r)[0] != '\0');
    }
    if (st == AZ_FATAL) fuzz_require(ingest_reader_error(r)[0] != '\0');
    const struct ingest_stats *stats = ingest_reader_stats(r);
    fuzz_require(stats->records == lines);
    fuzz_require(stats->bytes_in <= size);
    ingest_reader_free(r);
    return 0;
}
