/* SPDX-License-Identifier: MIT */
/* Child programs over pipes: fork/exec, line reads with a deadline. */
#define _POSIX_C_SOURCE 200809L

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
    /* status carries the child's errno when exec fails: it is close-on-exec, so a successful
     * exec closes it unwritten and the parent reads end of file. Unlike a check before the
     * fork, this sees every reason exec can fail, PATH lookup included. */
    int in[2], out[2], status[2];
    if (pipe(in) != 0)
        goto fail;
    if (pipe(out) != 0) {
        close_pair(in);
        goto fail;
    }
    if (pipe(status) != 0) {
        close_pair(in);
        close_pair(out);
        goto fail;
    }
    /* A reader that has gone must give EPIPE, not kill this process. */
    signal(SIGPIPE, SIG_IGN);
    /* No end may leak into other children: a leaked write end would keep a child's stdin open
     * after we close it, and the child's own ends, leaked into a child another thread starts
     * meanwhile, would hide this child's exit from us (the dup2 below clears the flag on the
     * child's stdin and stdout). */
    fcntl(in[0], F_SETFD, FD_CLOEXEC);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    fcntl(out[1], F_SETFD, FD_CLOEXEC);
    fcntl(status[0], F_SETFD, FD_CLOEXEC);
    fcntl(status[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close_pair(in);
        close_pair(out);
        close_pair(status);
        goto fail;
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(out[1]);
        execvp(argv[0], argv);
        int why = errno;
        ssize_t ignored = write(status[1], &why, sizeof why);
        (void)ignored;
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(status[1]);
    int why = 0;
    ssize_t got;
    while ((got = read(status[0], &why, sizeof why)) < 0 && errno == EINTR)
        ;
    close(status[0]);
    if (got == (ssize_t)sizeof why) {
        waitpid(pid, NULL, 0);
        close(in[1]);
        close(out[0]);
        return errmsg_fail(err, errlen, "cannot run '%s': %s", argv[0], strerror(why));
    }
    p->pid = pid;
    p->to_child = in[1];
    p->from_child = out[0];
    return 0;
fail:
    return errmsg_fail(err, errlen, "cannot start '%s': %s", argv[0], strerror(errno));
}

int subprocess_send(Subprocess *p, const char *text)
{
    size_t left = strlen(text);
    while (left > 0) {
        if (p->to_child < 0)
            return -1;
        ssize_t n = write(p->to_child, text, left);
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
        while ((done = waitpid(p->pid, &status, WNOHANG)) == 0 && monotonic_ms() < deadline) {
            struct timespec pause = { 0, 10 * 1000 * 1000 };
            nanosleep(&pause, NULL);
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
