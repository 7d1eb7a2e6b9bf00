/* SPDX-License-Identifier: MIT */
/* An external engine that speaks the xboard protocol (CECP, H.G. Muller's engine-intf.html),
 * as a match player: Fairy-Max, Sjaak II, `carrera xboard`. The engine is started over pipes
 * (engine_link.h), its features negotiated (`protover 2`; an engine that sends none is taken at
 * protocol version 1's defaults), every game's start position set up with `setboard` or, for
 * engines without it, with the `edit` commands, kept in force mode between its searches, and
 * synchronised with `ping` before each search. Every failure (cannot start, exits, goes silent,
 * refuses a command, prints what the protocol does not allow) is an error with a message, never
 * a hang or a crash. The parsers below are public so that the tests can feed them bad input. */
#ifndef CARRERA_XBOARD_CLIENT_H
#define CARRERA_XBOARD_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine_link.h"
#include "game.h"
#include "setup.h"

#define XBOARD_NAME_MAX     128
#define XBOARD_VARIANTS_MAX 4096
#define XBOARD_OPTIONS_MAX  64
#define XBOARD_OPTION_NAME  64

/* What the engine announced with `feature` (protocol version 1's defaults where it did not). */
typedef struct XboardFeatures {
    bool any; /* it sent a feature line: protocol version 2 */
    bool setboard, ping, usermove, memory, smp, nps;
    char myname[XBOARD_NAME_MAX];
    char variants[XBOARD_VARIANTS_MAX]; /* comma-separated; empty: normal chess only */
    char options[XBOARD_OPTIONS_MAX][XBOARD_OPTION_NAME]; /* the names of its option= features */
    int n_options;
} XboardFeatures;

/* What a feature line said about the negotiation's end. */
typedef enum XboardFeatureEnd {
    XBOARD_FEATURES_MORE, /* no done=: more may follow */
    XBOARD_FEATURES_WAIT, /* done=0: the engine needs time, wait for done=1 */
    XBOARD_FEATURES_DONE, /* done=1 */
    XBOARD_FEATURES_BAD   /* not a feature line the protocol allows (err says why) */
} XboardFeatureEnd;

/* Reads one `feature NAME=VALUE ...` line into f (values in double quotes may hold blanks; an
 * option= value's name is the text before its " -type"). Returns how it ended the negotiation,
 * or XBOARD_FEATURES_BAD with a message (no `feature` word, a pair without '=', an open quote). */
XboardFeatureEnd xboard_features_read(XboardFeatures *f, const char *line, char *err,
                                      size_t errlen);

/* Whether the engine offers the variant (by its xboard name: normal chess is always offered). */
bool xboard_features_variant(const XboardFeatures *f, const char *name);

/* Whether the engine declared an option of this name. */
bool xboard_features_option(const XboardFeatures *f, const char *name);

/* The move text of an engine's line "move MOVE" (also protocol version 1's "My move is: MOVE"):
 * true with the text in move, false for any other line or a move longer than len - 1. */
bool xboard_move_line(const char *line, char *move, size_t len);

/* The turn a move text names in g's position: coordinates (e2e4, e7e8q, 10x8 promotions such as
 * e7e8a and e7e8c), castling as the king's move (e1g1, f1i1), king takes rook, or O-O / O-O-O.
 * False with a message for an illegal or unreadable move, or under double-move rules. */
bool xboard_parse_move(const Game *g, const char *text, Turn *out, char *err, size_t errlen);

/* The search output of a thinking line "PLY SCORE TIME NODES PV": score in centipawns (mates as
 * 100000 + moves, negative when mated), nodes searched. False for any other line. */
typedef struct XboardThinking {
    int ply;
    int score;
    uint64_t nodes;
} XboardThinking;
bool xboard_thinking_line(const char *line, XboardThinking *out);

/* The commands that set s up with `edit` on an engine that has just started the game of s's
 * variant in force mode (the standard array, White to move): a2a3 first when Black is to move
 * (edit keeps the side to move), then edit, #, White's pieces, c, Black's pieces and the final
 * dot, each on its line. The protocol cannot say which king or rook has moved nor where en
 * passant is possible: an engine assumes the castling rights of every king and rook on its start
 * square, so a position whose rights differ from that, or with an en passant square, or with a
 * castling right in a shuffle variant, is refused with a message (the engine needs setboard).
 * Returns 0, or -1 with a message in err. */
int xboard_edit_commands(const Setup *s, char *out, size_t outlen, char *err, size_t errlen);

/* Whether edit can set s up (the checks of xboard_edit_commands, without writing anything):
 * 0, or -1 with the reason in err. */
int xboard_edit_can_say(const Setup *s, char *err, size_t errlen);

/* The command that sets s up on an engine with setboard: `setboard FEN` (castling rights as
 * rook files in the shuffle variants), with its newline. */
void xboard_setboard_command(const Setup *s, char *out, size_t outlen);

typedef struct XboardClient {
    EngineLink link;
    XboardFeatures features;
    int handshake_ms; /* limit for every answer but a search's move */
    unsigned pings;   /* the number of the last ping */
} XboardClient;

/* Splits command at white space, starts it, sends `xboard` and `protover 2` and reads the
 * features until done=1 (at most handshake_ms after a done=0; otherwise the protocol's short wait
 * after the last feature line, or for the first), then accepts them. Returns 0, or -1 with a
 * message in err (the engine is then stopped). */
int xboard_client_start(XboardClient *e, const char *command, int handshake_ms, char *err,
                        size_t errlen);

/* Sends text (whole lines) to the engine. Returns 0, or -1 with a message when it has gone (it is
 * then stopped). */
int xboard_client_send(XboardClient *e, const char *text, char *err, size_t errlen);

/* Sends `ping N` and waits up to handshake_ms for `pong N` (an engine without ping=1 is not
 * waited for); what names the commands sent since the last one, for messages. Returns ANSWER_OK,
 * or with a message ANSWER_EXITED, ANSWER_TIMEOUT, or ANSWER_GARBAGE when the engine answered
 * Error or Illegal move before the pong (the engine is then stopped). */
EngineAnswer xboard_client_sync(XboardClient *e, const char *what, char *err, size_t errlen);

/* What the engine said while searching: its move and its last thinking line. */
typedef struct XboardSearchAnswer {
    char move[64];
    bool has_score;
    XboardThinking last;
} XboardSearchAnswer;

/* Sends `go`, reads up to the engine's move within timeout_ms, then sends `force` so that the
 * engine waits in force mode for the next question. Returns ANSWER_OK with *out filled, or the
 * failure with a message in err (ANSWER_GARBAGE: it refused a command, resigned or claimed a
 * result, or sent a move line without a move); after a failure the engine is stopped. */
EngineAnswer xboard_client_search(XboardClient *e, int timeout_ms, XboardSearchAnswer *out,
                                  char *err, size_t errlen);

/* Sends `quit` and waits briefly for the engine to exit (killing it if it does not); after a
 * failure kills it at once. Safe to call twice. */
void xboard_client_stop(XboardClient *e);

#endif
