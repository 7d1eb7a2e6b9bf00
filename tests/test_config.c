/* Tests of the perft job configuration files (cluster/config.c) and `carrera check-config`:
 * every kind of error names the file, the line and the key; defaults; every value of every
 * key; the shipped configurations in configs/perft/ are valid. Fixtures in tests/config/. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check_config.h"
#include "config.h"
#include "variant.h"

#ifndef CARRERA_CONFIG_FIXTURES
#define CARRERA_CONFIG_FIXTURES "tests/config"
#endif
#ifndef CARRERA_CONFIGS
#define CARRERA_CONFIGS "configs/perft"
#endif

static const char *fixture(const char *name)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", CARRERA_CONFIG_FIXTURES, name);
    return path;
}

/* The file must be refused with a message containing `want` (FILE stands for its path). */
static void expect_file_error(const char *name, const char *want)
{
    const char *path = fixture(name);
    char expected[2048], err[2048];
    const char *at = strstr(want, "FILE");
    assert_non_null(at);
    snprintf(expected, sizeof expected, "%.*s%s%s", (int)(at - want), want, path, at + 4);
    PerftConfig c;
    if (config_read_perft(path, &c, err, sizeof err) == 0)
        fail_msg("%s was accepted", name);
    if (!strstr(err, expected))
        fail_msg("%s: got '%s', want '%s'", name, err, expected);
    assert_null(c.text);
}

static void error_fixtures(void **state)
{
    (void)state;
    static const struct {
        const char *file, *want;
    } cases[] = {
        { "bad-unknown-key.ini", "FILE:4: key 'deth' is unknown in [perft] (valid: variant, " },
        { "bad-value-depth.ini",
          "FILE:3: bad value 'x' for depth: must be a whole number from 1 to 30" },
        { "bad-unknown-section.ini", "FILE:5: section [pertf] is unknown" },
        { "bad-empty-section.ini", "FILE:4: section [empty] is unknown" },
        { "bad-duplicate-key.ini", "FILE:4: key 'depth' given twice (first on line 2)" },
        { "bad-missing-depth.ini", "FILE: key 'depth' is missing from [perft]" },
        { "bad-missing-position.ini", "FILE: key 'position' is missing from [perft]" },
        { "bad-outside-section.ini", "FILE:1: key 'depth' is outside any section" },
        { "bad-syntax.ini", "FILE:3: expected 'key = value', '[section]' or a comment" },
        { "bad-fen.ini", "FILE:3: bad value 'fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
                         "KQkq - 0 1' for position: bad FEN for capablanca under single rules: " },
        { "bad-fen-rules.ini", "FILE:2: bad value 'fen " },
        { "bad-split-depth.ini", "FILE:4: bad value '6' for split_depth: must be auto or a whole "
                                 "number from 1 to the depth (5)" },
        { "bad-chess960-variant.ini", "FILE:3: bad value 'chess960 518' for position: chess960 N "
                                      "needs variant = chess960" },
        { "bad-empty.ini", "FILE: no [perft] section" },
        { "no-such-file.ini", "FILE: cannot read: " },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_file_error(cases[i].file, cases[i].want);
}

/* Text in memory, read as the file "job.ini": refused with `want` in the message. */
static void expect_text_error(const char *text, const char *want)
{
    PerftConfig c;
    char err[1024];
    if (config_parse_perft(text, "job.ini", &c, err, sizeof err) == 0)
        fail_msg("accepted:\n%s", text);
    if (!strstr(err, want))
        fail_msg("got '%s', want '%s' for:\n%s", err, want, text);
}

static void bad_values(void **state)
{
    (void)state;
    static const struct {
        const char *key, *value, *want;
    } cases[] = {
        { "variant", "chesss",
          "bad value 'chesss' for variant: must be one of chess, chess960, capablanca" },
        { "variant", "", "bad value '' for variant" },
        { "position", "start",
          "bad value 'start' for position: must be startpos, fen FEN or chess960 N" },
        { "position", "startpos now", "bad value 'startpos now' for position" },
        { "position", "fen", "bad value 'fen' for position" },
        { "position", "chess960 960",
          "bad value 'chess960 960' for position: must be chess960 N with N a whole number from 0 "
          "to 959" },
        { "position", "chess960", "bad value 'chess960' for position" },
        { "depth", "0", "bad value '0' for depth: must be a whole number from 1 to 30" },
        { "depth", "31", "bad value '31' for depth" },
        { "depth", "-1", "bad value '-1' for depth" },
        { "depth", "5x", "bad value '5x' for depth" },
        { "depth", "99999999999999999999", "bad value '99999999999999999999' for depth" },
        { "turns", "double", "bad value 'double' for turns: must be one of single, marseillais," },
        { "ep_rule", "new", "bad value 'new' for ep_rule: must be classic or modern" },
        { "split_depth", "0",
          "bad value '0' for split_depth: must be auto or a whole number from 1 to 30" },
        { "split_depth", "Auto", "bad value 'Auto' for split_depth" },
        { "threads", "1025",
          "bad value '1025' for threads: must be a whole number from 0 to 1024" },
        { "threads", "all", "bad value 'all' for threads" },
        { "hash_mb", "4194305",
          "bad value '4194305' for hash_mb: must be a whole number from 0 to 4194304" },
        { "hash_mb", "1.5", "bad value '1.5' for hash_mb" },
        { "output", "", "bad value '' for output: must be a file name" },
        { "checkpoint_interval", "86401",
          "bad value '86401' for checkpoint_interval: must be a whole number from 0 to 86400" },
        { "checkpoint_interval", "1m", "bad value '1m' for checkpoint_interval" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* The key on line 3, after whatever else the job needs. */
        char text[512], want[512];
        const char *other =
            strcmp(cases[i].key, "position") == 0 ? "depth = 3" : "position = startpos";
        bool needs_depth =
            strcmp(cases[i].key, "depth") != 0 && strcmp(cases[i].key, "position") != 0;
        snprintf(text, sizeof text, "[perft]\n%s\n%s = %s\n%s\n", other, cases[i].key,
                 cases[i].value, needs_depth ? "depth = 3" : "");
        snprintf(want, sizeof want, "job.ini:3: %s", cases[i].want);
        expect_text_error(text, want);
    }
}

static void other_errors(void **state)
{
    (void)state;
    /* The first error in the file wins, whatever its kind. */
    expect_text_error("[perft]\nnonsense\ndeth = 3\n", "job.ini:2: expected 'key = value'");
    expect_text_error("[perft]\ndeth = 3\nnonsense\n", "job.ini:2: key 'deth' is unknown");
    expect_text_error("[perft]\ndepth = 3\n[other]\nnonsense\n",
                      "job.ini:3: section [other] is unknown");
    /* A section header without its bracket, a key without a name. */
    expect_text_error("[perft\nposition = startpos\ndepth = 3\n",
                      "job.ini:1: expected 'key = value'");
    expect_text_error("[perft]\n= 3\n", "job.ini:2: key '' is unknown in [perft]");
    /* Keys are spelled in lower case. */
    expect_text_error("[perft]\nDepth = 3\n", "job.ini:2: key 'Depth' is unknown in [perft]");
    /* An indented line is a key of its own, not the rest of the previous value. */
    expect_text_error("[perft]\nposition = startpos\n  depth = 3\n  depth = 4\n",
                      "job.ini:4: key 'depth' given twice (first on line 3)");
    /* FEN under the rules: two en passant squares only under classic double-move rules. */
    const char *two_ep = "fen rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6,f6 0 3";
    char text[512];
    snprintf(text, sizeof text,
             "[perft]\nposition = %s\ndepth = 2\nturns = marseillais\n"
             "ep_rule = modern\n",
             two_ep);
    expect_text_error(text, "job.ini:2: bad value 'fen rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/"
                            "RNBQKBNR w KQkq d6,f6 0 3' for position: bad FEN for chess under "
                            "marseillais rules: ");
    snprintf(text, sizeof text, "[perft]\nposition = %s\ndepth = 2\nturns = marseillais\n", two_ep);
    PerftConfig c;
    char err[1024];
    if (config_parse_perft(text, "job.ini", &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(c.setup.ep[1] != NO_SQUARE, 1);
    config_free(&c);
    /* Lines longer than inih's buffer are refused, not cut in two. */
    char long_line[600];
    snprintf(long_line, sizeof long_line, "[perft]\nposition = startpos\ndepth = 3\n; %0400d\n", 0);
    expect_text_error(long_line, "job.ini:4: line longer than ");
    expect_text_error("", "job.ini: no [perft] section");
    expect_text_error("[perft]\n[perft]\nposition = startpos\ndepth = 3\ndepth = 3\n",
                      "job.ini:5: key 'depth' given twice (first on line 4)");
}

static void defaults(void **state)
{
    (void)state;
    PerftConfig c;
    char err[1024];
    const char *path = fixture("good-minimal.ini");
    if (config_read_perft(path, &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(c.file, path);
    assert_string_equal(c.text, "[perft]\nposition = startpos\ndepth = 3\n");
    assert_string_equal(c.variant->name, "chess");
    assert_int_equal(c.rules.turns, TURNS_SINGLE);
    assert_int_equal(c.rules.ep, EP_CLASSIC);
    assert_int_equal(c.position, CONFIG_STARTPOS);
    assert_string_equal(c.position_text, "startpos");
    assert_int_equal(c.chess960, -1);
    assert_int_equal(c.depth, 3);
    assert_int_equal(c.split_depth, CONFIG_SPLIT_AUTO);
    assert_int_equal(c.threads, 0);
    assert_int_equal(c.hash_mb, 0);
    assert_string_equal(c.output, "good-minimal.h5");
    assert_int_equal(c.checkpoint_interval, 60);
    Setup start;
    setup_start(&start, c.variant);
    assert_memory_equal(c.setup.board, start.board, sizeof start.board);
    char summary[8192];
    config_summary(&c, summary, sizeof summary);
    assert_string_equal(summary, "perft job, variant chess, position startpos, depth 3, single "
                                 "turns, split depth auto, "
                                 "threads default, no hash table, output good-minimal.h5, "
                                 "checkpoint every 60 s");
    config_free(&c);
    assert_null(c.text);

    /* Default output names. */
    static const struct {
        const char *name, *output;
    } names[] = { { "a/b/job.ini", "job.h5" },
                  { "job", "job.h5" },
                  { ".ini", "perft.h5" },
                  { "x.ini.txt", "x.ini.txt.h5" },
                  { "", "perft.h5" } };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (config_parse_perft("[perft]\nposition = startpos\ndepth = 1\n", names[i].name, &c, err,
                               sizeof err) != 0)
            fail_msg("%s", err);
        assert_string_equal(c.output, names[i].output);
        config_free(&c);
    }
}

static void every_key(void **state)
{
    (void)state;
    PerftConfig c;
    char err[1024];
    if (config_read_perft(fixture("good-full.ini"), &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(c.variant->name, "gothic");
    assert_int_equal(c.position, CONFIG_FEN);
    assert_string_equal(
        c.position_text,
        "fen rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq - 0 1");
    assert_int_equal(c.setup.side, BLACK);
    assert_int_equal(c.depth, 6);
    assert_int_equal(c.rules.turns, TURNS_BALANCED);
    assert_int_equal(c.rules.ep, EP_MODERN);
    assert_int_equal(c.split_depth, 3);
    assert_int_equal(c.threads, 4);
    assert_int_equal(c.hash_mb, 512);
    assert_string_equal(c.output, "out/gothic.h5");
    assert_int_equal(c.checkpoint_interval, 0);
    char summary[8192];
    config_summary(&c, summary, sizeof summary);
    assert_non_null(strstr(summary, "marseillais-balanced turns (modern en passant)"));
    assert_non_null(strstr(summary, "checkpoint after every unit"));
    assert_non_null(strstr(summary, "hash 512 MB"));
    config_free(&c);

    /* Windows line ends, a Chess960 array. */
    if (config_read_perft(fixture("good-crlf-chess960.ini"), &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(c.variant->name, "chess960");
    assert_int_equal(c.position, CONFIG_CHESS960);
    assert_int_equal(c.chess960, 0);
    assert_int_equal(c.depth, 2);
    assert_int_equal(piece_type(c.setup.board[0]), BISHOP);
    config_free(&c);

    /* Each rule set and boundary value. */
    for (int t = 0; t < TURNS_NB; t++) {
        char text[256];
        snprintf(text, sizeof text,
                 "[perft]\nposition = startpos\ndepth = 30\nsplit_depth = 30\nturns = %s\n"
                 "threads = 1024\nhash_mb = 4194304\ncheckpoint_interval = 86400\n",
                 turn_rules_name((TurnRules)t));
        if (config_parse_perft(text, "job.ini", &c, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_int_equal(c.rules.turns, t);
        assert_int_equal(c.split_depth, 30);
        assert_int_equal(c.threads, 1024);
        assert_int_equal(c.hash_mb, 4194304);
        assert_int_equal(c.checkpoint_interval, 86400);
        config_free(&c);
    }
    /* `key: value` is inih's too; every variant's start position. */
    int count;
    const Variant *const *all = variant_all(&count);
    for (int i = 0; i < count; i++) {
        char text[256];
        snprintf(text, sizeof text, "[perft]\nvariant: %s\nposition: startpos\ndepth: 1\n",
                 all[i]->name);
        if (config_parse_perft(text, "job.ini", &c, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_ptr_equal(c.variant, all[i]);
        config_free(&c);
    }
}

/* Every shipped job configuration is valid. */
static void shipped_configs(void **state)
{
    (void)state;
    DIR *dir = opendir(CARRERA_CONFIGS);
    assert_non_null(dir);
    int seen = 0;
    bool has_default = false;
    for (struct dirent *d; (d = readdir(dir)) != NULL;) {
        size_t len = strlen(d->d_name);
        if (len < 5 || strcmp(d->d_name + len - 4, ".ini") != 0)
            continue;
        char path[1024], err[1024];
        snprintf(path, sizeof path, "%s/%s", CARRERA_CONFIGS, d->d_name);
        PerftConfig c;
        if (config_read_perft(path, &c, err, sizeof err) != 0)
            fail_msg("%s", err);
        config_free(&c);
        has_default |= strcmp(d->d_name, "default.ini") == 0;
        seen++;
    }
    closedir(dir);
    assert_true(seen >= 3);
    assert_true(has_default);
}

/* The command: exit 0 with a summary, 2 with the error. */
static void command(void **state)
{
    (void)state;
    char good[1024], bad[1024];
    snprintf(good, sizeof good, "%s/default.ini", CARRERA_CONFIGS);
    snprintf(bad, sizeof bad, "%s", fixture("bad-unknown-key.ini"));
    char *ok_args[] = { "check-config", good, NULL };
    char *bad_args[] = { "check-config", bad, NULL };
    char *help_args[] = { "check-config", "--help", NULL };
    char *none_args[] = { "check-config", NULL };
    char *two_args[] = { "check-config", good, good, NULL };
    assert_int_equal(check_config_command(2, ok_args), 0);
    assert_int_equal(check_config_command(2, bad_args), 2);
    assert_int_equal(check_config_command(2, help_args), 0);
    assert_int_equal(check_config_command(1, none_args), 2);
    assert_int_equal(check_config_command(3, two_args), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_fixtures), cmocka_unit_test(bad_values),
        cmocka_unit_test(other_errors),   cmocka_unit_test(defaults),
        cmocka_unit_test(every_key),      cmocka_unit_test(shipped_configs),
        cmocka_unit_test(command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
