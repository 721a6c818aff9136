/* ingest/text.c - byte-level text helpers: binary detection and escape-sequence removal. */
#include "ingest/ingest_private.h"

#include <string.h>

/* NUL runs tolerated in the first 8 KiB: a log that had a crash or a copytruncate hole has one or
 * two; executables, images and unknown compressed data have dozens. */
#define BINARY_NUL_WINDOW   8192
#define BINARY_NUL_RUNS_MAX 8

/* Length of a valid UTF-8 sequence at p (2..4), 0 when invalid, -1 when cut by the end. */
static int utf8_seq_len(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    int len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n) return -1;
        unsigned char lim_lo = i == 1 ? lo : 0x80, lim_hi = i == 1 ? hi : 0xBF;
        if (p[i] < lim_lo || p[i] > lim_hi) return 0;
    }
    return len;
}

int ingest_looks_binary(const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n && p[i] == 0) i++;
    p += i;
    n -= i;
    if (n == 0) return 0;

    size_t window = n < BINARY_NUL_WINDOW ? n : BINARY_NUL_WINDOW;
    unsigned runs = 0;
    for (size_t k = 0; k < window; k++)
        if (p[k] == 0 && (k == 0 || p[k - 1] != 0)) runs++;
    if (runs > BINARY_NUL_RUNS_MAX) return 1;

    size_t suspicious = 0, counted = 0;
    for (size_t k = 0; k < n;) {
        unsigned char c = p[k];
        if (c == 0) { /* judged by the run count above */
            k++;
            continue;
        }
        counted++;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\b' &&
                 c != 0x1b) ||
                c == 0x7f)
                suspicious++;
            k++;
            continue;
        }
        int len = utf8_seq_len(p + k, n - k);
        if (len < 0) break; /* sequence cut by the end of the head */
        if (len == 0) {
            suspicious++;
            k++;
        } else {
            k += (size_t)len;
        }
    }
    return counted > 0 && suspicious * 10 > counted * 3;
}

size_t ingest_strip_ansi(const char *src, size_t n, char *dst)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t i = 0, o = 0;
    while (i < n) {
        /* sequences often come back to back (a progress bar's "ESC[2K" before each refresh) */
        const unsigned char *esc = s[i] == 0x1b ? s + i : memchr(s + i, 0x1b, n - i);
        size_t run = esc ? (size_t)(esc - (s + i)) : n - i;
        if (run) memcpy(dst + o, s + i, run); /* back-to-back sequences copy nothing */
        o += run;
        i += run;
        if (!esc) break;
        i++; /* ESC */
        if (i >= n) break;
        unsigned char c = s[i++];
        if (c == '[') {
            /* CSI: parameters and intermediates 0x20-0x3F, then one final byte 0x40-0x7E. A
             * malformed sequence ends at the first byte outside, which is kept. */
            while (i < n && s[i] >= 0x20 && s[i] <= 0x3F) i++;
            if (i < n && s[i] >= 0x40 && s[i] <= 0x7E) i++;
        } else if (c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_') {
            /* OSC, DCS, SOS, PM, APC: a string ended by BEL or ST (ESC \). */
            while (i < n) {
                if (s[i] == 0x07) {
                    i++;
                    break;
                }
                if (s[i] == 0x1b && i + 1 < n && s[i + 1] == '\\') {
                    i += 2;
                    break;
                }
                i++;
            }
        } else if (c >= 0x20 && c <= 0x2F) {
            /* ESC, intermediates, final byte: "ESC ( B" selects a character set. */
            while (i < n && s[i] >= 0x20 && s[i] <= 0x2F) i++;
            if (i < n) i++;
        }
        /* else: a two-byte sequence (ESC 7, ESC =, ESC M ...), already consumed. */
    }
    return o;
}
