/* SPDX-License-Identifier: MIT */
/* The HDF5 result file of a match (cluster/h5/match_file.c): pairs of real short games (random
 * legal turns, Marseillais double moves included) appended, read back with the plain HDF5 API
 * against the layout docs/result-files.md documents, closed or killed and resumed, finished with a
 * summary. Mismatching matches, files that are not match checkpoints, a pair cut short by a kill,
 * damaged rows and unwritable places must give clear messages. */
#define _XOPEN_SOURCE 700

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <hdf5.h>

#include "errmsg.h"
#include "files.h"
#include "h5read.h"
#include "game.h"
#include "match_file.h"
#include "match_config.h"
#include "game_record.h"
#include "position.h"
#include "provenance.h"
#include "match_games.h"
#include "rng.h"
#include "setup.h"
#include "stats.h"
#include "turn.h"
#include "variant.h"

static const char *const hosts[] = { "node-a", "node-b" };

/* Two openings for each board width, castling rights as KQkq (as the result file writes them). */
static const char *const openings[2][2] = {
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rnbqkbnr/pppp1ppp/8/4p3/5P2/8/PPPPP1PP/RNBQKBNR w KQkq - 0 2" },
    { "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
      "rnabqkbcnr/pppp1ppppp/10/4p5/5P4/10/PPPPP1PPPP/RNABQKBCNR w KQkq - 0 2" },
};

/* The opening of pair p. */
static const char *opening(const MatchConfig *c, uint64_t p)
{
    return openings[c->variant->files == 10][p % 2];
}

/* A match: its configuration (as match_config_read would give it) and provenance. */
typedef struct Match {
    char text[512];
    MatchConfig cfg;
    Provenance prov;
    MatchFileInfo info;
} Match;

static void match_make(Match *m, const char *variant, TurnRules turns, int games)
{
    memset(m, 0, sizeof *m);
    snprintf(m->text, sizeof m->text,
             "[match]\nvariant = %s\nturns = %s\ngames = %d\nseed = 7\n"
             "[player1]\nname = alpha\nnodes = 1000\n[player2]\nname = beta\nnodes = 2000\n",
             variant, turn_rules_name(turns), games);
    MatchConfig *c = &m->cfg;
    c->file = "match.ini";
    c->text = m->text;
    c->variant = variant_by_name(variant);
    assert_non_null(c->variant);
    c->rules = (Rules){ turns, EP_CLASSIC };
    c->games = games;
    c->seed = 7;
    snprintf(c->players[0].name, sizeof c->players[0].name, "alpha");
    snprintf(c->players[1].name, sizeof c->players[1].name, "beta");
    /* the file must keep the match's text, whatever the provenance says */
    provenance_init(&m->prov, 2, 3, hosts, 2, "carrera match --config match.ini");
    m->info = (MatchFileInfo){ .cfg = c, .prov = &m->prov };
}

/* Plays up to `turns` random legal turns from fen into r, then gives it result and ending. */
static void random_game(GameRecord *r, const Match *m, const char *fen, uint64_t seed, int turns,
                        int result, GameEnding ending)
{
    memset(r, 0, sizeof *r);
    Setup s;
    Position start;
    char err[ERRMSG_LEN];
    assert_int_equal(setup_from_fen_rules(&s, m->cfg.variant, &m->cfg.rules, fen, err, sizeof err),
                     0);
    position_from_setup(&start, &s);
    assert_true(game_init(&r->game, &start, &m->cfg.rules, false));
    Rng rng = rng_new(seed);
    TurnList list = { 0 };
    for (int i = 0; i < turns; i++) {
        assert_true(position_turns(&r->game.pos, &m->cfg.rules, &list));
        if (list.n == 0)
            break;
        assert_true(game_play(&r->game, &list.v[rng_below(&rng, list.n)]));
    }
    turn_list_free(&list);
    r->result = result;
    r->ending = ending;
    r->loser_fault = -1;
    if (ending == END_ILLEGAL)
        snprintf(r->detail, sizeof r->detail, "bestmove \"z9z9\" is not legal");
    r->nodes[WHITE] = 1000 * seed + 1;
    r->nodes[BLACK] = 2000 * seed + 2;
    r->seconds[WHITE] = 0.25 * (double)seed;
    r->seconds[BLACK] = 0.5 * (double)seed;
    game_record_count_material(r);
}

/* Pair p's games: results chosen so that the pairs land in different pentanomial classes. */
static void make_pair(GameRecord g[2], const Match *m, uint64_t p)
{
    static const int results[][2] = { { 1, 1 }, { 0, -1 }, { -1, 1 }, { 0, 0 }, { -1, -1 } };
    static const GameEnding decisive[] = { END_RESIGN, END_CHECKMATE, END_ILLEGAL };
    static const GameEnding drawn[] = { END_DRAW, END_MAX_LENGTH, END_REPETITION };
    const char *fen = opening(&m->cfg, p);
    for (int k = 0; k < 2; k++) {
        int res = results[p % 5][k];
        uint64_t e = (p + (uint64_t)k) % 3;
        random_game(&g[k], m, fen, 10 * p + (uint64_t)k + 1, 4 + (int)(p % 3), res,
                    res ? decisive[e] : drawn[e]);
    }
}

static void free_pair(GameRecord g[2])
{
    game_record_free(&g[0]);
    game_record_free(&g[1]);
}

/* Player 1's score in game k of a pair (player 1 is White in the first). */
static double p1_score(int k, int result)
{
    double white = result == 1 ? 1 : result == 0 ? 0.5 : 0;
    return k == 0 ? white : 1 - white;
}

static void record(MatchFile *h, const Match *m, uint64_t p)
{
    GameRecord g[2];
    char err[ERRMSG_LEN];
    make_pair(g, m, p);
    if (match_file_record_pair(h, p, g, err, sizeof err) != 0)
        fail_msg("%s", err);
    free_pair(g);
}

static void path_in(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", scratch_dir, name);
}

/* ---- reading the file back with the plain HDF5 API, as the README describes it ---- */

static void attr_str(hid_t loc, const char *name, char *out, size_t len)
{
    h5read_str(loc, name, out, len);
}

static long long attr_int(hid_t loc, const char *name)
{
    long long v = -1;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0)
        fail_msg("no attribute %s", name);
    assert_true(H5Aread(a, H5T_NATIVE_LLONG, &v) >= 0);
    H5Aclose(a);
    return v;
}

static double attr_f64(hid_t loc, const char *name)
{
    double v = 0;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0)
        fail_msg("no attribute %s", name);
    assert_true(H5Aread(a, H5T_NATIVE_DOUBLE, &v) >= 0);
    H5Aclose(a);
    return v;
}

static void assert_iso_time(const char *t)
{
    assert_int_equal(strlen(t), 20);
    assert_int_equal(t[4], '-');
    assert_int_equal(t[10], 'T');
    assert_int_equal(t[19], 'Z');
}

/* The provenance attributes of loc (the root group or /resumes/K). */
static void check_provenance(hid_t loc, const Match *m)
{
    char s[1024];
    attr_str(loc, "carrera_version", s, sizeof s);
    assert_string_equal(s, CARRERA_VERSION);
    attr_str(loc, "git_revision", s, sizeof s);
    assert_true(strlen(s) > 0);
    attr_str(loc, "compiler", s, sizeof s);
    assert_true(strlen(s) > 0);
    attr_str(loc, "build_flags", s, sizeof s);
    assert_string_equal(s, CARRERA_BUILD_FLAGS);
    assert_int_equal(attr_int(loc, "ranks"), 2);
    assert_int_equal(attr_int(loc, "threads_per_rank"), 3);
    attr_str(loc, "configuration", s, sizeof s);
    assert_string_equal(s, m->text);
    attr_str(loc, "start_time", s, sizeof s);
    assert_iso_time(s);

    size_t n;
    char **names = h5read_strs(loc, "hosts", &n);
    assert_int_equal(n, 2);
    assert_string_equal(names[0], "node-a");
    assert_string_equal(names[1], "node-b");
    h5read_strs_free(names, n);
}

typedef struct FileGame {
    uint64_t pair, nodes_white, nodes_black, moves_offset;
    uint8_t game, white;
    int8_t result;
    uint32_t plies, moves_length;
    double player1_score, seconds_white, seconds_black;
    int16_t material[2][7];
    char opening[FEN_MAX];
    char termination[32];
    char detail[256];
    char *moves; /* read from /match/moves */
} FileGame;

static hid_t fixed_string(size_t n)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, n);
    return t;
}

/* Reads /match/games of the open file f and each row's moves; *n receives the rows. The moves
 * of the rows follow one another in /match/moves, which holds nothing else. Free with
 * free_games. */
static FileGame *read_games(hid_t f, size_t *n)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(FileGame));
    hid_t fen = fixed_string(FEN_MAX), term = fixed_string(32), detail = fixed_string(256);
    hsize_t dims[2] = { 2, 7 };
    hid_t mat = H5Tarray_create2(H5T_NATIVE_INT16, 2, dims);
#define M(name, type) H5Tinsert(t, #name, offsetof(FileGame, name), type)
    M(pair, H5T_NATIVE_UINT64);
    M(game, H5T_NATIVE_UINT8);
    M(opening, fen);
    M(white, H5T_NATIVE_UINT8);
    M(result, H5T_NATIVE_INT8);
    M(player1_score, H5T_NATIVE_DOUBLE);
    M(termination, term);
    M(detail, detail);
    M(plies, H5T_NATIVE_UINT32);
    M(nodes_white, H5T_NATIVE_UINT64);
    M(nodes_black, H5T_NATIVE_UINT64);
    M(seconds_white, H5T_NATIVE_DOUBLE);
    M(seconds_black, H5T_NATIVE_DOUBLE);
    M(material, mat);
    M(moves_offset, H5T_NATIVE_UINT64);
    M(moves_length, H5T_NATIVE_UINT32);
#undef M
    hid_t d = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t sp = H5Dget_space(d);
    hsize_t dim = 0;
    assert_int_equal(H5Sget_simple_extent_dims(sp, &dim, NULL), 1);
    FileGame *rows = calloc(dim + 1, sizeof *rows);
    assert_non_null(rows);
    if (dim)
        assert_true(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) >= 0);
    uint64_t at = 0;
    for (hsize_t i = 0; i < dim; i++) {
        assert_true(rows[i].moves_offset == at);
        at += rows[i].moves_length;
        rows[i].moves = h5read_moves(f, i);
        assert_int_equal(strlen(rows[i].moves), rows[i].moves_length);
    }
    hid_t m = H5Dopen2(f, "/match/moves", H5P_DEFAULT);
    hid_t ms = H5Dget_space(m), mt = H5Dget_type(m);
    hsize_t bytes = 0;
    assert_int_equal(H5Sget_simple_extent_dims(ms, &bytes, NULL), 1);
    assert_true(bytes == at);
    assert_true(H5Tget_class(mt) == H5T_INTEGER && H5Tget_size(mt) == 1);
    H5Tclose(mt);
    H5Sclose(ms);
    H5Dclose(m);
    H5Sclose(sp);
    H5Dclose(d);
    hid_t types[] = { t, fen, term, detail, mat };
    for (int i = 0; i < 5; i++)
        H5Tclose(types[i]);
    *n = (size_t)dim;
    return rows;
}

static void free_games(FileGame *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(rows[i].moves);
    free(rows);
}

static void read_counts(hid_t f, uint64_t counts[PAIR_CLASSES])
{
    hid_t d = H5Dopen2(f, "/match/pentanomial", H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t sp = H5Dget_space(d);
    assert_int_equal(H5Sget_simple_extent_npoints(sp), PAIR_CLASSES);
    assert_true(H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, counts) >= 0);
    H5Sclose(sp);
    H5Dclose(d);
}

/* Checks row against game k of pair p: every column, the moves by replaying them. */
static void check_row(const FileGame *row, const Match *m, uint64_t p, int k, const GameRecord *r)
{
    assert_true(row->pair == p);
    assert_int_equal(row->game, k + 1);
    assert_int_equal(row->white, k + 1);
    assert_string_equal(row->opening, opening(&m->cfg, p));
    assert_int_equal(row->result, r->result);
    assert_true(row->player1_score == p1_score(k, r->result));
    assert_string_equal(row->termination, game_ending_name(r->ending));
    assert_string_equal(row->detail, r->detail);
    assert_int_equal(row->plies, r->game.n_turns);
    assert_true(row->nodes_white == r->nodes[WHITE] && row->nodes_black == r->nodes[BLACK]);
    assert_true(row->seconds_white == r->seconds[WHITE]);
    assert_true(row->seconds_black == r->seconds[BLACK]);
    static const PieceType order[7] = { PAWN, KNIGHT, BISHOP, ROOK, ARCHBISHOP, CHANCELLOR, QUEEN };
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < 7; t++)
            assert_int_equal(row->material[c][t], r->material[c][order[t]]);

    /* the moves, replayed from the opening, reach the game's final position */
    Setup s;
    Position start;
    char err[ERRMSG_LEN];
    assert_int_equal(
        setup_from_fen_rules(&s, m->cfg.variant, &m->cfg.rules, row->opening, err, sizeof err), 0);
    position_from_setup(&start, &s);
    Game g;
    assert_true(game_init(&g, &start, &m->cfg.rules, false));
    char *moves = strdup(row->moves);
    size_t n = 0;
    for (char *tok = strtok(moves, " "); tok; tok = strtok(NULL, " "), n++) {
        if (m->cfg.rules.turns == TURNS_SINGLE)
            assert_null(strchr(tok, ','));
        if (!game_play_text(&g, tok))
            fail_msg("turn %zu '%s' of '%s' is not legal", n + 1, tok, row->moves);
    }
    assert_int_equal(n, r->game.n_turns);
    assert_true(position_key128(&g.pos) == position_key128(&r->game.pos));
    free(moves);
    game_free(&g);
}

/* Checks the open file f's header against m, and its games against pairs[0..n) (recorded in
 * that order), then the counts. */
static void check_file(hid_t f, const Match *m, const uint64_t *pairs, size_t n, int resumes)
{
    char s[1024];
    attr_str(f, "format", s, sizeof s);
    assert_string_equal(s, "carrera-match");
    assert_int_equal(attr_int(f, "format_version"), MATCH_FILE_FORMAT_VERSION);
    assert_int_equal(attr_int(f, "resumed"), resumes);
    check_provenance(f, m);
    for (int k = 1; k <= resumes; k++) {
        snprintf(s, sizeof s, "/resumes/%d", k);
        hid_t r = H5Gopen2(f, s, H5P_DEFAULT);
        assert_true(r >= 0);
        check_provenance(r, m);
        assert_true(H5Aexists(r, "pairs_done_at_start") > 0);
        H5Gclose(r);
    }

    hid_t g = H5Gopen2(f, "/match", H5P_DEFAULT);
    assert_true(g >= 0);
    attr_str(g, "variant", s, sizeof s);
    assert_string_equal(s, m->cfg.variant->name);
    attr_str(g, "turn_rules", s, sizeof s);
    assert_string_equal(s, turn_rules_name(m->cfg.rules.turns));
    attr_str(g, "ep_rule", s, sizeof s);
    assert_string_equal(s, ep_rule_name(m->cfg.rules.ep));
    assert_int_equal(attr_int(g, "games"), m->cfg.games);
    attr_str(g, "player1", s, sizeof s);
    assert_string_equal(s, "alpha");
    attr_str(g, "player2", s, sizeof s);
    assert_string_equal(s, "beta");
    assert_int_equal(attr_int(g, "seed"), 7);
    H5Gclose(g);

    size_t rows;
    FileGame *row = read_games(f, &rows);
    assert_int_equal(rows, 2 * n);
    uint64_t want[PAIR_CLASSES] = { 0 }, have[PAIR_CLASSES];
    bool double_move = false;
    for (size_t i = 0; i < n; i++) {
        GameRecord games[2];
        make_pair(games, m, pairs[i]);
        for (int k = 0; k < 2; k++) {
            check_row(&row[2 * i + k], m, pairs[i], k, &games[k]);
            double_move |= strchr(row[2 * i + k].moves, ',') != NULL;
        }
        want[stats_pair_class(p1_score(0, games[0].result), p1_score(1, games[1].result))]++;
        free_pair(games);
    }
    assert_int_equal(double_move, m->cfg.rules.turns != TURNS_SINGLE && n > 0);
    free_games(row, rows);
    read_counts(f, have);
    assert_memory_equal(have, want, sizeof want);
}

static void check_path(const char *path, const Match *m, const uint64_t *pairs, size_t n,
                       int resumes)
{
    h5read_no_global_heap(path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    check_file(f, m, pairs, n, resumes);
    H5Fclose(f);
}

/* ---- the tests ---- */

/* Copies the file at path, open or not, to path.snap: what a kill would leave of it now. */
static void snapshot(const char *path, char *snap, size_t len)
{
    snprintf(snap, len, "%s.snap", path);
    size_t n;
    void *bytes = read_bytes(path, &n);
    write_bytes(snap, bytes, n);
    free(bytes);
}

/* A new file holds the header and nothing else; pairs recorded in any order are rows in that
 * order, each flushed: a copy of the open file holds them all. */
static void test_create_and_record(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "capablanca", TURNS_MARSEILLAIS, 10);
    char path[300], snap[310], err[512];
    path_in(path, sizeof path, "record.h5");
    MatchFile *h = match_file_create(path, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    snapshot(path, snap, sizeof snap);
    check_path(snap, &m, NULL, 0, 0);
    const uint64_t order[] = { 2, 0, 4, 1, 3 };
    for (size_t i = 0; i < 5; i++) {
        record(h, &m, order[i]);
        snapshot(path, snap, sizeof snap);
        check_path(snap, &m, order, i + 1, 0);
    }
    assert_int_equal(match_file_resume_count(h), 0);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    check_path(path, &m, order, 5, 0);
}

static void check_done(const MatchFileDone *done, const Match *m, const uint64_t *pairs, size_t n)
{
    assert_int_equal(done->n, n);
    for (size_t i = 0; i < n; i++) {
        const MatchFilePair *p = &done->pairs[i];
        assert_true(p->pair == pairs[i]);
        assert_true(match_file_done_has(done, pairs[i]));
        GameRecord g[2];
        make_pair(g, m, pairs[i]);
        for (int k = 0; k < 2; k++) {
            assert_true(p->score[k] == p1_score(k, g[k].result));
            assert_int_equal(p->ending[k], g[k].ending);
            assert_true(p->nodes[k] == g[k].nodes[WHITE] + g[k].nodes[BLACK]);
        }
        free_pair(g);
    }
}

/* Closed without finishing, the file resumes with exactly its pairs, takes more, refuses a pair
 * twice, and resumes again. */
static void test_close_and_resume(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "chess", TURNS_SINGLE, 12);
    char path[300], err[512];
    path_in(path, sizeof path, "resume.h5");
    MatchFile *h = match_file_create(path, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    record(h, &m, 3);
    record(h, &m, 0);
    record(h, &m, 5);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);

    MatchFileDone done;
    h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(match_file_resume_count(h), 1);
    check_done(&done, &m, (const uint64_t[]){ 0, 3, 5 }, 3);
    assert_false(match_file_done_has(&done, 1));
    assert_false(match_file_done_has(&done, 6));
    assert_int_equal(done.dropped, 0);
    match_file_done_free(&done);

    GameRecord g[2];
    make_pair(g, &m, 3);
    assert_int_equal(match_file_record_pair(h, 3, g, err, sizeof err), -1);
    assert_contains(err, "pair 3 is recorded already");
    assert_int_equal(match_file_record_pair(h, 6, g, err, sizeof err), -1);
    assert_contains(err, "pair 6 is not in the match (6 pairs)");
    g[0].result = 2;
    assert_int_equal(match_file_record_pair(h, 1, g, err, sizeof err), -1);
    assert_contains(err, "game 1 of pair 1 has no valid result");
    free_pair(g);
    record(h, &m, 1);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    check_path(path, &m, (const uint64_t[]){ 3, 0, 5, 1 }, 4, 1);

    h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(match_file_resume_count(h), 2);
    check_done(&done, &m, (const uint64_t[]){ 0, 1, 3, 5 }, 4);
    match_file_done_free(&done);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    check_path(path, &m, (const uint64_t[]){ 3, 0, 5, 1 }, 4, 2);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t r1 = H5Gopen2(f, "/resumes/1", H5P_DEFAULT), r2 = H5Gopen2(f, "/resumes/2", H5P_DEFAULT);
    assert_int_equal(attr_int(r1, "pairs_done_at_start"), 3);
    assert_int_equal(attr_int(r2, "pairs_done_at_start"), 4);
    H5Gclose(r1);
    H5Gclose(r2);
    H5Fclose(f);
}

/* Killed with SIGKILL between pairs (no close), the file resumes with every pair recorded. */
static void test_killed_and_resumed(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "capablanca", TURNS_BALANCED, 8);
    char path[300], err[512];
    path_in(path, sizeof path, "killed.h5");
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        MatchFile *h = match_file_create(path, &m.info, err, sizeof err);
        if (!h)
            _exit(2);
        for (uint64_t p = 0; p < 3; p++) {
            GameRecord g[2];
            make_pair(g, &m, p);
            if (match_file_record_pair(h, p, g, err, sizeof err) != 0)
                _exit(3);
            free_pair(g);
        }
        raise(SIGKILL);
        _exit(4);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGKILL);

    MatchFileDone done;
    MatchFile *h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    check_done(&done, &m, (const uint64_t[]){ 0, 1, 2 }, 3);
    match_file_done_free(&done);
    record(h, &m, 3);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    check_path(path, &m, (const uint64_t[]){ 0, 1, 2, 3 }, 4, 1);
}

/* Adds rows to /match/games as a kill during a flush could leave them: written as far as the
 * dataset's size, their contents never (HDF5's fill values). */
static void grow_games(const char *path, hsize_t extra)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    hid_t sp = H5Dget_space(d);
    hsize_t dim;
    H5Sget_simple_extent_dims(sp, &dim, NULL);
    dim += extra;
    assert_true(H5Dset_extent(d, &dim) >= 0);
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
}

/* A pair cut short at the end is dropped (to be played again); a bad row elsewhere is damage. */
static void test_torn_and_damaged(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "chess", TURNS_SINGLE, 10);
    char path[300], err[512];
    path_in(path, sizeof path, "torn.h5");
    MatchFile *h = match_file_create(path, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    record(h, &m, 0);
    record(h, &m, 1);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);

    for (hsize_t extra = 1; extra <= 2; extra++) {
        grow_games(path, extra);
        MatchFileDone done;
        h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
        if (!h)
            fail_msg("%s", err);
        assert_int_equal(done.dropped, extra);
        check_done(&done, &m, (const uint64_t[]){ 0, 1 }, 2);
        match_file_done_free(&done);
        assert_int_equal(match_file_close(h, err, sizeof err), 0);
        check_path(path, &m, (const uint64_t[]){ 0, 1 }, 2, (int)extra);
    }

    /* the first game of pair 0 says it is a second game */
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    hid_t t = H5Tcreate(H5T_COMPOUND, 1);
    H5Tinsert(t, "game", 0, H5T_NATIVE_UINT8);
    hid_t fs = H5Dget_space(d);
    hsize_t off = 0, one = 1;
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &one, NULL);
    hid_t ms = H5Screate_simple(1, &one, NULL);
    uint8_t two = 2;
    assert_true(H5Dwrite(d, t, ms, fs, H5P_DEFAULT, &two) >= 0);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Tclose(t);
    H5Dclose(d);
    H5Fclose(f);
    MatchFileDone done;
    assert_null(match_file_open_resume(path, &m.info, &done, err, sizeof err));
    assert_contains(err,
                    "damaged checkpoint (row 0 of /match/games: the games of a pair are not in "
                    "order)");
    assert_null(done.pairs);
}

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

/* Writes value (of memory type t) into column of row of /match/games in the file at path. */
static void poke_column(const char *path, hsize_t row, const char *column, hid_t t,
                        const void *value)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t mt = H5Tcreate(H5T_COMPOUND, H5Tget_size(t));
    H5Tinsert(mt, column, 0, t);
    hid_t fs = H5Dget_space(d);
    hsize_t one = 1;
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, &row, NULL, &one, NULL);
    hid_t ms = H5Screate_simple(1, &one, NULL);
    assert_true(H5Dwrite(d, mt, ms, fs, H5P_DEFAULT, value) >= 0);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Tclose(mt);
    H5Dclose(d);
    H5Fclose(f);
}

/* Sets /match/moves of the file at path to bytes bytes (the ones kept unchanged). */
static void resize_moves(const char *path, hsize_t bytes)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/match/moves", H5P_DEFAULT);
    assert_true(d >= 0 && H5Dset_extent(d, &bytes) >= 0);
    H5Dclose(d);
    H5Fclose(f);
}

/* Overwrites byte at of /match/moves with c. */
static void poke_moves(const char *path, hsize_t at, unsigned char c)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/match/moves", H5P_DEFAULT);
    hid_t fs = H5Dget_space(d);
    hsize_t one = 1;
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, &at, NULL, &one, NULL);
    hid_t ms = H5Screate_simple(1, &one, NULL);
    assert_true(H5Dwrite(d, H5T_NATIVE_UCHAR, ms, fs, H5P_DEFAULT, &c) >= 0);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Dclose(d);
    H5Fclose(f);
}

/* The moves_offset and moves_length of every row of the file at path (up to 8 rows). */
static void moves_refs(const char *path, uint64_t offset[8], uint32_t length[8])
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    size_t n;
    FileGame *rows = read_games(f, &n);
    assert_true(n <= 8);
    for (size_t i = 0; i < n; i++) {
        offset[i] = rows[i].moves_offset;
        length[i] = rows[i].moves_length;
    }
    free_games(rows, n);
    H5Fclose(f);
}

/* The file at path is refused by a resume and by the regression's reader, both naming row and
 * want. */
static void assert_refused(const char *path, const Match *m, uint64_t row, const char *want)
{
    char err[ERRMSG_LEN], where[64];
    snprintf(where, sizeof where, "row %llu of /match/games: ", (unsigned long long)row);
    MatchFileDone done;
    assert_null(match_file_open_resume(path, &m->info, &done, err, sizeof err));
    assert_contains(err, "damaged checkpoint");
    assert_contains(err, where);
    assert_contains(err, want);
    assert_null(done.pairs);
    RegressionData rd;
    const char *paths[] = { path };
    assert_int_equal(match_games_sample(paths, 1, 0, &rd, err, sizeof err), -1);
    assert_contains(err, where);
    assert_contains(err, want);
    assert_null(rd.samples);
}

/* The moves of /match/games are bytes of /match/moves that each row names by offset and length
 * (the variable-length strings of layout 1 made HDF5 allocate what a damaged length said, or
 * crash on a damaged heap reference: tests/fuzz/h5.c found both). Damaged offsets and lengths
 * (out of range, overlapping, leaving a gap, past the end of the dataset or of the file) and
 * bytes that are not text are refused by a resume and by the regression's reader before
 * anything is allocated or read for them; in the last pair they are a pair cut short, dropped,
 * its bytes given back, and played again. */
static void test_damaged_texts(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "chess", TURNS_SINGLE, 10);
    char good[300], path[300], err[512];
    path_in(good, sizeof good, "texts.h5");
    path_in(path, sizeof path, "texts-damaged.h5");
    MatchFile *h = match_file_create(good, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    for (uint64_t p = 0; p < 3; p++)
        record(h, &m, p);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    size_t size;
    unsigned char *bytes = read_bytes(good, &size);
    unsigned char *copy = malloc(size);
    assert_non_null(copy);
    uint64_t off[8];
    uint32_t len[8];
    moves_refs(good, off, len);
    uint64_t end = off[5] + len[5];

    static const struct {
        hsize_t row;
        int length;     /* 1: set moves_length, 0: moves_offset */
        uint64_t value; /* UINT64_MAX: the next row's offset minus one (an overlap) */
        const char *want;
    } damage[] = {
        { 1, 1, 0xfffffff0u, "lie past the end of /match/moves" }, /* a length of 4 GB */
        { 2, 0, 1ull << 40, "not where the game before them ended" },
        { 3, 0, 0, "not where the game before them ended" },          /* overlapping row 0 */
        { 2, 0, UINT64_MAX, "not where the game before them ended" }, /* overlapping row 1 */
        { 0, 0, 1, "begin at byte 1 of /match/moves" },               /* a gap before it */
    };
    for (size_t k = 0; k < sizeof damage / sizeof damage[0]; k++) {
        write_bytes(path, bytes, size);
        uint64_t v = damage[k].value == UINT64_MAX ? off[damage[k].row] - 1 : damage[k].value;
        uint32_t v32 = (uint32_t)v;
        if (damage[k].length)
            poke_column(path, damage[k].row, "moves_length", H5T_NATIVE_UINT32, &v32);
        else
            poke_column(path, damage[k].row, "moves_offset", H5T_NATIVE_UINT64, &v);
        assert_refused(path, &m, damage[k].row, damage[k].want);
    }

    /* /match/moves shorter than the rows say, in the first pair; a NUL and a byte beyond ASCII
     * in the moves; a dataset that claims more bytes than the file holds, with a length to
     * match */
    write_bytes(path, bytes, size);
    resize_moves(path, off[1] + len[1] / 2);
    assert_refused(path, &m, 1, "lie past the end of /match/moves");
    write_bytes(path, bytes, size);
    poke_moves(path, off[2] + 1, '\0');
    assert_refused(path, &m, 2, "its moves are not text");
    write_bytes(path, bytes, size);
    poke_moves(path, off[0], 0xe9);
    assert_refused(path, &m, 0, "its moves are not text");
    write_bytes(path, bytes, size);
    resize_moves(path, (hsize_t)1 << 40);
    uint32_t huge = 0xfffffff0u;
    poke_column(path, 3, "moves_length", H5T_NATIVE_UINT32, &huge);
    assert_refused(path, &m, 3, "its moves are longer than the file");

    /* a chunk whose size in the chunk index is damaged (HDF5 read it into a buffer of that size
     * and copied a whole chunk out: tests/fuzz/h5.c found it), of the rows or of the moves */
    for (int which = 0; which < 2; which++) {
        memcpy(copy, bytes, size);
        /* the v1 B-tree node of the dataset's chunks: "TREE", type 1, then the first key's
         * chunk size, 16 rows of the packed row type or 4096 bytes */
        uint32_t whole = which == 0 ? 0 : 4096;
        size_t at = 0, found = 0;
        for (size_t i = 0; i + 28 <= size; i++)
            if (memcmp(copy + i, "TREE", 4) == 0 && copy[i + 4] == 1) {
                uint32_t k = (uint32_t)le(copy + i + 24, 4);
                if ((which == 0 && k != 4096) || (which == 1 && k == whole))
                    at = i + 24, found++;
            }
        assert_int_equal(found, 1);
        put_le(copy + at, 240, 4);
        write_bytes(path, copy, size);
        assert_refused(path, &m, 0,
                       which == 0 ? "a damaged chunk of /match/games"
                                  : "a damaged chunk of /match/moves");
    }

    /* in the last pair: cut short, dropped, and the moves after the kept rows given back */
    static const struct {
        hsize_t row;
        int length;
        uint64_t value;
    } torn[] = {
        { 5, 1, 0xfffffff0u }, /* past the end */
        { 4, 0, 0 },           /* overlapping */
        { 5, 1, 1 },           /* fewer bytes than its plies need */
    };
    for (size_t k = 0; k < sizeof torn / sizeof torn[0]; k++) {
        write_bytes(path, bytes, size);
        uint64_t v = torn[k].value;
        uint32_t v32 = (uint32_t)v;
        if (torn[k].length)
            poke_column(path, torn[k].row, "moves_length", H5T_NATIVE_UINT32, &v32);
        else
            poke_column(path, torn[k].row, "moves_offset", H5T_NATIVE_UINT64, &v);
        if (torn[k].value != 1) { /* the regression's reader says what a resume would do */
            RegressionData rd;
            const char *paths[] = { path };
            assert_int_equal(match_games_sample(paths, 1, 0, &rd, err, sizeof err), -1);
            assert_contains(err, "(a match killed while writing it? resuming it repairs the file)");
        }
        MatchFileDone done;
        h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
        if (!h)
            fail_msg("%s", err);
        assert_int_equal(done.dropped, 2);
        check_done(&done, &m, (const uint64_t[]){ 0, 1 }, 2);
        match_file_done_free(&done);
        record(h, &m, 2);
        assert_int_equal(match_file_close(h, err, sizeof err), 0);
        check_path(path, &m, (const uint64_t[]){ 0, 1, 2 }, 3, 1);
    }
    /* the last pair's moves not in the dataset (its extent not flushed) */
    write_bytes(path, bytes, size);
    resize_moves(path, off[4]);
    MatchFileDone done;
    h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(done.dropped, 2);
    match_file_done_free(&done);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    check_path(path, &m, (const uint64_t[]){ 0, 1 }, 2, 1);
    /* bytes after the last row's (a pair whose rows did not make it) are given back too */
    write_bytes(path, bytes, size);
    resize_moves(path, end + 100);
    h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(done.dropped, 0);
    match_file_done_free(&done);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    check_path(path, &m, (const uint64_t[]){ 0, 1, 2 }, 3, 1);
    free(copy);
    free(bytes);
}

/* A configuration text of any length is a fixed-length string of its own size: one of 200 KB
 * (beyond the 64 KiB an attribute in an object header may have) is written, read back and
 * compared by a resume. */
static void test_long_configuration(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "chess", TURNS_SINGLE, 4);
    size_t len = strlen(m.text), n = 200 * 1000;
    char *text = malloc(n + 1);
    assert_non_null(text);
    memcpy(text, m.text, len);
    for (size_t i = len; i < n; i++)
        text[i] = (i - len) % 64 == 0 ? '\n' : (i - len) % 64 == 1 ? ';' : 'x';
    text[n - 1] = '\n';
    text[n] = '\0';
    m.cfg.text = text;
    char path[300], err[512];
    path_in(path, sizeof path, "long.h5");
    MatchFile *h = match_file_create(path, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    record(h, &m, 1);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    char *back = malloc(n + 1);
    assert_non_null(back);
    h5read_str(f, "configuration", back, n + 1);
    assert_string_equal(back, text);
    H5Fclose(f);
    h5read_no_global_heap(path);
    MatchFileDone done;
    h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(done.n, 1);
    match_file_done_free(&done);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    text[n - 2] = 'y'; /* another text is still told apart */
    assert_null(match_file_open_resume(path, &m.info, &done, err, sizeof err));
    assert_contains(err, "the configuration differs at line");
    free(back);
    free(text);
}

/* A checkpoint of another match is refused, naming every difference. */
static void test_mismatch_refused(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "chess", TURNS_SINGLE, 8);
    char path[300], err[1024];
    path_in(path, sizeof path, "mismatch.h5");
    MatchFile *h = match_file_create(path, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    record(h, &m, 0);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    MatchFileDone done;

    Match o;
    match_make(&o, "chess", TURNS_SINGLE, 10);
    assert_null(match_file_open_resume(path, &o.info, &done, err, sizeof err));
    assert_contains(err, path);
    assert_contains(err, "the checkpoint plans 8 games, this match 10");
    assert_contains(err, "the configuration differs at line 4: the checkpoint has 'games = 8' "
                         "there, this match 'games = 10'");
    assert_null(done.pairs);

    match_make(&o, "capablanca", TURNS_MARSEILLAIS, 8);
    assert_null(match_file_open_resume(path, &o.info, &done, err, sizeof err));
    assert_contains(err, "the checkpoint has variant chess, this match capablanca");
    assert_contains(err, "the checkpoint has turn rules single, this match marseillais");
    assert_contains(err, "differs at line 2");

    /* the same text, other facts: a comment added, another player's name, another version */
    match_make(&o, "chess", TURNS_SINGLE, 8);
    strcat(o.text, "# more\n");
    snprintf(o.cfg.players[1].name, sizeof o.cfg.players[1].name, "gamma");
    o.prov.version = "9.9.9";
    o.cfg.seed = 8;
    assert_null(match_file_open_resume(path, &o.info, &done, err, sizeof err));
    assert_contains(err, "the checkpoint has player 2 beta, this match gamma");
    assert_contains(err, "written by Carrera " CARRERA_VERSION ", this is Carrera 9.9.9");
    assert_contains(err, "the checkpoint has seed 7, this match 8");
    assert_contains(err, "the configuration differs at line 12: the checkpoint has nothing "
                         "there, this match '# more'");

    /* refused resumes left the file as it was */
    h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(match_file_resume_count(h), 1);
    check_done(&done, &m, (const uint64_t[]){ 0 }, 1);
    match_file_done_free(&done);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
}

/* Files that are not match checkpoints are refused with a message, never a crash. */
static void test_not_a_checkpoint(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "chess", TURNS_SINGLE, 6);
    char path[300], good[300], err[512];
    path_in(good, sizeof good, "good.h5");
    MatchFile *h = match_file_create(good, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    record(h, &m, 0);
    record(h, &m, 2);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    size_t size;
    unsigned char *bytes = read_bytes(good, &size);
    MatchFileDone done;

    path_in(path, sizeof path, "missing.h5");
    assert_null(match_file_open_resume(path, &m.info, &done, err, sizeof err));
    assert_contains(err, "No such file or directory");

    assert_null(match_file_open_resume(scratch_dir, &m.info, &done, err, sizeof err));
    assert_contains(err, "not a regular file");

    path_in(path, sizeof path, "text.h5");
    write_bytes(path, "[match]\ngames = 6\n", 18);
    assert_null(match_file_open_resume(path, &m.info, &done, err, sizeof err));
    assert_contains(err, "is not an HDF5 file, so not a Carrera match checkpoint");

    path_in(path, sizeof path, "truncated.h5");
    size_t cuts[] = { size / 2, size - 1, 2000, 100, 7 };
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        write_bytes(path, bytes, cuts[c]);
        err[0] = '\0';
        assert_null(match_file_open_resume(path, &m.info, &done, err, sizeof err));
        assert_contains(err, path);
        assert_null(done.pairs);
    }

    /* somebody else's HDF5 file, a perft result, a later layout */
    path_in(path, sizeof path, "other.h5");
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(f >= 0);
    H5Fclose(f);
    assert_null(match_file_open_resume(path, &m.info, &done, err, sizeof err));
    assert_contains(err, "is an HDF5 file but not a Carrera match checkpoint");
    path_in(path, sizeof path, "perft.h5");
    f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t sp = H5Screate(H5S_SCALAR), t = fixed_string(14);
    hid_t a = H5Acreate2(f, "format", t, sp, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(H5Awrite(a, t, "carrera-perft") >= 0);
    H5Aclose(a);
    H5Tclose(t);
    H5Sclose(sp);
    H5Fclose(f);
    assert_null(match_file_open_resume(path, &m.info, &done, err, sizeof err));
    assert_contains(err, "not a Carrera match checkpoint (it is a carrera-perft file)");
    path_in(path, sizeof path, "later.h5");
    write_bytes(path, bytes, size);
    f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    a = H5Aopen(f, "format_version", H5P_DEFAULT);
    int v = 99;
    assert_true(H5Awrite(a, H5T_NATIVE_INT, &v) >= 0);
    H5Aclose(a);
    H5Fclose(f);
    assert_null(match_file_open_resume(path, &m.info, &done, err, sizeof err));
    assert_contains(err, "later.h5 was written in layout 99 of carrera-match files; this Carrera "
                         "reads layout 2: finish it with the Carrera that wrote it");
    assert_int_equal(strstr(err, "conversion") == NULL, 1);

    /* a file the previous layout's Carrera wrote: its texts are variable-length strings */
    assert_null(
        match_file_open_resume(CARRERA_LAYOUT1 "/match.layout1", &m.info, &done, err, sizeof err));
    assert_contains(err, "match.layout1 was written in layout 1 of carrera-match files; this "
                         "Carrera reads layout 2: finish it with the Carrera that wrote it");
    RegressionData rd;
    const char *old[] = { CARRERA_LAYOUT1 "/match.layout1" };
    assert_int_equal(match_games_sample(old, 1, 0, &rd, err, sizeof err), -1);
    assert_contains(err, "was written in layout 1 of carrera-match files; this Carrera reads "
                         "layout 2: read it with the Carrera that wrote it");
    assert_null(
        match_file_open_resume(CARRERA_LAYOUT1 "/perft.layout1", &m.info, &done, err, sizeof err));
    assert_contains(err, "is an HDF5 file but not a Carrera match checkpoint");

    /* the good file still resumes */
    h = match_file_open_resume(good, &m.info, &done, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    check_done(&done, &m, (const uint64_t[]){ 0, 2 }, 2);
    match_file_done_free(&done);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    free(bytes);
}

/* The summary: counts from player 1's view, both Elo models, the SPRT over the file's pairs, why
 * the match stopped; a resume takes it away again. */
static void test_finish(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "capablanca", TURNS_SINGLE, 10);
    char path[300], err[512];
    path_in(path, sizeof path, "finish.h5");
    MatchFile *h = match_file_create(path, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    for (uint64_t p = 0; p < 4; p++)
        record(h, &m, p);
    /* pairs 0..3 by make_pair: (1,1) WL, (0,-1) DW, (-1,1) LL, (0,0) DD for White; player 1
     * is White in the first game: W L, D W, L L, D D */
    uint64_t counts[PAIR_CLASSES] = { 0 };
    counts[PAIR_EVEN] = 2;
    counts[PAIR_WD] = 1;
    counts[PAIR_LL] = 1;
    Sprt sprt;
    assert_true(stats_sprt_init(&sprt, 0, 10, 0.05, 0.05, err, sizeof err));
    stats_sprt_update(&sprt, counts);
    MatchFileSummary sum = { .sprt = &sprt, .end_time = "2026-01-02T03:04:05Z" };
    assert_int_equal(match_file_finish(h, &sum, err, sizeof err), 0);

    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    check_file(f, &m, (const uint64_t[]){ 0, 1, 2, 3 }, 4, 0);
    hid_t g = H5Gopen2(f, "/match", H5P_DEFAULT);
    assert_int_equal(attr_int(g, "wins"), 2);
    assert_int_equal(attr_int(g, "draws"), 3);
    assert_int_equal(attr_int(g, "losses"), 3);
    assert_int_equal(attr_int(g, "games_played"), 8);
    assert_int_equal(attr_int(g, "pairs_played"), 4);
    TrinomialStats tri;
    PentanomialStats penta;
    stats_trinomial(2, 3, 3, &tri);
    stats_pentanomial(counts, &penta);
    assert_true(attr_f64(g, "score") == 3.5 / 8);
    assert_true(attr_f64(g, "elo") == tri.elo);
    assert_true(attr_f64(g, "elo_lo") == tri.elo_lo && attr_f64(g, "elo_hi") == tri.elo_hi);
    assert_true(attr_f64(g, "elo_pair") == penta.elo);
    assert_true(attr_f64(g, "elo_pair_lo") == penta.elo_lo);
    assert_true(attr_f64(g, "elo_pair_hi") == penta.elo_hi);
    assert_true(attr_f64(g, "nelo") == penta.nelo);
    assert_true(attr_f64(g, "los") == tri.los);
    assert_true(attr_f64(g, "draw_ratio") == 3.0 / 8);
    char s[128];
    attr_str(g, "stop_reason", s, sizeof s);
    assert_string_equal(s, "interrupted");
    assert_true(attr_f64(g, "sprt_elo0") == 0 && attr_f64(g, "sprt_elo1") == 10);
    assert_true(attr_f64(g, "sprt_alpha") == 0.05 && attr_f64(g, "sprt_beta") == 0.05);
    assert_true(attr_f64(g, "sprt_llr") == sprt.llr);
    assert_true(attr_f64(g, "sprt_lower") == sprt.lower);
    assert_true(attr_f64(g, "sprt_upper") == sprt.upper);
    H5Gclose(g);
    attr_str(f, "end_time", s, sizeof s);
    assert_string_equal(s, "2026-01-02T03:04:05Z");
    H5Fclose(f);

    /* resumed, the file is a checkpoint again; finished with every pair, without an SPRT */
    MatchFileDone done;
    h = match_file_open_resume(path, &m.info, &done, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    check_done(&done, &m, (const uint64_t[]){ 0, 1, 2, 3 }, 4);
    match_file_done_free(&done);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    g = H5Gopen2(f, "/match", H5P_DEFAULT);
    assert_false(H5Aexists(g, "wins") > 0 || H5Aexists(g, "sprt_llr") > 0 ||
                 H5Aexists(g, "stop_reason") > 0 || H5Aexists(f, "end_time") > 0);
    H5Gclose(g);
    H5Fclose(f);
    record(h, &m, 4);
    sum = (MatchFileSummary){ .sprt = NULL, .end_time = NULL };
    assert_int_equal(match_file_finish(h, &sum, err, sizeof err), 0);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    check_file(f, &m, (const uint64_t[]){ 0, 1, 2, 3, 4 }, 5, 1);
    g = H5Gopen2(f, "/match", H5P_DEFAULT);
    attr_str(g, "stop_reason", s, sizeof s);
    assert_string_equal(s, "all games played");
    assert_int_equal(attr_int(g, "pairs_played"), 5);
    assert_false(H5Aexists(g, "sprt_llr") > 0);
    H5Gclose(g);
    hid_t r = H5Gopen2(f, "/resumes/1", H5P_DEFAULT);
    attr_str(r, "end_time", s, sizeof s);
    assert_iso_time(s);
    H5Gclose(r);
    H5Fclose(f);

    /* an SPRT decision is the reason; no games at all: no score */
    path_in(path, sizeof path, "empty-finish.h5");
    h = match_file_create(path, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    sprt.decision = SPRT_ACCEPT_H0;
    sum = (MatchFileSummary){ .sprt = &sprt };
    assert_int_equal(match_file_finish(h, &sum, err, sizeof err), 0);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    g = H5Gopen2(f, "/match", H5P_DEFAULT);
    attr_str(g, "stop_reason", s, sizeof s);
    assert_string_equal(s, "SPRT accepted H0");
    assert_int_equal(attr_int(g, "games_played"), 0);
    assert_true(isnan(attr_f64(g, "score")) && isnan(attr_f64(g, "elo_pair")));
    H5Gclose(g);
    H5Fclose(f);
}

/* Unwritable places and existing files give messages; nothing is left behind. */
static void test_unwritable(void **state)
{
    (void)state;
    Match m;
    match_make(&m, "chess", TURNS_SINGLE, 4);
    char path[300], err[512];

    path_in(path, sizeof path, "no/such/dir/x.h5");
    assert_null(match_file_create(path, &m.info, err, sizeof err));
    assert_contains(err, "cannot create");
    assert_contains(err, "No such file or directory");

    path_in(path, sizeof path, "plain");
    write_bytes(path, "x", 1);
    path_in(path, sizeof path, "plain/x.h5");
    assert_null(match_file_create(path, &m.info, err, sizeof err));
    assert_contains(err, "Not a directory");

    assert_null(match_file_create("/proc/carrera_test.h5", &m.info, err, sizeof err));
    assert_contains(err, "cannot create /proc/carrera_test.h5");

    if (geteuid() != 0) { /* root writes anywhere */
        path_in(path, sizeof path, "readonly");
        assert_int_equal(mkdir(path, 0500), 0);
        path_in(path, sizeof path, "readonly/x.h5");
        assert_null(match_file_create(path, &m.info, err, sizeof err));
        assert_contains(err, "Permission denied");
    }

    /* an odd number of games is no match */
    m.cfg.games = 5;
    path_in(path, sizeof path, "odd.h5");
    assert_null(match_file_create(path, &m.info, err, sizeof err));
    assert_contains(err, "5 games is not a positive number of pairs");
    m.cfg.games = 4;

    /* an existing file is not overwritten unless asked */
    path_in(path, sizeof path, "exists.h5");
    write_bytes(path, "precious", 8);
    assert_null(match_file_create(path, &m.info, err, sizeof err));
    assert_contains(err, "already exists");
    size_t n;
    char *kept = read_bytes(path, &n);
    assert_int_equal(n, 8);
    free(kept);
    m.info.overwrite = true;
    MatchFile *h = match_file_create(path, &m.info, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(match_file_close(h, err, sizeof err), 0);
    check_path(path, &m, NULL, 0, 0);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_and_record),  cmocka_unit_test(test_close_and_resume),
        cmocka_unit_test(test_killed_and_resumed), cmocka_unit_test(test_torn_and_damaged),
        cmocka_unit_test(test_damaged_texts),      cmocka_unit_test(test_mismatch_refused),
        cmocka_unit_test(test_not_a_checkpoint),   cmocka_unit_test(test_finish),
        cmocka_unit_test(test_unwritable),         cmocka_unit_test(test_long_configuration),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
