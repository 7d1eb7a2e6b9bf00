/* SPDX-License-Identifier: MIT */
/* The static evaluation of the engine. Every tunable number lives in EvalParams, a plain struct
 * of ints that can be set by name (INI files, UCI options, the tuner) without recompiling;
 * eval_prepare turns it into the tables the evaluation reads (piece-square tables for both board
 * sizes), so a position is evaluated without recomputing anything that depends only on the
 * parameters. Tapered: every term has a middlegame and an endgame value, blended by the phase. */
#ifndef CARRERA_EVAL_H
#define CARRERA_EVAL_H

#include <stddef.h>

#include "param_table.h"
#include "position.h"
#include "rules.h"

/* All values in centipawns. Arrays are indexed by PieceType; entries a term does not use (the
 * king's value, the pawn's mobility, ...) are ignored. */
typedef struct EvalParams {
    int value_mg[TYPE_NB], value_eg[TYPE_NB];       /* material */
    int mobility_mg[TYPE_NB], mobility_eg[TYPE_NB]; /* per safe square reached, N..Q and K */
    int center_mg[TYPE_NB], center_eg[TYPE_NB];     /* piece-square: per step towards the centre */
    int pawn_advance_mg, pawn_advance_eg;           /* per rank a pawn has advanced */
    int passed_mg, passed_eg;                       /* passed pawn, scaled by its advance */
    int doubled_mg, doubled_eg;                     /* penalty per doubled pawn */
    int isolated_mg, isolated_eg;                   /* penalty per isolated pawn */
    int bishop_pair_mg, bishop_pair_eg;
    int rook_open_mg, rook_open_eg; /* rook or chancellor on an open file */
    int king_shelter;               /* middlegame, per shield pawn */
    int king_attack;                /* middlegame, scale of the king attack */
    int tempo;                      /* for the side to move */
    int endgame_scale; /* percent of the endgame scale's reduction applied (eval.inc) */
    int threat_pawn_mg, threat_pawn_eg;   /* per enemy piece our pawns attack */
    int threat_minor_mg, threat_minor_eg; /* per enemy rook or bigger our knights, bishops attack */
    int threat_rook_mg, threat_rook_eg;   /* per enemy archbishop, chancellor, queen rooks attack */
    int hanging_mg, hanging_eg;           /* per enemy piece we attack and it does not defend */
    int safe_check;                       /* middlegame, per piece type that can check safely */
    /* per pawn defended by a pawn or beside one, per rank it has advanced */
    int connected_mg, connected_eg;
    int backward_mg, backward_eg; /* penalty per backward pawn (see eval.inc) */
    /* A passed pawn from its fourth rank on, weighted by its rank (1 there, up to 4 one step from
     * promotion): a bonus when the square in front is empty and no enemy attacks it, and in the
     * endgame one per step the enemy king stands from that square and a penalty per step ours
     * does (each distance counted up to 5). */
    int passed_free_mg, passed_free_eg;
    int passed_king_own, passed_king_their;
    /* The piece-square shape of each board size: per piece type and phase, a term per file
     * counted from the nearer edge (1 the edge file) and per rank from White's first (Black's
     * mirrored), added to the centralisation above. 0 among the starting values; the fitted set
     * (eval_fitted.c) gives the 10x8 one its defaults. */
    struct {
        int file[2][4], rank[2][8];
    } pst8[TYPE_NB];
    struct {
        int file[2][5], rank[2][8];
    } pst10[TYPE_NB];
    /* The mobility shape: per piece type (knight to king) and phase, a term for each piece by
     * its count of safe squares, in the ranges of EVAL_MOBILITY_FROM (eval.c), added to the
     * linear mobility above. 0 among the starting values; the fitted set gives its defaults. */
    int mobility_shape[TYPE_NB][2][10];
} EvalParams;

/* One parameter's name (as INI keys and UCI options spell it), where it is inside EvalParams,
 * and its range. */
typedef ParamInfo EvalParamInfo;

/* Whether a parameter is one of the piece-square or mobility shapes' (pst8, pst10,
 * mobility_shape): several hundred, set by name and by evaluation files like the others but not
 * announced as UCI or xboard options, which would bury the others in a GUI's dialog. */
bool eval_param_is_shape(const EvalParamInfo *info);

/* The documented defaults (eval.c says where each comes from). */
void eval_defaults(EvalParams *p);

/* Every parameter, in a fixed order; *count receives their number. */
const EvalParamInfo *eval_param_list(int *count);

/* The parameter of this name (case-insensitive), or NULL. */
const EvalParamInfo *eval_param_find(const char *name);

static inline int *eval_param_ref(EvalParams *p, const EvalParamInfo *info)
{
    return param_ref(p, info);
}

/* Sets a parameter from its text ("875"); non-zero with a message naming the parameter and its
 * range when the name is unknown or the value is not an integer in range. */
int eval_param_set(EvalParams *p, const char *name, const char *value, char *err, size_t errlen);

/* A bound on the safe squares a piece reaches (a queen in the middle of the empty 10x8 board
 * reaches 30). */
#define EVAL_MAX_REACH 32

/* The prepared form: the parameters and the tables derived from them. Read-only during search;
 * any number of searches may share one. */
typedef struct Eval {
    EvalParams params;
    /* piece-square tables, White's view, [board: 0 for 8 files, 1 for 10][phase: mg, eg] */
    short pst[2][2][TYPE_NB][MAX_SQUARES];
    /* the mobility shape by a piece's count of safe squares, [phase][type][count] */
    short mobility[2][TYPE_NB][EVAL_MAX_REACH + 1];
} Eval;

void eval_prepare(Eval *e, const EvalParams *p);

/* The score of p in centipawns from the view of the side to move. */
int evaluate(const Eval *e, const Position *p);

#endif
