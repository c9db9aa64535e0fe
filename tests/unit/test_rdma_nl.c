// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "nl_build.h"

#include <rdma/rdma_netlink.h>

#include "core/roots.h"
#include "probes/rdma_nl.h"

#define LAB "lab-rxe0-veth0/"
#define T(cmd) RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, (cmd))

struct devs {
	struct rd_device *v;
	size_t n;
};

static void devs_reset(void *arg)
{
	struct devs *d = arg;

	rd_rdma_nl_free_devices(d->v, d->n);
	d->v = NULL;
	d->n = 0;
}

static int parse_devs(const void *p, size_t n, void *arg)
{
	struct devs *d = arg;

	return rd_rdma_nl_parse_devices(p, n, &d->v, &d->n);
}

static void lab_devices(struct devs *d)
{
	struct rd_nl_buf b;

	nb_load(LAB "rdma-dev.bin", &b);
	assert_int_equal(rd_rdma_nl_parse_devices(b.data, b.len, &d->v, &d->n),
			 0);
	rd_nl_buf_free(&b);
	nb_load(LAB "rdma-port-rxe0.bin", &b);
	assert_int_equal(rd_rdma_nl_parse_ports(b.data, b.len, d->v, d->n), 0);
	rd_nl_buf_free(&b);
}

/* Captured from rxe0 on veth0; expected values from rdma -j link/dev. */
static void test_lab_rxe0(void **state)
{
	struct devs d = { 0 };
	struct rd_port *p;

	lab_devices(&d);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].name, "rxe0");
	assert_true(d.v[0].index.ok);
	assert_int_equal(d.v[0].index.v, 0);
	assert_int_equal(d.v[0].node_guid.v, 0x000000fffe000001ull);
	assert_int_equal(d.v[0].sys_image_guid.v, 0x000000fffe000001ull);
	assert_int_equal(d.v[0].node_type_num.v, 1);
	assert_string_equal(d.v[0].node_type, "CA");
	assert_string_equal(d.v[0].protocol, "roce");
	assert_int_equal(d.v[0].n_ports, 1);
	p = &d.v[0].ports[0];
	assert_int_equal(p->port, 1);
	assert_string_equal(p->state, "ACTIVE");
	assert_int_equal(p->state_num.v, 4);
	assert_string_equal(p->phys_state, "LINK_UP");
	assert_string_equal(p->netdev, "veth0");
	assert_int_equal(p->netdev_ifindex.v, 3);
	/* RoCE ports have no LID in netlink. */
	assert_false(p->lid.ok);
	devs_reset(&d);
}

static void test_lab_stats(void **state)
{
	struct rd_nl_buf b;
	struct rd_counters c = { 0 };
	struct rd_port p = { 0 };

	nb_load(LAB "rdma-stat-rxe0-1.bin", &b);
	assert_int_equal(rd_rdma_nl_parse_stats(b.data, b.len, &c), 0);
	assert_true(c.n > 10);
	assert_non_null(rd_counters_find(&c, "sent_pkts"));
	assert_non_null(rd_counters_find(&c, "rcvd_pkts"));
	p.hw_counters = c;
	{
		struct rd_device dv = { .ports = malloc(sizeof(p)), .n_ports = 1 };

		dv.ports[0] = p;
		rd_model_free(rd_device_fields, &dv);
	}
	rd_nl_buf_free(&b);
	/* A port dump is not a stats answer: refused, nothing added. */
	memset(&c, 0, sizeof(c));
	nb_load(LAB "rdma-port-rxe0.bin", &b);
	assert_int_equal(rd_rdma_nl_parse_stats(b.data, b.len, &c), -EBADMSG);
	assert_int_equal(c.n, 0);
	rd_nl_buf_free(&b);
}

static void test_truncated_and_corrupt(void **state)
{
	struct rd_nl_buf b;
	struct devs d = { 0 };

	nb_load(LAB "rdma-dev.bin", &b);
	assert_int_equal(nb_truncations(&b, parse_devs, devs_reset, &d),
			 b.len - 1);
	assert_true(nb_corruptions(&b, parse_devs, devs_reset, &d) > 0);
	rd_nl_buf_free(&b);
}

static void test_misaligned_input(void **state)
{
	struct rd_nl_buf b;
	struct devs d = { 0 };
	uint8_t *odd;

	nb_load(LAB "rdma-dev.bin", &b);
	odd = malloc(b.len + 1);
	assert_non_null(odd);
	memcpy(odd + 1, b.data, b.len);
	assert_int_equal(rd_rdma_nl_parse_devices(odd + 1, b.len, &d.v, &d.n),
			 0);
	assert_int_equal(d.n, 1);
	devs_reset(&d);
	free(odd);
	rd_nl_buf_free(&b);
}

/* An mlx5 IB device with one port, built from the UAPI attributes. */
static void ib_device(struct rd_nl_buf *dev, struct rd_nl_buf *port,
		      const char *name, uint32_t idx, uint8_t state)
{
	struct nl_msg *m = nb_msg(T(RDMA_NLDEV_CMD_GET), NLM_F_MULTI, NULL, 0);

	nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, idx);
	nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, name);
	nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nla_put_string(m, RDMA_NLDEV_ATTR_FW_VERSION, "16.35.2000");
	nla_put_u64(m, RDMA_NLDEV_ATTR_NODE_GUID, 0x0c42a10300fa1b2cull);
	nla_put_u64(m, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, 0x0c42a10300fa1b2cull);
	nla_put_u8(m, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1);
	nla_put_string(m, RDMA_NLDEV_ATTR_DEV_PROTOCOL, "ib");
	nb_take(dev, m);
	m = nb_msg(T(RDMA_NLDEV_CMD_PORT_GET), NLM_F_MULTI, NULL, 0);
	nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, idx);
	nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, name);
	nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nla_put_u32(m, RDMA_NLDEV_ATTR_LID, 7);
	nla_put_u32(m, RDMA_NLDEV_ATTR_SM_LID, 1);
	nla_put_u8(m, RDMA_NLDEV_ATTR_LMC, 0);
	nla_put_u8(m, RDMA_NLDEV_ATTR_PORT_STATE, state);
	nla_put_u8(m, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 5);
	nb_take(port, m);
}

static void test_merge(void **state)
{
	struct rd_nl_buf dev = { 0 }, port = { 0 };
	struct devs d = { 0 };
	struct rd_snapshot s;
	struct rd_device *sd;
	struct rd_port *sp;

	/* netlink: mlx5_0 port DOWN, mlx5_1 only in netlink. */
	ib_device(&dev, &port, "mlx5_0", 0, 1);
	ib_device(&dev, &port, "mlx5_1", 1, 4);
	nb_done(&dev);
	nb_done(&port);
	assert_int_equal(rd_rdma_nl_parse_devices(dev.data, dev.len, &d.v,
						  &d.n),
			 0);
	assert_int_equal(rd_rdma_nl_parse_ports(port.data, port.len, d.v, d.n),
			 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.v[1].ports[0].lid.v, 7);

	/* sysfs: mlx5_0 port ACTIVE, other fw, no protocol. */
	rd_snapshot_init(&s);
	sd = RD_PUSH(s.devices, s.n_devices);
	sd->name = strdup("mlx5_0");
	sd->fw_ver = strdup("16.35.1012");
	sd->node_guid = rd_u64(0x0c42a10300fa1b2cull);
	sp = RD_PUSH(sd->ports, sd->n_ports);
	sp->port = 1;
	sp->state_num = rd_u64(4);
	sp->state = strdup("ACTIVE");
	sp->lid = rd_u64(7);

	rd_rdma_nl_merge(&s, d.v, d.n);
	devs_reset(&d);
	assert_int_equal(s.n_devices, 2);
	sd = rd_snapshot_device(&s, "mlx5_0");
	sp = &sd->ports[0];
	/* sysfs values stay, netlink-only ones are added. */
	assert_string_equal(sp->state, "ACTIVE");
	assert_string_equal(sd->fw_ver, "16.35.1012");
	assert_string_equal(sd->protocol, "ib");
	assert_int_equal(sd->index.v, 0);
	assert_int_equal(sp->sm_lid.v, 1);
	assert_non_null(sp->mismatch);
	assert_non_null(strstr(sp->mismatch,
			       "state: sysfs ACTIVE, netlink DOWN"));
	assert_non_null(strstr(sp->mismatch,
			       "fw_ver: sysfs 16.35.1012, netlink 16.35.2000"));
	assert_null(strstr(sp->mismatch, "lid"));
	/* The same node GUID is no mismatch; the one sysfs lacked is added. */
	assert_null(strstr(sp->mismatch, "guid"));
	assert_true(sd->sys_image_guid.ok);
	assert_true(sd->sys_image_guid.v == 0x0c42a10300fa1b2cull);
	assert_int_equal(s.n_errors, 2);
	assert_string_equal(s.errors[0].source, "rdma_nl");
	/* The device only netlink knows arrives whole. */
	sd = rd_snapshot_device(&s, "mlx5_1");
	assert_non_null(sd);
	assert_string_equal(sd->ports[0].state, "ACTIVE");
	assert_string_equal(sd->fw_ver, "16.35.2000");
	assert_null(sd->ports[0].mismatch);
	rd_snapshot_free(&s);
	rd_nl_buf_free(&dev);
	rd_nl_buf_free(&port);
}

static void test_refused_answers(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct devs d = { 0 };
	struct nl_msg *m;

	/* The kernel's error answer comes back as its errno. */
	nb_error(&b, -EPERM);
	assert_int_equal(rd_rdma_nl_parse_devices(b.data, b.len, &d.v, &d.n),
			 -EPERM);
	rd_nl_buf_free(&b);
	/* A device without an index. */
	m = nb_msg(T(RDMA_NLDEV_CMD_GET), 0, NULL, 0);
	nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	nb_take(&b, m);
	assert_int_equal(rd_rdma_nl_parse_devices(b.data, b.len, &d.v, &d.n),
			 -EBADMSG);
	rd_nl_buf_free(&b);
	/* A name without its NUL, and one with a control character. */
	m = nb_msg(T(RDMA_NLDEV_CMD_GET), 0, NULL, 0);
	nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nla_put(m, RDMA_NLDEV_ATTR_DEV_NAME, 6, "mlx5_0");
	nb_take(&b, m);
	assert_int_equal(rd_rdma_nl_parse_devices(b.data, b.len, &d.v, &d.n),
			 -EBADMSG);
	rd_nl_buf_free(&b);
	m = nb_msg(T(RDMA_NLDEV_CMD_GET), 0, NULL, 0);
	nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, "ml\033[2Jx");
	nb_take(&b, m);
	assert_int_equal(rd_rdma_nl_parse_devices(b.data, b.len, &d.v, &d.n),
			 -EBADMSG);
	rd_nl_buf_free(&b);
	/* A port answer where a device answer belongs. */
	m = nb_msg(T(RDMA_NLDEV_CMD_PORT_GET), 0, NULL, 0);
	nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	nb_take(&b, m);
	assert_int_equal(rd_rdma_nl_parse_devices(b.data, b.len, &d.v, &d.n),
			 -EBADMSG);
	/* Port 0 does not exist. */
	assert_int_equal(rd_rdma_nl_parse_ports(b.data, b.len, d.v, d.n),
			 -EBADMSG);
	assert_int_equal(d.n, 0);
	rd_nl_buf_free(&b);
	devs_reset(&d);
}

/* This host's kernel has no IB core: a clean "no RDMA netlink". */
static void test_live_absent_or_present(void **state)
{
	struct rd_roots roots;
	struct rd_probe_cache *cache = rd_probe_cache_new();
	struct rd_probe_ctx ctx = { .roots = &roots, .cache = cache };
	struct rd_snapshot s;
	struct nl_sock *sk;
	int open_r = rd_nl_open(NETLINK_RDMA, &sk);

	rd_roots_init(&roots);
	if (open_r == 0)
		nl_socket_free(sk);
	for (int tick = 0; tick < 3; tick++) {
		rd_snapshot_init(&s);
		ctx.tick = (uint64_t)tick;
		assert_int_equal(rd_probe_run(&ctx, RD_PROBE_RDMA_NL, &s), 0);
		if (open_r == -EPROTONOSUPPORT) {
			assert_int_equal(s.n_devices, 0);
			assert_int_equal(s.n_errors, 0);
		}
		rd_snapshot_free(&s);
	}
	/* Fixtures: netlink is not asked at all. */
	ctx.flags = RD_PROBE_NO_NETLINK;
	rd_snapshot_init(&s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_RDMA_NL, &s), 0);
	assert_int_equal(s.n_devices, 0);
	rd_snapshot_free(&s);
	rd_probe_cache_free(cache);
}

/* SYS_GET: the namespace mode as the kernel answers it (u8, 1 shared). */
static void test_sys(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct rd_host h = { 0 };
	struct nl_msg *m;

	(void)state;
	m = nb_msg(T(RDMA_NLDEV_CMD_SYS_GET), 0, NULL, 0);
	assert_int_equal(nla_put_u8(m, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 0), 0);
	assert_int_equal(nla_put_u8(m, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1), 0);
	nb_take(&b, m);
	assert_int_equal(rd_rdma_nl_parse_sys(b.data, b.len, &h), 0);
	assert_string_equal(h.rdma_netns_mode, "exclusive");
	assert_true(h.rdma_copy_on_fork.ok && h.rdma_copy_on_fork.v);
	rd_nl_buf_free(&b);
	rd_model_free(rd_host_fields, &h);

	/* Shared, from a kernel without copy-on-fork. */
	memset(&h, 0, sizeof(h));
	m = nb_msg(T(RDMA_NLDEV_CMD_SYS_GET), 0, NULL, 0);
	assert_int_equal(nla_put_u8(m, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1), 0);
	nb_take(&b, m);
	assert_int_equal(rd_rdma_nl_parse_sys(b.data, b.len, &h), 0);
	assert_string_equal(h.rdma_netns_mode, "shared");
	assert_false(h.rdma_copy_on_fork.ok);
	rd_nl_buf_free(&b);
	rd_model_free(rd_host_fields, &h);

	/* A mode no kernel sends, and the answer to another command. */
	memset(&h, 0, sizeof(h));
	m = nb_msg(T(RDMA_NLDEV_CMD_SYS_GET), 0, NULL, 0);
	assert_int_equal(nla_put_u8(m, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 7), 0);
	nb_take(&b, m);
	assert_int_equal(rd_rdma_nl_parse_sys(b.data, b.len, &h), -EINVAL);
	assert_null(h.rdma_netns_mode);
	rd_nl_buf_free(&b);
	m = nb_msg(T(RDMA_NLDEV_CMD_GET), 0, NULL, 0);
	nb_take(&b, m);
	assert_int_equal(rd_rdma_nl_parse_sys(b.data, b.len, &h), -EBADMSG);
	rd_nl_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lab_rxe0),
		cmocka_unit_test(test_lab_stats),
		cmocka_unit_test(test_truncated_and_corrupt),
		cmocka_unit_test(test_misaligned_input),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_refused_answers),
		cmocka_unit_test(test_live_absent_or_present),
		cmocka_unit_test(test_sys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
