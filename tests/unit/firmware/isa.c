// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the emulated cores (ampsoc-core --isa armv7m|rv32imac):
 * what only they have, for each instruction set. core.c runs the firmware
 * both kinds share.
 *
 *  - faults are the CPU's: each kind ends the core with its fault record
 *    (reason, access, address, instruction, registers) on --fault-fd and
 *    the signal the record names; a firmware's own handler runs, recovers,
 *    hands the fault back, or faults again (a double fault);
 *  - the --ro firewall: readable, and a write is a FIREWALL fault;
 *  - interrupts: priorities, nesting and masks of the NVIC and the PLIC;
 *  - an idle core sleeps in WFI without a running thread, and is sandboxed;
 *  - bad memory maps and options are refused before any firmware runs;
 *  - gdb: the remote protocol by hand (registers, memory, breakpoints,
 *    steps, interrupts, detach), a watchdog that stands still while gdb
 *    holds the core, and a gdb-multiarch batch session.
 *
 * "firmware_isa --bench" prints the runner's figures instead (docs/cores.md,
 * "Measurements"): never part of a test.
 */
#include "runner.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <uapi/ampsoc/core_mmio.h>

#define GDB_BIN		"gdb-multiarch"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned int pc_reg(void)
{
	return P->machine == EM_ARM ? 15 : 32;
}

static unsigned int sp_reg(void)
{
	return P->machine == EM_ARM ? 13 : 2;
}

static unsigned int isa_id(void)
{
	return P->machine == EM_ARM ? AMPSOC_CORE_ISA_ARMV7M : AMPSOC_CORE_ISA_RV32IMAC;
}

static uint32_t mmio_base(void)
{
	return P->machine == EM_ARM ? AMPSOC_CORE_MMIO_BASE_ARMV7M : AMPSOC_CORE_MMIO_BASE_RV32;
}

/* Load @base (a sample or test firmware) and start it as core @name. */
static bool start(struct run *r, struct fw *fw, const char *base, const char *name,
		  const char *const *extra)
{
	memset(fw, 0, sizeof(*fw));
	if (shm_new(r))
		return false;
	r->name = name;
	r->want_fault = !!P->isa;	/* the native core has no records yet */
	return !fw_read(base, fw) && !fw_load(r, fw, P->win, P->nwin) &&
	       !spawn(r, P->win, P->nwin, fw->entry, false, extra);
}

static void finish(struct run *r, struct fw *fw)
{
	stop(r);
	reap(r);
	if (r->fault >= 0)
		close(r->fault);
	free(fw->data);
	shm_free(r);
}

/* What a fault record must say, beyond what every record says. */
struct want {
	int sig;
	uint32_t reason, access;
	uint64_t addr, pc;	/* ~0: anywhere in main() */
	bool pc_in_regs;	/* the registers are those at the fault */
};

#define IN_MAIN		(~0ull)

static bool check_record(struct run *r, struct fw *fw, int st, const struct want *w)
{
	struct ampsoc_core_fault f = { 0 };
	uint64_t main_da = elf_symbol(fw, "main");
	bool have = fault_record(r, &f), ok;

	ok = WIFSIGNALED(st) && WTERMSIG(st) == w->sig && have &&
	     f.reason == w->reason && f.signo == (uint32_t)w->sig && f.isa == isa_id() &&
	     f.access == w->access && f.addr == w->addr &&
	     f.nr_regs == pc_reg() + (P->machine == EM_ARM ? 2 : 1) &&
	     f.regs[sp_reg()] >= P->win[1].da && f.regs[sp_reg()] < P->win[1].da + P->win[1].len;
	if (w->pc == IN_MAIN)
		ok = ok && f.pc > main_da && f.pc < main_da + 0x400;
	else
		ok = ok && f.pc == w->pc;
	if (w->pc_in_regs)
		ok = ok && f.regs[pc_reg()] == f.pc;
	if (!ok) {
		ktap_diag("status %#x, record %s: reason %u signo %u isa %u access %u",
			  st, have ? "yes" : "no", f.reason, f.signo, f.isa, f.access);
		ktap_diag("addr %#llx pc %#llx (main %#llx) regs %u sp %#llx",
			  (unsigned long long)f.addr, (unsigned long long)f.pc,
			  (unsigned long long)main_da, f.nr_regs,
			  (unsigned long long)f.regs[sp_reg()]);
		ktap_diag("console: %s", r->cons);
	}
	return ok;
}

/* The address the fault firmware printed after @key. */
static uint64_t printed(struct run *r, const char *key)
{
	const char *p = strstr(r->cons, key);

	return p ? strtoull(p + strlen(key), NULL, 16) : 0;
}

static void fault_case(const char *mode, const struct want *want, const char *name)
{
	struct run r;
	struct fw fw;
	struct want w = *want;
	char line[64];
	int st;

	if (!start(&r, &fw, "fault", mode, NULL)) {
		ktap_ok(false, "%s%s", P->tag, name);
		finish(&r, &fw);
		return;
	}
	snprintf(line, sizeof(line), "fault: %s ", mode);
	console_wait(&r, line);
	st = reap(&r);
	if (w.pc == 1)
		w.pc = elf_symbol(&fw, "fault_illegal");
	if (w.pc == 2)
		w.pc = elf_symbol(&fw, "fault_bkpt");
	if (w.addr == 1)
		w.addr = printed(&r, " odd ");
	ktap_ok(check_record(&r, &fw, st, &w), "%s%s", P->tag, name);
	free(fw.data);
	shm_free(&r);
}

static void test_faults(void)
{
	const struct want read = {
		SIGSEGV, AMPSOC_CORE_FAULT_UNMAPPED, AMPSOC_CORE_ACCESS_READ,
		P->fault_da, IN_MAIN, true,
	};
	const struct want write = {
		SIGSEGV, AMPSOC_CORE_FAULT_UNMAPPED, AMPSOC_CORE_ACCESS_WRITE,
		P->fault_da, IN_MAIN, false,
	};
	const struct want fetch = {
		SIGSEGV, AMPSOC_CORE_FAULT_UNMAPPED, AMPSOC_CORE_ACCESS_FETCH,
		P->fault_da, P->fault_da, true,
	};
	const struct want illegal = {
		SIGILL, AMPSOC_CORE_FAULT_ILLEGAL, AMPSOC_CORE_ACCESS_NONE, 0, 1, true,
	};
	/* The exclusive load of ARM's atomic add; RISC-V's AMO is a store. */
	const struct want misaligned = {
		SIGBUS, AMPSOC_CORE_FAULT_MISALIGNED,
		P->machine == EM_ARM ? AMPSOC_CORE_ACCESS_READ : AMPSOC_CORE_ACCESS_WRITE,
		1, IN_MAIN, true,
	};
	const struct want bkpt = {
		SIGTRAP, AMPSOC_CORE_FAULT_BREAKPOINT, AMPSOC_CORE_ACCESS_NONE, 0, 2, true,
	};
	const struct want device = {
		SIGSEGV, AMPSOC_CORE_FAULT_UNMAPPED, AMPSOC_CORE_ACCESS_READ,
		mmio_base() + 0xffc, IN_MAIN, false,
	};
	const struct want dbl = {
		SIGSEGV, AMPSOC_CORE_FAULT_DOUBLE, AMPSOC_CORE_ACCESS_READ,
		P->fault_da, 0, true,
	};

	fault_case("read", &read, "fault_unmapped_read");
	fault_case("write", &write, "fault_unmapped_write");
	fault_case("fetch", &fetch, "fault_unmapped_fetch");
	fault_case("illegal", &illegal, "fault_illegal_instruction");
	fault_case("misaligned", &misaligned, "fault_misaligned_atomic");
	fault_case("bkpt", &bkpt, "fault_breakpoint_without_debugger");
	fault_case("mmio", &device, "fault_bus_error_in_device_registers");
	/* The handler's own faulting load: its pc is the handler's. */
	{
		struct run r;
		struct fw fw;
		struct want w = dbl;
		int st;

		if (start(&r, &fw, "fault", "double", NULL)) {
			st = reap(&r);
			/* after its first instruction: MOV.W or LUI, 32 bits */
			w.pc = elf_symbol(&fw, "double_handler") + 4;
			ktap_ok(check_record(&r, &fw, st, &w) &&
				!strstr(r.cons, "survived"), "%sdouble_fault_in_handler", P->tag);
		} else {
			ktap_ok(false, "%sdouble_fault_in_handler", P->tag);
		}
		free(fw.data);
		shm_free(&r);
	}
	/* A handler that hands the fault back: the record is the fault's. */
	fault_case("report", &illegal, "fault_handler_reports_the_fault");
}

static void test_handler_recovers(void)
{
	struct run r;
	struct fw fw;
	struct ampsoc_core_fault f;
	int st = -1;

	if (start(&r, &fw, "fault", "recover", NULL))
		st = reap(&r);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(r.cons, "fault: recovered\n") &&
		!fault_record(&r, &f), "%sfault_handler_recovers", P->tag);
	free(fw.data);
	shm_free(&r);
}

static void test_exit_abort(void)
{
	struct ampsoc_core_fault f;
	struct run r;
	struct fw fw;
	int st1 = -1, st2 = -1;
	bool rec1 = true, rec2 = true;

	if (start(&r, &fw, "fault", "exit", NULL)) {
		st1 = reap(&r);
		rec1 = fault_record(&r, &f);
	}
	free(fw.data);
	shm_free(&r);
	if (start(&r, &fw, "fault", "abort", NULL)) {
		st2 = reap(&r);
		rec2 = fault_record(&r, &f);
	}
	free(fw.data);
	shm_free(&r);
	ktap_ok(WIFEXITED(st1) && WEXITSTATUS(st1) == 3 && !rec1 &&
		WIFSIGNALED(st2) && WTERMSIG(st2) == SIGABRT && !rec2,
		"%sexit_and_abort_leave_no_record", P->tag);
}

/* The sample firmware's own crashes leave their records too. */
static void test_samples(void)
{
	const struct want crash = {
		SIGSEGV, AMPSOC_CORE_FAULT_UNMAPPED, AMPSOC_CORE_ACCESS_WRITE,
		P->fault_da, IN_MAIN, false,
	};
	const struct want hang = {
		SIGALRM, AMPSOC_CORE_FAULT_WATCHDOG, AMPSOC_CORE_ACCESS_NONE, 0, IN_MAIN, true,
	};
	struct run r;
	struct fw fw;
	int st;

	if (start(&r, &fw, "crash", NULL, NULL)) {
		st = reap(&r);
		ktap_ok(check_record(&r, &fw, st, &crash), "%scrash_sample_record", P->tag);
	} else {
		ktap_ok(false, "%scrash_sample_record", P->tag);
	}
	free(fw.data);
	shm_free(&r);
	if (start(&r, &fw, "hang", NULL, NULL)) {
		st = reap(&r);
		ktap_ok(check_record(&r, &fw, st, &hang), "%swatchdog_record", P->tag);
	} else {
		ktap_ok(false, "%swatchdog_record", P->tag);
	}
	free(fw.data);
	shm_free(&r);
}

static void test_firewall(void)
{
	const struct want w = {
		SIGSEGV, AMPSOC_CORE_FAULT_FIREWALL, AMPSOC_CORE_ACCESS_WRITE,
		P->shm_da, IN_MAIN, false,
	};
	char ro[48];
	const char *const extra[] = { "--ro", ro, NULL };
	uint32_t *page;
	struct run r;
	struct fw fw = { 0 };
	int st;
	bool ok = false;

	snprintf(ro, sizeof(ro), "%#x:0x1000", P->shm_da);
	if (!shm_new(&r)) {
		page = core_ptr(&r, P->shm_da, 4);
		*page = 0x600df00d;
		r.name = "firewall";
		r.want_fault = true;
		if (!fw_read("fault", &fw) && !fw_load(&r, &fw, P->win, P->nwin) &&
		    !spawn(&r, P->win, P->nwin, fw.entry, false, extra)) {
			st = reap(&r);
			ok = strstr(r.cons, "fault: firewall reads 0x600df00d\n") &&
			     check_record(&r, &fw, st, &w) && *page == 0x600df00d;
		}
		free(fw.data);
		shm_free(&r);
	}
	ktap_ok(ok, "%sfirewall_read_allowed_write_faults", P->tag);
}

/*
 * The interrupt controller's rules (irq.c): preemption by priority, a
 * lower one after the return, BASEPRI and PRIMASK, PendSV, SVC and the
 * SysTick on ARMv7-M; ECALL, vectored mtvec, the PLIC's threshold and
 * mstatus.MIE (with WFI still waking) on RV32.
 */
static void test_interrupt_rules(void)
{
	const char *want = P->machine == EM_ARM ? "irq: log 43445|b5|m3|PS ticks 3\n" :
						  "irq: log E|T|tT|mT ticks 3\n";
	struct run r;
	struct fw fw;
	int st = -1;

	/* A core that loses an interrupt sleeps forever: stop it, fail. */
	if (start(&r, &fw, "irq", NULL, NULL)) {
		if (!console_wait(&r, "irq: log "))
			stop(&r);
		st = reap(&r);
	}
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(r.cons, want),
		"%sinterrupt_priorities_and_masks", P->tag);
	if (!strstr(r.cons, want))
		ktap_diag("console: %s", r.cons);
	free(fw.data);
	shm_free(&r);
}

/* All threads of @pid asleep ('S' in /proc/PID/task/TID/stat)? */
static bool all_asleep(pid_t pid)
{
	char path[64], file[384], buf[256];
	struct dirent *d;
	bool asleep = true;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return false;
	while (asleep && (d = readdir(dir))) {
		FILE *f;
		char *p;

		if (d->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s/stat", path, d->d_name);
		f = fopen(file, "r");
		if (!f || !fgets(buf, sizeof(buf), f)) {
			asleep = false;
		} else {
			p = strrchr(buf, ')');
			asleep = p && p[1] == ' ' && p[2] == 'S';
			n++;
		}
		if (f)
			fclose(f);
	}
	closedir(dir);
	return asleep && n == 2;
}

static bool proc_status_has(pid_t pid, const char *line)
{
	char path[64], buf[256];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	while (f && !found && fgets(buf, sizeof(buf), f))
		found = !strncmp(buf, line, strlen(line));
	if (f)
		fclose(f);
	return found;
}

/* An idle core is asleep in WFI: neither of its two threads runs. */
static void test_idle_and_sandbox(void)
{
	const char *const nosandbox[] = { "--no-sandbox", NULL };
	uint64_t one = 1, until;
	struct run r;
	struct fw fw;
	bool idle = false, sandboxed;

	bool ok = start(&r, &fw, "hello", NULL, NULL) &&
		  console_wait(&r, "waiting for interrupts");

	for (until = mono_ns() + WAIT_MS * 1000000ull; ok && !idle && mono_ns() < until;)
		idle = all_asleep(r.pid) || (poll(NULL, 0, 10), false);
	ktap_ok(idle && write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 1 so far"), "%sidle_core_sleeps_in_wfi", P->tag);
	sandboxed = ok && proc_status_has(r.pid, "Seccomp:\t2") &&
		    proc_status_has(r.pid, "NoNewPrivs:\t1");
	finish(&r, &fw);
	/* ... and without --no-sandbox only. */
	ok = start(&r, &fw, "hello", NULL, nosandbox) &&
	     console_wait(&r, "waiting for interrupts");
	sandboxed = sandboxed && ok && proc_status_has(r.pid, "Seccomp:\t0");
	finish(&r, &fw);
	ktap_ok(sandboxed, "%score_is_sandboxed", P->tag);
}

/* Setup errors: the firmware never runs, the runner exits 64. */
static void refused(const struct window *w, int nw, uint64_t entry,
		    const char *const *extra, const char *needle, const char *name)
{
	struct run r;
	int st = -1;

	if (!shm_new(&r) && !spawn(&r, w, nw, entry, false, extra))
		st = reap(&r);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 64 && strstr(r.errbuf, needle) &&
		r.cons_len == 0, "%s%s", P->tag, name);
	shm_free(&r);
}

static void test_refused(void)
{
	struct window high[3], dev[3];
	char bad_ro[48], out_ro[48];
	const char *const unaligned_ro[] = { "--ro", bad_ro, NULL };
	const char *const outside_ro[] = { "--ro", out_ro, NULL };

	memcpy(high, P->win, sizeof(high));
	memcpy(dev, P->win, sizeof(dev));
	high[2].da = 0x100000000ull;
	dev[2].da = mmio_base();
	dev[2].len = 0x1000;
	snprintf(bad_ro, sizeof(bad_ro), "%#x:0x800", P->shm_da);
	snprintf(out_ro, sizeof(out_ro), "%#llx:0x2000",
		 (unsigned long long)(P->shm_da + P->win[2].len - 0x1000));
	refused(high, 3, P->win[0].da, NULL, "outside the mappable", "reject_window_above_4g");
	refused(dev, 3, P->win[0].da, NULL, "overlaps the core's devices",
		"reject_window_on_devices");
	refused(P->win, 3, P->win[0].da, unaligned_ro, "not page aligned", "reject_ro_unaligned");
	refused(P->win, 3, P->win[0].da, outside_ro, "not inside one window",
		"reject_ro_outside_windows");
	refused(P->win, 3, 0x100000000ull, NULL, "not a 32-bit address", "reject_entry_above_4g");
}

/* Options the native core refuses, and ISAs the runner does not know. */
static void test_options(void)
{
	const char *const gdb[] = { "--gdb", "1234", NULL };
	const char *const wait[] = { "--gdb-wait", NULL };
	const char *const isa[] = { "--isa", "mips", NULL };
	const struct core_prof *saved = P;

	P = &prof_m3;
	refused(m3_win, 1, 0x10000000, gdb, "needs an emulated core", "reject_gdb_on_native_core");
	refused(m3_win, 1, 0x10000000, wait, "--gdb-wait needs", "reject_gdb_wait_without_gdb");
	refused(m3_win, 1, 0x10000000, isa, "unknown --isa", "reject_unknown_isa");
	P = saved;
}

/* ---- gdb ---------------------------------------------------------------- */

/* A listening socket on 127.0.0.1 for --gdb-fd; its port in *@port. */
static int gdb_listener(int *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 1) ||
	    getsockname(fd, (struct sockaddr *)&sin, &len)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(sin.sin_port);
	return fd;
}

static int gdb_connect(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static bool rsp_send(int fd, const char *pkt)
{
	char buf[512];
	unsigned int sum = 0;
	int n;

	for (const char *p = pkt; *p; p++)
		sum += (unsigned char)*p;
	n = snprintf(buf, sizeof(buf), "$%s#%02x", pkt, sum & 0xff);
	return write(fd, buf, n) == n;
}

/* The next packet (acknowledgements skipped); false on timeout or EOF. */
static bool rsp_recv(int fd, char *out, size_t size)
{
	size_t n = 0;
	bool in = false;
	char c;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, WAIT_MS) != 1 || read(fd, &c, 1) != 1)
			return false;
		if (!in) {
			in = c == '$';
			continue;
		}
		if (c == '#')
			break;
		if (n < size - 1)
			out[n++] = c;
	}
	out[n] = 0;
	/* the checksum */
	return read(fd, &c, 1) == 1 && read(fd, &c, 1) == 1;
}

static bool rsp(int fd, const char *pkt, char *out, size_t size)
{
	return rsp_send(fd, pkt) && rsp_recv(fd, out, size);
}

static uint32_t le32_hex(const char *h)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--) {
		char b[3] = { h[2 * i], h[2 * i + 1], 0 };

		v = v << 8 | strtoul(b, NULL, 16);
	}
	return v;
}

/* Start @base halted for gdb (--gdb-fd, --gdb-wait) and connect to it. */
static int gdb_start(struct run *r, struct fw *fw, const char *base, int *lfd)
{
	static char fd[16];
	static const char *const extra[] = { "--gdb-fd", fd, "--gdb-wait", NULL };
	char buf[64];
	int port, conn;

	*lfd = gdb_listener(&port);
	if (*lfd < 0)
		return -1;
	snprintf(fd, sizeof(fd), "%d", *lfd);
	if (!start(r, fw, base, NULL, extra))
		return -1;
	conn = gdb_connect(port);
	if (conn >= 0 && !rsp(conn, "QStartNoAckMode", buf, sizeof(buf))) {
		close(conn);
		conn = -1;
	}
	return conn;
}

static void test_gdb_protocol(void)
{
	char buf[4096], pkt[64];
	uint64_t one = 1;
	uint32_t main_da, pc, word;
	struct run r;
	struct fw fw;
	int lfd, c;
	bool ok;

	c = gdb_start(&r, &fw, "hello", &lfd);
	main_da = elf_symbol(&fw, "main");
	ok = c >= 0 && rsp(c, "?", buf, sizeof(buf)) && !strcmp(buf, "T05thread:1;");
	ktap_ok(ok && rsp(c, "qXfer:features:read:target.xml:0,800", buf, sizeof(buf)) &&
		strstr(buf, P->machine == EM_ARM ? "org.gnu.gdb.arm.m-profile" : "riscv:rv32") &&
		rsp(c, "g", buf, sizeof(buf)) &&
		strlen(buf) == 8 * (pc_reg() + (P->machine == EM_ARM ? 2 : 1)) &&
		le32_hex(buf + 8 * pc_reg()) == (fw.entry & ~1ull),
		"%sgdb_halted_at_reset_registers", P->tag);
	/* Memory: the code gdb reads is the ELF's. */
	snprintf(pkt, sizeof(pkt), "m%x,4", main_da);
	ok = c >= 0 && rsp(c, pkt, buf, sizeof(buf)) && strlen(buf) == 8;
	word = ok ? le32_hex(buf) : 0;
	ktap_ok(ok && !memcmp(&word, core_ptr(&r, main_da, 4), 4) &&
		rsp(c, "m30000000,4", buf, sizeof(buf)) && buf[0] == 'E',
		"%sgdb_reads_memory", P->tag);
	/* A breakpoint at main() is hit; a step moves on; it runs again. */
	snprintf(pkt, sizeof(pkt), "Z0,%x,2", main_da);
	ok = c >= 0 && rsp(c, pkt, buf, sizeof(buf)) && !strcmp(buf, "OK") &&
	     rsp(c, "c", buf, sizeof(buf)) && !strcmp(buf, "T05thread:1;");
	snprintf(pkt, sizeof(pkt), "p%x", pc_reg());
	ok = ok && rsp(c, pkt, buf, sizeof(buf));
	pc = ok ? le32_hex(buf) : 0;
	ktap_ok(ok && pc == main_da, "%sgdb_breakpoint_hit", P->tag);
	snprintf(pkt, sizeof(pkt), "z0,%x,2", main_da);
	ok = c >= 0 && rsp(c, pkt, buf, sizeof(buf)) && rsp(c, "vCont;s:1", buf, sizeof(buf)) &&
	     !strcmp(buf, "T05thread:1;");
	snprintf(pkt, sizeof(pkt), "p%x", pc_reg());
	ok = ok && rsp(c, pkt, buf, sizeof(buf));
	pc = ok ? le32_hex(buf) : 0;
	ktap_ok(ok && pc > main_da && pc <= main_da + 4, "%sgdb_single_step", P->tag);
	/* Running, idle in WFI: an interrupt request halts it. */
	ok = c >= 0 && rsp_send(c, "c") && console_wait(&r, "waiting for interrupts") &&
	     write(c, "\003", 1) == 1 && rsp_recv(c, buf, sizeof(buf)) &&
	     !strcmp(buf, "T02thread:1;");
	ktap_ok(ok, "%sgdb_interrupt_halts", P->tag);
	/* Detached, it runs on: a doorbell still comes back. */
	ok = c >= 0 && rsp(c, "D", buf, sizeof(buf)) && !strcmp(buf, "OK") &&
	     write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
	     console_wait(&r, "interrupt, 1 so far");
	ktap_ok(ok, "%sgdb_detach_runs_on", P->tag);
	if (c >= 0)
		close(c);
	if (lfd >= 0)
		close(lfd);
	finish(&r, &fw);
}

/* While gdb holds the core, its watchdog stands still. */
static void test_gdb_watchdog(void)
{
	const struct want w = {
		SIGALRM, AMPSOC_CORE_FAULT_WATCHDOG, AMPSOC_CORE_ACCESS_NONE, 0, IN_MAIN, true,
	};
	char buf[256];
	struct run r;
	struct fw fw;
	int lfd, c, pidfd = -1, st;
	bool held = false, ok = false;

	c = gdb_start(&r, &fw, "hang", &lfd);
	if (c >= 0 && rsp_send(c, "c") && console_wait(&r, "hangs with the watchdog armed") &&
	    write(c, "\003", 1) == 1 && rsp_recv(c, buf, sizeof(buf)) &&
	    !strcmp(buf, "T02thread:1;")) {
		/* Three times the watchdog's 200 ms: the core must not end. */
		struct pollfd p;

		pidfd = syscall(SYS_pidfd_open, r.pid, 0);
		p = (struct pollfd){ .fd = pidfd, .events = POLLIN };
		held = pidfd >= 0 && poll(&p, 1, 600) == 0;
		/* Running again, it expires: gdb is told, then the core ends. */
		ok = held && rsp(c, "c", buf, sizeof(buf)) && !strcmp(buf, "T0ethread:1;") &&
		     rsp_send(c, "c");
		st = reap(&r);
		ok = ok && check_record(&r, &fw, st, &w);
	}
	ktap_ok(held, "%sgdb_halt_stops_the_watchdog", P->tag);
	ktap_ok(ok, "%sgdb_sees_the_watchdog_fire", P->tag);
	if (pidfd >= 0)
		close(pidfd);
	if (c >= 0)
		close(c);
	if (lfd >= 0)
		close(lfd);
	finish(&r, &fw);
}

/* Run @argv, its output in @out; its wait status. */
static int run_capture(char *const *argv, char *out, size_t size)
{
	int p[2], st = -1;
	size_t n = 0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		ssize_t k;

		if (poll(&pf, 1, 6 * WAIT_MS) != 1) {
			kill(pid, SIGKILL);
			break;
		}
		k = read(p[0], out + n, size - 1 - n);
		if (k <= 0)
			break;
		n += k;
	}
	out[n] = 0;
	close(p[0]);
	waitpid(pid, &st, 0);
	return st;
}

/* gdb-multiarch with the firmware's ELF: break, next, print, detach. */
static void test_gdb_batch(void)
{
	static char out[16384];
	char path[512], target[64], fd[16];
	const char *const extra[] = { "--gdb-fd", fd, "--gdb-wait", NULL };
	const char *const argv[] = {
		GDB_BIN, "-batch", "-nx", "-ex", "set pagination off",
		"-ex", target, "-ex", "break main", "-ex", "continue",
		"-ex", "next", "-ex", "print amp_trace0.size",
		"-ex", "print amp_trace0.buf", "-ex", "detach", path, NULL,
	};
	uint64_t one = 1;
	struct run r;
	struct fw fw;
	int lfd, port, st;
	bool ok = false;

	if (system("command -v " GDB_BIN " >/dev/null 2>&1")) {
		ktap_skip(GDB_BIN " is not installed", "%sgdb_batch_session", P->tag);
		return;
	}
	snprintf(path, sizeof(path), "%s/ampsoc-hello%s.elf", FW_DIR, P->suffix);
	lfd = gdb_listener(&port);
	snprintf(fd, sizeof(fd), "%d", lfd);
	snprintf(target, sizeof(target), "target remote 127.0.0.1:%d", port);
	if (lfd >= 0 && start(&r, &fw, "hello", NULL, extra)) {
		st = run_capture((char *const *)argv, out, sizeof(out));
		ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
		     strstr(out, "Breakpoint 1, main ()") && strstr(out, "$1 = 16384") &&
		     strstr(out, "\"ampsoc-hello: hello from core ") &&
		     strstr(out, "detached") &&
		     console_wait(&r, "waiting for interrupts") &&
		     write(r.irq, &one, 8) == 8 && kick_wait(&r);
		if (!ok)
			ktap_diag("gdb said: %s", out);
	}
	ktap_ok(ok, "%sgdb_batch_session", P->tag);
	if (lfd >= 0)
		close(lfd);
	finish(&r, &fw);
}

/* ---- measurements (--bench) --------------------------------------------- */

static uint64_t one_word = 1;

/* Take what the core rang, without waiting. */
static bool kick_drain(struct run *r)
{
	uint64_t v;

	return read(r->kick, &v, sizeof(v)) == sizeof(v);
}

/* From the spin firmware's lines: "spin: N <what> instructions each, in T ns". */
static void spin_figure(const char *cons, const char *what, uint64_t *n, uint64_t *t)
{
	unsigned long long a, b;
	char fmt[96];

	snprintf(fmt, sizeof(fmt), "spin: %%llu %s instructions each, in %%llu", what);
	for (; cons && (cons = strstr(cons, "spin: ")); cons++) {
		if (sscanf(cons, fmt, &a, &b) == 2) {
			*n = a;
			*t = b;
		}
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void bench(void)
{
	static const struct core_prof *const all[] = { &prof_m3, &prof_m4, &prof_rv };
	enum { BOOTS = 7, TRIPS = 2000 };

	printf("%-4s %12s %12s %16s %17s %16s\n", "core", "loop Minsn/s",
	       "store Minsn/s", "first line (ms)", "doorbell rt (us)", "mailbox rt (us)");
	for (unsigned int i = 0; i < ARRAY_SIZE(all); i++) {
		uint64_t boot[BOOTS], db[TRIPS], mb[TRIPS], t0, iters = 0, ns = 0;
		uint64_t stores = 0, sns = 0;
		const char *p;
		struct run r;
		struct fw fw;

		P = all[i];
		for (unsigned int b = 0; b < BOOTS; b++) {
			start(&r, &fw, "spin", NULL, mbox_args);
			t0 = mono_ns();
			console_wait(&r, "spin: up\n");
			boot[b] = mono_ns() - t0;
			if (b == 0 && console_wait(&r, " stores, ") && console_wait(&r, " ns\n")) {
				p = strstr(r.cons, "spin: ");
				spin_figure(p, "iterations, 2", &iters, &ns);
				spin_figure(p, "stores, 3", &stores, &sns);
			}
			finish(&r, &fw);
		}
		start(&r, &fw, "hello", NULL, mbox_args);
		console_wait(&r, "waiting for interrupts");
		for (unsigned int t = 0; t < TRIPS; t++) {
			t0 = mono_ns();
			if (write(r.irq, &one_word, 8) != 8 || !kick_wait(&r))
				break;
			db[t] = mono_ns() - t0;
		}
		for (unsigned int t = 0; t < TRIPS; t++) {
			uint32_t msg = 0;

			t0 = mono_ns();
			fifo_push(fifo_at(&r, MBOX_IN_OFF), AMPSOC_MBOX_MSG_ECHO_REQUEST);
			if (write(r.irq, &one_word, 8) != 8)
				break;
			while (!fifo_pop(fifo_at(&r, MBOX_OUT_OFF), &msg))
				if (!kick_wait(&r))
					break;
			mb[t] = mono_ns() - t0;
			while (kick_drain(&r))
				;
		}
		finish(&r, &fw);
		qsort(boot, BOOTS, sizeof(boot[0]), cmp_u64);
		qsort(db, TRIPS, sizeof(db[0]), cmp_u64);
		qsort(mb, TRIPS, sizeof(mb[0]), cmp_u64);
		printf("%-4s %12.0f %12.0f %16.2f %17.1f %16.1f\n", P->core,
		       ns ? 2.0 * iters * 1000.0 / ns : 0.0,
		       sns ? 3.0 * stores * 1000.0 / sns : 0.0, boot[BOOTS / 2] / 1e6,
		       db[TRIPS / 2] / 1e3, mb[TRIPS / 2] / 1e3);
	}
}

int main(int argc, char **argv)
{
	static const struct core_prof *const emulated[] = { &prof_m4, &prof_rv };

	if (argc > 1 && !strcmp(argv[1], "--bench")) {
		bench();
		return 0;
	}
	ktap_plan(3 + 2 * 31);
	test_options();
	for (unsigned int i = 0; i < ARRAY_SIZE(emulated); i++) {
		P = emulated[i];
		test_faults();
		test_handler_recovers();
		test_exit_abort();
		test_samples();
		test_firewall();
		test_interrupt_rules();
		test_idle_and_sandbox();
		test_refused();
		test_gdb_protocol();
		test_gdb_watchdog();
		test_gdb_batch();
	}
	return ktap_exit();
}
