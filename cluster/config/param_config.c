/* SPDX-License-Identifier: MIT */
/* Named integer parameters from INI sections (param_config.h). */
#include "param_config.h"

#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

void param_config_check(const Ini *ini, const char *section, const ParamKind *kind, void *p,
                        IniCheck *c)
{
    int count;
    const ParamInfo *list = kind->list(&count);
    /* Names are case-insensitive: two spellings of one parameter are the same key twice, which
     * reading, comparing names exactly, does not see. */
    int *first_line = calloc((size_t)count, sizeof *first_line);
    void *changed = malloc(kind->size);
    if (!first_line || !changed) {
        free(first_line);
        free(changed);
        ini_fail(c, 0, "out of memory");
        return;
    }
    memcpy(changed, p, kind->size);
    for (int i = 0; i < ini->entry_count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (strcmp(e->section, section) != 0)
            continue;
        const ParamInfo *info = param_find(list, count, e->key);
        if (!info) {
            ini_unknown_key(c, e, kind->where_listed);
            continue;
        }
        int *first = &first_line[info - list];
        if (*first) {
            ini_duplicate_key(c, e, *first);
            continue;
        }
        *first = e->line;
        char message[ERRMSG_LEN];
        if (param_set(changed, list, count, kind->what, e->key, e->value, message,
                      sizeof message) != 0)
            ini_fail(c, e->line, "%s", message);
    }
    if (!c->failed)
        memcpy(p, changed, kind->size);
    free(first_line);
    free(changed);
}

void param_config_print_keys(FILE *out, const char *sections, const ParamKind *kind,
                             const void *defaults)
{
    int count;
    const ParamInfo *list = kind->list(&count);
    fprintf(out, "%s  %s parameters: default (range)\n", sections, kind->what);
    for (int i = 0; i < count; i++)
        fprintf(out, "  %-20s %d (%d to %d)\n", list[i].name,
                *param_ref((void *)defaults, &list[i]), list[i].min, list[i].max);
}
