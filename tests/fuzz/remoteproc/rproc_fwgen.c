// SPDX-License-Identifier: GPL-2.0
/*
 * Builds the test firmware images described in rproc_fwgen.h. The correct
 * image has two PT_LOAD segments (text with a bss tail, data holding the
 * resource table and the trace buffer) and a resource table with two
 * carveouts, a vendor entry the platform ignores, a trace buffer, an rpmsg
 * vdev with two vrings, a vendor entry it handles and a one-vring vdev.
 * Every malformed case changes exactly one thing.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "remoteproc_fw_shim.h"
#include "remoteproc_fw.h"
#include "rproc_fwgen.h"

#define PARSE 1
#define CORE 0

const struct fwgen_desc fwgen_cases[FWGEN_NUM_CASES] = {
	[FWGEN_GOOD64] = { FWGEN_GOOD64_NAME, 0, 0 },
	[FWGEN_GOOD32] = { FWGEN_GOOD32_NAME, 0, 0 },
	[FWGEN_VDEV_FIRST] = { FWGEN_VDEV_FIRST_NAME, 0, 0 },
	[FWGEN_PORTABLE] = { FWGEN_PORTABLE_NAME, 0, 0 },
#define BADFW(name, e, stage) \
	[FWGEN_BAD_##name] = { "ampsoc-rproc-bad-" #name ".elf", e, stage },
#include "badfw_cases.h"
#undef BADFW
};

struct knobs {
	int is64;
	uint16_t machine;
	uint16_t type;
	uint8_t class, data;
	uint64_t entry;
	uint64_t seg_da[2], seg_filesz_extra[2], seg_memsz[2];
	uint64_t seg_off_extra;
	int phnum, phentsize_delta;
	int shnum_extra_rsc;		/* a second .resource_table */
	uint64_t rsc_addr;
	int shstrndx_bad;
	/* resource table */
	uint32_t ver, num_override;
	int num_is_override;
	uint32_t co_text_da, co_text_len, co_heap_da, co_heap_len;
	uint32_t trace_da;
	uint8_t vdev_nvrings, vdev_reserved;
	uint32_t vring_num, vring_align, vring0_da, config_len;
	uint32_t vendor_type;
	uint32_t unknown_type;	/* replaces entry 2's type if set */
	int devmem;		/* entry 2 is a devmem entry */
	int vdev_first;		/* the one-vring vdev comes first in the table */
	int no_test_vdev;	/* no one-vring vdev at all */
	int offset_patch;	/* which patch to apply to offset[] */
	int rsc_truncate;
};

static void knobs_default(struct knobs *k)
{
	memset(k, 0, sizeof(*k));
	k->is64 = 1;
	k->machine = EM_X86_64;
	k->type = ET_EXEC;
	k->class = ELFCLASS64;
	k->data = ELFDATA2LSB;
	k->entry = FWGEN_TEXT_DA;
	k->seg_da[0] = FWGEN_TEXT_DA;
	k->seg_da[1] = FWGEN_DATA_DA;
	k->seg_memsz[0] = 0x1000;
	k->seg_memsz[1] = 0x1000;
	k->phnum = 2;
	k->rsc_addr = FWGEN_DATA_DA;
	k->ver = 1;
	k->co_text_da = FWGEN_TEXT_DA;
	k->co_text_len = 0x2000;
	k->co_heap_da = AMPSOC_FW_RSC_ADDR_ANY;
	k->co_heap_len = 0x4000;
	k->trace_da = FWGEN_TRACE_DA;
	k->vdev_nvrings = 2;
	k->vring_num = FWGEN_VRING_NUM;
	k->vring_align = 4096;
	k->vring0_da = AMPSOC_FW_RSC_ADDR_ANY;
	k->config_len = 8;
	k->vendor_type = FWGEN_VENDOR_OK;
}

static void put(uint8_t *t, size_t *off, const void *p, size_t n)
{
	memcpy(t + *off, p, n);
	*off += n;
}

static size_t build_rsc(const struct knobs *k, uint8_t *t)
{
	const unsigned int num = k->no_test_vdev ? 6 : 7;
	uint32_t offs[7], type;
	size_t off = sizeof(struct ampsoc_rsc_table) + num * 4;
	struct ampsoc_rsc_table hdr = { .ver = k->ver, .num = num };
	struct ampsoc_rsc_carveout co;
	struct ampsoc_rsc_devmem dm;
	struct ampsoc_rsc_trace tr;
	struct ampsoc_rsc_vdev vd;
	struct ampsoc_rsc_vring vr;
	unsigned int i;
	uint32_t vendor_payload[2] = { 0x12345678, 0x9abcdef0 };
	uint8_t config[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	/* 0: carveout "text" over the segments */
	offs[0] = off;
	type = AMPSOC_RSC_CARVEOUT;
	put(t, &off, &type, 4);
	memset(&co, 0, sizeof(co));
	co.da = k->co_text_da;
	co.pa = AMPSOC_FW_RSC_ADDR_ANY;
	co.len = k->co_text_len;
	strcpy((char *)co.name, "text");
	put(t, &off, &co, sizeof(co));

	/* 1: carveout "heap" anywhere */
	offs[1] = off;
	put(t, &off, &type, 4);
	memset(&co, 0, sizeof(co));
	co.da = k->co_heap_da;
	co.pa = AMPSOC_FW_RSC_ADDR_ANY;
	co.len = k->co_heap_len;
	strcpy((char *)co.name, "heap");
	put(t, &off, &co, sizeof(co));

	/*
	 * 2: a vendor entry the platform ignores, or a devmem entry (which
	 * needs an IOMMU, as in mainline)
	 */
	offs[2] = off;
	if (k->devmem) {
		type = AMPSOC_RSC_DEVMEM;
		put(t, &off, &type, 4);
		memset(&dm, 0, sizeof(dm));
		dm.da = 0x20000000;
		dm.pa = 0x20000000;
		dm.len = 0x1000;
		strcpy((char *)dm.name, "regs");
		put(t, &off, &dm, sizeof(dm));
	} else {
		type = k->unknown_type ? k->unknown_type : FWGEN_VENDOR_IGNORED;
		put(t, &off, &type, 4);
		put(t, &off, vendor_payload, sizeof(vendor_payload));
	}

	/* 3: trace buffer inside the data segment */
	offs[3] = off;
	type = AMPSOC_RSC_TRACE;
	put(t, &off, &type, 4);
	memset(&tr, 0, sizeof(tr));
	tr.da = k->trace_da;
	tr.len = FWGEN_TRACE_LEN;
	strcpy((char *)tr.name, "trace0");
	put(t, &off, &tr, sizeof(tr));

	/* 4: rpmsg vdev with its vrings and config space */
	offs[4] = off;
	type = AMPSOC_RSC_VDEV;
	put(t, &off, &type, 4);
	memset(&vd, 0, sizeof(vd));
	vd.id = FWGEN_VDEV_ID;
	vd.dfeatures = 1;
	vd.config_len = k->config_len;
	vd.num_of_vrings = k->vdev_nvrings;
	vd.reserved[1] = k->vdev_reserved;
	put(t, &off, &vd, sizeof(vd));
	for (i = 0; i < 2; i++) {
		memset(&vr, 0, sizeof(vr));
		vr.da = i ? AMPSOC_FW_RSC_ADDR_ANY : k->vring0_da;
		vr.align = k->vring_align;
		vr.num = k->vring_num;
		vr.pa = AMPSOC_FW_RSC_ADDR_ANY;
		put(t, &off, &vr, sizeof(vr));
	}
	put(t, &off, config, sizeof(config));

	/* 5: vendor entry */
	offs[5] = off;
	put(t, &off, &k->vendor_type, 4);
	put(t, &off, vendor_payload, sizeof(vendor_payload));

	/* 6: a one-vring vdev for the kernel test's own virtio driver */
	if (!k->no_test_vdev) {
		offs[6] = off;
		type = AMPSOC_RSC_VDEV;
		put(t, &off, &type, 4);
		memset(&vd, 0, sizeof(vd));
		vd.id = FWGEN_TEST_VDEV_ID;
		vd.config_len = 4;
		vd.num_of_vrings = 1;
		put(t, &off, &vd, sizeof(vd));
		memset(&vr, 0, sizeof(vr));
		vr.da = AMPSOC_FW_RSC_ADDR_ANY;
		vr.align = 4096;
		vr.num = FWGEN_TEST_VRING_NUM;
		vr.pa = AMPSOC_FW_RSC_ADDR_ANY;
		put(t, &off, &vr, sizeof(vr));
		put(t, &off, config, 4);
	}

	if (k->vdev_first) {
		uint32_t last = offs[6];

		memmove(&offs[1], &offs[0], 6 * sizeof(offs[0]));
		offs[0] = last;
	}
	switch (k->offset_patch) {
	case 1:
		offs[3] = off + 64;
		break;
	case 2:
		offs[0] = 4;
		break;
	case 3:
		offs[3] = offs[1];
		break;
	}
	if (k->num_is_override)
		hdr.num = k->num_override;
	memcpy(t, &hdr, sizeof(hdr));
	memcpy(t + sizeof(hdr), offs, num * sizeof(offs[0]));
	return k->rsc_truncate ? (size_t)k->rsc_truncate : off;
}

static const char shstrtab[] = "\0.text\0.resource_table\0.shstrtab\0.resource_table";
#define STR_TEXT 1
#define STR_RSC 7
#define STR_SHSTRTAB 23
#define STR_RSC2 33

static size_t build(const struct knobs *k, uint8_t *buf)
{
	const size_t ehsz = k->is64 ? sizeof(struct elf64_hdr) : sizeof(struct elf32_hdr);
	const size_t phsz = k->is64 ? sizeof(struct elf64_phdr) : sizeof(struct elf32_phdr);
	const size_t shsz = k->is64 ? sizeof(struct elf64_shdr) : sizeof(struct elf32_shdr);
	size_t text_off = 0x100, data_off = 0x200, rsc_len, str_off, sh_off;
	unsigned int shnum = k->shnum_extra_rsc ? 5 : 4, i;
	uint64_t seg_off[2], seg_filesz[2];
	uint8_t text[0x100];

	memset(buf, 0, FWGEN_MAX);
	for (i = 0; i < sizeof(text); i++)
		text[i] = (uint8_t)(i * 7 + 1);
	memcpy(text, FWGEN_TEXT_MAGIC, 8);
	memcpy(buf + text_off, text, sizeof(text));
	rsc_len = build_rsc(k, buf + data_off);
	str_off = data_off + 0x400;
	memcpy(buf + str_off, shstrtab, sizeof(shstrtab));
	sh_off = (str_off + sizeof(shstrtab) + 7) & ~(size_t)7;

	seg_off[0] = text_off + k->seg_off_extra;
	seg_off[1] = data_off;
	seg_filesz[0] = sizeof(text) + k->seg_filesz_extra[0];
	seg_filesz[1] = 0x400 + k->seg_filesz_extra[1];

	for (i = 0; i < 2; i++) {
		uint8_t *p = buf + ehsz + i * phsz;

		if (k->is64) {
			struct elf64_phdr ph = {
				.p_type = PT_LOAD, .p_offset = seg_off[i],
				.p_vaddr = k->seg_da[i], .p_paddr = k->seg_da[i],
				.p_filesz = seg_filesz[i], .p_memsz = k->seg_memsz[i],
				.p_flags = i ? PF_R | PF_W : PF_R | PF_X,
				.p_align = 0x1000,
			};
			memcpy(p, &ph, sizeof(ph));
		} else {
			struct elf32_phdr ph = {
				.p_type = PT_LOAD, .p_offset = seg_off[i],
				.p_vaddr = k->seg_da[i], .p_paddr = k->seg_da[i],
				.p_filesz = seg_filesz[i], .p_memsz = k->seg_memsz[i],
				.p_flags = i ? PF_R | PF_W : PF_R | PF_X,
				.p_align = 0x1000,
			};
			memcpy(p, &ph, sizeof(ph));
		}
	}

	for (i = 0; i < shnum; i++) {
		uint32_t name = 0, type = SHT_NULL;
		uint64_t addr = 0, off = 0, size = 0;
		uint8_t *p = buf + sh_off + i * shsz;

		switch (i) {
		case 1:
			name = STR_TEXT;
			type = SHT_PROGBITS;
			addr = k->seg_da[0];
			off = text_off;
			size = sizeof(text);
			break;
		case 2:
			name = STR_RSC;
			type = SHT_PROGBITS;
			addr = k->rsc_addr;
			off = data_off;
			size = rsc_len;
			break;
		case 3:
			name = STR_SHSTRTAB;
			type = SHT_STRTAB;
			off = str_off;
			size = sizeof(shstrtab);
			break;
		case 4:
			name = STR_RSC2;
			type = SHT_PROGBITS;
			addr = k->rsc_addr;
			off = data_off;
			size = rsc_len;
			break;
		}
		if (k->is64) {
			struct elf64_shdr sh = {
				.sh_name = name, .sh_type = type,
				.sh_addr = addr, .sh_offset = off,
				.sh_size = size, .sh_addralign = 4,
			};
			memcpy(p, &sh, sizeof(sh));
		} else {
			struct elf32_shdr sh = {
				.sh_name = name, .sh_type = type,
				.sh_addr = addr, .sh_offset = off,
				.sh_size = size, .sh_addralign = 4,
			};
			memcpy(p, &sh, sizeof(sh));
		}
	}

	memcpy(buf, ELFMAG, SELFMAG);
	buf[EI_CLASS] = k->class;
	buf[EI_DATA] = k->data;
	buf[EI_VERSION] = EV_CURRENT;
	if (k->is64) {
		struct elf64_hdr eh;

		memcpy(&eh, buf, EI_NIDENT);
		eh.e_type = k->type;
		eh.e_machine = k->machine;
		eh.e_version = EV_CURRENT;
		eh.e_entry = k->entry;
		eh.e_phoff = ehsz;
		eh.e_shoff = sh_off;
		eh.e_flags = 0;
		eh.e_ehsize = ehsz;
		eh.e_phentsize = phsz + k->phentsize_delta;
		eh.e_phnum = k->phnum;
		eh.e_shentsize = shsz;
		eh.e_shnum = shnum;
		eh.e_shstrndx = k->shstrndx_bad ? 40 : 3;
		memcpy(buf, &eh, sizeof(eh));
	} else {
		struct elf32_hdr eh;

		memcpy(&eh, buf, EI_NIDENT);
		eh.e_type = k->type;
		eh.e_machine = k->machine;
		eh.e_version = EV_CURRENT;
		eh.e_entry = k->entry;
		eh.e_phoff = ehsz;
		eh.e_shoff = sh_off;
		eh.e_flags = 0;
		eh.e_ehsize = ehsz;
		eh.e_phentsize = phsz + k->phentsize_delta;
		eh.e_phnum = k->phnum;
		eh.e_shentsize = shsz;
		eh.e_shnum = shnum;
		eh.e_shstrndx = k->shstrndx_bad ? 40 : 3;
		memcpy(buf, &eh, sizeof(eh));
	}
	return sh_off + shnum * shsz;
}

/**
 * fwgen_build() - build one test image
 * @c: which image
 * @buf: FWGEN_MAX bytes
 *
 * Return: the image size.
 */
size_t fwgen_build(enum fwgen_case c, uint8_t *buf)
{
	struct knobs k;
	size_t n;

	knobs_default(&k);
	switch (c) {
	case FWGEN_GOOD64:
		break;
	case FWGEN_VDEV_FIRST:
		k.vdev_first = 1;
		break;
	case FWGEN_PORTABLE:
		k.no_test_vdev = 1;
		break;
	case FWGEN_GOOD32:
	case FWGEN_BAD_wrong_class:
		k.is64 = 0;
		k.class = ELFCLASS32;
		k.machine = EM_ARM;
		break;
	case FWGEN_BAD_not_elf:
		strcpy((char *)buf, "This is not an ELF file.\n");
		return strlen((char *)buf);
	case FWGEN_BAD_truncated_header:
		build(&k, buf);
		return 40;
	case FWGEN_BAD_bad_class:
		k.class = 3;
		break;
	case FWGEN_BAD_wrong_machine:
		k.machine = EM_ARM;
		break;
	case FWGEN_BAD_big_endian:
		k.data = ELFDATA2MSB;
		break;
	case FWGEN_BAD_not_executable:
		k.type = ET_DYN;
		break;
	case FWGEN_BAD_no_program_headers:
		k.phnum = 0;
		break;
	case FWGEN_BAD_phentsize:
		k.phentsize_delta = 8;
		break;
	case FWGEN_BAD_phdrs_truncated:
		n = build(&k, buf);
		/* e_phoff near the end of the file */
		((struct elf64_hdr *)buf)->e_phoff = n - 16;
		return n;
	case FWGEN_BAD_segment_truncated:
		k.seg_filesz_extra[0] = 0x10000;
		k.seg_memsz[0] = 0x20000;
		k.seg_da[1] = FWGEN_TEXT_DA + 0x20000;
		k.rsc_addr = k.seg_da[1];
		break;
	case FWGEN_BAD_filesz_over_memsz:
		k.seg_filesz_extra[1] = 0x100;
		k.seg_memsz[1] = 0x480;
		break;
	case FWGEN_BAD_segment_outside_memory:
		k.seg_da[0] = 0x30000000;
		k.entry = 0x30000000;
		break;
	case FWGEN_BAD_segments_overlap:
		k.seg_da[1] = FWGEN_TEXT_DA + 0x800;
		k.rsc_addr = k.seg_da[1];
		break;
	case FWGEN_BAD_segment_wraps:
		k.seg_da[0] = 0xfffffffffffff000ull;
		k.seg_memsz[0] = 0x2000;
		break;
	case FWGEN_BAD_entry_outside:
		k.entry = FWGEN_TEXT_DA + 0x4000;
		break;
	case FWGEN_BAD_shdrs_truncated:
		n = build(&k, buf);
		((struct elf64_hdr *)buf)->e_shoff = n - 64;
		return n;
	case FWGEN_BAD_shstrndx:
		k.shstrndx_bad = 1;
		break;
	case FWGEN_BAD_two_rsc_tables:
		k.shnum_extra_rsc = 1;
		break;
	case FWGEN_BAD_rsc_section_unloaded:
		k.rsc_addr = FWGEN_DATA_DA + 0x10000;
		break;
	case FWGEN_BAD_rsc_truncated:
		k.rsc_truncate = 12;
		break;
	case FWGEN_BAD_rsc_section_huge:
		/* claims 16 MiB; the size is refused before anything else */
		k.rsc_truncate = 16 << 20;
		break;
	case FWGEN_BAD_rsc_version:
		k.ver = 2;
		break;
	case FWGEN_BAD_rsc_num_huge:
		k.num_is_override = 1;
		k.num_override = 1000000;
		break;
	case FWGEN_BAD_rsc_offset_outside:
		k.offset_patch = 1;
		break;
	case FWGEN_BAD_rsc_offset_in_header:
		k.offset_patch = 2;
		break;
	case FWGEN_BAD_rsc_entries_overlap:
		k.offset_patch = 3;
		break;
	case FWGEN_BAD_rsc_unknown_type:
		k.unknown_type = 77;
		break;
	case FWGEN_BAD_rsc_carveout_empty:
		k.co_heap_len = 0;
		break;
	case FWGEN_BAD_rsc_carveout_huge:
		k.co_heap_len = 0x10000000;
		break;
	case FWGEN_BAD_rsc_carveout_outside:
		k.co_text_da = 0x40000000;
		break;
	case FWGEN_BAD_rsc_carveouts_overlap:
		k.co_heap_da = FWGEN_TEXT_DA + 0x1000;
		break;
	case FWGEN_BAD_rsc_trace_outside:
		k.trace_da = 0x50000000;
		break;
	case FWGEN_BAD_rsc_vdev_zero_vrings:
		k.vdev_nvrings = 0;
		break;
	case FWGEN_BAD_rsc_vdev_many_vrings:
		k.vdev_nvrings = 200;
		break;
	case FWGEN_BAD_rsc_vring_num_odd:
		k.vring_num = 3;
		break;
	case FWGEN_BAD_rsc_vring_num_huge:
		k.vring_num = 65536;
		break;
	case FWGEN_BAD_rsc_vring_align:
		k.vring_align = 3000;
		break;
	case FWGEN_BAD_rsc_vdev_config_huge:
		k.config_len = 0x10000000;
		break;
	case FWGEN_BAD_rsc_vdev_reserved:
		k.vdev_reserved = 1;
		break;
	case FWGEN_BAD_rsc_vring_outside:
		k.vring0_da = 0x60000000;
		break;
	case FWGEN_BAD_rsc_vendor_refused:
		k.vendor_type = FWGEN_VENDOR_REFUSED;
		break;
	case FWGEN_BAD_rsc_devmem:
		k.devmem = 1;
		break;
	case FWGEN_NUM_CASES:
		return 0;
	}
	return build(&k, buf);
}
