/* SPDX-License-Identifier: MIT */
/* One game of a match, played out between two players from an opening, refereed by the rules
 * of play (core/play/game.c) and the match's adjudication: every game ends with a result and the
 * reason, and every fault of a player loses that game for it without stopping anything else. */
#ifndef CARRERA_REFEREE_H
#define CARRERA_REFEREE_H

#include "game_record.h"
#include "match_config.h"
#include "player.h"

/* Plays a game from start (a turn boundary) under r, white and black choosing turns (each
 * player's limits from its configuration), until the rules or the adjudication end it. Both
 * players must be ready for a new game (player_new_game). Returns 0 with *out filled (free it
 * with game_record_free), or -1 with a message when memory runs out. */
int referee_play_game(Player *white, Player *black, const Position *start, const Rules *r,
                      bool castle960, const Adjudication *adj, GameRecord *out, char *err,
                      size_t errlen);

#endif
