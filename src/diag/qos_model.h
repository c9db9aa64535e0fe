/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which priority RoCE traffic of a port actually carries, derived from the
 * NIC's trust mode, the DSCP APP table, rdma_cm's default ToS, the VLAN
 * egress map and whether the traffic is tagged; and whether that priority
 * is lossless (PFC, or IEEE 802.3x global pause). One derivation for the
 * checks, the QoS screen and the fix-ups.
 */
#ifndef RD_DIAG_QOS_MODEL_H
#define RD_DIAG_QOS_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/snapshot.h"

#define RD_QOS_NPRIO 8

enum rd_qos_trust { RD_QOS_TRUST_UNKNOWN, RD_QOS_TRUST_PCP, RD_QOS_TRUST_DSCP };

enum rd_qos_lossless {
	RD_QOS_LOSSY,
	RD_QOS_BY_PFC,		/* PFC on that priority */
	RD_QOS_BY_PAUSE,	/* PFC off, global pause rx and tx on */
	RD_QOS_LL_UNKNOWN,	/* PFC or pause state not read */
};

struct rd_qos_model {
	enum rd_qos_trust trust;
	const char *trust_source;
	int tos;		/* rdma_cm default_roce_tos, -1 not read */
	int dscp;		/* tos >> 2, -1 */
	int cnp_dscp;		/* DSCP of CNPs (mlx5 roce_np), -1 */
	bool tagged;		/* RoCE GIDs on a VLAN device */
	bool untagged;		/* RoCE GIDs on the netdev itself */
	const char *vlan;	/* the VLAN device carrying tagged RoCE */
	const char *unread_upper;	/* a GID's netdev the snapshot lacks */
	bool app4791;		/* APP table maps UDP 4791 */
	int prio;		/* the derived priority, -1 when not one */
	bool ambiguous;		/* the application picks among candidates */
	bool pcp_untagged;	/* trust pcp, untagged: received on priority 0 */
	uint8_t candidates;	/* priorities RoCE may carry */
	char chain[384];	/* "rdma_cm ToS 106 -> DSCP 26 -> ..." */
	char why[256];		/* why ambiguous or unknown */
	bool pfc_known;
	uint8_t pfc_en;
	bool pause_known;
	bool pause_on;		/* rx and tx global pause */
};

/* Derive the model of one RoCE port; n is its netdev (may be NULL). */
void rd_qos_derive(const struct rd_snapshot *s, const struct rd_device *d,
		   const struct rd_port *p, const struct rd_netdev *n,
		   struct rd_qos_model *m);

/* How priority prio (0-7) of the port is protected from drops. */
enum rd_qos_lossless rd_qos_lossless(const struct rd_qos_model *m, int prio);

/* The DSCP APP table's priority for a DSCP value; -1 when not listed. */
int rd_qos_dscp_prio(const struct rd_netdev *n, unsigned dscp);

/*
 * The skb priority the kernel gives an IP ToS (rt_tos2priority: the
 * ip_tos2prio table of the four TOS bits); what a VLAN egress map sees.
 */
int rd_qos_tos_skb_prio(unsigned tos);

/* The VLAN device's PCP for an skb priority (0 when not mapped). */
int rd_qos_vlan_pcp(const struct rd_netdev *vlan, int skb_prio);

/* The DSCP values the APP table maps to prio, as "24-31" ("" if none). */
void rd_qos_dscps_of(const struct rd_netdev *n, int prio, char *buf,
		     size_t len);

/* "0,3,5" or "none". */
void rd_qos_prio_list(unsigned mask, char *buf, size_t len);

#endif
