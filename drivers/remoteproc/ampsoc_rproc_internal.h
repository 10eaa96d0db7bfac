/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Definitions shared by the files of the ampsoc_rproc module only.
 */
#ifndef _AMPSOC_RPROC_INTERNAL_H
#define _AMPSOC_RPROC_INTERNAL_H

#include <ampsoc/remoteproc.h>

#include "ampsoc_rproc_fw.h"

/* A physical address the platform could not give (e.g. vmalloc memory). */
#define AMPSOC_RPROC_NO_PA	((phys_addr_t)~0ull)

/* A contiguous range of device memory declared by the platform. */
struct arp_mem {
	struct list_head node;
	char name[AMPSOC_RSC_NAME_LEN];
	u64 da;
	phys_addr_t pa;
	void *va;
	size_t len;
};

/* A used range of device memory. Carveouts may lie over segments. */
struct arp_alloc {
	struct list_head node;
	u64 da;
	u64 len;
	bool is_seg;
};

struct arp_carveout {
	struct list_head node;
	char name[AMPSOC_RSC_NAME_LEN + 1];
	u64 da;
	phys_addr_t pa;
	void *va;
	size_t len;
};

struct arp_trace {
	struct list_head node;
	struct ampsoc_rproc *rproc;
	char name[AMPSOC_RSC_NAME_LEN + 1];
	unsigned int index;
	u64 da;
	void *va;
	size_t len;
	struct dentry *file;
};

struct arp_dump_seg {
	struct list_head node;
	u64 da;
	size_t size;
};

struct arp_vring {
	void *va;
	u64 da;
	size_t size;
	unsigned int num;
	unsigned int align;
	int notifyid;
	struct virtqueue *vq;
};

struct arp_vdev_dev;

/* One vdev resource: becomes a virtio device while the processor runs. */
struct arp_rvdev {
	struct ampsoc_rproc_subdev subdev;
	struct list_head node;
	struct ampsoc_rproc *rproc;
	unsigned int index;
	u32 rsc_offset;
	u32 id;
	u32 dfeatures;
	u32 config_len;
	unsigned int num_vrings;
	struct arp_vring vring[AMPSOC_RSC_MAX_VRINGS];
	struct arp_vdev_dev *vd;
	struct list_head bufs;
	void *shm_va;
	u64 shm_da;
	phys_addr_t shm_pa;
	size_t shm_len;
	bool shm_owned;
};

extern struct class ampsoc_rproc_class;
extern const char * const ampsoc_rproc_dump_names[3];

/* core */
void *arp_mem_alloc(struct ampsoc_rproc *rproc, u64 *da, size_t len,
		    size_t align, phys_addr_t *pa);
void arp_mem_release(struct ampsoc_rproc *rproc, u64 da);
struct ampsoc_rsc_vdev *arp_rvdev_rsc(struct arp_rvdev *rvdev);
int arp_recover_locked(struct ampsoc_rproc *rproc);

/* sysfs */
extern const struct attribute_group *ampsoc_rproc_groups[];

/* debugfs */
void arp_debugfs_init(void);
void arp_debugfs_exit(void);
void arp_debugfs_add(struct ampsoc_rproc *rproc);
void arp_debugfs_remove(struct ampsoc_rproc *rproc);
void arp_debugfs_add_trace(struct ampsoc_rproc *rproc, struct arp_trace *t);

/* cdev */
int arp_cdev_init(void);
void arp_cdev_exit(void);
void arp_cdev_prepare(struct ampsoc_rproc *rproc);
int arp_cdev_add(struct ampsoc_rproc *rproc);
void arp_cdev_del(struct ampsoc_rproc *rproc);

/* coredump */
void arp_coredump(struct ampsoc_rproc *rproc);

/* virtio */
int arp_rvdev_setup(struct ampsoc_rproc *rproc, struct arp_rvdev *rvdev);
void arp_rvdev_cleanup(struct arp_rvdev *rvdev);

#endif /* _AMPSOC_RPROC_INTERNAL_H */
