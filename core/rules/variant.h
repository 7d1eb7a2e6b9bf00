/* SPDX-License-Identifier: MIT */
/* The rule sets of the board: board width, start array, castling geometry, promotion pieces and
 * piece letters, as docs/rules.md sections 1-3 define them. Variants are read-only data. */
#ifndef CARRERA_VARIANT_H
#define CARRERA_VARIANT_H

#include "types.h"

typedef struct Variant {
    const char *name;      /* "chess", "chess960", "capablanca", ... */
    int files;             /* 8 or 10; every board has 8 ranks */
    bool random_array;     /* start arrays are numbered (chess960) or drawn from a seed */
    bool castle960;        /* UCI castling text is king-takes-own-rook; X-FEN/Shredder rights */
    const char *start_fen; /* the standard start position (chess960: array 518) */
    /* Castling destinations as files, [0] queen side (the rook on the lower file),
     * [1] king side: where the king and the rook stand after castling. */
    int king_to[2], rook_to[2];
    /* Promotion pieces, most valuable first. */
    PieceType promotions[6];
    int n_promotions;
    /* FEN letter of each piece type (upper case, White), '\0' for types the variant lacks.
     * Indexed by PieceType; Janus chess writes the Archbishop as 'J'. */
    char letters[TYPE_NB];
    /* Letters also read for a piece type (its own name's letter where the variant writes
     * Capablanca's: Bird's Guard G and Equerry E), '\0' for none. Never written. */
    char alt_letters[TYPE_NB];
    bool no_castling;   /* the game has no castling: no right is ever given */
    bool no_en_passant; /* pawns double-step but are never taken en passant */
} Variant;

/* The variant with this name, or NULL. */
const Variant *variant_by_name(const char *name);

/* All variants, in a fixed order; *count receives their number. */
const Variant *const *variant_all(int *count);

/* The king's file in the variant's start array (fixed-array variants castle only from there;
 * chess960 and caparandom: that of the standard array), or -1 when it has no White king. */
int variant_start_king_file(const Variant *v);

/* The upper-case letter of a piece type in a variant, '\0' when the variant lacks it. */
static inline char variant_letter(const Variant *v, PieceType t) { return v->letters[t]; }

/* The piece type an upper-case letter names in a variant (its own letter or one also read),
 * NO_TYPE for none. */
PieceType variant_type_of_letter(const Variant *v, char upper);

#endif
