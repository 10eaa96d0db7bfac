// SPDX-License-Identifier: GPL-2.0
/*
 * A module that WARNs when loaded with warn=1. Only the harness self-test
 * loads it, to prove that a guest whose kernel WARNs fails the run even
 * though every test point it printed passed.
 */
#include <linux/bug.h>
#include <linux/module.h>

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN at load time");

static int __init warn_test_init(void)
{
	WARN(warn, "ampsoc harness self-test: deliberate warning\n");
	return 0;
}
module_init(warn_test_init);

static void __exit warn_test_exit(void)
{
}
module_exit(warn_test_exit);

MODULE_DESCRIPTION("ampsoc harness self-test: a module that WARNs");
MODULE_LICENSE("GPL");
