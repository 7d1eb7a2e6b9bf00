/* SPDX-License-Identifier: MIT */
/* `carrera texel-label` (texel_label.h): the rows read into memory, labelled by a pool of engine
 * threads (each its own engine process, taking the next row in turn), written in their order. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "texel_label.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errmsg.h"
#include "progress.h"
#include "provenance.h"
#include "run_error.h"
#include "setup.h"
#include "texel_file.h"
#include "uci_client.h"
#include "version.h"

/* A search that has not answered after this long is a dead engine: the labels are searches of a
 * few thousand nodes. */
#define SEARCH_TIMEOUT_MS 120000
#define HANDSHAKE_MS      10000

typedef struct LabelRow {
    TexelRow row; /* pos unused (NULL) */
    char *fen;
    bool white;    /* White to move */
    bool repeated; /* the same position as the row before (the quiet leaf of several positions
                    * of a game, often): searched once */
    double expect; /* White's expectation from the search */
} LabelRow;

typedef struct Label {
    const TexelLabelRequest *r;
    LabelRow *rows;
    size_t n, cap;
    atomic_size_t next, done;
    atomic_bool failed;
    pthread_mutex_t lock; /* guards why */
    char why[ERRMSG_LEN]; /* the first failure */
    char engine_name[256];
} Label;

static int keep_row(void *ctx, const TexelRow *row, uint64_t line, char *err, size_t errlen)
{
    (void)line;
    Label *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 4096;
        LabelRow *grown = realloc(l->rows, cap * sizeof *grown);
        if (!grown)
            return errmsg_fail(err, errlen, "out of memory");
        l->rows = grown;
        l->cap = cap;
    }
    Setup s;
    char fen[FEN_MAX];
    position_to_setup(row->pos, &s);
    setup_to_fen(&s, s.castling_text, fen, sizeof fen);
    LabelRow *k = &l->rows[l->n];
    const LabelRow *before = l->n ? k - 1 : NULL;
    *k = (LabelRow){ *row, strdup(fen), position_side(row->pos) == WHITE,
                     before && before->row.variant == row->variant &&
                         before->row.turns == row->turns && strcmp(before->fen, fen) == 0,
                     0 };
    k->row.pos = NULL;
    if (!k->fen)
        return errmsg_fail(err, errlen, "out of memory");
    l->n++;
    return 0;
}

static void fail(Label *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(Label *l, const char *fmt, ...)
{
    pthread_mutex_lock(&l->lock);
    if (!atomic_load(&l->failed)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(l->why, sizeof l->why, fmt, ap);
        va_end(ap);
        atomic_store(&l->failed, true);
    }
    pthread_mutex_unlock(&l->lock);
}

/* One thread's engine, set up for the variant and turn rules of the rows it labels. */
typedef struct Worker {
    Label *l;
    UciClient engine;
    bool up;
    const Variant *variant;
    TurnRules turns;
} Worker;

static int start_engine(Worker *w, const TexelRow *row, char *err, size_t errlen)
{
    const TexelLabelRequest *r = w->l->r;
    if (w->up)
        uci_client_stop(&w->engine);
    w->up = false;
    const Variant *v = row->variant;
    /* as the perft oracle names them: chess960 is chess with UCI_Chess960, caparandom
     * Fairy-Stockfish's caparandom with it too; the turn rules only when they are not single */
    UciClientSetup setup = {
        .uci_variant = strcmp(v->name, "chess") == 0 ? NULL : v->name,
        .chess960 = v->castle960,
        .turn_rules = row->turns == TURNS_SINGLE ? NULL : turn_rules_name(row->turns),
    };
    char hash[32];
    const char *names[] = { "Hash" }, *values[] = { hash };
    snprintf(hash, sizeof hash, "%d", r->hash_mb);
    if (uci_client_start(&w->engine, r->command, HANDSHAKE_MS, err, errlen) != 0)
        return -1;
    if (uci_client_setup(&w->engine, &setup, err, errlen) != 0 ||
        uci_client_set_options(&w->engine, names, values, r->hash_mb > 0 ? 1 : 0, err, errlen) !=
            0) {
        uci_client_stop(&w->engine);
        return -1;
    }
    w->up = true;
    w->variant = v;
    w->turns = row->turns;
    return 0;
}

/* White's expectation from the engine's answer for the side to move (white or not). */
static double expectation(const UciSearchAnswer *a, bool white, double scale)
{
    double p = a->mate ? (a->score > 0 ? 1.0 : 0.0) : 1.0 / (1.0 + pow(10.0, -a->score / scale));
    return white ? p : 1.0 - p;
}

static int label_row(Worker *w, LabelRow *k, char *err, size_t errlen)
{
    const TexelLabelRequest *r = w->l->r;
    if ((!w->up || w->variant != k->row.variant || w->turns != k->row.turns) &&
        start_engine(w, &k->row, err, errlen) != 0)
        return -1;
    char position[FEN_MAX + 32], go[128];
    snprintf(position, sizeof position, "position fen %s", k->fen);
    snprintf(go, sizeof go, "go %s", r->go);
    UciSearchAnswer a;
    if (uci_client_new_game(&w->engine, err, errlen) != 0) {
        uci_client_stop(&w->engine); /* its state unknown: not left running */
        w->up = false;
        return -1;
    }
    if (uci_client_search(&w->engine, position, go, SEARCH_TIMEOUT_MS, &a, err, errlen) !=
        ANSWER_OK) {
        w->up = false;
        return -1;
    }
    if (!a.has_score)
        return errmsg_fail(err, errlen, "the engine gave no score (no `info ... score` line)");
    k->expect = expectation(&a, k->white, r->scale);
    return 0;
}

static void *work(void *arg)
{
    Worker *w = arg;
    Label *l = w->l;
    char err[ERRMSG_LEN];
    size_t i;
    while (!atomic_load(&l->failed) && (i = atomic_fetch_add(&l->next, 1)) < l->n) {
        if (!l->rows[i].repeated && label_row(w, &l->rows[i], err, sizeof err) != 0) {
            fail(l, "%s: position %zu (%s): %s", l->r->command, i + 1, l->rows[i].fen, err);
            break;
        }
        if (i == 0)
            snprintf(l->engine_name, sizeof l->engine_name, "%s", w->engine.id_name);
        atomic_fetch_add(&l->done, 1);
    }
    if (w->up)
        uci_client_stop(&w->engine);
    return NULL;
}

/* Runs the workers to the end, reporting progress meanwhile. */
static void label_all(Label *l)
{
    int jobs = l->r->jobs;
    Worker *w = calloc((size_t)jobs, sizeof *w);
    pthread_t *t = calloc((size_t)jobs, sizeof *t);
    if (!w || !t) {
        fail(l, "out of memory");
        free(w);
        free(t);
        return;
    }
    int started = 0;
    for (; started < jobs; started++) {
        w[started].l = l;
        if (pthread_create(&t[started], NULL, work, &w[started]) != 0) {
            fail(l, "cannot start a thread: %s", strerror(errno));
            break;
        }
    }
    Progress pr;
    progress_start(&pr, "texel-label", l->r->quiet);
    const struct timespec tick = { 0, 200 * 1000 * 1000 };
    for (;;) {
        size_t done = atomic_load(&l->done);
        char eta[32];
        bool end = done == l->n || atomic_load(&l->failed);
        if (progress_due_work(&pr, (double)done, (double)l->n, done, end, eta) > 0)
            progress_print(&pr, "%zu/%zu positions, %.0f a second, ETA %s", done, l->n,
                           pr.items_rate, eta);
        if (end)
            break;
        nanosleep(&tick, NULL);
    }
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    progress_finish(&pr);
    free(w);
    free(t);
}

static int write_out(const Label *l, const char *record, char *err, size_t errlen)
{
    char part[4096];
    snprintf(part, sizeof part, "%s.part", l->r->out);
    FILE *out = fopen(part, "w");
    if (!out)
        return errmsg_fail(err, errlen, "%s: %s", part, strerror(errno));
    int rc = texel_file_write_header(out, record, err, errlen);
    for (size_t i = 0; i < l->n && rc == 0; i++)
        rc = texel_file_write_fen_row(out, &l->rows[i].row, l->rows[i].fen, err, errlen);
    if (fclose(out) != 0 && rc == 0)
        rc = errmsg_fail(err, errlen, "%s: cannot write: %s", part, strerror(errno));
    if (rc == 0 && rename(part, l->r->out) != 0)
        rc = errmsg_fail(err, errlen, "%s: cannot rename %s to it: %s", l->r->out, part,
                         strerror(errno));
    if (rc != 0)
        remove(part);
    return rc;
}

int texel_label_run(const TexelLabelRequest *r)
{
    Label l = { .r = r };
    pthread_mutex_init(&l.lock, NULL);
    char err[ERRMSG_LEN], now[PROV_TIME_MAX], *source = NULL;
    TexelRecord rec = { 0 };
    int status = EXIT_OK;
    if (texel_file_read(r->data, keep_row, &l, &source, err, sizeof err) != 0)
        status = run_error(strstr(err, "out of memory") ? EXIT_FAILED : EXIT_USAGE, "%s", err);
    else if (l.n == 0)
        status = run_error(EXIT_USAGE, "%s: no positions to label", r->data);
    if (status == EXIT_OK) {
        label_all(&l);
        if (atomic_load(&l.failed))
            status = run_error(strcmp(l.why, "out of memory") == 0 ? EXIT_FAILED : EXIT_USAGE, "%s",
                               l.why);
    }
    if (status == EXIT_OK) {
        for (size_t i = 0; i < l.n; i++) {
            LabelRow *k = &l.rows[i];
            if (k->repeated)
                k->expect = k[-1].expect;
            k->row.result = r->weight * k->row.result + (1 - r->weight) * k->expect;
        }
        provenance_now(now);
        /* the source's record first, as it is (its lines end with a newline each) */
        rec = (TexelRecord){ source, source ? strlen(source) : 0, false };
        source = NULL;
        texel_record_add(&rec, "labelled: %s by carrera %s (revision %s): %s", now, carrera_version,
                         carrera_revision, r->command_line);
        texel_record_add(&rec,
                         "labels: White's expectation from %s (%s), `go %s` from a new game in "
                         "each position, hash %d MB (0: its default), 1 / (1 + 10^(-score / %g)), "
                         "mate 1 or 0, times %g, plus the game's result times %g",
                         l.engine_name[0] ? l.engine_name : "the engine", r->command, r->go,
                         r->hash_mb, r->scale, 1 - r->weight, r->weight);
        if (rec.failed)
            status = run_error(EXIT_FAILED, "out of memory");
        else if (write_out(&l, rec.text, err, sizeof err) != 0)
            status = run_error(EXIT_FAILED, "%s", err);
        else
            printf("%sdata: %s (%zu positions)\n", rec.text, r->out, l.n);
    }
    for (size_t i = 0; i < l.n; i++)
        free(l.rows[i].fen);
    free(l.rows);
    free(source);
    free(rec.text);
    pthread_mutex_destroy(&l.lock);
    return status;
}
