/* Message passing between the ranks of a distributed perft or match: the only file of Carrera
 * that calls MPI (cluster/comm.c). Under a launcher (mpiexec, srun) it runs MPI; started directly, the
 * same binary is one process of rank 0 with no workers and no MPI at all, so a laptop, a test or
 * a single node need neither mpiexec nor a working MPI set-up.
 *
 * Messages (all between rank 0 and one worker, so MPI's ordering between two ranks is all that
 * is needed): rank 0 sends COMM_UNIT (a unit to count) or COMM_STOP (no more work); a worker
 * answers each unit with one COMM_RESULT. Waiting polls (probe, then a short sleep) instead of
 * blocking: Open MPI's blocking receive spins a core, which on a shared node steals it from the
 * counting threads. */
#ifndef CARRERA_COMM_H
#define CARRERA_COMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "turn.h"

/* A unit as it travels: enough for a worker to count it, nothing more. */
typedef struct CommUnit {
    uint64_t id;
    int32_t depth;
    char fen[FEN_MAX];
} CommUnit;

/* A worker's answer. status 0: nodes holds the count; otherwise the worker could not count the
 * unit and message says why (rank 0 stops the job with it). */
typedef struct CommResult {
    uint64_t id;
    uint64_t nodes;
    double seconds;
    int32_t status;
    char message[200];
} CommResult;

typedef enum CommKind { COMM_NONE, COMM_UNIT, COMM_STOP, COMM_RESULT } CommKind;

/* Starts MPI when a launcher started this process (threads other than the main one never call
 * MPI), else the serial mode. Returns 0, or -1 with a message in err (MPI would not start, or
 * the launcher started several tasks that MPI does not see as one job). Calling it again does
 * nothing. */
int comm_init(int *argc, char ***argv, char *err, size_t errlen);

/* Ends MPI (nothing in the serial mode). Every rank calls it once, after comm_init. */
void comm_finalize(void);

/* Ends the whole job now, every rank with it, with exit status code (serial mode: exit). */
_Noreturn void comm_abort(int code);

int comm_rank(void);
int comm_size(void);
bool comm_is_mpi(void);

/* Gathers each rank's host name at rank 0: there *hosts receives comm_size() malloc'd strings in
 * rank order (free with comm_free_hosts), elsewhere NULL. Collective. Returns 0 or -1 (memory). */
int comm_gather_hosts(char ***hosts);
void comm_free_hosts(char **hosts, int n);

/* The largest of every rank's value, on every rank (collective): rank 0's set-up status and the
 * workers' own, so that all ranks stop together when one of them cannot start. */
int comm_max(int value);

/* All ranks learn the worst status (collective); a failed rank's message is printed once, by
 * rank 0 when it failed, else by the workers that failed. Returns the worst status. */
int comm_agree(int status, const char *message);

/* Rank 0 to a worker. */
void comm_send_unit(int to, const CommUnit *u);
void comm_send_stop(int to);

/* A worker to rank 0. */
void comm_send_result(const CommResult *r);

/* Receives the next message for this rank if one has arrived (wait false) or waits for one
 * (wait true). A worker gets COMM_UNIT (into *unit) or COMM_STOP; rank 0 gets COMM_RESULT (into
 * *result, *from the worker's rank). COMM_NONE when nothing has arrived and wait is false. */
CommKind comm_poll(bool wait, CommUnit *unit, CommResult *result, int *from);

/* Packets: messages of any length whose bytes their user packs (the match's requests, pairs and
 * results), on a tag of their own so a job uses either units or packets. */
void comm_send_packet(int to, const void *data, size_t len);

/* The next packet for this rank if one has arrived (wait false) or the next one at all (wait
 * true): its malloc'd bytes (free them) with *len and the sender in *from; NULL when nothing has
 * arrived, and always in the serial mode. */
void *comm_poll_packet(bool wait, size_t *len, int *from);

#endif
