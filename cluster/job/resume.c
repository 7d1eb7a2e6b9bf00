/* SPDX-License-Identifier: MIT */
/* How a job treats the checkpoint at its output (resume.h). */
#define _POSIX_C_SOURCE 200809L

#include "resume.h"

#include <unistd.h>

bool resume_wanted(ResumeMode mode, const char *output)
{
    if (mode == RESUME_IF_PRESENT)
        return access(output, F_OK) == 0;
    return mode == RESUME_ALWAYS;
}
