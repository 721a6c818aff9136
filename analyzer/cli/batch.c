/* cli/batch.c - see batch.h. */
#define _DEFAULT_SOURCE /* DT_* and d_type for run discovery */
#include "cli/batch.h"
#include "cli/cli.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strcasecmp */
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "report/report.h"

/* /2: each line keeps the run's dashboard facts beside its row. Any other version of the
 * header is a stale cache, rebuilt silently. */
#define CACHE_MAGIC         "gotcha-batch-cache/2"
#define CACHE_MAGIC_VERSION "gotcha-batch-cache/"

/* ---- small helpers ---- */

struct strvec {
    char **v;
    size_t n, cap;
};

static void strvec_push(struct strvec *s, char *str)
{
    az_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->v[s->n++] = str;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void strvec_sort_unique(struct strvec *s)
{
    if (s->n == 0) return;
    qsort(s->v, s->n, sizeof *s->v, cmp_str);
    size_t w = 1;
    for (size_t i = 1; i < s->n; i++) {
        if (strcmp(s->v[i], s->v[w - 1]) == 0)
            free(s->v[i]);
        else
            s->v[w++] = s->v[i];
    }
    s->n = w;
}

static uint64_t fnv1a_str(uint64_t h, const char *s)
{
    return az_fnv1a(h, s, strlen(s) + 1); /* the NUL separates fields */
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    return az_xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

/* ---- discovery ---- */

/* A bundle is a file that holds a whole run: an archive. Named by the usual extensions; the
 * content is still recognised by magic bytes when it is read. */
static int is_bundle_name(const char *name)
{
    static const char *const ext[] = {".tar", ".tar.gz",  ".tgz",  ".tar.zst", ".tzst", ".tar.xz",
                                      ".txz", ".tar.bz2", ".tbz2", ".tar.lz4", ".zip",  ".7z"};
    size_t n = strlen(name);
    for (size_t i = 0; i < AZ_ARRAY_LEN(ext); i++) {
        size_t e = strlen(ext[i]);
        if (n > e && strcmp(name + n - e, ext[i]) == 0) return 1;
    }
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A shelf's own notes (README.md, an index) do not make it a run. */
static int is_doc_name(const char *name)
{
    static const char *const prefix[] = {"README", "LICENSE", "CHANGELOG", "INDEX"};
    static const char *const ext[] = {".md", ".rst", ".html"};
    for (size_t i = 0; i < AZ_ARRAY_LEN(prefix); i++)
        if (strncasecmp(name, prefix[i], strlen(prefix[i])) == 0) return 1;
    size_t n = strlen(name);
    for (size_t i = 0; i < AZ_ARRAY_LEN(ext); i++) {
        size_t e = strlen(ext[i]);
        if (n > e && strcasecmp(name + n - e, ext[i]) == 0) return 1;
    }
    return 0;
}

struct dir_listing {
    struct strvec files; /* regular files (full paths) */
    struct strvec dirs;  /* subdirectories (full paths) */
};

static void listing_free(struct dir_listing *l)
{
    for (size_t i = 0; i < l->files.n; i++) free(l->files.v[i]);
    for (size_t i = 0; i < l->dirs.n; i++) free(l->dirs.v[i]);
    free(l->files.v);
    free(l->dirs.v);
}

static int list_dir(const char *dir, struct dir_listing *l, FILE *err, int quiet)
{
    memset(l, 0, sizeof *l);
    DIR *d = opendir(dir);
    if (!d) {
        if (!quiet) fprintf(err, "gotcha: warning: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue; /* ., .., and hidden files such as .git */
        char *p = path_join(dir, de->d_name);
        struct stat st;
        if (stat(p, &st) != 0) {
            free(p);
            continue;
        }
        if (S_ISDIR(st.st_mode))
            strvec_push(&l->dirs, p);
        else if (S_ISREG(st.st_mode))
            strvec_push(&l->files, p);
        else
            free(p);
    }
    closedir(d);
    strvec_sort_unique(&l->files);
    strvec_sort_unique(&l->dirs);
    return 0;
}

/* Automatic mode: a directory that directly holds log files is a run (with its subdirectories);
 * a directory holding only bundles makes each bundle a run; a directory holding only directories is
 * a shelf of runs, searched deeper. The depth cap stops symlinked directory loops. */
static void discover_auto(const char *dir, unsigned depth, struct strvec *runs, FILE *err,
                          int quiet)
{
    if (depth > 64) return;
    struct dir_listing l;
    if (list_dir(dir, &l, err, quiet) != 0) return;
    size_t logs = 0, docs = 0;
    for (size_t i = 0; i < l.files.n; i++) {
        const char *base = base_name(l.files.v[i]);
        if (is_doc_name(base))
            docs++;
        else if (!is_bundle_name(base))
            logs++;
    }
    /* notes beside nothing else still make a run: a job directory may hold only a README */
    if (logs > 0 || (docs > 0 && l.dirs.n == 0)) {
        strvec_push(runs, az_xstrdup(dir));
    } else {
        for (size_t i = 0; i < l.files.n; i++)
            if (!is_doc_name(base_name(l.files.v[i]))) strvec_push(runs, az_xstrdup(l.files.v[i]));
        for (size_t i = 0; i < l.dirs.n; i++)
            discover_auto(l.dirs.v[i], depth + 1, runs, err, quiet);
    }
    listing_free(&l);
}

/* --run-depth N: the runs are the entries exactly N levels below the root. */
static void discover_depth(const char *dir, int left, struct strvec *runs, FILE *err, int quiet)
{
    if (left == 0) {
        strvec_push(runs, az_xstrdup(dir));
        return;
    }
    struct dir_listing l;
    if (list_dir(dir, &l, err, quiet) != 0) return;
    if (left == 1)
        for (size_t i = 0; i < l.files.n; i++)
            if (!is_doc_name(base_name(l.files.v[i]))) strvec_push(runs, az_xstrdup(l.files.v[i]));
    for (size_t i = 0; i < l.dirs.n; i++) discover_depth(l.dirs.v[i], left - 1, runs, err, quiet);
    listing_free(&l);
}

static int read_list(const char *path, int nul, struct strvec *runs, FILE *err)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fprintf(err, "gotcha: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getdelim(&line, &cap, nul ? '\0' : '\n', f)) > 0) {
        while (n > 0 &&
               (line[n - 1] == '\n' || line[n - 1] == '\0' || (!nul && line[n - 1] == '\r')))
            line[--n] = '\0';
        if (n > 0) strvec_push(runs, az_xstrndup(line, (size_t)n));
    }
    free(line);
    int bad = ferror(f);
    if (f != stdin) fclose(f);
    if (bad) {
        fprintf(err, "gotcha: %s: read error\n", path);
        return -1;
    }
    return 0;
}

size_t batch_discover(const struct batch_options *o, char ***out, FILE *err)
{
    struct strvec runs = {0};
    if (o->files_from) read_list(o->files_from, o->nul_separated, &runs, err);
    for (size_t i = 0; i < o->nroots; i++) {
        const char *root = o->roots[i];
        struct stat st;
        if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
            /* A file root is a bundle run; a missing one becomes an error row. */
            strvec_push(&runs, az_xstrdup(root));
            continue;
        }
        if (o->run_depth >= 0)
            discover_depth(root, o->run_depth, &runs, err, o->quiet);
        else
            discover_auto(root, 0, &runs, err, o->quiet);
    }
    strvec_sort_unique(&runs);
    *out = runs.v;
    return runs.n;
}

/* ---- identity of a run's inputs and of the configuration, for the cache ---- */

static uint64_t inputs_hash(const char *run, int64_t *newest_mtime)
{
    *newest_mtime = 0;
    struct ingest_walk *w = NULL;
    const char *paths[1] = {run};
    enum az_status st = ingest_walk_paths(paths, 1, &w);
    uint64_t h = AZ_FNV1A_SEED;
    h = az_fnv1a(h, &st, sizeof st);
    for (size_t i = 0; w && i < ingest_walk_count(w); i++) {
        const struct ingest_entry *e = ingest_walk_entry(w, i);
        h = fnv1a_str(h, e->display);
        h = az_fnv1a(h, &e->size, sizeof e->size);
        h = az_fnv1a(h, &e->mtime, sizeof e->mtime);
        if (e->mtime > *newest_mtime) *newest_mtime = e->mtime;
    }
    for (size_t i = 0; w && i < ingest_walk_skip_count(w); i++) {
        const struct ingest_skip *s = ingest_walk_skip(w, i);
        h = fnv1a_str(h, s->path);
        h = fnv1a_str(h, s->reason);
    }
    ingest_walk_free(w);
    return h;
}

uint64_t batch_config_hash(const struct corr_config *cfg)
{
    uint64_t h = fnv1a_str(AZ_FNV1A_SEED, GOTCHA_VERSION);
    /* the row's fields: a cache of rows in an older shape is rebuilt, not reported corrupt */
    h = fnv1a_str(h, report_batch_csv_header(1));
    const struct match_pack *p = cfg->pack;
    for (size_t i = 0; i < match_pack_entry_count(p); i++) {
        const struct match_entry *e = match_pack_entry(p, i);
        h = fnv1a_str(h, e->id);
        h = fnv1a_str(h, e->title);
        h = fnv1a_str(h, e->fix ? e->fix : "");
        /* the data model the correlator evaluates: a changed rule must not reuse old rows */
        h = fnv1a_str(h, e->scope.platform ? e->scope.platform : "");
        h = az_fnv1a(h, &e->scope.factor, sizeof e->scope.factor);
        h = fnv1a_str(h, e->ruled_out ? e->ruled_out : "");
        for (size_t k = 0; k < e->ntags; k++) h = fnv1a_str(h, e->tags[k]);
        for (size_t k = 0; k < e->nexplains; k++) {
            h = fnv1a_str(h, e->explains[k].id ? e->explains[k].id : "");
            h = az_fnv1a(h, &e->explains[k].min_cause, sizeof e->explains[k].min_cause);
        }
        for (size_t k = 0; k < e->nrules; k++) {
            const struct match_rule *r = e->rules[k];
            h = fnv1a_str(h, r->use);
            for (size_t v = 0; v < r->nvalues; v++) {
                const struct match_value *mv = &r->values[v];
                h = fnv1a_str(h, mv->name);
                h = az_fnv1a(h, &mv->num, sizeof mv->num);
                h = fnv1a_str(h, mv->str ? mv->str : "");
                for (size_t l = 0; l < mv->nlist; l++) h = fnv1a_str(h, mv->list[l]);
            }
            for (size_t u = 0; u < r->noutcomes; u++) {
                const struct match_outcome *mo = &r->outcomes[u];
                h = fnv1a_str(h, mo->name);
                h = az_fnv1a(h, &mo->weight, sizeof mo->weight);
                h = az_fnv1a(h, &mo->factor, sizeof mo->factor);
                h = az_fnv1a(h, &mo->cap, sizeof mo->cap);
                h = fnv1a_str(h, mo->says ? mo->says : "");
                h = fnv1a_str(h, mo->note ? mo->note : "");
            }
        }
    }
    for (size_t i = 0; i < match_pack_sig_count(p); i++) {
        const struct match_sig *s = match_pack_sig(p, i);
        h = fnv1a_str(h, s->id);
        h = fnv1a_str(h, s->regex);
        h = az_fnv1a(h, &s->strength, sizeof s->strength);
        h = az_fnv1a(h, &s->kinds, sizeof s->kinds);
        h = az_fnv1a(h, &s->role, sizeof s->role);
        h = az_fnv1a(h, &s->contrary_factor, sizeof s->contrary_factor);
        for (size_t k = 0; k < s->ntags; k++) h = fnv1a_str(h, s->tags[k]);
    }
    h = az_fnv1a(h, &cfg->threshold, sizeof cfg->threshold);
    h = fnv1a_str(h, cfg->platform ? cfg->platform : "");
    /* what places a run and what its rules read */
    for (size_t i = 0; i < match_pack_platform_count(p); i++) {
        const struct match_platform *pl = match_pack_platform(p, i);
        h = fnv1a_str(h, pl->id);
        for (size_t k = 0; k < pl->ndevice_names; k++) h = fnv1a_str(h, pl->device_names[k]);
        for (size_t k = 0; k < pl->ncapabilities; k++) h = fnv1a_str(h, pl->capabilities[k]);
        h = az_fnv1a(h, &pl->pool_lo_gib, sizeof pl->pool_lo_gib);
        h = az_fnv1a(h, &pl->pool_hi_gib, sizeof pl->pool_hi_gib);
        for (size_t k = 0; k < pl->nfacts; k++) {
            h = fnv1a_str(h, pl->facts[k].name);
            h = az_fnv1a(h, &pl->facts[k].num, sizeof pl->facts[k].num);
            h = fnv1a_str(h, pl->facts[k].str ? pl->facts[k].str : "");
        }
    }
    h = az_fnv1a(h, &cfg->ingest.max_line, sizeof cfg->ingest.max_line);
    h = az_fnv1a(h, &cfg->ingest.expand_floor, sizeof cfg->ingest.expand_floor);
    h = az_fnv1a(h, &cfg->ingest.expand_ratio, sizeof cfg->ingest.expand_ratio);
    return h;
}

/* ---- the cache: a header line, then "<inputs hash> <row json>\t<facts json>" per run, sorted
 * by run (compact JSON never holds a raw tab) ---- */

struct cache_entry {
    char *run;
    uint64_t inputs;
    char *row;   /* the row's JSON line */
    char *facts; /* the run's dashboard facts (report_dash_facts_json()) */
};

struct cache {
    struct cache_entry *v;
    size_t n, cap;
};

static int cmp_cache(const void *a, const void *b)
{
    return strcmp(((const struct cache_entry *)a)->run, ((const struct cache_entry *)b)->run);
}

static void cache_free(struct cache *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].run);
        free(c->v[i].row);
        free(c->v[i].facts);
    }
    free(c->v);
    memset(c, 0, sizeof *c);
}

/* Load the cache; a missing file is an empty cache, a corrupt or foreign one is reported and
 * dropped whole: one bad line means the file cannot be trusted. */
static void cache_load(struct cache *c, const char *path, uint64_t config, FILE *err, int quiet)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (!f) return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    const char *problem = NULL;
    int stale = 0; /* written by another version, pack or settings: rebuilt without a warning */
    char header[96];
    snprintf(header, sizeof header, "%s %016llx", CACHE_MAGIC, (unsigned long long)config);
    if ((n = getline(&line, &cap, f)) <= 0) {
        problem = "empty file";
    } else {
        if (line[n - 1] == '\n') line[--n] = '\0';
        if (strncmp(line, CACHE_MAGIC_VERSION, strlen(CACHE_MAGIC_VERSION)) != 0)
            problem = "not a gotcha batch cache";
        else
            stale = strcmp(line, header) != 0;
    }
    while (!problem && !stale && (n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n') line[--n] = '\0';
        char *end;
        errno = 0;
        unsigned long long ih = strtoull(line, &end, 16);
        struct report_batch_row row;
        struct report_dash_facts facts;
        char *tab = errno || end != line + 16 || *end != ' ' ? NULL : strchr(end + 1, '\t');
        if (!tab || report_batch_row_parse(&row, end + 1, (size_t)(tab - end - 1)) != AZ_OK) {
            problem = "corrupt entry";
            break;
        }
        if (report_dash_facts_parse(&facts, tab + 1, (size_t)(line + n - tab - 1)) != AZ_OK) {
            report_batch_row_free(&row);
            problem = "corrupt entry";
            break;
        }
        az_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v);
        c->v[c->n].run = az_xstrdup(row.run);
        c->v[c->n].inputs = ih;
        c->v[c->n].row = az_xstrndup(end + 1, (size_t)(tab - end - 1));
        c->v[c->n].facts = az_xstrdup(tab + 1);
        c->n++;
        report_batch_row_free(&row);
        report_dash_facts_free(&facts);
    }
    free(line);
    fclose(f);
    if (problem || stale) {
        if (problem && !quiet)
            fprintf(err, "gotcha: warning: %s: %s; rebuilding the cache\n", path, problem);
        cache_free(c);
        return;
    }
    qsort(c->v, c->n, sizeof *c->v, cmp_cache);
}

static const struct cache_entry *cache_find(const struct cache *c, const char *run)
{
    struct cache_entry key = {(char *)(uintptr_t)run, 0, NULL, NULL};
    return c->n ? bsearch(&key, c->v, c->n, sizeof *c->v, cmp_cache) : NULL;
}

/* ---- the worker pool ---- */

struct run_slot {
    uint64_t inputs;  /* inputs hash */
    char *row_json;   /* the output row */
    char *facts_json; /* its dashboard facts (report_dash_facts_json()) */
    int unreadable;   /* 1 when the run could not be read */
    int from_cache;
    int has_report;    /* --reports: its report was written */
    char *report_fail; /* --reports: why its report could not be written, or NULL */
};

struct pool {
    const struct batch_options *o;
    char **runs;
    size_t nruns;
    struct run_slot *slots;
    const struct cache *cache;
    atomic_size_t next;
    atomic_size_t done;
};

static int row_unreadable(const struct report_batch_row *row)
{
    return row->error[0] != '\0';
}

/* --reports: scan's HTML report of run i, under its report_dash_report_name(). */
static void write_report(struct pool *p, size_t i, const struct corr_result *res)
{
    char name[160];
    report_dash_report_name(p->runs[i], p->o->redact, name, sizeof name);
    char *path = path_join(p->o->reports_dir, name);
    errno = 0;
    FILE *f = fopen(path, "w");
    struct report_options ro = {0, p->o->redact, 0, GOTCHA_VERSION, NULL};
    int failed = !f || report_write(f, REPORT_HTML, res, p->o->cfg->pack, &ro) != AZ_OK;
    if (f && fclose(f) != 0) failed = 1;
    if (failed)
        p->slots[i].report_fail =
            az_xasprintf("%s: %s", path, errno ? strerror(errno) : "write error");
    else
        p->slots[i].has_report = 1;
    free(path);
}

static void analyse_one(struct pool *p, struct match_scanner *scanner, size_t i)
{
    const char *run = p->runs[i];
    struct run_slot *slot = &p->slots[i];
    int64_t newest_mtime;
    slot->inputs = inputs_hash(run, &newest_mtime);
    /* a report needs the whole result, which the cache does not keep */
    const struct cache_entry *hit =
        p->cache && !p->o->reports_dir ? cache_find(p->cache, run) : NULL;
    struct report_batch_row row;
    if (hit && hit->inputs == slot->inputs &&
        report_batch_row_parse(&row, hit->row, strlen(hit->row)) == AZ_OK) {
        slot->row_json = az_xstrdup(hit->row);
        slot->facts_json = az_xstrdup(hit->facts);
        slot->unreadable = row_unreadable(&row);
        slot->from_cache = 1;
        report_batch_row_free(&row);
        return;
    }
    struct report_dash_facts facts;
    double t0 = now_ms();
    struct corr_result *res = NULL;
    const char *paths[1] = {run};
    enum az_status st = corr_analyze(p->o->cfg, scanner, paths, 1, &res);
    uint64_t ms = (uint64_t)(now_ms() - t0 + 0.5);
    if (st != AZ_OK || !res) {
        report_batch_row_error(&row, run, "analysis failed");
        report_dash_facts_from_mtime(&facts, newest_mtime);
    } else {
        report_batch_row_from_result(&row, run, res, ms);
        if (!row.error[0] && res->ninputs == 0 && res->nskipped > 0) {
            free(row.error);
            row.error = az_xasprintf("no readable input: %s", res->skipped[0].reason);
        }
        report_dash_facts_from_result(&facts, res, newest_mtime);
        if (p->o->reports_dir && !row.error[0]) write_report(p, i, res);
    }
    corr_result_free(res);
    slot->facts_json = report_dash_facts_json(&facts);
    report_dash_facts_free(&facts);
    slot->row_json = report_batch_row_json(&row);
    slot->unreadable = row_unreadable(&row);
    report_batch_row_free(&row);
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    struct match_scanner *scanner = match_scanner_new(p->o->cfg->pack);
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->nruns) break;
        analyse_one(p, scanner, i);
        atomic_fetch_add(&p->done, 1);
    }
    match_scanner_free(scanner);
    return NULL;
}

static void show_progress(FILE *err, size_t done, size_t total, double elapsed_ms, int final)
{
    double rate = elapsed_ms > 0 ? (double)done * 1000.0 / elapsed_ms : 0;
    double eta = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(err, "\rgotcha batch: %zu/%zu runs, %.1f runs/s, ETA %.0f s   %s", done, total, rate,
            eta, final ? "\n" : "");
    fflush(err);
}

/* ---- summary ---- */

struct tally {
    const char *key; /* borrowed from a row */
    const char *text;
    const char *id;
    size_t count;
};

static int cmp_tally(const void *a, const void *b)
{
    const struct tally *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return strcmp(x->key, y->key);
}

static void tally_add(struct tally **v, size_t *n, size_t *cap, const char *key, const char *id,
                      const char *text)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*v)[i].key, key) == 0) {
            (*v)[i].count++;
            return;
        }
    az_grow((void **)v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = (struct tally){key, text, id, 1};
}

/* The verdict line of a row in the summary: a gotcha's id, or "none" split by the outcome, so
 * a failed run no gotcha explains is not counted with the healthy ones. Static or the row's. */
static const char *summary_key(const struct report_batch_row *row)
{
    if (strcmp(row->verdict, "none") != 0) return row->verdict;
    static const char *const split[][2] = {{"failed", "none (failed)"},
                                           {"completed", "none (completed)"},
                                           {"cut-off", "none (cut-off)"},
                                           {"unknown", "none (unknown)"}};
    for (size_t i = 0; i < AZ_ARRAY_LEN(split); i++)
        if (strcmp(row->outcome, split[i][0]) == 0) return split[i][1];
    return row->verdict;
}

static void print_tally(FILE *f, const char *title, const struct tally *v, size_t n, size_t read)
{
    fprintf(f, "\n%s\n", title);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "  %-18s %6zu  %5.1f %%\n", v[i].key, v[i].count,
                read ? 100.0 * (double)v[i].count / (double)read : 0.0);
}

static void print_first_errors(FILE *f, const struct tally *errors, size_t ne)
{
    if (!ne) return;
    fprintf(f, "\nmost common first errors\n");
    for (size_t i = 0; i < ne && i < 10; i++) {
        struct az_buf safe = AZ_BUF_INIT;
        const char *t = errors[i].text;
        report_sanitize_terminal(&safe, t, AZ_MIN(strlen(t), (size_t)100));
        fprintf(f, "  %6zu  %-22s %s  %s\n", errors[i].count, errors[i].id, errors[i].key,
                safe.data ? safe.data : "");
        az_buf_free(&safe);
    }
}

static void print_summary(FILE *f, struct report_batch_row *rows, size_t n)
{
    struct tally *verdicts = NULL, *outcomes = NULL, *errors = NULL;
    size_t nv = 0, cv = 0, no = 0, co = 0, ne = 0, ce = 0, unreadable = 0;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].error[0]) {
            unreadable++;
            continue;
        }
        tally_add(&outcomes, &no, &co, rows[i].outcome, rows[i].outcome, "");
        tally_add(&verdicts, &nv, &cv, summary_key(&rows[i]), rows[i].verdict, "");
        if (rows[i].fingerprint[0])
            tally_add(&errors, &ne, &ce, rows[i].fingerprint, rows[i].first_error,
                      rows[i].fingerprint_text);
    }
    if (no) qsort(outcomes, no, sizeof *outcomes, cmp_tally);
    if (nv) qsort(verdicts, nv, sizeof *verdicts, cmp_tally);
    if (ne) qsort(errors, ne, sizeof *errors, cmp_tally);
    size_t read = n - unreadable;
    fprintf(f, "runs scanned: %zu (%zu read, %zu could not be read)\n", n, read, unreadable);
    print_tally(f, "outcomes", outcomes, no, read);
    print_tally(f, "verdicts", verdicts, nv, read);
    print_first_errors(f, errors, ne);
    if (unreadable) {
        fprintf(f, "\nruns that could not be read\n");
        for (size_t i = 0; i < n; i++) {
            if (!rows[i].error[0]) continue;
            struct az_buf safe = AZ_BUF_INIT;
            az_buf_puts(&safe, "");
            report_sanitize_terminal(&safe, rows[i].run, strlen(rows[i].run));
            az_buf_puts(&safe, ": ");
            report_sanitize_terminal(&safe, rows[i].error, strlen(rows[i].error));
            fprintf(f, "  %s\n", safe.data);
            az_buf_free(&safe);
        }
    }
    free(outcomes);
    free(verdicts);
    free(errors);
}

/* --format html: the dashboard over every row, with the facts the rows do not carry. */
static int write_dashboard(const struct batch_options *o, const struct pool *p,
                           const struct report_batch_row *rows, FILE *out, FILE *err)
{
    struct report_dash_facts *facts = az_xcalloc(p->nruns ? p->nruns : 1, sizeof *facts);
    struct report_dash_input *in = az_xcalloc(p->nruns ? p->nruns : 1, sizeof *in);
    for (size_t i = 0; i < p->nruns; i++) {
        const char *js = p->slots[i].facts_json;
        if (report_dash_facts_parse(&facts[i], js, strlen(js)) != AZ_OK)
            report_dash_facts_from_mtime(&facts[i], 0);
        in[i] = (struct report_dash_input){&rows[i], &facts[i], p->slots[i].has_report};
    }
    struct report_dash_options ro = {o->redact, GOTCHA_VERSION, o->reports_href};
    int failed = report_dash_write(out, in, p->nruns, o->cfg->pack, &ro) != AZ_OK;
    if (failed) fputs("gotcha: error writing the dashboard\n", err);
    for (size_t i = 0; i < p->nruns; i++) report_dash_facts_free(&facts[i]);
    free(facts);
    free(in);
    return failed;
}

static int cache_save(const char *path, uint64_t config, const struct pool *p, FILE *err)
{
    char *tmp = az_xasprintf("%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(err, "gotcha: warning: %s: %s\n", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    fprintf(f, "%s %016llx\n", CACHE_MAGIC, (unsigned long long)config);
    for (size_t i = 0; i < p->nruns; i++)
        fprintf(f, "%016llx %s\t%s\n", (unsigned long long)p->slots[i].inputs, p->slots[i].row_json,
                p->slots[i].facts_json);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        fprintf(err, "gotcha: warning: %s: cannot write the cache\n", path);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int batch_run(const struct batch_options *o, FILE *out, FILE *err)
{
    char **runs = NULL;
    size_t nruns = batch_discover(o, &runs, err);
    uint64_t config = batch_config_hash(o->cfg);
    struct cache cache = {0};
    if (o->cache_path) cache_load(&cache, o->cache_path, config, err, o->quiet);

    struct pool p = {.o = o, .runs = runs, .nruns = nruns, .cache = o->cache_path ? &cache : NULL};
    p.slots = az_xcalloc(nruns ? nruns : 1, sizeof *p.slots);
    atomic_init(&p.next, 0);
    atomic_init(&p.done, 0);

    unsigned jobs = cli_jobs(o->jobs, UINT_MAX);
    if (jobs > nruns) jobs = nruns ? (unsigned)nruns : 1;
    pthread_t *threads = az_xcalloc(jobs, sizeof *threads);
    double t0 = now_ms();
    unsigned started = 0;
    for (unsigned i = 1; i < jobs; i++)
        if (pthread_create(&threads[i], NULL, worker, &p) == 0) started++;
    if (o->progress && nruns) {
        /* The calling thread works too; progress is drawn between its runs. */
        struct match_scanner *scanner = match_scanner_new(o->cfg->pack);
        for (;;) {
            size_t i = atomic_fetch_add(&p.next, 1);
            if (i >= nruns) break;
            analyse_one(&p, scanner, i);
            atomic_fetch_add(&p.done, 1);
            show_progress(err, atomic_load(&p.done), nruns, now_ms() - t0, 0);
        }
        match_scanner_free(scanner);
    } else {
        worker(&p);
    }
    for (unsigned i = 1; i < jobs; i++)
        if (i <= started) pthread_join(threads[i], NULL);
    if (o->progress && nruns) show_progress(err, nruns, nruns, now_ms() - t0, 1);
    free(threads);

    struct report_batch_row *rows = az_xcalloc(nruns ? nruns : 1, sizeof *rows);
    size_t unreadable = 0, failed_writes = 0;
    int row_lines = !o->summary_only && !o->html;
    if (o->csv && row_lines) fprintf(out, "%s\n", report_batch_csv_header(o->timing));
    for (size_t i = 0; i < nruns; i++) {
        const char *js = p.slots[i].row_json;
        if (report_batch_row_parse(&rows[i], js, strlen(js)) != AZ_OK)
            report_batch_row_error(&rows[i], runs[i], "internal: unparsable row");
        unreadable += p.slots[i].unreadable;
        if (p.slots[i].report_fail) {
            fprintf(err, "gotcha: cannot write the report %s\n", p.slots[i].report_fail);
            failed_writes++;
        }
        if (!row_lines) continue;
        /* Slots (and the cache) keep the wall time; the output has it only with --timing, so
         * without it a row is a function of the run's files alone. */
        rows[i].timed = o->timing;
        if (o->csv) {
            struct az_buf line = AZ_BUF_INIT;
            report_batch_row_csv(&line, &rows[i]);
            fprintf(out, "%s\n", line.data);
            az_buf_free(&line);
        } else {
            char *line = report_batch_row_json(&rows[i]);
            fprintf(out, "%s\n", line);
            free(line);
        }
    }
    if (o->html) failed_writes += write_dashboard(o, &p, rows, out, err);
    if (o->summary_only)
        print_summary(out, rows, nruns);
    else if (o->summary)
        print_summary(err, rows, nruns);

    if (o->cache_path) cache_save(o->cache_path, config, &p, err);

    for (size_t i = 0; i < nruns; i++) {
        report_batch_row_free(&rows[i]);
        free(p.slots[i].row_json);
        free(p.slots[i].facts_json);
        free(p.slots[i].report_fail);
        free(runs[i]);
    }
    free(rows);
    free(p.slots);
    free(runs);
    cache_free(&cache);
    return unreadable || failed_writes ? 2 : 0;
}

/* ---- the command ---- */

/* The directory to, as a relative path from the directory from (both existing): what the
 * dashboard's links to the reports start with. NULL when either cannot be resolved. */
static char *relative_dir(const char *from, const char *to)
{
    char *ra = realpath(from, NULL), *b = realpath(to, NULL);
    char *rel = NULL;
    if (ra && b) {
        const char *a = strcmp(ra, "/") == 0 ? "" : ra; /* no component: "/x" is one below */
        size_t common = 0, i = 0;
        /* the longest common prefix that ends at a component boundary */
        for (; a[i] && a[i] == b[i]; i++)
            if (a[i] == '/') common = i;
        if (!a[i] && (!b[i] || b[i] == '/'))
            common = i;
        else if (!b[i] && a[i] == '/')
            common = i;
        struct az_buf r = AZ_BUF_INIT;
        for (const char *q = a + common; *q; q++)
            if (*q == '/') az_buf_puts(&r, r.len ? "/.." : "..");
        const char *rest = b + common;
        while (*rest == '/') rest++;
        if (*rest) {
            if (r.len) az_buf_putc(&r, '/');
            az_buf_puts(&r, rest);
        }
        rel = r.len ? az_buf_steal(&r) : az_xstrdup(".");
        az_buf_free(&r);
    }
    free(ra);
    free(b);
    return rel;
}

/* --reports DIR: create it when missing; the href the dashboard (at output, or on stdout: in the
 * working directory) uses for it. @return 0, or -1 after a message. */
static int prepare_reports(const char *dir, const char *output, char **href, FILE *err)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && (errno != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        fprintf(err, "gotcha: cannot create '%s': %s\n", dir,
                errno == EEXIST ? "a file of that name exists" : strerror(errno));
        return -1;
    }
    char *page_dir = az_xstrdup(output && strcmp(output, "-") != 0 ? output : "./.");
    char *slash = strrchr(page_dir, '/');
    if (slash == page_dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        strcpy(page_dir, ".");
    *href = relative_dir(page_dir, dir);
    free(page_dir);
    if (!*href) {
        fprintf(err, "gotcha: cannot resolve '%s': %s\n", dir, strerror(errno));
        return -1;
    }
    return 0;
}

int cli_cmd_batch(const struct cli_options *o, FILE *out, FILE *err)
{
    struct match_pack *pack = cli_load_pack(o, err);
    if (!pack) return CLI_EXIT_ERROR;
    struct corr_config cfg;
    corr_config_default(&cfg, pack);
    if (o->max_line) cfg.ingest.max_line = (size_t)o->max_line;
    if (o->max_expand) cfg.ingest.expand_floor = o->max_expand;
    if (o->expand_ratio) cfg.ingest.expand_ratio = o->expand_ratio;
    if (o->threshold >= 0) cfg.threshold = o->threshold;
    if (cli_apply_platform(o, &cfg, err) != 0) {
        match_pack_free(pack);
        return CLI_EXIT_ERROR;
    }

    char *href = NULL;
    FILE *dst = out;
    if (o->batch_reports && prepare_reports(o->batch_reports, o->output, &href, err) != 0) {
        match_pack_free(pack);
        return CLI_EXIT_ERROR;
    }
    if (o->output && strcmp(o->output, "-") != 0 && !(dst = fopen(o->output, "w"))) {
        fprintf(err, "gotcha: cannot write '%s': %s\n", o->output, strerror(errno));
        free(href);
        match_pack_free(pack);
        return CLI_EXIT_ERROR;
    }

    struct batch_options bo;
    memset(&bo, 0, sizeof bo);
    bo.roots = o->args;
    bo.nroots = o->nargs;
    bo.files_from = o->files_from;
    bo.nul_separated = o->nul_separated;
    bo.run_depth = o->run_depth;
    bo.jobs = o->jobs;
    bo.csv = o->batch_csv;
    bo.html = o->batch_html;
    bo.redact = cli_redact_for(o, REPORT_HTML);
    bo.reports_dir = o->batch_reports;
    bo.reports_href = href;
    bo.summary = o->summary;
    bo.summary_only = o->summary_only;
    bo.cache_path = o->cache;
    bo.timing = o->timing;
    bo.progress = isatty(fileno(err));
    bo.quiet = o->quiet;
    bo.cfg = &cfg;
    int rc = batch_run(&bo, dst, err);
    int bad_write = fflush(dst) != 0 || ferror(dst);
    if (dst != out) {
        bad_write |= fclose(dst) != 0;
        if (bad_write) fprintf(err, "gotcha: error writing '%s'\n", o->output);
    } /* a failed stdout is reported once, by cli_close_stdout() */
    if (bad_write) rc = CLI_EXIT_ERROR;
    free(href);
    match_pack_free(pack);
    return rc;
}
