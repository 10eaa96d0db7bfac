// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only firmware for firmware_core: exercises each boot-ROM call
 * through the SDK and reports on the console, where the test checks the
 * results against what it did from outside (doorbells, timing).
 */
#include <amp/amp.h>

struct probe_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[1];
	struct amp_rsc_trace trace0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct probe_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct probe_rsc),
	.offset = {
		offsetof(struct probe_rsc, trace0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
};

#define MS	1000000ull

int main(void)
{
	static const char raw[] = "a\001b\tc\177\n";
	char longline[300];
	uint64_t t0, t1, dt;
	uint64_t ddr_da = 0, ddr_len = 0;
	int ret, i;

	ret = platform_ddr(&ddr_da, &ddr_len);
	printf("probe: ddr %d %llx %llx\n", ret, (unsigned long long)ddr_da,
	       (unsigned long long)ddr_len);
	printf("probe: wait0 %d\n", platform_wait_irq(0));
	t0 = platform_time_ns();
	ret = platform_wait_irq(20 * MS);
	dt = platform_time_ns() - t0;
	printf("probe: timeout %d %s\n", ret, dt >= 20 * MS ? "late-enough" : "early");

	printf("probe: ready\n");
	printf("probe: woke %d\n", platform_wait_irq(AMP_FOREVER));
	printf("probe: bad vector %d\n", platform_notify(99));
	printf("probe: ring %d\n", platform_notify(3));

	platform_console(raw, sizeof(raw) - 1);
	memset(longline, 'x', sizeof(longline));
	platform_console(longline, sizeof(longline));

	/* 500 ms of work under a 1 s watchdog, petted every 50 ms. */
	ret = platform_watchdog(1000 * MS);
	for (i = 0; i < 10; i++) {
		platform_wait_irq(50 * MS);
		ret |= platform_watchdog(1000 * MS);
	}
	ret |= platform_watchdog(0);
	printf("probe: watchdog survived %d\n", ret);

	t0 = platform_time_ns();
	t1 = platform_time_ns();
	printf("probe: monotonic %s\n", t1 >= t0 ? "yes" : "no");
	return 9;
}
