/* SPDX-License-Identifier: MIT */
/* The search's transposition table (core/engine/search_tt.h), which the threads of a search share
 * without a lock: what is stored is read back whole, a slot torn by two writers (the turn word of
 * one write beside the data word of the other) reads as no entry, the replacement keeps the
 * turn of an earlier search when a new one stores none, an entry may hold no turn, and a bound
 * from more than 3 plies deeper is not replaced by a shallower one of the same position. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "search_tt.h"

static u128 key_of(uint64_t high, uint64_t low) { return (u128)high << 64 | low; }

/* The slot that holds key's entry (the table must have one). */
static TTSlot *slot_of(const SearchTT *tt, u128 key)
{
    TTBucket *b = search_tt_bucket(tt, key);
    TTEntry e;
    for (int i = 0; i < BUCKET_SIZE; i++) {
        search_tt_read(&b->e[i], &e);
        if (e.check == search_tt_check(key) && e.m1 != 0)
            return &b->e[i];
    }
    fail_msg("no slot holds the key");
    return NULL;
}

static void test_round_trip(void **state)
{
    (void)state;
    SearchTT tt = { 0 };
    assert_true(search_tt_alloc(&tt, 1));
    tt.generation = 5;
    u128 key = key_of(0x123456789abcdef0u, 0x0fedcba987654321u);
    Turn t = { { 0x1234, 0x5678 }, 2 };
    search_tt_store(&tt, key, 7, -1234, BOUND_LOWER, &t);
    TTEntry hit;
    const TTEntry *e = search_tt_probe(&tt, key, &hit);
    assert_non_null(e);
    assert_int_equal(e->score, -1234);
    assert_int_equal(e->depth, 7);
    assert_int_equal(e->flags & 3, BOUND_LOWER);
    assert_int_equal(e->flags >> 2, 5);
    Turn back = search_tt_turn(e);
    assert_int_equal(back.n, 2);
    assert_int_equal(back.m[0], 0x1234);
    assert_int_equal(back.m[1], 0x5678);
    /* another key of the same slot's high bits differs in its check: no entry */
    assert_null(search_tt_probe(&tt, key_of(0x023456789abcdef0u, 0x0fedcba987654321u), &hit));
    /* no turn: the stored one is kept, the rest replaced */
    Turn none = { { 0, 0 }, 0 };
    search_tt_store(&tt, key, 9, 55, BOUND_EXACT, &none);
    e = search_tt_probe(&tt, key, &hit);
    assert_non_null(e);
    assert_int_equal(e->depth, 9);
    assert_int_equal(e->score, 55);
    assert_int_equal(e->m1, 0x1234);
    search_tt_free(&tt);
}

static void test_torn_slot(void **state)
{
    (void)state;
    SearchTT tt = { 0 };
    assert_true(search_tt_alloc(&tt, 1));
    u128 key = key_of(0xdeadbeefcafef00du, 0x1111222233334444u);
    Turn first = { { 0x0102, 0 }, 1 }, second = { { 0x0304, 0x0506 }, 2 };
    search_tt_store(&tt, key, 4, 10, BOUND_UPPER, &first);
    TTSlot *slot = slot_of(&tt, key);
    uint64_t turn1 = atomic_load(&slot->turn), meta1 = atomic_load(&slot->meta);
    search_tt_store(&tt, key, 6, -20, BOUND_LOWER, &second);
    assert_ptr_equal(slot_of(&tt, key), slot);
    uint64_t turn2 = atomic_load(&slot->turn), meta2 = atomic_load(&slot->meta);
    TTEntry hit;
    /* either tear: the turn of one write with the data of the other */
    atomic_store(&slot->turn, turn1);
    atomic_store(&slot->meta, meta2);
    assert_null(search_tt_probe(&tt, key, &hit));
    atomic_store(&slot->turn, turn2);
    atomic_store(&slot->meta, meta1);
    assert_null(search_tt_probe(&tt, key, &hit));
    /* a turn whose two halves are swapped is another turn */
    atomic_store(&slot->turn, turn2 >> 32 | turn2 << 32);
    atomic_store(&slot->meta, meta2);
    assert_null(search_tt_probe(&tt, key, &hit));
    /* whole again: found */
    atomic_store(&slot->turn, turn2);
    assert_non_null(search_tt_probe(&tt, key, &hit));
    assert_int_equal(hit.score, -20);
    search_tt_free(&tt);
}

static void test_no_turn_and_depth(void **state)
{
    (void)state;
    SearchTT tt = { 0 };
    assert_true(search_tt_alloc(&tt, 1));
    u128 key = key_of(0x0badc0ffee0ddf00u, 0x5555666677778888u);
    Turn none = { { 0, 0 }, 0 }, t = { { 0x0203, 0 }, 1 }, u = { { 0x0405, 0 }, 1 };
    /* a new position stored without a turn: found, with no turn */
    search_tt_store(&tt, key, 3, -40, BOUND_UPPER, &none);
    TTEntry hit;
    const TTEntry *e = search_tt_probe(&tt, key, &hit);
    assert_non_null(e);
    assert_int_equal(e->score, -40);
    assert_int_equal(search_tt_turn(e).n, 0);
    /* a deep bound with a turn replaces it */
    search_tt_store(&tt, key, 10, 70, BOUND_LOWER, &t);
    /* a bound 4 plies shallower leaves depth and score, and gives its turn */
    search_tt_store(&tt, key, 6, 20, BOUND_UPPER, &u);
    e = search_tt_probe(&tt, key, &hit);
    assert_int_equal(e->depth, 10);
    assert_int_equal(e->score, 70);
    assert_int_equal(e->flags & 3, BOUND_LOWER);
    assert_int_equal(search_tt_turn(e).m[0], 0x0405);
    /* without a turn it changes nothing */
    search_tt_store(&tt, key, 0, -5, BOUND_UPPER, &none);
    e = search_tt_probe(&tt, key, &hit);
    assert_int_equal(e->depth, 10);
    assert_int_equal(search_tt_turn(e).m[0], 0x0405);
    /* 3 plies shallower replaces it, and so does an exact score of any depth */
    search_tt_store(&tt, key, 7, 30, BOUND_UPPER, &none);
    e = search_tt_probe(&tt, key, &hit);
    assert_int_equal(e->depth, 7);
    assert_int_equal(e->score, 30);
    assert_int_equal(search_tt_turn(e).m[0], 0x0405);
    search_tt_store(&tt, key, 12, 90, BOUND_LOWER, &t);
    search_tt_store(&tt, key, 1, 15, BOUND_EXACT, &none);
    e = search_tt_probe(&tt, key, &hit);
    assert_int_equal(e->depth, 1);
    assert_int_equal(e->score, 15);
    assert_int_equal(search_tt_turn(e).m[0], 0x0203);
    search_tt_free(&tt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_torn_slot),
        cmocka_unit_test(test_no_turn_and_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
