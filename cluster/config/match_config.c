/* SPDX-License-Identifier: MIT */
/* Reading match files (match_config.h): the [match] section's keys into a MatchConfig and each
 * player's section into a PlayerConfig, both through their tables of keys (ini_keys.h),
 * [playerN.eval] through eval_config, [playerN.search] through search_config, and the checks
 * that need the whole file (a player without a limit, UCI options for Carrera's engine, ...). */
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
#include "ini_keys.h"
#include "number.h"
#include "search_config.h"

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

static void read_variant(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    MatchConfig *cfg = target;
    cfg->variant = variant_by_name(e->value);
    if (!cfg->variant)
        ini_bad_value(c, e, k->must);
}

static void read_openings(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    MatchConfig *cfg = target;
    const char *v = e->value;
    if (strcmp(v, "startpos") == 0) {
        cfg->openings = OPENINGS_STARTPOS;
    } else if (strcmp(v, "random") == 0) {
        cfg->openings = OPENINGS_RANDOM;
    } else if (strncmp(v, "file ", 5) == 0 && v[5] && strlen(v + 5) < sizeof cfg->openings_file) {
        cfg->openings = OPENINGS_FILE;
        snprintf(cfg->openings_file, sizeof cfg->openings_file, "%s", v + 5);
    } else {
        ini_bad_value(c, e, k->must);
    }
}

/* sprt_elo0, sprt_elo1: an Elo difference, negative too. */
static void read_elo(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    double x;
    if (decimal(e->value, true, &x) && fabs(x) <= 1000)
        *(double *)ini_key_field(target, k) = x;
    else
        ini_bad_value(c, e, k->must);
}

/* sprt_alpha, sprt_beta: an error probability. */
static void read_probability(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    double x;
    if (decimal(e->value, false, &x) && x > 0 && x <= 0.5)
        *(double *)ini_key_field(target, k) = x;
    else
        ini_bad_value(c, e, k->must);
}

static void read_imbalances(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    MatchConfig *cfg = target;
    char list[512], why[256];
    snprintf(list, sizeof list, "%s", e->value);
    cfg->n_imbalances = 0;
    for (char *save = NULL, *t = strtok_r(list, ", \t", &save); t;
         t = strtok_r(NULL, ", \t", &save)) {
        if (cfg->n_imbalances == MATCH_MAX_IMBALANCES) {
            ini_fail(c, e->line, "more than %d imbalances", MATCH_MAX_IMBALANCES);
            return;
        }
        /* NAME*W: W times the games of the others (more pawn-odds games, say) */
        long weight = 1;
        char *star = strchr(t, '*');
        if (star) {
            *star = '\0';
            if (!number_parse(star + 1, 1, 100, &weight)) {
                ini_fail(c, e->line,
                         "bad value for imbalances: '%s*%s': the weight after * must be a whole "
                         "number from 1 to 100",
                         t, star + 1);
                return;
            }
        }
        cfg->weights[cfg->n_imbalances] = (int)weight;
        if (imbalance_parse(t, &cfg->imbalances[cfg->n_imbalances++], why, sizeof why) != 0) {
            ini_fail(c, e->line, "bad value for imbalances: %s", why);
            return;
        }
    }
    if (cfg->n_imbalances == 0)
        ini_bad_value(c, e, k->must);
}

static const IniKey MATCH_KEY_LIST[] = {
    INI_KEY_CALL(MatchConfig, "variant", variant, read_variant,
                 "a variant name (carrera --help lists them)", "the rule set (default chess)"),
    INI_KEY_CALL(MatchConfig, "turns", rules.turns, ini_read_turns,
                 "single, marseillais, marseillais-balanced, galvin, bennekom or extramove",
                 "the turn rules (default single)"),
    INI_KEY_CALL(MatchConfig, "ep_rule", rules.ep, ini_read_ep_rule, "classic or modern",
                 "en passant under double-move rules (default classic)"),
    INI_KEY_WHOLE(MatchConfig, "games", games, 1, MATCH_MAX_GAMES,
                  "games, rounded up to whole pairs (per imbalance with imbalances)"),
    INI_KEY_CALL(MatchConfig, "openings", openings, read_openings, "startpos, random or file PATH",
                 "startpos (default), random start arrays, or file PATH of FEN/EPD lines"),
    INI_KEY_WHOLE(MatchConfig, "random_plies", random_plies, 0, 100,
                  "random legal turns played after the opening position (default 0)"),
    INI_KEY_WHOLE(MatchConfig, "opening_balance", opening_balance, 0, 10000,
                  "centipawns: random turns drawn again until a search scores the opening "
                  "within this (default 0: any)"),
    INI_KEY_WHOLE(MatchConfig, "opening_nodes", opening_nodes, 1000, 100000000,
                  "the nodes of that search (default 20000)"),
    INI_KEY_WHOLE(MatchConfig, "seed", seed, 0, 2147483647L,
                  "the seed of everything drawn at random (default 1)"),
    INI_KEY_WHOLE(MatchConfig, "concurrency", concurrency, 0, 1024,
                  "games at once per process (default 0: one per core)"),
    INI_KEY_WHOLE(MatchConfig, "max_plies", adjudication.max_plies, 0, 100000,
                  "a game this long is drawn (default 500; 0: never)"),
    INI_KEY_WHOLE(MatchConfig, "resign_score", adjudication.resign_cp, 0, 100000,
                  "centipawns both players see one side ahead by (0: never resign) ..."),
    INI_KEY_WHOLE(MatchConfig, "resign_moves", adjudication.resign_moves, 0, 1000,
                  "... for this many turns of each side: that side wins"),
    INI_KEY_WHOLE(MatchConfig, "draw_score", adjudication.draw_cp, 0, 100000,
                  "centipawns both scores stay within (0: never adjudicate a draw) ..."),
    INI_KEY_WHOLE(MatchConfig, "draw_moves", adjudication.draw_moves, 0, 1000,
                  "... for this many turns of each side ..."),
    INI_KEY_WHOLE(MatchConfig, "draw_min_plies", adjudication.draw_min_plies, 0, 100000,
                  "... and not before this many turns: a draw"),
    INI_KEY_WHOLE(MatchConfig, "stall_factor", stall_factor, 1, 1000,
                  "an external engine silent this many times a turn's limit, and 5 s, has "
                  "stalled: it loses the game and is restarted (default 3)"),
    INI_KEY_CALL(MatchConfig, "sprt_elo0", sprt_elo0, read_elo,
                 "an Elo difference from -1000 to 1000", "an SPRT's null hypothesis in Elo"),
    INI_KEY_CALL(MatchConfig, "sprt_elo1", sprt_elo1, read_elo,
                 "an Elo difference from -1000 to 1000", "its alternative, above sprt_elo0"),
    INI_KEY_CALL(MatchConfig, "sprt_alpha", sprt_alpha, read_probability,
                 "a probability above 0, at most 0.5", "its false positive rate (default 0.05)"),
    INI_KEY_CALL(MatchConfig, "sprt_beta", sprt_beta, read_probability,
                 "a probability above 0, at most 0.5", "its false negative rate (default 0.05)"),
    INI_KEY_CALL(MatchConfig, "imbalances", imbalances, read_imbalances,
                 "a list of imbalances such as Q:A, A:RN, N:PPP, P*2",
                 "material odds for player 1, NAME*W for W times the games (Q:A, N:PPP, P*2)"),
    INI_KEY_TEXT(MatchConfig, "output", output, "a file name",
                 "the HDF5 result file (default: the file's name with .h5)"),
    INI_KEY_TEXT(MatchConfig, "pgn", pgn, "a file name",
                 "the PGN of every game (default: the file's name with .pgn)"),
};

const IniKeys match_config_keys = { "[match]", "a match (carrera match, carrera tune)",
                                    MATCH_KEY_LIST,
                                    sizeof MATCH_KEY_LIST / sizeof *MATCH_KEY_LIST };

static void read_name(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    PlayerConfig *p = target;
    const char *v = e->value;
    if (v[0] == '\0' || strlen(v) >= sizeof p->name || strpbrk(v, "\"\\"))
        ini_bad_value(c, e, k->must);
    else
        snprintf(p->name, sizeof p->name, "%s", v);
}

static void read_tc(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    if (!time_control(e->value, ini_key_field(target, k)))
        ini_bad_value(c, e, k->must);
}

static bool is_option(const char *key) { return strncmp(key, "option.", 7) == 0 && key[7]; }

static void read_option(void *target, const IniKey *k, const IniEntry *e, IniCheck *c)
{
    PlayerConfig *p = target;
    const char *name = e->key + 7;
    if (p->n_options == PLAYER_MAX_OPTIONS) {
        ini_fail(c, e->line, "more than %d options for one player", PLAYER_MAX_OPTIONS);
    } else if (strlen(name) >= sizeof p->options[0].name ||
               strlen(e->value) >= sizeof p->options[0].value) {
        ini_bad_value(c, e, k->must);
    } else {
        PlayerOption *o = &p->options[p->n_options++];
        snprintf(o->name, sizeof o->name, "%s", name);
        snprintf(o->value, sizeof o->value, "%s", e->value);
    }
}

static const IniWord ENGINES[] = {
    { "carrera", PLAYER_CARRERA }, { "uci", PLAYER_UCI }, { "xboard", PLAYER_XBOARD }, { 0 }
};

static const IniKey PLAYER_KEY_LIST[] = {
    INI_KEY_CALL(PlayerConfig, "name", name, read_name,
                 "a name of 1 to 63 characters without quotes or backslashes",
                 "the player's name in the PGN and the summary (default: the section's)"),
    INI_KEY_WORD(PlayerConfig, "engine", kind, ENGINES,
                 "carrera (default: Carrera's engine), uci or xboard (an external engine speaking "
                 "that protocol)"),
    INI_KEY_TEXT(PlayerConfig, "command", command, "a program and its arguments",
                 "engine = uci or xboard: the program and its arguments, split at blanks"),
    INI_KEY_WHOLE(PlayerConfig, "nodes", limits.nodes, 1, 2000000000L, "nodes per turn"),
    INI_KEY_WHOLE(PlayerConfig, "depth", limits.depth, 1, MAX_PLY - 1, "depth per turn"),
    INI_KEY_WHOLE(PlayerConfig, "movetime", limits.movetime_ms, 1, 86400000,
                  "milliseconds per turn"),
    INI_KEY_CALL(PlayerConfig, "tc", limits, read_tc, "BASE+INC in seconds, e.g. 60+0.6",
                 "a clock for the game: BASE+INC in seconds"),
    INI_KEY_WHOLE(PlayerConfig, "hash", hash_mb, 1, 65536,
                  "the transposition table in megabytes (Hash of a UCI engine, memory of xboard)"),
    INI_KEY_WHOLE(PlayerConfig, "cores", cores, 1, 1024,
                  "engine = xboard: the engine's threads, sent with cores (it must offer smp=1)"),
    INI_KEY_WHOLE(PlayerConfig, "threads", threads, 1, SEARCH_THREADS_MAX,
                  "engine = carrera: the search's threads over one shared table (default 1)"),
    INI_KEY_FAMILY(PlayerConfig, "option.NAME", options, is_option, read_option,
                   "an option value of at most 255 characters (names at most 63)",
                   "engine = uci: the UCI option NAME, sent with setoption; engine = xboard: "
                   "option NAME=VALUE, NAME one of the engine's option features"),
};

const IniKeys player_config_keys = { "[player1], [player2]", "the players of a match",
                                     PLAYER_KEY_LIST,
                                     sizeof PLAYER_KEY_LIST / sizeof *PLAYER_KEY_LIST };

/* What the xboard protocol cannot say: double-move turns, limits finer than its whole seconds,
 * and a node limit (nps, which turns the engine's clock into nodes) beside a clock. */
static void check_xboard_player(IniCheck *check, const MatchConfig *c, const PlayerConfig *p,
                                const Ini *ini, const char *section)
{
    const PlayerLimits *l = &p->limits;
    if (c->rules.turns != TURNS_SINGLE)
        ini_fail(check, ini_file_line(ini, "match", "turns"),
                 "[%s] is an xboard engine, but turns = %s: the xboard protocol has no "
                 "double-move turns (use engine = uci)",
                 section, turn_rules_name(c->rules.turns));
    if (l->movetime_ms % 1000)
        ini_fail(check, ini_file_line(ini, section, "movetime"),
                 "[%s] is an xboard engine: movetime must be whole seconds (st takes seconds)",
                 section);
    if (l->base_ms % 1000 || l->inc_ms % 1000)
        ini_fail(check, ini_file_line(ini, section, "tc"),
                 "[%s] is an xboard engine: tc must be whole seconds (level takes seconds)",
                 section);
    if (l->nodes && (l->movetime_ms || l->base_ms))
        ini_fail(check, ini_file_line(ini, section, "nodes"),
                 "[%s] is an xboard engine: nodes (sent as st and nps, which counts time in "
                 "nodes) cannot go with movetime or tc",
                 section);
}

static void check_player(IniCheck *check, MatchConfig *c, const Ini *ini, int index)
{
    PlayerConfig *p = &c->players[index];
    char section[24], eval_section[32], search_section[32];
    snprintf(section, sizeof section, "player%d", index + 1);
    snprintf(eval_section, sizeof eval_section, "player%d.eval", index + 1);
    snprintf(search_section, sizeof search_section, "player%d.search", index + 1);
    const IniSection *head = ini_file_section(ini, section);
    if (!head) {
        ini_fail(check, 0, "no [%s] section: a match needs [player1] and [player2]", section);
        return;
    }
    if (!p->name[0])
        snprintf(p->name, sizeof p->name, "%s", section);
    const PlayerLimits *l = &p->limits;
    if (!l->nodes && !l->depth && !l->movetime_ms && !l->base_ms)
        ini_fail(check, head->line, "[%s] has no limit: give nodes, depth, movetime or tc",
                 section);
    if (l->base_ms && l->movetime_ms)
        ini_fail(check, ini_file_line(ini, section, "movetime"),
                 "[%s] has both tc and movetime: choose one", section);
    const IniSection *eval = ini_file_section(ini, eval_section);
    const IniSection *search = ini_file_section(ini, search_section);
    const char *protocol = p->kind == PLAYER_UCI ? "UCI" : "xboard";
    if (p->cores && p->kind != PLAYER_XBOARD)
        ini_fail(check, ini_file_line(ini, section, "cores"),
                 "[%s]: cores is for engine = xboard (a UCI engine has option.Threads)", section);
    if (p->threads && p->kind != PLAYER_CARRERA)
        ini_fail(check, ini_file_line(ini, section, "threads"),
                 "[%s]: threads is for engine = carrera (a UCI engine has option.Threads, an "
                 "xboard engine cores)",
                 section);
    /* every player has both, which the match hands to its games (an external engine ignores
     * them) */
    eval_defaults(&p->eval);
    search_params_default(&p->search);
    if (p->kind == PLAYER_XBOARD)
        check_xboard_player(check, c, p, ini, section);
    if (p->kind != PLAYER_CARRERA) {
        if (!p->command[0])
            ini_fail(check, head->line, "[%s] is a%s %s engine without a command", section,
                     p->kind == PLAYER_UCI ? "" : "n", protocol);
        if (eval)
            ini_fail(check, eval->line,
                     "[%s] sets Carrera's evaluation, but [%s] is a%s %s engine (use option.NAME)",
                     eval_section, section, p->kind == PLAYER_UCI ? "" : "n", protocol);
        if (search)
            ini_fail(check, search->line,
                     "[%s] sets Carrera's search, but [%s] is a%s %s engine (use option.NAME)",
                     search_section, section, p->kind == PLAYER_UCI ? "" : "n", protocol);
    } else {
        if (p->command[0])
            ini_fail(check, ini_file_line(ini, section, "command"),
                     "[%s] plays Carrera's engine: command is for engine = uci or xboard", section);
        if (p->n_options)
            ini_fail(check, head->line,
                     "[%s] plays Carrera's engine: option.NAME is for engine = uci or xboard (use "
                     "[%s] or [%s])",
                     section, eval_section, search_section);
        eval_config_check(ini, eval_section, &p->eval, check);
        search_config_check(ini, search_section, &p->search, check);
    }
}

/* An SPRT, when any of its keys is given: both hypotheses, in order, and the error rates or
 * their defaults. Errors go to the line of its first key. */
static void check_sprt(IniCheck *check, MatchConfig *c, const Ini *ini)
{
    const int sprt[4] = { ini_file_line(ini, "match", "sprt_elo0"),
                          ini_file_line(ini, "match", "sprt_elo1"),
                          ini_file_line(ini, "match", "sprt_alpha"),
                          ini_file_line(ini, "match", "sprt_beta") };
    int line = 0;
    for (int i = 0; i < 4; i++)
        if (sprt[i] && (!line || sprt[i] < line))
            line = sprt[i];
    if (!line)
        return;
    if (!sprt[0] || !sprt[1])
        ini_fail(check, line, "an SPRT needs both sprt_elo0 and sprt_elo1");
    if (!sprt[2])
        c->sprt_alpha = 0.05;
    if (!sprt[3])
        c->sprt_beta = 0.05;
    if (c->sprt_elo0 >= c->sprt_elo1 && sprt[0] && sprt[1])
        ini_fail(check, line, "sprt_elo0 must be below sprt_elo1");
    c->sprt = true;
}

static void check_whole(IniCheck *check, MatchConfig *c, const Ini *ini)
{
    if (!ini_file_section(ini, "match"))
        ini_fail(check, 0, "no [match] section");
    TuneConfig *t = &c->tune;
    if (t->given)
        tune_config_check(t, check, ini);
    int games_line = ini_file_line(ini, "match", "games");
    int imbalances_line = ini_file_line(ini, "match", "imbalances");
    uint64_t total;
    if (t->given && t->method == TUNE_SPSA) {
        if (games_line)
            ini_fail(
                check, games_line,
                "method = spsa plays iterations x pairs_per_iteration game pairs: remove games");
        if (imbalances_line)
            ini_fail(check, imbalances_line, "method = spsa plays no imbalances");
        c->stages = t->iterations;
        c->pairs_per_stage = (uint64_t)t->pairs_per_iteration;
    } else {
        if (!games_line)
            ini_fail(check,
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
        ini_fail(check, games_line ? games_line : imbalances_line,
                 "%" PRIu64 " games in all (iterations, imbalances and their weights): more than "
                 "%d",
                 total, MATCH_MAX_GAMES);
    c->games = (int)(total > MATCH_MAX_GAMES ? MATCH_MAX_GAMES : total);
    if (t->given && t->method == TUNE_IMBALANCE && !c->n_imbalances)
        ini_fail(check, ini_file_section(ini, "tune")->line,
                 "method = imbalance needs imbalances = ... in [match] (e.g. Q:A, N:PPP, P*2)");
    if (t->given && t->method == TUNE_REGRESSION && t->n_sources)
        ini_fail(check, ini_file_line(ini, "tune", "games"),
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
                ini_fail(check, imbalances_line, "%s", why);
        }
    }
    if (c->openings == OPENINGS_RANDOM && !c->variant->random_array)
        ini_fail(
            check, ini_file_line(ini, "match", "openings"),
            "openings = random needs a variant with random start arrays (chess960, caparandom)");
    int balance_line = ini_file_line(ini, "match", "opening_balance");
    if (c->opening_balance && c->random_plies == 0)
        ini_fail(check, balance_line,
                 "opening_balance draws an opening's random turns again until it is balanced: "
                 "it needs random_plies > 0");
    if (c->opening_balance && c->n_imbalances)
        ini_fail(check, balance_line,
                 "opening_balance would undo the imbalances' material odds: use one or the other");
    check_sprt(check, c, ini);
    c->castle960 = c->variant->castle960;
    for (int i = 0; i < 2; i++) {
        check_player(check, c, ini, i);
        if (t->given && (t->method == TUNE_SPSA || c->stages > 1) &&
            c->players[i].kind != PLAYER_CARRERA)
            ini_fail(check, ini_file_line(ini, i ? "player2" : "player1", "engine"),
                     "method = %s%s changes the players' evaluation: both must be Carrera's engine",
                     tune_method_name(t->method), t->method == TUNE_SPSA ? "" : " with iterations");
    }
    for (int i = 0; i < 2 && t->n_sweep; i++) {
        const PlayerLimits *l = &c->players[i].limits;
        if (!l->nodes || l->depth || l->movetime_ms || l->base_ms)
            ini_fail(check, ini_file_line(ini, "tune", "nodes"),
                     "nodes = ... in [tune] sets the nodes per turn of each stage: [%s] must be "
                     "limited by nodes alone (its nodes are replaced)",
                     i ? "player2" : "player1");
    }
    if (t->given && t->method == TUNE_SPSA) {
        const EngineParams start = { c->players[0].eval, c->players[0].search };
        tune_params_complete(t, &start);
    }
}

static int from_ini(Ini *ini, MatchConfig *out, char *err, size_t errlen)
{
    *out = (MatchConfig){
        .variant = variant_by_name("chess"),
        .rules = { TURNS_SINGLE, EP_CLASSIC },
        .openings = OPENINGS_STARTPOS,
        .seed = 1,
        .opening_nodes = MATCH_OPENING_NODES,
        .adjudication = { .max_plies = 500 },
        .stall_factor = 3,
    };
    tune_config_defaults(&out->tune);
    IniCheck check;
    ini_check_start(&check, ini, err, errlen);
    static const char *const known[] = { "match",          "player1",      "player2",
                                         "player1.eval",   "player2.eval", "player1.search",
                                         "player2.search", "tune" };
    for (int i = 0; i < ini->section_count; i++) {
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            ok = ok || strcmp(ini->sections[i].name, known[k]) == 0;
        if (!ok)
            ini_unknown_section(&check, &ini->sections[i],
                                "a match has [match], [player1], [player2], [player1.eval], "
                                "[player2.eval], [player1.search], [player2.search] and, to "
                                "tune, [tune]");
    }
    for (int i = 0; i < ini->entry_count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (e->section[0] == '\0')
            ini_outside_section(&check, e, "match");
        else if (strcmp(e->section, "match") == 0)
            ini_keys_read(&match_config_keys, out, e, &check);
        else if (strcmp(e->section, "player1") == 0)
            ini_keys_read(&player_config_keys, &out->players[0], e, &check);
        else if (strcmp(e->section, "player2") == 0)
            ini_keys_read(&player_config_keys, &out->players[1], e, &check);
        else if (strcmp(e->section, "tune") == 0)
            tune_config_key(&out->tune, &check, e);
    }
    if (!check.failed)
        check_whole(&check, out, ini);
    if (check.failed) {
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
