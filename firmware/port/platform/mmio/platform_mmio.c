// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated ampsoc cores (ARMv7-M, RV32): the hardware seam over the
 * core peripheral's registers (include/uapi/ampsoc/core_mmio.h), with the
 * instruction set's interrupt controller (port/platform/<isa>/) delivering
 * its lines:
 *  - DOORBELL: the handler reads DOORBELL_IN (which lowers the line) and
 *    adds it to the count platform_wait_irq() returns;
 *  - MBOX_IN: the handler drains the guest->core channel, answering an echo
 *    request at once (the raw mailbox round trip) and dropping the rest
 *    (vring notifyids: every queue is polled after a wake-up anyway);
 *  - TIMER: platform_wait_irq()'s timeout; the handler disarms it.
 * platform_wait_irq() sleeps in the real WFI instruction with interrupts
 * masked, so a doorbell between its check and the WFI still wakes it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include <uapi/ampsoc/bootrom.h>
#include <uapi/ampsoc/core_mmio.h>
#include <amp/cpu.h>
#include <amp/platform.h>

#include "../common/common.h"
#include "mmio.h"

static struct {
	char name[AMPSOC_MMIO_NAME_LEN + 1];
	struct ampsoc_bootrom_window windows[AMPSOC_MMIO_MAX_WINDOWS];
	unsigned int nr_windows;
	uint32_t vectors[AMPSOC_MMIO_MAX_VECTORS];
	unsigned int nr_vectors;
} core;

/* Doorbells counted by the interrupt handler, taken by platform_wait_irq(). */
static uint32_t doorbells;

static inline uint32_t rd(unsigned int off)
{
	return amp_mmio_read32(AMP_MMIO_BASE + off);
}

static inline void wr(unsigned int off, uint32_t v)
{
	amp_mmio_write32(AMP_MMIO_BASE + off, v);
}

/* Write a register whose result lands in ERROR, and read it, atomically. */
static int wr_result(unsigned int off, uint32_t v)
{
	uint32_t irq = amp_irq_save();
	int ret;

	wr(off, v);
	ret = (int32_t)rd(AMPSOC_MMIO_ERROR);
	amp_irq_restore(irq);
	return ret;
}

int platform_init(const void *boot_arg)
{
	unsigned int i;

	if (rd(AMPSOC_MMIO_ID) != AMPSOC_MMIO_MAGIC ||
	    rd(AMPSOC_MMIO_VERSION) < AMPSOC_MMIO_VERSION_1)
		return -EINVAL;
	for (i = 0; i < AMPSOC_MMIO_NAME_LEN; i += 4) {
		uint32_t w = rd(AMPSOC_MMIO_NAME + i);

		core.name[i] = w;
		core.name[i + 1] = w >> 8;
		core.name[i + 2] = w >> 16;
		core.name[i + 3] = w >> 24;
	}
	core.nr_windows = rd(AMPSOC_MMIO_NR_WINDOWS);
	core.nr_vectors = rd(AMPSOC_MMIO_NR_VECTORS);
	if (core.nr_windows > AMPSOC_MMIO_MAX_WINDOWS ||
	    core.nr_vectors > AMPSOC_MMIO_MAX_VECTORS)
		return -EINVAL;
	for (i = 0; i < core.nr_windows; i++) {
		core.windows[i].da = rd(AMPSOC_MMIO_WINDOW_DA(i));
		core.windows[i].len = rd(AMPSOC_MMIO_WINDOW_LEN(i));
	}
	for (i = 0; i < core.nr_vectors; i++)
		core.vectors[i] = rd(AMPSOC_MMIO_VECTOR(i));
	amp_port_irq_init();
	return 0;
}

const char *platform_core_name(void)
{
	return core.name;
}

unsigned int platform_nr_vectors(void)
{
	return core.nr_vectors;
}

uint32_t platform_vector(unsigned int i)
{
	return i < core.nr_vectors ? core.vectors[i] : UINT32_MAX;
}

int platform_notify(uint32_t vector)
{
	return wr_result(AMPSOC_MMIO_DOORBELL_OUT, vector);
}

int platform_mbox_send(uint32_t msg)
{
	uint32_t st = rd(AMPSOC_MMIO_MBOX_STATUS);

	if (!(st & AMPSOC_MBOX_OUT_PRESENT))
		return -ENODEV;
	return wr_result(AMPSOC_MMIO_MBOX_OUT, msg);
}

int platform_mbox_recv(uint32_t *msg)
{
	uint32_t irq = amp_irq_save(), st = rd(AMPSOC_MMIO_MBOX_STATUS);
	int ret = 1;

	if (!(st & AMPSOC_MBOX_IN_PRESENT))
		ret = -ENODEV;
	else if (st & AMPSOC_MBOX_IN_CORRUPT)
		ret = -EIO;
	else if (!(st & AMPSOC_MBOX_IN_NOT_EMPTY))
		ret = 0;
	else
		*msg = rd(AMPSOC_MMIO_MBOX_IN);
	amp_irq_restore(irq);
	return ret;
}

void amp_mmio_isr(unsigned int line)
{
	uint32_t msg;
	unsigned int n;

	switch (line) {
	case AMPSOC_IRQ_DOORBELL:
		__atomic_fetch_add(&doorbells, rd(AMPSOC_MMIO_DOORBELL_IN), __ATOMIC_RELAXED);
		break;
	case AMPSOC_IRQ_MBOX_IN:
		/* Bounded: a flood from Linux interrupts again instead. */
		for (n = 0; n < 256 && platform_mbox_recv(&msg) == 1; n++)
			if (msg == AMPSOC_MBOX_MSG_ECHO_REQUEST)
				platform_mbox_send(AMPSOC_MBOX_MSG_ECHO_REPLY);
		break;
	case AMPSOC_IRQ_TIMER:
		wr(AMPSOC_MMIO_TIMER_CTRL, 0);
		break;
	}
}

uint64_t platform_time_ns(void)
{
	uint32_t irq = amp_irq_save(), lo, hi;

	lo = rd(AMPSOC_MMIO_TIME_LO);	/* latches HI */
	hi = rd(AMPSOC_MMIO_TIME_HI);
	amp_irq_restore(irq);
	return (uint64_t)hi << 32 | lo;
}

int platform_wait_irq(uint64_t timeout_ns)
{
	uint64_t deadline = 0, now = platform_time_ns();
	bool timed = timeout_ns != UINT64_MAX;
	uint32_t n;

	if (timed)
		deadline = timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
	if (timed && timeout_ns) {
		wr(AMPSOC_MMIO_TIMER_CMP_LO, (uint32_t)deadline);
		wr(AMPSOC_MMIO_TIMER_CMP_HI, deadline >> 32);
		wr(AMPSOC_MMIO_TIMER_CTRL, AMPSOC_TIMER_ENABLE);
	}
	for (;;) {
		uint32_t irq = amp_irq_save();

		n = __atomic_exchange_n(&doorbells, 0, __ATOMIC_RELAXED);
		if (n || (timed && platform_time_ns() >= deadline)) {
			amp_irq_restore(irq);
			break;
		}
		/* A pending interrupt, even masked, ends the WFI at once. */
		amp_cpu_wfi();
		amp_irq_restore(irq);
	}
	if (timed && timeout_ns)
		wr(AMPSOC_MMIO_TIMER_CTRL, 0);
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

/* One line, its own newline dropped: the peripheral cuts it at 256. */
int platform_console(const char *line, uint32_t len)
{
	uint32_t i;

	if (len && line[len - 1] == '\n')
		len--;
	for (i = 0; i < len; i++)
		wr(AMPSOC_MMIO_CONSOLE, line[i] == '\n' ? '?' : (unsigned char)line[i]);
	wr(AMPSOC_MMIO_CONSOLE, '\n');
	return 0;
}

int platform_watchdog(uint64_t timeout_ns)
{
	uint64_t us = timeout_ns / 1000 + (timeout_ns % 1000 != 0);

	if (us > UINT32_MAX)
		return -EINVAL;
	return wr_result(AMPSOC_MMIO_WATCHDOG, us);
}

void *platform_da_to_va(uint64_t da, uint64_t len)
{
	return amp_window_find(core.windows, core.nr_windows, da, len);
}

/* Linux's DRAM, if the core peripheral names one of the windows as it. */
int platform_ddr(uint64_t *da, uint64_t *len)
{
	if (!(rd(AMPSOC_MMIO_FEATURES) & AMPSOC_MMIO_F_DDR))
		return -ENODEV;
	*da = rd(AMPSOC_MMIO_DDR_DA);
	*len = rd(AMPSOC_MMIO_DDR_LEN);
	return *len ? 0 : -ENODEV;
}

void platform_exit(int code)
{
	wr(AMPSOC_MMIO_EXIT, code);
	for (;;)
		amp_cpu_relax();	/* not reached */
}

void platform_abort(void)
{
	wr(AMPSOC_MMIO_ABORT, 1);
	for (;;)
		amp_cpu_relax();
}
