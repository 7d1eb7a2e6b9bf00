/* SPDX-License-Identifier: MIT */
/* The search of bisect (bisect_search.h). Every position goes to the engine as a FEN, so each
 * step stands alone; when a move's count differs but the position after it agrees, the
 * engine's own playing of that move is at fault, and that is reported instead. */
#define _POSIX_C_SOURCE 200809L

#include "bisect_search.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "move.h"

void finding_free(Finding *f)
{
    free(f->ours);
    free(f->theirs);
    free(f->report);
    f->ours = f->theirs = f->report = NULL;
}

BisectRules bisect_rules(const Variant *v, Rules r)
{
    return (BisectRules){ v, r, v->castle960,
                          v->castle960 ? FEN_CASTLING_SHREDDER : FEN_CASTLING_KQ };
}

static bool single(const BisectRules *b) { return b->rules.turns == TURNS_SINGLE; }

void bisect_fen(const BisectRules *b, const Position *p, char fen[FEN_MAX])
{
    Setup s;
    position_to_setup(p, &s);
    setup_to_fen(&s, b->style, fen, FEN_MAX);
}

/* The moves (or turns) of a position in Carrera's generation order: divide line i is choice i. */
typedef struct Choices {
    Move moves[MAX_MOVES];
    TurnList turns;
} Choices;

/* Carrera's divide of p, lines in generation order; false when memory runs out. */
static bool carrera_divide(const BisectRules *b, const Position *p, int depth, Choices *c,
                           Divide *d)
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

static void play(const BisectRules *b, const Position *p, const Choices *c, size_t i, Position *out)
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

/* The moves of d carrying mark, space-separated, in a malloc'ed string (NULL without memory). */
static char *marked(const Divide *d, const unsigned char *marks, int mark)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    bool first = true;
    for (size_t i = 0; i < d->n; i++)
        if (marks[i] == mark) {
            fprintf(out, "%s%s", first ? "" : " ", d->v[i].move);
            first = false;
        }
    return fclose(out) == 0 ? text : NULL;
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

static void print_head(FILE *out, const char *root, const char *what, const Finding *f)
{
    fprintf(out, "difference: %s\n", what);
    fprintf(out, "root: %s\n", root);
    fprintf(out, "path: %s\n", f->path[0] ? f->path : "(root)");
    fprintf(out, "fen: %s\n", f->fen);
    fprintf(out, "depth: %d\n", f->depth);
}

/* The finding proper: at fen, one side lists moves the other does not (or lists one twice).
 * Subtree counts are shown above depth 1, where they are not all 1. */
static void report_lists(const BisectRules *b, FILE *out, const char *root, Finding *f,
                         const Divide *ours, const Divide *theirs, const Comparison *c)
{
    f->kind = FINDING_LISTS;
    f->ours = marked(ours, c->ours, ONLY);
    f->theirs = marked(theirs, c->theirs, ONLY);
    print_head(out, root, single(b) ? "the move lists differ" : "the turn lists differ", f);
    print_marked(out, "carrera only", ours, c->ours, ONLY, f->depth > 1);
    print_marked(out, "engine only", theirs, c->theirs, ONLY, f->depth > 1);
    if (c->twice) {
        print_marked(out, "carrera twice", ours, c->ours, TWICE, f->depth > 1);
        print_marked(out, "engine twice", theirs, c->theirs, TWICE, f->depth > 1);
    }
}

/* Depth 1, the same moves, yet a count other than 1: the engine counts a move as several. */
static void report_counts(FILE *out, const char *root, Finding *f, const Divide *ours,
                          const Divide *theirs, const Comparison *c)
{
    f->kind = FINDING_COUNTS;
    f->ours = marked(ours, c->ours, COUNT_DIFFERS);
    f->theirs = strdup("");
    print_head(out, root, "the same moves, counted differently at depth 1", f);
    fprintf(out, "counted differently:");
    for (size_t i = 0; i < ours->n; i++)
        if (c->ours[i] == COUNT_DIFFERS)
            fprintf(out, " %s (carrera %" PRIu64 ", engine %" PRIu64 ")", ours->v[i].move,
                    ours->v[i].count, theirs->v[c->partner[i]].count);
    fprintf(out, "\n");
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
static void report_playing(Oracle *engine, FILE *out, const char *root, Finding *f, const Step *s,
                           const char *child_fen, int depth, uint64_t child_theirs)
{
    Divide again = { 0 };
    char err[ERRMSG_LEN], again_text[1100];
    if (oracle_ask(engine, s->fen, s->move, depth, err, sizeof err) == 0 &&
        oracle_answer(engine, &again, err, sizeof err) == 0)
        snprintf(again_text, sizeof again_text, "%" PRIu64, again.total);
    else
        snprintf(again_text, sizeof again_text, "unknown (%s)", err);
    divide_free(&again);

    f->kind = FINDING_PLAYING;
    snprintf(f->path, sizeof f->path, "%s", s->path);
    snprintf(f->fen, sizeof f->fen, "%s", s->fen);
    f->depth = depth + 1;
    f->ours = strdup(s->move);
    f->theirs = strdup("");
    print_head(out, root, "the engine counts the move differently from the position it leads to",
               f);
    fprintf(out, "move: %s\n", s->move);
    fprintf(out, "after: %s\n", child_fen);
    fprintf(out, "carrera: %" PRIu64 " below %s\n", s->ours, s->move);
    fprintf(out,
            "engine: %" PRIu64 " below %s in its divide, %s after 'position fen ... moves %s', "
            "%" PRIu64 " from the FEN after it\n",
            s->theirs, s->move, again_text, s->move, child_theirs);
}

int bisect_search(const BisectRules *b, Oracle *engine, const Position *root, int depth, bool quiet,
                  Finding *f, char *err, size_t errlen)
{
    *f = (Finding){ 0 };
    Position pos = *root;
    Divide ours = { 0 }, theirs = { 0 };
    Comparison cmp = { 0 };
    Choices *choices = calloc(1, sizeof *choices);
    Step *step = calloc(1, sizeof *step);
    char path[PATH_TEXT_MAX] = "", fen[FEN_MAX], root_fen[FEN_MAX], at[PATH_TEXT_MAX + 16];
    char *report = NULL;
    size_t report_len = 0;
    FILE *out = open_memstream(&report, &report_len);
    int status = BISECT_FAILED;
    if (!choices || !step || !out)
        goto out_of_memory;
    bisect_fen(b, root, root_fen);
    for (int plies = 0;; plies++) {
        bisect_fen(b, &pos, fen);
        snprintf(f->path, sizeof f->path, "%s", path);
        snprintf(f->fen, sizeof f->fen, "%s", fen);
        f->depth = depth;
        /* The engine counts while Carrera does: on two cores the step costs the slower one. */
        if (oracle_ask(engine, fen, NULL, depth, err, errlen) != 0)
            goto done;
        if (!carrera_divide(b, &pos, depth, choices, &ours))
            goto out_of_memory;
        if (oracle_answer(engine, &theirs, err, errlen) != 0)
            goto done;
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

        if (!quiet) {
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

        status = BISECT_DIFFERENT;
        if (lists_differ) {
            report_lists(b, out, root_fen, f, &ours, &theirs, &cmp);
            break;
        }
        if (cmp.count_differs == 0) {
            if (plies == 0) {
                f->kind = FINDING_NONE;
                f->n_moves = ours.n;
                f->nodes = ours.total;
                status = BISECT_SAME;
            } else {
                report_playing(engine, out, root_fen, f, step, fen, depth, theirs.total);
            }
            break;
        }
        if (next == ours.n) {
            report_counts(out, root_fen, f, &ours, &theirs, &cmp);
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
    errmsg_set(err, errlen, "out of memory");
    status = BISECT_FAILED;
done:
    if (out && fclose(out) != 0)
        report = NULL;
    f->report = report;
    if (status == BISECT_DIFFERENT && (!f->report || !f->ours || !f->theirs)) {
        errmsg_set(err, errlen, "out of memory");
        status = BISECT_FAILED;
    }
    if (status == BISECT_FAILED)
        finding_free(f);
    comparison_free(&cmp);
    divide_free(&ours);
    divide_free(&theirs);
    if (choices)
        turn_list_free(&choices->turns);
    free(choices);
    free(step);
    return status;
}
