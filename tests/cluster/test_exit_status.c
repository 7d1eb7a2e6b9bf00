/* SPDX-License-Identifier: MIT */
/* The exit statuses of docs/commands.md#exit-status, command by command: each documented failure
 * run through the built `carrera`, its status checked and its stderr checked to begin with
 * `carrera: error:`. The same failure must give the same status in every command: an MPI that
 * does not start once exited 2 from match and 1 from perft, an out-of-memory uci 2 where perft
 * gave 1. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "run.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must name the carrera binary"
#endif

/* The statuses as docs/commands.md gives them: a script reads these numbers, so the test spells
 * them out instead of taking them from the header it checks. */
enum { OK = 0, USAGE = 2, FAILED = 3 };

/* A sanitizer reserves terabytes of address space: an address-space limit stops it first. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif

#define MAX_ARGS 32

/* How carrera is run. */
typedef enum Way {
    PLAIN,
    MPI_BROKEN,   /* as if srun had started two tasks that MPI does not join into one job */
    STDOUT_FULL,  /* stdout on /dev/full: every write to it fails */
    LITTLE_MEMORY /* an address space of 256 MB */
} Way;

/* Under AddressSanitizer the MPI case turns leak detection off: what Open MPI allocates as it
 * starts (in plug-ins it unloads again) is never freed by a job refused right after MPI_Init. */
static const char *const WRAPPERS[][5] = {
    [PLAIN] = { NULL },
    [MPI_BROKEN] = { "env", "SLURM_STEP_NUM_TASKS=2", "ASAN_OPTIONS=detect_leaks=0", NULL },
    [STDOUT_FULL] = { "sh", "-c", "exec \"$0\" \"$@\" >/dev/full", NULL },
    [LITTLE_MEMORY] = { "sh", "-c", "ulimit -v 262144 && exec \"$0\" \"$@\"", NULL },
};

/* Runs carrera with the NULL-terminated arguments after first, the way given, and checks the
 * exit status, that stderr contains mention and that it begins with a `carrera: error: ` line;
 * or ends with it, for a failure that comes after lines of progress (bench's, or the MPI
 * library's own). */
static void expect(int status, const char *mention, Way way, const char *first, ...)
{
    const char *argv[MAX_ARGS];
    int n = 0;
    for (int i = 0; WRAPPERS[way][i]; i++)
        argv[n++] = WRAPPERS[way][i];
    argv[n++] = CARRERA_BIN;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a; a = va_arg(ap, const char *)) {
        assert_true(n < MAX_ARGS - 1);
        argv[n++] = a;
    }
    va_end(ap);
    argv[n] = NULL;
    Run r = run_program(argv);
    const char *error = strstr(r.err, "carrera: error: ");
    while (error && error != r.err && error[-1] != '\n')
        error = strstr(error + 1, "carrera: error: ");
    bool placed = error && (error == r.err || strchr(error, '\n') == r.err + strlen(r.err) - 1);
    if (r.status != status || !placed || !strstr(r.err, mention)) {
        char command[2048] = "";
        for (int i = 0; i < n; i++)
            snprintf(command + strlen(command), sizeof command - strlen(command), "%s%s",
                     i ? " " : "", argv[i]);
        fail_msg("%s: status %d, stderr '%s'; expected %d, a first or last line "
                 "'carrera: error: ...' and '%s'",
                 command, r.status, r.err, status, mention);
    }
    run_free(&r);
}

/* A path in the scratch directory. */
static const char *at(const char *name)
{
    static char paths[16][512];
    static int next;
    char *p = paths[next++ % 16];
    snprintf(p, sizeof paths[0], "%s/%s", scratch_dir, name);
    return p;
}

static void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

/* Files the tests share: a regular file to put paths under, job and match files good and bad, a
 * plain match's result and a piece-value run's (two games each, a fraction of a second). */
static int make_files(void **state)
{
    if (scratch_setup(state) != 0)
        return -1;
    write_text(at("file"), "a regular file, not a directory\n");
    write_text(at("job.ini"), "[perft]\nvariant = chess\nposition = startpos\ndepth = 2\n");
    write_text(at("job-bad.ini"), "[perft]\nvariant = chess\nposition = startpos\ndeth = 2\n");
    write_text(at("match.ini"), "[match]\ngames = 2\nmax_plies = 10\n[player1]\nnodes = 50\n"
                                "[player2]\nnodes = 50\n");
    write_text(at("match-bad.ini"), "[match]\ngames = 2\nplies = 10\n[player1]\nnodes = 50\n"
                                    "[player2]\nnodes = 50\n");
    write_text(at("engine.ini"),
               "[match]\ngames = 2\nmax_plies = 10\n[player1]\nengine = uci\n"
               "command = /nonexistent/engine\nnodes = 50\n[player2]\nnodes = 50\n");
    write_text(at("imbalance.ini"), "[match]\nimbalances = P\ngames = 2\nmax_plies = 10\n"
                                    "[player1]\nnodes = 50\n[player2]\nnodes = 50\n");
    write_text(at("tune-bad.ini"), "[tune]\nmethod = annealing\n");
    char text[1024];
    snprintf(text, sizeof text, "[tune]\nmethod = regression\ngames = %s\n", at("match.h5"));
    write_text(at("regression.ini"), text);
    snprintf(text, sizeof text, "[tune]\nmethod = regression\ngames = %s\n", at("none.h5"));
    write_text(at("regression-missing.ini"), text);
    const char *plays[][2] = { { "match.ini", "match" }, { "imbalance.ini", "imbalance" } };
    for (int i = 0; i < 2; i++) {
        char h5[512], pgn[512];
        snprintf(h5, sizeof h5, "%s/%s.h5", scratch_dir, plays[i][1]);
        snprintf(pgn, sizeof pgn, "%s/%s.pgn", scratch_dir, plays[i][1]);
        const char *argv[] = { CARRERA_BIN, "match", "--config", at(plays[i][0]), "--out",
                               h5,          "--pgn", pgn,        "--quiet",       NULL };
        Run r = run_program(argv);
        int status = r.status;
        run_free(&r);
        if (status != OK)
            return -1;
    }
    return 0;
}

static void test_program(void **state)
{
    (void)state;
    expect(USAGE, "no command given", PLAIN, NULL);
    expect(USAGE, "unknown command 'frobnicate'", PLAIN, "frobnicate", NULL);
    expect(USAGE, "unknown option '--frob'", PLAIN, "--frob", NULL);
}

static void test_perft(void **state)
{
    (void)state;
    expect(USAGE, "unknown option '--bogus'", PLAIN, "perft", "--startpos", "--depth", "1",
           "--bogus", NULL);
    expect(USAGE, "bad depth '31'", PLAIN, "perft", "--startpos", "--depth", "31", NULL);
    expect(USAGE, "'deth' is unknown", PLAIN, "perft", "--config", at("job-bad.ini"), NULL);
    expect(USAGE, "none.ini", PLAIN, "perft", "--config", at("none.ini"), NULL);
    expect(USAGE, "no checkpoint to resume", PLAIN, "perft", "--startpos", "--depth", "2", "--out",
           at("none.h5"), "--resume", "--quiet", NULL);
    expect(USAGE, "already exists", PLAIN, "perft", "--startpos", "--depth", "2", "--out",
           at("file"), "--quiet", NULL);
    /* a checkpoint of another job: a match's result given to perft */
    expect(USAGE, "not a Carrera checkpoint", PLAIN, "perft", "--startpos", "--depth", "2", "--out",
           at("match.h5"), "--resume", "--quiet", NULL);
    expect(FAILED, "file/p.h5", PLAIN, "perft", "--startpos", "--depth", "2", "--out",
           at("file/p.h5"), "--quiet", NULL);
    expect(FAILED, "cannot write the output", STDOUT_FULL, "perft", "--startpos", "--depth", "2",
           "--quiet", NULL);
    expect(FAILED, "cannot write the output", STDOUT_FULL, "perft", "--startpos", "--depth", "2",
           "--stats", NULL);
#ifndef SANITIZED
    /* a table that passes the check against the machine's memory, then cannot be allocated */
    expect(FAILED, "out of memory", LITTLE_MEMORY, "perft", "--startpos", "--depth", "3",
           "--threads", "1", "--hash", "512", "--quiet", NULL);
    expect(FAILED, "out of memory", LITTLE_MEMORY, "perft", "--startpos", "--depth", "3",
           "--threads", "1", "--hash", "512", "--out", at("oom.h5"), "--quiet", NULL);
#endif
}

/* The same launch failure in every distributed command (it was 2 in match and tune, 1 in perft). */
static void test_mpi_start(void **state)
{
    (void)state;
    expect(FAILED, "", MPI_BROKEN, "perft", "--startpos", "--depth", "1", "--out", at("mpi.h5"),
           "--quiet", NULL);
    expect(FAILED, "", MPI_BROKEN, "perft", "--config", at("job.ini"), "--out", at("mpi.h5"),
           "--quiet", NULL);
    expect(FAILED, "", MPI_BROKEN, "match", "--config", at("match.ini"), "--out", at("mpi.h5"),
           "--pgn", at("mpi.pgn"), "--quiet", NULL);
    expect(FAILED, "", MPI_BROKEN, "tune", "--config", at("imbalance.ini"), "--out", at("mpi.h5"),
           "--pgn", at("mpi.pgn"), "--quiet", NULL);
}

static void test_match(void **state)
{
    (void)state;
    expect(USAGE, "unknown option '--games'", PLAIN, "match", "--config", at("match.ini"),
           "--games", "4", NULL);
    expect(USAGE, "needs --config", PLAIN, "match", NULL);
    expect(USAGE, "'plies'", PLAIN, "match", "--config", at("match-bad.ini"), NULL);
    expect(USAGE, "none.ini", PLAIN, "match", "--config", at("none.ini"), NULL);
    expect(USAGE, "already exists", PLAIN, "match", "--config", at("match.ini"), "--out",
           at("match.h5"), "--pgn", at("again.pgn"), "--quiet", NULL);
    expect(USAGE, "the configuration differs", PLAIN, "match", "--config", at("match.ini"), "--out",
           at("imbalance.h5"), "--pgn", at("again.pgn"), "--resume", "--quiet", NULL);
    expect(FAILED, "file/m.h5", PLAIN, "match", "--config", at("match.ini"), "--out",
           at("file/m.h5"), "--pgn", at("m.pgn"), "--quiet", NULL);
    expect(FAILED, "file/m.pgn", PLAIN, "match", "--config", at("match.ini"), "--out", at("m.h5"),
           "--pgn", at("file/m.pgn"), "--quiet", NULL);
    expect(FAILED, "cannot start the engine", PLAIN, "match", "--config", at("engine.ini"), "--out",
           at("engine.h5"), "--pgn", at("engine.pgn"), "--quiet", NULL);
}

static void test_tune(void **state)
{
    (void)state;
    expect(USAGE, "needs --config", PLAIN, "tune", NULL);
    expect(USAGE, "'annealing'", PLAIN, "tune", "--config", at("tune-bad.ini"), NULL);
    expect(USAGE, "imbalances", PLAIN, "tune", "--config", at("match.ini"), "--out", at("t.h5"),
           "--pgn", at("t.pgn"), "--quiet", NULL);
    expect(USAGE, "none.h5", PLAIN, "tune", "--config", at("regression-missing.ini"), "--out",
           at("t.h5"), NULL);
    /* refused before the work, as perft's and match's outputs are (it was 1, after the fit) */
    expect(USAGE, "already exists", PLAIN, "tune", "--config", at("regression.ini"), "--out",
           at("file"), NULL);
    expect(FAILED, "file/t.h5", PLAIN, "tune", "--config", at("regression.ini"), "--out",
           at("file/t.h5"), NULL);
}

static void test_report(void **state)
{
    (void)state;
    expect(USAGE, "needs one or more result files", PLAIN, "report", NULL);
    expect(USAGE, "--replicates", PLAIN, "report", at("imbalance.h5"), "--replicates", "0", NULL);
    /* a file the report cannot take is a bad request, as a bad configuration is (it was 1) */
    expect(USAGE, "none.h5", PLAIN, "report", at("none.h5"), NULL);
    expect(USAGE, "not an HDF5 file", PLAIN, "report", at("match.ini"), NULL);
    expect(USAGE, "not a piece-value run", PLAIN, "report", at("match.h5"), NULL);
    expect(FAILED, "file/report", PLAIN, "report", at("imbalance.h5"), "--out", at("file/report"),
           "--replicates", "10", NULL);
}

static void test_bench(void **state)
{
    (void)state;
    expect(USAGE, "--depth takes a whole number", PLAIN, "bench", "--depth", "0", NULL);
    expect(USAGE, "none.ini", PLAIN, "bench", "--eval", at("none.ini"), NULL);
    expect(FAILED, "cannot write the output", STDOUT_FULL, "bench", "--depth", "1", NULL);
}

static void test_check_config(void **state)
{
    (void)state;
    expect(USAGE, "needs one configuration FILE", PLAIN, "check-config", NULL);
    expect(USAGE, "none.ini", PLAIN, "check-config", at("none.ini"), NULL);
    expect(USAGE, "'deth' is unknown", PLAIN, "check-config", at("job-bad.ini"), NULL);
    expect(FAILED, "cannot write the output", STDOUT_FULL, "check-config", at("job.ini"), NULL);
}

static void test_uci(void **state)
{
    (void)state;
    expect(USAGE, "unexpected argument 'extra'", PLAIN, "uci", "extra", NULL);
    expect(USAGE, "none.ini", PLAIN, "uci", "--eval", at("none.ini"), NULL);
    expect(USAGE, "section [perft] is unknown", PLAIN, "uci", "--eval", at("job-bad.ini"), NULL);
}

/* bisect and verify check an engine: Carrera's own `carrera uci` is one that agrees. */
static void test_bisect(void **state)
{
    (void)state;
    expect(USAGE, "needs --engine", PLAIN, "bisect", "--startpos", "--depth", "1", NULL);
    expect(FAILED, "cannot start the engine", PLAIN, "bisect", "--engine", "/nonexistent/engine",
           "--startpos", "--depth", "1", "--quiet", NULL);
    expect(FAILED, "exited", PLAIN, "bisect", "--engine", "true", "--startpos", "--depth", "1",
           "--quiet", NULL);
    expect(FAILED, "could not be written", STDOUT_FULL, "bisect", "--engine", CARRERA_BIN " uci",
           "--startpos", "--depth", "2", "--quiet", NULL);
}

static void test_verify(void **state)
{
    (void)state;
    const char *engine = CARRERA_BIN " uci";
    expect(USAGE, "verify needs positions", PLAIN, "verify", "--engine", engine, NULL);
    expect(USAGE, "is not a journal", PLAIN, "verify", "--engine", engine, "--random", "2",
           "--depth", "1", "--resume", at("job.ini"), "--quiet", NULL);
    expect(FAILED, "the engine cannot be used", PLAIN, "verify", "--engine", "/nonexistent/engine",
           "--random", "2", "--depth", "1", "--quiet", NULL);
    expect(FAILED, "file/journal", PLAIN, "verify", "--engine", engine, "--random", "2", "--depth",
           "1", "--resume", at("file/journal"), "--quiet", NULL);
    expect(FAILED, "file/report.xml", PLAIN, "verify", "--engine", engine, "--random", "2",
           "--depth", "1", "--junit", at("file/report.xml"), "--quiet", NULL);
    expect(FAILED, "could not be written", STDOUT_FULL, "verify", "--engine", engine, "--random",
           "2", "--depth", "1", "--quiet", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_program),   cmocka_unit_test(test_perft),
        cmocka_unit_test(test_mpi_start), cmocka_unit_test(test_match),
        cmocka_unit_test(test_tune),      cmocka_unit_test(test_report),
        cmocka_unit_test(test_bench),     cmocka_unit_test(test_check_config),
        cmocka_unit_test(test_uci),       cmocka_unit_test(test_bisect),
        cmocka_unit_test(test_verify),
    };
    return cmocka_run_group_tests(tests, make_files, scratch_teardown);
}
