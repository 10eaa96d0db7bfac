// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test: the ivshmem server. First the greeting over a
 * socketpair, message by message; then the real ampsoc-socmodel with this
 * program as a fake QEMU client and as a stand-in remote core (when run
 * with --name): power-on, core boot with the ampsoc-core argument
 * contract (the vring firewall's --ro ranges and --fault-fd included),
 * guest<->core doorbells that bypass the model, a firewall crash with its
 * fault record, the control socket, and a clean exit when the client
 * disappears.
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
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uapi/ampsoc/core_fault.h>

#include "board.h"
#include "ivshmem.h"
#include "ktap_user.h"

#define WAIT_MS 10000	/* a bound for failures, not a synchronisation */

/* ---------------- stand-in remote core ---------------- */

static int stand_in_core(int argc, char **argv)
{
	int shm_fd = -1, irq = -1, kick = -1, console = -1, i, nmaps = 0;
	int fault = -1, nro = 0;
	unsigned long long off = 0, da = 0, len = 0, entry = ~0ull;
	unsigned long long ro_da = 0, ro_len = 0;
	struct ampsoc_core_fault f = {
		.magic = AMPSOC_CORE_FAULT_MAGIC, .size = sizeof(f),
		.reason = AMPSOC_CORE_FAULT_FIREWALL,
		.isa = AMPSOC_CORE_ISA_X86_64, .signo = SIGSEGV,
		.access = AMPSOC_CORE_ACCESS_WRITE, .nr_regs = 1,
	};
	unsigned int kick_vec = 0, out_vec = ~0u;
	bool mbox_in = false, mbox_out = false;
	const char *name = "?";
	struct pollfd pfd;
	uint64_t v;
	uint8_t *shm;
	struct stat st;
	char line[128];

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--name"))
			name = argv[i + 1];
		else if (!strcmp(argv[i], "--shm-fd"))
			shm_fd = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--map") && nmaps++ == 0)
			sscanf(argv[i + 1], "%llx:%llx:%llx", &off, &da, &len);
		else if (!strcmp(argv[i], "--map"))
			;
		else if (!strcmp(argv[i], "--entry"))
			entry = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--irq-fd"))
			irq = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--kick-fd"))
			sscanf(argv[i + 1], "%u:%d", &kick_vec, &kick);
		else if (!strcmp(argv[i], "--console-fd"))
			console = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--mbox-in"))
			mbox_in = true;
		else if (!strcmp(argv[i], "--mbox-out"))
			mbox_out = sscanf(argv[i + 1], "%*x:%*u:%u", &out_vec) == 1;
		else if (!strcmp(argv[i], "--fault-fd"))
			fault = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--ro") && nro++ == 0)
			sscanf(argv[i + 1], "%llx:%llx", &ro_da, &ro_len);
		else
			return 10;
	}
	/* the guest programmed one region, 0x2000 + 0x100 bytes at da + 64K */
	if (fault < 0 || fcntl(fault, F_GETFL) < 0 || nro != 1 ||
	    ro_da != da + 0x10000 || ro_len != 0x2000)
		return 18;
	if (i != argc || shm_fd < 0 || irq < 0 || kick < 0 || console < 0 ||
	    !mbox_in || !mbox_out || out_vec != kick_vec ||
	    !nmaps || entry < da || entry - da >= len || fstat(shm_fd, &st) ||
	    (unsigned long long)st.st_size < off + len)
		return 11;
	shm = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   shm_fd, 0);
	if (shm == MAP_FAILED)
		return 12;
	snprintf(line, sizeof(line), "hello from %s at 0x%llx vector %u\n",
		 name, entry, kick_vec);
	if (write(console, line, strlen(line)) < 0)
		return 13;
	/* wait for the guest's kick, answer it directly, then crash on the next */
	pfd.fd = irq;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, WAIT_MS) != 1 || read(irq, &v, 8) != 8)
		return 14;
	__atomic_store_n((uint32_t *)(shm + off + (entry - da) + 4), 0xc0de,
			 __ATOMIC_RELEASE);
	v = 1;
	if (write(kick, &v, 8) != 8)
		return 15;
	if (poll(&pfd, 1, WAIT_MS) != 1)
		return 16;
	/* what ampsoc-core does on a write into a --ro range */
	f.addr = ro_da + 0x1008;
	f.pc = entry + 0x40;
	f.regs[0] = 0x1234;
	if (write(fault, &f, sizeof(f)) != sizeof(f))
		return 19;
	raise(SIGSEGV);
	return 17;
}

/* ---------------- greeting over a socketpair ---------------- */

static void test_greeting(void)
{
	int sv[2], shm, ev[3], got_fd, i, ok = 1, fds[2][4];
	struct ivshmem_peer peer = { .id = 0 };
	int64_t val;
	struct stat st;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		ktap_ok(false, "greeting_socketpair");
		return;
	}
	shm = memfd_create("t", 0);
	if (ftruncate(shm, 1 << 20))
		ok = 0;
	for (i = 0; i < 3; i++)
		ev[i] = eventfd(0, 0);
	for (i = 0; i < 4; i++) {
		fds[0][i] = ev[0];
		fds[1][i] = ev[1];
	}
	peer.fds = fds[0];
	ok &= ivshmem_greet(sv[0], 1, shm, &peer, 1, fds[1], 4) == 0;
	ok &= !ivshmem_recv(sv[1], &val, &got_fd) && val == 0 && got_fd < 0;
	ok &= !ivshmem_recv(sv[1], &val, &got_fd) && val == 1 && got_fd < 0;
	ok &= !ivshmem_recv(sv[1], &val, &got_fd) && val == -1 && got_fd >= 0 &&
	      !fstat(got_fd, &st) && st.st_size == 1 << 20;
	if (got_fd >= 0)
		close(got_fd);
	for (i = 0; i < 8; i++) {
		ok &= !ivshmem_recv(sv[1], &val, &got_fd) && got_fd >= 0 &&
		      val == (i < 4 ? 0 : 1);
		if (got_fd >= 0)
			close(got_fd);
	}
	ktap_ok(ok, "greeting_order_and_fds");
	/* a message with a short payload is a protocol error */
	if (write(sv[0], "abc", 3) == 3)
		ktap_ok(ivshmem_recv(sv[1], &val, &got_fd) == -EPROTO,
			"short_message_rejected");
	close(sv[0]);
	ktap_ok(ivshmem_recv(sv[1], &val, &got_fd) == -EPROTO, "eof_is_error");
	close(sv[1]);
	close(shm);
	for (i = 0; i < 3; i++)
		close(ev[i]);
}

/* ---------------- the real model ---------------- */

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof(a))) {
		close(s);
		return -1;
	}
	return s;
}

static bool wait_fd(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t v;

	if (poll(&p, 1, WAIT_MS) != 1)
		return false;
	return read(fd, &v, 8) == 8;
}

static void ring(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, 8) != 8)
		ktap_diag("doorbell write: %s", strerror(errno));
}

static bool ctl_query(const char *ctl, const char *cmd, char *out, size_t n)
{
	int s = connect_to(ctl);
	size_t len = 0;
	ssize_t r;

	if (s < 0)
		return false;
	if (write(s, cmd, strlen(cmd)) < 0)
		return false;
	while (len + 1 < n && (r = read(s, out + len, n - 1 - len)) > 0)
		len += r;
	out[len] = '\0';
	close(s);
	return true;
}

static void test_model(const char *self)
{
	char dir[] = "/tmp/socmodel-test.XXXXXX", sock[128], ctl[140],
	     report[160], pidf[160], err[256], buf[8192];
	int model_fd[VSOC_NR_VECTORS], own[VSOC_NR_VECTORS], core_fd[2] = { -1, -1 };
	int c, c2, shm_fd = -1, fd, i, st, n_model = 0, n_own = 0, n_core = 0;
	const struct vsoc_board_header *h;
	struct vsoc_req_slot *pwr;
	struct vsoc_core_ctl *cc;
	struct vsoc_mbox_fifo *rx;
	struct board b;
	pid_t pid, model;
	int64_t val;
	uint8_t *shm;
	FILE *f;
	bool ok;

	if (!mkdtemp(dir) || board_load(&b, SOCMODEL_BOARDS "/omap4.ini", err,
					sizeof(err))) {
		ktap_ok(false, "model_setup");
		return;
	}
	snprintf(sock, sizeof(sock), "%s/vsoc.sock", dir);
	snprintf(ctl, sizeof(ctl), "%s.ctl", sock);
	snprintf(report, sizeof(report), "%s/report", dir);
	snprintf(pidf, sizeof(pidf), "%s/pid", dir);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid = fork();
	if (pid == 0) {
		execl(SOCMODEL_BUILD "/ampsoc-socmodel", "ampsoc-socmodel",
		      "--board", SOCMODEL_BOARDS "/omap4.ini", "--socket", sock,
		      "--core-bin", self, "--report", report, "--log-dir", dir,
		      "--pidfile", pidf, "--daemon", (char *)NULL);
		_exit(99);
	}
	/* --daemon returns once the model listens */
	ok = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	     WEXITSTATUS(st) == 0;
	f = fopen(pidf, "r");
	model = 0;
	if (!f || fscanf(f, "%d", &model) != 1)
		ok = false;
	if (f)
		fclose(f);
	if (!ktap_ok(ok && model > 0, "model_starts_and_listens"))
		return;

	c = connect_to(sock);
	ok = c >= 0 && !ivshmem_recv(c, &val, &fd) && val == 0 && fd < 0 &&
	     !ivshmem_recv(c, &val, &fd) && val == VSOC_PEER_GUEST && fd < 0 &&
	     !ivshmem_recv(c, &val, &shm_fd) && val == -1 && shm_fd >= 0;
	for (i = 0; ok && i < VSOC_NR_VECTORS * (2 + (int)b.nr_cores); i++) {
		ok = !ivshmem_recv(c, &val, &fd) && fd >= 0;
		if (!ok)
			break;
		if (val == VSOC_PEER_MODEL && n_model < VSOC_NR_VECTORS)
			model_fd[n_model++] = fd;
		else if (val == VSOC_PEER_GUEST && n_own < VSOC_NR_VECTORS)
			own[n_own++] = fd;
		else if (val == VSOC_PEER_CORE_BASE && n_core++ == 0)
			core_fd[0] = fd;
		else if (val == VSOC_PEER_CORE_BASE + 1 && n_core++ == VSOC_NR_VECTORS)
			core_fd[1] = fd;
		else
			close(fd);
	}
	ok = ok && n_model == VSOC_NR_VECTORS && n_own == VSOC_NR_VECTORS &&
	     n_core == 2 * VSOC_NR_VECTORS;
	if (!ktap_ok(ok, "greeting_from_model"))
		goto kill_model;

	c2 = connect_to(sock);
	ktap_ok(c2 >= 0 && ivshmem_recv(c2, &val, &fd) != 0,
		"second_client_refused");
	if (c2 >= 0)
		close(c2);

	shm = mmap(NULL, b.shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
	h = (const void *)shm;
	ktap_ok(shm != MAP_FAILED &&
		!table_check(shm, VSOC_MAX_TABLE_SIZE, b.shm_size, err, sizeof(err)) &&
		h->model_peer == VSOC_PEER_MODEL, "published_table_valid");

	/* power the ipu domain on: slot, doorbell, completion doorbell */
	pwr = (void *)(shm + h->pwr.offset);
	pwr[3].op = VSOC_PWR_OP_ON;
	__atomic_store_n(&pwr[3].req_seq, 1, __ATOMIC_RELEASE);
	ring(model_fd[VSOC_VEC_PWR]);
	ktap_ok(wait_fd(own[VSOC_VEC_PWR]) && pwr[3].ack_seq == 1 &&
		pwr[3].status == 0 && pwr[3].state == VSOC_PWR_ON,
		"doorbell_round_trip_power_on");
	/* and its memory's (ABI 1.5), or the model refuses the run */
	if (b.core[0].mem_domain != VSOC_NONE) {
		struct vsoc_req_slot *m = &pwr[b.core[0].mem_domain];

		m->op = VSOC_PWR_OP_ON;
		__atomic_store_n(&m->req_seq, 1, __ATOMIC_RELEASE);
		ring(model_fd[VSOC_VEC_PWR]);
		ktap_ok(wait_fd(own[VSOC_VEC_PWR]) && m->ack_seq == 1 &&
			m->state == VSOC_PWR_ON, "memory_domain_power_on");
	}

	/* boot the ipu core at 0x100, one firewall region programmed */
	cc = (void *)(shm + b.core[0].ctl_off);
	cc->fw[0].da = b.core[0].mem[0].da + 0x10000;
	cc->fw[0].len = 0x2100;
	cc->fw_count = 1;
	cc->boot_addr = b.core[0].mem[0].da + 0x100;
	cc->op = VSOC_CORE_OP_RUN;
	__atomic_store_n(&cc->req_seq, 1, __ATOMIC_RELEASE);
	ring(model_fd[VSOC_VEC_CORE]);
	ktap_ok(wait_fd(own[VSOC_VEC_CORE]) && cc->ack_seq == 1 &&
		cc->status == 0 && cc->state == VSOC_CORE_RUNNING &&
		cc->boot_count == 1, "core_boots");
	ktap_ok(cc->fw_protected == 0x2000 && cc->fw_unprotected == 0x100,
		"firewall_whole_pages_protected");

	/* guest -> core -> guest without the model */
	ring(core_fd[0]);
	ktap_ok(wait_fd(own[b.mbox[1].vector]) &&
		__atomic_load_n((uint32_t *)(shm + b.core[0].mem[0].shm_off + 0x104),
				__ATOMIC_ACQUIRE) == 0xc0de,
		"guest_core_doorbells_direct");

	/* the next kick makes the stand-in "write" to the firewall */
	rx = (void *)(shm + b.mbox[1].fifo_off);
	ring(core_fd[0]);
	ktap_ok(wait_fd(own[VSOC_VEC_CORE]) && cc->state == VSOC_CORE_CRASHED &&
		cc->crash_reason == VSOC_CRASH_FAULT &&
		cc->crash_info == AMPSOC_CORE_FAULT_FIREWALL &&
		rx->head == 1 && rx->msg[0] == VSOC_MBOX_MSG_CRASH,
		"core_crash_reported");
	ktap_ok(cc->fault_addr == b.core[0].mem[0].da + 0x11008 &&
		cc->fault_pc == b.core[0].mem[0].da + 0x140 &&
		cc->fault_access == AMPSOC_CORE_ACCESS_WRITE &&
		cc->fw_faults == 1 &&
		((struct vsoc_telemetry *)(shm + h->telemetry.offset))->fw_faults == 1,
		"fault_record_reported");

	ktap_ok(ctl_query(ctl, "state\n", buf, sizeof(buf)) &&
		strstr(buf, "domain ipu on") && strstr(buf, "core ipu crashed") &&
		strstr(buf, "violations 0"), "control_state");
	ktap_ok(ctl_query(ctl, "fault stuck l4per\n", buf, sizeof(buf)) &&
		!strncmp(buf, "ok", 2), "control_fault");
	ktap_ok(ctl_query(ctl, "fault stuck nowhere\n", buf, sizeof(buf)) &&
		!strncmp(buf, "error:", 6), "control_bad_fault");
	ktap_ok(ctl_query(ctl, "timeline\n", buf, sizeof(buf)) &&
		strstr(buf, "domain ipu on") && strstr(buf, "core ipu crashed"),
		"control_timeline");

	/* QEMU goes away: the model ends cleanly and removes its sockets */
	close(c);
	c = -1;
	ok = waitpid(model, &st, 0) == model && WIFEXITED(st) &&
	     WEXITSTATUS(st) == 0;
	ktap_ok(ok && access(sock, F_OK) && access(ctl, F_OK) &&
		access(pidf, F_OK), "client_gone_model_exits_clean");
	f = fopen(report, "r");
	buf[0] = '\0';
	if (f) {
		buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
		fclose(f);
	}
	ktap_ok(strstr(buf, "exit guest disconnected") && strstr(buf, "energy total") &&
		strstr(buf, "firewall_faults 1") &&
		strstr(buf, "core ipu crashed firewall=on fw_faults=1"),
		"final_report_written");
	snprintf(err, sizeof(err), "%s/core-ipu.log", dir);
	f = fopen(err, "r");
	buf[0] = '\0';
	if (f) {
		buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
		fclose(f);
	}
	snprintf(err, sizeof(err), "hello from ipu at 0x%llx vector 8",
		 (unsigned long long)b.core[0].mem[0].da + 0x100);
	ktap_ok(strstr(buf, err),
		"core_console_logged");
	munmap(shm, b.shm_size);
	goto out;
kill_model:
	kill(model, SIGKILL);
	waitpid(model, NULL, 0);
out:
	if (c >= 0)
		close(c);
	for (i = 0; i < n_model; i++)
		close(model_fd[i]);
	for (i = 0; i < n_own; i++)
		close(own[i]);
	for (i = 0; i < 2; i++)
		if (core_fd[i] >= 0)
			close(core_fd[i]);
	if (shm_fd >= 0)
		close(shm_fd);
	snprintf(buf, sizeof(buf), "rm -rf '%s'", dir);
	if (system(buf))
		ktap_diag("could not remove %s", dir);
}

/* --corrupt-table: the published table must fail the consumer check */
static void test_corrupt(const char *kind, const char *want)
{
	char dir[] = "/tmp/socmodel-test.XXXXXX", sock[128], arg[64], pidf[160],
	     err[256];
	int c = -1, fd, shm_fd = -1, st;
	bool ok = false;
	struct board b;
	pid_t pid, model = 0;
	int64_t val;
	void *shm;
	FILE *f;

	if (!mkdtemp(dir) || board_load(&b, SOCMODEL_BOARDS "/omap4.ini", err,
					sizeof(err)))
		goto out;
	snprintf(sock, sizeof(sock), "%s/vsoc.sock", dir);
	snprintf(pidf, sizeof(pidf), "%s/pid", dir);
	snprintf(arg, sizeof(arg), "%s", kind);
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);

		dup2(nul, 2);
		execl(SOCMODEL_BUILD "/ampsoc-socmodel", "ampsoc-socmodel",
		      "--socket", sock, "--pidfile", pidf, "--daemon",
		      "--corrupt-table", arg, (char *)NULL);
		_exit(99);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		goto out;
	f = fopen(pidf, "r");
	if (!f || fscanf(f, "%d", &model) != 1)
		model = 0;
	if (f)
		fclose(f);
	c = connect_to(sock);
	if (c < 0 || ivshmem_recv(c, &val, &fd) || ivshmem_recv(c, &val, &fd) ||
	    ivshmem_recv(c, &val, &shm_fd) || shm_fd < 0)
		goto out;
	shm = mmap(NULL, VSOC_MAX_TABLE_SIZE, PROT_READ, MAP_SHARED, shm_fd, 0);
	if (shm == MAP_FAILED)
		goto out;
	ok = table_check(shm, VSOC_MAX_TABLE_SIZE, b.shm_size, err,
			 sizeof(err)) == -1 && strstr(err, want);
	if (!ok)
		ktap_diag("check said '%s', wanted '%s'", err, want);
	munmap(shm, VSOC_MAX_TABLE_SIZE);
out:
	if (c >= 0)
		close(c);
	if (shm_fd >= 0)
		close(shm_fd);
	if (model > 0 && waitpid(model, &st, 0) != model)
		ok = false;
	ktap_ok(ok, "corrupt_table_%s_detected", kind);
	snprintf(err, sizeof(err), "rm -rf '%s'", dir);
	if (system(err))
		ktap_diag("could not remove %s", dir);
}

/* Every exit path removes the sockets: a signal, and a crash of the model. */
static void test_exit_path(int sig, const char *name)
{
	char dir[] = "/tmp/socmodel-test.XXXXXX", sock[128], ctl[140], pidf[160],
	     cmd[200];
	pid_t pid, model = 0;
	bool ok = false;
	int st;
	FILE *f;

	if (!mkdtemp(dir))
		goto out;
	snprintf(sock, sizeof(sock), "%s/vsoc.sock", dir);
	snprintf(ctl, sizeof(ctl), "%s.ctl", sock);
	snprintf(pidf, sizeof(pidf), "%s/pid", dir);
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);

		dup2(nul, 2);
		execl(SOCMODEL_BUILD "/ampsoc-socmodel", "ampsoc-socmodel",
		      "--socket", sock, "--pidfile", pidf, "--daemon",
		      (char *)NULL);
		_exit(99);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		goto out;
	f = fopen(pidf, "r");
	if (!f || fscanf(f, "%d", &model) != 1)
		model = 0;
	if (f)
		fclose(f);
	if (model <= 0 || access(sock, F_OK) || access(ctl, F_OK))
		goto out;
	kill(model, sig);
	if (waitpid(model, &st, 0) != model)
		goto out;
	ok = (sig == SIGTERM ? WIFEXITED(st) && WEXITSTATUS(st) == 0 :
			       WIFSIGNALED(st) && WTERMSIG(st) == sig) &&
	     access(sock, F_OK) && access(ctl, F_OK);
out:
	ktap_ok(ok, "sockets_removed_on_%s", name);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		ktap_diag("could not remove %s", dir);
}

int main(int argc, char **argv)
{
	char self[4096];
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "--name"))
		return stand_in_core(argc, argv);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	ktap_plan(0);
	test_greeting();
	test_model(self);
	test_corrupt("crc", "checksum");
	test_corrupt("magic", "magic");
	test_corrupt("version", "version");
	test_corrupt("index", "domain");
	test_corrupt("cycle", "cycle");
	test_exit_path(SIGTERM, "sigterm");
	test_exit_path(SIGSEGV, "model_crash");
	ktap_exit();
}
