/* SPDX-License-Identifier: MIT */
/* Search parameters from INI files: each key of a match's [player1.search] or [player2.search]
 * section is a parameter as UCI names it (search_params.h; case-insensitive), `RfpStep = 130`.
 * Keys not given keep their values. Errors name the file, the line and the key. */
#ifndef CARRERA_SEARCH_CONFIG_H
#define CARRERA_SEARCH_CONFIG_H

#include <stdio.h>

#include "ini_file.h"
#include "search_params.h"

/* Applies the keys of section to *p when neither they nor anything before them in c is wrong,
 * as eval_config_check does for the evaluation. */
void search_config_check(const Ini *ini, const char *section, SearchParams *p, IniCheck *c);

/* Writes the keys of a search section, every parameter with its default and range. */
void search_config_print_keys(FILE *out);

#endif
