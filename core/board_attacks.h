/* Attack tables of one board size, instantiated by board_impl.h: leaper tables, lines between
 * squares, and slider attacks behind rook_attacks() and bishop_attacks(). Requires FILES (8 or
 * 10) and BB (the bitboard type).
 *
 * Sliders have two back-ends. 8x8 boards use magic bitboards, the magics searched at start-up
 * from a fixed seed (a few milliseconds). On 10x8 boards multiplication hashes of the 80-bit,
 * stride-10 masks are poor (exact magics take seconds to find for many squares) and their tables
 * would take megabytes, so 10x8 boards compute each line by obstruction difference instead:
 * a few 128-bit operations per line, no search and 15 KB of masks. */

#include "rng.h"

#include <stdlib.h>

#define NSQ (FILES * RANKS)

static inline BB bb_sq(int s) { return (BB)1 << s; }
static inline int sq_file(int s) { return s % FILES; }
static inline int sq_rank(int s) { return s / FILES; }

#if FILES == 8
static inline int popcnt(BB b) { return __builtin_popcountll(b); }
static inline int lsb(BB b) { return __builtin_ctzll(b); }
#else
static inline int popcnt(BB b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}
static inline int lsb(BB b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}
/* Most significant bit of a non-zero bitboard. */
static inline int msb(BB b)
{
    uint64_t hi = (uint64_t)(b >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)b);
}
#endif
static inline int pop_lsb(BB *b)
{
    int s = lsb(*b);
    *b &= *b - 1;
    return s;
}
static inline bool more_than_one(BB b) { return (b & (b - 1)) != 0; }

#if FILES == 8
/* Index = top bits of (occupancy & mask) * magic. */
typedef struct Magic {
    BB mask;
    BB magic;
    BB *attacks;
    unsigned shift;
} Magic;
#else
/* One line through a square, split at the square: the part below it and the part above. */
typedef struct Line {
    BB lower, upper, both;
} Line;
#endif

typedef struct Tables {
    BB file_first, file_last, rank_bb[RANKS];
    BB knight[NSQ], king[NSQ], pawn[2][NSQ];
    BB rook_empty[NSQ], bishop_empty[NSQ]; /* slider attacks on an empty board */
    BB between[NSQ][NSQ];                  /* squares strictly between two aligned squares */
    BB line[NSQ][NSQ];                     /* the whole line through two aligned squares */
#if FILES == 8
    Magic rook[NSQ], bishop[NSQ];
#else
    Line lines[NSQ][4]; /* rank, file, diagonal, anti-diagonal */
#endif
} Tables;

/* Filled once by init_tables() and read-only afterwards. */
static Tables T;

static const int rook_dirs[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int bishop_dirs[4][2] = { { 1, 1 }, { -1, -1 }, { 1, -1 }, { -1, 1 } };

#if FILES == 8
static inline unsigned magic_index(const Magic *m, BB occ)
{
    return (unsigned)(((occ & m->mask) * m->magic) >> m->shift);
}
static inline BB rook_attacks(int s, BB occ) { return T.rook[s].attacks[magic_index(&T.rook[s], occ)]; }
static inline BB bishop_attacks(int s, BB occ)
{
    return T.bishop[s].attacks[magic_index(&T.bishop[s], occ)];
}
#else
/* Obstruction difference: the nearest blocker below the square (or bit 0 when there is none)
 * and the nearest above; the arithmetic 2 * above - below-and-up marks exactly the squares from
 * one to the other, which the line mask then cuts down to the line. */
static inline BB line_attacks(const Line *l, BB occ)
{
    BB lower = l->lower & occ, upper = l->upper & occ;
    BB below_and_up = ~(BB)0 << msb(lower | 1);
    BB nearest_above = upper & -upper;
    return l->both & (2 * nearest_above + below_and_up);
}
static inline BB rook_attacks(int s, BB occ)
{
    return line_attacks(&T.lines[s][0], occ) | line_attacks(&T.lines[s][1], occ);
}
static inline BB bishop_attacks(int s, BB occ)
{
    return line_attacks(&T.lines[s][2], occ) | line_attacks(&T.lines[s][3], occ);
}
#endif

static bool on_board(int f, int r) { return f >= 0 && f < FILES && r >= 0 && r < RANKS; }

/* Squares reached from s in the given directions, each ray stopping at the first piece of occ:
 * the slow definition the fast back-ends are built from (and tested against). */
static BB slide(int s, BB occ, const int (*dirs)[2], int ndirs)
{
    BB att = 0;
    for (int d = 0; d < ndirs; d++) {
        int f = sq_file(s) + dirs[d][0], r = sq_rank(s) + dirs[d][1];
        while (on_board(f, r)) {
            att |= bb_sq(r * FILES + f);
            if (occ & bb_sq(r * FILES + f))
                break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return att;
}

#if FILES == 8
/* Relevant occupancy: each ray without its last square (a piece there blocks nothing beyond). */
static BB relevant_mask(int s, const int dirs[4][2])
{
    BB mask = 0;
    for (int d = 0; d < 4; d++) {
        int f = sq_file(s) + dirs[d][0], r = sq_rank(s) + dirs[d][1];
        while (on_board(f + dirs[d][0], r + dirs[d][1])) {
            mask |= bb_sq(r * FILES + f);
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return mask;
}

/* Finds a magic for square s and fills its attack table (allocated here, never freed: the
 * tables live as long as the process). Some squares need many thousands of candidates before one
 * maps the occupancies onto exactly as many bits as the mask has; after a bounded number of
 * attempts such a square gets one index bit more, which keeps start-up to milliseconds. */
static void find_magic(Magic *m, int s, const int dirs[4][2], Rng *rng)
{
    m->mask = relevant_mask(s, dirs);
    int bits = popcnt(m->mask);
    size_t n = (size_t)1 << bits;
    BB *occ = malloc(n * sizeof *occ), *ref = malloc(n * sizeof *ref);
    int *epoch = calloc(2 * n, sizeof *epoch);
    m->attacks = malloc(2 * n * sizeof *m->attacks);
    if (!occ || !ref || !epoch || !m->attacks)
        abort(); /* a megabyte at start-up: nothing sensible to do without it */
    size_t i = 0;
    BB sub = 0;
    do { /* every subset of the mask (carry-rippler) */
        occ[i] = sub;
        ref[i++] = slide(s, sub, dirs, 4);
        sub = (sub - m->mask) & m->mask;
    } while (sub);
    for (int attempt = 1;; attempt++) {
        m->shift = 64u - (unsigned)bits - (attempt > 512);
        do /* candidates that spread the mask thinly over the index are hopeless */
            m->magic = rng_next(rng) & rng_next(rng) & rng_next(rng);
        while (popcnt((m->mask * m->magic) >> 56) < 6);
        for (i = 0; i < n; i++) {
            unsigned idx = magic_index(m, occ[i]);
            if (epoch[idx] != attempt) {
                epoch[idx] = attempt;
                m->attacks[idx] = ref[i];
            } else if (m->attacks[idx] != ref[i]) {
                break;
            }
        }
        if (i == n)
            break;
    }
    free(occ);
    free(ref);
    free(epoch);
}
#else
static void init_line(Line *l, int s, const int dir[2])
{
    const int opposite[1][2] = { { -dir[0], -dir[1] } };
    BB a = slide(s, 0, (const int(*)[2])dir, 1), b = slide(s, 0, opposite, 1);
    bool up = dir[1] > 0 || (dir[1] == 0 && dir[0] > 0); /* toward higher square numbers */
    l->upper = up ? a : b;
    l->lower = up ? b : a;
    l->both = a | b;
}
#endif

static BB leaper(int s, const int (*deltas)[2], int n)
{
    BB b = 0;
    for (int i = 0; i < n; i++) {
        int f = sq_file(s) + deltas[i][0], r = sq_rank(s) + deltas[i][1];
        if (on_board(f, r))
            b |= bb_sq(r * FILES + f);
    }
    return b;
}

static void init_tables(void)
{
    static const int knight_d[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
                                        { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
    static const int king_d[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 },
                                      { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
    static const int white_pawn_d[2][2] = { { -1, 1 }, { 1, 1 } };
    static const int black_pawn_d[2][2] = { { -1, -1 }, { 1, -1 } };
    for (int s = 0; s < NSQ; s++) {
        if (sq_file(s) == 0)
            T.file_first |= bb_sq(s);
        if (sq_file(s) == FILES - 1)
            T.file_last |= bb_sq(s);
        T.rank_bb[sq_rank(s)] |= bb_sq(s);
        T.knight[s] = leaper(s, knight_d, 8);
        T.king[s] = leaper(s, king_d, 8);
        T.pawn[WHITE][s] = leaper(s, white_pawn_d, 2);
        T.pawn[BLACK][s] = leaper(s, black_pawn_d, 2);
        T.rook_empty[s] = slide(s, 0, rook_dirs, 4);
        T.bishop_empty[s] = slide(s, 0, bishop_dirs, 4);
    }
    for (int a = 0; a < NSQ; a++)
        for (int b = 0; b < NSQ; b++) {
            const int(*dirs)[2] = (T.rook_empty[a] & bb_sq(b))     ? rook_dirs
                                  : (T.bishop_empty[a] & bb_sq(b)) ? bishop_dirs
                                                                   : NULL;
            if (!dirs)
                continue;
            T.between[a][b] = slide(a, bb_sq(b), dirs, 4) & slide(b, bb_sq(a), dirs, 4);
            T.line[a][b] = (slide(a, 0, dirs, 4) & slide(b, 0, dirs, 4)) | bb_sq(a) | bb_sq(b);
        }
#if FILES == 8
    Rng rng = rng_new(0x5EEDull);
    for (int s = 0; s < NSQ; s++) {
        find_magic(&T.rook[s], s, rook_dirs, &rng);
        find_magic(&T.bishop[s], s, bishop_dirs, &rng);
    }
#else
    for (int s = 0; s < NSQ; s++) {
        init_line(&T.lines[s][0], s, rook_dirs[0]);
        init_line(&T.lines[s][1], s, rook_dirs[2]);
        init_line(&T.lines[s][2], s, bishop_dirs[0]);
        init_line(&T.lines[s][3], s, bishop_dirs[2]);
    }
#endif
}
