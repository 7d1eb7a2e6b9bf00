/* SPDX-License-Identifier: MIT */
/* `carrera bench`: the engine's fixed search whose node count is its signature. */
#ifndef CARRERA_BENCH_H
#define CARRERA_BENCH_H

#include <stdio.h>

/* Runs `carrera bench ARGS` (argv[0] is "bench"); returns the exit status. */
int bench_command(int argc, char **argv);

void bench_usage(FILE *out);

#endif
