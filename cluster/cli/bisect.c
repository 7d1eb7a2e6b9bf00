/* SPDX-License-Identifier: MIT */
/* The `carrera bisect` command: Carrera's divide (in process) against an external UCI engine's
 * `go perft`, descending into a move whose counts differ, one ply shallower each time, until the
 * position whose move lists differ. Every position goes to the engine as a FEN, so each step
 * stands alone; when a move's count differs but the position after it agrees, the engine's own
 * playing of that move is at fault, and that is reported instead. */
#define _POSIX_C_SOURCE 200809L

#include "bisect.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli_error.h"
#include "number.h"
#include "options.h"
#include "divide.h"
#include "uci_client.h"
#include "move.h"
#include "position.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"

#define DEFAULT_TIMEOUT_S 600
#define MAX_TIMEOUT_S     1000000
/* The handshake, options and positions take no thought: a slow answer there is a dead engine. */
#define HANDSHAKE_MS 10000
/* The move path from the root: at most PERFT_MAX_DEPTH turns. */
#define PATH_TEXT_MAX ((PERFT_MAX_DEPTH + 1) * (TURN_TEXT_MAX + 1))

void bisect_usage(FILE *out)
{
    fputs("usage: carrera bisect --engine COMMAND [--variant NAME]\n"
          "                      (--startpos | --fen FEN | --chess960 N) --depth D\n"
          "                      [--turns RULES] [--ep-rule classic|modern]\n"
          "                      [--timeout SECONDS] [--quiet]\n"
          "\n"
          "Finds where a UCI engine's perft differs from Carrera's: compares the divides,\n"
          "descends into a differing move (the one with the smallest subtree) one ply at a\n"
          "time, and prints the position where the move lists differ.\n"
          "\n"
          "  --engine COMMAND  the engine and its arguments, split at spaces (no shell)\n"
          "  --variant NAME    rule set (default chess); `carrera --help` lists them\n"
          "  --startpos        the variant's standard start position\n"
          "  --fen FEN         a position as FEN, quoted as one argument\n"
          "  --chess960 N      Chess960 start array number N; only with --variant chess960\n"
          "  --depth D         depth in plies (turns under double-move rules), 1 to 30\n"
          "  --turns RULES     turn rules, sent as the engine's TurnRules option: single,\n"
          "                    marseillais, marseillais-balanced, galvin, bennekom, extramove\n"
          "  --ep-rule R       en passant under double-move rules (EnPassantRule option)\n"
          "  --timeout S       seconds to wait for each `go perft` answer (default 600)\n"
          "  --quiet           no progress on stderr\n"
          "\n"
          "Exit status: 0 no difference, 1 a difference (reported on stdout), 2 usage error,\n"
          "3 the engine failed (cannot start, exited, timed out, unreadable output).\n",
          out);
}

typedef struct Bisect {
    const Variant *variant;
    Rules rules;
    bool castle960;    /* castling text king-takes-rook, as the engine is told to write it */
    FenCastling style; /* castling rights in every FEN sent and printed */
    UciClient engine;
    int timeout_ms;
    bool quiet;
    char root_fen[FEN_MAX];
    char err[1024]; /* the engine's failure */
} Bisect;

/* The moves (or turns) of a position in Carrera's generation order: divide line i is choice i. */
typedef struct Choices {
    Move moves[MAX_MOVES];
    TurnList turns;
} Choices;

static bool single(const Bisect *b) { return b->rules.turns == TURNS_SINGLE; }

static void fen_of(const Bisect *b, const Position *p, char fen[FEN_MAX])
{
    Setup s;
    position_to_setup(p, &s);
    setup_to_fen(&s, b->style, fen, FEN_MAX);
}

/* Carrera's divide of p, lines in generation order; false when memory runs out. */
static bool carrera_divide(const Bisect *b, const Position *p, int depth, Choices *c, Divide *d)
{
    divide_clear(d);
    Position child;
    char text[TURN_TEXT_MAX];
    if (single(b)) {
        int n = position_legal_moves(p, c->moves);
        for (int i = 0; i < n; i++) {
            uint64_t count = 1;
            if (depth > 1) {
                position_make(p, c->moves[i], &child);
                count = perft(&child, depth - 1);
            }
            move_to_uci(c->moves[i], p->variant, b->castle960, text);
            if (!divide_add(d, text, count))
                return false;
        }
        return true;
    }
    if (!position_turns(p, &b->rules, &c->turns))
        return false;
    for (size_t i = 0; i < c->turns.n; i++) {
        uint64_t count = 1;
        if (depth > 1) {
            position_make_turn(p, &b->rules, &c->turns.v[i], &child);
            count = perft_turns(&child, &b->rules, depth - 1);
        }
        turn_to_uci(&c->turns.v[i], p->variant, b->castle960, text);
        if (!divide_add(d, text, count))
            return false;
    }
    return true;
}

static void play(const Bisect *b, const Position *p, const Choices *c, size_t i, Position *out)
{
    if (single(b))
        position_make(p, c->moves[i], out);
    else
        position_make_turn(p, &b->rules, &c->turns.v[i], out);
}

/* How a divide line compares with the other side's. */
enum { SAME, COUNT_DIFFERS, ONLY, TWICE };

typedef struct Comparison {
    unsigned char *ours, *theirs; /* a mark per line */
    size_t *partner;              /* for our SAME and COUNT_DIFFERS lines: the engine's line */
    size_t only_ours, only_theirs, twice, count_differs;
} Comparison;

static void comparison_free(Comparison *c)
{
    free(c->ours);
    free(c->theirs);
    free(c->partner);
    *c = (Comparison){ 0 };
}

/* By move text, then by place in the divide, so that of two equal texts the first printed is
 * the one matched and the second the duplicate. */
static int by_text(const void *a, const void *b)
{
    const DivideLine *x = *(const DivideLine *const *)a, *y = *(const DivideLine *const *)b;
    int c = strcmp(x->move, y->move);
    return c ? c : (x > y) - (x < y);
}

static const DivideLine **sorted(const Divide *d)
{
    const DivideLine **s = malloc((d->n ? d->n : 1) * sizeof *s);
    if (s) {
        for (size_t i = 0; i < d->n; i++)
            s[i] = &d->v[i];
        qsort(s, d->n, sizeof *s, by_text);
    }
    return s;
}

/* Marks every line of both divides; false when memory runs out. */
static bool compare(const Divide *ours, const Divide *theirs, Comparison *c)
{
    *c = (Comparison){ 0 };
    c->ours = calloc(ours->n + 1, 1);
    c->theirs = calloc(theirs->n + 1, 1);
    c->partner = calloc(ours->n + 1, sizeof *c->partner);
    const DivideLine **a = sorted(ours), **t = sorted(theirs);
    bool ok = c->ours && c->theirs && c->partner && a && t;
    size_t i = 0, j = 0;
    while (ok && (i < ours->n || j < theirs->n)) {
        if (i < ours->n && i > 0 && strcmp(a[i]->move, a[i - 1]->move) == 0) {
            c->ours[a[i++] - ours->v] = TWICE;
            c->twice++;
            continue;
        }
        if (j < theirs->n && j > 0 && strcmp(t[j]->move, t[j - 1]->move) == 0) {
            c->theirs[t[j++] - theirs->v] = TWICE;
            c->twice++;
            continue;
        }
        int order = i == ours->n ? 1 : j == theirs->n ? -1 : strcmp(a[i]->move, t[j]->move);
        if (order == 0) {
            size_t us = (size_t)(a[i] - ours->v), them = (size_t)(t[j] - theirs->v);
            bool same = a[i]->count == t[j]->count;
            c->ours[us] = c->theirs[them] = same ? SAME : COUNT_DIFFERS;
            c->partner[us] = them;
            c->count_differs += !same;
            i++, j++;
        } else if (order < 0) {
            c->ours[a[i++] - ours->v] = ONLY;
            c->only_ours++;
        } else {
            c->theirs[t[j++] - theirs->v] = ONLY;
            c->only_theirs++;
        }
    }
    free(a);
    free(t);
    return ok;
}

/* Where the search stands, for messages: "at the root" or "after e2e4 e7e5". */
static void where(const char *path, char *out, size_t outlen)
{
    if (path[0])
        snprintf(out, outlen, "after %s", path);
    else
        snprintf(out, outlen, "at the root");
}

/* Prints the lines of d carrying mark, as "e2e4 d2d4" or with counts "e2e4 (31) d2d4 (29)". */
static void print_marked(FILE *out, const char *label, const Divide *d, const unsigned char *marks,
                         int mark, bool counts)
{
    fprintf(out, "%s:", label);
    bool any = false;
    for (size_t i = 0; i < d->n; i++)
        if (marks[i] == mark) {
            any = true;
            fprintf(out, " %s", d->v[i].move);
            if (counts)
                fprintf(out, " (%" PRIu64 ")", d->v[i].count);
        }
    fputs(any ? "\n" : " (none)\n", out);
}

static void print_head(const Bisect *b, const char *what, const char *path, const char *fen,
                       int depth)
{
    printf("difference: %s\n", what);
    printf("root: %s\n", b->root_fen);
    printf("path: %s\n", path[0] ? path : "(root)");
    printf("fen: %s\n", fen);
    printf("depth: %d\n", depth);
}

/* The finding proper: at fen, one side lists moves the other does not (or lists one twice).
 * Subtree counts are shown above depth 1, where they are not all 1. */
static void report_lists(const Bisect *b, const char *path, const char *fen, int depth,
                         const Divide *ours, const Divide *theirs, const Comparison *c)
{
    print_head(b, single(b) ? "the move lists differ" : "the turn lists differ", path, fen, depth);
    print_marked(stdout, "carrera only", ours, c->ours, ONLY, depth > 1);
    print_marked(stdout, "engine only", theirs, c->theirs, ONLY, depth > 1);
    if (c->twice) {
        print_marked(stdout, "carrera twice", ours, c->ours, TWICE, depth > 1);
        print_marked(stdout, "engine twice", theirs, c->theirs, TWICE, depth > 1);
    }
}

/* Depth 1, the same moves, yet a count other than 1: the engine counts a move as several. */
static void report_counts(const Bisect *b, const char *path, const char *fen, int depth,
                          const Divide *ours, const Divide *theirs, const Comparison *c)
{
    print_head(b, "the same moves, counted differently at depth 1", path, fen, depth);
    printf("counted differently:");
    for (size_t i = 0; i < ours->n; i++)
        if (c->ours[i] == COUNT_DIFFERS)
            printf(" %s (carrera %" PRIu64 ", engine %" PRIu64 ")", ours->v[i].move,
                   ours->v[i].count, theirs->v[c->partner[i]].count);
    printf("\n");
}

/* The step that led here. */
typedef struct Step {
    char path[PATH_TEXT_MAX]; /* to the parent */
    char fen[FEN_MAX];        /* the parent */
    char move[DIVIDE_MOVE_MAX];
    uint64_t ours, theirs; /* below the move, in the parent's divides */
} Step;

/* The position after a move agrees although the move's count differed: the engine plays the
 * move wrongly (its position after it is not the FEN Carrera sends), or its divide is not
 * repeatable. Asking for `position fen PARENT moves MOVE` tells the two apart. */
static void report_playing(Bisect *b, const Step *s, const char *child_fen, int depth,
                           uint64_t child_theirs)
{
    Divide again = { 0 };
    char err[1024], again_text[1100];
    if (uci_client_go_perft(&b->engine, s->fen, s->move, depth, err, sizeof err) == 0 &&
        uci_client_read_divide(&b->engine, b->timeout_ms, &again, err, sizeof err) == 0)
        snprintf(again_text, sizeof again_text, "%" PRIu64, again.total);
    else
        snprintf(again_text, sizeof again_text, "unknown (%s)", err);
    divide_free(&again);

    print_head(b, "the engine counts the move differently from the position it leads to", s->path,
               s->fen, depth + 1);
    printf("move: %s\n", s->move);
    printf("after: %s\n", child_fen);
    printf("carrera: %" PRIu64 " below %s\n", s->ours, s->move);
    printf("engine: %" PRIu64 " below %s in its divide, %s after 'position fen ... moves %s', "
           "%" PRIu64 " from the FEN after it\n",
           s->theirs, s->move, again_text, s->move, child_theirs);
}

/* The divide with the difference nearest the leaves; returns the exit status. */
static int search(Bisect *b, const Position *root, int depth)
{
    Position pos = *root;
    Divide ours = { 0 }, theirs = { 0 };
    Comparison cmp = { 0 };
    Choices *choices = calloc(1, sizeof *choices);
    Step *step = calloc(1, sizeof *step);
    char path[PATH_TEXT_MAX] = "", fen[FEN_MAX], at[PATH_TEXT_MAX + 16];
    int status = BISECT_FAILED;
    if (!choices || !step)
        goto out_of_memory;
    for (int plies = 0;; plies++) {
        fen_of(b, &pos, fen);
        /* The engine counts while Carrera does: on two cores the step costs the slower one. */
        if (uci_client_go_perft(&b->engine, fen, NULL, depth, b->err, sizeof b->err) != 0)
            goto engine_failed;
        if (!carrera_divide(b, &pos, depth, choices, &ours))
            goto out_of_memory;
        if (uci_client_read_divide(&b->engine, b->timeout_ms, &theirs, b->err, sizeof b->err) != 0)
            goto engine_failed;
        comparison_free(&cmp);
        if (!compare(&ours, &theirs, &cmp))
            goto out_of_memory;

        /* The next move: of those whose counts differ, the one with the smallest subtree
         * (the larger of the two counts), the first in Carrera's order among equals. Any of
         * them leads to a finding (below a differing count the lists differ somewhere, or the
         * engine plays the move wrongly), so the choice is only about cost: this one makes
         * every step the cheapest, and the run about as long as the root divide. */
        size_t next = ours.n;
        uint64_t best = UINT64_MAX;
        bool lists_differ = cmp.only_ours || cmp.only_theirs || cmp.twice;
        for (size_t i = 0; i < ours.n && !lists_differ && depth > 1; i++)
            if (cmp.ours[i] == COUNT_DIFFERS) {
                uint64_t a = ours.v[i].count, t = theirs.v[cmp.partner[i]].count;
                uint64_t size = a > t ? a : t;
                if (size < best) {
                    best = size;
                    next = i;
                }
            }

        if (!b->quiet) {
            where(path, at, sizeof at);
            size_t differ = cmp.only_ours + cmp.only_theirs + cmp.twice + cmp.count_differs;
            fprintf(stderr,
                    "bisect: depth %d %s: carrera %" PRIu64 ", engine %" PRIu64
                    " nodes; %zu of %zu %s differ",
                    depth, at, ours.total, theirs.total, differ, ours.n,
                    single(b) ? "moves" : "turns");
            if (next < ours.n)
                fprintf(stderr, "; next %s (carrera %" PRIu64 ", engine %" PRIu64 ")",
                        ours.v[next].move, ours.v[next].count, theirs.v[cmp.partner[next]].count);
            fputc('\n', stderr);
        }

        if (lists_differ) {
            report_lists(b, path, fen, depth, &ours, &theirs, &cmp);
            status = BISECT_DIFFERENT;
            break;
        }
        if (cmp.count_differs == 0) {
            if (plies == 0) {
                printf("no difference: carrera and the engine agree on all %zu %s at depth %d "
                       "(%" PRIu64 " nodes)\n",
                       ours.n, single(b) ? "moves" : "turns", depth, ours.total);
                status = BISECT_SAME;
            } else {
                report_playing(b, step, fen, depth, theirs.total);
                status = BISECT_DIFFERENT;
            }
            break;
        }
        if (next == ours.n) {
            report_counts(b, path, fen, depth, &ours, &theirs, &cmp);
            status = BISECT_DIFFERENT;
            break;
        }

        snprintf(step->path, sizeof step->path, "%s", path);
        snprintf(step->fen, sizeof step->fen, "%s", fen);
        snprintf(step->move, sizeof step->move, "%s", ours.v[next].move);
        step->ours = ours.v[next].count;
        step->theirs = theirs.v[cmp.partner[next]].count;
        size_t used = strlen(path);
        snprintf(path + used, sizeof path - used, "%s%s", used ? " " : "", ours.v[next].move);
        Position child;
        play(b, &pos, choices, next, &child);
        pos = child;
        depth--;
    }
    goto done;

out_of_memory:
    snprintf(b->err, sizeof b->err, "out of memory");
engine_failed:
    fprintf(stderr, "carrera: error: %s\n", b->err);
    status = BISECT_FAILED;
done:
    comparison_free(&cmp);
    divide_free(&ours);
    divide_free(&theirs);
    if (choices)
        turn_list_free(&choices->turns);
    free(choices);
    free(step);
    return status;
}

int bisect_command(int argc, char **argv)
{
    PositionArgs pos = { 0 };
    const char *engine = NULL, *depth_text = NULL, *timeout = NULL;
    bool quiet = false;
    const Option options[] = {
        { "--engine", &engine, NULL },     { "--variant", &pos.variant, NULL },
        { "--fen", &pos.fen, NULL },       { "--chess960", &pos.chess960, NULL },
        { "--random", &pos.random, NULL }, { "--startpos", NULL, &pos.startpos },
        { "--turns", &pos.turns, NULL },   { "--ep-rule", &pos.ep_rule, NULL },
        { "--depth", &depth_text, NULL },  { "--timeout", &timeout, NULL },
        { "--quiet", NULL, &quiet },       { NULL, NULL, NULL },
    };
    int parsed = options_parse(argc, argv, "bisect", options);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        bisect_usage(stdout);
        return 0;
    }

    if (!engine)
        return cli_error(
            "bisect needs --engine COMMAND (e.g. --engine /usr/games/fairy-stockfish)");
    if (strspn(engine, " \t\r\n") == strlen(engine))
        return cli_error("the --engine command is empty");
    Setup s;
    Rules rules;
    if (options_position(&pos, "bisect", &s, &rules) != 0)
        return EXIT_USAGE;
    const Variant *v = s.variant;
    if (!depth_text)
        return cli_error("bisect needs --depth D");
    int depth;
    char err[256];
    if (divide_parse_depth(depth_text, &depth, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (depth == 0)
        return cli_error("bisect needs --depth of at least 1 (depth 0 has no moves to compare)");
    long timeout_s = DEFAULT_TIMEOUT_S;
    if (timeout && !number_parse(timeout, 1, MAX_TIMEOUT_S, &timeout_s))
        return cli_error("bad timeout '%s': must be a whole number of seconds from 1 to %d",
                         timeout, MAX_TIMEOUT_S);

    Bisect b = { 0 };
    b.variant = v;
    b.rules = rules;
    b.castle960 = v->castle960;
    b.style = v->castle960 ? FEN_CASTLING_SHREDDER : FEN_CASTLING_KQ;
    b.timeout_ms = (int)(timeout_s * 1000);
    b.quiet = quiet;
    Position root;
    position_from_setup(&root, &s);
    fen_of(&b, &root, b.root_fen);

    /* The engine's names: Chess960 is chess with UCI_Chess960 (Stockfish has no UCI_Variant at
     * all), Capablanca random is Fairy-Stockfish's caparandom, also with UCI_Chess960. */
    UciClientSetup setup = {
        .uci_variant = strcmp(v->name, "chess960") == 0 ? "chess"
                       : strcmp(v->name, "chess") == 0  ? NULL
                                                        : v->name,
        .chess960 = v->castle960,
        .turn_rules = pos.turns ? turn_rules_name(rules.turns) : NULL,
        .ep_rule = pos.ep_rule ? ep_rule_name(rules.ep) : NULL,
    };
    int handshake_ms = b.timeout_ms < HANDSHAKE_MS ? b.timeout_ms : HANDSHAKE_MS;
    if (uci_client_start(&b.engine, engine, handshake_ms, b.err, sizeof b.err) != 0 ||
        uci_client_setup(&b.engine, &setup, b.err, sizeof b.err) != 0) {
        fprintf(stderr, "carrera: error: %s\n", b.err);
        uci_client_stop(&b.engine);
        return BISECT_FAILED;
    }
    if (!b.quiet)
        fprintf(stderr, "bisect: engine %s (%s), %s, %s rules, depth %d\n",
                b.engine.id_name[0] ? b.engine.id_name : "without a name", engine, v->name,
                turn_rules_name(rules.turns), depth);

    int status = search(&b, &root, depth);
    uci_client_stop(&b.engine);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("carrera: error: the report could not be written\n", stderr);
        return BISECT_FAILED;
    }
    return status;
}
