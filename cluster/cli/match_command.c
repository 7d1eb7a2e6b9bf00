/* SPDX-License-Identifier: MIT */
/* `carrera match` (match_command.h). */
#include "match_command.h"

#include "cli_error.h"
#include "options.h"

void match_usage(FILE *out)
{
    fputs("usage: carrera match --config FILE.ini [--out RESULT.h5] [--pgn GAMES.pgn]\n"
          "                     [--resume | --continue | --extend] [--quiet]\n"
          "\n"
          "Plays the match of FILE.ini: game pairs (each opening twice, colours reversed) between\n"
          "[player1] and [player2], several games at once (one per thread), and prints player 1's\n"
          "score, Elo with 95% intervals (per game and per pair), LOS and the SPRT's verdict.\n"
          "Every finished pair goes to the PGN file and to the HDF5 result file (a checkpoint:\n"
          "--resume continues a killed match from it, playing only the pairs not recorded;\n"
          "--continue resumes when the file exists and starts otherwise, as a batch job does;\n"
          "--extend resumes a match whose `games` FILE.ini has since raised, its configuration\n"
          "otherwise the same: the pairs played are kept, the SPRT goes on from their counts and\n"
          "the new pairs get openings of their own, as a longer match would have had).\n"
          "Progress on stderr.\n"
          "The configuration keys are in the README (\"Match files\").\n",
          out);
}

int match_command_read(int argc, char **argv, void (*usage)(FILE *), MatchRequest *r, int *status)
{
    const char *command = argv[0];
    *r = (MatchRequest){ 0 };
    bool resume = false, continue_ = false;
    const Option options[] = { { "--config", &r->config, NULL },   { "--out", &r->out, NULL },
                               { "--pgn", &r->pgn, NULL },         { "--resume", NULL, &resume },
                               { "--continue", NULL, &continue_ }, { "--extend", NULL, &r->extend },
                               { "--quiet", NULL, &r->quiet },     { NULL, NULL, NULL } };
    int parsed = options_parse(argc, argv, command, options);
    r->resume = resume || r->extend ? RESUME_ALWAYS : continue_ ? RESUME_IF_PRESENT : RESUME_NEVER;
    *status = EXIT_OK;
    if (parsed == 1)
        usage(stdout);
    else if (parsed < 0)
        *status = EXIT_USAGE;
    else if (resume && continue_)
        *status = cli_error("--resume and --continue are two ways to resume: give one");
    else if (r->extend && continue_)
        *status = cli_error("--extend resumes an existing match; --continue would start one");
    else if (!r->config)
        *status = cli_error("%s needs --config FILE.ini (see carrera %s --help)", command, command);
    else
        return 0;
    return -1;
}

int match_command(int argc, char **argv)
{
    MatchRequest r;
    int status;
    if (match_command_read(argc, argv, match_usage, &r, &status) != 0)
        return status;
    return match_run(&r);
}
