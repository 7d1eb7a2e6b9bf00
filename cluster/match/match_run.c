/* SPDX-License-Identifier: MIT */
/* `carrera match` and `carrera tune` once their options are read (match_run.h): every rank reads
 * the match file; rank 0 makes or resumes the result and PGN files, the pairs are played over
 * every rank (match_distribute.h), and rank 0 finishes the files and prints the summary. */
#define _POSIX_C_SOURCE 200809L

#include "match_run.h"

#include <errno.h>
#include <inttypes.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "comm.h"
#include "errmsg.h"
#include "estimate.h"
#include "match_config.h"
#include "match_distribute.h"
#include "match_file.h"
#include "match_games.h"
#include "openings.h"
#include "paths.h"
#include "provenance.h"
#include "run_error.h"
#include "stage_runner.h"
#include "stats.h"
#include "tune.h"

/* A material-odds match: each imbalance's result for the side under test (player 1). */
static void print_imbalances(const StageRunner *run)
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
        printf("%-10s  %5" PRIu64
               "  %-15s  %.4f  %+7.1f [%+7.1f, %+7.1f]  %+7.1f [%+7.1f, %+7.1f]\n",
               c->imbalances[i].name, t->games_done, wdl, tri.score, tri.elo, tri.elo_lo,
               tri.elo_hi, penta.elo, penta.elo_lo, penta.elo_hi);
    }
}

static void print_summary(const StageRunner *run, double seconds)
{
    const MatchConfig *c = run->cfg;
    const Tally *t = &run->tally;
    printf("%s vs %s: %s, %s turns, %" PRIu64 " games (%" PRIu64 " pairs) in %.1f s\n",
           c->players[0].name, c->players[1].name, c->variant->name,
           turn_rules_name(c->rules.turns), t->games_done, t->pairs_done, seconds);
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

/* Keeps of the PGN file at path only the games of pairs done (a pair the kill caught between its
 * PGN games and the result file is played again), then opens it for appending. NULL with a
 * message when the file cannot be rewritten. */
static FILE *reopen_pgn(const char *path, const MatchFileDone *done, char *err, size_t errlen)
{
    /* only a file is read back: a device or pipe (/dev/zero) would be read for ever */
    struct stat st;
    FILE *old = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "re") : NULL;
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
            errmsg_set(err, errlen, "cannot read the PGN file %.900s", path);
            return NULL;
        }
    }
    FILE *f = fopen(path, "we");
    if (!f) {
        free(text);
        errmsg_set(err, errlen, "cannot write the PGN file %.900s", path);
        return NULL;
    }
    for (char *game = text ? strstr(text, "[Event ") : NULL; game;) {
        char *next = strstr(game + 1, "\n[Event ");
        size_t n = next ? (size_t)(next + 1 - game) : strlen(game);
        unsigned long long pair;
        const char *round = strstr(game, "[Round \"");
        if (round && round < game + n && sscanf(round, "[Round \"%llu.", &pair) == 1 && pair > 0 &&
            match_file_done_has(done, pair - 1))
            fwrite(game, 1, n, f);
        game = next ? next + 1 : NULL;
    }
    free(text);
    if (fflush(f) != 0) {
        fclose(f);
        errmsg_set(err, errlen, "cannot write the PGN file %.900s", path);
        return NULL;
    }
    return f;
}

/* Rank 0's set-up: the SPRT, the result file (new, or the checkpoint to continue with the pairs
 * it holds counted and skipped; with extend, one that planned fewer games) and the PGN file.
 * Returns 0, or the exit status with a message. */
static int start_rank0(StageRunner *run, MatchConfig *cfg, const Provenance *prov, bool resume,
                       bool extend, char *err, size_t errlen)
{
    if (cfg->sprt && !stats_sprt_init(&run->sprt, cfg->sprt_elo0, cfg->sprt_elo1, cfg->sprt_alpha,
                                      cfg->sprt_beta, err, errlen))
        return EXIT_USAGE;
    if (extend && (cfg->n_imbalances || cfg->tune.given)) {
        /* their pairs go to imbalances and stages by the number of games */
        errmsg_set(err, errlen,
                   "--extend adds games to a plain match, not to %s, whose pairs are assigned "
                   "by its number of games",
                   cfg->tune.given ? "a tune run" : "a match of material imbalances");
        return EXIT_USAGE;
    }
    if (make_parent_dirs(cfg->output, err, errlen) != 0 ||
        make_parent_dirs(cfg->pgn, err, errlen) != 0)
        return EXIT_FAILED;
    MatchFileInfo info = { .cfg = cfg,
                           .prov = prov,
                           .overwrite = false,
                           .lock_wait = RESUME_LOCK_WAIT,
                           .extend = extend };
    if (resume) {
        run->h5 = match_file_open_resume(cfg->output, &info, &run->done, err, errlen);
        if (!run->h5)
            return EXIT_USAGE;
        run->resumed = true;
        for (size_t i = 0; i < run->done.n; i++) {
            const MatchFilePair *d = &run->done.pairs[i];
            uint64_t nodes = d->nodes[0] + d->nodes[1];
            stage_runner_tally(&run->tally, d->score, d->ending, nodes);
            if (cfg->n_imbalances)
                stage_runner_tally(&run->groups[match_imbalance_of(cfg, d->pair)], d->score,
                                   d->ending, nodes);
            if (!run->tuner)
                continue;
            /* the tuner's state is rebuilt stage by stage, as the pairs came in */
            if (run->tuner->finished ||
                d->pair / cfg->pairs_per_stage != (uint64_t)run->tuner->stage) {
                errmsg_set(err, errlen,
                           "%.900s holds pair %" PRIu64 " of iteration %" PRIu64
                           " although iteration %d is not complete: not a checkpoint of this run",
                           cfg->output, d->pair + 1, d->pair / cfg->pairs_per_stage + 1,
                           run->tuner->stage + 1);
                return EXIT_USAGE;
            }
            if (tuner_add_pair(run->tuner, d->pair, d->score))
                stage_runner_begin_stage(run);
        }
        run->games_before = run->tally.games_done;
        if (cfg->sprt && stats_sprt_update(&run->sprt, run->tally.pairs) != SPRT_CONTINUE) {
            /* Wald's test stopped there: more games would not change its verdict */
            run->stop = true;
            fprintf(stderr,
                    "carrera: note: the SPRT has decided on the %" PRIu64
                    " pairs %.900s holds (%s): no more games are played\n",
                    run->tally.pairs_done, cfg->output,
                    stats_sprt_decision_name(run->sprt.decision));
        }
        run->pgn = reopen_pgn(cfg->pgn, &run->done, err, errlen);
    } else if (access(cfg->output, F_OK) == 0) {
        /* what the command asked for, not what the disk allows: as perft's output */
        errmsg_set(err, errlen,
                   "%.900s already exists: add --resume to continue that match, or choose another "
                   "output",
                   cfg->output);
        return EXIT_USAGE;
    } else {
        run->h5 = match_file_create(cfg->output, &info, err, errlen);
        if (!run->h5)
            return EXIT_FAILED;
        run->pgn = fopen(cfg->pgn, "we");
        if (!run->pgn) {
            errmsg_set(err, errlen, "cannot write the PGN file %.800s: %s", cfg->pgn,
                       strerror(errno));
            /* the result file made just now holds nothing: the corrected command starts
             * afresh instead of being told to resume */
            char ignored[256];
            match_file_close(run->h5, ignored, sizeof ignored);
            run->h5 = NULL;
            remove(cfg->output);
        }
    }
    if (!run->pgn)
        return EXIT_FAILED;
    time_t now = time(NULL);
    strftime(run->date, sizeof run->date, "%Y.%m.%d", gmtime(&now));
    return EXIT_OK;
}

/* The pairs played on every rank; a failure of the distribution itself ends the job. Returns the
 * farm's figures (on rank 0). */
static FarmStats distribute(StageRunner *run)
{
    char err[ERRMSG_LEN];
    FarmStats fs = { 0 };
    if (match_distribute_run(run, &fs, err, sizeof err) != 0)
        comm_abort(run_error(EXIT_FAILED, "rank %d: %s", comm_rank(), err));
    return fs;
}

/* What one rank holds for the run. */
typedef struct MatchJob {
    const MatchRequest *request;
    MatchConfig cfg;
    StageRunner *run;
    char **hosts; /* rank 0: every rank's host name */
    Provenance prov;
    char err[ERRMSG_LEN]; /* why the run cannot start */
} MatchJob;

/* Keeps why the run cannot start in j->err; returns status. */
static int fail(MatchJob *j, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(MatchJob *j, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->err, sizeof j->err, fmt, ap);
    va_end(ap);
    return status;
}

/* The match file, and the command line's outputs in place of its own. */
static int read_config(MatchJob *j)
{
    const MatchRequest *r = j->request;
    if (match_config_read(r->config, &j->cfg, j->err, sizeof j->err) != 0)
        return EXIT_USAGE;
    if (r->tune && !j->cfg.tune.given && j->cfg.n_imbalances == 0)
        return fail(j, EXIT_USAGE,
                    "%.900s: a tune run needs imbalances = ... in [match] (e.g. Q:A, N:PPP, P)",
                    r->config);
    if (r->out)
        snprintf(j->cfg.output, sizeof j->cfg.output, "%s", r->out);
    if (r->pgn)
        snprintf(j->cfg.pgn, sizeof j->cfg.pgn, "%s", r->pgn);
    return EXIT_OK;
}

/* The runner's plan: pairs, threads, the first stage and the players' evaluation, set by the
 * tuner in a tune run. */
static int set_up(MatchJob *j)
{
    StageRunner *run = j->run;
    const MatchConfig *cfg = &j->cfg;
    run->cfg = cfg;
    run->n_pairs = (uint64_t)cfg->games / 2;
    run->threads = cfg->concurrency > 0 ? cfg->concurrency : omp_get_max_threads();
    run->stage_end = cfg->pairs_per_stage < run->n_pairs ? cfg->pairs_per_stage : run->n_pairs;
    for (int k = 0; k < 2; k++)
        run->params[k] = (EngineParams){ cfg->players[k].eval, cfg->players[k].search };
    if (!j->request->tune)
        return EXIT_OK;
    if (!(run->tuner = malloc(sizeof *run->tuner)))
        return fail(j, EXIT_FAILED, "out of memory");
    if (tuner_init(run->tuner, cfg, j->err, sizeof j->err) != 0) {
        free(run->tuner);
        run->tuner = NULL;
        return EXIT_USAGE;
    }
    run->params[0] = run->tuner->params[0];
    run->params[1] = run->tuner->params[1];
    return EXIT_OK;
}

/* Every thread has its two players, each with its table (or its engine's): refused before they
 * are allocated when the machine cannot hold them. */
static int check_memory(MatchJob *j)
{
    const MatchConfig *cfg = &j->cfg;
    size_t tables = ((size_t)cfg->players[0].hash_mb + (size_t)cfg->players[1].hash_mb) << 20;
    if (estimate_check_memory(tables * (size_t)j->run->threads,
                              "the players' hash tables (hash, per game at once) would", j->err,
                              sizeof j->err) != 0)
        return EXIT_USAGE;
    return EXIT_OK;
}

/* The host names at rank 0 (collective: every rank calls it before any step can fail on one
 * of them alone). */
static int gather_hosts(MatchJob *j)
{
    if (comm_gather_hosts(&j->hosts) != 0)
        return fail(j, EXIT_FAILED, "out of memory gathering the host names");
    return EXIT_OK;
}

static int make_runner(MatchJob *j)
{
    if (!(j->run = calloc(1, sizeof *j->run)))
        return fail(j, EXIT_FAILED, "out of memory");
    return EXIT_OK;
}

static int load_openings(MatchJob *j)
{
    if (openings_load(&j->run->openings, &j->cfg, j->err, sizeof j->err) != 0)
        return EXIT_USAGE;
    return EXIT_OK;
}

/* Rank 0 makes or resumes the result and PGN files (start_rank0). */
static int start_files(MatchJob *j)
{
    if (comm_rank() != 0)
        return EXIT_OK;
    provenance_init(&j->prov, comm_size(), j->run->threads, (const char *const *)j->hosts,
                    (size_t)comm_size(), j->cfg.text);
    bool resume = resume_wanted(j->request->resume, access(j->cfg.output, F_OK) == 0);
    return start_rank0(j->run, &j->cfg, &j->prov, resume, j->request->extend, j->err,
                       sizeof j->err);
}

/* Everything before the first pair, on this rank, in order; the first step that fails gives the
 * status, its message in j->err. */
static int prepare(MatchJob *j)
{
    static int (*const steps[])(MatchJob *) = { gather_hosts, make_runner,   read_config, set_up,
                                                check_memory, load_openings, start_files };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        int status = steps[i](j);
        if (status != EXIT_OK)
            return status;
    }
    return EXIT_OK;
}

/* Rank 0 after the last pair: the PGN closed, a tune run's regression over the games, the result
 * file finished (or, after an error, left a checkpoint). Errors go to run->error. */
static void finish_files(StageRunner *run, const MatchConfig *cfg)
{
    if (fclose(run->pgn) != 0 && !run->error[0])
        snprintf(run->error, sizeof run->error, "cannot write the PGN file %.900s", cfg->pgn);
    run->pgn = NULL;
    /* a tune run's regression reads the games back from the result file */
    if (run->tuner && !run->error[0] && cfg->tune.method != TUNE_SPSA) {
        char h5err[ERRMSG_LEN];
        if (match_file_flush(run->h5, h5err, sizeof h5err) != 0)
            snprintf(run->error, sizeof run->error, "%.500s: %.500s", cfg->output, h5err);
        else
            match_games_regress(run->tuner, (const char *const[]){ cfg->output }, 1,
                                cfg->tune.skip_plies);
    }
    char h5err[ERRMSG_LEN];
    MatchFileSummary summary = { .sprt = cfg->sprt ? &run->sprt : NULL,
                                 .end_time = NULL,
                                 .tune = run->tuner,
                                 .stop_reason = run->tuner && run->tuner->stop_reason[0]
                                                    ? run->tuner->stop_reason
                                                    : NULL };
    /* an interrupted match stays a checkpoint, without a summary */
    int closed = run->error[0] ? match_file_close(run->h5, h5err, sizeof h5err)
                               : match_file_finish(run->h5, &summary, h5err, sizeof h5err);
    run->h5 = NULL;
    if (closed != 0 && !run->error[0])
        snprintf(run->error, sizeof run->error, "%.500s: %.500s", cfg->output, h5err);
}

/* Rank 0's part of the play: the pairs coordinated (and some played), the files finished, the
 * summary printed. Returns the exit status. */
static int play_rank0(MatchJob *j)
{
    StageRunner *run = j->run;
    const MatchConfig *cfg = &j->cfg;
    const bool quiet = j->request->quiet;
    estimate_note_match(cfg, run->threads, comm_size());
    progress_start(&run->progress, "match", quiet);
    progress_resume(&run->progress, (double)run->tally.pairs_done);
    if (run->resumed && !quiet)
        fprintf(stderr,
                "match: resuming %s (resume %d): %" PRIu64 " of %" PRIu64 " pairs played before\n",
                cfg->output, match_file_resume_count(run->h5), run->tally.pairs_done, run->n_pairs);
    uint64_t left = run->n_pairs - run->tally.pairs_done;
    if ((uint64_t)run->threads > left)
        run->threads = left > 0 ? (int)left : 1;
    const double start = monotonic_seconds();
    const FarmStats fs = distribute(run);
    const double seconds = monotonic_seconds() - start;
    progress_finish(&run->progress);
    /* what coordinating the pairs cost rank 0: what bounds the ranks one coordinator serves */
    if (!quiet && fs.tasks)
        fprintf(stderr,
                "match: %" PRIu64 " pairs played, %" PRIu64 " by rank 0; coordinating: %.1f us "
                "of CPU a pair\n",
                fs.tasks, fs.tasks_local, 1e6 * fs.coordinator_cpu / (double)fs.tasks);
    finish_files(run, cfg);
    print_summary(run, seconds);
    int status = EXIT_OK;
    if (run->tuner && !run->error[0]) {
        tuner_print(stdout, run->tuner);
        if (!tuner_ok(run->tuner))
            status = EXIT_NEGATIVE;
    }
    fflush(stdout);
    fprintf(stderr, "games: %s\nresult: %s\n", cfg->pgn, cfg->output);
    if (run->error[0])
        status = run_error(EXIT_FAILED, "%s", run->error);
    return status;
}

static void free_job(MatchJob *j)
{
    StageRunner *run = j->run;
    if (run) {
        if (run->pgn)
            fclose(run->pgn);
        if (run->h5) {
            char ignored[256];
            match_file_close(run->h5, ignored, sizeof ignored);
        }
        match_file_done_free(&run->done);
        if (run->tuner) {
            tuner_free(run->tuner);
            free(run->tuner);
        }
        openings_free(&run->openings);
        free(run);
    }
    match_config_free(&j->cfg);
    comm_free_hosts(j->hosts, comm_size());
}

int match_run(const MatchRequest *r)
{
    char err[ERRMSG_LEN] = "";
    if (comm_init(NULL, NULL, err, sizeof err) != 0)
        return run_error(EXIT_FAILED, "%s", err);
    MatchJob j = { .request = r };
    int status = comm_agree(prepare(&j), j.err);
    if (status == EXIT_OK && comm_rank() != 0)
        distribute(j.run);
    else if (status == EXIT_OK)
        status = play_rank0(&j);
    free_job(&j);
    comm_finalize();
    return status;
}
