/* SPDX-License-Identifier: MIT */
/* A result file of its own for a regression over earlier result files (tune_file.h): made and
 * published whole as every result file is (result_file.c), never a checkpoint. */
#include "tune_file.h"

#include "h5file.h"
#include "result_file.h"
#include "tune_group.h"

static const ResultKind tune_kind = {
    .check = { .format = "carrera-tune", .version = TUNE_FILE_FORMAT_VERSION },
    .once = "remove it to fit again",
};

/* What tune_file_create gives write_body. */
typedef struct Creating {
    const ResultFile *rf;
    const Tuner *t;
    const char *const *sources;
    int n_sources;
} Creating;

/* Writes what follows the provenance: the sources' paths and /tune. */
static int write_body(void *ctx, char *err, size_t errlen)
{
    const Creating *c = ctx;
    hid_t f = c->rf->file;
    if (h5file_put_str_array(f, "sources", c->sources, (size_t)c->n_sources) < 0 ||
        tune_group_write(f, c->t) < 0)
        return h5file_fail(err, errlen, "cannot write %s", c->rf->path);
    return 0;
}

int tune_file_create(const char *path, const Provenance *prov, const Tuner *t,
                     const char *const *sources, int n_sources, char *err, size_t errlen)
{
    h5file_quiet();
    ResultFile rf;
    if (result_file_init(&rf, &tune_kind, NULL, path) < 0) {
        result_file_free(&rf);
        return h5file_fail(err, errlen, "%s: out of memory", path);
    }
    Creating c = { &rf, t, sources, n_sources };
    int rc = result_file_create(&rf, prov, false, write_body, &c, err, errlen);
    if (rc == 0)
        rc = result_file_close(&rf, err, errlen);
    result_file_free(&rf);
    return rc;
}
