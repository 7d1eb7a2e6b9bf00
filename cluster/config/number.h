/* SPDX-License-Identifier: MIT */
/* Whole numbers as every input of Carrera writes them (command-line options, configuration
 * keys): decimal digits only, no sign, no blanks, no suffix, within the bounds the caller
 * names, so that "1e6", "-1" and "12 " are refused instead of read as something else. */
#ifndef CARRERA_NUMBER_H
#define CARRERA_NUMBER_H

#include <stdbool.h>

/* A whole decimal number from min to max (min >= 0), digits only; false otherwise (*out
 * unchanged). */
bool number_parse(const char *text, long min, long max, long *out);

#endif
