/* SPDX-License-Identifier: MIT */
/* Reading perft job files (perft_config.h): the entries of the INI file (ini_file.h) checked
 * against the one section, [perft], and read through its table of keys (ini_keys.h), then the
 * checks that need several keys. The first error in the file is the one reported. */
#include "perft_config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "ini_file.h"
#include "ini_keys.h"
#include "number.h"
#include "variant.h"

/* The variant's name, with the list of every name when it is none. */
static void read_variant(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    PerftConfig *cfg = target;
    (void)k;
    cfg->variant = variant_by_name(e->value);
    if (cfg->variant)
        return;
    char must[512] = "one of ";
    int count;
    const Variant *const *all = variant_all(&count);
    for (int i = 0; i < count; i++) {
        size_t used = strlen(must);
        snprintf(must + used, sizeof must - used, "%s%s", i ? ", " : "", all[i]->name);
    }
    ini_bad_value(c, e, must);
}

/* startpos, fen FEN or chess960 N; the FEN is read once the variant and rules are known. */
static void read_position(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    PerftConfig *cfg = target;
    const char *value = e->value;
    if (strlen(value) >= sizeof cfg->position_text) {
        ini_bad_value(c, e, "startpos, fen FEN or chess960 N (this is too long)");
        return;
    }
    strcpy(cfg->position_text, value);
    const char *arg = value + strcspn(value, " \t");
    size_t word = (size_t)(arg - value);
    arg += strspn(arg, " \t");
    if (word == 8 && strncmp(value, "startpos", 8) == 0 && *arg == '\0') {
        cfg->position = CONFIG_STARTPOS;
    } else if (word == 3 && strncmp(value, "fen", 3) == 0 && *arg != '\0') {
        cfg->position = CONFIG_FEN;
    } else if (word == 8 && strncmp(value, "chess960", 8) == 0) {
        long n;
        if (!number_parse(arg, 0, 959, &n)) {
            ini_bad_value(
                c, e, "chess960 N with N a whole number from 0 to 959 (518 is the standard array)");
            return;
        }
        cfg->position = CONFIG_CHESS960;
        cfg->chess960 = (int)n;
    } else {
        ini_bad_value(c, e, k->must);
    }
}

static void read_split_depth(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    PerftConfig *cfg = target;
    long v;
    (void)k;
    if (strcmp(e->value, "auto") == 0) {
        cfg->split_depth = CONFIG_SPLIT_AUTO;
    } else if (number_parse(e->value, 1, CONFIG_MAX_DEPTH, &v)) {
        cfg->split_depth = (int)v;
    } else {
        char must[96];
        snprintf(must, sizeof must, "auto or a whole number from 1 to %d", CONFIG_MAX_DEPTH);
        ini_bad_value(c, e, must);
    }
}

/* auto (the default given as auto_value) or a whole number from lo to hi, into an int. */
static void read_auto_or_whole(const IniEntry *e, IniCheck *c, int *out, int auto_value, long lo,
                               long hi)
{
    long v;
    if (strcmp(e->value, "auto") == 0) {
        *out = auto_value;
    } else if (number_parse(e->value, lo, hi, &v)) {
        *out = (int)v;
    } else {
        char must[96];
        snprintf(must, sizeof must, "auto or a whole number from %ld to %ld", lo, hi);
        ini_bad_value(c, e, must);
    }
}

static void read_shared_depth(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    (void)k;
    read_auto_or_whole(e, c, &((PerftConfig *)target)->shared_depth, CONFIG_SHARED_DEPTH_AUTO, 2,
                       CONFIG_MAX_DEPTH);
}

static void read_shared_mb(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    (void)k;
    read_auto_or_whole(e, c, &((PerftConfig *)target)->shared_mb, CONFIG_SHARED_MB_AUTO, 0,
                       CONFIG_MAX_HASH_MB);
}

static const IniWord ON_OFF[] = { { "on", 1 }, { "off", 0 }, { NULL, 0 } };

static const IniKey PERFT_KEY_LIST[] = {
    INI_KEY_CALL(PerftConfig, "variant", variant, read_variant, NULL,
                 "the rule set (default chess; carrera --help lists them)"),
    INI_KEY_CALL(PerftConfig, "position", position, read_position,
                 "startpos, fen FEN or chess960 N", "startpos, fen FEN or chess960 N (required)"),
    INI_KEY_WHOLE(PerftConfig, "depth", depth, 1, CONFIG_MAX_DEPTH,
                  "plies (complete turns under double-move rules; required)"),
    INI_KEY_CALL(PerftConfig, "turns", rules.turns, ini_read_turns,
                 "one of single, marseillais, marseillais-balanced, galvin, bennekom, extramove",
                 "the turn rules (default single)"),
    INI_KEY_CALL(PerftConfig, "ep_rule", rules.ep, ini_read_ep_rule, "classic or modern",
                 "en passant under double-move rules: classic (default) or modern"),
    INI_KEY_CALL(PerftConfig, "split_depth", split_depth, read_split_depth, NULL,
                 "turns from the root to the work units, or auto (default)"),
    INI_KEY_WHOLE(PerftConfig, "threads", threads, 0, CONFIG_MAX_THREADS,
                  "threads per rank (default 0: OMP_NUM_THREADS, else every core)"),
    INI_KEY_WHOLE(PerftConfig, "hash_mb", hash_mb, 0, CONFIG_MAX_HASH_MB,
                  "transposition table per rank in megabytes (default 0: none)"),
    INI_KEY_WORD(PerftConfig, "shared_table", shared_table, ON_OFF,
                 "on (default) or off: the deep counts in one table over all ranks, when there "
                 "are several and a table"),
    INI_KEY_CALL(PerftConfig, "shared_depth", shared_depth, read_shared_depth, NULL,
                 "the least depth a count must have to be shared, or auto (default: measured)"),
    INI_KEY_CALL(PerftConfig, "shared_mb", shared_mb, read_shared_mb, NULL,
                 "megabytes of hash_mb per rank for the shared table, or auto (default: a "
                 "quarter)"),
    INI_KEY_WHOLE(PerftConfig, "key_seed", key_seed, 0, LONG_MAX,
                  "the seed of the Zobrist hash keys (default 0)"),
    INI_KEY_TEXT(PerftConfig, "output", output, "a file name",
                 "the HDF5 result file (default: the file's name with .h5)"),
    INI_KEY_WHOLE(PerftConfig, "checkpoint_interval", checkpoint_interval, 0, CONFIG_MAX_CHECKPOINT,
                  "seconds between checkpoint flushes (default 60; 0: after every unit)"),
};

const IniKeys perft_config_keys = { "[perft]", "a perft job (carrera perft --config FILE)",
                                    PERFT_KEY_LIST,
                                    sizeof PERFT_KEY_LIST / sizeof *PERFT_KEY_LIST };

/* What needs several keys: the required ones, the split depth against the depth, the position
 * under the variant and rules. */
static void check_whole(IniCheck *check, PerftConfig *c, const Ini *ini)
{
    if (!ini_file_section(ini, "perft")) {
        ini_fail(check, 0, "no [perft] section (a perft job needs one, with position and depth)");
        return;
    }
    const int line = ini_file_line(ini, "perft", "position");
    if (!line) {
        ini_fail(check, 0,
                 "key 'position' is missing from [perft] (startpos, fen FEN or chess960 N)");
        return;
    }
    if (!ini_file_line(ini, "perft", "depth")) {
        ini_fail(check, 0, "key 'depth' is missing from [perft] (a whole number from 1 to %d)",
                 CONFIG_MAX_DEPTH);
        return;
    }
    if (c->split_depth > c->depth) {
        ini_fail(check, ini_file_line(ini, "perft", "split_depth"),
                 "bad value '%d' for split_depth: must be auto or a whole number from 1 to the "
                 "depth (%d)",
                 c->split_depth, c->depth);
        return;
    }
    if (c->shared_mb != CONFIG_SHARED_MB_AUTO && c->shared_mb >= c->hash_mb && c->hash_mb > 0) {
        ini_fail(check, ini_file_line(ini, "perft", "shared_mb"),
                 "bad value '%d' for shared_mb: must be auto or less than hash_mb (%d), which "
                 "it is taken out of",
                 c->shared_mb, c->hash_mb);
        return;
    }
    char err[ERRMSG_LEN];
    switch (c->position) {
    case CONFIG_STARTPOS:
        setup_start(&c->setup, c->variant);
        break;
    case CONFIG_FEN: {
        const char *fen = c->position_text + 3;
        fen += strspn(fen, " \t");
        if (setup_from_fen_rules(&c->setup, c->variant, &c->rules, fen, err, sizeof err) != 0)
            ini_fail(check, line, "bad value '%s' for position: bad FEN for %s under %s rules: %s",
                     c->position_text, c->variant->name, turn_rules_name(c->rules.turns), err);
        break;
    }
    case CONFIG_CHESS960:
        if (strcmp(c->variant->name, "chess960") != 0)
            ini_fail(check, line,
                     "bad value '%s' for position: chess960 N needs variant = chess960 (the "
                     "variant is %s)",
                     c->position_text, c->variant->name);
        else if (setup_chess960(&c->setup, c->variant, c->chess960, err, sizeof err) != 0)
            ini_fail(check, line, "bad value '%s' for position: %s", c->position_text, err);
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
        .shared_table = 1,
        .shared_depth = CONFIG_SHARED_DEPTH_AUTO,
        .shared_mb = CONFIG_SHARED_MB_AUTO,
        .checkpoint_interval = 60,
    };
    IniCheck check;
    ini_check_start(&check, ini, err, errlen);
    for (int i = 0; i < ini->section_count; i++)
        if (strcmp(ini->sections[i].name, "perft") != 0)
            ini_unknown_section(&check, &ini->sections[i], "a perft job has one section, [perft]");
    /* Keys of an unknown section are left alone: the error at its header comes before them. */
    for (int i = 0; i < ini->entry_count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (e->section[0] == '\0')
            ini_outside_section(&check, e, "perft");
        else if (strcmp(e->section, "perft") == 0)
            ini_keys_read(&perft_config_keys, out, e, &check);
    }
    if (!check.failed)
        check_whole(&check, out, ini);
    if (check.failed) {
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
    char rules[96], split[32], threads[32], hash[160], seed[48], checkpoint[48];
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
    char depth[32] = "auto", part[48] = "auto: a quarter, on one node more";
    if (c->shared_depth != CONFIG_SHARED_DEPTH_AUTO)
        snprintf(depth, sizeof depth, "%d", c->shared_depth);
    if (c->shared_mb != CONFIG_SHARED_MB_AUTO)
        snprintf(part, sizeof part, "%d MB of it", c->shared_mb);
    if (c->hash_mb == 0)
        snprintf(hash, sizeof hash, "no hash table");
    else if (!c->shared_table)
        snprintf(hash, sizeof hash, "hash %d MB, shared table off", c->hash_mb);
    else
        snprintf(hash, sizeof hash,
                 "hash %d MB, shared table on over several ranks (%s, depth %s and more)",
                 c->hash_mb, part, depth);
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
