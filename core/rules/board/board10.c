/* SPDX-License-Identifier: MIT */
/* The 10x8 instantiation of the bitboard core: 128-bit bitboards. */
#include "board.h"

#include <string.h>

#define FILES     10
#define BB        u128
#define SFX(name) name##_10
#include "board.inc"
#include "eval.inc"
