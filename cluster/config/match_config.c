/* SPDX-License-Identifier: MIT */
/* Reading match files (match_config.h): the [match] section's keys into a MatchConfig, each
 * player's section into a PlayerConfig, [playerN.eval] through eval_config, and the checks that
 * need the whole file (a player without a limit, UCI options for Carrera's engine, ...). */
#define _POSIX_C_SOURCE 200809L /* strtok_r */

#include "match_config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "eval_config.h"
#include "ini_file.h"
#include "number.h"

typedef struct Reader {
    IniCheck check;
    MatchConfig *cfg;
    int sprt_line; /* of the first sprt_ key, 0 without one */
    bool sprt_given[4];
} Reader;

static void bad(Reader *r, const IniEntry *e, const char *must)
{
    ini_fail(&r->check, e->line, "bad value '%s' for %s: must be %s", e->value, e->key, must);
}

static void whole(Reader *r, const IniEntry *e, long min, long max, int *out)
{
    long v;
    if (number_parse(e->value, min, max, &v)) {
        *out = (int)v;
        return;
    }
    char must[96];
    snprintf(must, sizeof must, "a whole number from %ld to %ld", min, max);
    bad(r, e, must);
}

/* A decimal number (no exponent, no sign unless allowed) into *out. */
static bool decimal(const char *text, bool negative_ok, double *out)
{
    const char *c = text;
    if (*c == '-' && negative_ok)
        c++;
    bool digits = false, dot = false;
    for (; *c; c++) {
        if (*c >= '0' && *c <= '9')
            digits = true;
        else if (*c == '.' && !dot)
            dot = true;
        else
            return false;
    }
    if (!digits)
        return false;
    *out = strtod(text, NULL);
    return isfinite(*out);
}

/* "BASE+INC" in seconds, "60+0.6": a clock. */
static bool time_control(const char *text, PlayerLimits *l)
{
    const char *plus = strchr(text, '+');
    if (!plus || plus == text)
        return false;
    char base[64];
    size_t len = (size_t)(plus - text);
    if (len >= sizeof base)
        return false;
    memcpy(base, text, len);
    base[len] = '\0';
    double b, inc;
    if (!decimal(base, false, &b) || !decimal(plus + 1, false, &inc) || b <= 0 || b > 1e6 ||
        inc > 1e5)
        return false;
    l->base_ms = (int64_t)llround(b * 1000.0);
    l->inc_ms = (int64_t)llround(inc * 1000.0);
    return l->base_ms > 0;
}

static void match_key(Reader *r, const IniEntry *e)
{
    MatchConfig *c = r->cfg;
    const char *k = e->key, *v = e->value;
    if (strcmp(k, "variant") == 0) {
        c->variant = variant_by_name(v);
        if (!c->variant)
            bad(r, e, "a variant name (carrera --help lists them)");
    } else if (strcmp(k, "turns") == 0) {
        if (!turn_rules_parse(v, &c->rules.turns))
            bad(r, e, "single, marseillais, marseillais-balanced, galvin, bennekom or extramove");
    } else if (strcmp(k, "ep_rule") == 0) {
        if (!ep_rule_parse(v, &c->rules.ep))
            bad(r, e, "classic or modern");
    } else if (strcmp(k, "games") == 0) {
        whole(r, e, 1, MATCH_MAX_GAMES, &c->games);
    } else if (strcmp(k, "openings") == 0) {
        if (strcmp(v, "startpos") == 0)
            c->openings = OPENINGS_STARTPOS;
        else if (strcmp(v, "random") == 0)
            c->openings = OPENINGS_RANDOM;
        else if (strncmp(v, "file ", 5) == 0 && v[5] && strlen(v + 5) < sizeof c->openings_file) {
            c->openings = OPENINGS_FILE;
            snprintf(c->openings_file, sizeof c->openings_file, "%s", v + 5);
        } else
            bad(r, e, "startpos, random or file PATH");
    } else if (strcmp(k, "random_plies") == 0) {
        whole(r, e, 0, 100, &c->random_plies);
    } else if (strcmp(k, "seed") == 0) {
        long s;
        if (number_parse(v, 0, 2147483647L, &s))
            c->seed = (uint64_t)s;
        else
            bad(r, e, "a whole number from 0 to 2147483647");
    } else if (strcmp(k, "concurrency") == 0) {
        whole(r, e, 0, 1024, &c->concurrency);
    } else if (strcmp(k, "max_plies") == 0) {
        whole(r, e, 0, 100000, &c->adjudication.max_plies);
    } else if (strcmp(k, "resign_score") == 0) {
        whole(r, e, 0, 100000, &c->adjudication.resign_cp);
    } else if (strcmp(k, "resign_moves") == 0) {
        whole(r, e, 0, 1000, &c->adjudication.resign_moves);
    } else if (strcmp(k, "draw_score") == 0) {
        whole(r, e, 0, 100000, &c->adjudication.draw_cp);
    } else if (strcmp(k, "draw_moves") == 0) {
        whole(r, e, 0, 1000, &c->adjudication.draw_moves);
    } else if (strcmp(k, "draw_min_plies") == 0) {
        whole(r, e, 0, 100000, &c->adjudication.draw_min_plies);
    } else if (strncmp(k, "sprt_", 5) == 0) {
        static const char *const names[4] = { "sprt_elo0", "sprt_elo1", "sprt_alpha", "sprt_beta" };
        double *fields[4] = { &c->sprt_elo0, &c->sprt_elo1, &c->sprt_alpha, &c->sprt_beta };
        int i = 0;
        while (i < 4 && strcmp(k, names[i]) != 0)
            i++;
        if (i == 4) {
            ini_unknown_key(&r->check, e,
                            "the SPRT keys are sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta");
            return;
        }
        double x;
        bool elo = i < 2;
        if (!decimal(v, elo, &x) || (elo ? fabs(x) > 1000 : x <= 0 || x > 0.5))
            bad(r, e,
                elo ? "an Elo difference from -1000 to 1000"
                    : "a probability above 0, at most 0.5");
        else
            *fields[i] = x;
        r->sprt_given[i] = true;
        if (!r->sprt_line)
            r->sprt_line = e->line;
    } else if (strcmp(k, "imbalances") == 0) {
        char list[512], why[256];
        snprintf(list, sizeof list, "%s", v);
        c->n_imbalances = 0;
        for (char *save = NULL, *t = strtok_r(list, ", \t", &save); t;
             t = strtok_r(NULL, ", \t", &save)) {
            if (c->n_imbalances == MATCH_MAX_IMBALANCES) {
                ini_fail(&r->check, e->line, "more than %d imbalances", MATCH_MAX_IMBALANCES);
                return;
            }
            /* NAME*W: W times the games of the others (more pawn-odds games, say) */
            long weight = 1;
            char *star = strchr(t, '*');
            if (star) {
                *star = '\0';
                if (!number_parse(star + 1, 1, 100, &weight)) {
                    ini_fail(&r->check, e->line,
                             "bad value for imbalances: '%s*%s': the weight after * must be a "
                             "whole number from 1 to 100",
                             t, star + 1);
                    return;
                }
            }
            c->weights[c->n_imbalances] = (int)weight;
            if (imbalance_parse(t, &c->imbalances[c->n_imbalances++], why, sizeof why) != 0) {
                ini_fail(&r->check, e->line, "bad value for imbalances: %s", why);
                return;
            }
        }
        if (c->n_imbalances == 0)
            bad(r, e, "a list of imbalances such as Q:A, A:RN, N:PPP, P*2");
    } else if (strcmp(k, "output") == 0 || strcmp(k, "pgn") == 0) {
        char *dst = k[0] == 'o' ? c->output : c->pgn;
        if (v[0] == '\0' || strlen(v) >= CONFIG_PATH_MAX)
            bad(r, e, "a file name");
        else
            snprintf(dst, CONFIG_PATH_MAX, "%s", v);
    } else {
        ini_unknown_key(&r->check, e,
                        "[match] takes variant, turns, ep_rule, games, openings, random_plies, "
                        "seed, concurrency, max_plies, resign_score, resign_moves, draw_score, "
                        "draw_moves, draw_min_plies, sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta, "
                        "imbalances, output, pgn");
    }
}

static void player_key(Reader *r, PlayerConfig *p, const IniEntry *e)
{
    const char *k = e->key, *v = e->value;
    if (strcmp(k, "name") == 0) {
        if (v[0] == '\0' || strlen(v) >= sizeof p->name || strpbrk(v, "\"\\"))
            bad(r, e, "a name of 1 to 63 characters without quotes or backslashes");
        else
            snprintf(p->name, sizeof p->name, "%s", v);
    } else if (strcmp(k, "engine") == 0) {
        if (strcmp(v, "carrera") == 0)
            p->kind = PLAYER_CARRERA;
        else if (strcmp(v, "uci") == 0)
            p->kind = PLAYER_UCI;
        else
            bad(r, e, "carrera or uci");
    } else if (strcmp(k, "command") == 0) {
        if (v[0] == '\0' || strlen(v) >= sizeof p->command)
            bad(r, e, "a program and its arguments");
        else
            snprintf(p->command, sizeof p->command, "%s", v);
    } else if (strcmp(k, "nodes") == 0) {
        long n;
        if (number_parse(v, 1, 2000000000L, &n))
            p->limits.nodes = (uint64_t)n;
        else
            bad(r, e, "a whole number from 1 to 2000000000");
    } else if (strcmp(k, "depth") == 0) {
        whole(r, e, 1, MAX_PLY - 1, &p->limits.depth);
    } else if (strcmp(k, "movetime") == 0) {
        int ms = 0;
        whole(r, e, 1, 86400000, &ms);
        p->limits.movetime_ms = ms;
    } else if (strcmp(k, "tc") == 0) {
        if (!time_control(v, &p->limits))
            bad(r, e, "BASE+INC in seconds, e.g. 60+0.6");
    } else if (strcmp(k, "hash") == 0) {
        whole(r, e, 1, 65536, &p->hash_mb);
    } else if (strncmp(k, "option.", 7) == 0 && k[7]) {
        if (p->n_options == PLAYER_MAX_OPTIONS) {
            ini_fail(&r->check, e->line, "more than %d options for one player", PLAYER_MAX_OPTIONS);
        } else if (strlen(k + 7) >= sizeof p->options[0].name ||
                   strlen(v) >= sizeof p->options[0].value) {
            bad(r, e, "an option value of at most 255 characters (names at most 63)");
        } else {
            PlayerOption *o = &p->options[p->n_options++];
            snprintf(o->name, sizeof o->name, "%s", k + 7);
            snprintf(o->value, sizeof o->value, "%s", v);
        }
    } else {
        ini_unknown_key(&r->check, e,
                        "a player takes name, engine, command, nodes, depth, movetime, tc, hash "
                        "and option.NAME");
    }
}

/* The line of key in section, 0 when absent. */
static int line_of(const Ini *ini, const char *section, const char *key)
{
    for (int i = 0; i < ini->entry_count; i++)
        if (strcmp(ini->entries[i].section, section) == 0 && strcmp(ini->entries[i].key, key) == 0)
            return ini->entries[i].line;
    return 0;
}

static void check_player(Reader *r, const Ini *ini, int index)
{
    PlayerConfig *p = &r->cfg->players[index];
    char section[24], eval_section[32];
    snprintf(section, sizeof section, "player%d", index + 1);
    snprintf(eval_section, sizeof eval_section, "player%d.eval", index + 1);
    const IniSection *head = ini_file_section(ini, section);
    if (!head) {
        ini_fail(&r->check, 0, "no [%s] section: a match needs [player1] and [player2]", section);
        return;
    }
    if (!p->name[0])
        snprintf(p->name, sizeof p->name, "%s", section);
    const PlayerLimits *l = &p->limits;
    if (!l->nodes && !l->depth && !l->movetime_ms && !l->base_ms)
        ini_fail(&r->check, head->line, "[%s] has no limit: give nodes, depth, movetime or tc",
                 section);
    if (l->base_ms && l->movetime_ms)
        ini_fail(&r->check, line_of(ini, section, "movetime"),
                 "[%s] has both tc and movetime: choose one", section);
    const IniSection *eval = ini_file_section(ini, eval_section);
    if (p->kind == PLAYER_UCI) {
        if (!p->command[0])
            ini_fail(&r->check, head->line, "[%s] is a UCI engine without a command", section);
        if (eval)
            ini_fail(&r->check, eval->line,
                     "[%s] sets Carrera's evaluation, but [%s] is a UCI engine (use option.NAME)",
                     eval_section, section);
    } else {
        if (p->command[0])
            ini_fail(&r->check, line_of(ini, section, "command"),
                     "[%s] plays Carrera's engine: command is for engine = uci", section);
        if (p->n_options)
            ini_fail(&r->check, head->line,
                     "[%s] plays Carrera's engine: option.NAME is for engine = uci (use [%s])",
                     section, eval_section);
        eval_defaults(&p->eval);
        eval_config_check(ini, eval_section, &p->eval, &r->check);
    }
}

static void check_whole(Reader *r, const Ini *ini)
{
    MatchConfig *c = r->cfg;
    if (!ini_file_section(ini, "match"))
        ini_fail(&r->check, 0, "no [match] section");
    TuneConfig *t = &c->tune;
    if (t->given)
        tune_config_check(t, &r->check, ini);
    int games_line = line_of(ini, "match", "games");
    int imbalances_line = line_of(ini, "match", "imbalances");
    uint64_t total;
    if (t->given && t->method == TUNE_SPSA) {
        if (games_line)
            ini_fail(
                &r->check, games_line,
                "method = spsa plays iterations x pairs_per_iteration game pairs: remove games");
        if (imbalances_line)
            ini_fail(&r->check, imbalances_line, "method = spsa plays no imbalances");
        c->stages = t->iterations;
        c->pairs_per_stage = (uint64_t)t->pairs_per_iteration;
    } else {
        if (!games_line)
            ini_fail(&r->check,
                     ini_file_section(ini, "match") ? ini_file_section(ini, "match")->line : 0,
                     "[match] needs games = N");
        if (c->games % 2)
            c->games++; /* whole pairs: every opening with both colours */
        uint64_t weights = 0;
        for (int i = 0; i < c->n_imbalances; i++)
            weights += (uint64_t)c->weights[i];
        c->stages = !t->given || t->method != TUNE_IMBALANCE ? 1
                    : t->n_sweep                             ? t->n_sweep
                                                             : t->iterations;
        c->pairs_per_stage = (uint64_t)c->games / 2 * (weights ? weights : 1);
    }
    total = 2 * c->pairs_per_stage * (uint64_t)c->stages;
    if (total > MATCH_MAX_GAMES)
        ini_fail(&r->check, games_line ? games_line : imbalances_line,
                 "%" PRIu64 " games in all (iterations, imbalances and their weights): more than "
                 "%d",
                 total, MATCH_MAX_GAMES);
    c->games = (int)(total > MATCH_MAX_GAMES ? MATCH_MAX_GAMES : total);
    if (t->given && t->method == TUNE_IMBALANCE && !c->n_imbalances)
        ini_fail(&r->check, ini_file_section(ini, "tune")->line,
                 "method = imbalance needs imbalances = ... in [match] (e.g. Q:A, N:PPP, P*2)");
    if (t->given && t->method == TUNE_REGRESSION && t->n_sources)
        ini_fail(&r->check, line_of(ini, "tune", "games"),
                 "games = FILES reads recorded games and plays none: a file with it has only "
                 "[tune]");
    if (c->n_imbalances > 0) {
        /* each must fit the variant's armies: tried on its start array */
        for (int i = 0; i < c->n_imbalances; i++) {
            Setup s;
            setup_start(&s, c->variant);
            Rng rng = rng_new(1);
            char why[ERRMSG_LEN];
            if (imbalance_apply(&c->imbalances[i], &s, BLACK, &rng, why, sizeof why) != 0)
                ini_fail(&r->check, imbalances_line, "%s", why);
        }
    }
    if (c->openings == OPENINGS_RANDOM && !c->variant->random_array)
        ini_fail(
            &r->check, line_of(ini, "match", "openings"),
            "openings = random needs a variant with random start arrays (chess960, caparandom)");
    if (r->sprt_line) {
        for (int i = 0; i < 2; i++)
            if (!r->sprt_given[i])
                ini_fail(&r->check, r->sprt_line, "an SPRT needs both sprt_elo0 and sprt_elo1");
        if (!r->sprt_given[2])
            c->sprt_alpha = 0.05;
        if (!r->sprt_given[3])
            c->sprt_beta = 0.05;
        if (c->sprt_elo0 >= c->sprt_elo1 && r->sprt_given[0] && r->sprt_given[1])
            ini_fail(&r->check, r->sprt_line, "sprt_elo0 must be below sprt_elo1");
        c->sprt = true;
    }
    c->castle960 = c->variant->castle960;
    for (int i = 0; i < 2; i++) {
        check_player(r, ini, i);
        if (t->given && (t->method == TUNE_SPSA || c->stages > 1) &&
            c->players[i].kind != PLAYER_CARRERA)
            ini_fail(&r->check, line_of(ini, i ? "player2" : "player1", "engine"),
                     "method = %s%s changes the players' evaluation: both must be Carrera's engine",
                     tune_method_name(t->method), t->method == TUNE_SPSA ? "" : " with iterations");
    }
    for (int i = 0; i < 2 && t->n_sweep; i++) {
        const PlayerLimits *l = &c->players[i].limits;
        if (!l->nodes || l->depth || l->movetime_ms || l->base_ms)
            ini_fail(&r->check, line_of(ini, "tune", "nodes"),
                     "nodes = ... in [tune] sets the nodes per turn of each stage: [%s] must be "
                     "limited by nodes alone (its nodes are replaced)",
                     i ? "player2" : "player1");
    }
    if (t->given && t->method == TUNE_SPSA)
        tune_params_complete(t, &c->players[0].eval);
}

static int from_ini(Ini *ini, MatchConfig *out, char *err, size_t errlen)
{
    *out = (MatchConfig){
        .variant = variant_by_name("chess"),
        .rules = { TURNS_SINGLE, EP_CLASSIC },
        .openings = OPENINGS_STARTPOS,
        .seed = 1,
        .adjudication = { .max_plies = 500 },
    };
    tune_config_defaults(&out->tune);
    Reader r = { .cfg = out };
    ini_check_start(&r.check, ini, err, errlen);
    static const char *const known[] = { "match",        "player1",      "player2",
                                         "player1.eval", "player2.eval", "tune" };
    for (int i = 0; i < ini->section_count; i++) {
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            ok = ok || strcmp(ini->sections[i].name, known[k]) == 0;
        if (!ok)
            ini_unknown_section(&r.check, &ini->sections[i],
                                "a match has [match], [player1], [player2], [player1.eval], "
                                "[player2.eval] and, to tune, [tune]");
    }
    for (int i = 0; i < ini->entry_count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (e->section[0] == '\0')
            ini_outside_section(&r.check, e, "match");
        else if (strcmp(e->section, "match") == 0)
            match_key(&r, e);
        else if (strcmp(e->section, "player1") == 0)
            player_key(&r, &out->players[0], e);
        else if (strcmp(e->section, "player2") == 0)
            player_key(&r, &out->players[1], e);
        else if (strcmp(e->section, "tune") == 0)
            tune_config_key(&out->tune, &r.check, e);
    }
    if (!r.check.failed)
        check_whole(&r, ini);
    if (r.check.failed) {
        *out = (MatchConfig){ 0 };
        return -1;
    }
    if (!out->output[0])
        ini_file_output_name(ini->name, "match", ".h5", out->output, sizeof out->output);
    if (!out->pgn[0])
        ini_file_output_name(ini->name, "match", ".pgn", out->pgn, sizeof out->pgn);
    out->file = ini->name;
    out->text = ini->text;
    ini->name = ini->text = NULL;
    return 0;
}

/* The match of an INI just read (status: the reading's), the INI freed. */
static int from_read(int status, Ini *ini, MatchConfig *out, char *err, size_t errlen)
{
    *out = (MatchConfig){ 0 };
    if (status != 0)
        return -1;
    status = from_ini(ini, out, err, errlen);
    ini_file_free(ini);
    return status;
}

int match_config_read(const char *path, MatchConfig *out, char *err, size_t errlen)
{
    Ini ini;
    return from_read(ini_file_read(path, &ini, err, errlen), &ini, out, err, errlen);
}

int match_config_parse(const char *text, const char *name, MatchConfig *out, char *err,
                       size_t errlen)
{
    Ini ini;
    return from_read(ini_file_parse(text, name, &ini, err, errlen), &ini, out, err, errlen);
}

void match_config_free(MatchConfig *c)
{
    free(c->file);
    free(c->text);
    *c = (MatchConfig){ 0 };
}

int match_imbalance_of(const MatchConfig *c, uint64_t pair)
{
    if (!c->n_imbalances)
        return -1;
    uint64_t q = pair % c->pairs_per_stage;
    for (int i = 0; i < c->n_imbalances; i++) {
        uint64_t n = match_imbalance_pairs(c, i);
        if (q < n)
            return i;
        q -= n;
    }
    return c->n_imbalances - 1;
}

uint64_t match_imbalance_pairs(const MatchConfig *c, int i)
{
    uint64_t weights = 0;
    for (int k = 0; k < c->n_imbalances; k++)
        weights += (uint64_t)c->weights[k];
    return c->pairs_per_stage / weights * (uint64_t)c->weights[i];
}
