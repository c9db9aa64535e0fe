// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RDMA netlink (NETLINK_RDMA, the nldev client): a second opinion on what
 * sysfs says about devices and ports, plus what only netlink knows (the
 * device index, the protocol, the netdev's ifindex). sysfs stays the
 * reference; where the two disagree the port gets a note.
 */
#include "config.h"
#include "probes/rdma_nl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <net/if.h>
#include <rdma/rdma_netlink.h>

#include "core/attr.h"
#include "core/escape.h"
#include "probes/nl_util.h"

#define SRC "rdma_nl"
/* When the family is missing, look again this many refreshes later. */
#define RETRY_ABSENT_EVERY 10
#define MAX_DEVICES 1024
#define MAX_PORTS 255
#define MAX_COUNTERS 4096

#define NLDEV_TYPE(cmd) RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, (cmd))

struct rdma_nl_cache {
	struct nl_sock *sk;
	bool absent;		/* kernel has no RDMA netlink */
	uint64_t absent_tick;
};

static struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX + 1] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE] = { .type = NLA_U8 },
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_DEV_NAME] = { .type = NLA_STRING, .maxlen = 64 },
	[RDMA_NLDEV_ATTR_PORT_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_FW_VERSION] = { .type = NLA_STRING, .maxlen = 64 },
	[RDMA_NLDEV_ATTR_NODE_GUID] = { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID] = { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_LID] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_SM_LID] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_LMC] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_PORT_STATE] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_NDEV_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_NDEV_NAME] = { .type = NLA_STRING,
					.maxlen = IFNAMSIZ },
	[RDMA_NLDEV_ATTR_DEV_PROTOCOL] = { .type = NLA_STRING, .maxlen = 32 },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] = { .type = NLA_NESTED },
};

static struct nla_policy hwc_list_policy[RDMA_NLDEV_ATTR_MAX + 1] = {
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY] = { .type = NLA_NESTED },
};

static struct nla_policy hwc_entry_policy[RDMA_NLDEV_ATTR_MAX + 1] = {
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] = { .type = NLA_STRING,
							.maxlen = 128 },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = { .type = NLA_U64 },
};

void rd_rdma_nl_free_devices(struct rd_device *devs, size_t n)
{
	rd_model_free_array(rd_device_fields, (void **)&devs, &n,
			    sizeof(*devs));
}

static struct rd_device *find_by_index(struct rd_device *devs, size_t n,
				       uint64_t idx)
{
	for (size_t i = 0; i < n; i++)
		if (devs[i].index.ok && devs[i].index.v == idx)
			return &devs[i];
	return NULL;
}

static int dev_from_attrs(struct nlattr **tb, struct rd_device *d)
{
	const char *name = rd_nl_text(tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	const char *t;

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !name)
		return -EBADMSG;
	d->index = rd_u64(nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]));
	if (rd_str_set(&d->name, name) < 0)
		return -ENOMEM;
	t = rd_nl_text(tb[RDMA_NLDEV_ATTR_FW_VERSION]);
	if (t)
		(void)rd_str_set(&d->fw_ver, t);
	if (tb[RDMA_NLDEV_ATTR_NODE_GUID])
		d->node_guid = rd_u64(nla_get_u64(tb[RDMA_NLDEV_ATTR_NODE_GUID]));
	if (tb[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID])
		d->sys_image_guid = rd_u64(
			nla_get_u64(tb[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID]));
	if (tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]) {
		uint8_t nt = nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]);

		d->node_type_num = rd_u64(nt);
		(void)rd_str_set(&d->node_type, rd_node_type_name(nt));
	}
	t = rd_nl_text(tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL]);
	if (t)
		(void)rd_str_set(&d->protocol, t);
	return 0;
}

/*
 * The next message of a dump, which must answer cmd, its attributes
 * parsed into tb: 1, 0 at the end, or -errno (-EBADMSG: another message).
 */
static int next_nldev(struct rd_nl_iter *it, int cmd, struct nlattr **tb)
{
	struct nlmsghdr *nlh;
	int r = rd_nl_next(it, &nlh);

	if (r <= 0)
		return r;
	if (nlh->nlmsg_type != NLDEV_TYPE(cmd))
		return -EBADMSG;
	r = rd_nlmsg_parse(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX, nldev_policy);
	return r < 0 ? r : 1;
}

/*
 * Hand each message of a dump answering cmd to fn with its attributes;
 * fn returns 0 to go on or -errno to stop. 0, or the first -errno.
 */
static int each_nldev(const void *bytes, size_t len, int cmd,
		      int (*fn)(struct nlattr **tb, void *arg), void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX + 1];
	struct rd_nl_iter it;
	int r;

	rd_nl_iter_init(&it, bytes, len);
	while ((r = next_nldev(&it, cmd, tb)) > 0 && (r = fn(tb, arg)) == 0)
		;
	rd_nl_iter_end(&it);
	return r < 0 ? r : 0;
}

/* The device array a parser adds to. */
struct dev_array {
	struct rd_device **devs;
	size_t *n;
};

static int device_msg(struct nlattr **tb, void *arg)
{
	struct dev_array *a = arg;
	struct rd_device tmp = { 0 }, *d;
	int r = dev_from_attrs(tb, &tmp);

	if (r < 0) {
		rd_model_free(rd_device_fields, &tmp);
		return r;
	}
	d = find_by_index(*a->devs, *a->n, tmp.index.v);
	if (d) {
		/* A repeated device replaces the earlier answer. */
		tmp.ports = d->ports;
		tmp.n_ports = d->n_ports;
		d->ports = NULL;
		d->n_ports = 0;
		rd_model_free(rd_device_fields, d);
		*d = tmp;
		return 0;
	}
	if (*a->n >= MAX_DEVICES || !(d = RD_PUSH(*a->devs, *a->n))) {
		rd_model_free(rd_device_fields, &tmp);
		return *a->n >= MAX_DEVICES ? -E2BIG : -ENOMEM;
	}
	*d = tmp;
	return 0;
}

int rd_rdma_nl_parse_devices(const void *bytes, size_t len,
			     struct rd_device **devs, size_t *n)
{
	struct dev_array a = { devs, n };

	return each_nldev(bytes, len, RDMA_NLDEV_CMD_GET, device_msg, &a);
}

static int port_from_attrs(struct nlattr **tb, struct rd_port *p)
{
	const char *t;

	if (tb[RDMA_NLDEV_ATTR_PORT_STATE]) {
		uint8_t v = nla_get_u8(tb[RDMA_NLDEV_ATTR_PORT_STATE]);

		p->state_num = rd_u64(v);
		(void)rd_str_set(&p->state, rd_port_state_name(v));
	}
	if (tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]) {
		uint8_t v = nla_get_u8(tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]);

		p->phys_state_num = rd_u64(v);
		(void)rd_str_set(&p->phys_state, rd_port_phys_state_name(v));
	}
	if (tb[RDMA_NLDEV_ATTR_LID])
		p->lid = rd_u64(nla_get_u32(tb[RDMA_NLDEV_ATTR_LID]));
	if (tb[RDMA_NLDEV_ATTR_SM_LID])
		p->sm_lid = rd_u64(nla_get_u32(tb[RDMA_NLDEV_ATTR_SM_LID]));
	if (tb[RDMA_NLDEV_ATTR_LMC])
		p->lid_mask_count = rd_u64(nla_get_u8(tb[RDMA_NLDEV_ATTR_LMC]));
	t = rd_nl_text(tb[RDMA_NLDEV_ATTR_NDEV_NAME]);
	if (t)
		(void)rd_str_set(&p->netdev, t);
	if (tb[RDMA_NLDEV_ATTR_NDEV_INDEX])
		p->netdev_ifindex =
			rd_u64(nla_get_u32(tb[RDMA_NLDEV_ATTR_NDEV_INDEX]));
	return 0;
}

/* A port answered twice: forget the first answer (only what we set). */
static void port_reset(struct rd_port *p)
{
	free(p->state);
	free(p->phys_state);
	free(p->netdev);
	memset(p, 0, sizeof(*p));
}

static int port_msg(struct nlattr **tb, void *arg)
{
	struct dev_array *a = arg;
	struct rd_device *d;
	struct rd_port *p = NULL;
	uint32_t num;

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return -EBADMSG;
	num = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (num == 0 || num > MAX_PORTS)
		return -EBADMSG;
	d = find_by_index(*a->devs, *a->n,
			  nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]));
	/* A device that appeared between the two dumps. */
	if (!d)
		return 0;
	for (size_t i = 0; i < d->n_ports; i++)
		if (d->ports[i].port == num)
			p = &d->ports[i];
	if (p) {
		port_reset(p);
	} else {
		p = RD_PUSH(d->ports, d->n_ports);
		if (!p)
			return -ENOMEM;
	}
	p->port = num;
	port_from_attrs(tb, p);
	return 0;
}

int rd_rdma_nl_parse_ports(const void *bytes, size_t len,
			   struct rd_device *devs, size_t n)
{
	struct dev_array a = { &devs, &n };

	return each_nldev(bytes, len, RDMA_NLDEV_CMD_PORT_GET, port_msg, &a);
}

static int stats_msg(struct nlattr **tb, void *arg)
{
	struct rd_counters *out = arg;
	struct nlattr *lt[RDMA_NLDEV_ATTR_MAX + 1];
	struct nlattr *e;
	int rem, r;

	if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		return 0;
	r = rd_nla_parse_nested(lt, RDMA_NLDEV_ATTR_MAX,
				tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS],
				hwc_list_policy);
	if (r < 0)
		return r;
	/* The list repeats ENTRY: walk it rather than index it. */
	nla_for_each_nested(e, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], rem) {
		struct nlattr *et[RDMA_NLDEV_ATTR_MAX + 1];
		const char *name;

		if (nla_type(e) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
			continue;
		r = rd_nla_parse_nested(et, RDMA_NLDEV_ATTR_MAX, e,
					hwc_entry_policy);
		if (r < 0)
			return r;
		name = rd_nl_text(et[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME]);
		if (!name || !et[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE])
			return -EBADMSG;
		if (out->n >= MAX_COUNTERS)
			return -E2BIG;
		if (!rd_counters_add(out, name,
				     rd_u64(nla_get_u64(et[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE]))))
			return -ENOMEM;
	}
	return 0;
}

int rd_rdma_nl_parse_stats(const void *bytes, size_t len,
			   struct rd_counters *out)
{
	return each_nldev(bytes, len, RDMA_NLDEV_CMD_STAT_GET, stats_msg, out);
}

/* ---- merge with sysfs ---- */

static void note(struct rd_snapshot *s, const char *dev, struct rd_port *p,
		 const char *what, const char *sysfs, const char *nl)
{
	char line[256], where[128];
	size_t old = p && p->mismatch ? strlen(p->mismatch) : 0;

	/* The values are outside text: a cut keeps whole characters. */
	rd_snprintf_text(line, sizeof(line), "%s: sysfs %s, netlink %s", what,
			 sysfs, nl);
	if (p) {
		char *m = realloc(p->mismatch, old + strlen(line) + 2);

		if (m) {
			if (old)
				m[old++] = '\n';
			strcpy(m + old, line);
			p->mismatch = m;
		}
		snprintf(where, sizeof(where), "%s/%" PRIu64, dev, p->port);
	} else {
		snprintf(where, sizeof(where), "%s", dev);
	}
	rd_snapshot_error(s, SRC, where, 0, "sysfs and netlink disagree: %s",
			  line);
}

static void cmp_u64(struct rd_snapshot *s, const char *dev, struct rd_port *p,
		    const char *what, struct rd_ou64 *sys, struct rd_ou64 nl,
		    bool guid)
{
	char a[32], b[32];

	if (!nl.ok)
		return;
	if (!sys->ok) {
		*sys = nl;
		return;
	}
	if (sys->v == nl.v)
		return;
	if (guid) {
		rd_format_guid(sys->v, a, sizeof(a));
		rd_format_guid(nl.v, b, sizeof(b));
	} else {
		snprintf(a, sizeof(a), "%" PRIu64, sys->v);
		snprintf(b, sizeof(b), "%" PRIu64, nl.v);
	}
	note(s, dev, p, what, a, b);
}

static void cmp_str(struct rd_snapshot *s, const char *dev, struct rd_port *p,
		    const char *what, char **sys, const char *nl)
{
	if (!nl)
		return;
	if (!*sys) {
		(void)rd_str_set(sys, nl);
		return;
	}
	if (strcmp(*sys, nl) != 0)
		note(s, dev, p, what, *sys, nl);
}

/* A state known by number and name: the numbers decide. */
static void cmp_state(struct rd_snapshot *s, const char *dev,
		      struct rd_port *p, const char *what, struct rd_ou64 *num,
		      char **name, struct rd_ou64 nl_num, const char *nl_name)
{
	if (nl_num.ok && num->ok && nl_num.v != num->v) {
		note(s, dev, p, what, *name ? *name : "?",
		     nl_name ? nl_name : "?");
	} else if (!num->ok && nl_num.ok) {
		*num = nl_num;
		(void)rd_str_set(name, nl_name);
	}
}

/* Device-level disagreements go on every port: that is where they show. */
static void dev_note(struct rd_snapshot *s, struct rd_device *d,
		     const char *what, const char *a, const char *b)
{
	if (d->n_ports == 0) {
		note(s, d->name, NULL, what, a, b);
		return;
	}
	for (size_t i = 0; i < d->n_ports; i++)
		note(s, d->name, &d->ports[i], what, a, b);
}

/* A GUID both sources gave: noted when they differ, else filled in. */
static void merge_guid(struct rd_snapshot *s, struct rd_device *d,
		       const char *what, struct rd_ou64 *mine,
		       struct rd_ou64 nl)
{
	char a[32], b[32];

	if (nl.ok && mine->ok && nl.v != mine->v) {
		rd_format_guid(mine->v, a, sizeof(a));
		rd_format_guid(nl.v, b, sizeof(b));
		dev_note(s, d, what, a, b);
	} else if (!mine->ok) {
		*mine = nl;
	}
}

static void merge_device(struct rd_snapshot *s, struct rd_device *d,
			 struct rd_device *nl)
{
	d->index = nl->index;
	if (!d->protocol && nl->protocol) {
		d->protocol = nl->protocol;
		nl->protocol = NULL;
	}
	merge_guid(s, d, "node_guid", &d->node_guid, nl->node_guid);
	merge_guid(s, d, "sys_image_guid", &d->sys_image_guid,
		   nl->sys_image_guid);
	if (nl->fw_ver && d->fw_ver && strcmp(nl->fw_ver, d->fw_ver) != 0)
		dev_note(s, d, "fw_ver", d->fw_ver, nl->fw_ver);
	else if (!d->fw_ver && nl->fw_ver)
		(void)rd_str_set(&d->fw_ver, nl->fw_ver);
	if (nl->node_type_num.ok && d->node_type_num.ok &&
	    nl->node_type_num.v != d->node_type_num.v) {
		dev_note(s, d, "node_type", d->node_type ? d->node_type : "?",
			 nl->node_type ? nl->node_type : "?");
	} else if (!d->node_type_num.ok && nl->node_type_num.ok) {
		d->node_type_num = nl->node_type_num;
		(void)rd_str_set(&d->node_type, nl->node_type);
	}

	for (size_t i = 0; i < nl->n_ports; i++) {
		struct rd_port *np = &nl->ports[i];
		struct rd_port *p = rd_device_port(d, np->port);

		if (!p) {
			note(s, d->name, NULL, "port",
			     "absent", "present");
			continue;
		}
		p->netdev_ifindex = np->netdev_ifindex;
		cmp_state(s, d->name, p, "state", &p->state_num, &p->state,
			  np->state_num, np->state);
		cmp_state(s, d->name, p, "phys_state", &p->phys_state_num,
			  &p->phys_state, np->phys_state_num, np->phys_state);
		if (!p->hw_counters.n && np->hw_counters.n) {
			p->hw_counters = np->hw_counters;
			np->hw_counters = (struct rd_counters){ 0 };
		}
		cmp_u64(s, d->name, p, "lid", &p->lid, np->lid, false);
		cmp_u64(s, d->name, p, "sm_lid", &p->sm_lid, np->sm_lid,
			false);
		cmp_str(s, d->name, p, "netdev", &p->netdev, np->netdev);
	}
}

void rd_rdma_nl_merge(struct rd_snapshot *s, struct rd_device *nl, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rd_device *d = rd_snapshot_device(s, nl[i].name);

		if (d) {
			merge_device(s, d, &nl[i]);
			rd_model_free(rd_device_fields, &nl[i]);
		} else {
			d = RD_PUSH(s->devices, s->n_devices);
			if (!d) {
				rd_model_free(rd_device_fields, &nl[i]);
				continue;
			}
			*d = nl[i];
		}
		memset(&nl[i], 0, sizeof(nl[i]));
	}
}

static int sys_msg(struct nlattr **tb, void *arg)
{
	struct rd_host *h = arg;

	if (tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]) {
		uint8_t m = nla_get_u8(tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]);

		if (m > 1)
			return -EINVAL;
		(void)rd_str_set(&h->rdma_netns_mode,
				 m ? "shared" : "exclusive");
	}
	if (tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK])
		h->rdma_copy_on_fork = rd_bool(
			nla_get_u8(tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]) != 0);
	return 0;
}

int rd_rdma_nl_parse_sys(const void *bytes, size_t len, struct rd_host *h)
{
	return each_nldev(bytes, len, RDMA_NLDEV_CMD_SYS_GET, sys_msg, h);
}

/* The network namespace mode of the RDMA subsystem (kernel 5.2 and up). */
static void read_sys(struct rd_snapshot *s, struct nl_sock *sk)
{
	struct nl_msg *m = nlmsg_alloc_simple(
		NLDEV_TYPE(RDMA_NLDEV_CMD_SYS_GET), NLM_F_REQUEST);
	struct rd_nl_buf b = { 0 };
	int r = -ENOMEM;

	if (m)
		r = rd_nl_request(sk, m, &b);
	nlmsg_free(m);
	if (r == 0)
		r = rd_rdma_nl_parse_sys(b.data, b.len, &s->host);
	if (r < 0)
		rd_snapshot_error(s, SRC, "system get", r,
				  "RDMA network namespace mode not read");
	rd_nl_buf_free(&b);
}

/* ---- the probe ---- */

static void rdma_nl_state_clear(void *state)
{
	struct rdma_nl_cache *c = state;

	rd_nl_close(&c->sk);
}

int rd_rdma_nl_dump(struct nl_sock *sk, int cmd, struct rd_nl_buf *out)
{
	struct nl_msg *m = nlmsg_alloc_simple(NLDEV_TYPE(cmd),
					      NLM_F_REQUEST | NLM_F_DUMP);
	int r;

	if (!m)
		return -ENOMEM;
	r = rd_nl_request(sk, m, out);
	nlmsg_free(m);
	return r;
}

int rd_rdma_nl_port_dump(struct nl_sock *sk, uint64_t dev,
			 struct rd_nl_buf *out)
{
	struct nl_msg *m = nlmsg_alloc_simple(
		NLDEV_TYPE(RDMA_NLDEV_CMD_PORT_GET), NLM_F_REQUEST | NLM_F_DUMP);
	int r = -ENOMEM;

	if (!m)
		return r;
	/* The kernel dumps the ports of one device per request. */
	if (nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, (uint32_t)dev) == 0)
		r = rd_nl_request(sk, m, out);
	nlmsg_free(m);
	return r;
}

int rd_rdma_nl_port_stats(struct nl_sock *sk, uint64_t dev, uint64_t port,
			  struct rd_nl_buf *out)
{
	struct nl_msg *m = nlmsg_alloc_simple(
		NLDEV_TYPE(RDMA_NLDEV_CMD_STAT_GET), NLM_F_REQUEST);
	int r = -ENOMEM;

	if (!m)
		return r;
	if (nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, (uint32_t)dev) == 0 &&
	    nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, (uint32_t)port) == 0)
		r = rd_nl_request(sk, m, out);
	nlmsg_free(m);
	return r;
}

/* Counters of ports sysfs did not show (netlink-only devices). */
static void fill_stats(struct rd_snapshot *s, struct nl_sock *sk,
		       struct rd_device *devs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rd_device *sd = rd_snapshot_device(s, devs[i].name);

		for (size_t j = 0; j < devs[i].n_ports; j++) {
			struct rd_port *p = &devs[i].ports[j];
			struct rd_port *sp = sd ? rd_device_port(sd, p->port) :
						  NULL;
			struct rd_nl_buf b = { 0 };
			char where[96];
			int r;

			if (sp && sp->hw_counters.n)
				continue;
			r = rd_rdma_nl_port_stats(sk, devs[i].index.v, p->port, &b);
			if (r == 0)
				r = rd_rdma_nl_parse_stats(b.data, b.len,
							   &p->hw_counters);
			/* Devices without hw counters answer EOPNOTSUPP. */
			if (r < 0 && r != -EOPNOTSUPP && r != -ENOENT) {
				snprintf(where, sizeof(where),
					 "%s/%" PRIu64 " stat", devs[i].name,
					 p->port);
				rd_snapshot_error(s, SRC, where, r, NULL);
			}
			rd_nl_buf_free(&b);
		}
	}
}

static int probe_rdma_nl_collect(const struct rd_probe_ctx *ctx, void *state,
				 struct rd_snapshot *s)
{
	struct rdma_nl_cache *c = state;
	struct rd_nl_buf b = { 0 };
	struct rd_device *devs = NULL;
	size_t n = 0;
	int r;

	if (c->absent && ctx->tick - c->absent_tick < RETRY_ABSENT_EVERY)
		return 0;
	if (!c->sk) {
		r = rd_nl_open(NETLINK_RDMA, &c->sk);
		if (r == -EPROTONOSUPPORT || r == -EAFNOSUPPORT) {
			/* No IB core in this kernel: no RDMA netlink, no devices. */
			c->absent = true;
			c->absent_tick = ctx->tick;
			r = 0;
			goto out;
		}
		if (r < 0) {
			rd_snapshot_error(s, SRC, "NETLINK_RDMA", r, NULL);
			r = 0;
			goto out;
		}
		c->absent = false;
	}

	r = rd_rdma_nl_dump(c->sk, RDMA_NLDEV_CMD_GET, &b);
	if (r == 0)
		r = rd_rdma_nl_parse_devices(b.data, b.len, &devs, &n);
	if (r < 0) {
		rd_snapshot_error(s, SRC, "device dump", r, NULL);
		goto drop_socket;
	}
	for (size_t i = 0; i < n; i++) {
		rd_nl_buf_free(&b);
		r = rd_rdma_nl_port_dump(c->sk, devs[i].index.v, &b);
		if (r == 0)
			r = rd_rdma_nl_parse_ports(b.data, b.len, devs, n);
		/* The device went away between the two dumps. */
		if (r == -ENODEV || r == -ENOENT)
			continue;
		if (r < 0) {
			rd_snapshot_error(s, SRC, devs[i].name, r,
					  "port dump failed");
			goto drop_socket;
		}
	}
	fill_stats(s, c->sk, devs, n);
	rd_rdma_nl_merge(s, devs, n);
	read_sys(s, c->sk);
	r = 0;
	goto out;

drop_socket:
	/* A confused exchange leaves stale replies queued: start afresh. */
	rd_nl_close(&c->sk);
	r = 0;
out:
	rd_nl_buf_free(&b);
	rd_rdma_nl_free_devices(devs, n);
	return r;
}

const struct rd_probe probe_rdma_nl =
	RD_PROBE_ROW("rdma_nl", RD_NEEDS_NETLINK, probe_rdma_nl_collect,
		     struct rdma_nl_cache, NULL, rdma_nl_state_clear);
