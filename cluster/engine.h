/* An external UCI engine, as a perft oracle or a match player: started from a command line (no
 * shell), set up for a variant and turn rules, asked `go perft N` for positions given by FEN, or
 * to search a game's position. Anything that answers
 * `go perft` as Stockfish does will do: Stockfish, Fairy-Stockfish, `carrera uci`, a user's own
 * engine. Every failure of the engine (cannot start, exits, goes silent, prints what is not
 * perft output, lacks an option) is an error with a message, never a hang or a crash. */
#ifndef CARRERA_ENGINE_H
#define CARRERA_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "subprocess.h"

/* Longest move (or turn) text kept from a divide line, with the NUL. */
#define DIVIDE_MOVE_MAX 40

/* One `move: count` line of a divide. */
typedef struct DivideLine {
    char move[DIVIDE_MOVE_MAX];
    uint64_t count;
} DivideLine;

/* A whole divide: the lines in the order printed, and their sum. Under double-move rules a
 * position can have tens of thousands of turns, so the list grows as needed. */
typedef struct Divide {
    DivideLine *v;
    size_t n, cap;
    uint64_t total;
} Divide;

/* Appends a line; false when memory runs out. */
bool divide_add(Divide *d, const char *move, uint64_t count);
void divide_clear(Divide *d);
void divide_free(Divide *d);

typedef struct Engine {
    Subprocess proc;
    bool running;
    char command[512]; /* as the user gave it, for messages */
    char id_name[256]; /* from `id name`, or empty */
    int handshake_ms;  /* limit for every answer but `go perft` */
    /* Options the engine listed in its answer to `uci`. */
    bool has_variant, has_chess960, has_turn_rules, has_ep_rule;
    char *variant_vars; /* the `var ...` part of the UCI_Variant combo, or NULL */
    char *turn_rules_vars;
    char asked[1024]; /* the last `go perft` and its position, for messages */
} Engine;

/* What the engine is set to; NULL or false leaves an option alone. */
typedef struct EngineSetup {
    const char *uci_variant; /* UCI_Variant */
    bool chess960;           /* UCI_Chess960 true */
    const char *turn_rules;  /* TurnRules */
    const char *ep_rule;     /* EnPassantRule */
} EngineSetup;

/* Splits command at white space, starts it, sends `uci` and waits up to handshake_ms for
 * `uciok`, noting the options. Returns 0, or -1 with a message in err (the engine is then
 * stopped). */
int engine_start(Engine *e, const char *command, int handshake_ms, char *err, size_t errlen);

/* Sets the options of s (each must be one the engine listed, with a value it offers, unless it
 * is the default one), then `isready`. Returns 0 or -1 with a message. */
int engine_setup(Engine *e, const EngineSetup *s, char *err, size_t errlen);

/* Sends `position fen FEN [moves MOVES]` and `isready`, waits for `readyok` (an error line
 * before it means the engine rejected the position), then sends `go perft depth` and returns at
 * once, so that the caller can count meanwhile. moves may be NULL. Returns 0 or -1. */
int engine_go_perft(Engine *e, const char *fen, const char *moves, int depth, char *err,
                    size_t errlen);

/* Reads the answer to the last engine_go_perft into d: `move: count` lines up to
 * `Nodes searched: N`, skipping empty, `info ...` and `Unit: ...` lines. Fails when the engine
 * exits, prints anything else, lists a total other than the sum of its lines, or has not
 * finished within timeout_ms. Returns 0 or -1 with a message. */
int engine_read_divide(Engine *e, int timeout_ms, Divide *d, char *err, size_t errlen);

/* Sends `setoption name NAME value VALUE` for each of the n options (any name: the engine
 * judges), then `isready`. Returns 0, or -1 with a message when it refuses one or fails. */
int engine_set_options(Engine *e, const char *const *names, const char *const *values, int n,
                       char *err, size_t errlen);

/* `ucinewgame`, then `isready`. Returns 0 or -1 with a message. */
int engine_new_game(Engine *e, char *err, size_t errlen);

/* How a search request ended. */
typedef enum EngineAnswer {
    ANSWER_OK,
    ANSWER_EXITED,  /* the engine exited (or could not be written to) */
    ANSWER_TIMEOUT, /* no bestmove within the time given */
    ANSWER_GARBAGE  /* a line that is neither info nor bestmove, or a bestmove without a move */
} EngineAnswer;

/* What the engine said while searching: its move and the last score and node count of its
 * info lines. */
typedef struct EngineSearch {
    char bestmove[64];
    bool has_score;
    bool mate;          /* score is a mate distance in moves (negative: mated) */
    int score;          /* centipawns, or moves to mate */
    uint64_t nodes;
} EngineSearch;

/* Sends the position line (`position ...`, without newline) and the go line (`go ...`), and reads
 * up to `bestmove` within timeout_ms. Returns ANSWER_OK with *out filled, or the failure with a
 * message in err; after a failure the engine is stopped (engine_start it again). */
EngineAnswer engine_search(Engine *e, const char *position, const char *go, int timeout_ms,
                           EngineSearch *out, char *err, size_t errlen);

/* Sends `quit` and waits briefly for the engine to exit (killing it if it does not); after a
 * failure kills it at once. Safe to call twice. */
void engine_stop(Engine *e);

#endif
