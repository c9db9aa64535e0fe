// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every counter a ConnectX or Soft-RoCE host of the fixtures shows has a
 * row in data/counters.tsv: the sysfs trees, the snapshot JSON files, the
 * demo recording, the captured ethtool strings, and the names the kernel's
 * rxe and mlx5_ib drivers define.
 */
#include "config.h"

#include "unit.h"

#include <dirent.h>
#include <json-c/json.h>

#include "core/json.h"
#include "core/model.h"
#include "diag/data.h"
#include "probes/ethtool.h"

struct seen {
	const char *source; /* "counters", "hw_counters", "ethtool" */
	char *name;
	char *origin; /* where it was first seen, for the message */
};


/* The group a source name ("counters", "hw_counters", "ethtool") stands for. */
static enum rd_counter_group grp(const char *source)
{
	for (int g = 0; g < RD_CTR_GROUPS; g++)
		if (strcmp(rd_counter_group_name((enum rd_counter_group)g),
			   source) == 0)
			return (enum rd_counter_group)g;
	fail_msg("unknown counter source \"%s\"", source);
	return RD_CTR_PORT;
}

static struct seen *g_seen;
static size_t g_n_seen;

static void seen_add(const char *source, const char *name, const char *origin)
{
	struct seen *s;

	for (size_t i = 0; i < g_n_seen; i++)
		if (strcmp(g_seen[i].source, source) == 0 &&
		    strcmp(g_seen[i].name, name) == 0)
			return;
	s = RD_PUSH(g_seen, g_n_seen);
	assert_non_null(s);
	s->source = source;
	s->name = strdup(name);
	s->origin = strdup(origin);
	assert_non_null(s->name);
	assert_non_null(s->origin);
}

static void seen_free(void)
{
	for (size_t i = 0; i < g_n_seen; i++) {
		free(g_seen[i].name);
		free(g_seen[i].origin);
	}
	free(g_seen);
	g_seen = NULL;
	g_n_seen = 0;
}

static bool seen_has(const char *source, const char *name)
{
	for (size_t i = 0; i < g_n_seen; i++)
		if (strcmp(g_seen[i].source, source) == 0 &&
		    strcmp(g_seen[i].name, name) == 0)
			return true;
	return false;
}

/* Path relative to the fixtures, so messages stay short. */
static const char *rel(const char *path)
{
	size_t n = strlen(RD_FIXTURES);

	return strncmp(path, RD_FIXTURES, n) == 0 && path[n] == '/' ?
		       path + n + 1 : path;
}

/* The hostile fixture's names are made up to break parsers, not counters. */
static bool skipped(const char *path)
{
	return strncmp(rel(path), "hostile/", 8) == 0;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && strcmp(s + a - b, tail) == 0;
}

/* .../ports/<n>/counters or .../ports/<n>/hw_counters */
static const char *counter_dir_source(const char *path)
{
	char buf[PATH_MAX];
	char *port, *ports;
	const char *src = NULL;

	if (strcmp(base(path), "counters") == 0)
		src = "counters";
	else if (strcmp(base(path), "hw_counters") == 0)
		src = "hw_counters";
	if (!src || snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return NULL;
	*strrchr(buf, '/') = '\0';
	port = strrchr(buf, '/');
	if (!port || port[1] < '0' || port[1] > '9')
		return NULL;
	*port = '\0';
	ports = strrchr(buf, '/');
	return ports && strcmp(ports + 1, "ports") == 0 ? src : NULL;
}

static void add_dir(const char *path, const char *source)
{
	DIR *d = opendir(path);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		/* ib_sysfs skips it too: a cache setting, not a counter. */
		if (e->d_name[0] == '.' || strcmp(e->d_name, "lifespan") == 0)
			continue;
		seen_add(source, e->d_name, rel(path));
	}
	closedir(d);
}

static void add_object_keys(json_object *o, const char *source,
			    const char *origin)
{
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, val) {
		(void)val;
		seen_add(source, key, origin);
	}
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static size_t array_len(json_object *a)
{
	return json_object_is_type(a, json_type_array) ?
		       json_object_array_length(a) : 0;
}

/* A snapshot object: devices[].ports[].{counters,hw_counters}, netdevs[]. */
static void add_snapshot(json_object *snap, const char *origin)
{
	json_object *devs = member(snap, "devices");
	json_object *nds = member(snap, "netdevs");

	for (size_t i = 0; i < array_len(devs); i++) {
		json_object *ports =
			member(json_object_array_get_idx(devs, i), "ports");

		for (size_t j = 0; j < array_len(ports); j++) {
			json_object *p = json_object_array_get_idx(ports, j);

			add_object_keys(member(p, "counters"), "counters",
					origin);
			add_object_keys(member(p, "hw_counters"),
					"hw_counters", origin);
		}
	}
	for (size_t i = 0; i < array_len(nds); i++)
		add_object_keys(member(member(json_object_array_get_idx(nds, i),
					      "ethtool"),
				       "stats"),
				"ethtool", origin);
}

static void add_json_file(const char *path)
{
	json_object *o = json_object_from_file(path);

	if (!o)
		fail_msg("%s: not JSON", path);
	add_snapshot(o, rel(path));
	json_object_put(o);
}

/* ETHTOOL_GSTRINGS names through the probe's own parser. */
static void add_ethtool_capture(const char *strings_path)
{
	char stats_path[PATH_MAX], *names = NULL, *vals = NULL;
	size_t nlen, vlen;
	struct rd_counters c = { 0 };
	const char *b = base(strings_path);
	int n;

	n = snprintf(stats_path, sizeof(stats_path), "%.*sethtool-stats-%s",
		     (int)(b - strings_path), strings_path,
		     b + strlen("ethtool-strings-"));
	assert_true(n > 0 && (size_t)n < sizeof(stats_path));
	assert_int_equal(rd_read_file(strings_path, 1 << 20, &names, &nlen), 0);
	if (rd_read_file(stats_path, 1 << 20, &vals, &vlen) < 0)
		fail_msg("%s has no %s beside it", rel(strings_path),
			 base(stats_path));
	assert_int_equal(rd_ethtool_parse_stats(names, nlen, vals, vlen, &c),
			 0);
	for (size_t i = 0; i < c.n; i++) {
		seen_add("ethtool", c.v[i].name, rel(strings_path));
		free(c.v[i].name);
	}
	free(c.v);
	free(names);
	free(vals);
}

static int walk_cb(const char *path, const struct stat *st, int flag,
		   struct FTW *ftw)
{
	const char *src;

	(void)st;
	(void)ftw;
	if (skipped(path))
		return 0;
	if (flag == FTW_D && (src = counter_dir_source(path)))
		add_dir(path, src);
	else if (flag == FTW_F && ends_with(path, ".json"))
		add_json_file(path);
	else if (flag == FTW_F &&
		 strncmp(base(path), "ethtool-strings-", 16) == 0 &&
		 ends_with(path, ".bin"))
		add_ethtool_capture(path);
	return 0;
}

/* Every frame of every recording in data/demo. */
static void add_demo_recordings(void)
{
	char dir[PATH_MAX], path[PATH_MAX];
	DIR *d;
	struct dirent *e;
	size_t files = 0;

	snprintf(dir, sizeof(dir), "%s/demo", RD_SRCDATADIR);
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d))) {
		FILE *f;
		char *line = NULL, origin[PATH_MAX];
		size_t cap = 0;
		unsigned long lineno = 0;

		if (!ends_with(e->d_name, ".jsonl"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "r");
		assert_non_null(f);
		while (getline(&line, &cap, f) > 0) {
			json_object *o;

			lineno++;
			if (line[0] == '\n')
				continue;
			o = json_tokener_parse(line);
			if (!o)
				fail_msg("data/demo/%s:%lu: not JSON",
					 e->d_name, lineno);
			snprintf(origin, sizeof(origin), "data/demo/%s",
				 e->d_name);
			add_snapshot(o, origin);
			json_object_put(o);
		}
		free(line);
		fclose(f);
		files++;
	}
	closedir(d);
	assert_true(files > 0);
}

/*
 * Names the kernel defines for the two RDMA drivers a host runs here, so a
 * counter that no fixture happens to show is still described.
 */
static const char *const rxe_hw_counters[] = {
	"sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request",
	"rcvd_rnr_err", "send_rnr_err", "rcvd_seq_err", "ack_deferred",
	"retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err",
	"send_err", "link_downed", "rdma_sends", "rdma_recvs",
};

static const char *const mlx5_hw_counters[] = {
	"rx_write_requests", "rx_read_requests", "rx_atomic_requests",
	"rx_dct_connect", "out_of_buffer", "out_of_sequence",
	"duplicate_request", "rnr_nak_retry_err", "packet_seq_err",
	"implied_nak_seq_err", "local_ack_timeout_err", "rp_cnp_ignored",
	"rp_cnp_handled", "np_ecn_marked_roce_packets", "np_cnp_sent",
	"resp_local_length_error", "resp_cqe_error", "req_cqe_error",
	"req_remote_invalid_request", "req_remote_access_errors",
	"resp_remote_access_errors", "resp_cqe_flush_error",
	"req_cqe_flush_error", "req_transport_retries_exceeded",
	"req_rnr_retries_exceeded", "roce_adp_retrans", "roce_adp_retrans_to",
	"roce_slow_restart", "roce_slow_restart_cnps",
	"roce_slow_restart_trans", "rx_icrc_encapsulated", "cc_rx_ce_pkts",
	"cc_rx_cnp_pkts", "cc_tx_cnp_pkts", "rdma_tx_packets",
	"rdma_tx_bytes", "rdma_rx_packets", "rdma_rx_bytes",
	/* A switchdev representor's port: the same queue counters. */
	"vport_rx_write_requests", "vport_out_of_buffer",
	"vport_local_ack_timeout_err", "vport_req_rnr_retries_exceeded",
	"vport_roce_slow_restart_trans",
};

/* mlx5 ethtool names as a ConnectX port prints them, ring 0 and 12 too. */
static const char *const mlx5_ethtool[] = {
	"rx_packets", "rx0_packets", "rx12_bytes", "tx_packets", "tx3_bytes",
	"tx0_recover", "tx0_cqes", "tx0_cqe_err", "tx0_tso_packets",
	"tx0_tso_inner_bytes", "rx0_gro_packets", "rx_gro_skbs",
	"rx0_lro_bytes", "rx0_ecn_mark", "rx_oversize_pkts_buffer",
	"rx_oversize_pkts_sw_drop", "rx0_csum_unnecessary",
	"rx0_csum_complete_tail_slow", "tx0_csum_partial_inner",
	"tx_queue_stopped", "tx0_stopped", "tx_queue_wake", "tx_queue_dropped",
	"tx0_nop", "tx0_timestamps", "rx0_wqe_err", "rx_wqe_err",
	"rx0_mpwqe_frag", "rx0_mpwqe_filler_strides", "tx0_mpwqe_pkts",
	"rx0_cqe_compress_pkts", "rx0_arfs_err", "rx0_recover",
	"tx0_xmit_more", "ch0_poll", "ch_events", "ch0_eq_rearm",
	"rx0_congst_umr", "rx_pp_alloc_fast", "rx0_pp_recycle_ring_full",
	"rx_xsk_buff_alloc_err", "rx0_xdp_tx_xmit", "rx0_xdp_tx_full",
	"rx_xdp_tx_cqe", "rx0_xdp_tx_cqes", "rx0_xdp_drop", "tx0_xdp_xmit",
	"tx0_xdp_err", "tx0_xsk_full", "tx_tls_ctx", "rx0_tls_err",
	"tx0_tls_drop_no_sync_data", "ptp_cq0_abort",
	"ptp_cq0_abort_abs_diff_ns", "ptp_tx0_packets", "qos_tx0_bytes",
	"rx0_buff_alloc_err", "rx_vport_unicast_packets",
	"tx_vport_broadcast_bytes", "rx_vport_rdma_unicast_bytes",
	"tx_vport_rdma_multicast_packets", "vport_loopback_bytes",
	"rx_steer_missed_packets", "dev_internal_queue_oob", "rx_packets_phy",
	"tx_bytes_phy", "rx_multicast_phy", "tx_broadcast_phy",
	"rx_crc_errors_phy", "rx_in_range_len_errors_phy",
	"rx_out_of_range_len_phy", "rx_oversize_pkts_phy", "rx_symbol_err_phy",
	"rx_mac_control_phy", "rx_pause_ctrl_phy", "tx_pause_ctrl_phy",
	"rx_unsupported_op_phy", "rx_discards_phy", "tx_discards_phy",
	"tx_errors_phy", "rx_undersize_pkts_phy", "rx_fragments_phy",
	"rx_jabbers_phy", "rx_64_bytes_phy", "rx_65_to_127_bytes_phy",
	"rx_8192_to_10239_bytes_phy", "link_down_events_phy",
	"rx_out_of_buffer", "module_bus_stuck", "module_high_temp",
	"module_bad_shorted", "module_unplug", "rx_buffer_passed_thres_phy",
	"tx_pause_storm_warning_events", "tx_pause_storm_error_events",
	"rx_bits_phy", "rx_pcs_symbol_err_phy", "rx_corrected_bits_phy",
	"rx_err_lane_0_phy", "rx_err_lane_3_phy", "rx_global_pause",
	"rx_global_pause_duration", "tx_global_pause_duration",
	"rx_global_pause_transition", "rx_if_down_packets", "rx_prio0_bytes",
	"tx_prio7_packets", "rx_prio3_pause", "rx_prio3_pause_duration",
	"rx_prio3_pause_transition", "tx_prio3_pause_duration",
	"rx_prio3_buf_discard", "rx_prio3_cong_discard", "rx_prio3_marked",
	"rx_prio3_discards", "rx_pci_signal_integrity",
	"tx_pci_signal_integrity", "outbound_pci_buffer_overflow",
	"outbound_pci_stalled_rd", "outbound_pci_stalled_wr_events",
	"dev_out_of_buffer",
};

static void add_names(const char *source, const char *const *names,
		      size_t n, const char *origin)
{
	for (size_t i = 0; i < n; i++)
		seen_add(source, names[i], origin);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void collect(void)
{
	seen_free();
	assert_int_equal(nftw(RD_FIXTURES, walk_cb, 32, FTW_PHYS), 0);
	add_demo_recordings();
	add_names("hw_counters", rxe_hw_counters, COUNT(rxe_hw_counters),
		  "rdma_rxe (rxe_hw_counters.c)");
	add_names("hw_counters", mlx5_hw_counters, COUNT(mlx5_hw_counters),
		  "mlx5_ib (counters.c)");
	add_names("ethtool", mlx5_ethtool, COUNT(mlx5_ethtool),
		  "mlx5_core (counters.rst)");
}

/* Counters with no row, or whose row hides the unit; each named on out. */
static size_t undescribed(const struct rd_counter_table *t, FILE *out)
{
	size_t bad = 0;

	for (size_t i = 0; i < g_n_seen; i++) {
		const struct seen *s = &g_seen[i];
		const struct rd_counter_info *ci =
			rd_counter_info_find(t, grp(s->source), s->name);

		if (!ci || !ci->meaning[0]) {
			fprintf(out,
				"%s/%s (seen in %s): no description in "
				"data/counters.tsv\n",
				s->source, s->name, s->origin);
			bad++;
		} else if ((ends_with(s->name, "_bytes") ||
			    ends_with(s->name, "bytes_phy")) &&
			   !strstr(ci->meaning, "bytes")) {
			fprintf(out,
				"%s/%s: its description (\"%s\") does not say "
				"it counts bytes\n",
				s->source, s->name, ci->meaning);
			bad++;
		}
	}
	return bad;
}

static struct rd_counter_table g_table;

static void load_table(void)
{
	char path[PATH_MAX], err[512] = "";

	snprintf(path, sizeof(path), "%s/counters.tsv", RD_SRCDATADIR);
	if (rd_counters_tsv_load(path, &g_table, err, sizeof(err)) < 0)
		fail_msg("%s", err);
}

static void test_every_counter_described(void **state)
{
	size_t bad;

	(void)state;
	load_table();
	collect();
	/* The walk reached each kind of place, so an empty pass cannot PASS. */
	assert_true(g_n_seen > 150);
	assert_true(seen_has("counters", "port_xmit_data"));	/* sysfs tree */
	assert_true(seen_has("hw_counters", "rcvd_seq_err"));	/* rxe tree */
	assert_true(seen_has("hw_counters", "roce_slow_restart")); /* mlx5 */
	assert_true(seen_has("ethtool", "tx_bytes_phy"));	/* demo */
	assert_true(seen_has("ethtool", "tx_tso_inner_bytes")); /* snapshot */
	assert_true(seen_has("ethtool", "peer_ifindex"));	/* capture */
	assert_false(seen_has("hw_counters", "lifespan"));
	assert_false(seen_has("counters", "junk"));		/* hostile */
	bad = undescribed(&g_table, stderr);
	if (bad)
		fail_msg("%zu counters of the fixtures lack a description "
			 "that states their unit", bad);
	rd_counter_table_free(&g_table);
	seen_free();
}

static void test_row_order_and_units(void **state)
{
	static const char *const words[] = { "port_xmit_data",
					      "port_rcv_data" };
	const struct rd_counter_info *ci;

	(void)state;
	load_table();
	for (size_t i = 0; i < COUNT(words); i++) {
		ci = rd_counter_info_find(&g_table, grp("counters"), words[i]);
		assert_non_null(ci);
		if (!strstr(ci->meaning, "4-byte words"))
			fail_msg("%s: \"%s\" does not say 4-byte words",
				 words[i], ci->meaning);
	}
	/* Specific rows come before the catch-all ones that would hide them. */
	for (size_t i = 0; i < g_table.n; i++) {
		const struct rd_counter_info *r = &g_table.v[i];

		if (strpbrk(r->name, "*?[") == NULL &&
		    rd_counter_info_find(&g_table, grp(rd_counter_group_name(r->group)), r->name) != r)
			fail_msg("%s/%s: an earlier pattern hides this row",
				 rd_counter_group_name(r->group), r->name);
	}
	ci = rd_counter_info_find(&g_table, grp("ethtool"), "rx_prio3_bytes");
	assert_non_null(strstr(ci->meaning, "priority"));
	ci = rd_counter_info_find(&g_table, grp("ethtool"), "tx0_tso_inner_packets");
	assert_non_null(strstr(ci->meaning, "inner"));
	ci = rd_counter_info_find(&g_table, grp("ethtool"), "rx_queue_0_xdp_tx");
	assert_non_null(strstr(ci->meaning, "veth"));
	ci = rd_counter_info_find(&g_table, grp("ethtool"),
				  "rx_vport_rdma_unicast_bytes");
	assert_non_null(strstr(ci->meaning, "RDMA"));
	/* Normal traffic and working flow control never count as bad. */
	static const struct {
		const char *src, *name;
	} normal[] = {
		{ "ethtool", "rx_bytes_phy" },
		{ "ethtool", "tx0_packets" },
		{ "ethtool", "rx_prio3_pause" },
		{ "hw_counters", "np_cnp_sent" },
		{ "hw_counters", "cc_rx_cnp_pkts" },
		{ "hw_counters", "rdma_tx_bytes" },
		{ "counters", "port_xmit_data" },
	};
	for (size_t i = 0; i < COUNT(normal); i++) {
		ci = rd_counter_info_find(&g_table, grp(normal[i].src),
					  normal[i].name);
		assert_non_null(ci);
		assert_false(ci->bad_when_rising);
	}
	rd_counter_table_free(&g_table);
}

/* The check with one row taken away: how many it reports, and its text. */
static size_t without_row(const char *name, char *text, size_t size)
{
	struct rd_counter_table partial = { 0 };
	char *buf = NULL;
	size_t len = 0, bad;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	partial.v = calloc(g_table.n, sizeof(*partial.v));
	assert_non_null(partial.v);
	for (size_t i = 0; i < g_table.n; i++)
		if (strcmp(g_table.v[i].name, name) != 0)
			partial.v[partial.n++] = g_table.v[i];
	assert_int_equal(partial.n, g_table.n - 1);
	bad = undescribed(&partial, out);
	fclose(out);
	snprintf(text, size, "%s", buf);
	free(buf);
	free(partial.v);
	return bad;
}

/* Dropping one row the fixtures need makes the check fail, naming it. */
static void test_missing_row_is_caught(void **state)
{
	char text[1024];

	(void)state;
	load_table();
	collect();
	assert_int_equal(without_row("tx_bytes_phy", text, sizeof(text)), 1);
	assert_non_null(strstr(text, "ethtool/tx_bytes_phy (seen in "));
	assert_int_equal(without_row("rcvd_seq_err", text, sizeof(text)), 1);
	assert_non_null(strstr(text, "hw_counters/rcvd_seq_err (seen in "));
	/* With every row there, nothing is reported. */
	assert_int_equal(undescribed(&g_table, stderr), 0);
	rd_counter_table_free(&g_table);
	seen_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_counter_described),
		cmocka_unit_test(test_row_order_and_units),
		cmocka_unit_test(test_missing_row_is_caught),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
