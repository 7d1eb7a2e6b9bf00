/* SPDX-License-Identifier: MIT */
/* A game being played: its turns, the keys of the positions at its turn boundaries, and the
 * rule-based ends of docs/rules.md (sections 3, 4.1 rules 5 and 9, 4.3, 4.5, 5) decided from them.
 */
#include "game.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *termination_name(Termination t)
{
    static const char *const names[TERM_NB] = {
        [TERM_NONE] = "none",
        [TERM_CHECKMATE] = "checkmate",
        [TERM_STALEMATE] = "stalemate",
        [TERM_KING_CAPTURED] = "king captured",
        [TERM_REPETITION] = "threefold repetition",
        [TERM_FIFTY_MOVES] = "50-move rule",
        [TERM_MATERIAL] = "insufficient material",
    };
    return t >= 0 && t < TERM_NB ? names[t] : "unknown";
}

/* v with room for need elements of size bytes (doubling, so that a game costs amortised O(1)
 * per turn), or NULL with v untouched when memory runs out. */
static void *reserve(void *v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return v;
    size_t n = *cap ? *cap : 64;
    while (n < need) {
        if (n > SIZE_MAX / 2 / size)
            return NULL;
        n *= 2;
    }
    void *grown = realloc(v, n * size);
    if (grown)
        *cap = n;
    return grown;
}

bool game_init(Game *g, const Position *start, const Rules *r, bool castle960)
{
    *g = (Game){ .rules = *r, .castle960 = castle960, .start = *start, .pos = *start };
    g->keys = reserve(NULL, &g->cap_keys, 1, sizeof *g->keys);
    if (!g->keys)
        return false;
    g->keys[0] = position_key128(start);
    return true;
}

void game_free(Game *g)
{
    free(g->turns);
    free(g->keys);
    g->turns = NULL;
    g->keys = NULL;
    g->n_turns = g->cap_turns = g->cap_keys = 0;
}

/* Appends the legal turn t. Both arrays grow before anything changes, so running out of memory
 * leaves the game as it was. */
static bool commit(Game *g, const Turn *t)
{
    Turn *turns = reserve(g->turns, &g->cap_turns, g->n_turns + 1, sizeof *turns);
    if (!turns)
        return false;
    g->turns = turns;
    u128 *keys = reserve(g->keys, &g->cap_keys, g->n_turns + 2, sizeof *keys);
    if (!keys)
        return false;
    g->keys = keys;
    position_make_turn(&g->pos, &g->rules, t, &g->pos);
    g->turns[g->n_turns++] = *t;
    g->keys[g->n_turns] = position_key128(&g->pos);
    return true;
}

static bool same_turn(const Turn *a, const Turn *b)
{
    return a->n == b->n && a->m[0] == b->m[0] && (a->n == 1 || a->m[1] == b->m[1]);
}

bool game_play(Game *g, const Turn *t)
{
    if (g->rules.turns == TURNS_SINGLE) {
        if (t->n != 1)
            return false;
        /* The move generator alone is much cheaper than the turn lists. */
        Move moves[MAX_MOVES];
        int n = position_legal_moves(&g->pos, moves);
        for (int i = 0; i < n; i++)
            if (moves[i] == t->m[0])
                return commit(g, &(Turn){ { t->m[0], MOVE_NONE }, 1 });
        return false;
    }
    TurnList list = { 0 };
    bool played = false;
    if (position_turns(&g->pos, &g->rules, &list))
        for (size_t i = 0; i < list.n; i++)
            if (same_turn(&list.v[i], t)) {
                played = commit(g, &list.v[i]);
                break;
            }
    turn_list_free(&list);
    return played;
}

/* Copies the movement text [text, text + len) to out; false when it cannot be a movement. */
static bool movement_text(const char *text, size_t len, char out[MOVE_TEXT_MAX])
{
    if (len == 0 || len >= MOVE_TEXT_MAX)
        return false;
    memcpy(out, text, len);
    out[len] = '\0';
    return true;
}

/* Into out, from the turns of list that have n movements: their first movements when first is
 * MOVE_NONE, otherwise the second movements of those that begin with first. */
static int candidates(const TurnList *list, int n, Move first, Move *out)
{
    int k = 0;
    for (size_t i = 0; i < list->n; i++) {
        const Turn *t = &list->v[i];
        if (t->n != n)
            continue;
        if (first == MOVE_NONE)
            out[k++] = t->m[0];
        else if (t->m[0] == first)
            out[k++] = t->m[1];
    }
    return k;
}

bool game_parse_turn(const Game *g, const char *text, Turn *out)
{
    char first[MOVE_TEXT_MAX], second[MOVE_TEXT_MAX];
    size_t len1 = strcspn(text, ",/");
    bool two = text[len1] != '\0';
    if (!movement_text(text, len1, first))
        return false;
    /* A third movement leaves a separator in the second, which then matches no move. */
    if (two && !movement_text(text + len1 + 1, strlen(text + len1 + 1), second))
        return false;
    const Variant *v = g->pos.variant;
    if (g->rules.turns == TURNS_SINGLE) {
        if (two)
            return false;
        Move moves[MAX_MOVES];
        int n = position_legal_moves(&g->pos, moves);
        Move m = move_from_uci(first, moves, n, v, g->castle960);
        *out = (Turn){ { m, MOVE_NONE }, 1 };
        return m != MOVE_NONE;
    }
    /* Each movement is read as move_from_uci reads a move among the legal ones: the first among
     * the first movements of the turns of that length, the second among those that follow it. */
    TurnList list = { 0 };
    Move *moves = NULL;
    bool found = false;
    if (position_turns(&g->pos, &g->rules, &list) && list.n > 0 &&
        (moves = malloc(list.n * sizeof *moves)) != NULL) {
        const int n = two ? 2 : 1;
        Turn t = { { MOVE_NONE, MOVE_NONE }, n };
        int k = candidates(&list, n, MOVE_NONE, moves);
        t.m[0] = move_from_uci(first, moves, k, v, g->castle960);
        if (two && t.m[0] != MOVE_NONE) {
            k = candidates(&list, n, t.m[0], moves);
            t.m[1] = move_from_uci(second, moves, k, v, g->castle960);
        }
        found = t.m[0] != MOVE_NONE && (!two || t.m[1] != MOVE_NONE);
        *out = t;
    }
    free(moves);
    turn_list_free(&list);
    return found;
}

bool game_play_text(Game *g, const char *text)
{
    Turn t;
    return game_parse_turn(g, text, &t) && commit(g, &t);
}

static unsigned halfmove_clock(const Position *p)
{
    return p->variant->files == 10 ? p->u.b10.board.halfmove : p->u.b8.board.halfmove;
}

int game_repetitions(const Game *g)
{
    const size_t n = g->n_turns;
    const unsigned clock = halfmove_clock(&g->pos);
    /* White's one-movement first turn of the balanced rule sets is not the same position as
     * the same board later, when White has two movements (the key does not tell them apart). */
    const size_t oldest = position_first_turn(&g->start, &g->rules) ? 1 : 0;
    int count = 1;
    for (size_t back = 2; back <= clock && back <= n && n - back >= oldest; back += 2)
        count += g->keys[n - back] == g->keys[n];
    return count;
}

Termination game_status(const Game *g, int *winner)
{
    const int side = position_side(&g->pos);
    Termination t = TERM_NONE;
    switch (position_game_end(&g->pos, &g->rules)) {
    case GAME_CHECKMATE:
        t = TERM_CHECKMATE;
        break;
    case GAME_STALEMATE:
        t = TERM_STALEMATE;
        break;
    case GAME_KING_CAPTURED:
        t = TERM_KING_CAPTURED;
        break;
    case GAME_ON:
        if (game_repetitions(g) >= 3)
            t = TERM_REPETITION;
        else if (halfmove_clock(&g->pos) >= 100) /* plies, or turns under double-move rules */
            t = TERM_FIFTY_MOVES;
        else if (position_insufficient_material(&g->pos, &g->rules))
            t = TERM_MATERIAL;
        break;
    }
    if (winner)
        *winner = t == TERM_CHECKMATE || t == TERM_KING_CAPTURED ? side ^ 1 : -1;
    return t;
}

/* The squares whose file + rank is odd (the light ones: a1 is dark), on either board width. */
#define ODD_RANK_PAIR_8  ((uint64_t)0xAA | (uint64_t)0x55 << 8)
#define ODD_SQUARES_8    (ODD_RANK_PAIR_8 * 0x0001000100010001u)
#define ODD_RANK_PAIR_10 ((u128)0x2AA | (u128)0x155 << 10)
#define ODD_SQUARES_10                                                                             \
    (ODD_RANK_PAIR_10 | ODD_RANK_PAIR_10 << 20 | ODD_RANK_PAIR_10 << 40 | ODD_RANK_PAIR_10 << 60)

static inline bool more_than_one(u128 b) { return (b & (b - 1)) != 0; }

/* The material test on bitboards widened to 128 bits: both widths share it. */
static bool bare_minors(u128 occupied, u128 kings, u128 knights, u128 bishops, u128 odd)
{
    if (occupied & ~(kings | knights | bishops))
        return false; /* a pawn or a major or compound piece */
    if (knights)
        return !bishops && !more_than_one(knights);
    return !(bishops & odd) || !(bishops & ~odd);
}

bool position_insufficient_material(const Position *p, const Rules *r)
{
    if (r->turns == TURNS_GALVIN)
        return false;
    if (p->variant->files == 10) {
        const Board80 *b = &p->u.b10.board;
        return bare_minors(b->by_type[NO_TYPE], b->by_type[KING], b->by_type[KNIGHT],
                           b->by_type[BISHOP], ODD_SQUARES_10);
    }
    const Board64 *b = &p->u.b8.board;
    return bare_minors(b->by_type[NO_TYPE], b->by_type[KING], b->by_type[KNIGHT],
                       b->by_type[BISHOP], ODD_SQUARES_8);
}
