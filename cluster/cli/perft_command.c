/* SPDX-License-Identifier: MIT */
/* The `carrera perft` command: option parsing, the start position, and the report. */
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
          "                     [--out FILE [--split-depth N] [--resume | --continue]]\n"
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

/* The command line as the provenance of a job without a configuration file: `carrera perft
 * ...`, an argument with spaces or quotes in single quotes (as a shell would take it back). */
static char *command_line(int argc, char **argv)
{
    size_t len = sizeof "carrera";
    for (int i = 0; i < argc; i++)
        len += 4 * strlen(argv[i]) + 3;
    char *line = malloc(len), *at = line;
    if (!line)
        return NULL;
    at += sprintf(at, "carrera");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool quote = *a == '\0' || strpbrk(a, " \t\n'\"\\$`*?;&|<>()[]{}~#") != NULL;
        *at++ = ' ';
        if (quote)
            *at++ = '\'';
        for (; *a; a++) {
            if (quote && *a == '\'') {
                memcpy(at, "'\\''", 4);
                at += 4;
            } else {
                *at++ = *a;
            }
        }
        if (quote)
            *at++ = '\'';
    }
    *at = '\0';
    return line;
}

int perft_command(int argc, char **argv)
{
    PositionArgs pos = { 0 };
    const char *depth_text = NULL, *unit_text = NULL, *threads = NULL, *hash = NULL;
    const char *out = NULL, *config = NULL, *split_text = NULL, *key_seed_text = NULL;
    bool divide = false, quiet = false, stats = false, resume = false, estimate = false;
    bool continue_ = false;
    const Option options[] = {
        { "--variant", &pos.variant, NULL },
        { "--fen", &pos.fen, NULL },
        { "--chess960", &pos.chess960, NULL },
        { "--random", &pos.random, NULL },
        { "--startpos", NULL, &pos.startpos },
        { "--turns", &pos.turns, NULL },
        { "--ep-rule", &pos.ep_rule, NULL },
        { "--depth", &depth_text, NULL },
        { "--unit", &unit_text, NULL },
        { "--threads", &threads, NULL },
        { "--hash", &hash, NULL },
        { "--key-seed", &key_seed_text, NULL },
        { "--divide", NULL, &divide },
        { "--quiet", NULL, &quiet },
        { "--stats", NULL, &stats },
        { "--out", &out, NULL },
        { "--config", &config, NULL },
        { "--resume", NULL, &resume },
        { "--continue", NULL, &continue_ },
        { "--estimate", NULL, &estimate },
        { "--split-depth", &split_text, NULL },
        { NULL, NULL, NULL },
    };
    int parsed = options_parse(argc, argv, "perft", options);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        perft_usage(stdout);
        return EXIT_OK;
    }
    if (resume && continue_)
        return cli_error("--resume and --continue are two ways to resume: give one");
    const ResumeMode mode = resume ? RESUME_ALWAYS : continue_ ? RESUME_IF_PRESENT : RESUME_NEVER;
    if (config) {
        /* The configuration says what to count and how: the command line only says how to run
         * and what to print. */
        if (pos.variant || pos.fen || pos.chess960 || pos.random || pos.startpos || pos.turns ||
            pos.ep_rule || depth_text || unit_text || threads || hash || key_seed_text || stats ||
            split_text || estimate)
            return cli_error("--config takes the position, depth, threads, hash and key seed "
                             "from the file: only --resume, --continue, --divide, --quiet and "
                             "--out go with it (carrera check-config FILE estimates the job)");
        return perft_run_config(config, out, mode, divide, quiet);
    }
    if (!out && (resume || continue_ || split_text))
        return cli_error("--resume, --continue and --split-depth are for jobs with a result "
                         "file: add --out FILE");
    Setup s;
    Rules rules;
    if (options_position(&pos, "perft", &s, &rules) != 0)
        return EXIT_USAGE;
    if (!depth_text)
        return cli_error("perft needs --depth D");
    int depth;
    char err[ERRMSG_LEN];
    if (divide_parse_depth(depth_text, &depth, err, sizeof err) != 0)
        return cli_error("%s", err);
    PerftUnit unit = UNIT_TURN;
    if (unit_text && strcmp(unit_text, "movement") == 0)
        unit = UNIT_MOVEMENT;
    else if (unit_text && strcmp(unit_text, "turn") != 0)
        return cli_error("unknown unit '%s' (valid: turn, movement)", unit_text);
    PerftRunOptions run = { 0, 0, quiet };
    long value;
    if (threads) {
        if (!number_parse(threads, 1, PERFT_MAX_THREADS, &value))
            return cli_error("bad thread count '%s': must be a whole number from 1 to %d", threads,
                             PERFT_MAX_THREADS);
        run.threads = (int)value;
    }
    if (hash) {
        if (!number_parse(hash, 0, PERFT_MAX_HASH_MB, &value))
            return cli_error("bad hash size '%s': must be a whole number of megabytes from 0 to "
                             "%d",
                             hash, PERFT_MAX_HASH_MB);
        run.hash_bytes = (size_t)value << 20;
        char why[ERRMSG_LEN];
        if (estimate_check_memory(run.hash_bytes, "--hash would", why, sizeof why) != 0)
            return cli_error("%s", why);
    }
    uint64_t key_seed = 0;
    if (key_seed_text) {
        if (!number_parse(key_seed_text, 0, LONG_MAX, &value))
            return cli_error("bad key seed '%s': must be a whole number from 0 to %ld",
                             key_seed_text, LONG_MAX);
        key_seed = (uint64_t)value;
    }
    /* Before the first position: every count, estimate and split of this run uses these keys. */
    if (!position_init_tables(key_seed))
        return run_error(EXIT_FAILED, "the hash keys were built before the key seed was known");
    if (estimate) {
        Position p;
        position_from_setup(&p, &s);
        char text[768];
        const int threads = run.threads > 0 ? run.threads : omp_get_max_threads();
        estimate_perft_text(&p, &rules, depth, threads, run.hash_bytes, text, sizeof text);
        printf("%s\n", text);
        return EXIT_OK;
    }

    if (out) {
        if (stats || unit == UNIT_MOVEMENT)
            return cli_error("--out counts by turn without statistics: drop --stats and --unit");
        int split_depth = 0;
        if (split_text) {
            if (!number_parse(split_text, 1, PERFT_MAX_DEPTH, &value) || value > depth)
                return cli_error("bad split depth '%s': must be a whole number from 1 to the "
                                 "depth (%d)",
                                 split_text, depth);
            split_depth = (int)value;
        }
        char *line = command_line(argc, argv);
        if (!line)
            return run_error(EXIT_FAILED, "out of memory");
        PerftRun job = { .setup = s,
                         .rules = rules,
                         .depth = depth,
                         .split_depth = split_depth,
                         .threads = run.threads,
                         .hash_bytes = run.hash_bytes,
                         .key_seed = key_seed,
                         .output = out,
                         .checkpoint_interval = PERFT_CHECKPOINT_INTERVAL,
                         .resume = mode,
                         .divide = divide,
                         .quiet = quiet,
                         .config_text = line };
        int rc = perft_run(&job);
        free(line);
        return rc;
    }
    Position p;
    position_from_setup(&p, &s);
    estimate_note_perft(&p, &rules, depth, run.threads > 0 ? run.threads : omp_get_max_threads(), 1,
                        run.hash_bytes > 0, false);
    if (stats) {
        if (divide || unit == UNIT_MOVEMENT)
            return cli_error("--stats counts by turn and cannot divide: drop --divide and --unit");
        int status = print_stats(&p, &rules, depth, run.threads);
        if (status != EXIT_OK)
            return status;
    } else if (divide_print(stdout, &p, &rules, unit, depth, divide, s.variant->castle960, &run) !=
               0) {
        return EXIT_FAILED;
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return run_error(EXIT_FAILED, "cannot write the output");
    return EXIT_OK;
}
