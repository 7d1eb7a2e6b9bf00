/* SPDX-License-Identifier: MIT */
/* The CECP referee of the tests (cecp_referee.h). */
#define _POSIX_C_SOURCE 200809L

#include "cecp_referee.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "errmsg.h"
#include "game.h"
#include "notation.h"
#include "position.h"
#include "setup.h"
#include "subprocess.h"
#include "xboard_variant.h"

/* How long an engine may take to start and send its features. */
#define HANDSHAKE_MS 10000
/* Grace beyond an engine's clock before a silent engine counts as stalled. */
#define STALL_MS 5000
/* How far below zero a clock may go (scheduling on a loaded machine) before it is a forfeit. */
#define FLAG_GRACE_MS 1000

typedef struct Player {
    Subprocess p;
    bool started, usermove, setboard, thinking;
    char name[64];
    int64_t clock_ms;
} Player;

static bool failf(CecpOutcome *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool failf(CecpOutcome *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error, sizeof out->error, fmt, ap);
    va_end(ap);
    out->ok = false;
    return false;
}

static bool send(Player *pl, CecpOutcome *out, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool send(Player *pl, CecpOutcome *out, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    strcat(line, "\n");
    if (subprocess_send(&pl->p, line) != 0)
        return failf(out, "%s has gone (writing '%.100s')", pl->name, line);
    return true;
}

/* The value of feature NAME in a feature line: its text (quotes removed) in value. */
static bool feature(const char *line, const char *name, char *value, size_t len)
{
    char key[64];
    snprintf(key, sizeof key, " %s=", name);
    const char *at = strstr(line, key);
    if (!at)
        return false;
    at += strlen(key);
    size_t n = *at == '"' ? strcspn(++at, "\"") : strcspn(at, " ");
    snprintf(value, len, "%.*s", (int)(n < len ? n : len - 1), at);
    return true;
}

static bool handshake(Player *pl, char *const argv[], CecpOutcome *out)
{
    char err[ERRMSG_LEN], line[16384], value[64];
    snprintf(pl->name, sizeof pl->name, "%s", argv[0]);
    if (subprocess_start(&pl->p, argv, err, sizeof err) != 0)
        return failf(out, "cannot start %s: %s", argv[0], err);
    pl->started = true;
    if (!send(pl, out, "xboard") || !send(pl, out, "protover 2"))
        return false;
    for (;;) {
        int got = subprocess_read_line(&pl->p, line, sizeof line, HANDSHAKE_MS);
        if (got != 1)
            return failf(out, "%s sent no 'feature done=1' (%s)", pl->name,
                         got == 0 ? "it ended" : "timeout");
        if (strncmp(line, "feature ", 8) != 0)
            continue;
        if (feature(line, "myname", value, sizeof value))
            snprintf(pl->name, sizeof pl->name, "%s", value);
        if (feature(line, "usermove", value, sizeof value))
            pl->usermove = strcmp(value, "1") == 0;
        if (feature(line, "setboard", value, sizeof value))
            pl->setboard = strcmp(value, "1") == 0;
        if (feature(line, "done", value, sizeof value) && strcmp(value, "1") == 0)
            return true;
    }
}

/* What an engine's line says about the game: a result claim or resignation ("1-0 {...}"). */
static bool claim(const char *line, char *result, size_t len)
{
    static const char *const results[] = { "1-0", "0-1", "1/2-1/2" };
    for (size_t i = 0; i < sizeof results / sizeof *results; i++) {
        size_t n = strlen(results[i]);
        if (strncmp(line, results[i], n) == 0 && (line[n] == ' ' || line[n] == '\0')) {
            snprintf(result, len, "%s", results[i]);
            return true;
        }
    }
    return false;
}

/* The game's result by Carrera's rules, or NULL while it goes on. */
static const char *rules_result(const Game *g, char *reason, size_t len)
{
    int winner;
    Termination t = game_status(g, &winner);
    if (t == TERM_NONE)
        return NULL;
    snprintf(reason, len, "%s", termination_name(t));
    return winner == WHITE ? "1-0" : winner == BLACK ? "0-1" : "1/2-1/2";
}

/* Reads the mover's lines until its move: true with the move's text in move, or false with
 * out->ok still true when the engine ended the game by a claim or resignation that the rules
 * confirm (out->result set), and false with an error otherwise. */
static bool read_move(Player *pl, int side, const Game *g, CecpOutcome *out, char *move, size_t len)
{
    char line[16384];
    int64_t start = monotonic_ms();
    for (;;) {
        int64_t left = pl->clock_ms + STALL_MS - (monotonic_ms() - start);
        int got = subprocess_read_line(&pl->p, line, sizeof line, left > 0 ? (int)left : 0);
        if (got != 1)
            return failf(out, "%s stalled or ended without a move (%s) after %d plies", pl->name,
                         got == 0 ? "end of output" : "timeout", out->plies);
        pl->clock_ms -= monotonic_ms() - start;
        start = monotonic_ms();
        char result[8], reason[128];
        if (strncmp(line, "move ", 5) == 0) {
            snprintf(move, len, "%.63s", line + 5);
            return true;
        }
        if (strncmp(line, "Illegal move", 12) == 0 || strncmp(line, "Error", 5) == 0 ||
            strncmp(line, "tellusererror", 13) == 0)
            return failf(out, "%s after %d plies: '%s' (moves: %s)", pl->name, out->plies, line,
                         out->moves);
        if (strcmp(line, "resign") == 0 ||
            (claim(line, result, sizeof result) && strstr(line, "resign"))) {
            snprintf(out->result, sizeof out->result, "%s", side == WHITE ? "0-1" : "1-0");
            snprintf(out->reason, sizeof out->reason, "%s resigns", pl->name);
            return false;
        }
        if (claim(line, result, sizeof result)) {
            const char *real = rules_result(g, reason, sizeof reason);
            if (!real || strcmp(real, result) != 0)
                return failf(out, "%s claims '%s', but by the rules the game %s%s", pl->name, line,
                             real ? "ended " : "goes on", real ? real : "");
            snprintf(out->result, sizeof out->result, "%s", result);
            snprintf(out->reason, sizeof out->reason, "%.60s (claimed by %.50s)", reason, pl->name);
            return false;
        }
        /* thinking output, telluser, setup, piece descriptions, offers: not the referee's */
    }
}

static bool start_game(Player *pl, const CecpGameSpec *spec, CecpOutcome *out)
{
    if (!send(pl, out, "new") || !send(pl, out, "force"))
        return false;
    if (strcmp(spec->variant, "normal") != 0 && !send(pl, out, "variant %s", spec->variant))
        return false;
    if (!send(pl, out, "level 0 %d:%02d %d", spec->base_s / 60, spec->base_s % 60, spec->inc_s))
        return false;
    if (spec->depth > 0 && !send(pl, out, "sd %d", spec->depth))
        return false;
    if (!send(pl, out, "nopost") || !send(pl, out, "easy"))
        return false;
    if (spec->fen) {
        if (!pl->setboard)
            return failf(out, "%s has no setboard: it cannot start from '%s'", pl->name, spec->fen);
        if (!send(pl, out, "setboard %s", spec->fen))
            return false;
    }
    pl->clock_ms = spec->base_s * 1000LL;
    return true;
}

/* The game's start under Carrera's rules. */
static bool start_position(const CecpGameSpec *spec, Game *g, CecpOutcome *out)
{
    const Variant *v = xboard_variant(spec->variant);
    if (!v)
        return failf(out, "Carrera does not play the variant '%s'", spec->variant);
    Setup s;
    char err[ERRMSG_LEN];
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    if (spec->fen) {
        if (setup_from_fen_rules(&s, v, &single, spec->fen, err, sizeof err) != 0)
            return failf(out, "bad start position: %s", err);
    } else {
        setup_start(&s, v);
    }
    Position p;
    position_from_setup(&p, &s);
    if (!game_init(g, &p, &single, v->castle960))
        return failf(out, "out of memory");
    return true;
}

static bool play(Player pl[2], const CecpGameSpec *spec, Game *g, CecpOutcome *out)
{
    char last[64] = "";
    const Variant *v = g->pos.variant;
    for (;;) {
        char reason[128];
        const char *result = rules_result(g, reason, sizeof reason);
        if (result) {
            snprintf(out->result, sizeof out->result, "%s", result);
            snprintf(out->reason, sizeof out->reason, "%s", reason);
            return true;
        }
        if (out->plies >= spec->max_plies) {
            snprintf(out->result, sizeof out->result, "*");
            snprintf(out->reason, sizeof out->reason, "adjudicated after %d plies", out->plies);
            return true;
        }
        int side = position_side(&g->pos);
        Player *mover = &pl[side], *other = &pl[!side];
        if (!send(mover, out, "time %lld", (long long)(mover->clock_ms / 10)) ||
            !send(mover, out, "otim %lld", (long long)(other->clock_ms / 10)))
            return false;
        if (last[0] && !send(mover, out, "%s%s", mover->usermove ? "usermove " : "", last))
            return false;
        if (!mover->thinking) {
            if (!send(mover, out, "go"))
                return false;
            mover->thinking = true;
        }
        char text[64], err[ERRMSG_LEN];
        if (!read_move(mover, side, g, out, text, sizeof text))
            return out->ok;
        if (mover->clock_ms < -FLAG_GRACE_MS)
            return failf(out, "%s lost on time (%lld ms over) after %d plies", mover->name,
                         (long long)-mover->clock_ms, out->plies);
        mover->clock_ms += spec->inc_s * 1000LL;
        Move m;
        Turn t = { { MOVE_NONE, MOVE_NONE }, 1 };
        if (!notation_move_from_san(&g->pos, text, &m, err, sizeof err))
            return failf(out,
                         "%s played '%s', illegal by Carrera's rules after %d plies: %s "
                         "(moves: %s)",
                         mover->name, text, out->plies, err, out->moves);
        t.m[0] = m;
        if (!game_play(g, &t))
            return failf(out, "out of memory");
        /* the other engine gets the move as XBoard would write it */
        xboard_move_text(m, v, last);
        size_t used = strlen(out->moves);
        snprintf(out->moves + used, sizeof out->moves - used, "%s%s", used ? " " : "", text);
        out->plies++;
    }
}

bool cecp_play(char *const *const argv[2], const CecpGameSpec *spec, CecpOutcome *out)
{
    *out = (CecpOutcome){ .ok = true };
    Player pl[2] = { { .thinking = false }, { .thinking = false } };
    Game g = { 0 };
    bool have_game = false;
    bool ok = handshake(&pl[0], argv[0], out) && handshake(&pl[1], argv[1], out);
    for (int i = 0; i < 2 && ok; i++)
        snprintf(out->names[i], sizeof out->names[i], "%s", pl[i].name);
    ok = ok && start_position(spec, &g, out);
    have_game = ok;
    ok = ok && start_game(&pl[0], spec, out) && start_game(&pl[1], spec, out);
    ok = ok && play(pl, spec, &g, out);
    for (int i = 0; i < 2; i++) {
        if (!pl[i].started)
            continue;
        if (ok)
            ok = send(&pl[i], out, "result %s {%s}", out->result, out->reason) &&
                 send(&pl[i], out, "quit");
        int status = subprocess_finish(&pl[i].p, 3000);
        if (ok && status != 0) {
            char how[128];
            subprocess_describe_end(status, how, sizeof how);
            ok = failf(out, "%s ended with %s after quit", pl[i].name, how);
        }
    }
    if (have_game)
        game_free(&g);
    return ok && out->ok;
}
