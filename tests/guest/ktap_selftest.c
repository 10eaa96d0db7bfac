// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side self-test of the userspace KTAP helper and the guest image:
 * it runs as a static binary with nothing but the busybox root around it.
 */
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ktap_user.h"

int main(void)
{
	struct utsname u;
	struct stat st;

	ktap_plan(3);
	ktap_ok(uname(&u) == 0 && !strcmp(u.sysname, "Linux"), "uname_linux");
	ktap_ok(getpid() > 1, "not_pid1");
	ktap_ok(stat("/ampsoc/lib.sh", &st) == 0, "lib_present");
	return ktap_exit();
}
