/* SPDX-License-Identifier: MIT */
/* Reading a section's entries through its table of keys (ini_keys.h). */
#include "ini_keys.h"

#include <string.h>

#include "errmsg.h"
#include "number.h"
#include "rules.h"

/* The key of this name (or of the family it belongs to), or NULL. */
static const IniKey *find(const IniKeys *t, const char *name)
{
    /* a key's own name before any family, whatever the order of the table */
    for (size_t i = 0; i < t->count; i++)
        if (!t->keys[i].family && strcmp(t->keys[i].name, name) == 0)
            return &t->keys[i];
    for (size_t i = 0; i < t->count; i++)
        if (t->keys[i].family && t->keys[i].family(name))
            return &t->keys[i];
    return NULL;
}

void ini_bad_value(IniCheck *c, const IniEntry *e, const char *must)
{
    ini_fail(c, e->line, "bad value '%s' for %s: must be %s", e->value, e->key, must);
}

static void read_whole(void *field, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    long v;
    if (!number_parse(e->value, k->min, k->max, &v)) {
        char must[96];
        snprintf(must, sizeof must, "a whole number from %ld to %ld", k->min, k->max);
        ini_bad_value(c, e, must);
    } else if (k->size == sizeof(int)) {
        int x = (int)v;
        memcpy(field, &x, sizeof x);
    } else {
        /* int64_t and uint64_t hold a number from 0 to LONG_MAX alike */
        int64_t x = v;
        memcpy(field, &x, sizeof x);
    }
}

static void read_text(void *field, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    if (e->value[0] == '\0' || strlen(e->value) >= k->size)
        ini_bad_value(c, e, k->must);
    else
        memcpy(field, e->value, strlen(e->value) + 1);
}

static void read_word(void *field, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    int n = 0;
    for (; k->words[n].name; n++)
        if (strcmp(e->value, k->words[n].name) == 0) {
            memcpy(field, &k->words[n].value, sizeof(int));
            return;
        }
    char must[256];
    size_t used = 0;
    must[0] = '\0';
    for (int i = 0; i < n && used < sizeof must; i++)
        used += (size_t)snprintf(must + used, sizeof must - used, "%s%s",
                                 i == 0      ? ""
                                 : i < n - 1 ? ", "
                                             : " or ",
                                 k->words[i].name);
    ini_bad_value(c, e, must);
}

/* `valid: a, b, c`: every key of the table, families by their form. */
static void valid_keys(const IniKeys *t, char *out, size_t outlen)
{
    size_t used = (size_t)snprintf(out, outlen, "valid: ");
    for (size_t i = 0; i < t->count && used < outlen; i++)
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i ? ", " : "", t->keys[i].name);
}

const IniKey *ini_keys_read(const IniKeys *t, void *target, const IniEntry *e, IniCheck *c)
{
    const IniKey *k = find(t, e->key);
    if (!k) {
        char valid[ERRMSG_LEN / 2];
        valid_keys(t, valid, sizeof valid);
        ini_unknown_key(c, e, valid);
        return NULL;
    }
    void *field = ini_key_field(target, k);
    switch (k->kind) {
    case INI_WHOLE:
        read_whole(field, k, e, c);
        break;
    case INI_TEXT:
        read_text(field, k, e, c);
        break;
    case INI_WORD:
        read_word(field, k, e, c);
        break;
    case INI_CALL:
        k->read(target, k, e, c);
        break;
    }
    return k;
}

void ini_keys_print(FILE *out, const IniKeys *t)
{
    fprintf(out, "%s  %s\n", t->sections, t->meaning);
    for (size_t i = 0; i < t->count; i++)
        fprintf(out, "  %-20s %s\n", t->keys[i].name, t->keys[i].meaning);
}

void ini_read_turns(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    if (!turn_rules_parse(e->value, ini_key_field(target, k)))
        ini_bad_value(c, e, k->must);
}

void ini_read_ep_rule(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    if (!ep_rule_parse(e->value, ini_key_field(target, k)))
        ini_bad_value(c, e, k->must);
}
