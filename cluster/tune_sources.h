/* `carrera tune` on a file without [match]: the regression method over the games of earlier
 * result files (`[tune] method = regression`, `games = A.h5, B.h5`); no game is played. */
#ifndef CARRERA_TUNE_SOURCES_H
#define CARRERA_TUNE_SOURCES_H

#include <stdbool.h>

/* When the tune file at path has no [match] section, runs it (its values printed, the result
 * file written to out, or the file's name with .h5) and returns the exit status with *handled
 * set; otherwise returns 0 with *handled false (a file that plays a match). */
int tune_sources_run(const char *path, const char *out, bool *handled);

#endif
