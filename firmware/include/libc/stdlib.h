/* SPDX-License-Identifier: GPL-2.0 */
/* The firmware SDK's libc subset: ending the program. */
#ifndef _AMP_STDLIB_H
#define _AMP_STDLIB_H

#include <stddef.h>

/* Halt the core normally; the SoC model sees exit status @code & 63. */
__attribute__((noreturn)) void exit(int code);
/* Crash the core (SIGABRT); Linux's remoteproc sees a crash. */
__attribute__((noreturn)) void abort(void);

#endif /* _AMP_STDLIB_H */
