// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc clock controller: registers every clock of the board with the
 * Common Clock Framework. Gating and rate changes are requests to the
 * model through the clock slots, so they sleep: the gate is implemented
 * as prepare/unprepare, and enable/disable are no-ops the framework
 * provides. Consumers find their clocks through clkdev: by device (the
 * peripheral or core the board assigns the clock to) or by clock name.
 */
#include <linux/clk-provider.h>
#include <linux/clkdev.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <ampsoc/vsoc.h>

/**
 * struct vsoc_clk - one clock of the board
 * @hw: CCF handle
 * @soc: the SoC
 * @info: board description of the clock
 * @slot: its request slot
 * @index: clock index
 * @on: the model reported the clock running
 * @rate: last rate the model reported
 */
struct vsoc_clk {
	struct clk_hw hw;
	struct vsoc *soc;
	const struct vsoc_clock_info *info;
	struct vsoc_slot slot;
	u32 index;
	bool on;
	unsigned long rate;
};

/**
 * struct vsoc_clk_ctrl - the clock controller
 * @soc: the SoC
 * @nclks: number of clocks
 * @clks: the clocks, indexed like the board
 */
struct vsoc_clk_ctrl {
	struct vsoc *soc;
	unsigned int nclks;
	struct vsoc_clk clks[];
};

#define to_vsoc_clk(_hw) container_of(_hw, struct vsoc_clk, hw)

static int vsoc_clk_request(struct vsoc_clk *c, u32 op, u64 arg)
{
	struct vsoc_slot_result res;
	int ret;

	ret = vsoc_slot_submit(c->soc, &c->slot, VSOC_VEC_CLK, op, arg,
			       VSOC_REQ_TIMEOUT_MS, &res);
	if (ret) {
		pr_err("clock %s: op %u failed: %d\n", c->info->name, op, ret);
		return ret;
	}
	if (res.state != VSOC_CLK_GATED && res.state != VSOC_CLK_RUNNING) {
		pr_err("clock %s: model reported state %u\n", c->info->name,
		       res.state);
		return -EIO;
	}
	c->on = res.state == VSOC_CLK_RUNNING;
	if (res.rate_hz < c->info->min_rate_hz ||
	    res.rate_hz > c->info->max_rate_hz) {
		pr_err("clock %s: model reported rate %llu outside [%llu, %llu]\n",
		       c->info->name, res.rate_hz, c->info->min_rate_hz,
		       c->info->max_rate_hz);
		return -EIO;
	}
	c->rate = res.rate_hz;
	return 0;
}

static int vsoc_clk_prepare(struct clk_hw *hw)
{
	struct vsoc_clk *c = to_vsoc_clk(hw);
	int ret = vsoc_clk_request(c, VSOC_CLK_OP_UNGATE, 0);

	if (!ret && !c->on)
		ret = -EIO;
	return ret;
}

static void vsoc_clk_unprepare(struct clk_hw *hw)
{
	struct vsoc_clk *c = to_vsoc_clk(hw);

	vsoc_clk_request(c, VSOC_CLK_OP_GATE, 0);
}

static int vsoc_clk_is_prepared(struct clk_hw *hw)
{
	return to_vsoc_clk(hw)->on;
}

static unsigned long vsoc_clk_recalc_rate(struct clk_hw *hw,
					  unsigned long parent_rate)
{
	return to_vsoc_clk(hw)->rate;
}

static int vsoc_clk_determine_rate(struct clk_hw *hw,
				   struct clk_rate_request *req)
{
	const struct vsoc_clock_info *info = to_vsoc_clk(hw)->info;

	req->rate = clamp_t(u64, req->rate, info->min_rate_hz,
			    info->max_rate_hz);
	return 0;
}

static int vsoc_clk_set_rate(struct clk_hw *hw, unsigned long rate,
			     unsigned long parent_rate)
{
	return vsoc_clk_request(to_vsoc_clk(hw), VSOC_CLK_OP_SET_RATE, rate);
}

static const struct clk_ops vsoc_clk_gate_ops = {
	.prepare = vsoc_clk_prepare,
	.unprepare = vsoc_clk_unprepare,
	.is_prepared = vsoc_clk_is_prepared,
	.recalc_rate = vsoc_clk_recalc_rate,
};

static const struct clk_ops vsoc_clk_rate_ops = {
	.prepare = vsoc_clk_prepare,
	.unprepare = vsoc_clk_unprepare,
	.is_prepared = vsoc_clk_is_prepared,
	.recalc_rate = vsoc_clk_recalc_rate,
	.determine_rate = vsoc_clk_determine_rate,
	.set_rate = vsoc_clk_set_rate,
};

static const struct clk_ops vsoc_clk_fixed_ops = {
	.recalc_rate = vsoc_clk_recalc_rate,
};

static irqreturn_t vsoc_clk_isr(int irq, void *data)
{
	struct vsoc_clk_ctrl *cc = data;
	unsigned int i;

	for (i = 0; i < cc->nclks; i++)
		vsoc_slot_poll(&cc->clks[i].slot);
	return IRQ_HANDLED;
}

/* clkdev entries: every consumer the board names, plus one per clock name. */
static int vsoc_clk_add_lookups(struct device *dev, struct vsoc_clk_ctrl *cc)
{
	const struct vsoc_board *b = vsoc_board(cc->soc);
	struct device *consumer;
	unsigned int i;
	int ret;

	for (i = 0; i < cc->nclks; i++) {
		ret = devm_clk_hw_register_clkdev(dev, &cc->clks[i].hw,
						  cc->clks[i].info->name, NULL);
		if (ret)
			return ret;
	}
	for (i = 0; i < b->nr_periphs; i++) {
		if (b->periphs[i].clock == VSOC_NONE)
			continue;
		consumer = vsoc_find_child(cc->soc,
					   vsoc_periph_dev_name(b->periphs[i].type),
					   i);
		if (!consumer)
			continue;
		ret = devm_clk_hw_register_clkdev(dev,
						  &cc->clks[b->periphs[i].clock].hw,
						  NULL, dev_name(consumer));
		if (ret)
			return ret;
	}
	for (i = 0; i < b->nr_cores; i++) {
		if (b->cores[i].clock == VSOC_NONE)
			continue;
		consumer = vsoc_find_child(cc->soc, VSOC_DEV_RPROC, i);
		if (!consumer)
			continue;
		ret = devm_clk_hw_register_clkdev(dev,
						  &cc->clks[b->cores[i].clock].hw,
						  NULL, dev_name(consumer));
		if (ret)
			return ret;
	}
	return 0;
}

static int vsoc_clk_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct vsoc *soc = vsoc_get(dev);
	const struct vsoc_board *b;
	struct vsoc_clk_ctrl *cc;
	void __iomem *slots;
	unsigned int i;
	int irq, ret;

	if (!soc)
		return -ENODEV;
	b = vsoc_board(soc);
	cc = devm_kzalloc(dev, struct_size(cc, clks, b->nr_clocks), GFP_KERNEL);
	if (!cc)
		return -ENOMEM;
	cc->soc = soc;
	cc->nclks = b->nr_clocks;
	if (!cc->nclks)
		return 0;
	slots = devm_platform_ioremap_resource_byname(pdev, "slots");
	if (IS_ERR(slots))
		return PTR_ERR(slots);
	for (i = 0; i < cc->nclks; i++) {
		struct vsoc_clk *c = &cc->clks[i];

		c->soc = soc;
		c->index = i;
		c->info = &b->clocks[i];
		c->on = c->info->initially_on;
		c->rate = c->info->rate_hz;
		vsoc_slot_init(&c->slot, slots + i * sizeof(struct vsoc_req_slot));
	}
	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;
	ret = devm_request_irq(dev, irq, vsoc_clk_isr, IRQF_SHARED,
			       dev_name(dev), cc);
	if (ret)
		return ret;

	/* Parents before children: the board is a forest, walk it by depth. */
	for (i = 0; i < cc->nclks; i++) {
		struct vsoc_clk *c = &cc->clks[i];
		struct clk_init_data init = {};
		const char *parent;

		init.name = c->info->name;
		if (c->info->parent != VSOC_NONE) {
			parent = b->clocks[c->info->parent].name;
			init.parent_names = &parent;
			init.num_parents = 1;
		}
		if (c->info->flags & VSOC_CLK_SET_RATE)
			init.ops = &vsoc_clk_rate_ops;
		else if (c->info->flags & VSOC_CLK_GATE)
			init.ops = &vsoc_clk_gate_ops;
		else
			init.ops = &vsoc_clk_fixed_ops;
		/* A gate never turns off a parent the model still feeds. */
		init.flags = CLK_IGNORE_UNUSED;
		if (c->info->flags & VSOC_CLK_CRITICAL)
			init.flags |= CLK_IS_CRITICAL;
		c->hw.init = &init;
		ret = devm_clk_hw_register(dev, &c->hw);
		if (ret) {
			dev_err(dev, "cannot register clock %s: %d\n",
				init.name, ret);
			return ret;
		}
	}
	platform_set_drvdata(pdev, cc);
	ret = vsoc_clk_add_lookups(dev, cc);
	if (ret)
		return ret;
	dev_info(dev, "%u clocks registered\n", cc->nclks);
	return 0;
}

static const struct platform_device_id vsoc_clk_ids[] = {
	{ VSOC_DEV_CLK },
	{ }
};
MODULE_DEVICE_TABLE(platform, vsoc_clk_ids);

static struct platform_driver vsoc_clk_driver = {
	.driver = {
		.name = VSOC_DEV_CLK,
		.suppress_bind_attrs = false,
	},
	.probe = vsoc_clk_probe,
	.id_table = vsoc_clk_ids,
};
module_platform_driver(vsoc_clk_driver);

MODULE_DESCRIPTION("ampsoc virtual SoC: clock controller");
MODULE_LICENSE("GPL");
