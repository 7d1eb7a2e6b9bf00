/* SPDX-License-Identifier: MIT */
/* The games of the PGN files Carrera writes, compared in tests: by round ("P.G", pair and game),
 * since pairs finish in any order. Each fails the running cmocka test on what it finds. */
#ifndef CARRERA_TEST_PGN_GAMES_H
#define CARRERA_TEST_PGN_GAMES_H

/* The game of round "P.G" in the PGN text, from its first tag to the next game, malloc'd; NULL if
 * absent. */
char *game_of_round(const char *pgn, const char *round);

/* How many games the PGN file at path holds (its "[Event " tags). */
int pgn_game_count(const char *path);

/* Both PGN files hold the same games of pairs 1..pairs, round by round, from the blank line after
 * the tags (the Site tag names the configuration). */
void expect_same_games(const char *path_a, const char *path_b, int pairs);

/* How many of the games of pairs 1..pairs both PGN files hold alike, round by round, as
 * expect_same_games compares them; a round missing from either fails the test. */
int count_same_games(const char *path_a, const char *path_b, int pairs);

#endif
