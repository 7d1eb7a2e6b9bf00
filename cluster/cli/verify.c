/* SPDX-License-Identifier: MIT */
/* The `carrera verify` command: the options parsed and validated into a request, the positions,
 * the engine processes working through them in parallel (each a thread with its own engine,
 * restarted after a failure), the journal, progress on stderr and the reports. */
#define _POSIX_C_SOURCE 200809L

#include "verify.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_error.h"
#include "errmsg.h"
#include "number.h"
#include "options.h"
#include "oracle.h"
#include "progress.h"
#include "verify_check.h"
#include "verify_groups.h"
#include "verify_journal.h"
#include "verify_report.h"
#include "verify_sources.h"

#define DEFAULT_NODES     200000
#define MAX_NODES         1000000000000L
#define DEFAULT_TIMEOUT_S 60
#define MAX_TIMEOUT_S     1000000
#define MAX_JOBS          256
#define MAX_RANDOM        10000000L
#define MAX_SUITES        64

void verify_usage(FILE *out)
{
    fputs("usage: carrera verify (--engine COMMAND | --script COMMAND) [--variant NAME]\n"
          "                      [--turns RULES] [--ep-rule classic|modern]\n"
          "                      (--suite FILE | --random N [--seed S] | --starts)...\n"
          "                      [--depth D | --nodes N] [--jobs N] [--timeout SECONDS]\n"
          "                      [--junit FILE] [--json FILE] [--resume FILE] [--quiet]\n"
          "\n"
          "Checks an engine's perft against Carrera's on many positions, bisects every\n"
          "disagreement to the smallest position and the moves only one side has, and groups\n"
          "the findings by what differs.\n"
          "\n"
          "  --engine COMMAND  a UCI engine answering `go perft N` (as carrera bisect drives it)\n"
          "  --script COMMAND  a program run as `COMMAND DEPTH FEN [MOVES]` that prints\n"
          "                    `move count` lines, an empty line and the total (perftree's)\n"
          "  --variant NAME    rule set (default chess); --turns, --ep-rule as for perft\n"
          "  --suite FILE      EPD lines `FEN ;D1 20 ;D2 400 ... ;id NAME` (repeatable); the\n"
          "                    counts given are checked against Carrera first\n"
          "  --random N        N positions of seeded random play (--seed S, default 1)\n"
          "  --starts          the start positions: all 960 for chess960, 960 random arrays\n"
          "                    for caparandom, the start position otherwise\n"
          "  --nodes N         per position, the deepest depth whose perft is at most N nodes\n"
          "                    (default 200000)\n"
          "  --depth D         or one depth for every position\n"
          "  --jobs N          engine processes at once (default: the cores)\n"
          "  --timeout S       seconds for each answer of the engine (default 60)\n"
          "  --junit FILE      a JUnit XML report; --json FILE a JSON report\n"
          "  --resume FILE     a journal: a killed run given it again checks only the rest\n"
          "  --quiet           no progress on stderr\n"
          "\n"
          "Exit status: 0 every position agrees, 1 a disagreement, an engine failure on some\n"
          "position or a wrong suite line, 2 usage error, 3 the engine cannot be used at all\n"
          "or the run failed (a report that cannot be written, memory).\n",
          out);
}

typedef struct Verify {
    const VerifyPositions *ps;
    Outcome *outcomes;
    CheckPlan plan;
    OracleOptions engine;
    pthread_mutex_t lock;
    size_t next, done, todo, differ, failed;
    Journal journal;
    bool journaling;
    char journal_err[ERRMSG_LEN]; /* the journal could not be written: the run stops */
    Progress progress;
} Verify;

/* Records a position's outcome, in the journal too; called under the lock. */
static void record(Verify *v, size_t i, Outcome *o)
{
    v->outcomes[i] = *o;
    v->done++;
    v->differ += o->status == OUTCOME_DIFFER || o->status == OUTCOME_SUITE_WRONG;
    v->failed += o->status == OUTCOME_ENGINE_FAILED;
    if (v->journaling && !v->journal_err[0])
        journal_append(&v->journal, i, &v->ps->v[i], o, v->journal_err, sizeof v->journal_err);
    char eta[32];
    double elapsed = progress_due(&v->progress, v->done, v->todo, eta);
    if (elapsed > 0)
        progress_print(&v->progress,
                       "%zu/%zu positions, %zu disagree, %zu engine failures, %.1f positions/s, "
                       "ETA %s",
                       v->done, v->todo, v->differ, v->failed, (double)v->done / elapsed, eta);
}

static void *worker(void *arg)
{
    Verify *v = arg;
    Oracle e;
    bool running = false;
    for (;;) {
        pthread_mutex_lock(&v->lock);
        while (v->next < v->ps->n && v->outcomes[v->next].done)
            v->next++;
        size_t i = v->next++;
        bool stop = i >= v->ps->n || v->journal_err[0];
        pthread_mutex_unlock(&v->lock);
        if (stop)
            break;
        Outcome o = { .done = true, .status = OUTCOME_ENGINE_FAILED };
        char err[ERRMSG_LEN];
        if (!running && oracle_start(&e, &v->engine, err, sizeof err) != 0) {
            o.message = strdup(err);
        } else {
            running = true;
            verify_check(&v->plan, &e, &v->ps->v[i], &o);
            /* After a failure the engine's state is unknown: the next position gets a new one. */
            if (o.status == OUTCOME_ENGINE_FAILED) {
                oracle_stop(&e);
                running = false;
            }
        }
        pthread_mutex_lock(&v->lock);
        record(v, i, &o);
        pthread_mutex_unlock(&v->lock);
    }
    if (running)
        oracle_stop(&e);
    return NULL;
}

/* Whether the engine can be used at all: started, set up, and answering a perft of the first
 * position. Returns 0, or -1 with the reason in err. */
static int probe(const Verify *v, char *err, size_t errlen)
{
    Oracle e;
    if (oracle_start(&e, &v->engine, err, errlen) != 0)
        return -1;
    Divide d = { 0 };
    int rc = oracle_ask(&e, v->ps->v[0].fen, NULL, 1, err, errlen) == 0 &&
                     oracle_answer(&e, &d, err, errlen) == 0
                 ? 0
                 : -1;
    divide_free(&d);
    oracle_stop(&e);
    return rc;
}

/* Runs the jobs over the positions not yet done. */
static void run_jobs(Verify *v, long jobs)
{
    pthread_t threads[MAX_JOBS];
    long started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, worker, v) != 0)
            break;
    if (started == 0)
        worker(v);
    for (long t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    progress_finish(&v->progress);
}

typedef struct Args {
    PositionArgs pos;
    const char *engine, *script, *random, *seed, *depth, *nodes, *jobs, *timeout;
    const char *junit, *json, *resume;
    const char *suites[MAX_SUITES];
    int n_suites;
    bool starts, quiet;
} Args;

/* Takes every `--suite FILE` (or `--suite=FILE`) out of argv into a, the one option that may be
 * repeated; argv keeps the rest for options_parse. Returns the new argc, or -1 after a usage
 * error. */
static int take_suites(int argc, char **argv, Args *a)
{
    int kept = 1;
    for (int i = 1; i < argc; i++) {
        bool joined = strncmp(argv[i], "--suite=", 8) == 0;
        if (!joined && strcmp(argv[i], "--suite") != 0) {
            argv[kept++] = argv[i];
            continue;
        }
        if (!joined && i + 1 == argc)
            return cli_error("option --suite needs a value"), -1;
        if (a->n_suites == MAX_SUITES)
            return cli_error("more than %d --suite files", MAX_SUITES), -1;
        a->suites[a->n_suites++] = joined ? argv[i] + 8 : argv[++i];
    }
    return kept;
}

/* The text that names what a run checks, for the journal: everything that changes an outcome. */
static void describe(const Args *a, const Verify *v, char *out, size_t outlen)
{
    size_t used = (size_t)snprintf(
        out, outlen, "%s %s; %s, %s rules, %s en passant;", a->engine ? "engine" : "script",
        a->engine ? a->engine : a->script, v->plan.b.variant->name,
        turn_rules_name(v->plan.b.rules.turns), ep_rule_name(v->plan.b.rules.ep));
    for (int i = 0; i < a->n_suites && used < outlen; i++)
        used += (size_t)snprintf(out + used, outlen - used, " suite %s;", a->suites[i]);
    if (used < outlen)
        snprintf(out + used, outlen - used, " random %s seed %s;%s %s %s; %zu positions",
                 a->random ? a->random : "0", a->seed ? a->seed : "1", a->starts ? " starts;" : "",
                 v->plan.depth ? "depth" : "nodes",
                 v->plan.depth ? a->depth
                 : a->nodes    ? a->nodes
                               : "default",
                 v->ps->n);
}

/* The request once validated: what each position's check does, the engine, the jobs, the
 * random positions. */
typedef struct VerifyRequest {
    CheckPlan plan;
    OracleOptions engine;
    long jobs, n_random;
    uint64_t seed;
} VerifyRequest;

/* Checks every option and reads them into *r. Returns 0, or the exit status of the usage error
 * (reported). */
static int validate(const Args *a, VerifyRequest *r)
{
    if (!a->engine == !a->script)
        return cli_error(a->engine ? "give --engine or --script, not both"
                                   : "verify needs --engine COMMAND (a UCI engine) or --script "
                                     "COMMAND (perftree's protocol)");
    const char *command = a->engine ? a->engine : a->script;
    if (strspn(command, " \t\r\n") == strlen(command))
        return cli_error("the %s command is empty", a->engine ? "--engine" : "--script");
    if (a->pos.fen || a->pos.startpos || a->pos.chess960)
        return cli_error("verify takes its positions from --suite, --random and --starts");
    const Variant *variant;
    Rules rules;
    if (options_rules(&a->pos, &variant, &rules) != 0)
        return EXIT_USAGE;
    if (!a->n_suites && !a->random && !a->starts)
        return cli_error("verify needs positions: --suite FILE, --random N or --starts");
    if (a->depth && a->nodes)
        return cli_error("give --depth or --nodes, not both");
    int depth = 0;
    long nodes = DEFAULT_NODES, seed = 1, n_random = 0, timeout_s = DEFAULT_TIMEOUT_S;
    char err[ERRMSG_LEN];
    if (a->depth && divide_parse_depth(a->depth, &depth, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (a->depth && depth == 0)
        return cli_error("verify needs --depth of at least 1 (depth 0 has no moves to compare)");
    if (a->nodes && !number_parse(a->nodes, 1, MAX_NODES, &nodes))
        return cli_error("bad --nodes '%s': must be a whole number from 1 to %ld", a->nodes,
                         MAX_NODES);
    if (a->random && !number_parse(a->random, 1, MAX_RANDOM, &n_random))
        return cli_error("bad --random '%s': must be a number of positions from 1 to %ld",
                         a->random, MAX_RANDOM);
    if (a->seed && !a->random && !(a->starts && variant->random_array && variant->files == 10))
        return cli_error("--seed needs --random N (or --starts for caparandom)");
    if (a->seed && !number_parse(a->seed, 0, LONG_MAX, &seed))
        return cli_error("bad --seed '%s': must be a whole number", a->seed);
    if (a->timeout && !number_parse(a->timeout, 1, MAX_TIMEOUT_S, &timeout_s))
        return cli_error("bad --timeout '%s': must be a whole number of seconds from 1 to %d",
                         a->timeout, MAX_TIMEOUT_S);
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    if (a->jobs && !number_parse(a->jobs, 1, MAX_JOBS, &jobs))
        return cli_error("bad --jobs '%s': must be a whole number from 1 to %d", a->jobs, MAX_JOBS);
    *r = (VerifyRequest){
        .plan = { bisect_rules(variant, rules), depth, (uint64_t)nodes },
        .engine = { .protocol = a->engine ? ORACLE_UCI : ORACLE_SCRIPT,
                    .command = command,
                    .variant = variant,
                    .rules = rules,
                    .send_turns = a->pos.turns != NULL,
                    .send_ep = a->pos.ep_rule != NULL,
                    .timeout_ms = (int)(timeout_s * 1000) },
        .jobs = jobs < 1 ? 1 : jobs,
        .n_random = n_random,
        .seed = (uint64_t)seed,
    };
    return EXIT_OK;
}

/* The positions of the suites, the random ones and the starts, into *ps. Returns 0, or the exit
 * status of the usage error (reported). */
static int load_positions(const Args *a, const VerifyRequest *r, VerifyPositions *ps)
{
    const Variant *variant = r->engine.variant;
    const Rules *rules = &r->engine.rules;
    char err[ERRMSG_LEN];
    for (int i = 0; i < a->n_suites; i++)
        if (sources_add_suite(ps, a->suites[i], variant, rules, err, sizeof err) != 0)
            return cli_error("%s", err);
    if (a->random &&
        sources_add_random(ps, r->n_random, r->seed, variant, rules, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (a->starts && sources_add_starts(ps, r->seed, variant, err, sizeof err) != 0)
        return cli_error("%s", err);
    return EXIT_OK;
}

/* The groups of the findings, in the order of their first position. */
static bool group_all(const VerifyPositions *ps, const Outcome *outcomes, Groups *g)
{
    for (size_t i = 0; i < ps->n; i++) {
        const Outcome *o = &outcomes[i];
        if (o->status == OUTCOME_DIFFER &&
            !groups_add(g, o->group, i, o->finding.fen, o->finding.depth))
            return false;
    }
    return true;
}

/* Reports the run; returns the exit status. */
static int report(const Args *a, const Verify *v)
{
    const VerifyPositions *ps = v->ps;
    Groups groups = { 0 };
    if (!group_all(ps, v->outcomes, &groups))
        return run_error(EXIT_FAILED, "out of memory");
    char rules[128], err[1024];
    snprintf(rules, sizeof rules, "%s, %s", v->plan.b.variant->name,
             turn_rules_name(v->plan.b.rules.turns));
    if (v->plan.b.rules.turns != TURNS_SINGLE)
        snprintf(rules + strlen(rules), sizeof rules - strlen(rules), ", %s en passant",
                 ep_rule_name(v->plan.b.rules.ep));
    VerifyRun run = { ps, v->outcomes, &groups, rules, v->engine.command };
    report_text(stdout, &run);
    int status = EXIT_OK;
    size_t failed = 0;
    for (size_t i = 0; i < ps->n; i++) {
        if (v->outcomes[i].status != OUTCOME_AGREE)
            status = EXIT_NEGATIVE;
        failed += v->outcomes[i].status == OUTCOME_ENGINE_FAILED;
    }
    /* an engine that failed on every position was not checked at all */
    if (failed == ps->n)
        status = run_error(EXIT_FAILED, "the engine cannot be used: it failed on every position");
    if ((a->junit && report_junit(a->junit, &run, err, sizeof err) != 0) ||
        (a->json && report_json(a->json, &run, err, sizeof err) != 0))
        status = run_error(EXIT_FAILED, "%s", err);
    groups_free(&groups);
    if (fflush(stdout) != 0 || ferror(stdout))
        status = run_error(EXIT_FAILED, "the report could not be written");
    return status;
}

/* Fills a from argv; returns as options_parse does. */
static int parse(int argc, char **argv, Args *a)
{
    *a = (Args){ 0 };
    const Option options[] = {
        { "--engine", &a->engine, NULL },
        { "--script", &a->script, NULL },
        { "--variant", &a->pos.variant, NULL },
        { "--turns", &a->pos.turns, NULL },
        { "--ep-rule", &a->pos.ep_rule, NULL },
        { "--fen", &a->pos.fen, NULL },
        { "--startpos", NULL, &a->pos.startpos },
        { "--random", &a->random, NULL },
        { "--seed", &a->seed, NULL },
        { "--starts", NULL, &a->starts },
        { "--depth", &a->depth, NULL },
        { "--nodes", &a->nodes, NULL },
        { "--jobs", &a->jobs, NULL },
        { "--timeout", &a->timeout, NULL },
        { "--junit", &a->junit, NULL },
        { "--json", &a->json, NULL },
        { "--resume", &a->resume, NULL },
        { "--quiet", NULL, &a->quiet },
        { NULL, NULL, NULL },
    };
    argc = take_suites(argc, argv, a);
    if (argc < 0)
        return -1;
    return options_parse(argc, argv, "verify", options);
}

/* Checks the positions not yet done (after those a journal holds) and reports the run. Returns
 * the exit status. */
static int check_all(const Args *a, Verify *v, long jobs)
{
    char err[ERRMSG_LEN];
    size_t resumed = 0;
    if (a->resume) {
        char described[4096];
        describe(a, v, described, sizeof described);
        int status = journal_open(&v->journal, a->resume, described, v->ps, v->outcomes, &resumed,
                                  err, sizeof err);
        if (status != EXIT_OK)
            return run_error(status, "%s", err);
        v->journaling = true;
    }
    v->todo = v->ps->n - resumed;
    if (!a->quiet && v->ps->skipped)
        fprintf(stderr, "verify: %zu suite lines of other variants (;V) skipped\n", v->ps->skipped);
    if (!a->quiet)
        fprintf(stderr, "verify: %zu positions of %s (%s rules), %zu already checked, %ld jobs\n",
                v->ps->n, v->plan.b.variant->name, turn_rules_name(v->plan.b.rules.turns), resumed,
                jobs);
    if (v->todo > 0 && probe(v, err, sizeof err) != 0)
        return run_error(EXIT_FAILED, "the engine cannot be used: %s", err);
    pthread_mutex_init(&v->lock, NULL);
    progress_start(&v->progress, "verify", a->quiet);
    run_jobs(v, jobs < (long)v->todo ? jobs : (long)(v->todo ? v->todo : 1));
    pthread_mutex_destroy(&v->lock);
    if (v->journal_err[0])
        return run_error(EXIT_FAILED, "%s", v->journal_err);
    return report(a, v);
}

/* Runs the validated request over the positions. Returns the exit status. */
static int run(const Args *a, const VerifyRequest *r, const VerifyPositions *ps)
{
    Verify v = { .ps = ps, .plan = r->plan, .engine = r->engine, .journal = { -1 } };
    v.outcomes = calloc(ps->n, sizeof *v.outcomes);
    if (!v.outcomes)
        return run_error(EXIT_FAILED, "out of memory");
    int status = check_all(a, &v, r->jobs);
    journal_close(&v.journal);
    for (size_t i = 0; i < ps->n; i++)
        outcome_free(&v.outcomes[i]);
    free(v.outcomes);
    return status;
}

int verify_command(int argc, char **argv)
{
    Args a;
    int parsed = parse(argc, argv, &a);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        verify_usage(stdout);
        return EXIT_OK;
    }
    VerifyRequest r;
    int status = validate(&a, &r);
    if (status != EXIT_OK)
        return status;
    VerifyPositions ps = { 0 };
    status = load_positions(&a, &r, &ps);
    if (status == EXIT_OK)
        status = run(&a, &r, &ps);
    sources_free(&ps);
    return status;
}
