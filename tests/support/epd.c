/* SPDX-License-Identifier: MIT */
/* Reads the reference perft files for the tests. */
#include "epd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CARRERA_TEST_DATA
#define CARRERA_TEST_DATA "."
#endif

static int parse_field(EpdEntry *e, const char *f)
{
    while (*f == ' ')
        f++;
    if (f[0] == 'D' && f[1] >= '0' && f[1] <= '9') {
        char *end;
        long d = strtol(f + 1, &end, 10);
        if (d < 1 || d > EPD_MAX_DEPTH || *end != ' ')
            return -1;
        errno = 0;
        unsigned long long n = strtoull(end + 1, &end, 10);
        if (errno == ERANGE)
            return 0;
        e->nodes[d] = n;
        if (d > e->max_depth)
            e->max_depth = (int)d;
    } else if ((f[0] == 'V' || f[0] == 'T' || f[0] == 'E') && f[1] == ' ') {
        char *to = f[0] == 'V' ? e->variant : f[0] == 'T' ? e->turns : e->ep_rule;
        size_t size = f[0] == 'V'   ? sizeof e->variant
                      : f[0] == 'T' ? sizeof e->turns
                                    : sizeof e->ep_rule;
        snprintf(to, size, "%s", f + 2);
        char *sp = strchr(to, ' ');
        if (sp)
            *sp = '\0';
    } else if (f[0] == 'S' && f[1] == 'P' && f[2] == ' ') {
        e->sp = atoi(f + 3);
    }
    return 0;
}

int epd_read(const char *path, EpdEntry **entries)
{
    char full[1024];
    if (path[0] == '/')
        snprintf(full, sizeof full, "%s", path);
    else
        snprintf(full, sizeof full, "%s/%s", CARRERA_TEST_DATA, path);
    FILE *fp = fopen(full, "r");
    if (!fp) {
        fprintf(stderr, "epd: cannot open %s: %s\n", full, strerror(errno));
        return -1;
    }
    int n = 0, cap = 64, lineno = 0;
    EpdEntry *v = malloc(sizeof *v * (size_t)cap);
    char line[4096];
    while (v && fgets(line, sizeof line, fp)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (n == cap) {
            cap *= 2;
            EpdEntry *nv = realloc(v, sizeof *v * (size_t)cap);
            if (!nv) {
                free(v);
                v = NULL;
                break;
            }
            v = nv;
        }
        EpdEntry *e = &v[n];
        memset(e, 0, sizeof *e);
        e->sp = -1;
        e->line = lineno;
        char *semi = strchr(line, ';');
        if (!semi) {
            fprintf(stderr, "epd: %s:%d: no ';' fields\n", full, lineno);
            goto bad;
        }
        size_t flen = (size_t)(semi - line);
        while (flen > 0 && line[flen - 1] == ' ')
            flen--;
        if (flen >= sizeof e->fen)
            goto bad;
        memcpy(e->fen, line, flen);
        e->fen[flen] = '\0';
        for (char *f = semi + 1; f;) {
            char *next = strchr(f, ';');
            if (next)
                *next++ = '\0';
            if (parse_field(e, f) != 0) {
                fprintf(stderr, "epd: %s:%d: bad field '%s'\n", full, lineno, f);
                goto bad;
            }
            f = next;
        }
        n++;
    }
    fclose(fp);
    if (!v)
        return -1;
    *entries = v;
    return n;
bad:
    fclose(fp);
    free(v);
    return -1;
}
