/* SPDX-License-Identifier: MIT */
/* The option parser and the position/rules options of the commands. */
#include "options.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_error.h"
#include "errmsg.h"
#include "number.h"
#include "variant.h"

/* Whether arg is the option name, alone or as `name=value`; sets *inline_value for the latter. */
static bool is_option(const char *arg, const char *name, const char **inline_value)
{
    size_t len = strlen(name);
    if (strncmp(arg, name, len) != 0)
        return false;
    if (arg[len] == '\0') {
        *inline_value = NULL;
        return true;
    }
    if (arg[len] == '=') {
        *inline_value = arg + len + 1;
        return true;
    }
    return false;
}

int options_parse(int argc, char **argv, const char *command, const Option *options)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
            return 1;
        const Option *o = options;
        while (o->name && !is_option(arg, o->name, &value))
            o++;
        if (!o->name) {
            cli_error("%s '%s' for %s (see carrera %s --help)",
                      arg[0] == '-' ? "unknown option" : "unexpected argument", arg, command,
                      command);
            return -1;
        }
        if (o->flag) {
            if (value) {
                cli_error("option %s takes no value", o->name);
                return -1;
            }
            if (*o->flag) {
                cli_error("option %s given twice", o->name);
                return -1;
            }
            *o->flag = true;
            continue;
        }
        if (!value) {
            if (i + 1 >= argc) {
                cli_error("option %s needs a value", o->name);
                return -1;
            }
            value = argv[++i];
        }
        if (*o->value) {
            cli_error("option %s given twice", o->name);
            return -1;
        }
        *o->value = value;
    }
    return 0;
}

/* The variant names in message form: "chess, chess960, ...". */
static void variant_names(char *out, size_t outlen)
{
    int count;
    const Variant *const *all = variant_all(&count);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < count && used < outlen; i++)
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i ? ", " : "", all[i]->name);
}

int options_rules(const PositionArgs *a, const Variant **variant, Rules *r)
{
    const Variant *v = variant_by_name(a->variant ? a->variant : "chess");
    if (!v) {
        char names[512];
        variant_names(names, sizeof names);
        cli_error("unknown variant '%s' (valid: %s)", a->variant, names);
        return -1;
    }
    *variant = v;
    *r = (Rules){ TURNS_SINGLE, EP_CLASSIC };
    if (a->turns && !turn_rules_parse(a->turns, &r->turns)) {
        cli_error("unknown turn rules '%s' (valid: single, marseillais, marseillais-balanced, "
                  "galvin, bennekom, extramove)",
                  a->turns);
        return -1;
    }
    if (a->ep_rule && !ep_rule_parse(a->ep_rule, &r->ep)) {
        cli_error("unknown en passant rule '%s' (valid: classic, modern)", a->ep_rule);
        return -1;
    }
    return 0;
}

int options_position(const PositionArgs *a, const char *command, Setup *s, Rules *r)
{
    const Variant *v;
    if (options_rules(a, &v, r) != 0)
        return -1;
    int sources = a->startpos + (a->fen != NULL) + (a->chess960 != NULL) + (a->random != NULL);
    if (sources == 0) {
        cli_error("%s needs a position: --startpos, --fen FEN, --chess960 N or --random SEED",
                  command);
        return -1;
    }
    if (sources > 1) {
        cli_error("give only one of --startpos, --fen, --chess960 and --random");
        return -1;
    }
    char err[ERRMSG_LEN];
    if (a->startpos) {
        setup_start(s, v);
    } else if (a->fen) {
        if (setup_from_fen_rules(s, v, r, a->fen, err, sizeof err) != 0) {
            cli_error("bad FEN for %s under %s rules: %s", v->name, turn_rules_name(r->turns), err);
            return -1;
        }
    } else if (a->random) {
        if (!v->random_array) {
            cli_error("--random needs a variant with random start arrays (chess960, caparandom), "
                      "not %s",
                      v->name);
            return -1;
        }
        long seed;
        if (!number_parse(a->random, 0, LONG_MAX, &seed)) {
            cli_error("bad seed '%s': must be a whole number", a->random);
            return -1;
        }
        setup_random(s, v, (uint64_t)seed);
        char fen[FEN_MAX];
        setup_to_fen(s, FEN_CASTLING_SHREDDER, fen, sizeof fen);
        fprintf(stderr, "%s: random start array of seed %ld: %s\n", command, seed, fen);
    } else {
        long number;
        if (strcmp(v->name, "chess960") != 0) {
            cli_error("--chess960 needs --variant chess960 (the variant is %s)", v->name);
            return -1;
        }
        if (!number_parse(a->chess960, 0, 959, &number)) {
            cli_error("bad Chess960 number '%s': must be a whole number from 0 to 959",
                      a->chess960);
            return -1;
        }
        if (setup_chess960(s, v, (int)number, err, sizeof err) != 0) {
            cli_error("%s", err);
            return -1;
        }
    }
    return 0;
}

char *options_command_line(int argc, char **argv)
{
    size_t len = sizeof "carrera";
    for (int i = 0; i < argc; i++)
        len += 4 * strlen(argv[i]) + 3;
    char *line = malloc(len), *at = line;
    if (!line)
        return NULL;
    at += sprintf(at, "carrera");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool quote = *a == '\0' || strpbrk(a, " \t\n'\"\\$`*?;&|<>()[]{}~#") != NULL;
        *at++ = ' ';
        if (quote)
            *at++ = '\'';
        for (; *a; a++) {
            if (quote && *a == '\'') {
                memcpy(at, "'\\''", 4);
                at += 4;
            } else {
                *at++ = *a;
            }
        }
        if (quote)
            *at++ = '\'';
    }
    *at = '\0';
    return line;
}
