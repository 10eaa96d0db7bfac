// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-core: the RV32IMAC core (machine mode, a SiFive E31 hart).
 *
 * Unicorn executes the instructions, CSR accesses and mret, but takes no
 * trap itself: it reports exceptions through its interrupt hook or stops.
 * This file does what the hart does on a trap (mepc, mcause, mtval,
 * mstatus.MPIE/MIE/MPP, jump through mtvec, vectored mode for interrupts)
 * and plays the PLIC that turns the core peripheral's lines into the
 * machine external interrupt. docs/cores.md lists what is modelled.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>

#include "emu.h"

#define MSTATUS_MIE	0x8u
#define MSTATUS_MPIE	0x80u
#define MSTATUS_MPP	(3u << 11)
#define MIE_MEIE	0x800u
#define MCAUSE_IRQ	0x80000000u
#define IRQ_M_EXT	11

/* RISC-V exception causes */
#define CAUSE_FETCH_MISALIGNED	0
#define CAUSE_FETCH_ACCESS	1
#define CAUSE_ILLEGAL		2
#define CAUSE_BREAKPOINT	3
#define CAUSE_LOAD_MISALIGNED	4
#define CAUSE_LOAD_ACCESS	5
#define CAUSE_STORE_MISALIGNED	6
#define CAUSE_STORE_ACCESS	7
#define CAUSE_ECALL_U		8
#define CAUSE_ECALL_M		11

#define PLIC_SRC_MASK	(((1u << AMPSOC_IRQ_COUNT) - 1) << 1)

static struct {
	uint8_t prio[AMPSOC_IRQ_COUNT + 1];	/* by source, 0 unused */
	uint32_t pending;			/* by source */
	uint32_t enable;
	uint32_t threshold;
	uint32_t claimed;			/* claimed, not completed */
	uint32_t fault_cause;			/* mcause of emu.handled */
} p;

static const struct emu_gdb_reg rv_cpu[] = {
	GDB_REG_T("zero", "int"), GDB_REG_T("ra", "code_ptr"),
	GDB_REG_T("sp", "data_ptr"), GDB_REG_T("gp", "data_ptr"),
	GDB_REG_T("tp", "data_ptr"), GDB_REG_T("t0", "int"),
	GDB_REG_T("t1", "int"), GDB_REG_T("t2", "int"),
	GDB_REG_T("fp", "data_ptr"), GDB_REG_T("s1", "int"),
	GDB_REG_T("a0", "int"), GDB_REG_T("a1", "int"), GDB_REG_T("a2", "int"),
	GDB_REG_T("a3", "int"), GDB_REG_T("a4", "int"), GDB_REG_T("a5", "int"),
	GDB_REG_T("a6", "int"), GDB_REG_T("a7", "int"), GDB_REG_T("s2", "int"),
	GDB_REG_T("s3", "int"), GDB_REG_T("s4", "int"), GDB_REG_T("s5", "int"),
	GDB_REG_T("s6", "int"), GDB_REG_T("s7", "int"), GDB_REG_T("s8", "int"),
	GDB_REG_T("s9", "int"), GDB_REG_T("s10", "int"),
	GDB_REG_T("s11", "int"), GDB_REG_T("t3", "int"),
	GDB_REG_T("t4", "int"), GDB_REG_T("t5", "int"), GDB_REG_T("t6", "int"),
	GDB_REG_T("pc", "code_ptr"),
};

/* In the order of csr[] below. */
static const struct emu_gdb_reg rv_csr[] = {
	GDB_SYS("mstatus"), GDB_SYS("mie"), GDB_SYS("mtvec"),
	GDB_SYS("mscratch"), GDB_SYS("mepc"), GDB_SYS("mcause"),
	GDB_SYS("mtval"), GDB_SYS("mip"),
};

static const struct emu_gdb_feature gdb_features[] = {
	{ "org.gnu.gdb.riscv.cpu", rv_cpu, ARRAY_SIZE(rv_cpu) },
	{ "org.gnu.gdb.riscv.csr", rv_csr, ARRAY_SIZE(rv_csr) },
};

static const int csr[] = {
	UC_RISCV_REG_MSTATUS, UC_RISCV_REG_MIE, UC_RISCV_REG_MTVEC,
	UC_RISCV_REG_MSCRATCH, UC_RISCV_REG_MEPC, UC_RISCV_REG_MCAUSE,
	UC_RISCV_REG_MTVAL, UC_RISCV_REG_MIP,
};

static uint32_t rv_get_reg(unsigned int n)
{
	if (n < 32)
		return n ? emu_reg(UC_RISCV_REG_X0 + n) : 0;
	if (n == 32)
		return emu_reg(UC_RISCV_REG_PC);
	if (n < 33 + ARRAY_SIZE(csr))
		return emu_reg(csr[n - 33]);
	return 0;
}

static void rv_set_reg(unsigned int n, uint32_t v)
{
	if (n == 0)
		return;
	if (n < 32)
		emu_set_reg(UC_RISCV_REG_X0 + n, v);
	else if (n == 32)
		emu_set_reg(UC_RISCV_REG_PC, v);
	else if (n < 33 + ARRAY_SIZE(csr))
		emu_set_reg(csr[n - 33], v);
	emu_attention(ATTN_IRQ);
}

/* ---- the PLIC ------------------------------------------------------------ */

static void latch(void)
{
	uint32_t lines = emu_lines();

	/* The gateway: a level source pends again only once completed. */
	p.pending |= (lines << 1) & ~p.claimed;
}

/* The source a claim would return; 0 if none. */
static unsigned int best_source(void)
{
	unsigned int src, best = 0, bp = 0;

	for (src = 1; src <= AMPSOC_IRQ_COUNT; src++)
		if (((p.pending & p.enable) >> src) & 1 && p.prio[src] > p.threshold &&
		    p.prio[src] > bp) {
			bp = p.prio[src];
			best = src;
		}
	return best;
}

static bool meip(void)
{
	latch();
	return best_source() != 0;
}

static uint32_t claim(void)
{
	unsigned int src;

	latch();
	src = best_source();
	if (src) {
		p.pending &= ~(1u << src);
		p.claimed |= 1u << src;
	}
	return src;
}

static uint64_t plic_read(uc_engine *uc, uint64_t off, unsigned int size, void *opaque)
{
	if (size != 4 || (off & 3)) {
		emu_bus_error(AMPSOC_CORE_PLIC_BASE + off, false);
		return 0;
	}
	if (off < 0x1000) {
		unsigned int src = off / 4;

		return src >= 1 && src <= AMPSOC_IRQ_COUNT ? p.prio[src] : 0;
	}
	switch (off) {
	case AMPSOC_PLIC_PENDING:
		latch();
		return p.pending;
	case AMPSOC_PLIC_ENABLE:
		return p.enable;
	case AMPSOC_PLIC_THRESHOLD:
		return p.threshold;
	case AMPSOC_PLIC_CLAIM:
		emu_attention(ATTN_IRQ);
		return claim();
	}
	return 0;
}

static void plic_write(uc_engine *uc, uint64_t off, unsigned int size, uint64_t v,
		       void *opaque)
{
	if (size != 4 || (off & 3)) {
		emu_bus_error(AMPSOC_CORE_PLIC_BASE + off, true);
		return;
	}
	if (off < 0x1000) {
		unsigned int src = off / 4;

		if (src >= 1 && src <= AMPSOC_IRQ_COUNT)
			p.prio[src] = v & AMPSOC_PLIC_PRIO_MAX;
	} else if (off == AMPSOC_PLIC_ENABLE) {
		p.enable = v & PLIC_SRC_MASK;
	} else if (off == AMPSOC_PLIC_THRESHOLD) {
		p.threshold = v & AMPSOC_PLIC_PRIO_MAX;
	} else if (off == AMPSOC_PLIC_CLAIM) {
		if (v >= 1 && v <= AMPSOC_IRQ_COUNT)
			p.claimed &= ~(1u << v);
	} else {
		return;
	}
	emu_attention(ATTN_IRQ);
}

/* The context registers (threshold, claim) live in a page of their own. */
static uint64_t plic_ctx_read(uc_engine *uc, uint64_t off, unsigned int size, void *opaque)
{
	return plic_read(uc, AMPSOC_PLIC_THRESHOLD + off, size, opaque);
}

static void plic_ctx_write(uc_engine *uc, uint64_t off, unsigned int size, uint64_t v,
			   void *opaque)
{
	plic_write(uc, AMPSOC_PLIC_THRESHOLD + off, size, v, opaque);
}

/* ---- traps --------------------------------------------------------------- */

/* Inside a trap handler: a trap set MPP to machine mode, mret lowers it. */
static bool in_trap(void)
{
	return (emu_reg(UC_RISCV_REG_MSTATUS) & MSTATUS_MPP) == MSTATUS_MPP;
}

static void trap(uint32_t cause, uint32_t epc, uint32_t tval)
{
	uint32_t st = emu_reg(UC_RISCV_REG_MSTATUS), tvec = emu_reg(UC_RISCV_REG_MTVEC);
	uint32_t pc = tvec & ~3u;

	st = (st & ~(MSTATUS_MPIE | MSTATUS_MIE | MSTATUS_MPP)) |
	     (st & MSTATUS_MIE ? MSTATUS_MPIE : 0) | MSTATUS_MPP;
	emu_set_reg(UC_RISCV_REG_MEPC, epc);
	emu_set_reg(UC_RISCV_REG_MCAUSE, cause);
	emu_set_reg(UC_RISCV_REG_MTVAL, tval);
	emu_set_reg(UC_RISCV_REG_MSTATUS, st);
	if ((tvec & 3) == 1 && (cause & MCAUSE_IRQ))
		pc += 4 * (cause & ~MCAUSE_IRQ);
	emu_set_reg(UC_RISCV_REG_PC, pc);
	emu.sleeping = false;
}

static bool irq_enabled(void)
{
	return (emu_reg(UC_RISCV_REG_MSTATUS) & MSTATUS_MIE) &&
	       (emu_reg(UC_RISCV_REG_MIE) & MIE_MEIE);
}

static void rv_deliver_irqs(void)
{
	if (meip() && irq_enabled())
		trap(MCAUSE_IRQ | IRQ_M_EXT, emu_reg(UC_RISCV_REG_PC), 0);
}

static bool rv_wake_pending(void)
{
	return meip() && (emu_reg(UC_RISCV_REG_MIE) & MIE_MEIE);
}

static bool rv_masked_pending(void)
{
	return meip() && !irq_enabled();
}

static bool rv_fault_active(void)
{
	return in_trap() && emu_reg(UC_RISCV_REG_MCAUSE) == p.fault_cause;
}

static uint32_t cause_of(const struct emu_fault *f)
{
	bool fetch = f->access == AMPSOC_CORE_ACCESS_FETCH;
	bool store = f->access == AMPSOC_CORE_ACCESS_WRITE;

	switch (f->reason) {
	case AMPSOC_CORE_FAULT_MISALIGNED:
		return fetch ? CAUSE_FETCH_MISALIGNED :
		       store ? CAUSE_STORE_MISALIGNED : CAUSE_LOAD_MISALIGNED;
	case AMPSOC_CORE_FAULT_ILLEGAL:
		return CAUSE_ILLEGAL;
	case AMPSOC_CORE_FAULT_BREAKPOINT:
		return CAUSE_BREAKPOINT;
	default:
		return fetch ? CAUSE_FETCH_ACCESS : store ? CAUSE_STORE_ACCESS : CAUSE_LOAD_ACCESS;
	}
}

/*
 * A synchronous exception: to the firmware's trap handler (mtvec) unless it
 * has none (mtvec 0: the core ends with the fault) or is inside one already
 * (the trap would overwrite mepc and mcause of the one it handles: the core
 * ends with a double fault).
 */
static void rv_trap_sync(const struct emu_fault *f, uint32_t cause)
{
	uint32_t tval = 0;

	emu.fault = *f;
	if (in_trap()) {
		struct emu_fault dbl = *f;

		dbl.reason = AMPSOC_CORE_FAULT_DOUBLE;
		emu_fatal(&dbl);
	}
	if (!(emu_reg(UC_RISCV_REG_MTVEC) & ~3u))
		emu_fatal(f);
	if (f->reason == AMPSOC_CORE_FAULT_BREAKPOINT)
		tval = f->pc;
	else if (f->reason != AMPSOC_CORE_FAULT_ILLEGAL)
		tval = f->addr;
	emu.handled = *f;
	emu_capture_regs(&emu.handled);
	trap(cause, f->pc, tval);
	emu.in_fault_handler = true;
	p.fault_cause = cause;
}

/* An AMO (but LR) is a store as far as faults go: it needs write access. */
static bool is_amo_store(uint32_t pc)
{
	uint16_t lo, hi;
	uint32_t insn;

	if (!emu_read16(pc, &lo) || !emu_read16(pc + 2, &hi))
		return false;
	insn = lo | (uint32_t)hi << 16;
	return (insn & 0x7f) == 0x2f && (insn >> 27) != 2;
}

static void rv_fault(const struct emu_fault *f)
{
	struct emu_fault g = *f;

	if (f->reason == AMPSOC_CORE_FAULT_DOUBLE || f->reason == AMPSOC_CORE_FAULT_WATCHDOG)
		emu_fatal(f);
	if (g.access == AMPSOC_CORE_ACCESS_READ && is_amo_store(g.pc))
		g.access = AMPSOC_CORE_ACCESS_WRITE;
	/*
	 * Every RV32 fault is precise: a store that missed had no other
	 * effect, and Unicorn's own view of the PC (past the instruction)
	 * goes back to the instruction that faulted.
	 */
	g.precise = true;
	emu_set_reg(UC_RISCV_REG_PC, g.pc);
	rv_trap_sync(&g, cause_of(&g));
}

static void rv_intr(uint32_t intno)
{
	struct emu_fault f = { .pc = emu.pc, .precise = true };
	uint32_t insn = 0;
	uint16_t lo, hi;

	switch (intno) {
	case CAUSE_ECALL_U ... CAUSE_ECALL_M:
		/*
		 * Not a fault, but fatal without a handler. QEMU raises every
		 * ECALL as the user one and picks the privilege's cause when it
		 * takes the trap: here the hart is always in machine mode.
		 */
		f.reason = AMPSOC_CORE_FAULT_ILLEGAL;
		emu_set_reg(UC_RISCV_REG_PC, f.pc);
		rv_trap_sync(&f, CAUSE_ECALL_M);
		return;
	case CAUSE_LOAD_MISALIGNED:
	case CAUSE_STORE_MISALIGNED:
		/* Only the atomics check alignment; their address is rs1. */
		f.reason = AMPSOC_CORE_FAULT_MISALIGNED;
		if (emu_read16(f.pc, &lo) && emu_read16(f.pc + 2, &hi)) {
			insn = lo | (uint32_t)hi << 16;
			f.addr = rv_get_reg((insn >> 15) & 31);
		}
		/* LR is a load; the other AMOs (and SC) are stores: rv_fault() */
		f.access = AMPSOC_CORE_ACCESS_READ;
		break;
	case CAUSE_FETCH_MISALIGNED:
		f.reason = AMPSOC_CORE_FAULT_MISALIGNED;
		f.access = AMPSOC_CORE_ACCESS_FETCH;
		f.pc = emu_reg(UC_RISCV_REG_PC) - 4;
		f.addr = f.pc;
		break;
	case CAUSE_FETCH_ACCESS:
	case CAUSE_LOAD_ACCESS:
	case CAUSE_STORE_ACCESS:
		f.reason = AMPSOC_CORE_FAULT_UNMAPPED;
		f.access = intno == CAUSE_FETCH_ACCESS ? AMPSOC_CORE_ACCESS_FETCH :
			   intno == CAUSE_LOAD_ACCESS ? AMPSOC_CORE_ACCESS_READ :
							AMPSOC_CORE_ACCESS_WRITE;
		break;
	default:
		f.reason = AMPSOC_CORE_FAULT_ILLEGAL;
	}
	rv_fault(&f);
}

static bool is_ebreak(uint32_t pc)
{
	uint16_t lo, hi;

	if (!emu_read16(pc, &lo))
		return false;
	if (lo == 0x9002)	/* c.ebreak */
		return true;
	return lo == 0x0073 && emu_read16(pc + 2, &hi) && hi == 0x0010;
}

static void rv_error(uc_err err)
{
	struct emu_fault f;
	uint32_t pc = emu_reg(UC_RISCV_REG_PC);

	if (emu_mem_fault(err, &f)) {
		rv_fault(&f);
		return;
	}
	if (err == UC_ERR_INSN_INVALID || err == UC_ERR_EXCEPTION) {
		f = (struct emu_fault){ .pc = pc, .precise = true };
		if (is_ebreak(pc)) {
			if (gdb_conn() >= 0) {
				emu_halt(SIGTRAP);
				return;
			}
			f.reason = AMPSOC_CORE_FAULT_BREAKPOINT;
		} else {
			f.reason = AMPSOC_CORE_FAULT_ILLEGAL;
		}
		rv_fault(&f);
		return;
	}
	die(EXIT_SETUP, "the RV32 emulation failed at %#x: %s", pc, uc_strerror(err));
}

static bool rv_after_wfi(uint64_t pc)
{
	uint32_t insn;

	return emu_read32(pc - 4, &insn) && insn == 0x10500073;
}

static uint64_t rv_resume_pc(void)
{
	return emu_reg(UC_RISCV_REG_PC);
}

static void rv_init(uint64_t entry)
{
	emu_map_mmio(AMPSOC_CORE_PLIC_BASE, 0x3000, plic_read, plic_write);
	emu_map_mmio(AMPSOC_CORE_PLIC_BASE + AMPSOC_PLIC_THRESHOLD, 0x1000,
		     plic_ctx_read, plic_ctx_write);
	memset(&p, 0, sizeof(p));
	emu_set_reg(UC_RISCV_REG_MSTATUS, 0);
	emu_set_reg(UC_RISCV_REG_MTVEC, 0);
	emu_set_reg(UC_RISCV_REG_PC, entry);
}

static const uint64_t rv_reserved[][2] = {
	{ AMPSOC_CORE_PLIC_BASE, AMPSOC_CORE_MMIO_BASE_RV32 + AMPSOC_CORE_MMIO_SIZE },
};

const struct emu_isa emu_isa_rv32 = {
	.name = "rv32imac",
	.isa = AMPSOC_CORE_ISA_RV32IMAC,
	.arch = UC_ARCH_RISCV,
	.mode = UC_MODE_RISCV32,
	.cpu_model = UC_CPU_RISCV32_SIFIVE_E31,
	.mmio_base = AMPSOC_CORE_MMIO_BASE_RV32,
	.reserved = rv_reserved,
	.nr_reserved = ARRAY_SIZE(rv_reserved),
	.gdb_arch = "riscv:rv32",
	.gdb_features = gdb_features,
	.nr_gdb_features = ARRAY_SIZE(gdb_features),
	.nr_regs = 33 + ARRAY_SIZE(csr),
	.nr_g_regs = 33,
	.pc_reg = 32,
	.stop_addr = 0xffffffffull,
	.init = rv_init,
	.get_reg = rv_get_reg,
	.set_reg = rv_set_reg,
	.deliver_irqs = rv_deliver_irqs,
	.wake_pending = rv_wake_pending,
	.masked_pending = rv_masked_pending,
	.fault_active = rv_fault_active,
	.fault = rv_fault,
	.intr = rv_intr,
	.error = rv_error,
	.after_wfi = rv_after_wfi,
	.resume_pc = rv_resume_pc,
};
