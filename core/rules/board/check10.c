/* SPDX-License-Identifier: MIT */
/* The 10x8 instantiation of the invariant check (check.inc). */
#include "board.h"

#define FILES     10
#define BB        u128
#define SFX(name) name##_10
#include "check.inc"
