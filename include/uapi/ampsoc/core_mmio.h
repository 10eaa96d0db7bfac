/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory-mapped peripherals of an emulated remote core (ARMv7-M or
 * RV32), as the runner (soc-model/core/) implements them and the firmware
 * SDK (firmware/port/platform/mmio/) uses them. docs/cores.md is the prose.
 *
 * A native x86-64 core reaches the outside through the boot ROM's function
 * table (include/uapi/ampsoc/bootrom.h). An emulated core is a real CPU: it has
 * no such table, only loads and stores. Every service of the boot ROM is
 * therefore a register of one block, the "core peripheral", at a fixed
 * device address per instruction set, and the core's interrupts come from
 * the instruction set's own interrupt controller: the NVIC in the System
 * Control Space on ARMv7-M, a PLIC on RV32.
 *
 * Registers are 32 bits, little-endian, and must be accessed with naturally
 * aligned 32-bit loads and stores, except CONSOLE, which takes any width
 * (its low byte counts). Any other access, and any access to an offset not
 * listed here, is a bus error: the core faults (docs/cores.md, "Faults").
 */
#ifndef _AMPSOC_CORE_MMIO_H
#define _AMPSOC_CORE_MMIO_H

/* ---- where the blocks are ------------------------------------------- */

/* ARMv7-M: the peripheral region (0x40000000..0x5fffffff), device memory */
#define AMPSOC_CORE_MMIO_BASE_ARMV7M	0x40000000u
/* ARMv7-M: the architectural System Control Space (NVIC, SCB, SysTick) */
#define AMPSOC_CORE_SCS_BASE		0xe000e000u
#define AMPSOC_CORE_SCS_SIZE		0x1000u

/* RV32: a SiFive-style layout (PLIC at 0x0c000000, peripherals at 0x10000000) */
#define AMPSOC_CORE_MMIO_BASE_RV32	0x10000000u
#define AMPSOC_CORE_PLIC_BASE		0x0c000000u

#define AMPSOC_CORE_MMIO_SIZE		0x1000u

/* ---- the core peripheral: identification ------------------------------ */

#define AMPSOC_MMIO_ID		0x000	/* RO: AMPSOC_MMIO_MAGIC */
#define AMPSOC_MMIO_VERSION	0x004	/* RO: AMPSOC_MMIO_VERSION_1 */
#define AMPSOC_MMIO_ISA		0x008	/* RO: AMPSOC_CORE_ISA_* (core_fault.h) */
#define AMPSOC_MMIO_FEATURES	0x00c	/* RO: AMPSOC_MMIO_F_* */
#define AMPSOC_MMIO_NR_WINDOWS	0x010	/* RO: entries of WINDOW_DA/LEN in use */
#define AMPSOC_MMIO_NR_VECTORS	0x014	/* RO: entries of VECTOR in use */
/*
 * DDR_DA/DDR_LEN (RO, only with AMPSOC_MMIO_F_DDR): which window is Linux's
 * own DRAM (a board's ddr key), guest physical address 0 at DDR_DA. A vring
 * mainline's DMA API placed there carries bus addresses of that RAM in its
 * descriptors, which the core translates through this window.
 */
#define AMPSOC_MMIO_DDR_DA	0x018
#define AMPSOC_MMIO_DDR_LEN	0x01c
#define AMPSOC_MMIO_NAME	0x020	/* RO: 32 bytes, the core's name, NUL-padded */
#define AMPSOC_MMIO_WINDOW_DA(i)	(0x040 + 8 * (i))	/* RO, i < 8 */
#define AMPSOC_MMIO_WINDOW_LEN(i)	(0x044 + 8 * (i))	/* RO, i < 8 */
#define AMPSOC_MMIO_VECTOR(i)	(0x080 + 4 * (i))	/* RO, i < 8: guest vectors */

#define AMPSOC_MMIO_MAGIC	0x524f4341u	/* "ACOR" little-endian */
#define AMPSOC_MMIO_VERSION_1	1u
#define AMPSOC_MMIO_NAME_LEN	32
#define AMPSOC_MMIO_MAX_WINDOWS	8
#define AMPSOC_MMIO_MAX_VECTORS	8

#define AMPSOC_MMIO_F_MBOX_IN	0x1u	/* the core has a guest->core channel */
#define AMPSOC_MMIO_F_MBOX_OUT	0x2u	/* the core has a core->guest channel */
#define AMPSOC_MMIO_F_DDR	0x4u	/* DDR_DA/DDR_LEN name Linux's DRAM */

/* ---- doorbells ---------------------------------------------------------- */

/*
 * DOORBELL_OUT (WO): ring guest vector <value>; ERROR becomes 0, or -EINVAL
 * if it is none of VECTOR(i).
 * DOORBELL_IN (RO): how many times Linux rang this core since the last
 * read (mailbox pushes included: they ring the same doorbell); reading
 * clears it. AMPSOC_IRQ_DOORBELL is asserted while it is not zero.
 * ERROR (RO): 0 or the negative errno of the last write to DOORBELL_OUT,
 * MBOX_OUT or WATCHDOG.
 */
#define AMPSOC_MMIO_DOORBELL_OUT	0x100
#define AMPSOC_MMIO_DOORBELL_IN		0x104
#define AMPSOC_MMIO_ERROR		0x108

/* ---- console, time, timer, watchdog ----------------------------------- */

/*
 * CONSOLE (WO): one character. '\n' ends the line, which goes to the
 * model as one console line (cut at 256 characters, non-printable
 * characters replaced by '?', as the boot ROM's console()).
 */
#define AMPSOC_MMIO_CONSOLE	0x110

/*
 * TIME_LO/TIME_HI (RO): CLOCK_MONOTONIC in ns. Reading TIME_LO latches
 * TIME_HI, so read LO first.
 * TIMER_CMP_LO/HI (RW): a deadline on that clock.
 * TIMER_CTRL (RW): bit 0 ENABLE. AMPSOC_IRQ_TIMER is asserted while ENABLE
 * is set and TIME >= CMP; bit 1 (RO) says the same. Clear ENABLE or move
 * CMP to the future to deassert it.
 */
#define AMPSOC_MMIO_TIME_LO		0x120
#define AMPSOC_MMIO_TIME_HI		0x124
#define AMPSOC_MMIO_TIMER_CMP_LO	0x128
#define AMPSOC_MMIO_TIMER_CMP_HI	0x12c
#define AMPSOC_MMIO_TIMER_CTRL		0x130
#define AMPSOC_TIMER_ENABLE		0x1u
#define AMPSOC_TIMER_EXPIRED		0x2u

/*
 * WATCHDOG (RW): write a timeout in microseconds to arm or pet the
 * watchdog, 0 to disarm it; ERROR becomes 0. Reads the microseconds left
 * (0: disarmed). It does not count while a debugger holds the core halted.
 * Expiry ends the core (AMPSOC_CORE_FAULT_WATCHDOG, SIGALRM).
 */
#define AMPSOC_MMIO_WATCHDOG		0x140

/* ---- ending the core ---------------------------------------------------- */

/*
 * EXIT (WO): end the core with exit status <value> & 63 (0 is a halt).
 * ABORT (WO): end the core with SIGABRT, whatever the value.
 * FAULT (WO): from a fault handler: end the core with the fault the runner
 * delivered to it (its record and signal: docs/cores.md); outside a fault
 * handler, the same as ABORT.
 */
#define AMPSOC_MMIO_EXIT		0x150
#define AMPSOC_MMIO_ABORT		0x154
#define AMPSOC_MMIO_FAULT		0x158

/* ---- the mailbox channels (struct vsoc_mbox_fifo in shared memory) ----- */

/*
 * MBOX_STATUS (RO): AMPSOC_MBOX_*.
 * MBOX_IN (RO): pop the next word of the guest->core channel; 0 and nothing
 * popped if it is empty, corrupt or absent.
 * MBOX_OUT (WO): push a word on the core->guest channel and ring its
 * vector; ERROR becomes 0, -ENODEV without the channel, -ENOSPC if it was
 * full (counted in the FIFO's overflows, the vector rung anyway) or -EIO
 * if its indexes are corrupt.
 * MBOX_IN_COUNT (RO): words waiting in the guest->core channel.
 * AMPSOC_IRQ_MBOX_IN is asserted while the guest->core channel holds words.
 */
#define AMPSOC_MMIO_MBOX_STATUS		0x160
#define AMPSOC_MMIO_MBOX_IN		0x164
#define AMPSOC_MMIO_MBOX_OUT		0x168
#define AMPSOC_MMIO_MBOX_IN_COUNT	0x16c

#define AMPSOC_MBOX_IN_PRESENT		0x1u
#define AMPSOC_MBOX_OUT_PRESENT		0x2u
#define AMPSOC_MBOX_IN_NOT_EMPTY	0x4u
#define AMPSOC_MBOX_OUT_FULL		0x8u
#define AMPSOC_MBOX_IN_CORRUPT		0x10u
#define AMPSOC_MBOX_OUT_CORRUPT		0x20u

/* ---- interrupt lines ----------------------------------------------------- */

/*
 * Level-sensitive lines of the core peripheral. On ARMv7-M line n is NVIC
 * external interrupt n (exception 16 + n); on RV32 it is PLIC source n + 1
 * (source 0 does not exist).
 */
#define AMPSOC_IRQ_DOORBELL	0
#define AMPSOC_IRQ_MBOX_IN	1
#define AMPSOC_IRQ_TIMER	2
#define AMPSOC_IRQ_COUNT	3

/* ---- ARMv7-M: the System Control Space registers the runner implements -- */

#define AMPSOC_SCS_ICTR		0x004	/* RO: 0 (up to 32 interrupts) */
#define AMPSOC_SCS_SYST_CSR	0x010	/* SysTick: ENABLE, TICKINT, CLKSOURCE, COUNTFLAG */
#define AMPSOC_SCS_SYST_RVR	0x014
#define AMPSOC_SCS_SYST_CVR	0x018
#define AMPSOC_SCS_SYST_CALIB	0x01c
#define AMPSOC_SCS_NVIC_ISER	0x100	/* set-enable, external interrupts 0..31 */
#define AMPSOC_SCS_NVIC_ICER	0x180	/* clear-enable */
#define AMPSOC_SCS_NVIC_ISPR	0x200	/* set-pending */
#define AMPSOC_SCS_NVIC_ICPR	0x280	/* clear-pending */
#define AMPSOC_SCS_NVIC_IABR	0x300	/* active (RO) */
#define AMPSOC_SCS_NVIC_IPR	0x400	/* priorities, one byte each, 0x400..0x41f */
#define AMPSOC_SCS_CPUID	0xd00
#define AMPSOC_SCS_ICSR		0xd04
#define AMPSOC_SCS_VTOR		0xd08
#define AMPSOC_SCS_AIRCR	0xd0c
#define AMPSOC_SCS_SCR		0xd10
#define AMPSOC_SCS_CCR		0xd14
#define AMPSOC_SCS_SHPR1	0xd18	/* system handler priorities, bytes 4..15 */
#define AMPSOC_SCS_SHPR2	0xd1c
#define AMPSOC_SCS_SHPR3	0xd20
#define AMPSOC_SCS_SHCSR	0xd24
#define AMPSOC_SCS_CFSR		0xd28
#define AMPSOC_SCS_HFSR		0xd2c
#define AMPSOC_SCS_MMFAR	0xd34
#define AMPSOC_SCS_BFAR		0xd38
#define AMPSOC_SCS_CPACR	0xd88	/* RAZ/WI: no FPU */
#define AMPSOC_SCS_STIR		0xf00

/* The SysTick counts at this rate (CLKSOURCE reads 1, the processor clock). */
#define AMPSOC_SYSTICK_HZ	100000000u
/* Implemented priority bits of the NVIC and system handlers (the top four). */
#define AMPSOC_NVIC_PRIO_BITS	4

/* ---- RV32: the PLIC registers the runner implements (offsets from base) -- */

#define AMPSOC_PLIC_PRIORITY(src)	(4 * (src))	/* sources 1..AMPSOC_IRQ_COUNT */
#define AMPSOC_PLIC_PENDING	0x1000		/* RO: bit src */
#define AMPSOC_PLIC_ENABLE	0x2000		/* context 0 (hart 0, machine mode) */
#define AMPSOC_PLIC_THRESHOLD	0x200000	/* context 0 */
#define AMPSOC_PLIC_CLAIM	0x200004	/* context 0: read claims, write completes */
#define AMPSOC_PLIC_PRIO_MAX	7

#endif /* _AMPSOC_CORE_MMIO_H */
