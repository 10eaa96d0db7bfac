// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_remote: the guest agent of the coverage-guided remote
 * (docs/fuzz-remote.md). It hands programs to ampsoc-fuzz-remote (running
 * on a core) over an rpmsg endpoint, and reads the coverage that the
 * transport's rx passes and the resource manager's work collect for it
 * through kcov's remote mode (common handle, debugfs kcov_handle of
 * ampsoc_rpmsg and ampsoc_resmgr).
 *
 *   fuzz_remote fuzz RPROC SECONDS CORPUS SEED
 *       mutate the programs of CORPUS (one hex program a line) for
 *       SECONDS, keep those that reach a new edge; prints on stdout
 *       "# fz-mod NAME TEXT" (module .text addresses), "# fz-new HEX"
 *       (a program kept), "# fz-pc PC..." (new program counters) and
 *       "# fz-stats ..." at the end. Refuses without kcov.
 *   fuzz_remote replay RPROC CORPUS
 *       runs every program of CORPUS once, as KTAP.
 *
 * RPROC is the core's /sys/class/remoteproc/remoteprocN. Before each
 * program, "fuzz-remote: exec N HEX" goes to the kernel log, so that a
 * report on the console is preceded by its reproducer.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/kcov.h>
#include <linux/rpmsg.h>

#include "guest_util.h"
#include "ktap_user.h"
#include "prog.h"

#define COVER_WORDS	(512 * 1024)
#define PC_SET_BITS	17
#define EDGE_BITS	22
#define MAX_CORPUS	4096
#define DONE_MS		3000
#define RECOVER_S	40

struct prog {
	uint8_t b[FZ_MAX_OPS * FZ_OP_SIZE];
	uint32_t len;
};

static const char *rproc, *rproc_dbg;
static char rproc_name[64];
static int ctrl_fd = -1, ept_fd = -1;
static unsigned long *cover;
static uint64_t pcs[1u << PC_SET_BITS];
static unsigned long nr_pcs, nr_edges, execs, lost, recoveries;
static uint8_t edges[1u << (EDGE_BITS - 3)];
static struct prog corpus[MAX_CORPUS];
static unsigned int nr_corpus;
static uint64_t rng = 1;
static double t_start;
/* replay: count coverage, print none of it */
static bool quiet;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 32;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void hex(const struct prog *p, char *out)
{
	uint32_t i;

	for (i = 0; i < p->len; i++)
		sprintf(out + 2 * i, "%02x", p->b[i]);
	out[2 * p->len] = '\0';
}

static bool unhex(const char *s, struct prog *p)
{
	unsigned int v;

	p->len = 0;
	while (s[0] && s[1] && s[0] != '\n' && p->len < sizeof(p->b)) {
		if (sscanf(s, "%2x", &v) != 1)
			return false;
		p->b[p->len++] = v;
		s += 2;
	}
	p->len -= p->len % FZ_OP_SIZE;
	return true;
}

static void load_corpus(const char *path)
{
	char line[2 * sizeof(corpus[0].b) + 8];
	FILE *f = fopen(path, "r");

	while (f && nr_corpus < MAX_CORPUS && fgets(line, sizeof(line), f))
		if (line[0] != '#' && line[0] != '\n' &&
		    unhex(line, &corpus[nr_corpus]))
			nr_corpus++;
	if (f)
		fclose(f);
}

/* ---- the firmware's control endpoint ----------------------------------- */

/* The /dev/rpmsg_ctrlN of the rpmsg bus on our core, or -1. */
static int open_ctrl(void)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct dirent *de;
	int fd = -1;
	DIR *d = opendir("/sys/class/rpmsg");

	while (d && fd < 0 && (de = readdir(d))) {
		if (strncmp(de->d_name, "rpmsg_ctrl", 10))
			continue;
		snprintf(path, sizeof(path), "/sys/class/rpmsg/%s", de->d_name);
		if (!realpath(path, real) || !strstr(real, rproc_name))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		fd = open(path, O_RDWR);
	}
	if (d)
		closedir(d);
	return fd;
}

static void close_ept(void)
{
	if (ept_fd >= 0)
		close(ept_fd);
	if (ctrl_fd >= 0)
		close(ctrl_fd);
	ept_fd = -1;
	ctrl_fd = -1;
}

/*
 * Send @p and wait for the firmware's "done". Other messages (the
 * program's own, sent to us) are read and dropped. Returns false if none
 * came in time.
 */
static bool run_one(const struct prog *p, int ms)
{
	char buf[600];
	double end = now_s() + ms / 1000.0;
	struct pollfd pfd = { .fd = ept_fd, .events = POLLIN };
	ssize_t n;

	memcpy(buf, FZ_MAGIC, FZ_MAGIC_LEN);
	memcpy(buf + FZ_MAGIC_LEN, p->b, p->len);
	if (ept_fd < 0 || write(ept_fd, buf, FZ_MAGIC_LEN + p->len) < 0)
		return false;
	while (now_s() < end) {
		if (poll(&pfd, 1, (int)((end - now_s()) * 1000) + 1) <= 0)
			continue;
		/* a dead transport or a removed endpoint */
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
			return false;
		n = read(ept_fd, buf, sizeof(buf));
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n < 0)
			return false;
		if (n == 4 && !memcmp(buf, "done", 4))
			return true;
	}
	return false;
}

static bool open_ept(void)
{
	static const struct prog empty;

	close_ept();
	ctrl_fd = open_ctrl();
	if (ctrl_fd < 0)
		return false;
	ept_fd = rpmsg_ept_open(ctrl_fd, "fz-agent", RPMSG_ADDR_ANY, FZ_CTL_ADDR, NULL);
	if (ept_fd < 0)
		return false;
	/* Never block in read or write: the transport may die under them. */
	fcntl(ept_fd, F_SETFL, O_NONBLOCK);
	return run_one(&empty, 1000);
}

/*
 * The core did not answer: report a crash (whether it crashed already or
 * its transport is dead; remoteproc ignores it while it recovers) and wait
 * until a firmware answers again.
 */
static bool recover(void)
{
	char path[PATH_MAX];
	double t0 = now_s(), end = t0 + RECOVER_S, next_crash = t0 + 1;

	close_ept();
	recoveries++;
	snprintf(path, sizeof(path), "%s/crash", rproc_dbg);
	while (now_s() < end) {
		/*
		 * A core that crashed is being recovered already (within a
		 * second): only one whose transport died, or that hangs,
		 * needs the report.
		 */
		if (now_s() >= next_crash) {
			write_file(path, "2");
			next_crash = now_s() + 10;
		}
		if (open_ept())
			return true;
		usleep(200000);
	}
	return false;
}

/* ---- coverage -------------------------------------------------------- */

static bool pc_add(uint64_t pc)
{
	uint32_t h = (uint32_t)((pc * 0x9e3779b97f4a7c15ull) >> (64 - PC_SET_BITS));

	while (pcs[h]) {
		if (pcs[h] == pc)
			return false;
		h = (h + 1) & ((1u << PC_SET_BITS) - 1);
	}
	if (nr_pcs + 1 >= (1u << PC_SET_BITS) / 2)
		return false;
	pcs[h] = pc;
	nr_pcs++;
	return true;
}

static int kcov_setup(void)
{
	struct kcov_remote_arg *arg;
	int fd = open("/sys/kernel/debug/kcov", O_RDWR);

	if (fd < 0)
		return -1;
	if (ioctl(fd, KCOV_INIT_TRACE, COVER_WORDS))
		return -1;
	cover = mmap(NULL, COVER_WORDS * sizeof(unsigned long),
		     PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	arg = calloc(1, sizeof(*arg));
	if (cover == MAP_FAILED || !arg)
		return -1;
	arg->trace_mode = KCOV_TRACE_PC;
	arg->area_size = COVER_WORDS;
	arg->common_handle = kcov_remote_handle(KCOV_SUBSYSTEM_COMMON,
						getpid() & 0xffffffffu);
	if (ioctl(fd, KCOV_REMOTE_ENABLE, arg))
		return -1;
	if (write_file("/sys/kernel/debug/ampsoc_rpmsg/kcov_handle", "1") ||
	    write_file("/sys/kernel/debug/ampsoc_resmgr/kcov_handle", "1"))
		return -1;
	return fd;
}

/*
 * Fold this run's trace into the edge map and the PC set; print new PCs.
 * Returns how many new edges it had.
 */
static unsigned int cover_collect(void)
{
	static char pcl[160], edl[200];
	unsigned long n, i, prev = 0, pc;
	unsigned int fresh = 0, np = 0, ne = 0;
	int lp = 0, le = 0;
	uint32_t e;

	if (!cover)
		return 0;
	n = __atomic_load_n(&cover[0], __ATOMIC_RELAXED);
	if (n > COVER_WORDS - 1)
		n = COVER_WORDS - 1;
	for (i = 0; i < n; i++) {
		pc = cover[i + 1];
		e = (uint32_t)(((prev >> 1) ^ pc) * 0x9e3779b1u) >> (32 - EDGE_BITS);
		if (!(edges[e >> 3] & (1u << (e & 7)))) {
			edges[e >> 3] |= 1u << (e & 7);
			nr_edges++;
			fresh++;
			le += sprintf(edl + le, " %lx:%lx", prev, pc);
			if (++ne == 4) {
				if (!quiet)
					printf("# fz-edge%s\n", edl);
				ne = 0;
				le = 0;
			}
		}
		prev = pc;
		if (pc_add(pc)) {
			lp += sprintf(pcl + lp, " %lx", pc);
			if (++np == 8) {
				if (!quiet)
					printf("# fz-pc%s\n", pcl);
				np = 0;
				lp = 0;
			}
		}
	}
	if (np && !quiet)
		printf("# fz-pc%s\n", pcl);
	if (ne && !quiet)
		printf("# fz-edge%s\n", edl);
	__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
	return fresh;
}

/* ---- programs -------------------------------------------------------- */

static const uint32_t magic[] = {
	0, 1, 53, 54, 1024, 1100, 0x400, 0xffffffff, 0x7fffffff, 16, 496, 512,
	0x10000, 0xffff,
};

static void rnd_op(uint8_t *o)
{
	static const uint8_t kinds[] = {
		FZ_MSG, FZ_MSG, FZ_MSG, FZ_MSG, FZ_MSG, FZ_NS, FZ_NS, FZ_NS,
		FZ_RESMGR, FZ_RESMGR, FZ_RESMGR, FZ_FLOOD, FZ_EPT, FZ_EPT,
		FZ_SLEEP, FZ_MSG, FZ_NS, FZ_RESMGR, FZ_RING, FZ_CRASH,
	};
	struct fz_op op;

	op.kind = kinds[rnd() % sizeof(kinds)];
	op.a = rnd();
	op.b = rnd() % 3 ? rnd() % 16 : rnd();
	op.c = rnd() % 2 ? magic[rnd() % (ARRAY_SIZE(magic))] : rnd();
	op.d = rnd() % 2 ? rnd() % 512 : rnd();
	/* the expensive ones (a recovery each) stay rare */
	if ((op.kind == FZ_RING || op.kind == FZ_CRASH) && rnd() % 4)
		op.kind = FZ_MSG;
	memcpy(o, &op, sizeof(op));
}

static void mutate(struct prog *p)
{
	unsigned int n = 1 + rnd() % 3, k, ops, i;
	const struct prog *q;

	for (k = 0; k < n; k++) {
		ops = p->len / FZ_OP_SIZE;
		i = ops ? rnd() % ops : 0;
		switch (rnd() % 7) {
		case 0:		/* insert */
			if (ops >= FZ_MAX_OPS)
				break;
			memmove(p->b + (i + 1) * FZ_OP_SIZE, p->b + i * FZ_OP_SIZE,
				(ops - i) * FZ_OP_SIZE);
			rnd_op(p->b + i * FZ_OP_SIZE);
			p->len += FZ_OP_SIZE;
			break;
		case 1:		/* delete */
			if (ops < 2)
				break;
			memmove(p->b + i * FZ_OP_SIZE, p->b + (i + 1) * FZ_OP_SIZE,
				(ops - i - 1) * FZ_OP_SIZE);
			p->len -= FZ_OP_SIZE;
			break;
		case 2:		/* replace */
			if (ops)
				rnd_op(p->b + i * FZ_OP_SIZE);
			break;
		case 3:		/* a magic value into a field */
			if (ops) {
				uint32_t v = magic[rnd() % (ARRAY_SIZE(magic))];

				memcpy(p->b + i * FZ_OP_SIZE + 4 + 4 * (rnd() % 2), &v, 4);
			}
			break;
		case 4:		/* splice another program's tail */
			if (!nr_corpus)
				break;
			q = &corpus[rnd() % nr_corpus];
			k = q->len ? rnd() % (q->len / FZ_OP_SIZE) * FZ_OP_SIZE : 0;
			i = ops ? (i + 1) * FZ_OP_SIZE : 0;
			if (i + q->len - k > sizeof(p->b))
				break;
			memcpy(p->b + i, q->b + k, q->len - k);
			p->len = i + q->len - k;
			k = n;
			break;
		default:	/* flip bits */
			if (p->len)
				p->b[rnd() % p->len] ^= 1u << (rnd() % 8);
			break;
		}
	}
	if (!p->len) {
		rnd_op(p->b);
		p->len = FZ_OP_SIZE;
	}
}

/* Run @p with its reproducer in the kernel log; recover a lost core. */
static bool exec_prog(const struct prog *p)
{
	char line[2 * sizeof(p->b) + 64];
	bool ok;
	int n;

	n = snprintf(line, sizeof(line), "<5>fuzz-remote: exec %lu %.1f ", execs,
		     now_s() - t_start);
	hex(p, line + n);
	write_file("/dev/kmsg", line);
	execs++;
	ok = run_one(p, DONE_MS);
	if (!ok) {
		lost++;
		if (!recover()) {
			printf("# fz-error the core did not come back\n");
			return false;
		}
	}
	return true;
}

static void print_modules(void)
{
	static const char *const mods[] = {
		"ampsoc_rpmsg", "ampsoc_rpmsg_virtio", "ampsoc_rpmsg_resmgr",
	};
	char path[128], buf[64];
	unsigned int i;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(mods); i++) {
		snprintf(path, sizeof(path), "/sys/module/%s/sections/.text", mods[i]);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f))
			printf("# fz-mod %s %s", mods[i], buf);
		if (f)
			fclose(f);
	}
}

static int setup(const char *rp)
{
	t_start = now_s();
	char path[PATH_MAX];
	const char *base;

	rproc = rp;
	base = strrchr(rp, '/');
	base = base ? base + 1 : rp;
	snprintf(rproc_name, sizeof(rproc_name), "/%s/", base);
	snprintf(path, sizeof(path), "/sys/kernel/debug/remoteproc/%s", base);
	rproc_dbg = strdup(path);
	return open_ept() || recover() ? 0 : -1;
}

static int fuzz(int argc, char **argv)
{
	double end, t0;
	unsigned int fresh;
	char out[2 * sizeof(corpus[0].b) + 1];
	struct prog p;
	bool blind;

	if (argc < 6)
		return 2;
	blind = argc > 6 && !strcmp(argv[6], "blind");
	rng = strtoull(argv[5], NULL, 0) ?: 1;
	if (kcov_setup() < 0 && !blind) {
		printf("# fz-nokcov this kernel has no kcov remote coverage: refusing\n");
		return 3;
	}
	load_corpus(argv[4]);
	print_modules();
	if (setup(argv[2])) {
		printf("# fz-error no control endpoint on %s\n", argv[2]);
		return 1;
	}
	fflush(stdout);
	t0 = now_s();
	end = t0 + atof(argv[3]);
	/* the corpus first: its coverage is the base */
	for (unsigned int i = 0; i < nr_corpus && now_s() < end; i++) {
		if (!exec_prog(&corpus[i]))
			return 1;
		cover_collect();
	}
	printf("# fz-base corpus %u pcs %lu edges %lu\n", nr_corpus, nr_pcs, nr_edges);
	while (now_s() < end) {
		if (nr_corpus && rnd() % 8)
			p = corpus[rnd() % nr_corpus];
		else
			p.len = 0;
		mutate(&p);
		if (!exec_prog(&p))
			return 1;
		fresh = cover_collect();
		if ((fresh || blind) && nr_corpus < MAX_CORPUS && !(blind && rnd() % 16)) {
			corpus[nr_corpus++] = p;
			hex(&p, out);
			printf("# fz-new %u %s\n", fresh, out);
		}
		fflush(stdout);
	}
	printf("# fz-stats execs %lu seconds %.1f lost %lu recoveries %lu",
	       execs, now_s() - t0, lost, recoveries);
	printf(" corpus %u pcs %lu edges %lu\n", nr_corpus, nr_pcs, nr_edges);
	close_ept();
	return 0;
}

static int replay(int argc, char **argv)
{
	unsigned int i, done = 0;
	bool have_kcov;

	if (argc < 4)
		return 2;
	quiet = true;
	ktap_plan(4);
	load_corpus(argv[3]);
	ktap_ok(nr_corpus > 0, "corpus_loaded");
	have_kcov = kcov_setup() >= 0;
	if (setup(argv[2])) {
		ktap_ok(false, "control_endpoint");
		return ktap_exit();
	}
	for (i = 0; i < nr_corpus; i++) {
		if (!exec_prog(&corpus[i]))
			break;
		cover_collect();
		done++;
	}
	ktap_diag("%u of %u programs, %lu lost cores recovered, %lu PCs", done,
		  nr_corpus, recoveries, nr_pcs);
	ktap_ok(done == nr_corpus, "every_program_ran");
	if (have_kcov)
		ktap_ok(nr_pcs > 0, "remote_coverage");
	else
		ktap_skip("kernel without kcov", "remote_coverage");
	{
		static const struct prog empty;

		ktap_ok(run_one(&empty, DONE_MS) || (recover() && run_one(&empty, DONE_MS)),
			"firmware_answers_after");
	}
	close_ept();
	return ktap_exit();
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "fuzz"))
		return fuzz(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "replay"))
		return replay(argc, argv);
	fprintf(stderr, "usage: %s fuzz RPROC SECONDS CORPUS SEED [blind] | replay RPROC CORPUS\n",
		argv[0]);
	return 2;
}
