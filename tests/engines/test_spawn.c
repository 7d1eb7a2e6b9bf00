/* SPDX-License-Identifier: MIT */
/* Engines started and stopped from several threads at once (issue #36): every start must return
 * (a hang fails through the test's CTest TIMEOUT, never a clock here), and every child must hold
 * its descriptors 0, 1 and 2 only, read from /proc/PID/fd once it runs the engine: neither the
 * pipes of an engine another thread is starting nor a descriptor the process opened without
 * close-on-exec, as HDF5 opens its files and MPI its pipes. The fallback for kernels without
 * close_range closes everything too. The engine is `cat`, looked up in PATH, which answers
 * `uciok` to `uciok` and ends with its input: an engine of Carrera's own would start too slowly
 * under AddressSanitizer (a sixth of a second) for thousands of starts.
 *
 * usage: test_spawn [STARTS THREADS] (default 4000 starts over 4 threads) */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"
#include "subprocess.h"

/* Each answer's limit: far beyond what a start takes, and no part of what is tested. */
#define ANSWER_MS 20000

static int starts = 4000, threads = 4;

/* What the threads found: counts, and the first failure's text. */
typedef struct Findings {
    pthread_mutex_t lock;
    int done, leaks, failures;
    char first[1024];
} Findings;

static void note(Findings *f, int *counter, const char *fmt, ...)
{
    pthread_mutex_lock(&f->lock);
    (*counter)++;
    if (!f->first[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->first, sizeof f->first, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&f->lock);
}

/* Descriptors open in this process before the test (what the shell or the test runner left
 * open): the race test leaves them to test_foreign_descriptors_stay_out. */
#define KNOWN_MAX 4096
static bool known[KNOWN_MAX];
static bool ignore_known;

/* The descriptors above 2 of process pid, as "N -> target" text; returns how many. */
static int extra_descriptors(pid_t pid, char *out, size_t outlen)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    out[0] = '\0';
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(out, outlen, "cannot list %s", dir);
        return 1;
    }
    int extra = 0;
    size_t used = 0;
    for (struct dirent *e; (e = readdir(d));) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] == '.' || fd <= 2 || (ignore_known && fd < KNOWN_MAX && known[fd]))
            continue;
        char path[sizeof dir + 256 + 2], target[256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        target[n > 0 ? n : 0] = '\0';
        if (used < outlen)
            used += (size_t)snprintf(out + used, outlen - used, " %s -> %s", e->d_name, target);
        extra++;
    }
    closedir(d);
    return extra;
}

/* One engine's life: started, a line answered, its descriptors listed, its input closed, exit
 * status 0. */
static void one_start(Findings *f)
{
    char *argv[] = { "cat", NULL };
    char err[512], line[1024];
    Subprocess *p = malloc(sizeof *p);
    assert_non_null(p);
    if (subprocess_start(p, argv, err, sizeof err) != 0) {
        note(f, &f->failures, "start: %s", err);
        free(p);
        return;
    }
    subprocess_send(p, "uciok\n");
    int got;
    while ((got = subprocess_read_line(p, line, sizeof line, ANSWER_MS)) == 1 &&
           strcmp(line, "uciok") != 0)
        ;
    if (got != 1)
        note(f, &f->failures, "engine %d: no uciok (%s)", (int)p->pid,
             got == 0 ? "its output ended" : "no answer");
    char fds[800];
    if (extra_descriptors(p->pid, fds, sizeof fds) > 0)
        note(f, &f->leaks, "engine %d holds descriptors above 2:%s", (int)p->pid, fds);
    int status = subprocess_finish(p, ANSWER_MS);
    if (status != 0)
        note(f, &f->failures, "engine ended with status %d", status);
    free(p);
}

typedef struct Worker {
    Findings *findings;
    int starts;
} Worker;

static void *work(void *arg)
{
    Worker *w = arg;
    for (int i = 0; i < w->starts; i++) {
        one_start(w->findings);
        pthread_mutex_lock(&w->findings->lock);
        w->findings->done++;
        pthread_mutex_unlock(&w->findings->lock);
    }
    return NULL;
}

/* starts engines over n threads at once. */
static void run_threads(Findings *f, int total, int n)
{
    pthread_t *tid = calloc((size_t)n, sizeof *tid);
    Worker *w = calloc((size_t)n, sizeof *w);
    assert_true(tid && w);
    for (int t = 0; t < n; t++) {
        w[t] = (Worker){ f, total / n + (t < total % n) };
        assert_int_equal(pthread_create(&tid[t], NULL, work, &w[t]), 0);
    }
    for (int t = 0; t < n; t++)
        pthread_join(tid[t], NULL);
    free(tid);
    free(w);
}

/* Several threads start and stop engines at once: no start waits on another's engine, and no
 * engine holds another's pipes. */
static void test_threads_start_and_stop(void **state)
{
    (void)state;
    Findings f = { .lock = PTHREAD_MUTEX_INITIALIZER };
    ignore_known = true;
    run_threads(&f, starts, threads);
    ignore_known = false;
    print_message("%d starts on %d threads: %d with descriptors above 2, %d other failures\n",
                  f.done, threads, f.leaks, f.failures);
    if (f.leaks || f.failures)
        fail_msg("%d leaks, %d failures; the first: %s", f.leaks, f.failures, f.first);
    assert_int_equal(f.done, starts);
}

/* Descriptors opened without close-on-exec (a file as HDF5 opens it, a pipe as an MPI runtime
 * makes it, whatever the shell left open) stay out of every engine. */
static void test_foreign_descriptors_stay_out(void **state)
{
    (void)state;
    int file = open("/dev/null", O_RDONLY), pipe_ends[2];
    assert_true(file > 2);
    assert_int_equal(pipe(pipe_ends), 0);
    Findings f = { .lock = PTHREAD_MUTEX_INITIALIZER };
    run_threads(&f, 20, 2);
    close(file);
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    if (f.leaks || f.failures)
        fail_msg("%d leaks, %d failures; the first: %s", f.leaks, f.failures, f.first);
}

/* spawn_program's fallback where the kernel has no close_range: in a child of the test, with
 * descriptors open at 3 and beyond, every one of them is closed, 0, 1 and 2 kept. */
static void test_fallback_closes_all_but_stdio(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int ends[2];
        if (pipe(ends) != 0 || open("/dev/null", O_RDONLY) < 0 || dup2(ends[0], 200) != 200)
            _exit(2);
        spawn_close_listed(3, sysconf(_SC_OPEN_MAX));
        /* stdout and stderr stay (a test runner may start the test with stdin closed) */
        if (fcntl(1, F_GETFD) < 0 || fcntl(2, F_GETFD) < 0)
            _exit(3);
        for (int fd = 3; fd < KNOWN_MAX; fd++)
            if (fcntl(fd, F_GETFD) >= 0)
                _exit(4);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(int argc, char **argv)
{
    if (argc == 3) {
        starts = atoi(argv[1]);
        threads = atoi(argv[2]);
        if (starts < 1 || threads < 1) {
            fprintf(stderr, "usage: test_spawn [STARTS THREADS]\n");
            return 2;
        }
    }
    for (int fd = 3; fd < KNOWN_MAX; fd++)
        known[fd] = fcntl(fd, F_GETFD) >= 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_start_and_stop),
        cmocka_unit_test(test_foreign_descriptors_stay_out),
        cmocka_unit_test(test_fallback_closes_all_but_stdio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
