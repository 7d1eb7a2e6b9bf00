/* SPDX-License-Identifier: MIT */
/* The result file of `carrera tune` when it plays no games (a regression over earlier result
 * files, docs/result-files.md): format "carrera-tune", provenance on the root, the sources' paths
 * and the /tune group (tune_group.h). */
#ifndef CARRERA_TUNE_FILE_H
#define CARRERA_TUNE_FILE_H

#include <stddef.h>

#include "provenance.h"
#include "tune.h"

/* Version of the layout, stored in the file as format_version. Layout 1 (format "carrera tune",
 * no version) had variable-length strings. */
#define TUNE_FILE_FORMAT_VERSION 2

/* Writes the file at path: refuses an existing file. Made under a name of its own beside path and
 * published whole (result_file.h), so that a job killed while it writes leaves nothing at path.
 * Returns 0, or -1 with a message; no partial file is left. */
int tune_file_create(const char *path, const Provenance *prov, const Tuner *t,
                     const char *const *sources, int n_sources, char *err, size_t errlen);

#endif
