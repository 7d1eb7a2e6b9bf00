/* SPDX-License-Identifier: MIT */
/* One game between two players (referee.h): the referee loop. The rules of play decide
 * first, then the length limit, then each turn's answer: a fault or an overrun clock loses, and
 * the players' reported scores drive the resign and draw adjudication. */
#include "referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

static GameEnding ending_of(Termination t)
{
    switch (t) {
    case TERM_CHECKMATE:
        return END_CHECKMATE;
    case TERM_STALEMATE:
        return END_STALEMATE;
    case TERM_KING_CAPTURED:
        return END_KING_CAPTURED;
    case TERM_REPETITION:
        return END_REPETITION;
    case TERM_FIFTY_MOVES:
        return END_FIFTY_MOVES;
    default:
        return END_MATERIAL;
    }
}

static GameEnding ending_of_fault(PlayerFault f)
{
    switch (f) {
    case FAULT_STALL:
        return END_STALL;
    case FAULT_GARBAGE:
        return END_GARBAGE;
    case FAULT_ILLEGAL:
        return END_ILLEGAL;
    default:
        return END_CRASH;
    }
}

/* The side at fault loses. The detail is a fixed-size column of the result file: a longer why
 * is cut to it. */
static void lose(GameRecord *out, int side, GameEnding e, const char *why)
{
    out->result = side == WHITE ? -1 : 1;
    out->ending = e;
    out->loser_fault = side;
    snprintf(out->detail, sizeof out->detail, "%.*s", (int)sizeof out->detail - 1, why);
}

/* Consecutive turns on which both players' scores said the same thing. */
typedef struct Streaks {
    int resign, resign_sign; /* |score| >= resign_cp for the same side (sign of White's view) */
    int draw;                /* |score| <= draw_cp */
} Streaks;

/* Notes the mover's score; returns 1 (White) or -1 (Black) when the game is adjudicated won for
 * that side, 2 for a draw, 0 to play on. */
static int adjudicate(Streaks *st, const Adjudication *adj, const PlayerMove *mv, int side,
                      size_t plies)
{
    if (!mv->has_score) {
        *st = (Streaks){ 0, 0, 0 };
        return 0;
    }
    int white_view = side == WHITE ? mv->score_cp : -mv->score_cp;
    if (adj->resign_cp > 0 && adj->resign_moves > 0) {
        int sign = white_view >= adj->resign_cp ? 1 : white_view <= -adj->resign_cp ? -1 : 0;
        if (sign != 0 && sign == st->resign_sign) {
            st->resign++;
        } else {
            st->resign = sign != 0;
            st->resign_sign = sign;
        }
        if (st->resign >= 2 * adj->resign_moves)
            return st->resign_sign;
    }
    if (adj->draw_cp > 0 && adj->draw_moves > 0) {
        st->draw = abs(white_view) <= adj->draw_cp ? st->draw + 1 : 0;
        if (st->draw >= 2 * adj->draw_moves && (int)plies >= adj->draw_min_plies)
            return 2;
    }
    return 0;
}

int referee_play_game(Player *white, Player *black, const Position *start, const Rules *r,
                      bool castle960, const Adjudication *adj, GameRecord *out, char *err,
                      size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->loser_fault = -1;
    if (!game_init(&out->game, start, r, castle960))
        return errmsg_fail(err, errlen, "out of memory starting a game");
    Player *players[2] = { white, black };
    int64_t clock[2];
    for (int c = 0; c < 2; c++) {
        const PlayerLimits *l = &player_config(players[c])->limits;
        clock[c] = l->base_ms > 0 ? l->base_ms : -1;
    }
    Streaks streaks = { 0, 0, 0 };
    for (;;) {
        int winner;
        Termination t = game_status(&out->game, &winner);
        if (t != TERM_NONE) {
            out->ending = ending_of(t);
            out->result = winner == WHITE ? 1 : winner == BLACK ? -1 : 0;
            break;
        }
        if (adj->max_plies > 0 && out->game.n_turns >= (size_t)adj->max_plies) {
            out->ending = END_MAX_LENGTH;
            out->result = 0;
            break;
        }
        int side = position_side(&out->game.pos);
        PlayerMove mv;
        int rc = player_think(players[side], &out->game, clock, &mv);
        out->nodes[side] += mv.nodes;
        out->seconds[side] += mv.seconds;
        if (rc != 0) {
            lose(out, side, ending_of_fault(mv.fault), mv.why);
            break;
        }
        if (clock[side] >= 0) {
            clock[side] -= (int64_t)(mv.seconds * 1000.0);
            if (clock[side] < 0) {
                char why[ERRMSG_LEN];
                snprintf(why, sizeof why, "%.3f s over its clock", -clock[side] / 1000.0);
                lose(out, side, END_TIME, why);
                break;
            }
            clock[side] += player_config(players[side])->limits.inc_ms;
        }
        if (!game_play(&out->game, &mv.turn)) {
            /* player_think hands out legal turns only; anything else is memory running out */
            game_free(&out->game);
            return errmsg_fail(err, errlen, "out of memory recording a game");
        }
        int verdict = adjudicate(&streaks, adj, &mv, side, out->game.n_turns);
        if (verdict == 2) {
            out->ending = END_DRAW;
            out->result = 0;
            break;
        }
        if (verdict != 0) {
            out->ending = END_RESIGN;
            out->result = verdict;
            break;
        }
    }
    game_record_count_material(out);
    return 0;
}
