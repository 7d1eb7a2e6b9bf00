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

/* Pietro Carrera's game (1617): the Centaur (bishop + knight) is written A and the Champion
 * (rook + knight) C, Capablanca's letters, since both of its own names begin with C. No
 * castling and no en passant; promotion to the three pieces the sources name (docs/rules.md
 * 3.1). */
static const Variant CARRERA = {
    .name = "carrera",
    .files = 10,
    .no_castling = true,
    .no_en_passant = true,
    .start_fen = "ranbqkbncr/pppppppppp/10/10/10/10/PPPPPPPPPP/RANBQKBNCR w - - 0 1",
    .promotions = { QUEEN, CHANCELLOR, ARCHBISHOP },
    .n_promotions = 3,
    .letters = LETTERS_10X8,
};

/* Henry Bird's game (1874): the Guard (rook + knight) and the Equerry (bishop + knight), written
 * C and A and read as G and E too; castling and promotion as in Capablanca chess. */
static const Variant BIRD = {
    .name = "bird",
    .files = 10,
    .start_fen = "rnbcqkabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCQKABNR w KQkq - 0 1",
    .king_to = { 2, 8 },
    .rook_to = { 3, 7 },
    PROMOTIONS_10X8,
    .letters = LETTERS_10X8,
    .alt_letters = { '\0', '\0', '\0', '\0', '\0', 'E', 'G', '\0', '\0' },
};

static const Variant *const ALL[] = {
    &CHESS, &CHESS960, &CAPABLANCA, &GOTHIC, &EMBASSY, &JANUS, &CAPARANDOM, &CARRERA, &BIRD,
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

PieceType variant_type_of_letter(const Variant *v, char upper)
{
    for (int t = PAWN; t < TYPE_NB; t++)
        if (upper && (v->letters[t] == upper || v->alt_letters[t] == upper))
            return (PieceType)t;
    return NO_TYPE;
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
