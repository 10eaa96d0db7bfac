/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake remote processor: a platform driver written against mainline's
 * remoteproc API only (<linux/remoteproc.h>, through include/compat), whose
 * processor memory is a buffer, so that the framework can be tested end to
 * end without the virtual SoC. Shared by ampsoc_rproc_fake (the driver) and
 * ampsoc_rproc_test (which creates its own devices and reaches the driver's
 * state through drvdata).
 */
#ifndef _AMPSOC_RPROC_FAKE_H
#define _AMPSOC_RPROC_FAKE_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/platform_device.h>
#include <linux/remoteproc.h>

#include "../../fuzz/remoteproc/rproc_fwgen.h"

#define AMPSOC_RPROC_FAKE_DRV	"ampsoc-rproc-fake"

/*
 * Where the fake places the carveouts it registers (as a device tree's
 * reserved-memory regions would), as offsets from FWGEN_MEM_DA.
 */
#define FAKE_TEXT_OFF		0x00000	/* "text", over the segments */
#define FAKE_TEXT_LEN		0x2000
#define FAKE_HEAP_OFF		0x10000	/* "heap" */
#define FAKE_HEAP_LEN		0x4000
#define FAKE_VRING_OFF		0x20000	/* "vdev0vring0", "vdev0vring1", ... */
#define FAKE_VRING_LEN		0x2000
#define FAKE_BUF_OFF		0x30000	/* "vdev0buffer" */
#define FAKE_BUF_LEN		0x10000
/* The table a boot loader left for a processor that starts detached. */
#define FAKE_ATT_RSC_OFF	0x80000
#define FAKE_ATT_TRACE_OFF	0x81000
#define FAKE_ATT_TRACE_LEN	0x800

/**
 * struct ampsoc_rproc_fake_pdata - how a fake processor is built
 * @elf_class: class given to rproc_coredump_set_elf_info() (0: not called)
 * @machine: its machine
 * @mem_size: bytes of memory at FWGEN_MEM_DA (0: FWGEN_MEM_SIZE)
 * @auto_boot: boot as soon as registered (mainline's default; the fake's
 *	is off)
 * @no_runtime_pm: leave runtime PM disabled, as a driver without it would
 * @contiguous: physically contiguous memory instead of vmalloc'd memory
 * @no_carveouts: register no carveouts: the framework allocates them
 * @detached: started by a "boot loader": registered detached, with a
 *	resource table in its memory
 * @custom_load: its own load operation, so the ELF helpers are not the
 *	defaults of the other operations (it sets get_boot_addr only)
 * @has_iommu: ask for an IOMMU domain
 * @recover_by_attach: RPROC_FEAT_ATTACH_ON_RECOVERY
 * @portable: runs on Linux 6.1's own remoteproc too (module parameter
 *	"portable"): firmware FWGEN_PORTABLE_NAME, no "vdev0buffer" carveout,
 *	no vdev in a boot loader's table, dump segments registered at prepare
 */
struct ampsoc_rproc_fake_pdata {
	u8 elf_class;
	u16 machine;
	size_t mem_size;
	bool auto_boot;
	bool no_runtime_pm;
	bool contiguous;
	bool no_carveouts;
	bool detached;
	bool custom_load;
	bool has_iommu;
	bool recover_by_attach;
	bool portable;
};

/**
 * struct ampsoc_rproc_fake - driver state, the platform device's drvdata
 * @rproc: the registered processor
 * @mem: its memory
 * @mem_size: size of @mem
 * @mem_pa: physical address of @mem, or ~0 for vmalloc'd memory
 * @no_carveouts: see &ampsoc_rproc_fake_pdata
 * @portable: see &ampsoc_rproc_fake_pdata
 * @starts: successful start() calls
 * @stops: stop() calls
 * @kicks: kick() calls
 * @prepares: prepare() calls
 * @unprepares: unprepare() calls
 * @attaches: attach() calls
 * @detaches: detach() calls
 * @loads: load() calls of the custom loader
 * @panics: panic() calls
 * @last_kick: vqid of the last kick
 * @running: the remote runs (started, or attached to)
 * @powered: the device is runtime-active (resume ran, suspend did not)
 * @powered_at_start: @powered when start() last ran
 * @fail_start: errno start() returns instead of starting, if non-zero
 * @fail_stop: errno stop() returns, if non-zero
 * @fail_prepare: errno prepare() returns, if non-zero
 * @panic_ms: what panic() returns
 * @started: completed by every start() and attach()
 * @dbg: debugfs directory
 */
struct ampsoc_rproc_fake {
	struct rproc *rproc;
	void *mem;
	size_t mem_size;
	phys_addr_t mem_pa;
	bool no_carveouts;
	bool portable;
	atomic_t starts;
	atomic_t stops;
	atomic_t kicks;
	atomic_t prepares;
	atomic_t unprepares;
	atomic_t attaches;
	atomic_t detaches;
	atomic_t loads;
	atomic_t panics;
	int last_kick;
	bool running;
	bool powered;
	bool powered_at_start;
	int fail_start;
	int fail_stop;
	int fail_prepare;
	unsigned int panic_ms;
	struct completion started;
	struct dentry *dbg;
};

#endif /* _AMPSOC_RPROC_FAKE_H */
