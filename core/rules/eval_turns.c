/* SPDX-License-Identifier: MIT */
/* The double-move rule sets' fitted values (eval_turns.h), as `carrera texel-fit` wrote them:
 * only the values that differ from eval_defaults. Each table's comment says what it was fitted
 * to and the SPRT that kept it (docs/texel.md, docs/engine-tests.tsv). */
#include "eval_turns.h"

#include <stddef.h>

typedef struct Fitted {
    const char *name;
    int value;
} Fitted;

/* Bennekom chess: the 54 scalar terms other than material (mobility, centralisation, pawns, king
 * safety, threats, tempo; not the shapes) fitted to 80,676 quiet positions of 3,000 self-play
 * games at 8,000 and 9,000 nodes a turn (held-out error 0.070770 to 0.064215, -9.3%); kept by
 * SPRT under Bennekom's rules, +43.0 [+21.4, +64.9] at 8,000 nodes. */
static const Fitted BENNEKOM[] = {
    { "MobilityKnightMg", 28 },  { "MobilityBishopMg", 35 }, { "MobilityRookMg", 26 },
    { "MobilityRookEg", 10 },    { "MobilityQueenMg", 0 },   { "MobilityKingMg", 7 },
    { "CenterPawnMg", -32 },     { "CenterPawnEg", 1 },      { "CenterKnightMg", -22 },
    { "CenterKnightEg", 17 },    { "CenterBishopMg", 3 },    { "CenterBishopEg", -17 },
    { "CenterRookMg", 21 },      { "CenterRookEg", 5 },      { "CenterQueenMg", -96 },
    { "CenterQueenEg", 46 },     { "CenterKingMg", -27 },    { "CenterKingEg", 8 },
    { "PawnAdvanceMg", 14 },     { "PawnAdvanceEg", -1 },    { "PassedMg", 7 },
    { "PassedEg", 102 },         { "DoubledMg", 83 },        { "DoubledEg", 28 },
    { "IsolatedMg", 9 },         { "IsolatedEg", 0 },        { "BishopPairMg", 0 },
    { "BishopPairEg", 0 },       { "RookOpenFileMg", 0 },    { "RookOpenFileEg", 0 },
    { "KingShelter", 5 },        { "KingAttack", 100 },      { "Tempo", 36 },
    { "ThreatPawnMg", 0 },       { "ThreatPawnEg", 0 },      { "ThreatMinorMg", 45 },
    { "ThreatMinorEg", 200 },    { "ThreatRookMg", 0 },      { "ThreatRookEg", 0 },
    { "HangingMg", 0 },          { "HangingEg", 24 },        { "SafeCheck", 70 },
    { "ConnectedMg", 0 },        { "ConnectedEg", 1 },       { "BackwardMg", 56 },
    { "BackwardEg", 30 },        { "PassedFreeEg", 0 },      { "PassedKingOwnEg", 10 },
    { "PassedKingTheirEg", 23 },
};

/* Galvin's game: the same 54 terms fitted to 37,586 quiet positions of 3,000 self-play games at
 * 8,000 and 9,000 nodes a turn, from their fifth turn (its games are short: most end before the
 * seventeenth, where the other fits start) (held-out error 0.167855 to 0.163683, -2.5%); kept by
 * SPRT under Galvin's rules, +27.4 [+10.5, +44.4] at 8,000 nodes. */
static const Fitted GALVIN[] = {
    { "MobilityKnightMg", 0 },  { "MobilityKnightEg", 9 },
    { "MobilityBishopMg", 28 }, { "MobilityBishopEg", 11 },
    { "MobilityRookMg", 0 },    { "MobilityRookEg", 50 },
    { "MobilityQueenMg", 12 },  { "MobilityQueenEg", 32 },
    { "MobilityKingMg", 0 },    { "CenterPawnEg", -9 },
    { "CenterKnightMg", 6 },    { "CenterKnightEg", 57 },
    { "CenterBishopMg", -32 },  { "CenterBishopEg", -39 },
    { "CenterRookMg", -5 },     { "CenterRookEg", 36 },
    { "CenterQueenMg", -19 },   { "CenterQueenEg", 23 },
    { "CenterKingMg", -100 },   { "CenterKingEg", 18 },
    { "PawnAdvanceMg", -28 },   { "PawnAdvanceEg", 32 },
    { "PassedMg", 2 },          { "PassedEg", 500 },
    { "DoubledMg", 3 },         { "DoubledEg", 107 },
    { "IsolatedMg", 0 },        { "IsolatedEg", 0 },
    { "BishopPairMg", 0 },      { "BishopPairEg", 231 },
    { "RookOpenFileEg", 66 },   { "KingShelter", 34 },
    { "KingAttack", 100 },      { "Tempo", 78 },
    { "ThreatPawnMg", 38 },     { "ThreatPawnEg", 198 },
    { "ThreatMinorMg", 0 },     { "ThreatMinorEg", 0 },
    { "ThreatRookMg", 300 },    { "ThreatRookEg", 285 },
    { "HangingMg", 0 },         { "HangingEg", 0 },
    { "SafeCheck", 300 },       { "ConnectedMg", 0 },
    { "ConnectedEg", 5 },       { "BackwardMg", 0 },
    { "BackwardEg", 0 },        { "PassedFreeEg", 58 },
    { "PassedKingOwnEg", 34 },  { "PassedKingTheirEg", 15 },
};

static const struct {
    const Fitted *v;
    size_t n;
} TABLES[TURNS_NB] = {
    [TURNS_GALVIN] = { GALVIN, sizeof GALVIN / sizeof GALVIN[0] },
    [TURNS_BENNEKOM] = { BENNEKOM, sizeof BENNEKOM / sizeof BENNEKOM[0] },
};

/* Sets rule set t's fitted values in p. */
static void apply_table(EvalParams *p, TurnRules t)
{
    for (size_t i = 0; i < TABLES[t].n; i++)
        *eval_param_ref(p, eval_param_find(TABLES[t].v[i].name)) = TABLES[t].v[i].value;
}

void eval_turns_defaults(EvalParams *p, TurnRules t)
{
    eval_defaults(p);
    apply_table(p, t);
}

void eval_turns_resolve(const EvalParams *session, TurnRules t, EvalParams *out)
{
    EvalParams single, set = *session;
    eval_defaults(&single);
    *out = single;
    apply_table(out, t);
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    for (int i = 0; i < count; i++) {
        const int v = *eval_param_ref(&set, &list[i]);
        if (v != *eval_param_ref(&single, &list[i]))
            *eval_param_ref(out, &list[i]) = v;
    }
}
