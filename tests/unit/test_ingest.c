/*
 * tests/unit/test_ingest.c - ingest: walking paths, codecs and archives, records.
 *
 * Every test runs in its own temporary directory (chdir'ed into by the suite's .init). Compressed
 * fixtures are made at test time with the gzip/zstd/xz/bzip2/lz4 command-line tools; archives with
 * libarchive's write API.
 *
 * Line shapes:
 *  - XID: a Linux dmesg line from the NVIDIA driver (NVRM Xid 79, "GPU has fallen off the bus"),
 *    the shape quoted in NVIDIA's Xid catalogue and countless public bug reports.
 *  - TQDM_*: a Hugging Face Trainer progress bar as tqdm writes it: refreshes separated by CR.
 *  - OOM: the message PyTorch's CUDA caching allocator raises (torch.OutOfMemoryError).
 *  - NCCL: an NCCL INFO line as printed with NCCL_DEBUG=INFO.
 */
#include <archive.h>
#include <archive_entry.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ingest/ingest.h"

#define XID                                                                                        \
    "[  123.456789] NVRM: Xid (PCI:0000:01:00): 79, pid='<unknown>', name=<unknown>, GPU has "     \
    "fallen off the bus."
#define TQDM_10 " 10%|\xe2\x96\x88         | 50/500 [00:21<03:09,  2.38it/s]"
#define TQDM_20 " 20%|\xe2\x96\x88\xe2\x96\x88        | 100/500 [00:42<02:48,  2.38it/s]"
#define OOM                                                                                        \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "   \
    "capacity of 119.70 GiB of which 1.23 GiB is free."
#define NCCL "spark-01:2212:2298 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM"

static char g_dir[64];

static void setup(void)
{
    strcpy(g_dir, "/tmp/gotcha-ingest-XXXXXX");
    cr_assert_not_null(mkdtemp(g_dir));
    cr_assert_eq(chdir(g_dir), 0);
}

static void teardown(void)
{
    char cmd[128];
    if (chdir("/") != 0) return;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) cr_log_warn("could not remove %s", g_dir);
}

TestSuite(ingest, .init = setup, .fini = teardown);

/* ---- helpers ---- */

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "fopen %s", path);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
}

static void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

static void sh(const char *cmd)
{
    int rc = system(cmd);
    cr_assert_eq(rc, 0, "command failed (%d): %s", rc, cmd);
}

static size_t file_size(const char *path)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "stat %s", path);
    return (size_t)st.st_size;
}

/* n lines that do not compress to nothing, so truncating the compressed file cuts the data. */
static void write_varied_log(const char *path, unsigned n)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    uint32_t x = 2463534242u;
    for (unsigned i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        fprintf(f, "[%5u.%06u] step %u loss %08x grad_norm %u\n", i / 100, x % 1000000, i, x,
                x % 977);
    }
    cr_assert_eq(fclose(f), 0);
}

/* Everything a reader yields, as text: "== display comp/cont" per member, "lineno:text" per
 * record ("lineno~text" when cut), "!! error" per failure, "## FATAL" at the end if so. */
struct slurp {
    struct az_buf out;
    unsigned members, records, cuts, fails;
    enum az_status last;
    char err[1024];
    struct ingest_stats st;
};

static void slurp_reader(struct ingest_reader *r, struct slurp *s)
{
    struct ingest_member m;
    struct ingest_line l;
    enum az_status st;
    memset(s, 0, sizeof(*s));
    unsigned guard = 0;
    while ((st = ingest_reader_next_member(r, &m)) != AZ_EOF && st != AZ_FATAL) {
        cr_assert_lt(++guard, 10000u, "next_member does not end");
        if (st == AZ_FAIL) {
            s->fails++;
            az_buf_printf(&s->out, "!! %s\n", ingest_reader_error(r));
            snprintf(s->err, sizeof(s->err), "%s", ingest_reader_error(r));
            continue;
        }
        cr_assert_eq(st, AZ_OK);
        s->members++;
        az_buf_printf(&s->out, "== %s %s/%s\n", m.display, m.compression, m.container);
        while ((st = ingest_reader_next_line(r, &l)) == AZ_OK || st == AZ_WARN) {
            s->records++;
            cr_assert_eq(l.cut, st == AZ_WARN);
            if (l.cut) s->cuts++;
            if (l.len <= 200) {
                az_buf_printf(&s->out, "%llu%c", (unsigned long long)l.lineno, l.cut ? '~' : ':');
                az_buf_append(&s->out, l.text, l.len);
                az_buf_putc(&s->out, '\n');
            }
        }
        if (st == AZ_FAIL) {
            s->fails++;
            az_buf_printf(&s->out, "!! %s\n", ingest_reader_error(r));
            snprintf(s->err, sizeof(s->err), "%s", ingest_reader_error(r));
        } else {
            cr_assert_eq(st, AZ_EOF);
        }
    }
    if (st == AZ_FATAL) {
        az_buf_printf(&s->out, "## FATAL %s\n", ingest_reader_error(r));
        snprintf(s->err, sizeof(s->err), "%s", ingest_reader_error(r));
    }
    s->last = st;
    s->st = *ingest_reader_stats(r);
    if (!s->out.data) az_buf_puts(&s->out, "");
}

static void slurp_path(const char *path, const struct ingest_options *opts, struct slurp *s)
{
    struct ingest_options def;
    ingest_options_default(&def);
    struct ingest_reader *r = NULL;
    cr_assert_eq(ingest_reader_open(&r, path, NULL, opts ? opts : &def), AZ_OK, "open %s: %s", path,
                 r ? ingest_reader_error(r) : "");
    slurp_reader(r, s);
    ingest_reader_free(r);
}

static void expect_text(const char *path, const char *expected)
{
    struct slurp s;
    slurp_path(path, NULL, &s);
    cr_assert_str_eq(s.out.data, expected);
    az_buf_free(&s.out);
}

struct entry_spec {
    const char *path;
    const void *data;
    size_t len;
};

/* An archive made with libarchive's write API: format "tar" (pax) or "zip", filter "gzip" or
 * NULL. */
static void make_archive(const char *path, const char *format, const char *filter,
                         const struct entry_spec *entries, size_t n)
{
    struct archive *a = archive_write_new();
    if (strcmp(format, "zip") == 0)
        cr_assert_eq(archive_write_set_format_zip(a), ARCHIVE_OK);
    else
        cr_assert_eq(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
    if (filter && strcmp(filter, "gzip") == 0) cr_assert_eq(archive_write_add_filter_gzip(a), 0);
    cr_assert_eq(archive_write_open_filename(a, path), ARCHIVE_OK, "%s", archive_error_string(a));
    for (size_t i = 0; i < n; i++) {
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, entries[i].path);
        archive_entry_set_size(e, (la_int64_t)entries[i].len);
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        cr_assert_eq(archive_write_header(a, e), ARCHIVE_OK, "%s", archive_error_string(a));
        cr_assert_eq(archive_write_data(a, entries[i].data, entries[i].len),
                     (la_ssize_t)entries[i].len);
        archive_entry_free(e);
    }
    cr_assert_eq(archive_write_close(a), ARCHIVE_OK);
    archive_write_free(a);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    struct az_buf b = AZ_BUF_INIT;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) az_buf_append(&b, chunk, n);
    fclose(f);
    *len = b.len;
    return az_buf_steal(&b);
}

/* ---- records ---- */

Test(ingest, splits_crlf_lines)
{
    write_text("win.log", XID "\r\n" NCCL "\r\n");
    expect_text("win.log", "== win.log none/none\n1:" XID "\n2:" NCCL "\n");
}

Test(ingest, lone_cr_is_its_own_record_sharing_the_line_number)
{
    write_text("train.log", "\r" TQDM_10 "\r" TQDM_20 "\n" OOM "\n");
    expect_text("train.log",
                "== train.log none/none\n1:\n1:" TQDM_10 "\n1:" TQDM_20 "\n2:" OOM "\n");
}

Test(ingest, returns_final_line_without_newline)
{
    write_text("dmesg.log", NCCL "\n" XID);
    expect_text("dmesg.log", "== dmesg.log none/none\n1:" NCCL "\n2:" XID "\n");
}

Test(ingest, cuts_long_line_and_stays_bounded)
{
    /* A 20 MB line (a tensor dump printed without newlines), then a normal line. */
    size_t big = (size_t)20 << 20;
    FILE *f = fopen("dump.log", "w");
    cr_assert_not_null(f);
    for (size_t i = 0; i < big / 10; i++) fputs("0.1234567,", f);
    fputs("\n" XID "\n", f);
    cr_assert_eq(fclose(f), 0);

    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    struct ingest_options o;
    ingest_options_default(&o);
    struct slurp s;
    slurp_path("dump.log", &o, &s);
    getrusage(RUSAGE_SELF, &after);

    cr_assert_eq(s.records, 2u);
    cr_assert_eq(s.cuts, 1u);
    cr_assert_eq(s.st.cut_lines, 1u);
    cr_assert_not_null(strstr(s.out.data, "\n2:" XID "\n"), "%s", s.out.data);
    /* ru_maxrss is in KiB: a reader that grew its buffer to the line would add 20 MB. */
    cr_assert_lt(after.ru_maxrss - before.ru_maxrss, 8 * 1024L);
    az_buf_free(&s.out);
}

Test(ingest, cut_record_is_exactly_max_line_bytes)
{
    struct ingest_options o;
    ingest_options_default(&o);
    o.max_line = 16;
    write_text("short.log", OOM "\n" NCCL "\n");
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open(&r, "short.log", NULL, &o), AZ_OK);
    struct ingest_member m;
    struct ingest_line l;
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_OK);
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_WARN);
    cr_assert_eq(l.len, 16u);
    cr_assert_eq(memcmp(l.text, OOM, 16), 0);
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_WARN);
    cr_assert_eq(l.lineno, 2u);
    cr_assert_eq(memcmp(l.text, NCCL, 16), 0);
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_EOF);
    ingest_reader_free(r);
}

Test(ingest, removes_ansi_escape_sequences)
{
    /* Colored PyTorch/accelerate output, an OSC window title, and "ESC ( B" from tput sgr0. */
    write_text("color.log", "\x1b[1;31mERROR\x1b[0m \x1b]0;rank0\x07" OOM "\x1b(B\x1b[m\n");
    expect_text("color.log", "== color.log none/none\n1:ERROR " OOM "\n");
}

Test(ingest, passes_nul_bytes_through)
{
    static const char data[] = "kernel: \0\0\0 NVRM: GPU at PCI:0000:01:00 lost\n" XID "\n";
    write_bytes("kern.log", data, sizeof(data) - 1);
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open(&r, "kern.log", NULL, NULL), AZ_OK);
    struct ingest_member m;
    struct ingest_line l;
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_OK);
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_OK);
    size_t first = strlen("kernel: ") + 3 + strlen(" NVRM: GPU at PCI:0000:01:00 lost");
    cr_assert_eq(l.len, first);
    cr_assert_eq(memcmp(l.text, data, first), 0);
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_OK);
    cr_assert_eq(l.len, strlen(XID));
    ingest_reader_free(r);
}

Test(ingest, head_is_not_consumed)
{
    write_text("a.log", XID "\n" NCCL "\n");
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open(&r, "a.log", NULL, NULL), AZ_OK);
    struct ingest_member m;
    struct ingest_line l;
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_OK);
    cr_assert_eq(m.head_len, strlen(XID NCCL) + 2);
    cr_assert_eq(memcmp(m.head, XID "\n", strlen(XID) + 1), 0);
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_OK);
    cr_assert_eq(l.len, strlen(XID));
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_OK);
    cr_assert_eq(memcmp(m.head, XID, strlen(XID)), 0, "head still valid after next_line");
    ingest_reader_free(r);
}

Test(ingest, empty_file_is_a_member_without_lines)
{
    write_text("empty.log", "");
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open(&r, "empty.log", NULL, NULL), AZ_OK);
    struct ingest_member m;
    struct ingest_line l;
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_OK);
    cr_assert_eq(m.head_len, 0u);
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_EOF);
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_EOF);
    ingest_reader_free(r);
}

Test(ingest, skips_binary_file)
{
    size_t len;
    char *elf = read_file("/bin/sh", &len);
    write_bytes("core.log", elf, len < 100000 ? len : 100000);
    free(elf);
    struct slurp s;
    slurp_path("core.log", NULL, &s);
    cr_assert_eq(s.members, 0u);
    cr_assert_str_eq(s.err, "core.log: binary file");
    cr_assert_eq(s.st.skipped, 1u);
    az_buf_free(&s.out);
}

/* ---- codecs ---- */

static void check_codec(const char *tool, const char *ext, const char *codec)
{
    write_text("rank0.log", XID "\n" OOM "\n");
    char cmd[256], path[64], expected[1024];
    snprintf(path, sizeof(path), "rank0.log.%s", ext);
    snprintf(cmd, sizeof(cmd), "%s < rank0.log > %s", tool, path);
    sh(cmd);
    snprintf(expected, sizeof(expected), "== %s %s/none\n1:" XID "\n2:" OOM "\n", path, codec);
    expect_text(path, expected);
}

Test(ingest, reads_gzip)
{
    check_codec("gzip -c", "gz", "gzip");
}

Test(ingest, reads_zstd)
{
    check_codec("zstd -q -c", "zst", "zstd");
}

Test(ingest, reads_xz)
{
    check_codec("xz -c", "xz", "xz");
}

Test(ingest, reads_bzip2)
{
    check_codec("bzip2 -c", "bz2", "bzip2");
}

Test(ingest, reads_lz4)
{
    check_codec("lz4 -q -c", "lz4", "lz4");
}

Test(ingest, recognises_zstd_by_magic_not_name)
{
    write_text("plain", XID "\n");
    sh("zstd -q -c plain > train.log");
    expect_text("train.log", "== train.log zstd/none\n1:" XID "\n");
}

Test(ingest, reads_concatenated_zstd_frames)
{
    write_text("a", XID "\n");
    write_text("b", NCCL "\n");
    sh("zstd -q -c a > ab.zst && zstd -q -c b >> ab.zst");
    expect_text("ab.zst", "== ab.zst zstd/none\n1:" XID "\n2:" NCCL "\n");
}

Test(ingest, gzip_member_name_drops_codec_suffix)
{
    write_text("nvidia-bug-report.log", "Start of NVIDIA bug report log file.\n");
    sh("gzip nvidia-bug-report.log");
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open(&r, "nvidia-bug-report.log.gz", NULL, NULL), AZ_OK);
    struct ingest_member m;
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_OK);
    cr_assert_str_eq(m.display, "nvidia-bug-report.log.gz");
    cr_assert_str_eq(m.name, "nvidia-bug-report.log");
    cr_assert_str_eq(m.compression, "gzip");
    ingest_reader_free(r);
}

/* ---- archives ---- */

static const struct entry_spec two_logs[] = {
    {"job42/dmesg.log", XID "\n", sizeof(XID)},
    {"job42/rank0/stderr.log", OOM "\n", sizeof(OOM)},
};

Test(ingest, reads_tar_members)
{
    make_archive("run.tar", "tar", NULL, two_logs, 2);
    expect_text("run.tar", "== run.tar:job42/dmesg.log none/tar\n1:" XID
                           "\n== run.tar:job42/rank0/stderr.log none/tar\n1:" OOM "\n");
}

Test(ingest, reads_tar_gz_members)
{
    make_archive("run.tar.gz", "tar", "gzip", two_logs, 2);
    expect_text("run.tar.gz", "== run.tar.gz:job42/dmesg.log gzip/tar\n1:" XID
                              "\n== run.tar.gz:job42/rank0/stderr.log gzip/tar\n1:" OOM "\n");
}

Test(ingest, reads_tar_zst_members)
{
    make_archive("run.tar", "tar", NULL, two_logs, 2);
    sh("zstd -q --rm run.tar");
    expect_text("run.tar.zst", "== run.tar.zst:job42/dmesg.log zstd/tar\n1:" XID
                               "\n== run.tar.zst:job42/rank0/stderr.log zstd/tar\n1:" OOM "\n");
}

Test(ingest, reads_zip_members)
{
    make_archive("run.zip", "zip", NULL, two_logs, 2);
    expect_text("run.zip", "== run.zip:job42/dmesg.log none/zip\n1:" XID
                           "\n== run.zip:job42/rank0/stderr.log none/zip\n1:" OOM "\n");
}

Test(ingest, decompresses_compressed_member_inside_tar_zst)
{
    write_text("dmesg.log", XID "\n");
    sh("gzip dmesg.log");
    size_t gz_len;
    char *gz = read_file("dmesg.log.gz", &gz_len);
    struct entry_spec entries[] = {
        {"job42/dmesg.log.gz", gz, gz_len},
        {"job42/train.log", NCCL "\n", sizeof(NCCL)},
    };
    make_archive("run.tar", "tar", NULL, entries, 2);
    free(gz);
    sh("zstd -q --rm run.tar");
    expect_text("run.tar.zst", "== run.tar.zst:job42/dmesg.log.gz zstd/tar\n1:" XID
                               "\n== run.tar.zst:job42/train.log zstd/tar\n1:" NCCL "\n");
}

Test(ingest, caps_nesting_depth)
{
    write_text("x.log", XID "\n");
    sh("gzip -c x.log | gzip -c | gzip -c | gzip -c > four.gz");
    sh("gzip -c four.gz > five.gz");
    expect_text("four.gz", "== four.gz gzip/none\n1:" XID "\n");
    struct slurp s;
    slurp_path("five.gz", NULL, &s);
    cr_assert_eq(s.members, 0u);
    cr_assert_str_eq(s.err, "five.gz: nested deeper than 4 levels (max_depth)");
    az_buf_free(&s.out);
}

/* Each nesting depth up to the limit is read and each past it is refused with the message,
 * zstd frames (one level each) and a tar among them. The innermost layer is a codec, so the
 * refusal comes from the check before a layer is pushed, not from the one after an archive. */
Test(ingest, nesting_depth_each_level_to_past_the_limit)
{
    write_text("x.log", XID "\n");
    sh("cp x.log z0");
    for (unsigned depth = 1; depth <= 6; depth++) {
        char cmd[128], path[32], want[256];
        snprintf(cmd, sizeof(cmd), "zstd -q -c z%u > z%u", depth - 1, depth);
        sh(cmd);
        snprintf(path, sizeof(path), "z%u", depth);
        struct slurp s;
        slurp_path(path, NULL, &s);
        if (depth <= 4) {
            snprintf(want, sizeof(want), "== z%u zstd/none\n1:" XID "\n", depth);
            cr_expect_str_eq(s.out.data, want, "depth %u", depth);
        } else {
            snprintf(want, sizeof(want), "z%u: nested deeper than 4 levels (max_depth)", depth);
            cr_expect_eq(s.members, 0u, "depth %u", depth);
            cr_expect_str_eq(s.err, want, "depth %u", depth);
            cr_expect_eq(s.st.skipped, 1u, "depth %u", depth);
        }
        az_buf_free(&s.out);
    }
    /* gzip filters stack in one libarchive layer, and libarchive peels the zstd frame inside
     * them too: three gzips around it are four levels (read), four are five (refused once the
     * archive is opened) */
    sh("gzip -c z1 | gzip -c | gzip -c > g3 && gzip -c g3 > g4");
    struct slurp g;
    slurp_path("g3", NULL, &g);
    cr_expect_str_eq(g.out.data, "== g3 gzip/none\n1:" XID "\n");
    az_buf_free(&g.out);
    slurp_path("g4", NULL, &g);
    cr_expect_eq(g.members, 0u);
    cr_expect_str_eq(g.err, "g4: nested deeper than 4 levels (max_depth)");
    az_buf_free(&g.out);
    /* the same refusal below an archive layer of stacked filters: a tar.gz.gz is one libarchive
     * layer of three levels, so its zstd member is the fourth and a zstd frame inside that
     * member is refused; the layer count (three of five) does not stop it */
    sh("cp z1 m1.zst && cp z2 m2.zst && tar cf inner.tar m1.zst m2.zst && "
       "gzip -c inner.tar | gzip -c > inner.tar.gz.gz");
    slurp_path("inner.tar.gz.gz", NULL, &g);
    cr_expect_str_eq(g.out.data,
                     "== inner.tar.gz.gz:m1.zst gzip/tar\n1:" XID
                     "\n!! inner.tar.gz.gz:m2.zst: nested deeper than 4 levels (max_depth)\n");
    az_buf_free(&g.out);
    /* a tar (one level) of zstd members: tar + 3 zstd is 4, tar + 4 is refused */
    sh("tar cf t.tar z3 z4");
    struct slurp s;
    slurp_path("t.tar", NULL, &s);
    cr_expect_str_eq(s.out.data, "== t.tar:z3 zstd/tar\n1:" XID
                                 "\n!! t.tar:z4: nested deeper than 4 levels (max_depth)\n");
    az_buf_free(&s.out);
}

/* A lead byte followed by a byte outside 80..BF starts no character: a head of such pairs is
 * binary, the same head with valid sequences is text. The invalid shapes are those of Markus
 * Kuhn's UTF-8 decoder stress test (a bad 2nd, 3rd and 4th byte). */
Test(ingest, invalid_utf8_continuation_counts_as_binary)
{
    static const struct {
        const char *seq, *valid;
    } cases[] = {
        {"\xc3\x28 ", "\xc3\xa9 "},                 /* 2 bytes: e-acute */
        {"\xe2\x28\xa1 ", "\xe2\x82\xac "},         /* 3 bytes: euro sign, bad 2nd */
        {"\xe2\x82\x28 ", "\xe2\x96\x88 "},         /* bad 3rd; a tqdm block */
        {"\xf0\x90\x8c\x28 ", "\xf0\x9f\x9a\x80 "}, /* bad 4th; a rocket emoji */
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        for (int valid = 0; valid < 2; valid++) {
            struct az_buf b = AZ_BUF_INIT;
            for (int i = 0; i < 2000; i++) az_buf_puts(&b, valid ? cases[c].valid : cases[c].seq);
            az_buf_putc(&b, '\n');
            write_bytes("enc.log", b.data, b.len);
            az_buf_free(&b);
            struct slurp s;
            slurp_path("enc.log", NULL, &s);
            if (valid) {
                cr_expect_eq(s.members, 1u, "case %zu valid: %s", c, s.err);
                cr_expect_eq(s.records, 1u, "case %zu", c);
            } else {
                cr_expect_eq(s.members, 0u, "case %zu invalid read as text", c);
                cr_expect_str_eq(s.err, "enc.log: binary file", "case %zu", c);
            }
            az_buf_free(&s.out);
        }
    }
}

/* ---- broken input ---- */

static void check_truncated(const char *tool, const char *ext, const char *expect_err)
{
    write_varied_log("big.log", 50000);
    char cmd[256], path[64];
    snprintf(path, sizeof(path), "big.log.%s", ext);
    snprintf(cmd, sizeof(cmd),
             "%s < big.log > full && head -c $(( $(stat -c %%s full) / 2 )) "
             "full > %s",
             tool, path);
    sh(cmd);
    struct slurp s;
    slurp_path(path, NULL, &s);
    cr_assert_eq(s.members, 1u, "%s", s.err);
    cr_assert_gt(s.records, 1000u, "lines before the damage are delivered");
    cr_assert_lt(s.records, 50000u);
    cr_assert_str_eq(s.err, expect_err);
    cr_assert_eq(s.st.skipped, 1u);
    cr_assert_eq(s.last, AZ_EOF);
    az_buf_free(&s.out);
}

Test(ingest, truncated_gzip_fails_after_lines)
{
    check_truncated("gzip -c", "gz", "big.log.gz: truncated gzip data");
}

Test(ingest, truncated_zstd_fails_after_lines)
{
    check_truncated("zstd -q -c", "zst", "big.log.zst: truncated zstd data");
}

Test(ingest, truncated_xz_fails_after_lines)
{
    check_truncated("xz -c", "xz", "big.log.xz: truncated xz data");
}

Test(ingest, truncated_bzip2_fails_after_lines)
{
    check_truncated("bzip2 -1 -c", "bz2", "big.log.bz2: truncated bzip2 data");
}

Test(ingest, corrupt_zstd_reports_reason)
{
    write_varied_log("big.log", 50000);
    sh("zstd -q -c big.log > big.zst");
    /* Overwrite bytes in the middle of the frame. */
    int fd = open("big.zst", O_WRONLY);
    cr_assert_geq(fd, 0);
    cr_assert_eq(pwrite(fd, "\xff\xff\xff\xff\xff\xff\xff\xff", 8, (off_t)file_size("big.zst") / 2),
                 8);
    close(fd);
    struct slurp s;
    slurp_path("big.zst", NULL, &s);
    cr_assert_not_null(strstr(s.err, "big.zst: corrupt zstd data"), "%s", s.err);
    az_buf_free(&s.out);
}

Test(ingest, corrupt_tar_header_stops_archive)
{
    static char filler[3000];
    memset(filler, 'x', sizeof(filler) - 1);
    filler[sizeof(filler) - 1] = '\n';
    struct entry_spec entries[] = {
        {"a.log", XID "\n", sizeof(XID)},
        {"b.log", filler, sizeof(filler)},
        {"c.log", NCCL "\n", sizeof(NCCL)},
    };
    make_archive("run.tar", "tar", NULL, entries, 3);
    /* Find b.log's header and ruin it (checksum and all). */
    size_t len;
    char *tar = read_file("run.tar", &len);
    size_t off = 0;
    for (size_t i = 0; i + 5 < len; i += 512)
        if (memcmp(tar + i, "b.log", 5) == 0) off = i;
    cr_assert_gt(off, 0u);
    memset(tar + off, 'Z', 512);
    write_bytes("run.tar", tar, len);
    free(tar);

    struct slurp s;
    slurp_path("run.tar", NULL, &s);
    cr_assert(strncmp(s.out.data, "== run.tar:a.log none/tar\n1:" XID "\n",
                      strlen("== run.tar:a.log none/tar\n1:" XID "\n")) == 0,
              "%s", s.out.data);
    cr_assert_eq(s.fails, 1u, "the damaged stretch is reported once: %s", s.out.data);
    cr_assert_str_eq(s.err, "run.tar: Damaged tar archive");
    cr_assert_null(strstr(s.out.data, "b.log none"), "%s", s.out.data);
    /* the member after the damaged header is found again and delivered */
    cr_assert_not_null(strstr(s.out.data, "== run.tar:c.log none/tar\n1:" NCCL "\n"), "%s",
                       s.out.data);
    cr_assert_eq(s.members, 2u, "%s", s.out.data);
    az_buf_free(&s.out);
}

Test(ingest, corrupt_zip_data_fails_member)
{
    char *big = malloc(200000);
    for (size_t i = 0; i < 200000; i++)
        big[i] = (i % 97 == 96) ? '\n' : (char)('a' + (i * 7919) % 26);
    struct entry_spec entries[] = {
        {"rank0.log", big, 200000},
        {"rank1.log", NCCL "\n", sizeof(NCCL)},
    };
    make_archive("run.zip", "zip", NULL, entries, 2);
    free(big);
    int fd = open("run.zip", O_WRONLY);
    cr_assert_geq(fd, 0);
    char junk[64];
    memset(junk, 0xA5, sizeof(junk));
    cr_assert_eq(pwrite(fd, junk, sizeof(junk), 300), (ssize_t)sizeof(junk));
    close(fd);
    struct slurp s;
    slurp_path("run.zip", NULL, &s);
    cr_assert_geq(s.fails + (s.last == AZ_FATAL), 1u, "%s", s.out.data);
    cr_assert_not_null(strstr(s.err, "run.zip"), "%s", s.out.data);
    az_buf_free(&s.out);
}

static void check_bomb(const char *tool, const char *path)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "head -c 64M /dev/zero | %s > %s", tool, path);
    sh(cmd);
    struct ingest_options o;
    ingest_options_default(&o);
    o.expand_floor = 1 << 20;
    struct slurp s;
    slurp_path(path, &o, &s);
    cr_assert_not_null(strstr(s.err, "decompression bomb? expanded past"), "%s", s.out.data);
    cr_assert_eq(strncmp(s.err, path, strlen(path)), 0);
    uint64_t cap = 64 * (uint64_t)file_size(path);
    if (cap < o.expand_floor) cap = o.expand_floor;
    cr_assert_lt(s.st.bytes_out, cap + (1 << 20), "stopped near the cap");
    cr_assert_lt(cap, (uint64_t)64 << 20, "the fixture really is a bomb for this cap");
    az_buf_free(&s.out);
}

/* The cap's edge (floor only: ratio 0): a member that expands to exactly the cap is read whole;
 * one byte more stops it with the message, as a skipped member (the reader is not dead). The
 * lines are a training loop's repeated step line; a bomb is a long run of one pattern. */
Test(ingest, bomb_cap_exact_edge)
{
    enum { CAP = 300000 }; /* a multiple of the 16-byte line */
    struct ingest_options o;
    ingest_options_default(&o);
    o.expand_floor = CAP;
    o.expand_ratio = 0;
    char cmd[256];
    snprintf(cmd, sizeof(cmd),
             "yes 'step 1 loss 2.5' | head -c %d > at.log && cp at.log over.log && "
             "printf x >> over.log && zstd -q at.log over.log",
             CAP);
    sh(cmd);
    cr_assert_eq(file_size("at.log"), (size_t)CAP);
    struct slurp s;
    slurp_path("at.log.zst", &o, &s);
    cr_expect_eq(s.fails, 0u, "%s", s.err);
    cr_expect_eq(s.records, CAP / 16u);
    cr_expect_eq(s.st.bytes_out, (uint64_t)CAP);
    az_buf_free(&s.out);
    slurp_path("over.log.zst", &o, &s);
    cr_expect_eq(s.fails, 1u);
    char want[256];
    snprintf(want, sizeof(want),
             "over.log.zst: decompression bomb? expanded past %d bytes (cap = max(%d, 0 x %zu "
             "compressed bytes))",
             CAP, CAP, file_size("over.log.zst"));
    cr_expect_str_eq(s.err, want);
    cr_expect_eq(s.st.skipped, 1u);
    cr_expect_eq(s.last, AZ_EOF, "a skipped member, not a dead reader");
    az_buf_free(&s.out);
}

Test(ingest, stops_zstd_decompression_bomb)
{
    check_bomb("zstd -q -c", "zeros.log.zst");
}

Test(ingest, stops_gzip_decompression_bomb)
{
    check_bomb("gzip -c", "zeros.log.gz");
}

/* ---- read-ahead (a decoding thread for compressed members) ---- */

/* The same input read with and without the read-ahead thread gives the same bytes. */
static void check_readahead_same(const char *path)
{
    struct ingest_options on, off;
    ingest_options_default(&on);
    ingest_options_default(&off);
    cr_assert_eq(on.readahead, 1, "on by default");
    off.readahead = 0;
    struct slurp a, b;
    slurp_path(path, &on, &a);
    slurp_path(path, &off, &b);
    cr_assert_gt(a.records, 0u);
    cr_assert_eq(a.records, b.records, "%s", path);
    cr_assert_str_eq(a.out.data, b.out.data, "%s", path);
    cr_assert_str_eq(a.err, b.err, "%s", path);
    cr_assert_eq(a.st.bytes_out, b.st.bytes_out, "%s", path);
    az_buf_free(&a.out);
    az_buf_free(&b.out);
}

Test(ingest, readahead_gives_the_same_records_and_errors)
{
    /* ~12 MB: the ring of 128 KiB slots turns over many times, and records with CR and CRLF
     * endings cross slot and buffer boundaries */
    write_varied_log("big.log", 250000);
    sh("awk 'NR % 7 == 0 { printf \"%s\\r\", $0; next } NR % 5 == 0 { printf \"%s\\r\\n\", $0; "
       "next } { print }' big.log > mixed.log");
    sh("zstd -q -c mixed.log > mixed.log.zst && gzip -c mixed.log > mixed.log.gz");
    sh("zstd -q -c big.log > full.zst && head -c $(( $(stat -c %s full.zst) / 2 )) full.zst "
       "> half.log.zst");
    check_readahead_same("mixed.log.zst");
    check_readahead_same("mixed.log.gz");
    check_readahead_same("half.log.zst"); /* the failure comes from the thread */
}

Test(ingest, readahead_member_left_early_does_not_leak_into_the_next)
{
    write_varied_log("a.log", 60000);
    write_varied_log("b.log", 60000);
    sh("sed -i 's/^/B /' b.log && tar cf run.tar a.log b.log && zstd -q --rm run.tar");
    struct ingest_options o;
    ingest_options_default(&o);
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open(&r, "run.tar.zst", NULL, &o), AZ_OK);
    struct ingest_member m;
    struct ingest_line l;
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_OK);
    cr_assert_str_eq(m.display, "run.tar.zst:a.log");
    /* past the first buffer (the head read before the member is handed out), so the
     * read-ahead thread is decoding a.log when it is left with two thirds unread */
    for (int i = 0; i < 20000; i++) cr_assert_eq(ingest_reader_next_line(r, &l), AZ_OK);
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_OK);
    cr_assert_str_eq(m.display, "run.tar.zst:b.log");
    unsigned n = 0;
    enum az_status st;
    while ((st = ingest_reader_next_line(r, &l)) == AZ_OK) {
        cr_assert(l.len > 2 && l.text[0] == 'B' && l.text[1] == ' ', "line %u of b.log: %.*s", n,
                  (int)l.len, l.text);
        cr_assert_eq(l.lineno, (uint64_t)n + 1);
        n++;
    }
    cr_assert_eq(st, AZ_EOF);
    cr_assert_eq(n, 60000u);
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_EOF);
    ingest_reader_free(r);
}

Test(ingest, readahead_reader_freed_mid_member)
{
    write_varied_log("big.log", 100000);
    sh("zstd -q big.log");
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open(&r, "big.log.zst", NULL, NULL), AZ_OK);
    struct ingest_member m;
    struct ingest_line l;
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_OK);
    for (int i = 0; i < 20000; i++) cr_assert_eq(ingest_reader_next_line(r, &l), AZ_OK);
    cr_assert_eq(l.lineno, 20000u);
    ingest_reader_free(r); /* the thread is stopped and joined, nothing leaks (make asan) */
}

/* ---- callbacks and stdin-likes ---- */

struct flaky {
    const char *data;
    size_t len, pos;
};

static long flaky_read(void *ctx, void *buf, size_t cap, const char **err)
{
    struct flaky *f = ctx;
    if (f->pos == f->len) {
        *err = "connection reset by peer";
        return -1;
    }
    size_t n = f->len - f->pos < cap ? f->len - f->pos : cap;
    if (n > 7) n = 7; /* short reads, like a pipe */
    memcpy(buf, f->data + f->pos, n);
    f->pos += n;
    return (long)n;
}

Test(ingest, callback_failing_mid_stream_reports_its_reason)
{
    struct flaky f = {XID "\n" NCCL "\n", sizeof(XID NCCL) + 1, 0};
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open_cb(&r, flaky_read, &f, 0, "ssh:node01/dmesg", NULL), AZ_OK);
    struct slurp s;
    slurp_reader(r, &s);
    ingest_reader_free(r);
    cr_assert_str_eq(s.out.data, "== ssh:node01/dmesg none/none\n1:" XID "\n2:" NCCL
                                 "\n!! ssh:node01/dmesg: connection reset by peer\n");
    az_buf_free(&s.out);
}

Test(ingest, named_fifo_is_read_like_stdin, .timeout = 20)
{
    cr_assert_eq(mkfifo("pipe", 0600), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fd = open("pipe", O_WRONLY);
        if (fd < 0) _exit(1);
        const char msg[] = XID "\n";
        _exit(write(fd, msg, sizeof(msg) - 1) == (ssize_t)sizeof(msg) - 1 ? 0 : 1);
    }
    expect_text("pipe", "== pipe none/none\n1:" XID "\n");
    int status;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- walking ---- */

static void touch(const char *path, const char *text)
{
    write_text(path, text);
}

static struct az_buf walk_listing(const char *const *paths, size_t n, enum az_status *st_out)
{
    struct ingest_walk *w;
    enum az_status st = ingest_walk_paths(paths, n, &w);
    if (st_out) *st_out = st;
    struct az_buf b = AZ_BUF_INIT;
    for (size_t i = 0; i < ingest_walk_count(w); i++)
        az_buf_printf(&b, "%s\n", ingest_walk_entry(w, i)->display);
    for (size_t i = 0; i < ingest_walk_skip_count(w); i++)
        az_buf_printf(&b, "skip %s: %s\n", ingest_walk_skip(w, i)->path,
                      ingest_walk_skip(w, i)->reason);
    const char *err = ingest_walk_error(w);
    if (*err) az_buf_printf(&b, "error %s\n", err);
    ingest_walk_free(w);
    if (!b.data) az_buf_puts(&b, "");
    return b;
}

Test(ingest, walk_sorts_by_bytes)
{
    mkdir("logs", 0755);
    touch("logs/b.log", "b\n");
    touch("logs/a.log.1", "a1\n");
    touch("logs/B.log", "B\n");
    touch("logs/a.log", "a\n");
    touch("logs/_x", "x\n");
    const char *paths[] = {"logs/"};
    struct az_buf b = walk_listing(paths, 1, NULL);
    cr_assert_str_eq(b.data, "logs/B.log\nlogs/_x\nlogs/a.log\nlogs/a.log.1\nlogs/b.log\n");
    az_buf_free(&b);
}

Test(ingest, walk_recurses_into_directories)
{
    mkdir("run", 0755);
    mkdir("run/rank0", 0755);
    mkdir("run/rank0/nccl", 0755);
    touch("run/rank0/nccl/debug.0.log", NCCL "\n");
    touch("run/zz.log", "z\n");
    touch("run/.hidden", "h\n");
    touch("run/rank0/stderr.log", OOM "\n");
    const char *paths[] = {"run"};
    struct az_buf b = walk_listing(paths, 1, NULL);
    cr_assert_str_eq(b.data, "run/.hidden\nrun/rank0/nccl/debug.0.log\nrun/rank0/stderr.log\n"
                             "run/zz.log\n");
    az_buf_free(&b);
}

Test(ingest, walk_display_paths)
{
    mkdir("job", 0755);
    touch("job/a.log", "a\n");
    touch("single.log", "s\n");
    char abs[128];
    snprintf(abs, sizeof(abs), "%s/single.log", g_dir);
    const char *paths[] = {"./job//", abs, "-"};
    struct ingest_walk *w;
    cr_assert_eq(ingest_walk_paths(paths, 3, &w), AZ_OK);
    cr_assert_eq(ingest_walk_count(w), 3u);
    cr_assert_str_eq(ingest_walk_entry(w, 0)->display, "./job/a.log");
    cr_assert_str_eq(ingest_walk_entry(w, 0)->path, "./job/a.log");
    cr_assert_str_eq(ingest_walk_entry(w, 1)->display, abs);
    cr_assert_eq(ingest_walk_entry(w, 1)->size, 2u);
    cr_assert_str_eq(ingest_walk_entry(w, 2)->display, "<stdin>");
    cr_assert_str_eq(ingest_walk_entry(w, 2)->path, "-");
    ingest_walk_free(w);
}

Test(ingest, walk_skips_symlink_loops)
{
    mkdir("run", 0755);
    touch("run/a.log", "a\n");
    cr_assert_eq(symlink("..", "run/up"), 0);
    cr_assert_eq(symlink("self", "run/self"), 0);
    const char *paths[] = {"run"};
    struct az_buf b = walk_listing(paths, 1, NULL);
    /* "up" leads to the parent, not into run: it is walked once, run inside it is a loop. */
    cr_assert_str_eq(b.data, "run/a.log\nskip run/self: symlink loop\nskip run/up/run: symlink "
                             "loop\n");
    az_buf_free(&b);
}

Test(ingest, walk_skips_fifo_without_blocking, .timeout = 10)
{
    mkdir("run", 0755);
    touch("run/a.log", "a\n");
    cr_assert_eq(mkfifo("run/nccl.pipe", 0600), 0);
    const char *paths[] = {"run"};
    struct az_buf b = walk_listing(paths, 1, NULL);
    cr_assert_str_eq(b.data, "run/a.log\nskip run/nccl.pipe: FIFO\n");
    az_buf_free(&b);
}

Test(ingest, walk_skips_socket)
{
    mkdir("run", 0755);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof(sa));
    sa.sun_family = AF_UNIX;
    strcpy(sa.sun_path, "run/ray.sock");
    cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0, "%s", strerror(errno));
    const char *paths[] = {"run"};
    struct az_buf b = walk_listing(paths, 1, NULL);
    close(fd);
    cr_assert_str_eq(b.data, "skip run/ray.sock: socket\n");
    az_buf_free(&b);
}

Test(ingest, walk_skips_dangling_symlink)
{
    mkdir("run", 0755);
    cr_assert_eq(symlink("/nonexistent/stderr.log", "run/latest.log"), 0);
    touch("run/z.log", "z\n");
    const char *paths[] = {"run"};
    struct az_buf b = walk_listing(paths, 1, NULL);
    cr_assert_str_eq(b.data, "run/z.log\nskip run/latest.log: broken symlink\n");
    az_buf_free(&b);
}

/* walk_skips_unreadable_file: in test_boundaries.c, run as nobody when the tests run as root */

Test(ingest, walk_missing_named_path_fails_but_keeps_others)
{
    touch("here.log", "h\n");
    const char *paths[] = {"gone.log", "here.log"};
    enum az_status st;
    struct az_buf b = walk_listing(paths, 2, &st);
    cr_assert_eq(st, AZ_FAIL);
    cr_assert_str_eq(b.data, "here.log\nerror gone.log: No such file or directory\n");
    az_buf_free(&b);
}

Test(ingest, open_missing_path_fails)
{
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open(&r, "nope.log", NULL, NULL), AZ_FAIL);
    cr_assert_str_eq(ingest_reader_error(r), "nope.log: No such file or directory");
    struct ingest_member m;
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_EOF);
    ingest_reader_free(r);
}

Test(ingest, reports_library_versions)
{
    cr_assert_not_null(strchr(ingest_zstd_version(), '.'));
    cr_assert_not_null(strstr(ingest_archive_version(), "libarchive"));
}

/* ---- runs of empty records (ingest_reader_skip_empty) ---- */

struct chunked {
    const char *data;
    size_t len, pos, chunk;
};

static long chunked_read(void *ctx, void *buf, size_t cap, const char **err)
{
    (void)err;
    struct chunked *c = ctx;
    size_t n = c->len - c->pos;
    if (n > cap) n = cap;
    if (n > c->chunk) n = c->chunk;
    memcpy(buf, c->data + c->pos, n);
    c->pos += n;
    return (long)n;
}

struct rec_copy {
    char text[16];
    size_t len;
    uint64_t lineno;
    int cut;
};

static struct ingest_reader *open_chunked(struct chunked *c, size_t max_line)
{
    struct ingest_options o;
    ingest_options_default(&o);
    o.max_line = max_line;
    struct ingest_reader *r;
    cr_assert_eq(ingest_reader_open_cb(&r, chunked_read, c, 0, "tqdm.log", &o), AZ_OK);
    struct ingest_member m;
    cr_assert_eq(ingest_reader_next_member(r, &m), AZ_OK);
    return r;
}

/* Blank lines, lone CRs and CRLFs between short records, a long record cut at max_line with
 * blank lines after it, progress-bar refreshes of nothing but escape sequences (one of them
 * longer than max_line, one holding text), and an escape sequence as the last record: skipping
 * after any record (the skip may stop at a chunk boundary, inside a CRLF, or at max) consumes
 * exactly the empty records next_line() would have returned, with the same line numbers. */
Test(ingest, skip_empty_consumes_what_next_line_would_return)
{
    static const char input[] = "a\n\n\n\r\r\nb\r\r\n\r\n\n\n\n\nc\r\n\n"
                                "0123456789abcdef\n\n\r\n"
                                "\033[2K\r\033[2K\r\033[1mx\033[0m\r\033[2K\033[1A\r\n"
                                "\033[2K\033[2K\033[2K\033[2K\n\033[0m\r"
                                "d\n\r\r\r\r\r\033[0m";
    size_t n = sizeof input - 1;
    struct rec_copy want[64];
    size_t nwant = 0;
    struct chunked c0 = {input, n, 0, 4096};
    struct ingest_reader *r = open_chunked(&c0, 8);
    struct ingest_line l;
    enum az_status st;
    while ((st = ingest_reader_next_line(r, &l)) == AZ_OK || st == AZ_WARN) {
        cr_assert_lt(nwant, AZ_ARRAY_LEN(want));
        struct rec_copy *w = &want[nwant++];
        memcpy(w->text, l.text, l.len);
        w->len = l.len;
        w->lineno = l.lineno;
        w->cut = l.cut;
    }
    ingest_reader_free(r);
    cr_assert_eq(nwant, 30); /* 6 with text (two of them cut), 24 empty (one of them cut) */

    static const size_t chunks[] = {1, 2, 3, 7, 4096};
    static const uint64_t maxes[] = {1, 2, UINT64_MAX};
    for (size_t ci = 0; ci < AZ_ARRAY_LEN(chunks); ci++)
        for (size_t mi = 0; mi < AZ_ARRAY_LEN(maxes); mi++) {
            struct chunked c = {input, n, 0, chunks[ci]};
            r = open_chunked(&c, 8);
            size_t k = 0;
            uint64_t skipped_total = 0;
            while ((st = ingest_reader_next_line(r, &l)) == AZ_OK || st == AZ_WARN) {
                cr_assert_lt(k, nwant, "chunk %zu: more records than next_line alone", chunks[ci]);
                cr_assert_eq(l.len, want[k].len, "chunk %zu record %zu", chunks[ci], k);
                cr_assert_eq(memcmp(l.text, want[k].text, l.len), 0);
                cr_assert_eq(l.lineno, want[k].lineno, "chunk %zu record %zu", chunks[ci], k);
                cr_assert_eq(l.cut, want[k].cut);
                k++;
                uint64_t last = 0, got = ingest_reader_skip_empty(r, maxes[mi], &last);
                cr_assert_leq(got, maxes[mi]);
                for (uint64_t i = 0; i < got; i++) {
                    cr_assert_eq(want[k + i].len, 0u, "chunk %zu: skipped a record with text",
                                 chunks[ci]);
                    cr_assert_eq(want[k + i].cut, 0, "chunk %zu: skipped a cut record", chunks[ci]);
                }
                if (got) cr_assert_eq(last, want[k + got - 1].lineno, "chunk %zu", chunks[ci]);
                k += got;
                skipped_total += got;
            }
            cr_assert_eq(st, AZ_EOF);
            cr_assert_eq(k, nwant, "chunk %zu max %llu", chunks[ci], (unsigned long long)maxes[mi]);
            cr_assert_gt(skipped_total, 0);
            cr_assert_eq(ingest_reader_stats(r)->records, nwant); /* skipped ones count too */
            ingest_reader_free(r);
        }
}

/* tqdm/rich clearing the line before each refresh: records of nothing but "ESC[2K" are empty
 * once the escapes are removed, and are skipped as a run; one holding text stops the run. */
Test(ingest, skip_empty_takes_records_of_only_escape_sequences)
{
    static const char input[] = "x\n\033[2K\r\033[2K\r\033[2K\033[0m\r\033[2K 10%\ry\n";
    struct chunked c = {input, sizeof input - 1, 0, 4096};
    struct ingest_reader *r = open_chunked(&c, 64);
    struct ingest_line l;
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_OK);
    cr_assert_eq(l.len, 1);
    uint64_t last = 0;
    cr_assert_eq(ingest_reader_skip_empty(r, UINT64_MAX, &last), 3);
    cr_assert_eq(last, 2);
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_OK);
    cr_assert_eq(l.len, 4); /* " 10%" */
    cr_assert_eq(memcmp(l.text, " 10%", 4), 0);
    cr_assert_eq(ingest_reader_skip_empty(r, UINT64_MAX, &last), 0);
    cr_assert_eq(ingest_reader_next_line(r, &l), AZ_OK);
    cr_assert_eq(l.len, 1);
    cr_assert_eq(ingest_reader_stats(r)->records, 6);
    ingest_reader_free(r);
}
