/* SPDX-License-Identifier: MIT */
/* The keys of an INI section as one table: each key's name, how its value is read (a whole
 * number within limits, a text, one word of a few, or a function of its own), where it goes in
 * the struct the section fills, and what it means. Reading an entry, the unknown-key error with
 * its list of the valid keys and the listing of `carrera check-config --keys` all come from the
 * table, so a key is added in one place. */
#ifndef CARRERA_INI_KEYS_H
#define CARRERA_INI_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ini_file.h"

typedef enum IniKind {
    INI_WHOLE, /* a whole number from min to max into an int, int64_t or uint64_t */
    INI_TEXT,  /* a text of 1 to size - 1 characters into a char[size]; else `must be MUST` */
    INI_WORD,  /* one of words into an int or an enum; else `must be W1, W2 or W3` */
    INI_CALL   /* read by the key's own function */
} IniKind;

typedef struct IniWord {
    const char *name;
    int value;
} IniWord;

typedef struct IniKey IniKey;

/* Reads e's value into target (the section's struct) or reports why it cannot. */
typedef void IniRead(void *target, const IniKey *k, const IniEntry *e, IniCheck *c);

struct IniKey {
    const char *name;    /* as written; for a family of keys, its form ("option.NAME") */
    const char *meaning; /* one line, for the listing */
    IniKind kind;
    size_t offset;                   /* of the value in the section's struct */
    size_t size;                     /* of the value: INI_WHOLE, INI_TEXT, INI_WORD */
    long min, max;                   /* INI_WHOLE */
    const IniWord *words;            /* INI_WORD, ended by a NULL name */
    const char *must;                /* INI_TEXT, INI_CALL: what a bad value must be */
    IniRead *read;                   /* INI_CALL */
    bool (*family)(const char *key); /* a family of keys: whether key is one of them */
};

/* The keys of one kind of section. */
typedef struct IniKeys {
    const char *sections; /* as listed: "[perft]", "[player1], [player2]" */
    const char *meaning;  /* one line, for the listing */
    const IniKey *keys;
    size_t count;
} IniKeys;

/* The rows of a table for a field of struct T. A whole number's field must be an int, int64_t
 * or uint64_t and a word's an int-sized enum, or the table does not compile. */
#define INI_KEY_WHOLE(T, key, field, lo, hi, text)                                                 \
    {                                                                                              \
        .name = (key), .meaning = (text), .kind = INI_WHOLE, .offset = offsetof(T, field),         \
        .size = _Generic(((T *)0)->field, int                                                      \
                         : sizeof(int), int64_t                                                    \
                         : sizeof(int64_t), uint64_t                                               \
                         : sizeof(uint64_t)),                                                      \
        .min = (lo), .max = (hi)                                                                   \
    }
#define INI_KEY_TEXT(T, key, field, must_, text)                                                   \
    {                                                                                              \
        .name = (key), .meaning = (text), .kind = INI_TEXT, .offset = offsetof(T, field),          \
        .size = sizeof(((T *)0)->field), .must = (must_)                                           \
    }
#define INI_KEY_WORD(T, key, field, words_, text)                                                  \
    {                                                                                              \
        .name = (key), .meaning = (text), .kind = INI_WORD, .offset = offsetof(T, field),          \
        .size = sizeof(char[sizeof(((T *)0)->field) == sizeof(int) ? sizeof(int) : -1]),           \
        .words = (words_)                                                                          \
    }
#define INI_KEY_CALL(T, key, field, read_, must_, text)                                            \
    {                                                                                              \
        .name = (key), .meaning = (text), .kind = INI_CALL, .offset = offsetof(T, field),          \
        .must = (must_), .read = (read_)                                                           \
    }
#define INI_KEY_FAMILY(T, form, field, family_, read_, must_, text)                                \
    {                                                                                              \
        .name = (form), .meaning = (text), .kind = INI_CALL, .offset = offsetof(T, field),         \
        .must = (must_), .read = (read_), .family = (family_)                                      \
    }

/* Reads entry e of a section with these keys into target. Returns its key; or NULL after
 * reporting `key 'K' is unknown in [S] (valid: ...)` with every key of the table. */
const IniKey *ini_keys_read(const IniKeys *t, void *target, const IniEntry *e, IniCheck *c);

/* `bad value 'VALUE' for KEY: must be MUST` on e's line. */
void ini_bad_value(IniCheck *c, const IniEntry *e, const char *must);

/* Where k's value is in target. */
static inline void *ini_key_field(void *target, const IniKey *k)
{
    return (char *)target + k->offset;
}

/* Readers of the values that several sections share: turns (a TurnRules field) and ep_rule (an
 * EpRule field), by their names in rules.h. */
void ini_read_turns(void *target, const IniKey *k, const IniEntry *e, IniCheck *c);
void ini_read_ep_rule(void *target, const IniKey *k, const IniEntry *e, IniCheck *c);

/* Writes the section and its keys, each with its meaning, one per line. */
void ini_keys_print(FILE *out, const IniKeys *t);

#endif
