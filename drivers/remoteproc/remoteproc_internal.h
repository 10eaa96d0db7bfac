/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Definitions shared by the files of the ampsoc_rproc module only.
 */
#ifndef _AMPSOC_RPROC_INTERNAL_H
#define _AMPSOC_RPROC_INTERNAL_H

#include <linux/firmware.h>
#include <linux/srcu.h>
#include <ampsoc/remoteproc.h>

#include "remoteproc_fw.h"

/* A physical address the platform could not give (e.g. vmalloc memory). */
#define AMPSOC_RPROC_NO_PA	((phys_addr_t)~0ull)

/* Longest reason kept for the one "firmware NAME rejected" line. */
#define AMPSOC_RPROC_REASON_LEN		160

/* A contiguous range of memory declared with ampsoc_rproc_add_mem(). */
struct ampsoc_rproc_mem {
	struct list_head node;
	char name[32];
	u64 da;
	phys_addr_t pa;
	void *va;
	size_t len;
};

/*
 * A used range of declared memory. Claims are carveouts and vrings the
 * pool placed; reservations (segments, trace buffers, carveouts the driver
 * placed) only keep "anywhere" allocations away.
 */
struct ampsoc_rproc_da_alloc {
	struct list_head node;
	u64 da;
	u64 len;
	bool claim;
};

struct ampsoc_rproc_trace {
	struct rproc *rproc;
	struct dentry *tfile;
	struct list_head node;
	struct rproc_mem_entry trace_mem;
};

/*
 * A vdev resource: mainline's struct rproc_vdev, the device its virtio
 * device hangs from, the ring count and config size checked at boot, and
 * its buffer region (shm_va is set when it was allocated for it).
 */
struct ampsoc_rproc_rvdev {
	struct rproc_vdev rvdev;
	struct device dev;
	int dev_id;
	unsigned int num_vrings;
	u32 config_len;
	struct virtio_device *vdev;
	void *shm_va;
	u64 shm_da;
	phys_addr_t shm_pa;
	size_t shm_len;
};

/* ampsoc's state of a processor, &rproc.ampsoc. */
struct ampsoc_rproc_state {
	struct rproc *rproc;
	struct list_head pool;		/* struct ampsoc_rproc_mem */
	struct list_head allocs;	/* struct ampsoc_rproc_da_alloc */
	struct mutex pool_lock;		/* protects allocs */
	struct srcu_struct vq_srcu;	/* vrings for ampsoc_rproc_vq_interrupt() */
	bool registered;
	bool pm_held;		/* the framework's runtime-PM reference */
	bool subdevs_up;	/* subdevices started and not stopped */
	/* class and machine of the image loaded last, for coredumps */
	u8 img_class;
	u16 img_machine;
	/* registers for the next coredump's NT_PRSTATUS note, under note_lock */
	spinlock_t note_lock;
	int note_signo;
	size_t note_len;		/* 0: no note */
	u8 note_regs[AMPSOC_RPROC_PRSTATUS_MAX];
	/* reason for the one line that logs a rejected image */
	char reason[AMPSOC_RPROC_REASON_LEN];
	/* the image being loaded straight from its file, or NULL */
	struct ampsoc_rproc_direct *direct;
	/* debugfs load_stats and memcpy_bench (under rproc->lock) */
	bool load_direct;
	size_t load_fw_bytes;
	u64 load_request_ns;
	u64 load_bytes;
	u64 load_ns;
	u64 memcpy_bytes;
	u64 memcpy_ns;
};

extern struct class ampsoc_rproc_class;
extern const struct device_type ampsoc_rproc_type;

static inline struct ampsoc_rproc_rvdev *to_ampsoc_rproc_rvdev(struct rproc_vdev *rvdev)
{
	return container_of(rvdev, struct ampsoc_rproc_rvdev, rvdev);
}

/* core */
__printf(2, 3) void ampsoc_rproc_reason(struct rproc *rproc, const char *fmt, ...);
struct rproc_mem_entry *ampsoc_rproc_find_carveout(struct rproc *rproc,
						   const char *name);
int ampsoc_rproc_check_carveout_da(struct rproc *rproc, struct rproc_mem_entry *mem,
				   u32 da, u32 len);
int ampsoc_rproc_alloc_carveout(struct rproc *rproc, struct rproc_mem_entry *mem);
int ampsoc_rproc_alloc_vring_carveout(struct rproc *rproc,
				      struct rproc_mem_entry *mem);
int ampsoc_rproc_release_carveout(struct rproc *rproc, struct rproc_mem_entry *mem);
void *ampsoc_rproc_pool_alloc(struct rproc *rproc, u64 *da, size_t len, size_t align,
			      phys_addr_t *pa);
void ampsoc_rproc_pool_release(struct rproc *rproc, u64 da);
bool ampsoc_rproc_pool_empty(struct rproc *rproc);
void *ampsoc_rproc_pool_to_va(struct rproc *rproc, u64 da, size_t len);
int ampsoc_rproc_pool_prepare(struct rproc *rproc, const struct firmware *fw);
void ampsoc_rproc_pool_reset(struct rproc *rproc);

/* sysfs */
extern const struct attribute_group *ampsoc_rproc_groups[];
const char *ampsoc_rproc_dump_name(unsigned int conf);
int ampsoc_rproc_match_dump_conf(const char *buf);

/* debugfs */
void ampsoc_rproc_debugfs_init(void);
void ampsoc_rproc_debugfs_exit(void);
void ampsoc_rproc_create_debug_dir(struct rproc *rproc);
void ampsoc_rproc_delete_debug_dir(struct rproc *rproc);
struct dentry *ampsoc_rproc_create_trace_file(const char *name, struct rproc *rproc,
					      struct ampsoc_rproc_trace *trace);

/* cdev */
int ampsoc_rproc_cdev_init(void);
void ampsoc_rproc_cdev_exit(void);
void ampsoc_rproc_cdev_prepare(struct rproc *rproc);
int ampsoc_rproc_cdev_add(struct rproc *rproc);
void ampsoc_rproc_cdev_del(struct rproc *rproc);

/* coredump */
void ampsoc_rproc_coredump(struct rproc *rproc);
void ampsoc_rproc_coredump_cleanup(struct rproc *rproc);
int ampsoc_rproc_coredump_add_image(struct rproc *rproc, const struct firmware *fw);

/* ELF */
struct ampsoc_fw_info *ampsoc_rproc_elf_parse(struct rproc *rproc,
					      const struct firmware *fw, bool quiet);

/* Windows of a file read directly: headers, tables, the resource table. */
#define AMPSOC_RPROC_DIRECT_WINS	6
/* The first read of a file read directly; the least of the others. */
#define AMPSOC_RPROC_DIRECT_HEAD	65536
#define AMPSOC_RPROC_DIRECT_TAIL	4096
/* No window (a header table, the section names) is larger. */
#define AMPSOC_RPROC_DIRECT_MAX_WIN	(256 * 1024)

/**
 * struct ampsoc_rproc_direct - an image loaded straight from its file
 * @fw: what the ELF operations are given: the file's size, no data
 * @info: the parser's description of the file
 * @win: the parts of the file read (headers, section names, table)
 * @nwin: entries used in @win
 * @size: the file's size once a read found its end, or 0
 */
struct ampsoc_rproc_direct {
	struct firmware fw;
	struct ampsoc_fw_info info;
	struct ampsoc_fw_win win[AMPSOC_RPROC_DIRECT_WINS];
	unsigned int nwin;
	u64 size;
};

int ampsoc_rproc_direct_open(struct rproc *rproc, const struct firmware **fw);
void ampsoc_rproc_direct_close(struct rproc *rproc);

/* virtio */
int ampsoc_rproc_handle_vdev(struct rproc *rproc, void *ptr, int offset, int avail);
void ampsoc_rproc_remove_rvdev(struct rproc_vdev *rvdev);
void ampsoc_rproc_virtio_exit(void);

#endif /* _AMPSOC_RPROC_INTERNAL_H */
