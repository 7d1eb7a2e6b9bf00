/* SPDX-License-Identifier: MIT */
/* The harnesses' shared helpers (fuzz.h). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, fmemopen */

#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fuzz_pick(uint8_t selector, const Variant **v, Rules *r)
{
    int count;
    const Variant *const *all = variant_all(&count);
    *v = all[selector % count];
    int rest = selector / count;
    r->turns = (TurnRules)(rest % TURNS_NB);
    r->ep = (rest / TURNS_NB) % 2 ? EP_MODERN : EP_CLASSIC;
}

/* The directory of this process's input files; one per process, so that parallel fuzzers and
 * the replay test never share a file. */
static char dir[64];

static void remove_dir(void)
{
    static const char *const suffixes[] = { ".ini", ".h5", ".h5.tmp", ".epd" };
    char path[128];
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        snprintf(path, sizeof path, "%s/input%s", dir, suffixes[i]);
        unlink(path);
    }
    rmdir(dir);
}

const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/carrera-fuzz-XXXXXX", tmp && strlen(tmp) < 32 ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            dir[0] = '\0';
            return NULL;
        }
        atexit(remove_dir);
    }
    static char path[128];
    snprintf(path, sizeof path, "%s/input%s", dir, suffix);
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    bool ok = fwrite(data, 1, size, f) == size;
    if (fclose(f) != 0 || !ok)
        return NULL;
    return path;
}

char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return NULL;
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

bool fuzz_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t grown = 2 * (*len + n + 1);
        char *b = realloc(*buf, grown);
        if (!b)
            return false;
        *buf = b;
        *cap = grown;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
    return true;
}

bool fuzz_all_digits(const char *s) { return s[0] && strspn(s, "0123456789") == strlen(s); }

void fuzz_protocol(const uint8_t *data, size_t size, const char *start, FuzzRewrite rewrite,
                   FuzzLoop loop)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        return;
    char *text = fuzz_string(data, size);
    if (!text)
        return;
    char *script = NULL;
    size_t len = 0, cap = 0;
    bool ok = fuzz_append(&script, &len, &cap, start, strlen(start));
    /* a NUL ends what the loop sees of a line */
    for (size_t at = 0; ok && at < size;) {
        size_t end = at;
        while (end < size && data[end] != '\n')
            end++;
        text[end] = '\0';
        ok = rewrite(text + at, &script, &len, &cap);
        at = end + 1;
    }
    free(text);
    if (ok) {
        EvalParams params;
        eval_defaults(&params);
        FILE *in = fmemopen(script, len ? len : 1, "r");
        if (in) {
            loop(in, sink, &params);
            fclose(in);
        }
    }
    free(script);
}
