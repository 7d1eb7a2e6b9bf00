/* SPDX-License-Identifier: MIT */
/* `carrera xboard` against the xboard-protocol engines Debian ships, under the CECP referee of
 * tests/support: Fairy-Max (H.G. Muller's engine) in normal chess, Capablanca, Gothic and Janus,
 * Sjaak II in Capablanca, Gothic, Embassy, Fischer random and Capablanca random (shuffled arrays
 * given with setboard), Carrera as White in some games and as Black in the others. Every move is
 * checked against Carrera's rules by the referee; a game must end by the rules, by a claim the
 * rules confirm, or by the ply limit, with no illegal move, error, stall or time forfeit on
 * either side. Each game is printed (engines, result, moves). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cecp_referee.h"
#include "clock.h"
#include "clock.h"
#include "setup.h"
#include "variant.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must name the carrera binary"
#endif

#define FAIRYMAX "/usr/games/fairymax"
#define SJAAKII  "/usr/games/sjaakii"

static char *const CARRERA[] = { CARRERA_BIN, "xboard", NULL };
static char *const FAIRY_MAX[] = { FAIRYMAX, NULL };
static char *const SJAAK[] = { SJAAKII, NULL };

/* Short games: a minute each with a small increment and a depth limit, so that a game takes a
 * few seconds, but under a real clock that the referee keeps. */
static void play(char *const *opponent, const char *variant, const char *fen, bool carrera_white)
{
    if (access(opponent[0], X_OK) != 0) {
        /* scripts/setup installs both engines; a hand-made machine may lack them */
        fprintf(stderr, "skipped: %s is not installed\n", opponent[0]);
        skip();
    }
    char *const *const argv[2] = { carrera_white ? CARRERA : opponent,
                                   carrera_white ? opponent : CARRERA };
    CecpGameSpec spec = {
        .variant = variant, .fen = fen, .base_s = 60, .inc_s = 1, .depth = 4, .max_plies = 160
    };
    CecpOutcome out;
    double t0 = monotonic_seconds();
    bool ok = cecp_play(argv, &spec, &out);
    printf("%s: %s - %s: %s {%s}, %d plies in %.1f s%s%s\n  %s\n", variant, out.names[0],
           out.names[1], ok ? out.result : "failed", ok ? out.reason : out.error, out.plies,
           monotonic_seconds() - t0, fen ? " from " : "", fen ? fen : "", out.moves);
    if (!ok)
        fail_msg("%s", out.error);
    assert_true(out.plies > 0);
}

/* A shuffled start of a random-array variant, castling rights as rook files. */
static const char *shuffled(const char *variant, uint64_t seed, char *fen, size_t len)
{
    Setup s;
    setup_random(&s, variant_by_name(variant), seed);
    setup_to_fen(&s, FEN_CASTLING_SHREDDER, fen, len);
    return fen;
}

static void test_fairymax_normal(void **state)
{
    (void)state;
    play(FAIRY_MAX, "normal", NULL, true);
}

static void test_fairymax_capablanca(void **state)
{
    (void)state;
    play(FAIRY_MAX, "capablanca", NULL, false);
}

static void test_fairymax_gothic(void **state)
{
    (void)state;
    play(FAIRY_MAX, "gothic", NULL, true);
}

static void test_fairymax_janus(void **state)
{
    (void)state;
    play(FAIRY_MAX, "janus", NULL, false);
}

static void test_sjaak_capablanca(void **state)
{
    (void)state;
    play(SJAAK, "capablanca", NULL, true);
}

static void test_sjaak_gothic(void **state)
{
    (void)state;
    play(SJAAK, "gothic", NULL, false);
}

/* From Embassy's array without castling rights: Sjaak II 1.4.1 castles in Embassy with a
 * two-square king step and answers the rules' three-square castling with `Error`
 * (docs/xboard.md), so a game in which either side castles fails on Sjaak's side, not Carrera's. */
static void test_sjaak_embassy(void **state)
{
    (void)state;
    play(SJAAK, "embassy", "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w - - 0 1",
         true);
}

static void test_sjaak_fischerandom(void **state)
{
    (void)state;
    char fen[128];
    play(SJAAK, "fischerandom", shuffled("chess960", 11, fen, sizeof fen), false);
}

static void test_sjaak_caparandom(void **state)
{
    (void)state;
    char fen[128];
    play(SJAAK, "caparandom", shuffled("caparandom", 5, fen, sizeof fen), true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fairymax_normal),  cmocka_unit_test(test_fairymax_capablanca),
        cmocka_unit_test(test_fairymax_gothic),  cmocka_unit_test(test_fairymax_janus),
        cmocka_unit_test(test_sjaak_capablanca), cmocka_unit_test(test_sjaak_gothic),
        cmocka_unit_test(test_sjaak_embassy),    cmocka_unit_test(test_sjaak_fischerandom),
        cmocka_unit_test(test_sjaak_caparandom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
