/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake remote processor: a platform driver whose processor memory is a
 * vmalloc'd buffer, so that the remoteproc framework can be tested end to
 * end without the virtual SoC. Shared by ampsoc_rproc_fake (the driver)
 * and ampsoc_rproc_test (which creates its own devices and reaches the
 * driver's state through drvdata).
 */
#ifndef _AMPSOC_RPROC_FAKE_H
#define _AMPSOC_RPROC_FAKE_H

#include <linux/atomic.h>
#include <linux/platform_device.h>
#include <linux/wait.h>

#include <ampsoc/remoteproc.h>

#include "../../../drivers/remoteproc/ampsoc_rproc_fw.h"
#include "../../fuzz/remoteproc/rproc_fwgen.h"

#define AMPSOC_RPROC_FAKE_DRV	"ampsoc-rproc-fake"

/**
 * struct ampsoc_rproc_fake_pdata - how a fake processor is built
 * @elf_class: accepted ELF class (0: any)
 * @machine: accepted e_machine (0: any)
 * @mem_size: bytes of memory at FWGEN_MEM_DA (0: FWGEN_MEM_SIZE)
 * @auto_boot: boot as soon as registered
 * @no_runtime_pm: leave runtime PM disabled, as a driver without it would
 * @contiguous: physically contiguous memory (with a physical address)
 *	instead of vmalloc'd memory
 */
struct ampsoc_rproc_fake_pdata {
	u8 elf_class;
	u16 machine;
	size_t mem_size;
	bool auto_boot;
	bool no_runtime_pm;
	bool contiguous;
};

/**
 * struct ampsoc_rproc_fake - driver state, the platform device's drvdata
 * @rproc: the registered processor
 * @mem: its memory
 * @mem_size: size of @mem
 * @mem_pa: physical address of @mem, or ~0 for vmalloc'd memory
 * @starts: successful start() calls
 * @stops: stop() calls
 * @kicks: kick() calls
 * @last_kick: vqid of the last kick
 * @running: between start() and stop()
 * @powered: the device is runtime-active (resume ran, suspend did not)
 * @powered_at_start: @powered when start() last ran
 * @fail_start: errno start() returns instead of starting, if non-zero
 * @dbg: debugfs directory
 */
struct ampsoc_rproc_fake {
	struct ampsoc_rproc *rproc;
	void *mem;
	size_t mem_size;
	phys_addr_t mem_pa;
	atomic_t starts;
	atomic_t stops;
	atomic_t kicks;
	int last_kick;
	bool running;
	bool powered;
	bool powered_at_start;
	int fail_start;
	struct dentry *dbg;
};

#endif /* _AMPSOC_RPROC_FAKE_H */
