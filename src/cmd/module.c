// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag module: the pluggable module of a live port, of a saved
 * snapshot, or of a dump pasted in a ticket (`ethtool -m IF raw on` or
 * `hex on`), decoded and judged by the phy checks.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cmd/cli.h"
#include "core/escape.h"
#include "core/json.h"
#include "core/print.h"
#include "core/recording.h"
#include "core/xcvr_decode.h"
#include "probes/probe.h"

#define DUMP_MAX (64 * 1024)

static void module_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag module [--json] [-d DEV] [-i PORT] [--load FILE]\n"
		"       rdmadiag module [--json] DUMP\n"
		"  DUMP           a module memory dump, as `ethtool -m IF raw on`\n"
		"                 writes it (binary) or `ethtool -m IF hex on` prints it\n"
		"  -d, --device   the RDMA device (default: every port)\n"
		"  -i, --ib-port  its port\n"
		"  --load FILE    a saved snapshot (or a recording's last frame)\n"
		"                 instead of this host\n"
		"  --json         the stable JSON form\n"
		"exit status: 0 all PASS, 1 a WARN, 2 a FAIL, 3 bad usage or no\n"
		"             module data to show\n");
}

struct mod_opts {
	bool json;
	const char *device;
	uint64_t port;
	const char *load;
};

static void print_limit(struct rd_printer *p, const char *key,
			struct rd_odbl v)
{
	if (v.ok)
		rd_print_double(p, key, NULL, v.v);
	else
		rd_print_null(p, key, NULL);
}

static void print_dbm(struct rd_printer *p, const char *key,
		      struct rd_odbl mw)
{
	double dbm;

	if (mw.ok && rd_mw_to_dbm(mw.v, &dbm))
		rd_print_double(p, key, NULL, dbm);
	else
		rd_print_null(p, key, NULL);
}

static void print_bool(struct rd_printer *p, const char *key,
		       struct rd_obool b)
{
	if (b.ok)
		rd_print_bool(p, key, NULL, b.v);
	else
		rd_print_null(p, key, NULL);
}

static void print_str(struct rd_printer *p, const char *key, const char *s)
{
	if (s)
		rd_print_str(p, key, NULL, s);
	else
		rd_print_null(p, key, NULL);
}

/* The JSON contract: identity, values, lanes[], results[]. */
static void module_json(struct rd_printer *p, const char *target,
			const char *netdev, const struct rd_xcvr *m,
			const struct rd_results *res)
{
	struct json_object *rj;

	rd_print_open_object(p, NULL);
	print_str(p, "target", target);
	print_str(p, "netdev", netdev);
	print_bool(p, "present", m->present);
	print_str(p, "error", m->error);
	print_str(p, "source", m->source);
	print_str(p, "spec", m->spec);
	print_str(p, "identifier", m->type);
	print_str(p, "vendor", m->vendor);
	print_str(p, "part_number", m->part_number);
	print_str(p, "revision", m->revision);
	print_str(p, "serial", m->serial);
	print_str(p, "date_code", m->date_code);
	print_str(p, "media", m->media);
	print_str(p, "media_detail", m->media_detail);
	print_str(p, "connector", m->connector_name);
	print_limit(p, "length_m", m->length_m);
	print_limit(p, "wavelength_nm", m->wavelength_nm);
	print_str(p, "module_state", m->module_state);
	print_str(p, "fault_cause", m->fault_cause);
	print_bool(p, "diagnostics", m->dom);
	print_str(p, "no_diagnostics", m->no_dom);
	print_limit(p, "temperature_c", m->temperature_c);
	print_limit(p, "vcc_v", m->vcc_v);
	rd_print_open_array(p, "lanes");
	for (size_t i = 0; i < m->n_lanes; i++) {
		const struct rd_xcvr_lane *l = &m->lanes[i];

		rd_print_open_object(p, NULL);
		rd_print_u64(p, "lane", NULL, l->lane);
		print_limit(p, "tx_bias_ma", l->tx_bias_ma);
		print_dbm(p, "tx_power_dbm", l->tx_power_mw);
		print_dbm(p, "rx_power_dbm", l->rx_power_mw);
		print_limit(p, "tx_power_mw", l->tx_power_mw);
		print_limit(p, "rx_power_mw", l->rx_power_mw);
		print_bool(p, "rx_los", l->rx_los);
		print_bool(p, "tx_fault", l->tx_fault);
		rd_print_close(p);
	}
	rd_print_close(p);
	rj = rd_results_to_json(res);
	if (rj && p->depth > 0 && p->stack[p->depth - 1])
		json_object_object_add(p->stack[p->depth - 1], "results", rj);
	else
		json_object_put(rj);
	rd_print_close(p);
}

static const char *yes_no(struct rd_obool b)
{
	return !b.ok ? "-" : b.v ? "YES" : "no";
}

static void module_text(struct rd_printer *p, const char *target,
			const char *netdev, const struct rd_xcvr *m,
			const struct rd_results *res)
{
	rd_print_text(p, "%s%s%s: ", rd_esc_tmp(target), netdev ? " " : "",
		      netdev ? rd_esc_tmp(netdev) : "");
	if (!m->identifier.ok) {
		rd_print_text(p, "%s\n",
			      m->error ? rd_esc_tmp(m->error) :
					 "module memory not read");
	} else {
		rd_print_text(p, "%s %s", m->type ? rd_esc_tmp(m->type) : "?",
			      m->media ? rd_esc_tmp(m->media)
				       : "media unknown");
		if (m->media_detail)
			rd_print_text(p, " (%s)", rd_esc_tmp(m->media_detail));
		if (m->length_m.ok) {
			char len[32];

			rd_xcvr_length_text(m, "", len, sizeof(len));
			rd_print_text(p, ", %s", len);
		}
		if (m->wavelength_nm.ok)
			rd_print_text(p, ", %.1f nm", m->wavelength_nm.v);
		rd_print_text(p, "\n  %s %s rev %s SN %s date %s\n",
			      m->vendor ? rd_esc_tmp(m->vendor) : "?",
			      m->part_number ? rd_esc_tmp(m->part_number) : "?",
			      m->revision ? rd_esc_tmp(m->revision) : "?",
			      m->serial ? rd_esc_tmp(m->serial) : "?",
			      m->date_code ? rd_esc_tmp(m->date_code) : "?");
		if (m->module_state)
			rd_print_text(p, "  module state %s%s%s\n",
				      rd_esc_tmp(m->module_state),
				      m->fault_cause ? ": " : "",
				      m->fault_cause ? rd_esc_tmp(m->fault_cause) :
						       "");
		if (m->dom.ok && !m->dom.v)
			rd_print_text(p, "  no diagnostics: %s\n",
				      m->no_dom ? rd_esc_tmp(m->no_dom) : "not reported");
		if (!rd_xcvr_dom_real(m)) {
			rd_print_text(p, "  diagnostics: zeros the driver "
					 "made up (supply 0 V, or limits with "
					 "no range), not readings\n");
			goto results;
		}
		if (m->temperature_c.ok)
			rd_print_text(p, "  temperature %.1f C", m->temperature_c.v);
		if (m->temperature_c.ok && m->temperature_limits.high_warn.ok)
			rd_print_text(p, " (high warning %.1f C",
				      m->temperature_limits.high_warn.v);
		if (m->temperature_c.ok && m->temperature_limits.high_warn.ok &&
		    m->temperature_limits.high_alarm.ok)
			rd_print_text(p, ", alarm %.1f C",
				      m->temperature_limits.high_alarm.v);
		if (m->temperature_c.ok && m->temperature_limits.high_warn.ok)
			rd_print_text(p, ")");
		if (m->vcc_v.ok)
			rd_print_text(p, "%ssupply %.3f V",
				      m->temperature_c.ok ? ", " : "  ",
				      m->vcc_v.v);
		if (m->temperature_c.ok || m->vcc_v.ok)
			rd_print_text(p, "\n");
		if (m->n_lanes)
			rd_print_text(p, "  lane  Tx bias mA  Tx dBm    Rx dBm    Rx LOS  Tx fault\n");
		for (size_t i = 0; i < m->n_lanes; i++) {
			const struct rd_xcvr_lane *l = &m->lanes[i];
			char bias[16] = "-", tx[16], rx[16];

			if (l->tx_bias_ma.ok)
				snprintf(bias, sizeof(bias), "%.2f", l->tx_bias_ma.v);
			rd_xcvr_fmt_dbm(tx, sizeof(tx), l->tx_power_mw, "no light");
			rd_xcvr_fmt_dbm(rx, sizeof(rx), l->rx_power_mw, "no light");
			rd_print_text(p, "  %4" PRIu64 "  %10s  %-8s  %-8s  %-6s  %s\n",
				      l->lane, bias, tx, rx, yes_no(l->rx_los),
				      yes_no(l->tx_fault));
		}
	}
results:
	for (size_t i = 0; i < res->n; i++) {
		const struct rd_result *r = &res->v[i];

		rd_print_text(p, "  %-7s %-14s %s\n", rd_verdict_name(r->verdict),
			      r->check_id, r->summary ? rd_esc_tmp(r->summary) : "");
		if (r->next_step && r->verdict != RD_PASS)
			rd_print_text(p, "          next: %s\n",
				      rd_esc_tmp(r->next_step));
	}
}

/* The phy checks on one port of s; only module and optics for a dump. */
static int judge(const struct rd_snapshot *s, const char *dev, uint64_t port,
		 bool dump, struct rd_results *out)
{
	struct rd_diag_opts o;
	struct rd_results all = { 0 };
	int r;

	rd_diag_opts_init(&o);
	o.device = dev;
	o.port = port;
	o.only_area = "phy";
	r = rd_diag_run(s, NULL, &o, &all);
	out->v = calloc(all.n ? all.n : 1, sizeof(*out->v));
	out->n = 0;
	if (!out->v) {
		rd_results_free(&all);
		return -ENOMEM;
	}
	for (size_t i = 0; i < all.n; i++) {
		if (dump && strcmp(all.v[i].check_id, "phy.module") &&
		    strcmp(all.v[i].check_id, "phy.optics"))
			continue;
		out->v[out->n++] = all.v[i];
		memset(&all.v[i], 0, sizeof(all.v[i]));
	}
	rd_results_free(&all);
	return r;
}

/* A one-port snapshot around a dump: device "dump", netdev "dump". */
static int dump_snapshot(struct rd_cli *cli, const char *path,
			 struct rd_snapshot *s)
{
	struct rd_xcvr_mem *mem = calloc(1, sizeof(*mem));
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *n;
	char *buf = NULL;
	size_t len = 0;
	int r;

	if (!mem)
		return -ENOMEM;
	r = rd_read_file(path, DUMP_MAX, &buf, &len);
	if (r < 0) {
		cli_error(cli, "%s: %s", rd_esc_tmp(path),
			  r == -EFBIG ? "larger than a module dump (64 KiB)" :
					strerror(-r));
		free(mem);
		return r;
	}
	r = rd_xcvr_mem_from_dump((const uint8_t *)buf, len, mem);
	free(buf);
	if (r < 0) {
		cli_error(cli, "%s: not a module memory dump (ethtool -m IF raw on, "
			       "or hex on)", rd_esc_tmp(path));
		free(mem);
		return r;
	}
	rd_snapshot_init(s);
	d = RD_PUSH(s->devices, s->n_devices);
	n = d ? RD_PUSH(s->netdevs, s->n_netdevs) : NULL;
	p = d ? RD_PUSH(d->ports, d->n_ports) : NULL;
	if (!d || !n || !p || rd_str_set(&d->name, "dump") ||
	    rd_str_set(&n->name, "dump") || rd_str_set(&n->rdma_device, "dump") ||
	    rd_str_set(&p->link_layer, "Ethernet") ||
	    rd_str_set(&p->netdev, "dump") ||
	    rd_str_set(&n->xcvr.source, "dump")) {
		free(mem);
		return -ENOMEM;
	}
	p->port = 1;
	n->rdma_port = rd_u64(1);
	r = rd_xcvr_decode(mem, &n->xcvr);
	if (r == 0) {
		n->xcvr.present = rd_bool(true);
		r = rd_xcvr_pages_save(mem, &n->xcvr);
	}
	free(mem);
	if (r < 0)
		cli_error(cli, "%s: the dump holds no module identifier",
			  rd_esc_tmp(path));
	return r;
}

int cmd_module(struct rd_cli *cli, int argc, char **argv)
{
	struct mod_opts o = { 0 };
	const struct cli_opt opts[] = {
		CLI_FLAG("json", 0, &o.json),
		CLI_TEXT("device", 'd', &o.device),
		CLI_U64("ib-port", 'i', &o.port, 1, 255),
		CLI_TEXT("load", 0, &o.load),
		CLI_END,
	};
	struct rd_snapshot s;
	struct rd_printer p;
	enum rd_verdict worst = RD_PASS;
	char err[512];
	const char *dump = NULL;
	size_t shown = 0;
	int r;

	CLI_PARSE_OR_RETURN(cli, "module", opts, module_usage, argc, argv, 3);
	if (optind < argc)
		dump = argv[optind++];
	if (optind < argc || (dump && (o.load || o.device || o.port))) {
		module_usage(stderr);
		return 3;
	}
	if (dump)
		r = dump_snapshot(cli, dump, &s);
	else if (o.load) {
		r = rd_recording_load_last(o.load, &s, err, sizeof(err));
		if (r < 0)
			cli_error(cli, "%s", err);
	} else {
		r = rd_snapshot_take(&cli->roots, NULL, 0, 0, &s);
		if (r < 0)
			cli_error(cli, "cannot take a snapshot: %s",
				  rd_esc_tmp(cli->roots.sysfs));
	}
	if (r < 0) {
		rd_snapshot_free(&s);
		return 3;
	}
	rd_print_begin(&p, stdout, o.json);
	if (o.json)
		rd_print_open_array(&p, NULL);
	for (size_t i = 0; i < s.n_devices; i++) {
		const struct rd_device *d = &s.devices[i];

		if (o.device && (!d->name || strcmp(d->name, o.device)))
			continue;
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct rd_port *pt = &d->ports[j];
			const struct rd_netdev *n =
				pt->netdev ? rd_snapshot_netdev(&s, pt->netdev) : NULL;
			struct rd_results res = { 0 };
			char target[160];

			if ((o.port && pt->port != o.port) || !n ||
			    (!n->xcvr.identifier.ok && !n->xcvr.error &&
			     !n->xcvr.present.ok))
				continue;
			snprintf(target, sizeof(target), "%s/%" PRIu64,
				 d->name ? d->name : "?", pt->port);
			if (judge(&s, d->name, pt->port, dump != NULL, &res) < 0) {
				rd_results_free(&res);
				continue;
			}
			if (rd_results_worst(&res) > worst)
				worst = rd_results_worst(&res);
			if (o.json)
				module_json(&p, target, n->name, &n->xcvr, &res);
			else
				module_text(&p, target, n->name, &n->xcvr, &res);
			shown++;
			rd_results_free(&res);
		}
	}
	if (o.json)
		rd_print_close(&p);
	rd_print_end(&p);
	rd_snapshot_free(&s);
	if (!shown) {
		cli_error(cli, "no module data: no RoCE port with a module%s%s",
			  o.device ? " on " : "",
			  o.device ? rd_esc_tmp(o.device) : "");
		return 3;
	}
	return cli_verdict_status(worst, false);
}
