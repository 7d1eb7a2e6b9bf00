/* SPDX-License-Identifier: MIT */
/* The journal of `carrera verify --resume FILE`: an append-only text file, a header naming the
 * run's options and then one line per checked position with its whole outcome, written with a
 * single write each. A run killed at any moment leaves at most a last line cut short, which the
 * next run drops; it then checks only the positions without a line and reports all of them. */
#ifndef CARRERA_VERIFY_JOURNAL_H
#define CARRERA_VERIFY_JOURNAL_H

#include <stddef.h>

#include "verify_check.h"
#include "verify_sources.h"

typedef struct Journal {
    int fd;
} Journal;

/* Opens the journal at path for the run described by options (a line of text that must match
 * to resume) over the positions ps: creates it when it does not exist; otherwise reads its
 * outcomes into outcomes[] (marking them done; *resumed counts them). Returns 0, or the exit
 * status with a message in err: EXIT_USAGE when the file belongs to another run (other options
 * or positions) or is damaged, EXIT_FAILED when it cannot be read or written. */
int journal_open(Journal *j, const char *path, const char *options, const VerifyPositions *ps,
                 Outcome *outcomes, size_t *resumed, char *err, size_t errlen);

/* Appends the outcome of position index. Returns 0 or -1 with a message. */
int journal_append(Journal *j, size_t index, const VerifyPosition *p, const Outcome *o, char *err,
                   size_t errlen);

void journal_close(Journal *j);

#endif
