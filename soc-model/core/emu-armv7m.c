// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-core: the ARMv7-M core (a Cortex-M4 without FPU).
 *
 * Unicorn runs the instructions but has no NVIC and never takes an
 * exception itself: it reports SVC, BKPT and exception returns through its
 * interrupt hook and stops on faults. This file is the rest of the
 * processor: the System Control Space (NVIC, SCB, SysTick), exception
 * entry with the hardware stack frame, EXC_RETURN, priorities with
 * BASEPRI/PRIMASK/FAULTMASK, and the fault model (escalation to HardFault,
 * lockup). docs/cores.md lists what is and is not modelled.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>

#include "emu.h"

#define NR_EXC		48	/* 16 system exceptions, 32 interrupts */
#define EXC_NMI		2
#define EXC_HARD	3
#define EXC_MEM		4
#define EXC_BUS		5
#define EXC_USAGE	6
#define EXC_SVC		11
#define EXC_PENDSV	14
#define EXC_SYSTICK	15
#define EXC_IRQ0	16

#define CONTROL_NPRIV	0x1u
#define CONTROL_SPSEL	0x2u
#define XPSR_IPSR	0x1ffu
#define XPSR_ALIGN	0x200u
#define XPSR_T		0x1000000u
#define XPSR_IT		0x0600fc00u

#define PRIO_MASK	(0xffu << (8 - AMPSOC_NVIC_PRIO_BITS) & 0xffu)
#define NO_PRIO		256	/* execution priority of thread mode */

/* CFSR and HFSR bits */
#define MM_IACCVIOL	0x1u
#define MM_DACCVIOL	0x2u
#define MM_MMARVALID	0x80u
#define BF_IBUSERR	0x100u
#define BF_PRECISERR	0x200u
#define BF_IMPRECISERR	0x400u
#define BF_BFARVALID	0x8000u
#define UF_UNDEFINSTR	0x10000u
#define UF_INVSTATE	0x20000u
#define UF_INVPC	0x40000u
#define UF_NOCP		0x80000u
#define UF_UNALIGNED	0x1000000u
#define HF_FORCED	0x40000000u
#define HF_DEBUGEVT	0x80000000u

/* QEMU's exception numbers, as Unicorn's interrupt hook reports them */
#define QEMU_EXCP_UDEF		1
#define QEMU_EXCP_SWI		2
#define QEMU_EXCP_PREFETCH	3
#define QEMU_EXCP_DATA		4
#define QEMU_EXCP_BKPT		7
#define QEMU_EXCP_EXC_EXIT	8
#define QEMU_EXCP_SEMIHOST	16
#define QEMU_EXCP_NOCP		17
#define QEMU_EXCP_INVSTATE	18
#define QEMU_EXCP_UNALIGNED	22

static struct {
	uint32_t vtor;
	uint64_t pending;	/* by exception number */
	uint64_t active;
	uint32_t enabled;	/* interrupts 0..31 */
	uint8_t prio[NR_EXC];	/* configurable priorities, top bits only */
	uint32_t prigroup;
	uint32_t scr, ccr;
	uint32_t shcsr_ena;	/* MEMFAULTENA, BUSFAULTENA, USGFAULTENA */
	uint32_t cfsr, hfsr, mmfar, bfar;
	uint32_t fault_exc;	/* the exception handling emu.handled */
	/* SysTick */
	uint32_t syst_csr, syst_rvr, syst_val;
	uint64_t syst_at;	/* when syst_val was the current value */
} m;

static const struct emu_gdb_reg m_profile[] = {
	GDB_REG("r0"), GDB_REG("r1"), GDB_REG("r2"), GDB_REG("r3"),
	GDB_REG("r4"), GDB_REG("r5"), GDB_REG("r6"), GDB_REG("r7"),
	GDB_REG("r8"), GDB_REG("r9"), GDB_REG("r10"), GDB_REG("r11"),
	GDB_REG("r12"), GDB_REG_T("sp", "data_ptr"), GDB_REG("lr"),
	GDB_REG_T("pc", "code_ptr"), GDB_REG("xpsr"),
};

static const struct emu_gdb_reg m_system[] = {
	GDB_REG_T("msp", "data_ptr"), GDB_REG_T("psp", "data_ptr"),
};

static const struct emu_gdb_reg m_masks[] = {
	GDB_SYS("primask"), GDB_SYS("basepri"), GDB_SYS("faultmask"),
	GDB_SYS("control"),
};

static const struct emu_gdb_feature gdb_features[] = {
	{ "org.gnu.gdb.arm.m-profile", m_profile, ARRAY_SIZE(m_profile) },
	{ "org.gnu.gdb.arm.m-system", m_system, ARRAY_SIZE(m_system) },
	{ "org.ampsoc.arm.m-masks", m_masks, ARRAY_SIZE(m_masks) },
};

static const int gpr[] = {
	UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3,
	UC_ARM_REG_R4, UC_ARM_REG_R5, UC_ARM_REG_R6, UC_ARM_REG_R7,
	UC_ARM_REG_R8, UC_ARM_REG_R9, UC_ARM_REG_R10, UC_ARM_REG_R11,
	UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC,
};

/* ---- special registers, whatever the privilege of the code -------------- */

static uint32_t ipsr(void)
{
	return emu_reg(UC_ARM_REG_IPSR) & XPSR_IPSR;
}

/*
 * Unprivileged thread code reads MSP, PSP and the masks as zero and cannot
 * write them; so does Unicorn's register API on its behalf. Pretend to be
 * in handler mode (IPSR is not privilege-checked) for the access.
 */
static bool priv_begin(void)
{
	if (ipsr() || !(emu_reg(UC_ARM_REG_CONTROL) & CONTROL_NPRIV))
		return false;
	emu_set_reg(UC_ARM_REG_IPSR, EXC_NMI);
	return true;
}

static void priv_end(bool pretended)
{
	if (pretended)
		emu_set_reg(UC_ARM_REG_IPSR, 0);
}

static uint32_t sysreg(int reg)
{
	bool p = priv_begin();
	uint32_t v = emu_reg(reg);

	priv_end(p);
	return v;
}

static void read_sps(uint32_t *msp, uint32_t *psp)
{
	uint32_t ctrl = emu_reg(UC_ARM_REG_CONTROL);
	bool p = priv_begin();
	uint32_t a = emu_reg(UC_ARM_REG_MSP), b = emu_reg(UC_ARM_REG_PSP);

	priv_end(p);
	/* Pretending, the banks are seen as handler mode sees them. */
	if (p && (ctrl & CONTROL_SPSEL)) {
		*msp = b;
		*psp = a;
	} else {
		*msp = a;
		*psp = b;
	}
}

/* Unicorn caches the mode in its translation flags: recompute them. */
static void rebuild_flags(void)
{
	emu_set_reg(UC_ARM_REG_APSR_NZCV, emu_reg(UC_ARM_REG_APSR_NZCV));
}

/*
 * Put the core in exception @ipsr (0: thread mode) with CONTROL @ctrl and
 * stack pointers @msp, @psp, going through privileged thread mode, where
 * SPSEL can be written.
 */
static void set_state(uint32_t to_ipsr, uint32_t ctrl, uint32_t msp, uint32_t psp)
{
	uint32_t c = emu_reg(UC_ARM_REG_CONTROL);

	emu_set_reg(UC_ARM_REG_IPSR, EXC_NMI);
	emu_set_reg(UC_ARM_REG_CONTROL, c & ~CONTROL_NPRIV);
	emu_set_reg(UC_ARM_REG_IPSR, 0);
	emu_set_reg(UC_ARM_REG_CONTROL, (c & ~(CONTROL_NPRIV | CONTROL_SPSEL)) |
					(ctrl & CONTROL_SPSEL));
	if (to_ipsr)
		emu_set_reg(UC_ARM_REG_IPSR, to_ipsr);
	emu_set_reg(UC_ARM_REG_MSP, msp);
	emu_set_reg(UC_ARM_REG_PSP, psp);
	emu_set_reg(UC_ARM_REG_CONTROL, ctrl);
}

/* ---- gdb's registers ---------------------------------------------------- */

static uint32_t arm_get_reg(unsigned int n)
{
	uint32_t msp, psp;

	if (n < 16)
		return emu_reg(gpr[n]);
	switch (n) {
	case 16:
		return emu_reg(UC_ARM_REG_XPSR);
	case 17:
	case 18:
		read_sps(&msp, &psp);
		return n == 17 ? msp : psp;
	case 19:
		return sysreg(UC_ARM_REG_PRIMASK);
	case 20:
		return sysreg(UC_ARM_REG_BASEPRI);
	case 21:
		return sysreg(UC_ARM_REG_FAULTMASK);
	case 22:
		return emu_reg(UC_ARM_REG_CONTROL);
	}
	return 0;
}

static void arm_set_reg(unsigned int n, uint32_t v)
{
	uint32_t msp, psp;
	bool p;

	if (n == 15) {
		emu_set_reg(UC_ARM_REG_PC, v | 1);
		return;
	}
	if (n < 16) {
		emu_set_reg(gpr[n], v);
		return;
	}
	switch (n) {
	case 16:
		emu_set_reg(UC_ARM_REG_XPSR_NZCVQG, v | XPSR_T);
		break;
	case 17:
	case 18:
		read_sps(&msp, &psp);
		if (n == 17)
			msp = v;
		else
			psp = v;
		set_state(ipsr(), emu_reg(UC_ARM_REG_CONTROL), msp, psp);
		break;
	case 19:
	case 20:
	case 21:
		p = priv_begin();
		emu_set_reg(n == 19 ? UC_ARM_REG_PRIMASK : n == 20 ? UC_ARM_REG_BASEPRI :
			    UC_ARM_REG_FAULTMASK, v);
		priv_end(p);
		break;
	case 22:
		read_sps(&msp, &psp);
		set_state(ipsr(), ipsr() ? v & ~CONTROL_SPSEL : v, msp, psp);
		break;
	}
	rebuild_flags();
	emu_attention(ATTN_IRQ);
}

/* ---- priorities --------------------------------------------------------- */

static int prio_of(unsigned int exc)
{
	if (exc == EXC_NMI)
		return -2;
	if (exc == EXC_HARD)
		return -1;
	return m.prio[exc];
}

/* The group priority, which decides preemption (AIRCR.PRIGROUP). */
static int group_of(int prio)
{
	if (prio < 0)
		return prio;
	return prio & (0xff << (m.prigroup + 1)) & 0xff;
}

#define MASK_PRIMASK	0x1u
#define MASK_OTHERS	0x2u	/* BASEPRI and FAULTMASK */

static int exec_prio(unsigned int masks)
{
	int p = NO_PRIO;
	unsigned int exc;
	uint32_t v;

	for (exc = 2; exc < NR_EXC; exc++)
		if ((m.active >> exc) & 1 && group_of(prio_of(exc)) < p)
			p = group_of(prio_of(exc));
	if (masks & MASK_OTHERS) {
		v = sysreg(UC_ARM_REG_BASEPRI) & PRIO_MASK;
		if (v && group_of(v) < p)
			p = group_of(v);
		if ((sysreg(UC_ARM_REG_FAULTMASK) & 1) && p > -1)
			p = -1;
	}
	if ((masks & MASK_PRIMASK) && (sysreg(UC_ARM_REG_PRIMASK) & 1) && p > 0)
		p = 0;
	return p;
}

static unsigned int nr_active(void)
{
	return __builtin_popcountll(m.active);
}

/* ---- SysTick ------------------------------------------------------------ */

#define SYST_ENABLE	0x1u
#define SYST_TICKINT	0x2u
#define SYST_CLKSOURCE	0x4u
#define SYST_COUNTFLAG	0x10000u
#define NS_PER_TICK	(1000000000u / AMPSOC_SYSTICK_HZ)

/* Count the SysTick down to now: COUNTFLAG and the exception on zero. */
static void systick_update(void)
{
	uint64_t now = emu_now(), ticks, rest, period = (uint64_t)m.syst_rvr + 1;
	uint64_t events = 0;

	if (!(m.syst_csr & SYST_ENABLE) || now <= m.syst_at) {
		m.syst_at = now;
		return;
	}
	ticks = (now - m.syst_at) / NS_PER_TICK;
	m.syst_at += ticks * NS_PER_TICK;
	if (!ticks)
		return;
	if (m.syst_val && ticks < m.syst_val) {
		m.syst_val -= ticks;
		return;
	}
	/* It reached zero once (at syst_val), then every period (reload). */
	rest = ticks - m.syst_val;
	if (m.syst_val)
		events = 1;
	if (!m.syst_rvr) {
		m.syst_val = 0;	/* a zero reload stops the counter */
	} else {
		events += rest / period;
		rest %= period;
		m.syst_val = rest ? period - rest : 0;
	}
	if (events) {
		m.syst_csr |= SYST_COUNTFLAG;
		if (m.syst_csr & SYST_TICKINT)
			m.pending |= 1ull << EXC_SYSTICK;
	}
}

/* When the SysTick next reaches zero, counted from now. */
static uint64_t arm_deadline(void)
{
	uint64_t ticks;

	systick_update();
	if ((m.syst_csr & (SYST_ENABLE | SYST_TICKINT)) != (SYST_ENABLE | SYST_TICKINT) ||
	    !m.syst_rvr)
		return 0;
	ticks = m.syst_val ? m.syst_val : (uint64_t)m.syst_rvr + 1;
	return m.syst_at + ticks * NS_PER_TICK;
}

/* ---- pending exceptions --------------------------------------------------- */

/* Latch the interrupt lines and the SysTick into the pending bits. */
static void latch(void)
{
	uint64_t lines = emu_lines();

	/* A level-sensitive line pends its interrupt unless it is active. */
	m.pending |= (lines << EXC_IRQ0) & ~m.active;
	systick_update();
}

/* The pending exception the NVIC would take first; 0 if none. */
static unsigned int best_pending(void)
{
	unsigned int exc, best = 0;
	int bp = NO_PRIO + 1;

	for (exc = 2; exc < NR_EXC; exc++) {
		if (!((m.pending >> exc) & 1))
			continue;
		if (exc >= EXC_IRQ0 && !((m.enabled >> (exc - EXC_IRQ0)) & 1))
			continue;
		if (prio_of(exc) < bp) {
			bp = prio_of(exc);
			best = exc;
		}
	}
	return best;
}

static bool preempts(unsigned int exc, unsigned int masks)
{
	return exc && group_of(prio_of(exc)) < exec_prio(masks);
}

static bool arm_wake_pending(void)
{
	latch();
	return preempts(best_pending(), MASK_OTHERS);
}

static bool arm_masked_pending(void)
{
	unsigned int exc;

	latch();
	exc = best_pending();
	return preempts(exc, 0) && !preempts(exc, MASK_PRIMASK | MASK_OTHERS);
}

/* ---- exception entry and return ------------------------------------------- */

/*
 * Take exception @exc, returning to @ret: push the eight-word frame on the
 * stack in use (8-byte aligned, as CCR.STKALIGN), switch to handler mode on
 * the main stack, LR = EXC_RETURN, PC = the vector. False if the frame or
 * the vector cannot be accessed.
 */
static bool exc_entry(unsigned int exc, uint32_t ret)
{
	uint32_t xpsr = arm_get_reg(16), ctrl = emu_reg(UC_ARM_REG_CONTROL);
	uint32_t cur = xpsr & XPSR_IPSR, msp, psp, sp, frame, vec, excret;
	uint32_t word[8];
	bool on_psp = !cur && (ctrl & CONTROL_SPSEL);
	unsigned int i;

	read_sps(&msp, &psp);
	sp = on_psp ? psp : msp;
	frame = (sp - 32) & ~4u;
	for (i = 0; i < 4; i++)
		word[i] = emu_reg(gpr[i]);
	word[4] = emu_reg(UC_ARM_REG_R12);
	word[5] = emu_reg(UC_ARM_REG_LR);
	word[6] = ret & ~1u;
	word[7] = (xpsr & ~XPSR_ALIGN) | (sp & 4 ? XPSR_ALIGN : 0);
	for (i = 0; i < 8; i++)
		if (!emu_write32(frame + 4 * i, word[i]))
			return false;
	if (!emu_read32((m.vtor & ~0x7fu) + 4 * exc, &vec))
		return false;
	if (on_psp)
		psp = frame;
	else
		msp = frame;
	excret = cur ? 0xfffffff1 : on_psp ? 0xfffffffd : 0xfffffff9;
	set_state(exc, ctrl & ~CONTROL_SPSEL, msp, psp);
	emu_set_reg(UC_ARM_REG_XPSR, (xpsr & ~(XPSR_IPSR | XPSR_IT)) | XPSR_T | exc);
	emu_set_reg(UC_ARM_REG_LR, excret);
	emu_set_reg(UC_ARM_REG_PC, vec | 1);
	rebuild_flags();
	m.pending &= ~(1ull << exc);
	m.active |= 1ull << exc;
	emu.sleeping = false;
	return true;
}

static void arm_fault(const struct emu_fault *f);

static void invpc(uint32_t excret)
{
	struct emu_fault f = {
		.reason = AMPSOC_CORE_FAULT_ILLEGAL,
		.addr = excret,
		.pc = emu.pc,
		.precise = true,
	};

	m.cfsr |= UF_INVPC;
	arm_fault(&f);
}

static void exc_return(uint32_t excret)
{
	uint32_t cur = ipsr(), ctrl = emu_reg(UC_ARM_REG_CONTROL), msp, psp, frame;
	uint32_t word[8], to;
	bool to_thread = excret & 8, on_psp = excret & 4;
	unsigned int i;

	if ((excret != 0xfffffff1 && excret != 0xfffffff9 && excret != 0xfffffffd) ||
	    !cur || !((m.active >> cur) & 1) ||
	    to_thread != (nr_active() == 1)) {
		invpc(excret);
		return;
	}
	read_sps(&msp, &psp);
	frame = on_psp ? psp : msp;
	for (i = 0; i < 8; i++) {
		if (!emu_read32(frame + 4 * i, &word[i])) {
			struct emu_fault f = {
				.reason = AMPSOC_CORE_FAULT_DOUBLE,
				.access = AMPSOC_CORE_ACCESS_READ,
				.addr = frame + 4 * i,
				.pc = emu.pc,
			};

			emu_fatal(&f);
		}
	}
	m.active &= ~(1ull << cur);
	if (cur == m.fault_exc) {
		emu.in_fault_handler = false;
		m.fault_exc = 0;
	}
	frame += 32 + (word[7] & XPSR_ALIGN ? 4 : 0);
	if (on_psp)
		psp = frame;
	else
		msp = frame;
	to = to_thread ? 0 : word[7] & XPSR_IPSR;
	set_state(to, (ctrl & ~CONTROL_SPSEL) | (on_psp ? CONTROL_SPSEL : 0), msp, psp);
	for (i = 0; i < 4; i++)
		emu_set_reg(gpr[i], word[i]);
	emu_set_reg(UC_ARM_REG_R12, word[4]);
	emu_set_reg(UC_ARM_REG_LR, word[5]);
	emu_set_reg(UC_ARM_REG_XPSR_NZCVQG, (word[7] & ~XPSR_IPSR) | to);
	emu_set_reg(UC_ARM_REG_PC, word[6] | 1);
	rebuild_flags();
}

static void arm_deliver_irqs(void)
{
	unsigned int exc;

	latch();
	exc = best_pending();
	if (!preempts(exc, MASK_PRIMASK | MASK_OTHERS))
		return;
	if (!exc_entry(exc, emu_reg(UC_ARM_REG_PC))) {
		struct emu_fault f = {
			.reason = AMPSOC_CORE_FAULT_DOUBLE,
			.access = AMPSOC_CORE_ACCESS_WRITE,
			.addr = emu_reg(UC_ARM_REG_SP),
			.pc = emu_reg(UC_ARM_REG_PC),
		};

		emu_fatal(&f);
	}
}

/* ---- faults --------------------------------------------------------------- */

static bool arm_fault_active(void)
{
	return m.fault_exc && ((m.active >> m.fault_exc) & 1);
}

/*
 * Deliver a synchronous fault as the processor would: to its configurable
 * handler if enabled and of enough priority, else escalated to HardFault;
 * a fault at priority -1 or higher (in HardFault or NMI, or with
 * FAULTMASK) is a lockup. A handler whose vector is 0 does not exist: the
 * core ends with the fault itself.
 */
static void arm_fault(const struct emu_fault *f)
{
	unsigned int exc, ena = 0;
	uint32_t cfsr = 0, hfsr = 0, vec, ret;

	switch (f->reason) {
	case AMPSOC_CORE_FAULT_FIREWALL:
	case AMPSOC_CORE_FAULT_PROT:
		exc = EXC_MEM;
		ena = 1u << 16;
		if (f->access == AMPSOC_CORE_ACCESS_FETCH) {
			cfsr = MM_IACCVIOL;
		} else {
			cfsr = MM_DACCVIOL | MM_MMARVALID;
			m.mmfar = f->addr;
		}
		break;
	case AMPSOC_CORE_FAULT_UNMAPPED:
		exc = EXC_BUS;
		ena = 1u << 17;
		if (f->access == AMPSOC_CORE_ACCESS_FETCH) {
			cfsr = BF_IBUSERR;
		} else if (f->precise) {
			cfsr = BF_PRECISERR | BF_BFARVALID;
			m.bfar = f->addr;
		} else {
			cfsr = BF_IMPRECISERR;
		}
		break;
	case AMPSOC_CORE_FAULT_ILLEGAL:
		exc = EXC_USAGE;
		ena = 1u << 18;
		cfsr = m.cfsr & (UF_INVSTATE | UF_INVPC | UF_NOCP) ? 0 : UF_UNDEFINSTR;
		break;
	case AMPSOC_CORE_FAULT_MISALIGNED:
		exc = EXC_USAGE;
		ena = 1u << 18;
		cfsr = UF_UNALIGNED;
		break;
	case AMPSOC_CORE_FAULT_BREAKPOINT:
		exc = EXC_HARD;
		hfsr = HF_DEBUGEVT;
		break;
	default:
		emu_fatal(f);
	}
	emu.fault = *f;
	if (exec_prio(MASK_OTHERS) <= -1) {
		struct emu_fault lock = *f;

		lock.reason = AMPSOC_CORE_FAULT_DOUBLE;
		emu_fatal(&lock);
	}
	if (exc != EXC_HARD && (!(m.shcsr_ena & ena) ||
				!preempts(exc, MASK_PRIMASK | MASK_OTHERS))) {
		exc = EXC_HARD;
		hfsr |= HF_FORCED;
	}
	if (!emu_read32((m.vtor & ~0x7fu) + 4 * exc, &vec) || !vec)
		emu_fatal(f);	/* no handler: the fault ends the core */
	m.cfsr |= cfsr;
	m.hfsr |= hfsr;
	ret = f->precise ? f->pc : emu_reg(UC_ARM_REG_PC);
	emu.handled = *f;
	emu_capture_regs(&emu.handled);
	if (!exc_entry(exc, ret)) {
		struct emu_fault lock = *f;

		lock.reason = AMPSOC_CORE_FAULT_DOUBLE;
		emu_fatal(&lock);
	}
	emu.in_fault_handler = true;
	m.fault_exc = exc;
}

/* The address an exclusive access faulted at (the only ones that check). */
static uint32_t exclusive_addr(uint32_t pc, uint32_t *access)
{
	uint16_t hw1, hw2;
	uint32_t rn;

	*access = AMPSOC_CORE_ACCESS_READ;
	if (!emu_read16(pc, &hw1) || !emu_read16(pc + 2, &hw2))
		return 0;
	rn = emu_reg(gpr[hw1 & 0xf]);
	switch (hw1 & 0xfff0) {
	case 0xe840:	/* STREX */
		*access = AMPSOC_CORE_ACCESS_WRITE;
		return rn + 4 * (hw2 & 0xff);
	case 0xe850:	/* LDREX */
		return rn + 4 * (hw2 & 0xff);
	case 0xe8c0:	/* STREXB/H */
		*access = AMPSOC_CORE_ACCESS_WRITE;
		return rn;
	case 0xe8d0:	/* LDREXB/H */
		return rn;
	}
	return 0;
}

static void sync_fault(uint32_t reason, uint32_t ufsr)
{
	struct emu_fault f = {
		.reason = reason,
		.pc = emu_reg(UC_ARM_REG_PC),
		.precise = true,
	};

	m.cfsr |= ufsr;
	arm_fault(&f);
}

static void arm_intr(uint32_t intno)
{
	struct emu_fault f = { .precise = true };

	switch (intno) {
	case QEMU_EXCP_EXC_EXIT:
		exc_return(emu_reg(UC_ARM_REG_PC) | 1);
		return;
	case QEMU_EXCP_SWI:
		/* SVC is taken at once, or escalates; PC is past it already. */
		if (!preempts(EXC_SVC, MASK_PRIMASK | MASK_OTHERS)) {
			sync_fault(AMPSOC_CORE_FAULT_ILLEGAL, 0);
			return;
		}
		if (!exc_entry(EXC_SVC, emu_reg(UC_ARM_REG_PC))) {
			f.reason = AMPSOC_CORE_FAULT_DOUBLE;
			f.access = AMPSOC_CORE_ACCESS_WRITE;
			f.addr = emu_reg(UC_ARM_REG_SP);
			f.pc = emu_reg(UC_ARM_REG_PC) - 2;
			emu_fatal(&f);
		}
		return;
	case QEMU_EXCP_BKPT:
	case QEMU_EXCP_SEMIHOST:
		if (gdb_conn() >= 0) {
			emu_halt(SIGTRAP);
			return;
		}
		sync_fault(AMPSOC_CORE_FAULT_BREAKPOINT, 0);
		return;
	case QEMU_EXCP_DATA:
	case QEMU_EXCP_UNALIGNED:
		f.reason = AMPSOC_CORE_FAULT_MISALIGNED;
		f.pc = emu_reg(UC_ARM_REG_PC);
		f.addr = exclusive_addr(f.pc, &f.access);
		m.cfsr |= UF_UNALIGNED;
		arm_fault(&f);
		return;
	case QEMU_EXCP_PREFETCH:
		f.reason = AMPSOC_CORE_FAULT_PROT;
		f.access = AMPSOC_CORE_ACCESS_FETCH;
		f.pc = emu_reg(UC_ARM_REG_PC);
		f.addr = f.pc;
		arm_fault(&f);
		return;
	case QEMU_EXCP_NOCP:
		sync_fault(AMPSOC_CORE_FAULT_ILLEGAL, UF_NOCP);
		return;
	case QEMU_EXCP_INVSTATE:
		sync_fault(AMPSOC_CORE_FAULT_ILLEGAL, UF_INVSTATE);
		return;
	default:
		sync_fault(AMPSOC_CORE_FAULT_ILLEGAL, UF_UNDEFINSTR);
	}
}

/* Hint instructions Unicorn stops on as if they were undefined. */
static bool is_hint(uint32_t pc)
{
	uint16_t hw1, hw2;

	if (!emu_read16(pc, &hw1))
		return false;
	if (hw1 == 0xbf10 || hw1 == 0xbf20)	/* YIELD, WFE */
		return true;
	return hw1 == 0xf3af && emu_read16(pc + 2, &hw2) &&
	       (hw2 == 0x8001 || hw2 == 0x8002);
}

static void arm_error(uc_err err)
{
	struct emu_fault f;
	uint32_t pc = emu_reg(UC_ARM_REG_PC);

	if (emu_mem_fault(err, &f)) {
		/* EXC_RETURN taken outside Unicorn's idea of handler mode */
		if (f.access == AMPSOC_CORE_ACCESS_FETCH && f.addr >= 0xffffff00u && ipsr()) {
			exc_return(f.addr | 1);
			return;
		}
		arm_fault(&f);
		return;
	}
	if (err == UC_ERR_INSN_INVALID) {
		/* YIELD and WFE are hints: carry on after them. */
		if (pc != emu.pc && is_hint(emu.pc))
			return;
		if (pc != emu.pc)
			m.cfsr |= UF_INVSTATE;	/* a branch to ARM state */
		sync_fault(AMPSOC_CORE_FAULT_ILLEGAL, 0);
		return;
	}
	if (err == UC_ERR_EXCEPTION) {
		sync_fault(AMPSOC_CORE_FAULT_ILLEGAL, UF_UNDEFINSTR);
		return;
	}
	die(EXIT_SETUP, "the ARMv7-M emulation failed at %#x: %s", pc, uc_strerror(err));
}

static bool arm_after_wfi(uint64_t pc)
{
	uint16_t hw1, hw2;

	if (emu_read16(pc - 2, &hw1) && hw1 == 0xbf30)
		return true;
	return emu_read16(pc - 4, &hw1) && emu_read16(pc - 2, &hw2) &&
	       hw1 == 0xf3af && hw2 == 0x8003;
}

static uint64_t arm_resume_pc(void)
{
	return emu_reg(UC_ARM_REG_PC) | 1;
}

/* ---- the System Control Space ------------------------------------------ */

/* Register bit @bit reflects exception @exc. */
struct exc_bit {
	unsigned int exc, bit;
};

static uint32_t exc_bits(uint64_t set, const struct exc_bit *b, unsigned int n)
{
	uint32_t v = 0;

	for (; n--; b++)
		if ((set >> b->exc) & 1)
			v |= 1u << b->bit;
	return v;
}

/* ICSR: PENDSTSET, PENDSVSET, NMIPENDSET */
static const struct exc_bit icsr_pend[] = {
	{ EXC_SYSTICK, 26 }, { EXC_PENDSV, 28 }, { EXC_NMI, 31 },
};

/* SHCSR: the active bits, then the pended ones */
static const struct exc_bit shcsr_act[] = {
	{ EXC_MEM, 0 }, { EXC_BUS, 1 }, { EXC_USAGE, 3 }, { EXC_SVC, 7 },
	{ 12, 8 }, { EXC_PENDSV, 10 }, { EXC_SYSTICK, 11 },
};

static const struct exc_bit shcsr_pend[] = {
	{ EXC_USAGE, 12 }, { EXC_MEM, 13 }, { EXC_BUS, 14 }, { EXC_SVC, 15 },
};

static uint32_t icsr(void)
{
	unsigned int pend = best_pending();
	uint32_t v = ipsr();

	if (nr_active() <= 1)
		v |= 1u << 11;				/* RETTOBASE */
	v |= pend << 12;				/* VECTPENDING */
	if (m.pending & ((uint64_t)m.enabled << EXC_IRQ0))
		v |= 1u << 22;				/* ISRPENDING */
	return v | exc_bits(m.pending, icsr_pend, ARRAY_SIZE(icsr_pend));
}

static uint32_t shcsr(void)
{
	return m.shcsr_ena | exc_bits(m.active, shcsr_act, ARRAY_SIZE(shcsr_act)) |
	       exc_bits(m.pending, shcsr_pend, ARRAY_SIZE(shcsr_pend));
}

static uint32_t systick_read(uint64_t off)
{
	uint32_t v;

	systick_update();
	switch (off) {
	case AMPSOC_SCS_SYST_CSR:
		v = m.syst_csr | SYST_CLKSOURCE;
		m.syst_csr &= ~SYST_COUNTFLAG;
		return v;
	case AMPSOC_SCS_SYST_RVR:
		return m.syst_rvr;
	case AMPSOC_SCS_SYST_CVR:
		return m.syst_val;
	default:
		/* CALIB: no reference clock, TENMS = 10 ms at the core clock */
		return (1u << 31) | (AMPSOC_SYSTICK_HZ / 100 - 1);
	}
}

/* Priority bytes: interrupts at IPR, system handlers 4..15 at SHPR1-3. */
static uint8_t *prio_byte(uint64_t off)
{
	if (off >= AMPSOC_SCS_NVIC_IPR && off < AMPSOC_SCS_NVIC_IPR + 32)
		return &m.prio[EXC_IRQ0 + off - AMPSOC_SCS_NVIC_IPR];
	if (off >= AMPSOC_SCS_SHPR1 && off < AMPSOC_SCS_SHPR1 + 12) {
		unsigned int exc = 4 + off - AMPSOC_SCS_SHPR1;

		/* only MemManage, BusFault, UsageFault, SVCall, DebugMon, PendSV, SysTick */
		if (exc <= 6 || exc == 11 || exc == 12 || exc >= 14)
			return &m.prio[exc];
	}
	return NULL;
}

static bool is_prio_reg(uint64_t off)
{
	return (off >= AMPSOC_SCS_NVIC_IPR && off < AMPSOC_SCS_NVIC_IPR + 32) ||
	       (off >= AMPSOC_SCS_SHPR1 && off < AMPSOC_SCS_SHPR1 + 12);
}

/* Priority bytes, a byte, halfword or word at a time. */
static void prio_access(uint64_t off, unsigned int size, uint64_t *v, bool write)
{
	unsigned int i;

	for (i = 0; i < size; i++) {
		uint8_t *b = prio_byte(off + i);

		if (b && write)
			*b = (*v >> (8 * i)) & PRIO_MASK;
		else if (!write)
			*v |= (uint64_t)(b ? *b : 0) << (8 * i);
	}
}

static uint64_t scs_read(uc_engine *uc, uint64_t off, unsigned int size, void *opaque)
{
	uint64_t v = 0;

	if (is_prio_reg(off)) {
		if (off % size)
			goto bad;
		prio_access(off, size, &v, false);
		return v;
	}
	if (size != 4 || (off & 3))
		goto bad;
	latch();
	switch (off) {
	case AMPSOC_SCS_SYST_CSR:
	case AMPSOC_SCS_SYST_RVR:
	case AMPSOC_SCS_SYST_CVR:
	case AMPSOC_SCS_SYST_CALIB:
		return systick_read(off);
	case AMPSOC_SCS_NVIC_ISER:
	case AMPSOC_SCS_NVIC_ICER:
		return m.enabled;
	case AMPSOC_SCS_NVIC_ISPR:
	case AMPSOC_SCS_NVIC_ICPR:
		return m.pending >> EXC_IRQ0;
	case AMPSOC_SCS_NVIC_IABR:
		return m.active >> EXC_IRQ0;
	case AMPSOC_SCS_CPUID:
		return 0x410fc241;	/* Cortex-M4 r0p1 */
	case AMPSOC_SCS_ICSR:
		return icsr();
	case AMPSOC_SCS_VTOR:
		return m.vtor;
	case AMPSOC_SCS_AIRCR:
		return 0xfa050000u | m.prigroup << 8;
	case AMPSOC_SCS_SCR:
		return m.scr;
	case AMPSOC_SCS_CCR:
		return m.ccr | 0x200;	/* STKALIGN */
	case AMPSOC_SCS_SHCSR:
		return shcsr();
	case AMPSOC_SCS_CFSR:
		return m.cfsr;
	case AMPSOC_SCS_HFSR:
		return m.hfsr;
	case AMPSOC_SCS_MMFAR:
		return m.mmfar;
	case AMPSOC_SCS_BFAR:
		return m.bfar;
	}
	return 0;	/* the rest of the SCS reads as zero */
bad:
	emu_bus_error(AMPSOC_CORE_SCS_BASE + off, false);
	return 0;
}

static void scs_write(uc_engine *uc, uint64_t off, unsigned int size, uint64_t v,
		      void *opaque)
{
	if (is_prio_reg(off)) {
		if (off % size)
			goto bad;
		prio_access(off, size, &v, true);
		emu_attention(ATTN_IRQ);
		return;
	}
	if (size != 4 || (off & 3))
		goto bad;
	systick_update();
	switch (off) {
	case AMPSOC_SCS_SYST_CSR:
		m.syst_csr = (m.syst_csr & SYST_COUNTFLAG) | (v & (SYST_ENABLE | SYST_TICKINT));
		m.syst_at = emu_now();
		break;
	case AMPSOC_SCS_SYST_RVR:
		m.syst_rvr = v & 0xffffff;
		break;
	case AMPSOC_SCS_SYST_CVR:
		m.syst_val = 0;
		m.syst_csr &= ~SYST_COUNTFLAG;
		m.syst_at = emu_now();
		break;
	case AMPSOC_SCS_NVIC_ISER:
		m.enabled |= v;
		break;
	case AMPSOC_SCS_NVIC_ICER:
		m.enabled &= ~v;
		break;
	case AMPSOC_SCS_NVIC_ISPR:
		m.pending |= (uint64_t)(uint32_t)v << EXC_IRQ0;
		break;
	case AMPSOC_SCS_NVIC_ICPR:
		m.pending &= ~((uint64_t)(uint32_t)v << EXC_IRQ0);
		break;
	case AMPSOC_SCS_ICSR:
		if (v & (1u << 31))
			m.pending |= 1ull << EXC_NMI;
		if (v & (1u << 28))
			m.pending |= 1ull << EXC_PENDSV;
		if (v & (1u << 27))
			m.pending &= ~(1ull << EXC_PENDSV);
		if (v & (1u << 26))
			m.pending |= 1ull << EXC_SYSTICK;
		if (v & (1u << 25))
			m.pending &= ~(1ull << EXC_SYSTICK);
		break;
	case AMPSOC_SCS_VTOR:
		m.vtor = v & 0x3fffff80u;
		break;
	case AMPSOC_SCS_AIRCR:
		if ((v >> 16) != 0x05fa)
			break;
		m.prigroup = (v >> 8) & 7;
		if (v & (1u << 2))
			emu_abort();	/* SYSRESETREQ: a core that resets itself crashed */
		break;
	case AMPSOC_SCS_SCR:
		m.scr = v & 0x16;
		break;
	case AMPSOC_SCS_CCR:
		m.ccr = v & 0x31b;	/* kept, not enforced (docs/cores.md) */
		break;
	case AMPSOC_SCS_SHCSR:
		m.shcsr_ena = v & (7u << 16);
		break;
	case AMPSOC_SCS_CFSR:
		m.cfsr &= ~v;
		break;
	case AMPSOC_SCS_HFSR:
		m.hfsr &= ~v;
		break;
	case AMPSOC_SCS_MMFAR:
		m.mmfar = v;
		break;
	case AMPSOC_SCS_BFAR:
		m.bfar = v;
		break;
	case AMPSOC_SCS_STIR:
		if ((v & 0x1ff) < 32)
			m.pending |= 1ull << (EXC_IRQ0 + (v & 0x1ff));
		break;
	default:
		return;	/* the rest of the SCS ignores writes */
	}
	emu_attention(ATTN_IRQ);
	return;
bad:
	emu_bus_error(AMPSOC_CORE_SCS_BASE + off, true);
}

/* ---- reset -------------------------------------------------------------- */

static void arm_init(uint64_t entry)
{
	uint32_t sp = 0;

	emu_map_mmio(AMPSOC_CORE_SCS_BASE, AMPSOC_CORE_SCS_SIZE, scs_read, scs_write);
	memset(&m, 0, sizeof(m));
	/* VTOR resets to 0: the initial main stack pointer is its first word. */
	emu_read32(0, &sp);
	emu_set_reg(UC_ARM_REG_CONTROL, 0);
	emu_set_reg(UC_ARM_REG_MSP, sp & ~3u);
	emu_set_reg(UC_ARM_REG_PC, entry | 1);
	rebuild_flags();
}

static const uint64_t arm_reserved[][2] = {
	{ AMPSOC_CORE_MMIO_BASE_ARMV7M, AMPSOC_CORE_MMIO_BASE_ARMV7M + AMPSOC_CORE_MMIO_SIZE },
	{ 0xe0000000ull, 0x100000000ull },	/* the system region */
};

const struct emu_isa emu_isa_armv7m = {
	.name = "armv7m",
	.isa = AMPSOC_CORE_ISA_ARMV7M,
	.arch = UC_ARCH_ARM,
	.mode = UC_MODE_THUMB | UC_MODE_MCLASS,
	.cpu_model = UC_CPU_ARM_CORTEX_M4,
	.mmio_base = AMPSOC_CORE_MMIO_BASE_ARMV7M,
	.reserved = arm_reserved,
	.nr_reserved = ARRAY_SIZE(arm_reserved),
	.gdb_arch = "arm",
	.gdb_features = gdb_features,
	.nr_gdb_features = ARRAY_SIZE(gdb_features),
	.nr_regs = 23,
	.nr_g_regs = 17,
	.pc_reg = 15,
	.stop_addr = 0xffffffffull,
	.init = arm_init,
	.get_reg = arm_get_reg,
	.set_reg = arm_set_reg,
	.deliver_irqs = arm_deliver_irqs,
	.wake_pending = arm_wake_pending,
	.masked_pending = arm_masked_pending,
	.fault_active = arm_fault_active,
	.fault = arm_fault,
	.intr = arm_intr,
	.error = arm_error,
	.deadline = arm_deadline,
	.after_wfi = arm_after_wfi,
	.resume_pc = arm_resume_pc,
};
