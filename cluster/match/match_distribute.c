/* SPDX-License-Identifier: MIT */
/* A match's pairs over the farm (match_distribute.h). Tasks and results are match_wire.h's
 * messages; every result is replayed by rank 0 from the pair's opening before it is recorded. */
#include "match_distribute.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "errmsg.h"
#include "farm.h"
#include "match_wire.h"
#include "player.h"
#include "referee.h"

typedef struct Distribution {
    StageRunner *run;
    Player *(*players)[2]; /* each worker thread's two, made on first use */
} Distribution;

/* A worker thread's two players, made on first use; false with a message when they cannot be. */
static bool ready_players(const MatchConfig *c, Player *players[2], char *err, size_t errlen)
{
    for (int i = 0; i < 2; i++)
        if (!players[i] && !(players[i] = player_new(&c->players[i], c->variant, &c->rules,
                                                     c->castle960, c->stall_factor, err, errlen)))
            return false;
    return true;
}

/* Both games of a pair with a worker thread's players; 0, or -1 with a message (g freed). */
static int play_pair(const MatchConfig *c, const Openings *o, Player *players[2], uint64_t pair,
                     GameRecord g[2], char *err, size_t errlen)
{
    Position start[2];
    if (openings_pair(o, pair, start, err, errlen) != 0)
        return -1;
    for (int k = 0; k < 2; k++) {
        Player *white = players[k], *black = players[1 - k];
        if (player_new_game(white, &start[k], err, errlen) != 0 ||
            player_new_game(black, &start[k], err, errlen) != 0 ||
            referee_play_game(white, black, &start[k], &c->rules, c->castle960, &c->adjudication,
                              &g[k], err, errlen) != 0) {
            if (k == 1)
                game_record_free(&g[0]);
            return -1;
        }
    }
    return 0;
}

static FarmNext next_pair(void *ctx, int rank, void **task, size_t *len)
{
    Distribution *d = ctx;
    (void)rank;
    uint64_t pair;
    EngineParams params[2];
    int n = stage_runner_next(d->run, &pair, params);
    if (n < 0)
        return FARM_WAIT;
    if (n == 0)
        return FARM_DONE;
    *task = wire_task(pair, params, len);
    if (!*task) {
        stage_runner_fail(d->run, "out of memory");
        return FARM_DONE;
    }
    return FARM_TASK;
}

static int take_result(void *ctx, int rank, const void *data, size_t len, char *err, size_t errlen)
{
    Distribution *d = ctx;
    (void)err;
    (void)errlen;
    WireMessage *m = malloc(sizeof *m);
    char why[ERRMSG_LEN], message[1100];
    if (!m) {
        stage_runner_fail(d->run, "out of memory");
    } else if (wire_decode(data, len, &d->run->openings, m, why, sizeof why) != 0) {
        snprintf(message, sizeof message, "rank %d: %s", rank, why);
        stage_runner_fail(d->run, message);
    } else if (m->kind == WIRE_RESULT) {
        stage_runner_record(d->run, m->pair, m->games);
    } else {
        snprintf(message, sizeof message, "rank %d: %s", rank,
                 m->kind == WIRE_FAILED ? m->text : "a message that is no result");
        stage_runner_fail(d->run, message);
    }
    free(m);
    return 0;
}

static void *play_task(void *ctx, int slot, const void *data, size_t len, size_t *result_len)
{
    Distribution *d = ctx;
    const MatchConfig *c = d->run->cfg;
    const Openings *o = &d->run->openings;
    WireMessage *m = malloc(sizeof *m);
    if (!m)
        return NULL;
    char err[ERRMSG_LEN];
    unsigned char *out = NULL;
    Player **mine = d->players[slot];
    if (wire_decode(data, len, o, m, err, sizeof err) != 0 || m->kind != WIRE_TASK) {
        out = wire_failed(m->kind != WIRE_TASK ? "a task that is no pair" : err, result_len);
    } else if (!ready_players(c, mine, err, sizeof err)) {
        out = wire_failed(err, result_len);
    } else {
        player_set_params(mine[0], &m->params[0]);
        player_set_params(mine[1], &m->params[1]);
        /* a sweep's stage, known from the pair alone on every rank */
        const uint64_t nodes = tune_sweep_nodes(&c->tune, (int)(m->pair / c->pairs_per_stage));
        for (int k = 0; k < 2 && nodes; k++)
            player_set_nodes(mine[k], nodes);
        GameRecord g[2];
        if (play_pair(c, o, mine, m->pair, g, err, sizeof err) != 0) {
            out = wire_failed(err, result_len);
        } else {
            out = wire_result(m->pair, g, result_len);
            game_record_free(&g[0]);
            game_record_free(&g[1]);
        }
    }
    free(m);
    return out;
}

int match_distribute_run(StageRunner *run, FarmStats *stats, char *err, size_t errlen)
{
    const int slots = run->threads > 0 ? run->threads : 1;
    Distribution *d = malloc(sizeof *d);
    Player *(*players)[2] = calloc((size_t)slots, sizeof *players);
    if (!d || !players) {
        free(d);
        free(players);
        return errmsg_fail(err, errlen, "out of memory");
    }
    *d = (Distribution){ run, players };
    const FarmJob job = { .ctx = d,
                          .slots = slots,
                          .ahead = 0,
                          .next = next_pair,
                          .result = take_result,
                          .work = play_task };
    if (farm_run(&job, stats, err, errlen) != 0)
        return -1; /* d stays: the threads may use it until the job is aborted */
    for (int t = 0; t < slots; t++) {
        player_free(players[t][0]);
        player_free(players[t][1]);
    }
    free(players);
    free(d);
    return 0;
}
