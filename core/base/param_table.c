/* SPDX-License-Identifier: MIT */
/* Named integer parameters (param_table.h). */
#include "param_table.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>

#include "errmsg.h"

static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

const ParamInfo *param_find(const ParamInfo *list, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (same_name(list[i].name, name))
            return &list[i];
    return NULL;
}

/* Only an optional sign and decimal digits, nothing around them: "8.75", "1e3", " 5" and "0x10"
 * are mistakes to report, not numbers to round or guess. */
static bool is_integer_text(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

int param_set(void *base, const ParamInfo *list, int count, const char *what, const char *name,
              const char *value, char *err, size_t errlen)
{
    const ParamInfo *info = param_find(list, count, name);
    if (!info)
        return errmsg_fail(err, errlen, "unknown %s parameter '%s'", what, name);
    if (!is_integer_text(value))
        return errmsg_fail(err, errlen, "%s: '%s' is not an integer (range %d..%d)", info->name,
                           value, info->min, info->max);
    /* strtol saturates on overflow, which is outside every range. */
    long v = strtol(value, NULL, 10);
    if (v < info->min || v > info->max)
        return errmsg_fail(err, errlen, "%s: %s is out of range %d..%d", info->name, value,
                           info->min, info->max);
    *param_ref(base, info) = (int)v;
    return 0;
}
