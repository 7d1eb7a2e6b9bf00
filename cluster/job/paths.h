/* SPDX-License-Identifier: MIT */
/* File paths of results: the directories a result file needs are created for it. */
#ifndef CARRERA_PATHS_H
#define CARRERA_PATHS_H

#include <stddef.h>

/* Creates the directories leading to the file path, as mkdir -p does. Returns 0, or -1 with a
 * message in err. */
int make_parent_dirs(const char *path, char *err, size_t errlen);

#endif
