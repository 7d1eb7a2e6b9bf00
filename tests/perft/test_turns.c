/* SPDX-License-Identifier: MIT */
/* Tests of the turn rules (core/rules/turn.c) against the reference turn rules
 * (tests/perft/turn_ref.c), which were written from docs/rules.md alone: hand-counted positions for
 * every rule of docs/rules.md section 4 (each checked against both implementations), the FEN reader
 * under turn rules, and seeded random positions of every rule set compared turn by turn, state by
 * state and perft by perft (and on each of these, the quiescence's tactical turns and the check
 * of a single turn against the whole list). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "errmsg.h"
#include "perft_ref.h"
#include "position.h"
#include "rng.h"
#include "turn.h"
#include "turn_ref.h"

/* Random positions per rule set. Each gets the turn set, the state after every root turn, turn
 * perft 1 and movement perft 1-2; a sample also turn perft 2 and movement perft 3, which cost the
 * reference up to a second or two per position under the double-move rules (positions with more
 * than DEEP_MAX_TURNS turns are left out of the sample). Sized so that the whole test takes some
 * 60-90 s on one core; build with -DRANDOM_DEEP_ALL for the deep comparisons everywhere (an
 * hour), or another RANDOM_POSITIONS. */
#ifndef RANDOM_POSITIONS
#define RANDOM_POSITIONS 500
#endif
#ifndef DEEP_MAX_TURNS
#ifdef RANDOM_DEEP_ALL
#define DEEP_MAX_TURNS 1000000
#else
#define DEEP_MAX_TURNS 1500
#endif
#endif

static const Rules SINGLE = { TURNS_SINGLE, EP_CLASSIC };
static const Rules CLASSIC = { TURNS_MARSEILLAIS, EP_CLASSIC };
static const Rules MODERN = { TURNS_MARSEILLAIS, EP_MODERN };
static const Rules BALANCED = { TURNS_BALANCED, EP_CLASSIC };
static const Rules BALANCED_MODERN = { TURNS_BALANCED, EP_MODERN };
static const Rules GALVIN = { TURNS_GALVIN, EP_CLASSIC };
static const Rules BENNEKOM = { TURNS_BENNEKOM, EP_CLASSIC };
static const Rules BENNEKOM_MODERN = { TURNS_BENNEKOM, EP_MODERN };
static const Rules EXTRAMOVE = { TURNS_EXTRAMOVE, EP_CLASSIC };

static const char *rules_text(const Rules *r)
{
    static char buf[64]; /* test-only scratch; the tests run on one thread */
    snprintf(buf, sizeof buf, "%s/%s", turn_rules_name(r->turns), ep_rule_name(r->ep));
    return buf;
}

/* ---- Comparing turn lists as sets ---- */

static uint64_t turn_key(const Turn *t)
{
    return ((uint64_t)t->m[0] << 32) | (t->n == 2 ? t->m[1] : MOVE_NONE);
}

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t *sorted_keys(const TurnList *l)
{
    uint64_t *k = malloc((l->n + 1) * sizeof *k);
    if (!k)
        abort();
    for (size_t i = 0; i < l->n; i++)
        k[i] = turn_key(&l->v[i]);
    qsort(k, l->n, sizeof *k, cmp_key);
    return k;
}

static void key_text(uint64_t key, const Variant *v, char *out)
{
    Turn t = { { (Move)(key >> 32), (Move)(key & 0xffffffffu) }, (key & 0xffffffffu) ? 2 : 1 };
    turn_to_uci(&t, v, false, out);
}

static void print_fen(const char *what, const Setup *s, const Rules *r)
{
    char fen[FEN_MAX];
    setup_to_fen(s, FEN_CASTLING_XFEN, fen, sizeof fen);
    print_error("%s: %s [%s] %s\n", what, s->variant->name, rules_text(r), fen);
}

/* Compares the reference list with the fast one; prints the differences (and a duplicate in the
 * fast list) and returns their number. */
static int turn_sets_differ(const Setup *s, const Rules *r, const TurnList *ref,
                            const TurnList *fast)
{
    uint64_t *a = sorted_keys(ref), *b = sorted_keys(fast);
    int diffs = 0;
    char text[TURN_TEXT_MAX + 8];
    for (size_t i = 1; i < fast->n; i++)
        if (b[i] == b[i - 1]) {
            if (diffs++ == 0)
                print_fen("turn lists differ", s, r);
            key_text(b[i], s->variant, text);
            print_error("  listed twice by the fast core: %s\n", text);
        }
    size_t i = 0, j = 0;
    while (i < ref->n || j < fast->n) {
        const char *side;
        uint64_t k;
        if (j == fast->n || (i < ref->n && a[i] < b[j])) {
            side = "only in the reference";
            k = a[i++];
        } else if (i == ref->n || b[j] < a[i]) {
            side = "only in the fast core";
            k = b[j++];
        } else {
            i++;
            j++;
            continue;
        }
        if (diffs++ == 0)
            print_fen("turn lists differ", s, r);
        if (diffs <= 40) {
            key_text(k, s->variant, text);
            print_error("  %s: %s\n", side, text);
        }
    }
    free(a);
    free(b);
    return diffs;
}

/* The state as FEN for comparison: en passant squares in ascending order and, under single-move
 * chess (where the fast core writes a square only when a pawn can take there), only squares on
 * which a legal en passant capture exists. */
static void normal_fen(const Setup *s, const Rules *r, char *fen)
{
    Setup c = *s;
    if (c.ep[0] != NO_SQUARE && c.ep[1] != NO_SQUARE && c.ep[0] > c.ep[1]) {
        int x = c.ep[0];
        c.ep[0] = c.ep[1];
        c.ep[1] = x;
    }
    if (r->turns == TURNS_SINGLE) {
        Move moves[MAX_MOVES];
        int n = ref_legal_moves(&c, moves);
        for (int i = 0; i < 2; i++) {
            bool used = false;
            for (int k = 0; k < n; k++)
                used |= move_kind(moves[k]) == MOVE_EN_PASSANT && move_to(moves[k]) == c.ep[i];
            if (!used)
                c.ep[i] = NO_SQUARE;
        }
        if (c.ep[0] == NO_SQUARE) {
            c.ep[0] = c.ep[1];
            c.ep[1] = NO_SQUARE;
        }
    }
    setup_to_fen(&c, FEN_CASTLING_XFEN, fen, FEN_MAX);
}

/* Plays t with both implementations; returns whether the next boundary states agree, printing
 * them when they do not. ref_after receives the reference state. */
static bool same_after(const Setup *s, const Position *p, const Rules *r, const Turn *t,
                       Setup *ref_after)
{
    Position q;
    Setup fast_after;
    position_make_turn(p, r, t, &q);
    position_to_setup(&q, &fast_after);
    ref_make_turn(s, r, t, ref_after);
    char a[FEN_MAX], b[FEN_MAX];
    normal_fen(ref_after, r, a);
    normal_fen(&fast_after, r, b);
    if (strcmp(a, b) == 0)
        return true;
    char text[TURN_TEXT_MAX];
    turn_to_uci(t, s->variant, false, text);
    print_fen("states after a turn differ", s, r);
    print_error("  turn %s\n  reference: %s\n  fast core: %s\n", text, a, b);
    return false;
}

/* ---- A position under test, with the turns of both implementations ---- */

typedef struct Case {
    Setup s;
    Position p;
    Rules r;
    TurnList ref, fast;
} Case;

static void load(Setup *s, const char *variant, const Rules *r, const char *fen)
{
    char err[ERRMSG_LEN] = "";
    const Variant *v = variant_by_name(variant);
    assert_non_null(v);
    if (setup_from_fen_rules(s, v, r, fen, err, sizeof err) != 0)
        fail_msg("setup_from_fen_rules(%s, %s, \"%s\"): %s", variant, rules_text(r), fen, err);
}

/* Reads the position, lists its turns with both implementations and fails unless they agree. */
static void case_open(Case *c, const char *variant, Rules r, const char *fen)
{
    memset(c, 0, sizeof *c);
    c->r = r;
    load(&c->s, variant, &r, fen);
    position_from_setup(&c->p, &c->s);
    assert_true(ref_turns(&c->s, &r, &c->ref));
    assert_true(position_turns(&c->p, &r, &c->fast));
    assert_int_equal(turn_sets_differ(&c->s, &r, &c->ref, &c->fast), 0);
    assert_int_equal(position_first_turn(&c->p, &r), ref_first_turn(&c->s, &r));
}

static void case_close(Case *c)
{
    ref_turn_list_free(&c->ref);
    turn_list_free(&c->fast);
}

static size_t case_count(const Case *c) { return c->ref.n; }

/* The turn written as text ("e2e4/g1f3"), or NULL. */
static const Turn *case_find(const Case *c, const char *text)
{
    char buf[TURN_TEXT_MAX];
    for (size_t i = 0; i < c->ref.n; i++) {
        turn_to_uci(&c->ref.v[i], c->s.variant, false, buf);
        if (strcmp(buf, text) == 0)
            return &c->ref.v[i];
    }
    return NULL;
}

/* How many turns begin with the movement written as text ("a1b3"). */
static size_t case_count_first(const Case *c, const char *first)
{
    size_t n = 0;
    for (size_t i = 0; i < c->ref.n; i++) {
        Turn t = { { c->ref.v[i].m[0], MOVE_NONE }, 1 };
        char buf[TURN_TEXT_MAX];
        turn_to_uci(&t, c->s.variant, false, buf);
        n += strcmp(buf, first) == 0;
    }
    return n;
}

/* Turn and movement perft at small depths, both implementations, which must agree. */
static uint64_t case_perft(const Case *c, int depth)
{
    uint64_t a = ref_perft_turns(&c->s, &c->r, depth), b = perft_turns(&c->p, &c->r, depth);
    assert_int_equal(a, b);
    return a;
}

static uint64_t case_movements(const Case *c, int depth)
{
    uint64_t a = ref_perft_movements(&c->s, &c->r, depth), b = perft_movements(&c->p, &c->r, depth);
    assert_int_equal(a, b);
    return a;
}

/* Plays the turn written as text with both implementations; they must agree on the state, which
 * must equal fen (when given). Opens the case at the new state in next. */
static void case_play(const Case *c, const char *text, const char *fen, Case *next)
{
    const Turn *t = case_find(c, text);
    if (!t)
        fail_msg("turn %s is not listed", text);
    Setup after;
    assert_true(same_after(&c->s, &c->p, &c->r, t, &after));
    char got[FEN_MAX];
    normal_fen(&after, &c->r, got);
    if (fen && strcmp(got, fen) != 0)
        fail_msg("after %s: expected %s, got %s", text, fen, got);
    if (next) {
        memset(next, 0, sizeof *next);
        next->r = c->r;
        next->s = after;
        position_from_setup(&next->p, &after);
        assert_true(ref_turns(&next->s, &next->r, &next->ref));
        assert_true(position_turns(&next->p, &next->r, &next->fast));
        assert_int_equal(turn_sets_differ(&next->s, &next->r, &next->ref, &next->fast), 0);
    }
}

/* ---- Hand-counted positions ---- */

/* White Kh1 Ph2 Na1, Black Ka5 Ph3 (the pawn h3 blocks h2 and guards g2). Used by several rule
 * sets below. */
#define KNIGHT_CHECK "8/8/8/k7/8/7p/7P/N6K w - - 0 2"

static void first_movement_check_ends_turn(void **state)
{
    (void)state;
    Case c;
    case_open(&c, "chess", CLASSIC, KNIGHT_CHECK);
    /* First movements: Kg1 (g2 is guarded, h2 is ours), Nb3+, Nc2; h2 is blocked.
     *   Nb3+ gives check: the turn ends, 1 turn.
     *   Nc2, then the knight (a1 a3 b4 d4 e1 e3) or Kg1: 7.
     *   Kg1, then the king (f1 f2 h1) or the knight (b3 c2): 5.   Total 13. */
    assert_int_equal(case_count(&c), 13);
    assert_int_equal(case_count_first(&c, "a1b3"), 1);
    assert_non_null(case_find(&c, "a1b3"));
    /* Check with the second movement is allowed. */
    assert_non_null(case_find(&c, "h1g1/a1b3"));
    /* Distinct first movements: 3. Two movements deep: after Nb3+ Black's first movements that
     * begin a complete turn are the five king moves a4 a6 b4 b5 b6 (each leaves a second
     * movement); plus the 7 + 5 two-movement turns: 17. */
    assert_int_equal(case_movements(&c, 1), 3);
    assert_int_equal(case_movements(&c, 2), 17);
    assert_int_equal(case_perft(&c, 1), 13);
    case_perft(&c, 2);
    case_close(&c);

    /* Balanced, past White's first turn: the same 13. */
    case_open(&c, "chess", BALANCED, KNIGHT_CHECK);
    assert_int_equal(case_count(&c), 13);
    case_close(&c);
}

static void check_must_be_parried_first(void **state)
{
    (void)state;
    Case c;
    /* Bd5 checks Kh1 along d5-h1. Nothing can block e4 f3 g2 or take d5; only Kg1 parries. Then
     * the king (f1 f2; g2 and h1 are attacked) or the knight (b3 c2): 4 turns, all after Kg1:
     * no turn plays the knight first and escapes second. */
    case_open(&c, "chess", CLASSIC, "8/8/8/k2b4/8/7p/7P/N6K w - - 0 2");
    assert_int_equal(case_count(&c), 4);
    assert_int_equal(case_count_first(&c, "h1g1"), 4);
    assert_int_equal(ref_status(&c.s, &c.r), REF_PLAYING);
    case_close(&c);

    /* With a rook on g8 covering g1 no first movement parries the check: checkmate, 0 turns. */
    case_open(&c, "chess", CLASSIC, "6r1/8/8/k2b4/8/7p/7P/N6K w - - 0 2");
    assert_int_equal(case_count(&c), 0);
    assert_int_equal(ref_status(&c.s, &c.r), REF_CHECKMATE);
    assert_int_equal(case_perft(&c, 1), 0);
    case_close(&c);
}

#define LONE_KING "4k3/8/8/8/8/8/r7/4K3 w - - 0 2"

static void no_movement_leaves_king_in_check(void **state)
{
    (void)state;
    Case c;
    /* Ra2 covers d2 e2 f2. Ke1 goes to d1 or f1 only, and from there back to e1 or on to c1 (g1):
     * 2 + 2 = 4 turns. Stepping into check and out again (Ke2/Ke1) is not a turn. */
    case_open(&c, "chess", CLASSIC, LONE_KING);
    assert_int_equal(case_count(&c), 4);
    assert_int_equal(case_count_first(&c, "e1e2"), 0);
    assert_null(case_find(&c, "e1e2/e2e1"));
    assert_null(case_find(&c, "e1d1/d1d2"));
    case_close(&c);
}

static void stalemate_after_queen_check(void **state)
{
    (void)state;
    Case c, after;
    /* docs/rules.md 4.1 rule 5: 1. Qb7/Qf7+? Kh8 and Black has no second movement. */
    case_open(&c, "chess", CLASSIC, "6k1/8/5K2/8/8/8/8/1Q6 w - - 0 10");
    case_play(&c, "b1b7/b7f7", "6k1/5Q2/5K2/8/8/8/8/8 b - - 1 10", &after);
    /* Black is in check; Kh8 is the one first movement that parries it (f8 g7 h7 are covered,
     * f7 is guarded by Kf6); from h8, g8 g7 h7 are all covered: no complete turn. A first
     * movement parries the check, so this is stalemate, not mate. */
    assert_int_equal(case_count(&after), 0);
    assert_true(mailbox_in_check(&after.s, BLACK));
    assert_int_equal(ref_status(&after.s, &after.r), REF_STALEMATE);
    assert_int_equal(case_perft(&after, 1), 0);
    case_close(&after);
    case_close(&c);

    /* The same without check: Black's only first movement a6-a5 leaves nothing to move second
     * (a5 is blocked by a4, Kh8 is boxed in by Qf7): stalemate, 0 turns, not in check. */
    const char *boxed = "7k/5Q2/p7/8/P7/8/8/2K5 b - - 0 10";
    case_open(&c, "chess", CLASSIC, boxed);
    assert_int_equal(case_count(&c), 0);
    assert_false(mailbox_in_check(&c.s, BLACK));
    assert_int_equal(ref_status(&c.s, &c.r), REF_STALEMATE);
    case_close(&c);
    /* Extra Move skips the missing second movement: the one turn a5. */
    case_open(&c, "chess", EXTRAMOVE, boxed);
    assert_int_equal(case_count(&c), 1);
    case_close(&c);
}

/* White Ka1 Pc5 Pg5, Black Ka8 Pd5 Pf5: Black has just double-stepped d7-d5 and f7-f5. */
#define TWO_EP "k7/8/8/2Pp1pP1/8/8/8/K7 w - d6,f6 0 2"
#define ONE_EP "k7/8/8/2Pp1pP1/8/8/8/K7 w - f6 0 2"

static void en_passant_classic_and_modern(void **state)
{
    (void)state;
    Case c;
    /* Classic, both pawns capturable. First movements: Ka2 Kb1 Kb2, c6, g6, cxd6 e.p., gxf6 e.p.
     * Second movements (en passant only after an en passant first movement, on the other pawn):
     *   Ka2: king 5 (a1 a3 b1 b2 b3) + c6 g6 = 7;  Kb1: 5 + 2 = 7;  Kb2: 8 + 2 = 10;
     *   c6: king 3 + c7 g6 = 5;  g6: 3 + c6 g7 = 5;
     *   cxd6: 3 + d7 g6 gxf6 = 6;  gxf6: 3 + c6 cxd6 f7 = 6.   Total 46. */
    case_open(&c, "chess", CLASSIC, TWO_EP);
    assert_int_equal(case_count(&c), 46);
    assert_non_null(case_find(&c, "c5d6/g5f6"));
    assert_non_null(case_find(&c, "g5f6/c5d6"));
    assert_null(case_find(&c, "c5c6/g5f6")); /* en passant second only after en passant first */
    assert_int_equal(case_perft(&c, 1), 46);
    case_perft(&c, 2);
    case_movements(&c, 3);
    case_close(&c);

    /* Only f6 (the modern rule's one square, or a classic position with one double step):
     * cxd6 is gone as first and second movement: 7 + 7 + 10 + 5 + 5 + (gxf6: 3 + c6 f7) = 39. */
    case_open(&c, "chess", MODERN, ONE_EP);
    assert_int_equal(case_count(&c), 39);
    case_close(&c);
    case_open(&c, "chess", CLASSIC, ONE_EP);
    assert_int_equal(case_count(&c), 39);
    case_close(&c);
}

static void en_passant_state_after_turn(void **state)
{
    (void)state;
    Case c;
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /* Classic: both double steps stay capturable; modern: only the second movement's. */
    case_open(&c, "chess", CLASSIC, start);
    case_play(&c, "d2d4/f2f4", "rnbqkbnr/pppppppp/8/8/3P1P2/8/PPP1P1PP/RNBQKBNR b KQkq d3,f3 0 1",
              NULL);
    case_play(&c, "f2f4/d2d4", "rnbqkbnr/pppppppp/8/8/3P1P2/8/PPP1P1PP/RNBQKBNR b KQkq d3,f3 0 1",
              NULL);
    /* A pawn that double-stepped and moved on is not capturable. */
    case_play(&c, "e2e4/e4e5", "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", NULL);
    /* Clocks count turns: two quiet turns, then the fullmove number after Black's. */
    Case mid;
    case_play(&c, "g1f3/b1c3", "rnbqkbnr/pppppppp/8/8/8/2N2N2/PPPPPPPP/R1BQKB1R b KQkq - 1 1",
              &mid);
    case_play(&mid, "g8f6/b8c6", "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 2 2",
              NULL);
    case_close(&mid);
    case_close(&c);

    case_open(&c, "chess", MODERN, start);
    case_play(&c, "d2d4/f2f4", "rnbqkbnr/pppppppp/8/8/3P1P2/8/PPP1P1PP/RNBQKBNR b KQkq f3 0 1",
              NULL);
    case_play(&c, "f2f4/d2d4", "rnbqkbnr/pppppppp/8/8/3P1P2/8/PPP1P1PP/RNBQKBNR b KQkq d3 0 1",
              NULL);
    case_close(&c);

    /* Balanced first turn: one movement, which is no second movement for the modern rule. */
    case_open(&c, "chess", BALANCED, start);
    case_play(&c, "e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", NULL);
    case_close(&c);
    case_open(&c, "chess", BALANCED_MODERN, start);
    case_play(&c, "e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", NULL);
    case_close(&c);

    /* The passed square occupied by the second movement: no en passant; the start square
     * occupied: en passant stays. */
    case_open(&c, "chess", CLASSIC, "4k3/8/8/8/6N1/8/4P3/4K3 w - - 0 2");
    case_play(&c, "e2e4/g4e3", "4k3/8/8/8/4P3/4N3/8/4K3 b - - 0 2", NULL);
    case_play(&c, "e2e4/g4h6", "4k3/8/7N/8/4P3/8/8/4K3 b - e3 0 2", NULL);
    case_play(&c, "e2e4/e1e2", "4k3/8/8/8/4P1N1/8/4K3/8 b - e3 0 2", NULL);
    case_close(&c);

    /* A turn ended by check: its one movement is no second movement for the modern rule. The
     * double step d2-d4 checks Ke5, so it is the whole turn. */
    case_open(&c, "chess", CLASSIC, "8/8/8/4k3/8/8/3P4/K7 w - - 0 2");
    case_play(&c, "d2d4", "8/8/8/4k3/3P4/8/8/K7 b - d3 0 2", NULL);
    case_close(&c);
    case_open(&c, "chess", MODERN, "8/8/8/4k3/8/8/3P4/K7 w - - 0 2");
    case_play(&c, "d2d4", "8/8/8/4k3/3P4/8/8/K7 b - - 0 2", NULL);
    case_close(&c);
}

static void bennekom_same_piece(void **state)
{
    (void)state;
    Case c;
    /* The second movement by the same piece: Nb3+ alone (check) 1; Nc2 then the knight 6; Kg1
     * then the king (f1 f2 h1) 3. Total 10 (classic: 13). */
    case_open(&c, "chess", BENNEKOM, KNIGHT_CHECK);
    assert_int_equal(case_count(&c), 10);
    assert_null(case_find(&c, "h1g1/a1b3"));
    case_perft(&c, 2);
    case_close(&c);

    /* Skipped second movement: c3-c4 runs into c5 and has nothing left, so c4 alone is a turn:
     * Kg1 then the king (f1 f2 h1) 3, c4 alone 1: total 4. Classic: Kg1 then king 3 or c4 = 4,
     * c4 then Kg1 = 1: total 5. */
    const char *blocked = "k7/8/8/2p5/8/2P4p/7P/7K w - - 0 2";
    case_open(&c, "chess", BENNEKOM, blocked);
    assert_int_equal(case_count(&c), 4);
    assert_non_null(case_find(&c, "c3c4"));
    case_close(&c);
    case_open(&c, "chess", CLASSIC, blocked);
    assert_int_equal(case_count(&c), 5);
    assert_null(case_find(&c, "c3c4"));
    case_close(&c);

    /* After castling the king makes the second movement: from g1 to f2 or h1 (g2 is guarded by
     * h3, f1 holds the rook): 2. Extra Move: neither king nor rook, and h2 is blocked: castling
     * alone, 1. Classic: the king 2, or the rook from f1 along the f-file (f2-f8, 7) or rank 1
     * (e1-a1, 5): 14. */
    const char *castle = "4k3/8/8/8/8/7p/7P/4K2R w K - 0 2";
    case_open(&c, "chess", BENNEKOM, castle);
    assert_int_equal(case_count_first(&c, "e1g1"), 2);
    case_close(&c);
    case_open(&c, "chess", EXTRAMOVE, castle);
    assert_int_equal(case_count_first(&c, "e1g1"), 1);
    case_close(&c);
    case_open(&c, "chess", CLASSIC, castle);
    assert_int_equal(case_count_first(&c, "e1g1"), 14);
    case_close(&c);

    /* A pawn promoted by the first movement moves on as its new piece (4.1 rule 8), and is the
     * same piece for Bennekom. No promotion checks Ka5. The new piece from b8 (b7 now empty):
     *   queen 20: the b-file b7-b1 7, rank 8 a8 c8-h8 7, diagonals a7 and c7 d6 e5 f4 g3 6
     *     (h2 is ours); rook 7 + 7 = 14; bishop 6; knight a6 c6 d7 3;
     * and Kg1 then the king (f1 f2 h1) 3. Total 20 + 14 + 6 + 3 + 3 = 46. */
    case_open(&c, "chess", BENNEKOM, "8/1P6/8/k7/8/7p/7P/7K w - - 0 2");
    assert_int_equal(case_count(&c), 46);
    assert_non_null(case_find(&c, "b7b8q/b8b1"));
    assert_null(case_find(&c, "b7b8q/h1g1"));
    case_close(&c);

    /* A one-movement turn's double step: c2-c4 is blocked by c5 at once, the pawn has no second
     * movement. Classic: capturable; modern: it was no second movement. */
    const char *skip = "k7/8/8/2p5/8/7p/2P4P/7K w - - 0 2";
    case_open(&c, "chess", BENNEKOM, skip);
    case_play(&c, "c2c4", "k7/8/8/2p5/2P5/7p/7P/7K b - c3 0 2", NULL);
    case_close(&c);
    case_open(&c, "chess", BENNEKOM_MODERN, skip);
    case_play(&c, "c2c4", "k7/8/8/2p5/2P5/7p/7P/7K b - - 0 2", NULL);
    case_close(&c);
}

static void galvin_king_capture_and_moving_into_check(void **state)
{
    (void)state;
    Case c, after;
    /* No check: the lone king goes anywhere. d1 (then c1 c2 d2 e1 e2: 5), d2 (8), e2 (8),
     * f1 (e1 e2 f2 g1 g2: 5), f2 (8): 34 turns (classic: 4). */
    case_open(&c, "chess", GALVIN, LONE_KING);
    assert_int_equal(case_count(&c), 34);
    assert_non_null(case_find(&c, "e1e2/e2e1"));
    case_close(&c);

    /* A checking first movement does not end the turn. First movements Kg1, Kg2 (into the
     * pawn's attack), Nb3, Nc2. Kg1: king f1 f2 g2 h1 + knight b3 c2 = 6; Kg2: king f1 f2 f3 g1
     * g3 h1 hxh3 + knight 2 = 9; Nb3: knight a1 xa5 c1 c5 d2 d4 + king g1 g2 = 8; Nc2: knight
     * a1 a3 b4 d4 e1 e3 + king 2 = 8. Total 31. */
    case_open(&c, "chess", GALVIN, KNIGHT_CHECK);
    assert_int_equal(case_count(&c), 31);
    assert_non_null(case_find(&c, "a1b3/b3a5"));
    case_perft(&c, 2);
    case_movements(&c, 3);
    case_close(&c);

    /* White's king stands en prise (a FEN only Galvin's rules accept). Rxe1 ends the turn and
     * the game: 1 turn begins with a1e1, and White has no turn after it. */
    const char *prise = "4k3/8/8/8/8/8/8/r3K3 b - - 0 2";
    case_open(&c, "chess", GALVIN, prise);
    assert_int_equal(case_count_first(&c, "a1e1"), 1);
    case_play(&c, "a1e1", "4k3/8/8/8/8/8/8/4r3 w - - 0 3", &after);
    assert_int_equal(case_count(&after), 0);
    assert_int_equal(ref_status(&after.s, &after.r), REF_KING_CAPTURED);
    assert_int_equal(case_perft(&after, 1), 0);
    case_close(&after);
    case_perft(&c, 2);
    case_close(&c);

    /* Castling through an attacked square (f1, by Rf8) or out of check (Re8): allowed without
     * check rules only. After O-O through f1: the king g1 to f2 g2 h1 h2 (4), the rook f1 up to
     * f2-f7 and xf8 (7) or along rank 1 e1-a1 (5): 16 turns begin with castling. */
    const char *through = "4kr2/8/8/8/8/8/8/4K2R w K - 0 2";
    case_open(&c, "chess", GALVIN, through);
    assert_int_equal(case_count_first(&c, "e1g1"), 16);
    case_close(&c);
    case_open(&c, "chess", CLASSIC, through);
    assert_int_equal(case_count_first(&c, "e1g1"), 0);
    case_close(&c);
    const char *out_of_check = "4r1k1/8/8/8/8/8/8/4K2R w K - 0 2";
    case_open(&c, "chess", GALVIN, out_of_check);
    assert_true(case_count_first(&c, "e1g1") > 0);
    case_close(&c);
    case_open(&c, "chess", CLASSIC, out_of_check);
    assert_int_equal(case_count_first(&c, "e1g1"), 0);
    case_close(&c);
}

static void extra_move_rules(void **state)
{
    (void)state;
    Case c, after;
    /* White Kh1 Pc2 Ph2, Black Kh8 Pb3 Ph3. First movements: Kg1, c3, cxb3 (c4 is a double step,
     * only allowed second). Kg1: alone, or then c3 or c4 (cxb3 would capture) = 3; c3: alone or
     * Kg1 = 2; cxb3: alone or Kg1 = 2. Total 7. Classic: Kg1 then king f1 f2 h1 or c3 c4 cxb3 = 6;
     * c3 then Kg1 c4 = 2; c4 then Kg1 c5 = 2; cxb3 then Kg1 b4 = 2: 12. */
    const char *pawns = "7k/8/8/8/8/1p5p/2P4P/7K w - - 0 2";
    case_open(&c, "chess", EXTRAMOVE, pawns);
    assert_int_equal(case_count(&c), 7);
    assert_non_null(case_find(&c, "h1g1"));
    assert_non_null(case_find(&c, "h1g1/c2c4"));
    assert_null(case_find(&c, "h1g1/c2b3"));
    assert_int_equal(case_count_first(&c, "c2c4"), 0);
    case_perft(&c, 2);
    case_movements(&c, 3);
    case_close(&c);
    case_open(&c, "chess", CLASSIC, pawns);
    assert_int_equal(case_count(&c), 12);
    case_close(&c);

    /* A checking first movement forfeits the second: Nb3+ alone 1; Nc2 alone or then Kg1 2; Kg1
     * alone or then Nb3 or Nc2 3. Total 6. */
    case_open(&c, "chess", EXTRAMOVE, KNIGHT_CHECK);
    assert_int_equal(case_count(&c), 6);
    assert_int_equal(case_count_first(&c, "a1b3"), 1);
    case_close(&c);

    /* White's very first turn: one movement, double steps allowed: the 20 chess moves. */
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    case_open(&c, "chess", EXTRAMOVE, start);
    assert_int_equal(case_count(&c), 20);
    assert_non_null(case_find(&c, "e2e4"));
    /* Black's reply may not double-step first: 8 pawn steps + 4 knight moves. */
    case_play(&c, "e2e4", NULL, &after);
    assert_int_equal(case_movements(&after, 1), 12);
    case_close(&after);
    case_close(&c);

    /* A double step as second movement may be taken en passant, with the first movement only. */
    case_open(&c, "chess", EXTRAMOVE, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 2");
    case_play(&c, "e1d1/e2e4", "4k3/8/8/8/3pP3/8/8/3K4 b - e3 0 2", &after);
    /* Black: Ke8 (d8 d7 e7 f7 f8), d3, dxe3 e.p. Each king move alone or then d3: 5 x 2; d3
     * alone or then a king move: 6; dxe3 alone or then a king move: 6. Total 22, never an en
     * passant capture second. */
    assert_int_equal(case_count(&after), 22);
    assert_int_equal(case_count_first(&after, "d4e3"), 6);
    for (size_t i = 0; i < after.ref.n; i++)
        assert_true(after.ref.v[i].n == 1 || move_kind(after.ref.v[i].m[1]) != MOVE_EN_PASSANT);
    case_close(&after);
    case_close(&c);
}

static void balanced_first_turn_is_single(void **state)
{
    (void)state;
    Case c;
    const Rules *sets[] = { &BALANCED, &BALANCED_MODERN, &GALVIN, &BENNEKOM, &EXTRAMOVE };
    for (int i = 0; i < 5; i++) {
        case_open(&c, "chess", *sets[i],
                  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        /* The 20 moves of chess, each a turn. */
        assert_int_equal(case_count(&c), 20);
        assert_true(ref_first_turn(&c.s, &c.r));
        for (size_t k = 0; k < c.ref.n; k++)
            assert_int_equal(c.ref.v[k].n, 1);
        case_close(&c);
    }
    /* The same array at fullmove 2 is no first turn: as many turns as classic at fullmove 1. */
    Case a, b;
    case_open(&a, "chess", BALANCED, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
    case_open(&b, "chess", CLASSIC, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_false(ref_first_turn(&a.s, &a.r));
    assert_int_equal(case_count(&a), case_count(&b));
    case_close(&a);
    case_close(&b);
}

/* ---- FEN input under turn rules ---- */

static bool fen_ok(const Rules *r, const char *fen)
{
    Setup s;
    char err[ERRMSG_LEN];
    return setup_from_fen_rules(&s, variant_by_name("chess"), r, fen, err, sizeof err) == 0;
}

static void fen_under_rules(void **state)
{
    (void)state;
    const char *two = "rnbqkbnr/pppppppp/8/8/4P1P1/8/PPPP1P1P/RNBQKBNR b KQkq e3,g3 0 1";
    assert_true(fen_ok(&CLASSIC, two));
    assert_true(fen_ok(&BENNEKOM, two));
    assert_false(fen_ok(&MODERN, two));
    assert_false(fen_ok(&EXTRAMOVE, two));
    assert_false(fen_ok(&SINGLE, two));
    assert_false(fen_ok(&GALVIN, two));
    assert_false(fen_ok(&GALVIN, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
    assert_true(fen_ok(&MODERN, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
    /* No pawn on e4 behind e3. */
    assert_false(fen_ok(&CLASSIC, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1"));
    assert_false(
        fen_ok(&CLASSIC, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3,g3 0 1"));
    /* The pawn's start square occupied: a double-move state, impossible in chess. */
    assert_true(fen_ok(&CLASSIC, "4k3/8/8/8/4P3/8/4K3/6N1 b - e3 0 2"));
    assert_false(fen_ok(&SINGLE, "4k3/8/8/8/4P3/8/4K3/6N1 b - e3 0 2"));
    /* The side not to move in check: Galvin only. */
    assert_true(fen_ok(&GALVIN, "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1"));
    assert_false(fen_ok(&CLASSIC, "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1"));
    assert_false(fen_ok(&SINGLE, "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1"));
}

/* ---- Start positions, deeper ---- */

static void start_positions(void **state)
{
    (void)state;
    const Rules *sets[] = { &SINGLE, &CLASSIC,  &MODERN,          &BALANCED, &BALANCED_MODERN,
                            &GALVIN, &BENNEKOM, &BENNEKOM_MODERN, &EXTRAMOVE };
    const char *variants[] = { "chess", "capablanca" };
    for (int v = 0; v < 2; v++)
        for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
            const Rules *r = sets[i];
            /* Classic Marseillais at depth 3 takes the oracle 30 s (chess) and minutes
             * (capablanca): depth 2 there. On the Capablanca board the modern rule, too, for
             * time (4 s); chess checks it at depth 3. */
            int depth = r->turns == TURNS_MARSEILLAIS ? 2 : 3;
            if (v == 1 && r->ep == EP_MODERN && r->turns == TURNS_BALANCED)
                depth = 2;
            Setup s;
            Position p;
            setup_start(&s, variant_by_name(variants[v]));
            position_from_setup(&p, &s);
            double t0 = monotonic_seconds();
            uint64_t a = ref_perft_turns(&s, r, depth);
            double t1 = monotonic_seconds();
            uint64_t b = perft_turns(&p, r, depth);
            print_message("start %-10s %-27s turns D%d %12llu  (reference %.2f s)\n", variants[v],
                          rules_text(r), depth, (unsigned long long)a, t1 - t0);
            if (a != b)
                print_error("  fast core: %llu\n", (unsigned long long)b);
            assert_int_equal(a, b);
            assert_int_equal(ref_perft_movements(&s, r, 3), perft_movements(&p, r, 3));
        }
}

/* ---- Random positions ---- */

static int ep_count(const Turn *t)
{
    int n = 0;
    for (int i = 0; i < t->n; i++)
        n += move_kind(t->m[i]) == MOVE_EN_PASSANT;
    return n;
}

/* Counts only double steps by pawns standing in s, which is enough to steer random play. */
static int double_steps(const Setup *s, const Turn *t)
{
    int n = 0, w = s->variant->files;
    for (int i = 0; i < t->n; i++) {
        int from = move_from(t->m[i]), to = move_to(t->m[i]);
        n += piece_type(s->board[from]) == PAWN && abs(to / w - from / w) == 2;
    }
    return n;
}

static bool pawns_only(const Setup *s, const Turn *t)
{
    for (int i = 0; i < t->n; i++)
        if (piece_type(s->board[move_from(t->m[i])]) != PAWN)
            return false;
    return true;
}

static bool takes_king(const Setup *s, const Turn *t)
{
    for (int i = 0; i < t->n; i++)
        if (move_kind(t->m[i]) != MOVE_CASTLING && piece_type(s->board[move_to(t->m[i])]) == KING)
            return true;
    return false;
}

/* What random play favours, most wanted first: two en passant captures in one turn, one, two
 * double steps, one, pawn moves (which bring pawns to where they can take en passant); under
 * Galvin's rules anything but a king capture, which would end most games at once. */
static bool favoured(const Setup *s, const Turn *t, int kind)
{
    switch (kind) {
    case 0:
        return ep_count(t) == 2;
    case 1:
        return ep_count(t) == 1;
    case 2:
        return double_steps(s, t) == 2;
    case 3:
        return double_steps(s, t) == 1;
    case 4:
        return pawns_only(s, t);
    default:
        return !takes_king(s, t);
    }
}

/* A random turn: of each favoured kind present, taken with the given chance in percent. */
static const Turn *pick_turn(Rng *rng, const Setup *s, const TurnList *l)
{
    static const int CHANCE[6] = { 90, 60, 40, 25, 30, 90 };
    for (int kind = 0; kind < 6; kind++) {
        const Turn *pick = NULL;
        uint64_t seen = 0;
        for (size_t i = 0; i < l->n; i++)
            if (favoured(s, &l->v[i], kind) && rng_below(rng, ++seen) == 0)
                pick = &l->v[i];
        if (pick && (int)rng_below(rng, 100) < CHANCE[kind])
            return pick;
    }
    return &l->v[rng_below(rng, l->n)];
}

static bool has_both_kings(const Setup *s)
{
    int kings = 0;
    for (int sq = 0; sq < s->variant->files * RANKS; sq++)
        kings += piece_type(s->board[sq]) == KING;
    return kings == 2;
}

/* After a perft mismatch: the turn sets one turn deeper, compared below every root turn, so that
 * the report names the position and the turns that differ. */
static void explain_perft(const Setup *s, const Position *p, const Rules *r, const TurnList *ref)
{
    for (size_t i = 0; i < ref->n; i++) {
        Setup after;
        Position q;
        ref_make_turn(s, r, &ref->v[i], &after);
        position_make_turn(p, r, &ref->v[i], &q);
        TurnList a = { 0 }, b = { 0 };
        assert_true(ref_turns(&after, r, &a));
        assert_true(position_turns(&q, r, &b));
        turn_sets_differ(&after, r, &a, &b);
        ref_turn_list_free(&a);
        turn_list_free(&b);
    }
}

/* Every comparison at one position; returns the number of disagreements and counts a finished
 * game in *over. want_deep adds turn perft depth 2 and movement perft depth 3 (counted in
 * *deeps) where they are affordable. */
static int compare_position(const Setup *s, const Position *p, const Rules *r, bool want_deep,
                            int *over, int *deeps)
{
    int bad = 0;
    TurnList ref = { 0 }, fast = { 0 };
    assert_true(ref_turns(s, r, &ref));
    assert_true(position_turns(p, r, &fast));
    *over += ref.n == 0;
    /* The deep perfts cost the reference about a millisecond per root turn: not above this many. */
    bool deep = want_deep && ref.n <= DEEP_MAX_TURNS;
    *deeps += deep;
    bad += turn_sets_differ(s, r, &ref, &fast) != 0;
    if (position_first_turn(p, r) != ref_first_turn(s, r)) {
        print_fen("first-turn flags differ", s, r);
        bad++;
    }
    for (size_t i = 0; i < ref.n; i++) {
        Setup after;
        if (!same_after(s, p, r, &ref.v[i], &after))
            bad++;
    }
    /* Depth 1 of both perfts is the reference list itself: its size, its first movements. */
    uint64_t firsts = 0;
    for (size_t i = 0; i < ref.n; i++)
        firsts += i == 0 || ref.v[i].m[0] != ref.v[i - 1].m[0];
    uint64_t want[2][4] = { { 0, ref.n, 0, 0 }, { 0, firsts, 0, 0 } };
    want[1][2] = ref_perft_movements(s, r, 2);
    if (deep) {
        want[0][2] = ref_perft_turns(s, r, 2);
        want[1][3] = ref_perft_movements(s, r, 3);
    }
    for (int kind = 0; kind < 2; kind++)
        for (int d = 1; d <= (kind == 0 ? 1 : 2) + deep; d++) {
            uint64_t got = kind == 0 ? perft_turns(p, r, d) : perft_movements(p, r, d);
            if (got != want[kind][d]) {
                print_fen(kind == 0 ? "turn perft differs" : "movement perft differs", s, r);
                print_error("  D%d reference %llu fast %llu\n", d,
                            (unsigned long long)want[kind][d], (unsigned long long)got);
                if (d > 1)
                    explain_perft(s, p, r, &ref);
                bad++;
            }
        }
    ref_turn_list_free(&ref);
    turn_list_free(&fast);
    return bad;
}

/* Positions reached by random play of complete turns with the fast core (0..30 turns), from the
 * starts of chess, chess960, capablanca and caparandom in turn. The reference replays each turn
 * and must reach the same state; the reached FEN must be valid under the rules. The turn sets
 * are compared on the way too, at every eighth turn boundary and wherever an en passant capture
 * is possible. Every position reached gets the full comparison except the deep perfts, which
 * one in deep_every gets (if it has at most DEEP_MAX_TURNS turns). */
/* Whether the movement m of a turn of p captures or promotes: its target holds a piece of the
 * other side on p (a second movement's target can hold one only if it did at the turn's start),
 * or it takes en passant or promotes. */
static bool takes_or_promotes(const Position *p, Move m)
{
    if (move_kind(m) == MOVE_EN_PASSANT || move_kind(m) == MOVE_PROMOTION)
        return true;
    Piece victim = position_piece_at(p, move_to(m));
    return move_kind(m) != MOVE_CASTLING && victim != NO_PIECE &&
           piece_color(victim) != position_side(p);
}

static bool in_list(const TurnList *l, const Turn *t)
{
    for (size_t i = 0; i < l->n; i++)
        if (turn_same(&l->v[i], t))
            return true;
    return false;
}

/* Whether position_tactical_turns(p) differs from the turns of all (position_turns(p)) that
 * capture or promote in either movement, in content or order; or position_turn_legal disagrees
 * with all on one of every fifth of its turns, that turn's first movement alone, or its two
 * movements swapped. */
static bool tactical_or_legal_differ(const Position *p, const Rules *r, const TurnList *all)
{
    TurnList tactical = { 0 };
    assert_true(position_tactical_turns(p, r, &tactical));
    size_t expected = 0;
    bool differ = false;
    for (size_t i = 0; i < all->n; i++) {
        const Turn *t = &all->v[i];
        if (!takes_or_promotes(p, t->m[0]) && (t->n == 1 || !takes_or_promotes(p, t->m[1])))
            continue;
        differ |= expected >= tactical.n || !turn_same(&tactical.v[expected], t);
        expected++;
    }
    differ |= expected != tactical.n;
    if (differ)
        print_error("[%s]: %zu tactical turns, %zu expected, or not the same in order\n",
                    rules_text(r), tactical.n, expected);
    turn_list_free(&tactical);
    for (size_t i = 0; i < all->n && !differ; i += 5) {
        const Turn *t = &all->v[i];
        const Turn alone = { { t->m[0], MOVE_NONE }, 1 }, swapped = { { t->m[1], t->m[0] }, 2 };
        const Turn *probe[3] = { t, &alone, t->n == 2 ? &swapped : NULL };
        for (int k = 0; k < 3 && !differ; k++) {
            if (!probe[k])
                continue;
            differ = position_turn_legal(p, r, probe[k]) != in_list(all, probe[k]);
            if (differ) {
                char text[TURN_TEXT_MAX];
                turn_to_uci(probe[k], p->variant, true, text);
                print_error("[%s]: position_turn_legal wrong on %s\n", rules_text(r), text);
            }
        }
    }
    return differ;
}

/* Galvin's game: position_king_in_reach against the turns l of p (s): a true answer must be
 * sure, one of the turns ending on the other king's square. Counts the positions where a turn
 * takes the king (*takes) and those of them it finds (*found). Returns 1 for a wrong answer. */
static int king_reach_wrong(const Setup *s, const Position *p, const Rules *r, const TurnList *l,
                            int *found, int *takes)
{
    if (!has_both_kings(s))
        return 0;
    int ksq = 0;
    for (int sq = 0; sq < s->variant->files * RANKS; sq++)
        if (piece_type(s->board[sq]) == KING && piece_color(s->board[sq]) != s->side)
            ksq = sq;
    bool taken = false;
    for (size_t i = 0; i < l->n && !taken; i++)
        for (int j = 0; j < l->v[i].n; j++)
            taken |= move_kind(l->v[i].m[j]) != MOVE_CASTLING && move_to(l->v[i].m[j]) == ksq;
    const bool reach = position_king_in_reach(p, !position_first_turn(p, r));
    *takes += taken;
    *found += reach && taken;
    if (reach && !taken) {
        print_fen("king_in_reach says the king is taken, no turn takes it", s, r);
        return 1;
    }
    return 0;
}

static void random_positions(const Rules *r, int count, int deep_every, uint64_t seed)
{
    int reach_found = 0, reach_takes = 0;
    static const char *VARIANTS[4] = { "chess", "chess960", "capablanca", "caparandom" };
    double t0 = monotonic_seconds();
    int bad = 0, over = 0, eps = 0, path = 0, two_ep = 0, deep = 0;
    for (int game = 0; game < count && bad < 5; game++) {
        Rng rng = rng_new(seed * 1000003u + (uint64_t)game);
        const Variant *v = variant_by_name(VARIANTS[game % 4]);
        Setup s;
        setup_random(&s, v, rng_next(&rng));
        Position p;
        position_from_setup(&p, &s);
        int turns = (int)rng_below(&rng, 31);
        for (int k = 0; k < turns; k++) {
            TurnList l = { 0 };
            assert_true(position_turns(&p, r, &l));
            bad += tactical_or_legal_differ(&p, r, &l);
            if (r->turns == TURNS_GALVIN)
                bad += king_reach_wrong(&s, &p, r, &l, &reach_found, &reach_takes);
            if (l.n == 0) {
                turn_list_free(&l);
                break;
            }
            bool ep = false, ep2 = false;
            for (size_t i = 0; i < l.n; i++) {
                ep |= ep_count(&l.v[i]) > 0;
                ep2 |= ep_count(&l.v[i]) == 2;
            }
            if (k % 8 == 0 || ep) {
                TurnList mine = { 0 };
                assert_true(ref_turns(&s, r, &mine));
                bad += turn_sets_differ(&s, r, &mine, &l) != 0;
                ref_turn_list_free(&mine);
                path++;
                two_ep += ep2;
            }
            const Turn *t = pick_turn(&rng, &s, &l);
            Setup after;
            if (!same_after(&s, &p, r, t, &after))
                bad++;
            Position q;
            position_make_turn(&p, r, t, &q);
            p = q;
            s = after;
            turn_list_free(&l);
        }
        eps += s.ep[0] != NO_SQUARE;
        /* A reached state is a valid FEN under the rules (a lost king aside). */
        if (has_both_kings(&s)) {
            char fen[FEN_MAX], err[256];
            Setup back;
            setup_to_fen(&s, FEN_CASTLING_SHREDDER, fen, sizeof fen);
            if (setup_from_fen_rules(&back, v, r, fen, err, sizeof err) != 0) {
                print_error("%s [%s]: reached state %s rejected: %s\n", v->name, rules_text(r), fen,
                            err);
                bad++;
            }
        }
        bad += compare_position(&s, &p, r, game % deep_every == 0, &over, &deep);
    }
    print_message("%-28s %d positions (%d deep, %d with en passant, %d games over), %d more on the "
                  "way (%d with a double en passant turn): %.1f s\n",
                  rules_text(r), count, deep, eps, over, path, two_ep, monotonic_seconds() - t0);
    assert_int_equal(bad, 0);
    if (r->turns == TURNS_GALVIN) {
        /* what it misses (promotions, castling) is rare */
        print_message("king in reach: %d of the %d positions where a turn takes the king\n",
                      reach_found, reach_takes);
        assert_true(reach_takes > 0 && reach_found >= reach_takes * 9 / 10);
    }
}

/* Positions and deep fraction per rule set, sized for the time budget (RANDOM_DEEP_ALL makes
 * every position deep: about an hour). Bennekom under the modern rule has no en passant at
 * all (its second movement is the first one's piece, never on its start square). */
#ifdef RANDOM_DEEP_ALL
#define DEEP(n) 1
#else
#define DEEP(n) (n)
#endif
static void random_single(void **state)
{
    (void)state;
    random_positions(&SINGLE, RANDOM_POSITIONS, DEEP(5), 1);
}
static void random_classic(void **state)
{
    (void)state;
    random_positions(&CLASSIC, RANDOM_POSITIONS, DEEP(51), 2);
}
static void random_modern(void **state)
{
    (void)state;
    random_positions(&MODERN, RANDOM_POSITIONS, DEEP(51), 3);
}
static void random_balanced(void **state)
{
    (void)state;
    random_positions(&BALANCED, RANDOM_POSITIONS, DEEP(51), 4);
}
static void random_balanced_modern(void **state)
{
    (void)state;
    random_positions(&BALANCED_MODERN, RANDOM_POSITIONS, DEEP(51), 5);
}
static void random_galvin(void **state)
{
    (void)state;
    random_positions(&GALVIN, RANDOM_POSITIONS, DEEP(25), 6);
}
static void random_bennekom(void **state)
{
    (void)state;
    random_positions(&BENNEKOM, RANDOM_POSITIONS, DEEP(11), 7);
}
static void random_bennekom_modern(void **state)
{
    (void)state;
    random_positions(&BENNEKOM_MODERN, RANDOM_POSITIONS / 2, DEEP(21), 8);
}
static void random_extramove(void **state)
{
    (void)state;
    random_positions(&EXTRAMOVE, RANDOM_POSITIONS, DEEP(51), 9);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_movement_check_ends_turn),
        cmocka_unit_test(check_must_be_parried_first),
        cmocka_unit_test(no_movement_leaves_king_in_check),
        cmocka_unit_test(stalemate_after_queen_check),
        cmocka_unit_test(en_passant_classic_and_modern),
        cmocka_unit_test(en_passant_state_after_turn),
        cmocka_unit_test(bennekom_same_piece),
        cmocka_unit_test(galvin_king_capture_and_moving_into_check),
        cmocka_unit_test(extra_move_rules),
        cmocka_unit_test(balanced_first_turn_is_single),
        cmocka_unit_test(fen_under_rules),
        cmocka_unit_test(start_positions),
        cmocka_unit_test(random_single),
        cmocka_unit_test(random_classic),
        cmocka_unit_test(random_modern),
        cmocka_unit_test(random_balanced),
        cmocka_unit_test(random_balanced_modern),
        cmocka_unit_test(random_galvin),
        cmocka_unit_test(random_bennekom),
        cmocka_unit_test(random_bennekom_modern),
        cmocka_unit_test(random_extramove),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
