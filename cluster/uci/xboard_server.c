/* SPDX-License-Identifier: MIT */
/* The xboard loop: one line in, its answer out (flushed at once, the GUI waits on it). The game,
 * the evaluation parameters, the table and the search are the core's engine session (engine.h);
 * the time controls are xboard_clock.h, the variant names and the move notation
 * xboard_variant.h. This file keeps what the protocol adds: which side the engine plays (force
 * mode, go, playother), analysis, and the answers.
 *
 * Threads. A search runs in a thread of its own so that `?`, `ping`, `post`, `time` and the
 * other commands that change nothing the search reads are answered while it thinks. Every other
 * command first ends the search and waits for the thread, as the session asks. When the engine
 * thinks about its own move, only `?` (and the end of input) makes it play: any other command
 * that ends the search drops the move (the GUI has gone on: a new game, force mode, a result).
 * A `ping` that arrives while the engine owes a move is answered after the move, as the protocol
 * requires; the search thread sends the move, the result when the move ends the game, then the
 * pongs held back, under one lock. */
#define _POSIX_C_SOURCE 200809L /* getline, strtok_r */

#include "xboard_server.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "command_lines.h"
#include "engine.h"
#include "errmsg.h"
#include "eval.h"
#include "game.h"
#include "notation.h"
#include "position.h"
#include "run_error.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"
#include "version.h"
#include "xboard_clock.h"
#include "xboard_variant.h"

/* Pongs held back while a move is owed; more than this many pings during one search is not a
 * GUI but a flood, and is answered with an error. */
#define PONGS_MAX 64
#define PONG_TEXT 24

typedef struct Xboard {
    FILE *out;
    pthread_mutex_t out_lock; /* the search thread writes too; also guards the owed move */
    Engine *engine;           /* the game, the evaluation options, the table, the search */
    const Variant *variant;   /* of the game; fischerandom is chess960 */
    bool refused;             /* the last setboard was refused: no game until another */
    bool force;               /* the engine plays neither side */
    int engine_side;          /* the side it plays when not in force mode */
    bool analyzing;
    atomic_bool post; /* thinking output; read by the search thread */
    XboardClock clock;

    pthread_t thread;
    bool searching; /* a search thread exists and has not been joined */
    bool playing;   /* it searches the engine's move (not an analysis) */
    bool owed;      /* out_lock: a move is owed (pongs wait for it) */
    bool drop;      /* out_lock: the search ends without playing its move */
    int n_pongs;    /* out_lock */
    char pongs[PONGS_MAX][PONG_TEXT];
    atomic_bool stop;
    EngineGo go;
    /* exclude and include (analysis): while excluding, only the turns of searched are analysed;
     * a new position ends it */
    bool excluding;
    size_t n_searched;
    Turn searched[MAX_MOVES];
} Xboard;

static void reply_locked(Xboard *x, const char *fmt, va_list ap)
{
    vfprintf(x->out, fmt, ap);
    fputc('\n', x->out);
    fflush(x->out);
}

static void reply(Xboard *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply(Xboard *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&x->out_lock);
    reply_locked(x, fmt, ap);
    pthread_mutex_unlock(&x->out_lock);
    va_end(ap);
}

/* The same with out_lock already held. */
static void say(Xboard *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Xboard *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    reply_locked(x, fmt, ap);
    va_end(ap);
}

static const Game *game(const Xboard *x) { return engine_game(x->engine); }

static int side_to_move(const Xboard *x) { return position_side(&game(x)->pos); }

static const Rules SINGLE = { TURNS_SINGLE, EP_CLASSIC };

/* The protocol's result line for a game that has ended, or NULL while it goes on. */
static const char *result_line(const Game *g)
{
    int winner;
    switch (game_status(g, &winner)) {
    case TERM_NONE:
        return NULL;
    case TERM_CHECKMATE:
    case TERM_KING_CAPTURED:
        return winner == WHITE ? "1-0 {White mates}" : "0-1 {Black mates}";
    case TERM_STALEMATE:
        return "1/2-1/2 {Stalemate}";
    case TERM_REPETITION:
        return "1/2-1/2 {Draw by repetition}";
    case TERM_FIFTY_MOVES:
        return "1/2-1/2 {Draw by fifty move rule}";
    case TERM_MATERIAL:
    case TERM_NB:
        break;
    }
    return "1/2-1/2 {Insufficient mating material}";
}

/* ---- the game ------------------------------------------------------------------------------ */

/* The game's turns with t after them (t NULL: without the last `back` turns), set in the
 * session. True when every turn was played. */
static bool replay(Xboard *x, const Turn *t, size_t back, char *err, size_t errlen)
{
    const Game *g = game(x);
    size_t keep = g->n_turns - back, n = keep + (t ? 1 : 0);
    Turn *turns = malloc((n ? n : 1) * sizeof *turns);
    if (!turns) {
        errmsg_set(err, errlen, "out of memory");
        return false;
    }
    if (keep) /* no turns yet: g->turns may be NULL, which memcpy must not get */
        memcpy(turns, g->turns, keep * sizeof *turns);
    if (t)
        turns[keep] = *t;
    Position start = g->start;
    Rules rules = g->rules;
    bool castle960 = g->castle960;
    int played =
        engine_set_position(x->engine, &start, &rules, castle960, turns, (int)n, err, errlen);
    free(turns);
    x->excluding = false;
    if (played >= 0 && played < (int)n)
        errmsg_set(err, errlen, "the move is not legal here");
    return played == (int)n;
}

/* A new game from start in the current variant (the table emptied). */
static void new_game(Xboard *x, const Position *start)
{
    char err[ERRMSG_LEN];
    if (engine_new_game(x->engine, start, &SINGLE, x->variant->castle960, err, sizeof err) != 0)
        reply(x, "Error (%s): new game", err);
    x->refused = false;
    x->excluding = false;
}

static void start_position(Xboard *x)
{
    Setup s;
    Position p;
    setup_start(&s, x->variant);
    position_from_setup(&p, &s);
    new_game(x, &p);
}

/* ---- the search thread --------------------------------------------------------------------- */

/* The moves of a principal variation in xboard notation, from its first. */
static void pv_text(const Xboard *x, const Turn *pv, int n, char *out, size_t outlen)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used + XBOARD_MOVE_MAX + 1 < outlen; i++) {
        char move[XBOARD_MOVE_MAX];
        xboard_move_text(pv[i].m[0], x->variant, move);
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i ? " " : "", move);
    }
}

/* Thinking output: ply, score in centipawns (mates as 100000 + moves), time in centiseconds,
 * nodes, and the line, ending in ? after a fail low and ! after a fail high. */
static void print_thinking(const SearchReport *r, void *ctx)
{
    Xboard *x = ctx;
    if (!atomic_load(&x->post))
        return;
    int score = r->mate > 0 ? 100000 + r->mate : r->mate < 0 ? -100000 + r->mate : r->score;
    char pv[4096];
    pv_text(x, r->pv, r->pv_len, pv, sizeof pv);
    reply(x, "%d %d %" PRId64 " %" PRIu64 " %s%s", r->depth, score, r->ms / 10, r->nodes, pv,
          r->upperbound   ? "?"
          : r->lowerbound ? "!"
                          : "");
}

/* The move found is played into the game (the session is free: the search has returned) and
 * sent, then the result when it ends the game, then the pongs that waited for it. */
static void answer_move(Xboard *x, int searched, const EngineResult *r, const char *search_err)
{
    pthread_mutex_lock(&x->out_lock);
    char err[ERRMSG_LEN];
    if (x->drop) {
        /* the GUI went on without this move */
    } else if (searched != 0) {
        say(x, "Error (the search failed: %s): go", search_err);
    } else if (r->best.n == 0) {
        const char *result = result_line(game(x));
        say(x, "%s", result ? result : "Error (no memory for the search): go");
    } else if (!replay(x, &r->best, 0, err, sizeof err)) {
        say(x, "Error (cannot play the move found: %s): go", err);
    } else {
        char move[XBOARD_MOVE_MAX];
        xboard_move_text(r->best.m[0], x->variant, move);
        say(x, "move %s", move);
        const char *result = result_line(game(x));
        if (result)
            say(x, "%s", result);
    }
    x->owed = false;
    for (int i = 0; i < x->n_pongs; i++)
        say(x, "pong %s", x->pongs[i]);
    x->n_pongs = 0;
    pthread_mutex_unlock(&x->out_lock);
}

static void *search_thread(void *arg)
{
    Xboard *x = arg;
    EngineResult result = { .end = GAME_ON };
    char err[ERRMSG_LEN] = "";
    int searched = engine_search(x->engine, &x->go, &result, err, sizeof err);
    if (x->playing)
        answer_move(x, searched, &result, err);
    else if (searched != 0)
        reply(x, "Error (the analysis failed: %s): analyze", err);
    return NULL;
}

/* Ends a running search and waits for its thread; with play, an owed move is still played
 * (`?`), otherwise dropped. */
static void end_search(Xboard *x, bool play)
{
    if (!x->searching)
        return;
    pthread_mutex_lock(&x->out_lock);
    x->drop = !play;
    pthread_mutex_unlock(&x->out_lock);
    atomic_store(&x->stop, true);
    pthread_join(x->thread, NULL);
    x->searching = false;
}

/* Starts a search of the game's position: the engine's move (play) or an analysis. */
static void start_search(Xboard *x, bool play)
{
    SearchLimits limits;
    if (play) {
        const char *result = result_line(game(x));
        if (result) {
            /* nothing to play: the game is over by rule, which the protocol asks to say */
            reply(x, "%s", result);
            return;
        }
        limits = xboard_clock_limits(&x->clock, side_to_move(x), game(x)->n_turns);
    } else {
        if (x->excluding && x->n_searched == 0)
            return; /* every turn excluded: nothing to analyse */
        limits = search_limits_none();
        limits.infinite = true;
        limits.depth = x->clock.depth;
    }
    x->go = (EngineGo){ .limits = limits, .stop = &x->stop, .report = print_thinking, .ctx = x };
    if (!play && x->excluding) {
        x->go.searchmoves = x->searched;
        x->go.n_searchmoves = x->n_searched;
    }
    x->playing = play;
    pthread_mutex_lock(&x->out_lock);
    x->owed = play;
    x->drop = false;
    pthread_mutex_unlock(&x->out_lock);
    /* cleared before the thread exists: a `?` right after is not lost */
    atomic_store(&x->stop, false);
    if (pthread_create(&x->thread, NULL, search_thread, x) != 0) {
        pthread_mutex_lock(&x->out_lock);
        x->owed = false;
        pthread_mutex_unlock(&x->out_lock);
        reply(x, "Error (cannot start the search thread): %s", play ? "go" : "analyze");
        return;
    }
    x->searching = true;
}

/* After the game changed: the engine thinks when it is its move, an analysis starts again. */
static void resume(Xboard *x)
{
    if (x->refused)
        return;
    if (x->analyzing)
        start_search(x, false);
    else if (!x->force && side_to_move(x) == x->engine_side)
        start_search(x, true);
}

/* ---- commands ------------------------------------------------------------------------------ */

static void cmd_protover(Xboard *x)
{
    char variants[XBOARD_SETUP_MAX];
    xboard_variant_list(variants, sizeof variants);
    reply(x, "feature done=0");
    reply(x,
          "feature myname=\"Carrera %s\" variants=\"%s\" setboard=1 usermove=1 ping=1 "
          "playother=1 sigint=0 sigterm=0 colors=0 time=1 draw=0 reuse=1 analyze=1 "
          "memory=1 smp=1 nps=1 name=0 ics=0 pause=0 exclude=1",
          carrera_version, variants);
    reply(x, "feature option=\"Clear Hash -button\"");
    int count;
    const EvalParamInfo *params = eval_param_list(&count);
    EvalParams current = *engine_eval_params(x->engine);
    for (int i = 0; i < count; i++)
        if (!eval_param_is_shape(&params[i]))
            reply(x, "feature option=\"%s -spin %d %d %d\"", params[i].name,
                  *eval_param_ref(&current, &params[i]), params[i].min, params[i].max);
    SearchParams search = *engine_search_params(x->engine);
    const SearchParamInfo *knobs = search_param_list(&count);
    for (int i = 0; i < count; i++)
        reply(x, "feature option=\"%s -spin %d %d %d\"", knobs[i].name,
              *param_ref(&search, &knobs[i]), knobs[i].min, knobs[i].max);
    reply(x, "feature done=1");
}

/* Whether name is one of the double-move rule sets, which the protocol cannot carry. */
static bool double_move_name(const char *name)
{
    TurnRules t;
    return turn_rules_parse(name, &t) && t != TURNS_SINGLE;
}

static void cmd_variant(Xboard *x, const char *name, const char *line)
{
    const Variant *v = name ? xboard_variant(name) : NULL;
    if (!v) {
        if (name && double_move_name(name))
            reply(x,
                  "Error (double-move rules cannot be played over the xboard protocol, whose "
                  "moves are single movements; use carrera uci): %s",
                  line);
        else
            reply(x, "Error (unsupported variant): %s", line);
        return;
    }
    x->variant = v;
    char setup[XBOARD_SETUP_MAX];
    if (xboard_variant_setup(v, setup, sizeof setup))
        reply(x, "%s", setup);
    start_position(x);
}

static void cmd_new(Xboard *x)
{
    x->variant = variant_by_name("chess");
    x->force = false;
    x->engine_side = BLACK;
    xboard_clock_new_game(&x->clock);
    start_position(x);
}

/* setboard: a refused position leaves no game until the next new, variant or setboard, so that
 * no move is played on a board the GUI does not have. */
static void cmd_setboard(Xboard *x, const char *fen)
{
    Setup s;
    char err[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, x->variant, &SINGLE, fen, err, sizeof err) != 0) {
        x->refused = true;
        reply(x, "tellusererror Illegal position: %s", err);
        return;
    }
    Position p;
    position_from_setup(&p, &s);
    new_game(x, &p);
}

/* A move from the GUI: coordinates as xboard sends them (e2e4, e7e8c, e1g1, O-O in the shuffle
 * variants), and also SAN or king-takes-rook, which the notation reader takes too. */
static void cmd_move(Xboard *x, const char *text)
{
    if (x->refused) {
        reply(x, "Illegal move (no position: the last setboard was refused): %s", text);
        return;
    }
    Move m;
    char err[ERRMSG_LEN];
    Turn t = { { MOVE_NONE, MOVE_NONE }, 1 };
    if (!notation_move_from_san(&game(x)->pos, text, &m, err, sizeof err)) {
        reply(x, "Illegal move: %s", text);
        return;
    }
    t.m[0] = m;
    if (!replay(x, &t, 0, err, sizeof err)) {
        reply(x, "Illegal move (%s): %s", err, text);
        return;
    }
    if (!x->force && !x->analyzing && side_to_move(x) == x->engine_side) {
        start_search(x, true); /* says the result instead when the move ended the game */
        return;
    }
    resume(x);
}

/* undo (n = 1) and remove (n = 2). */
static void cmd_back(Xboard *x, size_t n, const char *line)
{
    char err[ERRMSG_LEN];
    if (x->refused || game(x)->n_turns < n) {
        reply(x, "Error (command not legal now: %s): %s",
              x->refused ? "no position" : "not that many moves played", line);
        return;
    }
    if (!replay(x, NULL, n, err, sizeof err))
        reply(x, "Error (%s): %s", err, line);
    else if (x->analyzing)
        start_search(x, false);
}

static void cmd_go(Xboard *x, bool other)
{
    if (x->refused) {
        reply(x, "Error (command not legal now: no position, the last setboard was refused): %s",
              other ? "playother" : "go");
        return;
    }
    x->force = false;
    x->engine_side = other ? !side_to_move(x) : side_to_move(x);
    if (!other)
        start_search(x, true);
}

/* exclude and include (the protocol's analysis extension): `exclude all` leaves every turn out and
 * `include all` none; `exclude MOVE` and `include MOVE` one. The analysis then restarts. */
static void cmd_exclude(Xboard *x, bool exclude, const char *arg, const char *line)
{
    if (x->refused || !arg) {
        reply(x, "Error (%s): %s",
              x->refused ? "no position" : "exclude and include take a move or all", line);
        return;
    }
    const Position *p = &game(x)->pos;
    if (strcmp(arg, "all") == 0) {
        x->excluding = exclude;
        x->n_searched = 0;
        return;
    }
    Move m;
    char err[ERRMSG_LEN];
    if (!notation_move_from_san(p, arg, &m, err, sizeof err)) {
        reply(x, "Illegal move: %s", arg);
        return;
    }
    if (!x->excluding) {
        if (!exclude)
            return; /* every turn is included already */
        Move all[MAX_MOVES];
        int n = position_legal_moves(p, all);
        for (int i = 0; i < n; i++)
            x->searched[i] = (Turn){ { all[i], MOVE_NONE }, 1 };
        x->n_searched = (size_t)n;
        x->excluding = true;
    }
    const Turn t = { { m, MOVE_NONE }, 1 };
    size_t at = 0;
    while (at < x->n_searched && !turn_same(&x->searched[at], &t))
        at++;
    if (exclude && at < x->n_searched)
        x->searched[at] = x->searched[--x->n_searched];
    else if (!exclude && at == x->n_searched)
        x->searched[x->n_searched++] = t;
}

/* A whole number of at least 1 in text, or -1. */
static long long positive(const char *text)
{
    char *end = "";
    long long v = text && *text >= '0' && *text <= '9' ? strtoll(text, &end, 10) : -1;
    return v >= 1 && !*end ? v : -1;
}

static void cmd_memory(Xboard *x, const char *mb, const char *line)
{
    long long v = positive(mb);
    char err[ERRMSG_LEN];
    if (v < 1) {
        reply(x, "Error (memory takes a number of MiB): %s", line);
        return;
    }
    /* the table is all the memory the engine uses that grows */
    size_t size = v > ENGINE_HASH_MAX_MB ? ENGINE_HASH_MAX_MB : (size_t)v;
    if (engine_set_hash(x->engine, size, err, sizeof err) != 0)
        reply(x, "Error (%s): %s", err, line);
}

/* cores N: the search's threads (more than the search takes are capped, as memory is). */
static void cmd_cores(Xboard *x, const char *n, const char *line)
{
    long long v = positive(n);
    char err[ERRMSG_LEN];
    if (v < 1) {
        reply(x, "Error (cores takes a number of threads): %s", line);
        return;
    }
    int threads = v > SEARCH_THREADS_MAX ? SEARCH_THREADS_MAX : (int)v;
    if (engine_set_threads(x->engine, threads, err, sizeof err) != 0)
        reply(x, "Error (%s): %s", err, line);
}

/* option NAME=VALUE, NAME a button without "=VALUE". */
static void cmd_option(Xboard *x, const char *spec, const char *line)
{
    char name[256];
    const char *eq = strchr(spec, '='), *value = eq ? eq + 1 : "";
    size_t len = eq ? (size_t)(eq - spec) : strlen(spec);
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), spec);
    char err[ERRMSG_LEN];
    if (strcmp(name, "Clear Hash") == 0) {
        if (engine_clear_hash(x->engine, err, sizeof err) != 0)
            reply(x, "Error (%s): %s", err, line);
    } else if (eval_param_find(name)) {
        if (engine_set_eval_param(x->engine, name, value, err, sizeof err) != 0)
            reply(x, "Error (%s): %s", err, line);
    } else if (search_param_find(name)) {
        if (engine_set_search_param(x->engine, name, value, err, sizeof err) != 0)
            reply(x, "Error (%s): %s", err, line);
    } else if (strcmp(name, "TurnRules") == 0) {
        reply(x,
              "Error (double-move rules cannot be played over the xboard protocol, whose moves "
              "are single movements; use carrera uci): %s",
              line);
    } else {
        reply(x, "Error (unknown option): %s", line);
    }
}

static void cmd_ping(Xboard *x, const char *n, const char *line)
{
    if (!n || strlen(n) >= PONG_TEXT) {
        reply(x, "Error (ping takes a number): %s", line);
        return;
    }
    pthread_mutex_lock(&x->out_lock);
    if (!x->owed)
        say(x, "pong %s", n);
    else if (x->n_pongs < PONGS_MAX)
        strcpy(x->pongs[x->n_pongs++], n);
    else
        say(x, "Error (too many pings while thinking): %s", line);
    pthread_mutex_unlock(&x->out_lock);
}

/* A clock command's answer: nothing, or its error. */
static void clock_answer(Xboard *x, int rc, const char *err, const char *line)
{
    if (rc != 0)
        reply(x, "Error (%s): %s", err, line);
}

/* Whether text looks like a move (coordinates or castling), so that a bad one is answered as an
 * illegal move rather than an unknown command. */
static bool looks_like_move(const char *text)
{
    if (strncmp(text, "O-O", 3) == 0 || strncmp(text, "0-0", 3) == 0)
        return true;
    return strlen(text) >= 4 && text[0] >= 'a' && text[0] <= 'z' && text[1] >= '0' &&
           text[1] <= '9' && text[2] >= 'a' && text[2] <= 'z' && text[3] >= '0' && text[3] <= '9';
}

/* Commands answered while a search runs: they change nothing it reads. True when cmd was one. */
static bool handle_during_search(Xboard *x, char **tokens, int n, const char *line)
{
    const char *cmd = tokens[0], *arg = n > 1 ? tokens[1] : NULL;
    char err[ERRMSG_LEN];
    if (strcmp(cmd, "?") == 0) {
        if (x->searching && x->playing)
            end_search(x, true);
    } else if (strcmp(cmd, "ping") == 0) {
        cmd_ping(x, arg, line);
    } else if (strcmp(cmd, "post") == 0 || strcmp(cmd, "nopost") == 0) {
        atomic_store(&x->post, cmd[0] == 'p');
    } else if (strcmp(cmd, "time") == 0 || strcmp(cmd, "otim") == 0) {
        clock_answer(x, xboard_clock_time(&x->clock, cmd[0] == 't', arg, err, sizeof err), err,
                     line);
    } else if (strcmp(cmd, "xboard") == 0 || strcmp(cmd, "accepted") == 0 ||
               strcmp(cmd, "rejected") == 0 || strcmp(cmd, "hard") == 0 ||
               strcmp(cmd, "easy") == 0 || strcmp(cmd, "random") == 0 ||
               strcmp(cmd, "computer") == 0 || strcmp(cmd, "name") == 0 ||
               strcmp(cmd, "rating") == 0 || strcmp(cmd, "ics") == 0 || strcmp(cmd, "draw") == 0 ||
               strcmp(cmd, "hint") == 0 || strcmp(cmd, "bk") == 0 || strcmp(cmd, ".") == 0) {
        /* Acknowledgements and information, pondering (never done), draw offers (declined by
         * silence), hints, book and status requests (optional): nothing to answer. */
    } else {
        return false;
    }
    return true;
}

/* Handles one line; returns false on quit. */
static bool handle(Xboard *x, char *line, char **tokens)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *original = strdup(line);
    if (!original) {
        reply(x, "Error (out of memory): %.40s", line);
        return true;
    }
    int n = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        tokens[n++] = t;
    bool go_on = true;
    const char *cmd = n ? tokens[0] : "", *arg = n > 1 ? tokens[1] : NULL;
    char err[ERRMSG_LEN];
    if (n == 0 || handle_during_search(x, tokens, n, original)) {
        /* blank lines are allowed between commands */
    } else if (strcmp(cmd, "quit") == 0) {
        end_search(x, false);
        go_on = false;
    } else {
        /* everything else changes what a search reads: end it first (an owed move is dropped) */
        end_search(x, false);
        if (strcmp(cmd, "protover") == 0) {
            cmd_protover(x);
        } else if (strcmp(cmd, "new") == 0) {
            cmd_new(x);
            resume(x);
        } else if (strcmp(cmd, "variant") == 0) {
            cmd_variant(x, arg, original);
            resume(x);
        } else if (strcmp(cmd, "setboard") == 0) {
            cmd_setboard(x, n > 1 ? original + (tokens[1] - line) : "");
            resume(x);
        } else if (strcmp(cmd, "force") == 0) {
            x->force = true;
        } else if (strcmp(cmd, "go") == 0 || strcmp(cmd, "playother") == 0) {
            cmd_go(x, cmd[0] == 'p');
        } else if (strcmp(cmd, "usermove") == 0) {
            if (n != 2)
                reply(x, "Error (usermove takes one move): %s", original);
            else
                cmd_move(x, arg);
        } else if (strcmp(cmd, "undo") == 0 || strcmp(cmd, "remove") == 0) {
            cmd_back(x, cmd[0] == 'u' ? 1 : 2, original);
        } else if (strcmp(cmd, "level") == 0) {
            if (n != 4)
                reply(x, "Error (level takes MPS BASE INC): %s", original);
            else
                clock_answer(x,
                             xboard_clock_level(&x->clock, tokens[1], tokens[2], tokens[3],
                                                game(x)->n_turns, err, sizeof err),
                             err, original);
        } else if (strcmp(cmd, "st") == 0) {
            clock_answer(x, xboard_clock_st(&x->clock, arg, err, sizeof err), err, original);
        } else if (strcmp(cmd, "sd") == 0) {
            clock_answer(x, xboard_clock_sd(&x->clock, arg, err, sizeof err), err, original);
        } else if (strcmp(cmd, "nps") == 0) {
            clock_answer(x, xboard_clock_nps(&x->clock, arg, err, sizeof err), err, original);
        } else if (strcmp(cmd, "memory") == 0) {
            cmd_memory(x, arg, original);
        } else if (strcmp(cmd, "cores") == 0) {
            cmd_cores(x, arg, original);
        } else if (strcmp(cmd, "option") == 0) {
            cmd_option(x, n > 1 ? original + (tokens[1] - line) : "", original);
        } else if (strcmp(cmd, "result") == 0) {
            /* the game is over: no move until the next one */
            x->force = true;
        } else if (strcmp(cmd, "analyze") == 0) {
            x->analyzing = true;
            x->force = true;
            resume(x);
        } else if (strcmp(cmd, "exit") == 0) {
            x->analyzing = false;
        } else if (strcmp(cmd, "exclude") == 0 || strcmp(cmd, "include") == 0) {
            cmd_exclude(x, cmd[0] == 'e', arg, original);
            resume(x);
        } else if (n == 1 && looks_like_move(cmd)) {
            cmd_move(x, cmd); /* a move without usermove, from a GUI that refused the feature */
        } else {
            reply(x, "Error (unknown command): %s", original);
        }
    }
    free(original);
    return go_on;
}

static bool handle_line(void *ctx, char *line, char **tokens) { return handle(ctx, line, tokens); }

static void no_memory(void *ctx) { reply(ctx, "Error (out of memory): line too long"); }

int xboard_loop(FILE *in, FILE *out, const EvalParams *params)
{
    Xboard x = { .out = out, .variant = variant_by_name("chess"), .engine_side = BLACK };
    char err[ERRMSG_LEN];
    x.engine = engine_new(ENGINE_HASH_DEFAULT_MB, params, err, sizeof err);
    if (!x.engine)
        return run_error(EXIT_FAILED, "no memory for the search");
    pthread_mutex_init(&x.out_lock, NULL);
    atomic_init(&x.stop, false);
    atomic_init(&x.post, false);
    xboard_clock_init(&x.clock);
    start_position(&x);

    command_lines_read(in, handle_line, no_memory, &x);
    /* at the end of input a move being thought about is still played; an analysis ends */
    if (x.searching) {
        if (!x.playing)
            atomic_store(&x.stop, true);
        pthread_join(x.thread, NULL);
        x.searching = false;
    }
    engine_free(x.engine);
    pthread_mutex_destroy(&x.out_lock);
    return EXIT_OK;
}
