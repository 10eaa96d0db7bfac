// SPDX-License-Identifier: GPL-2.0
/*
 * A deliberately broken driver, for the negative test: it takes a
 * peripheral away from its real driver, waits until the peripheral's
 * domain is off (in the kernel and in the model), then touches the device
 * anyway, without runtime PM. The model must refuse the command and record
 * exactly one violation: rule DOMAIN_OFF, this peripheral. The real driver
 * is bound again at the end. Its own KTAP says whether the model caught it;
 * the scenario declares the violation to the model service.
 */
#include <linux/io.h>
#include <ampsoc/ktap.h>

#include "vsoc_test_common.h"

#define PREG(field)	offsetof(struct vsoc_periph_regs, field)

static struct vsoc *soc;
static int victim = -1;

/* A bound peripheral whose domain holds no remote core and is not always-on. */
static struct device *pick_victim(void)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i, c;

	for (i = 0; i < b->nr_periphs; i++) {
		struct device *dev = vt_periph_dev(soc, i);
		u32 dom = b->periphs[i].domain;
		bool core = false;

		for (c = 0; c < b->nr_cores; c++)
			core |= b->cores[c].domain == dom;
		if (dev && dev->driver && !core &&
		    !(b->domains[dom].flags & VSOC_DOMAIN_ALWAYS_ON)) {
			victim = i;
			return dev;
		}
	}
	return NULL;
}

static void touch_with_domain_off(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b;
	struct vsoc_telemetry *t0, *t1;
	struct device *dev;
	void __iomem *regs;
	u32 seq, n;
	s32 res;

	if (!KTAP_EXPECT(t, soc))
		return;
	b = vsoc_board(soc);
	dev = pick_victim();
	if (!KTAP_EXPECT(t, dev))
		return;
	regs = vsoc_shm(soc, &b->periphs[victim].regs);
	if (!KTAP_EXPECT(t, regs))
		return;

	device_release_driver(dev);
	KTAP_EXPECT(t, vt_wait(!ampsoc_pd_is_on(ampsoc_pd_of_dev(dev)), VT_WAIT_MS));
	KTAP_EXPECT(t, vt_wait(vt_model_domain_state(soc, b->periphs[victim].domain) ==
			       VSOC_PWR_OFF, VT_WAIT_MS));
	t0 = vt_telemetry(soc);

	/* The bug: a command with the domain off. */
	seq = readl(regs + PREG(cmd_seq)) + 1;
	writel(VSOC_CMD_NOP, regs + PREG(cmd));
	wmb(); /* the command before its sequence number */
	writel(seq, regs + PREG(cmd_seq));
	wmb(); /* the sequence number before the doorbell */
	vsoc_kick(soc, b->model_peer, VSOC_VEC_PERIPH);
	KTAP_EXPECT(t, vt_wait(readl(regs + PREG(cmd_ack)) == seq, VT_WAIT_MS));
	res = (s32)readl(regs + PREG(cmd_result));
	KTAP_EXPECT_EQ(t, res, -EPERM);

	t1 = NULL;
	KTAP_EXPECT(t, t0 && vt_tel_until(soc, t1, le32_to_cpu(t1->violations) >
					  le32_to_cpu(t0->violations)));
	if (KTAP_EXPECT(t, t0 && t1)) {
		n = le32_to_cpu(t1->violations);
		KTAP_EXPECT_EQ(t, n, le32_to_cpu(t0->violations) + 1);
		if (n) {
			const struct vsoc_telem_violation *v =
				&t1->last[(n - 1) % VSOC_TELEM_VIOLATIONS];

			KTAP_EXPECT_EQ(t, le32_to_cpu(v->rule), VSOC_RULE_DOMAIN_OFF);
			KTAP_EXPECT_EQ(t, le32_to_cpu(v->obj_kind), VSOC_OBJ_PERIPH);
			KTAP_EXPECT_EQ(t, le32_to_cpu(v->obj_index), victim);
		}
	}
	kfree(t0);
	kfree(t1);

	/* Give the device back to its real driver. */
	KTAP_EXPECT(t, device_attach(dev) == 1);
}

static const struct ampsoc_ktap_case broken_cases[] = {
	AMPSOC_KTAP_CASE(touch_with_domain_off),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(vsoc_broken_driver, broken_cases),
};

static int __init vsoc_broken_init(void)
{
	soc = vt_find_soc();
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(vsoc_broken_init);

static void __exit vsoc_broken_exit(void)
{
	ampsoc_ktap_done();
}
module_exit(vsoc_broken_exit);

MODULE_DESCRIPTION("ampsoc vsoc negative test: touches a device whose domain is off");
MODULE_LICENSE("GPL");
