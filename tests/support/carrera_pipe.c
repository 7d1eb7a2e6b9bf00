/* SPDX-License-Identifier: MIT */
#include "carrera_pipe.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must name the carrera binary"
#endif

void pipe_start(Subprocess *p, const char *command)
{
    char *const argv[] = { CARRERA_BIN, (char *)command, NULL };
    char err[ERRMSG_LEN];
    if (subprocess_start(p, argv, err, sizeof err) != 0)
        fail_msg("%s", err);
}

void pipe_send(Subprocess *p, const char *line)
{
    assert_int_equal(subprocess_send(p, line), 0);
    assert_int_equal(subprocess_send(p, "\n"), 0);
}

void pipe_read_line(Subprocess *p, char *line, size_t len)
{
    int got = subprocess_read_line(p, line, len, PIPE_TIMEOUT_MS);
    if (got != 1)
        fail_msg("expected a line, got %s", got == 0 ? "end of output" : "nothing (timeout)");
}

void pipe_quit(Subprocess *p)
{
    pipe_send(p, "quit");
    assert_int_equal(subprocess_finish(p, PIPE_TIMEOUT_MS), 0);
}

bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}
