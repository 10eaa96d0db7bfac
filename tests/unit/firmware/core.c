// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the remote-core runner (ampsoc-core) with the sample
 * firmware, playing the SoC model and Linux's remoteproc (runner.h). The
 * native M3 gets every test; the emulated m4 (ARMv7-M) and rv (RV32) get
 * those that do not depend on the instruction set, under names prefixed
 * "m4_" and "rv_": the same firmware sources, services and rpmsg protocol
 * on every core. isa.c tests what only the emulated cores have.
 */
#include "runner.h"

#include <amp/rpmsg.h>
#include <amp/virtqueue.h>

/* The DSP's IRAM and DRAM at 32 and 40 MiB of the shared memory. */
#define DSP_IRAM_OFF	0x2000000
#define DSP_DRAM_OFF	0x2800000
#define DSP_BASE	0x20000000
#define DSP_IRAM_SIZE	0x100000
#define DSP_DRAM_DA	0x20100000
#define DSP_DRAM_SIZE	0xf00000

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
	char want[64];
	int st;

	if (!ktap_ok(shm_new(&r) == 0 && fw_read("hello", &fw) == 0 &&
		     fw_load(&r, &fw, P->win, P->nwin) == 0 && fw.trace_len,
		     "%shello_loads", P->tag)) {
		ktap_skip("no firmware", "%shello_console", P->tag);
		return;
	}
	trace = (const char *)core_ptr(&r, fw.trace_da, fw.trace_len);
	ktap_ok(spawn(&r, P->win, P->nwin, fw.entry, false, NULL) == 0 &&
		console_wait(&r, "ampsoc-hello: waiting for interrupts\n"),
		"%shello_console", P->tag);
	snprintf(want, sizeof(want), "hello from core %s (%s map)\n", P->core, P->core);
	ktap_ok(console_wait(&r, want) &&
		console_wait(&r, "doorbell vector 3\n"), "%shello_sees_bootrom", P->tag);
	ktap_ok(trace && strnlen(trace, fw.trace_len) < fw.trace_len &&
		strstr(trace, want) &&
		strstr(trace, "waiting for interrupts\n"), "%shello_trace_buffer", P->tag);
	/* Our doorbell wakes the core, which rings its own back. */
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 1 so far"), "%sdoorbell_round_trip", P->tag);
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 2 so far"), "%sdoorbell_again", P->tag);
	ktap_ok(strstr(trace, "interrupt, 2 so far\n"), "%strace_follows", P->tag);
	stop(&r);
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "%sstop_is_sigkill", P->tag);
	free(fw.data);
	shm_free(&r);
}

static void test_dsp_two_windows(void)
{
	struct run r;
	struct fw fw = { 0 };
	int st;

	if (shm_new(&r) || fw_read_path("ampsoc-hello-dsp.elf", &fw) ||
	    fw_load(&r, &fw, dsp_win, 2)) {
		ktap_ok(false, "%sdsp_hello_two_windows", P->tag);
		return;
	}
	ktap_ok(spawn(&r, dsp_win, 2, fw.entry, false, NULL) == 0 &&
		console_wait(&r, "hello from core m3 (dsp map)"),
		"%sdsp_hello_two_windows", P->tag);
	stop(&r);
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "%sdsp_stopped", P->tag);
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

	if (shm_new(&r) || fw_read("probe", &fw) ||
	    fw_load(&r, &fw, P->win, P->nwin) ||
	    spawn(&r, P->win, P->nwin, fw.entry, false, NULL)) {
		ktap_ok(false, "%srom_wait_irq_poll_and_timeout", P->tag);
		return;
	}
	ktap_ok(console_wait(&r, "probe: ddr -19 0 0\n"), "%sno_ddr_without_ram", P->tag);
	ktap_ok(console_wait(&r, "probe: wait0 0\n") &&
		console_wait(&r, "probe: timeout 0 late-enough\n"),
		"%srom_wait_irq_poll_and_timeout", P->tag);
	ktap_ok(console_wait(&r, "probe: ready\n") && write(r.irq, &three, 8) == 8 &&
		console_wait(&r, "probe: woke 3\n"), "%srom_wait_irq_counts_doorbells", P->tag);
	ktap_ok(console_wait(&r, "probe: bad vector -22\n") &&
		console_wait(&r, "probe: ring 0\n") && kick_wait(&r),
		"%srom_doorbell_known_and_unknown_vector", P->tag);
	memset(want, 'x', 256);
	want[256] = '\n';
	want[257] = 0;
	ktap_ok(console_wait(&r, "\na?b\tc?\n") && console_wait(&r, want) &&
		!strstr(r.cons, "xxxxxxxxxx\nx"), "%srom_console_sanitised_and_cut", P->tag);
	ktap_ok(console_wait(&r, "probe: watchdog survived 0\n"),
		"%srom_watchdog_petted_survives", P->tag);
	ktap_ok(console_wait(&r, "probe: monotonic yes\n"), "%srom_time_monotonic", P->tag);
	st = reap(&r);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 9, "%smain_return_is_exit_status", P->tag);
	free(fw.data);
	shm_free(&r);
}

/*
 * With --ram-fd and --ddr (a board's ddr key), the firmware learns where
 * Linux's DRAM is from its boot ROM or, on an emulated core, from the core
 * peripheral's DDR_DA/DDR_LEN (docs/cores.md): platform_ddr() gives the
 * window, whatever the instruction set.
 */
static void test_probe_ddr(void)
{
	/* clear of each map's windows and, on a native core, of the runner */
	uint64_t da = P->machine == EM_ARM ? 0x90000000 :
		      P->machine == EM_RISCV ? 0x40000000 : 0x60000000;
	char ddr[64], fdarg[16], want[80];
	const char *const extra[] = { "--ram-fd", fdarg, "--ddr", ddr, NULL };
	int ram = memfd_create("ampsoc-ram", 0);	/* inherited */
	struct fw fw = { 0 };
	struct run r;

	snprintf(fdarg, sizeof(fdarg), "%d", ram);
	snprintf(ddr, sizeof(ddr), "%#llx:0x200000", (unsigned long long)da);
	snprintf(want, sizeof(want), "probe: ddr 0 %llx 200000\n", (unsigned long long)da);
	if (ram < 0 || ftruncate(ram, 0x200000) || shm_new(&r) || fw_read("probe", &fw) ||
	    fw_load(&r, &fw, P->win, P->nwin) ||
	    spawn(&r, P->win, P->nwin, fw.entry, false, extra)) {
		ktap_ok(false, "%sddr_window_told_to_firmware", P->tag);
	} else {
		ktap_ok(console_wait(&r, want), "%sddr_window_told_to_firmware", P->tag);
		stop(&r);
		reap(&r);
	}
	if (ram >= 0)
		close(ram);
	free(fw.data);
	shm_free(&r);
}

/* A malformed resource table stops the core before main(), saying why. */
static void test_bad_rsc(void)
{
	struct run r;
	struct fw fw = { 0 };
	int st;

	if (shm_new(&r) || fw_read("badrsc", &fw) ||
	    fw_load(&r, &fw, P->win, P->nwin) ||
	    spawn(&r, P->win, P->nwin, fw.entry, false, NULL)) {
		ktap_ok(false, "%sbad_resource_table_stops_before_main", P->tag);
		return;
	}
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT &&
		strstr(r.cons, "resource table: entry 0 at offset 4 is misplaced\n") &&
		!strstr(r.cons, "reached the program"),
		"%sbad_resource_table_stops_before_main", P->tag);
	free(fw.data);
	shm_free(&r);
}

static void test_crash(const char *elf, const char *fmt, int sig, const char *name)
{
	struct run r;
	struct fw fw = { 0 };
	const char *trace;
	char line[128];
	int st;

	snprintf(line, sizeof(line), fmt, P->core);
	if (shm_new(&r) || fw_read(elf, &fw) || fw_load(&r, &fw, P->win, P->nwin) ||
	    spawn(&r, P->win, P->nwin, fw.entry, false, NULL)) {
		ktap_ok(false, "%s%s", P->tag, name);
		return;
	}
	st = reap(&r);
	trace = (const char *)core_ptr(&r, fw.trace_da, fw.trace_len);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == sig && strstr(r.cons, line) &&
		trace && strstr(trace, line), "%s%s", P->tag, name);
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
	if (spawn(&r, P->win, P->nwin, AMP_CORE_MEM_BASE, false, extra))
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
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS, "%ssandbox_kills_syscall", P->tag);
	st = run_code(getpid_code, sizeof(getpid_code), nosandbox);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGILL, "%sno_sandbox_allows_syscall", P->tag);

	memcpy(exit_code + 7, &off, 4);
	code = 5;
	memcpy(exit_code + 12, &code, 4);
	st = run_code(exit_code, sizeof(exit_code), NULL);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 5, "%srom_exit_status", P->tag);
	code = 64 + 6;
	memcpy(exit_code + 12, &code, 4);
	st = run_code(exit_code, sizeof(exit_code), NULL);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 6, "%srom_exit_status_masked", P->tag);
	off = offsetof(struct ampsoc_bootrom, abort);
	memcpy(exit_code + 7, &off, 4);
	st = run_code(exit_code, sizeof(exit_code), NULL);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "%srom_abort_is_sigabrt", P->tag);
}

/* Setup errors: the firmware never runs, the runner exits 64 or 71. */
static void bad_setup(const struct window *w, int nw, uint64_t entry,
		      bool norandom, int want, const char *needle,
		      const char *name)
{
	struct run r;
	int st;

	if (shm_new(&r) || spawn(&r, w, nw, entry, norandom, NULL)) {
		ktap_ok(false, "%s%s", P->tag, name);
		return;
	}
	st = reap(&r);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == want &&
		strstr(r.errbuf, needle) && r.cons_len == 0, "%s%s", P->tag, name);
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
		ktap_ok(false, "%sreject_irq_not_eventfd", P->tag);
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
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 64, "%sreject_irq_not_eventfd", P->tag);
	pid = fork();
	if (pid == 0) {
		close(2);
		execl(CORE_BIN, CORE_BIN, "--name", "x", "--bogus", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 64, "%sreject_unknown_option", P->tag);
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

	if (shm_new(&r) || fw_read("hello", &fw) ||
	    fw_load(&r, &fw, P->win, P->nwin) ||
	    spawn(&r, P->win, P->nwin, fw.entry, false, mbox_args) ||
	    !console_wait(&r, "waiting for interrupts")) {
		ktap_ok(false, "%smbox_echo_request_answered", P->tag);
		return;
	}
	in = fifo_at(&r, MBOX_IN_OFF);
	out = fifo_at(&r, MBOX_OUT_OFF);
	fifo_push(in, AMPSOC_MBOX_MSG_ECHO_REQUEST);
	fifo_push(in, 7);	/* a vring index: consumed, no answer */
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 1 so far") && in->tail == 2 &&
		fifo_pop(out, &msg) && msg == AMPSOC_MBOX_MSG_ECHO_REPLY &&
		!fifo_pop(out, &msg), "%smbox_echo_request_answered", P->tag);

	/* Linux corrupts its index: the core refuses the FIFO, keeps going. */
	in->head = in->tail + 1000;
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 2 so far") && in->tail == 2,
		"%smbox_corrupt_index_refused", P->tag);

	/* A full outgoing FIFO: the reply is dropped and counted. */
	in->head = in->tail;
	out->tail = out->head - MBOX_DEPTH;
	fifo_push(in, AMPSOC_MBOX_MSG_ECHO_REQUEST);
	ktap_ok(write(r.irq, &one, 8) == 8 && kick_wait(&r) &&
		console_wait(&r, "interrupt, 3 so far") && in->tail == in->head &&
		out->overflows == 1 && out->head - out->tail == MBOX_DEPTH,
		"%smbox_full_counts_overflow", P->tag);
	stop(&r);
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "%smbox_core_stopped", P->tag);
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
		if (!spawn(&r, P->win, P->nwin, AMP_CORE_MEM_BASE, false, bad_depth))
			st1 = reap(&r);
		if (!spawn(&r, P->win, P->nwin, AMP_CORE_MEM_BASE, false, bad_vector))
			st2 = reap(&r);
		if (!spawn(&r, P->win, P->nwin, AMP_CORE_MEM_BASE, false, in_window))
			st3 = reap(&r);
		shm_free(&r);
	}
	ktap_ok(WIFEXITED(st1) && WEXITSTATUS(st1) == 64 &&
		WIFEXITED(st2) && WEXITSTATUS(st2) == 64 &&
		WIFEXITED(st3) && WEXITSTATUS(st3) == 64, "%smbox_bad_args_rejected", P->tag);
}

/* ---- Linux's virtio_rpmsg_bus, played against the echo firmware ------- */

/* Linux's rings and buffers in the core's DRAM (AMP_CORE_SHM_BASE). */
#define RING_NUM	256
#define RING_ALIGN	16
#define VRING0_DA	(P->shm_da)
#define VRING1_DA	(P->shm_da + 0x10000u)
#define RBUF_DA		(P->shm_da + 0x20000u)
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
	uint8_t *p = core_ptr(r, da, amp_vring_size(RING_NUM, RING_ALIGN));
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
	if (!shm_new(&r) && !fw_read("rpmsg-echo", &fw) &&
	    !fw_load(&r, &fw, P->win, P->nwin))
		rsc = loaded_rsc(&r, &fw, P->win, P->nwin);
	if (!rsc) {
		ktap_ok(false, "%srpmsg_echo_waits_for_linux", P->tag);
		return;
	}
	for (uint32_t i = 0; i < ((struct ampsoc_rsc_table *)rsc)->num; i++) {
		uint8_t *e = rsc + ((struct ampsoc_rsc_table *)rsc)->offset[i];

		if (*(uint32_t *)e == AMPSOC_RSC_VDEV)
			vdev = (void *)e;
	}
	ktap_ok(vdev && vdev->id == 7 && vdev->dfeatures == 1 &&
		vdev->num_of_vrings == 2 && vdev->vring[0].num == RING_NUM &&
		spawn(&r, P->win, P->nwin, fw.entry, false, mbox_args) == 0 &&
		console_wait(&r, "waiting for Linux"), "%srpmsg_echo_waits_for_linux", P->tag);
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
			const struct rpmsg_hdr *h =
				core_ptr(&r, RBUF_DA + id * RBUF, RBUF);
			const struct ampsoc_rpmsg_ns_msg *ns = (const void *)h->data;

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
		"%srpmsg_echo_announces_six_services", P->tag);

	/* Echo integrity: random sizes, rotating services, up to 16 in flight. */
	srand(11);
	while (got < 3000) {
		uint32_t id, len, word;

		while (sent < 3000 && inflight < 16) {
			uint16_t n = rand() % 497, slot;
			struct rpmsg_hdr *h;

			for (slot = 0; slot < RING_NUM && tx_busy[slot]; slot++)
				;
			if (slot == RING_NUM)
				break;
			tx_busy[slot] = true;
			h = core_ptr(&r, RBUF_DA + (RING_NUM + slot) * RBUF, RBUF);
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
			const struct rpmsg_hdr *h =
				core_ptr(&r, RBUF_DA + id * RBUF, RBUF);
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
	ktap_ok(got == 3000 && bad == 0, "%srpmsg_echo_through_the_runner", P->tag);
	ktap_ok(kick_words[0] > 0 && kick_words[1] > 0 && kick_words[2] == 0 &&
		fifo_at(&r, MBOX_OUT_OFF)->overflows == 0,
		"%srpmsg_kicks_carry_notifyids_in_mailbox", P->tag);
out:
	stop(&r);
	st = reap(&r);
	ktap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "%srpmsg_echo_stopped", P->tag);
	free(fw.data);
	shm_free(&r);
}

/* ---- the misbehaving remote, seen from Linux's side ------------------- */

/*
 * Linux's buffer size and negotiated features for the next link_up(), and
 * where its buffers are (lbase, set by link_up()): with lpa set, in the
 * firmware's vdev0buffer carveout, whose pa Linux writes back as lpa, and
 * descriptors carry physical addresses.
 */
static uint32_t lbuf = RBUF, lfeatures = 1, lpa, lbase;

/* The echo firmware's vdev0buffer carveout: AMP_CORE_SHM_BASE + 1 MiB. */
#define CARVE_DA	(P->shm_da + 0x100000u)

/* What Linux writes in a descriptor for the buffer at device address @da. */
static uint32_t desc_addr(uint32_t da)
{
	return lpa ? lpa + (da - CARVE_DA) : da;
}

struct got_msg {
	uint32_t id, used_len;
	struct rpmsg_hdr hdr;
	uint8_t data[48];
};

/* Load @elf, start it, and bring the rpmsg link up as Linux would. */
static struct core_vdev *link_up(struct run *r, struct fw *fw, const char *elf,
				 struct dring *rx, struct dring *tx)
{
	struct core_vdev *vdev = NULL;
	struct ampsoc_rsc_table *t;
	uint64_t one = 1;
	uint8_t *rsc = NULL;

	if (shm_new(r))
		return NULL;
	/* Linux's buffers: its own pool, or the firmware's carveout. */
	lbase = lpa ? CARVE_DA : RBUF_DA;
	if (!fw_read(elf, fw) && !fw_load(r, fw, P->win, P->nwin))
		rsc = loaded_rsc(r, fw, P->win, P->nwin);
	if (!rsc || spawn(r, P->win, P->nwin, fw->entry, false, NULL))
		return NULL;
	t = (void *)rsc;
	for (uint32_t i = 0; i < t->num; i++)
		if (*(uint32_t *)(rsc + t->offset[i]) == AMPSOC_RSC_VDEV)
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

		if (c->type == AMPSOC_RSC_CARVEOUT && !strcmp((char *)c->c.name, "vdev0buffer"))
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
			const struct rpmsg_hdr *h =
				core_ptr(r, lbase + id * lbuf, lbuf);

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
	struct rpmsg_hdr *h = core_ptr(r, lbase + RING_NUM * lbuf, lbuf);
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
	struct rpmsg_hdr *h =
		core_ptr(r, lbase + (RING_NUM + slot) * lbuf, lbuf);
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

	snprintf(elf, sizeof(elf), "rpmsg-bad-%s", mode);
	vdev = link_up(&r, &fw, elf, &rx, &tx);
	if (!vdev || collect(&r, &rx, m, 1) != 1 || m[0].hdr.dst != 53) {
		ktap_ok(false, "%sbad_remote_%s", P->tag, mode);
		goto out;
	}
	echo_addr = ((struct ampsoc_rpmsg_ns_msg *)m[0].data)->addr;
	if (!strcmp(mode, "badlen")) {
		n = collect(&r, &rx, m, 3);
		ok = n == 3 && m[0].hdr.len == 400 && m[0].used_len == 24 &&
		     m[1].hdr.len == 8 && m[1].used_len == 4096 &&
		     m[2].hdr.len == 8 && m[2].used_len == 4 &&
		     echo_works(&r, &rx, &tx, echo_addr, "still there");
	} else if (!strcmp(mode, "badid")) {
		ok = collect(&r, &rx, m, 1) == 1 && m[0].id == RING_NUM + 5;
	} else if (!strcmp(mode, "nsbad")) {
		const struct ampsoc_rpmsg_ns_msg *ns = (const void *)m[0].data;

		n = collect(&r, &rx, m, 3);
		ok = n == 3 && m[0].hdr.dst == 53 && m[0].hdr.len == 40 &&
		     !memchr(ns->name, 0, sizeof(ns->name)) &&
		     m[1].hdr.len == 39 && m[2].hdr.len == 40 && ns[0].flags == 0 &&
		     ((const struct ampsoc_rpmsg_ns_msg *)m[2].data)->flags == 7 &&
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
			const struct ampsoc_rpmsg_ns_msg *ns = (const void *)flood[i].data;

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
		fl = ((struct ampsoc_rpmsg_ns_msg *)m[0].data)->addr;
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
	ktap_ok(ok, "%sbad_remote_%s", P->tag, mode);
out:
	stop(&r);
	st = reap(&r);
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
		ktap_diag("%s ended with status %#x", mode, st);
	free(fw.data);
	shm_free(&r);
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

	if (!link_up(&r, &fw, "rpmsg-echo", &rx, &tx) ||
	    collect(&r, &rx, m, ECHO_NSVC) != ECHO_NSVC) {
		ktap_ok(false, "%srpmsg_sink_counts", P->tag);
		ktap_ok(false, "%srpmsg_source_sends", P->tag);
		ktap_ok(false, "%srpmsg_later_answers_when_due", P->tag);
		ktap_ok(false, "%srpmsg_later_drops_a_second_request", P->tag);
		goto out;
	}
	for (n = 0; n < ECHO_NSVC; n++) {
		const struct ampsoc_rpmsg_ns_msg *ns = (const void *)m[n].data;

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
	ktap_ok(ok, "%srpmsg_sink_counts", P->tag);

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
	ktap_ok(ok && !bad, "%srpmsg_source_sends", P->tag);

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
		"%srpmsg_later_answers_when_due", P->tag);
	ok = ok && later_send(&r, &tx, 104, later, 0, "again") &&
	     collect(&r, &rx, m, 1) == 1 && got_text(&m[0], later, "again");
	ktap_ok(ok, "%srpmsg_later_drops_a_second_request", P->tag);
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
	lfeatures = 1 | 1u << AMPSOC_VIRTIO_RPMSG_F_BUFSZ | 1u << AMPSOC_VIRTIO_RPMSG_F_FC;
	if (link_up(&r, &fw, "rpmsg-echo-big", &rx, &tx) &&
	    collect(&r, &rx, m, ECHO_NSVC) == ECHO_NSVC &&
	    console_wait(&r, "link up, mtu 2032, name service on, flow control on")) {
		for (unsigned int n = 0; n < ECHO_NSVC; n++)
			if (!strcmp(((struct ampsoc_rpmsg_ns_msg *)m[n].data)->name, "ampsoc-echo"))
				echo = ((struct ampsoc_rpmsg_ns_msg *)m[n].data)->addr;
		memset(text, 'b', sizeof(text) - 1);
		text[sizeof(text) - 1] = 0;
		/* got_msg keeps 48 bytes: the echo's length and start prove it. */
		ok = echo && echo_works(&r, &rx, &tx, echo, text);
	}
	ktap_ok(ok, "%srpmsg_big_buffers_negotiated", P->tag);
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
	if (link_up(&r, &fw, "rpmsg-echo", &rx, &tx) &&
	    collect(&r, &rx, m, ECHO_NSVC) == ECHO_NSVC &&
	    console_wait(&r, "buffers by physical address")) {
		for (unsigned int n = 0; n < ECHO_NSVC; n++)
			if (!strcmp(((struct ampsoc_rpmsg_ns_msg *)m[n].data)->name, "ampsoc-echo"))
				echo = ((struct ampsoc_rpmsg_ns_msg *)m[n].data)->addr;
		ok = echo && echo_works(&r, &rx, &tx, echo, "by physical address");
	}
	ktap_ok(ok, "%srpmsg_buffers_by_physical_address", P->tag);
	stop(&r);
	reap(&r);
	free(fw.data);
	shm_free(&r);
	lpa = 0;
}

/* What every core does the same way, whatever its instruction set. */
static void test_core(void)
{
	test_hello();
	test_probe();
	test_probe_ddr();
	test_bad_rsc();
	test_crash("crash", "ampsoc-crash: core %s about to crash\n",
		   SIGSEGV, "crash_is_sigsegv_after_trace");
	test_crash("hang", "ampsoc-hang: core %s hangs with the watchdog armed\n",
		   SIGALRM, "watchdog_is_sigalrm_after_trace");
	test_mbox();
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
}

int main(void)
{
	static const struct core_prof *const emulated[] = { &prof_m4, &prof_rv };

	if (access(CORE_BIN, X_OK)) {
		ktap_plan(1);
		ktap_skip("runner not built", "runner");
		return ktap_exit();
	}
	ktap_plan(60 + 2 * 42);
	test_core();
	test_dsp_two_windows();
	test_code();
	test_mbox_bad_args();
	test_bad_setup();
	test_bad_args();
	for (unsigned int i = 0; i < 2; i++) {
		P = emulated[i];
		test_core();
	}
	return ktap_exit();
}
