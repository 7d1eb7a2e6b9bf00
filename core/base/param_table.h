/* SPDX-License-Identifier: MIT */
/* A table of named integer parameters, each an int at an offset inside a plain struct, with its
 * range: what the evaluation's and the search's parameters share to be found and set by name
 * (INI files, UCI and xboard options, the tuner). */
#ifndef CARRERA_PARAM_TABLE_H
#define CARRERA_PARAM_TABLE_H

#include <stddef.h>

typedef struct ParamInfo {
    const char *name; /* as INI keys and options spell it; matched without regard to case */
    size_t offset;    /* of the int inside its struct */
    int min, max;
} ParamInfo;

/* The entry of list[0..count) named name (case-insensitive), or NULL. */
const ParamInfo *param_find(const ParamInfo *list, int count, const char *name);

/* Sets the parameter name of the struct at base from its text ("875"); non-zero with a message
 * naming the parameter and its range when the name is not in the list (what: the kind of
 * parameter, for the message) or the value is not an integer in range. */
int param_set(void *base, const ParamInfo *list, int count, const char *what, const char *name,
              const char *value, char *err, size_t errlen);

static inline int *param_ref(void *base, const ParamInfo *info)
{
    return (int *)((char *)base + info->offset);
}

#endif
