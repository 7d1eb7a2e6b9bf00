/* SPDX-License-Identifier: MIT */
/* Tests of the set of a node's children (core/engine/search_made.c): a key is new once per node,
 * a new node forgets the last one's keys (also when the stamp wraps), keys that share their low
 * bits are told apart, and a full set lets every key through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "search_made.h"

static void once_per_node(void **state)
{
    (void)state;
    MadeSet m = { 0 };
    search_made_new_node(&m);
    const u128 a = ((u128)1 << 100) | 7, b = ((u128)2 << 100) | 7; /* the same low bits */
    assert_true(search_made_first(&m, a));
    assert_false(search_made_first(&m, a));
    assert_true(search_made_first(&m, b));
    assert_false(search_made_first(&m, b));
    search_made_new_node(&m);
    assert_true(search_made_first(&m, a));
    m.stamp = UINT32_MAX; /* the next node wraps the stamp */
    search_made_first(&m, b);
    search_made_new_node(&m);
    assert_true(search_made_first(&m, b));
    assert_false(search_made_first(&m, b));
    search_made_free(&m);
}

static void full_set_lets_through(void **state)
{
    (void)state;
    MadeSet m = { 0 };
    search_made_new_node(&m);
    uint32_t n = SEARCH_MADE_SLOTS / 4 * 3;
    for (uint32_t i = 0; i < n; i++)
        assert_true(search_made_first(&m, (u128)i * 0x9E3779B97F4A7C15u));
    assert_true(search_made_first(&m, 0)); /* a key seen, but the set is full */
    search_made_new_node(&m);
    assert_true(search_made_first(&m, 0));
    assert_false(search_made_first(&m, 0));
    search_made_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(once_per_node),
        cmocka_unit_test(full_set_lets_through),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
