/* SPDX-License-Identifier: MIT */
/* perftree's script protocol (perftree.h): one process per question, read to its end. */
#define _POSIX_C_SOURCE 200809L

#include "perftree.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "errmsg.h"

#define LINE_MAX_LEN 1024

void perftree_init(PerftreeClient *c, const char *command)
{
    *c = (PerftreeClient){ 0 };
    snprintf(c->command, sizeof c->command, "%s", command);
}

int perftree_ask(PerftreeClient *c, const char *fen, const char *moves, int depth, char *err,
                 size_t errlen)
{
    perftree_stop(c);
    char words[sizeof c->command], depth_text[16];
    snprintf(words, sizeof words, "%s", c->command);
    char *argv[SUBPROCESS_MAX_ARGS + 1];
    int argc = subprocess_split(words, argv, 3, err, errlen);
    if (argc < 0)
        return -1;
    snprintf(depth_text, sizeof depth_text, "%d", depth);
    argv[argc++] = depth_text;
    argv[argc++] = (char *)fen;
    if (moves && moves[0])
        argv[argc++] = (char *)moves;
    argv[argc] = NULL;
    snprintf(c->asked, sizeof c->asked, "'%s %d \"%s\"%s%s%s'", c->command, depth, fen,
             moves && moves[0] ? " \"" : "", moves && moves[0] ? moves : "",
             moves && moves[0] ? "\"" : "");
    char why[ERRMSG_LEN];
    if (subprocess_start(&c->proc, argv, why, sizeof why) != 0)
        return errmsg_fail(err, errlen, "cannot start the script: %s", why);
    c->running = true;
    /* The protocol gives the program nothing on stdin: it sees its end at once. */
    close(c->proc.to_child);
    c->proc.to_child = -1;
    return 0;
}

void perftree_stop(PerftreeClient *c)
{
    if (c->running)
        subprocess_finish(&c->proc, 0);
    c->running = false;
}

/* Reaps the program after its output ended; 0 when it exited with status 0. */
static int reap(PerftreeClient *c, int timeout_ms, char *why, size_t whylen)
{
    int status = subprocess_finish(&c->proc, timeout_ms);
    c->running = false;
    subprocess_describe_end(status, why, whylen);
    return status == 0 ? 0 : -1;
}

int perftree_answer(PerftreeClient *c, int timeout_ms, Divide *d, char *err, size_t errlen)
{
    divide_clear(d);
    char line[LINE_MAX_LEN], why[256], move[DIVIDE_MOVE_MAX];
    int64_t deadline = monotonic_ms() + timeout_ms;
    bool blank = false, total_read = false;
    uint64_t total = 0, count;
    for (;;) {
        int64_t left = deadline - monotonic_ms();
        int got = left < 0 ? -1 : subprocess_read_line(&c->proc, line, sizeof line, (int)left);
        if (got < 0) {
            perftree_stop(c);
            return errmsg_fail(err, errlen,
                               "the script did not finish %s within %g s (%zu move lines so far; "
                               "--timeout sets the limit)",
                               c->asked, timeout_ms / 1000.0, d->n);
        }
        if (got == 0)
            break;
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
            line[--n] = '\0';
        if (total_read) {
            if (n == 0)
                continue;
            perftree_stop(c);
            return errmsg_fail(err, errlen, "the script printed '%.200s' after its total in %s",
                               line, c->asked);
        }
        if (blank) {
            if (!divide_parse_count(line, &total)) {
                perftree_stop(c);
                return errmsg_fail(
                    err, errlen,
                    "the script printed '%.200s' where its total belongs (after the empty "
                    "line) in %s",
                    line, c->asked);
            }
            total_read = true;
            continue;
        }
        if (n == 0) {
            blank = true;
            continue;
        }
        if (!divide_parse_line(line, ' ', move, &count)) {
            perftree_stop(c);
            return errmsg_fail(err, errlen,
                               "the script printed a line that is not 'move count' in %s: '%.200s'",
                               c->asked, line);
        }
        if (!divide_add(d, move, count)) {
            perftree_stop(c);
            return errmsg_fail(err, errlen, "out of memory reading the script's answer");
        }
    }
    int64_t left = deadline - monotonic_ms();
    if (reap(c, left > 0 ? (int)left : 0, why, sizeof why) != 0)
        return errmsg_fail(err, errlen, "the script ended with %s in %s", why, c->asked);
    if (!total_read)
        return errmsg_fail(err, errlen,
                           "the script's output ended without the empty line and the total in %s "
                           "(after %zu move lines)",
                           c->asked, d->n);
    if (total != d->total)
        return errmsg_fail(err, errlen,
                           "the script's total %" PRIu64
                           " is not the sum of its %zu move lines (%" PRIu64 ") in %s",
                           total, d->n, d->total, c->asked);
    return 0;
}
