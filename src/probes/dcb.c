// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcbnl: the IEEE 802.1Qaz view (PFC, ETS, APP table, port buffers) and the
 * DCBX mode of each netdev behind an RDMA port. A driver without dcbnl
 * operations (veth, the netdev under rxe) answers EOPNOTSUPP: that is
 * "not supported", not an error.
 */
#include "config.h"
#include "probes/dcb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include "core/attr.h"

#define SRC "dcb"
#define MAX_APPS 1024
#define NO_DCB "driver has no DCB support"

static struct nla_policy top_policy[DCB_ATTR_MAX + 1] = {
	[DCB_ATTR_IFNAME] = { .type = NLA_STRING, .maxlen = IFNAMSIZ },
	[DCB_ATTR_IEEE] = { .type = NLA_NESTED },
	[DCB_ATTR_DCBX] = { .type = NLA_U8 },
};

static struct nla_policy ieee_policy[DCB_ATTR_IEEE_MAX + 1] = {
	[DCB_ATTR_IEEE_ETS] = { .minlen = sizeof(struct ieee_ets) },
	[DCB_ATTR_IEEE_PFC] = { .minlen = sizeof(struct ieee_pfc) },
	[DCB_ATTR_IEEE_APP_TABLE] = { .type = NLA_NESTED },
	[DCB_ATTR_DCB_BUFFER] = { .minlen = sizeof(struct dcbnl_buffer) },
};

static struct nla_policy app_policy[DCB_ATTR_IEEE_APP_MAX + 1] = {
	[DCB_ATTR_IEEE_APP] = { .minlen = sizeof(struct dcb_app) },
};

static void per8(struct rd_counters *c, const char *prefix,
		 const uint8_t *v8, const __u64 *v64)
{
	char name[16];

	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		snprintf(name, sizeof(name), "%s%d", prefix, i);
		rd_counters_add(c, name, rd_u64(v8 ? v8[i] : v64[i]));
	}
}

/* Every dcbnl answer: RTM_GETDCB, a struct dcbmsg naming the command. */
static const struct rd_nl_reply dcb_reply = {
	.type = RTM_GETDCB,
	.hdrlen = sizeof(struct dcbmsg),
	.cmd_off = offsetof(struct dcbmsg, cmd),
	.maxtype = DCB_ATTR_MAX,
	.policy = top_policy,
};

static int parse_apps(struct nlattr *table, struct rd_dcb *dcb)
{
	struct nlattr *tb[DCB_ATTR_IEEE_APP_MAX + 1];
	struct nlattr *a;
	int rem, r;

	/* Validate the whole table once, then walk its repeated entries. */
	r = rd_nla_parse_nested(tb, DCB_ATTR_IEEE_APP_MAX, table, app_policy);
	if (r < 0)
		return r;
	nla_for_each_nested(a, table, rem) {
		struct rd_dcb_app *e;
		struct dcb_app app;

		if (nla_type(a) != DCB_ATTR_IEEE_APP)
			continue;
		if ((size_t)nla_len(a) < sizeof(app))
			return -EBADMSG;
		if (dcb->n_apps >= MAX_APPS)
			return -E2BIG;
		memcpy(&app, nla_data(a), sizeof(app));
		e = RD_PUSH(dcb->apps, dcb->n_apps);
		if (!e)
			return -ENOMEM;
		e->selector = rd_u64(app.selector);
		e->protocol = rd_u64(app.protocol);
		e->priority = rd_u64(app.priority);
	}
	return 0;
}

int rd_dcb_parse_ieee(const void *bytes, size_t len, struct rd_dcb *dcb)
{
	struct nlattr *tb[DCB_ATTR_MAX + 1];
	struct nlattr *it_[DCB_ATTR_IEEE_MAX + 1];
	struct rd_nl_iter it;
	int r = rd_nl_one_reply(&it, bytes, len, &dcb_reply, DCB_CMD_IEEE_GET,
				tb);

	if (r <= 0)
		goto out;
	r = 0;
	if (!tb[DCB_ATTR_IEEE])
		goto out;
	r = rd_nla_parse_nested(it_, DCB_ATTR_IEEE_MAX, tb[DCB_ATTR_IEEE],
				ieee_policy);
	if (r < 0)
		goto out;
	if (it_[DCB_ATTR_IEEE_PFC]) {
		struct ieee_pfc pfc;

		memcpy(&pfc, nla_data(it_[DCB_ATTR_IEEE_PFC]), sizeof(pfc));
		dcb->pfc_cap = rd_u64(pfc.pfc_cap);
		dcb->pfc_en = rd_u64(pfc.pfc_en);
		dcb->pfc_delay = rd_u64(pfc.delay);
		per8(&dcb->pfc_requests, "prio", NULL, pfc.requests);
		per8(&dcb->pfc_indications, "prio", NULL, pfc.indications);
	}
	if (it_[DCB_ATTR_IEEE_ETS]) {
		struct ieee_ets ets;

		memcpy(&ets, nla_data(it_[DCB_ATTR_IEEE_ETS]), sizeof(ets));
		dcb->ets_cap = rd_u64(ets.ets_cap);
		dcb->ets_willing = rd_bool(ets.willing != 0);
		per8(&dcb->ets_tc_bw, "tc", ets.tc_tx_bw, NULL);
		per8(&dcb->ets_tc_tsa, "tc", ets.tc_tsa, NULL);
		per8(&dcb->ets_prio_tc, "prio", ets.prio_tc, NULL);
	}
	if (it_[DCB_ATTR_IEEE_APP_TABLE]) {
		r = parse_apps(it_[DCB_ATTR_IEEE_APP_TABLE], dcb);
		if (r < 0)
			goto out;
	}
	if (it_[DCB_ATTR_DCB_BUFFER]) {
		struct dcbnl_buffer buf;
		char name[16];

		memcpy(&buf, nla_data(it_[DCB_ATTR_DCB_BUFFER]), sizeof(buf));
		for (int i = 0; i < DCBX_MAX_BUFFERS; i++) {
			snprintf(name, sizeof(name), "buffer%d", i);
			rd_counters_add(&dcb->buffer_size, name,
					rd_u64(buf.buffer_size[i]));
		}
		rd_counters_add(&dcb->buffer_size, "total",
				rd_u64(buf.total_size));
	}
	/* The DCBX mode rides along in the IEEE answer too. */
	if (tb[DCB_ATTR_DCBX])
		dcb->dcbx_mode = rd_u64(nla_get_u8(tb[DCB_ATTR_DCBX]));
	dcb->supported = rd_bool(true);
out:
	rd_nl_iter_end(&it);
	return r;
}

int rd_dcb_parse_dcbx(const void *bytes, size_t len, struct rd_dcb *dcb)
{
	struct nlattr *tb[DCB_ATTR_MAX + 1];
	struct rd_nl_iter it;
	int r = rd_nl_one_reply(&it, bytes, len, &dcb_reply, DCB_CMD_GDCBX, tb);

	if (r > 0) {
		r = 0;
		if (tb[DCB_ATTR_DCBX])
			dcb->dcbx_mode = rd_u64(nla_get_u8(tb[DCB_ATTR_DCBX]));
		else
			r = -EBADMSG;
	}
	rd_nl_iter_end(&it);
	return r;
}

const char *rd_dcb_trust_from_apps(const struct rd_dcb *dcb)
{
	for (size_t i = 0; i < dcb->n_apps; i++)
		if (dcb->apps[i].selector.ok &&
		    dcb->apps[i].selector.v == IEEE_8021QAZ_APP_SEL_DSCP)
			return "dscp";
	return "pcp";
}

int rd_dcb_request(struct nl_sock *sk, int cmd, const char *ifname,
		   struct rd_nl_buf *out)
{
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETDCB, NLM_F_REQUEST);
	struct dcbmsg dm = { .dcb_family = AF_UNSPEC, .cmd = (uint8_t)cmd };
	int r = -ENOMEM;

	if (!m)
		return r;
	if (nlmsg_append(m, &dm, sizeof(dm), NLMSG_ALIGNTO) == 0 &&
	    nla_put_string(m, DCB_ATTR_IFNAME, ifname) == 0)
		r = rd_nl_request(sk, m, out);
	nlmsg_free(m);
	return r;
}

/* ---- the probe ---- */

/* Mellanox's out-of-tree driver shows the trust mode as a file. */
static void trust_file(const struct rd_probe_ctx *ctx, struct rd_netdev *d)
{
	char path[PATH_MAX], buf[64];

	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/qos/trust", d->name) < 0)
		return;
	if (rd_attr_read(path, buf, sizeof(buf)) < 0)
		return;
	rd_strtrim(buf);
	if (strcmp(buf, "pcp") != 0 && strcmp(buf, "dscp") != 0)
		return;
	(void)rd_str_set(&d->dcb.trust, buf);
	(void)rd_str_set(&d->dcb.trust_source, path);
}

static void collect_one(const struct rd_probe_ctx *ctx, struct rd_nl_state *c,
			struct rd_snapshot *s, struct rd_netdev *d)
{
	struct rd_dcb *dcb = &d->dcb;
	struct rd_nl_buf b = { 0 };
	char where[64];
	int r;

	trust_file(ctx, d);
	r = rd_dcb_request(c->sk, DCB_CMD_IEEE_GET, d->name, &b);
	if (r == 0)
		r = rd_dcb_parse_ieee(b.data, b.len, dcb);
	rd_nl_buf_free(&b);
	if (r == -EOPNOTSUPP || r == -ENOTSUP) {
		dcb->supported = rd_bool(false);
		(void)rd_str_set(&dcb->reason, NO_DCB);
		return;
	}
	if (r < 0) {
		if (r == -ENODEV)
			return;
		snprintf(where, sizeof(where), "%s ieee", d->name);
		rd_snapshot_error(s, SRC, where, r, NULL);
		(void)rd_str_set(&dcb->reason, "DCB state could not be read");
		if (r == -ETIMEDOUT || r == -EBADMSG)
			rd_nl_close(&c->sk);
		return;
	}
	if (!dcb->trust) {
		(void)rd_str_set(&dcb->trust, rd_dcb_trust_from_apps(dcb));
		(void)rd_str_set(&dcb->trust_source, "dcb app table");
	}
	if (dcb->dcbx_mode.ok)
		return;
	r = rd_dcb_request(c->sk, DCB_CMD_GDCBX, d->name, &b);
	if (r == 0)
		r = rd_dcb_parse_dcbx(b.data, b.len, dcb);
	rd_nl_buf_free(&b);
	/* Drivers with IEEE ops but no DCBX engine: mode unknown, fine. */
	if (r < 0 && r != -EOPNOTSUPP && r != -ENOTSUP && r != -ENODEV) {
		snprintf(where, sizeof(where), "%s dcbx", d->name);
		rd_snapshot_error(s, SRC, where, r, NULL);
	}
}

static int probe_dcb_collect(const struct rd_probe_ctx *ctx, void *state,
			     struct rd_snapshot *s)
{
	struct rd_nl_state *c = state;

	for (size_t i = 0; i < s->n_netdevs; i++) {
		if (!s->netdevs[i].name)
			continue;
		if (rd_nl_open_once(s, SRC, NETLINK_ROUTE, &c->sk) < 0)
			break;
		collect_one(ctx, c, s, &s->netdevs[i]);
	}
	return 0;
}

const struct rd_probe probe_dcb = RD_PROBE_ROW(
	"dcb", RD_NEEDS_NETLINK | RD_NEEDS_NETDEVS, probe_dcb_collect,
	struct rd_nl_state, NULL, rd_nl_state_clear);
