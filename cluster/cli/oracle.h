/* SPDX-License-Identifier: MIT */
/* The external engine whose perft `carrera bisect` and `carrera verify` compare with Carrera's,
 * behind either protocol: UCI `go perft` (uci_client.h) or perftree's script protocol
 * (perftree.h). One question at a time: ask, count meanwhile, read the answer. */
#ifndef CARRERA_ORACLE_H
#define CARRERA_ORACLE_H

#include <stdbool.h>

#include "divide.h"
#include "perftree.h"
#include "rules.h"
#include "uci_client.h"
#include "variant.h"

typedef enum OracleProtocol { ORACLE_UCI, ORACLE_SCRIPT } OracleProtocol;

typedef struct OracleOptions {
    OracleProtocol protocol;
    const char *command; /* the program and its arguments, split at white space */
    const Variant *variant;
    Rules rules;
    bool send_turns, send_ep; /* set TurnRules, EnPassantRule (given on the command line) */
    int timeout_ms;           /* for each answer */
} OracleOptions;

typedef struct Oracle {
    OracleOptions o;
    UciClient uci;
    PerftreeClient script;
} Oracle;

/* Starts the engine: a UCI engine is started, handshaken and set up for the variant and rules
 * (the names Fairy-Stockfish uses); a script is only noted (it runs once per question).
 * Returns 0, or -1 with a message in err (the engine is then stopped). */
int oracle_start(Oracle *e, const OracleOptions *o, char *err, size_t errlen);

/* Asks for the divide of fen (then moves, may be NULL) to depth; returns at once. 0 or -1. */
int oracle_ask(Oracle *e, const char *fen, const char *moves, int depth, char *err, size_t errlen);

/* Reads the answer to the last oracle_ask within the timeout. 0, or -1 with a message; after a
 * failure a UCI engine is stopped (oracle_start it again). */
int oracle_answer(Oracle *e, Divide *d, char *err, size_t errlen);

/* Stops the engine; safe to call twice. */
void oracle_stop(Oracle *e);

#endif
