/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the runner's host unit tests (core.c, isa.c) share: they play the SoC
 * model and Linux's remoteproc. A test loads an ELF's PT_LOAD segments into a
 * memfd at the offsets of the core's windows, forks the runner on it exactly
 * as the model does, and watches the console, the trace buffer (through its
 * own mapping, as Linux would), the doorbells, the mailbox FIFOs, the fault
 * record and how the process ends.
 *
 * A core profile says which core the firmware is for: the native M3, or an
 * emulated core with its instruction set and its windows (code, data and
 * shared DRAM, as firmware/include/amp/core/<core>.h place them).
 * Header-only: include it from one file of a program.
 */
#ifndef _AMPSOC_TEST_RUNNER_H
#define _AMPSOC_TEST_RUNNER_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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
#include <uapi/ampsoc/bootrom.h>
#include <uapi/ampsoc/core_fault.h>
#include <amp/rsc_table.h>

#define SHM_SIZE	(64u << 20)
#define WAIT_MS		10000	/* failure guard only, never a sync point */
#define KICK_VECTOR	3

struct window {
	uint64_t off, da, len;
};

/* A core the tests run firmware on. */
struct core_prof {
	const char *tag;		/* prefix of test names: "", "m4_", "rv_" */
	const char *core;		/* its --name and map name */
	const char *suffix;		/* of image names: ampsoc-NAME<suffix>.elf */
	const char *isa;		/* --isa, NULL for the native core */
	uint16_t machine;		/* e_machine of its images */
	const struct window *win;
	int nwin;
	uint32_t shm_da;		/* AMP_CORE_SHM_BASE of its map */
	uint32_t fault_da;		/* AMP_CORE_FAULT_DA of its map */
};

/* M3 in one window at offset 0 (firmware/include/amp/core/m3.h). */
static const struct window m3_win[] = {
	{ 0x0, 0x10000000, 0x02000000 },
};

/* Code, data and DRAM windows at 0, 1 and 2 MiB of the shared memory. */
static const struct window m4_win[] = {
	{ 0x000000, 0x00000000, 0x40000 },
	{ 0x100000, 0x20000000, 0x40000 },
	{ 0x200000, 0x80000000, 0x1000000 },
};

static const struct window rv_win[] = {
	{ 0x000000, 0x08000000, 0x40000 },
	{ 0x100000, 0x80000000, 0x40000 },
	{ 0x200000, 0xc0000000, 0x1000000 },
};

static const struct core_prof prof_m3 = {
	"", "m3", "", NULL, EM_X86_64, m3_win, 1, 0x10200000, 0x10,
};

static const struct core_prof prof_m4 = {
	"m4_", "m4", "-m4", "armv7m", EM_ARM, m4_win, 3, 0x80000000, 0x30000000,
};

static const struct core_prof prof_rv = {
	"rv_", "rv", "-rv", "rv32imac", EM_RISCV, rv_win, 3, 0xc0000000, 0x30000000,
};

/* The profile the helpers below work with. */
static const struct core_prof *P = &prof_m3;

struct run {
	int shm;
	uint8_t *mem;
	int irq, kick, console, err;	/* our ends */
	int fault;			/* read end of --fault-fd, or -1 */
	pid_t pid;
	const char *name;		/* --name, P->core if NULL */
	bool want_fault;		/* pass a --fault-fd pipe */
	char cons[16384];
	size_t cons_len;
	char errbuf[2048];
};

static inline int shm_new(struct run *r)
{
	memset(r, 0, sizeof(*r));	/* pid 0: no runner to stop or reap */
	r->fault = -1;
	r->shm = memfd_create("ampsoc-shm", MFD_CLOEXEC);
	if (r->shm < 0 || ftruncate(r->shm, SHM_SIZE))
		return -1;
	r->mem = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, r->shm, 0);
	return r->mem == MAP_FAILED ? -1 : 0;
}

static inline void shm_free(struct run *r)
{
	munmap(r->mem, SHM_SIZE);
	close(r->shm);
}

/* Translate a device address through the windows; NULL if unmapped. */
static inline void *da_ptr(struct run *r, const struct window *w, int nw,
			   uint64_t da, uint64_t len)
{
	for (int i = 0; i < nw; i++)
		if (da >= w[i].da && da + len <= w[i].da + w[i].len)
			return r->mem + w[i].off + (da - w[i].da);
	return NULL;
}

/* The same through the current profile's windows. */
static inline void *core_ptr(struct run *r, uint64_t da, uint64_t len)
{
	return da_ptr(r, P->win, P->nwin, da, len);
}

struct fw {
	uint8_t *data;
	size_t size;
	uint64_t entry;
	uint32_t trace_da, trace_len;
};

/* An ELF32 or ELF64 file's headers, whichever class it is. */
struct elf_seg {
	uint32_t type;
	uint64_t offset, paddr, filesz, memsz;
};

struct elf_sec {
	const char *name;
	uint64_t offset, addr, size;
	uint32_t link;
};

static inline bool elf32(const struct fw *fw)
{
	return fw->data[EI_CLASS] == ELFCLASS32;
}

static inline uint16_t elf_machine(const struct fw *fw)
{
	return elf32(fw) ? ((const struct elf32_hdr *)fw->data)->e_machine :
			   ((const struct elf64_hdr *)fw->data)->e_machine;
}

static inline unsigned int elf_nseg(const struct fw *fw)
{
	return elf32(fw) ? ((const struct elf32_hdr *)fw->data)->e_phnum :
			   ((const struct elf64_hdr *)fw->data)->e_phnum;
}

static inline struct elf_seg elf_seg(const struct fw *fw, unsigned int i)
{
	if (elf32(fw)) {
		const struct elf32_hdr *eh = (const void *)fw->data;
		const struct elf32_phdr *ph = (const void *)(fw->data + eh->e_phoff +
							       i * sizeof(*ph));

		return (struct elf_seg){ ph->p_type, ph->p_offset, ph->p_paddr,
					 ph->p_filesz, ph->p_memsz };
	} else {
		const struct elf64_hdr *eh = (const void *)fw->data;
		const struct elf64_phdr *ph = (const void *)(fw->data + eh->e_phoff +
							       i * sizeof(*ph));

		return (struct elf_seg){ ph->p_type, ph->p_offset, ph->p_paddr,
					 ph->p_filesz, ph->p_memsz };
	}
}

static inline unsigned int elf_nsec(const struct fw *fw)
{
	return elf32(fw) ? ((const struct elf32_hdr *)fw->data)->e_shnum :
			   ((const struct elf64_hdr *)fw->data)->e_shnum;
}

static inline struct elf_sec elf_sec(const struct fw *fw, unsigned int i)
{
	if (elf32(fw)) {
		const struct elf32_hdr *eh = (const void *)fw->data;
		const struct elf32_shdr *sh = (const void *)(fw->data + eh->e_shoff);
		const char *names = (const char *)fw->data + sh[eh->e_shstrndx].sh_offset;

		return (struct elf_sec){ names + sh[i].sh_name, sh[i].sh_offset,
					 sh[i].sh_addr, sh[i].sh_size, sh[i].sh_link };
	} else {
		const struct elf64_hdr *eh = (const void *)fw->data;
		const struct elf64_shdr *sh = (const void *)(fw->data + eh->e_shoff);
		const char *names = (const char *)fw->data + sh[eh->e_shstrndx].sh_offset;

		return (struct elf_sec){ names + sh[i].sh_name, sh[i].sh_offset,
					 sh[i].sh_addr, sh[i].sh_size, sh[i].sh_link };
	}
}

/* The value of symbol @name (a function's address without its Thumb bit). */
static inline uint64_t elf_symbol(const struct fw *fw, const char *name)
{
	size_t esz = elf32(fw) ? sizeof(struct elf32_sym) : sizeof(struct elf64_sym);

	for (unsigned int i = 0; i < elf_nsec(fw); i++) {
		struct elf_sec s = elf_sec(fw, i);
		const char *str;

		if (strcmp(s.name, ".symtab"))
			continue;
		str = (const char *)fw->data + elf_sec(fw, s.link).offset;
		for (uint64_t k = 0; k < s.size / esz; k++) {
			const uint8_t *e = fw->data + s.offset + k * esz;
			const struct elf32_sym *y32 = (const void *)e;
			const struct elf64_sym *y64 = (const void *)e;
			uint64_t val = elf32(fw) ? y32->st_value : y64->st_value;

			if (strcmp(str + (elf32(fw) ? y32->st_name : y64->st_name), name))
				continue;
			return elf_machine(fw) == EM_ARM ? val & ~1ull : val;
		}
	}
	return 0;
}

/* Read image @name: sample firmware, else test-only firmware. */
static inline int fw_read_path(const char *name, struct fw *fw)
{
	char path[512];
	struct stat st;
	int fd;

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

/* Read firmware @base for the current core: ampsoc-BASE<suffix>.elf. */
static inline int fw_read(const char *base, struct fw *fw)
{
	char name[128];

	snprintf(name, sizeof(name), "ampsoc-%s%s.elf", base, P->suffix);
	return fw_read_path(name, fw);
}

/* What remoteproc does: copy PT_LOADs, zero the rest, find the trace. */
static inline int fw_load(struct run *r, struct fw *fw, const struct window *w, int nw)
{
	if (memcmp(fw->data, ELFMAG, SELFMAG) || elf_machine(fw) != P->machine)
		return -1;
	fw->entry = elf32(fw) ? ((const struct elf32_hdr *)fw->data)->e_entry :
				((const struct elf64_hdr *)fw->data)->e_entry;
	for (unsigned int i = 0; i < elf_nseg(fw); i++) {
		struct elf_seg ph = elf_seg(fw, i);
		uint8_t *dst;

		if (ph.type != PT_LOAD)
			continue;
		dst = da_ptr(r, w, nw, ph.paddr, ph.memsz);
		if (!dst)
			return -1;
		memcpy(dst, fw->data + ph.offset, ph.filesz);
		memset(dst + ph.filesz, 0, ph.memsz - ph.filesz);
	}
	fw->trace_len = 0;
	for (unsigned int i = 0; i < elf_nsec(fw); i++) {
		struct elf_sec s = elf_sec(fw, i);
		const struct ampsoc_rsc_table *t;

		if (strcmp(s.name, ".resource_table"))
			continue;
		t = (const void *)(fw->data + s.offset);
		for (uint32_t e = 0; e < t->num; e++) {
			const uint8_t *at = (const uint8_t *)t + t->offset[e];
			const struct ampsoc_rsc_hdr *h = (const void *)at;
			const struct ampsoc_rsc_trace *tr = (const void *)h->data;

			if (h->type == AMPSOC_RSC_TRACE) {
				fw->trace_da = tr->da;
				fw->trace_len = tr->len;
			}
		}
	}
	return 0;
}

/* The loaded resource table (Linux writes back into it), via the shm. */
static inline uint8_t *loaded_rsc(struct run *r, struct fw *fw, const struct window *w, int nw)
{
	for (unsigned int i = 0; i < elf_nsec(fw); i++) {
		struct elf_sec s = elf_sec(fw, i);

		if (!strcmp(s.name, ".resource_table"))
			return da_ptr(r, w, nw, s.addr, s.size);
	}
	return NULL;
}

static inline void unclo(int fd)
{
	fcntl(fd, F_SETFD, 0);
}

/* Fork the runner as the model does; extra args are appended. */
static inline int spawn(struct run *r, const struct window *w, int nw, uint64_t entry,
			bool norandom, const char *const *extra)
{
	int irq = eventfd(0, EFD_CLOEXEC), kick = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	int cons[2], err[2], flt[2] = { -1, -1 };
	char args[32][64];
	char *argv[56];
	int n = 0, a = 0;

	if (irq < 0 || kick < 0 || pipe2(cons, O_CLOEXEC) || pipe2(err, O_CLOEXEC) ||
	    (r->want_fault && pipe2(flt, O_CLOEXEC)))
		return -1;
#define ARG(...) (snprintf(args[a], sizeof(args[a]), __VA_ARGS__), argv[n++] = args[a++])
	argv[n++] = CORE_BIN;
	ARG("--name"); ARG("%s", r->name ? r->name : P->core);
	if (P->isa) {
		ARG("--isa"); ARG("%s", P->isa);
	}
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
	if (r->want_fault) {
		ARG("--fault-fd"); ARG("%d", flt[1]);
	}
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
		if (r->want_fault)
			unclo(flt[1]);
		dup2(err[1], 2);
		if (norandom)
			personality(ADDR_NO_RANDOMIZE);
		execv(CORE_BIN, argv);
		_exit(127);
	}
	close(cons[1]);
	close(err[1]);
	if (r->want_fault)
		close(flt[1]);
	r->irq = irq;
	r->kick = kick;
	r->console = cons[0];
	r->err = err[0];
	r->fault = flt[0];
	r->cons_len = 0;
	r->errbuf[0] = 0;
	return 0;
}

/* Read console output until @needle shows up or the console closes. */
static inline bool console_wait(struct run *r, const char *needle)
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
static inline void stop(struct run *r)
{
	if (r->pid > 0)
		kill(r->pid, SIGKILL);
}

/* Wait for the runner to end; returns its wait status. */
static inline int reap(struct run *r)
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

/* The fault record the runner left, after reap(); false if none. */
static inline bool fault_record(struct run *r, struct ampsoc_core_fault *f)
{
	ssize_t n;

	if (r->fault < 0)
		return false;
	n = read(r->fault, f, sizeof(*f));
	close(r->fault);
	r->fault = -1;
	return n == sizeof(*f) && f->magic == AMPSOC_CORE_FAULT_MAGIC &&
	       f->size == sizeof(*f);
}

static inline bool kick_wait(struct run *r)
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

static inline struct fifo *fifo_at(struct run *r, uint64_t off)
{
	return (struct fifo *)(r->mem + off);
}

/* Push as a producer does: a full FIFO counts an overflow. */
static inline void fifo_push(struct fifo *f, uint32_t msg)
{
	if (f->head - __atomic_load_n(&f->tail, __ATOMIC_ACQUIRE) >= MBOX_DEPTH) {
		f->overflows++;
		return;
	}
	f->msg[f->head % MBOX_DEPTH] = msg;
	__atomic_store_n(&f->head, f->head + 1, __ATOMIC_RELEASE);
}

/* Pop what the core sent; false when empty. */
static inline bool fifo_pop(struct fifo *f, uint32_t *msg)
{
	if (__atomic_load_n(&f->head, __ATOMIC_ACQUIRE) == f->tail)
		return false;
	*msg = f->msg[f->tail % MBOX_DEPTH];
	__atomic_store_n(&f->tail, f->tail + 1, __ATOMIC_RELEASE);
	return true;
}

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#endif /* _AMPSOC_TEST_RUNNER_H */
