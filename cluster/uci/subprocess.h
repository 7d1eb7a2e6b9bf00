/* SPDX-License-Identifier: MIT */
/* A child program driven over pipes, line by line: an engine of a match, the engine or script
 * `carrera verify` and `carrera bisect` question. Started by spawn_program (spawn.h), so that it
 * holds its two pipes and stderr and nothing else; the start, every write and every read wait
 * with a deadline, so that a silent or stuck child becomes an error instead of a hang. */
#ifndef CARRERA_SUBPROCESS_H
#define CARRERA_SUBPROCESS_H

#include <stddef.h>
#include <sys/types.h>

typedef struct Subprocess {
    pid_t pid;
    int to_child;    /* the child's stdin, -1 once closed */
    int from_child;  /* the child's stdout */
    int send_ms;     /* how long a write may wait for the child to read (30 s unless set) */
    char buf[16384]; /* read but not yet returned */
    size_t len;
} Subprocess;

/* Most words a command line is split into. */
#define SUBPROCESS_MAX_ARGS 64

/* Splits the command words (modified in place) at white space into argv, leaving room for
 * spare more arguments after the words and the NULL that ends them (the caller adds them).
 * Returns the number of words, or -1 with a message in err when there are none or too many. */
int subprocess_split(char *words, char *argv[SUBPROCESS_MAX_ARGS + 1], int spare, char *err,
                     size_t errlen);

/* Starts the program argv[0] with argv: a path, or a name looked up in PATH. stdin and stdout
 * are pipes, stderr is inherited. Returns 0, or -1 with a message in err when the program
 * cannot be run (not found, not executable, no pipes or processes left, not started within
 * 30 s). */
int subprocess_start(Subprocess *p, char *const argv[], char *err, size_t errlen);

/* Writes text to the child's stdin, waiting at most send_ms for the child to read what fills
 * the pipe. Returns 0, or -1 if the child has gone or has not read it in time. */
int subprocess_send(Subprocess *p, const char *text);

/* Reads one line (without the newline) into line. Returns 1 for a line, 0 at end of output,
 * -1 when nothing arrived for timeout_ms milliseconds. Longer lines are cut to fit. */
int subprocess_read_line(Subprocess *p, char *line, size_t linelen, int timeout_ms);

/* Closes the child's stdin and waits up to timeout_ms for it to exit (killing it after that;
 * 0 kills it at once unless it has already exited). Returns its exit status, 128 + signal number
 * if a signal ended it, or -1 on error. */
int subprocess_finish(Subprocess *p, int timeout_ms);

/* How a child ended, from subprocess_finish's status: "exit status 3", "killed by signal 9,
 * Killed", "its exit status is unknown". */
void subprocess_describe_end(int status, char *out, size_t outlen);

#endif
