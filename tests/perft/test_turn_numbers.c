/* SPDX-License-Identifier: MIT */
/* Checks the produced turn-perft numbers of configs/perft/marseillais.epd: every value up to a
 * node limit against the fast core (through the threaded, hashed perft driver), and the shallow
 * ones against the independent reference turn rules (tests/perft/turn_ref.c), so that the published
 * file can never drift from what both implementations compute.
 *
 * Usage: test_turn_numbers [MAX_NODES [REF_MAX_NODES]] (defaults 50,000,000 and 1,000,000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "epd.h"
#include "errmsg.h"
#include "perft.h"
#include "turn_ref.h"

static uint64_t max_nodes = 50000000, ref_max_nodes = 1000000;

static void numbers_file(void **state)
{
    (void)state;
    EpdEntry *e;
    int n = epd_read(CARRERA_CONFIGS "/marseillais.epd", &e);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        const Variant *v = variant_by_name(e[i].variant);
        Rules r;
        if (!v || !turn_rules_parse(e[i].turns, &r.turns) || !ep_rule_parse(e[i].ep_rule, &r.ep))
            fail_msg("line %d: bad ;V, ;T or ;E field", e[i].line);
        Setup s;
        char err[ERRMSG_LEN];
        if (setup_from_fen_rules(&s, v, &r, e[i].fen, err, sizeof err) != 0)
            fail_msg("line %d: %s", e[i].line, err);
        Position p;
        position_from_setup(&p, &s);
        for (int d = 1; d <= e[i].max_depth; d++) {
            if (e[i].nodes[d] > max_nodes)
                continue;
            PerftJob job = { .root = &p, .rules = r, .depth = d, .hash_bytes = (size_t)64 << 20 };
            PerftResult res;
            assert_int_equal(perft_job_run(&job, &res), 0);
            if (res.nodes != e[i].nodes[d])
                fail_msg("line %d (%s %s %s) depth %d: fast core %llu, file %llu", e[i].line,
                         v->name, e[i].turns, e[i].ep_rule, d, (unsigned long long)res.nodes,
                         (unsigned long long)e[i].nodes[d]);
            perft_result_free(&res);
            if (e[i].nodes[d] <= ref_max_nodes) {
                uint64_t ref = ref_perft_turns(&s, &r, d);
                if (ref != e[i].nodes[d])
                    fail_msg("line %d (%s %s %s) depth %d: reference %llu, file %llu", e[i].line,
                             v->name, e[i].turns, e[i].ep_rule, d, (unsigned long long)ref,
                             (unsigned long long)e[i].nodes[d]);
            }
        }
    }
    free(e);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        max_nodes = strtoull(argv[1], NULL, 10);
    if (argc > 2)
        ref_max_nodes = strtoull(argv[2], NULL, 10);
    const struct CMUnitTest tests[] = { cmocka_unit_test(numbers_file) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
