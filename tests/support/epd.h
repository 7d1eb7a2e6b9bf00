/* SPDX-License-Identifier: MIT */
/* Reads the reference perft files (FEN ;D1 n ;D2 n ... ;V variant ;SP n ;T turn rules
 * ;E en passant rule ;# comment). */
#ifndef CARRERA_TEST_EPD_H
#define CARRERA_TEST_EPD_H

#include <stdint.h>

#define EPD_MAX_DEPTH 16

typedef struct EpdEntry {
    char fen[256];
    char variant[32];                  /* from ;V, empty if absent */
    char turns[32];                    /* from ;T (turn rules), empty if absent */
    char ep_rule[16];                  /* from ;E (en passant rule), empty if absent */
    int sp;                            /* from ;SP, -1 if absent */
    int max_depth;                     /* deepest D<n> given */
    uint64_t nodes[EPD_MAX_DEPTH + 1]; /* nodes[d] for d = 1..max_depth (0 where not given) */
    int line;                          /* line number in the file */
} EpdEntry;

/* Reads every entry of path (relative to the test data directory when not absolute) into a
 * malloc'ed array; returns the count, or -1 (with a message on stderr) if the file is unreadable
 * or a line is malformed. Values too large for 64 bits are ignored (depth left at 0). */
int epd_read(const char *path, EpdEntry **entries);

#endif
