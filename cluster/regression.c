/* The samples of the regression method of `carrera tune`, read from match result files
 * (regression.h says which positions are sampled and why). The games of /match/games are read
 * in batches of rows and each is replayed with the core, as the match played it, so that a
 * turn the rules do not allow is found here and not fitted. */
#include "regression.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "game.h"
#include "h5common.h"
#include "h5match.h"
#include "match_game.h"
#include "position.h"
#include "setup.h"

/* h5match.c's mark of a match result (root attribute "format"), and its termination column. */
#define FORMAT_NAME     "carrera-match"
#define TERMINATION_MAX 32

/* Rows read per HDF5 call: bounded memory whatever the file. */
#define BATCH_ROWS 256

/* Longest turn text read: a turn's movements and their separator, with room for garbage to be
 * shown cut rather than overflow. */
#define TOKEN_MAX 48

#if H5_VERSION_GE(1, 12, 0)
#define reclaim_vlen H5Treclaim
#else
#define reclaim_vlen H5Dvlen_reclaim
#endif

/* The columns of a /match/games row that are read; HDF5 picks them out of the file's row by
 * name. */
typedef struct Row {
    char opening[FEN_MAX];
    int8_t result; /* for White */
    uint32_t plies;
    char termination[TERMINATION_MAX];
    char *moves;
} Row;

/* A position at a turn boundary as the sampling sees it. */
typedef struct Point {
    int16_t pieces[2][TUNE_PIECES]; /* White's and Black's, in tune order */
    bool check;                     /* the side to move is in check */
} Point;

/* What reading carries from file to file and from game to game. */
typedef struct Reader {
    RegressionData *out;
    size_t cap;    /* of out->samples */
    int skip;      /* skip_plies */
    Point *points; /* the current game's positions */
    size_t points_cap;
    const char *path; /* the file being read, for messages */
} Reader;

/* Endings that are a player's fault, not the position's. */
static const GameEnding faults[] = { END_TIME, END_CRASH, END_TIMEOUT, END_GARBAGE, END_ILLEGAL };

static hid_t row_type(void)
{
    hid_t fen = h5c_string_type(FEN_MAX);
    hid_t term = h5c_string_type(TERMINATION_MAX);
    hid_t vs = h5c_vlen_string_type();
    hid_t t = -1;
    if (fen >= 0 && term >= 0 && vs >= 0) {
        const H5cMember m[] = {
            { "opening", offsetof(Row, opening), fen },
            { "result", offsetof(Row, result), H5T_NATIVE_INT8 },
            { "plies", offsetof(Row, plies), H5T_NATIVE_UINT32 },
            { "termination", offsetof(Row, termination), term },
            { "moves", offsetof(Row, moves), vs },
        };
        t = h5c_compound(sizeof(Row), m, (int)(sizeof m / sizeof m[0]), 0);
    }
    hid_t parts[] = { fen, term, vs };
    for (int i = 0; i < 3; i++)
        if (parts[i] >= 0)
            H5Tclose(parts[i]);
    return t;
}

/* A message about row `row` of the file being read. */
static int row_fail(const Reader *rd, uint64_t row, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int row_fail(const Reader *rd, uint64_t row, char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return -1;
    int k =
        snprintf(err, errlen, "%s: row %llu of /match/games: ", rd->path, (unsigned long long)row);
    if (k >= 0 && (size_t)k < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void point_of(const Position *p, Point *pt)
{
    memset(pt, 0, sizeof *pt);
    const int squares = p->variant->files * RANKS;
    for (int s = 0; s < squares; s++) {
        const Piece pc = position_piece_at(p, s);
        const int i = pc == NO_PIECE ? -1 : tune_piece_index(piece_type(pc));
        if (i >= 0)
            pt->pieces[piece_color(pc)][i]++;
    }
    pt->check = position_in_check(p);
}

/* Appends the current game's position to rd->points[n]; false when memory runs out. */
static bool add_point(Reader *rd, size_t n, const Position *p)
{
    if (n == rd->points_cap) {
        size_t cap = rd->points_cap ? 2 * rd->points_cap : 256;
        Point *grown = realloc(rd->points, cap * sizeof *grown);
        if (!grown)
            return false;
        rd->points = grown;
        rd->points_cap = cap;
    }
    point_of(p, &rd->points[n]);
    return true;
}

static bool add_sample(Reader *rd, const TuneSample *s)
{
    RegressionData *d = rd->out;
    if (d->n == rd->cap) {
        size_t cap = rd->cap ? 2 * rd->cap : 1024;
        TuneSample *grown = realloc(d->samples, cap * sizeof *grown);
        if (!grown)
            return false;
        d->samples = grown;
        rd->cap = cap;
    }
    d->samples[d->n++] = *s;
    return true;
}

static bool same_pieces(const Point *a, const Point *b)
{
    return memcmp(a->pieces, b->pieces, sizeof a->pieces) == 0;
}

/* Samples the game of n turns in rd->points[0..n] (regression.h). Returns the number of
 * samples added, or -1 when memory runs out. */
static long sample_game(Reader *rd, size_t n, double result, uint64_t group)
{
    const size_t r = REGRESSION_STABLE_TURNS, first = rd->out->n;
    const Point *pt = rd->points;
    for (size_t i = (size_t)rd->skip > r ? (size_t)rd->skip : r; i + r <= n; i++) {
        bool stable = !pt[i].check;
        for (size_t j = i - r; j <= i + r && stable; j++)
            stable = same_pieces(&pt[j], &pt[i]);
        if (!stable)
            continue;
        TuneSample s = { .result = result, .group = group };
        for (int k = 0; k < TUNE_PIECES; k++)
            s.material[k] = pt[i].pieces[WHITE][k] - pt[i].pieces[BLACK][k];
        bool seen = false;
        for (size_t k = first; k < rd->out->n && !seen; k++)
            seen = memcmp(rd->out->samples[k].material, s.material, sizeof s.material) == 0;
        if (!seen && !add_sample(rd, &s))
            return -1;
    }
    return (long)(rd->out->n - first);
}

/* Replays the moves of row r from start into rd->points; *n receives the number of turns. */
static int replay(Reader *rd, uint64_t row, const Row *r, const Position *start, size_t *n,
                  char *err, size_t errlen)
{
    const RegressionData *d = rd->out;
    *n = 0;
    Game g;
    if (!game_init(&g, start, &d->rules, d->variant->castle960) || !add_point(rd, 0, start)) {
        game_free(&g);
        return row_fail(rd, row, err, errlen, "out of memory");
    }
    int rc = 0;
    size_t turns = 0;
    const char *t = r->moves;
    while (*r->moves && rc == 0) {
        const size_t len = strcspn(t, " ");
        char text[TOKEN_MAX];
        snprintf(text, sizeof text, "%.*s", (int)len, t);
        turns++;
        if (len == 0 || len >= sizeof text || !game_play_text(&g, text)) {
            Turn parsed;
            char fen[FEN_MAX];
            Setup s;
            position_to_setup(&g.pos, &s);
            setup_to_fen(&s, s.castling_text, fen, sizeof fen);
            if (len > 0 && len < sizeof text && game_parse_turn(&g, text, &parsed))
                rc = row_fail(rd, row, err, errlen, "out of memory");
            else
                rc = row_fail(rd, row, err, errlen,
                              "turn %zu (\"%.*s%s\") is not a legal turn of %s under %s rules",
                              turns, len < 20 ? (int)len : 20, t, len < 20 ? "" : "...", fen,
                              turn_rules_name(d->rules.turns));
        } else if (!add_point(rd, turns, &g.pos)) {
            rc = row_fail(rd, row, err, errlen, "out of memory");
        }
        t += len;
        if (*t == '\0')
            break;
        t++;
    }
    game_free(&g);
    *n = turns;
    if (rc == 0 && turns != r->plies)
        rc = row_fail(rd, row, err, errlen, "the moves hold %zu turns, the plies column says %u",
                      turns, r->plies);
    return rc;
}

/* Reads one game: checks it, replays it, samples it. */
static int read_game(Reader *rd, uint64_t row, const Row *r, char *err, size_t errlen)
{
    RegressionData *d = rd->out;
    if (r->result < -1 || r->result > 1)
        return row_fail(rd, row, err, errlen, "result %d is none of 1, 0, -1", r->result);
    if (!memchr(r->termination, '\0', sizeof r->termination))
        return row_fail(rd, row, err, errlen, "the termination is not a string");
    GameEnding ending = END_NB;
    for (int e = 0; e < END_NB && ending == END_NB; e++)
        if (strcmp(r->termination, game_ending_name((GameEnding)e)) == 0)
            ending = (GameEnding)e;
    if (ending == END_NB)
        return row_fail(rd, row, err, errlen, "unknown termination \"%s\"", r->termination);
    bool fault = false;
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
        fault |= ending == faults[i];

    Setup s;
    char why[256];
    if (setup_from_fen_rules(&s, d->variant, &d->rules, r->opening, why, sizeof why) != 0)
        return row_fail(rd, row, err, errlen, "opening \"%s\": %s", r->opening, why);
    Position start;
    position_from_setup(&start, &s);
    size_t n;
    if (replay(rd, row, r, &start, &n, err, errlen) != 0)
        return -1;

    const uint64_t group = d->games++;
    if (fault) {
        d->faults++;
        return 0;
    }
    const long added = sample_game(rd, n, (r->result + 1) / 2.0, group);
    if (added < 0)
        return row_fail(rd, row, err, errlen, "out of memory for %zu samples", d->n);
    d->games_used += added > 0;
    return 0;
}

/* Whether row is what a match killed while appending a pair leaves: no text at all. */
static bool empty_row(const Row *r) { return !r->moves && r->opening[0] == '\0'; }

/* Reads the games of the open /match/games dataset, its texts checked first in heap. */
static int read_rows(Reader *rd, const H5Heap *heap, hid_t games, char *err, size_t errlen)
{
    const long long rows = h5c_table_rows(games);
    hid_t mt = row_type();
    Row *batch = malloc(BATCH_ROWS * sizeof *batch);
    int rc = 0;
    /* the first row of the last pair: the only one a kill can leave torn */
    const uint64_t n = rows > 0 ? (uint64_t)rows : 0, last_pair = n ? (n - 1) / 2 * 2 : 0;
    const int64_t good = rows >= 0 ? h5heap_first_bad_row(heap, games, n) : -1;
    if (good < 0 || mt < 0 || !batch)
        rc = h5c_fail(err, errlen, "%s: cannot read /match/games", rd->path);
    for (uint64_t start = 0; start < n && rc == 0; start += BATCH_ROWS) {
        const size_t cnt = (size_t)(n - start < BATCH_ROWS ? n - start : BATCH_ROWS);
        memset(batch, 0, cnt * sizeof *batch);
        if ((uint64_t)good < start + cnt || h5c_read_rows(games, mt, start, cnt, batch) < 0) {
            rc = h5c_fail(err, errlen,
                          "%s: cannot read rows %llu to %llu of /match/games (a match killed "
                          "while writing them? resuming it repairs the file)",
                          rd->path, (unsigned long long)start,
                          (unsigned long long)(start + cnt - 1));
            break;
        }
        for (size_t i = 0; i < cnt && rc == 0; i++) {
            const uint64_t row = start + i;
            const Row *r = &batch[i];
            if (empty_row(r) && row >= last_pair)
                rd->out->dropped++;
            else if (!r->moves || !memchr(r->opening, '\0', sizeof r->opening))
                rc = row_fail(rd, row, err, errlen, "a missing text");
            else
                rc = read_game(rd, row, r, err, errlen);
        }
        hsize_t dim = cnt;
        hid_t sp = H5Screate_simple(1, &dim, NULL);
        if (sp >= 0) {
            reclaim_vlen(mt, sp, H5P_DEFAULT, batch);
            H5Sclose(sp);
        }
    }
    free(batch);
    if (mt >= 0)
        H5Tclose(mt);
    return rc;
}

/* The variant and rules of the match in file, checked against those of the files before. */
static int read_match(Reader *rd, hid_t match, bool first, char *err, size_t errlen)
{
    RegressionData *d = rd->out;
    char variant[64], turns[64], ep[64];
    if (h5c_get_str(match, "variant", variant, sizeof variant) < 0 ||
        h5c_get_str(match, "turn_rules", turns, sizeof turns) < 0 ||
        h5c_get_str(match, "ep_rule", ep, sizeof ep) < 0)
        return h5c_fail(err, errlen, "%s: /match lacks the variant or the rules", rd->path);
    const Variant *v = variant_by_name(variant);
    Rules r;
    if (!v)
        return errmsg_fail(err, errlen, "%s: unknown variant \"%s\"", rd->path, variant);
    if (!turn_rules_parse(turns, &r.turns))
        return errmsg_fail(err, errlen, "%s: unknown turn rules \"%s\"", rd->path, turns);
    if (!ep_rule_parse(ep, &r.ep))
        return errmsg_fail(err, errlen, "%s: unknown en passant rule \"%s\"", rd->path, ep);
    if (first) {
        d->variant = v;
        d->rules = r;
    } else if (v != d->variant || r.turns != d->rules.turns || r.ep != d->rules.ep) {
        return errmsg_fail(err, errlen,
                           "%s is a match of %s under %s rules (en passant %s), the files before "
                           "it of %s under %s rules (en passant %s): the values of different "
                           "games cannot be fitted together",
                           rd->path, v->name, turn_rules_name(r.turns), ep_rule_name(r.ep),
                           d->variant->name, turn_rules_name(d->rules.turns),
                           ep_rule_name(d->rules.ep));
    }
    return 0;
}

static int read_file(Reader *rd, bool first, char *err, size_t errlen)
{
    H5Heap *heap = NULL;
    hid_t file = h5c_open_checked(rd->path, FORMAT_NAME, H5MATCH_FORMAT_VERSION, "match result",
                                  &heap, err, errlen);
    if (file < 0)
        return -1;
    int rc = 0;
    hid_t match = -1, games = -1;
    if (H5Lexists(file, "match", H5P_DEFAULT) <= 0 ||
        (match = H5Gopen2(file, "match", H5P_DEFAULT)) < 0 ||
        H5Lexists(match, "games", H5P_DEFAULT) <= 0 ||
        (games = H5Dopen2(match, "games", H5P_DEFAULT)) < 0)
        rc = h5c_fail(err, errlen, "%s has no /match/games: not a complete match result", rd->path);
    if (rc == 0)
        rc = read_match(rd, match, first, err, errlen);
    if (rc == 0)
        rc = read_rows(rd, heap, games, err, errlen);
    if (games >= 0)
        H5Dclose(games);
    if (match >= 0)
        H5Gclose(match);
    H5Fclose(file);
    h5heap_close(heap);
    return rc;
}

int regression_read(const char *const *paths, size_t n_paths, int skip_plies, RegressionData *out,
                    char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    h5c_quiet();
    if (n_paths == 0)
        return errmsg_fail(err, errlen, "no match result files to read");
    if (skip_plies < 0)
        return errmsg_fail(err, errlen, "%d plies to skip: it cannot be negative", skip_plies);
    Reader rd = { .out = out, .skip = skip_plies };
    int rc = 0;
    for (size_t i = 0; i < n_paths && rc == 0; i++) {
        rd.path = paths[i];
        rc = read_file(&rd, i == 0, err, errlen);
    }
    free(rd.points);
    if (rc != 0)
        regression_free(out);
    return rc;
}

void regression_free(RegressionData *d)
{
    free(d->samples);
    memset(d, 0, sizeof *d);
}
