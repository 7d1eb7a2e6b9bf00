/* SPDX-License-Identifier: MIT */
/* The openings of a match (openings.h). Every random choice for pair k comes from a generator
 * seeded with the match's seed and k alone. */
#define _POSIX_C_SOURCE 200809L /* getline */

#include "openings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "errmsg.h"
#include "eval.h"
#include "game.h"
#include "rng.h"
#include "turn.h"
#include "xboard_client.h"

/* How often the random turns of one pair are drawn anew before giving up. */
#define OPENING_ATTEMPTS 100

/* The first four fields of an EPD line (the clocks are then 0 1), or a whole FEN. */
static void fen_of_line(const char *line, char *fen, size_t len)
{
    int fields = 0;
    size_t i = 0;
    const char *c = line;
    while (*c && fields < 6) {
        while (*c == ' ' || *c == '\t')
            c++;
        if (!*c || *c == ';')
            break;
        size_t w = strcspn(c, " \t;");
        if (c[w] == ';' && fields >= 4)
            break;
        if (i + w + 2 >= len)
            break;
        if (fields)
            fen[i++] = ' ';
        memcpy(fen + i, c, w);
        i += w;
        c += w;
        fields++;
        /* EPD: after four fields the rest are operations, not clocks */
        if (fields == 4) {
            const char *next = c + strspn(c, " \t");
            if (*next && (*next < '0' || *next > '9'))
                break;
        }
    }
    fen[i] = '\0';
}

int openings_load(Openings *o, const MatchConfig *c, char *err, size_t errlen)
{
    *o = (Openings){ .cfg = c,
                     .edit_only = c->players[0].kind == PLAYER_XBOARD ||
                                  c->players[1].kind == PLAYER_XBOARD };
    if (c->openings != OPENINGS_FILE)
        return 0;
    FILE *f = fopen(c->openings_file, "re");
    if (!f)
        return errmsg_fail(err, errlen, "%s: cannot open the opening file", c->openings_file);
    char *line = NULL;
    size_t cap = 0, lines_cap = 0;
    int number = 0, status = 0;
    while (status == 0 && getline(&line, &cap, f) >= 0) {
        number++;
        line[strcspn(line, "\r\n")] = '\0';
        const char *t = line + strspn(line, " \t");
        if (*t == '\0' || *t == '#')
            continue;
        char fen[512], why[256];
        fen_of_line(t, fen, sizeof fen);
        Setup s;
        if (setup_from_fen_rules(&s, c->variant, &c->rules, fen, why, sizeof why) != 0) {
            errmsg_set(err, errlen, "%s:%d: not a %s position: %s", c->openings_file, number,
                       c->variant->name, why);
            status = -1;
            break;
        }
        if (o->n_lines == lines_cap) {
            size_t grown = lines_cap ? 2 * lines_cap : 64;
            Setup *v = realloc(o->lines, grown * sizeof *v);
            if (!v) {
                errmsg_set(err, errlen, "%s: out of memory", c->openings_file);
                status = -1;
                break;
            }
            o->lines = v;
            lines_cap = grown;
        }
        o->lines[o->n_lines++] = s;
    }
    free(line);
    fclose(f);
    if (status == 0 && o->n_lines == 0) {
        errmsg_set(err, errlen, "%s: no positions in the opening file", c->openings_file);
        status = -1;
    }
    if (status != 0)
        openings_free(o);
    return status;
}

void openings_free(Openings *o)
{
    free(o->lines);
    o->lines = NULL;
    o->n_lines = 0;
}

/* Whether an xboard engine without setboard can be given p by edit (xboard_client.h). */
static bool edit_can_set_up(const Position *p)
{
    Setup s;
    position_to_setup(p, &s);
    char why[ERRMSG_LEN];
    return xboard_edit_can_say(&s, why, sizeof why) == 0;
}

/* Whether Carrera's own search of c->opening_nodes nodes (one thread, an empty 1 MiB table, the
 * default evaluation of c's rules: the same answer on every rank and thread) scores p within
 * +-c->opening_balance centipawns: 1 or 0, or -1 with err when the session cannot be made. The
 * session *judge is made on the first call and kept for the caller's next ones: a new game
 * forgets its table and statistics, so each search starts as a fresh session's would. */
static int opening_balanced(const MatchConfig *c, Engine **judge, const Position *p, char *err,
                            size_t errlen)
{
    if (!*judge) {
        EvalParams params;
        eval_defaults(&params);
        if (!(*judge = engine_new(1, &params, err, errlen)))
            return -1;
    }
    EngineGo go = { .limits = search_limits_none() };
    go.limits.nodes = c->opening_nodes;
    EngineResult r;
    if (engine_new_game(*judge, p, &c->rules, c->castle960, err, errlen) != 0 ||
        engine_search(*judge, &go, &r, err, errlen) != 0)
        return -1;
    return r.best.n > 0 && r.final.mate == 0 && abs(r.final.score) <= c->opening_balance;
}

int openings_position(const Openings *o, uint64_t pair, int game, Position *out, char *err,
                      size_t errlen)
{
    const MatchConfig *c = o->cfg;
    Rng rng = rng_new(c->seed * 0x9E3779B97F4A7C15ull ^ (pair + 1) * 0xD1B54A32D192ED03ull);
    Setup s;
    if (c->openings == OPENINGS_FILE)
        s = o->lines[pair % o->n_lines];
    else if (c->openings == OPENINGS_RANDOM)
        setup_random(&s, c->variant, rng_next(&rng));
    else
        setup_start(&s, c->variant);
    /* the same change for both games of the pair: drawn before the colour is known */
    int which = match_imbalance_of(c, pair);
    const Imbalance *im = which >= 0 ? &c->imbalances[which] : NULL;
    Rng change = im ? rng_new(rng_next(&rng)) : rng;
    if (im && imbalance_apply(im, &s, game == 0 ? BLACK : WHITE, &change, err, errlen) != 0)
        return -1;
    Position start;
    position_from_setup(&start, &s);
    TurnList list = { 0 };
    Engine *judge = NULL; /* with opening_balance */
    int status = 1;       /* 0: found, -1: failed */
    for (int attempt = 0; attempt < OPENING_ATTEMPTS && status > 0; attempt++) {
        Game g;
        if (!game_init(&g, &start, &c->rules, c->castle960))
            break;
        bool on = game_status(&g, NULL) == TERM_NONE;
        for (int k = 0; k < c->random_plies && on; k++) {
            if (!position_turns(&g.pos, &c->rules, &list) || list.n == 0 ||
                !game_play(&g, &list.v[rng_below(&rng, list.n)]))
                on = false;
            else
                on = game_status(&g, NULL) == TERM_NONE;
        }
        int take = on && (!o->edit_only || edit_can_set_up(&g.pos));
        if (take && c->opening_balance)
            take = opening_balanced(c, &judge, &g.pos, err, errlen);
        if (take > 0)
            *out = g.pos;
        if (take != 0)
            status = take > 0 ? 0 : -1;
        game_free(&g);
    }
    turn_list_free(&list);
    engine_free(judge);
    if (status <= 0)
        return status;
    char balance[96] = "";
    if (c->opening_balance)
        snprintf(balance, sizeof balance,
                 " or leave a side ahead by more than %d cp (opening_balance)", c->opening_balance);
    return errmsg_fail(
        err, errlen, "no opening for pair %llu in %d attempts: its random turns end the game%s%s",
        (unsigned long long)pair, OPENING_ATTEMPTS, balance,
        o->edit_only ? " or leave a position the xboard protocol's edit cannot set up" : "");
}

int openings_pair(const Openings *o, uint64_t pair, Position out[2], char *err, size_t errlen)
{
    if (openings_position(o, pair, 0, &out[0], err, errlen) != 0)
        return -1;
    /* without an imbalance both games start alike: drawn (and judged) once */
    if (match_imbalance_of(o->cfg, pair) < 0) {
        out[1] = out[0];
        return 0;
    }
    return openings_position(o, pair, 1, &out[1], err, errlen);
}
