// SPDX-License-Identifier: GPL-2.0-or-later
/* The check table, in the order of the layers (hardware first). */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"

/* A row: the area, the rest of the id, the title, the layer, then the
 * walk, the why and the function; the id is area.rest, so the area always
 * matches it. */
#define CHECK(area_, rest, title_, layer_, ...)                            \
	{ .id = area_ "." rest, .title = title_, .area = area_,            \
	  .layer = RD_LAYER_##layer_, __VA_ARGS__ }

/* Ids are stable: scripts and the journal name checks by them. */
const struct rd_check rd_checks[] = {
	CHECK("hw", "pcie_link", "PCIe link at full speed and width", HW,
	      .run = check_hw_pcie_link,
	      .why = "A NIC trained below its PCIe capability cannot reach "
		     "line rate: a Gen4 x16 card at Gen3 x8 has a quarter of "
		     "the bus bandwidth."),
	CHECK("hw", "pcie_bandwidth", "PCIe carries the port's link rate", HW,
	      .walk = RD_WALK_PORT, .only = RD_ONLY_HW,
	      .each = check_hw_pcie_bandwidth,
	      .why = "Every byte a port moves crosses the PCIe link as "
		     "payload of TLPs; when that link carries less than the "
		     "network link, no tuning of the network reaches line "
		     "rate."),
	CHECK("fw", "version", "Firmware at or above the minimum", HW,
	      .walk = RD_WALK_DEVICE, .each = check_fw_version,
	      .why = "Old firmware lacks features the driver expects "
		     "(ConnectX-5 needs 16.23 or later for full DCB/PFC). "
		     "The firmware's major number names the family: 16.x is "
		     "ConnectX-5, 20.x ConnectX-6, 22.x ConnectX-6 Dx, so a "
		     "ConnectX-5 minimum never applies to a ConnectX-6."),
	CHECK("hw", "health", "NIC health (devlink reporters, firmware resets)",
	      HW, .walk = RD_WALK_DEVICE, .only = RD_ONLY_HW,
	      .each = check_hw_health,
	      .why = "The driver's health reporters see what the port state "
		     "does not: a firmware fatal error the driver recovered "
		     "from resets the NIC and tears down every QP, tx/rx "
		     "timeouts stall queues, and firmware flashed but not "
		     "yet running changes on the next reset."),
	/*
	 * Walks devices: the verdict names the NIC the kernel spoke about,
	 * and --device keeps only its records; soft devices too (rxe logs
	 * its port going down).
	 */
	CHECK("kernel", "events", "Kernel log about the RDMA devices", HW,
	      .walk = RD_WALK_DEVICE, .each = check_kernel_events,
	      .why = "The kernel logs what the NIC and its driver report: a "
		     "module pulled or refused, a link lost, a firmware "
		     "failure and reset, PCIe errors, transmit timeouts. "
		     "These lines say why a port went down or traffic "
		     "stalled, often before any counter does."),
	CHECK("phy", "module", "Module present, ready and fit for the speed",
	      PHY, .walk = RD_WALK_PORT,
	      .only = RD_ONLY_ROCE | RD_ONLY_HW | RD_NAME_NETDEV,
	      .each = check_phy_module,
	      .why = "The first fork of a port that is down: is a module in "
		     "the cage, is it powered up (CMIS ModuleReady), and can "
		     "it carry the port's speed on its lanes."),
	CHECK("phy", "optics", "Optical power within the module's limits",
	      PHY, .walk = RD_WALK_PORT,
	      .only = RD_ONLY_ROCE | RD_ONLY_HW | RD_NAME_NETDEV,
	      .each = check_phy_optics,
	      .why = "The module measures the light it receives and sends on "
		     "each lane and states its own alarm limits: no light on "
		     "every lane points at the far end or the fibre, one dark "
		     "lane at a dirty connector, a Tx fault at this module."),
	CHECK("phy", "fec", "FEC matches the link and corrects all errors",
	      PHY, .walk = RD_WALK_PORT,
	      .only = RD_ONLY_ROCE | RD_ONLY_HW | RD_NAME_NETDEV,
	      .each = check_phy_fec,
	      .why = "Both ends must use the same FEC, and 25G-per-lane 100G "
		     "and PAM4 links need RS-FEC; an uncorrectable FEC block "
		     "is a lost frame, which RoCE pays for with a retransmit."),
	CHECK("phy", "linkmodes", "Link modes agree with the partner", PHY,
	      .walk = RD_WALK_PORT,
	      .only = RD_ONLY_ROCE | RD_ONLY_HW | RD_NAME_NETDEV,
	      .each = check_phy_linkmodes,
	      .why = "A link comes up only on a speed both ends advertise; "
		     "autonegotiation on one end and a forced speed on the "
		     "other never meet."),
	CHECK("driver", "modules", "RDMA kernel modules loaded", DRIVER,
	      .walk = RD_WALK_HOST, .each = check_driver_modules,
	      .why = "Verbs needs ib_core and ib_uverbs plus the vendor's RDMA "
		     "module (mlx5_core alone gives a netdev but no RDMA "
		     "device); rdma_cm programs also need rdma_ucm."),
	CHECK("driver", "ofed", "Driver stack (inbox or MLNX_OFED)", DRIVER,
	      .walk = RD_WALK_HOST, .each = check_driver_ofed,
	      .why = "MLNX_OFED replaces the inbox modules (mlx_compat is its "
		     "marker); a mix of OFED and inbox modules keeps ports "
		     "down."),
	CHECK("sriov", "vfs", "SR-IOV virtual functions usable", DRIVER,
	      .run = check_sriov_vfs,
	      .why = "A VF is a NIC function of its own: it needs SR-IOV on "
		     "in the NIC's firmware, an RDMA device from the driver, "
		     "and on InfiniBand a node and port GUID set by the PF "
		     "or the subnet manager, without which its port stays "
		     "down."),
	CHECK("dev", "cq_size", "Completion queue size", DRIVER,
	      .walk = RD_WALK_DEVICE, .each = check_dev_cq_size,
	      .why = "A CQ smaller than the outstanding work requests "
		     "overflows. The limit is the device attribute max_cqe; "
		     "mlx5_core has no log_max_cq module parameter."),
	CHECK("user", "provider", "libibverbs provider opens the device", USER,
	      .walk = RD_WALK_DEVICE, .each = check_user_provider,
	      .why = "libibverbs needs a provider library (libmlx5, librxe, "
		     "...) matching the kernel driver; without it the device "
		     "is in sysfs but ibv_devices does not list it. A device "
		     "it lists is opened through /dev/infiniband/uverbsN."),
	CHECK("user", "uverbs", "/dev/infiniband/uverbsN present and usable",
	      USER, .walk = RD_WALK_DEVICE, .each = check_user_uverbs,
	      .why = "Verbs programs talk to the kernel through "
		     "/dev/infiniband/uverbsN; missing or unreadable, every "
		     "program fails to open the device."),
	/* Its why depends on where the decision tree ends. */
	CHECK("port", "state", "Port ACTIVE (port-down decision tree)", PORT,
	      .walk = RD_WALK_PORT, .each = check_port_state_one,
	      .run = check_port_state),
	CHECK("lag", "state", "RoCE LAG offloaded, every member up", PORT,
	      .run = check_lag_state,
	      .why = "With a RoCE LAG the NIC spreads RoCE over both ports of "
		     "a bond (active-backup, balance-xor or 802.3ad); a member "
		     "down halves the bandwidth with no error anywhere else, "
		     "and other bond modes get no offload at all."),
	CHECK("port", "flaps", "Port not flapping", PORT,
	      .walk = RD_WALK_PORT, .only = RD_NAME_NETDEV,
	      .each = check_port_flaps,
	      .why = "A port that goes down and up is often found ACTIVE by "
		     "the time anyone looks; every down tears down the RDMA "
		     "connections on it. Three downs in an hour, or any in "
		     "the window being watched, is a flapping link."),
	CHECK("port", "rate", "Port rate matches the link", PORT,
	      .walk = RD_WALK_PORT, .only = RD_ONLY_ACTIVE | RD_NAME_NETDEV,
	      .each = check_port_rate),
	CHECK("port", "pkey", "P_Key table entry 0", PORT,
	      .walk = RD_WALK_PORT, .each = check_port_pkey,
	      .why = "P_Key 0xffff is the full-member default partition; "
		     "0x7fff is its limited form. (0x8001 is a site-specific "
		     "partition, not a default.)"),
	CHECK("counters", "errors", "Error counters not rising", PORT,
	      .walk = RD_WALK_PORT, .only = RD_NAME_NETDEV,
	      .each = check_counters_errors,
	      .why = "Error counters that keep rising point at the cable, "
		     "congestion (no PFC/ECN) or retransmissions."),
	CHECK("port", "rocev2_gid", "RoCE v2 GID for an IPv4 address", NETCFG,
	      .walk = RD_WALK_PORT,
	      .only = RD_ONLY_ROCE | RD_ONLY_ACTIVE | RD_STATE_UNREAD_OK |
		      RD_NAME_NETDEV,
	      .each = check_port_rocev2_gid,
	      .why = "RoCE v2 over IPv4 needs a GID built from the netdev's "
		     "IPv4 address; both sides must use the index of such a "
		     "GID (perftest -x), the most common cause of perftest "
		     "connection failures."),
	CHECK("port", "mtu", "RoCE MTU", NETCFG, .walk = RD_WALK_PORT,
	      .only = RD_ONLY_ROCE | RD_ONLY_ACTIVE | RD_NAME_NETDEV,
	      .each = check_port_mtu,
	      .why = "RoCE MTU is the largest IB MTU that fits the netdev MTU "
		     "minus RoCE headers: 1500 gives 1024, about 4200 or more "
		     "(9000 usual) gives 4096."),
	CHECK("port", "ib_mtu", "InfiniBand MTU set by the subnet manager",
	      NETCFG, .walk = RD_WALK_PORT,
	      .only = RD_ONLY_IB | RD_ONLY_ACTIVE | RD_NAME_NETDEV,
	      .each = check_port_ib_mtu,
	      .why = "The subnet manager sets an InfiniBand port's MTU "
		     "(partition mtu); below the port's maximum, every message "
		     "is cut into more packets."),
	CHECK("qos", "pfc", "PFC on the RoCE priority", NETCFG,
	      .walk = RD_WALK_PORT, .only = RD_ONLY_ROCE | RD_NAME_NETDEV,
	      .each = check_qos_pfc,
	      .why = "RoCE needs a lossless class: PFC on the priority RoCE "
		     "packets carry, and only that one, matched on the "
		     "switch. Which priority that is follows from the trust "
		     "mode (DSCP or PCP), the DSCP map, the traffic class and "
		     "the VLAN egress map. Linux has no "
		     "/sys/class/net/X/prio_tc_map, and 'ip link set dev X "
		     "xoff' is not a command: PFC is set through dcbnl (dcb "
		     "pfc, mlnx_qos)."),
	CHECK("qos", "ecn", "ECN (DCQCN) for RoCE", NETCFG,
	      .walk = RD_WALK_PORT, .only = RD_ONLY_ROCE | RD_NAME_NETDEV,
	      .each = check_qos_ecn,
	      .why = "DCQCN (ECN marking + CNPs) keeps RoCE queues short so "
		     "PFC rarely fires. net.ipv4.tcp_ecn is TCP's ECN and does "
		     "not enable it."),
	CHECK("net", "udp4791", "RoCE v2 UDP port 4791 not filtered", NETCFG,
	      .walk = RD_WALK_DEVICE, .only = RD_ONLY_ROCE,
	      .each = check_net_udp4791,
	      .why = "UDP 4791 is the RoCE v2 data port (not an rdma_cm port). "
		     "Hardware RoCE is handled by the NIC and never passes the "
		     "host firewall; only Soft-RoCE and siw do."),
	CHECK("rdma_cm", "roce_mode", "rdma_cm default RoCE mode", NETCFG,
	      .walk = RD_WALK_PORT, .only = RD_ONLY_ROCE | RD_NAME_NETDEV,
	      .each = check_rdma_cm_roce_mode,
	      .why = "rdma_cm picks RoCE v1 or v2 from this default; v1 is not "
		     "routable and both ends must agree."),
	CHECK("host", "memlock", "Locked-memory limit", HOST,
	      .walk = RD_WALK_HOST, .each = check_host_memlock,
	      .why = "Memory registration (ibv_reg_mr) pins pages against "
		     "RLIMIT_MEMLOCK; a low limit makes it fail with EPERM or "
		     "ENOMEM unless the process has CAP_IPC_LOCK."),
	CHECK("host", "hugepages", "HugePages reserved", HOST,
	      .walk = RD_WALK_HOST, .each = check_host_hugepages,
	      .why = "HugePages shorten registration of large regions (fewer "
		     "pages to pin and translate); they are not needed for "
		     "correctness."),
	CHECK("host", "numa", "NUMA locality to the NIC", HOST,
	      .walk = RD_WALK_DEVICE, .each = check_host_numa,
	      .why = "A process on the far NUMA node crosses the socket "
		     "interconnect for every DMA, costing bandwidth and "
		     "latency."),
	CHECK("host", "container", "Container access to RDMA", HOST,
	      .walk = RD_WALK_HOST, .each = check_host_container,
	      .why = "In a container RDMA needs /dev/infiniband passed in, "
		     "CAP_IPC_LOCK or a high memlock limit, and the host's "
		     "modules: a container cannot load kernel modules itself."),
	CHECK("host", "rdma_netns", "RDMA network namespace mode", HOST,
	      .walk = RD_WALK_HOST, .each = check_host_rdma_netns,
	      .why = "In shared mode (the default) every RDMA device is "
		     "visible in every network namespace, so each container "
		     "sees all of the host's devices; exclusive mode shows a "
		     "device only in the namespace it was moved to."),
	CHECK("host", "udp_buffers", "UDP socket buffers (information)", HOST,
	      .walk = RD_WALK_HOST, .each = check_host_udp_buffers,
	      .why = "Hardware RoCE does not use socket buffers: the NIC moves "
		     "the data, so raising net.core.rmem_* does not speed it "
		     "up. They matter only to TCP/UDP traffic and Soft-RoCE."),
	/* GPU hosts: a host without a GPU gets no result from these. */
	CHECK("gpu", "nic_affinity", "Each GPU has a usable NIC nearby", GPU,
	      .run = check_gpu_nic_affinity,
	      .why = "NCCL sends a GPU's traffic through the NIC nearest to "
		     "it in the PCIe tree. When that NIC is down or missing, "
		     "the traffic crosses the CPU to a far NIC, which costs "
		     "bandwidth and rules out GPUDirect RDMA."),
	CHECK("gpu", "gdr_path", "GPU-to-NIC path fit for GPUDirect RDMA", GPU,
	      .run = check_gpu_gdr_path,
	      .why = "GPUDirect RDMA moves data between the NIC and GPU "
		     "memory as PCIe peer-to-peer traffic. ACS request or "
		     "completion redirection on a bridge between them sends "
		     "it up to the root complex, where it is slow or faults "
		     "under the IOMMU; NCCL also uses it only up to PXB "
		     "(through PCIe switches, not the CPU) by default."),
	CHECK("gpu", "peermem", "GPU memory registration for RDMA", GPU,
	      .run = check_gpu_peermem,
	      .why = "A NIC registers GPU memory through a peer-memory module "
		     "(nvidia_peermem, or the older nv_peer_mem) or as a "
		     "dma-buf. With neither, GPUDirect RDMA is impossible and "
		     "NCCL stages every transfer through host memory."),
	CHECK("gpu", "pcie", "GPU PCIe links at full width", GPU,
	      .run = check_gpu_pcie,
	      .why = "A GPU or switch port trained below its width moves a "
		     "fraction of the data to the NIC; GPUs also lower their "
		     "link speed when idle, so only the width is judged."),
};
#undef CHECK
const size_t rd_n_checks = sizeof(rd_checks) / sizeof(rd_checks[0]);

const struct rd_check *rd_check_find(const char *id)
{
	for (size_t i = 0; id && i < rd_n_checks; i++)
		if (strcmp(rd_checks[i].id, id) == 0)
			return &rd_checks[i];
	return NULL;
}
