/* SPDX-License-Identifier: MIT */
/* The tasks and results of a match's pairs as bytes for the farm (mpi/farm.h): rank 0 sends a
 * pair to play with the players' evaluation and search parameters, the rank returns the finished
 * pair (results, endings, clocks and every turn; rank 0 replays the turns from the pair's opening,
 * which it computes itself, so a corrupt message cannot record an illegal game) or the error that
 * stopped it. */
#ifndef CARRERA_MATCH_WIRE_H
#define CARRERA_MATCH_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "game_record.h"
#include "openings.h"
#include "player_config.h"

typedef enum WireKind {
    WIRE_TASK = 1, /* rank 0: the pair to play, with the players' parameters */
    WIRE_RESULT,   /* a rank: the finished pair */
    WIRE_FAILED    /* a rank: the error that stopped it */
} WireKind;

/* A decoded message. For WIRE_RESULT, games hold the pair's two games (free them with
 * game_record_free). */
typedef struct WireMessage {
    WireKind kind;
    uint64_t pair;          /* WIRE_TASK, WIRE_RESULT */
    EngineParams params[2]; /* WIRE_TASK: player 1's and player 2's for the pair */
    GameRecord games[2];    /* WIRE_RESULT */
    char text[1024];        /* WIRE_FAILED */
} WireMessage;

/* Each returns malloc'd bytes with their length in *len, or NULL when memory runs out. */
unsigned char *wire_task(uint64_t pair, const EngineParams params[2], size_t *len);
unsigned char *wire_result(uint64_t pair, const GameRecord games[2], size_t *len);
unsigned char *wire_failed(const char *text, size_t *len);

/* Decodes a message; a result is replayed from the pair's opening (o). Returns 0, or -1 with a
 * message in err when the bytes are not a valid message. */
int wire_decode(const unsigned char *data, size_t len, const Openings *o, WireMessage *out,
                char *err, size_t errlen);

#endif
