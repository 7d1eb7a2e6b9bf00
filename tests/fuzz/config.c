/* SPDX-License-Identifier: MIT */
/* Fuzz target: INI configuration files, read from a file as the commands read them. Byte 0
 * chooses the reader: a perft job (perft_config_read), a match or tuning file
 * (match_config_read), or an evaluation file (eval_config_read); the rest is the file. A file is
 * accepted or refused with a message, never anything else. */
#include <stdio.h>
#include <stdlib.h>

#include "errmsg.h"
#include "perft_config.h"
#include "eval_config.h"
#include "fuzz.h"
#include "match_config.h"

static void require_message(const char *err)
{
    if (err[0] == '\0') {
        fprintf(stderr, "fuzz_config: a file was refused without a message\n");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = fuzz_file(data + 1, size - 1, ".ini");
    if (!path)
        return 0;
    char err[ERRMSG_LEN] = "";
    switch (data[0] % 3) {
    case 0: {
        PerftConfig c;
        if (perft_config_read(path, &c, err, sizeof err) != 0) {
            require_message(err);
            break;
        }
        char summary[1024];
        perft_config_summary(&c, summary, sizeof summary);
        perft_config_free(&c);
        break;
    }
    case 1: {
        static MatchConfig c;
        if (match_config_read(path, &c, err, sizeof err) != 0)
            require_message(err);
        else
            match_config_free(&c);
        break;
    }
    default: {
        EvalParams p;
        eval_defaults(&p);
        if (eval_config_read(path, &p, err, sizeof err) != 0)
            require_message(err);
        break;
    }
    }
    return 0;
}
