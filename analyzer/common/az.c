/* common/az.c - see az.h. */
#include "common/az.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void az_oom(void)
{
    fputs("gotcha: out of memory\n", stderr);
    exit(2);
}

void *az_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) az_oom();
    return p;
}

void *az_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) az_oom();
    return p;
}

void *az_xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q) az_oom();
    return q;
}

char *az_xstrdup(const char *s)
{
    return az_xstrndup(s, strlen(s));
}

char *az_xstrndup(const char *s, size_t n)
{
    char *p = az_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *az_xasprintf(const char *fmt, ...)
{
    struct az_buf b = AZ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    az_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    return az_buf_steal(&b);
}

void az_grow(void **items, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap) return;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem_size) az_oom();
        ncap *= 2;
    }
    *items = az_xrealloc(*items, ncap * elem_size);
    *cap = ncap;
}

void az_buf_ensure(struct az_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1) az_oom();
    size_t need = b->len + extra + 1;
    if (need <= b->cap) return;
    size_t ncap = b->cap ? b->cap : 64;
    while (ncap < need) ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
    b->data = az_xrealloc(b->data, ncap);
    b->cap = ncap;
    b->data[b->len] = '\0';
}

void az_buf_append(struct az_buf *b, const void *p, size_t n)
{
    az_buf_ensure(b, n);
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void az_buf_putc(struct az_buf *b, char c)
{
    az_buf_ensure(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

void az_buf_puts(struct az_buf *b, const char *s)
{
    az_buf_append(b, s, strlen(s));
}

void az_buf_vprintf(struct az_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    az_buf_ensure(b, 64);
    int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
    if (n < 0) n = 0;
    if ((size_t)n >= b->cap - b->len) {
        az_buf_ensure(b, (size_t)n);
        vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap2);
    }
    va_end(ap2);
    b->len += (size_t)n;
}

void az_buf_printf(struct az_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    az_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void az_buf_reset(struct az_buf *b)
{
    b->len = 0;
    if (b->cap) b->data[0] = '\0';
}

char *az_buf_steal(struct az_buf *b)
{
    if (!b->data) return az_xstrdup("");
    char *p = b->data;
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

void az_buf_free(struct az_buf *b)
{
    if (!b) return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* Howard Hinnant's days_from_civil: exact for the proleptic Gregorian calendar. */
int64_t az_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

void az_civil_from_days(int64_t z, int64_t *year, unsigned *month, unsigned *day)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = (unsigned)(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t y = (int64_t)yoe + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    *year = y + (m <= 2);
    *month = m;
    *day = d;
}

int64_t az_usec_from_civil(int64_t year, unsigned month, unsigned day, unsigned hour, unsigned min,
                           unsigned sec, unsigned usec)
{
    int64_t days = az_days_from_civil(year, month, day);
    return ((days * 24 + hour) * 60 + min) * 60 * INT64_C(1000000) + (int64_t)sec * 1000000 + usec;
}

#define AZ_USEC_PER_DAY (INT64_C(86400) * 1000000)

struct az_time az_time_set_year(struct az_time t, int64_t year)
{
    if (t.kind != AZ_TIME_NOYEAR) return t;
    int64_t y2000 = az_days_from_civil(2000, 1, 1);
    int64_t days = t.usec / AZ_USEC_PER_DAY;
    int64_t rem = t.usec % AZ_USEC_PER_DAY;
    int64_t y;
    unsigned m, d;
    az_civil_from_days(y2000 + days, &y, &m, &d);
    /* Feb 29 in a year without one becomes Mar 1, as a clock would read it. */
    int64_t nd = az_days_from_civil(year, m, d);
    struct az_time r = {nd * AZ_USEC_PER_DAY + rem, AZ_TIME_ABS};
    return r;
}

int64_t az_time_year(struct az_time t)
{
    int64_t days = t.usec / AZ_USEC_PER_DAY - (t.usec < 0 && t.usec % AZ_USEC_PER_DAY);
    int64_t y;
    unsigned m, d;
    if (t.kind == AZ_TIME_NOYEAR) days += az_days_from_civil(2000, 1, 1);
    az_civil_from_days(days, &y, &m, &d);
    return y;
}

char *az_time_format(struct az_time t, int with_ms, char *out, size_t outsz)
{
    if (outsz == 0) return out;
    out[0] = '\0';
    if (t.kind == AZ_TIME_NONE) return out;
    if (t.kind == AZ_TIME_BOOT) {
        snprintf(out, outsz, "+%lld.%06llds", (long long)(t.usec / 1000000),
                 (long long)(t.usec % 1000000));
        return out;
    }
    int64_t usec = t.usec;
    int64_t days = usec / AZ_USEC_PER_DAY;
    int64_t rem = usec % AZ_USEC_PER_DAY;
    if (rem < 0) {
        rem += AZ_USEC_PER_DAY;
        days -= 1;
    }
    if (t.kind == AZ_TIME_NOYEAR) days += az_days_from_civil(2000, 1, 1);
    int64_t y;
    unsigned m, d;
    az_civil_from_days(days, &y, &m, &d);
    unsigned hh = (unsigned)(rem / 3600000000LL), mm = (unsigned)(rem / 60000000LL % 60),
             ss = (unsigned)(rem / 1000000 % 60), ms = (unsigned)(rem / 1000 % 1000);
    if (t.kind == AZ_TIME_NOYEAR)
        snprintf(out, outsz, "%02u-%02u %02u:%02u:%02u", m, d, hh, mm, ss);
    else
        snprintf(out, outsz, "%04lld-%02u-%02u %02u:%02u:%02u", (long long)y, m, d, hh, mm, ss);
    if (with_ms) {
        size_t n = strlen(out);
        snprintf(out + n, outsz - n, ".%03u", ms);
    }
    return out;
}

char *az_time_format_clock(struct az_time t, char *out, size_t outsz)
{
    if (outsz == 0) return out;
    out[0] = '\0';
    if (t.kind == AZ_TIME_ABS || t.kind == AZ_TIME_NOYEAR) {
        int64_t rem = t.usec % AZ_USEC_PER_DAY;
        if (rem < 0) rem += AZ_USEC_PER_DAY;
        snprintf(out, outsz, "%02u:%02u:%02u", (unsigned)(rem / 3600000000LL),
                 (unsigned)(rem / 60000000LL % 60), (unsigned)(rem / 1000000 % 60));
    } else if (t.kind == AZ_TIME_BOOT) {
        snprintf(out, outsz, "+%llds", (long long)(t.usec / 1000000));
    }
    return out;
}

const char *az_memcasemem(const char *p, size_t len, const char *needle, size_t nlen)
{
    if (nlen == 0) return p;
    if (nlen > len) return NULL;
    unsigned char first = (unsigned char)tolower((unsigned char)needle[0]);
    for (size_t i = 0; i + nlen <= len; i++) {
        if ((unsigned char)tolower((unsigned char)p[i]) != first) continue;
        size_t j = 1;
        while (j < nlen && tolower((unsigned char)p[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == nlen) return p + i;
    }
    return NULL;
}

int az_starts_with(const char *p, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return n <= len && memcmp(p, prefix, n) == 0;
}

int az_parse_size(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-') return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) return -1;
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case '\0': break;
    case 'K':
        shift = 10;
        end++;
        break;
    case 'M':
        shift = 20;
        end++;
        break;
    case 'G':
        shift = 30;
        end++;
        break;
    case 'T':
        shift = 40;
        end++;
        break;
    default: return -1;
    }
    if (*end == 'i' || *end == 'I') end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return -1;
    if (shift && v > (UINT64_MAX >> shift)) return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

uint64_t az_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}
