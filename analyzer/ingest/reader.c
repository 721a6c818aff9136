/*
 * ingest/reader.c - one input turned into members and records (see ingest.h).
 *
 * An input is a stack of layers. Layer 0 is the source (a descriptor or the caller's read
 * callback); each layer above decodes the one below it: a zstd layer (libzstd streaming) or a
 * libarchive layer (filters + formats, fed through read callbacks over the layer below). The top
 * layer's output is the current member. Opening a member sniffs its first bytes: a known magic
 * pushes a layer and the sniffed bytes are handed back to the layer below as "pending", so
 * nothing is ever read twice or lost. Records are cut from one large buffer by memchr.
 *
 * A member decoded from a regular file (zstd, or anything libarchive opens) is decoded one step
 * ahead by a read-ahead thread, so decompression overlaps the caller's work on the records. The
 * thread owns the layer stack while it runs; the reader stops it before it touches the layers
 * itself (next member, a bomb, free), so the bytes and the errors seen are the same as without it.
 */
#include "ingest/ingest.h"

#include <archive.h>
#include <archive_entry.h>
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "ingest/ingest_private.h"

#define READ_BUF_SIZE ((size_t)256 * 1024)
/* Read-ahead: slots of decoded bytes between the decoding thread and the reader. */
#define RA_SLOTS        4
#define RA_SLOT_SIZE    ((size_t)128 * 1024)
#define ARCHIVE_IN_SIZE ((size_t)128 * 1024)
#define NO_POS          ((size_t)-1)
/* ARCHIVE_RETRY from header reads: each skips damaged input; give up past this many anyway. */
#define ARCHIVE_RETRY_MAX (1 << 20)

enum layer_kind { LAYER_FD, LAYER_CALLBACK, LAYER_ZSTD, LAYER_ARCHIVE };

struct ingest_reader;

struct layer {
    enum layer_kind kind;
    struct ingest_reader *r; /* back pointer, for libarchive's callbacks */
    size_t idx;              /* position in r->layers */
    char *pend;              /* sniffed bytes handed back, returned before any new read (owned) */
    size_t pend_len, pend_pos;
    int eof;               /* the layer's output ended */
    int failed;            /* the layer's output broke; the cause is in r->cause */
    char *display;         /* what this layer's output is called (owned) */
    char *name;            /* base-name hint (owned) */
    const char *codec;     /* "zstd", a libarchive filter name, or NULL (static or libarchive) */
    const char *container; /* "tar", "zip", ... or NULL */
    unsigned depth;        /* nesting levels this layer adds */
    /* LAYER_FD */
    int fd, close_fd;
    /* LAYER_CALLBACK */
    ingest_read_fn fn;
    void *ctx;
    /* LAYER_ZSTD */
    ZSTD_DStream *zds;
    char *zin; /* input buffer, ZSTD_DStreamInSize() bytes (owned) */
    size_t zin_cap;
    ZSTD_inBuffer zib;
    size_t zret;   /* last ZSTD_decompressStream() hint: 0 when a frame just ended */
    int zflush;    /* the last call filled its output: call again before reading input */
    int zin_eof;   /* the layer below ended */
    uint64_t zout; /* bytes decoded by this layer, for the bomb guard */
    /* LAYER_ARCHIVE */
    struct archive *ar;
    char *ain;       /* input buffer handed to libarchive (owned) */
    const char *blk; /* rest of the current data block (libarchive's) */
    size_t blk_len;
    int raw;     /* libarchive's raw format: one member, the decoded stream */
    int dead;    /* libarchive returned ARCHIVE_FATAL: no more headers */
    int retries; /* damaged headers skipped so far */
    int stashed; /* positioned at an entry found after reporting damage */
};

/*
 * A ring of RA_SLOTS decoded chunks. The thread fills slot tail % RA_SLOTS while fewer than
 * RA_SLOTS are full and the reader drains slot head % RA_SLOTS; a slot holding 0 (end) or -1
 * (failure, cause in r->cause) is the thread's last. Everything but the slots' bytes is under mu.
 */
struct readahead {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a slot was filled or freed, or stop was set */
    char *slot[RA_SLOTS];
    long got[RA_SLOTS];
    unsigned head, tail; /* free-running counters */
    size_t off;          /* bytes of slot head already handed out (reader side only) */
    int stop;
    int running; /* reader side only: the thread was started and not yet joined */
};

struct ingest_reader {
    struct ingest_options opt;
    struct layer *layers; /* stack, layers[0] is the source */
    size_t nlayers, max_layers;
    uint64_t in_size; /* compressed size of the input for the bomb cap, 0 when unknown */
    int started;      /* next_member() was called once */
    int have_member;  /* next_line() may read the top layer */
    int sniff_off;    /* the top layer is known to be plain: do not sniff it again */
    int regular;      /* the source is a regular file: its reads never wait on a writer */
    /* the current member */
    char *head; /* INGEST_HEAD_MAX bytes (owned) */
    size_t head_len;
    /* record splitting over the top layer */
    char *buf; /* READ_BUF_SIZE + max_line bytes (owned) */
    size_t cap, pos, len;
    int eof;                   /* the member's bytes ended (or broke: see end_status) */
    enum az_status end_status; /* AZ_EOF, or AZ_FAIL once the member broke */
    size_t lf_at;              /* next LF at or after pos, NO_POS: none in [pos, len) */
    int lf_valid;
    uint64_t lineno;     /* physical line of the next record */
    int after_cr;        /* the last record ended at CR: a LF next completes a CRLF */
    int skipping;        /* dropping the rest of a cut record */
    uint64_t member_out; /* decoded bytes of this member, for the bomb cap */
    char *scratch;       /* max_line bytes for escape removal (owned) */
    struct az_buf cause; /* reason text from the layer that broke, without the display */
    struct az_buf err;   /* "display: reason" */
    struct ingest_stats st;
    struct readahead ra;
};

void ingest_options_default(struct ingest_options *o)
{
    o->max_line = (size_t)64 * 1024;
    o->expand_floor = (uint64_t)1 << 30;
    o->expand_ratio = 64;
    o->max_depth = 4;
    o->readahead = 1;
}

const char *ingest_zstd_version(void)
{
    return ZSTD_versionString();
}

const char *ingest_archive_version(void)
{
    return archive_version_details();
}

/* ---- errors ---- */

static void set_cause(struct ingest_reader *r, const char *fmt, ...) AZ_PRINTF(2, 3);
static void set_cause(struct ingest_reader *r, const char *fmt, ...)
{
    if (r->cause.len) return; /* the first, lowest failure is the real one */
    va_list ap;
    va_start(ap, fmt);
    az_buf_vprintf(&r->cause, fmt, ap);
    va_end(ap);
}

static void set_error(struct ingest_reader *r, const char *display, const char *reason)
{
    az_buf_reset(&r->err);
    az_buf_printf(&r->err, "%s: %s", display, reason);
}

static const char *top_display(const struct ingest_reader *r)
{
    return r->nlayers ? r->layers[r->nlayers - 1].display : "";
}

/* libarchive's text for a failed call, unless a layer below already said why. Truncation is
 * worded like the zstd layer's ("truncated gzip data"). */
static void archive_cause(struct ingest_reader *r, const struct layer *L)
{
    if (r->cause.len) return;
    const char *msg = archive_error_string(L->ar);
    if (!msg) msg = "archive error";
    char codec[32];
    if (sscanf(msg, "truncated %31s input", codec) == 1) {
        set_cause(r, "truncated %s data", codec);
        return;
    }
    /* liblzma's LZMA_BUF_ERROR: the input ended inside the stream. */
    if (strstr(msg, "No progress is possible") && L->codec) {
        set_cause(r, "truncated %s data", L->codec);
        return;
    }
    set_cause(r, "%s", msg);
}

static uint64_t bomb_cap(const struct ingest_reader *r)
{
    uint64_t in = r->in_size ? r->in_size : r->st.bytes_in;
    uint64_t ratio = r->opt.expand_ratio;
    uint64_t scaled = (ratio && in > UINT64_MAX / ratio) ? UINT64_MAX : in * ratio;
    return AZ_MAX(r->opt.expand_floor, scaled);
}

static void bomb_cause(struct ingest_reader *r)
{
    uint64_t in = r->in_size ? r->in_size : r->st.bytes_in;
    set_cause(r,
              "decompression bomb? expanded past %llu bytes (cap = max(%llu, %llu x %llu "
              "compressed bytes))",
              (unsigned long long)bomb_cap(r), (unsigned long long)r->opt.expand_floor,
              (unsigned long long)r->opt.expand_ratio, (unsigned long long)in);
}

/* ---- layers: each returns bytes read, 0 at the end, -1 with r->cause set ---- */

static long layer_read(struct ingest_reader *r, size_t idx, void *buf, size_t cap);

static long fd_read(struct ingest_reader *r, struct layer *L, void *buf, size_t cap)
{
    ssize_t n;
    do n = read(L->fd, buf, cap);
    while (n < 0 && errno == EINTR);
    if (n < 0) {
        set_cause(r, "read error: %s", strerror(errno));
        return -1;
    }
    r->st.bytes_in += (uint64_t)n;
    return (long)n;
}

static long callback_read(struct ingest_reader *r, struct layer *L, void *buf, size_t cap)
{
    const char *why = NULL;
    long n = L->fn(L->ctx, buf, cap, &why);
    if (n < 0) {
        set_cause(r, "%s", why ? why : "read error");
        return -1;
    }
    if ((size_t)n > cap) n = (long)cap;
    r->st.bytes_in += (uint64_t)n;
    return n;
}

/* FIO_decompressZstdFrame() shape: decode into the caller's buffer, read input only when the
 * decoder has consumed all of it and did not fill its output last time. */
static long zstd_read(struct ingest_reader *r, struct layer *L, void *buf, size_t cap)
{
    ZSTD_outBuffer out = {buf, cap, 0};
    while (out.pos == 0) {
        if (L->zib.pos == L->zib.size && !L->zflush) {
            if (L->zin_eof) {
                if (L->zret != 0) {
                    set_cause(r, "truncated zstd data");
                    return -1;
                }
                return 0;
            }
            long n = layer_read(r, L->idx - 1, L->zin, L->zin_cap);
            if (n < 0) return -1;
            if (n == 0) {
                L->zin_eof = 1;
                continue;
            }
            L->zib = (ZSTD_inBuffer){L->zin, (size_t)n, 0};
        }
        size_t ret = ZSTD_decompressStream(L->zds, &out, &L->zib);
        if (ZSTD_isError(ret)) {
            set_cause(r, "corrupt zstd data: %s", ZSTD_getErrorName(ret));
            return -1;
        }
        L->zret = ret;
        L->zflush = out.pos == out.size;
    }
    L->zout += out.pos;
    if (L->zout > bomb_cap(r)) { /* also bounds what is decoded for members that are skipped */
        bomb_cause(r);
        return -1;
    }
    return (long)out.pos;
}

static long archive_data_read(struct ingest_reader *r, struct layer *L, void *buf, size_t cap)
{
    while (L->blk_len == 0) {
        const void *b;
        size_t size;
        la_int64_t offset;
        int rc = archive_read_data_block(L->ar, &b, &size, &offset);
        if (rc == ARCHIVE_EOF) return 0;
        if (rc < ARCHIVE_WARN) {
            archive_cause(r, L);
            if (rc == ARCHIVE_FATAL) L->dead = 1;
            return -1;
        }
        L->blk = b;
        L->blk_len = size;
    }
    size_t n = AZ_MIN(cap, L->blk_len);
    memcpy(buf, L->blk, n);
    L->blk += n;
    L->blk_len -= n;
    return (long)n;
}

static long layer_read(struct ingest_reader *r, size_t idx, void *buf, size_t cap)
{
    struct layer *L = &r->layers[idx];
    if (L->pend_pos < L->pend_len) {
        size_t n = AZ_MIN(cap, L->pend_len - L->pend_pos);
        memcpy(buf, L->pend + L->pend_pos, n);
        L->pend_pos += n;
        return (long)n;
    }
    if (L->failed) return -1;
    if (L->eof || cap == 0) return 0;
    long n = -1;
    switch (L->kind) {
    case LAYER_FD: n = fd_read(r, L, buf, cap); break;
    case LAYER_CALLBACK: n = callback_read(r, L, buf, cap); break;
    case LAYER_ZSTD: n = zstd_read(r, L, buf, cap); break;
    case LAYER_ARCHIVE: n = archive_data_read(r, L, buf, cap); break;
    }
    if (n < 0) L->failed = 1;
    if (n == 0) L->eof = 1;
    return n;
}

/* libarchive pulls the layer below through this. Pending bytes are lent without a copy: they
 * stay allocated until the layer below is popped. */
static la_ssize_t archive_pull(struct archive *a, void *ud, const void **out)
{
    struct layer *L = ud;
    struct ingest_reader *r = L->r;
    struct layer *below = &r->layers[L->idx - 1];
    if (below->pend_pos < below->pend_len) {
        *out = below->pend + below->pend_pos;
        size_t n = below->pend_len - below->pend_pos;
        below->pend_pos = below->pend_len;
        return (la_ssize_t)n;
    }
    if (archive_filter_bytes(a, 0) > (la_int64_t)AZ_MIN(bomb_cap(r), (uint64_t)INT64_MAX)) {
        bomb_cause(r);
        archive_set_error(a, EFBIG, "%s", r->cause.data);
        return -1;
    }
    long n = layer_read(r, L->idx - 1, L->ain, ARCHIVE_IN_SIZE);
    if (n < 0) {
        archive_set_error(a, EIO, "%s", r->cause.len ? r->cause.data : "read error");
        return -1;
    }
    *out = L->ain;
    return (la_ssize_t)n;
}

static void layer_close(struct layer *L)
{
    if (L->kind == LAYER_FD && L->close_fd) close(L->fd);
    if (L->zds) ZSTD_freeDStream(L->zds);
    if (L->ar) archive_read_free(L->ar);
    free(L->zin);
    free(L->ain);
    free(L->pend);
    free(L->display);
    free(L->name);
    memset(L, 0, sizeof(*L));
}

static void pop_layer(struct ingest_reader *r)
{
    assert(r->nlayers > 0);
    layer_close(&r->layers[--r->nlayers]);
    r->have_member = 0;
    r->sniff_off = 0;
}

static struct layer *push_layer(struct ingest_reader *r, enum layer_kind kind)
{
    assert(r->nlayers < r->max_layers);
    struct layer *L = &r->layers[r->nlayers];
    memset(L, 0, sizeof(*L));
    L->kind = kind;
    L->r = r;
    L->idx = r->nlayers++;
    L->fd = -1;
    return L;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* "dmesg.log.gz" decoded is "dmesg.log": the name is a classification hint. */
static char *strip_codec_suffix(const char *name)
{
    static const char *const suffixes[] = {".gz",  ".zst", ".zstd", ".xz", ".bz2",
                                           ".lz4", ".Z",   ".lzma", ".lz"};
    size_t len = strlen(name);
    for (size_t i = 0; i < AZ_ARRAY_LEN(suffixes); i++) {
        size_t sl = strlen(suffixes[i]);
        if (len > sl && strcasecmp(name + len - sl, suffixes[i]) == 0)
            return az_xstrndup(name, len - sl);
    }
    return az_xstrdup(name);
}

/* ---- format sniffing: magic bytes only ---- */

enum sniff { SNIFF_PLAIN, SNIFF_ZSTD, SNIFF_FILTER, SNIFF_CONTAINER };

static int has_magic(const unsigned char *p, size_t n, size_t off, const char *magic, size_t mlen)
{
    return n >= off + mlen && memcmp(p + off, magic, mlen) == 0;
}

/* A v7/ustar tar header: "ustar" at 257, or a header checksum that adds up. */
static int is_tar_header(const unsigned char *p, size_t n)
{
    if (n < 512 || p[0] == 0) return 0;
    if (memcmp(p + 257, "ustar", 5) == 0) return 1;
    size_t i = 148;
    while (i < 156 && p[i] == ' ') i++;
    unsigned long stored = 0;
    int digits = 0;
    for (; i < 156 && p[i] >= '0' && p[i] <= '7'; i++, digits++) stored = stored * 8 + (p[i] - '0');
    if (!digits) return 0;
    unsigned long sum = 0;
    for (size_t k = 0; k < 512; k++) sum += (k >= 148 && k < 156) ? ' ' : p[k];
    return sum == stored;
}

static enum sniff sniff(const unsigned char *p, size_t n)
{
    if (n >= 4 && p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD) return SNIFF_ZSTD;
    if (n >= 4 && (p[0] & 0xF0) == 0x50 && p[1] == 0x2A && p[2] == 0x4D && p[3] == 0x18)
        return SNIFF_ZSTD; /* skippable frame */
    static const struct {
        size_t off, len;
        const char *magic;
        enum sniff kind;
    } magics[] = {
        {0, 2, "\x1f\x8b", SNIFF_FILTER}, /* gzip */
        {0, 2, "\x1f\x9d", SNIFF_FILTER}, /* compress (.Z) */
        {0, 6,
         "\xfd"
         "7zXZ\0",
         SNIFF_FILTER},                                /* xz */
        {0, 3, "\x5d\0\0", SNIFF_FILTER},              /* lzma alone */
        {0, 4, "LZIP", SNIFF_FILTER},                  /* lzip */
        {0, 4, "\x04\x22\x4d\x18", SNIFF_FILTER},      /* lz4 frame */
        {0, 4, "\x02\x21\x4c\x18", SNIFF_FILTER},      /* lz4 legacy */
        {0, 9, "\x89LZO\0\r\n\x1a\n", SNIFF_FILTER},   /* lzop */
        {0, 4, "PK\x03\x04", SNIFF_CONTAINER},         /* zip */
        {0, 4, "PK\x05\x06", SNIFF_CONTAINER},         /* empty zip */
        {0, 6, "7z\xbc\xaf\x27\x1c", SNIFF_CONTAINER}, /* 7z */
        {0, 6, "Rar!\x1a\x07", SNIFF_CONTAINER},       /* rar, rar5 */
        {0, 4, "xar!", SNIFF_CONTAINER},               /* xar */
        {0, 4, "MSCF", SNIFF_CONTAINER},               /* cab */
        {0, 6, "070707", SNIFF_CONTAINER},             /* cpio odc */
        {0, 6, "070701", SNIFF_CONTAINER},             /* cpio newc */
        {0, 6, "070702", SNIFF_CONTAINER},             /* cpio crc */
        {0, 2, "\xc7\x71", SNIFF_CONTAINER},           /* cpio binary, little endian */
        {0, 2, "\x71\xc7", SNIFF_CONTAINER},           /* cpio binary, big endian */
        {0, 8, "!<arch>\n", SNIFF_CONTAINER},          /* ar */
        {32769, 5, "CD001", SNIFF_CONTAINER},          /* iso9660 */
    };
    for (size_t i = 0; i < AZ_ARRAY_LEN(magics); i++)
        if (has_magic(p, n, magics[i].off, magics[i].magic, magics[i].len)) return magics[i].kind;
    if (n >= 3 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && n >= 4 && p[3] >= '1' && p[3] <= '9')
        return SNIFF_FILTER; /* bzip2 */
    if (is_tar_header(p, n)) return SNIFF_CONTAINER;
    return SNIFF_PLAIN;
}

static const char *container_name(struct archive *a)
{
    switch (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) {
    case ARCHIVE_FORMAT_TAR: return "tar";
    case ARCHIVE_FORMAT_ZIP: return "zip";
    case ARCHIVE_FORMAT_CPIO: return "cpio";
    case ARCHIVE_FORMAT_7ZIP: return "7z";
    case ARCHIVE_FORMAT_AR: return "ar";
    case ARCHIVE_FORMAT_ISO9660: return "iso9660";
    case ARCHIVE_FORMAT_RAR:
    case ARCHIVE_FORMAT_RAR_V5: return "rar";
    case ARCHIVE_FORMAT_XAR: return "xar";
    case ARCHIVE_FORMAT_CAB: return "cab";
    case ARCHIVE_FORMAT_LHA: return "lha";
    default: return archive_format_name(a) ? archive_format_name(a) : "archive";
    }
}

static unsigned stack_depth(const struct ingest_reader *r)
{
    unsigned d = 0;
    for (size_t i = 0; i < r->nlayers; i++) d += r->layers[i].depth;
    return d;
}

/* ---- pushing decoders ---- */

static void inherit_names(struct layer *L, const struct layer *below)
{
    L->display = az_xstrdup(below->display);
    L->name = strip_codec_suffix(below->name);
}

static void push_zstd(struct ingest_reader *r)
{
    struct layer *L = push_layer(r, LAYER_ZSTD);
    inherit_names(L, &r->layers[L->idx - 1]);
    L->codec = "zstd";
    L->depth = 1;
    L->zds = ZSTD_createDStream();
    if (!L->zds) az_xmalloc(SIZE_MAX); /* out of memory: az_xmalloc reports and exits */
    ZSTD_initDStream(L->zds);
    L->zin_cap = ZSTD_DStreamInSize();
    L->zin = az_xmalloc(L->zin_cap);
}

/* Next regular entry of an archive layer.
 * @return AZ_OK (positioned at its data), AZ_EOF, AZ_FAIL (this entry unreadable, r->cause),
 * AZ_FATAL (no header can follow, r->cause). */
static enum az_status archive_next_entry(struct ingest_reader *r, struct layer *L)
{
    const struct layer *below = &r->layers[L->idx - 1];
    int damaged = 0;
    for (;;) {
        struct archive_entry *e;
        int rc = archive_read_next_header(L->ar, &e);
        if (rc == ARCHIVE_EOF) {
            L->dead = 1; /* libarchive refuses another next_header() after its EOF */
            return damaged ? AZ_FAIL : AZ_EOF;
        }
        if ((rc == ARCHIVE_RETRY || rc == ARCHIVE_FAILED) && ++L->retries < ARCHIVE_RETRY_MAX) {
            /* A damaged header: libarchive resynchronises block by block (tar). Report the
             * damaged stretch once, not once per block. */
            if (!damaged) archive_cause(r, L);
            damaged = 1;
            continue;
        }
        if (rc < ARCHIVE_WARN) {
            archive_cause(r, L);
            L->dead = 1;
            return AZ_FATAL;
        }
        L->raw = archive_format(L->ar) == ARCHIVE_FORMAT_RAW;
        L->eof = L->failed = 0;
        L->blk_len = 0;
        if (L->raw) {
            L->container = NULL;
            L->stashed = damaged; /* the entry after the damage is returned by the next call */
            return damaged ? AZ_FAIL : AZ_OK; /* display and name stay the input's */
        }
        L->container = container_name(L->ar);
        if (archive_entry_filetype(e) != AE_IFREG) continue;
        if (archive_entry_hardlink(e) && archive_entry_size(e) == 0) continue;
        const char *path = archive_entry_pathname(e);
        if (!path) path = archive_entry_pathname_utf8(e);
        if (!path) path = "?";
        while (path[0] == '.' && path[1] == '/') path += 2;
        while (path[0] == '/') path++;
        free(L->display);
        free(L->name);
        L->display = az_xasprintf("%s:%s", below->display, path);
        L->name = az_xstrdup(base_name(path));
        L->stashed = damaged;
        return damaged ? AZ_FAIL : AZ_OK;
    }
}

/* libarchive over the top layer, positioned at its first member. A filter layer decodes
 * (gzip, xz, bzip2, lz4, ... possibly stacked) into one raw member; a container layer splits an
 * undecorated archive into entries. Keeping them apart means the decoded stream is sniffed by
 * us: libarchive's tar bidder would take a log that starts with NULs for an empty tar.
 * @return as archive_next_entry(); on AZ_FAIL/AZ_FATAL the layer is popped again. */
static enum az_status push_archive(struct ingest_reader *r, int container)
{
    struct layer *L = push_layer(r, LAYER_ARCHIVE);
    inherit_names(L, &r->layers[L->idx - 1]);
    L->ain = az_xmalloc(ARCHIVE_IN_SIZE);
    L->ar = archive_read_new();
    if (!L->ar) az_xmalloc(SIZE_MAX);
    if (!container) {
        archive_read_support_filter_all(L->ar);
        archive_read_support_format_raw(L->ar);
        goto open;
    }
    /* format_all minus the text formats: mtree would read every line of a plain log.gz as an
     * entry, warc treats text as records. "empty" is left out so an empty log.gz is one empty
     * member through raw. */
    archive_read_support_format_7zip(L->ar);
    archive_read_support_format_ar(L->ar);
    archive_read_support_format_cab(L->ar);
    archive_read_support_format_cpio(L->ar);
    archive_read_support_format_iso9660(L->ar);
    archive_read_support_format_lha(L->ar);
    archive_read_support_format_rar(L->ar);
    archive_read_support_format_rar5(L->ar);
    archive_read_support_format_tar(L->ar);
    archive_read_support_format_xar(L->ar);
    archive_read_support_format_zip(L->ar);
    archive_read_support_format_raw(L->ar); /* the magic was a false alarm: plain bytes */
open:;
    enum az_status st;
    if (archive_read_open(L->ar, L, NULL, archive_pull, NULL) != ARCHIVE_OK) {
        archive_cause(r, L);
        st = AZ_FAIL;
        goto fail;
    }
    int nfilters = archive_filter_count(L->ar) - 1; /* the last one is the client reader */
    if (nfilters > 0) L->codec = archive_filter_name(L->ar, nfilters - 1);
    st = archive_next_entry(r, L);
    if (st == AZ_FATAL || (st == AZ_FAIL && !L->stashed)) goto fail;
    L->depth = (unsigned)AZ_MAX(1, nfilters);
    if (L->raw && nfilters == 0) r->sniff_off = 1; /* identity: the magic was a false alarm */
    return st; /* AZ_FAIL with a stashed entry: damage reported, the layer goes on */
fail:
    pop_layer(r);
    return st;
}

/* ---- records ---- */

/* ---- read-ahead ---- */

static void *ra_main(void *arg)
{
    struct ingest_reader *r = arg;
    struct readahead *ra = &r->ra;
    for (;;) {
        pthread_mutex_lock(&ra->mu);
        while (ra->tail - ra->head == RA_SLOTS && !ra->stop) pthread_cond_wait(&ra->cv, &ra->mu);
        int stop = ra->stop;
        unsigned i = ra->tail % RA_SLOTS;
        pthread_mutex_unlock(&ra->mu);
        if (stop) break;
        long n = layer_read(r, r->nlayers - 1, ra->slot[i], RA_SLOT_SIZE);
        pthread_mutex_lock(&ra->mu);
        ra->got[i] = n;
        ra->tail++;
        pthread_cond_broadcast(&ra->cv);
        pthread_mutex_unlock(&ra->mu);
        if (n <= 0) break;
    }
    return NULL;
}

/* Worth a thread: the member is decoded by the top layer and has bytes left to decode. Only
 * over a regular file: on a pipe the thread could sit in read() while the reader waits to stop
 * it (a member left early, a bomb), for as long as the writer stays silent. */
static int ra_wanted(const struct ingest_reader *r)
{
    const struct layer *top = &r->layers[r->nlayers - 1];
    return r->opt.readahead && r->regular && r->nlayers > 1 && !top->eof && !top->failed &&
           (top->kind == LAYER_ZSTD || top->kind == LAYER_ARCHIVE);
}

static void ra_start(struct ingest_reader *r)
{
    struct readahead *ra = &r->ra;
    if (!ra->slot[0]) {
        for (size_t i = 0; i < RA_SLOTS; i++) ra->slot[i] = az_xmalloc(RA_SLOT_SIZE);
        pthread_mutex_init(&ra->mu, NULL);
        pthread_cond_init(&ra->cv, NULL);
    }
    ra->head = ra->tail = 0;
    ra->off = 0;
    ra->stop = 0;
    /* No thread (resource limits): read on this thread, as without read-ahead. */
    ra->running = pthread_create(&ra->th, NULL, ra_main, r) == 0;
}

/* Stop and join the thread; decoded bytes not yet handed out are dropped with the member. */
static void ra_stop(struct ingest_reader *r)
{
    struct readahead *ra = &r->ra;
    if (!ra->running) return;
    pthread_mutex_lock(&ra->mu);
    ra->stop = 1;
    pthread_cond_broadcast(&ra->cv);
    pthread_mutex_unlock(&ra->mu);
    pthread_join(ra->th, NULL);
    ra->running = 0;
}

/* layer_read() of the top layer through the ring. */
static long ra_read(struct ingest_reader *r, void *buf, size_t cap)
{
    struct readahead *ra = &r->ra;
    pthread_mutex_lock(&ra->mu);
    while (ra->tail == ra->head) pthread_cond_wait(&ra->cv, &ra->mu);
    unsigned i = ra->head % RA_SLOTS;
    long got = ra->got[i];
    pthread_mutex_unlock(&ra->mu);
    if (got <= 0) { /* the thread's last slot: it has returned */
        pthread_join(ra->th, NULL);
        ra->running = 0;
        return got;
    }
    size_t n = AZ_MIN(cap, (size_t)got - ra->off);
    memcpy(buf, ra->slot[i] + ra->off, n);
    ra->off += n;
    if (ra->off == (size_t)got) {
        ra->off = 0;
        pthread_mutex_lock(&ra->mu);
        ra->head++;
        pthread_cond_broadcast(&ra->cv);
        pthread_mutex_unlock(&ra->mu);
    }
    return (long)n;
}

static void ra_free(struct ingest_reader *r)
{
    struct readahead *ra = &r->ra;
    ra_stop(r);
    if (!ra->slot[0]) return;
    for (size_t i = 0; i < RA_SLOTS; i++) free(ra->slot[i]);
    pthread_mutex_destroy(&ra->mu);
    pthread_cond_destroy(&ra->cv);
}

/* ---- records ---- */

static void line_reset(struct ingest_reader *r)
{
    r->pos = r->len = 0;
    r->eof = 0;
    r->end_status = AZ_EOF;
    r->lf_valid = 0;
    r->lineno = 1;
    r->after_cr = 0;
    r->skipping = 0;
    r->member_out = 0;
}

static void fill(struct ingest_reader *r)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    r->lf_valid = 0;
    if (!r->ra.running && r->have_member && ra_wanted(r)) ra_start(r);
    long n = r->ra.running ? ra_read(r, r->buf + r->len, r->cap - r->len)
                           : layer_read(r, r->nlayers - 1, r->buf + r->len, r->cap - r->len);
    if (n <= 0) {
        r->eof = 1;
        if (n < 0) r->end_status = AZ_FAIL;
        return;
    }
    r->len += (size_t)n;
    r->member_out += (uint64_t)n;
    r->st.bytes_out += (uint64_t)n;
    if (r->nlayers > 1 && r->member_out > bomb_cap(r)) {
        ra_stop(r); /* before its layers are marked, and the cause set */
        bomb_cause(r);
        r->eof = 1;
        r->end_status = AZ_FAIL;
        r->pos = r->len = 0;
        /* Skipping the rest would decode the bomb anyway: abandon the containers too. */
        for (size_t i = 1; i < r->nlayers; i++) {
            r->layers[i].failed = 1;
            r->layers[i].dead = 1;
        }
    }
}

static void set_error_from_cause(struct ingest_reader *r, const char *display)
{
    set_error(r, display, r->cause.len ? r->cause.data : "read error");
}

static void emit(struct ingest_reader *r, struct ingest_line *line, size_t start, size_t len,
                 uint64_t lineno, int cut)
{
    const char *text = r->buf + start;
    const char *esc = len && text[0] == 0x1b ? text : memchr(text, 0x1b, len);
    if (esc) { /* the bytes before the first ESC are kept as they are */
        size_t keep = (size_t)(esc - text);
        if (keep) memcpy(r->scratch, text, keep);
        len = keep + ingest_strip_ansi(esc, len - keep, r->scratch + keep);
        text = r->scratch;
    }
    line->text = text;
    line->len = len;
    line->lineno = lineno;
    line->cut = cut;
    r->st.records++;
    if (cut) r->st.cut_lines++;
}

enum az_status ingest_reader_next_line(struct ingest_reader *r, struct ingest_line *line)
{
    if (!r->have_member) return AZ_EOF;
    const size_t max_line = r->opt.max_line;
    for (;;) {
        if (r->pos == r->len) {
            if (!r->eof) {
                fill(r);
                continue;
            }
            if (r->end_status == AZ_FAIL) {
                r->end_status = AZ_EOF;
                set_error_from_cause(r, top_display(r));
                r->st.skipped++;
                return AZ_FAIL;
            }
            return AZ_EOF;
        }
        char *p = r->buf + r->pos;
        size_t avail = r->len - r->pos;
        if (r->after_cr) {
            r->after_cr = 0;
            if (*p == '\n') {
                r->pos++;
                r->lineno++;
            }
            continue;
        }
        if (r->skipping) {
            const char *lf = memchr(p, '\n', avail);
            const char *cr = memchr(p, '\r', lf ? (size_t)(lf - p) : avail);
            const char *end = cr ? cr : lf;
            if (!end) {
                r->pos = r->len;
                continue;
            }
            r->pos = (size_t)(end - r->buf) + 1;
            r->skipping = 0;
            if (*end == '\n')
                r->lineno++;
            else
                r->after_cr = 1;
            continue;
        }
        if (*p == '\n' || *p == '\r') {
            /* An empty record: the same cut as below without searching for its end, so a bomb
             * of blank lines or lone CRs costs a few instructions per record. */
            size_t start = r->pos;
            uint64_t lineno = r->lineno;
            r->pos++;
            if (*p == '\n') {
                r->lineno++;
            } else if (r->pos == r->len) {
                r->after_cr = 1; /* a LF read next completes the CRLF */
            } else if (r->buf[r->pos] == '\n') {
                r->pos++;
                r->lineno++;
            }
            emit(r, line, start, 0, lineno, 0);
            return AZ_OK;
        }
        if (!r->lf_valid || (r->lf_at != NO_POS && r->lf_at < r->pos)) {
            const char *lf = memchr(p, '\n', avail);
            r->lf_at = lf ? (size_t)(lf - r->buf) : NO_POS;
            r->lf_valid = 1;
        }
        size_t limit = r->lf_at == NO_POS ? r->len : r->lf_at;
        const char *cr = memchr(p, '\r', limit - r->pos);
        size_t end;
        int term;
        if (cr) {
            end = (size_t)(cr - r->buf);
            term = '\r';
        } else if (r->lf_at != NO_POS) {
            end = r->lf_at;
            term = '\n';
        } else if (avail > max_line) {
            /* No end in sight and already too long: deliver the cut and drop the rest. */
            size_t start = r->pos;
            r->pos += max_line;
            r->skipping = 1;
            emit(r, line, start, max_line, r->lineno, 1);
            return AZ_WARN;
        } else if (!r->eof) {
            fill(r);
            continue;
        } else {
            end = r->len; /* last line without a newline */
            term = 0;
        }
        size_t start = r->pos, len = end - start;
        uint64_t lineno = r->lineno;
        if (term == '\n') {
            r->pos = end + 1;
            r->lineno++;
        } else if (term == '\r') {
            if (end + 1 < r->len) {
                r->pos = end + 1;
                if (r->buf[end + 1] == '\n') {
                    r->pos++;
                    r->lineno++;
                }
            } else {
                r->pos = end + 1;
                r->after_cr = 1;
            }
        } else {
            r->pos = end;
        }
        int cut = len > max_line;
        emit(r, line, start, cut ? max_line : len, lineno, cut);
        return cut ? AZ_WARN : AZ_OK;
    }
}

uint64_t ingest_reader_skip_empty(struct ingest_reader *r, uint64_t max, uint64_t *lineno)
{
    uint64_t n = 0, last = 0;
    if (!r->have_member || r->skipping) return 0;
    while (n < max) {
        if (r->pos == r->len) {
            if (r->eof) break;
            fill(r);
            continue;
        }
        if (r->after_cr) { /* as in ingest_reader_next_line() */
            r->after_cr = 0;
            if (r->buf[r->pos] == '\n') {
                r->pos++;
                r->lineno++;
            }
            continue;
        }
        /* The cuts of ingest_reader_next_line()'s empty-record path, on local copies. */
        const char *b = r->buf;
        size_t i = r->pos, end = r->len;
        uint64_t ln = r->lineno;
        int more = 0; /* the buffer ended inside the run: refill and go on */
        while (n < max) {
            if (i == end) {
                more = 1;
                break;
            }
            char c = b[i];
            if (c == 0x1b) {
                /* A record of nothing but escape sequences is empty once they are removed (a
                 * progress bar's "ESC[2K" CR). Its end must be in the buffer and within
                 * max_line, else ingest_reader_next_line() decides (it may refill or cut). */
                size_t lim = AZ_MIN(end, i + r->opt.max_line), k = i;
                while (k < lim && b[k] != '\n' && b[k] != '\r') k++;
                if (k == lim || ingest_strip_ansi(b + i, k - i, r->scratch) > 0) break;
                i = k; /* at its terminator, cut below as for an empty record */
                c = b[i];
            }
            if (c != '\n' && c != '\r') break;
            last = ln;
            n++;
            i++;
            if (c == '\n') {
                ln++;
            } else if (i == end) {
                r->after_cr = 1;
                more = 1;
                break;
            } else if (b[i] == '\n') {
                i++;
                ln++;
            }
        }
        r->pos = i;
        r->lineno = ln;
        if (!more) break;
    }
    r->st.records += n;
    if (n) *lineno = last;
    return n;
}

/* ---- members ---- */

static void hand_back(struct ingest_reader *r)
{
    struct layer *top = &r->layers[r->nlayers - 1];
    size_t rest = top->pend_len - top->pend_pos;
    char *pend = az_xmalloc(r->len + rest + 1);
    memcpy(pend, r->buf, r->len);
    if (rest) memcpy(pend + r->len, top->pend + top->pend_pos, rest);
    free(top->pend);
    r->st.bytes_out -= r->len; /* read again through the new layer */
    top->pend = pend;
    top->pend_len = r->len + rest;
    top->pend_pos = 0;
}

static void fill_member(const struct ingest_reader *r, struct ingest_member *m)
{
    const struct layer *top = &r->layers[r->nlayers - 1];
    m->display = top->display;
    m->name = top->name;
    m->compression = "none";
    m->container = "none";
    int have_codec = 0, have_container = 0;
    for (size_t i = 0; i < r->nlayers; i++) {
        const struct layer *L = &r->layers[i];
        if (!have_codec && L->codec) {
            m->compression = L->codec;
            have_codec = 1;
        }
        if (!have_container && L->container) {
            m->container = L->container;
            have_container = 1;
        }
    }
    m->head = r->head;
    m->head_len = r->head_len;
}

static int live_container_below(const struct ingest_reader *r);

static void depth_error(struct ingest_reader *r)
{
    char why[96];
    snprintf(why, sizeof(why), "nested deeper than %u levels (max_depth)", r->opt.max_depth);
    set_error(r, top_display(r), why);
    r->st.skipped++;
}

/* Open the member at the top of the stack, peeling codecs and archives found by their magic.
 * @return AZ_OK (m filled), AZ_FAIL (member skipped, error set), AZ_EOF (an empty archive: look
 * further), AZ_FATAL (an archive that cannot go on, error set). */
static enum az_status descend(struct ingest_reader *r, struct ingest_member *m)
{
    for (;;) {
        line_reset(r);
        while (!r->eof && r->len < INGEST_HEAD_MAX) fill(r);
        if (r->len == 0 && r->end_status == AZ_FAIL) {
            set_error_from_cause(r, top_display(r));
            r->st.skipped++;
            return AZ_FAIL;
        }
        enum sniff kind = r->sniff_off ? SNIFF_PLAIN : sniff((const unsigned char *)r->buf, r->len);
        if (kind != SNIFF_PLAIN) {
            if (stack_depth(r) >= r->opt.max_depth || r->nlayers >= r->max_layers) {
                depth_error(r);
                return AZ_FAIL;
            }
            hand_back(r);
            if (kind == SNIFF_ZSTD) {
                push_zstd(r);
                continue;
            }
            const char *display = top_display(r);
            char *saved = az_xstrdup(display); /* push_archive may pop its layer */
            enum az_status st = push_archive(r, kind == SNIFF_CONTAINER);
            if (st == AZ_FAIL || st == AZ_FATAL) {
                set_error_from_cause(r, saved);
                r->st.skipped++;
                free(saved);
                return AZ_FAIL;
            }
            free(saved);
            if (st == AZ_EOF) return AZ_EOF;
            if (stack_depth(r) > r->opt.max_depth) { /* one layer may hold stacked filters */
                depth_error(r);
                return AZ_FAIL;
            }
            continue;
        }
        r->head_len = AZ_MIN(r->len, INGEST_HEAD_MAX);
        memcpy(r->head, r->buf, r->head_len);
        if (ingest_looks_binary((const unsigned char *)r->head, r->head_len)) {
            set_error(r, top_display(r), "binary file");
            r->st.skipped++;
            return AZ_FAIL;
        }
        if (az_starts_with(r->head, r->head_len, INGEST_OWN_REPORT_MARK)) {
            /* inside a bundle it is the bundle's own diagnosis: passed over without a word */
            if (live_container_below(r)) return AZ_EOF;
            set_error(r, top_display(r), "gotcha's own report (gotcha collect), not an input");
            r->st.skipped++;
            return AZ_FAIL;
        }
        fill_member(r, m);
        r->have_member = 1;
        r->st.members++;
        return AZ_OK;
    }
}

static int live_container_below(const struct ingest_reader *r)
{
    for (size_t i = 0; i < r->nlayers; i++) {
        const struct layer *L = &r->layers[i];
        if (L->kind == LAYER_ARCHIVE && !L->raw && !L->dead) return 1;
    }
    return 0;
}

/* Leave the current member: pop finished layers until an archive yields its next entry.
 * @return AZ_OK (positioned), AZ_EOF, AZ_FAIL (an entry or nested archive skipped, error set),
 * AZ_FATAL (the input cannot go on, error set). */
static enum az_status advance(struct ingest_reader *r)
{
    ra_stop(r);
    r->have_member = 0;
    while (r->nlayers > 0) {
        struct layer *L = &r->layers[r->nlayers - 1];
        if (L->kind != LAYER_ARCHIVE || L->raw || (L->dead && !L->stashed)) {
            pop_layer(r);
            continue;
        }
        if (L->stashed) {
            L->stashed = 0;
            return AZ_OK;
        }
        az_buf_reset(&r->cause);
        enum az_status st = archive_next_entry(r, L);
        if (st == AZ_OK) return AZ_OK;
        if (st == AZ_EOF) {
            pop_layer(r);
            continue;
        }
        set_error_from_cause(r, r->layers[L->idx - 1].display);
        r->st.skipped++;
        if (st == AZ_FAIL) return AZ_FAIL;
        pop_layer(r);
        if (live_container_below(r)) return AZ_FAIL;
        while (r->nlayers > 0) pop_layer(r);
        return AZ_FATAL;
    }
    return AZ_EOF;
}

enum az_status ingest_reader_next_member(struct ingest_reader *r, struct ingest_member *m)
{
    memset(m, 0, sizeof(*m));
    for (;;) {
        if (!r->started) {
            r->started = 1;
            if (r->nlayers == 0) return AZ_EOF;
        } else {
            enum az_status st = advance(r);
            if (st != AZ_OK) return st;
        }
        az_buf_reset(&r->cause);
        enum az_status st = descend(r, m);
        if (st != AZ_EOF) return st;
    }
}

/* ---- open / free ---- */

static struct ingest_reader *reader_new(const struct ingest_options *opts)
{
    struct ingest_reader *r = az_xcalloc(1, sizeof(*r));
    if (opts)
        r->opt = *opts;
    else
        ingest_options_default(&r->opt);
    struct ingest_options def;
    ingest_options_default(&def);
    if (r->opt.max_line == 0) r->opt.max_line = def.max_line;
    if (r->opt.max_depth == 0) r->opt.max_depth = 1;
    r->max_layers = (size_t)r->opt.max_depth + 1;
    r->layers = az_xcalloc(r->max_layers, sizeof(*r->layers));
    r->cap = READ_BUF_SIZE + r->opt.max_line;
    r->buf = az_xmalloc(r->cap);
    r->head = az_xmalloc(INGEST_HEAD_MAX);
    r->scratch = az_xmalloc(r->opt.max_line);
    return r;
}

static void name_source(struct layer *L, const char *display)
{
    L->display = az_xstrdup(display);
    L->name = az_xstrdup(base_name(display));
}

enum az_status ingest_reader_open(struct ingest_reader **out, const char *path, const char *display,
                                  const struct ingest_options *opts)
{
    int is_stdin = strcmp(path, "-") == 0;
    if (!display) display = is_stdin ? "<stdin>" : path;
    struct ingest_reader *r = reader_new(opts);
    *out = r;
    int fd = 0;
    struct stat st;
    if (!is_stdin) {
        /* A FIFO named on the command line is read like stdin: a blocking open waits for its
         * writer. Anything else opens without blocking and is re-checked on the descriptor. */
        int fifo = stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
        fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | (fifo ? 0 : O_NONBLOCK));
        if (fd < 0) {
            set_error(r, display, strerror(errno));
            return AZ_FAIL;
        }
    }
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        set_error(r, display, S_ISDIR(st.st_mode) ? strerror(EISDIR) : strerror(errno));
        if (!is_stdin) close(fd);
        return AZ_FAIL;
    }
    if (S_ISREG(st.st_mode)) {
        r->regular = 1;
        r->in_size = (uint64_t)st.st_size;
        posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    } else if (!is_stdin) {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    struct layer *L = push_layer(r, LAYER_FD);
    L->fd = fd;
    L->close_fd = !is_stdin;
    name_source(L, display);
    return AZ_OK;
}

enum az_status ingest_reader_open_cb(struct ingest_reader **out, ingest_read_fn fn, void *ctx,
                                     uint64_t size, const char *display,
                                     const struct ingest_options *opts)
{
    if (!display) display = "<stdin>";
    struct ingest_reader *r = reader_new(opts);
    *out = r;
    r->in_size = size;
    struct layer *L = push_layer(r, LAYER_CALLBACK);
    L->fn = fn;
    L->ctx = ctx;
    name_source(L, display);
    return AZ_OK;
}

const char *ingest_reader_error(const struct ingest_reader *r)
{
    return r->err.len ? r->err.data : "";
}

const struct ingest_stats *ingest_reader_stats(const struct ingest_reader *r)
{
    return &r->st;
}

void ingest_reader_free(struct ingest_reader *r)
{
    if (!r) return;
    ra_free(r);
    while (r->nlayers > 0) pop_layer(r);
    free(r->layers);
    free(r->buf);
    free(r->head);
    free(r->scratch);
    az_buf_free(&r->cause);
    az_buf_free(&r->err);
    free(r);
}
