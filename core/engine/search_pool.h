/* SPDX-License-Identifier: MIT */
/* The helper threads of a parallel search (private to the search's files): long-lived threads
 * that sleep between searches, each running the same work with its own index when a round starts,
 * and a round that ends when every one of them has returned. search.c gives them the work (Lazy
 * SMP: every helper searches the root over the shared table) and ends a round by a flag of its
 * own, which the work polls.
 *
 * POSIX threads rather than OpenMP's: a search's helpers live as long as the Threads setting,
 * started once and parked on a condition variable between moves (an OpenMP team is made for one
 * parallel region and, between regions, spins or sleeps at the runtime's discretion, on cores
 * that a match's other engine or a GUI needs); the UCI and xboard servers already run their search
 * on a POSIX thread, under which an OpenMP region would be a nested team of its own. */
#ifndef CARRERA_SEARCH_POOL_H
#define CARRERA_SEARCH_POOL_H

#include <pthread.h>
#include <stdbool.h>

typedef void (*SearchPoolWork)(void *ctx, int index);

typedef struct SearchPool {
    int n; /* threads */
    pthread_t *threads;
    pthread_mutex_t lock;
    pthread_cond_t wake, idle;
    unsigned long round; /* rounds started: a thread works once per round */
    int busy;            /* threads still working in this round */
    bool quit;
    SearchPoolWork work;
    void *ctx;
} SearchPool;

/* Starts n threads (n >= 1) that will run work(ctx, index), index 0 to n - 1, once per round;
 * false (nothing started) when the system refuses a thread or memory runs out. */
bool search_pool_start(SearchPool *p, int n, SearchPoolWork work, void *ctx);

/* Starts a round: every thread runs its work. What the caller wrote before is visible to it. */
void search_pool_run(SearchPool *p);

/* Waits until every thread has returned from the round's work (what they wrote is then visible
 * to the caller). */
void search_pool_wait(SearchPool *p);

/* Ends and joins the threads (no round may be running). */
void search_pool_stop(SearchPool *p);

#endif
