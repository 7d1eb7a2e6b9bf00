/* Runs a program to completion for a test: stdin empty, stdout and stderr captured whole, the
 * exit status kept. Shared by the tests that drive the carrera binary. */
#ifndef CARRERA_TEST_RUN_H
#define CARRERA_TEST_RUN_H

typedef struct Run {
    int status;  /* exit status, or 128 + the signal that ended it */
    char *out, *err;
} Run;

/* argv[0] is the program's path; argv ends with NULL. Fails the test when it cannot run. */
Run run_program(const char *const *argv);
void run_free(Run *r);

#endif
