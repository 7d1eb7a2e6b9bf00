/* SPDX-License-Identifier: MIT */
/* Tests of the rule sets' own evaluation (core/rules/eval_turns.c): single-move rules keep the
 * defaults, a rule set with a fitted table has values of its own, every table names parameters
 * that exist within their ranges, and a session's parameters resolve as eval_turns.h says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eval_turns.h"

static int differing(EvalParams *a, EvalParams *b)
{
    int count, n = 0;
    const EvalParamInfo *list = eval_param_list(&count);
    for (int i = 0; i < count; i++)
        n += *eval_param_ref(a, &list[i]) != *eval_param_ref(b, &list[i]);
    return n;
}

static void single_rules_keep_the_defaults(void **state)
{
    (void)state;
    EvalParams defaults, single;
    eval_defaults(&defaults);
    eval_turns_defaults(&single, TURNS_SINGLE);
    assert_int_equal(differing(&defaults, &single), 0);
}

/* Every rule set's values lie within their parameters' ranges (eval_param_find would have
 * crashed on an unknown name before this), and Bennekom's differ from the defaults. */
static void tables_are_in_range(void **state)
{
    (void)state;
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    for (int t = 0; t < TURNS_NB; t++) {
        EvalParams p;
        eval_turns_defaults(&p, (TurnRules)t);
        for (int i = 0; i < count; i++) {
            const int v = *eval_param_ref(&p, &list[i]);
            if (v < list[i].min || v > list[i].max)
                fail_msg("%s under rule set %d: %d outside [%d, %d]", list[i].name, t, v,
                         list[i].min, list[i].max);
        }
    }
    EvalParams defaults, bennekom;
    eval_defaults(&defaults);
    eval_turns_defaults(&bennekom, TURNS_BENNEKOM);
    assert_true(differing(&defaults, &bennekom) > 0);
}

/* A session left at the defaults takes the rule set's values; a value it set away from the
 * single-move default stays, under every rule set; one set back to that default counts as left. */
static void sessions_resolve(void **state)
{
    (void)state;
    EvalParams session, out, bennekom;
    eval_defaults(&session);
    eval_turns_defaults(&bennekom, TURNS_BENNEKOM);
    eval_turns_resolve(&session, TURNS_BENNEKOM, &out);
    assert_int_equal(differing(&out, &bennekom), 0);

    session.value_mg[ARCHBISHOP] = 1000;
    session.tempo = bennekom.tempo + 7;
    for (int t = 0; t < TURNS_NB; t++) {
        EvalParams rule;
        eval_turns_defaults(&rule, (TurnRules)t);
        eval_turns_resolve(&session, (TurnRules)t, &out);
        assert_int_equal(out.value_mg[ARCHBISHOP], 1000);
        assert_int_equal(out.tempo, bennekom.tempo + 7);
        rule.value_mg[ARCHBISHOP] = 1000;
        rule.tempo = bennekom.tempo + 7;
        assert_int_equal(differing(&out, &rule), 0);
    }

    EvalParams defaults;
    eval_defaults(&defaults);
    session.tempo = defaults.tempo;
    eval_turns_resolve(&session, TURNS_BENNEKOM, &out);
    assert_int_equal(out.tempo, bennekom.tempo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(single_rules_keep_the_defaults),
        cmocka_unit_test(tables_are_in_range),
        cmocka_unit_test(sessions_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
