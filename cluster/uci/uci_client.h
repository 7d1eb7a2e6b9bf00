/* SPDX-License-Identifier: MIT */
/* An external UCI engine, as a perft oracle or a match player: started from a command line (no
 * shell), set up for a variant and turn rules, asked `go perft N` for positions given by FEN, or
 * to search a game's position. Anything that answers
 * `go perft` as Stockfish does will do: Stockfish, Fairy-Stockfish, `carrera uci`, a user's own
 * engine. Every failure of the engine (cannot start, exits, goes silent, prints what is not
 * perft output, lacks an option) is an error with a message, never a hang or a crash. */
#ifndef CARRERA_UCI_CLIENT_H
#define CARRERA_UCI_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "divide.h"
#include "engine_link.h"

typedef struct UciClient {
    EngineLink link;
    char id_name[256]; /* from `id name`, or empty */
    int handshake_ms;  /* limit for every answer but `go perft` */
    /* Options the engine listed in its answer to `uci`. */
    bool has_variant, has_chess960, has_turn_rules, has_ep_rule;
    char *variant_vars; /* the `var ...` part of the UCI_Variant combo, or NULL */
    char *turn_rules_vars;
    char asked[1024]; /* the last `go perft` and its position, for messages */
} UciClient;

/* What the engine is set to; NULL or false leaves an option alone. */
typedef struct UciClientSetup {
    const char *uci_variant; /* UCI_Variant, Carrera's name (chess960: chess + UCI_Chess960) */
    bool chess960;           /* UCI_Chess960 true */
    const char *turn_rules;  /* TurnRules */
    const char *ep_rule;     /* EnPassantRule */
} UciClientSetup;

/* Splits command at white space, starts it, sends `uci` and waits up to handshake_ms for
 * `uciok`, noting the options. Returns 0, or -1 with a message in err (the engine is then
 * stopped). */
int uci_client_start(UciClient *e, const char *command, int handshake_ms, char *err, size_t errlen);

/* Sets the options of s (each must be one the engine listed, with a value it offers, unless it
 * is the default one), then `isready`. Returns 0 or -1 with a message. */
int uci_client_setup(UciClient *e, const UciClientSetup *s, char *err, size_t errlen);

/* Sends `position fen FEN [moves MOVES]` and `isready`, waits for `readyok` (an error line
 * before it means the engine rejected the position), then sends `go perft depth` and returns at
 * once, so that the caller can count meanwhile. moves may be NULL. Returns 0 or -1. */
int uci_client_go_perft(UciClient *e, const char *fen, const char *moves, int depth, char *err,
                        size_t errlen);

/* Reads the answer to the last uci_client_go_perft into d: `move: count` lines up to
 * `Nodes searched: N`, skipping empty, `info ...` and `Unit: ...` lines. Fails when the engine
 * exits, prints anything else, lists a total other than the sum of its lines, or has not
 * finished within timeout_ms. Returns 0 or -1 with a message. */
int uci_client_read_divide(UciClient *e, int timeout_ms, Divide *d, char *err, size_t errlen);

/* Sends `setoption name NAME value VALUE` for each of the n options (any name: the engine
 * judges), then `isready`. Returns 0, or -1 with a message when it refuses one or fails. */
int uci_client_set_options(UciClient *e, const char *const *names, const char *const *values, int n,
                           char *err, size_t errlen);

/* `ucinewgame`, then `isready`. Returns 0 or -1 with a message. */
int uci_client_new_game(UciClient *e, char *err, size_t errlen);

/* What the engine said while searching: its move and the last score and node count of its
 * info lines. */
typedef struct UciSearchAnswer {
    char bestmove[64];
    bool has_score;
    bool mate; /* score is a mate distance in moves (negative: mated) */
    int score; /* centipawns, or moves to mate */
    uint64_t nodes;
} UciSearchAnswer;

/* Sends the position line (`position ...`, without newline) and the go line (`go ...`), and reads
 * up to `bestmove` within timeout_ms. Returns ANSWER_OK with *out filled, or the failure with a
 * message in err; after a failure the engine is stopped (uci_client_start it again). */
/* ANSWER_GARBAGE: a line that is neither info nor bestmove, or a bestmove without a move. */
EngineAnswer uci_client_search(UciClient *e, const char *position, const char *go, int timeout_ms,
                               UciSearchAnswer *out, char *err, size_t errlen);

/* Sends `quit` and waits briefly for the engine to exit (killing it if it does not); after a
 * failure kills it at once. Safe to call twice. */
void uci_client_stop(UciClient *e);

#endif
