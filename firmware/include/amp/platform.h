/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hardware seam (platform_*): everything the SDK needs from the core it
 * runs on. The ampsoc port (port/platform/ampsoc/) implements it with the
 * boot ROM; host unit tests implement it with a simulated core. Nothing
 * above this layer touches the boot ROM.
 */
#ifndef _AMP_PLATFORM_H
#define _AMP_PLATFORM_H

#include <stdint.h>

/* Called once by the startup code with what the core handed to the entry. */
int platform_init(const void *boot_arg);
const char *platform_core_name(void);

/* Doorbells towards Linux: how many there are and their vectors. */
unsigned int platform_nr_vectors(void);
uint32_t platform_vector(unsigned int i);
/* Ring doorbell @vector; 0 or a negative errno. */
int platform_notify(uint32_t vector);

/*
 * Tell Linux that the vring with @notifyid (from the resource table) has
 * new used buffers: mainline remoteproc's "kick" in the other direction.
 * 0 or a negative errno.
 */
int platform_notify_vq(uint32_t notifyid);

/*
 * The core's mailbox channels, if it has them: send one word to Linux, or
 * take one that Linux sent (1: *@msg set, 0: none). -ENODEV without one.
 */
int platform_mbox_send(uint32_t msg);
int platform_mbox_recv(uint32_t *msg);

/*
 * Wait for Linux's doorbell for at most @timeout_ns (UINT64_MAX: forever).
 * Returns how many doorbells arrived (>= 1), 0 on timeout, or a negative
 * errno. Ports with a mailbox may consume its protocol words here (see
 * the port); the SDK's queues are always polled after a wake-up.
 */
int platform_wait_irq(uint64_t timeout_ns);

uint64_t platform_time_ns(void);
int platform_console(const char *line, uint32_t len);
/* Arm (or pet) the watchdog for @timeout_ns; 0 disarms it. */
int platform_watchdog(uint64_t timeout_ns);

/*
 * Translate @len bytes at device address @da to a pointer, or NULL unless
 * the whole range lies in one memory window of the core. Every address that
 * came from the other side (a vring, a buffer) goes through here.
 */
void *platform_da_to_va(uint64_t da, uint64_t len);
/* The device address of @va, or UINT64_MAX if it is in no window. */
uint64_t platform_va_to_da(const void *va);

/*
 * Linux's DRAM, if this core sees it: Linux's bus address 0 (guest
 * physical address 0 on the virtual SoC) is device address *@da, and
 * *@len bytes from there are one memory window. Mainline Linux allocates
 * vrings and rpmsg buffers there with the DMA API and puts bus addresses
 * in descriptors. Returns 0, or -ENODEV if the core does not see it.
 */
int platform_ddr(uint64_t *da, uint64_t *len);

__attribute__((noreturn)) void platform_exit(int code);
__attribute__((noreturn)) void platform_abort(void);

#endif /* _AMP_PLATFORM_H */
