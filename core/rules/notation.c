/* SPDX-License-Identifier: MIT */
/* SAN for movements and turns (see notation.h for what is written and what is read).
 * A movement is always judged against an explicit list of candidates and the board it is played
 * on, so the same code serves single-move chess (the legal moves) and both movements of a turn
 * (the first or second movements of the complete turns); the side to move never matters. */
#include "notation.h"

#include "errmsg.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Movement text longer than this is not SAN or UCI (the longest is about ten characters). */
#define TEXT_MAX 24

static int file_of(const Variant *v, int sq) { return sq % v->files; }
static int rank_of(const Variant *v, int sq) { return sq / v->files; }
static bool is_file(const Variant *v, char c) { return c >= 'a' && c < 'a' + v->files; }
static bool is_rank(char c) { return c >= '1' && c < '1' + RANKS; }

/* 1 for king side (the rook on the higher file), 0 for queen side. */
static int castle_side(const Variant *v, Move m)
{
    return file_of(v, move_to(m)) > file_of(v, move_from(m));
}

static bool is_capture(const Setup *s, Move m)
{
    return move_kind(m) == MOVE_EN_PASSANT ||
           (move_kind(m) != MOVE_CASTLING && s->board[move_to(m)] != NO_PIECE);
}

/* ---- writing -------------------------------------------------------------------------------- */

/* SAN of m on board s without check suffix; cand (n movements) decides the disambiguation. */
static void san_body(const Setup *s, Move m, const Move *cand, int n, char out[SAN_MAX])
{
    const Variant *v = s->variant;
    const int from = move_from(m), to = move_to(m);
    if (move_kind(m) == MOVE_CASTLING) {
        strcpy(out, castle_side(v, m) ? "O-O" : "O-O-O");
        return;
    }
    const PieceType pt = piece_type(s->board[from]);
    const bool capture = is_capture(s, m);
    char *o = out;
    if (pt == PAWN) {
        if (capture)
            *o++ = (char)('a' + file_of(v, from));
    } else {
        *o++ = variant_letter(v, pt);
        bool clash = false, same_file = false, same_rank = false;
        for (int i = 0; i < n; i++) {
            int other = move_from(cand[i]);
            if (move_kind(cand[i]) == MOVE_CASTLING || move_to(cand[i]) != to || other == from ||
                piece_type(s->board[other]) != pt)
                continue;
            clash = true;
            same_file |= file_of(v, other) == file_of(v, from);
            same_rank |= rank_of(v, other) == rank_of(v, from);
        }
        /* The file if it tells the pieces apart, else the rank if it does, else both. */
        if (clash && (!same_file || same_rank))
            *o++ = (char)('a' + file_of(v, from));
        if (clash && same_file)
            *o++ = (char)('1' + rank_of(v, from));
    }
    if (capture)
        *o++ = 'x';
    *o++ = (char)('a' + file_of(v, to));
    *o++ = (char)('1' + rank_of(v, to));
    if (move_kind(m) == MOVE_PROMOTION) {
        *o++ = '=';
        *o++ = variant_letter(v, move_promo(m));
    }
    *o = '\0';
}

/* The suffix of a movement that ends a turn, judged on the position at the next boundary: #
 * when the side to move is in check and no first movement the rule set allows parries it. That
 * is "no complete turn", except under classic and balanced Marseillais, where a parrying first
 * movement with no second movement after it is stalemate (docs/rules.md 4.1 rules 4 and 5). */
static const char *check_suffix(const Position *after, const Rules *r)
{
    if (r->turns == TURNS_GALVIN || !position_in_check(after))
        return "";
    TurnList l = { 0 };
    bool listed = position_turns(after, r, &l);
    size_t turns = l.n;
    turn_list_free(&l);
    if (!listed || turns > 0)
        return "+";
    Move legal[MAX_MOVES];
    bool pairs_only = r->turns == TURNS_MARSEILLAIS || r->turns == TURNS_BALANCED;
    return pairs_only && position_legal_moves(after, legal) > 0 ? "+" : "#";
}

bool notation_move_to_san(const Position *p, Move m, char *out, size_t outlen)
{
    if (outlen)
        out[0] = '\0';
    Move legal[MAX_MOVES];
    int n = position_legal_moves(p, legal), i = 0;
    while (i < n && legal[i] != m)
        i++;
    if (i == n || m == MOVE_NONE)
        return false;
    Setup s;
    position_to_setup(p, &s);
    char body[SAN_MAX];
    san_body(&s, m, legal, n, body);
    Position after;
    position_make(p, m, &after);
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    int len = snprintf(out, outlen, "%s%s", body, check_suffix(&after, &single));
    if (len < 0 || (size_t)len >= outlen) {
        if (outlen)
            out[0] = '\0';
        return false;
    }
    return true;
}

/* ---- reading -------------------------------------------------------------------------------- */

/* A SAN movement as read: what it says about the movement, -1 / NO_TYPE where it says nothing. */
typedef struct SanText {
    int castle; /* -1, or the castle_side */
    PieceType piece;
    int from_file, from_rank, to;
    PieceType promo;
} SanText;

static bool castling_text(const char *t, int *side)
{
    static const char *const forms[] = { "O-O-O", "0-0-0", "o-o-o", "O-O", "0-0", "o-o" };
    for (int i = 0; i < 6; i++)
        if (strcmp(t, forms[i]) == 0) {
            *side = i >= 3;
            return true;
        }
    return false;
}

/* Reads SAN right to left: annotations and e.p., promotion, destination, capture mark, then what is
 * left must be an optional piece letter and an optional from-file and from-rank. */
static bool san_read(const Variant *v, const char *text, SanText *st, char *err, size_t errlen)
{
    char buf[TEXT_MAX];
    strcpy(buf, text);
    size_t len = strlen(buf);
    while (len && strchr("+#!?", buf[len - 1]))
        len--;
    if (len > 4 && strncmp(buf + len - 4, "e.p.", 4) == 0)
        len -= 4;
    buf[len] = '\0';
    *st = (SanText){ -1, PAWN, -1, -1, NO_SQUARE, NO_TYPE };
    if (castling_text(buf, &st->castle))
        return true;
    /* A letter after the destination square (or after '=') is the promotion piece. */
    if (len >= 2 && isalpha((unsigned char)buf[len - 1]) &&
        (buf[len - 2] == '=' || is_rank(buf[len - 2]))) {
        char c = (char)toupper((unsigned char)buf[len - 1]);
        st->promo = variant_type_of_letter(v, c);
        if (st->promo == NO_TYPE || st->promo == PAWN || st->promo == KING) {
            errmsg_set(err, errlen, "'%s': '%c' is not a promotion piece in %s", text, c, v->name);
            return false;
        }
        if (--len && buf[len - 1] == '=')
            len--;
    }
    if (len < 2 || !is_file(v, buf[len - 2]) || !is_rank(buf[len - 1])) {
        errmsg_set(err, errlen, "cannot read movement '%s': no destination square (a1-%c8)", text,
                   'a' + v->files - 1);
        return false;
    }
    st->to = (buf[len - 1] - '1') * v->files + (buf[len - 2] - 'a');
    len -= 2;
    if (len && strchr("x:-", buf[len - 1]))
        len--;
    size_t i = 0;
    if (len && isupper((unsigned char)buf[0])) {
        st->piece = variant_type_of_letter(v, buf[0]);
        if (st->piece == NO_TYPE) {
            errmsg_set(err, errlen, "'%s': '%c' is not a piece letter in %s", text, buf[0],
                       v->name);
            return false;
        }
        i = 1;
    }
    if (i < len && is_file(v, buf[i]))
        st->from_file = buf[i++] - 'a';
    if (i < len && is_rank(buf[i]))
        st->from_rank = buf[i++] - '1';
    if (i != len) {
        errmsg_set(err, errlen, "cannot read movement '%s'", text);
        return false;
    }
    return true;
}

/* Whether m on board s fits what the text said; with_promo false ignores the promotion piece. */
static bool san_matches(const Setup *s, const SanText *st, Move m, bool with_promo)
{
    const Variant *v = s->variant;
    const int from = move_from(m);
    if (move_kind(m) == MOVE_CASTLING)
        return st->castle == castle_side(v, m);
    if (st->castle >= 0 || move_to(m) != st->to || piece_type(s->board[from]) != st->piece)
        return false;
    if ((st->from_file >= 0 && file_of(v, from) != st->from_file) ||
        (st->from_rank >= 0 && rank_of(v, from) != st->from_rank))
        return false;
    PieceType promo = move_kind(m) == MOVE_PROMOTION ? move_promo(m) : NO_TYPE;
    return !with_promo || promo == st->promo;
}

static bool looks_uci(const Variant *v, const char *t)
{
    size_t len = strlen(t);
    return (len == 4 || (len == 5 && islower((unsigned char)t[4]))) && is_file(v, t[0]) &&
           is_rank(t[1]) && is_file(v, t[2]) && is_rank(t[3]);
}

/* The candidate (cand: n distinct movements on board s) that text names. which names the
 * movement in messages ("movement", "first movement", ...). */
static bool pick_movement(const Setup *s, const Move *cand, int n, const char *text,
                          const char *which, Move *out, char *err, size_t errlen)
{
    const Variant *v = s->variant;
    if (!*text) {
        errmsg_set(err, errlen, "empty %s", which);
        return false;
    }
    if (strlen(text) >= TEXT_MAX) {
        errmsg_set(err, errlen, "cannot read %s '%.*s...': too long", which, TEXT_MAX, text);
        return false;
    }
    if (looks_uci(v, text)) {
        Move m = move_from_uci(text, cand, n, v, v->castle960);
        if (!m)
            m = move_from_uci(text, cand, n, v, !v->castle960);
        if (m) {
            *out = m;
            return true;
        }
    }
    SanText st;
    if (!san_read(v, text, &st, err, errlen))
        return false;
    Move found[4];
    int count = 0, without_promo = 0;
    for (int i = 0; i < n; i++) {
        if (san_matches(s, &st, cand[i], true) && count++ < 4)
            found[count - 1] = cand[i];
        without_promo += san_matches(s, &st, cand[i], false);
    }
    if (count == 1) {
        *out = found[0];
        return true;
    }
    if (count == 0 && st.promo == NO_TYPE && without_promo > 0) {
        errmsg_set(err, errlen, "%s '%s' lacks the promotion piece (=%c)", which, text,
                   variant_letter(v, v->promotions[0]));
    } else if (count == 0) {
        errmsg_set(err, errlen, "illegal %s '%s'", which, text);
    } else {
        int shown = count < 4 ? count : 4;
        for (int i = 1; i < shown; i++) /* in board order, whatever the generator's order */
            for (int j = i; j > 0 && move_from(found[j]) < move_from(found[j - 1]); j--) {
                Move tmp = found[j];
                found[j] = found[j - 1];
                found[j - 1] = tmp;
            }
        char names[4][SAN_MAX];
        for (int i = 0; i < shown; i++)
            san_body(s, found[i], cand, n, names[i]);
        errmsg_set(err, errlen, "ambiguous %s '%s': %s or %s%s", which, text, names[0], names[1],
                   count > 2 ? " or others" : "");
    }
    return false;
}

/* Copies text without surrounding white space into out (TEXT_MAX + 1 bytes, longer text cut:
 * pick_movement then reports it as too long). */
static void trimmed(const char *text, size_t len, char *out)
{
    while (len && isspace((unsigned char)*text))
        text++, len--;
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    if (len > TEXT_MAX)
        len = TEXT_MAX;
    memcpy(out, text, len);
    out[len] = '\0';
}

bool notation_move_from_san(const Position *p, const char *text, Move *out, char *err,
                            size_t errlen)
{
    Move legal[MAX_MOVES];
    int n = position_legal_moves(p, legal);
    Setup s;
    position_to_setup(p, &s);
    char t[TEXT_MAX + 1];
    trimmed(text ? text : "", text ? strlen(text) : 0, t);
    return pick_movement(&s, legal, n, t, "movement", out, err, errlen);
}

/* ---- turns -------------------------------------------------------------------------------- */

/* The distinct first movements of the turns (first == MOVE_NONE), or the distinct second
 * movements of the two-movement turns that begin with first. At most MAX_MOVES: they all come
 * from one movement list of the generator. */
static int slot_movements(const TurnList *l, Move first, Move out[MAX_MOVES])
{
    int n = 0;
    for (size_t i = 0; i < l->n; i++) {
        const Turn *t = &l->v[i];
        if (first != MOVE_NONE && (t->m[0] != first || t->n != 2))
            continue;
        Move m = first == MOVE_NONE ? t->m[0] : t->m[1];
        int k = n;
        while (k > 0 && out[k - 1] != m) /* turns come grouped by first movement: look back */
            k--;
        if (k == 0 && n < MAX_MOVES)
            out[n++] = m;
    }
    return n;
}

static const Turn *find_turn(const TurnList *l, Move m0, Move m1, int n)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].n == n && l->v[i].m[0] == m0 && (n == 1 || l->v[i].m[1] == m1))
            return &l->v[i];
    return NULL;
}

/* The boards of both movements: s[0] before the first, s[1] (when t has two) after it. */
static void movement_boards(const Position *p, Move first, Setup s[2])
{
    position_to_setup(p, &s[0]);
    if (first != MOVE_NONE) {
        Position mid;
        position_make(p, first, &mid);
        position_to_setup(&mid, &s[1]);
    }
}

bool notation_turn_to_text(const Position *p, const Rules *r, const Turn *t, char *out,
                           size_t outlen)
{
    if (outlen)
        out[0] = '\0';
    TurnList l = { 0 };
    bool ok = position_turns(p, r, &l) && (t->n == 1 || t->n == 2) &&
              find_turn(&l, t->m[0], t->m[1], t->n);
    char body[2][SAN_MAX];
    if (ok) {
        Setup s[2];
        Move cand[MAX_MOVES];
        movement_boards(p, t->n == 2 ? t->m[0] : MOVE_NONE, s);
        for (int i = 0; i < t->n; i++) {
            int n = slot_movements(&l, i ? t->m[0] : MOVE_NONE, cand);
            san_body(&s[i], t->m[i], cand, n, body[i]);
        }
    }
    turn_list_free(&l);
    if (!ok)
        return false;
    Position after;
    position_make_turn(p, r, t, &after);
    const char *suffix = check_suffix(&after, r);
    int len = t->n == 2 ? snprintf(out, outlen, "%s/%s%s", body[0], body[1], suffix)
                        : snprintf(out, outlen, "%s%s", body[0], suffix);
    if (len < 0 || (size_t)len >= outlen) {
        if (outlen)
            out[0] = '\0';
        return false;
    }
    return true;
}

/* Splits a turn text at '/' and ';' into at most two trimmed movements; returns their number,
 * or -1 with a message. */
static int split_turn(const char *text, char parts[2][TEXT_MAX + 1], char *err, size_t errlen)
{
    const char *s = text;
    int n = 0;
    while (*s && isspace((unsigned char)*s))
        s++;
    if (!*s) {
        errmsg_set(err, errlen, "empty turn");
        return -1;
    }
    for (;;) {
        size_t len = strcspn(s, "/;");
        if (n == 2) {
            errmsg_set(err, errlen, "too many movements in turn '%s': a turn has at most two",
                       text);
            return -1;
        }
        trimmed(s, len, parts[n]);
        if (!parts[n][0]) {
            errmsg_set(err, errlen, "empty movement in turn '%s'", text);
            return -1;
        }
        n++;
        if (!s[len])
            return n;
        s += len + 1;
    }
}

bool notation_turn_from_text(const Position *p, const Rules *r, const char *text, Turn *out,
                             char *err, size_t errlen)
{
    char parts[2][TEXT_MAX + 1];
    int n = split_turn(text ? text : "", parts, err, errlen);
    if (n < 0)
        return false;
    TurnList l = { 0 };
    if (!position_turns(p, r, &l)) {
        errmsg_set(err, errlen, "out of memory listing the turns");
        turn_list_free(&l);
        return false;
    }
    bool ok = false;
    Move cand[MAX_MOVES], m[2] = { MOVE_NONE, MOVE_NONE };
    Setup s[2];
    position_to_setup(p, &s[0]);
    const Turn *t = NULL;
    if (l.n == 0) {
        errmsg_set(err, errlen, "no turn is possible: the game is over");
    } else if (pick_movement(&s[0], cand, slot_movements(&l, MOVE_NONE, cand), parts[0],
                             n == 2 ? "first movement" : "movement", &m[0], err, errlen)) {
        int n2 = slot_movements(&l, m[0], cand);
        if (n == 1 && !(t = find_turn(&l, m[0], MOVE_NONE, 1))) {
            errmsg_set(err, errlen, "turn '%s' is incomplete: a second movement must follow", text);
        } else if (n == 2 && n2 == 0) {
            errmsg_set(err, errlen,
                       "too many movements in turn '%s': the turn ends after its first movement",
                       text);
        } else if (n == 2) {
            movement_boards(p, m[0], s);
            if (pick_movement(&s[1], cand, n2, parts[1], "second movement", &m[1], err, errlen))
                t = find_turn(&l, m[0], m[1], 2);
        }
        if (t) {
            *out = *t;
            ok = true;
        }
    }
    turn_list_free(&l);
    return ok;
}
