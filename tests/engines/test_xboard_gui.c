/* SPDX-License-Identifier: MIT */
/* XBoard itself drives `carrera xboard`: under an Xvfb display that the test starts and stops by
 * its PID (in the teardown, so also when the test fails), XBoard plays one game of Capablanca
 * chess in match mode (-mg 1) between `carrera xboard` (first engine, White) and Fairy-Max,
 * without pondering, at 15 seconds a side plus 0.1 s a move, a draw adjudicated after 80 moves,
 * and saves the game as PGN. The game must end normally: a result in the PGN, no illegal move,
 * forfeit, time loss or engine error in XBoard's record or its debug log, and every move legal
 * by Carrera's rules when the PGN is replayed. A screenshot of the final board (X window dump)
 * is kept beside the PGN in xboard-gui/ of the build tree, and its path printed. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "errmsg.h"
#include "files.h"
#include "game.h"
#include "notation.h"
#include "setup.h"
#include "variant.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must name the carrera binary"
#endif

#define XBOARD   "/usr/games/xboard"
#define FAIRYMAX "/usr/games/fairymax"
#define XVFB     "/usr/bin/Xvfb"
#define XWD      "/usr/bin/xwd"
#define OUT_DIR  "xboard-gui"
#define PGN      OUT_DIR "/game.pgn"
#define DEBUG    OUT_DIR "/xboard.debug"
#define SHOT     OUT_DIR "/final-board.xwd"
/* A game at 15 s a side ends within about a minute; this guards against a hang. */
#define GAME_TIMEOUT_MS 150000

typedef struct Gui {
    pid_t xvfb, xboard; /* 0: not running */
    int display;
    char display_name[16];
} Gui;

static pid_t spawn(char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid == 0) {
        /* a process group of its own, so that the engines XBoard starts end with it */
        setpgid(0, 0);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

/* Ends a process group the test started, politely first. */
static void stop(pid_t *pid)
{
    if (*pid <= 0)
        return;
    kill(-*pid, SIGTERM);
    int64_t deadline = monotonic_ms() + 3000;
    int status;
    while (waitpid(*pid, &status, WNOHANG) == 0) {
        if (monotonic_ms() > deadline) {
            kill(-*pid, SIGKILL);
            waitpid(*pid, &status, 0);
            break;
        }
        struct timespec pause = { 0, 20000000 };
        nanosleep(&pause, NULL);
    }
    *pid = 0;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int setup(void **state)
{
    static Gui gui;
    gui = (Gui){ 0 };
    *state = &gui;
    static const char *const needed[] = { XBOARD, FAIRYMAX, XVFB, XWD };
    for (size_t i = 0; i < sizeof needed / sizeof *needed; i++)
        if (access(needed[i], X_OK) != 0) {
            fprintf(stderr, "%s is not installed (scripts/setup installs it)\n", needed[i]);
            return -1;
        }
    mkdir(OUT_DIR, 0755);
    remove(PGN);
    remove(DEBUG);
    remove(SHOT);
    /* a display nobody uses: neither its lock nor its socket exists */
    for (gui.display = 90 + getpid() % 100; gui.display < 400; gui.display++) {
        char lock[64], socket[64];
        snprintf(lock, sizeof lock, "/tmp/.X%d-lock", gui.display);
        snprintf(socket, sizeof socket, "/tmp/.X11-unix/X%d", gui.display);
        if (!exists(lock) && !exists(socket))
            break;
    }
    snprintf(gui.display_name, sizeof gui.display_name, ":%d", gui.display);
    char *const argv[] = { XVFB,          gui.display_name, "-screen", "0",
                           "1024x768x24", "-nolisten",      "tcp",     NULL };
    gui.xvfb = spawn(argv, OUT_DIR "/xvfb.log");
    char socket[64];
    snprintf(socket, sizeof socket, "/tmp/.X11-unix/X%d", gui.display);
    for (int64_t deadline = monotonic_ms() + 10000; !exists(socket);) {
        if (monotonic_ms() > deadline || waitpid(gui.xvfb, NULL, WNOHANG) != 0) {
            fprintf(stderr, "Xvfb did not start on %s (see %s/xvfb.log)\n", gui.display_name,
                    OUT_DIR);
            return -1;
        }
        struct timespec pause = { 0, 20000000 };
        nanosleep(&pause, NULL);
    }
    return 0;
}

static int teardown(void **state)
{
    Gui *gui = *state;
    stop(&gui->xboard);
    stop(&gui->xvfb);
    return 0;
}

/* The PGN once XBoard has written a finished game into it, else NULL. */
static char *finished_game(void)
{
    if (!exists(PGN))
        return NULL;
    char *pgn = read_bytes(PGN, NULL);
    if (pgn && strstr(pgn, "[Result \"") && !strstr(pgn, "[Result \"*\"]")) {
        /* the movetext ends with the result too */
        size_t len = strlen(pgn);
        while (len && (pgn[len - 1] == '\n' || pgn[len - 1] == ' '))
            len--;
        if (len >= 3 &&
            (strncmp(pgn + len - 3, "1-0", 3) == 0 || strncmp(pgn + len - 3, "0-1", 3) == 0 ||
             (len >= 7 && strncmp(pgn + len - 7, "1/2-1/2", 7) == 0)))
            return pgn;
    }
    free(pgn);
    return NULL;
}

/* Replays the movetext (comments and move numbers skipped) by Carrera's rules. */
static int replay(const char *pgn, Game *g)
{
    const char *text = strstr(pgn, "\n\n");
    assert_non_null(text);
    char *copy = strdup(text), *save = NULL;
    assert_non_null(copy);
    for (char *c = copy, depth = 0; *c; c++) {
        if (*c == '{')
            depth++;
        if (depth)
            *c = *c == '}' ? (depth--, ' ') : ' ';
    }
    int plies = 0;
    for (char *t = strtok_r(copy, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
        if (strcmp(t, "1-0") == 0 || strcmp(t, "0-1") == 0 || strcmp(t, "1/2-1/2") == 0)
            break;
        char *dot = strrchr(t, '.');
        if (dot)
            t = dot + 1;
        if (!*t)
            continue;
        Move m;
        char err[ERRMSG_LEN];
        if (!notation_move_from_san(&g->pos, t, &m, err, sizeof err))
            fail_msg("move %d of XBoard's game, '%s', is illegal by Carrera's rules: %s", plies + 1,
                     t, err);
        Turn turn = { { m, MOVE_NONE }, 1 };
        assert_true(game_play(g, &turn));
        plies++;
    }
    free(copy);
    return plies;
}

static void test_xboard_plays_fairymax(void **state)
{
    Gui *gui = *state;
    setenv("DISPLAY", gui->display_name, 1);
    char *const argv[] = { XBOARD,
                           "-variant",
                           "capablanca",
                           "-fcp",
                           CARRERA_BIN " xboard",
                           "-fd",
                           ".",
                           "-scp",
                           FAIRYMAX,
                           "-sd",
                           ".",
                           "-mg",
                           "1",
                           "-tc",
                           "0:15",
                           "-inc",
                           "0.1",
                           "-xponder",
                           "-adjudicateDrawMoves",
                           "80",
                           "-sgf",
                           PGN,
                           "-debug",
                           "-nameOfDebugFile",
                           DEBUG,
                           NULL };
    int64_t start = monotonic_ms();
    gui->xboard = spawn(argv, OUT_DIR "/xboard.log");
    char *pgn;
    while (!(pgn = finished_game())) {
        if (monotonic_ms() - start > GAME_TIMEOUT_MS)
            fail_msg("no finished game in %s after %d s (see %s)", PGN, GAME_TIMEOUT_MS / 1000,
                     DEBUG);
        if (waitpid(gui->xboard, NULL, WNOHANG) != 0) {
            gui->xboard = 0;
            fail_msg("XBoard ended without a finished game in %s (see %s/xboard.log)", PGN,
                     OUT_DIR);
        }
        struct timespec pause = { 0, 200000000 };
        nanosleep(&pause, NULL);
    }
    /* XBoard shows the final board with the match's score: let it draw, then dump the screen */
    struct timespec settle = { 1, 0 };
    nanosleep(&settle, NULL);
    char *const shot[] = { XWD,    "-root", "-silent", "-display", gui->display_name,
                           "-out", SHOT,    NULL };
    pid_t xwd = spawn(shot, OUT_DIR "/xwd.log");
    int status;
    assert_int_equal(waitpid(xwd, &status, 0), xwd);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char cwd[4096];
    printf("game: %s/%s (%.1f s)\nscreenshot of the final board: %s/%s\n",
           getcwd(cwd, sizeof cwd) ? cwd : ".", PGN, (monotonic_ms() - start) / 1000.0, cwd, SHOT);

    /* the PGN: Carrera as White against Fairy-Max, a normal end */
    assert_non_null(strstr(pgn, "[White \"Carrera "));
    assert_non_null(strstr(pgn, "[Black \"Fairy-Max"));
    assert_non_null(strstr(pgn, "[Variant \"capablanca\"]"));
    static const char *const bad[] = { "llegal", "forfeit", "on time",   "loses on",
                                       "False",  "crash",   "disconnect" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (strstr(pgn, bad[i]))
            fail_msg("the game did not end normally ('%s' in %s):\n%s", bad[i], PGN, pgn);
    Setup s;
    setup_start(&s, variant_by_name("capablanca"));
    Position p;
    position_from_setup(&p, &s);
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    Game g;
    assert_true(game_init(&g, &p, &single, false));
    int plies = replay(pgn, &g);
    int winner;
    Termination end = game_status(&g, &winner);
    printf("%d plies, result %s, by Carrera's rules: %s\n", plies,
           strstr(pgn, "[Result \"1-0\"]")   ? "1-0"
           : strstr(pgn, "[Result \"0-1\"]") ? "0-1"
                                             : "1/2-1/2",
           termination_name(end));
    if (strstr(pgn, "Checkmate"))
        assert_int_equal(end, TERM_CHECKMATE);
    game_free(&g);
    free(pgn);

    /* the debug log: Carrera never refused a move or a command of XBoard's */
    char *log = read_bytes(DEBUG, NULL);
    assert_non_null(log);
    for (char *line = log; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (strstr(line, "<first : Illegal move") || strstr(line, "<first : Error") ||
            strstr(line, "<first : tellusererror"))
            fail_msg("carrera xboard answered XBoard with '%s' (see %s)", line, DEBUG);
        line = next;
    }
    free(log);
    /* the match is over: XBoard waits on its final-score message, which the teardown closes */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_xboard_plays_fairymax, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
