/* SPDX-License-Identifier: MIT */
/* File paths of results (paths.h). */
#include "paths.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "errmsg.h"
#include "ini_file.h"

/* Creates the directories leading to the file path, as mkdir -p does. */
int make_parent_dirs(const char *path, char *err, size_t errlen)
{
    char dir[CONFIG_PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return errmsg_fail(err, errlen, "%s: path too long", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    for (char *c = dir + 1;; c++) {
        if (*c == '/' || *c == '\0') {
            char keep = *c;
            *c = '\0';
            if (mkdir(dir, 0777) != 0 && errno != EEXIST)
                return errmsg_fail(err, errlen, "cannot create the directory %.400s for %.400s: %s",
                                   dir, path, strerror(errno));
            *c = keep;
            if (keep == '\0')
                return 0;
        }
    }
}
