/* SPDX-License-Identifier: MIT */
/* Starting a program (spawn.h): fork, the child's descriptors and signals set up with
 * async-signal-safe calls only (other threads may hold locks at the fork), exec, and the exec's
 * outcome read by the parent under a deadline. */
#define _GNU_SOURCE /* pipe2, close_range, syscall */

#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "errmsg.h"

/* An entry of getdents64 (the kernel's layout; glibc's readdir may allocate). */
struct dirent64_raw {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* One pass over /proc/self/fd (dir) closing descriptors from first up; the number it closed, or
 * -1 when the directory cannot be read. */
static int close_listed_pass(int dir, int first)
{
    char buf[4096] __attribute__((aligned(8)));
    int closed = 0;
    if (lseek(dir, 0, SEEK_SET) != 0)
        return -1;
    for (;;) {
        long n = syscall(SYS_getdents64, dir, buf, sizeof buf);
        if (n < 0)
            return -1;
        if (n == 0)
            return closed;
        for (long at = 0; at < n;) {
            const struct dirent64_raw *e = (const struct dirent64_raw *)(buf + at);
            at += e->reclen;
            int fd = 0;
            const char *c = e->name;
            for (; *c >= '0' && *c <= '9'; c++)
                fd = fd * 10 + (*c - '0');
            if (c == e->name || *c != '\0' || fd < first || fd == dir)
                continue;
            close(fd);
            closed++;
        }
    }
}

void spawn_close_listed(int first, long limit)
{
    int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        /* the listing may move under the closes: pass again until a pass finds nothing */
        int closed;
        while ((closed = close_listed_pass(dir, first)) > 0)
            ;
        close(dir);
        if (closed == 0)
            return;
    }
    for (long fd = first; fd < limit; fd++)
        close((int)fd);
}

/* Makes stdio[i] (where given) the child's descriptor i: first each moved above 2, so that one
 * that is already 0, 1 or 2 is not overwritten before it is copied. */
static int set_stdio(const int stdio[3])
{
    int moved[3];
    for (int i = 0; i < 3; i++)
        if (stdio[i] >= 0 && (moved[i] = fcntl(stdio[i], F_DUPFD, 3)) < 0)
            return -1;
    for (int i = 0; i < 3; i++)
        if (stdio[i] >= 0 && dup2(moved[i], i) < 0) /* dup2 leaves i open across exec */
            return -1;
    return 0;
}

/* The child, between fork and exec; reports a failure's errno on status. */
static void child(char *const argv[], const int stdio[3], int status, long limit)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* this process ignores SIGPIPE; an ignored signal would stay ignored in the program */
    signal(SIGPIPE, SIG_DFL);
    /* The status pipe goes to 3 and everything above it is closed. Moved above 2 first: with
     * this process's 0, 1 or 2 closed it may be one of them, which set_stdio replaces. */
    int why = 0;
    int high = fcntl(status, F_DUPFD_CLOEXEC, 3);
    if (high < 0 || set_stdio(stdio) != 0 || (high != 3 && dup3(high, 3, O_CLOEXEC) != 3)) {
        why = errno;
    } else {
        status = 3;
        if (close_range(4, ~0U, 0) != 0)
            spawn_close_listed(4, limit);
        execvp(argv[0], argv);
        why = errno;
    }
    ssize_t ignored = write(status, &why, sizeof why);
    (void)ignored;
    _exit(127);
}

pid_t spawn_program(char *const argv[], const int stdio[3], int timeout_ms, char *err,
                    size_t errlen)
{
    /* The child writes exec's errno on it; a successful exec closes it unwritten and the read
     * sees its end. Unlike a check before the fork this sees every reason exec can fail, PATH
     * lookup included. */
    int status[2];
    if (pipe2(status, O_CLOEXEC) != 0)
        return errmsg_fail(err, errlen, "cannot start '%s': %s", argv[0], strerror(errno));
    long limit = sysconf(_SC_OPEN_MAX);
    if (limit < 0)
        limit = 1L << 20;
    pid_t pid = fork();
    if (pid < 0) {
        int why = errno;
        close(status[0]);
        close(status[1]);
        return errmsg_fail(err, errlen, "cannot start '%s': %s", argv[0], strerror(why));
    }
    if (pid == 0)
        child(argv, stdio, status[1], limit);
    close(status[1]);
    int why = 0;
    ssize_t got = -1;
    int64_t deadline = monotonic_ms() + timeout_ms;
    for (;;) {
        int64_t left = deadline - monotonic_ms();
        struct pollfd fd = { .fd = status[0], .events = POLLIN };
        int ready = poll(&fd, 1, left > 0 ? (int)left : 0);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            break;
        got = read(status[0], &why, sizeof why);
        if (got >= 0 || errno != EINTR)
            break;
    }
    close(status[0]);
    if (got == 0)
        return pid;
    if (got < 0)
        kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    if (got < 0)
        return errmsg_fail(err, errlen, "'%s' did not start within %g s", argv[0],
                           timeout_ms / 1000.0);
    return errmsg_fail(err, errlen, "cannot run '%s': %s", argv[0],
                       got == (ssize_t)sizeof why ? strerror(why) : "its start failed");
}
