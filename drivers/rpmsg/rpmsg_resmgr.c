// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc rpmsg resource manager: a remote asks Linux to keep a PM domain
 * powered, or a clock enabled, on its behalf.
 *
 * The remote announces a channel named "rpmsg-resmgr"; this driver binds
 * it, says HELLO, and serves requests (include/uapi/ampsoc/rpmsg_resmgr.h).
 * Everything the remote sends is untrusted: a request is copied out of
 * shared memory once, then its size, op, type, flags and name are checked;
 * a bad one gets an errno reply, is counted, and logs one rate-limited line.
 *
 * A domain is held through the PM-domain framework and runtime PM: for each
 * (remote, domain) the driver registers a holder device, a child of the
 * channel named "resmgr-<domain>", puts it in the domain with
 * ampsoc_pd_add_device() and keeps a runtime-PM reference on it, so the
 * domain (and its parents) power on exactly as for a busy peripheral, and
 * power off when the last reference goes. A clock is held with
 * clk_prepare_enable() on its clkdev con_id.
 *
 * References are counted per remote (one channel per transport) and per
 * resource; a remote holds at most max_holdings resources and cannot
 * release what it does not hold. When the channel goes away (remote stop,
 * crash, unbind, rmmod) every holding of that remote is released.
 *
 * What a remote may ask for is scoped by the platform, as a real SoC scopes
 * it per core: the first device above the channel that has the property
 * "ampsoc,resmgr-policy" (the vsoc driver gives it to each core from the
 * board table) lists the domains ("ampsoc,resmgr-domains") and clocks
 * ("ampsoc,resmgr-clocks") the remote may name; anything else is refused
 * with -EACCES and counted. A remote with no such device above it (a
 * transport Linux made for itself) is not scoped.
 * /sys/kernel/debug/ampsoc_resmgr/<remote>/ shows the holdings, the
 * permissions and the counters.
 */
#include <linux/clk.h>
#include <linux/clk-provider.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kcov.h>
#include <linux/kfifo.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <ampsoc/pm_domain.h>
#include <ampsoc/rpmsg.h>
#include <uapi/ampsoc/rpmsg_resmgr.h>

static unsigned int max_holdings = 8;
module_param(max_holdings, uint, 0644);
MODULE_PARM_DESC(max_holdings,
		 "resources one remote may hold at a time (1-64, default 8)");

/* References one remote may take on one resource. */
#define RESMGR_MAX_REFS		256
/* Valid requests waiting for the worker, per remote. */
#define RESMGR_QUEUE_LEN	16
#define RESMGR_MAX_HOLDINGS	64
/* Names a policy may list per resource type. */
#define RESMGR_MAX_ALLOWED	32

#define RESMGR_PROP_POLICY	"ampsoc,resmgr-policy"
#define RESMGR_PROP_DOMAINS	"ampsoc,resmgr-domains"
#define RESMGR_PROP_CLOCKS	"ampsoc,resmgr-clocks"

/**
 * struct resmgr_holding - one resource held by one remote
 * @node: entry in resmgr_client.holdings
 * @type: AMPSOC_RESMGR_TYPE_*
 * @refs: references the remote took
 * @holder: (domain) the device that keeps the domain powered
 * @clk: (clock) the enabled clock
 * @name: the resource's name
 */
struct resmgr_holding {
	struct list_head node;
	u16 type;
	unsigned int refs;
	struct device *holder;
	struct clk *clk;
	char name[AMPSOC_RESMGR_NAME_LEN];
};

/**
 * struct resmgr_item - a checked request waiting for the worker
 * @req: the request, copied out of shared memory
 * @src: the remote address to reply to
 */
struct resmgr_item {
	struct ampsoc_resmgr_req req;
	u32 src;
};

/**
 * struct resmgr_stats - what a remote asked and what it got
 * @received: messages received
 * @rejected: malformed requests refused
 * @denied: well-formed requests naming a resource the remote may not use
 * @busy: requests refused because the queue was full
 * @granted: requests, releases and queries that succeeded
 * @failed: well-formed requests that failed (unknown resource, not held,
 *	limits, power errors)
 * @lost: replies that could not be sent
 * @cleaned: references dropped when the channel went away
 */
struct resmgr_stats {
	u64 received;
	u64 rejected;
	u64 denied;
	u64 busy;
	u64 granted;
	u64 failed;
	u64 lost;
	u64 cleaned;
};

/**
 * struct resmgr_allowed - the resources of one type a remote may name
 * @n: entries in @names
 * @names: the names
 */
struct resmgr_allowed {
	unsigned int n;
	char (*names)[AMPSOC_RESMGR_NAME_LEN];
};

/**
 * struct resmgr_client - the resource manager's state for one remote
 * @node: entry in the list of clients
 * @rpdev: the channel
 * @transport: the channel's transport device: one client per remote
 * @remote: the remote's name (its remoteproc device, else the transport)
 * @scoped: the platform scopes this remote to @allowed
 * @allowed: domains ([0]) and clocks ([1]) the remote may name, if @scoped
 * @lock: protects @holdings, @nr_holdings and @stats' worker fields
 * @holdings: struct resmgr_holding list
 * @nr_holdings: entries in @holdings
 * @qlock: protects @queue, @stopping and @stats' receive fields
 * @queue: requests for @work
 * @stopping: the channel is going away: queue nothing more
 * @work: serves @queue
 * @dbg: debugfs directory
 * @stats: counters
 */
struct resmgr_client {
	struct list_head node;
	struct rpmsg_device *rpdev;
	struct device *transport;
	char remote[32];
	bool scoped;
	struct resmgr_allowed allowed[2];
	struct mutex lock;	/* holdings */
	struct list_head holdings;
	unsigned int nr_holdings;
	spinlock_t qlock;	/* queue and stopping */
	DECLARE_KFIFO(queue, struct resmgr_item, RESMGR_QUEUE_LEN);
	bool stopping;
	struct work_struct work;
	struct dentry *dbg;
	struct resmgr_stats stats;
};

static LIST_HEAD(resmgr_clients);
static DEFINE_MUTEX(resmgr_clients_lock);
static struct workqueue_struct *resmgr_wq;
static struct dentry *resmgr_dbg_root;
/* The remote fuzzer's kcov common handle, 0 when off (docs/fuzz-remote.md). */
static u64 resmgr_kcov_handle;

static const char *resmgr_type_name(u16 type)
{
	switch (type) {
	case AMPSOC_RESMGR_TYPE_DOMAIN:
		return "domain";
	case AMPSOC_RESMGR_TYPE_CLOCK:
		return "clock";
	default:
		return "?";
	}
}

/* The remote's name: its remoteproc device if there is one. */
static void resmgr_remote_name(struct rpmsg_device *rpdev, char *buf,
			       size_t len)
{
	struct device *d;

	for (d = rpdev->dev.parent; d; d = d->parent) {
		if (d->class && d->class->name &&
		    !strcmp(d->class->name, "remoteproc")) {
			strscpy(buf, dev_name(d), len);
			return;
		}
	}
	strscpy(buf, dev_name(rpdev->dev.parent), len);
}

/* ---- checking what the remote sent --------------------------------- */

static int resmgr_check_name(const char *name, const char **why)
{
	size_t i, n = strnlen(name, AMPSOC_RESMGR_NAME_LEN);

	if (n == AMPSOC_RESMGR_NAME_LEN) {
		*why = "name without NUL";
		return -ENAMETOOLONG;
	}
	if (!n) {
		*why = "empty name";
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (!isalnum(name[i]) && name[i] != '_' && name[i] != '-' &&
		    name[i] != '.') {
			*why = "bad character in name";
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Check a request of @len bytes already copied into @req (zero-filled past
 * @len). Returns 0 or the errno for the reply, with @why for the log.
 */
static int resmgr_check(const struct ampsoc_resmgr_req *req, int len,
			const char **why)
{
	u16 op = le16_to_cpu(req->op), type = le16_to_cpu(req->type);

	if (len != sizeof(*req)) {
		*why = "bad size";
		return -EBADMSG;
	}
	if (req->flags || req->reserved) {
		*why = "reserved bits set";
		return -EINVAL;
	}
	if (op != AMPSOC_RESMGR_OP_REQUEST && op != AMPSOC_RESMGR_OP_RELEASE &&
	    op != AMPSOC_RESMGR_OP_QUERY) {
		*why = "unknown op";
		return -EOPNOTSUPP;
	}
	if (type != AMPSOC_RESMGR_TYPE_DOMAIN &&
	    type != AMPSOC_RESMGR_TYPE_CLOCK) {
		*why = "unknown resource type";
		return -EINVAL;
	}
	return resmgr_check_name(req->name, why);
}

/* Whether the platform lets @rc's remote name this resource at all. */
static bool resmgr_allowed(const struct resmgr_client *rc, u16 type,
			   const char *name)
{
	const struct resmgr_allowed *a;
	unsigned int i;

	if (!rc->scoped)
		return true;
	a = &rc->allowed[type == AMPSOC_RESMGR_TYPE_CLOCK];
	for (i = 0; i < a->n; i++)
		if (!strcmp(a->names[i], name))
			return true;
	return false;
}

static void resmgr_reply(struct resmgr_client *rc, u32 dst,
			 const struct ampsoc_resmgr_req *req, int status,
			 u32 refs, u32 state, bool wait)
{
	struct ampsoc_resmgr_reply r = {
		.id = req->id,
		.op = req->op,
		.type = req->type,
		.status = cpu_to_le32((u32)status),
		.refs = cpu_to_le32(refs),
		.state = cpu_to_le32(state),
	};
	struct rpmsg_endpoint *ept = rc->rpdev->ept;
	int ret;

	if (wait)
		ret = ampsoc_rpmsg_sendto(ept, &r, sizeof(r), dst);
	else
		ret = ampsoc_rpmsg_trysendto(ept, &r, sizeof(r), dst);
	if (ret) {
		spin_lock(&rc->qlock);
		rc->stats.lost++;
		spin_unlock(&rc->qlock);
		dev_dbg(&rc->rpdev->dev, "reply to 0x%x lost: %d\n", dst, ret);
	}
}

static int resmgr_cb(struct rpmsg_device *rpdev, void *data, int len,
		     void *priv, u32 src)
{
	struct resmgr_client *rc = dev_get_drvdata(&rpdev->dev);
	struct resmgr_item it = { .src = src };
	const char *why = NULL;
	bool queued = false, denied = false;
	int err;

	if (!rc)
		return 0;
	/* One copy out of shared memory; only the copy is looked at. */
	if (len > 0)
		memcpy(&it.req, data, min_t(size_t, len, sizeof(it.req)));
	err = resmgr_check(&it.req, len, &why);
	if (!err && !resmgr_allowed(rc, le16_to_cpu(it.req.type),
				    it.req.name)) {
		err = -EACCES;
		denied = true;
	}

	/*
	 * The work is queued under the same lock that resmgr_remove() takes
	 * to set @stopping: once that is set nothing queues it again, so the
	 * cancel that follows is the last word on it.
	 */
	spin_lock(&rc->qlock);
	rc->stats.received++;
	if (denied) {
		rc->stats.denied++;
	} else if (err) {
		rc->stats.rejected++;
	} else if (!rc->stopping) {
		queued = kfifo_put(&rc->queue, it);
		if (queued)
			queue_work(resmgr_wq, &rc->work);
	}
	if (!err && !queued)
		rc->stats.busy++;
	spin_unlock(&rc->qlock);

	if (denied) {
		dev_warn_ratelimited(&rpdev->dev,
				     "%s may not use %s %s: denied (%d)\n",
				     rc->remote,
				     resmgr_type_name(le16_to_cpu(it.req.type)),
				     it.req.name, err);
		resmgr_reply(rc, src, &it.req, err, 0, 0, false);
	} else if (err) {
		dev_warn_ratelimited(&rpdev->dev,
				     "refused a request from 0x%x: %s (%d)\n",
				     src, why, err);
		resmgr_reply(rc, src, &it.req, err, 0, 0, false);
	} else if (!queued) {
		resmgr_reply(rc, src, &it.req, -EBUSY, 0, 0, false);
	}
	return 0;
}

/* ---- holding resources ---------------------------------------------- */

static void resmgr_holder_release(struct device *dev)
{
	kfree(dev);
}

/* Power the domain on through a runtime-PM reference on a holder device. */
static int resmgr_domain_get(struct resmgr_client *rc,
			     struct resmgr_holding *h)
{
	struct ampsoc_pd *pd = ampsoc_pd_find(h->name);
	struct device *dev;
	int ret;

	if (!pd)
		return -ENOENT;
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	device_initialize(dev);
	dev->parent = &rc->rpdev->dev;
	dev->release = resmgr_holder_release;
	ret = dev_set_name(dev, "resmgr-%s", h->name);
	if (ret)
		goto err_put;
	ret = device_add(dev);
	if (ret)
		goto err_put;
	/* Suspended and enabled: joining the domain powers nothing yet. */
	pm_runtime_enable(dev);
	ret = ampsoc_pd_add_device(pd, dev);
	if (ret)
		goto err_del;
	ret = pm_runtime_resume_and_get(dev);
	if (ret)
		goto err_remove;
	h->holder = dev;
	return 0;

err_remove:
	ampsoc_pd_remove_device(dev);
err_del:
	pm_runtime_disable(dev);
	device_del(dev);
err_put:
	put_device(dev);
	return ret;
}

static void resmgr_domain_put(struct resmgr_client *rc,
			      struct resmgr_holding *h)
{
	struct device *dev = h->holder;
	int ret;

	ret = pm_runtime_put_sync_suspend(dev);
	if (ret < 0)
		dev_warn(dev, "runtime suspend failed: %d\n", ret);
	pm_runtime_disable(dev);
	ret = ampsoc_pd_remove_device(dev);
	device_del(dev);
	if (ret) {
		/* Still in the domain (a system sleep transition): keep it. */
		dev_err(&rc->rpdev->dev,
			"holder of %s stays in its domain: %d\n", h->name, ret);
		return;
	}
	put_device(dev);
}

static int resmgr_clock_get(struct resmgr_holding *h)
{
	struct clk *clk = clk_get_sys(NULL, h->name);
	int ret;

	if (IS_ERR(clk))
		return PTR_ERR(clk) == -EPROBE_DEFER ? -EAGAIN : PTR_ERR(clk);
	ret = clk_prepare_enable(clk);
	if (ret) {
		clk_put(clk);
		return ret;
	}
	h->clk = clk;
	return 0;
}

static void resmgr_clock_put(struct resmgr_holding *h)
{
	clk_disable_unprepare(h->clk);
	clk_put(h->clk);
}

/* Whether a resource is on; -ENOENT if there is no such resource. */
static int resmgr_state(u16 type, const char *name)
{
	struct ampsoc_pd *pd;
	struct clk *clk;
	bool on;

	if (type == AMPSOC_RESMGR_TYPE_DOMAIN) {
		pd = ampsoc_pd_find(name);
		return pd ? ampsoc_pd_is_on(pd) : -ENOENT;
	}
	clk = clk_get_sys(NULL, name);
	if (IS_ERR(clk))
		return -ENOENT;
	on = __clk_is_enabled(clk);
	clk_put(clk);
	return on;
}

static struct resmgr_holding *resmgr_find(struct resmgr_client *rc, u16 type,
					  const char *name)
{
	struct resmgr_holding *h;

	list_for_each_entry(h, &rc->holdings, node)
		if (h->type == type && !strcmp(h->name, name))
			return h;
	return NULL;
}

static void resmgr_drop(struct resmgr_client *rc, struct resmgr_holding *h)
{
	if (h->type == AMPSOC_RESMGR_TYPE_DOMAIN)
		resmgr_domain_put(rc, h);
	else
		resmgr_clock_put(h);
	list_del(&h->node);
	rc->nr_holdings--;
	kfree(h);
}

static int resmgr_take(struct resmgr_client *rc, u16 type, const char *name,
		       u32 *refs)
{
	struct resmgr_holding *h = resmgr_find(rc, type, name);
	int ret;

	if (h) {
		if (h->refs >= RESMGR_MAX_REFS)
			return -EOVERFLOW;
		*refs = ++h->refs;
		return 0;
	}
	if (rc->nr_holdings >= clamp_val(READ_ONCE(max_holdings), 1,
					 RESMGR_MAX_HOLDINGS))
		return -ENOSPC;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->type = type;
	strscpy(h->name, name, sizeof(h->name));
	if (type == AMPSOC_RESMGR_TYPE_DOMAIN)
		ret = resmgr_domain_get(rc, h);
	else
		ret = resmgr_clock_get(h);
	if (ret) {
		kfree(h);
		return ret;
	}
	h->refs = 1;
	list_add_tail(&h->node, &rc->holdings);
	rc->nr_holdings++;
	*refs = 1;
	return 0;
}

static int resmgr_give_back(struct resmgr_client *rc, u16 type,
			    const char *name, u32 *refs)
{
	struct resmgr_holding *h = resmgr_find(rc, type, name);

	if (!h)
		return -EPERM;
	*refs = --h->refs;
	if (!h->refs)
		resmgr_drop(rc, h);
	return 0;
}

static int resmgr_handle(struct resmgr_client *rc,
			 const struct ampsoc_resmgr_req *req, u32 *refs,
			 u32 *state)
{
	u16 type = le16_to_cpu(req->type);
	struct resmgr_holding *h;
	int ret;

	*refs = 0;
	switch (le16_to_cpu(req->op)) {
	case AMPSOC_RESMGR_OP_REQUEST:
		ret = resmgr_take(rc, type, req->name, refs);
		break;
	case AMPSOC_RESMGR_OP_RELEASE:
		ret = resmgr_give_back(rc, type, req->name, refs);
		break;
	default:
		h = resmgr_find(rc, type, req->name);
		*refs = h ? h->refs : 0;
		ret = 0;
		break;
	}
	if (!ret) {
		ret = resmgr_state(type, req->name);
		*state = ret > 0;
		ret = ret < 0 ? ret : 0;
	}
	return ret;
}

/* The next request to serve; none once the channel is going away. */
static bool resmgr_next(struct resmgr_client *rc, struct resmgr_item *it)
{
	bool got = false;

	spin_lock(&rc->qlock);
	if (!rc->stopping)
		got = kfifo_get(&rc->queue, it);
	spin_unlock(&rc->qlock);
	return got;
}

static void resmgr_work(struct work_struct *work)
{
	struct resmgr_client *rc = container_of(work, struct resmgr_client,
						work);
	struct resmgr_item it;
	u32 refs, state;
	u64 kcov = READ_ONCE(resmgr_kcov_handle);
	int ret;

	/* The remote's requests, served here, count as its coverage. */
	if (kcov)
		kcov_remote_start_common(kcov);
	while (resmgr_next(rc, &it)) {
		state = 0;
		mutex_lock(&rc->lock);
		ret = resmgr_handle(rc, &it.req, &refs, &state);
		if (ret)
			rc->stats.failed++;
		else
			rc->stats.granted++;
		mutex_unlock(&rc->lock);
		dev_dbg(&rc->rpdev->dev, "%s %s op %u: %d (refs %u)\n",
			resmgr_type_name(le16_to_cpu(it.req.type)), it.req.name,
			le16_to_cpu(it.req.op), ret, refs);
		resmgr_reply(rc, it.src, &it.req, ret, refs, state, true);
	}
	if (kcov)
		kcov_remote_stop();
}

/* ---- observability --------------------------------------------------- */

static int resmgr_holdings_show(struct seq_file *s, void *unused)
{
	struct resmgr_client *rc = s->private;
	struct resmgr_holding *h;

	mutex_lock(&rc->lock);
	list_for_each_entry(h, &rc->holdings, node)
		seq_printf(s, "%s %s %u\n", resmgr_type_name(h->type), h->name,
			   h->refs);
	mutex_unlock(&rc->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(resmgr_holdings);

static int resmgr_stats_show(struct seq_file *s, void *unused)
{
	struct resmgr_client *rc = s->private;
	struct resmgr_stats st;

	mutex_lock(&rc->lock);
	spin_lock(&rc->qlock);
	st = rc->stats;
	spin_unlock(&rc->qlock);
	seq_printf(s, "channel %s\nholdings %u\n", dev_name(&rc->rpdev->dev),
		   rc->nr_holdings);
	mutex_unlock(&rc->lock);
	seq_printf(s, "received %llu\nrejected %llu\ndenied %llu\nbusy %llu\ngranted %llu\nfailed %llu\nlost %llu\ncleaned %llu\n",
		   st.received, st.rejected, st.denied, st.busy, st.granted,
		   st.failed, st.lost, st.cleaned);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(resmgr_stats);

static int resmgr_allowed_show(struct seq_file *s, void *unused)
{
	struct resmgr_client *rc = s->private;
	unsigned int t, i;

	if (!rc->scoped) {
		seq_puts(s, "any\n");
		return 0;
	}
	for (t = 0; t < ARRAY_SIZE(rc->allowed); t++)
		for (i = 0; i < rc->allowed[t].n; i++)
			seq_printf(s, "%s %s\n", t ? "clock" : "domain",
				   rc->allowed[t].names[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(resmgr_allowed);

static ssize_t resmgr_holdings_show_attr(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	struct resmgr_client *rc = dev_get_drvdata(dev);
	unsigned int n = 0;

	if (rc) {
		mutex_lock(&rc->lock);
		n = rc->nr_holdings;
		mutex_unlock(&rc->lock);
	}
	return sysfs_emit(buf, "%u\n", n);
}

static ssize_t resmgr_rejected_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct resmgr_client *rc = dev_get_drvdata(dev);
	u64 n = 0;

	if (rc) {
		spin_lock(&rc->qlock);
		n = rc->stats.rejected;
		spin_unlock(&rc->qlock);
	}
	return sysfs_emit(buf, "%llu\n", n);
}

static struct device_attribute dev_attr_resmgr_holdings =
	__ATTR(resmgr_holdings, 0444, resmgr_holdings_show_attr, NULL);
static DEVICE_ATTR_RO(resmgr_rejected);

static struct attribute *resmgr_attrs[] = {
	&dev_attr_resmgr_holdings.attr,
	&dev_attr_resmgr_rejected.attr,
	NULL
};
ATTRIBUTE_GROUPS(resmgr);

/* ---- the driver -------------------------------------------------------- */

/* One list of a policy: @prop's strings, absent meaning none. */
static int resmgr_load_allowed(struct resmgr_client *rc, struct device *pol,
			       const char *prop, struct resmgr_allowed *a)
{
	const char *names[RESMGR_MAX_ALLOWED];
	int n, i;

	if (!device_property_present(pol, prop))
		return 0;
	n = device_property_string_array_count(pol, prop);
	if (n < 0)
		return n;
	if (n > RESMGR_MAX_ALLOWED)
		return -E2BIG;
	n = device_property_read_string_array(pol, prop, names, n);
	if (n < 0)
		return n;
	a->names = devm_kcalloc(&rc->rpdev->dev, n, sizeof(*a->names),
				GFP_KERNEL);
	if (n && !a->names)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (strscpy(a->names[i], names[i], sizeof(a->names[i])) < 0)
			return -ENAMETOOLONG;
	a->n = n;
	return 0;
}

/* The platform's scope for this remote, from the nearest device having one. */
static int resmgr_load_policy(struct resmgr_client *rc)
{
	struct device *pol;
	int ret;

	for (pol = rc->rpdev->dev.parent; pol; pol = pol->parent)
		if (device_property_present(pol, RESMGR_PROP_POLICY))
			break;
	if (!pol)
		return 0;
	rc->scoped = true;
	ret = resmgr_load_allowed(rc, pol, RESMGR_PROP_DOMAINS,
				  &rc->allowed[0]);
	if (!ret)
		ret = resmgr_load_allowed(rc, pol, RESMGR_PROP_CLOCKS,
					  &rc->allowed[1]);
	if (ret)
		dev_err(&rc->rpdev->dev, "bad resource policy on %s: %d\n",
			dev_name(pol), ret);
	return ret;
}

/*
 * Stop serving @rc's remote and give back everything it holds. The
 * callback may still run until the endpoint is destroyed after this, but
 * it queues nothing once @stopping is set, so after the cancel no work
 * runs and none will: what is released here stays released.
 */
static void resmgr_shutdown(struct resmgr_client *rc)
{
	struct rpmsg_device *rpdev = rc->rpdev;
	struct resmgr_holding *h, *tmp;
	unsigned int refs = 0;

	spin_lock(&rc->qlock);
	rc->stopping = true;
	spin_unlock(&rc->qlock);
	cancel_work_sync(&rc->work);

	mutex_lock(&rc->lock);
	list_for_each_entry_safe(h, tmp, &rc->holdings, node) {
		refs += h->refs;
		resmgr_drop(rc, h);
	}
	rc->stats.cleaned += refs;
	mutex_unlock(&rc->lock);
	if (refs)
		dev_info(&rpdev->dev, "%s went away: released %u references\n",
			 rc->remote, refs);

	debugfs_remove_recursive(rc->dbg);
	rc->dbg = NULL;
	mutex_lock(&resmgr_clients_lock);
	list_del(&rc->node);
	mutex_unlock(&resmgr_clients_lock);
	dev_set_drvdata(&rpdev->dev, NULL);
}

static int resmgr_probe(struct rpmsg_device *rpdev)
{
	struct ampsoc_resmgr_reply hello = {
		.op = cpu_to_le16(AMPSOC_RESMGR_OP_HELLO),
		.refs = cpu_to_le32(clamp_val(READ_ONCE(max_holdings), 1,
					      RESMGR_MAX_HOLDINGS)),
		.state = cpu_to_le32(AMPSOC_RESMGR_VERSION),
	};
	struct resmgr_client *rc, *it;
	int ret;

	if (rpdev->dst == RPMSG_ADDR_ANY) {
		dev_err(&rpdev->dev, "the remote gave no address to serve\n");
		return -EINVAL;
	}
	rc = devm_kzalloc(&rpdev->dev, sizeof(*rc), GFP_KERNEL);
	if (!rc)
		return -ENOMEM;
	rc->rpdev = rpdev;
	rc->transport = rpdev->dev.parent;
	resmgr_remote_name(rpdev, rc->remote, sizeof(rc->remote));
	mutex_init(&rc->lock);
	INIT_LIST_HEAD(&rc->holdings);
	spin_lock_init(&rc->qlock);
	INIT_KFIFO(rc->queue);
	INIT_WORK(&rc->work, resmgr_work);
	ret = resmgr_load_policy(rc);
	if (ret)
		return ret;

	mutex_lock(&resmgr_clients_lock);
	list_for_each_entry(it, &resmgr_clients, node) {
		if (it->transport == rc->transport) {
			mutex_unlock(&resmgr_clients_lock);
			dev_err(&rpdev->dev, "%s already has a resource manager channel\n",
				rc->remote);
			return -EBUSY;
		}
	}
	list_add_tail(&rc->node, &resmgr_clients);
	mutex_unlock(&resmgr_clients_lock);

	rc->dbg = debugfs_create_dir(rc->remote, resmgr_dbg_root);
	debugfs_create_file("holdings", 0444, rc->dbg, rc,
			    &resmgr_holdings_fops);
	debugfs_create_file("stats", 0444, rc->dbg, rc, &resmgr_stats_fops);
	debugfs_create_file("allowed", 0444, rc->dbg, rc,
			    &resmgr_allowed_fops);
	dev_set_drvdata(&rpdev->dev, rc);

	ret = ampsoc_rpmsg_send(rpdev->ept, &hello, sizeof(hello));
	if (ret) {
		dev_err(&rpdev->dev, "cannot greet the remote: %d\n", ret);
		goto err;
	}
	if (rc->scoped)
		dev_info(&rpdev->dev, "serving %s at 0x%x (may use %u domains, %u clocks)\n",
			 rc->remote, rpdev->dst, rc->allowed[0].n,
			 rc->allowed[1].n);
	else
		dev_info(&rpdev->dev, "serving %s at 0x%x\n", rc->remote,
			 rpdev->dst);
	return 0;

err:
	resmgr_shutdown(rc);
	return ret;
}

static void resmgr_remove(struct rpmsg_device *rpdev)
{
	resmgr_shutdown(dev_get_drvdata(&rpdev->dev));
}

static const struct rpmsg_device_id resmgr_id_table[] = {
	{ .name = AMPSOC_RESMGR_SERVICE },
	{ },
};
MODULE_DEVICE_TABLE(rpmsg, resmgr_id_table);

static struct rpmsg_driver resmgr_driver = {
	.drv.name = KBUILD_MODNAME,
	.drv.dev_groups = resmgr_groups,
	.id_table = resmgr_id_table,
	.probe = resmgr_probe,
	.remove = resmgr_remove,
	.callback = resmgr_cb,
};

/*
 * debugfs kcov_handle: a non-zero write stores the writer's
 * kcov_common_handle(), 0 turns collection off.
 */
static int resmgr_kcov_get(void *data, u64 *val)
{
	*val = READ_ONCE(resmgr_kcov_handle);
	return 0;
}

static int resmgr_kcov_set(void *data, u64 val)
{
	WRITE_ONCE(resmgr_kcov_handle, val ? kcov_common_handle() : 0);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(resmgr_kcov_fops, resmgr_kcov_get, resmgr_kcov_set,
			 "%llu\n");

static int __init resmgr_init(void)
{
	int ret;

	/* Freezable: no request is served during a system sleep transition. */
	resmgr_wq = alloc_workqueue("ampsoc_resmgr", WQ_FREEZABLE, 0);
	if (!resmgr_wq)
		return -ENOMEM;
	resmgr_dbg_root = debugfs_create_dir("ampsoc_resmgr", NULL);
	debugfs_create_file_unsafe("kcov_handle", 0600, resmgr_dbg_root, NULL,
				   &resmgr_kcov_fops);
	ret = ampsoc_rpmsg_register_driver(&resmgr_driver);
	if (ret) {
		debugfs_remove_recursive(resmgr_dbg_root);
		destroy_workqueue(resmgr_wq);
	}
	return ret;
}
module_init(resmgr_init);

static void __exit resmgr_exit(void)
{
	ampsoc_rpmsg_unregister_driver(&resmgr_driver);
	debugfs_remove_recursive(resmgr_dbg_root);
	destroy_workqueue(resmgr_wq);
}
module_exit(resmgr_exit);

MODULE_DESCRIPTION("ampsoc rpmsg resource manager");
MODULE_LICENSE("GPL");
