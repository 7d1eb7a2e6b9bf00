/* SPDX-License-Identifier: MIT */
/* The two compiled instantiations of board.inc (8x8 and 10x8); position.c dispatches to them.
 * Internal to the core: users go through position.h. */
#ifndef CARRERA_BOARD_H
#define CARRERA_BOARD_H

#include "eval.h"
#include "position.h"
#include "perft_tt.h"
#include "turn.h"

#define DECLARE_BOARD_API(SUFFIX, N)                                                               \
    void board_init_##SUFFIX(void);                                                                \
    void board_build_##SUFFIX(Board##N *b, Castling##N *c, const Setup *s);                        \
    void board_to_setup_##SUFFIX(const Board##N *b, const Castling##N *c, Setup *s);               \
    int board_moves_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v, Move *l);  \
    int board_tactical_moves_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v,   \
                                      Move *l);                                                    \
    int board_quiet_checks_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v,     \
                                    Move *l);                                                      \
    void board_make_##SUFFIX(const Board##N *b, const Castling##N *c, Move m, Board##N *o);        \
    void board_make_null_##SUFFIX(const Board##N *b, Board##N *o);                                 \
    int board_see_##SUFFIX(const Board##N *b, Move m, const int *values);                          \
    bool board_in_check_##SUFFIX(const Board##N *b);                                               \
    bool board_king_in_reach_##SUFFIX(const Board##N *b, bool two);                                \
    int board_checkers_##SUFFIX(const Board##N *b, int *squares);                                  \
    u128 board_key_slow_##SUFFIX(const Board##N *b);                                               \
    bool board_is_ok_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v,           \
                              const Rules *r, bool boundary, char *why, size_t whylen);            \
    bool board_ok_or_report_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v,    \
                                     const Rules *r, bool boundary, bool data);                    \
    uint64_t board_perft_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v,       \
                                  int d);                                                          \
    bool board_turns_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v,           \
                              const Rules *r, bool tactical, TurnList *l);                         \
    bool board_turn_legal_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v,      \
                                   const Rules *r, const Turn *t);                                 \
    void board_make_turn_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v,       \
                                  const Rules *r, const Turn *t, Board##N *o);                     \
    uint64_t board_perft_turns_##SUFFIX(const Board##N *b, const Castling##N *c, const Variant *v, \
                                        const Rules *r, int d, PerftTT *tt, PerftTTWork *w);       \
    uint64_t board_perft_movements_##SUFFIX(const Board##N *b, const Castling##N *c,               \
                                            const Variant *v, const Rules *r, int d);              \
    bool board_first_turn_##SUFFIX(const Board##N *b, const Rules *r);                             \
    int board_eval_##SUFFIX(const Board##N *b, const Eval *e);

DECLARE_BOARD_API(8, 64)
DECLARE_BOARD_API(10, 80)
#undef DECLARE_BOARD_API

#endif
