/* SPDX-License-Identifier: MIT */
/* Search parameters from INI files (search_config.h), read by param_config. */
#include "search_config.h"

#include "param_config.h"

static const ParamKind SEARCH_KIND = {
    search_param_list, sizeof(SearchParams), "search",
    "`carrera check-config --keys` lists every search parameter"
};

void search_config_check(const Ini *ini, const char *section, SearchParams *p, IniCheck *c)
{
    param_config_check(ini, section, &SEARCH_KIND, p, c);
}

void search_config_print_keys(FILE *out)
{
    SearchParams defaults;
    search_params_default(&defaults);
    param_config_print_keys(out, "[player1.search], [player2.search]", &SEARCH_KIND, &defaults);
}
