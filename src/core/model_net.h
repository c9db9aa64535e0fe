/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Network devices behind RDMA ports: rtnetlink, ethtool, DCB and ECN. */
#ifndef RD_CORE_MODEL_NET_H
#define RD_CORE_MODEL_NET_H

#include "core/model.h"
#include "core/model_phy.h"

struct rd_addr {
	char *family;		/* "inet" / "inet6" */
	char *address;
	struct rd_ou64 prefixlen;
	char *scope;		/* "global", "link", "host" */
};

/*
 * Why a link is down, as ethtool's LINKSTATE_GET numbers it (enum
 * ethtool_link_ext_state and its substates); the ones rdmadiag judges.
 */
enum rd_link_ext_state {
	RD_EXT_AUTONEG = 0,
	RD_EXT_LINK_LOGICAL_MISMATCH = 2,
	RD_EXT_NO_CABLE = 4,
};
enum rd_link_ext_substate {
	/* of RD_EXT_AUTONEG */
	RD_SUB_AN_FEC_MISMATCH_DURING_OVERRIDE = 5,
	/* of RD_EXT_LINK_LOGICAL_MISMATCH */
	RD_SUB_LLM_FC_FEC_NOT_LOCKED = 4,
	RD_SUB_LLM_RS_FEC_NOT_LOCKED = 5,
};

struct rd_ethtool {
	/* Each group is absent (ok false) when the driver does not support it. */
	struct rd_ou64 speed_mbps;
	char *duplex;
	struct rd_obool autoneg;
	struct rd_ou64 lanes;
	struct rd_obool link_detected;
	char *ext_state;	/* link-down reason, e.g. "cable issue" */
	char *ext_substate;
	struct rd_ou64 ext_state_num;
	struct rd_ou64 ext_substate_num;
	struct rd_ou64 link_down_events;
	struct rd_obool pause_autoneg;
	struct rd_obool rx_pause;
	struct rd_obool tx_pause;
	char *fec_active;
	char *fec_configured;
	struct rd_obool fec_auto;	/* FEC left to autonegotiation */
	/*
	 * FEC_GET statistics (counter group "fec"): corrected_blocks,
	 * uncorrectable_blocks, corrected_bits, and per lane the same names
	 * with "_lane<N>" (N from 0, as the kernel numbers them).
	 */
	struct rd_counters fec_stats;
	/*
	 * Link modes as the kernel names them ("100000baseCR4/Full"), space
	 * separated: what this port supports, advertises, and what the link
	 * partner advertised in autonegotiation ("" = nothing received).
	 */
	char *modes_supported;
	char *modes_advertised;
	char *modes_partner;
	char *driver;
	char *driver_version;
	char *firmware;
	char *bus_info;
	/* "unsupported" notes for operations the driver lacks. */
	char *unsupported;
	struct rd_counters stats;	/* GSTRINGS + GSTATS */
};

struct rd_dcb_app {
	struct rd_ou64 selector;	/* IEEE selector: 1 ethertype, 5 DSCP ... */
	struct rd_ou64 protocol;
	struct rd_ou64 priority;
};

struct rd_dcb {
	struct rd_obool supported;	/* driver has dcbnl ops */
	char *reason;			/* why unsupported / not read */
	struct rd_ou64 dcbx_mode;
	struct rd_ou64 pfc_cap;
	struct rd_ou64 pfc_en;		/* bitmask of lossless priorities */
	struct rd_ou64 pfc_delay;
	struct rd_counters pfc_requests;	/* "prio0".."prio7" */
	struct rd_counters pfc_indications;
	struct rd_ou64 ets_cap;
	struct rd_obool ets_willing;
	struct rd_counters ets_tc_bw;	/* "tc0".. -> percent */
	struct rd_counters ets_tc_tsa;	/* "tc0".. -> IEEE TSA code */
	struct rd_counters ets_prio_tc;	/* "prio0".. -> tc */
	struct rd_dcb_app *apps;
	size_t n_apps;
	char *trust;			/* "pcp" / "dscp" */
	char *trust_source;		/* file or "dcb app table" */
	struct rd_counters buffer_size;	/* qos/buffer_size where present */
};

struct rd_ecn {
	struct rd_obool present;	/* /sys/class/net/X/ecn exists */
	struct rd_counters np_enable;	/* "prio0".. -> 0/1 */
	struct rd_counters rp_enable;
	struct rd_counters params;	/* other numeric files, "roce_rp/x" */
};

struct rd_netdev {
	char *name;
	struct rd_ou64 ifindex;
	char *rdma_device;	/* RDMA device using this netdev, if any */
	struct rd_ou64 rdma_port;
	char *kind;		/* rtnl link kind: "veth", "bond", ... */
	struct rd_ou64 link_ifindex;	/* IFLA_LINK: the lower device */
	char *lower;		/* its name, for a VLAN device */
	struct rd_ou64 vlan_id;
	struct rd_counters vlan_egress;	/* "prio0".. skb priority -> PCP */
	struct rd_obool admin_up;	/* IFF_UP */
	char *operstate;
	struct rd_obool carrier;
	struct rd_ou64 carrier_changes;
	struct rd_ou64 carrier_up_count;
	struct rd_ou64 carrier_down_count;
	struct rd_ou64 mtu;
	struct rd_ou64 min_mtu;
	struct rd_ou64 max_mtu;
	char *mac;
	char *perm_mac;
	char *driver;
	char *pci_bdf;
	struct rd_addr *addrs;
	size_t n_addrs;
	/*
	 * true: addrs is every address the kernel gave (an RTM_GETADDR dump
	 * succeeded); false: the list was cut; absent: never read (files
	 * only, or a recording made before this was kept).
	 */
	struct rd_obool addrs_read;
	struct rd_ethtool ethtool;
	struct rd_xcvr xcvr;	/* the pluggable module (transceiver) in its cage */
	struct rd_dcb dcb;
	struct rd_ecn ecn;
};

extern const struct rd_field rd_netdev_fields[];

#endif
