/*
 * common/az.h - status codes, allocation, growable byte buffers and the time value shared by
 * every stage of gotcha. Depends on nothing but libc.
 *
 * Contract:
 *  - Fallible functions anywhere in gotcha return enum az_status; the object that failed keeps the
 *    error text (e.g. ingest_reader_error()), nothing here prints except az_oom().
 *  - az_xmalloc() and friends never return NULL: on exhaustion they print "gotcha: out of memory"
 *    and exit(2), the one place outside cli/ allowed to exit.
 *  - struct az_buf owns its bytes; its data pointer may move on growth, the handle never does.
 *    data is always NUL-terminated when cap > 0, so it can be used as a C string.
 *  - Everything here is thread-compatible: no global state.
 */
#ifndef AZ_H
#define AZ_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum az_status {
    AZ_OK = 0,    /* done, more may follow */
    AZ_EOF = 1,   /* nothing more: end of stream or list */
    AZ_WARN = 2,  /* one record was skipped or cut; the stream goes on */
    AZ_FAIL = 3,  /* this input is unusable; the object still works, move on to the next */
    AZ_FATAL = 4, /* the object is dead */
};

/* Propagate any status other than AZ_OK, as zstd's FORWARD_IF_ERROR does. */
#define AZ_TRY(expr)                                                                               \
    do {                                                                                           \
        enum az_status az_try_st_ = (expr);                                                        \
        if (az_try_st_ != AZ_OK) return az_try_st_;                                                \
    } while (0)

#define AZ_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define AZ_MIN(a, b)    ((a) < (b) ? (a) : (b))
#define AZ_MAX(a, b)    ((a) > (b) ? (a) : (b))

#if defined(__GNUC__) || defined(__clang__)
#define AZ_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define AZ_LIKELY(x)         __builtin_expect(!!(x), 1)
#define AZ_UNLIKELY(x)       __builtin_expect(!!(x), 0)
#else
#define AZ_PRINTF(fmt, args)
#define AZ_LIKELY(x)   (x)
#define AZ_UNLIKELY(x) (x)
#endif

/* ---- allocation: never NULL; exit(2) with "gotcha: out of memory" on failure ---- */
void *az_xmalloc(size_t size);
void *az_xcalloc(size_t n, size_t size);
void *az_xrealloc(void *p, size_t size);
/* Caller frees with free(). */
char *az_xstrdup(const char *s);
char *az_xstrndup(const char *s, size_t n);
/* printf into a new string; caller frees with free(). */
char *az_xasprintf(const char *fmt, ...) AZ_PRINTF(1, 2);
/* Grow *items (of *cap elements of elem_size) so that at least need elements fit. */
void az_grow(void **items, size_t *cap, size_t need, size_t elem_size);

/* ---- growable bytes ---- */
struct az_buf {
    char *data; /* owned; NUL-terminated when cap > 0 */
    size_t len; /* bytes used, excluding the NUL */
    size_t cap; /* bytes allocated */
};
#define AZ_BUF_INIT                                                                                \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

/* Make room for extra more bytes (plus the NUL). */
void az_buf_ensure(struct az_buf *b, size_t extra);
void az_buf_append(struct az_buf *b, const void *p, size_t n);
void az_buf_putc(struct az_buf *b, char c);
void az_buf_puts(struct az_buf *b, const char *s);
void az_buf_printf(struct az_buf *b, const char *fmt, ...) AZ_PRINTF(2, 3);
void az_buf_vprintf(struct az_buf *b, const char *fmt, va_list ap) AZ_PRINTF(2, 0);
/* Empty the buffer, keeping its memory. */
void az_buf_reset(struct az_buf *b);
/* Hand the bytes over: the caller frees the result with free(); b is left empty. Never NULL. */
char *az_buf_steal(struct az_buf *b);
void az_buf_free(struct az_buf *b);

/* ---- time ----
 * One representation for every timestamp gotcha meets. usec is microseconds:
 *  - AZ_TIME_ABS:    since the Unix epoch, wall clock as written in the log (offsets ignored: logs
 * of one run share a clock far more often than they share a zone convention);
 *  - AZ_TIME_NOYEAR: wall clock of a stamp that carries no year (syslog "Nov 29 10:12:55", vLLM
 *                    "11-29 10:12:55"), counted as if the year were 2000; the correlator moves it
 *                    into the run's year with az_time_set_year();
 *  - AZ_TIME_BOOT:   since boot (raw dmesg "[12345.678901]");
 *  - AZ_TIME_NONE:   the record has no time of its own.
 */
enum az_time_kind { AZ_TIME_NONE = 0, AZ_TIME_ABS, AZ_TIME_NOYEAR, AZ_TIME_BOOT };

struct az_time {
    int64_t usec; /* see enum az_time_kind for the origin */
    enum az_time_kind kind;
};

/* Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
int64_t az_days_from_civil(int64_t year, unsigned month, unsigned day);
/* Inverse of az_days_from_civil(). */
void az_civil_from_days(int64_t days, int64_t *year, unsigned *month, unsigned *day);
/* Microseconds since the epoch for a broken-down wall clock; no validation beyond arithmetic. */
int64_t az_usec_from_civil(int64_t year, unsigned month, unsigned day, unsigned hour, unsigned min,
                           unsigned sec, unsigned usec);
/* An AZ_TIME_NOYEAR time placed in year; other kinds are returned unchanged. */
struct az_time az_time_set_year(struct az_time t, int64_t year);
/* Year of an absolute time. */
int64_t az_time_year(struct az_time t);
/* Format t into out (at least 32 bytes):
 *  ABS "2026-11-29 10:12:55" (with ".123" when with_ms), NOYEAR "11-29 10:12:55",
 *  BOOT "+12345.678s", NONE "".
 * @return out. */
char *az_time_format(struct az_time t, int with_ms, char *out, size_t outsz);
/* Only the clock part of an absolute time, "10:12:55", into out (at least 16 bytes). */
char *az_time_format_clock(struct az_time t, char *out, size_t outsz);

/* ---- small string helpers ---- */
/* Case-insensitive search for needle (ASCII) in p[0..len); NULL if absent. */
const char *az_memcasemem(const char *p, size_t len, const char *needle, size_t nlen);

/* ASCII classes, whatever the locale (log text is bytes, not the user's language). */
static inline int az_is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}
static inline int az_is_upper(unsigned char c)
{
    return c >= 'A' && c <= 'Z';
}
static inline int az_is_alpha(unsigned char c)
{
    return az_is_upper(c) || (c >= 'a' && c <= 'z');
}
static inline int az_is_alnum(unsigned char c)
{
    return az_is_digit(c) || az_is_alpha(c);
}

/* 64-bit FNV-1a over p[0..n), continuing from h (start with AZ_FNV1A_SEED): cache keys and error
 * fingerprints, stable across runs and machines. */
#define AZ_FNV1A_SEED UINT64_C(14695981039346656037)
uint64_t az_fnv1a(uint64_t h, const void *p, size_t n);

/* The program's version when the build does not say (the Makefile passes -DGOTCHA_VERSION). */
#ifndef GOTCHA_VERSION
#define GOTCHA_VERSION "0.0.0"
#endif
/* 1 if p[0..len) starts with the NUL-terminated prefix. */
int az_starts_with(const char *p, size_t len, const char *prefix);
/* Parse a size such as "64", "64K", "1M", "1G" (binary units). 0 on success, -1 on a bad value. */
int az_parse_size(const char *s, uint64_t *out);

#endif /* AZ_H */
