/* SPDX-License-Identifier: MIT */
/* What the fuzz harnesses share: choosing a variant and turn rules from an input byte, and
 * handing input bytes to code that reads files. Each harness defines LLVMFuzzerTestOneInput;
 * libFuzzer drives it in the fuzz build (preset "fuzz"), tests/fuzz/replay.c in every build. */
#ifndef CARRERA_FUZZ_H
#define CARRERA_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "eval.h"
#include "rules.h"
#include "variant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The variant and rules one selector byte names: every variant under every rule set. */
void fuzz_pick(uint8_t selector, const Variant **v, Rules *r);

/* Writes size bytes to a file of this process (created on first use, replaced each call,
 * removed at exit) whose name ends with suffix (".ini", ".h5", ...), and returns its path; NULL
 * when it cannot be written. */
const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix);

/* Appends the n bytes at s to the NUL-terminated buffer (*buf, *len, *cap), growing it; false
 * when memory runs out. The harnesses of the protocol loops build their scripts with it. */
bool fuzz_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n);

/* A NUL-terminated copy of data (malloc'd), so readers of C strings can take it. */
char *fuzz_string(const uint8_t *data, size_t size);

/* s is a non-empty run of decimal digits. */
bool fuzz_all_digits(const char *s);

/* A protocol front end's loop (uci_loop, xboard_loop), and a harness's rewrite of one input line
 * (NUL-terminated) into the line the loop will read, appended with its '\n' to the buffer. */
typedef int (*FuzzLoop)(FILE *in, FILE *out, const EvalParams *params);
typedef bool (*FuzzRewrite)(const char *line, char **buf, size_t *len, size_t *cap);

/* Runs loop, with the default evaluation, on a script of start followed by every line of data
 * (lines end at '\n' as getline reads them) passed through rewrite; the answers go to /dev/null. */
void fuzz_protocol(const uint8_t *data, size_t size, const char *start, FuzzRewrite rewrite,
                   FuzzLoop loop);

#endif
