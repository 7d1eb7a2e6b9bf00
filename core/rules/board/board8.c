/* SPDX-License-Identifier: MIT */
/* The 8x8 instantiation of the bitboard core: 64-bit bitboards. */
#include "board.h"

#include <string.h>

#define FILES     8
#define BB        uint64_t
#define SFX(name) name##_8
#include "board.inc"
#include "eval.inc"
