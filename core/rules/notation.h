/* SPDX-License-Identifier: MIT */
/* Standard algebraic notation (SAN) for movements and turns: writing and reading one movement
 * (Nbd2, exd6, ixj8=C, O-O-O, Qxf7#) and one turn of a double-move rule set (e4/Nf3). Game
 * lines (1.e4/Nf3//e5/Nc6 2.d4 ...) are in movetext.h.
 *
 * What is written:
 *   - a piece letter from the variant (none for pawns; Janus chess writes its Archbishop J);
 *   - the from-file, from-rank or both only when another movement of the same piece type to the
 *     same square is possible in the same place of the turn (file first, then rank, then both);
 *   - x for captures; a pawn capture, en passant included, starts with its file (exd6);
 *   - =Q, =C, =A, =J ... for promotions; O-O for castling with the rook on the higher file,
 *     O-O-O with the one on the lower file (also in Chess960 and on 10 files);
 *   - a check suffix on the last movement of a turn only, judged at the next turn boundary: +
 *     when the side to move then is in check, # when it is checkmated: no first movement that
 *     the rule set allows parries the check (for Extra Move chess a pawn's double step does not
 *     count). That is "no complete turn", except that under classic and balanced Marseillais a
 *     parrying first movement with no second movement after it is stalemate, written +
 *     (docs/rules.md 4.1 rules 4-5). A first movement followed by a second never carries a suffix:
 *     had it given check, the turn would have ended. Galvin's game has no check and writes no
 *     suffix (the king is simply captured: Qxe8).
 * "Possible in the same place of the turn" means: among the first movements of the complete
 * turns of the position (for a first movement), or among the second movements that complete a
 * turn after the same first movement (for a second movement). Under single-move chess that is
 * the list of legal moves, as usual.
 *
 * What is read (tolerantly): a missing, extra or wrong + or # (also ! and ?), a trailing e.p.,
 * a missing or extra x (also - or : between the squares), a needless disambiguation, e8Q as well
 * as e8=Q (and a lower-case promotion letter), 0-0 and 0-0-0 as well as O-O and O-O-O, and UCI
 * text (e2e4, b7b8c, and castling as e1g1 or as king takes own rook, e1h1). Piece letters are
 * upper case (b is always a file). A movement that no legal one matches, or that more than one
 * matches, is an error whose message names the text and the problem (an ambiguous one lists the
 * candidates). Under a double-move rule set the candidates are the movements that can stand in
 * that place of a complete turn, so a legal chess move after which the turn cannot be completed
 * is reported as illegal.
 *
 * Errors are returned as a message in err (errlen bytes, may be 0); nothing is printed. */
#ifndef CARRERA_NOTATION_H
#define CARRERA_NOTATION_H

#include "turn.h"

/* Longest SAN movement (Qa1xj8=Q# is 9 characters) plus the NUL, with room to spare. */
#define SAN_MAX 16
/* Longest turn text: two movements, the '/' and the NUL. */
#define TURN_SAN_MAX (2 * SAN_MAX)

/* Single-move chess: the SAN of the legal move m of p, disambiguated among
 * position_legal_moves(p), with + or # as in ordinary chess. Returns false (out = "") when m is
 * not legal in p or the text does not fit in outlen bytes. */
bool notation_move_to_san(const Position *p, Move m, char *out, size_t outlen);

/* Single-move chess: the legal move of p that text (SAN or UCI) names. Returns false with a
 * message (illegal, ambiguous, unreadable, empty) in err otherwise. */
bool notation_move_from_san(const Position *p, const char *text, Move *out, char *err,
                            size_t errlen);

/* The turn t of p under rules r as text: its movements in SAN joined by '/' ("e4/Nf3", or one
 * movement "Bb5+"). Returns false (out = "") when t is not a complete turn of p under r, when
 * the turn list cannot be built (out of memory) or when the text does not fit. */
bool notation_turn_to_text(const Position *p, const Rules *r, const Turn *t, char *out,
                           size_t outlen);

/* Reads a turn of p under rules r: one or two movements separated by '/' or ';' (spaces
 * around them allowed), each in SAN or UCI, the second read in the position after the first.
 * The result is always one of position_turns(p, r). Returns false with a message in err for an
 * empty turn or movement, too many movements, an illegal or ambiguous movement, a first movement
 * after which the turn must end (check, single-move chess, ...) followed by a second one, or a
 * first movement that cannot be a whole turn given alone. */
bool notation_turn_from_text(const Position *p, const Rules *r, const char *text, Turn *out,
                             char *err, size_t errlen);

#endif
