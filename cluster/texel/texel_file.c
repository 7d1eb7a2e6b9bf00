/* SPDX-License-Identifier: MIT */
/* The data file of Texel's method (texel_file.h). */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "texel_file.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "errmsg.h"
#include "number.h"
#include "setup.h"

int texel_file_write_header(FILE *out, const char *record, char *err, size_t errlen)
{
    fprintf(out, "%s\n", TEXEL_FILE_TAG);
    for (const char *s = record; s && *s;) {
        size_t len = strcspn(s, "\n");
        fprintf(out, "# %.*s\n", (int)len, s);
        s += len + (s[len] == '\n');
    }
    fprintf(out, "%s\n", TEXEL_FILE_HEADER);
    if (ferror(out))
        return errmsg_fail(err, errlen, "cannot write the data file: %s", strerror(errno));
    return 0;
}

int texel_file_write_fen_row(FILE *out, const TexelRow *row, const char *fen, char *err,
                             size_t errlen)
{
    /* a game's result prints as 1, 0.5 or 0; an expectation with four decimals at most */
    if (fprintf(out, "%.4g\t%s\t%s\t%llu\t%s\n", row->result, row->variant->name,
                turn_rules_name(row->turns), (unsigned long long)row->pair, fen) < 0)
        return errmsg_fail(err, errlen, "cannot write the data file: %s", strerror(errno));
    return 0;
}

int texel_file_write_row(FILE *out, const TexelRow *row, char *err, size_t errlen)
{
    Setup s;
    char fen[FEN_MAX];
    position_to_setup(row->pos, &s);
    setup_to_fen(&s, s.castling_text, fen, sizeof fen);
    return texel_file_write_fen_row(out, row, fen, err, errlen);
}

void texel_record_add(TexelRecord *r, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t n = strlen(line);
    char *grown = realloc(r->text, r->len + n + 2);
    if (!grown) {
        r->failed = true;
        return;
    }
    memcpy(grown + r->len, line, n + 1);
    r->text = grown;
    r->len += n;
    r->text[r->len++] = '\n';
    r->text[r->len] = '\0';
}

/* Reads the row in line (its newline removed) into fn. */
static int read_row(const char *path, uint64_t at, char *line, TexelRowFn fn, void *ctx, char *err,
                    size_t errlen)
{
    char *col[5] = { line };
    int tabs = 0;
    for (char *c = line; *c; c++)
        if (*c == '\t') {
            *c = '\0';
            if (++tabs < 5)
                col[tabs] = c + 1;
        }
    if (tabs != 4)
        return errmsg_fail(err, errlen, "%s:%llu: a row has 5 columns separated by tabs (%s)", path,
                           (unsigned long long)at, TEXEL_FILE_HEADER);
    TexelRow row = { 0 };
    char *end;
    row.result = strtod(col[0], &end);
    if (end == col[0] || *end || !(row.result >= 0 && row.result <= 1))
        return errmsg_fail(err, errlen,
                           "%s:%llu: result '%s' is no number from 0 to 1 (a game's 1, 0.5, 0, or "
                           "an expectation)",
                           path, (unsigned long long)at, col[0]);
    row.variant = variant_by_name(col[1]);
    if (!row.variant)
        return errmsg_fail(err, errlen, "%s:%llu: unknown variant '%s'", path,
                           (unsigned long long)at, col[1]);
    if (!turn_rules_parse(col[2], &row.turns))
        return errmsg_fail(err, errlen, "%s:%llu: unknown turn rules '%s'", path,
                           (unsigned long long)at, col[2]);
    long pair;
    if (!number_parse(col[3], 0, LONG_MAX, &pair))
        return errmsg_fail(err, errlen, "%s:%llu: pair '%s' is not a whole number", path,
                           (unsigned long long)at, col[3]);
    row.pair = (uint64_t)pair;
    Setup s;
    char why[ERRMSG_LEN];
    if (setup_from_fen(&s, row.variant, col[4], why, sizeof why) != 0)
        return errmsg_fail(err, errlen, "%s:%llu: FEN '%s': %s", path, (unsigned long long)at,
                           col[4], why);
    Position pos;
    position_from_setup(&pos, &s);
    row.pos = &pos;
    return fn(ctx, &row, at, err, errlen);
}

int texel_file_read(const char *path, TexelRowFn fn, void *ctx, char **record, char *err,
                    size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errmsg_fail(err, errlen, "%s: %s", path, strerror(errno));
    char *line = NULL;
    size_t line_cap = 0;
    TexelRecord rec = { 0 };
    uint64_t at = 0;
    bool header = false;
    int rc = 0;
    ssize_t len;
    while (rc == 0 && (len = getline(&line, &line_cap, f)) >= 0) {
        at++;
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        if (at == 1) {
            if (strcmp(line, TEXEL_FILE_TAG) != 0)
                rc = errmsg_fail(err, errlen,
                                 "%s: not a Texel data file of this format (its first line is "
                                 "not \"%s\")",
                                 path, TEXEL_FILE_TAG);
        } else if (!header && strncmp(line, "# ", 2) == 0) {
            if (record) {
                texel_record_add(&rec, "%s", line + 2);
                if (rec.failed)
                    rc = errmsg_fail(err, errlen, "%s: out of memory", path);
            }
        } else if (!header) {
            header = true;
            if (strcmp(line, TEXEL_FILE_HEADER) != 0)
                rc = errmsg_fail(err, errlen, "%s:%llu: the column header \"%s\" is missing", path,
                                 (unsigned long long)at, TEXEL_FILE_HEADER);
        } else {
            rc = read_row(path, at, line, fn, ctx, err, errlen);
        }
    }
    if (rc == 0 && ferror(f))
        rc = errmsg_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    if (rc == 0 && !header)
        rc = errmsg_fail(err, errlen, "%s: %s", path,
                         at == 0 ? "the file is empty" : "the column header is missing");
    fclose(f);
    free(line);
    if (rc == 0 && record)
        *record = rec.text;
    else
        free(rec.text);
    return rc;
}
