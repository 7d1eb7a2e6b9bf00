/* SPDX-License-Identifier: MIT */
/* `carrera match` with xboard engines as players (engine = xboard): Fairy-Max, which has no
 * setboard and is given each start position with edit, against Sjaak II, which is given it with
 * setboard, in Capablanca and Gothic chess from handicap starts (pawn and knight odds), Black to
 * move in the Gothic games (one random ply played first, so that edit's Black-to-move idiom is
 * used). Every command carrera sends reaches the engine through tests/data/match/cecp_tap.sh,
 * which copies it to a transcript. The test then replays each game's set-up from a transcript to
 * a fresh engine and reads the position back from the engine's own board (Sjaak II's `fen`,
 * Fairy-Max's board print `p`, whose piece letters are learnt from its start array): every
 * engine got exactly the start positions of the PGN's games. No game may end by an illegal move,
 * a crash, a stall, garbage or a time forfeit. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errmsg.h"
#include "files.h"
#include "run.h"
#include "setup.h"
#include "subprocess.h"
#include "variant.h"

#if !defined(CARRERA_BIN) || !defined(CARRERA_MATCH_DATA)
#error "CARRERA_BIN and CARRERA_MATCH_DATA must be defined"
#endif

#define FAIRYMAX "/usr/games/fairymax"
#define SJAAKII  "/usr/games/sjaakii"
/* How long a replayed engine may take to answer (a guard against a hang, not a measure). */
#define ANSWER_MS 30000
#define MAX_GAMES 64

/* A list of texts (set-up blocks, FEN fields), malloc'd. */
typedef struct Texts {
    char *item[MAX_GAMES];
    int n;
} Texts;

static void texts_add(Texts *t, const char *text, size_t len)
{
    if (t->n == MAX_GAMES)
        fail_msg("more than %d games", MAX_GAMES);
    t->item[t->n] = malloc(len + 1);
    assert_non_null(t->item[t->n]);
    memcpy(t->item[t->n], text, len);
    t->item[t->n++][len] = '\0';
}

static void texts_free(Texts *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->item[i]);
    t->n = 0;
}

static int compare_texts(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The first `fields` blank-separated fields of a FEN. */
static void fen_fields(const char *fen, int fields, Texts *out)
{
    size_t n = 0;
    for (int f = 0; f < fields && fen[n]; f++) {
        n += strcspn(fen + n, " ");
        if (f + 1 < fields && fen[n] == ' ')
            n++;
    }
    texts_add(out, fen, n);
}

/* Runs carrera match on the configuration text; fails unless it ends with status 0. */
static void run_match(const char *name, const char *config)
{
    char ini[512], pgn[512], h5[512];
    snprintf(ini, sizeof ini, "%s/%s.ini", scratch_dir, name);
    snprintf(pgn, sizeof pgn, "%s/%s.pgn", scratch_dir, name);
    snprintf(h5, sizeof h5, "%s/%s.h5", scratch_dir, name);
    write_bytes(ini, config, strlen(config));
    const char *argv[] = { CARRERA_BIN, "match", "--config", ini, "--pgn", pgn, "--out", h5, NULL };
    Run r = run_program(argv);
    printf("%s%s", r.out, r.err);
    if (r.status != 0)
        fail_msg("carrera match %s: status %d: %s", name, r.status, r.err);
    run_free(&r);
}

/* The start positions of the PGN's games (their FEN tags, the first `fields` fields), and a
 * check that no game ended by a fault of a player. */
static void pgn_starts(const char *name, int fields, Texts *out)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.pgn", scratch_dir, name);
    char *pgn = read_bytes(path, NULL);
    static const char *const faults[] = { "time forfeit", "engine crash", "engine stall",
                                          "engine garbage", "illegal move" };
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
        if (strstr(pgn, faults[i]))
            fail_msg("a game of %s ended by '%s':\n%s", name, faults[i], pgn);
    for (const char *c = pgn; (c = strstr(c, "[FEN \"")) != NULL; c++)
        fen_fields(c + 6, fields, out);
    free(pgn);
}

/* The set-up blocks of every transcript of an engine (files PREFIX.PID): each from a "new" line
 * through the line that ends the position's set-up, "setboard ..." or edit's ".". */
static void setups(const char *prefix, Texts *out)
{
    DIR *d = opendir(scratch_dir);
    assert_non_null(d);
    struct dirent *e;
    size_t plen = strlen(prefix);
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, plen) != 0 || e->d_name[plen] != '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", scratch_dir, e->d_name);
        char *text = read_bytes(path, NULL);
        const char *start = NULL;
        for (char *line = text; *line;) {
            size_t len = strcspn(line, "\n");
            if (len == 3 && strncmp(line, "new", 3) == 0)
                start = line;
            bool end = (len == 1 && line[0] == '.') || strncmp(line, "setboard ", 9) == 0;
            line += len + (line[len] == '\n');
            if (start && end) {
                texts_add(out, start, (size_t)(line - start));
                start = NULL;
            }
        }
        free(text);
    }
    closedir(d);
}

/* Sends commands to a fresh engine, then `ping 77`, and returns its output up to `pong 77`. */
static char *replay(const char *engine, const char *commands)
{
    char *const argv[] = { (char *)engine, NULL };
    Subprocess p;
    char err[ERRMSG_LEN];
    if (subprocess_start(&p, argv, err, sizeof err) != 0)
        fail_msg("cannot start %s: %s", engine, err);
    if (subprocess_send(&p, "xboard\nprotover 2\n") != 0 || subprocess_send(&p, commands) != 0 ||
        subprocess_send(&p, "ping 77\n") != 0)
        fail_msg("%s has gone", engine);
    size_t cap = 1 << 16, used = 0;
    char *out = malloc(cap), line[16384];
    assert_non_null(out);
    out[0] = '\0';
    for (;;) {
        if (subprocess_read_line(&p, line, sizeof line, ANSWER_MS) != 1)
            fail_msg("%s did not answer ping after:\n%s", engine, commands);
        if (strcmp(line, "pong 77") == 0)
            break;
        used += (size_t)snprintf(out + used, cap - used, "%s\n", line);
        if (used >= cap)
            fail_msg("%s printed too much", engine);
    }
    subprocess_send(&p, "quit\n");
    subprocess_finish(&p, 3000);
    return out;
}

/* The board Fairy-Max prints for `p`: its first eight rows of one-character squares, each
 * square after a blank (a blank after the last too). */
static int fairymax_rows(const char *output, char rows[RANKS][MAX_FILES + 1], int files)
{
    int n = 0;
    for (const char *line = output; *line && n < RANKS;) {
        size_t len = strcspn(line, "\n");
        while (len > 0 && line[len - 1] == ' ')
            len--;
        if (len == (size_t)(2 * files) && line[0] == ' ') {
            for (int f = 0; f < files; f++)
                rows[n][f] = line[2 * f + 1];
            rows[n++][files] = '\0';
        }
        line += strcspn(line, "\n");
        line += *line == '\n';
    }
    return n;
}

/* Fairy-Max's letter for each FEN letter of the variant, learnt from its start array. */
static void fairymax_letters(const Variant *v, const char *name, char to_fen[256])
{
    char commands[128], rows[RANKS][MAX_FILES + 1];
    snprintf(commands, sizeof commands, "new\nvariant %s\nforce\np\n", name);
    char *out = replay(FAIRYMAX, commands);
    if (fairymax_rows(out, rows, v->files) != RANKS)
        fail_msg("no board in Fairy-Max's answer to p:\n%s", out);
    Setup s;
    setup_start(&s, v);
    memset(to_fen, 0, 256);
    for (int r = 0; r < RANKS; r++)
        for (int f = 0; f < v->files; f++) {
            Piece p = s.board[setup_square(&s, f, RANKS - 1 - r)];
            char fen = p == NO_PIECE ? '.' : variant_letter(v, piece_type(p));
            if (p != NO_PIECE && piece_color(p) == BLACK)
                fen = (char)(fen - 'A' + 'a');
            unsigned char c = (unsigned char)rows[r][f];
            if (to_fen[c] && to_fen[c] != fen)
                fail_msg("Fairy-Max shows '%c' for both %c and %c", c, to_fen[c], fen);
            to_fen[c] = fen;
        }
    free(out);
}

/* The placement field of Fairy-Max's board after a set-up block. */
static void fairymax_board(const Variant *v, const char to_fen[256], const char *block, Texts *out)
{
    size_t len = strlen(block);
    char *commands = malloc(len + 4);
    assert_non_null(commands);
    snprintf(commands, len + 4, "%sp\n", block);
    char *answer = replay(FAIRYMAX, commands);
    char rows[RANKS][MAX_FILES + 1], placement[FEN_MAX];
    if (fairymax_rows(answer, rows, v->files) != RANKS)
        fail_msg("no board in Fairy-Max's answer after:\n%s\n%s", block, answer);
    size_t used = 0;
    for (int r = 0; r < RANKS; r++) {
        int empty = 0;
        for (int f = 0; f < v->files; f++) {
            char fen = to_fen[(unsigned char)rows[r][f]];
            if (!fen)
                fail_msg("Fairy-Max shows '%c', a piece not in the start array", rows[r][f]);
            if (fen == '.') {
                empty++;
                continue;
            }
            if (empty)
                used += (size_t)snprintf(placement + used, sizeof placement - used, "%d", empty);
            empty = 0;
            placement[used++] = fen;
        }
        if (empty)
            used += (size_t)snprintf(placement + used, sizeof placement - used, "%d", empty);
        if (r + 1 < RANKS)
            placement[used++] = '/';
    }
    texts_add(out, placement, used);
    free(answer);
    free(commands);
}

/* The first four fields of the FEN Sjaak II prints for `fen` after a set-up block. */
static void sjaak_board(const char *block, Texts *out)
{
    size_t len = strlen(block);
    char *commands = malloc(len + 8);
    assert_non_null(commands);
    snprintf(commands, len + 8, "%sfen\n", block);
    char *answer = replay(SJAAKII, commands);
    const char *fen = NULL;
    for (const char *line = answer; *line && !fen;) {
        size_t n = strcspn(line, " \n"), slashes = 0;
        for (size_t i = 0; i < n; i++)
            slashes += line[i] == '/';
        if (slashes == RANKS - 1)
            fen = line;
        line += strcspn(line, "\n");
        line += *line == '\n';
    }
    if (!fen)
        fail_msg("no FEN in Sjaak II's answer after:\n%s\n%s", block, answer);
    char first[FEN_MAX];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(fen, "\n"), fen);
    fen_fields(first, 4, out);
    free(answer);
    free(commands);
}

/* Both lists hold the same texts, in any order. */
static void expect_same(const char *what, Texts *got, Texts *want)
{
    qsort(got->item, (size_t)got->n, sizeof *got->item, compare_texts);
    qsort(want->item, (size_t)want->n, sizeof *want->item, compare_texts);
    if (got->n != want->n)
        fail_msg("%s: %d positions set up, %d games in the PGN", what, got->n, want->n);
    for (int i = 0; i < got->n; i++)
        if (strcmp(got->item[i], want->item[i]) != 0)
            fail_msg("%s: the engine's board '%s', a game's start '%s'", what, got->item[i],
                     want->item[i]);
}

/* Whether any block holds the text. */
static bool any_holds(const Texts *blocks, const char *text)
{
    for (int i = 0; i < blocks->n; i++)
        if (strstr(blocks->item[i], text))
            return true;
    return false;
}

static void play(const char *variant, int random_plies)
{
    if (access(FAIRYMAX, X_OK) != 0 || access(SJAAKII, X_OK) != 0) {
        /* scripts/setup installs both engines; a hand-made machine may lack them */
        fprintf(stderr, "skipped: %s or %s is not installed\n", FAIRYMAX, SJAAKII);
        skip();
    }
    char config[2048];
    snprintf(config, sizeof config,
             "[match]\nvariant = %s\nimbalances = P, N\ngames = 2\nrandom_plies = %d\nseed = 5\n"
             "concurrency = 1\nmax_plies = 40\n"
             "[player1]\nname = Fairy-Max\nengine = xboard\n"
             "command = sh %s/cecp_tap.sh %s/%s-fairymax %s\ndepth = 2\nhash = 16\n"
             "[player2]\nname = Sjaak II\nengine = xboard\n"
             "command = sh %s/cecp_tap.sh %s/%s-sjaak %s\ndepth = 2\nhash = 16\n"
             "option.Send O-O/O-O-O for castling = 0\n",
             variant, random_plies, CARRERA_MATCH_DATA, scratch_dir, variant, FAIRYMAX,
             CARRERA_MATCH_DATA, scratch_dir, variant, SJAAKII);
    run_match(variant, config);

    const Variant *v = variant_by_name(variant);
    char prefix[128], to_fen[256];
    Texts blocks = { .n = 0 }, got = { .n = 0 }, want = { .n = 0 };

    /* Fairy-Max: edit, and its board's placement */
    snprintf(prefix, sizeof prefix, "%s-fairymax", variant);
    setups(prefix, &blocks);
    assert_true(any_holds(&blocks, "\nedit\n"));
    assert_false(any_holds(&blocks, "setboard"));
    if (random_plies % 2)
        assert_true(any_holds(&blocks, "\na2a3\nedit\n")); /* Black to move */
    fairymax_letters(v, variant, to_fen);
    for (int i = 0; i < blocks.n; i++)
        fairymax_board(v, to_fen, blocks.item[i], &got);
    pgn_starts(variant, 1, &want);
    expect_same("Fairy-Max", &got, &want);
    texts_free(&blocks);
    texts_free(&got);
    texts_free(&want);

    /* Sjaak II: setboard, and its FEN's placement, side to move, castling and en passant */
    snprintf(prefix, sizeof prefix, "%s-sjaak", variant);
    setups(prefix, &blocks);
    assert_true(any_holds(&blocks, "\nsetboard "));
    assert_false(any_holds(&blocks, "\nedit\n"));
    for (int i = 0; i < blocks.n; i++)
        sjaak_board(blocks.item[i], &got);
    pgn_starts(variant, 4, &want);
    expect_same("Sjaak II", &got, &want);
    printf("%s: %d start positions read back from each engine's board\n", variant, got.n);
    texts_free(&blocks);
    texts_free(&got);
    texts_free(&want);
}

static void test_capablanca(void **state)
{
    (void)state;
    play("capablanca", 0);
}

static void test_gothic(void **state)
{
    (void)state;
    play("gothic", 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capablanca),
        cmocka_unit_test(test_gothic),
    };
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
