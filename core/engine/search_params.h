/* SPDX-License-Identifier: MIT */
/* The search's tunable numbers: the margins and depths of its pruning, its reductions and its
 * aspiration window, as a plain struct of ints that can be set by name without recompiling (UCI
 * and xboard options, a match's [playerN.search] section, the tuner's SPSA). The defaults are the
 * values each change was kept with by SPRT (docs/engine-tests.md). */
#ifndef CARRERA_SEARCH_PARAMS_H
#define CARRERA_SEARCH_PARAMS_H

#include <stddef.h>

#include "param_table.h"

typedef struct SearchParams {
    /* reverse futility: up to rfp_depth plies, a node rfp_step a ply (a ply less when improving)
     * above beta returns its static evaluation */
    int rfp_depth, rfp_step;
    /* futility: a late quiet turn whose depth after late move reductions is at most
     * futility_depth is left out when the static evaluation plus futility_base plus
     * futility_step a ply of that depth does not reach alpha */
    int futility_depth, futility_base, futility_step;
    /* futility of captures: a late capture (single-move rules) whose piece is worth at least its
     * victim and whose depth after late move reductions is below futility_depth is left out when
     * the static evaluation plus capture_futility_base plus capture_futility_step a ply of that
     * depth plus the victim does not reach alpha */
    int capture_futility_base, capture_futility_step;
    /* move count pruning up to move_count_depth: the quiet turns after the first
     * (move_count_base + depth^2) / 2 (twice as many when improving) */
    int move_count_depth, move_count_base;
    /* exchange pruning up to see_depth: a capture that loses more than see_capture a ply, a
     * quiet turn more than see_quiet a ply squared */
    int see_depth, see_capture, see_quiet;
    /* the null move's reduction: null_base + depth / null_divisor plies */
    int null_base, null_divisor;
    /* late move reductions: (lmr_base + ln depth ln turns / (lmr_divisor / 100)) / 100 plies,
     * both in hundredths */
    int lmr_base, lmr_divisor;
    /* singular extensions from singular_depth, the others' margin singular_margin a ply */
    int singular_depth, singular_margin;
    /* quiescence's delta pruning: a capture that would not reach alpha by this margin */
    int delta_margin;
    /* the root's first aspiration window, each side of the last score */
    int aspiration;
} SearchParams;

/* One parameter's name, where it is inside SearchParams, and its range. */
typedef ParamInfo SearchParamInfo;

/* The values the search was kept with. */
void search_params_default(SearchParams *p);

/* Every parameter, in a fixed order; *count receives their number. */
const SearchParamInfo *search_param_list(int *count);

/* The parameter of this name (case-insensitive), or NULL. */
const SearchParamInfo *search_param_find(const char *name);

/* Sets a parameter from its text ("120"); non-zero with a message naming the parameter and its
 * range when the name is unknown or the value is not an integer in range. */
int search_param_set(SearchParams *p, const char *name, const char *value, char *err,
                     size_t errlen);

/* The late move reductions' table by depth and turns searched (both 1 to 63; row and column 0
 * unused) for p. */
void search_params_lmr(const SearchParams *p, unsigned char lmr[64][64]);

#endif
