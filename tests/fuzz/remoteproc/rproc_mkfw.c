// SPDX-License-Identifier: GPL-2.0
/*
 * rproc_mkfw OUTDIR: write the test firmware images of rproc_fwgen.h into
 * OUTDIR (installed in the guest's /lib/firmware).
 */
#include <stdio.h>
#include <stdlib.h>

#include "rproc_fwgen.h"

int main(int argc, char **argv)
{
	static uint8_t buf[FWGEN_MAX];
	char path[4096];
	int c;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	for (c = 0; c < FWGEN_NUM_CASES; c++) {
		size_t n = fwgen_build(c, buf);
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", argv[1],
			 fwgen_cases[c].name);
		f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, n, f) != n || fclose(f)) {
			perror(path);
			return 1;
		}
	}
	return 0;
}
