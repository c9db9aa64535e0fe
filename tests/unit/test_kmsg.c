// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel log: parsing /dev/kmsg records, tying them to the devices,
 * reading the live device (through an injected read: EPIPE, EINVAL,
 * EAGAIN), the probe on a tree, data/kmsg.tsv on the kernel's own
 * strings, the kernel.events check and port.state's evidence, and the
 * snapshot's JSON round trip.
 */
#include "config.h"

#include "diag_snap.h"
#include "probe_unit.h"

#include <time.h>

#include "core/json.h"
#include "diag/data.h"
#include "probes/kmsg.h"

/* mlx5_0 (3b:00.0, ens1f0np0 ifindex 4), mlx5_1 (3b:00.1, ens1f1np1 ifindex 5),
 * mlx5_10 (af:00.0, ens5f0np0 ifindex 9): one port each, RoCE. */
static void three_devices(struct rd_snapshot *s)
{
	static const char *const dev[] = { "mlx5_0", "mlx5_1", "mlx5_10" };
	static const char *const bdf[] = { "0000:3b:00.0", "0000:3b:00.1",
					   "0000:af:00.0" };
	static const char *const nd[] = { "ens1f0np0", "ens1f1np1", "ens5f0np0" };
	static const uint64_t ifi[] = { 4, 5, 9 };

	rd_snapshot_init(s);
	s->time = rd_dbl(1700000000.0);
	for (int i = 0; i < 3; i++) {
		struct rd_device *d = snap_dev(s, dev[i], bdf[i]);
		struct rd_port *p = snap_port(d, 1, 1, 3, "Ethernet", nd[i]);
		struct rd_netdev *n = snap_netdev(s, nd[i], true, false, 1500);

		p->netdev_ifindex = rd_u64(ifi[i]);
		n->ifindex = rd_u64(ifi[i]);
		n->rdma_device = rd_strdup(dev[i]);
		n->rdma_port = rd_u64(1);
		n->pci_bdf = rd_strdup(bdf[i]);
	}
}

static char *fixture_text(size_t *len)
{
	char path[PATH_MAX], *text = NULL;

	snprintf(path, sizeof(path), "%s/kmsg/records.kmsg", RD_FIXTURES);
	assert_int_equal(rd_read_file(path, 1 << 20, &text, len), 0);
	return text;
}

static const struct rd_kmsg_rec *by_seq(const struct rd_kmsg *k, uint64_t seq)
{
	for (size_t i = 0; i < k->n_records; i++)
		if (k->records[i].seq == seq)
			return &k->records[i];
	return NULL;
}

static void test_parse(void **state)
{
	static const char rec[] = "3,1002,5123501,-;mlx5_core 0000:3b:00.1: "
				  "Port module event[error]: module 1\n"
				  " SUBSYSTEM=pci\n DEVICE=+pci:0000:3b:00.1\n"
				  " DRIVER=mlx5_core\n SOMETHING=else\n";
	struct rd_kmsg_rec r;

	(void)state;
	assert_int_equal(rd_kmsg_parse(rec, strlen(rec), &r), 0);
	assert_int_equal(r.seq, 1002);
	assert_int_equal(r.level.v, 3);
	assert_int_equal(r.facility.v, 0);
	assert_int_equal(r.ts_usec.v, 5123501);
	assert_string_equal(r.flags, "-");
	assert_string_equal(r.message, "mlx5_core 0000:3b:00.1: Port module "
				       "event[error]: module 1");
	assert_string_equal(r.subsystem, "pci");
	assert_string_equal(r.device, "+pci:0000:3b:00.1");
	assert_string_equal(r.dict, "DRIVER=mlx5_core SOMETHING=else");
	assert_false(r.wall_time.ok);
	rd_model_free(rd_kmsg_rec_fields, &r);

	/* facility 1 (user), level 6; more header fields; no newline at all */
	assert_int_equal(rd_kmsg_parse("14,7,8,c,caller=T1;hello", 24, &r), 0);
	assert_int_equal(r.facility.v, 1);
	assert_int_equal(r.level.v, 6);
	assert_string_equal(r.flags, "c");
	assert_string_equal(r.message, "hello");
	assert_null(r.dict);
	rd_model_free(rd_kmsg_rec_fields, &r);

	/* raw control and non-ASCII bytes never reach the model */
	assert_int_equal(rd_kmsg_parse("6,1,2,-;a\x1b[0m\xc3\xa9z", 16, &r), 0);
	assert_string_equal(r.message, "a?[0m??z");
	rd_model_free(rd_kmsg_rec_fields, &r);
	/* an empty message is a record */
	assert_int_equal(rd_kmsg_parse("6,1,2,-;", 8, &r), 0);
	assert_string_equal(r.message, "");
	rd_model_free(rd_kmsg_rec_fields, &r);
}

static void test_parse_refused(void **state)
{
	static const char *const bad[] = {
		"",
		"6,1002,5123501,-",		/* cut before the ';' */
		"6,1002",			/* cut in the header */
		"6,1002,5123501;no flags",
		"x,1,2,-;not a number",
		"6,-1,2,-;negative",
		"6,1,2,;empty flags",
		"6,1,99999999999999999999999,-;overflow",
		"<6>mlx5_core: a syslog line, not a record",
		"[  5.123456] mlx5_core: dmesg output, not a record",
		" SUBSYSTEM=pci",
		"6,1,2,toolongflags;x",
		"6\n,1,2,-;the header is one line",
	};
	struct rd_kmsg_rec r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (rd_kmsg_parse(bad[i], strlen(bad[i]), &r) != -EINVAL)
			fail_msg("accepted \"%s\"", bad[i]);
}

static void test_fixture_file(void **state)
{
	struct rd_kmsg_reader rd;
	struct rd_snapshot s;
	const struct rd_kmsg_rec *k;
	size_t len;
	char *text = fixture_text(&len);

	(void)state;
	three_devices(&s);
	rd_kmsg_reader_init(&rd);
	assert_int_equal(rd_kmsg_read_text(&rd, text, len, &s), 0);
	/* 10 records read (1001-1008, 1010, 1011), one line refused */
	assert_int_equal(rd.log.records_read.v, 10);
	assert_int_equal(rd.log.bad.v, 1);
	assert_int_equal(rd.log.gaps.v, 0);	/* 1009 is missing: a file may be an excerpt */
	assert_int_equal(rd.log.first_seq.v, 1001);
	assert_int_equal(rd.log.last_seq.v, 1011);
	/* ours: 1001-1006, 1010, 1011; not 1007 (another NIC) nor 1008 */
	assert_int_equal(rd.log.n_records, 8);
	assert_null(by_seq(&rd.log, 1007));
	assert_null(by_seq(&rd.log, 1008));

	/* by the dictionary: the PCI function, then the netdev's ifindex */
	k = by_seq(&rd.log, 1001);
	assert_string_equal(k->rdma_device, "mlx5_1");
	assert_string_equal(k->tied_by, "dictionary");
	assert_string_equal(k->netdev, "ens1f1np1");
	assert_int_equal(k->port.v, 1);
	assert_false(k->wall_time.ok);	/* a file: no clock */
	k = by_seq(&rd.log, 1003);
	assert_string_equal(k->rdma_device, "mlx5_1");
	assert_string_equal(k->tied_by, "dictionary");
	/* by the text: mlx5_10, never mlx5_1; a netdev; a BDF */
	k = by_seq(&rd.log, 1004);
	assert_string_equal(k->rdma_device, "mlx5_10");
	assert_string_equal(k->tied_by, "text");
	k = by_seq(&rd.log, 1005);
	assert_string_equal(k->rdma_device, "mlx5_0");
	assert_string_equal(k->netdev, "ens1f0np0");
	assert_string_equal(k->tied_by, "text");
	k = by_seq(&rd.log, 1006);	/* the root port's dictionary, our BDF in the text */
	assert_string_equal(k->rdma_device, "mlx5_0");
	assert_string_equal(k->tied_by, "text");
	k = by_seq(&rd.log, 1010);
	assert_string_equal(k->message, "mlx5_core 0000:3b:00.0: something this "
					"table does not know \\x1b[31m");
	assert_string_equal(k->dict, "DRIVER=mlx5_core");
	k = by_seq(&rd.log, 1011);
	assert_string_equal(k->rdma_device, "mlx5_10");

	/* Read again: nothing new is added. */
	assert_int_equal(rd_kmsg_read_text(&rd, text, len, &s), 0);
	assert_int_equal(rd.log.records_read.v, 10);
	assert_int_equal(rd.log.n_records, 8);
	free(text);
	rd_kmsg_reader_clear(&rd);
	rd_snapshot_free(&s);
}

static void test_word_boundaries(void **state)
{
	static const struct {
		const char *msg, *dev;
	} cases[] = {
		{ "infiniband mlx5_1: set down", "mlx5_1" },
		{ "infiniband mlx5_10: set down", "mlx5_10" },
		{ "something about mlx5_1.", "mlx5_1" },
		{ "mlx5_1x is not ours", NULL },
		{ "xmlx5_1 is not ours", NULL },
		{ "mlx5_1.0 is not ours", NULL },
		{ "ens1f1np1v2 is not ours", NULL },
		{ "NETDEV WATCHDOG: ens1f1np1 (mlx5_core): transmit queue 0 timed out",
		  "mlx5_1" },
		{ "0000:3b:00.10 is not a BDF of ours", NULL },
		{ "AER: Corrected error received: 0000:af:00.0", "mlx5_10" },
	};
	struct rd_snapshot s;

	(void)state;
	three_devices(&s);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rd_kmsg_rec r = { 0 };
		int err = 0;
		bool tied;

		r.message = rd_strdup(cases[i].msg);
		tied = rd_kmsg_tie(&s, &r, &err);
		assert_int_equal(err, 0);
		if (tied != (cases[i].dev != NULL) ||
		    (tied && strcmp(r.rdma_device, cases[i].dev) != 0))
			fail_msg("\"%s\": tied to %s, want %s", cases[i].msg,
				 tied ? r.rdma_device : "nothing",
				 cases[i].dev ? cases[i].dev : "nothing");
		rd_model_free(rd_kmsg_rec_fields, &r);
	}
	/*
	 * Printed on another netdev of this host (ifindex 2): its text names
	 * ens1f0np0, the name that netdev had before a rename, and it is not
	 * tied; printed on a netdev the snapshot does not know, the text is
	 * used.
	 */
	{
		struct rd_netdev *other = snap_netdev(&s, "eno1", true, true, 1500);
		struct rd_kmsg_rec r = { 0 };
		int err = 0;

		other->ifindex = rd_u64(2);
		r.message = rd_strdup("mlx5_core 0000:3b:00.0 ens1f0np0: Link up");
		r.device = rd_strdup("n2");
		assert_false(rd_kmsg_tie(&s, &r, &err));
		rd_str_set(&r.device, "n77");
		assert_true(rd_kmsg_tie(&s, &r, &err));
		assert_string_equal(r.rdma_device, "mlx5_0");
		assert_string_equal(r.tied_by, "text");
		rd_model_free(rd_kmsg_rec_fields, &r);
	}
	rd_snapshot_free(&s);
}

/* An injected read(): a script of records and errors. */
struct script {
	const char *const *steps;	/* a record, or "!EPIPE" etc. */
	size_t n, at;
	size_t einval_below;		/* EINVAL while the buffer is smaller */
	size_t last_size;
};

static ssize_t script_read(void *arg, char *buf, size_t size)
{
	struct script *sc = arg;
	const char *st;
	size_t len;

	sc->last_size = size;
	if (sc->at >= sc->n) {
		errno = EAGAIN;
		return -1;
	}
	st = sc->steps[sc->at];
	if (st[0] == '!') {
		sc->at++;
		errno = strcmp(st, "!EPIPE") == 0 ? EPIPE :
			strcmp(st, "!EINTR") == 0 ? EINTR : EIO;
		return -1;
	}
	len = strlen(st);
	if (size < sc->einval_below) {
		errno = EINVAL;	/* the record stays: a bigger buffer gets it */
		return -1;
	}
	sc->at++;
	assert_true(len <= size);
	memcpy(buf, st, len);
	return (ssize_t)len;
}

static void test_live_reads(void **state)
{
	static const char *const steps[] = {
		"6,10,1000000,-;mlx5_core 0000:3b:00.1 ens1f1np1: Link down\n"
		" SUBSYSTEM=net\n DEVICE=n5\n",
		"!EPIPE",
		"6,15,2000000,-;mlx5_core 0000:3b:00.1 ens1f1np1: Link up\n"
		" SUBSYSTEM=net\n DEVICE=n5\n",
		"!EINTR",
		"6,16,2500000,-;unrelated\n",
	};
	struct script sc = { steps, 5, 0, RD_KMSG_BUF_FIRST * 2, 0 };
	struct rd_kmsg_reader rd;
	struct rd_snapshot s;

	(void)state;
	three_devices(&s);
	rd_kmsg_reader_init(&rd);
	/* now: 1700000010 s wall, 10 s monotonic */
	assert_int_equal(rd_kmsg_read_live(&rd, script_read, &sc, &s,
					   1700000010.0, 10000000u), 0);
	assert_int_equal(sc.at, 5);	/* read to EAGAIN, never stopped at EINVAL */
	assert_true(rd.cap >= RD_KMSG_BUF_FIRST * 2);	/* the buffer grew */
	assert_int_equal(rd.log.gaps.v, 1);
	assert_int_equal(rd.log.records_read.v, 3);
	assert_int_equal(rd.log.n_records, 2);
	/* logged 9 s before the reading */
	assert_true(rd.log.records[0].wall_time.ok);
	assert_true(rd.log.records[0].wall_time.v > 1700000000.99 &&
		    rd.log.records[0].wall_time.v < 1700000001.01);

	/* a later refresh reads only what is new; a failed read says so */
	{
		static const char *const more[] = {
			"3,17,3000000,-;mlx5_core 0000:3b:00.0: Fatal error 1 detected\n"
			" SUBSYSTEM=pci\n DEVICE=+pci:0000:3b:00.0\n",
			"!EIO",
		};
		struct script sc2 = { more, 2, 0, 0, 0 };

		assert_int_equal(rd_kmsg_read_live(&rd, script_read, &sc2, &s,
						   1700000010.0, 10000000u),
				 -EIO);
		assert_int_equal(rd.log.records_read.v, 4);
		assert_int_equal(rd.log.n_records, 3);
		assert_string_equal(rd.log.records[2].rdma_device, "mlx5_0");
	}
	rd_kmsg_reader_clear(&rd);
	rd_snapshot_free(&s);
}

/* A record bigger than any buffer: EINVAL to the end, never taken for it. */
static ssize_t always_einval(void *arg, char *buf, size_t size)
{
	(void)buf;
	*(size_t *)arg = size;
	errno = EINVAL;
	return -1;
}

static void test_live_einval_bounded(void **state)
{
	struct rd_kmsg_reader rd;
	struct rd_snapshot s;
	size_t last = 0;

	(void)state;
	three_devices(&s);
	rd_kmsg_reader_init(&rd);
	assert_int_equal(rd_kmsg_read_live(&rd, always_einval, &last, &s, 0, 0),
			 -EINVAL);
	assert_true(last >= RD_KMSG_BUF_MAX / 2);
	rd_kmsg_reader_clear(&rd);
	rd_snapshot_free(&s);
}

/* The ring keeps the newest RD_KMSG_KEEP and counts the rest. */
static void test_ring(void **state)
{
	struct rd_kmsg_reader rd;
	struct rd_snapshot s;
	char rec[160];

	(void)state;
	three_devices(&s);
	rd_kmsg_reader_init(&rd);
	for (unsigned i = 0; i < RD_KMSG_KEEP + 10; i++) {
		int n = snprintf(rec, sizeof(rec),
				 "6,%u,%u,-;mlx5_core 0000:3b:00.0: line %u\n",
				 i, i * 10, i);

		assert_int_equal(rd_kmsg_read_text(&rd, rec, (size_t)n, &s), 0);
	}
	assert_int_equal(rd.log.n_records, RD_KMSG_KEEP);
	assert_int_equal(rd.log.dropped.v, 10);
	assert_int_equal(rd.log.records[0].seq, 10);
	rd_kmsg_reader_clear(&rd);
	rd_snapshot_free(&s);
}

/* The probe on a tree: DIR/dev/kmsg is read as a file, without a clock. */
static void test_probe_tree(void **state)
{
	struct rd_probe_cache *cache = rd_probe_cache_new();
	struct rd_roots roots;
	struct rd_probe_ctx ctx;
	struct rd_snapshot s;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	size_t len;
	char *text = fixture_text(&len);

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	unit_put(dir, "sys/class/.keep", "");
	unit_probe_ctx(&roots, &ctx, dir, cache);

	/* no dev/kmsg: not readable, said why, no error line */
	three_devices(&s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_KMSG, &s), 0);
	assert_true(s.kmsg.readable.ok);
	assert_false(s.kmsg.readable.v);
	assert_string_equal(s.kmsg.error, "no dev/kmsg in the tree read (no "
					  "kernel log was saved with it)");
	assert_int_equal(s.kmsg.error_errno.v, ENOENT);
	assert_int_equal(s.n_errors, 0);
	rd_snapshot_free(&s);

	unit_put(dir, "dev/kmsg", text);
	three_devices(&s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_KMSG, &s), 0);
	assert_true(s.kmsg.readable.v);
	assert_false(s.kmsg.wall_clock.v);
	assert_int_equal(s.kmsg.n_records, 8);
	rd_snapshot_free(&s);

	/* unreadable (not as root, who reads anything) */
	snprintf(path, sizeof(path), "%s/dev/kmsg", dir);
	if (geteuid() != 0) {
		struct rd_probe_ctx one = ctx;

		one.cache = NULL;
		assert_int_equal(chmod(path, 0), 0);
		three_devices(&s);
		assert_int_equal(rd_probe_run(&one, RD_PROBE_KMSG, &s), 0);
		assert_false(s.kmsg.readable.v);
		assert_string_equal(s.kmsg.error,
				    "dev/kmsg in the tree read: Permission denied");
		assert_true(unit_has_error(&s, "dev/kmsg", NULL));
		rd_snapshot_free(&s);
	}
	rd_probe_cache_free(cache);
	unit_rmtree(dir);
	free(text);
}

/* The table: each row loads, names real checks; real strings classify. */
static void test_table(void **state)
{
	static const struct {
		const char *msg;
		enum rd_kmsg_kind kind;
		enum rd_kmsg_severity sev;
	} cases[] = {
		{ "mlx5_core 0000:08:00.0: Port module event: module 0, Cable plugged",
		  RD_KMSG_MODULE, RD_KMSG_INFO },
		{ "mlx5_core 0000:08:00.0: Port module event: module 0, Cable unplugged",
		  RD_KMSG_MODULE, RD_KMSG_WARN },
		{ "mlx5_core 0000:08:00.0: Port module event: module 0, Cable disabled",
		  RD_KMSG_MODULE, RD_KMSG_WARN },
		{ "mlx5_core 0000:08:00.0: Port module event[error]: module 0, Cable error, Power budget exceeded",
		  RD_KMSG_MODULE, RD_KMSG_ERROR },
		{ "mlx5_core 0000:08:00.0: Port module event[error]: module 0, Cable error, Bus stuck(I2C or data shorted)",
		  RD_KMSG_MODULE, RD_KMSG_ERROR },
		{ "mlx5_core 0003:01:00.0: port_module:254:(pid 0): Port module event[error]: module 0, Cable error, One or more network ports have been powered down due to insufficient/unadvertised power on the PCIe slot",
		  RD_KMSG_MODULE, RD_KMSG_ERROR },
		{ "mlx5_core 0000:08:00.0: Detected insufficient power on the PCIe slot (27W).",
		  RD_KMSG_PCIE_LINK, RD_KMSG_ERROR },
		{ "mlx5_core 0000:08:00.0: High temperature on sensors with bit set 0 1",
		  RD_KMSG_HEALTH, RD_KMSG_WARN },
		{ "mlx5_core 0000:08:00.0 ens1f0np0: Link up", RD_KMSG_LINK, RD_KMSG_INFO },
		{ "mlx5_core 0000:08:00.0 ens1f0np0: Link down", RD_KMSG_LINK, RD_KMSG_WARN },
		{ "mlx5_core 0000:41:00.0: poll_health:852:(pid 0): device's health compromised - reached miss count",
		  RD_KMSG_HEALTH, RD_KMSG_FATAL },
		{ "mlx5_core 0000:41:00.0: print_health_info:458:(pid 0): synd 0x8: unrecoverable hardware error",
		  RD_KMSG_HEALTH, RD_KMSG_FATAL },
		{ "mlx5_core 0000:41:00.0: Fatal error 1 detected", RD_KMSG_HEALTH, RD_KMSG_FATAL },
		{ "mlx5_core 0000:41:00.0: assert_var[0] 0x00000000", RD_KMSG_HEALTH, RD_KMSG_INFO },
		{ "mlx5_core 0000:41:00.0: starting health recovery flow", RD_KMSG_HEALTH, RD_KMSG_ERROR },
		{ "mlx5_core 0000:03:00.0: wait_func:964:(pid 112): ENABLE_HCA(0x104) timeout. Will cause a leak of a command resource",
		  RD_KMSG_CMD_FAIL, RD_KMSG_ERROR },
		{ "mlx5_core 0000:01:00.0: mlx5_function_setup:1034:(pid 69850): Firmware over 120000 MS in pre-initializing state, aborting",
		  RD_KMSG_PROBE_FAIL, RD_KMSG_FATAL },
		{ "mlx5_core 0000:01:00.0: probe_one:1591:(pid 69850): mlx5_init_one failed with error code -16",
		  RD_KMSG_PROBE_FAIL, RD_KMSG_ERROR },
		{ "mlx5_core 0000:08:00.1 enp8s0f1: TX timeout detected", RD_KMSG_TX_TIMEOUT, RD_KMSG_WARN },
		{ "mlx5_core 0000:08:00.1 enp8s0f1: NETDEV WATCHDOG: CPU: 3: transmit queue 5 timed out 5120 ms",
		  RD_KMSG_TX_TIMEOUT, RD_KMSG_WARN },
		{ "NETDEV WATCHDOG: enp8s0f1 (mlx5_core): transmit queue 5 timed out",
		  RD_KMSG_TX_TIMEOUT, RD_KMSG_WARN },
		{ "mlx5_core 0000:3b:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)",
		  RD_KMSG_AER, RD_KMSG_INFO },
		{ "mlx5_core 0000:3b:00.0: PCIe Bus Error: severity=Uncorrectable (Non-Fatal), type=Transaction Layer, (Requester ID)",
		  RD_KMSG_AER, RD_KMSG_ERROR },
		{ "mlx5_core 0000:3b:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Requester ID)",
		  RD_KMSG_AER, RD_KMSG_FATAL },
		{ "mlx5_core 0000:3b:00.0: CXL Bus Error: severity=Uncorrectable (Fatal), type=Transaction Layer, (Requester ID)",
		  RD_KMSG_AER, RD_KMSG_FATAL },
		{ "mlx5_core 0000:3b:00.0:   device [15b3:101d] error status/mask=00000001/0000e000",
		  RD_KMSG_AER, RD_KMSG_INFO },
		{ "mlx5_core 0000:3b:00.0:    [ 0] RxErr                  (First)", RD_KMSG_AER, RD_KMSG_INFO },
		{ "mlx5_core 0000:3b:00.0: 63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x8 link at 0000:00:01.0 (capable of 252.048 Gb/s with 16.0 GT/s PCIe x16 link)",
		  RD_KMSG_PCIE_LINK, RD_KMSG_WARN },
		{ "mlx4_core 0000:04:00.0: Internal error detected:", RD_KMSG_HEALTH, RD_KMSG_FATAL },
		{ "bnxt_re: Failed to register with netedev: 0xffffffea", RD_KMSG_PROBE_FAIL, RD_KMSG_ERROR },
		{ "infiniband rxe0: set down", RD_KMSG_LINK, RD_KMSG_WARN },
		{ "infiniband rxe0: set active", RD_KMSG_LINK, RD_KMSG_INFO },
	};
	const struct rd_kmsg_table *t = rd_data_kmsg();

	(void)state;
	if (!t)
		fail_msg("data/kmsg.tsv: %s", rd_data_error());
	assert_true(t->n > 40);
	for (size_t i = 0; i < t->n; i++) {
		char ids[256];

		snprintf(ids, sizeof(ids), "%s", t->v[i].checks);
		for (char *save, *id = strtok_r(ids, ",", &save); id;
		     id = strtok_r(NULL, ",", &save))
			if (!rd_check_find(id))
				fail_msg("kmsg.tsv row %zu names check %s", i + 1, id);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rd_kmsg_class *c = rd_kmsg_classify(t, cases[i].msg);

		if (!c || c->kind != cases[i].kind || c->severity != cases[i].sev)
			fail_msg("\"%s\": %s/%s, want %s/%s", cases[i].msg,
				 c ? rd_kmsg_kind_name(c->kind) : "none",
				 c ? rd_kmsg_severity_name(c->severity) : "-",
				 rd_kmsg_kind_name(cases[i].kind),
				 rd_kmsg_severity_name(cases[i].sev));
	}
	/* unknown lines are no row's: kind other */
	assert_null(rd_kmsg_classify(t, "mlx5_core 0000:3b:00.0: something new"));
	/* the driver column: a Link up of another driver is not mlx5's row */
	assert_null(rd_kmsg_classify(t, "e1000e 0000:00:19.0 eno1: Link up"));
}

static void test_table_refused(void **state)
{
	static const char *const bad[] = {
		"driver\tpattern\tkind\tseverity\tmeaning\tnext_step\tchecks\n"
		"*\t*x*\tbogus\tinfo\tm\tn\tkernel.events\n",
		"driver\tpattern\tkind\tseverity\tmeaning\tnext_step\tchecks\n"
		"*\t*x*\tlink\tsevere\tm\tn\tkernel.events\n",
		"driver\tpattern\tkind\tseverity\tmeaning\tnext_step\tchecks\n"
		"*\t\tlink\tinfo\tm\tn\tkernel.events\n",
		"driver\tpattern\tkind\tseverity\tmeaning\tnext_step\tchecks\n"
		"*\t*x*\tlink\tinfo\tm\tn\tKernel Events\n",
		"driver\tpattern\tkind\tseverity\tmeaning\tnext\tchecks\n",
	};
	struct rd_kmsg_table t;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(rd_kmsg_tsv_parse("t.tsv", bad[i], &t, err,
						   sizeof(err)),
				 -EINVAL);
		rd_kmsg_table_free(&t);
	}
}

/* The fixture's records on the three devices, as the probe leaves them. */
static void logged(struct rd_snapshot *s)
{
	struct rd_kmsg_reader rd;
	size_t len;
	char *text = fixture_text(&len);

	three_devices(s);
	rd_kmsg_reader_init(&rd);
	assert_int_equal(rd_kmsg_read_text(&rd, text, len, s), 0);
	rd.log.readable = rd_bool(true);
	rd.log.wall_clock = rd_bool(false);
	assert_int_equal(rd_model_dup(rd_kmsg_fields, &s->kmsg, &rd.log,
				      sizeof(rd.log)),
			 0);
	rd_kmsg_reader_clear(&rd);
	free(text);
}

static void test_check(void **state)
{
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	struct rd_snapshot s;
	const struct rd_result *r;
	bool seen = false;

	(void)state;
	logged(&s);
	rd_diag_opts_init(&o);
	o.only_area = "kernel.events";
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	/* mlx5_0: an uncorrectable fatal AER about it */
	expect_verdict(&res, "kernel.events", "mlx5_0", 0, RD_FAIL, "kernel_fatal");
	/* mlx5_1: the module's bus stuck */
	expect_verdict(&res, "kernel.events", "mlx5_1", 0, RD_FAIL, "kernel_error");
	r = find_result(&res, "kernel.events", "mlx5_1", 0);
	assert_non_null(strstr(r->summary, "I2C bus"));
	for (size_t i = 0; i < r->n_evidence; i++)
		if (strcmp(r->evidence[i].value,
			   "[    5.123456] mlx5_core 0000:3b:00.1: Port module "
			   "event: module 1, Cable unplugged") == 0) {
			seen = true;
			assert_string_equal(r->evidence[i].source,
					    "/dev/kmsg seq 1001");
			assert_string_equal(r->evidence[i].what,
					    "kernel log: module, warn");
		}
	assert_true(seen);
	assert_non_null(strstr(r->next_step, "reseat"));
	/* mlx5_10: a Soft-RoCE style "set down" is a warning */
	expect_verdict(&res, "kernel.events", "mlx5_10", 0, RD_WARN,
		       "kernel_warning");
	rd_results_free(&res);

	/* no record about a device: PASS, with the count read */
	rd_model_free_array(rd_kmsg_rec_fields, (void **)&s.kmsg.records,
			    &s.kmsg.n_records, sizeof(struct rd_kmsg_rec));
	s.kmsg.first_seq = rd_u64(0);
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	expect_verdict(&res, "kernel.events", "mlx5_0", 0, RD_PASS, "ok");
	r = find_result(&res, "kernel.events", "mlx5_0", 0);
	assert_string_equal(r->summary,
			    "no kernel messages about mlx5_0 (0000:3b:00.0, "
			    "ens1f0np0) since boot (10 records read)");
	rd_results_free(&res);
	/* Records about the devices pushed out of those kept: not judged. */
	s.kmsg.dropped = rd_u64(40);
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	r = find_result(&res, "kernel.events", "mlx5_0", 0);
	assert_int_equal(r->verdict, RD_PASS);
	assert_non_null(strstr(r->summary, "older ones past the newest kept "
					   "were not judged"));
	rd_results_free(&res);
	s.kmsg.dropped = rd_u64(0);

	/* not readable: UNKNOWN with the reason, never "no events" */
	s.kmsg.readable = rd_bool(false);
	rd_str_set(&s.kmsg.error, RD_KMSG_NO_PERMISSION);
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	expect_verdict(&res, "kernel.events", "mlx5_0", 0, RD_UNKNOWN,
		       "kmsg_unreadable");
	assert_string_equal(find_result(&res, "kernel.events", "mlx5_0", 0)->summary,
			    "mlx5_0: " RD_KMSG_NO_PERMISSION);
	rd_results_free(&res);

	/* not read at all (an old recording) */
	rd_model_reset(rd_kmsg_fields, &s.kmsg, sizeof(s.kmsg));
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	expect_verdict(&res, "kernel.events", "mlx5_0", 0, RD_UNKNOWN, "no_data");
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_check_aer_storm_and_wall_time(void **state)
{
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	struct rd_snapshot s;
	const struct rd_result *r;

	(void)state;
	three_devices(&s);
	s.kmsg.readable = rd_bool(true);
	s.kmsg.records_read = rd_u64(12);
	for (int i = 0; i < 12; i++) {
		struct rd_kmsg_rec *k = RD_PUSH(s.kmsg.records, s.kmsg.n_records);

		assert_non_null(k);
		k->seq = (uint64_t)i;
		k->ts_usec = rd_u64(1000000u * (uint64_t)i);
		k->wall_time = rd_dbl(1700000000.0 - 3600 + i);
		k->message = rd_strdup("mlx5_core 0000:3b:00.0: PCIe Bus Error: "
				       "severity=Correctable, type=Physical "
				       "Layer, (Receiver ID)");
		k->rdma_device = rd_strdup("mlx5_0");
	}
	rd_diag_opts_init(&o);
	o.only_area = "kernel.events";
	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	expect_verdict(&res, "kernel.events", "mlx5_0", 0, RD_WARN,
		       "aer_correctable_storm");
	r = find_result(&res, "kernel.events", "mlx5_0", 0);
	/* 1700000000 - 3600 + 11 = 2023-11-14 21:13:31 UTC, within a day */
	assert_non_null(strstr(r->evidence[r->n_evidence - 2].value, "21:13:31 mlx5_core"));
	expect_verdict(&res, "kernel.events", "mlx5_1", 0, RD_PASS, "ok");
	rd_results_free(&res);

	/* A fatal line older than the newest 16 is still shown, first. */
	rd_str_set(&s.kmsg.records[0].message,
		   "mlx5_core 0000:3b:00.0: PCIe Bus Error: severity="
		   "Uncorrectable (Fatal), type=Transaction Layer, (Requester ID)");
	for (int i = 0; i < 20; i++) {
		struct rd_kmsg_rec *k = RD_PUSH(s.kmsg.records, s.kmsg.n_records);

		assert_non_null(k);
		k->seq = 100 + (uint64_t)i;
		k->message = rd_strdup("mlx5_core 0000:3b:00.0 ens1f0np0: Link up");
		k->rdma_device = rd_strdup("mlx5_0");
	}
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	expect_verdict(&res, "kernel.events", "mlx5_0", 0, RD_FAIL, "kernel_fatal");
	r = find_result(&res, "kernel.events", "mlx5_0", 0);
	assert_string_equal(r->evidence[0].what, "kernel log: aer, fatal");
	assert_int_equal(r->n_evidence, 1 + 16 + 1);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* port.state keeps its verdict and shows the port's module and link lines. */
static void test_port_state_evidence(void **state)
{
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	struct rd_snapshot s;
	const struct rd_result *r;
	size_t lines = 0;

	(void)state;
	logged(&s);
	rd_diag_opts_init(&o);
	o.only_area = "port.state";
	assert_int_equal(rd_diag_run(&s, NULL, &o, &res), 0);
	expect_verdict(&res, "port.state", "mlx5_1", 1, RD_FAIL, "no_carrier");
	r = find_result(&res, "port.state", "mlx5_1", 1);
	for (size_t i = 0; i < r->n_evidence; i++)
		if (strncmp(r->evidence[i].what, "kernel log", 10) == 0)
			lines++;
	/* unplugged, module error, link down: the newest three */
	assert_int_equal(lines, 3);
	assert_non_null(strstr(r->evidence[r->n_evidence - 1].value, "Link down"));
	/* mlx5_0's lines are a timeout and an AER: neither is shown there */
	r = find_result(&res, "port.state", "mlx5_0", 1);
	for (size_t i = 0; i < r->n_evidence; i++)
		assert_false(strncmp(r->evidence[i].what, "kernel log", 10) == 0);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

/* A snapshot carries the log through JSON and back. */
static void test_json_round_trip(void **state)
{
	struct rd_snapshot s, back;
	char err[256], *a, *b;

	(void)state;
	logged(&s);
	a = rd_snapshot_to_string(&s, 0);
	assert_non_null(a);
	assert_int_equal(rd_snapshot_from_string(a, strlen(a), &back, err,
						 sizeof(err)),
			 0);
	assert_int_equal(back.kmsg.n_records, 8);
	assert_string_equal(back.kmsg.records[0].tied_by, "dictionary");
	assert_int_equal(back.kmsg.records_read.v, 10);
	assert_int_equal(back.kmsg.dropped.ok, s.kmsg.dropped.ok);
	b = rd_snapshot_to_string(&back, 0);
	assert_string_equal(a, b);
	free(a);
	free(b);
	rd_snapshot_free(&back);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_fixture_file),
		cmocka_unit_test(test_word_boundaries),
		cmocka_unit_test(test_live_reads),
		cmocka_unit_test(test_live_einval_bounded),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_probe_tree),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_refused),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_check_aer_storm_and_wall_time),
		cmocka_unit_test(test_port_state_evidence),
		cmocka_unit_test(test_json_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
