/* SPDX-License-Identifier: MIT */
/* The players of a match (player.h): Carrera's engine session (engine.h) in this process, or an
 * external UCI engine through the UCI client (uci_client.c), whose every answer is checked against
 * the position's legal turns. */
#include "player.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"
#include "errmsg.h"
#include "setup.h"
#include "uci_client.h"

/* How long an external engine may be silent before it is asked anything. */
#define HANDSHAKE_MS 10000
/* Beyond stall_factor times its limit, before a silent engine is declared stalled: for the
 * process, its pipes and the start of a search on a loaded machine. */
#define GRACE_MS 5000
/* A depth alone gives no time to multiply: how long such a search may take at most. */
#define UNTIMED_MS 600000
/* The slowest engine's nodes per second, which turns a node limit into a time. */
#define SLOWEST_NPS 20000

struct Player {
    PlayerConfig cfg;
    const Variant *variant;
    Rules rules;
    bool castle960;
    int stall_factor;
    /* PLAYER_CARRERA */
    Engine *session;
    /* PLAYER_UCI */
    UciClient engine;
    bool engine_up; /* started and set up; false after a fault until the next game */
};

/* Starts the external engine and sets it up for the game's rules and the player's options. */
static int start_engine(Player *p, char *err, size_t errlen)
{
    char why[ERRMSG_LEN];
    if (uci_client_start(&p->engine, p->cfg.command, HANDSHAKE_MS, why, sizeof why) != 0)
        return errmsg_fail(err, errlen, "player %s: %s", p->cfg.name, why);
    UciClientSetup setup = { .uci_variant = p->variant->name,
                             .chess960 = p->castle960 && !p->variant->castle960,
                             .turn_rules = turn_rules_name(p->rules.turns),
                             .ep_rule = ep_rule_name(p->rules.ep) };
    const char *names[PLAYER_MAX_OPTIONS + 1], *values[PLAYER_MAX_OPTIONS + 1];
    char hash[32];
    int n = 0;
    if (p->cfg.hash_mb > 0) {
        snprintf(hash, sizeof hash, "%d", p->cfg.hash_mb);
        names[n] = "Hash";
        values[n++] = hash;
    }
    /* the player's own options come last: they may override the variant's name, say */
    for (int i = 0; i < p->cfg.n_options; i++) {
        names[n] = p->cfg.options[i].name;
        values[n++] = p->cfg.options[i].value;
    }
    if (uci_client_setup(&p->engine, &setup, why, sizeof why) != 0 ||
        uci_client_set_options(&p->engine, names, values, n, why, sizeof why) != 0) {
        uci_client_stop(&p->engine);
        return errmsg_fail(err, errlen, "player %s: %s", p->cfg.name, why);
    }
    p->engine_up = true;
    return 0;
}

Player *player_new(const PlayerConfig *c, const Variant *v, const Rules *r, bool castle960,
                   int stall_factor, char *err, size_t errlen)
{
    Player *p = calloc(1, sizeof *p);
    if (!p) {
        errmsg_set(err, errlen, "out of memory for player %s", c->name);
        return NULL;
    }
    p->cfg = *c;
    p->variant = v;
    p->rules = *r;
    p->castle960 = castle960;
    p->stall_factor = stall_factor;
    if (c->kind == PLAYER_CARRERA) {
        char why[ERRMSG_LEN];
        size_t hash_mb = c->hash_mb > 0 ? (size_t)c->hash_mb : ENGINE_HASH_DEFAULT_MB;
        p->session = engine_new(hash_mb, &c->eval, why, sizeof why);
        if (!p->session) {
            player_free(p);
            errmsg_set(err, errlen, "out of memory for player %s", c->name);
            return NULL;
        }
        return p;
    }
    if (start_engine(p, err, errlen) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

void player_free(Player *p)
{
    if (!p)
        return;
    if (p->cfg.kind == PLAYER_UCI && p->engine_up)
        uci_client_stop(&p->engine);
    engine_free(p->session);
    free(p);
}

const PlayerConfig *player_config(const Player *p) { return &p->cfg; }

void player_set_eval(Player *p, const EvalParams *e)
{
    if (p->cfg.kind != PLAYER_CARRERA || memcmp(&p->cfg.eval, e, sizeof *e) == 0)
        return;
    p->cfg.eval = *e;
    /* the session is this player's alone and never searching here: these cannot fail */
    char why[ERRMSG_LEN];
    engine_set_eval(p->session, e, why, sizeof why);
    engine_clear_hash(p->session, why, sizeof why); /* scores of the old evaluation */
}

void player_set_nodes(Player *p, uint64_t nodes) { p->cfg.limits.nodes = nodes; }

int player_new_game(Player *p, char *err, size_t errlen)
{
    if (p->cfg.kind == PLAYER_CARRERA) {
        char why[ERRMSG_LEN];
        if (engine_clear_hash(p->session, why, sizeof why) != 0)
            return errmsg_fail(err, errlen, "player %s: %s", p->cfg.name, why);
        return 0;
    }
    if (!p->engine_up && start_engine(p, err, errlen) != 0)
        return -1;
    char why[ERRMSG_LEN];
    if (uci_client_new_game(&p->engine, why, sizeof why) != 0) {
        /* one restart: an engine may have died between games */
        uci_client_stop(&p->engine);
        p->engine_up = false;
        if (start_engine(p, err, errlen) != 0 ||
            uci_client_new_game(&p->engine, why, sizeof why) != 0)
            return errmsg_fail(err, errlen, "player %s: %s", p->cfg.name, why);
    }
    return 0;
}

static SearchLimits limits_for(const PlayerLimits *l, const int64_t clock_ms[2])
{
    SearchLimits s = search_limits_none();
    if (l->base_ms > 0) {
        s.time_ms[WHITE] = clock_ms[WHITE] > 0 ? clock_ms[WHITE] : 1;
        s.time_ms[BLACK] = clock_ms[BLACK] > 0 ? clock_ms[BLACK] : 1;
        s.inc_ms[WHITE] = s.inc_ms[BLACK] = l->inc_ms;
    }
    s.nodes = l->nodes;
    s.depth = l->depth;
    s.movetime_ms = l->movetime_ms;
    return s;
}

/* Remembers the score of each finished iteration (the last one is the search's verdict). */
static void note_report(const SearchReport *r, void *ctx)
{
    PlayerMove *out = ctx;
    out->has_score = true;
    out->score_cp = r->mate > 0   ? SCORE_MATE - (2 * r->mate - 1)
                    : r->mate < 0 ? -SCORE_MATE + 2 * -r->mate
                                  : r->score;
}

static int think_carrera(Player *p, const Game *g, const int64_t clock_ms[2], PlayerMove *out)
{
    /* the session follows the referee's game: only the turns since the last question are new */
    int played = engine_set_position(p->session, &g->start, &g->rules, g->castle960, g->turns,
                                     (int)g->n_turns, out->why, sizeof out->why);
    if (played != (int)g->n_turns) {
        /* the referee's turns are legal: only memory can fail here */
        out->fault = FAULT_CRASH;
        if (played >= 0)
            snprintf(out->why, sizeof out->why, "out of memory following the game");
        return -1;
    }
    const EngineGo go = { .limits = limits_for(&p->cfg.limits, clock_ms),
                          .report = note_report,
                          .ctx = out };
    EngineResult result;
    if (engine_search(p->session, &go, &result, out->why, sizeof out->why) != 0) {
        out->fault = FAULT_CRASH;
        return -1;
    }
    out->turn = result.best;
    out->nodes = result.final.nodes;
    if (out->turn.n == 0) {
        /* the referee asks only in positions with a turn to play */
        out->fault = FAULT_ILLEGAL;
        snprintf(out->why, sizeof out->why, "found no turn to play");
        return -1;
    }
    return 0;
}

/* `position fen START moves T1 T2 ...`, the turns in UCI text (double-move turns joined by
 * ','); NULL when memory runs out. */
static char *position_line(const Game *g)
{
    Setup s;
    char fen[FEN_MAX];
    position_to_setup(&g->start, &s);
    setup_to_fen(&s, s.castling_text, fen, sizeof fen);
    size_t cap = strlen(fen) + 32 + g->n_turns * (TURN_TEXT_MAX + 1);
    char *line = malloc(cap);
    if (!line)
        return NULL;
    size_t used = (size_t)snprintf(line, cap, "position fen %s%s", fen, g->n_turns ? " moves" : "");
    for (size_t i = 0; i < g->n_turns; i++) {
        char text[TURN_TEXT_MAX];
        turn_to_uci(&g->turns[i], g->pos.variant, g->castle960, text);
        for (char *c = text; *c; c++)
            if (*c == '/')
                *c = ',';
        used += (size_t)snprintf(line + used, cap - used, " %s", text);
    }
    return line;
}

static int think_uci(Player *p, const Game *g, const int64_t clock_ms[2], PlayerMove *out)
{
    if (!p->engine_up) {
        out->fault = FAULT_CRASH;
        snprintf(out->why, sizeof out->why, "the engine is not running");
        return -1;
    }
    const PlayerLimits *l = &p->cfg.limits;
    char go[256];
    size_t used = (size_t)snprintf(go, sizeof go, "go");
    int64_t limit = -1; /* the turn's limit in ms, none known for a depth alone */
    if (l->base_ms > 0) {
        used +=
            (size_t)snprintf(go + used, sizeof go - used,
                             " wtime %" PRId64 " btime %" PRId64 " winc %" PRId64 " binc %" PRId64,
                             clock_ms[WHITE], clock_ms[BLACK], l->inc_ms, l->inc_ms);
        limit = clock_ms[position_side(&g->pos)];
    }
    if (l->movetime_ms > 0) {
        used += (size_t)snprintf(go + used, sizeof go - used, " movetime %" PRId64, l->movetime_ms);
        limit = l->movetime_ms;
    }
    if (l->nodes > 0) {
        used += (size_t)snprintf(go + used, sizeof go - used, " nodes %" PRIu64, l->nodes);
        if (limit < 0)
            limit = (int64_t)(l->nodes * 1000 / SLOWEST_NPS);
    }
    if (l->depth > 0)
        snprintf(go + used, sizeof go - used, " depth %d", l->depth);
    const int64_t timeout = limit < 0 ? UNTIMED_MS : p->stall_factor * limit + GRACE_MS;

    char *position = position_line(g);
    if (!position) {
        out->fault = FAULT_CRASH;
        snprintf(out->why, sizeof out->why, "out of memory writing the position");
        return -1;
    }
    UciSearchAnswer answer;
    UciAnswer a =
        uci_client_search(&p->engine, position, go, timeout > INT32_MAX ? INT32_MAX : (int)timeout,
                          &answer, out->why, sizeof out->why);
    free(position);
    out->nodes = answer.nodes;
    if (a != ANSWER_OK) {
        /* uci_client_search has ended the process; this frees the rest, the next game restarts it
         */
        uci_client_stop(&p->engine);
        p->engine_up = false;
        out->fault = a == ANSWER_TIMEOUT   ? FAULT_STALL
                     : a == ANSWER_GARBAGE ? FAULT_GARBAGE
                                           : FAULT_CRASH;
        if (a == ANSWER_TIMEOUT && limit >= 0) {
            size_t n = strlen(out->why);
            snprintf(out->why + n, sizeof out->why - n,
                     " (stall_factor %d times the turn's limit of %g s, and %g s)", p->stall_factor,
                     limit / 1000.0, GRACE_MS / 1000.0);
        }
        return -1;
    }
    if (answer.has_score) {
        out->has_score = true;
        out->score_cp = !answer.mate       ? answer.score
                        : answer.score > 0 ? SCORE_MATE - (2 * answer.score - 1)
                                           : -SCORE_MATE - 2 * answer.score;
    }
    if (!game_parse_turn(g, answer.bestmove, &out->turn)) {
        uci_client_stop(&p->engine);
        p->engine_up = false;
        out->fault = FAULT_ILLEGAL;
        snprintf(out->why, sizeof out->why, "illegal move '%s'", answer.bestmove);
        return -1;
    }
    return 0;
}

int player_think(Player *p, const Game *g, const int64_t clock_ms[2], PlayerMove *out)
{
    *out = (PlayerMove){ .fault = FAULT_NONE };
    double start = monotonic_seconds();
    int rc = p->cfg.kind == PLAYER_CARRERA ? think_carrera(p, g, clock_ms, out)
                                           : think_uci(p, g, clock_ms, out);
    out->seconds = monotonic_seconds() - start;
    return rc;
}
