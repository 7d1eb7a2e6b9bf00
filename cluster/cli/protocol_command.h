/* SPDX-License-Identifier: MIT */
/* What `carrera uci` and `carrera xboard` share: the command line (`--eval FILE`), the evaluation
 * parameters read from it, then the protocol's loop on stdin and stdout. */
#ifndef CARRERA_PROTOCOL_COMMAND_H
#define CARRERA_PROTOCOL_COMMAND_H

#include <stdio.h>

#include "eval.h"

/* A protocol server's loop (uci_loop, xboard_loop): its exit status. */
typedef int (*ProtocolLoop)(FILE *in, FILE *out, const EvalParams *params);

/* `carrera NAME [--eval FILE]` (argv[0] is NAME): --help prints usage, bad options and a bad
 * evaluation file are usage errors; otherwise loop's status. */
int protocol_command(int argc, char **argv, const char *name, void (*usage)(FILE *),
                     ProtocolLoop loop);

#endif
