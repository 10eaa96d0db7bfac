// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the remoteproc firmware parser (remoteproc_fw.c, the
 * very file the kernel module builds): the correct images parse with the
 * expected segments and resource table, every malformed image of stage
 * PARSE is rejected with its errno and one message, every image of stage
 * CORE passes the parser (the kernel rejects it against the memory map),
 * and truncating the correct image at any length never crashes the parser.
 * The parse of a file read in windows, as the kernel's direct load does
 * it, serves exactly the images the whole-file parse accepts, with the
 * same description and the file's size.
 */
#include <string.h>

#include "ktap_user.h"
#include "remoteproc_fw_shim.h"
#include "remoteproc_fw.h"
#include "rproc_fwgen.h"

static int parse_all(const uint8_t *buf, size_t n, struct ampsoc_fw_info *info,
		     char *err)
{
	int ret = ampsoc_fw_parse_elf(buf, n, NULL, info, err,
				      AMPSOC_FW_ERR_LEN);

	if (ret || !info->has_rsc)
		return ret;
	return ampsoc_fw_check_rsc(buf + info->rsc_offset, info->rsc_size, err,
				   AMPSOC_FW_ERR_LEN);
}

/*
 * The kernel's direct load (remoteproc_elf_loader.c) on the n-byte file
 * buf: a first read of head bytes (65536 in the kernel; smaller here to
 * need more windows), then windows of at least 4096 bytes where the parser
 * asks, and the resource table; a read that comes back short tells the
 * file's size, else one more read just before the parse's extent must.
 * The file must then be as long as the extent. 0 if it serves the file.
 */
static int read_win(struct ampsoc_fw_win *win, unsigned int *nwin,
		    const uint8_t *buf, size_t n, uint64_t off, uint64_t need,
		    uint64_t len, uint64_t *size)
{
	uint64_t avail = off < n ? n - off : 0;

	if (len < need)
		len = need;
	if (*nwin == 6 || !need || len > 256 * 1024)
		return -E2BIG;
	if (avail > len)
		avail = len;
	if (avail < need)
		return -ENODATA;
	if (avail < len)
		*size = off + avail;
	win[*nwin].off = off;
	win[*nwin].len = avail;
	win[(*nwin)++].data = buf + off;
	return 0;
}

static int parse_windows(const uint8_t *buf, size_t n, uint64_t head,
			 const struct ampsoc_fw_expect *expect,
			 struct ampsoc_fw_info *info)
{
	struct ampsoc_fw_win win[6], need;
	char err[AMPSOC_FW_ERR_LEN];
	uint64_t extent = 0, size = 0, tail;
	unsigned int nwin = 0, i;
	int ret;

	ret = read_win(win, &nwin, buf, n, 0, 1, head, &size);
	while (!ret) {
		ret = ampsoc_fw_parse_elf_win(win, nwin, expect, info, &need,
					      &extent, err, sizeof(err));
		if (ret != -EAGAIN)
			break;
		ret = read_win(win, &nwin, buf, n, need.off, need.len, 4096,
			       &size);
	}
	if (ret)
		return ret;
	if (info->has_rsc) {
		for (i = 0; i < nwin; i++)
			if (info->rsc_offset >= win[i].off &&
			    info->rsc_offset + info->rsc_size <=
			    win[i].off + win[i].len)
				break;
		if (i == nwin) {
			ret = read_win(win, &nwin, buf, n, info->rsc_offset,
				       info->rsc_size, 0, &size);
			if (ret)
				return ret;
		}
		if (info->rsc_offset + info->rsc_size > extent)
			return -EFAULT;	/* the parse checked the table's range */
	}
	for (i = 0; i < nwin; i++)
		if (win[i].off + win[i].len > extent)
			extent = win[i].off + win[i].len;
	if (!size) {
		tail = extent - 1 < n ? n - (extent - 1) : 0;
		if (tail && tail < 4096)
			size = extent - 1 + tail;
	}
	if (!size || size < extent)
		return -ENODATA;
	return size == n ? 0 : -EFAULT;
}

/* Whole-file and window parse agree on buf: 1 if they do. */
static int windows_agree(const uint8_t *buf, size_t n,
			 const struct ampsoc_fw_expect *expect)
{
	struct ampsoc_fw_info whole, win;
	char err[AMPSOC_FW_ERR_LEN];
	int w, d;

	w = ampsoc_fw_parse_elf(buf, n, expect, &whole, err, sizeof(err));
	static const uint64_t heads[] = { 65536, 4096, 64, 16, 1, 0 };
	unsigned int i;

	for (i = 0; heads[i]; i++) {
		d = parse_windows(buf, n, heads[i], expect, &win);
		if (!d && (w || memcmp(&whole, &win, sizeof(whole))))
			return 0;
		/* Refused: as the whole parse, or too many windows. */
		if (d && !w && d != -E2BIG)
			return 0;
	}
	return 1;
}

int main(void)
{
	static uint8_t buf[FWGEN_MAX];
	struct ampsoc_fw_info info;
	struct ampsoc_fw_expect want64 = { ELFCLASS64, EM_X86_64 };
	char err[AMPSOC_FW_ERR_LEN];
	unsigned int c, nbad = 0;
	size_t n, cut;
	int ret;

	ktap_plan(0);

	n = fwgen_build(FWGEN_GOOD64, buf);
	ret = parse_all(buf, n, &info, err);
	ktap_ok(!ret && info.num_segs == 2 && info.has_rsc &&
		info.entry == FWGEN_TEXT_DA && info.rsc_da == FWGEN_DATA_DA &&
		info.segs[0].da == FWGEN_TEXT_DA && info.segs[0].memsz == 0x1000,
		"good_elf64_parses");
	if (ret)
		ktap_diag("%d: %s", ret, err);
	ktap_ok(!ampsoc_fw_parse_elf(buf, n, &want64, &info, err, sizeof(err)),
		"good_elf64_matches_x86_64");

	n = fwgen_build(FWGEN_GOOD32, buf);
	ret = parse_all(buf, n, &info, err);
	ktap_ok(!ret && info.elf_class == ELFCLASS32 && info.num_segs == 2 &&
		info.has_rsc, "good_elf32_parses");
	ret = ampsoc_fw_parse_elf(buf, n, &want64, &info, err, sizeof(err));
	ktap_ok(ret == -ENOEXEC && strstr(err, "class"),
		"elf32_rejected_when_elf64_required");

	for (c = FWGEN_GOOD32 + 1; c < FWGEN_NUM_CASES; c++) {
		const struct fwgen_desc *d = &fwgen_cases[c];

		n = fwgen_build(c, buf);
		ret = parse_all(buf, n, &info, err);
		if (d->parse_stage) {
			nbad++;
			if (!ktap_ok(ret == -d->err && err[0] && !strchr(err, '\n'),
				     "rejects_%s", d->name))
				ktap_diag("got %d (%s), want %d", ret, err,
					  -d->err);
		} else {
			if (!ktap_ok(ret == 0, "parser_leaves_%s_to_the_kernel",
				     d->name))
				ktap_diag("got %d (%s)", ret, err);
		}
	}
	ktap_ok(nbad >= 20, "at_least_20_parser_cases (%u)", nbad);

	/* Window parse: every case, and every prefix of the good images. */
	ret = 0;
	for (c = 0; c < FWGEN_NUM_CASES; c++) {
		n = fwgen_build(c, buf);
		if (!windows_agree(buf, n, NULL) ||
		    !windows_agree(buf, n, &want64)) {
			ktap_diag("window parse differs on %s", fwgen_cases[c].name);
			ret = 1;
		}
	}
	ktap_ok(!ret, "window_parse_agrees_on_every_case");
	n = fwgen_build(FWGEN_GOOD64, buf);
	ktap_ok(!parse_windows(buf, n, 4096, NULL, &info), "window_parse_serves_good_elf64");
	n = fwgen_build(FWGEN_GOOD32, buf);
	ktap_ok(!parse_windows(buf, n, 64, NULL, &info), "window_parse_serves_good_elf32");
	ret = 0;
	for (c = FWGEN_GOOD64; c <= FWGEN_GOOD32; c++) {
		n = fwgen_build(c, buf);
		for (cut = 0; cut < n; cut++)
			if (!windows_agree(buf, cut, NULL))
				ret = 1;
	}
	ktap_ok(!ret, "window_parse_agrees_on_every_truncation");

	/* Every prefix of the correct image is handled without a crash. */
	n = fwgen_build(FWGEN_GOOD64, buf);
	ret = 0;
	for (cut = 0; cut < n; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);

		memcpy(copy, buf, cut);
		if (!parse_all(copy, cut, &info, err) &&
		    info.rsc_offset + info.rsc_size > cut)
			ret = 1;
		free(copy);
	}
	ktap_ok(!ret, "every_truncation_is_safe");

	/* A table entry written back by the loader cannot alias another. */
	{
		struct {
			struct ampsoc_rsc_table h;
			uint32_t off[1];
			uint32_t type;
			struct ampsoc_rsc_carveout c;
		} __packed t = { { 1, 1, { 0, 0 } }, { 20 }, 0,
				 { 0, 0, 16, 0, 0, "x" } };

		ret = ampsoc_fw_check_rsc(&t, sizeof(t), err, sizeof(err));
		ktap_ok(!ret, "minimal_table_ok");
		ret = ampsoc_fw_check_rsc(&t, sizeof(t) - 1, err, sizeof(err));
		ktap_ok(ret == -EINVAL, "minimal_table_truncated_by_one");
	}
	ktap_exit();
}
