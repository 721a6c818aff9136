/*
 * ingest/ingest.h - turn whatever a user points gotcha at into a stream of lines.
 *
 * Two objects:
 *  - ingest_walk: expands command-line PATHs (files, directories recursively, "-" for stdin) into
 *    a deterministic, sorted list of inputs, and a list of entries skipped with a reason (symlink
 *    loops, FIFOs, sockets, devices, unreadable entries). It never blocks on a FIFO and never
 *    follows a symlink loop.
 *  - ingest_reader: one top-level input. An input holds one or more members: a plain or singly
 *    compressed file has one; an archive (tar, zip, cpio, 7z, ... through libarchive, itself
 *    possibly compressed) has one per regular entry, and a compressed entry inside an archive is
 *    decompressed too (run.tar.zst:job42/dmesg.log.gz). Formats are recognised by magic bytes,
 *    never by name: gzip, zstd (libzstd), xz, bzip2, lz4 and everything libarchive reads.
 *
 * Streaming protocol:
 *    ingest_reader_open(&r, path, &opts);
 *    while ((st = ingest_reader_next_member(r, &m)) != AZ_EOF && st != AZ_FATAL) {
 *        if (st == AZ_FAIL) { warn(ingest_reader_error(r)); continue; }   // member skipped
 *        ... m.head/m.head_len: the first bytes of the decoded member, for classification
 *        while ((st = ingest_reader_next_line(r, &line)) == AZ_OK || st == AZ_WARN) use(line);
 *        if (st == AZ_FAIL) warn(ingest_reader_error(r));   // e.g. truncated gzip: lines before
 *    }                                                        // the damage were delivered
 *    ingest_reader_free(r);
 *
 * Records: a line ends at LF, CRLF or a lone CR (a tqdm refresh written with CR is its own
 * record). line.lineno counts LF-terminated physical lines from 1, so records split at a lone CR
 * share the line number an editor shows. ANSI/VT escape sequences (CSI, OSC, and two-byte ESC
 * sequences) are removed from line text. A record longer than opts.max_line is cut to its first
 * max_line bytes, flagged (line.cut) and returned with AZ_WARN; the rest of it is skipped without
 * growing any buffer. NUL bytes and invalid UTF-8 are passed through as bytes: consumers must use
 * the explicit length. A member whose head is mostly binary is skipped (AZ_FAIL, "binary file").
 *
 * Bounds: memory per reader is O(buffer size + max_line), independent of input size. Decompressed
 * bytes are capped per member at max(expand_floor, expand_ratio x compressed bytes of the input):
 * past it the member stops with AZ_FAIL ("decompression bomb?"). A nesting depth cap stops
 * archives inside archives from recursing forever.
 *
 * Ownership: every pointer returned is borrowed from the reader and valid until the next call on
 * it. Readers are independent: one per thread, no shared state.
 */
#ifndef INGEST_H
#define INGEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* FILE, for ingest_bundle_add_file() */

#include "common/az.h"

struct ingest_options {
    size_t max_line;       /* record cap in bytes (--max-line, default 64 KiB) */
    uint64_t expand_floor; /* decompressed bytes always allowed per member (default 1 GiB) */
    uint64_t expand_ratio; /* x compressed size allowed beyond the floor (default 64) */
    unsigned max_depth;    /* archive/compression nesting levels (default 4) */
    int readahead;         /* decode compressed members of regular files on a second thread
                              (default 1) */
};

/* Fill o with the defaults above. */
void ingest_options_default(struct ingest_options *o);

/* ---- walking command-line paths ---- */

struct ingest_entry {
    char *path;    /* path to open: a filesystem path or "-" (owned by the walk) */
    char *display; /* path as reported: relative to the named root's parent, "-" is "<stdin>" */
    uint64_t size; /* bytes on disk, 0 for stdin */
    int64_t mtime; /* seconds since the epoch, 0 for stdin */
};

struct ingest_skip {
    char *path;   /* display path (owned by the walk) */
    char *reason; /* e.g. "symlink loop", "FIFO", "socket", "device", "permission denied" */
};

struct ingest_walk;

/**
 * ingest_walk_paths() : expand paths into inputs. Directories are walked recursively, each
 * directory's entries in byte order of their names, symlinks followed only when they do not lead
 * back into a directory being walked. Hidden files are included.
 * A named path (as opposed to one found inside a directory) that cannot be opened makes the call
 * return AZ_FAIL with the reason in *walk's error, but the walk still holds every other input.
 * @return AZ_OK, or AZ_FAIL when at least one named path could not be opened.
 * *out: caller frees with ingest_walk_free().
 */
enum az_status ingest_walk_paths(const char *const *paths, size_t npaths, struct ingest_walk **out);
size_t ingest_walk_count(const struct ingest_walk *w);
/* Borrowed, valid until ingest_walk_free(). */
const struct ingest_entry *ingest_walk_entry(const struct ingest_walk *w, size_t i);
size_t ingest_walk_skip_count(const struct ingest_walk *w);
const struct ingest_skip *ingest_walk_skip(const struct ingest_walk *w, size_t i);
/* "PATH: reason" for each named path that could not be opened, one per line; "" when none. */
const char *ingest_walk_error(const struct ingest_walk *w);
void ingest_walk_free(struct ingest_walk *w);

/* ---- reading one input ---- */

/* A read callback, modelled on archive_read_callback: fill buf with up to cap bytes.
 * @return bytes read (0 at end of input), or -1 on error (with a reason in *err, static text). */
typedef long (*ingest_read_fn)(void *ctx, void *buf, size_t cap, const char **err);

struct ingest_member {
    const char *display;     /* "run.tar.zst:job42/dmesg.log.gz", or the input's display path */
    const char *name;        /* the member's own base name, a hint for classification */
    const char *compression; /* outermost codec seen on the way to this member: "gzip", "zstd",
                                "xz", "bzip2", "lz4", other libarchive filter names, or "none" */
    const char *container;   /* "tar", "zip", ... or "none" */
    const char *head;        /* first decoded bytes of the member (not consumed) */
    size_t head_len;         /* up to 64 KiB, less only when the member is shorter */
};

struct ingest_line {
    const char *text; /* borrowed; escape sequences removed; no line terminator */
    size_t len;
    uint64_t lineno; /* 1-based physical (LF) line number in the member */
    int cut;         /* 1 when the record was longer than max_line and was cut */
};

struct ingest_stats {
    uint64_t bytes_in;  /* bytes read from the file or stdin */
    uint64_t bytes_out; /* decoded bytes delivered (all members) */
    uint64_t records;   /* records delivered */
    uint64_t cut_lines; /* records cut at max_line */
    uint64_t members;   /* members opened */
    uint64_t skipped;   /* members skipped (binary, corrupt, bomb, depth) */
};

struct ingest_reader;

/**
 * ingest_reader_open() : open path ("-" is standard input) with the given options.
 * display is the path to report ("<stdin>" for "-" when NULL).
 * @return AZ_OK, or AZ_FAIL when the path cannot be opened (reason in the reader's error:
 * the reader is still returned and must be freed).
 */
enum az_status ingest_reader_open(struct ingest_reader **out, const char *path, const char *display,
                                  const struct ingest_options *opts);
/* Same over a read callback (tests inject failing reads with it); size is the input's size for
 * the bomb cap, 0 when unknown. The callback context must outlive the reader. */
enum az_status ingest_reader_open_cb(struct ingest_reader **out, ingest_read_fn fn, void *ctx,
                                     uint64_t size, const char *display,
                                     const struct ingest_options *opts);

/**
 * ingest_reader_next_member() : advance to the next member.
 * @return AZ_OK (m filled), AZ_EOF (no more members), AZ_FAIL (this member is skipped: binary,
 * corrupt header, too deep; call again for the next), AZ_FATAL (the input cannot go on: e.g. a
 * corrupt archive whose next header cannot be found). m's pointers are borrowed until the next
 * call to ingest_reader_next_member().
 */
enum az_status ingest_reader_next_member(struct ingest_reader *r, struct ingest_member *m);

/**
 * ingest_reader_next_line() : next record of the current member.
 * @return AZ_OK, AZ_WARN (a cut record, still delivered in *line), AZ_EOF (end of member),
 * AZ_FAIL (the member's stream broke: truncated or corrupt compressed data, a bomb; reason in the
 * error). line->text is borrowed until the next call on r.
 */
enum az_status ingest_reader_next_line(struct ingest_reader *r, struct ingest_line *line);

/**
 * ingest_reader_skip_empty() : consume the empty records that come next in the current member
 * (blank lines, lone CRs, CRLFs, records of nothing but escape sequences), at most max, without
 * delivering each: what as many ingest_reader_next_line() calls returning an empty, uncut record
 * would do (they are counted in the stats), in a tight loop, so a bomb of empty lines costs
 * about a byte's worth each. Stops at the first record with content or cut at max_line, at the
 * end of the member, or when the member breaks (the next ingest_reader_next_line() then reports
 * it). Call it only after a record was delivered.
 * @return the number consumed; when > 0, *lineno is the line number of the last one.
 */
uint64_t ingest_reader_skip_empty(struct ingest_reader *r, uint64_t max, uint64_t *lineno);

/* "display: reason" for the last AZ_FAIL/AZ_FATAL; "" when none. Borrowed. */
const char *ingest_reader_error(const struct ingest_reader *r);
const struct ingest_stats *ingest_reader_stats(const struct ingest_reader *r);
void ingest_reader_free(struct ingest_reader *r);

/* ---- writing a bundle (gotcha collect) ---- */

/* The first line of the report a bundle carries: a member of an archive that starts with it is
 * passed over silently, so a scan of the bundle reads the run, not its diagnosis; such a file
 * named on its own is skipped (AZ_FAIL, "gotcha's own report"). */
#define INGEST_OWN_REPORT_MARK "<!-- gotcha collect: the report of this bundle, not an input -->"

struct ingest_bundle;

/**
 * ingest_bundle_create() : start a tar (pax) archive compressed with zstd at path, which the
 * readers above read back member by member.
 * @return AZ_OK, or AZ_FAIL (reason in ingest_bundle_error()). Free *out with
 * ingest_bundle_free() either way.
 */
enum az_status ingest_bundle_create(struct ingest_bundle **out, const char *path);
/* Add a regular member name of size bytes read from data (at its current position).
 * @return AZ_OK or AZ_FAIL (the bundle is then unusable). */
enum az_status ingest_bundle_add_file(struct ingest_bundle *b, const char *name, FILE *data,
                                      uint64_t size, int64_t mtime);
/* Finish the archive (flush and close the file). @return AZ_OK or AZ_FAIL. */
enum az_status ingest_bundle_close(struct ingest_bundle *b);
/* Why the last call failed, without the bundle's or the member's name (the caller says which):
 * "No space left on device". Borrowed; "" when no error. */
const char *ingest_bundle_error(const struct ingest_bundle *b);
void ingest_bundle_free(struct ingest_bundle *b);

/* Versions of the linked libzstd ("1.5.4") and libarchive ("libarchive 3.6.2 ..."). Static. */
const char *ingest_zstd_version(void);
const char *ingest_archive_version(void);

#endif /* INGEST_H */
