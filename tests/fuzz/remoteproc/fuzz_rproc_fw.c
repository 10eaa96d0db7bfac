// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the remoteproc firmware parser (the same
 * remoteproc_fw.c the kernel builds). The first input byte picks a mode:
 *   0: the rest is an ELF image, parsed and, if it has one, its resource
 *      table checked;
 *   1: the rest is a resource table;
 *   2: the rest is a list of (offset, byte) patches applied to the correct
 *      test image, which reaches deep states without a corpus.
 * After a successful check every entry is walked the way the loader walks
 * it, so ASan catches any access the parser failed to bound.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "remoteproc_fw_shim.h"
#include "remoteproc_fw.h"
#include "rproc_fwgen.h"

/* Reads land here so that the compiler cannot drop them. */
uint32_t rproc_fuzz_sink;
#define sink rproc_fuzz_sink

static void walk_rsc(const uint8_t *t, size_t size)
{
	const struct ampsoc_rsc_table *h = (const void *)t;
	uint32_t i;

	for (i = 0; i < h->num; i++) {
		const struct ampsoc_rsc_hdr *rh = (const void *)(t + h->offset[i]);
		size_t min = ampsoc_fw_rsc_min_size(rh->type);
		const uint8_t *p = rh->data;
		size_t k;

		for (k = 0; k < min; k++)
			sink += p[k];
		if (rh->type == AMPSOC_RSC_VDEV) {
			const struct ampsoc_rsc_vdev *v = (const void *)p;
			const uint8_t *cfg = (const uint8_t *)&v->vring[v->num_of_vrings];

			for (k = 0; k < v->num_of_vrings; k++)
				sink += v->vring[k].num;
			for (k = 0; k < v->config_len; k++)
				sink += cfg[k];
		}
	}
}

static void run_image(const uint8_t *img, size_t n)
{
	struct ampsoc_fw_info info;
	char err[AMPSOC_FW_ERR_LEN];
	uint8_t *copy;
	unsigned int i;

	if (ampsoc_fw_parse_elf(img, n, NULL, &info, err, sizeof(err)))
		return;
	for (i = 0; i < info.num_segs; i++)
		if (info.segs[i].filesz)
			sink += img[info.segs[i].offset + info.segs[i].filesz - 1];
	if (!info.has_rsc)
		return;
	/* The kernel works on an exact-size copy: so does ASan here. */
	copy = malloc(info.rsc_size ? info.rsc_size : 1);
	memcpy(copy, img + info.rsc_offset, info.rsc_size);
	if (!ampsoc_fw_check_rsc(copy, info.rsc_size, err, sizeof(err)))
		walk_rsc(copy, info.rsc_size);
	free(copy);
}

/*
 * libFuzzer's entry point: build.mk links it under libFuzzer's own name
 * (--defsym), which checkpatch would reject as CamelCase here.
 */
int rproc_fuzz_one_input(const uint8_t *data, size_t size)
{
	static uint8_t good[FWGEN_MAX];
	static size_t good_len;
	char err[AMPSOC_FW_ERR_LEN];
	uint8_t *buf;
	size_t i, n;

	if (!size)
		return 0;
	/* Exact-size heap copies, so that ASan sees every overread. */
	switch (data[0] % 3) {
	case 0:
		n = size - 1;
		buf = malloc(n ? n : 1);
		memcpy(buf, data + 1, n);
		run_image(buf, n);
		break;
	case 1:
		n = size - 1;
		buf = malloc(n ? n : 1);
		memcpy(buf, data + 1, n);
		if (!ampsoc_fw_check_rsc(buf, n, err, sizeof(err)))
			walk_rsc(buf, n);
		break;
	default:
		if (!good_len)
			good_len = fwgen_build(FWGEN_GOOD64, good);
		buf = malloc(good_len);
		memcpy(buf, good, good_len);
		for (i = 1; i + 2 < size; i += 3) {
			size_t off = (data[i] | data[i + 1] << 8) % good_len;

			buf[off] = data[i + 2];
		}
		run_image(buf, good_len);
		break;
	}
	free(buf);
	return 0;
}
