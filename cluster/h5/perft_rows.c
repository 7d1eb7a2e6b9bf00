/* SPDX-License-Identifier: MIT */
/* The tables of a perft result file (perft_rows.h): their HDF5 types and datasets. */
#include "perft_rows.h"

#include "h5file.h"

hid_t perft_rows_unit_type(void)
{
    const H5FileMember m[] = {
        { "id", offsetof(UnitRow, id), H5T_NATIVE_UINT64 },
        { "root", offsetof(UnitRow, root), H5T_NATIVE_UINT32 },
        { "depth", offsetof(UnitRow, depth), H5T_NATIVE_INT32 },
        { "multiplicity", offsetof(UnitRow, multiplicity), H5T_NATIVE_UINT64 },
        { "fen", offsetof(UnitRow, fen), 0 },
        { "nodes", offsetof(UnitRow, nodes), H5T_NATIVE_UINT64 },
        { "rank", offsetof(UnitRow, rank), H5T_NATIVE_INT32 },
        { "seconds", offsetof(UnitRow, seconds), H5T_NATIVE_DOUBLE },
        { "run", offsetof(UnitRow, run), H5T_NATIVE_INT32 },
    };
    return h5file_compound(sizeof(UnitRow), m, 9, FEN_MAX);
}

hid_t perft_rows_done_type(void)
{
    const H5FileMember m[] = {
        { "nodes", offsetof(DoneRow, nodes), H5T_NATIVE_UINT64 },
        { "rank", offsetof(DoneRow, rank), H5T_NATIVE_INT32 },
        { "seconds", offsetof(DoneRow, seconds), H5T_NATIVE_DOUBLE },
        { "run", offsetof(DoneRow, run), H5T_NATIVE_INT32 },
    };
    return h5file_compound(sizeof(DoneRow), m, 4, 0);
}

hid_t perft_rows_turn_type(void)
{
    const H5FileMember m[] = {
        { "turn", offsetof(TurnRow, turn), 0 },
        { "movements", offsetof(TurnRow, movements), H5T_NATIVE_INT32 },
        { "move1", offsetof(TurnRow, move1), H5T_NATIVE_UINT32 },
        { "move2", offsetof(TurnRow, move2), H5T_NATIVE_UINT32 },
    };
    return h5file_compound(sizeof(TurnRow), m, 4, TURN_TEXT_MAX);
}

hid_t perft_rows_divide_type(void)
{
    const H5FileMember m[] = {
        { "move", offsetof(DivideRow, move), 0 },
        { "nodes", offsetof(DivideRow, nodes), H5T_NATIVE_UINT64 },
    };
    return h5file_compound(sizeof(DivideRow), m, 2, TURN_TEXT_MAX);
}

hid_t perft_rows_stats_type(void)
{
#define S(f)                                                                                       \
    {                                                                                              \
#f, offsetof(StatsRow, f), H5T_NATIVE_UINT64                                               \
    }
    const H5FileMember m[] = {
        { "depth", offsetof(StatsRow, depth), H5T_NATIVE_INT32 },
        S(nodes),
        S(captures),
        S(en_passant),
        S(castles),
        S(promotions),
        S(checks),
        S(discovered_checks),
        S(double_checks),
        S(checkmates),
        S(one_movement),
        S(two_movement),
    };
#undef S
    return h5file_compound(sizeof(StatsRow), m, (int)(sizeof m / sizeof m[0]), 0);
}

hid_t perft_rows_work_type(void)
{
#define W(f)                                                                                       \
    {                                                                                              \
#f, offsetof(WorkRow, f), H5T_NATIVE_UINT64                                                \
    }
    const H5FileMember m[] = {
        { "rank", offsetof(WorkRow, rank), H5T_NATIVE_INT32 },
        { "run", offsetof(WorkRow, run), H5T_NATIVE_INT32 },
        W(probes),
        W(hits),
        W(shared_probes),
        W(shared_hits),
        W(shared_stores),
        W(shared_remote),
        W(shared_bytes),
    };
#undef W
    return h5file_compound(sizeof(WorkRow), m, (int)(sizeof m / sizeof m[0]), 0);
}

hid_t perft_rows_create_table(hid_t loc, const char *name, hid_t mt, size_t n)
{
    if (H5Lexists(loc, name, H5P_DEFAULT) > 0 && H5Ldelete(loc, name, H5P_DEFAULT) < 0)
        return -1;
    hsize_t dim = n;
    hid_t ft = H5Tcopy(mt);
    hid_t sp = H5Screate_simple(1, &dim, NULL);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    if (ft >= 0 && sp >= 0 && pl >= 0 && H5Tpack(ft) >= 0 &&
        H5Pset_layout(pl, H5D_CONTIGUOUS) >= 0 &&
        H5Pset_alloc_time(pl, H5D_ALLOC_TIME_EARLY) >= 0 && H5Pset_obj_track_times(pl, false) >= 0)
        d = H5Dcreate2(loc, name, ft, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    if (pl >= 0)
        H5Pclose(pl);
    if (sp >= 0)
        H5Sclose(sp);
    if (ft >= 0)
        H5Tclose(ft);
    return d;
}

int perft_rows_write_table(hid_t loc, const char *name, hid_t mt, size_t n, const void *rows)
{
    hid_t d = perft_rows_create_table(loc, name, mt, n);
    if (d < 0)
        return -1;
    int rc = h5file_write_rows(d, mt, 0, n, rows);
    return (H5Dclose(d) < 0 || rc < 0) ? -1 : rc;
}
