/* SPDX-License-Identifier: MIT */
/* The games of a match result file (docs/result-files.md): /match/games, one row of fixed-size
 * columns per game, and /match/moves, the bytes of every game's moves one after the other, which
 * a row finds by its moves_offset and moves_length columns. Carrera checks those against the
 * dataset and the file before it reads a byte: HDF5 has no part in it, so a damaged offset or
 * length is refused with a message (no variable-length strings, whose lengths and heap references
 * HDF5 1.10 trusts). Written by match_file.c, read back by a resume (match_resume.c) and by the
 * regression (match_games.c). Internal to h5/. */
#ifndef CARRERA_MATCH_ROWS_H
#define CARRERA_MATCH_ROWS_H

#include <hdf5.h>
#include <stdint.h>

#include "errmsg.h"
#include "game_record.h"
#include "imbalance.h"
#include "position.h"

/* What marks a match result file, in the root attribute "format". */
#define MATCH_ROWS_FORMAT "carrera-match"

/* Longest game_ending_name ("insufficient material") and its NUL, with room to spare. */
#define MATCH_ROWS_TERMINATION_MAX 32

/* A fault's details, as GameRecord holds them. */
#define MATCH_ROWS_DETAIL_MAX 256

/* A row of /match/games as it is in memory; the file holds the same columns packed. Every text
 * but the moves is a fixed-length, NUL-terminated string. */
typedef struct GameRow {
    uint64_t pair;
    uint8_t game; /* 1 or 2 within the pair */
    char opening[FEN_MAX];
    uint8_t white; /* the player (1 or 2) who had White */
    int8_t result; /* 1 White won, 0 draw, -1 Black won */
    double player1_score;
    char termination[MATCH_ROWS_TERMINATION_MAX];
    char detail[MATCH_ROWS_DETAIL_MAX];
    uint32_t plies;
    uint64_t nodes_white, nodes_black;
    double seconds_white, seconds_black;
    int16_t material[2][MATERIAL_TYPES];
    uint64_t moves_offset; /* where the moves begin in /match/moves: where the row before ended */
    uint32_t moves_length; /* their bytes, no NUL */
} GameRow;

/* The memory type of GameRow (close it with H5Tclose), or -1. */
hid_t match_rows_type(void);

/* Creates the empty, growing /match/games and /match/moves in the group g. Returns 0 or -1. */
int match_rows_create(hid_t g);

/* Player 1's score in game k (0 or 1) of a pair whose result for White is result. */
double match_rows_player1_score(int k, int result);

/* Fills row from game k of pair, its moves starting at byte offset of /match/moves, and returns
 * the moves' text (malloc'd: the turns in UCI text separated by single spaces, a turn's movements
 * joined by ','), or NULL when memory runs out. */
char *match_rows_fill(GameRow *row, uint64_t pair, int k, const GameRecord *r, uint64_t offset);

/* What is wrong with the columns other than the moves of row i of a match of n_pairs pairs, or
 * NULL. */
const char *match_rows_problem(const GameRow *r, uint64_t i, uint64_t n_pairs);

/* Appends the rows r[0..1] after the first `rows` rows of games and their moves text[0..1] after
 * the first `bytes` bytes of moves: the moves first, so that a row never names bytes an earlier
 * flush did not have. Returns 0, or -1 with both datasets given back their sizes. */
int match_rows_append(hid_t games, hid_t moves, uint64_t rows, uint64_t bytes, const GameRow r[2],
                      char *const text[2]);

/* What match_rows_append of r may add to the file at most, HDF5's metadata aside: a new chunk of
 * rows, a new chunk of moves (or two, when the moves cross a chunk's end), the moves. */
size_t match_rows_append_bytes(const GameRow r[2]);

/* /match/moves open for reading the rows' texts. */
typedef struct MatchMoves {
    hid_t d;          /* the dataset */
    uint64_t size;    /* its bytes */
    uint64_t limit;   /* the file's size: no text is longer */
    uint64_t checked; /* the bytes whose chunks h5file_chunks_whole checked */
    char *text;       /* the text read last, NUL-terminated */
    size_t cap;
    char why[ERRMSG_LEN];
} MatchMoves;

/* Opens /match/moves of file: -1 when it is missing or not a one-dimensional dataset of bytes. */
int match_rows_moves_open(MatchMoves *m, hid_t file);
void match_rows_moves_close(MatchMoves *m);

/* Reads row r's moves into m->text after checking that they begin at byte at (where the row
 * before ended: rows neither overlap nor leave gaps), lie inside /match/moves and the file, and
 * are text (printable ASCII). Returns NULL, or what is wrong (in m->why). */
const char *match_rows_moves_read(MatchMoves *m, const GameRow *r, uint64_t at);

#endif
