/*
 * tokenize/tok_time.c - the timestamp, level and lane of a record. See tok.h.
 *
 * tok_parse_time() runs on every record of a scan: it takes the stamp a prefix carried
 * (tok_prefix.c) or dispatches on the first byte of the body, reads fixed-width digit fields by
 * hand (no strtol, no locale, no allocation) and gives up at the first byte that does not fit.
 */
#include <string.h>

#include "tokenize/tok_private.h"

#define TOK_USEC_PER_SEC INT64_C(1000000)

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int is_upper(unsigned char c)
{
    return c >= 'A' && c <= 'Z';
}

static int is_alnum(unsigned char c)
{
    return is_digit(c) || is_upper(c) || (c >= 'a' && c <= 'z');
}

static int is_host_char(unsigned char c)
{
    return is_alnum(c) || c == '-' || c == '_' || c == '.';
}

/* Exactly n digits at p[i..]; 1 and *out on success. */
static int read_digits(const char *p, size_t len, size_t i, unsigned n, unsigned *out)
{
    if (i + n > len) return 0;
    unsigned v = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned char c = (unsigned char)p[i + k];
        if (!is_digit(c)) return 0;
        v = v * 10 + (unsigned)(c - '0');
    }
    *out = v;
    return 1;
}

static unsigned days_in_month(unsigned year, unsigned month)
{
    static const unsigned char mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) return 29;
    return mdays[month - 1];
}

static int valid_date(unsigned year, unsigned month, unsigned day)
{
    return month >= 1 && month <= 12 && day >= 1 && day <= days_in_month(year, month);
}

/* "HH:MM:SS" at p[i..]; *next is just past it. Second 60 (a leap second) is accepted. */
static int read_clock(const char *p, size_t len, size_t i, unsigned *h, unsigned *m, unsigned *s,
                      size_t *next)
{
    if (i + 8 > len || p[i + 2] != ':' || p[i + 5] != ':') return 0;
    if (!read_digits(p, len, i, 2, h) || !read_digits(p, len, i + 3, 2, m) ||
        !read_digits(p, len, i + 6, 2, s))
        return 0;
    if (*h > 23 || *m > 59 || *s > 60) return 0;
    *next = i + 8;
    return 1;
}

/* An optional ".123456" or ",123" fraction at p[i..]; returns the offset past it. */
static size_t read_fraction(const char *p, size_t len, size_t i, unsigned *usec)
{
    *usec = 0;
    if (i + 1 >= len || (p[i] != '.' && p[i] != ',') || !is_digit((unsigned char)p[i + 1]))
        return i;
    size_t j = i + 1;
    unsigned v = 0, n = 0;
    while (j < len && is_digit((unsigned char)p[j])) {
        if (n < 6) {
            v = v * 10 + (unsigned)(p[j] - '0');
            n++;
        }
        j++;
    }
    while (n < 6) {
        v *= 10;
        n++;
    }
    *usec = v;
    return j;
}

/* Month from a three-letter English abbreviation, 0 when none. */
static unsigned month_from_abbr(const char *p, size_t len, size_t i)
{
    static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    if (i + 3 > len) return 0;
    for (unsigned m = 0; m < 12; m++)
        if (p[i] == names[3 * m] && p[i + 1] == names[3 * m + 1] && p[i + 2] == names[3 * m + 2])
            return m + 1;
    return 0;
}

static int is_weekday_abbr(const char *p, size_t len, size_t i)
{
    static const char names[] = "MonTueWedThuFriSatSun";
    if (i + 3 > len) return 0;
    for (unsigned d = 0; d < 7; d++)
        if (p[i] == names[3 * d] && p[i + 1] == names[3 * d + 1] && p[i + 2] == names[3 * d + 2])
            return 1;
    return 0;
}

/* Usec of a year-less wall clock, counted from 2000-01-01 (see AZ_TIME_NOYEAR). */
static int64_t noyear_usec(unsigned month, unsigned day, unsigned h, unsigned m, unsigned s,
                           unsigned usec)
{
    int64_t days = az_days_from_civil(2000, month, day) - az_days_from_civil(2000, 1, 1);
    return ((days * 24 + h) * 60 + m) * 60 * TOK_USEC_PER_SEC + (int64_t)s * TOK_USEC_PER_SEC +
           usec;
}

static struct az_time make_abs(unsigned y, unsigned mo, unsigned d, unsigned h, unsigned mi,
                               unsigned s, unsigned us)
{
    struct az_time t = {az_usec_from_civil(y, mo, d, h, mi, s, us), AZ_TIME_ABS};
    return t;
}

static struct az_time make_noyear(unsigned mo, unsigned d, unsigned h, unsigned mi, unsigned s,
                                  unsigned us)
{
    struct az_time t = {noyear_usec(mo, d, h, mi, s, us), AZ_TIME_NOYEAR};
    return t;
}

static const struct az_time tok_no_time = {0, AZ_TIME_NONE};

/* "2026-11-29[T ]10:12:55[.frac][zone]" or "2026/11/29 10:12:55.123" at p[i..]. */
static struct az_time parse_iso(const char *p, size_t len, size_t i, size_t *end, enum tok_fmt *fmt)
{
    unsigned y, mo, d, h, mi, s, us;
    if (i + 19 > len) return tok_no_time;
    char sep = p[i + 4];
    if ((sep != '-' && sep != '/') || p[i + 7] != sep) return tok_no_time;
    if (!read_digits(p, len, i, 4, &y) || !read_digits(p, len, i + 5, 2, &mo) ||
        !read_digits(p, len, i + 8, 2, &d))
        return tok_no_time;
    if (y < 1970 || y > 2199 || !valid_date(y, mo, d)) return tok_no_time;
    char t = p[i + 10];
    if (!(t == ' ' || (t == 'T' && sep == '-'))) return tok_no_time;
    size_t j;
    if (!read_clock(p, len, i + 11, &h, &mi, &s, &j)) return tok_no_time;
    j = read_fraction(p, len, j, &us);
    /* The zone is read past, not applied: see AZ_TIME_ABS. */
    if (j < len && p[j] == 'Z') {
        j++;
    } else if (j + 3 <= len && (p[j] == '+' || p[j] == '-') && is_digit((unsigned char)p[j + 1]) &&
               is_digit((unsigned char)p[j + 2])) {
        j += 3;
        if (j + 3 <= len && p[j] == ':' && is_digit((unsigned char)p[j + 1]) &&
            is_digit((unsigned char)p[j + 2]))
            j += 3;
        else if (j + 2 <= len && is_digit((unsigned char)p[j]) && is_digit((unsigned char)p[j + 1]))
            j += 2;
    }
    if (j < len && is_alnum((unsigned char)p[j])) return tok_no_time;
    *end = j;
    *fmt = t == 'T' ? TOK_FMT_ISO_T : TOK_FMT_ISO;
    return make_abs(y, mo, d, h, mi, s, us);
}

/* nvidia-smi dmon -o DT: "20261129   10:12:55". */
static struct az_time parse_dmon(const char *p, size_t len, size_t i, size_t *end,
                                 enum tok_fmt *fmt)
{
    unsigned y, mo, d, h, mi, s;
    if (!read_digits(p, len, i, 4, &y) || !read_digits(p, len, i + 4, 2, &mo) ||
        !read_digits(p, len, i + 6, 2, &d))
        return tok_no_time;
    size_t j = i + 8;
    if (j >= len || p[j] != ' ') return tok_no_time;
    while (j < len && p[j] == ' ') j++;
    if (y < 1970 || y > 2199 || !valid_date(y, mo, d)) return tok_no_time;
    if (!read_clock(p, len, j, &h, &mi, &s, &j)) return tok_no_time;
    if (j < len && is_alnum((unsigned char)p[j])) return tok_no_time;
    *end = j;
    *fmt = TOK_FMT_DMON;
    return make_abs(y, mo, d, h, mi, s, 0);
}

/* Raw dmesg "[  123.456789]": p[i..] is past the bracket and its padding. */
static struct az_time parse_boot(const char *p, size_t len, size_t i, size_t *end,
                                 enum tok_fmt *fmt)
{
    size_t j = i;
    int64_t sec = 0;
    while (j < len && is_digit((unsigned char)p[j]) && j - i < 12) {
        sec = sec * 10 + (p[j] - '0');
        j++;
    }
    if (j == i || j >= len || p[j] != '.' || j + 1 >= len || !is_digit((unsigned char)p[j + 1]))
        return tok_no_time;
    unsigned us;
    j = read_fraction(p, len, j, &us);
    if (j >= len || p[j] != ']') return tok_no_time;
    *end = j;
    *fmt = TOK_FMT_BOOT;
    struct az_time t = {sec * TOK_USEC_PER_SEC + us, AZ_TIME_BOOT};
    return t;
}

/* Length of a glog date "1129" (MMDD) or PyTorch c10's unpadded "321" (MDD) at p[i..], 0 if none;
 * sets *mo and *d. */
static size_t glog_date(const char *p, size_t len, size_t i, unsigned *mo, unsigned *d)
{
    size_t n = 0;
    while (i + n < len && n < 5 && is_digit((unsigned char)p[i + n])) n++;
    if ((n != 3 && n != 4) || i + n >= len || p[i + n] != ' ') return 0;
    if (!read_digits(p, len, i, (unsigned)(n - 2), mo) || !read_digits(p, len, i + n - 2, 2, d))
        return 0;
    return valid_date(2000, *mo, *d) ? n : 0;
}

/* glog / PyTorch C++ / torchrun "I1129 10:12:55.123456", "[E321 02:07:08.408271257". */
static struct az_time parse_glog(const char *p, size_t len, size_t i, size_t *end,
                                 enum tok_fmt *fmt)
{
    unsigned mo, d, h, mi, s, us;
    size_t n = glog_date(p, len, i + 1, &mo, &d);
    if (!n) return tok_no_time;
    size_t j;
    if (!read_clock(p, len, i + 2 + n, &h, &mi, &s, &j)) return tok_no_time;
    j = read_fraction(p, len, j, &us);
    if (j < len && is_alnum((unsigned char)p[j])) return tok_no_time;
    *end = j;
    *fmt = TOK_FMT_GLOG;
    return make_noyear(mo, d, h, mi, s, us);
}

/* syslog "Nov 29 10:12:55", "Nov  1 10:12:55.123456" (journalctl short-precise). */
static struct az_time parse_syslog(const char *p, size_t len, size_t i, size_t *end,
                                   enum tok_fmt *fmt)
{
    unsigned mo = month_from_abbr(p, len, i), d, h, mi, s, us;
    if (!mo || i + 4 >= len || p[i + 3] != ' ') return tok_no_time;
    size_t j = i + 4;
    if (p[j] == ' ') j++;
    if (read_digits(p, len, j, 2, &d))
        j += 2;
    else if (read_digits(p, len, j, 1, &d))
        j += 1;
    else
        return tok_no_time;
    if (j >= len || p[j] != ' ' || !valid_date(2000, mo, d)) return tok_no_time;
    if (!read_clock(p, len, j + 1, &h, &mi, &s, &j)) return tok_no_time;
    j = read_fraction(p, len, j, &us);
    if (j < len && is_alnum((unsigned char)p[j])) return tok_no_time;
    *end = j;
    *fmt = TOK_FMT_SYSLOG;
    return make_noyear(mo, d, h, mi, s, us);
}

/* ctime / dmesg -T "Sat Nov 29 10:12:55 2026" (day may be space-padded). */
static struct az_time parse_ctime(const char *p, size_t len, size_t i, size_t *end,
                                  enum tok_fmt *fmt)
{
    if (!is_weekday_abbr(p, len, i) || i + 4 >= len || p[i + 3] != ' ') return tok_no_time;
    enum tok_fmt inner;
    size_t j;
    struct az_time t = parse_syslog(p, len, i + 4, &j, &inner);
    if (t.kind == AZ_TIME_NONE) return tok_no_time;
    unsigned y;
    if (j >= len || p[j] != ' ' || !read_digits(p, len, j + 1, 4, &y)) return tok_no_time;
    if (y < 1970 || y > 2199) return tok_no_time;
    j += 5;
    if (j < len && is_alnum((unsigned char)p[j])) return tok_no_time;
    int64_t yy;
    unsigned mo, d;
    az_civil_from_days(t.usec / (86400 * TOK_USEC_PER_SEC) + az_days_from_civil(2000, 1, 1), &yy,
                       &mo, &d);
    if (!valid_date(y, mo, d)) return tok_no_time; /* Feb 29 of a common year */
    struct az_time abs = az_time_set_year(t, y);
    *end = j;
    *fmt = TOK_FMT_CTIME;
    return abs;
}

struct az_time tok_mmdd_at(const char *p, size_t len, size_t i, size_t *end)
{
    unsigned mo, d, h, mi, s, us;
    size_t j = i;
    if (!read_digits(p, len, j, 2, &mo) || j + 2 >= len || p[j + 2] != '-' ||
        !read_digits(p, len, j + 3, 2, &d) || j + 5 >= len || p[j + 5] != ' ')
        return tok_no_time;
    if (!valid_date(2000, mo, d)) return tok_no_time;
    if (!read_clock(p, len, j + 6, &h, &mi, &s, &j)) return tok_no_time;
    j = read_fraction(p, len, j, &us);
    if (j < len && is_alnum((unsigned char)p[j])) return tok_no_time;
    *end = j;
    return make_noyear(mo, d, h, mi, s, us);
}

/* TensorRT's and TensorRT-LLM's Python logger stamp, strftime "%m/%d/%Y-%H:%M:%S":
 * "07/08/2025-19:47:15" (tensorrt_llm/logger.py). */
struct az_time tok_slash_stamp_at(const char *p, size_t len, size_t i, size_t *end)
{
    unsigned mo, d, y, h, mi, s;
    size_t j;
    if (!read_digits(p, len, i, 2, &mo) || i + 2 >= len || p[i + 2] != '/' ||
        !read_digits(p, len, i + 3, 2, &d) || i + 5 >= len || p[i + 5] != '/' ||
        !read_digits(p, len, i + 6, 4, &y) || i + 10 >= len || p[i + 10] != '-')
        return tok_no_time;
    if (y < 1970 || y > 2199 || !valid_date(y, mo, d)) return tok_no_time;
    if (!read_clock(p, len, i + 11, &h, &mi, &s, &j)) return tok_no_time;
    if (j < len && is_alnum((unsigned char)p[j])) return tok_no_time;
    *end = j;
    return make_abs(y, mo, d, h, mi, s, 0);
}

/* vLLM "INFO 11-29 10:12:55" and "WARNING 11-29 ..." with no logger source after it (the shape
 * with one is a prefix, tok_prefix.c). */
static struct az_time parse_vllm(const char *p, size_t len, size_t i, size_t *end,
                                 enum tok_fmt *fmt)
{
    static const char *const words[] = {"INFO", "DEBUG", "WARNING", "ERROR", "CRITICAL", "WARN"};
    size_t j = 0;
    for (size_t w = 0; w < AZ_ARRAY_LEN(words); w++) {
        size_t n = strlen(words[w]);
        if (i + n < len && memcmp(p + i, words[w], n) == 0 && p[i + n] == ' ') {
            j = i + n + 1;
            break;
        }
    }
    if (!j) return tok_no_time;
    struct az_time t = tok_mmdd_at(p, len, j, end);
    if (t.kind != AZ_TIME_NONE) *fmt = TOK_FMT_VLLM;
    return t;
}

struct az_time tok_stamp_at(const char *p, size_t len, size_t i, size_t *end, enum tok_fmt *fmt)
{
    *fmt = TOK_FMT_NONE;
    if (i >= len) return tok_no_time;
    struct az_time t = tok_no_time;
    unsigned char c = (unsigned char)p[i];
    if (is_digit(c)) {
        if (i + 4 < len && is_digit((unsigned char)p[i + 4]))
            t = parse_dmon(p, len, i, end, fmt);
        else
            t = parse_iso(p, len, i, end, fmt);
    } else if (is_upper(c)) {
        if ((c == 'I' || c == 'W' || c == 'E' || c == 'F') && i + 1 < len &&
            is_digit((unsigned char)p[i + 1]))
            t = parse_glog(p, len, i, end, fmt);
        else if (month_from_abbr(p, len, i))
            t = parse_syslog(p, len, i, end, fmt);
        else if (is_weekday_abbr(p, len, i))
            t = parse_ctime(p, len, i, end, fmt);
        else
            t = parse_vllm(p, len, i, end, fmt);
    }
    if (t.kind == AZ_TIME_NONE) *fmt = TOK_FMT_NONE;
    return t;
}

/* Past leading blanks and a "<6>" syslog priority at p[i..]. */
static size_t skip_blanks_priority(const char *p, size_t len, size_t i)
{
    while (i < len && (p[i] == ' ' || p[i] == '\t')) i++;
    if (i + 2 < len && p[i] == '<' && is_digit((unsigned char)p[i + 1])) {
        size_t j = i + 1;
        while (j < len && j - i <= 3 && is_digit((unsigned char)p[j])) j++;
        if (j < len && p[j] == '>') i = j + 1;
    }
    return i;
}

/* The stamp a body p[from..len) starts with: blanks, a priority and one '[' may come first. */
static struct az_time parse_time_fmt(const char *p, size_t len, size_t from, size_t *end,
                                     enum tok_fmt *fmt)
{
    *fmt = TOK_FMT_NONE;
    if (end) *end = 0;
    if (!p || from >= len) return tok_no_time;
    size_t i = skip_blanks_priority(p, len, from);
    int bracket = 0;
    if (i < len && p[i] == '[') {
        bracket = 1;
        i++;
    }
    if (i >= len) return tok_no_time;
    size_t e = 0;
    struct az_time t = tok_no_time;
    unsigned char c = (unsigned char)p[i];
    if (bracket && (c == ' ' || is_digit(c))) {
        size_t j = i;
        while (j < len && p[j] == ' ' && j - i < 16) j++;
        t = parse_boot(p, len, j, &e, fmt);
    }
    if (t.kind == AZ_TIME_NONE) t = tok_stamp_at(p, len, i, &e, fmt);
    if (t.kind == AZ_TIME_NONE) return t;
    if (bracket && e < len && p[e] == ']') e++;
    if (end) *end = e;
    return t;
}

struct az_time tok_record_parse(const char *p, size_t len, struct tok_prefix *pf, size_t *end)
{
    tok_prefix_strip(p, len, TOK_PREFIX_MESSAGE, pf);
    if (end) *end = 0;
    if (pf->time.kind != AZ_TIME_NONE) {
        if (end) *end = pf->time_end;
        return pf->time;
    }
    enum tok_fmt fmt;
    return parse_time_fmt(p, pf->body + pf->body_len, pf->body, end, &fmt);
}

struct az_time tok_parse_time(enum tok_kind kind, const char *p, size_t len, size_t *end)
{
    (void)kind; /* every format is tried in byte-dispatch order; no kind needs a different one */
    struct tok_prefix pf;
    return tok_record_parse(p, len, &pf, end);
}

/* ---- levels ---- */

static enum tok_level level_from_word(const char *w, size_t n, unsigned char next)
{
    switch (n) {
    case 4:
        if (memcmp(w, "INFO", 4) == 0) return TOK_LEVEL_INFO;
        if (memcmp(w, "WARN", 4) == 0) return TOK_LEVEL_WARN;
        break;
    case 5:
        if (memcmp(w, "ERROR", 5) == 0) return TOK_LEVEL_ERROR;
        if (memcmp(w, "DEBUG", 5) == 0) return TOK_LEVEL_DEBUG;
        if (memcmp(w, "FATAL", 5) == 0) return TOK_LEVEL_FATAL;
        if (memcmp(w, "error", 5) == 0 && next == ':') return TOK_LEVEL_ERROR;
        break;
    case 7:
        if (memcmp(w, "WARNING", 7) == 0) return TOK_LEVEL_WARN;
        if (memcmp(w, "warning", 7) == 0 && next == ':') return TOK_LEVEL_WARN;
        break;
    case 8:
        if (memcmp(w, "CRITICAL", 8) == 0) return TOK_LEVEL_FATAL;
        break;
    case 9:
        if (memcmp(w, "Traceback", 9) == 0 && next == ' ') return TOK_LEVEL_ERROR;
        break;
    default: break;
    }
    /* Python exceptions and warnings: "RuntimeError: ...", "torch.OutOfMemoryError: ...",
     * "FutureWarning: ...". */
    if (next == ':' || next == '\0') {
        if (n > 5 && memcmp(w + n - 5, "Error", 5) == 0) return TOK_LEVEL_ERROR;
        if (n > 9 && memcmp(w + n - 9, "Exception", 9) == 0) return TOK_LEVEL_ERROR;
        if (n > 7 && memcmp(w + n - 7, "Warning", 7) == 0) return TOK_LEVEL_WARN;
    }
    return TOK_LEVEL_NONE;
}

/* A structured log's level field: {"level":"warn", ...} (zap, logrus, bunyan's string levels),
 * "severity" or "lvl" keys, in the first JSON_LEVEL_SPAN bytes of an object; the value read
 * case-insensitively. */
#define JSON_LEVEL_SPAN 200
static enum tok_level json_level(const char *p, size_t len)
{
    static const char *const keys[] = {"\"level\":", "\"severity\":", "\"lvl\":"};
    static const struct {
        const char *word;
        enum tok_level level;
    } words[] = {
        {"debug", TOK_LEVEL_DEBUG},    {"trace", TOK_LEVEL_DEBUG}, {"info", TOK_LEVEL_INFO},
        {"notice", TOK_LEVEL_INFO},    {"warn", TOK_LEVEL_WARN},   {"warning", TOK_LEVEL_WARN},
        {"error", TOK_LEVEL_ERROR},    {"err", TOK_LEVEL_ERROR},   {"fatal", TOK_LEVEL_FATAL},
        {"critical", TOK_LEVEL_FATAL}, {"panic", TOK_LEVEL_FATAL}, {"dpanic", TOK_LEVEL_FATAL}};
    size_t span = AZ_MIN(len, (size_t)JSON_LEVEL_SPAN);
    for (size_t k = 0; k < AZ_ARRAY_LEN(keys); k++) {
        const char *at = az_memcasemem(p, span, keys[k], strlen(keys[k]));
        if (!at) continue;
        size_t v = (size_t)(at - p) + strlen(keys[k]);
        while (v < len && p[v] == ' ') v++;
        if (v >= len || p[v] != '"') continue;
        size_t e = ++v;
        while (e < len && e - v < 10 && p[e] != '"') e++;
        if (e >= len || p[e] != '"') continue;
        for (size_t w = 0; w < AZ_ARRAY_LEN(words); w++) {
            size_t n = strlen(words[w].word);
            if (e - v != n) continue;
            size_t i = 0;
            while (i < n && (p[v + i] | 0x20) == words[w].word[i]) i++;
            if (i == n) return words[w].level;
        }
    }
    return TOK_LEVEL_NONE;
}

enum tok_level tok_level_word(const char *p, size_t n)
{
    return level_from_word(p, n, ' ');
}

enum tok_level tok_level_letter(unsigned char c)
{
    switch (c) {
    case 'F': return TOK_LEVEL_FATAL;
    case 'E': return TOK_LEVEL_ERROR;
    case 'W': return TOK_LEVEL_WARN;
    case 'I': return TOK_LEVEL_INFO;
    case 'V':
    case 'D': return TOK_LEVEL_DEBUG;
    default: return TOK_LEVEL_NONE;
    }
}

enum tok_level tok_level_of_priority(unsigned prio)
{
    static const enum tok_level sev[8] = {TOK_LEVEL_FATAL, TOK_LEVEL_FATAL, TOK_LEVEL_FATAL,
                                          TOK_LEVEL_ERROR, TOK_LEVEL_WARN,  TOK_LEVEL_INFO,
                                          TOK_LEVEL_INFO,  TOK_LEVEL_DEBUG};
    return sev[prio % 8];
}

enum tok_level tok_parse_level(const char *p, size_t len)
{
    if (!p || len == 0) return TOK_LEVEL_NONE;
    struct tok_prefix pf;
    tok_prefix_strip(p, len, TOK_PREFIX_MESSAGE, &pf);
    if (pf.level != TOK_LEVEL_NONE) return pf.level;
    /* the body's own words from here on */
    size_t i = pf.body;
    len = pf.body + pf.body_len;
    while (i < len && (p[i] == ' ' || p[i] == '\t')) i++;
    if (i + 2 < len && p[i] == '<' && is_digit((unsigned char)p[i + 1])) {
        size_t j = i + 1;
        unsigned prio = 0;
        while (j < len && j - i <= 3 && is_digit((unsigned char)p[j]))
            prio = prio * 10 + (unsigned)(p[j++] - '0');
        if (j < len && p[j] == '>') return tok_level_of_priority(prio);
    }
    if (i < len && p[i] == '{') {
        enum tok_level jl = json_level(p + i, len - i);
        if (jl != TOK_LEVEL_NONE) return jl;
    }
    /* glog letter: "I1129 ...", "[E1129 ...", "[W321 ..." after a rank tag, and the stamp-less
     * "[E ProcessGroupNCCL.cpp:458]" of older PyTorch. */
    size_t g = i;
    int bracket = g < len && p[g] == '[';
    g += (size_t)bracket;
    unsigned mo, d;
    if (g + 1 < len &&
        (glog_date(p, len, g + 1, &mo, &d) ||
         (bracket && p[g + 1] == ' ' && g + 2 < len && is_alnum((unsigned char)p[g + 2]) &&
          memchr(p + g, ']', AZ_MIN(len - g, (size_t)80)) &&
          memchr(p + g, ':', AZ_MIN(len - g, (size_t)80))))) {
        switch (p[g]) {
        case 'I': return TOK_LEVEL_INFO;
        case 'W': return TOK_LEVEL_WARN;
        case 'E': return TOK_LEVEL_ERROR;
        case 'F': return TOK_LEVEL_FATAL;
        default: break;
        }
    }
    /* The first level word or exception name in the body's first bytes. */
    size_t lim = AZ_MIN(len, i + (size_t)200);
    size_t j = i;
    while (j < lim) {
        unsigned char c = (unsigned char)p[j];
        if (!is_alnum(c)) {
            j++;
            continue;
        }
        size_t w = j;
        while (j < len && (is_alnum((unsigned char)p[j]) || p[j] == '_' || p[j] == '.')) j++;
        unsigned char next = j < len ? (unsigned char)p[j] : '\0';
        enum tok_level lv = level_from_word(p + w, j - w, next);
        if (lv != TOK_LEVEL_NONE) return lv;
    }
    return TOK_LEVEL_NONE;
}

/* ---- lanes ---- */

/* Append s[0..n) to out at offset at, cut to fit; returns the new length. */
static size_t put_label(char *out, size_t outsz, size_t at, const char *s, size_t n)
{
    if (at >= outsz) return at;
    size_t room = outsz - 1 - at;
    if (n > room) n = room;
    memcpy(out + at, s, n);
    out[at + n] = '\0';
    return at + n;
}

/*
 * A rank mention at p[i..] in a body: "[rank1]", "[Rank 1]", "rank1:" (the "[rank1]:" and
 * "[default1]:" prefixes are tok_prefix.c's). Sets *ds, *dn to the span of the digits.
 */
static int rank_tag_at(const char *p, size_t len, size_t i, size_t *ds, size_t *dn)
{
    int bracket = i < len && p[i] == '[';
    size_t j = i + (size_t)bracket;
    if (!(j + 4 <= len && (memcmp(p + j, "rank", 4) == 0 || memcmp(p + j, "Rank", 4) == 0 ||
                           memcmp(p + j, "RANK", 4) == 0)))
        return 0;
    j += 4;
    if (j < len && (p[j] == ' ' || p[j] == '_')) j++;
    size_t s = j;
    while (j < len && j - s < 8 && is_digit((unsigned char)p[j])) j++;
    if (j == s || j >= len) return 0;
    if (bracket ? p[j] != ']' : p[j] != ':') return 0;
    *ds = s;
    *dn = j - s;
    return 1;
}

/* NCCL "host:pid:tid [dev] NCCL ...": host span and device digits. */
static int nccl_prefix(const char *p, size_t len, size_t i, size_t *hs, size_t *hn, size_t *ds,
                       size_t *dn)
{
    size_t j = i, lim = AZ_MIN(len, i + 80);
    while (j < lim && is_host_char((unsigned char)p[j])) j++;
    if (j == i || j >= lim || p[j] != ':') return 0;
    size_t host_end = j;
    for (int field = 0; field < 2; field++) {
        size_t s = ++j;
        while (j < lim && is_digit((unsigned char)p[j])) j++;
        if (j == s || j >= lim) return 0;
        if (field == 0 && p[j] != ':') return 0;
    }
    if (j + 2 >= len || p[j] != ' ' || p[j + 1] != '[') return 0;
    j += 2;
    size_t s = j;
    while (j < len && j - s < 6 && is_digit((unsigned char)p[j])) j++;
    if (j == s || j >= len || p[j] != ']') return 0;
    *hs = i;
    *hn = host_end - i;
    *ds = s;
    *dn = j - s;
    return 1;
}

void tok_lane_src_of(const struct tok_prefix *pf, struct tok_lane_src *out)
{
    out->body = pf->body;
    out->body_len = pf->body_len;
    out->host = pf->host;
    out->rank = pf->rank;
    out->ip = pf->ip;
}

size_t tok_record_lane(const struct tok_prefix *pf, const char *p, size_t len, char *out,
                       size_t outsz)
{
    struct tok_lane_src src;
    tok_lane_src_of(pf, &src);
    return tok_lane_from(&src, p, len, out, outsz);
}

size_t tok_lane_from(const struct tok_lane_src *pf, const char *p, size_t len, char *out,
                     size_t outsz)
{
    if (!out || outsz == 0) return 0;
    out[0] = '\0';
    if (!p || len == 0) return 0;
    size_t hs = pf->host.off, hn = pf->host.len, ds = pf->rank.off, dn = pf->rank.len, at = 0;
    const char *rank_word = "rank";
    size_t end = pf->body + pf->body_len;
    size_t i = pf->body;
    while (i < end && (p[i] == ' ' || p[i] == '\t')) i++;

    size_t nhs, nhn;
    if (dn) {
        /* a prefix named the rank */
    } else if (nccl_prefix(p, end, i, &nhs, &nhn, &ds, &dn)) {
        /* The bracket is NCCL's CUDA device index on that host, not a global rank. */
        rank_word = "gpu";
        if (!hn) {
            hs = nhs;
            hn = nhn;
        }
    } else if (!rank_tag_at(p, end, i, &ds, &dn)) {
        enum tok_fmt fmt;
        size_t e = 0;
        struct az_time t = parse_time_fmt(p, end, i, &e, &fmt);
        size_t from = t.kind != AZ_TIME_NONE ? e : i;
        while (from < end && p[from] == ' ') from++;
        if (!rank_tag_at(p, end, from, &ds, &dn)) {
            /* A "[rank1]" somewhere in the head of the body (logging formats). */
            size_t lim = AZ_MIN(end, i + (size_t)160);
            dn = 0;
            for (size_t k = i; k + 6 < lim && !dn; k++) {
                const char *br = memchr(p + k, '[', lim - 6 - k); /* most records have few */
                if (!br) break;
                k = (size_t)(br - p);
                if (p[k + 1] == 'r' || p[k + 1] == 'R') (void)rank_tag_at(p, end, k, &ds, &dn);
            }
        }
    }
    if (hn) at = put_label(out, outsz, at, p + hs, AZ_MIN(hn, (size_t)40));
    if (dn) {
        if (hn) at = put_label(out, outsz, at, "/", 1);
        at = put_label(out, outsz, at, rank_word, strlen(rank_word));
        /* "rank01" and "rank1" are one lane */
        while (dn > 1 && p[ds] == '0') {
            ds++;
            dn--;
        }
        at = put_label(out, outsz, at, p + ds, dn);
    }
    return at;
}

size_t tok_parse_lane(enum tok_kind kind, const char *p, size_t len, char *out, size_t outsz)
{
    (void)kind;
    struct tok_prefix pf;
    tok_prefix_strip(p, len, TOK_PREFIX_MESSAGE, &pf);
    return tok_record_lane(&pf, p, len, out, outsz);
}
