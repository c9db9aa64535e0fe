// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the physical layer costs the console, in figures (not a pass/fail):
 *
 *  1. one refresh of 8 ports with module data, from fixture memory: the
 *     decode of each module (and its raw pages kept for the snapshot), the
 *     phy checks and the history, in microseconds, and the snapshot JSON
 *     each port's module adds, in bytes;
 *  2. the EEPROM half-page reads the transceiver probe makes per minute
 *     for 8 ports at the console's 1 s refresh, per spec: the probe's own
 *     code (src/probes/xcvr.c built with RD_XCVR_FAKE_READER) with a
 *     reader serving fixture bytes instead of MODULE_EEPROM_GET, and a
 *     clock that advances 1 s per refresh.
 *
 *   usage: xcvr-bench MODULES_DIR [REFRESHES]
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/history.h"
#include "core/json.h"
#include "core/snapshot.h"
#include "core/xcvr_decode.h"
#include "diag/diag.h"
#include "probes/xcvr.h"

#define PORTS 8

/* The 8 modules of part 1: every kind the fixtures hold, public dumps first. */
static const char *const mixed[PORTS] = {
	"real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex",
	"real-sfp-10g-sr-oem-no-light.bin",
	"real-sfp28-dac-ubiquiti-dac-sfp28-1m.hex",
	"real-qsfp-dac-molex-1110401054.hex",
	"real-cmis-aoc-hisense-def8504.hex",
	"real-cmis-qsfpdd-eoptolink-eold-168hg.hex",
	"synthetic-qsfp28-sr4.hex",
	"synthetic-cmis-osfp-2banks.hex",
};

/* Part 2: one module per spec, in all 8 cages. */
static const struct {
	const char *spec, *file;
} per_spec[] = {
	{ "SFP (SFF-8472, A0h + A2h)", "real-sfp-10g-sr-finisar-ftlx8571d3bcl.hex" },
	{ "QSFP28 (SFF-8636, paged)", "synthetic-qsfp28-sr4.hex" },
	{ "CMIS, 1 bank", "real-cmis-qsfpdd-eoptolink-eold-168hg.hex" },
	{ "CMIS, 2 banks", "synthetic-cmis-osfp-2banks.hex" },
};

static struct rd_xcvr_mem *cage_mem[PORTS];
static double fake_clock = 1000.0;
static unsigned long fake_reads, fake_misses;

double rd_xcvr_fake_now(void)
{
	return fake_clock;
}

int rd_xcvr_fake_read(const char *ifname, const struct rd_xcvr_req *q,
		      uint8_t out[128])
{
	unsigned i;
	const uint8_t *h;

	fake_reads++;
	if (sscanf(ifname, "eth%u", &i) != 1 || i >= PORTS || !cage_mem[i])
		return -ENODEV;
	h = rd_xcvr_mem_get(cage_mem[i], q->i2c, q->bank, q->page, q->offset);
	if (!h) {
		fake_misses++;
		return -EINVAL;	/* what the kernel answers for a page not there */
	}
	memcpy(out, h, 128);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct rd_xcvr_mem *load(const char *dir, const char *file)
{
	char path[4096], *buf = NULL;
	size_t len = 0;
	struct rd_xcvr_mem *m = calloc(1, sizeof(*m));

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!m || rd_read_file(path, 1 << 16, &buf, &len) < 0 ||
	    rd_xcvr_mem_from_dump((const uint8_t *)buf, len, m) < 0) {
		fprintf(stderr, "xcvr-bench: cannot read %s\n", path);
		exit(1);
	}
	free(buf);
	return m;
}

/* mlx5_0..mlx5_7, port 1 each, on eth0..eth7: up, RoCE, 25G advertised. */
static void host(struct rd_snapshot *s)
{
	rd_snapshot_init(s);
	for (unsigned i = 0; i < PORTS; i++) {
		struct rd_device *d = RD_PUSH(s->devices, s->n_devices);
		struct rd_netdev *n = RD_PUSH(s->netdevs, s->n_netdevs);
		struct rd_port *p;
		char name[16], nd[16];

		if (!d || !n)
			exit(1);
		snprintf(name, sizeof(name), "mlx5_%u", i);
		snprintf(nd, sizeof(nd), "eth%u", i);
		d->name = rd_strdup(name);
		d->driver = rd_strdup("mlx5_core");
		p = RD_PUSH(d->ports, d->n_ports);
		if (!p)
			exit(1);
		p->port = 1;
		p->state_num = rd_u64(4);
		p->state = rd_strdup("ACTIVE");
		p->phys_state_num = rd_u64(5);
		p->link_layer = rd_strdup("Ethernet");
		p->netdev = rd_strdup(nd);
		n->name = rd_strdup(nd);
		n->ifindex = rd_u64(10 + i);
		n->rdma_device = rd_strdup(name);
		n->rdma_port = rd_u64(1);
		n->driver = rd_strdup("mlx5_core");
		n->admin_up = rd_bool(true);
		n->carrier = rd_bool(true);
		n->ethtool.autoneg = rd_bool(true);
		n->ethtool.modes_advertised = rd_strdup("25000baseSR/Full");
		n->ethtool.speed_mbps = rd_u64(25000);
		n->ethtool.lanes = rd_u64(1);
		n->ethtool.fec_active = rd_strdup("RS");
	}
}

static void part1(const char *dir, long n)
{
	struct rd_xcvr_mem *mem[PORTS];
	struct rd_history h;
	struct rd_diag_opts o;
	double t_decode = 0, t_checks = 0, t_hist = 0, best = 1e9;
	size_t json_min = SIZE_MAX, json_max = 0, json_sum = 0, results = 0;

	for (unsigned i = 0; i < PORTS; i++)
		mem[i] = load(dir, mixed[i]);
	rd_history_init(&h);
	rd_diag_opts_init(&o);
	o.only_area = "phy";
	for (long k = 0; k < n; k++) {
		struct rd_snapshot s;
		struct rd_results res = { 0 };
		double a, b, c, d;

		host(&s);
		s.time = rd_dbl(1e9 + (double)k);	/* a refresh a second */
		a = now_s();
		for (unsigned i = 0; i < PORTS; i++) {
			struct rd_xcvr *x = &s.netdevs[i].xcvr;

			if (rd_xcvr_decode(mem[i], x) < 0 ||
			    rd_xcvr_pages_save(mem[i], x) < 0)
				exit(1);
			x->present = rd_bool(true);
		}
		b = now_s();
		rd_history_add(&h, &s);
		c = now_s();
		if (rd_diag_run(&s, &h, &o, &res) < 0)
			exit(1);
		d = now_s();
		t_decode += b - a;
		t_hist += c - b;
		t_checks += d - c;
		if (d - a < best)
			best = d - a;
		results = res.n;
		rd_results_free(&res);
		if (k == 0) {
			struct json_object *j = rd_snapshot_to_json(&s);
			struct json_object *nds, *x;

			if (!j || !json_object_object_get_ex(j, "netdevs", &nds))
				exit(1);
			for (unsigned i = 0; i < PORTS; i++) {
				size_t l;

				if (!json_object_object_get_ex(
					    json_object_array_get_idx(nds, i),
					    "transceiver", &x))
					exit(1);
				l = strlen(json_object_to_json_string_ext(
					x, JSON_C_TO_STRING_PLAIN));
				json_sum += l;
				json_min = l < json_min ? l : json_min;
				json_max = l > json_max ? l : json_max;
			}
			json_object_put(j);
		}
		rd_snapshot_free(&s);
	}
	printf("phy refresh, %d ports with module data, %ld refreshes (fixture memory)\n",
	       PORTS, n);
	printf("  decode + pages   %8.1f us/refresh\n", t_decode * 1e6 / (double)n);
	printf("  history          %8.1f us/refresh\n", t_hist * 1e6 / (double)n);
	printf("  phy checks       %8.1f us/refresh (%zu results)\n",
	       t_checks * 1e6 / (double)n, results);
	printf("  total            %8.1f us/refresh (best %.1f us)\n",
	       (t_decode + t_hist + t_checks) * 1e6 / (double)n, best * 1e6);
	printf("  snapshot JSON    %8zu bytes/port on average (min %zu, max %zu)\n",
	       json_sum / PORTS, json_min, json_max);
	rd_history_free(&h);
	for (unsigned i = 0; i < PORTS; i++)
		free(mem[i]);
}

/* Run the probe 60 times, a second apart, over 8 cages of one module. */
static void part2(const char *dir)
{
	const long refreshes = 60;

	printf("EEPROM half-page reads, %d ports, 1 s refresh, %ld refreshes "
	       "(the probe with a fake reader)\n",
	       PORTS, refreshes);
	for (size_t t = 0; t < sizeof(per_spec) / sizeof(per_spec[0]); t++) {
		void *state = calloc(1, probe_xcvr.state_size);
		unsigned long first = 0;
		struct rd_probe_ctx ctx = { 0 };

		if (!state)
			exit(1);
		for (unsigned i = 0; i < PORTS; i++)
			cage_mem[i] = load(dir, per_spec[t].file);
		if (probe_xcvr.state_init)
			probe_xcvr.state_init(state);
		fake_reads = fake_misses = 0;
		fake_clock = 1000.0;
		for (long k = 0; k < refreshes; k++) {
			struct rd_snapshot s;

			host(&s);
			ctx.tick = (uint64_t)k;
			probe_xcvr.collect(&ctx, state, &s);
			for (unsigned i = 0; i < PORTS; i++)
				if (!s.netdevs[i].xcvr.identifier.ok) {
					fprintf(stderr, "xcvr-bench: eth%u not decoded\n", i);
					exit(1);
				}
			if (k == 0)
				first = fake_reads;
			rd_snapshot_free(&s);
			fake_clock += 1.0;
		}
		printf("  %-28s %5lu reads/min (%.1f per port per refresh; "
		       "first refresh %lu; %lu pages not there)\n",
		       per_spec[t].spec, fake_reads,
		       (double)fake_reads / PORTS / (double)refreshes, first,
		       fake_misses);
		if (probe_xcvr.state_clear)
			probe_xcvr.state_clear(state);
		free(state);
		for (unsigned i = 0; i < PORTS; i++) {
			free(cage_mem[i]);
			cage_mem[i] = NULL;
		}
	}
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 2000;

	if (argc < 2 || n <= 0) {
		fprintf(stderr, "usage: xcvr-bench MODULES_DIR [REFRESHES]\n");
		return 2;
	}
	part1(argv[1], n);
	part2(argv[1]);
	return 0;
}
