// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-hello: says hello in its trace buffer and on the console, then
 * idles waiting for Linux's doorbell. Every doorbell is answered by ringing
 * the core's first doorbell vector back, so the pair makes a round trip;
 * the first ones are logged.
 */
#include <amp/amp.h>

struct hello_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[1];
	struct amp_rsc_trace trace0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct hello_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct hello_rsc),
	.offset = {
		offsetof(struct hello_rsc, trace0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
};

#define HELLO_LOGGED_KICKS	16

int main(void)
{
	uint64_t kicks = 0;
	unsigned int i;

	printf("ampsoc-hello: hello from core %s (%s map)\n",
	       platform_core_name(), AMP_CORE_NAME);
	for (i = 0; i < platform_nr_vectors(); i++)
		printf("ampsoc-hello: doorbell vector %u\n", platform_vector(i));
	printf("ampsoc-hello: waiting for interrupts\n");

	for (;;) {
		int n = platform_wait_irq(AMP_FOREVER);

		if (n < 0) {
			amp_log("ampsoc-hello: wait failed: %d", n);
			return 1;
		}
		if (platform_nr_vectors())
			platform_notify(platform_vector(0));
		kicks += n;
		if (kicks <= HELLO_LOGGED_KICKS)
			amp_log("ampsoc-hello: interrupt, %llu so far",
				(unsigned long long)kicks);
	}
}
