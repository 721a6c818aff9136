/* scan_fixture.c - the unit suites' shared scan fixture (scan_fixture.h). */
#include "scan_fixture.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct scan_fixture fx;

void fx_tmpdir(const char *tag)
{
    snprintf(fx.dir, sizeof fx.dir, "/tmp/gotcha-%s-XXXXXX", tag);
    cr_assert_not_null(mkdtemp(fx.dir), "cannot make %s", fx.dir);
}

void fx_shipped_dir(char *dir, size_t n)
{
    const char *env = getenv("GOTCHA_PATTERNS"), *top = getenv("GOTCHA_TOP");
    if (env && *env)
        snprintf(dir, n, "%s", env);
    else
        snprintf(dir, n, "%s/patterns", top && *top ? top : ".");
}

void fx_setup_shipped(void)
{
    fx_tmpdir("unit");
    fx_load_shipped();
}

void fx_load_shipped(void)
{
    match_pack_free(fx.pack);
    fx.pack = NULL;
    char dir[1024];
    fx_shipped_dir(dir, sizeof dir);
    const char *dirs[] = {dir};
    struct az_buf err = AZ_BUF_INIT;
    cr_assert_eq(match_pack_load(&fx.pack, dirs, 1, &err), AZ_OK, "%s", err.data ? err.data : "");
    az_buf_free(&err);
}

void fx_remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    const struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (unlink(path) != 0) fx_remove_tree(path);
    }
    closedir(d);
    rmdir(dir);
}

void fx_teardown(void)
{
    match_pack_free(fx.pack);
    fx.pack = NULL;
    if (fx.dir[0]) fx_remove_tree(fx.dir);
}

void fx_write(const char *sub, const char *name, const char *text)
{
    char path[512];
    if (sub && *sub) {
        snprintf(path, sizeof path, "%s/%s", fx.dir, sub);
        mkdir(path, 0755);
        snprintf(path, sizeof path, "%s/%s/%s", fx.dir, sub, name);
    } else {
        snprintf(path, sizeof path, "%s/%s", fx.dir, name);
    }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0, "cannot write %s", path);
}

struct corr_result *fx_analyze(const struct corr_config *cfg, const char *const *paths, size_t n)
{
    struct corr_config def;
    if (!cfg) {
        corr_config_default(&def, fx.pack);
        cfg = &def;
    }
    struct match_scanner *sc = match_scanner_new(fx.pack);
    cr_assert_not_null(sc);
    struct corr_result *r = NULL;
    cr_assert_eq(corr_analyze(cfg, sc, paths, n, &r), AZ_OK);
    cr_assert_not_null(r);
    match_scanner_free(sc);
    return r;
}

struct corr_result *fx_analyze_dir(const char *sub)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fx.dir, sub);
    const char *pp[] = {path};
    return fx_analyze(NULL, pp, 1);
}

struct corr_result *fx_scan_one(const char *sub, const char *name, const char *text)
{
    fx_write(sub, name, text);
    struct corr_result *r = fx_analyze_dir(sub);
    cr_assert_gt(r->records, 0, "no record was read from %s/%s", sub, name);
    return r;
}

const char *fx_verdict(const struct corr_result *r)
{
    /* a verdict (above all "none") of a run that read nothing proves nothing */
    cr_assert_gt(r->records, 0, "no record was read");
    return r->verdict ? r->verdict->id : "none";
}

const struct corr_finding *fx_finding(const struct corr_result *r, const char *id)
{
    for (size_t i = 0; i < r->nfindings; i++)
        if (!strcmp(r->findings[i].entry->id, id)) return &r->findings[i];
    return NULL;
}

double fx_conf(const struct corr_result *r, const char *id)
{
    const struct corr_finding *f = fx_finding(r, id);
    return f ? f->confidence : 0;
}

int fx_cites(const struct corr_result *r, const char *id, const char *sig)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct corr_finding *f = &r->findings[i];
        if (id && strcmp(f->entry->id, id)) continue;
        for (size_t k = 0; k < f->nevidence; k++)
            if (f->evidence[k].sig && !strcmp(f->evidence[k].sig->id, sig)) return 1;
    }
    return 0;
}
