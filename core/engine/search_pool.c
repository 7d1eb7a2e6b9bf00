/* SPDX-License-Identifier: MIT */
/* The helper threads of a parallel search (search_pool.h). */
#include "search_pool.h"

#include <stdlib.h>

typedef struct PoolThread {
    SearchPool *pool;
    int index;
} PoolThread;

static void *thread_main(void *arg)
{
    PoolThread *me = arg;
    SearchPool *p = me->pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->round == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        seen = p->round;
        pthread_mutex_unlock(&p->lock);
        p->work(p->ctx, me->index);
        pthread_mutex_lock(&p->lock);
        if (--p->busy == 0)
            pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->lock);
    free(me);
    return NULL;
}

bool search_pool_start(SearchPool *p, int n, SearchPoolWork work, void *ctx)
{
    *p = (SearchPool){ .n = 0, .work = work, .ctx = ctx };
    p->threads = calloc((size_t)n, sizeof *p->threads);
    if (!p->threads)
        return false;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
    for (int i = 0; i < n; i++) {
        PoolThread *t = malloc(sizeof *t);
        if (t)
            *t = (PoolThread){ p, i };
        if (!t || pthread_create(&p->threads[i], NULL, thread_main, t) != 0) {
            free(t);
            search_pool_stop(p);
            return false;
        }
        p->n++;
    }
    return true;
}

void search_pool_run(SearchPool *p)
{
    pthread_mutex_lock(&p->lock);
    p->busy = p->n;
    p->round++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

void search_pool_wait(SearchPool *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->busy > 0)
        pthread_cond_wait(&p->idle, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void search_pool_stop(SearchPool *p)
{
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->n; i++)
        pthread_join(p->threads[i], NULL);
    free(p->threads);
    pthread_cond_destroy(&p->idle);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    *p = (SearchPool){ 0 };
}
