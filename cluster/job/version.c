/* SPDX-License-Identifier: MIT */
/* The build's identity (version.h); carrera_revision is written by scripts/revision.cmake. The
 * version and flags come from the build (CMakeLists.txt): a binary that cannot say what it is
 * must not write results. */
#include "version.h"

#ifndef CARRERA_VERSION
#error "CARRERA_VERSION must be defined by the build"
#endif
#ifndef CARRERA_BUILD_FLAGS
#error "CARRERA_BUILD_FLAGS must be defined by the build"
#endif

const char carrera_version[] = CARRERA_VERSION;
const char carrera_build_flags[] = CARRERA_BUILD_FLAGS;

#if defined(__clang__)
#define COMPILER __VERSION__ /* already "Debian Clang 14.0.6 ..." */
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#elif defined(__VERSION__)
#define COMPILER __VERSION__
#else
#define COMPILER "unknown"
#endif

const char carrera_compiler[] = COMPILER;
