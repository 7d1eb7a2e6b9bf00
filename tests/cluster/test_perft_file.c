/* SPDX-License-Identifier: MIT */
/* The HDF5 result and checkpoint file (cluster/h5/perft_file.c): create it for a real split, record
 * units, stop without finishing (closed, or killed with SIGKILL), resume, finish, and read the
 * whole file back with the plain HDF5 API against the layout docs/result-files.md documents; h5dump
 * must read it too. Mismatching jobs, files that are not checkpoints, unwritable places and a full
 * disk (a file size limit) must give clear messages. */
#define _XOPEN_SOURCE 700

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stddef.h>
#include <cmocka.h>

#include <hdf5.h>

#include "errmsg.h"
#include "files.h"
#include "h5read.h"
#include "perft_file.h"
#include "perft_stats.h"
#include "position.h"
#include "provenance.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"
#include "split.h"

static const char *const hosts[] = { "node-a", "node-b" };
static const char *const config_text = "[perft]\nvariant = chess\ndepth = 4\n";

/* A job: the position, rules and depth, its split, and what perft_file_create is given. */
typedef struct Job {
    const Variant *v;
    Rules r;
    Position root;
    char fen[FEN_MAX];
    int depth;
    Split split;
    Provenance prov;
    PerftFileInfo info;
} Job;

static void job_make(Job *j, const char *variant, TurnRules turns, const char *fen, int depth,
                     int split_depth)
{
    memset(j, 0, sizeof *j);
    j->v = variant_by_name(variant);
    assert_non_null(j->v);
    j->r = (Rules){ turns, EP_CLASSIC };
    Setup s;
    char err[ERRMSG_LEN];
    if (fen)
        assert_int_equal(setup_from_fen_rules(&s, j->v, &j->r, fen, err, sizeof err), 0);
    else
        setup_start(&s, j->v);
    setup_to_fen(&s, FEN_CASTLING_SHREDDER, j->fen, sizeof j->fen);
    position_from_setup(&j->root, &s);
    j->depth = depth;
    assert_int_equal(split_make(&j->root, &j->r, depth, split_depth, &j->split), 0);
    provenance_init(&j->prov, 2, 3, hosts, 2, config_text);
    j->info = (PerftFileInfo){ .variant = variant,
                               .rules = j->r,
                               .fen = j->fen,
                               .depth = depth,
                               .split_depth = -1,
                               .prov = &j->prov,
                               /* flushes are fsyncs: only the tests of crashes need every one */
                               .checkpoint_interval = 60 };
}

/* Counts unit i of split s as rank `rank` would. */
static void count_unit(const Job *j, WorkUnit *u, int rank)
{
    Position p;
    char err[ERRMSG_LEN];
    assert_int_equal(split_unit_position(u, j->v, &j->r, &p, err, sizeof err), 0);
    u->nodes = perft_turns(&p, &j->r, u->depth);
    u->rank = rank;
    u->seconds = 0.001 * (double)(u->id + 1);
}

static void path_in(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", scratch_dir, name);
}

/* ---- reading the file back with the plain HDF5 API, as the README describes it ---- */

static void attr_str(hid_t loc, const char *name, char *out, size_t len)
{
    h5read_str(loc, name, out, len);
}

static long long attr_int(hid_t loc, const char *name)
{
    long long v = -1;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    assert_true(a >= 0);
    assert_true(H5Aread(a, H5T_NATIVE_LLONG, &v) >= 0);
    H5Aclose(a);
    return v;
}

static uint64_t attr_u64(hid_t loc, const char *name)
{
    uint64_t v = 0;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    assert_true(a >= 0);
    assert_true(H5Aread(a, H5T_NATIVE_UINT64, &v) >= 0);
    H5Aclose(a);
    return v;
}

static void assert_iso_time(const char *t)
{
    assert_int_equal(strlen(t), 20);
    assert_int_equal(t[4], '-');
    assert_int_equal(t[10], 'T');
    assert_int_equal(t[19], 'Z');
}

/* Checks the provenance attributes of loc (the root group or /resumes/K). */
static void check_provenance(hid_t loc, bool finished)
{
    char s[4096];
    attr_str(loc, "carrera_version", s, sizeof s);
    assert_string_equal(s, CARRERA_VERSION);
    attr_str(loc, "git_revision", s, sizeof s);
    assert_true(strlen(s) > 0);
    attr_str(loc, "compiler", s, sizeof s);
    assert_true(strlen(s) > 0);
    attr_str(loc, "build_flags", s, sizeof s);
    assert_string_equal(s, CARRERA_BUILD_FLAGS);
    assert_int_equal(attr_int(loc, "ranks"), 2);
    assert_int_equal(attr_int(loc, "threads_per_rank"), 3);
    attr_str(loc, "configuration", s, sizeof s);
    assert_string_equal(s, config_text);
    attr_str(loc, "start_time", s, sizeof s);
    assert_iso_time(s);
    assert_int_equal(H5Aexists(loc, "end_time") > 0, finished);
    if (finished) {
        attr_str(loc, "end_time", s, sizeof s);
        assert_iso_time(s);
    }

    size_t n;
    char **names = h5read_strs(loc, "hosts", &n);
    assert_int_equal(n, 2);
    assert_string_equal(names[0], "node-a");
    assert_string_equal(names[1], "node-b");
    h5read_strs_free(names, n);
}

typedef struct FileUnit {
    uint64_t id, multiplicity, nodes;
    uint32_t root;
    int32_t depth, rank, run;
    double seconds;
    char fen[FEN_MAX];
} FileUnit;

typedef struct FileMove {
    char move[TURN_TEXT_MAX];
    uint64_t nodes;
} FileMove;

static hid_t fixed_string(size_t n)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, n);
    return t;
}

/* Reads a whole one-dimensional dataset into a malloc'd array; *n receives the rows. */
static void *read_table(hid_t loc, const char *name, hid_t type, size_t size, size_t *n)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t sp = H5Dget_space(d);
    hsize_t dim = 0;
    assert_int_equal(H5Sget_simple_extent_dims(sp, &dim, NULL), 1);
    void *rows = calloc(dim + 1, size);
    assert_non_null(rows);
    if (dim)
        assert_true(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) >= 0);
    H5Sclose(sp);
    H5Dclose(d);
    *n = (size_t)dim;
    return rows;
}

static FileUnit *read_units(hid_t g, size_t *n)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(FileUnit));
    hid_t s = fixed_string(FEN_MAX);
    H5Tinsert(t, "id", offsetof(FileUnit, id), H5T_NATIVE_UINT64);
    H5Tinsert(t, "root", offsetof(FileUnit, root), H5T_NATIVE_UINT32);
    H5Tinsert(t, "depth", offsetof(FileUnit, depth), H5T_NATIVE_INT32);
    H5Tinsert(t, "multiplicity", offsetof(FileUnit, multiplicity), H5T_NATIVE_UINT64);
    H5Tinsert(t, "fen", offsetof(FileUnit, fen), s);
    H5Tinsert(t, "nodes", offsetof(FileUnit, nodes), H5T_NATIVE_UINT64);
    H5Tinsert(t, "rank", offsetof(FileUnit, rank), H5T_NATIVE_INT32);
    H5Tinsert(t, "seconds", offsetof(FileUnit, seconds), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "run", offsetof(FileUnit, run), H5T_NATIVE_INT32);
    FileUnit *u = read_table(g, "units", t, sizeof *u, n);
    H5Tclose(s);
    H5Tclose(t);
    return u;
}

static FileMove *read_moves(hid_t g, const char *name, const char *text_column, size_t *n)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(FileMove));
    hid_t s = fixed_string(TURN_TEXT_MAX);
    H5Tinsert(t, text_column, offsetof(FileMove, move), s);
    if (strcmp(name, "divide") == 0)
        H5Tinsert(t, "nodes", offsetof(FileMove, nodes), H5T_NATIVE_UINT64);
    FileMove *m = read_table(g, name, t, sizeof *m, n);
    H5Tclose(s);
    H5Tclose(t);
    return m;
}

/* Reads the finished file at path and checks it against job j (whose split holds the counted
 * units), the expected total and the number of resumes. */
static void check_finished_file(const char *path, const Job *j, uint64_t total, int resumes,
                                bool with_stats)
{
    h5read_no_global_heap(path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    char s[FEN_MAX + 64];
    attr_str(f, "format", s, sizeof s);
    assert_string_equal(s, "carrera-perft");
    assert_int_equal(attr_int(f, "format_version"), H5_FORMAT_VERSION);
    assert_int_equal(attr_int(f, "resumed"), resumes);
    check_provenance(f, true);
    for (int k = 1; k <= resumes; k++) {
        char name[32];
        snprintf(name, sizeof name, "/resumes/%d", k);
        hid_t r = H5Gopen2(f, name, H5P_DEFAULT);
        assert_true(r >= 0);
        check_provenance(r, k == resumes);
        assert_true(H5Aexists(r, "units_done_at_start") > 0);
        H5Gclose(r);
    }

    hid_t g = H5Gopen2(f, "/perft", H5P_DEFAULT);
    assert_true(g >= 0);
    attr_str(g, "variant", s, sizeof s);
    assert_string_equal(s, j->v->name);
    attr_str(g, "turn_rules", s, sizeof s);
    assert_string_equal(s, turn_rules_name(j->r.turns));
    attr_str(g, "ep_rule", s, sizeof s);
    assert_string_equal(s, ep_rule_name(j->r.ep));
    attr_str(g, "position", s, sizeof s);
    assert_string_equal(s, j->fen);
    assert_int_equal(attr_int(g, "depth"), j->depth);
    assert_int_equal(attr_int(g, "split_depth"), j->split.split_depth);
    assert_true(attr_u64(g, "nodes") == total);

    /* units: every one counted, as the split says, summing to the total */
    size_t n;
    FileUnit *u = read_units(g, &n);
    assert_int_equal(n, j->split.n_units);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        const WorkUnit *w = &j->split.units[i];
        assert_true(u[i].id == w->id);
        assert_int_equal(u[i].root, w->root);
        assert_int_equal(u[i].depth, w->depth);
        assert_true(u[i].multiplicity == w->multiplicity);
        assert_string_equal(u[i].fen, w->fen);
        assert_true(u[i].nodes == w->nodes);
        assert_int_equal(u[i].rank, w->rank);
        assert_true(u[i].seconds == w->seconds);
        assert_true(u[i].run >= 0 && u[i].run <= resumes);
        sum += u[i].nodes * u[i].multiplicity;
    }
    assert_true(sum == total);
    free(u);

    /* root turns and divide: the turn texts in generation order, each count the perft below */
    FileMove *turns = read_moves(g, "root_turns", "turn", &n);
    assert_int_equal(n, j->split.n_root);
    FileMove *div = read_moves(g, "divide", "move", &n);
    assert_int_equal(n, j->split.split_depth >= 1 ? j->split.n_root : 0);
    sum = 0;
    for (size_t i = 0; i < n; i++) {
        char text[TURN_TEXT_MAX];
        turn_to_uci(&j->split.root_turns[i], j->v, j->v->castle960, text);
        assert_string_equal(turns[i].move, text);
        assert_string_equal(div[i].move, text);
        Position child;
        position_make_turn(&j->root, &j->r, &j->split.root_turns[i], &child);
        assert_true(div[i].nodes == perft_turns(&child, &j->r, j->depth - 1));
        sum += div[i].nodes;
    }
    if (j->split.split_depth >= 1)
        assert_true(sum == total);
    free(turns);
    free(div);

    assert_int_equal(H5Lexists(g, "stats", H5P_DEFAULT) > 0, with_stats);
    if (with_stats) {
        typedef struct Row {
            int32_t depth;
            uint64_t nodes, checks;
        } Row;
        hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(Row));
        H5Tinsert(t, "depth", offsetof(Row, depth), H5T_NATIVE_INT32);
        H5Tinsert(t, "nodes", offsetof(Row, nodes), H5T_NATIVE_UINT64);
        H5Tinsert(t, "checks", offsetof(Row, checks), H5T_NATIVE_UINT64);
        Row *rows = read_table(g, "stats", t, sizeof(Row), &n);
        assert_int_equal(n, j->depth);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(rows[i].depth, (int)i + 1);
            assert_true(rows[i].nodes == perft_turns(&j->root, &j->r, (int)i + 1));
        }
        assert_true(rows[n - 1].nodes == total);
        free(rows);
        H5Tclose(t);
    }
    H5Gclose(g);
    assert_true(H5Fclose(f) >= 0);
}

/* h5dump, when installed, must read the whole file. */
static void check_h5dump(const char *path)
{
    if (access("/usr/bin/h5dump", X_OK) != 0) {
        print_message("h5dump not installed: skipped\n");
        return;
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "/usr/bin/h5dump '%s' >/dev/null 2>&1", path);
    int st = system(cmd);
    assert_true(st != -1 && WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* h5py, when installed, must read the total and sum the units to it (the snippet of
 * docs/result-files.md; texts are bytes to h5py). Debian's h5py is in the system's interpreter,
 * which another python3 on the path may hide. */
static void check_h5py(const char *path, uint64_t total)
{
    const char *python = "/usr/bin/python3";
    if (system("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") != 0)
        python = "python3";
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "%s -c 'import h5py' >/dev/null 2>&1", python);
    if (system(cmd) != 0) {
        print_message("h5py not installed: skipped\n");
        return;
    }
    snprintf(
        cmd, sizeof cmd,
        "%s -c '\n"
        "import h5py, sys\n"
        "f = h5py.File(sys.argv[1], \"r\")\n"
        "p = f[\"perft\"]\n"
        "u = p[\"units\"][:]\n"
        "s = sum(int(n) * int(m) for n, m in zip(u[\"nodes\"], u[\"multiplicity\"]))\n"
        "d = sum(int(n) for n in p[\"divide\"][\"nodes\"])\n"
        "ok = int(p.attrs[\"nodes\"]) == s == %llu and f.attrs[\"format\"] == b\"carrera-perft\"\n"
        "ok = ok and f.attrs[\"configuration\"].decode().startswith(\"[perft]\")\n"
        "sys.exit(0 if ok and d == s else 1)\n' '%s'",
        python, (unsigned long long)total, path);
    int st = system(cmd);
    assert_true(st != -1 && WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* Checks that the split read back is the job's, with the units of done[] counted. */
static void check_resumed_split(const Job *j, const Split *s)
{
    assert_int_equal(s->split_depth, j->split.split_depth);
    assert_int_equal(s->n_root, j->split.n_root);
    for (size_t i = 0; i < s->n_root; i++) {
        assert_int_equal(s->root_turns[i].n, j->split.root_turns[i].n);
        assert_int_equal(s->root_turns[i].m[0], j->split.root_turns[i].m[0]);
        if (s->root_turns[i].n == 2)
            assert_int_equal(s->root_turns[i].m[1], j->split.root_turns[i].m[1]);
    }
    assert_int_equal(s->n_units, j->split.n_units);
    for (size_t i = 0; i < s->n_units; i++) {
        const WorkUnit *a = &s->units[i], *b = &j->split.units[i];
        assert_true(a->id == b->id);
        assert_int_equal(a->root, b->root);
        assert_int_equal(a->depth, b->depth);
        assert_true(a->multiplicity == b->multiplicity);
        assert_string_equal(a->fen, b->fen);
        assert_true(a->nodes == b->nodes);
        assert_int_equal(a->rank, b->rank);
        assert_true(a->seconds == b->seconds);
    }
}

/* ---- the tests ---- */

/* Create, record half, close unfinished, resume, record the rest, finish; read it all back. */
static void test_create_resume_finish(void **state)
{
    (void)state;
    Job j;
    job_make(&j, "chess", TURNS_SINGLE, NULL, 4, 2);
    assert_true(j.split.n_units > 100);
    char path[300], err[512] = "";
    path_in(path, sizeof path, "job.h5");

    PerftFile *h = perft_file_create(path, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_resume_count(h), 0);
    size_t half = j.split.n_units / 2;
    for (size_t i = 0; i < half; i++) {
        count_unit(&j, &j.split.units[i], (int)(i % 2));
        assert_int_equal(perft_file_record_unit(h, &j.split.units[i], err, sizeof err), 0);
    }
    /* the same count again is harmless; another count, an unknown unit or no count are not */
    assert_int_equal(perft_file_record_unit(h, &j.split.units[0], err, sizeof err), 0);
    WorkUnit bad = j.split.units[0];
    bad.nodes++;
    assert_int_equal(perft_file_record_unit(h, &bad, err, sizeof err), -1);
    assert_contains(err, "counted twice");
    bad = j.split.units[0];
    bad.id = j.split.n_units + 5;
    assert_int_equal(perft_file_record_unit(h, &bad, err, sizeof err), -1);
    assert_contains(err, "not in the job");
    bad = j.split.units[half];
    assert_int_equal(perft_file_record_unit(h, &bad, err, sizeof err), -1);
    assert_contains(err, "no count");
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);

    Split s;
    h = perft_file_open_resume(path, &j.info, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_resume_count(h), 1);
    check_resumed_split(&j, &s);
    for (size_t i = half; i < s.n_units; i++) {
        assert_true(s.units[i].nodes == UNIT_NOT_DONE);
        assert_int_equal(s.units[i].rank, -1);
    }

    /* finishing with units left is refused, and the file stays resumable */
    assert_int_equal(perft_file_finish(h, &s, NULL, 0, NULL, NULL, err, sizeof err), -1);
    assert_contains(err, "not counted yet");
    split_free(&s);
    h = perft_file_open_resume(path, &j.info, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_resume_count(h), 2);

    for (size_t i = half; i < s.n_units; i++) {
        count_unit(&j, &j.split.units[i], 1);
        s.units[i] = j.split.units[i];
        assert_int_equal(perft_file_record_unit(h, &s.units[i], err, sizeof err), 0);
    }
    PerftStats stats[4];
    assert_int_equal(perft_stats(&j.root, &j.r, 4, 1, stats), 0);
    uint64_t total = 0;
    if (perft_file_finish(h, &s, stats, 4, NULL, &total, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(total == 197281);
    split_free(&s);

    check_finished_file(path, &j, total, 2, true);
    check_h5dump(path);
    check_h5py(path, total);
    split_free(&j.split);
}

/* Double-move turns: two-movement root turns survive the round trip and name the divide. */
static void test_marseillais(void **state)
{
    (void)state;
    Job j;
    job_make(&j, "chess", TURNS_MARSEILLAIS, NULL, 2, 1);
    char path[300], err[512] = "";
    path_in(path, sizeof path, "marseillais.h5");
    PerftFile *h = perft_file_create(path, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);

    Split s;
    j.info.split_depth = 1;
    h = perft_file_open_resume(path, &j.info, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    check_resumed_split(&j, &s);
    for (size_t i = 0; i < s.n_units; i++) {
        count_unit(&j, &j.split.units[i], 0);
        s.units[i] = j.split.units[i];
        assert_int_equal(perft_file_record_unit(h, &s.units[i], err, sizeof err), 0);
    }
    uint64_t total = 0;
    if (perft_file_finish(h, &s, NULL, 0, "2026-01-02T03:04:05Z", &total, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(total == 196646);
    split_free(&s);
    check_finished_file(path, &j, total, 1, false);
    split_free(&j.split);
}

/* Runs job j's creation and recording in a child that kills itself with SIGKILL after `count`
 * units from `first` (creating the file when create). */
static void killed_child(Job *j, const char *path, bool create, size_t first, size_t count,
                         double interval)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char err[ERRMSG_LEN];
        Split s;
        j->info.checkpoint_interval = interval;
        PerftFile *h = create ? perft_file_create(path, &j->info, &j->split, err, sizeof err)
                              : perft_file_open_resume(path, &j->info, &s, err, sizeof err);
        if (!h) {
            fprintf(stderr, "child: %s\n", err);
            _exit(3);
        }
        for (size_t i = first; i < first + count; i++) {
            count_unit(j, &j->split.units[i], 1);
            if (perft_file_record_unit(h, &j->split.units[i], err, sizeof err) != 0) {
                fprintf(stderr, "child: %s\n", err);
                _exit(4);
            }
        }
        raise(SIGKILL);
        _exit(5);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGKILL);
}

/* A job killed with SIGKILL resumes: units flushed before the kill are there, nothing else is
 * damaged, and the total comes out exact. */
static void test_killed_and_resumed(void **state)
{
    (void)state;
    Job j;
    job_make(&j, "capablanca", TURNS_SINGLE, NULL, 3, 2);
    char path[300], err[512] = "";
    path_in(path, sizeof path, "killed.h5");
    size_t n = j.split.n_units;
    assert_true(n > 40);

    /* flushed after every unit: all 10 units survive */
    killed_child(&j, path, true, 0, 10, 0);
    Split s;
    PerftFile *h = perft_file_open_resume(path, &j.info, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    for (size_t i = 0; i < n; i++) {
        if (i < 10) {
            Position p;
            assert_int_equal(split_unit_position(&s.units[i], j.v, &j.r, &p, err, sizeof err), 0);
            assert_true(s.units[i].nodes == perft_turns(&p, &j.r, s.units[i].depth));
            assert_int_equal(s.units[i].rank, 1);
        } else {
            assert_true(s.units[i].nodes == UNIT_NOT_DONE);
        }
    }
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);
    split_free(&s);

    /* a long checkpoint interval: killed before any flush, the file still opens, and what it
     * holds is either counted right or not counted */
    killed_child(&j, path, false, 10, 20, 3600);
    h = perft_file_open_resume(path, &j.info, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_resume_count(h), 3);
    for (size_t i = 0; i < n; i++) {
        WorkUnit *u = &s.units[i];
        if (i < 10)
            assert_true(u->nodes != UNIT_NOT_DONE);
        if (u->nodes == UNIT_NOT_DONE) {
            count_unit(&j, u, 0);
            assert_int_equal(perft_file_record_unit(h, u, err, sizeof err), 0);
        } else {
            Position p;
            assert_int_equal(split_unit_position(u, j.v, &j.r, &p, err, sizeof err), 0);
            assert_true(u->nodes == perft_turns(&p, &j.r, u->depth));
        }
        j.split.units[i] = *u;
    }
    uint64_t total = 0;
    if (perft_file_finish(h, &s, NULL, 0, NULL, &total, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(total == perft_turns(&j.root, &j.r, 3));
    split_free(&s);
    check_finished_file(path, &j, total, 3, false);
    split_free(&j.split);
}

/* A checkpoint of another job is refused, naming each difference, and is left untouched. */
/* A checkpoint that another process still holds (a killed job's ranks still ending) is named as
 * in use, never as damaged, and a resume waits for it the time it is given. */
static void test_locked_checkpoint(void **state)
{
    (void)state;
    Job j;
    job_make(&j, "chess", TURNS_SINGLE, NULL, 3, 1);
    char path[300], err[512] = "";
    path_in(path, sizeof path, "locked.h5");
    PerftFile *h = perft_file_create(path, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);

    int go[2], ready[2];
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(ready), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        Split s;
        PerftFile *held = perft_file_open_resume(path, &j.info, &s, err, sizeof err);
        char c = held ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
            _exit(3);
        sleep(1); /* still ending when the resume starts */
        _exit(held && perft_file_close(held, err, sizeof err) == 0 ? 0 : 4);
    }
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(c, 'y');

    Split s;
    j.info.lock_wait = 0.3;
    assert_null(perft_file_open_resume(path, &j.info, &s, err, sizeof err));
    assert_contains(err, "is in use by another process: a job still running or still ending?");
    assert_null(strstr(err, "damaged"));

    /* released within the wait: the resume goes on, with the other run's resume recorded */
    assert_int_equal(write(go[1], "g", 1), 1);
    j.info.lock_wait = 60;
    h = perft_file_open_resume(path, &j.info, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_int_equal(perft_file_resume_count(h), 2);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);
    split_free(&s);
    for (int i = 0; i < 2; i++) {
        close(go[i]);
        close(ready[i]);
    }
    split_free(&j.split);
}

static void test_mismatch_refused(void **state)
{
    (void)state;
    Job j;
    job_make(&j, "chess", TURNS_SINGLE, NULL, 2, 1);
    char path[300], err[1024] = "";
    path_in(path, sizeof path, "mismatch.h5");
    PerftFile *h = perft_file_create(path, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);

    Split s;
    Provenance other = j.prov;
    PerftFileInfo e;

#define REFUSED(expect)                                                                            \
    do {                                                                                           \
        assert_null(perft_file_open_resume(path, &e, &s, err, sizeof err));                        \
        assert_contains(err, path);                                                                \
        assert_contains(err, expect);                                                              \
        assert_null(s.units);                                                                      \
    } while (0)

    e = j.info;
    e.variant = "capablanca";
    REFUSED("the checkpoint is for variant chess, this job asks for capablanca");
    e = j.info;
    e.rules.turns = TURNS_MARSEILLAIS;
    REFUSED("the checkpoint is for turn rules single, this job asks for marseillais");
    e = j.info;
    e.rules.ep = EP_MODERN;
    REFUSED("the checkpoint is for en passant rule classic, this job asks for modern");
    e = j.info;
    e.fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3 0 1";
    REFUSED(
        "the checkpoint is for position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        ", this job asks for rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3 0 1");
    e = j.info;
    e.depth = 3;
    REFUSED("the checkpoint is for depth 2, this job asks for depth 3");
    e = j.info;
    e.split_depth = 2;
    REFUSED("the checkpoint has split depth 1, this job asks for split depth 2");
    e = j.info;
    e.key_seed = 5;
    REFUSED("the checkpoint was counted with key seed 0, this job asks for key seed 5 (one count "
            "must come from one set of keys: resume it with key seed 0, or count seed 5 into "
            "another file)");
    e = j.info;
    other.version = "9.9.9";
    e.prov = &other;
    REFUSED("the checkpoint was written by Carrera " CARRERA_VERSION ", this is Carrera 9.9.9");
    /* every difference at once */
    e.depth = 5;
    e.variant = "gothic";
    REFUSED("Carrera 9.9.9; the checkpoint is for variant chess, this job asks for gothic; "
            "the checkpoint is for depth 2, this job asks for depth 5");
#undef REFUSED

    /* the refusals changed nothing: the right job resumes it as a first resume */
    e = j.info;
    e.split_depth = 1;
    h = perft_file_open_resume(path, &e, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_resume_count(h), 1);
    check_resumed_split(&j, &s);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);
    split_free(&s);
    split_free(&j.split);
}

/* The key seed is in /perft as written; a checkpoint from before key seeds (no attribute) was
 * counted with the keys of seed 0 and resumes only under seed 0. */
static void test_key_seed(void **state)
{
    (void)state;
    Job j;
    job_make(&j, "capablanca", TURNS_SINGLE, NULL, 2, 1);
    j.info.key_seed = 9223372036854775807ull;
    char path[300], err[1024] = "";
    path_in(path, sizeof path, "key-seed.h5");
    PerftFile *h = perft_file_create(path, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    assert_true(h5read_u64(f, "/perft", "key_seed") == 9223372036854775807ull);
    /* As a file written before key seeds were recorded. */
    assert_true(H5Adelete_by_name(f, "/perft", "key_seed", H5P_DEFAULT) >= 0);
    H5Fclose(f);

    Split s;
    PerftFileInfo e = j.info;
    assert_null(perft_file_open_resume(path, &e, &s, err, sizeof err));
    assert_contains(err, "the checkpoint was counted with key seed 0, this job asks for key "
                         "seed 9223372036854775807");
    e.key_seed = 0;
    h = perft_file_open_resume(path, &e, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);
    split_free(&s);
    split_free(&j.split);
}

/* Files that are not Carrera checkpoints are refused with a message, never a crash. */
static void test_not_a_checkpoint(void **state)
{
    (void)state;
    Job j;
    job_make(&j, "chess", TURNS_SINGLE, NULL, 3, 2);
    char path[300], good[300], err[512];
    Split s;
    path_in(good, sizeof good, "good.h5");
    PerftFile *h = perft_file_create(good, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);
    size_t size;
    unsigned char *bytes = read_bytes(good, &size);

    path_in(path, sizeof path, "missing.h5");
    assert_null(perft_file_open_resume(path, &j.info, &s, err, sizeof err));
    assert_contains(err, "No such file or directory");

    assert_null(perft_file_open_resume(scratch_dir, &j.info, &s, err, sizeof err));
    assert_contains(err, "not a regular file");

    path_in(path, sizeof path, "text.h5");
    write_bytes(path, "[perft]\ndepth = 3\n", 18);
    assert_null(perft_file_open_resume(path, &j.info, &s, err, sizeof err));
    assert_contains(err, "is not an HDF5 file");

    path_in(path, sizeof path, "empty.h5");
    write_bytes(path, "", 0);
    assert_null(perft_file_open_resume(path, &j.info, &s, err, sizeof err));
    assert_contains(err, "is not an HDF5 file");

    /* cut at several places: at least the superblock's end-of-file address no longer matches */
    path_in(path, sizeof path, "truncated.h5");
    size_t cuts[] = { size / 2, size - 1, 1000, 100, 7 };
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        write_bytes(path, bytes, cuts[c]);
        err[0] = '\0';
        assert_null(perft_file_open_resume(path, &j.info, &s, err, sizeof err));
        assert_contains(err, path);
        assert_null(s.units);
    }

    /* the superblock signature damaged */
    path_in(path, sizeof path, "damaged.h5");
    bytes[1] ^= 0xff;
    write_bytes(path, bytes, size);
    bytes[1] ^= 0xff;
    assert_null(perft_file_open_resume(path, &j.info, &s, err, sizeof err));
    assert_contains(err, "is not an HDF5 file");

    /* an HDF5 file of somebody else, and one of a later layout */
    path_in(path, sizeof path, "other.h5");
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(f >= 0);
    H5Fclose(f);
    assert_null(perft_file_open_resume(path, &j.info, &s, err, sizeof err));
    assert_contains(err, "is an HDF5 file but not a Carrera checkpoint");
    path_in(path, sizeof path, "later.h5");
    write_bytes(path, bytes, size);
    f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t a = H5Aopen(f, "format_version", H5P_DEFAULT);
    int v = 99;
    assert_true(H5Awrite(a, H5T_NATIVE_INT, &v) >= 0);
    H5Aclose(a);
    H5Fclose(f);
    assert_null(perft_file_open_resume(path, &j.info, &s, err, sizeof err));
    assert_contains(err, "later.h5 was written in layout 99 of carrera-perft files; this Carrera "
                         "reads layout 2: finish it with the Carrera that wrote it");

    /* a file the previous layout's Carrera wrote (variable-length strings), and a match file of
     * that layout */
    assert_null(
        perft_file_open_resume(CARRERA_LAYOUT1 "/perft.layout1", &j.info, &s, err, sizeof err));
    assert_contains(err, "perft.layout1 was written in layout 1 of carrera-perft files; this "
                         "Carrera reads layout 2: finish it with the Carrera that wrote it");
    assert_null(s.units);
    assert_null(
        perft_file_open_resume(CARRERA_LAYOUT1 "/match.layout1", &j.info, &s, err, sizeof err));
    assert_contains(err, "is an HDF5 file but not a Carrera checkpoint");

    /* the good file still resumes */
    h = perft_file_open_resume(good, &j.info, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);
    split_free(&s);
    free(bytes);
    split_free(&j.split);
}

/* Unwritable places and existing files give messages; nothing is left behind. */
static void test_unwritable(void **state)
{
    (void)state;
    Job j;
    job_make(&j, "chess", TURNS_SINGLE, NULL, 2, 1);
    char path[300], err[512];

    path_in(path, sizeof path, "no/such/dir/x.h5");
    assert_null(perft_file_create(path, &j.info, &j.split, err, sizeof err));
    assert_contains(err, "cannot create");
    assert_contains(err, "No such file or directory");

    path_in(path, sizeof path, "plain");
    write_bytes(path, "x", 1);
    path_in(path, sizeof path, "plain/x.h5");
    assert_null(perft_file_create(path, &j.info, &j.split, err, sizeof err));
    assert_contains(err, "Not a directory");

    assert_null(perft_file_create("/proc/carrera_test.h5", &j.info, &j.split, err, sizeof err));
    assert_contains(err, "cannot create /proc/carrera_test.h5");

    if (geteuid() != 0) { /* root writes anywhere */
        path_in(path, sizeof path, "readonly");
        assert_int_equal(mkdir(path, 0500), 0);
        path_in(path, sizeof path, "readonly/x.h5");
        assert_null(perft_file_create(path, &j.info, &j.split, err, sizeof err));
        assert_contains(err, "Permission denied");
    }

    /* an existing file is not overwritten unless asked */
    path_in(path, sizeof path, "exists.h5");
    write_bytes(path, "precious", 8);
    assert_null(perft_file_create(path, &j.info, &j.split, err, sizeof err));
    assert_contains(err, "already exists");
    size_t n;
    char *kept = read_bytes(path, &n);
    assert_int_equal(n, 8);
    free(kept);
    j.info.overwrite = true;
    PerftFile *h = perft_file_create(path, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);
    split_free(&j.split);
}

/* In a child, a file size limit stands for a full disk: creating a file that does not fit, and
 * finishing one that cannot grow, fail with the system's message; the child exits 0 when they
 * did. */
static void test_disk_full(void **state)
{
    (void)state;
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
    /* Under ThreadSanitizer the forked child dies of SIGSEGV in its exit handlers (clang 14,
     * not under gcc, ASan or UBSan): TSan's runtime in a forked child, not this code's */
    skip();
#endif
#endif
    Job j;
    job_make(&j, "chess", TURNS_SINGLE, NULL, 3, 2); /* 400 units, about 80 kB */
    char big[300], small[300];
    path_in(big, sizeof big, "full-create.h5");
    path_in(small, sizeof small, "full-finish.h5");
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char err[ERRMSG_LEN];
        signal(SIGXFSZ, SIG_IGN);
        /* the soft limit only, so that it can be lifted again before the exit handlers run
         * (a sanitizer's runtime writes at exit too) */
        struct rlimit lim = { 16384, RLIM_INFINITY };
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(10);
        if (perft_file_create(big, &j.info, &j.split, err, sizeof err) != NULL)
            _exit(11);
        fprintf(stderr, "create: %s\n", err);
        if (!strstr(err, "File too large") || access(big, F_OK) == 0)
            _exit(12);

        /* a file that fits, then cannot grow by the divide at the end */
        Job k;
        job_make(&k, "chess", TURNS_SINGLE, NULL, 2, 1);
        PerftFile *h = perft_file_create(small, &k.info, &k.split, err, sizeof err);
        if (!h)
            _exit(13);
        struct stat st;
        if (stat(small, &st) != 0)
            _exit(14);
        lim.rlim_cur = (rlim_t)st.st_size;
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(15);
        for (size_t i = 0; i < k.split.n_units; i++) {
            count_unit(&k, &k.split.units[i], 0);
            if (perft_file_record_unit(h, &k.split.units[i], err, sizeof err) != 0)
                _exit(16);
        }
        /* statistics of many depths, so the file must grow well past HDF5's spare space */
        static PerftStats stats[400];
        if (perft_file_finish(h, &k.split, stats, 400, NULL, NULL, err, sizeof err) == 0)
            _exit(17);
        fprintf(stderr, "finish: %s\n", err);
        if (!strstr(err, "File too large"))
            _exit(18);
        lim.rlim_cur = RLIM_INFINITY;
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(19);
        exit(0); /* through the exit handlers: HDF5 must not crash on the failed files */
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);

    /* the checkpoint whose finish failed still holds every unit */
    char err[ERRMSG_LEN];
    Split s;
    Job k;
    job_make(&k, "chess", TURNS_SINGLE, NULL, 2, 1);
    PerftFile *h = perft_file_open_resume(small, &k.info, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    for (size_t i = 0; i < s.n_units; i++)
        assert_true(s.units[i].nodes == 20);
    uint64_t total = 0;
    if (perft_file_finish(h, &s, NULL, 0, NULL, &total, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(total == 400);
    split_free(&s);
    split_free(&k.split);
    split_free(&j.split);
}

/* The edge splits: a depth-0 job (the root is the one unit, no divide) and a mated root (no
 * root turns, no units, total 0). */
static void test_edge_splits(void **state)
{
    (void)state;
    char path[300], err[512];
    Job j;
    job_make(&j, "gothic", TURNS_SINGLE, NULL, 0, 0);
    assert_int_equal(j.split.n_units, 1);
    path_in(path, sizeof path, "depth0.h5");
    PerftFile *h = perft_file_create(path, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    count_unit(&j, &j.split.units[0], 0);
    assert_int_equal(perft_file_record_unit(h, &j.split.units[0], err, sizeof err), 0);
    uint64_t total = 0;
    if (perft_file_finish(h, &j.split, NULL, 0, NULL, &total, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(total == 1);
    check_finished_file(path, &j, 1, 0, false);
    check_h5dump(path);
    split_free(&j.split);

    job_make(&j, "chess", TURNS_SINGLE,
             "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 3, 1);
    assert_int_equal(j.split.n_units, 0);
    path_in(path, sizeof path, "mated.h5");
    h = perft_file_create(path, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);
    Split s;
    h = perft_file_open_resume(path, &j.info, &s, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(s.n_units, 0);
    if (perft_file_finish(h, &s, NULL, 0, NULL, &total, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(total == 0);
    split_free(&s);
    check_finished_file(path, &j, 0, 1, false);
    check_h5dump(path);
    split_free(&j.split);
}

/* Thousands of hosts and a long configuration fit (HDF5 keeps large attributes apart). */
static void test_large_provenance(void **state)
{
    (void)state;
    enum { HOSTS = 10000, CONFIG = 200000 };
    static char names[HOSTS][16];
    static const char *list[HOSTS];
    for (int i = 0; i < HOSTS; i++) {
        snprintf(names[i], sizeof names[i], "node%05d", i);
        list[i] = names[i];
    }
    char *config = malloc(CONFIG + 1);
    assert_non_null(config);
    for (int i = 0; i < CONFIG; i++)
        config[i] = i % 64 == 63 ? '\n' : (char)('a' + i % 26);
    config[CONFIG] = '\0';

    Job j;
    job_make(&j, "janus", TURNS_SINGLE, NULL, 1, 1);
    provenance_init(&j.prov, HOSTS, 1, list, HOSTS, config);
    char path[300], err[512];
    path_in(path, sizeof path, "large.h5");
    PerftFile *h = perft_file_create(path, &j.info, &j.split, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(h, err, sizeof err), 0);

    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t a = H5Aopen(f, "hosts", H5P_DEFAULT);
    hid_t sp = H5Aget_space(a);
    assert_int_equal(H5Sget_simple_extent_npoints(sp), HOSTS);
    H5Sclose(sp);
    H5Aclose(a);
    char *back = malloc(CONFIG + 1);
    assert_non_null(back);
    attr_str(f, "configuration", back, CONFIG + 1);
    assert_string_equal(back, config);
    H5Fclose(f);
    free(back);
    free(config);
    split_free(&j.split);
}

static void test_provenance(void **state)
{
    (void)state;
    char t[PROV_TIME_MAX];
    provenance_time(0, t);
    assert_string_equal(t, "1970-01-01T00:00:00Z");
    provenance_time(1795000000, t);
    assert_string_equal(t, "2026-11-18T11:06:40Z");
    Provenance p;
    provenance_init(&p, 4, 8, hosts, 2, NULL);
    assert_string_equal(p.version, CARRERA_VERSION);
    assert_string_equal(p.build, CARRERA_BUILD_FLAGS);
    assert_string_equal(p.config, "");
    assert_int_equal(p.ranks, 4);
    assert_int_equal(p.threads_per_rank, 8);
    assert_iso_time(p.start_time);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_provenance),        cmocka_unit_test(test_create_resume_finish),
        cmocka_unit_test(test_marseillais),       cmocka_unit_test(test_killed_and_resumed),
        cmocka_unit_test(test_mismatch_refused),  cmocka_unit_test(test_key_seed),
        cmocka_unit_test(test_locked_checkpoint), cmocka_unit_test(test_not_a_checkpoint),
        cmocka_unit_test(test_unwritable),        cmocka_unit_test(test_disk_full),
        cmocka_unit_test(test_edge_splits),       cmocka_unit_test(test_large_provenance),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
