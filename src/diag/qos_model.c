// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RoCE QoS model. Facts it rests on:
 * - trust dscp: the NIC classifies a packet by its DSCP through the DSCP
 *   APP table (IEEE 802.1Qaz selector 5; mlx5 lists all 64 values there
 *   while trusting DSCP). RoCE's DSCP is the traffic class >> 2: rdma_cm
 *   users get configfs default_roce_tos, verbs applications set their own
 *   (NCCL_IB_TC, UCX_IB_TRAFFIC_CLASS, perftest --tclass).
 * - trust pcp: the priority is the VLAN PCP. Untagged frames carry none
 *   and are received on priority 0. rdma_cm over a VLAN device turns the
 *   ToS into an skb priority (the kernel's ip_tos2prio table) and the VLAN
 *   egress map turns that into the PCP.
 * - An APP entry for UDP port 4791 (selector 3 or 4) names RoCE v2's
 *   priority directly.
 * - IEEE 802.3x global pause (rx and tx) with PFC off is lossless for all
 *   traffic of the port; mlx5 refuses to run it together with PFC.
 */
#include "config.h"
#include "diag/qos_model.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SEL_DGRAM 3	/* IEEE_8021QAZ_APP_SEL_DGRAM: UDP/DCCP port */
#define SEL_ANY 4	/* IEEE_8021QAZ_APP_SEL_ANY: TCP/SCTP/UDP/DCCP */
#define SEL_DSCP 5	/* IEEE_8021QAZ_APP_SEL_DSCP */
#define ROCE_V2_PORT 4791

void rd_qos_prio_list(unsigned mask, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (int i = 0; i < RD_QOS_NPRIO && off < len; i++)
		if (mask & (1u << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						off ? "," : "", i);
	if (!off)
		snprintf(buf, len, "none");
}

int rd_qos_dscp_prio(const struct rd_netdev *n, unsigned dscp)
{
	for (size_t i = 0; n && i < n->dcb.n_apps; i++) {
		const struct rd_dcb_app *a = &n->dcb.apps[i];

		if (a->selector.ok && a->selector.v == SEL_DSCP &&
		    a->protocol.ok && a->protocol.v == dscp &&
		    a->priority.ok && a->priority.v < RD_QOS_NPRIO)
			return (int)a->priority.v;
	}
	return -1;
}

void rd_qos_dscps_of(const struct rd_netdev *n, int prio, char *buf,
		     size_t len)
{
	size_t off = 0;
	int start = -1;

	if (!len)
		return;
	buf[0] = '\0';
	for (int d = 0; d <= 64; d++) {
		bool in = d < 64 && rd_qos_dscp_prio(n, (unsigned)d) == prio;

		if (in && start < 0)
			start = d;
		if (in || start < 0)
			continue;
		if (off < len && d - 1 > start)
			off += (size_t)snprintf(buf + off, len - off, "%s%d-%d",
						off ? "," : "", start, d - 1);
		else if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						off ? "," : "", start);
		start = -1;
	}
}

int rd_qos_tos_skb_prio(unsigned tos)
{
	/* Best effort, bulk, interactive, interactive bulk (TC_PRIO_*). */
	static const int by_tos_bits[4] = { 0, 2, 6, 4 };

	return by_tos_bits[(tos & 0x1e) >> 3];
}

int rd_qos_vlan_pcp(const struct rd_netdev *vlan, int skb_prio)
{
	char key[16];
	const struct rd_counter *c;

	snprintf(key, sizeof(key), "prio%d", skb_prio);
	c = vlan ? rd_counters_find(&vlan->vlan_egress, key) : NULL;
	return c && c->value.ok && c->value.v < RD_QOS_NPRIO ? (int)c->value.v
							      : 0;
}

static void add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t off = strlen(buf);
	va_list ap;

	if (off >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
}

static const struct rd_netdev *vlan_upper(const struct rd_snapshot *s,
					  const char *lower, const char *name)
{
	for (size_t i = 0; i < s->n_netdevs; i++) {
		const struct rd_netdev *v = &s->netdevs[i];

		if (v->name && v->lower && strcmp(v->lower, lower) == 0 &&
		    (!name || strcmp(v->name, name) == 0))
			return v;
	}
	return NULL;
}

/* Tagged or untagged: the netdevs of the port's RoCE GIDs tell. */
static void tagging(const struct rd_snapshot *s, const struct rd_port *p,
		    const struct rd_netdev *n, struct rd_qos_model *m)
{
	bool any = false;

	for (size_t i = 0; i < p->n_gids; i++) {
		const char *g = p->gids[i].netdev;
		const struct rd_netdev *v;

		if (!g || !*g)
			continue;
		any = true;
		if (strcmp(g, n->name) == 0) {
			m->untagged = true;
		} else if ((v = vlan_upper(s, n->name, g))) {
			m->tagged = true;
			if (!m->vlan)
				m->vlan = v->name;
		} else if (!rd_snapshot_netdev(s, g)) {
			/* Tagged or not, nobody read it: say so, never guess. */
			m->unread_upper = g;
		} else {
			/* macvlan, ipvlan: their frames leave untagged. */
			m->untagged = true;
		}
	}
	if (any)
		return;
	/* No GID says: a VLAN on top may carry RoCE, the netdev itself does. */
	m->untagged = true;
	{
		const struct rd_netdev *v = vlan_upper(s, n->name, NULL);

		if (v) {
			m->tagged = true;
			m->vlan = v->name;
		}
	}
}

static int cm_tos(const struct rd_snapshot *s, const struct rd_device *d,
		  const struct rd_port *p)
{
	for (size_t i = 0; i < s->host.n_cm_ports; i++) {
		const struct rd_cm_port *c = &s->host.cm_ports[i];

		if (c->device && d->name && strcmp(c->device, d->name) == 0 &&
		    c->port.ok && c->port.v == p->port &&
		    c->default_roce_tos.ok && c->default_roce_tos.v < 256)
			return (int)c->default_roce_tos.v;
	}
	return -1;
}

static void derive_dscp(const struct rd_netdev *n, struct rd_qos_model *m)
{
	uint8_t mapped = 0;
	int prio;

	for (size_t i = 0; i < n->dcb.n_apps; i++) {
		const struct rd_dcb_app *a = &n->dcb.apps[i];

		if (a->selector.ok && a->selector.v == SEL_DSCP &&
		    a->protocol.ok && a->priority.ok &&
		    a->priority.v < RD_QOS_NPRIO &&
		    (m->cnp_dscp < 0 || a->protocol.v != (uint64_t)m->cnp_dscp))
			mapped |= (uint8_t)(1u << a->priority.v);
	}
	if (m->dscp >= 0) {
		add(m->chain, sizeof(m->chain),
		    "rdma_cm ToS %d -> DSCP %d", m->tos, m->dscp);
		prio = rd_qos_dscp_prio(n, (unsigned)m->dscp);
		if (prio >= 0) {
			add(m->chain, sizeof(m->chain),
			    " -> APP table -> priority %d", prio);
			m->prio = prio;
			m->candidates = (uint8_t)(1u << prio);
			return;
		}
		/*
		 * Not in the table: mlx5 gives a DSCP without an entry priority
		 * 0 (deleting an entry resets it to 0), and so does a NIC with
		 * no default priority set. Not certain enough for a fix-up.
		 */
		add(m->chain, sizeof(m->chain),
		    " -> not in the APP table -> priority 0 (a DSCP without an entry)");
		mapped |= 1u;
		snprintf(m->why, sizeof(m->why),
			 "DSCP %d has no DSCP APP entry: the NIC receives it on its default priority (0 on mlx5); applications that set their own traffic class may use the mapped priorities",
			 m->dscp);
	} else {
		add(m->chain, sizeof(m->chain),
		    "trust dscp -> traffic class chosen by each application "
		    "(rdma_cm ToS not read) -> DSCP APP table");
		snprintf(m->why, sizeof(m->why),
			 "the traffic class is chosen by each application "
			 "(rdma_cm default_roce_tos not read; NCCL_IB_TC, "
			 "UCX_IB_TRAFFIC_CLASS and perftest --tclass set their own)");
	}
	m->ambiguous = mapped != 0;
	m->candidates = mapped;
	if (mapped) {
		char list[32];

		rd_qos_prio_list(mapped, list, sizeof(list));
		add(m->chain, sizeof(m->chain), " -> priorities %s", list);
	}
}

static void derive_pcp(const struct rd_snapshot *s, const struct rd_netdev *n,
		       struct rd_qos_model *m)
{
	const struct rd_netdev *v =
		m->vlan ? vlan_upper(s, n->name, m->vlan) : NULL;

	if (m->unread_upper) {
		snprintf(m->why, sizeof(m->why),
			 "RoCE GIDs are on %s, which was not read: its VLAN tag and egress map are not known",
			 m->unread_upper);
		return;
	}
	if (!m->tagged) {
		add(m->chain, sizeof(m->chain),
		    "trust pcp -> RoCE leaves %s untagged -> no PCP -> priority 0",
		    n->name);
		m->pcp_untagged = true;
		m->prio = 0;
		m->candidates = 1;
		return;
	}
	if (m->tos >= 0 && !m->untagged) {
		int skb = rd_qos_tos_skb_prio((unsigned)m->tos);
		int pcp = rd_qos_vlan_pcp(v, skb);

		add(m->chain, sizeof(m->chain),
		    "rdma_cm ToS %d -> skb priority %d -> %s egress map -> PCP %d -> priority %d",
		    m->tos, skb, m->vlan, pcp, pcp);
		m->prio = pcp;
		m->candidates = (uint8_t)(1u << pcp);
		return;
	}
	/* Each skb priority may be used; unmapped ones leave with PCP 0. */
	m->candidates = 1;
	for (int i = 0; i < RD_QOS_NPRIO; i++)
		m->candidates |= (uint8_t)(1u << rd_qos_vlan_pcp(v, i));
	m->ambiguous = true;
	{
		char list[32];

		rd_qos_prio_list(m->candidates, list, sizeof(list));
		add(m->chain, sizeof(m->chain),
		    "trust pcp -> %s%s egress map -> PCP %s", m->vlan,
		    m->untagged ? " (and untagged GIDs)" : "", list);
	}
	snprintf(m->why, sizeof(m->why), "%s",
		 m->untagged ?
			 "RoCE GIDs exist both on the netdev (untagged, priority 0) and on a VLAN device" :
			 "the skb priority is chosen by each application (rdma_cm default_roce_tos not read; perftest --sl, NCCL_IB_SL set their own)");
}

void rd_qos_derive(const struct rd_snapshot *s, const struct rd_device *d,
		   const struct rd_port *p, const struct rd_netdev *n,
		   struct rd_qos_model *m)
{
	const struct rd_dcb *dcb = n ? &n->dcb : NULL;
	const struct rd_counter *c;

	memset(m, 0, sizeof(*m));
	m->tos = m->dscp = m->cnp_dscp = m->prio = -1;
	if (!n || !n->name)
		return;
	if (dcb->pfc_en.ok) {
		m->pfc_known = true;
		m->pfc_en = (uint8_t)(dcb->pfc_en.v & 0xff);
	}
	if (n->ethtool.rx_pause.ok && n->ethtool.tx_pause.ok) {
		m->pause_known = true;
		m->pause_on = n->ethtool.rx_pause.v && n->ethtool.tx_pause.v;
	}
	c = rd_counters_find(&n->ecn.params, "roce_np/cnp_dscp");
	if (c && c->value.ok && c->value.v < 64)
		m->cnp_dscp = (int)c->value.v;
	if (dcb->trust && strcmp(dcb->trust, "dscp") == 0)
		m->trust = RD_QOS_TRUST_DSCP;
	else if (dcb->trust && strcmp(dcb->trust, "pcp") == 0)
		m->trust = RD_QOS_TRUST_PCP;
	m->trust_source = dcb->trust_source;
	m->tos = cm_tos(s, d, p);
	if (m->tos >= 0)
		m->dscp = m->tos >> 2;
	tagging(s, p, n, m);
	for (size_t i = 0; i < dcb->n_apps; i++) {
		const struct rd_dcb_app *a = &dcb->apps[i];

		if (a->selector.ok &&
		    (a->selector.v == SEL_DGRAM || a->selector.v == SEL_ANY) &&
		    a->protocol.ok && a->protocol.v == ROCE_V2_PORT &&
		    a->priority.ok && a->priority.v < RD_QOS_NPRIO) {
			m->app4791 = true;
			if (m->trust == RD_QOS_TRUST_UNKNOWN) {
				m->prio = (int)a->priority.v;
				m->candidates = (uint8_t)(1u << m->prio);
				add(m->chain, sizeof(m->chain),
				    "APP table UDP 4791 -> priority %d",
				    m->prio);
				return;
			}
		}
	}
	switch (m->trust) {
	case RD_QOS_TRUST_DSCP:
		derive_dscp(n, m);
		break;
	case RD_QOS_TRUST_PCP:
		derive_pcp(s, n, m);
		break;
	default:
		snprintf(m->why, sizeof(m->why),
			 "the trust mode is not known (no %s/qos/trust and no dcbnl APP table)",
			 n->name);
		break;
	}
}

enum rd_qos_lossless rd_qos_lossless(const struct rd_qos_model *m, int prio)
{
	if (prio < 0 || prio >= RD_QOS_NPRIO || !m->pfc_known)
		return RD_QOS_LL_UNKNOWN;
	if (m->pfc_en & (1u << prio))
		return RD_QOS_BY_PFC;
	if (m->pfc_en)
		return RD_QOS_LOSSY;
	if (!m->pause_known)
		return RD_QOS_LL_UNKNOWN;
	return m->pause_on ? RD_QOS_BY_PAUSE : RD_QOS_LOSSY;
}
