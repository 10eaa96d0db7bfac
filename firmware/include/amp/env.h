/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment seam (env_*): what the SDK needs from the software it runs
 * under. The bare-metal port (port/env/bm/) is single-threaded and sleeps on
 * the core's interrupt; an RTOS port would map these to its primitives. The
 * prototypes are the same for every port.
 */
#ifndef _AMP_ENV_H
#define _AMP_ENV_H

#include <stdint.h>

/* Barriers for memory shared with Linux. */
static inline void env_mb(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static inline void env_rmb(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static inline void env_wmb(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/**
 * struct env_lock - a lock around one SDK object
 * @depth: bare metal: nesting depth, to catch recursion
 * @priv: for an RTOS port's own handle
 */
struct env_lock {
	unsigned int depth;
	void *priv;
};

void env_lock_init(struct env_lock *lock);
void env_lock(struct env_lock *lock);
void env_unlock(struct env_lock *lock);

uint64_t env_time_ns(void);
/*
 * Sleep until something may have changed (an interrupt from Linux) or
 * @timeout_ns passed. Returns > 0 for an event, 0 on timeout, or a negative
 * errno.
 */
int env_wait_event(uint64_t timeout_ns);

/* Log a line (trace buffer and console). */
void env_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Report a broken invariant and crash the core. */
__attribute__((noreturn)) void env_panic(const char *why);

#endif /* _AMP_ENV_H */
