/* SPDX-License-Identifier: MIT */
/* Named integer parameters (param_table.h) from a section of an INI file: each key is a
 * parameter as its table names it (case-insensitive), `RfpStep = 130`; keys not given keep their
 * values. The evaluation's sections (eval_config.h) and the search's ([playerN.search] of a
 * match) are read this way. */
#ifndef CARRERA_PARAM_CONFIG_H
#define CARRERA_PARAM_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "ini_file.h"
#include "param_table.h"

/* The parameters of one kind: the function that lists their table, the size of the struct they
 * live in, the kind's name for messages ("evaluation") and where a user finds the names. */
typedef struct ParamKind {
    const ParamInfo *(*list)(int *count);
    size_t size;
    const char *what;
    const char *where_listed;
} ParamKind;

/* Applies the keys of section to the struct at p when neither they nor anything before them in
 * c is wrong (an unknown key, a key given twice in any spelling, a value out of range); *p is
 * unchanged otherwise. */
void param_config_check(const Ini *ini, const char *section, const ParamKind *kind, void *p,
                        IniCheck *c);

/* Writes the keys of the sections named in sections, every parameter with its value in
 * defaults and its range, one per line. */
void param_config_print_keys(FILE *out, const char *sections, const ParamKind *kind,
                             const void *defaults);

#endif
