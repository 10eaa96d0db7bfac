// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test of the KTAP helper itself: expectations that must hold, and
 * (with fail=1) a deliberately failing case that the harness self-test uses
 * to prove a failing in-kernel test point fails the run.
 */
#include <ampsoc/ktap.h>

static bool fail;
module_param(fail, bool, 0444);
MODULE_PARM_DESC(fail, "add a deliberately failing test case");

static void ktap_expect_records(struct ampsoc_ktap_test *t)
{
	struct ampsoc_ktap_test inner = { .name = "inner" };

	KTAP_EXPECT(t, !inner.failed);
	KTAP_EXPECT_EQ(&inner, 1, 2);
	KTAP_EXPECT(t, inner.failed);
}

static void ktap_skip_records(struct ampsoc_ktap_test *t)
{
	struct ampsoc_ktap_test inner = { .name = "inner" };

	KTAP_SKIP(&inner, "reason %d", 7);
	KTAP_EXPECT(t, inner.skipped);
	KTAP_EXPECT(t, !strcmp(inner.reason, "reason 7"));
}

static void ktap_log_kept(struct ampsoc_ktap_test *t)
{
	if (!KTAP_EXPECT(t, ampsoc_ktap_log.buf))
		return;
	KTAP_EXPECT(t, strstr(ampsoc_ktap_log.buf, "KTAP version 1"));
	KTAP_EXPECT(t, strstr(ampsoc_ktap_log.buf, "# Subtest: ktap"));
}

static void deliberate_failure(struct ampsoc_ktap_test *t)
{
	if (fail)
		KTAP_EXPECT_EQ(t, 1 + 1, 3);
	else
		KTAP_SKIP(t, "fail=0");
}

static const struct ampsoc_ktap_case ktap_cases[] = {
	AMPSOC_KTAP_CASE(ktap_expect_records),
	AMPSOC_KTAP_CASE(ktap_skip_records),
	AMPSOC_KTAP_CASE(ktap_log_kept),
	AMPSOC_KTAP_CASE(deliberate_failure),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(ktap, ktap_cases),
};

static int __init harness_test_init(void)
{
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(harness_test_init);

static void __exit harness_test_exit(void)
{
	ampsoc_ktap_done();
}
module_exit(harness_test_exit);

MODULE_DESCRIPTION("ampsoc KTAP harness self-test");
MODULE_LICENSE("GPL");
