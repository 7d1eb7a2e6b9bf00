/* SPDX-License-Identifier: MIT */
/* The `carrera perft` command: its options parsed, then validated into a request, then the
 * request run in one of its four modes; and the report of a count with statistics. */
#include <inttypes.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_error.h"
#include "number.h"
#include "perft_run.h"
#include "divide.h"
#include "errmsg.h"
#include "estimate.h"
#include "options.h"
#include "perft_command.h"
#include "position.h"
#include "perft_stats.h"
#include "setup.h"
#include "variant.h"

void perft_usage(FILE *out)
{
    fputs("usage: carrera perft [--variant NAME]\n"
          "                     (--startpos | --fen FEN | --chess960 N | --random SEED)\n"
          "                     --depth D [--divide] [--turns RULES] [--ep-rule classic|modern]\n"
          "                     [--unit turn|movement] [--threads N] [--hash MB] [--stats]\n"
          "                     [--key-seed N] [--quiet] [--estimate]\n"
          "                     [--out FILE [--split-depth N] [--resume | --continue]\n"
          "                      [--shared-table on|off] [--shared-depth N] [--shared-mb MB]]\n"
          "       carrera perft --config FILE [--resume | --continue] [--divide] [--quiet]\n"
          "                     [--out FILE]\n"
          "\n"
          "Counts the legal move paths of length D from a position.\n"
          "\n"
          "  --variant NAME   rule set (default chess); `carrera --help` lists them\n"
          "  --startpos       the variant's standard start position\n"
          "  --fen FEN        a position as FEN, quoted as one argument\n"
          "  --chess960 N     Chess960 start array number N (0-959, 518 is the standard one);\n"
          "                   only with --variant chess960\n"
          "  --random SEED    a random start array of chess960 or caparandom (Black mirrors\n"
          "                   White), the same for the same seed\n"
          "  --depth D        depth in plies, 0 to 30\n"
          "  --divide         also print the count below each legal move (turn)\n"
          "  --turns RULES    turn rules: single (default), marseillais,\n"
          "                   marseillais-balanced, galvin, bennekom, extramove\n"
          "  --ep-rule R      en passant under double-move rules: classic (default) or modern\n"
          "  --unit U         under double-move rules count complete turns (turn, default)\n"
          "                   or single movements (movement, for debugging)\n"
          "  --threads N      threads (default: OMP_NUM_THREADS, else every core)\n"
          "  --hash MB        transposition table of MB megabytes shared by the threads\n"
          "                   (default 0: none)\n"
          "  --key-seed N     Zobrist hash keys of seed N (0 to 2^63-1, default 0): a second\n"
          "                   run with another seed verifies a count made with a table\n"
          "  --quiet          no progress report on stderr\n"
          "  --stats          per depth: nodes, captures, en passant, castles, promotions,\n"
          "                   checks, discovered and double checks, checkmates (and one- and\n"
          "                   two-movement turns); slower, not with --divide\n"
          "  --estimate       print how many nodes and how long (counting the first levels\n"
          "                   exactly and extrapolating; with --hash, timing two smaller\n"
          "                   levels with the table scaled down), count nothing more. A\n"
          "                   count estimated at over an hour says so on stderr first\n"
          "\n"
          "Distributed jobs (also under mpiexec or srun, one process without them):\n"
          "  --out FILE       count in work units and write the result and checkpoint to the\n"
          "                   HDF5 file FILE (which must not exist, unless --resume)\n"
          "  --config FILE    the job from an INI configuration (carrera check-config FILE)\n"
          "  --resume         continue the checkpoint in the output file after a kill\n"
          "  --continue       resume when the output file exists, else start: what a batch\n"
          "                   job that may be requeued runs (a checkpoint another process\n"
          "                   still holds is waited for up to 60 s)\n"
          "  --split-depth N  plies from the root to the work units (default: chosen)\n"
          "  --shared-table on|off  over several ranks with --hash, the deep counts also go\n"
          "                   to one table spread over every rank (default on)\n"
          "  --shared-depth N the least depth of a shared count, 2 to 30 (default: measured)\n"
          "  --shared-mb MB   each rank's part of the shared table, taken out of --hash\n"
          "                   (default: a quarter of it; on one node, all but a 64th)\n"
          "\n"
          "Prints `move: count` lines (with --divide) and a blank line, then\n"
          "`Nodes searched: N`, as Stockfish's `go perft` does.\n",
          out);
}

/* Limits that catch typos: more threads than any node has, more memory than any node has. */
#define PERFT_MAX_THREADS 1024
#define PERFT_MAX_HASH_MB (1 << 22)

/* The --stats table: one row per depth, then what divide_print ends with. Returns the exit
 * status. */
static int print_stats(const Position *p, const Rules *r, int depth, int threads)
{
    PerftStats *st = calloc((size_t)(depth > 0 ? depth : 1), sizeof *st);
    if (!st || perft_stats(p, r, depth, threads, st) != 0) {
        free(st);
        return run_error(EXIT_FAILED, "out of memory");
    }
    const bool turns = r->turns != TURNS_SINGLE;
    printf("%5s %18s %16s %12s %12s %12s %14s %12s %10s %12s", "depth", "nodes", "captures", "e.p.",
           "castles", "promotions", "checks", "discovered", "double", "checkmates");
    if (turns)
        printf(" %18s %18s", "one-movement", "two-movement");
    putchar('\n');
    for (int d = 0; d < depth; d++) {
        const PerftStats *s = &st[d];
        printf("%5d %18" PRIu64 " %16" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64
               " %14" PRIu64 " %12" PRIu64 " %10" PRIu64 " %12" PRIu64,
               d + 1, s->nodes, s->captures, s->en_passant, s->castles, s->promotions, s->checks,
               s->discovered_checks, s->double_checks, s->checkmates);
        if (turns)
            printf(" %18" PRIu64 " %18" PRIu64, s->one_movement, s->two_movement);
        putchar('\n');
    }
    putchar('\n');
    if (turns)
        printf("Unit: turns (%s, %s en passant)\n", turn_rules_name(r->turns), ep_rule_name(r->ep));
    printf("Nodes searched: %" PRIu64 "\n", depth > 0 ? st[depth - 1].nodes : 1);
    free(st);
    return EXIT_OK;
}

/* How often a command-line job with --out flushes its checkpoint: the configuration's default. */
#define PERFT_CHECKPOINT_INTERVAL 60.0

/* The options as given: texts not yet read and flags. */
typedef struct PerftArgs {
    PositionArgs pos;
    const char *depth, *unit, *threads, *hash, *key_seed, *out, *config, *split_depth;
    const char *shared_table, *shared_depth, *shared_mb;
    bool divide, quiet, stats, resume, continue_, estimate;
} PerftArgs;

/* What the command does, each mode from a validated request. */
typedef enum PerftMode {
    PERFT_CONFIG,   /* the job of a configuration file */
    PERFT_ESTIMATE, /* how many nodes and how long, nothing counted */
    PERFT_JOB,      /* a job in work units with a result file and checkpoint */
    PERFT_COUNT     /* a count printed: divided, or with statistics */
} PerftMode;

/* The request once validated: every value read and checked. */
typedef struct PerftRequest {
    PerftMode mode;
    const char *config, *out;
    ResumeMode resume;
    Setup setup;
    Rules rules;
    int depth, split_depth; /* split_depth 0: chosen */
    bool no_shared;         /* --shared-table off */
    int shared_depth;       /* 0: measured */
    size_t shared_bytes;    /* PERFT_SHARED_AUTO: job_tables.c decides */
    PerftUnit unit;
    PerftRunOptions run; /* threads (0: the default), hash bytes, quiet */
    uint64_t key_seed;
    bool divide, stats;
    int argc; /* the command line, the provenance of a job */
    char **argv;
} PerftRequest;

/* Fills a from argv; returns as options_parse does. */
static int parse(int argc, char **argv, PerftArgs *a)
{
    *a = (PerftArgs){ 0 };
    const Option options[] = {
        { "--variant", &a->pos.variant, NULL },
        { "--fen", &a->pos.fen, NULL },
        { "--chess960", &a->pos.chess960, NULL },
        { "--random", &a->pos.random, NULL },
        { "--startpos", NULL, &a->pos.startpos },
        { "--turns", &a->pos.turns, NULL },
        { "--ep-rule", &a->pos.ep_rule, NULL },
        { "--depth", &a->depth, NULL },
        { "--unit", &a->unit, NULL },
        { "--threads", &a->threads, NULL },
        { "--hash", &a->hash, NULL },
        { "--key-seed", &a->key_seed, NULL },
        { "--divide", NULL, &a->divide },
        { "--quiet", NULL, &a->quiet },
        { "--stats", NULL, &a->stats },
        { "--out", &a->out, NULL },
        { "--config", &a->config, NULL },
        { "--resume", NULL, &a->resume },
        { "--continue", NULL, &a->continue_ },
        { "--estimate", NULL, &a->estimate },
        { "--split-depth", &a->split_depth, NULL },
        { "--shared-table", &a->shared_table, NULL },
        { "--shared-depth", &a->shared_depth, NULL },
        { "--shared-mb", &a->shared_mb, NULL },
        { NULL, NULL, NULL },
    };
    return options_parse(argc, argv, "perft", options);
}

/* The numbers of a count: threads, hash and key seed. Returns 0 or the exit status of the
 * usage error (reported). */
static int validate_resources(const PerftArgs *a, PerftRequest *r)
{
    long value;
    if (a->threads) {
        if (!number_parse(a->threads, 1, PERFT_MAX_THREADS, &value))
            return cli_error("bad thread count '%s': must be a whole number from 1 to %d",
                             a->threads, PERFT_MAX_THREADS);
        r->run.threads = (int)value;
    }
    if (a->hash) {
        if (!number_parse(a->hash, 0, PERFT_MAX_HASH_MB, &value))
            return cli_error("bad hash size '%s': must be a whole number of megabytes from 0 to "
                             "%d",
                             a->hash, PERFT_MAX_HASH_MB);
        r->run.hash_bytes = (size_t)value << 20;
        char why[ERRMSG_LEN];
        if (estimate_check_memory(r->run.hash_bytes, "--hash would", why, sizeof why) != 0)
            return cli_error("%s", why);
    }
    if (a->key_seed) {
        if (!number_parse(a->key_seed, 0, LONG_MAX, &value))
            return cli_error("bad key seed '%s': must be a whole number from 0 to %ld", a->key_seed,
                             LONG_MAX);
        r->key_seed = (uint64_t)value;
    }
    return EXIT_OK;
}

/* The shared table's options of a job. Returns 0 or the exit status of the usage error
 * (reported). */
static int validate_shared(const PerftArgs *a, PerftRequest *r)
{
    long value;
    if (a->shared_table) {
        if (strcmp(a->shared_table, "off") != 0 && strcmp(a->shared_table, "on") != 0)
            return cli_error("bad --shared-table '%s': must be on or off", a->shared_table);
        r->no_shared = strcmp(a->shared_table, "off") == 0;
    }
    if (a->shared_depth) {
        if (!number_parse(a->shared_depth, 2, PERFT_MAX_DEPTH, &value))
            return cli_error("bad shared depth '%s': must be a whole number from 2 to %d",
                             a->shared_depth, PERFT_MAX_DEPTH);
        r->shared_depth = (int)value;
    }
    if (a->shared_mb) {
        const long hash_mb = (long)(r->run.hash_bytes >> 20);
        if (!number_parse(a->shared_mb, 0, PERFT_MAX_HASH_MB, &value) || value >= hash_mb)
            return cli_error("bad shared table size '%s': must be a whole number of megabytes "
                             "below --hash (%ld), which it is taken out of",
                             a->shared_mb, hash_mb);
        r->shared_bytes = (size_t)value << 20;
    }
    return EXIT_OK;
}

/* Checks every option and reads them into *r with its mode. Returns 0, or the exit status of
 * the usage error (reported). */
static int validate(const PerftArgs *a, PerftRequest *r)
{
    *r = (PerftRequest){ .unit = UNIT_TURN,
                         .run = { 0, 0, a->quiet },
                         .shared_bytes = PERFT_SHARED_AUTO };
    r->config = a->config;
    r->out = a->out;
    r->divide = a->divide;
    r->stats = a->stats;
    if (a->resume && a->continue_)
        return cli_error("--resume and --continue are two ways to resume: give one");
    r->resume = a->resume ? RESUME_ALWAYS : a->continue_ ? RESUME_IF_PRESENT : RESUME_NEVER;
    if (a->config) {
        /* The configuration says what to count and how: the command line only says how to run
         * and what to print. */
        const PositionArgs *pos = &a->pos;
        if (pos->variant || pos->fen || pos->chess960 || pos->random || pos->startpos ||
            pos->turns || pos->ep_rule || a->depth || a->unit || a->threads || a->hash ||
            a->key_seed || a->stats || a->split_depth || a->estimate || a->shared_table ||
            a->shared_depth || a->shared_mb)
            return cli_error("--config takes the position, depth, threads, hash and key seed "
                             "from the file: only --resume, --continue, --divide, --quiet and "
                             "--out go with it (carrera check-config FILE estimates the job)");
        r->mode = PERFT_CONFIG;
        return EXIT_OK;
    }
    if (!a->out && (a->resume || a->continue_ || a->split_depth || a->shared_table ||
                    a->shared_depth || a->shared_mb))
        return cli_error("--resume, --continue, --split-depth and --shared-* are for jobs with a "
                         "result file: add --out FILE");
    if (options_position(&a->pos, "perft", &r->setup, &r->rules) != 0)
        return EXIT_USAGE;
    if (!a->depth)
        return cli_error("perft needs --depth D");
    char err[ERRMSG_LEN];
    if (divide_parse_depth(a->depth, &r->depth, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (a->unit && strcmp(a->unit, "movement") == 0)
        r->unit = UNIT_MOVEMENT;
    else if (a->unit && strcmp(a->unit, "turn") != 0)
        return cli_error("unknown unit '%s' (valid: turn, movement)", a->unit);
    int status = validate_resources(a, r);
    if (status != EXIT_OK)
        return status;
    if (a->estimate) {
        r->mode = PERFT_ESTIMATE;
        return EXIT_OK;
    }
    if (a->out) {
        if (a->stats || r->unit == UNIT_MOVEMENT)
            return cli_error("--out counts by turn without statistics: drop --stats and --unit");
        long value;
        if (a->split_depth) {
            if (!number_parse(a->split_depth, 1, PERFT_MAX_DEPTH, &value) || value > r->depth)
                return cli_error("bad split depth '%s': must be a whole number from 1 to the "
                                 "depth (%d)",
                                 a->split_depth, r->depth);
            r->split_depth = (int)value;
        }
        const int shared = validate_shared(a, r);
        if (shared != EXIT_OK)
            return shared;
        r->mode = PERFT_JOB;
        return EXIT_OK;
    }
    if (a->stats && (a->divide || r->unit == UNIT_MOVEMENT))
        return cli_error("--stats counts by turn and cannot divide: drop --divide and --unit");
    r->mode = PERFT_COUNT;
    return EXIT_OK;
}

static int threads_of(const PerftRequest *r)
{
    return r->run.threads > 0 ? r->run.threads : omp_get_max_threads();
}

static int run_estimate(const PerftRequest *r)
{
    Position p;
    position_from_setup(&p, &r->setup);
    char text[768];
    estimate_perft_text(&p, &r->rules, r->depth, threads_of(r), r->run.hash_bytes, text,
                        sizeof text);
    printf("%s\n", text);
    return EXIT_OK;
}

static int run_job(const PerftRequest *r)
{
    char *line = options_command_line(r->argc, r->argv);
    if (!line)
        return run_error(EXIT_FAILED, "out of memory");
    PerftRun job = { .setup = r->setup,
                     .rules = r->rules,
                     .depth = r->depth,
                     .split_depth = r->split_depth,
                     .threads = r->run.threads,
                     .hash_bytes = r->run.hash_bytes,
                     .no_shared = r->no_shared,
                     .shared_depth = r->shared_depth,
                     .shared_bytes = r->shared_bytes,
                     .key_seed = r->key_seed,
                     .output = r->out,
                     .checkpoint_interval = PERFT_CHECKPOINT_INTERVAL,
                     .resume = r->resume,
                     .divide = r->divide,
                     .quiet = r->run.quiet,
                     .config_text = line };
    int status = perft_run(&job);
    free(line);
    return status;
}

static int run_count(const PerftRequest *r)
{
    Position p;
    position_from_setup(&p, &r->setup);
    estimate_note_perft(&p, &r->rules, r->depth, threads_of(r), 1, r->run.hash_bytes > 0, false);
    if (r->stats) {
        int status = print_stats(&p, &r->rules, r->depth, r->run.threads);
        if (status != EXIT_OK)
            return status;
    } else if (divide_print(stdout, &p, &r->rules, r->unit, r->depth, r->divide,
                            r->setup.variant->castle960, &r->run) != 0) {
        return EXIT_FAILED;
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return run_error(EXIT_FAILED, "cannot write the output");
    return EXIT_OK;
}

static int run(const PerftRequest *r)
{
    if (r->mode == PERFT_CONFIG)
        return perft_run_config(r->config, r->out, r->resume, r->divide, r->run.quiet);
    /* Before the first position: every count, estimate and split of this run uses these keys. */
    if (!position_init_tables(r->key_seed))
        return run_error(EXIT_FAILED, "the hash keys were built before the key seed was known");
    if (r->mode == PERFT_ESTIMATE)
        return run_estimate(r);
    if (r->mode == PERFT_JOB)
        return run_job(r);
    return run_count(r);
}

int perft_command(int argc, char **argv)
{
    PerftArgs a;
    int parsed = parse(argc, argv, &a);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        perft_usage(stdout);
        return EXIT_OK;
    }
    PerftRequest r;
    int status = validate(&a, &r);
    if (status != EXIT_OK)
        return status;
    r.argc = argc;
    r.argv = argv;
    return run(&r);
}
