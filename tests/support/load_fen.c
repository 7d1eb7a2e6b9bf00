/* SPDX-License-Identifier: MIT */
#include "load_fen.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "errmsg.h"
#include "setup.h"

void load_fen(Position *p, const char *variant, const char *fen)
{
    Setup s;
    char err[ERRMSG_LEN];
    const Variant *v = variant_by_name(variant);
    if (!v)
        fail_msg("no variant named %s", variant);
    if (setup_from_fen(&s, v, fen, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    position_from_setup(p, &s);
}
