/* SPDX-License-Identifier: MIT */
/* The exit statuses every command of Carrera shares, so that scripts and schedulers can tell a
 * bad invocation from a failed run: 0 done, 1 the run failed (a file could not be written,
 * memory, a disagreement found), EXIT_USAGE the request cannot start (unknown command or option,
 * bad value, bad configuration, a checkpoint of another job). */
#ifndef CARRERA_EXIT_STATUS_H
#define CARRERA_EXIT_STATUS_H

#define EXIT_USAGE 2

#endif
