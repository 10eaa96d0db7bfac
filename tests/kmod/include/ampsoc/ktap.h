/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc in-kernel KTAP v1 test helper.
 *
 * Debian's kernel has no KUnit, so ampsoc test modules use this small
 * header instead. A test module lists suites of cases, runs them from its
 * init function with ampsoc_ktap_run(), and the results are printed to the
 * kernel log and kept in /sys/kernel/debug/ampsoc_ktap/<module> until the
 * module is unloaded. The guest harness (tests/guest/lib.sh: kmod_test)
 * reads that file, so the verdict never depends on scraping the console.
 *
 * Include it from exactly one file of a test module.
 */
#ifndef _AMPSOC_KTAP_H
#define _AMPSOC_KTAP_H

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#define AMPSOC_KTAP_LOG_MAX	(512 * 1024)

struct ampsoc_ktap_test {
	const char *name;
	bool failed;
	bool skipped;
	char reason[96];
	void *priv;
};

struct ampsoc_ktap_case {
	const char *name;
	void (*run)(struct ampsoc_ktap_test *t);
};

struct ampsoc_ktap_suite {
	const char *name;
	/* Optional: a non-zero return fails every case with that errno. */
	int (*init)(struct ampsoc_ktap_test *t);
	void (*exit)(struct ampsoc_ktap_test *t);
	/* Terminated by an empty entry, {}. */
	const struct ampsoc_ktap_case *cases;
};

#define AMPSOC_KTAP_CASE(fn)	{ .name = #fn, .run = fn }

#define AMPSOC_KTAP_SUITE(sname, scases)	{ .name = #sname, .cases = scases }

struct ampsoc_ktap_log {
	char *buf;
	size_t len;
	size_t cap;
	bool truncated;
	struct dentry *file;
	struct dentry *dir;
	bool own_dir;
};

static struct ampsoc_ktap_log __maybe_unused ampsoc_ktap_log;

static inline __printf(2, 3) void ampsoc_ktap_line(int indent, const char *fmt,
						   ...)
{
	struct ampsoc_ktap_log *l = &ampsoc_ktap_log;
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	pr_info("%*s%s\n", indent, "", line);

	if (l->truncated)
		return;
	if (l->len + indent + n + 2 > l->cap) {
		size_t cap = max_t(size_t, 4096, l->cap * 2);
		char *buf;

		if (cap > AMPSOC_KTAP_LOG_MAX) {
			l->truncated = true;
			return;
		}
		buf = krealloc(l->buf, cap, GFP_KERNEL);
		if (!buf) {
			l->truncated = true;
			return;
		}
		l->buf = buf;
		l->cap = cap;
	}
	l->len += scnprintf(l->buf + l->len, l->cap - l->len, "%*s%s\n",
			    indent, "", line);
}

static inline __printf(4, 5)
void ampsoc_ktap_failf(struct ampsoc_ktap_test *t, const char *file, int line,
		       const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->failed = true;
	ampsoc_ktap_line(4, "# %s: %s:%d: %s", t->name, kbasename(file), line,
			 msg);
}

/*
 * Expectations record a failure and let the case go on; they evaluate to
 * whether they held, so a case stops with "if (!KTAP_EXPECT(...)) return;".
 */
#define ampsoc_ktap_fail(t, fmt, ...)					\
	ampsoc_ktap_failf(t, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#define KTAP_EXPECT(t, cond)						\
	({								\
		bool __ok = !!(cond);					\
		if (!__ok)						\
			ampsoc_ktap_fail(t, "expected %s", #cond);	\
		__ok;							\
	})

#define KTAP_EXPECT_EQ(t, a, b)						\
	({								\
		long long __a = (long long)(a), __b = (long long)(b);	\
		if (__a != __b)						\
			ampsoc_ktap_fail(t, "expected %s == %s (%lld != %lld)", \
					 #a, #b, __a, __b);		\
		__a == __b;						\
	})

static inline __printf(2, 3)
void ampsoc_ktap_skip(struct ampsoc_ktap_test *t, const char *fmt, ...)
{
	va_list ap;

	t->skipped = true;
	va_start(ap, fmt);
	vscnprintf(t->reason, sizeof(t->reason), fmt, ap);
	va_end(ap);
}

#define KTAP_SKIP(t, fmt, ...) ampsoc_ktap_skip(t, fmt, ##__VA_ARGS__)

static inline ssize_t ampsoc_ktap_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	struct ampsoc_ktap_log *l = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, l->buf, l->len);
}

static const struct file_operations __maybe_unused ampsoc_ktap_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = ampsoc_ktap_read,
	.llseek = default_llseek,
};

static inline bool ampsoc_ktap_run_suite(const struct ampsoc_ktap_suite *s,
					 unsigned int *fails)
{
	unsigned int i, n = 0, failed = 0;

	while (s->cases[n].run)
		n++;
	ampsoc_ktap_line(4, "KTAP version 1");
	ampsoc_ktap_line(4, "# Subtest: %s", s->name);
	ampsoc_ktap_line(4, "1..%u", n);
	for (i = 0; i < n; i++) {
		struct ampsoc_ktap_test t = { .name = s->cases[i].name };
		int err = s->init ? s->init(&t) : 0;

		if (err) {
			ampsoc_ktap_fail(&t, "suite init failed: %d", err);
		} else {
			s->cases[i].run(&t);
			if (s->exit)
				s->exit(&t);
		}
		if (t.failed) {
			failed++;
			ampsoc_ktap_line(4, "not ok %u %s", i + 1, t.name);
		} else if (t.skipped) {
			ampsoc_ktap_line(4, "ok %u %s # SKIP %s", i + 1, t.name,
					 t.reason);
		} else {
			ampsoc_ktap_line(4, "ok %u %s", i + 1, t.name);
		}
	}
	*fails += failed;
	return failed == 0;
}

/*
 * Run every suite, print KTAP and publish it in debugfs. Returns the number
 * of failed cases. The caller's init should still return 0 so that the
 * harness can read the results; the file goes away with ampsoc_ktap_done().
 */
static inline unsigned int
ampsoc_ktap_run(const struct ampsoc_ktap_suite *suites, unsigned int num_suites)
{
	struct ampsoc_ktap_log *l = &ampsoc_ktap_log;
	unsigned int i, fails = 0;

	ampsoc_ktap_line(0, "KTAP version 1");
	ampsoc_ktap_line(0, "1..%u", num_suites);
	for (i = 0; i < num_suites; i++) {
		bool ok = ampsoc_ktap_run_suite(&suites[i], &fails);

		ampsoc_ktap_line(0, "%s %u %s", ok ? "ok" : "not ok", i + 1,
				 suites[i].name);
	}
	if (l->truncated)
		ampsoc_ktap_line(0, "# ampsoc_ktap: log truncated");

	l->dir = debugfs_lookup("ampsoc_ktap", NULL);
	if (!l->dir) {
		l->dir = debugfs_create_dir("ampsoc_ktap", NULL);
		l->own_dir = true;
	} else {
		/* debugfs_lookup() took a reference; drop it, the dir stays. */
		dput(l->dir);
	}
	l->file = debugfs_create_file(KBUILD_MODNAME, 0444, l->dir, l,
				      &ampsoc_ktap_fops);
	return fails;
}

/* Remove the published results; call from the test module's exit. */
static inline void ampsoc_ktap_done(void)
{
	struct ampsoc_ktap_log *l = &ampsoc_ktap_log;

	debugfs_remove(l->file);
	if (l->own_dir && l->dir && simple_empty(l->dir))
		debugfs_remove(l->dir);
	kfree(l->buf);
	memset(l, 0, sizeof(*l));
}

#endif /* _AMPSOC_KTAP_H */
