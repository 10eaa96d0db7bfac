/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the vsoc test modules: finding the SoC and its
 * children, reading the model's telemetry, and waiting on conditions
 * (polling with a deadline, never sleeping to synchronise).
 */
#ifndef _VSOC_TEST_COMMON_H
#define _VSOC_TEST_COMMON_H

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <ampsoc/pm_domain.h>
#include <ampsoc/vsoc.h>

#define VT_WAIT_MS	5000

/* Poll @cond every millisecond for up to @ms; evaluates to whether it held. */
#define vt_wait(cond, ms)						\
	({								\
		unsigned long __end = jiffies + msecs_to_jiffies(ms);	\
		bool __ok;						\
		while (!(__ok = (cond)) && time_before(jiffies, __end))	\
			usleep_range(500, 1000);			\
		__ok;							\
	})

/*
 * Take telemetry snapshots into @tp (freed and replaced each time) until
 * @cond, which reads *@tp, holds or VT_WAIT_MS pass. The model acknowledges
 * a request before it republishes its telemetry, so a check made right
 * after a request must allow it to catch up. Evaluates to whether @cond
 * held; @tp is the last snapshot (or NULL).
 */
#define vt_tel_until(soc, tp, cond)					\
	({								\
		unsigned long __end = jiffies + msecs_to_jiffies(VT_WAIT_MS); \
		struct vsoc_telemetry **__tp = &(tp);			\
		struct vsoc *__soc = (soc);				\
		bool __ok = false;					\
		for (;;) {						\
			kfree(*__tp);					\
			*__tp = vt_telemetry(__soc);			\
			if (*__tp && (cond)) {				\
				__ok = true;				\
				break;					\
			}						\
			if (time_after(jiffies, __end))			\
				break;					\
			usleep_range(500, 1000);			\
		}							\
		__ok;							\
	})

static inline int vt_any_child(struct device *dev, void *data)
{
	return 1;
}

/* The first vsoc on the PCI bus, or NULL. */
static inline struct vsoc *vt_find_soc(void)
{
	struct pci_dev *pdev = NULL;
	struct vsoc *soc = NULL;
	struct device *child;

	while (!soc && (pdev = pci_get_device(PCI_VENDOR_ID_REDHAT_QUMRANET,
					      0x1110, pdev))) {
		child = device_find_child(&pdev->dev, NULL, vt_any_child);
		if (child) {
			soc = vsoc_get(child);
			put_device(child);
		}
	}
	pci_dev_put(pdev);
	return soc;
}

static inline struct device *vt_periph_dev(struct vsoc *soc, u32 i)
{
	return vsoc_find_child(soc, vsoc_periph_dev_name(vsoc_board(soc)->periphs[i].type),
			       i);
}

/* Index of the board's domain @name, or -1. */
static inline int vt_domain(struct vsoc *soc, const char *name)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	for (i = 0; i < b->nr_domains; i++)
		if (!strcmp(b->domains[i].name, name))
			return i;
	return -1;
}

/* A telemetry snapshot (kmalloc'ed), or NULL. */
static inline struct vsoc_telemetry *vt_telemetry(struct vsoc *soc)
{
	struct vsoc_telemetry *t = kmalloc(sizeof(*t), GFP_KERNEL);

	if (t && vsoc_telemetry_read(soc, t)) {
		kfree(t);
		t = NULL;
	}
	return t;
}

static inline int vt_model_domain_state(struct vsoc *soc, u32 dom)
{
	struct vsoc_telemetry *t = vt_telemetry(soc);
	int st;

	if (!t)
		return -1;
	st = le32_to_cpu(t->domains[dom].state);
	kfree(t);
	return st;
}

/* True when the kernel and the model agree on every domain. */
static inline bool vt_domains_agree(struct vsoc *soc, char *why, size_t len)
{
	const struct vsoc_board *b = vsoc_board(soc);
	struct vsoc_telemetry *t = vt_telemetry(soc);
	bool ok = t;
	unsigned int i;

	for (i = 0; t && i < b->nr_domains; i++) {
		struct ampsoc_pd *pd = ampsoc_pd_find(b->domains[i].name);
		u32 st = le32_to_cpu(t->domains[i].state);
		bool model_on = st == VSOC_PWR_ON;

		if (!pd || ampsoc_pd_is_on(pd) != model_on) {
			scnprintf(why, len, "domain %s: kernel %s, model state %u",
				  b->domains[i].name,
				  !pd ? "missing" : ampsoc_pd_is_on(pd) ? "on" : "off",
				  st);
			ok = false;
			break;
		}
	}
	kfree(t);
	return ok;
}

#endif /* _VSOC_TEST_COMMON_H */
