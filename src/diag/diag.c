// SPDX-License-Identifier: GPL-2.0-or-later
/* Results: running the table, sorting, names, text and JSON. */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/escape.h"
#include "core/print.h"

void rd_diag_opts_init(struct rd_diag_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->numa_node_wanted = -1;
}

int rd_diag_filter_check(const struct rd_snapshot *s,
			 const struct rd_diag_opts *o, char *why, size_t len)
{
	const char *dev = o ? o->device : NULL;
	bool named = false;

	if (!o || (!dev && !o->port))
		return 0;
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];

		if (dev && (!d->name || strcmp(d->name, dev) != 0))
			continue;
		named = true;
		for (size_t j = 0; j < d->n_ports; j++)
			if (!o->port || d->ports[j].port == o->port)
				return 0;
	}
	if (dev && !named)
		snprintf(why, len, "no RDMA device %s%s", dev,
			 s->n_devices ? "" : " (the host has none)");
	else if (!dev && s->n_devices == 0)
		return 0;
	else if (dev)
		snprintf(why, len, "%s has no port %" PRIu64, dev,
			 o->port);
	else
		snprintf(why, len, "no RDMA device has a port %" PRIu64,
			 o->port);
	return -ENODEV;
}

bool rd_diag_only_selects(const struct rd_check *c, const char *only)
{
	size_t a = strlen(c->area);

	if (!only)
		return true;
	/* An area, also written as the start of its ids ("port."). */
	if (strncasecmp(only, c->area, a) == 0 &&
	    (only[a] == '\0' || strcmp(only + a, ".") == 0))
		return true;
	return strcasecmp(only, c->id) == 0 ||
	       strcasecmp(only, rd_layer_name(c->layer)) == 0;
}

bool rd_diag_only_known(const char *only)
{
	for (size_t i = 0; only && i < rd_n_checks; i++)
		if (rd_diag_only_selects(&rd_checks[i], only))
			return true;
	return false;
}

int rd_diag_run(const struct rd_snapshot *s, const struct rd_history *h,
		const struct rd_diag_opts *o, struct rd_results *out)
{
	struct rd_diag_opts def;
	int err = 0;

	out->v = NULL;
	out->n = 0;
	if (!o) {
		rd_diag_opts_init(&def);
		o = &def;
	}
	for (size_t i = 0; i < rd_n_checks; i++) {
		struct diag_ctx x = { .c = &rd_checks[i], .s = s, .h = h,
				      .o = o, .out = out };

		if (!rd_diag_only_selects(x.c, o->only_area))
			continue;
		if (x.c->run)
			x.c->run(&x);
		else
			diag_walk(&x);
		diag_result_clear(&x.scratch);
		if (x.err < 0 && !err)
			err = x.err;
	}
	return err;
}

/* Insertion sort: results are few, and stability keeps table order. */
void rd_results_sort(struct rd_results *r)
{
	for (size_t i = 1; i < r->n; i++) {
		struct rd_result tmp = r->v[i];
		size_t j = i;

		while (j > 0) {
			const struct rd_result *p = &r->v[j - 1];

			if (p->layer < tmp.layer ||
			    (p->layer == tmp.layer && p->verdict >= tmp.verdict))
				break;
			r->v[j] = r->v[j - 1];
			j--;
		}
		r->v[j] = tmp;
	}
}

int rd_finding_rank(const struct rd_result *r)
{
	int rank = (int)r->verdict * 100;

	if (r->check_id && strcmp(r->check_id, "host.container") == 0 &&
	    r->verdict == RD_FAIL)
		rank += 90;
	else if (r->check_id && strcmp(r->check_id, "port.state") == 0)
		rank += 50;
	/* a port that went down and came back is what the page was for */
	else if (r->check_id && strcmp(r->check_id, "port.flaps") == 0 &&
		 r->verdict == RD_WARN)
		rank += 40;
	return rank + (RD_LAYER_COUNT - (int)r->layer);
}

const struct rd_result *rd_results_top(const struct rd_results *r)
{
	const struct rd_result *best = NULL;

	for (size_t i = 0; r && i < r->n; i++) {
		const struct rd_result *x = &r->v[i];

		if (x->verdict != RD_FAIL && x->verdict != RD_WARN)
			continue;
		if (!best || rd_finding_rank(x) > rd_finding_rank(best))
			best = x;
	}
	return best;
}

enum rd_verdict rd_results_worst(const struct rd_results *r)
{
	enum rd_verdict w = RD_PASS;

	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].verdict > w)
			w = r->v[i].verdict;
	return w;
}

const char *rd_result_no_fix_reason(const struct rd_result *r)
{
	static const struct {
		const char *cause, *why;
	} reasons[] = {
		{ "no_carrier", "the link needs the cable, module, peer or "
				"switch port, which is outside this host" },
		{ "no_sm", "a subnet manager runs on the fabric (opensm on a "
			   "host or the switch), not as a setting here" },
		{ "vf_not_configured", "a VF's GUIDs are set on its PF, on the "
				       "host, and the SM's virtualization on "
				       "the fabric" },
		{ "port_down", "the cause is not known: nothing is changed on "
			       "a guess" },
		{ "not_activated", "the subnet manager's state was not read: "
				   "nothing is changed on a guess" },
		{ "fw_below_min", "firmware is updated with the vendor's tool "
				  "and a reset, not changed in place" },
		{ "pcie_degraded", "the PCIe link trains in hardware: slot, "
				   "riser or BIOS setting" },
		{ "memlock_low", "the limit belongs to the process or its "
				 "service unit, not to the host" },
		{ "uverbs_missing", "device nodes come from the driver and "
				    "udev (or the container's runtime)" },
		/* With its flags read, admin_down carries a fix-up. */
		{ "admin_down", "the netdev's state was not read: nothing is "
				"changed on a guess" },
	};

	if (r->no_fix)
		return r->no_fix;
	if (r->cause && strcmp(r->cause, "port_not_active") == 0)
		return "this check is judged once the port is ACTIVE";
	if (r->verdict == RD_UNKNOWN)
		return "the data needed was not read";
	for (size_t i = 0; r->cause && i < sizeof(reasons) / sizeof(reasons[0]);
	     i++)
		if (strcmp(r->cause, reasons[i].cause) == 0)
			return reasons[i].why;
	return "rdmadiag has no safe change for this; the next step says "
	       "what to do";
}

const char *rd_verdict_name(enum rd_verdict v)
{
	static const char *const names[] = { "PASS", "UNKNOWN", "WARN",
					     "FAIL" };

	return (unsigned)v < 4 ? names[v] : "?";
}

static const struct {
	const char *name, *title;
} layers[RD_LAYER_COUNT] = {
	[RD_LAYER_HW] = { "hw", "Hardware and firmware" },
	[RD_LAYER_PHY] = { "phy", "Cable and PHY" },
	[RD_LAYER_DRIVER] = { "driver", "Driver" },
	[RD_LAYER_USER] = { "user", "User-space library" },
	[RD_LAYER_PORT] = { "port", "Port" },
	[RD_LAYER_NETCFG] = { "netcfg", "Network configuration" },
	[RD_LAYER_HOST] = { "host", "Host" },
	[RD_LAYER_GPU] = { "gpu", "GPU paths (GPUDirect RDMA)" },
};

const char *rd_layer_name(enum rd_layer l)
{
	return (unsigned)l < RD_LAYER_COUNT ? layers[l].name : "?";
}

const char *rd_layer_title(enum rd_layer l)
{
	return (unsigned)l < RD_LAYER_COUNT ? layers[l].title : "?";
}

const char *rd_verdict_pick(enum rd_verdict v, const char *const by[4])
{
	return (unsigned)v < 4 ? by[v] : by[RD_UNKNOWN];
}

static const char *verdict_sgr(enum rd_verdict v)
{
	static const char *const sgr[] = { "\033[32m", "\033[36m",
					   "\033[33m", "\033[1;31m" };

	return rd_verdict_pick(v, sgr);
}

/*
 * The command to copy is built of shell-quoted words (rd_shquote), which
 * hold no control byte: print it as it is, so quoting survives; escape it
 * only if something else slipped in.
 */
static void print_command(struct rd_printer *p, const char *cmd)
{
	rd_print_str(p, "command", NULL, cmd);
	if (p->json)
		return;
	rd_print_text(p, "%28s ", "fix:");
	if (cmd && rd_text_clean(cmd, strlen(cmd)))
		rd_print_text(p, "%s\n", cmd);
	else
		rd_print_str(p, NULL, "%s\n", cmd);
}

static void print_fix(struct rd_printer *p, const struct rd_result *r)
{
	const struct rd_fixup *f = r->fix;

	if (!f) {
		rd_print_null(p, "fix", NULL);
		return;
	}
	rd_print_open_object(p, "fix");
	rd_print_str(p, "id", NULL, f->id);
	print_command(p, f->command);
	rd_print_str(p, "impact", NULL, f->impact);
	rd_print_bool(p, "disruptive", NULL, f->disruptive);
	rd_print_bool(p, "undoable", NULL, f->undoable);
	rd_print_close(p);
	if (p->json)
		return;
	rd_print_text(p, "%28s rdmadiag fix %s", "", r->check_id);
	if (r->device)
		rd_print_text(p, " --device %s", rd_shquote_tmp(r->device));
	if (r->port)
		rd_print_text(p, " --port %" PRIu64, r->port);
	rd_print_text(p, "\n");
}

void rd_result_print(struct rd_printer *p, const struct rd_result *res,
		     bool verbose)
{
	bool detail = verbose || res->verdict != RD_PASS;

	rd_print_open_object(p, NULL);
	rd_print_text(p, "  ");
	rd_print_color(p, verdict_sgr(res->verdict));
	rd_print_str(p, NULL, "%-7s", rd_verdict_name(res->verdict));
	rd_print_color(p, "\033[0m");
	rd_print_str(p, "check", " %-18s", res->check_id);
	rd_print_str(p, "title", NULL, res->title);
	rd_print_str(p, "layer", NULL, rd_layer_name(res->layer));
	rd_print_str(p, "layer_title", NULL, rd_layer_title(res->layer));
	rd_print_str(p, "device", NULL, res->device);
	if (res->port)
		rd_print_u64(p, "port", NULL, res->port);
	else
		rd_print_null(p, "port", NULL);
	rd_print_str(p, "netdev", NULL, res->netdev);
	rd_print_str(p, "verdict", NULL, rd_verdict_name(res->verdict));
	rd_print_str(p, "cause", NULL, res->cause);
	rd_print_str(p, "summary", " %s\n", res->summary ? res->summary : "");
	if (!detail && !p->json)
		goto out;
	rd_print_str(p, "why", NULL, res->why);
	rd_print_str(p, "next_step", NULL, res->next_step);
	rd_print_open_array(p, "path");
	for (size_t i = 0; i < res->n_path; i++) {
		bool show = res->n_path > 1 || verbose;

		rd_print_open_object(p, NULL);
		if (show)
			rd_print_text(p, "%28s %s ", i ? "" : "path:",
				      i ? "->" : "  ");
		rd_print_str(p, "step", show ? "%s\n" : NULL, res->path[i].text);
		rd_print_str(p, "verdict", NULL,
			     rd_verdict_name(res->path[i].verdict));
		rd_print_close(p);
	}
	rd_print_close(p);
	rd_print_open_array(p, "evidence");
	for (size_t i = 0; i < res->n_evidence; i++) {
		const struct rd_evidence *e = &res->evidence[i];

		rd_print_open_object(p, NULL);
		rd_print_text(p, "%28s ", i ? "" : "evidence:");
		rd_print_str(p, "what", "%s: ", e->what);
		rd_print_str(p, "value", "%s", e->value);
		rd_print_str(p, "source", e->source && e->source[0] ? "  [%s]" : NULL,
			     e->source);
		rd_print_text(p, "\n");
		rd_print_close(p);
	}
	rd_print_close(p);
	if (verbose && res->why) {
		rd_print_text(p, "%28s ", "why:");
		rd_print_str(p, NULL, "%s\n", res->why);
	}
	if (res->verdict != RD_PASS && res->next_step) {
		rd_print_text(p, "%28s ", "next:");
		rd_print_str(p, NULL, "%s\n", res->next_step);
	}
	print_fix(p, res);
out:
	rd_print_close(p);
}

void rd_results_print(struct rd_printer *p, const struct rd_results *r,
		      bool verbose)
{
	size_t count[4] = { 0 };

	rd_print_open_array(p, NULL);
	for (int l = 0; l < RD_LAYER_COUNT; l++) {
		bool header = false;

		for (size_t i = 0; i < r->n; i++) {
			if ((int)r->v[i].layer != l)
				continue;
			if (!header) {
				rd_print_color(p, "\033[1m");
				rd_print_text(p, "%s", rd_layer_title(l));
				rd_print_color(p, "\033[0m");
				rd_print_text(p, "\n");
				header = true;
			}
			rd_result_print(p, &r->v[i], verbose);
		}
	}
	rd_print_close(p);
	for (size_t i = 0; i < r->n; i++)
		count[r->v[i].verdict & 3]++;
	rd_print_text(p, "\n%zu result%s: %zu FAIL, %zu WARN, %zu UNKNOWN, %zu PASS\n",
		      r->n, r->n == 1 ? "" : "s", count[RD_FAIL], count[RD_WARN], count[RD_UNKNOWN],
		      count[RD_PASS]);
}

struct json_object *rd_result_to_json(const struct rd_result *res)
{
	struct rd_printer p;

	rd_print_begin(&p, NULL, true);
	rd_result_print(&p, res, true);
	return rd_print_take_json(&p);
}

struct json_object *rd_results_to_json(const struct rd_results *r)
{
	struct rd_printer p;

	rd_print_begin(&p, NULL, true);
	rd_results_print(&p, r, true);
	return rd_print_take_json(&p);
}
