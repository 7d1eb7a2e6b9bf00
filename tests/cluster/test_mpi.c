/* SPDX-License-Identifier: MIT */
/* Distributed perft end to end (cluster/mpi/, cluster/perft/): the
 * `carrera` program run under the MPI launcher given on the command line (`test_mpi mpiexec -n
 * 2`, `test_mpi mpiexec -n 3 --oversubscribe`), and once without it. Totals must equal the serial
 * perft on positions of every variant family and one Marseillais rule set; each result file is
 * read back with the HDF5 C API (total, divide, units times multiplicities); a job killed with
 * SIGKILL in the middle resumes to the same total with every unit counted once; a checkpoint of
 * another job is refused. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <hdf5.h>

#include "errmsg.h"
#include "perft_result.h"
#include "position.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"

/* The launcher and its options, from the command line (none: the tests run without MPI). */
static char **launcher;
static int n_launcher;
static int ranks = 1;
static char tmpdir[] = "/tmp/carrera_mpi_XXXXXX";

/* ---- running carrera ---- */

/* argv for `[launcher] carrera args...` (NULL-terminated); serial: without the launcher. */
static char **command(bool serial, const char *const *args)
{
    static char *argv[64];
    int n = 0;
    for (int i = 0; !serial && i < n_launcher; i++)
        argv[n++] = launcher[i];
    argv[n++] = (char *)CARRERA_BIN;
    for (int i = 0; args[i]; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    return argv;
}

/* Starts argv with stdout and stderr into files under tmpdir; returns the pid. */
static pid_t start(char **argv, const char *out, const char *err)
{
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0)
            _exit(126);
        dup2(o, 1);
        dup2(e, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static int finish(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        assert_int_equal(errno, EINTR);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Runs carrera with args; returns its exit status; *out, *err the output (static buffers). */
static int run(bool serial, const char *const *args, char **out, char **err)
{
    char o[256], e[256];
    snprintf(o, sizeof o, "%s/stdout", tmpdir);
    snprintf(e, sizeof e, "%s/stderr", tmpdir);
    int rc = finish(start(command(serial, args), o, e));
    static char out_buf[1 << 16], err_buf[1 << 16];
    snprintf(out_buf, sizeof out_buf, "%s", slurp(o));
    snprintf(err_buf, sizeof err_buf, "%s", slurp(e));
    if (out)
        *out = out_buf;
    if (err)
        *err = err_buf;
    if (rc != 0)
        fprintf(stderr, "carrera exited %d; stderr:\n%s", rc, err_buf);
    return rc;
}

/* ---- the totals ---- */

typedef struct Case {
    const char *name;
    const char *variant, *fen, *turns; /* fen NULL: the start position */
    int depth;
    const char *threads, *hash, *split; /* split NULL: chosen */
} Case;

static const Case cases[] = {
    { "chess", "chess", NULL, NULL, 4, "1", "1", NULL },
    { "kiwipete", "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      NULL, 3, "1", "0", "2" },
    { "chess960", "chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
      NULL, 4, "2", "4", NULL },
    { "capablanca", "capablanca", NULL, NULL, 4, "1", "2", "3" },
    { "gothic", "gothic", NULL, NULL, 3, "1", "0", NULL },
    { "caparandom", "caparandom",
      "rbqnkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR w JAja - 0 1", NULL, 3, "2", "0",
      NULL },
    { "marseillais", "chess", "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 2",
      "marseillais", 2, "1", "1", "1" },
};

static uint64_t serial_perft(const Case *c)
{
    const Variant *v = variant_by_name(c->variant);
    assert_non_null(v);
    Rules r = { TURNS_SINGLE, EP_CLASSIC };
    if (c->turns)
        assert_true(turn_rules_parse(c->turns, &r.turns));
    Setup s;
    char err[ERRMSG_LEN];
    if (c->fen)
        assert_int_equal(setup_from_fen_rules(&s, v, &r, c->fen, err, sizeof err), 0);
    else
        setup_start(&s, v);
    Position p;
    position_from_setup(&p, &s);
    return perft_turns(&p, &r, c->depth);
}

/* `Nodes searched: N` of the output; the divide lines must add up to it. */
static uint64_t parse_output(const char *out, bool divide)
{
    uint64_t sum = 0, total = NOT_DONE;
    const char *line = out;
    while (*line) {
        const char *colon = strstr(line, ": ");
        const char *end = strchr(line, '\n');
        if (strncmp(line, "Nodes searched: ", 16) == 0)
            total = strtoull(line + 16, NULL, 10);
        else if (colon && (!end || colon < end) && strncmp(line, "Unit: ", 6) != 0)
            sum += strtoull(colon + 2, NULL, 10);
        if (!end)
            break;
        line = end + 1;
    }
    assert_true(total != NOT_DONE);
    if (divide)
        assert_int_equal(sum, total);
    return total;
}

static void check_case(const Case *c, bool serial)
{
    char out_path[256], depth[8];
    snprintf(out_path, sizeof out_path, "%s/%s%s.h5", tmpdir, c->name, serial ? "-serial" : "");
    snprintf(depth, sizeof depth, "%d", c->depth);
    const char *args[32];
    int n = 0;
    args[n++] = "perft";
    args[n++] = "--variant";
    args[n++] = c->variant;
    if (c->fen) {
        args[n++] = "--fen";
        args[n++] = c->fen;
    } else {
        args[n++] = "--startpos";
    }
    if (c->turns) {
        args[n++] = "--turns";
        args[n++] = c->turns;
    }
    args[n++] = "--depth";
    args[n++] = depth;
    args[n++] = "--threads";
    args[n++] = c->threads;
    args[n++] = "--hash";
    args[n++] = c->hash;
    if (c->split) {
        args[n++] = "--split-depth";
        args[n++] = c->split;
    }
    args[n++] = "--divide";
    args[n++] = "--quiet";
    args[n++] = "--out";
    args[n++] = out_path;
    args[n] = NULL;
    char *out;
    assert_int_equal(run(serial, args, &out, NULL), 0);
    uint64_t expected = serial_perft(c);
    if (parse_output(out, true) != expected)
        fail_msg("%s: printed %s, serial perft %llu", c->name, out, (unsigned long long)expected);
    Result r;
    assert_int_equal(read_result(out_path, true, &r), 0);
    assert_int_equal(r.nodes, expected);
    assert_int_equal(r.divide_sum, expected);
    assert_true(r.n_divide > 0);
    assert_int_equal(r.ranks, serial ? 1 : ranks);
    assert_int_equal(r.n_hosts, serial ? 1 : (size_t)ranks);
    assert_int_equal(r.resumed, 0);
    check_units(&r, expected);
    free(r.units);
}

static void test_totals(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check_case(&cases[i], false);
}

/* The same binary without the launcher: one process, no MPI. */
static void test_serial(void **state)
{
    (void)state;
    check_case(&cases[0], true);
    check_case(&cases[6], true);
}

/* Capablanca perft 5 on every rank with a table, the shared table as extra says; returns the
 * result file read back, its total checked. */
static Result shared_job(const char *name, const char *const *extra)
{
    char path[256];
    snprintf(path, sizeof path, "%s/shared-%s.h5", tmpdir, name);
    const char *args[32] = { "perft",   "--variant", "capablanca", "--startpos", "--depth",
                             "5",       "--threads", "2",          "--hash",     "4",
                             "--quiet", "--out",     path };
    int n = 13;
    for (int i = 0; extra[i]; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    char *out, *err;
    assert_int_equal(run(false, args, &out, &err), 0);
    assert_int_equal(parse_output(out, false), 28741319);
    /* The summary of the work is printed, quiet or not. */
    assert_non_null(strstr(err, "work: "));
    Result r;
    assert_int_equal(read_result(path, true, &r), 0);
    assert_int_equal(r.nodes, 28741319);
    check_units(&r, 28741319);
    assert_int_equal(r.n_work, (size_t)ranks);
    assert_true(r.probes > 0);
    return r;
}

/* The shared table on by default over several ranks (here from depth 2, where every rank reaches
 * it all the time; and with its depth and size left to the job, which measures the depth), off
 * when asked, and holding nothing (every shared probe misses): the same total each time, and the
 * provenance and /perft/work say which table was used. */
static void test_shared_table(void **state)
{
    (void)state;
    const char *const on[] = { "--shared-depth", "2", NULL };
    Result r = shared_job("on", on);
    if (ranks > 1) {
        assert_non_null(strstr(r.tables, "shared table"));
        assert_null(strstr(r.tables, "no shared table"));
        assert_true(r.shared_probes > 0 && r.shared_hits > 0 && r.shared_remote > 0);
        /* Every rank of the test is on this node: every part reached through shared memory. */
        char direct[64];
        snprintf(direct, sizeof direct, "(%d of them reached by rank 0 through shared memory)",
                 ranks);
        assert_non_null(strstr(r.tables, direct));
    } else {
        assert_non_null(strstr(r.tables, "no shared table (one rank)"));
    }
    free(r.units);
    const char *const none[] = { NULL };
    r = shared_job("auto", none);
    if (ranks > 1) {
        assert_non_null(strstr(r.tables, "(measured: a probe of another rank"));
        /* The depth follows the machine's timings; this job's units are of depth 3, so only
         * counts of depth 2 are shared below their roots. */
        const char *at = strstr(r.tables, "counts of depth ");
        int depth = 0;
        assert_non_null(at);
        assert_int_equal(sscanf(at, "counts of depth %d", &depth), 1);
        assert_true(depth >= 2 && depth <= 5);
        assert_true(depth > 2 || (r.shared_probes > 0 && r.shared_remote > 0));
    }
    free(r.units);
    const char *const off[] = { "--shared-table", "off", NULL };
    r = shared_job("off", off);
    assert_non_null(strstr(r.tables, "no shared table"));
    assert_true(r.shared_probes == 0);
    free(r.units);
    const char *const empty[] = { "--shared-depth", "2", "--shared-mb", "0", NULL };
    r = shared_job("empty", empty);
    assert_true(r.shared_hits == 0);
    assert_true(ranks == 1 || r.shared_probes > 0);
    free(r.units);
}

/* A configuration file job. */
static void test_config(void **state)
{
    (void)state;
    char out_path[256];
    snprintf(out_path, sizeof out_path, "%s/marseillais-config.h5", tmpdir);
    const char *args[] = { "perft", "--config", CARRERA_MPI_CONFIGS "/marseillais.ini",
                           "--out", out_path,   "--quiet",
                           NULL };
    char *out;
    assert_int_equal(run(false, args, &out, NULL), 0);
    assert_non_null(strstr(out, "Unit: turns (marseillais, classic en passant)\n"));
    assert_int_equal(parse_output(out, false), 196646);
    Result r;
    assert_int_equal(read_result(out_path, true, &r), 0);
    assert_int_equal(r.nodes, 196646);
    check_units(&r, 196646);
    free(r.units);
}

/* ---- kill and resume ---- */

/* The pid of the child of parent that is MPI rank `rank`, or -1. */
static pid_t find_rank(pid_t parent, int rank)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    pid_t found = -1;
    struct dirent *e;
    char want[64];
    snprintf(want, sizeof want, "OMPI_COMM_WORLD_RANK=%d", rank);
    while (found < 0 && (e = readdir(d))) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid <= 0)
            continue;
        char path[64], buf[8192];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        int ppid = -1;
        char comm[256];
        if (fscanf(f, "%*d (%255[^)]) %*c %d", comm, &ppid) != 2)
            ppid = -1;
        fclose(f);
        if (ppid != parent)
            continue;
        snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1) {
            buf[n] = '\0';
            if (strcmp(buf + i, want) == 0)
                found = pid;
        }
    }
    closedir(d);
    return found;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
    nanosleep(&ts, NULL);
}

#define KILL_TOTAL 1015802437ULL /* Capablanca perft 6 */

static void test_kill_resume(void **state)
{
    (void)state;
    char path[256], o[256], e[256];
    snprintf(path, sizeof path, "%s/kill-resume.h5", tmpdir);
    snprintf(o, sizeof o, "%s/kill.out", tmpdir);
    snprintf(e, sizeof e, "%s/kill.err", tmpdir);
    const char *args[] = { "perft", "--config", CARRERA_MPI_CONFIGS "/kill-resume.ini",
                           "--out", path,       "--quiet",
                           NULL };
    const char *resume_args[] = { "perft",    "--config", CARRERA_MPI_CONFIGS "/kill-resume.ini",
                                  "--out",    path,       "--quiet",
                                  "--resume", NULL };
    /* Kill a worker under two ranks, the coordinator (the writer) under three. */
    const int victim = ranks == 3 ? 0 : ranks - 1;
    pid_t job = start(command(false, args), o, e);
    Result r = { 0 };
    size_t done = 0, total_units = 0;
    bool killed = false;
    for (int tries = 0; tries < 600 && !killed; tries++) {
        sleep_ms(50);
        int status;
        if (waitpid(job, &status, WNOHANG) == job)
            fail_msg("the job ended before it could be killed: %s", slurp(e));
        if (read_result(path, false, &r) != 0)
            continue;
        done = units_done(&r);
        total_units = r.n_units;
        free(r.units);
        if (done >= 20) {
            pid_t pid = find_rank(job, victim);
            if (pid > 0) {
                assert_int_equal(kill(pid, SIGKILL), 0);
                killed = true;
            }
        }
    }
    assert_true(killed);
    assert_int_not_equal(finish(job), 0);
    assert_int_equal(read_result(path, false, &r), 0);
    size_t before = units_done(&r);
    printf("killed rank %d with %zu of %zu units recorded (%zu seen while it ran)\n", victim,
           before, total_units, done);
    assert_true(before >= done && before < r.n_units);
    Result first = r;

    char *out;
    assert_int_equal(run(false, resume_args, &out, NULL), 0);
    assert_int_equal(parse_output(out, false), KILL_TOTAL);
    assert_int_equal(read_result(path, true, &r), 0);
    assert_int_equal(r.nodes, KILL_TOTAL);
    assert_int_equal(r.divide_sum, KILL_TOTAL);
    assert_int_equal(r.resumed, 1);
    /* Over several ranks the job had a shared table; the resume started with an empty one. */
    assert_non_null(strstr(r.tables, "shared table"));
    assert_true(ranks == 1 || strstr(r.tables, "no shared table") == NULL);
    /* Every rank, the killed job's and the resume's, counted with the file's key seed. */
    assert_true(r.key_seed == 12345);
    check_units(&r, KILL_TOTAL);
    /* Units of the first run kept their counts and run 0; the others were counted by run 1. */
    for (size_t i = 0; i < r.n_units; i++) {
        const UnitRow *a = NULL;
        for (size_t j = 0; j < first.n_units && !a; j++)
            if (first.units[j].id == r.units[i].id)
                a = &first.units[j];
        assert_non_null(a);
        if (a->nodes != NOT_DONE) {
            assert_int_equal(r.units[i].nodes, a->nodes);
            assert_int_equal(r.units[i].run, 0);
        } else {
            assert_int_equal(r.units[i].run, 1);
        }
    }
    free(first.units);
    free(r.units);
}

/* The units done by the last progress line of a perft job's stderr in file e ("perft: D/T units,
 * ..."), or 0 before there is one (or before the file). */
static size_t progress_units(const char *e)
{
    if (access(e, R_OK) != 0)
        return 0; /* the child has not opened it yet */
    const char *text = slurp(e);
    size_t done = 0;
    for (const char *at = strstr(text, "perft: "); at; at = strstr(at + 1, "perft: ")) {
        size_t d, t;
        if (sscanf(at, "perft: %zu/%zu units", &d, &t) == 2)
            done = d;
    }
    return done;
}

/* SIGTERM, as a scheduler ends a job: the units counted so far are written at once, though the
 * checkpoint of a command-line job is otherwise flushed only every 60 s. The signal goes once the
 * job's progress (a line every 10 s into a file) reports units done: a fixed 3 s after the start
 * could come before the first unit when other jobs held the cores. The job is Capablanca perft 8,
 * far more than its first 10 s on any machine, so that the signal always finds it counting. */
static void test_sigterm_flushes(void **state)
{
    (void)state;
    char path[256], o[256], e[256];
    snprintf(path, sizeof path, "%s/sigterm.h5", tmpdir);
    snprintf(o, sizeof o, "%s/sigterm.out", tmpdir);
    snprintf(e, sizeof e, "%s/sigterm.err", tmpdir);
    const char *args[] = { "perft", "--variant", "capablanca", "--startpos",    "--depth",
                           "8",     "--threads", "1",          "--split-depth", "3",
                           "--out", path,        NULL };
    pid_t job = start(command(true, args), o, e);
    size_t progress = 0;
    for (int tries = 0; tries < 2400 && progress == 0; tries++) {
        sleep_ms(50);
        int status;
        if (waitpid(job, &status, WNOHANG) == job)
            fail_msg("the job ended before the signal: %s", slurp(e));
        progress = progress_units(e);
    }
    if (progress == 0)
        fail_msg("no unit done after 2 minutes: %s", slurp(e));
    assert_int_equal(kill(job, SIGTERM), 0);
    assert_int_equal(finish(job), 3);
    const char *err = slurp(e);
    if (!strstr(err, "stopped by SIGTERM after"))
        fail_msg("stderr: %s", err);
    Result r = { 0 };
    assert_int_equal(read_result(path, false, &r), 0);
    size_t done = units_done(&r);
    printf("SIGTERM after %zu units in the progress: %zu of %zu units recorded\n", progress, done,
           r.n_units);
    assert_true(done >= progress && done < r.n_units);
    free(r.units);
}

/* A checkpoint of another job, an existing file without --resume, --resume without a file. */
static void test_refusals(void **state)
{
    (void)state;
    char path[256], missing[256];
    snprintf(path, sizeof path, "%s/chess.h5", tmpdir); /* test_totals's chess depth 4 */
    snprintf(missing, sizeof missing, "%s/missing.h5", tmpdir);
    char *err;
    const char *deeper[] = { "perft", "--startpos", "--depth",  "5",       "--threads", "1",
                             "--out", path,         "--resume", "--quiet", NULL };
    assert_int_equal(run(false, deeper, NULL, &err), 2);
    assert_non_null(strstr(err, "the checkpoint is for depth 4, this job asks for depth 5"));
    const char *again[] = { "perft", "--startpos", "--depth", "4",       "--threads",
                            "1",     "--out",      path,      "--quiet", NULL };
    assert_int_equal(run(false, again, NULL, &err), 2);
    assert_non_null(strstr(err, "already exists: add --resume"));
    const char *nothing[] = { "perft", "--startpos", "--depth",  "4",       "--threads", "1",
                              "--out", missing,      "--resume", "--quiet", NULL };
    assert_int_equal(run(false, nothing, NULL, &err), 2);
    assert_non_null(strstr(err, "no checkpoint to resume"));
    const char *both[] = { "perft", "--startpos", "--depth",    "4",       "--out",
                           missing, "--resume",   "--continue", "--quiet", NULL };
    assert_int_equal(run(false, both, NULL, &err), 2);
    assert_non_null(strstr(err, "--resume and --continue are two ways to resume: give one"));
}

/* --continue, as a requeued batch job runs it: the first run starts the file, the second finds
 * it finished and prints the same total, and one of another job is still refused. */
static void test_continue(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/continue.h5", tmpdir);
    char *out, *err;
    const char *job[] = { "perft", "--variant", "capablanca", "--startpos", "--depth", "3",
                          "--out", path,        "--continue", "--quiet",    NULL };
    for (int i = 0; i < 2; i++) {
        assert_int_equal(run(false, job, &out, &err), 0);
        assert_non_null(strstr(out, "Nodes searched: 25228"));
    }
    const char *other[] = { "perft", "--variant", "capablanca", "--startpos", "--depth", "2",
                            "--out", path,        "--continue", "--quiet",    NULL };
    assert_int_equal(run(false, other, NULL, &err), 2);
    assert_non_null(strstr(err, "the checkpoint is for depth 3, this job asks for depth 2"));
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int main(int argc, char **argv)
{
    launcher = argv + 1;
    n_launcher = argc - 1;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "-n") == 0 || strcmp(argv[i], "-np") == 0)
            ranks = atoi(argv[i + 1]);
    if (n_launcher == 0)
        fprintf(stderr, "test_mpi: no launcher given (test_mpi mpiexec -n 2): one process\n");
    /* Reading a checkpoint while the job writes it (the kill test polls it) needs HDF5's file
     * locks off; the writer flushes every unit, so a read sees a consistent file or fails. */
    setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_totals),          cmocka_unit_test(test_serial),
        cmocka_unit_test(test_config),          cmocka_unit_test(test_kill_resume),
        cmocka_unit_test(test_refusals),        cmocka_unit_test(test_continue),
        cmocka_unit_test(test_sigterm_flushes), cmocka_unit_test(test_shared_table),
    };
    // clang-format on
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (failed == 0)
        nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return failed;
}
