/* SPDX-License-Identifier: MIT */
/* The perft table of the whole job: one table partitioned over every rank, each bucket kept by
 * the rank its key names, reached from whichever thread counts: the parts of the ranks on the
 * same node through shared memory, those of other nodes by MPI's one-sided operations.
 * It is the second level of each rank's own table (perft_tt.h's PerftTTShared): the deep counts
 * go there, so that a subtree one rank counted is not counted again by another.
 *
 * Its entries have the form of the rank's table (two words, the check word the key's high half
 * XORed with the data word), and every access is atomic word by word (an atomic load or store, or
 * an MPI accumulate operation) whatever other ranks and threads do at the same moment: a bucket
 * read while another thread writes one of its entries may show that entry torn, and a torn entry
 * fails the check. So a count is trusted only when its whole 128-bit key matches, and concurrency
 * costs at most a miss.
 *
 * When some part is on another node, every thread calls MPI here: the table then needs
 * MPI_THREAD_MULTIPLE (comm_threads_multiple). */
#ifndef CARRERA_SHARED_TABLE_H
#define CARRERA_SHARED_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perft_tt.h"

typedef struct SharedTable SharedTable;

/* Makes the table over every rank, this rank keeping about bytes of it (every rank keeps the
 * smallest part any rank asked for; 0 bytes: a table that holds nothing, every probe misses).
 * Collective. Returns the table, or NULL with a message on every rank when any rank cannot
 * have it (no MPI_THREAD_MULTIPLE where MPI is needed, no memory, a window refused): the job then
 * runs without. CARRERA_SHARED_TABLE_MPI=1 in the environment reaches every part through MPI,
 * as if each rank had a node of its own. */
SharedTable *shared_table_new(size_t bytes, char *err, size_t errlen);

/* Whether a table made now would reach every rank's part through shared memory: every rank on
 * this node, and no switch forcing MPI. Collective. */
bool shared_table_node_wide(void);

/* Frees it once no thread of any rank uses it. Collective. */
void shared_table_free(SharedTable *t);

/* The bytes this rank keeps. */
size_t shared_table_bytes(const SharedTable *t);

/* How many ranks' parts (this rank's included) this rank reaches through shared memory. */
int shared_table_direct_ranks(const SharedTable *t);

/* The time of one probe of a bucket another rank keeps, in seconds: the median of n probes from
 * each rank to the next, the largest over the ranks (0 when no rank keeps a bucket). Collective. */
double shared_table_latency(SharedTable *t, int n);

/* The callbacks of PerftTTShared, ctx the table: a bucket read (64 bytes), and a store that
 * reads the bucket to choose the entry that gives way (an entry of the same key, else the
 * shallowest) and writes that entry (16 bytes). Accesses to another rank's part (through memory
 * or MPI) count in
 * w->shared_remote and w->shared_bytes. */
bool shared_table_probe(void *ctx, uint64_t lo, uint64_t hi, uint64_t *count, PerftTTWork *w);
void shared_table_store(void *ctx, uint64_t lo, uint64_t hi, int depth, uint64_t count,
                        PerftTTWork *w);
/* PerftTTShared's prefetch: a bucket in this node's memory starts coming into the cache. */
void shared_table_prefetch(void *ctx, uint64_t lo);

#endif
