/* correlate/detect_context.c - the run's context (struct corr_context): the platform the
 * records place the run on (a GPU name, a capability, a device total, host tags, or --platform),
 * the GPU, arch and CUDA versions they state, and whether the run is in a container. Built once
 * before the rules run; the platforms and what identifies them are the pack's. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "correlate/detect_private.h"

/* Context tags (docs/patterns.md): entries that say the run is in a container, or on a bare
 * host. */
#define TAG_CONTAINER "container"
#define TAG_BARE_HOST "bare-host"

/* ---- context ---- */

static void set_str(char **dst, const char *v)
{
    if (*dst || !v || !*v) return;
    *dst = az_xstrdup(v);
}

/* What the records say about the platform: the first declared platform each kind of fact
 * names (an index of match_pack_platform(), MATCH_PLACE_NONE when none), and whether a fact named
 * a GPU no declared platform is. */
struct ctx_scan {
    long gpu; /* from a GPU name, a capability or a device total */
    int other;
    char *other_name;
};

static void ctx_place(struct ctx_scan *c, long where, char *other_name)
{
    if (where >= 0 && c->gpu < 0) c->gpu = where;
    if (where == MATCH_PLACE_OTHER) {
        c->other = 1;
        if (!c->other_name) c->other_name = other_name, other_name = NULL;
    }
    free(other_name);
}

static void ctx_visit(struct corr_state *st, void *vctx, const struct corr_rec *r)
{
    struct ctx_scan *c = vctx;
    const char *g = corr_fact_str(r, "gpu_name");
    long at = match_place_gpu_name(st->pack, g);
    if (at >= 0) set_str(&st->ctx.gpu_name, g);
    ctx_place(c, at, at == MATCH_PLACE_OTHER ? az_xstrdup(g) : NULL);
    const char *cap = corr_fact_str(r, "capability");
    int major, minor;
    at = match_place_capability(st->pack, cap, &major, &minor);
    ctx_place(c, at,
              at == MATCH_PLACE_OTHER ? az_xasprintf("capability (%d, %d)", major, minor) : NULL);
    /* An OOM names its device's capacity: a declared pool band places it, anything far from
     * every band (an 80 GiB H100, a 139.7 GiB H200/H20) is another GPU. */
    double total = corr_fact_num(r, "total");
    if (!isnan(total) && total > 0 && r->sig && r->sig->entry->family == MATCH_FAMILY_GOTCHA) {
        at = match_place_total_gib(st->pack, total / GIB);
        ctx_place(c, at,
                  at == MATCH_PLACE_OTHER ? az_xasprintf("a %.1f GiB device", total / GIB) : NULL);
    }
    set_str(&st->ctx.arch, corr_fact_str(r, "arch"));
    set_str(&st->ctx.cuda_driver, corr_fact_str(r, "cuda_driver"));
    set_str(&st->ctx.cuda_torch, corr_fact_str(r, "cuda_torch"));
    const char *tv = corr_fact_str(r, "torch_version");
    if (tv && !st->ctx.cuda_torch) {
        const char *cu = strstr(tv, "+cu");
        if (cu && isdigit((unsigned char)cu[3]) && isdigit((unsigned char)cu[4])) {
            /* "+cu128" -> "12.8", "+cu130" -> "13.0" */
            st->ctx.cuda_torch =
                az_xasprintf("%c%c.%c", cu[3], cu[4], isdigit((unsigned char)cu[5]) ? cu[5] : '0');
        }
    }
}

/* Host facts: a platform whose host tag some line carries and none of its contrary tags does
 * (the logs may mix machines: facts that disagree place nothing); MATCH_PLACE_OTHER when
 * contrary host facts rule out every declared platform; MATCH_PLACE_NONE otherwise. */
static long ctx_host(struct corr_state *st)
{
    size_t n = match_pack_platform_count(st->pack), ruled_out = 0;
    long at = MATCH_PLACE_NONE;
    for (size_t i = 0; i < n; i++) {
        const struct match_platform *pl = match_pack_platform(st->pack, i);
        int named = pl->host_tag && corr_tag_earliest(st, pl->host_tag, 0) != NULL, contrary = 0;
        for (size_t k = 0; k < pl->ncontrary_host_tags; k++)
            contrary |= corr_tag_earliest(st, pl->contrary_host_tags[k], 0) != NULL;
        if (named && !contrary && at < 0) at = (long)i;
        ruled_out += contrary && !named;
    }
    return at >= 0 ? at : n && ruled_out == n ? MATCH_PLACE_OTHER : MATCH_PLACE_NONE;
}

int corr_context_on(const struct corr_context *c, const char *id)
{
    if (c->placed < 0) return -1;
    return c->on && id && !strcmp(c->on->id, id);
}

void corr_context_build(struct corr_state *st)
{
    struct ctx_scan c = {MATCH_PLACE_NONE, 0, NULL};
    corr_each_rec(st, NULL, ctx_visit, &c);
    /* a GPU fact outweighs a host fact */
    long at = c.gpu >= 0 ? c.gpu : c.other ? MATCH_PLACE_OTHER : ctx_host(st);
    st->ctx.on = at >= 0 ? match_pack_platform(st->pack, (size_t)at) : NULL;
    st->ctx.placed = at >= 0 ? 1 : at == MATCH_PLACE_OTHER ? 0 : -1;
    if (!st->ctx.gpu_name && c.other_name && c.gpu < 0) st->ctx.gpu_name = az_xstrdup(c.other_name);
    free(c.other_name);
    if (corr_tag_earliest(st, TAG_CONTAINER, 0))
        st->ctx.in_container = 1;
    else if (corr_tag_earliest(st, TAG_BARE_HOST, 0))
        st->ctx.in_container = 0;
    if (!st->ctx.gpu_name) st->ctx.gpu_name = az_xstrdup("");
    /* the platform: from the inputs, unless the user set it */
    st->ctx.platform_from = st->ctx.placed != -1 ? "inputs" : "";
    if (st->cfg->platform) {
        st->ctx.on = match_pack_find_platform(st->pack, st->cfg->platform);
        st->ctx.placed = st->ctx.on != NULL;
        st->ctx.platform_from = st->cfg->platform_from ? st->cfg->platform_from : "--platform";
    }
    st->ctx.platform = st->ctx.on ? st->ctx.on->id : st->ctx.placed == 0 ? "other" : "unknown";
    if (!st->ctx.arch) st->ctx.arch = az_xstrdup("");
    if (!st->ctx.cuda_driver) st->ctx.cuda_driver = az_xstrdup("");
    if (!st->ctx.cuda_torch) st->ctx.cuda_torch = az_xstrdup("");
}
