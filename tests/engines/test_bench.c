/* SPDX-License-Identifier: MIT */
/* The engine's signature: `carrera bench` must search exactly the number of nodes recorded in
 * tests/data/bench_signature. Any change to the search or the evaluation changes it; such a commit
 * updates the file and says why (the number is a fingerprint of play, not a target). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CARRERA_BIN
#error "CARRERA_BIN must name the carrera binary"
#endif
#ifndef CARRERA_BENCH_SIGNATURE
#error "CARRERA_BENCH_SIGNATURE must name tests/data/bench_signature"
#endif

static uint64_t stored_signature(void)
{
    FILE *f = fopen(CARRERA_BENCH_SIGNATURE, "r");
    if (!f)
        fail_msg("cannot open %s", CARRERA_BENCH_SIGNATURE);
    uint64_t v = 0;
    if (fscanf(f, "%" SCNu64, &v) != 1)
        fail_msg("%s does not start with a number", CARRERA_BENCH_SIGNATURE);
    fclose(f);
    return v;
}

static void test_signature(void **state)
{
    (void)state;
    FILE *f = popen(CARRERA_BIN " bench 2>/dev/null", "r");
    assert_non_null(f);
    char line[256];
    uint64_t nodes = 0;
    bool found = false;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Nodes searched : %" SCNu64, &nodes) == 1)
            found = true;
    assert_int_equal(pclose(f), 0);
    assert_true(found);
    uint64_t want = stored_signature();
    if (nodes != want)
        fail_msg("carrera bench searched %" PRIu64
                 " nodes, tests/data/bench_signature says %" PRIu64
                 ": if the search or evaluation changed on purpose, update the file",
                 nodes, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_signature) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
