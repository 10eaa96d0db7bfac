// SPDX-License-Identifier: GPL-2.0
/*
 * ELF32/ELF64 firmware and resource-table validation for ampsoc remoteproc.
 *
 * This file is compiled twice: into the ampsoc_rproc module and, behind
 * tests/fuzz/remoteproc/remoteproc_fw_shim.h, into host unit tests and a
 * libFuzzer target. Every field of an untrusted image is checked against
 * the image size before it is used; header reads go through memcpy() so
 * that no offset needs to be aligned.
 * On error the functions return a negative errno and leave exactly one
 * human-readable sentence in @err, which the kernel logs once.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/sort.h>
#include <linux/string.h>
#endif

#include "remoteproc_fw.h"

#define RSC_SECTION_NAME	".resource_table"

/* Header fields common to both classes, widened to 64 bits. */
struct fw_ehdr {
	u16 type, machine, phentsize, phnum, shentsize, shnum, shstrndx;
	u32 version;
	u64 entry, phoff, shoff;
};

struct fw_phdr {
	u32 type;
	u64 offset, paddr, filesz, memsz;
};

struct fw_shdr {
	u32 name, type;
	u64 addr, offset, size;
};

/*
 * Where the parser reads the image: all of it (@data), or only the
 * windows a caller read from a file it has not read whole (@win). In the
 * second case @size is unknown: ranges are checked against @size only for
 * overflow, @extent collects the end of every range checked (the caller
 * makes sure the file is that long) and a read outside the windows stops
 * the parse, asking for that range in @need.
 */
static bool fw_span_ok(u64 off, u64 len, u64 size)
{
	u64 end;

	return !check_add_overflow(off, len, &end) && end <= size;
}

struct fw_src {
	const u8 *data;
	u64 size;
	const struct ampsoc_fw_win *win;
	unsigned int nwin;
	struct ampsoc_fw_win *need;
	u64 extent;
};

static bool fw_range_ok(struct fw_src *src, u64 off, u64 len)
{
	u64 end;

	if (!fw_span_ok(off, len, src->size))
		return false;
	end = off + len;
	if (end > src->extent)
		src->extent = end;
	return true;
}

/* @len bytes at @off, already range-checked; NULL if no window has them. */
static const u8 *fw_at(struct fw_src *src, u64 off, u64 len)
{
	static const u8 none[1];
	unsigned int i;

	if (src->data)
		return src->data + off;
	if (!len)
		return none;
	for (i = 0; i < src->nwin; i++) {
		const struct ampsoc_fw_win *w = &src->win[i];

		if (off >= w->off && len <= w->len && off - w->off <= w->len - len)
			return (const u8 *)w->data + (off - w->off);
	}
	src->need->off = off;
	src->need->len = len;
	src->need->data = NULL;
	return NULL;
}

static void fw_read_ehdr(const u8 *d, bool is64, struct fw_ehdr *e)
{
	if (is64) {
		struct elf64_hdr h;

		memcpy(&h, d, sizeof(h));
		e->type = h.e_type;
		e->machine = h.e_machine;
		e->version = h.e_version;
		e->entry = h.e_entry;
		e->phoff = h.e_phoff;
		e->shoff = h.e_shoff;
		e->phentsize = h.e_phentsize;
		e->phnum = h.e_phnum;
		e->shentsize = h.e_shentsize;
		e->shnum = h.e_shnum;
		e->shstrndx = h.e_shstrndx;
	} else {
		struct elf32_hdr h;

		memcpy(&h, d, sizeof(h));
		e->type = h.e_type;
		e->machine = h.e_machine;
		e->version = h.e_version;
		e->entry = h.e_entry;
		e->phoff = h.e_phoff;
		e->shoff = h.e_shoff;
		e->phentsize = h.e_phentsize;
		e->phnum = h.e_phnum;
		e->shentsize = h.e_shentsize;
		e->shnum = h.e_shnum;
		e->shstrndx = h.e_shstrndx;
	}
}

static void fw_read_phdr(const u8 *d, bool is64, struct fw_phdr *p)
{
	if (is64) {
		struct elf64_phdr h;

		memcpy(&h, d, sizeof(h));
		p->type = h.p_type;
		p->offset = h.p_offset;
		p->paddr = h.p_paddr;
		p->filesz = h.p_filesz;
		p->memsz = h.p_memsz;
	} else {
		struct elf32_phdr h;

		memcpy(&h, d, sizeof(h));
		p->type = h.p_type;
		p->offset = h.p_offset;
		p->paddr = h.p_paddr;
		p->filesz = h.p_filesz;
		p->memsz = h.p_memsz;
	}
}

static void fw_read_shdr(const u8 *d, bool is64, struct fw_shdr *s)
{
	if (is64) {
		struct elf64_shdr h;

		memcpy(&h, d, sizeof(h));
		s->name = h.sh_name;
		s->type = h.sh_type;
		s->addr = h.sh_addr;
		s->offset = h.sh_offset;
		s->size = h.sh_size;
	} else {
		struct elf32_shdr h;

		memcpy(&h, d, sizeof(h));
		s->name = h.sh_name;
		s->type = h.sh_type;
		s->addr = h.sh_addr;
		s->offset = h.sh_offset;
		s->size = h.sh_size;
	}
}

static int fw_seg_cmp(const void *a, const void *b)
{
	const struct ampsoc_fw_seg *x = a, *y = b;

	if (x->da != y->da)
		return x->da < y->da ? -1 : 1;
	return 0;
}

static int fw_parse_segments(struct fw_src *src, bool is64,
			     const struct fw_ehdr *e,
			     struct ampsoc_fw_info *info, char *err,
			     size_t errlen)
{
	size_t phsz = is64 ? sizeof(struct elf64_phdr) : sizeof(struct elf32_phdr);
	size_t size = src->size;
	const u8 *ph;
	unsigned int i;
	u64 end;

	if (!e->phnum) {
		scnprintf(err, errlen, "ELF has no program headers");
		return -EINVAL;
	}
	if (e->phentsize != phsz) {
		scnprintf(err, errlen, "ELF program header size %u, expected %zu",
			  e->phentsize, phsz);
		return -EINVAL;
	}
	if (!fw_range_ok(src, e->phoff, (u64)e->phnum * phsz)) {
		scnprintf(err, errlen,
			  "ELF program headers (offset 0x%llx, %u entries) exceed the %zu-byte image",
			  (unsigned long long)e->phoff, e->phnum, size);
		return -EINVAL;
	}

	ph = fw_at(src, e->phoff, (u64)e->phnum * phsz);
	if (!ph)
		return -EAGAIN;
	info->num_segs = 0;
	for (i = 0; i < e->phnum; i++) {
		struct ampsoc_fw_seg *seg;
		struct fw_phdr p;

		fw_read_phdr(ph + (u64)i * phsz, is64, &p);
		if (p.type != PT_LOAD || !p.memsz)
			continue;
		if (p.filesz > p.memsz) {
			scnprintf(err, errlen,
				  "segment %u: filesz 0x%llx is larger than memsz 0x%llx",
				  i, (unsigned long long)p.filesz,
				  (unsigned long long)p.memsz);
			return -EINVAL;
		}
		if (!fw_range_ok(src, p.offset, p.filesz)) {
			scnprintf(err, errlen,
				  "segment %u: file bytes 0x%llx+0x%llx exceed the %zu-byte image",
				  i, (unsigned long long)p.offset,
				  (unsigned long long)p.filesz, size);
			return -EINVAL;
		}
		if (check_add_overflow(p.paddr, p.memsz, &end) ||
		    (!is64 && end > 0x100000000ull)) {
			scnprintf(err, errlen,
				  "segment %u: address 0x%llx+0x%llx wraps around",
				  i, (unsigned long long)p.paddr,
				  (unsigned long long)p.memsz);
			return -EINVAL;
		}
		if (info->num_segs == AMPSOC_FW_MAX_SEGS) {
			scnprintf(err, errlen,
				  "more than %u loadable segments",
				  AMPSOC_FW_MAX_SEGS);
			return -E2BIG;
		}
		seg = &info->segs[info->num_segs++];
		seg->da = p.paddr;
		seg->offset = p.offset;
		seg->filesz = p.filesz;
		seg->memsz = p.memsz;
	}
	if (!info->num_segs) {
		scnprintf(err, errlen, "ELF has no loadable segment");
		return -EINVAL;
	}

	sort(info->segs, info->num_segs, sizeof(info->segs[0]), fw_seg_cmp,
	     NULL);
	for (i = 1; i < info->num_segs; i++) {
		const struct ampsoc_fw_seg *a = &info->segs[i - 1];
		const struct ampsoc_fw_seg *b = &info->segs[i];

		/* a->da + a->memsz cannot overflow: checked above. */
		if (b->da < a->da + a->memsz) {
			scnprintf(err, errlen,
				  "segments at 0x%llx and 0x%llx overlap",
				  (unsigned long long)a->da,
				  (unsigned long long)b->da);
			return -EINVAL;
		}
	}
	return 0;
}

static const struct ampsoc_fw_seg *fw_seg_covering(const struct ampsoc_fw_info *info,
						   u64 da, u64 len)
{
	unsigned int i;

	for (i = 0; i < info->num_segs; i++) {
		const struct ampsoc_fw_seg *s = &info->segs[i];

		if (da >= s->da && len <= s->memsz &&
		    da - s->da <= s->memsz - len)
			return s;
	}
	return NULL;
}

static int fw_parse_sections(struct fw_src *src, bool is64,
			     const struct fw_ehdr *e,
			     struct ampsoc_fw_info *info, char *err,
			     size_t errlen)
{
	size_t shsz = is64 ? sizeof(struct elf64_shdr) : sizeof(struct elf32_shdr);
	static const char want[] = RSC_SECTION_NAME;
	size_t size = src->size;
	const u8 *sh, *names;
	struct fw_shdr strtab;
	unsigned int i;

	info->has_rsc = false;
	if (!e->shnum) {
		if (e->shoff) {
			scnprintf(err, errlen,
				  "extended ELF section numbering is not supported");
			return -EINVAL;
		}
		return 0;
	}
	if (e->shentsize != shsz) {
		scnprintf(err, errlen, "ELF section header size %u, expected %zu",
			  e->shentsize, shsz);
		return -EINVAL;
	}
	if (!fw_range_ok(src, e->shoff, (u64)e->shnum * shsz)) {
		scnprintf(err, errlen,
			  "ELF section headers (offset 0x%llx, %u entries) exceed the %zu-byte image",
			  (unsigned long long)e->shoff, e->shnum, size);
		return -EINVAL;
	}
	if (e->shstrndx >= e->shnum) {
		scnprintf(err, errlen,
			  "ELF section name table index %u out of range (%u sections)",
			  e->shstrndx, e->shnum);
		return -EINVAL;
	}
	sh = fw_at(src, e->shoff, (u64)e->shnum * shsz);
	if (!sh)
		return -EAGAIN;
	fw_read_shdr(sh + (u64)e->shstrndx * shsz, is64, &strtab);
	if (strtab.type == SHT_NOBITS ||
	    !fw_range_ok(src, strtab.offset, strtab.size)) {
		scnprintf(err, errlen,
			  "ELF section name table exceeds the %zu-byte image",
			  size);
		return -EINVAL;
	}
	names = fw_at(src, strtab.offset, strtab.size);
	if (!names)
		return -EAGAIN;

	for (i = 0; i < e->shnum; i++) {
		struct fw_shdr s;

		fw_read_shdr(sh + (u64)i * shsz, is64, &s);
		/* The name must fit, NUL included, inside the name table. */
		if (s.name >= strtab.size ||
		    strtab.size - s.name < sizeof(want) ||
		    memcmp(names + s.name, want, sizeof(want)))
			continue;

		if (info->has_rsc) {
			scnprintf(err, errlen,
				  "more than one %s section", want);
			return -EINVAL;
		}
		if (s.size > AMPSOC_RSC_MAX_SIZE) {
			scnprintf(err, errlen,
				  "%s section of 0x%llx bytes is larger than %u",
				  want, (unsigned long long)s.size,
				  AMPSOC_RSC_MAX_SIZE);
			return -E2BIG;
		}
		if (s.type == SHT_NOBITS ||
		    !fw_range_ok(src, s.offset, s.size)) {
			scnprintf(err, errlen,
				  "%s section (offset 0x%llx, 0x%llx bytes) exceeds the %zu-byte image",
				  want, (unsigned long long)s.offset,
				  (unsigned long long)s.size, size);
			return -EINVAL;
		}
		if (!fw_seg_covering(info, s.addr, s.size)) {
			scnprintf(err, errlen,
				  "%s section at 0x%llx is not inside a loadable segment",
				  want, (unsigned long long)s.addr);
			return -EINVAL;
		}
		info->has_rsc = true;
		info->rsc_offset = s.offset;
		info->rsc_size = s.size;
		info->rsc_da = s.addr;
	}
	return 0;
}

static int fw_parse(struct fw_src *src, const struct ampsoc_fw_expect *expect,
		    struct ampsoc_fw_info *info, char *err, size_t errlen)
{
	size_t ehsz;
	struct fw_ehdr e;
	const u8 *d;
	bool is64;
	int ret;

	err[0] = '\0';
	memset(info, 0, sizeof(*info));
	if (!fw_range_ok(src, 0, EI_NIDENT)) {
		scnprintf(err, errlen, "image is not an ELF file");
		return -ENOEXEC;
	}
	d = fw_at(src, 0, EI_NIDENT);
	if (!d)
		return -EAGAIN;
	if (memcmp(d, ELFMAG, SELFMAG)) {
		scnprintf(err, errlen, "image is not an ELF file");
		return -ENOEXEC;
	}
	if (d[EI_CLASS] != ELFCLASS32 && d[EI_CLASS] != ELFCLASS64) {
		scnprintf(err, errlen, "unsupported ELF class %u", d[EI_CLASS]);
		return -ENOEXEC;
	}
	is64 = d[EI_CLASS] == ELFCLASS64;
	if (expect && expect->elf_class && expect->elf_class != d[EI_CLASS]) {
		scnprintf(err, errlen, "ELF class %u, this processor needs %u",
			  d[EI_CLASS], expect->elf_class);
		return -ENOEXEC;
	}
	if (d[EI_DATA] != ELFDATA2LSB) {
		scnprintf(err, errlen,
			  "ELF byte order %u, only little-endian is supported",
			  d[EI_DATA]);
		return -ENOEXEC;
	}
	if (d[EI_VERSION] != EV_CURRENT) {
		scnprintf(err, errlen, "unsupported ELF version %u",
			  d[EI_VERSION]);
		return -ENOEXEC;
	}
	ehsz = is64 ? sizeof(struct elf64_hdr) : sizeof(struct elf32_hdr);
	if (!fw_range_ok(src, 0, ehsz)) {
		scnprintf(err, errlen, "image truncated inside the ELF header");
		return -ENOEXEC;
	}
	d = fw_at(src, 0, ehsz);
	if (!d)
		return -EAGAIN;
	fw_read_ehdr(d, is64, &e);
	if (e.type != ET_EXEC) {
		scnprintf(err, errlen, "ELF type %u is not an executable",
			  e.type);
		return -ENOEXEC;
	}
	if (expect && expect->machine && expect->machine != e.machine) {
		scnprintf(err, errlen, "ELF machine %u, this processor needs %u",
			  e.machine, expect->machine);
		return -ENOEXEC;
	}

	info->elf_class = d[EI_CLASS];
	info->machine = e.machine;
	info->entry = e.entry;

	ret = fw_parse_segments(src, is64, &e, info, err, errlen);
	if (ret)
		return ret;
	if (!fw_seg_covering(info, e.entry, 1)) {
		scnprintf(err, errlen,
			  "entry point 0x%llx is outside every loadable segment",
			  (unsigned long long)e.entry);
		return -EINVAL;
	}
	return fw_parse_sections(src, is64, &e, info, err, errlen);
}

/**
 * ampsoc_fw_parse_elf() - validate an ELF firmware image
 * @data: the image
 * @size: its size in bytes
 * @expect: ELF class and machine the processor accepts (may be NULL)
 * @info: filled with the entry point, segments and resource table location
 * @err: buffer for one sentence explaining a rejection
 * @errlen: size of @err
 *
 * Checks the identification, the header, every program header and the
 * section headers against @size, requires that loadable segments do not
 * overlap, that the entry point lies in one of them, and locates the
 * optional .resource_table section (at most AMPSOC_RSC_MAX_SIZE bytes).
 * The device memory map is not known here; the caller checks each segment
 * against it.
 *
 * Context: Any context; does not sleep or allocate.
 * Return: 0 if the image is usable, otherwise a negative errno.
 */
int ampsoc_fw_parse_elf(const void *data, size_t size,
			const struct ampsoc_fw_expect *expect,
			struct ampsoc_fw_info *info, char *err, size_t errlen)
{
	struct fw_src src = { .data = data, .size = size };

	return fw_parse(&src, expect, info, err, errlen);
}

/**
 * ampsoc_fw_parse_elf_win() - validate an ELF image read in windows
 * @win: the parts of the file read so far
 * @nwin: how many
 * @expect: ELF class and machine the processor accepts (may be NULL)
 * @info: as for ampsoc_fw_parse_elf()
 * @need: on -EAGAIN, the range of the file the parse needs next
 * @extent: on success, how long the file must be: the end of every range
 *	the parse checked
 * @err: as for ampsoc_fw_parse_elf()
 * @errlen: size of @err
 *
 * The same checks as ampsoc_fw_parse_elf() on the same bytes, for a caller
 * that reads a file in parts: ranges are checked for overflow only, and
 * the caller must make sure the file is at least @extent bytes long. If it
 * is, ampsoc_fw_parse_elf() on the whole file gives the same result and
 * @info; if it is not, the whole file must be parsed for the verdict. An
 * error other than -EAGAIN may differ from the whole file's.
 *
 * Context: Any context; does not sleep or allocate.
 * Return: 0, -EAGAIN when @need must be read first, or another negative
 * errno.
 */
int ampsoc_fw_parse_elf_win(const struct ampsoc_fw_win *win, unsigned int nwin,
			    const struct ampsoc_fw_expect *expect,
			    struct ampsoc_fw_info *info, struct ampsoc_fw_win *need,
			    u64 *extent, char *err, size_t errlen)
{
	struct fw_src src = {
		.size = ~(u64)0, .win = win, .nwin = nwin, .need = need,
	};
	int ret;

	ret = fw_parse(&src, expect, info, err, errlen);
	*extent = src.extent;
	return ret;
}

/**
 * ampsoc_fw_rsc_min_size() - size of the fixed part of a resource
 * @type: resource type
 *
 * Context: Any context.
 * Return: the size in bytes of the structure that follows the type word for
 * the mainline resource types, 0 for the vendor range and unknown types.
 */
size_t ampsoc_fw_rsc_min_size(u32 type)
{
	switch (type) {
	case AMPSOC_RSC_CARVEOUT:
		return sizeof(struct ampsoc_rsc_carveout);
	case AMPSOC_RSC_DEVMEM:
		return sizeof(struct ampsoc_rsc_devmem);
	case AMPSOC_RSC_TRACE:
		return sizeof(struct ampsoc_rsc_trace);
	case AMPSOC_RSC_VDEV:
		return sizeof(struct ampsoc_rsc_vdev);
	default:
		return 0;
	}
}

/*
 * Bytes occupied by the entry at @off, type word included, for an entry
 * that already passed its own checks. Vendor entries own their type word.
 */
static u64 rsc_extent(const u8 *t, u32 off)
{
	struct ampsoc_rsc_vdev v;
	u32 type;

	memcpy(&type, t + off, sizeof(type));
	if (type != AMPSOC_RSC_VDEV)
		return sizeof(type) + ampsoc_fw_rsc_min_size(type);
	memcpy(&v, t + off + sizeof(type), sizeof(v));
	return sizeof(type) + sizeof(v) +
	       (u64)v.num_of_vrings * sizeof(struct ampsoc_rsc_vring) +
	       v.config_len;
}

static bool rsc_span_ok(u32 da, u32 len)
{
	u32 end;

	return da == AMPSOC_FW_RSC_ADDR_ANY || !check_add_overflow(da, len, &end);
}

static int rsc_check_vdev(unsigned int i, const u8 *p, size_t avail,
			  char *err, size_t errlen)
{
	struct ampsoc_rsc_vdev v;
	unsigned int n;
	u64 need;

	memcpy(&v, p, sizeof(v));
	if (v.reserved[0] || v.reserved[1]) {
		scnprintf(err, errlen, "entry %u: vdev reserved bytes are not zero",
			  i);
		return -EINVAL;
	}
	if (!v.num_of_vrings || v.num_of_vrings > AMPSOC_RSC_MAX_VRINGS) {
		scnprintf(err, errlen,
			  "entry %u: vdev has %u vrings, 1 to %u are supported",
			  i, v.num_of_vrings, AMPSOC_RSC_MAX_VRINGS);
		return -EINVAL;
	}
	need = sizeof(v) + (u64)v.num_of_vrings * sizeof(struct ampsoc_rsc_vring) +
	       v.config_len;
	if (need > avail) {
		scnprintf(err, errlen,
			  "entry %u: vdev with %u vrings and %u config bytes is truncated",
			  i, v.num_of_vrings, v.config_len);
		return -EINVAL;
	}
	for (n = 0; n < v.num_of_vrings; n++) {
		struct ampsoc_rsc_vring r;

		memcpy(&r, p + sizeof(v) + n * sizeof(r), sizeof(r));
		if (!is_power_of_2(r.num) || r.num > AMPSOC_RSC_MAX_VRING_NUM) {
			scnprintf(err, errlen,
				  "entry %u: vring %u has %u buffers, need a power of two up to %u",
				  i, n, r.num, AMPSOC_RSC_MAX_VRING_NUM);
			return -EINVAL;
		}
		if (!is_power_of_2(r.align) ||
		    r.align < AMPSOC_RSC_MIN_VRING_ALIGN ||
		    r.align > AMPSOC_RSC_MAX_VRING_ALIGN) {
			scnprintf(err, errlen,
				  "entry %u: vring %u alignment %u is invalid",
				  i, n, r.align);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * ampsoc_fw_check_rsc() - validate a resource table
 * @table: the table (a copy of the .resource_table section)
 * @size: its size in bytes
 * @err: buffer for one sentence explaining a rejection
 * @errlen: size of @err
 *
 * Checks the version, that the offset array and every entry lie inside the
 * table and after the offset array, that each entry's type is a mainline
 * type or in the vendor range, and the internal consistency of each entry
 * (lengths, address wrap-around, vring counts, sizes and alignment, vdev
 * config space). After this succeeds, every access the loader makes to an
 * entry's fixed part (and a vdev's vrings and config space) is in bounds.
 *
 * Context: Any context; does not sleep or allocate.
 * Return: 0 if the table is usable, otherwise a negative errno.
 */
int ampsoc_fw_check_rsc(const void *table, size_t size, char *err,
			size_t errlen)
{
	const u8 *t = table;
	struct ampsoc_rsc_table hdr;
	unsigned int i;
	u64 first;

	err[0] = '\0';
	if (size < sizeof(hdr)) {
		scnprintf(err, errlen, "resource table of %zu bytes is truncated",
			  size);
		return -EINVAL;
	}
	memcpy(&hdr, t, sizeof(hdr));
	if (hdr.ver != 1) {
		scnprintf(err, errlen, "resource table version %u, expected 1",
			  hdr.ver);
		return -EINVAL;
	}
	if (hdr.num > AMPSOC_RSC_MAX_ENTRIES) {
		scnprintf(err, errlen,
			  "resource table has %u entries, at most %u are supported",
			  hdr.num, AMPSOC_RSC_MAX_ENTRIES);
		return -E2BIG;
	}
	first = sizeof(hdr) + (u64)hdr.num * sizeof(u32);
	if (first > size) {
		scnprintf(err, errlen,
			  "resource table with %u entries is truncated (%zu bytes)",
			  hdr.num, size);
		return -EINVAL;
	}

	for (i = 0; i < hdr.num; i++) {
		struct ampsoc_rsc_hdr rh;
		size_t avail, min;
		const u8 *p;
		u32 off;

		memcpy(&off, t + sizeof(hdr) + i * sizeof(u32), sizeof(off));
		if (off < first || !fw_span_ok(off, sizeof(rh), size)) {
			scnprintf(err, errlen,
				  "entry %u: offset 0x%x is outside the resource table",
				  i, off);
			return -EINVAL;
		}
		memcpy(&rh, t + off, sizeof(rh));
		p = t + off + sizeof(rh);
		avail = size - off - sizeof(rh);

		if (rh.type >= AMPSOC_RSC_LAST &&
		    (rh.type < AMPSOC_RSC_VENDOR_START ||
		     rh.type >= AMPSOC_RSC_VENDOR_END)) {
			scnprintf(err, errlen, "entry %u: unknown resource type %u",
				  i, rh.type);
			return -EINVAL;
		}
		min = ampsoc_fw_rsc_min_size(rh.type);
		if (min > avail) {
			scnprintf(err, errlen,
				  "entry %u: type %u resource is truncated", i,
				  rh.type);
			return -EINVAL;
		}

		switch (rh.type) {
		case AMPSOC_RSC_CARVEOUT: {
			struct ampsoc_rsc_carveout c;

			memcpy(&c, p, sizeof(c));
			if (!c.len || !rsc_span_ok(c.da, c.len)) {
				scnprintf(err, errlen,
					  "entry %u: carveout 0x%x+0x%x is empty or wraps around",
					  i, c.da, c.len);
				return -EINVAL;
			}
			break;
		}
		case AMPSOC_RSC_DEVMEM: {
			struct ampsoc_rsc_devmem m;

			memcpy(&m, p, sizeof(m));
			if (!m.len || m.da == AMPSOC_FW_RSC_ADDR_ANY ||
			    !rsc_span_ok(m.da, m.len) ||
			    !rsc_span_ok(m.pa, m.len)) {
				scnprintf(err, errlen,
					  "entry %u: devmem 0x%x->0x%x+0x%x is invalid",
					  i, m.da, m.pa, m.len);
				return -EINVAL;
			}
			break;
		}
		case AMPSOC_RSC_TRACE: {
			struct ampsoc_rsc_trace tr;

			memcpy(&tr, p, sizeof(tr));
			if (!tr.len || tr.da == AMPSOC_FW_RSC_ADDR_ANY ||
			    !rsc_span_ok(tr.da, tr.len)) {
				scnprintf(err, errlen,
					  "entry %u: trace buffer 0x%x+0x%x is invalid",
					  i, tr.da, tr.len);
				return -EINVAL;
			}
			break;
		}
		case AMPSOC_RSC_VDEV: {
			int ret = rsc_check_vdev(i, p, avail, err, errlen);

			if (ret)
				return ret;
			break;
		}
		default:
			/* Vendor range: only its type word is known here. */
			break;
		}
	}

	/*
	 * The loader writes addresses back into entries, so no entry may
	 * share bytes with another: a write could change a checked field.
	 */
	for (i = 1; i < hdr.num; i++) {
		u32 oi, oj;
		u64 ei;
		unsigned int j;

		memcpy(&oi, t + sizeof(hdr) + i * sizeof(u32), sizeof(oi));
		ei = oi + rsc_extent(t, oi);
		for (j = 0; j < i; j++) {
			u64 ej;

			memcpy(&oj, t + sizeof(hdr) + j * sizeof(u32),
			       sizeof(oj));
			ej = oj + rsc_extent(t, oj);
			if (oi < ej && oj < ei) {
				scnprintf(err, errlen,
					  "entries %u and %u overlap", j, i);
				return -EINVAL;
			}
		}
	}
	return 0;
}
