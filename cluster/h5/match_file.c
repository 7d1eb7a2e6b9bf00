/* SPDX-License-Identifier: MIT */
/* The HDF5 result and checkpoint file of a match (layout: README, "Result files (HDF5)"). Only
 * rank 0 uses it, with the serial library; what it shares with the perft result (perft_file.c) is
 * in h5file.c.
 *
 * Crash safety. A match does not know its games in advance, so unlike the perft file its table
 * grows: every pair appends two rows to a chunked dataset and is flushed (H5Fflush, fsync) before
 * the call returns. Between two calls HDF5 writes nothing, so a match killed while it plays
 * leaves the file of the last flush. A kill during a flush may leave the rows being appended
 * unreadable or empty; only the last pair can be so, and a resume drops it (it is played again).
 * A full disk is another matter: HDF5 keeps no journal, and an append that runs out of space
 * half-way leaves the file's metadata pointing past its end, the whole file unreadable (measured
 * under a file size limit: "truncated file" on the next open). So every append first claims the
 * room it may need past the end of the file and gives it back at once; when the claim fails the
 * pair is not written and the file stays as the last flush left it. Chunks of CHUNK_ROWS rows
 * keep the chunk index small and seldom split. What changes the file in other ways (a resume,
 * the summary) is done on a copy that then replaces it, as for perft. */
#define _POSIX_C_SOURCE 200809L

#include "match_file.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "h5file.h"
#include "tune_group.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"

/* What marks a file as ours, in the root attribute "format". */
#define FORMAT_NAME "carrera-match"

/* Longest game_ending_name ("insufficient material") and its NUL, with room to spare. */
#define TERMINATION_MAX 32

#define CHUNK_ROWS 64

/* Room claimed before an append beyond what its rows and texts need: HDF5's metadata (the chunk
 * index, object headers, a new global heap collection of at least 4 KiB), with a margin. */
#define ROOM_SLACK (16 * 1024)

/* Rows read per HDF5 call on resume: bounded memory. */
#define BATCH_ROWS 1024

#if H5_VERSION_GE(1, 12, 0)
#define reclaim_vlen H5Treclaim
#else
#define reclaim_vlen H5Dvlen_reclaim
#endif

/* A row of /match/games as it is in memory; the file holds the same columns packed. */
typedef struct GameRow {
    uint64_t pair;
    uint8_t game; /* 1 or 2 within the pair */
    char opening[FEN_MAX];
    uint8_t white; /* the player (1 or 2) who had White */
    int8_t result; /* 1 White won, 0 draw, -1 Black won */
    double player1_score;
    char termination[TERMINATION_MAX];
    char *detail;
    uint32_t plies;
    uint64_t nodes_white, nodes_black;
    double seconds_white, seconds_black;
    int16_t material[2][MATERIAL_TYPES];
    char *moves;
} GameRow;

/* The attributes match_file_finish writes on /match; a resume removes them. */
static const char *const summary_names[] = {
    "wins",       "draws",        "losses",       "score",       "elo",        "elo_lo",
    "elo_hi",     "elo_pair",     "elo_pair_lo",  "elo_pair_hi", "nelo",       "los",
    "draw_ratio", "games_played", "pairs_played", "stop_reason", "sprt_elo0",  "sprt_elo1",
    "sprt_alpha", "sprt_beta",    "sprt_llr",     "sprt_lower",  "sprt_upper",
};

/* Names of the pentanomial classes, from player 1's view (core/stats.h). */
static const char *const class_names[PAIR_CLASSES] = { "LL", "LD", "WL+DD", "WD", "WW" };

struct MatchFile {
    hid_t file, games, penta; /* the file, /match/games, /match/pentanomial */
    hid_t row_type;           /* memory type of GameRow */
    char *path;
    char *tmp;        /* path.tmp, where the file's replacements are built */
    uint64_t n_pairs; /* planned */
    uint8_t *done;    /* one bit per planned pair: in the file */
    uint64_t rows;    /* rows of /match/games */
    uint64_t wins, draws, losses;
    uint64_t counts[PAIR_CLASSES];
    int run; /* 0 for a new file, k after the k-th resume */
};

/* ---- rows ---- */

static hid_t row_type(void)
{
    hsize_t dims[2] = { 2, MATERIAL_TYPES };
    hid_t fen = h5file_string_type(FEN_MAX);
    hid_t term = h5file_string_type(TERMINATION_MAX);
    hid_t vs = h5file_vlen_string_type();
    hid_t mat = H5Tarray_create2(H5T_NATIVE_INT16, 2, dims);
    hid_t t = -1;
    if (fen >= 0 && term >= 0 && vs >= 0 && mat >= 0) {
        const H5FileMember m[] = {
            { "pair", offsetof(GameRow, pair), H5T_NATIVE_UINT64 },
            { "game", offsetof(GameRow, game), H5T_NATIVE_UINT8 },
            { "opening", offsetof(GameRow, opening), fen },
            { "white", offsetof(GameRow, white), H5T_NATIVE_UINT8 },
            { "result", offsetof(GameRow, result), H5T_NATIVE_INT8 },
            { "player1_score", offsetof(GameRow, player1_score), H5T_NATIVE_DOUBLE },
            { "termination", offsetof(GameRow, termination), term },
            { "detail", offsetof(GameRow, detail), vs },
            { "plies", offsetof(GameRow, plies), H5T_NATIVE_UINT32 },
            { "nodes_white", offsetof(GameRow, nodes_white), H5T_NATIVE_UINT64 },
            { "nodes_black", offsetof(GameRow, nodes_black), H5T_NATIVE_UINT64 },
            { "seconds_white", offsetof(GameRow, seconds_white), H5T_NATIVE_DOUBLE },
            { "seconds_black", offsetof(GameRow, seconds_black), H5T_NATIVE_DOUBLE },
            { "material", offsetof(GameRow, material), mat },
            { "moves", offsetof(GameRow, moves), vs },
        };
        t = h5file_compound(sizeof(GameRow), m, (int)(sizeof m / sizeof m[0]), 0);
    }
    hid_t parts[] = { fen, term, vs, mat };
    for (int i = 0; i < 4; i++)
        if (parts[i] >= 0)
            H5Tclose(parts[i]);
    return t;
}

/* Player 1's score in game k (0 or 1) of a pair whose result for White is result. */
static double player1_score(int k, int result)
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

/* Fills row from game k of pair; row->moves is malloc'd (NULL when memory ran out). */
static void fill_row(GameRow *row, uint64_t pair, int k, const GameRecord *r)
{
    memset(row, 0, sizeof *row);
    row->pair = pair;
    row->game = (uint8_t)(k + 1);
    Setup s;
    position_to_setup(&r->game.start, &s);
    setup_to_fen(&s, s.castling_text, row->opening, sizeof row->opening);
    row->white = (uint8_t)(k + 1);
    row->result = (int8_t)r->result;
    row->player1_score = player1_score(k, r->result);
    snprintf(row->termination, sizeof row->termination, "%s", game_ending_name(r->ending));
    row->detail = (char *)r->detail;
    row->plies = (uint32_t)r->game.n_turns;
    row->nodes_white = r->nodes[WHITE];
    row->nodes_black = r->nodes[BLACK];
    row->seconds_white = r->seconds[WHITE];
    row->seconds_black = r->seconds[BLACK];
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < MATERIAL_TYPES; t++)
            row->material[c][t] = (int16_t)r->material[c][PAWN + t];
    row->moves = moves_text(&r->game);
}

/* The ending named name, or END_NB. */
static GameEnding ending_named(const char *name)
{
    for (int e = 0; e < END_NB; e++)
        if (strcmp(game_ending_name((GameEnding)e), name) == 0)
            return (GameEnding)e;
    return END_NB;
}

/* What is wrong with row i of the file, or NULL. */
static const char *row_problem(const GameRow *r, uint64_t i, uint64_t n_pairs)
{
    if (r->game != i % 2 + 1)
        return "the games of a pair are not in order";
    if (r->pair >= n_pairs)
        return "a pair number beyond the planned games";
    if (r->white != r->game)
        return "player 1 is not White in the first game of a pair";
    if (r->result < -1 || r->result > 1)
        return "a result that is none of 1, 0, -1";
    if (r->player1_score != player1_score(r->game - 1, r->result))
        return "player 1's score does not match the result";
    if (!memchr(r->termination, '\0', sizeof r->termination) ||
        ending_named(r->termination) == END_NB)
        return "an unknown termination";
    if (!r->moves || !r->detail || !memchr(r->opening, '\0', sizeof r->opening))
        return "a missing text";
    return NULL;
}

/* ---- the result ---- */

static bool is_done(const MatchFile *h, uint64_t pair)
{
    return h->done[pair / 8] >> (pair % 8) & 1;
}

static void count_pair(MatchFile *h, uint64_t pair, const double score[2])
{
    h->done[pair / 8] |= (uint8_t)(1u << (pair % 8));
    for (int k = 0; k < 2; k++) {
        h->wins += score[k] == 1.0;
        h->draws += score[k] == 0.5;
        h->losses += score[k] == 0.0;
    }
    h->counts[stats_pair_class(score[0], score[1])]++;
}

static int close_file(MatchFile *h)
{
    if (h->row_type >= 0)
        H5Tclose(h->row_type);
    if (h->games >= 0)
        H5Dclose(h->games);
    if (h->penta >= 0)
        H5Dclose(h->penta);
    int rc = h->file >= 0 ? H5Fclose(h->file) : 0;
    h->row_type = h->games = h->penta = h->file = H5I_INVALID_HID;
    return rc < 0 ? -1 : 0;
}

static void match_free(MatchFile *h)
{
    if (!h)
        return;
    close_file(h);
    free(h->path);
    free(h->tmp);
    free(h->done);
    free(h);
}

static MatchFile *match_new(const char *path, uint64_t n_pairs, char *err, size_t errlen)
{
    MatchFile *h = calloc(1, sizeof *h);
    if (h) {
        h->file = h->games = h->penta = h->row_type = H5I_INVALID_HID;
        h->n_pairs = n_pairs;
        h->path = strdup(path);
        h->tmp = h5file_copy_name(path);
        h->done = calloc(n_pairs / 8 + 1, 1);
    }
    if (!h || !h->path || !h->tmp || !h->done) {
        match_free(h);
        h5file_fail(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    return h;
}

/* Opens what recording needs: the two datasets and the row type. */
static int open_for_records(MatchFile *h)
{
    h->games = H5Dopen2(h->file, "/match/games", H5P_DEFAULT);
    h->penta = H5Dopen2(h->file, "/match/pentanomial", H5P_DEFAULT);
    h->row_type = row_type();
    long long rows = h->games >= 0 ? h5file_table_rows(h->games) : -1;
    h->rows = rows > 0 ? (uint64_t)rows : 0;
    return (h->games < 0 || h->penta < 0 || h->row_type < 0 || rows < 0) ? -1 : 0;
}

static int write_counts(MatchFile *h)
{
    herr_t rc = H5Dwrite(h->penta, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, h->counts);
    return rc < 0 ? -1 : 0;
}

/* This run's provenance, with the match's configuration text. */
static Provenance run_provenance(const MatchFileInfo *info)
{
    Provenance p = *info->prov;
    p.config = info->cfg->text;
    return p;
}

/* ---- creating ---- */

static int write_header(MatchFile *h, const MatchFileInfo *info, char *err, size_t errlen)
{
    const MatchConfig *c = info->cfg;
    const char *path = h->path;
    Provenance prov = run_provenance(info);
    if (h5file_put_str(h->file, "format", FORMAT_NAME) < 0 ||
        h5file_put_i32(h->file, "format_version", MATCH_FILE_FORMAT_VERSION) < 0 ||
        h5file_put_provenance(h->file, &prov) < 0 || h5file_put_i32(h->file, "resumed", 0) < 0)
        return h5file_fail(err, errlen, "cannot write the provenance to %s", path);

    hid_t g = H5Gcreate2(h->file, "match", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = g < 0 ? -1 : 0;
    if (rc == 0) {
        rc |= h5file_put_str(g, "variant", c->variant->name);
        rc |= h5file_put_str(g, "turn_rules", turn_rules_name(c->rules.turns));
        rc |= h5file_put_str(g, "ep_rule", ep_rule_name(c->rules.ep));
        rc |= h5file_put_i32(g, "games", c->games);
        rc |= h5file_put_str(g, "player1", c->players[0].name);
        rc |= h5file_put_str(g, "player2", c->players[1].name);
        rc |= h5file_put_u64(g, "seed", c->seed);
    }
    if (rc != 0) {
        if (g >= 0)
            H5Gclose(g);
        return h5file_fail(err, errlen, "cannot write the match's parameters to %s", path);
    }

    /* /match/games: no rows yet, growing by pairs */
    hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = CHUNK_ROWS;
    hid_t mt = row_type();
    hid_t ft = mt >= 0 ? H5Tcopy(mt) : -1;
    hid_t sp = H5Screate_simple(1, &zero, &unlimited);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    if (ft >= 0 && sp >= 0 && pl >= 0 && H5Tpack(ft) >= 0 && H5Pset_chunk(pl, 1, &chunk) >= 0 &&
        H5Pset_obj_track_times(pl, false) >= 0)
        d = H5Dcreate2(g, "games", ft, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    rc = d < 0 || H5Dclose(d) < 0 ? -1 : 0;
    hid_t closers[] = { mt, ft };
    for (int i = 0; i < 2; i++)
        if (closers[i] >= 0)
            H5Tclose(closers[i]);
    if (sp >= 0)
        H5Sclose(sp);
    if (pl >= 0)
        H5Pclose(pl);
    if (rc != 0) {
        H5Gclose(g);
        return h5file_fail(err, errlen, "cannot create /match/games in %s", path);
    }

    /* /match/pentanomial: five counts rewritten in place, allocated now */
    hsize_t classes = PAIR_CLASSES;
    sp = H5Screate_simple(1, &classes, NULL);
    pl = H5Pcreate(H5P_DATASET_CREATE);
    d = -1;
    if (sp >= 0 && pl >= 0 && H5Pset_layout(pl, H5D_CONTIGUOUS) >= 0 &&
        H5Pset_alloc_time(pl, H5D_ALLOC_TIME_EARLY) >= 0 && H5Pset_obj_track_times(pl, false) >= 0)
        d = H5Dcreate2(g, "pentanomial", H5T_STD_U64LE, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    rc = d < 0 ? -1 : 0;
    if (rc == 0 && (H5Dwrite(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, h->counts) < 0 ||
                    h5file_put_strs(d, "classes", class_names, PAIR_CLASSES) < 0))
        rc = -1;
    if (d >= 0 && H5Dclose(d) < 0)
        rc = -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (pl >= 0)
        H5Pclose(pl);
    if (H5Gclose(g) < 0)
        rc = -1;
    if (rc != 0)
        return h5file_fail(err, errlen, "cannot create /match/pentanomial in %s", path);
    return 0;
}

/* What both match_file_create and match_file_open_resume need of the match. */
static int check_info(const char *path, const MatchFileInfo *info, char *err, size_t errlen)
{
    const MatchConfig *c = info ? info->cfg : NULL;
    if (!c || !info->prov || !c->variant || !c->text)
        return h5file_fail(err, errlen, "%s: incomplete match description", path);
    if (c->games <= 0 || c->games % 2 != 0)
        return h5file_fail(err, errlen, "%s: %d games is not a positive number of pairs", path,
                           c->games);
    return 0;
}

MatchFile *match_file_create(const char *path, const MatchFileInfo *info, char *err, size_t errlen)
{
    h5file_quiet();
    if (check_info(path, info, err, errlen) < 0)
        return NULL;
    struct stat st;
    if (!info->overwrite && stat(path, &st) == 0) {
        h5file_fail(err, errlen, "%s already exists: resume it, or remove it to start again", path);
        return NULL;
    }
    MatchFile *h = match_new(path, (uint64_t)info->cfg->games / 2, err, errlen);
    if (!h)
        return NULL;
    /* Made under a name of its own, the file appears at path once its header is on disk (see
     * perft_file_create in perft_file.c): a match killed meanwhile leaves no half-made checkpoint.
     */
    char *made = NULL;
    h->file = h5file_create_new(path, &made, err, errlen);
    if (h->file < 0) {
        match_free(h);
        return NULL;
    }
    int rc = write_header(h, info, err, errlen);
    if (rc == 0 && open_for_records(h) < 0)
        rc = h5file_fail(err, errlen, "cannot reopen the games of %s", path);
    if (rc == 0)
        rc = h5file_flush(h->file, path, err, errlen);
    rc = h5file_settle_new(made, path, rc == 0, info->overwrite, err, errlen);
    if (rc != 0) {
        close_file(h);
        match_free(h);
        return NULL;
    }
    return h;
}

/* ---- resume ---- */

/* Adds to diffs the first line where the checkpoint's configuration text differs from this
 * match's. */
static void compare_text(const char *have, const char *want, char *diffs, size_t len)
{
    if (strcmp(have, want) == 0)
        return;
    for (int line = 1;; line++) {
        int a = (int)strcspn(have, "\n"), b = (int)strcspn(want, "\n");
        if (!*have && !*want) {
            h5file_add_diff(diffs, len, "the configuration differs in its last newline");
            return;
        }
        if (!*have || !*want || a != b || strncmp(have, want, (size_t)a) != 0) {
            char x[100], y[100];
            snprintf(x, sizeof x, *have ? "'%.*s%s'" : "nothing", a < 80 ? a : 80, have,
                     a > 80 ? "..." : "");
            snprintf(y, sizeof y, *want ? "'%.*s%s'" : "nothing", b < 80 ? b : 80, want,
                     b > 80 ? "..." : "");
            h5file_add_diff(diffs, len,
                            "the configuration differs at line %d: the checkpoint has %s there, "
                            "this match %s",
                            line, x, y);
            return;
        }
        have += a + (have[a] != '\0');
        want += b + (want[b] != '\0');
    }
}

/* Compares one string attribute of loc with want; -1 when it is missing. */
static int compare_str(hid_t loc, const char *name, const char *what, const char *want, char *diffs,
                       size_t len)
{
    char have[256];
    if (h5file_get_str(loc, name, have, sizeof have) < 0)
        return -1;
    if (strcmp(have, want) != 0)
        h5file_add_diff(diffs, len, "the checkpoint has %s %s, this match %s", what, have, want);
    return 0;
}

/* Compares the checkpoint's match with the expected one; diffs receives every difference. */
static int compare_match(hid_t file, const MatchFileInfo *e, char *diffs, size_t len)
{
    const MatchConfig *c = e->cfg;
    char have[256];
    long long games;
    uint64_t seed;
    hid_t g = H5Gopen2(file, "/match", H5P_DEFAULT);
    char *text = h5file_get_str_alloc(file, "configuration");
    int rc = g < 0 || !text ? -1 : 0;
    if (rc == 0 && h5file_get_str(file, "carrera_version", have, sizeof have) == 0) {
        if (strcmp(have, e->prov->version) != 0)
            h5file_add_diff(diffs, len,
                            "the checkpoint was written by Carrera %s, this is Carrera %s", have,
                            e->prov->version);
    } else {
        rc = -1;
    }
    if (rc == 0)
        rc = compare_str(g, "variant", "variant", c->variant->name, diffs, len);
    if (rc == 0)
        rc =
            compare_str(g, "turn_rules", "turn rules", turn_rules_name(c->rules.turns), diffs, len);
    if (rc == 0)
        rc = compare_str(g, "ep_rule", "en passant rule", ep_rule_name(c->rules.ep), diffs, len);
    if (rc == 0)
        rc = compare_str(g, "player1", "player 1", c->players[0].name, diffs, len);
    if (rc == 0)
        rc = compare_str(g, "player2", "player 2", c->players[1].name, diffs, len);
    if (rc == 0 && h5file_get_int(g, "games", &games) == 0 &&
        h5file_get_u64(g, "seed", &seed) == 0) {
        if (games != c->games)
            h5file_add_diff(diffs, len, "the checkpoint plans %lld games, this match %d", games,
                            c->games);
        if (seed != c->seed)
            h5file_add_diff(diffs, len, "the checkpoint has seed %llu, this match %llu",
                            (unsigned long long)seed, (unsigned long long)c->seed);
    } else {
        rc = -1;
    }
    if (rc == 0)
        compare_text(text, c->text, diffs, len);
    free(text);
    if (g >= 0)
        H5Gclose(g);
    return rc;
}

static int cmp_pair(const void *a, const void *b)
{
    uint64_t x = ((const MatchFilePair *)a)->pair, y = ((const MatchFilePair *)b)->pair;
    return (x > y) - (x < y);
}

static int read_batch(const MatchFile *h, uint64_t start, size_t n, GameRow *rows)
{
    memset(rows, 0, n * sizeof *rows);
    return h5file_read_rows(h->games, h->row_type, start, n, rows);
}

static void reclaim_rows(const MatchFile *h, size_t n, GameRow *rows)
{
    hsize_t dim = n;
    hid_t sp = n ? H5Screate_simple(1, &dim, NULL) : -1;
    if (sp >= 0) {
        reclaim_vlen(h->row_type, sp, H5P_DEFAULT, rows);
        H5Sclose(sp);
    }
}

/* Reads every row into done and h's tally. Rows of the last pair that cannot be read, whose
 * texts are not in the file (heap) or that are incomplete or empty are a pair a kill cut short:
 * *keep receives the rows before them. Any other bad row is a damaged file. */
static int read_games(MatchFile *h, const H5Heap *heap, MatchFileDone *done, uint64_t *keep,
                      char *err, size_t errlen)
{
    const char *path = h->path;
    uint64_t n = h->rows;
    uint64_t last_pair_row = n ? (n - 1) / 2 * 2 : 0; /* the first row of the last pair */
    int64_t good = h5heap_first_bad_row(heap, h->games, n);
    if (good < 0)
        return h5file_fail(err, errlen,
                           "%s: damaged checkpoint (/match/games is not stored as "
                           "Carrera stores it)",
                           path);
    if ((uint64_t)good < last_pair_row)
        return h5file_fail(err, errlen,
                           "%s: damaged checkpoint (row %llu of /match/games: a text "
                           "that is not in the file)",
                           path, (unsigned long long)good);
    done->pairs = malloc((n / 2 + 1) * sizeof *done->pairs);
    GameRow *rows = malloc(BATCH_ROWS * sizeof *rows);
    if (!done->pairs || !rows) {
        free(rows);
        return h5file_fail(err, errlen, "%s: out of memory for %llu games", path,
                           (unsigned long long)n);
    }
    *keep = (uint64_t)good < n ? last_pair_row : n;
    const char *why = NULL;
    uint64_t bad_row = 0;
    for (uint64_t start = 0; start < *keep && !why; start += BATCH_ROWS) {
        size_t cnt = (size_t)(*keep - start < BATCH_ROWS ? *keep - start : BATCH_ROWS);
        if (read_batch(h, start, cnt, rows) < 0) {
            /* the last batch may read without the last pair */
            size_t before = start + cnt < n ? 0 : (size_t)(last_pair_row - start);
            if (start + cnt < n || (before > 0 && read_batch(h, start, before, rows) < 0)) {
                why = "cannot read /match/games";
                bad_row = start;
                break;
            }
            *keep = last_pair_row;
            cnt = before;
        }
        for (size_t i = 0; i < cnt && !why; i += 2) {
            uint64_t row = start + i;
            const GameRow *r = &rows[i];
            if (row + 1 >= *keep) {
                why = "a pair's second game is missing";
            } else if (!(why = row_problem(r, row, h->n_pairs)) &&
                       !(why = row_problem(r + 1, row + 1, h->n_pairs))) {
                if (r[1].pair != r->pair)
                    why = "the two games of a pair have different pair numbers";
                else if (is_done(h, r->pair))
                    why = "a pair appears twice";
            }
            if (why && row == last_pair_row) { /* cut short: dropped */
                *keep = last_pair_row;
                why = NULL;
                break;
            }
            if (why) {
                bad_row = row;
                break;
            }
            MatchFilePair *p = &done->pairs[done->n++];
            *p = (MatchFilePair){ .pair = r->pair };
            for (int k = 0; k < 2; k++) {
                p->score[k] = r[k].player1_score;
                p->ending[k] = ending_named(r[k].termination);
                p->nodes[k] = r[k].nodes_white + r[k].nodes_black;
            }
            count_pair(h, r->pair, p->score);
        }
        reclaim_rows(h, cnt, rows);
    }
    free(rows);
    if (why)
        return h5file_fail(err, errlen, "%s: damaged checkpoint (row %llu of /match/games: %s)",
                           path, (unsigned long long)bad_row, why);
    qsort(done->pairs, done->n, sizeof *done->pairs, cmp_pair);
    done->dropped = (size_t)(n - *keep);
    return 0;
}

/* Brings the copy being resumed to what this run continues: the torn pair dropped, the counts
 * those of the rows, no summary, the resume recorded. */
static int prepare_resume(MatchFile *h, const MatchFileInfo *info, uint64_t keep, uint64_t pairs)
{
    hsize_t dim = keep;
    if (keep != h->rows && H5Dset_extent(h->games, &dim) < 0)
        return -1;
    h->rows = keep;
    if (write_counts(h) < 0)
        return -1;
    hid_t g = H5Gopen2(h->file, "/match", H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < sizeof summary_names / sizeof summary_names[0]; i++)
        if (H5Aexists(g, summary_names[i]) > 0 && H5Adelete(g, summary_names[i]) < 0)
            rc = -1;
    if (H5Gclose(g) < 0)
        rc = -1;
    if (H5Aexists(h->file, "end_time") > 0 && H5Adelete(h->file, "end_time") < 0)
        rc = -1;
    Provenance prov = run_provenance(info);
    if (rc == 0)
        rc = h5file_record_resume(h->file, &prov, "pairs_done_at_start", pairs, &h->run);
    return rc;
}

MatchFile *match_file_open_resume(const char *path, const MatchFileInfo *expected,
                                  MatchFileDone *done, char *err, size_t errlen)
{
    h5file_quiet();
    memset(done, 0, sizeof *done);
    if (check_info(path, expected, err, errlen) < 0)
        return NULL;
    MatchFile *h = match_new(path, (uint64_t)expected->cfg->games / 2, err, errlen);
    if (!h)
        return NULL;
    bool copied = false;
    char diffs[1024] = "";
    uint64_t keep = 0;
    H5Heap *heap = NULL;
    h->file = h5file_open_checked(path, FORMAT_NAME, MATCH_FILE_FORMAT_VERSION, "match checkpoint",
                                  &heap, err, errlen);
    if (h->file < 0)
        goto out;
    if (compare_match(h->file, expected, diffs, sizeof diffs) < 0) {
        h5file_fail(err, errlen, "%s: damaged checkpoint (the match's parameters are missing)",
                    path);
        goto out;
    }
    if (diffs[0]) {
        h5file_fail(err, errlen, "%s: %s", path, diffs);
        goto out;
    }
    if (open_for_records(h) < 0) {
        h5file_fail(err, errlen, "%s: damaged checkpoint (cannot open /match/games)", path);
        goto out;
    }
    int read = read_games(h, heap, done, &keep, err, errlen);
    h5heap_close(heap);
    heap = NULL;
    if (read < 0)
        goto out;
    /* The checkpoint is good: the resume is recorded in a copy that then replaces it. */
    if (close_file(h) < 0) {
        h5file_fail(err, errlen, "cannot close %s", path);
        goto out;
    }
    if ((h->file = h5file_open_copy(path, h->tmp, err, errlen)) < 0)
        goto out;
    copied = true;
    if (open_for_records(h) < 0 || prepare_resume(h, expected, keep, done->n) < 0) {
        h5file_fail(err, errlen, "cannot record the resume in %s", h->tmp);
        goto out;
    }
    if (h5file_flush(h->file, h->tmp, err, errlen) < 0 ||
        h5file_replace_with(h->tmp, path, err, errlen) < 0)
        goto out;
    return h;
out:
    h5heap_close(heap);
    close_file(h);
    if (copied)
        unlink(h->tmp);
    match_file_done_free(done);
    match_free(h);
    return NULL;
}

void match_file_done_free(MatchFileDone *done)
{
    free(done->pairs);
    memset(done, 0, sizeof *done);
}

bool match_file_done_has(const MatchFileDone *done, uint64_t pair)
{
    MatchFilePair key = { .pair = pair };
    return done->n && bsearch(&key, done->pairs, done->n, sizeof key, cmp_pair);
}

int match_file_resume_count(const MatchFile *h) { return h->run; }

/* ---- recording and finishing ---- */

/* What appending the pair in rows may add to the file at most: a new chunk, its texts in the
 * global heap (twice over, for a new collection's headers and rounding), the slack. */
static size_t append_bytes(const GameRow rows[2])
{
    size_t texts = 0;
    for (int k = 0; k < 2; k++)
        texts += strlen(rows[k].moves) + (rows[k].detail ? strlen(rows[k].detail) : 0);
    return CHUNK_ROWS * sizeof(GameRow) + 2 * texts + ROOM_SLACK;
}

/* Claims bytes past the end of the file and gives them back (see the top of the file): 0 when
 * they were there, or -1 with a message naming what would have been written, `what`. A file
 * system that cannot claim space (posix_fallocate unsupported) is written as before. */
static int check_room(const MatchFile *h, size_t bytes, const char *what, char *err, size_t errlen)
{
    void *handle = NULL;
    struct stat st;
    if (H5Fget_vfd_handle(h->file, H5P_DEFAULT, &handle) < 0 || !handle)
        return 0;
    int fd = *(int *)handle;
    if (fstat(fd, &st) != 0)
        return 0;
    /* The file holds only what the last flush wrote: its size is HDF5's end of file. */
    int rc = posix_fallocate(fd, st.st_size, (off_t)bytes);
    if (ftruncate(fd, st.st_size) != 0 && rc == 0)
        rc = errno;
    if (rc == 0 || rc == EINVAL || rc == EOPNOTSUPP)
        return 0;
    return h5file_fail(
        err, errlen,
        "no room to write %s to %s (%zu bytes): %s; the file keeps what was recorded "
        "before",
        what, h->path, bytes, strerror(rc));
}

int match_file_record_pair(MatchFile *h, uint64_t pair, const GameRecord g[2], char *err,
                           size_t errlen)
{
    h5file_quiet();
    unsigned long long p = (unsigned long long)pair;
    if (pair >= h->n_pairs)
        return h5file_fail(err, errlen, "%s: pair %llu is not in the match (%llu pairs)", h->path,
                           p, (unsigned long long)h->n_pairs);
    if (is_done(h, pair))
        return h5file_fail(err, errlen, "%s: pair %llu is recorded already", h->path, p);
    for (int k = 0; k < 2; k++)
        if (g[k].result < -1 || g[k].result > 1 || g[k].ending >= END_NB)
            return h5file_fail(err, errlen, "%s: game %d of pair %llu has no valid result", h->path,
                               k + 1, p);
    GameRow rows[2];
    fill_row(&rows[0], pair, 0, &g[0]);
    fill_row(&rows[1], pair, 1, &g[1]);
    int rc = 0;
    char what[48];
    snprintf(what, sizeof what, "pair %llu", p);
    if (!rows[0].moves || !rows[1].moves) {
        rc = h5file_fail(err, errlen, "%s: out of memory writing pair %llu", h->path, p);
    } else if (check_room(h, append_bytes(rows), what, err, errlen) < 0) {
        rc = -1;
    } else {
        hsize_t dim = h->rows + 2;
        if (H5Dset_extent(h->games, &dim) < 0 ||
            h5file_write_rows(h->games, h->row_type, h->rows, 2, rows) < 0) {
            rc = h5file_fail(err, errlen, "cannot write pair %llu to %s", p, h->path);
            dim = h->rows; /* the file as it was, if HDF5 still can */
            H5Dset_extent(h->games, &dim);
        }
    }
    free(rows[0].moves);
    free(rows[1].moves);
    if (rc != 0)
        return rc;
    h->rows += 2;
    double score[2] = { rows[0].player1_score, rows[1].player1_score };
    count_pair(h, pair, score);
    if (write_counts(h) < 0)
        return h5file_fail(err, errlen, "cannot write the pair counts to %s", h->path);
    return h5file_flush(h->file, h->path, err, errlen);
}

static const char *stop_reason(const MatchFile *h, const Sprt *sprt, uint64_t pairs)
{
    if (sprt && sprt->decision == SPRT_ACCEPT_H0)
        return "SPRT accepted H0";
    if (sprt && sprt->decision == SPRT_ACCEPT_H1)
        return "SPRT accepted H1";
    return pairs == h->n_pairs ? "all games played" : "interrupted";
}

/* v, or NaN when there were no games to compute it from. */
static double unless_none(bool any, double v) { return any ? v : NAN; }

static int write_summary(MatchFile *h, const MatchFileSummary *s, const char *end)
{
    TrinomialStats tri;
    PentanomialStats penta;
    bool any = stats_trinomial(h->wins, h->draws, h->losses, &tri);
    stats_pentanomial(h->counts, &penta);
    uint64_t pairs = penta.pairs;
    hid_t g = H5Gopen2(h->file, "/match", H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = 0;
    rc |= h5file_put_u64(g, "wins", h->wins);
    rc |= h5file_put_u64(g, "draws", h->draws);
    rc |= h5file_put_u64(g, "losses", h->losses);
    rc |= h5file_put_f64(g, "score", unless_none(any, tri.score));
    rc |= h5file_put_f64(g, "elo", unless_none(any, tri.elo));
    rc |= h5file_put_f64(g, "elo_lo", unless_none(any, tri.elo_lo));
    rc |= h5file_put_f64(g, "elo_hi", unless_none(any, tri.elo_hi));
    rc |= h5file_put_f64(g, "elo_pair", unless_none(any, penta.elo));
    rc |= h5file_put_f64(g, "elo_pair_lo", unless_none(any, penta.elo_lo));
    rc |= h5file_put_f64(g, "elo_pair_hi", unless_none(any, penta.elo_hi));
    rc |= h5file_put_f64(g, "nelo", unless_none(any, penta.nelo));
    rc |= h5file_put_f64(g, "los", unless_none(any, tri.los));
    rc |= h5file_put_f64(g, "draw_ratio", unless_none(any, tri.draw_ratio));
    rc |= h5file_put_u64(g, "games_played", 2 * pairs);
    rc |= h5file_put_u64(g, "pairs_played", pairs);
    rc |= h5file_put_str(g, "stop_reason",
                         s->stop_reason ? s->stop_reason : stop_reason(h, s->sprt, pairs));
    if (s->sprt) {
        const Sprt *t = s->sprt;
        rc |= h5file_put_f64(g, "sprt_elo0", t->elo0);
        rc |= h5file_put_f64(g, "sprt_elo1", t->elo1);
        rc |= h5file_put_f64(g, "sprt_alpha", t->alpha);
        rc |= h5file_put_f64(g, "sprt_beta", t->beta);
        /* over the pairs in the file, which the caller's last update may not have seen */
        rc |= h5file_put_f64(g, "sprt_llr", stats_sprt_llr(h->counts, t->elo0, t->elo1));
        rc |= h5file_put_f64(g, "sprt_lower", t->lower);
        rc |= h5file_put_f64(g, "sprt_upper", t->upper);
    }
    if (H5Gclose(g) < 0)
        rc = -1;
    if (rc == 0 && s->tune)
        rc = tune_group_write(h->file, s->tune);
    if (rc == 0)
        rc = h5file_put_end_time(h->file, h->run, end);
    return rc ? -1 : 0;
}

int match_file_finish(MatchFile *h, const MatchFileSummary *s, char *err, size_t errlen)
{
    h5file_quiet();
    char now[PROV_TIME_MAX];
    const char *end = s->end_time;
    if (!end) {
        provenance_now(now);
        end = now;
    }
    /* The checkpoint complete on disk, the summary is written to a copy that replaces it. */
    int rc = h5file_flush(h->file, h->path, err, errlen);
    if (rc == 0 && close_file(h) < 0)
        rc = h5file_fail(err, errlen, "cannot close %s", h->path);
    if (rc == 0 && (h->file = h5file_open_copy(h->path, h->tmp, err, errlen)) < 0)
        rc = -1;
    bool copied = rc == 0;
    if (rc == 0 && write_summary(h, s, end) < 0)
        rc = h5file_fail(err, errlen, "cannot write the summary to %s", h->tmp);
    else if (rc == 0 && close_file(h) < 0)
        rc = h5file_fail(err, errlen, "cannot write %s", h->tmp);
    if (rc == 0)
        rc = h5file_replace_with(h->tmp, h->path, err, errlen);
    if (rc != 0 && copied) {
        close_file(h);
        h5file_drop_copy(h->tmp, h->path, "game", err, errlen);
    }
    match_free(h);
    return rc;
}

int match_file_close(MatchFile *h, char *err, size_t errlen)
{
    h5file_quiet();
    int rc = h5file_flush(h->file, h->path, err, errlen);
    if (close_file(h) < 0 && rc == 0)
        rc = h5file_fail(err, errlen, "cannot close %s", h->path);
    match_free(h);
    return rc;
}

int match_file_write_tune(MatchFile *h, const Tuner *t, char *err, size_t errlen)
{
    h5file_quiet();
    /* /tune is written anew: its arrays grow with the stages */
    size_t per_stage = TUNE_MAX_PARAMS * (sizeof(double) + sizeof(int8_t)) + sizeof(double);
    size_t bytes = (size_t)(t->cfg->stages + 1) * per_stage +
                   (size_t)t->n_iterations * sizeof(TuneIteration) + ROOM_SLACK;
    if (check_room(h, bytes, "/tune", err, errlen) < 0)
        return -1;
    if (tune_group_write(h->file, t) != 0)
        return h5file_fail(err, errlen, "cannot write /tune to %s", h->path);
    return h5file_flush(h->file, h->path, err, errlen);
}

int match_file_flush(MatchFile *h, char *err, size_t errlen)
{
    h5file_quiet();
    return h5file_flush(h->file, h->path, err, errlen);
}
