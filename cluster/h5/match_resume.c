/* SPDX-License-Identifier: MIT */
/* A match checkpoint read back for a resume (match_file_impl.h): its match compared with the one
 * that would continue it, its games checked row by row and counted, the pair a kill cut short
 * dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5check.h"
#include "h5file.h"
#include "match_file_impl.h"
#include "match_rows.h"
#include "turn.h"
#include "variant.h"

/* Rows read per HDF5 call: bounded memory. */
#define BATCH_ROWS 1024

/* Whether the line of n characters at s sets the key `games` (an extension may change it). */
static bool games_line(const char *s, int n)
{
    int i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (n - i < 5 || strncmp(s + i, "games", 5) != 0)
        return false;
    for (i += 5; i < n && (s[i] == ' ' || s[i] == '\t');)
        i++;
    return i < n && s[i] == '=';
}

/* Adds to diffs the first line where the checkpoint's configuration text differs from this
 * match's; with extend, lines that both set `games` may differ. */
static void compare_text(const char *have, const char *want, bool extend, char *diffs, size_t len)
{
    if (strcmp(have, want) == 0)
        return;
    const size_t nh = strlen(have), nw = strlen(want);
    const bool newline_differs = (nh && have[nh - 1] == '\n') != (nw && want[nw - 1] == '\n');
    for (int line = 1;; line++) {
        int a = (int)strcspn(have, "\n"), b = (int)strcspn(want, "\n");
        if (!*have && !*want) {
            if (newline_differs)
                h5file_add_diff(diffs, len, "the configuration differs in its last newline");
            return;
        }
        const bool same = a == b && strncmp(have, want, (size_t)a) == 0;
        if (!*have || !*want ||
            (!same && !(extend && games_line(have, a) && games_line(want, b)))) {
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

int match_resume_compare(hid_t file, const MatchFileInfo *e, char *diffs, size_t len)
{
    const MatchConfig *c = e->cfg;
    long long games;
    uint64_t seed;
    hid_t g = H5Gopen2(file, "/match", H5P_DEFAULT);
    char *text = h5file_get_str_alloc(file, "configuration");
    int rc = g < 0 || !text ? -1 : 0;
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
        if (e->extend ? games > c->games : games != c->games)
            h5file_add_diff(diffs, len, "the checkpoint plans %lld games, this match %d%s", games,
                            c->games, e->extend ? " (an extension cannot plan fewer)" : "");
        if (seed != c->seed)
            h5file_add_diff(diffs, len, "the checkpoint has seed %llu, this match %llu",
                            (unsigned long long)seed, (unsigned long long)c->seed);
    } else {
        rc = -1;
    }
    if (rc == 0)
        compare_text(text, c->text, e->extend, diffs, len);
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

/* Words of the text: turns separated by single spaces. */
static uint64_t count_turns(const char *t)
{
    uint64_t n = *t != '\0';
    for (; *t; t++)
        n += *t == ' ';
    return n;
}

/* What is wrong with the game of row r (row i of the file), its moves beginning at *at, or NULL;
 * *at then receives where they end. */
static const char *game_problem(const MatchFile *h, MatchMoves *mv, const GameRow *r, uint64_t i,
                                uint64_t *at)
{
    const char *why = match_rows_problem(r, i, h->n_pairs);
    if (!why)
        why = match_rows_moves_read(mv, r, *at);
    if (!why && count_turns(mv->text) != r->plies)
        why = "its moves do not hold as many turns as its plies column says";
    if (!why)
        *at += r->moves_length;
    return why;
}

/* Reads the rows [0, *keep) into done and h's tally, the pair of last_pair_row dropped (*keep
 * cut to it) when it is bad. Returns NULL, or what is wrong with row *bad. */
static const char *read_rows(MatchFile *h, MatchMoves *mv, MatchFileDone *done, GameRow *rows,
                             uint64_t *keep, uint64_t *bad)
{
    const uint64_t n = h->rows, last_pair_row = n ? (n - 1) / 2 * 2 : 0;
    uint64_t at = 0;
    for (uint64_t start = 0; start < *keep; start += BATCH_ROWS) {
        size_t cnt = (size_t)(*keep - start < BATCH_ROWS ? *keep - start : BATCH_ROWS);
        if (!h5check_chunks_whole(h->games, start, cnt)) {
            *bad = start;
            return "a damaged chunk of /match/games holds it";
        }
        if (read_batch(h, start, cnt, rows) < 0) {
            /* the last batch may read without the last pair */
            size_t before = start + cnt < n ? 0 : (size_t)(last_pair_row - start);
            if (start + cnt < n || (before > 0 && read_batch(h, start, before, rows) < 0)) {
                *bad = start;
                return "cannot read /match/games";
            }
            *keep = last_pair_row;
            cnt = before;
        }
        for (size_t i = 0; i < cnt; i += 2) {
            uint64_t row = start + i, end = at;
            const GameRow *r = &rows[i];
            const char *why = NULL;
            uint64_t at_row = row; /* the row that is wrong */
            if (row + 1 >= *keep)
                why = "a pair's second game is missing";
            else if (!(why = game_problem(h, mv, r, row, &end)) &&
                     (why = game_problem(h, mv, r + 1, row + 1, &end)))
                at_row = row + 1;
            else if (!why && r[1].pair != r->pair)
                why = "the two games of a pair have different pair numbers";
            else if (!why && match_file_is_done(h, r->pair))
                why = "a pair appears twice";
            if (why && row == last_pair_row) { /* cut short: dropped */
                *keep = last_pair_row;
                break;
            }
            if (why) {
                *bad = at_row;
                return why;
            }
            at = end;
            MatchFilePair *p = &done->pairs[done->n++];
            *p = (MatchFilePair){ .pair = r->pair };
            for (int k = 0; k < 2; k++) {
                p->score[k] = r[k].player1_score;
                p->ending[k] = game_ending_by_name(r[k].termination);
                p->nodes[k] = r[k].nodes_white + r[k].nodes_black;
            }
            match_file_count_pair(h, r->pair, p->score);
        }
    }
    h->bytes = at;
    return NULL;
}

/* Reads every row into done and h's tally. Rows of the last pair that cannot be read, whose moves
 * are not in /match/moves, or that are incomplete or empty are a pair a kill cut short: *keep
 * receives the rows before them. Any other bad row is a damaged file. */
int match_resume_read(MatchFile *h, MatchFileDone *done, uint64_t *keep, char *err, size_t errlen)
{
    const char *path = h->rf.path;
    MatchMoves mv;
    if (!h5check_stored_as(h->games, h->row_type))
        return h5file_fail(err, errlen,
                           "%s: damaged checkpoint (/match/games is not stored as Carrera stores "
                           "it)",
                           path);
    if (match_rows_moves_open(&mv, h->rf.file) < 0)
        return h5file_fail(err, errlen, "%s: damaged checkpoint (cannot open /match/moves)", path);
    done->pairs = malloc((h->rows / 2 + 1) * sizeof *done->pairs);
    GameRow *rows = malloc(BATCH_ROWS * sizeof *rows);
    int rc = 0;
    if (!done->pairs || !rows) {
        rc = h5file_fail(err, errlen, "%s: out of memory for %llu games", path,
                         (unsigned long long)h->rows);
    } else {
        uint64_t bad = 0;
        *keep = h->rows;
        const char *why = read_rows(h, &mv, done, rows, keep, &bad);
        if (why)
            rc = h5file_fail(err, errlen, "%s: damaged checkpoint (row %llu of /match/games: %s)",
                             path, (unsigned long long)bad, why);
    }
    free(rows);
    match_rows_moves_close(&mv);
    if (rc == 0) {
        qsort(done->pairs, done->n, sizeof *done->pairs, cmp_pair);
        done->dropped = (size_t)(h->rows - *keep);
    }
    return rc;
}

int match_resume_prepare(MatchFile *h, uint64_t keep)
{
    hsize_t rows = keep, bytes = h->bytes;
    if (H5Dset_extent(h->games, &rows) < 0 || H5Dset_extent(h->moves, &bytes) < 0)
        return -1;
    h->rows = keep;
    if (match_file_write_counts(h) < 0)
        return -1;
    hid_t g = H5Gopen2(h->rf.file, "/match", H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < match_summary_n_names; i++)
        if (H5Aexists(g, match_summary_names[i]) > 0 && H5Adelete(g, match_summary_names[i]) < 0)
            rc = -1;
    if (H5Gclose(g) < 0)
        rc = -1;
    if (H5Aexists(h->rf.file, "end_time") > 0 && H5Adelete(h->rf.file, "end_time") < 0)
        rc = -1;
    return rc;
}
