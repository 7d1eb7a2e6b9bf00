/* SPDX-License-Identifier: MIT */
/* The `carrera check-config` command (check_config.h). */
#include "check_config.h"

#include <omp.h>
#include <string.h>

#include "cli_error.h"
#include "errmsg.h"
#include "perft_config.h"
#include "estimate.h"
#include "eval_config.h"
#include "search_config.h"
#include "ini_file.h"
#include "match_config.h"
#include "plan_print.h"

void check_config_usage(FILE *out)
{
    fputs("usage: carrera check-config FILE\n"
          "       carrera check-config --keys\n"
          "\n"
          "Reads the configuration FILE, a perft job (an INI file with a [perft] section) or a\n"
          "match or tune file (with a [match] section), and checks every key and value, the\n"
          "position under the variant and turn rules included, without running anything. Prints\n"
          "a one-line summary, or the first error with the file, line and key at fault (exit\n"
          "status 2). For the imbalance method of `carrera tune` it also prints the plan: the\n"
          "95% half-widths the planned games should give each value, contrast and ratio, and\n"
          "the weights that would give A, C and their contrasts the narrowest intervals.\n"
          "--keys lists every section and key these files may hold, with its meaning.\n",
          out);
}

/* Every key of every kind of configuration file, from the tables the files are read with. */
static int print_keys(void)
{
    const IniKeys *const sections[] = { &perft_config_keys, &match_config_keys, &player_config_keys,
                                        &tune_config_keys };
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++) {
        ini_keys_print(stdout, sections[i]);
        putchar('\n');
    }
    eval_config_print_keys(stdout);
    putchar('\n');
    search_config_print_keys(stdout);
    if (fflush(stdout) != 0 || ferror(stdout))
        return run_error(EXIT_FAILED, "cannot write the output");
    return EXIT_OK;
}

/* A tune file without [match], already read: the regression over recorded games. */
static int check_tune_sources(const char *path, const Ini *ini)
{
    TuneConfig t;
    char err[ERRMSG_LEN];
    if (tune_config_read_sources(ini, &t, err, sizeof err) != 0)
        return cli_error("%s", err);
    printf("%s: ok: tune regression over %d result file%s\n", path, t.n_sources,
           t.n_sources == 1 ? "" : "s");
    return EXIT_OK;
}

/* A match or tune file: its summary, its estimate and, for the imbalance method, its plan. */
static int check_match(const char *path)
{
    MatchConfig m;
    char err[ERRMSG_LEN];
    if (match_config_read(path, &m, err, sizeof err) != 0)
        return cli_error("%s", err);
    char tune[128] = "";
    if (m.tune.given && m.tune.method == TUNE_SPSA)
        snprintf(tune, sizeof tune, "; tune spsa over %d parameters, %d iterations",
                 m.tune.n_params, m.stages);
    else if (m.tune.given && m.tune.n_sweep)
        snprintf(tune, sizeof tune, "; tune %s, a sweep over %d node counts",
                 tune_method_name(m.tune.method), m.tune.n_sweep);
    else if (m.tune.given)
        snprintf(tune, sizeof tune, "; tune %s%s", tune_method_name(m.tune.method),
                 m.stages > 1 ? ", iterated" : "");
    char estimate[256];
    int threads = m.concurrency > 0 ? m.concurrency : omp_get_max_threads();
    estimate_match_text(&m, threads, estimate, sizeof estimate);
    printf("%s: ok: match %s vs %s, %s, %s turns, %d games%s%s%s; %s\n", m.file, m.players[0].name,
           m.players[1].name, m.variant->name, turn_rules_name(m.rules.turns), m.games,
           m.n_imbalances ? " over imbalances" : "", m.sprt ? ", with an SPRT" : "", tune,
           estimate);
    int status = EXIT_OK;
    if (m.n_imbalances && (!m.tune.given || m.tune.method == TUNE_IMBALANCE) &&
        plan_print(stdout, &m, err, sizeof err) != 0)
        status = cli_error("%s: the imbalances cannot give values: %s", m.file, err);
    match_config_free(&m);
    return status;
}

/* A perft job: its summary and its estimate. */
static int check_perft(const char *path)
{
    PerftConfig config;
    char err[ERRMSG_LEN];
    if (perft_config_read(path, &config, err, sizeof err) != 0)
        return cli_error("%s", err);
    char summary[CONFIG_PATH_MAX + 1024];
    perft_config_summary(&config, summary, sizeof summary);
    Position p;
    char estimate[768];
    position_from_setup(&p, &config.setup);
    const int threads = config.threads > 0 ? config.threads : omp_get_max_threads();
    /* timed with the job's table, as perft --estimate --hash does */
    estimate_perft_text(&p, &config.rules, config.depth, threads, (size_t)config.hash_mb << 20,
                        estimate, sizeof estimate);
    printf("%s: ok: %s; %s\n", config.file, summary, estimate);
    perft_config_free(&config);
    return EXIT_OK;
}

/* Checks the file as the kind of job its sections say. Returns the exit status. */
static int check_file(const char *path)
{
    char err[ERRMSG_LEN];
    Ini ini;
    if (ini_file_read(path, &ini, err, sizeof err) != 0)
        return cli_error("%s", err);
    int status;
    if (ini_file_section(&ini, "match"))
        status = check_match(path);
    else if (ini_file_section(&ini, "tune"))
        status = check_tune_sources(path, &ini);
    else
        status = check_perft(path);
    ini_file_free(&ini);
    if (status == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout)))
        return run_error(EXIT_FAILED, "cannot write the output");
    return status;
}

int check_config_command(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        check_config_usage(stdout);
        return EXIT_OK;
    }
    if (argc == 2 && strcmp(argv[1], "--keys") == 0)
        return print_keys();
    if (argc != 2)
        return cli_error("check-config needs one configuration FILE (see carrera check-config "
                         "--help)");
    return check_file(argv[1]);
}
