// SPDX-License-Identifier: GPL-2.0
/* Bare-metal environment: one thread, sleeping on the core's interrupt. */
#include <stdarg.h>
#include <stdio.h>

#include <amp/env.h>
#include <amp/log.h>
#include <amp/platform.h>

void env_lock_init(struct env_lock *lock)
{
	lock->depth = 0;
	lock->priv = NULL;
}

void env_lock(struct env_lock *lock)
{
	if (lock->depth++)
		env_panic("lock taken twice");
}

void env_unlock(struct env_lock *lock)
{
	if (!lock->depth--)
		env_panic("unlock of a free lock");
}

uint64_t env_time_ns(void)
{
	return platform_time_ns();
}

int env_wait_event(uint64_t timeout_ns)
{
	return platform_wait_irq(timeout_ns);
}

void env_log(const char *fmt, ...)
{
	char line[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	amp_log("%s", line);
}

void env_panic(const char *why)
{
	amp_log("panic: %s", why);
	platform_abort();
}
