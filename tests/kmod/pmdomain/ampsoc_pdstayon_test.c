// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP tests of the stay-on-until-sync hold of the ampsoc PM domain core
 * (issue 21, "What vendors need next", item 4; docs/pmdomain.md, "Stay on
 * until sync"): a domain registered on with AMPSOC_PD_FLAG_STAY_ON stays
 * on, whatever its devices and power_off_unused say, until its provider
 * calls ampsoc_pd_sync_state() or the core's stay_on_timeout_ms passes;
 * then it goes off if nothing needs it.
 *
 * The module sets ampsoc_pd's stay_on_timeout_ms itself (through its
 * sysfs file): 0 while a case waits for sync, a short one for the timeout
 * case, and puts the old value back at the end.
 */
#include <ampsoc/ktap.h>
#include <ampsoc/pd_fixture.h>
#include <ampsoc/pm_domain.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/suspend.h>

#include "domain_internal.h"

#define DRV_NAME	"ampsoc-pdstayon"
/* Bound on every wait for something the core does in the background. */
#define WAIT_MS		10000
#define TIMEOUT_PARAM	"/sys/module/ampsoc_pd/parameters/stay_on_timeout_ms"
#define DBG		"/sys/kernel/debug/ampsoc_pd/"

static bool sleep;
module_param(sleep, bool, 0444);
MODULE_PARM_DESC(sleep, "also run pm_suspend() (set /sys/power/pm_test to platform first)");

/* ---- fake domains that record their calls ---- */

struct spd {
	struct ampsoc_pd pd;
	unsigned int off_calls;
	unsigned int releases;
	bool released_by_timeout;
	int release_ret;		/* stay_on_release() result */
	struct completion off_done;
	struct completion released;
};

static int spd_power_on(struct ampsoc_pd *pd)
{
	return 0;
}

static int spd_power_off(struct ampsoc_pd *pd)
{
	struct spd *d = container_of(pd, struct spd, pd);

	d->off_calls++;
	complete(&d->off_done);
	return 0;
}

static int spd_release(struct ampsoc_pd *pd, bool timeout)
{
	struct spd *d = container_of(pd, struct spd, pd);

	if (d->release_ret)
		return d->release_ret;
	d->releases++;
	d->released_by_timeout = timeout;
	complete(&d->released);
	return 0;
}

static struct spd *spd_new(const char *name, unsigned int flags, bool is_off)
{
	struct spd *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->pd.name = name;
	d->pd.flags = flags;
	d->pd.power_on = spd_power_on;
	d->pd.power_off = spd_power_off;
	d->pd.stay_on_release = spd_release;
	init_completion(&d->off_done);
	init_completion(&d->released);
	if (ampsoc_pd_init(&d->pd, NULL, is_off)) {
		kfree(d);
		return NULL;
	}
	return d;
}

static int spd_del(struct spd *d)
{
	int ret;

	if (!d)
		return 0;
	flush_work(&d->pd.power_off_work);
	ret = ampsoc_pd_remove(&d->pd);
	if (!ret)
		kfree(d);
	return ret;
}

/* Let the queued power-off work of @d (and of its parent @p) run. */
static void settle(struct spd *d, struct spd *p)
{
	unsigned int round;

	for (round = 0; round < 4; round++) {
		flush_work(&d->pd.power_off_work);
		if (p)
			flush_work(&p->pd.power_off_work);
	}
}

/* ---- the module parameter ---- */

static int timeout_set(unsigned int ms)
{
	struct file *f = filp_open(TIMEOUT_PARAM, O_WRONLY, 0);
	char buf[16];
	loff_t pos = 0;
	ssize_t n;
	int len;

	if (IS_ERR(f))
		return PTR_ERR(f);
	len = snprintf(buf, sizeof(buf), "%u\n", ms);
	n = kernel_write(f, buf, len, &pos);
	filp_close(f, NULL);
	return n == len ? 0 : -EIO;
}

static unsigned int timeout_saved;
static bool timeout_got;

/* ---- a driver with runtime PM, so that the device really suspends ---- */

static int sdrv_probe(struct platform_device *pdev)
{
	pm_runtime_enable(&pdev->dev);
	return 0;
}

static int sdrv_remove(struct platform_device *pdev)
{
	pm_runtime_disable(&pdev->dev);
	return 0;
}

static struct platform_driver sdrv = {
	.driver = { .name = DRV_NAME },
	.probe = sdrv_probe,
	.remove = sdrv_remove,
};

static int sdev_id;

/* Does the file at @path contain @what? */
static bool file_has(const char *path, const char *what)
{
	char *buf = kmalloc(4096, GFP_KERNEL);
	bool found;

	if (!buf)
		return false;
	found = ampsoc_pdfx_read_path(path, buf, 4096) > 0 && strstr(buf, what);
	kfree(buf);
	return found;
}

/* ---- cases ---- */

/*
 * A held domain whose only device is runtime-suspended stays on, also
 * across ampsoc_pd_power_off_unused(); debugfs shows the hold. Sync
 * releases it once (the provider's callback, not by timeout) and the
 * domain goes off; a second sync does nothing.
 */
static void held_until_sync(struct ampsoc_ktap_test *t)
{
	struct spd *d = spd_new("pdst_held", AMPSOC_PD_FLAG_STAY_ON, false);
	struct platform_device *p = NULL;

	if (!KTAP_EXPECT(t, d))
		return;
	p = ampsoc_pdfx_dev_new(&d->pd, DRV_NAME, sdev_id++, true);
	if (!KTAP_EXPECT(t, p))
		goto out;
	KTAP_EXPECT(t, pm_runtime_suspended(&p->dev));
	ampsoc_pd_power_off_unused();
	settle(d, NULL);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&d->pd));
	KTAP_EXPECT_EQ(t, d->off_calls, 0);
	KTAP_EXPECT_EQ(t, d->releases, 0);
	KTAP_EXPECT(t, file_has(DBG "pdst_held/stay_on", "held"));
	KTAP_EXPECT(t, file_has(DBG "pm_genpd_summary", "on (stay-on)"));

	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(&d->pd), 0);
	KTAP_EXPECT_EQ(t, d->releases, 1);
	KTAP_EXPECT(t, !d->released_by_timeout);
	KTAP_EXPECT(t, wait_for_completion_timeout(&d->off_done,
						   msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&d->pd));
	KTAP_EXPECT(t, file_has(DBG "pdst_held/stay_on", "released-sync"));
	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(&d->pd), 0);
	KTAP_EXPECT_EQ(t, d->releases, 1);

	/* After the hold, runtime PM powers it on and off as any domain. */
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&d->pd));
	reinit_completion(&d->off_done);
	pm_runtime_put_sync(&p->dev);
	settle(d, NULL);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&d->pd));
out:
	ampsoc_pdfx_dev_del(p);
	KTAP_EXPECT_EQ(t, spd_del(d), 0);
}

/*
 * A held subdomain keeps its parent on (it is on, so it counts in the
 * parent); after sync both go off, child first.
 */
static void parent_stays_on(struct ampsoc_ktap_test *t)
{
	struct spd *par = spd_new("pdst_parent", 0, false);
	struct spd *d = spd_new("pdst_child", AMPSOC_PD_FLAG_STAY_ON, false);

	if (!KTAP_EXPECT(t, par && d))
		goto out;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&par->pd, &d->pd), 0))
		goto out;
	ampsoc_pd_power_off_unused();
	settle(d, par);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&d->pd));
	KTAP_EXPECT(t, ampsoc_pd_is_on(&par->pd));
	KTAP_EXPECT_EQ(t, par->off_calls + d->off_calls, 0);

	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(&d->pd), 0);
	KTAP_EXPECT(t, wait_for_completion_timeout(&d->off_done,
						   msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT(t, wait_for_completion_timeout(&par->off_done,
						   msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&d->pd));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&par->pd));
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&par->pd, &d->pd), 0);
out:
	KTAP_EXPECT_EQ(t, spd_del(d), 0);
	KTAP_EXPECT_EQ(t, spd_del(par), 0);
}

/*
 * No sync: the timeout releases the hold (the provider hears it is the
 * timeout, the log names the domain: checked by the scenario) and the
 * idle domain goes off.
 */
static void released_by_timeout(struct ampsoc_ktap_test *t)
{
	struct spd *d;

	if (!KTAP_EXPECT_EQ(t, timeout_set(300), 0))
		return;
	d = spd_new("pdst_timeout", AMPSOC_PD_FLAG_STAY_ON, false);
	timeout_set(0);
	if (!KTAP_EXPECT(t, d))
		return;
	ampsoc_pd_power_off_unused();
	settle(d, NULL);
	KTAP_EXPECT(t, wait_for_completion_timeout(&d->released,
						   msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT(t, d->released_by_timeout);
	KTAP_EXPECT(t, wait_for_completion_timeout(&d->off_done,
						   msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&d->pd));
	KTAP_EXPECT(t, file_has(DBG "pdst_timeout/stay_on", "released-timeout"));
	/* A late sync finds nothing to release. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(&d->pd), 0);
	KTAP_EXPECT_EQ(t, d->releases, 1);
	KTAP_EXPECT_EQ(t, spd_del(d), 0);
}

/*
 * The provider refusing the release keeps the domain held and on; the
 * next sync that it accepts releases it.
 */
static void refused_release_keeps_hold(struct ampsoc_ktap_test *t)
{
	struct spd *d = spd_new("pdst_refused", AMPSOC_PD_FLAG_STAY_ON, false);

	if (!KTAP_EXPECT(t, d))
		return;
	d->release_ret = -EIO;
	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(&d->pd), -EIO);
	settle(d, NULL);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&d->pd));
	KTAP_EXPECT(t, file_has(DBG "pdst_refused/stay_on", "held"));
	d->release_ret = 0;
	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(&d->pd), 0);
	KTAP_EXPECT(t, wait_for_completion_timeout(&d->off_done,
						   msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT_EQ(t, spd_del(d), 0);
}

/*
 * System sleep leaves a held domain on (docs/pmdomain.md: the noirq
 * power-off skips it) although its only device is suspended; an
 * ordinary domain beside it, kept on by a runtime-active device, goes
 * off in the noirq phase and comes back on at resume.
 */
static void system_sleep_keeps_hold(struct ampsoc_ktap_test *t)
{
	struct spd *d, *plain;
	struct platform_device *p = NULL, *q = NULL;
	int ret;

	if (!sleep) {
		KTAP_SKIP(t, "sleep=1 not given");
		return;
	}
	d = spd_new("pdst_sleep", AMPSOC_PD_FLAG_STAY_ON, false);
	plain = spd_new("pdst_sleep_plain", 0, false);
	if (!KTAP_EXPECT(t, d && plain))
		goto out;
	p = ampsoc_pdfx_dev_new(&d->pd, DRV_NAME, sdev_id++, true);
	q = ampsoc_pdfx_dev_new(&plain->pd, DRV_NAME, sdev_id++, true);
	if (!KTAP_EXPECT(t, p && q) ||
	    !KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&q->dev), 0))
		goto out;
	settle(d, plain);
	d->off_calls = 0;
	plain->off_calls = 0;
	ret = pm_suspend(PM_SUSPEND_MEM);
	if (ret == -EINVAL)	/* no S3: suspend-to-idle */
		ret = pm_suspend(PM_SUSPEND_TO_IDLE);
	KTAP_EXPECT_EQ(t, ret, 0);
	KTAP_EXPECT_EQ(t, plain->off_calls, 1);
	KTAP_EXPECT_EQ(t, d->off_calls, 0);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&d->pd));
	KTAP_EXPECT(t, file_has(DBG "pdst_sleep/stay_on", "held"));
	pm_runtime_put_sync(&q->dev);
	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(&d->pd), 0);
	KTAP_EXPECT(t, wait_for_completion_timeout(&d->off_done,
						   msecs_to_jiffies(WAIT_MS)));
out:
	ampsoc_pdfx_dev_del(p);
	ampsoc_pdfx_dev_del(q);
	KTAP_EXPECT_EQ(t, spd_del(d), 0);
	KTAP_EXPECT_EQ(t, spd_del(plain), 0);
}

/* The documented errors; a domain without the flag has no hold. */
static void api_errors(struct ampsoc_ktap_test *t)
{
	struct spd *d;
	struct ampsoc_pd off = {
		.name = "pdst_off", .flags = AMPSOC_PD_FLAG_STAY_ON,
	};

	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(&off), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&off, NULL, true), -EINVAL);

	d = spd_new("pdst_plain", 0, false);
	if (!KTAP_EXPECT(t, d))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pd_sync_state(&d->pd), 0);
	KTAP_EXPECT_EQ(t, d->releases, 0);
	ampsoc_pd_power_off_unused();
	KTAP_EXPECT(t, wait_for_completion_timeout(&d->off_done,
						   msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT_EQ(t, spd_del(d), 0);
}

static const struct ampsoc_ktap_case stayon_cases[] = {
	AMPSOC_KTAP_CASE(held_until_sync),
	AMPSOC_KTAP_CASE(parent_stays_on),
	AMPSOC_KTAP_CASE(released_by_timeout),
	AMPSOC_KTAP_CASE(refused_release_keeps_hold),
	AMPSOC_KTAP_CASE(system_sleep_keeps_hold),
	AMPSOC_KTAP_CASE(api_errors),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(pd_stay_on, stayon_cases),
};

static int __init pdstayon_init(void)
{
	char buf[16];
	int ret;

	if (ampsoc_pdfx_read_path(TIMEOUT_PARAM, buf, sizeof(buf)) > 0 &&
	    !kstrtouint(strim(buf), 10, &timeout_saved))
		timeout_got = true;
	/* No timeout while the sync cases wait. */
	timeout_set(0);
	ret = platform_driver_register(&sdrv);
	if (ret)
		return ret;
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	if (timeout_got)
		timeout_set(timeout_saved);
	return 0;
}
module_init(pdstayon_init);

static void __exit pdstayon_exit(void)
{
	platform_driver_unregister(&sdrv);
	ampsoc_ktap_done();
}
module_exit(pdstayon_exit);

MODULE_DESCRIPTION("ampsoc PM domain stay-on-until-sync tests (issue 21)");
MODULE_LICENSE("GPL");
