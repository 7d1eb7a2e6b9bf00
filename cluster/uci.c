/* The UCI loop: one line in, its answer out (flushed at once, the peer waits on it).
 * Supported: uci, isready, ucinewgame, setoption (UCI_Variant, UCI_Chess960), position,
 * go perft N, d, quit. Nothing is searched: `go` knows only perft. */
#define _POSIX_C_SOURCE 200809L /* getline, strcasecmp */

#include "uci.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "divide.h"
#include "move.h"
#include "position.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"

#ifndef CARRERA_VERSION
#define CARRERA_VERSION "unknown"
#endif

typedef struct Uci {
    FILE *out;
    const Variant *variant; /* UCI_Variant */
    bool chess960;          /* UCI_Chess960 */
    Rules turn_rules;       /* TurnRules, EnPassantRule */
    Position pos;
} Uci;

void uci_usage(FILE *out)
{
    fputs("usage: carrera uci\n"
          "\n"
          "Reads UCI commands on stdin, one per line, and answers on stdout:\n"
          "  uci | isready | ucinewgame | quit\n"
          "  setoption name UCI_Variant value NAME\n"
          "  setoption name UCI_Chess960 value true|false\n"
          "  setoption name TurnRules value single|marseillais|marseillais-balanced|galvin|\n"
          "                                  bennekom|extramove\n"
          "  setoption name EnPassantRule value classic|modern\n"
          "  position (startpos | fen FEN) [moves M1 M2 ...]\n"
          "  go perft N      prints what `carrera perft --divide` prints\n"
          "  d               prints the current position as FEN\n",
          out);
}

static void reply(Uci *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply(Uci *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(u->out, fmt, ap);
    va_end(ap);
    fputc('\n', u->out);
    fflush(u->out);
}

/* The rules positions are read under: with UCI_Chess960 the chess variant becomes chess960,
 * whose castling covers the standard array too and whose FEN reader takes X-FEN/Shredder. */
static const Variant *rules(const Uci *u)
{
    if (u->chess960 && strcmp(u->variant->name, "chess") == 0) {
        const Variant *v = variant_by_name("chess960");
        if (v)
            return v;
    }
    return u->variant;
}

/* Castling text is king-takes-rook in Chess960 mode and always for the random-array variants. */
static bool castle960(const Uci *u) { return u->chess960 || u->variant->castle960; }

static void reset_position(Uci *u)
{
    Setup s;
    setup_start(&s, rules(u));
    position_from_setup(&u->pos, &s);
}

/* Joins tokens[from..to) with single spaces into out. */
static void join(char **tokens, int from, int to, char *out, size_t outlen)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = from; i < to && used < outlen; i++)
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i > from ? " " : "", tokens[i]);
}

static void cmd_uci(Uci *u)
{
    reply(u, "id name Carrera %s", CARRERA_VERSION);
    reply(u, "id author the Carrera developers");
    int count;
    const Variant *const *all = variant_all(&count);
    char line[1024];
    size_t used =
        (size_t)snprintf(line, sizeof line, "option name UCI_Variant type combo default chess");
    for (int i = 0; i < count && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, " var %s", all[i]->name);
    reply(u, "%s", line);
    reply(u, "option name UCI_Chess960 type check default false");
    used = (size_t)snprintf(line, sizeof line, "option name TurnRules type combo default single");
    for (int i = 0; i < TURNS_NB && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, " var %s",
                                 turn_rules_name((TurnRules)i));
    reply(u, "%s", line);
    reply(u, "option name EnPassantRule type combo default classic var classic var modern");
    reply(u, "uciok");
}

static void cmd_setoption(Uci *u, char **tokens, int n)
{
    int value_at = n;
    for (int i = 2; i < n; i++)
        if (strcmp(tokens[i], "value") == 0) {
            value_at = i;
            break;
        }
    if (n < 3 || strcmp(tokens[1], "name") != 0 || value_at == 2) {
        reply(u, "info string error: expected 'setoption name NAME [value VALUE]'");
        return;
    }
    char name[256], value[256];
    join(tokens, 2, value_at, name, sizeof name);
    join(tokens, value_at + 1, n, value, sizeof value);

    if (strcasecmp(name, "UCI_Variant") == 0) {
        const Variant *v = variant_by_name(value);
        if (!v) {
            reply(u, "info string error: unknown variant '%s'", value);
            return;
        }
        u->variant = v;
        /* The old position may not even fit the new board. */
        reset_position(u);
    } else if (strcasecmp(name, "TurnRules") == 0) {
        if (!turn_rules_parse(value, &u->turn_rules.turns))
            reply(u, "info string error: unknown turn rules '%s'", value);
    } else if (strcasecmp(name, "EnPassantRule") == 0) {
        if (!ep_rule_parse(value, &u->turn_rules.ep))
            reply(u, "info string error: EnPassantRule takes classic or modern, not '%s'", value);
    } else if (strcasecmp(name, "UCI_Chess960") == 0) {
        if (strcmp(value, "true") == 0)
            u->chess960 = true;
        else if (strcmp(value, "false") == 0)
            u->chess960 = false;
        else
            reply(u, "info string error: UCI_Chess960 takes true or false, not '%s'", value);
    } else {
        reply(u, "info string error: unknown option '%s'", name);
    }
}

/* Plays one move, or under double-move rules one complete turn written as its movements joined
 * by '/' or ',' (e2e4/g1f3); false if it is not legal. */
static bool play(const Uci *u, Position *p, const char *text)
{
    if (u->turn_rules.turns == TURNS_SINGLE) {
        Move legal[MAX_MOVES];
        int count = position_legal_moves(p, legal);
        Move m = move_from_uci(text, legal, count, p->variant, castle960(u));
        if (m != MOVE_NONE)
            position_make(p, m, p);
        return m != MOVE_NONE;
    }
    char want[TURN_TEXT_MAX + 1];
    snprintf(want, sizeof want, "%s", text);
    for (char *c = want; *c; c++)
        if (*c == ',')
            *c = '/';
    TurnList turns = { 0 };
    bool found = false;
    if (position_turns(p, &u->turn_rules, &turns))
        for (size_t i = 0; i < turns.n && !found; i++) {
            char have[TURN_TEXT_MAX];
            turn_to_uci(&turns.v[i], p->variant, castle960(u), have);
            if (strcmp(have, want) == 0) {
                position_make_turn(p, &u->turn_rules, &turns.v[i], p);
                found = true;
            }
        }
    turn_list_free(&turns);
    return found;
}

/* A bad FEN leaves the current position alone. A bad move keeps the position reached just
 * before it and ignores the moves after it (they were meant for another position). */
static void cmd_position(Uci *u, char **tokens, int n)
{
    int moves_at = n;
    for (int i = 1; i < n; i++)
        if (strcmp(tokens[i], "moves") == 0) {
            moves_at = i;
            break;
        }
    Setup s;
    if (n >= 2 && strcmp(tokens[1], "startpos") == 0 && moves_at == 2) {
        setup_start(&s, rules(u));
    } else if (n >= 2 && strcmp(tokens[1], "fen") == 0) {
        char fen[512], err[256];
        join(tokens, 2, moves_at, fen, sizeof fen);
        if (setup_from_fen_rules(&s, rules(u), &u->turn_rules, fen, err, sizeof err) != 0) {
            reply(u, "info string error: bad FEN: %s", err);
            return;
        }
    } else {
        reply(u, "info string error: expected 'position (startpos | fen FEN) [moves ...]'");
        return;
    }

    Position p;
    position_from_setup(&p, &s);
    for (int i = moves_at + 1; i < n; i++) {
        if (!play(u, &p, tokens[i])) {
            reply(u,
                  "info string error: illegal %s '%s' (%d): ignoring it and the %d after it",
                  u->turn_rules.turns == TURNS_SINGLE ? "move" : "turn", tokens[i], i - moves_at,
                  n - i - 1);
            break;
        }
    }
    u->pos = p;
}

static void cmd_go(Uci *u, char **tokens, int n)
{
    if (n != 3 || strcmp(tokens[1], "perft") != 0) {
        reply(u, "info string error: only 'go perft N' is supported");
        return;
    }
    int depth;
    char err[256];
    if (divide_parse_depth(tokens[2], &depth, err, sizeof err) != 0) {
        reply(u, "info string error: %s", err);
        return;
    }
    /* One thread: a GUI comparing perft expects the engine not to take every core. */
    PerftRunOptions run = { 1, 0, true };
    divide_print(u->out, &u->pos, &u->turn_rules, UNIT_TURN, depth, true, castle960(u), &run);
}

static void cmd_d(Uci *u)
{
    Setup s;
    char fen[FEN_MAX];
    position_to_setup(&u->pos, &s);
    setup_to_fen(&s, u->pos.castling_text, fen, sizeof fen);
    reply(u, "Fen: %s", fen);
}

/* Splits line in place at white space; tokens must have room for strlen(line) / 2 + 1. */
static int tokenize(char *line, char **tokens)
{
    int n = 0;
    for (char *t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n"))
        tokens[n++] = t;
    return n;
}

/* Handles one line; returns false on quit. */
static bool handle(Uci *u, char *line, char **tokens)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *original = strdup(line);
    int n = tokenize(line, tokens);
    bool go_on = true;
    if (n == 0) {
        /* Blank lines are allowed between commands. */
    } else if (strcmp(tokens[0], "quit") == 0) {
        go_on = false;
    } else if (strcmp(tokens[0], "uci") == 0) {
        cmd_uci(u);
    } else if (strcmp(tokens[0], "isready") == 0) {
        reply(u, "readyok");
    } else if (strcmp(tokens[0], "ucinewgame") == 0) {
        reset_position(u);
    } else if (strcmp(tokens[0], "setoption") == 0) {
        cmd_setoption(u, tokens, n);
    } else if (strcmp(tokens[0], "position") == 0) {
        cmd_position(u, tokens, n);
    } else if (strcmp(tokens[0], "go") == 0) {
        cmd_go(u, tokens, n);
    } else if (strcmp(tokens[0], "d") == 0) {
        cmd_d(u);
    } else {
        reply(u, "info string unknown command: %s", original ? original : tokens[0]);
    }
    free(original);
    return go_on;
}

int uci_loop(FILE *in, FILE *out)
{
    Uci u = { .out = out,
              .variant = variant_by_name("chess"),
              .chess960 = false,
              .turn_rules = { TURNS_SINGLE, EP_CLASSIC } };
    reset_position(&u);

    char *line = NULL;
    size_t cap = 0;
    char **tokens = NULL;
    size_t tokens_cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0) {
        size_t need = (size_t)len / 2 + 2;
        if (need > tokens_cap) {
            char **grown = realloc(tokens, need * sizeof *tokens);
            if (!grown) {
                reply(&u, "info string error: line too long, out of memory");
                continue;
            }
            tokens = grown;
            tokens_cap = need;
        }
        if (!handle(&u, line, tokens))
            break;
    }
    free(line);
    free(tokens);
    return 0;
}
