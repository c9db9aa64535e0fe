// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/model_net.h"

static const struct rd_field addr_fields[] = {
	RD_FLD_STR(struct rd_addr, family, "family"),
	RD_FLD_STR(struct rd_addr, address, "address"),
	RD_FLD_U64(struct rd_addr, prefixlen, "prefixlen"),
	RD_FLD_STR(struct rd_addr, scope, "scope"),
	RD_FLD_END
};

static const struct rd_field ethtool_fields[] = {
	RD_FLD_U64(struct rd_ethtool, speed_mbps, "speed_mbps"),
	RD_FLD_STR(struct rd_ethtool, duplex, "duplex"),
	RD_FLD_BOOL(struct rd_ethtool, autoneg, "autoneg"),
	RD_FLD_U64(struct rd_ethtool, lanes, "lanes"),
	RD_FLD_BOOL(struct rd_ethtool, link_detected, "link_detected"),
	RD_FLD_STR(struct rd_ethtool, ext_state, "ext_state"),
	RD_FLD_STR(struct rd_ethtool, ext_substate, "ext_substate"),
	RD_FLD_U64(struct rd_ethtool, ext_state_num, "ext_state_num"),
	RD_FLD_U64(struct rd_ethtool, ext_substate_num, "ext_substate_num"),
	RD_FLD_U64(struct rd_ethtool, link_down_events, "link_down_events"),
	RD_FLD_BOOL(struct rd_ethtool, pause_autoneg, "pause_autoneg"),
	RD_FLD_BOOL(struct rd_ethtool, rx_pause, "rx_pause"),
	RD_FLD_BOOL(struct rd_ethtool, tx_pause, "tx_pause"),
	RD_FLD_STR(struct rd_ethtool, fec_active, "fec_active"),
	RD_FLD_STR(struct rd_ethtool, fec_configured, "fec_configured"),
	RD_FLD_BOOL(struct rd_ethtool, fec_auto, "fec_auto"),
	RD_FLD_COUNTERS(struct rd_ethtool, fec_stats, "fec_stats"),
	RD_FLD_STR(struct rd_ethtool, modes_supported, "modes_supported"),
	RD_FLD_STR(struct rd_ethtool, modes_advertised, "modes_advertised"),
	RD_FLD_STR(struct rd_ethtool, modes_partner, "modes_partner"),
	RD_FLD_STR(struct rd_ethtool, driver, "driver"),
	RD_FLD_STR(struct rd_ethtool, driver_version, "driver_version"),
	RD_FLD_STR(struct rd_ethtool, firmware, "firmware"),
	RD_FLD_STR(struct rd_ethtool, bus_info, "bus_info"),
	RD_FLD_STR(struct rd_ethtool, unsupported, "unsupported"),
	RD_FLD_COUNTERS(struct rd_ethtool, stats, "stats"),
	RD_FLD_END
};

static const struct rd_field app_fields[] = {
	RD_FLD_U64(struct rd_dcb_app, selector, "selector"),
	RD_FLD_U64(struct rd_dcb_app, protocol, "protocol"),
	RD_FLD_U64(struct rd_dcb_app, priority, "priority"),
	RD_FLD_END
};

static const struct rd_field dcb_fields[] = {
	RD_FLD_BOOL(struct rd_dcb, supported, "supported"),
	RD_FLD_STR(struct rd_dcb, reason, "reason"),
	RD_FLD_U64(struct rd_dcb, dcbx_mode, "dcbx_mode"),
	RD_FLD_HEX(struct rd_dcb, pfc_cap, "pfc_cap"),
	RD_FLD_HEX(struct rd_dcb, pfc_en, "pfc_en"),
	RD_FLD_U64(struct rd_dcb, pfc_delay, "pfc_delay"),
	RD_FLD_COUNTERS(struct rd_dcb, pfc_requests, "pfc_requests"),
	RD_FLD_COUNTERS(struct rd_dcb, pfc_indications, "pfc_indications"),
	RD_FLD_U64(struct rd_dcb, ets_cap, "ets_cap"),
	RD_FLD_BOOL(struct rd_dcb, ets_willing, "ets_willing"),
	RD_FLD_COUNTERS(struct rd_dcb, ets_tc_bw, "ets_tc_bw"),
	RD_FLD_COUNTERS(struct rd_dcb, ets_tc_tsa, "ets_tc_tsa"),
	RD_FLD_COUNTERS(struct rd_dcb, ets_prio_tc, "ets_prio_tc"),
	RD_FLD_ARRAY(struct rd_dcb, apps, n_apps, struct rd_dcb_app,
		     app_fields, "apps"),
	RD_FLD_STR(struct rd_dcb, trust, "trust"),
	RD_FLD_STR(struct rd_dcb, trust_source, "trust_source"),
	RD_FLD_COUNTERS(struct rd_dcb, buffer_size, "buffer_size"),
	RD_FLD_END
};

static const struct rd_field ecn_fields[] = {
	RD_FLD_BOOL(struct rd_ecn, present, "present"),
	RD_FLD_COUNTERS(struct rd_ecn, np_enable, "roce_np_enable"),
	RD_FLD_COUNTERS(struct rd_ecn, rp_enable, "roce_rp_enable"),
	RD_FLD_COUNTERS(struct rd_ecn, params, "params"),
	RD_FLD_END
};

const struct rd_field rd_netdev_fields[] = {
	RD_FLD_STR(struct rd_netdev, name, "name"),
	RD_FLD_U64(struct rd_netdev, ifindex, "ifindex"),
	RD_FLD_STR(struct rd_netdev, rdma_device, "rdma_device"),
	RD_FLD_U64(struct rd_netdev, rdma_port, "rdma_port"),
	RD_FLD_STR(struct rd_netdev, kind, "kind"),
	RD_FLD_U64(struct rd_netdev, link_ifindex, "link_ifindex"),
	RD_FLD_STR(struct rd_netdev, lower, "lower"),
	RD_FLD_U64(struct rd_netdev, vlan_id, "vlan_id"),
	RD_FLD_COUNTERS(struct rd_netdev, vlan_egress, "vlan_egress_qos"),
	RD_FLD_BOOL(struct rd_netdev, admin_up, "admin_up"),
	RD_FLD_STR(struct rd_netdev, operstate, "operstate"),
	RD_FLD_BOOL(struct rd_netdev, carrier, "carrier"),
	RD_FLD_U64(struct rd_netdev, carrier_changes, "carrier_changes"),
	RD_FLD_U64(struct rd_netdev, carrier_up_count, "carrier_up_count"),
	RD_FLD_U64(struct rd_netdev, carrier_down_count, "carrier_down_count"),
	RD_FLD_U64(struct rd_netdev, mtu, "mtu"),
	RD_FLD_U64(struct rd_netdev, min_mtu, "min_mtu"),
	RD_FLD_U64(struct rd_netdev, max_mtu, "max_mtu"),
	RD_FLD_STR(struct rd_netdev, mac, "mac"),
	RD_FLD_STR(struct rd_netdev, perm_mac, "perm_mac"),
	RD_FLD_STR(struct rd_netdev, driver, "driver"),
	RD_FLD_STR(struct rd_netdev, pci_bdf, "pci"),
	RD_FLD_ARRAY(struct rd_netdev, addrs, n_addrs, struct rd_addr,
		     addr_fields, "addresses"),
	RD_FLD_BOOL(struct rd_netdev, addrs_read, "addresses_read"),
	RD_FLD_STRUCT(struct rd_netdev, ethtool, ethtool_fields, "ethtool"),
	RD_FLD_STRUCT(struct rd_netdev, xcvr, rd_xcvr_fields, "transceiver"),
	RD_FLD_STRUCT(struct rd_netdev, dcb, dcb_fields, "dcb"),
	RD_FLD_STRUCT(struct rd_netdev, ecn, ecn_fields, "ecn"),
	RD_FLD_END
};
