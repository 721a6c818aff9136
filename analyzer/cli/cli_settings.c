/* cli/cli_settings.c - what the options mean, shared by the commands (cli_scan.c, batch.c,
 * cli_catalog.c): thread counts, colour, redaction, output paths, exit codes, the pack directory
 * and the platform. cli.c parses and dispatches; the commands call in here, never back. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "common/az.h"
#include "correlate/corr.h"
#include "report/report.h"

#ifndef GOTCHA_DATADIR
#define GOTCHA_DATADIR "/usr/local/share/gotcha"
#endif

/* ---- decisions ---- */

unsigned cli_jobs(unsigned jobs, unsigned max_default)
{
    if (jobs) return jobs;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    return n > (long)max_default ? max_default : (unsigned)n;
}

int cli_use_color(enum cli_color c, int is_tty, const char *no_color_env)
{
    switch (c) {
    case CLI_COLOR_ALWAYS: return 1;
    case CLI_COLOR_NEVER: return 0;
    case CLI_COLOR_AUTO:
    default: return is_tty && !(no_color_env && *no_color_env);
    }
}

int cli_redact_for(const struct cli_options *o, enum report_format f)
{
    if (o->redact >= 0) return o->redact;
    return f == REPORT_MD || f == REPORT_HTML;
}

char *cli_output_path(const char *output, enum report_format f, size_t nformats)
{
    if (!output) return NULL;
    if (nformats <= 1) return az_xstrdup(output);
    return az_xasprintf("%s.%s", output, report_format_ext(f));
}

int cli_scan_exit_code(int named_path_failed, int has_verdict, int run_failed, int write_failed)
{
    if (named_path_failed || write_failed) return CLI_EXIT_ERROR;
    return has_verdict || run_failed ? CLI_EXIT_FINDINGS : CLI_EXIT_CLEAN;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *cli_pack_dir(const char *patterns_opt, const char *env_patterns, const char *exe_path)
{
    if (patterns_opt) return az_xstrdup(patterns_opt);
    if (env_patterns && *env_patterns) return az_xstrdup(env_patterns);
    if (exe_path && *exe_path) {
        const char *slash = strrchr(exe_path, '/');
        if (slash) {
            char *beside = az_xasprintf("%.*s/patterns", (int)(slash - exe_path), exe_path);
            if (is_dir(beside)) return beside;
            free(beside);
            /* an installed copy moved as a whole (PREFIX/bin/gotcha, PREFIX/share/gotcha) */
            char *shared =
                az_xasprintf("%.*s/../share/gotcha/patterns", (int)(slash - exe_path), exe_path);
            if (is_dir(shared)) return shared;
            free(shared);
        }
    }
    return az_xstrdup(GOTCHA_DATADIR "/patterns");
}

int cli_apply_platform(const struct cli_options *o, struct corr_config *cfg, FILE *err)
{
    const char *p = o->platform, *from = "--platform";
    if (!p) {
        p = getenv("GOTCHA_PLATFORM");
        from = "GOTCHA_PLATFORM";
    }
    if (!p || (o->platform == NULL && !*p) || !strcmp(p, "auto")) return 0;
    const struct match_platform *pl = match_pack_find_platform(cfg->pack, p);
    if (pl)
        cfg->platform = pl->id;
    else if (!strcmp(p, "other"))
        cfg->platform = CORR_PLATFORM_OTHER;
    else {
        /* "expected gb10, other or auto": the ids the pack declares */
        struct az_buf b = AZ_BUF_INIT, ids = AZ_BUF_INIT;
        report_sanitize_terminal(&b, p, strlen(p));
        for (size_t i = 0; i < match_pack_platform_count(cfg->pack); i++)
            az_buf_printf(&ids, "%s, ", match_pack_platform(cfg->pack, i)->id);
        fprintf(err, "gotcha: invalid %s '%s' (expected %sother or auto)\n", from,
                b.data ? b.data : "", ids.data ? ids.data : "");
        if (o->platform) fputs("Try 'gotcha --help' for more information.\n", err);
        az_buf_free(&b);
        az_buf_free(&ids);
        return -1;
    }
    cfg->platform_from = from;
    return 0;
}
