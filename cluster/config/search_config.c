/* SPDX-License-Identifier: MIT */
/* Search parameters from INI files (search_config.h), read by param_config. */
#include "search_config.h"

#include "param_config.h"

static ParamKind search_kind(void)
{
    ParamKind k = { .size = sizeof(SearchParams),
                    .what = "search",
                    .where_listed = "`carrera check-config --keys` lists every search parameter" };
    k.list = search_param_list(&k.count);
    return k;
}

void search_config_check(const Ini *ini, const char *section, SearchParams *p, IniCheck *c)
{
    const ParamKind kind = search_kind();
    param_config_check(ini, section, &kind, p, c);
}

void search_config_print_keys(FILE *out)
{
    SearchParams defaults;
    search_params_default(&defaults);
    const ParamKind kind = search_kind();
    param_config_print_keys(out, "[player1.search], [player2.search]", &kind, &defaults);
}
