/* SPDX-License-Identifier: MIT */
/* The result file of `carrera tune` when it plays no games (a regression over earlier result
 * files, README "Tune result files"): provenance on the root, the sources' paths and the /tune
 * group (tune_group.h). */
#ifndef CARRERA_TUNE_FILE_H
#define CARRERA_TUNE_FILE_H

#include <stddef.h>

#include "provenance.h"
#include "tune.h"

/* Writes the file at path: refuses an existing file. Returns 0, or -1 with a message; no
 * partial file is left. */
int tune_file_create(const char *path, const Provenance *prov, const Tuner *t,
                     const char *const *sources, int n_sources, char *err, size_t errlen);

#endif
