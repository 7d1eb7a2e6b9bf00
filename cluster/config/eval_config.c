/* SPDX-License-Identifier: MIT */
/* Evaluation parameters from INI files (eval_config.h): the keys of a section checked against
 * the parameter names of eval.h and set with eval_param_set, whose message gives the range. */
#include "eval_config.h"

#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

#define WHERE_LISTED "configs/eval/default.ini lists every evaluation parameter"

void eval_config_check(const Ini *ini, const char *section, EvalParams *p, IniCheck *c)
{
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    /* Names are case-insensitive: two spellings of one parameter are the same key twice, which
     * reading, comparing names exactly, does not see. */
    int *first_line = calloc((size_t)count, sizeof *first_line);
    if (!first_line) {
        ini_fail(c, 0, "out of memory");
        return;
    }
    EvalParams changed = *p;
    for (int i = 0; i < ini->entry_count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (strcmp(e->section, section) != 0)
            continue;
        const EvalParamInfo *info = eval_param_find(e->key);
        if (!info) {
            ini_unknown_key(c, e, WHERE_LISTED);
            continue;
        }
        int *first = &first_line[info - list];
        if (*first) {
            ini_duplicate_key(c, e, *first);
            continue;
        }
        *first = e->line;
        char message[ERRMSG_LEN];
        if (eval_param_set(&changed, e->key, e->value, message, sizeof message) != 0)
            ini_fail(c, e->line, "%s", message);
    }
    free(first_line);
    if (!c->failed)
        *p = changed;
}

int eval_config_apply(const Ini *ini, const char *section, EvalParams *p, char *err, size_t errlen)
{
    IniCheck c;
    ini_check_start(&c, ini, err, errlen);
    eval_config_check(ini, section ? section : "eval", p, &c);
    return c.failed ? -1 : 0;
}

int eval_config_read(const char *path, EvalParams *p, char *err, size_t errlen)
{
    Ini ini;
    if (ini_file_read(path, &ini, err, errlen) != 0)
        return -1;
    IniCheck c;
    ini_check_start(&c, &ini, err, errlen);
    for (int i = 0; i < ini.section_count; i++)
        if (strcmp(ini.sections[i].name, "eval") != 0)
            ini_unknown_section(&c, &ini.sections[i], "an evaluation file has one section, [eval]");
    for (int i = 0; i < ini.entry_count; i++)
        if (ini.entries[i].section[0] == '\0')
            ini_outside_section(&c, &ini.entries[i], "eval");
    if (!ini_file_section(&ini, "eval"))
        ini_fail(&c, 0,
                 "no [eval] section (an evaluation file has one, with lines such as "
                 "ValueArchbishopMg = 850)");
    eval_config_check(&ini, "eval", p, &c);
    ini_file_free(&ini);
    return c.failed ? -1 : 0;
}

void eval_config_print_keys(FILE *out)
{
    fprintf(out,
            "[eval], [player1.eval], [player2.eval]  evaluation parameters: default (range)\n");
    EvalParams defaults;
    eval_defaults(&defaults);
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    for (int i = 0; i < count; i++)
        fprintf(out, "  %-20s %d (%d to %d)\n", list[i].name, *eval_param_ref(&defaults, &list[i]),
                list[i].min, list[i].max);
}
