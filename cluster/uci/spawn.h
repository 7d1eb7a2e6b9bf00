/* SPDX-License-Identifier: MIT */
/* The one way Carrera starts another program (an engine of a match or a tune run, the engine or
 * script `carrera verify` and `carrera bisect` question): the child gets the descriptors it is
 * given as 0, 1 and 2 and nothing else, whatever this process holds (other engines' pipes, the
 * result file HDF5 opened, MPI's sockets, what the user's shell left open), and the start is
 * bounded: the parent learns within a deadline whether the program runs. */
#ifndef CARRERA_SPAWN_H
#define CARRERA_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/* Starts argv[0] (a path, or a name looked up in PATH) with argv. stdio[i] becomes the child's
 * descriptor i (-1: the child keeps this process's descriptor i); every other descriptor is
 * closed in the child, the signal mask emptied and SIGPIPE set back to its default. Returns the
 * child's pid once it runs the program, or -1 with a message in err when it cannot be started
 * (not found, not executable, no processes left) or has not started within timeout_ms (it is
 * then killed). */
pid_t spawn_program(char *const argv[], const int stdio[3], int timeout_ms, char *err,
                    size_t errlen);

/* Closes every descriptor from first up without close_range: those /proc/self/fd lists, or,
 * without /proc, every number below limit. Only async-signal-safe calls, for a child between fork
 * and exec; spawn_program's fallback where the kernel has no close_range (before Linux 5.9), public
 * so that the tests run it where the kernel has one. */
void spawn_close_listed(int first, long limit);

#endif
