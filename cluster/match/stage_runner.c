/* SPDX-License-Identifier: MIT */
/* The pairs of a match run (stage_runner.h). */
#define _POSIX_C_SOURCE 200809L

#include "stage_runner.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "errmsg.h"
#include "pgn.h"

void stage_runner_fail(StageRunner *run, const char *message)
{
    if (!run->error[0])
        snprintf(run->error, sizeof run->error, "%.1000s", message);
    run->stop = true;
}

int stage_runner_next(StageRunner *run, uint64_t *pair, EngineParams params[2])
{
    params[0] = run->params[0];
    params[1] = run->params[1];
    if (run->stop)
        return 0;
    while (run->cursor < run->stage_end) {
        uint64_t p = run->cursor++;
        if (!match_file_done_has(&run->done, p)) {
            *pair = p;
            return 1;
        }
    }
    return run->over || run->stage_end >= run->n_pairs ? 0 : -1;
}

void stage_runner_begin_stage(StageRunner *run)
{
    const Tuner *t = run->tuner;
    if (t->finished) {
        run->over = true;
        run->stage_end = run->cursor;
    } else {
        run->stage = t->stage;
        run->cursor = (uint64_t)t->stage * run->cfg->pairs_per_stage;
        run->stage_end = run->cursor + run->cfg->pairs_per_stage;
        run->params[0] = t->params[0];
        run->params[1] = t->params[1];
    }
}

void stage_runner_tally(Tally *t, const double s[2], const GameEnding e[2], uint64_t nodes)
{
    for (int k = 0; k < 2; k++) {
        t->wins += s[k] == 1.0;
        t->draws += s[k] == 0.5;
        t->losses += s[k] == 0.0;
        t->endings[e[k]]++;
        t->games_done++;
    }
    t->nodes += nodes;
    t->pairs[stats_pair_class(s[0], s[1])]++;
    t->pairs_done++;
}

/* Player 1's score in game g of a pair (player 1 is White in game 0). */
static double player1_score(const GameRecord *g, int game)
{
    int white_score2 = g->result + 1; /* 2 win, 1 draw, 0 loss */
    return (game == 0 ? white_score2 : 2 - white_score2) / 2.0;
}

/* The player's limits in the pair's stage (a sweep's stage sets the nodes). */
static void limits_text(const MatchConfig *c, const PlayerConfig *p, uint64_t pair, char *out,
                        size_t len)
{
    PlayerLimits stage = p->limits;
    const uint64_t sweep = tune_sweep_nodes(&c->tune, (int)(pair / c->pairs_per_stage));
    if (sweep)
        stage.nodes = sweep;
    const PlayerLimits *l = &stage;
    size_t used = (size_t)snprintf(out, len, "%s:", p->name);
    if (l->nodes)
        used += (size_t)snprintf(out + used, len - used, " nodes %" PRIu64, l->nodes);
    if (l->depth)
        used += (size_t)snprintf(out + used, len - used, " depth %d", l->depth);
    if (l->movetime_ms)
        used +=
            (size_t)snprintf(out + used, len - used, " movetime %" PRId64 " ms", l->movetime_ms);
    if (l->base_ms)
        snprintf(out + used, len - used, " clock %.3f+%.3f s", l->base_ms / 1000.0,
                 l->inc_ms / 1000.0);
}

/* Counts a finished pair, writes its games, reports progress, consults the SPRT. */
static void record_pair(StageRunner *run, uint64_t pair, GameRecord g[2])
{
    const MatchConfig *c = run->cfg;
    Tally *t = &run->tally;
    double s[2] = { player1_score(&g[0], 0), player1_score(&g[1], 1) };
    GameEnding e[2] = { g[0].ending, g[1].ending };
    uint64_t nodes = g[0].nodes[0] + g[0].nodes[1] + g[1].nodes[0] + g[1].nodes[1];

    char limits[2][160], both[330];
    limits_text(c, &c->players[0], pair, limits[0], sizeof limits[0]);
    limits_text(c, &c->players[1], pair, limits[1], sizeof limits[1]);
    snprintf(both, sizeof both, "%s; %s", limits[0], limits[1]);
    bool in_pgn = true;
    for (int k = 0; k < 2 && run->pgn && in_pgn; k++) {
        char round[48], err[256];
        snprintf(round, sizeof round, "%" PRIu64 ".%d", pair + 1, k + 1);
        const char *names[2] = { c->players[0].name, c->players[1].name };
        PgnGame pg = { .event = "carrera match",
                       .site = c->file,
                       .date = run->date,
                       .round = round,
                       .white = names[k],
                       .black = names[1 - k],
                       .limits = both,
                       .record = &g[k] };
        if (pgn_write(run->pgn, &pg, err, sizeof err) != 0) {
            in_pgn = false;
        } else if (fflush(run->pgn) != 0) {
            snprintf(err, sizeof err, "%s", strerror(errno));
            in_pgn = false;
        }
        if (!in_pgn) {
            char message[ERRMSG_LEN];
            snprintf(message, sizeof message, "%.500s: %.500s", c->pgn, err);
            stage_runner_fail(run, message);
        }
    }

    /* then the result file, the checkpoint: a pair is done once it is there, and a resume
     * keeps exactly the PGN games of the pairs done. So a pair the PGN file could not take
     * (a full disk) is not recorded: a resume drops its partial text and plays it again. */
    char h5err[ERRMSG_LEN];
    if (!in_pgn)
        return;
    if (run->h5 && match_file_record_pair(run->h5, pair, g, h5err, sizeof h5err) != 0) {
        char message[1100];
        snprintf(message, sizeof message, "%.500s: %.500s", c->output, h5err);
        stage_runner_fail(run, message);
        return;
    }
    stage_runner_tally(t, s, e, nodes);
    if (c->n_imbalances)
        stage_runner_tally(&run->groups[match_imbalance_of(c, pair)], s, e, nodes);
    if (run->tuner && tuner_add_pair(run->tuner, pair, s)) {
        /* a stage is complete: the file shows it before the next one begins */
        if (run->h5 && match_file_write_tune(run->h5, run->tuner, h5err, sizeof h5err) != 0) {
            char message[1100];
            snprintf(message, sizeof message, "%.500s: %.500s", c->output, h5err);
            stage_runner_fail(run, message);
        }
        stage_runner_begin_stage(run);
    }
    if (c->sprt && run->sprt.decision == SPRT_CONTINUE) {
        stats_sprt_update(&run->sprt, t->pairs);
        if (run->sprt.decision != SPRT_CONTINUE)
            run->stop = true;
    }
    char eta[32];
    double elapsed = progress_due(&run->progress, t->pairs_done, run->n_pairs, eta);
    if (elapsed > 0) {
        TrinomialStats tri;
        stats_trinomial(t->wins, t->draws, t->losses, &tri);
        char sprt[64] = "";
        if (c->sprt)
            snprintf(sprt, sizeof sprt, ", LLR %.2f [%.2f, %.2f]", run->sprt.llr, run->sprt.lower,
                     run->sprt.upper);
        progress_print(&run->progress,
                       "%" PRIu64 "/%" PRIu64 " games, W-D-L %" PRIu64 "-%" PRIu64 "-%" PRIu64
                       ", score %.3f, Elo %+.1f [%+.1f, %+.1f]%s, %.1f games/min, ETA %s",
                       t->games_done, 2 * run->n_pairs, t->wins, t->draws, t->losses, tri.score,
                       tri.elo, tri.elo_lo, tri.elo_hi, sprt,
                       (double)(t->games_done - run->games_before) * 60.0 / elapsed, eta);
    }
}

void stage_runner_record(StageRunner *run, uint64_t pair, GameRecord g[2])
{
    record_pair(run, pair, g);
    game_record_free(&g[0]);
    game_record_free(&g[1]);
}
