/* SPDX-License-Identifier: MIT */
/* The batch scripts (scripts/slurm/) under a real Slurm: munged, slurmctld and slurmd started on
 * this machine by the test (slurm_cluster.c), jobs submitted with sbatch as a user would. A perft
 * job's exact total read back from its result file; a job given a time limit shorter than its
 * work, requeued by its own trap until done, with the exact total and every unit once; a match,
 * and a tune run under the same limit, with the games of one uninterrupted run; a job array of
 * Chess960 arrays. Exits 77 (CTest: skipped, with the reason) only where the daemons cannot run
 * at all. */
#define _GNU_SOURCE /* memmem */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "epd.h"
#include "errmsg.h"
#include "files.h"
#include "perft_result.h"
#include "pgn_games.h"
#include "run.h"
#include "slurm_cluster.h"

#define SCRIPTS CARRERA_SOURCE_DIR "/scripts/slurm/"

static char job_dir[600];

/* path of name in this run's job directory */
static const char *in_jobs(const char *name)
{
    static char path[4][700];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", job_dir, name);
    return p;
}

/* Fails unless the job (not an array) ended COMPLETED with status 0; returns its restarts. */
static int expect_completed(long id, const char *log)
{
    SlurmJob j;
    int n = slurm_wait(id, 600, &j, 1);
    assert_int_equal(n, 1);
    if (strcmp(j.state, "COMPLETED") != 0 || j.exit_code != 0)
        fail_msg("job %ld: %s, exit %d (signal %d); its log:\n%s", id, j.state, j.exit_code,
                 j.signal, (char *)read_bytes(log, NULL));
    return j.restarts;
}

/* The lines of the log that contain part, printed (the record of what the job went through). */
static int show_lines(const char *log, const char *text, const char *part)
{
    int count = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (memmem(line, len, part, strlen(part))) {
            printf("  %s: %.*s\n", log, (int)len, line);
            count++;
        }
        line = end ? end + 1 : NULL;
    }
    return count;
}

/* Submits script with the job file ini on one node: ranks tasks of one CPU, log as its output,
 * a time limit of minutes, and (margin not NULL) CARRERA_REQUEUE_MARGIN = margin for the trap. */
static long submit(const char *script, const char *ini, const char *log, int ranks, int minutes,
                   const char *margin)
{
    char tasks[32], per_node[48], limit[32];
    snprintf(tasks, sizeof tasks, "--ntasks=%d", ranks);
    snprintf(per_node, sizeof per_node, "--ntasks-per-node=%d", ranks);
    snprintf(limit, sizeof limit, "--time=%d", minutes);
    const char *args[] = { "--chdir",   job_dir,
                           "--nodes=1", tasks,
                           per_node,    "--cpus-per-task=1",
                           limit,       "--signal=B:USR1@30",
                           "--output",  log,
                           script,      ini,
                           NULL };
    if (margin)
        setenv("CARRERA_REQUEUE_MARGIN", margin, 1);
    long id = slurm_submit(args);
    unsetenv("CARRERA_REQUEUE_MARGIN");
    return id;
}

/* ---- perft ---- */

/* A perft job of 2 ranks: Capablanca perft 6 (published by Sjeng) in the log and the file. */
static void test_perft(void **state)
{
    (void)state;
    const char *ini = in_jobs("capablanca-6.ini");
    const char *text = "[perft]\nvariant = capablanca\nposition = startpos\ndepth = 6\n"
                       "threads = 0\noutput = capablanca-6.h5\n";
    write_bytes(ini, text, strlen(text));
    const char *log = in_jobs("capablanca-6.log");
    expect_completed(submit(SCRIPTS "perft.sbatch", ini, log, 2, 10, NULL), log);
    char *out = read_bytes(log, NULL);
    assert_contains(out, "Nodes searched: 1015802437");
    free(out);
    Result r;
    assert_int_equal(read_result(in_jobs("capablanca-6.h5"), true, &r), 0);
    assert_int_equal(r.nodes, 1015802437);
    assert_int_equal(r.ranks, 2);
    check_units(&r, 1015802437);
    free(r.units);
}

/* Janus perft 7 from the start (34,700,895,036 nodes, docs/perft-tables.md: about a minute on
 * one core of the fastest machine seen so far, under three minutes on the slowest) under a
 * one-minute limit: Slurm's SIGUSR1, the trap's requeue, the units counted written to the
 * checkpoint on SIGTERM (whose interval, 60 s, is longer than any run), the resumes, until the
 * total of a run that shares none of it (one process, no units, a hash table), every unit counted
 * once. With CARRERA_REQUEUE_MARGIN = 50 each run is requeued 10 to 30 s after it starts (when
 * the signal comes), so the count must take well over 30 s on any machine to be requeued at
 * least once (a Capablanca perft 6 of 3.9e9 nodes took 45 s when this test was written, and 7 s
 * after the core got faster). */
static void test_time_limit(void **state)
{
    (void)state;
    const char *ini = in_jobs("limit.ini");
    const char *text = "[perft]\nvariant = janus\nposition = startpos\ndepth = 7\nthreads = 0\n"
                       "output = limit.h5\ncheckpoint_interval = 60\n";
    write_bytes(ini, text, strlen(text));
    const char *log = in_jobs("limit.log");
    long id = submit(SCRIPTS "perft.sbatch", ini, log, 1, 1, "50");

    /* meanwhile, on the other core, the count that shares nothing with the job's */
    const char *direct[] = { CARRERA_BIN, "perft",   "--variant", "janus", "--startpos",
                             "--depth",   "7",       "--threads", "1",     "--hash",
                             "1024",      "--quiet", NULL };
    Run d = run_program(direct);
    assert_int_equal(d.status, 0);
    const char *at = strstr(d.out, "Nodes searched: ");
    assert_non_null(at);
    const uint64_t total = strtoull(at + 16, NULL, 10);
    assert_int_equal(total, 34700895036ULL);
    char expected[64];
    snprintf(expected, sizeof expected, "Nodes searched: %llu", (unsigned long long)total);
    run_free(&d);

    int restarts = expect_completed(id, log);
    printf("job %ld: completed after %d requeues; from its log:\n", id, restarts);
    char *out = read_bytes(log, NULL);
    assert_true(restarts >= 1);
    assert_true(show_lines(log, out, "time limit near (SIGUSR1") >= restarts);
    assert_true(show_lines(log, out, "requeueing job") >= restarts);
    assert_true(show_lines(log, out, "stopped by SIGTERM after") >= restarts);
    assert_true(show_lines(log, out, "perft: resuming") >= restarts);
    assert_int_equal(show_lines(log, out, expected), 1);
    free(out);

    Result r;
    assert_int_equal(read_result(in_jobs("limit.h5"), true, &r), 0);
    assert_int_equal(r.nodes, total);
    assert_int_equal(r.resumed, restarts);
    check_units(&r, total);
    /* the first run's units are kept by the SIGTERM flush, not counted again */
    size_t first = 0;
    for (size_t i = 0; i < r.n_units; i++)
        first += r.units[i].run == 0;
    printf("  %zu of %zu units counted by the first run\n", first, r.n_units);
    assert_true(first > 0 && first < r.n_units);
    free(r.units);
}

/* Every Chess960 array of a range as a job array: each task's own file, each total the
 * reference's. */
static void test_array(void **state)
{
    (void)state;
    EpdEntry *e;
    int n = epd_read("chess960_startpos.epd", &e);
    assert_true(n == 960);
    const char *log = in_jobs("c960-%a.log");
    const char *args[] = { "--chdir",   job_dir,      "--array=100-105",
                           "--output",  log,          SCRIPTS "perft-array.sbatch",
                           "--variant", "chess960",   "--chess960",
                           "{}",        "--depth",    "4",
                           "--out",     "c960/{}.h5", NULL };
    long id = slurm_submit(args);
    SlurmJob tasks[8];
    int k = slurm_wait(id, 300, tasks, 8);
    assert_int_equal(k, 6);
    for (int i = 0; i < k; i++) {
        if (strcmp(tasks[i].state, "COMPLETED") != 0)
            fail_msg("array task %d: %s", tasks[i].task, tasks[i].state);
        char name[64];
        snprintf(name, sizeof name, "c960/%d.h5", tasks[i].task);
        Result r;
        assert_int_equal(read_result(in_jobs(name), true, &r), 0);
        const EpdEntry *ref = NULL;
        for (int j = 0; j < n && !ref; j++)
            if (e[j].sp == tasks[i].task)
                ref = &e[j];
        assert_non_null(ref);
        assert_int_equal(r.nodes, ref->nodes[4]);
        free(r.units);
    }
    free(e);
}

/* ---- matches ---- */

/* A match file of games game pairs, or a tune file of as many pairs, at 3000 nodes a move (48
 * pairs take about 40 s on one core here, longer than a requeue cycle). */
static void write_match(const char *ini, const char *name, bool tune, int pairs)
{
    char text[2048];
    snprintf(text, sizeof text,
             "[match]\n%sgames = %d\nseed = 5\nmax_plies = 160\noutput = %s.h5\npgn = %s.pgn\n"
             "[player1]\nname = A\nnodes = 3000\n[player2]\nname = B\nnodes = 3000\n%s",
             tune ? "variant = caparandom\nopenings = random\nimbalances = P*2, N:PPP\n"
                  : "variant = capablanca\nrandom_plies = 4\n",
             tune ? 2 * pairs / 3 : 2 * pairs, name, name,
             tune ? "[tune]\nmethod = regression\n" : "[player2.eval]\nValueArchbishopMg = 700\n");
    write_bytes(ini, text, strlen(text));
}

/* Every line of what the uninterrupted run printed from the first line starting with from is in
 * the job's log (its games' summary, the same when the games are). */
static void expect_same_summary(const char *whole, const char *from, const char *log)
{
    const char *at = strstr(whole, from);
    assert_non_null(at);
    char *text = read_bytes(log, NULL);
    for (const char *line = at; *line;) {
        size_t len = strcspn(line, "\n");
        char one[512];
        snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : sizeof one - 1), line);
        if (strncmp(one, "games: ", 7) == 0)
            break;
        if (one[0])
            assert_contains(text, one);
        line += len + (line[len] == '\n');
    }
    free(text);
}

/* A match (or tune run) of pairs game pairs through script, under a one-minute limit when limited
 * (then requeued 20 to 30 s into each run), against the same match played in one run here: the
 * same games, round by round, and the same summary. */
static void sbatch_match(const char *script, const char *command, const char *name, bool tune,
                         int pairs, bool limited)
{
    char ini_name[64], log_name[64], pgn_name[64], whole[64], whole_pgn[64];
    snprintf(ini_name, sizeof ini_name, "%s.ini", name);
    snprintf(log_name, sizeof log_name, "%s.log", name);
    snprintf(pgn_name, sizeof pgn_name, "%s.pgn", name);
    snprintf(whole, sizeof whole, "%s-whole.h5", name);
    snprintf(whole_pgn, sizeof whole_pgn, "%s-whole.pgn", name);
    char ini[700], log[700];
    snprintf(ini, sizeof ini, "%s", in_jobs(ini_name));
    snprintf(log, sizeof log, "%s", in_jobs(log_name));
    write_match(ini, name, tune, pairs);
    long id = submit(script, ini, log, 1, limited ? 1 : 10, limited ? "40" : NULL);

    /* meanwhile, the uninterrupted run on the other core */
    const char *one[] = { CARRERA_BIN,    command, "--config",         ini,       "--out",
                          in_jobs(whole), "--pgn", in_jobs(whole_pgn), "--quiet", NULL };
    setenv("OMP_NUM_THREADS", "1", 1);
    Run w = run_program(one);
    unsetenv("OMP_NUM_THREADS");
    if (w.status != 0)
        fail_msg("the uninterrupted %s: status %d\n%s", command, w.status, w.err);

    int restarts = expect_completed(id, log);
    printf("%s job %ld: completed after %d requeues; from its log:\n", command, id, restarts);
    char *out = read_bytes(log, NULL);
    assert_true(limited ? restarts >= 1 : restarts == 0);
    assert_true(show_lines(log, out, "requeueing job") >= restarts);
    assert_true(show_lines(log, out, "resuming") >= restarts);
    free(out);
    expect_same_games(in_jobs(whole_pgn), in_jobs(pgn_name), pairs);
    /* the score, or the imbalances and the values fitted, as one run printed them */
    expect_same_summary(w.out, tune ? "regression on material" : "score of A", log);
    run_free(&w);
}

static void test_match(void **state)
{
    (void)state;
    sbatch_match(SCRIPTS "match.sbatch", "match", "match", false, 6, false);
}

static void test_tune(void **state)
{
    (void)state;
    /* 120 pairs: enough to be counting still when the limit's signal comes on a fast core (48
     * pairs ended before it on a Zen 5 core) */
    sbatch_match(SCRIPTS "tune.sbatch", "tune", "tune", true, 120, true);
}

/* ---- the cluster ---- */

static char scratch[] = "/tmp/carrera-slurm-XXXXXX";

static int cluster_up(void **state)
{
    (void)state;
    char err[ERRMSG_LEN];
    if (slurm_cluster_start(scratch, err, sizeof err) != 0) {
        fprintf(stderr, "slurm tests: cannot start the cluster: %s\n", err);
        return -1;
    }
    snprintf(job_dir, sizeof job_dir, "%s/jobs", scratch);
    setenv("CARRERA", CARRERA_BIN, 1);
    setenv("CARRERA_SOURCE", CARRERA_SOURCE_DIR, 1);
    return 0;
}

static int cluster_down(void **state)
{
    (void)state;
    slurm_cluster_stop();
    return 0;
}

int main(void)
{
    const char *why = slurm_cluster_unavailable();
    if (why) {
        printf("skipped: %s\n", why);
        return 77;
    }
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        return 1;
    }
    char jobs[600];
    snprintf(jobs, sizeof jobs, "%s/jobs", scratch);
    if (mkdir(jobs, 0755) != 0) {
        perror(jobs);
        return 1;
    }
    printf("slurm tests: daemons, logs and jobs in %s\n", scratch);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft),      cmocka_unit_test(test_array),
        cmocka_unit_test(test_time_limit), cmocka_unit_test(test_match),
        cmocka_unit_test(test_tune),
    };
    int failed = cmocka_run_group_tests(tests, cluster_up, cluster_down);
    if (failed == 0) {
        const char *rm[] = { "rm", "-rf", scratch, NULL };
        Run r = run_program(rm);
        run_free(&r);
    } else {
        printf("slurm tests: kept %s for a look at the logs\n", scratch);
    }
    return failed;
}
