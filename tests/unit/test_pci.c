// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "probe_unit.h"

#include "probes/ib_sysfs.h"
#include "probes/pci.h"

static void probe_tree(const char *root, struct rd_probe_cache *cache,
		       struct rd_snapshot *s)
{
	struct rd_roots roots;
	struct rd_probe_ctx ctx;

	unit_probe_ctx(&roots, &ctx, root, cache);
	rd_snapshot_init(s);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_IB_SYSFS, s), 0);
	assert_int_equal(rd_probe_run(&ctx, RD_PROBE_PCI, s), 0);
}

static void probe_fixture(const char *name, struct rd_snapshot *s)
{
	char dir[PATH_MAX];

	probe_tree(unit_fixture(name, dir, sizeof(dir)), NULL, s);
}

static void test_cx6dx_functions(void **state)
{
	struct rd_snapshot s;
	struct rd_pci *p;

	(void)state;
	probe_fixture("cx6dx-roce-port-down", &s);
	/* The two ConnectX PFs; not the root port, not the Intel I350. */
	assert_int_equal(s.n_pci, 2);
	assert_null(rd_snapshot_pci(&s, "0000:3a:00.0"));
	assert_null(rd_snapshot_pci(&s, "0000:19:00.0"));
	assert_int_equal(s.n_errors, 0);

	p = rd_snapshot_pci(&s, "0000:3b:00.0");
	assert_non_null(p);
	assert_true(p->vendor_id.ok);
	assert_int_equal(p->vendor_id.v, 0x15b3);
	assert_int_equal(p->device_id.v, 0x101d);
	assert_int_equal(p->subsys_vendor_id.v, 0x15b3);
	assert_int_equal(p->subsys_device_id.v, 0x0016);
	assert_int_equal(p->class_id.v, 0x020000);
	assert_string_equal(p->driver, "mlx5_core");
	assert_string_equal(p->rdma_device, "mlx5_0");
	assert_true(p->numa_node.ok);
	assert_int_equal(p->numa_node.v, 0);
	assert_string_equal(p->local_cpulist, "0-17,36-53");
	/* Trained at Gen3 x8 on a Gen4 x16 card, read from LnkSta/LnkCap. */
	assert_string_equal(p->link_source, "config");
	assert_true(p->link_speed_gts.ok && p->link_speed_gts.v == 8.0);
	assert_true(p->link_width.ok && p->link_width.v == 8);
	assert_true(p->cap_speed_gts.ok && p->cap_speed_gts.v == 16.0);
	assert_true(p->cap_width.ok && p->cap_width.v == 16);
	assert_string_equal(p->vpd_part_number, "MCX623106AN-CDAT");
	assert_string_equal(p->vpd_serial, "MT2104X12345");
	if (access("/usr/share/misc/pci.ids", R_OK) == 0) {
		assert_non_null(p->vendor_name);
		assert_non_null(strstr(p->vendor_name, "Mellanox"));
		assert_non_null(p->device_name);
		assert_non_null(strstr(p->device_name, "ConnectX-6 Dx"));
	}

	/* Only 64 bytes of config space: the sysfs link files answer. */
	p = rd_snapshot_pci(&s, "0000:3b:00.1");
	assert_non_null(p);
	assert_string_equal(p->rdma_device, "mlx5_1");
	assert_string_equal(p->link_source, "sysfs");
	assert_true(p->link_speed_gts.ok && p->link_speed_gts.v == 8.0);
	assert_true(p->link_width.ok && p->link_width.v == 8);
	assert_true(p->cap_speed_gts.ok && p->cap_speed_gts.v == 16.0);
	assert_true(p->cap_width.ok && p->cap_width.v == 16);
	assert_null(p->vpd_part_number);
	rd_snapshot_free(&s);
}

/* Config space bytes of a function with a PCIe capability at 0x40. */
static void put_config(const char *root, const char *rel, uint32_t lnkcap,
		       uint16_t lnksta, size_t len)
{
	uint8_t cfg[256] = { 0 };
	char path[PATH_MAX];
	FILE *f;

	cfg[0] = 0xb3;
	cfg[1] = 0x15;
	cfg[2] = 0x17;
	cfg[3] = 0x10;
	cfg[6] = 0x10; /* capability list */
	cfg[0x0b] = 0x02;
	cfg[0x34] = 0x40;
	cfg[0x40] = 0x10;
	cfg[0x42] = 0x02;
	for (int i = 0; i < 4; i++)
		cfg[0x4c + i] = (uint8_t)(lnkcap >> (8 * i));
	/* DevCtl: MaxPayload 256 B, MaxReadReq 4096 B, error reporting on. */
	cfg[0x48] = 0x2f;
	cfg[0x49] = 0x50;
	cfg[0x52] = (uint8_t)lnksta;
	cfg[0x53] = (uint8_t)(lnksta >> 8);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(cfg, 1, len, f), len);
	fclose(f);
}

static void put_function(const char *root, const char *bdf)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/vendor", bdf);
	unit_put(root, rel, "0x15b3\n");
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/device", bdf);
	unit_put(root, rel, "0x1017\n");
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/class", bdf);
	unit_put(root, rel, "0x020000\n");
	/* sysfs claims a full link; config space must win when readable. */
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/current_link_speed",
		 bdf);
	unit_put(root, rel, "16.0 GT/s PCIe\n");
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/current_link_width",
		 bdf);
	unit_put(root, rel, "16\n");
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/max_link_speed",
		 bdf);
	unit_put(root, rel, "16.0 GT/s PCIe\n");
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/max_link_width",
		 bdf);
	unit_put(root, rel, "16\n");
}

static void test_config_space_wins_and_is_the_fixtures(void **state)
{
	struct rd_probe_cache *cache = rd_probe_cache_new();
	struct rd_snapshot s;
	char root[PATH_MAX];
	struct rd_pci *p;

	(void)state;
	unit_tmpdir(root, sizeof(root));
	put_function(root, "0000:05:00.0");
	/* LnkCap 8 GT/s x16, LnkSta 5 GT/s x4. */
	put_config(root, "sys/bus/pci/devices/0000:05:00.0/config", 0x00000103,
		   0x0042, 256);
	/* Twice through the same cache: libpci is kept, results must agree. */
	for (int round = 0; round < 2; round++) {
		probe_tree(root, cache, &s);
		p = rd_snapshot_pci(&s, "0000:05:00.0");
		assert_non_null(p);
		assert_string_equal(p->link_source, "config");
		assert_true(p->link_speed_gts.v == 5.0);
		assert_int_equal(p->link_width.v, 4);
		assert_true(p->cap_speed_gts.v == 8.0);
		assert_int_equal(p->cap_width.v, 16);
		assert_true(p->max_payload.ok);
		assert_int_equal(p->max_payload.v, 256);
		assert_int_equal(p->max_read_req.v, 4096);
		assert_null(p->rdma_device);
		rd_snapshot_free(&s);
	}
	rd_probe_cache_free(cache);
	unit_rmtree(root);
}

static void test_config_not_regular_falls_back(void **state)
{
	struct rd_snapshot s;
	char root[PATH_MAX], path[PATH_MAX];
	struct rd_pci *p;

	(void)state;
	unit_tmpdir(root, sizeof(root));
	put_function(root, "0000:05:00.0");
	put_function(root, "0000:05:00.1");
	/* A FIFO would block libpci's open() forever. */
	snprintf(path, sizeof(path),
		 "%s/sys/bus/pci/devices/0000:05:00.0/config", root);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* LnkCap width 0 and speed 0: no device reports that. */
	put_config(root, "sys/bus/pci/devices/0000:05:00.1/config", 0, 0, 256);
	alarm(20);
	probe_tree(root, NULL, &s);
	alarm(0);
	for (int i = 0; i < 2; i++) {
		p = rd_snapshot_pci(&s, i ? "0000:05:00.1" : "0000:05:00.0");
		assert_non_null(p);
		assert_string_equal(p->link_source, "sysfs");
		assert_int_equal(p->link_width.v, 16);
	}
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

static void test_hostile(void **state)
{
	struct rd_snapshot s;
	struct rd_pci *p;

	(void)state;
	probe_fixture("hostile", &s);
	assert_true(unit_has_error(&s, "not-a-bdf", "not a PCI address"));
	assert_true(unit_has_error(&s, "0000:01:00.2/vendor", "0xzzzz"));
	assert_null(rd_snapshot_pci(&s, "0000:01:00.2"));

	/* Config space cut inside the capability, sysfs files nonsense. */
	p = rd_snapshot_pci(&s, "0000:01:00.0");
	assert_non_null(p);
	assert_false(p->link_speed_gts.ok);
	assert_false(p->link_width.ok);
	assert_false(p->cap_speed_gts.ok);
	assert_false(p->cap_width.ok);
	assert_null(p->link_source);
	assert_true(unit_has_error(&s, "0000:01:00.0", "PCIe link state"));

	/* A capability chain that loops, LnkCap garbage, VPD garbage. */
	p = rd_snapshot_pci(&s, "0000:01:00.1");
	assert_non_null(p);
	assert_false(p->cap_speed_gts.ok);
	assert_null(p->vpd_part_number);
	assert_false(p->numa_node.ok);
	assert_null(p->local_cpulist);
	assert_true(unit_has_error(&s, "0000:01:00.1/numa_node", NULL));
	assert_true(unit_has_error(&s, "0000:01:00.1/local_cpulist", NULL));
	rd_snapshot_free(&s);
}

static void test_no_pci_bus(void **state)
{
	struct rd_snapshot s;
	char root[PATH_MAX];

	(void)state;
	unit_tmpdir(root, sizeof(root));
	unit_put(root, "sys/class/.keep", "");
	probe_tree(root, NULL, &s);
	assert_int_equal(s.n_pci, 0);
	assert_int_equal(s.n_errors, 0);
	rd_snapshot_free(&s);
	unit_rmtree(root);
}

static void test_parse_bdf(void **state)
{
	unsigned d, b, dv, f;

	(void)state;
	assert_int_equal(rd_pci_parse_bdf("0000:3b:00.1", &d, &b, &dv, &f), 0);
	assert_int_equal(d, 0);
	assert_int_equal(b, 0x3b);
	assert_int_equal(dv, 0);
	assert_int_equal(f, 1);
	assert_int_equal(rd_pci_parse_bdf("10000:e1:1f.7", &d, &b, &dv, &f), 0);
	assert_int_equal(d, 0x10000);
	assert_int_equal(dv, 0x1f);
	assert_int_equal(f, 7);
	assert_int_equal(rd_pci_parse_bdf("0000:3b:20.0", &d, &b, &dv, &f),
			 -EINVAL);
	assert_int_equal(rd_pci_parse_bdf("0000:3b:00.8", &d, &b, &dv, &f),
			 -EINVAL);
	assert_int_equal(rd_pci_parse_bdf("000:3b:00.0", &d, &b, &dv, &f),
			 -EINVAL);
	assert_int_equal(rd_pci_parse_bdf("0000:3B:00.0", &d, &b, &dv, &f),
			 -EINVAL);
	assert_int_equal(rd_pci_parse_bdf("0000:3b:00.0x", &d, &b, &dv, &f),
			 -EINVAL);
	assert_int_equal(rd_pci_parse_bdf("../../etc", &d, &b, &dv, &f),
			 -EINVAL);
	assert_int_equal(rd_pci_parse_bdf("", &d, &b, &dv, &f), -EINVAL);
	assert_int_equal(rd_pci_parse_bdf("fffffffff:00:00.0", &d, &b, &dv, &f),
			 -EINVAL);
}

static void test_parse_link_speed(void **state)
{
	double g;

	(void)state;
	assert_int_equal(rd_pci_parse_link_speed("8.0 GT/s PCIe", &g), 0);
	assert_true(g == 8.0);
	assert_int_equal(rd_pci_parse_link_speed("2.5 GT/s", &g), 0);
	assert_true(g == 2.5);
	assert_int_equal(rd_pci_parse_link_speed("32.0 GT/s PCIe", &g), 0);
	assert_true(g == 32.0);
	assert_int_equal(rd_pci_parse_link_speed("Unknown", &g), -EINVAL);
	assert_int_equal(rd_pci_parse_link_speed("Unknown speed", &g), -EINVAL);
	assert_int_equal(rd_pci_parse_link_speed("8.0 GB/s", &g), -EINVAL);
	assert_int_equal(rd_pci_parse_link_speed("8.0 GT/s PCIe extra", &g),
			 -EINVAL);
	assert_int_equal(rd_pci_parse_link_speed("0 GT/s", &g), -EINVAL);
	assert_int_equal(rd_pci_parse_link_speed("", &g), -EINVAL);
	assert_true(rd_pcie_speed_gts(4) == 16.0);
	assert_true(rd_pcie_speed_gts(0) == 0);
	assert_true(rd_pcie_speed_gts(15) == 0);
}

static void test_parse_vpd(void **state)
{
	static const uint8_t good[] = {
		0x82, 0x03, 0x00, 'N', 'I', 'C', 0x90, 0x12, 0x00,
		'P',  'N',  0x04, 'A', 'B', 'C', ' ',  'S',  'N',
		0x03, 'X',  '1',  '2', 'R', 'V', 0x01, 0x00, 0x78,
	};
	uint8_t bad[sizeof(good)];
	uint8_t blank[64];
	char pn[32], sn[32];

	(void)state;
	assert_int_equal(rd_pci_parse_vpd(good, sizeof(good), pn, sizeof(pn),
					  sn, sizeof(sn)),
			 0);
	assert_string_equal(pn, "ABC");
	assert_string_equal(sn, "X12");
	/* Every truncation is either refused or yields only whole fields. */
	for (size_t n = 0; n < sizeof(good); n++) {
		int r = rd_pci_parse_vpd(good, n, pn, sizeof(pn), sn,
					 sizeof(sn));

		if (r == 0)
			assert_true(pn[0] == '\0' || strcmp(pn, "ABC") == 0);
	}
	/* A keyword length running past its section. */
	memcpy(bad, good, sizeof(good));
	bad[11] = 0x40;
	assert_int_equal(rd_pci_parse_vpd(bad, sizeof(bad), pn, sizeof(pn), sn,
					  sizeof(sn)),
			 -EINVAL);
	/* Control bytes in a value. */
	memcpy(bad, good, sizeof(good));
	bad[12] = 0x01;
	assert_int_equal(rd_pci_parse_vpd(bad, sizeof(bad), pn, sizeof(pn), sn,
					  sizeof(sn)),
			 -EINVAL);
	/* Unprogrammed VPD reads as all ones. */
	memset(blank, 0xff, sizeof(blank));
	assert_int_equal(rd_pci_parse_vpd(blank, sizeof(blank), pn, sizeof(pn),
					  sn, sizeof(sn)),
			 -EINVAL);
	memset(blank, 0, sizeof(blank));
	assert_int_equal(rd_pci_parse_vpd(blank, sizeof(blank), pn, sizeof(pn),
					  sn, sizeof(sn)),
			 -EINVAL);
}

static void test_parse_devctl(void **state)
{
	uint64_t mps = 1, mrrs = 1;

	(void)state;
	/* lspci: "MaxPayload 128 bytes, MaxReadReq 512 bytes" (0x2810). */
	assert_int_equal(rd_pci_parse_devctl(0x2810, &mps, &mrrs), 0);
	assert_int_equal(mps, 128);
	assert_int_equal(mrrs, 512);
	assert_int_equal(rd_pci_parse_devctl(0x5ebf, &mps, &mrrs), 0);
	assert_int_equal(mps, 4096);
	assert_int_equal(mrrs, 4096);
	/* Reserved codes 6 and 7 are no size. */
	assert_int_equal(rd_pci_parse_devctl(0x00c0, &mps, &mrrs), -EINVAL);
	assert_int_equal(rd_pci_parse_devctl(0x7000, &mps, &mrrs), -EINVAL);
}

static void test_rdma_nic_table(void **state)
{
	(void)state;
	assert_true(rd_pci_is_rdma_nic(0x15b3, 0x101d, 0x020000, NULL));
	assert_true(rd_pci_is_rdma_nic(0x15b3, 0x101b, 0x020700, NULL));
	assert_true(rd_pci_is_rdma_nic(0x15b3, 0x1017, 0x0c0600, NULL));
	assert_false(rd_pci_is_rdma_nic(0x15b3, 0xa2dc, 0x060400, NULL));
	assert_true(rd_pci_is_rdma_nic(0x8086, 0x1593, 0x020000, NULL));
	assert_true(rd_pci_is_rdma_nic(0x8086, 0x9999, 0x020000, "ice"));
	assert_true(rd_pci_is_rdma_nic(0x8086, 0x37d2, 0x020000, "i40e"));
	assert_false(rd_pci_is_rdma_nic(0x8086, 0x1572, 0x020000, "i40e"));
	assert_false(rd_pci_is_rdma_nic(0x8086, 0x1521, 0x020000, "igb"));
	assert_true(rd_pci_is_rdma_nic(0x14e4, 0x1750, 0x020000, NULL));
	assert_false(rd_pci_is_rdma_nic(0x14e4, 0x165f, 0x020000, "tg3"));
	assert_true(rd_pci_is_rdma_nic(0x1d0f, 0xefa1, 0x020000, NULL));
	assert_false(rd_pci_is_rdma_nic(0x1d0f, 0xec20, 0x020000, "ena"));
	assert_true(rd_pci_is_rdma_nic(0x1425, 0x6410, 0x020000, NULL));
	assert_true(rd_pci_is_rdma_nic(0x19e5, 0xa222, 0x020000, NULL));
	assert_true(rd_pci_is_rdma_nic(0x1077, 0x8070, 0x020000, NULL));
	assert_false(rd_pci_is_rdma_nic(0x1077, 0x2532, 0x0c0400, "qla2xxx"));
	assert_false(rd_pci_is_rdma_nic(0x10ec, 0x8168, 0x020000, "r8169"));
	/* By driver or by id; only network functions; erdma by id alone. */
	assert_true(rd_pci_is_rdma_nic(0x14e4, 0x9999, 0x020000, "bnxt_en"));
	assert_true(rd_pci_is_rdma_nic(0x1414, 0x9999, 0x020000, "mana"));
	assert_true(rd_pci_is_rdma_nic(0x1414, 0x00ba, 0x020000, NULL));
	assert_false(rd_pci_is_rdma_nic(0x1414, 0x00ba, 0x010000, NULL));
	assert_false(rd_pci_is_rdma_nic(0x1414, 0x1234, 0x020000, "hv_netvsc"));
	assert_true(rd_pci_is_rdma_nic(0x1ded, 0x107f, 0x020000, NULL));
	assert_false(rd_pci_is_rdma_nic(0x1ded, 0x5007, 0x020000, "erdma"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cx6dx_functions),
		cmocka_unit_test(test_config_space_wins_and_is_the_fixtures),
		cmocka_unit_test(test_config_not_regular_falls_back),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_no_pci_bus),
		cmocka_unit_test(test_parse_bdf),
		cmocka_unit_test(test_parse_link_speed),
		cmocka_unit_test(test_parse_vpd),
		cmocka_unit_test(test_parse_devctl),
		cmocka_unit_test(test_rdma_nic_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
