/* SPDX-License-Identifier: MIT */
/* The distributed perft job, from its options to its result: every rank starts the job with
 * the same options; rank 0 splits it (or reads the checkpoint back), creates the result file and
 * coordinates, the others count; rank 0 prints the result as `carrera perft` does. A failure
 * before the counting starts stops every rank together with one message; a failure during it
 * (the disk, a worker) leaves the checkpoint and aborts the whole job. */
#define _POSIX_C_SOURCE 200809L

#include "perft_run.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "exit_status.h"
#include "comm.h"
#include "errmsg.h"
#include "estimate.h"
#include "paths.h"
#include "perft_config.h"
#include "perft_distribute.h"
#include "perft_file.h"
#include "provenance.h"
#include "run_error.h"
#include "stop_signal.h"
#include "turn.h"
#include "job_tables.h"
#include "unit_counter.h"
#include "split.h"

/* Rank 0's set-up: a new split and result file, or the checkpoint read back. Returns 0, or the
 * exit status with a message in err. */
static int start_rank0(const PerftRun *job, const Provenance *prov, int ranks, int threads,
                       Split *split, PerftFile **h, char *err, size_t errlen)
{
    const Variant *v = job->setup.variant;
    Position root;
    position_from_setup(&root, &job->setup);
    char fen[FEN_MAX];
    setup_to_fen(&job->setup, v->castle960 ? FEN_CASTLING_SHREDDER : FEN_CASTLING_KQ, fen,
                 sizeof fen);
    PerftFileInfo info = { .variant = v->name,
                           .rules = job->rules,
                           .fen = fen,
                           .depth = job->depth,
                           .split_depth = job->split_depth,
                           .key_seed = job->key_seed,
                           .prov = prov,
                           .checkpoint_interval = job->checkpoint_interval,
                           .lock_wait = RESUME_LOCK_WAIT };
    const bool exists = access(job->output, F_OK) == 0;
    if (resume_wanted(job->resume, exists)) {
        if (!exists) {
            errmsg_set(err, errlen,
                       "%s: no checkpoint to resume (the file does not exist); start "
                       "the job without --resume",
                       job->output);
            return EXIT_USAGE;
        }
        *h = perft_file_open_resume(job->output, &info, split, err, errlen);
        return *h ? EXIT_OK : EXIT_USAGE;
    }
    if (exists) {
        errmsg_set(err, errlen,
                   "%s already exists: add --resume to continue that job, or choose "
                   "another output",
                   job->output);
        return EXIT_USAGE;
    }
    if (make_parent_dirs(job->output, err, errlen) != 0)
        return EXIT_FAILED;
    int sd = job->split_depth > 0
                 ? job->split_depth
                 : split_choose_depth(&root, &job->rules, job->depth, ranks, threads);
    if (split_make(&root, &job->rules, job->depth, sd, split) != 0) {
        errmsg_set(err, errlen, "out of memory splitting the job at depth %d", sd);
        return EXIT_FAILED;
    }
    info.split_depth = split->split_depth;
    *h = perft_file_create(job->output, &info, split, err, errlen);
    return *h ? EXIT_OK : EXIT_FAILED;
}

/* What `carrera perft` prints (divide_print's format). */
static void print_result(const PerftRun *job, const Split *split, uint64_t total)
{
    const Variant *v = job->setup.variant;
    if (job->divide) {
        uint64_t *per_root = calloc(split->n_root ? split->n_root : 1, sizeof *per_root);
        if (per_root && split_divide(split, per_root) == 0) {
            for (size_t i = 0; i < split->n_root; i++) {
                char text[TURN_TEXT_MAX];
                turn_to_uci(&split->root_turns[i], v, v->castle960, text);
                printf("%s: %" PRIu64 "\n", text, per_root[i]);
            }
        }
        free(per_root);
        putchar('\n');
    }
    if (job->rules.turns != TURNS_SINGLE)
        printf("Unit: turns (%s, %s en passant)\n", turn_rules_name(job->rules.turns),
               ep_rule_name(job->rules.ep));
    printf("Nodes searched: %" PRIu64 "\n", total);
    fflush(stdout);
}

int perft_run(const PerftRun *job)
{
    const double start = monotonic_seconds();
    char err[ERRMSG_LEN] = "";
    stop_signal_install();
    if (comm_init(NULL, NULL, err, sizeof err) != 0)
        return run_error(EXIT_FAILED, "%s", err);
    const int rank = comm_rank(), ranks = comm_size();
    const int threads = job->threads > 0 ? job->threads : omp_get_max_threads();
    char **hosts = NULL;
    int status = EXIT_OK;
    if (comm_gather_hosts(&hosts) != 0) {
        snprintf(err, sizeof err, "out of memory gathering the host names");
        status = EXIT_FAILED;
    }
    UnitCounter counter = { 0 };
    /* Every rank was given the same job (the same command line, or the same configuration file
     * read by each rank), so every rank builds the same keys; a table's keys never leave its
     * rank, but the split's merged transpositions and the recorded seed assume them. */
    if (status == 0 && !position_init_tables(job->key_seed)) {
        snprintf(err, sizeof err,
                 "the hash keys were built before the key seed %" PRIu64 " was known",
                 job->key_seed);
        status = EXIT_FAILED;
    }
    if (status == 0 &&
        estimate_check_memory(job->hash_bytes, "the hash table would", err, sizeof err) != 0)
        status = EXIT_USAGE;
    const size_t own_bytes = job_tables_own_bytes(job, ranks); /* on every rank: collective */
    if (status == 0 && unit_counter_init(&counter, job->setup.variant, &job->rules, threads,
                                         own_bytes, err, sizeof err) != 0)
        status = EXIT_FAILED;
    Split split = { 0 };
    PerftFile *h = NULL;
    Provenance prov;
    JobTables tables = { 0 };
    Position root;
    position_from_setup(&root, &job->setup);
    status = comm_agree(status, err);
    if (status == 0) {
        job_tables_init(&tables, job, &counter, &root);
        if (rank == 0) {
            provenance_init(&prov, ranks, threads, (const char *const *)hosts, (size_t)ranks,
                            job->config_text);
            prov.tables = tables.text;
            status = start_rank0(job, &prov, ranks, threads, &split, &h, err, sizeof err);
        }
        status = comm_agree(status, err);
        if (status != 0)
            job_tables_free(&tables, &counter);
    }
    if (status != 0) {
        if (h)
            perft_file_close(h, err, sizeof err);
        split_free(&split);
        unit_counter_free(&counter);
        comm_free_hosts(hosts, ranks);
        comm_finalize();
        return status;
    }
    /* whether the ranks find each other's counts (a shared table of 0 bytes holds none) */
    const bool sharing = tables.shared && shared_table_bytes(tables.shared) > 0;
    if (rank != 0) {
        if (perft_distribute_run(NULL, NULL, &counter, sharing, true, NULL, err, sizeof err) != 0)
            comm_abort(run_error(EXIT_FAILED, "rank %d: %s", rank, err));
        job_tables_gather(&counter, NULL);
        job_tables_free(&tables, &counter);
        unit_counter_free(&counter);
        comm_finalize();
        return EXIT_OK;
    }

    estimate_note_perft(&root, &job->rules, job->depth, threads, ranks, job->hash_bytes > 0, true);
    size_t done_before = 0;
    for (size_t i = 0; i < split.n_units; i++)
        done_before += split.units[i].nodes != UNIT_NOT_DONE;
    if (!job->quiet) {
        if (perft_file_resume_count(h) > 0)
            fprintf(stderr, "perft: resuming %s (resume %d): %zu of %zu units counted before\n",
                    job->output, perft_file_resume_count(h), done_before, split.n_units);
        fprintf(stderr, "perft: %zu unit%s at split depth %d, %d rank%s x %d thread%s\n",
                split.n_units, split.n_units == 1 ? "" : "s", split.split_depth, ranks,
                ranks == 1 ? "" : "s", threads, threads == 1 ? "" : "s");
        fprintf(stderr, "tables: %s\n", tables.text);
    }
    FarmStats fs = { 0 };
    if (perft_distribute_run(&split, h, &counter, sharing, job->quiet, &fs, err, sizeof err) != 0) {
        run_error(EXIT_FAILED,
                  "%s; the checkpoint %s keeps the units recorded: --resume continues it", err,
                  job->output);
        char closing[512];
        if (perft_file_close(h, closing, sizeof closing) != 0)
            run_error(EXIT_FAILED, "%s", closing);
        comm_abort(EXIT_FAILED);
    }
    PerftTTWork *work = calloc((size_t)ranks, sizeof *work);
    if (!work)
        comm_abort(run_error(EXIT_FAILED, "out of memory gathering the work"));
    job_tables_gather(&counter, work);
    job_tables_free(&tables, &counter);
    if (counter.tt)
        perft_file_set_work(h, work, (size_t)ranks);
    uint64_t total = 0;
    int rc = EXIT_OK;
    if (perft_file_finish(h, &split, NULL, 0, NULL, &total, err, sizeof err) != 0) {
        rc = run_error(EXIT_FAILED, "%s", err);
    } else {
        print_result(job, &split, total);
        double seconds = monotonic_seconds() - start;
        fprintf(stderr,
                "time: %.2f s (%zu units counted, %zu by rank 0, whose counting thread "
                "was busy %.0f%% of the time; coordinating: %.1f us of CPU a unit)\n",
                seconds, (size_t)fs.tasks, (size_t)fs.tasks_local,
                fs.seconds > 0 ? 100.0 * fs.local_busy / fs.seconds : 0.0,
                fs.tasks ? 1e6 * fs.coordinator_cpu / (double)fs.tasks : 0.0);
        if (counter.tt)
            job_tables_print(work, ranks);
        fprintf(stderr, "result: %s\n", job->output);
        if (ferror(stdout))
            rc = run_error(EXIT_FAILED, "cannot write the output");
    }
    free(work);
    split_free(&split);
    unit_counter_free(&counter);
    comm_free_hosts(hosts, ranks);
    comm_finalize();
    return rc;
}

int perft_run_config(const char *path, const char *out, ResumeMode resume, bool divide, bool quiet)
{
    char err[ERRMSG_LEN] = "";
    if (comm_init(NULL, NULL, err, sizeof err) != 0)
        return run_error(EXIT_FAILED, "%s", err);
    PerftConfig c;
    const bool read = perft_config_read(path, &c, err, sizeof err) == 0;
    int status = comm_agree(read ? EXIT_OK : EXIT_USAGE, err);
    if (status != 0) {
        if (read)
            perft_config_free(&c);
        comm_finalize();
        return status;
    }
    PerftRun job = {
        .setup = c.setup,
        .rules = c.rules,
        .depth = c.depth,
        .split_depth = c.split_depth == CONFIG_SPLIT_AUTO ? 0 : c.split_depth,
        .threads = c.threads,
        .hash_bytes = (size_t)c.hash_mb << 20,
        .no_shared = !c.shared_table,
        .shared_depth = c.shared_depth,
        .shared_bytes =
            c.shared_mb == CONFIG_SHARED_MB_AUTO ? PERFT_SHARED_AUTO : (size_t)c.shared_mb << 20,
        .key_seed = c.key_seed,
        .output = out ? out : c.output,
        .checkpoint_interval = c.checkpoint_interval,
        .resume = resume,
        .divide = divide,
        .quiet = quiet,
        .config_text = c.text,
    };
    int rc = perft_run(&job);
    perft_config_free(&c);
    return rc;
}
