// SPDX-License-Identifier: GPL-2.0
/*
 * The native x86-64 ampsoc core: the hardware seam over the boot ROM
 * (include/uapi/ampsoc/bootrom.h). Memory is mapped at its device addresses, so
 * a device address is its own pointer once it is known to be in a window.
 *
 * Kicks towards Linux are platform_common.c's. After every wake-up the
 * incoming mailbox is drained: vring indexes need no action (every queue is
 * polled), an echo request is answered at once (the raw mailbox round
 * trip), other words are dropped.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include <uapi/ampsoc/bootrom.h>
#include <amp/platform.h>

#include "../common/common.h"

static const struct ampsoc_bootrom *rom;

int platform_init(const void *boot_arg)
{
	const struct ampsoc_bootrom *r = boot_arg;

	/* A runner older than the ddr fields is fine: they are checked on use. */
	if (!r || r->magic != AMPSOC_BOOTROM_MAGIC ||
	    r->version < AMPSOC_BOOTROM_VERSION ||
	    r->size < offsetof(struct ampsoc_bootrom, ddr_da) ||
	    r->nr_windows > AMPSOC_BOOTROM_MAX_WINDOWS ||
	    r->nr_vectors > AMPSOC_BOOTROM_MAX_VECTORS)
		return -22;	/* EINVAL */
	rom = r;
	return 0;
}

const char *platform_core_name(void)
{
	return rom->name;
}

unsigned int platform_nr_vectors(void)
{
	return rom->nr_vectors;
}

uint32_t platform_vector(unsigned int i)
{
	return i < rom->nr_vectors ? rom->vectors[i] : UINT32_MAX;
}

int platform_notify(uint32_t vector)
{
	return rom->doorbell(vector);
}

static bool has(size_t end)
{
	return rom->size >= end;
}

int platform_mbox_send(uint32_t msg)
{
	if (!has(offsetof(struct ampsoc_bootrom, mbox_send) + sizeof(void *)))
		return -ENODEV;
	return rom->mbox_send(msg);
}

int platform_mbox_recv(uint32_t *msg)
{
	if (!has(offsetof(struct ampsoc_bootrom, mbox_recv) + sizeof(void *)))
		return -ENODEV;
	return rom->mbox_recv(msg);
}

static void drain_mbox(void)
{
	uint32_t msg;
	unsigned int n;

	/* Bounded: a flood from Linux cannot keep the core here. */
	for (n = 0; n < 4 * 256 && platform_mbox_recv(&msg) == 1; n++)
		if (msg == AMPSOC_MBOX_MSG_ECHO_REQUEST)
			platform_mbox_send(AMPSOC_MBOX_MSG_ECHO_REPLY);
}

int platform_wait_irq(uint64_t timeout_ns)
{
	int ret = rom->wait_irq(timeout_ns);

	drain_mbox();
	return ret;
}

uint64_t platform_time_ns(void)
{
	return rom->time_ns();
}

int platform_console(const char *line, uint32_t len)
{
	return rom->console(line, len);
}

int platform_watchdog(uint64_t timeout_ns)
{
	return rom->watchdog(timeout_ns);
}

void *platform_da_to_va(uint64_t da, uint64_t len)
{
	return amp_window_find(rom->windows, rom->nr_windows, da, len);
}

int platform_ddr(uint64_t *da, uint64_t *len)
{
	if (!has(offsetof(struct ampsoc_bootrom, ddr_len) + sizeof(rom->ddr_len)) ||
	    !rom->ddr_len)
		return -ENODEV;
	/* The runner maps it as a window: refuse a table that says otherwise. */
	if (!amp_window_find(rom->windows, rom->nr_windows, rom->ddr_da,
			     rom->ddr_len))
		return -ENODEV;
	*da = rom->ddr_da;
	*len = rom->ddr_len;
	return 0;
}

void platform_exit(int code)
{
	rom->exit(code);
	__builtin_trap();	/* a boot ROM that returns is broken */
}

void platform_abort(void)
{
	rom->abort();
	__builtin_trap();
}
