// SPDX-License-Identifier: GPL-2.0
/*
 * ampsocctl - look at and drive an ampsoc (or any mainline-ABI) system:
 * remote processors, rpmsg channels and endpoints, and PM domains.
 *
 * It uses only the userspace ABI: /sys/class/remoteproc, /dev/remoteprocN,
 * /sys/bus/rpmsg, /dev/rpmsg_ctrlN and /dev/rpmsgN with the ioctls of
 * <linux/rpmsg.h>, and ampsoc's PM-domain sysfs view. So it works the same
 * on a mainline kernel with remoteproc and rpmsg built in. Only rproc trace
 * and resmgr read debugfs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/rpmsg.h>

#define RPROC_CLASS	"/sys/class/remoteproc"
#define RPROC_DEBUGFS	"/sys/kernel/debug/remoteproc"
#define RPMSG_BUS	"/sys/bus/rpmsg/devices"
#define RPMSG_CLASS	"/sys/class/rpmsg"
#define PD_SYSFS	"/sys/kernel/ampsoc_pd"
#define RESMGR_DEBUGFS	"/sys/kernel/debug/ampsoc_resmgr"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *prog = "ampsocctl";

static int fail(int err, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s: %s\n", prog, what, arg ? " " : "",
		arg ? arg : "", strerror(err));
	return 1;
}

/* Read a small sysfs file into buf without its trailing newline. */
static int read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	buf[n] = '\0';
	return 0;
}

static int write_attr(const char *dir, const char *name, const char *val)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	if (n < 0)
		return -errno;
	return 0;
}

static int cat_file(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(errno, "open", path);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(fd);
	return n < 0 ? fail(errno, "read", path) : 0;
}

static int filter_dirent(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* ---- remote processors --------------------------------------------- */

/* Resolve "0", "remoteproc0" or a processor's name to its sysfs dir. */
static int rproc_find(const char *which, char *dir, size_t len)
{
	struct dirent **ents;
	int i, n, found = -ENOENT;
	char name[64];

	n = scandir(RPROC_CLASS, &ents, filter_dirent, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		const char *d = ents[i]->d_name;

		snprintf(dir, len, "%s/%s", RPROC_CLASS, d);
		if (found == -ENOENT &&
		    (!strcmp(d, which) ||
		     (!strncmp(d, "remoteproc", 10) && !strcmp(d + 10, which)) ||
		     (!read_attr(dir, "name", name, sizeof(name)) &&
		      !strcmp(name, which))))
			found = i;
	}
	if (found >= 0)
		snprintf(dir, len, "%s/%s", RPROC_CLASS, ents[found]->d_name);
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return found >= 0 ? 0 : found;
}

static int cmd_rproc_list(void)
{
	struct dirent **ents;
	char dir[PATH_MAX], name[64], state[32], fw[256], rec[32];
	int i, n;

	n = scandir(RPROC_CLASS, &ents, filter_dirent, alphasort);
	if (n < 0)
		return fail(errno, "no remoteproc class at", RPROC_CLASS);
	printf("%-14s %-12s %-10s %-10s %s\n", "DEVICE", "NAME", "STATE",
	       "RECOVERY", "FIRMWARE");
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", RPROC_CLASS, ents[i]->d_name);
		if (read_attr(dir, "name", name, sizeof(name)))
			strcpy(name, "?");
		if (read_attr(dir, "state", state, sizeof(state)))
			strcpy(state, "?");
		if (read_attr(dir, "firmware", fw, sizeof(fw)))
			strcpy(fw, "?");
		if (read_attr(dir, "recovery", rec, sizeof(rec)))
			strcpy(rec, "?");
		printf("%-14s %-12s %-10s %-10s %s\n", ents[i]->d_name, name,
		       state, rec, fw);
		free(ents[i]);
	}
	free(ents);
	return 0;
}

static int cmd_rproc(int argc, char **argv)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	const char *op;
	int err;

	if (argc < 1 || !strcmp(argv[0], "list"))
		return cmd_rproc_list();
	op = argv[0];
	if (argc < 2) {
		fprintf(stderr, "%s: rproc %s needs a processor\n", prog, op);
		return 2;
	}
	err = rproc_find(argv[1], dir, sizeof(dir));
	if (err)
		return fail(-err, "no remote processor", argv[1]);

	if (!strcmp(op, "trace")) {
		snprintf(path, sizeof(path), "%s/%s/trace%s", RPROC_DEBUGFS,
			 strrchr(dir, '/') + 1, argc == 3 ? argv[2] : "0");
		return cat_file(path);
	}
	if (!strcmp(op, "state")) {
		snprintf(path, sizeof(path), "%s/state", dir);
		return cat_file(path);
	}
	if (!strcmp(op, "start") || !strcmp(op, "stop")) {
		err = write_attr(dir, "state", op);
	} else if (!strcmp(op, "firmware") && argc == 3) {
		err = write_attr(dir, "firmware", argv[2]);
	} else if (!strcmp(op, "recovery") && argc == 3) {
		err = write_attr(dir, "recovery", argv[2]);
	} else {
		fprintf(stderr, "%s: unknown rproc command '%s'\n", prog, op);
		return 2;
	}
	return err ? fail(-err, op, argv[1]) : 0;
}

/* ---- rpmsg ---------------------------------------------------------- */

static int cmd_channels(void)
{
	struct dirent **ents;
	char dir[PATH_MAX], name[64], src[32], dst[32], drv[PATH_MAX];
	int i, n;

	n = scandir(RPMSG_BUS, &ents, filter_dirent, alphasort);
	if (n < 0)
		return fail(errno, "no rpmsg bus at", RPMSG_BUS);
	printf("%-40s %-24s %-10s %-10s %s\n", "DEVICE", "NAME", "SRC", "DST",
	       "DRIVER");
	for (i = 0; i < n; i++) {
		ssize_t l;

		snprintf(dir, sizeof(dir), "%s/%s", RPMSG_BUS, ents[i]->d_name);
		if (read_attr(dir, "name", name, sizeof(name)))
			strcpy(name, "?");
		if (read_attr(dir, "src", src, sizeof(src)))
			strcpy(src, "?");
		if (read_attr(dir, "dst", dst, sizeof(dst)))
			strcpy(dst, "?");
		snprintf(dir, sizeof(dir), "%s/%s/driver", RPMSG_BUS,
			 ents[i]->d_name);
		l = readlink(dir, drv, sizeof(drv) - 1);
		drv[l > 0 ? l : 0] = '\0';
		printf("%-40s %-24s %-10s %-10s %s\n", ents[i]->d_name, name,
		       src, dst, l > 0 ? strrchr(drv, '/') + 1 : "-");
		free(ents[i]);
	}
	free(ents);
	return 0;
}

static int parse_addr(const char *s, uint32_t *addr)
{
	char *end;
	unsigned long v;

	if (!strcmp(s, "any")) {
		*addr = RPMSG_ADDR_ANY;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return -EINVAL;
	*addr = v;
	return 0;
}

/*
 * Find the /dev/rpmsgN that an endpoint with this name/src/dst got: the
 * char device's sysfs directory carries the same three attributes.
 */
static int ept_find(const struct rpmsg_endpoint_info *info, char *dev,
		    size_t len)
{
	struct dirent **ents;
	char dir[PATH_MAX], name[64], src[32];
	int i, n, ret = -ENOENT;

	n = scandir(RPMSG_CLASS, &ents, filter_dirent, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		const char *d = ents[i]->d_name;

		snprintf(dir, sizeof(dir), "%s/%s", RPMSG_CLASS, d);
		if (ret && strncmp(d, "rpmsg_ctrl", 10) &&
		    !read_attr(dir, "name", name, sizeof(name)) &&
		    !read_attr(dir, "src", src, sizeof(src)) &&
		    !strcmp(name, info->name) &&
		    (info->src == RPMSG_ADDR_ANY ||
		     strtoul(src, NULL, 0) == info->src)) {
			snprintf(dev, len, "/dev/%s", d);
			ret = 0;
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

static int ept_create(const char *ctrl, const char *name, const char *src,
		      const char *dst, struct rpmsg_endpoint_info *info,
		      char *dev, size_t len)
{
	int fd, err;

	memset(info, 0, sizeof(*info));
	if (strlen(name) >= sizeof(info->name)) {
		fprintf(stderr, "%s: name '%s' is longer than %zu bytes\n",
			prog, name, sizeof(info->name) - 1);
		return -EINVAL;
	}
	strcpy(info->name, name);
	if (parse_addr(src, &info->src) || parse_addr(dst, &info->dst)) {
		fprintf(stderr, "%s: bad address '%s' or '%s'\n", prog, src, dst);
		return -EINVAL;
	}
	fd = open(ctrl, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = ioctl(fd, RPMSG_CREATE_EPT_IOCTL, info) ? -errno : 0;
	close(fd);
	if (err)
		return err;
	return ept_find(info, dev, len);
}

static int ept_open(int argc, char **argv, char *dev, size_t len)
{
	struct rpmsg_endpoint_info info;
	int err;

	/* either an existing /dev/rpmsgN, or CTRL NAME SRC DST to create one */
	if (argc == 1) {
		snprintf(dev, len, "%s", argv[0]);
	} else if (argc >= 4) {
		err = ept_create(argv[0], argv[1], argv[2], argv[3], &info, dev,
				 len);
		if (err)
			return fail(-err, "create endpoint on", argv[0]), -1;
	} else {
		fprintf(stderr, "%s: need /dev/rpmsgN, or CTRL NAME SRC DST\n",
			prog);
		return -1;
	}
	err = open(dev, O_RDWR | O_CLOEXEC);
	if (err < 0)
		fail(errno, "open", dev);
	return err;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static bool is_ept_op(const char *w)
{
	static const char *const ops[] = {
		"create", "send", "recv", "call", "ping", "destroy",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(w, ops[i]))
			return true;
	return false;
}

/* A control device (/dev/rpmsg_ctrlN) comes with NAME SRC DST. */
static bool is_ctrl(const char *path)
{
	const char *base = strrchr(path, '/');

	return !strncmp(base ? base + 1 : path, "rpmsg_ctrl", 10);
}

/*
 * ept OP (DEV | CTRL NAME SRC DST) [ARGS]: OP first. The order of the
 * previous release, ept (DEV | CTRL NAME SRC DST) OP [ARGS], is still
 * accepted for this release: there the operation is the first word that
 * is one.
 */
static int cmd_ept(int argc, char **argv)
{
	char dev[PATH_MAX], buf[65536];
	int nargs, fd, ret = 0;
	const char *op;

	if (argc && is_ept_op(argv[0])) {
		op = argv[0];
		nargs = argc > 1 && is_ctrl(argv[1]) ? 4 : 1;
		if (argc < 1 + nargs) {
			fprintf(stderr, "%s: ept %s needs /dev/rpmsgN, or CTRL NAME SRC DST\n",
				prog, op);
			return 2;
		}
		fd = ept_open(nargs, argv + 1, dev, sizeof(dev));
		argv += nargs + 1;
		argc -= nargs + 1;
	} else {
		for (nargs = 0; nargs < argc; nargs++)
			if (is_ept_op(argv[nargs]))
				break;
		if (nargs == argc) {
			fprintf(stderr, "%s: ept needs create|send|recv|call|ping|destroy\n",
				prog);
			return 2;
		}
		op = argv[nargs];
		fd = ept_open(nargs, argv, dev, sizeof(dev));
		argv += nargs + 1;
		argc -= nargs + 1;
	}
	if (fd < 0)
		return 1;

	if (!strcmp(op, "create")) {
		printf("%s\n", dev);
	} else if (!strcmp(op, "send")) {
		const char *msg = argc ? argv[0] : "hello";

		if (write(fd, msg, strlen(msg)) < 0)
			ret = fail(errno, "write", dev);
	} else if (!strcmp(op, "recv")) {
		int i, n = argc ? atoi(argv[0]) : 1;

		for (i = 0; i < n && !ret; i++) {
			ssize_t l = read(fd, buf, sizeof(buf));

			if (l < 0)
				ret = fail(errno, "read", dev);
			else
				printf("%.*s\n", (int)l, buf);
		}
	} else if (!strcmp(op, "call")) {
		/* one request, one answer: for services that reply in text */
		const char *msg = argc ? argv[0] : "";
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t l;

		if (write(fd, msg, strlen(msg)) < 0) {
			ret = fail(errno, "write", dev);
		} else if (poll(&pfd, 1, 10000) != 1) {
			ret = fail(ETIMEDOUT, "no answer on", dev);
		} else {
			l = read(fd, buf, sizeof(buf));
			if (l < 0)
				ret = fail(errno, "read", dev);
			else
				printf("%.*s\n", (int)l, buf);
		}
	} else if (!strcmp(op, "ping")) {
		int i, count = argc > 0 ? atoi(argv[0]) : 10;
		size_t size = argc > 1 ? strtoul(argv[1], NULL, 0) : 16;
		double t0, dt, min = 1e18, max = 0, sum = 0;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (size < 1 || size > sizeof(buf) / 2) {
			fprintf(stderr, "%s: bad size %zu\n", prog, size);
			ret = 2;
			count = 0;
		}
		for (i = 0; i < count && !ret; i++) {
			ssize_t l;

			memset(buf, 'a' + i % 26, size);
			t0 = now_us();
			if (write(fd, buf, size) < 0) {
				ret = fail(errno, "write", dev);
				break;
			}
			if (poll(&pfd, 1, 5000) != 1) {
				ret = fail(ETIMEDOUT, "no echo on", dev);
				break;
			}
			l = read(fd, buf + size, size);
			dt = now_us() - t0;
			if (l != (ssize_t)size || memcmp(buf, buf + size, size)) {
				fprintf(stderr, "%s: echo %d differs\n", prog, i);
				ret = 1;
				break;
			}
			sum += dt;
			min = dt < min ? dt : min;
			max = dt > max ? dt : max;
		}
		if (!ret && count)
			printf("%d echoes of %zu bytes: min %.1f us, avg %.1f us, max %.1f us\n",
			       count, size, min, sum / count, max);
	} else if (!strcmp(op, "destroy")) {
		if (ioctl(fd, RPMSG_DESTROY_EPT_IOCTL))
			ret = fail(errno, "destroy", dev);
	}
	close(fd);
	return ret;
}

/* ---- PM domains ------------------------------------------------------ */

/* One line per domain from sysfs (docs/ABI/testing/sysfs-kernel-ampsoc_pd). */
static int cmd_pd_list(void)
{
	static const char *const attrs[] = {
		"current_state", "device_count", "active_count", "sd_count",
		"on_count", "off_count", "governor",
	};
	struct dirent **ents;
	char dir[PATH_MAX], val[7][32];
	int i, n, ret = 0;
	size_t a;

	n = scandir(PD_SYSFS, &ents, filter_dirent, alphasort);
	if (n < 0)
		return fail(errno, "no PM domains at", PD_SYSFS);
	printf("%-16s %-7s %7s %7s %7s %8s %8s %s\n", "DOMAIN", "STATE",
	       "DEVICES", "ACTIVE", "SUBS_ON", "ON", "OFF", "GOVERNOR");
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", PD_SYSFS, ents[i]->d_name);
		for (a = 0; a < ARRAY_SIZE(attrs); a++)
			if (read_attr(dir, attrs[a], val[a], sizeof(val[a])))
				snprintf(val[a], sizeof(val[a]), "?");
		printf("%-16s %-7s %7s %7s %7s %8s %8s %s\n", ents[i]->d_name,
		       val[0], val[1], val[2], val[3], val[4], val[5], val[6]);
		free(ents[i]);
	}
	free(ents);
	return ret;
}

static int cmd_pd(int argc, char **argv)
{
	char path[PATH_MAX];

	if (argc == 0 || !strcmp(argv[0], "list") || !strcmp(argv[0], "summary"))
		return cmd_pd_list();
	if (strchr(argv[0], '/') || argv[0][0] == '.') {
		fprintf(stderr, "%s: bad domain name '%s'\n", prog, argv[0]);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/%s/current_state", PD_SYSFS, argv[0]);
	return cat_file(path);
}

/* ---- resource manager ----------------------------------------------- */

/* What each remote holds through the rpmsg resource manager. */
static int cmd_resmgr(void)
{
	struct dirent **ents;
	char dir[PATH_MAX], line[256];
	int i, n;

	n = scandir(RESMGR_DEBUGFS, &ents, filter_dirent, alphasort);
	if (n < 0)
		return fail(errno, "no resource manager at", RESMGR_DEBUGFS);
	printf("%-14s %-8s %-24s %s\n", "REMOTE", "TYPE", "NAME", "REFS");
	for (i = 0; i < n; i++) {
		FILE *f;

		snprintf(dir, sizeof(dir), "%s/%s/holdings", RESMGR_DEBUGFS,
			 ents[i]->d_name);
		f = fopen(dir, "re");
		while (f && fgets(line, sizeof(line), f)) {
			char type[16], name[64];
			unsigned int refs;

			if (sscanf(line, "%15s %63s %u", type, name, &refs) == 3)
				printf("%-14s %-8s %-24s %u\n", ents[i]->d_name,
				       type, name, refs);
		}
		if (f)
			fclose(f);
		free(ents[i]);
	}
	free(ents);
	return 0;
}

/* Each command's usage lines, for ampsocctl --help and ampsocctl CMD --help. */
static const struct {
	const char *cmd;
	const char *usage;
} helps[] = {
	{ "rproc",
	  "  rproc [list]                      remote processors\n"
	  "  rproc start|stop|state RPROC      RPROC: N, remoteprocN or name\n"
	  "  rproc firmware RPROC FILE         set the firmware (offline only)\n"
	  "  rproc recovery RPROC enabled|disabled|recover\n"
	  "  rproc trace RPROC [N]             the firmware's trace buffer N (debugfs)\n" },
	{ "channels",
	  "  channels                          rpmsg channels on the bus\n" },
	{ "ept",
	  "  ept create CTRL NAME SRC DST      new endpoint; prints /dev/rpmsgN\n"
	  "  ept send (DEV | CTRL NAME SRC DST) MSG\n"
	  "  ept recv (DEV | CTRL NAME SRC DST) [N]\n"
	  "  ept call (DEV | CTRL NAME SRC DST) MSG   send, print the answer\n"
	  "  ept ping (DEV | CTRL NAME SRC DST) [COUNT [SIZE]]   echo round trips\n"
	  "  ept destroy DEV\n"
	  "    CTRL is /dev/rpmsg_ctrlN, DEV /dev/rpmsgN; SRC and DST are numbers\n"
	  "    or 'any'. The order OP last (ept CTRL NAME SRC DST create) still\n"
	  "    works in this release and goes in the next.\n" },
	{ "pd",
	  "  pd [list]                         PM domains: state, counts, governor\n"
	  "  pd DOMAIN                         one domain's state: on or off-N\n" },
	{ "resmgr",
	  "  resmgr                            what remotes hold via rpmsg-resmgr (debugfs)\n" },
};

static const char exit_codes[] =
	"Exit status: 0 done; 1 the operation failed (why, on stderr); 2 bad usage.\n";

static int print_help(int ret, const char *cmd)
{
	FILE *f = ret ? stderr : stdout;
	size_t i;

	fprintf(f, "usage: %s COMMAND ... (%s COMMAND --help: that command)\n",
		prog, prog);
	for (i = 0; i < ARRAY_SIZE(helps); i++)
		if (!cmd || !strcmp(cmd, helps[i].cmd))
			fputs(helps[i].usage, f);
	fputs(exit_codes, f);
	return ret;
}

static bool is_help(const char *w)
{
	return !strcmp(w, "-h") || !strcmp(w, "--help") || !strcmp(w, "help");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return print_help(2, NULL);
	if (is_help(argv[1]))
		return print_help(0, argc > 2 ? argv[2] : NULL);
	for (i = 0; i < ARRAY_SIZE(helps); i++)
		if (!strcmp(argv[1], helps[i].cmd) && argc > 2 &&
		    (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help")))
			return print_help(0, argv[1]);
	if (!strcmp(argv[1], "rproc"))
		return cmd_rproc(argc - 2, argv + 2);
	if (!strcmp(argv[1], "channels"))
		return cmd_channels();
	if (!strcmp(argv[1], "ept"))
		return cmd_ept(argc - 2, argv + 2);
	if (!strcmp(argv[1], "pd"))
		return cmd_pd(argc - 2, argv + 2);
	if (!strcmp(argv[1], "resmgr"))
		return cmd_resmgr();
	fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
	return print_help(2, NULL);
}
