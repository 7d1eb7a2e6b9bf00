/* SPDX-License-Identifier: MIT */
/* The engine's search, played out: it mates from random K+Q, K+R, K+A and K+C v K positions within
 * the 50-move rule against its own best defence; it finds short mates under single and double
 * move rules (including a two-movement mate and a Galvin king capture); with a node limit it is
 * deterministic; each of its parameters is read (moving it changes the tree); and over many
 * fast self-play games in every variant and rule set every turn it chooses is one of the
 * position's legal turns (game_play refuses anything else). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "eval.h"
#include "game.h"
#include "move.h"
#include "rng.h"
#include "search.h"
#include "setup.h"
#include "variant.h"

static Eval *eval_default(void)
{
    static Eval e;
    static bool ready;
    if (!ready) {
        EvalParams p;
        eval_defaults(&p);
        eval_prepare(&e, &p);
        ready = true;
    }
    return &e;
}

static Position from_fen(const char *variant, const Rules *r, const char *fen)
{
    Setup s;
    char err[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, variant_by_name(variant), r, fen, err, sizeof err) != 0)
        fail_msg("bad test FEN '%s': %s", fen, err);
    Position p;
    position_from_setup(&p, &s);
    return p;
}

/* One search of the game's current position with its history. */
static Turn think(Searcher *s, const Game *g, const SearchLimits *l, SearchReport *r)
{
    SearchInput in = { .root = &g->pos,
                       .rules = &g->rules,
                       .eval = eval_default(),
                       .history = g->keys,
                       .n_history = g->n_turns,
                       .limits = *l };
    return search_run(s, &in, r);
}

/* Plays the game out with the engine on both sides; returns the termination. Every chosen turn
 * must be legal (game_play checks it against the position's turns). */
static Termination play_out(Searcher *s, Game *g, const SearchLimits *l, int max_turns, int *winner)
{
    Termination t;
    for (int i = 0; (t = game_status(g, winner)) == TERM_NONE && i < max_turns; i++) {
        Turn best = think(s, g, l, NULL);
        assert_int_not_equal(best.n, 0);
        if (!game_play(g, &best)) {
            char text[TURN_TEXT_MAX];
            turn_to_uci(&best, g->pos.variant, g->castle960, text);
            fail_msg("the engine chose an illegal turn %s", text);
        }
    }
    return t;
}

/* ---- mating the lone king ------------------------------------------------------------------ */

/* A random legal position with White's king and piece against Black's king, Black to move not
 * already mated or stalemated, White not in check. */
static Position random_mating_position(const char *variant, PieceType piece, Rng *rng)
{
    const Variant *v = variant_by_name(variant);
    int files = v->files, squares = files * RANKS;
    Rules single = { TURNS_SINGLE, EP_CLASSIC };
    for (;;) {
        int wk = (int)rng_below(rng, (uint64_t)squares),
            bk = (int)rng_below(rng, (uint64_t)squares),
            pc = (int)rng_below(rng, (uint64_t)squares);
        if (wk == bk || wk == pc || bk == pc)
            continue;
        int df = abs(wk % files - bk % files), dr = abs(wk / files - bk / files);
        if (df <= 1 && dr <= 1)
            continue;
        /* a piece next to the lone king could simply be taken */
        if (abs(pc % files - bk % files) <= 1 && abs(pc / files - bk / files) <= 1)
            continue;
        char fen[FEN_MAX];
        Setup s = { 0 };
        s.variant = v;
        s.board[wk] = make_piece(WHITE, KING);
        s.board[bk] = make_piece(BLACK, KING);
        s.board[pc] = make_piece(WHITE, piece);
        s.side = BLACK;
        s.fullmove = 1;
        s.ep[0] = s.ep[1] = NO_SQUARE;
        for (int c = 0; c < 2; c++)
            s.castle_rook[c][0] = s.castle_rook[c][1] = NO_SQUARE;
        setup_to_fen(&s, s.castling_text, fen, sizeof fen);
        Setup checked;
        char err[ERRMSG_LEN];
        if (setup_from_fen_rules(&checked, v, &single, fen, err, sizeof err) != 0)
            continue; /* e.g. White in check with Black to move */
        Position p;
        position_from_setup(&p, &checked);
        if (position_game_end(&p, &single) != GAME_ON)
            continue;
        return p;
    }
}

static void mates(const char *variant, PieceType piece, int games)
{
    Rng rng = rng_new(0x4d415445u + piece);
    Searcher *s = searcher_new(16);
    assert_non_null(s);
    Rules single = { TURNS_SINGLE, EP_CLASSIC };
    SearchLimits l = search_limits_none();
    l.nodes = 40000;
    for (int i = 0; i < games; i++) {
        Position start = random_mating_position(variant, piece, &rng);
        Game g;
        assert_true(game_init(&g, &start, &single, false));
        searcher_clear(s);
        int winner;
        Termination t = play_out(s, &g, &l, 400, &winner);
        if (t != TERM_CHECKMATE || winner != WHITE) {
            Setup su;
            char fen[FEN_MAX];
            position_to_setup(&start, &su);
            setup_to_fen(&su, su.castling_text, fen, sizeof fen);
            fail_msg("%s: from %s the game ended by %s after %zu moves, not by White's mate",
                     variant, fen, termination_name(t), g.n_turns);
        }
        game_free(&g);
    }
    searcher_free(s);
}

static void test_mate_kqk(void **state)
{
    (void)state;
    mates("chess", QUEEN, 6);
}
static void test_mate_krk(void **state)
{
    (void)state;
    mates("chess", ROOK, 6);
}
static void test_mate_kak(void **state)
{
    (void)state;
    mates("capablanca", ARCHBISHOP, 6);
}
static void test_mate_kck(void **state)
{
    (void)state;
    mates("capablanca", CHANCELLOR, 6);
}

/* ---- short mates ---------------------------------------------------------------------------- */

static void expect_mate(const char *variant, TurnRules turns, const char *fen, int depth,
                        int mate_in, const char *turn_text)
{
    Rules r = { turns, EP_CLASSIC };
    Position p = from_fen(variant, &r, fen);
    Game g;
    assert_true(game_init(&g, &p, &r, false));
    Searcher *s = searcher_new(4);
    SearchLimits l = search_limits_none();
    l.depth = depth;
    SearchReport rep;
    Turn best = think(s, &g, &l, &rep);
    char text[TURN_TEXT_MAX];
    turn_to_uci(&best, p.variant, false, text);
    if (rep.mate != mate_in)
        fail_msg("%s %s: expected mate in %d, got score %d mate %d with %s", variant, fen, mate_in,
                 rep.score, rep.mate, text);
    if (turn_text && strcmp(text, turn_text) != 0)
        fail_msg("%s %s: expected %s, got %s", variant, fen, turn_text, text);
    if (mate_in == 1) {
        assert_true(game_play(&g, &best));
        int winner;
        Termination t = game_status(&g, &winner);
        assert_true(t == TERM_CHECKMATE || t == TERM_KING_CAPTURED);
        assert_int_equal(winner, position_side(&p));
    }
    game_free(&g);
    searcher_free(s);
}

static void test_short_mates(void **state)
{
    (void)state;
    /* back rank */
    expect_mate("chess", TURNS_SINGLE, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3, 1, "a1a8");
    /* mate in two: Kg6 then Ra8 */
    expect_mate("chess", TURNS_SINGLE, "7k/8/8/6K1/8/8/8/R7 w - - 0 1", 5, 2, NULL);
    /* the same position is a mate in one turn of two movements (a king move, then Ra8) */
    expect_mate("chess", TURNS_MARSEILLAIS, "7k/8/8/6K1/8/8/8/R7 w - - 0 3", 2, 1, NULL);
    /* a first-movement check ends the turn: Ra8+ alone is mate, and nothing follows it */
    expect_mate("chess", TURNS_MARSEILLAIS, "6k1/5ppp/8/8/8/8/8/R6K w - - 0 3", 1, 1, NULL);
    /* Galvin's game: the king that can be taken is taken */
    expect_mate("chess", TURNS_GALVIN, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 3", 2, 1, NULL);
    /* ... and the one a movement puts in reach: Ra8 or Re1, then the rook takes it (found
     * before the turns are listed below the root, at any depth) */
    expect_mate("chess", TURNS_GALVIN, "4k3/8/8/8/8/8/8/R5K1 w - - 0 3", 1, 1, NULL);
    expect_mate("chess", TURNS_GALVIN, "4k3/8/8/8/8/8/8/R5K1 w - - 0 3", 3, 1, NULL);
    /* being mated is seen too: Kb8 is forced, then Rh8 */
    expect_mate("chess", TURNS_SINGLE, "k7/8/1K6/8/8/8/8/7R b - - 0 1", 3, -1, "a8b8");
}

/* ---- static exchange ------------------------------------------------------------------------- */

static void expect_see(const char *variant, const char *fen, const char *move, int want)
{
    static const int values[TYPE_NB] = { 0, 100, 300, 350, 475, 875, 900, 950, 5000 };
    Rules r = { TURNS_SINGLE, EP_CLASSIC };
    Position p = from_fen(variant, &r, fen);
    Move legal[MAX_MOVES];
    int n = position_legal_moves(&p, legal);
    Move m = move_from_uci(move, legal, n, p.variant, false);
    assert_int_not_equal(m, MOVE_NONE);
    int got = position_see(&p, m, values);
    if (got != want)
        fail_msg("%s %s: SEE %d, expected %d", fen, move, got, want);
}

/* Exchanges worked by hand with P 100, R 475 (the values passed in). */
static void test_see(void **state)
{
    (void)state;
    /* the pawn is defended by a pawn: the rook is lost for it */
    expect_see("chess", "4k3/8/3p4/4p3/8/8/4R3/4KQ2 w - - 0 1", "e2e5", 100 - 475);
    /* a rook behind a rook (x-ray): black must not recapture, White wins the pawn */
    expect_see("chess", "4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", 100);
    /* the king may retake only where nothing else would take it back */
    expect_see("chess", "8/8/4k3/4p3/8/8/4R3/5K2 w - - 0 1", "e2e5", 100 - 475);
    expect_see("chess", "8/8/4k3/4p3/8/8/4R3/4QK2 w - - 0 1", "e2e5", 100);
    /* an undefended piece */
    expect_see("chess", "4k3/8/8/4r3/8/8/4R3/4K3 w - - 0 1", "e2e5", 475);
    /* the Archbishop's knight jump defends on the 10x8 board */
    expect_see("capablanca", "4k5/10/10/4p5/2a7/10/4R5/4K5 w - - 0 1", "e2e5", 100 - 475);
}

/* ---- determinism ----------------------------------------------------------------------------- */

static void test_node_limit_deterministic(void **state)
{
    (void)state;
    static const struct {
        const char *variant;
        TurnRules turns;
        const char *fen;
    } cases[] = {
        { "chess", TURNS_SINGLE,
          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" },
        { "capablanca", TURNS_SINGLE,
          "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1" },
        { "chess", TURNS_MARSEILLAIS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        Rules r = { cases[c].turns, EP_CLASSIC };
        Position p = from_fen(cases[c].variant, &r, cases[c].fen);
        Game g;
        assert_true(game_init(&g, &p, &r, false));
        SearchLimits l = search_limits_none();
        l.nodes = 30000;
        Turn first = { { 0, 0 }, 0 };
        SearchReport rep[2];
        for (int run = 0; run < 2; run++) {
            Searcher *s = searcher_new(8);
            Turn best = think(s, &g, &l, &rep[run]);
            if (run == 0)
                first = best;
            else
                assert_memory_equal(&first, &best, sizeof best);
            searcher_free(s);
        }
        assert_int_equal(rep[0].nodes, rep[1].nodes);
        assert_int_equal(rep[0].score, rep[1].score);
        assert_true(rep[0].nodes <= l.nodes);
        game_free(&g);
    }
}

/* ---- the search's parameters ------------------------------------------------------------------
 */

/* The nodes of a depth-limited search of the Capablanca and chess middlegames below with params
 * (NULL: none given), each from a new searcher. */
static uint64_t nodes_with(const SearchParams *params, int depth)
{
    static const struct {
        const char *variant, *fen;
    } cases[] = {
        { "capablanca",
          "r1abqkbcnr/pppp1ppppp/2n7/4p5/4P5/7N2/PPPP1PPPPP/RNABQKBC1R w KQkq - 2 3" },
        { "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" },
        { "chess", "2r3k1/pp3ppp/4p3/3n4/3P4/P4N2/1P3PPP/2R3K1 w - - 0 1" },
    };
    uint64_t nodes = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const Rules r = { TURNS_SINGLE, EP_CLASSIC };
        Position p = from_fen(cases[c].variant, &r, cases[c].fen);
        SearchLimits l = search_limits_none();
        l.depth = depth;
        SearchInput in = {
            .root = &p, .rules = &r, .eval = eval_default(), .params = params, .limits = l
        };
        Searcher *s = searcher_new(8);
        SearchReport rep;
        search_run(s, &in, &rep);
        nodes += rep.nodes;
        searcher_free(s);
    }
    return nodes;
}

/* The defaults given are the search without parameters; every parameter, moved within its
 * range, changes the tree (it is read by the search), and each search is still deterministic.
 * A parameter that left the tree alone here would be one the search does not use. */
static void test_search_params(void **state)
{
    (void)state;
    const int depth = 9;
    SearchParams defaults;
    search_params_default(&defaults);
    const uint64_t base = nodes_with(NULL, depth);
    assert_int_equal(nodes_with(&defaults, depth), base);
    int count;
    const SearchParamInfo *list = search_param_list(&count);
    for (int i = 0; i < count; i++) {
        /* a step the search must feel: half the value (at least 1), downwards where the range
         * allows and, when that leaves these trees alone (a depth limit whose last plies' pruning
         * did not fire here), upwards, and then the range's least value */
        const int value = *param_ref(&defaults, &list[i]);
        const int step = value / 2 > 1 ? value / 2 : 1;
        const int tries[3] = { value - step, value + step, list[i].min };
        bool changed = false;
        for (int k = 0; k < 3 && !changed; k++) {
            if (tries[k] < list[i].min || tries[k] > list[i].max)
                continue;
            SearchParams moved = defaults;
            *param_ref(&moved, &list[i]) = tries[k];
            const uint64_t nodes = nodes_with(&moved, depth);
            changed = nodes != base;
            assert_int_equal(nodes_with(&moved, depth), nodes);
        }
        if (!changed)
            fail_msg("%s moved by %d either way, or at %d, searched the same %llu nodes as its "
                     "default",
                     list[i].name, step, list[i].min, (unsigned long long)base);
    }
}

/* The table: names found in any case and unlike the evaluation's (the options share one
 * namespace), every default within its range, bad values refused with the range named. */
static void test_search_param_names(void **state)
{
    (void)state;
    SearchParams p;
    search_params_default(&p);
    int count;
    const SearchParamInfo *list = search_param_list(&count);
    assert_true(count > 10);
    for (int i = 0; i < count; i++) {
        assert_ptr_equal(search_param_find(list[i].name), &list[i]);
        assert_null(eval_param_find(list[i].name));
        const int v = *param_ref(&p, &list[i]);
        assert_true(v >= list[i].min && v <= list[i].max);
    }
    assert_ptr_equal(search_param_find("rfpstep"), search_param_find("RfpStep"));
    assert_null(search_param_find("Rfp"));
    char err[ERRMSG_LEN];
    assert_int_equal(search_param_set(&p, "RfpStep", "130", err, sizeof err), 0);
    assert_int_equal(p.rfp_step, 130);
    assert_int_not_equal(search_param_set(&p, "RfpStep", "5000", err, sizeof err), 0);
    assert_non_null(strstr(err, "RfpStep: 5000 is out of range 10..1000"));
    assert_int_not_equal(search_param_set(&p, "RfpStep", "12.5", err, sizeof err), 0);
    assert_non_null(strstr(err, "not an integer"));
    assert_int_not_equal(search_param_set(&p, "Nonsense", "1", err, sizeof err), 0);
    assert_non_null(strstr(err, "unknown search parameter 'Nonsense'"));
    assert_int_equal(p.rfp_step, 130);
}

/* ---- the reports ------------------------------------------------------------------------------
 */

typedef struct Told {
    SearchReport last;  /* the last report of the best line (multipv 1) */
    int deepest_before; /* the deepest report of it before that one */
    int count;
} Told;

static void tell(const SearchReport *r, void *ctx)
{
    Told *t = ctx;
    if (r->multipv != 1)
        return;
    if (t->count++ > 0 && t->last.depth > t->deepest_before)
        t->deepest_before = t->last.depth;
    t->last = *r;
}

/* Whatever stops the search, the last report of the best line (and the final report) begins with
 * the turn played: also when the unfinished iteration found a better turn, which then goes out
 * with that iteration's depth. Node limits that fall anywhere in an iteration, one line and
 * three. */
static void test_last_report_is_the_turn_played(void **state)
{
    (void)state;
    Rules r = { TURNS_SINGLE, EP_CLASSIC };
    Rng rng = rng_new(0x4c494e45u);
    int from_unfinished = 0;
    for (int multipv = 1; multipv <= 3; multipv += 2) {
        Position p =
            from_fen("capablanca", &r,
                     "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1");
        Game g;
        assert_true(game_init(&g, &p, &r, false));
        Searcher *s = searcher_new(4);
        for (int k = 0; k < 60 && game_status(&g, NULL) == TERM_NONE; k++) {
            Told told = { .count = 0 };
            SearchInput in = { .root = &g.pos,
                               .rules = &g.rules,
                               .eval = eval_default(),
                               .history = g.keys,
                               .n_history = g.n_turns,
                               .limits = search_limits_none(),
                               .multipv = multipv,
                               .report = tell,
                               .ctx = &told };
            in.limits.nodes = 300 + rng_below(&rng, 6000);
            SearchReport final;
            Turn best = search_run(s, &in, &final);
            assert_true(told.count > 0);
            assert_true(told.last.pv_len > 0);
            assert_int_equal(told.last.pv[0].n, best.n);
            assert_int_equal(told.last.pv[0].m[0], best.m[0]);
            assert_int_equal(final.pv[0].m[0], best.m[0]);
            if (told.last.depth > told.deepest_before)
                from_unfinished++;
            assert_true(game_play(&g, &best));
        }
        searcher_free(s);
        game_free(&g);
    }
    /* the case that matters happened */
    assert_true(from_unfinished > 0);
}

/* ---- legality over self-play ------------------------------------------------------------------
 */

/* How many times the default number of self-play games to play (`test_search selfplay N`). */
static int games_scale = 1;

/* Random openings (a few random legal turns), then fast searches on both sides. */
static void self_play(const char *variant, TurnRules turns, EpRule ep, int games, int nodes)
{
    const Variant *v = variant_by_name(variant);
    Rules r = { turns, ep };
    Rng rng = rng_new(0x53454c46u ^ (uint64_t)turns << 8 ^ (uint64_t)v->files);
    Searcher *s = searcher_new(4);
    SearchLimits l = search_limits_none();
    l.nodes = (uint64_t)nodes;
    for (int i = 0; i < games; i++) {
        Setup su;
        if (v->random_array)
            setup_random(&su, v, rng_next(&rng));
        else
            setup_start(&su, v);
        Position start;
        position_from_setup(&start, &su);
        Game g;
        assert_true(game_init(&g, &start, &r, v->castle960));
        TurnList list = { 0 };
        for (int k = 0; k < 4 && game_status(&g, NULL) == TERM_NONE; k++) {
            assert_true(position_turns(&g.pos, &r, &list));
            assert_true(list.n > 0);
            assert_true(game_play(&g, &list.v[rng_below(&rng, list.n)]));
        }
        turn_list_free(&list);
        searcher_clear(s);
        int winner;
        play_out(s, &g, &l, 120, &winner);
        game_free(&g);
    }
    searcher_free(s);
}

static void test_self_play_single(void **state)
{
    (void)state;
    int count;
    const Variant *const *all = variant_all(&count);
    for (int i = 0; i < count; i++)
        self_play(all[i]->name, TURNS_SINGLE, EP_CLASSIC, 3 * games_scale, 2000);
}

static void test_self_play_double(void **state)
{
    (void)state;
    for (int t = TURNS_MARSEILLAIS; t < TURNS_NB; t++) {
        self_play("chess", (TurnRules)t, EP_CLASSIC, 2 * games_scale, 1500);
        self_play("capablanca", (TurnRules)t, EP_MODERN, games_scale, 1500);
    }
}

/* ---- clocks ------------------------------------------------------------------------------------
 */

static void test_time_budget(void **state)
{
    (void)state;
    SearchLimits l = search_limits_none();
    int64_t soft;
    assert_int_equal(search_time_budget(&l, WHITE, &soft), 0);
    assert_int_equal(soft, 0);
    l.movetime_ms = 1000;
    int64_t hard = search_time_budget(&l, WHITE, &soft);
    assert_true(hard > 900 && hard <= 1000);
    l = search_limits_none();
    l.time_ms[WHITE] = 60000;
    l.time_ms[BLACK] = 1000;
    hard = search_time_budget(&l, WHITE, &soft);
    assert_true(soft > 0 && soft <= hard && hard <= 20000);
    /* Black's clock is Black's: a second left means a small budget */
    hard = search_time_budget(&l, BLACK, &soft);
    assert_true(hard > 0 && hard < 400);
    /* no clock for the side to move: no limit */
    l.time_ms[BLACK] = -1;
    assert_int_equal(search_time_budget(&l, BLACK, &soft), 0);

    /* the last turn before a time control leaves 20% of the clock and the overhead free, and
     * the turns before it do not spend the last turn's time */
    l = search_limits_none();
    l.time_ms[WHITE] = 100;
    l.movestogo = 1;
    hard = search_time_budget(&l, WHITE, &soft);
    assert_true(hard > 0 && hard <= 100 * 8 / 10 - SEARCH_OVERHEAD_DEFAULT_MS);
    assert_true(soft > 0 && soft <= hard);
    l.time_ms[WHITE] = 231;
    l.inc_ms[WHITE] = 50;
    l.movestogo = 2;
    hard = search_time_budget(&l, WHITE, &soft);
    assert_true(hard > 0 && hard <= 231 / 3);
    /* a larger overhead leaves more free */
    l.movestogo = 1;
    l.overhead_ms = 100;
    hard = search_time_budget(&l, WHITE, &soft);
    assert_true(hard > 0 && hard <= 231 * 8 / 10 - 100);
    /* an overhead as long as the clock still leaves a search of a millisecond */
    l.overhead_ms = 5000;
    assert_int_equal(search_time_budget(&l, WHITE, &soft), 1);
    assert_int_equal(soft, 1);
}

/* `test_search` runs everything; `test_search selfplay N` only the self-play legality games, N
 * times as many (the slow suite). */
int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "selfplay") == 0) {
        games_scale = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
        // clang-format off: one test per line
        const struct CMUnitTest selfplay[] = {
            cmocka_unit_test(test_self_play_single),
            cmocka_unit_test(test_self_play_double),
        };
        // clang-format on
        return cmocka_run_group_tests(selfplay, NULL, NULL);
    }
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_see),
        cmocka_unit_test(test_short_mates),
        cmocka_unit_test(test_node_limit_deterministic),
        cmocka_unit_test(test_last_report_is_the_turn_played),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_search_params),
        cmocka_unit_test(test_search_param_names),
        cmocka_unit_test(test_mate_kqk),
        cmocka_unit_test(test_mate_krk),
        cmocka_unit_test(test_mate_kak),
        cmocka_unit_test(test_mate_kck),
        cmocka_unit_test(test_self_play_single),
        cmocka_unit_test(test_self_play_double),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
