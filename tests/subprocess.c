/* Child programs over pipes for the tests: fork/exec, line reads with a deadline. */
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

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int subprocess_start(Subprocess *p, char *const argv[], char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->to_child = p->from_child = -1;
    if (access(argv[0], X_OK) != 0) {
        snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(errno));
        return -1;
    }
    int in[2], out[2];
    if (pipe(in) != 0)
        goto fail;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        goto fail;
    }
    /* A writer that has gone must give EPIPE, not kill the test. */
    signal(SIGPIPE, SIG_IGN);
    /* Our ends must not leak into later children: a leaked write end would keep a child's
     * stdin open after we close it. */
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        goto fail;
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(out[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->pid = pid;
    p->to_child = in[1];
    p->from_child = out[0];
    return 0;
fail:
    snprintf(err, errlen, "cannot start %s: %s", argv[0], strerror(errno));
    return -1;
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

int subprocess_read_line(Subprocess *p, char *line, size_t linelen, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        /* A full buffer without a newline is returned as a (cut) line. */
        if (nl || p->len == sizeof p->buf) {
            size_t take = nl ? (size_t)(nl - p->buf) : p->len;
            size_t copy = take < linelen - 1 ? take : linelen - 1;
            memcpy(line, p->buf, copy);
            line[copy] = '\0';
            if (copy > 0 && line[copy - 1] == '\r')
                line[copy - 1] = '\0';
            size_t used = nl ? take + 1 : take;
            memmove(p->buf, p->buf + used, p->len - used);
            p->len -= used;
            return 1;
        }
        long long left = deadline - now_ms();
        if (left <= 0)
            return -1;
        struct pollfd fd = { .fd = p->from_child, .events = POLLIN };
        int ready = poll(&fd, 1, (int)left);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return ready == 0 ? -1 : 0;
        ssize_t n = read(p->from_child, p->buf + p->len, sizeof p->buf - p->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (p->len == 0)
                return 0;
            /* The last line had no newline: return what there is. */
            size_t copy = p->len < linelen - 1 ? p->len : linelen - 1;
            memcpy(line, p->buf, copy);
            line[copy] = '\0';
            p->len = 0;
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
        long long deadline = now_ms() + timeout_ms;
        pid_t done;
        while ((done = waitpid(p->pid, &status, WNOHANG)) == 0 && now_ms() < deadline) {
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
