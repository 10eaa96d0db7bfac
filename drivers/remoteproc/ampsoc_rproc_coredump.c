// SPDX-License-Identifier: GPL-2.0
/*
 * Coredumps through devcoredump: an ELF core file (the firmware's class and
 * machine) with one PT_LOAD program header per dump segment. By default the
 * segments are the firmware's loadable segments and its carveouts; the
 * platform may add more with ampsoc_rproc_coredump_add_segment().
 */
#include <linux/devcoredump.h>
#include <linux/delay.h>
#include <linux/elf.h>
#include <linux/kernfs.h>
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "ampsoc_rproc_internal.h"

/* Bound on the size of one dump, so a huge memory map cannot exhaust RAM. */
#define ARP_DUMP_MAX	(256u << 20)

/**
 * ampsoc_rproc_coredump_add_segment() - include device memory in coredumps
 * @rproc: the processor
 * @da: device address of the segment
 * @size: its size
 *
 * Segments are forgotten when the processor stops; call this from
 * &ampsoc_rproc_ops.parse_fw to add segments on every boot. A segment that
 * covers only memory already dumped is not added twice.
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
int ampsoc_rproc_coredump_add_segment(struct ampsoc_rproc *rproc, u64 da,
				      size_t size)
{
	struct arp_dump_seg *s;

	list_for_each_entry(s, &rproc->dump_segments, node)
		if (da >= s->da && size <= s->size && da - s->da <= s->size - size)
			return 0;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->da = da;
	s->size = size;
	list_add_tail(&s->node, &rproc->dump_segments);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_coredump_add_segment);

struct arp_dump_layout {
	bool is64;
	size_t ehdr, phdr, hdrs, total;
	unsigned int nseg;
};

static void arp_dump_layout(struct ampsoc_rproc *rproc,
			    struct arp_dump_layout *l)
{
	struct arp_dump_seg *s;

	l->is64 = !rproc->fw_info || rproc->fw_info->elf_class != ELFCLASS32;
	l->ehdr = l->is64 ? sizeof(struct elf64_hdr) : sizeof(struct elf32_hdr);
	l->phdr = l->is64 ? sizeof(struct elf64_phdr) : sizeof(struct elf32_phdr);
	l->nseg = 0;
	l->total = 0;
	list_for_each_entry(s, &rproc->dump_segments, node) {
		l->nseg++;
		l->total += s->size;
	}
	l->hdrs = l->ehdr + l->nseg * l->phdr;
	l->total += l->hdrs;
}

static void arp_dump_headers(struct ampsoc_rproc *rproc,
			     const struct arp_dump_layout *l, u8 *buf)
{
	u16 machine = rproc->fw_info ? rproc->fw_info->machine : EM_NONE;
	struct arp_dump_seg *s;
	size_t off = l->hdrs;
	u8 *ph = buf + l->ehdr;

	memset(buf, 0, l->hdrs);
	memcpy(buf, ELFMAG, SELFMAG);
	buf[EI_CLASS] = l->is64 ? ELFCLASS64 : ELFCLASS32;
	buf[EI_DATA] = ELFDATA2LSB;
	buf[EI_VERSION] = EV_CURRENT;
	buf[EI_OSABI] = ELFOSABI_NONE;
	if (l->is64) {
		struct elf64_hdr *e = (struct elf64_hdr *)buf;

		e->e_type = ET_CORE;
		e->e_machine = machine;
		e->e_version = EV_CURRENT;
		e->e_entry = rproc->bootaddr;
		e->e_phoff = l->ehdr;
		e->e_ehsize = l->ehdr;
		e->e_phentsize = l->phdr;
		e->e_phnum = l->nseg;
	} else {
		struct elf32_hdr *e = (struct elf32_hdr *)buf;

		e->e_type = ET_CORE;
		e->e_machine = machine;
		e->e_version = EV_CURRENT;
		e->e_entry = rproc->bootaddr;
		e->e_phoff = l->ehdr;
		e->e_ehsize = l->ehdr;
		e->e_phentsize = l->phdr;
		e->e_phnum = l->nseg;
	}
	list_for_each_entry(s, &rproc->dump_segments, node) {
		if (l->is64) {
			struct elf64_phdr *p = (struct elf64_phdr *)ph;

			p->p_type = PT_LOAD;
			p->p_offset = off;
			p->p_vaddr = s->da;
			p->p_paddr = s->da;
			p->p_filesz = s->size;
			p->p_memsz = s->size;
			p->p_flags = PF_R | PF_W | PF_X;
			p->p_align = 0;
		} else {
			struct elf32_phdr *p = (struct elf32_phdr *)ph;

			p->p_type = PT_LOAD;
			p->p_offset = off;
			p->p_vaddr = s->da;
			p->p_paddr = s->da;
			p->p_filesz = s->size;
			p->p_memsz = s->size;
			p->p_flags = PF_R | PF_W | PF_X;
			p->p_align = 0;
		}
		ph += l->phdr;
		off += s->size;
	}
}

/* Copy one segment; memory that is not mapped any more reads as 0xff. */
static void arp_dump_copy_seg(struct ampsoc_rproc *rproc,
			      const struct arp_dump_seg *s, size_t from,
			      u8 *dst, size_t n)
{
	void *va = ampsoc_rproc_da_to_va(rproc, s->da + from, n);

	if (va)
		memcpy(dst, va, n);
	else
		memset(dst, 0xff, n);
}

struct arp_inline_dump {
	struct ampsoc_rproc *rproc;
	struct arp_dump_layout l;
	u8 *hdrs;
};

static ssize_t arp_inline_read(char *buffer, loff_t offset, size_t count,
			       void *data, size_t datalen)
{
	struct arp_inline_dump *d = data;
	struct arp_dump_seg *s;
	size_t done = 0, pos;

	if (offset < 0 || offset >= d->l.total)
		return 0;
	count = min_t(size_t, count, d->l.total - offset);
	if (offset < d->l.hdrs) {
		done = min_t(size_t, count, d->l.hdrs - offset);
		memcpy(buffer, d->hdrs + offset, done);
	}
	pos = d->l.hdrs;
	list_for_each_entry(s, &d->rproc->dump_segments, node) {
		loff_t at = offset + done;

		if (done == count)
			break;
		if (at < pos + s->size) {
			size_t from = at - pos;
			size_t n = min_t(size_t, count - done, s->size - from);

			arp_dump_copy_seg(d->rproc, s, from, buffer + done, n);
			done += n;
		}
		pos += s->size;
	}
	return done;
}

static void arp_inline_free(void *data)
{
	struct arp_inline_dump *d = data;

	complete(&d->rproc->dump_done);
	kfree(d->hdrs);
	kfree(d);
}

/*
 * devcoredump takes a dump out of its class when it is read and freed, but
 * removes the dump's "devcoredump" link from the failing device only when
 * the dump is released, a moment later. A new dump in that window finds no
 * dump in the class and creates the link again: a sysfs duplicate-name
 * splat, seen on the debug kernel when a crash followed the freeing of the
 * last dump at once. So while the link points at a removed (deactivated)
 * directory, wait for it to go, 1 s at most. A link to a live dump is left
 * alone: devcoredump then drops the new dump by itself.
 */
static void arp_coredump_settle(struct device *dev)
{
	struct kernfs_node *kn;
	bool dying;
	int i;

	for (i = 0; i < 50; i++) {
		kn = kernfs_find_and_get(dev->kobj.sd, "devcoredump");
		if (!kn)
			return;
		dying = kernfs_type(kn) == KERNFS_LINK &&
			atomic_read(&kn->symlink.target_kn->active) < 0;
		kernfs_put(kn);
		if (!dying)
			return;
		msleep(20);
	}
	dev_warn(dev, "the last coredump is still being released\n");
}

/**
 * arp_coredump() - take a coredump of a crashed processor
 * @rproc: the processor
 *
 * "enabled" copies the segments into a vmalloc'd ELF file handed to
 * devcoredump. "inline" lets devcoredump read device memory directly and
 * waits until userspace has read the dump (or devcoredump's own timeout has
 * expired), so recovery does not overwrite it first.
 *
 * Context: Process context, rproc->lock held.
 */
void arp_coredump(struct ampsoc_rproc *rproc)
{
	struct arp_dump_layout l;
	struct arp_dump_seg *s;
	size_t off;
	u8 *buf;

	lockdep_assert_held(&rproc->lock);

	if (rproc->dump_conf == AMPSOC_RPROC_COREDUMP_DISABLED)
		return;
	if (list_empty(&rproc->dump_segments)) {
		dev_info(&rproc->dev, "no segments to dump\n");
		return;
	}
	arp_coredump_settle(&rproc->dev);
	arp_dump_layout(rproc, &l);
	if (l.total > ARP_DUMP_MAX) {
		dev_err(&rproc->dev, "coredump of %zu bytes is too large\n",
			l.total);
		return;
	}

	if (rproc->dump_conf == AMPSOC_RPROC_COREDUMP_INLINE) {
		struct arp_inline_dump *d = kzalloc(sizeof(*d), GFP_KERNEL);

		if (!d)
			return;
		d->hdrs = kzalloc(l.hdrs, GFP_KERNEL);
		if (!d->hdrs) {
			kfree(d);
			return;
		}
		d->rproc = rproc;
		d->l = l;
		arp_dump_headers(rproc, &l, d->hdrs);
		reinit_completion(&rproc->dump_done);
		dev_coredumpm(&rproc->dev, NULL, d, l.total, GFP_KERNEL,
			      arp_inline_read, arp_inline_free);
		/*
		 * Waiting for userspace (bounded by devcoredump's timeout),
		 * not for the kernel: TASK_IDLE, so that the hung-task
		 * detector does not take it for a deadlock.
		 */
		wait_for_completion_state(&rproc->dump_done, TASK_IDLE);
		return;
	}

	/* No allocation-failure splat: a large dump may simply not fit. */
	buf = __vmalloc(l.total, GFP_KERNEL | __GFP_NOWARN);
	if (!buf) {
		dev_err(&rproc->dev, "coredump of %zu bytes does not fit in memory\n",
			l.total);
		return;
	}
	arp_dump_headers(rproc, &l, buf);
	off = l.hdrs;
	list_for_each_entry(s, &rproc->dump_segments, node) {
		arp_dump_copy_seg(rproc, s, 0, buf + off, s->size);
		off += s->size;
	}
	/* devcoredump owns buf from here and vfree()s it. */
	dev_coredumpv(&rproc->dev, buf, l.total, GFP_KERNEL);
	dev_info(&rproc->dev, "coredump of %zu bytes taken\n", l.total);
}
