/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc-core's emulation engine: what the common part (emu.c), the
 * instruction sets (emu-armv7m.c, emu-rv32.c) and the gdb server
 * (gdbstub.c) share. docs/cores.md describes the behaviour.
 *
 * One thread (the CPU thread) owns the Unicorn engine: it runs the
 * firmware, serves the memory-mapped registers, delivers interrupts and
 * faults and talks to gdb while the core is halted. A second thread (the
 * I/O thread) only waits: on the guest's doorbell eventfd, on gdb's
 * sockets and on the deadlines of the timers, and raises "attention",
 * which the CPU thread sees before its next instruction.
 */
#ifndef _AMPSOC_CORE_EMU_H
#define _AMPSOC_CORE_EMU_H

#include <stdbool.h>
#include <stdint.h>

#include <unicorn/unicorn.h>

#include <uapi/ampsoc/core_fault.h>
#include <uapi/ampsoc/core_mmio.h>

#include "core.h"

/* Attention bits: why the CPU thread must look up before the next insn. */
#define ATTN_EXT	0x1u	/* the I/O thread saw something */
#define ATTN_IRQ	0x2u	/* interrupt state changed: re-evaluate */
#define ATTN_POLL	0x4u	/* an interrupt waits for the core to unmask */
#define ATTN_STEP	0x8u	/* single step for gdb */
#define ATTN_BREAK	0x10u	/* breakpoints are set */

/* Why uc_emu_start() returned, when the engine asked it to. */
enum emu_stop {
	STOP_NONE,		/* Unicorn's own reason: WFI, or an error */
	STOP_ATTN,		/* attention */
	STOP_STEP,		/* a single step is done */
	STOP_BREAK,		/* breakpoint */
	STOP_FAULT,		/* emu.fault holds a fault to deliver */
	STOP_ARCH,		/* the ISA's hook wants the loop (emu.intno) */
};

/* A fault, before it is delivered to the firmware or ends the core. */
struct emu_fault {
	uint32_t reason;	/* AMPSOC_CORE_FAULT_* */
	uint32_t access;	/* AMPSOC_CORE_ACCESS_* */
	uint64_t addr;
	uint64_t pc;
	bool precise;		/* the core stopped at the faulting instruction */
	unsigned int nr_regs;	/* @regs captured when it happened (0: not) */
	uint32_t regs[AMPSOC_CORE_FAULT_MAX_REGS];
};

/* gdb's target description: features of 32-bit registers, numbered in order. */
struct emu_gdb_reg {
	const char *name;
	const char *type;	/* NULL: gdb's default */
	const char *group;	/* NULL: gdb's default */
};

#define GDB_REG(name)		{ name, NULL, NULL }
#define GDB_REG_T(name, type)	{ name, type, NULL }
#define GDB_SYS(name)		{ name, NULL, "system" }

struct emu_gdb_feature {
	const char *name;
	const struct emu_gdb_reg *regs;
	unsigned int nr_regs;
};

/* An instruction set's half of the engine. */
struct emu_isa {
	const char *name;
	unsigned int isa;			/* AMPSOC_CORE_ISA_* */
	uc_arch arch;
	uc_mode mode;
	int cpu_model;
	uint32_t mmio_base;			/* the core peripheral */
	/* [lo, hi) ranges no window may overlap (the ISA's devices) */
	const uint64_t (*reserved)[2];
	unsigned int nr_reserved;
	const char *gdb_arch;			/* gdb's architecture name */
	const struct emu_gdb_feature *gdb_features;
	unsigned int nr_gdb_features;
	unsigned int nr_regs;			/* registers gdb knows (p/P) */
	unsigned int nr_g_regs;			/* in 'g' and the fault record */
	unsigned int pc_reg;			/* the PC's number */
	uint64_t stop_addr;			/* an address the PC never takes */

	/* Map the ISA's devices and reset the CPU to start at @entry. */
	void (*init)(uint64_t entry);
	/* Register @n in gdb's numbering. */
	uint32_t (*get_reg)(unsigned int n);
	void (*set_reg)(unsigned int n, uint32_t v);
	/* Take the most urgent interrupt the core accepts now. */
	void (*deliver_irqs)(void);
	/* Is an interrupt pending that would wake WFI? */
	bool (*wake_pending)(void);
	/* Is an interrupt pending that only the core's own masks hold back? */
	bool (*masked_pending)(void);
	/* Is the handler of the fault in emu.handled still running? */
	bool (*fault_active)(void);
	/* Deliver @f to the firmware's handler, or end the core. */
	void (*fault)(const struct emu_fault *f);
	/* Unicorn stopped for a reason the ISA knows (UC_HOOK_INTR, errors). */
	void (*intr)(uint32_t intno);
	/* uc_emu_start() failed with @err: turn it into a fault or a stop. */
	void (*error)(uc_err err);
	/* The earliest deadline of the ISA's timers (0: none). */
	uint64_t (*deadline)(void);
	/* Is the instruction ending at @pc a WFI? */
	bool (*after_wfi)(uint64_t pc);
	/* The address the core resumes at, as uc_emu_start() wants it. */
	uint64_t (*resume_pc)(void);
};

extern const struct emu_isa emu_isa_armv7m, emu_isa_rv32;

/* The engine's state; the CPU thread's unless marked "atomic". */
struct emu {
	uc_engine *uc;
	const struct emu_isa *isa;
	unsigned int attention;		/* atomic: ATTN_* */
	enum emu_stop stop;
	uint32_t intno;			/* for STOP_ARCH */
	uint64_t pc;			/* the instruction being executed */
	bool first_insn;		/* the first since the core resumed */
	bool sleeping;			/* in WFI */
	bool halted;			/* halted by the debugger */
	struct emu_fault fault;		/* STOP_FAULT */
	struct emu_fault handled;	/* the fault a firmware handler has */
	bool in_fault_handler;
	uint64_t bad_addr;		/* from the memory hooks */
	uint64_t bad_pc;
	uint32_t bad_access;
};

extern struct emu emu;

/* ---- emu.c: services for the ISAs and gdb ---- */

uint64_t emu_now(void);
/* Ask the CPU thread to stop before its next instruction. */
void emu_request_stop(enum emu_stop why);
void emu_attention(unsigned int bits);
/* The core peripheral's interrupt lines (AMPSOC_IRQ_*), now. */
uint32_t emu_lines(void);
/* Tell the I/O thread that a deadline moved earlier. */
void emu_kick_io(void);
uint32_t emu_reg(int reg);
void emu_set_reg(int reg, uint32_t v);
bool emu_read32(uint64_t da, uint32_t *v);
bool emu_write32(uint64_t da, uint32_t v);
bool emu_read16(uint64_t da, uint16_t *v);
bool emu_in_ro(uint64_t da);
/* gdb's access to the core's memory (windows only, never devices). */
bool emu_mem_access(uint64_t da, void *buf, uint64_t len, bool write);
/* A fault from a failed uc_emu_start(): memory errors, as the hooks saw them. */
bool emu_mem_fault(uc_err err, struct emu_fault *f);
/* Keep the core's registers now in @f, for its record (a handler runs next). */
void emu_capture_regs(struct emu_fault *f);
/* End the core with @f's reason and signal (its record on --fault-fd). */
__attribute__((noreturn)) void emu_die(const struct emu_fault *f);
/* End the core with SIGABRT, as the firmware's abort(). */
__attribute__((noreturn)) void emu_abort(void);
/* End the core with SIGKILL, as the model's stop (gdb's kill). */
__attribute__((noreturn)) void emu_kill(void);
/* The signal a fault reason ends the core with. */
int emu_fault_signal(uint32_t reason);
/* A fault the firmware could not handle: halt for gdb first, if any. */
__attribute__((noreturn)) void emu_fatal(const struct emu_fault *f);
/* Halt the core for the debugger; @sig is what gdb is told. */
void emu_halt(int sig);
void emu_map_mmio(uint64_t base, uint64_t size, uc_cb_mmio_read_t rd,
		  uc_cb_mmio_write_t wr);
/* A bus error in a device register: fault after the access. */
void emu_bus_error(uint64_t addr, bool write);

/* ---- unicorn-dl.c: the library, loaded by the emulated cores only ---- */

void emu_load_unicorn(void);
uc_err emu_uc_set_cpu_model(uc_engine *uc, int model);
uc_err emu_uc_remove_cache(uc_engine *uc, uint64_t begin, uint64_t end);

/* ---- gdbstub.c ---- */

void gdb_init(void);
/* The gdb connection, or -1. */
int gdb_conn(void);
/* A connection arrived on the listening socket (I/O thread accepted it). */
void gdb_attach(int fd);
/* Serve gdb while the core is halted; returns when it resumes. */
void gdb_serve(void);
/* Input arrived while the core runs (an interrupt request, or EOF). */
void gdb_input(void);
/* Tell gdb the core stopped with @sig. */
void gdb_stopped(int sig);
/* Breakpoints: is one set at @pc? Are there any? */
bool gdb_breakpoint_at(uint64_t pc);
bool gdb_has_breakpoints(void);
bool gdb_stepping(void);

#endif /* _AMPSOC_CORE_EMU_H */
