/* Reading perft job files (config.h). inih splits the lines into sections and `key = value`
 * pairs; it is fed through a reader of our own, which counts lines (inih's handler is built
 * without line numbers), rejects unknown sections where they start, even empty ones, and strips
 * leading blanks, so that an indented line is never glued to the previous value as inih's
 * multi-line values would do. The first error in the file is the one reported. */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "variant.h"

/* Larger than any configuration: a guard against being handed the wrong file. */
#define CONFIG_MAX_BYTES (1 << 20)

typedef enum Key {
    KEY_VARIANT,
    KEY_POSITION,
    KEY_DEPTH,
    KEY_TURNS,
    KEY_EP_RULE,
    KEY_SPLIT_DEPTH,
    KEY_THREADS,
    KEY_HASH_MB,
    KEY_OUTPUT,
    KEY_CHECKPOINT_INTERVAL,
    KEY_NB
} Key;

static const char *const KEY_NAMES[KEY_NB] = {
    "variant",     "position", "depth",   "turns",  "ep_rule",
    "split_depth", "threads",  "hash_mb", "output", "checkpoint_interval",
};

typedef struct Parser {
    const char *name; /* the file, for messages */
    const char *next; /* where the reader continues in the text */
    int line;         /* the line inih works on: the last one the reader handed over */
    bool seen_perft;  /* a [perft] header was read */
    int key_line[KEY_NB];
    PerftConfig *cfg;
    char *err;
    size_t errlen;
    int err_line; /* the first error's line (0: none with a line) */
    bool failed;
} Parser;

/* Writes the message `NAME:LINE: ...` (`NAME: ...` for line 0), replacing any earlier one. */
static void set_error(Parser *p, int line, const char *fmt, va_list ap)
{
    int used = line > 0 ? snprintf(p->err, p->errlen, "%s:%d: ", p->name, line)
                        : snprintf(p->err, p->errlen, "%s: ", p->name);
    if (used >= 0 && (size_t)used < p->errlen)
        vsnprintf(p->err + used, p->errlen - (size_t)used, fmt, ap);
    p->failed = true;
    p->err_line = line;
}

/* Records an error unless one came before. */
static void fail(Parser *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(Parser *p, int line, const char *fmt, ...)
{
    if (p->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    set_error(p, line, fmt, ap);
    va_end(ap);
}

static void fail_first(Parser *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records an error that replaces a later one. */
static void fail_first(Parser *p, int line, const char *fmt, ...)
{
    if (p->failed && p->err_line <= line)
        return;
    va_list ap;
    va_start(ap, fmt);
    set_error(p, line, fmt, ap);
    va_end(ap);
}

/* inih's fgets: one line of the text per call. */
static char *read_line(char *str, int num, void *stream)
{
    Parser *p = stream;
    if (p->failed || *p->next == '\0')
        return NULL;
    const char *start = p->next, *end = strchr(start, '\n');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    p->next = start + len + (end != NULL);
    p->line++;
    if (p->line == 1 && len >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0) {
        start += 3; /* a UTF-8 byte order mark */
        len -= 3;
    }
    while (len > 0 && (*start == ' ' || *start == '\t')) {
        start++;
        len--;
    }
    if (len + 2 > (size_t)num) {
        fail(p, p->line, "line longer than %d characters", num - 2);
        return NULL;
    }
    memcpy(str, start, len);
    str[len] = '\n';
    str[len + 1] = '\0';
    const char *close = str[0] == '[' ? strchr(str, ']') : NULL;
    if (close) {
        int name_len = (int)(close - str - 1);
        if (name_len == 5 && strncmp(str + 1, "perft", 5) == 0) {
            p->seen_perft = true;
        } else {
            fail(p, p->line, "section [%.*s] is unknown (a perft job has one section, [perft])",
                 name_len, str + 1);
            return NULL;
        }
    }
    return str;
}

static void bad_value(Parser *p, Key k, const char *value, const char *must)
{
    fail(p, p->key_line[k], "bad value '%s' for %s: must be %s", value, KEY_NAMES[k], must);
}

/* A whole number from min to max into *out, or the error. */
static void number(Parser *p, Key k, const char *value, long min, long max, int *out)
{
    long v;
    if (options_number(value, min, max, &v)) {
        *out = (int)v;
        return;
    }
    char must[96];
    snprintf(must, sizeof must, "%sa whole number from %ld to %ld",
             k == KEY_SPLIT_DEPTH ? "auto or " : "", min, max);
    bad_value(p, k, value, must);
}

static void variant_value(Parser *p, const char *value)
{
    p->cfg->variant = variant_by_name(value);
    if (p->cfg->variant)
        return;
    char must[512] = "one of ";
    int count;
    const Variant *const *all = variant_all(&count);
    for (int i = 0; i < count; i++) {
        size_t used = strlen(must);
        snprintf(must + used, sizeof must - used, "%s%s", i ? ", " : "", all[i]->name);
    }
    bad_value(p, KEY_VARIANT, value, must);
}

/* startpos, fen FEN or chess960 N; the FEN is read once the variant and rules are known. */
static void position_value(Parser *p, const char *value)
{
    PerftConfig *c = p->cfg;
    if (strlen(value) >= sizeof c->position_text) {
        bad_value(p, KEY_POSITION, value, "startpos, fen FEN or chess960 N (this is too long)");
        return;
    }
    strcpy(c->position_text, value);
    const char *arg = value + strcspn(value, " \t");
    size_t word = (size_t)(arg - value);
    arg += strspn(arg, " \t");
    if (word == 8 && strncmp(value, "startpos", 8) == 0 && *arg == '\0') {
        c->position = CONFIG_STARTPOS;
    } else if (word == 3 && strncmp(value, "fen", 3) == 0 && *arg != '\0') {
        c->position = CONFIG_FEN;
    } else if (word == 8 && strncmp(value, "chess960", 8) == 0) {
        long n;
        if (!options_number(arg, 0, 959, &n)) {
            bad_value(p, KEY_POSITION, value,
                      "chess960 N with N a whole number from 0 to 959 (518 is the standard array)");
            return;
        }
        c->position = CONFIG_CHESS960;
        c->chess960 = (int)n;
    } else {
        bad_value(p, KEY_POSITION, value, "startpos, fen FEN or chess960 N");
    }
}

static void set_value(Parser *p, Key k, const char *value)
{
    PerftConfig *c = p->cfg;
    switch (k) {
    case KEY_VARIANT:
        variant_value(p, value);
        break;
    case KEY_POSITION:
        position_value(p, value);
        break;
    case KEY_DEPTH:
        number(p, k, value, 1, CONFIG_MAX_DEPTH, &c->depth);
        break;
    case KEY_TURNS:
        if (!turn_rules_parse(value, &c->rules.turns))
            bad_value(p, k, value,
                      "one of single, marseillais, marseillais-balanced, galvin, bennekom, "
                      "extramove");
        break;
    case KEY_EP_RULE:
        if (!ep_rule_parse(value, &c->rules.ep))
            bad_value(p, k, value, "classic or modern");
        break;
    case KEY_SPLIT_DEPTH:
        if (strcmp(value, "auto") == 0)
            c->split_depth = CONFIG_SPLIT_AUTO;
        else
            number(p, k, value, 1, CONFIG_MAX_DEPTH, &c->split_depth);
        break;
    case KEY_THREADS:
        number(p, k, value, 0, CONFIG_MAX_THREADS, &c->threads);
        break;
    case KEY_HASH_MB:
        number(p, k, value, 0, CONFIG_MAX_HASH_MB, &c->hash_mb);
        break;
    case KEY_OUTPUT:
        if (value[0] == '\0' || strlen(value) >= sizeof c->output)
            bad_value(p, k, value, "a file name");
        else
            strcpy(c->output, value);
        break;
    case KEY_CHECKPOINT_INTERVAL:
        number(p, k, value, 0, CONFIG_MAX_CHECKPOINT, &c->checkpoint_interval);
        break;
    case KEY_NB:
        break;
    }
}

/* inih's callback for every `key = value`. */
static int on_pair(void *user, const char *section, const char *name, const char *value)
{
    Parser *p = user;
    if (p->failed)
        return 1;
    if (section[0] == '\0') {
        fail(p, p->line, "key '%s' is outside any section: put it under [perft]", name);
        return 1;
    }
    /* The reader has already refused every other section. */
    int k = 0;
    while (k < KEY_NB && strcmp(name, KEY_NAMES[k]) != 0)
        k++;
    if (k == KEY_NB) {
        char valid[256] = "";
        for (int i = 0; i < KEY_NB; i++) {
            size_t used = strlen(valid);
            snprintf(valid + used, sizeof valid - used, "%s%s", i ? ", " : "", KEY_NAMES[i]);
        }
        fail(p, p->line, "key '%s' is unknown in [perft] (valid: %s)", name, valid);
        return 1;
    }
    if (p->key_line[k]) {
        fail(p, p->line, "key '%s' given twice (first on line %d)", name, p->key_line[k]);
        return 1;
    }
    p->key_line[k] = p->line;
    set_value(p, (Key)k, value);
    return 1;
}

/* What needs several keys: the required ones, the split depth against the depth, the position
 * under the variant and rules. */
static void check_whole(Parser *p)
{
    PerftConfig *c = p->cfg;
    if (!p->seen_perft) {
        fail(p, 0, "no [perft] section (a perft job needs one, with position and depth)");
        return;
    }
    if (!p->key_line[KEY_POSITION]) {
        fail(p, 0, "key 'position' is missing from [perft] (startpos, fen FEN or chess960 N)");
        return;
    }
    if (!p->key_line[KEY_DEPTH]) {
        fail(p, 0, "key 'depth' is missing from [perft] (a whole number from 1 to %d)",
             CONFIG_MAX_DEPTH);
        return;
    }
    if (c->split_depth > c->depth) {
        char value[16], must[64];
        snprintf(value, sizeof value, "%d", c->split_depth);
        snprintf(must, sizeof must, "auto or a whole number from 1 to the depth (%d)", c->depth);
        bad_value(p, KEY_SPLIT_DEPTH, value, must);
        return;
    }
    const int line = p->key_line[KEY_POSITION];
    char err[256];
    switch (c->position) {
    case CONFIG_STARTPOS:
        setup_start(&c->setup, c->variant);
        break;
    case CONFIG_FEN: {
        const char *fen = c->position_text + 3;
        fen += strspn(fen, " \t");
        if (setup_from_fen_rules(&c->setup, c->variant, &c->rules, fen, err, sizeof err) != 0)
            fail(p, line, "bad value '%s' for position: bad FEN for %s under %s rules: %s",
                 c->position_text, c->variant->name, turn_rules_name(c->rules.turns), err);
        break;
    }
    case CONFIG_CHESS960:
        if (strcmp(c->variant->name, "chess960") != 0)
            fail(p, line,
                 "bad value '%s' for position: chess960 N needs variant = chess960 (the variant "
                 "is %s)",
                 c->position_text, c->variant->name);
        else if (setup_chess960(&c->setup, c->variant, c->chess960, err, sizeof err) != 0)
            fail(p, line, "bad value '%s' for position: %s", c->position_text, err);
        break;
    }
}

/* strdup is POSIX, not C17. */
static char *copy_text(const char *text)
{
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    return copy ? memcpy(copy, text, n) : NULL;
}

/* The default output: the configuration's base name, .ini replaced by .h5. */
static void default_output(PerftConfig *c, const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t len = strlen(base);
    if (len >= 4 && strcmp(base + len - 4, ".ini") == 0)
        len -= 4;
    if (len == 0 || len + 4 > sizeof c->output)
        snprintf(c->output, sizeof c->output, "perft.h5");
    else
        snprintf(c->output, sizeof c->output, "%.*s.h5", (int)len, base);
}

int config_parse_perft(const char *text, const char *name, PerftConfig *out, char *err,
                       size_t errlen)
{
    *out = (PerftConfig){
        .variant = variant_by_name("chess"),
        .rules = { TURNS_SINGLE, EP_CLASSIC },
        .chess960 = -1,
        .split_depth = CONFIG_SPLIT_AUTO,
        .checkpoint_interval = 60,
    };
    Parser p = { .name = name, .next = text, .cfg = out, .err = err, .errlen = errlen };
    int syntax = ini_parse_stream(read_line, &p, on_pair, &p);
    if (syntax > 0)
        fail_first(&p, syntax, "expected 'key = value', '[section]' or a comment");
    else if (syntax < 0)
        fail(&p, 0, "out of memory while reading");
    if (!p.failed)
        check_whole(&p);
    if (!p.failed && !out->output[0])
        default_output(out, name);
    if (!p.failed) {
        out->file = copy_text(name);
        out->text = copy_text(text);
        if (!out->file || !out->text)
            fail(&p, 0, "out of memory");
    }
    if (p.failed) {
        config_free(out);
        return -1;
    }
    return 0;
}

int config_read_perft(const char *path, PerftConfig *out, char *err, size_t errlen)
{
    *out = (PerftConfig){ 0 };
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    char *text = malloc(CONFIG_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, CONFIG_MAX_BYTES + 1, f) : 0;
    int failed = !text ? ENOMEM : ferror(f) ? errno : 0;
    fclose(f);
    int status = -1;
    if (failed) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(failed));
    } else if (n > CONFIG_MAX_BYTES) {
        snprintf(err, errlen, "%s: larger than %d bytes: not a configuration file", path,
                 CONFIG_MAX_BYTES);
    } else {
        text[n] = '\0';
        if (strlen(text) != n)
            snprintf(err, errlen, "%s: contains a NUL byte: not a configuration file", path);
        else
            status = config_parse_perft(text, path, out, err, errlen);
    }
    free(text);
    return status;
}

void config_free(PerftConfig *c)
{
    free(c->file);
    free(c->text);
    c->file = c->text = NULL;
}

void config_summary(const PerftConfig *c, char *out, size_t outlen)
{
    char rules[96], split[32], threads[32], hash[32], checkpoint[48];
    if (c->rules.turns == TURNS_SINGLE)
        snprintf(rules, sizeof rules, "single turns");
    else
        snprintf(rules, sizeof rules, "%s turns (%s en passant)", turn_rules_name(c->rules.turns),
                 ep_rule_name(c->rules.ep));
    if (c->split_depth == CONFIG_SPLIT_AUTO)
        snprintf(split, sizeof split, "auto");
    else
        snprintf(split, sizeof split, "%d", c->split_depth);
    if (c->threads == 0)
        snprintf(threads, sizeof threads, "default");
    else
        snprintf(threads, sizeof threads, "%d", c->threads);
    if (c->hash_mb == 0)
        snprintf(hash, sizeof hash, "no hash table");
    else
        snprintf(hash, sizeof hash, "hash %d MB", c->hash_mb);
    if (c->checkpoint_interval == 0)
        snprintf(checkpoint, sizeof checkpoint, "checkpoint after every unit");
    else
        snprintf(checkpoint, sizeof checkpoint, "checkpoint every %d s", c->checkpoint_interval);
    snprintf(out, outlen,
             "perft job, variant %s, position %s, depth %d, %s, split depth %s, threads %s, %s, "
             "output %s, %s",
             c->variant->name, c->position_text, c->depth, rules, split, threads, hash, c->output,
             checkpoint);
}
