/* SPDX-License-Identifier: MIT */
/* Evaluation parameters from INI files: each key of an [eval] section is a parameter as UCI
 * names it (eval.h; case-insensitive), `ValueArchbishopMg = 850`. Keys not given keep their
 * values, so a file lists only what it changes. Errors name the file, the line and the key. */
#ifndef CARRERA_EVAL_CONFIG_H
#define CARRERA_EVAL_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "eval.h"
#include "ini_file.h"

/* Sets the parameters the keys of [section] (default "eval" when NULL) give; a missing section
 * changes nothing. Other sections are the caller's. Returns 0; or -1 with the first error in
 * the file in err (reading's own errors included), *p then unchanged. */
int eval_config_apply(const Ini *ini, const char *section, EvalParams *p, char *err, size_t errlen);

/* The same inside a larger validation: applies the keys of section to *p when neither they nor
 * anything before them in c is wrong (a match file checks its players' sections so). */
void eval_config_check(const Ini *ini, const char *section, EvalParams *p, IniCheck *c);

/* Reads a file whose only section is [eval] and applies it to *p, as eval_config_apply. */
int eval_config_read(const char *path, EvalParams *p, char *err, size_t errlen);

/* Writes the keys of an evaluation section, every parameter with its default and range, one per
 * line, as ini_keys_print writes the other sections'. */
void eval_config_print_keys(FILE *out);

#endif
