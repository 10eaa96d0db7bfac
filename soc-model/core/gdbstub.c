// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-core: a gdb server for an emulated core (the GDB remote serial
 * protocol, all-stop, one thread).
 *
 * The I/O thread accepts the connection and watches it while the core
 * runs; everything else happens on the CPU thread: while the core is
 * halted, gdb_serve() reads packets until gdb resumes it or goes away.
 * Breakpoints are not written into the firmware: the per-instruction hook
 * stops at their addresses, so Z0 and Z1 are the same and read-only memory
 * can have breakpoints too. docs/cores.md, "Debugging".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu.h"

#define PKT_MAX		4096
#define MAX_BPS		64

static struct {
	int fd;			/* atomic: the connection, or -1 */
	bool noack;
	bool running;		/* gdb waits for a stop reply */
	bool stepping;
	int sig;		/* why the core last stopped */
	uint64_t bp[MAX_BPS];
	unsigned int nr_bp;
	char in[PKT_MAX + 1];	/* received bytes not yet parsed */
	size_t in_len, in_pos;
} g = { .fd = -1 };

void gdb_init(void)
{
	g.fd = -1;
}

int gdb_conn(void)
{
	return __atomic_load_n(&g.fd, __ATOMIC_ACQUIRE);
}

bool gdb_stepping(void)
{
	return g.stepping;
}

bool gdb_breakpoint_at(uint64_t pc)
{
	unsigned int i;

	for (i = 0; i < g.nr_bp; i++)
		if (g.bp[i] == pc)
			return true;
	return false;
}

bool gdb_has_breakpoints(void)
{
	return g.nr_bp != 0;
}

void gdb_attach(int fd)
{
	g.noack = false;
	g.running = false;
	g.stepping = false;
	g.nr_bp = 0;
	g.in_len = 0;
	g.in_pos = 0;
	__atomic_store_n(&g.fd, fd, __ATOMIC_RELEASE);
}

/* gdb is gone or has let go: the core runs on, without breakpoints. */
static void detach(void)
{
	int fd = gdb_conn();

	g.nr_bp = 0;
	g.stepping = false;
	g.running = false;
	__atomic_store_n(&g.fd, -1, __ATOMIC_RELEASE);
	emu_kick_io();
	if (fd >= 0)
		close(fd);
	emu.halted = false;
}

/* ---- the wire ------------------------------------------------------------ */

static bool send_raw(const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(g.fd, s, len);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return false;
		}
		s += n;
		len -= n;
	}
	return true;
}

static void put(const char *data, size_t len)
{
	static char buf[2 * PKT_MAX + 8];
	unsigned int sum = 0;
	size_t i, n = 0;

	buf[n++] = '$';
	for (i = 0; i < len && n < sizeof(buf) - 4; i++) {
		char c = data[i];

		/* binary data (qXfer) needs these escaped */
		if (c == '#' || c == '$' || c == '}' || c == '*') {
			buf[n++] = '}';
			sum += '}';
			c ^= 0x20;
		}
		buf[n++] = c;
		sum += (unsigned char)c;
	}
	n += snprintf(buf + n, 4, "#%02x", sum & 0xff);
	if (!send_raw(buf, n))
		detach();
}

static void put_str(const char *s)
{
	put(s, strlen(s));
}

/* Next byte from gdb; -1 when the connection is gone. */
static int get_byte(bool block)
{
	if (g.in_pos == g.in_len) {
		ssize_t n;

		if (!block) {
			struct pollfd p = { .fd = g.fd, .events = POLLIN };
			struct timespec zero = { 0 };

			if (ppoll(&p, 1, &zero, NULL) <= 0)
				return -2;
		}
		do {
			n = read(g.fd, g.in, sizeof(g.in) - 1);
		} while (n < 0 && errno == EINTR);
		if (n <= 0)
			return -1;
		g.in_len = n;
		g.in_pos = 0;
	}
	return (unsigned char)g.in[g.in_pos++];
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Read one packet into @pkt (NUL-terminated). Returns its length, -1 when
 * gdb is gone, -3 for an interrupt request (0x03).
 */
static int get_packet(char *pkt)
{
	for (;;) {
		unsigned int sum = 0, want;
		int c, len = 0, h1, h2;

		do {
			c = get_byte(true);
			if (c == 0x03)
				return -3;
		} while (c >= 0 && c != '$');
		if (c < 0)
			return -1;
		while ((c = get_byte(true)) >= 0 && c != '#') {
			if (len < PKT_MAX)
				pkt[len++] = c;
			sum += c;
		}
		if (c < 0)
			return -1;
		h1 = hexval(get_byte(true));
		h2 = hexval(get_byte(true));
		pkt[len] = 0;
		want = h1 << 4 | h2;
		if (g.noack)
			return len;
		if (h1 < 0 || h2 < 0 || want != (sum & 0xff)) {
			if (!send_raw("-", 1))
				return -1;
			continue;
		}
		if (!send_raw("+", 1))
			return -1;
		return len;
	}
}

/* ---- commands ----------------------------------------------------------- */

static void stop_reply(void)
{
	char s[32];

	snprintf(s, sizeof(s), "T%02xthread:1;", g.sig);
	put_str(s);
}

void gdb_stopped(int sig)
{
	g.sig = sig;
	g.stepping = false;
	if (gdb_conn() >= 0 && g.running) {
		g.running = false;
		stop_reply();
	}
}

static void put_hex_le(char *out, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		sprintf(out + 2 * i, "%02x", (v >> (8 * i)) & 0xff);
}

static bool get_hex_le(const char *in, uint32_t *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 8; i++) {
		int h = hexval(in[i]);

		if (h < 0)
			return false;
		*v |= (uint32_t)h << (4 * (i ^ 1));
	}
	return true;
}

static void cmd_regs(void)
{
	char out[8 * 64 + 1];
	unsigned int i;

	for (i = 0; i < emu.isa->nr_g_regs; i++)
		put_hex_le(out + 8 * i, emu.isa->get_reg(i));
	put(out, 8 * i);
}

static void cmd_set_regs(const char *hex)
{
	unsigned int i;
	uint32_t v;

	for (i = 0; i < emu.isa->nr_g_regs && strlen(hex) >= 8; i++, hex += 8) {
		if (!get_hex_le(hex, &v)) {
			put_str("E01");
			return;
		}
		emu.isa->set_reg(i, v);
	}
	put_str("OK");
}

static void cmd_reg(const char *arg, bool write)
{
	char *end, out[9];
	unsigned long n = strtoul(arg, &end, 16);
	uint32_t v;

	if (n >= emu.isa->nr_regs || (write ? *end != '=' : *end != 0)) {
		put_str("E01");
		return;
	}
	if (write) {
		if (!get_hex_le(end + 1, &v)) {
			put_str("E01");
			return;
		}
		emu.isa->set_reg(n, v);
		put_str("OK");
		return;
	}
	put_hex_le(out, emu.isa->get_reg(n));
	put(out, 8);
}

static void cmd_mem(const char *arg, bool write)
{
	static uint8_t buf[PKT_MAX / 2];
	static char out[PKT_MAX + 1];
	char *end;
	uint64_t addr = strtoull(arg, &end, 16), len, i;

	if (*end != ',')
		goto bad;
	len = strtoull(end + 1, &end, 16);
	if (len > sizeof(buf) || (write ? *end != ':' : *end != 0))
		goto bad;
	if (write) {
		const char *h = end + 1;

		if (strlen(h) != 2 * len)
			goto bad;
		for (i = 0; i < len; i++) {
			int a = hexval(h[2 * i]), b = hexval(h[2 * i + 1]);

			if (a < 0 || b < 0)
				goto bad;
			buf[i] = a << 4 | b;
		}
		if (!emu_mem_access(addr, buf, len, true))
			goto bad;
		put_str("OK");
		return;
	}
	if (!emu_mem_access(addr, buf, len, false))
		goto bad;
	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", buf[i]);
	put(out, 2 * len);
	return;
bad:
	put_str("E01");
}

/* The target description, made once from the instruction set's registers. */
static const char *target_xml(void)
{
	static char xml[8192];
	const struct emu_isa *isa = emu.isa;
	unsigned int f, r, n = 0;
	size_t at;

	if (xml[0])
		return xml;
	at = snprintf(xml, sizeof(xml), "%s%s%s%s%s", "<?xml version=\"1.0\"?>",
		      "<!DOCTYPE target SYSTEM \"gdb-target.dtd\"><target version=\"1.0\">",
		      "<architecture>", isa->gdb_arch, "</architecture>");
	for (f = 0; f < isa->nr_gdb_features; f++) {
		const struct emu_gdb_feature *ft = &isa->gdb_features[f];

		at += snprintf(xml + at, sizeof(xml) - at, "<feature name=\"%s\">", ft->name);
		for (r = 0; r < ft->nr_regs; r++, n++) {
			const struct emu_gdb_reg *reg = &ft->regs[r];

			at += snprintf(xml + at, sizeof(xml) - at,
				       "<reg name=\"%s\" bitsize=\"32\" regnum=\"%u\"",
				       reg->name, n);
			if (reg->type)
				at += snprintf(xml + at, sizeof(xml) - at, " type=\"%s\"",
					       reg->type);
			if (reg->group)
				at += snprintf(xml + at, sizeof(xml) - at, " group=\"%s\"",
					       reg->group);
			at += snprintf(xml + at, sizeof(xml) - at, "/>");
		}
		at += snprintf(xml + at, sizeof(xml) - at, "</feature>");
	}
	snprintf(xml + at, sizeof(xml) - at, "</target>");
	return xml;
}

static void cmd_xfer(const char *arg)
{
	static const char pre[] = "features:read:target.xml:";
	const char *xml = target_xml();
	size_t total = strlen(xml), off, len;
	char *end, out[PKT_MAX + 2];

	if (strncmp(arg, pre, sizeof(pre) - 1)) {
		put_str("");
		return;
	}
	off = strtoul(arg + sizeof(pre) - 1, &end, 16);
	if (*end != ',') {
		put_str("E01");
		return;
	}
	len = strtoul(end + 1, NULL, 16);
	if (len > PKT_MAX / 2)
		len = PKT_MAX / 2;
	if (off >= total) {
		put_str("l");
		return;
	}
	if (len > total - off)
		len = total - off;
	out[0] = off + len == total ? 'l' : 'm';
	memcpy(out + 1, xml + off, len);
	put(out, len + 1);
}

static void cmd_break(const char *arg, bool add)
{
	char *end;
	uint64_t addr;
	unsigned int i;

	if ((arg[0] != '0' && arg[0] != '1') || arg[1] != ',') {
		put_str("");	/* watchpoints: not supported */
		return;
	}
	addr = strtoull(arg + 2, &end, 16);
	if (*end != ',') {
		put_str("E01");
		return;
	}
	for (i = 0; i < g.nr_bp && g.bp[i] != addr; i++)
		;
	if (add && i == g.nr_bp) {
		if (g.nr_bp == MAX_BPS) {
			put_str("E02");
			return;
		}
		g.bp[g.nr_bp++] = addr;
	} else if (!add && i < g.nr_bp) {
		g.bp[i] = g.bp[--g.nr_bp];
	}
	put_str("OK");
}

/* c, s, C, S, vCont: resume; true if the core now runs. */
static bool cmd_resume(char what, const char *addr)
{
	if (addr && *addr) {
		uint64_t pc = strtoull(addr, NULL, 16);

		emu.isa->set_reg(emu.isa->pc_reg, pc);
	}
	g.stepping = what == 's' || what == 'S';
	g.running = true;
	emu.halted = false;
	return true;
}

static bool cmd_vcont(const char *arg)
{
	char act;

	if (!strcmp(arg, "?")) {
		put_str("vCont;c;C;s;S");
		return false;
	}
	if (*arg != ';') {
		put_str("E01");
		return false;
	}
	act = arg[1];
	if (act != 'c' && act != 'C' && act != 's' && act != 'S') {
		put_str("E01");
		return false;
	}
	return cmd_resume(act, NULL);
}

/* One packet; true if the core was resumed. */
static bool handle(char *pkt)
{
	char *sep;

	switch (pkt[0]) {
	case '?':
		stop_reply();
		return false;
	case 'g':
		cmd_regs();
		return false;
	case 'G':
		cmd_set_regs(pkt + 1);
		return false;
	case 'p':
		cmd_reg(pkt + 1, false);
		return false;
	case 'P':
		cmd_reg(pkt + 1, true);
		return false;
	case 'm':
		cmd_mem(pkt + 1, false);
		return false;
	case 'M':
		cmd_mem(pkt + 1, true);
		return false;
	case 'c':
	case 's':
		return cmd_resume(pkt[0], pkt + 1);
	case 'C':
	case 'S':
		sep = strchr(pkt, ';');
		return cmd_resume(pkt[0], sep ? sep + 1 : NULL);
	case 'Z':
		cmd_break(pkt + 1, true);
		return false;
	case 'z':
		cmd_break(pkt + 1, false);
		return false;
	case 'H':
	case 'T':
		put_str("OK");
		return false;
	case 'D':
		put_str("OK");
		detach();
		return true;
	case 'k':
		/* kill: the core ends as if the model had stopped it */
		emu_kill();
	case 'v':
		if (!strncmp(pkt, "vCont", 5))
			return cmd_vcont(pkt + 5);
		put_str("");
		return false;
	case 'q':
		if (!strncmp(pkt, "qSupported", 10))
			put_str("PacketSize=1000;qXfer:features:read+;QStartNoAckMode+;"
				"vContSupported+");
		else if (!strncmp(pkt, "qXfer:", 6))
			cmd_xfer(pkt + 6);
		else if (!strcmp(pkt, "qAttached"))
			put_str("1");
		else if (!strcmp(pkt, "qC"))
			put_str("QC1");
		else if (!strcmp(pkt, "qfThreadInfo"))
			put_str("m1");
		else if (!strcmp(pkt, "qsThreadInfo"))
			put_str("l");
		else if (!strncmp(pkt, "qSymbol", 7))
			put_str("OK");
		else
			put_str("");
		return false;
	case 'Q':
		if (!strcmp(pkt, "QStartNoAckMode")) {
			put_str("OK");
			g.noack = true;
			return false;
		}
		put_str("");
		return false;
	default:
		put_str("");
		return false;
	}
}

void gdb_serve(void)
{
	static char pkt[PKT_MAX + 1];

	while (emu.halted && gdb_conn() >= 0) {
		int n = get_packet(pkt);

		if (n == -1) {
			detach();
			return;
		}
		if (n == -3)
			continue;	/* already halted */
		if (handle(pkt))
			return;
	}
}

/*
 * While the core runs, gdb (all-stop) sends nothing but the interrupt
 * request and acknowledgements. A halted core's input is gdb_serve()'s.
 */
void gdb_input(void)
{
	int c;

	if (gdb_conn() < 0 || emu.halted)
		return;
	while ((c = get_byte(false)) != -2) {
		if (c == -1) {
			detach();
			return;
		}
		if (c == 0x03) {
			emu_halt(SIGINT);
			return;
		}
	}
}
