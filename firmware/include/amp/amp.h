/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc firmware SDK: the one header a firmware includes.
 *
 * The startup code (lib/crt0.S, lib/start.c) sets up the stack, clears
 * .bss, brings up the platform and the trace buffer, then calls main().
 * Returning from main() halts the core with that status.
 */
#ifndef _AMP_AMP_H
#define _AMP_AMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amp/cpu.h>
#include <amp/env.h>
#include <amp/log.h>
#include <amp/platform.h>
#include <amp/rsc_table.h>
#include <amp/trace.h>

#define AMP_FOREVER	UINT64_MAX
#define AMP_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

int main(void);

#endif /* _AMP_AMP_H */
