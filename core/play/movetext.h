/* SPDX-License-Identifier: MIT */
/* Game records: a sequence of turns from a start position as one line of text, in the source
 * notation of double-move chess (docs/rules.md 4.1 rule 7) and in ordinary SAN move text.
 *
 *   double-move rule sets:  1.e4/Nf3//e5/Nc6 2.d4/d5//Bb4+
 *   single-move chess:      1.e4 e5 2.Nf3 Nc6
 *
 * Each turn is written as notation_turn_to_text writes it. Move numbers start from the start
 * position's fullmove number and count pairs of turns (White's, then Black's); a record that
 * starts with Black to move begins "1..." (or "N...").
 *
 * Reading accepts: move numbers ("12." or "12..."; optional, read but not checked), "//" or
 * white space between the players' turns, '/' or ';' between the movements of a turn (no white
 * space around them inside a game line), a result (1-0, 0-1, 1/2-1/2, *) as the last token
 * (ignored), and comments in braces anywhere between tokens. Every turn is checked against the
 * rules: the first turn that cannot be read stops the reading with a message naming the turn,
 * its move number and side, and why. */
#ifndef CARRERA_MOVETEXT_H
#define CARRERA_MOVETEXT_H

#include "notation.h"

/* A buffer of this size always holds the record of n turns. */
#define RECORD_TEXT_MAX(n) ((size_t)(n) * (TURN_SAN_MAX + 8) + 16)

/* Writes the n turns played from start under rules r as one line (no result, no trailing
 * space). Returns false with a message in err when a turn is not legal where it is played or
 * when the text does not fit in outlen bytes. */
bool notation_game_to_text(const Position *start, const Rules *r, const Turn *turns, size_t n,
                           char *out, size_t outlen, char *err, size_t errlen);

/* Reads a record played from start under rules r into out (its previous contents replaced;
 * free it with turn_list_free, also after an error). end, when not NULL, receives the position
 * after the last turn read. Returns false with a message in err at the first turn or token that
 * cannot be read; out then holds the turns before it and end the position they lead to. */
bool notation_game_from_text(const Position *start, const Rules *r, const char *text, TurnList *out,
                             Position *end, char *err, size_t errlen);

#endif
