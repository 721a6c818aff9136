/* correlate/detect.c - the detectors on top: the pack's rules run (rules.c dispatches each to
 * its primitive: detect_series.c, detect_capacity.c, detect_group.c, detect_version.c,
 * detect_order.c, all over the helpers of detect_util.c), then every platform-scoped gotcha on a
 * run placed elsewhere gets its scope's factor. The run's context is detect_context.c's, a
 * line's weight detect_weight.c's. Every number, id and sentence comes from the pack
 * (docs/patterns.md, "Rules"); this file names none. */
#include <stdio.h>

#include "correlate/detect_private.h"

/* ---- all ---- */

void corr_detect_all(struct corr_state *st)
{
    corr_rules_run(st);
    /* scope: a mechanism of one platform is less likely on a run placed elsewhere */
    for (size_t i = 0; i < match_pack_entry_count(st->pack); i++) {
        const struct match_entry *e = match_pack_entry(st->pack, i);
        if (e->family != MATCH_FAMILY_GOTCHA || !e->scope.platform ||
            corr_context_on(&st->ctx, e->scope.platform) != 0)
            continue;
        /* {gpu}: the GPU the inputs name, or what set the platform when the user did */
        char set_by[48];
        snprintf(set_by, sizeof set_by, "set by %s", st->ctx.platform_from);
        /* or the host line that rules the platform out */
        const struct match_platform *pl = match_pack_find_platform(st->pack, e->scope.platform);
        const struct corr_rec *host = NULL;
        for (size_t k = 0; pl && !host && k < pl->ncontrary_host_tags; k++)
            host = corr_tag_earliest(st, pl->contrary_host_tags[k], 0);
        const char *gpu = st->cfg->platform             ? set_by
                          : *st->ctx.gpu_name           ? st->ctx.gpu_name
                          : host && *host->sig->summary ? host->sig->summary
                                                        : "other GPU";
        struct corr_var v[] = {VS("gpu", gpu)};
        corr_claim_add(st, e, 0, e->scope.factor, NULL, NULL, NULL,
                       corr_rule_render(e->scope.says, v, AZ_ARRAY_LEN(v)));
    }
}
