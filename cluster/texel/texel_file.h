/* SPDX-License-Identifier: MIT */
/* The data file of Texel's method (docs/texel.md): text, one position a line, written by
 * `carrera texel-data` and read by `carrera texel-fit`.
 *
 *     # carrera texel positions 1
 *     # made: ...                 the record of how the data set was made, one "# " line each
 *     result<TAB>variant<TAB>turns<TAB>pair<TAB>fen
 *     1<TAB>caparandom<TAB>single<TAB>0<TAB>rnbq...
 *
 * result is White's score in the game (1, 0.5, 0) or, in a file of `carrera texel-label`, White's
 * expectation from a search (any number from 0 to 1), variant and turns the game's variant and turn
 * rules, pair the number of the game's pair of games within the data set (positions of one pair
 * share an opening: the validation split keeps them together), fen the position (a legal
 * position of single-move chess; the evaluation does not depend on the turn rules). */
#ifndef CARRERA_TEXEL_FILE_H
#define CARRERA_TEXEL_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "position.h"
#include "rules.h"
#include "variant.h"

#define TEXEL_FILE_TAG    "# carrera texel positions 1"
#define TEXEL_FILE_HEADER "result\tvariant\tturns\tpair\tfen"

typedef struct TexelRow {
    const Variant *variant;
    TurnRules turns;
    double result; /* White's: 1, 0.5 or 0, or an expectation from 0 to 1 */
    uint64_t pair;
    const Position *pos;
} TexelRow;

/* Writes the tag, the record (its lines each behind "# "; may be empty) and the column header. */
int texel_file_write_header(FILE *out, const char *record, char *err, size_t errlen);

/* Writes one row. 0, or -1 with a message when the file cannot be written. */
int texel_file_write_row(FILE *out, const TexelRow *row, char *err, size_t errlen);

/* The same for a row whose position is given by its FEN. */
int texel_file_write_fen_row(FILE *out, const TexelRow *row, const char *fen, char *err,
                             size_t errlen);

/* The record at a data file's head, grown line by line. */
typedef struct TexelRecord {
    char *text; /* lines, each ended by a newline (NULL: none yet) */
    size_t len;
    bool failed; /* memory ran out */
} TexelRecord;

/* Appends a formatted line to r (on failure r->failed is set). */
void texel_record_add(TexelRecord *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Called with each row of a file read and its line number. 0, or -1 with a message (stops). */
typedef int (*TexelRowFn)(void *ctx, const TexelRow *row, uint64_t line, char *err, size_t errlen);

/* Reads the data file at path: the record's lines (without "# ", each ended by a newline) into
 * *record (malloc'd; may be NULL to skip them), every row into fn. Returns 0, or -1 with a message
 * naming the file and the line: a missing file, another tag, no column header, a row without five
 * columns, an unknown variant or turn rules, a result that is no number from 0 to 1, a bad pair, a
 * FEN the variant's rules refuse; or fn's own. */
int texel_file_read(const char *path, TexelRowFn fn, void *ctx, char **record, char *err,
                    size_t errlen);

#endif
