/* SPDX-License-Identifier: MIT */
/* The public face of the fast core: dispatches once per call to the 8x8 or 10x8 instantiation
 * and initialises the shared read-only tables exactly once, whichever thread gets there first. */
#include "position.h"

#include "board.h"
#include "errmsg.h"
#include "zobrist.h"

#include <assert.h>
#include <pthread.h>

/* pthread_once rather than C11's call_once: the same guarantee, but ThreadSanitizer models it;
 * with call_once it took two threads' first positions for a race on the tables. The lock makes
 * position_init_tables and the first position agree on which key seed builds the tables: the
 * two flags below are written once, under it, before any position exists. */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static bool tables_built;
static uint64_t tables_key_seed;

bool position_init_tables(uint64_t key_seed)
{
    pthread_mutex_lock(&tables_lock);
    if (!tables_built) {
        zobrist_init(key_seed);
        board_init_8();
        board_init_10();
        tables_key_seed = key_seed;
        tables_built = true;
    }
    bool same = tables_key_seed == key_seed;
    pthread_mutex_unlock(&tables_lock);
    return same;
}

/* The first position without position_init_tables before it: the default keys (or, after it, a
 * no-op that only takes the lock once). */
static void init_tables_once(void) { (void)position_init_tables(0); }

static bool wide(const Position *p) { return p->variant->files == 10; }

/* Debug builds check every position built (with its castling data) or made (position_is_ok
 * with the rules unknown) and report a broken one on stderr before the assertion stops the
 * program. */
#ifdef NDEBUG
#define ASSERT_POSITION_OK(p, data) ((void)0)
#else
static bool ok_or_report(const Position *p, bool data)
{
    return wide(p) ? board_ok_or_report_10(&p->u.b10.board, &p->u.b10.castling, p->variant, NULL,
                                           false, data)
                   : board_ok_or_report_8(&p->u.b8.board, &p->u.b8.castling, p->variant, NULL,
                                          false, data);
}
#define ASSERT_POSITION_OK(p, data) assert(ok_or_report(p, data))
#endif

void position_from_setup(Position *p, const Setup *s)
{
    pthread_once(&tables_once, init_tables_once);
    p->variant = s->variant;
    p->castling_text = s->castling_text;
    if (wide(p))
        board_build_10(&p->u.b10.board, &p->u.b10.castling, s);
    else
        board_build_8(&p->u.b8.board, &p->u.b8.castling, s);
    ASSERT_POSITION_OK(p, true);
}

void position_to_setup(const Position *p, Setup *s)
{
    s->variant = p->variant;
    s->castling_text = p->castling_text;
    for (int i = 0; i < MAX_SQUARES; i++)
        s->board[i] = NO_PIECE;
    if (wide(p))
        board_to_setup_10(&p->u.b10.board, &p->u.b10.castling, s);
    else
        board_to_setup_8(&p->u.b8.board, &p->u.b8.castling, s);
}

int position_legal_moves(const Position *p, Move *moves)
{
    return wide(p) ? board_moves_10(&p->u.b10.board, &p->u.b10.castling, p->variant, moves)
                   : board_moves_8(&p->u.b8.board, &p->u.b8.castling, p->variant, moves);
}

int position_tactical_moves(const Position *p, Move *moves)
{
    return wide(p) ? board_tactical_moves_10(&p->u.b10.board, &p->u.b10.castling, p->variant, moves)
                   : board_tactical_moves_8(&p->u.b8.board, &p->u.b8.castling, p->variant, moves);
}

int position_quiet_checks(const Position *p, Move *moves)
{
    return wide(p) ? board_quiet_checks_10(&p->u.b10.board, &p->u.b10.castling, p->variant, moves)
                   : board_quiet_checks_8(&p->u.b8.board, &p->u.b8.castling, p->variant, moves);
}

void position_make(const Position *p, Move m, Position *out)
{
    if (out != p) {
        out->variant = p->variant;
        out->castling_text = p->castling_text;
    }
    if (wide(p)) {
        if (out != p)
            out->u.b10.castling = p->u.b10.castling;
        board_make_10(&p->u.b10.board, &p->u.b10.castling, m, &out->u.b10.board);
    } else {
        if (out != p)
            out->u.b8.castling = p->u.b8.castling;
        board_make_8(&p->u.b8.board, &p->u.b8.castling, m, &out->u.b8.board);
    }
    ASSERT_POSITION_OK(out, false);
}

void position_make_null(const Position *p, Position *out)
{
    if (out != p)
        *out = *p;
    if (wide(p))
        board_make_null_10(&p->u.b10.board, &out->u.b10.board);
    else
        board_make_null_8(&p->u.b8.board, &out->u.b8.board);
    ASSERT_POSITION_OK(out, false);
}

int position_see(const Position *p, Move m, const int *values)
{
    return wide(p) ? board_see_10(&p->u.b10.board, m, values)
                   : board_see_8(&p->u.b8.board, m, values);
}

int position_side(const Position *p) { return wide(p) ? p->u.b10.board.side : p->u.b8.board.side; }

bool position_in_check(const Position *p)
{
    return wide(p) ? board_in_check_10(&p->u.b10.board) : board_in_check_8(&p->u.b8.board);
}

bool position_king_in_reach(const Position *p, bool two)
{
    return wide(p) ? board_king_in_reach_10(&p->u.b10.board, two)
                   : board_king_in_reach_8(&p->u.b8.board, two);
}

int position_checkers(const Position *p, int squares[MAX_CHECKERS])
{
    return wide(p) ? board_checkers_10(&p->u.b10.board, squares)
                   : board_checkers_8(&p->u.b8.board, squares);
}

u128 position_key128(const Position *p) { return wide(p) ? p->u.b10.board.key : p->u.b8.board.key; }

u128 position_key_slow(const Position *p)
{
    return wide(p) ? board_key_slow_10(&p->u.b10.board) : board_key_slow_8(&p->u.b8.board);
}

uint64_t perft(const Position *p, int depth)
{
    return wide(p) ? board_perft_10(&p->u.b10.board, &p->u.b10.castling, p->variant, depth)
                   : board_perft_8(&p->u.b8.board, &p->u.b8.castling, p->variant, depth);
}

bool position_is_ok(const Position *p, const Rules *r, char *why, size_t whylen)
{
    if (!p->variant || (p->variant->files != 8 && p->variant->files != 10)) {
        errmsg_set(why, whylen, "the position has no variant of 8 or 10 files");
        return false;
    }
    return wide(p) ? board_is_ok_10(&p->u.b10.board, &p->u.b10.castling, p->variant, r, r != NULL,
                                    why, whylen)
                   : board_is_ok_8(&p->u.b8.board, &p->u.b8.castling, p->variant, r, r != NULL, why,
                                   whylen);
}
