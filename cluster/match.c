/* `carrera match`: game pairs between two players on every core of this process, each thread
 * with its own two players, pairs handed out in order; every finished pair is counted, written
 * to the PGN file and checked against the SPRT at once. The statistics are those of
 * core/stats.c, from player 1's view. */
#define _POSIX_C_SOURCE 200809L

#include "match.h"

#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_error.h"
#include "match_config.h"
#include "match_game.h"
#include "openings.h"
#include "options.h"
#include "pgn.h"
#include "progress.h"
#include "provenance.h"
#include "stats.h"

void match_usage(FILE *out)
{
    fputs("usage: carrera match --config FILE.ini [--out RESULT.h5] [--pgn GAMES.pgn] [--quiet]\n"
          "\n"
          "Plays the match of FILE.ini: game pairs (each opening twice, colours reversed) between\n"
          "[player1] and [player2], several games at once (one per thread), and prints player 1's\n"
          "score, Elo with 95% intervals (per game and per pair), LOS and the SPRT's verdict.\n"
          "Every game goes to the PGN file as soon as its pair is finished. Progress on stderr.\n"
          "The configuration keys are in the README (\"Match files\").\n",
          out);
}

/* Everything counted so far, from player 1's view. */
typedef struct Tally {
    uint64_t wins, draws, losses;
    uint64_t pairs[PAIR_CLASSES];
    uint64_t endings[END_NB];
    uint64_t pairs_done, games_done;
    uint64_t nodes;
} Tally;

typedef struct Run {
    const MatchConfig *cfg;
    Openings openings;
    FILE *pgn;
    char date[16];
    uint64_t n_pairs;
    atomic_uint_fast64_t next_pair;
    atomic_bool stop;
    Tally tally;
    Sprt sprt;
    Progress progress;
    char error[1024]; /* the first error of any thread */
} Run;

static void set_error(Run *run, const char *message)
{
#pragma omp critical(match_error)
    {
        if (!run->error[0])
            snprintf(run->error, sizeof run->error, "%s", message);
    }
    atomic_store(&run->stop, true);
}

/* Player 1's score in game g of a pair (player 1 is White in game 0). */
static double player1_score(const GameRecord *g, int game)
{
    int white_score2 = g->result + 1; /* 2 win, 1 draw, 0 loss */
    return (game == 0 ? white_score2 : 2 - white_score2) / 2.0;
}

static void limits_text(const PlayerConfig *p, char *out, size_t len)
{
    const PlayerLimits *l = &p->limits;
    size_t used = (size_t)snprintf(out, len, "%s:", p->name);
    if (l->nodes)
        used += (size_t)snprintf(out + used, len - used, " nodes %" PRIu64, l->nodes);
    if (l->depth)
        used += (size_t)snprintf(out + used, len - used, " depth %d", l->depth);
    if (l->movetime_ms)
        used += (size_t)snprintf(out + used, len - used, " movetime %" PRId64 " ms", l->movetime_ms);
    if (l->base_ms)
        snprintf(out + used, len - used, " clock %.3f+%.3f s", l->base_ms / 1000.0, l->inc_ms / 1000.0);
}

/* Counts a finished pair, writes its games, reports progress, consults the SPRT. Called by one
 * thread at a time. */
static void record_pair(Run *run, uint64_t pair, GameRecord g[2])
{
    const MatchConfig *c = run->cfg;
    Tally *t = &run->tally;
    double s[2];
    for (int k = 0; k < 2; k++) {
        s[k] = player1_score(&g[k], k);
        t->wins += s[k] == 1.0;
        t->draws += s[k] == 0.5;
        t->losses += s[k] == 0.0;
        t->endings[g[k].ending]++;
        t->nodes += g[k].nodes[0] + g[k].nodes[1];
        t->games_done++;
    }
    t->pairs[stats_pair_class(s[0], s[1])]++;
    t->pairs_done++;

    char limits[2][160], both[330];
    limits_text(&c->players[0], limits[0], sizeof limits[0]);
    limits_text(&c->players[1], limits[1], sizeof limits[1]);
    snprintf(both, sizeof both, "%s; %s", limits[0], limits[1]);
    for (int k = 0; k < 2 && run->pgn; k++) {
        char round[48], err[256];
        snprintf(round, sizeof round, "%" PRIu64 ".%d", pair + 1, k + 1);
        const char *names[2] = { c->players[0].name, c->players[1].name };
        PgnGame pg = { .event = "carrera match", .site = c->file, .date = run->date,
                       .round = round, .white = names[k], .black = names[1 - k],
                       .limits = both, .record = &g[k] };
        if (pgn_write(run->pgn, &pg, err, sizeof err) != 0 || fflush(run->pgn) != 0) {
            char message[1024];
            snprintf(message, sizeof message, "%.500s: %.500s", c->pgn, err);
            set_error(run, message);
        }
    }

    if (c->sprt && run->sprt.decision == SPRT_CONTINUE) {
        stats_sprt_update(&run->sprt, t->pairs);
        if (run->sprt.decision != SPRT_CONTINUE)
            atomic_store(&run->stop, true);
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
                       tri.elo, tri.elo_lo, tri.elo_hi, sprt, t->games_done * 60.0 / elapsed, eta);
    }
}

/* One thread: its own two players, pairs until none is left or the match stops. */
static void play_pairs(Run *run)
{
    const MatchConfig *c = run->cfg;
    char err[1024];
    Player *players[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++) {
        players[i] = player_new(&c->players[i], c->variant, &c->rules, c->castle960, err, sizeof err);
        if (!players[i]) {
            set_error(run, err);
            break;
        }
    }
    while (players[0] && players[1] && !atomic_load(&run->stop)) {
        uint64_t pair = atomic_fetch_add(&run->next_pair, 1);
        if (pair >= run->n_pairs)
            break;
        Position start;
        if (openings_position(&run->openings, pair, &start, err, sizeof err) != 0) {
            set_error(run, err);
            break;
        }
        GameRecord g[2];
        int played = 0;
        for (; played < 2; played++) {
            Player *white = players[played], *black = players[1 - played];
            if (player_new_game(white, err, sizeof err) != 0
                || player_new_game(black, err, sizeof err) != 0
                || match_play_game(white, black, &start, &c->rules, c->castle960, &c->adjudication,
                                   &g[played], err, sizeof err) != 0) {
                set_error(run, err);
                break;
            }
        }
        if (played == 2) {
#pragma omp critical(match_record)
            record_pair(run, pair, g);
        }
        for (int k = 0; k < played; k++)
            game_record_free(&g[k]);
    }
    player_free(players[0]);
    player_free(players[1]);
}

static void print_summary(const Run *run, double seconds)
{
    const MatchConfig *c = run->cfg;
    const Tally *t = &run->tally;
    printf("%s vs %s: %s, %s turns, %" PRIu64 " games (%" PRIu64 " pairs) in %.1f s\n",
           c->players[0].name, c->players[1].name, c->variant->name, turn_rules_name(c->rules.turns),
           t->games_done, t->pairs_done, seconds);
    TrinomialStats tri;
    PentanomialStats penta;
    if (!stats_trinomial(t->wins, t->draws, t->losses, &tri)) {
        printf("no game finished\n");
        return;
    }
    stats_pentanomial(t->pairs, &penta);
    printf("score of %s: W-D-L %" PRIu64 "-%" PRIu64 "-%" PRIu64 ", %.4f +- %.4f\n",
           c->players[0].name, t->wins, t->draws, t->losses, tri.score, 1.96 * tri.se);
    printf("Elo (per game):  %+.1f  95%% [%+.1f, %+.1f]\n", tri.elo, tri.elo_lo, tri.elo_hi);
    printf("Elo (per pair):  %+.1f  95%% [%+.1f, %+.1f]  nElo %+.1f\n", penta.elo, penta.elo_lo,
           penta.elo_hi, penta.nelo);
    printf("pairs LL %" PRIu64 "  LD %" PRIu64 "  WL+DD %" PRIu64 "  WD %" PRIu64 "  WW %" PRIu64
           "\n",
           t->pairs[PAIR_LL], t->pairs[PAIR_LD], t->pairs[PAIR_EVEN], t->pairs[PAIR_WD],
           t->pairs[PAIR_WW]);
    printf("LOS %.1f %%  draw ratio %.1f %%\n", 100.0 * tri.los, 100.0 * tri.draw_ratio);
    if (c->sprt)
        printf("SPRT elo0 %.1f elo1 %.1f alpha %.3f beta %.3f: LLR %.3f [%.3f, %.3f], %s\n",
               c->sprt_elo0, c->sprt_elo1, c->sprt_alpha, c->sprt_beta, run->sprt.llr,
               run->sprt.lower, run->sprt.upper, stats_sprt_decision_name(run->sprt.decision));
    printf("endings:");
    for (int e = 0; e < END_NB; e++)
        if (t->endings[e])
            printf(" %s %" PRIu64 ",", game_ending_name((GameEnding)e), t->endings[e]);
    printf("\n");
}

int match_command(int argc, char **argv)
{
    const char *config = NULL, *out = NULL, *pgn = NULL;
    bool quiet = false;
    const Option options[] = { { "--config", &config, NULL },
                               { "--out", &out, NULL },
                               { "--pgn", &pgn, NULL },
                               { "--quiet", NULL, &quiet },
                               { NULL, NULL, NULL } };
    int parsed = options_parse(argc, argv, "match", options);
    if (parsed == 1) {
        match_usage(stdout);
        return 0;
    }
    if (parsed < 0)
        return EXIT_USAGE;
    if (!config)
        return cli_error("match needs --config FILE.ini (see carrera match --help)");
    MatchConfig cfg;
    char err[1024];
    if (match_config_read(config, &cfg, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (out)
        snprintf(cfg.output, sizeof cfg.output, "%s", out);
    if (pgn)
        snprintf(cfg.pgn, sizeof cfg.pgn, "%s", pgn);

    Run *run = calloc(1, sizeof *run);
    if (!run) {
        match_config_free(&cfg);
        return cli_error("out of memory");
    }
    run->cfg = &cfg;
    run->n_pairs = (uint64_t)cfg.games / 2;
    atomic_init(&run->next_pair, 0);
    atomic_init(&run->stop, false);
    int status = 0;
    if (openings_load(&run->openings, &cfg, err, sizeof err) != 0) {
        status = cli_error("%s", err);
        goto done;
    }
    if (cfg.sprt && !stats_sprt_init(&run->sprt, cfg.sprt_elo0, cfg.sprt_elo1, cfg.sprt_alpha,
                                     cfg.sprt_beta, err, sizeof err)) {
        status = cli_error("%s: %s", cfg.file, err);
        goto done;
    }
    run->pgn = fopen(cfg.pgn, "w");
    if (!run->pgn) {
        status = cli_error("cannot write the PGN file %s", cfg.pgn);
        goto done;
    }
    time_t now = time(NULL);
    strftime(run->date, sizeof run->date, "%Y.%m.%d", gmtime(&now));
    progress_start(&run->progress, "match", quiet);
    int threads = cfg.concurrency > 0 ? cfg.concurrency : omp_get_max_threads();
    if ((uint64_t)threads > run->n_pairs)
        threads = (int)run->n_pairs;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
#pragma omp parallel num_threads(threads)
    play_pairs(run);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    progress_finish(&run->progress);
    if (fclose(run->pgn) != 0 && !run->error[0])
        snprintf(run->error, sizeof run->error, "cannot write the PGN file %.900s", cfg.pgn);
    run->pgn = NULL;
    print_summary(run, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    fprintf(stderr, "games: %s\n", cfg.pgn);
    if (run->error[0]) {
        fprintf(stderr, "carrera: error: %s\n", run->error);
        status = 1;
    }
done:
    if (run->pgn)
        fclose(run->pgn);
    openings_free(&run->openings);
    free(run);
    match_config_free(&cfg);
    return status;
}
