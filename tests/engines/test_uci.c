/* SPDX-License-Identifier: MIT */
/* `carrera uci` as a GUI or a match runner meets it: the option list (every variant, the turn
 * rules, Hash, Threads, MultiPV, every evaluation parameter), searches under every kind of limit
 * with info lines and a legal bestmove, `stop` and `isready` while searching, the comma notation
 * of double-move turns both ways, MultiPV's lines, searches on two threads, the same search twice
 * on one thread, and bad input answered with an `info string` and never a crash or a hang. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "carrera_pipe.h"
#include "errmsg.h"
#include "eval.h"
#include "game.h"
#include "search_params.h"
#include "setup.h"
#include "subprocess.h"
#include "variant.h"

/* Reads up to the line starting with prefix; the lines before it must start with allowed (or
 * anything when allowed is NULL). The found line is left in line. */
static void read_until(Subprocess *p, const char *prefix, const char *allowed, char *line,
                       size_t len)
{
    for (;;) {
        pipe_read_line(p, line, len);
        if (starts_with(line, prefix))
            return;
        if (allowed && !starts_with(line, allowed))
            fail_msg("waiting for '%s', got the unexpected line '%s'", prefix, line);
    }
}

/* Checks that the info lines before bestmove are well formed and returns the bestmove text.
 * *last_nodes receives the nodes of the last info line (0 without one). */
static void read_search(Subprocess *p, char *best, size_t len, uint64_t *last_nodes)
{
    char line[8192];
    *last_nodes = 0;
    for (;;) {
        pipe_read_line(p, line, sizeof line);
        if (starts_with(line, "bestmove ")) {
            snprintf(best, len, "%.200s", line + 9);
            return;
        }
        if (starts_with(line, "info string"))
            continue;
        if (!starts_with(line, "info depth "))
            fail_msg("unexpected line during a search: '%s'", line);
        if (strcmp(line, "info depth 0 score mate 0") == 0 ||
            strcmp(line, "info depth 0 score cp 0") == 0)
            continue;
        static const char *const fields[] = { " seldepth ", " score ", " nodes ", " nps ",
                                              " hashfull ", " time ",  " pv " };
        for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
            if (!strstr(line, fields[i]))
                fail_msg("info line without%s: '%s'", fields[i], line);
        if (!strstr(line, " score cp ") && !strstr(line, " score mate "))
            fail_msg("info score neither cp nor mate: '%s'", line);
        *last_nodes = strtoull(strstr(line, " nodes ") + 7, NULL, 10);
    }
}

/* Whether text is a legal turn of the game (played on a copy). */
static bool legal_in(const Game *g, const char *text)
{
    Game copy;
    assert_true(game_init(&copy, &g->pos, &g->rules, g->castle960));
    bool ok = game_play_text(&copy, text);
    game_free(&copy);
    return ok;
}

/* A game of variant under turns from fen, or from the variant's start when fen is NULL. */
static Game game_from(const char *variant, const char *fen, TurnRules turns)
{
    Setup s;
    char err[ERRMSG_LEN];
    if (!fen)
        setup_start(&s, variant_by_name(variant));
    else if (setup_from_fen(&s, variant_by_name(variant), fen, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    Position p;
    position_from_setup(&p, &s);
    Rules r = { turns, EP_CLASSIC };
    Game g;
    assert_true(game_init(&g, &p, &r, false));
    return g;
}

static Game game_at_start(const char *variant, TurnRules turns)
{
    return game_from(variant, NULL, turns);
}

static void test_options(void **state)
{
    (void)state;
    Subprocess p;
    pipe_start(&p, "uci");
    pipe_send(&p, "uci");
    char line[4096];
    pipe_read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "id name Carrera"));
    int n_params, n_variants;
    const EvalParamInfo *params = eval_param_list(&n_params);
    const Variant *const *variants = variant_all(&n_variants);
    bool seen_param[1024] = { false }, seen_hash = false, seen_turns = false, seen_variant = false,
         seen_threads = false, seen_multipv = false, seen_overhead = false;
    assert_true(n_params <= 1024);
    int n_knobs;
    const SearchParamInfo *knobs = search_param_list(&n_knobs);
    SearchParams knob_defaults;
    search_params_default(&knob_defaults);
    bool seen_knob[64] = { false };
    assert_true(n_knobs <= 64);
    for (;;) {
        pipe_read_line(&p, line, sizeof line);
        if (strcmp(line, "uciok") == 0)
            break;
        if (starts_with(line, "id "))
            continue;
        assert_true(starts_with(line, "option name "));
        if (starts_with(line, "option name Hash type spin default "))
            seen_hash = true;
        if (starts_with(line, "option name Threads type spin default 1 min 1 max "))
            seen_threads = true;
        if (starts_with(line, "option name MultiPV type spin default 1 min 1 max "))
            seen_multipv = true;
        if (starts_with(line, "option name Move Overhead type spin default "))
            seen_overhead = true;
        if (starts_with(line, "option name TurnRules type combo")) {
            seen_turns = true;
            for (int t = 0; t < TURNS_NB; t++) {
                char var[64];
                snprintf(var, sizeof var, " var %s", turn_rules_name((TurnRules)t));
                assert_non_null(strstr(line, var));
            }
        }
        if (starts_with(line, "option name UCI_Variant type combo")) {
            seen_variant = true;
            for (int v = 0; v < n_variants; v++) {
                char var[64];
                snprintf(var, sizeof var, " var %s", variants[v]->name);
                assert_non_null(strstr(line, var));
            }
        }
        for (int i = 0; i < n_params; i++) {
            char want[128];
            snprintf(want, sizeof want, "option name %s type spin default ", params[i].name);
            if (starts_with(line, want))
                seen_param[i] = true;
        }
        for (int i = 0; i < n_knobs; i++) {
            char want[128];
            snprintf(want, sizeof want, "option name %s type spin default %d min %d max %d",
                     knobs[i].name, *param_ref(&knob_defaults, &knobs[i]), knobs[i].min,
                     knobs[i].max);
            if (strcmp(line, want) == 0)
                seen_knob[i] = true;
        }
    }
    /* every search parameter, with its default and range */
    for (int i = 0; i < n_knobs; i++)
        if (!seen_knob[i])
            fail_msg("search parameter %s is not a UCI option", knobs[i].name);
    assert_true(seen_hash && seen_turns && seen_variant && seen_threads && seen_multipv &&
                seen_overhead);
    /* every parameter but the piece-square shape's hundreds (eval.h) */
    for (int i = 0; i < n_params; i++)
        if (seen_param[i] == eval_param_is_shape(&params[i]))
            fail_msg("evaluation parameter %s is %s", params[i].name,
                     seen_param[i] ? "announced" : "not a UCI option");
    /* options and commands with nothing to say answer nothing: the next answer is readyok */
    pipe_send(&p, "setoption name Move Overhead value 50");
    pipe_send(&p, "debug on");
    pipe_send(&p, "debug off");
    pipe_send(&p, "isready");
    pipe_read_line(&p, line, sizeof line);
    assert_string_equal(line, "readyok");
    pipe_quit(&p);
}

/* Searches the start position of g with the go command; the bestmove must be legal. */
static void legal_search(Subprocess *p, const Game *g, const char *go)
{
    char best[256];
    uint64_t nodes;
    pipe_send(p, "position startpos");
    pipe_send(p, go);
    read_search(p, best, sizeof best, &nodes);
    assert_true(legal_in(g, best));
}

/* Searches of the start position of g under each kind of limit (depth, nodes, at most
 * node_limit, a move time, a clock, infinite ended by stop, with isready answered while it
 * thinks), each with well-formed info lines and a legal bestmove. */
static void search_every_limit(Subprocess *p, const Game *g, int depth, uint64_t node_limit)
{
    char best[256], line[4096], go[64];
    uint64_t nodes;
    pipe_send(p, "position startpos");
    snprintf(go, sizeof go, "go depth %d", depth);
    pipe_send(p, go);
    read_search(p, best, sizeof best, &nodes);
    assert_true(legal_in(g, best));
    assert_true(nodes > 0);

    pipe_send(p, "ucinewgame");
    pipe_send(p, "position startpos");
    snprintf(go, sizeof go, "go nodes %" PRIu64, node_limit);
    pipe_send(p, go);
    read_search(p, best, sizeof best, &nodes);
    assert_true(legal_in(g, best));
    assert_true(nodes > 0 && nodes <= node_limit);

    pipe_send(p, "go movetime 100");
    read_search(p, best, sizeof best, &nodes);
    assert_true(legal_in(g, best));

    pipe_send(p, "go wtime 2000 btime 2000 winc 10 binc 10 movestogo 20");
    read_search(p, best, sizeof best, &nodes);
    assert_true(legal_in(g, best));

    pipe_send(p, "go infinite");
    pipe_send(p, "isready");
    read_until(p, "readyok", "info", line, sizeof line);
    pipe_send(p, "stop");
    read_search(p, best, sizeof best, &nodes);
    assert_true(legal_in(g, best));
}

static void test_searches(void **state)
{
    (void)state;
    Subprocess p;
    pipe_start(&p, "uci");
    char best[256];
    uint64_t nodes;
    Game chess = game_at_start("chess", TURNS_SINGLE);

    search_every_limit(&p, &chess, 5, 3000);
    char line[4096];

    /* a mate is reported as such */
    pipe_send(&p, "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    pipe_send(&p, "go depth 3");
    read_until(&p, "info depth 3 ", "info", line, sizeof line);
    assert_non_null(strstr(line, " score mate 1 "));
    read_search(&p, best, sizeof best, &nodes);
    assert_string_equal(best, "a1a8");

    /* a finished game: nothing to play */
    pipe_send(&p, "position startpos moves f2f3 e7e5 g2g4 d8h4");
    pipe_send(&p, "go depth 3");
    read_until(&p, "info depth 0 score mate 0", NULL, line, sizeof line);
    read_search(&p, best, sizeof best, &nodes);
    assert_string_equal(best, "0000");

    /* the 10x8 board */
    Game capa = game_at_start("capablanca", TURNS_SINGLE);
    pipe_send(&p, "setoption name UCI_Variant value capablanca");
    legal_search(&p, &capa, "go nodes 2000");
    game_free(&capa);
    game_free(&chess);
    pipe_quit(&p);
}

static void test_double_move_notation(void **state)
{
    (void)state;
    Subprocess p;
    pipe_start(&p, "uci");
    char best[256], line[4096];
    uint64_t nodes;
    pipe_send(&p, "setoption name TurnRules value marseillais");
    pipe_send(&p, "position startpos");
    pipe_send(&p, "go depth 2");
    read_search(&p, best, sizeof best, &nodes);
    Game g = game_at_start("chess", TURNS_MARSEILLAIS);
    assert_non_null(strchr(best, ','));
    assert_true(legal_in(&g, best));

    /* the turn read back: the same position as the core reaches */
    assert_true(game_play_text(&g, best));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position startpos moves %s", best);
    pipe_send(&p, cmd);
    pipe_send(&p, "d");
    pipe_read_line(&p, line, sizeof line);
    Setup s;
    char fen[FEN_MAX], want[FEN_MAX + 8];
    position_to_setup(&g.pos, &s);
    setup_to_fen(&s, s.castling_text, fen, sizeof fen);
    snprintf(want, sizeof want, "Fen: %s", fen);
    assert_string_equal(line, want);

    /* an illegal turn: the first movement gives no second (e2e4 then e4e6 is no movement) */
    pipe_send(&p, "position startpos moves e2e4,e4e6");
    pipe_read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "info string error: illegal turn 'e2e4,e4e6'"));
    game_free(&g);
    pipe_quit(&p);
}

static void test_bad_input(void **state)
{
    (void)state;
    Subprocess p;
    pipe_start(&p, "uci");
    char line[4096], best[256];
    uint64_t nodes;
    static const struct {
        const char *command, *answer;
    } cases[] = {
        { "frobnicate", "info string unknown command: frobnicate" },
        { "setoption name Hash value 0", "info string error: Hash takes 1 to " },
        { "setoption name Hash value lots", "info string error: Hash takes 1 to " },
        { "setoption name ValueArchbishopMg value abc", "info string error: " },
        { "setoption name ValueArchbishopMg value 999999999", "info string error: " },
        { "setoption name RfpStep value 5000",
          "info string error: RfpStep: 5000 is out of range 10..1000" },
        { "setoption name LmrBase value x", "info string error: LmrBase: 'x' is not an integer" },
        { "setoption name NoSuchOption value 1",
          "info string error: unknown option 'NoSuchOption'" },
        { "setoption", "info string error: expected 'setoption name NAME [value VALUE]'" },
        { "setoption name UCI_Variant value shogi", "info string error: unknown variant 'shogi'" },
        { "position", "info string error: expected 'position (startpos | fen FEN) [moves ...]'" },
        { "position fen 8/8/8 w - - 0 1", "info string error: bad FEN: " },
        { "position startpos moves e2e5", "info string error: illegal move 'e2e5'" },
        { "go perft", "info string error: expected 'go perft N'" },
        { "setoption name Threads value 0", "info string error: Threads takes 1 to " },
        { "setoption name Threads value many", "info string error: Threads takes 1 to " },
        { "setoption name MultiPV value 0", "info string error: MultiPV takes 1 to " },
        { "setoption name MultiPV value -2", "info string error: MultiPV takes 1 to " },
        { "setoption name Move Overhead value 5001",
          "info string error: Move Overhead takes 0 to 5000 (ms), not '5001'" },
        { "setoption name Move Overhead value soon", "info string error: Move Overhead takes 0 " },
        { "debug sideways", "info string error: expected 'debug on' or 'debug off'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pipe_send(&p, cases[i].command);
        pipe_read_line(&p, line, sizeof line);
        if (!starts_with(line, cases[i].answer))
            fail_msg("'%s' answered '%s', expected '%s...'", cases[i].command, line,
                     cases[i].answer);
    }
    /* bad go words are reported, and the search still answers */
    pipe_send(&p, "position startpos");
    pipe_send(&p, "go depth x sideways nodes 500");
    pipe_read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "info string error: go depth needs a number, not 'x'"));
    pipe_read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "info string error: unknown go parameter 'x' ignored") ||
                starts_with(line, "info string error: unknown go parameter 'sideways'"));
    read_search(&p, best, sizeof best, &nodes);
    assert_true(nodes <= 500);
    /* still alive and well */
    pipe_send(&p, "isready");
    read_until(&p, "readyok", NULL, line, sizeof line);
    /* quit in the middle of an infinite search ends the program */
    pipe_send(&p, "go infinite");
    assert_int_equal(subprocess_send(&p, "quit\n"), 0);
    assert_int_equal(subprocess_finish(&p, PIPE_TIMEOUT_MS), 0);
}

/* One info line of a search with its multipv index, score (mates as +-(30000 - N), so that
 * scores compare), first turn and depth. */
typedef struct InfoLine {
    int depth, multipv, score;
    char first[64];
} InfoLine;

static InfoLine parse_info(const char *line)
{
    InfoLine l = { 0 };
    const char *depth = strstr(line, "info depth "), *multipv = strstr(line, " multipv ");
    const char *cp = strstr(line, " score cp "), *mate = strstr(line, " score mate ");
    const char *pv = strstr(line, " pv ");
    if (!depth || !multipv || (!cp && !mate) || !pv)
        fail_msg("info line without depth, multipv, score or pv: '%s'", line);
    l.depth = atoi(depth + 11);
    l.multipv = atoi(multipv + 9);
    if (cp) {
        l.score = atoi(cp + 10);
    } else {
        int n = atoi(mate + 12);
        l.score = n > 0 ? 30000 - n : -30000 - n;
    }
    sscanf(pv + 4, "%63s", l.first);
    return l;
}

/* Reads a MultiPV search of want lines up to bestmove: at every depth the lines come in order
 * 1..k (k = want, or fewer when the position has fewer turns: *k receives it), with distinct
 * first turns and scores that never rise, each legal in g; bestmove is the first line's turn.
 * *top receives the deepest iteration's first line. */
static void read_multipv(Subprocess *p, const Game *g, int want, int *k, InfoLine *top)
{
    char line[8192];
    InfoLine lines[16];
    int n = 0, depth = 0;
    *k = 0;
    for (;;) {
        pipe_read_line(p, line, sizeof line);
        if (starts_with(line, "bestmove ")) {
            assert_true(*k > 0 && n == *k);
            assert_string_equal(line + 9, top->first);
            return;
        }
        if (starts_with(line, "info string"))
            continue;
        InfoLine l = parse_info(line);
        if (l.multipv == 1) {
            if (depth > 0 && n != *k)
                fail_msg("depth %d had %d lines, depth %d before it %d", depth, n, depth, *k);
            depth = l.depth;
            n = 0;
            *top = l;
        }
        assert_int_equal(l.depth, depth);
        assert_int_equal(l.multipv, n + 1);
        assert_true(n < 16);
        assert_true(legal_in(g, l.first));
        for (int i = 0; i < n; i++) {
            if (strcmp(lines[i].first, l.first) == 0)
                fail_msg("depth %d: lines %d and %d both start with %s", depth, i + 1, n + 1,
                         l.first);
            if (lines[i].score < l.score)
                fail_msg("depth %d: line %d scores %d, above line %d's %d", depth, n + 1, l.score,
                         i + 1, lines[i].score);
        }
        lines[n++] = l;
        if (n > *k)
            *k = n;
        if (n > want)
            fail_msg("depth %d: more than %d lines", depth, want);
    }
}

/* A search with MultiPV = want of position ("startpos" or "fen ...", g's) under go, read by
 * read_multipv: the deepest iteration's first line, *k the lines per iteration. */
static InfoLine multipv_search(Subprocess *p, const Game *g, const char *position, int want,
                               const char *go, int *k)
{
    char command[256];
    snprintf(command, sizeof command, "setoption name MultiPV value %d", want);
    pipe_send(p, command);
    snprintf(command, sizeof command, "position %s", position);
    pipe_send(p, command);
    pipe_send(p, go);
    InfoLine top;
    read_multipv(p, g, want, k, &top);
    return top;
}

static void test_multipv(void **state)
{
    (void)state;
    Subprocess p;
    pipe_start(&p, "uci");
    int k;
    Game chess = game_at_start("chess", TURNS_SINGLE);
    InfoLine top = multipv_search(&p, &chess, "startpos", 3, "go depth 6", &k);
    assert_int_equal(k, 3);
    assert_int_equal(top.depth, 6);

    /* a mate in one is the first line, the other turns after it */
    const char *mate_fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    char position[128];
    snprintf(position, sizeof position, "fen %s", mate_fen);
    Game mate = game_from("chess", mate_fen, TURNS_SINGLE);
    top = multipv_search(&p, &mate, position, 4, "go depth 4", &k);
    assert_int_equal(k, 4);
    assert_string_equal(top.first, "a1a8");
    assert_int_equal(top.score, 30000 - 1);

    /* more lines than turns: every turn once (a king with three squares) */
    const char *kings_fen = "7k/8/8/8/8/8/8/K7 w - - 0 1";
    snprintf(position, sizeof position, "fen %s", kings_fen);
    Game kings = game_from("chess", kings_fen, TURNS_SINGLE);
    multipv_search(&p, &kings, position, 10, "go depth 3", &k);
    assert_int_equal(k, 3);

    /* back to one line: the plain output, one line per depth */
    multipv_search(&p, &chess, "startpos", 1, "go depth 4", &k);
    assert_int_equal(k, 1);
    legal_search(&p, &chess, "go nodes 2000");
    game_free(&kings);
    game_free(&mate);
    game_free(&chess);
    pipe_quit(&p);
}

/* A search under go (which names searchmoves) whose every line starts with one of the turns of
 * only (space-separated) and whose bestmove is one of them; *errors counts its info string errors.
 * Returns the bestmove in best. */
static void searchmoves_search(Subprocess *p, const char *go, const char *only, char *best,
                               size_t len, int *errors)
{
    char line[8192], word[64];
    *errors = 0;
    pipe_send(p, go);
    for (;;) {
        pipe_read_line(p, line, sizeof line);
        const char *first = NULL;
        if (starts_with(line, "bestmove "))
            first = line + 9;
        else if (starts_with(line, "info string error: "))
            ++*errors;
        else if (strstr(line, " pv "))
            first = strstr(line, " pv ") + 4;
        if (!first)
            continue;
        snprintf(word, sizeof word, " %.*s ", (int)strcspn(first, " "), first);
        char padded[512];
        snprintf(padded, sizeof padded, " %s ", only);
        if (!strstr(padded, word))
            fail_msg("searchmoves %s: the line '%s' starts with another turn", only, line);
        if (starts_with(line, "bestmove ")) {
            snprintf(best, len, "%.200s", line + 9);
            return;
        }
    }
}

/* go searchmoves: only the turns listed are searched, by one thread or two, with MultiPV, under
 * the double-move rules; illegal ones are reported and left out, and a list without a legal one
 * searches every turn. */
static void test_searchmoves(void **state)
{
    (void)state;
    Subprocess p;
    pipe_start(&p, "uci");
    char best[256], line[4096];
    int errors;
    pipe_send(&p, "position startpos");
    searchmoves_search(&p, "go depth 6 searchmoves a2a3 h2h3", "a2a3 h2h3", best, sizeof best,
                       &errors);
    assert_int_equal(errors, 0);

    /* the mate in one left out: the king's move is played */
    pipe_send(&p, "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    searchmoves_search(&p, "go depth 4 searchmoves g1f1", "g1f1", best, sizeof best, &errors);
    assert_string_equal(best, "g1f1");

    /* an illegal turn among them is reported; the list ends at the next word of go */
    pipe_send(&p, "position startpos");
    searchmoves_search(&p, "go searchmoves e2e5 b1c3 depth 3", "b1c3", best, sizeof best, &errors);
    assert_int_equal(errors, 1);
    assert_string_equal(best, "b1c3");

    /* none legal: reported, and every turn searched */
    Game chess = game_at_start("chess", TURNS_SINGLE);
    pipe_send(&p, "go depth 3 searchmoves e2e5");
    read_until(&p, "info string error: searchmoves: 'e2e5'", "info", line, sizeof line);
    read_until(&p, "info string error: searchmoves without a legal move", "info", line,
               sizeof line);
    read_until(&p, "bestmove ", "info", line, sizeof line);
    assert_true(legal_in(&chess, line + 9));

    /* MultiPV: as many lines as turns listed */
    int k;
    InfoLine top =
        multipv_search(&p, &chess, "startpos", 3, "go depth 5 searchmoves a2a3 h2h3", &k);
    assert_int_equal(k, 2);
    assert_true(strcmp(top.first, "a2a3") == 0 || strcmp(top.first, "h2h3") == 0);
    pipe_send(&p, "setoption name MultiPV value 1");

    /* two threads: the helper searches the same list */
    pipe_send(&p, "setoption name Threads value 2");
    searchmoves_search(&p, "go nodes 100000 searchmoves a2a3 h2h3", "a2a3 h2h3", best, sizeof best,
                       &errors);
    pipe_send(&p, "setoption name Threads value 1");

    /* a double-move turn */
    pipe_send(&p, "setoption name TurnRules value marseillais");
    pipe_send(&p, "position startpos");
    searchmoves_search(&p, "go depth 2 searchmoves a2a3,h2h3", "a2a3,h2h3", best, sizeof best,
                       &errors);
    assert_int_equal(errors, 0);
    game_free(&chess);
    pipe_quit(&p);
}

/* Threads = 2: legal turns and well-formed info lines under every kind of limit, a node limit
 * that counts both threads, stop, MultiPV beside it, and a double-move rule set. */
static void test_threads(void **state)
{
    (void)state;
    Subprocess p;
    pipe_start(&p, "uci");
    Game chess = game_at_start("chess", TURNS_SINGLE);
    char best[256], line[4096];
    uint64_t nodes;
    pipe_send(&p, "setoption name Threads value 2");
    pipe_send(&p, "isready");
    read_until(&p, "readyok", NULL, line, sizeof line);
    search_every_limit(&p, &chess, 7, 20000);

    /* double-move turns, then single moves again */
    Game marseillais = game_at_start("chess", TURNS_MARSEILLAIS);
    pipe_send(&p, "setoption name TurnRules value marseillais");
    legal_search(&p, &marseillais, "go nodes 20000");
    game_free(&marseillais);
    pipe_send(&p, "setoption name TurnRules value single");

    int k;
    multipv_search(&p, &chess, "startpos", 2, "go depth 5", &k);
    assert_int_equal(k, 2);
    pipe_send(&p, "setoption name MultiPV value 1");

    /* a game of a few turns, each searched in its own position */
    char moves[1024] = "position startpos moves";
    for (int turn = 0; turn < 6; turn++) {
        pipe_send(&p, moves);
        pipe_send(&p, "go nodes 5000");
        read_search(&p, best, sizeof best, &nodes);
        Game g = game_at_start("chess", TURNS_SINGLE);
        char *list = strdup(moves + strlen("position startpos moves"));
        for (char *save = NULL, *m = strtok_r(list, " ", &save); m; m = strtok_r(NULL, " ", &save))
            assert_true(game_play_text(&g, m));
        free(list);
        assert_true(legal_in(&g, best));
        game_free(&g);
        strcat(moves, " ");
        strcat(moves, best);
    }
    game_free(&chess);
    pipe_quit(&p);
}

/* With one thread and a node limit the search is the same every time: in a fresh process, and
 * in one that searched on two threads in between and went back to one (a new game empties the
 * table and the statistics of every thread). */
/* The search test_one_thread_deterministic repeats; its bestmove and last node count. */
static void node_limited_search(Subprocess *p, char best[256], uint64_t *nodes)
{
    pipe_send(p, "position startpos moves e2e4 e7e5");
    pipe_send(p, "go nodes 30000");
    read_search(p, best, 256, nodes);
}

static void test_one_thread_deterministic(void **state)
{
    (void)state;
    char best[3][256], other[256];
    uint64_t nodes[3], other_nodes;
    Subprocess p;
    pipe_start(&p, "uci");
    node_limited_search(&p, best[0], &nodes[0]);
    pipe_send(&p, "setoption name Threads value 2");
    pipe_send(&p, "go nodes 10000");
    read_search(&p, other, sizeof other, &other_nodes);
    pipe_send(&p, "setoption name Threads value 1");
    pipe_send(&p, "ucinewgame");
    node_limited_search(&p, best[1], &nodes[1]);
    pipe_quit(&p);
    pipe_start(&p, "uci");
    node_limited_search(&p, best[2], &nodes[2]);
    pipe_quit(&p);
    for (int i = 1; i < 3; i++) {
        assert_string_equal(best[0], best[i]);
        assert_true(nodes[0] == nodes[i]);
    }
}

/* Input that ends during a finite search (a script piping commands in): the search finishes
 * and answers before the program exits. */
static void test_end_of_input(void **state)
{
    (void)state;
    FILE *f =
        popen("printf 'position startpos moves e2e4\\ngo depth 4\\n' | " CARRERA_BIN " uci", "r");
    assert_non_null(f);
    char line[4096];
    bool answered = false;
    while (fgets(line, sizeof line, f))
        answered = answered || starts_with(line, "bestmove ");
    assert_int_equal(pclose(f), 0);
    assert_true(answered);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_searches),
        cmocka_unit_test(test_double_move_notation),
        cmocka_unit_test(test_multipv),
        cmocka_unit_test(test_searchmoves),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_one_thread_deterministic),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_end_of_input),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
