/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc remoteproc: a remote processor framework with mainline Linux's
 * userspace ABI and firmware format, built as the out-of-tree module
 * ampsoc_rproc. See docs/remoteproc.md.
 *
 * A platform driver allocates a processor with ampsoc_rproc_alloc(),
 * describes its memory with ampsoc_rproc_add_mem(), and registers it with
 * ampsoc_rproc_add(). Users power it with ampsoc_rproc_get()/_put() (or
 * ampsoc_rproc_boot()/_shutdown()): the first user loads the firmware and
 * boots the processor, the last one powers it down.
 */
#ifndef _AMPSOC_REMOTEPROC_H
#define _AMPSOC_REMOTEPROC_H

#include <linux/cdev.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/irqreturn.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/srcu.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct ampsoc_fw_info;
struct ampsoc_rproc;
struct firmware;
struct virtio_device;

/**
 * enum ampsoc_rproc_state - processor states, numbered as mainline's
 * @AMPSOC_RPROC_OFFLINE: powered off
 * @AMPSOC_RPROC_SUSPENDED: suspended (not used by the core yet)
 * @AMPSOC_RPROC_RUNNING: booted and running
 * @AMPSOC_RPROC_CRASHED: crashed, recovery pending or disabled
 * @AMPSOC_RPROC_ATTACHED: attached to an already running processor
 * @AMPSOC_RPROC_DETACHED: running but not controlled by Linux
 * @AMPSOC_RPROC_LAST: number of states
 */
enum ampsoc_rproc_state {
	AMPSOC_RPROC_OFFLINE = 0,
	AMPSOC_RPROC_SUSPENDED = 1,
	AMPSOC_RPROC_RUNNING = 2,
	AMPSOC_RPROC_CRASHED = 3,
	AMPSOC_RPROC_ATTACHED = 4,
	AMPSOC_RPROC_DETACHED = 5,
	AMPSOC_RPROC_LAST = 6,
};

/**
 * enum ampsoc_rproc_crash_type - what went wrong, as mainline's
 * @AMPSOC_RPROC_MMUFAULT: an MMU or memory fault
 * @AMPSOC_RPROC_WATCHDOG: a watchdog expired
 * @AMPSOC_RPROC_FATAL_ERROR: any other fatal error
 */
enum ampsoc_rproc_crash_type {
	AMPSOC_RPROC_MMUFAULT,
	AMPSOC_RPROC_WATCHDOG,
	AMPSOC_RPROC_FATAL_ERROR,
};

/**
 * enum ampsoc_rproc_dump_mechanism - coredump configuration
 * @AMPSOC_RPROC_COREDUMP_DISABLED: no coredump
 * @AMPSOC_RPROC_COREDUMP_ENABLED: copy the memory into a devcoredump
 * @AMPSOC_RPROC_COREDUMP_INLINE: devcoredump reads device memory directly;
 *	recovery waits until userspace has read or released the dump
 */
enum ampsoc_rproc_dump_mechanism {
	AMPSOC_RPROC_COREDUMP_DISABLED,
	AMPSOC_RPROC_COREDUMP_ENABLED,
	AMPSOC_RPROC_COREDUMP_INLINE,
};

/* Return values of &ampsoc_rproc_ops.handle_rsc. */
#define AMPSOC_RSC_HANDLED	0
#define AMPSOC_RSC_IGNORED	1

/**
 * struct ampsoc_rproc_ops - platform-specific operations
 * @start: power on and release the processor from reset at the boot
 *	address (required). Called with the processor's lock held.
 * @stop: put the processor back in reset (required).
 * @kick: notify the processor that virtqueue @vqid has work.
 *	May be called in atomic context.
 * @da_to_va: translate a device address range not covered by the memory
 *	declared with ampsoc_rproc_add_mem(); return NULL if it is not mapped.
 * @load: replace the ELF segment loader (the image is already validated).
 * @parse_fw: called after the resource table has been validated and
 *	before it is handled, e.g. to add coredump segments.
 * @handle_rsc: handle a vendor resource (types 128..511) at @offset of the
 *	table; @avail bytes follow its type word. Return AMPSOC_RSC_HANDLED,
 *	AMPSOC_RSC_IGNORED or a negative errno that aborts the boot.
 */
struct ampsoc_rproc_ops {
	int (*start)(struct ampsoc_rproc *rproc);
	int (*stop)(struct ampsoc_rproc *rproc);
	void (*kick)(struct ampsoc_rproc *rproc, int vqid);
	void *(*da_to_va)(struct ampsoc_rproc *rproc, u64 da, size_t len);
	int (*load)(struct ampsoc_rproc *rproc, const struct firmware *fw);
	int (*parse_fw)(struct ampsoc_rproc *rproc, const struct firmware *fw);
	int (*handle_rsc)(struct ampsoc_rproc *rproc, u32 type, void *rsc,
			  int offset, int avail);
};

/**
 * struct ampsoc_rproc_subdev - a subdevice that follows the processor
 * @node: entry in the processor's list (owned by the core)
 * @prepare: called before the processor starts
 * @start: called after the processor has started
 * @stop: called before the processor stops; @crashed tells why
 * @unprepare: called after the processor has stopped
 *
 * Subdevices are started in the order they were added and stopped in the
 * reverse order. Every callback is optional.
 */
struct ampsoc_rproc_subdev {
	struct list_head node;
	int (*prepare)(struct ampsoc_rproc_subdev *subdev);
	int (*start)(struct ampsoc_rproc_subdev *subdev);
	void (*stop)(struct ampsoc_rproc_subdev *subdev, bool crashed);
	void (*unprepare)(struct ampsoc_rproc_subdev *subdev);
};

/**
 * struct ampsoc_rproc - a remote processor
 * @dev: the class device, /sys/class/remoteproc/remoteprocN
 * @name: human-readable name (the "name" attribute)
 * @index: N in remoteprocN
 * @ops: platform operations
 * @priv: platform private data (ampsoc_rproc_alloc()'s @len bytes)
 * @firmware: name of the firmware file in /lib/firmware
 * @elf_class: accepted ELF class, or 0 for both
 * @elf_machine: accepted e_machine, or 0 for any
 * @auto_boot: boot as soon as registered (default false)
 * @recovery_disabled: leave a crashed processor crashed
 * @dump_conf: coredump configuration
 * @state: current state
 * @crash_cnt: number of crashes since registration
 * @bootaddr: entry point of the running firmware
 * @table_ptr: resource table in use (loaded copy while running)
 * @table_sz: its size
 * @lock: serialises state changes
 * @power: number of users that booted the processor
 * @deleting: set once ampsoc_rproc_del() starts
 * @mems: memory declared by the platform
 * @allocs: ranges of @mems in use (segments, carveouts, vrings, buffers)
 * @mem_lock: protects @allocs; taken inside @lock, never around it
 * @vq_srcu: keeps vdevs and virtqueues alive for ampsoc_rproc_vq_interrupt()
 * @carveouts: carveouts of the running firmware
 * @traces: trace buffers
 * @rvdevs: virtio devices
 * @subdevs: subdevices
 * @dump_segments: segments included in a coredump
 * @notifyids: vring notify ids
 * @crash_work: crash handler
 * @boot_work: auto_boot
 * @dbg_dir: debugfs directory
 * @cdev: /dev/remoteprocN
 * @cdev_put_on_release: shut down when /dev/remoteprocN is released
 * @cached_table: the resource table copied from the firmware
 * @loaded_table: where the firmware's copy lives in device memory
 * @num_traces: trace buffers created
 * @num_vdevs: vdev resources handled
 * @crash_type: type of the pending crash
 * @dump_done: completion for inline coredumps
 * @fw_info: parse result of the firmware being booted
 * @registered: device_add() succeeded
 * @load_fw_bytes: size of the last firmware image loaded (under @lock)
 * @load_request_ns: time request_firmware() took for it
 * @load_bytes: bytes its segments occupy (copied or zeroed)
 * @load_ns: time the segment copy took
 * @memcpy_bytes: bytes of the last debugfs memcpy_bench run (under @lock)
 * @memcpy_ns: time its memcpy() took
 */
struct ampsoc_rproc {
	struct device dev;
	const char *name;
	int index;
	const struct ampsoc_rproc_ops *ops;
	void *priv;
	const char *firmware;
	u8 elf_class;
	u16 elf_machine;
	bool auto_boot;
	bool recovery_disabled;
	enum ampsoc_rproc_dump_mechanism dump_conf;
	enum ampsoc_rproc_state state;
	unsigned int crash_cnt;
	u64 bootaddr;
	void *table_ptr;
	size_t table_sz;

	/* private to the core */
	struct mutex lock;
	unsigned int power;
	bool deleting;
	struct list_head mems;
	struct list_head allocs;
	struct mutex mem_lock;		/* protects allocs */
	struct srcu_struct vq_srcu;
	struct list_head carveouts;
	struct list_head traces;
	struct list_head rvdevs;
	struct list_head subdevs;
	struct list_head dump_segments;
	struct idr notifyids;
	struct work_struct crash_work;
	struct work_struct boot_work;
	struct dentry *dbg_dir;
	struct cdev cdev;
	bool cdev_put_on_release;
	void *cached_table;
	void *loaded_table;
	unsigned int num_traces;
	unsigned int num_vdevs;
	enum ampsoc_rproc_crash_type crash_type;
	struct completion dump_done;
	struct ampsoc_fw_info *fw_info;
	bool registered;
	size_t load_fw_bytes;
	u64 load_request_ns;
	u64 load_bytes;
	u64 load_ns;
	u64 memcpy_bytes;
	u64 memcpy_ns;
};

struct ampsoc_rproc *ampsoc_rproc_alloc(struct device *parent,
					const char *name,
					const struct ampsoc_rproc_ops *ops,
					const char *firmware, size_t len);
int ampsoc_rproc_add_mem(struct ampsoc_rproc *rproc, const char *name,
			 u64 da, phys_addr_t pa, void *va, size_t len);
int ampsoc_rproc_add(struct ampsoc_rproc *rproc);
void ampsoc_rproc_del(struct ampsoc_rproc *rproc);
void ampsoc_rproc_free(struct ampsoc_rproc *rproc);

int ampsoc_rproc_boot(struct ampsoc_rproc *rproc);
int ampsoc_rproc_shutdown(struct ampsoc_rproc *rproc);
int ampsoc_rproc_get(struct ampsoc_rproc *rproc);
void ampsoc_rproc_put(struct ampsoc_rproc *rproc);
int ampsoc_rproc_set_firmware(struct ampsoc_rproc *rproc, const char *name);
void ampsoc_rproc_report_crash(struct ampsoc_rproc *rproc,
			       enum ampsoc_rproc_crash_type type);
int ampsoc_rproc_trigger_recovery(struct ampsoc_rproc *rproc);
void *ampsoc_rproc_da_to_va(struct ampsoc_rproc *rproc, u64 da, size_t len);

void ampsoc_rproc_add_subdev(struct ampsoc_rproc *rproc,
			     struct ampsoc_rproc_subdev *subdev);
void ampsoc_rproc_remove_subdev(struct ampsoc_rproc *rproc,
				struct ampsoc_rproc_subdev *subdev);

int ampsoc_rproc_coredump_add_segment(struct ampsoc_rproc *rproc, u64 da,
				      size_t size);

irqreturn_t ampsoc_rproc_vq_interrupt(struct ampsoc_rproc *rproc,
				      int notifyid);
struct ampsoc_rproc *ampsoc_rproc_from_vdev(struct virtio_device *vdev);
void *ampsoc_rproc_vdev_alloc(struct virtio_device *vdev, size_t size,
			      u64 *da, phys_addr_t *pa);
void ampsoc_rproc_vdev_free(struct virtio_device *vdev, void *va);

const char *ampsoc_rproc_state_name(enum ampsoc_rproc_state state);

#endif /* _AMPSOC_REMOTEPROC_H */
