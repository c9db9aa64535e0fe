// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devlink dev info and health reporters. Only PCI functions that carry an
 * RDMA device are kept: a host's other devlink instances (netdevsim, a
 * switch ASIC) say nothing of its RDMA ports.
 */
#include "config.h"
#include "probes/devlink.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#define SRC "devlink"
#define MAX_VERSIONS 64
#define MAX_REPORTERS 32
/* enum devlink_health_reporter_state (include/net/devlink.h, not uapi) */
#define REPORTER_HEALTHY 0
#define REPORTER_ERROR 1

static struct nla_policy top_policy[DEVLINK_ATTR_MAX + 1] = {
	[DEVLINK_ATTR_BUS_NAME] = { .type = NLA_STRING, .maxlen = 64 },
	[DEVLINK_ATTR_DEV_NAME] = { .type = NLA_STRING, .maxlen = 64 },
	[DEVLINK_ATTR_INFO_DRIVER_NAME] = { .type = NLA_STRING, .maxlen = 64 },
	[DEVLINK_ATTR_INFO_SERIAL_NUMBER] = { .type = NLA_STRING,
					      .maxlen = 128 },
	[DEVLINK_ATTR_INFO_BOARD_SERIAL_NUMBER] = { .type = NLA_STRING,
						    .maxlen = 128 },
	[DEVLINK_ATTR_INFO_VERSION_FIXED] = { .type = NLA_NESTED },
	[DEVLINK_ATTR_INFO_VERSION_RUNNING] = { .type = NLA_NESTED },
	[DEVLINK_ATTR_INFO_VERSION_STORED] = { .type = NLA_NESTED },
	[DEVLINK_ATTR_INFO_VERSION_NAME] = { .type = NLA_STRING, .maxlen = 64 },
	[DEVLINK_ATTR_INFO_VERSION_VALUE] = { .type = NLA_STRING,
					      .maxlen = 128 },
	[DEVLINK_ATTR_HEALTH_REPORTER] = { .type = NLA_NESTED },
	[DEVLINK_ATTR_HEALTH_REPORTER_NAME] = { .type = NLA_STRING,
						.maxlen = 64 },
	[DEVLINK_ATTR_HEALTH_REPORTER_STATE] = { .type = NLA_U8 },
	[DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT] = { .type = NLA_U64 },
	[DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT] = { .type = NLA_U64 },
	[DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS] = { .type = NLA_U64 },
	[DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD] = { .type = NLA_U64 },
	[DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER] = { .type = NLA_U8 },
	[DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS] = { .type = NLA_U64 },
	[DEVLINK_ATTR_ESWITCH_MODE] = { .type = NLA_U16 },
};

struct devlink_cache {
	struct nl_sock *sk;
	int family;
	bool absent;
};

/* The instance of bus/dev in s, made when new. NULL when out of memory. */
static struct rd_devlink *instance(struct rd_snapshot *s, const char *bus,
				   const char *dev)
{
	struct rd_devlink *d;

	for (size_t i = 0; i < s->n_devlinks; i++)
		if (!strcmp(s->devlinks[i].bus, bus) &&
		    !strcmp(s->devlinks[i].dev, dev))
			return &s->devlinks[i];
	d = RD_PUSH(s->devlinks, s->n_devlinks);
	if (!d)
		return NULL;
	if (rd_str_set(&d->bus, bus) || rd_str_set(&d->dev, dev)) {
		rd_model_free(rd_devlink_fields, d);
		s->n_devlinks--;
		return NULL;
	}
	return d;
}

/* Each message's bus and dev name the instance it speaks of. */
static int message_instance(struct nlmsghdr *nlh, struct nlattr **tb,
			    struct rd_snapshot *s, struct rd_devlink **out)
{
	const char *bus, *dev;
	int r = rd_nlmsg_parse(nlh, GENL_HDRLEN, tb, DEVLINK_ATTR_MAX,
			       top_policy);

	if (r < 0)
		return r;
	bus = rd_nl_text(tb[DEVLINK_ATTR_BUS_NAME]);
	dev = rd_nl_text(tb[DEVLINK_ATTR_DEV_NAME]);
	if (!bus || !dev)
		return -EBADMSG;
	*out = instance(s, bus, dev);
	return *out ? 0 : -ENOMEM;
}

static int one_version(struct rd_devlink *d, struct nlattr *nest,
		       const char *kind)
{
	struct nlattr *vt[DEVLINK_ATTR_MAX + 1];
	struct rd_devlink_version *v;
	const char *name, *value;
	int r = rd_nla_parse_nested(vt, DEVLINK_ATTR_MAX, nest, top_policy);

	if (r < 0)
		return r;
	name = rd_nl_text(vt[DEVLINK_ATTR_INFO_VERSION_NAME]);
	value = rd_nl_text(vt[DEVLINK_ATTR_INFO_VERSION_VALUE]);
	if (!name || !value)
		return 0;	/* nothing a person could read */
	if (d->n_versions >= MAX_VERSIONS)
		return -E2BIG;
	v = RD_PUSH(d->versions, d->n_versions);
	if (!v || rd_str_set(&v->kind, kind) || rd_str_set(&v->name, name) ||
	    rd_str_set(&v->value, value))
		return -ENOMEM;
	return 0;
}

typedef int message_fn(struct rd_devlink *d, struct nlmsghdr *nlh,
			struct nlattr **tb);

/* Every message of a dump, each with the instance it speaks of. */
static int each_message(const void *bytes, size_t len, struct rd_snapshot *s,
			message_fn *fn)
{
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	int r;

	rd_nl_iter_init(&it, bytes, len);
	while ((r = rd_nl_next(&it, &nlh)) == 1) {
		struct nlattr *tb[DEVLINK_ATTR_MAX + 1];
		struct rd_devlink *d;

		r = message_instance(nlh, tb, s, &d);
		if (r == 0)
			r = fn(d, nlh, tb);
		if (r < 0)
			break;
	}
	rd_nl_iter_end(&it);
	return r < 0 ? r : 0;
}

static const char *version_kind(int type)
{
	switch (type) {
	case DEVLINK_ATTR_INFO_VERSION_FIXED:
		return "fixed";
	case DEVLINK_ATTR_INFO_VERSION_RUNNING:
		return "running";
	case DEVLINK_ATTR_INFO_VERSION_STORED:
		return "stored";
	default:
		return NULL;
	}
}

static int info_message(struct rd_devlink *d, struct nlmsghdr *nlh,
			struct nlattr **tb)
{
	static const struct {
		int type;
		size_t off;
	} strs[] = {
		{ DEVLINK_ATTR_INFO_DRIVER_NAME, offsetof(struct rd_devlink, driver) },
		{ DEVLINK_ATTR_INFO_SERIAL_NUMBER,
		  offsetof(struct rd_devlink, serial) },
		{ DEVLINK_ATTR_INFO_BOARD_SERIAL_NUMBER,
		  offsetof(struct rd_devlink, board_serial) },
	};
	struct nlattr *a;
	int rem;

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (tb[strs[i].type] &&
		    rd_str_set((char **)((char *)d + strs[i].off),
			       rd_nl_text(tb[strs[i].type])))
			return -ENOMEM;
	/* Version nests repeat: walk the message's attributes. */
	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		const char *kind = version_kind(nla_type(a));
		int r = kind ? one_version(d, a, kind) : 0;

		if (r < 0)
			return r;
	}
	return 0;
}

int rd_devlink_parse_info(const void *bytes, size_t len, struct rd_snapshot *s)
{
	return each_message(bytes, len, s, info_message);
}

static int one_reporter(struct rd_devlink *d, struct nlattr *nest)
{
	struct nlattr *rt[DEVLINK_ATTR_MAX + 1];
	struct rd_devlink_reporter *p;
	const char *name;
	int r = rd_nla_parse_nested(rt, DEVLINK_ATTR_MAX, nest, top_policy);

	if (r < 0)
		return r;
	name = rd_nl_text(rt[DEVLINK_ATTR_HEALTH_REPORTER_NAME]);
	if (!name)
		return -EBADMSG;
	if (d->n_reporters >= MAX_REPORTERS)
		return -E2BIG;
	p = RD_PUSH(d->reporters, d->n_reporters);
	if (!p || rd_str_set(&p->name, name))
		return -ENOMEM;
	if (rt[DEVLINK_ATTR_HEALTH_REPORTER_STATE]) {
		uint8_t st = nla_get_u8(rt[DEVLINK_ATTR_HEALTH_REPORTER_STATE]);

		if (rd_str_set(&p->state,
			       st == REPORTER_HEALTHY ? "healthy" :
			       st == REPORTER_ERROR ? "error" : "unknown"))
			return -ENOMEM;
	}
	if (rt[DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT])
		p->error_count = rd_u64(
			nla_get_u64(rt[DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT]));
	if (rt[DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT])
		p->recover_count = rd_u64(nla_get_u64(
			rt[DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT]));
	if (rt[DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS])
		p->last_dump_ns = rd_u64(nla_get_u64(
			rt[DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS]));
	if (rt[DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER])
		p->auto_recover = rd_bool(nla_get_u8(
			rt[DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER]) != 0);
	return 0;
}

static int health_message(struct rd_devlink *d, struct nlmsghdr *nlh,
			  struct nlattr **tb)
{
	(void)nlh;
	d->reporters_read = rd_bool(true);
	return tb[DEVLINK_ATTR_HEALTH_REPORTER] ?
		       one_reporter(d, tb[DEVLINK_ATTR_HEALTH_REPORTER]) : 0;
}

int rd_devlink_parse_health(const void *bytes, size_t len,
			    struct rd_snapshot *s)
{
	return each_message(bytes, len, s, health_message);
}

static int eswitch_message(struct rd_devlink *d, struct nlmsghdr *nlh,
			   struct nlattr **tb)
{
	(void)nlh;
	if (!tb[DEVLINK_ATTR_ESWITCH_MODE])
		return 0;
	switch (nla_get_u16(tb[DEVLINK_ATTR_ESWITCH_MODE])) {
	case DEVLINK_ESWITCH_MODE_LEGACY:
		rd_str_put(&d->eswitch_mode, "legacy");
		break;
	case DEVLINK_ESWITCH_MODE_SWITCHDEV:
		rd_str_put(&d->eswitch_mode, "switchdev");
		break;
	default:
		return -EBADMSG;
	}
	return 0;
}

int rd_devlink_parse_eswitch(const void *bytes, size_t len,
			     struct rd_snapshot *s)
{
	return each_message(bytes, len, s, eswitch_message);
}

/* `devlink dev eswitch show pci/BDF`: a GET of one instance, no dump. */
static int eswitch_get(struct devlink_cache *c, const char *bdf,
		       struct rd_nl_buf *out)
{
	struct nl_msg *m = nlmsg_alloc();
	int r = -ENOMEM;

	if (!m)
		return r;
	if (genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0,
			NLM_F_REQUEST, DEVLINK_CMD_ESWITCH_GET,
			DEVLINK_GENL_VERSION) &&
	    nla_put_string(m, DEVLINK_ATTR_BUS_NAME, "pci") == 0 &&
	    nla_put_string(m, DEVLINK_ATTR_DEV_NAME, bdf) == 0)
		r = rd_nl_request(c->sk, m, out);
	nlmsg_free(m);
	return r;
}

/*
 * The eswitch mode of each kept PF that has SR-IOV. The GET needs
 * CAP_NET_ADMIN; a driver without an eswitch answers EOPNOTSUPP.
 */
static void read_eswitch(struct devlink_cache *c, struct rd_snapshot *s)
{
	for (size_t i = 0; i < s->n_devlinks && c->sk; i++) {
		struct rd_devlink *d = &s->devlinks[i];
		struct rd_nl_buf b = { 0 };
		bool pf = false;
		int r;

		for (size_t k = 0; k < s->n_sriov && !pf; k++)
			pf = s->sriov[k].pf_bdf && s->sriov[k].totalvfs.ok &&
			     s->sriov[k].totalvfs.v > 0 &&
			     !strcmp(s->sriov[k].pf_bdf, d->dev);
		if (!pf || strcmp(d->bus, "pci"))
			continue;
		r = eswitch_get(c, d->dev, &b);
		if (r == 0)
			r = rd_devlink_parse_eswitch(b.data, b.len, s);
		rd_nl_buf_free(&b);
		if (r == -EPERM || r == -EACCES)
			rd_str_put(&d->eswitch_error,
				   "reading the eswitch mode needs "
				   "CAP_NET_ADMIN");
		else if (r < 0 && r != -EOPNOTSUPP)
			rd_snapshot_error(s, SRC, "eswitch", r, "%s", d->dev);
		if (r == -ETIMEDOUT || r == -EBADMSG)
			rd_nl_close(&c->sk);
	}
}

static int dump(struct devlink_cache *c, int cmd, struct rd_nl_buf *out)
{
	struct nl_msg *m = nlmsg_alloc();
	int r = -ENOMEM;

	if (!m)
		return r;
	if (genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0,
			NLM_F_REQUEST | NLM_F_DUMP, (uint8_t)cmd,
			DEVLINK_GENL_VERSION))
		r = rd_nl_request(c->sk, m, out);
	nlmsg_free(m);
	return r;
}

/* Keep only the instances of PCI functions that carry an RDMA device. */
static void keep_rdma(struct rd_snapshot *s)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n_devlinks; i++) {
		bool rdma = false;

		for (size_t j = 0; j < s->n_devices && !rdma; j++)
			rdma = s->devices[j].pci_bdf && s->devlinks[i].dev &&
			       !strcmp(s->devlinks[i].bus, "pci") &&
			       !strcmp(s->devices[j].pci_bdf, s->devlinks[i].dev);
		if (!rdma) {
			rd_model_free(rd_devlink_fields, &s->devlinks[i]);
			continue;
		}
		s->devlinks[k++] = s->devlinks[i];
	}
	s->n_devlinks = k;
}

static void devlink_state_clear(void *state)
{
	struct devlink_cache *c = state;

	rd_nl_close(&c->sk);
}

/* What each refresh asks devlink, and how the evidence names it. */
static const struct {
	int cmd;
	int (*parse)(const void *bytes, size_t len, struct rd_snapshot *s);
	const char *what;
} dumps[] = {
	{ DEVLINK_CMD_INFO_GET, rd_devlink_parse_info, "dev info" },
	{ DEVLINK_CMD_HEALTH_REPORTER_GET, rd_devlink_parse_health,
	  "health reporters" },
};

static int probe_devlink_collect(const struct rd_probe_ctx *ctx, void *state,
				 struct rd_snapshot *s)
{
	struct devlink_cache *c = state;
	bool stale = false;
	int r;

	(void)ctx;
	if (c->absent)
		return 0;
	if (!c->sk) {
		if (rd_nl_open_once(s, SRC, NETLINK_GENERIC, &c->sk) < 0)
			return 0;
		r = genl_ctrl_resolve(c->sk, DEVLINK_GENL_NAME);
		if (r < 0) {
			/* A kernel without devlink: nothing to say. */
			rd_nl_close(&c->sk);
			c->absent = true;
			return 0;
		}
		c->family = r;
	}
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		struct rd_nl_buf b = { 0 };

		r = dump(c, dumps[i].cmd, &b);
		if (r == 0)
			r = dumps[i].parse(b.data, b.len, s);
		rd_nl_buf_free(&b);
		if (r < 0 && r != -EOPNOTSUPP)
			rd_snapshot_error(s, SRC, dumps[i].what, r, NULL);
		stale |= r == -ETIMEDOUT || r == -EBADMSG;
	}
	/* A late reply would answer the next request: start afresh. */
	if (stale)
		rd_nl_close(&c->sk);
	keep_rdma(s);
	read_eswitch(c, s);
	return 0;
}

const struct rd_probe probe_devlink = RD_PROBE_ROW(
	"devlink", RD_NEEDS_NETLINK | RD_NEEDS_DEVICES, probe_devlink_collect,
	struct devlink_cache, NULL, devlink_state_clear);
