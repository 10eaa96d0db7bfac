// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test: the SoC state machine, driven the way the guest drives
 * it (request slots, register blocks, doorbells) with a virtual clock:
 * power and clock rules, violations, peripherals, energy integration,
 * garbage slots, fault injection, remote-core control and crashes, the
 * vring firewall (regions checked and cut to pages, fault records).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "soc.h"
#include "ktap_user.h"

static const char board_text[] =
	"[soc]\nname = t\n"
	"[domain aon]\nalways_on = yes\non_power_uw = 1000\n"
	"[domain per]\nparent = aon\non_latency_us = 50\noff_latency_us = 20\n"
	"on_power_uw = 12000\noff_power_uw = 300\n"
	"[domain sub]\nparent = per\non_latency_us = 30\noff_latency_us = 10\n"
	"on_power_uw = 5000\n"
	"[domain cpu]\nparent = aon\non_latency_us = 100\n"
	"[clock osc]\nrate = 10M\n"
	"[clock fck]\nparent = osc\nrate = 1M\ngate = yes\nset_rate = yes\n"
	"min_rate = 500k\nmax_rate = 2M\n"
	"[clock sub_fck]\nparent = fck\nrate = 1M\ngate = yes\n"
	"[periph tmr]\ntype = timer\ndomain = per\nclock = fck\nactive_power_uw = 100\n"
	"[periph sns]\ntype = sensor\ndomain = sub\nclock = sub_fck\ndata_size = 4K\n"
	"[periph dma]\ntype = dma\ndomain = sub\nclock = sub_fck\ndata_size = 8K\n"
	"bandwidth = 100\nactive_power_uw = 2000\n"
	"[periph gp]\ntype = simple\ndomain = per\n"
	"[core m3]\ndomain = cpu\nmem = ram:0x100000:0x0:64K:exec\n"
	"[mbox tx]\nfrom = linux\nto = m3\n"
	"[mbox rx]\nfrom = m3\nto = linux\n";

enum { AON, PER, SUB, CPU };
enum { OSC, FCK, SUB_FCK };
enum { TMR, SNS, DMA, GP };

static struct board b;
static struct soc s;
static uint8_t *shm;
static unsigned int rings[VSOC_NR_VECTORS], core_rings, starts, stops;
static uint64_t last_entry;
static struct soc_ro last_ro[SOC_RO_MAX];
static unsigned int last_nr_ro;
static int start_result;

static uint32_t per_state_at_ring = ~0u, clk_rate_at_ring;

static void cb_ring(void *ctx, unsigned int peer, unsigned int vector)
{
	/* what a guest woken by this ring would read */
	if (peer == VSOC_PEER_GUEST && vector == VSOC_VEC_PWR)
		per_state_at_ring = s.telem->domains[1].state;
	if (peer == VSOC_PEER_GUEST && vector == VSOC_VEC_CLK)
		clk_rate_at_ring = s.telem->clocks[1].rate_hz;
	if (peer == VSOC_PEER_GUEST && vector < VSOC_NR_VECTORS)
		rings[vector]++;
	else
		core_rings++;
}

static int cb_start(void *ctx, unsigned int core, uint64_t entry,
		    const struct soc_ro *ro, unsigned int nr_ro)
{
	starts++;
	last_entry = entry;
	last_nr_ro = nr_ro;
	memcpy(last_ro, ro, nr_ro * sizeof(*ro));
	return start_result;
}

static void cb_stop(void *ctx, unsigned int core)
{
	stops++;
}

static const struct soc_ops ops = { cb_ring, cb_start, cb_stop };

static void advance(uint64_t ns)
{
	soc_set_time(&s, s.now + ns);
	soc_run_due(&s);
}

static struct vsoc_req_slot *pwr_req(unsigned int d, uint32_t op)
{
	struct vsoc_req_slot *sl = &s.pwr[d];

	sl->op = op;
	sl->req_seq++;
	soc_doorbell(&s, VSOC_VEC_PWR);
	soc_run_due(&s);
	return sl;
}

/* a request plus enough time for any latency */
static int pwr(unsigned int d, uint32_t op)
{
	struct vsoc_req_slot *sl = pwr_req(d, op);

	advance(1000000);
	return sl->ack_seq == sl->req_seq ? (int)sl->status : 1000;
}

static int clk(unsigned int c, uint32_t op, uint64_t arg)
{
	struct vsoc_req_slot *sl = &s.clk[c];

	sl->op = op;
	sl->arg = arg;
	sl->req_seq++;
	soc_doorbell(&s, VSOC_VEC_CLK);
	return sl->ack_seq == sl->req_seq ? (int)sl->status : 1000;
}

static struct vsoc_periph_regs *regs(unsigned int i)
{
	return (void *)(shm + b.periph[i].regs_off);
}

static int cmd(unsigned int i, uint32_t c, uint64_t a0, uint64_t a1,
	       uint64_t a2, uint64_t a3, uint64_t a4)
{
	struct vsoc_periph_regs *r = regs(i);

	r->arg[0] = a0;
	r->arg[1] = a1;
	r->arg[2] = a2;
	r->arg[3] = a3;
	r->arg[4] = a4;
	r->cmd = c;
	r->cmd_seq++;
	soc_doorbell(&s, VSOC_VEC_PERIPH);
	return r->cmd_ack == r->cmd_seq ? (int)r->cmd_result : 1000;
}

static struct vsoc_core_ctl *ctl(void)
{
	return (void *)(shm + b.core[0].ctl_off);
}

static int core(uint32_t op, uint64_t boot)
{
	struct vsoc_core_ctl *c = ctl();

	c->boot_addr = boot;
	c->op = op;
	c->req_seq++;
	soc_doorbell(&s, VSOC_VEC_CORE);
	return c->ack_seq == c->req_seq ? (int)c->status : 1000;
}

static void fresh(void)
{
	char err[256];

	if (s.b)
		soc_free(&s);
	memset(shm, 0, b.shm_size);
	memset(rings, 0, sizeof(rings));
	core_rings = 0;
	starts = 0;
	stops = 0;
	start_result = 0;
	if (soc_init(&s, &b, shm, b.shm_size, &ops, NULL) ||
	    table_check(shm, VSOC_MAX_TABLE_SIZE, b.shm_size, err, sizeof(err))) {
		printf("Bail out! init failed: %s\n", err);
		exit(1);
	}
	soc_set_time(&s, 1000);
}

/*
 * The model runs Linux's checker on the table it wrote and publishes
 * nothing that fails it: a board damaged after parsing (a domain cycle the
 * parser would have refused) must not start.
 */
static void test_publish_checked(void)
{
	static struct board bad;
	struct soc t;
	int r;

	bad = b;
	bad.domain[0].parent = 1;
	bad.domain[1].parent = 0;
	memset(shm, 0, b.shm_size);
	r = soc_init(&t, &bad, shm, bad.shm_size, &ops, NULL);
	ktap_ok(r == -EPROTO &&
		((struct vsoc_board_header *)shm)->magic != VSOC_MAGIC,
		"bad_table_not_published");
}

static uint32_t last_rule(void)
{
	return s.telem->last[(s.telem->violations - 1) %
			     VSOC_TELEM_VIOLATIONS].rule;
}

static void test_power(void)
{
	struct vsoc_req_slot *sl;
	uint32_t v;

	fresh();
	sl = pwr_req(PER, VSOC_PWR_OP_ON);
	ktap_ok(sl->ack_seq != sl->req_seq &&
		s.telem->domains[PER].state == VSOC_PWR_GOING_ON &&
		rings[VSOC_VEC_PWR] == 0, "power_on_waits_for_latency");
	advance(49999);
	ktap_ok(sl->ack_seq != sl->req_seq, "power_on_not_before_latency");
	advance(1);
	ktap_ok(sl->ack_seq == sl->req_seq && sl->status == 0 &&
		sl->state == VSOC_PWR_ON && rings[VSOC_VEC_PWR] == 1 &&
		s.telem->domains[PER].state == VSOC_PWR_ON &&
		s.telem->domains[PER].on_count == 1, "power_on_completes_and_rings");
	ktap_ok(soc_next_deadline(&s) == UINT64_MAX, "no_deadline_when_idle");
	ktap_ok(per_state_at_ring == VSOC_PWR_ON && !(s.telem->seq & 1),
		"telemetry_current_before_completion_ring");

	fresh();
	v = s.violations;
	ktap_ok(pwr(SUB, VSOC_PWR_OP_ON) == -VSOC_EPERM &&
		s.violations == v + 1 && last_rule() == VSOC_RULE_PARENT_OFF &&
		s.telem->domains[SUB].state == VSOC_PWR_OFF,
		"child_on_with_parent_off_refused");
	ktap_ok(pwr(PER, VSOC_PWR_OP_ON) == 0 && pwr(SUB, VSOC_PWR_OP_ON) == 0,
		"parents_first_works");
	v = s.violations;
	ktap_ok(pwr(PER, VSOC_PWR_OP_OFF) == -VSOC_EPERM &&
		s.violations == v + 1 && last_rule() == VSOC_RULE_CHILD_ON &&
		s.telem->domains[PER].state == VSOC_PWR_ON,
		"parent_off_with_child_on_refused");
	ktap_ok(pwr(SUB, VSOC_PWR_OP_OFF) == 0 && pwr(PER, VSOC_PWR_OP_OFF) == 0 &&
		s.telem->domains[PER].off_count == 1, "children_first_off_works");
	v = s.violations;
	ktap_ok(pwr(AON, VSOC_PWR_OP_OFF) == -VSOC_EPERM &&
		last_rule() == VSOC_RULE_ALWAYS_ON && s.violations == v + 1,
		"always_on_off_refused");
	ktap_ok(pwr(PER, VSOC_PWR_OP_OFF) == 0 && s.violations == v + 1,
		"off_when_off_is_harmless");
}

/*
 * Stay on until sync (1.5): a stay-on domain powered off before the
 * guest's VSOC_PWR_OP_SYNC is a violation (and still goes off); after
 * the sync it is not; the op is garbage on any other domain.
 */
static void test_stay_on(void)
{
	uint32_t v, g;

	b.domain[PER].flags |= VSOC_DOMAIN_STAY_ON;
	b.domain[PER].initially_on = true;
	fresh();
	ktap_ok(s.telem->domains[PER].state == VSOC_PWR_ON, "stay_on_starts_on");
	v = s.violations;
	ktap_ok(pwr(PER, VSOC_PWR_OP_OFF) == 0 && s.violations == v + 1 &&
		last_rule() == VSOC_RULE_STAY_ON &&
		s.telem->domains[PER].state == VSOC_PWR_OFF,
		"stay_on_off_before_sync_flagged");

	fresh();
	v = s.violations;
	ktap_ok(pwr(PER, VSOC_PWR_OP_SYNC) == 0 &&
		s.telem->domains[PER].state == VSOC_PWR_ON &&
		s.pwr[PER].state == VSOC_PWR_ON, "stay_on_sync_keeps_state");
	ktap_ok(pwr(PER, VSOC_PWR_OP_OFF) == 0 && s.violations == v &&
		s.telem->domains[PER].state == VSOC_PWR_OFF,
		"stay_on_off_after_sync_clean");
	ktap_ok(pwr(PER, VSOC_PWR_OP_ON) == 0 && pwr(PER, VSOC_PWR_OP_SYNC) == 0 &&
		pwr(PER, VSOC_PWR_OP_OFF) == 0 && s.violations == v,
		"stay_on_sync_again_harmless");
	g = s.garbage;
	ktap_ok(pwr(CPU, VSOC_PWR_OP_SYNC) == -VSOC_EINVAL && s.garbage == g + 1,
		"sync_on_plain_domain_is_garbage");
	b.domain[PER].flags &= ~VSOC_DOMAIN_STAY_ON;
	b.domain[PER].initially_on = false;
}

static void test_garbage(void)
{
	struct vsoc_req_slot *sl;
	unsigned int i, g;
	uint32_t seed = 12345;

	fresh();
	g = s.garbage;
	sl = &s.pwr[PER];
	sl->op = 99;
	sl->req_seq++;
	soc_doorbell(&s, VSOC_VEC_PWR);
	ktap_ok(sl->ack_seq == sl->req_seq && sl->status == (uint32_t)-VSOC_EINVAL &&
		s.garbage == g + 1 && s.telem->garbage == g + 1,
		"garbage_op_rejected_and_counted");
	sl->op = VSOC_PWR_OP_ON;
	sl->reserved0 = 7;
	sl->req_seq++;
	soc_doorbell(&s, VSOC_VEC_PWR);
	ktap_ok(sl->status == (uint32_t)-VSOC_EINVAL && s.garbage == g + 2 &&
		s.telem->domains[PER].state == VSOC_PWR_OFF,
		"garbage_reserved_field_rejected");
	sl->reserved0 = 0;
	pwr_req(PER, VSOC_PWR_OP_ON);
	sl->req_seq++;		/* rewritten while in flight */
	soc_doorbell(&s, VSOC_VEC_PWR);
	ktap_ok(s.garbage == g + 3, "slot_rewritten_in_flight_counted");
	advance(1000000);
	ktap_ok(clk(OSC, VSOC_CLK_OP_GATE, 0) == -VSOC_EINVAL &&
		s.garbage == g + 4, "gate_of_ungateable_clock_is_garbage");
	ktap_ok(cmd(GP, 77, 0, 0, 0, 0, 0) == -VSOC_EINVAL && s.garbage == g + 5,
		"unknown_periph_command_is_garbage");
	regs(GP)->type = 3;
	soc_doorbell(&s, VSOC_VEC_PERIPH);
	ktap_ok(regs(GP)->type == VSOC_PERIPH_SIMPLE && s.garbage == g + 6,
		"read_only_register_restored");

	/* random bytes everywhere the guest may write, every vector */
	for (i = 0; i < 20000; i++) {
		unsigned int k;
		uint8_t *p;
		size_t len;

		seed = seed * 1103515245 + 12345;
		switch (seed >> 29) {
		case 0:
			p = (void *)s.pwr;
			len = b.nr_domains * 64;
			break;
		case 1:
			p = (void *)s.clk;
			len = b.nr_clocks * 64;
			break;
		case 2:
			p = (void *)regs(seed % 4);
			len = sizeof(struct vsoc_periph_regs);
			break;
		case 3:
			p = (void *)ctl();
			len = sizeof(struct vsoc_core_ctl);
			break;
		case 4:
			p = (void *)s.echo;
			len = sizeof(struct vsoc_echo);
			break;
		default:
			p = shm + b.mbox[1].fifo_off;
			len = 128;
			break;
		}
		for (k = 0; k < 4; k++) {
			seed = seed * 1103515245 + 12345;
			p[(seed >> 8) % len] = seed >> 16;
		}
		soc_doorbell(&s, (seed >> 4) % VSOC_NR_VECTORS);
		advance((seed >> 12) % 100000);
	}
	ktap_ok(s.garbage > g + 100, "random_garbage_survived");
	ktap_diag("garbage %u, violations %u after 20000 random writes",
		  s.garbage, s.violations);
}

static void test_clocks(void)
{
	uint32_t v;

	fresh();
	v = s.violations;
	ktap_ok(clk(SUB_FCK, VSOC_CLK_OP_UNGATE, 0) == -VSOC_EPERM &&
		last_rule() == VSOC_RULE_CLK_PARENT_GATED && s.violations == v + 1,
		"ungate_with_parent_gated_refused");
	ktap_ok(clk(FCK, VSOC_CLK_OP_UNGATE, 0) == 0 &&
		clk(SUB_FCK, VSOC_CLK_OP_UNGATE, 0) == 0 &&
		s.telem->clocks[SUB_FCK].state == VSOC_CLK_RUNNING &&
		rings[VSOC_VEC_CLK] == 3, "ungate_parents_first");
	ktap_ok(clk(FCK, VSOC_CLK_OP_SET_RATE, 3000000) == -VSOC_ERANGE &&
		s.telem->clocks[FCK].rate_hz == 1000000, "set_rate_out_of_range");
	ktap_ok(clk(FCK, VSOC_CLK_OP_SET_RATE, 1500000) == 0 &&
		s.telem->clocks[FCK].rate_hz == 1500000 &&
		clk_rate_at_ring == 1500000 &&
		s.clk[FCK].rate_hz == 1500000, "set_rate");
	ktap_ok(clk(SUB_FCK, VSOC_CLK_OP_SET_RATE, 1000000) == -VSOC_EINVAL,
		"set_rate_on_fixed_clock_rejected");
	ktap_ok(clk(SUB_FCK, VSOC_CLK_OP_GATE, 0) == 0 &&
		s.telem->clocks[SUB_FCK].gate_count == 1, "gate");
}

static void test_periph(void)
{
	struct vsoc_periph_regs *r;
	uint8_t *data;
	uint32_t v;
	unsigned int i;

	fresh();
	v = s.violations;
	ktap_ok(cmd(GP, VSOC_CMD_NOP, 0, 0, 0, 0, 0) == -VSOC_EPERM &&
		s.violations == v + 1 && last_rule() == VSOC_RULE_DOMAIN_OFF &&
		s.telem->last[0].obj_kind == VSOC_OBJ_PERIPH &&
		s.telem->last[0].obj_index == GP && rings[VSOC_VEC_PERIPH] == 1,
		"access_with_domain_off_is_violation");
	pwr(PER, VSOC_PWR_OP_ON);
	ktap_ok(cmd(GP, VSOC_CMD_NOP, 0, 0, 0, 0, 0) == 0 && s.violations == v + 1,
		"access_with_domain_on_ok");
	ktap_ok(cmd(TMR, VSOC_TIMER_CMD_START, 100000, 0, 0, 0, 0) == -VSOC_EPERM &&
		last_rule() == VSOC_RULE_CLOCK_GATED, "access_with_clock_gated_is_violation");

	/* timer */
	clk(FCK, VSOC_CLK_OP_UNGATE, 0);
	r = regs(TMR);
	r->irq_enable = 1;
	ktap_ok(cmd(TMR, VSOC_TIMER_CMD_START, 100000, VSOC_TIMER_PERIODIC, 0, 0, 0) == 0 &&
		r->busy == 1, "timer_start");
	ktap_ok(cmd(TMR, VSOC_TIMER_CMD_START, 100000, 0, 0, 0, 0) == -VSOC_EBUSY,
		"timer_busy");
	for (i = 0; i < 10; i++)
		advance(100000);
	ktap_ok(r->value[VSOC_REG_EXPIRATIONS] == 10 && r->event_seq == 10,
		"timer_periodic_expirations");
	cmd(TMR, VSOC_CMD_STOP, 0, 0, 0, 0, 0);
	advance(1000000);
	ktap_ok(r->value[VSOC_REG_EXPIRATIONS] == 10 && !r->busy, "timer_stop");
	ktap_ok(cmd(TMR, VSOC_TIMER_CMD_START, 5, 0, 0, 0, 0) == -VSOC_EINVAL,
		"timer_period_too_short_rejected");

	/* sensor and DMA in the nested domain */
	pwr(SUB, VSOC_PWR_OP_ON);
	clk(SUB_FCK, VSOC_CLK_OP_UNGATE, 0);
	r = regs(SNS);
	ktap_ok(cmd(SNS, VSOC_SENSOR_CMD_SAMPLE, 8, 20000, 0, 0, 0) == 0 && r->busy,
		"sensor_sample_start");
	advance(160000);
	{
		struct vsoc_sensor_sample *smp = (void *)(shm + b.periph[SNS].data_off);

		ktap_ok(!r->busy && r->value[0] == 8 && smp[7].seq == 7 &&
			smp[7].ts_ns > smp[0].ts_ns && smp[0].value > 30000,
			"sensor_samples_written");
	}
	ktap_ok(cmd(SNS, VSOC_SENSOR_CMD_SAMPLE, 100000, 20000, 0, 0, 0) == -VSOC_EINVAL,
		"sensor_count_beyond_window_rejected");

	r = regs(DMA);
	data = shm + b.periph[DMA].data_off;
	for (i = 0; i < 1000; i++)
		data[i] = i;
	ktap_ok(cmd(DMA, VSOC_DMA_CMD_START, 0, 4096, 1000, VSOC_DMA_XFORM_XOR, 0x5a) == 0 &&
		r->busy && data[4096] == 0, "dma_start_takes_time");
	advance(10000);	/* 1000 B at 100 B/us */
	ktap_ok(!r->busy && r->value[0] == 1000 && data[4096] == (0 ^ 0x5a) &&
		data[4096 + 999] == ((999 & 0xff) ^ 0x5a) && r->event_result == 0,
		"dma_xor_done");
	cmd(DMA, VSOC_DMA_CMD_START, 0, 2048, 1000, VSOC_DMA_XFORM_REVERSE, 0);
	advance(10000);
	ktap_ok(data[2048] == (999 & 0xff) && data[2048 + 999] == 0, "dma_reverse");
	cmd(DMA, VSOC_DMA_CMD_START, 0, 0, 1000, VSOC_DMA_XFORM_CRC32, 0);
	advance(10000);
	ktap_ok(r->value[1] == crc32(0, data, 1000), "dma_crc32");
	ktap_ok(cmd(DMA, VSOC_DMA_CMD_START, 8000, 0, 1000, 0, 0) == -VSOC_EINVAL,
		"dma_outside_window_rejected");

	/* a request in flight across a power-off */
	clk(SUB_FCK, VSOC_CLK_OP_UNGATE, 0);
	r->irq_enable = 1;
	cmd(DMA, VSOC_DMA_CMD_START, 0, 4096, 1000, 0, 0);
	v = s.violations;
	ktap_ok(pwr(SUB, VSOC_PWR_OP_OFF) == 0 && s.violations == v + 1 &&
		last_rule() == VSOC_RULE_INFLIGHT_POWEROFF && !r->busy &&
		r->event_result == (uint32_t)-VSOC_ECANCELED,
		"inflight_across_poweroff_is_violation");
	pwr(SUB, VSOC_PWR_OP_ON);
	cmd(DMA, VSOC_DMA_CMD_START, 0, 4096, 1000, 0, 0);
	v = s.violations;
	ktap_ok(clk(SUB_FCK, VSOC_CLK_OP_GATE, 0) == 0 && s.violations == v + 1 &&
		last_rule() == VSOC_RULE_CLOCK_GATED && !r->busy,
		"clock_gated_under_busy_device_is_violation");
	ktap_ok(s.telem->violations == s.violations, "telemetry_counts_violations");
}

static void test_energy(void)
{
	uint64_t before, t;

	fresh();
	before = soc_energy_uj(&s, PER);
	soc_set_time(&s, 2000000000ull);	/* ~2 s off at 300 uW */
	t = soc_energy_uj(&s, PER) - before;
	ktap_ok(t >= 599 && t <= 600, "energy_off_power_integrated");
	pwr_req(PER, VSOC_PWR_OP_ON);
	advance(50000);
	before = s.dom[PER].energy_fj;
	soc_set_time(&s, s.now + 1000000000ull);	/* 1 s on at 12 mW */
	ktap_ok((uint64_t)((s.dom[PER].energy_fj - before) / 1000000000u) == 12000,
		"energy_on_power_integrated");
	soc_publish(&s);
	ktap_ok(s.telem->domains[PER].energy_uj == soc_energy_uj(&s, PER) &&
		s.telem->energy_total_uj >= s.telem->domains[PER].energy_uj,
		"energy_in_telemetry");
	ktap_ok(s.nr_tl >= 3 && s.tl[s.nr_tl - 1].kind == TL_DOMAIN &&
		s.tl[s.nr_tl - 1].state == VSOC_PWR_ON &&
		s.tl[s.nr_tl - 1].power_uw == 12000, "timeline_records_changes");
}

static void test_faults(void)
{
	struct vsoc_req_slot *sl;
	char err[256];

	fresh();
	ktap_ok(soc_fault(&s, "fail-on per 1", err, sizeof(err)) == 0 &&
		(s.telem->faults_active & (1u << VSOC_FAULT_FAIL_ON)),
		"fault_fail_on_set");
	ktap_ok(pwr(PER, VSOC_PWR_OP_ON) == -VSOC_EIO &&
		s.telem->domains[PER].state == VSOC_PWR_OFF &&
		s.telem->domains[PER].failed_count == 1, "failing_power_on_reports_eio");
	ktap_ok(pwr(PER, VSOC_PWR_OP_ON) == 0, "fail_on_count_expires");
	pwr(PER, VSOC_PWR_OP_OFF);
	soc_fault(&s, "slow-on per 500", err, sizeof(err));
	sl = pwr_req(PER, VSOC_PWR_OP_ON);
	advance(60000);
	ktap_ok(sl->ack_seq != sl->req_seq, "slow_on_not_done_at_normal_latency");
	advance(500000);
	ktap_ok(sl->ack_seq == sl->req_seq && sl->status == 0, "slow_on_done_later");
	soc_fault(&s, "clear", err, sizeof(err));
	soc_fault(&s, "stuck sub", err, sizeof(err));
	sl = pwr_req(SUB, VSOC_PWR_OP_ON);
	advance(10000000000ull);
	ktap_ok(sl->ack_seq != sl->req_seq && s.telem->faults_active &
		(1u << VSOC_FAULT_STUCK), "stuck_domain_never_completes");
	sl->req_seq++;		/* the guest retries after its timeout */
	soc_doorbell(&s, VSOC_VEC_PWR);
	ktap_ok(s.garbage == 0, "retry_of_stuck_request_is_not_garbage");
	soc_fault(&s, "clear", err, sizeof(err));
	advance(1);
	ktap_ok(sl->ack_seq == sl->req_seq, "stuck_released_by_clear");
	soc_fault(&s, "lost-db 1", err, sizeof(err));
	rings[VSOC_VEC_CLK] = 0;
	clk(FCK, VSOC_CLK_OP_UNGATE, 0);
	ktap_ok(rings[VSOC_VEC_CLK] == 0 && s.lost_doorbells == 1 &&
		s.clk[FCK].ack_seq == s.clk[FCK].req_seq, "lost_doorbell_dropped");
	clk(FCK, VSOC_CLK_OP_GATE, 0);
	ktap_ok(rings[VSOC_VEC_CLK] == 1, "lost_doorbell_count_expires");
	soc_fault(&s, "lost-db 1 in", err, sizeof(err));
	s.clk[FCK].op = VSOC_CLK_OP_UNGATE;
	s.clk[FCK].req_seq++;
	soc_doorbell(&s, VSOC_VEC_CLK);
	ktap_ok(s.clk[FCK].ack_seq != s.clk[FCK].req_seq, "lost_incoming_doorbell");
	soc_doorbell(&s, VSOC_VEC_CLK);
	ktap_ok(s.clk[FCK].ack_seq == s.clk[FCK].req_seq, "next_doorbell_recovers");
	ktap_ok(soc_fault(&s, "stuck nowhere", err, sizeof(err)) == -1 &&
		strstr(err, "nowhere") && soc_fault(&s, "explode", err, sizeof(err)) == -1,
		"bad_fault_specs_rejected");
}

static int fault_slot(uint32_t op, uint32_t kind, uint32_t target,
		      uint64_t arg)
{
	struct vsoc_fault_ctl *f = s.fault;

	f->op = op;
	f->kind = kind;
	f->target = target;
	f->arg = arg;
	f->req_seq++;
	soc_doorbell(&s, VSOC_VEC_FAULT);
	return f->ack_seq == f->req_seq ? (int)f->status : 1000;
}

static void test_fault_slot(void)
{
	unsigned int g;

	fresh();
	ktap_ok(fault_slot(VSOC_FAULT_OP_SET, VSOC_FAULT_FAIL_ON, PER, 0) == 0 &&
		rings[VSOC_VEC_FAULT] == 1, "fault_slot_set");
	ktap_ok(pwr(PER, VSOC_PWR_OP_ON) == -VSOC_EIO &&
		pwr(PER, VSOC_PWR_OP_ON) == -VSOC_EIO, "fault_slot_fail_on_every_time");
	ktap_ok(fault_slot(VSOC_FAULT_OP_CLEAR, VSOC_FAULT_FAIL_ON, PER, 0) == 0 &&
		pwr(PER, VSOC_PWR_OP_ON) == 0, "fault_slot_clear_one");
	fault_slot(VSOC_FAULT_OP_SET, VSOC_FAULT_STUCK, SUB, 0);
	{
		struct vsoc_req_slot *sl = pwr_req(SUB, VSOC_PWR_OP_ON);

		advance(1000000000);
		ktap_ok(sl->ack_seq != sl->req_seq, "fault_slot_stuck");
		fault_slot(VSOC_FAULT_OP_CLEAR, VSOC_FAULT_ALL, 0, 0);
		advance(1);
		ktap_ok(sl->ack_seq == sl->req_seq && sl->status == 0,
			"fault_slot_clear_all_releases_stuck");
	}
	rings[VSOC_VEC_FAULT] = 0;
	ktap_ok(fault_slot(VSOC_FAULT_OP_SET, VSOC_FAULT_LOST_DB, 0, 1) == 0 &&
		rings[VSOC_VEC_FAULT] == 1 && s.lost_out == 1,
		"fault_slot_lost_db_acked_before_it_starts");
	g = s.garbage;
	ktap_ok(fault_slot(VSOC_FAULT_OP_SET, 9, 0, 0) == -VSOC_EINVAL &&
		fault_slot(VSOC_FAULT_OP_SET, VSOC_FAULT_STUCK, 99, 0) == -VSOC_EINVAL &&
		fault_slot(7, VSOC_FAULT_STUCK, 0, 0) == -VSOC_EINVAL &&
		s.garbage == g + 3, "fault_slot_garbage_rejected");
}

static void test_cores(void)
{
	struct vsoc_mbox_fifo *rx;
	uint32_t v;

	fresh();
	rx = (void *)(shm + b.mbox[1].fifo_off);
	v = s.violations;
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x100) == -VSOC_EPERM && starts == 0 &&
		s.violations == v + 1 && last_rule() == VSOC_RULE_DOMAIN_OFF,
		"core_run_with_domain_off_refused");
	pwr(CPU, VSOC_PWR_OP_ON);
	ktap_ok(ctl()->state == VSOC_CORE_RESET, "core_in_reset_after_power_on");
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x20000) == -VSOC_EINVAL && starts == 0,
		"core_entry_outside_memory_rejected");
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x100) == 0 && starts == 1 &&
		last_entry == 0x100 && ctl()->state == VSOC_CORE_RUNNING &&
		ctl()->boot_count == 1 && rings[VSOC_VEC_CORE] >= 1, "core_run_starts");
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x100) == -VSOC_EBUSY && starts == 1,
		"core_run_twice_busy");
	rings[VSOC_VEC_CORE] = 0;
	soc_core_exited(&s, 0, VSOC_CRASH_SIGNAL, 11);
	ktap_ok(ctl()->state == VSOC_CORE_CRASHED &&
		ctl()->crash_reason == VSOC_CRASH_SIGNAL && ctl()->crash_info == 11 &&
		ctl()->crash_count == 1 && rings[VSOC_VEC_CORE] == 1 &&
		rings[b.mbox[1].vector] == 1 && rx->head == 1 &&
		rx->msg[0] == VSOC_MBOX_MSG_CRASH, "core_crash_signalled");
	ktap_ok(core(VSOC_CORE_OP_HALT, 0) == 0 && ctl()->state == VSOC_CORE_RESET &&
		core(VSOC_CORE_OP_RUN, 0x100) == 0 && starts == 2 &&
		ctl()->boot_count == 2, "core_restart_after_crash");
	soc_core_exited(&s, 0, VSOC_CRASH_EXIT, 0);
	ktap_ok(ctl()->state == VSOC_CORE_RESET && ctl()->crash_count == 1,
		"core_clean_exit_is_not_a_crash");
	core(VSOC_CORE_OP_RUN, 0x100);
	ctl()->wdt_timeout_ms = 50;
	advance(20000000);
	ctl()->wdt_count++;
	advance(40000000);
	ktap_ok(ctl()->state == VSOC_CORE_RUNNING, "watchdog_fed_keeps_core");
	advance(100000000);
	ktap_ok(ctl()->state == VSOC_CORE_CRASHED &&
		ctl()->crash_reason == VSOC_CRASH_WATCHDOG && stops >= 1,
		"watchdog_timeout_is_crash");
	core(VSOC_CORE_OP_HALT, 0);
	core(VSOC_CORE_OP_RUN, 0x100);
	stops = 0;
	v = s.violations;
	ktap_ok(pwr(CPU, VSOC_PWR_OP_OFF) == 0 && stops == 1 &&
		s.violations == v + 1 && last_rule() == VSOC_RULE_CORE_POWEROFF &&
		ctl()->state == VSOC_CORE_OFF, "power_off_under_running_core");
	pwr(CPU, VSOC_PWR_OP_ON);
	start_result = -2;
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x100) == -VSOC_EIO &&
		ctl()->state == VSOC_CORE_CRASHED &&
		ctl()->crash_reason == VSOC_CRASH_START, "core_start_failure");

	/* ABI 1.5: a core's memory domain is on while it runs. */
	start_result = 0;
	core(VSOC_CORE_OP_HALT, 0);
	b.core[0].mem_domain = PER;
	pwr(SUB, VSOC_PWR_OP_OFF);
	pwr(PER, VSOC_PWR_OP_OFF);
	v = s.violations;
	stops = starts;
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x100) == -VSOC_EPERM &&
		starts == stops && s.violations == v + 1 &&
		last_rule() == VSOC_RULE_CORE_MEM_OFF &&
		ctl()->state == VSOC_CORE_RESET, "core_run_with_memory_off_refused");
	pwr(PER, VSOC_PWR_OP_ON);
	v = s.violations;
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x100) == 0 && s.violations == v &&
		ctl()->state == VSOC_CORE_RUNNING, "core_run_with_memory_on");
	stops = 0;
	ktap_ok(pwr(PER, VSOC_PWR_OP_OFF) == 0 && stops == 1 &&
		s.violations == v + 1 && last_rule() == VSOC_RULE_CORE_MEM_OFF &&
		ctl()->state == VSOC_CORE_OFF, "memory_off_under_running_core");
	b.core[0].mem_domain = VSOC_NONE;
}

/* ---- the vring firewall -------------------------------------------- */

static int plan(uint32_t count, uint32_t reserved,
		const struct vsoc_fw_region *r, struct soc_ro *ro,
		unsigned int *nr, uint64_t *prot, uint64_t *unprot)
{
	const char *why = NULL;

	return soc_firewall_plan(&b.core[0], count, reserved, r, ro, nr, prot,
				 unprot, &why);
}

static void test_firewall_plan(void)
{
	struct vsoc_fw_region r[VSOC_CORE_FW_REGIONS + 1] = { { 0 } };
	struct soc_ro ro[SOC_RO_MAX];
	uint64_t prot, unprot;
	unsigned int nr, i;

	ktap_ok(!plan(0, 0, r, ro, &nr, &prot, &unprot) && nr == 0 &&
		prot == 0 && unprot == 0, "fw_no_region");
	r[0] = (struct vsoc_fw_region){ 0x1000, 0x2000 };
	ktap_ok(!plan(1, 0, r, ro, &nr, &prot, &unprot) && nr == 1 &&
		ro[0].da == 0x1000 && ro[0].len == 0x2000 && prot == 0x2000 &&
		unprot == 0, "fw_whole_pages");
	/* 256 descriptors, the avail ring and its padding at align 16 */
	r[0] = (struct vsoc_fw_region){ 0x1000, 0x1210 };
	ktap_ok(!plan(1, 0, r, ro, &nr, &prot, &unprot) && nr == 1 &&
		ro[0].da == 0x1000 && ro[0].len == 0x1000 && prot == 0x1000 &&
		unprot == 0x210, "fw_partial_page_not_protected");
	r[0] = (struct vsoc_fw_region){ 0x1008, 0x10 };
	ktap_ok(!plan(1, 0, r, ro, &nr, &prot, &unprot) && nr == 0 &&
		prot == 0 && unprot == 0x10, "fw_inside_one_page_nothing");
	/* two halves of a page make it whole */
	r[0] = (struct vsoc_fw_region){ 0x1800, 0x800 };
	r[1] = (struct vsoc_fw_region){ 0x1000, 0x800 };
	ktap_ok(!plan(2, 0, r, ro, &nr, &prot, &unprot) && nr == 1 &&
		ro[0].da == 0x1000 && ro[0].len == 0x1000 && unprot == 0,
		"fw_touching_regions_merge");
	r[0] = (struct vsoc_fw_region){ 0x1000, 0x1000 };
	r[1] = (struct vsoc_fw_region){ 0x1800, 0x1000 };
	ktap_ok(!plan(2, 0, r, ro, &nr, &prot, &unprot) && nr == 1 &&
		ro[0].len == 0x1000 && prot == 0x1000 && unprot == 0x800,
		"fw_overlapping_regions_merge");
	for (i = 0; i < VSOC_CORE_FW_REGIONS; i++)
		r[i] = (struct vsoc_fw_region){ 0x2000 * i, 0x1000 };
	ktap_ok(!plan(VSOC_CORE_FW_REGIONS, 0, r, ro, &nr, &prot, &unprot) &&
		nr == VSOC_CORE_FW_REGIONS && prot == 0x8000, "fw_eight_regions");
	ktap_ok(plan(VSOC_CORE_FW_REGIONS + 1, 0, r, ro, &nr, &prot, &unprot) &&
		nr == 0, "fw_nine_regions_refused");
	ktap_ok(plan(1, 1, r, ro, &nr, &prot, &unprot), "fw_reserved_refused");
	r[0] = (struct vsoc_fw_region){ 0x1000, 0 };
	ktap_ok(plan(1, 0, r, ro, &nr, &prot, &unprot), "fw_empty_refused");
	r[0] = (struct vsoc_fw_region){ ~0ull - 7, 16 };
	ktap_ok(plan(1, 0, r, ro, &nr, &prot, &unprot), "fw_wrap_refused");
	r[0] = (struct vsoc_fw_region){ 0x10000, 0x1000 };
	ktap_ok(plan(1, 0, r, ro, &nr, &prot, &unprot), "fw_outside_memory_refused");
	r[0] = (struct vsoc_fw_region){ 0xff00, 0x200 };
	ktap_ok(plan(1, 0, r, ro, &nr, &prot, &unprot), "fw_past_memory_end_refused");
}

static struct ampsoc_core_fault fault_rec(uint32_t reason, uint64_t addr)
{
	return (struct ampsoc_core_fault){
		.magic = AMPSOC_CORE_FAULT_MAGIC, .size = sizeof(fault_rec(0, 0)),
		.reason = reason, .isa = AMPSOC_CORE_ISA_X86_64, .signo = 11,
		.access = AMPSOC_CORE_ACCESS_WRITE, .addr = addr, .pc = 0x180,
		.nr_regs = 18,
	};
}

/* Restart the core after a crash, the firewall as Linux programs it. */
static void restart(void)
{
	core(VSOC_CORE_OP_HALT, 0);
	core(VSOC_CORE_OP_RUN, 0x100);
}

static void test_firewall(void)
{
	struct vsoc_core_ctl *c;
	struct ampsoc_core_fault f;
	const char *why;
	uint32_t v;

	fresh();
	c = ctl();
	pwr(CPU, VSOC_PWR_OP_ON);
	v = s.violations;
	c->fw_count = 1;
	c->fw[0].da = 0x20000;		/* not the core's */
	c->fw[0].len = 0x1000;
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x100) == -VSOC_EINVAL && starts == 0 &&
		s.violations == v + 1 && last_rule() == VSOC_RULE_FIREWALL &&
		c->state == VSOC_CORE_RESET, "fw_bad_programming_is_violation");
	c->fw[0].da = 0x2000;
	c->fw[0].len = 0x1210;
	c->fw[1].da = 0x6000;
	c->fw[1].len = 0x2000;
	c->fw_count = 2;
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x100) == 0 && starts == 1 &&
		last_nr_ro == 2 && last_ro[0].da == 0x2000 &&
		last_ro[0].len == 0x1000 && last_ro[1].da == 0x6000 &&
		last_ro[1].len == 0x2000 && c->fw_protected == 0x3000 &&
		c->fw_unprotected == 0x210, "fw_ranges_to_runner");

	f = fault_rec(AMPSOC_CORE_FAULT_FIREWALL, 0x6010);
	ktap_ok(!soc_core_fault(&s, 0, 11, &f, sizeof(f), &why) &&
		c->state == VSOC_CORE_CRASHED &&
		c->crash_reason == VSOC_CRASH_FAULT &&
		c->crash_info == AMPSOC_CORE_FAULT_FIREWALL &&
		c->fault_addr == 0x6010 && c->fault_pc == 0x180 &&
		c->fault_access == AMPSOC_CORE_ACCESS_WRITE &&
		c->fw_faults == 1 && s.telem->fw_faults == 1 &&
		s.violations == v + 1, "fw_fault_record_is_crash_not_violation");
	ktap_ok(c->crash_count == 1 && rings[b.mbox[1].vector] >= 1,
		"fw_fault_crash_signalled");

	/* records that are no records: the crash is the signal's */
	restart();
	f.addr = 0x3000;		/* in a region, not a protected page */
	ktap_ok(soc_core_fault(&s, 0, 11, &f, sizeof(f), &why) &&
		c->crash_reason == VSOC_CRASH_SIGNAL && c->crash_info == 11 &&
		c->fw_faults == 1, "fw_fault_outside_firewall_ignored");
	restart();
	f = fault_rec(AMPSOC_CORE_FAULT_FIREWALL, 0x6010);
	ktap_ok(soc_core_fault(&s, 0, 11, &f, sizeof(f) - 1, &why) &&
		c->crash_reason == VSOC_CRASH_SIGNAL, "fw_short_record_ignored");
	restart();
	ktap_ok(soc_core_fault(&s, 0, 7, &f, sizeof(f), &why) &&
		c->crash_reason == VSOC_CRASH_SIGNAL && c->crash_info == 7,
		"fw_record_other_signal_ignored");
	restart();
	f.magic ^= 1;
	ktap_ok(soc_core_fault(&s, 0, 11, &f, sizeof(f), &why) &&
		c->crash_reason == VSOC_CRASH_SIGNAL, "fw_record_bad_magic_ignored");
	restart();
	f = fault_rec(AMPSOC_CORE_FAULT_MAX + 1, 0x6010);
	ktap_ok(soc_core_fault(&s, 0, 11, &f, sizeof(f), &why) &&
		c->crash_reason == VSOC_CRASH_SIGNAL, "fw_record_bad_reason_ignored");
	restart();
	f = fault_rec(AMPSOC_CORE_FAULT_FIREWALL, 0x6010);
	f.nr_regs = AMPSOC_CORE_FAULT_MAX_REGS + 1;
	ktap_ok(soc_core_fault(&s, 0, 11, &f, sizeof(f), &why) &&
		c->crash_reason == VSOC_CRASH_SIGNAL, "fw_record_bad_regs_ignored");
	restart();
	ktap_ok(soc_core_fault(&s, 0, 11, NULL, 0, &why) &&
		c->crash_reason == VSOC_CRASH_SIGNAL, "fw_no_record_plain_crash");
	restart();
	f = fault_rec(AMPSOC_CORE_FAULT_UNMAPPED, 0x900000);
	ktap_ok(!soc_core_fault(&s, 0, 11, &f, sizeof(f), &why) &&
		c->crash_reason == VSOC_CRASH_FAULT &&
		c->crash_info == AMPSOC_CORE_FAULT_UNMAPPED &&
		c->fault_addr == 0x900000 && c->fw_faults == 1 &&
		s.telem->fw_faults == 1, "fw_other_fault_kinds_reported");

	/* the board's firewall off: checked all the same, nothing protected */
	b.core[0].firewall = false;
	restart();
	ktap_ok(c->state == VSOC_CORE_RUNNING && last_nr_ro == 0 &&
		c->fw_protected == 0 && c->fw_unprotected == 0,
		"fw_off_protects_nothing");
	core(VSOC_CORE_OP_HALT, 0);
	v = s.violations;
	c->fw_reserved = 1;
	ktap_ok(core(VSOC_CORE_OP_RUN, 0x100) == -VSOC_EINVAL &&
		s.violations == v + 1, "fw_off_still_checked");
	c->fw_reserved = 0;
	b.core[0].firewall = true;
}

static void test_echo(void)
{
	struct vsoc_echo *e;

	fresh();
	e = s.echo;
	e->ping_seq = 5;
	soc_doorbell(&s, VSOC_VEC_ECHO);
	ktap_ok(e->ping_ack == 5 && rings[VSOC_VEC_ECHO] == 1, "echo_ping");
	e->rt_count = 3;
	e->rt_req_seq = 1;
	soc_doorbell(&s, VSOC_VEC_ECHO_RT);
	while (s.rt_active) {
		advance(1000);
		e->rt_reply_seq = e->rt_ring_seq;
		soc_doorbell(&s, VSOC_VEC_ECHO_RT);
	}
	ktap_ok(e->rt_ack_seq == 1 && e->rt_done == 3 && e->rt_total_ns == 3000 &&
		e->rt_min_ns == 1000 && e->rt_max_ns == 1000 && e->rt_status == 0,
		"echo_model_initiated_round_trips");
}

/*
 * Performance levels (ABI 1.5), on the same board with levels in per and
 * sub (perf_parent_ge): only declared levels, never sub above per, and the
 * energy of the level in use.
 */
static const char level_text[] =
	"[domain lv_parent]\nparent = aon\non_power_uw = 777\n"
	"perf_levels = 1:900000:6000, 2:1000000:9000, 3:1100000:12000\n"
	"[domain lv_child]\nparent = lv_parent\n"
	"perf_levels = 1:900000:1000, 3:1100000:3000\nperf_parent_ge = yes\n";
enum { LVP = 4, LVC = 5 };

static struct vsoc_req_slot *level_req(unsigned int d, uint64_t level)
{
	s.pwr[d].arg = level;
	return pwr_req(d, VSOC_PWR_OP_SET_LEVEL);
}

static void test_levels(void)
{
	static char text[sizeof(board_text) + sizeof(level_text)];
	struct vsoc_req_slot *sl;
	char err[256];
	uint64_t e1, e3, before;
	uint32_t v;

	snprintf(text, sizeof(text), "%s%s", board_text, level_text);
	if (board_parse(&b, "test-board", text, strlen(text), err,
			sizeof(err))) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
	fresh();
	soc_publish(&s);
	ktap_ok(s.telem->level[LVP] == 1 && s.telem->level[LVC] == 1 &&
		s.telem->level[PER] == 0, "levels_start_lowest");
	v = s.violations;
	sl = level_req(LVP, 2);
	ktap_ok(sl->ack_seq == sl->req_seq && sl->status == 0 &&
		sl->level == 2 && s.telem->level[LVP] == 2 &&
		rings[VSOC_VEC_PWR] == 1, "level_set_while_off");
	sl = level_req(LVP, 4);
	ktap_ok(sl->status == (uint32_t)-VSOC_ERANGE && sl->level == 2 &&
		s.violations == v && s.garbage == 0, "undeclared_level_refused");
	sl = level_req(PER, 1);
	ktap_ok(sl->status == (uint32_t)-VSOC_ERANGE && sl->level == 0,
		"domain_without_levels_refuses");
	sl = level_req(LVC, 3);
	ktap_ok(sl->status == (uint32_t)-VSOC_EPERM && sl->level == 1 &&
		s.violations == v + 1 && last_rule() == VSOC_RULE_PERF_PARENT &&
		s.telem->last[v % VSOC_TELEM_VIOLATIONS].obj_index == LVC,
		"child_above_parent_is_violation");
	ktap_ok(level_req(LVP, 3)->status == 0 &&
		level_req(LVC, 3)->status == 0 && s.violations == v + 1,
		"parent_first_raise_accepted");
	sl = level_req(LVP, 1);
	ktap_ok(sl->status == (uint32_t)-VSOC_EPERM && sl->level == 3 &&
		s.violations == v + 2 && last_rule() == VSOC_RULE_PERF_PARENT,
		"parent_below_child_is_violation");
	ktap_ok(level_req(LVC, 1)->status == 0 &&
		level_req(LVP, 1)->status == 0 && s.violations == v + 2,
		"child_first_lower_accepted");
	s.pwr[LVP].arg = 0;
	s.pwr[LVP].flags = 1;
	sl = pwr_req(LVP, VSOC_PWR_OP_SET_LEVEL);
	s.pwr[LVP].flags = 0;
	ktap_ok(sl->status == (uint32_t)-VSOC_EINVAL && s.garbage == 1,
		"level_slot_flags_are_garbage");
	s.pwr[LVP].arg = 1;
	sl = pwr_req(LVP, VSOC_PWR_OP_ON);
	s.pwr[LVP].arg = 0;
	ktap_ok(sl->status == (uint32_t)-VSOC_EINVAL && s.garbage == 2,
		"power_op_with_arg_is_garbage");

	/* energy: 1 s on at level 3 (12 mW), then 1 s at level 1 (6 mW) */
	ktap_ok(pwr(LVP, VSOC_PWR_OP_ON) == 0, "leveled_domain_on");
	ktap_ok(level_req(LVP, 3)->status == 0, "raise_while_on");
	soc_publish(&s);
	e1 = s.telem->level_energy_uj[b.domain[LVP].first_level];
	e3 = s.telem->level_energy_uj[b.domain[LVP].first_level + 2];
	before = soc_energy_uj(&s, LVP);
	soc_set_time(&s, s.now + 1000000000ull);
	soc_publish(&s);
	ktap_ok(s.telem->level_energy_uj[b.domain[LVP].first_level + 2] -
		e3 == 12000 &&
		s.telem->level_energy_uj[b.domain[LVP].first_level] == e1 &&
		soc_energy_uj(&s, LVP) - before == 12000,
		"energy_of_level_in_use");
	ktap_ok(s.nr_tl && s.tl[s.nr_tl - 1].kind == TL_DOMAIN &&
		s.tl[s.nr_tl - 1].power_uw == 12000,
		"level_change_on_timeline");
	ktap_ok(level_req(LVP, 1)->status == 0, "lower_while_on");
	soc_set_time(&s, s.now + 1000000000ull);
	soc_publish(&s);
	ktap_ok(s.telem->level_energy_uj[b.domain[LVP].first_level] - e1 ==
		6000 && soc_energy_uj(&s, LVP) - before == 18000,
		"energy_follows_level");
	s.pwr[LVP].arg = 0;
	v = pwr(LVP, VSOC_PWR_OP_OFF);
	if (!ktap_ok(v == 0, "leveled_domain_off"))
		ktap_diag("power-off: %d", (int)v);
	e1 = s.telem->level_energy_uj[b.domain[LVP].first_level];
	before = soc_energy_uj(&s, LVP);
	soc_set_time(&s, s.now + 1000000000ull);
	soc_publish(&s);
	ktap_ok(s.telem->level_energy_uj[b.domain[LVP].first_level] == e1 &&
		soc_energy_uj(&s, LVP) == before,
		"no_level_energy_while_off");
}

int main(void)
{
	char err[256];

	ktap_plan(0);
	if (board_parse(&b, "test-board", board_text, strlen(board_text), err,
			sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	shm = calloc(1, b.shm_size);
	if (!shm)
		return 1;
	test_publish_checked();
	test_power();
	test_stay_on();
	test_garbage();
	test_clocks();
	test_periph();
	test_energy();
	test_faults();
	test_fault_slot();
	test_cores();
	test_firewall_plan();
	test_firewall();
	test_echo();
	test_levels();
	soc_free(&s);
	free(shm);
	ktap_exit();
}
