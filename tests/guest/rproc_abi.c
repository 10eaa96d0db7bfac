// SPDX-License-Identifier: GPL-2.0
/*
 * rproc_abi NAME [DETACHED]: the userspace ABI of a remote processor named
 * NAME (a fake one from ampsoc_rproc_fake) against mainline 6.1's answers:
 * the sysfs class attributes, the debugfs files, and /dev/remoteprocN with
 * the ioctls of Debian's <linux/remoteproc_cdev.h>, with every command in
 * every state. Also crash recovery, coredumps, recovery disabled, and
 * garbage written to every writable file. With DETACHED, the name of a
 * processor a boot loader started: attach and detach through sysfs and
 * the character device.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/remoteproc_cdev.h>

#include "guest_util.h"
#include "ktap_user.h"

static char cls[PATH_MAX], dbg[PATH_MAX], devnode[PATH_MAX], fake_dbg[PATH_MAX];

/* Read a whole small file; returns its length or -errno. */
static int rd(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX * 2];
	int fd, n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* Write @len bytes in one write(); returns 0 or -errno. */
static int wr(const char *dir, const char *name, const char *val, size_t len)
{
	char path[PATH_MAX * 2];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, len) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int ws(const char *dir, const char *name, const char *val)
{
	return wr(dir, name, val, strlen(val));
}

static bool reads(const char *dir, const char *name, const char *want)
{
	char buf[256];

	if (rd(dir, name, buf, sizeof(buf)) < 0)
		return false;
	if (strcmp(buf, want)) {
		ktap_diag("%s/%s is '%s'", dir, name, buf);
		return false;
	}
	return true;
}

static bool contains(const char *dir, const char *name, const char *want)
{
	static char buf[65536];

	if (rd(dir, name, buf, sizeof(buf)) < 0)
		return false;
	return strstr(buf, want);
}

static unsigned int mode_of(const char *dir, const char *name)
{
	char path[PATH_MAX * 2];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st))
		return 0;
	return st.st_mode & 07777;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait (polling, bounded) until the state attribute reads @want. */
static bool wait_state(const char *want, double secs)
{
	double end = now() + secs;
	char buf[64], w[64];

	snprintf(w, sizeof(w), "%s\n", want);
	do {
		if (rd(cls, "state", buf, sizeof(buf)) > 0 && !strcmp(buf, w))
			return true;
		usleep(10000);
	} while (now() < end);
	ktap_diag("state is '%s', waited for %s", buf, want);
	return false;
}

/* Wait (polling, bounded) until the trace buffer shows @want. */
static bool wait_trace(const char *want, double secs)
{
	double end = now() + secs;

	do {
		if (contains(dbg, "trace0", want))
			return true;
		usleep(10000);
	} while (now() < end);
	ktap_diag("trace0 never showed '%s'", want);
	return false;
}

static bool find(const char *name)
{
	DIR *d = opendir("/sys/class/remoteproc");
	struct dirent *e;
	char dir[PATH_MAX], buf[128], want[128];
	bool found = false;

	if (!d)
		return false;
	snprintf(want, sizeof(want), "%s\n", name);
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "remoteproc", 10))
			continue;
		snprintf(dir, sizeof(dir), "/sys/class/remoteproc/%s", e->d_name);
		if (rd(dir, "name", buf, sizeof(buf)) > 0 && !strcmp(buf, want)) {
			snprintf(cls, sizeof(cls), "%s", dir);
			snprintf(dbg, sizeof(dbg),
				 "/sys/kernel/debug/remoteproc/%s", e->d_name);
			snprintf(devnode, sizeof(devnode), "/dev/%s", e->d_name);
			found = true;
		}
	}
	closedir(d);
	snprintf(fake_dbg, sizeof(fake_dbg),
		 "/sys/kernel/debug/ampsoc_rproc_fake/%s", name);
	return found;
}

static void sysfs_layout(const char *name)
{
	char want[128];

	snprintf(want, sizeof(want), "%s\n", name);
	ktap_ok(reads(cls, "name", want), "sysfs_name");
	ktap_ok(reads(cls, "state", "offline\n"), "sysfs_state_offline");
	ktap_ok(reads(cls, "firmware", "ampsoc-rproc-fake.elf\n"),
		"sysfs_firmware_default");
	ktap_ok(reads(cls, "recovery", "enabled\n"), "sysfs_recovery_default");
	/* mainline zero-initialises it: disabled */
	ktap_ok(reads(cls, "coredump", "disabled\n"), "sysfs_coredump_default");
	ktap_ok(mode_of(cls, "state") == 0644 && mode_of(cls, "firmware") == 0644 &&
		mode_of(cls, "name") == 0444 && mode_of(cls, "recovery") == 0644 &&
		mode_of(cls, "coredump") == 0644, "sysfs_modes");
	ktap_ok(ws(cls, "name", "x") < 0 && reads(cls, "name", want),
		"sysfs_name_read_only");
}

static void sysfs_garbage(void)
{
	static const char * const bad_state[] = {
		"bogus", "\n", "start now", "stopstart", "\x01\x02\x03",
		"START", "detach",
	};
	static const char * const bad_fw[] = {
		"\n", "../etc/shadow", "a/../b", "x/..", "/lib/firmware/x",
		"two words", "\xff\xfe", "tab\tname", "a\nb",
	};
	char big[4096];
	unsigned int i, ok = 0;

	for (i = 0; i < ARRAY_SIZE(bad_state); i++)
		ok += ws(cls, "state", bad_state[i]) == -EINVAL;
	memset(big, 'A', sizeof(big));
	ok += wr(cls, "state", big, sizeof(big)) == -EINVAL;
	ktap_ok(ok == ARRAY_SIZE(bad_state) + 1,
		"sysfs_state_rejects_garbage");
	ktap_ok(reads(cls, "state", "offline\n"), "sysfs_state_unchanged");

	for (ok = 0, i = 0; i < ARRAY_SIZE(bad_fw); i++)
		ok += ws(cls, "firmware", bad_fw[i]) == -EINVAL;
	ok += wr(cls, "firmware", big, 300) == -EINVAL;
	ktap_ok(ok == ARRAY_SIZE(bad_fw) + 1,
		"sysfs_firmware_rejects_garbage");
	ktap_ok(reads(cls, "firmware", "ampsoc-rproc-fake.elf\n"),
		"sysfs_firmware_unchanged");
	ktap_ok(ws(cls, "recovery", "sometimes") == -EINVAL &&
		ws(cls, "coredump", "always") == -EINVAL,
		"sysfs_recovery_coredump_reject_garbage");
}

static void sysfs_semantics(void)
{
	char small[8];

	ktap_ok(ws(cls, "firmware", "ampsoc-rproc-fake.elf\n") == 0,
		"sysfs_firmware_write_with_newline");
	ktap_ok(ws(cls, "state", "start\n") == 0 && reads(cls, "state", "running\n"),
		"sysfs_start");
	/* mainline: one more reference, not -EBUSY */
	ktap_ok(ws(cls, "state", "start") == 0 && reads(cls, "state", "running\n"),
		"sysfs_start_when_running_counts");
	ktap_ok(ws(cls, "state", "stop") == 0 && reads(cls, "state", "running\n"),
		"sysfs_stop_drops_one_reference");
	ktap_ok(ws(cls, "state", "detach") == -EINVAL &&
		reads(cls, "state", "running\n"), "sysfs_detach_when_running");
	ktap_ok(ws(cls, "firmware", "other.elf") == -EBUSY,
		"sysfs_firmware_busy_while_running");
	ktap_ok(contains(dbg, "trace0", "fake remote") &&
		contains(dbg, "trace0", "booted ampsoc-rproc-fake.elf"),
		"debugfs_trace_shows_firmware_output");
	ktap_ok(contains(dbg, "resource_table", "Entry 0 is of type carveout") &&
		contains(dbg, "resource_table", "  Name text\n") &&
		contains(dbg, "resource_table", "Entry 4 is of type vdev") &&
		contains(dbg, "resource_table", "  Vring 1") &&
		contains(dbg, "resource_table", "Unknown resource type found: 128 [hdr: ") &&
		contains(dbg, "resource_table", "Unknown resource type found: 130 [hdr: ") &&
		!contains(dbg, "resource_table", "Resource Table:"),
		"debugfs_resource_table");
	ktap_ok(contains(dbg, "carveout_memories", "Name: text") &&
		contains(dbg, "carveout_memories", "Name: heap") &&
		contains(dbg, "carveout_memories", "Device address: 0x10000000"),
		"debugfs_carveout_memories");
	ktap_ok(ws(cls, "state", "stop") == 0 && reads(cls, "state", "offline\n"),
		"sysfs_stop");
	ktap_ok(ws(cls, "state", "stop") == -EINVAL, "sysfs_stop_when_offline");
	ktap_ok(rd(dbg, "trace0", small, sizeof(small)) == -ENOENT,
		"debugfs_trace_gone_when_offline");
	ktap_ok(ws(cls, "coredump", "disabled") == 0 &&
		reads(cls, "coredump", "disabled\n") &&
		ws(cls, "coredump", "inline") == 0 &&
		reads(cls, "coredump", "inline\n") &&
		ws(cls, "coredump", "enabled\n") == 0, "sysfs_coredump_modes");
	ktap_ok(ws(cls, "recovery", "disabled") == 0 &&
		reads(cls, "recovery", "disabled\n") &&
		ws(cls, "recovery", "enabled") == 0 &&
		reads(cls, "recovery", "enabled\n"), "sysfs_recovery_modes");
	/* mainline: nothing to recover is success */
	ktap_ok(ws(cls, "recovery", "recover") == 0 &&
		reads(cls, "state", "offline\n"), "sysfs_recover_when_not_crashed");
	ktap_ok(ws(cls, "state", "detach") == -EINVAL, "sysfs_detach_when_offline");
	/* debugfs compares a prefix of each word, without a newline */
	ktap_ok(ws(dbg, "recovery", "d") == 0 && reads(cls, "recovery", "disabled\n") &&
		ws(dbg, "recovery", "en") == 0 && reads(cls, "recovery", "enabled\n") &&
		ws(dbg, "recovery", "e\n") == -EINVAL &&
		ws(dbg, "coredump", "in") == 0 && reads(cls, "coredump", "inline\n") &&
		ws(dbg, "coredump", "disabled\n") == 0 &&
		reads(dbg, "coredump", "disabled\n"), "debugfs_prefix_words");
}

/* ampsoc's benchmark files: load_stats and memcpy_bench. */
static void bench_files(void)
{
	bool ok;

	ktap_ok(mode_of(dbg, "load_stats") == 0400 &&
		mode_of(dbg, "memcpy_bench") == 0600, "debugfs_bench_modes");
	ktap_ok(ws(cls, "state", "start") == 0 &&
		ws(dbg, "memcpy_bench", "10000000 4096") == -EBUSY &&
		ws(cls, "state", "stop") == 0, "memcpy_bench_busy_while_running");
	/* the test image's two segments occupy 2 x 4 KiB */
	ktap_ok(contains(dbg, "load_stats", "fw_bytes ") &&
		contains(dbg, "load_stats", " load_bytes 8192 load_ns "),
		"load_stats_of_last_load");
	/* a plain ELF on the default operations is read from its file */
	ktap_ok(contains(dbg, "load_stats", " path direct\n"),
		"load_stats_path_direct");
	/*
	 * a segment past the end of the file: refused with the same errno,
	 * the verdict from request_firmware() (the kernel's KTAP case
	 * direct_refuses_segment_past_end checks the memory is untouched)
	 */
	ok = ws(cls, "firmware", "ampsoc-rproc-bad-segment_truncated.elf") == 0 &&
	     ws(cls, "state", "start") == -EINVAL &&
	     contains(dbg, "load_stats", " path request_firmware\n");
	ktap_ok(ws(cls, "firmware", "ampsoc-rproc-fake.elf") == 0 && ok,
		"load_stats_path_request_firmware_past_end");
	ktap_ok(ws(dbg, "memcpy_bench", "10000000 4096") == 0 &&
		contains(dbg, "memcpy_bench", "bytes 4096 ns "),
		"memcpy_bench_copies");
	ktap_ok(ws(dbg, "memcpy_bench", "30000000 16") == -ERANGE &&
		ws(dbg, "memcpy_bench", "nonsense") == -EINVAL,
		"memcpy_bench_rejects");
}

static void debugfs_layout(void)
{
	char want[160], buf[128];

	rd(cls, "name", buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(want, sizeof(want), "%s\n", buf);
	ktap_ok(reads(dbg, "name", want), "debugfs_name");
	ktap_ok(mode_of(dbg, "name") == 0400 && mode_of(dbg, "recovery") == 0600 &&
		mode_of(dbg, "crash") == 0200 &&
		mode_of(dbg, "resource_table") == 0400 &&
		mode_of(dbg, "carveout_memories") == 0400 &&
		mode_of(dbg, "coredump") == 0600, "debugfs_modes");
	ktap_ok(reads(dbg, "resource_table", "No resource table found\n"),
		"debugfs_no_table_when_offline");
	/* mainline takes any number; an offline processor ignores it */
	ktap_ok(ws(dbg, "crash", "7") == 0 && reads(cls, "state", "offline\n") &&
		ws(dbg, "crash", "x") == -EINVAL, "debugfs_crash_any_number");
}

static void cdev(void)
{
	struct stat st;
	int32_t v = -1;
	int fd;

	ktap_ok(!stat(devnode, &st) && S_ISCHR(st.st_mode), "cdev_exists");
	fd = open(devnode, O_RDWR);
	if (!ktap_ok(fd >= 0, "cdev_open")) {
		ktap_diag("%s: %s", devnode, strerror(errno));
		return;
	}
	ktap_ok(write(fd, "start", 5) == 5 && reads(cls, "state", "running\n"),
		"cdev_start");
	/* mainline: one more reference, and "stop" drops it */
	ktap_ok(write(fd, "start", 5) == 5 && write(fd, "stop", 4) == 4 &&
		reads(cls, "state", "running\n"), "cdev_start_when_running_counts");
	ktap_ok(write(fd, "detach", 6) < 0 && errno == EINVAL,
		"cdev_detach_when_running");
	ktap_ok(write(fd, "bogus", 5) < 0 && errno == EINVAL,
		"cdev_rejects_garbage");
	/* the bytes written are compared, a newline included */
	ktap_ok(write(fd, "start\n", 6) < 0 && errno == EINVAL,
		"cdev_newline_refused");
	ktap_ok(write(fd, "stopstartstop", 13) < 0 && errno == EINVAL,
		"cdev_rejects_long_write");
	ktap_ok(!ioctl(fd, RPROC_GET_SHUTDOWN_ON_RELEASE, &v) && v == 0,
		"cdev_shutdown_on_release_default_off");
	v = 1;
	ktap_ok(!ioctl(fd, RPROC_SET_SHUTDOWN_ON_RELEASE, &v), "cdev_set_flag");
	v = -1;
	ktap_ok(!ioctl(fd, RPROC_GET_SHUTDOWN_ON_RELEASE, &v) && v == 1,
		"cdev_get_flag");
	ktap_ok(ioctl(fd, _IOW(RPROC_MAGIC, 9, int32_t), &v) < 0 && errno == EINVAL,
		"cdev_unknown_ioctl");
	ktap_ok(ioctl(fd, RPROC_SET_SHUTDOWN_ON_RELEASE, (void *)8) < 0 &&
		errno == EFAULT, "cdev_bad_pointer");
	close(fd);
	ktap_ok(reads(cls, "state", "offline\n"), "cdev_close_shuts_down");

	fd = open(devnode, O_RDWR);
	v = 0;
	ktap_ok(fd >= 0 && !ioctl(fd, RPROC_SET_SHUTDOWN_ON_RELEASE, &v) &&
		write(fd, "start", 5) == 5, "cdev_start_keep");
	close(fd);
	ktap_ok(reads(cls, "state", "running\n"), "cdev_close_keeps_running");
	fd = open(devnode, O_WRONLY);
	ktap_ok(fd >= 0 && write(fd, "stop", 4) == 4 &&
		reads(cls, "state", "offline\n"), "cdev_stop");
	ktap_ok(fd >= 0 && write(fd, "stop", 4) < 0 && errno == EINVAL,
		"cdev_stop_when_offline");
	/* a prefix of a command is that command: "st" starts, "sto" stops */
	ktap_ok(fd >= 0 && write(fd, "st", 2) == 2 &&
		reads(cls, "state", "running\n") && write(fd, "sto", 3) == 3 &&
		reads(cls, "state", "offline\n"), "cdev_prefix_commands");
	if (fd >= 0)
		close(fd);
}

/* Newest devcoredump with an ELF core, or an empty path. */
static bool find_dump(char *path, size_t len)
{
	DIR *d = opendir("/sys/class/devcoredump");
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "devcd", 5)) {
			snprintf(path, len, "/sys/class/devcoredump/%s",
				 e->d_name);
			found = true;
		}
	closedir(d);
	return found;
}

static bool wait_dump(char *path, size_t len, double secs)
{
	double end = now() + secs;

	do {
		if (find_dump(path, len))
			return true;
		usleep(10000);
	} while (now() < end);
	return false;
}

static void drop_dumps(void)
{
	char path[PATH_MAX];

	while (find_dump(path, sizeof(path)))
		if (ws(path, "data", "1"))
			break;
}

static void crashes(void)
{
	char path[PATH_MAX], buf[4096], next[32];
	uint16_t type = 0, machine = 0, phnum = 0;
	int n;

	drop_dumps();
	ktap_ok(ws(cls, "state", "start") == 0, "crash_setup_start");
	/* the fake counts its boots in the trace line */
	n = rd(fake_dbg, "starts", buf, sizeof(buf));
	snprintf(next, sizeof(next), "(boot %d)", n > 0 ? atoi(buf) + 1 : -1);
	ktap_ok(ws(dbg, "crash", "1") == 0, "debugfs_crash_injects");
	/* recovery: crashed, then running again with a fresh boot */
	ktap_ok(wait_trace(next, 10) && wait_state("running", 10),
		"crash_recovers");
	/* coredumps are off by default */
	ktap_ok(!find_dump(path, sizeof(path)), "no_coredump_by_default");
	ktap_ok(ws(cls, "coredump", "enabled") == 0, "coredump_enable");
	n = rd(fake_dbg, "starts", buf, sizeof(buf));
	snprintf(next, sizeof(next), "(boot %d)", n > 0 ? atoi(buf) + 1 : -1);
	ktap_ok(ws(dbg, "crash", "0") == 0 && wait_trace(next, 10) &&
		wait_state("running", 10) && find_dump(path, sizeof(path)),
		"crash_takes_coredump");
	drop_dumps();

	ktap_ok(ws(cls, "recovery", "disabled") == 0, "recovery_disable");
	ktap_ok(ws(fake_dbg, "watchdog", "1") == 0, "driver_reports_watchdog");
	ktap_ok(wait_state("crashed", 10), "recovery_disabled_stays_crashed");
	/* mainline checks the state first: garbage is busy too */
	ktap_ok(ws(cls, "coredump", "inline") == -EBUSY &&
		ws(cls, "coredump", "always") == -EBUSY &&
		ws(dbg, "coredump", "inline") == -EBUSY,
		"coredump_config_busy_while_crashed");
	n = -1;
	/* the state turns "crashed" before the dump is taken: wait for it */
	if (wait_dump(path, sizeof(path), 10))
		n = rd(path, "data", buf, sizeof(buf));
	/* ELF64 header: e_type at 16, e_machine at 18, e_phnum at 56 */
	if (n >= 64) {
		memcpy(&type, buf + 16, 2);
		memcpy(&machine, buf + 18, 2);
		memcpy(&phnum, buf + 56, 2);
	}
	ktap_ok(n >= 64 && !memcmp(buf, ELFMAG, SELFMAG) &&
		buf[EI_CLASS] == ELFCLASS64 && type == ET_CORE &&
		machine == EM_X86_64 && phnum >= 3,
		"coredump_is_elf_core_of_the_firmware");
	drop_dumps();
	ktap_ok(reads(cls, "state", "crashed\n"), "still_crashed");
	ktap_ok(ws(cls, "recovery", "recover") == 0 &&
		reads(cls, "state", "running\n"), "recover_on_request");
	ktap_ok(ws(cls, "recovery", "enabled") == 0, "recovery_enable");

	/* inline: recovery waits until userspace has read the dump */
	ktap_ok(ws(cls, "coredump", "inline") == 0, "coredump_inline");
	n = rd(fake_dbg, "starts", buf, sizeof(buf));
	snprintf(next, sizeof(next), "(boot %d)", n > 0 ? atoi(buf) + 1 : -1);
	ktap_ok(ws(fake_dbg, "watchdog", "1") == 0 && wait_state("crashed", 10),
		"inline_crash");
	n = -1;
	if (wait_dump(path, sizeof(path), 10))
		n = rd(path, "data", buf, sizeof(buf));
	ktap_ok(n > 0 && !memcmp(buf, ELFMAG, SELFMAG) &&
		reads(cls, "state", "crashed\n"),
		"inline_dump_readable_while_recovery_waits");
	drop_dumps();
	ktap_ok(wait_trace(next, 10) && wait_state("running", 10),
		"inline_recovery_after_dump_released");
	/* a crashed processor can be stopped, as mainline */
	ktap_ok(ws(cls, "coredump", "disabled") == 0 &&
		ws(cls, "recovery", "disabled") == 0 &&
		ws(fake_dbg, "watchdog", "1") == 0 && wait_state("crashed", 10) &&
		ws(cls, "state", "detach") == -EINVAL &&
		ws(cls, "state", "stop") == 0 && reads(cls, "state", "offline\n"),
		"stop_when_crashed");
	ktap_ok(ws(cls, "recovery", "enabled") == 0 &&
		ws(cls, "coredump", "disabled") == 0 &&
		reads(cls, "state", "offline\n"), "crash_cleanup");
	drop_dumps();
}

/* A processor a boot loader started: attach and detach. */
static void attach(const char *name)
{
	int32_t v = 1;
	int fd;

	if (!ktap_ok(find(name), "find_%s", name))
		return;
	ktap_ok(reads(cls, "state", "detached\n"), "detached_at_registration");
	ktap_ok(reads(cls, "firmware", "ampsoc-rproc-fake.elf\n"),
		"detached_firmware_name");
	ktap_ok(ws(cls, "state", "stop") == -EINVAL &&
		ws(cls, "state", "detach") == -EINVAL &&
		ws(cls, "firmware", "x.elf") == -EBUSY &&
		reads(cls, "state", "detached\n"), "detached_refuses");
	ktap_ok(ws(cls, "state", "start") == 0 &&
		reads(cls, "state", "attached\n"), "sysfs_start_attaches");
	/* Linux did not load what it runs */
	ktap_ok(reads(cls, "firmware", "unknown\n"), "attached_firmware_unknown");
	ktap_ok(contains(dbg, "trace0", "attached"), "attached_trace");
	ktap_ok(ws(cls, "state", "start") == 0 && ws(cls, "state", "detach") == 0 &&
		reads(cls, "state", "attached\n"), "attached_counts_users");
	ktap_ok(ws(cls, "state", "detach") == 0 &&
		reads(cls, "state", "detached\n"), "sysfs_detach");
	fd = open(devnode, O_RDWR);
	ktap_ok(fd >= 0 && write(fd, "start", 5) == 5 &&
		reads(cls, "state", "attached\n") &&
		!ioctl(fd, RPROC_SET_SHUTDOWN_ON_RELEASE, &v), "cdev_attach");
	if (fd >= 0)
		close(fd);
	/* closing with shutdown-on-release detaches an attached processor */
	ktap_ok(reads(cls, "state", "detached\n"), "cdev_close_detaches");
	fd = open(devnode, O_WRONLY);
	ktap_ok(fd >= 0 && write(fd, "start", 5) == 5 &&
		write(fd, "detach", 6) == 6 && reads(cls, "state", "detached\n"),
		"cdev_detach");
	if (fd >= 0)
		close(fd);
	/* "stop" on an attached processor stops it; then it boots firmware */
	ktap_ok(ws(cls, "state", "start") == 0 && ws(cls, "state", "stop") == 0 &&
		reads(cls, "state", "offline\n"), "sysfs_stop_attached");
	ktap_ok(ws(cls, "state", "start") == 0 && reads(cls, "state", "running\n") &&
		reads(cls, "firmware", "ampsoc-rproc-fake.elf\n") &&
		ws(cls, "state", "stop") == 0, "boots_after_stop");
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "ampsoc-rproc-fake.0";

	ktap_plan(0);
	if (!find(name)) {
		ktap_ok(false, "find_%s", name);
		ktap_exit();
	}
	ktap_diag("%s is %s", name, cls);
	sysfs_layout(name);
	debugfs_layout();
	sysfs_garbage();
	sysfs_semantics();
	bench_files();
	cdev();
	crashes();
	if (argc > 2)
		attach(argv[2]);
	ktap_exit();
}
