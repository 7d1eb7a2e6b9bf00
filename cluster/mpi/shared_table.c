/* SPDX-License-Identifier: MIT */
/* The job's perft table over MPI windows (shared_table.h). One window, allocated by MPI so that
 * ranks on one node may share its memory directly, each rank's part an array of buckets of four
 * entries (eight 64-bit words, as in perft_tt.c). A key's low half picks one bucket among all the
 * ranks' buckets, and so its rank. The window stays open for the whole job in one passive epoch
 * (MPI_Win_lock_all), so any thread may read or write any rank's part at any time without the
 * target's help; each operation is waited for by its own request before the thread goes on. */
#define _POSIX_C_SOURCE 200809L

#include "shared_table.h"

#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "clock.h"
#include "comm.h"
#include "errmsg.h"

enum { WAYS = 4, WORDS = 2 * WAYS }; /* a bucket: WAYS entries of (check, data) */

struct SharedTable {
    MPI_Win win;
    MPI_Comm comm;
    uint64_t *base;   /* this rank's part, touched only through MPI */
    size_t per_rank;  /* buckets on each rank, the same on all */
    uint64_t buckets; /* per_rank times the ranks */
    int rank;
};

SharedTable *shared_table_new(size_t bytes, char *err, size_t errlen)
{
    /* Every rank learns the same outcome: a failure on one is a failure on all. */
    if (comm_max(!comm_threads_multiple())) {
        errmsg_set(err, errlen,
                   "the MPI library does not let every thread call it (no "
                   "MPI_THREAD_MULTIPLE)");
        return NULL;
    }
    SharedTable *t = calloc(1, sizeof *t);
    if (comm_max(t == NULL)) {
        free(t);
        errmsg_set(err, errlen, "out of memory");
        return NULL;
    }
    /* The smallest part any rank asked for, so that a key's bucket is the same everywhere. */
    unsigned long long want = bytes / (WORDS * sizeof(uint64_t)), fewest = want;
    MPI_Allreduce(&want, &fewest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    t->per_rank = (size_t)fewest;
    t->buckets = (uint64_t)t->per_rank * (uint64_t)comm_size();
    MPI_Comm_dup(MPI_COMM_WORLD, &t->comm);
    MPI_Comm_rank(t->comm, &t->rank);
    /* A refused window (no memory, no one-sided component) is reported, not fatal. */
    MPI_Comm_set_errhandler(t->comm, MPI_ERRORS_RETURN);
    MPI_Info info;
    MPI_Info_create(&info);
    /* At one place only reads (MPI_NO_OP) and writes of one kind (MPI_REPLACE) meet. */
    MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
    MPI_Info_set(info, "same_disp_unit", "true");
    const MPI_Aint size = (MPI_Aint)(t->per_rank * WORDS * sizeof(uint64_t));
    const bool made =
        MPI_Win_allocate(size, sizeof(uint64_t), info, t->comm, &t->base, &t->win) == MPI_SUCCESS;
    MPI_Info_free(&info);
    if (comm_max(!made)) {
        if (made)
            MPI_Win_free(&t->win);
        MPI_Comm_free(&t->comm);
        free(t);
        errmsg_set(err, errlen, "MPI could not make a window of %zu MB on every rank", bytes >> 20);
        return NULL;
    }
    /* Zero words are empty entries. Written under a lock of this rank's own part, before the
     * barrier that every rank passes before its first access. */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t->rank, 0, t->win);
    memset(t->base, 0, (size_t)size);
    MPI_Win_unlock(t->rank, t->win);
    MPI_Barrier(t->comm);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, t->win);
    return t;
}

void shared_table_free(SharedTable *t)
{
    if (!t)
        return;
    MPI_Win_unlock_all(t->win);
    MPI_Win_free(&t->win);
    MPI_Comm_free(&t->comm);
    free(t);
}

size_t shared_table_bytes(const SharedTable *t) { return t->per_rank * WORDS * sizeof(uint64_t); }

/* The rank and bucket of a key's low half: its place among all buckets by a multiplication, as
 * in perft_tt.c, the ranks' parts one after the other. */
static void place(const SharedTable *t, uint64_t lo, int *rank, MPI_Aint *bucket)
{
    const uint64_t g = (uint64_t)(((unsigned __int128)lo * t->buckets) >> 64);
    *rank = (int)(g / t->per_rank);
    *bucket = (MPI_Aint)(g % t->per_rank);
}

/* Reads a bucket atomically word by word. */
static void read_bucket(SharedTable *t, int rank, MPI_Aint bucket, uint64_t words[WORDS])
{
    MPI_Request req;
    MPI_Rget_accumulate(NULL, 0, MPI_UINT64_T, words, WORDS, MPI_UINT64_T, rank, bucket * WORDS,
                        WORDS, MPI_UINT64_T, MPI_NO_OP, t->win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

bool shared_table_probe(void *ctx, uint64_t lo, uint64_t hi, uint64_t *count, PerftTTWork *w)
{
    SharedTable *t = ctx;
    if (!t->buckets)
        return false;
    int rank;
    MPI_Aint bucket;
    place(t, lo, &rank, &bucket);
    uint64_t words[WORDS];
    read_bucket(t, rank, bucket, words);
    if (rank != t->rank) {
        w->shared_remote++;
        w->shared_bytes += sizeof words;
    }
    for (int i = 0; i < WAYS; i++)
        if (perft_tt_entry_read(words[2 * i], words[2 * i + 1], hi, count))
            return true;
    return false;
}

void shared_table_store(void *ctx, uint64_t lo, uint64_t hi, int depth, uint64_t count,
                        PerftTTWork *w)
{
    SharedTable *t = ctx;
    const uint64_t data = perft_tt_entry_data(depth, count);
    if (!t->buckets || !data)
        return;
    int rank;
    MPI_Aint bucket;
    place(t, lo, &rank, &bucket);
    uint64_t words[WORDS];
    read_bucket(t, rank, bucket, words);
    /* The entry of the same key if there is one (no key twice in a bucket), else the
     * shallowest; empty entries have depth 0. */
    int victim = 0, shallowest = 256;
    for (int i = 0; i < WAYS; i++) {
        uint64_t c;
        if (perft_tt_entry_read(words[2 * i], words[2 * i + 1], hi, &c)) {
            victim = i;
            break;
        }
        const int d = perft_tt_entry_depth(words[2 * i + 1]);
        if (d < shallowest) {
            shallowest = d;
            victim = i;
        }
    }
    const uint64_t entry[2] = { hi ^ data, data };
    MPI_Request req;
    MPI_Raccumulate(entry, 2, MPI_UINT64_T, rank, bucket * WORDS + 2 * victim, 2, MPI_UINT64_T,
                    MPI_REPLACE, t->win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank != t->rank) {
        w->shared_remote++;
        w->shared_bytes += sizeof words + sizeof entry;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double shared_table_latency(SharedTable *t, int n)
{
    double median = 0;
    const int size = comm_size();
    double *times = n > 0 ? malloc((size_t)n * sizeof *times) : NULL;
    if (times && t->per_rank > 0 && size > 1) {
        const int next = (t->rank + 1) % size;
        uint64_t words[WORDS];
        for (int i = 0; i < n; i++) {
            const double start = monotonic_seconds();
            read_bucket(t, next, (MPI_Aint)((size_t)i % t->per_rank), words);
            times[i] = monotonic_seconds() - start;
        }
        qsort(times, (size_t)n, sizeof *times, cmp_double);
        median = times[n / 2];
    }
    free(times);
    double largest = median;
    MPI_Allreduce(&median, &largest, 1, MPI_DOUBLE, MPI_MAX, t->comm);
    return largest;
}
