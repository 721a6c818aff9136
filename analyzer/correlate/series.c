/* correlate/series.c - numeric series: nvidia-smi CSV rows (by header), dmon rows, -q snapshots,
 * the default table, meminfo/free, and the series facts of signature hits; downsampling and
 * change points. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/corr_private.h"

static const struct {
    const char *name;
    const char *unit;
} metric_info[CORR_M_COUNT] = {
    [CORR_M_POWER] = {"power.draw", "W"},         [CORR_M_TEMP] = {"temperature.gpu", "C"},
    [CORR_M_SM_CLK] = {"clocks.sm", "MHz"},       [CORR_M_MEM_CLK] = {"clocks.mem", "MHz"},
    [CORR_M_UTIL_GPU] = {"utilization.gpu", "%"}, [CORR_M_UTIL_MEM] = {"utilization.memory", "%"},
    [CORR_M_MEM_USED] = {"memory.used", "MiB"},   [CORR_M_MEM_TOTAL] = {"memory.total", "MiB"},
};

/* ---- small parsers ---- */

static void trim(const char **p, size_t *len)
{
    while (*len && isspace((unsigned char)**p)) (*p)++, (*len)--;
    while (*len && isspace((unsigned char)(*p)[*len - 1])) (*len)--;
}

/* The number a value starts with ("104.72 W", "97 %"); -1 when none. */
static int lead_number(const char *p, size_t len, double *out)
{
    trim(&p, &len);
    size_t n = 0;
    while (n < len && (isdigit((unsigned char)p[n]) || p[n] == '.' || (n == 0 && p[n] == '-'))) n++;
    if (!n) return -1;
    return tok_parse_double(p, n, out);
}

static int is_na(const char *p, size_t len)
{
    trim(&p, &len);
    return az_memcasemem(p, len, "N/A", 3) || az_memcasemem(p, len, "Not Supported", 13) ||
           az_memcasemem(p, len, "Unknown Error", 13);
}

static int digits(const char *p, size_t n, unsigned *out)
{
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)p[i])) return -1;
        v = v * 10 + (unsigned)(p[i] - '0');
    }
    *out = v;
    return 0;
}

/* ---- builders ---- */

static int find_builder(const struct corr_state *st, size_t file, const char *lane,
                        const char *name, const char *unit)
{
    for (size_t i = st->nseries; i-- > 0;) {
        const struct corr_sbuild *b = &st->series[i];
        if (b->file == file && !strcmp(b->name, name) && !strcmp(b->unit, unit) &&
            !strcmp(b->lane, lane))
            return (int)i;
    }
    return -1;
}

/* Keep the samples accumulated so far as one point (their average). */
static void builder_flush(struct corr_sbuild *b)
{
    az_grow((void **)&b->pts, &b->cap, b->n + 1, sizeof *b->pts);
    b->pts[b->n].t = b->acc_t / (double)b->acc_k;
    b->pts[b->n].v = b->acc_v / (double)b->acc_k;
    b->pts[b->n].line = b->acc_line;
    b->n++;
    b->acc_n = b->acc_k = 0;
    b->acc_t = b->acc_v = 0;
}

/* One sample standing for w raw points (w > 1 when the scan sampled a signature: see
 * corr_sampling_every()); the kept point averages the samples, the stride counts raw points. */
static void builder_push(struct corr_sbuild *b, double t, double v, uint64_t line, size_t w)
{
    if (b->acc_n == 0) b->acc_line = line;
    b->acc_t += t;
    b->acc_v += v;
    b->acc_k++;
    b->acc_n += w;
    if (b->acc_n < b->stride) return;
    if (b->n == CORR_SERIES_RAW) {
        /* Full: average pairs and double the stride, so memory stays bounded. */
        for (size_t i = 0; i < b->n / 2; i++) {
            b->pts[i].t = (b->pts[2 * i].t + b->pts[2 * i + 1].t) / 2;
            b->pts[i].v = (b->pts[2 * i].v + b->pts[2 * i + 1].v) / 2;
            b->pts[i].line = b->pts[2 * i].line;
        }
        b->n /= 2;
        b->stride *= 2;
    }
    builder_flush(b);
}

static int new_builder(struct corr_state *st, size_t file, const char *lane, const char *name,
                       const char *unit, struct az_time t)
{
    az_grow((void **)&st->series, &st->capseries, st->nseries + 1, sizeof *st->series);
    struct corr_sbuild *b = &st->series[st->nseries];
    memset(b, 0, sizeof *b);
    b->name = az_xstrdup(name);
    b->unit = unit;
    b->file = file;
    snprintf(b->lane, sizeof b->lane, "%s", lane);
    b->tkind = t.kind;
    b->boot_seg = t.kind == AZ_TIME_BOOT && file < st->nfiles ? st->files[file].boot_seg : 0;
    b->stride = 1;
    b->mark_t = NAN;
    return (int)st->nseries++;
}

static void push_w(struct corr_state *st, int idx, struct az_time t, double v, uint64_t line,
                   size_t w)
{
    struct corr_sbuild *b = &st->series[idx];
    double tv;
    if (b->tkind == AZ_TIME_NONE) {
        tv = (double)b->seq;
    } else if (t.kind == b->tkind) {
        tv = (double)t.usec;
    } else {
        return; /* a second clock in one series: keep the first */
    }
    b->seq += w;
    builder_push(b, tv, v, line, w);
}

static void push_at(struct corr_state *st, int idx, struct az_time t, double v, uint64_t line)
{
    push_w(st, idx, t, v, line, 1);
}

int corr_series_add(struct corr_state *st, size_t file, const char *lane, const char *name,
                    const char *unit, struct az_time t, double v, uint64_t line)
{
    if (isnan(v) || isinf(v)) return -1;
    int idx = find_builder(st, file, lane, name, unit);
    if (idx < 0) idx = new_builder(st, file, lane, name, unit, t);
    push_at(st, idx, t, v, line);
    return idx;
}

static void metric_add(struct corr_state *st, size_t file, int gpu, enum corr_metric m,
                       struct az_time t, double v, uint64_t line)
{
    if (m < 0 || m >= CORR_M_COUNT || isnan(v)) return;
    struct corr_file *f = &st->files[file];
    if (gpu <= 0) {
        if (f->series_idx[m] < 0)
            f->series_idx[m] =
                new_builder(st, file, f->lane, metric_info[m].name, metric_info[m].unit, t);
        push_at(st, f->series_idx[m], t, v, line);
        return;
    }
    char lane[CORR_LANE_MAX + 24];
    snprintf(lane, sizeof lane, "%s%sgpu%d", f->lane, f->lane[0] ? "/" : "", gpu);
    corr_series_add(st, file, lane, metric_info[m].name, metric_info[m].unit, t, v, line);
}

static void note_mem_na(struct corr_state *st, size_t file, uint64_t line, struct az_time t,
                        const char *p, size_t len)
{
    st->mem_na_count++;
    if (st->have_mem_na_rec) return;
    corr_rec_fill(&st->mem_na_rec, file, line, line, t, 0, 0, TOK_LEVEL_NONE, st->files[file].lane,
                  p, len, NULL);
    st->have_mem_na_rec = 1;
}

static void note_throttle(struct corr_state *st, size_t file, uint64_t line, struct az_time t,
                          const char *p, size_t len, int thermal, int power)
{
    st->thr_samples++;
    if (thermal) st->thr_thermal++;
    if (power) st->thr_power++;
    if ((thermal || power) && !st->have_thr_rec) {
        corr_rec_fill(&st->thr_rec, file, line, line, t, 0, 0, TOK_LEVEL_NONE, st->files[file].lane,
                      p, len, NULL);
        st->have_thr_rec = 1;
    }
}

/* A GPU index column as an int; a value no int holds reads as GPU 0, as a negative one does. */
static int gpu_index(double g)
{
    return g > (double)INT_MIN && g < (double)INT_MAX ? (int)g : 0;
}

/* ---- nvidia-smi --query-gpu CSV ---- */

static int csv_metric(const char *p, size_t len)
{
    trim(&p, &len);
    const char *br = memchr(p, '[', len);
    if (br) len = (size_t)(br - p);
    trim(&p, &len);
    char name[96];
    if (len >= sizeof name) return CORR_M_NONE;
    for (size_t i = 0; i < len; i++) name[i] = (char)tolower((unsigned char)p[i]);
    name[len] = '\0';
    if (!strcmp(name, "timestamp")) return CORR_M_TIMESTAMP;
    if (!strcmp(name, "index")) return CORR_M_GPU_INDEX;
    if (strstr(name, "_reasons.")) {
        if (strstr(name, "thermal") || strstr(name, "hw_slowdown")) return CORR_M_THR_THERMAL;
        if (strstr(name, "power_cap") || strstr(name, "power_brake")) return CORR_M_THR_POWER;
        if (strstr(name, ".active")) return CORR_M_THR_ACTIVE;
        return CORR_M_NONE;
    }
    if (!strcmp(name, "power.draw") || !strcmp(name, "power.draw.instant") ||
        !strcmp(name, "power.draw.average"))
        return CORR_M_POWER;
    if (!strcmp(name, "temperature.gpu")) return CORR_M_TEMP;
    if (!strcmp(name, "clocks.sm") || !strcmp(name, "clocks.current.sm")) return CORR_M_SM_CLK;
    if (!strcmp(name, "clocks.mem") || !strcmp(name, "clocks.current.memory"))
        return CORR_M_MEM_CLK;
    if (!strcmp(name, "utilization.gpu")) return CORR_M_UTIL_GPU;
    if (!strcmp(name, "utilization.memory")) return CORR_M_UTIL_MEM;
    if (!strcmp(name, "memory.used")) return CORR_M_MEM_USED;
    if (!strcmp(name, "memory.total")) return CORR_M_MEM_TOTAL;
    return CORR_M_NONE;
}

/* "power.draw" or "temperature.gpu" anywhere in the record. Runs on every record of most kinds,
 * so it only looks around the '.' bytes (memchr) instead of trying every offset. */
static int has_smi_column_name(const char *p, size_t len)
{
    const char *q = p, *end = p + len;
    while ((q = memchr(q, '.', (size_t)(end - q))) != NULL) {
        size_t k = (size_t)(q - p);
        if (k >= 5 && corr_lower_at(p, len, k - 5, "power.draw", 10)) return 1;
        if (k >= 11 && corr_lower_at(p, len, k - 11, "temperature.gpu", 15)) return 1;
        q++;
    }
    return 0;
}

static int csv_is_header(const char *p, size_t len)
{
    size_t i = 0;
    while (i < len && (p[i] == ' ' || p[i] == '#')) i++;
    if (corr_lower_at(p, len, i, "timestamp", 9)) return 1;
    if (i < len && isdigit((unsigned char)p[i])) return 0;
    return has_smi_column_name(p, len);
}

static void csv_header(struct corr_file *f, const char *p, size_t len)
{
    int n = 0;
    size_t i = 0;
    while (i < len && (p[i] == ' ' || p[i] == '#')) i++;
    while (i <= len && n < CORR_CSV_COLS) {
        size_t j = i;
        while (j < len && p[j] != ',') j++;
        int m = csv_metric(p + i, j - i);
        /* Two power columns (instant and average): keep the first. */
        for (int k = 0; k < n && m >= 0 && m < CORR_M_COUNT; k++)
            if (f->csv_map[k] == m) m = CORR_M_NONE;
        f->csv_map[n++] = m;
        i = j + 1;
    }
    f->csv_ncols = n;
}

static void csv_row(struct corr_state *st, size_t file, const char *p, size_t len, uint64_t line,
                    struct az_time t)
{
    struct corr_file *f = &st->files[file];
    double vals[CORR_CSV_COLS];
    int na[CORR_CSV_COLS];
    int thermal = 0, power = 0, have_thr = 0, gpu = 0, n = 0;
    size_t i = 0;
    while (i <= len && n < f->csv_ncols) {
        size_t j = i;
        while (j < len && p[j] != ',') j++;
        int m = f->csv_map[n];
        const char *v = p + i;
        size_t vl = j - i;
        vals[n] = NAN;
        na[n] = 0;
        if (m == CORR_M_THR_THERMAL || m == CORR_M_THR_POWER) {
            const char *q = v;
            size_t ql = vl;
            trim(&q, &ql);
            int active = ql == 6 && !strncmp(q, "Active", 6);
            have_thr = 1;
            if (m == CORR_M_THR_THERMAL)
                thermal |= active;
            else
                power |= active;
        } else if (m == CORR_M_THR_ACTIVE) {
            const char *q = v;
            size_t ql = vl;
            trim(&q, &ql);
            if (ql > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
                unsigned long long mask = strtoull(q, NULL, 16); /* stops at the ',' */
                have_thr = 1;
                if (mask & (0x08ULL | 0x20ULL | 0x40ULL)) thermal = 1;
                if (mask & (0x04ULL | 0x80ULL)) power = 1;
            }
        } else if (m == CORR_M_GPU_INDEX) {
            double g;
            if (!lead_number(v, vl, &g)) gpu = gpu_index(g);
        } else if (m >= 0 && m < CORR_M_COUNT) {
            if (is_na(v, vl))
                na[n] = 1;
            else
                lead_number(v, vl, &vals[n]);
        }
        n++;
        i = j + 1;
    }
    for (int k = 0; k < n; k++) {
        int m = f->csv_map[k];
        if (m < 0 || m >= CORR_M_COUNT) continue;
        if (na[k] && (m == CORR_M_MEM_USED || m == CORR_M_MEM_TOTAL)) {
            note_mem_na(st, file, line, t, p, len);
            continue;
        }
        metric_add(st, file, gpu, (enum corr_metric)m, t, vals[k], line);
    }
    if (have_thr) note_throttle(st, file, line, t, p, len, thermal, power);
}

/* A row of `--format=csv,noheader`: no header names the columns, but nvidia-smi prints each
 * value with its unit ("2223 MHz", "96 %", "98.52 W"), so the units type them. The first MHz
 * value is the SM (or graphics) clock, the first % the GPU utilization, the first W the power:
 * the order people query them in (clocks.sm,clocks.mem; utilization.gpu,utilization.memory);
 * a bare number (the temperature, an index) stays unread, as its column is unknown. */
static void csv_row_units(struct corr_state *st, size_t file, const char *p, size_t len,
                          uint64_t line, struct az_time t)
{
    static const struct {
        const char *unit;
        size_t n;
        enum corr_metric m;
    } units[] = {{" MHz", 4, CORR_M_SM_CLK}, {" %", 2, CORR_M_UTIL_GPU}, {" W", 2, CORR_M_POWER}};
    double vals[AZ_ARRAY_LEN(units)];
    int fields = 0, typed = 0;
    for (size_t k = 0; k < AZ_ARRAY_LEN(units); k++) vals[k] = NAN;
    size_t i = 0;
    while (i <= len && fields < CORR_CSV_COLS) {
        size_t j = i;
        while (j < len && p[j] != ',') j++;
        const char *v = p + i;
        size_t vl = j - i;
        trim(&v, &vl);
        fields++;
        for (size_t k = 0; k < AZ_ARRAY_LEN(units); k++) {
            size_t n = units[k].n;
            double x;
            if (vl > n && !memcmp(v + vl - n, units[k].unit, n) && isnan(vals[k]) &&
                !lead_number(v, vl - n, &x)) {
                vals[k] = x;
                typed++;
            }
        }
        i = j + 1;
    }
    /* a row: two fields or more, one of them typed (a sentence with "MHz," is no row) */
    if (fields < 2 || !typed) return;
    for (size_t k = 0; k < AZ_ARRAY_LEN(units); k++)
        if (!isnan(vals[k])) metric_add(st, file, 0, units[k].m, t, vals[k], line);
}

/* ---- nvidia-smi dmon ---- */

static void dmon_header(struct corr_file *f, const char *p, size_t len)
{
    int n = 0;
    size_t i = 1;
    while (i < len && n < CORR_CSV_COLS) {
        while (i < len && isspace((unsigned char)p[i])) i++;
        size_t j = i;
        while (j < len && !isspace((unsigned char)p[j])) j++;
        if (j == i) break;
        char tokn[16];
        size_t tl = AZ_MIN(j - i, sizeof tokn - 1);
        for (size_t k = 0; k < tl; k++) tokn[k] = (char)tolower((unsigned char)p[i + k]);
        tokn[tl] = '\0';
        int m = CORR_M_NONE;
        if (!strcmp(tokn, "gpu"))
            m = CORR_M_GPU_INDEX;
        else if (!strcmp(tokn, "pwr"))
            m = CORR_M_POWER;
        else if (!strcmp(tokn, "gtemp"))
            m = CORR_M_TEMP;
        else if (!strcmp(tokn, "sm"))
            m = CORR_M_UTIL_GPU;
        else if (!strcmp(tokn, "mem"))
            m = CORR_M_UTIL_MEM;
        else if (!strcmp(tokn, "mclk"))
            m = CORR_M_MEM_CLK;
        else if (!strcmp(tokn, "pclk"))
            m = CORR_M_SM_CLK;
        else if (!strcmp(tokn, "fb"))
            m = CORR_M_MEM_USED;
        else if (!strcmp(tokn, "date"))
            m = CORR_M_DMON_DATE;
        else if (!strcmp(tokn, "time"))
            m = CORR_M_DMON_TIME;
        f->dmon_map[n++] = m;
        i = j;
    }
    f->dmon_ncols = n;
}

static void dmon_row(struct corr_state *st, size_t file, const char *p, size_t len, uint64_t line,
                     struct az_time t)
{
    struct corr_file *f = &st->files[file];
    double vals[CORR_CSV_COLS];
    unsigned ymd = 0, hh = 0, mi = 0, ss = 0;
    int have_date = 0, have_time = 0, gpu = 0, n = 0;
    size_t i = 0;
    while (i < len && n < f->dmon_ncols) {
        while (i < len && isspace((unsigned char)p[i])) i++;
        size_t j = i;
        while (j < len && !isspace((unsigned char)p[j])) j++;
        if (j == i) break;
        int m = f->dmon_map[n];
        vals[n] = NAN;
        if (m == CORR_M_DMON_DATE && j - i == 8 && !digits(p + i, 8, &ymd)) {
            have_date = 1;
        } else if (m == CORR_M_DMON_TIME && j - i == 8 && p[i + 2] == ':' &&
                   !digits(p + i, 2, &hh) && !digits(p + i + 3, 2, &mi) &&
                   !digits(p + i + 6, 2, &ss)) {
            have_time = 1;
        } else if (m == CORR_M_GPU_INDEX) {
            double g;
            if (!lead_number(p + i, j - i, &g)) gpu = gpu_index(g);
        } else if (m >= 0 && m < CORR_M_COUNT && p[i] != '-') {
            lead_number(p + i, j - i, &vals[n]);
        }
        n++;
        i = j;
    }
    if (have_date && have_time) {
        t.kind = AZ_TIME_ABS;
        t.usec = az_usec_from_civil(ymd / 10000, (ymd / 100) % 100, ymd % 100, hh, mi, ss, 0);
        f->last_time = t;
    }
    for (int k = 0; k < n; k++) {
        int m = f->dmon_map[k];
        if (m >= 0 && m < CORR_M_COUNT)
            metric_add(st, file, gpu, (enum corr_metric)m, t, vals[k], line);
    }
}

/* ---- nvidia-smi -q ---- */

static void q_record(struct corr_state *st, size_t file, const char *p, size_t len, uint64_t line,
                     struct az_time t)
{
    struct corr_file *f = &st->files[file];
    const char *colon = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (p[i] == ':' && (i + 1 == len || p[i + 1] == ' ')) {
            colon = p + i;
            break;
        }
    const char *k = p;
    size_t kl = colon ? (size_t)(colon - p) : len;
    trim(&k, &kl);
    const char *v = colon ? colon + 1 : p + len;
    size_t vl = colon ? len - (size_t)(colon + 1 - p) : 0;
    trim(&v, &vl);
    if (!kl) return;
    if (!vl || az_memcasemem(k, kl, "Reasons", 7)) {
        size_t n = AZ_MIN(kl, sizeof f->q_section - 1);
        memcpy(f->q_section, k, n);
        f->q_section[n] = '\0';
        return;
    }
    const char *sec = f->q_section;
    size_t sl = strlen(sec);
#define KEY_IS(s) (kl == sizeof(s) - 1 && !memcmp(k, s, kl))
    double num = NAN;
    if (az_memcasemem(sec, sl, "Reasons", 7)) {
        int active = vl == 6 && !memcmp(v, "Active", 6);
        int thermal = az_memcasemem(k, kl, "Thermal", 7) || KEY_IS("HW Slowdown");
        int power = az_memcasemem(k, kl, "Power Cap", 9) || az_memcasemem(k, kl, "Power Brake", 11);
        if (thermal || power) {
            /* One sample per reason line; count snapshots where a reason is active. */
            if (active)
                note_throttle(st, file, line, t, p, len, thermal, power);
            else if (thermal && az_memcasemem(k, kl, "SW Thermal", 10))
                note_throttle(st, file, line, t, p, len, 0, 0);
        }
        return;
    }
    if (KEY_IS("GPU Current Temp") && !lead_number(v, vl, &num)) {
        metric_add(st, file, 0, CORR_M_TEMP, t, num, line);
    } else if ((KEY_IS("Power Draw") || KEY_IS("Instantaneous Power Draw")) &&
               az_memcasemem(sec, sl, "Power", 5)) {
        if (!lead_number(v, vl, &num)) metric_add(st, file, 0, CORR_M_POWER, t, num, line);
    } else if (!strcmp(sec, "Clocks") && KEY_IS("SM") && !lead_number(v, vl, &num)) {
        metric_add(st, file, 0, CORR_M_SM_CLK, t, num, line);
    } else if (!strcmp(sec, "Clocks") && KEY_IS("Memory") && !lead_number(v, vl, &num)) {
        metric_add(st, file, 0, CORR_M_MEM_CLK, t, num, line);
    } else if (!strcmp(sec, "Utilization") && KEY_IS("Gpu") && !lead_number(v, vl, &num)) {
        metric_add(st, file, 0, CORR_M_UTIL_GPU, t, num, line);
    } else if (az_memcasemem(sec, sl, "FB Memory Usage", 15) &&
               (KEY_IS("Used") || KEY_IS("Total"))) {
        if (is_na(v, vl))
            note_mem_na(st, file, line, t, p, len);
        else if (!lead_number(v, vl, &num))
            metric_add(st, file, 0, KEY_IS("Used") ? CORR_M_MEM_USED : CORR_M_MEM_TOTAL, t, num,
                       line);
    }
#undef KEY_IS
}

/* ---- nvidia-smi default table: "| N/A   92C    P0   100W / N/A |  Not Supported  | ..." ---- */

static void table_record(struct corr_state *st, size_t file, const char *p, size_t len,
                         uint64_t line, struct az_time t)
{
    if (!len || p[0] != '|') return;
    double temp = NAN, power = NAN;
    size_t i = 1;
    while (i < len) {
        while (i < len && (p[i] == ' ' || p[i] == '|')) i++;
        size_t j = i;
        while (j < len && p[j] != ' ' && p[j] != '|') j++;
        if (j > i + 1 && isdigit((unsigned char)p[i])) {
            size_t d = i;
            while (d < j && (isdigit((unsigned char)p[d]) || p[d] == '.')) d++;
            if (d == j - 1 && p[d] == 'C' && isnan(temp))
                tok_parse_double(p + i, d - i, &temp);
            else if (d == j - 1 && p[d] == 'W' && isnan(power))
                tok_parse_double(p + i, d - i, &power);
        }
        i = j;
    }
    if (isnan(power) && isnan(temp)) return;
    if (!isnan(power)) metric_add(st, file, 0, CORR_M_POWER, t, power, line);
    if (!isnan(temp)) metric_add(st, file, 0, CORR_M_TEMP, t, temp, line);
    if (az_memcasemem(p, len, "Not Supported", 13)) note_mem_na(st, file, line, t, p, len);
}

/* ---- /proc/meminfo and free ---- */

static void cache_seen(struct corr_state *st, size_t file, uint64_t kb, uint64_t line,
                       struct az_time t, const char *p, size_t len)
{
    if (kb <= st->meminfo_cached_kb) return;
    st->meminfo_cached_kb = kb;
    corr_rec_clear(&st->cache_rec);
    corr_rec_fill(&st->cache_rec, file, line, line, t, 0, 0, TOK_LEVEL_NONE, st->files[file].lane,
                  p, len, NULL);
    st->have_cache_rec = 1;
}

static double free_value_kb(const char *p, size_t len, double total_raw)
{
    double v;
    if (lead_number(p, len, &v)) return NAN;
    size_t i = 0;
    while (i < len && (isdigit((unsigned char)p[i]) || p[i] == '.')) i++;
    char u = i < len ? p[i] : ' ';
    if (u == 'G' || u == 'g') return v * 1024 * 1024;
    if (u == 'M' || u == 'm') return v * 1024;
    if (u == 'T' || u == 't') return v * 1024 * 1024 * 1024;
    if (u == 'K' || u == 'k') return v;
    /* free -g / -m / plain kB: guess the unit from the size of the total */
    if (total_raw < 4096) return v * 1024 * 1024;
    if (total_raw < 4194304) return v * 1024;
    return v;
}

/* 1 EiB in kB: more memory than any machine has; a figure past it (a fuzzed "1e22G") is
 * clamped, so the conversion stays defined and Cached + Buffers cannot wrap. */
#define KB_MAX ((uint64_t)1 << 50)

/* A kB figure as a count: negative or NaN is 0, anything past KB_MAX is KB_MAX. */
static uint64_t kb_count(double v)
{
    if (!(v > 0)) return 0;
    return v >= (double)KB_MAX ? KB_MAX : (uint64_t)v;
}

static void meminfo_record(struct corr_state *st, size_t file, const char *p, size_t len,
                           uint64_t line, struct az_time t)
{
    struct corr_file *f = &st->files[file];
    double v;
    if (az_starts_with(p, len, "Cached:") && !lead_number(p + 7, len - 7, &v)) {
        f->mi_cached_kb = kb_count(v);
        cache_seen(st, file, f->mi_cached_kb + f->mi_buffers_kb, line, t, p, len);
        return;
    }
    if (az_starts_with(p, len, "Buffers:") && !lead_number(p + 8, len - 8, &v)) {
        f->mi_buffers_kb = kb_count(v);
        cache_seen(st, file, f->mi_cached_kb + f->mi_buffers_kb, line, t, p, len);
        return;
    }
    if (az_memcasemem(p, len, "buff/cache", 10) && az_memcasemem(p, len, "total", 5)) {
        int col = 0;
        size_t i = 0;
        f->free_cache_col = f->free_total_col = -1;
        while (i < len) {
            while (i < len && isspace((unsigned char)p[i])) i++;
            size_t j = i;
            while (j < len && !isspace((unsigned char)p[j])) j++;
            if (j == i) break;
            if (j - i == 10 && !memcmp(p + i, "buff/cache", 10)) f->free_cache_col = col;
            if (j - i == 5 && !memcmp(p + i, "total", 5)) f->free_total_col = col;
            col++;
            i = j;
        }
        return;
    }
    if (f->free_cache_col >= 0 && az_starts_with(p, len, "Mem:")) {
        const char *tok[16];
        size_t tl[16];
        int n = 0;
        size_t i = 4;
        while (i < len && n < 16) {
            while (i < len && isspace((unsigned char)p[i])) i++;
            size_t j = i;
            while (j < len && !isspace((unsigned char)p[j])) j++;
            if (j == i) break;
            tok[n] = p + i;
            tl[n++] = j - i;
            i = j;
        }
        if (f->free_cache_col < n && f->free_total_col >= 0 && f->free_total_col < n) {
            double total;
            if (lead_number(tok[f->free_total_col], tl[f->free_total_col], &total)) return;
            double kb = free_value_kb(tok[f->free_cache_col], tl[f->free_cache_col], total);
            if (!isnan(kb) && kb > 0) cache_seen(st, file, kb_count(kb), line, t, p, len);
        }
    }
}

void corr_series_record(struct corr_state *st, size_t file, const char *p, size_t len,
                        uint64_t line, struct az_time t, int own_time)
{
    (void)own_time;
    struct corr_file *f = &st->files[file];
    switch (f->kind) {
    case TOK_KIND_SMI_CSV:
        if (csv_is_header(p, len))
            csv_header(f, p, len);
        else if (f->csv_ncols > 0)
            csv_row(st, file, p, len, line, t);
        else
            csv_row_units(st, file, p, len, line, t);
        break;
    case TOK_KIND_SMI_DMON:
        if (len && p[0] == '#') {
            if (az_memcasemem(p, len, "pwr", 3) || az_memcasemem(p, len, "pclk", 4) ||
                az_memcasemem(p, len, "gtemp", 5))
                dmon_header(f, p, len);
        } else if (f->dmon_ncols > 0) {
            dmon_row(st, file, p, len, line, t);
        }
        break;
    case TOK_KIND_SMI_Q: q_record(st, file, p, len, line, t); break;
    case TOK_KIND_SMI: table_record(st, file, p, len, line, t); break;
    case TOK_KIND_MEMINFO:
    case TOK_KIND_TEXT: meminfo_record(st, file, p, len, line, t); break;
    case TOK_KIND_TRAIN:
    case TOK_KIND_STDERR:
    case TOK_KIND_KERNEL:
    case TOK_KIND_SMI_XML:
    case TOK_KIND_PIP:
    case TOK_KIND_PIP_LIST:
    case TOK_KIND_COLLECT_ENV:
    case TOK_KIND_VLLM:
    case TOK_KIND_NCCL:
    case TOK_KIND_PREFLIGHT:
    case TOK_KIND_RUN_RECORD:
    case TOK_KIND_COUNT:
        /* A sampler CSV inside another kind's file: "timestamp,temperature.gpu,power.draw". */
        if (!memchr(p, ',', len)) break; /* neither a header nor a row: most records */
        if (csv_is_header(p, len))
            csv_header(f, p, len);
        else if (f->csv_ncols > 0 && t.kind != AZ_TIME_NONE)
            csv_row(st, file, p, len, line, t);
        break;
    }
}

/* ---- facts of signature hits ---- */

static const struct {
    const char *fact, *name, *unit;
    int invert;   /* 1: the series holds 1/value (s/it -> it/s) */
    int smi_only; /* 1: read structurally from nvidia-smi files instead */
} series_facts[] = {
    {"tokens_per_s", "throughput", "tok/s", 0, 0},
    {"it_per_s", "throughput", "it/s", 0, 0},
    {"s_per_it", "throughput", "it/s", 1, 0},
    {"samples_per_s", "throughput", "samples/s", 0, 0},
    {"step_s", "throughput", "steps/s", 1, 0},
    {"loss", "loss", "", 0, 0},
    {"grad_norm", "grad_norm", "", 0, 0},
    {"power_w", "power.draw", "W", 0, 1},
    {"temp_c", "temperature.gpu", "C", 0, 1},
    {"sm_mhz", "clocks.sm", "MHz", 0, 1},
    {"gpu_util_pct", "utilization.gpu", "%", 0, 1},
};

int corr_series_sig_feeds(const struct corr_state *st, size_t sig, int smi_kind)
{
    const struct match_sig *s = match_pack_sig(st->pack, sig);
    for (size_t i = 0; i < s->nfacts; i++) {
        int k = st->sigfx[sig].series[i];
        if (k >= 0 && !(series_facts[k].smi_only && smi_kind)) return 1;
    }
    return 0;
}

int corr_series_fact_index(const char *fact)
{
    for (size_t k = 0; k < AZ_ARRAY_LEN(series_facts); k++)
        if (!strcmp(fact, series_facts[k].fact)) return (int)k;
    return -1;
}

/* The builder for series_facts[k] in (file, lane): a one-entry cache per k in front of the search,
 * since a file's hits keep feeding the same few series. */
static int hit_builder(struct corr_state *st, size_t file, const char *lane, size_t k,
                       struct az_time t)
{
    int c = k < CORR_SERIES_FACTS ? st->series_hit_cache[k] - 1 : -1;
    if (c >= 0 && (size_t)c < st->nseries) {
        const struct corr_sbuild *b = &st->series[c];
        if (b->file == file && !strcmp(b->lane, lane)) return c;
    }
    int idx = find_builder(st, file, lane, series_facts[k].name, series_facts[k].unit);
    if (idx < 0) idx = new_builder(st, file, lane, series_facts[k].name, series_facts[k].unit, t);
    if (k < CORR_SERIES_FACTS) st->series_hit_cache[k] = idx + 1;
    return idx;
}

size_t corr_series_hit_mapped(struct corr_state *st, size_t file, const char *lane,
                              const struct match_hit *hit, const signed char *fact_series,
                              uint64_t line, struct az_time t, int smi_kind, size_t w)
{
    size_t stride = 0;
    for (size_t i = 0; i < hit->nfacts; i++) {
        int k = fact_series[i];
        if (k < 0) continue;
        const struct match_fact *mf = &hit->facts[i];
        if (!mf->def || !mf->val || isnan(mf->num)) continue;
        if (series_facts[k].smi_only && smi_kind) continue;
        double v = mf->num;
        if (series_facts[k].name[0] == 't' && !strcmp(series_facts[k].name, "throughput")) {
            if (v <= 0) continue; /* an idle server reports 0 tokens/s: not a sample */
            if (series_facts[k].invert) v = 1.0 / v;
        }
        if (isnan(v) || isinf(v)) continue;
        int idx = hit_builder(st, file, lane, (size_t)k, t);
        push_w(st, idx, t, v, line, w);
        stride = AZ_MAX(stride, st->series[idx].stride);
    }
    return stride;
}

/* ---- finishing ---- */

static int spoint_cmp(const void *a, const void *b)
{
    const struct corr_spoint *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

void corr_series_finish(struct corr_state *st)
{
    for (size_t s = 0; s < st->nseries; s++) {
        struct corr_sbuild *b = &st->series[s];
        if (b->acc_k) builder_flush(b);
        double origin = b->n ? b->pts[0].t : 0;
        for (size_t i = 0; i < b->n; i++) {
            if (b->tkind == AZ_TIME_NONE) {
                b->approx = 1;
                continue; /* sequence numbers: one per sample */
            }
            struct az_time raw = {(int64_t)b->pts[i].t, b->tkind};
            int approx = 0;
            struct az_time m = corr_timeline_map(st, b->file, raw, b->boot_seg, &approx);
            double secs = corr_timeline_secs(st, m);
            if (isnan(secs)) {
                secs = (b->pts[i].t - origin) / 1e6;
                approx = 1;
            }
            if (approx) b->approx = 1;
            b->pts[i].t = secs;
        }
        qsort(b->pts, b->n, sizeof *b->pts, spoint_cmp);
        if (b->n > CORR_SERIES_MAX) {
            size_t groups = CORR_SERIES_MAX, n = b->n;
            for (size_t g = 0; g < groups; g++) {
                size_t lo = g * n / groups, hi = (g + 1) * n / groups;
                double tt = 0, vv = 0;
                for (size_t i = lo; i < hi; i++) tt += b->pts[i].t, vv += b->pts[i].v;
                uint64_t ln = b->pts[lo].line;
                b->pts[g].t = tt / (double)(hi - lo);
                b->pts[g].v = vv / (double)(hi - lo);
                b->pts[g].line = ln;
            }
            b->n = groups;
        }
    }
}

int corr_series_find(const struct corr_state *st, const char *name, const char *unit, size_t from)
{
    int best = -1;
    for (size_t i = from; i < st->nseries; i++) {
        const struct corr_sbuild *b = &st->series[i];
        if (strcmp(b->name, name) || (unit && strcmp(b->unit, unit))) continue;
        if (best < 0 || b->n > st->series[best].n) best = (int)i;
    }
    return best;
}

struct corr_change corr_change_point(const struct corr_spoint *pts, size_t n, size_t min_seg)
{
    struct corr_change c = {0, 0, NAN, NAN, 0};
    if (min_seg < 2) min_seg = 2;
    if (n < 2 * min_seg) return c;
    double s = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) s += pts[i].v, s2 += pts[i].v * pts[i].v;
    double left = 0, best = INFINITY;
    size_t at = 0;
    for (size_t k = 1; k < n; k++) {
        left += pts[k - 1].v;
        if (k < min_seg || n - k < min_seg) continue;
        double right = s - left;
        double sse = s2 - left * left / (double)k - right * right / (double)(n - k);
        if (sse < best) {
            best = sse;
            at = k;
        }
    }
    if (!at) return c;
    double l = 0;
    for (size_t i = 0; i < at; i++) l += pts[i].v;
    c.found = 1;
    c.at = at;
    c.before = l / (double)at;
    c.after = (s - l) / (double)(n - at);
    double var = best > 0 ? best / (double)(n - 2) : 0;
    double diff = fabs(c.after - c.before);
    c.effect = var > 1e-12 ? diff / sqrt(var) : (diff > 0 ? 99.0 : 0.0);
    return c;
}
