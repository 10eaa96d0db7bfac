/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel names remoteproc_fw.c uses, for building it on the host
 * (unit tests and libFuzzer). Little-endian hosts only, like the firmware.
 */
#ifndef _AMPSOC_RPROC_FUZZ_SHIM_H
#define _AMPSOC_RPROC_FUZZ_SHIM_H

#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define __packed __attribute__((packed))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

/* The ELF headers under the kernel's struct names (glibc has typedefs). */
struct elf32_hdr {
	unsigned char e_ident[EI_NIDENT];
	u16 e_type, e_machine;
	u32 e_version, e_entry, e_phoff, e_shoff, e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_hdr {
	unsigned char e_ident[EI_NIDENT];
	u16 e_type, e_machine;
	u32 e_version;
	u64 e_entry, e_phoff, e_shoff;
	u32 e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf32_phdr {
	u32 p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags,
	    p_align;
};

struct elf64_phdr {
	u32 p_type, p_flags;
	u64 p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

struct elf32_shdr {
	u32 sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size, sh_link,
	    sh_info, sh_addralign, sh_entsize;
};

struct elf64_shdr {
	u32 sh_name, sh_type;
	u64 sh_flags, sh_addr, sh_offset, sh_size;
	u32 sh_link, sh_info;
	u64 sh_addralign, sh_entsize;
};

static inline __printf(3, 4) int scnprintf(char *buf, size_t size,
					   const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)size - 1 : n;
}

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *), void *swap)
{
	qsort(base, num, size, cmp);
}

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

#endif /* _AMPSOC_RPROC_FUZZ_SHIM_H */
