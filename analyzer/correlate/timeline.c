/* correlate/timeline.c - one clock for the run: absolute stamps as read, year-less stamps moved
 * into the run's year, uptimes placed with boot anchors (journal/dmesg -T boot lines, else the
 * run's last absolute stamp), untimed records inheriting their member's last time; and the capped
 * list of notable events. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

#define USEC 1000000LL

static struct az_time place_noyear(const struct corr_state *st, struct az_time t)
{
    if (t.kind != AZ_TIME_NOYEAR || st->clock_kind != AZ_TIME_ABS) return t;
    struct az_time best = az_time_set_year(t, st->run_year);
    int64_t bestd = INT64_MAX;
    for (int64_t y = st->run_year - 1; y <= st->run_year + 1; y++) {
        struct az_time c = az_time_set_year(t, y);
        int64_t d = c.usec < st->run_start ? st->run_start - c.usec
                    : c.usec > st->run_end ? c.usec - st->run_end
                                           : 0;
        if (d < bestd) {
            bestd = d;
            best = c;
        }
    }
    return best;
}

static int i64_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

void corr_timeline_place(struct corr_state *st)
{
    int have_abs = 0, have_noyear = 0, have_boot = 0;
    int64_t amin = 0, amax = 0, nmin = 0, nmax = 0;
    for (size_t i = 0; i < st->nfiles; i++) {
        const struct corr_file *f = &st->files[i];
        if (f->has_abs) {
            if (!have_abs || f->abs_min < amin) amin = f->abs_min;
            if (!have_abs || f->abs_max > amax) amax = f->abs_max;
            have_abs = 1;
        }
        if (f->has_noyear) {
            if (!have_noyear || f->noyear_min < nmin) nmin = f->noyear_min;
            if (!have_noyear || f->noyear_max > nmax) nmax = f->noyear_max;
            have_noyear = 1;
        }
        have_boot |= f->has_boot;
    }
    if (have_abs) {
        st->clock_kind = AZ_TIME_ABS;
        st->run_start = amin;
        st->run_end = amax;
        st->run_year = az_time_year((struct az_time){amin, AZ_TIME_ABS});
        if (have_noyear) {
            /* Year-less stamps are wall clock too: they widen the run once placed. */
            struct az_time a = place_noyear(st, (struct az_time){nmin, AZ_TIME_NOYEAR});
            struct az_time b = place_noyear(st, (struct az_time){nmax, AZ_TIME_NOYEAR});
            if (a.usec < st->run_start) st->run_start = a.usec;
            if (b.usec > st->run_end) st->run_end = b.usec;
        }
    } else if (have_noyear) {
        st->clock_kind = AZ_TIME_NOYEAR;
        st->run_start = nmin;
        st->run_end = nmax;
    } else if (have_boot) {
        st->clock_kind = AZ_TIME_BOOT;
    } else {
        st->clock_kind = AZ_TIME_NONE;
    }
    st->have_run_clock = st->clock_kind == AZ_TIME_ABS || st->clock_kind == AZ_TIME_NOYEAR;

    /* Boot anchors: times of "Linux version"/"-- Boot" lines in logs with wall-clock stamps. */
    int64_t anchors[64];
    size_t nanch = 0;
    for (size_t i = 0; i < st->nfiles && st->have_run_clock; i++) {
        const struct corr_file *f = &st->files[i];
        for (int k = 0; k < f->nboot_abs && nanch < AZ_ARRAY_LEN(anchors); k++) {
            struct az_time t = place_noyear(st, f->boot_abs[k]);
            if (t.kind == st->clock_kind) anchors[nanch++] = t.usec;
        }
    }
    qsort(anchors, nanch, sizeof *anchors, i64_cmp);

    for (size_t i = 0; i < st->nfiles; i++) {
        struct corr_file *f = &st->files[i];
        if (!f->has_boot || !st->have_run_clock) continue;
        int64_t next_start = st->run_end;
        size_t ai = nanch;
        for (int s = (int)f->boot_seg; s >= 0; s--) {
            int64_t up = f->seg_last_uptime[s];
            int64_t off;
            /* the latest anchor whose boot plus this segment's uptime fits before the next boot */
            while (ai > 0 && anchors[ai - 1] + up > next_start + 120 * USEC) ai--;
            if (ai > 0) {
                off = anchors[--ai];
            } else {
                off = next_start - up; /* end-aligned: the log was taken when the run ended */
            }
            f->seg_offset[s] = off;
            next_start = off - USEC;
        }
        f->seg_placed = 1;
    }
}

struct az_time corr_timeline_map(const struct corr_state *st, size_t file, struct az_time raw,
                                 unsigned boot_seg, int *approx)
{
    switch (raw.kind) {
    case AZ_TIME_NONE:
    case AZ_TIME_ABS: return raw;
    case AZ_TIME_NOYEAR: return place_noyear(st, raw);
    case AZ_TIME_BOOT:
        if (file < st->nfiles && st->files[file].seg_placed && boot_seg < CORR_BOOT_SEGS) {
            *approx = 1;
            struct az_time t = {st->files[file].seg_offset[boot_seg] + raw.usec, st->clock_kind};
            return t;
        }
        return raw;
    }
    return raw;
}

void corr_timeline_resolve(struct corr_state *st, struct corr_rec *r)
{
    struct az_time raw = r->raw;
    int approx = r->inherited;
    if (raw.kind == AZ_TIME_NONE && r->file < st->nfiles) {
        /* untimed records before the member's first stamp take that stamp */
        raw = st->files[r->file].first_time;
        approx = raw.kind != AZ_TIME_NONE;
    }
    r->time = corr_timeline_map(st, r->file, raw, r->boot_seg, &approx);
    r->approx = r->time.kind == AZ_TIME_NONE ? 0 : approx;
}

double corr_timeline_secs(const struct corr_state *st, struct az_time t)
{
    if (t.kind == AZ_TIME_NONE || t.kind != st->clock_kind || !st->have_run_clock) return NAN;
    return (double)(t.usec - st->run_start) / 1e6;
}

static int time_class(const struct corr_state *st, struct az_time t)
{
    if (t.kind == AZ_TIME_NONE) return 9;
    if (t.kind == st->clock_kind) return 0;
    return 1 + (int)t.kind;
}

static int time_cmp(const struct corr_state *st, struct az_time a, struct az_time b)
{
    int ca = time_class(st, a), cb = time_class(st, b);
    if (ca != cb) return ca < cb ? -1 : 1;
    if (ca == 9) return 0;
    return a.usec < b.usec ? -1 : a.usec > b.usec;
}

int corr_rec_cmp(const struct corr_state *st, const struct corr_rec *a, const struct corr_rec *b)
{
    int c = time_cmp(st, a->time, b->time);
    if (c) return c;
    c = strcmp(corr_file_path(st, a->file), corr_file_path(st, b->file));
    if (c) return c;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    size_t ia = a->sig ? a->sig->index : SIZE_MAX, ib = b->sig ? b->sig->index : SIZE_MAX;
    if (ia != ib) return ia < ib ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* ---- events ---- */

struct ev_cand {
    int prio; /* lower is kept first when the cap bites */
    struct corr_event ev;
};

struct ev_list {
    const struct corr_state *st;
    size_t n, cap;
    struct ev_cand *items;
};

static void ev_add(struct ev_list *l, int prio, size_t file, uint64_t line, struct az_time t,
                   int approx, const char *lane, char *label, const char *entry_id)
{
    az_grow((void **)&l->items, &l->cap, l->n + 1, sizeof *l->items);
    struct ev_cand *c = &l->items[l->n++];
    c->prio = prio;
    c->ev.time = t;
    c->ev.time_approx = approx;
    c->ev.path = az_xstrdup(corr_file_path(l->st, file));
    c->ev.line = line;
    c->ev.lane = az_xstrdup(lane ? lane : "");
    c->ev.label = label;
    c->ev.entry_id = entry_id;
    c->ev.background = prio >= 4 || (prio == 2 && !entry_id);
}

static int ev_time_cmp(const struct corr_state *st, const struct corr_event *a,
                       const struct corr_event *b)
{
    int c = time_cmp(st, a->time, b->time);
    if (c) return c;
    c = strcmp(a->path, b->path);
    if (c) return c;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    return strcmp(a->label, b->label);
}

/* qsort has no context argument in C11: sort with a small merge sort instead. */
static void ev_sort(const struct corr_state *st, struct ev_cand *v, size_t n, int by_prio)
{
    if (n < 2) return;
    struct ev_cand *tmp = az_xmalloc(n * sizeof *tmp);
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = AZ_MIN(lo + width, n), hi = AZ_MIN(lo + 2 * width, n);
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                int c = 0;
                if (by_prio && v[i].prio != v[j].prio) c = v[i].prio < v[j].prio ? -1 : 1;
                if (!c) c = ev_time_cmp(st, &v[i].ev, &v[j].ev);
                tmp[k++] = c <= 0 ? v[i++] : v[j++];
            }
            while (i < mid) tmp[k++] = v[i++];
            while (j < hi) tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
    free(tmp);
}

static const char *finding_id(const struct corr_result *r, const struct match_entry *e)
{
    if (!e) return NULL;
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].entry == e) return e->id;
    if (r->first_error_entry == e) return e->id;
    return NULL;
}

static char *snippet(const char *label, const char *text)
{
    size_t n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t')) n--;
    const char *s = text;
    while (*s == ' ' || *s == '\t') s++, n = n ? n - 1 : 0;
    return n > 72 ? az_xasprintf("%s: %.72s...", label, s)
                  : az_xasprintf("%s: %.*s", label, (int)n, s);
}

void corr_timeline_events(const struct corr_state *st, struct corr_result *r)
{
    struct ev_list l = {st, 0, 0, NULL};
    /* first and last record of every member */
    for (size_t i = 0; i < st->nfiles; i++) {
        const struct corr_file *f = &st->files[i];
        if (!f->records) continue;
        int approx = 0;
        struct az_time t0 = corr_timeline_map(st, i, f->first_time, 0, &approx);
        ev_add(&l, 3, i, f->first_line, t0, approx, f->lane,
               snippet(tok_kind_name(f->kind), f->first_text), NULL);
        if (f->last_line != f->first_line) {
            approx = 0;
            struct az_time t1 = corr_timeline_map(
                st, i, f->last_time, f->last_time.kind == AZ_TIME_BOOT ? f->boot_seg : 0, &approx);
            ev_add(&l, 3, i, f->last_line, t1, approx, f->lane, snippet("last line", f->last_text),
                   NULL);
        }
    }
    /* the first and last kept hit of every gotcha/common signature, first of context ones */
    for (size_t s = 0; s < st->nsigs; s++) {
        const struct corr_sigstat *ss = st->sigs[s];
        if (!ss || !ss->nfirst) continue;
        const struct match_sig *sig = ss->first[0].sig;
        const struct match_entry *e = sig->entry;
        int fam_ok = e->family == MATCH_FAMILY_GOTCHA || e->family == MATCH_FAMILY_COMMON;
        int prio = fam_ok ? (sig->strength >= MATCH_STRONG ? 1 : 2) : 4;
        const char *what = sig->summary && *sig->summary ? sig->summary : e->title;
        const struct corr_rec *first = corr_sig_earliest(st, s);
        char *label = ss->count > 1 ? az_xasprintf("%s %s (%llu lines)", e->id, what,
                                                   (unsigned long long)ss->count)
                                    : az_xasprintf("%s %s", e->id, what);
        ev_add(&l, prio, first->file, first->line, first->time, first->approx, first->lane, label,
               finding_id(r, e));
    }
    /* detector evidence */
    for (size_t i = 0; i < st->nclaims; i++) {
        const struct corr_claim *c = &st->claims[i];
        if (!c->rec || c->strength >= 0 || !c->note || c->weight <= 0) continue;
        ev_add(&l, 0, c->rec->file, c->rec->line, c->rec->time, c->rec->approx, c->rec->lane,
               az_xasprintf("%s %s", c->entry->id, c->note), finding_id(r, c->entry));
    }
    if (r->first_error) {
        const struct corr_evidence *fe = r->first_error;
        az_grow((void **)&l.items, &l.cap, l.n + 1, sizeof *l.items);
        /* every field set: the first error is the run's story, never a background fact */
        l.items[l.n++] = (struct ev_cand){
            .prio = 0,
            .ev = {.time = fe->time,
                   .time_approx = fe->time_approx,
                   .path = az_xstrdup(fe->path),
                   .line = fe->line,
                   .lane = az_xstrdup(fe->lane),
                   .label = snippet("first error", fe->text),
                   .entry_id = r->first_error_entry ? r->first_error_entry->id : NULL,
                   .background = 0}};
    }
    ev_sort(st, l.items, l.n, 1);
    size_t keep = AZ_MIN(l.n, (size_t)CORR_EVENTS_MAX);
    for (size_t i = keep; i < l.n; i++) {
        free(l.items[i].ev.path);
        free(l.items[i].ev.lane);
        free(l.items[i].ev.label);
    }
    ev_sort(st, l.items, keep, 0);
    r->nevents = keep;
    r->timeline = az_xcalloc(keep ? keep : 1, sizeof *r->timeline);
    for (size_t i = 0; i < keep; i++) r->timeline[i] = l.items[i].ev;
    free(l.items);
}
