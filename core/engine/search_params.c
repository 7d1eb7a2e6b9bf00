/* SPDX-License-Identifier: MIT */
/* The search's tunable numbers (search_params.h). */
#include "search_params.h"

#include <math.h>

void search_params_default(SearchParams *p)
{
    *p = (SearchParams){
        .rfp_depth = 7,
        .rfp_step = 120,
        .futility_depth = 6,
        .futility_base = 100,
        .futility_step = 120,
        .capture_futility_base = 130,
        .capture_futility_step = 190,
        .move_count_depth = 4,
        .move_count_base = 5,
        .see_depth = 8,
        .see_capture = 100,
        .see_quiet = 20,
        .null_base = 3,
        .null_divisor = 4,
        .lmr_base = 75,
        .lmr_divisor = 150,
        .singular_depth = 6,
        .singular_margin = 2,
        .delta_margin = 200,
        .aspiration = 10,
    };
}

#define PARAM(name, field, min, max)                                                               \
    {                                                                                              \
        name, offsetof(SearchParams, field), min, max                                              \
    }

static const SearchParamInfo PARAMS[] = {
    PARAM("RfpDepth", rfp_depth, 0, 20),
    PARAM("RfpStep", rfp_step, 10, 1000),
    PARAM("FutilityDepth", futility_depth, 0, 20),
    PARAM("FutilityBase", futility_base, 0, 1000),
    PARAM("FutilityStep", futility_step, 10, 1000),
    PARAM("CaptureFutilityBase", capture_futility_base, 0, 1000),
    PARAM("CaptureFutilityStep", capture_futility_step, 10, 1000),
    PARAM("MoveCountDepth", move_count_depth, 0, 20),
    PARAM("MoveCountBase", move_count_base, 1, 50),
    PARAM("SeeDepth", see_depth, 0, 20),
    PARAM("SeeCapture", see_capture, 0, 1000),
    PARAM("SeeQuiet", see_quiet, 0, 200),
    PARAM("NullBase", null_base, 1, 8),
    PARAM("NullDivisor", null_divisor, 1, 20),
    PARAM("LmrBase", lmr_base, -100, 300),
    PARAM("LmrDivisor", lmr_divisor, 50, 600),
    PARAM("SingularDepth", singular_depth, 2, 20),
    PARAM("SingularMargin", singular_margin, 0, 20),
    PARAM("DeltaMargin", delta_margin, 0, 2000),
    PARAM("AspirationWindow", aspiration, 5, 1000),
};

const SearchParamInfo *search_param_list(int *count)
{
    *count = (int)(sizeof PARAMS / sizeof PARAMS[0]);
    return PARAMS;
}

const SearchParamInfo *search_param_find(const char *name)
{
    return param_find(PARAMS, (int)(sizeof PARAMS / sizeof PARAMS[0]), name);
}

int search_param_set(SearchParams *p, const char *name, const char *value, char *err, size_t errlen)
{
    return param_set(p, PARAMS, (int)(sizeof PARAMS / sizeof PARAMS[0]), "search", name, value, err,
                     errlen);
}

void search_params_lmr(const SearchParams *p, unsigned char lmr[64][64])
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++) {
            const double r = p->lmr_base / 100.0 + log(d) * log(m) / (p->lmr_divisor / 100.0);
            lmr[d][m] = (unsigned char)(r < 0 ? 0 : r > 63 ? 63 : r);
        }
}
