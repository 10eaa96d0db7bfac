// SPDX-License-Identifier: GPL-2.0
/*
 * diff_abi: the transcript of what a user observes of remoteproc and
 * rpmsg, for the differential scenarios (tests/scenarios/diff_*.sh). It
 * asserts nothing itself: every step prints one "# T KEY = VALUE" line on
 * stdout (a KTAP diagnostic), and the runner holds the lines against the
 * transcript recorded on Linux's own stack (tests/diff/NAME.golden, "#
 * golden:" in the scenario's header). So the same binary runs unchanged on
 * both stacks, and what it prints must not depend on timing, addresses or
 * anything else that differs between two runs of one stack.
 *
 *   diff_abi rproc NAME DETACHED   the processor NAME (a portable fake) and
 *                                  the boot-loader-started DETACHED
 *   diff_abi rpmsg                 bus, char devices and name service, with
 *                                  one loopback remote (ampsoc_rpmsg_lb)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/elf.h>
#include <linux/remoteproc_cdev.h>
#include <linux/rpmsg.h>

#include "guest_util.h"

#define LINE_MAX_OUT	8192

/* ---- output ------------------------------------------------------------ */

static const char *errname(int e)
{
	static char buf[16];
	static const struct { int e; const char *n; } tab[] = {
		{ 0, "ok" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" },
		{ EIO, "EIO" }, { ENXIO, "ENXIO" }, { EBADF, "EBADF" },
		{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },
		{ EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ ENODEV, "ENODEV" }, { EINVAL, "EINVAL" }, { ENOSPC, "ENOSPC" },
		{ EPIPE, "EPIPE" }, { ERANGE, "ERANGE" }, { ENOTTY, "ENOTTY" },
		{ EMSGSIZE, "EMSGSIZE" },
		{ ENOEXEC, "ENOEXEC" }, { ETIMEDOUT, "ETIMEDOUT" },
		{ EADDRINUSE, "EADDRINUSE" }, { ENOTCONN, "ENOTCONN" },
		{ ESHUTDOWN, "ESHUTDOWN" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tab); i++)
		if (tab[i].e == e)
			return tab[i].n;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

/*
 * Escape @in into @out: newlines and tabs as \n and \t, other bytes that
 * are not printable ASCII as \xNN, and with @key (a key has no spaces) a
 * space as \x20.
 */
static void escape(char *out, size_t len, const char *in, int key)
{
	size_t o = 0;

	for (; *in && o + 5 < len; in++) {
		unsigned char ch = *in;

		if (ch == '\n' || ch == '\t') {
			out[o++] = '\\';
			out[o++] = ch == '\n' ? 'n' : 't';
		} else if (ch < 0x20 || ch >= 0x7f || (key && ch == ' ')) {
			o += snprintf(out + o, len - o, "\\x%02x", ch);
		} else {
			out[o++] = ch;
		}
	}
	out[o] = '\0';
}

/* One transcript line: "# T KEY = VALUE", both escaped. */
static void emit(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void emit(const char *key, const char *fmt, ...)
{
	char val[LINE_MAX_OUT], k[256], out[2 * LINE_MAX_OUT];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	escape(k, sizeof(k), key, 1);
	escape(out, sizeof(out), val, 0);
	/* an empty value is spelt out: a line does not end in a space */
	printf("# T %s = %s\n", k, out[0] ? out : "(empty)");
	fflush(stdout);
}

/* The guest boots Linux's own stack (tests/qemu/init sets it). */
static int on_mainline(void)
{
	const char *s = getenv("AMPSOC_STACK");

	return s && !strcmp(s, "mainline");
}

/* ---- files ------------------------------------------------------------- */

/* Read a whole file into @buf; returns its length or -errno. */
static int rd(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	int fd, n, got = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			got = -errno;
			break;
		}
		if (!n)
			break;
		got += n;
	}
	if (got >= 0)
		buf[got] = '\0';
	close(fd);
	return got;
}

/* Write @len bytes in one write(); returns 0 or the errno. */
static int wr(const char *dir, const char *name, const char *val, size_t len)
{
	char path[512];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, val, len) < 0)
		ret = errno;
	close(fd);
	return ret;
}

/* A file's contents, or "<ERRNO>". */
static const char *show(const char *dir, const char *name)
{
	static char buf[8192];
	int n = rd(dir, name, buf, sizeof(buf));

	if (n < 0)
		snprintf(buf, sizeof(buf), "<%s>", errname(-n));
	return buf;
}

/* Sorted names in @dir, space-separated (no . and ..). */
static const char *listing(const char *dir)
{
	static char out[2048];
	char *names[128];
	struct dirent *e;
	unsigned int n = 0, i, j;
	DIR *d = opendir(dir);

	out[0] = '\0';
	if (!d) {
		snprintf(out, sizeof(out), "<%s>", errname(errno));
		return out;
	}
	while ((e = readdir(d)) && n < 128)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			names[n++] = strdup(e->d_name);
	closedir(d);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		strncat(out, names[i], sizeof(out) - strlen(out) - 2);
		if (i + 1 < n)
			strcat(out, " ");
		free(names[i]);
	}
	return out;
}

static unsigned int mode_of(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? 0 : st.st_mode & 07777;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Poll (bounded) until @dir/@name reads @want; returns whether it did. */
static int wait_file(const char *dir, const char *name, const char *want,
		     double secs)
{
	double end = now() + secs;
	char buf[256];

	do {
		if (rd(dir, name, buf, sizeof(buf)) >= 0 && !strcmp(buf, want))
			return 1;
		usleep(5000);
	} while (now() < end);
	return 0;
}

static int wait_path(const char *path, int present, double secs)
{
	double end = now() + secs;

	do {
		if ((access(path, F_OK) == 0) == present)
			return 1;
		usleep(5000);
	} while (now() < end);
	return 0;
}

/* ---- remoteproc -------------------------------------------------------- */

static char cls[512], dbg[512], node[512], fake[512];
/* the processor's firmware at the start, which writes put back */
static char fw0[128];

static int find_rproc(const char *name)
{
	char dir[300], want[128], buf[128];
	struct dirent *e;
	DIR *d = opendir("/sys/class/remoteproc");
	int found = 0;

	if (!d)
		return 0;
	snprintf(want, sizeof(want), "%s\n", name);
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "remoteproc", 10))
			continue;
		snprintf(dir, sizeof(dir), "/sys/class/remoteproc/%s", e->d_name);
		if (rd(dir, "name", buf, sizeof(buf)) > 0 && !strcmp(buf, want)) {
			snprintf(cls, sizeof(cls), "%s", dir);
			snprintf(dbg, sizeof(dbg), "/sys/kernel/debug/remoteproc/%s",
				 e->d_name);
			snprintf(node, sizeof(node), "/dev/%s", e->d_name);
			found = 1;
		}
	}
	closedir(d);
	snprintf(fake, sizeof(fake), "/sys/kernel/debug/ampsoc_rproc_fake/%s",
		 name);
	return found;
}

static const char *state(void)
{
	static char buf[64];

	if (rd(cls, "state", buf, sizeof(buf)) < 0)
		return "?";
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* A sysfs or debugfs write: its errno and the state after it. */
static void w_state(const char *key, const char *dir, const char *file,
		    const char *val)
{
	int e = wr(dir, file, val, strlen(val));

	emit(key, "%s state=%s", errname(e), state());
}

/* A write and what @file reads afterwards. */
static void w_read(const char *key, const char *dir, const char *file,
		   const char *val, const char *rdir, const char *rfile)
{
	int e = wr(dir, file, val, strlen(val));

	emit(key, "%s %s=%s", errname(e), rfile, show(rdir, rfile));
}

static int starts(void)
{
	char buf[32];

	return rd(fake, "starts", buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
}

/* The trace line the fake writes at each boot shows "(boot N)". */
static int wait_boot(int n, double secs)
{
	double end = now() + secs;

	do {
		if (starts() >= n && !strcmp(state(), "running"))
			return 1;
		usleep(5000);
	} while (now() < end);
	return 0;
}

static int find_dump(char *path, size_t len)
{
	struct dirent *e;
	DIR *d = opendir("/sys/class/devcoredump");
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "devcd", 5)) {
			snprintf(path, len, "/sys/class/devcoredump/%s", e->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

static int wait_dump(char *path, size_t len, double secs)
{
	double end = now() + secs;

	do {
		if (find_dump(path, len))
			return 1;
		usleep(5000);
	} while (now() < end);
	return 0;
}

/*
 * Release every devcoredump and wait until it is gone: devcoredump deletes
 * it from a work item, and drops a new dump of a device whose previous
 * one is still there.
 */
static void drop_dumps(void)
{
	double end = now() + 10;
	char path[300];

	while (find_dump(path, sizeof(path)) && now() < end) {
		wr(path, "data", "1", 1);
		usleep(5000);
	}
}

#define DUMP_PHDRS	4

/*
 * The ELF layout of a dump (or "none" for each line without one): header
 * fields, program headers, and a CRC of each segment's first page (the
 * rest of the fake's image page holds the live resource table, which has
 * physical addresses in it).
 */
static void dump_layout(const char *key, const char *path)
{
	static unsigned char buf[1 << 20];
	char k[128], v[256];
	struct elf64_hdr *eh = (void *)buf;
	int n = -ENOENT, i, o;

	if (path)
		n = rd(path, "data", (char *)buf, sizeof(buf));
	snprintf(k, sizeof(k), "%s.size", key);
	if (n < 0)
		emit(k, "none");
	else
		emit(k, "%d", n);
	if (n < (int)sizeof(*eh) || memcmp(buf, ELFMAG, SELFMAG) ||
	    buf[EI_CLASS] != ELFCLASS64) {
		snprintf(k, sizeof(k), "%s.ehdr", key);
		emit(k, "none");
		for (i = 0; i < DUMP_PHDRS; i++) {
			snprintf(k, sizeof(k), "%s.phdr%d", key, i);
			emit(k, "none");
		}
		return;
	}
	snprintf(k, sizeof(k), "%s.ehdr", key);
	o = snprintf(v, sizeof(v), "ident=%02x%02x%02x%02x%02x%02x%02x%02x",
		     buf[4], buf[5], buf[6], buf[7], buf[8], buf[9], buf[10],
		     buf[11]);
	o += snprintf(v + o, sizeof(v) - o, " type=%u machine=%u version=%u",
		      eh->e_type, eh->e_machine, eh->e_version);
	o += snprintf(v + o, sizeof(v) - o, " entry=%#llx phoff=%llu shoff=%llu",
		      (unsigned long long)eh->e_entry,
		      (unsigned long long)eh->e_phoff,
		      (unsigned long long)eh->e_shoff);
	o += snprintf(v + o, sizeof(v) - o, " flags=%#x ehsize=%u phentsize=%u",
		      eh->e_flags, eh->e_ehsize, eh->e_phentsize);
	snprintf(v + o, sizeof(v) - o, " phnum=%u shentsize=%u shnum=%u shstrndx=%u",
		 eh->e_phnum, eh->e_shentsize, eh->e_shnum, eh->e_shstrndx);
	emit(k, "%s", v);
	for (i = 0; i < DUMP_PHDRS; i++) {
		struct elf64_phdr *ph = (void *)(buf + eh->e_phoff + i * sizeof(*ph));
		uint32_t crc = 0;

		snprintf(k, sizeof(k), "%s.phdr%d", key, i);
		if (i >= eh->e_phnum ||
		    eh->e_phoff + (i + 1) * sizeof(*ph) > (size_t)n) {
			emit(k, "none");
			continue;
		}
		if (ph->p_offset + ph->p_filesz <= (size_t)n)
			crc = lb_crc32(buf + ph->p_offset,
				       ph->p_filesz < 4096 ? ph->p_filesz : 4096);
		o = snprintf(v, sizeof(v), "type=%u flags=%#x offset=%llu",
			     ph->p_type, ph->p_flags,
			     (unsigned long long)ph->p_offset);
		o += snprintf(v + o, sizeof(v) - o, " vaddr=%#llx paddr=%#llx",
			      (unsigned long long)ph->p_vaddr,
			      (unsigned long long)ph->p_paddr);
		snprintf(v + o, sizeof(v) - o,
			 " filesz=%llu memsz=%llu align=%llu crc=%08x",
			 (unsigned long long)ph->p_filesz,
			 (unsigned long long)ph->p_memsz,
			 (unsigned long long)ph->p_align, crc);
		emit(k, "%s", v);
	}
}

/*
 * debugfs text with the addresses that differ between runs masked: the
 * value of each line that names a virtual, physical or DMA address.
 */
static const char *masked(const char *dir, const char *name)
{
	static const char * const labels[] = {
		"Virtual address:", "DMA address:", "Physical Address", "PA ",
		"Unknown resource type found: ",	/* its "[hdr: %p]" */
	};
	static char out[8192];
	const char *in = show(dir, name);
	size_t o = 0;

	while (*in && o + 4 < sizeof(out)) {
		const char *eol = strchr(in, '\n'), *t = in;
		size_t n = eol ? (size_t)(eol - in) + 1 : strlen(in), i, l;

		while (*t == ' ' || *t == '\t')
			t++;
		for (i = 0; i < ARRAY_SIZE(labels); i++) {
			l = strlen(labels[i]);
			if (!strncmp(t, labels[i], l))
				break;
		}
		if (i < ARRAY_SIZE(labels)) {
			const char *hdr = memmem(in, n, "[hdr:", 5);
			size_t keep = (t - in) + l;

			if (i == ARRAY_SIZE(labels) - 1)
				keep = hdr ? (size_t)(hdr - in) + 5 : n;

			if (o + keep + 4 >= sizeof(out))
				break;
			memcpy(out + o, in, keep);
			o += keep;
			o += snprintf(out + o, sizeof(out) - o, " *%s",
				      eol ? "\n" : "");
		} else {
			if (o + n >= sizeof(out))
				break;
			memcpy(out + o, in, n);
			o += n;
		}
		in += n;
	}
	out[o] = '\0';
	return out;
}

static void rproc_attrs(const char *name)
{
	static const char * const attrs[] = {
		"name", "state", "firmware", "recovery", "coredump",
	};
	static const char * const dfiles[] = {
		"name", "recovery", "coredump", "crash", "resource_table",
		"carveout_memories",
	};
	char k[64];
	unsigned int i;

	emit("rproc.class.listing", "%s", listing(cls));
	for (i = 0; i < 5; i++) {
		snprintf(k, sizeof(k), "rproc.class.%s", attrs[i]);
		emit(k, "mode=%o %s", mode_of(cls, attrs[i]),
		     show(cls, attrs[i]));
	}
	emit("rproc.class.uevent", "%s", show(cls, "uevent"));
	emit("rproc.class.device_driver", "%s",
	     access("/sys/bus/platform/drivers/ampsoc-rproc-fake", F_OK) ?
	     "missing" : "ampsoc-rproc-fake");
	emit("rproc.debugfs.listing", "%s", listing(dbg));
	for (i = 0; i < 6; i++) {
		snprintf(k, sizeof(k), "rproc.debugfs.mode.%s", dfiles[i]);
		emit(k, "mode=%o", mode_of(dbg, dfiles[i]));
	}
	emit("rproc.debugfs.name", "%s", show(dbg, "name"));
	emit("rproc.debugfs.resource_table.offline", "%s",
	     show(dbg, "resource_table"));
	emit("rproc.debugfs.carveouts.offline", "%s",
	     show(dbg, "carveout_memories"));
	emit("rproc.cdev", "%s", access(node, F_OK) ? "missing" : "present");
	(void)name;
}

static void rproc_sysfs_writes(void)
{
	static const char * const states[] = {
		"bogus", "", "\n", "START", "start now", "stopstart", "detach",
		"stop", "attach", "crashed", "offline",
	};
	static const char * const fws[] = {
		"\n", "x", "a\nb", "two words", "../etc/shadow", "/lib/firmware/x",
		"tab\tname", "\xff\xfe", "x.elf\n\n", fw0,
	};
	static const char * const words[] = {
		"enabled", "disabled", "enabled\n", "disabled\n", "recover",
		"sometimes", "enable", "", "Enabled",
	};
	static const char * const dumps[] = {
		"enabled", "inline", "disabled", "inline\n", "always", "",
		"disabled\n", "Disabled",
	};
	char k[96], big[4096];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		snprintf(k, sizeof(k), "rproc.offline.state<-'%s'", states[i]);
		w_state(k, cls, "state", states[i]);
	}
	memset(big, 'A', sizeof(big));
	emit("rproc.offline.state<-4096xA", "%s",
	     errname(wr(cls, "state", big, sizeof(big))));
	for (i = 0; i < ARRAY_SIZE(fws); i++) {
		snprintf(k, sizeof(k), "rproc.offline.firmware<-'%s'", fws[i]);
		w_read(k, cls, "firmware", fws[i], cls, "firmware");
	}
	emit("rproc.offline.firmware<-300xA", "%s",
	     errname(wr(cls, "firmware", big, 300)));
	w_read("rproc.offline.firmware<-restore", cls, "firmware",
	       fw0, cls, "firmware");
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		snprintf(k, sizeof(k), "rproc.offline.recovery<-'%s'", words[i]);
		w_read(k, cls, "recovery", words[i], cls, "recovery");
	}
	for (i = 0; i < ARRAY_SIZE(dumps); i++) {
		snprintf(k, sizeof(k), "rproc.offline.coredump<-'%s'", dumps[i]);
		w_read(k, cls, "coredump", dumps[i], cls, "coredump");
	}
	w_read("rproc.offline.name<-x", cls, "name", "x", cls, "name");
	/* debugfs: prefixes of words, no newline */
	w_read("rproc.debugfs.recovery<-d", dbg, "recovery", "d", cls, "recovery");
	w_read("rproc.debugfs.recovery<-en", dbg, "recovery", "en", cls, "recovery");
	w_read("rproc.debugfs.recovery<-e\\n", dbg, "recovery", "e\n", cls, "recovery");
	w_read("rproc.debugfs.recovery<-recover", dbg, "recovery", "recover", cls, "state");
	w_read("rproc.debugfs.recovery<-x", dbg, "recovery", "x", cls, "recovery");
	w_read("rproc.debugfs.coredump<-in", dbg, "coredump", "in", cls, "coredump");
	w_read("rproc.debugfs.coredump<-disabled\\n", dbg, "coredump", "disabled\n",
	       dbg, "coredump");
	w_read("rproc.debugfs.coredump<-x", dbg, "coredump", "x", dbg, "coredump");
	w_state("rproc.offline.debugfs.crash<-7", dbg, "crash", "7");
	w_state("rproc.offline.debugfs.crash<-x", dbg, "crash", "x");
	w_state("rproc.offline.debugfs.crash<-empty", dbg, "crash", "");
}

static void rproc_running(void)
{
	w_state("rproc.start", cls, "state", "start\n");
	emit("rproc.running.firmware", "%s", show(cls, "firmware"));
	emit("rproc.running.trace0", "%s", show(dbg, "trace0"));
	emit("rproc.running.debugfs.listing", "%s", listing(dbg));
	emit("rproc.running.resource_table", "%s", masked(dbg, "resource_table"));
	emit("rproc.running.carveouts", "%s", masked(dbg, "carveout_memories"));
	w_state("rproc.running.state<-start", cls, "state", "start");
	w_state("rproc.running.state<-stop", cls, "state", "stop");
	w_state("rproc.running.state<-detach", cls, "state", "detach");
	w_state("rproc.running.state<-bogus", cls, "state", "bogus");
	w_read("rproc.running.firmware<-other", cls, "firmware", "other.elf",
	       cls, "firmware");
	w_read("rproc.running.firmware<-bad", cls, "firmware", "../x",
	       cls, "firmware");
	w_read("rproc.running.recovery<-recover", cls, "recovery", "recover",
	       cls, "state");
	w_read("rproc.running.coredump<-inline", cls, "coredump", "inline",
	       cls, "coredump");
	w_read("rproc.running.coredump<-disabled", cls, "coredump", "disabled",
	       cls, "coredump");
	w_state("rproc.running.state<-stop.2", cls, "state", "stop");
	w_state("rproc.offline.state<-stop", cls, "state", "stop");
	emit("rproc.offline.trace0", "%s", show(dbg, "trace0"));
	emit("rproc.offline.resource_table", "%s", show(dbg, "resource_table"));
	emit("rproc.offline.debugfs.listing", "%s", listing(dbg));
}

static void cdev_write(const char *key, int fd, const char *val, size_t len)
{
	ssize_t n = write(fd, val, len);

	emit(key, "%s n=%zd state=%s", errname(n < 0 ? errno : 0), n, state());
}

static void rproc_cdev(void)
{
	int32_t v = -1;
	int fd, r;

	fd = open(node, O_RDWR);
	emit("rproc.cdev.open", "%s", errname(fd < 0 ? errno : 0));
	if (fd < 0)
		return;
	cdev_write("rproc.cdev<-start", fd, "start", 5);
	cdev_write("rproc.cdev<-start.2", fd, "start", 5);
	cdev_write("rproc.cdev<-stop", fd, "stop", 4);
	cdev_write("rproc.cdev<-detach", fd, "detach", 6);
	cdev_write("rproc.cdev<-bogus", fd, "bogus", 5);
	cdev_write("rproc.cdev<-start\\n", fd, "start\n", 6);
	cdev_write("rproc.cdev<-stopstartstop", fd, "stopstartstop", 13);
	cdev_write("rproc.cdev<-empty", fd, "", 0);
	cdev_write("rproc.cdev<-st\\0", fd, "st\0", 3);
	r = ioctl(fd, RPROC_GET_SHUTDOWN_ON_RELEASE, &v);
	emit("rproc.cdev.get_shutdown", "%s v=%d", errname(r ? errno : 0), v);
	v = 7;
	r = ioctl(fd, RPROC_SET_SHUTDOWN_ON_RELEASE, &v);
	emit("rproc.cdev.set_shutdown<-7", "%s", errname(r ? errno : 0));
	v = -1;
	r = ioctl(fd, RPROC_GET_SHUTDOWN_ON_RELEASE, &v);
	emit("rproc.cdev.get_shutdown.2", "%s v=%d", errname(r ? errno : 0), v);
	r = ioctl(fd, _IOW(RPROC_MAGIC, 9, int32_t), &v);
	emit("rproc.cdev.unknown_ioctl", "%s", errname(r ? errno : 0));
	r = ioctl(fd, _IO(0x12, 1), &v);
	emit("rproc.cdev.foreign_ioctl", "%s", errname(r ? errno : 0));
	r = ioctl(fd, RPROC_SET_SHUTDOWN_ON_RELEASE, (void *)8);
	emit("rproc.cdev.set_bad_pointer", "%s", errname(r ? errno : 0));
	r = ioctl(fd, RPROC_GET_SHUTDOWN_ON_RELEASE, (void *)8);
	emit("rproc.cdev.get_bad_pointer", "%s", errname(r ? errno : 0));
	{
		char b[8];
		ssize_t n = read(fd, b, sizeof(b));

		emit("rproc.cdev.read", "%s n=%zd", errname(n < 0 ? errno : 0), n);
	}
	close(fd);
	emit("rproc.cdev.closed", "state=%s", state());

	fd = open(node, O_WRONLY);
	v = 0;
	r = fd < 0 ? errno : ioctl(fd, RPROC_SET_SHUTDOWN_ON_RELEASE, &v);
	emit("rproc.cdev.wronly_set_0", "%s", errname(r));
	if (fd >= 0) {
		cdev_write("rproc.cdev.keep<-start", fd, "start", 5);
		close(fd);
	}
	emit("rproc.cdev.keep.closed", "state=%s", state());
	fd = open(node, O_RDONLY);
	emit("rproc.cdev.rdonly", "%s", errname(fd < 0 ? errno : 0));
	if (fd >= 0) {
		cdev_write("rproc.cdev.rdonly<-stop", fd, "stop", 4);
		close(fd);
	}
	fd = open(node, O_WRONLY);
	if (fd >= 0) {
		cdev_write("rproc.cdev<-sto", fd, "sto", 3);
		cdev_write("rproc.cdev<-sto.2", fd, "sto", 3);
		cdev_write("rproc.cdev<-st", fd, "st", 2);
		cdev_write("rproc.cdev<-s", fd, "s", 1);
		cdev_write("rproc.cdev<-stop.2", fd, "stop", 4);
		cdev_write("rproc.cdev<-stop.3", fd, "stop", 4);
		close(fd);
	}
	emit("rproc.cdev.end", "state=%s", state());
}

/* Crash with the dump mode @dump; report what is observable. */
static void crash_case(const char *key, const char *how, int recovery)
{
	char k[96], path[300];
	int n = starts(), dumped;

	drop_dumps();
	if (!strcmp(how, "watchdog"))
		wr(fake, "watchdog", "1", 1);
	else
		wr(dbg, "crash", how, strlen(how));
	if (recovery) {
		snprintf(k, sizeof(k), "%s.recovered", key);
		emit(k, "%s state=%s", wait_boot(n + 1, 10) ? "yes" : "no",
		     state());
	} else {
		snprintf(k, sizeof(k), "%s.crashed", key);
		emit(k, "%s", wait_file(cls, "state", "crashed\n", 10) ?
		     "yes" : "no");
	}
	/* a dump, if any, is there once the crash has been handled */
	dumped = wait_dump(path, sizeof(path), 2);
	snprintf(k, sizeof(k), "%s.dump", key);
	emit(k, "%s", dumped ? "yes" : "no");
	dump_layout(k, dumped ? path : NULL);
	drop_dumps();
}

static void rproc_crashes(void)
{
	char path[300];
	int n;

	drop_dumps();
	w_state("rproc.crash.start", cls, "state", "start");
	crash_case("rproc.crash.nodump", "1", 1);
	w_read("rproc.crash.coredump<-enabled", cls, "coredump", "enabled",
	       cls, "coredump");
	crash_case("rproc.crash.dump", "2", 1);
	crash_case("rproc.crash.dump.mmufault", "0", 1);
	crash_case("rproc.crash.dump.watchdog", "watchdog", 1);

	w_read("rproc.crash.recovery<-disabled", cls, "recovery", "disabled",
	       cls, "recovery");
	crash_case("rproc.crash.norecovery", "watchdog", 0);
	emit("rproc.crashed.state", "%s", state());
	w_read("rproc.crashed.coredump<-inline", cls, "coredump", "inline",
	       cls, "coredump");
	w_read("rproc.crashed.coredump<-always", cls, "coredump", "always",
	       cls, "coredump");
	w_read("rproc.crashed.debugfs.coredump<-inline", dbg, "coredump",
	       "inline", cls, "coredump");
	w_read("rproc.crashed.firmware<-x", cls, "firmware", "x.elf",
	       cls, "firmware");
	w_state("rproc.crashed.state<-detach", cls, "state", "detach");
	w_state("rproc.crashed.state<-bogus", cls, "state", "bogus");
	emit("rproc.crashed.trace0", "%s", show(dbg, "trace0"));
	n = starts();
	w_read("rproc.crashed.recovery<-recover", cls, "recovery", "recover",
	       cls, "state");
	emit("rproc.crashed.recover_booted", "%s", wait_boot(n + 1, 10) ?
	     "yes" : "no");
	drop_dumps();

	/* inline: recovery waits until the dump is read */
	w_read("rproc.crash.recovery<-enabled", cls, "recovery", "enabled",
	       cls, "recovery");
	w_read("rproc.crash.coredump<-inline", cls, "coredump", "inline",
	       cls, "coredump");
	n = starts();
	wr(fake, "watchdog", "1", 1);
	emit("rproc.crash.inline.dump", "%s",
	     wait_dump(path, sizeof(path), 10) ? "yes" : "no");
	emit("rproc.crash.inline.state_while_dump", "%s", state());
	dump_layout("rproc.crash.inline.dump",
		    find_dump(path, sizeof(path)) ? path : NULL);
	drop_dumps();
	emit("rproc.crash.inline.recovered", "%s state=%s",
	     wait_boot(n + 1, 10) ? "yes" : "no", state());

	/* a crashed processor can be stopped */
	w_read("rproc.crash.coredump<-disabled", cls, "coredump", "disabled",
	       cls, "coredump");
	w_read("rproc.crash.recovery<-disabled.2", cls, "recovery", "disabled",
	       cls, "recovery");
	wr(fake, "watchdog", "1", 1);
	emit("rproc.crash.stop.crashed", "%s",
	     wait_file(cls, "state", "crashed\n", 10) ? "yes" : "no");
	w_state("rproc.crashed.state<-start", cls, "state", "start");
	w_state("rproc.crashed.state<-stop", cls, "state", "stop");
	w_state("rproc.crashed.state<-stop.2", cls, "state", "stop");
	w_state("rproc.crashed.state<-stop.3", cls, "state", "stop");
	w_read("rproc.crash.recovery<-enabled.2", cls, "recovery", "enabled",
	       cls, "recovery");
	drop_dumps();
}

static void rproc_attach(const char *name)
{
	int32_t v = 1;
	int fd;

	emit("att.found", "%s", find_rproc(name) ? "yes" : "no");
	emit("att.state", "%s", state());
	emit("att.firmware", "%s", show(cls, "firmware"));
	emit("att.trace0", "%s", show(dbg, "trace0"));
	w_state("att.detached.state<-stop", cls, "state", "stop");
	w_state("att.detached.state<-detach", cls, "state", "detach");
	w_read("att.detached.firmware<-x", cls, "firmware", "x.elf",
	       cls, "firmware");
	w_state("att.state<-start", cls, "state", "start");
	emit("att.attached.firmware", "%s", show(cls, "firmware"));
	emit("att.attached.trace0", "%s", show(dbg, "trace0"));
	emit("att.attached.resource_table", "%s", masked(dbg, "resource_table"));
	w_read("att.attached.firmware<-x", cls, "firmware", "x.elf",
	       cls, "firmware");
	w_state("att.attached.state<-start", cls, "state", "start");
	w_state("att.attached.state<-detach", cls, "state", "detach");
	w_state("att.attached.state<-detach.2", cls, "state", "detach");
	w_state("att.detached.state<-detach.2", cls, "state", "detach");
	fd = open(node, O_RDWR);
	if (fd >= 0) {
		cdev_write("att.cdev<-start", fd, "start", 5);
		emit("att.cdev.set_shutdown", "%s",
		     errname(ioctl(fd, RPROC_SET_SHUTDOWN_ON_RELEASE, &v) ?
			     errno : 0));
		close(fd);
	}
	emit("att.cdev.closed", "state=%s", state());
	fd = open(node, O_WRONLY);
	if (fd >= 0) {
		cdev_write("att.cdev<-start.2", fd, "start", 5);
		cdev_write("att.cdev<-detach", fd, "detach", 6);
		cdev_write("att.cdev<-detach.2", fd, "detach", 6);
		close(fd);
	}
	w_state("att.state<-start.2", cls, "state", "start");
	w_state("att.attached.state<-stop", cls, "state", "stop");
	emit("att.stopped.firmware", "%s", show(cls, "firmware"));
	w_state("att.offline.state<-start", cls, "state", "start");
	emit("att.booted.firmware", "%s", show(cls, "firmware"));
	emit("att.booted.trace0", "%s", show(dbg, "trace0"));
	w_state("att.booted.state<-stop", cls, "state", "stop");
}

static int do_rproc(const char *name, const char *detached)
{
	emit("rproc.found", "%s", find_rproc(name) ? "yes" : "no");
	if (rd(cls, "firmware", fw0, sizeof(fw0)) <= 0)
		strcpy(fw0, "none\n");
	rproc_attrs(name);
	rproc_sysfs_writes();
	rproc_running();
	rproc_cdev();
	rproc_crashes();
	if (detached)
		rproc_attach(detached);
	return 0;
}

/* ---- rpmsg ------------------------------------------------------------- */

#define RPMSG_DEVS	"/sys/bus/rpmsg/devices"

static void rpmsg_dev(const char *key, const char *dev)
{
	static const char * const attrs[] = {
		"name", "src", "dst", "announce", "modalias", "driver_override",
	};
	char dir[300], k[160], drv[320], link[300];
	unsigned int i;
	ssize_t n;

	snprintf(dir, sizeof(dir), RPMSG_DEVS "/%s", dev);
	snprintf(k, sizeof(k), "%s.present", key);
	emit(k, "%s", access(dir, F_OK) ? "no" : "yes");
	if (access(dir, F_OK))
		return;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		snprintf(k, sizeof(k), "%s.%s", key, attrs[i]);
		emit(k, "mode=%o %s", mode_of(dir, attrs[i]), show(dir, attrs[i]));
	}
	snprintf(k, sizeof(k), "%s.uevent", key);
	emit(k, "%s", show(dir, "uevent"));
	snprintf(k, sizeof(k), "%s.listing", key);
	emit(k, "%s", listing(dir));
	snprintf(drv, sizeof(drv), "%s/driver", dir);
	n = readlink(drv, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	snprintf(k, sizeof(k), "%s.driver", key);
	emit(k, "%s", n > 0 ? strrchr(link, '/') + 1 : "none");
}

/* The rpmsg class devices (rpmsg_ctrlN, rpmsgN) and their attributes. */
static void rpmsg_class(const char *key)
{
	emit(key, "%s", listing("/sys/class/rpmsg"));
}

static int ept_node(const char *name, char *dev, size_t len)
{
	char path[300], buf[64];
	struct dirent *e;
	DIR *d = opendir("/sys/class/rpmsg");
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "rpmsg", 5) || !strncmp(e->d_name, "rpmsg_", 6))
			continue;
		snprintf(path, sizeof(path), "/sys/class/rpmsg/%s", e->d_name);
		if (rd(path, "name", buf, sizeof(buf)) > 0) {
			buf[strcspn(buf, "\n")] = '\0';
			if (!strcmp(buf, name)) {
				snprintf(dev, len, "/dev/%.*s", (int)len - 6,
					 e->d_name);
				found = 1;
			}
		}
	}
	closedir(d);
	return found && wait_path(dev, 1, 5);
}

static void eptdev_attrs(const char *key, const char *dev)
{
	char dir[300], k[128];

	snprintf(dir, sizeof(dir), "/sys/class/rpmsg/%s", dev + 5);
	snprintf(k, sizeof(k), "%s.listing", key);
	emit(k, "%s", listing(dir));
	snprintf(k, sizeof(k), "%s.name", key);
	emit(k, "%s", show(dir, "name"));
	snprintf(k, sizeof(k), "%s.src", key);
	emit(k, "%s", show(dir, "src"));
	snprintf(k, sizeof(k), "%s.dst", key);
	emit(k, "%s", show(dir, "dst"));
}

static const char *revents(int fd, short events, int ms)
{
	static char out[64];
	struct pollfd p = { .fd = fd, .events = events };
	int r = poll(&p, 1, ms);

	if (r < 0)
		snprintf(out, sizeof(out), "%s", errname(errno));
	else
		snprintf(out, sizeof(out), "%s%s%s%s%s%s", r ? "" : "none",
			 p.revents & POLLIN ? " IN" : "",
			 p.revents & POLLOUT ? " OUT" : "",
			 p.revents & POLLPRI ? " PRI" : "",
			 p.revents & POLLERR ? " ERR" : "",
			 p.revents & POLLHUP ? " HUP" : "");
	/* no leading space */
	return out[0] == ' ' ? out + 1 : out;
}

static int ioctl_ept(int fd, unsigned long req, const char *name, uint32_t src,
		     uint32_t dst)
{
	struct rpmsg_endpoint_info info = { .src = src, .dst = dst };

	strncpy(info.name, name, sizeof(info.name) - 1);
	return ioctl(fd, req, &info) ? errno : 0;
}

static void rw(const char *key, int fd, const void *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	emit(key, "%s n=%zd", errname(n < 0 ? errno : 0), n);
}

static void rd_fd(const char *key, int fd, size_t len)
{
	char buf[1024];
	ssize_t n = read(fd, buf, len < sizeof(buf) ? len : sizeof(buf));

	if (n > 0 && n < 64)
		emit(key, "ok n=%zd '%.*s'", n, (int)n, buf);
	else
		emit(key, "%s n=%zd", errname(n < 0 ? errno : 0), n);
}

static void lb(const char *cmd)
{
	wr("/sys/kernel/debug/ampsoc_rpmsg_lb", "ctl", cmd, strlen(cmd));
}

static void rpmsg_eptdev(int ctrl)
{
	char dev[64], big[600];
	int fd, fd2, r, v;

	emit("ept.create", "%s", errname(ioctl_ept(ctrl, RPMSG_CREATE_EPT_IOCTL,
						   "diff-echo", 0x3000, 0x400)));
	if (!ept_node("diff-echo", dev, sizeof(dev))) {
		emit("ept.node", "missing");
		return;
	}
	eptdev_attrs("ept.attrs", dev);
	rpmsg_class("ept.class");
	fd = open(dev, O_RDWR);
	emit("ept.open", "%s", errname(fd < 0 ? errno : 0));
	if (fd < 0)
		return;
	fd2 = open(dev, O_RDWR);
	emit("ept.open.second", "%s", errname(fd2 < 0 ? errno : 0));
	if (fd2 >= 0)
		close(fd2);
	emit("ept.poll.idle", "%s", revents(fd, POLLIN | POLLOUT, 100));
	rw("ept.write.hello", fd, "hello", 5);
	emit("ept.poll.echo", "%s", revents(fd, POLLIN, 5000));
	rd_fd("ept.read.echo", fd, 64);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	rd_fd("ept.read.nonblock", fd, 64);
	fcntl(fd, F_SETFL, 0);
	/* one message in flight at a time, so that what is queued is known */
	memset(big, 'z', sizeof(big));
	rw("ept.write.497", fd, big, 497);
	rw("ept.write.496", fd, big, 496);
	emit("ept.poll.echo496", "%s", revents(fd, POLLIN, 5000));
	rd_fd("ept.read.short10", fd, 10);
	emit("ept.poll.after_short", "%s", revents(fd, POLLIN, 0));
	rw("ept.write.empty", fd, "", 0);
	emit("ept.poll.echo_empty", "%s", revents(fd, POLLIN, 2000));
	fcntl(fd, F_SETFL, O_NONBLOCK);
	rd_fd("ept.read.empty", fd, 64);
	fcntl(fd, F_SETFL, 0);
	rw("ept.write.bad_pointer", fd, (void *)8, 4);
	rw("ept.write.x", fd, "x", 1);
	emit("ept.poll.echo_x", "%s", revents(fd, POLLIN, 5000));
	{
		void *bad = (void *)8;

		__asm__("" : "+r"(bad));
		r = read(fd, bad, 1);
	}
	emit("ept.read.bad_pointer", "%s", errname(r < 0 ? errno : 0));
	emit("ept.poll.after_bad_read", "%s", revents(fd, POLLIN, 0));
	r = ioctl(fd, _IO(0xb5, 0x7f));
	emit("ept.ioctl.unknown", "%s", errname(r ? errno : 0));
	r = ioctl(fd, RPMSG_CREATE_EPT_IOCTL, &(struct rpmsg_endpoint_info){
		.name = "x", .src = 0x3333, .dst = 0x400 });
	emit("ept.ioctl.create_ept", "%s", errname(r ? errno : 0));
	r = ioctl(fd, RPMSG_CREATE_DEV_IOCTL, &(struct rpmsg_endpoint_info){
		.name = "x", .src = 0x3333, .dst = 0x400 });
	emit("ept.ioctl.create_dev", "%s", errname(r ? errno : 0));
	v = -1;
	r = ioctl(fd, _IOR(0xb5, 0x5, int), &v);
	emit("ept.ioctl.get_flowcontrol", "%s", errname(r ? errno : 0));
	r = ioctl(fd, _IOR(0xb5, 0x6, int), 1);
	emit("ept.ioctl.set_flowcontrol", "%s", errname(r ? errno : 0));
	r = ioctl(fd, RPMSG_DESTROY_EPT_IOCTL);
	emit("ept.ioctl.destroy", "%s", errname(r ? errno : 0));
	rd_fd("ept.read.after_destroy", fd, 64);
	rw("ept.write.after_destroy", fd, "x", 1);
	emit("ept.poll.after_destroy", "%s", revents(fd, POLLIN | POLLOUT, 0));
	/*
	 * Linux 6.1 deletes the device again and dereferences NULL
	 * (docs/mainline-differences.md): not on that stack.
	 */
	if (on_mainline()) {
		emit("ept.ioctl.destroy.2", "not run: 6.1 oopses");
	} else {
		r = ioctl(fd, RPMSG_DESTROY_EPT_IOCTL);
		emit("ept.ioctl.destroy.2", "%s", errname(r ? errno : 0));
	}
	emit("ept.node.removed", "%s", wait_path(dev, 0, 5) ? "yes" : "no");
	close(fd);
	rpmsg_class("ept.class.after");
}

static long long lb_stat(const char *k);

/*
 * The name-service message the remote saw last, once it has seen more
 * than @before: Linux announcing a channel to the remote, or taking it back.
 */
static void ns_seen(const char *key, long long before)
{
	double end = now() + 5;
	char line[128], name[40] = "";
	FILE *f;

	while (lb_stat("ns_msgs") <= before && now() < end)
		usleep(5000);
	f = fopen("/sys/kernel/debug/ampsoc_rpmsg_lb/stats", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "ns_last_name %39s", name) == 1)
			break;
	if (f)
		fclose(f);
	emit(key, "msgs=+%lld flags=%lld addr=%#llx name=%s",
	     lb_stat("ns_msgs") - before, lb_stat("ns_last_flags"),
	     lb_stat("ns_last_addr"), name);
}

/* An ioctl's errno, or 0. */
static int ioc(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? errno : 0;
}

/* An endpoint-info ioctl, transcribed. */
static void ept_call(const char *key, int fd, unsigned long req,
		     const char *name, uint32_t src, uint32_t dst)
{
	emit(key, "%s", errname(ioctl_ept(fd, req, name, src, dst)));
}

#define DIFF_DEV	RPMSG_DEVS "/virtio0.diff-dev.12544.-1"

static void rpmsg_ctrl(int ctrl)
{
	struct rpmsg_endpoint_info info = { .src = 1, .dst = 2 };
	char d1[64], d2[64];
	int r, fd1 = -1, fd2 = -1;
	long long ns0;

	emit("ctrl.bad_pointer", "%s",
	     errname(ioc(ctrl, RPMSG_CREATE_EPT_IOCTL, (void *)8)));
	emit("ctrl.unknown_ioctl", "%s",
	     errname(ioc(ctrl, _IO(0xb5, 0x7f), NULL)));
	emit("ctrl.destroy_ept", "%s",
	     errname(ioc(ctrl, RPMSG_DESTROY_EPT_IOCTL, NULL)));
	emit("ctrl.unknown_ioctl.valid_arg", "%s",
	     errname(ioc(ctrl, _IOW(0xb5, 0x7f, info), &info)));
	emit("ctrl.destroy_ept.valid_arg", "%s",
	     errname(ioc(ctrl, RPMSG_DESTROY_EPT_IOCTL, &info)));
	emit("ctrl.get_flowcontrol", "%s",
	     errname(ioc(ctrl, _IOR(0xb5, 0x5, int), &r)));
	/* two endpoints on one address: the second open fails */
	ept_call("ctrl.dup1", ctrl, RPMSG_CREATE_EPT_IOCTL, "dup1", 77, 0x400);
	ept_call("ctrl.dup2", ctrl, RPMSG_CREATE_EPT_IOCTL, "dup2", 77, 0x400);
	if (ept_node("dup1", d1, sizeof(d1)) && ept_node("dup2", d2, sizeof(d2))) {
		fd1 = open(d1, O_RDWR);
		emit("ctrl.dup1.open", "%s", errname(fd1 < 0 ? errno : 0));
		fd2 = open(d2, O_RDWR);
		emit("ctrl.dup2.open", "%s", errname(fd2 < 0 ? errno : 0));
	}
	if (fd1 >= 0) {
		emit("ctrl.dup1.destroy", "%s",
		     errname(ioc(fd1, RPMSG_DESTROY_EPT_IOCTL, NULL)));
		close(fd1);
	}
	if (fd2 >= 0)
		close(fd2);
	/* an endpoint device never opened goes with its destroy */
	fd2 = ept_node("dup2", d2, sizeof(d2)) ? open(d2, O_RDWR) : -1;
	emit("ctrl.dup2.reopen", "%s", errname(fd2 < 0 ? errno : 0));
	if (fd2 >= 0) {
		ioctl(fd2, RPMSG_DESTROY_EPT_IOCTL);
		close(fd2);
	}
	/* a channel made from userspace, announced to the remote */
	ns0 = lb_stat("ns_msgs");
	ept_call("ctrl.create_dev", ctrl, RPMSG_CREATE_DEV_IOCTL, "diff-dev",
		 0x3100, RPMSG_ADDR_ANY);
	ns_seen("ctrl.create_dev.remote_saw", ns0);
	/* a driver bound to it announces it (driver_override, as a user would) */
	ns0 = lb_stat("ns_msgs");
	emit("ctrl.dev.override", "%s", errname(wr(DIFF_DEV, "driver_override",
						   "rpmsg_chrdev", 12)));
	emit("ctrl.dev.probe", "%s", errname(wr("/sys/bus/rpmsg", "drivers_probe",
						"virtio0.diff-dev.12544.-1", 25)));
	ns_seen("ctrl.dev.bound.remote_saw", ns0);
	rpmsg_dev("ctrl.dev", "virtio0.diff-dev.12544.-1");
	ept_call("ctrl.create_dev.twice", ctrl, RPMSG_CREATE_DEV_IOCTL,
		 "diff-dev", 0x3100, RPMSG_ADDR_ANY);
	ns0 = lb_stat("ns_msgs");
	ept_call("ctrl.release_dev", ctrl, RPMSG_RELEASE_DEV_IOCTL, "diff-dev",
		 0x3100, RPMSG_ADDR_ANY);
	ns_seen("ctrl.release_dev.remote_saw", ns0);
	emit("ctrl.dev.gone", "%s", wait_path(DIFF_DEV, 0, 5) ? "yes" : "no");
	ept_call("ctrl.release_dev.twice", ctrl, RPMSG_RELEASE_DEV_IOCTL,
		 "diff-dev", 0x3100, RPMSG_ADDR_ANY);
	ept_call("ctrl.create_dev.any", ctrl, RPMSG_CREATE_DEV_IOCTL,
		 "diff-any", RPMSG_ADDR_ANY, RPMSG_ADDR_ANY);
	ept_call("ctrl.release_dev.any", ctrl, RPMSG_RELEASE_DEV_IOCTL,
		 "diff-any", RPMSG_ADDR_ANY, RPMSG_ADDR_ANY);
	ept_call("ctrl.release_dev.unknown", ctrl, RPMSG_RELEASE_DEV_IOCTL,
		 "nothing", 0x3200, 0x3201);
}

/* What the loopback remote counts: announcements it saw. */
static long long lb_stat(const char *k)
{
	return kv_file_get("/sys/kernel/debug/ampsoc_rpmsg_lb/stats", k);
}

static void rpmsg_ns(void)
{
	/* the remote announces a channel, then destroys it */
	lb("announce diff-remote 0x700");
	emit("ns.remote_create", "%s",
	     wait_path(RPMSG_DEVS "/virtio0.diff-remote.-1.1792", 1, 5) ? "yes" : "no");
	rpmsg_dev("ns.remote", "virtio0.diff-remote.-1.1792");
	rpmsg_class("ns.remote.class");
	lb("destroy diff-remote 0x700");
	emit("ns.remote_destroy", "%s",
	     wait_path(RPMSG_DEVS "/virtio0.diff-remote.-1.1792", 0, 5) ? "yes" : "no");
	rpmsg_class("ns.remote.class.after");
	(void)lb_stat;
}

static void rpmsg_removal(int ctrl)
{
	char dev[64], buf[16];
	int fd, r;
	ssize_t n;

	ioctl_ept(ctrl, RPMSG_CREATE_EPT_IOCTL, "diff-gone", 0x3400, 0x400);
	fd = ept_node("diff-gone", dev, sizeof(dev)) ? open(dev, O_RDWR) : -1;
	emit("removal.open", "%s", errname(fd < 0 ? errno : 0));
	lb("remove");
	emit("removal.bus_empty", "%s",
	     wait_path(RPMSG_DEVS "/virtio0.rpmsg_ctrl.0.0", 0, 10) ? "yes" : "no");
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		emit("removal.read", "%s n=%zd", errname(n < 0 ? errno : 0), n);
		n = write(fd, "x", 1);
		emit("removal.write", "%s n=%zd", errname(n < 0 ? errno : 0), n);
		emit("removal.poll", "%s", revents(fd, POLLIN | POLLOUT, 0));
		/* the removal destroyed it: 6.1 oopses as above */
		if (on_mainline()) {
			emit("removal.destroy", "not run: 6.1 oopses");
		} else {
			r = ioctl(fd, RPMSG_DESTROY_EPT_IOCTL);
			emit("removal.destroy", "%s", errname(r ? errno : 0));
		}
		close(fd);
	}
	/*
	 * 6.1 fails to add the device under the removed control device and
	 * WARNs about its missing release function on the error path.
	 */
	if (on_mainline()) {
		emit("removal.ctrl.create_ept", "not run: 6.1 WARNs");
	} else {
		r = ioctl_ept(ctrl, RPMSG_CREATE_EPT_IOCTL, "late",
			      RPMSG_ADDR_ANY, 0x400);
		emit("removal.ctrl.create_ept", "%s", errname(r));
	}
	emit("removal.ctrl.poll", "%s", revents(ctrl, POLLIN | POLLOUT, 0));
	emit("removal.devices", "%s", listing(RPMSG_DEVS));
	rpmsg_class("removal.class");
}

static int do_rpmsg(void)
{
	int ctrl;

	emit("bus.devices", "%s", listing(RPMSG_DEVS));
	emit("bus.drivers", "%s", listing("/sys/bus/rpmsg/drivers"));
	rpmsg_dev("bus.ns", "virtio0.rpmsg_ns.53.53");
	rpmsg_dev("bus.ctrl", "virtio0.rpmsg_ctrl.0.0");
	rpmsg_dev("bus.raw", "virtio0.rpmsg-raw.-1.1024");
	rpmsg_dev("bus.sample", "virtio0.rpmsg-client-sample.-1.1025");
	rpmsg_class("bus.class");
	emit("bus.ctrl.attrs", "%s", listing("/sys/class/rpmsg/rpmsg_ctrl0"));
	emit("bus.ctrl.dev", "%s", access("/dev/rpmsg_ctrl0", F_OK) ?
	     "missing" : "present");
	ctrl = open("/dev/rpmsg_ctrl0", O_RDWR);
	emit("ctrl.open", "%s", errname(ctrl < 0 ? errno : 0));
	if (ctrl < 0)
		return 0;
	emit("ctrl.read", "%s", errname(read(ctrl, &ctrl + 0, 0) < 0 ? errno : 0));
	rpmsg_eptdev(ctrl);
	rpmsg_ctrl(ctrl);
	rpmsg_ns();
	rpmsg_removal(ctrl);
	close(ctrl);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "rproc"))
		return do_rproc(argv[2], argc > 3 ? argv[3] : NULL);
	if (argc >= 2 && !strcmp(argv[1], "rpmsg"))
		return do_rpmsg();
	fprintf(stderr, "usage: diff_abi rproc NAME [DETACHED] | rpmsg\n");
	return 2;
}
