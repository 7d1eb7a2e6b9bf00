/* SPDX-License-Identifier: MIT */
/* SIGTERM and SIGINT as a request to stop (stop_signal.h). */
#define _POSIX_C_SOURCE 200809L

#include "stop_signal.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t received;

static void on_signal(int sig)
{
    if (received) {
        /* asked twice: go now, as the signal would have done */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    received = sig;
}

void stop_signal_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
}

int stop_signal_received(void) { return received; }
