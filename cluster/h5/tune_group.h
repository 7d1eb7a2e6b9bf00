/* SPDX-License-Identifier: MIT */
/* The group /tune of a tune run's result file (docs/result-files.md): the method's
 * configuration, every iteration (imbalance: the values played and measured; SPSA: theta, the
 * perturbation and the result), the final values with intervals and covariance, and the
 * regression's. Written by rank 0 after every stage and at the end, replacing what was there.
 * Internal to h5/: the match file and the tune file write it. */
#ifndef CARRERA_TUNE_GROUP_H
#define CARRERA_TUNE_GROUP_H

#include <hdf5.h>

#include "tune.h"

/* Replaces /tune in the open file with t's state. Returns 0 or -1. */
int tune_group_write(hid_t file, const Tuner *t);

#endif
