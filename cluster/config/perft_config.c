/* SPDX-License-Identifier: MIT */
/* Reading perft job files (perft_config.h): the entries of the INI file (ini_file.h) checked
 * against the one section, [perft], and its keys, then turned into a PerftConfig. The first error
 * in the file is the one reported. */
#include "perft_config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "ini_file.h"
#include "number.h"
#include "variant.h"

typedef enum Key {
    KEY_VARIANT,
    KEY_POSITION,
    KEY_DEPTH,
    KEY_TURNS,
    KEY_EP_RULE,
    KEY_SPLIT_DEPTH,
    KEY_THREADS,
    KEY_HASH_MB,
    KEY_KEY_SEED,
    KEY_OUTPUT,
    KEY_CHECKPOINT_INTERVAL,
    KEY_NB
} Key;

static const char *const KEY_NAMES[KEY_NB] = {
    "variant",
    "position",
    "depth",
    "turns",
    "ep_rule",
    "split_depth",
    "threads",
    "hash_mb",
    "key_seed",
    "output",
    "checkpoint_interval",
};

typedef struct Parser {
    IniCheck check;
    int key_line[KEY_NB]; /* 0: not given */
    PerftConfig *cfg;
} Parser;

static void bad_value(Parser *p, Key k, const char *value, const char *must)
{
    ini_fail(&p->check, p->key_line[k], "bad value '%s' for %s: must be %s", value, KEY_NAMES[k],
             must);
}

/* A whole number from min to max into *out, or the error. */
static void number(Parser *p, Key k, const char *value, long min, long max, int *out)
{
    long v;
    if (number_parse(value, min, max, &v)) {
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
        if (!number_parse(arg, 0, 959, &n)) {
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
    case KEY_KEY_SEED: {
        long seed;
        if (number_parse(value, 0, LONG_MAX, &seed)) {
            c->key_seed = (uint64_t)seed;
        } else {
            char must[64];
            snprintf(must, sizeof must, "a whole number from 0 to %ld", LONG_MAX);
            bad_value(p, k, value, must);
        }
        break;
    }
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

/* One `key = value` of [perft]. */
static void set_key(Parser *p, const IniEntry *e)
{
    int k = 0;
    while (k < KEY_NB && strcmp(e->key, KEY_NAMES[k]) != 0)
        k++;
    if (k == KEY_NB) {
        char valid[256] = "valid: ";
        for (int i = 0; i < KEY_NB; i++) {
            size_t used = strlen(valid);
            snprintf(valid + used, sizeof valid - used, "%s%s", i ? ", " : "", KEY_NAMES[i]);
        }
        ini_unknown_key(&p->check, e, valid);
        return;
    }
    p->key_line[k] = e->line;
    set_value(p, (Key)k, e->value);
}

/* What needs several keys: the required ones, the split depth against the depth, the position
 * under the variant and rules. */
static void check_whole(Parser *p, const Ini *ini)
{
    PerftConfig *c = p->cfg;
    if (!ini_file_section(ini, "perft")) {
        ini_fail(&p->check, 0,
                 "no [perft] section (a perft job needs one, with position and depth)");
        return;
    }
    if (!p->key_line[KEY_POSITION]) {
        ini_fail(&p->check, 0,
                 "key 'position' is missing from [perft] (startpos, fen FEN or chess960 N)");
        return;
    }
    if (!p->key_line[KEY_DEPTH]) {
        ini_fail(&p->check, 0, "key 'depth' is missing from [perft] (a whole number from 1 to %d)",
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
    char err[ERRMSG_LEN];
    switch (c->position) {
    case CONFIG_STARTPOS:
        setup_start(&c->setup, c->variant);
        break;
    case CONFIG_FEN: {
        const char *fen = c->position_text + 3;
        fen += strspn(fen, " \t");
        if (setup_from_fen_rules(&c->setup, c->variant, &c->rules, fen, err, sizeof err) != 0)
            ini_fail(&p->check, line,
                     "bad value '%s' for position: bad FEN for %s under %s rules: %s",
                     c->position_text, c->variant->name, turn_rules_name(c->rules.turns), err);
        break;
    }
    case CONFIG_CHESS960:
        if (strcmp(c->variant->name, "chess960") != 0)
            ini_fail(
                &p->check, line,
                "bad value '%s' for position: chess960 N needs variant = chess960 (the variant "
                "is %s)",
                c->position_text, c->variant->name);
        else if (setup_chess960(&c->setup, c->variant, c->chess960, err, sizeof err) != 0)
            ini_fail(&p->check, line, "bad value '%s' for position: %s", c->position_text, err);
        break;
    }
}

/* The job in ini; on success *out takes over its name and text. */
static int from_ini(Ini *ini, PerftConfig *out, char *err, size_t errlen)
{
    *out = (PerftConfig){
        .variant = variant_by_name("chess"),
        .rules = { TURNS_SINGLE, EP_CLASSIC },
        .chess960 = -1,
        .split_depth = CONFIG_SPLIT_AUTO,
        .checkpoint_interval = 60,
    };
    Parser p = { .cfg = out };
    ini_check_start(&p.check, ini, err, errlen);
    for (int i = 0; i < ini->section_count; i++)
        if (strcmp(ini->sections[i].name, "perft") != 0)
            ini_unknown_section(&p.check, &ini->sections[i],
                                "a perft job has one section, [perft]");
    /* Keys of an unknown section are left alone: the error at its header comes before them. */
    for (int i = 0; i < ini->entry_count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (e->section[0] == '\0')
            ini_outside_section(&p.check, e, "perft");
        else if (strcmp(e->section, "perft") == 0)
            set_key(&p, e);
    }
    if (!p.check.failed)
        check_whole(&p, ini);
    if (p.check.failed) {
        *out = (PerftConfig){ 0 };
        return -1;
    }
    if (!out->output[0])
        ini_file_output_name(ini->name, "perft", ".h5", out->output, sizeof out->output);
    out->file = ini->name;
    out->text = ini->text;
    ini->name = ini->text = NULL;
    return 0;
}

int perft_config_parse(const char *text, const char *name, PerftConfig *out, char *err,
                       size_t errlen)
{
    *out = (PerftConfig){ 0 };
    Ini ini;
    if (ini_file_parse(text, name, &ini, err, errlen) != 0)
        return -1;
    int status = from_ini(&ini, out, err, errlen);
    ini_file_free(&ini);
    return status;
}

int perft_config_read(const char *path, PerftConfig *out, char *err, size_t errlen)
{
    *out = (PerftConfig){ 0 };
    Ini ini;
    if (ini_file_read(path, &ini, err, errlen) != 0)
        return -1;
    int status = from_ini(&ini, out, err, errlen);
    ini_file_free(&ini);
    return status;
}

void perft_config_free(PerftConfig *c)
{
    free(c->file);
    free(c->text);
    c->file = c->text = NULL;
}

void perft_config_summary(const PerftConfig *c, char *out, size_t outlen)
{
    char rules[96], split[32], threads[32], hash[32], seed[48], checkpoint[48];
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
    snprintf(seed, sizeof seed, "key seed %" PRIu64, c->key_seed);
    if (c->checkpoint_interval == 0)
        snprintf(checkpoint, sizeof checkpoint, "checkpoint after every unit");
    else
        snprintf(checkpoint, sizeof checkpoint, "checkpoint every %d s", c->checkpoint_interval);
    snprintf(out, outlen,
             "perft job, variant %s, position %s, depth %d, %s, split depth %s, threads %s, %s, "
             "%s, output %s, %s",
             c->variant->name, c->position_text, c->depth, rules, split, threads, hash, seed,
             c->output, checkpoint);
}
