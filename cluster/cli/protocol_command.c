/* SPDX-License-Identifier: MIT */
/* The start of a protocol server (protocol_command.h). */
#include "protocol_command.h"

#include "cli_error.h"
#include "errmsg.h"
#include "eval_config.h"
#include "exit_status.h"
#include "options.h"

int protocol_command(int argc, char **argv, const char *name, void (*usage)(FILE *),
                     ProtocolLoop loop)
{
    const char *eval_file = NULL;
    const Option options[] = { { "--eval", &eval_file, NULL }, { NULL, NULL, NULL } };
    int parsed = options_parse(argc, argv, name, options);
    if (parsed == 1) {
        usage(stdout);
        return EXIT_OK;
    }
    if (parsed < 0)
        return EXIT_USAGE;
    EvalParams params;
    eval_defaults(&params);
    char err[ERRMSG_LEN];
    if (eval_file && eval_config_read(eval_file, &params, err, sizeof err) != 0)
        return cli_error("%s", err);
    return loop(stdin, stdout, &params);
}
