/* correlate/stamp.c - what a record says on its own: its time, whether it marks a boot, and
 * whether it can name a host (then its lane). It depends on nothing before the record, so pipe
 * workers (pipe.c) stamp records ahead of the scan thread (scan.c); both call in here, neither
 * calls the other back. */
#include <string.h>

#include "correlate/corr_private.h"

static int host_byte(unsigned char c)
{
    return az_is_alnum(c) || c == '-' || c == '_' || c == '.';
}

/*
 * Can tok_record_lane() find a host in this record? It names one from a prefix (pf->host: a
 * syslog or journal host, Ray's ip=) or from NCCL's "host:pid:tid [dev]" at the start of the
 * body, so a record with neither cannot add a host and its lane is parsed only if it matches.
 * A cheap superset of tok_record_lane()'s own checks: it never misses a host.
 */
static int may_name_host(const char *p, const struct tok_lane_src *pf)
{
    if (pf->host.len) return 1;
    size_t i = pf->body, len = pf->body + pf->body_len;
    while (i < len && (p[i] == ' ' || p[i] == '\t')) i++;
    size_t j = i, lim = AZ_MIN(len, i + 80);
    while (j < lim && host_byte((unsigned char)p[j])) j++;
    return j > i && j < lim && p[j] == ':';
}

int corr_lower_at(const char *p, size_t len, size_t at, const char *needle, size_t n)
{
    if (at > len || len - at < n) return 0;
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)p[at + k];
        if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != (unsigned char)needle[k]) return 0;
    }
    return 1;
}

static int is_boot_marker(enum tok_kind kind, const char *p, size_t len)
{
    size_t i = 0;
    while (i < len && p[i] == ' ') i++;
    if (i < len && p[i] == '-' &&
        (az_starts_with(p + i, len - i, "-- Boot ") ||
         az_starts_with(p + i, len - i, "-- Reboot --")))
        return 1;
    if (kind != TOK_KIND_KERNEL) return 0;
    /* "] Linux version" or "kernel: Linux version ": look only where an 'L'/'l' starts one */
    for (size_t k = 2; k + 13 <= len; k++) {
        if ((p[k] | 0x20) != 'l' || !corr_lower_at(p, len, k, "linux version", 13)) continue;
        if (corr_lower_at(p, len, k - 2, "] ", 2)) return 1;
        if (k >= 8 && corr_lower_at(p, len, k - 8, "kernel: ", 8) &&
            corr_lower_at(p, len, k + 13, " ", 1))
            return 1;
    }
    return 0;
}

void corr_stamp_record(enum tok_kind kind, const char *p, size_t len, struct corr_stamp *s,
                       char *lane)
{
    if (!len) { /* no time, marker or lane: feed_empty() reads none */
        memset(s, 0, sizeof *s);
        return;
    }
    s->tend = 0;
    struct tok_prefix pf;
    s->t = tok_record_parse(p, len, &pf, &s->tend);
    tok_lane_src_of(&pf, &s->src);
    if (s->t.kind == AZ_TIME_NONE && corr_is_smi_kind(kind)) {
        /* nvidia-smi -q "Timestamp : Sat Nov 29 10:12:55 2026": the time after the label (the
         * tokenizer's one ctime parser, Feb 29 checked) */
        const char *colon = memchr(p, ':', AZ_MIN(len, (size_t)60));
        if (az_memcasemem(p, AZ_MIN(len, (size_t)40), "Timestamp", 9) && colon)
            s->t = tok_parse_time(kind, colon + 1, len - (size_t)(colon + 1 - p), NULL);
    }
    s->boot_marker = is_boot_marker(kind, p, len);
    s->may_name = may_name_host(p, &s->src);
    s->lane_len = s->may_name ? tok_lane_from(&s->src, p, len, lane, CORR_LANE_MAX) : 0;
}
