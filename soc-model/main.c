// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-socmodel: one process = one virtual SoC.
 *
 * It is the ivshmem server QEMU's ivshmem-doorbell connects to, and also
 * a peer: it owns the shared memory (a memfd), the eventfds of every peer
 * (itself, the guest, each remote core), the control socket, and the
 * remote-core processes it forks. It ends when QEMU disconnects or on
 * SIGTERM/SIGINT/SIGHUP, and removes its sockets on every exit path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <netinet/in.h>
#include <uapi/ampsoc/core_fault.h>

#include "ivshmem.h"
#include "soc.h"

#define MAX_CTL		8
#define MAX_FAULTS	16

enum {
	TAG_LISTEN = 1, TAG_GUEST, TAG_EV, TAG_TIMER, TAG_SIG, TAG_CTL_LISTEN,
	TAG_CTL, TAG_CONSOLE,
};

#define TAG(kind, idx)	(((uint64_t)(kind) << 32) | (uint32_t)(idx))

struct core_proc {
	pid_t pid;			/* 0: not running */
	int console;			/* read end, -1: none */
	int fault;			/* read end of its --fault-fd, -1: none */
	char line[512];
	size_t len;
	FILE *log;
};

struct ctl_conn {
	int fd;				/* -1: free */
	char buf[512];
	size_t len;
};

struct model {
	struct board board;
	struct soc soc;
	int shm_fd;
	int ram_fd;			/* --guest-ram, or -1 */
	void *shm;
	int listen_fd, guest_fd, ep, tfd, sfd, ctl_fd;
	int model_ev[VSOC_NR_VECTORS], guest_ev[VSOC_NR_VECTORS];
	int core_ev[VSOC_MAX_CORES];
	int gdb_fd[VSOC_MAX_CORES];	/* --gdb-base: listening, -1: none */
	struct core_proc proc[VSOC_MAX_CORES];
	struct ctl_conn ctl[MAX_CTL];
	struct timespec t0;
	char core_bin[PATH_MAX];
	const char *report_path, *log_dir, *pidfile;
	int firewall;			/* --firewall: -1 as the board says */
	bool stop;
	uint64_t armed;			/* deadline the timerfd holds */
	char exit_reason[64];
};

/* paths removed by the fatal-signal handler too */
static char sock_path[108], ctl_path[108];

static void cleanup_paths(void)
{
	if (sock_path[0])
		unlink(sock_path);
	if (ctl_path[0])
		unlink(ctl_path);
}

static void fatal_signal(int sig)
{
	cleanup_paths();
	signal(sig, SIG_DFL);
	raise(sig);
}

static uint64_t now_ns(struct model *m)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)(t.tv_sec - m->t0.tv_sec) * 1000000000ull +
	       t.tv_nsec - m->t0.tv_nsec;
}

static void ev_signal(int fd)
{
	uint64_t one = 1;

	if (fd >= 0 && write(fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		fprintf(stderr, "socmodel: eventfd write: %s\n", strerror(errno));
}

static void ev_drain(int fd)
{
	uint64_t v;

	while (read(fd, &v, sizeof(v)) == sizeof(v))
		;
}

/* ---------------- soc callbacks ---------------- */

static void cb_ring(void *ctx, unsigned int peer, unsigned int vector)
{
	struct model *m = ctx;

	if (peer == VSOC_PEER_GUEST && vector < VSOC_NR_VECTORS)
		ev_signal(m->guest_ev[vector]);
	else if (peer >= VSOC_PEER_CORE_BASE &&
		 peer - VSOC_PEER_CORE_BASE < m->board.nr_cores)
		ev_signal(m->core_ev[peer - VSOC_PEER_CORE_BASE]);
}

static void console_close(struct model *m, unsigned int i)
{
	struct core_proc *p = &m->proc[i];

	if (p->console >= 0) {
		epoll_ctl(m->ep, EPOLL_CTL_DEL, p->console, NULL);
		close(p->console);
		p->console = -1;
	}
}

static void fault_close(struct core_proc *p)
{
	if (p->fault >= 0) {
		close(p->fault);
		p->fault = -1;
	}
}

static void cb_core_stop(void *ctx, unsigned int i)
{
	struct model *m = ctx;
	struct core_proc *p = &m->proc[i];

	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		/* reaped later; a pid that is no longer current is ignored */
		p->pid = 0;
	}
	console_close(m, i);
	fault_close(p);
}

static const char *isa_name(uint32_t isa)
{
	switch (isa) {
	case AMPSOC_CORE_ISA_ARMV7M:
		return "armv7m";
	case AMPSOC_CORE_ISA_RV32IMAC:
		return "rv32imac";
	}
	return "x86_64";
}

/*
 * --gdb-base PORT: a gdb server for every emulated core, core i on
 * 127.0.0.1:PORT + i, or on a free port the kernel picks for each with
 * --gdb-base 0. The model owns the listening socket for its whole life and
 * hands it to each run of the core's runner (--gdb-fd), so the port stays
 * the same across restarts; native cores have no gdb server. The ports go
 * to stderr and, with --log-dir, to DIR/gdb-ports ("NAME ISA PORT" lines).
 */
static int gdb_listen(struct model *m, unsigned int base)
{
	FILE *f = NULL;
	char path[PATH_MAX];
	unsigned int i;

	if (m->log_dir) {
		snprintf(path, sizeof(path), "%s/gdb-ports", m->log_dir);
		f = fopen(path, "w");
	}
	for (i = 0; i < m->board.nr_cores; i++) {
		const struct board_core *bc = &m->board.core[i];
		struct sockaddr_in a = { .sin_family = AF_INET };
		socklen_t alen = sizeof(a);
		int one = 1, fd;

		if (bc->isa == AMPSOC_CORE_ISA_X86_64)
			continue;
		a.sin_port = htons(base ? base + i : 0);
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 ||
		    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
		    bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 1) ||
		    getsockname(fd, (struct sockaddr *)&a, &alen)) {
			fprintf(stderr, "socmodel: core %s: gdb port %u: %s\n",
				bc->name, base ? base + i : 0, strerror(errno));
			if (fd >= 0)
				close(fd);
			if (f)
				fclose(f);
			return -1;
		}
		m->gdb_fd[i] = fd;
		fprintf(stderr, "socmodel: core %s (%s): gdb server on 127.0.0.1:%u\n",
			bc->name, isa_name(bc->isa), ntohs(a.sin_port));
		if (f)
			fprintf(f, "%s %s %u\n", bc->name, isa_name(bc->isa),
				ntohs(a.sin_port));
	}
	if (f)
		fclose(f);
	return 0;
}

static int cb_core_start(void *ctx, unsigned int i, uint64_t entry,
			 const struct soc_ro *ro, unsigned int nr_ro)
{
	struct model *m = ctx;
	const struct board_core *bc = &m->board.core[i];
	struct core_proc *p = &m->proc[i];
	char args[100][64], *argv[104];
	int pipefd[2], faultfd[2], fds[10], nfds = 0, argc = 0, fl;
	unsigned int j, k;
	struct epoll_event ev;
	pid_t pid;

	if (access(m->core_bin, X_OK)) {
		fprintf(stderr, "socmodel: core %s: %s: %s\n", bc->name,
			m->core_bin, strerror(errno));
		return -ENOENT;
	}
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	/* the runner's fault record; the pipe holds it until the reap */
	if (pipe2(faultfd, O_CLOEXEC | O_NONBLOCK)) {
		int e = -errno;

		close(pipefd[0]);
		close(pipefd[1]);
		return e;
	}
	/* kicks that arrived while the core was down are not for this one */
	fl = fcntl(m->core_ev[i], F_GETFL);
	fcntl(m->core_ev[i], F_SETFL, fl | O_NONBLOCK);
	ev_drain(m->core_ev[i]);
	fcntl(m->core_ev[i], F_SETFL, fl & ~O_NONBLOCK);
	/*
	 * The words of Linux the last run left unread are, though: the new
	 * core's index carries on from the FIFO's tail. Like a mailbox
	 * interrupt, which is level-triggered, that FIFO is pending at reset.
	 */
	if (bc->mbox_tx != VSOC_NONE) {
		const struct board_mbox *mb = &m->board.mbox[bc->mbox_tx];
		struct vsoc_mbox_fifo *f = (void *)((char *)m->shm + mb->fifo_off);

		if (__atomic_load_n(&f->head, __ATOMIC_ACQUIRE) !=
		    __atomic_load_n(&f->tail, __ATOMIC_ACQUIRE))
			ev_signal(m->core_ev[i]);
	}

#define ARG(...) do {							\
		snprintf(args[argc], sizeof(args[0]), __VA_ARGS__);	\
		argv[argc] = args[argc];				\
		argc++;							\
	} while (0)
	argv[argc++] = m->core_bin;
	/* a native core is the runner's default */
	if (bc->isa != AMPSOC_CORE_ISA_X86_64) {
		ARG("--isa");
		ARG("%s", isa_name(bc->isa));
	}
	ARG("--name");
	ARG("%s", bc->name);
	ARG("--shm-fd");
	ARG("%d", m->shm_fd);
	fds[nfds++] = m->shm_fd;
	for (j = 0; j < bc->nr_mems; j++) {
		ARG("--map");
		ARG("0x%llx:0x%llx:0x%llx",
		    (unsigned long long)bc->mem[j].shm_off,
		    (unsigned long long)bc->mem[j].da,
		    (unsigned long long)bc->mem[j].size);
	}
	ARG("--entry");
	ARG("0x%llx", (unsigned long long)entry);
	ARG("--irq-fd");
	ARG("%d", m->core_ev[i]);
	fds[nfds++] = m->core_ev[i];
	for (k = 0; k < m->board.nr_mboxes; k++) {
		const struct board_mbox *mb = &m->board.mbox[k];

		if (mb->from != i || mb->to != VSOC_MBOX_EP_GUEST)
			continue;
		ARG("--kick-fd");
		ARG("%u:%d", mb->vector, m->guest_ev[mb->vector]);
		fds[nfds++] = m->guest_ev[mb->vector];
	}
	if (bc->mbox_tx != VSOC_NONE) {
		const struct board_mbox *mb = &m->board.mbox[bc->mbox_tx];

		ARG("--mbox-in");
		ARG("0x%llx:%u", (unsigned long long)mb->fifo_off, mb->depth);
	}
	if (bc->mbox_rx != VSOC_NONE) {
		const struct board_mbox *mb = &m->board.mbox[bc->mbox_rx];

		ARG("--mbox-out");
		ARG("0x%llx:%u:%u", (unsigned long long)mb->fifo_off, mb->depth,
		    mb->vector);
	}
	ARG("--console-fd");
	ARG("%d", pipefd[1]);
	fds[nfds++] = pipefd[1];
	ARG("--fault-fd");
	ARG("%d", faultfd[1]);
	fds[nfds++] = faultfd[1];
	if (bc->ddr_len) {
		ARG("--ram-fd");
		ARG("%d", m->ram_fd);
		fds[nfds++] = m->ram_fd;
		ARG("--ddr");
		ARG("0x%llx:0x%llx", (unsigned long long)bc->ddr_da,
		    (unsigned long long)bc->ddr_len);
	}
	for (j = 0; j < nr_ro && j < SOC_RO_MAX; j++) {
		ARG("--ro");
		ARG("0x%llx:0x%llx", (unsigned long long)ro[j].da,
		    (unsigned long long)ro[j].len);
	}
	if (m->gdb_fd[i] >= 0) {
		ARG("--gdb-fd");
		ARG("%d", m->gdb_fd[i]);
		fds[nfds++] = m->gdb_fd[i];
	}
	argv[argc] = NULL;
#undef ARG

	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(pipefd[0]);
		close(pipefd[1]);
		close(faultfd[0]);
		close(faultfd[1]);
		return e;
	}
	if (pid == 0) {
		sigset_t all;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(126);
		sigfillset(&all);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		for (k = 0; k < (unsigned int)nfds; k++)
			fcntl(fds[k], F_SETFD, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	close(faultfd[1]);
	console_close(m, i);
	fault_close(p);
	p->fault = faultfd[0];
	p->pid = pid;
	p->console = pipefd[0];
	p->len = 0;
	fcntl(p->console, F_SETFL, O_NONBLOCK);
	ev.events = EPOLLIN;
	ev.data.u64 = TAG(TAG_CONSOLE, i);
	epoll_ctl(m->ep, EPOLL_CTL_ADD, p->console, &ev);
	fprintf(stderr, "socmodel: core %s started (pid %d, entry 0x%llx, %u firewall ranges)\n",
		bc->name, pid, (unsigned long long)entry, nr_ro);
	return 0;
}

static const struct soc_ops model_ops = {
	.ring = cb_ring,
	.core_start = cb_core_start,
	.core_stop = cb_core_stop,
};

/* ---------------- processes ---------------- */

/* A core died by @sig: a crash, with its runner's fault record if any. */
static void core_signalled(struct model *m, unsigned int i, int sig)
{
	struct ampsoc_core_fault rec;
	uint8_t buf[sizeof(rec) + 1];
	const char *why;
	ssize_t n = -1;

	/* One write() of the runner: all of it is in the pipe, or nothing. */
	if (m->proc[i].fault >= 0)
		n = read(m->proc[i].fault, buf, sizeof(buf));
	soc_core_fault(&m->soc, i, sig, buf, n > 0 ? (size_t)n : 0, &why);
}

static void reap(struct model *m)
{
	unsigned int i;
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < m->board.nr_cores; i++) {
			if (m->proc[i].pid != pid)
				continue;
			m->proc[i].pid = 0;
			soc_set_time(&m->soc, now_ns(m));
			if (WIFSIGNALED(status))
				core_signalled(m, i, WTERMSIG(status));
			else
				soc_core_exited(&m->soc, i, VSOC_CRASH_EXIT,
						WEXITSTATUS(status));
			fault_close(&m->proc[i]);
		}
	}
}

static void console_read(struct model *m, unsigned int i)
{
	struct core_proc *p = &m->proc[i];
	char buf[512];
	ssize_t n, k;

	n = read(p->console, buf, sizeof(buf));
	if (n <= 0) {
		if (n == 0 || errno != EAGAIN)
			console_close(m, i);
		return;
	}
	for (k = 0; k < n; k++) {
		if (buf[k] == '\n' || p->len == sizeof(p->line) - 1) {
			p->line[p->len] = '\0';
			fprintf(stderr, "[%s] %s\n", m->board.core[i].name,
				p->line);
			if (p->log) {
				fprintf(p->log, "%s\n", p->line);
				fflush(p->log);
			}
			p->len = 0;
			if (buf[k] == '\n')
				continue;
		}
		p->line[p->len++] = buf[k];
	}
}

/* ---------------- control socket ---------------- */

static void write_all(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= w;
	}
}

static void write_report(struct model *m, FILE *f)
{
	soc_dump_state(&m->soc, f);
	soc_dump_violations(&m->soc, f);
	soc_dump_energy(&m->soc, f);
}

static void ctl_command(struct model *m, int fd, char *cmd)
{
	char *out = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return;
	soc_set_time(&m->soc, now_ns(m));
	soc_run_due(&m->soc);
	if (!strcmp(cmd, "state")) {
		soc_dump_state(&m->soc, f);
	} else if (!strcmp(cmd, "violations")) {
		soc_dump_violations(&m->soc, f);
	} else if (!strcmp(cmd, "energy")) {
		soc_dump_energy(&m->soc, f);
	} else if (!strcmp(cmd, "timeline")) {
		soc_dump_timeline(&m->soc, f);
	} else if (!strcmp(cmd, "report")) {
		write_report(m, f);
	} else if (!strncmp(cmd, "fault ", 6)) {
		if (soc_fault(&m->soc, cmd + 6, err, sizeof(err)))
			fprintf(f, "error: %s\n", err);
		else
			fprintf(f, "ok\n");
	} else if (!strncmp(cmd, "mark ", 5)) {
		if (soc_mark(&m->soc, cmd + 5, err, sizeof(err)))
			fprintf(f, "error: %s\n", err);
		else
			fprintf(f, "ok\n");
	} else if (!strcmp(cmd, "quit")) {
		snprintf(m->exit_reason, sizeof(m->exit_reason), "quit command");
		m->stop = true;
		fprintf(f, "ok\n");
	} else if (!strcmp(cmd, "help") || !*cmd) {
		fprintf(f, "commands: state violations energy timeline report fault mark quit\n");
	} else {
		fprintf(f, "error: unknown command '%s' (try help)\n", cmd);
	}
	fclose(f);
	write_all(fd, out, len);
	free(out);
}

static void ctl_close(struct model *m, struct ctl_conn *c)
{
	epoll_ctl(m->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
}

static void ctl_accept(struct model *m)
{
	struct timeval tmo = { .tv_sec = 2 };
	struct epoll_event ev = { .events = EPOLLIN };
	int fd, i;

	fd = accept4(m->ctl_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	for (i = 0; i < MAX_CTL; i++)
		if (m->ctl[i].fd < 0)
			break;
	if (i == MAX_CTL) {
		write_all(fd, "error: busy\n", 12);
		close(fd);
		return;
	}
	/* a client that stops reading must not stall the SoC for long */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tmo, sizeof(tmo));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
	m->ctl[i].fd = fd;
	m->ctl[i].len = 0;
	ev.data.u64 = TAG(TAG_CTL, i);
	epoll_ctl(m->ep, EPOLL_CTL_ADD, fd, &ev);
}

static void ctl_read(struct model *m, struct ctl_conn *c)
{
	ssize_t n = read(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
	char *nl;

	if (n <= 0) {
		ctl_close(m, c);
		return;
	}
	c->len += n;
	c->buf[c->len] = '\0';
	nl = strchr(c->buf, '\n');
	if (!nl) {
		if (c->len == sizeof(c->buf) - 1) {
			write_all(c->fd, "error: line too long\n", 21);
			ctl_close(m, c);
		}
		return;
	}
	*nl = '\0';
	ctl_command(m, c->fd, c->buf);
	/* one command per connection: the reply ends at EOF */
	ctl_close(m, c);
}

/* ---------------- guest connection ---------------- */

static void guest_accept(struct model *m)
{
	struct ivshmem_peer peers[1 + VSOC_MAX_CORES];
	int core_fds[VSOC_MAX_CORES][VSOC_NR_VECTORS];
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP };
	unsigned int i, v;
	int fd, r;

	fd = accept4(m->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (m->guest_fd >= 0) {
		fprintf(stderr, "socmodel: refusing a second client: one SoC serves one guest\n");
		close(fd);
		return;
	}
	peers[0].id = VSOC_PEER_MODEL;
	peers[0].fds = m->model_ev;
	for (i = 0; i < m->board.nr_cores; i++) {
		for (v = 0; v < VSOC_NR_VECTORS; v++)
			core_fds[i][v] = m->core_ev[i];
		peers[1 + i].id = VSOC_PEER_CORE_BASE + i;
		peers[1 + i].fds = core_fds[i];
	}
	r = ivshmem_greet(fd, VSOC_PEER_GUEST, m->shm_fd, peers,
			  1 + m->board.nr_cores, m->guest_ev, VSOC_NR_VECTORS);
	if (r) {
		/* the one guest went away while being greeted: end as below */
		fprintf(stderr, "socmodel: greeting the client failed: %s\n",
			strerror(-r));
		close(fd);
		snprintf(m->exit_reason, sizeof(m->exit_reason),
			 "guest disconnected during greeting");
		m->stop = true;
		return;
	}
	m->guest_fd = fd;
	ev.data.u64 = TAG(TAG_GUEST, 0);
	epoll_ctl(m->ep, EPOLL_CTL_ADD, fd, &ev);
	fprintf(stderr, "socmodel: guest connected as peer %d\n",
		VSOC_PEER_GUEST);
}

static void guest_event(struct model *m, uint32_t events)
{
	char buf[64];
	ssize_t n = read(m->guest_fd, buf, sizeof(buf));

	if (n > 0 && !(events & (EPOLLHUP | EPOLLRDHUP)))
		return;		/* clients never talk; ignore */
	if (n < 0 && errno == EAGAIN)
		return;
	fprintf(stderr, "socmodel: guest disconnected\n");
	snprintf(m->exit_reason, sizeof(m->exit_reason), "guest disconnected");
	m->stop = true;
}

/* ---------------- setup and loop ---------------- */

static void arm_timer(struct model *m)
{
	struct itimerspec it = { 0 };
	uint64_t d = soc_next_deadline(&m->soc), abs;

	/* the doorbell fast path should not pay a syscall for nothing */
	if (d == m->armed)
		return;
	m->armed = d;
	if (d != UINT64_MAX) {
		abs = (uint64_t)m->t0.tv_sec * 1000000000ull + m->t0.tv_nsec + d;
		it.it_value.tv_sec = abs / 1000000000ull;
		it.it_value.tv_nsec = abs % 1000000000ull;
		if (!it.it_value.tv_sec && !it.it_value.tv_nsec)
			it.it_value.tv_nsec = 1;
	}
	timerfd_settime(m->tfd, TFD_TIMER_ABSTIME, &it, NULL);
}

static int setup(struct model *m, const char *socket_path)
{
	struct epoll_event ev = { .events = EPOLLIN };
	unsigned int i;
	sigset_t set;
	int ret;

	m->shm_fd = memfd_create("ampsoc-vsoc", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (m->shm_fd < 0 || ftruncate(m->shm_fd, m->board.shm_size)) {
		perror("socmodel: shared memory");
		return -1;
	}
	fcntl(m->shm_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	m->shm = mmap(NULL, m->board.shm_size, PROT_READ | PROT_WRITE,
		      MAP_SHARED, m->shm_fd, 0);
	if (m->shm == MAP_FAILED) {
		perror("socmodel: mmap");
		m->shm = NULL;
		return -1;
	}
	for (i = 0; i < VSOC_NR_VECTORS; i++) {
		m->model_ev[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		m->guest_ev[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (m->model_ev[i] < 0 || m->guest_ev[i] < 0) {
			perror("socmodel: eventfd");
			return -1;
		}
	}
	for (i = 0; i < m->board.nr_cores; i++) {
		/* blocking: the core may simply read() it */
		m->core_ev[i] = eventfd(0, EFD_CLOEXEC);
		if (m->core_ev[i] < 0) {
			perror("socmodel: eventfd");
			return -1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &m->t0);
	ret = soc_init(&m->soc, &m->board, m->shm, m->board.shm_size,
		       &model_ops, m);
	if (ret) {
		fprintf(stderr, "socmodel: cannot start the SoC: %s\n",
			strerror(-ret));
		return -1;
	}
	m->listen_fd = unix_listen(socket_path);
	if (m->listen_fd < 0) {
		fprintf(stderr, "socmodel: %s: %s\n", socket_path,
			strerror(-m->listen_fd));
		return -1;
	}
	snprintf(sock_path, sizeof(sock_path), "%s", socket_path);
	m->ctl_fd = unix_listen(ctl_path);
	if (m->ctl_fd < 0) {
		fprintf(stderr, "socmodel: %s: %s\n", ctl_path,
			strerror(-m->ctl_fd));
		ctl_path[0] = '\0';
		return -1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	m->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	m->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	m->ep = epoll_create1(EPOLL_CLOEXEC);
	if (m->sfd < 0 || m->tfd < 0 || m->ep < 0) {
		perror("socmodel: signalfd, timerfd or epoll");
		return -1;
	}
	ev.data.u64 = TAG(TAG_LISTEN, 0);
	epoll_ctl(m->ep, EPOLL_CTL_ADD, m->listen_fd, &ev);
	ev.data.u64 = TAG(TAG_CTL_LISTEN, 0);
	epoll_ctl(m->ep, EPOLL_CTL_ADD, m->ctl_fd, &ev);
	ev.data.u64 = TAG(TAG_TIMER, 0);
	epoll_ctl(m->ep, EPOLL_CTL_ADD, m->tfd, &ev);
	ev.data.u64 = TAG(TAG_SIG, 0);
	epoll_ctl(m->ep, EPOLL_CTL_ADD, m->sfd, &ev);
	for (i = 0; i < VSOC_NR_VECTORS; i++) {
		ev.data.u64 = TAG(TAG_EV, i);
		epoll_ctl(m->ep, EPOLL_CTL_ADD, m->model_ev[i], &ev);
	}
	return 0;
}

static void loop(struct model *m)
{
	struct epoll_event evs[16];
	struct signalfd_siginfo si;
	int n, i;

	while (!m->stop) {
		arm_timer(m);
		/* an idle model still refreshes time and energy in telemetry */
		n = epoll_wait(m->ep, evs, 16, 100);
		if (n == 0) {
			soc_set_time(&m->soc, now_ns(m));
			soc_publish(&m->soc);
			continue;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("socmodel: epoll_wait");
			snprintf(m->exit_reason, sizeof(m->exit_reason), "epoll error");
			return;
		}
		for (i = 0; i < n && !m->stop; i++) {
			uint32_t kind = evs[i].data.u64 >> 32;
			uint32_t idx = (uint32_t)evs[i].data.u64;
			uint64_t v;

			soc_set_time(&m->soc, now_ns(m));
			switch (kind) {
			case TAG_EV:
				if (read(m->model_ev[idx], &v, sizeof(v)) == sizeof(v))
					soc_doorbell(&m->soc, idx);
				soc_run_due(&m->soc);
				break;
			case TAG_TIMER:
				if (read(m->tfd, &v, sizeof(v)) < 0)
					v = 0;
				m->armed = UINT64_MAX;	/* it fired */
				soc_run_due(&m->soc);
				break;
			case TAG_LISTEN:
				guest_accept(m);
				break;
			case TAG_GUEST:
				guest_event(m, evs[i].events);
				break;
			case TAG_CTL_LISTEN:
				ctl_accept(m);
				break;
			case TAG_CTL:
				ctl_read(m, &m->ctl[idx]);
				break;
			case TAG_CONSOLE:
				if (m->proc[idx].console >= 0)
					console_read(m, idx);
				break;
			case TAG_SIG:
				while (read(m->sfd, &si, sizeof(si)) == sizeof(si)) {
					if (si.ssi_signo == SIGCHLD) {
						reap(m);
						continue;
					}
					snprintf(m->exit_reason,
						 sizeof(m->exit_reason),
						 "signal %u", si.ssi_signo);
					m->stop = true;
				}
				break;
			}
		}
	}
}

static void teardown(struct model *m)
{
	unsigned int i;
	FILE *f;

	for (i = 0; i < m->board.nr_cores; i++) {
		if (m->proc[i].pid > 0) {
			kill(m->proc[i].pid, SIGKILL);
			waitpid(m->proc[i].pid, NULL, 0);
			m->proc[i].pid = 0;
		}
		if (m->proc[i].log)
			fclose(m->proc[i].log);
		fault_close(&m->proc[i]);
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	if (m->shm) {
		soc_set_time(&m->soc, now_ns(m));
		if (m->report_path) {
			char tmp[PATH_MAX];

			snprintf(tmp, sizeof(tmp), "%s.tmp", m->report_path);
			f = fopen(tmp, "w");
			if (f) {
				write_report(m, f);
				fprintf(f, "exit %s\n", m->exit_reason);
				if (!fclose(f))
					rename(tmp, m->report_path);
			}
		}
		if (m->log_dir) {
			char p[PATH_MAX];

			snprintf(p, sizeof(p), "%s/timeline.txt", m->log_dir);
			f = fopen(p, "w");
			if (f) {
				soc_dump_timeline(&m->soc, f);
				fclose(f);
			}
		}
	}
	cleanup_paths();
	if (m->pidfile)
		unlink(m->pidfile);
	soc_free(&m->soc);
	fprintf(stderr, "socmodel: exit (%s)\n", m->exit_reason);
}

/*
 * Damage the published table the way a guest must notice: a bad CRC, a
 * bad magic, an unknown major version, or (with a valid CRC, so that
 * only the structural checks catch it) an index out of range or a cycle.
 * The model keeps running on its own copy of the board.
 */
static int corrupt_table(struct model *m, const char *how)
{
	struct vsoc_board_header *h = m->shm;
	struct vsoc_domain_desc *d = (void *)((uint8_t *)m->shm + h->domains.offset);
	struct vsoc_periph_desc *p = (void *)((uint8_t *)m->shm + h->periphs.offset);

	if (!strcmp(how, "crc")) {
		h->checksum ^= 0x1;
		return 0;
	}
	if (!strcmp(how, "magic")) {
		h->magic = 0x21444142;
	} else if (!strcmp(how, "version")) {
		h->version = (VSOC_VERSION_MAJOR + 1) << 16;
	} else if (!strcmp(how, "index") && h->periphs.count) {
		p[0].domain = h->domains.count + 5;
	} else if (!strcmp(how, "cycle") && h->domains.count >= 2) {
		d[0].parent = 1;
		d[1].parent = 0;
	} else {
		fprintf(stderr, "socmodel: --corrupt-table %s: %s\n", how,
			"want crc, magic, version, index or cycle");
		return -1;
	}
	h->checksum = crc32(0, (uint8_t *)m->shm + VSOC_CSUM_START,
			    h->size - VSOC_CSUM_START);
	return 0;
}

/*
 * --check: write @b's table as the model would publish it and run Linux's
 * checker on it. Returns 0, or -1 with one line on stderr.
 */
static int check_table(const struct board *b, const char *path)
{
	char err[BOARD_ERR_LEN];
	void *t = calloc(1, b->table_size);
	int ret;

	if (!t) {
		fprintf(stderr, "%s: no memory for the board table\n", path);
		return -1;
	}
	ret = table_check(t, board_write_table(b, t), b->shm_size, err,
			  sizeof(err));
	if (ret)
		fprintf(stderr, "%s: the table written fails Linux's check: %s\n",
			path, err);
	free(t);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ampsoc-socmodel --socket PATH [options]\n"
		"       ampsoc-socmodel --check BOARD\n"
		"  --board PATH      board file (default: %s)\n"
		"  --socket PATH     ivshmem server socket for QEMU's chardev\n"
		"  --ctl PATH        control socket (default: SOCKET.ctl)\n"
		"  --core-bin PATH   remote-core runner (default: ampsoc-core next to this program)\n"
		"  --report PATH     write the final report there on exit\n"
		"  --log-dir DIR     core console logs and the timeline go there\n"
		"  --fault SPEC      inject a fault at start (repeatable)\n"
		"  --daemon          detach once ready; --pidfile PATH gets the pid\n"
		"  --corrupt-table crc|magic|version|index|cycle\n"
		"                    publish a damaged board table (guest negative tests)\n"
		"  --firewall on|off every core's vring firewall, whatever the board says\n"
		"  --guest-ram PATH  the guest's RAM (a shared QEMU memory backend file):\n"
		"                    cores with a ddr key see it there\n"
		"  --gdb-base PORT   a gdb server per emulated core i on 127.0.0.1:PORT+i\n"
		"                    (0: any free port; LOG-DIR/gdb-ports lists them)\n",
		DEFAULT_BOARD);
}

/*
 * --guest-ram: the file behind the guest's RAM (QEMU's memory backend,
 * shared). Every core with a ddr key sees its first ddr_size bytes (at
 * most the file's size, whole pages) at its ddr device address.
 */
static int open_guest_ram(struct model *m, const char *path)
{
	struct stat st;
	unsigned int i;

	m->ram_fd = open(path, O_RDWR | O_CLOEXEC);
	if (m->ram_fd < 0 || fstat(m->ram_fd, &st) || st.st_size <= 0) {
		fprintf(stderr, "socmodel: --guest-ram %s: %s\n", path,
			m->ram_fd < 0 ? strerror(errno) : "empty");
		return -1;
	}
	for (i = 0; i < m->board.nr_cores; i++) {
		struct board_core *bc = &m->board.core[i];
		uint64_t len = bc->ddr_size;

		if ((uint64_t)st.st_size < len)
			len = (uint64_t)st.st_size & ~(uint64_t)(VSOC_PAGE_SIZE - 1);
		bc->ddr_len = len;
		if (len)
			fprintf(stderr, "socmodel: core %s sees guest RAM [0, 0x%llx) at 0x%llx\n",
				bc->name, (unsigned long long)len,
				(unsigned long long)bc->ddr_da);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "socket", required_argument, NULL, 's' },
		{ "ctl", required_argument, NULL, 'c' },
		{ "core-bin", required_argument, NULL, 'x' },
		{ "report", required_argument, NULL, 'r' },
		{ "log-dir", required_argument, NULL, 'l' },
		{ "fault", required_argument, NULL, 'f' },
		{ "daemon", no_argument, NULL, 'd' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "check", required_argument, NULL, 'k' },
		{ "corrupt-table", required_argument, NULL, 'C' },
		{ "firewall", required_argument, NULL, 'w' },
		{ "guest-ram", required_argument, NULL, 'R' },
		{ "gdb-base", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct model model;
	struct model *m = &model;
	const char *board = DEFAULT_BOARD, *sock = NULL, *faults[MAX_FAULTS];
	char err[BOARD_ERR_LEN], self[PATH_MAX];
	int o, nfaults = 0, i, rc = 1;
	bool daemonize = false;
	const char *corrupt = NULL, *guest_ram = NULL;
	int ready_fd = -1;
	long gdb_base = 0;
	bool want_gdb = false;
	char *end;
	ssize_t n;

	m->listen_fd = -1;
	m->guest_fd = -1;
	m->ep = -1;
	m->tfd = -1;
	m->sfd = -1;
	m->ctl_fd = -1;
	m->shm_fd = -1;
	m->ram_fd = -1;
	m->armed = UINT64_MAX;
	m->firewall = -1;
	for (i = 0; i < VSOC_MAX_CORES; i++) {
		m->proc[i].console = -1;
		m->proc[i].fault = -1;
		m->gdb_fd[i] = -1;
	}
	for (i = 0; i < MAX_CTL; i++)
		m->ctl[i].fd = -1;
	snprintf(m->exit_reason, sizeof(m->exit_reason), "setup failed");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	snprintf(m->core_bin, sizeof(m->core_bin), "%s/ampsoc-core",
		 n > 0 ? dirname(self) : ".");

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'b':
			board = optarg;
			break;
		case 's':
			sock = optarg;
			break;
		case 'c':
			snprintf(ctl_path, sizeof(ctl_path), "%s", optarg);
			break;
		case 'x':
			snprintf(m->core_bin, sizeof(m->core_bin), "%s", optarg);
			break;
		case 'r':
			m->report_path = optarg;
			break;
		case 'l':
			m->log_dir = optarg;
			break;
		case 'p':
			m->pidfile = optarg;
			break;
		case 'd':
			daemonize = true;
			break;
		case 'C':
			corrupt = optarg;
			break;
		case 'w':
			if (strcmp(optarg, "on") && strcmp(optarg, "off")) {
				fprintf(stderr, "socmodel: --firewall %s: want on or off\n",
					optarg);
				return 2;
			}
			m->firewall = !strcmp(optarg, "on");
			break;
		case 'g':
			gdb_base = strtol(optarg, &end, 0);
			if (*end || (gdb_base && gdb_base < 1024) ||
			    gdb_base > 65535 - VSOC_MAX_CORES) {
				fprintf(stderr, "socmodel: --gdb-base %s: %s 1024..%d\n",
					optarg, "want 0 (any) or a port in",
					65535 - VSOC_MAX_CORES);
				return 2;
			}
			want_gdb = true;
			break;
		case 'f':
			if (nfaults == MAX_FAULTS) {
				fprintf(stderr, "socmodel: too many --fault\n");
				return 2;
			}
			faults[nfaults++] = optarg;
			break;
		case 'R':
			guest_ram = optarg;
			break;
		case 'k':
			if (board_load(&m->board, optarg, err, sizeof(err))) {
				fprintf(stderr, "%s\n", err);
				return 1;
			}
			if (check_table(&m->board, optarg))
				return 1;
			printf("%s: board '%s': %u domains, %u clocks, ",
			       optarg, m->board.name, m->board.nr_domains,
			       m->board.nr_clocks);
			printf("%u periphs, %u cores, %u mboxes, shm 0x%llx\n",
			       m->board.nr_periphs, m->board.nr_cores,
			       m->board.nr_mboxes,
			       (unsigned long long)m->board.shm_size);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!sock || optind != argc) {
		usage(stderr);
		return 2;
	}
	if (strlen(sock) + 5 > sizeof(sock_path)) {
		fprintf(stderr, "socmodel: socket path too long\n");
		return 2;
	}
	if (!ctl_path[0])
		snprintf(ctl_path, sizeof(ctl_path), "%s.ctl", sock);
	if (board_load(&m->board, board, err, sizeof(err))) {
		fprintf(stderr, "socmodel: %s\n", err);
		return 1;
	}
	if (m->firewall >= 0)
		board_force_firewall(&m->board, m->firewall);
	if (guest_ram && open_guest_ram(m, guest_ram))
		return 1;
	if (want_gdb && gdb_listen(m, gdb_base))
		return 1;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGSEGV, fatal_signal);
	signal(SIGBUS, fatal_signal);
	signal(SIGABRT, fatal_signal);
	signal(SIGFPE, fatal_signal);
	signal(SIGILL, fatal_signal);

	/*
	 * Detach before creating anything: an epoll set watching a signalfd
	 * does not follow it across fork(). The parent returns once the child
	 * reports ready, so "started" means "listening".
	 */
	if (daemonize) {
		int ready[2];
		pid_t pid;
		char c;

		if (pipe2(ready, O_CLOEXEC)) {
			perror("socmodel: pipe");
			return 1;
		}
		pid = fork();
		if (pid < 0) {
			perror("socmodel: fork");
			return 1;
		}
		if (pid > 0) {
			close(ready[1]);
			_exit(read(ready[0], &c, 1) == 1 ? 0 : 1);
		}
		close(ready[0]);
		ready_fd = ready[1];
		setsid();
		/* keep no pipe of the caller open (stderr is its log file) */
		i = open("/dev/null", O_RDWR);
		if (i >= 0) {
			dup2(i, 0);
			dup2(i, 1);
			if (i > 2)
				close(i);
		}
	}
	if (setup(m, sock))
		goto out;
	if (corrupt && corrupt_table(m, corrupt))
		goto out;
	for (i = 0; i < nfaults; i++)
		if (soc_fault(&m->soc, faults[i], err, sizeof(err))) {
			fprintf(stderr, "socmodel: %s\n", err);
			goto out;
		}
	for (i = 0; m->log_dir && i < (int)m->board.nr_cores; i++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/core-%s.log", m->log_dir,
			 m->board.core[i].name);
		m->proc[i].log = fopen(p, "w");
	}
	if (m->pidfile) {
		FILE *f = fopen(m->pidfile, "w");

		if (f) {
			fprintf(f, "%d\n", getpid());
			fclose(f);
		}
	}
	if (ready_fd >= 0) {
		if (write(ready_fd, "R", 1) != 1)
			goto out;
		close(ready_fd);
		ready_fd = -1;
	}
	fprintf(stderr, "socmodel: board '%s' (%s), shm 0x%llx\n",
		m->board.name, m->board.path,
		(unsigned long long)m->board.shm_size);
	fprintf(stderr, "socmodel: listening on %s, control %s\n", sock,
		ctl_path);
	snprintf(m->exit_reason, sizeof(m->exit_reason), "running");
	loop(m);
	rc = 0;
out:
	teardown(m);
	return rc;
}
