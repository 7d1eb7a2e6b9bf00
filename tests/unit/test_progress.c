/* SPDX-License-Identifier: MIT */
/* Tests of the progress reports' rate and ETA (cluster/job/progress.c). The clock is not waited
 * for: a report's time is moved into the past by setting the start and the window's first sample
 * back, as if the job had run that long. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "progress.h"

/* A progress started RAN seconds ago (not quiet, reporting as into a log file). */
static Progress started_ago(double ran, double resumed_at)
{
    Progress p;
    progress_start(&p, "test", false);
    p.tty = false;
    if (resumed_at > 0)
        progress_resume(&p, resumed_at);
    p.start -= ran;
    p.last -= ran;
    p.samples[p.head].t -= ran;
    return p;
}

/* The seconds an ETA "H:MM:SS" stands for. */
static long eta_seconds(const char *eta)
{
    long h, m, s;
    if (sscanf(eta, "%ld:%ld:%ld", &h, &m, &s) != 3)
        fail_msg("ETA \"%s\" is not H:MM:SS", eta);
    return h * 3600 + m * 60 + s;
}

/* The ETA of a job that RAN seconds ago (resumed at resumed_at, 0: fresh) and now stands at done
 * of total is want seconds, give or take 2 s of rounding and the test's own time. */
static void expect_eta(double ran, double resumed_at, uint64_t done, uint64_t total, long want)
{
    Progress p = started_ago(ran, resumed_at);
    char eta[32];
    assert_true(progress_due(&p, done, total, eta) >= ran);
    const long s = eta_seconds(eta);
    if (s < want - 2 || s > want + 2)
        fail_msg("ETA %s, want %ld s", eta, want);
}

/* A fresh job: 300 of 3000 units in 20 s is 15 a second, 2700 left take 180 s. */
static void fresh_job(void **state)
{
    (void)state;
    expect_eta(20.0, 0, 300, 3000, 180);
}

/* A job resumed at 1500 of 3000 that did 10 more in 20 s: 0.5 a second, 1490 left take 2980 s.
 * Counting the 1500 of earlier runs as this run's work would say 20 s. */
static void resumed_job(void **state)
{
    (void)state;
    expect_eta(20.0, 1500, 1510, 3000, 2980);
}

/* Nothing done since the resume: no rate to go by. */
static void resumed_without_work(void **state)
{
    (void)state;
    Progress p = started_ago(20.0, 1500);
    char eta[32];
    assert_true(progress_due(&p, 1500, 3000, eta) >= 20.0);
    assert_string_equal(eta, "unknown");
}

/* Quiet jobs report nothing, and no report comes in the first two seconds. */
static void quiet_and_early(void **state)
{
    (void)state;
    Progress p;
    char eta[32];
    progress_start(&p, "test", true);
    p.start -= 20.0;
    assert_true(progress_due(&p, 10, 20, eta) == 0);
    progress_start(&p, "test", false);
    assert_true(progress_due(&p, 10, 20, eta) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fresh_job),
        cmocka_unit_test(resumed_job),
        cmocka_unit_test(resumed_without_work),
        cmocka_unit_test(quiet_and_early),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
