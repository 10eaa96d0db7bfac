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
 *
 * A processor that uses these helpers for everything has its image read
 * straight from the file (ampsoc): the headers and the resource table
 * first, then every segment into device memory, once, instead of reading
 * the whole file into a buffer and copying it again. Whatever that path
 * cannot serve goes through request_firmware() as before.
 */
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

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
	/* Read directly: parsed when it was opened, and found valid. */
	if (rproc->ampsoc->direct && fw == &rproc->ampsoc->direct->fw) {
		info = kmemdup(&rproc->ampsoc->direct->info, sizeof(*info),
			       GFP_KERNEL);
		return info ? info : ERR_PTR(-ENOMEM);
	}
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

/* The bytes of a window that holds @off..@off+@len, or NULL. */
static const void *ampsoc_rproc_direct_at(const struct ampsoc_rproc_direct *d,
					  u64 off, u64 len)
{
	unsigned int i;

	for (i = 0; i < d->nwin; i++) {
		const struct ampsoc_fw_win *w = &d->win[i];

		if (off >= w->off && len <= w->len && off - w->off <= w->len - len)
			return w->data + (off - w->off);
	}
	return NULL;
}

/*
 * Up to @len bytes of the file at @off into @buf. Not the processor's own
 * device: its request_firmware() records the name there for the firmware
 * cache, after which partial reads on it are refused.
 * Return: the number of bytes read (0 past the end), or a negative errno.
 */
static ssize_t ampsoc_rproc_direct_read(struct rproc *rproc, void *buf,
					size_t len, u64 off)
{
	struct device *dev = rproc->dev.parent ?: &rproc->dev;
	const struct firmware *f;
	ssize_t n;
	int ret;

	if (off > INT_MAX || len > INT_MAX)
		return -EFBIG;
	ret = request_partial_firmware_into_buf(&f, rproc->firmware, dev, buf,
						len, off);
	if (ret)
		return ret;
	n = f->size;
	release_firmware(f);
	return n;
}

/*
 * A new window at @off of at least @need bytes and up to @len (what is
 * left of the file there). A read that ends before @len found the end of
 * the file: its size is then known. Return: 0, or -ENODATA if the file
 * ends before @need, another negative errno if it cannot be read.
 */
static int ampsoc_rproc_direct_win(struct rproc *rproc,
				   struct ampsoc_rproc_direct *d, u64 off,
				   u64 need, u64 len)
{
	struct ampsoc_fw_win *w;
	ssize_t n;
	void *buf;

	len = max(len, need);
	if (d->nwin == ARRAY_SIZE(d->win) || !need ||
	    len > AMPSOC_RPROC_DIRECT_MAX_WIN)
		return -E2BIG;
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	n = ampsoc_rproc_direct_read(rproc, buf, len, off);
	if (n >= 0 && (n > len || n < need))
		n = -ENODATA;
	if (n < 0) {
		kvfree(buf);
		return n;
	}
	if (n < len)
		d->size = off + n;
	w = &d->win[d->nwin++];
	w->off = off;
	w->len = n;
	w->data = buf;
	return 0;
}

/* Can the image be read straight from its file? Only through our helpers. */
static bool ampsoc_rproc_direct_ok(struct rproc *rproc)
{
	const struct rproc_ops *ops = rproc->ops;

	return ops->load == ampsoc_rproc_elf_load_segments &&
	       (!ops->sanity_check ||
		ops->sanity_check == ampsoc_rproc_elf_sanity_check) &&
	       (!ops->get_boot_addr ||
		ops->get_boot_addr == ampsoc_rproc_elf_get_boot_addr) &&
	       (!ops->parse_fw ||
		ops->parse_fw == ampsoc_rproc_elf_load_rsc_table) &&
	       (!ops->find_loaded_rsc_table ||
		ops->find_loaded_rsc_table == ampsoc_rproc_elf_find_loaded_rsc_table);
}

/**
 * ampsoc_rproc_direct_close() - forget the image read directly (ampsoc)
 * @rproc: the processor
 *
 * Context: Process context, rproc->lock held.
 */
void ampsoc_rproc_direct_close(struct rproc *rproc)
{
	struct ampsoc_rproc_direct *d = rproc->ampsoc->direct;
	unsigned int i;

	if (!d)
		return;
	for (i = 0; i < d->nwin; i++)
		kvfree(d->win[i].data);
	kfree(d);
	rproc->ampsoc->direct = NULL;
}

/**
 * ampsoc_rproc_direct_open() - read an image's headers from its file (ampsoc)
 * @rproc: the processor, its &rproc.firmware the image
 * @fw: set to the image to boot, which has no data: the ELF helpers read
 *	its segments from the file
 *
 * Reads the ELF header, the program and section headers, the section
 * names and the resource table with request_partial_firmware_into_buf(),
 * as many times as the parser asks, runs the parser on them and checks
 * that the file is as long as everything the parser checked (and not
 * longer than a last read can tell). Only an image that the parser accepts
 * this way is served: for anything else (a processor with operations of
 * its own, no such file, a compressed one, the sysfs fallback, a file the
 * parser refuses, a read refused by a security module, ...) the caller
 * uses request_firmware(), which also gives a refused image its usual
 * errno and reason.
 *
 * Context: Process context, rproc->lock held; sleeps.
 * Return: 0 with @fw set (ampsoc_rproc_direct_close() when done), or a
 * negative errno when the caller must use request_firmware().
 */
int ampsoc_rproc_direct_open(struct rproc *rproc, const struct firmware **fw)
{
	struct ampsoc_fw_expect expect = {
		.elf_class = rproc->elf_class,
		.machine = rproc->elf_machine,
	};
	struct ampsoc_rproc_direct *d;
	char err[AMPSOC_FW_ERR_LEN];
	struct ampsoc_fw_win need;
	u64 extent;
	unsigned int i;
	void *tail;
	ssize_t n;
	int ret;

	if (!ampsoc_rproc_direct_ok(rproc) || !rproc->firmware)
		return -EOPNOTSUPP;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	rproc->ampsoc->direct = d;
	/*
	 * The headers, the section names and the resource table of a small
	 * image are usually in its first 64 KiB. Windows are read in 4 KiB
	 * at least: the section names are next to the section headers, and
	 * these are often where the file ends, which the read then tells.
	 */
	ret = ampsoc_rproc_direct_win(rproc, d, 0, 1, AMPSOC_RPROC_DIRECT_HEAD);
	while (!ret) {
		ret = ampsoc_fw_parse_elf_win(d->win, d->nwin, &expect, &d->info,
					      &need, &extent, err, sizeof(err));
		if (ret != -EAGAIN)
			break;
		ret = ampsoc_rproc_direct_win(rproc, d, need.off, need.len,
					      AMPSOC_RPROC_DIRECT_TAIL);
	}
	if (ret)
		goto fallback;
	if (d->info.has_rsc &&
	    !ampsoc_rproc_direct_at(d, d->info.rsc_offset, d->info.rsc_size)) {
		ret = ampsoc_rproc_direct_win(rproc, d, d->info.rsc_offset,
					      d->info.rsc_size, 0);
		if (ret)
			goto fallback;
	}
	/* The whole parse holds if the file is at least extent bytes long. */
	for (i = 0; i < d->nwin; i++)
		extent = max(extent, d->win[i].off + d->win[i].len);
	if (!d->size) {
		/* No read reached the end: one just before the extent. */
		tail = kmalloc(AMPSOC_RPROC_DIRECT_TAIL, GFP_KERNEL);
		if (!tail) {
			ret = -ENOMEM;
			goto fallback;
		}
		n = ampsoc_rproc_direct_read(rproc, tail,
					     AMPSOC_RPROC_DIRECT_TAIL, extent - 1);
		kfree(tail);
		if (n < 0) {
			ret = n;
			goto fallback;
		}
		if (n && n < AMPSOC_RPROC_DIRECT_TAIL)
			d->size = extent - 1 + n;
	}
	/* Shorter, or longer than we can tell: the whole file decides. */
	if (!d->size || d->size < extent || d->size > INT_MAX) {
		ret = -ENODATA;
		goto fallback;
	}
	d->fw.size = d->size;
	*fw = &d->fw;
	return 0;

fallback:
	ampsoc_rproc_direct_close(rproc);
	return ret;
}

/*
 * Segment @s from the file into device memory at @va: from a window that
 * holds it (a small image is read whole by the first read), else read
 * straight into device memory, or through a buffer into I/O memory.
 */
static int ampsoc_rproc_direct_copy(struct rproc *rproc,
				    const struct ampsoc_fw_seg *s, void *va,
				    bool is_iomem)
{
	const void *src;
	void *buf = va;
	ssize_t n;

	if (!s->filesz)
		return 0;
	src = ampsoc_rproc_direct_at(rproc->ampsoc->direct, s->offset,
				     s->filesz);
	if (src && is_iomem)
		memcpy_toio((void __force __iomem *)va, src, s->filesz);
	else if (src)
		memcpy(va, src, s->filesz);
	if (src)
		return 0;
	if (is_iomem) {
		buf = vmalloc(s->filesz);
		if (!buf)
			return -ENOMEM;
	}
	n = ampsoc_rproc_direct_read(rproc, buf, s->filesz, s->offset);
	if (n >= 0 && n != s->filesz) {
		/* The file changed since its headers were read. */
		dev_err(&rproc->dev, "firmware %s changed while loading\n",
			rproc->firmware);
		n = -EIO;
	}
	if (n > 0 && is_iomem)
		memcpy_toio((void __force __iomem *)va, buf, s->filesz);
	if (is_iomem)
		vfree(buf);
	return n < 0 ? n : 0;
}

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
		if (rproc->ampsoc->direct && fw == &rproc->ampsoc->direct->fw) {
			ret = ampsoc_rproc_direct_copy(rproc, s, va, is_iomem);
			if (ret)
				goto out;
		} else if (is_iomem) {
			memcpy_toio((void __force __iomem *)va, fw->data + s->offset,
				    s->filesz);
		} else {
			memcpy(va, fw->data + s->offset, s->filesz);
		}
		if (is_iomem)
			memset_io((void __force __iomem *)(va + s->filesz), 0,
				  s->memsz - s->filesz);
		else
			memset(va + s->filesz, 0, s->memsz - s->filesz);
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
	if (rproc->ampsoc->direct && fw == &rproc->ampsoc->direct->fw)
		table = ampsoc_rproc_direct_at(rproc->ampsoc->direct,
					       info->rsc_offset, info->rsc_size);
	else
		table = (const void *)fw->data + info->rsc_offset;
	/* A direct image's table was read when it was opened. */
	if (WARN_ON(!table)) {
		ret = -EINVAL;
		goto out;
	}
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
