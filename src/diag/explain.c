// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Completion errors explained: what the pasted text says, and which likely
 * cause this host's counters and check results point at.
 */
#include "config.h"
#include "diag/explain.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/model.h"
#include "diag/diag_int.h"

/*
 * The causes, one row each; wc_status.tsv and mlx5_syndromes.tsv name them
 * in order of likelihood. Counter names are those of data/counters.tsv
 * (mlx5 and rxe hw_counters, IB PMA counters, mlx5 ethtool statistics).
 */
const struct rd_explain_cause rd_explain_causes[] = {
	{ "peer_unreachable",
	  "the peer is not reachable on the path used: wrong GID index or "
	  "address, a RoCE version or subnet mismatch, or its port is down",
	  "local_ack_timeout_err|vport_local_ack_timeout_err|req_transport_"
	  "retries_exceeded|vport_req_transport_retries_exceeded|retry_"
	  "exceeded_err|completer_retry_err",
	  "port.state|port.rocev2_gid|rdma_cm.roce_mode|net.udp4791|port.pkey",
	  "the peer host, its port and the switch in between",
	  "compare the GID index and address both sides use (a RoCE v2 IPv4 "
	  "GID on both, same subnet or a route), ping the peer's RoCE address, "
	  "and check the peer's port is ACTIVE" },
	{ "packet_loss",
	  "packets are lost on the path (congestion with no lossless "
	  "configuration, or buffer overflow), so acknowledgements never come "
	  "back",
	  "out_of_sequence|vport_out_of_sequence|packet_seq_err|vport_packet_"
	  "seq_err|implied_nak_seq_err|vport_implied_nak_seq_err|duplicate_"
	  "request|rcvd_seq_err|out_of_buffer|rx_discards_phy|rx_out_of_buffer|"
	  "rx_prio[0-7]_discards|rx_prio[0-7]_buf_discard|rx_prio[0-7]_cong_"
	  "discard|roce_adp_retrans|port_xmit_discards",
	  "qos.pfc|qos.ecn", "switch drop counters on the path",
	  "make the RoCE priority lossless end to end (PFC on the same "
	  "priority on NIC and switch, ECN/DCQCN on), and look at the switch "
	  "ports' drop counters" },
	{ "link_errors",
	  "a bad or flapping link: bit errors, CRC errors or the link going "
	  "down",
	  "symbol_error|link_error_recovery|link_downed|port_rcv_errors|local_"
	  "link_integrity_errors|link_down_events_phy|rx_crc_errors_phy|rx_"
	  "symbol_err_phy|rx_pcs_symbol_err_phy",
	  "port.state|port.flaps|port.rate|hw.pcie_link",
	  "the peer's port counters and the switch port",
	  "reseat or replace the cable or transceiver, and compare the error "
	  "counters of the switch port at the other end" },
	{ "pause_storm",
	  "PFC pause frames stall the port (a pause storm or heavy "
	  "back-pressure), so packets wait past the ACK timeout",
	  "rx_prio[0-7]_pause|tx_prio[0-7]_pause|rx_prio[0-7]_pause_duration|"
	  "tx_prio[0-7]_pause_duration|rx_pause_ctrl_phy|tx_pause_ctrl_phy|tx_"
	  "pause_storm_warning_events|tx_pause_storm_error_events|rx_global_"
	  "pause|tx_global_pause|port_xmit_wait",
	  "", "the switch's pause counters",
	  "find which side sends the pauses (tx_prioN_pause here, the switch's "
	  "counters there); a host that stops receiving can pause the whole "
	  "fabric" },
	{ "mtu",
	  "a message or MTU larger than the path or the receiver accepts",
	  "rx_oversize_pkts_phy|rx_out_of_range_len_phy|resp_local_length_"
	  "error|vport_resp_local_length_error",
	  "port.mtu|port.ib_mtu", "the switch ports' MTU",
	  "use the same active MTU on both ends (the netdev MTU must hold the "
	  "RoCE MTU plus headers) and check the switch ports' MTU" },
	{ "ack_timeout",
	  "the ACK timeout or retry count is too short for the fabric's delay",
	  "", "", "the QP attributes the application set",
	  "raise the QP's timeout (ibv_modify_qp timeout 14 or more: 4.096 us "
	  "x 2^14 = 67 ms; NCCL_IB_TIMEOUT, UCX_RC_TIMEOUT) and keep retry_cnt "
	  "at 7" },
	{ "rnr",
	  "the receiver had no receive buffer posted when a send arrived "
	  "(receiver not ready)",
	  "rnr_nak_retry_err|vport_rnr_nak_retry_err|req_rnr_retries_exceeded|"
	  "vport_req_rnr_retries_exceeded|rcvd_rnr_err|send_rnr_err|retry_rnr_"
	  "exceeded_err|out_of_buffer",
	  "", "the receiving application",
	  "post receives before the peer sends and keep the receive queue deep "
	  "enough; set rnr_retry to 7 (retry for ever) and a larger "
	  "min_rnr_timer" },
	{ "peer_gone",
	  "the peer's process exited or destroyed its QP while traffic was in "
	  "flight",
	  "", "", "the peer's own log",
	  "read the peer's log for its first error; this side's error is often "
	  "the echo of the peer's exit" },
	{ "qp_error_before",
	  "an earlier error put the QP into the error state; this completion "
	  "is only flushed",
	  "req_cqe_flush_error|resp_cqe_flush_error|vport_req_cqe_flush_error|"
	  "vport_resp_cqe_flush_error|req_cqe_error|resp_cqe_error",
	  "", "the first error in the application's log",
	  "look for the first completion error before this one (not a flush): "
	  "that one has the cause" },
	{ "peer_state",
	  "the two QPs disagree: the peer's QP is in error, was reset, or was "
	  "connected to another QP",
	  "req_remote_invalid_request|vport_req_remote_invalid_request|out_of_"
	  "seq_request",
	  "", "the peer's QP state and log",
	  "check the peer's log and that both sides exchanged the same QP "
	  "numbers, PSNs and GIDs" },
	{ "mr_access",
	  "the memory region does not cover the buffer or lacks the access "
	  "right (wrong lkey/rkey, address, length or access flags, or it was "
	  "deregistered)",
	  "req_remote_access_errors|vport_req_remote_access_errors|resp_remote_"
	  "access_errors|vport_resp_remote_access_errors",
	  "", "the application's memory registration",
	  "check the lkey/rkey, address and length against the registered "
	  "region, and its access flags (IBV_ACCESS_REMOTE_WRITE/READ/ATOMIC, "
	  "IBV_ACCESS_LOCAL_WRITE for receives)" },
	{ "gpu_memory",
	  "the NIC could not reach GPU memory: GPUDirect RDMA peer memory "
	  "missing, or PCIe ACS/IOMMU blocking peer-to-peer",
	  "", "hw.pcie_link|driver.modules",
	  "the GPU driver (nvidia_peermem) and the PCIe topology",
	  "load nvidia_peermem (or use dma-buf), disable PCIe ACS on the "
	  "switches between NIC and GPU, and check the IOMMU mode" },
	{ "memlock",
	  "the locked-memory limit stopped a registration the application did "
	  "not check",
	  "", "host.memlock|host.container", NULL,
	  "raise the locked-memory limit (ulimit -l unlimited, or "
	  "CAP_IPC_LOCK) for the job" },
	{ "odp",
	  "an on-demand-paging fault the device could not resolve (the page is "
	  "not mapped)",
	  "", "", "the application's memory",
	  "check that the buffer is mapped for the whole transfer, or register "
	  "it without ODP" },
	{ "app_request",
	  "the application posted a work request the QP cannot carry out "
	  "(opcode, sizes or SGE count)",
	  "", "dev.cq_size", "the application's work requests",
	  "check the work request against the QP's capabilities (max_send_sge, "
	  "max_inline_data, the opcode for this QP type)" },
	{ "device_fatal",
	  "the device or driver hit a fatal error (firmware health event, PCIe "
	  "error)",
	  "", "hw.pcie_link|fw.version|driver.*|user.*", "the kernel log",
	  "read the kernel log for mlx5 health or PCIe AER messages; reset the "
	  "device or update its firmware" },
};
const size_t rd_n_explain_causes =
	sizeof(rd_explain_causes) / sizeof(rd_explain_causes[0]);

const struct rd_explain_cause *rd_explain_cause_find(const char *id)
{
	for (size_t i = 0; id && i < rd_n_explain_causes; i++)
		if (strcmp(rd_explain_causes[i].id, id) == 0)
			return &rd_explain_causes[i];
	return NULL;
}

/* ---- parsing ---- */

static bool mlx5_codes_apply(const struct rd_explain_input *in);

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void note(struct rd_explain_input *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct rd_explain_input *in, const char *fmt, ...)
{
	size_t off = strlen(in->recognised);
	va_list ap;

	if (off + 3 >= sizeof(in->recognised))
		return;
	if (off)
		off += (size_t)snprintf(in->recognised + off,
					sizeof(in->recognised) - off, "; ");
	va_start(ap, fmt);
	vsnprintf(in->recognised + off, sizeof(in->recognised) - off, fmt, ap);
	va_end(ap);
}

/* A number at p: "0x81" hex, else decimal; -1 when none or > 65535. */
static long number_at(const char *p, const char **end)
{
	long v = 0;
	int base = 10, digits = 0;

	if (p[0] == '0' && p[1] == 'x' && isxdigit((unsigned char)p[2])) {
		base = 16;
		p += 2;
	}
	for (; *p; p++, digits++) {
		int d = isdigit((unsigned char)*p) ? *p - '0' :
			(base == 16 && isxdigit((unsigned char)*p)) ?
							tolower((unsigned char)*p) - 'a' + 10 :
							-1;
		if (d < 0)
			break;
		v = v * base + d;
		if (v > 65535)
			return -1;
	}
	if (!digits || word_char(*p))
		return -1;
	if (end)
		*end = p;
	return v;
}

/*
 * The number after key (key at a word start; then spaces, '=' or ':'),
 * at its first occurrence that has one; -1 when none.
 */
static long number_after(const char *low, const char *key, const char *bad_next)
{
	size_t kl = strlen(key);

	for (const char *p = strstr(low, key); p; p = strstr(p + 1, key)) {
		const char *q = p + kl;
		long v;

		if (p > low && word_char(p[-1]))
			continue;
		if (bad_next && strchr(bad_next, *q))
			continue;
		q += strspn(q, " \t=:#(");
		v = number_at(q, NULL);
		if (v >= 0)
			return v;
	}
	return -1;
}

/* Whole-word occurrence of w in low. */
static bool has_word(const char *low, const char *w)
{
	size_t wl = strlen(w);

	if (!wl)
		return false;
	for (const char *p = strstr(low, w); p; p = strstr(p + 1, w))
		if ((p == low || !word_char(p[-1])) && !word_char(p[wl]))
			return true;
	return false;
}

static void lower_copy(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && src[i]; i++)
		dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

/* Text other tools print for a status, where it is not ibv_wc_status_str's. */
static const struct {
	const char *text;
	int status;
} status_aliases[] = {
	{ "receive-no-ready retry", 13 },
	{ "rnr retry", 13 },
	{ "rnr_retry", 13 },
	{ "transport retry count", 12 },
	{ "retry count exceeded", 12 },
	{ "retry counter exceeded", 12 },
	{ "wr flushed", 5 },
	{ "work request flushed", 5 },
	{ "wr flush", 5 },
	{ "local protection", 4 },
	{ "local length", 1 },
	{ "local access", 8 },
	{ "remote access", 10 },
	{ "remote side aborted", 16 },
	{ "remote invalid request", 9 },
	{ "remote op", 11 },
	{ "bad response", 7 },
	{ "memory window bind", 6 },
};

static const char *const device_prefixes[] = {
	"mlx5_", "mlx4_", "rxe", "siw", "bnxt_re", "irdma", "qedr", "hns_",
	"erdma", "efa_", "ionic_",
};

static void find_device(const char *low, struct rd_explain_input *in)
{
	for (size_t i = 0; i < sizeof(device_prefixes) / sizeof(device_prefixes[0]); i++) {
		const char *k = device_prefixes[i];

		for (const char *p = strstr(low, k); p; p = strstr(p + 1, k)) {
			size_t n = 0;
			long port;

			if (p > low && word_char(p[-1]))
				continue;
			while (word_char(p[n]) && n + 1 < sizeof(in->device))
				n++;
			if (n == strlen(k) && k[n - 1] == '_')
				continue;
			memcpy(in->device, p, n);
			in->device[n] = '\0';
			if (p[n] == ':' && (port = number_at(p + n + 1, NULL)) > 0 &&
			    port < 256)
				in->port = (unsigned)port;
			return;
		}
	}
}

int rd_explain_parse(const char *text, const struct rd_wc_status_table *wc,
		     const struct rd_mlx5_table *m,
		     struct rd_explain_input *in)
{
	char *low;
	int by_name = -1, by_num = -1, by_text = -1;
	size_t best = 0;
	const char *t;
	long v;

	*in = (struct rd_explain_input){ .status = -1, .vendor_err = -1,
					 .syndrome = -1 };
	if (!text)
		return 0;
	in->truncated = strlen(text) > RD_EXPLAIN_INPUT_MAX;
	low = malloc(RD_EXPLAIN_INPUT_MAX + 1);
	if (!low)
		return -ENOMEM;
	lower_copy(low, text, RD_EXPLAIN_INPUT_MAX + 1);

	/* The tool that printed the line. */
	if (strstr(low, "completion with error at") || strstr(low, "failed status"))
		in->tool = "perftest";
	else if (strstr(low, "nccl") || strstr(low, "net/ib"))
		in->tool = "NCCL";
	else if (strstr(low, "ib_mlx5_log") || strstr(low, "uct_") ||
		 strstr(low, "ucx") || strstr(low, "(synd 0x"))
		in->tool = "UCX";
	if (in->tool)
		note(in, "the line's format is %s's", in->tool);

	/* A name: IBV_WC_X, or X alone as a whole word. */
	for (size_t i = 0; wc && i < wc->n; i++) {
		char name[64];

		lower_copy(name, wc->v[i].name, sizeof(name));
		if (has_word(low, name) || has_word(low, name + 7)) {
			by_name = (int)wc->v[i].value;
			note(in, "status name %s", wc->v[i].name);
			break;
		}
	}
	/* A number: "status 12", "status=12", "error 12", or the number alone. */
	v = number_after(low, "status", NULL);
	if (v < 0)
		v = number_after(low, "with error", NULL);
	if (v < 0) {
		t = low + strspn(low, " \t\r\n");
		v = number_at(t, &t);
		if (v >= 0 && t[strspn(t, " \t\r\n")] != '\0')
			v = -1;
	}
	if (v >= 0) {
		by_num = (int)v;
		note(in, "status number %ld", v);
	}
	/* ibv_wc_status_str's text, the longest that appears. */
	for (size_t i = 0; wc && by_name < 0 && i < wc->n; i++) {
		char s[128];

		lower_copy(s, wc->v[i].str, sizeof(s));
		if (strcmp(s, "unknown") == 0 || strlen(s) <= best ||
		    !has_word(low, s))
			continue;
		by_text = (int)wc->v[i].value;
		best = strlen(s);
	}
	for (size_t i = 0; by_name < 0 && by_text < 0 &&
			   i < sizeof(status_aliases) / sizeof(status_aliases[0]); i++)
		if (strstr(low, status_aliases[i].text))
			by_text = status_aliases[i].status;
	if (by_text >= 0)
		note(in, "the text of status %d", by_text);

	/* mlx5: the vendor error and the CQE syndrome. */
	v = number_after(low, "vendor err", NULL);
	if (v < 0)
		v = number_after(low, "vendor_err", NULL);
	if (v < 0)
		v = number_after(low, "vendor error", NULL);
	if (v < 0)
		v = number_after(low, "vendor syndrome", NULL);
	if (v < 0)
		v = number_after(low, "vend", "o");
	if (v < 0)
		v = number_after(low, "syndrom", "e"); /* perftest's spelling */
	if (v >= 0 && v < 256) {
		in->vendor_err = (int)v;
		note(in, "vendor error 0x%02lx (%ld)", v, v);
	}
	v = number_after(low, "synd", "ro_");
	if (v < 0) {
		const char *p = strstr(low, "syndrome");

		while (p && p > low + 6 && (strncmp(p - 7, "vendor ", 7) == 0 ||
					    strncmp(p - 7, "vendor_", 7) == 0))
			p = strstr(p + 1, "syndrome");
		if (p)
			v = number_after(p, "syndrome", NULL);
	}
	for (size_t i = 0; v < 0 && m && i < m->n; i++) {
		char name[64];

		lower_copy(name, m->v[i].name, sizeof(name));
		if (!m->v[i].vendor && has_word(low, name))
			v = (long)m->v[i].value;
	}
	if (v >= 0 && v < 256) {
		in->syndrome = (int)v;
		note(in, "mlx5 CQE syndrome 0x%02lx", v);
	}
	find_device(low, in);
	if (in->device[0]) {
		if (in->port)
			note(in, "device %s port %u", rd_esc_tmp(in->device), in->port);
		else
			note(in, "device %s", rd_esc_tmp(in->device));
	}

	/* The status: a name, then a number, then text, then the mlx5 codes. */
	in->status = by_name >= 0 ? by_name : by_num >= 0 ? by_num : by_text;
	if (by_name >= 0 && by_num >= 0 && by_name != by_num)
		snprintf(in->conflict, sizeof(in->conflict),
			 "the name says status %d, the number %d: the name is used",
			 by_name, by_num);
	else if (in->status >= 0 && by_text >= 0 && by_text != in->status)
		snprintf(in->conflict, sizeof(in->conflict),
			 "the text reads like status %d, the number says %d: the number is used",
			 by_text, in->status);
	if (in->syndrome >= 0 && mlx5_codes_apply(in)) {
		const struct rd_mlx5_code *c = rd_mlx5_find(m, false, (unsigned)in->syndrome);

		if (c && in->status < 0) {
			in->status = c->wc_status;
			note(in, "status %d from the syndrome", in->status);
		}
		else if (c && c->wc_status != in->status && !in->conflict[0])
			snprintf(in->conflict, sizeof(in->conflict),
				 "syndrome 0x%02x is status %d, the line says %d",
				 (unsigned)in->syndrome, c->wc_status, in->status);
	}
	if (in->status < 0 && in->vendor_err >= 0 && mlx5_codes_apply(in)) {
		const struct rd_mlx5_code *c = rd_mlx5_find(m, true, (unsigned)in->vendor_err);

		if (c && c->wc_status >= 0) {
			in->status = c->wc_status;
			note(in, "status %d, which this vendor error comes with",
			     in->status);
		}
	}
	free(low);
	return in->status >= 0 && rd_wc_status_find(wc, (unsigned)in->status);
}

/* The mlx5 tables speak for mlx5 devices, or when no device is named. */
static bool mlx5_codes_apply(const struct rd_explain_input *in)
{
	return !in->device[0] || strncmp(in->device, "mlx5_", 5) == 0;
}

static size_t add_ids(const char *list, char *buf, size_t len, size_t n)
{
	char tmp[256];

	snprintf(tmp, sizeof(tmp), "%s", list ? list : "");
	for (char *save = NULL, *id = strtok_r(tmp, ",", &save); id;
	     id = strtok_r(NULL, ",", &save)) {
		size_t off = strlen(buf), il = strlen(id);
		bool dup = false;

		for (const char *p = strstr(buf, id); p && !dup; p = strstr(p + 1, id))
			dup = (p == buf || p[-1] == ',') && (p[il] == ',' || !p[il]);
		if (dup || off + il + 2 > len)
			continue;
		snprintf(buf + off, len - off, "%s%s", off ? "," : "", id);
		n++;
	}
	return n;
}

size_t rd_explain_cause_ids(const struct rd_explain_input *in,
			    const struct rd_wc_status_table *wc,
			    const struct rd_mlx5_table *m, char *buf,
			    size_t len)
{
	const struct rd_mlx5_code *c;
	const struct rd_wc_status *st;
	size_t n = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	if (in->vendor_err >= 0 && mlx5_codes_apply(in) &&
	    (c = rd_mlx5_find(m, true, (unsigned)in->vendor_err)))
		n = add_ids(c->causes, buf, len, n);
	if (in->syndrome >= 0 && mlx5_codes_apply(in) &&
	    (c = rd_mlx5_find(m, false, (unsigned)in->syndrome)))
		n = add_ids(c->causes, buf, len, n);
	if (in->status >= 0 && (st = rd_wc_status_find(wc, (unsigned)in->status)))
		n = add_ids(st->causes, buf, len, n);
	return n;
}

/* ---- ranking ---- */

static bool matches_any(const char *patterns, const char *name)
{
	char tmp[1024];

	if (!patterns || !*patterns || !name)
		return false;
	snprintf(tmp, sizeof(tmp), "%s", patterns);
	for (char *save = NULL, *p = strtok_r(tmp, "|", &save); p;
	     p = strtok_r(NULL, "|", &save))
		if (fnmatch(p, name, 0) == 0)
			return true;
	return false;
}

static int add_evidence(struct rd_explain_ranked *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int add_evidence(struct rd_explain_ranked *r, const char *fmt, ...)
{
	char **slot, *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	slot = RD_PUSH(r->evidence, r->n_evidence);
	if (!slot) {
		free(s);
		return -ENOMEM;
	}
	*slot = s;
	return 0;
}

struct quiet {
	size_t counters;	/* matching counters read, none rising */
	char checks[256];	/* matching checks that passed */
};

static int judge_counters(struct rd_explain_ranked *r,
			  const struct rd_explain_evidence *ev,
			  const char *scope, uint64_t port,
			  enum rd_counter_group group,
			  const struct rd_counters *c, bool netdev,
			  struct quiet *q)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct rd_counter *k = &c->v[i];
		const struct rd_series *ser;
		uint64_t delta;
		double span;
		char where[160];
		int e = 0;

		if (!matches_any(r->cause->counters, k->name))
			continue;
		snprintf(where, sizeof(where), netdev ? "%s" : "%s/%" PRIu64,
			 rd_esc_tmp(scope), port);
		if (ev->h) {
			ser = netdev ? rd_history_netdev(ev->h, scope, k->name) :
				       rd_history_port(ev->h, scope, port, group,
						       k->name);
			if (!ser || !rd_series_delta(ser, ev->window, &delta, &span) ||
			    span <= 0)
				continue;
			if (delta == 0) {
				q->counters++;
				continue;
			}
			e = add_evidence(r, "%s %s %s rose by %" PRIu64 " in %.1f s",
					 where, rd_counter_group_name(group), rd_esc_tmp(k->name), delta,
					 span);
			r->score += 5;
		} else {
			if (!k->value.ok)
				continue;
			if (k->value.v == 0) {
				q->counters++;
				continue;
			}
			e = add_evidence(r, "%s %s %s is %" PRIu64 " (a total since the counters were reset; one snapshot cannot show it rising)",
					 where, rd_counter_group_name(group), rd_esc_tmp(k->name),
					 k->value.v);
			r->score += 1;
		}
		if (e < 0)
			return e;
	}
	return 0;
}

static bool wanted(const struct rd_explain_evidence *ev, const char *dev,
		   uint64_t port)
{
	if (ev->device && (!dev || strcmp(ev->device, dev) != 0))
		return !dev;	/* host-wide results always count */
	return !ev->port || !port || ev->port == port;
}

static int judge(struct rd_explain_ranked *r,
		 const struct rd_explain_evidence *ev)
{
	const struct rd_snapshot *s = ev->s;
	struct quiet q = { 0 };
	int e = 0;

	for (size_t i = 0; s && i < s->n_devices && e == 0; i++) {
		const struct rd_device *d = &s->devices[i];

		for (size_t j = 0; j < d->n_ports && e == 0; j++) {
			const struct rd_port *p = &d->ports[j];
			const char *nd;
			const struct rd_netdev *n;

			if (!d->name || !wanted(ev, d->name, p->port) ||
			    (ev->device && !p->port))
				continue;
			e = judge_counters(r, ev, d->name, p->port, RD_CTR_PORT,
					   &p->counters, false, &q);
			if (e == 0)
				e = judge_counters(r, ev, d->name, p->port,
						   RD_CTR_HW, &p->hw_counters,
						   false, &q);
			nd = rd_port_netdev_name(s, d, p);
			n = nd ? rd_snapshot_netdev(s, nd) : NULL;
			if (e == 0 && n)
				e = judge_counters(r, ev, nd, 0, RD_CTR_ETHTOOL,
						   &n->ethtool.stats, true, &q);
		}
	}
	for (size_t i = 0; ev->results && i < ev->results->n && e == 0; i++) {
		const struct rd_result *res = &ev->results->v[i];

		if (!matches_any(r->cause->checks, res->check_id) ||
		    !wanted(ev, res->device, res->port))
			continue;
		if (res->verdict == RD_WARN || res->verdict == RD_FAIL) {
			e = add_evidence(r, "check %s %s: %s", res->check_id,
					 rd_verdict_name(res->verdict),
					 res->summary ? res->summary : "");
			r->score += res->verdict == RD_FAIL ? 4 : 1;
		} else if (res->verdict == RD_PASS &&
			   !strstr(q.checks, res->check_id)) {
			size_t off = strlen(q.checks);

			snprintf(q.checks + off, sizeof(q.checks) - off, "%s%s",
				 off ? ", " : "", res->check_id);
		}
	}
	if (e < 0)
		return e;
	if (r->n_evidence == 0 && (q.counters || q.checks[0])) {
		char cnt[160] = "";

		if (q.counters && ev->h)
			snprintf(cnt, sizeof(cnt), "%zu related counter%s did not rise in %.1f s",
				 q.counters, q.counters == 1 ? "" : "s", ev->window);
		else if (q.counters)
			snprintf(cnt, sizeof(cnt), "%zu related counter%s zero",
				 q.counters, q.counters == 1 ? " is" : "s are");
		if (asprintf(&r->looked, "%s%s%s%s", cnt,
			     cnt[0] && q.checks[0] ? "; " : "",
			     q.checks[0] ? "passed: " : "", q.checks) < 0) {
			r->looked = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

void rd_explain_ranking_free(struct rd_explain_ranking *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		for (size_t k = 0; k < r->v[i].n_evidence; k++)
			free(r->v[i].evidence[k]);
		free(r->v[i].evidence);
		free(r->v[i].looked);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

int rd_explain_rank(const char *ids, const struct rd_explain_evidence *ev,
		    struct rd_explain_ranking *out)
{
	char tmp[512];

	*out = (struct rd_explain_ranking){ 0 };
	snprintf(tmp, sizeof(tmp), "%s", ids ? ids : "");
	for (char *save = NULL, *id = strtok_r(tmp, ",", &save); id;
	     id = strtok_r(NULL, ",", &save)) {
		const struct rd_explain_cause *c = rd_explain_cause_find(id);
		struct rd_explain_ranked *r;

		if (!c)
			continue;
		r = RD_PUSH(out->v, out->n);
		if (r)
			r->cause = c;
		if (!r || judge(r, ev) < 0) {
			rd_explain_ranking_free(out);
			return -ENOMEM;
		}
	}
	/* Stable insertion sort by score: ties keep the table's order. */
	for (size_t i = 1; i < out->n; i++) {
		struct rd_explain_ranked x = out->v[i];
		size_t j = i;

		for (; j > 0 && out->v[j - 1].score < x.score; j--)
			out->v[j] = out->v[j - 1];
		out->v[j] = x;
	}
	return 0;
}

/* ---- the explanation as text ---- */

void rd_explain_write_meaning(FILE *f, const struct rd_explain_input *in,
			      const struct rd_wc_status_table *wc,
			      const struct rd_mlx5_table *m)
{
	const struct rd_wc_status *st =
		in->status >= 0 ? rd_wc_status_find(wc, (unsigned)in->status) : NULL;
	const struct rd_mlx5_code *c;

	if (st)
		fprintf(f, "Status %u %s (\"%s\"):\n  %s.\n", st->value, st->name,
			st->str, st->meaning);
	if (in->syndrome >= 0) {
		c = rd_mlx5_find(m, false, (unsigned)in->syndrome);
		fprintf(f, "mlx5 CQE syndrome 0x%02x: %s%s%s.\n", (unsigned)in->syndrome,
			c ? c->name : "not a syndrome mlx5dv.h defines",
			c ? ", " : "", c ? c->meaning : "");
	}
	if (in->vendor_err >= 0 && in->device[0] &&
	    strncmp(in->device, "mlx5_", 5) != 0) {
		fprintf(f, "Vendor error 0x%02x (%d): %s's own detail; the known codes are mlx5's.\n",
			(unsigned)in->vendor_err, in->vendor_err,
			rd_esc_tmp(in->device));
	} else if (in->vendor_err >= 0) {
		c = rd_mlx5_find(m, true, (unsigned)in->vendor_err);
		if (c)
			fprintf(f, "Vendor error 0x%02x (%d, on mlx5): %s.\n",
				(unsigned)in->vendor_err, in->vendor_err, c->meaning);
		else
			fprintf(f, "Vendor error 0x%02x (%d): no public source documents it; it is the NIC's own detail of the status above.\n",
				(unsigned)in->vendor_err, in->vendor_err);
	}
	if (in->conflict[0])
		fprintf(f, "Note: %s.\n", in->conflict);
}

static void write_ranking(FILE *f, const struct rd_explain_ranking *rk,
			  const char *label, double window, bool ranked)
{
	if (!ranked)
		fprintf(f, "\nLikely causes, most common first (not ranked: %s):\n",
			label);
	else if (window > 0)
		fprintf(f, "\nLikely causes, ranked by the evidence %s (counters over %.1f s):\n",
			label, window);
	else
		fprintf(f, "\nLikely causes, ranked by the evidence %s (one snapshot: counter totals, no rise):\n",
			label);
	for (size_t i = 0; i < rk->n; i++) {
		const struct rd_explain_ranked *r = &rk->v[i];

		fprintf(f, "%2zu. %s\n", i + 1, r->cause->title);
		for (size_t k = 0; k < r->n_evidence; k++)
			fprintf(f, "      evidence: %s\n", r->evidence[k]);
		if (ranked && !r->n_evidence) {
			if (r->looked)
				fprintf(f, "      no evidence here: %s\n", r->looked);
			else
				fprintf(f, "      no evidence here%s\n",
					r->cause->elsewhere ? "" : " (nothing on this host shows it)");
			if (r->cause->elsewhere)
				fprintf(f, "      would show in: %s\n", r->cause->elsewhere);
		}
		fprintf(f, "      next: %s\n", r->cause->next_step);
	}
}

int rd_explain_write(FILE *f, const struct rd_explain_input *in,
		     const struct rd_wc_status_table *wc,
		     const struct rd_mlx5_table *m,
		     const struct rd_explain_evidence *ev, const char *label)
{
	struct rd_explain_ranking rk;
	char ids[512];

	rd_explain_write_meaning(f, in, wc, m);
	if (!rd_explain_cause_ids(in, wc, m, ids, sizeof(ids))) {
		fprintf(f, "Not an error: nothing to rank.\n");
		return 0;
	}
	if (rd_explain_rank(ids, ev, &rk) < 0)
		return -ENOMEM;
	write_ranking(f, &rk, label, ev->h ? ev->shown : 0, ev->s != NULL);
	rd_explain_ranking_free(&rk);
	return 0;
}
