/* SPDX-License-Identifier: MIT */
/* Child programs over pipes: started by spawn_program, written and read line by line with
 * deadlines. */
#define _GNU_SOURCE /* pipe2 */

#include "subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "errmsg.h"
#include "spawn.h"

/* How long a program may take to start (from fork to exec), and to read what fills its stdin's
 * pipe unless the owner says otherwise. */
#define START_MS 30000

static void close_pair(int fd[2])
{
    close(fd[0]);
    close(fd[1]);
}

int subprocess_split(char *words, char *argv[SUBPROCESS_MAX_ARGS + 1], int spare, char *err,
                     size_t errlen)
{
    int argc = 0;
    for (char *save = NULL, *t = strtok_r(words, " \t\r\n", &save); t;
         t = strtok_r(NULL, " \t\r\n", &save)) {
        if (argc + spare == SUBPROCESS_MAX_ARGS)
            return errmsg_fail(err, errlen, "the engine command has more than %d words",
                               SUBPROCESS_MAX_ARGS - spare);
        argv[argc++] = t;
    }
    argv[argc] = NULL;
    if (argc == 0)
        return errmsg_fail(err, errlen, "the engine command is empty");
    return argc;
}

int subprocess_start(Subprocess *p, char *const argv[], char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->to_child = p->from_child = -1;
    /* Close-on-exec from their making: a child that another thread starts meanwhile must not
     * get them (its copy of this child's stdin would keep it open after ours is closed, its copy
     * of the stdout would hide this child's exit from us); spawn_program gives the child its own
     * two ends as stdin and stdout and closes the rest. */
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return errmsg_fail(err, errlen, "cannot start '%s': %s", argv[0], strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0) {
        int why = errno;
        close_pair(in);
        return errmsg_fail(err, errlen, "cannot start '%s': %s", argv[0], strerror(why));
    }
    /* A reader that has gone must give EPIPE, not kill this process. */
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = spawn_program(argv, (const int[3]){ in[0], out[1], -1 }, START_MS, err, errlen);
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        return -1;
    }
    /* writes wait with a deadline (subprocess_send), not for a child that never reads */
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    p->pid = pid;
    p->send_ms = START_MS;
    p->to_child = in[1];
    p->from_child = out[0];
    return 0;
}

int subprocess_send(Subprocess *p, const char *text)
{
    size_t left = strlen(text);
    int64_t deadline = monotonic_ms() + p->send_ms;
    while (left > 0) {
        if (p->to_child < 0)
            return -1;
        ssize_t n = write(p->to_child, text, left);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* the pipe is full: wait until the child reads, or the deadline */
            int64_t wait = deadline - monotonic_ms();
            struct pollfd fd = { .fd = p->to_child, .events = POLLOUT };
            if (wait <= 0 || (poll(&fd, 1, (int)wait) == 0 && monotonic_ms() >= deadline))
                return -1;
            continue;
        }
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        text += n;
        left -= (size_t)n;
    }
    return 0;
}

/* Moves the first take bytes of the buffer to line (cut to fit, without a trailing CR) and drops
 * used bytes from the buffer. */
static void take_line(Subprocess *p, size_t take, size_t used, char *line, size_t linelen)
{
    size_t copy = take < linelen - 1 ? take : linelen - 1;
    memcpy(line, p->buf, copy);
    line[copy] = '\0';
    if (copy > 0 && line[copy - 1] == '\r')
        line[copy - 1] = '\0';
    memmove(p->buf, p->buf + used, p->len - used);
    p->len -= used;
}

int subprocess_read_line(Subprocess *p, char *line, size_t linelen, int timeout_ms)
{
    int64_t deadline = monotonic_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl) {
            size_t take = (size_t)(nl - p->buf);
            take_line(p, take, take + 1, line, linelen);
            return 1;
        }
        /* A full buffer without a newline is returned as a (cut) line. */
        if (p->len == sizeof p->buf) {
            take_line(p, p->len, p->len, line, linelen);
            return 1;
        }
        if (p->from_child < 0)
            return 0;
        int64_t left = deadline - monotonic_ms();
        if (left < 0)
            left = 0;
        struct pollfd fd = { .fd = p->from_child, .events = POLLIN };
        int ready = poll(&fd, 1, (int)left);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return 0;
        if (ready == 0)
            return -1;
        ssize_t n = read(p->from_child, p->buf + p->len, sizeof p->buf - p->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (p->len == 0)
                return 0;
            /* The last line had no newline: return what there is. */
            take_line(p, p->len, p->len, line, linelen);
            return 1;
        }
        p->len += (size_t)n;
    }
}

int subprocess_finish(Subprocess *p, int timeout_ms)
{
    if (p->to_child >= 0) {
        close(p->to_child);
        p->to_child = -1;
    }
    int status = -1;
    if (p->pid > 0) {
        int64_t deadline = monotonic_ms() + timeout_ms;
        pid_t done;
        /* most children exit at once: look again soon, then less often (up to every 10 ms) */
        long pause_ns = 100 * 1000;
        while ((done = waitpid(p->pid, &status, WNOHANG)) == 0 && monotonic_ms() < deadline) {
            struct timespec pause = { 0, pause_ns };
            nanosleep(&pause, NULL);
            if (pause_ns < 10 * 1000 * 1000)
                pause_ns *= 2;
        }
        if (done == 0) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &status, 0);
        }
        p->pid = -1;
    }
    if (p->from_child >= 0) {
        close(p->from_child);
        p->from_child = -1;
    }
    if (status == -1)
        return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

void subprocess_describe_end(int status, char *out, size_t outlen)
{
    if (status < 0)
        snprintf(out, outlen, "its exit status is unknown");
    else if (status >= 128)
        snprintf(out, outlen, "killed by signal %d, %s", status - 128, strsignal(status - 128));
    else
        snprintf(out, outlen, "exit status %d", status);
}
