// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF helpers of mainline's remoteproc (rproc_elf_sanity_check() and
 * friends), the default operations of a processor without its own load
 * operation. Each helper runs the whole image through ampsoc's parser
 * (remoteproc_fw.c) before it reads anything from it, so a helper is
 * safe whichever combination of them a driver puts in its operations, and
 * an image mainline would accept but that is malformed (overlapping
 * segments, an entry point outside them, a resource table outside the
 * loaded segments, ...) is refused. The parse costs microseconds.
 */
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "remoteproc_internal.h"

/**
 * ampsoc_rproc_elf_parse() - validate an image and describe it
 * @rproc: the processor; its elf_class and elf_machine, when set, are the
 *	only ones accepted
 * @fw: the image
 * @quiet: do not keep the parser's explanation
 *
 * On failure the parser's explanation becomes the processor's rejection
 * reason (logged once by the boot), unless @quiet.
 *
 * Context: Process context.
 * Return: the description (kfree() it), or an ERR_PTR.
 */
struct ampsoc_fw_info *ampsoc_rproc_elf_parse(struct rproc *rproc,
					      const struct firmware *fw, bool quiet)
{
	struct ampsoc_fw_expect expect = {
		.elf_class = rproc->elf_class,
		.machine = rproc->elf_machine,
	};
	struct ampsoc_fw_info *info;
	char err[AMPSOC_FW_ERR_LEN];
	int ret;

	if (!fw)
		return ERR_PTR(-EINVAL);
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return ERR_PTR(-ENOMEM);
	ret = ampsoc_fw_parse_elf(fw->data, fw->size, &expect, info, err,
				  sizeof(err));
	if (ret) {
		if (!quiet)
			ampsoc_rproc_reason(rproc, "%s", err);
		kfree(info);
		return ERR_PTR(ret);
	}
	return info;
}

/**
 * ampsoc_rproc_elf_sanity_check() - check an ELF image (rproc_elf_sanity_check)
 * @rproc: the processor
 * @fw: the image
 *
 * Accepts a little-endian ELF32 or ELF64 executable whose headers, segments
 * and sections all lie in the file, whose segments do not overlap and hold
 * the entry point, with at most one .resource_table inside a loaded
 * segment; when &rproc.elf_class or &rproc.elf_machine is set, only that
 * class or machine.
 *
 * Context: Process context.
 * Return: 0, -ENOEXEC for an image of another kind, class or machine,
 * -EINVAL or -E2BIG for a malformed one, -ENOMEM.
 */
int ampsoc_rproc_elf_sanity_check(struct rproc *rproc,
				  const struct firmware *fw)
{
	struct ampsoc_fw_info *info = ampsoc_rproc_elf_parse(rproc, fw, false);

	if (IS_ERR(info))
		return PTR_ERR(info);
	kfree(info);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_elf_sanity_check);

/**
 * ampsoc_rproc_elf_get_boot_addr() - the image's entry point (rproc_elf_get_boot_addr)
 * @rproc: the processor
 * @fw: the image
 *
 * Context: Process context.
 * Return: e_entry, or 0 for an image the parser refuses.
 */
u64 ampsoc_rproc_elf_get_boot_addr(struct rproc *rproc,
				   const struct firmware *fw)
{
	struct ampsoc_fw_info *info = ampsoc_rproc_elf_parse(rproc, fw, false);
	u64 entry;

	if (IS_ERR(info))
		return 0;
	entry = info->entry;
	kfree(info);
	return entry;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_elf_get_boot_addr);

/**
 * ampsoc_rproc_elf_load_segments() - load an ELF image (rproc_elf_load_segments)
 * @rproc: the processor
 * @fw: the image
 *
 * Every PT_LOAD segment with a memory size is copied to its physical
 * address (p_paddr) through rproc_da_to_va(), and the bytes between its file
 * and memory sizes are zeroed. Unlike mainline, every segment is translated
 * before the first byte is written, so an image that does not fit leaves
 * the memory untouched.
 *
 * Context: Process context.
 * Return: 0, or the parser's errno, -EINVAL for a segment outside the
 * processor's memory.
 */
int ampsoc_rproc_elf_load_segments(struct rproc *rproc,
				   const struct firmware *fw)
{
	struct ampsoc_fw_info *info = ampsoc_rproc_elf_parse(rproc, fw, false);
	u64 bytes = 0;
	unsigned int i;
	int ret = 0;

	if (IS_ERR(info))
		return PTR_ERR(info);
	for (i = 0; i < info->num_segs; i++) {
		const struct ampsoc_fw_seg *s = &info->segs[i];

		if (s->memsz > SIZE_MAX ||
		    !ampsoc_rproc_da_to_va(rproc, s->da, s->memsz, NULL)) {
			ampsoc_rproc_reason(rproc,
					    "segment 0x%llx+0x%llx is outside device memory",
				   s->da, s->memsz);
			ret = -EINVAL;
			goto out;
		}
	}
	for (i = 0; i < info->num_segs; i++) {
		const struct ampsoc_fw_seg *s = &info->segs[i];
		bool is_iomem = false;
		void *va;

		va = ampsoc_rproc_da_to_va(rproc, s->da, s->memsz, &is_iomem);
		/* Translated above; the memory map does not change meanwhile. */
		if (WARN_ON(!va)) {
			ret = -EINVAL;
			goto out;
		}
		if (is_iomem) {
			memcpy_toio((void __force __iomem *)va, fw->data + s->offset,
				    s->filesz);
			memset_io((void __force __iomem *)(va + s->filesz), 0,
				  s->memsz - s->filesz);
		} else {
			memcpy(va, fw->data + s->offset, s->filesz);
			memset(va + s->filesz, 0, s->memsz - s->filesz);
		}
		bytes += s->memsz;
	}
	rproc->ampsoc->load_bytes = bytes;
out:
	kfree(info);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_elf_load_segments);

/**
 * ampsoc_rproc_elf_load_rsc_table() - copy the resource table (rproc_elf_load_rsc_table)
 * @rproc: the processor
 * @fw: the image
 *
 * The .resource_table section is copied into &rproc.cached_table, which
 * becomes &rproc.table_ptr, as mainline. Every table is then checked by the
 * framework before its entries are handled.
 *
 * Context: Process context.
 * Return: 0, -EINVAL if the image has no resource table (as mainline) or
 * its header is not version 1 with zero reserved words, the parser's errno,
 * -ENOMEM.
 */
int ampsoc_rproc_elf_load_rsc_table(struct rproc *rproc,
				    const struct firmware *fw)
{
	struct ampsoc_fw_info *info = ampsoc_rproc_elf_parse(rproc, fw, false);
	const struct resource_table *table;
	int ret = 0;

	if (IS_ERR(info))
		return PTR_ERR(info);
	if (!info->has_rsc) {
		ampsoc_rproc_reason(rproc, "no resource table");
		ret = -EINVAL;
		goto out;
	}
	table = (const void *)fw->data + info->rsc_offset;
	if (info->rsc_size < sizeof(*table) || table->ver != 1 ||
	    table->reserved[0] || table->reserved[1]) {
		ampsoc_rproc_reason(rproc,
				    "resource table is not version 1 with zero reserved words");
		ret = -EINVAL;
		goto out;
	}
	rproc->cached_table = kmemdup(table, info->rsc_size, GFP_KERNEL);
	if (!rproc->cached_table) {
		ret = -ENOMEM;
		goto out;
	}
	rproc->table_ptr = rproc->cached_table;
	rproc->table_sz = info->rsc_size;
out:
	kfree(info);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_elf_load_rsc_table);

/**
 * ampsoc_rproc_elf_find_loaded_rsc_table() - the loaded table (rproc_elf_find_loaded_rsc_table)
 * @rproc: the processor
 * @fw: the image, already loaded
 *
 * Context: Process context.
 * Return: the kernel address of the .resource_table section in the
 * processor's memory, or NULL without a table or a mapping.
 */
struct resource_table *
ampsoc_rproc_elf_find_loaded_rsc_table(struct rproc *rproc,
				       const struct firmware *fw)
{
	struct ampsoc_fw_info *info = ampsoc_rproc_elf_parse(rproc, fw, false);
	void *va = NULL;

	if (IS_ERR(info))
		return NULL;
	if (info->has_rsc)
		va = ampsoc_rproc_da_to_va(rproc, info->rsc_da, info->rsc_size,
					   NULL);
	kfree(info);
	return va;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_elf_find_loaded_rsc_table);
