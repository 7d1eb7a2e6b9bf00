/* SPDX-License-Identifier: MIT */
/* The games of a match result file (match_rows.h): the row type, filling and checking rows, the
 * moves appended and read back. */
#include "match_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5check.h"
#include "h5file.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"

/* Rows of /match/games per chunk (about 9 KiB) and bytes of /match/moves per chunk (about a
 * chunk of rows' moves): small files for short matches, a chunk index of thousands of entries
 * for a million games. */
#define CHUNK_ROWS  16
#define CHUNK_BYTES 4096

_Static_assert(sizeof(((GameRecord *)0)->detail) == MATCH_ROWS_DETAIL_MAX,
               "the detail column holds a GameRecord's detail");

hid_t match_rows_type(void)
{
    hsize_t dims[2] = { 2, MATERIAL_TYPES };
    hid_t fen = h5file_string_type(FEN_MAX);
    hid_t term = h5file_string_type(MATCH_ROWS_TERMINATION_MAX);
    hid_t detail = h5file_string_type(MATCH_ROWS_DETAIL_MAX);
    hid_t mat = H5Tarray_create2(H5T_NATIVE_INT16, 2, dims);
    hid_t t = -1;
    if (fen >= 0 && term >= 0 && detail >= 0 && mat >= 0) {
        const H5FileMember m[] = {
            { "pair", offsetof(GameRow, pair), H5T_NATIVE_UINT64 },
            { "game", offsetof(GameRow, game), H5T_NATIVE_UINT8 },
            { "opening", offsetof(GameRow, opening), fen },
            { "white", offsetof(GameRow, white), H5T_NATIVE_UINT8 },
            { "result", offsetof(GameRow, result), H5T_NATIVE_INT8 },
            { "player1_score", offsetof(GameRow, player1_score), H5T_NATIVE_DOUBLE },
            { "termination", offsetof(GameRow, termination), term },
            { "detail", offsetof(GameRow, detail), detail },
            { "plies", offsetof(GameRow, plies), H5T_NATIVE_UINT32 },
            { "nodes_white", offsetof(GameRow, nodes_white), H5T_NATIVE_UINT64 },
            { "nodes_black", offsetof(GameRow, nodes_black), H5T_NATIVE_UINT64 },
            { "seconds_white", offsetof(GameRow, seconds_white), H5T_NATIVE_DOUBLE },
            { "seconds_black", offsetof(GameRow, seconds_black), H5T_NATIVE_DOUBLE },
            { "material", offsetof(GameRow, material), mat },
            { "moves_offset", offsetof(GameRow, moves_offset), H5T_NATIVE_UINT64 },
            { "moves_length", offsetof(GameRow, moves_length), H5T_NATIVE_UINT32 },
        };
        t = h5file_compound(sizeof(GameRow), m, (int)(sizeof m / sizeof m[0]), 0);
    }
    hid_t parts[] = { fen, term, detail, mat };
    for (int i = 0; i < 4; i++)
        if (parts[i] >= 0)
            H5Tclose(parts[i]);
    return t;
}

/* An empty one-dimensional dataset of file type ft growing in chunks of chunk elements. */
static int create_growing(hid_t g, const char *name, hid_t ft, hsize_t chunk)
{
    hsize_t zero = 0, unlimited = H5S_UNLIMITED;
    hid_t sp = H5Screate_simple(1, &zero, &unlimited);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    if (sp >= 0 && pl >= 0 && H5Pset_chunk(pl, 1, &chunk) >= 0 &&
        H5Pset_obj_track_times(pl, false) >= 0)
        d = H5Dcreate2(g, name, ft, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    int rc = d < 0 || H5Dclose(d) < 0 ? -1 : 0;
    if (sp >= 0)
        H5Sclose(sp);
    if (pl >= 0)
        H5Pclose(pl);
    return rc;
}

int match_rows_create(hid_t g)
{
    hid_t mt = match_rows_type();
    hid_t ft = mt >= 0 ? H5Tcopy(mt) : -1;
    int rc = ft >= 0 && H5Tpack(ft) >= 0 ? create_growing(g, "games", ft, CHUNK_ROWS) : -1;
    if (rc == 0)
        rc = create_growing(g, "moves", H5T_STD_U8LE, CHUNK_BYTES);
    if (ft >= 0)
        H5Tclose(ft);
    if (mt >= 0)
        H5Tclose(mt);
    return rc;
}

double match_rows_player1_score(int k, int result)
{
    double white = (result + 1) / 2.0;
    return k == 0 ? white : 1 - white;
}

/* The turns of g in UCI text, separated by spaces, a turn's movements joined by ','. malloc'd,
 * or NULL when memory runs out. */
static char *moves_text(const Game *g)
{
    char *out = malloc(g->n_turns * (TURN_TEXT_MAX + 1) + 1);
    if (!out)
        return NULL;
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < g->n_turns; i++) {
        char t[TURN_TEXT_MAX];
        turn_to_uci(&g->turns[i], g->start.variant, g->castle960, t);
        for (char *c = strchr(t, '/'); c; c = strchr(c, '/'))
            *c = ',';
        used += (size_t)sprintf(out + used, "%s%s", i ? " " : "", t);
    }
    return out;
}

char *match_rows_fill(GameRow *row, uint64_t pair, int k, const GameRecord *r, uint64_t offset)
{
    memset(row, 0, sizeof *row);
    row->pair = pair;
    row->game = (uint8_t)(k + 1);
    Setup s;
    position_to_setup(&r->game.start, &s);
    setup_to_fen(&s, s.castling_text, row->opening, sizeof row->opening);
    row->white = (uint8_t)(k + 1);
    row->result = (int8_t)r->result;
    row->player1_score = match_rows_player1_score(k, r->result);
    snprintf(row->termination, sizeof row->termination, "%s", game_ending_name(r->ending));
    snprintf(row->detail, sizeof row->detail, "%s", r->detail);
    row->plies = (uint32_t)r->game.n_turns;
    row->nodes_white = r->nodes[WHITE];
    row->nodes_black = r->nodes[BLACK];
    row->seconds_white = r->seconds[WHITE];
    row->seconds_black = r->seconds[BLACK];
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < MATERIAL_TYPES; t++)
            row->material[c][t] = (int16_t)r->material[c][PAWN + t];
    char *text = moves_text(&r->game);
    row->moves_offset = offset;
    row->moves_length = text ? (uint32_t)strlen(text) : 0;
    return text;
}

const char *match_rows_problem(const GameRow *r, uint64_t i, uint64_t n_pairs)
{
    if (r->game != i % 2 + 1)
        return "the games of a pair are not in order";
    if (r->pair >= n_pairs)
        return "a pair number beyond the planned games";
    if (r->white != r->game)
        return "player 1 is not White in the first game of a pair";
    if (r->result < -1 || r->result > 1)
        return "a result that is none of 1, 0, -1";
    if (r->player1_score != match_rows_player1_score(r->game - 1, r->result))
        return "player 1's score does not match the result";
    if (!memchr(r->termination, '\0', sizeof r->termination) ||
        game_ending_by_name(r->termination) == END_NB)
        return "an unknown termination";
    if (!memchr(r->opening, '\0', sizeof r->opening) || !memchr(r->detail, '\0', sizeof r->detail))
        return "a text that is not a string";
    return NULL;
}

/* Sets the one-dimensional dataset d to n elements. */
static int set_size(hid_t d, uint64_t n)
{
    hsize_t dim = n;
    return H5Dset_extent(d, &dim) < 0 ? -1 : 0;
}

size_t match_rows_append_bytes(const GameRow r[2])
{
    return CHUNK_ROWS * sizeof(GameRow) + 2 * CHUNK_BYTES + r[0].moves_length + r[1].moves_length;
}

int match_rows_append(hid_t games, hid_t moves, uint64_t rows, uint64_t bytes, const GameRow r[2],
                      char *const text[2])
{
    uint64_t len[2] = { r[0].moves_length, r[1].moves_length };
    hid_t mt = match_rows_type();
    int rc = mt < 0 || set_size(moves, bytes + len[0] + len[1]) < 0 ? -1 : 0;
    for (int k = 0; k < 2 && rc == 0; k++)
        rc = h5file_write_rows(moves, H5T_NATIVE_UCHAR, (size_t)r[k].moves_offset, (size_t)len[k],
                               text[k]);
    if (rc == 0 &&
        (set_size(games, rows + 2) < 0 || h5file_write_rows(games, mt, (size_t)rows, 2, r) < 0))
        rc = -1;
    if (rc != 0) { /* the file as it was, if HDF5 still can */
        set_size(games, rows);
        set_size(moves, bytes);
    }
    if (mt >= 0)
        H5Tclose(mt);
    return rc;
}

int match_rows_moves_open(MatchMoves *m, hid_t file)
{
    memset(m, 0, sizeof *m);
    m->d = H5Dopen2(file, "/match/moves", H5P_DEFAULT);
    hid_t t = m->d >= 0 ? H5Dget_type(m->d) : -1;
    long long n = m->d >= 0 ? h5file_table_rows(m->d) : -1;
    hsize_t size = 0;
    int rc = t >= 0 && H5Tget_class(t) == H5T_INTEGER && H5Tget_size(t) == 1 && n >= 0 &&
                     H5Fget_filesize(file, &size) >= 0
                 ? 0
                 : -1;
    if (t >= 0)
        H5Tclose(t);
    m->size = n > 0 ? (uint64_t)n : 0;
    m->limit = (uint64_t)size;
    if (rc < 0)
        match_rows_moves_close(m);
    return rc;
}

void match_rows_moves_close(MatchMoves *m)
{
    if (m->d > 0)
        H5Dclose(m->d);
    free(m->text);
    memset(m, 0, sizeof *m);
    m->d = H5I_INVALID_HID;
}

const char *match_rows_moves_read(MatchMoves *m, const GameRow *r, uint64_t at)
{
    unsigned long long off = r->moves_offset, len = r->moves_length;
    if (r->moves_offset != at) {
        snprintf(m->why, sizeof m->why,
                 "its moves begin at byte %llu of /match/moves, not where the game before "
                 "them ended (%llu)",
                 off, (unsigned long long)at);
        return m->why;
    }
    if (len > m->size - (off < m->size ? off : m->size)) {
        snprintf(m->why, sizeof m->why,
                 "its moves (%llu bytes from byte %llu) lie past the end of /match/moves (%llu "
                 "bytes)",
                 len, off, (unsigned long long)m->size);
        return m->why;
    }
    if (len > m->limit) /* a dataset of bytes the file has not got: fill values */
        return "its moves are longer than the file";
    if (len + 1 > m->cap) {
        char *p = realloc(m->text, len + 1);
        if (!p)
            return "out of memory for its moves";
        m->text = p;
        m->cap = len + 1;
    }
    if (off + len > m->checked) { /* the chunks not checked yet that hold them */
        uint64_t from = off > m->checked ? off : m->checked;
        if (!h5check_chunks_whole(m->d, from, off + len - from))
            return "its moves are in a damaged chunk of /match/moves";
        m->checked = off + len;
    }
    if (h5file_read_rows(m->d, H5T_NATIVE_UCHAR, (size_t)off, (size_t)len, m->text) < 0)
        return "its moves cannot be read";
    m->text[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (m->text[i] < ' ' || m->text[i] > '~')
            return "its moves are not text";
    return NULL;
}
