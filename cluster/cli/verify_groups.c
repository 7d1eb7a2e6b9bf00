/* SPDX-License-Identifier: MIT */
/* Grouping the findings of `carrera verify` by what differs (verify_groups.h). */
#define _POSIX_C_SOURCE 200809L

#include "verify_groups.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "move.h"
#include "position.h"

#define CLASS_MAX   32
#define MAX_CLASSES 16

static const char *const piece_names[TYPE_NB] = { "unknown piece", "pawn",  "knight",
                                                  "bishop",        "rook",  "archbishop",
                                                  "chancellor",    "queen", "king" };

/* The square of UCI text such as "e2" or "j8" at t, -1 if it is none. */
static int square_at(const Position *p, const char *t)
{
    int files = p->variant->files;
    if (t[0] < 'a' || t[0] >= 'a' + files || t[1] < '1' || t[1] > '8')
        return -1;
    return (t[1] - '1') * files + (t[0] - 'a');
}

/* What kind of movement the text is in p: by the legal move it names, or, for a move Carrera
 * does not generate, by what it would do on the board. Plays it into after when it is legal. */
static const char *movement_class(const Position *p, const BisectRules *b, const char *text,
                                  Position *after, bool *legal_out)
{
    Move legal[MAX_MOVES];
    int n = position_legal_moves(p, legal);
    Move m = move_from_uci(text, legal, n, p->variant, b->castle960);
    *legal_out = m != MOVE_NONE;
    int from = square_at(p, text), to = from < 0 ? -1 : square_at(p, text + 2);
    if (m != MOVE_NONE) {
        position_make(p, m, after);
        if (move_kind(m) == MOVE_CASTLING)
            return "castling";
        if (move_kind(m) == MOVE_EN_PASSANT)
            return "en passant";
        if (move_kind(m) == MOVE_PROMOTION)
            return "promotion";
        return piece_names[piece_type(position_piece_at(p, move_from(m)))];
    }
    if (from < 0 || to < 0)
        return "unreadable move";
    Piece mover = position_piece_at(p, from), target = position_piece_at(p, to);
    PieceType t = piece_type(mover);
    int files = p->variant->files;
    if (!mover)
        return "move from an empty square";
    if (t == KING && ((target && piece_color(target) == piece_color(mover)) ||
                      abs(from % files - to % files) >= 2))
        return "castling";
    if (isalpha((unsigned char)text[4]))
        return "promotion";
    if (t == PAWN && from % files != to % files && !target)
        return "en passant";
    return piece_names[t];
}

/* Whether a class is more than a piece's plain move. */
static bool special(const char *c)
{
    for (int t = PAWN; t < TYPE_NB; t++)
        if (strcmp(c, piece_names[t]) == 0)
            return false;
    return true;
}

/* The class of a move or turn text ("e2e4", "e2e4/g1f3" or "e2e4,g1f3"): its most special
 * movement's; a plain piece's move is named "<piece> move". */
static void move_class(const Position *p, const BisectRules *b, const char *text,
                       char out[CLASS_MAX])
{
    char first[DIVIDE_MOVE_MAX];
    snprintf(first, sizeof first, "%s", text);
    char *second = strpbrk(first, "/,");
    if (second)
        *second++ = '\0';
    Position mid;
    bool legal;
    const char *c = movement_class(p, b, first, &mid, &legal);
    if (second && legal && !special(c)) {
        Position end;
        const char *c2 = movement_class(&mid, b, second, &end, &legal);
        if (special(c2))
            c = c2;
    }
    if (special(c))
        snprintf(out, CLASS_MAX, "%s", c);
    else if (b->rules.turns != TURNS_SINGLE && !second)
        snprintf(out, CLASS_MAX, "one-movement turn");
    else
        snprintf(out, CLASS_MAX, "%s move", c);
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

/* Appends "label: class" for each class of the moves (space-separated) to key, once each,
 * joined by "; ". */
static void add_classes(const Position *p, const BisectRules *b, const char *label,
                        const char *moves, char *key, size_t keylen)
{
    char classes[MAX_CLASSES][CLASS_MAX];
    int n = 0;
    for (const char *t = moves; *t;) {
        size_t len = strcspn(t, " ");
        char text[DIVIDE_MOVE_MAX];
        snprintf(text, sizeof text, "%.*s", (int)(len < sizeof text ? len : sizeof text - 1), t);
        t += len + (t[len] == ' ');
        char c[CLASS_MAX];
        move_class(p, b, text, c);
        bool known = false;
        for (int i = 0; i < n; i++)
            known |= strcmp(classes[i], c) == 0;
        if (!known && n < MAX_CLASSES)
            snprintf(classes[n++], CLASS_MAX, "%s", c);
    }
    qsort(classes, (size_t)n, sizeof classes[0], by_name);
    size_t used = strlen(key);
    for (int i = 0; i < n && used < keylen; i++)
        used += (size_t)snprintf(key + used, keylen - used, "%s%s: %s", used ? "; " : "", label,
                                 classes[i]);
}

void group_key(const BisectRules *b, const Finding *f, char key[GROUP_KEY_MAX])
{
    key[0] = '\0';
    Setup s;
    char why[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, b->variant, &b->rules, f->fen, why, sizeof why) != 0) {
        snprintf(key, GROUP_KEY_MAX, "unreadable position");
        return;
    }
    Position p;
    position_from_setup(&p, &s);
    if (f->kind == FINDING_LISTS) {
        add_classes(&p, b, "carrera only", f->ours, key, GROUP_KEY_MAX);
        add_classes(&p, b, "engine only", f->theirs, key, GROUP_KEY_MAX);
        if (!key[0])
            snprintf(key, GROUP_KEY_MAX, "moves listed twice");
    } else {
        add_classes(
            &p, b, f->kind == FINDING_PLAYING ? "engine plays wrongly" : "engine counts as several",
            f->ours, key, GROUP_KEY_MAX);
    }
}

/* Pieces on the board of a FEN. */
static int pieces_of(const char *fen)
{
    int n = 0;
    for (const char *c = fen; *c && *c != ' '; c++)
        n += isalpha((unsigned char)*c) != 0;
    return n;
}

/* Adds one finding to the group of key. */
static bool add_one(Groups *g, const char *key, size_t index, int classes, int pieces, int depth)
{
    for (size_t i = 0; i < g->n; i++) {
        Group *x = &g->v[i];
        if (strcmp(x->key, key) != 0)
            continue;
        x->count++;
        /* The example shows this group's difference alone if it can. */
        int order = classes != x->classes ? classes - x->classes
                    : pieces != x->pieces ? pieces - x->pieces
                                          : depth - x->depth;
        if (order < 0) {
            x->example = index;
            x->classes = classes;
            x->pieces = pieces;
            x->depth = depth;
        }
        return true;
    }
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 8;
        Group *grown = realloc(g->v, cap * sizeof *grown);
        if (!grown)
            return false;
        g->v = grown;
        g->cap = cap;
    }
    Group *x = &g->v[g->n++];
    *x = (Group){
        .count = 1, .example = index, .classes = classes, .pieces = pieces, .depth = depth
    };
    snprintf(x->key, sizeof x->key, "%s", key);
    return true;
}

bool groups_add(Groups *g, const char *key, size_t index, const char *fen, int depth)
{
    int pieces = pieces_of(fen), classes = 1;
    for (const char *c = strstr(key, "; "); c; c = strstr(c + 2, "; "))
        classes++;
    for (const char *t = key;;) {
        size_t len = strcspn(t, ";");
        char one[GROUP_KEY_MAX];
        snprintf(one, sizeof one, "%.*s", (int)len, t);
        if (!add_one(g, one, index, classes, pieces, depth))
            return false;
        if (!t[len])
            return true;
        t += len + 1 + (t[len + 1] == ' ');
    }
}

void groups_free(Groups *g)
{
    free(g->v);
    *g = (Groups){ 0 };
}
