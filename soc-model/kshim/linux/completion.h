/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of vsoc_board.c: see ../vsoc_board_shim.h */
#include "../vsoc_board_shim.h"
