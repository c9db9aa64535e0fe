// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How often the transceiver probe reads what: its own code
 * (src/probes/xcvr.c, built here with RD_XCVR_FAKE_READER) with a reader
 * serving module memory the test changes, and a clock the test moves. A
 * refresh a second later shows the module's live values as they are now
 * (an SFP's A2h monitors, a QSFP's lower page, a CMIS module's lower page
 * and page 11h of every bank); within the second nothing is read.
 */
#include "config.h"
#include "unit.h"

#include "core/json.h"
#include "core/snapshot.h"
#include "core/xcvr_decode.h"
#include "probes/xcvr.h"

static struct rd_xcvr_mem cage;
static double clock_s = 100.0;
static unsigned long reads;

double rd_xcvr_fake_now(void)
{
	return clock_s;
}

int rd_xcvr_fake_read(const char *ifname, const struct rd_xcvr_req *q,
		      uint8_t out[128])
{
	const uint8_t *h = rd_xcvr_mem_get(&cage, q->i2c, q->bank, q->page,
					   q->offset);

	(void)ifname;
	reads++;
	if (!h)
		return -EINVAL;
	memcpy(out, h, 128);
	return 0;
}

static void load(const char *file)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/modules/%s", RD_FIXTURES, file);
	assert_int_equal(rd_read_file(path, 1 << 16, &buf, &len), 0);
	assert_int_equal(rd_xcvr_mem_from_dump((const uint8_t *)buf, len,
					       &cage), 0);
	free(buf);
}

/* Set one byte of a half the cage holds. */
static void poke(unsigned i2c, unsigned bank, unsigned page, unsigned off,
		 unsigned byte, uint8_t v)
{
	uint8_t *h = (uint8_t *)rd_xcvr_mem_get(&cage, i2c, bank, page, off);

	assert_non_null(h);
	h[byte - off] = v;
}

/* One refresh of eth2 (mlx5_0/1); the decoded module into out's netdev. */
static void refresh(void *state, uint64_t tick, struct rd_snapshot *s)
{
	struct rd_probe_ctx ctx = { .tick = tick };
	struct rd_netdev *n;

	rd_snapshot_init(s);
	n = RD_PUSH(s->netdevs, s->n_netdevs);
	assert_non_null(n);
	n->name = rd_strdup("eth2");
	n->ifindex = rd_u64(4);
	n->rdma_device = rd_strdup("mlx5_0");
	n->rdma_port = rd_u64(1);
	assert_int_equal(probe_xcvr.collect(&ctx, state, s), 0);
	assert_true(s->netdevs[0].xcvr.identifier.ok);
}

static void *probe_state(void)
{
	void *st = calloc(1, probe_xcvr.state_size);

	assert_non_null(st);
	if (probe_xcvr.state_init)
		probe_xcvr.state_init(st);
	return st;
}

static void probe_done(void *st)
{
	if (probe_xcvr.state_clear)
		probe_xcvr.state_clear(st);
	free(st);
}

/*
 * Change a live byte between refreshes 1 s apart; the value must follow at
 * the next refresh, not at the next identification read 10 refreshes on.
 */
static void follows(const char *file, unsigned i2c, unsigned bank,
		    unsigned page, unsigned off, unsigned byte, size_t lane,
		    bool temperature)
{
	void *st = probe_state();
	struct rd_snapshot s;
	double before, after;
	unsigned long n;

	memset(&cage, 0, sizeof(cage));
	load(file);
	refresh(st, 0, &s);
	before = temperature ? s.netdevs[0].xcvr.temperature_c.v :
			       s.netdevs[0].xcvr.lanes[lane].rx_power_mw.v;
	rd_snapshot_free(&s);

	/* Within the second: served from what was read, no read at all. */
	poke(i2c, bank, page, off, byte, 0x12);
	clock_s += 0.5;
	n = reads;
	refresh(st, 1, &s);
	assert_int_equal(reads, n);
	rd_snapshot_free(&s);

	clock_s += 0.5;
	refresh(st, 2, &s);
	after = temperature ? s.netdevs[0].xcvr.temperature_c.v :
			      s.netdevs[0].xcvr.lanes[lane].rx_power_mw.v;
	assert_true(after != before);
	rd_snapshot_free(&s);
	probe_done(st);
}

static void test_sfp_a2h_monitors(void **state)
{
	(void)state;
	/* A2h byte 96: temperature MSB */
	follows("real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex", 0x51, 0, 0, 0, 96,
		0, true);
}

static void test_qsfp_lower_page(void **state)
{
	(void)state;
	/* SFF-8636 lower page byte 22: temperature MSB */
	follows("synthetic-qsfp28-sr4.hex", 0x50, 0, 0, 0, 22, 0, true);
}

static void test_cmis_lower_page(void **state)
{
	(void)state;
	/* CMIS lower page byte 14: temperature MSB */
	follows("synthetic-cmis-dr4.hex", 0x50, 0, 0, 0, 14, 0, true);
}

static void test_cmis_second_bank(void **state)
{
	(void)state;
	/* bank 1 page 11h byte 186 + 2 * 7: Rx power MSB of lane 16 */
	follows("synthetic-cmis-osfp-2banks.hex", 0x50, 1, 0x11, 128, 200, 15,
		false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sfp_a2h_monitors),
		cmocka_unit_test(test_qsfp_lower_page),
		cmocka_unit_test(test_cmis_lower_page),
		cmocka_unit_test(test_cmis_second_bank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
