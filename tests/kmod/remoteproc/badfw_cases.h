/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Malformed firmware images: built on the host by
 * tests/fuzz/remoteproc/rproc_mkfw.c as /lib/firmware/ampsoc-rproc-bad-<name>.elf,
 * checked by the host parser test (stage PARSE) and booted on the fake
 * remote processor by ampsoc_rproc_test (every stage).
 *
 * BADFW(name, errno, stage): stage PARSE means the shared parser rejects
 * the image; CORE means it is well formed but does not fit the processor
 * (its memory map, ELF class, or platform hooks). The errno is the one a
 * processor with declared memory (ampsoc_rproc_add_mem()) gives; the
 * kernel test lists where one whose driver registers named carveouts
 * (mainline's way) gives another.
 */
BADFW(not_elf,			ENOEXEC, PARSE)
BADFW(truncated_header,		ENOEXEC, PARSE)
BADFW(bad_class,		ENOEXEC, PARSE)
BADFW(wrong_class,		ENOEXEC, CORE)
BADFW(wrong_machine,		ENOEXEC, CORE)
BADFW(big_endian,		ENOEXEC, PARSE)
BADFW(not_executable,		ENOEXEC, PARSE)
BADFW(no_program_headers,	EINVAL,	 PARSE)
BADFW(phentsize,		EINVAL,	 PARSE)
BADFW(phdrs_truncated,		EINVAL,	 PARSE)
BADFW(segment_truncated,	EINVAL,	 PARSE)
BADFW(filesz_over_memsz,	EINVAL,	 PARSE)
BADFW(segment_outside_memory,	EINVAL,	 CORE)
BADFW(segments_overlap,		EINVAL,	 PARSE)
BADFW(segment_wraps,		EINVAL,	 PARSE)
BADFW(entry_outside,		EINVAL,	 PARSE)
BADFW(shdrs_truncated,		EINVAL,	 PARSE)
BADFW(shstrndx,			EINVAL,	 PARSE)
BADFW(two_rsc_tables,		EINVAL,	 PARSE)
BADFW(rsc_section_unloaded,	EINVAL,	 PARSE)
BADFW(rsc_truncated,		EINVAL,	 PARSE)
BADFW(rsc_section_huge,		E2BIG,	 PARSE)
BADFW(rsc_version,		EINVAL,	 PARSE)
BADFW(rsc_num_huge,		E2BIG,	 PARSE)
BADFW(rsc_offset_outside,	EINVAL,	 PARSE)
BADFW(rsc_offset_in_header,	EINVAL,	 PARSE)
BADFW(rsc_entries_overlap,	EINVAL,	 PARSE)
BADFW(rsc_unknown_type,		EINVAL,	 PARSE)
BADFW(rsc_carveout_empty,	EINVAL,	 PARSE)
BADFW(rsc_carveout_huge,	ENOMEM,	 CORE)
BADFW(rsc_carveout_outside,	ENOMEM,	 CORE)
BADFW(rsc_carveouts_overlap,	EBUSY,	 CORE)
BADFW(rsc_trace_outside,	EINVAL,	 CORE)
BADFW(rsc_vdev_zero_vrings,	EINVAL,	 PARSE)
BADFW(rsc_vdev_many_vrings,	EINVAL,	 PARSE)
BADFW(rsc_vring_num_odd,	EINVAL,	 PARSE)
BADFW(rsc_vring_num_huge,	EINVAL,	 PARSE)
BADFW(rsc_vring_align,		EINVAL,	 PARSE)
BADFW(rsc_vdev_config_huge,	EINVAL,	 PARSE)
BADFW(rsc_vdev_reserved,	EINVAL,	 PARSE)
BADFW(rsc_vring_outside,	ENOMEM,	 CORE)
BADFW(rsc_vendor_refused,	EPERM,	 CORE)
BADFW(rsc_devmem,		EINVAL,	 CORE)
