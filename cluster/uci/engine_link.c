/* SPDX-License-Identifier: MIT */
/* An external engine's process (engine_link.h), over subprocess.c's pipes. */
#include "engine_link.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "errmsg.h"

/* How long a polite quit may take before the engine is killed. */
#define QUIT_MS 2000

int engine_link_start(EngineLink *l, const char *command, int send_ms, char *err, size_t errlen)
{
    *l = (EngineLink){ .running = false };
    snprintf(l->command, sizeof l->command, "%s", command);
    char words[sizeof l->command];
    snprintf(words, sizeof words, "%s", command);
    char *argv[SUBPROCESS_MAX_ARGS + 1];
    if (subprocess_split(words, argv, 0, err, errlen) < 0)
        return -1;
    char why[ERRMSG_LEN];
    if (subprocess_start(&l->proc, argv, why, sizeof why) != 0)
        return errmsg_fail(err, errlen, "cannot start the engine: %s", why);
    l->running = true;
    l->proc.send_ms = send_ms;
    return 0;
}

int engine_link_read(EngineLink *l, int64_t deadline, char *line, size_t len)
{
    int64_t left = deadline - monotonic_ms();
    int got = left < 0 ? -1 : subprocess_read_line(&l->proc, line, len, (int)left);
    if (got == 1) {
        size_t n = strlen(line);
        while (n > 0 && isspace((unsigned char)line[n - 1]))
            line[--n] = '\0';
    }
    return got;
}

EngineAnswer engine_link_next(EngineLink *l, int64_t deadline, char *line, size_t len,
                              const char *what, int limit_ms, const char *when, char *err,
                              size_t errlen)
{
    int got = engine_link_read(l, deadline, line, len);
    if (got == 1)
        return ANSWER_OK;
    if (got == 0) {
        char how[ERRMSG_LEN];
        engine_link_gone(l, how, sizeof how);
        errmsg_set(err, errlen, "the engine exited (%s) %s", how, when);
        return ANSWER_EXITED;
    }
    engine_link_kill(l);
    errmsg_set(err, errlen, "no %s within %g s %s", what, engine_link_seconds(limit_ms), when);
    return ANSWER_TIMEOUT;
}

void engine_link_kill(EngineLink *l)
{
    if (l->running) {
        subprocess_finish(&l->proc, 0);
        l->running = false;
    }
}

void engine_link_gone(EngineLink *l, char *end, size_t endlen)
{
    int status = subprocess_finish(&l->proc, QUIT_MS);
    l->running = false;
    subprocess_describe_end(status, end, endlen);
}

void engine_link_quit(EngineLink *l, const char *quit)
{
    if (l->running) {
        subprocess_send(&l->proc, quit);
        subprocess_finish(&l->proc, QUIT_MS);
        l->running = false;
    }
}
