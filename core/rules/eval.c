/* SPDX-License-Identifier: MIT */
/* The evaluation's parameters: their documented defaults, their names and ranges (for INI files,
 * UCI options and the tuner), and eval_prepare, which turns them into the piece-square tables the
 * bitboard evaluation (eval.inc, compiled once per board size) reads. */
#include "eval.h"

#include "board.h"
#include "eval_fitted.h"

#include <stdlib.h>
#include <string.h>

/* Defaults, in centipawns.
 *
 * Material: H.G. Muller's values for the Capablanca pieces, as the issue that asked for this
 * evaluation cites them: P 1, N 3.0, B 3.5, R 4.75, A 8.75, C 9.0, Q 9.5 pawns. He obtained them
 * as the best fit to computer-computer games (his engine Joker80) started with material
 * imbalances, as he describes in the "Piece Values" thread of chessvariants.org (3 May 2008).
 * The Rook is his 4.75; the usual 8x8 figure is 5.0. For comparison, the built-in values of
 * Fairy-Stockfish (src/types.h) are, scaled to a 3.0 Knight,
 * B 3.2, R 4.9, A 8.5, C 8.8, Q 9.7 in the middlegame and B 3.2, R 4.8, A 7.7, C 9.1, Q 9.4 in
 * the endgame (its Pawn is 0.5 and 0.7): the same order, the Archbishop a little lower. The
 * same values serve both phases until tuning says otherwise.
 *
 * Everything else is a round starting value of our own for the tuner, of the size classical
 * engines use: a few centipawns per safe square of mobility or step towards the centre, a tenth
 * to a fifth of a pawn per pawn-structure defect, about half a pawn for the bishop pair
 * (L. Kaufman, "The Evaluation of Material Imbalances", 1999, on 8x8 boards). These are the
 * starting values; the fitted set of eval_fitted.c, kept by SPRT, is laid over them last, and
 * every parameter but the material and the 8x8 piece-square shape takes its value from it. */
void eval_defaults(EvalParams *p)
{
    static const int value[TYPE_NB] = {
        [PAWN] = 100,       [KNIGHT] = 300,     [BISHOP] = 350, [ROOK] = 475,
        [ARCHBISHOP] = 875, [CHANCELLOR] = 900, [QUEEN] = 950,
    };
    static const int mobility_mg[TYPE_NB] = {
        [KNIGHT] = 6, [BISHOP] = 5, [ROOK] = 3, [ARCHBISHOP] = 4, [CHANCELLOR] = 3, [QUEEN] = 2,
    };
    static const int mobility_eg[TYPE_NB] = {
        [KNIGHT] = 5,     [BISHOP] = 5, [ROOK] = 5, [ARCHBISHOP] = 4,
        [CHANCELLOR] = 4, [QUEEN] = 3,  [KING] = 3,
    };
    /* The king hides in the middlegame (negative: a penalty per step towards the centre or up
     * from its back rank) and comes out in the endgame. */
    static const int center_mg[TYPE_NB] = {
        [PAWN] = 3,       [KNIGHT] = 5,     [BISHOP] = 2, [ROOK] = 1,
        [ARCHBISHOP] = 3, [CHANCELLOR] = 3, [QUEEN] = 1,  [KING] = -8,
    };
    static const int center_eg[TYPE_NB] = {
        [KNIGHT] = 3,     [BISHOP] = 2, [ROOK] = 1, [ARCHBISHOP] = 2,
        [CHANCELLOR] = 2, [QUEEN] = 2,  [KING] = 8,
    };
    memset(p, 0, sizeof *p);
    memcpy(p->value_mg, value, sizeof value);
    memcpy(p->value_eg, value, sizeof value);
    memcpy(p->mobility_mg, mobility_mg, sizeof mobility_mg);
    memcpy(p->mobility_eg, mobility_eg, sizeof mobility_eg);
    memcpy(p->center_mg, center_mg, sizeof center_mg);
    memcpy(p->center_eg, center_eg, sizeof center_eg);
    p->pawn_advance_mg = 2;
    p->pawn_advance_eg = 5;
    p->passed_mg = 40; /* one step from promotion; less further back (eval.inc) */
    p->passed_eg = 120;
    p->doubled_mg = 10;
    p->doubled_eg = 20;
    p->isolated_mg = 10;
    p->isolated_eg = 15;
    p->bishop_pair_mg = 40;
    p->bishop_pair_eg = 50;
    p->rook_open_mg = 20; /* half of it on a half-open file */
    p->rook_open_eg = 10;
    /* King safety: 8 and 8 to start; 16 and 24 where the Texel fits of Carrera's games (21, 20)
     * and of Fairy-Stockfish's (11, 41) both pointed, kept by SPRT (docs/engine-tests.tsv) */
    p->king_shelter = 16;
    p->king_attack = 24; /* per 64 squared attack units: 600 at the cap */
    p->tempo = 15;
    /* Stockfish's scale factor of the endgame terms, all of it (SPRT +10.8, docs/engine-tests.md)
     */
    p->endgame_scale = 100;
    /* Threats: what the side to move may win or the other must answer, which a static
     * evaluation (and the stand-pat of quiescence) does not see; starting values of the size
     * classical engines give them, below the material at stake. */
    p->threat_pawn_mg = 60;
    p->threat_pawn_eg = 40;
    p->threat_minor_mg = 40;
    p->threat_minor_eg = 40;
    p->threat_rook_mg = 40;
    p->threat_rook_eg = 30;
    p->hanging_mg = 40;
    p->hanging_eg = 25;
    /* A check the defence cannot stop by taking the checker is the king attack's sharpest
     * form (Stockfish's classical king danger counts it per piece type): 40 to start, the size
     * of a threat, then 80, each kept by SPRT (docs/engine-tests.tsv). */
    p->safe_check = 80;
    eval_fitted_apply(p);
}

/* clang-format off */
#define P(name, field, lo, hi) { name, offsetof(EvalParams, field), lo, hi }
/* clang-format on */
#define VALUE(Name, T)                                                                             \
    P("Value" Name "Mg", value_mg[T], 0, 3000), P("Value" Name "Eg", value_eg[T], 0, 3000)
#define MOBILITY(Name, T)                                                                          \
    P("Mobility" Name "Mg", mobility_mg[T], 0, 50), P("Mobility" Name "Eg", mobility_eg[T], 0, 50)
#define CENTER(Name, T)                                                                            \
    P("Center" Name "Mg", center_mg[T], -100, 100), P("Center" Name "Eg", center_eg[T], -100, 100)

/* The piece-square shape: Pst8KnightFile1Mg .. Pst10KingRank8Eg, in the struct's order. */
#define SHAPE_FILE(B, Name, T, Ph, ph, i)                                                          \
    P("Pst" #B Name "File" #i Ph, pst##B[T].file[ph][i - 1], -400, 400)
#define SHAPE_RANK(B, Name, T, Ph, ph, i)                                                          \
    P("Pst" #B Name "Rank" #i Ph, pst##B[T].rank[ph][i - 1], -400, 400)
#define SHAPE_FILES8(B, Name, T, Ph, ph)                                                           \
    SHAPE_FILE(B, Name, T, Ph, ph, 1), SHAPE_FILE(B, Name, T, Ph, ph, 2),                          \
        SHAPE_FILE(B, Name, T, Ph, ph, 3), SHAPE_FILE(B, Name, T, Ph, ph, 4)
#define SHAPE_FILES10(B, Name, T, Ph, ph)                                                          \
    SHAPE_FILES8(B, Name, T, Ph, ph), SHAPE_FILE(B, Name, T, Ph, ph, 5)
#define SHAPE_PAWN_RANKS(B, Name, T, Ph, ph)                                                       \
    SHAPE_RANK(B, Name, T, Ph, ph, 2), SHAPE_RANK(B, Name, T, Ph, ph, 3),                          \
        SHAPE_RANK(B, Name, T, Ph, ph, 4), SHAPE_RANK(B, Name, T, Ph, ph, 5),                      \
        SHAPE_RANK(B, Name, T, Ph, ph, 6), SHAPE_RANK(B, Name, T, Ph, ph, 7)
#define SHAPE_RANKS(B, Name, T, Ph, ph)                                                            \
    SHAPE_RANK(B, Name, T, Ph, ph, 1), SHAPE_PAWN_RANKS(B, Name, T, Ph, ph),                       \
        SHAPE_RANK(B, Name, T, Ph, ph, 8)
#define SHAPE_OF(B, Name, T, RANKS)                                                                \
    SHAPE_FILES##B(B, Name, T, "Mg", 0), SHAPE_FILES##B(B, Name, T, "Eg", 1),                      \
        RANKS(B, Name, T, "Mg", 0), RANKS(B, Name, T, "Eg", 1)
#define SHAPE(B, Name, T) SHAPE_OF(B, Name, T, SHAPE_RANKS)
/* a pawn never stands on the first or last rank: no terms there; no 8x8 game has an archbishop
 * or a chancellor */
#define SHAPES_8X8(B)                                                                              \
    SHAPE_OF(B, "Pawn", PAWN, SHAPE_PAWN_RANKS), SHAPE(B, "Knight", KNIGHT),                       \
        SHAPE(B, "Bishop", BISHOP), SHAPE(B, "Rook", ROOK), SHAPE(B, "Queen", QUEEN),              \
        SHAPE(B, "King", KING)
#define SHAPES_10X8(B)                                                                             \
    SHAPE_OF(B, "Pawn", PAWN, SHAPE_PAWN_RANKS), SHAPE(B, "Knight", KNIGHT),                       \
        SHAPE(B, "Bishop", BISHOP), SHAPE(B, "Rook", ROOK), SHAPE(B, "Archbishop", ARCHBISHOP),    \
        SHAPE(B, "Chancellor", CHANCELLOR), SHAPE(B, "Queen", QUEEN), SHAPE(B, "King", KING)

/* The mobility shape: MobilityKnightAt0Mg .. MobilityKingAt16Eg, each named by the lowest count
 * of safe squares of its range (EVAL_MOBILITY_FROM). */
#define MOB(Name, T, Ph, ph, i, From)                                                              \
    P("Mobility" Name "At" #From Ph, mobility_shape[T][ph][i], -400, 400)
#define MOB_TO7(Name, T, Ph, ph)                                                                   \
    MOB(Name, T, Ph, ph, 0, 0), MOB(Name, T, Ph, ph, 1, 1), MOB(Name, T, Ph, ph, 2, 2),            \
        MOB(Name, T, Ph, ph, 3, 3), MOB(Name, T, Ph, ph, 4, 4), MOB(Name, T, Ph, ph, 5, 5),        \
        MOB(Name, T, Ph, ph, 6, 7)
#define MOB_TO12(Name, T, Ph, ph)                                                                  \
    MOB_TO7(Name, T, Ph, ph), MOB(Name, T, Ph, ph, 7, 9), MOB(Name, T, Ph, ph, 8, 12)
#define MOB_TO16(Name, T, Ph, ph) MOB_TO12(Name, T, Ph, ph), MOB(Name, T, Ph, ph, 9, 16)
/* a knight or king reaches 8 squares at most, a bishop 13: no ranges beyond */
#define MOB_TYPE(Name, T, TO) TO(Name, T, "Mg", 0), TO(Name, T, "Eg", 1)

/* The first count of safe squares of each range of the mobility shape, and the ranges each piece
 * type has. */
static const int EVAL_MOBILITY_FROM[10] = { 0, 1, 2, 3, 4, 5, 7, 9, 12, 16 };
static const int MOBILITY_RANGES[TYPE_NB] = {
    [KNIGHT] = 7,      [BISHOP] = 9, [ROOK] = 10, [ARCHBISHOP] = 10,
    [CHANCELLOR] = 10, [QUEEN] = 10, [KING] = 7,
};

/* Every int of EvalParams a term reads, in the struct's order. The ranges are wide for the tuner
 * yet keep every piece-square entry (eval_prepare) well inside a short. */
static const EvalParamInfo PARAMS[] = {
    VALUE("Pawn", PAWN),
    VALUE("Knight", KNIGHT),
    VALUE("Bishop", BISHOP),
    VALUE("Rook", ROOK),
    VALUE("Archbishop", ARCHBISHOP),
    VALUE("Chancellor", CHANCELLOR),
    VALUE("Queen", QUEEN),
    MOBILITY("Knight", KNIGHT),
    MOBILITY("Bishop", BISHOP),
    MOBILITY("Rook", ROOK),
    MOBILITY("Archbishop", ARCHBISHOP),
    MOBILITY("Chancellor", CHANCELLOR),
    MOBILITY("Queen", QUEEN),
    MOBILITY("King", KING),
    CENTER("Pawn", PAWN),
    CENTER("Knight", KNIGHT),
    CENTER("Bishop", BISHOP),
    CENTER("Rook", ROOK),
    CENTER("Archbishop", ARCHBISHOP),
    CENTER("Chancellor", CHANCELLOR),
    CENTER("Queen", QUEEN),
    CENTER("King", KING),
    P("PawnAdvanceMg", pawn_advance_mg, -50, 100),
    P("PawnAdvanceEg", pawn_advance_eg, -50, 100),
    P("PassedMg", passed_mg, 0, 500),
    P("PassedEg", passed_eg, 0, 500),
    P("DoubledMg", doubled_mg, 0, 200),
    P("DoubledEg", doubled_eg, 0, 200),
    P("IsolatedMg", isolated_mg, 0, 200),
    P("IsolatedEg", isolated_eg, 0, 200),
    P("BishopPairMg", bishop_pair_mg, 0, 300),
    P("BishopPairEg", bishop_pair_eg, 0, 300),
    P("RookOpenFileMg", rook_open_mg, 0, 200),
    P("RookOpenFileEg", rook_open_eg, 0, 200),
    P("KingShelter", king_shelter, 0, 100),
    P("KingAttack", king_attack, 0, 100),
    P("Tempo", tempo, 0, 100),
    P("EndgameScale", endgame_scale, 0, 100),
    P("ThreatPawnMg", threat_pawn_mg, 0, 300),
    P("ThreatPawnEg", threat_pawn_eg, 0, 300),
    P("ThreatMinorMg", threat_minor_mg, 0, 300),
    P("ThreatMinorEg", threat_minor_eg, 0, 300),
    P("ThreatRookMg", threat_rook_mg, 0, 300),
    P("ThreatRookEg", threat_rook_eg, 0, 300),
    P("HangingMg", hanging_mg, 0, 300),
    P("HangingEg", hanging_eg, 0, 300),
    P("SafeCheck", safe_check, 0, 300),
    P("ConnectedMg", connected_mg, 0, 100),
    P("ConnectedEg", connected_eg, 0, 100),
    P("BackwardMg", backward_mg, 0, 200),
    P("BackwardEg", backward_eg, 0, 200),
    P("PassedFreeMg", passed_free_mg, 0, 200),
    P("PassedFreeEg", passed_free_eg, 0, 200),
    P("PassedKingOwnEg", passed_king_own, 0, 100),
    P("PassedKingTheirEg", passed_king_their, 0, 100),
    SHAPES_8X8(8),
    SHAPES_10X8(10),
    MOB_TYPE("Knight", KNIGHT, MOB_TO7),
    MOB_TYPE("Bishop", BISHOP, MOB_TO12),
    MOB_TYPE("Rook", ROOK, MOB_TO16),
    MOB_TYPE("Archbishop", ARCHBISHOP, MOB_TO16),
    MOB_TYPE("Chancellor", CHANCELLOR, MOB_TO16),
    MOB_TYPE("Queen", QUEEN, MOB_TO16),
    MOB_TYPE("King", KING, MOB_TO7),
};
#undef P
#undef VALUE
#undef MOBILITY
#undef CENTER
#undef SHAPE_FILE
#undef SHAPE_RANK
#undef SHAPE_FILES8
#undef SHAPE_FILES10
#undef SHAPE_RANKS
#undef SHAPE_PAWN_RANKS
#undef SHAPE_OF
#undef SHAPE
#undef SHAPES_8X8
#undef SHAPES_10X8
#undef MOB
#undef MOB_TO7
#undef MOB_TO12
#undef MOB_TO16
#undef MOB_TYPE

bool eval_param_is_shape(const EvalParamInfo *info)
{
    return info->offset >= offsetof(EvalParams, pst8);
}

const EvalParamInfo *eval_param_list(int *count)
{
    *count = (int)(sizeof PARAMS / sizeof PARAMS[0]);
    return PARAMS;
}

const EvalParamInfo *eval_param_find(const char *name)
{
    return param_find(PARAMS, (int)(sizeof PARAMS / sizeof PARAMS[0]), name);
}

int eval_param_set(EvalParams *p, const char *name, const char *value, char *err, size_t errlen)
{
    return param_set(p, PARAMS, (int)(sizeof PARAMS / sizeof PARAMS[0]), "evaluation", name, value,
                     err, errlen);
}

/* Mobility is scored around these counts of safe squares, so that a piece with a typical
 * number scores about nothing and the mobility weights do not shift the material values: the
 * means measured over positions of random legal games of 0 to 160 plies, rounded, which came
 * out within one square of each other on both board widths (the Archbishop's and the
 * Chancellor's on 10x8 only). A constant per piece, the centring is folded into the
 * piece-square tables; whatever it is off by, a tuned material value absorbs. */
static const int TYPICAL_REACH[TYPE_NB] = {
    [KNIGHT] = 3,     [BISHOP] = 3, [ROOK] = 3, [ARCHBISHOP] = 6,
    [CHANCELLOR] = 7, [QUEEN] = 7,  [KING] = 3,
};

static int min_int(int a, int b) { return a < b ? a : b; }

/* Steps towards the centre of a piece of type t on (file, rank), as White, in the given phase
 * (0 middlegame): its distance from the nearest edge in files plus that in ranks. A pawn's rank is
 * its advance, scored apart; the middlegame king counts its ranks from its own back rank
 * instead, so that a negative weight keeps it at home and on a wing. */
static int centre_steps(PieceType t, int phase, int files, int file, int rank)
{
    int f = min_int(file, files - 1 - file);
    if (t == PAWN)
        return f;
    if (t == KING && phase == 0)
        return f + rank;
    return f + min_int(rank, RANKS - 1 - rank);
}

/* Each table entry holds all a piece on a square is worth that depends on nothing else: its
 * material, its centralisation, a pawn's advance and the mobility centring. The evaluation then
 * adds one entry per piece. */
void eval_prepare(Eval *e, const EvalParams *p)
{
    memset(e, 0, sizeof *e);
    e->params = *p;
    for (int board = 0; board < 2; board++) {
        const int files = board ? 10 : 8;
        for (int phase = 0; phase < 2; phase++) {
            const int *value = phase ? p->value_eg : p->value_mg;
            const int *mobility = phase ? p->mobility_eg : p->mobility_mg;
            const int *center = phase ? p->center_eg : p->center_mg;
            const int advance = phase ? p->pawn_advance_eg : p->pawn_advance_mg;
            for (PieceType t = PAWN; t <= KING; t++) {
                const int *shape_file = board ? p->pst10[t].file[phase] : p->pst8[t].file[phase];
                const int *shape_rank = board ? p->pst10[t].rank[phase] : p->pst8[t].rank[phase];
                for (int sq = 0; sq < files * RANKS; sq++) {
                    int file = sq % files, rank = sq / files;
                    int v = center[t] * centre_steps(t, phase, files, file, rank);
                    if (t != KING)
                        v += value[t];
                    v += shape_file[min_int(file, files - 1 - file)] + shape_rank[rank];
                    if (t == PAWN)
                        v += advance * (rank > 1 ? rank - 1 : 0);
                    else
                        v -= mobility[t] * TYPICAL_REACH[t];
                    e->pst[board][phase][t][sq] = (short)v;
                }
            }
        }
    }
    for (int phase = 0; phase < 2; phase++)
        for (PieceType t = KNIGHT; t <= KING; t++)
            for (int count = 0, range = 0; count <= EVAL_MAX_REACH; count++) {
                if (range + 1 < MOBILITY_RANGES[t] && count >= EVAL_MOBILITY_FROM[range + 1])
                    range++;
                e->mobility[phase][t][count] = (short)p->mobility_shape[t][phase][range];
            }
}

int evaluate(const Eval *e, const Position *p)
{
    return p->variant->files == 10 ? board_eval_10(&p->u.b10.board, e)
                                   : board_eval_8(&p->u.b8.board, e);
}
