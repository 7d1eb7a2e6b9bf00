/* The messages of a distributed match, as bytes for comm_send_packet: a worker asks for pairs,
 * rank 0 hands them out or says stop, the worker returns each finished pair (results, endings,
 * clocks and every turn; rank 0 replays the turns from the pair's opening, which it computes
 * itself, so a corrupt message cannot record an illegal game) or the error that stopped it. */
#ifndef CARRERA_MATCH_WIRE_H
#define CARRERA_MATCH_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "eval.h"
#include "match_game.h"
#include "openings.h"

typedef enum WireKind {
    WIRE_REQUEST = 1, /* worker: how many pairs it can play now */
    WIRE_PAIRS,       /* rank 0: the pair numbers to play, with the players' evaluation */
    WIRE_STOP,        /* rank 0: no more pairs */
    WIRE_RESULT,      /* worker: one finished pair */
    WIRE_FAILED       /* worker: the error that stopped it */
} WireKind;

#define WIRE_MAX_PAIRS 1024

/* A decoded message. For WIRE_RESULT, games hold the pair's two games (free them with
 * game_record_free). */
typedef struct WireMessage {
    WireKind kind;
    uint32_t count;                 /* WIRE_REQUEST */
    uint64_t pairs[WIRE_MAX_PAIRS]; /* WIRE_PAIRS */
    uint32_t n_pairs;
    EvalParams eval[2];             /* WIRE_PAIRS: player 1's and player 2's for these pairs */
    uint64_t pair;                  /* WIRE_RESULT */
    GameRecord games[2];
    char text[1024];                /* WIRE_FAILED */
} WireMessage;

/* Each returns malloc'd bytes with their length in *len, or NULL when memory runs out. */
unsigned char *wire_request(uint32_t count, size_t *len);
unsigned char *wire_pairs(const uint64_t *pairs, uint32_t n, const EvalParams eval[2], size_t *len);
unsigned char *wire_stop(size_t *len);
unsigned char *wire_result(uint64_t pair, const GameRecord games[2], size_t *len);
unsigned char *wire_failed(const char *text, size_t *len);

/* Decodes a message; a result is replayed from the pair's opening (o). Returns 0, or -1 with a
 * message in err when the bytes are not a valid message. */
int wire_decode(const unsigned char *data, size_t len, const Openings *o, WireMessage *out,
                char *err, size_t errlen);

#endif
