/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc remoteproc: a remote processor framework with mainline Linux 6.1's
 * kernel API, userspace ABI and firmware format, built as the out-of-tree
 * module ampsoc_rproc. See docs/remoteproc.md.
 *
 * The structures, enums and constants keep mainline's names and fields
 * (struct rproc, struct rproc_ops, struct rproc_mem_entry, enum rproc_state,
 * RPROC_*, ...), so that a platform driver written for mainline builds
 * unchanged through include/compat/linux/remoteproc.h, which maps
 * mainline's function names onto the ampsoc_rproc_ exports declared here.
 * Debian's own <linux/remoteproc.h> declares the same structures for a
 * framework its kernel does not build (CONFIG_REMOTEPROC is off): this
 * header takes its include guard so that the two can never meet. The
 * resource table layout is Debian's <linux/rsc_table.h>, mainline's.
 */
#ifndef _AMPSOC_REMOTEPROC_H
#define _AMPSOC_REMOTEPROC_H

#ifdef REMOTEPROC_H
#error "Debian's <linux/remoteproc.h> was included before <ampsoc/remoteproc.h>"
#endif
#define REMOTEPROC_H

#include <linux/bitmap.h>
#include <linux/cdev.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/irqreturn.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/virtio.h>
#include <linux/workqueue.h>
#include <linux/rsc_table.h>

struct firmware;
struct rproc;
struct ampsoc_rproc_state;

/**
 * struct rproc_mem_entry - a memory region the remote processor sees
 * @va: kernel address, or NULL until @alloc has run
 * @is_iomem: @va is I/O memory (accessed with memcpy_toio() and friends)
 * @dma: DMA (bus) address
 * @len: size in bytes
 * @da: device address, or FW_RSC_ADDR_ANY until allocated
 * @priv: owner's data
 * @name: name, matched against carveout and vring resource names
 * @node: entry in &rproc.carveouts
 * @rsc_offset: offset of the carveout resource it serves, or
 *	FW_RSC_ADDR_ANY
 * @flags: IOMMU protection flags of the resource
 * @of_resm_idx: index of a reserved-memory region, or -1
 * @alloc: allocates the memory (sets @va, @dma, @da), or NULL
 * @release: releases what @alloc allocated, or NULL
 */
struct rproc_mem_entry {
	void *va;
	bool is_iomem;
	dma_addr_t dma;
	size_t len;
	u32 da;
	void *priv;
	char name[32];
	struct list_head node;
	u32 rsc_offset;
	u32 flags;
	u32 of_resm_idx;
	int (*alloc)(struct rproc *rproc, struct rproc_mem_entry *mem);
	int (*release)(struct rproc *rproc, struct rproc_mem_entry *mem);
};

/**
 * enum rsc_handling_status - what &rproc_ops.handle_rsc did
 * @RSC_HANDLED: the vendor resource was handled
 * @RSC_IGNORED: it was not (logged; the boot goes on)
 */
enum rsc_handling_status {
	RSC_HANDLED	= 0,
	RSC_IGNORED	= 1,
};

/**
 * struct rproc_ops - platform operations, mainline's set
 * @prepare: get the device ready for loading (e.g. declare carveouts)
 * @unprepare: undo @prepare after the processor stopped
 * @start: release the processor from reset at &rproc.bootaddr
 * @stop: put it back in reset
 * @attach: take over a processor started by someone else
 * @detach: leave a processor running and let it go
 * @kick: notify virtqueue @vqid; may be called in atomic context
 * @da_to_va: translate a device address range (tried before carveouts)
 * @parse_fw: read what the image describes (the resource table)
 * @handle_rsc: handle a vendor resource; return RSC_HANDLED, RSC_IGNORED
 *	or a negative errno that fails the boot
 * @find_loaded_rsc_table: where the loaded image keeps its resource table
 * @get_loaded_rsc_table: the table of a processor started by someone else
 * @load: copy the image into the processor's memory
 * @sanity_check: check the image before anything is done with it
 * @get_boot_addr: the image's entry point
 * @panic: the kernel panics; return how many milliseconds to wait
 * @coredump: take a coredump of a crashed processor
 *
 * &rproc_alloc copies the structure. Without @load, the ELF helpers are
 * used for @load, @parse_fw, @find_loaded_rsc_table, @sanity_check and
 * @get_boot_addr, as mainline does; without @coredump, the default ELF
 * core dump.
 */
struct rproc_ops {
	int (*prepare)(struct rproc *rproc);
	int (*unprepare)(struct rproc *rproc);
	int (*start)(struct rproc *rproc);
	int (*stop)(struct rproc *rproc);
	int (*attach)(struct rproc *rproc);
	int (*detach)(struct rproc *rproc);
	void (*kick)(struct rproc *rproc, int vqid);
	void * (*da_to_va)(struct rproc *rproc, u64 da, size_t len,
			   bool *is_iomem);
	int (*parse_fw)(struct rproc *rproc, const struct firmware *fw);
	int (*handle_rsc)(struct rproc *rproc, u32 rsc_type, void *rsc,
			  int offset, int avail);
	struct resource_table *(*find_loaded_rsc_table)(struct rproc *rproc,
							const struct firmware *fw);
	struct resource_table *(*get_loaded_rsc_table)(struct rproc *rproc,
						       size_t *size);
	int (*load)(struct rproc *rproc, const struct firmware *fw);
	int (*sanity_check)(struct rproc *rproc, const struct firmware *fw);
	u64 (*get_boot_addr)(struct rproc *rproc, const struct firmware *fw);
	unsigned long (*panic)(struct rproc *rproc);
	void (*coredump)(struct rproc *rproc);
};

/**
 * enum rproc_state - processor states, mainline's numbers and names
 * @RPROC_OFFLINE: powered off ("offline")
 * @RPROC_SUSPENDED: suspended ("suspended"; not used by the framework)
 * @RPROC_RUNNING: booted by Linux ("running")
 * @RPROC_CRASHED: crashed, recovery pending or disabled ("crashed")
 * @RPROC_ATTACHED: started by someone else, Linux attached ("attached")
 * @RPROC_DETACHED: started by someone else, Linux not attached
 *	("detached")
 * @RPROC_LAST: number of states ("invalid")
 */
enum rproc_state {
	RPROC_OFFLINE	= 0,
	RPROC_SUSPENDED	= 1,
	RPROC_RUNNING	= 2,
	RPROC_CRASHED	= 3,
	RPROC_ATTACHED	= 4,
	RPROC_DETACHED	= 5,
	RPROC_LAST	= 6,
};

/**
 * enum rproc_crash_type - what went wrong
 * @RPROC_MMUFAULT: an MMU or memory fault
 * @RPROC_WATCHDOG: a watchdog expired
 * @RPROC_FATAL_ERROR: any other fatal error
 */
enum rproc_crash_type {
	RPROC_MMUFAULT,
	RPROC_WATCHDOG,
	RPROC_FATAL_ERROR,
};

/**
 * enum rproc_dump_mechanism - coredump configuration
 * @RPROC_COREDUMP_DISABLED: no coredump (the default)
 * @RPROC_COREDUMP_ENABLED: copy the memory into a devcoredump
 * @RPROC_COREDUMP_INLINE: devcoredump reads device memory directly;
 *	crash handling waits until the dump is read or released
 */
enum rproc_dump_mechanism {
	RPROC_COREDUMP_DISABLED,
	RPROC_COREDUMP_ENABLED,
	RPROC_COREDUMP_INLINE,
};

/**
 * struct rproc_dump_segment - a range of device memory in coredumps
 * @node: entry in &rproc.dump_segments
 * @da: device address
 * @size: size in bytes
 * @priv: data for @dump (a section name for
 *	rproc_coredump_using_sections())
 * @dump: fills @dest with @size bytes from @offset of the segment, or NULL
 *	to copy through rproc_da_to_va()
 * @offset: offset of the segment in the dump
 */
struct rproc_dump_segment {
	struct list_head node;
	dma_addr_t da;
	size_t size;
	void *priv;
	void (*dump)(struct rproc *rproc, struct rproc_dump_segment *segment,
		     void *dest, size_t offset, size_t size);
	loff_t offset;
};

/**
 * enum rproc_features - optional behaviours
 * @RPROC_FEAT_ATTACH_ON_RECOVERY: recovery detaches and attaches again
 *	instead of reloading the firmware
 * @RPROC_MAX_FEATURES: number of features
 */
enum rproc_features {
	RPROC_FEAT_ATTACH_ON_RECOVERY,
	RPROC_MAX_FEATURES,
};

/**
 * struct rproc - a remote processor, mainline's fields
 * @node: entry in the list of registered processors
 * @domain: IOMMU domain while booted with @has_iommu
 * @name: human-readable name (the "name" attribute)
 * @firmware: firmware file name, relative to /lib/firmware
 * @priv: the platform's private data (rproc_alloc()'s @len bytes)
 * @ops: the platform's operations (a copy)
 * @dev: the class device, /sys/class/remoteproc/remoteprocN
 * @power: users that booted or attached the processor
 * @state: an &enum rproc_state
 * @dump_conf: coredump configuration
 * @lock: serialises state changes
 * @dbg_dir: debugfs directory
 * @traces: trace buffers of the loaded image
 * @num_traces: number of trace buffers
 * @carveouts: memory entries (struct rproc_mem_entry)
 * @mappings: IOMMU mappings made for the image
 * @bootaddr: entry point
 * @rvdevs: virtio devices of the image (struct rproc_vdev)
 * @subdevs: subdevices (struct rproc_subdev)
 * @notifyids: vring notify ids
 * @index: N in remoteprocN
 * @attach_work: attaches at registration (auto_boot of a detached core)
 * @crash_handler: handles a reported crash
 * @crash_handler_lock: orders crash reports against removal
 * @deleting: rproc_del() has begun
 * @crash_cnt: crashes since registration
 * @recovery_disabled: leave a crashed processor crashed
 * @max_notifyid: largest notify id in use
 * @table_ptr: resource table in effect
 * @clean_table: unmodified copy of an attached processor's table
 * @cached_table: the kernel's copy of the table
 * @table_sz: size of the table
 * @has_iommu: the processor sits behind an IOMMU
 * @auto_boot: boot (or attach) when registered; true by default
 * @sysfs_read_only: make the writable sysfs attributes read-only
 * @dump_segments: coredump segments (struct rproc_dump_segment)
 * @nb_vdev: vdev resources handled
 * @elf_class: ELF class for coredumps (ampsoc: also of accepted images)
 * @elf_machine: e_machine for coredumps (ampsoc: also of accepted images)
 * @cdev: /dev/remoteprocN
 * @cdev_put_on_release: shut down when /dev/remoteprocN is closed
 * @features: &enum rproc_features bits
 * @ampsoc: ampsoc's private state; drivers must not touch it
 */
struct rproc {
	struct list_head node;
	struct iommu_domain *domain;
	const char *name;
	const char *firmware;
	void *priv;
	struct rproc_ops *ops;
	struct device dev;
	atomic_t power;
	unsigned int state;
	enum rproc_dump_mechanism dump_conf;
	struct mutex lock;		/* state changes */
	struct dentry *dbg_dir;
	struct list_head traces;
	int num_traces;
	struct list_head carveouts;
	struct list_head mappings;
	u64 bootaddr;
	struct list_head rvdevs;
	struct list_head subdevs;
	struct idr notifyids;
	int index;
	struct work_struct attach_work;
	struct work_struct crash_handler;
	spinlock_t crash_handler_lock;	/* @deleting against crash reports */
	bool deleting;
	unsigned int crash_cnt;
	bool recovery_disabled;
	int max_notifyid;
	struct resource_table *table_ptr;
	struct resource_table *clean_table;
	struct resource_table *cached_table;
	size_t table_sz;
	bool has_iommu;
	bool auto_boot;
	bool sysfs_read_only;
	struct list_head dump_segments;
	int nb_vdev;
	u8 elf_class;
	u16 elf_machine;
	struct cdev cdev;
	bool cdev_put_on_release;
	DECLARE_BITMAP(features, RPROC_MAX_FEATURES);
	struct ampsoc_rproc_state *ampsoc;
};

/**
 * struct rproc_subdev - something that follows the processor's life
 * @node: entry in &rproc.subdevs
 * @prepare: before the processor starts
 * @start: after it started
 * @stop: before it stops; @crashed when recovering from a crash
 * @unprepare: after it stopped
 *
 * Subdevices are prepared and started in the order they were added, and
 * stopped and unprepared in the reverse order. Every callback is optional.
 */
struct rproc_subdev {
	struct list_head node;
	int (*prepare)(struct rproc_subdev *subdev);
	int (*start)(struct rproc_subdev *subdev);
	void (*stop)(struct rproc_subdev *subdev, bool crashed);
	void (*unprepare)(struct rproc_subdev *subdev);
};

/* Vrings per vdev resource, as mainline. */
#define RVDEV_NUM_VRINGS 2

struct rproc_vdev;

/**
 * struct rproc_vring - one vring of a vdev
 * @va: kernel address of its memory
 * @num: number of entries
 * @da: device address
 * @align: alignment of its used ring
 * @notifyid: its notify id
 * @rvdev: its vdev
 * @vq: its virtqueue while a virtio driver uses it
 */
struct rproc_vring {
	void *va;
	int num;
	u32 da;
	u32 align;
	int notifyid;
	struct rproc_vdev *rvdev;
	struct virtqueue *vq;
};

/**
 * struct rproc_vdev - a vdev resource, a virtio device while running
 * @subdev: the subdevice that registers the virtio device
 * @pdev: mainline's rproc-virtio platform device; always NULL in ampsoc,
 *	whose intermediate device is not on the platform bus
 * @id: virtio device id
 * @node: entry in &rproc.rvdevs
 * @rproc: the processor
 * @vring: its vrings
 * @rsc_offset: offset of its resource entry in the table
 * @index: its position among the vdevs of the table
 */
struct rproc_vdev {
	struct rproc_subdev subdev;
	struct platform_device *pdev;
	unsigned int id;
	struct list_head node;
	struct rproc *rproc;
	struct rproc_vring vring[RVDEV_NUM_VRINGS];
	u32 rsc_offset;
	u32 index;
};

/* Mainline's exported API, ampsoc_-prefixed (compat: <linux/remoteproc.h>) */
struct rproc *ampsoc_rproc_get_by_phandle(phandle phandle);
struct rproc *ampsoc_rproc_get_by_child(struct device *dev);
struct rproc *ampsoc_rproc_alloc(struct device *dev, const char *name,
				 const struct rproc_ops *ops,
				 const char *firmware, int len);
void ampsoc_rproc_put(struct rproc *rproc);
int ampsoc_rproc_add(struct rproc *rproc);
int ampsoc_rproc_del(struct rproc *rproc);
void ampsoc_rproc_free(struct rproc *rproc);
void ampsoc_rproc_resource_cleanup(struct rproc *rproc);
struct rproc *ampsoc_rproc_devm_alloc(struct device *dev, const char *name,
				      const struct rproc_ops *ops,
				      const char *firmware, int len);
int ampsoc_rproc_devm_add(struct device *dev, struct rproc *rproc);
void ampsoc_rproc_add_carveout(struct rproc *rproc,
			       struct rproc_mem_entry *mem);
__printf(8, 9) struct rproc_mem_entry *
ampsoc_rproc_mem_entry_init(struct device *dev, void *va, dma_addr_t dma,
			    size_t len, u32 da,
			    int (*alloc)(struct rproc *, struct rproc_mem_entry *),
			    int (*release)(struct rproc *, struct rproc_mem_entry *),
			    const char *name, ...);
__printf(5, 6) struct rproc_mem_entry *
ampsoc_rproc_of_resm_mem_entry_init(struct device *dev, u32 of_resm_idx,
				    size_t len, u32 da, const char *name, ...);
int ampsoc_rproc_of_parse_firmware(struct device *dev, int index,
				   const char **fw_name);
int ampsoc_rproc_boot(struct rproc *rproc);
int ampsoc_rproc_shutdown(struct rproc *rproc);
int ampsoc_rproc_detach(struct rproc *rproc);
int ampsoc_rproc_set_firmware(struct rproc *rproc, const char *fw_name);
void ampsoc_rproc_report_crash(struct rproc *rproc,
			       enum rproc_crash_type type);
void *ampsoc_rproc_da_to_va(struct rproc *rproc, u64 da, size_t len,
			    bool *is_iomem);
void ampsoc_rproc_coredump_using_sections(struct rproc *rproc);
int ampsoc_rproc_coredump_add_segment(struct rproc *rproc, dma_addr_t da,
				      size_t size);
int ampsoc_rproc_coredump_add_custom_segment(struct rproc *rproc,
					     dma_addr_t da, size_t size,
					     void (*dumpfn)(struct rproc *rproc,
							    struct rproc_dump_segment *segment,
							    void *dest, size_t offset,
							    size_t size),
					     void *priv);
int ampsoc_rproc_coredump_set_elf_info(struct rproc *rproc, u8 class,
				       u16 machine);
/* Largest register block of ampsoc_rproc_coredump_set_prstatus(). */
#define AMPSOC_RPROC_PRSTATUS_MAX	320
int ampsoc_rproc_coredump_set_prstatus(struct rproc *rproc, int signo,
				       const void *regs, size_t len);
void ampsoc_rproc_add_subdev(struct rproc *rproc,
			     struct rproc_subdev *subdev);
void ampsoc_rproc_remove_subdev(struct rproc *rproc,
				struct rproc_subdev *subdev);

/* Exported by mainline, declared in its remoteproc_internal.h */
irqreturn_t ampsoc_rproc_vq_interrupt(struct rproc *rproc, int notifyid);
phys_addr_t ampsoc_rproc_va_to_pa(void *cpu_addr);
int ampsoc_rproc_elf_sanity_check(struct rproc *rproc,
				  const struct firmware *fw);
u64 ampsoc_rproc_elf_get_boot_addr(struct rproc *rproc,
				   const struct firmware *fw);
int ampsoc_rproc_elf_load_segments(struct rproc *rproc,
				   const struct firmware *fw);
int ampsoc_rproc_elf_load_rsc_table(struct rproc *rproc,
				    const struct firmware *fw);
struct resource_table *
ampsoc_rproc_elf_find_loaded_rsc_table(struct rproc *rproc,
				       const struct firmware *fw);

/* ampsoc extensions (docs/mainline-differences.md) */
int ampsoc_rproc_add_mem(struct rproc *rproc, const char *name, u64 da,
			 phys_addr_t pa, void *va, size_t len);
int ampsoc_rproc_trigger_recovery(struct rproc *rproc);
const char *ampsoc_rproc_state_name(unsigned int state);
/* The framework's panic notifier, for tests that call it directly. */
extern struct notifier_block ampsoc_rproc_panic_nb;

/**
 * rproc_has_feature() - whether a feature is set, as mainline's
 * @rproc: the processor
 * @feature: an &enum rproc_features value
 *
 * Context: Any context.
 * Return: true if set.
 */
static inline bool rproc_has_feature(struct rproc *rproc,
				     unsigned int feature)
{
	return test_bit(feature, rproc->features);
}

/**
 * rproc_set_feature() - set a feature, as mainline's
 * @rproc: the processor, before registration
 * @feature: an &enum rproc_features value
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for an unknown feature.
 */
static inline int rproc_set_feature(struct rproc *rproc, unsigned int feature)
{
	if (feature >= RPROC_MAX_FEATURES)
		return -EINVAL;
	set_bit(feature, rproc->features);
	return 0;
}

#endif /* _AMPSOC_REMOTEPROC_H */
