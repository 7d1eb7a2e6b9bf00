/* SPDX-License-Identifier: MIT */
/* What this build of Carrera is, for `carrera --version`, the UCI `id name` and the provenance of
 * every result file: the version, the git revision it was built from (read at every build, with
 * -dirty for local changes), the build type and C flags, and the compiler. */
#ifndef CARRERA_VERSION_H
#define CARRERA_VERSION_H

extern const char carrera_version[];
extern const char carrera_revision[];
extern const char carrera_build_flags[];
extern const char carrera_compiler[];

#endif
