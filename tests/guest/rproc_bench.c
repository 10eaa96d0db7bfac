// SPDX-License-Identifier: GPL-2.0
/*
 * rproc_bench: helpers for the remoteproc benchmark (tests/bench/rproc_load.sh).
 *
 *   rproc_bench mkfw IN OUT SIZE DA
 *	Write OUT: the ELF64 firmware IN with one more PT_LOAD segment of SIZE
 *	bytes of file contents at device address DA (hex). The new segment and
 *	a new program header table are appended, so IN's sections (and its
 *	resource table) keep their offsets.
 *   rproc_bench latency STATE TRACE RUNS
 *	RUNS times: read CLOCK_MONOTONIC, write "start" to STATE (the sysfs
 *	remoteproc state), poll TRACE (the debugfs trace buffer) until the
 *	firmware has written something, write "stop". Prints the median, the
 *	minimum and the maximum of the time to the first trace byte and of the
 *	time the "start" write took, in microseconds.
 *   rproc_bench firstmsg STATE GLOB
 *	Once: write "start" to STATE and poll until a path matches GLOB (an
 *	rpmsg channel in sysfs: the firmware's first message, its name
 *	service announcement, has been handled). Prints the time the "start"
 *	write took and the time to the channel, in microseconds. The core is
 *	left running.
 *   rproc_bench recover CRASH WHAT GLOB
 *	Once: note the channel that GLOB matches, write WHAT to CRASH (the
 *	remoteproc debugfs crash file) and poll until GLOB matches a channel
 *	that is not that one (another sysfs inode): the crash was reported,
 *	the core booted again and announced its channel again. Prints the
 *	time in microseconds.
 * Both poll with sched_yield() between looks, so the kernel work they
 * wait for runs on a single CPU too.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <linux/elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PAGE	4096u
#define MAX_RUNS	1000

static int mkfw(const char *in, const char *out, unsigned long long size,
		unsigned long long da)
{
	struct elf64_hdr eh;
	struct elf64_phdr *ph;
	unsigned char *img, *blob;
	struct stat st;
	size_t blob_off, ph_off, i;
	FILE *f;
	int fd;

	fd = open(in, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(in);
		return 1;
	}
	img = malloc(st.st_size);
	if (!img || read(fd, img, st.st_size) != st.st_size) {
		fprintf(stderr, "%s: cannot read\n", in);
		return 1;
	}
	close(fd);
	if ((size_t)st.st_size < sizeof(eh)) {
		fprintf(stderr, "%s: too short\n", in);
		return 1;
	}
	memcpy(&eh, img, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(struct elf64_phdr) ||
	    eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(struct elf64_phdr) >
	    (uint64_t)st.st_size) {
		fprintf(stderr, "%s: not an ELF64 image this tool understands\n",
			in);
		return 1;
	}

	blob_off = ((size_t)st.st_size + PAGE - 1) & ~(size_t)(PAGE - 1);
	ph_off = blob_off + size;
	ph = calloc(eh.e_phnum + 1, sizeof(*ph));
	blob = malloc(size);
	if (!ph || !blob) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	memcpy(ph, img + eh.e_phoff, eh.e_phnum * sizeof(*ph));
	for (i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD &&
		    da < ph[i].p_paddr + ph[i].p_memsz &&
		    ph[i].p_paddr < da + size) {
			fprintf(stderr, "0x%llx+%llu overlaps segment %zu\n",
				da, size, i);
			return 1;
		}
	}
	ph[eh.e_phnum] = (struct elf64_phdr) {
		.p_type = PT_LOAD,
		.p_flags = PF_R,
		.p_offset = blob_off,
		.p_vaddr = da,
		.p_paddr = da,
		.p_filesz = size,
		.p_memsz = size,
		.p_align = PAGE,
	};
	/* Not zeros: the bytes are copied, not only allocated. */
	for (i = 0; i < size; i++)
		blob[i] = (unsigned char)(i * 131 + (i >> 12));
	eh.e_phoff = ph_off;
	eh.e_phnum++;

	f = fopen(out, "wb");
	if (!f || fwrite(&eh, sizeof(eh), 1, f) != 1 ||
	    fwrite(img + sizeof(eh), st.st_size - sizeof(eh), 1, f) != 1 ||
	    fseek(f, blob_off, SEEK_SET) || fwrite(blob, size, 1, f) != 1 ||
	    fwrite(ph, sizeof(*ph), eh.e_phnum, f) != eh.e_phnum || fclose(f)) {
		perror(out);
		return 1;
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -errno;
}

/* 1 once TRACE holds at least one byte. */
static int trace_has_text(const char *path)
{
	char c;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, &c, 1);
	close(fd);
	return n == 1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int latency(const char *state, const char *trace, int runs)
{
	static uint64_t first[MAX_RUNS], ret[MAX_RUNS];
	int i, err;

	if (runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "RUNS must be 1..%d\n", MAX_RUNS);
		return 2;
	}
	for (i = 0; i < runs; i++) {
		uint64_t t0, deadline;

		t0 = now_ns();
		err = put(state, "start");
		if (err) {
			fprintf(stderr, "run %d: start: %s\n", i, strerror(-err));
			return 1;
		}
		ret[i] = now_ns() - t0;
		deadline = t0 + 10000000000ull;
		while (!trace_has_text(trace)) {
			if (now_ns() > deadline) {
				fprintf(stderr, "run %d: no trace within 10 s\n", i);
				put(state, "stop");
				return 1;
			}
		}
		first[i] = now_ns() - t0;
		err = put(state, "stop");
		if (err) {
			fprintf(stderr, "run %d: stop: %s\n", i, strerror(-err));
			return 1;
		}
	}
	qsort(first, runs, sizeof(first[0]), cmp_u64);
	qsort(ret, runs, sizeof(ret[0]), cmp_u64);
	printf("runs %d first_trace_median_us %llu min_us %llu max_us %llu ",
	       runs, (unsigned long long)first[runs / 2] / 1000,
	       (unsigned long long)first[0] / 1000,
	       (unsigned long long)first[runs - 1] / 1000);
	printf("start_write_median_us %llu min_us %llu max_us %llu\n",
	       (unsigned long long)ret[runs / 2] / 1000,
	       (unsigned long long)ret[0] / 1000,
	       (unsigned long long)ret[runs - 1] / 1000);
	return 0;
}

/* The inode of the first path matching PATTERN, or 0 if none does. */
static ino_t glob_ino(const char *pattern)
{
	struct stat st;
	glob_t g;
	ino_t ino = 0;

	if (glob(pattern, 0, NULL, &g))
		return 0;
	if (g.gl_pathc && !stat(g.gl_pathv[0], &st))
		ino = st.st_ino;
	globfree(&g);
	return ino;
}

/* Poll until PATTERN matches something other than inode OLD (0: anything). */
static int wait_glob(const char *pattern, ino_t old, uint64_t deadline)
{
	ino_t ino;

	for (;;) {
		ino = glob_ino(pattern);
		if (ino && ino != old)
			return 0;
		if (now_ns() > deadline)
			return -1;
		sched_yield();
	}
}

static int firstmsg(const char *state, const char *pattern)
{
	uint64_t t0, ret;
	int err;

	if (glob_ino(pattern)) {
		fprintf(stderr, "%s exists before the start\n", pattern);
		return 1;
	}
	t0 = now_ns();
	err = put(state, "start");
	if (err) {
		fprintf(stderr, "start: %s\n", strerror(-err));
		return 1;
	}
	ret = now_ns() - t0;
	if (wait_glob(pattern, 0, t0 + 20000000000ull)) {
		fprintf(stderr, "no %s within 20 s\n", pattern);
		return 1;
	}
	printf("start_write_us %llu first_msg_us %llu\n",
	       (unsigned long long)ret / 1000,
	       (unsigned long long)(now_ns() - t0) / 1000);
	return 0;
}

static int recover(const char *crash, const char *what, const char *pattern)
{
	ino_t old = glob_ino(pattern);
	uint64_t t0;
	int err;

	if (!old) {
		fprintf(stderr, "no %s before the crash\n", pattern);
		return 1;
	}
	t0 = now_ns();
	err = put(crash, what);
	if (err) {
		fprintf(stderr, "%s: %s\n", crash, strerror(-err));
		return 1;
	}
	if (wait_glob(pattern, old, t0 + 30000000000ull)) {
		fprintf(stderr, "no new %s within 30 s\n", pattern);
		return 1;
	}
	printf("recover_us %llu\n", (unsigned long long)(now_ns() - t0) / 1000);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "mkfw"))
		return mkfw(argv[2], argv[3], strtoull(argv[4], NULL, 0),
			    strtoull(argv[5], NULL, 16));
	if (argc == 5 && !strcmp(argv[1], "latency"))
		return latency(argv[2], argv[3], atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "firstmsg"))
		return firstmsg(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "recover"))
		return recover(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: %s mkfw IN OUT SIZE DA | latency STATE TRACE RUNS |\n"
		"\tfirstmsg STATE GLOB | recover CRASH WHAT GLOB\n", argv[0]);
	return 2;
}
