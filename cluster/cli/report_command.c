/* SPDX-License-Identifier: MIT */
/* `carrera report` (report_command.h): the options parsed and validated into a request, the
 * report layer called with it. */
#include "report_command.h"

#include <stdlib.h>
#include <string.h>

#include "cli_error.h"
#include "number.h"
#include "options.h"
#include "report.h"
#include "tune_analysis.h"

void report_usage(FILE *out)
{
    fprintf(out,
            "usage: carrera report RESULT.h5... [--out DIR] [--replicates N] [--title TEXT]\n"
            "\n"
            "A research report of piece-value runs (carrera tune's imbalance method, or a match\n"
            "with imbalances): DIR/report.md, one Markdown page, and the SVG plots it links,\n"
            "recomputed from the games of each file (never from the values it stored). Per stage\n"
            "and test: pair counts, W-D-L, the score with its SE per pair and per game, the\n"
            "colour split, draws, terminations; the fit (chi2, p-value), values, contrasts and\n"
            "ratios with delta, Fieller and bootstrap intervals, residuals, leave-one-out and\n"
            "brackets, and what would falsify it; with several files or stages a comparison and\n"
            "a convergence plot against player 1's nodes per turn; the provenance of each file.\n"
            "Prints the paths written.\n"
            "\n"
            "  --out DIR         where to write (default: RESULT-report beside the first file)\n"
            "  --replicates N    bootstrap replicates (default %d)\n"
            "  --title TEXT      the page's title\n"
            "\n"
            "Exit status: 0 written, 2 a usage error or a file that cannot be analysed,\n"
            "3 the report could not be written.\n",
            TUNE_ANALYSIS_REPLICATES);
}

/* The options that take a value (the rest of argv, but flags, are the files). */
static bool takes_value(const char *arg)
{
    return strcmp(arg, "--out") == 0 || strcmp(arg, "--replicates") == 0 ||
           strcmp(arg, "--title") == 0;
}

/* The options as given, and the result files named. */
typedef struct ReportArgs {
    const char *out, *replicates, *title;
    const char **files; /* room for argc names */
    size_t n_files;
} ReportArgs;

/* Takes the result files (the arguments that are not options) out of argv into a->files and
 * parses the rest, gathered in opts (room for argc), into a. Returns as options_parse does. */
static int parse(int argc, char **argv, char **opts, ReportArgs *a)
{
    const Option options[] = { { "--out", &a->out, NULL },
                               { "--replicates", &a->replicates, NULL },
                               { "--title", &a->title, NULL },
                               { NULL, NULL, NULL } };
    int n_opts = 0;
    opts[n_opts++] = argv[0];
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-') {
            a->files[a->n_files++] = argv[i];
            continue;
        }
        opts[n_opts++] = argv[i];
        if (takes_value(argv[i]) && i + 1 < argc)
            opts[n_opts++] = argv[++i];
    }
    return options_parse(n_opts, opts, "report", options);
}

/* Checks the options and reads them into *r. Returns 0, or the exit status of the usage error
 * (reported). */
static int validate(const ReportArgs *a, ReportRequest *r)
{
    long reps = TUNE_ANALYSIS_REPLICATES;
    if (a->n_files == 0)
        return cli_error("report needs one or more result files (see carrera report --help)");
    if (a->replicates && !number_parse(a->replicates, 1, 1000000, &reps))
        return cli_error("--replicates must be a whole number from 1 to 1000000, not '%s'",
                         a->replicates);
    if (a->out && !a->out[0])
        return cli_error("--out needs a directory");
    *r = (ReportRequest){ .paths = a->files,
                          .n_paths = a->n_files,
                          .out_dir = a->out,
                          .replicates = (int)reps,
                          .title = a->title };
    return EXIT_OK;
}

/* Writes the report of r, asked for by argv. Returns the exit status. */
static int run(ReportRequest *r, int argc, char **argv)
{
    char *line = options_command_line(argc, argv);
    r->command_line = line;
    int status = report_write(r, stdout);
    free(line);
    if (fflush(stdout) != 0 || ferror(stdout))
        status = run_error(EXIT_FAILED, "cannot write the output");
    return status;
}

int report_command(int argc, char **argv)
{
    ReportArgs a = { .files = calloc((size_t)argc + 1, sizeof *a.files) };
    char **opts = calloc((size_t)argc + 1, sizeof *opts);
    ReportRequest r;
    int status;
    if (!opts || !a.files) {
        status = run_error(EXIT_FAILED, "out of memory");
    } else {
        int parsed = parse(argc, argv, opts, &a);
        if (parsed > 0) {
            report_usage(stdout);
            status = EXIT_OK;
        } else if (parsed < 0) {
            status = EXIT_USAGE;
        } else if ((status = validate(&a, &r)) == EXIT_OK) {
            status = run(&r, argc, argv);
        }
    }
    free(opts);
    free(a.files);
    return status;
}
