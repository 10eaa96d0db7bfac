// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the remote-core runner (ampsoc-core) with the sample
 * firmware. The test plays the SoC model and Linux's remoteproc: it loads an
 * ELF's PT_LOAD segments into a memfd at their device addresses, forks the
 * runner on it exactly as the model does, and watches the console, the
 * trace buffer (through its own mapping, as Linux would), the doorbells and
 * how the process ends.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/elf.h>

#include <ktap_user.h>
#include <ampsoc/bootrom.h>
#include <amp/rpmsg.h>
#include <amp/rsc_table.h>
#include <amp/virtqueue.h>

#define SHM_SIZE	(64u << 20)
#define WAIT_MS		10000	/* failure guard only, never a sync point */
#define KICK_VECTOR	3

/* Core memory in the shm: M3 at offset 0, DSP IRAM/DRAM at 32/40 MiB. */
#define M3_OFF		0x0
#define DSP_IRAM_OFF	0x2000000
#define DSP_DRAM_OFF	0x2800000
#define DSP_BASE	0x20000000
#define DSP_IRAM_SIZE	0x100000
#define DSP_DRAM_DA	0x20100000
#define DSP_DRAM_SIZE	0xf00000

struct window {
	uint64_t off, da, len;
};

struct run {
	int shm;
	uint8_t *mem;
	int irq, kick, console, err;	/* our ends */
	pid_t pid;
	char cons[8192];
	size_t cons_len;
	char errbuf[2048];
};

static int shm_new(struct run *r)
{
	memset(r, 0, sizeof(*r));	/* pid 0: no runner to stop or reap */
	r->shm = memfd_create("ampsoc-shm", MFD_CLOEXEC);
	if (r->shm < 0 || ftruncate(r->shm, SHM_SIZE))
		return -1;
	r->mem = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, r->shm, 0);
	return r->mem == MAP_FAILED ? -1 : 0;
}

static void shm_free(struct run *r)
{
	munmap(r->mem, SHM_SIZE);
	close(r->shm);
}

/* Translate a device address through the windows; NULL if unmapped. */
static void *da_ptr(struct run *r, const struct window *w, int nw,
		    uint64_t da, uint64_t len)
{
	for (int i = 0; i < nw; i++)
		if (da >= w[i].da && da + len <= w[i].da + w[i].len)
			return r->mem + w[i].off + (da - w[i].da);
	return NULL;
}

struct fw {
	uint8_t *data;
	size_t size;
	uint64_t entry;
	uint32_t trace_da, trace_len;
};

static int fw_read(const char *name, struct fw *fw)
{
	char path[512];
	struct stat st;
	int fd;

	/* Sample firmware, else the test-only firmware. */
	snprintf(path, sizeof(path), "%s/%s", FW_DIR, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/%s", PROBE_DIR, name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0 || fstat(fd, &st))
		return -1;
	fw->size = st.st_size;
	fw->data = malloc(fw->size);
	if (!fw->data || read(fd, fw->data, fw->size) != (ssize_t)fw->size)
		return -1;
	close(fd);
	return 0;
}

/* What remoteproc does: copy PT_LOADs, zero the rest, find the trace. */
static int fw_load(struct run *r, struct fw *fw, const struct window *w, int nw)
{
	const struct elf64_hdr *eh = (const void *)fw->data;
	const struct elf64_shdr *sh = (const void *)(fw->data + eh->e_shoff);
	const char *names = (const char *)fw->data + sh[eh->e_shstrndx].sh_offset;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_machine != EM_X86_64)
		return -1;
	fw->entry = eh->e_entry;
	for (int i = 0; i < eh->e_phnum; i++) {
		const struct elf64_phdr *ph = (const void *)(fw->data + eh->e_phoff +
						     i * sizeof(*ph));
		uint8_t *dst;

		if (ph->p_type != PT_LOAD)
			continue;
		dst = da_ptr(r, w, nw, ph->p_paddr, ph->p_memsz);
		if (!dst)
			return -1;
		memcpy(dst, fw->data + ph->p_offset, ph->p_filesz);
		memset(dst + ph->p_filesz, 0, ph->p_memsz - ph->p_filesz);
	}
	fw->trace_len = 0;
	for (int i = 0; i < eh->e_shnum; i++) {
		const struct resource_table *t;

		if (strcmp(names + sh[i].sh_name, ".resource_table"))
			continue;
		t = (const void *)(fw->data + sh[i].sh_offset);
		for (uint32_t e = 0; e < t->num; e++) {
			const uint8_t *at = (const uint8_t *)t + t->offset[e];
			const struct fw_rsc_hdr *h = (const void *)at;
			const struct fw_rsc_trace *tr = (const void *)h->data;

			if (h->type == RSC_TRACE) {
				fw->trace_da = tr->da;
				fw->trace_len = tr->len;
			}
		}
	}
	return 0;
}

/* The loaded resource table (Linux writes back into it), via the shm. */
static uint8_t *loaded_rsc(struct run *r, struct fw *fw, const struct window *w, int nw)
{
	const struct elf64_hdr *eh = (const void *)fw->data;
	const struct elf64_shdr *sh = (const void *)(fw->data + eh->e_shoff);
	const char *names = (const char *)fw->data + sh[eh->e_shstrndx].sh_offset;

	for (int i = 0; i < eh->e_shnum; i++)
		if (!strcmp(names + sh[i].sh_name, ".resource_table"))
			return da_ptr(r, w, nw, sh[i].sh_addr, sh[i].sh_size);
	return NULL;
}

static void unclo(int fd)
{
	fcntl(fd, F_SETFD, 0);
}

/* Fork the runner as the model does; extra args are appended. */
static int spawn(struct run *r, const struct window *w, int nw, uint64_t entry,
		 bool norandom, const char *const *extra)
{
	int irq = eventfd(0, EFD_CLOEXEC), kick = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	int cons[2], err[2];
	char args[24][64];
	char *argv[40];
	int n = 0, a = 0;

	if (irq < 0 || kick < 0 || pipe2(cons, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return -1;
#define ARG(...) (snprintf(args[a], sizeof(args[a]), __VA_ARGS__), argv[n++] = args[a++])
	argv[n++] = CORE_BIN;
	ARG("--name"); ARG("m3");
	ARG("--shm-fd"); ARG("%d", r->shm);
	for (int i = 0; i < nw; i++) {
		ARG("--map");
		ARG("%#llx:%#llx:%#llx", (unsigned long long)w[i].off,
		    (unsigned long long)w[i].da, (unsigned long long)w[i].len);
	}
	ARG("--entry"); ARG("%#llx", (unsigned long long)entry);
	ARG("--irq-fd"); ARG("%d", irq);
	ARG("--kick-fd"); ARG("%d:%d", KICK_VECTOR, kick);
	ARG("--console-fd"); ARG("%d", cons[1]);
	for (; extra && *extra; extra++)
		argv[n++] = (char *)*extra;
	argv[n] = NULL;
#undef ARG
	r->pid = fork();
	if (r->pid < 0) {
		r->pid = 0;
		return -1;
	}
	if (r->pid == 0) {
		unclo(r->shm);
		unclo(irq);
		unclo(kick);
		unclo(cons[1]);
		dup2(err[1], 2);
		if (norandom)
			personality(ADDR_NO_RANDOMIZE);
		execv(CORE_BIN, argv);
		_exit(127);
	}
	close(cons[1]);
	close(err[1]);
	r->irq = irq;
	r->kick = kick;
	r->console = cons[0];
	r->err = err[0];
	r->cons_len = 0;
	r->errbuf[0] = 0;
	return 0;
}

/* Read console output until @needle shows up or the console closes. */
static bool console_wait(struct run *r, const char *needle)
{
	for (;;) {
		struct pollfd p = { .fd = r->console, .events = POLLIN };
		ssize_t n;

		r->cons[r->cons_len] = 0;
		if (strstr(r->cons, needle))
			return true;
		if (poll(&p, 1, WAIT_MS) <= 0)
			return false;
		if (r->cons_len >= sizeof(r->cons) - 1)
			return false;
		n = read(r->console, r->cons + r->cons_len,
			 sizeof(r->cons) - 1 - r->cons_len);
		if (n <= 0)
			return false;
		r->cons_len += n;
	}
}

/* Kill the runner we started, if any: the model's stop. */
static void stop(struct run *r)
{
	if (r->pid > 0)
		kill(r->pid, SIGKILL);
}

/* Wait for the runner to end; returns its wait status. */
static int reap(struct run *r)
{
	int status = -1;
	ssize_t n;

	if (r->pid <= 0 || waitpid(r->pid, &status, 0) < 0)
		return -1;
	r->pid = 0;
	n = read(r->err, r->errbuf, sizeof(r->errbuf) - 1);
	r->errbuf[n > 0 ? n : 0] = 0;
	if (r->errbuf[0])
		ktap_diag("runner stderr: %.*s", (int)strcspn(r->errbuf, "\n"), r->errbuf);
	console_wait(r, "\x01");	/* drain to EOF */
	close(r->irq);
	close(r->kick);
	close(r->console);
	close(r->err);
	return status;
}

static bool kick_wait(struct run *r)
{
	struct pollfd p = { .fd = r->kick, .events = POLLIN };
	uint64_t v;

	if (poll(&p, 1, WAIT_MS) != 1)
		return false;
	return read(r->kick, &v, sizeof(v)) == sizeof(v) && v >= 1;
}

/* A mailbox FIFO as struct vsoc_mbox_fifo lays it out. */
struct fifo {
	uint32_t head;
	uint32_t pad0[15];
	uint32_t tail;
	uint32_t overflows;
	uint32_t pad1[14];
	uint32_t msg[];
};

#define MBOX_IN_OFF	0x3000000
#define MBOX_OUT_OFF	0x3001000
#define MBOX_DEPTH	16

static const char *const mbox_args[] = {
	"--mbox-in", "0x3000000:16", "--mbox-out", "0x3001000:16:3", NULL,
};

static struct fifo *fifo_at(struct run *r, uint64_t off)
{
	return (struct fifo *)(r->mem + off);
}

/* Push as a producer does: a full FIFO counts an overflow. */
static void fifo_push(struct fifo *f, uint32_t msg)
{
	if (f->head - __atomic_load_n(&f->tail, __ATOMIC_ACQUIRE) >= MBOX_DEPTH) {
		f->overflows++;
		return;
	}
	f->msg[f->head % MBOX_DEPTH] = msg;
	__atomic_store_n(&f->head, f->head + 1, __ATOMIC_RELEASE);
}

/* Pop what the core sent; false when empty. */
static bool fifo_pop(struct fifo *f, uint32_t *msg)
{
	if (__atomic_load_n(&f->head, __ATOMIC_ACQUIRE) == f->tail)
		return false;
	*msg = f->msg[f->tail % MBOX_DEPTH];
	__atomic_store_n(&f->tail, f->tail + 1, __ATOMIC_RELEASE);
	return true;
}

static const struct window m3_win[] = {
	{ M3_OFF, AMP_CORE_MEM_BASE, AMP_CORE_MEM_SIZE },
};

static const struct window dsp_win[] = {
	{ DSP_IRAM_OFF, DSP_BASE, DSP_IRAM_SIZE },
	{ DSP_DRAM_OFF, DSP_DRAM_DA, DSP_DRAM_SIZE },
};

static void test_hello(void)
{
	struct run r;
	struct fw fw = { 0 };
	uint64_t one = 1;
	const char *trace;
	int st;

	if (!ktap_ok(shm_new(&r) == 0 && fw_read("ampsoc-hello.elf", &fw) == 0 &&
		     fw_load(&r, &fw, m3_win, 1) == 0 && fw.trace_len,
		     "hello_loads")) {
		ktap_skip("no firmware", "hello_console");
		return;
	}
	trace = (const char *)da_ptr(&r, m3_win, 1, fw.trace_da, fw.trace_len);
	ktap_ok(spawn(&r, m3_win, 1, fw.entry, false, NULL) == 0 &&
		console_wait(&r, "ampsoc-hello: waiting for interrupts\n"),
		"hello_console");
	ktap_ok(console_wait(&r, "hello from core m3 (m3 map)\n") &&
		console_wait(&r, "doorbell vector 3\n"), "hello_sees_bootrom");
	ktap_ok(trace && strnlen(trace, fw.trace_len) < fw.trace_len &&
		strstr(trace, "ampsoc-hello: hello from core m3") &&
		strstr(trace, "waiting for interrupts\n"), "hello_trace_buffer");
	/* Our doorbell wakes the core, which rings its own back. */
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 1 so far"), "doorbell_round_trip");
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 2 so far"), "doorbell_again");
	ktap_ok(strstr(trace, "interrupt, 2 so far\n"), "trace_follows");
	stop(&r);
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "stop_is_sigkill");
	free(fw.data);
	shm_free(&r);
}

static void test_dsp_two_windows(void)
{
	struct run r;
	struct fw fw = { 0 };
	int st;

	if (shm_new(&r) || fw_read("ampsoc-hello-dsp.elf", &fw) ||
	    fw_load(&r, &fw, dsp_win, 2)) {
		ktap_ok(false, "dsp_hello_two_windows");
		return;
	}
	ktap_ok(spawn(&r, dsp_win, 2, fw.entry, false, NULL) == 0 &&
		console_wait(&r, "hello from core m3 (dsp map)"),
		"dsp_hello_two_windows");
	stop(&r);
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "dsp_stopped");
	free(fw.data);
	shm_free(&r);
}

/* The probe firmware reports each boot-ROM call; check from outside. */
static void test_probe(void)
{
	uint64_t three = 3;
	struct run r;
	struct fw fw = { 0 };
	char want[300];
	int st;

	if (shm_new(&r) || fw_read("ampsoc-probe.elf", &fw) ||
	    fw_load(&r, &fw, m3_win, 1) ||
	    spawn(&r, m3_win, 1, fw.entry, false, NULL)) {
		ktap_ok(false, "rom_wait_irq_poll_and_timeout");
		return;
	}
	ktap_ok(console_wait(&r, "probe: wait0 0\n") &&
		console_wait(&r, "probe: timeout 0 late-enough\n"),
		"rom_wait_irq_poll_and_timeout");
	ktap_ok(console_wait(&r, "probe: ready\n") && write(r.irq, &three, 8) == 8 &&
		console_wait(&r, "probe: woke 3\n"), "rom_wait_irq_counts_doorbells");
	ktap_ok(console_wait(&r, "probe: bad vector -22\n") &&
		console_wait(&r, "probe: ring 0\n") && kick_wait(&r),
		"rom_doorbell_known_and_unknown_vector");
	memset(want, 'x', 256);
	want[256] = '\n';
	want[257] = 0;
	ktap_ok(console_wait(&r, "\na?b\tc?\n") && console_wait(&r, want) &&
		!strstr(r.cons, "xxxxxxxxxx\nx"), "rom_console_sanitised_and_cut");
	ktap_ok(console_wait(&r, "probe: watchdog survived 0\n"), "rom_watchdog_petted_survives");
	ktap_ok(console_wait(&r, "probe: monotonic yes\n"), "rom_time_monotonic");
	st = reap(&r);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 9, "main_return_is_exit_status");
	free(fw.data);
	shm_free(&r);
}

/* A malformed resource table stops the core before main(), saying why. */
static void test_bad_rsc(void)
{
	struct run r;
	struct fw fw = { 0 };
	int st;

	if (shm_new(&r) || fw_read("ampsoc-badrsc.elf", &fw) ||
	    fw_load(&r, &fw, m3_win, 1) ||
	    spawn(&r, m3_win, 1, fw.entry, false, NULL)) {
		ktap_ok(false, "bad_resource_table_stops_before_main");
		return;
	}
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT &&
		strstr(r.cons, "resource table: entry 0 at offset 4 is misplaced\n") &&
		!strstr(r.cons, "reached the program"), "bad_resource_table_stops_before_main");
	free(fw.data);
	shm_free(&r);
}

static void test_crash(const char *elf, const char *line, int sig, const char *name)
{
	struct run r;
	struct fw fw = { 0 };
	const char *trace;
	int st;

	if (shm_new(&r) || fw_read(elf, &fw) || fw_load(&r, &fw, m3_win, 1) ||
	    spawn(&r, m3_win, 1, fw.entry, false, NULL)) {
		ktap_ok(false, "%s", name);
		return;
	}
	st = reap(&r);
	trace = (const char *)da_ptr(&r, m3_win, 1, fw.trace_da, fw.trace_len);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == sig && strstr(r.cons, line) &&
		trace && strstr(trace, line), "%s", name);
	if (!WIFSIGNALED(st) || WTERMSIG(st) != sig)
		ktap_diag("wait status %#x, console '%s'", st, r.cons);
	free(fw.data);
	shm_free(&r);
}

/* Run @code (x86-64 bytes) as a firmware at the M3's base. */
static int run_code(const uint8_t *code, size_t len, const char *const *extra)
{
	struct run r;
	int st;

	if (shm_new(&r))
		return -1;
	memcpy(r.mem, code, len);
	if (spawn(&r, m3_win, 1, AMP_CORE_MEM_BASE, false, extra))
		return -1;
	st = reap(&r);
	shm_free(&r);
	return st;
}

static void test_code(void)
{
	static const char *const nosandbox[] = { "--no-sandbox", NULL };
	/* mov $39, %eax (getpid); syscall; ud2 */
	static const uint8_t getpid_code[] = {
		0xb8, 0x27, 0, 0, 0, 0x0f, 0x05, 0x0f, 0x0b,
	};
	/* sub $8,%rsp; mov exit(%rdi),%rax; mov $code,%edi; call *%rax */
	uint8_t exit_code[] = {
		0x48, 0x83, 0xec, 0x08,
		0x48, 0x8b, 0x87, 0, 0, 0, 0,
		0xbf, 0, 0, 0, 0,
		0xff, 0xd0, 0x0f, 0x0b,
	};
	uint32_t off = offsetof(struct ampsoc_bootrom, exit), code;
	int st;

	st = run_code(getpid_code, sizeof(getpid_code), NULL);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS, "sandbox_kills_syscall");
	st = run_code(getpid_code, sizeof(getpid_code), nosandbox);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGILL, "no_sandbox_allows_syscall");

	memcpy(exit_code + 7, &off, 4);
	code = 5;
	memcpy(exit_code + 12, &code, 4);
	st = run_code(exit_code, sizeof(exit_code), NULL);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 5, "rom_exit_status");
	code = 64 + 6;
	memcpy(exit_code + 12, &code, 4);
	st = run_code(exit_code, sizeof(exit_code), NULL);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 6, "rom_exit_status_masked");
	off = offsetof(struct ampsoc_bootrom, abort);
	memcpy(exit_code + 7, &off, 4);
	st = run_code(exit_code, sizeof(exit_code), NULL);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "rom_abort_is_sigabrt");
}

/* Setup errors: the firmware never runs, the runner exits 64 or 71. */
static void bad_setup(const struct window *w, int nw, uint64_t entry,
		      bool norandom, int want, const char *needle,
		      const char *name)
{
	struct run r;
	int st;

	if (shm_new(&r) || spawn(&r, w, nw, entry, norandom, NULL)) {
		ktap_ok(false, "%s", name);
		return;
	}
	st = reap(&r);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == want &&
		strstr(r.errbuf, needle) && r.cons_len == 0, "%s", name);
	shm_free(&r);
}

static void test_bad_setup(void)
{
	const struct window unaligned[] = { { 0, 0x10000800, 0x1000 } };
	const struct window overlap[] = {
		{ 0, 0x10000000, 0x2000 }, { 0x4000, 0x10001000, 0x1000 },
	};
	const struct window outside[] = { { SHM_SIZE - 0x1000, 0x10000000, 0x2000 } };
	const struct window wrap[] = { { 0, 0xfffffffffffff000ull, 0x1000 } };
	const struct window low[] = { { 0, 0x0, 0x1000 } };
	const struct window empty[] = { { 0, 0x10000000, 0 } };
	/* With ASLR off, a PIE runner sits at 0x555555554000. */
	const struct window self[] = { { 0, 0x555555554000ull, 0x1000 } };

	bad_setup(unaligned, 1, 0x10000800, false, 64, "not page aligned", "reject_unaligned");
	bad_setup(overlap, 2, 0x10000000, false, 64, "overlap", "reject_overlap");
	bad_setup(outside, 1, 0x10000000, false, 64, "beyond the", "reject_beyond_shm");
	bad_setup(wrap, 1, 0xfffffffffffff000ull, false, 64, "address space", "reject_wrap");
	bad_setup(low, 1, 0, false, 64, "address space", "reject_low_address");
	bad_setup(empty, 1, 0x10000000, false, 64, "is empty", "reject_empty_window");
	bad_setup(m3_win, 1, 0x30000000, false, 64, "in no window", "reject_entry_outside");
	bad_setup(self, 1, 0x555555554000ull, true, 71, "collides with this process",
		  "reject_collision_with_runner");
}

static void test_bad_args(void)
{
	struct run r;
	int st, pfd[2];
	pid_t pid;
	char fd[16];

	/* An irq fd that is not an eventfd. */
	if (shm_new(&r) || pipe(pfd)) {
		ktap_ok(false, "reject_irq_not_eventfd");
		return;
	}
	snprintf(fd, sizeof(fd), "%d", pfd[0]);
	pid = fork();
	if (pid == 0) {
		char shm[16], cons[16];

		unclo(r.shm);
		snprintf(shm, sizeof(shm), "%d", r.shm);
		snprintf(cons, sizeof(cons), "%d", pfd[1]);
		close(2);
		execl(CORE_BIN, CORE_BIN, "--name", "x", "--shm-fd", shm,
		      "--map", "0:0x10000000:0x1000", "--entry", "0x10000000",
		      "--irq-fd", fd, "--console-fd", cons, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 64, "reject_irq_not_eventfd");
	pid = fork();
	if (pid == 0) {
		close(2);
		execl(CORE_BIN, CORE_BIN, "--name", "x", "--bogus", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 64, "reject_unknown_option");
	close(pfd[0]);
	close(pfd[1]);
	shm_free(&r);
}

static void test_mbox(void)
{
	struct fifo *in, *out;
	uint64_t one = 1;
	uint32_t msg = 0;
	struct run r;
	struct fw fw = { 0 };
	int st;

	if (shm_new(&r) || fw_read("ampsoc-hello.elf", &fw) ||
	    fw_load(&r, &fw, m3_win, 1) ||
	    spawn(&r, m3_win, 1, fw.entry, false, mbox_args) ||
	    !console_wait(&r, "waiting for interrupts")) {
		ktap_ok(false, "mbox_echo_request_answered");
		return;
	}
	in = fifo_at(&r, MBOX_IN_OFF);
	out = fifo_at(&r, MBOX_OUT_OFF);
	fifo_push(in, AMPSOC_MBOX_MSG_ECHO_REQUEST);
	fifo_push(in, 7);	/* a vring index: consumed, no answer */
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 1 so far") && in->tail == 2 &&
		fifo_pop(out, &msg) && msg == AMPSOC_MBOX_MSG_ECHO_REPLY &&
		!fifo_pop(out, &msg), "mbox_echo_request_answered");

	/* Linux corrupts its index: the core refuses the FIFO, keeps going. */
	in->head = in->tail + 1000;
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 2 so far") && in->tail == 2,
		"mbox_corrupt_index_refused");

	/* A full outgoing FIFO: the reply is dropped and counted. */
	in->head = in->tail;
	out->tail = out->head - MBOX_DEPTH;
	fifo_push(in, AMPSOC_MBOX_MSG_ECHO_REQUEST);
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 3 so far") && in->tail == in->head &&
		out->overflows == 1 && out->head - out->tail == MBOX_DEPTH,
		"mbox_full_counts_overflow");
	stop(&r);
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "mbox_core_stopped");
	free(fw.data);
	shm_free(&r);
}

static void test_mbox_bad_args(void)
{
	static const char *const bad_depth[] = { "--mbox-in", "0x3000000:12", NULL };
	static const char *const bad_vector[] = { "--mbox-out", "0x3001000:16:9", NULL };
	static const char *const in_window[] = { "--mbox-in", "0x1000:16", NULL };
	struct run r;
	int st1 = -1, st2 = -1, st3 = -1;

	if (!shm_new(&r)) {
		if (!spawn(&r, m3_win, 1, AMP_CORE_MEM_BASE, false, bad_depth))
			st1 = reap(&r);
		if (!spawn(&r, m3_win, 1, AMP_CORE_MEM_BASE, false, bad_vector))
			st2 = reap(&r);
		if (!spawn(&r, m3_win, 1, AMP_CORE_MEM_BASE, false, in_window))
			st3 = reap(&r);
		shm_free(&r);
	}
	ktap_ok(WIFEXITED(st1) && WEXITSTATUS(st1) == 64 &&
		WIFEXITED(st2) && WEXITSTATUS(st2) == 64 &&
		WIFEXITED(st3) && WEXITSTATUS(st3) == 64, "mbox_bad_args_rejected");
}

/* ---- Linux's virtio_rpmsg_bus, played against the echo firmware ------- */

#define RING_NUM	256
#define RING_ALIGN	16
#define VRING0_DA	0x10200000u
#define VRING1_DA	0x10210000u
#define RBUF_DA		0x10220000u
#define RBUF		512
#define MY_ADDR		0x400
#define ECHO_NSVC	6	/* services ampsoc-rpmsg-echo announces */

struct dring {
	struct amp_vring_desc *desc;
	struct amp_vring_avail *avail;
	struct amp_vring_used *used;
	uint16_t avail_idx, last_used;
};

static void dring_init(struct run *r, struct dring *q, uint32_t da)
{
	uint8_t *p = da_ptr(r, m3_win, 1, da, amp_vring_size(RING_NUM, RING_ALIGN));
	size_t avail_end = 16 * RING_NUM + 2 * (3 + RING_NUM);

	memset(p, 0, amp_vring_size(RING_NUM, RING_ALIGN));
	q->desc = (void *)p;
	q->avail = (void *)(p + 16 * RING_NUM);
	q->used = (void *)(p + ((avail_end + RING_ALIGN - 1) & ~(size_t)(RING_ALIGN - 1)));
	q->avail_idx = 0;
	q->last_used = 0;
}

static void dring_add(struct dring *q, uint16_t id, uint32_t da, uint32_t len,
		      uint16_t flags)
{
	q->desc[id].addr = da;
	q->desc[id].len = len;
	q->desc[id].flags = flags;
	q->avail->ring[q->avail_idx % RING_NUM] = id;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	q->avail->idx = ++q->avail_idx;
}

/* Next used element, or false. */
static bool dring_used(struct dring *q, uint32_t *id, uint32_t *len)
{
	if (__atomic_load_n(&q->used->idx, __ATOMIC_ACQUIRE) == q->last_used)
		return false;
	*id = q->used->ring[q->last_used % RING_NUM].id;
	*len = q->used->ring[q->last_used % RING_NUM].len;
	q->last_used++;
	return true;
}

AMP_RSC_VDEV_TYPE(core_vdev, 2, 0);

struct echo_svc {
	const char *name;
	uint32_t addr;
};

static void test_rpmsg_echo(void)
{
	struct echo_svc svc[] = {
		{ "rpmsg-client-sample", 0 }, { "rpmsg-raw", 0 }, { "ampsoc-echo", 0 },
		{ "ampsoc-sink", 0 }, { "ampsoc-source", 0 }, { "ampsoc-later", 0 },
	};
	struct dring rx, tx;	/* Linux's rx (vring 0) and tx (vring 1) */
	struct core_vdev *vdev = NULL;
	unsigned int nsmsgs = 0, sent = 0, got = 0, bad = 0, inflight = 0;
	unsigned int kick_words[3] = { 0 };
	bool tx_busy[RING_NUM] = { false };
	uint64_t one = 1;
	uint8_t *rsc;
	struct run r;
	struct fw fw = { 0 };
	int st;

	rsc = NULL;
	if (!shm_new(&r) && !fw_read("ampsoc-rpmsg-echo.elf", &fw) &&
	    !fw_load(&r, &fw, m3_win, 1))
		rsc = loaded_rsc(&r, &fw, m3_win, 1);
	if (!rsc) {
		ktap_ok(false, "rpmsg_echo_waits_for_linux");
		return;
	}
	for (uint32_t i = 0; i < ((struct resource_table *)rsc)->num; i++) {
		uint8_t *e = rsc + ((struct resource_table *)rsc)->offset[i];

		if (*(uint32_t *)e == RSC_VDEV)
			vdev = (void *)e;
	}
	ktap_ok(vdev && vdev->id == 7 && vdev->dfeatures == 1 &&
		vdev->num_of_vrings == 2 && vdev->vring[0].num == RING_NUM &&
		spawn(&r, m3_win, 1, fw.entry, false, mbox_args) == 0 &&
		console_wait(&r, "waiting for Linux"), "rpmsg_echo_waits_for_linux");
	if (!vdev)
		goto out;

	/* What remoteproc and virtio_rpmsg_bus do, in their order. */
	dring_init(&r, &rx, VRING0_DA);
	dring_init(&r, &tx, VRING1_DA);
	vdev->vring[0].da = VRING0_DA;
	vdev->vring[1].da = VRING1_DA;
	vdev->vring[0].notifyid = 5;	/* as Linux's idr hands them out */
	vdev->vring[1].notifyid = 6;
	vdev->gfeatures = 1;
	for (uint16_t i = 0; i < RING_NUM; i++)
		dring_add(&rx, i, RBUF_DA + i * RBUF, RBUF, AMP_VRING_DESC_F_WRITE);
	__atomic_store_n(&vdev->status, AMP_VIRTIO_STATUS_ACKNOWLEDGE |
			 AMP_VIRTIO_STATUS_DRIVER | AMP_VIRTIO_STATUS_FEATURES_OK |
			 AMP_VIRTIO_STATUS_DRIVER_OK, __ATOMIC_RELEASE);
	if (write(r.irq, &one, 8) != 8)
		goto out;

	/* Six announcements on vring 0, to address 53. */
	while (nsmsgs < ECHO_NSVC && kick_wait(&r)) {
		uint32_t id, len, word;

		while (fifo_pop(fifo_at(&r, MBOX_OUT_OFF), &word))
			kick_words[word == 5 ? 0 : word == 6 ? 1 : 2]++;
		while (dring_used(&rx, &id, &len)) {
			const struct amp_rpmsg_hdr *h =
				da_ptr(&r, m3_win, 1, RBUF_DA + id * RBUF, RBUF);
			const struct amp_rpmsg_ns_msg *ns = (const void *)h->data;

			for (unsigned int k = 0; k < ECHO_NSVC; k++)
				if (h->dst == 53 && h->len == 40 && len == 56 &&
				    !strcmp(ns->name, svc[k].name) && ns->flags == 0 &&
				    ns->addr == h->src)
					svc[k].addr = ns->addr;
			nsmsgs++;
			dring_add(&rx, id, RBUF_DA + id * RBUF, RBUF, AMP_VRING_DESC_F_WRITE);
		}
	}
	ktap_ok(nsmsgs == ECHO_NSVC && svc[0].addr >= 1024 && svc[1].addr >= 1024 &&
		svc[2].addr >= 1024 && svc[3].addr >= 1024 && svc[4].addr >= 1024 &&
		svc[5].addr >= 1024 &&
		console_wait(&r, "mtu 496, name service on, flow control off, buffers by device"),
		"rpmsg_echo_announces_six_services");

	/* Echo integrity: random sizes, rotating services, up to 16 in flight. */
	srand(11);
	while (got < 3000) {
		uint32_t id, len, word;

		while (sent < 3000 && inflight < 16) {
			uint16_t n = rand() % 497, slot;
			struct amp_rpmsg_hdr *h;

			for (slot = 0; slot < RING_NUM && tx_busy[slot]; slot++)
				;
			if (slot == RING_NUM)
				break;
			tx_busy[slot] = true;
			h = da_ptr(&r, m3_win, 1, RBUF_DA + (RING_NUM + slot) * RBUF, RBUF);
			h->src = MY_ADDR;
			h->dst = svc[sent % 3].addr;
			h->reserved = 0;
			h->len = n;
			h->flags = 0;
			for (uint16_t j = 0; j < n; j++)
				h->data[j] = (uint8_t)(sent * 7 + j);
			dring_add(&tx, slot, RBUF_DA + (RING_NUM + slot) * RBUF, 16 + n, 0);
			sent++;
			inflight++;
		}
		fifo_push(fifo_at(&r, MBOX_IN_OFF), 6);	/* Linux kicks vring 1 */
		if (write(r.irq, &one, 8) != 8 || !kick_wait(&r))
			break;
		while (fifo_pop(fifo_at(&r, MBOX_OUT_OFF), &word))
			kick_words[word == 5 ? 0 : word == 6 ? 1 : 2]++;
		while (dring_used(&tx, &id, &len))
			if (id < RING_NUM)
				tx_busy[id] = false;
		while (dring_used(&rx, &id, &len)) {
			const struct amp_rpmsg_hdr *h =
				da_ptr(&r, m3_win, 1, RBUF_DA + id * RBUF, RBUF);
			bool good = id < RING_NUM && h->dst == MY_ADDR &&
				    h->src == svc[got % 3].addr && len == 16u + h->len;

			for (uint16_t j = 0; good && j < h->len; j++)
				good = h->data[j] == (uint8_t)(got * 7 + j);
			bad += !good;
			got++;
			inflight--;
			dring_add(&rx, id, RBUF_DA + id * RBUF, RBUF, AMP_VRING_DESC_F_WRITE);
		}
	}
	ktap_diag("%u sent, %u echoed, %u bad; kicks: %u vring0, %u vring1, %u other",
		  sent, got, bad, kick_words[0], kick_words[1], kick_words[2]);
	ktap_ok(got == 3000 && bad == 0, "rpmsg_echo_through_the_runner");
	ktap_ok(kick_words[0] > 0 && kick_words[1] > 0 && kick_words[2] == 0 &&
		fifo_at(&r, MBOX_OUT_OFF)->overflows == 0,
		"rpmsg_kicks_carry_notifyids_in_mailbox");
out:
	stop(&r);
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "rpmsg_echo_stopped");
	free(fw.data);
	shm_free(&r);
}

/* ---- the misbehaving remote, seen from Linux's side ------------------- */

/*
 * Linux's buffer size and negotiated features for the next link_up(), and
 * where its buffers are: with lpa set, in the firmware's vdev0buffer
 * carveout, whose pa Linux writes back as lpa, and descriptors carry
 * physical addresses.
 */
static uint32_t lbuf = RBUF, lfeatures = 1, lpa;
static uint32_t lbase = RBUF_DA;

#define CARVE_DA	0x10300000u

/* What Linux writes in a descriptor for the buffer at device address @da. */
static uint32_t desc_addr(uint32_t da)
{
	return lpa ? lpa + (da - CARVE_DA) : da;
}

struct got_msg {
	uint32_t id, used_len;
	struct amp_rpmsg_hdr hdr;
	uint8_t data[48];
};

/* Load @elf, start it, and bring the rpmsg link up as Linux would. */
static struct core_vdev *link_up(struct run *r, struct fw *fw, const char *elf,
				 struct dring *rx, struct dring *tx)
{
	struct core_vdev *vdev = NULL;
	struct resource_table *t;
	uint64_t one = 1;
	uint8_t *rsc = NULL;

	if (shm_new(r))
		return NULL;
	if (!fw_read(elf, fw) && !fw_load(r, fw, m3_win, 1))
		rsc = loaded_rsc(r, fw, m3_win, 1);
	if (!rsc || spawn(r, m3_win, 1, fw->entry, false, NULL))
		return NULL;
	t = (void *)rsc;
	for (uint32_t i = 0; i < t->num; i++)
		if (*(uint32_t *)(rsc + t->offset[i]) == RSC_VDEV)
			vdev = (void *)(rsc + t->offset[i]);
	if (!vdev)
		return NULL;
	dring_init(r, rx, VRING0_DA);
	dring_init(r, tx, VRING1_DA);
	vdev->vring[0].da = VRING0_DA;
	vdev->vring[1].da = VRING1_DA;
	vdev->gfeatures = lfeatures;
	for (uint32_t i = 0; lpa && i < t->num; i++) {
		struct amp_rsc_carveout *c = (void *)(rsc + t->offset[i]);

		if (c->type == RSC_CARVEOUT && !strcmp((char *)c->c.name, "vdev0buffer"))
			c->c.pa = lpa;
	}
	for (uint16_t i = 0; i < RING_NUM; i++)
		dring_add(rx, i, desc_addr(lbase + i * lbuf), lbuf, AMP_VRING_DESC_F_WRITE);
	__atomic_store_n(&vdev->status, AMP_VIRTIO_STATUS_DRIVER_OK, __ATOMIC_RELEASE);
	if (write(r->irq, &one, 8) != 8)
		return NULL;
	return vdev;
}

/* Collect @n used buffers of Linux's rx ring, whatever they claim. */
static unsigned int collect(struct run *r, struct dring *rx, struct got_msg *m,
			    unsigned int n)
{
	unsigned int got = 0;
	bool reposted = false;
	uint64_t one = 1;

	while (got < n) {
		uint32_t id, len;

		if (!dring_used(rx, &id, &len)) {
			/* As Linux, ring the core once buffers are back. */
			if (reposted && write(r->irq, &one, 8) != 8)
				break;
			reposted = false;
			if (!kick_wait(r))
				break;
			continue;
		}
		m[got].id = id;
		m[got].used_len = len;
		if (id < RING_NUM) {
			const struct amp_rpmsg_hdr *h =
				da_ptr(r, m3_win, 1, lbase + id * lbuf, lbuf);

			m[got].hdr = *h;
			memcpy(m[got].data, h->data, sizeof(m[got].data));
			dring_add(rx, id, desc_addr(lbase + id * lbuf), lbuf,
				  AMP_VRING_DESC_F_WRITE);
			reposted = true;
		}
		got++;
	}
	return got;
}

/* Linux sends @text to @dst; true if the echo comes back intact. */
static bool echo_works(struct run *r, struct dring *rx, struct dring *tx,
		       uint32_t dst, const char *text)
{
	struct amp_rpmsg_hdr *h = da_ptr(r, m3_win, 1, lbase + RING_NUM * lbuf, lbuf);
	uint64_t one = 1;
	struct got_msg m;
	size_t n = strlen(text);

	h->src = MY_ADDR;
	h->dst = dst;
	h->reserved = 0;
	h->len = n;
	h->flags = 0;
	memcpy(h->data, text, n);
	dring_add(tx, 0, desc_addr(lbase + RING_NUM * lbuf), 16 + n, 0);
	return write(r->irq, &one, 8) == 8 && collect(r, rx, &m, 1) == 1 &&
	       m.hdr.dst == MY_ADDR && m.hdr.src == dst && m.hdr.len == n &&
	       m.used_len == 16 + n &&
	       !memcmp(m.data, text, n < sizeof(m.data) ? n : sizeof(m.data));
}

/* Linux sends one message from MY_ADDR, in tx slot @slot of the pool. */
static bool linux_send(struct run *r, struct dring *tx, uint16_t slot, uint32_t dst,
		       const void *data, uint16_t len)
{
	struct amp_rpmsg_hdr *h =
		da_ptr(r, m3_win, 1, lbase + (RING_NUM + slot) * lbuf, lbuf);
	uint64_t one = 1;

	h->src = MY_ADDR;
	h->dst = dst;
	h->reserved = 0;
	h->len = len;
	h->flags = 0;
	memcpy(h->data, data, len);
	dring_add(tx, slot, desc_addr(lbase + (RING_NUM + slot) * lbuf), 16 + len, 0);
	return write(r->irq, &one, 8) == 8;
}

static void test_bad_remote(const char *mode)
{
	struct got_msg m[101];
	struct core_vdev *vdev;
	struct dring rx, tx;
	char elf[64];
	uint32_t echo_addr;
	struct run r;
	struct fw fw = { 0 };
	bool ok = false;
	unsigned int n;
	int st;

	snprintf(elf, sizeof(elf), "ampsoc-rpmsg-bad-%s.elf", mode);
	vdev = link_up(&r, &fw, elf, &rx, &tx);
	if (!vdev || collect(&r, &rx, m, 1) != 1 || m[0].hdr.dst != 53) {
		ktap_ok(false, "bad_remote_%s", mode);
		goto out;
	}
	echo_addr = ((struct amp_rpmsg_ns_msg *)m[0].data)->addr;
	if (!strcmp(mode, "badlen")) {
		n = collect(&r, &rx, m, 3);
		ok = n == 3 && m[0].hdr.len == 400 && m[0].used_len == 24 &&
		     m[1].hdr.len == 8 && m[1].used_len == 4096 &&
		     m[2].hdr.len == 8 && m[2].used_len == 4 &&
		     echo_works(&r, &rx, &tx, echo_addr, "still there");
	} else if (!strcmp(mode, "badid")) {
		ok = collect(&r, &rx, m, 1) == 1 && m[0].id == RING_NUM + 5;
	} else if (!strcmp(mode, "nsbad")) {
		const struct amp_rpmsg_ns_msg *ns = (const void *)m[0].data;

		n = collect(&r, &rx, m, 3);
		ok = n == 3 && m[0].hdr.dst == 53 && m[0].hdr.len == 40 &&
		     !memchr(ns->name, 0, sizeof(ns->name)) &&
		     m[1].hdr.len == 39 && m[2].hdr.len == 40 && ns[0].flags == 0 &&
		     ((const struct amp_rpmsg_ns_msg *)m[2].data)->flags == 7 &&
		     echo_works(&r, &rx, &tx, echo_addr, "still there");
	} else if (!strcmp(mode, "badidx")) {
		uint16_t before = rx.last_used, ahead;

		do
			ahead = __atomic_load_n(&rx.used->idx, __ATOMIC_ACQUIRE) - before;
		while (ahead != RING_NUM + 3 && kick_wait(&r));
		ok = ahead == RING_NUM + 3;
	} else if (!strcmp(mode, "nsflood")) {
		static struct got_msg flood[1000];
		char want[32];

		n = collect(&r, &rx, flood, 1000);
		ok = n == 1000;
		for (unsigned int i = 0; ok && i < n; i++) {
			const struct amp_rpmsg_ns_msg *ns = (const void *)flood[i].data;

			snprintf(want, sizeof(want), "ampsoc-flood-%u", i);
			ok = flood[i].hdr.dst == 53 && flood[i].hdr.len == 40 &&
			     !strcmp(ns->name, want) && ns->addr == 5000 + i && !ns->flags;
		}
		ok = ok && echo_works(&r, &rx, &tx, echo_addr, "still there");
	} else if (!strcmp(mode, "flood")) {
		static struct got_msg flood[2000];
		uint32_t fl;
		char want[16];

		/* ampsoc-flood's announcement, then Linux speaks first. */
		ok = collect(&r, &rx, m, 1) == 1 && m[0].hdr.dst == 53;
		fl = ((struct amp_rpmsg_ns_msg *)m[0].data)->addr;
		ok = ok && linux_send(&r, &tx, 1, fl, "go", 2) &&
		     collect(&r, &rx, flood, 2000) == 2000;
		for (unsigned int i = 0; ok && i < 2000; i++) {
			snprintf(want, sizeof(want), "flood %u", i);
			ok = flood[i].hdr.src == fl && flood[i].hdr.dst == MY_ADDR &&
			     flood[i].hdr.len == 64 && !strcmp((char *)flood[i].data, want);
		}
	} else if (!strcmp(mode, "unknown")) {
		n = collect(&r, &rx, m, 100);
		ok = n == 100;
		for (unsigned int i = 0; ok && i < n; i++)
			ok = m[i].hdr.dst == (i & 1 ? 0x17777u : 0x7777u) &&
			     m[i].hdr.src == echo_addr;
		ok = ok && echo_works(&r, &rx, &tx, echo_addr, "still there");
	}
	ktap_ok(ok, "bad_remote_%s", mode);
out:
	stop(&r);
	st = reap(&r);
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
		ktap_diag("%s ended with status %#x", mode, st);
	free(fw.data);
	shm_free(&r);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* A request to ampsoc-later: u32 delay in ms, then the payload. */
static bool later_send(struct run *r, struct dring *tx, uint16_t slot,
		       uint32_t dst, uint32_t ms, const char *text)
{
	uint8_t req[32];
	size_t n = strlen(text);

	memcpy(req, &ms, sizeof(ms));
	memcpy(req + sizeof(ms), text, n);
	return linux_send(r, tx, slot, dst, req, sizeof(ms) + n);
}

/* One reply from @src carrying @text. */
static bool got_text(const struct got_msg *m, uint32_t src, const char *text)
{
	size_t n = strlen(text);

	return m->hdr.src == src && m->hdr.len == n && !memcmp(m->data, text, n);
}

/* The echo firmware's timed and one-way services: later, sink and source. */
static void test_rpmsg_sink_source(void)
{
	static struct got_msg m[600];
	uint32_t sink = 0, source = 0, later = 0, req[2] = { 500, 496 };
	uint64_t t0, took = 0;
	struct dring rx, tx;
	struct run r;
	struct fw fw = { 0 };
	uint8_t payload[100];
	unsigned int n, bad = 0;
	bool ok;

	if (!link_up(&r, &fw, "ampsoc-rpmsg-echo.elf", &rx, &tx) ||
	    collect(&r, &rx, m, ECHO_NSVC) != ECHO_NSVC) {
		ktap_ok(false, "rpmsg_sink_counts");
		ktap_ok(false, "rpmsg_source_sends");
		ktap_ok(false, "rpmsg_later_answers_when_due");
		ktap_ok(false, "rpmsg_later_drops_a_second_request");
		goto out;
	}
	for (n = 0; n < ECHO_NSVC; n++) {
		const struct amp_rpmsg_ns_msg *ns = (const void *)m[n].data;

		if (!strcmp(ns->name, "ampsoc-sink"))
			sink = ns->addr;
		if (!strcmp(ns->name, "ampsoc-source"))
			source = ns->addr;
		if (!strcmp(ns->name, "ampsoc-later"))
			later = ns->addr;
	}
	/* 100 messages of 100 bytes, then an empty one asks for the count. */
	memset(payload, 0x5a, sizeof(payload));
	ok = sink && source;
	for (n = 0; ok && n < 100; n++)
		ok = linux_send(&r, &tx, n, sink, payload, sizeof(payload));
	ok = ok && linux_send(&r, &tx, 100, sink, "", 0) && collect(&r, &rx, m, 1) == 1 &&
	     m[0].hdr.src == sink && m[0].hdr.len == strlen("sink 100 messages 10000 bytes") &&
	     !memcmp(m[0].data, "sink 100 messages 10000 bytes", m[0].hdr.len);
	ktap_ok(ok, "rpmsg_sink_counts");

	/* 500 messages of 496 bytes come back in order, zero-copy. */
	ok = source && linux_send(&r, &tx, 101, source, req, sizeof(req)) &&
	     collect(&r, &rx, m, 500) == 500;
	for (n = 0; ok && n < 500; n++) {
		uint32_t seq;

		memcpy(&seq, m[n].data, 4);
		if (seq != n || m[n].hdr.len != 496 || m[n].used_len != 512 ||
		    m[n].hdr.src != source || m[n].data[40] != (uint8_t)(n + 40))
			bad++;
	}
	ktap_diag("source: 500 messages, %u bad", bad);
	ktap_ok(ok && !bad, "rpmsg_source_sends");

	/*
	 * A reply 200 ms later, and nothing for a second request made while
	 * the first is pending: the next reply is the third's.
	 */
	t0 = mono_ns();
	ok = later && later_send(&r, &tx, 102, later, 200, "late") &&
	     later_send(&r, &tx, 103, later, 0, "dropped") &&
	     collect(&r, &rx, m, 1) == 1;
	if (ok)
		took = mono_ns() - t0;
	ktap_diag("later: answered after %llu ms", (unsigned long long)(took / 1000000));
	ktap_ok(ok && got_text(&m[0], later, "late") && took >= 200000000ull,
		"rpmsg_later_answers_when_due");
	ok = ok && later_send(&r, &tx, 104, later, 0, "again") &&
	     collect(&r, &rx, m, 1) == 1 && got_text(&m[0], later, "again");
	ktap_ok(ok, "rpmsg_later_drops_a_second_request");
out:
	stop(&r);
	reap(&r);
	free(fw.data);
	shm_free(&r);
}

/* ampsoc-rpmsg-echo-big with F_BUFSZ and F_FC negotiated: 2 KiB messages. */
static void test_rpmsg_big(void)
{
	static struct got_msg m[8];
	struct dring rx, tx;
	struct run r;
	struct fw fw = { 0 };
	uint32_t echo = 0;
	char text[2033];
	bool ok = false;

	lbuf = 2048;
	lfeatures = 1 | 1u << AMP_VIRTIO_RPMSG_F_BUFSZ | 1u << AMP_VIRTIO_RPMSG_F_FC;
	if (link_up(&r, &fw, "ampsoc-rpmsg-echo-big.elf", &rx, &tx) &&
	    collect(&r, &rx, m, ECHO_NSVC) == ECHO_NSVC &&
	    console_wait(&r, "link up, mtu 2032, name service on, flow control on")) {
		for (unsigned int n = 0; n < ECHO_NSVC; n++)
			if (!strcmp(((struct amp_rpmsg_ns_msg *)m[n].data)->name, "ampsoc-echo"))
				echo = ((struct amp_rpmsg_ns_msg *)m[n].data)->addr;
		memset(text, 'b', sizeof(text) - 1);
		text[sizeof(text) - 1] = 0;
		/* got_msg keeps 48 bytes: the echo's length and start prove it. */
		ok = echo && echo_works(&r, &rx, &tx, echo, text);
	}
	ktap_ok(ok, "rpmsg_big_buffers_negotiated");
	stop(&r);
	reap(&r);
	free(fw.data);
	shm_free(&r);
	lbuf = RBUF;
	lfeatures = 1;
}

/* Buffers in the vdev0buffer carveout, addressed physically as Linux does. */
static void test_rpmsg_phys(void)
{
	static struct got_msg m[8];
	struct dring rx, tx;
	struct run r;
	struct fw fw = { 0 };
	uint32_t echo = 0;
	bool ok = false;

	lpa = 0xc0000000;
	lbase = CARVE_DA;
	if (link_up(&r, &fw, "ampsoc-rpmsg-echo.elf", &rx, &tx) &&
	    collect(&r, &rx, m, ECHO_NSVC) == ECHO_NSVC &&
	    console_wait(&r, "buffers by physical address")) {
		for (unsigned int n = 0; n < ECHO_NSVC; n++)
			if (!strcmp(((struct amp_rpmsg_ns_msg *)m[n].data)->name, "ampsoc-echo"))
				echo = ((struct amp_rpmsg_ns_msg *)m[n].data)->addr;
		ok = echo && echo_works(&r, &rx, &tx, echo, "by physical address");
	}
	ktap_ok(ok, "rpmsg_buffers_by_physical_address");
	stop(&r);
	reap(&r);
	free(fw.data);
	shm_free(&r);
	lpa = 0;
	lbase = RBUF_DA;
}

int main(void)
{
	if (access(CORE_BIN, X_OK)) {
		ktap_plan(1);
		ktap_skip("runner not built", "runner");
		return ktap_exit();
	}
	ktap_plan(56);
	test_hello();
	test_dsp_two_windows();
	test_probe();
	test_bad_rsc();
	test_crash("ampsoc-crash.elf", "ampsoc-crash: core m3 about to crash\n",
		   SIGSEGV, "crash_is_sigsegv_after_trace");
	test_crash("ampsoc-hang.elf", "ampsoc-hang: core m3 hangs with the watchdog armed\n",
		   SIGALRM, "watchdog_is_sigalrm_after_trace");
	test_code();
	test_mbox();
	test_mbox_bad_args();
	test_rpmsg_echo();
	test_rpmsg_sink_source();
	test_rpmsg_big();
	test_rpmsg_phys();
	test_bad_remote("badlen");
	test_bad_remote("badid");
	test_bad_remote("nsbad");
	test_bad_remote("unknown");
	test_bad_remote("badidx");
	test_bad_remote("nsflood");
	test_bad_remote("flood");
	test_bad_setup();
	test_bad_args();
	return ktap_exit();
}
