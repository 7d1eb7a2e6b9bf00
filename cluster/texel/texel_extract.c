/* SPDX-License-Identifier: MIT */
/* `carrera texel-data` (texel_extract.h): the sources' provenance read first (it heads the data
 * file and gives the progress its total), then their games replayed into rows. */
#include "texel_extract.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "match_config.h"
#include "match_games.h"
#include "match_tests.h"
#include "progress.h"
#include "provenance.h"
#include "run_error.h"
#include "texel_data.h"
#include "texel_file.h"
#include "version.h"

/* A player as the record names it: "n2500 (carrera, nodes 2500)". */
static void describe_player(const PlayerConfig *p, char *out, size_t outlen)
{
    const PlayerLimits *l = &p->limits;
    int k = snprintf(out, outlen, "%s (%s", p->name,
                     p->kind == PLAYER_CARRERA ? "carrera" : p->command);
    if (l->nodes)
        k += snprintf(out + k, outlen - (size_t)k, ", nodes %llu", (unsigned long long)l->nodes);
    if (l->depth)
        k += snprintf(out + k, outlen - (size_t)k, ", depth %d", l->depth);
    if (l->movetime_ms)
        k += snprintf(out + k, outlen - (size_t)k, ", movetime %lld ms", (long long)l->movetime_ms);
    if (l->base_ms)
        k += snprintf(out + k, outlen - (size_t)k, ", clock %lld+%lld ms", (long long)l->base_ms,
                      (long long)l->inc_ms);
    snprintf(out + k, outlen - (size_t)k, ")");
}

/* The source line of the match result file at path; adds its games to *games. */
static int describe_source(TexelRecord *rec, const char *path, uint64_t *games)
{
    MatchTestsFile f;
    char err[ERRMSG_LEN];
    if (match_tests_read(path, &f, err, sizeof err) != 0)
        return run_error(EXIT_USAGE, "%s", err);
    MatchConfig c;
    if (match_config_parse(f.configuration, path, &c, err, sizeof err) != 0) {
        match_tests_free(&f);
        return run_error(EXIT_USAGE, "%s: its configuration: %s", path, err);
    }
    char p1[512], p2[512];
    describe_player(&c.players[0], p1, sizeof p1);
    describe_player(&c.players[1], p2, sizeof p2);
    texel_record_add(
        rec,
        "source: %s: %s, %s turns, %zu games, played by carrera %s (revision %s) from %s "
        "to %s, %s against %s, %d random turns after the opening, seed %llu",
        path, c.variant->name, turn_rules_name(c.rules.turns), f.n_games, f.prov.version,
        f.prov.revision, f.prov.start_time, f.prov.end_time[0] ? f.prov.end_time : "?", p1, p2,
        c.random_plies, (unsigned long long)c.seed);
    *games += f.n_games;
    match_config_free(&c);
    match_tests_free(&f);
    return EXIT_OK;
}

/* What the reading of the games drives: the extraction and the progress. */
typedef struct Extract {
    TexelData data;
    Progress progress;
    uint64_t total;
} Extract;

static int on_file(void *ctx, const char *path, const char *variant, const char *turns,
                   const char *ep, char *err, size_t errlen)
{
    Extract *x = ctx;
    return texel_data_file(&x->data, path, variant, turns, ep, err, errlen);
}

static int on_game(void *ctx, const RecordedGame *g, char *err, size_t errlen)
{
    Extract *x = ctx;
    if (texel_data_game(&x->data, g, err, errlen) != 0)
        return -1;
    char eta[32];
    const TexelCounts *c = &x->data.counts;
    if (progress_due(&x->progress, c->games, x->total, eta) > 0)
        progress_print(&x->progress, "%llu/%llu games, %llu positions, ETA %s",
                       (unsigned long long)c->games, (unsigned long long)x->total,
                       (unsigned long long)c->written, eta);
    return 0;
}

/* Copies the rows of tmp after the header into the file at path. */
static int write_file(const char *path, const char *record, FILE *rows)
{
    char err[ERRMSG_LEN];
    FILE *out = fopen(path, "w");
    if (!out)
        return run_error(EXIT_FAILED, "%s: %s", path, strerror(errno));
    int rc = texel_file_write_header(out, record, err, sizeof err);
    char buf[1 << 16];
    size_t n;
    rewind(rows);
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, rows)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            rc = -1;
    if (ferror(rows) || fclose(out) != 0)
        rc = -1;
    if (rc != 0)
        return run_error(EXIT_FAILED, "%s: cannot write: %s", path, strerror(errno));
    return EXIT_OK;
}

/* The record's lines that describe the selection and what it kept. */
static void describe_counts(TexelRecord *rec, const TexelData *d)
{
    const TexelCounts *c = &d->counts;
    texel_record_add(
        rec,
        "positions: every position before a turn from turn %d on, its side to move not in "
        "check, resolved to its quiet leaf (core/engine/quiet.h, this build's default "
        "evaluation); a leaf in check is dropped",
        d->skip_plies + 1);
    texel_record_add(rec,
                     "games: %llu in %llu pairs (%llu lost by a player's fault: none of their "
                     "positions)",
                     (unsigned long long)c->games, (unsigned long long)c->pairs,
                     (unsigned long long)c->faults);
    texel_record_add(
        rec,
        "positions seen: %llu in the opening, %llu in check, %llu not legal in single-move "
        "chess, %llu with a leaf in check, %llu written (%llu of them resolved to another "
        "position)",
        (unsigned long long)c->opening, (unsigned long long)c->in_check,
        (unsigned long long)c->not_single, (unsigned long long)c->leaf_check,
        (unsigned long long)c->written, (unsigned long long)c->resolved);
}

int texel_extract_run(const TexelExtractRequest *r)
{
    TexelRecord rec = { 0 };
    char now[PROV_TIME_MAX], err[ERRMSG_LEN];
    provenance_now(now);
    texel_record_add(&rec, "made: %s by carrera %s (revision %s)", now, carrera_version,
                     carrera_revision);
    texel_record_add(&rec, "command: %s", r->command_line);
    Extract x = { 0 };
    int status = EXIT_OK;
    for (size_t i = 0; i < r->n_paths && status == EXIT_OK; i++)
        status = describe_source(&rec, r->paths[i], &x.total);
    FILE *rows = status == EXIT_OK ? tmpfile() : NULL;
    if (status == EXIT_OK && !rows)
        status = run_error(EXIT_FAILED, "cannot make a temporary file: %s", strerror(errno));
    EvalParams params;
    eval_defaults(&params);
    if (status == EXIT_OK &&
        texel_data_start(&x.data, rows, r->skip_plies, &params, err, sizeof err) != 0)
        status = run_error(EXIT_USAGE, "%s", err);
    if (status == EXIT_OK) {
        progress_start(&x.progress, "texel-data", r->quiet);
        const MatchGamesReader reader = { on_file, on_game, &x };
        uint64_t dropped = 0;
        if (match_games_read(r->paths, r->n_paths, &reader, &dropped, err, sizeof err) != 0)
            status = run_error(ferror(rows) ? EXIT_FAILED : EXIT_USAGE, "%s", err);
        progress_finish(&x.progress);
    }
    if (status == EXIT_OK) {
        describe_counts(&rec, &x.data);
        char part[4096];
        snprintf(part, sizeof part, "%s.part", r->out);
        if (rec.failed)
            status = run_error(EXIT_FAILED, "out of memory");
        else if ((status = write_file(part, rec.text, rows)) == EXIT_OK &&
                 rename(part, r->out) != 0)
            status = run_error(EXIT_FAILED, "%s: cannot rename %s to it: %s", r->out, part,
                               strerror(errno));
        if (status != EXIT_OK)
            remove(part);
    }
    if (status == EXIT_OK)
        printf("%sdata: %s\n", rec.text, r->out);
    if (rows)
        fclose(rows);
    free(rec.text);
    return status;
}
