/* SPDX-License-Identifier: MIT */
/* FEN reading (with validation that names what is wrong) and FEN writing, for every board width.
 * Castling rights are read as KQkq, Shredder-FEN rook files or a mix of both (X-FEN), and written
 * in the style the caller asks for. */
#include "setup.h"

#include "errmsg.h"
#include "mailbox.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Clocks beyond this cannot be stored by the fast position (16-bit fields). */
#define CLOCK_MAX 65535

static const char *const COLOR_NAME[2] = { "White", "Black" };

/* A FEN field as a slice of the input. */
typedef struct Field {
    const char *p;
    int len;
} Field;

static bool field_is(Field f, const char *text)
{
    return (size_t)f.len == strlen(text) && memcmp(f.p, text, (size_t)f.len) == 0;
}

static void square_name(const Variant *v, int sq, char out[3])
{
    out[0] = (char)('a' + sq % v->files);
    out[1] = (char)('1' + sq / v->files); /* ranks are single digits */
    out[2] = '\0';
}

static int parse_board(Setup *s, const Variant *v, Field f, char *err, size_t errlen)
{
    int rank = RANKS - 1, file = 0;
    for (int i = 0; i <= f.len; i++) {
        char c = i < f.len ? f.p[i] : '\0';
        if (c == '/' || c == '\0') {
            if (file != v->files)
                return errmsg_fail(err, errlen,
                                   "FEN rank %d has %d squares, the board has %d files", rank + 1,
                                   file, v->files);
            if (c == '\0')
                break;
            if (rank == 0)
                return errmsg_fail(err, errlen, "FEN board has more than %d ranks", RANKS);
            rank--;
            file = 0;
        } else if (isdigit((unsigned char)c)) {
            if (c == '0')
                return errmsg_fail(
                    err, errlen, "FEN rank %d has an empty-square count starting with 0", rank + 1);
            int n = 0;
            while (i < f.len && isdigit((unsigned char)f.p[i]) && n <= MAX_FILES)
                n = n * 10 + (f.p[i++] - '0');
            i--;
            file += n;
            if (file > v->files) /* no need to count further, and no overflow */
                return errmsg_fail(err, errlen,
                                   "FEN rank %d has more than %d squares, the board's width",
                                   rank + 1, v->files);
        } else {
            PieceType t = isalpha((unsigned char)c)
                              ? variant_type_of_letter(v, (char)toupper((unsigned char)c))
                              : NO_TYPE;
            if (t == NO_TYPE)
                return errmsg_fail(err, errlen,
                                   "FEN rank %d has '%c', which is no piece letter in %s", rank + 1,
                                   c, v->name);
            if (file < v->files)
                s->board[rank * v->files + file] =
                    make_piece(isupper((unsigned char)c) ? WHITE : BLACK, t);
            file++;
        }
    }
    if (rank > 0)
        return errmsg_fail(err, errlen, "FEN board has %d ranks, the board has %d", RANKS - rank,
                           RANKS);
    return 0;
}

/* One king per side and no pawn on a back rank. */
static int check_material(const Setup *s, char *err, size_t errlen)
{
    const Variant *v = s->variant;
    int kings[2] = { 0, 0 };
    for (int sq = 0; sq < v->files * RANKS; sq++) {
        Piece p = s->board[sq];
        if (piece_type(p) == KING)
            kings[piece_color(p)]++;
        int rank = sq / v->files;
        if (piece_type(p) == PAWN && (rank == 0 || rank == RANKS - 1)) {
            char name[4];
            square_name(v, sq, name);
            return errmsg_fail(err, errlen,
                               "FEN has a pawn on %s, but pawns cannot stand on rank 1 or %d", name,
                               RANKS);
        }
    }
    for (int c = WHITE; c <= BLACK; c++) {
        if (kings[c] != 1)
            return errmsg_fail(err, errlen, "FEN has %d %s kings, there must be exactly one",
                               kings[c], COLOR_NAME[c]);
    }
    return 0;
}

/* The rook square a castling letter stands for, or -1 with a message. */
static int castling_rook(const Setup *s, char c, int color, int king_file, char *err, size_t errlen)
{
    const Variant *v = s->variant;
    int back = color == WHITE ? 0 : RANKS - 1;
    Piece rook = make_piece(color, ROOK);
    char upper = (char)toupper((unsigned char)c);
    if (upper == 'K' || upper == 'Q') {
        /* KQkq mean the outermost rook on that side of the king. */
        int step = upper == 'K' ? -1 : 1;
        for (int f = upper == 'K' ? v->files - 1 : 0; f != king_file; f += step)
            if (s->board[back * v->files + f] == rook)
                return back * v->files + f;
        return errmsg_fail(
            err, errlen, "castling right '%c' has no %s rook on the %s side of the king on rank %d",
            c, COLOR_NAME[color], upper == 'K' ? "king" : "queen", back + 1);
    }
    int f = upper - 'A';
    if (s->board[back * v->files + f] != rook)
        return errmsg_fail(err, errlen, "castling right '%c' has no %s rook on %c%d", c,
                           COLOR_NAME[color], 'a' + f, back + 1);
    return back * v->files + f;
}

static int parse_castling(Setup *s, Field f, char *err, size_t errlen)
{
    const Variant *v = s->variant;
    bool saw_kq = false, saw_file = false;
    s->castling_text = FEN_CASTLING_KQ;
    if (field_is(f, "-"))
        return 0;
    if (v->no_castling)
        return errmsg_fail(err, errlen, "castling field '%.*s': %s has no castling", f.len, f.p,
                           v->name);
    const int fixed_king_file = v->castle960 ? -1 : variant_start_king_file(v);
    for (int i = 0; i < f.len; i++) {
        char c = f.p[i], upper = (char)toupper((unsigned char)c);
        int color = isupper((unsigned char)c) ? WHITE : BLACK;
        if (upper == 'K' || upper == 'Q')
            saw_kq = true;
        else if (upper >= 'A' && upper < 'A' + v->files)
            saw_file = true;
        else
            return errmsg_fail(err, errlen,
                               "castling field has '%c', which is neither K, Q nor a file letter "
                               "A-%c (lower case for Black)",
                               c, 'A' + v->files - 1);
        int back = color == WHITE ? 0 : RANKS - 1, king_file = -1;
        for (int file = 0; file < v->files; file++)
            if (s->board[back * v->files + file] == make_piece(color, KING))
                king_file = file;
        if (king_file < 0)
            return errmsg_fail(err, errlen, "castling right '%c' has no %s king on rank %d", c,
                               COLOR_NAME[color], back + 1);
        if (!v->castle960 && king_file != fixed_king_file)
            return errmsg_fail(err, errlen,
                               "castling right '%c' needs the %s king on its start square %c%d", c,
                               COLOR_NAME[color], 'a' + fixed_king_file, back + 1);
        int rook = castling_rook(s, c, color, king_file, err, errlen);
        if (rook < 0)
            return -1;
        int rook_file = rook % v->files, side = rook_file > king_file;
        if (!v->castle960 && rook_file != (side ? v->files - 1 : 0))
            return errmsg_fail(err, errlen,
                               "castling right '%c' needs the %s rook in the corner %c%d "
                               "(%s has fixed start arrays)",
                               c, COLOR_NAME[color], side ? 'a' + v->files - 1 : 'a', back + 1,
                               v->name);
        if (s->castle_rook[color][side] != NO_SQUARE)
            return errmsg_fail(
                err, errlen, "duplicate castling right '%c': the %s %s-side right is already given",
                c, COLOR_NAME[color], side ? "king" : "queen");
        s->castle_rook[color][side] = rook;
    }
    s->castling_text =
        saw_file ? (saw_kq ? FEN_CASTLING_XFEN : FEN_CASTLING_SHREDDER) : FEN_CASTLING_KQ;
    return 0;
}

/* One en passant square. Under ordinary chess rules the square the pawn came from must be empty;
 * under double-move rules the second movement of the same turn may have put a piece there. */
static int parse_ep_square(Setup *s, const Rules *r, Field f, char *err, size_t errlen)
{
    const Variant *v = s->variant;
    if (f.len != 2 || f.p[0] < 'a' || f.p[0] >= 'a' + v->files || f.p[1] < '1' ||
        f.p[1] > '0' + RANKS)
        return errmsg_fail(err, errlen, "en passant field '%.*s' is neither '-' nor a square",
                           f.len, f.p);
    int file = f.p[0] - 'a', rank = f.p[1] - '1';
    int them = s->side ^ 1, forward = them == WHITE ? 1 : -1; /* direction of their pawns */
    int want = them == WHITE ? 2 : RANKS - 3;
    if (rank != want)
        return errmsg_fail(err, errlen,
                           "en passant square %.2s is impossible with %s to move (it must be on "
                           "rank %d)",
                           f.p, COLOR_NAME[s->side], want + 1);
    if (s->board[rank * v->files + file] != NO_PIECE)
        return errmsg_fail(err, errlen, "en passant square %.2s is not empty", f.p);
    if (r->turns == TURNS_SINGLE && s->board[(rank - forward) * v->files + file] != NO_PIECE)
        return errmsg_fail(err, errlen,
                           "en passant square %.2s is impossible: %c%d, where the pawn came from, "
                           "is not empty",
                           f.p, f.p[0], rank - forward + 1);
    if (s->board[(rank + forward) * v->files + file] != make_piece(them, PAWN))
        return errmsg_fail(err, errlen,
                           "en passant square %.2s is impossible: no %s pawn stands on %c%d", f.p,
                           COLOR_NAME[them], f.p[0], rank + forward + 1);
    return rank * v->files + file;
}

/* '-' or up to rules_max_ep(r) squares separated by commas (docs/rules.md 4.7). */
static int parse_ep(Setup *s, const Rules *r, Field f, char *err, size_t errlen)
{
    s->ep[0] = s->ep[1] = NO_SQUARE;
    if (field_is(f, "-"))
        return 0;
    if (s->variant->no_en_passant)
        return errmsg_fail(err, errlen, "en passant field '%.*s': %s has no en passant", f.len, f.p,
                           s->variant->name);
    int max = rules_max_ep(r), n = 0;
    for (int start = 0; start <= f.len;) {
        int end = start;
        while (end < f.len && f.p[end] != ',')
            end++;
        if (n == max) {
            if (max == 0)
                return errmsg_fail(err, errlen, "en passant field '%.*s': %s has no en passant",
                                   f.len, f.p, turn_rules_name(r->turns));
            return errmsg_fail(err, errlen,
                               "en passant field '%.*s' has more than %d square%s (%s rules, %s en "
                               "passant)",
                               f.len, f.p, max, max == 1 ? "" : "s", turn_rules_name(r->turns),
                               ep_rule_name(r->ep));
        }
        int sq = parse_ep_square(s, r, (Field){ f.p + start, end - start }, err, errlen);
        if (sq < 0)
            return -1;
        if (n == 1 && s->ep[0] == sq)
            return errmsg_fail(err, errlen, "en passant field '%.*s' names a square twice", f.len,
                               f.p);
        s->ep[n++] = sq;
        start = end + 1;
    }
    return 0;
}

static int parse_clock(Field f, const char *what, int min, int *out, char *err, size_t errlen)
{
    long n = 0;
    for (int i = 0; i < f.len; i++) {
        if (!isdigit((unsigned char)f.p[i]))
            return errmsg_fail(err, errlen, "%s '%.*s' is not a non-negative integer", what, f.len,
                               f.p);
        n = n * 10 + (f.p[i] - '0');
        if (n > CLOCK_MAX)
            return errmsg_fail(err, errlen, "%s '%.*s' is larger than %d", what, f.len, f.p,
                               CLOCK_MAX);
    }
    if (n < min)
        return errmsg_fail(err, errlen, "%s %ld is less than %d", what, n, min);
    *out = (int)n;
    return 0;
}

int setup_from_fen(Setup *s, const Variant *v, const char *fen, char *err, size_t errlen)
{
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    return setup_from_fen_rules(s, v, &single, fen, err, errlen);
}

int setup_from_fen_rules(Setup *s, const Variant *v, const Rules *r, const char *fen, char *err,
                         size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->variant = v;
    s->castle_rook[0][0] = s->castle_rook[0][1] = NO_SQUARE;
    s->castle_rook[1][0] = s->castle_rook[1][1] = NO_SQUARE;
    s->ep[0] = s->ep[1] = NO_SQUARE;
    s->fullmove = 1;
    if (!v || !fen)
        return errmsg_fail(err, errlen, "no %s given", v ? "FEN" : "variant");

    Field fields[7];
    int n = 0;
    for (const char *c = fen; *c;) {
        while (isspace((unsigned char)*c))
            c++;
        if (!*c)
            break;
        const char *start = c;
        while (*c && !isspace((unsigned char)*c))
            c++;
        if (n == 6)
            return errmsg_fail(
                err, errlen, "FEN has trailing garbage after the fullmove number: '%.40s'", start);
        fields[n++] = (Field){ start, (int)(c - start) };
    }
    if (n < 4)
        return errmsg_fail(err, errlen,
                           "FEN has %d fields, at least 4 are needed (board, side to move, "
                           "castling, en passant)",
                           n);

    if (parse_board(s, v, fields[0], err, errlen) != 0 || check_material(s, err, errlen) != 0)
        return -1;
    if (field_is(fields[1], "w") || field_is(fields[1], "b"))
        s->side = fields[1].p[0] == 'w' ? WHITE : BLACK;
    else
        return errmsg_fail(err, errlen, "FEN side to move is '%.*s', not w or b", fields[1].len,
                           fields[1].p);
    if (parse_castling(s, fields[2], err, errlen) != 0 ||
        parse_ep(s, r, fields[3], err, errlen) != 0)
        return -1;
    if (n > 4 && parse_clock(fields[4], "halfmove clock", 0, &s->halfmove, err, errlen) != 0)
        return -1;
    if (n > 5 && parse_clock(fields[5], "fullmove number", 1, &s->fullmove, err, errlen) != 0)
        return -1;
    /* Under Galvin's rules kings may be left en prise: the side to move may capture one. */
    if (r->turns != TURNS_GALVIN && mailbox_in_check(s, s->side ^ 1))
        return errmsg_fail(err, errlen, "FEN has %s in check with %s to move",
                           COLOR_NAME[s->side ^ 1], COLOR_NAME[s->side]);
    return 0;
}

/* Whether the castling rook is the outermost rook on its side, so that K or Q names it. */
static bool rook_is_outermost(const Setup *s, int rook, int side)
{
    const Variant *v = s->variant;
    int back = rook / v->files, file = rook % v->files;
    for (int f = side ? file + 1 : 0; f < (side ? v->files : file); f++)
        if (s->board[back * v->files + f] == s->board[rook])
            return false;
    return true;
}

static size_t write_castling(const Setup *s, FenCastling style, char *out)
{
    size_t n = 0;
    for (int color = WHITE; color <= BLACK; color++) {
        for (int side = 1; side >= 0; side--) {
            int rook = s->castle_rook[color][side];
            if (rook == NO_SQUARE)
                continue;
            char c = (char)('A' + rook % s->variant->files);
            if (style != FEN_CASTLING_SHREDDER && rook_is_outermost(s, rook, side))
                c = side ? 'K' : 'Q';
            out[n++] = color == WHITE ? c : (char)tolower((unsigned char)c);
        }
    }
    if (n == 0)
        out[n++] = '-';
    return n;
}

void setup_to_fen(const Setup *s, FenCastling style, char *out, size_t outlen)
{
    const Variant *v = s->variant;
    char buf[FEN_MAX + 32];
    size_t n = 0;
    for (int rank = RANKS - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < v->files; file++) {
            Piece p = s->board[rank * v->files + file];
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)sprintf(buf + n, "%d", empty);
            empty = 0;
            char c = variant_letter(v, piece_type(p));
            buf[n++] = piece_color(p) == WHITE ? c : (char)tolower((unsigned char)c);
        }
        if (empty)
            n += (size_t)sprintf(buf + n, "%d", empty);
        buf[n++] = rank ? '/' : ' ';
    }
    buf[n++] = s->side == WHITE ? 'w' : 'b';
    buf[n++] = ' ';
    n += write_castling(s, style, buf + n);
    char ep[8] = "-";
    for (int i = 0, k = 0; i < 2; i++)
        if (s->ep[i] != NO_SQUARE) {
            if (k)
                ep[k++] = ',';
            square_name(v, s->ep[i], ep + k);
            k += (int)strlen(ep + k);
        }
    snprintf(buf + n, sizeof buf - n, " %s %d %d", ep, s->halfmove, s->fullmove);
    if (out && outlen > 0)
        snprintf(out, outlen, "%s", buf);
}
