/* SPDX-License-Identifier: MIT */
/* `carrera tune` (tune_command.h): a tune file with [match] plays it (match/match_run.h); one
 * without runs the regression over the games of earlier result files. */
#define _POSIX_C_SOURCE 200809L

#include "tune_command.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli_error.h"
#include "errmsg.h"
#include "tune_file.h"
#include "ini_file.h"
#include "match_command.h"
#include "paths.h"
#include "provenance.h"
#include "match_games.h"
#include "tune.h"

/* The [tune] of a file without [match], read into *t, and the result file it writes into output:
 * out, or the file's name with .h5, which must not exist. Returns 0, or the exit status of the
 * usage error (reported). */
static int validate_sources(const Ini *ini, const char *out, TuneConfig *t, char *output,
                            size_t outlen)
{
    char err[ERRMSG_LEN];
    if (tune_config_read_sources(ini, t, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (out)
        snprintf(output, outlen, "%s", out);
    else
        ini_file_output_name(ini->name, "tune", ".h5", output, outlen);
    /* refused before the work, as an existing output of perft or match is */
    if (access(output, F_OK) == 0)
        return cli_error("%s already exists: remove it to fit again, or choose another --out",
                         output);
    return EXIT_OK;
}

/* The regression over the games of cfg's sources: its values printed, the result file written
 * to output. Returns the exit status. */
static int regress_sources(const Ini *ini, MatchConfig *cfg, const char *output)
{
    const char *sources[TUNE_MAX_SOURCES];
    for (int i = 0; i < cfg->tune.n_sources; i++)
        sources[i] = cfg->tune.sources[i];
    Tuner t = { .cfg = cfg };
    match_games_regress(&t, sources, (size_t)cfg->tune.n_sources, cfg->tune.skip_plies);
    if (!t.regression.read)
        return cli_error("%s", t.regression.reason);
    tuner_print(stdout, &t);
    fflush(stdout);
    Provenance prov;
    provenance_init(&prov, 1, 1, NULL, 0, ini->text);
    char err[ERRMSG_LEN];
    if (make_parent_dirs(output, err, sizeof err) != 0 ||
        tune_file_create(output, &prov, &t, sources, cfg->tune.n_sources, err, sizeof err) != 0)
        return run_error(EXIT_FAILED, "%s", err);
    fprintf(stderr, "result: %s\n", output);
    return t.regression.ok ? EXIT_OK : EXIT_NEGATIVE;
}

/* When the tune file at path has no [match] section, runs it (its values printed, the result
 * file written to out, or the file's name with .h5) and returns the exit status with *handled
 * set; otherwise returns 0 with *handled false (a file that plays a match). */
static int regression_over_files(const char *path, const char *out, bool *handled)
{
    *handled = false;
    char err[ERRMSG_LEN];
    Ini ini;
    if (ini_file_read(path, &ini, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (ini_file_section(&ini, "match")) {
        ini_file_free(&ini);
        return EXIT_OK;
    }
    *handled = true;
    /* a tuner over a match of no games: only its configuration and regression are used */
    MatchConfig cfg = { 0 };
    char output[CONFIG_PATH_MAX];
    int status = validate_sources(&ini, out, &cfg.tune, output, sizeof output);
    if (status == EXIT_OK)
        status = regress_sources(&ini, &cfg, output);
    ini_file_free(&ini);
    return status;
}

void tune_usage(FILE *out)
{
    fputs("usage: carrera tune --config FILE.ini [--out RESULT.h5] [--pgn GAMES.pgn]\n"
          "                    [--resume | --continue] [--quiet]\n"
          "\n"
          "Piece values from self-play. FILE.ini is a match file (as carrera match plays it: MPI,\n"
          "PGN, result file, resume) with a [tune] section choosing the method:\n"
          "  imbalance   material-odds matches (`imbalances = Q:A, N:PPP, P*2` in [match]), one\n"
          "              least-squares fit of all of them: each piece's value in pawns with its\n"
          "              95% interval; `iterations = K` plays again with the values measured\n"
          "              until they agree with the values played\n"
          "  spsa        SPSA over evaluation and search parameters (`params = ...`,\n"
          "              fishtest's schedule), `iterations` x `pairs_per_iteration` game\n"
          "              pairs, theta recorded\n"
          "  regression  ordered logit of results on material over the match's games, or over\n"
          "              earlier result files (`games = A.h5, B.h5`, a file with only [tune])\n"
          "Everything goes to the result file's /tune group (README \"Tune files\");\n"
          "scripts/plot-tuning draws it.\n",
          out);
}

int tune_command(int argc, char **argv)
{
    MatchRequest r;
    int status;
    if (match_command_read(argc, argv, tune_usage, &r, &status) != 0)
        return status;
    bool handled;
    status = regression_over_files(r.config, r.out, &handled);
    if (handled || status)
        return status;
    r.tune = true;
    return match_run(&r);
}
