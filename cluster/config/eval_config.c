/* SPDX-License-Identifier: MIT */
/* Evaluation parameters from INI files (eval_config.h): the keys of a section checked against
 * the parameter names of eval.h by param_config, whose messages give the ranges. */
#include "eval_config.h"

#include <string.h>

#include "param_config.h"

/* The evaluation's parameters as param_config reads them. */
static const ParamKind EVAL_KIND = { eval_param_list, sizeof(EvalParams), "evaluation",
                                     "configs/eval/default.ini lists every evaluation parameter" };

void eval_config_check(const Ini *ini, const char *section, EvalParams *p, IniCheck *c)
{
    param_config_check(ini, section, &EVAL_KIND, p, c);
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
    EvalParams defaults;
    eval_defaults(&defaults);
    param_config_print_keys(out, "[eval], [player1.eval], [player2.eval]", &EVAL_KIND, &defaults);
}
