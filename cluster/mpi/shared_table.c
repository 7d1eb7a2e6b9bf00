/* SPDX-License-Identifier: MIT */
/* The job's perft table (shared_table.h) over MPI windows. Each rank's part is an array of
 * buckets of four entries (eight 64-bit words, as in perft_tt.c); a key's low half picks one
 * bucket among all the ranks' buckets, and so its rank. The parts of the ranks of one node lie in
 * one shared-memory window (MPI_Win_allocate_shared), so that each of them reads and writes the
 * others' parts with plain atomic loads and stores, as threads share the lockless table of one
 * process. The ranks of other nodes are reached through a second window over the same memory
 * (MPI_Win_create) by MPI's one-sided accumulate operations, atomic word by word; it stays open
 * for the whole job in one passive epoch (MPI_Win_lock_all), so any thread may read or write any
 * rank's part at any time without the target's help, each operation waited for by its own
 * request. The environment variable CARRERA_SHARED_TABLE_MPI=1 sends every access through that
 * second window, as if each rank were on a node of its own: how a test exercises it on one node. */
#define _DEFAULT_SOURCE /* madvise */

#include "shared_table.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older C libraries do not name it */
#endif

#include <mpi.h>

#include "clock.h"
#include "comm.h"
#include "errmsg.h"

enum { WAYS = 4, WORDS = 2 * WAYS }; /* a bucket: WAYS entries of (check, data) */

struct SharedTable {
    MPI_Comm comm;            /* every rank of the job */
    MPI_Comm node;            /* the ranks of this node */
    MPI_Win node_win;         /* the node's parts, in shared memory */
    MPI_Win win;              /* every part through MPI; MPI_WIN_NULL when no access needs it */
    _Atomic uint64_t **parts; /* each rank's part by its rank, NULL when reached through win */
    size_t per_rank;          /* buckets on each rank, the same on all */
    uint64_t buckets;         /* per_rank times the ranks */
    int rank, direct;         /* direct: the parts reached through memory */
};

/* Whether every access must go through MPI (CARRERA_SHARED_TABLE_MPI=1). */
static bool forced_mpi(void)
{
    const char *v = getenv("CARRERA_SHARED_TABLE_MPI");
    return v && strcmp(v, "1") == 0;
}

bool shared_table_node_wide(void)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, comm_rank(), MPI_INFO_NULL, &node);
    int n;
    MPI_Comm_size(node, &n);
    MPI_Comm_free(&node);
    return !comm_max(forced_mpi() || n < comm_size());
}

/* The parts of this node's ranks, by their ranks in t->comm, in t->parts. */
static void find_node_parts(SharedTable *t)
{
    int n;
    MPI_Comm_size(t->node, &n);
    MPI_Group node_group, group;
    MPI_Comm_group(t->node, &node_group);
    MPI_Comm_group(t->comm, &group);
    for (int i = 0; i < n; i++) {
        int r;
        MPI_Group_translate_ranks(node_group, 1, &i, group, &r);
        MPI_Aint size;
        int unit;
        void *base;
        MPI_Win_shared_query(t->node_win, i, &size, &unit, &base);
        t->parts[r] = base;
        t->direct++;
    }
    MPI_Group_free(&node_group);
    MPI_Group_free(&group);
}

/* Frees what shared_table_new made; the windows and communicators still MPI_*_NULL are skipped. */
static void release(SharedTable *t)
{
    if (t->win != MPI_WIN_NULL)
        MPI_Win_free(&t->win);
    if (t->node_win != MPI_WIN_NULL)
        MPI_Win_free(&t->node_win);
    if (t->node != MPI_COMM_NULL)
        MPI_Comm_free(&t->node);
    if (t->comm != MPI_COMM_NULL)
        MPI_Comm_free(&t->comm);
    free(t->parts);
    free(t);
}

/* Maps every page of the part at once, ahead of the memset that clears it. Shared memory comes in
 * pages of 4 KB (transparent huge pages are for a process's own memory), and a memset that
 * faults them in one at a time took 0.9 to 1.9 s a GB on the idle 2-core virtual machine, against
 * 0.6 to 1.1 s for this and 0.02 s for the memset that follows. A kernel without
 * MADV_POPULATE_WRITE (Linux before 5.14) refuses it, and the memset maps the pages. */
static void populate(void *base, size_t size)
{
#ifdef __linux__
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t from = ((uintptr_t)base + page - 1) & ~(page - 1);
    const uintptr_t to = ((uintptr_t)base + size) & ~(page - 1);
    if (to > from) {
        /* 2 MB pages where the administrator allows them for shared memory (/dev/shm mounted
         * with huge=advise); hints both: a failure changes nothing */
        madvise((void *)from, to - from, MADV_HUGEPAGE);
        madvise((void *)from, to - from, MADV_POPULATE_WRITE);
    }
#else
    (void)base;
    (void)size;
#endif
}

SharedTable *shared_table_new(size_t bytes, char *err, size_t errlen)
{
    SharedTable *t = calloc(1, sizeof *t);
    _Atomic uint64_t **parts = calloc((size_t)comm_size(), sizeof *parts);
    /* Every rank learns the same outcome: a failure on one is a failure on all. */
    if (comm_max(t == NULL || parts == NULL)) {
        free(t);
        free(parts);
        errmsg_set(err, errlen, "out of memory");
        return NULL;
    }
    t->parts = parts;
    t->win = t->node_win = MPI_WIN_NULL;
    /* The smallest part any rank asked for, so that a key's bucket is the same everywhere. */
    unsigned long long want = bytes / (WORDS * sizeof(uint64_t)), fewest = want;
    MPI_Allreduce(&want, &fewest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    t->per_rank = (size_t)fewest;
    t->buckets = (uint64_t)t->per_rank * (uint64_t)comm_size();
    MPI_Comm_dup(MPI_COMM_WORLD, &t->comm);
    MPI_Comm_rank(t->comm, &t->rank);
    MPI_Comm_split_type(t->comm, MPI_COMM_TYPE_SHARED, t->rank, MPI_INFO_NULL, &t->node);
    /* The same answers on every rank, whatever each one's environment says. */
    const bool forced = comm_max(forced_mpi()), by_mpi = !shared_table_node_wide();
    /* A refused window (no memory, no one-sided component) is reported, not fatal. */
    MPI_Comm_set_errhandler(t->comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(t->node, MPI_ERRORS_RETURN);
    MPI_Info info;
    MPI_Info_create(&info);
    /* Each rank's part in memory of its own (near its core), not one block for the node. */
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    /* At one place only reads (MPI_NO_OP) and writes of one kind (MPI_REPLACE) meet. */
    MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
    MPI_Info_set(info, "same_disp_unit", "true");
    const MPI_Aint size = (MPI_Aint)(t->per_rank * WORDS * sizeof(uint64_t));
    uint64_t *base = NULL;
    bool made = MPI_Win_allocate_shared(size, sizeof(uint64_t), info, t->node, &base,
                                        &t->node_win) == MPI_SUCCESS;
    /* Every thread calls MPI only when some access goes through it. */
    const bool threads = !by_mpi || comm_threads_multiple();
    if (made && threads && by_mpi)
        made = MPI_Win_create(base, size, sizeof(uint64_t), info, t->comm, &t->win) == MPI_SUCCESS;
    MPI_Info_free(&info);
    if (comm_max(!threads)) {
        release(t);
        errmsg_set(err, errlen,
                   "the MPI library does not let every thread call it (no "
                   "MPI_THREAD_MULTIPLE)");
        return NULL;
    }
    if (comm_max(!made)) {
        release(t);
        errmsg_set(err, errlen, "MPI could not make a window of %zu MB on every rank", bytes >> 20);
        return NULL;
    }
    if (!forced)
        find_node_parts(t);
    /* Zero words are empty entries; each rank clears its own part before the barrier that
     * every rank passes before its first access. Every part of the node is mapped into this
     * process first: else each first access to a page of another rank's part would be a page
     * fault of its own, 4 us on the 2-core virtual machine, more than the probe. */
    if (size > 0) {
        for (int r = 0; r < comm_size(); r++)
            if (t->parts[r] && r != t->rank)
                populate((void *)t->parts[r], (size_t)size);
        populate(base, (size_t)size);
        memset(base, 0, (size_t)size);
    }
    MPI_Barrier(t->comm);
    if (t->win != MPI_WIN_NULL)
        MPI_Win_lock_all(MPI_MODE_NOCHECK, t->win);
    return t;
}

void shared_table_free(SharedTable *t)
{
    if (!t)
        return;
    if (t->win != MPI_WIN_NULL)
        MPI_Win_unlock_all(t->win);
    release(t);
}

size_t shared_table_bytes(const SharedTable *t) { return t->per_rank * WORDS * sizeof(uint64_t); }

int shared_table_direct_ranks(const SharedTable *t) { return t->direct; }

/* The rank and bucket of a key's low half: its place among all buckets by a multiplication, as
 * in perft_tt.c, the ranks' parts one after the other. */
static void place(const SharedTable *t, uint64_t lo, int *rank, size_t *bucket)
{
    const uint64_t g = (uint64_t)(((unsigned __int128)lo * t->buckets) >> 64);
    *rank = (int)(g / t->per_rank);
    *bucket = (size_t)(g % t->per_rank);
}

/* Reads a bucket atomically word by word: from memory, or by MPI. */
static void read_bucket(SharedTable *t, int rank, size_t bucket, uint64_t words[WORDS])
{
    _Atomic uint64_t *part = t->parts[rank];
    if (part) {
        for (int i = 0; i < WORDS; i++)
            words[i] =
                atomic_load_explicit(&part[bucket * WORDS + (size_t)i], memory_order_relaxed);
        return;
    }
    MPI_Request req;
    MPI_Rget_accumulate(NULL, 0, MPI_UINT64_T, words, WORDS, MPI_UINT64_T, rank,
                        (MPI_Aint)(bucket * WORDS), WORDS, MPI_UINT64_T, MPI_NO_OP, t->win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

/* Writes entry way of a bucket, the data word first (as perft_tt.c does); a reader between the
 * two words sees a torn entry, which fails its check. */
static void write_entry(SharedTable *t, int rank, size_t bucket, int way, const uint64_t entry[2])
{
    _Atomic uint64_t *part = t->parts[rank];
    if (part) {
        _Atomic uint64_t *e = &part[bucket * WORDS + 2 * (size_t)way];
        atomic_store_explicit(&e[1], entry[1], memory_order_relaxed);
        atomic_store_explicit(&e[0], entry[0], memory_order_relaxed);
        return;
    }
    MPI_Request req;
    MPI_Raccumulate(entry, 2, MPI_UINT64_T, rank, (MPI_Aint)(bucket * WORDS + 2 * (size_t)way), 2,
                    MPI_UINT64_T, MPI_REPLACE, t->win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

bool shared_table_probe(void *ctx, uint64_t lo, uint64_t hi, uint64_t *count, PerftTTWork *w)
{
    SharedTable *t = ctx;
    if (!t->buckets)
        return false;
    int rank;
    size_t bucket;
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
    size_t bucket;
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
    write_entry(t, rank, bucket, victim, entry);
    if (rank != t->rank) {
        w->shared_remote++;
        w->shared_bytes += sizeof words + sizeof entry;
    }
}

void shared_table_prefetch(void *ctx, uint64_t lo)
{
    const SharedTable *t = ctx;
    if (!t->buckets)
        return;
    int rank;
    size_t bucket;
    place(t, lo, &rank, &bucket);
    if (t->parts[rank])
        __builtin_prefetch(&t->parts[rank][bucket * WORDS]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The i-th of the buckets a latency measurement reads: far apart, as a job's probes are, so that
 * the caches hold none of them. */
static size_t far_bucket(const SharedTable *t, int i)
{
    return (size_t)((uint64_t)i * 0x9E3779B97F4A7C15ull % t->per_rank);
}

/* A bucket in the same 4 KB page as bucket b (64 buckets of 64 bytes a page) but 2 KB away from
 * it, or b itself when that one is past the part's end. */
static size_t page_neighbour(const SharedTable *t, size_t b)
{
    return (b ^ 32) < t->per_rank ? b ^ 32 : b;
}

double shared_table_latency(SharedTable *t, int n)
{
    double median = 0;
    const int size = comm_size();
    double *times = n > 0 ? malloc((size_t)n * sizeof *times) : NULL;
    if (times && t->per_rank > 0 && size > 1) {
        const int next = (t->rank + 1) % size;
        uint64_t words[WORDS];
        /* First a read of another bucket of each page, untimed: a process's first access to a
         * page of shared memory may cost a fault (30 to 130 us a page on a virtual machine that
         * shadows the page tables), which a job pays once a page, not once a probe; the bucket
         * timed then is still one the caches do not hold. */
        for (int i = 0; i < n; i++)
            read_bucket(t, next, page_neighbour(t, far_bucket(t, i)), words);
        for (int i = 0; i < n; i++) {
            const double start = monotonic_seconds();
            read_bucket(t, next, far_bucket(t, i), words);
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
