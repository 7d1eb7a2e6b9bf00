/* SPDX-License-Identifier: MIT */
/* Command-line options shared by the commands: `--name value`, `--name=value` and flags, whole
 * numbers, and the position and rules that perft and bisect both start from. Errors are reported
 * with cli_error (`carrera: error: ...`). */
#ifndef CARRERA_OPTIONS_H
#define CARRERA_OPTIONS_H

#include <stdbool.h>

#include "rules.h"
#include "setup.h"

/* One option: a value option fills *value, a flag sets *flag. A table ends with a NULL name. */
typedef struct Option {
    const char *name;
    const char **value;
    bool *flag;
} Option;

/* Fills the options from argv[1..argc); returns 0, -1 after a usage error (reported), 1 when
 * --help or -h was given. Options may come in any order; each at most once. */
int options_parse(int argc, char **argv, const char *command, const Option *options);

/* The options naming a position and its rules. */
typedef struct PositionArgs {
    const char *variant, *fen, *chess960, *random, *turns, *ep_rule;
    bool startpos;
} PositionArgs;

/* The variant (default chess), the turn rules (default single) and the en passant rule of a.
 * Returns 0, or -1 after reporting the error. */
int options_rules(const PositionArgs *a, const Variant **variant, Rules *r);

/* Builds the setup and the rules from them: exactly one of --startpos, --fen, --chess960,
 * --random SEED (a random start array of chess960 or caparandom, the same for every run with the
 * same seed); the
 * variant (default chess), the turn rules (default single) and the en passant rule. Returns 0,
 * or -1 after reporting the error. */
int options_position(const PositionArgs *a, const char *command, Setup *s, Rules *r);

/* The command line as the provenance of a run: `carrera perft ...` (argv[0] the command), an
 * argument with spaces or quotes in single quotes, as a shell would take it back. malloc'd, or
 * NULL when memory runs out. */
char *options_command_line(int argc, char **argv);

#endif
