/* SPDX-License-Identifier: MIT */
/* The exit statuses every command of Carrera shares (docs/commands.md#exit-status has the table).
 * As with diff and grep, 0 and 1 are answers and what lies above is trouble: a script (or a CI
 * job, or a batch scheduler's log) can tell "the engine disagrees" from "the request was wrong"
 * from "the run broke", whichever command it ran. The same failure gives the same status in
 * every command. */
#ifndef CARRERA_EXIT_STATUS_H
#define CARRERA_EXIT_STATUS_H

/* Done, and the answer is yes: counted, played, written; bisect and verify found no difference. */
#define EXIT_OK 0

/* Done, and the answer is no: bisect found a difference, verify a disagreement (or an engine
 * failure on some position, or a suite line Carrera disagrees with), tune no values the games
 * determine. The report says what on stdout. */
#define EXIT_NEGATIVE 1

/* The request cannot start, and running it again unchanged will not help: an unknown command or
 * option, a bad value, a configuration or input file that is missing or wrong, an output that
 * exists without --resume, a checkpoint of another job. */
#define EXIT_USAGE 2

/* The run failed: an output that cannot be written, memory, MPI that does not start, a worker
 * rank that fails, an engine that cannot be used, a perft stopped by SIGTERM or SIGINT (its
 * checkpoint kept for --resume). */
#define EXIT_FAILED 3

#endif
