// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include <arpa/inet.h>

#include "core/snapshot.h"
#include "perf/bind.h"

static void add_addr(struct rd_netdev *nd, const char *family,
		     const char *address, const char *scope)
{
	struct rd_addr *a = RD_PUSH(nd->addrs, nd->n_addrs);

	assert_non_null(a);
	a->family = strdup(family);
	a->address = strdup(address);
	a->scope = strdup(scope);
}

/* rxe0 port 1 on netdev nd_name (NULL: no netdev), which has no address. */
static struct rd_netdev *host(struct rd_snapshot *s, const char *nd_name)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *nd;

	rd_snapshot_init(s);
	d = RD_PUSH(s->devices, s->n_devices);
	assert_non_null(d);
	d->name = strdup("rxe0");
	p = RD_PUSH(d->ports, d->n_ports);
	assert_non_null(p);
	p->port = 1;
	if (!nd_name)
		return NULL;
	p->netdev = strdup(nd_name);
	nd = RD_PUSH(s->netdevs, s->n_netdevs);
	assert_non_null(nd);
	nd->name = strdup(nd_name);
	return nd;
}

static void test_picks_global_ipv4(void **state)
{
	struct rd_snapshot s;
	struct rd_netdev *nd = host(&s, "veth0");
	char addr[INET_ADDRSTRLEN], why[256];

	(void)state;
	add_addr(nd, "inet6", "fe80::1", "link");
	add_addr(nd, "inet", "169.254.0.9", "link");
	add_addr(nd, "inet", "not-an-address", "global");
	add_addr(nd, "inet", "10.0.0.1", "global");
	assert_int_equal(perf_bind_default(&s, "rxe0", 1, addr, sizeof(addr),
					   why, sizeof(why)), 0);
	assert_string_equal(addr, "10.0.0.1");
	assert_string_equal(why, "the IPv4 address of veth0, the netdev of rxe0 port 1");
	rd_snapshot_free(&s);
}

static void test_link_local_when_alone(void **state)
{
	struct rd_snapshot s;
	struct rd_netdev *nd = host(&s, "veth0");
	char addr[INET_ADDRSTRLEN], why[256];

	(void)state;
	add_addr(nd, "inet", "169.254.0.9", "link");
	assert_int_equal(perf_bind_default(&s, "rxe0", 1, addr, sizeof(addr),
					   why, sizeof(why)), 0);
	assert_string_equal(addr, "169.254.0.9");
	rd_snapshot_free(&s);
}

static void test_nothing_to_bind(void **state)
{
	struct rd_snapshot s;
	struct rd_netdev *nd;
	char addr[INET_ADDRSTRLEN], why[256];

	(void)state;
	nd = host(&s, "e\x1b[2J");
	add_addr(nd, "inet6", "2001:db8::1", "global");
	assert_int_equal(perf_bind_default(&s, "rxe0", 1, addr, sizeof(addr),
					   why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "e\\x1b[2J, the netdev of rxe0 port 1, has no IPv4 address");
	assert_int_equal(perf_bind_default(&s, "rxe0", 2, addr, sizeof(addr),
					   why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "rxe0 port 2 is not in the snapshot");
	rd_snapshot_free(&s);
	host(&s, NULL);
	assert_int_equal(perf_bind_default(&s, "rxe0", 1, addr, sizeof(addr),
					   why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "rxe0 port 1 has no netdev");
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_picks_global_ipv4),
		cmocka_unit_test(test_link_local_when_alone),
		cmocka_unit_test(test_nothing_to_bind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
