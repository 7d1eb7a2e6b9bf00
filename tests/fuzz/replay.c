/* SPDX-License-Identifier: MIT */
/* Replays a fuzz target's corpus (tests/fuzz/corpus/TARGET: seeds, inputs libFuzzer found
 * interesting, and the reproducers of fixed crashes) through its LLVMFuzzerTestOneInput, so
 * that every build, not only the fuzz build, checks that none of them crashes, hangs or breaks
 * a promise the harness checks. With arguments, replays those files or directories instead
 * (`build/test_fuzz_h5 build-fuzz/artifacts/h5/crash-...`: a finding in an ordinary build). */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fuzz.h"

#ifndef CARRERA_FUZZ_CORPUS
#error "CARRERA_FUZZ_CORPUS must name the corpus directory"
#endif

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What to replay: the corpus, or the command line's files and directories. */
static const char *const *inputs;
static int n_inputs;

/* Runs the input in the file at path through the harness. */
static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, got;
    do {
        if (size == cap) {
            cap = cap ? 2 * cap : 4096;
            data = realloc(data, cap);
            assert_non_null(data);
        }
        got = fread(data + size, 1, cap - size, f);
        size += got;
    } while (got > 0);
    fclose(f);
    /* the harness gets exactly size bytes, as under libFuzzer, so that ASan sees overreads */
    uint8_t *exact = malloc(size ? size : 1);
    assert_non_null(exact);
    memcpy(exact, data, size);
    free(data);
    assert_int_equal(LLVMFuzzerTestOneInput(exact, size), 0);
    free(exact);
}

/* Replays every file of the directory dir in name order; returns their number. */
static size_t replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        assert_non_null(names);
        names[n] = strdup(e->d_name);
        assert_non_null(names[n++]);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        replay_file(path);
        free(names[i]);
    }
    free(names);
    return n;
}

static void test_corpus(void **state)
{
    (void)state;
    if (n_inputs == 0) {
        size_t n = replay_dir(CARRERA_FUZZ_CORPUS);
        /* a corpus that vanished would make this test pass without checking anything */
        assert_true(n > 0);
        printf("replayed %zu inputs of %s\n", n, CARRERA_FUZZ_CORPUS);
        return;
    }
    for (int i = 0; i < n_inputs; i++) {
        DIR *d = opendir(inputs[i]);
        if (d) {
            closedir(d);
            replay_dir(inputs[i]);
        } else {
            replay_file(inputs[i]);
        }
        printf("replayed %s\n", inputs[i]);
    }
}

int main(int argc, char **argv)
{
    inputs = (const char *const *)argv + 1;
    n_inputs = argc - 1;
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_corpus) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
