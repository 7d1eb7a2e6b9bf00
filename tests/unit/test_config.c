/* SPDX-License-Identifier: MIT */
/* Tests of the configuration files: the INI layer (cluster/config/ini_file.c) and its tables of
 * keys (cluster/config/ini_keys.c), perft jobs
 * (cluster/config/perft_config.c) and `carrera check-config`, evaluation parameters
 * (cluster/config/eval_config.c). Every kind of error names the file, the line and the key;
 * defaults; every value of every key; the shipped configurations in configs/perft/ are valid and
 * configs/eval/default.ini is exactly the built-in evaluation. Fixtures in tests/data/config/. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include <ctype.h>
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
#include "errmsg.h"
#include "perft_config.h"
#include "eval_config.h"
#include "ini_file.h"
#include "ini_keys.h"
#include "variant.h"

#ifndef CARRERA_CONFIG_FIXTURES
#define CARRERA_CONFIG_FIXTURES "tests/data/config"
#endif
#ifndef CARRERA_CONFIGS
#define CARRERA_CONFIGS "configs/perft"
#endif
#ifndef CARRERA_EVAL_CONFIGS
#define CARRERA_EVAL_CONFIGS "configs/eval"
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
    if (perft_config_read(path, &c, err, sizeof err) == 0)
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
    char err[ERRMSG_LEN];
    if (perft_config_parse(text, "job.ini", &c, err, sizeof err) == 0)
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
        { "key_seed", "x",
          "bad value 'x' for key_seed: must be a whole number from 0 to 9223372036854775807" },
        { "key_seed", "-1", "bad value '-1' for key_seed" },
        { "key_seed", "9223372036854775808", "bad value '9223372036854775808' for key_seed" },
        { "key_seed", "99999999999999999999", "bad value '99999999999999999999' for key_seed" },
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
    char err[ERRMSG_LEN];
    if (perft_config_parse(text, "job.ini", &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(c.setup.ep[1] != NO_SQUARE, 1);
    perft_config_free(&c);
    /* Lines longer than inih's buffer are refused, not cut in two. */
    char long_line[600];
    snprintf(long_line, sizeof long_line, "[perft]\nposition = startpos\ndepth = 3\n; %0400d\n", 0);
    expect_text_error(long_line, "job.ini:4: line longer than ");
    expect_text_error("", "job.ini: no [perft] section");
    expect_text_error("[perft]\n[perft]\nposition = startpos\ndepth = 3\ndepth = 3\n",
                      "job.ini:5: key 'depth' given twice (first on line 4)");
    /* A header inih refuses is reported as the unknown section it names. */
    expect_text_error("[perft]\n[a ;b]\n", "job.ini:2: section [a ;b] is unknown");
}

static void defaults(void **state)
{
    (void)state;
    PerftConfig c;
    char err[ERRMSG_LEN];
    const char *path = fixture("good-minimal.ini");
    if (perft_config_read(path, &c, err, sizeof err) != 0)
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
    assert_true(c.key_seed == 0);
    assert_string_equal(c.output, "good-minimal.h5");
    assert_int_equal(c.checkpoint_interval, 60);
    Setup start;
    setup_start(&start, c.variant);
    assert_memory_equal(c.setup.board, start.board, sizeof start.board);
    char summary[8192];
    perft_config_summary(&c, summary, sizeof summary);
    assert_string_equal(summary, "perft job, variant chess, position startpos, depth 3, single "
                                 "turns, split depth auto, "
                                 "threads default, no hash table, key seed 0, output "
                                 "good-minimal.h5, "
                                 "checkpoint every 60 s");
    perft_config_free(&c);
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
        if (perft_config_parse("[perft]\nposition = startpos\ndepth = 1\n", names[i].name, &c, err,
                               sizeof err) != 0)
            fail_msg("%s", err);
        assert_string_equal(c.output, names[i].output);
        perft_config_free(&c);
    }
}

static void every_key(void **state)
{
    (void)state;
    PerftConfig c;
    char err[ERRMSG_LEN];
    if (perft_config_read(fixture("good-full.ini"), &c, err, sizeof err) != 0)
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
    assert_true(c.key_seed == 9223372036854775807ull);
    assert_string_equal(c.output, "out/gothic.h5");
    assert_int_equal(c.checkpoint_interval, 0);
    char summary[8192];
    perft_config_summary(&c, summary, sizeof summary);
    assert_non_null(strstr(summary, "marseillais-balanced turns (modern en passant)"));
    assert_non_null(strstr(summary, "checkpoint after every unit"));
    assert_non_null(strstr(summary, "hash 512 MB"));
    assert_non_null(strstr(summary, "key seed 9223372036854775807"));
    perft_config_free(&c);

    /* Windows line ends, a Chess960 array. */
    if (perft_config_read(fixture("good-crlf-chess960.ini"), &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(c.variant->name, "chess960");
    assert_int_equal(c.position, CONFIG_CHESS960);
    assert_int_equal(c.chess960, 0);
    assert_int_equal(c.depth, 2);
    assert_int_equal(piece_type(c.setup.board[0]), BISHOP);
    perft_config_free(&c);

    /* Each rule set and boundary value. */
    for (int t = 0; t < TURNS_NB; t++) {
        char text[256];
        snprintf(text, sizeof text,
                 "[perft]\nposition = startpos\ndepth = 30\nsplit_depth = 30\nturns = %s\n"
                 "threads = 1024\nhash_mb = 4194304\ncheckpoint_interval = 86400\n",
                 turn_rules_name((TurnRules)t));
        if (perft_config_parse(text, "job.ini", &c, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_int_equal(c.rules.turns, t);
        assert_int_equal(c.split_depth, 30);
        assert_int_equal(c.threads, 1024);
        assert_int_equal(c.hash_mb, 4194304);
        assert_int_equal(c.checkpoint_interval, 86400);
        perft_config_free(&c);
    }
    /* `key: value` is inih's too; every variant's start position. */
    int count;
    const Variant *const *all = variant_all(&count);
    for (int i = 0; i < count; i++) {
        char text[256];
        snprintf(text, sizeof text, "[perft]\nvariant: %s\nposition: startpos\ndepth: 1\n",
                 all[i]->name);
        if (perft_config_parse(text, "job.ini", &c, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_ptr_equal(c.variant, all[i]);
        perft_config_free(&c);
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
        if (perft_config_read(path, &c, err, sizeof err) != 0)
            fail_msg("%s", err);
        perft_config_free(&c);
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
    /* match and tune files: the shipped ones pass, a bad one names its line */
    char match_ok[1024], tune_ok[1024], match_bad[1024];
    snprintf(match_ok, sizeof match_ok, "%s/../match/smoke.ini", CARRERA_CONFIGS);
    snprintf(tune_ok, sizeof tune_ok, "%s/../tune/small.ini", CARRERA_CONFIGS);
    snprintf(match_bad, sizeof match_bad, "%s/../match/bad-unknown-key.ini",
             CARRERA_CONFIG_FIXTURES);
    char *match_args[] = { "check-config", match_ok, NULL };
    char *tune_args[] = { "check-config", tune_ok, NULL };
    char *match_bad_args[] = { "check-config", match_bad, NULL };
    assert_int_equal(check_config_command(2, match_args), 0);
    assert_int_equal(check_config_command(2, tune_args), 0);
    assert_int_equal(check_config_command(2, match_bad_args), 2);
}

/* ---- the INI layer ---- */

static void ini_entries(void **state)
{
    (void)state;
    const char *text = "\xEF\xBB\xBFtop = 1\r\n"
                       "; comment\n"
                       "[one]\n"
                       "  a = x y ; comment\n"
                       "b: 2\n"
                       "[empty]\n"
                       "[one]\n"
                       "c =\n"
                       "[two]\n"
                       "a = 3";
    Ini ini;
    char err[ERRMSG_LEN];
    assert_int_equal(ini_file_parse(text, "t.ini", &ini, err, sizeof err), 0);
    assert_null(ini.error);
    assert_string_equal(ini.name, "t.ini");
    assert_string_equal(ini.text, text);
    static const IniEntry want[] = { { "", "top", "1", 1 },
                                     { "one", "a", "x y", 4 },
                                     { "one", "b", "2", 5 },
                                     { "one", "c", "", 8 },
                                     { "two", "a", "3", 10 } };
    assert_int_equal(ini.entry_count, 5);
    for (int i = 0; i < 5; i++) {
        assert_string_equal(ini.entries[i].section, want[i].section);
        assert_string_equal(ini.entries[i].key, want[i].key);
        assert_string_equal(ini.entries[i].value, want[i].value);
        assert_int_equal(ini.entries[i].line, want[i].line);
    }
    static const IniSection sections[] = {
        { "one", 3 }, { "empty", 6 }, { "one", 7 }, { "two", 9 }
    };
    assert_int_equal(ini.section_count, 4);
    for (int i = 0; i < 4; i++) {
        assert_string_equal(ini.sections[i].name, sections[i].name);
        assert_int_equal(ini.sections[i].line, sections[i].line);
    }
    assert_int_equal(ini_file_section(&ini, "one")->line, 3);
    assert_int_equal(ini_file_section(&ini, "empty")->line, 6);
    assert_null(ini_file_section(&ini, "three"));
    IniCheck c;
    ini_check_start(&c, &ini, err, sizeof err);
    assert_false(c.failed);
    ini_file_free(&ini);
    assert_null(ini.text);
}

/* Reading's own error, reported through a check: `want` in the message. */
static void expect_ini_error(const char *text, const char *want)
{
    Ini ini;
    char err[ERRMSG_LEN];
    assert_int_equal(ini_file_parse(text, "t.ini", &ini, err, sizeof err), 0);
    IniCheck c;
    ini_check_start(&c, &ini, err, sizeof err);
    if (!c.failed || !strstr(err, want))
        fail_msg("got '%s', want '%s' for:\n%s", c.failed ? err : "no error", want, text);
    ini_file_free(&ini);
}

static void ini_duplicate_keys(void **state)
{
    (void)state;
    expect_ini_error("[s]\nx = 1\nx = 2\n", "t.ini:3: key 'x' given twice (first on line 2)");
    /* The first repetition is reported, against the first occurrence. */
    expect_ini_error("[s]\nx = 1\n[t]\nx = 2\n[s]\ny = 3\nx = 4\nx = 5\n",
                     "t.ini:7: key 'x' given twice (first on line 2)");
    expect_ini_error("x = 1\n[s]\nx = 2\ny = 3\nx = 4\n",
                     "t.ini:5: key 'x' given twice (first on line 3)");
    /* The repetition leaves the entries; the first occurrence stays where it was. */
    Ini ini;
    char err[ERRMSG_LEN];
    assert_int_equal(
        ini_file_parse("[s]\nx = 1\ny = 2\nx = 3\nz = 4\n", "t.ini", &ini, err, sizeof err), 0);
    assert_int_equal(ini.entry_count, 3);
    assert_string_equal(ini.entries[0].value, "1");
    assert_string_equal(ini.entries[1].key, "y");
    assert_string_equal(ini.entries[2].key, "z");
    assert_int_equal(ini.error_line, 4);
    ini_file_free(&ini);

    /* Many keys: found by sorting, in file order afterwards. */
    enum { KEYS = 20000 };
    char *big = malloc(KEYS * 16 + 64);
    assert_non_null(big);
    size_t used = (size_t)sprintf(big, "[s]\n");
    for (int i = 0; i < KEYS; i++)
        used += (size_t)sprintf(big + used, "k%d = %d\n", i, i);
    sprintf(big + used, "k17 = again\n");
    assert_int_equal(ini_file_parse(big, "t.ini", &ini, err, sizeof err), 0);
    assert_int_equal(ini.entry_count, KEYS);
    for (int i = 1; i < KEYS; i++)
        assert_true(ini.entries[i].line == ini.entries[i - 1].line + 1);
    assert_non_null(strstr(ini.error, "t.ini:20002: key 'k17' given twice (first on line 19)"));
    ini_file_free(&ini);
    free(big);
}

static void ini_other_errors(void **state)
{
    (void)state;
    expect_ini_error("[s]\nx\n", "t.ini:2: expected 'key = value', '[section]' or a comment");
    char text[600];
    snprintf(text, sizeof text, "[s]\nx = %0300d\n", 0);
    expect_ini_error(text, "t.ini:2: line longer than 198 characters");

    /* The validation's helpers, and the earliest error winning whoever finds it. */
    Ini ini;
    char err[ERRMSG_LEN];
    assert_int_equal(
        ini_file_parse("k = 0\n[s]\nx = 1\n[t]\ny = 2\nnonsense\n", "t.ini", &ini, err, sizeof err),
        0);
    IniCheck c;
    ini_check_start(&c, &ini, err, sizeof err);
    assert_string_equal(err, "t.ini:6: expected 'key = value', '[section]' or a comment");
    ini_unknown_key(&c, &ini.entries[2], "valid: x");
    assert_string_equal(err, "t.ini:5: key 'y' is unknown in [t] (valid: x)");
    ini_unknown_section(&c, &ini.sections[1], "only [s]");
    assert_string_equal(err, "t.ini:4: section [t] is unknown (only [s])");
    ini_fail(&c, 0, "about the whole file");
    ini_fail(&c, 5, "later");
    assert_string_equal(err, "t.ini:4: section [t] is unknown (only [s])");
    ini_outside_section(&c, &ini.entries[0], "s");
    assert_string_equal(err, "t.ini:1: key 'k' is outside any section: put it under [s]");
    ini_check_start(&c, &ini, err, sizeof err);
    ini_duplicate_key(&c, &ini.entries[1], 1);
    assert_string_equal(err, "t.ini:3: key 'x' given twice (first on line 1)");
    ini_file_free(&ini);

    /* An error about the whole file only when there is no other. */
    assert_int_equal(ini_file_parse("[s]\n", "t.ini", &ini, err, sizeof err), 0);
    ini_check_start(&c, &ini, err, sizeof err);
    ini_fail(&c, 0, "no [x] section");
    ini_fail(&c, 0, "something else");
    assert_string_equal(err, "t.ini: no [x] section");
    ini_file_free(&ini);

    /* Files that are not configurations. */
    assert_int_equal(ini_file_read(fixture("no-such-file.ini"), &ini, err, sizeof err), -1);
    assert_non_null(strstr(err, "no-such-file.ini: cannot read: "));
    assert_null(ini.text);
    char path[] = "/tmp/carrera-test-config-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    fputs("[s]\nx = 1", f);
    fputc('\0', f);
    fclose(f);
    assert_int_equal(ini_file_read(path, &ini, err, sizeof err), -1);
    assert_non_null(strstr(err, ": contains a NUL byte: not a configuration file"));
    f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i <= (1 << 20) / 8; i++)
        fputs("; .....\n", f); /* 8 bytes */
    fclose(f);
    assert_int_equal(ini_file_read(path, &ini, err, sizeof err), -1);
    assert_non_null(strstr(err, ": larger than 1048576 bytes: not a configuration file"));
    remove(path);
}

/* A table of each kind of key, read into its struct. */
typedef enum Kind { KIND_ONE = 1, KIND_TWO } Kind;

typedef struct Keyed {
    int n;
    uint64_t big;
    char name[8];
    Kind kind;
    int extras;
} Keyed;

static bool is_extra(const char *key) { return strncmp(key, "x.", 2) == 0; }

static void read_extra(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    (void)k;
    (void)e;
    (void)c;
    ((Keyed *)target)->extras++;
}

static const IniWord KINDS[] = { { "one", KIND_ONE }, { "two", KIND_TWO }, { "three", 3 }, { 0 } };

static const IniKey KEYED_LIST[] = {
    INI_KEY_WHOLE(Keyed, "n", n, 1, 9, "a digit"),
    INI_KEY_WHOLE(Keyed, "big", big, 0, 1L << 40, "a large number"),
    INI_KEY_TEXT(Keyed, "name", name, "a short name", "a name"),
    INI_KEY_WORD(Keyed, "kind", kind, KINDS, "one of three"),
    INI_KEY_FAMILY(Keyed, "x.NAME", extras, is_extra, read_extra, NULL, "any number of extras"),
};

static const IniKeys KEYED = { "[t]", "a test", KEYED_LIST,
                               sizeof KEYED_LIST / sizeof *KEYED_LIST };

/* Reads the entries of text into *out; the error in err, "" without one. */
static void read_keyed(const char *text, Keyed *out, char *err, size_t errlen)
{
    Ini ini;
    assert_int_equal(ini_file_parse(text, "t.ini", &ini, err, errlen), 0);
    IniCheck c;
    ini_check_start(&c, &ini, err, errlen);
    *out = (Keyed){ 0 };
    for (int i = 0; i < ini.entry_count; i++)
        ini_keys_read(&KEYED, out, &ini.entries[i], &c);
    ini_file_free(&ini);
}

static void key_tables(void **state)
{
    (void)state;
    Keyed k;
    char err[ERRMSG_LEN];
    read_keyed("[t]\nn = 7\nbig = 1099511627776\nname = abc\nkind = two\nx.a = 1\nx.b = 2\n", &k,
               err, sizeof err);
    assert_string_equal(err, "");
    assert_int_equal(k.n, 7);
    assert_true(k.big == 1ULL << 40);
    assert_string_equal(k.name, "abc");
    assert_int_equal(k.kind, KIND_TWO);
    assert_int_equal(k.extras, 2);
    read_keyed("[t]\nn = 10\n", &k, err, sizeof err);
    assert_string_equal(err, "t.ini:2: bad value '10' for n: must be a whole number from 1 to 9");
    read_keyed("[t]\nname = abcdefgh\n", &k, err, sizeof err);
    assert_string_equal(err, "t.ini:2: bad value 'abcdefgh' for name: must be a short name");
    read_keyed("[t]\nkind = four\n", &k, err, sizeof err);
    assert_string_equal(err, "t.ini:2: bad value 'four' for kind: must be one, two or three");
    /* the list of valid keys is the table's, a family by its form */
    read_keyed("[t]\nx = 1\n", &k, err, sizeof err);
    assert_string_equal(err,
                        "t.ini:2: key 'x' is unknown in [t] (valid: n, big, name, kind, x.NAME)");
    char *listing = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&listing, &len);
    assert_non_null(out);
    ini_keys_print(out, &KEYED);
    fclose(out);
    assert_non_null(strstr(listing, "[t]  a test\n  n "));
    assert_non_null(strstr(listing, "  x.NAME               any number of extras\n"));
    free(listing);
}

/* ---- evaluation parameters ---- */

/* Each parameter's value in p (the struct is all ints: a parameter-by-parameter message on a
 * mismatch says more than memcmp). */
static void assert_params_equal(const EvalParams *got, const EvalParams *want)
{
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    for (int i = 0; i < count; i++) {
        int g = *eval_param_ref((EvalParams *)got, &list[i]);
        int w = *eval_param_ref((EvalParams *)want, &list[i]);
        if (g != w)
            fail_msg("%s is %d, want %d", list[i].name, g, w);
    }
    assert_memory_equal(got, want, sizeof *got);
}

/* The file is refused with `want` in the message (FILE standing for its path), *p unchanged. */
static void expect_eval_file_error(const char *name, const char *want)
{
    const char *path = fixture(name);
    char expected[2048], err[2048];
    const char *at = strstr(want, "FILE");
    assert_non_null(at);
    snprintf(expected, sizeof expected, "%.*s%s%s", (int)(at - want), want, path, at + 4);
    EvalParams p, before;
    eval_defaults(&p);
    before = p;
    if (eval_config_read(path, &p, err, sizeof err) == 0)
        fail_msg("%s was accepted", name);
    if (!strstr(err, expected))
        fail_msg("%s: got '%s', want '%s'", name, err, expected);
    assert_params_equal(&p, &before);
}

static void eval_file_errors(void **state)
{
    (void)state;
    expect_eval_file_error("eval-bad-unknown-key.ini",
                           "FILE:4: key 'ValueArchbishopMgg' is unknown in [eval] "
                           "(configs/eval/default.ini lists every evaluation parameter)");
    expect_eval_file_error("eval-bad-range.ini",
                           "FILE:3: MobilityQueenMg: 51 is out of range 0..50");
    expect_eval_file_error("eval-bad-section.ini",
                           "FILE:4: section [engine] is unknown (an evaluation file has one "
                           "section, [eval])");
    expect_eval_file_error("eval-bad-duplicate.ini",
                           "FILE:4: key 'tempo' given twice (first on line 2)");
    /* A perft job is not an evaluation file. */
    expect_eval_file_error("good-minimal.ini", "FILE:1: section [perft] is unknown");
    expect_eval_file_error("bad-empty.ini", "FILE: no [eval] section");
    expect_eval_file_error("no-such-file.ini", "FILE: cannot read: ");
}

/* The text, as the file "e.ini", is refused by eval_config_apply on [section] with `want`. */
static void expect_eval_error(const char *text, const char *section, const char *want)
{
    Ini ini;
    char err[ERRMSG_LEN];
    assert_int_equal(ini_file_parse(text, "e.ini", &ini, err, sizeof err), 0);
    EvalParams p, before;
    eval_defaults(&p);
    before = p;
    if (eval_config_apply(&ini, section, &p, err, sizeof err) == 0)
        fail_msg("accepted:\n%s", text);
    if (!strstr(err, want))
        fail_msg("got '%s', want '%s' for:\n%s", err, want, text);
    assert_params_equal(&p, &before);
    ini_file_free(&ini);
}

static void eval_bad_values(void **state)
{
    (void)state;
    expect_eval_error("[eval]\nTempo = 20\nValueArchbishopMg = x\n", NULL,
                      "e.ini:3: ValueArchbishopMg: 'x' is not an integer (range 0..3000)");
    expect_eval_error("[eval]\nvaluearchbishopmg = 8.75\n", NULL,
                      "e.ini:2: ValueArchbishopMg: '8.75' is not an integer (range 0..3000)");
    expect_eval_error("[eval]\nValueArchbishopMg =\n", NULL,
                      "e.ini:2: ValueArchbishopMg: '' is not an integer (range 0..3000)");
    expect_eval_error("[eval]\nCenterKingMg = -101\n", NULL,
                      "e.ini:2: CenterKingMg: -101 is out of range -100..100");
    expect_eval_error("[eval]\nTempo = 99999999999999999999\n", NULL,
                      "e.ini:2: Tempo: 99999999999999999999 is out of range 0..100");
    expect_eval_error("[eval]\nValueArchbishopMgg = 850\n", NULL,
                      "e.ini:2: key 'ValueArchbishopMgg' is unknown in [eval] "
                      "(configs/eval/default.ini lists every evaluation parameter)");
    expect_eval_error("[engine]\nTempo = 1\nHash = 16\n", "engine",
                      "e.ini:3: key 'Hash' is unknown in [engine]");
    expect_eval_error("[eval]\nTempo = 1\nTempo = 2\n", NULL,
                      "e.ini:3: key 'Tempo' given twice (first on line 2)");
    /* The first error in the file, whoever finds it. */
    expect_eval_error("[eval]\nTempo = x\nnonsense\n", NULL, "e.ini:2: Tempo: 'x'");
    expect_eval_error("[eval]\nnonsense\nTempo = x\n", NULL,
                      "e.ini:2: expected 'key = value', '[section]' or a comment");
    expect_eval_error("[other]\nnonsense\n[eval]\nTempo = 1\n", NULL,
                      "e.ini:2: expected 'key = value'");
}

static void eval_names(void **state)
{
    (void)state;
    /* Any case, as UCI options; each parameter by the name eval_param_list gives it. */
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    for (int i = 0; i < count; i++) {
        char lower[64], upper[64], text[256];
        size_t n = strlen(list[i].name);
        assert_true(n < sizeof lower);
        for (size_t j = 0; j <= n; j++) {
            lower[j] = (char)tolower((unsigned char)list[i].name[j]);
            upper[j] = (char)toupper((unsigned char)list[i].name[j]);
        }
        const char *names[] = { list[i].name, lower, upper };
        for (int k = 0; k < 3; k++) {
            snprintf(text, sizeof text, "[eval]\n%s = %d\n", names[k], list[i].max);
            Ini ini;
            char err[ERRMSG_LEN];
            assert_int_equal(ini_file_parse(text, "e.ini", &ini, err, sizeof err), 0);
            EvalParams p, want;
            eval_defaults(&p);
            want = p;
            *eval_param_ref(&want, &list[i]) = list[i].max;
            if (eval_config_apply(&ini, "eval", &p, err, sizeof err) != 0)
                fail_msg("%s", err);
            assert_params_equal(&p, &want);
            ini_file_free(&ini);
        }
    }
}

static void eval_partial(void **state)
{
    (void)state;
    /* Only the keys given change. */
    EvalParams p, want;
    eval_defaults(&p);
    want = p;
    char err[ERRMSG_LEN];
    if (eval_config_read(fixture("eval-good-partial.ini"), &p, err, sizeof err) != 0)
        fail_msg("%s", err);
    want.value_mg[ARCHBISHOP] = 850;
    want.value_eg[CHANCELLOR] = 880;
    assert_params_equal(&p, &want);

    /* Applied over what is there, not over the defaults; one section of several, the others
     * left to the caller. */
    Ini ini;
    assert_int_equal(ini_file_parse("[match]\ngames = 10\n[eval]\nTempo = 1\n[tuned]\n"
                                    "Tempo = 30\nKingAttack = 12\n",
                                    "e.ini", &ini, err, sizeof err),
                     0);
    p.king_shelter = 3;
    want.king_shelter = 3;
    want.tempo = 1;
    if (eval_config_apply(&ini, NULL, &p, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_params_equal(&p, &want);
    want.tempo = 30;
    want.king_attack = 12;
    if (eval_config_apply(&ini, "tuned", &p, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_params_equal(&p, &want);
    /* A missing or empty section changes nothing. */
    if (eval_config_apply(&ini, "absent", &p, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_params_equal(&p, &want);
    ini_file_free(&ini);
    assert_int_equal(ini_file_parse("[eval]\n", "e.ini", &ini, err, sizeof err), 0);
    if (eval_config_apply(&ini, NULL, &p, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_params_equal(&p, &want);
    ini_file_free(&ini);
}

/* configs/eval/default.ini sets every parameter to its built-in default. */
static void eval_default_file(void **state)
{
    (void)state;
    /* Every parameter moved off its default first, so that one missing from the file shows. */
    EvalParams p, want;
    eval_defaults(&want);
    p = want;
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    for (int i = 0; i < count; i++) {
        int *v = eval_param_ref(&p, &list[i]);
        *v = *v == list[i].max ? list[i].min : list[i].max;
    }
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/default.ini", CARRERA_EVAL_CONFIGS);
    if (eval_config_read(path, &p, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_params_equal(&p, &want);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_fixtures),
        cmocka_unit_test(bad_values),
        cmocka_unit_test(other_errors),
        cmocka_unit_test(defaults),
        cmocka_unit_test(every_key),
        cmocka_unit_test(shipped_configs),
        cmocka_unit_test(command),
        cmocka_unit_test(ini_entries),
        cmocka_unit_test(ini_duplicate_keys),
        cmocka_unit_test(ini_other_errors),
        cmocka_unit_test(key_tables),
        cmocka_unit_test(eval_file_errors),
        cmocka_unit_test(eval_bad_values),
        cmocka_unit_test(eval_names),
        cmocka_unit_test(eval_partial),
        cmocka_unit_test(eval_default_file),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
