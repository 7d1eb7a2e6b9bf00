/* The `carrera check-config` command (check_config.h). */
#include "check_config.h"

#include <string.h>

#include "cli_error.h"
#include "config.h"

void check_config_usage(FILE *out)
{
    fputs("usage: carrera check-config FILE\n"
          "\n"
          "Reads the perft job configuration FILE (an INI file with a [perft] section) and checks\n"
          "every key and value, the position under the variant and turn rules included, without\n"
          "running anything. Prints a one-line summary of the job, or the first error with the\n"
          "file, line and key at fault (exit status 2).\n",
          out);
}

int check_config_command(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        check_config_usage(stdout);
        return 0;
    }
    if (argc != 2)
        return cli_error("check-config needs one configuration FILE (see carrera check-config "
                         "--help)");
    PerftConfig config;
    char err[1024];
    if (config_read_perft(argv[1], &config, err, sizeof err) != 0)
        return cli_error("%s", err);
    char summary[CONFIG_PATH_MAX + 1024];
    config_summary(&config, summary, sizeof summary);
    printf("%s: ok: %s\n", config.file, summary);
    config_free(&config);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("carrera: error writing the output\n", stderr);
        return 1;
    }
    return 0;
}
