/* SPDX-License-Identifier: MIT */
/* Names of the turn rules and en passant rules, as the command line, UCI and result files write
 * them. */
#include "rules.h"

#include <string.h>

static const char *const TURN_NAMES[TURNS_NB] = {
    "single", "marseillais", "marseillais-balanced", "galvin", "bennekom", "extramove",
};
static const char *const EP_NAMES[2] = { "classic", "modern" };

const char *turn_rules_name(TurnRules t) { return t < TURNS_NB ? TURN_NAMES[t] : "?"; }

bool turn_rules_parse(const char *name, TurnRules *out)
{
    for (int i = 0; i < TURNS_NB; i++)
        if (strcmp(name, TURN_NAMES[i]) == 0) {
            *out = (TurnRules)i;
            return true;
        }
    return false;
}

const char *ep_rule_name(EpRule e) { return e <= EP_MODERN ? EP_NAMES[e] : "?"; }

bool ep_rule_parse(const char *name, EpRule *out)
{
    for (int i = 0; i < 2; i++)
        if (strcmp(name, EP_NAMES[i]) == 0) {
            *out = (EpRule)i;
            return true;
        }
    return false;
}
