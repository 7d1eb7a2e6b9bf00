/* SPDX-License-Identifier: MIT */
/* The xboard-protocol engine client (xboard_client.h): the feature negotiation, the set-up
 * commands of a position, the ping synchronisation and the search, each wait with a deadline and
 * every failure with a message; the parsers of what the engine prints. */
#define _POSIX_C_SOURCE 200809L

#include "xboard_client.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "errmsg.h"
#include "notation.h"

#define LINE_MAX_LEN 16384
/* How long an engine may take to send its first feature, and then its next one unless it said
 * done=0 (the protocol's two seconds; the first wait longer, for a loaded machine). After that it
 * is taken at what it has sent, protocol version 1's defaults for the rest. */
#define FIRST_FEATURE_MS 5000
#define NEXT_FEATURE_MS  2000

/* ---- parsing ------------------------------------------------------------------------------- */

/* Copies at most len - 1 bytes of text[0..n) into out; false when they do not fit. */
static bool copy_fits(char *out, size_t len, const char *text, size_t n)
{
    if (n >= len)
        return false;
    memcpy(out, text, n);
    out[n] = '\0';
    return true;
}

static void note_option(XboardFeatures *f, const char *value, size_t n)
{
    /* "NAME -TYPE ...": the name is what comes before the type */
    const char *type = NULL;
    for (size_t i = 0; i + 1 < n && !type; i++)
        if (value[i] == ' ' && value[i + 1] == '-')
            type = value + i;
    size_t len = type ? (size_t)(type - value) : n;
    if (f->n_options < XBOARD_OPTIONS_MAX &&
        copy_fits(f->options[f->n_options], XBOARD_OPTION_NAME, value, len))
        f->n_options++;
}

/* The features that are switches, 1 or 0, and where they go. */
typedef struct Switch {
    const char *name;
    size_t offset;
} Switch;

static const Switch SWITCHES[] = {
    { "setboard", offsetof(XboardFeatures, setboard) },
    { "ping", offsetof(XboardFeatures, ping) },
    { "usermove", offsetof(XboardFeatures, usermove) },
    { "memory", offsetof(XboardFeatures, memory) },
    { "smp", offsetof(XboardFeatures, smp) },
    { "nps", offsetof(XboardFeatures, nps) },
};

#define SWITCH_COUNT (sizeof SWITCHES / sizeof *SWITCHES)

/* Notes one NAME=VALUE pair; false with a message when a value does not fit. */
static bool note_feature(XboardFeatures *f, const char *name, size_t name_len, const char *value,
                         size_t n, XboardFeatureEnd *end, char *err, size_t errlen)
{
#define IS(word) (name_len == strlen(word) && strncmp(name, word, name_len) == 0)
    bool one = n == 1 && value[0] == '1';
    if (IS("myname")) {
        snprintf(f->myname, sizeof f->myname, "%.*s",
                 (int)(n < sizeof f->myname ? n : sizeof f->myname - 1), value);
    } else if (IS("variants")) {
        if (!copy_fits(f->variants, sizeof f->variants, value, n)) {
            errmsg_set(err, errlen, "its variants list is longer than %d characters",
                       XBOARD_VARIANTS_MAX - 1);
            return false;
        }
    } else if (IS("option")) {
        note_option(f, value, n);
    } else if (IS("done")) {
        *end = one ? XBOARD_FEATURES_DONE : XBOARD_FEATURES_WAIT;
    }
    for (size_t i = 0; i < SWITCH_COUNT; i++)
        if (IS(SWITCHES[i].name))
            *(bool *)((char *)f + SWITCHES[i].offset) = one;
#undef IS
    return true;
}

XboardFeatureEnd xboard_features_read(XboardFeatures *f, const char *line, char *err, size_t errlen)
{
    if (strncmp(line, "feature", 7) != 0 || (line[7] != ' ' && line[7] != '\0')) {
        errmsg_set(err, errlen, "not a feature line: '%.200s'", line);
        return XBOARD_FEATURES_BAD;
    }
    f->any = true;
    XboardFeatureEnd end = XBOARD_FEATURES_MORE;
    const char *c = line + 7;
    for (;;) {
        while (*c == ' ' || *c == '\t')
            c++;
        if (*c == '\0')
            return end;
        const char *name = c;
        size_t name_len = strcspn(c, "= \t");
        if (name[name_len] != '=' || name_len == 0) {
            errmsg_set(err, errlen, "'%.*s' in '%.200s' is not NAME=VALUE", (int)(name_len + 1),
                       name, line);
            return XBOARD_FEATURES_BAD;
        }
        const char *value = name + name_len + 1;
        size_t n;
        if (*value == '"') {
            value++;
            const char *close = strchr(value, '"');
            if (!close) {
                errmsg_set(err, errlen, "the quote of %.*s= is not closed in '%.200s'",
                           (int)name_len, name, line);
                return XBOARD_FEATURES_BAD;
            }
            n = (size_t)(close - value);
            c = close + 1;
        } else {
            n = strcspn(value, " \t");
            c = value + n;
        }
        if (!note_feature(f, name, name_len, value, n, &end, err, errlen))
            return XBOARD_FEATURES_BAD;
    }
}

bool xboard_features_variant(const XboardFeatures *f, const char *name)
{
    if (strcmp(name, "normal") == 0)
        return true;
    size_t len = strlen(name);
    for (const char *c = f->variants; *c;) {
        size_t n = strcspn(c, ",");
        /* names may be listed with blanks after the commas */
        while (n && *c == ' ')
            c++, n--;
        if (n == len && strncmp(c, name, len) == 0)
            return true;
        c += n;
        c += *c == ',';
    }
    return false;
}

bool xboard_features_option(const XboardFeatures *f, const char *name)
{
    for (int i = 0; i < f->n_options; i++)
        if (strcmp(f->options[i], name) == 0)
            return true;
    return false;
}

bool xboard_move_line(const char *line, char *move, size_t len)
{
    const char *text;
    if (strncmp(line, "move ", 5) == 0)
        text = line + 5;
    else if (strncmp(line, "My move is", 10) == 0 && strchr(line, ':'))
        text = strchr(line, ':') + 1;
    else
        return false;
    while (*text == ' ')
        text++;
    size_t n = strcspn(text, " \t");
    return n > 0 && copy_fits(move, len, text, n);
}

bool xboard_parse_move(const Game *g, const char *text, Turn *out, char *err, size_t errlen)
{
    if (g->rules.turns != TURNS_SINGLE) {
        errmsg_set(err, errlen, "the xboard protocol has no double-move turns");
        return false;
    }
    Move m;
    if (!notation_move_from_san(&g->pos, text, &m, err, errlen))
        return false;
    *out = (Turn){ { m, MOVE_NONE }, 1 };
    return true;
}

bool xboard_thinking_line(const char *line, XboardThinking *out)
{
    int ply, score, centis, used = 0;
    uint64_t nodes;
    if (sscanf(line, "%d %d %d %" SCNu64 "%n", &ply, &score, &centis, &nodes, &used) != 4 ||
        ply < 0 || (line[used] != '\0' && line[used] != ' ' && line[used] != '\t'))
        return false;
    *out = (XboardThinking){ ply, score, nodes };
    return true;
}

/* ---- positions ----------------------------------------------------------------------------- */

static int king_square(const Setup *s, int color)
{
    for (int sq = 0; sq < s->variant->files * RANKS; sq++)
        if (s->board[sq] == make_piece(color, KING))
            return sq;
    return NO_SQUARE;
}

/* Appends text to out; false when it does not fit. */
static bool append(char *out, size_t outlen, size_t *used, const char *text)
{
    size_t n = strlen(text);
    if (*used + n >= outlen)
        return false;
    memcpy(out + *used, text, n + 1);
    *used += n;
    return true;
}

int xboard_edit_can_say(const Setup *s, char *err, size_t errlen)
{
    const Variant *v = s->variant;
    if (s->ep[0] != NO_SQUARE)
        return errmsg_fail(err, errlen,
                           "the position has an en passant square, which edit cannot set up");
    Setup start;
    setup_start(&start, v);
    for (int c = WHITE; c <= BLACK; c++) {
        int king = king_square(&start, c);
        for (int k = 0; k < 2; k++) {
            int rook = start.castle_rook[c][k];
            /* what an engine assumes: the right of every king and rook on its start square */
            bool assumed = !v->castle960 && rook != NO_SQUARE && king != NO_SQUARE &&
                           s->board[king] == make_piece(c, KING) &&
                           s->board[rook] == make_piece(c, ROOK);
            int expected = assumed ? rook : NO_SQUARE;
            if (s->castle_rook[c][k] != expected || (v->castle960 && s->castle_rook[c][k] >= 0))
                return errmsg_fail(
                    err, errlen,
                    "%s's castling rights cannot be set up with edit, which lets a king and rook "
                    "castle exactly when they stand on their start squares%s",
                    c == WHITE ? "White" : "Black", v->castle960 ? " of the standard array" : "");
        }
    }
    return 0;
}

int xboard_edit_commands(const Setup *s, char *out, size_t outlen, char *err, size_t errlen)
{
    const Variant *v = s->variant;
    if (xboard_edit_can_say(s, err, errlen) != 0)
        return -1;
    size_t used = 0;
    out[0] = '\0';
    bool fits = (s->side == WHITE || append(out, outlen, &used, "a2a3\n")) &&
                append(out, outlen, &used, "edit\n#\n");
    for (int c = WHITE; c <= BLACK && fits; c++) {
        if (c == BLACK)
            fits = append(out, outlen, &used, "c\n");
        for (int sq = 0; sq < v->files * RANKS && fits; sq++) {
            Piece p = s->board[sq];
            if (p == NO_PIECE || piece_color(p) != c)
                continue;
            char line[16];
            snprintf(line, sizeof line, "%c%c%d\n", variant_letter(v, piece_type(p)),
                     'a' + sq % v->files, sq / v->files + 1);
            fits = append(out, outlen, &used, line);
        }
    }
    if (!fits || !append(out, outlen, &used, ".\n"))
        return errmsg_fail(err, errlen, "the edit commands do not fit in %zu bytes", outlen);
    return 0;
}

void xboard_setboard_command(const Setup *s, char *out, size_t outlen)
{
    char fen[FEN_MAX];
    setup_to_fen(s, s->variant->castle960 ? FEN_CASTLING_SHREDDER : FEN_CASTLING_KQ, fen,
                 sizeof fen);
    snprintf(out, outlen, "setboard %s\n", fen);
}

/* ---- the engine ---------------------------------------------------------------------------- */

/* The engine's output ended or a write failed: the message, the engine reaped. */
static int gone(XboardClient *e, const char *when, char *err, size_t errlen)
{
    char why[ERRMSG_LEN];
    engine_link_gone(&e->link, why, sizeof why);
    return errmsg_fail(err, errlen, "the engine '%s' exited (%s) %s", e->link.command, why, when);
}

int xboard_client_send(XboardClient *e, const char *text, char *err, size_t errlen)
{
    if (subprocess_send(&e->link.proc, text) == 0)
        return 0;
    char when[256];
    snprintf(when, sizeof when, "before reading '%.*s'", (int)strcspn(text, "\n"), text);
    return gone(e, when, err, errlen);
}

/* Reads the feature lines up to done=1, or the protocol's wait after the last one. */
static int negotiate(XboardClient *e, char *err, size_t errlen)
{
    char line[LINE_MAX_LEN], why[ERRMSG_LEN];
    const int64_t start = monotonic_ms();
    int64_t deadline = start + FIRST_FEATURE_MS;
    bool waiting = false; /* done=0 came: wait for done=1 up to handshake_ms */
    for (;;) {
        int got = engine_link_read(&e->link, deadline, line, sizeof line);
        if (got == 0)
            return gone(e, "during the feature negotiation", err, errlen);
        if (got < 0) {
            if (!waiting)
                return 0;
            engine_link_kill(&e->link);
            return errmsg_fail(err, errlen,
                               "the engine '%s' sent feature done=0 but not done=1 within %g s",
                               e->link.command, engine_link_seconds(e->handshake_ms));
        }
        if (strncmp(line, "feature", 7) != 0)
            continue; /* a banner, a board, a comment */
        switch (xboard_features_read(&e->features, line, why, sizeof why)) {
        case XBOARD_FEATURES_BAD:
            engine_link_kill(&e->link);
            return errmsg_fail(err, errlen, "the engine '%s' sent a bad feature line: %s",
                               e->link.command, why);
        case XBOARD_FEATURES_DONE:
            return 0;
        case XBOARD_FEATURES_WAIT:
            waiting = true;
            deadline = start + e->handshake_ms;
            break;
        case XBOARD_FEATURES_MORE:
            if (!waiting && monotonic_ms() + NEXT_FEATURE_MS > deadline)
                deadline = monotonic_ms() + NEXT_FEATURE_MS;
            break;
        }
    }
}

int xboard_client_start(XboardClient *e, const char *command, int handshake_ms, char *err,
                        size_t errlen)
{
    *e = (XboardClient){ .handshake_ms = handshake_ms };
    if (engine_link_start(&e->link, command, handshake_ms, err, errlen) != 0 ||
        xboard_client_send(e, "xboard\nprotover 2\n", err, errlen) != 0 ||
        negotiate(e, err, errlen) != 0)
        return -1;
    if (!e->features.any)
        return 0; /* protocol version 1: nothing to accept */
    /* every feature this client reads is one it can use */
    char accepted[512];
    size_t n = (size_t)snprintf(accepted, sizeof accepted,
                                "accepted myname\naccepted variants\naccepted option\n"
                                "accepted done\n");
    for (size_t i = 0; i < SWITCH_COUNT; i++)
        n += (size_t)snprintf(accepted + n, sizeof accepted - n, "accepted %s\n", SWITCHES[i].name);
    return xboard_client_send(e, accepted, err, errlen);
}

/* Whether a line says that the engine refused a command. */
static bool is_complaint(const char *line)
{
    return strncmp(line, "Error", 5) == 0 || strncmp(line, "Illegal move", 12) == 0 ||
           strncmp(line, "tellusererror", 13) == 0;
}

EngineAnswer xboard_client_sync(XboardClient *e, const char *what, char *err, size_t errlen)
{
    if (!e->features.ping)
        return ANSWER_OK;
    char ping[32], pong[32], line[LINE_MAX_LEN];
    unsigned n = ++e->pings;
    snprintf(ping, sizeof ping, "ping %u\n", n);
    snprintf(pong, sizeof pong, "pong %u", n);
    if (xboard_client_send(e, ping, err, errlen) != 0)
        return ANSWER_EXITED;
    char when[512];
    snprintf(when, sizeof when, "after %.400s", what);
    int64_t deadline = monotonic_ms() + e->handshake_ms;
    for (;;) {
        EngineAnswer a = engine_link_next(&e->link, deadline, line, sizeof line, "'pong'",
                                          e->handshake_ms, when, err, errlen);
        if (a != ANSWER_OK)
            return a;
        if (strcmp(line, pong) == 0)
            return ANSWER_OK;
        if (is_complaint(line)) {
            engine_link_kill(&e->link);
            errmsg_set(err, errlen, "the engine refused %s: it answered '%.300s'", what, line);
            return ANSWER_GARBAGE;
        }
    }
}

/* A result claim ("1-0 {...}", "1/2-1/2 {...}") or a resignation. */
static bool ends_game(const char *line)
{
    static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "resign" };
    for (size_t i = 0; i < sizeof results / sizeof *results; i++) {
        size_t n = strlen(results[i]);
        if (strncmp(line, results[i], n) == 0 && (line[n] == ' ' || line[n] == '\0'))
            return true;
    }
    return false;
}

EngineAnswer xboard_client_search(XboardClient *e, int timeout_ms, XboardSearchAnswer *out,
                                  char *err, size_t errlen)
{
    *out = (XboardSearchAnswer){ .has_score = false };
    if (xboard_client_send(e, "go\n", err, errlen) != 0)
        return ANSWER_EXITED;
    char line[LINE_MAX_LEN];
    int64_t deadline = monotonic_ms() + timeout_ms;
    for (;;) {
        EngineAnswer a = engine_link_next(&e->link, deadline, line, sizeof line, "move", timeout_ms,
                                          "of 'go'", err, errlen);
        if (a != ANSWER_OK)
            return a;
        XboardThinking t;
        if (xboard_thinking_line(line, &t)) {
            out->has_score = true;
            out->last = t;
            continue;
        }
        if (xboard_move_line(line, out->move, sizeof out->move))
            return xboard_client_send(e, "force\n", err, errlen) == 0 ? ANSWER_OK : ANSWER_EXITED;
        bool bare_move = strncmp(line, "move", 4) == 0 && (line[4] == '\0' || line[4] == ' ');
        if (bare_move || is_complaint(line) || ends_game(line)) {
            engine_link_kill(&e->link);
            errmsg_set(err, errlen, "the engine answered '%.200s' instead of a move", line);
            return ANSWER_GARBAGE;
        }
        /* anything else (comments, telluser, offers, piece descriptions) is not a move */
    }
}

void xboard_client_stop(XboardClient *e) { engine_link_quit(&e->link, "quit\n"); }
