/* SPDX-License-Identifier: MIT */
/* Files in tests (files.h). */
#define _POSIX_C_SOURCE 200809L

#include "files.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char scratch_dir[] = "/tmp/carrera-test-XXXXXX";

int scratch_setup(void **state)
{
    (void)state;
    return mkdtemp(scratch_dir) ? 0 : -1;
}

int scratch_teardown(void **state)
{
    (void)state;
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", scratch_dir);
    return system(command) == 0 ? 0 : -1;
}

void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s", path);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

void *read_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    buf[len] = '\0';
    fclose(f);
    if (n)
        *n = (size_t)len;
    return buf;
}

void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        /* the part first: cmocka cuts long messages */
        fail_msg("missing '%s' in: '%s'", part, text);
}
