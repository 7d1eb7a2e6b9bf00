/* SPDX-License-Identifier: MIT */
/* Running a program for a test (run.h): fork, exec, wait, and read back what it wrote. */
#define _POSIX_C_SOURCE 200809L

#include "run.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *slurp(FILE *f)
{
    fflush(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    assert_true(size >= 0);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    rewind(f);
    size_t got = fread(text, 1, (size_t)size, f);
    text[got] = '\0';
    return text;
}

Run run_program(const char *const *argv)
{
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *devnull = freopen("/dev/null", "r", stdin);
        (void)devnull;
        dup2(fileno(out), STDOUT_FILENO);
        dup2(fileno(err), STDERR_FILENO);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    assert_true(waitpid(pid, &status, 0) == pid);
    Run r = { .status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status) };
    r.out = slurp(out);
    r.err = slurp(err);
    fclose(out);
    fclose(err);
    return r;
}

void run_free(Run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

/* The lines of the file at path so far that hold text. */
static int lines_in(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    int n = 0;
    char line[512];
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, text) != NULL;
    if (f)
        fclose(f);
    return n;
}

bool run_killed_at(const char *const *argv, const char *watch, const char *text, int lines)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *devnull = freopen("/dev/null", "w", stdout);
        devnull = freopen("/dev/null", "w", stderr);
        (void)devnull;
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    for (int waited = 0; waited < 6000 && lines_in(watch, text) < lines; waited++) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return false;
        nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
    }
    kill(pid, SIGKILL);
    assert_true(waitpid(pid, &status, 0) == pid);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

bool run_killed(const char *const *argv, const char *watch, int events)
{
    return run_killed_at(argv, watch, "[Event ", events);
}
