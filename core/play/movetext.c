/* SPDX-License-Identifier: MIT */
/* Game records as one line of text (see movetext.h): writing turns with move numbers, and a small
 * tokenizer that reads them back, turn by turn, against the rules. */
#include "movetext.h"

#include "errmsg.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest token read: a move number glued to a turn (12.Nbd2/Qxf7+) with room to spare. */
#define TOKEN_MAX 64

static const char *side_name(int side) { return side == WHITE ? "White" : "Black"; }

bool notation_game_to_text(const Position *start, const Rules *r, const Turn *turns, size_t n,
                           char *out, size_t outlen, char *err, size_t errlen)
{
    if (outlen)
        out[0] = '\0';
    Setup s;
    position_to_setup(start, &s);
    int number = s.fullmove, side = position_side(start);
    const char *between = r->turns == TURNS_SINGLE ? " " : "//";
    Position cur = *start;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char text[TURN_SAN_MAX];
        if (!notation_turn_to_text(&cur, r, &turns[i], text, sizeof text)) {
            char uci[TURN_TEXT_MAX];
            turn_to_uci(&turns[i], cur.variant, cur.variant->castle960, uci);
            errmsg_set(err, errlen, "turn %zu (move %d, %s) '%s' is not a legal turn", i + 1,
                       number, side_name(side), uci);
            return false;
        }
        char prefix[24];
        if (side == WHITE)
            snprintf(prefix, sizeof prefix, "%s%d.", i ? " " : "", number);
        else if (i == 0)
            snprintf(prefix, sizeof prefix, "%d...", number);
        else
            strcpy(prefix, between);
        int len = snprintf(out + k, outlen > k ? outlen - k : 0, "%s%s", prefix, text);
        if (len < 0 || k + (size_t)len >= outlen) {
            if (outlen)
                out[0] = '\0';
            errmsg_set(err, errlen, "the record of %zu turns needs more than %zu bytes", n, outlen);
            return false;
        }
        k += (size_t)len;
        Position next;
        position_make_turn(&cur, r, &turns[i], &next);
        cur = next;
        number += side == BLACK;
        side ^= 1;
    }
    return true;
}

static bool is_result(const char *tok)
{
    return strcmp(tok, "1-0") == 0 || strcmp(tok, "0-1") == 0 || strcmp(tok, "1/2-1/2") == 0 ||
           strcmp(tok, "*") == 0;
}

/* Length of a move number at the start of tok ("12." or "12..."), 0 when there is none:
 * castling written 0-0 starts with a digit too. */
static size_t move_number_length(const char *tok)
{
    size_t i = 0;
    while (isdigit((unsigned char)tok[i]))
        i++;
    if (i == 0 || tok[i] != '.')
        return 0;
    while (tok[i] == '.')
        i++;
    return i;
}

/* The reader's state between tokens. */
typedef struct Reader {
    Position cur;
    const Rules *r;
    int number, side;
    bool open_separator; /* a "//" was read and no turn after it yet */
    bool turn_since;     /* a turn was read since the start, the last move number or "//" */
    bool result;         /* the result was read: nothing but comments may follow */
} Reader;

/* Reads one turn text and plays it. */
static bool read_turn(Reader *rd, const char *text, TurnList *out, char *err, size_t errlen)
{
    Turn t;
    char why[ERRMSG_LEN];
    if (!notation_turn_from_text(&rd->cur, rd->r, text, &t, why, sizeof why)) {
        errmsg_set(err, errlen, "move %d (%s), turn '%s': %s", rd->number, side_name(rd->side),
                   text, why);
        return false;
    }
    if (!turn_list_push(out, &t)) {
        errmsg_set(err, errlen, "out of memory after %zu turns", out->n);
        return false;
    }
    Position next;
    position_make_turn(&rd->cur, rd->r, &t, &next);
    rd->cur = next;
    rd->number += rd->side == BLACK;
    rd->side ^= 1;
    rd->open_separator = false;
    rd->turn_since = true;
    return true;
}

/* Handles the token tok (no white space, no "//", no braces). */
static bool read_token(Reader *rd, const char *tok, TurnList *out, char *err, size_t errlen)
{
    if (rd->result) {
        errmsg_set(err, errlen, "'%s' after the result: the result must come last", tok);
        return false;
    }
    size_t num = move_number_length(tok);
    if ((is_result(tok) || num) && rd->open_separator) {
        errmsg_set(err, errlen, "empty turn after '//' before '%s'", tok);
        return false;
    }
    if (is_result(tok)) {
        rd->result = true;
        return true;
    }
    if (num) {
        rd->turn_since = false;
        tok += num;
        if (!*tok)
            return true;
    }
    return read_turn(rd, tok, out, err, errlen);
}

bool notation_game_from_text(const Position *start, const Rules *r, const char *text, TurnList *out,
                             Position *end, char *err, size_t errlen)
{
    out->n = 0;
    Setup s;
    position_to_setup(start, &s);
    Reader rd = { .cur = *start, .r = r, .number = s.fullmove, .side = position_side(start) };
    const char *c = text ? text : "";
    bool ok = true;
    while (ok) {
        while (isspace((unsigned char)*c))
            c++;
        if (!*c)
            break;
        if (*c == '{') {
            const char *close = strchr(c, '}');
            if (!close) {
                errmsg_set(err, errlen, "comment '%.20s' has no closing '}'", c);
                ok = false;
            }
            c = close ? close + 1 : c;
            continue;
        }
        if (c[0] == '/' && c[1] == '/') {
            if (rd.result) {
                errmsg_set(err, errlen, "'//' after the result: the result must come last");
                ok = false;
            } else if (!rd.turn_since) {
                errmsg_set(err, errlen, "empty turn before '//' (move %d, %s)", rd.number,
                           side_name(rd.side));
                ok = false;
            }
            rd.open_separator = true;
            rd.turn_since = false;
            c += 2;
            continue;
        }
        size_t len = 0;
        while (c[len] && !isspace((unsigned char)c[len]) && c[len] != '{' &&
               !(c[len] == '/' && c[len + 1] == '/'))
            len++;
        char tok[TOKEN_MAX];
        if (len >= TOKEN_MAX) {
            errmsg_set(err, errlen, "cannot read '%.20s...': too long for a turn", c);
            ok = false;
            break;
        }
        memcpy(tok, c, len);
        tok[len] = '\0';
        ok = read_token(&rd, tok, out, err, errlen);
        c += len;
    }
    if (ok && rd.open_separator) {
        errmsg_set(err, errlen, "empty turn after '//' at the end");
        ok = false;
    }
    if (end)
        *end = rd.cur;
    return ok;
}
