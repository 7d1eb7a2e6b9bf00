/* SPDX-License-Identifier: MIT */
/* The games of PGN files compared in tests (pgn_games.h). */
#include "pgn_games.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "files.h"

/* The game of round "P.G" in a PGN file, from its first tag to the next game; NULL if absent. */
char *game_of_round(const char *pgn, const char *round)
{
    char tag[64];
    snprintf(tag, sizeof tag, "[Round \"%s\"]", round);
    const char *at = strstr(pgn, tag);
    if (!at)
        return NULL;
    const char *start = at;
    while (start > pgn &&
           !(start[-1] == '\n' && start[0] == '[' && strncmp(start, "[Event", 6) == 0))
        start--;
    const char *end = strstr(at, "\n[Event");
    size_t len = end ? (size_t)(end - start) : strlen(start);
    /* the last game of the file keeps the blank line after it: not part of the game */
    while (len > 0 && (start[len - 1] == '\n' || start[len - 1] == ' '))
        len--;
    char *game = malloc(len + 1);
    assert_non_null(game);
    memcpy(game, start, len);
    game[len] = '\0';
    return game;
}

/* Each round of pairs 1..pairs in both files, its movetext (from the blank line after the tags:
 * the Site tag names the configuration) of a and of b to visit; a round missing from either
 * fails the test. Returns the rounds visit found alike. */
static int each_round(const char *path_a, const char *path_b, int pairs,
                      bool (*visit)(const char *round, const char *a, const char *b))
{
    char *a = read_bytes(path_a, NULL), *b = read_bytes(path_b, NULL);
    int alike = 0;
    for (int pair = 1; pair <= pairs; pair++)
        for (int game = 1; game <= 2; game++) {
            char round[16];
            snprintf(round, sizeof round, "%d.%d", pair, game);
            char *ga = game_of_round(a, round), *gb = game_of_round(b, round);
            if (!ga || !gb)
                fail_msg("round %s is missing from %s", round, ga ? path_b : path_a);
            alike += visit(round, strstr(ga, "\n\n"), strstr(gb, "\n\n"));
            free(ga);
            free(gb);
        }
    free(a);
    free(b);
    return alike;
}

static bool must_match(const char *round, const char *a, const char *b)
{
    (void)round;
    assert_string_equal(a, b);
    return true;
}

static bool alike(const char *round, const char *a, const char *b)
{
    (void)round;
    return strcmp(a, b) == 0;
}

void expect_same_games(const char *path_a, const char *path_b, int pairs)
{
    each_round(path_a, path_b, pairs, must_match);
}

int count_same_games(const char *path_a, const char *path_b, int pairs)
{
    return each_round(path_a, path_b, pairs, alike);
}

int pgn_game_count(const char *path)
{
    char *text = read_bytes(path, NULL);
    int count = 0;
    for (const char *e = strstr(text, "[Event "); e; e = strstr(e + 1, "[Event "))
        count++;
    free(text);
    return count;
}
