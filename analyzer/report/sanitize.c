/*
 * report/sanitize.c - making log text safe to show: on a terminal (no control sequence gets
 * through), as UTF-8, as HTML, and with secrets and identities redacted.
 */
#include <stdint.h>
#include <string.h>

#include "report/report.h"
#include "report/report_private.h"

/* Length of the valid UTF-8 sequence at p (1..4) with its code point in *cp, or 0 when the bytes
 * there are not valid UTF-8 (overlong forms, surrogates and values past U+10FFFF included). */
static size_t utf8_decode(const unsigned char *p, size_t len, uint32_t *cp)
{
    unsigned char b = p[0];
    size_t n;
    uint32_t v, min;
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    if (b >= 0xc2 && b <= 0xdf) {
        n = 2;
        v = b & 0x1fu;
        min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
        n = 3;
        v = b & 0x0fu;
        min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
        n = 4;
        v = b & 0x07u;
        min = 0x10000;
    } else {
        return 0;
    }
    if (len < n) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        v = (v << 6) | (p[i] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
    *cp = v;
    return n;
}

/* Code points that reorder or hide text without being controls: bidi embeddings, overrides and
 * isolates (the "Trojan Source" characters), zero-width characters, the BOM, interlinear
 * annotation marks. Shown as escapes so what a terminal shows is what the log holds. */
static int is_invisible_format(uint32_t cp)
{
    return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x061c ||
           cp == 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb);
}

void report_sanitize_terminal(struct az_buf *out, const char *p, size_t len)
{
    const unsigned char *s = (const unsigned char *)p;
    size_t i = 0;
    az_buf_ensure(out, len);
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            az_buf_printf(out, "\\x%02x", s[i]);
            i++;
        } else if (cp == '\t') {
            az_buf_putc(out, '\t');
            i++;
        } else if (cp < 0x20 || cp == 0x7f) {
            az_buf_printf(out, "\\x%02x", (unsigned)cp);
            i++;
        } else if ((cp >= 0x80 && cp <= 0x9f) || is_invisible_format(cp)) {
            az_buf_printf(out, "\\u%04x", (unsigned)cp);
            i += n;
        } else {
            az_buf_append(out, s + i, n);
            i += n;
        }
    }
}

void rpt_utf8_clean(struct az_buf *out, const char *p, size_t len)
{
    const unsigned char *s = (const unsigned char *)p;
    size_t i = 0, run = 0;
    az_buf_ensure(out, len);
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            az_buf_append(out, s + run, i - run);
            az_buf_printf(out, "\\x%02x", s[i]);
            i++;
            run = i;
        } else {
            i += n;
        }
    }
    az_buf_append(out, s + run, len - run);
}

void rpt_html_escape(struct az_buf *out, const char *p, size_t len)
{
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        const char *rep = NULL;
        switch (p[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        default: break;
        }
        if (!rep) continue;
        az_buf_append(out, p + run, i - run);
        az_buf_puts(out, rep);
        run = i + 1;
    }
    az_buf_append(out, p + run, len - run);
}

size_t rpt_columns(const char *p, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)p[i] & 0xc0) != 0x80) n++;
    return n;
}

size_t rpt_prefix_for_columns(const char *p, size_t len, size_t cols)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (((unsigned char)p[i] & 0xc0) != 0x80) {
            if (n == cols) return i;
            n++;
        }
    }
    return len;
}

/* ---- redaction ----
 * One left-to-right pass; at each position the matchers below are tried in order and the first
 * that recognises something there replaces it. A matcher returns the bytes it consumed (0:
 * nothing here) and says in *h how to rewrite them: keep the first `keep` bytes (a key, a
 * scheme, "/home/"), then the replacement. */
struct redact_hit {
    size_t keep;
    const char *rep;
};

static size_t hit(struct redact_hit *h, size_t keep, const char *rep, size_t consumed)
{
    h->keep = keep;
    h->rep = rep;
    return consumed;
}

static int is_hex(unsigned char ch)
{
    return az_is_digit(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}
static int is_word(unsigned char ch)
{
    return az_is_alnum(ch) || ch == '_';
}
static unsigned char lower(unsigned char ch)
{
    return (ch >= 'A' && ch <= 'Z') ? (unsigned char)(ch - 'A' + 'a') : ch;
}

static int ends_with_ci(const char *w, size_t wlen, const char *suffix)
{
    size_t sl = strlen(suffix);
    if (sl > wlen) return 0;
    for (size_t i = 0; i < sl; i++)
        if (lower((unsigned char)w[wlen - sl + i]) != (unsigned char)suffix[i]) return 0;
    return 1;
}

static int contains_ci(const char *w, size_t wlen, const char *needle)
{
    return az_memcasemem(w, wlen, needle, strlen(needle)) != NULL;
}

/* Bytes of a token body from p: chars in the class (alnum plus extra), at most max. */
static size_t span_token(const char *p, size_t len, const char *extra)
{
    size_t i = 0;
    while (i < len && (az_is_alnum((unsigned char)p[i]) || (p[i] && strchr(extra, p[i])))) i++;
    return i;
}

/* Keys whose value is a secret: "HF_TOKEN=...", "password: ...", "--api-key X",
 * "aws_secret_access_key = ...". Special-token settings of tokenizers ("pad_token=<pad>") and
 * counters ("max_tokens") are not secrets. */
static int is_secret_key(const char *w, size_t wlen)
{
    static const char *const suffixes[] = {"password",    "passwd",     "secret",     "api_key",
                                           "apikey",      "api-key",    "access_key", "secret_key",
                                           "private_key", "access-key", "secret-key", "token"};
    static const char *const not_secret[] = {"pad",   "eos",   "bos",     "unk", "sep",
                                             "cls",   "mask",  "special", "max", "num",
                                             "image", "start", "end"};
    for (size_t i = 0; i < AZ_ARRAY_LEN(suffixes); i++) {
        if (!ends_with_ci(w, wlen, suffixes[i])) continue;
        if (strcmp(suffixes[i], "token") == 0)
            for (size_t k = 0; k < AZ_ARRAY_LEN(not_secret); k++)
                if (contains_ci(w, wlen, not_secret[k])) return 0;
        return 1;
    }
    return 0;
}

static size_t redact_key_value(struct redact_hit *h, const char *p, size_t len)
{
    size_t w = 0;
    int dashed = 0;
    if (len >= 2 && p[0] == '-' && p[1] == '-') {
        dashed = 1;
        w = 2;
    }
    size_t wstart = w;
    while (w < len && (is_word((unsigned char)p[w]) || p[w] == '-' || p[w] == '.')) w++;
    if (w == wstart || !is_secret_key(p + wstart, w - wstart)) return 0;
    size_t i = w;
    if (i < len && (p[i] == '"' || p[i] == '\'')) i++; /* "password": "x" */
    while (i < len && p[i] == ' ') i++;
    if (i < len && (p[i] == '=' || p[i] == ':')) {
        i++;
    } else if (!(dashed && i > w)) {
        return 0; /* only "--key VALUE" may go without = or : */
    }
    while (i < len && (p[i] == ' ' || p[i] == '\t')) i++;
    size_t vstart = i;
    char quote = 0;
    if (i < len && (p[i] == '"' || p[i] == '\'')) {
        quote = p[i];
        vstart = ++i;
        while (i < len && p[i] != quote) i++;
    } else {
        while (i < len && p[i] != ' ' && p[i] != '\t' && !strchr("\"',;&)}]>", p[i])) i++;
    }
    if (i == vstart) return 0;
    /* "token: 5 steps" is a count, not a secret worth hiding; a key of a real secret has one of
     * several characters. Short purely numeric values are kept. */
    int numeric = 1;
    for (size_t k = vstart; k < i; k++)
        if (!az_is_digit((unsigned char)p[k])) numeric = 0;
    if (numeric && i - vstart < 6) return 0;
    return hit(h, vstart, "<redacted>", i);
}

static size_t redact_prefixed_token(struct redact_hit *h, const char *p, size_t len)
{
    static const struct {
        const char *prefix;
        const char *extra; /* allowed besides alnum */
        size_t min;        /* body length */
    } kinds[] = {
        {"hf_", "", 30},          {"sk-proj-", "_-", 20}, {"sk-", "_-", 20},
        {"github_pat_", "_", 22}, {"ghp_", "", 30},       {"gho_", "", 30},
        {"ghu_", "", 30},         {"ghs_", "", 30},       {"ghr_", "", 30},
    };
    for (size_t k = 0; k < AZ_ARRAY_LEN(kinds); k++) {
        size_t pl = strlen(kinds[k].prefix);
        if (len < pl || memcmp(p, kinds[k].prefix, pl) != 0) continue;
        size_t body = span_token(p + pl, len - pl, kinds[k].extra);
        if (body < kinds[k].min) continue;
        return hit(h, 0, "<redacted>", pl + body);
    }
    /* AWS access key ids: AKIA (long-term) / ASIA (temporary) + 16 upper-case alnum. */
    if (len >= 20 && (memcmp(p, "AKIA", 4) == 0 || memcmp(p, "ASIA", 4) == 0)) {
        size_t i = 4;
        while (i < 20 && ((p[i] >= 'A' && p[i] <= 'Z') || az_is_digit((unsigned char)p[i]))) i++;
        if (i == 20 && (len == 20 || !az_is_alnum((unsigned char)p[20]))) {
            return hit(h, 0, "<redacted>", 20);
        }
    }
    return 0;
}

static size_t redact_bearer(struct redact_hit *h, const char *p, size_t len)
{
    static const char *const schemes[] = {"bearer ", "basic "};
    for (size_t k = 0; k < AZ_ARRAY_LEN(schemes); k++) {
        size_t sl = strlen(schemes[k]);
        if (len <= sl || az_memcasemem(p, sl, schemes[k], sl) != p) continue;
        size_t i = sl;
        while (i < len && p[i] == ' ') i++;
        size_t body = span_token(p + i, len - i, "._~+/=-");
        if (body < 8) continue;
        return hit(h, i, "<redacted>", i + body);
    }
    return 0;
}

static size_t redact_home(struct redact_hit *h, const char *p, size_t len)
{
    const char *prefix = NULL;
    if (az_starts_with(p, len, "/home/"))
        prefix = "/home/";
    else if (az_starts_with(p, len, "/Users/"))
        prefix = "/Users/";
    if (!prefix) return 0;
    size_t pl = strlen(prefix), i = pl;
    while (i < len && p[i] != '/' && p[i] != ' ' && p[i] != '\t' && !strchr("\"':;,)]}>", p[i]))
        i++;
    if (i == pl) return 0;
    return hit(h, pl, "<user>", i);
}

/* MAC address: six hex pairs joined all by ':' or all by '-'. Dash-joined digit-only groups are
 * more often dates and counters than MACs, so those need a hex letter. */
static size_t redact_mac(struct redact_hit *h, const char *p, size_t len)
{
    if (len < 17) return 0;
    char sep = p[2];
    if (sep != ':' && sep != '-') return 0;
    int letter = 0;
    for (size_t g = 0; g < 6; g++) {
        const char *q = p + g * 3;
        if (!is_hex((unsigned char)q[0]) || !is_hex((unsigned char)q[1])) return 0;
        if (!az_is_digit((unsigned char)q[0]) || !az_is_digit((unsigned char)q[1])) letter = 1;
        if (g < 5 && q[2] != sep) return 0;
    }
    if (len > 17 && (az_is_alnum((unsigned char)p[17]) || p[17] == sep)) return 0;
    if (sep == '-' && !letter) return 0;
    return hit(h, 0, "<mac>", 17);
}

/* Dotted quad at p, each octet 0..255; its length or 0. */
static size_t parse_ipv4(const char *p, size_t len)
{
    size_t i = 0;
    for (int octet = 0; octet < 4; octet++) {
        if (octet > 0) {
            if (i >= len || p[i] != '.') return 0;
            i++;
        }
        size_t start = i;
        unsigned v = 0;
        while (i < len && az_is_digit((unsigned char)p[i]) && i - start < 4)
            v = v * 10 + (unsigned)(p[i++] - '0');
        if (i == start || i - start > 3 || v > 255) return 0;
    }
    return i;
}

/* An IPv4 is four dotted octets not glued to more digits or dots: "2.9.0.1.5" is no address, but
 * a version "2.9.0.1" is indistinguishable from one and is replaced (documented). */
static size_t redact_ipv4(struct redact_hit *h, const char *p, size_t len)
{
    size_t n = parse_ipv4(p, len);
    if (n == 0) return 0;
    if (n < len && az_is_digit((unsigned char)p[n])) return 0;
    if (n + 1 < len && p[n] == '.' && az_is_digit((unsigned char)p[n + 1])) return 0;
    return hit(h, 0, "<ip>", n);
}

/* IPv6: hex groups of 1-4 digits joined by ':', with one "::" or exactly eight groups, at least
 * two colons, optionally ending in a dotted quad. Clock times "10:12:55" have three groups and no
 * "::", so they never qualify; C++ scopes "c10::Error" fail on the letter that follows. */
static size_t redact_ipv6(struct redact_hit *h, const char *p, size_t len)
{
    size_t i = 0, groups = 0, colons = 0;
    int dcolon = 0;
    if (len >= 2 && p[0] == ':' && p[1] == ':') {
        dcolon = 1;
        colons = 2;
        i = 2;
    }
    for (;;) {
        size_t start = i;
        while (i < len && is_hex((unsigned char)p[i]) && i - start < 5) i++;
        size_t g = i - start;
        if (g > 4) return 0;
        if (g > 0 && i < len && p[i] == '.') { /* trailing IPv4, "::ffff:10.0.0.1" */
            size_t n = parse_ipv4(p + start, len - start);
            if (n == 0) return 0;
            i = start + n;
            groups += 2;
            break;
        }
        if (g == 0) {
            if (i == 0 || !dcolon || p[i - 1] != ':') return 0;
            break; /* "fe80::" ends with the double colon */
        }
        groups++;
        if (i + 1 < len && p[i] == ':' && p[i + 1] == ':') {
            if (dcolon) return 0;
            dcolon = 1;
            colons += 2;
            i += 2;
            continue;
        }
        if (i + 1 < len && p[i] == ':' && is_hex((unsigned char)p[i + 1])) {
            colons++;
            i++;
            continue;
        }
        break;
    }
    if (colons < 2 || groups > 8 || (!dcolon && groups != 8) || (dcolon && groups > 7)) return 0;
    if (i < len && (az_is_alnum((unsigned char)p[i]) || p[i] == ':' || p[i] == '_')) return 0;
    return hit(h, 0, "<ip>", i);
}

static int is_host_char(unsigned char ch)
{
    return az_is_alnum(ch) || ch == '-' || ch == '_';
}

static size_t redact_host(struct redact_hit *h, const char *p, size_t len, const char *const *hosts,
                          size_t nhosts)
{
    size_t best = 0;
    for (size_t k = 0; k < nhosts; k++) {
        size_t hl = hosts[k] ? strlen(hosts[k]) : 0;
        if (hl < 2 || hl > len || hl <= best) continue;
        if (az_memcasemem(p, hl, hosts[k], hl) != p) continue;
        if (hl < len && is_host_char((unsigned char)p[hl])) continue;
        best = hl;
    }
    return best ? hit(h, 0, "<host>", best) : 0;
}

void report_redact(struct az_buf *out, const char *p, size_t len, const char *const *hosts,
                   size_t nhosts)
{
    size_t i = 0, run = 0;
    az_buf_ensure(out, len);
    while (i < len) {
        unsigned char prev = i ? (unsigned char)p[i - 1] : ' ';
        const char *q = p + i;
        size_t rest = len - i, n = 0;
        struct redact_hit h = {0, ""};
        if (!is_word(prev) && prev != '-' && prev != '.') {
            n = redact_key_value(&h, q, rest);
            if (!n) n = redact_prefixed_token(&h, q, rest);
        }
        if (!n && !az_is_alnum(prev)) n = redact_bearer(&h, q, rest);
        if (!n && q[0] == '/') n = redact_home(&h, q, rest);
        if (!n && !az_is_alnum(prev) && prev != ':' && prev != '-') n = redact_mac(&h, q, rest);
        if (!n && !az_is_alnum(prev) && prev != ':' && prev != '_') n = redact_ipv6(&h, q, rest);
        if (!n && !az_is_digit(prev) && prev != '.') n = redact_ipv4(&h, q, rest);
        if (!n && !is_host_char(prev) && nhosts) n = redact_host(&h, q, rest, hosts, nhosts);
        if (!n) {
            i++;
            continue;
        }
        az_buf_append(out, p + run, i - run + h.keep);
        az_buf_puts(out, h.rep);
        i += n;
        run = i;
    }
    az_buf_append(out, p + run, len - run);
}
