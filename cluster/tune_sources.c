/* The regression over recorded games (tune_sources.h). */
#include "tune_sources.h"

#include <stdio.h>
#include <string.h>

#include "cli_error.h"
#include "h5tune.h"
#include "ini_file.h"
#include "paths.h"
#include "provenance.h"
#include "tune.h"

int tune_sources_run(const char *path, const char *out, bool *handled)
{
    *handled = false;
    char err[1024];
    Ini ini;
    if (ini_file_read(path, &ini, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (ini_file_section(&ini, "match")) {
        ini_file_free(&ini);
        return 0;
    }
    *handled = true;
    /* a tuner over a match of no games: only its configuration and regression are used */
    MatchConfig cfg = { 0 };
    int status = 0;
    char output[CONFIG_PATH_MAX];
    if (tune_config_read_sources(&ini, &cfg.tune, err, sizeof err) != 0) {
        status = cli_error("%s", err);
    } else {
        if (out)
            snprintf(output, sizeof output, "%s", out);
        else
            config_output_name(ini.name, "tune", ".h5", output, sizeof output);
        const char *sources[TUNE_MAX_SOURCES];
        for (int i = 0; i < cfg.tune.n_sources; i++)
            sources[i] = cfg.tune.sources[i];
        Tuner t = { .cfg = &cfg };
        tune_regress(&t, sources, cfg.tune.n_sources, cfg.tune.skip_plies);
        if (!t.regression.read) {
            ini_file_free(&ini);
            return cli_error("%s", t.regression.reason);
        }
        tuner_print(stdout, &t);
        fflush(stdout);
        Provenance prov;
        provenance_init(&prov, 1, 1, NULL, 0, ini.text);
        if (make_parent_dirs(output, err, sizeof err) != 0
            || h5tune_create(output, &prov, &t, sources, cfg.tune.n_sources, err, sizeof err) != 0) {
            fprintf(stderr, "carrera: error: %s\n", err);
            status = 1;
        }
        else
            fprintf(stderr, "result: %s\n", output);
        if (status == 0 && !t.regression.ok)
            status = 1;
    }
    ini_file_free(&ini);
    return status;
}
