// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "core/model_log.h"

#include <inttypes.h>
#include <stdio.h>

const struct rd_field rd_kmsg_rec_fields[] = {
	RD_FLD_PU64(struct rd_kmsg_rec, seq, "seq"),
	RD_FLD_U64(struct rd_kmsg_rec, level, "level"),
	RD_FLD_U64(struct rd_kmsg_rec, facility, "facility"),
	RD_FLD_U64(struct rd_kmsg_rec, ts_usec, "ts_usec"),
	RD_FLD_DBL(struct rd_kmsg_rec, wall_time, "wall_time"),
	RD_FLD_STR(struct rd_kmsg_rec, flags, "flags"),
	RD_FLD_STR(struct rd_kmsg_rec, message, "message"),
	RD_FLD_STR(struct rd_kmsg_rec, subsystem, "subsystem"),
	RD_FLD_STR(struct rd_kmsg_rec, device, "device"),
	RD_FLD_STR(struct rd_kmsg_rec, dict, "dictionary"),
	RD_FLD_STR(struct rd_kmsg_rec, rdma_device, "rdma_device"),
	RD_FLD_U64(struct rd_kmsg_rec, port, "port"),
	RD_FLD_STR(struct rd_kmsg_rec, netdev, "netdev"),
	RD_FLD_STR(struct rd_kmsg_rec, pci_bdf, "pci_bdf"),
	RD_FLD_STR(struct rd_kmsg_rec, tied_by, "tied_by"),
	RD_FLD_END
};

const struct rd_field rd_kmsg_fields[] = {
	RD_FLD_BOOL(struct rd_kmsg, readable, "readable"),
	RD_FLD_STR(struct rd_kmsg, error, "error"),
	RD_FLD_U64(struct rd_kmsg, error_errno, "errno"),
	RD_FLD_STR(struct rd_kmsg, source, "source"),
	RD_FLD_BOOL(struct rd_kmsg, wall_clock, "wall_clock"),
	RD_FLD_U64(struct rd_kmsg, records_read, "records_read"),
	RD_FLD_U64(struct rd_kmsg, first_seq, "first_seq"),
	RD_FLD_U64(struct rd_kmsg, last_seq, "last_seq"),
	RD_FLD_U64(struct rd_kmsg, gaps, "gaps"),
	RD_FLD_U64(struct rd_kmsg, dropped, "dropped"),
	RD_FLD_U64(struct rd_kmsg, bad, "unparsed"),
	RD_FLD_ARRAY(struct rd_kmsg, records, n_records, struct rd_kmsg_rec,
		     rd_kmsg_rec_fields, "records"),
	RD_FLD_END
};

void rd_kmsg_rec_when(const struct rd_kmsg_rec *k, enum rd_clock_zone zone,
		      const char *wall_fmt, char *buf, size_t size)
{
	if (k->wall_time.ok &&
	    rd_clock_fmt(k->wall_time.v, zone, wall_fmt, NULL, buf, size))
		return;
	if (k->ts_usec.ok)
		snprintf(buf, size, "[%5" PRIu64 ".%06" PRIu64 "]",
			 k->ts_usec.v / 1000000u, k->ts_usec.v % 1000000u);
	else
		snprintf(buf, size, "[?]");
}
