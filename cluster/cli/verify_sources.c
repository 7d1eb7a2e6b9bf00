/* SPDX-License-Identifier: MIT */
/* The positions of `carrera verify` (verify_sources.h). */
#define _POSIX_C_SOURCE 200809L

#include "verify_sources.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "divide.h"
#include "errmsg.h"
#include "random_position.h"
#include "rng.h"

/* Random arrays drawn for the start positions of caparandom. */
#define RANDOM_STARTS 960

static int new_source(VerifyPositions *ps, const char *label, char *err, size_t errlen)
{
    char(*grown)[SOURCE_LABEL_MAX] =
        realloc(ps->labels, (size_t)(ps->n_sources + 1) * sizeof *grown);
    if (!grown)
        return errmsg_fail(err, errlen, "out of memory");
    ps->labels = grown;
    snprintf(ps->labels[ps->n_sources], SOURCE_LABEL_MAX, "%s", label);
    return ps->n_sources++;
}

/* Appends a position of the last source; NULL when memory runs out. */
static VerifyPosition *add(VerifyPositions *ps, const Setup *s, char *err, size_t errlen)
{
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 256;
        VerifyPosition *grown = realloc(ps->v, cap * sizeof *grown);
        if (!grown) {
            errmsg_set(err, errlen, "out of memory");
            return NULL;
        }
        ps->v = grown;
        ps->cap = cap;
    }
    VerifyPosition *p = &ps->v[ps->n++];
    *p = (VerifyPosition){ .source = ps->n_sources - 1, .setup = *s };
    setup_to_fen(s, s->variant->castle960 ? FEN_CASTLING_SHREDDER : FEN_CASTLING_KQ, p->fen,
                 sizeof p->fen);
    return p;
}

static char *trim(char *t)
{
    while (isspace((unsigned char)*t))
        t++;
    size_t n = strlen(t);
    while (n > 0 && isspace((unsigned char)t[n - 1]))
        t[--n] = '\0';
    return t;
}

/* One `;` field of a suite line: `D<n> <count>` and `id <name>` are read, the other EPD
 * opcodes skipped. Returns 0 or -1 with a message. */
static int suite_field(char *field, VerifyPosition *p, char *err, size_t errlen)
{
    if (field[0] == 'D' && isdigit((unsigned char)field[1])) {
        char *space = field + 1;
        while (isdigit((unsigned char)*space))
            space++;
        int depth = 0;
        uint64_t count;
        *space = '\0';
        if (divide_parse_depth(field + 1, &depth, err, errlen) != 0 || depth == 0 ||
            depth > SUITE_MAX_DEPTH)
            return errmsg_fail(err, errlen, "bad depth 'D%s' (D1 to D%d)", field + 1,
                               SUITE_MAX_DEPTH);
        if (!divide_parse_count(space + 1, &count))
            return errmsg_fail(err, errlen, "bad count '%s' for D%d", trim(space + 1), depth);
        p->given[depth] = count;
        if (depth > p->given_max)
            p->given_max = depth;
    } else if (strncmp(field, "id", 2) == 0 && isspace((unsigned char)field[2])) {
        char *name = trim(field + 2);
        size_t n = strlen(name);
        if (n >= 2 && name[0] == '"' && name[n - 1] == '"') {
            name[n - 1] = '\0';
            name++;
        }
        snprintf(p->name, sizeof p->name, "%s", name);
    }
    return 0;
}

/* Whether the line's `;V NAME` field names a variant other than v. */
static bool other_variant(const char *line, const Variant *v)
{
    for (const char *f = strchr(line, ';'); f; f = strchr(f + 1, ';')) {
        const char *t = f + 1;
        while (*t == ' ')
            t++;
        if (t[0] != 'V' || t[1] != ' ')
            continue;
        t += 2;
        while (*t == ' ')
            t++;
        size_t len = strcspn(t, " ;\r\n");
        return len != strlen(v->name) || strncmp(t, v->name, len) != 0;
    }
    return false;
}

int sources_add_suite(VerifyPositions *ps, const char *path, const Variant *v, const Rules *r,
                      char *err, size_t errlen)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return errmsg_fail(err, errlen, "cannot read the suite '%s': %s", path, strerror(errno));
    char label[SOURCE_LABEL_MAX];
    snprintf(label, sizeof label, "suite %s", path);
    if (new_source(ps, label, err, errlen) < 0) {
        fclose(f);
        return -1;
    }
    char *line = NULL, why[512];
    size_t cap = 0;
    int number = 0, rc = 0;
    size_t before = ps->n, skipped = ps->skipped;
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        number++;
        char *text = trim(line);
        if (text[0] == '\0' || text[0] == '#')
            continue;
        if (other_variant(text, v)) {
            ps->skipped++;
            continue;
        }
        char *semi = strchr(text, ';');
        if (semi)
            *semi = '\0';
        Setup s;
        if (setup_from_fen_rules(&s, v, r, trim(text), why, sizeof why) != 0) {
            errmsg_set(err, errlen, "%s:%d: not a position of %s: %s", path, number, v->name, why);
            rc = -1;
            break;
        }
        VerifyPosition *p = add(ps, &s, err, errlen);
        if (!p) {
            rc = -1;
            break;
        }
        snprintf(p->name, sizeof p->name, "%s:%d", path, number);
        for (char *field = semi; rc == 0 && field; field = semi) {
            semi = strchr(field + 1, ';');
            if (semi)
                *semi = '\0';
            if (suite_field(trim(field + 1), p, why, sizeof why) != 0) {
                errmsg_set(err, errlen, "%s:%d: %s", path, number, why);
                rc = -1;
            }
        }
    }
    free(line);
    if (rc == 0 && ferror(f)) {
        errmsg_set(err, errlen, "cannot read the suite '%s': %s", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && ps->n == before) {
        errmsg_set(err, errlen,
                   "the suite '%s' holds no positions of %s (%zu lines of other variants)", path,
                   v->name, ps->skipped - skipped);
        rc = -1;
    }
    return rc;
}

/* The seed of position i of a run seeded with seed: mixed, so neighbouring runs differ. */
static uint64_t seed_of(uint64_t seed, long i)
{
    Rng r = rng_new(seed ^ ((uint64_t)i * 0xD1B54A32D192ED03ull));
    return rng_next(&r);
}

int sources_add_random(VerifyPositions *ps, long n, uint64_t seed, const Variant *v, const Rules *r,
                       char *err, size_t errlen)
{
    char label[SOURCE_LABEL_MAX];
    snprintf(label, sizeof label, "random (seed %llu)", (unsigned long long)seed);
    if (new_source(ps, label, err, errlen) < 0)
        return -1;
    for (long i = 0; i < n; i++) {
        uint64_t s_i = seed_of(seed, i);
        Setup start, s;
        if (v->random_array)
            setup_random(&start, v, s_i);
        else
            setup_start(&start, v);
        if (!random_position(&start, r, s_i, &s))
            return errmsg_fail(err, errlen, "out of memory");
        VerifyPosition *p = add(ps, &s, err, errlen);
        if (!p)
            return -1;
        snprintf(p->name, sizeof p->name, "random %ld", i);
    }
    return 0;
}

int sources_add_starts(VerifyPositions *ps, uint64_t seed, const Variant *v, char *err,
                       size_t errlen)
{
    if (new_source(ps, "starts", err, errlen) < 0)
        return -1;
    size_t first = ps->n;
    Setup s;
    if (strcmp(v->name, "chess960") == 0) {
        for (int i = 0; i < 960; i++) {
            if (setup_chess960(&s, v, i, err, errlen) != 0)
                return -1;
            VerifyPosition *p = add(ps, &s, err, errlen);
            if (!p)
                return -1;
            snprintf(p->name, sizeof p->name, "chess960 %d", i);
        }
        return 0;
    }
    if (!v->random_array) {
        setup_start(&s, v);
        VerifyPosition *p = add(ps, &s, err, errlen);
        if (!p)
            return -1;
        snprintf(p->name, sizeof p->name, "%s start", v->name);
        return 0;
    }
    for (long i = 0; i < RANDOM_STARTS; i++) {
        setup_random(&s, v, seed_of(seed, i));
        VerifyPosition *p = add(ps, &s, err, errlen);
        if (!p)
            return -1;
        /* The same array twice would be checked twice: drop repeats. */
        for (size_t j = first; j + 1 < ps->n; j++)
            if (strcmp(ps->v[j].fen, p->fen) == 0) {
                ps->n--;
                p = NULL;
                break;
            }
        if (p)
            snprintf(p->name, sizeof p->name, "%s array %ld", v->name, i);
    }
    return 0;
}

void sources_free(VerifyPositions *ps)
{
    free(ps->v);
    free(ps->labels);
    *ps = (VerifyPositions){ 0 };
}
