/* SPDX-License-Identifier: MIT */
/* The published perft tables (docs/perft-tables.md) cannot drift from the program: every value
 * of docs/perft-tables/perft-tables.epd up to a node limit is counted again, and every divide of
 * docs/perft-tables/divide/ has exactly the root's legal moves (turns) in Carrera's order, with
 * counts that sum to the value the table gives at that depth. The deep values themselves are the
 * two runs of the page; this keeps the file and the code that made them in step. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "errmsg.h"
#include "perft.h"
#include "position.h"
#include "setup.h"
#include "variant.h"

#ifndef CARRERA_PERFT_TABLES
#error "CARRERA_PERFT_TABLES must name docs/perft-tables"
#endif

/* Counted again up to this many nodes a value: a few seconds on 2 threads with a table. */
static uint64_t max_nodes = 30000000;

static EpdEntry *entries;
static int n_entries;

static int read_table(void **state)
{
    (void)state;
    n_entries = epd_read(CARRERA_PERFT_TABLES "/perft-tables.epd", &entries);
    return n_entries > 0 ? 0 : -1;
}

static int free_table(void **state)
{
    (void)state;
    free(entries);
    return 0;
}

/* The entry's position and rules; fails the test on a bad line. */
static void entry_position(const EpdEntry *e, Position *p, Rules *r)
{
    const Variant *v = variant_by_name(e->variant);
    *r = (Rules){ TURNS_SINGLE, EP_CLASSIC };
    if (!v || (e->turns[0] && !turn_rules_parse(e->turns, &r->turns)) ||
        (e->ep_rule[0] && !ep_rule_parse(e->ep_rule, &r->ep)))
        fail_msg("perft-tables.epd line %d: bad ;V, ;T or ;E field", e->line);
    Setup s;
    char err[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, v, r, e->fen, err, sizeof err) != 0)
        fail_msg("perft-tables.epd line %d: %s", e->line, err);
    position_from_setup(p, &s);
}

static void test_cheap_values(void **state)
{
    (void)state;
    int counted = 0;
    for (int i = 0; i < n_entries; i++) {
        const EpdEntry *e = &entries[i];
        Position p;
        Rules r;
        entry_position(e, &p, &r);
        for (int d = 1; d <= e->max_depth; d++) {
            if (e->nodes[d] == 0)
                fail_msg("perft-tables.epd line %d: no D%d below D%d", e->line, d, e->max_depth);
            if (e->nodes[d] > max_nodes)
                continue;
            PerftJob job = {
                .root = &p, .rules = r, .depth = d, .threads = 2, .hash_bytes = (size_t)16 << 20
            };
            PerftResult res;
            assert_int_equal(perft_job_run(&job, &res), 0);
            if (res.nodes != e->nodes[d])
                fail_msg("perft-tables.epd line %d (%s %s %s) D%d: Carrera counts %llu, the "
                         "table says %llu",
                         e->line, e->variant, e->turns, e->ep_rule, d,
                         (unsigned long long)res.nodes, (unsigned long long)e->nodes[d]);
            perft_result_free(&res);
            counted++;
        }
    }
    assert_true(counted > 0);
}

/* The value of the entry with this FEN and rules at depth d, or 0. */
static uint64_t table_value(const char *fen, const char *variant, const char *turns, const char *ep,
                            int d)
{
    for (int i = 0; i < n_entries; i++) {
        const EpdEntry *e = &entries[i];
        if (strcmp(e->fen, fen) == 0 && strcmp(e->variant, variant) == 0 &&
            strcmp(e->turns, turns) == 0 && strcmp(e->ep_rule, ep) == 0 && d <= e->max_depth)
            return e->nodes[d];
    }
    return 0;
}

/* The text after `# key ` on a header line, without its line end. */
static bool header_field(const char *line, const char *key, char *out, size_t len)
{
    size_t k = strlen(key);
    if (strncmp(line, "# ", 2) != 0 || strncmp(line + 2, key, k) != 0 || line[2 + k] != ' ')
        return false;
    const char *value = line + 3 + k;
    if (strlen(value) >= len)
        fail_msg("divide header too long: '%s'", line);
    memcpy(out, value, strlen(value) + 1);
    return true;
}

/* One divide file: the header's position, rules and depth; `move: count` lines; the total. */
static void check_divide(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char line[512], fen[256] = "", variant[32] = "", turns[32] = "", ep[16] = "",
                    depth_text[16] = "";
    EpdEntry e = { .line = 0 };
    TurnList list = { 0 };
    Position p;
    Rules r;
    size_t next = 0;
    uint64_t sum = 0, total = 0;
    bool started = false, have_total = false;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#') {
            header_field(line, "fen", fen, sizeof fen);
            header_field(line, "variant", variant, sizeof variant);
            header_field(line, "turns", turns, sizeof turns);
            header_field(line, "ep_rule", ep, sizeof ep);
            header_field(line, "depth", depth_text, sizeof depth_text);
            continue;
        }
        if (line[0] == '\0')
            continue;
        if (!started) {
            snprintf(e.fen, sizeof e.fen, "%s", fen);
            snprintf(e.variant, sizeof e.variant, "%s", variant);
            snprintf(e.turns, sizeof e.turns, "%s", turns);
            snprintf(e.ep_rule, sizeof e.ep_rule, "%s", ep);
            entry_position(&e, &p, &r);
            assert_true(position_turns(&p, &r, &list));
            started = true;
        }
        if (strncmp(line, "Nodes searched: ", 16) == 0) {
            total = strtoull(line + 16, NULL, 10);
            have_total = true;
            continue;
        }
        const char *colon = strstr(line, ": ");
        if (!colon || next >= list.n)
            fail_msg("%s: unexpected line '%s'", path, line);
        char want[TURN_TEXT_MAX];
        turn_to_uci(&list.v[next], p.variant, p.variant->castle960, want);
        if (strlen(want) != (size_t)(colon - line) || strncmp(line, want, strlen(want)) != 0)
            fail_msg("%s: root turn %zu is %s, the file has '%s'", path, next + 1, want, line);
        sum += strtoull(colon + 2, NULL, 10);
        next++;
    }
    fclose(f);
    if (!started || !have_total || next != list.n)
        fail_msg("%s: %zu of %zu root turns, %s total", path, next, list.n,
                 have_total ? "a" : "no");
    turn_list_free(&list);
    if (sum != total)
        fail_msg("%s: the lines sum to %llu, the total is %llu", path, (unsigned long long)sum,
                 (unsigned long long)total);
    const uint64_t table = table_value(fen, variant, turns, ep, atoi(depth_text));
    if (table != total)
        fail_msg("%s: total %llu, perft-tables.epd has %llu at depth %s", path,
                 (unsigned long long)total, (unsigned long long)table, depth_text);
}

static void test_divides(void **state)
{
    (void)state;
    DIR *d = opendir(CARRERA_PERFT_TABLES "/divide");
    assert_non_null(d);
    int files = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".txt") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/divide/%s", CARRERA_PERFT_TABLES, de->d_name);
        check_divide(path);
        files++;
    }
    closedir(d);
    assert_true(files > 0);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        max_nodes = strtoull(argv[1], NULL, 10);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cheap_values),
        cmocka_unit_test(test_divides),
    };
    return cmocka_run_group_tests(tests, read_table, free_table);
}
