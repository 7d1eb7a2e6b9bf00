/* SPDX-License-Identifier: MIT */
/* The `carrera` program: picks the command and hands over its arguments. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bisect.h"
#include "verify.h"
#include "check_config.h"
#include "cli_error.h"
#include "match_command.h"
#include "perft_command.h"
#include "report_command.h"
#include "texel_command.h"
#include "tune_command.h"
#include "uci_command.h"
#include "variant.h"
#include "version.h"
#include "xboard_command.h"

/* A command: its front end, its line in `carrera --help`, and whether that line points to the
 * command's own --help. The one list of the commands: dispatch, help and errors read it. */
typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    bool help_hint;
} Command;

static const Command COMMANDS[] = {
    { "perft", perft_command, "count the legal move paths from a position", true },
    { "uci", uci_command, "talk the UCI protocol on stdin/stdout: play (go), perft (go perft)",
      false },
    { "xboard", xboard_command, "talk the xboard protocol (CECP) on stdin/stdout, for XBoard",
      false },
    { "bench", bench_command, "the engine's fixed search and its node-count signature", false },
    { "match", match_command, "play a match between two engine configurations", true },
    { "tune", tune_command, "piece values from material-odds matches", true },
    { "report", report_command, "a Markdown report with plots of piece-value runs", true },
    { "texel-data", texel_data_command, "positions and results of recorded games for texel-fit",
      true },
    { "texel-fit", texel_fit_command, "the evaluation fitted to game results (Texel's method)",
      true },
    { "texel-label", texel_label_command,
      "a texel data file's positions labelled by an engine's search", true },
    { "bisect", bisect_command, "find where a UCI engine's perft differs from Carrera's", true },
    { "verify", verify_command,
      "check a perft engine on many positions, bisect and group the differences", true },
    { "check-config", check_config_command, "validate a job configuration file without running it",
      true },
};

#define COMMAND_COUNT (sizeof COMMANDS / sizeof *COMMANDS)

/* The help's command list: the names in a column, each summary beside its name (below a name
 * too long for the column), the help hint after it or, past 80 columns, below it. */
static void list_commands(FILE *out)
{
    enum { NAME_WIDTH = 6, TEXT_COLUMN = 10, WIDTH = 80 };
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        const Command *c = &COMMANDS[i];
        if (strlen(c->name) > NAME_WIDTH)
            fprintf(out, "  %s\n%*s", c->name, TEXT_COLUMN, "");
        else
            fprintf(out, "  %-*s  ", NAME_WIDTH, c->name);
        fputs(c->summary, out);
        if (c->help_hint) {
            char hint[64];
            int len = snprintf(hint, sizeof hint, "(carrera %s --help)", c->name);
            if (TEXT_COLUMN + strlen(c->summary) + 1 + (size_t)len <= WIDTH)
                fprintf(out, " %s", hint);
            else
                fprintf(out, "\n%*s%s", TEXT_COLUMN, "", hint);
        }
        fputc('\n', out);
    }
}

static void usage(FILE *out)
{
    fputs("usage: carrera COMMAND [OPTIONS]\n"
          "       carrera --help | --version\n"
          "\n"
          "Exact perft and a self-play engine for chess variants.\n"
          "\n"
          "commands:\n",
          out);
    list_commands(out);
    fputs("\nvariants:", out);
    int count;
    const Variant *const *all = variant_all(&count);
    for (int i = 0; i < count; i++)
        fprintf(out, " %s", all[i]->name);
    fputc('\n', out);
}

/* The command names in message form: "perft, uci, ...". */
static void command_names(char *out, size_t outlen)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < COMMAND_COUNT && used < outlen; i++)
        used +=
            (size_t)snprintf(out + used, outlen - used, "%s%s", i ? ", " : "", COMMANDS[i].name);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_error("no command given: try carrera perft or carrera uci (see carrera --help)");
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
        strcmp(command, "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(command, "--version") == 0) {
        printf("carrera %s (revision %s)\n", carrera_version, carrera_revision);
        return EXIT_OK;
    }
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(command, COMMANDS[i].name) == 0)
            return COMMANDS[i].run(argc - 1, argv + 1);
    if (command[0] == '-')
        return cli_error("unknown option '%s' (see carrera --help)", command);
    char names[256];
    command_names(names, sizeof names);
    return cli_error("unknown command '%s' (valid: %s; see carrera --help)", command, names);
}
