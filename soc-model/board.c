// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc SoC model: board-file parsing (libinih), validation and the
 * shared-memory layout. Every error names the file, the line and the
 * field, and parsing stops at the first one.
 */
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/ampsoc/core_fault.h>

#include "board.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

enum sect { S_NONE, S_SOC, S_DOMAIN, S_CLOCK, S_PERIPH, S_CORE, S_MBOX };

struct parser {
	struct board *b;
	const char *path;
	const char *buf, *end, *pos;	/* input text, reader position */
	int line;			/* line the reader returned last */
	char *err;
	size_t errlen;
	bool failed;
	/* the section being filled */
	char cur_section[256];
	enum sect kind;
	unsigned int idx;
	uint32_t seen;			/* bit per key, for duplicates */
	bool soc_seen;
};

static __attribute__((format(printf, 3, 4)))
int perr(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->failed)
		return 0;
	p->failed = true;
	n = snprintf(p->err, p->errlen, "%s:%d: ", p->path, line);
	if (n < 0 || (size_t)n >= p->errlen)
		return 0;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return 0;
}

static int new_section(struct parser *p, const char *section);

/*
 * inih reader: one line per call, so p->line is the handler's line.
 * Section headings are taken here, so that a section without keys still
 * exists and errors about it name the heading's line.
 */
static char *reader(char *str, int num, void *stream)
{
	struct parser *p = stream;
	const char *nl;
	size_t len;

	if (p->pos >= p->end)
		return NULL;
	p->line++;
	nl = memchr(p->pos, '\n', p->end - p->pos);
	len = nl ? (size_t)(nl - p->pos) : (size_t)(p->end - p->pos);
	if (memchr(p->pos, '\0', len))
		perr(p, p->line, "NUL byte in line");
	if (len + 2 > (size_t)num) {
		perr(p, p->line, "line longer than %d characters", num - 2);
		len = num - 2;
	}
	memcpy(str, p->pos, len);
	str[len] = '\n';
	str[len + 1] = '\0';
	p->pos = nl ? nl + 1 : p->end;
	if (!p->failed) {
		char *s = str, *e;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '[') {
			e = strchr(s, ']');
			if (e) {
				char sec[256];
				size_t n = e - s - 1;

				if (n >= sizeof(sec))
					n = sizeof(sec) - 1;
				memcpy(sec, s + 1, n);
				sec[n] = '\0';
				new_section(p, sec);
			}
		}
	}
	return str;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= VSOC_NAME_LEN)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		      *s == '.'))
			return false;
	return true;
}

enum unit { U_PLAIN, U_SIZE, U_RATE };

/* Parse a whole unsigned number: decimal or 0x hex, optional suffix. */
static int parse_u64(const char *s, enum unit u, uint64_t *out)
{
	unsigned long long v;
	uint64_t mul = 1;
	char *end;

	if (*s == '-' || *s == '+' || *s == ' ' || *s == '\0')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	if (*end && u != U_PLAIN) {
		switch (*end) {
		case 'k': case 'K':
			mul = u == U_SIZE ? 1ull << 10 : 1000ull;
			break;
		case 'M':
			mul = u == U_SIZE ? 1ull << 20 : 1000000ull;
			break;
		case 'G':
			mul = u == U_SIZE ? 1ull << 30 : 1000000000ull;
			break;
		default:
			return -1;
		}
		end++;
	}
	if (*end)
		return -1;
	if (v && mul > UINT64_MAX / v)
		return -1;
	*out = v * mul;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "1") ||
	    !strcmp(s, "on")) {
		*out = true;
		return 0;
	}
	if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "0") ||
	    !strcmp(s, "off")) {
		*out = false;
		return 0;
	}
	return -1;
}

static void copy_name(char *dst, const char *src)
{
	snprintf(dst, VSOC_NAME_LEN, "%s", src);
}

static const char *const sect_word[] = {
	[S_SOC] = "soc", [S_DOMAIN] = "domain", [S_CLOCK] = "clock",
	[S_PERIPH] = "periph", [S_CORE] = "core", [S_MBOX] = "mbox",
};

/* A new "[kind name]" heading: create the object. */
static int new_section(struct parser *p, const char *section)
{
	struct board *b = p->b;
	const char *sp = strchr(section, ' ');
	char word[16], name[256];
	enum sect k = S_NONE;
	unsigned int i, max = 0, *count = NULL;
	const char *names = NULL;
	size_t stride = 0;

	snprintf(p->cur_section, sizeof(p->cur_section), "%s", section);
	p->seen = 0;
	if (!strcmp(section, "soc")) {
		if (p->soc_seen)
			return perr(p, p->line, "[soc]: duplicate section");
		p->soc_seen = true;
		p->kind = S_SOC;
		return 1;
	}
	if (!sp || (size_t)(sp - section) >= sizeof(word))
		return perr(p, p->line,
			    "[%s]: expected [soc] or [domain|clock|periph|core|mbox NAME]",
			    section);
	memcpy(word, section, sp - section);
	word[sp - section] = '\0';
	snprintf(name, sizeof(name), "%s", sp + 1);
	for (i = S_DOMAIN; i <= S_MBOX; i++)
		if (!strcmp(word, sect_word[i]))
			k = i;
	if (k == S_NONE)
		return perr(p, p->line, "[%s]: unknown section kind '%s'",
			    section, word);
	if (!valid_name(name))
		return perr(p, p->line,
			    "[%s]: bad name '%s' (1-%d of A-Z a-z 0-9 _ - .)",
			    section, name, VSOC_NAME_LEN - 1);
	/* Each kind's array: its count, bound and names (the first member). */
	switch (k) {
	case S_DOMAIN:
		count = &b->nr_domains; max = VSOC_MAX_DOMAINS;
		names = b->domain[0].name; stride = sizeof(b->domain[0]);
		break;
	case S_CLOCK:
		count = &b->nr_clocks; max = VSOC_MAX_CLOCKS;
		names = b->clock[0].name; stride = sizeof(b->clock[0]);
		break;
	case S_PERIPH:
		count = &b->nr_periphs; max = VSOC_MAX_PERIPHS;
		names = b->periph[0].name; stride = sizeof(b->periph[0]);
		break;
	case S_CORE:
		count = &b->nr_cores; max = VSOC_MAX_CORES;
		names = b->core[0].name; stride = sizeof(b->core[0]);
		break;
	case S_MBOX:
		count = &b->nr_mboxes; max = VSOC_MAX_MBOXES;
		names = b->mbox[0].name; stride = sizeof(b->mbox[0]);
		break;
	default:
		break;
	}
	for (i = 0; names && i < *count; i++)
		if (!strcmp(names + i * stride, name))
			goto dup;
	if (*count >= max)
		return perr(p, p->line, "[%s]: more than %u %s sections",
			    section, max, word);
	p->kind = k;
	p->idx = (*count)++;
	switch (k) {
	case S_DOMAIN: {
		struct board_domain *d = &b->domain[p->idx];

		copy_name(d->name, name);
		d->line = p->line;
		d->parent = VSOC_NONE;
		d->on_latency_ns = 10000;
		d->off_latency_ns = 10000;
		break;
	}
	case S_CLOCK: {
		struct board_clock *c = &b->clock[p->idx];

		copy_name(c->name, name);
		c->line = p->line;
		c->parent = VSOC_NONE;
		break;
	}
	case S_PERIPH: {
		struct board_periph *pe = &b->periph[p->idx];

		copy_name(pe->name, name);
		pe->line = p->line;
		pe->domain = VSOC_NONE;
		pe->clock = VSOC_NONE;
		pe->data_size = ~0ull;	/* per-type default */
		pe->bandwidth = 100;
		break;
	}
	case S_CORE: {
		struct board_core *c = &b->core[p->idx];

		copy_name(c->name, name);
		c->line = p->line;
		c->domain = VSOC_NONE;
		c->clock = VSOC_NONE;
		c->mbox_tx = VSOC_NONE;
		c->mbox_rx = VSOC_NONE;
		c->firewall_setting = -1;
		c->isa = AMPSOC_CORE_ISA_X86_64;
		c->mem_domain = VSOC_NONE;
		break;
	}
	case S_MBOX: {
		struct board_mbox *m = &b->mbox[p->idx];

		copy_name(m->name, name);
		m->line = p->line;
		m->depth = 16;
		m->from = VSOC_NONE;
		m->to = VSOC_NONE;
		break;
	}
	default:
		break;
	}
	return 1;
dup:
	return perr(p, p->line, "[%s]: duplicate %s '%s'", section, word, name);
}

/* key -> bit for duplicate detection; keys are per section kind */
static const char *const keys[][12] = {
	[S_SOC] = { "name", "shm_size", "firewall" },
	[S_DOMAIN] = { "parent", "always_on", "on_latency_us",
		       "off_latency_us", "on_power_uw", "off_power_uw",
		       "initial", "perf_levels", "perf_parent_ge",
		       "stay_on_until_sync", "irq_safe" },
	[S_CLOCK] = { "parent", "rate", "gate", "set_rate", "min_rate",
		      "max_rate", "critical", "initial" },
	[S_PERIPH] = { "type", "domain", "clock", "active_power_uw",
		       "data_size", "bandwidth" },
	[S_CORE] = { "domain", "clock", "mem", "rpmsg_static", "firewall",
		     "resmgr_domains", "resmgr_clocks", "ddr", "isa",
		     "mem_domain" },
	[S_MBOX] = { "from", "to", "depth" },
};

static int key_index(enum sect k, const char *name)
{
	int i;

	for (i = 0; i < 12 && keys[k][i]; i++)
		if (!strcmp(keys[k][i], name))
			return i;
	return -1;
}

static int set_ref(struct parser *p, char *dst, int *line, const char *v,
		   const char *key)
{
	if (!valid_name(v))
		return perr(p, p->line, "[%s] %s: bad name '%s'",
			    p->cur_section, key, v);
	copy_name(dst, v);
	*line = p->line;
	return 1;
}

/* mem = NAME:SHM_OFFSET:DEVICE_ADDRESS:SIZE[:exec|dma[+...]] */
static int parse_mem(struct parser *p, struct board_core *c, const char *v)
{
	char tmp[256], *f[6], *save = NULL, *tok;
	struct board_mem *m;
	int n = 0;

	if (c->nr_mems >= BOARD_MAX_CORE_MEMS)
		return perr(p, p->line, "[%s] mem: more than %d entries",
			    p->cur_section, BOARD_MAX_CORE_MEMS);
	snprintf(tmp, sizeof(tmp), "%s", v);
	for (tok = strtok_r(tmp, ":", &save); tok && n < 6;
	     tok = strtok_r(NULL, ":", &save))
		f[n++] = tok;
	if (n < 4 || n > 5)
		return perr(p, p->line,
			    "[%s] mem: expected NAME:SHM_OFFSET:DA:SIZE[:FLAGS], got '%s'",
			    p->cur_section, v);
	m = &c->mem[c->nr_mems];
	memset(m, 0, sizeof(*m));
	if (!valid_name(f[0]))
		return perr(p, p->line, "[%s] mem: bad name '%s'",
			    p->cur_section, f[0]);
	copy_name(m->name, f[0]);
	if (parse_u64(f[1], U_SIZE, &m->shm_off))
		return perr(p, p->line, "[%s] mem %s: bad shm offset '%s'",
			    p->cur_section, f[0], f[1]);
	if (parse_u64(f[2], U_SIZE, &m->da))
		return perr(p, p->line, "[%s] mem %s: bad device address '%s'",
			    p->cur_section, f[0], f[2]);
	if (parse_u64(f[3], U_SIZE, &m->size) || !m->size)
		return perr(p, p->line, "[%s] mem %s: bad size '%s'",
			    p->cur_section, f[0], f[3]);
	if ((m->shm_off | m->size) & (VSOC_PAGE_SIZE - 1))
		return perr(p, p->line,
			    "[%s] mem %s: shm offset and size must be multiples of 4K",
			    p->cur_section, f[0]);
	if (m->shm_off + m->size < m->shm_off || m->da + m->size < m->da ||
	    m->da + m->size > 1ull << 32)
		return perr(p, p->line,
			    "[%s] mem %s: range wraps or leaves the 32-bit device address space",
			    p->cur_section, f[0]);
	if (n == 5) {
		char *fl, *s2 = NULL;

		for (fl = strtok_r(f[4], "+", &s2); fl;
		     fl = strtok_r(NULL, "+", &s2)) {
			if (!strcmp(fl, "exec"))
				m->flags |= VSOC_MEM_EXEC;
			else if (!strcmp(fl, "dma"))
				m->flags |= VSOC_MEM_DMA;
			else
				return perr(p, p->line,
					    "[%s] mem %s: unknown flag '%s' (exec, dma)",
					    p->cur_section, m->name, fl);
		}
	}
	m->line = p->line;
	c->nr_mems++;
	return 1;
}

/*
 * ddr = DEVICE_ADDRESS:SIZE: where the core sees Linux's DRAM, guest
 * physical address 0 at DEVICE_ADDRESS, at most SIZE bytes of it.
 */
static int parse_ddr(struct parser *p, struct board_core *c, const char *v)
{
	char tmp[128], *colon;

	snprintf(tmp, sizeof(tmp), "%s", v);
	colon = strchr(tmp, ':');
	if (!colon)
		return perr(p, p->line, "[%s] ddr: expected DA:SIZE, got '%s'",
			    p->cur_section, v);
	*colon = '\0';
	if (parse_u64(tmp, U_SIZE, &c->ddr_da) ||
	    parse_u64(colon + 1, U_SIZE, &c->ddr_size) || !c->ddr_size)
		return perr(p, p->line, "[%s] ddr: bad DA:SIZE '%s'",
			    p->cur_section, v);
	if ((c->ddr_da | c->ddr_size) & (VSOC_PAGE_SIZE - 1))
		return perr(p, p->line,
			    "[%s] ddr: device address and size must be multiples of 4K",
			    p->cur_section);
	if (c->ddr_da + c->ddr_size < c->ddr_da ||
	    c->ddr_da + c->ddr_size > 1ull << 32)
		return perr(p, p->line,
			    "[%s] ddr: range wraps or leaves the 32-bit device address space",
			    p->cur_section);
	c->ddr_line = p->line;
	return 1;
}

/* isa = x86_64 | armv7m | rv32imac */
static int parse_isa(struct parser *p, struct board_core *c, const char *v)
{
	static const struct {
		const char *name;
		uint32_t isa;
	} isas[] = {
		{ "x86_64", AMPSOC_CORE_ISA_X86_64 },
		{ "armv7m", AMPSOC_CORE_ISA_ARMV7M },
		{ "rv32imac", AMPSOC_CORE_ISA_RV32IMAC },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(isas); i++)
		if (!strcmp(v, isas[i].name)) {
			c->isa = isas[i].isa;
			c->isa_line = p->line;
			return 1;
		}
	return perr(p, p->line,
		    "[%s] isa: unknown instruction set '%s' (x86_64, armv7m, rv32imac)",
		    p->cur_section, v);
}

/* An rpmsg address: a number below VSOC_RPMSG_ADDR_ANY ("any"). */
static int parse_addr(struct parser *p, const char *chan, const char *what,
		      const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, U_PLAIN, &v) || v > UINT32_MAX)
		return perr(p, p->line,
			    "[%s] rpmsg_static %s: bad %s '%s' (a 32-bit number)",
			    p->cur_section, chan, what, s);
	if (v == VSOC_RPMSG_ADDR_ANY)
		return perr(p, p->line,
			    "[%s] rpmsg_static %s: %s 0x%x is rpmsg's 'any' address%s",
			    p->cur_section, chan, what, VSOC_RPMSG_ADDR_ANY,
			    strcmp(what, "src") ? "" : "; leave SRC out for any");
	*out = v;
	return 1;
}

/* rpmsg_static = CHANNEL_NAME:DST[:SRC] */
static int parse_chan(struct parser *p, struct board_core *c, const char *v)
{
	char tmp[256], *f[3], *colon;
	struct board_chan *ch;
	unsigned int i;
	int n = 1;

	if (c->nr_chans >= BOARD_MAX_CORE_CHANS)
		return perr(p, p->line, "[%s] rpmsg_static: more than %d entries",
			    p->cur_section, BOARD_MAX_CORE_CHANS);
	snprintf(tmp, sizeof(tmp), "%s", v);
	f[0] = tmp;
	while (n <= 3 && (colon = strchr(f[n - 1], ':'))) {
		*colon = '\0';
		if (n < 3)
			f[n] = colon + 1;
		n++;
	}
	if (n < 2 || n > 3)
		return perr(p, p->line,
			    "[%s] rpmsg_static: expected CHANNEL_NAME:DST[:SRC], got '%s'",
			    p->cur_section, v);
	ch = &c->chan[c->nr_chans];
	memset(ch, 0, sizeof(*ch));
	if (!valid_name(f[0]))
		return perr(p, p->line,
			    "[%s] rpmsg_static: bad channel name '%s' (1-%d of A-Z a-z 0-9 _ - .)",
			    p->cur_section, f[0], VSOC_NAME_LEN - 1);
	copy_name(ch->name, f[0]);
	if (!parse_addr(p, ch->name, "dst", f[1], &ch->dst))
		return 0;
	ch->src = VSOC_RPMSG_ADDR_ANY;
	if (n == 3) {
		if (!parse_addr(p, ch->name, "src", f[2], &ch->src))
			return 0;
		if (ch->src < 1024)
			return perr(p, p->line,
				    "[%s] rpmsg_static %s: src %u is below 1024 (rpmsg's reserved addresses)",
				    p->cur_section, ch->name, ch->src);
	}
	for (i = 0; i < c->nr_chans; i++)
		if (!strcmp(c->chan[i].name, ch->name) &&
		    c->chan[i].dst == ch->dst)
			return perr(p, p->line,
				    "[%s] rpmsg_static %s: duplicate of line %d (same name and dst 0x%x)",
				    p->cur_section, ch->name, c->chan[i].line,
				    ch->dst);
	ch->line = p->line;
	c->nr_chans++;
	return 1;
}

/*
 * perf_levels = LEVEL:MICROVOLTS:MICROWATTS[, ...] (ABI 1.5): 1 to
 * VSOC_MAX_DOMAIN_LEVELS entries, levels 1..VSOC_MAX_LEVEL strictly
 * increasing, voltages 1..VSOC_MAX_LEVEL_UV and powers never lower than
 * the level below's.
 */
static int parse_levels(struct parser *p, struct board_domain *d,
			const char *v)
{
	char tmp[512], *item, *save = NULL;
	unsigned int n = 0;

	snprintf(tmp, sizeof(tmp), "%s", v);
	for (item = strtok_r(tmp, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *f[3], *c1, *c2, *end;
		uint64_t x[3];
		unsigned int i;

		while (*item == ' ' || *item == '\t')
			item++;
		end = item + strlen(item);
		while (end > item && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		c1 = strchr(item, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c1 || !c2 || strchr(c2 + 1, ':'))
			return perr(p, p->line,
				    "[%s] perf_levels: expected LEVEL:MICROVOLTS:MICROWATTS, got '%s'",
				    p->cur_section, item);
		*c1 = '\0';
		*c2 = '\0';
		f[0] = item;
		f[1] = c1 + 1;
		f[2] = c2 + 1;
		for (i = 0; i < 3; i++)
			if (parse_u64(f[i], U_PLAIN, &x[i]) || x[i] > UINT32_MAX)
				return perr(p, p->line,
					    "[%s] perf_levels: '%s' is not a 32-bit number",
					    p->cur_section, f[i]);
		if (n >= VSOC_MAX_DOMAIN_LEVELS)
			return perr(p, p->line,
				    "[%s] perf_levels: more than %d levels",
				    p->cur_section, VSOC_MAX_DOMAIN_LEVELS);
		if (!x[0] || x[0] > VSOC_MAX_LEVEL)
			return perr(p, p->line,
				    "[%s] perf_levels: level %llu outside 1..%d",
				    p->cur_section, (unsigned long long)x[0],
				    VSOC_MAX_LEVEL);
		if (!x[1] || x[1] > VSOC_MAX_LEVEL_UV)
			return perr(p, p->line,
				    "[%s] perf_levels: level %llu: voltage %llu uV outside 1..%d",
				    p->cur_section, (unsigned long long)x[0],
				    (unsigned long long)x[1], VSOC_MAX_LEVEL_UV);
		if (n && x[0] <= d->level[n - 1].level)
			return perr(p, p->line,
				    "[%s] perf_levels: level %llu after %u (levels must strictly increase)",
				    p->cur_section, (unsigned long long)x[0],
				    d->level[n - 1].level);
		if (n && (x[1] < d->level[n - 1].voltage_uv ||
			  x[2] < d->level[n - 1].power_uw))
			return perr(p, p->line,
				    "[%s] perf_levels: level %llu needs less voltage or power than level %u",
				    p->cur_section, (unsigned long long)x[0],
				    d->level[n - 1].level);
		d->level[n].level = x[0];
		d->level[n].voltage_uv = x[1];
		d->level[n].power_uw = x[2];
		n++;
	}
	if (!n)
		return perr(p, p->line, "[%s] perf_levels: no level",
			    p->cur_section);
	d->nr_levels = n;
	d->levels_line = p->line;
	return 1;
}

static bool get_num(struct parser *p, const char *name, const char *value,
		    enum unit u, uint64_t *v)
{
	if (!parse_u64(value, u, v))
		return true;
	perr(p, p->line, "[%s] %s: '%s' is not a number", p->cur_section,
	     name, value);
	return false;
}

static bool fits_u32(struct parser *p, const char *name, const char *value,
		     uint64_t v)
{
	if (v <= UINT32_MAX)
		return true;
	perr(p, p->line, "[%s] %s: %s is too large", p->cur_section, name,
	     value);
	return false;
}

static bool get_bool(struct parser *p, const char *name, const char *value,
		     bool *v)
{
	if (!parse_bool(value, v))
		return true;
	perr(p, p->line, "[%s] %s: '%s' is not yes/no", p->cur_section, name,
	     value);
	return false;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct parser *p = user;
	struct board *b = p->b;
	uint64_t v = 0;
	bool bv = false;
	int k;

	if (p->failed)
		return 0;
	if (p->kind == S_NONE)
		return perr(p, p->line, "'%s' outside of any section", name);
	if (strcmp(section, p->cur_section))
		return perr(p, p->line, "[%s]: malformed section heading",
			    section);
	k = key_index(p->kind, name);
	if (k < 0)
		return perr(p, p->line, "[%s]: unknown key '%s'",
			    p->cur_section, name);
	if ((p->seen & (1u << k)) && strcmp(name, "mem") &&
	    strcmp(name, "rpmsg_static"))
		return perr(p, p->line, "[%s]: duplicate key '%s'",
			    p->cur_section, name);
	p->seen |= 1u << k;

	switch (p->kind) {
	case S_SOC:
		if (!strcmp(name, "name")) {
			if (!valid_name(value))
				return perr(p, p->line, "[soc] name: bad name '%s'",
					    value);
			copy_name(b->name, value);
		} else if (!strcmp(name, "firewall")) {
			if (!get_bool(p, name, value, &bv))
				return 0;
			b->firewall_setting = bv;
		} else {
			if (!get_num(p, name, value, U_SIZE, &v))
				return 0;
			b->shm_size = v;
			b->shm_line = p->line;
		}
		return 1;
	case S_DOMAIN: {
		struct board_domain *d = &b->domain[p->idx];

		if (!strcmp(name, "parent"))
			return set_ref(p, d->parent_name, &d->parent_line,
				       value, name);
		if (!strcmp(name, "always_on")) {
			if (!get_bool(p, name, value, &bv))
				return 0;
			if (bv) {
				d->flags |= VSOC_DOMAIN_ALWAYS_ON;
				d->initially_on = true;
			}
		} else if (!strcmp(name, "stay_on_until_sync")) {
			if (!get_bool(p, name, value, &bv))
				return 0;
			if (bv)
				d->flags |= VSOC_DOMAIN_STAY_ON;
			else
				d->flags &= ~VSOC_DOMAIN_STAY_ON;
		} else if (!strcmp(name, "irq_safe")) {
			if (!get_bool(p, name, value, &bv))
				return 0;
			if (bv)
				d->flags |= VSOC_DOMAIN_IRQ_SAFE;
			else
				d->flags &= ~VSOC_DOMAIN_IRQ_SAFE;
		} else if (!strcmp(name, "initial")) {
			if (strcmp(value, "on") && strcmp(value, "off"))
				return perr(p, p->line,
					    "[%s] initial: '%s' is not on/off",
					    p->cur_section, value);
			d->initially_on = !strcmp(value, "on");
		} else if (!strcmp(name, "perf_levels")) {
			return parse_levels(p, d, value);
		} else if (!strcmp(name, "perf_parent_ge")) {
			if (!get_bool(p, name, value, &bv))
				return 0;
			if (bv)
				d->flags |= VSOC_DOMAIN_PERF_PARENT_GE;
			d->parent_ge_line = p->line;
		} else if (!strcmp(name, "on_latency_us")) {
			if (!get_num(p, name, value, U_PLAIN, &v))
				return 0;
			if (v > 10000000)
				return perr(p, p->line,
					    "[%s] %s: more than 10 s",
					    p->cur_section, name);
			d->on_latency_ns = v * 1000;
		} else if (!strcmp(name, "off_latency_us")) {
			if (!get_num(p, name, value, U_PLAIN, &v))
				return 0;
			if (v > 10000000)
				return perr(p, p->line,
					    "[%s] %s: more than 10 s",
					    p->cur_section, name);
			d->off_latency_ns = v * 1000;
		} else if (!strcmp(name, "on_power_uw")) {
			if (!get_num(p, name, value, U_PLAIN, &v) ||
			    !fits_u32(p, name, value, v))
				return 0;
			d->on_power_uw = v;
		} else {
			if (!get_num(p, name, value, U_PLAIN, &v) ||
			    !fits_u32(p, name, value, v))
				return 0;
			d->off_power_uw = v;
		}
		return 1;
	}
	case S_CLOCK: {
		struct board_clock *c = &b->clock[p->idx];

		if (!strcmp(name, "parent"))
			return set_ref(p, c->parent_name, &c->parent_line,
				       value, name);
		if (!strcmp(name, "rate") || !strcmp(name, "min_rate") ||
		    !strcmp(name, "max_rate")) {
			if (!get_num(p, name, value, U_RATE, &v))
				return 0;
			if (!v)
				return perr(p, p->line, "[%s] %s: must not be 0",
					    p->cur_section, name);
			if (name[0] == 'r')
				c->rate_hz = v;
			else if (name[1] == 'i')
				c->min_rate_hz = v;
			else
				c->max_rate_hz = v;
			return 1;
		}
		if (!strcmp(name, "initial")) {
			if (strcmp(value, "on") && strcmp(value, "off"))
				return perr(p, p->line,
					    "[%s] initial: '%s' is not on/off",
					    p->cur_section, value);
			c->initially_on = !strcmp(value, "on");
			return 1;
		}
		if (!get_bool(p, name, value, &bv))
			return 0;
		if (bv)
			c->flags |= !strcmp(name, "gate") ? VSOC_CLK_GATE :
				    !strcmp(name, "set_rate") ? VSOC_CLK_SET_RATE :
				    VSOC_CLK_CRITICAL;
		return 1;
	}
	case S_PERIPH: {
		struct board_periph *pe = &b->periph[p->idx];

		if (!strcmp(name, "domain"))
			return set_ref(p, pe->domain_name, &pe->domain_line,
				       value, name);
		if (!strcmp(name, "clock"))
			return set_ref(p, pe->clock_name, &pe->clock_line,
				       value, name);
		if (!strcmp(name, "type")) {
			if (!strcmp(value, "timer"))
				pe->type = VSOC_PERIPH_TIMER;
			else if (!strcmp(value, "sensor"))
				pe->type = VSOC_PERIPH_SENSOR;
			else if (!strcmp(value, "dma"))
				pe->type = VSOC_PERIPH_DMA;
			else if (!strcmp(value, "simple"))
				pe->type = VSOC_PERIPH_SIMPLE;
			else
				return perr(p, p->line,
					    "[%s] type: unknown type '%s' (timer, sensor, dma, simple)",
					    p->cur_section, value);
		} else if (!strcmp(name, "active_power_uw")) {
			if (!get_num(p, name, value, U_PLAIN, &v) ||
			    !fits_u32(p, name, value, v))
				return 0;
			pe->active_power_uw = v;
		} else if (!strcmp(name, "data_size")) {
			if (!get_num(p, name, value, U_SIZE, &v))
				return 0;
			if (v > 16ull << 20)
				return perr(p, p->line,
					    "[%s] data_size: more than 16M",
					    p->cur_section);
			pe->data_size = v;
		} else {
			if (!get_num(p, name, value, U_PLAIN, &v))
				return 0;
			if (!v || v > 1000000)
				return perr(p, p->line,
					    "[%s] bandwidth: must be 1..1000000 bytes/us",
					    p->cur_section);
			pe->bandwidth = v;
		}
		return 1;
	}
	case S_CORE: {
		struct board_core *c = &b->core[p->idx];

		if (!strcmp(name, "domain"))
			return set_ref(p, c->domain_name, &c->domain_line,
				       value, name);
		if (!strcmp(name, "clock"))
			return set_ref(p, c->clock_name, &c->clock_line,
				       value, name);
		if (!strcmp(name, "mem_domain"))
			return set_ref(p, c->mem_domain_name,
				       &c->mem_domain_line, value, name);
		if (!strcmp(name, "rpmsg_static"))
			return parse_chan(p, c, value);
		if (!strcmp(name, "ddr"))
			return parse_ddr(p, c, value);
		if (!strcmp(name, "firewall")) {
			if (!get_bool(p, name, value, &bv))
				return 0;
			c->firewall_setting = bv;
			c->firewall_line = p->line;
			return 1;
		}
		if (!strcmp(name, "isa"))
			return parse_isa(p, c, value);
		if (!strncmp(name, "resmgr_", 7)) {
			int kind = !strcmp(name, "resmgr_clocks");

			snprintf(c->resmgr_text[kind], sizeof(c->resmgr_text[kind]),
				 "%s", value);
			c->resmgr_line[kind] = p->line;
			return 1;
		}
		return parse_mem(p, c, value);
	}
	case S_MBOX: {
		struct board_mbox *m = &b->mbox[p->idx];

		if (!strcmp(name, "from"))
			return set_ref(p, m->from_name, &m->from_line, value,
				       name);
		if (!strcmp(name, "to"))
			return set_ref(p, m->to_name, &m->to_line, value, name);
		if (!get_num(p, name, value, U_PLAIN, &v) ||
		    !fits_u32(p, name, value, v))
			return 0;
		if (v < 2 || v > VSOC_MBOX_MAX_DEPTH || (v & (v - 1)))
			return perr(p, p->line,
				    "[%s] depth: must be a power of two in 2..%d",
				    p->cur_section, VSOC_MBOX_MAX_DEPTH);
		m->depth = v;
		return 1;
	}
	default:
		return perr(p, p->line, "internal: no section");
	}
}

static int find_domain(const struct board *b, const char *name)
{
	unsigned int i;

	for (i = 0; i < b->nr_domains; i++)
		if (!strcmp(b->domain[i].name, name))
			return i;
	return -1;
}

static int find_clock(const struct board *b, const char *name)
{
	unsigned int i;

	for (i = 0; i < b->nr_clocks; i++)
		if (!strcmp(b->clock[i].name, name))
			return i;
	return -1;
}

static int find_core(const struct board *b, const char *name)
{
	unsigned int i;

	for (i = 0; i < b->nr_cores; i++)
		if (!strcmp(b->core[i].name, name))
			return i;
	return -1;
}

static bool overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * An emulated core has its own devices at fixed device addresses
 * (docs/cores.md, "The runner's options"); no memory may cover them.
 */
static int check_mem_devices(struct parser *p, unsigned int i, unsigned int j)
{
	static const struct {
		uint32_t isa;
		uint64_t da, size;
		const char *what;
	} dev[] = {
		{ AMPSOC_CORE_ISA_ARMV7M, 0x40000000, 0x1000, "the core peripheral" },
		{ AMPSOC_CORE_ISA_ARMV7M, 0xe0000000, 0x20000000, "the system region" },
		{ AMPSOC_CORE_ISA_RV32IMAC, 0x0c000000, 0x04001000,
		  "the PLIC and the core peripheral" },
	};
	const struct board_core *c = &p->b->core[i];
	const struct board_mem *m = &c->mem[j];
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(dev); k++)
		if (dev[k].isa == c->isa &&
		    overlap(m->da, m->size, dev[k].da, dev[k].size)) {
			perr(p, m->line,
			     "[core %s] mem %s: device addresses [0x%llx, 0x%llx) overlap %s at 0x%llx",
			     c->name, m->name, (unsigned long long)m->da,
			     (unsigned long long)(m->da + m->size), dev[k].what,
			     (unsigned long long)dev[k].da);
			return -1;
		}
	return 0;
}

/* Does mem @j of core @i overlap one declared before it? */
static int check_mem(struct parser *p, unsigned int i, unsigned int j)
{
	const struct board *b = p->b;
	const struct board_mem *m = &b->core[i].mem[j];
	unsigned int k, l;

	for (k = 0; k <= i; k++) {
		unsigned int lmax = k == i ? j : b->core[k].nr_mems;

		for (l = 0; l < lmax; l++) {
			const struct board_mem *o = &b->core[k].mem[l];

			if (overlap(m->shm_off, m->size, o->shm_off, o->size)) {
				perr(p, m->line,
				     "[core %s] mem %s: shm [0x%llx, 0x%llx) overlaps core '%s' mem %s (line %d)",
				     b->core[i].name, m->name,
				     (unsigned long long)m->shm_off,
				     (unsigned long long)(m->shm_off + m->size),
				     b->core[k].name, o->name, o->line);
				return -1;
			}
			if (k == i && overlap(m->da, m->size, o->da, o->size)) {
				perr(p, m->line,
				     "[core %s] mem %s: device addresses [0x%llx, 0x%llx) overlap mem %s (line %d)",
				     b->core[i].name, m->name,
				     (unsigned long long)m->da,
				     (unsigned long long)(m->da + m->size),
				     o->name, o->line);
				return -1;
			}
		}
	}
	if (b->core[i].ddr_size &&
	    overlap(m->da, m->size, b->core[i].ddr_da, b->core[i].ddr_size)) {
		perr(p, b->core[i].ddr_line,
		     "[core %s] ddr: device addresses [0x%llx, 0x%llx) overlap mem %s (line %d)",
		     b->core[i].name, (unsigned long long)b->core[i].ddr_da,
		     (unsigned long long)(b->core[i].ddr_da + b->core[i].ddr_size),
		     m->name, m->line);
		return -1;
	}
	return check_mem_devices(p, i, j);
}

/*
 * resmgr_domains / resmgr_clocks = NAME[, NAME...]: the domains or clocks
 * the core may ask Linux for, as a bit per index of the board. Errors go
 * to p->failed, as perr() does.
 */
static int resolve_resmgr(struct parser *p, struct board_core *c, int kind)
{
	const struct board *b = p->b;
	const char *key = kind ? "resmgr_clocks" : "resmgr_domains";
	char tmp[256], *item, *save = NULL, *e;
	uint32_t mask = 0;
	int idx;

	if (!c->resmgr_line[kind])
		return 0;
	snprintf(tmp, sizeof(tmp), "%s", c->resmgr_text[kind]);
	/* a trailing or doubled comma is an empty name */
	if (!tmp[0] || tmp[strlen(tmp) - 1] == ',' || strstr(tmp, ",,"))
		return perr(p, c->resmgr_line[kind],
			    "[core %s] %s: empty name in '%s' (a comma-separated list)",
			    c->name, key, c->resmgr_text[kind]);
	for (item = strtok_r(tmp, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		while (*item == ' ' || *item == '\t')
			item++;
		e = item + strlen(item);
		while (e > item && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (!valid_name(item))
			return perr(p, c->resmgr_line[kind],
				    "[core %s] %s: bad name '%s'", c->name, key,
				    item);
		idx = kind ? find_clock(b, item) : find_domain(b, item);
		if (idx < 0)
			return perr(p, c->resmgr_line[kind],
				    "[core %s] %s: unknown %s '%s'", c->name,
				    key, kind ? "clock" : "domain", item);
		if (mask & (1u << idx))
			return perr(p, c->resmgr_line[kind],
				    "[core %s] %s: '%s' listed twice", c->name,
				    key, item);
		mask |= 1u << idx;
	}
	if (kind)
		c->resmgr_clocks = mask;
	else
		c->resmgr_domains = mask;
	return 0;
}

void board_force_firewall(struct board *b, bool on)
{
	unsigned int i;

	for (i = 0; i < b->nr_cores; i++)
		b->core[i].firewall = on;
}

/*
 * Performance levels across domains (ABI 1.5): the total is bounded, and
 * perf_parent_ge needs levels here and in the parent, every one of this
 * domain's levels being one of the parent's (the kernel passes a level
 * number up unchanged, docs/pmdomain.md).
 */
static int resolve_levels(struct parser *p)
{
	struct board *b = p->b;
	unsigned int i, j, k;

	b->nr_levels = 0;
	for (i = 0; i < b->nr_domains; i++) {
		struct board_domain *d = &b->domain[i];
		const struct board_domain *pd;

		d->first_level = b->nr_levels;
		b->nr_levels += d->nr_levels;
		if (b->nr_levels > VSOC_MAX_PERF_LEVELS)
			return perr(p, d->levels_line,
				    "[domain %s] perf_levels: more than %d levels on the board",
				    d->name, VSOC_MAX_PERF_LEVELS);
		if (!(d->flags & VSOC_DOMAIN_PERF_PARENT_GE))
			continue;
		if (!d->nr_levels || d->parent == VSOC_NONE)
			return perr(p, d->parent_ge_line,
				    "[domain %s] perf_parent_ge: needs perf_levels and a parent",
				    d->name);
		pd = &b->domain[d->parent];
		for (j = 0; j < d->nr_levels; j++) {
			for (k = 0; k < pd->nr_levels; k++)
				if (pd->level[k].level == d->level[j].level)
					break;
			if (k == pd->nr_levels)
				return perr(p, d->parent_ge_line,
					    "[domain %s] perf_parent_ge: level %u is not a level of parent '%s'",
					    d->name, d->level[j].level,
					    pd->name);
		}
	}
	return 0;
}

/*
 * An IRQ-safe domain (ABI 1.6) is one the guest polls with interrupts
 * off: it switches fast, its parents are polled the same way, and it has
 * no performance levels (the guest sets those from process context only).
 */
static void resolve_irq_safe(struct parser *p, const struct board_domain *d)
{
	const struct board *b = p->b;

	if (!(d->flags & VSOC_DOMAIN_IRQ_SAFE))
		return;
	if (d->parent != VSOC_NONE &&
	    !(b->domain[d->parent].flags & VSOC_DOMAIN_IRQ_SAFE))
		perr(p, d->line,
		     "[domain %s]: irq_safe under parent '%s', which is not",
		     d->name, b->domain[d->parent].name);
	if (d->on_latency_ns > VSOC_IRQ_SAFE_MAX_LATENCY_NS ||
	    d->off_latency_ns > VSOC_IRQ_SAFE_MAX_LATENCY_NS)
		perr(p, d->line,
		     "[domain %s]: irq_safe needs on/off latencies of at most %u us",
		     d->name, VSOC_IRQ_SAFE_MAX_LATENCY_NS / 1000);
	if (d->nr_levels)
		perr(p, d->line, "[domain %s]: irq_safe with perf_levels",
		     d->name);
}

/* Resolve names to indexes and check the cross-section rules. */
static int resolve(struct parser *p)
{
	struct board *b = p->b;
	unsigned int i, j, n, to_guest = 0;
	int r;

	if (!b->nr_domains)
		return perr(p, p->line, "no [domain NAME] section");
	for (i = 0; i < b->nr_domains; i++) {
		struct board_domain *d = &b->domain[i];

		if (!d->parent_name[0])
			continue;
		r = find_domain(b, d->parent_name);
		if (r < 0)
			return perr(p, d->parent_line,
				    "[domain %s] parent: unknown domain '%s'",
				    d->name, d->parent_name);
		d->parent = r;
	}
	/* a cycle: walking up from any domain takes more than N steps */
	for (i = 0; i < b->nr_domains; i++) {
		uint32_t cur = i;

		for (n = 0; cur != VSOC_NONE && n <= b->nr_domains; n++)
			cur = b->domain[cur].parent;
		if (cur != VSOC_NONE) {
			char chain[200] = "";
			size_t len = 0;

			cur = i;
			for (n = 0; n <= b->nr_domains && len < 150; n++) {
				len += snprintf(chain + len, sizeof(chain) - len,
						"%s%s", n ? " -> " : "",
						b->domain[cur].name);
				cur = b->domain[cur].parent;
				if (cur == i) {
					snprintf(chain + len, sizeof(chain) - len,
						 " -> %s", b->domain[i].name);
					break;
				}
			}
			return perr(p, b->domain[i].parent_line,
				    "[domain %s] parent: hierarchy cycle %s",
				    b->domain[i].name, chain);
		}
	}
	for (i = 0; i < b->nr_domains; i++) {
		struct board_domain *d = &b->domain[i];

		if (d->initially_on && d->parent != VSOC_NONE &&
		    !b->domain[d->parent].initially_on)
			return perr(p, d->line,
				    "[domain %s]: initially on but parent '%s' is off",
				    d->name, b->domain[d->parent].name);
		if ((d->flags & VSOC_DOMAIN_STAY_ON) &&
		    (d->flags & VSOC_DOMAIN_ALWAYS_ON))
			return perr(p, d->line,
				    "[domain %s]: stay_on_until_sync on an always-on domain",
				    d->name);
		if ((d->flags & VSOC_DOMAIN_STAY_ON) && !d->initially_on)
			return perr(p, d->line,
				    "[domain %s]: stay_on_until_sync needs initial = on",
				    d->name);
		resolve_irq_safe(p, d);
		if (p->failed)
			return 0;
	}
	resolve_levels(p);
	if (p->failed)
		return 0;
	for (i = 0; i < b->nr_clocks; i++) {
		struct board_clock *c = &b->clock[i];

		if (c->parent_name[0]) {
			r = find_clock(b, c->parent_name);
			if (r < 0)
				return perr(p, c->parent_line,
					    "[clock %s] parent: unknown clock '%s'",
					    c->name, c->parent_name);
			c->parent = r;
		}
		if (!c->rate_hz)
			return perr(p, c->line, "[clock %s]: no rate", c->name);
		if (!c->min_rate_hz)
			c->min_rate_hz = c->rate_hz;
		if (!c->max_rate_hz)
			c->max_rate_hz = c->rate_hz;
		if (c->min_rate_hz > c->rate_hz || c->rate_hz > c->max_rate_hz)
			return perr(p, c->line,
				    "[clock %s]: need min_rate <= rate <= max_rate",
				    c->name);
		if (!(c->flags & VSOC_CLK_GATE) ||
		    (c->flags & VSOC_CLK_CRITICAL))
			c->initially_on = true;
	}
	for (i = 0; i < b->nr_clocks; i++) {
		uint32_t cur = i;

		for (n = 0; cur != VSOC_NONE && n <= b->nr_clocks; n++)
			cur = b->clock[cur].parent;
		if (cur != VSOC_NONE)
			return perr(p, b->clock[i].parent_line,
				    "[clock %s] parent: clock tree cycle through '%s'",
				    b->clock[i].name,
				    b->clock[b->clock[i].parent].name);
		if (b->clock[i].initially_on && b->clock[i].parent != VSOC_NONE &&
		    !b->clock[b->clock[i].parent].initially_on)
			return perr(p, b->clock[i].line,
				    "[clock %s]: runs at start but parent '%s' is gated",
				    b->clock[i].name,
				    b->clock[b->clock[i].parent].name);
	}
	for (i = 0; i < b->nr_periphs; i++) {
		struct board_periph *pe = &b->periph[i];

		if (!pe->type)
			return perr(p, pe->line, "[periph %s]: no type",
				    pe->name);
		if (!pe->domain_name[0])
			return perr(p, pe->line, "[periph %s]: no domain",
				    pe->name);
		r = find_domain(b, pe->domain_name);
		if (r < 0)
			return perr(p, pe->domain_line,
				    "[periph %s] domain: unknown domain '%s'",
				    pe->name, pe->domain_name);
		pe->domain = r;
		pe->vector_guest = VSOC_VEC_PERIPH;
		if (pe->clock_name[0]) {
			r = find_clock(b, pe->clock_name);
			if (r < 0)
				return perr(p, pe->clock_line,
					    "[periph %s] clock: unknown clock '%s'",
					    pe->name, pe->clock_name);
			pe->clock = r;
		}
		if (pe->data_size == ~0ull)
			pe->data_size = pe->type == VSOC_PERIPH_SENSOR ? 64 << 10 :
					pe->type == VSOC_PERIPH_DMA ? 256 << 10 : 0;
		if (pe->type == VSOC_PERIPH_SENSOR &&
		    pe->data_size < sizeof(struct vsoc_sensor_sample))
			return perr(p, pe->line,
				    "[periph %s]: a sensor needs a data window",
				    pe->name);
		if (pe->type == VSOC_PERIPH_DMA && pe->data_size < 2)
			return perr(p, pe->line,
				    "[periph %s]: a DMA engine needs a data window",
				    pe->name);
	}
	for (i = 0; i < b->nr_cores; i++) {
		struct board_core *c = &b->core[i];

		if (!c->domain_name[0])
			return perr(p, c->line, "[core %s]: no domain", c->name);
		r = find_domain(b, c->domain_name);
		if (r < 0)
			return perr(p, c->domain_line,
				    "[core %s] domain: unknown domain '%s'",
				    c->name, c->domain_name);
		c->domain = r;
		if (b->domain[r].flags & VSOC_DOMAIN_ALWAYS_ON)
			return perr(p, c->domain_line,
				    "[core %s] domain: '%s' is always on; a core needs its own domain",
				    c->name, c->domain_name);
		for (j = 0; j < i; j++)
			if (b->core[j].domain == c->domain)
				return perr(p, c->domain_line,
					    "[core %s] domain: '%s' already holds core '%s'",
					    c->name, c->domain_name,
					    b->core[j].name);
		b->domain[r].flags |= VSOC_DOMAIN_CORE;
		if (c->mem_domain_name[0]) {
			r = find_domain(b, c->mem_domain_name);
			if (r < 0)
				return perr(p, c->mem_domain_line,
					    "[core %s] mem_domain: unknown domain '%s'",
					    c->name, c->mem_domain_name);
			if ((uint32_t)r == c->domain)
				return perr(p, c->mem_domain_line,
					    "[core %s] mem_domain: '%s' is the core's own domain",
					    c->name, c->mem_domain_name);
			c->mem_domain = r;
		}
		if (c->clock_name[0]) {
			r = find_clock(b, c->clock_name);
			if (r < 0)
				return perr(p, c->clock_line,
					    "[core %s] clock: unknown clock '%s'",
					    c->name, c->clock_name);
			c->clock = r;
		}
		if (!c->nr_mems)
			return perr(p, c->line, "[core %s]: no mem", c->name);
		resolve_resmgr(p, c, BOARD_RESMGR_DOMAINS);
		resolve_resmgr(p, c, BOARD_RESMGR_CLOCKS);
		if (p->failed)
			return 0;
		c->firewall = c->firewall_setting >= 0 ? c->firewall_setting :
			      b->firewall_setting != 0;
	}
	/* overlapping memory, in shm (all cores) and in each core's DA space */
	for (i = 0; i < b->nr_cores; i++)
		for (j = 0; j < b->core[i].nr_mems; j++)
			if (check_mem(p, i, j))
				return 0;
	for (i = 0; i < b->nr_mboxes; i++) {
		struct board_mbox *m = &b->mbox[i];
		int from_core, to_core;

		if (!m->from_name[0] || !m->to_name[0])
			return perr(p, m->line, "[mbox %s]: needs from and to",
				    m->name);
		from_core = strcmp(m->from_name, "linux") ?
			    find_core(b, m->from_name) : -2;
		to_core = strcmp(m->to_name, "linux") ?
			  find_core(b, m->to_name) : -2;
		if (from_core == -1)
			return perr(p, m->from_line,
				    "[mbox %s] from: unknown core '%s' (or 'linux')",
				    m->name, m->from_name);
		if (to_core == -1)
			return perr(p, m->to_line,
				    "[mbox %s] to: unknown core '%s' (or 'linux')",
				    m->name, m->to_name);
		if ((from_core == -2) == (to_core == -2))
			return perr(p, m->line,
				    "[mbox %s]: a channel links linux and one core",
				    m->name);
		if (from_core == -2) {
			m->from = VSOC_MBOX_EP_GUEST;
			m->to = to_core;
			m->peer = VSOC_PEER_CORE_BASE + to_core;
			m->vector = VSOC_VEC_MBOX_BASE;
			if (b->core[to_core].mbox_tx == VSOC_NONE)
				b->core[to_core].mbox_tx = i;
		} else {
			m->from = from_core;
			m->to = VSOC_MBOX_EP_GUEST;
			m->peer = VSOC_PEER_GUEST;
			m->vector = VSOC_VEC_MBOX_BASE + to_guest++;
			if (m->vector >= VSOC_NR_VECTORS)
				return perr(p, m->line,
					    "[mbox %s]: more than %d channels towards linux",
					    m->name,
					    VSOC_NR_VECTORS - VSOC_VEC_MBOX_BASE);
			if (b->core[from_core].mbox_rx == VSOC_NONE)
				b->core[from_core].mbox_rx = i;
		}
	}
	if (!b->name[0])
		copy_name(b->name, "board");
	return 0;
}

static uint64_t table_bytes(const struct board *b)
{
	uint64_t s = sizeof(struct vsoc_board_header);
	unsigned int mems = 0, chans = 0, i;

	for (i = 0; i < b->nr_cores; i++) {
		mems += b->core[i].nr_mems;
		chans += b->core[i].nr_chans;
	}
	s += b->nr_domains * sizeof(struct vsoc_domain_desc);
	s += b->nr_clocks * sizeof(struct vsoc_clock_desc);
	s += b->nr_periphs * sizeof(struct vsoc_periph_desc);
	s += b->nr_cores * sizeof(struct vsoc_core_desc);
	s += mems * sizeof(struct vsoc_mem_desc);
	s += b->nr_mboxes * sizeof(struct vsoc_mbox_desc);
	s += chans * sizeof(struct vsoc_chan_desc);
	s += b->nr_levels * sizeof(struct vsoc_level_desc);
	return s;
}

static int layout(struct parser *p)
{
	struct board *b = p->b;
	uint64_t off, need, sz;
	unsigned int i, j;

	b->table_size = table_bytes(b);
	off = VSOC_MAX_TABLE_SIZE;
	b->telem_off = off;
	off += align_up(sizeof(struct vsoc_telemetry), VSOC_PAGE_SIZE);
	b->pwr_off = off;
	off += align_up(b->nr_domains * sizeof(struct vsoc_req_slot) + 1,
			VSOC_PAGE_SIZE);
	b->clk_off = off;
	off += align_up(b->nr_clocks * sizeof(struct vsoc_req_slot) + 1,
			VSOC_PAGE_SIZE);
	b->echo_off = off;
	off += VSOC_PAGE_SIZE;
	b->fault_off = off;
	off += VSOC_PAGE_SIZE;
	b->core_ctl_off = off;
	for (i = 0; i < b->nr_cores; i++)
		b->core[i].ctl_off = off + i * sizeof(struct vsoc_core_ctl);
	off += VSOC_PAGE_SIZE;
	for (i = 0; i < b->nr_mboxes; i++) {
		b->mbox[i].fifo_off = off;
		b->mbox[i].fifo_size = sizeof(struct vsoc_mbox_fifo) +
				       4ull * b->mbox[i].depth;
		off += align_up(b->mbox[i].fifo_size, VSOC_PAGE_SIZE);
	}
	for (i = 0; i < b->nr_periphs; i++) {
		b->periph[i].regs_off = off;
		off += VSOC_PAGE_SIZE;
		b->periph[i].data_off = off;
		off += align_up(b->periph[i].data_size, VSOC_PAGE_SIZE);
	}
	b->sys_end = off;
	need = off;
	for (i = 0; i < b->nr_cores; i++)
		for (j = 0; j < b->core[i].nr_mems; j++) {
			struct board_mem *m = &b->core[i].mem[j];

			if (m->shm_off < b->sys_end)
				return perr(p, m->line,
					    "[core %s] mem %s: shm offset 0x%llx overlaps the model's areas, which end at 0x%llx",
					    b->core[i].name, m->name,
					    (unsigned long long)m->shm_off,
					    (unsigned long long)b->sys_end);
			if (m->shm_off + m->size > need)
				need = m->shm_off + m->size;
		}
	if (b->shm_size) {
		if (b->shm_size & (b->shm_size - 1))
			return perr(p, b->shm_line, "[soc] shm_size: 0x%llx is not a power of two",
				    (unsigned long long)b->shm_size);
		if (b->shm_size < need)
			return perr(p, b->shm_line,
				    "[soc] shm_size: 0x%llx is smaller than the 0x%llx bytes the board needs",
				    (unsigned long long)b->shm_size,
				    (unsigned long long)need);
	} else {
		for (sz = 1 << 20; sz < need; sz <<= 1)
			;
		b->shm_size = sz;
	}
	if (b->shm_size > 1ull << 32)
		return perr(p, 1, "[soc] shared memory larger than 4G");
	return 0;
}

int board_parse(struct board *b, const char *path, const char *buf,
		size_t len, char *err, size_t errlen)
{
	struct parser p = {
		.b = b, .path = path, .buf = buf, .end = buf + len,
		.pos = buf, .err = err, .errlen = errlen,
	};
	int r;

	memset(b, 0, sizeof(*b));
	b->firewall_setting = -1;
	snprintf(b->path, sizeof(b->path), "%s", path);
	if (errlen)
		err[0] = '\0';
	ini_allow_multiline = false;
	ini_stop_on_first_error = true;
	r = ini_parse_stream(reader, &p, handler, &p);
	if (r > 0 && !p.failed)
		perr(&p, r, "syntax error (expected [section] or key = value)");
	else if (r < 0 && !p.failed)
		perr(&p, 0, "cannot parse (error %d)", r);
	if (p.failed)
		return -1;
	resolve(&p);
	if (!p.failed)
		layout(&p);
	return p.failed ? -1 : 0;
}

int board_load(struct board *b, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int r;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(1 << 20);
	if (!buf) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	n = fread(buf, 1, 1 << 20, f);
	if (ferror(f) || n == 1 << 20) {
		snprintf(err, errlen, "%s: %s", path,
			 ferror(f) ? "read error" : "larger than 1 MiB");
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	r = board_parse(b, path, buf, n, err, errlen);
	free(buf);
	return r;
}
