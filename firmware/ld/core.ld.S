/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linker script template for an ampsoc remote core. The build runs it
 * through the C preprocessor with the core's memory map
 * (firmware/include/amp/core/<core>.h) to get build/firmware/<core>.ld.
 *
 * The image is a static, non-PIE executable linked at the core's device
 * addresses: ELF64 x86-64 for the native cores, ELF32 ARM or RISC-V for
 * the emulated ones (the core header defines AMP_CORE_ISA_*). Code in one
 * PT_LOAD (on ARMv7-M the vector table first, at the code base), data
 * (with the resource table, which Linux writes back into) in another, the
 * trace buffer in a third without file contents.
 */
#if defined(AMP_CORE_ISA_ARMV7M)
OUTPUT_FORMAT("elf32-littlearm")
OUTPUT_ARCH(arm)
#elif defined(AMP_CORE_ISA_RV32)
OUTPUT_FORMAT("elf32-littleriscv")
OUTPUT_ARCH(riscv)
#else
OUTPUT_FORMAT("elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
#endif
ENTRY(_start)

MEMORY
{
	code (rx)  : ORIGIN = AMP_CORE_CODE_BASE, LENGTH = AMP_CORE_CODE_SIZE
	data (rw)  : ORIGIN = AMP_CORE_DATA_BASE, LENGTH = AMP_CORE_DATA_SIZE - AMP_CORE_TRACE_SIZE
	trace (rw) : ORIGIN = AMP_CORE_TRACE_DA, LENGTH = AMP_CORE_TRACE_SIZE
}

PHDRS
{
	text PT_LOAD FLAGS(5);
	data PT_LOAD FLAGS(6);
	trace PT_LOAD FLAGS(6);
}

SECTIONS
{
	.text : {
		KEEP(*(.vectors))
		KEEP(*(.text.start))
		*(.text .text.*)
		*(.glue_7 .glue_7t .vfp11_veneer .v4_bx)
	} > code :text
	.rodata : ALIGN(16) {
		*(.rodata .rodata.* .srodata .srodata.*)
	} > code :text

	/* A static non-PIC image needs none of these: asserted empty below. */
	.plt : { *(.plt .iplt) } > code :text
	.rela.dyn : { *(.rela.* .rel.*) } > code :text

	.resource_table : ALIGN(8) {
		__rsc_start = .;
		KEEP(*(.resource_table))
		__rsc_end = .;
	} > data :data
	.data : ALIGN(16) {
		*(.data .data.* .sdata .sdata.*)
	} > data :data
	.got : { *(.got .got.plt .igot.plt) } > data :data
	.bss (NOLOAD) : ALIGN(16) {
		__bss_start = .;
		*(.bss .bss.* .sbss .sbss.* COMMON)
		. = ALIGN(16);
		__bss_end = .;
	} > data :data
	.stack (NOLOAD) : ALIGN(16) {
		__stack_bottom = .;
		. += AMP_CORE_STACK_SIZE;
		__stack_top = .;
	} > data :data

	.trace (NOLOAD) : {
		__trace_start = .;
		. += AMP_CORE_TRACE_SIZE;
		__trace_end = .;
	} > trace :trace

	/* DWARF, kept for debugging the firmware on the host. */
	.debug_info 0 : { *(.debug_info) }
	.debug_abbrev 0 : { *(.debug_abbrev) }
	.debug_aranges 0 : { *(.debug_aranges) }
	.debug_line 0 : { *(.debug_line) }
	.debug_line_str 0 : { *(.debug_line_str) }
	.debug_str 0 : { *(.debug_str) }
	.debug_loc 0 : { *(.debug_loc) }
	.debug_loclists 0 : { *(.debug_loclists) }
	.debug_ranges 0 : { *(.debug_ranges) }
	.debug_rnglists 0 : { *(.debug_rnglists) }
	.debug_frame 0 : { *(.debug_frame) }
	.ARM.attributes 0 : { *(.ARM.attributes) }
	.riscv.attributes 0 : { *(.riscv.attributes) }

	/DISCARD/ : {
		*(.note.* .comment .eh_frame* .interp .dynamic .dynsym .dynstr)
		*(.ARM.exidx* .ARM.extab*)
	}
}

ASSERT(SIZEOF(.resource_table) > 0, "firmware has no resource table (AMP_RESOURCE_TABLE)")
ASSERT(__trace_start == AMP_CORE_TRACE_DA, "trace buffer is not at AMP_CORE_TRACE_DA")
ASSERT(SIZEOF(.plt) == 0 && SIZEOF(.rela.dyn) == 0 && SIZEOF(.got) == 0,
       "firmware needs dynamic linking: build it static and non-PIC")
