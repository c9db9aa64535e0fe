// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console's live watch and the past it feeds: rtnetlink link
 * messages (a carrier lost and back on a netdev behind an RDMA port, the
 * same state twice, another netdev, a removed one, a cut datagram), the
 * RDMA netlink monitor's messages (attribute numbers of
 * include/uapi/rdma/rdma_netlink.h from 6.12), verbs asynchronous events,
 * and the "since you were last here" line made from the past.
 */
#include "config.h"

#include "diag_snap.h"
#include "nl_build.h"

#include <infiniband/verbs.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>

#include "console/state.h"
#include "console/watch.h"
#include "core/events.h"

#define NOW 1764640000.0 /* 01:46:40 UTC */

static void host(struct rd_snapshot *s)
{
	struct rd_device *d;
	struct rd_netdev *n;

	rd_snapshot_init(s);
	d = snap_dev(s, "rxe0", NULL);
	snap_port(d, 1, 4, 5, "Ethernet", "veth0");
	n = snap_netdev(s, "veth0", true, true, 1500);
	n->ifindex = rd_u64(5);
	n->rdma_device = rd_strdup("rxe0");
	n->rdma_port = rd_u64(1);
	n = snap_netdev(s, "eth9", true, true, 1500);
	n->ifindex = rd_u64(9);
}

/* An RTM_NEWLINK (or DELLINK) as the kernel sends it on RTNLGRP_LINK. */
static void link_msg(struct rd_nl_buf *b, int type, int ifindex,
		     const char *name, int carrier)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC,
				 .ifi_index = ifindex };
	struct nl_msg *m;

	if (carrier > 0)
		ifi.ifi_flags = 0x10000; /* IFF_LOWER_UP */
	m = nb_msg(type, 0, &ifi, sizeof(ifi));
	assert_int_equal(nla_put_string(m, IFLA_IFNAME, name), 0);
	if (carrier >= 0)
		assert_int_equal(nla_put_u8(m, IFLA_CARRIER, (uint8_t)carrier),
				 0);
	nb_take(b, m);
}

static void test_link(void **state)
{
	struct con_watch w = { 0 };
	struct rd_events ev = { 0 };
	struct rd_nl_buf b = { 0 };
	struct rd_snapshot s;

	(void)state;
	host(&s);
	/* the carrier each netdev had when the watch began */
	link_msg(&b, RTM_NEWLINK, 5, "veth0", 1); /* the same: nothing */
	link_msg(&b, RTM_NEWLINK, 5, "veth0", 0);
	link_msg(&b, RTM_NEWLINK, 5, "veth0", 0); /* again: nothing */
	link_msg(&b, RTM_NEWLINK, 9, "eth9", 0);  /* not an RDMA port's */
	link_msg(&b, RTM_NEWLINK, 5, "veth0", 1);
	w.links = calloc(1, sizeof(*w.links));
	assert_non_null(w.links);
	w.links[0] = (struct con_watch_link){ .ifindex = 5, .carrier = 1 };
	w.n_links = 1;
	assert_int_equal(con_watch_link_bytes(&w, b.data, b.len, &s, NOW, &ev),
			 2);
	assert_int_equal(ev.n, 2);
	assert_string_equal(ev.v[0].kind, "carrier");
	assert_string_equal(ev.v[0].device, "rxe0");
	assert_int_equal(ev.v[0].port, 1);
	assert_string_equal(ev.v[0].netdev, "veth0");
	assert_string_equal(ev.v[0].text, "off (was on)");
	assert_true(rd_event_down(&ev.v[0]));
	assert_string_equal(ev.v[1].text, "on (was off)");
	assert_true(rd_event_up(&ev.v[1]));
	/* a datagram cut short: what came before the cut is kept */
	rd_nl_buf_free(&b);
	link_msg(&b, RTM_NEWLINK, 5, "veth0", 0);
	link_msg(&b, RTM_DELLINK, 5, "veth0", -1);
	assert_int_equal(con_watch_link_bytes(&w, b.data, b.len - 4, &s, NOW,
					      &ev),
			 1);
	assert_int_equal(con_watch_link_bytes(&w, b.data, b.len, &s, NOW, &ev),
			 1); /* the off again is no change; the removal is */
	assert_string_equal(ev.v[ev.n - 1].text, "netdev removed");
	rd_nl_buf_free(&b);
	free(w.links);
	rd_events_free(&ev);
	rd_snapshot_free(&s);
}

/* RDMA_NLDEV_CMD_MONITOR (28) on RDMA_NL_GROUP_NOTIFY (4). */
static void test_rdma_monitor(void **state)
{
	struct rd_events ev = { 0 };
	struct rd_nl_buf b = { 0 };
	struct nl_msg *m;

	(void)state;
	assert_int_equal(CON_RDMA_NLDEV_CMD_MONITOR, 28);
	m = nb_msg(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, 28), 0, NULL, 0);
	assert_int_equal(nla_put_u8(m, 102, 2), 0); /* NETDEV_ATTACH */
	assert_int_equal(nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, 3), 0);
	assert_int_equal(nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0"), 0);
	assert_int_equal(nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1), 0);
	assert_int_equal(nla_put_string(m, RDMA_NLDEV_ATTR_NDEV_NAME, "veth0"),
			 0);
	nb_take(&b, m);
	m = nb_msg(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, 28), 0, NULL, 0);
	assert_int_equal(nla_put_u8(m, 102, 1), 0); /* UNREGISTER */
	assert_int_equal(nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, 3), 0);
	nb_take(&b, m);
	m = nb_msg(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, 28), 0, NULL, 0);
	assert_int_equal(nla_put_u8(m, 102, 77), 0); /* a newer kernel's */
	nb_take(&b, m);
	m = nb_msg(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, 1), 0, NULL, 0); /* GET */
	nb_take(&b, m);
	assert_int_equal(con_watch_rdma_bytes(b.data, b.len, NOW, &ev), 3);
	assert_string_equal(ev.v[0].kind, "rdma");
	assert_string_equal(ev.v[0].text, "netdev attached");
	assert_string_equal(ev.v[0].device, "rxe0");
	assert_int_equal(ev.v[0].port, 1);
	assert_string_equal(ev.v[0].netdev, "veth0");
	assert_string_equal(ev.v[1].text,
			    "device unregistered (device index 3)");
	assert_null(ev.v[1].device);
	assert_string_equal(ev.v[2].text, "monitor event 77");
	rd_nl_buf_free(&b);
	rd_events_free(&ev);
}

/* SYS_GET's reply: the monitor mode attribute (103) from 6.12 on. */
static void test_monitor_mode(void **state)
{
	struct rd_nl_buf b = { 0 };
	struct nl_msg *m;

	(void)state;
	m = nb_msg(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET), 0,
		   NULL, 0);
	assert_int_equal(nla_put_u8(m, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1), 0);
	nb_take(&b, m);
	assert_int_equal(con_watch_rdma_monitor_mode(b.data, b.len), 0);
	rd_nl_buf_free(&b);
	m = nb_msg(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET), 0,
		   NULL, 0);
	assert_int_equal(nla_put_u8(m, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1), 0);
	assert_int_equal(nla_put_u8(m, 103, 1), 0);
	nb_take(&b, m);
	assert_int_equal(con_watch_rdma_monitor_mode(b.data, b.len), 1);
	rd_nl_buf_free(&b);
	nb_error(&b, -EOPNOTSUPP);
	assert_int_equal(con_watch_rdma_monitor_mode(b.data, b.len),
			 -EOPNOTSUPP);
	rd_nl_buf_free(&b);
	assert_int_equal(con_watch_rdma_monitor_mode(NULL, 0), -ENODATA);
}

static void test_verbs(void **state)
{
	struct rd_events ev = { 0 };
	struct rd_snapshot s;

	(void)state;
	host(&s);
	assert_int_equal(con_watch_verbs_event("rxe0", IBV_EVENT_PORT_ERR, 1,
					       &s, NOW, &ev),
			 1);
	assert_int_equal(con_watch_verbs_event("rxe0", IBV_EVENT_PORT_ACTIVE, 1,
					       &s, NOW + 2, &ev),
			 1);
	/* a program's QP event is the program's */
	assert_int_equal(con_watch_verbs_event("rxe0", IBV_EVENT_QP_FATAL, 1,
					       &s, NOW, &ev),
			 0);
	assert_int_equal(con_watch_verbs_event("rxe0", IBV_EVENT_DEVICE_FATAL,
					       1, &s, NOW + 3, &ev),
			 1);
	assert_int_equal(ev.n, 3);
	assert_true(rd_event_down(&ev.v[0]));
	assert_string_equal(ev.v[0].netdev, "veth0");
	assert_true(rd_event_up(&ev.v[1]));
	assert_int_equal(ev.v[2].port, 0);
	assert_non_null(strstr(ev.v[2].text, "fatal"));
	/* the port's own state seen by the recorder counts over verbs */
	assert_int_equal(rd_events_downs(&ev, "rxe0", 1, "veth0", 0, NULL, 0),
			 1);
	rd_events_free(&ev);
	rd_snapshot_free(&s);
}

static void test_summary(void **state)
{
	struct rd_events ev = { 0 };
	char line[200];

	(void)state;
	assert_false(con_past_summary(&ev, NOW, 6, line, sizeof(line)));
	assert_string_equal(line, "");
	/* older than the span: not told */
	assert_int_equal(rd_events_add(&ev, NOW - 7 * 3600, "rxe0", 1, NULL,
				       "link", "DOWN (was ACTIVE)", NULL),
			 0);
	assert_false(con_past_summary(&ev, NOW, 6, line, sizeof(line)));
	for (int i = 0; i < 3; i++) {
		assert_int_equal(rd_events_add(&ev, NOW - 600 + i * 60, "rxe0",
					       1, "veth0", "link",
					       "DOWN (was ACTIVE)", NULL),
				 0);
		assert_int_equal(rd_events_add(&ev, NOW - 590 + i * 60, "rxe0",
					       1, "veth0", "link",
					       "ACTIVE (was DOWN)", NULL),
				 0);
	}
	assert_int_equal(rd_events_add(&ev, NOW - 100, "mlx5_\x1b[2J", 2, NULL,
				       "carrier", "off (was on)", NULL),
			 0);
	assert_true(con_past_summary(&ev, NOW, 6, line, sizeof(line)));
	assert_string_equal(line,
			    "rxe0/1 went down 3 times, last at 01:38:40 UTC; "
			    "mlx5_\\x1b[2J/2 went down 1 time, last at "
			    "01:45:00 UTC; 7 events recorded");
	rd_events_free(&ev);
}

/* At most RD_EVENTS_MAX: the oldest go. */
static void test_bounded(void **state)
{
	struct rd_events ev = { 0 };

	(void)state;
	for (int i = 0; i < RD_EVENTS_MAX + 10; i++)
		assert_int_equal(rd_events_add(&ev, i, "d", 1, NULL, "link",
					       "DOWN", NULL),
				 0);
	assert_int_equal(ev.n, RD_EVENTS_MAX);
	assert_true(ev.v[0].time == 10.0);
	rd_events_free(&ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link),
		cmocka_unit_test(test_rdma_monitor),
		cmocka_unit_test(test_monitor_mode),
		cmocka_unit_test(test_verbs),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
