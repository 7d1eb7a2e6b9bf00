/* The `carrera perft` command: option parsing, the start position, and the report. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_error.h"
#include "divide.h"
#include "perft_cmd.h"
#include "perft_stats.h"
#include "setup.h"
#include "variant.h"

void perft_usage(FILE *out)
{
    fputs("usage: carrera perft [--variant NAME] (--startpos | --fen FEN | --chess960 N)\n"
          "                     --depth D [--divide] [--turns RULES] [--ep-rule classic|modern]\n"
          "                     [--unit turn|movement]\n"
          "\n"
          "Counts the legal move paths of length D from a position.\n"
          "\n"
          "  --variant NAME   rule set (default chess); `carrera --help` lists them\n"
          "  --startpos       the variant's standard start position\n"
          "  --fen FEN        a position as FEN, quoted as one argument\n"
          "  --chess960 N     Chess960 start array number N (0-959, 518 is the standard one);\n"
          "                   only with --variant chess960\n"
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
          "  --quiet          no progress report on stderr\n"
          "  --stats          per depth: nodes, captures, en passant, castles, promotions,\n"
          "                   checks, discovered and double checks, checkmates (and one- and\n"
          "                   two-movement turns); slower, not with --divide\n"
          "\n"
          "Prints `move: count` lines (with --divide) and a blank line, then\n"
          "`Nodes searched: N`, as Stockfish's `go perft` does.\n",
          out);
}

/* Lists the variant names in err-message form: "chess, chess960, ...". */
static void variant_names(char *out, size_t outlen)
{
    int count;
    const Variant *const *all = variant_all(&count);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < count && used < outlen; i++)
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i ? ", " : "", all[i]->name);
}

/* Whether arg is the option name, alone or as `name=value`; sets *inline_value for the latter. */
static bool is_option(const char *arg, const char *name, const char **inline_value)
{
    size_t len = strlen(name);
    if (strncmp(arg, name, len) != 0)
        return false;
    if (arg[len] == '\0') {
        *inline_value = NULL;
        return true;
    }
    if (arg[len] == '=') {
        *inline_value = arg + len + 1;
        return true;
    }
    return false;
}

/* Limits that catch typos: more threads than any node has, more memory than any node has. */
#define PERFT_MAX_THREADS 1024
#define PERFT_MAX_HASH_MB (1 << 22)

/* A whole number from 0 to max, digits only; false otherwise. */
static bool parse_count(const char *text, long max, long *out)
{
    long v = 0;
    const char *c = text;
    for (; *c >= '0' && *c <= '9'; c++) {
        v = v * 10 + (*c - '0');
        if (v > max)
            return false;
    }
    if (*c != '\0' || c == text)
        return false;
    *out = v;
    return true;
}

/* The --stats table: one row per depth, then what divide_print ends with. */
static int print_stats(const Position *p, const Rules *r, int depth, int threads)
{
    PerftStats *st = calloc((size_t)(depth > 0 ? depth : 1), sizeof *st);
    if (!st || perft_stats(p, r, depth, threads, st) != 0) {
        free(st);
        fputs("carrera: error: out of memory\n", stderr);
        return -1;
    }
    const bool turns = r->turns != TURNS_SINGLE;
    printf("%5s %18s %16s %12s %12s %12s %14s %12s %10s %12s", "depth", "nodes", "captures",
           "e.p.", "castles", "promotions", "checks", "discovered", "double", "checkmates");
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
    return 0;
}

typedef struct PerftArgs {
    const char *variant, *fen, *chess960, *depth, *turns, *ep_rule, *unit, *threads, *hash;
    bool startpos, divide, quiet, stats;
} PerftArgs;

/* Fills a from argv; returns 0, -1 after a usage error (already reported), 1 for --help. */
static int parse_args(int argc, char **argv, PerftArgs *a)
{
    static const char *const valued[] = { "--variant", "--fen",     "--chess960", "--depth",
                                          "--turns",   "--ep-rule", "--unit",     "--threads",
                                          "--hash" };
    enum { NVALUED = sizeof valued / sizeof valued[0] };
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
            return 1;
        bool *flag = strcmp(arg, "--startpos") == 0 ? &a->startpos
                     : strcmp(arg, "--divide") == 0 ? &a->divide
                     : strcmp(arg, "--quiet") == 0  ? &a->quiet
                     : strcmp(arg, "--stats") == 0  ? &a->stats
                                                    : NULL;
        if (flag) {
            if (*flag) {
                cli_error("option %s given twice", arg);
                return -1;
            }
            *flag = true;
            continue;
        }
        const char **slots[NVALUED] = { &a->variant, &a->fen,     &a->chess960, &a->depth,
                                        &a->turns,   &a->ep_rule, &a->unit,     &a->threads,
                                        &a->hash };
        int k;
        const char *value = NULL;
        for (k = 0; k < NVALUED; k++)
            if (is_option(arg, valued[k], &value))
                break;
        if (k == NVALUED) {
            if (arg[0] == '-')
                cli_error("unknown option '%s' for perft (see carrera perft --help)", arg);
            else
                cli_error("unexpected argument '%s' for perft (see carrera perft --help)", arg);
            return -1;
        }
        if (!value) {
            if (i + 1 >= argc) {
                cli_error("option %s needs a value", valued[k]);
                return -1;
            }
            value = argv[++i];
        }
        if (*slots[k]) {
            cli_error("option %s given twice", valued[k]);
            return -1;
        }
        *slots[k] = value;
    }
    return 0;
}

int perft_command(int argc, char **argv)
{
    PerftArgs a = { 0 };
    int parsed = parse_args(argc, argv, &a);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        perft_usage(stdout);
        return 0;
    }

    const Variant *v = variant_by_name(a.variant ? a.variant : "chess");
    if (!v) {
        char names[512];
        variant_names(names, sizeof names);
        return cli_error("unknown variant '%s' (valid: %s)", a.variant, names);
    }
    int sources = a.startpos + (a.fen != NULL) + (a.chess960 != NULL);
    if (sources == 0)
        return cli_error("perft needs a position: --startpos, --fen FEN or --chess960 N");
    if (sources > 1)
        return cli_error("give only one of --startpos, --fen and --chess960");
    if (!a.depth)
        return cli_error("perft needs --depth D");
    int depth;
    char err[256];
    if (divide_parse_depth(a.depth, &depth, err, sizeof err) != 0)
        return cli_error("%s", err);

    Rules rules = { TURNS_SINGLE, EP_CLASSIC };
    if (a.turns && !turn_rules_parse(a.turns, &rules.turns))
        return cli_error("unknown turn rules '%s' (valid: single, marseillais, "
                         "marseillais-balanced, galvin, bennekom, extramove)",
                         a.turns);
    if (a.ep_rule && !ep_rule_parse(a.ep_rule, &rules.ep))
        return cli_error("unknown en passant rule '%s' (valid: classic, modern)", a.ep_rule);
    PerftUnit unit = UNIT_TURN;
    if (a.unit && strcmp(a.unit, "movement") == 0)
        unit = UNIT_MOVEMENT;
    else if (a.unit && strcmp(a.unit, "turn") != 0)
        return cli_error("unknown unit '%s' (valid: turn, movement)", a.unit);

    Setup s;
    if (a.startpos) {
        setup_start(&s, v);
    } else if (a.fen) {
        if (setup_from_fen_rules(&s, v, &rules, a.fen, err, sizeof err) != 0)
            return cli_error("bad FEN for %s under %s rules: %s", v->name,
                             turn_rules_name(rules.turns), err);
    } else {
        if (strcmp(v->name, "chess960") != 0)
            return cli_error("--chess960 needs --variant chess960 (the variant is %s)", v->name);
        long number;
        if (!parse_count(a.chess960, 959, &number))
            return cli_error("bad Chess960 number '%s': must be a whole number from 0 to 959",
                             a.chess960);
        if (setup_chess960(&s, v, (int)number, err, sizeof err) != 0)
            return cli_error("%s", err);
    }

    Position p;
    position_from_setup(&p, &s);
    PerftRunOptions run = { 0, 0, a.quiet };
    long value;
    if (a.threads) {
        if (!parse_count(a.threads, PERFT_MAX_THREADS, &value) || value < 1)
            return cli_error("bad thread count '%s': must be a whole number from 1 to %d",
                             a.threads, PERFT_MAX_THREADS);
        run.threads = (int)value;
    }
    if (a.hash) {
        if (!parse_count(a.hash, PERFT_MAX_HASH_MB, &value))
            return cli_error("bad hash size '%s': must be a whole number of megabytes from 0 to "
                             "%d",
                             a.hash, PERFT_MAX_HASH_MB);
        run.hash_bytes = (size_t)value << 20;
    }
    if (a.stats) {
        if (a.divide || unit == UNIT_MOVEMENT)
            return cli_error("--stats counts by turn and cannot divide: drop --divide and --unit");
        if (print_stats(&p, &rules, depth, run.threads) != 0)
            return 1;
    } else if (divide_print(stdout, &p, &rules, unit, depth, a.divide, v->castle960, &run) != 0) {
        return 1;
    }
    if (ferror(stdout)) {
        fputs("carrera: error writing the output\n", stderr);
        return 1;
    }
    return 0;
}
