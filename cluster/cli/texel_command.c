/* SPDX-License-Identifier: MIT */
/* `carrera texel-data`, `carrera texel-label` and `carrera texel-fit` (texel_command.h): the
 * options parsed and validated into a request, the texel layer called with it. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "texel_command.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli_error.h"
#include "eval_config.h"
#include "number.h"
#include "options.h"
#include "texel_extract.h"
#include "texel_label.h"
#include "texel_tune.h"

#define SKIP_PLIES_DEFAULT 16
#define ITERATIONS_DEFAULT 3000
#define RATE_DEFAULT       0.5
#define PATIENCE_DEFAULT   200
#define VALID_DEFAULT      20
#define GO_DEFAULT         "nodes 5000"
#define JOBS_DEFAULT       1
#define HASH_DEFAULT       16
#define SCALE_DEFAULT      400.0

void texel_data_usage(FILE *out)
{
    fprintf(out,
            "usage: carrera texel-data RESULT.h5... --out DATA.tsv [--skip-plies N] [--quiet]\n"
            "\n"
            "The data set of Texel's method (docs/texel.md): every game of the match result\n"
            "files replayed, each position before a turn past the opening, not in check,\n"
            "resolved to its quiet leaf (a quiescence search of captures and promotions with\n"
            "the default evaluation) and written with the game's result; games lost by a\n"
            "player's fault give none. The file starts with the record of how it was made:\n"
            "this build, the command, and every source's variant, rules, games, players and\n"
            "the build that played them. Files of any variant and rule set may be mixed.\n"
            "\n"
            "  --out FILE        the data file (written complete or not at all)\n"
            "  --skip-plies N    turns at the start of each game left out (default %d)\n"
            "  --quiet           no progress on stderr\n"
            "\n"
            "Exit status: 0 written, 2 a usage error or a file that cannot be read, 3 the data\n"
            "file could not be written.\n",
            SKIP_PLIES_DEFAULT);
}

void texel_fit_usage(FILE *out)
{
    fprintf(out,
            "usage: carrera texel-fit DATA.tsv --out EVAL.ini [--eval START.ini]\n"
            "                         [--params NAME,...] [--iterations N] [--rate R]\n"
            "                         [--patience N] [--validation PERCENT] [--seed S] [--quiet]\n"
            "\n"
            "Texel's method (docs/texel.md): the evaluation's parameters fitted to the results\n"
            "of a data file of carrera texel-data, minimising the mean squared error between\n"
            "each game's result and sigmoid(K eval / 400), sigmoid(x) = 1 / (1 + 10^-x). K is\n"
            "fitted first at the start parameters, then the parameters by Adam on the exact\n"
            "gradient of the evaluation's linear form, within their ranges, until the training\n"
            "error stops falling; a share of the pairs of games is held out to show whether\n"
            "the fit holds beyond its games. Prints the errors before and after (evaluate()\n"
            "itself) and writes an [eval] file for\n"
            "carrera uci --eval, bench --eval and match files, headed by its record.\n"
            "\n"
            "  --out FILE          the [eval] file written\n"
            "  --eval FILE         the start (default: the built-in defaults)\n"
            "  --params LIST       only these parameters, by name, comma-separated (default: all)\n"
            "  --iterations N      Adam steps at most (default %d)\n"
            "  --rate R            Adam's step in centipawns (default %g)\n"
            "  --patience N        converged when the training error fell by less than\n"
            "                      1e-5 of itself over N steps (default %d)\n"
            "  --validation PCT    pairs of games held out, 1 to 90 (default %d)\n"
            "  --seed S            of that split (default 1)\n"
            "  --quiet             no progress on stderr\n"
            "\n"
            "Exit status: 0 written, 2 a usage error, a data file that cannot be read or no\n"
            "positions, 3 out of memory or the output could not be written.\n",
            ITERATIONS_DEFAULT, RATE_DEFAULT, PATIENCE_DEFAULT, VALID_DEFAULT);
}

void texel_label_usage(FILE *out)
{
    fprintf(out,
            "usage: carrera texel-label DATA.tsv --engine COMMAND --out LABELLED.tsv\n"
            "                           [--go LIMIT] [--jobs N] [--hash MB] [--scale CP]\n"
            "                           [--weight W] [--quiet]\n"
            "\n"
            "The positions of a data file of carrera texel-data labelled again by a UCI\n"
            "engine's search (docs/texel.md): each position searched from a new game, its\n"
            "score turned into White's expectation 1 / (1 + 10^(-score / CP)) (a mate: 1 or\n"
            "0), mixed with the game's result as W * result + (1 - W) * expectation. A game's\n"
            "result labels all its positions alike, and between unequal players says who\n"
            "played more than what a position is worth; a stronger engine's search labels\n"
            "each position by itself. The output is a data file for carrera texel-fit,\n"
            "headed by the source's record and this run's (engine, limit, scale, weight).\n"
            "\n"
            "  --engine COMMAND  the UCI engine (a command line, split at white space), told\n"
            "                    each row's variant (UCI_Variant, UCI_Chess960) and, other\n"
            "                    than single, its turn rules (TurnRules)\n"
            "  --out FILE        the labelled data file (written complete or not at all)\n"
            "  --go LIMIT        the search's limit as `go` takes it (default \"%s\")\n"
            "  --jobs N          engines searching at once, 1 to 256 (default %d)\n"
            "  --hash MB         the engine's Hash, 0 for its default (default %d)\n"
            "  --scale CP        centipawns for a 10:1 expectation (default %g)\n"
            "  --weight W        the game result's share of the label, 0 to 1 (default 0)\n"
            "  --quiet           no progress on stderr\n"
            "\n"
            "Exit status: 0 written, 2 a usage error, a data file that cannot be read or an\n"
            "engine that fails, 3 out of memory or the output could not be written.\n",
            GO_DEFAULT, JOBS_DEFAULT, HASH_DEFAULT, SCALE_DEFAULT);
}

/* Splits argv into the positional arguments (files) and the options (opts, argv[0] first),
 * knowing which options take a value. */
static void split_args(int argc, char **argv, const Option *options, char **opts, int *n_opts,
                       const char **files, size_t *n_files)
{
    *n_opts = 0;
    *n_files = 0;
    opts[(*n_opts)++] = argv[0];
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-') {
            files[(*n_files)++] = argv[i];
            continue;
        }
        opts[(*n_opts)++] = argv[i];
        for (const Option *o = options; o->name; o++)
            if (o->value && strcmp(o->name, argv[i]) == 0 && i + 1 < argc)
                opts[(*n_opts)++] = argv[++i];
    }
}

/* The front end shared by both: argv split and parsed, then run(files, n, argc, argv) with the
 * options filled. */
typedef int (*TexelRun)(const char **files, size_t n, int argc, char **argv, void *ctx);

static int front_end(int argc, char **argv, const char *command, const Option *options,
                     void (*usage)(FILE *), TexelRun run, void *ctx)
{
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    char **opts = calloc((size_t)argc + 1, sizeof *opts);
    int status;
    if (!files || !opts) {
        status = run_error(EXIT_FAILED, "out of memory");
    } else {
        int n_opts;
        size_t n_files;
        split_args(argc, argv, options, opts, &n_opts, files, &n_files);
        int parsed = options_parse(n_opts, opts, command, options);
        if (parsed > 0) {
            usage(stdout);
            status = EXIT_OK;
        } else if (parsed < 0) {
            status = EXIT_USAGE;
        } else {
            status = run(files, n_files, argc, argv, ctx);
        }
    }
    free(files);
    free(opts);
    return status;
}

/* *out from text: a number in [min, max]; false when it is none. */
static bool real_parse(const char *text, double min, double max, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v >= min && v <= max))
        return false;
    *out = v;
    return true;
}

/* ---- texel-data ---------------------------------------------------------------------------- */

typedef struct DataArgs {
    const char *out, *skip;
    bool quiet;
} DataArgs;

static int run_data(const char **files, size_t n, int argc, char **argv, void *ctx)
{
    const DataArgs *a = ctx;
    long skip = SKIP_PLIES_DEFAULT;
    if (n == 0)
        return cli_error("texel-data needs one or more match result files (see carrera "
                         "texel-data --help)");
    if (!a->out || !a->out[0])
        return cli_error("texel-data needs --out FILE, the data file to write");
    if (a->skip && !number_parse(a->skip, 0, 10000, &skip))
        return cli_error("--skip-plies must be a whole number from 0 to 10000, not '%s'", a->skip);
    char *line = options_command_line(argc, argv);
    if (!line)
        return run_error(EXIT_FAILED, "out of memory");
    TexelExtractRequest r = { .paths = files,
                              .n_paths = n,
                              .out = a->out,
                              .skip_plies = (int)skip,
                              .quiet = a->quiet,
                              .command_line = line };
    int status = texel_extract_run(&r);
    free(line);
    return status;
}

int texel_data_command(int argc, char **argv)
{
    DataArgs a = { 0 };
    const Option options[] = { { "--out", &a.out, NULL },
                               { "--skip-plies", &a.skip, NULL },
                               { "--quiet", NULL, &a.quiet },
                               { NULL, NULL, NULL } };
    return front_end(argc, argv, "texel-data", options, texel_data_usage, run_data, &a);
}

/* ---- texel-fit ----------------------------------------------------------------------------- */

typedef struct FitArgs {
    const char *out, *eval, *params, *iterations, *rate, *patience, *validation, *seed;
    bool quiet;
} FitArgs;

/* Marks the parameters of the comma-separated list names in fit. Returns 0, or the usage error's
 * status. */
static int select_params(const char *names, bool *fit, int n)
{
    if (!names) {
        for (int j = 0; j < n; j++)
            fit[j] = true;
        return EXIT_OK;
    }
    int count;
    const EvalParamInfo *first = eval_param_list(&count);
    for (const char *s = names; *s;) {
        size_t len = strcspn(s, ",");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, s);
        const EvalParamInfo *info = eval_param_find(name);
        if (!info)
            return cli_error("--params: unknown evaluation parameter '%s' (carrera uci lists "
                             "them)",
                             name);
        fit[info - first] = true;
        s += len + (s[len] == ',');
    }
    return EXIT_OK;
}

static int run_fit(const char **files, size_t n, int argc, char **argv, void *ctx)
{
    const FitArgs *a = ctx;
    long iterations = ITERATIONS_DEFAULT, patience = PATIENCE_DEFAULT, valid = VALID_DEFAULT;
    long seed = 1;
    double rate = RATE_DEFAULT;
    if (n != 1)
        return cli_error("texel-fit needs one data file of carrera texel-data, not %zu (see "
                         "carrera texel-fit --help)",
                         n);
    if (!a->out || !a->out[0])
        return cli_error("texel-fit needs --out FILE, the [eval] file to write");
    if (a->iterations && !number_parse(a->iterations, 1, 1000000, &iterations))
        return cli_error("--iterations must be a whole number from 1 to 1000000, not '%s'",
                         a->iterations);
    if (a->patience && !number_parse(a->patience, 1, 1000000, &patience))
        return cli_error("--patience must be a whole number from 1 to 1000000, not '%s'",
                         a->patience);
    if (a->validation && !number_parse(a->validation, 1, 90, &valid))
        return cli_error("--validation must be a whole number from 1 to 90, not '%s'",
                         a->validation);
    if (a->seed && !number_parse(a->seed, 0, LONG_MAX, &seed))
        return cli_error("--seed must be a whole number, not '%s'", a->seed);
    if (a->rate && (!real_parse(a->rate, 0, 1000, &rate) || rate == 0))
        return cli_error("--rate must be a number above 0 and at most 1000, not '%s'", a->rate);
    TexelTuneRequest r = { .data = files[0],
                           .out = a->out,
                           .eval_file = a->eval,
                           .iterations = (int)iterations,
                           .patience = (int)patience,
                           .rate = rate,
                           .valid_percent = (int)valid,
                           .seed = (uint64_t)seed,
                           .quiet = a->quiet };
    eval_defaults(&r.start);
    char err[512];
    if (a->eval && eval_config_read(a->eval, &r.start, err, sizeof err) != 0)
        return cli_error("%s", err);
    int count;
    eval_param_list(&count);
    bool *fit = calloc((size_t)count, sizeof *fit);
    char *line = options_command_line(argc, argv);
    int status = !fit || !line ? run_error(EXIT_FAILED, "out of memory")
                               : select_params(a->params, fit, count);
    if (status == EXIT_OK) {
        r.fit = fit;
        r.command_line = line;
        status = texel_tune_run(&r);
    }
    free(fit);
    free(line);
    return status;
}

int texel_fit_command(int argc, char **argv)
{
    FitArgs a = { 0 };
    const Option options[] = { { "--out", &a.out, NULL },
                               { "--eval", &a.eval, NULL },
                               { "--params", &a.params, NULL },
                               { "--iterations", &a.iterations, NULL },
                               { "--rate", &a.rate, NULL },
                               { "--patience", &a.patience, NULL },
                               { "--validation", &a.validation, NULL },
                               { "--seed", &a.seed, NULL },
                               { "--quiet", NULL, &a.quiet },
                               { NULL, NULL, NULL } };
    return front_end(argc, argv, "texel-fit", options, texel_fit_usage, run_fit, &a);
}

/* ---- texel-label --------------------------------------------------------------------------- */

typedef struct LabelArgs {
    const char *out, *engine, *go, *jobs, *hash, *scale, *weight;
    bool quiet;
} LabelArgs;

/* Whether go is a finite search limit: pairs of nodes, depth or movetime and a whole number above
 * 0 (anything else an engine might ignore and search without end). */
static bool go_limit_valid(const char *go)
{
    char copy[256];
    if (strlen(go) >= sizeof copy)
        return false;
    strcpy(copy, go);
    int pairs = 0;
    char *save = NULL;
    for (char *key = strtok_r(copy, " ", &save); key; key = strtok_r(NULL, " ", &save)) {
        char *value = strtok_r(NULL, " ", &save);
        long v;
        if (!value ||
            (strcmp(key, "nodes") != 0 && strcmp(key, "depth") != 0 &&
             strcmp(key, "movetime") != 0) ||
            !number_parse(value, 1, LONG_MAX, &v))
            return false;
        pairs++;
    }
    return pairs > 0;
}

static int run_label(const char **files, size_t n, int argc, char **argv, void *ctx)
{
    const LabelArgs *a = ctx;
    long jobs = JOBS_DEFAULT, hash = HASH_DEFAULT;
    double scale = SCALE_DEFAULT, weight = 0;
    if (n != 1)
        return cli_error("texel-label needs one data file of carrera texel-data, not %zu (see "
                         "carrera texel-label --help)",
                         n);
    if (!a->out || !a->out[0])
        return cli_error("texel-label needs --out FILE, the labelled data file to write");
    if (!a->engine || !a->engine[0])
        return cli_error("texel-label needs --engine COMMAND, the UCI engine whose search labels");
    if (a->go && !go_limit_valid(a->go))
        return cli_error("--go must be one or more of nodes N, depth N, movetime MS (whole "
                         "numbers above 0), such as \"nodes 5000\", not '%s'",
                         a->go);
    if (a->jobs && !number_parse(a->jobs, 1, 256, &jobs))
        return cli_error("--jobs must be a whole number from 1 to 256, not '%s'", a->jobs);
    if (a->hash && !number_parse(a->hash, 0, 65536, &hash))
        return cli_error("--hash must be a whole number of MB from 0 to 65536, not '%s'", a->hash);
    if (a->scale && !real_parse(a->scale, 1, 100000, &scale))
        return cli_error("--scale must be a number of centipawns from 1 to 100000, not '%s'",
                         a->scale);
    if (a->weight && !real_parse(a->weight, 0, 1, &weight))
        return cli_error("--weight must be a number from 0 to 1, not '%s'", a->weight);
    char *line = options_command_line(argc, argv);
    if (!line)
        return run_error(EXIT_FAILED, "out of memory");
    TexelLabelRequest r = { .data = files[0],
                            .out = a->out,
                            .command = a->engine,
                            .go = a->go ? a->go : GO_DEFAULT,
                            .jobs = (int)jobs,
                            .hash_mb = (int)hash,
                            .scale = scale,
                            .weight = weight,
                            .quiet = a->quiet,
                            .command_line = line };
    int status = texel_label_run(&r);
    free(line);
    return status;
}

int texel_label_command(int argc, char **argv)
{
    LabelArgs a = { 0 };
    const Option options[] = { { "--out", &a.out, NULL },
                               { "--engine", &a.engine, NULL },
                               { "--go", &a.go, NULL },
                               { "--jobs", &a.jobs, NULL },
                               { "--hash", &a.hash, NULL },
                               { "--scale", &a.scale, NULL },
                               { "--weight", &a.weight, NULL },
                               { "--quiet", NULL, &a.quiet },
                               { NULL, NULL, NULL } };
    return front_end(argc, argv, "texel-label", options, texel_label_usage, run_label, &a);
}
