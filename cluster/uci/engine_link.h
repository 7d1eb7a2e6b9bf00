/* SPDX-License-Identifier: MIT */
/* An external engine's process as the engine clients drive it, whatever it speaks (UCI through
 * uci_client.h, the xboard protocol through xboard_client.h): started from a command line
 * without a shell, read line by line up to a deadline, and ended politely after a command that
 * asks it to quit, or at once after a failure. */
#ifndef CARRERA_ENGINE_LINK_H
#define CARRERA_ENGINE_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "subprocess.h"

typedef struct EngineLink {
    Subprocess proc;
    bool running;
    char command[512]; /* as the user gave it, for messages */
} EngineLink;

/* How a question to the engine ended. */
typedef enum EngineAnswer {
    ANSWER_OK,
    ANSWER_EXITED,  /* the engine exited (or could not be written to) */
    ANSWER_TIMEOUT, /* no answer within the time given */
    ANSWER_GARBAGE  /* an answer the protocol does not allow there */
} EngineAnswer;

/* Splits command at white space and starts it; every write may then wait send_ms. Returns 0,
 * or -1 with a message in err. */
int engine_link_start(EngineLink *l, const char *command, int send_ms, char *err, size_t errlen);

/* The engine's next line without trailing white space, waiting until deadline (monotonic_ms()
 * time) at most: 1 for a line, 0 at the end of its output, -1 when the deadline passed. */
int engine_link_read(EngineLink *l, int64_t deadline, char *line, size_t len);

/* The same, ending the engine when no line comes: ANSWER_OK with the line; ANSWER_EXITED when its
 * output ended (it is reaped; err says "the engine exited (HOW) WHEN"); ANSWER_TIMEOUT when the
 * deadline passed (it is killed; err says "no WHAT within S s WHEN", S being limit_ms). */
EngineAnswer engine_link_next(EngineLink *l, int64_t deadline, char *line, size_t len,
                              const char *what, int limit_ms, const char *when, char *err,
                              size_t errlen);

/* Kills the engine at once (after a failure its state is unknown). Safe when it has ended. */
void engine_link_kill(EngineLink *l);

/* The engine's output ended or it could not be written to: reaps it and says how it ended in
 * end ("exit status 1", "killed by signal 11, Segmentation fault"). */
void engine_link_gone(EngineLink *l, char *end, size_t endlen);

/* Sends quit (the protocol's command, with its newline) and waits briefly for the engine to
 * exit, killing it if it does not. Safe when it has ended. */
void engine_link_quit(EngineLink *l, const char *quit);

/* Milliseconds as seconds, for messages. */
static inline double engine_link_seconds(int ms) { return ms / 1000.0; }

#endif
