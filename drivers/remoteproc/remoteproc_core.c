// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc remoteproc core: mainline 6.1's remoteproc_core.c semantics on
 * ampsoc's own code: registration, boot and attach, refcounted shutdown and
 * detach, resources handled in table order and carveouts allocated after
 * them, crash handling and recovery, the panic notifier. What ampsoc adds
 * (docs/mainline-differences.md): every image and resource table is
 * validated before use, memory declared with ampsoc_rproc_add_mem() serves
 * the allocations mainline makes with dma_alloc_coherent(), the framework
 * holds a runtime-PM reference on the platform device while the processor
 * is up, a failed recovery powers the processor off, and removal stops it
 * whatever its number of users.
 *
 * Locking: rproc->lock serialises every state change and is held across
 * the platform's and the subdevices' callbacks, as in mainline. It is never
 * taken from the kick or interrupt paths.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/elf.h>
#include <linux/iommu.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/panic_notifier.h>
#include <linux/pm_runtime.h>
#include <linux/pm_wakeup.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "remoteproc_internal.h"

#define AMPSOC_RPROC_MAX_DEVICES		64
#define AMPSOC_RPROC_HIGH_BITS		0xffffffff00000000ULL
/* What a resource table is told for memory without a physical address. */
#define AMPSOC_RPROC_NO_PA32		0xffffffffu

typedef int (*ampsoc_rproc_rsc_handler_t)(struct rproc *rproc, void *rsc, int offset,
				 int avail);

static DEFINE_IDA(ampsoc_rproc_ida);
static struct workqueue_struct *ampsoc_rproc_recovery_wq;
static DEFINE_MUTEX(ampsoc_rproc_list_mutex);
static LIST_HEAD(ampsoc_rproc_list);

static const char * const ampsoc_rproc_state_names[] = {
	[RPROC_OFFLINE] = "offline",
	[RPROC_SUSPENDED] = "suspended",
	[RPROC_RUNNING] = "running",
	[RPROC_CRASHED] = "crashed",
	[RPROC_ATTACHED] = "attached",
	[RPROC_DETACHED] = "detached",
	[RPROC_LAST] = "invalid",
};

static const char * const ampsoc_rproc_crash_names[] = {
	[RPROC_MMUFAULT] = "mmufault",
	[RPROC_WATCHDOG] = "watchdog",
	[RPROC_FATAL_ERROR] = "fatal error",
};

/**
 * ampsoc_rproc_state_name() - mainline's name of a state
 * @state: an &enum rproc_state value
 *
 * Context: Any context.
 * Return: the string the "state" attribute shows; "invalid" beyond
 * RPROC_LAST.
 */
const char *ampsoc_rproc_state_name(unsigned int state)
{
	return ampsoc_rproc_state_names[min_t(unsigned int, state, RPROC_LAST)];
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_state_name);

/**
 * ampsoc_rproc_reason() - remember why an image is being refused
 * @rproc: the processor
 * @fmt: printf format of one sentence
 *
 * The first reason of a boot wins; the boot logs it once, in the line
 * "firmware NAME rejected: REASON (ERRNO)".
 *
 * Context: Process context, rproc->lock held during a boot.
 */
void ampsoc_rproc_reason(struct rproc *rproc, const char *fmt, ...)
{
	struct ampsoc_rproc_state *ampsoc = rproc->ampsoc;
	va_list ap;

	if (ampsoc->reason[0])
		return;
	va_start(ap, fmt);
	vscnprintf(ampsoc->reason, sizeof(ampsoc->reason), fmt, ap);
	va_end(ap);
}

/* One line per refused image: the recorded reason, or @what. */
static int ampsoc_rproc_reject(struct rproc *rproc, int err, const char *what)
{
	dev_err(&rproc->dev, "firmware %s rejected: %s (%d)\n",
		rproc->firmware, rproc->ampsoc->reason[0] ? rproc->ampsoc->reason : what,
		err);
	return err;
}

/* ---- IOMMU (as mainline) ----------------------------------------------- */

static int ampsoc_rproc_iommu_fault(struct iommu_domain *domain, struct device *dev,
				    unsigned long iova, int flags, void *token)
{
	struct rproc *rproc = token;

	dev_err(dev, "iommu fault: da 0x%lx flags 0x%x\n", iova, flags);
	ampsoc_rproc_report_crash(rproc, RPROC_MMUFAULT);
	/* Not zero, "not handled": the fault only triggers recovery. */
	return -EOPNOTSUPP;
}

static int ampsoc_rproc_enable_iommu(struct rproc *rproc)
{
	struct device *dev = rproc->dev.parent;
	struct iommu_domain *domain;
	int ret;

	if (!rproc->has_iommu)
		return 0;
	domain = iommu_domain_alloc(dev->bus);
	if (!domain) {
		dev_err(dev, "can't alloc iommu domain\n");
		return -ENOMEM;
	}
	iommu_set_fault_handler(domain, ampsoc_rproc_iommu_fault, rproc);
	ret = iommu_attach_device(domain, dev);
	if (ret) {
		dev_err(dev, "can't attach iommu device: %d\n", ret);
		iommu_domain_free(domain);
		return ret;
	}
	rproc->domain = domain;
	return 0;
}

static void ampsoc_rproc_disable_iommu(struct rproc *rproc)
{
	struct iommu_domain *domain = rproc->domain;

	if (!domain)
		return;
	iommu_detach_device(domain, rproc->dev.parent);
	iommu_domain_free(domain);
	rproc->domain = NULL;
}

/* ---- addresses ----------------------------------------------------------- */

/**
 * ampsoc_rproc_va_to_pa() - physical address of a kernel address (rproc_va_to_pa)
 * @cpu_addr: a linear-map or vmalloc address
 *
 * Context: Any context.
 * Return: the physical address of the byte at @cpu_addr.
 */
phys_addr_t ampsoc_rproc_va_to_pa(void *cpu_addr)
{
	if (is_vmalloc_addr(cpu_addr))
		return page_to_phys(vmalloc_to_page(cpu_addr)) +
		       offset_in_page(cpu_addr);
	WARN_ON(!virt_addr_valid(cpu_addr));
	return virt_to_phys(cpu_addr);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_va_to_pa);

/**
 * ampsoc_rproc_da_to_va() - translate a device address (rproc_da_to_va)
 * @rproc: the processor
 * @da: device address
 * @len: bytes that must be mapped contiguously from @da
 * @is_iomem: if not NULL, set to whether the memory is I/O memory
 *
 * Asks &rproc_ops.da_to_va first, then looks in the carveouts, as mainline,
 * and last in the memory declared with ampsoc_rproc_add_mem().
 *
 * Context: Any context.
 * Return: the kernel address of @da, or NULL if [@da, @da + @len) is not
 * entirely mapped.
 */
void *ampsoc_rproc_da_to_va(struct rproc *rproc, u64 da, size_t len,
			    bool *is_iomem)
{
	struct rproc_mem_entry *c;
	void *ptr;

	if (rproc->ops->da_to_va) {
		ptr = rproc->ops->da_to_va(rproc, da, len, is_iomem);
		if (ptr)
			return ptr;
	}
	list_for_each_entry(c, &rproc->carveouts, node) {
		if (!c->va || da < c->da || len > c->len ||
		    da - c->da > c->len - len)
			continue;
		if (is_iomem)
			*is_iomem = c->is_iomem;
		return c->va + (da - c->da);
	}
	ptr = ampsoc_rproc_pool_to_va(rproc, da, len);
	if (ptr && is_iomem)
		*is_iomem = false;
	return ptr;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_da_to_va);

/* ---- carveouts ----------------------------------------------------------- */

/**
 * ampsoc_rproc_find_carveout() - a carveout by name (rproc_find_carveout_by_name)
 * @rproc: the processor
 * @name: the name
 *
 * Context: Process context, rproc->lock held.
 * Return: the entry, or NULL.
 */
struct rproc_mem_entry *ampsoc_rproc_find_carveout(struct rproc *rproc,
						   const char *name)
{
	struct rproc_mem_entry *c;

	list_for_each_entry(c, &rproc->carveouts, node)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/**
 * ampsoc_rproc_check_carveout_da() - does a request fit a registered carveout
 * @rproc: the processor
 * @mem: the registered carveout
 * @da: requested device address, or FW_RSC_ADDR_ANY
 * @len: requested length
 *
 * Context: Process context, rproc->lock held.
 * Return: 0, or -EINVAL with the reason recorded.
 */
int ampsoc_rproc_check_carveout_da(struct rproc *rproc, struct rproc_mem_entry *mem,
				   u32 da, u32 len)
{
	if (len > mem->len) {
		ampsoc_rproc_reason(rproc,
				    "registered carveout '%s' of 0x%zx bytes, 0x%x requested",
				    mem->name, mem->len, len);
		return -EINVAL;
	}
	if (da == FW_RSC_ADDR_ANY)
		return 0;
	if (mem->da == FW_RSC_ADDR_ANY || da < mem->da ||
	    (u64)(da - mem->da) + len > mem->len) {
		ampsoc_rproc_reason(rproc,
				    "registered carveout '%s' does not hold 0x%x bytes at 0x%x",
				    mem->name, len, da);
		return -EINVAL;
	}
	return 0;
}

static __printf(8, 0) struct rproc_mem_entry *
ampsoc_rproc_mem_entry_vinit(void *va, dma_addr_t dma, size_t len, u32 da,
			     int (*alloc)(struct rproc *, struct rproc_mem_entry *),
		    int (*release)(struct rproc *, struct rproc_mem_entry *),
		    u32 of_resm_idx, const char *name, va_list args)
{
	struct rproc_mem_entry *mem = kzalloc(sizeof(*mem), GFP_KERNEL);

	if (!mem)
		return NULL;
	mem->va = va;
	mem->dma = dma;
	mem->da = da;
	mem->len = len;
	mem->alloc = alloc;
	mem->release = release;
	mem->rsc_offset = FW_RSC_ADDR_ANY;
	mem->of_resm_idx = of_resm_idx;
	vsnprintf(mem->name, sizeof(mem->name), name, args);
	return mem;
}

/**
 * ampsoc_rproc_mem_entry_init() - describe a carveout (rproc_mem_entry_init)
 * @dev: the device the memory belongs to (unused, as mainline)
 * @va: kernel address, or NULL if @alloc provides it
 * @dma: DMA address
 * @len: size
 * @da: device address, or FW_RSC_ADDR_ANY
 * @alloc: allocator run when the carveouts are allocated, or NULL
 * @release: releases what @alloc allocated, or NULL
 * @name: printf format of the name carveout and vring resources match
 *
 * Register the entry with ampsoc_rproc_add_carveout(); the framework frees
 * it when the processor stops, so drivers add theirs in &rproc_ops.prepare.
 *
 * Context: Process context.
 * Return: the entry, or NULL.
 */
struct rproc_mem_entry *
ampsoc_rproc_mem_entry_init(struct device *dev, void *va, dma_addr_t dma,
			    size_t len, u32 da,
			    int (*alloc)(struct rproc *, struct rproc_mem_entry *),
			    int (*release)(struct rproc *, struct rproc_mem_entry *),
			    const char *name, ...)
{
	struct rproc_mem_entry *mem;
	va_list args;

	va_start(args, name);
	mem = ampsoc_rproc_mem_entry_vinit(va, dma, len, da, alloc, release, -1, name,
					   args);
	va_end(args);
	return mem;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_mem_entry_init);

/**
 * ampsoc_rproc_of_resm_mem_entry_init() - a carveout from reserved memory
 * @dev: the device (unused, as mainline)
 * @of_resm_idx: index in the device tree's "memory-region" list
 * @len: size
 * @da: device address
 * @name: printf format of the name
 *
 * As rproc_of_resm_mem_entry_init(). Without device tree support in the
 * kernel, a vdev buffer described this way cannot be associated and the
 * vdev fails to start, as in mainline.
 *
 * Context: Process context.
 * Return: the entry, or NULL.
 */
struct rproc_mem_entry *
ampsoc_rproc_of_resm_mem_entry_init(struct device *dev, u32 of_resm_idx,
				    size_t len, u32 da, const char *name, ...)
{
	struct rproc_mem_entry *mem;
	va_list args;

	va_start(args, name);
	mem = ampsoc_rproc_mem_entry_vinit(NULL, 0, len, da, NULL, NULL, of_resm_idx,
					   name, args);
	va_end(args);
	return mem;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_of_resm_mem_entry_init);

/**
 * ampsoc_rproc_of_parse_firmware() - "firmware-name" of a device tree node
 * @dev: the device
 * @index: index in the property
 * @fw_name: set to the name on success
 *
 * As rproc_of_parse_firmware().
 *
 * Context: Process context.
 * Return: 0, or the device tree layer's errno (-ENOSYS without
 * CONFIG_OF, Debian's amd64 configuration).
 */
int ampsoc_rproc_of_parse_firmware(struct device *dev, int index,
				   const char **fw_name)
{
	return of_property_read_string_index(dev->of_node, "firmware-name",
					     index, fw_name);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_of_parse_firmware);

/**
 * ampsoc_rproc_add_carveout() - register a carveout (rproc_add_carveout)
 * @rproc: the processor
 * @mem: an entry from ampsoc_rproc_mem_entry_init()
 *
 * Context: Process context, before or while the processor boots (from
 * &rproc_ops.prepare or &rproc_ops.parse_fw).
 */
void ampsoc_rproc_add_carveout(struct rproc *rproc, struct rproc_mem_entry *mem)
{
	list_add_tail(&mem->node, &rproc->carveouts);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_add_carveout);

/* The physical address a carveout resource is told. */
static u64 ampsoc_rproc_entry_pa(struct rproc *rproc, struct rproc_mem_entry *e)
{
	struct ampsoc_rproc_mem *m;

	list_for_each_entry(m, &rproc->ampsoc->pool, node) {
		if (!e->va || e->va < m->va || e->va >= m->va + m->len)
			continue;
		if (m->pa == AMPSOC_RPROC_NO_PA ||
		    m->pa + (e->va - m->va) + e->len > AMPSOC_RPROC_NO_PA32)
			return AMPSOC_RPROC_NO_PA32;
		return m->pa + (e->va - m->va);
	}
	return e->va ? ampsoc_rproc_va_to_pa(e->va) : e->dma;
}

static int ampsoc_rproc_alloc_mem(struct rproc *rproc, struct rproc_mem_entry *mem,
				  size_t align)
{
	struct device *dev = &rproc->dev;
	struct rproc_mem_entry *mapping;
	phys_addr_t pa;
	dma_addr_t dma;
	u64 da = mem->da;
	void *va;
	int ret;

	if (!ampsoc_rproc_pool_empty(rproc)) {
		/* Fixed addresses were claimed by ampsoc_rproc_pool_prepare(). */
		if (mem->da != FW_RSC_ADDR_ANY)
			va = ampsoc_rproc_pool_to_va(rproc, da, mem->len);
		else
			va = ampsoc_rproc_pool_alloc(rproc, &da, mem->len, align, &pa);
		if (!va) {
			ampsoc_rproc_reason(rproc,
					    "carveout '%s' of 0x%zx bytes does not fit in memory",
					    mem->name, mem->len);
			return -ENOMEM;
		}
		memset(va, 0, mem->len);
		mem->va = va;
		mem->da = da;
		mem->dma = ampsoc_rproc_entry_pa(rproc, mem);
		return 0;
	}

	va = dma_alloc_coherent(dev->parent, mem->len, &dma, GFP_KERNEL);
	if (!va) {
		ampsoc_rproc_reason(rproc, "no DMA memory for carveout '%s' of 0x%zx bytes",
				    mem->name, mem->len);
		return -ENOMEM;
	}
	if (mem->da != FW_RSC_ADDR_ANY && !rproc->domain && mem->da != (u32)dma)
		dev_warn(dev->parent,
			 "Allocated carveout doesn't fit device address request\n");
	if (mem->da != FW_RSC_ADDR_ANY && rproc->domain) {
		mapping = kzalloc(sizeof(*mapping), GFP_KERNEL);
		if (!mapping) {
			ret = -ENOMEM;
			goto err_free;
		}
		ret = iommu_map(rproc->domain, mem->da, dma, mem->len,
				mem->flags);
		if (ret) {
			dev_err(dev, "iommu_map failed: %d\n", ret);
			kfree(mapping);
			goto err_free;
		}
		mapping->da = mem->da;
		mapping->len = mem->len;
		list_add_tail(&mapping->node, &rproc->mappings);
	}
	if (mem->da == FW_RSC_ADDR_ANY) {
		if ((u64)dma & AMPSOC_RPROC_HIGH_BITS)
			dev_warn(dev, "DMA address cast in 32bit to fit resource table format\n");
		mem->da = (u32)dma;
	}
	mem->dma = dma;
	mem->va = va;
	return 0;

err_free:
	dma_free_coherent(dev->parent, mem->len, va, dma);
	return ret;
}

/**
 * ampsoc_rproc_alloc_carveout() - allocator of carveouts no driver registered
 * @rproc: the processor
 * @mem: the entry
 *
 * Mainline allocates with dma_alloc_coherent() on the platform device; so
 * does ampsoc, unless the platform declared memory with
 * ampsoc_rproc_add_mem(), which then serves the allocation (zeroed).
 *
 * Context: Process context, rproc->lock held.
 * Return: 0 or -ENOMEM (or an IOMMU errno).
 */
int ampsoc_rproc_alloc_carveout(struct rproc *rproc, struct rproc_mem_entry *mem)
{
	return ampsoc_rproc_alloc_mem(rproc, mem, PAGE_SIZE);
}

/**
 * ampsoc_rproc_alloc_vring_carveout() - allocator of vrings no driver registered
 * @rproc: the processor
 * @mem: the entry; its @priv is the struct rproc_vring
 *
 * As ampsoc_rproc_alloc_carveout(), aligned to the vring's alignment in declared
 * memory.
 *
 * Context: Process context, rproc->lock held.
 * Return: 0 or -ENOMEM.
 */
int ampsoc_rproc_alloc_vring_carveout(struct rproc *rproc, struct rproc_mem_entry *mem)
{
	struct rproc_vring *rvring = mem->priv;

	return ampsoc_rproc_alloc_mem(rproc, mem, max_t(size_t, PAGE_SIZE,
					       rvring->align));
}

/**
 * ampsoc_rproc_release_carveout() - release what the allocators above allocated
 * @rproc: the processor
 * @mem: the entry
 *
 * Declared memory is given back all at once by the resource cleanup.
 *
 * Context: Process context, rproc->lock held.
 * Return: 0.
 */
int ampsoc_rproc_release_carveout(struct rproc *rproc, struct rproc_mem_entry *mem)
{
	if (ampsoc_rproc_pool_empty(rproc) && mem->va)
		dma_free_coherent(rproc->dev.parent, mem->len, mem->va,
				  mem->dma);
	return 0;
}

/* ---- declared memory (ampsoc_rproc_add_mem) ----------------------------- */

static struct ampsoc_rproc_mem *ampsoc_rproc_pool_find(struct rproc *rproc, u64 da, u64 len)
{
	struct ampsoc_rproc_mem *m;

	list_for_each_entry(m, &rproc->ampsoc->pool, node)
		if (da >= m->da && len <= m->len && da - m->da <= m->len - len)
			return m;
	return NULL;
}

/**
 * ampsoc_rproc_pool_empty() - whether the platform declared memory
 * @rproc: the processor
 *
 * Context: Any context.
 * Return: true without ampsoc_rproc_add_mem() memory.
 */
bool ampsoc_rproc_pool_empty(struct rproc *rproc)
{
	return list_empty(&rproc->ampsoc->pool);
}

/**
 * ampsoc_rproc_pool_to_va() - translate into declared memory
 * @rproc: the processor
 * @da: device address
 * @len: length
 *
 * Context: Any context.
 * Return: the kernel address, or NULL outside declared memory.
 */
void *ampsoc_rproc_pool_to_va(struct rproc *rproc, u64 da, size_t len)
{
	struct ampsoc_rproc_mem *m = ampsoc_rproc_pool_find(rproc, da, len);

	return m ? m->va + (da - m->da) : NULL;
}

/* Does [da, da + len) meet an allocation; claims only if @claims_only. */
static bool ampsoc_rproc_pool_busy(struct rproc *rproc, u64 da, u64 len,
				   bool claims_only, u64 *next)
{
	struct ampsoc_rproc_da_alloc *a;

	list_for_each_entry(a, &rproc->ampsoc->allocs, node) {
		if (claims_only && !a->claim)
			continue;
		if (da < a->da + a->len && a->da < da + len) {
			if (next)
				*next = a->da + a->len;
			return true;
		}
	}
	return false;
}

static int ampsoc_rproc_pool_track(struct rproc *rproc, u64 da, u64 len, bool claim)
{
	struct ampsoc_rproc_da_alloc *a = kzalloc(sizeof(*a), GFP_KERNEL);

	if (!a)
		return -ENOMEM;
	a->da = da;
	a->len = len;
	a->claim = claim;
	list_add_tail(&a->node, &rproc->ampsoc->allocs);
	return 0;
}

/* Keep "anywhere" allocations off [da, da + len) if it is declared memory. */
static int ampsoc_rproc_pool_reserve(struct rproc *rproc, u64 da, u64 len)
{
	int ret = 0;

	if (!len || !ampsoc_rproc_pool_find(rproc, da, len))
		return 0;
	mutex_lock(&rproc->ampsoc->pool_lock);
	ret = ampsoc_rproc_pool_track(rproc, da, len, false);
	mutex_unlock(&rproc->ampsoc->pool_lock);
	return ret;
}

/**
 * ampsoc_rproc_pool_alloc() - allocate free declared memory
 * @rproc: the processor
 * @da: set to the device address of the allocation
 * @len: bytes needed
 * @align: alignment of the device address (a power of two)
 * @pa: set to the physical address, or AMPSOC_RPROC_NO_PA
 *
 * First fit, away from every claim and reservation.
 *
 * Context: Process context; takes the pool lock.
 * Return: the kernel address, or NULL if nothing fits.
 */
void *ampsoc_rproc_pool_alloc(struct rproc *rproc, u64 *da, size_t len, size_t align,
			      phys_addr_t *pa)
{
	struct ampsoc_rproc_state *ampsoc = rproc->ampsoc;
	struct ampsoc_rproc_mem *m;
	void *va = NULL;

	if (!len)
		return NULL;
	mutex_lock(&ampsoc->pool_lock);
	list_for_each_entry(m, &ampsoc->pool, node) {
		u64 cand = ALIGN(m->da, align);
		u64 next;

		while (cand >= m->da && cand - m->da < m->len &&
		       len <= m->len - (cand - m->da)) {
			if (!ampsoc_rproc_pool_busy(rproc, cand, len, false, &next)) {
				if (ampsoc_rproc_pool_track(rproc, cand, len, true))
					goto out;
				*da = cand;
				*pa = m->pa == AMPSOC_RPROC_NO_PA ?
				      AMPSOC_RPROC_NO_PA : m->pa + (cand - m->da);
				va = m->va + (cand - m->da);
				goto out;
			}
			cand = ALIGN(next, align);
		}
	}
out:
	mutex_unlock(&ampsoc->pool_lock);
	return va;
}

/**
 * ampsoc_rproc_pool_release() - release an allocation of ampsoc_rproc_pool_alloc()
 * @rproc: the processor
 * @da: its device address
 *
 * Context: Process context; takes the pool lock.
 */
void ampsoc_rproc_pool_release(struct rproc *rproc, u64 da)
{
	struct ampsoc_rproc_da_alloc *a;

	mutex_lock(&rproc->ampsoc->pool_lock);
	list_for_each_entry(a, &rproc->ampsoc->allocs, node) {
		if (a->claim && a->da == da) {
			list_del(&a->node);
			kfree(a);
			break;
		}
	}
	mutex_unlock(&rproc->ampsoc->pool_lock);
}

/**
 * ampsoc_rproc_pool_reset() - forget every allocation in declared memory
 * @rproc: the processor
 *
 * Context: Process context; takes the pool lock.
 */
void ampsoc_rproc_pool_reset(struct rproc *rproc)
{
	struct ampsoc_rproc_da_alloc *a, *n;

	mutex_lock(&rproc->ampsoc->pool_lock);
	list_for_each_entry_safe(a, n, &rproc->ampsoc->allocs, node) {
		list_del(&a->node);
		kfree(a);
	}
	mutex_unlock(&rproc->ampsoc->pool_lock);
}

/**
 * ampsoc_rproc_pool_prepare() - place what has a fixed address before allocating
 * @rproc: the processor, its resources handled
 * @fw: the image, or NULL when attaching
 *
 * With declared memory, "anywhere" allocations must not land on the
 * image's segments, its trace buffers, the carveouts the driver placed or
 * the carveouts and vrings at fixed addresses; and two of the latter must
 * not overlap. Without declared memory this does nothing.
 *
 * Context: Process context, rproc->lock held.
 * Return: 0, -ENOMEM for a fixed carveout outside declared memory, -EBUSY
 * for two that overlap (reason recorded).
 */
int ampsoc_rproc_pool_prepare(struct rproc *rproc, const struct firmware *fw)
{
	struct ampsoc_fw_info *info = NULL;
	struct rproc_mem_entry *c;
	struct ampsoc_rproc_trace *t;
	unsigned int i;
	int ret = 0;

	if (ampsoc_rproc_pool_empty(rproc))
		return 0;
	ampsoc_rproc_pool_reset(rproc);
	if (fw) {
		info = ampsoc_rproc_elf_parse(rproc, fw, true);
		/* Not ELF (a custom loader): nothing to keep clear. */
		if (IS_ERR(info))
			info = NULL;
	}
	for (i = 0; info && i < info->num_segs && !ret; i++)
		ret = ampsoc_rproc_pool_reserve(rproc, info->segs[i].da,
						info->segs[i].memsz);
	kfree(info);
	list_for_each_entry(t, &rproc->traces, node)
		if (!ret)
			ret = ampsoc_rproc_pool_reserve(rproc, t->trace_mem.da,
							t->trace_mem.len);
	list_for_each_entry(c, &rproc->carveouts, node) {
		bool ours = c->alloc == ampsoc_rproc_alloc_carveout ||
			    c->alloc == ampsoc_rproc_alloc_vring_carveout;

		if (ret || c->da == FW_RSC_ADDR_ANY)
			continue;
		if (!ours) {
			if (c->va)
				ret = ampsoc_rproc_pool_reserve(rproc, c->da, c->len);
			continue;
		}
		if (!ampsoc_rproc_pool_find(rproc, c->da, c->len)) {
			ampsoc_rproc_reason(rproc,
					    "carveout '%s' (0x%zx bytes at 0x%x) is outside memory",
					    c->name, c->len, c->da);
			ret = -ENOMEM;
			break;
		}
		mutex_lock(&rproc->ampsoc->pool_lock);
		if (ampsoc_rproc_pool_busy(rproc, c->da, c->len, true, NULL))
			ret = -EBUSY;
		else
			ret = ampsoc_rproc_pool_track(rproc, c->da, c->len, true);
		mutex_unlock(&rproc->ampsoc->pool_lock);
		if (ret == -EBUSY)
			ampsoc_rproc_reason(rproc,
					    "carveout '%s' at 0x%x overlaps another carveout",
					    c->name, c->da);
	}
	return ret;
}

/**
 * ampsoc_rproc_add_mem() - declare memory the processor sees (ampsoc)
 * @rproc: the processor, offline
 * @name: a name for the logs
 * @da: the address the processor sees
 * @pa: the physical address Linux sees, or ~0 if it has none
 * @va: the kernel mapping
 * @len: size in bytes
 *
 * An ampsoc extension for platforms without device tree or CMA: declared
 * memory is translated by rproc_da_to_va() (after &rproc_ops.da_to_va and
 * the carveouts), and serves the carveouts, vrings and rpmsg buffers no
 * driver registered, which mainline allocates with dma_alloc_coherent().
 * Resource tables are told @pa (0xffffffff without one).
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL for an empty or overlapping range, -EBUSY unless the
 * processor is offline, -ENOMEM, -EINTR.
 */
int ampsoc_rproc_add_mem(struct rproc *rproc, const char *name, u64 da,
			 phys_addr_t pa, void *va, size_t len)
{
	struct ampsoc_rproc_mem *m;
	u64 end;
	int ret = 0;

	if (!len || !va || check_add_overflow(da, (u64)len, &end))
		return -EINVAL;
	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	if (rproc->state != RPROC_OFFLINE || atomic_read(&rproc->power)) {
		ret = -EBUSY;
		goto out;
	}
	list_for_each_entry(m, &rproc->ampsoc->pool, node) {
		if (da < m->da + m->len && m->da < end) {
			ret = -EINVAL;
			goto out;
		}
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		ret = -ENOMEM;
		goto out;
	}
	strscpy(m->name, name, sizeof(m->name));
	m->da = da;
	m->pa = pa;
	m->va = va;
	m->len = len;
	list_add_tail(&m->node, &rproc->ampsoc->pool);
out:
	mutex_unlock(&rproc->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_add_mem);

/* ---- resources (table order, as mainline) ------------------------------- */

static int ampsoc_rproc_handle_trace(struct rproc *rproc, void *ptr, int offset,
				     int avail)
{
	struct fw_rsc_trace *rsc = ptr;
	struct ampsoc_rproc_trace *trace;
	char name[16];

	if (sizeof(*rsc) > avail) {
		ampsoc_rproc_reason(rproc, "trace resource is truncated");
		return -EINVAL;
	}
	if (rsc->reserved) {
		ampsoc_rproc_reason(rproc, "trace resource has non-zero reserved bytes");
		return -EINVAL;
	}
	trace = kzalloc(sizeof(*trace), GFP_KERNEL);
	if (!trace)
		return -ENOMEM;
	trace->trace_mem.len = rsc->len;
	trace->trace_mem.da = rsc->da;
	trace->rproc = rproc;
	snprintf(name, sizeof(name), "trace%d", rproc->num_traces);
	trace->tfile = ampsoc_rproc_create_trace_file(name, rproc, trace);
	list_add_tail(&trace->node, &rproc->traces);
	rproc->num_traces++;
	return 0;
}

static int ampsoc_rproc_handle_devmem(struct rproc *rproc, void *ptr, int offset,
				      int avail)
{
	struct fw_rsc_devmem *rsc = ptr;
	struct rproc_mem_entry *mapping;
	int ret;

	/* Nothing to map without an IOMMU domain: mainline refuses it. */
	if (!rproc->domain) {
		ampsoc_rproc_reason(rproc, "devmem resource without an IOMMU");
		return -EINVAL;
	}
	if (sizeof(*rsc) > avail || rsc->reserved) {
		ampsoc_rproc_reason(rproc,
				    "devmem resource is truncated or has non-zero reserved bytes");
		return -EINVAL;
	}
	mapping = kzalloc(sizeof(*mapping), GFP_KERNEL);
	if (!mapping)
		return -ENOMEM;
	ret = iommu_map(rproc->domain, rsc->da, rsc->pa, rsc->len, rsc->flags);
	if (ret) {
		ampsoc_rproc_reason(rproc, "devmem 0x%x->0x%x could not be mapped",
				    rsc->da, rsc->pa);
		kfree(mapping);
		return ret;
	}
	mapping->da = rsc->da;
	mapping->len = rsc->len;
	list_add_tail(&mapping->node, &rproc->mappings);
	return 0;
}

static int ampsoc_rproc_handle_carveout(struct rproc *rproc, void *ptr, int offset,
					int avail)
{
	struct fw_rsc_carveout *rsc = ptr;
	struct rproc_mem_entry *carveout;
	char name[32];

	if (sizeof(*rsc) > avail) {
		ampsoc_rproc_reason(rproc, "carveout resource is truncated");
		return -EINVAL;
	}
	if (rsc->reserved) {
		ampsoc_rproc_reason(rproc, "carveout resource has non-zero reserved bytes");
		return -EINVAL;
	}
	/* The name is 32 bytes, maybe unterminated; mainline keeps 31. */
	strscpy(name, (const char *)rsc->name, sizeof(name));
	carveout = ampsoc_rproc_find_carveout(rproc, name);
	if (carveout) {
		if (carveout->rsc_offset != FW_RSC_ADDR_ANY) {
			ampsoc_rproc_reason(rproc, "carveout '%s' is already in the resource table",
					    name);
			return -ENOMEM;
		}
		if (ampsoc_rproc_check_carveout_da(rproc, carveout, rsc->da, rsc->len))
			return -ENOMEM;
		carveout->rsc_offset = offset;
		carveout->flags = rsc->flags;
		return 0;
	}
	carveout = ampsoc_rproc_mem_entry_init(&rproc->dev, NULL, 0, rsc->len,
					       rsc->da, ampsoc_rproc_alloc_carveout,
					       ampsoc_rproc_release_carveout, "%s", name);
	if (!carveout)
		return -ENOMEM;
	carveout->flags = rsc->flags;
	carveout->rsc_offset = offset;
	ampsoc_rproc_add_carveout(rproc, carveout);
	return 0;
}

static const ampsoc_rproc_rsc_handler_t ampsoc_rproc_handlers[RSC_LAST] = {
	[RSC_CARVEOUT] = ampsoc_rproc_handle_carveout,
	[RSC_DEVMEM] = ampsoc_rproc_handle_devmem,
	[RSC_TRACE] = ampsoc_rproc_handle_trace,
	[RSC_VDEV] = ampsoc_rproc_handle_vdev,
};

static int ampsoc_rproc_handle_rsc_entry(u32 type, void *rsc, int offset, int avail,
					 void *data)
{
	struct rproc *rproc = data;
	int ret;

	if (type >= RSC_VENDOR_START && type <= RSC_VENDOR_END) {
		ret = rproc->ops->handle_rsc ?
		      rproc->ops->handle_rsc(rproc, type, rsc, offset, avail) :
		      RSC_IGNORED;
		if (ret == RSC_HANDLED)
			return 0;
		if (ret < 0) {
			ampsoc_rproc_reason(rproc, "vendor resource type %u refused",
					    type);
			return ret;
		}
		dev_warn(&rproc->dev, "unsupported vendor resource %u\n", type);
		return 0;
	}
	if (type >= RSC_LAST) {
		dev_warn(&rproc->dev, "unsupported resource %u\n", type);
		return 0;
	}
	return ampsoc_rproc_handlers[type](rproc, rsc, offset, avail);
}

static int ampsoc_rproc_handle_resources(struct rproc *rproc)
{
	int ret;

	if (!rproc->table_ptr)
		return 0;
	ret = rsc_table_for_each_entry(rproc->table_ptr, rproc->table_sz,
				       &rproc->dev, ampsoc_rproc_handle_rsc_entry, rproc);
	if (ret)
		ampsoc_rproc_reason(rproc, "its resources could not be handled");
	return ret;
}

/* ampsoc: every table is checked in full before its entries are handled. */
static int ampsoc_rproc_check_table(struct rproc *rproc)
{
	char err[AMPSOC_FW_ERR_LEN];
	int ret;

	if (!rproc->table_ptr)
		return 0;
	if (rproc->table_sz > AMPSOC_RSC_MAX_SIZE) {
		ampsoc_rproc_reason(rproc, "resource table of %zu bytes is too large",
				    rproc->table_sz);
		return -E2BIG;
	}
	ret = ampsoc_fw_check_rsc(rproc->table_ptr, rproc->table_sz, err,
				  sizeof(err));
	if (ret)
		ampsoc_rproc_reason(rproc, "%s", err);
	return ret;
}

/* ampsoc: a trace buffer must be mapped once the carveouts exist. */
static int ampsoc_rproc_check_traces(struct rproc *rproc)
{
	struct ampsoc_rproc_trace *t;

	list_for_each_entry(t, &rproc->traces, node) {
		if (!ampsoc_rproc_da_to_va(rproc, t->trace_mem.da,
					   t->trace_mem.len, NULL)) {
			ampsoc_rproc_reason(rproc,
					    "trace buffer at 0x%x (0x%zx bytes) is outside memory",
					    t->trace_mem.da, t->trace_mem.len);
			return -EINVAL;
		}
	}
	return 0;
}

static int ampsoc_rproc_alloc_registered_carveouts(struct rproc *rproc)
{
	struct rproc_mem_entry *entry, *tmp;
	struct fw_rsc_carveout *rsc;
	u64 pa;
	int ret;

	list_for_each_entry_safe(entry, tmp, &rproc->carveouts, node) {
		if (entry->alloc) {
			ret = entry->alloc(rproc, entry);
			if (ret) {
				dev_err(&rproc->dev, "Unable to allocate carveout %s: %d\n",
					entry->name, ret);
				ampsoc_rproc_reason(rproc, "carveout '%s' could not be allocated",
						    entry->name);
				return -ENOMEM;
			}
		}
		if (entry->rsc_offset == FW_RSC_ADDR_ANY)
			continue;
		rsc = (void *)rproc->table_ptr + entry->rsc_offset;
		pa = ampsoc_rproc_entry_pa(rproc, entry);
		if (pa & AMPSOC_RPROC_HIGH_BITS)
			dev_warn(&rproc->dev,
				 "Physical address cast in 32bit to fit resource table format\n");
		rsc->pa = (u32)pa;
		rsc->da = entry->da;
		rsc->len = entry->len;
	}
	return 0;
}

/* ---- subdevices ---------------------------------------------------------- */

/**
 * ampsoc_rproc_add_subdev() - add a subdevice (rproc_add_subdev)
 * @rproc: the processor
 * @subdev: the subdevice; its callbacks follow every later boot
 *
 * Context: Process context; not concurrently with a boot or shutdown
 * (mainline takes no lock either).
 */
void ampsoc_rproc_add_subdev(struct rproc *rproc, struct rproc_subdev *subdev)
{
	list_add_tail(&subdev->node, &rproc->subdevs);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_add_subdev);

/**
 * ampsoc_rproc_remove_subdev() - remove a subdevice (rproc_remove_subdev)
 * @rproc: the processor
 * @subdev: a subdevice added with ampsoc_rproc_add_subdev()
 *
 * Context: Process context; as ampsoc_rproc_add_subdev().
 */
void ampsoc_rproc_remove_subdev(struct rproc *rproc,
				struct rproc_subdev *subdev)
{
	list_del(&subdev->node);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_remove_subdev);

static int ampsoc_rproc_prepare_subdevices(struct rproc *rproc)
{
	struct rproc_subdev *subdev;
	int ret;

	list_for_each_entry(subdev, &rproc->subdevs, node) {
		if (!subdev->prepare)
			continue;
		ret = subdev->prepare(subdev);
		if (ret)
			goto unroll;
	}
	return 0;

unroll:
	list_for_each_entry_continue_reverse(subdev, &rproc->subdevs, node)
		if (subdev->unprepare)
			subdev->unprepare(subdev);
	return ret;
}

static int ampsoc_rproc_start_subdevices(struct rproc *rproc)
{
	struct rproc_subdev *subdev;
	int ret;

	list_for_each_entry(subdev, &rproc->subdevs, node) {
		if (!subdev->start)
			continue;
		ret = subdev->start(subdev);
		if (ret)
			goto unroll;
	}
	rproc->ampsoc->subdevs_up = true;
	return 0;

unroll:
	/* As mainline: the ones that started are stopped as if crashed. */
	list_for_each_entry_continue_reverse(subdev, &rproc->subdevs, node)
		if (subdev->stop)
			subdev->stop(subdev, true);
	return ret;
}

static void ampsoc_rproc_stop_subdevices(struct rproc *rproc, bool crashed)
{
	struct rproc_subdev *subdev;

	rproc->ampsoc->subdevs_up = false;
	list_for_each_entry_reverse(subdev, &rproc->subdevs, node)
		if (subdev->stop)
			subdev->stop(subdev, crashed);
}

static void ampsoc_rproc_unprepare_subdevices(struct rproc *rproc)
{
	struct rproc_subdev *subdev;

	list_for_each_entry_reverse(subdev, &rproc->subdevs, node)
		if (subdev->unprepare)
			subdev->unprepare(subdev);
}

/* ---- power (ampsoc: the framework's runtime-PM reference) -------------- */

/*
 * A runtime-PM reference on the platform device: its PM domain and the
 * domain's parents power on first. A platform without runtime PM (never
 * enabled) is always powered; the usage count is kept balanced either way.
 */
static int ampsoc_rproc_pm_get(struct rproc *rproc)
{
	struct device *parent = rproc->dev.parent;
	int ret;

	if (rproc->ampsoc->pm_held)
		return 0;
	ret = pm_runtime_get_sync(parent);
	if (ret < 0 && !(ret == -EACCES && !pm_runtime_enabled(parent))) {
		pm_runtime_put_noidle(parent);
		dev_err(&rproc->dev, "can't power up %s: %d\n", rproc->name,
			ret);
		return ret;
	}
	rproc->ampsoc->pm_held = true;
	return 0;
}

/* Synchronous, so that the domain is off when the last user returns. */
static void ampsoc_rproc_pm_put(struct rproc *rproc)
{
	if (!rproc->ampsoc->pm_held)
		return;
	rproc->ampsoc->pm_held = false;
	pm_runtime_put_sync(rproc->dev.parent);
}

/* ---- boot, attach, stop, detach ----------------------------------------- */

/**
 * ampsoc_rproc_resource_cleanup() - release what a boot acquired (rproc_resource_cleanup)
 * @rproc: the processor, stopped
 *
 * Trace files, IOMMU mappings, carveouts (the driver's included: drivers
 * register theirs again in &rproc_ops.prepare), vdevs and coredump segments
 * go, as in mainline; ampsoc also forgets its allocations in declared
 * memory.
 *
 * Context: Process context, rproc->lock held.
 */
void ampsoc_rproc_resource_cleanup(struct rproc *rproc)
{
	struct rproc_mem_entry *entry, *tmp;
	struct ampsoc_rproc_trace *trace, *ttmp;
	struct rproc_vdev *rvdev, *rvtmp;
	size_t unmapped;

	list_for_each_entry_safe(trace, ttmp, &rproc->traces, node) {
		debugfs_remove(trace->tfile);
		rproc->num_traces--;
		list_del(&trace->node);
		kfree(trace);
	}
	list_for_each_entry_safe(entry, tmp, &rproc->mappings, node) {
		unmapped = iommu_unmap(rproc->domain, entry->da, entry->len);
		if (unmapped != entry->len)
			dev_err(&rproc->dev, "failed to unmap %zx/%zu\n",
				entry->len, unmapped);
		list_del(&entry->node);
		kfree(entry);
	}
	list_for_each_entry_safe(entry, tmp, &rproc->carveouts, node) {
		if (entry->release)
			entry->release(rproc, entry);
		list_del(&entry->node);
		kfree(entry);
	}
	list_for_each_entry_safe(rvdev, rvtmp, &rproc->rvdevs, node)
		ampsoc_rproc_remove_rvdev(rvdev);
	ampsoc_rproc_coredump_cleanup(rproc);
	ampsoc_rproc_pool_reset(rproc);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_resource_cleanup);

static void ampsoc_rproc_free_tables(struct rproc *rproc)
{
	kfree(rproc->clean_table);
	rproc->clean_table = NULL;
	kfree(rproc->cached_table);
	rproc->cached_table = NULL;
	rproc->table_ptr = NULL;
	rproc->table_sz = 0;
}

/*
 * Subdevices prepared, @op (start or attach), subdevices started: @state.
 * A failure unwinds, as mainline: subdevices that started are stopped as
 * crashed, the processor stopped, the subdevices unprepared.
 */
static int ampsoc_rproc_bring_up(struct rproc *rproc, int (*op)(struct rproc *rproc),
				 unsigned int state, const char *what)
{
	struct device *dev = &rproc->dev;
	int ret;

	ret = ampsoc_rproc_prepare_subdevices(rproc);
	if (ret) {
		dev_err(dev, "failed to prepare subdevices for %s: %d\n",
			rproc->name, ret);
		return ret;
	}
	ret = op ? op(rproc) : 0;
	if (ret) {
		dev_err(dev, "can't %s rproc %s: %d\n", what, rproc->name, ret);
		goto unprepare_subdevices;
	}
	ret = ampsoc_rproc_start_subdevices(rproc);
	if (ret) {
		dev_err(dev, "failed to probe subdevices for %s: %d\n",
			rproc->name, ret);
		goto stop_rproc;
	}
	rproc->state = state;
	dev_info(dev, "remote processor %s is now %s\n", rproc->name,
		 state == RPROC_RUNNING ? "up" : "attached");
	return 0;

stop_rproc:
	if (rproc->ops->stop)
		rproc->ops->stop(rproc);
unprepare_subdevices:
	ampsoc_rproc_unprepare_subdevices(rproc);
	return ret;
}

static int ampsoc_rproc_start(struct rproc *rproc, const struct firmware *fw)
{
	struct ampsoc_rproc_state *ampsoc = rproc->ampsoc;
	struct resource_table *loaded_table;
	ktime_t t0;
	int ret;

	ampsoc->load_bytes = 0;
	t0 = ktime_get();
	ret = rproc->ops->load ? rproc->ops->load(rproc, fw) : -EINVAL;
	ampsoc->load_ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	if (ret)
		return ampsoc_rproc_reject(rproc, ret, "its segments could not be loaded");

	loaded_table = rproc->ops->find_loaded_rsc_table ?
		       rproc->ops->find_loaded_rsc_table(rproc, fw) : NULL;
	if (loaded_table && rproc->cached_table) {
		memcpy(loaded_table, rproc->cached_table, rproc->table_sz);
		rproc->table_ptr = loaded_table;
	}
	ret = rproc->ops->start ?
	      ampsoc_rproc_bring_up(rproc, rproc->ops->start, RPROC_RUNNING, "start") :
	      -EINVAL;
	if (ret)
		rproc->table_ptr = rproc->cached_table;
	return ret;
}

/* Everything between handling the table and starting, for boot and attach. */
static int ampsoc_rproc_setup_resources(struct rproc *rproc, const struct firmware *fw)
{
	int ret;

	ret = ampsoc_rproc_check_table(rproc);
	if (ret)
		return ret;
	rproc->max_notifyid = -1;
	rproc->nb_vdev = 0;
	ret = ampsoc_rproc_handle_resources(rproc);
	if (ret)
		return ret;
	ret = ampsoc_rproc_pool_prepare(rproc, fw);
	if (ret)
		return ret;
	ret = ampsoc_rproc_alloc_registered_carveouts(rproc);
	if (ret)
		return ret;
	ret = ampsoc_rproc_check_traces(rproc);
	if (ret)
		return ret;
	return ampsoc_rproc_coredump_add_image(rproc, fw);
}

/* The IOMMU domain, then the platform's prepare. */
static int ampsoc_rproc_prepare_device(struct rproc *rproc)
{
	struct device *dev = &rproc->dev;
	int ret;

	ret = ampsoc_rproc_enable_iommu(rproc);
	if (ret) {
		dev_err(dev, "can't enable iommu: %d\n", ret);
		return ret;
	}
	ret = rproc->ops->prepare ? rproc->ops->prepare(rproc) : 0;
	if (ret) {
		dev_err(dev, "can't prepare rproc %s: %d\n", rproc->name, ret);
		ampsoc_rproc_disable_iommu(rproc);
	}
	return ret;
}

/* Everything a boot or an attach set up, released; the power kept. */
static void ampsoc_rproc_release(struct rproc *rproc)
{
	ampsoc_rproc_resource_cleanup(rproc);
	if (rproc->ops->unprepare)
		rproc->ops->unprepare(rproc);
	ampsoc_rproc_disable_iommu(rproc);
	ampsoc_rproc_free_tables(rproc);
}

static int ampsoc_rproc_fw_boot(struct rproc *rproc, const struct firmware *fw)
{
	int ret;

	if (rproc->ops->sanity_check) {
		ret = rproc->ops->sanity_check(rproc, fw);
		if (ret)
			return ampsoc_rproc_reject(rproc, ret, "its sanity check failed");
	}
	ret = ampsoc_rproc_prepare_device(rproc);
	if (ret)
		return ret;
	rproc->bootaddr = rproc->ops->get_boot_addr ?
			  rproc->ops->get_boot_addr(rproc, fw) : 0;
	ret = rproc->ops->parse_fw ? rproc->ops->parse_fw(rproc, fw) : 0;
	if (ret) {
		ampsoc_rproc_reject(rproc, ret, "its resource table could not be read");
		goto release;
	}
	ret = ampsoc_rproc_setup_resources(rproc, fw);
	if (ret) {
		ampsoc_rproc_reject(rproc, ret, "its resources could not be set up");
		goto release;
	}
	ret = ampsoc_rproc_start(rproc, fw);
	if (!ret)
		return 0;
release:
	ampsoc_rproc_release(rproc);
	return ret;
}

static int ampsoc_rproc_set_rsc_table(struct rproc *rproc)
{
	struct resource_table *table_ptr;
	size_t table_sz = 0;

	table_ptr = rproc->ops->get_loaded_rsc_table ?
		    rproc->ops->get_loaded_rsc_table(rproc, &table_sz) : NULL;
	if (!table_ptr)
		return 0;
	if (IS_ERR(table_ptr)) {
		dev_err(&rproc->dev, "can't load resource table: %ld\n",
			PTR_ERR(table_ptr));
		return PTR_ERR(table_ptr);
	}
	/* An untouched copy, to attach again after a detach. */
	if (rproc->ops->detach) {
		rproc->clean_table = kmemdup(table_ptr, table_sz, GFP_KERNEL);
		if (!rproc->clean_table)
			return -ENOMEM;
	} else {
		rproc->clean_table = NULL;
	}
	rproc->cached_table = NULL;
	rproc->table_ptr = table_ptr;
	rproc->table_sz = table_sz;
	return 0;
}

static int ampsoc_rproc_reset_rsc_table_on_detach(struct rproc *rproc)
{
	struct resource_table *table_ptr;

	if (!rproc->table_ptr)
		return 0;
	if (WARN_ON(!rproc->clean_table))
		return -EINVAL;
	table_ptr = rproc->table_ptr;
	/* The rest of the detach works on a copy of the live table... */
	rproc->cached_table = kmemdup(rproc->table_ptr, rproc->table_sz,
				      GFP_KERNEL);
	if (!rproc->cached_table)
		return -ENOMEM;
	rproc->table_ptr = rproc->cached_table;
	/* ...which is put back as it was, for the next attach. */
	memcpy(table_ptr, rproc->clean_table, rproc->table_sz);
	kfree(rproc->clean_table);
	rproc->clean_table = NULL;
	return 0;
}

static int ampsoc_rproc_reset_rsc_table_on_stop(struct rproc *rproc)
{
	if (!rproc->table_ptr)
		return 0;
	if (!rproc->cached_table) {
		/* Started by someone else: keep a copy of the live table. */
		rproc->cached_table = kmemdup(rproc->table_ptr,
					      rproc->table_sz, GFP_KERNEL);
		if (!rproc->cached_table)
			return -ENOMEM;
		kfree(rproc->clean_table);
		rproc->clean_table = NULL;
	}
	/* The loaded table may not be reachable once stopped. */
	rproc->table_ptr = rproc->cached_table;
	return 0;
}

static int ampsoc_rproc_attach(struct rproc *rproc)
{
	int ret;

	ret = ampsoc_rproc_prepare_device(rproc);
	if (ret)
		return ret;
	ret = ampsoc_rproc_set_rsc_table(rproc);
	if (ret) {
		dev_err(&rproc->dev, "can't load resource table: %d\n", ret);
		goto release;
	}
	ret = ampsoc_rproc_setup_resources(rproc, NULL);
	if (ret) {
		dev_err(&rproc->dev, "resource table of %s refused: %s (%d)\n",
			rproc->name, rproc->ampsoc->reason, ret);
		goto release;
	}
	ret = ampsoc_rproc_bring_up(rproc, rproc->ops->attach, RPROC_ATTACHED, "attach to");
	if (!ret)
		return 0;
release:
	ampsoc_rproc_release(rproc);
	return ret;
}

/*
 * Subdevices stopped, the table in effect kept aside (stop) or put back
 * as it was found (detach), the platform's stop or detach, subdevices
 * unprepared: offline or detached.
 */
static int ampsoc_rproc_take_down(struct rproc *rproc, bool detach, bool crashed)
{
	int (*op)(struct rproc *rproc) = detach ? rproc->ops->detach :
						  rproc->ops->stop;
	struct device *dev = &rproc->dev;
	int ret;

	if (!op)
		return -EINVAL;
	ampsoc_rproc_stop_subdevices(rproc, crashed);
	ret = detach ? ampsoc_rproc_reset_rsc_table_on_detach(rproc) :
		       ampsoc_rproc_reset_rsc_table_on_stop(rproc);
	if (ret) {
		dev_err(dev, "can't reset resource table: %d\n", ret);
		return ret;
	}
	ret = op(rproc);
	if (ret) {
		dev_err(dev, "can't %s rproc: %d\n", detach ? "detach from" : "stop",
			ret);
		return ret;
	}
	ampsoc_rproc_unprepare_subdevices(rproc);
	rproc->state = detach ? RPROC_DETACHED : RPROC_OFFLINE;
	dev_info(dev, "%s remote processor %s\n",
		 detach ? "detached" : "stopped", rproc->name);
	return 0;
}

static int ampsoc_rproc_stop(struct rproc *rproc, bool crashed)
{
	return ampsoc_rproc_take_down(rproc, false, crashed);
}

/* After the last user stopped or detached: release everything. */
static void ampsoc_rproc_release_all(struct rproc *rproc)
{
	ampsoc_rproc_release(rproc);
	ampsoc_rproc_pm_put(rproc);
}

/*
 * ampsoc: after a failed recovery, or a stop that failed during removal,
 * the processor is powered off whatever happened and loses its users
 * (mainline leaves it with its references and resources, where neither
 * "start" nor "stop" works any more). A processor left detached by a
 * failed attach-on-recovery stays detached: it runs on its own.
 */
static void ampsoc_rproc_force_off(struct rproc *rproc)
{
	if (rproc->ampsoc->subdevs_up)
		ampsoc_rproc_stop_subdevices(rproc, true);
	if (rproc->state != RPROC_OFFLINE && rproc->state != RPROC_DETACHED) {
		if (rproc->ops->stop)
			rproc->ops->stop(rproc);
		ampsoc_rproc_unprepare_subdevices(rproc);
		rproc->state = RPROC_OFFLINE;
	}
	atomic_set(&rproc->power, 0);
	ampsoc_rproc_release_all(rproc);
}

/*
 * Mainline detaches and attaches again keeping the resources, whose
 * addresses and notify ids the detach just erased from the live table, and
 * without a clean copy of it, so that the next detach WARNs. ampsoc
 * releases them and attaches from scratch, as a first attach.
 */
static int ampsoc_rproc_attach_recovery(struct rproc *rproc)
{
	int ret = ampsoc_rproc_take_down(rproc, true, false);

	if (ret)
		return ret;
	ampsoc_rproc_release(rproc);
	return ampsoc_rproc_attach(rproc);
}

static int ampsoc_rproc_boot_recovery(struct rproc *rproc)
{
	const struct firmware *fw;
	int ret;

	ret = ampsoc_rproc_stop(rproc, true);
	if (ret)
		return ret;
	/* ampsoc took the coredump when the crash was handled. */
	ret = request_firmware(&fw, rproc->firmware, &rproc->dev);
	if (ret < 0) {
		dev_err(&rproc->dev, "request_firmware failed: %d\n", ret);
		return ret;
	}
	rproc->ampsoc->reason[0] = '\0';
	/*
	 * Mainline keeps the boot address, which a processor it attached to
	 * never had: ampsoc takes the image's, the same for one it booted.
	 */
	if (rproc->ops->get_boot_addr)
		rproc->bootaddr = rproc->ops->get_boot_addr(rproc, fw);
	ret = ampsoc_rproc_start(rproc, fw);
	release_firmware(fw);
	return ret;
}

static int ampsoc_rproc_recover_locked(struct rproc *rproc)
{
	int ret;

	lockdep_assert_held(&rproc->lock);
	if (rproc->deleting)
		return -ENODEV;
	/* The state may have changed before the lock was ours. */
	if (rproc->state != RPROC_CRASHED)
		return 0;
	dev_err(&rproc->dev, "recovering %s\n", rproc->name);
	if (rproc_has_feature(rproc, RPROC_FEAT_ATTACH_ON_RECOVERY))
		ret = ampsoc_rproc_attach_recovery(rproc);
	else
		ret = ampsoc_rproc_boot_recovery(rproc);
	if (ret) {
		dev_err(&rproc->dev, "recovery of %s failed: %d\n",
			rproc->name, ret);
		ampsoc_rproc_force_off(rproc);
	}
	return ret;
}

/**
 * ampsoc_rproc_trigger_recovery() - recover a crashed processor now
 * @rproc: the processor
 *
 * Mainline's rproc_trigger_recovery() (not exported there): stops the
 * processor and its subdevices (virtio devices go away), loads the firmware
 * again and starts it, keeping its resources; with
 * RPROC_FEAT_ATTACH_ON_RECOVERY it detaches and attaches instead. A
 * processor that is not crashed is left alone. If the recovery fails the
 * processor is powered off and its users' references are dropped (ampsoc).
 *
 * Context: Process context; sleeps.
 * Return: 0 (also when not crashed), -ENODEV while being removed, -EINTR,
 * or the errno of the failed recovery.
 */
int ampsoc_rproc_trigger_recovery(struct rproc *rproc)
{
	int ret;

	ret = mutex_lock_interruptible(&rproc->lock);
	if (ret)
		return ret;
	ret = ampsoc_rproc_recover_locked(rproc);
	mutex_unlock(&rproc->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_trigger_recovery);

static void ampsoc_rproc_crash_handler_work(struct work_struct *work)
{
	struct rproc *rproc = container_of(work, struct rproc, crash_handler);
	struct device *dev = &rproc->dev;

	mutex_lock(&rproc->lock);
	if (READ_ONCE(rproc->deleting) || rproc->state == RPROC_CRASHED ||
	    rproc->state == RPROC_OFFLINE) {
		/* Only the first crash counts; a stopped one is not recovered. */
		mutex_unlock(&rproc->lock);
		goto out;
	}
	rproc->state = RPROC_CRASHED;
	dev_err(dev, "handling crash #%u in %s\n", ++rproc->crash_cnt,
		rproc->name);
	/* ampsoc: the dump is of the memory as the crash left it. */
	rproc->ops->coredump(rproc);
	if (!rproc->recovery_disabled)
		ampsoc_rproc_recover_locked(rproc);
	mutex_unlock(&rproc->lock);
out:
	pm_relax(rproc->dev.parent);
}

/**
 * ampsoc_rproc_report_crash() - report a crash (rproc_report_crash)
 * @rproc: the processor
 * @type: what happened
 *
 * The crash is handled on a workqueue: the state becomes "crashed", the
 * crash counter increments, a coredump is taken as configured and, unless
 * recovery is disabled, the processor is recovered. A report while the
 * processor is offline or already crashed changes nothing.
 *
 * Context: Any context, including hard interrupts.
 */
void ampsoc_rproc_report_crash(struct rproc *rproc, enum rproc_crash_type type)
{
	unsigned long flags;

	if (!rproc) {
		pr_err("NULL rproc pointer\n");
		return;
	}
	spin_lock_irqsave(&rproc->crash_handler_lock, flags);
	if (READ_ONCE(rproc->deleting)) {
		spin_unlock_irqrestore(&rproc->crash_handler_lock, flags);
		return;
	}
	/* No system suspend while the crash is handled. */
	pm_stay_awake(rproc->dev.parent);
	if (!queue_work(ampsoc_rproc_recovery_wq, &rproc->crash_handler))
		pm_relax(rproc->dev.parent);
	spin_unlock_irqrestore(&rproc->crash_handler_lock, flags);
	dev_err(&rproc->dev, "crash detected in %s: type %s\n", rproc->name,
		(unsigned int)type < ARRAY_SIZE(ampsoc_rproc_crash_names) ?
		ampsoc_rproc_crash_names[type] : "unknown");
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_report_crash);

/**
 * ampsoc_rproc_boot() - boot or attach, or take one more reference (rproc_boot)
 * @rproc: the processor
 *
 * The first user takes a runtime-PM reference on the platform device
 * (ampsoc), then attaches to a processor in the detached state or loads the
 * firmware and boots; later users only count. A user of a running,
 * attached or crashed processor is counted and succeeds.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL for a NULL processor, -ENODEV once it is being
 * removed, -EINTR, or the errno of the failed step (the processor is then
 * left as it was).
 */
int ampsoc_rproc_boot(struct rproc *rproc)
{
	struct ampsoc_rproc_state *ampsoc;
	const struct firmware *fw;
	struct device *dev;
	ktime_t t0;
	int ret;

	if (!rproc) {
		pr_err("invalid rproc handle\n");
		return -EINVAL;
	}
	dev = &rproc->dev;
	ampsoc = rproc->ampsoc;
	ret = mutex_lock_interruptible(&rproc->lock);
	if (ret) {
		dev_err(dev, "can't lock rproc %s: %d\n", rproc->name, ret);
		return ret;
	}
	if (READ_ONCE(rproc->deleting)) {
		ret = -ENODEV;
		dev_err(dev, "can't boot deleting rproc %s\n", rproc->name);
		goto unlock_mutex;
	}
	if (atomic_inc_return(&rproc->power) > 1)
		goto unlock_mutex;

	ret = ampsoc_rproc_pm_get(rproc);
	if (ret)
		goto downref_rproc;
	ampsoc->reason[0] = '\0';
	if (rproc->state == RPROC_DETACHED) {
		dev_info(dev, "attaching to %s\n", rproc->name);
		ret = ampsoc_rproc_attach(rproc);
	} else {
		dev_info(dev, "powering up %s\n", rproc->name);
		t0 = ktime_get();
		/* ampsoc: segments straight from the file when it can. */
		ampsoc->load_direct = !ampsoc_rproc_direct_open(rproc, &fw);
		ret = ampsoc->load_direct ? 0 :
		      request_firmware(&fw, rproc->firmware, dev);
		if (ret < 0) {
			dev_err(dev, "request_firmware failed: %d\n", ret);
		} else {
			ampsoc->load_request_ns =
				ktime_to_ns(ktime_sub(ktime_get(), t0));
			ampsoc->load_fw_bytes = fw->size;
			ret = ampsoc_rproc_fw_boot(rproc, fw);
			if (ampsoc->load_direct)
				ampsoc_rproc_direct_close(rproc);
			else
				release_firmware(fw);
		}
	}
	if (ret)
		ampsoc_rproc_pm_put(rproc);
downref_rproc:
	if (ret)
		atomic_dec(&rproc->power);
unlock_mutex:
	mutex_unlock(&rproc->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_boot);

/*
 * One user less of a running, attached or crashed processor (@detach: of
 * an attached one); the last one stops or detaches it and releases
 * everything. A failing stop or detach keeps the reference, as mainline.
 */
static int ampsoc_rproc_drop_user(struct rproc *rproc, bool detach)
{
	bool crashed;
	int ret;

	ret = mutex_lock_interruptible(&rproc->lock);
	if (ret) {
		dev_err(&rproc->dev, "can't lock rproc %s: %d\n", rproc->name,
			ret);
		return ret;
	}
	if (detach ? rproc->state != RPROC_ATTACHED :
		     rproc->state != RPROC_RUNNING &&
		     rproc->state != RPROC_ATTACHED &&
		     rproc->state != RPROC_CRASHED) {
		ret = -EINVAL;
		goto out;
	}
	crashed = rproc->state == RPROC_CRASHED;
	if (!atomic_dec_and_test(&rproc->power))
		goto out;
	ret = ampsoc_rproc_take_down(rproc, detach, crashed);
	if (ret) {
		atomic_inc(&rproc->power);
		goto out;
	}
	ampsoc_rproc_release_all(rproc);
out:
	mutex_unlock(&rproc->lock);
	return ret;
}

/**
 * ampsoc_rproc_shutdown() - drop a reference taken by boot (rproc_shutdown)
 * @rproc: the processor
 *
 * The last reference stops the subdevices and the processor (running,
 * attached or crashed), releases its resources, unprepares it and drops the
 * runtime-PM reference. If &rproc_ops.stop fails, the reference is kept and
 * its errno returned, as mainline.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL unless running, attached or crashed, -EINTR, or the
 * errno of the stop.
 */
int ampsoc_rproc_shutdown(struct rproc *rproc)
{
	return ampsoc_rproc_drop_user(rproc, false);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_shutdown);

/**
 * ampsoc_rproc_detach() - let an attached processor go (rproc_detach)
 * @rproc: the processor
 *
 * Drops a reference; the last one stops the subdevices, puts the resource
 * table back as it was found, calls &rproc_ops.detach and releases the
 * resources: the processor keeps running, in the detached state.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL unless attached or without a detach operation,
 * -EINTR, or the errno of the detach.
 */
int ampsoc_rproc_detach(struct rproc *rproc)
{
	return ampsoc_rproc_drop_user(rproc, true);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_detach);

/**
 * ampsoc_rproc_get_by_phandle() - a processor by device tree phandle
 * @phandle: the phandle
 *
 * As rproc_get_by_phandle(): on success the processor's device and its
 * driver's module are pinned; release them with rproc_put().
 *
 * Context: Process context.
 * Return: the processor, or NULL (always without CONFIG_OF, as mainline).
 */
struct rproc *ampsoc_rproc_get_by_phandle(phandle phandle)
{
#ifdef CONFIG_OF
	struct rproc *rproc = NULL, *r;
	struct device_node *np;

	np = of_find_node_by_phandle(phandle);
	if (!np)
		return NULL;
	rcu_read_lock();
	list_for_each_entry_rcu(r, &ampsoc_rproc_list, node) {
		if (r->dev.parent && r->dev.parent->of_node == np) {
			if (!try_module_get(r->dev.parent->driver->owner))
				break;
			rproc = r;
			get_device(&rproc->dev);
			break;
		}
	}
	rcu_read_unlock();
	of_node_put(np);
	return rproc;
#else
	return NULL;
#endif
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_get_by_phandle);

static bool ampsoc_rproc_name_ok(const char *name, size_t len)
{
	size_t i;

	if (!len || len > NAME_MAX || name[0] == '/')
		return false;
	for (i = 0; i < len; i++)
		if (name[i] <= ' ' || name[i] > '~')
			return false;
	/* No ".." path component. */
	for (i = 0; i + 1 < len; i++)
		if (name[i] == '.' && name[i + 1] == '.' &&
		    (i == 0 || name[i - 1] == '/') &&
		    (i + 2 == len || name[i + 2] == '/'))
			return false;
	return true;
}

/**
 * ampsoc_rproc_set_firmware() - choose the firmware file (rproc_set_firmware)
 * @rproc: the processor
 * @fw_name: a file name relative to /lib/firmware; one trailing newline is
 *	ignored
 *
 * As mainline, only while the processor is offline. ampsoc also refuses
 * names mainline would pass to the firmware loader: absolute ones, a ".."
 * component, spaces, control characters, anything after the newline, more
 * than NAME_MAX bytes.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EBUSY unless offline, -EINVAL for a bad name (or a signal
 * while waiting for the lock, as mainline), -ENOMEM.
 */
int ampsoc_rproc_set_firmware(struct rproc *rproc, const char *fw_name)
{
	size_t len;
	char *p;
	int ret = 0;

	if (!rproc || !fw_name)
		return -EINVAL;
	if (mutex_lock_interruptible(&rproc->lock))
		return -EINVAL;
	if (rproc->state != RPROC_OFFLINE) {
		dev_err(rproc->dev.parent, "can't change firmware while running\n");
		ret = -EBUSY;
		goto out;
	}
	len = strcspn(fw_name, "\n");
	if (!ampsoc_rproc_name_ok(fw_name, len) ||
	    fw_name[len + (fw_name[len] == '\n')]) {
		dev_err(rproc->dev.parent, "invalid firmware name\n");
		ret = -EINVAL;
		goto out;
	}
	p = kstrndup(fw_name, len, GFP_KERNEL);
	if (!p) {
		ret = -ENOMEM;
		goto out;
	}
	kfree_const(rproc->firmware);
	rproc->firmware = p;
out:
	mutex_unlock(&rproc->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_set_firmware);

/* ---- registration ------------------------------------------------------- */

static void ampsoc_rproc_auto_boot_callback(const struct firmware *fw, void *context)
{
	struct rproc *rproc = context;

	ampsoc_rproc_boot(rproc);
	release_firmware(fw);
}

static void ampsoc_rproc_attach_work(struct work_struct *work)
{
	struct rproc *rproc = container_of(work, struct rproc, attach_work);

	ampsoc_rproc_boot(rproc);
}

static int ampsoc_rproc_trigger_auto_boot(struct rproc *rproc)
{
	int ret;

	if (rproc->state == RPROC_DETACHED) {
		schedule_work(&rproc->attach_work);
		return 0;
	}
	/* Asynchronous: registration does not wait for the firmware. */
	ret = request_firmware_nowait(THIS_MODULE, FW_ACTION_UEVENT,
				      rproc->firmware, &rproc->dev, GFP_KERNEL,
				      rproc, ampsoc_rproc_auto_boot_callback);
	if (ret < 0)
		dev_err(&rproc->dev, "request_firmware_nowait err: %d\n", ret);
	return ret;
}

static int ampsoc_rproc_validate(struct rproc *rproc)
{
	switch (rproc->state) {
	case RPROC_OFFLINE:
		return rproc->ops->start ? 0 : -EINVAL;
	case RPROC_DETACHED:
		return rproc->ops->attach && !rproc->cached_table ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/**
 * ampsoc_rproc_add() - register a processor (rproc_add)
 * @rproc: a processor from ampsoc_rproc_alloc(), in the offline state (with
 *	a start operation) or the detached state (with an attach operation)
 *
 * Creates /sys/class/remoteproc/remoteprocN, /dev/remoteprocN and the
 * debugfs directory. With &rproc.auto_boot (the default) the processor then
 * boots in the background once its firmware is found, or attaches if
 * detached.
 *
 * Context: Process context.
 * Return: 0, -EINVAL for a processor that cannot be booted or attached,
 * or the errno of the device registration.
 */
int ampsoc_rproc_add(struct rproc *rproc)
{
	struct device *dev = &rproc->dev;
	int ret;

	ret = ampsoc_rproc_validate(rproc);
	if (ret < 0)
		return ret;
	ret = ampsoc_rproc_cdev_add(rproc);
	if (ret) {
		dev_err(dev->parent, "can't register %s: %d\n", dev_name(dev),
			ret);
		return ret;
	}
	rproc->ampsoc->registered = true;
	dev_info(dev, "%s is available\n", rproc->name);
	ampsoc_rproc_create_debug_dir(rproc);
	if (rproc->auto_boot) {
		ret = ampsoc_rproc_trigger_auto_boot(rproc);
		if (ret < 0) {
			ampsoc_rproc_delete_debug_dir(rproc);
			ampsoc_rproc_cdev_del(rproc);
			rproc->ampsoc->registered = false;
			return ret;
		}
	}
	mutex_lock(&ampsoc_rproc_list_mutex);
	list_add_rcu(&rproc->node, &ampsoc_rproc_list);
	mutex_unlock(&ampsoc_rproc_list_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_add);

static void ampsoc_rproc_devm_del(void *rproc)
{
	ampsoc_rproc_del(rproc);
}

/**
 * ampsoc_rproc_devm_add() - ampsoc_rproc_add() undone on unbind (devm_rproc_add)
 * @dev: the platform device
 * @rproc: the processor
 *
 * Context: Process context.
 * Return: 0 or the errno of the registration.
 */
int ampsoc_rproc_devm_add(struct device *dev, struct rproc *rproc)
{
	int ret = ampsoc_rproc_add(rproc);

	if (ret)
		return ret;
	return devm_add_action_or_reset(dev, ampsoc_rproc_devm_del, rproc);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_devm_add);

static void ampsoc_rproc_type_release(struct device *dev)
{
	struct rproc *rproc = container_of(dev, struct rproc, dev);
	struct ampsoc_rproc_state *ampsoc = rproc->ampsoc;
	struct ampsoc_rproc_mem *m, *mn;

	idr_destroy(&rproc->notifyids);
	if (rproc->index >= 0)
		ida_free(&ampsoc_rproc_ida, rproc->index);
	if (ampsoc) {
		list_for_each_entry_safe(m, mn, &ampsoc->pool, node) {
			list_del(&m->node);
			kfree(m);
		}
		cleanup_srcu_struct(&ampsoc->vq_srcu);
		kfree(ampsoc);
	}
	kfree_const(rproc->firmware);
	kfree_const(rproc->name);
	kfree(rproc->ops);
	kfree(rproc);
}

const struct device_type ampsoc_rproc_type = {
	.name = "remoteproc",
	.release = ampsoc_rproc_type_release,
};

static int ampsoc_rproc_alloc_ops(struct rproc *rproc, const struct rproc_ops *ops)
{
	rproc->ops = kmemdup(ops, sizeof(*ops), GFP_KERNEL);
	if (!rproc->ops)
		return -ENOMEM;
	if (!rproc->ops->coredump)
		rproc->ops->coredump = ampsoc_rproc_coredump;
	if (rproc->ops->load)
		return 0;
	/* Without a loader of its own, the ELF helpers for everything. */
	rproc->ops->load = ampsoc_rproc_elf_load_segments;
	rproc->ops->parse_fw = ampsoc_rproc_elf_load_rsc_table;
	rproc->ops->find_loaded_rsc_table = ampsoc_rproc_elf_find_loaded_rsc_table;
	rproc->ops->sanity_check = ampsoc_rproc_elf_sanity_check;
	rproc->ops->get_boot_addr = ampsoc_rproc_elf_get_boot_addr;
	return 0;
}

static void ampsoc_rproc_crash_handler_init(struct rproc *rproc)
{
	INIT_WORK(&rproc->attach_work, ampsoc_rproc_attach_work);
	INIT_WORK(&rproc->crash_handler, ampsoc_rproc_crash_handler_work);
	spin_lock_init(&rproc->crash_handler_lock);
}

/**
 * ampsoc_rproc_alloc() - allocate a processor (rproc_alloc)
 * @dev: the platform device
 * @name: a human-readable name
 * @ops: platform operations (copied)
 * @firmware: default firmware name, or NULL for "rproc-<name>-fw"
 * @len: bytes of private data, reachable through &rproc.priv
 *
 * The processor is offline, with auto_boot set, recovery enabled and
 * coredumps disabled, as mainline.
 *
 * Context: Process context.
 * Return: the processor, to register with ampsoc_rproc_add() and release
 * with ampsoc_rproc_free(), or NULL.
 */
struct rproc *ampsoc_rproc_alloc(struct device *dev, const char *name,
				 const struct rproc_ops *ops,
				 const char *firmware, int len)
{
	struct rproc *rproc;

	if (!dev || !name || !ops || len < 0)
		return NULL;
	rproc = kzalloc(sizeof(*rproc) + len, GFP_KERNEL);
	if (!rproc)
		return NULL;
	rproc->priv = &rproc[1];
	rproc->auto_boot = true;
	rproc->elf_class = ELFCLASSNONE;
	rproc->elf_machine = EM_NONE;
	rproc->index = -1;

	device_initialize(&rproc->dev);
	rproc->dev.parent = dev;
	rproc->dev.type = &ampsoc_rproc_type;
	rproc->dev.class = &ampsoc_rproc_class;
	rproc->dev.driver_data = rproc;
	idr_init(&rproc->notifyids);

	rproc->ampsoc = kzalloc(sizeof(*rproc->ampsoc), GFP_KERNEL);
	if (!rproc->ampsoc)
		goto put_device;
	rproc->ampsoc->rproc = rproc;
	INIT_LIST_HEAD(&rproc->ampsoc->pool);
	INIT_LIST_HEAD(&rproc->ampsoc->allocs);
	mutex_init(&rproc->ampsoc->pool_lock);
	spin_lock_init(&rproc->ampsoc->note_lock);
	if (init_srcu_struct(&rproc->ampsoc->vq_srcu)) {
		kfree(rproc->ampsoc);
		rproc->ampsoc = NULL;
		goto put_device;
	}

	rproc->index = ida_alloc_max(&ampsoc_rproc_ida, AMPSOC_RPROC_MAX_DEVICES - 1,
				     GFP_KERNEL);
	if (rproc->index < 0) {
		dev_err(dev, "ida_alloc failed: %d\n", rproc->index);
		goto put_device;
	}
	rproc->name = kstrdup_const(name, GFP_KERNEL);
	if (!rproc->name)
		goto put_device;
	rproc->firmware = firmware ? kstrdup_const(firmware, GFP_KERNEL) :
				     kasprintf(GFP_KERNEL, "rproc-%s-fw", name);
	if (!rproc->firmware || ampsoc_rproc_alloc_ops(rproc, ops))
		goto put_device;
	if (dev_set_name(&rproc->dev, "remoteproc%d", rproc->index))
		goto put_device;

	atomic_set(&rproc->power, 0);
	mutex_init(&rproc->lock);
	INIT_LIST_HEAD(&rproc->carveouts);
	INIT_LIST_HEAD(&rproc->mappings);
	INIT_LIST_HEAD(&rproc->traces);
	INIT_LIST_HEAD(&rproc->rvdevs);
	INIT_LIST_HEAD(&rproc->subdevs);
	INIT_LIST_HEAD(&rproc->dump_segments);
	INIT_LIST_HEAD(&rproc->node);
	ampsoc_rproc_crash_handler_init(rproc);
	rproc->state = RPROC_OFFLINE;
	ampsoc_rproc_cdev_prepare(rproc);
	return rproc;

put_device:
	put_device(&rproc->dev);
	return NULL;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_alloc);

/**
 * ampsoc_rproc_free() - release a processor (rproc_free)
 * @rproc: the processor, never registered or already deleted
 *
 * Context: Process context.
 */
void ampsoc_rproc_free(struct rproc *rproc)
{
	put_device(&rproc->dev);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_free);

/**
 * ampsoc_rproc_put() - release a reference from get_by_phandle (rproc_put)
 * @rproc: the processor
 *
 * Unpins the platform driver's module and the processor's device.
 *
 * Context: Process context.
 */
void ampsoc_rproc_put(struct rproc *rproc)
{
	struct device_driver *drv = rproc->dev.parent->driver;

	if (drv)
		module_put(drv->owner);
	put_device(&rproc->dev);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_put);

/**
 * ampsoc_rproc_del() - unregister a processor (rproc_del)
 * @rproc: a processor registered with ampsoc_rproc_add()
 *
 * Later boots fail with -ENODEV. Unlike mainline, which drops one
 * reference only, the processor is stopped whatever its number of users
 * and even if its stop operation fails: nothing keeps running on resources
 * whose driver is leaving. A detached processor is left running, as
 * mainline. Free it with ampsoc_rproc_free() afterwards.
 *
 * Context: Process context; sleeps.
 * Return: 0, or -EINVAL for a NULL processor.
 */
int ampsoc_rproc_del(struct rproc *rproc)
{
	unsigned long flags;

	if (!rproc)
		return -EINVAL;
	if (!rproc->ampsoc->registered)
		return 0;
	spin_lock_irqsave(&rproc->crash_handler_lock, flags);
	WRITE_ONCE(rproc->deleting, true);
	spin_unlock_irqrestore(&rproc->crash_handler_lock, flags);
	if (cancel_work_sync(&rproc->crash_handler))
		pm_relax(rproc->dev.parent);
	cancel_work_sync(&rproc->attach_work);

	mutex_lock(&rproc->lock);
	if (rproc->state == RPROC_RUNNING || rproc->state == RPROC_ATTACHED ||
	    rproc->state == RPROC_CRASHED) {
		bool crashed = rproc->state == RPROC_CRASHED;

		if (ampsoc_rproc_stop(rproc, crashed))
			ampsoc_rproc_force_off(rproc);
		else
			ampsoc_rproc_release_all(rproc);
		atomic_set(&rproc->power, 0);
	}
	mutex_unlock(&rproc->lock);

	ampsoc_rproc_delete_debug_dir(rproc);
	mutex_lock(&ampsoc_rproc_list_mutex);
	list_del_rcu(&rproc->node);
	mutex_unlock(&ampsoc_rproc_list_mutex);
	synchronize_rcu();
	ampsoc_rproc_cdev_del(rproc);
	rproc->ampsoc->registered = false;
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_del);

static void ampsoc_rproc_devm_free(struct device *dev, void *res)
{
	ampsoc_rproc_free(*(struct rproc **)res);
}

/**
 * ampsoc_rproc_devm_alloc() - ampsoc_rproc_alloc() freed on unbind (devm_rproc_alloc)
 * @dev: the platform device
 * @name: a human-readable name
 * @ops: platform operations
 * @firmware: default firmware name, or NULL
 * @len: bytes of private data
 *
 * Context: Process context.
 * Return: the processor, or NULL.
 */
struct rproc *ampsoc_rproc_devm_alloc(struct device *dev, const char *name,
				      const struct rproc_ops *ops,
				      const char *firmware, int len)
{
	struct rproc **ptr, *rproc;

	ptr = devres_alloc(ampsoc_rproc_devm_free, sizeof(*ptr), GFP_KERNEL);
	if (!ptr)
		return NULL;
	rproc = ampsoc_rproc_alloc(dev, name, ops, firmware, len);
	if (rproc) {
		*ptr = rproc;
		devres_add(dev, ptr);
	} else {
		devres_free(ptr);
	}
	return rproc;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_devm_alloc);

/**
 * ampsoc_rproc_get_by_child() - the processor above a device (rproc_get_by_child)
 * @dev: a device below a processor (e.g. its virtio device)
 *
 * Takes no reference, as mainline.
 *
 * Context: Any context.
 * Return: the processor, or NULL.
 */
struct rproc *ampsoc_rproc_get_by_child(struct device *dev)
{
	for (dev = dev->parent; dev; dev = dev->parent)
		if (dev->type == &ampsoc_rproc_type)
			return dev->driver_data;
	return NULL;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_get_by_child);

/* ---- panic -------------------------------------------------------------- */

static int ampsoc_rproc_panic_handler(struct notifier_block *nb, unsigned long event,
				      void *ptr)
{
	unsigned int longest = 0, d;
	struct rproc *rproc;

	rcu_read_lock();
	list_for_each_entry_rcu(rproc, &ampsoc_rproc_list, node) {
		if (!rproc->ops->panic)
			continue;
		if (rproc->state != RPROC_RUNNING &&
		    rproc->state != RPROC_ATTACHED)
			continue;
		d = rproc->ops->panic(rproc);
		longest = max(longest, d);
	}
	rcu_read_unlock();
	/* Give the remotes the longest time one asked for. */
	mdelay(longest);
	return NOTIFY_DONE;
}

struct notifier_block ampsoc_rproc_panic_nb = {
	.notifier_call = ampsoc_rproc_panic_handler,
};
EXPORT_SYMBOL_GPL(ampsoc_rproc_panic_nb);

static int __init ampsoc_rproc_init(void)
{
	int ret;

	ampsoc_rproc_recovery_wq = alloc_workqueue("ampsoc_rproc",
						   WQ_UNBOUND | WQ_FREEZABLE, 0);
	if (!ampsoc_rproc_recovery_wq)
		return -ENOMEM;
	ret = class_register(&ampsoc_rproc_class);
	if (ret)
		goto err_wq;
	ret = ampsoc_rproc_cdev_init();
	if (ret)
		goto err_class;
	ampsoc_rproc_debugfs_init();
	atomic_notifier_chain_register(&panic_notifier_list,
				       &ampsoc_rproc_panic_nb);
	return 0;

err_class:
	class_unregister(&ampsoc_rproc_class);
err_wq:
	destroy_workqueue(ampsoc_rproc_recovery_wq);
	return ret;
}
module_init(ampsoc_rproc_init);

static void __exit ampsoc_rproc_exit(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list,
					 &ampsoc_rproc_panic_nb);
	ampsoc_rproc_virtio_exit();
	ampsoc_rproc_debugfs_exit();
	ampsoc_rproc_cdev_exit();
	class_unregister(&ampsoc_rproc_class);
	destroy_workqueue(ampsoc_rproc_recovery_wq);
	ida_destroy(&ampsoc_rproc_ida);
}
module_exit(ampsoc_rproc_exit);

MODULE_DESCRIPTION("ampsoc remote processor framework");
MODULE_LICENSE("GPL");
