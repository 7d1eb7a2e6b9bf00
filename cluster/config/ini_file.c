/* SPDX-License-Identifier: MIT */
/* Reading INI files into entries (ini_file.h). inih splits the lines into sections and
 * `key = value` pairs; it is fed through a reader of our own, which counts lines (Debian's inih
 * gives its handler none), notes section headers where they start (inih says nothing of an empty
 * section), strips leading blanks so that an indented line is never glued to the previous value
 * as inih's multi-line values would do, drops a UTF-8 byte order mark, and refuses a line too
 * long for inih's buffer rather than let inih cut it in two. */
#include "ini_file.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

/* Larger than any configuration: a guard against being handed the wrong file. */
#define INI_MAX_BYTES (1 << 20)

typedef struct Reader {
    Ini *ini;
    const char *next; /* where the reader continues in the text */
    int line;         /* the line inih works on: the last one the reader handed over */
    int entry_cap, section_cap;
    bool stop; /* an overlong line, or memory ran out: hand inih nothing more */
    bool out_of_memory;
    IniCheck check;     /* the problems reading finds, into message */
    char message[4608]; /* room for a long path and any message about one line */
} Reader;

/* strdup and strndup are POSIX, not C17. */
static char *copy_text(const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, text, len);
    copy[len] = '\0';
    return copy;
}

/* Room in *items for one more after count. */
static bool make_room(void **items, int *cap, int count, size_t size)
{
    if (count < *cap)
        return true;
    int grown = *cap ? 2 * *cap : 16;
    void *more = realloc(*items, (size_t)grown * size);
    if (!more)
        return false;
    *items = more;
    *cap = grown;
    return true;
}

static bool add_section(Reader *r, const char *name, size_t len)
{
    Ini *ini = r->ini;
    if (!make_room((void **)&ini->sections, &r->section_cap, ini->section_count,
                   sizeof *ini->sections))
        return false;
    char *copy = copy_text(name, len);
    if (!copy)
        return false;
    ini->sections[ini->section_count++] = (IniSection){ copy, r->line };
    return true;
}

/* The entry's three strings share one block, the section first: freeing it frees them all. */
static bool add_entry(Reader *r, const char *section, const char *key, const char *value)
{
    Ini *ini = r->ini;
    if (!make_room((void **)&ini->entries, &r->entry_cap, ini->entry_count, sizeof *ini->entries))
        return false;
    size_t ls = strlen(section) + 1, lk = strlen(key) + 1, lv = strlen(value) + 1;
    char *block = malloc(ls + lk + lv);
    if (!block)
        return false;
    memcpy(block, section, ls);
    memcpy(block + ls, key, lk);
    memcpy(block + ls + lk, value, lv);
    ini->entries[ini->entry_count++] = (IniEntry){ block, block + ls, block + ls + lk, r->line };
    return true;
}

/* inih's fgets: one line of the text per call. */
static char *read_line(char *str, int num, void *stream)
{
    Reader *r = stream;
    if (r->stop || *r->next == '\0')
        return NULL;
    const char *start = r->next, *end = strchr(start, '\n');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    r->next = start + len + (end != NULL);
    r->line++;
    if (r->line == 1 && len >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0) {
        start += 3; /* a UTF-8 byte order mark */
        len -= 3;
    }
    while (len > 0 && (*start == ' ' || *start == '\t')) {
        start++;
        len--;
    }
    if (len + 2 > (size_t)num) {
        ini_fail(&r->check, r->line, "line longer than %d characters", num - 2);
        r->stop = true;
        return NULL;
    }
    memcpy(str, start, len);
    str[len] = '\n';
    str[len + 1] = '\0';
    /* A header inih will refuse ("[a ;b]") is noted too: that its section is unknown says more
     * than a syntax error. */
    const char *close = str[0] == '[' ? strchr(str, ']') : NULL;
    if (close && !add_section(r, str + 1, (size_t)(close - str - 1))) {
        r->stop = r->out_of_memory = true;
        return NULL;
    }
    return str;
}

/* inih's callback for every `key = value`. */
static int on_pair(void *user, const char *section, const char *key, const char *value)
{
    Reader *r = user;
    if (!r->stop && !add_entry(r, section, key, value))
        r->stop = r->out_of_memory = true;
    return 1;
}

/* Entries by section, key, then position in the file. */
static int by_key(const void *a, const void *b)
{
    const IniEntry *x = *(const IniEntry *const *)a, *y = *(const IniEntry *const *)b;
    int c = strcmp(x->section, y->section);
    if (c == 0)
        c = strcmp(x->key, y->key);
    return c ? c : (x > y) - (x < y);
}

/* Reports every repetition of a key in its section and keeps only its first occurrence. Sorted,
 * not compared pairwise, so that a large file of short lines cannot take minutes. */
static bool drop_repeated_keys(Reader *r)
{
    Ini *ini = r->ini;
    if (ini->entry_count < 2)
        return true;
    const IniEntry **order = malloc((size_t)ini->entry_count * sizeof *order);
    bool *repeated = calloc((size_t)ini->entry_count, sizeof *repeated);
    if (!order || !repeated) {
        free(order);
        free(repeated);
        return false;
    }
    for (int i = 0; i < ini->entry_count; i++)
        order[i] = &ini->entries[i];
    qsort(order, (size_t)ini->entry_count, sizeof *order, by_key);
    for (int i = 1, first = 0; i < ini->entry_count; i++) {
        if (strcmp(order[i]->section, order[first]->section) != 0 ||
            strcmp(order[i]->key, order[first]->key) != 0) {
            first = i;
            continue;
        }
        ini_duplicate_key(&r->check, order[i], order[first]->line);
        repeated[order[i] - ini->entries] = true;
    }
    int kept = 0;
    for (int i = 0; i < ini->entry_count; i++) {
        if (repeated[i])
            free((void *)ini->entries[i].section);
        else
            ini->entries[kept++] = ini->entries[i];
    }
    ini->entry_count = kept;
    free(order);
    free(repeated);
    return true;
}

/* Parses text, which *ini takes over (freed by ini_file_free, even on failure). */
static int parse_owned(char *text, const char *name, Ini *ini, char *err, size_t errlen)
{
    *ini = (Ini){ .text = text, .name = copy_text(name, strlen(name)) };
    Reader *r = malloc(sizeof *r);
    if (!text || !ini->name || !r) {
        free(r);
        ini_file_free(ini);
        return errmsg_fail(err, errlen, "%s: out of memory", name);
    }
    *r = (Reader){ .ini = ini, .next = text };
    r->check = (IniCheck){ .name = name, .err = r->message, .errlen = sizeof r->message };
    int syntax = ini_parse_stream(read_line, r, on_pair, r);
    if (syntax > 0)
        ini_fail(&r->check, syntax, "expected 'key = value', '[section]' or a comment");
    bool ok = syntax >= 0 && !r->out_of_memory && drop_repeated_keys(r);
    if (ok && r->check.failed) {
        ini->error = copy_text(r->message, strlen(r->message));
        ini->error_line = r->check.line;
        ok = ini->error != NULL;
    }
    free(r);
    if (!ok) {
        ini_file_free(ini);
        return errmsg_fail(err, errlen, "%s: out of memory while reading", name);
    }
    return 0;
}

int ini_file_parse(const char *text, const char *name, Ini *ini, char *err, size_t errlen)
{
    return parse_owned(copy_text(text, strlen(text)), name, ini, err, errlen);
}

int ini_file_read(const char *path, Ini *ini, char *err, size_t errlen)
{
    *ini = (Ini){ 0 };
    FILE *f = fopen(path, "rbe");
    if (!f)
        return errmsg_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    char *text = malloc(INI_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, INI_MAX_BYTES + 1, f) : 0;
    int failed = !text ? ENOMEM : ferror(f) ? errno : 0;
    fclose(f);
    if (failed) {
        errmsg_set(err, errlen, "%s: cannot read: %s", path, strerror(failed));
    } else if (n > INI_MAX_BYTES) {
        errmsg_set(err, errlen, "%s: larger than %d bytes: not a configuration file", path,
                   INI_MAX_BYTES);
    } else {
        text[n] = '\0';
        if (strlen(text) == n)
            return parse_owned(text, path, ini, err, errlen);
        errmsg_set(err, errlen, "%s: contains a NUL byte: not a configuration file", path);
    }
    free(text);
    return -1;
}

void ini_file_free(Ini *ini)
{
    for (int i = 0; i < ini->entry_count; i++)
        free((void *)ini->entries[i].section);
    for (int i = 0; i < ini->section_count; i++)
        free((void *)ini->sections[i].name);
    free(ini->entries);
    free(ini->sections);
    free(ini->name);
    free(ini->text);
    free(ini->error);
    *ini = (Ini){ 0 };
}

const IniSection *ini_file_section(const Ini *ini, const char *name)
{
    for (int i = 0; i < ini->section_count; i++)
        if (strcmp(ini->sections[i].name, name) == 0)
            return &ini->sections[i];
    return NULL;
}

int ini_file_line(const Ini *ini, const char *section, const char *key)
{
    for (int i = 0; i < ini->entry_count; i++)
        if (strcmp(ini->entries[i].section, section) == 0 && strcmp(ini->entries[i].key, key) == 0)
            return ini->entries[i].line;
    return 0;
}

void ini_check_start(IniCheck *c, const Ini *ini, char *err, size_t errlen)
{
    *c = (IniCheck){ .name = ini->name, .err = err, .errlen = errlen };
    if (errlen > 0)
        err[0] = '\0';
    if (ini->error) {
        errmsg_set(err, errlen, "%s", ini->error);
        c->failed = true;
        c->line = ini->error_line;
    }
}

void ini_fail(IniCheck *c, int line, const char *fmt, ...)
{
    if (c->failed && (line <= 0 || c->line <= 0 || line > c->line))
        return;
    int used = line > 0 ? snprintf(c->err, c->errlen, "%s:%d: ", c->name, line)
                        : snprintf(c->err, c->errlen, "%s: ", c->name);
    if (used >= 0 && (size_t)used < c->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + used, c->errlen - (size_t)used, fmt, ap);
        va_end(ap);
    }
    c->failed = true;
    c->line = line;
}

void ini_unknown_section(IniCheck *c, const IniSection *s, const char *why)
{
    ini_fail(c, s->line, "section [%s] is unknown (%s)", s->name, why);
}

void ini_unknown_key(IniCheck *c, const IniEntry *e, const char *why)
{
    ini_fail(c, e->line, "key '%s' is unknown in [%s] (%s)", e->key, e->section, why);
}

void ini_outside_section(IniCheck *c, const IniEntry *e, const char *section)
{
    ini_fail(c, e->line, "key '%s' is outside any section: put it under [%s]", e->key, section);
}

void ini_duplicate_key(IniCheck *c, const IniEntry *e, int first_line)
{
    ini_fail(c, e->line, "key '%s' given twice (first on line %d)", e->key, first_line);
}

void ini_file_output_name(const char *name, const char *fallback, const char *suffix, char *out,
                          size_t outlen)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t len = strlen(base);
    if (len >= 4 && strcmp(base + len - 4, ".ini") == 0)
        len -= 4;
    if (len == 0 || len + strlen(suffix) >= outlen)
        snprintf(out, outlen, "%s%s", fallback, suffix);
    else
        snprintf(out, outlen, "%.*s%s", (int)len, base, suffix);
}
