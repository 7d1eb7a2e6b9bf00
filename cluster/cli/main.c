/* SPDX-License-Identifier: MIT */
/* The `carrera` program: picks the command and hands over its arguments. */
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
#include "tune_command.h"
#include "uci_command.h"
#include "variant.h"
#include "version.h"

static void usage(FILE *out)
{
    fputs("usage: carrera COMMAND [OPTIONS]\n"
          "       carrera --help | --version\n"
          "\n"
          "Exact perft and a self-play engine for chess variants.\n"
          "\n"
          "commands:\n"
          "  perft   count the legal move paths from a position (carrera perft --help)\n"
          "  uci     talk the UCI protocol on stdin/stdout: play (go), perft (go perft)\n"
          "  bench   the engine's fixed search and its node-count signature\n"
          "  match   play a match between two engine configurations (carrera match --help)\n"
          "  tune    piece values from material-odds matches (carrera tune --help)\n"
          "  report  a Markdown report with plots of piece-value runs (carrera report --help)\n"
          "  bisect  find where a UCI engine's perft differs from Carrera's\n"
          "          (carrera bisect --help)\n"
          "  verify  check a perft engine on many positions, bisect and group the differences\n"
          "          (carrera verify --help)\n"
          "  check-config\n"
          "          validate a job configuration file without running it\n"
          "          (carrera check-config --help)\n"
          "\n"
          "variants:",
          out);
    int count;
    const Variant *const *all = variant_all(&count);
    for (int i = 0; i < count; i++)
        fprintf(out, " %s", all[i]->name);
    fputc('\n', out);
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
    if (strcmp(command, "perft") == 0)
        return perft_command(argc - 1, argv + 1);
    if (strcmp(command, "match") == 0)
        return match_command(argc - 1, argv + 1);
    if (strcmp(command, "tune") == 0)
        return tune_command(argc - 1, argv + 1);
    if (strcmp(command, "report") == 0)
        return report_command(argc - 1, argv + 1);
    if (strcmp(command, "bench") == 0)
        return bench_command(argc - 1, argv + 1);
    if (strcmp(command, "bisect") == 0)
        return bisect_command(argc - 1, argv + 1);
    if (strcmp(command, "verify") == 0)
        return verify_command(argc - 1, argv + 1);
    if (strcmp(command, "check-config") == 0)
        return check_config_command(argc - 1, argv + 1);
    if (strcmp(command, "uci") == 0)
        return uci_command(argc - 1, argv + 1);
    if (command[0] == '-')
        return cli_error("unknown option '%s' (see carrera --help)", command);
    return cli_error("unknown command '%s' (see carrera --help)", command);
}
