// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "unit.h"

#include <json-c/json.h>
#include <math.h>

#include "core/escape.h"
#include "core/snapshot.h"
#include "perf/perf.h"

#include "diag_snap.h"

static const char dev_name[] = "rx\"e\x1b[2J0";
static const char hostile[] = "say \"hi\"\\ \x1b]0;pwned\x07 \xc2\x9b \xff\n";

/* A snapshot whose port has counters named with quotes and controls. */
static void snap(struct rd_snapshot *s, uint64_t base)
{
	struct rd_device *d;
	struct rd_port *p;

	rd_snapshot_init(s);
	d = RD_PUSH(s->devices, s->n_devices);
	assert_non_null(d);
	d->name = strdup(dev_name);
	p = RD_PUSH(d->ports, d->n_ports);
	assert_non_null(p);
	p->port = 1;
	assert_non_null(rd_counters_add(&p->counters, "port_\"rcv\"_data",
					rd_u64(base)));
	assert_non_null(rd_counters_add(&p->hw_counters, hostile,
					rd_u64(base * 2)));
	assert_non_null(rd_counters_add(&p->hw_counters, "still", rd_u64(7)));
}

static char *result(const char *warn, const char *error, bool with_counters)
{
	struct perf_opts o = { .op = PERF_OP_WRITE, .role = PERF_CLIENT,
			       .nqp = 1, .progress_fd = -1 };
	struct perf_session s = { .o = &o, .peer_version = 605 };
	struct perf_bw_result bw = { .size = 65536, .iters = 1000,
				     .seconds = 0.5, .peak_bps = INFINITY,
				     .avg_bps = 1e9, .msg_rate_mpps = NAN };
	struct rd_snapshot s0, s1;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	snprintf(s.dev.name, sizeof(s.dev.name), "%s", dev_name);
	s.dev.port = 1;
	snap(&s0, 100);
	snap(&s1, 250);
	perf_result_json(f, &s, &bw, 1, NULL, 0, warn, with_counters ? &s0 : NULL,
			 with_counters ? &s1 : NULL, error);
	fclose(f);
	rd_snapshot_free(&s0);
	rd_snapshot_free(&s1);
	return buf;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, k, &v));
	return v;
}

static void test_result_is_valid_json(void **state)
{
	char *out = result(hostile, hostile, true);
	struct json_object *j, *c, *r;
	size_t len = strlen(out);

	(void)state;
	/* One line, then the newline; valid UTF-8 with no control byte. */
	assert_true(len > 1 && out[len - 1] == '\n');
	assert_null(memchr(out, '\n', len - 1));
	assert_true(rd_text_clean(out, len - 1));
	assert_null(strstr(out, "Infinity"));
	assert_null(strstr(out, "NaN"));
	assert_null(strstr(out, "nan"));
	j = json_tokener_parse(out);
	assert_non_null(j);
	/* Control characters reach no reader of the JSON: shown escaped. */
	assert_string_equal(json_object_get_string(get(j, "device")),
			    "rx\"e\\x1b[2J0");
	/* Invalid UTF-8 inside: shown escaped, never raw. */
	assert_string_equal(json_object_get_string(get(j, "warning")),
			    rd_esc_tmp(hostile));
	assert_string_equal(json_object_get_string(get(j, "error")),
			    rd_esc_tmp(hostile));
	assert_false(json_object_get_boolean(get(j, "ok")));
	assert_string_equal(json_object_get_string(get(j, "peer_version")),
			    "6.05");
	r = json_object_array_get_idx(get(j, "results"), 0);
	assert_non_null(r);
	assert_null(get(r, "bw_peak_gbps"));
	assert_null(get(r, "msg_rate_mpps"));
	assert_true(fabs(json_object_get_double(get(r, "bw_avg_gbps")) - 8.0) < 1e-9);
	c = get(j, "counters");
	assert_int_equal(json_object_object_length(c), 2);
	assert_int_equal(json_object_get_int64(get(c, "port_\"rcv\"_data")), 150);
	assert_int_equal(json_object_get_int64(get(c, rd_esc_tmp(hostile))), 300);
	json_object_put(j);
	free(out);
}

static void test_result_plain(void **state)
{
	char *out = result(NULL, NULL, false);
	struct json_object *j = json_tokener_parse(out);

	(void)state;
	assert_non_null(j);
	assert_true(json_object_get_boolean(get(j, "ok")));
	assert_false(json_object_object_get_ex(j, "warning", NULL));
	assert_false(json_object_object_get_ex(j, "counters", NULL));
	json_object_put(j);
	free(out);
}

static void test_counters_text(void **state)
{
	struct rd_snapshot s0, s1;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	snap(&s0, 100);
	snap(&s1, 250);
	perf_counters_text(f, &s0, &s1, dev_name, 1);
	fclose(f);
	assert_null(strchr(buf, '\x1b'));
	assert_null(strstr(buf, "\xc2\x9b"));
	assert_non_null(strstr(buf, "rx\"e\\x1b[2J0 port 1"));
	assert_non_null(strstr(buf, "+150\n"));
	assert_non_null(strstr(buf, "+300\n"));
	assert_null(strstr(buf, "still"));
	free(buf);
	rd_snapshot_free(&s0);
	rd_snapshot_free(&s1);
}

/* A ConnectX-6 HDR port whose card trained at Gen3 x16, 256 B payloads. */
static void snap_hdr(struct rd_snapshot *s, bool with_pci)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_pci *pci;

	rd_snapshot_init(s);
	d = snap_dev(s, "mlx5_0", with_pci ? "0000:3b:00.0" : NULL);
	p = snap_port(d, 1, 4, 5, "InfiniBand", NULL);
	p->speed = strdup("HDR");
	p->width = strdup("4X");
	p->verbs.active_mtu = rd_u64(4096);
	pci = snap_pci(s, "0000:3b:00.0", 0x15b3, 0x101b, "mlx5_core");
	pci->link_speed_gts = rd_dbl(8.0);
	pci->link_width = rd_u64(16);
	pci->max_payload = rd_u64(256);
}

static char *text_of(const struct perf_session *s, double bps)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	perf_reach_text(f, s, bps);
	fclose(f);
	return buf;
}

static void test_reachable(void **state)
{
	struct perf_opts o = { .op = PERF_OP_WRITE, .role = PERF_CLIENT,
			       .nqp = 1, .progress_fd = -1 };
	struct perf_session s = { .o = &o, .mtu = IBV_MTU_4096 };
	const double pcie = 8.0 * 16 * 128 / 130 * 256 / 280;
	struct rd_snapshot snap;
	char *t;

	(void)state;
	snprintf(s.dev.name, sizeof(s.dev.name), "mlx5_0");
	s.dev.port = 1;
	snap_hdr(&snap, true);
	perf_reach_set(&s, &snap);
	assert_true(s.reach.ok);
	assert_int_equal(s.reach.limit, RD_RATE_LIMIT_PCIE);
	assert_true(fabs(s.reach.reachable_gbps - pcie) < 1e-9);
	/* 100 Gb/s measured = 100e9 / 8 bytes per second. */
	assert_true(fabs(perf_reach_percent(&s, 100e9 / 8) -
			 100 * 100 / pcie) < 1e-9);
	t = text_of(&s, 100e9 / 8);
	assert_string_equal(t, " 86.78 % of the 115.23 Gb/s this path can "
			       "reach, limited by PCIe\n");
	free(t);

	/* -m 1024 on the same port: the test's MTU, not the port's. */
	s.mtu = IBV_MTU_1024;
	perf_reach_set(&s, &snap);
	assert_int_equal(s.reach.mtu, 1024);
	/* -b adds both directions, and DLLPs cost each direction. */
	s.mtu = IBV_MTU_4096;
	o.bidir = true;
	perf_reach_set(&s, &snap);
	assert_true(s.reach.reachable_gbps > pcie &&
		    s.reach.reachable_gbps < 2 * pcie);
	o.bidir = false;
	rd_snapshot_free(&snap);

	/* Software RDMA: no figure, and why. */
	snap_hdr(&snap, false);
	perf_reach_set(&s, &snap);
	assert_false(s.reach.ok);
	assert_true(perf_reach_percent(&s, 1e9) < 0);
	t = text_of(&s, 1e9);
	assert_non_null(strstr(t, "no PCI function"));
	free(t);
	rd_snapshot_free(&snap);

	/* No snapshot at all. */
	perf_reach_set(&s, NULL);
	assert_false(s.reach.ok);
	assert_true(s.reach_why[0] != '\0');
}

static void test_reachable_json(void **state)
{
	struct perf_opts o = { .op = PERF_OP_WRITE, .role = PERF_CLIENT,
			       .nqp = 1, .progress_fd = -1 };
	struct perf_session s = { .o = &o, .mtu = IBV_MTU_4096 };
	struct perf_bw_result bw = { .size = 65536, .iters = 1000,
				     .seconds = 0.5, .peak_bps = 1.3e10,
				     .avg_bps = 1.25e10 };
	struct rd_snapshot snap;
	json_object *doc, *reach, *res, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	snprintf(s.dev.name, sizeof(s.dev.name), "mlx5_0");
	s.dev.port = 1;
	snap_hdr(&snap, true);
	perf_reach_set(&s, &snap);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	perf_result_json(f, &s, &bw, 1, NULL, 0, NULL, NULL, NULL, NULL);
	fclose(f);
	doc = json_tokener_parse(buf);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "reachable", &reach));
	assert_true(json_object_object_get_ex(reach, "limited_by", &v));
	assert_string_equal(json_object_get_string(v), "PCIe");
	assert_true(json_object_object_get_ex(reach, "gbps", &v));
	assert_true(fabs(json_object_get_double(v) - 115.228) < 0.001);
	assert_true(json_object_object_get_ex(doc, "results", &res));
	v = json_object_array_get_idx(res, 0);
	assert_true(json_object_object_get_ex(v, "percent_of_reachable", &v));
	assert_true(fabs(json_object_get_double(v) - 86.78) < 0.01);
	json_object_put(doc);
	free(buf);
	rd_snapshot_free(&snap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_is_valid_json),
		cmocka_unit_test(test_result_plain),
		cmocka_unit_test(test_counters_text),
		cmocka_unit_test(test_reachable),
		cmocka_unit_test(test_reachable_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
