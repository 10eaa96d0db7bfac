// SPDX-License-Identifier: GPL-2.0
/*
 * The ampsoc remote core: the hardware seam over the boot ROM
 * (include/ampsoc/bootrom.h). Memory is mapped at its device addresses, so
 * a device address is its own pointer once it is known to be in a window.
 */
#include <stddef.h>

#include <ampsoc/bootrom.h>
#include <amp/platform.h>

static const struct ampsoc_bootrom *rom;

int platform_init(const void *boot_arg)
{
	const struct ampsoc_bootrom *r = boot_arg;

	if (!r || r->magic != AMPSOC_BOOTROM_MAGIC ||
	    r->version < AMPSOC_BOOTROM_VERSION ||
	    r->size < sizeof(*r) || r->nr_windows > AMPSOC_BOOTROM_MAX_WINDOWS ||
	    r->nr_vectors > AMPSOC_BOOTROM_MAX_VECTORS)
		return -22;	/* EINVAL */
	rom = r;
	return 0;
}

const char *platform_core_name(void)
{
	return rom->name;
}

unsigned int platform_nr_vectors(void)
{
	return rom->nr_vectors;
}

uint32_t platform_vector(unsigned int i)
{
	return i < rom->nr_vectors ? rom->vectors[i] : UINT32_MAX;
}

int platform_notify(uint32_t vector)
{
	return rom->doorbell(vector);
}

int platform_wait_irq(uint64_t timeout_ns)
{
	return rom->wait_irq(timeout_ns);
}

uint64_t platform_time_ns(void)
{
	return rom->time_ns();
}

int platform_console(const char *line, uint32_t len)
{
	return rom->console(line, len);
}

int platform_watchdog(uint64_t timeout_ns)
{
	return rom->watchdog(timeout_ns);
}

void *platform_da_to_va(uint64_t da, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < rom->nr_windows; i++) {
		const struct ampsoc_bootrom_window *w = &rom->windows[i];

		if (da >= w->da && len <= w->len && da - w->da <= w->len - len)
			return (void *)(uintptr_t)da;
	}
	return NULL;
}

uint64_t platform_va_to_da(const void *va)
{
	uint64_t da = (uintptr_t)va;

	return platform_da_to_va(da, 1) ? da : UINT64_MAX;
}

void platform_exit(int code)
{
	rom->exit(code);
}

void platform_abort(void)
{
	rom->abort();
}
