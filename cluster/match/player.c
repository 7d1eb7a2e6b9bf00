/* SPDX-License-Identifier: MIT */
/* The players of a match (player.h): Carrera's engine session (engine.h) in this process, or an
 * external engine through the UCI client (uci_client.c) or the xboard client (xboard_client.c),
 * whose every answer is checked against the position's legal turns. */
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
#include "xboard_client.h"
#include "xboard_variant.h"

/* How long an external engine may be silent before it is asked anything. */
#define HANDSHAKE_MS 10000
/* Beyond stall_factor times its limit, before a silent engine is declared stalled: for the
 * process, its pipes and the start of a search on a loaded machine. */
#define GRACE_MS 5000
/* A depth alone gives no time to multiply: how long such a search may take at most. */
#define UNTIMED_MS 600000
/* The slowest engine's nodes per second, which turns a node limit into a time. */
#define SLOWEST_NPS 20000
/* The seconds per move of an xboard engine limited by a depth alone (the protocol has no
 * search without a time). */
#define XBOARD_UNTIMED_S (UNTIMED_MS / 1000)

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
    /* PLAYER_XBOARD */
    XboardClient xboard;
    const char *xboard_variant; /* the variant's xboard name */
    size_t known;               /* the game's turns the engine has been told or has played */
    /* both */
    bool engine_up; /* started and set up; false after a fault until the next game */
};

/* Starts the external UCI engine and sets it up for the game's rules and the player's options. */
static int start_uci(Player *p, char *err, size_t errlen)
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

/* The xboard engine's options: memory for the hash, cores, and option NAME=VALUE for each of the
 * player's options, each one the engine announced; or -1 with a message. */
static int xboard_options(const Player *p, char *out, size_t outlen, char *err, size_t errlen)
{
    const XboardFeatures *f = &p->xboard.features;
    size_t used = 0;
    out[0] = '\0';
    if (p->cfg.hash_mb > 0) {
        if (!f->memory)
            return errmsg_fail(err, errlen,
                               "the engine has no memory feature, so hash cannot be set");
        used += (size_t)snprintf(out + used, outlen - used, "memory %d\n", p->cfg.hash_mb);
    }
    if (p->cfg.cores > 0) {
        if (!f->smp)
            return errmsg_fail(err, errlen,
                               "the engine has no smp feature, so cores cannot be set");
        used += (size_t)snprintf(out + used, outlen - used, "cores %d\n", p->cfg.cores);
    }
    for (int i = 0; i < p->cfg.n_options; i++) {
        const PlayerOption *o = &p->cfg.options[i];
        if (!xboard_features_option(f, o->name))
            return errmsg_fail(err, errlen, "the engine has no option '%s' among its features",
                               o->name);
        used += (size_t)snprintf(out + used, outlen - used, "option %s=%s\n", o->name, o->value);
    }
    if (used >= outlen)
        return errmsg_fail(err, errlen, "too many engine options to send at once");
    return 0;
}

/* Starts the external xboard engine, checks that it plays the variant (and counts nodes when it
 * is limited by them), and sends the player's options. */
static int start_xboard(Player *p, char *err, size_t errlen)
{
    char why[ERRMSG_LEN], options[PLAYER_MAX_OPTIONS * 340];
    if (xboard_client_start(&p->xboard, p->cfg.command, HANDSHAKE_MS, why, sizeof why) != 0)
        return errmsg_fail(err, errlen, "player %s: %s", p->cfg.name, why);
    const XboardFeatures *f = &p->xboard.features;
    int rc = 0;
    if (!p->xboard_variant)
        rc = errmsg_fail(why, sizeof why, "the xboard protocol has no name for %s",
                         p->variant->name);
    else if (!xboard_features_variant(f, p->xboard_variant))
        rc = errmsg_fail(why, sizeof why,
                         "the engine does not play %s: its variants feature lists '%.600s'",
                         p->xboard_variant, f->variants);
    else if (p->cfg.limits.nodes && !f->nps)
        rc = errmsg_fail(why, sizeof why,
                         "the engine has no nps feature, so it cannot be limited by nodes (give "
                         "depth, movetime or tc)");
    if (rc == 0)
        rc = xboard_options(p, options, sizeof options, why, sizeof why);
    if (rc == 0 && (xboard_client_send(&p->xboard, options, why, sizeof why) != 0 ||
                    xboard_client_sync(&p->xboard, "the options", why, sizeof why) != ANSWER_OK))
        rc = -1;
    if (rc != 0) {
        xboard_client_stop(&p->xboard);
        return errmsg_fail(err, errlen, "player %s (%s): %s", p->cfg.name, p->cfg.command, why);
    }
    p->engine_up = true;
    return 0;
}

static int start_engine(Player *p, char *err, size_t errlen)
{
    return p->cfg.kind == PLAYER_UCI ? start_uci(p, err, errlen) : start_xboard(p, err, errlen);
}

static void stop_engine(Player *p)
{
    if (p->cfg.kind == PLAYER_UCI)
        uci_client_stop(&p->engine);
    else
        xboard_client_stop(&p->xboard);
    p->engine_up = false;
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
    p->xboard_variant = xboard_variant_name(v);
    if (c->kind == PLAYER_CARRERA) {
        char why[ERRMSG_LEN];
        size_t hash_mb = c->hash_mb > 0 ? (size_t)c->hash_mb : ENGINE_HASH_DEFAULT_MB;
        p->session = engine_new(hash_mb, &c->eval, why, sizeof why);
        if (!p->session) {
            player_free(p);
            errmsg_set(err, errlen, "out of memory for player %s", c->name);
            return NULL;
        }
        /* the session is new and not searching: this cannot fail */
        engine_set_search(p->session, &c->search, why, sizeof why);
        if (c->threads > 1 && engine_set_threads(p->session, c->threads, why, sizeof why) != 0) {
            player_free(p);
            errmsg_set(err, errlen, "player %s: %s", c->name, why);
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
    if (p->cfg.kind != PLAYER_CARRERA && p->engine_up)
        stop_engine(p);
    engine_free(p->session);
    free(p);
}

const PlayerConfig *player_config(const Player *p) { return &p->cfg; }

void player_set_params(Player *p, const EngineParams *e)
{
    if (p->cfg.kind != PLAYER_CARRERA)
        return;
    /* the session is this player's alone and never searching here: these cannot fail */
    char why[ERRMSG_LEN];
    if (memcmp(&p->cfg.search, &e->search, sizeof e->search) != 0) {
        p->cfg.search = e->search;
        engine_set_search(p->session, &e->search, why, sizeof why);
    }
    if (memcmp(&p->cfg.eval, &e->eval, sizeof e->eval) != 0) {
        p->cfg.eval = e->eval;
        engine_set_eval(p->session, &e->eval, why, sizeof why);
        engine_clear_hash(p->session, why, sizeof why); /* scores of the old evaluation */
    }
}

void player_set_nodes(Player *p, uint64_t nodes) { p->cfg.limits.nodes = nodes; }

/* The commands of an xboard engine's new game from start: the variant, force mode, the limits,
 * no pondering, thinking output, the position; or -1 with a message when the engine cannot be
 * given the position. */
static int xboard_game_commands(const Player *p, const Position *start, char *out, size_t outlen,
                                char *err, size_t errlen)
{
    const PlayerLimits *l = &p->cfg.limits;
    size_t used = (size_t)snprintf(out, outlen, "new\n");
    if (strcmp(p->xboard_variant, "normal") != 0)
        used += (size_t)snprintf(out + used, outlen - used, "variant %s\n", p->xboard_variant);
    used += (size_t)snprintf(out + used, outlen - used, "force\neasy\npost\n");
    if (l->base_ms > 0)
        used += (size_t)snprintf(out + used, outlen - used,
                                 "level 0 %" PRId64 ":%02" PRId64 " %" PRId64 "\n",
                                 l->base_ms / 60000, l->base_ms / 1000 % 60, l->inc_ms / 1000);
    else if (l->movetime_ms > 0)
        used +=
            (size_t)snprintf(out + used, outlen - used, "st %" PRId64 "\n", l->movetime_ms / 1000);
    else if (l->nodes > 0) /* a second of the engine's clock is this many nodes */
        used += (size_t)snprintf(out + used, outlen - used, "st 1\nnps %" PRIu64 "\n", l->nodes);
    else
        used += (size_t)snprintf(out + used, outlen - used, "st %d\n", XBOARD_UNTIMED_S);
    if (l->depth > 0)
        used += (size_t)snprintf(out + used, outlen - used, "sd %d\n", l->depth);
    Setup s;
    position_to_setup(start, &s);
    if (p->xboard.features.setboard) {
        xboard_setboard_command(&s, out + used, outlen - used);
        return 0;
    }
    char why[ERRMSG_LEN];
    if (xboard_edit_commands(&s, out + used, outlen - used, why, sizeof why) != 0) {
        char fen[FEN_MAX];
        setup_to_fen(&s, s.castling_text, fen, sizeof fen);
        return errmsg_fail(err, errlen,
                           "player %s (%s) cannot be given the start position %s: the engine has "
                           "no setboard, and %s",
                           p->cfg.name, p->cfg.command, fen, why);
    }
    return 0;
}

/* Starts a new game from start on the xboard engine: the set-up commands, then a ping. */
static int xboard_new_game(Player *p, const Position *start, char *err, size_t errlen)
{
    char commands[2048], why[ERRMSG_LEN];
    if (xboard_game_commands(p, start, commands, sizeof commands, err, errlen) != 0)
        return -1;
    p->known = 0;
    if (xboard_client_send(&p->xboard, commands, why, sizeof why) != 0 ||
        xboard_client_sync(&p->xboard, "the new game's set-up", why, sizeof why) != ANSWER_OK) {
        stop_engine(p);
        return errmsg_fail(err, errlen, "player %s: %s", p->cfg.name, why);
    }
    return 0;
}

/* The external engine's new game: ucinewgame, or the xboard engine's set-up. */
static int external_new_game(Player *p, const Position *start, char *err, size_t errlen)
{
    if (p->cfg.kind == PLAYER_XBOARD)
        return xboard_new_game(p, start, err, errlen);
    char why[ERRMSG_LEN];
    if (uci_client_new_game(&p->engine, why, sizeof why) != 0) {
        stop_engine(p);
        return errmsg_fail(err, errlen, "player %s: %s", p->cfg.name, why);
    }
    return 0;
}

int player_new_game(Player *p, const Position *start, char *err, size_t errlen)
{
    if (p->cfg.kind == PLAYER_CARRERA) {
        char why[ERRMSG_LEN];
        if (engine_clear_hash(p->session, why, sizeof why) != 0)
            return errmsg_fail(err, errlen, "player %s: %s", p->cfg.name, why);
        return 0;
    }
    if (!p->engine_up && start_engine(p, err, errlen) != 0)
        return -1;
    /* one restart when the engine has died between games; a position it cannot be given stays
     * so */
    if (external_new_game(p, start, err, errlen) != 0 &&
        (p->engine_up || start_engine(p, err, errlen) != 0 ||
         external_new_game(p, start, err, errlen) != 0))
        return -1;
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

/* The turn's limit in ms for the stall timeout: the movetime, else the mover's clock, else the
 * nodes at the slowest rate; -1 for a depth alone. */
static int64_t turn_limit(const PlayerLimits *l, const Game *g, const int64_t clock_ms[2])
{
    if (l->movetime_ms > 0)
        return l->movetime_ms;
    if (l->base_ms > 0)
        return clock_ms[position_side(&g->pos)];
    if (l->nodes > 0)
        return (int64_t)(l->nodes * 1000 / SLOWEST_NPS);
    return -1;
}

/* How long the engine may be silent on a turn with this limit, in ms for the clients. */
static int stall_timeout(const Player *p, int64_t limit)
{
    const int64_t timeout = limit < 0 ? UNTIMED_MS : p->stall_factor * limit + GRACE_MS;
    return timeout > INT32_MAX ? INT32_MAX : (int)timeout;
}

static PlayerFault fault_of(EngineAnswer a)
{
    return a == ANSWER_TIMEOUT ? FAULT_STALL : a == ANSWER_GARBAGE ? FAULT_GARBAGE : FAULT_CRASH;
}

/* An external engine's fault f (out->why set): the engine stopped (the next game restarts it). */
static int engine_fault(Player *p, PlayerFault f, int64_t limit, PlayerMove *out)
{
    stop_engine(p);
    out->fault = f;
    if (f == FAULT_STALL && limit >= 0) {
        size_t n = strlen(out->why);
        snprintf(out->why + n, sizeof out->why - n,
                 " (stall_factor %d times the turn's limit of %g s, and %g s)", p->stall_factor,
                 limit / 1000.0, GRACE_MS / 1000.0);
    }
    return -1;
}

/* A mate in moves (negative: mated) as a score from the mover's view. */
static int mate_score(int moves)
{
    return moves > 0 ? SCORE_MATE - (2 * moves - 1) : -SCORE_MATE - 2 * moves;
}

static int think_uci(Player *p, const Game *g, const int64_t clock_ms[2], PlayerMove *out)
{
    const PlayerLimits *l = &p->cfg.limits;
    char go[256];
    size_t used = (size_t)snprintf(go, sizeof go, "go");
    if (l->base_ms > 0)
        used +=
            (size_t)snprintf(go + used, sizeof go - used,
                             " wtime %" PRId64 " btime %" PRId64 " winc %" PRId64 " binc %" PRId64,
                             clock_ms[WHITE], clock_ms[BLACK], l->inc_ms, l->inc_ms);
    if (l->movetime_ms > 0)
        used += (size_t)snprintf(go + used, sizeof go - used, " movetime %" PRId64, l->movetime_ms);
    if (l->nodes > 0)
        used += (size_t)snprintf(go + used, sizeof go - used, " nodes %" PRIu64, l->nodes);
    if (l->depth > 0)
        snprintf(go + used, sizeof go - used, " depth %d", l->depth);
    const int64_t limit = turn_limit(l, g, clock_ms);

    char *position = position_line(g);
    if (!position) {
        out->fault = FAULT_CRASH;
        snprintf(out->why, sizeof out->why, "out of memory writing the position");
        return -1;
    }
    UciSearchAnswer answer;
    EngineAnswer a = uci_client_search(&p->engine, position, go, stall_timeout(p, limit), &answer,
                                       out->why, sizeof out->why);
    free(position);
    out->nodes = answer.nodes;
    if (a != ANSWER_OK)
        return engine_fault(p, fault_of(a), limit, out);
    if (answer.has_score) {
        out->has_score = true;
        out->score_cp = answer.mate ? mate_score(answer.score) : answer.score;
    }
    if (!game_parse_turn(g, answer.bestmove, &out->turn)) {
        snprintf(out->why, sizeof out->why, "illegal move '%s'", answer.bestmove);
        return engine_fault(p, FAULT_ILLEGAL, limit, out);
    }
    return 0;
}

/* The xboard engine is in force mode with the game up to p->known turns: it is told the turns
 * since (the opponent's), the clocks, synchronised with a ping, and asked to move. */
static int think_xboard(Player *p, const Game *g, const int64_t clock_ms[2], PlayerMove *out)
{
    const PlayerLimits *l = &p->cfg.limits;
    const int64_t limit = turn_limit(l, g, clock_ms);
    const int side = position_side(&g->pos);
    char commands[4096] = "";
    size_t used = 0;
    for (size_t i = p->known; i < g->n_turns && used < sizeof commands; i++) {
        char move[XBOARD_MOVE_MAX];
        xboard_move_text(g->turns[i].m[0], g->pos.variant, move);
        used += (size_t)snprintf(commands + used, sizeof commands - used, "%s%s\n",
                                 p->xboard.features.usermove ? "usermove " : "", move);
    }
    if (l->base_ms > 0 && used < sizeof commands) /* centiseconds, the engine's own first */
        snprintf(commands + used, sizeof commands - used, "time %" PRId64 "\notim %" PRId64 "\n",
                 clock_ms[side] / 10, clock_ms[!side] / 10);
    EngineAnswer a =
        xboard_client_send(&p->xboard, commands, out->why, sizeof out->why) != 0
            ? ANSWER_EXITED
            : xboard_client_sync(&p->xboard, "the moves and the clocks", out->why, sizeof out->why);
    XboardSearchAnswer answer;
    if (a == ANSWER_OK)
        a = xboard_client_search(&p->xboard, stall_timeout(p, limit), &answer, out->why,
                                 sizeof out->why);
    if (a != ANSWER_OK)
        return engine_fault(p, fault_of(a), limit, out);
    out->nodes = answer.last.nodes;
    if (answer.has_score) {
        /* mates as 100000 + moves, the protocol's convention */
        int score = answer.last.score;
        out->has_score = true;
        out->score_cp = score >= 100000    ? mate_score(score - 100000)
                        : score <= -100000 ? mate_score(score + 100000)
                                           : score;
    }
    char why[ERRMSG_LEN];
    if (!xboard_parse_move(g, answer.move, &out->turn, why, sizeof why)) {
        snprintf(out->why, sizeof out->why, "illegal move '%s': %.900s", answer.move, why);
        return engine_fault(p, FAULT_ILLEGAL, limit, out);
    }
    p->known = g->n_turns + 1;
    return 0;
}

int player_think(Player *p, const Game *g, const int64_t clock_ms[2], PlayerMove *out)
{
    *out = (PlayerMove){ .fault = FAULT_NONE };
    double start = monotonic_seconds();
    int rc;
    if (p->cfg.kind == PLAYER_CARRERA) {
        rc = think_carrera(p, g, clock_ms, out);
    } else if (!p->engine_up) {
        out->fault = FAULT_CRASH;
        snprintf(out->why, sizeof out->why, "the engine is not running");
        rc = -1;
    } else {
        rc = p->cfg.kind == PLAYER_UCI ? think_uci(p, g, clock_ms, out)
                                       : think_xboard(p, g, clock_ms, out);
    }
    out->seconds = monotonic_seconds() - start;
    return rc;
}
