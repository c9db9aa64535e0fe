// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "views/text_snapshot.h"

#include <inttypes.h>
#include <string.h>

#include "core/attr.h"
#include "core/escape.h"

#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_BOLD "\033[1m"
#define C_OFF "\033[0m"

/* Outside text, escaped for the terminal; "-" when absent. */
static const char *na(const char *s)
{
	return s && *s ? rd_esc_tmp(s) : "-";
}

static const char *state_color(const struct rd_port *p)
{
	static const char *const colors[] = { C_GREEN, C_YELLOW, C_YELLOW,
					      C_RED };

	return rd_verdict_pick(rd_diag_port_state(p), colors);
}

/* text padded to width; a longer one keeps one space before the next.
 * Width counts characters: UTF-8 continuation bytes take no column. */
static void cell(FILE *f, const char *text, int width, const char *color)
{
	int len = 0;

	for (const char *c = text; *c; c++)
		len += ((unsigned char)*c & 0xc0) != 0x80;

	if (color)
		fprintf(f, "%s%s%s", color, text, C_OFF);
	else
		fputs(text, f);
	do
		fputc(' ', f);
	while (++len < width);
}

static void rate_text(const struct rd_port *p, char *buf, size_t size)
{
	if (!p->rate_gbps.ok)
		snprintf(buf, size, "-");
	else if (p->width)
		snprintf(buf, size, "%g Gb/s %s%s%s", p->rate_gbps.v,
			 rd_esc_tmp(p->width), p->speed ? " " : "",
			 p->speed ? rd_esc_tmp(p->speed) : "");
	else
		snprintf(buf, size, "%g Gb/s", p->rate_gbps.v);
}

static const char *first_v2_ipv4(const struct rd_port *p, char *buf,
				 size_t size)
{
	for (size_t i = 0; i < p->n_gids; i++) {
		const struct rd_gid *g = &p->gids[i];
		static const uint8_t v4map[12] = { 0, 0, 0, 0, 0, 0,
						   0, 0, 0, 0, 0xff, 0xff };

		if (!g->raw_ok || memcmp(g->raw, v4map, 12) != 0)
			continue;
		if (g->type && strstr(g->type, "v2")) {
			snprintf(buf, size, "%" PRIu64 ":%u.%u.%u.%u", g->index,
				 g->raw[12], g->raw[13], g->raw[14], g->raw[15]);
			return buf;
		}
	}
	return "-";
}

void view_text_snapshot(FILE *f, const struct rd_snapshot *s, bool color,
			bool verbose)
{
	enum { W_DEV = 10, W_PORT = 5, W_STATE = 8, W_PHYS = 10, W_RATE = 20,
	       W_LL = 11, W_ND = 10, W_GID = 20 };

	if (s->n_devices == 0) {
		fprintf(f, "No RDMA devices found (%s/class/infiniband is empty or absent).\n",
			s->source && strcmp(s->source, "live") ?
				rd_esc_tmp(s->source) : "/sys");
		fprintf(f, "Hint: load the NIC's RDMA driver (e.g. modprobe mlx5_ib), "
			   "or create a Soft-RoCE device:\n"
			   "      rdma link add rxe0 type rxe netdev eth0\n");
	} else {
		if (color)
			fputs(C_BOLD, f);
		fprintf(f, "%-*s%-*s%-*s%-*s%-*s%-*s%-*s%-*s%s\n", W_DEV, "DEVICE",
			W_PORT, "PORT", W_STATE, "STATE", W_PHYS, "PHYSICAL",
			W_RATE, "RATE", W_LL, "LINK", W_ND, "NETDEV", W_GID,
			"ROCEv2 GID", "FIRMWARE");
		if (color)
			fputs(C_OFF, f);
	}
	for (size_t i = 0; i < s->n_devices; i++) {
		const struct rd_device *d = &s->devices[i];
		char buf[96], port[16];

		if (d->n_ports == 0) {
			cell(f, na(d->name), W_DEV, NULL);
			fprintf(f, "(no ports readable)\n");
		}
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct rd_port *p = &d->ports[j];

			cell(f, j == 0 ? na(d->name) : "", W_DEV, NULL);
			snprintf(port, sizeof(port), "%" PRIu64, p->port);
			cell(f, port, W_PORT, NULL);
			cell(f, na(p->state), W_STATE,
			     color ? state_color(p) : NULL);
			cell(f, na(p->phys_state), W_PHYS,
			     color ? state_color(p) : NULL);
			rate_text(p, buf, sizeof(buf));
			cell(f, buf, W_RATE, NULL);
			cell(f, na(p->link_layer), W_LL, NULL);
			cell(f, na(p->netdev), W_ND, NULL);
			cell(f, first_v2_ipv4(p, buf, sizeof(buf)), W_GID, NULL);
			fprintf(f, "%s\n", j == 0 ? na(d->fw_ver) : "");
		}
		if (verbose) {
			char guid[32] = "-";

			if (d->node_guid.ok)
				rd_format_guid(d->node_guid.v, guid, sizeof(guid));
			fprintf(f, "%*s node_type %s  node_guid %s  driver %s  pci %s  uverbs %s\n",
				W_DEV, "", na(d->node_type), guid, na(d->driver),
				na(d->pci_bdf), na(d->uverbs));
		}
	}
	if (s->n_errors) {
		fprintf(f, "\n%zu item%s could not be read%s\n", s->n_errors,
			s->n_errors == 1 ? "" : "s", verbose ? ":" : " (-v lists them)");
		for (size_t i = 0; verbose && i < s->n_errors; i++) {
			const struct rd_error *e = &s->errors[i];

			fprintf(f, "  [%s] %s: %s\n", na(e->source), na(e->where),
				na(e->message));
		}
	}
}
