/* SPDX-License-Identifier: MIT */
/* The table of supported variants (docs/rules.md sections 1-3): read-only data, looked up by name.
 */
#include "variant.h"

#include <ctype.h>
#include <string.h>

/* Piece letters, indexed by PieceType: NO_TYPE P N B R A C Q K. */
#define LETTERS_8X8                                                                                \
    {                                                                                              \
        '\0', 'P', 'N', 'B', 'R', '\0', '\0', 'Q', 'K'                                             \
    }
#define LETTERS_10X8                                                                               \
    {                                                                                              \
        '\0', 'P', 'N', 'B', 'R', 'A', 'C', 'Q', 'K'                                               \
    }
#define PROMOTIONS_8X8 .promotions = { QUEEN, ROOK, BISHOP, KNIGHT }, .n_promotions = 4
#define PROMOTIONS_10X8                                                                            \
    .promotions = { QUEEN, CHANCELLOR, ARCHBISHOP, ROOK, BISHOP, KNIGHT }, .n_promotions = 6

static const Variant CHESS = {
    .name = "chess",
    .files = 8,
    .start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    .king_to = { 2, 6 },
    .rook_to = { 3, 5 },
    PROMOTIONS_8X8,
    .letters = LETTERS_8X8,
};

/* Random-array variants write their start position's rights as rook files, the way
 * chess960_startpos.epd and the Capablanca-random rows of capablanca.epd do. */
static const Variant CHESS960 = {
    .name = "chess960",
    .files = 8,
    .random_array = true,
    .castle960 = true,
    .start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
    .king_to = { 2, 6 },
    .rook_to = { 3, 5 },
    PROMOTIONS_8X8,
    .letters = LETTERS_8X8,
};

static const Variant CAPABLANCA = {
    .name = "capablanca",
    .files = 10,
    .start_fen = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    .king_to = { 2, 8 },
    .rook_to = { 3, 7 },
    PROMOTIONS_10X8,
    .letters = LETTERS_10X8,
};

static const Variant GOTHIC = {
    .name = "gothic",
    .files = 10,
    .start_fen = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1",
    .king_to = { 2, 8 },
    .rook_to = { 3, 7 },
    PROMOTIONS_10X8,
    .letters = LETTERS_10X8,
};

static const Variant EMBASSY = {
    .name = "embassy",
    .files = 10,
    .start_fen = "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1",
    .king_to = { 1, 7 },
    .rook_to = { 2, 6 },
    PROMOTIONS_10X8,
    .letters = LETTERS_10X8,
};

/* The Janus is an Archbishop written J; the variant has no Chancellor. */
static const Variant JANUS = {
    .name = "janus",
    .files = 10,
    .start_fen = "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1",
    .king_to = { 1, 8 },
    .rook_to = { 2, 7 },
    .promotions = { QUEEN, ARCHBISHOP, ROOK, BISHOP, KNIGHT },
    .n_promotions = 5,
    .letters = { '\0', 'P', 'N', 'B', 'R', 'J', '\0', 'Q', 'K' },
};

static const Variant CAPARANDOM = {
    .name = "caparandom",
    .files = 10,
    .random_array = true,
    .castle960 = true,
    .start_fen = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w JAja - 0 1",
    .king_to = { 2, 8 },
    .rook_to = { 3, 7 },
    PROMOTIONS_10X8,
    .letters = LETTERS_10X8,
};

static const Variant *const ALL[] = {
    &CHESS, &CHESS960, &CAPABLANCA, &GOTHIC, &EMBASSY, &JANUS, &CAPARANDOM,
};

const Variant *variant_by_name(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof ALL / sizeof ALL[0]; i++)
        if (strcmp(ALL[i]->name, name) == 0)
            return ALL[i];
    return NULL;
}

const Variant *const *variant_all(int *count)
{
    *count = (int)(sizeof ALL / sizeof ALL[0]);
    return ALL;
}

int variant_start_king_file(const Variant *v)
{
    const char *rank1 = strrchr(v->start_fen, '/');
    int file = 0;
    for (const char *c = rank1 ? rank1 + 1 : v->start_fen; *c && *c != ' '; c++) {
        if (isdigit((unsigned char)*c)) {
            int n = 0;
            while (isdigit((unsigned char)*c))
                n = n * 10 + (*c++ - '0');
            file += n;
            c--;
        } else if (*c == 'K') {
            return file;
        } else {
            file++;
        }
    }
    return -1;
}
