// SPDX-License-Identifier: GPL-2.0
/*
 * Coredumps through devcoredump, as mainline 6.1's remoteproc_coredump.c
 * produces them: an ELF core file (ET_CORE) of &rproc.elf_class and
 * &rproc.elf_machine with one PT_LOAD per dump segment, or with one section
 * per segment for rproc_coredump_using_sections().
 *
 * ampsoc differences (docs/mainline-differences.md): when the platform
 * registered no dump segment, the image's loadable segments and the
 * carveouts are dumped, and a processor without an ELF class set takes the
 * loaded image's class and machine, so that a crash always leaves a dump
 * when dumps are enabled; a dump is at most 256 MiB. A platform driver that
 * knows the crashed core's registers (ampsoc_rproc_coredump_set_prstatus())
 * gets them in the dump as an NT_PRSTATUS note, as in a Linux process's
 * core file, so that a debugger shows where the firmware stopped.
 */
#include <linux/devcoredump.h>
#include <linux/delay.h>
#include <linux/elf.h>
#include <linux/io.h>
#include <linux/kernfs.h>
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "remoteproc_internal.h"

/* Bound on the size of one dump, so a huge memory map cannot exhaust RAM. */
#define AMPSOC_RPROC_DUMP_MAX	(256u << 20)

/**
 * ampsoc_rproc_coredump_cleanup() - forget the dump segments
 * @rproc: the processor
 *
 * Context: Process context, rproc->lock held.
 */
void ampsoc_rproc_coredump_cleanup(struct rproc *rproc)
{
	struct rproc_dump_segment *s, *n;
	unsigned long flags;

	spin_lock_irqsave(&rproc->ampsoc->note_lock, flags);
	rproc->ampsoc->note_len = 0;
	spin_unlock_irqrestore(&rproc->ampsoc->note_lock, flags);

	list_for_each_entry_safe(s, n, &rproc->dump_segments, node) {
		list_del(&s->node);
		kfree(s);
	}
}

/**
 * ampsoc_rproc_coredump_add_custom_segment() - dump a segment with a function
 * @rproc: the processor
 * @da: device address of the segment
 * @size: its size
 * @dumpfn: fills its part of the dump, or NULL to copy it from memory
 * @priv: data for @dumpfn
 *
 * As rproc_coredump_add_custom_segment(). Segments are forgotten when the
 * processor stops: add them from &rproc_ops.parse_fw.
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
int ampsoc_rproc_coredump_add_custom_segment(struct rproc *rproc,
					     dma_addr_t da, size_t size,
					     void (*dumpfn)(struct rproc *rproc,
							    struct rproc_dump_segment *segment,
							    void *dest, size_t offset,
							    size_t size),
					     void *priv)
{
	struct rproc_dump_segment *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	s->da = da;
	s->size = size;
	s->priv = priv;
	s->dump = dumpfn;
	list_add_tail(&s->node, &rproc->dump_segments);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_coredump_add_custom_segment);

/**
 * ampsoc_rproc_coredump_add_segment() - dump device memory (rproc_coredump_add_segment)
 * @rproc: the processor
 * @da: device address of the segment
 * @size: its size
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
int ampsoc_rproc_coredump_add_segment(struct rproc *rproc, dma_addr_t da,
				      size_t size)
{
	return ampsoc_rproc_coredump_add_custom_segment(rproc, da, size, NULL,
							NULL);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_coredump_add_segment);

/**
 * ampsoc_rproc_coredump_set_elf_info() - class and machine of coredumps
 * @rproc: the processor
 * @class: ELFCLASS32 or ELFCLASS64
 * @machine: e_machine
 *
 * As rproc_coredump_set_elf_info(). In ampsoc a class or machine set here
 * also restricts the images the default ELF helpers accept.
 *
 * Context: Process context, before the processor boots.
 * Return: 0, or -EINVAL for another class.
 */
int ampsoc_rproc_coredump_set_elf_info(struct rproc *rproc, u8 class,
				       u16 machine)
{
	if (class != ELFCLASS64 && class != ELFCLASS32)
		return -EINVAL;
	rproc->elf_class = class;
	rproc->elf_machine = machine;
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_coredump_set_elf_info);

/**
 * ampsoc_rproc_coredump_set_prstatus() - registers for the next coredump
 * @rproc: the processor
 * @signo: the signal the core's crash amounts to (the note's pr_cursig)
 * @regs: the general registers as the dump's machine lays out pr_reg of
 *	its struct elf_prstatus (for EM_ARM r0-r15, cpsr, orig_r0; for
 *	EM_RISCV pc, x1-x31), or NULL for none
 * @len: bytes at @regs, at most AMPSOC_RPROC_PRSTATUS_MAX
 *
 * An ampsoc extension: the default coredump (the program-header form)
 * then carries one NT_PRSTATUS note, first, with these registers. Set it
 * when the crash is detected, before ampsoc_rproc_report_crash(); it
 * stays until the next call or until the processor stops.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a length above AMPSOC_RPROC_PRSTATUS_MAX or
 * not a multiple of 4.
 */
int ampsoc_rproc_coredump_set_prstatus(struct rproc *rproc, int signo,
				       const void *regs, size_t len)
{
	struct ampsoc_rproc_state *ampsoc = rproc->ampsoc;
	unsigned long flags;

	if (regs && (len > AMPSOC_RPROC_PRSTATUS_MAX || len % 4))
		return -EINVAL;
	spin_lock_irqsave(&ampsoc->note_lock, flags);
	ampsoc->note_signo = signo;
	ampsoc->note_len = regs ? len : 0;
	if (regs)
		memcpy(ampsoc->note_regs, regs, len);
	spin_unlock_irqrestore(&ampsoc->note_lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_coredump_set_prstatus);

/*
 * struct elf_prstatus of a 32- and a 64-bit Linux core file, as gdb and
 * BFD read it: everything before pr_reg is 72 bytes in ELF32 and 112 in
 * ELF64 (pr_info 12, pr_cursig 2 + pad 2, pr_sigpend and pr_sighold, four
 * pids, four timevals); pr_cursig is at 12 and pr_pid at 24 (32 in ELF64)
 * in both; pr_fpvalid (4 bytes, padded to 8 in ELF64) follows pr_reg.
 */
#define AMPSOC_RPROC_PRS_REG_OFF(is64)	((is64) ? 112 : 72)
#define AMPSOC_RPROC_PRS_TAIL(is64)	((is64) ? 8 : 4)
#define AMPSOC_RPROC_PRS_CURSIG		12
#define AMPSOC_RPROC_NOTE_NAME		"CORE"

/* Bytes of the PT_NOTE segment for @regs_len bytes of registers (0: none). */
static size_t ampsoc_rproc_note_size(bool is64, size_t regs_len)
{
	if (!regs_len)
		return 0;
	return sizeof(struct elf32_note) + ALIGN(sizeof(AMPSOC_RPROC_NOTE_NAME), 4) +
	       ALIGN(AMPSOC_RPROC_PRS_REG_OFF(is64) + regs_len + AMPSOC_RPROC_PRS_TAIL(is64), 4);
}

/* Write the NT_PRSTATUS note of @size bytes (ampsoc_rproc_note_size()) at @dest. */
static void ampsoc_rproc_put_note(void *dest, bool is64, int signo, const u8 *regs,
				  size_t regs_len, size_t size)
{
	struct elf32_note *n = dest;	/* the same in ELF64 */
	u8 *name = (u8 *)(n + 1);
	u8 *desc = name + ALIGN(sizeof(AMPSOC_RPROC_NOTE_NAME), 4);
	u16 cursig = signo;

	n->n_namesz = sizeof(AMPSOC_RPROC_NOTE_NAME);
	n->n_descsz = AMPSOC_RPROC_PRS_REG_OFF(is64) + regs_len + AMPSOC_RPROC_PRS_TAIL(is64);
	n->n_type = NT_PRSTATUS;
	memcpy(name, AMPSOC_RPROC_NOTE_NAME, sizeof(AMPSOC_RPROC_NOTE_NAME));
	/* pr_info.si_signo, then pr_cursig */
	memcpy(desc, &signo, sizeof(signo));
	memcpy(desc + AMPSOC_RPROC_PRS_CURSIG, &cursig, sizeof(cursig));
	memcpy(desc + AMPSOC_RPROC_PRS_REG_OFF(is64), regs, regs_len);
	WARN_ON_ONCE(desc + n->n_descsz > (u8 *)dest + size);
}

/* Add [da, da + size) unless a segment already covers it. */
static int ampsoc_rproc_dump_add_unique(struct rproc *rproc, u64 da, u64 size)
{
	struct rproc_dump_segment *s;

	if (!size || size > SIZE_MAX)
		return 0;
	list_for_each_entry(s, &rproc->dump_segments, node)
		if (da >= s->da && size <= s->size && da - s->da <= s->size - size)
			return 0;
	return ampsoc_rproc_coredump_add_segment(rproc, da, size);
}

/**
 * ampsoc_rproc_coredump_add_image() - ampsoc's default dump segments
 * @rproc: the processor, its carveouts allocated
 * @fw: the image being booted, or NULL when attaching
 *
 * Remembers the image's class and machine, and when the platform added no
 * dump segment, adds the image's loadable segments and the carveouts.
 *
 * Context: Process context, rproc->lock held.
 * Return: 0 or -ENOMEM.
 */
int ampsoc_rproc_coredump_add_image(struct rproc *rproc, const struct firmware *fw)
{
	struct ampsoc_fw_info *info = NULL;
	struct rproc_mem_entry *c;
	unsigned int i;
	int ret = 0;

	rproc->ampsoc->img_class = ELFCLASSNONE;
	rproc->ampsoc->img_machine = EM_NONE;
	if (fw) {
		info = ampsoc_rproc_elf_parse(rproc, fw, true);
		if (IS_ERR(info)) {
			info = NULL;
		} else {
			rproc->ampsoc->img_class = info->elf_class;
			rproc->ampsoc->img_machine = info->machine;
		}
	}
	if (!list_empty(&rproc->dump_segments))
		goto out;
	for (i = 0; info && i < info->num_segs && !ret; i++)
		ret = ampsoc_rproc_dump_add_unique(rproc, info->segs[i].da,
						   info->segs[i].memsz);
	list_for_each_entry(c, &rproc->carveouts, node)
		if (!ret && c->va)
			ret = ampsoc_rproc_dump_add_unique(rproc, c->da, c->len);
out:
	kfree(info);
	return ret;
}

/* Copy part of a segment; memory that is not mapped reads as 0xff. */
static void ampsoc_rproc_copy_segment(struct rproc *rproc, void *dest,
				      struct rproc_dump_segment *s, size_t offset,
			     size_t size)
{
	bool is_iomem = false;
	void *ptr;

	if (s->dump) {
		s->dump(rproc, s, dest, offset, size);
		return;
	}
	ptr = ampsoc_rproc_da_to_va(rproc, s->da + offset, size, &is_iomem);
	if (!ptr) {
		dev_err(&rproc->dev,
			"invalid copy request for segment %pad with offset %zu and size %zu)\n",
			&s->da, offset, size);
		memset(dest, 0xff, size);
	} else if (is_iomem) {
		memcpy_fromio(dest, (void const __force __iomem *)ptr, size);
	} else {
		memcpy(dest, ptr, size);
	}
}

/**
 * struct ampsoc_rproc_dump - an inline dump devcoredump reads from device memory
 * @rproc: the processor
 * @header: the ELF headers (and string table)
 * @header_sz: their size
 * @done: completed when devcoredump frees the dump
 */
struct ampsoc_rproc_dump {
	struct rproc *rproc;
	void *header;
	size_t header_sz;
	struct completion done;
};

static ssize_t ampsoc_rproc_inline_read(char *buffer, loff_t offset, size_t count,
					void *data, size_t datalen)
{
	struct ampsoc_rproc_dump *d = data;
	struct rproc_dump_segment *s;
	size_t done = 0, pos;

	if (offset < 0 || offset >= datalen)
		return 0;
	count = min_t(size_t, count, datalen - offset);
	if (offset < d->header_sz) {
		done = min_t(size_t, count, d->header_sz - offset);
		memcpy(buffer, d->header + offset, done);
	}
	pos = d->header_sz;
	list_for_each_entry(s, &d->rproc->dump_segments, node) {
		loff_t at = offset + done;

		if (done == count)
			break;
		if (at < pos + s->size) {
			size_t from = at - pos;
			size_t n = min_t(size_t, count - done, s->size - from);

			ampsoc_rproc_copy_segment(d->rproc, buffer + done, s, from, n);
			done += n;
		}
		pos += s->size;
	}
	return done;
}

static void ampsoc_rproc_inline_free(void *data)
{
	struct ampsoc_rproc_dump *d = data;

	vfree(d->header);
	complete(&d->done);
}

/*
 * devcoredump takes a dump out of its class when it is read and freed, but
 * removes the dump's "devcoredump" link from the failing device only when
 * the dump is released, a moment later. A new dump in that window finds no
 * dump in the class and creates the link again: a sysfs duplicate-name
 * splat, seen on the debug kernel when a crash followed the freeing of the
 * last dump at once. So while the link points at a removed (deactivated)
 * directory, wait for it to go, 1 s at most. The dump leaves the class
 * before its directory is deactivated, and on PREEMPT_RT the deleting
 * worker was seen preempted in between: a link to a live directory is
 * looked at again for up to 100 ms before it counts as a live dump, which
 * devcoredump then keeps, dropping the new one by itself.
 */
static void ampsoc_rproc_coredump_settle(struct device *dev)
{
	struct kernfs_node *kn;
	int i, live = 0;
	bool dying;

	for (i = 0; i < 50; i++) {
		kn = kernfs_find_and_get(dev->kobj.sd, "devcoredump");
		if (!kn)
			return;
		dying = kernfs_type(kn) == KERNFS_LINK &&
			atomic_read(&kn->symlink.target_kn->active) < 0;
		kernfs_put(kn);
		if (!dying && ++live > 5)
			return;
		msleep(20);
	}
	dev_warn(dev, "the last coredump is still being released\n");
}

/*
 * Hand a dump of @size bytes whose first @header_sz bytes are in @data to
 * devcoredump: the whole file for "enabled", the headers only for "inline",
 * where devcoredump then reads the segments from device memory and this
 * waits until userspace has read or released the dump (or devcoredump's
 * own timeout), so that recovery does not overwrite it first.
 */
static void ampsoc_rproc_dump_out(struct rproc *rproc, void *data, size_t header_sz,
				  size_t size)
{
	struct ampsoc_rproc_dump *d;

	ampsoc_rproc_coredump_settle(&rproc->dev);
	if (rproc->dump_conf == RPROC_COREDUMP_ENABLED) {
		/* devcoredump owns data from here and vfree()s it. */
		dev_coredumpv(&rproc->dev, data, size, GFP_KERNEL);
		dev_info(&rproc->dev, "coredump of %zu bytes taken\n", size);
		return;
	}
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d) {
		vfree(data);
		return;
	}
	d->rproc = rproc;
	d->header = data;
	d->header_sz = header_sz;
	init_completion(&d->done);
	dev_coredumpm(&rproc->dev, NULL, d, size, GFP_KERNEL, ampsoc_rproc_inline_read,
		      ampsoc_rproc_inline_free);
	/*
	 * Waiting for userspace (bounded by devcoredump's timeout), not for
	 * the kernel: TASK_IDLE, so the hung-task detector does not take it
	 * for a deadlock.
	 */
	wait_for_completion_state(&d->done, TASK_IDLE);
	kfree(d);
}

/* Class and machine of a dump; false (and one line) if there is none. */
static bool ampsoc_rproc_dump_elf(struct rproc *rproc, u8 *class, u16 *machine)
{
	*class = rproc->elf_class;
	*machine = rproc->elf_machine;
	if (*class == ELFCLASSNONE) {
		*class = rproc->ampsoc->img_class;
		*machine = rproc->ampsoc->img_machine;
	}
	if (*class != ELFCLASS32 && *class != ELFCLASS64) {
		dev_err(&rproc->dev, "Elf class is not set\n");
		return false;
	}
	return true;
}

/* The same fields of the ELF32 and ELF64 structures. */
#define AMPSOC_RPROC_SET_EHDR(e, machine, entry, ehsz, entsz, n, sections)	\
	do {								\
		typeof(e) __e = (e);					\
		size_t __ehsz = (ehsz), __entsz = (entsz);		\
		unsigned int __n = (n);					\
									\
		__e->e_type = ET_CORE;					\
		__e->e_machine = (machine);				\
		__e->e_version = EV_CURRENT;				\
		__e->e_entry = (entry);					\
		__e->e_ehsize = __ehsz;					\
		if (sections) {						\
			__e->e_shoff = __ehsz;				\
			__e->e_shentsize = __entsz;			\
			__e->e_shnum = __n;				\
			__e->e_shstrndx = 1;				\
		} else {						\
			__e->e_phoff = __ehsz;				\
			__e->e_phentsize = __entsz;			\
			__e->e_phnum = __n;				\
		}							\
	} while (0)

#define AMPSOC_RPROC_SET_PHDR(p, off, da, size)					\
	do {								\
		typeof(p) __p = (p);					\
		u64 __da = (da), __size = (size);			\
									\
		__p->p_type = PT_LOAD;					\
		__p->p_offset = (off);					\
		__p->p_vaddr = __da;					\
		__p->p_paddr = __da;					\
		__p->p_filesz = __size;					\
		__p->p_memsz = __size;					\
		__p->p_flags = PF_R | PF_W | PF_X;			\
	} while (0)

#define AMPSOC_RPROC_SET_SHDR(h, type, name, off, addr, size, flags)		\
	do {								\
		typeof(h) __h = (h);					\
									\
		__h->sh_type = (type);					\
		__h->sh_name = (name);					\
		__h->sh_offset = (off);					\
		__h->sh_addr = (addr);					\
		__h->sh_size = (size);					\
		__h->sh_flags = (flags);				\
	} while (0)

/*
 * The dump's buffer with its ELF header: the whole file for "enabled",
 * the @hdr bytes of headers only for "inline". @tables entries of program
 * (or, with @sections, section) headers follow the ELF header.
 */
static void *ampsoc_rproc_dump_alloc(struct rproc *rproc, u8 class, u16 machine,
				     size_t hdr, size_t total, unsigned int tables,
			    bool sections)
{
	bool is64 = class == ELFCLASS64;
	size_t ehsz = is64 ? sizeof(struct elf64_hdr) : sizeof(struct elf32_hdr);
	size_t entsz = sections ?
		(is64 ? sizeof(struct elf64_shdr) : sizeof(struct elf32_shdr)) :
		(is64 ? sizeof(struct elf64_phdr) : sizeof(struct elf32_phdr));
	u8 *data;

	if (tables > U16_MAX || total > AMPSOC_RPROC_DUMP_MAX) {
		dev_err(&rproc->dev, "coredump of %zu bytes is too large\n",
			total);
		return NULL;
	}
	/* No allocation-failure splat: a large dump may simply not fit. */
	data = __vmalloc(rproc->dump_conf == RPROC_COREDUMP_ENABLED ? total : hdr,
			 GFP_KERNEL | __GFP_NOWARN | __GFP_ZERO);
	if (!data) {
		dev_err(&rproc->dev, "coredump of %zu bytes does not fit in memory\n",
			total);
		return NULL;
	}
	memcpy(data, ELFMAG, SELFMAG);
	data[EI_CLASS] = class;
	data[EI_DATA] = ELFDATA2LSB;
	data[EI_VERSION] = EV_CURRENT;
	data[EI_OSABI] = ELFOSABI_NONE;
	if (is64)
		AMPSOC_RPROC_SET_EHDR((struct elf64_hdr *)data, machine, rproc->bootaddr,
				      ehsz, entsz, tables, sections);
	else
		AMPSOC_RPROC_SET_EHDR((struct elf32_hdr *)data, machine, rproc->bootaddr,
				      ehsz, entsz, tables, sections);
	return data;
}

/* A PT_NOTE program header for @size bytes at file offset @off. */
static void ampsoc_rproc_put_note_phdr(void *ph, u8 class, u64 off, u64 size)
{
	if (class == ELFCLASS64) {
		struct elf64_phdr *p = ph;

		p->p_type = PT_NOTE;
		p->p_offset = off;
		p->p_filesz = size;
		p->p_align = 4;
	} else {
		struct elf32_phdr *p = ph;

		p->p_type = PT_NOTE;
		p->p_offset = off;
		p->p_filesz = size;
		p->p_align = 4;
	}
}

/* A PT_LOAD program header for @size bytes at @da, at file offset @off. */
static void ampsoc_rproc_put_phdr(void *ph, u8 class, u64 off, u64 da, u64 size)
{
	if (class == ELFCLASS64)
		AMPSOC_RPROC_SET_PHDR((struct elf64_phdr *)ph, off, da, size);
	else
		AMPSOC_RPROC_SET_PHDR((struct elf32_phdr *)ph, off, da, size);
}

/* A section header: string table (@addr 0) or a writable segment. */
static void ampsoc_rproc_put_shdr(void *sh, u8 class, u32 type, u32 name, u64 off,
				  u64 addr, u64 size)
{
	u32 flags = type == SHT_PROGBITS ? SHF_WRITE : 0;

	if (class == ELFCLASS64)
		AMPSOC_RPROC_SET_SHDR((struct elf64_shdr *)sh, type, name, off, addr,
				      size, flags);
	else
		AMPSOC_RPROC_SET_SHDR((struct elf32_shdr *)sh, type, name, off, addr,
				      size, flags);
}

/**
 * ampsoc_rproc_coredump() - the default &rproc_ops.coredump (rproc_coredump)
 * @rproc: the crashed processor
 *
 * One PT_LOAD program header per dump segment, as mainline, after a
 * PT_NOTE with the registers if the platform driver gave them
 * (ampsoc_rproc_coredump_set_prstatus()); "enabled" copies the segments
 * into the dump, "inline" lets devcoredump read them from device memory
 * and waits until the dump is read or released.
 *
 * Context: Process context, rproc->lock held.
 */
void ampsoc_rproc_coredump(struct rproc *rproc)
{
	struct ampsoc_rproc_state *ampsoc = rproc->ampsoc;
	struct rproc_dump_segment *s;
	size_t ehsz, phsz, hdr, total = 0, off, note_sz, regs_len;
	u8 regs[AMPSOC_RPROC_PRSTATUS_MAX];
	unsigned int phnum = 0;
	unsigned long flags;
	int signo;
	u16 machine;
	u8 class;
	void *data, *ph;

	lockdep_assert_held(&rproc->lock);
	if (list_empty(&rproc->dump_segments) ||
	    rproc->dump_conf == RPROC_COREDUMP_DISABLED ||
	    !ampsoc_rproc_dump_elf(rproc, &class, &machine))
		return;
	spin_lock_irqsave(&ampsoc->note_lock, flags);
	regs_len = ampsoc->note_len;
	signo = ampsoc->note_signo;
	memcpy(regs, ampsoc->note_regs, regs_len);
	spin_unlock_irqrestore(&ampsoc->note_lock, flags);
	ehsz = class == ELFCLASS64 ? sizeof(struct elf64_hdr) :
				     sizeof(struct elf32_hdr);
	phsz = class == ELFCLASS64 ? sizeof(struct elf64_phdr) :
				     sizeof(struct elf32_phdr);
	note_sz = ampsoc_rproc_note_size(class == ELFCLASS64, regs_len);
	if (note_sz)
		phnum++;
	list_for_each_entry(s, &rproc->dump_segments, node) {
		phnum++;
		total += s->size;
	}
	/* the note is part of the headers: "inline" serves it from memory */
	hdr = ehsz + phnum * phsz + note_sz;
	total += hdr;
	data = ampsoc_rproc_dump_alloc(rproc, class, machine, hdr, total, phnum, false);
	if (!data)
		return;
	ph = data + ehsz;
	off = hdr;
	if (note_sz) {
		ampsoc_rproc_put_note_phdr(ph, class, hdr - note_sz, note_sz);
		ampsoc_rproc_put_note(data + hdr - note_sz, class == ELFCLASS64, signo,
				      regs, regs_len, note_sz);
		ph += phsz;
	}
	list_for_each_entry(s, &rproc->dump_segments, node) {
		ampsoc_rproc_put_phdr(ph, class, off, s->da, s->size);
		if (rproc->dump_conf == RPROC_COREDUMP_ENABLED)
			ampsoc_rproc_copy_segment(rproc, data + off, s, 0, s->size);
		ph += phsz;
		off += s->size;
	}
	ampsoc_rproc_dump_out(rproc, data, hdr, total);
}

/**
 * ampsoc_rproc_coredump_using_sections() - a dump with one section per segment
 * @rproc: the crashed processor; every segment's &rproc_dump_segment.priv
 *	is its section name
 *
 * As rproc_coredump_using_sections(), for a &rproc_ops.coredump: a null
 * section, a string table section ("STR_TBL") and one SHT_PROGBITS section
 * per segment.
 *
 * Context: Process context, rproc->lock held (from &rproc_ops.coredump).
 */
void ampsoc_rproc_coredump_using_sections(struct rproc *rproc)
{
	static const char strtab_name[] = "STR_TBL";
	struct rproc_dump_segment *s;
	size_t ehsz, shsz, strsz, hdr, total = 0, off, stridx;
	unsigned int shnum = 2;
	char *strtab;
	u16 machine;
	u8 class;
	void *data, *sh;

	if (list_empty(&rproc->dump_segments) ||
	    rproc->dump_conf == RPROC_COREDUMP_DISABLED ||
	    !ampsoc_rproc_dump_elf(rproc, &class, &machine))
		return;
	ehsz = class == ELFCLASS64 ? sizeof(struct elf64_hdr) :
				     sizeof(struct elf32_hdr);
	shsz = class == ELFCLASS64 ? sizeof(struct elf64_shdr) :
				     sizeof(struct elf32_shdr);
	/* a leading NUL, then every name with its NUL */
	strsz = 1 + sizeof(strtab_name);
	list_for_each_entry(s, &rproc->dump_segments, node) {
		strsz += strlen(s->priv ?: "") + 1;
		total += s->size;
		shnum++;
	}
	/* headers, then the string table, then the segments */
	off = ehsz + shnum * shsz;
	hdr = off + strsz;
	total += hdr;
	data = ampsoc_rproc_dump_alloc(rproc, class, machine, hdr, total, shnum, true);
	if (!data)
		return;
	/* section 0 stays null; section 1 is the string table */
	sh = data + ehsz + shsz;
	strtab = data + off;
	stridx = 1;
	ampsoc_rproc_put_shdr(sh, class, SHT_STRTAB, stridx, off, 0, strsz);
	memcpy(strtab + stridx, strtab_name, sizeof(strtab_name));
	stridx += sizeof(strtab_name);
	off = hdr;
	list_for_each_entry(s, &rproc->dump_segments, node) {
		const char *name = s->priv ?: "";

		sh += shsz;
		ampsoc_rproc_put_shdr(sh, class, SHT_PROGBITS, stridx, off, s->da,
				      s->size);
		strcpy(strtab + stridx, name);
		stridx += strlen(name) + 1;
		if (rproc->dump_conf == RPROC_COREDUMP_ENABLED)
			ampsoc_rproc_copy_segment(rproc, data + off, s, 0, s->size);
		off += s->size;
	}
	ampsoc_rproc_dump_out(rproc, data, hdr, total);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_coredump_using_sections);
