/* `carrera match`: game pairs between two players on every core of this process, each thread
 * with its own two players, pairs handed out in order; every finished pair is counted, written
 * to the PGN file and checked against the SPRT at once. The statistics are those of
 * core/stats.c, from player 1's view. */
#define _POSIX_C_SOURCE 200809L

#include "match.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_error.h"
#include "comm.h"
#include "estimate.h"
#include "match_config.h"
#include "match_game.h"
#include "h5match.h"
#include "match_wire.h"
#include "openings.h"
#include "options.h"
#include "paths.h"
#include "pgn.h"
#include "progress.h"
#include "provenance.h"
#include "stats.h"
#include "tune.h"
#include "tune_sources.h"

void match_usage(FILE *out)
{
    fputs("usage: carrera match --config FILE.ini [--out RESULT.h5] [--pgn GAMES.pgn] [--resume]\n"
          "                     [--quiet]\n"
          "\n"
          "Plays the match of FILE.ini: game pairs (each opening twice, colours reversed) between\n"
          "[player1] and [player2], several games at once (one per thread), and prints player 1's\n"
          "score, Elo with 95% intervals (per game and per pair), LOS and the SPRT's verdict.\n"
          "Every finished pair goes to the PGN file and to the HDF5 result file (a checkpoint:\n"
          "--resume continues a killed match from it, playing only the pairs not recorded).\n"
          "Progress on stderr.\n"
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
    int threads;                  /* games at once in this process */
    pthread_mutex_t record_lock;  /* record_pair is called by one thread at a time */
    pthread_mutex_t error_lock;   /* the first error is kept */
    Openings openings;
    FILE *pgn;
    char date[16];
    uint64_t n_pairs;             /* planned: every stage's */
    /* Pairs are handed out stage by stage (a plain match is one stage); under record_lock: */
    pthread_cond_t advanced;      /* a stage began or the run ended */
    int stage;
    uint64_t cursor, stage_end;   /* the next pair to consider; the current stage ends before */
    EvalParams eval[2];           /* the players' evaluation in the current stage */
    bool over;                    /* no stage is left to begin (a tuner's values agreed) */
    H5MatchDone done;             /* the pairs a checkpoint held: not played again */
    Tuner *tuner;                 /* a tune run's methods, NULL for a match */
    H5Match *h5;                  /* rank 0: the result file, written as pairs finish */
    bool resumed;
    uint64_t games_before;        /* games the checkpoint held: not this run's work */
    atomic_bool stop;
    Tally tally;
    Tally groups[MATCH_MAX_IMBALANCES]; /* a material-odds match: the tally of each imbalance */
    Sprt sprt;
    Progress progress;
    char error[1024]; /* the first error of any thread */
} Run;

static void set_error(Run *run, const char *message)
{
    pthread_mutex_lock(&run->error_lock);
    if (!run->error[0])
        snprintf(run->error, sizeof run->error, "%.1000s", message);
    pthread_mutex_unlock(&run->error_lock);
    atomic_store(&run->stop, true);
}

/* Up to max pairs of the current stage into out and the stage's evaluation of the two players
 * into eval. Returns how many; 0 when no pair is left to play at all (or the run stops); -1
 * when the stage's pairs are all handed out and the next stage waits for their results (with
 * wait true, it waits for that stage instead). */
static int take_pairs(Run *run, int max, uint64_t *out, EvalParams eval[2], bool wait)
{
    pthread_mutex_lock(&run->record_lock);
    int n = 0;
    while (!atomic_load(&run->stop)) {
        while (n < max && run->cursor < run->stage_end) {
            uint64_t p = run->cursor++;
            if (!h5match_done_has(&run->done, p))
                out[n++] = p;
        }
        if (n > 0 || run->over || run->stage_end >= run->n_pairs)
            break;
        if (!wait) {
            n = -1;
            break;
        }
        /* timed: set_error wakes no one */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&run->advanced, &run->record_lock, &until);
    }
    eval[0] = run->eval[0];
    eval[1] = run->eval[1];
    pthread_mutex_unlock(&run->record_lock);
    return n;
}

/* The tuner's current stage becomes the run's (or the run is over); under record_lock. */
static void begin_stage(Run *run)
{
    const Tuner *t = run->tuner;
    if (t->finished) {
        run->over = true;
        run->stage_end = run->cursor;
    } else {
        run->stage = t->stage;
        run->cursor = (uint64_t)t->stage * run->cfg->pairs_per_stage;
        run->stage_end = run->cursor + run->cfg->pairs_per_stage;
        run->eval[0] = t->eval[0];
        run->eval[1] = t->eval[1];
    }
    pthread_cond_broadcast(&run->advanced);
}

/* Counts a pair's two games from player 1's view. */
static void tally_pair(Tally *t, const double s[2], const GameEnding e[2], uint64_t nodes)
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
    double s[2] = { player1_score(&g[0], 0), player1_score(&g[1], 1) };
    GameEnding e[2] = { g[0].ending, g[1].ending };
    uint64_t nodes = g[0].nodes[0] + g[0].nodes[1] + g[1].nodes[0] + g[1].nodes[1];

    char limits[2][160], both[330];
    limits_text(&c->players[0], limits[0], sizeof limits[0]);
    limits_text(&c->players[1], limits[1], sizeof limits[1]);
    snprintf(both, sizeof both, "%s; %s", limits[0], limits[1]);
    bool in_pgn = true;
    for (int k = 0; k < 2 && run->pgn && in_pgn; k++) {
        char round[48], err[256];
        snprintf(round, sizeof round, "%" PRIu64 ".%d", pair + 1, k + 1);
        const char *names[2] = { c->players[0].name, c->players[1].name };
        PgnGame pg = { .event = "carrera match", .site = c->file, .date = run->date,
                       .round = round, .white = names[k], .black = names[1 - k],
                       .limits = both, .record = &g[k] };
        if (pgn_write(run->pgn, &pg, err, sizeof err) != 0) {
            in_pgn = false;
        } else if (fflush(run->pgn) != 0) {
            snprintf(err, sizeof err, "%s", strerror(errno));
            in_pgn = false;
        }
        if (!in_pgn) {
            char message[1024];
            snprintf(message, sizeof message, "%.500s: %.500s", c->pgn, err);
            set_error(run, message);
        }
    }

    /* then the result file, the checkpoint: a pair is done once it is there, and a resume
     * keeps exactly the PGN games of the pairs done. So a pair the PGN file could not take
     * (a full disk) is not recorded: a resume drops its partial text and plays it again. */
    char h5err[1024];
    if (!in_pgn)
        return;
    if (run->h5 && h5match_record_pair(run->h5, pair, g, h5err, sizeof h5err) != 0) {
        char message[1100];
        snprintf(message, sizeof message, "%.500s: %.500s", c->output, h5err);
        set_error(run, message);
        return;
    }
    tally_pair(t, s, e, nodes);
    if (c->n_imbalances)
        tally_pair(&run->groups[match_imbalance_of(c, pair)], s, e, nodes);
    if (run->tuner && tuner_add_pair(run->tuner, pair, s)) {
        /* a stage is complete: the file shows it before the next one begins */
        if (run->h5 && h5match_write_tune(run->h5, run->tuner, h5err, sizeof h5err) != 0) {
            char message[1100];
            snprintf(message, sizeof message, "%.500s: %.500s", c->output, h5err);
            set_error(run, message);
        }
        begin_stage(run);
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
                       tri.elo, tri.elo_lo, tri.elo_hi, sprt,
                       (double)(t->games_done - run->games_before) * 60.0 / elapsed, eta);
    }
}

/* Both games of a pair with the thread's players; 0, or -1 with a message (g freed). */
static int play_pair(const MatchConfig *c, const Openings *o, Player *players[2], uint64_t pair,
                     GameRecord g[2], char *err, size_t errlen)
{
    for (int k = 0; k < 2; k++) {
        Position start;
        if (openings_position(o, pair, k, &start, err, errlen) != 0) {
            if (k == 1)
                game_record_free(&g[0]);
            return -1;
        }
        Player *white = players[k], *black = players[1 - k];
        if (player_new_game(white, err, errlen) != 0 || player_new_game(black, err, errlen) != 0
            || match_play_game(white, black, &start, &c->rules, c->castle960, &c->adjudication,
                               &g[k], err, errlen) != 0) {
            if (k == 1)
                game_record_free(&g[0]);
            return -1;
        }
    }
    return 0;
}

/* The thread's two players, made on first use; false with a message when they cannot be. */
static bool ready_players(const MatchConfig *c, Player *players[2], char *err, size_t errlen)
{
    for (int i = 0; i < 2; i++)
        if (!players[i]
            && !(players[i] = player_new(&c->players[i], c->variant, &c->rules, c->castle960, err,
                                         errlen)))
            return false;
    return true;
}

static void record(Run *run, uint64_t pair, GameRecord g[2])
{
    pthread_mutex_lock(&run->record_lock);
    record_pair(run, pair, g);
    pthread_mutex_unlock(&run->record_lock);
    game_record_free(&g[0]);
    game_record_free(&g[1]);
}

/* One thread of this process: its own two players, pairs until none is left or the match
 * stops. */
static void play_pairs(Run *run)
{
    const MatchConfig *c = run->cfg;
    char err[1024];
    Player *players[2] = { NULL, NULL };
    if (!ready_players(c, players, err, sizeof err))
        set_error(run, err);
    while (players[0] && players[1] && !atomic_load(&run->stop)) {
        uint64_t pair;
        EvalParams eval[2];
        if (take_pairs(run, 1, &pair, eval, true) <= 0)
            break;
        player_set_eval(players[0], &eval[0]);
        player_set_eval(players[1], &eval[1]);
        GameRecord g[2];
        if (play_pair(c, &run->openings, players, pair, g, err, sizeof err) != 0) {
            set_error(run, err);
            break;
        }
        record(run, pair, g);
    }
    player_free(players[0]);
    player_free(players[1]);
}

static void *local_play(void *arg)
{
    Run *run = arg;
#pragma omp parallel num_threads(run->threads)
    play_pairs(run);
    return NULL;
}

/* Answers a worker's request for up to want pairs: pairs of the current stage, or stop when
 * none is left (*active then counts one worker less). Returns false when the worker must wait
 * for the next stage (nothing is sent). */
static bool serve(Run *run, int to, uint32_t want, uint64_t *pairs, int *active)
{
    EvalParams eval[2];
    int n = take_pairs(run, (int)(want < WIRE_MAX_PAIRS ? want : WIRE_MAX_PAIRS), pairs, eval, false);
    if (n < 0)
        return false;
    size_t bytes;
    unsigned char *reply = n ? wire_pairs(pairs, (uint32_t)n, eval, &bytes) : wire_stop(&bytes);
    if (!reply) {
        set_error(run, "out of memory");
        comm_abort(1);
    }
    comm_send_packet(to, reply, bytes);
    free(reply);
    if (n == 0)
        (*active)--;
    return true;
}

/* Rank 0 under MPI: hands pairs to the workers as they ask (a worker that asks while a stage's
 * last pairs are still being played waits for the next stage), records what they send back, and
 * plays pairs itself on a thread of its own meanwhile. */
static void coordinate(Run *run)
{
    pthread_t local;
    bool local_running = pthread_create(&local, NULL, local_play, run) == 0;
    if (!local_running)
        set_error(run, "cannot start rank 0's playing thread");
    WireMessage *m = malloc(sizeof *m);
    uint64_t *pairs = malloc(WIRE_MAX_PAIRS * sizeof *pairs);
    int ranks = comm_size();
    int *waiting = malloc((size_t)ranks * sizeof *waiting);
    uint32_t *wants = malloc((size_t)ranks * sizeof *wants);
    if (!m || !pairs || !waiting || !wants) {
        set_error(run, "out of memory");
        comm_abort(1);
    }
    int active = ranks - 1, n_waiting = 0;
    while (active > 0) {
        for (int i = 0; i < n_waiting;)
            if (serve(run, waiting[i], wants[i], pairs, &active)) {
                waiting[i] = waiting[--n_waiting];
                wants[i] = wants[n_waiting];
            } else {
                i++;
            }
        size_t len;
        int from;
        unsigned char *data = comm_poll_packet(false, &len, &from);
        if (!data) {
            nanosleep(&(struct timespec){ .tv_nsec = 1000 * 1000 }, NULL);
            continue;
        }
        char err[1024];
        if (wire_decode(data, len, &run->openings, m, err, sizeof err) != 0) {
            char message[1100];
            snprintf(message, sizeof message, "rank %d: %s", from, err);
            set_error(run, message);
            free(data);
            /* a worker whose message cannot be read is stopped like the others */
            size_t n;
            unsigned char *stop = wire_stop(&n);
            if (stop)
                comm_send_packet(from, stop, n);
            free(stop);
            active--;
            continue;
        }
        free(data);
        if (m->kind == WIRE_REQUEST) {
            if (!serve(run, from, m->count, pairs, &active)) {
                waiting[n_waiting] = from;
                wants[n_waiting++] = m->count;
            }
        } else if (m->kind == WIRE_RESULT) {
            record(run, m->pair, m->games);
        } else if (m->kind == WIRE_FAILED) {
            char message[1100];
            snprintf(message, sizeof message, "rank %d: %s", from, m->text);
            set_error(run, message);
        }
    }
    free(m);
    free(pairs);
    free(waiting);
    free(wants);
    if (local_running)
        pthread_join(local, NULL);
}

/* A worker rank: asks rank 0 for as many pairs as it has threads, plays them (one pair per
 * thread), sends each back, and asks again until told to stop. */
static void work(const MatchConfig *c, const Openings *o, int threads)
{
    Player *(*players)[2] = calloc((size_t)threads, sizeof *players);
    WireMessage *m = malloc(sizeof *m);
    GameRecord(*games)[2] = calloc(WIRE_MAX_PAIRS, sizeof *games);
    int *status = calloc(WIRE_MAX_PAIRS, sizeof *status);
    char(*errors)[1024] = calloc(WIRE_MAX_PAIRS, sizeof *errors);
    if (!players || !m || !games || !status || !errors) {
        fprintf(stderr, "carrera: error: rank %d: out of memory\n", comm_rank());
        comm_abort(1);
    }
    for (;;) {
        size_t len;
        unsigned char *ask = wire_request((uint32_t)threads, &len);
        if (!ask)
            comm_abort(1);
        comm_send_packet(0, ask, len);
        free(ask);
        int from;
        unsigned char *data = comm_poll_packet(true, &len, &from);
        char err[1024];
        if (wire_decode(data, len, o, m, err, sizeof err) != 0 || m->kind == WIRE_STOP) {
            free(data);
            break;
        }
        free(data);
        if (m->kind != WIRE_PAIRS)
            break;
        int n = (int)m->n_pairs;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (int i = 0; i < n; i++) {
            Player **mine = players[omp_get_thread_num()];
            bool ready = ready_players(c, mine, errors[i], sizeof errors[i]);
            if (ready) {
                player_set_eval(mine[0], &m->eval[0]);
                player_set_eval(mine[1], &m->eval[1]);
            }
            status[i] = ready ? play_pair(c, o, mine, m->pairs[i], games[i], errors[i], sizeof errors[i])
                              : -1;
        }
        for (int i = 0; i < n; i++) {
            unsigned char *out = status[i] == 0 ? wire_result(m->pairs[i], games[i], &len)
                                                : wire_failed(errors[i], &len);
            if (!out)
                comm_abort(1);
            comm_send_packet(0, out, len);
            free(out);
            if (status[i] == 0) {
                game_record_free(&games[i][0]);
                game_record_free(&games[i][1]);
            }
        }
    }
    for (int t = 0; t < threads; t++) {
        player_free(players[t][0]);
        player_free(players[t][1]);
    }
    free(players);
    free(m);
    free(games);
    free(status);
    free(errors);
}

/* A material-odds match: each imbalance's result for the side under test (player 1). */
static void print_imbalances(const Run *run)
{
    const MatchConfig *c = run->cfg;
    printf("imbalance   games  W-D-L            score    Elo per game            Elo per pair\n");
    for (int i = 0; i < c->n_imbalances; i++) {
        const Tally *t = &run->groups[i];
        TrinomialStats tri;
        PentanomialStats penta;
        if (!stats_trinomial(t->wins, t->draws, t->losses, &tri)) {
            printf("%-10s  %5d  (not played)\n", c->imbalances[i].name, 0);
            continue;
        }
        stats_pentanomial(t->pairs, &penta);
        char wdl[32];
        snprintf(wdl, sizeof wdl, "%" PRIu64 "-%" PRIu64 "-%" PRIu64, t->wins, t->draws, t->losses);
        printf("%-10s  %5" PRIu64 "  %-15s  %.4f  %+7.1f [%+7.1f, %+7.1f]  %+7.1f [%+7.1f, %+7.1f]\n",
               c->imbalances[i].name, t->games_done, wdl, tri.score, tri.elo, tri.elo_lo,
               tri.elo_hi, penta.elo, penta.elo_lo, penta.elo_hi);
    }
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
    if (c->n_imbalances)
        print_imbalances(run);
    if (c->sprt)
        printf("SPRT elo0 %.1f elo1 %.1f alpha %.3f beta %.3f: LLR %.3f [%.3f, %.3f], %s\n",
               c->sprt_elo0, c->sprt_elo1, c->sprt_alpha, c->sprt_beta, run->sprt.llr,
               run->sprt.lower, run->sprt.upper, stats_sprt_decision_name(run->sprt.decision));
    printf("endings:");
    const char *separator = " ";
    for (int e = 0; e < END_NB; e++)
        if (t->endings[e]) {
            printf("%s%s %" PRIu64, separator, game_ending_name((GameEnding)e), t->endings[e]);
            separator = ", ";
        }
    printf("\n");
}

/* Rank 0's set-up: the SPRT and the PGN file. Returns 0, or the exit status with a message. */
/* Keeps of the PGN file at path only the games of pairs done (a pair the kill caught between its
 * PGN games and the result file is played again), then opens it for appending. NULL with a
 * message when the file cannot be rewritten. */
static FILE *reopen_pgn(const char *path, const H5MatchDone *done, char *err, size_t errlen)
{
    /* only a file is read back: a device or pipe (/dev/zero) would be read for ever */
    struct stat st;
    FILE *old = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "r") : NULL;
    char *text = NULL;
    size_t len = 0;
    if (old) {
        FILE *mem = open_memstream(&text, &len);
        char buf[65536];
        size_t got;
        while (mem && (got = fread(buf, 1, sizeof buf, old)) > 0)
            fwrite(buf, 1, got, mem);
        fclose(old);
        if (!mem || fclose(mem) != 0) {
            snprintf(err, errlen, "cannot read the PGN file %.900s", path);
            return NULL;
        }
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        free(text);
        snprintf(err, errlen, "cannot write the PGN file %.900s", path);
        return NULL;
    }
    for (char *game = text ? strstr(text, "[Event ") : NULL; game;) {
        char *next = strstr(game + 1, "\n[Event ");
        size_t n = next ? (size_t)(next + 1 - game) : strlen(game);
        unsigned long long pair;
        const char *round = strstr(game, "[Round \"");
        if (round && round < game + n && sscanf(round, "[Round \"%llu.", &pair) == 1 && pair > 0
            && h5match_done_has(done, pair - 1))
            fwrite(game, 1, n, f);
        game = next ? next + 1 : NULL;
    }
    free(text);
    if (fflush(f) != 0) {
        fclose(f);
        snprintf(err, errlen, "cannot write the PGN file %.900s", path);
        return NULL;
    }
    return f;
}

/* Rank 0's set-up: the SPRT, the result file (new, or the checkpoint to continue with the pairs
 * it holds counted and skipped) and the PGN file. Returns 0, or the exit status with a message. */
static int start_rank0(Run *run, MatchConfig *cfg, const Provenance *prov, bool resume, char *err,
                       size_t errlen)
{
    if (cfg->sprt && !stats_sprt_init(&run->sprt, cfg->sprt_elo0, cfg->sprt_elo1, cfg->sprt_alpha,
                                      cfg->sprt_beta, err, errlen))
        return EXIT_USAGE;
    if (make_parent_dirs(cfg->output, err, errlen) != 0 || make_parent_dirs(cfg->pgn, err, errlen) != 0)
        return 1;
    H5MatchInfo info = { .cfg = cfg, .prov = prov, .overwrite = false };
    if (resume) {
        run->h5 = h5match_open_resume(cfg->output, &info, &run->done, err, errlen);
        if (!run->h5)
            return EXIT_USAGE;
        run->resumed = true;
        for (size_t i = 0; i < run->done.n; i++) {
            const H5MatchPair *d = &run->done.pairs[i];
            uint64_t nodes = d->nodes[0] + d->nodes[1];
            tally_pair(&run->tally, d->score, d->ending, nodes);
            if (cfg->n_imbalances)
                tally_pair(&run->groups[match_imbalance_of(cfg, d->pair)], d->score, d->ending, nodes);
            if (!run->tuner)
                continue;
            /* the tuner's state is rebuilt stage by stage, as the pairs came in */
            if (run->tuner->finished || d->pair / cfg->pairs_per_stage != (uint64_t)run->tuner->stage) {
                snprintf(err, errlen,
                         "%.900s holds pair %" PRIu64 " of iteration %" PRIu64
                         " although iteration %d is not complete: not a checkpoint of this run",
                         cfg->output, d->pair + 1, d->pair / cfg->pairs_per_stage + 1,
                         run->tuner->stage + 1);
                return EXIT_USAGE;
            }
            if (tuner_add_pair(run->tuner, d->pair, d->score))
                begin_stage(run);
        }
        run->games_before = run->tally.games_done;
        if (cfg->sprt)
            stats_sprt_update(&run->sprt, run->tally.pairs);
        run->pgn = reopen_pgn(cfg->pgn, &run->done, err, errlen);
    } else {
        run->h5 = h5match_create(cfg->output, &info, err, errlen);
        if (!run->h5)
            return EXIT_USAGE;
        run->pgn = fopen(cfg->pgn, "w");
        if (!run->pgn) {
            snprintf(err, errlen, "cannot write the PGN file %.800s: %s", cfg->pgn,
                     strerror(errno));
            /* the result file made just now holds nothing: the corrected command starts
             * afresh instead of being told to resume */
            char ignored[256];
            h5match_close(run->h5, ignored, sizeof ignored);
            run->h5 = NULL;
            remove(cfg->output);
        }
    }
    if (!run->pgn)
        return 1;
    time_t now = time(NULL);
    strftime(run->date, sizeof run->date, "%Y.%m.%d", gmtime(&now));
    return 0;
}

void tune_usage(FILE *out)
{
    fputs("usage: carrera tune --config FILE.ini [--out RESULT.h5] [--pgn GAMES.pgn] [--resume]\n"
          "                    [--quiet]\n"
          "\n"
          "Piece values from self-play. FILE.ini is a match file (as carrera match plays it: MPI,\n"
          "PGN, result file, resume) with a [tune] section choosing the method:\n"
          "  imbalance   material-odds matches (`imbalances = Q:A, N:PPP, P*2` in [match]), one\n"
          "              least-squares fit of all of them: each piece's value in pawns with its\n"
          "              95% interval; `iterations = K` plays again with the values measured\n"
          "              until they agree with the values played\n"
          "  spsa        SPSA over evaluation parameters (`params = ...`, fishtest's schedule),\n"
          "              `iterations` x `pairs_per_iteration` game pairs, theta recorded\n"
          "  regression  ordered logit of results on material over the match's games, or over\n"
          "              earlier result files (`games = A.h5, B.h5`, a file with only [tune])\n"
          "Everything goes to the result file's /tune group (README \"Tune files\");\n"
          "scripts/plot-tuning draws it.\n",
          out);
}

/* `carrera match` and `carrera tune` (tune: the file must be a material-odds match, and the
 * piece values are fitted at the end). */
static int run_command(int argc, char **argv, bool tune)
{
    const char *config = NULL, *out = NULL, *pgn = NULL;
    bool quiet = false, resume = false;
    const Option options[] = { { "--config", &config, NULL },
                               { "--out", &out, NULL },
                               { "--pgn", &pgn, NULL },
                               { "--resume", NULL, &resume },
                               { "--quiet", NULL, &quiet },
                               { NULL, NULL, NULL } };
    const char *command = tune ? "tune" : "match";
    int parsed = options_parse(argc, argv, command, options);
    if (parsed == 1) {
        (tune ? tune_usage : match_usage)(stdout);
        return 0;
    }
    if (parsed < 0)
        return EXIT_USAGE;
    if (!config)
        return cli_error("%s needs --config FILE.ini (see carrera %s --help)", command, command);
    if (tune) {
        bool handled;
        int status = tune_sources_run(config, out, &handled);
        if (handled || status)
            return status;
    }
    char err[1024] = "";
    if (comm_init(NULL, NULL, err, sizeof err) != 0)
        return cli_error("%s", err);

    MatchConfig cfg = { 0 };
    Run *run = calloc(1, sizeof *run);
    char **hosts = NULL;
    Provenance prov;
    int status = 0;
    if (comm_gather_hosts(&hosts) != 0) {
        snprintf(err, sizeof err, "out of memory gathering the host names");
        status = 1;
    } else if (!run) {
        snprintf(err, sizeof err, "out of memory");
        status = 1;
    } else if (match_config_read(config, &cfg, err, sizeof err) != 0) {
        status = EXIT_USAGE;
    } else if (tune && !cfg.tune.given && cfg.n_imbalances == 0) {
        snprintf(err, sizeof err,
                 "%.900s: a tune run needs imbalances = ... in [match] (e.g. Q:A, N:PPP, P)",
                 config);
        status = EXIT_USAGE;
    } else {
        if (out)
            snprintf(cfg.output, sizeof cfg.output, "%s", out);
        if (pgn)
            snprintf(cfg.pgn, sizeof cfg.pgn, "%s", pgn);
        run->cfg = &cfg;
        run->n_pairs = (uint64_t)cfg.games / 2;
        run->threads = cfg.concurrency > 0 ? cfg.concurrency : omp_get_max_threads();
        pthread_mutex_init(&run->record_lock, NULL);
        pthread_mutex_init(&run->error_lock, NULL);
        pthread_cond_init(&run->advanced, NULL);
        atomic_init(&run->stop, false);
        run->stage_end = cfg.pairs_per_stage < run->n_pairs ? cfg.pairs_per_stage : run->n_pairs;
        run->eval[0] = cfg.players[0].eval;
        run->eval[1] = cfg.players[1].eval;
        if (tune && !(run->tuner = malloc(sizeof *run->tuner))) {
            snprintf(err, sizeof err, "out of memory");
            status = 1;
        } else if (tune && tuner_init(run->tuner, &cfg, err, sizeof err) != 0) {
            free(run->tuner);
            run->tuner = NULL;
            status = EXIT_USAGE;
        } else if (tune) {
            run->eval[0] = run->tuner->eval[0];
            run->eval[1] = run->tuner->eval[1];
        }
        /* every thread has its two players, each with its table (or its engine's) */
        size_t tables = ((size_t)cfg.players[0].hash_mb + (size_t)cfg.players[1].hash_mb) << 20;
        if (status)
            ;
        else if (estimate_check_memory(tables * (size_t)run->threads,
                                       "the players' hash tables (hash, per game at once) would",
                                       err, sizeof err) != 0)
            status = EXIT_USAGE;
        else if (openings_load(&run->openings, &cfg, err, sizeof err) != 0)
            status = EXIT_USAGE;
        else if (comm_rank() == 0) {
            provenance_init(&prov, comm_size(), run->threads, (const char *const *)hosts,
                            (size_t)comm_size(), cfg.text);
            status = start_rank0(run, &cfg, &prov, resume, err, sizeof err);
        }
    }
    status = comm_agree(status, err);
    if (status == 0 && comm_rank() != 0) {
        work(&cfg, &run->openings, run->threads);
    } else if (status == 0) {
        estimate_note_match(&cfg, run->threads, comm_size());
        progress_start(&run->progress, "match", quiet);
        if (run->resumed && !quiet)
            fprintf(stderr, "match: resuming %s (resume %d): %" PRIu64 " of %" PRIu64
                    " pairs played before\n",
                    cfg.output, h5match_resume_count(run->h5), run->tally.pairs_done, run->n_pairs);
        uint64_t left = run->n_pairs - run->tally.pairs_done;
        if ((uint64_t)run->threads > left)
            run->threads = left > 0 ? (int)left : 1;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (comm_size() > 1) {
            coordinate(run);
        } else {
#pragma omp parallel num_threads(run->threads)
            play_pairs(run);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        progress_finish(&run->progress);
        if (fclose(run->pgn) != 0 && !run->error[0])
            snprintf(run->error, sizeof run->error, "cannot write the PGN file %.900s", cfg.pgn);
        run->pgn = NULL;
        /* a tune run's regression reads the games back from the result file */
        if (run->tuner && !run->error[0] && cfg.tune.method != TUNE_SPSA) {
            char h5err[1024];
            if (h5match_flush(run->h5, h5err, sizeof h5err) != 0)
                snprintf(run->error, sizeof run->error, "%.500s: %.500s", cfg.output, h5err);
            else
                tune_regress(run->tuner, (const char *const[]){ cfg.output }, 1, cfg.tune.skip_plies);
        }
        char h5err[1024];
        H5MatchSummary summary = { .sprt = cfg.sprt ? &run->sprt : NULL, .end_time = NULL,
                                   .tune = run->tuner,
                                   .stop_reason = run->tuner && run->tuner->stop_reason[0]
                                                      ? run->tuner->stop_reason
                                                      : NULL };
        /* an interrupted match stays a checkpoint, without a summary */
        int closed = run->error[0] ? h5match_close(run->h5, h5err, sizeof h5err)
                                   : h5match_finish(run->h5, &summary, h5err, sizeof h5err);
        run->h5 = NULL;
        if (closed != 0 && !run->error[0])
            snprintf(run->error, sizeof run->error, "%.500s: %.500s", cfg.output, h5err);
        print_summary(run, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
        if (run->tuner && !run->error[0]) {
            tuner_print(stdout, run->tuner);
            if (!tuner_ok(run->tuner))
                status = 1;
        }
        fflush(stdout);
        fprintf(stderr, "games: %s\nresult: %s\n", cfg.pgn, cfg.output);
        if (run->error[0]) {
            fprintf(stderr, "carrera: error: %s\n", run->error);
            status = 1;
        }
    }
    if (run) {
        if (run->pgn)
            fclose(run->pgn);
        if (run->h5) {
            char ignored[256];
            h5match_close(run->h5, ignored, sizeof ignored);
        }
        h5match_done_free(&run->done);
        if (run->tuner) {
            tuner_free(run->tuner);
            free(run->tuner);
        }
        openings_free(&run->openings);
        if (run->cfg) {
            pthread_mutex_destroy(&run->record_lock);
            pthread_mutex_destroy(&run->error_lock);
            pthread_cond_destroy(&run->advanced);
        }
        free(run);
    }
    match_config_free(&cfg);
    comm_free_hosts(hosts, comm_size());
    comm_finalize();
    return status;
}

int match_command(int argc, char **argv) { return run_command(argc, argv, false); }

int tune_command(int argc, char **argv) { return run_command(argc, argv, true); }
