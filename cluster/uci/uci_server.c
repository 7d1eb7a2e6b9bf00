/* SPDX-License-Identifier: MIT */
/* The UCI loop: one line in, its answer out (flushed at once, the peer waits on it). Everything
 * the engine knows (the game, the evaluation parameters, the table, the search) is the core's
 * engine session (engine.h); this file only speaks UCI to it. The search runs in a thread of its
 * own so that `stop`, `isready` and `quit` are answered while it thinks; every other command that
 * would change what it searches first stops it and waits for the thread, as the session asks.
 *
 * Double-move turns: UCI has no notation for a turn of two movements. Carrera writes and reads
 * such a turn as its movements in UCI notation joined by a comma ("e2e4,g1f3"; '/' is read too),
 * in `bestmove`, in `info ... pv` and in `position ... moves`. Single-move rule sets stay plain
 * UCI. */
#define _POSIX_C_SOURCE 200809L /* getline, strcasecmp, nanosleep, strtok_r */

#include "uci_server.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "command_lines.h"
#include "divide.h"
#include "engine.h"
#include "errmsg.h"
#include "eval.h"
#include "game.h"
#include "move.h"
#include "position.h"
#include "run_error.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"
#include "version.h"

/* The most turns `go searchmoves` takes (more than any position of single-move chess has). */
#define UCI_SEARCHMOVES_MAX 512

typedef struct Uci {
    FILE *out;
    pthread_mutex_t out_lock; /* the search thread writes info and bestmove lines too */
    const Variant *variant;   /* UCI_Variant */
    bool chess960;            /* UCI_Chess960 */
    Rules turn_rules;         /* TurnRules, EnPassantRule */
    Engine *engine;           /* the game, the evaluation options, Hash, Threads, the search */
    int multipv;              /* MultiPV: the best root turns each search reports */
    int64_t overhead_ms;      /* Move Overhead: kept free on the clock for each reply */
    pthread_t thread;
    bool searching; /* a search thread exists and has not been joined */
    bool infinite;  /* it may print bestmove only after `stop` */
    atomic_bool stop;
    EngineGo go;                           /* what the search thread searches with */
    Turn searchmoves[UCI_SEARCHMOVES_MAX]; /* go searchmoves: the root turns to search */
    size_t n_searchmoves;
} Uci;

static void reply(Uci *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply(Uci *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&u->out_lock);
    vfprintf(u->out, fmt, ap);
    fputc('\n', u->out);
    fflush(u->out);
    pthread_mutex_unlock(&u->out_lock);
    va_end(ap);
}

/* The rules positions are read under: with UCI_Chess960 the chess variant becomes chess960,
 * whose castling covers the standard array too and whose FEN reader takes X-FEN/Shredder. */
static const Variant *rules(const Uci *u)
{
    if (u->chess960 && strcmp(u->variant->name, "chess") == 0) {
        const Variant *v = variant_by_name("chess960");
        if (v)
            return v;
    }
    return u->variant;
}

/* Castling text is king-takes-rook in Chess960 mode and always for the random-array variants. */
static bool castle960(const Uci *u) { return u->chess960 || u->variant->castle960; }

/* The game position of the engine session (read by the search thread too: the session allows
 * reading it during a search). */
static const Position *current(const Uci *u) { return &engine_game(u->engine)->pos; }

/* The game back at the start of the variant, without turns; with clear, a new game (the table
 * and the move-ordering statistics emptied too). The old game stays when memory runs out. */
static void reset_position(Uci *u, bool clear)
{
    Setup s;
    Position p;
    char err[ERRMSG_LEN];
    setup_start(&s, rules(u));
    position_from_setup(&p, &s);
    if ((clear ? engine_new_game(u->engine, &p, &u->turn_rules, castle960(u), err, sizeof err)
               : engine_set_position(u->engine, &p, &u->turn_rules, castle960(u), NULL, 0, err,
                                     sizeof err)) < 0)
        reply(u, "info string error: %s", err);
}

/* The rules and castling text of the options, for the game as it stands. */
static void update_rules(Uci *u)
{
    char err[ERRMSG_LEN];
    if (engine_set_rules(u->engine, &u->turn_rules, castle960(u), err, sizeof err) != 0)
        reply(u, "info string error: %s", err);
}

/* Joins tokens[from..to) with single spaces into out. */
static void join(char **tokens, int from, int to, char *out, size_t outlen)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = from; i < to && used < outlen; i++)
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i > from ? " " : "", tokens[i]);
}

/* A turn as UCI text: the movements joined by ','. */
static void turn_text(const Uci *u, const Turn *t, char out[TURN_TEXT_MAX])
{
    turn_to_uci(t, current(u)->variant, castle960(u), out);
    for (char *c = out; *c; c++)
        if (*c == '/')
            *c = ',';
}

/* ---- the search thread --------------------------------------------------------------------- */

static void print_info(const SearchReport *r, void *ctx)
{
    Uci *u = ctx;
    char line[8192], turn[TURN_TEXT_MAX];
    size_t used = (size_t)snprintf(line, sizeof line, "info depth %d seldepth %d multipv %d",
                                   r->depth, r->seldepth, r->multipv);
    if (r->mate)
        used += (size_t)snprintf(line + used, sizeof line - used, " score mate %d", r->mate);
    else
        used += (size_t)snprintf(line + used, sizeof line - used, " score cp %d", r->score);
    if (r->lowerbound || r->upperbound)
        used += (size_t)snprintf(line + used, sizeof line - used, " %s",
                                 r->lowerbound ? "lowerbound" : "upperbound");
    uint64_t nps = r->ms > 0 ? r->nodes * 1000 / (uint64_t)r->ms : r->nodes * 1000;
    used += (size_t)snprintf(line + used, sizeof line - used,
                             " nodes %" PRIu64 " nps %" PRIu64 " hashfull %d time %" PRId64 " pv",
                             r->nodes, nps, r->hashfull, r->ms);
    for (int i = 0; i < r->pv_len && used + TURN_TEXT_MAX + 2 < sizeof line; i++) {
        turn_text(u, &r->pv[i], turn);
        used += (size_t)snprintf(line + used, sizeof line - used, " %s", turn);
    }
    reply(u, "%s", line);
}

static void *search_thread(void *arg)
{
    Uci *u = arg;
    EngineResult result;
    char err[ERRMSG_LEN];
    if (engine_search(u->engine, &u->go, &result, err, sizeof err) != 0) {
        reply(u, "info string error: %s", err);
        result = (EngineResult){ .end = GAME_ON };
    }
    /* `go infinite` must not answer before `stop`, even when the search has nothing left */
    while (u->infinite && !atomic_load(&u->stop)) {
        struct timespec pause = { 0, 2000000 };
        nanosleep(&pause, NULL);
    }
    if (result.best.n == 0) {
        reply(u, "info depth 0 score %s", result.end == GAME_STALEMATE ? "cp 0" : "mate 0");
        reply(u, "bestmove 0000");
    } else {
        char text[TURN_TEXT_MAX];
        turn_text(u, &result.best, text);
        reply(u, "bestmove %s", text);
    }
    return NULL;
}

/* Ends a running search (bestmove has been printed when this returns). */
static void stop_search(Uci *u)
{
    if (!u->searching)
        return;
    atomic_store(&u->stop, true);
    pthread_join(u->thread, NULL);
    u->searching = false;
}

/* Waits for a running search to end by its own limits (end of input). */
static void finish_search(Uci *u)
{
    if (!u->searching)
        return;
    if (u->infinite)
        atomic_store(&u->stop, true);
    pthread_join(u->thread, NULL);
    u->searching = false;
}

/* ---- commands ------------------------------------------------------------------------------ */

/* Whether w is one of the words of `go` (where a list of turns after searchmoves ends). */
static bool go_word(const char *w)
{
    static const char *const words[] = { "searchmoves", "ponder",    "wtime", "btime", "winc",
                                         "binc",        "movestogo", "depth", "nodes", "mate",
                                         "movetime",    "infinite",  "perft" };
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (strcmp(w, words[k]) == 0)
            return true;
    return false;
}

/* Reads the turns of `go searchmoves` from tokens[from] up to the next word of go into
 * u->searchmoves, each as `position ... moves` reads it; a token that is not a legal turn of the
 * current position is reported and left out, and a list with no legal turn restricts nothing.
 * Returns the index of the first token after the list. */
static int parse_searchmoves(Uci *u, char **tokens, int from, int n)
{
    const Game *g = engine_game(u->engine);
    int i = from;
    for (; i < n && !go_word(tokens[i]); i++) {
        Turn t;
        if (!game_parse_turn(g, tokens[i], &t))
            reply(u, "info string error: searchmoves: '%s' is not a legal %s here: left out",
                  tokens[i], u->turn_rules.turns == TURNS_SINGLE ? "move" : "turn");
        else if (u->n_searchmoves == UCI_SEARCHMOVES_MAX)
            reply(u, "info string error: searchmoves: more than %d turns: '%s' left out",
                  UCI_SEARCHMOVES_MAX, tokens[i]);
        else
            u->searchmoves[u->n_searchmoves++] = t;
    }
    if (u->n_searchmoves == 0)
        reply(u, "info string error: searchmoves without a legal %s: searching every one",
              u->turn_rules.turns == TURNS_SINGLE ? "move" : "turn");
    return i;
}

static void cmd_uci(Uci *u)
{
    reply(u, "id name Carrera %s", carrera_version);
    reply(u, "id author the Carrera developers");
    int count;
    const Variant *const *all = variant_all(&count);
    char line[1024];
    size_t used =
        (size_t)snprintf(line, sizeof line, "option name UCI_Variant type combo default chess");
    for (int i = 0; i < count && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, " var %s", all[i]->name);
    reply(u, "%s", line);
    reply(u, "option name UCI_Chess960 type check default false");
    used = (size_t)snprintf(line, sizeof line, "option name TurnRules type combo default single");
    for (int i = 0; i < TURNS_NB && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, " var %s",
                                 turn_rules_name((TurnRules)i));
    reply(u, "%s", line);
    reply(u, "option name EnPassantRule type combo default classic var classic var modern");
    reply(u, "option name Hash type spin default %d min 1 max %d", ENGINE_HASH_DEFAULT_MB,
          ENGINE_HASH_MAX_MB);
    reply(u, "option name Clear Hash type button");
    reply(u, "option name Threads type spin default 1 min 1 max %d", SEARCH_THREADS_MAX);
    reply(u, "option name MultiPV type spin default 1 min 1 max %d", SEARCH_MULTIPV_MAX);
    reply(u, "option name Move Overhead type spin default %d min 0 max %d",
          SEARCH_OVERHEAD_DEFAULT_MS, SEARCH_OVERHEAD_MAX_MS);
    EvalParams defaults;
    eval_defaults(&defaults);
    const EvalParamInfo *params = eval_param_list(&count);
    for (int i = 0; i < count; i++)
        if (!eval_param_is_shape(&params[i]))
            reply(u, "option name %s type spin default %d min %d max %d", params[i].name,
                  *eval_param_ref(&defaults, &params[i]), params[i].min, params[i].max);
    SearchParams search;
    search_params_default(&search);
    const SearchParamInfo *knobs = search_param_list(&count);
    for (int i = 0; i < count; i++)
        reply(u, "option name %s type spin default %d min %d max %d", knobs[i].name,
              *param_ref(&search, &knobs[i]), knobs[i].min, knobs[i].max);
    reply(u, "uciok");
}

/* Strict decimal parse of a non-negative number; false on anything else. */
static bool parse_count(const char *text, long long max, long long *out)
{
    char *end;
    if (text[0] < '0' || text[0] > '9')
        return false;
    long long v = strtoll(text, &end, 10);
    if (*end != '\0' || v < 0 || v > max)
        return false;
    *out = v;
    return true;
}

static void cmd_setoption(Uci *u, char **tokens, int n)
{
    int value_at = n;
    for (int i = 2; i < n; i++)
        if (strcmp(tokens[i], "value") == 0) {
            value_at = i;
            break;
        }
    if (n < 3 || strcmp(tokens[1], "name") != 0 || value_at == 2) {
        reply(u, "info string error: expected 'setoption name NAME [value VALUE]'");
        return;
    }
    char name[256], value[256], err[256];
    join(tokens, 2, value_at, name, sizeof name);
    join(tokens, value_at + 1, n, value, sizeof value);

    if (strcasecmp(name, "UCI_Variant") == 0) {
        const Variant *v = variant_by_name(value);
        if (!v) {
            reply(u, "info string error: unknown variant '%s'", value);
            return;
        }
        u->variant = v;
        /* The old position may not even fit the new board. */
        reset_position(u, false);
    } else if (strcasecmp(name, "TurnRules") == 0) {
        if (!turn_rules_parse(value, &u->turn_rules.turns))
            reply(u, "info string error: unknown turn rules '%s'", value);
        else
            update_rules(u);
    } else if (strcasecmp(name, "EnPassantRule") == 0) {
        if (!ep_rule_parse(value, &u->turn_rules.ep))
            reply(u, "info string error: EnPassantRule takes classic or modern, not '%s'", value);
        else
            update_rules(u);
    } else if (strcasecmp(name, "UCI_Chess960") == 0) {
        if (strcmp(value, "true") == 0)
            u->chess960 = true;
        else if (strcmp(value, "false") == 0)
            u->chess960 = false;
        else
            reply(u, "info string error: UCI_Chess960 takes true or false, not '%s'", value);
        update_rules(u);
    } else if (strcasecmp(name, "Hash") == 0) {
        long long mb;
        if (!parse_count(value, ENGINE_HASH_MAX_MB, &mb) || mb < 1)
            reply(u, "info string error: Hash takes 1 to %d (MiB), not '%s'", ENGINE_HASH_MAX_MB,
                  value);
        else if (engine_set_hash(u->engine, (size_t)mb, err, sizeof err) != 0)
            reply(u, "info string error: %s", err);
    } else if (strcasecmp(name, "Threads") == 0) {
        long long n;
        if (!parse_count(value, SEARCH_THREADS_MAX, &n) || n < 1)
            reply(u, "info string error: Threads takes 1 to %d, not '%s'", SEARCH_THREADS_MAX,
                  value);
        else if (engine_set_threads(u->engine, (int)n, err, sizeof err) != 0)
            reply(u, "info string error: %s", err);
    } else if (strcasecmp(name, "MultiPV") == 0) {
        long long n;
        if (!parse_count(value, SEARCH_MULTIPV_MAX, &n) || n < 1)
            reply(u, "info string error: MultiPV takes 1 to %d, not '%s'", SEARCH_MULTIPV_MAX,
                  value);
        else
            u->multipv = (int)n;
    } else if (strcasecmp(name, "Move Overhead") == 0) {
        long long ms;
        if (!parse_count(value, SEARCH_OVERHEAD_MAX_MS, &ms))
            reply(u, "info string error: Move Overhead takes 0 to %d (ms), not '%s'",
                  SEARCH_OVERHEAD_MAX_MS, value);
        else
            u->overhead_ms = ms;
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        if (engine_clear_hash(u->engine, err, sizeof err) != 0)
            reply(u, "info string error: %s", err);
    } else if (eval_param_find(name)) {
        if (engine_set_eval_param(u->engine, name, value, err, sizeof err) != 0)
            reply(u, "info string error: %s", err);
    } else if (search_param_find(name)) {
        if (engine_set_search_param(u->engine, name, value, err, sizeof err) != 0)
            reply(u, "info string error: %s", err);
    } else {
        reply(u, "info string error: unknown option '%s'", name);
    }
}

/* A bad FEN leaves the current position alone. A bad move keeps the position reached just
 * before it and ignores the moves after it (they were meant for another position). */
static void cmd_position(Uci *u, char **tokens, int n)
{
    int moves_at = n;
    for (int i = 1; i < n; i++)
        if (strcmp(tokens[i], "moves") == 0) {
            moves_at = i;
            break;
        }
    Setup s;
    if (n >= 2 && strcmp(tokens[1], "startpos") == 0 && moves_at == 2) {
        setup_start(&s, rules(u));
    } else if (n >= 2 && strcmp(tokens[1], "fen") == 0) {
        char fen[512], err[256];
        join(tokens, 2, moves_at, fen, sizeof fen);
        if (setup_from_fen_rules(&s, rules(u), &u->turn_rules, fen, err, sizeof err) != 0) {
            reply(u, "info string error: bad FEN: %s", err);
            return;
        }
    } else {
        reply(u, "info string error: expected 'position (startpos | fen FEN) [moves ...]'");
        return;
    }

    Position p;
    position_from_setup(&p, &s);
    char err[ERRMSG_LEN];
    int first = moves_at + 1, count = n > first ? n - first : 0;
    int played =
        engine_set_position_text(u->engine, &p, &u->turn_rules, castle960(u),
                                 (const char *const *)tokens + first, count, err, sizeof err);
    if (played < 0) {
        reply(u, "info string error: %s", err);
    } else if (played < count) {
        int i = first + played;
        reply(u, "info string error: illegal %s '%s' (%d): ignoring it and the %d after it",
              u->turn_rules.turns == TURNS_SINGLE ? "move" : "turn", tokens[i], i - moves_at,
              n - i - 1);
    }
}

static void go_perft(Uci *u, char **tokens, int n)
{
    if (n != 3) {
        reply(u, "info string error: expected 'go perft N'");
        return;
    }
    int depth;
    char err[ERRMSG_LEN];
    if (divide_parse_depth(tokens[2], &depth, err, sizeof err) != 0) {
        reply(u, "info string error: %s", err);
        return;
    }
    /* One thread: a GUI comparing perft expects the engine not to take every core. */
    PerftRunOptions run = { 1, 0, true };
    pthread_mutex_lock(&u->out_lock);
    divide_print(u->out, current(u), &u->turn_rules, UNIT_TURN, depth, true, castle960(u), &run);
    pthread_mutex_unlock(&u->out_lock);
}

/* Reads the limits of `go`; an unknown word or a bad number is reported and skipped, and the
 * search still runs (a GUI waits for its bestmove). */
static SearchLimits parse_go(Uci *u, char **tokens, int n, bool *infinite)
{
    SearchLimits l = search_limits_none();
    l.overhead_ms = u->overhead_ms;
    *infinite = false;
    u->n_searchmoves = 0;
    for (int i = 1; i < n; i++) {
        const char *w = tokens[i];
        if (strcmp(w, "infinite") == 0) {
            l.infinite = *infinite = true;
            continue;
        }
        if (strcmp(w, "ponder") == 0) {
            reply(u, "info string pondering is not supported: searching normally");
            continue;
        }
        if (strcmp(w, "searchmoves") == 0) {
            i = parse_searchmoves(u, tokens, i + 1, n) - 1;
            continue;
        }
        static const char *const numeric[] = { "depth", "nodes", "movetime",  "wtime", "btime",
                                               "winc",  "binc",  "movestogo", "mate" };
        int which = -1;
        for (int k = 0; k < (int)(sizeof numeric / sizeof *numeric); k++)
            if (strcmp(w, numeric[k]) == 0)
                which = k;
        if (which < 0) {
            reply(u, "info string error: unknown go parameter '%s' ignored", w);
            continue;
        }
        long long v;
        /* clocks may be negative after a GUI's lag: a spent clock */
        bool clock = which >= 3 && which <= 6;
        const char *text = i + 1 < n ? tokens[i + 1] : "";
        bool negative = clock && text[0] == '-';
        if (!parse_count(negative ? text + 1 : text, INT64_MAX / 2, &v)) {
            reply(u, "info string error: go %s needs a number, not '%s'", w, text);
            continue;
        }
        i++;
        if (negative)
            v = 0;
        switch (which) {
        case 0:
            l.depth = v > MAX_PLY - 1 ? MAX_PLY - 1 : (int)v;
            break;
        case 1:
            l.nodes = (uint64_t)v;
            break;
        case 2:
            l.movetime_ms = v;
            break;
        case 3:
            l.time_ms[WHITE] = v;
            break;
        case 4:
            l.time_ms[BLACK] = v;
            break;
        case 5:
            l.inc_ms[WHITE] = v;
            break;
        case 6:
            l.inc_ms[BLACK] = v;
            break;
        case 7:
            l.movestogo = v > 1000 ? 1000 : (int)v;
            break;
        case 8:
            l.depth = v > (MAX_PLY - 1) / 2 ? MAX_PLY - 1 : (int)(2 * v);
            break;
        }
    }
    return l;
}

static void cmd_go(Uci *u, char **tokens, int n)
{
    if (n >= 2 && strcmp(tokens[1], "perft") == 0) {
        go_perft(u, tokens, n);
        return;
    }
    bool infinite;
    SearchLimits limits = parse_go(u, tokens, n, &infinite);
    u->go = (EngineGo){ .limits = limits,
                        .stop = &u->stop,
                        .multipv = u->multipv,
                        .searchmoves = u->searchmoves,
                        .n_searchmoves = u->n_searchmoves,
                        .report = print_info,
                        .ctx = u };
    u->infinite = infinite;
    /* cleared before the thread exists: a `stop` right after `go` is not lost */
    atomic_store(&u->stop, false);
    if (pthread_create(&u->thread, NULL, search_thread, u) != 0) {
        reply(u, "info string error: cannot start the search thread");
        reply(u, "bestmove 0000");
        return;
    }
    u->searching = true;
}

static void cmd_d(Uci *u)
{
    Setup s;
    char fen[FEN_MAX];
    position_to_setup(current(u), &s);
    setup_to_fen(&s, current(u)->castling_text, fen, sizeof fen);
    reply(u, "Fen: %s", fen);
}

/* Splits line in place at white space; tokens must have room for strlen(line) / 2 + 1. */
static int tokenize(char *line, char **tokens)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t\r\n", &save); t;
         t = strtok_r(NULL, " \t\r\n", &save))
        tokens[n++] = t;
    return n;
}

/* Handles one line; returns false on quit. */
static bool handle(Uci *u, char *line, char **tokens)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *original = strdup(line);
    int n = tokenize(line, tokens);
    bool go_on = true;
    if (n == 0) {
        /* Blank lines are allowed between commands. */
    } else if (strcmp(tokens[0], "isready") == 0) {
        reply(u, "readyok");
    } else if (strcmp(tokens[0], "stop") == 0) {
        stop_search(u);
    } else if (strcmp(tokens[0], "debug") == 0) {
        /* Carrera has no debugging output to switch on or off */
        if (n != 2 || (strcmp(tokens[1], "on") != 0 && strcmp(tokens[1], "off") != 0))
            reply(u, "info string error: expected 'debug on' or 'debug off'");
    } else if (strcmp(tokens[0], "ponderhit") == 0) {
        /* never pondering: nothing to switch */
    } else if (strcmp(tokens[0], "quit") == 0) {
        stop_search(u);
        go_on = false;
    } else {
        /* everything else changes or reads what the search uses: end the search first */
        stop_search(u);
        if (strcmp(tokens[0], "uci") == 0) {
            cmd_uci(u);
        } else if (strcmp(tokens[0], "ucinewgame") == 0) {
            reset_position(u, true);
        } else if (strcmp(tokens[0], "setoption") == 0) {
            cmd_setoption(u, tokens, n);
        } else if (strcmp(tokens[0], "position") == 0) {
            cmd_position(u, tokens, n);
        } else if (strcmp(tokens[0], "go") == 0) {
            cmd_go(u, tokens, n);
        } else if (strcmp(tokens[0], "d") == 0) {
            cmd_d(u);
        } else {
            reply(u, "info string unknown command: %s", original ? original : tokens[0]);
        }
    }
    free(original);
    return go_on;
}

static bool handle_line(void *ctx, char *line, char **tokens) { return handle(ctx, line, tokens); }

static void no_memory(void *ctx) { reply(ctx, "info string error: line too long, out of memory"); }

int uci_loop(FILE *in, FILE *out, const EvalParams *params)
{
    Uci u = { .out = out,
              .variant = variant_by_name("chess"),
              .chess960 = false,
              .multipv = 1,
              .overhead_ms = SEARCH_OVERHEAD_DEFAULT_MS,
              .turn_rules = { TURNS_SINGLE, EP_CLASSIC } };
    char err[ERRMSG_LEN];
    u.engine = engine_new(ENGINE_HASH_DEFAULT_MB, params, err, sizeof err);
    if (!u.engine)
        return run_error(EXIT_FAILED, "no memory for the search");
    pthread_mutex_init(&u.out_lock, NULL);
    atomic_init(&u.stop, false);
    reset_position(&u, false);

    command_lines_read(in, handle_line, no_memory, &u);
    /* at the end of input a finite search still finishes and answers */
    finish_search(&u);
    engine_free(u.engine);
    pthread_mutex_destroy(&u.out_lock);
    return EXIT_OK;
}
