/* SPDX-License-Identifier: MIT */
/* The distributed match's messages (match_wire.h): little-endian fields appended to a growing
 * buffer, read back with bounds checks. */
#include "match_wire.h"

#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

typedef struct Buf {
    unsigned char *data;
    size_t len, cap;
    bool failed;
} Buf;

static void put(Buf *b, const void *p, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = true;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_u8(Buf *b, uint8_t v) { put(b, &v, 1); }
static void put_u32(Buf *b, uint32_t v)
{
    unsigned char c[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24) };
    put(b, c, 4);
}
static void put_u64(Buf *b, uint64_t v)
{
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}
static void put_f64(Buf *b, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(b, bits);
}
static void put_text(Buf *b, const char *s)
{
    size_t n = strlen(s);
    put_u32(b, (uint32_t)n);
    put(b, s, n);
}

static unsigned char *finish(Buf *b, size_t *len)
{
    if (b->failed) {
        free(b->data);
        return NULL;
    }
    *len = b->len;
    return b->data;
}

/* A table of what a player plays with: its parameters and where their struct is inside
 * EngineParams. The evaluation's travel first, then the search's. */
typedef struct ParamTable {
    const ParamInfo *list;
    int count;
    size_t offset;
} ParamTable;

static void param_tables(ParamTable t[2])
{
    t[0] = (ParamTable){ .offset = offsetof(EngineParams, eval) };
    t[0].list = eval_param_list(&t[0].count);
    t[1] = (ParamTable){ .offset = offsetof(EngineParams, search) };
    t[1].list = search_param_list(&t[1].count);
}

static int *table_ref(EngineParams *e, const ParamTable *t, int i)
{
    return param_ref((char *)e + t->offset, &t->list[i]);
}

unsigned char *wire_task(uint64_t pair, const EngineParams params[2], size_t *len)
{
    Buf b = { 0 };
    put_u8(&b, WIRE_TASK);
    put_u64(&b, pair);
    ParamTable tables[2];
    param_tables(tables);
    for (int k = 0; k < 2; k++)
        for (int t = 0; t < 2; t++)
            for (int i = 0; i < tables[t].count; i++)
                put_u32(&b, (uint32_t)*table_ref((EngineParams *)&params[k], &tables[t], i));
    return finish(&b, len);
}

unsigned char *wire_failed(const char *text, size_t *len)
{
    Buf b = { 0 };
    put_u8(&b, WIRE_FAILED);
    put_text(&b, text);
    return finish(&b, len);
}

unsigned char *wire_result(uint64_t pair, const GameRecord games[2], size_t *len)
{
    Buf b = { 0 };
    put_u8(&b, WIRE_RESULT);
    put_u64(&b, pair);
    for (int k = 0; k < 2; k++) {
        const GameRecord *g = &games[k];
        put_u8(&b, (uint8_t)(int8_t)g->result);
        put_u8(&b, (uint8_t)g->ending);
        put_u8(&b, (uint8_t)(int8_t)g->loser_fault);
        put_text(&b, g->detail);
        for (int c = 0; c < 2; c++) {
            put_u64(&b, g->nodes[c]);
            put_f64(&b, g->seconds[c]);
        }
        put_u32(&b, (uint32_t)g->game.n_turns);
        for (size_t i = 0; i < g->game.n_turns; i++) {
            const Turn *t = &g->game.turns[i];
            put_u8(&b, (uint8_t)t->n);
            put_u32(&b, t->m[0]);
            put_u32(&b, t->n == 2 ? t->m[1] : 0);
        }
    }
    return finish(&b, len);
}

/* ---- reading -------------------------------------------------------------------------------- */

typedef struct Reader {
    const unsigned char *p, *end;
    bool bad;
} Reader;

static void get(Reader *r, void *out, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        memset(out, 0, n);
        return;
    }
    memcpy(out, r->p, n);
    r->p += n;
}
static uint8_t get_u8(Reader *r)
{
    uint8_t v;
    get(r, &v, 1);
    return v;
}
static uint32_t get_u32(Reader *r)
{
    unsigned char c[4];
    get(r, c, 4);
    return (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
}
static uint64_t get_u64(Reader *r)
{
    uint64_t lo = get_u32(r);
    return lo | (uint64_t)get_u32(r) << 32;
}
static double get_f64(Reader *r)
{
    uint64_t bits = get_u64(r);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}
static void get_text(Reader *r, char *out, size_t outlen)
{
    uint32_t n = get_u32(r);
    if (n >= outlen) {
        r->bad = true;
        out[0] = '\0';
        return;
    }
    get(r, out, n);
    out[r->bad ? 0 : n] = '\0';
}

/* One game of a result, replayed from start. */
static int read_game(Reader *r, const Position *start, const Rules *rules, bool castle960,
                     GameRecord *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->result = (int8_t)get_u8(r);
    uint8_t ending = get_u8(r);
    g->loser_fault = (int8_t)get_u8(r);
    get_text(r, g->detail, sizeof g->detail);
    for (int c = 0; c < 2; c++) {
        g->nodes[c] = get_u64(r);
        g->seconds[c] = get_f64(r);
    }
    uint32_t n = get_u32(r);
    if (r->bad || ending >= END_NB || g->result < -1 || g->result > 1)
        return errmsg_fail(err, errlen, "a malformed game in a worker's result");
    g->ending = (GameEnding)ending;
    if (!game_init(&g->game, start, rules, castle960))
        return errmsg_fail(err, errlen, "out of memory reading a worker's result");
    for (uint32_t i = 0; i < n; i++) {
        Turn t;
        t.n = get_u8(r);
        t.m[0] = get_u32(r);
        t.m[1] = get_u32(r);
        if (r->bad || (t.n != 1 && t.n != 2) || !game_play(&g->game, &t)) {
            game_free(&g->game);
            return errmsg_fail(err, errlen, "a worker's result holds an illegal turn (turn %u)",
                               i + 1);
        }
    }
    game_record_count_material(g);
    return 0;
}

int wire_decode(const unsigned char *data, size_t len, const Openings *o, WireMessage *out,
                char *err, size_t errlen)
{
    Reader r = { data, data + len, false };
    out->kind = (WireKind)get_u8(&r);
    switch (out->kind) {
    case WIRE_TASK:
        out->pair = get_u64(&r);
        ParamTable tables[2];
        param_tables(tables);
        for (int k = 0; k < 2; k++) {
            eval_defaults(&out->params[k].eval);
            search_params_default(&out->params[k].search);
            for (int t = 0; t < 2; t++)
                for (int i = 0; i < tables[t].count && !r.bad; i++) {
                    int32_t v = (int32_t)get_u32(&r);
                    if (v < tables[t].list[i].min || v > tables[t].list[i].max)
                        r.bad = true;
                    else
                        *table_ref(&out->params[k], &tables[t], i) = v;
                }
        }
        break;
    case WIRE_FAILED:
        get_text(&r, out->text, sizeof out->text);
        break;
    case WIRE_RESULT: {
        out->pair = get_u64(&r);
        Position start[2];
        if (r.bad || openings_pair(o, out->pair, start, err, errlen) != 0)
            break;
        const MatchConfig *c = o->cfg;
        if (read_game(&r, &start[0], &c->rules, c->castle960, &out->games[0], err, errlen) != 0)
            return -1;
        if (read_game(&r, &start[1], &c->rules, c->castle960, &out->games[1], err, errlen) != 0) {
            game_record_free(&out->games[0]);
            return -1;
        }
        break;
    }
    default:
        r.bad = true;
    }
    if (r.bad || r.p != r.end) {
        if (out->kind == WIRE_RESULT && !r.bad) {
            game_record_free(&out->games[0]);
            game_record_free(&out->games[1]);
        }
        return errmsg_fail(err, errlen, "a malformed message (kind %d, %zu bytes)", (int)out->kind,
                           len);
    }
    return 0;
}
