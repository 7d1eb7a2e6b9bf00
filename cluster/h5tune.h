/* The group /tune of a tune run's result file (README "Tune result files"): the method's
 * configuration, every iteration (imbalance: the values played and measured; SPSA: theta, the
 * perturbation and the result), the final values with intervals and covariance, and the
 * regression's. Written by rank 0 after every stage and at the end, replacing what was there. */
#ifndef CARRERA_H5TUNE_H
#define CARRERA_H5TUNE_H

#include <hdf5.h>

#include "provenance.h"
#include "tune.h"

/* Replaces /tune in the open file with t's state. Returns 0 or -1. */
int h5tune_write(hid_t file, const Tuner *t);

/* A result file of its own for a regression over earlier result files (no games are played):
 * provenance on the root, the sources' paths and /tune. Refuses an existing file. Returns 0, or
 * -1 with a message; no partial file is left. */
int h5tune_create(const char *path, const Provenance *prov, const Tuner *t,
                  const char *const *sources, int n_sources, char *err, size_t errlen);

#endif
