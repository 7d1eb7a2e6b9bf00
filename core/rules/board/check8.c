/* SPDX-License-Identifier: MIT */
/* The 8x8 instantiation of the invariant check (check.inc). */
#include "board.h"

#define FILES     8
#define BB        uint64_t
#define SFX(name) name##_8
#include "check.inc"
