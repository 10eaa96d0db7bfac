// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc SoC model: power controller, clock controller, peripherals,
 * remote-core control, echo, hardware-rule checks, energy and timeline.
 *
 * Everything the guest writes is read once into a local copy
 * (READ_GUEST) and validated before use; anything wrong is answered with
 * -EINVAL and counted as garbage, never trusted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "soc.h"

#define READ_GUEST(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_M(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define ACQUIRE()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define RELEASE()	__atomic_thread_fence(__ATOMIC_RELEASE)

#define MIN_PERIOD_NS	10000ull		/* 10 us */
#define MAX_PERIOD_NS	1000000000000ull	/* 1000 s */

const char *vsoc_rule_name(uint32_t rule)
{
	switch (rule) {
	case VSOC_RULE_DOMAIN_OFF:
		return "domain_off";
	case VSOC_RULE_CLOCK_GATED:
		return "clock_gated";
	case VSOC_RULE_INFLIGHT_POWEROFF:
		return "inflight_across_poweroff";
	case VSOC_RULE_PARENT_OFF:
		return "parent_off";
	case VSOC_RULE_CHILD_ON:
		return "child_on";
	case VSOC_RULE_CLK_PARENT_GATED:
		return "clock_parent_gated";
	case VSOC_RULE_CORE_POWEROFF:
		return "core_running_at_poweroff";
	case VSOC_RULE_ALWAYS_ON:
		return "always_on_switched_off";
	case VSOC_RULE_FIREWALL:
		return "bad_firewall_programming";
	case VSOC_RULE_CORE_MEM_OFF:
		return "core_running_with_memory_off";
	case VSOC_RULE_PERF_PARENT:
		return "level_above_parent";
	case VSOC_RULE_STAY_ON:
		return "stay_on_off_before_sync";
	}
	return "unknown";
}

const char *soc_pwr_state_name(uint32_t st)
{
	switch (st) {
	case VSOC_PWR_OFF:
		return "off";
	case VSOC_PWR_ON:
		return "on";
	case VSOC_PWR_GOING_ON:
		return "going-on";
	case VSOC_PWR_GOING_OFF:
		return "going-off";
	}
	return "?";
}

const char *soc_core_state_name(uint32_t st)
{
	switch (st) {
	case VSOC_CORE_OFF:
		return "off";
	case VSOC_CORE_RESET:
		return "reset";
	case VSOC_CORE_RUNNING:
		return "running";
	case VSOC_CORE_CRASHED:
		return "crashed";
	}
	return "?";
}

static const char *kind_name(uint32_t kind)
{
	switch (kind) {
	case VSOC_OBJ_DOMAIN:
		return "domain";
	case VSOC_OBJ_CLOCK:
		return "clock";
	case VSOC_OBJ_PERIPH:
		return "periph";
	case VSOC_OBJ_CORE:
		return "core";
	}
	return "?";
}

static const char *obj_name(const struct soc *s, uint32_t kind, uint32_t idx)
{
	switch (kind) {
	case VSOC_OBJ_DOMAIN:
		return s->b->domain[idx].name;
	case VSOC_OBJ_CLOCK:
		return s->b->clock[idx].name;
	case VSOC_OBJ_PERIPH:
		return s->b->periph[idx].name;
	case VSOC_OBJ_CORE:
		return s->b->core[idx].name;
	}
	return "?";
}

static struct vsoc_periph_regs *regs_of(struct soc *s, unsigned int i)
{
	return (void *)(s->shm + s->b->periph[i].regs_off);
}

static struct vsoc_core_ctl *ctl_of(struct soc *s, unsigned int i)
{
	return (void *)(s->shm + s->b->core[i].ctl_off);
}

static uint32_t domain_power(const struct soc *s, unsigned int d)
{
	const struct board_domain *bd = &s->b->domain[d];
	uint32_t p;
	unsigned int i;

	if (s->dom[d].state == VSOC_PWR_OFF)
		return bd->off_power_uw;
	/* a level's power replaces on_power_uw (ABI 1.5) */
	p = bd->nr_levels ? bd->level[s->dom[d].level].power_uw :
			    bd->on_power_uw;
	for (i = 0; i < s->b->nr_periphs; i++)
		if (s->b->periph[i].domain == d && s->per[i].busy)
			p += s->b->periph[i].active_power_uw;
	return p;
}

static void timeline(struct soc *s, uint32_t kind, uint32_t idx,
		     uint32_t state)
{
	struct soc_tl *t;

	if (s->nr_tl >= SOC_TIMELINE_MAX) {
		s->tl_dropped++;
		return;
	}
	t = &s->tl[s->nr_tl++];
	t->t = s->now;
	t->kind = kind;
	t->idx = idx;
	t->state = state;
	t->power_uw = 0;
	if (kind == TL_DOMAIN)
		t->power_uw = domain_power(s, idx);
	else if (kind == TL_PERIPH)
		t->power_uw = domain_power(s, s->b->periph[idx].domain);
}

static void violation(struct soc *s, uint32_t rule, uint32_t kind,
		      uint32_t idx)
{
	struct vsoc_telem_violation *tv;
	struct soc_violation *v;

	s->violations++;
	if (s->violations <= SOC_VIOL_MAX) {
		v = &s->viol[s->violations - 1];
		v->t = s->now;
		v->rule = rule;
		v->kind = kind;
		v->idx = idx;
		v->seq = s->violations;
	}
	tv = &s->telem->last[(s->violations - 1) % VSOC_TELEM_VIOLATIONS];
	tv->time_ns = s->now;
	tv->rule = rule;
	tv->obj_kind = kind;
	tv->obj_index = idx;
	tv->seq = s->violations;
	fprintf(stderr, "socmodel: VIOLATION #%u t=%llu ns %s %s: %s\n",
		s->violations, (unsigned long long)s->now, kind_name(kind),
		obj_name(s, kind, idx), vsoc_rule_name(rule));
}

static void garbage(struct soc *s, const char *where, unsigned int idx,
		    const char *why)
{
	s->garbage++;
	fprintf(stderr, "socmodel: rejected #%u in %s %u: %s\n", s->garbage,
		where, idx, why);
}

static void ring_guest(struct soc *s, unsigned int vector)
{
	if (s->lost_out) {
		s->lost_out--;
		s->lost_doorbells++;
		return;
	}
	s->ops->ring(s->ctx, VSOC_PEER_GUEST, vector);
}

/* ---------------- energy ---------------- */

void soc_set_time(struct soc *s, uint64_t now)
{
	unsigned int d;
	uint64_t dt;

	if (now < s->now)
		now = s->now;
	dt = now - s->last_integrated;
	if (dt)
		for (d = 0; d < s->b->nr_domains; d++) {
			__uint128_t e = (__uint128_t)domain_power(s, d) * dt;

			s->dom[d].energy_fj += e;
			if (s->dom[d].state != VSOC_PWR_OFF &&
			    s->b->domain[d].nr_levels)
				s->level_energy_fj[s->b->domain[d].first_level +
						   s->dom[d].level] += e;
		}
	s->last_integrated = now;
	s->now = now;
}

uint64_t soc_energy_uj(const struct soc *s, unsigned int d)
{
	return (uint64_t)(s->dom[d].energy_fj / 1000000000u);
}

uint64_t soc_level_energy_uj(const struct soc *s, unsigned int l)
{
	return (uint64_t)(s->level_energy_fj[l] / 1000000000u);
}

/* The level number domain @d is at; 0 for a domain without levels. */
uint32_t soc_domain_level(const struct soc *s, unsigned int d)
{
	const struct board_domain *bd = &s->b->domain[d];

	return bd->nr_levels ? bd->level[s->dom[d].level].level : 0;
}

/* ---------------- domains ---------------- */

static void pwr_complete(struct soc *s, unsigned int d, int status)
{
	struct vsoc_req_slot *sl = &s->pwr[d];
	struct soc_domain *sd = &s->dom[d];

	sl->status = (uint32_t)status;
	sl->state = sd->state;
	sl->level = soc_domain_level(s, d);
	sl->rate_hz = 0;
	sl->done_ns = s->now;
	soc_publish(s);		/* telemetry is current when the ack is seen */
	RELEASE();
	WRITE_M(sl->ack_seq, sd->taken);
	sd->acked = sd->taken;
	sd->inflight = false;
	sd->due = 0;
	ring_guest(s, VSOC_VEC_PWR);
}

static void set_domain_state(struct soc *s, unsigned int d, uint32_t st)
{
	unsigned int i;

	s->dom[d].state = st;
	s->dom[d].last_change = s->now;
	timeline(s, TL_DOMAIN, d, st);
	for (i = 0; i < s->b->nr_cores; i++) {
		struct vsoc_core_ctl *c;

		if (s->b->core[i].domain != d)
			continue;
		c = ctl_of(s, i);
		if (st == VSOC_PWR_ON && s->core[i].state == VSOC_CORE_OFF)
			s->core[i].state = VSOC_CORE_RESET;
		else if (st == VSOC_PWR_OFF)
			s->core[i].state = VSOC_CORE_OFF;
		else
			continue;
		c->state = s->core[i].state;
		timeline(s, TL_CORE, i, s->core[i].state);
	}
}

static void periph_abort(struct soc *s, unsigned int i, int status)
{
	struct vsoc_periph_regs *r = regs_of(s, i);

	if (!s->per[i].busy)
		return;
	s->per[i].busy = false;
	s->per[i].due = 0;
	r->busy = 0;
	r->event_result = (uint32_t)status;
	timeline(s, TL_PERIPH, i, 0);
	soc_publish(s);
	RELEASE();
	r->event_seq++;
	if (READ_GUEST(r->irq_enable) == 1)
		ring_guest(s, s->b->periph[i].vector_guest);
}

static void domain_request(struct soc *s, unsigned int d, uint32_t op)
{
	const struct board_domain *bd = &s->b->domain[d];
	struct soc_domain *sd = &s->dom[d];
	unsigned int i;

	sd->op = op;
	if (op == VSOC_PWR_OP_SYNC) {
		/* Validated by scan_pwr(): only a stay-on domain gets here. */
		sd->synced = true;
		pwr_complete(s, d, 0);
		return;
	}
	if (op == VSOC_PWR_OP_ON) {
		if (sd->state == VSOC_PWR_ON) {
			pwr_complete(s, d, 0);
			return;
		}
		if (bd->parent != VSOC_NONE &&
		    s->dom[bd->parent].state != VSOC_PWR_ON) {
			violation(s, VSOC_RULE_PARENT_OFF, VSOC_OBJ_DOMAIN, d);
			pwr_complete(s, d, -VSOC_EPERM);
			return;
		}
		set_domain_state(s, d, VSOC_PWR_GOING_ON);
		sd->inflight = true;
		sd->due = sd->stuck ? 0 : s->now + bd->on_latency_ns +
					  sd->slow_ns;
		if (!sd->due && !sd->stuck)
			sd->due = s->now ? s->now : 1;
		return;
	}
	/* OFF */
	if (sd->state == VSOC_PWR_OFF) {
		pwr_complete(s, d, 0);
		return;
	}
	if (bd->flags & VSOC_DOMAIN_ALWAYS_ON) {
		violation(s, VSOC_RULE_ALWAYS_ON, VSOC_OBJ_DOMAIN, d);
		pwr_complete(s, d, -VSOC_EPERM);
		return;
	}
	/*
	 * Software's promise, not a hardware rule: recorded, and the domain
	 * goes off all the same.
	 */
	if ((bd->flags & VSOC_DOMAIN_STAY_ON) && !sd->synced)
		violation(s, VSOC_RULE_STAY_ON, VSOC_OBJ_DOMAIN, d);
	for (i = 0; i < s->b->nr_domains; i++)
		if (s->b->domain[i].parent == d &&
		    s->dom[i].state != VSOC_PWR_OFF) {
			violation(s, VSOC_RULE_CHILD_ON, VSOC_OBJ_DOMAIN, d);
			pwr_complete(s, d, -VSOC_EPERM);
			return;
		}
	for (i = 0; i < s->b->nr_periphs; i++)
		if (s->b->periph[i].domain == d && s->per[i].busy) {
			violation(s, VSOC_RULE_INFLIGHT_POWEROFF,
				  VSOC_OBJ_PERIPH, i);
			periph_abort(s, i, -VSOC_ECANCELED);
		}
	for (i = 0; i < s->b->nr_cores; i++)
		if ((s->b->core[i].domain == d ||
		     s->b->core[i].mem_domain == d) &&
		    s->core[i].state == VSOC_CORE_RUNNING) {
			/* Its memory gone, the core cannot go on either. */
			violation(s, s->b->core[i].domain == d ?
				  VSOC_RULE_CORE_POWEROFF :
				  VSOC_RULE_CORE_MEM_OFF, VSOC_OBJ_CORE, i);
			s->core[i].state = VSOC_CORE_OFF;
			s->core[i].wdt_due = 0;
			ctl_of(s, i)->state = VSOC_CORE_OFF;
			ctl_of(s, i)->stop_ns = s->now;
			s->ops->core_stop(s->ctx, i);
		}
	set_domain_state(s, d, VSOC_PWR_GOING_OFF);
	sd->inflight = true;
	sd->due = sd->stuck ? 0 : s->now + bd->off_latency_ns;
	if (!sd->due && !sd->stuck)
		sd->due = s->now ? s->now : 1;
}

/*
 * VSOC_PWR_OP_SET_LEVEL (ABI 1.5): only a level the board declares, and
 * never a child above its parent where the child has perf_parent_ge
 * (a supply below what the child runs at would damage it). Immediate.
 */
static void level_request(struct soc *s, unsigned int d, uint64_t want)
{
	const struct board_domain *bd = &s->b->domain[d];
	unsigned int i, l;

	for (l = 0; l < bd->nr_levels; l++)
		if (bd->level[l].level == want)
			break;
	if (l == bd->nr_levels) {
		fprintf(stderr, "socmodel: domain %s: no level %llu\n",
			bd->name, (unsigned long long)want);
		pwr_complete(s, d, -VSOC_ERANGE);
		return;
	}
	if ((bd->flags & VSOC_DOMAIN_PERF_PARENT_GE) &&
	    want > soc_domain_level(s, bd->parent)) {
		violation(s, VSOC_RULE_PERF_PARENT, VSOC_OBJ_DOMAIN, d);
		pwr_complete(s, d, -VSOC_EPERM);
		return;
	}
	for (i = 0; i < s->b->nr_domains; i++)
		if (s->b->domain[i].parent == d &&
		    (s->b->domain[i].flags & VSOC_DOMAIN_PERF_PARENT_GE) &&
		    soc_domain_level(s, i) > want) {
			violation(s, VSOC_RULE_PERF_PARENT, VSOC_OBJ_DOMAIN, i);
			pwr_complete(s, d, -VSOC_EPERM);
			return;
		}
	if (l != s->dom[d].level) {
		s->dom[d].level = l;
		s->dom[d].level_changes++;
		/* the domain's power changed: a point on the timeline */
		timeline(s, TL_DOMAIN, d, s->dom[d].state);
	}
	pwr_complete(s, d, 0);
}

static void domain_done(struct soc *s, unsigned int d)
{
	struct soc_domain *sd = &s->dom[d];

	if (sd->op == VSOC_PWR_OP_ON) {
		if (sd->fail_on) {
			if (sd->fail_on != ~0u)
				sd->fail_on--;
			sd->failed_count++;
			set_domain_state(s, d, VSOC_PWR_OFF);
			pwr_complete(s, d, -VSOC_EIO);
			return;
		}
		sd->on_count++;
		set_domain_state(s, d, VSOC_PWR_ON);
	} else {
		sd->off_count++;
		set_domain_state(s, d, VSOC_PWR_OFF);
	}
	pwr_complete(s, d, 0);
}

static void scan_pwr(struct soc *s)
{
	unsigned int d;

	for (d = 0; d < s->b->nr_domains; d++) {
		struct vsoc_req_slot *sl = &s->pwr[d];
		struct soc_domain *sd = &s->dom[d];
		uint32_t seq = READ_GUEST(sl->req_seq), op, flags, res;
		uint64_t arg;

		if (seq == sd->acked)
			continue;
		if (sd->inflight) {
			if (seq == sd->taken)
				continue;
			if (sd->stuck) {
				/* a retry after the guest's own timeout */
				sd->taken = seq;
				continue;
			}
			if (sd->garbage_seq != seq) {
				sd->garbage_seq = seq;
				garbage(s, "power slot", d,
					"rewritten while a request is in flight");
			}
			continue;
		}
		ACQUIRE();
		op = READ_GUEST(sl->op);
		flags = READ_GUEST(sl->flags);
		res = READ_GUEST(sl->reserved0);
		arg = READ_GUEST(sl->arg);
		sd->taken = seq;
		if ((op != VSOC_PWR_OP_ON && op != VSOC_PWR_OP_OFF &&
		     op != VSOC_PWR_OP_SET_LEVEL &&
		     (op != VSOC_PWR_OP_SYNC ||
		      !(s->b->domain[d].flags & VSOC_DOMAIN_STAY_ON))) ||
		    flags || res || (arg && op != VSOC_PWR_OP_SET_LEVEL)) {
			garbage(s, "power slot", d, "bad op or non-zero field");
			sd->inflight = true;
			pwr_complete(s, d, -VSOC_EINVAL);
			continue;
		}
		if (op == VSOC_PWR_OP_SET_LEVEL) {
			sd->inflight = true;
			level_request(s, d, arg);
			continue;
		}
		domain_request(s, d, op);
	}
}

/* ---------------- clocks ---------------- */

static bool clock_running(const struct soc *s, uint32_t c)
{
	unsigned int n = 0;

	while (c != VSOC_NONE && n++ <= s->b->nr_clocks) {
		if (s->clk_st[c].state != VSOC_CLK_RUNNING)
			return false;
		c = s->b->clock[c].parent;
	}
	return true;
}

/* Is @c, or an ancestor of it, the clock @g? */
static bool clock_below(const struct soc *s, uint32_t c, uint32_t g)
{
	unsigned int n = 0;

	while (c != VSOC_NONE && n++ <= s->b->nr_clocks) {
		if (c == g)
			return true;
		c = s->b->clock[c].parent;
	}
	return false;
}

static void clk_complete(struct soc *s, unsigned int c, uint32_t seq,
			 int status)
{
	struct vsoc_req_slot *sl = &s->clk[c];

	sl->status = (uint32_t)status;
	sl->state = s->clk_st[c].state;
	sl->rate_hz = s->clk_st[c].rate;
	sl->done_ns = s->now;
	soc_publish(s);
	RELEASE();
	WRITE_M(sl->ack_seq, seq);
	s->clk_st[c].acked = seq;
	ring_guest(s, VSOC_VEC_CLK);
}

static int clock_request(struct soc *s, unsigned int c, uint32_t op,
			 uint64_t arg, bool *is_garbage)
{
	const struct board_clock *bc = &s->b->clock[c];
	struct soc_clock *sc = &s->clk_st[c];
	unsigned int i;

	*is_garbage = false;
	switch (op) {
	case VSOC_CLK_OP_UNGATE:
		if (arg)
			break;
		if (sc->state == VSOC_CLK_RUNNING)
			return 0;
		if (bc->parent != VSOC_NONE && !clock_running(s, bc->parent)) {
			violation(s, VSOC_RULE_CLK_PARENT_GATED, VSOC_OBJ_CLOCK,
				  c);
			return -VSOC_EPERM;
		}
		sc->state = VSOC_CLK_RUNNING;
		sc->ungate_count++;
		timeline(s, TL_CLOCK, c, sc->state);
		return 0;
	case VSOC_CLK_OP_GATE:
		if (arg || !(bc->flags & VSOC_CLK_GATE) ||
		    (bc->flags & VSOC_CLK_CRITICAL))
			break;
		if (sc->state == VSOC_CLK_GATED)
			return 0;
		for (i = 0; i < s->b->nr_periphs; i++)
			if (s->per[i].busy && s->b->periph[i].clock != VSOC_NONE &&
			    clock_below(s, s->b->periph[i].clock, c)) {
				violation(s, VSOC_RULE_CLOCK_GATED,
					  VSOC_OBJ_PERIPH, i);
				periph_abort(s, i, -VSOC_ECANCELED);
			}
		sc->state = VSOC_CLK_GATED;
		sc->gate_count++;
		timeline(s, TL_CLOCK, c, sc->state);
		return 0;
	case VSOC_CLK_OP_SET_RATE:
		if (!(bc->flags & VSOC_CLK_SET_RATE))
			break;
		if (arg < bc->min_rate_hz || arg > bc->max_rate_hz)
			return -VSOC_ERANGE;
		sc->rate = arg;
		sc->rate_count++;
		return 0;
	}
	*is_garbage = true;
	return -VSOC_EINVAL;
}

static void scan_clk(struct soc *s)
{
	unsigned int c;

	for (c = 0; c < s->b->nr_clocks; c++) {
		struct vsoc_req_slot *sl = &s->clk[c];
		uint32_t seq = READ_GUEST(sl->req_seq), op, flags, res;
		uint64_t arg;
		bool bad;
		int r;

		if (seq == s->clk_st[c].acked)
			continue;
		ACQUIRE();
		op = READ_GUEST(sl->op);
		flags = READ_GUEST(sl->flags);
		res = READ_GUEST(sl->reserved0);
		arg = READ_GUEST(sl->arg);
		if (flags || res) {
			r = -VSOC_EINVAL;
			bad = true;
		} else {
			r = clock_request(s, c, op, arg, &bad);
		}
		if (bad)
			garbage(s, "clock slot", c, "bad op, argument or field");
		clk_complete(s, c, seq, r);
	}
}

/* ---------------- peripherals ---------------- */

static void periph_event(struct soc *s, unsigned int i, int status)
{
	struct vsoc_periph_regs *r = regs_of(s, i);

	r->event_result = (uint32_t)status;
	soc_publish(s);
	RELEASE();
	r->event_seq++;
	if (READ_GUEST(r->irq_enable) == 1)
		ring_guest(s, s->b->periph[i].vector_guest);
}

static void periph_set_busy(struct soc *s, unsigned int i, bool busy)
{
	if (s->per[i].busy == busy)
		return;
	s->per[i].busy = busy;
	regs_of(s, i)->busy = busy;
	timeline(s, TL_PERIPH, i, busy);
}

static int periph_start(struct soc *s, unsigned int i, uint32_t cmd,
			const uint64_t *arg, bool *is_garbage)
{
	const struct board_periph *bp = &s->b->periph[i];
	struct soc_periph *p = &s->per[i];
	struct vsoc_periph_regs *r = regs_of(s, i);
	uint64_t cap;

	*is_garbage = false;
	if (cmd == VSOC_CMD_NOP)
		return 0;
	if (cmd == VSOC_CMD_STOP) {
		if (p->busy) {
			p->due = 0;
			periph_set_busy(s, i, false);
		}
		return 0;
	}
	switch (bp->type) {
	case VSOC_PERIPH_TIMER:
		if (cmd == VSOC_TIMER_CMD_READ) {
			if (p->busy)
				r->value[VSOC_REG_COUNTER] = s->now - p->start;
			return 0;
		}
		if (cmd != VSOC_TIMER_CMD_START || arg[1] & ~(uint64_t)VSOC_TIMER_PERIODIC ||
		    arg[0] < MIN_PERIOD_NS || arg[0] > MAX_PERIOD_NS)
			break;
		if (p->busy)
			return -VSOC_EBUSY;
		p->period = arg[0];
		p->periodic = arg[1] & VSOC_TIMER_PERIODIC;
		p->start = s->now;
		p->due = s->now + p->period;
		r->value[VSOC_REG_EXPIRATIONS] = 0;
		r->value[VSOC_REG_COUNTER] = 0;
		periph_set_busy(s, i, true);
		return 0;
	case VSOC_PERIPH_SENSOR:
		cap = bp->data_size / sizeof(struct vsoc_sensor_sample);
		if (cmd != VSOC_SENSOR_CMD_SAMPLE || !arg[0] || arg[0] > cap ||
		    arg[1] < MIN_PERIOD_NS || arg[1] > MAX_PERIOD_NS / cap)
			break;
		if (p->busy)
			return -VSOC_EBUSY;
		p->count = arg[0];
		p->period = arg[1];
		p->start = s->now;
		p->due = s->now + p->count * p->period;
		periph_set_busy(s, i, true);
		return 0;
	case VSOC_PERIPH_DMA:
		if (cmd != VSOC_DMA_CMD_START || !arg[2] ||
		    arg[2] > bp->data_size || arg[0] > bp->data_size - arg[2] ||
		    arg[1] > bp->data_size - arg[2] ||
		    arg[3] > VSOC_DMA_XFORM_CRC32 || arg[4] > 0xff)
			break;
		if (p->busy)
			return -VSOC_EBUSY;
		p->src = arg[0];
		p->dst = arg[1];
		p->len = arg[2];
		p->xform = arg[3];
		p->key = arg[4];
		p->start = s->now;
		p->due = s->now + (p->len * 1000 + bp->bandwidth - 1) /
				  bp->bandwidth;
		periph_set_busy(s, i, true);
		return 0;
	}
	*is_garbage = true;
	return -VSOC_EINVAL;
}

static void periph_due(struct soc *s, unsigned int i)
{
	const struct board_periph *bp = &s->b->periph[i];
	struct soc_periph *p = &s->per[i];
	struct vsoc_periph_regs *r = regs_of(s, i);
	uint8_t *data = s->shm + bp->data_off;
	uint64_t k;

	switch (bp->type) {
	case VSOC_PERIPH_TIMER:
		r->value[VSOC_REG_EXPIRATIONS]++;
		r->value[VSOC_REG_COUNTER] = s->now - p->start;
		if (p->periodic) {
			p->due += p->period;
			if (p->due <= s->now)
				p->due = s->now + p->period;
		} else {
			p->due = 0;
			periph_set_busy(s, i, false);
		}
		periph_event(s, i, 0);
		return;
	case VSOC_PERIPH_SENSOR:
		for (k = 0; k < p->count; k++) {
			struct vsoc_sensor_sample *smp = (void *)(data +
							  k * sizeof(*smp));
			uint64_t n = p->total++;

			smp->ts_ns = p->start + (k + 1) * p->period;
			smp->seq = (uint32_t)n;
			/* a slow triangle around 40 C */
			smp->value = 35000 + (uint32_t)(n % 200 < 100 ?
						       n % 100 : 100 - n % 100) * 100;
		}
		r->value[0] = p->count;
		r->value[1] = p->total;
		break;
	case VSOC_PERIPH_DMA: {
		uint8_t *tmp = malloc(p->len);
		uint64_t n = p->len;

		if (!tmp) {
			p->due = 0;
			periph_set_busy(s, i, false);
			periph_event(s, i, -VSOC_EIO);
			return;
		}
		memcpy(tmp, data + p->src, n);
		switch (p->xform) {
		case VSOC_DMA_XFORM_COPY:
			memcpy(data + p->dst, tmp, n);
			break;
		case VSOC_DMA_XFORM_XOR:
			for (k = 0; k < n; k++)
				data[p->dst + k] = tmp[k] ^ (uint8_t)p->key;
			break;
		case VSOC_DMA_XFORM_REVERSE:
			for (k = 0; k < n; k++)
				data[p->dst + k] = tmp[n - 1 - k];
			break;
		case VSOC_DMA_XFORM_CRC32:
			r->value[1] = crc32(0, tmp, n);
			break;
		}
		free(tmp);
		r->value[0] = n;
		break;
	}
	default:
		break;
	}
	p->due = 0;
	periph_set_busy(s, i, false);
	periph_event(s, i, 0);
}

static void scan_periph(struct soc *s)
{
	unsigned int i, j;

	for (i = 0; i < s->b->nr_periphs; i++) {
		const struct board_periph *bp = &s->b->periph[i];
		struct vsoc_periph_regs *r = regs_of(s, i);
		uint32_t seq = READ_GUEST(r->cmd_seq), cmd;
		uint64_t arg[6];
		bool bad = false;
		int res;

		if (READ_GUEST(r->type) != bp->type ||
		    READ_GUEST(r->index) != i) {
			garbage(s, "periph regs", i, "read-only field written");
			r->type = bp->type;
			r->index = i;
		}
		if (seq == s->per[i].acked)
			continue;
		ACQUIRE();
		cmd = READ_GUEST(r->cmd);
		for (j = 0; j < 6; j++)
			arg[j] = READ_GUEST(r->arg[j]);
		if (s->dom[bp->domain].state != VSOC_PWR_ON) {
			violation(s, VSOC_RULE_DOMAIN_OFF, VSOC_OBJ_PERIPH, i);
			res = -VSOC_EPERM;
		} else if (bp->clock != VSOC_NONE &&
			   !clock_running(s, bp->clock)) {
			violation(s, VSOC_RULE_CLOCK_GATED, VSOC_OBJ_PERIPH, i);
			res = -VSOC_EPERM;
		} else {
			res = periph_start(s, i, cmd, arg, &bad);
			if (bad)
				garbage(s, "periph command", i,
					"unknown command or bad argument");
			else
				s->per[i].ops++;
		}
		r->cmd_result = (uint32_t)res;
		soc_publish(s);
		RELEASE();
		WRITE_M(r->cmd_ack, seq);
		s->per[i].acked = seq;
		ring_guest(s, bp->vector_guest);
	}
}

/* ---------------- remote cores ---------------- */

static bool entry_ok(const struct board_core *bc, uint64_t da)
{
	unsigned int j;

	for (j = 0; j < bc->nr_mems; j++)
		if ((bc->mem[j].flags & VSOC_MEM_EXEC) &&
		    da >= bc->mem[j].da && da - bc->mem[j].da < bc->mem[j].size)
			return true;
	return false;
}

/* ---------------- the vring firewall ---------------- */

struct fw_span {
	uint64_t da, end;
	unsigned int mem;
};

static int cmp_span(const void *a, const void *b)
{
	const struct fw_span *x = a, *y = b;

	if (x->mem != y->mem)
		return x->mem < y->mem ? -1 : 1;
	return x->da < y->da ? -1 : x->da > y->da;
}

int soc_firewall_plan(const struct board_core *bc, uint32_t count,
		      uint32_t reserved, const struct vsoc_fw_region *regions,
		      struct soc_ro *ro, unsigned int *nr_ro,
		      uint64_t *protected_bytes, uint64_t *unprotected_bytes,
		      const char **why)
{
	struct fw_span sp[VSOC_CORE_FW_REGIONS];
	uint64_t prot = 0, unprot = 0;
	unsigned int i, j, n = 0, m = 0, k = 0;

	*nr_ro = 0;
	*protected_bytes = 0;
	*unprotected_bytes = 0;
	if (count > VSOC_CORE_FW_REGIONS) {
		*why = "more regions than the firewall has";
		return -1;
	}
	if (reserved) {
		*why = "reserved field set";
		return -1;
	}
	for (i = 0; i < count; i++) {
		uint64_t da = regions[i].da, len = regions[i].len;

		if (!len) {
			*why = "empty region";
			return -1;
		}
		if (da + len < da) {
			*why = "region wraps around";
			return -1;
		}
		for (j = 0; j < bc->nr_mems; j++) {
			const struct board_mem *bm = &bc->mem[j];

			if (da >= bm->da && da - bm->da <= bm->size &&
			    len <= bm->size - (da - bm->da))
				break;
		}
		/* Linux's DRAM, where mainline allocates the vrings: j = nr_mems */
		if (j == bc->nr_mems &&
		    !(bc->ddr_len && da >= bc->ddr_da &&
		      da - bc->ddr_da <= bc->ddr_len &&
		      len <= bc->ddr_len - (da - bc->ddr_da))) {
			*why = "region outside the core's memories";
			return -1;
		}
		sp[n++] = (struct fw_span){ .da = da, .end = da + len, .mem = j };
	}
	/* one span per run of overlapping or touching regions of a memory */
	qsort(sp, n, sizeof(sp[0]), cmp_span);
	for (i = 0; i < n; i++) {
		if (m && sp[m - 1].mem == sp[i].mem && sp[i].da <= sp[m - 1].end) {
			if (sp[i].end > sp[m - 1].end)
				sp[m - 1].end = sp[i].end;
			continue;
		}
		sp[m++] = sp[i];
	}
	/* the whole pages inside each span; a memory lies below 4 GiB */
	for (i = 0; i < m; i++) {
		uint64_t lo = (sp[i].da + SOC_FW_PAGE - 1) & ~(SOC_FW_PAGE - 1);
		uint64_t hi = sp[i].end & ~(SOC_FW_PAGE - 1), got = 0;

		if (hi > lo) {
			ro[k].da = lo;
			ro[k].len = hi - lo;
			k++;
			got = hi - lo;
		}
		prot += got;
		unprot += sp[i].end - sp[i].da - got;
	}
	*nr_ro = k;
	*protected_bytes = prot;
	*unprotected_bytes = unprot;
	return 0;
}

/* Read Linux's firewall regions once and plan core @i's next run. */
static int core_firewall(struct soc *s, unsigned int i)
{
	const struct board_core *bc = &s->b->core[i];
	struct vsoc_core_ctl *c = ctl_of(s, i);
	struct vsoc_fw_region regions[VSOC_CORE_FW_REGIONS];
	struct soc_core *sc = &s->core[i];
	uint32_t count = READ_GUEST(c->fw_count);
	uint32_t reserved = READ_GUEST(c->fw_reserved);
	uint64_t prot, unprot;
	const char *why = NULL;
	unsigned int k;

	for (k = 0; k < count && k < VSOC_CORE_FW_REGIONS; k++) {
		regions[k].da = READ_GUEST(c->fw[k].da);
		regions[k].len = READ_GUEST(c->fw[k].len);
	}
	if (soc_firewall_plan(bc, count, reserved, regions, sc->ro, &sc->nr_ro,
			      &prot, &unprot, &why)) {
		sc->nr_ro = 0;
		fprintf(stderr, "socmodel: core %s: firewall programming refused: %s\n",
			bc->name, why);
		violation(s, VSOC_RULE_FIREWALL, VSOC_OBJ_CORE, i);
		return -VSOC_EINVAL;
	}
	if (!bc->firewall) {
		sc->nr_ro = 0;
		prot = 0;
		unprot = 0;
	}
	c->fw_protected = prot;
	c->fw_unprotected = unprot;
	return 0;
}

static void core_set_state(struct soc *s, unsigned int i, uint32_t st)
{
	s->core[i].state = st;
	ctl_of(s, i)->state = st;
	timeline(s, TL_CORE, i, st);
}

static int core_request(struct soc *s, unsigned int i, uint32_t op,
			uint64_t entry)
{
	const struct board_core *bc = &s->b->core[i];
	struct vsoc_core_ctl *c = ctl_of(s, i);
	struct soc_core *sc = &s->core[i];
	int r;

	if (op == VSOC_CORE_OP_RUN) {
		if (s->dom[bc->domain].state != VSOC_PWR_ON) {
			violation(s, VSOC_RULE_DOMAIN_OFF, VSOC_OBJ_CORE, i);
			return -VSOC_EPERM;
		}
		/* A kernel that forgot the core's memory domain (ABI 1.5). */
		if (bc->mem_domain != VSOC_NONE &&
		    s->dom[bc->mem_domain].state != VSOC_PWR_ON) {
			violation(s, VSOC_RULE_CORE_MEM_OFF, VSOC_OBJ_CORE, i);
			return -VSOC_EPERM;
		}
		if (sc->state != VSOC_CORE_RESET)
			return -VSOC_EBUSY;
		if (!entry_ok(bc, entry)) {
			garbage(s, "core ctl", i,
				"boot address outside executable memory");
			return -VSOC_EINVAL;
		}
		r = core_firewall(s, i);
		if (r)
			return r;
		c->wdt_timeout_ms = 0;
		c->wdt_count = 0;
		sc->wdt_last = 0;
		sc->wdt_since = s->now;
		sc->wdt_due = s->now + 10000000;	/* look every 10 ms */
		r = s->ops->core_start(s->ctx, i, entry, sc->ro, sc->nr_ro);
		c->start_ns = s->now;
		if (r < 0) {
			sc->wdt_due = 0;
			c->crash_reason = VSOC_CRASH_START;
			c->crash_info = (uint32_t)-r;
			c->crash_count++;
			core_set_state(s, i, VSOC_CORE_CRASHED);
			return -VSOC_EIO;
		}
		c->boot_count++;
		core_set_state(s, i, VSOC_CORE_RUNNING);
		return 0;
	}
	if (op == VSOC_CORE_OP_HALT) {
		if (sc->state == VSOC_CORE_RUNNING)
			s->ops->core_stop(s->ctx, i);
		sc->wdt_due = 0;
		if (sc->state == VSOC_CORE_RUNNING ||
		    sc->state == VSOC_CORE_CRASHED) {
			c->stop_ns = s->now;
			core_set_state(s, i, VSOC_CORE_RESET);
		}
		return 0;
	}
	garbage(s, "core ctl", i, "unknown op");
	return -VSOC_EINVAL;
}

static void scan_core(struct soc *s)
{
	unsigned int i;

	for (i = 0; i < s->b->nr_cores; i++) {
		struct vsoc_core_ctl *c = ctl_of(s, i);
		uint32_t seq = READ_GUEST(c->req_seq);
		int r;

		if (seq == s->core[i].acked)
			continue;
		ACQUIRE();
		r = core_request(s, i, READ_GUEST(c->op),
				 READ_GUEST(c->boot_addr));
		c->status = (uint32_t)r;
		soc_publish(s);
		RELEASE();
		WRITE_M(c->ack_seq, seq);
		s->core[i].acked = seq;
		ring_guest(s, VSOC_VEC_CORE);
	}
}

static void mbox_push(struct soc *s, uint32_t m, uint32_t word)
{
	const struct board_mbox *bm = &s->b->mbox[m];
	struct vsoc_mbox_fifo *f = (void *)(s->shm + bm->fifo_off);
	uint32_t head = READ_GUEST(f->head), tail = READ_GUEST(f->tail);

	if (head - tail >= bm->depth) {
		f->overflows++;
	} else {
		WRITE_M(f->msg[head % bm->depth], word);
		RELEASE();
		WRITE_M(f->head, head + 1);
	}
	ring_guest(s, bm->vector);
}

static const char *access_name(uint32_t access)
{
	switch (access) {
	case AMPSOC_CORE_ACCESS_READ:
		return "read";
	case AMPSOC_CORE_ACCESS_WRITE:
		return "write";
	case AMPSOC_CORE_ACCESS_FETCH:
		return "fetch";
	}
	return "access";
}

static void core_ended(struct soc *s, unsigned int i, uint32_t reason,
		       uint32_t info)
{
	struct vsoc_core_ctl *c = ctl_of(s, i);

	s->core[i].wdt_due = 0;
	c->stop_ns = s->now;
	if (reason == VSOC_CRASH_EXIT && info == 0) {
		core_set_state(s, i, VSOC_CORE_RESET);
	} else {
		/* registers only come with a fault record */
		if (reason != VSOC_CRASH_FAULT) {
			c->fault_signo = 0;
			c->fault_nr_regs = 0;
		}
		c->crash_reason = reason;
		c->crash_info = info;
		c->crash_count++;
		core_set_state(s, i, VSOC_CORE_CRASHED);
		if (reason == VSOC_CRASH_FAULT)
			fprintf(stderr, "socmodel: core %s crashed (%s fault: %s %#llx pc %#llx)\n",
				s->b->core[i].name, ampsoc_core_fault_name(info),
				access_name(c->fault_access),
				(unsigned long long)c->fault_addr,
				(unsigned long long)c->fault_pc);
		else
			fprintf(stderr, "socmodel: core %s crashed (%s %u)\n",
				s->b->core[i].name,
				reason == VSOC_CRASH_SIGNAL ? "signal" :
				reason == VSOC_CRASH_WATCHDOG ? "watchdog" :
				"exit", info);
		soc_publish(s);
		if (s->b->core[i].mbox_rx != VSOC_NONE)
			mbox_push(s, s->b->core[i].mbox_rx, VSOC_MBOX_MSG_CRASH);
	}
	soc_publish(s);
	ring_guest(s, VSOC_VEC_CORE);
}

void soc_core_exited(struct soc *s, unsigned int i, uint32_t reason,
		     uint32_t info)
{
	if (i >= s->b->nr_cores || s->core[i].state != VSOC_CORE_RUNNING)
		return;
	core_ended(s, i, reason, info);
}

/* Whether a fault record of core @i is one its runner could have written. */
static int fault_check(const struct soc *s, unsigned int i, int signo,
		       const struct ampsoc_core_fault *f, const char **why)
{
	const struct soc_core *sc = &s->core[i];
	unsigned int k;

	if (f->magic != AMPSOC_CORE_FAULT_MAGIC || f->size != sizeof(*f)) {
		*why = "bad magic or size";
		return -1;
	}
	if (f->reason == AMPSOC_CORE_FAULT_NONE ||
	    f->reason > AMPSOC_CORE_FAULT_MAX) {
		*why = "unknown reason";
		return -1;
	}
	if (f->isa < AMPSOC_CORE_ISA_X86_64 || f->isa > AMPSOC_CORE_ISA_RV32IMAC) {
		*why = "unknown instruction set";
		return -1;
	}
	if (f->access > AMPSOC_CORE_ACCESS_FETCH) {
		*why = "unknown access";
		return -1;
	}
	if (f->nr_regs > AMPSOC_CORE_FAULT_MAX_REGS || f->reserved) {
		*why = "bad register count or reserved field";
		return -1;
	}
	if ((int)f->signo != signo) {
		*why = "the core ended by another signal";
		return -1;
	}
	if (f->reason != AMPSOC_CORE_FAULT_FIREWALL)
		return 0;
	for (k = 0; k < sc->nr_ro; k++)
		if (f->addr >= sc->ro[k].da && f->addr - sc->ro[k].da < sc->ro[k].len)
			return 0;
	*why = "firewall fault outside the firewall";
	return -1;
}

int soc_core_fault(struct soc *s, unsigned int i, int signo,
		   const void *rec, size_t len, const char **why)
{
	struct ampsoc_core_fault f;
	struct vsoc_core_ctl *c;

	*why = NULL;
	if (i >= s->b->nr_cores || s->core[i].state != VSOC_CORE_RUNNING) {
		*why = "core not running";
		return -1;
	}
	if (!len) {
		*why = "no record";
		soc_core_exited(s, i, VSOC_CRASH_SIGNAL, signo);
		return -1;
	}
	if (len == sizeof(f))
		memcpy(&f, rec, sizeof(f));
	else
		*why = "truncated or oversized record";
	if (len != sizeof(f) || fault_check(s, i, signo, &f, why)) {
		fprintf(stderr, "socmodel: core %s: fault record ignored: %s\n",
			s->b->core[i].name, *why);
		soc_core_exited(s, i, VSOC_CRASH_SIGNAL, signo);
		return -1;
	}
	c = ctl_of(s, i);
	c->fault_addr = f.addr;
	c->fault_pc = f.pc;
	c->fault_access = f.access;
	/* the registers, for Linux's coredump (ABI 1.4) */
	c->fault_signo = f.signo;
	c->fault_nr_regs = f.nr_regs <= VSOC_CORE_FAULT_REGS ? f.nr_regs : 0;
	memset(c->fault_regs, 0, sizeof(c->fault_regs));
	memcpy(c->fault_regs, f.regs, c->fault_nr_regs * sizeof(f.regs[0]));
	if (f.reason == AMPSOC_CORE_FAULT_FIREWALL) {
		s->core[i].fw_faults++;
		s->fw_faults++;
		c->fw_faults = s->core[i].fw_faults;
	}
	core_ended(s, i, VSOC_CRASH_FAULT, f.reason);
	return 0;
}

static void core_wdt(struct soc *s, unsigned int i)
{
	struct vsoc_core_ctl *c = ctl_of(s, i);
	struct soc_core *sc = &s->core[i];
	uint32_t tmo = READ_GUEST(c->wdt_timeout_ms);
	uint32_t cnt = READ_GUEST(c->wdt_count);

	if (cnt != sc->wdt_last || !tmo) {
		sc->wdt_last = cnt;
		sc->wdt_since = s->now;
	}
	if (tmo) {
		if (tmo < 10)
			tmo = 10;
		if (s->now - sc->wdt_since >= (uint64_t)tmo * 1000000) {
			s->ops->core_stop(s->ctx, i);
			soc_core_exited(s, i, VSOC_CRASH_WATCHDOG, tmo);
			return;
		}
	}
	sc->wdt_due = s->now + 10000000;
}

/* ---------------- echo ---------------- */

static void rt_ring(struct soc *s)
{
	s->rt_ring++;
	s->rt_t0 = s->now;
	RELEASE();
	WRITE_M(s->echo->rt_ring_seq, s->rt_ring);
	ring_guest(s, VSOC_VEC_ECHO_RT);
}

static void rt_finish(struct soc *s, int status)
{
	struct vsoc_echo *e = s->echo;

	e->rt_status = (uint32_t)status;
	e->rt_done = s->rt_done;
	e->rt_total_ns = s->rt_total;
	e->rt_min_ns = s->rt_done ? s->rt_min : 0;
	e->rt_max_ns = s->rt_max;
	RELEASE();
	WRITE_M(e->rt_ack_seq, s->rt_acked);
	s->rt_active = false;
	ring_guest(s, VSOC_VEC_ECHO_RT);
}

static void echo_rt(struct soc *s)
{
	struct vsoc_echo *e = s->echo;
	uint32_t req = READ_GUEST(e->rt_req_seq);

	if (s->rt_active) {
		uint64_t dt;

		if (READ_GUEST(e->rt_reply_seq) != s->rt_ring)
			return;
		dt = s->now - s->rt_t0;
		s->rt_total += dt;
		if (dt < s->rt_min)
			s->rt_min = dt;
		if (dt > s->rt_max)
			s->rt_max = dt;
		if (++s->rt_done >= s->rt_count)
			rt_finish(s, 0);
		else
			rt_ring(s);
		return;
	}
	if (req == s->rt_acked)
		return;
	ACQUIRE();
	s->rt_acked = req;
	s->rt_count = READ_GUEST(e->rt_count);
	s->rt_done = 0;
	s->rt_total = 0;
	s->rt_max = 0;
	s->rt_min = UINT64_MAX;
	if (!s->rt_count || s->rt_count > 1000000) {
		garbage(s, "echo", 0, "round-trip count out of range");
		rt_finish(s, -VSOC_EINVAL);
		return;
	}
	s->rt_active = true;
	rt_ring(s);
}

static void scan_fault(struct soc *s);

/* ---------------- entry points ---------------- */

void soc_doorbell(struct soc *s, unsigned int vector)
{
	if (s->lost_in) {
		s->lost_in--;
		s->lost_doorbells++;
		soc_publish(s);
		return;
	}
	switch (vector) {
	case VSOC_VEC_PWR:
		scan_pwr(s);
		break;
	case VSOC_VEC_CLK:
		scan_clk(s);
		break;
	case VSOC_VEC_ECHO: {
		uint32_t p = READ_GUEST(s->echo->ping_seq);

		if (p != s->ping_acked) {
			s->ping_acked = p;
			RELEASE();
			WRITE_M(s->echo->ping_ack, p);
			ring_guest(s, VSOC_VEC_ECHO);
		}
		return;		/* the fast path skips the telemetry */
	}
	case VSOC_VEC_PERIPH:
		scan_periph(s);
		break;
	case VSOC_VEC_CORE:
		scan_core(s);
		break;
	case VSOC_VEC_ECHO_RT:
		echo_rt(s);
		return;
	case VSOC_VEC_FAULT:
		scan_fault(s);
		break;
	default:
		break;
	}
	soc_publish(s);
}

uint64_t soc_next_deadline(const struct soc *s)
{
	uint64_t t = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < s->b->nr_domains; i++)
		if (s->dom[i].due && s->dom[i].due < t)
			t = s->dom[i].due;
	for (i = 0; i < s->b->nr_periphs; i++)
		if (s->per[i].due && s->per[i].due < t)
			t = s->per[i].due;
	for (i = 0; i < s->b->nr_cores; i++)
		if (s->core[i].wdt_due && s->core[i].wdt_due < t)
			t = s->core[i].wdt_due;
	return t;
}

void soc_run_due(struct soc *s)
{
	bool any = true, changed = false;
	unsigned int i;

	while (any) {
		any = false;
		for (i = 0; i < s->b->nr_domains; i++)
			if (s->dom[i].due && s->dom[i].due <= s->now) {
				domain_done(s, i);
				any = true;
			}
		for (i = 0; i < s->b->nr_periphs; i++)
			if (s->per[i].due && s->per[i].due <= s->now) {
				periph_due(s, i);
				any = true;
			}
		for (i = 0; i < s->b->nr_cores; i++)
			if (s->core[i].wdt_due && s->core[i].wdt_due <= s->now) {
				core_wdt(s, i);
				any = true;
			}
		changed |= any;
	}
	if (changed)
		soc_publish(s);
}

void soc_publish(struct soc *s)
{
	struct vsoc_telemetry *t = s->telem;
	uint64_t total = 0;
	unsigned int i;

	WRITE_M(t->seq, t->seq + 1);
	RELEASE();
	t->now_ns = s->now;
	t->violations = s->violations;
	t->garbage = s->garbage;
	t->lost_doorbells = s->lost_doorbells;
	t->fw_faults = s->fw_faults;
	t->faults_active = 0;
	if (s->lost_in || s->lost_out)
		t->faults_active |= 1u << VSOC_FAULT_LOST_DB;
	for (i = 0; i < s->b->nr_domains; i++) {
		struct vsoc_telem_domain *d = &t->domains[i];

		d->state = s->dom[i].state;
		d->on_count = s->dom[i].on_count;
		d->off_count = s->dom[i].off_count;
		d->failed_count = s->dom[i].failed_count;
		d->last_change_ns = s->dom[i].last_change;
		d->energy_uj = soc_energy_uj(s, i);
		total += d->energy_uj;
		if (s->dom[i].slow_ns)
			t->faults_active |= 1u << VSOC_FAULT_SLOW_ON;
		if (s->dom[i].fail_on)
			t->faults_active |= 1u << VSOC_FAULT_FAIL_ON;
		if (s->dom[i].stuck)
			t->faults_active |= 1u << VSOC_FAULT_STUCK;
	}
	t->energy_total_uj = total;
	for (i = 0; i < s->b->nr_domains; i++)
		t->level[i] = soc_domain_level(s, i);
	for (i = 0; i < s->b->nr_levels; i++)
		t->level_energy_uj[i] = soc_level_energy_uj(s, i);
	for (i = 0; i < s->b->nr_clocks; i++) {
		struct vsoc_telem_clock *c = &t->clocks[i];

		c->state = s->clk_st[i].state;
		c->ungate_count = s->clk_st[i].ungate_count;
		c->gate_count = s->clk_st[i].gate_count;
		c->rate_count = s->clk_st[i].rate_count;
		c->rate_hz = s->clk_st[i].rate;
	}
	t->periph_busy = 0;
	for (i = 0; i < s->b->nr_periphs; i++) {
		if (s->per[i].busy)
			t->periph_busy |= 1u << i;
		t->periph_ops[i] = s->per[i].ops;
	}
	RELEASE();
	WRITE_M(t->seq, t->seq + 1);
}

int soc_init(struct soc *s, const struct board *b, void *shm,
	     uint64_t shm_size, const struct soc_ops *ops, void *ctx)
{
	char err[BOARD_ERR_LEN];
	unsigned int i;

	memset(s, 0, sizeof(*s));
	if (shm_size < b->shm_size)
		return -EINVAL;
	s->b = b;
	s->shm = shm;
	s->shm_size = shm_size;
	s->ops = ops;
	s->ctx = ctx;
	s->viol = calloc(SOC_VIOL_MAX, sizeof(*s->viol));
	s->tl = calloc(SOC_TIMELINE_MAX, sizeof(*s->tl));
	if (!s->viol || !s->tl) {
		soc_free(s);
		return -ENOMEM;
	}
	/*
	 * Publish only what Linux will accept: the kernel's own checker, on
	 * the table as written, so that a model bug is caught here, with
	 * the model's name on it, rather than as a guest probe failure.
	 */
	if (table_check(shm, board_write_table(b, shm), b->shm_size, err,
			sizeof(err))) {
		fprintf(stderr, "socmodel: board '%s': the table written fails Linux's check: %s\n",
			b->name, err);
		memset(shm, 0, b->table_size);	/* no magic: nothing published */
		soc_free(s);
		return -EPROTO;
	}
	s->telem = (void *)(s->shm + b->telem_off);
	s->pwr = (void *)(s->shm + b->pwr_off);
	s->clk = (void *)(s->shm + b->clk_off);
	s->echo = (void *)(s->shm + b->echo_off);
	s->fault = (void *)(s->shm + b->fault_off);
	for (i = 0; i < b->nr_domains; i++) {
		s->dom[i].state = b->domain[i].initially_on ? VSOC_PWR_ON :
							      VSOC_PWR_OFF;
		s->pwr[i].state = s->dom[i].state;
		timeline(s, TL_DOMAIN, i, s->dom[i].state);
	}
	for (i = 0; i < b->nr_clocks; i++) {
		s->clk_st[i].state = b->clock[i].initially_on ?
				     VSOC_CLK_RUNNING : VSOC_CLK_GATED;
		s->clk_st[i].rate = b->clock[i].rate_hz;
		s->clk[i].state = s->clk_st[i].state;
		s->clk[i].rate_hz = s->clk_st[i].rate;
	}
	for (i = 0; i < b->nr_periphs; i++) {
		regs_of(s, i)->type = b->periph[i].type;
		regs_of(s, i)->index = i;
	}
	for (i = 0; i < b->nr_cores; i++) {
		s->core[i].state = s->dom[b->core[i].domain].state ==
				   VSOC_PWR_ON ? VSOC_CORE_RESET : VSOC_CORE_OFF;
		ctl_of(s, i)->state = s->core[i].state;
		ctl_of(s, i)->ddr_da = b->core[i].ddr_len ? b->core[i].ddr_da : 0;
		ctl_of(s, i)->ddr_size = b->core[i].ddr_len;
	}
	soc_publish(s);
	return 0;
}

void soc_free(struct soc *s)
{
	free(s->viol);
	free(s->tl);
	s->viol = NULL;
	s->tl = NULL;
}

/* ---------------- faults ---------------- */

static int find_dom(const struct soc *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->b->nr_domains; i++)
		if (!strcmp(s->b->domain[i].name, name))
			return i;
	return -1;
}

static void clear_domain_fault(struct soc *s, unsigned int d, uint32_t kind)
{
	struct soc_domain *sd = &s->dom[d];

	if (kind == VSOC_FAULT_ALL || kind == VSOC_FAULT_SLOW_ON)
		sd->slow_ns = 0;
	if (kind == VSOC_FAULT_ALL || kind == VSOC_FAULT_FAIL_ON)
		sd->fail_on = 0;
	if ((kind == VSOC_FAULT_ALL || kind == VSOC_FAULT_STUCK) && sd->stuck) {
		/* the request that got stuck completes now */
		if (sd->inflight)
			sd->due = s->now ? s->now : 1;
		sd->stuck = false;
	}
}

int soc_fault_apply(struct soc *s, uint32_t op, uint32_t kind,
		    uint32_t target, uint64_t arg)
{
	unsigned int i;

	if (op == VSOC_FAULT_OP_CLEAR) {
		if (kind == VSOC_FAULT_ALL) {
			for (i = 0; i < s->b->nr_domains; i++)
				clear_domain_fault(s, i, kind);
			s->lost_in = 0;
			s->lost_out = 0;
			return 0;
		}
		if (kind == VSOC_FAULT_LOST_DB) {
			s->lost_in = 0;
			s->lost_out = 0;
			return 0;
		}
		if (kind > VSOC_FAULT_STUCK || target >= s->b->nr_domains)
			return -VSOC_EINVAL;
		clear_domain_fault(s, target, kind);
		return 0;
	}
	if (op != VSOC_FAULT_OP_SET)
		return -VSOC_EINVAL;
	switch (kind) {
	case VSOC_FAULT_LOST_DB:
		if (target > 1 || arg > 1000000)
			return -VSOC_EINVAL;
		if (target)
			s->lost_in = arg;
		else
			s->lost_out = arg;
		return 0;
	case VSOC_FAULT_SLOW_ON:
		if (target >= s->b->nr_domains || arg > 10000000000ull)
			return -VSOC_EINVAL;
		s->dom[target].slow_ns = arg;
		return 0;
	case VSOC_FAULT_FAIL_ON:
		if (target >= s->b->nr_domains || arg >= ~0u)
			return -VSOC_EINVAL;
		s->dom[target].fail_on = arg ? arg : ~0u;
		return 0;
	case VSOC_FAULT_STUCK:
		if (target >= s->b->nr_domains || arg)
			return -VSOC_EINVAL;
		s->dom[target].stuck = true;
		return 0;
	}
	return -VSOC_EINVAL;
}

static void scan_fault(struct soc *s)
{
	struct vsoc_fault_ctl *f = s->fault;
	uint32_t seq = READ_GUEST(f->req_seq), op, kind, target;
	uint32_t saved_in, saved_out;
	uint64_t arg;
	int r;

	if (seq == s->fault_acked)
		return;
	ACQUIRE();
	op = READ_GUEST(f->op);
	kind = READ_GUEST(f->kind);
	target = READ_GUEST(f->target);
	arg = READ_GUEST(f->arg);
	/* a new lost-doorbell fault must not eat its own acknowledgment */
	saved_in = s->lost_in;
	saved_out = s->lost_out;
	r = soc_fault_apply(s, op, kind, target, arg);
	if (r)
		garbage(s, "fault ctl", 0, "bad op, kind, target or argument");
	f->status = (uint32_t)r;
	soc_publish(s);
	RELEASE();
	WRITE_M(f->ack_seq, seq);
	s->fault_acked = seq;
	if (!r && op == VSOC_FAULT_OP_SET && kind == VSOC_FAULT_LOST_DB) {
		uint32_t in = s->lost_in, out = s->lost_out;

		s->lost_in = saved_in;
		s->lost_out = saved_out;
		ring_guest(s, VSOC_VEC_FAULT);
		s->lost_in = in;
		s->lost_out = out;
		return;
	}
	ring_guest(s, VSOC_VEC_FAULT);
}

int soc_fault(struct soc *s, const char *spec, char *err, size_t errlen)
{
	char what[32] = "", a[64] = "", c[64] = "";
	int n = sscanf(spec, "%31s %63s %63s", what, a, c), d = -1, r;
	unsigned long long v = 0;
	char *end;

	if (n < 1)
		goto usage;
	if (!strcmp(what, "clear") && n == 1) {
		r = soc_fault_apply(s, VSOC_FAULT_OP_CLEAR, VSOC_FAULT_ALL, 0, 0);
		goto done;
	}
	if (!strcmp(what, "lost-db")) {
		if (n < 2)
			goto usage;
		v = strtoull(a, &end, 0);
		if (*end || (n == 3 && strcmp(c, "in") && strcmp(c, "out")))
			goto usage;
		r = soc_fault_apply(s, VSOC_FAULT_OP_SET, VSOC_FAULT_LOST_DB,
				    n == 3 && !strcmp(c, "in"), v);
		goto done;
	}
	if (n < 2)
		goto usage;
	d = find_dom(s, a);
	if (d < 0) {
		snprintf(err, errlen, "fault: unknown domain '%s'", a);
		return -1;
	}
	if (!strcmp(what, "slow-on") && n == 3) {
		v = strtoull(c, &end, 0);
		if (*end || v > 10000000)
			goto usage;
		r = soc_fault_apply(s, VSOC_FAULT_OP_SET, VSOC_FAULT_SLOW_ON, d,
				    v * 1000);
	} else if (!strcmp(what, "fail-on")) {
		if (n == 3) {
			v = strtoull(c, &end, 0);
			if (*end || !v)
				goto usage;
		}
		r = soc_fault_apply(s, VSOC_FAULT_OP_SET, VSOC_FAULT_FAIL_ON, d, v);
	} else if (!strcmp(what, "stuck") && n == 2) {
		r = soc_fault_apply(s, VSOC_FAULT_OP_SET, VSOC_FAULT_STUCK, d, 0);
	} else {
		goto usage;
	}
done:
	if (r)
		goto usage;
	soc_publish(s);
	return 0;
usage:
	snprintf(err, errlen,
		 "fault: '%s': expected slow-on DOMAIN US | fail-on DOMAIN [N] | stuck DOMAIN | lost-db N [in|out] | clear",
		 spec);
	return -1;
}

/* ---------------- reports ---------------- */

void soc_dump_state(const struct soc *s, FILE *f)
{
	const struct board *b = s->b;
	unsigned int i;

	fprintf(f, "time_ns %llu\n", (unsigned long long)s->now);
	for (i = 0; i < b->nr_domains; i++)
		fprintf(f, "domain %s %s on=%u off=%u failed=%u level=%u%s%s\n",
			b->domain[i].name, soc_pwr_state_name(s->dom[i].state),
			s->dom[i].on_count, s->dom[i].off_count,
			s->dom[i].failed_count, soc_domain_level(s, i),
			s->dom[i].inflight ? " busy" : "",
			s->dom[i].stuck ? " stuck" : "");
	for (i = 0; i < b->nr_clocks; i++)
		fprintf(f, "clock %s %s rate=%llu\n", b->clock[i].name,
			s->clk_st[i].state == VSOC_CLK_RUNNING ? "on" : "off",
			(unsigned long long)s->clk_st[i].rate);
	for (i = 0; i < b->nr_periphs; i++)
		fprintf(f, "periph %s %s ops=%u\n", b->periph[i].name,
			s->per[i].busy ? "busy" : "idle", s->per[i].ops);
	for (i = 0; i < b->nr_cores; i++)
		fprintf(f, "core %s %s firewall=%s fw_faults=%u\n",
			b->core[i].name, soc_core_state_name(s->core[i].state),
			b->core[i].firewall ? "on" : "off",
			s->core[i].fw_faults);
	fprintf(f, "violations %u\ngarbage %u\nlost_doorbells %u\nfirewall_faults %u\n",
		s->violations, s->garbage, s->lost_doorbells, s->fw_faults);
}

void soc_dump_violations(const struct soc *s, FILE *f)
{
	uint32_t i, n = s->violations < SOC_VIOL_MAX ? s->violations :
						       SOC_VIOL_MAX;

	fprintf(f, "violations %u\n", s->violations);
	for (i = 0; i < n; i++) {
		const struct soc_violation *v = &s->viol[i];

		fprintf(f, "violation %u t=%llu %s %s %s\n", v->seq,
			(unsigned long long)v->t, kind_name(v->kind),
			obj_name(s, v->kind, v->idx), vsoc_rule_name(v->rule));
	}
}

void soc_dump_energy(struct soc *s, FILE *f)
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < s->b->nr_domains; i++) {
		uint64_t e = soc_energy_uj(s, i);

		total += e;
		/* the on-power too: the demo's all-held-on baseline */
		fprintf(f, "energy %s %llu uJ on_power_uw=%u\n",
			s->b->domain[i].name, (unsigned long long)e,
			s->b->domain[i].on_power_uw);
	}
	/* ABI 1.5: the energy each performance level used */
	for (i = 0; i < s->b->nr_domains; i++) {
		const struct board_domain *bd = &s->b->domain[i];
		unsigned int l;

		for (l = 0; l < bd->nr_levels; l++)
			fprintf(f, "level_energy %s %u %llu uJ voltage_uv=%u power_uw=%u%s\n",
				bd->name, bd->level[l].level,
				(unsigned long long)soc_level_energy_uj(s,
					bd->first_level + l),
				bd->level[l].voltage_uv, bd->level[l].power_uw,
				l == s->dom[i].level ? " current" : "");
	}
	fprintf(f, "energy total %llu uJ over %llu ms\n",
		(unsigned long long)total,
		(unsigned long long)(s->now / 1000000));
}

int soc_mark(struct soc *s, const char *label, char *err, size_t errlen)
{
	size_t i, n = strlen(label);
	char *m;

	if (!n || n >= SOC_MARK_LEN) {
		snprintf(err, errlen, "mark: a label of 1 to %d characters",
			 SOC_MARK_LEN - 1);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (label[i] < ' ' || label[i] > '~') {
			snprintf(err, errlen,
				 "mark: printable ASCII only (byte %zu)", i);
			return -1;
		}
	}
	if (s->nr_marks >= SOC_MARKS_MAX) {
		snprintf(err, errlen, "mark: %d marks already", SOC_MARKS_MAX);
		return -1;
	}
	m = s->mark[s->nr_marks];
	/* one word in the timeline's columns: spaces become '_' */
	for (i = 0; i < n; i++)
		m[i] = label[i] == ' ' ? '_' : label[i];
	m[n] = '\0';
	timeline(s, TL_MARK, s->nr_marks++, 0);
	return 0;
}

void soc_dump_timeline(const struct soc *s, FILE *f)
{
	uint32_t i;

	fprintf(f, "# t_ns kind name state power_uw\n");
	for (i = 0; i < s->nr_tl; i++) {
		const struct soc_tl *t = &s->tl[i];
		const char *kind = "?", *name = "?", *st = "?";

		switch (t->kind) {
		case TL_DOMAIN:
			kind = "domain";
			name = s->b->domain[t->idx].name;
			st = soc_pwr_state_name(t->state);
			break;
		case TL_CLOCK:
			kind = "clock";
			name = s->b->clock[t->idx].name;
			st = t->state ? "on" : "off";
			break;
		case TL_PERIPH:
			kind = "periph";
			name = s->b->periph[t->idx].name;
			st = t->state ? "busy" : "idle";
			break;
		case TL_CORE:
			kind = "core";
			name = s->b->core[t->idx].name;
			st = soc_core_state_name(t->state);
			break;
		case TL_MARK:
			kind = "mark";
			name = s->mark[t->idx];
			st = "-";
			break;
		}
		fprintf(f, "%llu %s %s %s %u", (unsigned long long)t->t,
			kind, name, st, t->power_uw);
		/* a peripheral's power is its domain's: name the domain */
		if (t->kind == TL_PERIPH)
			fprintf(f, " %s",
				s->b->domain[s->b->periph[t->idx].domain].name);
		fputc('\n', f);
	}
	if (s->tl_dropped)
		fprintf(f, "# %u entries dropped\n", s->tl_dropped);
}
