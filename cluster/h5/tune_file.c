/* SPDX-License-Identifier: MIT */
/* A result file of its own for a regression over earlier result files (tune_file.h). */
#include "tune_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include "h5file.h"
#include "tune_group.h"

int tune_file_create(const char *path, const Provenance *prov, const Tuner *t,
                     const char *const *sources, int n_sources, char *err, size_t errlen)
{
    h5file_quiet();
    struct stat st;
    if (stat(path, &st) == 0)
        return h5file_fail(err, errlen, "%s already exists: remove it to fit again", path);
    hid_t fa = h5file_file_access();
    hid_t f = fa < 0 ? -1 : H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, fa);
    if (fa >= 0)
        H5Pclose(fa);
    if (f < 0)
        return h5file_fail(err, errlen, "cannot create %s", path);
    int rc = h5file_put_str(f, "format", "carrera-tune");
    rc |= h5file_put_i32(f, "format_version", TUNE_FILE_FORMAT_VERSION);
    rc |= h5file_put_provenance(f, prov);
    rc |= h5file_put_str_array(f, "sources", sources, (size_t)n_sources);
    rc |= tune_group_write(f, t);
    if (H5Fclose(f) < 0)
        rc = -1;
    if (rc != 0) {
        unlink(path);
        return h5file_fail(err, errlen, "cannot write %s", path);
    }
    return 0;
}
