/* SPDX-License-Identifier: MIT */
/* A one-node Slurm cluster on this machine for the batch-script tests (slurm_cluster.h). */
#define _GNU_SOURCE /* prctl's PR_SET_PDEATHSIG */

#include "slurm_cluster.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include "errmsg.h"
#include "files.h"
#include "run.h"

enum { MUNGED, SLURMCTLD, SLURMD, N_DAEMONS };
static const char *const daemon_name[N_DAEMONS] = { "munged", "slurmctld", "slurmd" };
static pid_t daemon_pid[N_DAEMONS];
static char conf_path[512];

static void sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

static int failed(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

const char *slurm_cluster_unavailable(void)
{
    if (geteuid() != 0)
        return "slurmd starts every job as its user and so runs as root: run the slurm tests as "
               "root (CI does)";
    return NULL;
}

/* A TCP port nobody listens on now (the kernel's choice for port 0). */
static int free_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    int port = -1;
    if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(s, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (s >= 0)
        close(s);
    return port;
}

/* Starts a daemon in the foreground of its own process, its output into log: it gets SIGTERM
 * when this process dies, so that a crashed or timed-out test leaves nothing running. */
static pid_t start_daemon(char *const argv[], const char *log)
{
    const pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(126);
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    int null = open("/dev/null", O_RDONLY);
    if (fd < 0 || null < 0)
        _exit(126);
    dup2(null, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    setpgid(0, 0); /* not in the terminal's process group: a Ctrl-C reaches the test only */
    execvp(argv[0], argv);
    _exit(127);
}

/* Whether the daemon is still running (reaps it if not). */
static bool alive(int d) { return daemon_pid[d] > 0 && waitpid(daemon_pid[d], NULL, WNOHANG) == 0; }

/* Runs a Slurm client command quietly; returns its output (static), or NULL when it failed. */
static const char *client(const char *const *argv)
{
    static char out[1 << 16];
    Run r = run_program(argv);
    const char *result = NULL;
    if (r.status == 0) {
        snprintf(out, sizeof out, "%s", r.out);
        result = out;
    }
    run_free(&r);
    return result;
}

/* The node as slurmd sees this machine (`slurmd -C`: CPUs, sockets, cores, threads, memory),
 * without its name. */
static int node_hardware(char *out, size_t len, char *err, size_t errlen)
{
    const char *argv[] = { "slurmd", "-C", NULL };
    const char *text = client(argv);
    const char *at = text ? strstr(text, " CPUs=") : NULL;
    if (!at)
        return failed(err, errlen, "slurmd -C did not describe this machine");
    snprintf(out, len, "%.*s", (int)strcspn(at, "\n"), at);
    return 0;
}

static int write_config(const char *dir, const char *host, char *err, size_t errlen)
{
    char hardware[512];
    if (node_hardware(hardware, sizeof hardware, err, errlen) != 0)
        return -1;
    int ctld = free_port(), slurmd = free_port();
    if (ctld < 0 || slurmd < 0 || ctld == slurmd)
        return failed(err, errlen, "no free TCP ports for slurmctld and slurmd");
    char text[4096];
    snprintf(text, sizeof text,
             "# written by the Carrera slurm tests for this run only\n"
             "ClusterName=carrera-test\n"
             "SlurmctldHost=%s(127.0.0.1)\n"
             "SlurmctldPort=%d\n"
             "SlurmdPort=%d\n"
             "AuthType=auth/munge\n"
             "CredType=cred/munge\n"
             /* a requeued job may start again once its credential has expired */
             "AuthInfo=socket=%s/munge.socket,cred_expire=10\n"
             "SlurmUser=root\n"
             "StateSaveLocation=%s/state\n"
             "SlurmdSpoolDir=%s/spool\n"
             "SlurmctldPidFile=%s/slurmctld.pid\n"
             "SlurmdPidFile=%s/slurmd.pid\n"
             "SlurmctldLogFile=%s/slurmctld.log\n"
             "SlurmdLogFile=%s/slurmd.log\n"
             "ProctrackType=proctrack/linuxproc\n"
             "TaskPlugin=task/none\n"
             "SelectType=select/cons_tres\n"
             "SelectTypeParameters=CR_Core\n"
             "MpiDefault=none\n"
             "ReturnToService=2\n"
             "JobRequeue=1\n"
             "MinJobAge=3600\n"
             "KillWait=10\n"
             "SchedulerParameters=sched_interval=5\n"
             "NodeName=%s NodeAddr=127.0.0.1%s State=UNKNOWN\n"
             "PartitionName=carrera Nodes=%s Default=YES MaxTime=INFINITE State=UP\n",
             host, ctld, slurmd, dir, dir, dir, dir, dir, dir, dir, host, hardware, host);
    snprintf(conf_path, sizeof conf_path, "%s/slurm.conf", dir);
    write_bytes(conf_path, text, strlen(text));
    return 0;
}

/* Waits up to seconds for ready() to be true while every daemon started so far runs. */
static int wait_until(bool (*ready)(const char *), const char *arg, int seconds, const char *what,
                      const char *dir, char *err, size_t errlen)
{
    for (int i = 0; i < seconds * 10; i++) {
        if (ready(arg))
            return 0;
        for (int d = 0; d < N_DAEMONS; d++)
            if (daemon_pid[d] > 0 && !alive(d)) {
                daemon_pid[d] = 0;
                return failed(err, errlen, "%s exited at start: see %s/%s.out", daemon_name[d], dir,
                              daemon_name[d]);
            }
        sleep_ms(100);
    }
    return failed(err, errlen, "%s not within %d s (the daemons' logs are in %s)", what, seconds,
                  dir);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static bool node_idle(const char *unused)
{
    (void)unused;
    const char *argv[] = { "sinfo", "-h", "-o", "%T", NULL };
    const char *out = client(argv);
    return out && strncmp(out, "idle", 4) == 0;
}

int slurm_cluster_start(const char *dir, char *err, size_t errlen)
{
    char host[256];
    if (gethostname(host, sizeof host) != 0)
        return failed(err, errlen, "gethostname: %s", strerror(errno));
    host[strcspn(host, ".")] = '\0';
    char path[N_DAEMONS + 8][600];
    snprintf(path[0], sizeof path[0], "%s/munge.key", dir);
    snprintf(path[1], sizeof path[1], "%s/munge.socket", dir);
    snprintf(path[2], sizeof path[2], "%s/state", dir);
    snprintf(path[3], sizeof path[3], "%s/spool", dir);
    if (mkdir(path[2], 0755) != 0 || mkdir(path[3], 0755) != 0)
        return failed(err, errlen, "cannot make the daemons' directories in %s: %s", dir,
                      strerror(errno));
    /* munged checks that its key is private and the socket's directory open to all */
    unsigned char key[1024];
    FILE *r = fopen("/dev/urandom", "rb");
    if (!r || fread(key, 1, sizeof key, r) != sizeof key)
        return failed(err, errlen, "cannot read /dev/urandom for the munge key");
    fclose(r);
    write_bytes(path[0], key, sizeof key);
    if (chmod(path[0], 0400) != 0 || chmod(dir, 0755) != 0)
        return failed(err, errlen, "chmod in %s: %s", dir, strerror(errno));
    if (write_config(dir, host, err, errlen) != 0)
        return -1;
    setenv("SLURM_CONF", conf_path, 1);

    char opt[5][700], log[N_DAEMONS][600];
    for (int d = 0; d < N_DAEMONS; d++)
        snprintf(log[d], sizeof log[d], "%s/%s.out", dir, daemon_name[d]);
    snprintf(opt[0], sizeof opt[0], "--key-file=%s", path[0]);
    snprintf(opt[1], sizeof opt[1], "--socket=%s", path[1]);
    snprintf(opt[2], sizeof opt[2], "--pid-file=%s/munged.pid", dir);
    snprintf(opt[3], sizeof opt[3], "--log-file=%s/munged.log", dir);
    snprintf(opt[4], sizeof opt[4], "--seed-file=%s/munged.seed", dir);
    char *munged[] = { "munged", "-F", opt[0], opt[1], opt[2], opt[3], opt[4], NULL };
    daemon_pid[MUNGED] = start_daemon(munged, log[MUNGED]);
    if (daemon_pid[MUNGED] < 0 ||
        wait_until(exists, path[1], 20, "munged's socket", dir, err, errlen) != 0)
        return -1;
    char *slurmctld[] = { "slurmctld", "-D", "-i", "-f", conf_path, NULL };
    daemon_pid[SLURMCTLD] = start_daemon(slurmctld, log[SLURMCTLD]);
    char *slurmd[] = { "slurmd", "-D", "-f", conf_path, "-N", host, NULL };
    daemon_pid[SLURMD] = start_daemon(slurmd, log[SLURMD]);
    if (daemon_pid[SLURMCTLD] < 0 || daemon_pid[SLURMD] < 0)
        return failed(err, errlen, "fork: %s", strerror(errno));
    return wait_until(node_idle, NULL, 60, "the node idle", dir, err, errlen);
}

static bool no_jobs(const char *unused)
{
    (void)unused;
    const char *argv[] = { "squeue", "-h", "-o", "%i", NULL };
    const char *out = client(argv);
    return !out || out[0] == '\0';
}

void slurm_cluster_stop(void)
{
    if (alive(SLURMCTLD)) {
        const char *cancel[] = { "scancel", "--quiet", "--user=root", NULL };
        client(cancel);
        char err[ERRMSG_LEN];
        if (wait_until(no_jobs, NULL, 60, "every job ended", "the scratch directory", err,
                       sizeof err) != 0)
            fprintf(stderr, "slurm tests: %s\n", err);
    }
    for (int d = N_DAEMONS - 1; d >= 0; d--) {
        if (daemon_pid[d] <= 0)
            continue;
        kill(daemon_pid[d], SIGTERM);
        int i = 0;
        while (alive(d) && i++ < 100)
            sleep_ms(100);
        if (alive(d)) {
            fprintf(stderr, "slurm tests: %s (pid %d) ignored SIGTERM: killed\n", daemon_name[d],
                    (int)daemon_pid[d]);
            kill(daemon_pid[d], SIGKILL);
            waitpid(daemon_pid[d], NULL, 0);
        }
        daemon_pid[d] = 0;
    }
}

long slurm_submit(const char *const *args)
{
    const char *argv[64] = { "sbatch", "--parsable" };
    int n = 2;
    for (int i = 0; args[i] && n < 63; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    Run r = run_program(argv);
    if (r.status != 0)
        fail_msg("sbatch failed (status %d): %s", r.status, r.err);
    long id = strtol(r.out, NULL, 10);
    run_free(&r);
    assert_true(id > 0);
    return id;
}

/* The value of key (as "Key=") in one line of `scontrol show job -o`, into out. */
static void field(const char *line, const char *key, char *out, size_t len)
{
    char k[64];
    snprintf(k, sizeof k, " %s=", key);
    const char *at = strstr(line, k);
    out[0] = '\0';
    if (!at)
        return;
    at += strlen(k);
    size_t n = strcspn(at, " \n");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), at);
}

static bool final_state(const char *s)
{
    static const char *const final[] = { "COMPLETED", "FAILED",    "CANCELLED",
                                         "TIMEOUT",   "NODE_FAIL", "OUT_OF_MEMORY",
                                         "BOOT_FAIL", "DEADLINE",  "PREEMPTED" };
    for (size_t i = 0; i < sizeof final / sizeof final[0]; i++)
        if (strcmp(s, final[i]) == 0)
            return true;
    return false;
}

int slurm_wait(long id, int timeout, SlurmJob *tasks, int max)
{
    char ids[32];
    snprintf(ids, sizeof ids, "%ld", id);
    const char *argv[] = { "scontrol", "show", "job", "-o", ids, NULL };
    for (int tick = 0; tick < timeout * 2; tick++, sleep_ms(500)) {
        const char *out = client(argv);
        if (!out)
            continue;
        int n = 0;
        bool done = true;
        for (const char *line = out; *line && n < max; n++) {
            const char *end = strchr(line, '\n');
            size_t len = end ? (size_t)(end - line) : strlen(line);
            char one[8192], v[64];
            snprintf(one, sizeof one, " %.*s", (int)(len < sizeof one - 2 ? len : 0), line);
            SlurmJob *j = &tasks[n];
            field(one, "JobState", j->state, sizeof j->state);
            field(one, "ArrayTaskId", v, sizeof v);
            /* a pending remainder of an array ("1-3") is not one task that ended */
            j->task = v[0] ? (strpbrk(v, "-,%") ? -2 : atoi(v)) : -1;
            field(one, "Restarts", v, sizeof v);
            j->restarts = atoi(v);
            field(one, "ExitCode", v, sizeof v);
            j->exit_code = atoi(v);
            j->signal = strchr(v, ':') ? atoi(strchr(v, ':') + 1) : 0;
            done = done && final_state(j->state) && j->task != -2;
            line = end ? end + 1 : line + len;
        }
        if (done && n > 0)
            return n;
    }
    fail_msg("job %ld has not ended within %d s", id, timeout);
    return 0;
}
