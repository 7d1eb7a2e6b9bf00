/* SPDX-License-Identifier: MIT */
/* INI files read whole into plain data: every `key = value` with its section and line, every
 * section header with its line, and the text itself (kept as provenance). Reading knows nothing
 * of what a file should contain; each kind of configuration validates the entries itself, with
 * an IniCheck that reports, in the format `FILE:LINE: ...`, the error on the earliest line, so
 * a user fixing a file from the top always sees the next thing to fix. (Not named ini.h, which
 * would hide inih's <ini.h> from the files that have cluster/ on their include path.) */
#ifndef CARRERA_INI_FILE_H
#define CARRERA_INI_FILE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct IniEntry {
    const char *section; /* "" before the first header */
    const char *key;
    const char *value; /* without blanks around it or an inline `; comment` */
    int line;
} IniEntry;

typedef struct IniSection {
    const char *name;
    int line;
} IniSection;

typedef struct Ini {
    char *name;        /* the file, for messages */
    char *text;        /* the whole file as read */
    IniEntry *entries; /* in file order; a key repeated in its section appears once */
    int entry_count;
    IniSection *sections; /* every header in file order, repeated ones too */
    int section_count;
    /* The first problem reading found (a syntax error, an overlong line, a key given twice), as
     * the whole message; NULL if none. It does not make reading fail: it is reported through
     * ini_check_start, so that an error the validation finds on an earlier line comes first. */
    char *error;
    int error_line;
} Ini;

/* Reads the file at path. Returns 0; or -1 with `FILE: ...` in err when it cannot be read (or
 * is too large, or holds a NUL byte, or memory runs out), *ini then holding nothing to free. */
int ini_file_read(const char *path, Ini *ini, char *err, size_t errlen);

/* The same for text in memory; name stands for the file in messages. */
int ini_file_parse(const char *text, const char *name, Ini *ini, char *err, size_t errlen);

void ini_file_free(Ini *ini);

/* The first header of the section of this name, or NULL. */
const IniSection *ini_file_section(const Ini *ini, const char *name);

/* The line of key in section, 0 when it is not there. */
int ini_file_line(const Ini *ini, const char *section, const char *key);

/* The validation of one Ini: the message of the error on the earliest line so far, in err. */
typedef struct IniCheck {
    const char *name;
    char *err;
    size_t errlen;
    int line; /* of that error; 0 for one about the whole file */
    bool failed;
} IniCheck;

/* Starts with the problem reading found, if any. The Ini gives the file name: it must outlive
 * the check. */
void ini_check_start(IniCheck *c, const Ini *ini, char *err, size_t errlen);

/* Records `FILE:LINE: message` (`FILE: message` for line 0) unless an error on an earlier line
 * is recorded. On the same line the later message wins: the validation's is the more precise.
 * An error about the whole file (line 0) is recorded only when there is no other, and stays. */
void ini_fail(IniCheck *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* `section [NAME] is unknown (WHY)` */
void ini_unknown_section(IniCheck *c, const IniSection *s, const char *why);

/* `key 'KEY' is unknown in [SECTION] (WHY)` */
void ini_unknown_key(IniCheck *c, const IniEntry *e, const char *why);

/* `key 'KEY' is outside any section: put it under [SECTION]` */
void ini_outside_section(IniCheck *c, const IniEntry *e, const char *section);

/* `key 'KEY' given twice (first on line N)`: for keys that are the same under another spelling
 * (reading already reports the same key repeated in a section). */
void ini_duplicate_key(IniCheck *c, const IniEntry *e, int first_line);

/* Longest path a configuration may name (outputs, openings, sources). */
#define CONFIG_PATH_MAX 4096

/* The default name of an output file: the configuration's base name with .ini replaced by suffix
 * (".h5"), fallback + suffix when that cannot be. */
void ini_file_output_name(const char *name, const char *fallback, const char *suffix, char *out,
                          size_t outlen);

#endif
