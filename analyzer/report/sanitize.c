/*
 * report/sanitize.c - making log text safe to show: on a terminal (no control sequence gets
 * through), as UTF-8, as HTML, and with secrets and identities redacted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
 * scheme, "/home/"), then the replacement. A matcher that found a name (a user after "user=", the
 * machine of an FQDN) says where it is, so report_names_learn() can add it to the run's names and
 * the placeholder is that name's own ("<user-1>"), the same wherever the name appears. */
#define REDACT_REP_MAX  48 /* a composed replacement: "<redacted>@<host-12>" */
#define REDACT_NAME_MAX 64 /* longest user or host name taken (POSIX user names: 32) */

enum redact_kind { REDACT_HOST = 0, REDACT_USER, REDACT_KINDS };

struct redact_hit {
    size_t keep;
    const char *rep;
    int kind;                  /* REDACT_HOST / REDACT_USER when a name was found, else -1 */
    size_t name_off, name_len; /* the name, relative to the match */
    int learnable;             /* the name may stand for itself elsewhere (report_names_learn) */
    char ph[32];               /* a numbered placeholder, "<host-12>" */
    char buf[REDACT_REP_MAX];  /* rep when composed */
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

/* 1 when p[0..len) starts with word (lowercase), ASCII case ignored, its length in *wl; the
 * first byte is tested first: most positions of a log start no key. */
static int starts_ci(const char *p, size_t len, const char *word, size_t *wl)
{
    if (!len || lower((unsigned char)p[0]) != (unsigned char)word[0]) return 0;
    size_t n = strlen(word);
    if (len < n) return 0;
    for (size_t i = 1; i < n; i++)
        if (lower((unsigned char)p[i]) != (unsigned char)word[i]) return 0;
    *wl = n;
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
        size_t sl;
        if (!starts_ci(p, len, schemes[k], &sl) || len == sl) continue;
        size_t i = sl;
        while (i < len && p[i] == ' ') i++;
        size_t body = span_token(p + i, len - i, "._~+/=-");
        if (body < 8) continue;
        return hit(h, i, "<redacted>", i + body);
    }
    return 0;
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

/* ---- the run's names: hosts and users, each with its numbered placeholder ---- */

#define NAMES_MAX 256 /* per kind: a report names few machines and users; the rest is "<host>" */
#define USER_MIN  3   /* shorter user names are not replaced as bare words ("ai", "me") */
#define HOST_MIN  2

struct report_names {
    char *names[REDACT_KINDS][NAMES_MAX]; /* lowercase, sorted: the placeholder is the position */
    size_t n[REDACT_KINDS];
    uint8_t starts[256]; /* 1 for a byte some name starts with (lowercase): the cheap test */
};

static const char *const kind_word[REDACT_KINDS] = {"host", "user"};

/* Accounts that name no person: kept where they appear ("user=root", "Invalid user admin" is an
 * attack on any machine, not a user of this one). */
static int is_system_user(const char *p, size_t n)
{
    static const char *const sys[] = {"root", "nobody", "daemon", "admin", "user"};
    for (size_t i = 0; i < AZ_ARRAY_LEN(sys); i++)
        if (strlen(sys[i]) == n && az_memcasemem(p, n, sys[i], n) == p) return 1;
    return 0;
}

static int name_cmp_n(const char *a, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)a[i], y = lower((unsigned char)p[i]);
        if (!x || x != y) return x < y ? -1 : 1;
    }
    return a[n] ? 1 : 0;
}

/* 1 when p[0..n) (any case) is how the stored name s begins. */
static int prefix_of(const char *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i] || (unsigned char)s[i] != lower((unsigned char)p[i])) return 0;
    return 1;
}

/* Position of name p[0..n) among the names of kind k (0-based), or -1. */
static long names_find(const struct report_names *nm, int k, const char *p, size_t n)
{
    size_t lo = 0, hi = nm ? nm->n[k] : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = name_cmp_n(nm->names[k][mid], p, n);
        if (c == 0) return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static void names_add(struct report_names *nm, int k, const char *p, size_t n)
{
    if (n < (k == REDACT_USER ? USER_MIN : HOST_MIN) || n > REDACT_NAME_MAX) return;
    if (k == REDACT_USER && is_system_user(p, n)) return;
    if (k == REDACT_HOST && n == 9 && az_memcasemem(p, n, "localhost", 9) == p) return;
    if (names_find(nm, k, p, n) >= 0 || nm->n[k] >= NAMES_MAX) return;
    size_t at = 0;
    while (at < nm->n[k] && name_cmp_n(nm->names[k][at], p, n) < 0) at++;
    char *s = az_xstrndup(p, n);
    for (size_t i = 0; i < n; i++) s[i] = (char)lower((unsigned char)s[i]);
    memmove(&nm->names[k][at + 1], &nm->names[k][at], (nm->n[k] - at) * sizeof(char *));
    nm->names[k][at] = s;
    nm->n[k]++;
    nm->starts[(unsigned char)s[0]] = 1;
}

/* The placeholder of a name of kind k: "<host-2>" when the run's names hold it, else "<host>". */
static const char *placeholder(struct redact_hit *h, const struct report_names *nm, int k,
                               const char *p, size_t n)
{
    long i = names_find(nm, k, p, n);
    if (i < 0) return k == REDACT_HOST ? "<host>" : "<user>";
    snprintf(h->ph, sizeof h->ph, "<%s-%ld>", kind_word[k], i + 1);
    return h->ph;
}

/* A found name at p + off, n bytes: its placeholder after `keep` bytes, consumed in all. */
static size_t name_hit(struct redact_hit *h, const struct report_names *nm, int k, const char *p,
                       size_t keep, size_t off, size_t n, size_t consumed, int learnable)
{
    h->kind = k;
    h->name_off = off;
    h->name_len = n;
    h->learnable = learnable;
    return hit(h, keep, placeholder(h, nm, k, p + off, n), consumed);
}

/* ---- users ---- */

/* Bytes of a user name at p: POSIX portable names ([A-Za-z0-9._-], not starting with '-' or a
 * digit run only), at most REDACT_NAME_MAX. */
static size_t span_user(const char *p, size_t len)
{
    size_t i = 0;
    while (i < len && i < REDACT_NAME_MAX &&
           (is_word((unsigned char)p[i]) || p[i] == '.' || p[i] == '-'))
        i++;
    while (i > 0 && p[i - 1] == '.') i--; /* "for alice." ends a sentence */
    if (i == 0 || p[0] == '-' || p[0] == '.') return 0;
    int digits = 1;
    for (size_t k = 0; k < i; k++)
        if (!az_is_digit((unsigned char)p[k])) digits = 0;
    return digits ? 0 : i; /* a uid, not a name */
}

static size_t redact_email(struct redact_hit *h, const char *p, size_t len);

/* Where a user name is (case ignored):
 *  - a home directory: "/home/alice/", "/Users/alice/";
 *  - a key: "user=alice", "USER: alice", JSON "user": "alice", Slurm's "UserId=alice(1000)",
 *    pam_unix's "authentication failure; logname=%s uid=%d euid=%d tty=%s ruser=%s rhost=%s
 *    user=%s" (linux-pam v1.7.2 modules/pam_unix/support.c);
 *  - OpenSSH sshd's auth record "%s %s%s%s for %s%.100s from %.200s port %d ssh2%s%s" (authmsg
 *    Accepted/Failed/Partial, the method, "invalid user " when the account does not exist:
 *    openssh-portable 0ef0f5a auth.c), and its "Invalid user %.100s from" (auth.c);
 *  - pam_unix's "session opened for user %s(uid=%s) by %s(uid=%lu)" (pam_unix_sess.c): a name
 *    before "(uid=", or after "uid=N(" as id(1) prints it; sudo's log line "alice : TTY=".
 * A guess of a login attempt ("invalid user") is replaced but never learnt. */
static const char *const user_paths[] = {"/home/", "/Users/"};
static const char *const user_keys[] = {"user",  "username", "user_name", "logname", "ruser",
                                        "login", "userid",   "sudo_user", "owner"};
static const char *const sshd_verdicts[] = {"accepted ", "failed ", "partial "};
static const char *const user_phrases[] = {"invalid user ", "session opened for user ",
                                           "session closed for user ",
                                           "authentication failure for "};
static const char *const user_suffixes[] = {"(uid=", " : TTY="};

/* The user name at p + at: "<user-N>" after the at bytes kept; an e-mail there is "<email>".
 * learnable: the context names a real account (not a login attempt's guess, not prose after
 * "User: "), so the name is replaced wherever it appears. */
static size_t user_at(struct redact_hit *h, const struct report_names *nm, const char *p,
                      size_t len, size_t at, int learnable)
{
    size_t n = span_user(p + at, len - at);
    if (!n) return 0;
    if (at + n < len && p[at + n] == '@') {
        struct redact_hit e;
        size_t m = redact_email(&e, p + at, len - at);
        if (m) return hit(h, at, "<email>", at + m);
    }
    if (is_system_user(p + at, n)) return 0;
    return name_hit(h, nm, REDACT_USER, p, at, at, n, at + n, learnable);
}

static int cut_here(const char *p, size_t n, size_t len);

/* sshd: "Accepted publickey for alice from", "Failed password for invalid user bob from". */
static size_t user_sshd(struct redact_hit *h, const struct report_names *nm, const char *p,
                        size_t len)
{
    for (size_t k = 0; k < AZ_ARRAY_LEN(sshd_verdicts); k++) {
        size_t i;
        if (!starts_ci(p, len, sshd_verdicts[k], &i) || len == i) continue;
        size_t m = i;
        while (i < len && (az_is_alnum((unsigned char)p[i]) || p[i] == '-' || p[i] == '/')) i++;
        if (i == m || len - i < 5 || memcmp(p + i, " for ", 5) != 0) return 0;
        i += 5;
        int invalid = az_starts_with(p + i, len - i, "invalid user ");
        if (invalid) i += strlen("invalid user ");
        size_t n = span_user(p + i, len - i);
        if (!n) return 0;
        if (az_starts_with(p + i + n, len - i - n, " from "))
            return user_at(h, nm, p, len, i, !invalid);
        /* a timeline label the correlator cut within the name or " from": still the name, but
         * perhaps a part of it, so replaced and not learnt */
        size_t j = i + n, c = 0;
        while (j < len && c < 5 && p[j] == " from"[c]) j++, c++;
        return cut_here(p, j, len) ? user_at(h, nm, p, len, i, 0) : 0;
    }
    return 0;
}

static size_t user_key(struct redact_hit *h, const struct report_names *nm, const char *p,
                       size_t len)
{
    for (size_t k = 0; k < AZ_ARRAY_LEN(user_keys); k++) {
        size_t kl;
        if (!starts_ci(p, len, user_keys[k], &kl) || len == kl) continue;
        size_t i = kl;
        if (p[i] == '"' || p[i] == '\'') i++; /* JSON "user": "alice" */
        if (i >= len || (p[i] != '=' && p[i] != ':')) continue;
        int assigned = p[i++] == '='; /* "User: Hello" may be a chat turn: not learnt */
        /* "logname= uid=0": an empty value is no name; after ':' a space and a quote may come */
        while (i < len && (p[i] == '"' || p[i] == '\'' || (!assigned && p[i] == ' '))) i++;
        return user_at(h, nm, p, len, i, assigned);
    }
    return 0;
}

/* "alice(uid=1000)", "alice : TTY=pts/0", id(1)'s "uid=1000(alice)". */
static size_t user_around(struct redact_hit *h, const struct report_names *nm, const char *p,
                          size_t len)
{
    if (az_starts_with(p, len, "uid=")) {
        size_t i = 4;
        while (i < len && az_is_digit((unsigned char)p[i])) i++;
        size_t n = i > 4 && i < len && p[i] == '(' ? span_user(p + i + 1, len - i - 1) : 0;
        if (n && i + 1 + n < len && p[i + 1 + n] == ')') return user_at(h, nm, p, len, i + 1, 1);
        return 0;
    }
    size_t n = span_user(p, len);
    for (size_t k = 0; n && k < AZ_ARRAY_LEN(user_suffixes); k++)
        if (az_starts_with(p + n, len - n, user_suffixes[k])) return user_at(h, nm, p, len, 0, 1);
    return 0;
}

static size_t redact_user(struct redact_hit *h, const char *p, size_t len, unsigned char prev,
                          const struct report_names *nm)
{
    for (size_t k = 0; p[0] == '/' && k < AZ_ARRAY_LEN(user_paths); k++)
        if (az_starts_with(p, len, user_paths[k]))
            return user_at(h, nm, p, len, strlen(user_paths[k]), 1);
    if (is_word(prev) || prev == '-' || prev == '.') return 0;
    size_t n = user_sshd(h, nm, p, len);
    for (size_t k = 0; !n && k < AZ_ARRAY_LEN(user_phrases); k++) {
        size_t pl;
        if (starts_ci(p, len, user_phrases[k], &pl) && len > pl)
            n = user_at(h, nm, p, len, pl, !contains_ci(user_phrases[k], pl, "invalid"));
    }
    if (!n) n = user_key(h, nm, p, len);
    if (!n) n = user_around(h, nm, p, len);
    return n;
}

/* ---- e-mail addresses, URLs and host names ---- */

/* Top-level domains of host names seen in logs. Not the ones that read as file extensions or
 * attributes in tracebacks (".py", ".sh", ".md", ".so", ".pt", ".cc", ".ai", ".int" as in
 * "np.int", ".info" as in "logger.info", ".app", ".dev", ".home" as in "Path.home"). */
static const char *const host_tlds[] = {
    "com", "net", "org",   "edu", "gov",      "mil",      "io",   "co",          "uk",   "de",
    "fr",  "jp",  "cn",    "kr",  "ca",       "au",       "nl",   "ch",          "se",   "eu",
    "us",  "ru",  "local", "lan", "internal", "intranet", "corp", "localdomain", "cloud"};
/* Public sites whose names say where software came from, not whose machine it was: kept (a pip
 * index, a wheel URL, a model hub). Matched as the last labels of a name. */
static const char *const public_domains[] = {"pytorch.org",
                                             "pythonhosted.org",
                                             "pypi.org",
                                             "python.org",
                                             "nvidia.com",
                                             "github.com",
                                             "githubusercontent.com",
                                             "github.io",
                                             "huggingface.co",
                                             "hf.co",
                                             "docker.com",
                                             "docker.io",
                                             "nvcr.io",
                                             "anaconda.org",
                                             "anaconda.com",
                                             "conda.io",
                                             "ubuntu.com",
                                             "debian.org",
                                             "kernel.org",
                                             "googleapis.com",
                                             "readthedocs.io",
                                             "vllm.ai",
                                             "ngc.nvidia.com"};

/* Bytes of a dotted name at p (labels of [A-Za-z0-9-], not starting or ending with '-'),
 * *labels its label count, *first the length of its first label. */
static size_t span_dotted(const char *p, size_t len, size_t *labels, size_t *first)
{
    size_t i = 0, n = 0;
    *first = 0;
    for (;;) {
        size_t s = i;
        while (i < len && (az_is_alnum((unsigned char)p[i]) || p[i] == '-') && i - s < 63) i++;
        if (i == s || p[s] == '-' || p[i - 1] == '-') return 0;
        if (!n) *first = i - s;
        n++;
        if (i + 1 < len && p[i] == '.' && az_is_alnum((unsigned char)p[i + 1])) {
            i++;
            continue;
        }
        break;
    }
    *labels = n;
    return i;
}

static int has_tld(const char *p, size_t n, const char *const *tlds, size_t ntlds)
{
    for (size_t k = 0; k < ntlds; k++) {
        size_t tl = strlen(tlds[k]);
        if (n > tl && p[n - tl - 1] == '.' && ends_with_ci(p, n, tlds[k])) return 1;
    }
    return 0;
}

static int is_public(const char *p, size_t n)
{
    for (size_t k = 0; k < AZ_ARRAY_LEN(public_domains); k++) {
        size_t dl = strlen(public_domains[k]);
        if (ends_with_ci(p, n, public_domains[k]) && (n == dl || p[n - dl - 1] == '.')) return 1;
    }
    return 0;
}

/* "self.policy.net": an attribute chain of Python code (a traceback's source line), not a host;
 * one that is called, indexed or assigned ("x.y.com(", "[", "=") is code too. */
static int is_code_object(const char *p, size_t first)
{
    static const char *const objs[] = {"self", "cls", "this", "super"};
    for (size_t k = 0; k < AZ_ARRAY_LEN(objs); k++)
        if (strlen(objs[k]) == first && memcmp(p, objs[k], first) == 0) return 1;
    return 0;
}

/* 1 when p[n..len) is the "..." a timeline label ends with where the correlator cut it
 * (timeline.c snippet()): the name before it may be cut short. */
static int cut_here(const char *p, size_t n, size_t len)
{
    return len - n == 3 && memcmp(p + n, "...", 3) == 0;
}

/* local@domain.tld: "<email>" (a public domain too: the address is a person's); also one cut
 * short in a label ("alice@exam..."). */
static size_t redact_email(struct redact_hit *h, const char *p, size_t len)
{
    size_t i = 0;
    while (i < len && i <= REDACT_NAME_MAX &&
           (az_is_alnum((unsigned char)p[i]) || (p[i] && strchr("._%+-", p[i]))))
        i++;
    if (i == 0 || i >= len || p[i] != '@' || p[0] == '.') return 0;
    size_t labels, first, d = span_dotted(p + i + 1, len - i - 1, &labels, &first);
    int cut = d && cut_here(p, i + 1 + d, len);
    if (!d || ((labels < 2 || !az_is_alpha((unsigned char)p[i + d])) && !cut)) return 0;
    return hit(h, 0, "<email>", i + 1 + d);
}

/* 1 when each label of the dotted name p[0..n) after its first (first bytes) has a letter. */
static int letters_after_first(const char *p, size_t n, size_t first)
{
    int letter = 0;
    for (size_t i = first + 1; i <= n; i++) {
        if (i == n || p[i] == '.') {
            if (!letter) return 0;
            letter = 0;
        } else if (az_is_alpha((unsigned char)p[i])) {
            letter = 1;
        }
    }
    return 1;
}

/* A name of the run's machine: a host name of three or more labels ending in a known top-level
 * domain ("spark-dgx01.corp.example.com"), not a public site's: the placeholder of its first
 * label, which it also teaches report_names_learn() where it looks like a machine (a digit or a
 * '-': "dgx01", "gpu-node-7", not "www" or "api"). */
static size_t redact_fqdn(struct redact_hit *h, const char *p, size_t len,
                          const struct report_names *nm)
{
    size_t labels, first, n = span_dotted(p, len, &labels, &first);
    /* "node7.corp.exa...": cut where every label after the first has a letter (not a version,
     * "cu12-12.8.4...") */
    int cut = n && labels >= 2 && cut_here(p, n, len) && letters_after_first(p, n, first);
    if (!n || ((labels < 3 || !has_tld(p, n, host_tlds, AZ_ARRAY_LEN(host_tlds))) && !cut))
        return 0;
    if (n < len && (is_host_char((unsigned char)p[n]) || strchr("@([=", p[n]))) return 0;
    if (is_public(p, n) || is_code_object(p, first)) return 0;
    int machine = 0;
    for (size_t i = 0; i < first; i++) machine |= az_is_digit((unsigned char)p[i]) || p[i] == '-';
    return name_hit(h, nm, REDACT_HOST, p, 0, 0, first, n, machine && !cut);
}

/* scheme://[userinfo@]host: credentials in a URL become "<redacted>@"; a host that is not a
 * public site's becomes its placeholder (an address is "<ip>"), whatever its label count. */
static size_t redact_url(struct redact_hit *h, const char *p, size_t len,
                         const struct report_names *nm)
{
    size_t i = 0;
    while (i < len && i < 16 && (az_is_alnum((unsigned char)p[i]) || p[i] == '+' || p[i] == '.'))
        i++;
    if (i == 0 || !az_is_alpha((unsigned char)p[0]) || len - i < 4 || memcmp(p + i, "://", 3))
        return 0;
    size_t scheme = i + 3, at = scheme, end = scheme;
    while (end < len && !strchr("/ \t\"'<>?#", p[end])) end++;
    for (size_t k = scheme; k < end; k++)
        if (p[k] == '@') at = k + 1; /* the last '@' before the path ends the credentials */
    size_t labels, first, hn = span_dotted(p + at, len - at, &labels, &first);
    int keep_host = !hn || parse_ipv4(p + at, len - at) || is_public(p + at, hn) ||
                    (hn == 9 && az_memcasemem(p + at, 9, "localhost", 9) == p + at);
    if (keep_host) /* an address is the IP matcher's, next */
        return at == scheme ? 0 : hit(h, scheme, "<redacted>@", at);
    const char *host = placeholder(h, nm, REDACT_HOST, p + at, first);
    snprintf(h->buf, sizeof h->buf, "%s%s", at > scheme ? "<redacted>@" : "", host);
    h->kind = REDACT_HOST;
    h->name_off = at;
    h->name_len = first;
    h->learnable = 0;
    return hit(h, scheme, h->buf, at + hn);
}

/* A name the run's names hold, as a whole word ('-', '_', '.', '/' around it are boundaries: a
 * host inside "job42-spark-dgx01/dmesg-spark-dgx01.txt"): the longest one that starts here. */
static size_t redact_known(struct redact_hit *h, const char *p, size_t len,
                           const struct report_names *nm)
{
    size_t best = 0, bi = 0;
    int kind = -1;
    if (!nm->starts[lower((unsigned char)p[0])]) return 0;
    /* a word the correlator cut ("spark-dg..."): the start of a name is that name */
    size_t w = 0;
    while (w < len && is_host_char((unsigned char)p[w])) w++;
    int cut = w >= USER_MIN && cut_here(p, w, len);
    for (int k = 0; k < REDACT_KINDS; k++)
        for (size_t i = 0; i < nm->n[k]; i++) {
            const char *s = nm->names[k][i];
            size_t sl = strlen(s), n = 0;
            if (cut && sl > w && prefix_of(s, p, w))
                n = w;
            else if (sl <= len && name_cmp_n(s, p, sl) == 0 &&
                     (sl == len || !az_is_alnum((unsigned char)p[sl])))
                n = sl;
            if (n > best) {
                best = n;
                bi = i;
                kind = k;
            }
        }
    if (!best) return 0;
    h->kind = kind;
    h->name_off = 0;
    h->name_len = best;
    h->learnable = 0;
    snprintf(h->ph, sizeof h->ph, "<%s-%zu>", kind_word[kind], bi + 1);
    return hit(h, 0, h->ph, best);
}

/* The first matcher that recognises something at p[i] (see the table in docs/report.md). */
static size_t redact_at(struct redact_hit *h, const char *p, size_t len, size_t i,
                        const struct report_names *nm)
{
    unsigned char prev = i ? (unsigned char)p[i - 1] : ' ';
    const char *q = p + i;
    size_t rest = len - i, n = 0;
    h->kind = -1;
    if (!is_word(prev) && prev != '-' && prev != '.') {
        n = redact_key_value(h, q, rest);
        if (!n) n = redact_prefixed_token(h, q, rest);
    }
    if (!n && !az_is_alnum(prev)) n = redact_bearer(h, q, rest);
    if (!n && !az_is_alnum(prev)) n = redact_url(h, q, rest, nm);
    if (!n && !az_is_alnum(prev) && !strchr("._%+-", prev)) n = redact_email(h, q, rest);
    if (!n) n = redact_user(h, q, rest, prev, nm);
    if (!n && !az_is_alnum(prev) && prev != ':' && prev != '-') n = redact_mac(h, q, rest);
    if (!n && !az_is_alnum(prev) && prev != ':' && prev != '_') n = redact_ipv6(h, q, rest);
    if (!n && !az_is_digit(prev) && prev != '.') n = redact_ipv4(h, q, rest);
    if (!n && !is_host_char(prev) && prev != '.' && prev != '@') n = redact_fqdn(h, q, rest, nm);
    if (!n && !az_is_alnum(prev) && nm) n = redact_known(h, q, rest, nm);
    return n;
}

/* One pass over p: with out, each match replaced (names looked up in lookup); with learn, each
 * learnable name added to it (nothing written). */
static void redact_walk(const char *p, size_t len, const struct report_names *lookup,
                        struct az_buf *out, struct report_names *learn)
{
    size_t i = 0, run = 0;
    while (i < len) {
        struct redact_hit h;
        size_t n = redact_at(&h, p, len, i, lookup);
        if (!n) {
            i++;
            continue;
        }
        if (learn && h.kind >= 0 && h.learnable)
            names_add(learn, h.kind, p + i + h.name_off, h.name_len);
        if (out) {
            az_buf_append(out, p + run, i - run + h.keep);
            az_buf_puts(out, h.rep);
        }
        i += n;
        run = i;
    }
    if (out) az_buf_append(out, p + run, len - run);
}

void report_redact(struct az_buf *out, const char *p, size_t len, const struct report_names *nm)
{
    az_buf_ensure(out, len);
    redact_walk(p, len, nm, out, NULL);
}

struct report_names *report_names_new(const char *const *hosts, size_t nhosts)
{
    struct report_names *nm = az_xcalloc(1, sizeof *nm);
    for (size_t i = 0; i < nhosts; i++) {
        const char *s = hosts[i] ? hosts[i] : "";
        if (parse_ipv4(s, strlen(s))) continue; /* an address is "<ip>" anyway */
        const char *dot = strchr(s, '.');       /* a machine is its first label */
        names_add(nm, REDACT_HOST, s, dot ? (size_t)(dot - s) : strlen(s));
    }
    return nm;
}

void report_names_learn(struct report_names *nm, const char *p, size_t len)
{
    redact_walk(p, len, NULL, NULL, nm);
}

static void learn_str(struct report_names *nm, const char *s)
{
    if (s) report_names_learn(nm, s, strlen(s));
}

static void learn_evidence(struct report_names *nm, const struct corr_evidence *ev, size_t n)
{
    for (size_t i = 0; ev && i < n; i++) {
        learn_str(nm, ev[i].path);
        learn_str(nm, ev[i].lane);
        learn_str(nm, ev[i].text);
        learn_str(nm, ev[i].note);
    }
}

void report_names_learn_result(struct report_names *nm, const struct corr_result *r)
{
    learn_evidence(nm, r->first_error, r->first_error ? 1 : 0);
    learn_evidence(nm, r->outcome_at, r->outcome_at ? 1 : 0);
    for (size_t i = 0; i < r->nfindings; i++) {
        learn_str(nm, r->findings[i].summary);
        learn_evidence(nm, r->findings[i].evidence, r->findings[i].nevidence);
    }
    for (size_t i = 0; i < r->nevents; i++) {
        learn_str(nm, r->timeline[i].path);
        learn_str(nm, r->timeline[i].lane);
        learn_str(nm, r->timeline[i].label);
    }
    for (size_t i = 0; i < r->nruled_out; i++) learn_str(nm, r->ruled_out[i].reason);
    for (size_t i = 0; i < r->ninputs; i++) learn_str(nm, r->inputs[i].path);
    for (size_t i = 0; i < r->nskipped; i++) {
        learn_str(nm, r->skipped[i].path);
        learn_str(nm, r->skipped[i].reason);
    }
    for (size_t i = 0; i < r->nseries; i++) {
        learn_str(nm, r->series[i].path);
        learn_str(nm, r->series[i].lane);
    }
    for (size_t i = 0; i < r->nwarnings; i++) learn_str(nm, r->warnings[i]);
}

void report_names_free(struct report_names *nm)
{
    if (!nm) return;
    for (int k = 0; k < REDACT_KINDS; k++)
        for (size_t i = 0; i < nm->n[k]; i++) free(nm->names[k][i]);
    free(nm);
}
