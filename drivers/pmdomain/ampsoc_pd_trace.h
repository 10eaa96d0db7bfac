/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of the ampsoc PM domain core, under events/ampsoc_pd/.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ampsoc_pd

#if !defined(_AMPSOC_PD_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _AMPSOC_PD_TRACE_H

#include <linux/device.h>
#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(ampsoc_pd_power,
		    TP_PROTO(const char *name, unsigned int state,
			     s64 latency_ns, int ret),
		    TP_ARGS(name, state, latency_ns, ret),
		    TP_STRUCT__entry(__string(name, name)
				     __field(unsigned int, state)
				     __field(s64, latency_ns)
				     __field(int, ret)),
		    TP_fast_assign(__assign_str(name, name);
				   __entry->state = state;
				   __entry->latency_ns = latency_ns;
				   __entry->ret = ret;),
		    TP_printk("domain=%s state=%u latency_ns=%lld ret=%d",
			      __get_str(name), __entry->state,
			      __entry->latency_ns, __entry->ret));

/* A domain powered on: the state it left, the callback's latency. */
DEFINE_EVENT(ampsoc_pd_power, ampsoc_pd_power_on,
	     TP_PROTO(const char *name, unsigned int state, s64 latency_ns,
		      int ret),
	     TP_ARGS(name, state, latency_ns, ret));

/* A domain powered off: the state chosen, the callback's latency. */
DEFINE_EVENT(ampsoc_pd_power, ampsoc_pd_power_off,
	     TP_PROTO(const char *name, unsigned int state, s64 latency_ns,
		      int ret),
	     TP_ARGS(name, state, latency_ns, ret));

DECLARE_EVENT_CLASS(ampsoc_pd_device,
		    TP_PROTO(const char *name, struct device *dev),
		    TP_ARGS(name, dev),
		    TP_STRUCT__entry(__string(name, name)
				     __string(dev, dev_name(dev))),
		    TP_fast_assign(__assign_str(name, name);
				   __assign_str(dev, dev_name(dev));),
		    TP_printk("domain=%s dev=%s", __get_str(name),
			      __get_str(dev)));

DEFINE_EVENT(ampsoc_pd_device, ampsoc_pd_attach,
	     TP_PROTO(const char *name, struct device *dev),
	     TP_ARGS(name, dev));

DEFINE_EVENT(ampsoc_pd_device, ampsoc_pd_detach,
	     TP_PROTO(const char *name, struct device *dev),
	     TP_ARGS(name, dev));

#endif /* _AMPSOC_PD_TRACE_H */

/* Out-of-tree: the header is found next to the source, not in include/trace. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ampsoc_pd_trace
#include <trace/define_trace.h>
