// SPDX-License-Identifier: GPL-2.0
/*
 * A consumer the vsoc power controller does not know about: a device of
 * this module, put in a vsoc domain (module parameter domain=) and kept
 * runtime-active while the module is loaded, as another driver's device
 * would be. The vsoc_power_unbind scenario unbinds the power controller
 * under it: the domain must stay registered (and its memory alive) until
 * this device has left it, which happens when this module is removed.
 *
 * Its KTAP (at load): the device joined the domain, the domain is on in
 * the kernel and in the model.
 */
#include <linux/platform_device.h>
#include <ampsoc/ktap.h>

#include "vsoc_test_common.h"

static char *domain = "l4per";
module_param(domain, charp, 0444);
MODULE_PARM_DESC(domain, "the vsoc domain to hold");

static struct vsoc *soc;
static struct platform_device *holder;
static bool joined;

static void holder_joins_domain(struct ampsoc_ktap_test *t)
{
	struct vsoc_telemetry *tel = NULL;
	struct ampsoc_pd *pd = ampsoc_pd_find(domain);
	int idx, ret;

	if (!KTAP_EXPECT(t, soc && pd))
		return;
	idx = vt_domain(soc, domain);
	if (!KTAP_EXPECT(t, idx >= 0))
		return;
	holder = platform_device_register_simple("vsoc-test-holder",
						 PLATFORM_DEVID_NONE, NULL, 0);
	if (!KTAP_EXPECT(t, !IS_ERR(holder))) {
		holder = NULL;
		return;
	}
	pm_runtime_enable(&holder->dev);
	ret = ampsoc_pd_add_device(pd, &holder->dev);
	if (!KTAP_EXPECT_EQ(t, ret, 0))
		return;
	joined = true;
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&holder->dev), 0);
	KTAP_EXPECT(t, ampsoc_pd_is_on(pd));
	KTAP_EXPECT(t, vt_tel_until(soc, tel,
				    le32_to_cpu(tel->domains[idx].state) ==
				    VSOC_PWR_ON));
	kfree(tel);
}

static const struct ampsoc_ktap_case holder_cases[] = {
	AMPSOC_KTAP_CASE(holder_joins_domain),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(vsoc_holder, holder_cases),
};

static int __init vsoc_holder_init(void)
{
	soc = vt_find_soc();
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(vsoc_holder_init);

/* Leave the domain: whoever registered it may unregister it now. */
static void __exit vsoc_holder_exit(void)
{
	if (holder) {
		if (joined) {
			pm_runtime_put_sync(&holder->dev);
			ampsoc_pd_remove_device(&holder->dev);
		}
		pm_runtime_disable(&holder->dev);
		platform_device_unregister(holder);
	}
	ampsoc_ktap_done();
}
module_exit(vsoc_holder_exit);

MODULE_DESCRIPTION("ampsoc vsoc test: a device held in a vsoc domain by another module");
MODULE_LICENSE("GPL");
