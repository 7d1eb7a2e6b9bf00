/* A child program driven over pipes, line by line, for the tests that talk to an engine
 * (Fairy-Stockfish for the oracle, carrera itself for the UCI session). Reads wait with a
 * timeout so that a silent or stuck child fails a test instead of hanging it. */
#ifndef CARRERA_TEST_SUBPROCESS_H
#define CARRERA_TEST_SUBPROCESS_H

#include <stddef.h>
#include <sys/types.h>

typedef struct Subprocess {
    pid_t pid;
    int to_child;   /* the child's stdin, -1 once closed */
    int from_child; /* the child's stdout */
    char buf[8192]; /* read but not yet returned */
    size_t len;
} Subprocess;

/* Starts argv[0] (a path) with argv; stdin and stdout are pipes, stderr is inherited.
 * Returns 0, or -1 with a message in err. */
int subprocess_start(Subprocess *p, char *const argv[], char *err, size_t errlen);

/* Writes text to the child's stdin. Returns 0, or -1 if the child has gone. */
int subprocess_send(Subprocess *p, const char *text);

/* Reads one line (without the newline) into line. Returns 1 for a line, 0 at end of output,
 * -1 when nothing arrived for timeout_ms milliseconds. Longer lines are cut to fit. */
int subprocess_read_line(Subprocess *p, char *line, size_t linelen, int timeout_ms);

/* Closes the child's stdin and waits up to timeout_ms for it to exit (killing it after that).
 * Returns its exit status, 128 + signal number if a signal ended it, or -1 on error. */
int subprocess_finish(Subprocess *p, int timeout_ms);

#endif
