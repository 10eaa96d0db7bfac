/* SPDX-License-Identifier: GPL-2.0 */
/* The firmware SDK's libc subset: ending the program. */
#ifndef _AMP_STDLIB_H
#define _AMP_STDLIB_H

#include <stddef.h>

/* Halt the core normally; the SoC model sees exit status @code & 63. */
void exit(int code) __attribute__((noreturn));
/* Crash the core (SIGABRT); Linux's remoteproc sees a crash. */
void abort(void) __attribute__((noreturn));

#endif /* _AMP_STDLIB_H */
