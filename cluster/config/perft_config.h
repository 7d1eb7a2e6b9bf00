/* SPDX-License-Identifier: MIT */
/* Perft job configurations: INI files (read with inih) with one [perft] section, turned into a
 * typed, fully validated struct with defaults. Every error names the file, the line and the key,
 * so a job that would fail hours into a cluster allocation fails at once instead. The file's
 * text is kept: the result file records it as provenance, and a resumed job can read it back. */
#ifndef CARRERA_PERFT_CONFIG_H
#define CARRERA_PERFT_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "ini_file.h"
#include "ini_keys.h"
#include "rules.h"
#include "setup.h"

/* Limits that catch typos, as on the command line. */
#define CONFIG_MAX_DEPTH      30
#define CONFIG_MAX_THREADS    1024
#define CONFIG_MAX_HASH_MB    (1 << 22)
#define CONFIG_MAX_CHECKPOINT 86400

/* split_depth = auto: the program chooses (split_choose_depth, split.h). */
#define CONFIG_SPLIT_AUTO 0
/* shared_depth = auto: the job measures (perft/job_tables.h); shared_mb = auto: a quarter of
 * hash_mb. */
#define CONFIG_SHARED_DEPTH_AUTO 0
#define CONFIG_SHARED_MB_AUTO    (-1)

typedef enum ConfigPosition {
    CONFIG_STARTPOS, /* position = startpos */
    CONFIG_FEN,      /* position = fen FEN */
    CONFIG_CHESS960  /* position = chess960 N */
} ConfigPosition;

typedef struct PerftConfig {
    char *file;              /* the file name as given, for messages */
    char *text;              /* the whole file as read */
    const Variant *variant;  /* variant: default chess */
    Rules rules;             /* turns (default single), ep_rule (default classic) */
    ConfigPosition position; /* position: required */
    char position_text[256]; /* its value as written */
    int chess960;            /* the array number for CONFIG_CHESS960, else -1 */
    Setup setup;             /* the position, valid for the variant and rules */
    int depth;               /* depth: required, 1-30 */
    int split_depth;         /* split_depth: CONFIG_SPLIT_AUTO (default) or 1..depth */
    int threads;             /* threads per rank: 0 (default: OMP_NUM_THREADS, else every core) */
    int hash_mb;             /* hash_mb: table per rank in megabytes, default 0 (none) */
    int shared_table;        /* shared_table: on (1, default) or off (0): the deep counts in
                                one table over every rank, when there are several and a table */
    int shared_depth;        /* shared_depth: CONFIG_SHARED_DEPTH_AUTO (default) or 2..30 */
    int shared_mb;           /* shared_mb: CONFIG_SHARED_MB_AUTO (default) or 0..hash_mb - 1,
                                this rank's part of the shared table, out of hash_mb */
    uint64_t key_seed;       /* key_seed: the Zobrist keys' seed (zobrist.h), default 0 */
    char output[CONFIG_PATH_MAX]; /* output: default the file's base name with .h5 for .ini */
    int checkpoint_interval; /* seconds between checkpoint flushes, default 60; 0: every unit */
} PerftConfig;

/* The keys of [perft]. */
extern const IniKeys perft_config_keys;

/* Reads and validates the perft job in the file at path. Returns 0; or -1 with one message in
 * err (`FILE:LINE: key 'deth' is unknown in [perft] ...`, `FILE:LINE: bad value 'x' for
 * depth: ...`, `FILE: ...` when no line is to blame), *out then holding nothing to free. */
int perft_config_read(const char *path, PerftConfig *out, char *err, size_t errlen);

/* The same for text already in memory (a configuration stored in a result file); name stands
 * for the file in messages and gives the default output name. */
int perft_config_parse(const char *text, const char *name, PerftConfig *out, char *err,
                       size_t errlen);

void perft_config_free(PerftConfig *c);

/* One line saying what the job is: `perft job, variant capablanca, position startpos, depth 5,
 * single turns, ...`. */
void perft_config_summary(const PerftConfig *c, char *out, size_t outlen);

#endif
