/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Link modes, link state (with the driver's link-down reason), pause, FEC
 * and driver statistics of the netdevs behind RDMA ports: the ethtool
 * genetlink family, plus the SIOCETHTOOL ioctl for what it lacks.
 */
#ifndef RD_PROBES_ETHTOOL_H
#define RD_PROBES_ETHTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/nl_util.h"
#include "probes/probe.h"

extern const struct rd_probe probe_ethtool;

/* The genetlink side: a socket and the resolved "ethtool" family id. */
struct rd_ethtool_nl {
	struct nl_sock *sk;
	int family;
};

/*
 * What a probe talking ethtool keeps between refreshes: the genetlink
 * socket (or that the kernel has none) and a socket for SIOCETHTOOL.
 */
struct rd_ethtool_io {
	struct rd_ethtool_nl nl;
	bool nl_absent;
	int ioctl_fd;
};

void rd_ethtool_io_init(struct rd_ethtool_io *io);
void rd_ethtool_io_close(struct rd_ethtool_io *io);
/* Open what is not open yet; failures are lines in s->errors under src. */
void rd_ethtool_io_open(struct rd_ethtool_io *io, struct rd_snapshot *s,
			const char *src);

/* 0, -ENOENT when the kernel has no ethtool netlink, or -errno. */
int rd_ethtool_nl_open(struct rd_ethtool_nl *e);
void rd_ethtool_nl_close(struct rd_ethtool_nl *e);
/* One ETHTOOL_MSG_*_GET for ifname; the reply bytes land in out. */
int rd_ethtool_nl_get(struct rd_ethtool_nl *e, int cmd, const char *ifname,
		      uint32_t flags, struct rd_nl_buf *out);

/*
 * Reply parsers. Each fills its group of fields in et. Return 0, the
 * kernel's -errno (-EOPNOTSUPP: the driver lacks the operation), or
 * -EBADMSG for a truncated or malformed reply.
 */
int rd_ethtool_parse_linkmodes(const void *bytes, size_t len,
			       struct rd_ethtool *et);
int rd_ethtool_parse_linkstate(const void *bytes, size_t len,
			       struct rd_ethtool *et);
int rd_ethtool_parse_pause(const void *bytes, size_t len,
			   struct rd_ethtool *et);
int rd_ethtool_parse_fec(const void *bytes, size_t len, struct rd_ethtool *et);

/* struct ethtool_drvinfo as ETHTOOL_GDRVINFO returns it. */
int rd_ethtool_parse_drvinfo(const void *bytes, size_t len,
			     struct rd_ethtool *et);
/*
 * ETHTOOL_GSTRINGS(ETH_SS_STATS) names (32 bytes each) and ETHTOOL_GSTATS
 * values (u64 each); counts must agree. Adds name/value pairs to out.
 */
int rd_ethtool_parse_stats(const void *names, size_t names_len,
			   const void *values, size_t values_len,
			   struct rd_counters *out);

/* Kernel enum ethtool_link_ext_state / _substate as words; NULL if unknown. */
const char *rd_ethtool_ext_state_name(unsigned state);
const char *rd_ethtool_ext_substate_name(unsigned state, unsigned sub);

/*
 * Raw ioctl answers, for the capture tool and the probe: names/values are
 * malloc'd, *n is the number of statistics.
 */
int rd_ethtool_ioctl_drvinfo(int fd, const char *ifname, void *buf,
			     size_t size);
int rd_ethtool_ioctl_stats(int fd, const char *ifname, void **names,
			   void **values, size_t *n);

#endif
