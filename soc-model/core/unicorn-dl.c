// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-core: Unicorn, loaded when an emulated core starts.
 *
 * libunicorn is a 19 MB library: linked in, the dynamic loader would map
 * and relocate it at every start of every core, native ones included,
 * which costs them tens of milliseconds. The engine calls the functions
 * below, which have Unicorn's names and prototypes and forward to the
 * library emu_load_unicorn() opened. The runner exports no symbol, so
 * these never stand in for the library's own.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "emu.h"

#define UNICORN_SONAME	"libunicorn.so.2"

/* Pointers of the very types unicorn.h declares. */
static struct {
	__typeof__(uc_open) *open;
	__typeof__(uc_strerror) *strerror;
	__typeof__(uc_ctl) *ctl;
	__typeof__(uc_mem_map_ptr) *mem_map_ptr;
	__typeof__(uc_mmio_map) *mmio_map;
	__typeof__(uc_hook_add) *hook_add;
	__typeof__(uc_emu_start) *emu_start;
	__typeof__(uc_emu_stop) *emu_stop;
	__typeof__(uc_reg_read) *reg_read;
	__typeof__(uc_reg_write) *reg_write;
	__typeof__(uc_version) *version;
} u;

void emu_load_unicorn(void)
{
	static const struct {
		const char *name;
		size_t off;
	} syms[] = {
		{ "uc_open", offsetof(typeof(u), open) },
		{ "uc_strerror", offsetof(typeof(u), strerror) },
		{ "uc_ctl", offsetof(typeof(u), ctl) },
		{ "uc_mem_map_ptr", offsetof(typeof(u), mem_map_ptr) },
		{ "uc_mmio_map", offsetof(typeof(u), mmio_map) },
		{ "uc_hook_add", offsetof(typeof(u), hook_add) },
		{ "uc_emu_start", offsetof(typeof(u), emu_start) },
		{ "uc_emu_stop", offsetof(typeof(u), emu_stop) },
		{ "uc_reg_read", offsetof(typeof(u), reg_read) },
		{ "uc_reg_write", offsetof(typeof(u), reg_write) },
		{ "uc_version", offsetof(typeof(u), version) },
	};
	unsigned int i, major, minor;
	void *lib = dlopen(UNICORN_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!lib)
		die(EXIT_SETUP, "cannot load Unicorn: %s (install libunicorn2)", dlerror());
	for (i = 0; i < ARRAY_SIZE(syms); i++) {
		void *p = dlsym(lib, syms[i].name);

		if (!p)
			die(EXIT_SETUP, "Unicorn has no %s", syms[i].name);
		memcpy((char *)&u + syms[i].off, &p, sizeof(p));
	}
	/* The engine relies on 2.0's API and behaviour (docs/cores.md). */
	u.version(&major, &minor);
	if (major != 2)
		die(EXIT_SETUP, "Unicorn %u.%u: version 2 is needed", major, minor);
}

uc_err uc_open(uc_arch arch, uc_mode mode, uc_engine **uc)
{
	return u.open(arch, mode, uc);
}

const char *uc_strerror(uc_err code)
{
	return u.strerror(code);
}

uc_err uc_mem_map_ptr(uc_engine *uc, uint64_t address, size_t size, uint32_t perms,
		      void *ptr)
{
	return u.mem_map_ptr(uc, address, size, perms, ptr);
}

uc_err uc_mmio_map(uc_engine *uc, uint64_t address, size_t size,
		   uc_cb_mmio_read_t read_cb, void *user_data_read,
		   uc_cb_mmio_write_t write_cb, void *user_data_write)
{
	return u.mmio_map(uc, address, size, read_cb, user_data_read, write_cb,
			  user_data_write);
}

uc_err uc_hook_add(uc_engine *uc, uc_hook *hh, int type, void *callback,
		   void *user_data, uint64_t begin, uint64_t end, ...)
{
	/* The engine adds no instruction hook: no extra argument to pass. */
	return u.hook_add(uc, hh, type, callback, user_data, begin, end);
}

uc_err uc_emu_start(uc_engine *uc, uint64_t begin, uint64_t until, uint64_t timeout,
		    size_t count)
{
	return u.emu_start(uc, begin, until, timeout, count);
}

uc_err uc_emu_stop(uc_engine *uc)
{
	return u.emu_stop(uc);
}

uc_err uc_reg_read(uc_engine *uc, int regid, void *value)
{
	return u.reg_read(uc, regid, value);
}

uc_err uc_reg_write(uc_engine *uc, int regid, const void *value)
{
	return u.reg_write(uc, regid, value);
}

uc_err emu_uc_set_cpu_model(uc_engine *uc, int model)
{
	return u.ctl(uc, UC_CTL_WRITE(UC_CTL_CPU_MODEL, 1), model);
}

uc_err emu_uc_remove_cache(uc_engine *uc, uint64_t begin, uint64_t end)
{
	return u.ctl(uc, UC_CTL_WRITE(UC_CTL_TB_REMOVE_CACHE, 2), begin, end);
}
