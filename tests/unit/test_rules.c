/*
 * tests/unit/test_rules.c - what a primitive of the correlator may read from its rule
 * (correlate/rules.c): the parameters its schema declares, absent or present, and never a name
 * the schema does not declare. A misspelt name once read NaN on every pack and cast it to size_t
 * (the plateau primitive, found by the fuzz run); the read now stops the program, so any test
 * that runs a primitive finds such a defect.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>

#include "correlate/corr_private.h"

/* A rule of the plateau primitive with one declared parameter set; a second one it declares is
 * left out (the pack's loader would accept that: it is a number the rule may omit here). */
static const struct match_value plateau_values[] = {
    {.name = "min_points", .num = 12},
};
static const struct match_rule plateau_rule = {
    .use = "plateau",
    .nvalues = 1,
    .values = plateau_values,
};

Test(rules, a_declared_parameter_reads_its_value_or_absent)
{
    struct corr_rule_run rr = {.rule = &plateau_rule};
    cr_expect_eq(corr_rule_num(&rr, "min_points"), 12.0);
    /* declared by the schema, not set by this rule: absent */
    cr_expect(isnan(corr_rule_num(&rr, "above_one_in")));
    cr_expect_null(corr_rule_str(&rr, "series"));
}

Test(rules, an_undeclared_parameter_stops_the_program, .signal = SIGABRT)
{
    struct corr_rule_run rr = {.rule = &plateau_rule};
    /* "above_one_every" is the kind of misspelling the schema check exists for */
    (void)corr_rule_num(&rr, "above_one_every");
}

/* context-before's optional proximity parameters (a traceback's closest frame, G9's rule) are
 * declared by its schema: a rule without them reads them absent and keeps the old meaning. */
static const struct match_value before_values[] = {
    {.name = "within_lines", .num = 12},
};
static const struct match_rule before_rule = {
    .use = "context-before",
    .nvalues = 1,
    .values = before_values,
};

Test(rules, context_before_declares_within_lines_and_nearest_sig)
{
    struct corr_rule_run rr = {.rule = &before_rule};
    cr_expect_eq(corr_rule_num(&rr, "within_lines"), 12.0);
    cr_expect_null(corr_rule_str(&rr, "nearest_sig"));
}
