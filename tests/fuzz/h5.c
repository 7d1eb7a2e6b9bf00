/* SPDX-License-Identifier: MIT */
/* Fuzz target: a checkpoint given to --resume. Byte 0 chooses the program, the rest is the
 * file:
 *   even: a distributed perft's checkpoint, opened with perft_file_open_resume for the job of the
 * seeds (chess start, depth 6, single turns); when it is accepted, every unit's position is read as
 * a worker reads it, every unit not yet counted is recorded and the result finished, as the rest of
 * a resumed run would; odd: a match's result file, its games read by the regression's reader
 * (match_games_sample) and then resumed with match_file_open_resume for the match of
 * tests/fuzz/h5match.ini. The seeds in tests/fuzz/corpus/h5/ are files the programs wrote
 * (tests/fuzz/seed-h5: finished, killed mid-run, resumed and killed again), so the mutations start
 * from real layouts. A file is accepted or refused with a message, never anything else. */
#include <stdio.h>
#include <stdlib.h>

#include "errmsg.h"
#include "fuzz.h"
#include "match_file.h"
#include "match_games.h"
#include "perft_file.h"
#include "split.h"

#ifndef CARRERA_FUZZ_H5MATCH
#error "CARRERA_FUZZ_H5MATCH must name the match fixture"
#endif

static void require_message(const char *err)
{
    if (err[0] == '\0') {
        fprintf(stderr, "fuzz_h5: a checkpoint was refused without a message\n");
        abort();
    }
}

static void resume_perft(const char *path, const Provenance *prov)
{
    const PerftFileInfo job = { .variant = "chess",
                                .rules = { TURNS_SINGLE, EP_CLASSIC },
                                .fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                .depth = 6,
                                .split_depth = 0,
                                .prov = prov,
                                .checkpoint_interval = 3600 };
    Split split;
    char err[ERRMSG_LEN] = "";
    PerftFile *h = perft_file_open_resume(path, &job, &split, err, sizeof err);
    if (!h) {
        require_message(err);
        return;
    }
    const Variant *chess = variant_by_name("chess");
    bool ok = true;
    for (size_t i = 0; i < split.n_units && ok; i++) {
        WorkUnit *u = &split.units[i];
        Position p;
        char why[ERRMSG_LEN];
        if (split_unit_position(u, chess, &job.rules, &p, why, sizeof why) != 0)
            continue;
        if (u->nodes == UNIT_NOT_DONE) {
            u->nodes = 1;
            u->rank = 0;
            ok = perft_file_record_unit(h, u, err, sizeof err) == 0;
        }
    }
    uint64_t total;
    if (ok)
        perft_file_finish(h, &split, NULL, 0, "2026-11-30T00:00:00Z", &total, err, sizeof err);
    else
        perft_file_close(h, err, sizeof err);
    free(split.root_turns);
    free(split.units);
}

static void resume_match(const char *path, const Provenance *prov, const MatchConfig *cfg)
{
    const MatchFileInfo info = { .cfg = cfg, .prov = prov };
    RegressionData d;
    char err[ERRMSG_LEN] = "";
    if (match_games_sample((const char *const[]){ path }, 1, 0, &d, err, sizeof err) == 0)
        regression_free(&d);
    else
        require_message(err);
    err[0] = '\0';
    MatchFileDone done;
    MatchFile *h = match_file_open_resume(path, &info, &done, err, sizeof err);
    if (!h) {
        require_message(err);
        return;
    }
    match_file_done_free(&done);
    match_file_close(h, err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static MatchConfig cfg;
    static bool ready;
    if (!ready) {
        char err[ERRMSG_LEN];
        if (match_config_read(CARRERA_FUZZ_H5MATCH, &cfg, err, sizeof err) != 0) {
            fprintf(stderr, "fuzz_h5: %s\n", err);
            abort();
        }
        ready = true;
    }
    if (size < 1)
        return 0;
    const char *path = fuzz_file(data + 1, size - 1, ".h5");
    if (!path)
        return 0;
    Provenance prov;
    provenance_init(&prov, 1, 1, NULL, 0, cfg.text);
    if (data[0] % 2 == 0)
        resume_perft(path, &prov);
    else
        resume_match(path, &prov, &cfg);
    return 0;
}
