/* SPDX-License-Identifier: MIT */
/* The variants' xboard names and the xboard move notation (xboard_variant.h). */
#include "xboard_variant.h"

#include <stdio.h>
#include <string.h>

#include "move.h"

typedef struct Name {
    const char *xboard, *carrera;
    /* for an engine-defined variant: the piece letters in XBoard's piece order and the parent */
    const char *pieces, *parent;
} Name;

/* XBoard's own piece table for its Capablanca family: pawn, knight, bishop, rook, queen, two
 * unused types, Archbishop (A), Chancellor (C), king. */
static const Name NAMES[] = {
    { "normal", "chess", NULL, NULL },
    { "fischerandom", "chess960", NULL, NULL },
    { "capablanca", "capablanca", NULL, NULL },
    { "gothic", "gothic", NULL, NULL },
    { "janus", "janus", NULL, NULL },
    { "caparandom", "caparandom", NULL, NULL },
    { "embassy", "embassy", "PNBRQ..ACKpnbrq..ack", "capablanca" },
};

#define NAME_COUNT (sizeof NAMES / sizeof *NAMES)

const Variant *xboard_variant(const char *name)
{
    for (size_t i = 0; i < NAME_COUNT; i++)
        if (strcmp(name, NAMES[i].xboard) == 0)
            return variant_by_name(NAMES[i].carrera);
    return NULL;
}

static const Name *name_of(const Variant *v)
{
    for (size_t i = 0; i < NAME_COUNT; i++)
        if (strcmp(v->name, NAMES[i].carrera) == 0)
            return &NAMES[i];
    return NULL;
}

const char *xboard_variant_name(const Variant *v)
{
    const Name *n = name_of(v);
    return n ? n->xboard : NULL;
}

void xboard_variant_list(char *out, size_t outlen)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < NAME_COUNT && used < outlen; i++)
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i ? "," : "", NAMES[i].xboard);
}

bool xboard_variant_setup(const Variant *v, char *out, size_t outlen)
{
    const Name *n = name_of(v);
    if (!n || !n->parent)
        return false;
    snprintf(out, outlen, "setup (%s) %dx8+0_%s %s", n->pieces, v->files, n->parent, v->start_fen);
    return true;
}

void xboard_move_text(Move m, const Variant *v, char out[XBOARD_MOVE_MAX])
{
    if (move_kind(m) == MOVE_CASTLING && v->castle960) {
        /* the encoding names the rook: on the king's higher side it is O-O */
        bool king_side = move_to(m) % v->files > move_from(m) % v->files;
        strcpy(out, king_side ? "O-O" : "O-O-O");
        return;
    }
    move_to_uci(m, v, false, out);
}
