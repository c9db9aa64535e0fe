/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The data rate a port can reach: min(link after line encoding and FEC,
 * PCIe after encoding and TLP overhead at MaxPayload) with the packet
 * headers of the active MTU taken off the link, and which one limits it.
 * Pure: the figures come from the arguments or a snapshot, nothing is read.
 */
#ifndef RD_CORE_RATE_H
#define RD_CORE_RATE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/snapshot.h"

enum rd_rate_limit {
	RD_RATE_LIMIT_NONE,	/* nothing known */
	RD_RATE_LIMIT_LINK,
	RD_RATE_LIMIT_PCIE,
	RD_RATE_LIMIT_MTU,	/* link-bound, and a larger MTU is available */
};

/* "link", "PCIe", "MTU" ("unknown" for NONE). */
const char *rd_rate_limit_name(enum rd_rate_limit l);

/* One lane of a link: how it is signalled and what is left for data. */
struct rd_rate_lane {
	const char *name;	/* "EDR", "25GbE" */
	double signal_gbps;	/* line rate of one lane, Gb/s */
	double data_gbps;	/* after encoding and FEC, Gb/s */
	const char *encoding;	/* "8b/10b", "64b/66b", "PAM4 256b/257b + RS(544,514)" */
};

/* The InfiniBand lane of a speed name ("EDR", "4X EDR" is not one); NULL. */
const struct rd_rate_lane *rd_rate_ib_lane(const char *speed);
/* The Ethernet lane behind a MAC speed (Mb/s) on lanes lanes (0: unknown). */
const struct rd_rate_lane *rd_rate_eth_lane(uint64_t speed_mbps,
					    uint64_t lanes);

/*
 * Payload Gb/s a PCIe link moves in one direction: GT/s x width x line
 * encoding, less the framing, header and LCRC of one TLP per MaxPayload
 * bytes (max_payload 0: unknown, the best case of 4096 B is used and
 * *upper_bound set), and with bidir the ACK and UpdateFC DLLPs the other
 * direction's TLPs cause. 0 for a speed or width no link has.
 */
double rd_rate_pcie_gbps(double gts, uint64_t width, uint64_t max_payload,
			 bool bidir, bool *upper_bound);
/* "8b/10b", "128b/130b", "1b/1b FLIT"; NULL for an unknown speed. */
const char *rd_rate_pcie_encoding(double gts);

/*
 * Share of the link left for RDMA payload at an MTU (bytes): each packet
 * of mtu payload bytes carries the transport headers and, on Ethernet,
 * preamble, inter-frame gap, MAC, IPv4 and UDP headers and FCS (RoCE v2).
 * 0 for an MTU that is not an IB MTU (256..4096).
 */
double rd_rate_mtu_efficiency(bool ethernet, uint64_t mtu);
/* Bytes on the wire around one full packet's payload. */
unsigned rd_rate_packet_overhead(bool ethernet);

struct rd_rate {
	bool ethernet;		/* RoCE headers, else InfiniBand's */
	bool link_ok;
	double link_gbps;	/* data rate after encoding/FEC */
	double signal_gbps;	/* on the wire, all lanes */
	uint64_t lanes;
	const char *lane_name;
	const char *encoding;

	bool mtu_ok;
	uint64_t mtu;		/* active MTU, bytes */
	uint64_t max_mtu;	/* 0 unknown */
	double mtu_efficiency;
	double link_payload_gbps;	/* link_gbps x mtu_efficiency */

	bool pcie_ok;
	double pcie_gts, cap_gts;
	uint64_t pcie_width, cap_width;	/* cap_* 0: unknown */
	uint64_t max_payload;	/* 0: unknown */
	/* 0: unknown. Reads cost the other direction one header per this
	 * many bytes: not a limit on the payload's direction. */
	uint64_t max_read_req;
	bool pcie_upper_bound;	/* MaxPayload unknown */
	double pcie_gbps;	/* payload through the link trained now */
	double pcie_cap_gbps;	/* the same at the capable speed and width */
	/*
	 * A link above the card, between it and its root port, that
	 * carries less than the card's own (a PCIe switch's upstream link
	 * trained slower or narrower, or built so): it bounds the port.
	 * uplink_bdf points into the snapshot's topology.
	 */
	bool uplink_ok;
	const char *uplink_bdf;
	double uplink_gts, uplink_cap_gts;
	uint64_t uplink_width, uplink_cap_width; /* cap_* 0: unknown */
	double uplink_gbps, uplink_cap_gbps;	 /* at the card's MaxPayload */
	/* Emulated bridges above the card (a VM), whose links were not
	 * counted. */
	uint64_t uplink_emulated;

	bool ok;		/* reachable is known */
	double reachable_gbps;
	enum rd_rate_limit limit;
};

/*
 * Combine the parts set in r (link_ok, mtu_ok, pcie_ok and their figures)
 * into reachable_gbps and limit. PCIe alone is no answer (ok stays false).
 */
void rd_rate_combine(struct rd_rate *r);
/* What PCIe carries for the port: the card's link, or the narrower one
 * above it. Meaningful with pcie_ok. */
double rd_rate_pcie_bound(const struct rd_rate *r);

/*
 * The model for one port of a snapshot: link from the port's speed and
 * width (InfiniBand) or its netdev's ethtool speed and lanes (Ethernet),
 * MTU from the active MTU, PCIe from the device's PCI function and the
 * narrowest link above it in the snapshot's PCIe tree.
 * Returns 0, or -ENOENT when the device or port is not in s.
 */
int rd_rate_port(const struct rd_snapshot *s, const char *device,
		 uint64_t port, struct rd_rate *r);

#endif
