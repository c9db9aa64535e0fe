/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA devices and ports as sysfs, RDMA netlink and libibverbs show them. */
#ifndef RD_CORE_MODEL_IB_H
#define RD_CORE_MODEL_IB_H

#include "core/model.h"

/* Logical port states (ib_port_state, as sysfs and netlink number them). */
enum rd_port_state {
	RD_PORT_NOP = 0,
	RD_PORT_DOWN = 1,
	RD_PORT_INIT = 2,
	RD_PORT_ARMED = 3,
	RD_PORT_ACTIVE = 4,
	RD_PORT_ACTIVE_DEFER = 5,
};

/* Physical port states (ib_port_phys_state). */
enum rd_port_phys_state {
	RD_PHYS_NOP = 0,
	RD_PHYS_SLEEP = 1,
	RD_PHYS_POLLING = 2,
	RD_PHYS_DISABLED = 3,
	RD_PHYS_TRAINING = 4,
	RD_PHYS_LINK_UP = 5,
	RD_PHYS_ERROR_RECOVERY = 6,
	RD_PHYS_PHY_TEST = 7,
};

struct rd_gid {
	uint64_t index;
	uint8_t raw[16];
	bool raw_ok;
	char *type;	/* "IB/RoCE v1", "RoCE v2" */
	char *netdev;	/* gid_attrs/ndevs/N */
};

/* Attributes libibverbs reports (ibv_query_device_ex / ibv_query_port). */
struct rd_verbs_port {
	struct rd_ou64 active_mtu;	/* bytes: 256..4096 */
	struct rd_ou64 max_mtu;
	struct rd_ou64 active_speed;	/* IB speed enum */
	struct rd_ou64 active_width;	/* IB width enum */
	struct rd_ou64 gid_tbl_len;
	struct rd_ou64 pkey_tbl_len;
	struct rd_ou64 max_msg_sz;
};

struct rd_port {
	uint64_t port;
	struct rd_ou64 state_num;	/* enum rd_port_state */
	char *state;			/* "ACTIVE", as rdma -j link */
	struct rd_ou64 phys_state_num;	/* enum rd_port_phys_state */
	char *phys_state;		/* "LINK_UP", as rdma -j link */
	struct rd_odbl rate_gbps;
	char *rate_text;		/* "100 Gb/sec (4X EDR)" */
	char *width;			/* "4X" */
	char *speed;			/* "EDR" or "25.0 Gbps" */
	char *link_layer;		/* "InfiniBand" / "Ethernet" */
	struct rd_ou64 lid;
	struct rd_ou64 sm_lid;
	struct rd_ou64 sm_sl;
	struct rd_ou64 lid_mask_count;
	struct rd_ou64 cap_mask;
	char *netdev;			/* RoCE: the netdev behind the port */
	struct rd_ou64 netdev_ifindex;
	struct rd_ou64 pkey0;		/* P_Key table entry 0 */
	struct rd_gid *gids;
	size_t n_gids;
	struct rd_counters counters;	/* counters/ (IB PMA) */
	struct rd_counters hw_counters;	/* hw_counters/ */
	struct rd_ou64 xmit_bytes;	/* port_xmit_data * 4 */
	struct rd_ou64 rcv_bytes;	/* port_rcv_data * 4 */
	struct rd_verbs_port verbs;
	/* "sysfs and netlink disagree" notes, one line each. */
	char *mismatch;
};

struct rd_verbs_dev {
	struct rd_obool opened;		/* provider loaded and device opened */
	char *open_error;
	struct rd_obool listed;		/* ibv_get_device_list has it */
	struct rd_ou64 open_errno;	/* why ibv_open_device failed */
	/*
	 * dma-buf registration, tried as NCCL does: ibv_reg_dmabuf_mr with
	 * fd -1 answers EBADF when the kernel and provider support it,
	 * EOPNOTSUPP or EPROTONOSUPPORT when not; any other answer leaves it
	 * absent, with the errno.
	 */
	struct rd_obool dmabuf;
	struct rd_ou64 dmabuf_errno;
	struct rd_ou64 max_cqe;
	struct rd_ou64 max_cq;
	struct rd_ou64 max_qp;
	struct rd_ou64 max_qp_wr;
	struct rd_ou64 max_mr_size;
	struct rd_ou64 max_mr;
	struct rd_ou64 max_pd;
	struct rd_ou64 max_sge;
	struct rd_ou64 atomic_cap;
	struct rd_ou64 phys_port_cnt;
	struct rd_ou64 vendor_id;
	struct rd_ou64 vendor_part_id;
	struct rd_ou64 hw_ver;
};

struct rd_device {
	char *name;
	struct rd_ou64 index;		/* RDMA netlink device index */
	struct rd_ou64 node_type_num;	/* 1 CA, 2 switch, 3 router, 4 RNIC */
	char *node_type;
	struct rd_ou64 node_guid;
	struct rd_ou64 sys_image_guid;
	char *fw_ver;
	char *hca_type;
	char *board_id;
	char *node_desc;
	char *driver;			/* kernel driver of the device */
	char *protocol;			/* netlink: "roce", "ib", "iw" */
	char *pci_bdf;			/* "0000:3b:00.0" where a PCI parent exists */
	char *uverbs;			/* "uverbs0" */
	char *uverbs_dev;		/* "/dev/infiniband/uverbs0" */
	struct rd_verbs_dev verbs;
	struct rd_port *ports;
	size_t n_ports;
};

extern const struct rd_field rd_device_fields[];
extern const struct rd_field rd_port_fields[];

/* Names for the numeric state codes; "UNKNOWN" outside the table. */
const char *rd_port_state_name(uint64_t state);
const char *rd_port_phys_state_name(uint64_t phys);
/* Human forms ("Active", "LinkUp") as ibstat prints them. */
const char *rd_port_state_label(uint64_t state);
const char *rd_port_phys_state_label(uint64_t phys);
const char *rd_node_type_name(uint64_t type);

/*
 * The port vocabulary every layer uses. A port carries traffic when its
 * state was read and is ACTIVE or ACTIVE_DEFER; false when not read
 * (callers that must tell "not read" apart test state_num.ok first).
 */
bool rd_port_active(const struct rd_port *p);
/* The state was read and is this one. */
bool rd_port_state_is(const struct rd_port *p, enum rd_port_state st);
/* The physical state was read and is this one. */
bool rd_port_phys_is(const struct rd_port *p, enum rd_port_phys_state st);
/* The port's link layer is Ethernet (RoCE); false when not read. */
bool rd_port_is_eth(const struct rd_port *p);
/* The link layer was read and is InfiniBand. */
bool rd_port_is_ib(const struct rd_port *p);
/*
 * state_num/phys_state_num from the names when only the names are there
 * ("ACTIVE", or sysfs's "4: ACTIVE"). -EINVAL when a name is not a state,
 * err naming which ("state \"X\" is not a port state...").
 */
int rd_port_nums_from_names(struct rd_port *p, char *err, size_t errlen);

#endif
