// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test: the vring firewall of the remote-core runner
 * (ampsoc-core's --ro and --fault-fd, docs/firmware-sdk.md). A few bytes
 * of x86-64 code play the firmware: a write into a --ro range must end the
 * core with SIGSEGV after exactly one struct ampsoc_core_fault on the fault
 * descriptor (reason, access, address, pc, registers); reads there, writes
 * elsewhere in the window, faults outside the firewall and a SIGSEGV sent
 * from outside behave as without a firewall; bad --ro and --fault-fd options
 * are refused before any firmware runs (exit 64).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uapi/ampsoc/core_fault.h>

#include "ktap_user.h"

#define CORE_BIN	SOCMODEL_BUILD "/ampsoc-core"
#define SHM_SIZE	0x100000u
#define DA		0x10000000ull	/* the window: 128 KiB of the shm */
#define WIN		0x20000ull
#define RO_DA		(DA + 0x8000)	/* two read-only pages in it */
#define RO_LEN		0x2000ull
#define WAIT_MS		10000

static int shm;
static uint8_t *mem;

/* movabs rax, @addr; then mov byte [rax], 0x2a (write) or mov al, [rax] */
static void code_access(uint64_t addr, bool write)
{
	uint8_t *p = mem;

	*p++ = 0x48;
	*p++ = 0xb8;
	memcpy(p, &addr, 8);
	p += 8;
	if (write) {
		*p++ = 0xc6;
		*p++ = 0x00;
		*p++ = 0x2a;
	} else {
		*p++ = 0x8a;
		*p++ = 0x00;
	}
	*p = 0xc3;		/* ret: the core halts with status 0 */
}

/* write 0x2a at DA + 0x4000 (the test sees the firmware run), then spin */
static void code_spin(void)
{
	code_access(DA + 0x4000, true);
	mem[13] = 0xeb;		/* jmp $ instead of ret */
	mem[14] = 0xfe;
}

/* Poll (bounded) until the firmware wrote its marker. */
static bool firmware_running(void)
{
	int i;

	for (i = 0; i < WAIT_MS && __atomic_load_n(&mem[0x4000], __ATOMIC_ACQUIRE) != 0x2a; i++)
		usleep(1000);
	return mem[0x4000] == 0x2a;
}

struct run {
	pid_t pid;
	int fault;		/* read end, -1 without --fault-fd */
};

/*
 * Start the runner on the window with @extra options; @with_fault: pass a
 * fault pipe (its write end as --fault-fd).
 */
static int spawn(struct run *r, bool with_fault, const char *const *extra)
{
	int irq = eventfd(0, EFD_CLOEXEC), cons[2], fp[2] = { -1, -1 }, nul;
	char args[48][64], *argv[64];
	int n = 0, a = 0;

	r->fault = -1;
	if (irq < 0 || pipe2(cons, O_CLOEXEC))
		return -1;
	if (with_fault && pipe2(fp, O_CLOEXEC | O_NONBLOCK))
		return -1;
#define ARG(...) (snprintf(args[a], sizeof(args[a]), __VA_ARGS__), argv[n++] = args[a++])
	argv[n++] = CORE_BIN;
	ARG("--name"); ARG("t");
	ARG("--shm-fd"); ARG("%d", shm);
	ARG("--map"); ARG("0x0:%#llx:%#llx", DA, WIN);
	ARG("--entry"); ARG("%#llx", DA);
	ARG("--irq-fd"); ARG("%d", irq);
	ARG("--console-fd"); ARG("%d", cons[1]);
	if (with_fault) {
		ARG("--fault-fd"); ARG("%d", fp[1]);
	}
	for (; extra && *extra; extra++)
		argv[n++] = (char *)*extra;
	argv[n] = NULL;
#undef ARG
	r->pid = fork();
	if (r->pid < 0)
		return -1;
	if (r->pid == 0) {
		fcntl(shm, F_SETFD, 0);
		fcntl(irq, F_SETFD, 0);
		fcntl(cons[1], F_SETFD, 0);
		if (with_fault)
			fcntl(fp[1], F_SETFD, 0);
		nul = open("/dev/null", O_WRONLY);
		dup2(nul, 2);
		execv(CORE_BIN, argv);
		_exit(127);
	}
	close(irq);
	close(cons[0]);
	close(cons[1]);
	if (with_fault) {
		close(fp[1]);
		r->fault = fp[0];
	}
	return 0;
}

/* Wait (bounded) for the runner; its wait status, or -1. */
static int reap(struct run *r)
{
	int st, i;

	for (i = 0; i < WAIT_MS; i++) {
		if (waitpid(r->pid, &st, WNOHANG) == r->pid)
			return st;
		usleep(1000);
	}
	kill(r->pid, SIGKILL);
	waitpid(r->pid, &st, 0);
	return -1;
}

/* Bytes on the fault pipe after the runner ended (one record or none). */
static ssize_t fault_bytes(struct run *r, void *buf, size_t len)
{
	ssize_t got;

	if (r->fault < 0)
		return -1;
	got = read(r->fault, buf, len);
	close(r->fault);
	return got < 0 && errno == EAGAIN ? 0 : got;
}

static bool signalled(int st, int sig)
{
	return st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

static bool exited(int st, int code)
{
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == code;
}

static const char *const ro_opt[] = { "--ro", "0x10008000:0x2000", NULL };

static void test_faults(void)
{
	struct ampsoc_core_fault f;
	uint8_t buf[sizeof(f) + 16];
	struct run r;
	ssize_t got;
	int st;

	/* a write into the firewall */
	code_access(RO_DA + 0x1234, true);
	if (spawn(&r, true, ro_opt)) {
		ktap_ok(false, "runner_spawns");
		return;
	}
	st = reap(&r);
	got = fault_bytes(&r, buf, sizeof(buf));
	memcpy(&f, buf, sizeof(f));
	ktap_ok(signalled(st, SIGSEGV), "firewall_write_ends_core_with_sigsegv");
	ktap_ok(got == sizeof(f) && f.magic == AMPSOC_CORE_FAULT_MAGIC &&
		f.size == sizeof(f), "one_whole_record");
	ktap_ok(f.reason == AMPSOC_CORE_FAULT_FIREWALL &&
		f.isa == AMPSOC_CORE_ISA_X86_64 && f.signo == SIGSEGV &&
		f.access == AMPSOC_CORE_ACCESS_WRITE && !f.reserved,
		"record_says_firewall_write");
	ktap_ok(f.addr == RO_DA + 0x1234 && f.pc == DA + 10,
		"record_address_and_pc");
	/* rax, ..., rip (16), eflags */
	ktap_ok(f.nr_regs == 18 && f.regs[0] == RO_DA + 0x1234 &&
		f.regs[16] == DA + 10 && (f.regs[17] & 0x2),
		"record_registers_in_gdb_order");
	ktap_ok(mem[0x9234] == 0, "write_did_not_land");

	/* reading the firewall is fine */
	code_access(RO_DA + 8, false);
	spawn(&r, true, ro_opt);
	st = reap(&r);
	ktap_ok(exited(st, 0) && fault_bytes(&r, buf, sizeof(buf)) == 0,
		"firewall_read_allowed");

	/* the rest of the window stays writable */
	code_access(DA + 0x4000, true);
	spawn(&r, true, ro_opt);
	st = reap(&r);
	ktap_ok(exited(st, 0) && fault_bytes(&r, buf, sizeof(buf)) == 0 &&
		mem[0x4000] == 0x2a, "write_outside_firewall_allowed");

	/* an ordinary fault: no record */
	code_access(0x20000000, true);
	spawn(&r, true, ro_opt);
	st = reap(&r);
	ktap_ok(signalled(st, SIGSEGV) && fault_bytes(&r, buf, sizeof(buf)) == 0,
		"unmapped_write_no_record");

	/* no fault descriptor: the same death, nothing written anywhere */
	code_access(RO_DA, true);
	spawn(&r, false, ro_opt);
	st = reap(&r);
	ktap_ok(signalled(st, SIGSEGV), "firewall_without_fault_fd_still_faults");

	/* no --ro: the window is writable everywhere, as before */
	spawn(&r, true, NULL);
	st = reap(&r);
	ktap_ok(exited(st, 0) && fault_bytes(&r, buf, sizeof(buf)) == 0 &&
		mem[0x8000] == 0x2a, "no_firewall_without_ro");
	mem[0x8000] = 0;

	/* SIGSEGV from outside, once the handler is in: fatal as before */
	mem[0x4000] = 0;
	code_spin();
	spawn(&r, true, ro_opt);
	ktap_ok(firmware_running(), "spinning_firmware_runs");
	kill(r.pid, SIGSEGV);
	st = reap(&r);
	ktap_ok(signalled(st, SIGSEGV) && fault_bytes(&r, buf, sizeof(buf)) == 0,
		"sent_sigsegv_still_fatal");
}

/* Options refused before the firmware runs: exit 64 (EX_USAGE). */
static void refused(const char *name, bool with_fault, const char *const *extra)
{
	struct run r;
	int st;

	code_access(DA + 0x4000, true);
	mem[0x4000] = 0;
	if (spawn(&r, with_fault, extra)) {
		ktap_ok(false, "%s", name);
		return;
	}
	st = reap(&r);
	if (r.fault >= 0)
		close(r.fault);
	ktap_ok(exited(st, 64) && mem[0x4000] == 0, "%s", name);
}

static void test_options(void)
{
	static const char *const unaligned[] = { "--ro", "0x10008800:0x1000", NULL };
	static const char *const partial[] = { "--ro", "0x10008000:0x800", NULL };
	static const char *const empty[] = { "--ro", "0x10008000:0", NULL };
	static const char *const outside[] = { "--ro", "0x30000000:0x1000", NULL };
	static const char *const straddle[] = { "--ro", "0x1001f000:0x2000", NULL };
	static const char *const syntax[] = { "--ro", "0x10008000", NULL };
	static const char *const garbage[] = { "--ro", "abc:0x1000", NULL };
	static const char *const badfd[] = { "--fault-fd", "99", NULL };
	static const char *const notnum[] = { "--fault-fd", "x", NULL };
	const char *many[2 * 17 + 1];
	int i;

	refused("ro_unaligned_refused", true, unaligned);
	refused("ro_partial_page_refused", true, partial);
	refused("ro_empty_refused", true, empty);
	refused("ro_outside_windows_refused", true, outside);
	refused("ro_straddling_window_end_refused", true, straddle);
	refused("ro_without_length_refused", true, syntax);
	refused("ro_not_a_number_refused", true, garbage);
	refused("fault_fd_not_open_refused", false, badfd);
	refused("fault_fd_not_a_number_refused", false, notnum);
	for (i = 0; i < 17; i++) {
		many[2 * i] = "--ro";
		many[2 * i + 1] = "0x10008000:0x1000";
	}
	many[34] = NULL;
	refused("seventeen_ro_refused", true, many);
	many[32] = NULL;
	code_access(RO_DA, true);
	{
		struct ampsoc_core_fault f;
		struct run r;
		int st;

		spawn(&r, true, many);
		st = reap(&r);
		ktap_ok(signalled(st, SIGSEGV) &&
			fault_bytes(&r, &f, sizeof(f)) == sizeof(f),
			"sixteen_ro_accepted");
	}
}

int main(void)
{
	ktap_plan(0);
	if (access(CORE_BIN, X_OK)) {
		printf("Bail out! %s is missing\n", CORE_BIN);
		return 1;
	}
	shm = memfd_create("runner-test", MFD_CLOEXEC);
	if (shm < 0 || ftruncate(shm, SHM_SIZE)) {
		printf("Bail out! memfd\n");
		return 1;
	}
	mem = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, shm, 0);
	if (mem == MAP_FAILED) {
		printf("Bail out! mmap\n");
		return 1;
	}
	test_faults();
	test_options();
	ktap_exit();
}
