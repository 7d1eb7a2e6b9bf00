/* SPDX-License-Identifier: MIT */
/* File paths of results: the directories a result file needs are created for it. */
#ifndef CARRERA_PATHS_H
#define CARRERA_PATHS_H

#include <stddef.h>

/* Seconds a resume waits for a checkpoint that another process holds locked: the job that was
 * killed may still be ending (docs/cluster.md). */
#define RESUME_LOCK_WAIT 60

/* Creates the directories leading to the file path, as mkdir -p does. Returns 0, or -1 with a
 * message in err. */
int make_parent_dirs(const char *path, char *err, size_t errlen);

#endif
