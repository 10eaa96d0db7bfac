/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source compatibility with mainline 6.1's <linux/remoteproc.h>.
 *
 * A remoteproc platform driver written for mainline builds unchanged
 * against ampsoc when this directory comes first on its include path.
 * Debian's own <linux/remoteproc.h> must lose: in Kbuild, NOSTDINC_FLAGS
 * precedes LINUXINCLUDE (which precedes ccflags-y), so the module's Kbuild
 * says
 *
 *	NOSTDINC_FLAGS += -I$(AMPSOC)/include/compat -I$(AMPSOC)/include
 *
 * and links against ampsoc's Module.symvers (KBUILD_EXTRA_SYMBOLS). The
 * structures are ampsoc's, which are mainline's (<ampsoc/remoteproc.h>);
 * mainline's function names become static inlines over ampsoc's prefixed
 * exports, so no symbol can clash with one the kernel exports or might
 * export, and a driver can also put them in its struct rproc_ops. This is
 * the one seam between a driver and the two stacks: the same source builds
 * against mainline's remoteproc without it.
 *
 * The functions mainline exports but declares in its private
 * remoteproc_internal.h (rproc_vq_interrupt(), the rproc_elf_* helpers,
 * ...) are declared here too; "remoteproc_internal.h" in this directory
 * includes this file for drivers written as in-tree ones.
 */
#ifndef _AMPSOC_COMPAT_LINUX_REMOTEPROC_H
#define _AMPSOC_COMPAT_LINUX_REMOTEPROC_H

#include <ampsoc/remoteproc.h>

/*
 * Built against ampsoc's remoteproc through this header. A driver that
 * builds against both stacks and uses one of ampsoc's extensions
 * (ampsoc_rproc_add_mem(), ...) puts them under this, in one place
 * (drivers/vsoc/vsoc_rproc.c, "The two stacks").
 */
#define AMPSOC_COMPAT_REMOTEPROC	1

static inline struct rproc *rproc_get_by_phandle(phandle phandle)
{
	return ampsoc_rproc_get_by_phandle(phandle);
}

static inline struct rproc *rproc_get_by_child(struct device *dev)
{
	return ampsoc_rproc_get_by_child(dev);
}

static inline struct rproc *rproc_alloc(struct device *dev, const char *name,
					const struct rproc_ops *ops,
					const char *firmware, int len)
{
	return ampsoc_rproc_alloc(dev, name, ops, firmware, len);
}

static inline void rproc_put(struct rproc *rproc)
{
	ampsoc_rproc_put(rproc);
}

static inline int rproc_add(struct rproc *rproc)
{
	return ampsoc_rproc_add(rproc);
}

static inline int rproc_del(struct rproc *rproc)
{
	return ampsoc_rproc_del(rproc);
}

static inline void rproc_free(struct rproc *rproc)
{
	ampsoc_rproc_free(rproc);
}

static inline void rproc_resource_cleanup(struct rproc *rproc)
{
	ampsoc_rproc_resource_cleanup(rproc);
}

static inline struct rproc *devm_rproc_alloc(struct device *dev,
					     const char *name,
					     const struct rproc_ops *ops,
					     const char *firmware, int len)
{
	return ampsoc_rproc_devm_alloc(dev, name, ops, firmware, len);
}

static inline int devm_rproc_add(struct device *dev, struct rproc *rproc)
{
	return ampsoc_rproc_devm_add(dev, rproc);
}

static inline void rproc_add_carveout(struct rproc *rproc,
				      struct rproc_mem_entry *mem)
{
	ampsoc_rproc_add_carveout(rproc, mem);
}

/* Variadic: forwarded by the preprocessor. */
#define rproc_mem_entry_init(dev, va, dma, len, da, alloc, release, ...) \
	ampsoc_rproc_mem_entry_init(dev, va, dma, len, da, alloc, release, \
				    __VA_ARGS__)

#define rproc_of_resm_mem_entry_init(dev, of_resm_idx, len, da, ...) \
	ampsoc_rproc_of_resm_mem_entry_init(dev, of_resm_idx, len, da, \
					    __VA_ARGS__)

static inline int rproc_of_parse_firmware(struct device *dev, int index,
					  const char **fw_name)
{
	return ampsoc_rproc_of_parse_firmware(dev, index, fw_name);
}

static inline int rproc_boot(struct rproc *rproc)
{
	return ampsoc_rproc_boot(rproc);
}

static inline int rproc_shutdown(struct rproc *rproc)
{
	return ampsoc_rproc_shutdown(rproc);
}

static inline int rproc_detach(struct rproc *rproc)
{
	return ampsoc_rproc_detach(rproc);
}

static inline int rproc_set_firmware(struct rproc *rproc, const char *fw_name)
{
	return ampsoc_rproc_set_firmware(rproc, fw_name);
}

static inline void rproc_report_crash(struct rproc *rproc,
				      enum rproc_crash_type type)
{
	ampsoc_rproc_report_crash(rproc, type);
}

static inline void *rproc_da_to_va(struct rproc *rproc, u64 da, size_t len,
				   bool *is_iomem)
{
	return ampsoc_rproc_da_to_va(rproc, da, len, is_iomem);
}

static inline void rproc_coredump_using_sections(struct rproc *rproc)
{
	ampsoc_rproc_coredump_using_sections(rproc);
}

static inline int rproc_coredump_add_segment(struct rproc *rproc,
					     dma_addr_t da, size_t size)
{
	return ampsoc_rproc_coredump_add_segment(rproc, da, size);
}

static inline int
rproc_coredump_add_custom_segment(struct rproc *rproc, dma_addr_t da,
				  size_t size,
				  void (*dumpfn)(struct rproc *rproc,
						 struct rproc_dump_segment *segment,
						 void *dest, size_t offset,
						 size_t size),
				  void *priv)
{
	return ampsoc_rproc_coredump_add_custom_segment(rproc, da, size, dumpfn,
							priv);
}

static inline int rproc_coredump_set_elf_info(struct rproc *rproc, u8 class,
					      u16 machine)
{
	return ampsoc_rproc_coredump_set_elf_info(rproc, class, machine);
}

static inline void rproc_add_subdev(struct rproc *rproc,
				    struct rproc_subdev *subdev)
{
	ampsoc_rproc_add_subdev(rproc, subdev);
}

static inline void rproc_remove_subdev(struct rproc *rproc,
				       struct rproc_subdev *subdev)
{
	ampsoc_rproc_remove_subdev(rproc, subdev);
}

/* Exported by mainline from its remoteproc_internal.h. */

static inline irqreturn_t rproc_vq_interrupt(struct rproc *rproc,
					     int notifyid)
{
	return ampsoc_rproc_vq_interrupt(rproc, notifyid);
}

static inline phys_addr_t rproc_va_to_pa(void *cpu_addr)
{
	return ampsoc_rproc_va_to_pa(cpu_addr);
}

static inline int rproc_elf_sanity_check(struct rproc *rproc,
					 const struct firmware *fw)
{
	return ampsoc_rproc_elf_sanity_check(rproc, fw);
}

static inline u64 rproc_elf_get_boot_addr(struct rproc *rproc,
					  const struct firmware *fw)
{
	return ampsoc_rproc_elf_get_boot_addr(rproc, fw);
}

static inline int rproc_elf_load_segments(struct rproc *rproc,
					  const struct firmware *fw)
{
	return ampsoc_rproc_elf_load_segments(rproc, fw);
}

static inline int rproc_elf_load_rsc_table(struct rproc *rproc,
					   const struct firmware *fw)
{
	return ampsoc_rproc_elf_load_rsc_table(rproc, fw);
}

static inline struct resource_table *
rproc_elf_find_loaded_rsc_table(struct rproc *rproc, const struct firmware *fw)
{
	return ampsoc_rproc_elf_find_loaded_rsc_table(rproc, fw);
}

#endif /* _AMPSOC_COMPAT_LINUX_REMOTEPROC_H */
