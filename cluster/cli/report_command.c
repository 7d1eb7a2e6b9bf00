/* SPDX-License-Identifier: MIT */
/* `carrera report` (report_command.h): the options read, the report layer called. */
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

static char *command_line(int argc, char **argv)
{
    size_t len = strlen("carrera") + 1;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    strcpy(s, "carrera");
    for (int i = 0; i < argc; i++) {
        strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

int report_command(int argc, char **argv)
{
    const char *out = NULL, *replicates = NULL, *title = NULL;
    const Option options[] = { { "--out", &out, NULL },
                               { "--replicates", &replicates, NULL },
                               { "--title", &title, NULL },
                               { NULL, NULL, NULL } };
    char **opts = calloc((size_t)argc + 1, sizeof *opts);
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    int n_opts = 0, status = EXIT_OK;
    size_t n_files = 0;
    if (!opts || !files) {
        free(opts);
        free(files);
        return run_error(EXIT_FAILED, "out of memory");
    }
    opts[n_opts++] = argv[0];
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-') {
            files[n_files++] = argv[i];
            continue;
        }
        opts[n_opts++] = argv[i];
        if (takes_value(argv[i]) && i + 1 < argc)
            opts[n_opts++] = argv[++i];
    }
    int parsed = options_parse(n_opts, opts, "report", options);
    long reps = TUNE_ANALYSIS_REPLICATES;
    if (parsed == 1) {
        report_usage(stdout);
    } else if (parsed < 0) {
        status = EXIT_USAGE;
    } else if (n_files == 0) {
        status = cli_error("report needs one or more result files (see carrera report --help)");
    } else if (replicates && !number_parse(replicates, 1, 1000000, &reps)) {
        status = cli_error("--replicates must be a whole number from 1 to 1000000, not '%s'",
                           replicates);
    } else if (out && !out[0]) {
        status = cli_error("--out needs a directory");
    } else {
        char *line = command_line(argc, argv);
        ReportRequest r = { .paths = files,
                            .n_paths = n_files,
                            .out_dir = out,
                            .replicates = (int)reps,
                            .title = title,
                            .command_line = line };
        status = report_write(&r, stdout);
        free(line);
        if (fflush(stdout) != 0 || ferror(stdout))
            status = run_error(EXIT_FAILED, "cannot write the output");
    }
    free(opts);
    free(files);
    return status;
}
