/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The data files behind the checks: data/counters.tsv (what each counter
 * means and when rising is bad), data/firmware.tsv (minimum firmware per
 * PCI id), data/link_ext_state.tsv (why a link is down, what to do) and
 * data/kmsg.tsv (what a kernel log line about a NIC means). Found in RDMADIAG_DATADIR, RD_DATADIR, then the source tree.
 */
#ifndef RD_DIAG_DATA_H
#define RD_DIAG_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/*
 * What one count of a counter is (the unit column). Words are 4-byte
 * words (the IB PMA port_xmit_data/port_rcv_data), shown as bytes.
 * Percent and index are levels, not counts: they have no rate.
 */
enum rd_counter_unit {
	RD_UNIT_EVENTS,
	RD_UNIT_PACKETS,
	RD_UNIT_BYTES,
	RD_UNIT_WORDS,
	RD_UNIT_BITS,
	RD_UNIT_US,
	RD_UNIT_NS,
	RD_UNIT_TICKS,
	RD_UNIT_SECONDS,
	RD_UNIT_PERCENT,
	RD_UNIT_INDEX,
	RD_UNIT_COUNT,
};

const char *rd_counter_unit_name(enum rd_counter_unit u);
/* The unit of a column value ("bytes"), or -1. */
int rd_counter_unit_find(const char *name);

struct rd_counter_info {
	char *name;		/* fnmatch pattern: "rx_prio[0-7]_pause" */
	enum rd_counter_group group;
	enum rd_counter_unit unit;
	char *meaning;
	bool bad_when_rising;
	double warn_rate;	/* per second; rising above it gives WARN */
	double fail_rate;	/* above it FAIL; < 0 = never FAIL */
	char *hint;
};

struct rd_counter_lookup;

struct rd_counter_table {
	struct rd_counter_info *v;
	size_t n;
	/*
	 * Answers of rd_counter_info_find by (group, name), filled on first
	 * ask; made by rd_counters_tsv_parse. NULL: every lookup scans.
	 */
	struct rd_counter_lookup *lookup;
};

struct rd_fw_min {
	uint64_t vendor;
	uint64_t device;
	char *family;
	char *min_fw;
	char *why;
};

struct rd_fw_table {
	struct rd_fw_min *v;
	size_t n;
};

/* data/link_ext_state.tsv: ethtool's link-down reason -> next step. */
struct rd_link_ext {
	unsigned state;		/* enum ethtool_link_ext_state */
	int substate;		/* its substate; -1 = the state alone */
	char *uapi_name;	/* "ETHTOOL_LINK_EXT_STATE_AUTONEG" */
	char *summary;
	char *next_step;	/* "DEV" stands for the netdev's name */
};

struct rd_link_ext_table {
	struct rd_link_ext *v;
	size_t n;
};

/* data/wc_status.tsv: one row per enum ibv_wc_status value. */
struct rd_wc_status {
	unsigned value;
	char *name;		/* "IBV_WC_RETRY_EXC_ERR" */
	char *str;		/* ibv_wc_status_str(): "transport retry counter exceeded" */
	char *meaning;
	char *causes;		/* "peer_unreachable,packet_loss"; "" = none */
};

struct rd_wc_status_table {
	struct rd_wc_status *v;
	size_t n;
};

/* data/mlx5_syndromes.tsv: mlx5 CQE syndromes and vendor error codes. */
struct rd_mlx5_code {
	bool vendor;		/* vendor_err_synd, else the CQE syndrome */
	unsigned value;		/* 0..255 */
	char *name;
	int wc_status;		/* the ibv_wc_status it comes with; -1 any */
	char *meaning;
	char *causes;		/* "" = only those of its status */
};

struct rd_mlx5_table {
	struct rd_mlx5_code *v;
	size_t n;
};

/* data/kmsg.tsv: what a kernel log line about an RDMA NIC means. */
enum rd_kmsg_kind {
	RD_KMSG_MODULE,
	RD_KMSG_LINK,
	RD_KMSG_FIRMWARE,
	RD_KMSG_HEALTH,
	RD_KMSG_AER,
	RD_KMSG_PCIE_LINK,
	RD_KMSG_TX_TIMEOUT,
	RD_KMSG_CMD_FAIL,
	RD_KMSG_PROBE_FAIL,
	RD_KMSG_OTHER,
	RD_KMSG_KINDS
};

enum rd_kmsg_severity {
	RD_KMSG_INFO,
	RD_KMSG_WARN,
	RD_KMSG_ERROR,
	RD_KMSG_FATAL,
	RD_KMSG_SEVERITIES
};

struct rd_kmsg_class {
	char *driver;		/* fnmatch pattern of the message's first word */
	char *pattern;		/* fnmatch pattern of the whole message */
	enum rd_kmsg_kind kind;
	enum rd_kmsg_severity severity;
	char *meaning;
	char *next_step;
	char *checks;		/* "kernel.events,port.state" */
};

struct rd_kmsg_table {
	struct rd_kmsg_class *v;
	size_t n;
};

const char *rd_kmsg_kind_name(enum rd_kmsg_kind k);
const char *rd_kmsg_severity_name(enum rd_kmsg_severity s);
/*
 * The first row whose driver and pattern match message; NULL when none
 * does (the record is then of kind other, severity info).
 */
const struct rd_kmsg_class *rd_kmsg_classify(const struct rd_kmsg_table *t,
					     const char *message);

/* Parse a file; on a malformed line -EINVAL with "file:line: reason". */
int rd_counters_tsv_load(const char *path, struct rd_counter_table *t,
			 char *err, size_t errlen);
int rd_firmware_tsv_load(const char *path, struct rd_fw_table *t, char *err,
			 size_t errlen);
/* Same, from a string already in memory (name is used in messages). */
int rd_counters_tsv_parse(const char *name, const char *text,
			  struct rd_counter_table *t, char *err, size_t errlen);
int rd_firmware_tsv_parse(const char *name, const char *text,
			  struct rd_fw_table *t, char *err, size_t errlen);
int rd_link_ext_tsv_load(const char *path, struct rd_link_ext_table *t,
			 char *err, size_t errlen);
int rd_link_ext_tsv_parse(const char *name, const char *text,
			  struct rd_link_ext_table *t, char *err,
			  size_t errlen);
void rd_link_ext_table_free(struct rd_link_ext_table *t);
int rd_wc_status_tsv_parse(const char *name, const char *text,
			   struct rd_wc_status_table *t, char *err,
			   size_t errlen);
int rd_wc_status_tsv_load(const char *path, struct rd_wc_status_table *t,
			  char *err, size_t errlen);
void rd_wc_status_table_free(struct rd_wc_status_table *t);
const struct rd_wc_status *
rd_wc_status_find(const struct rd_wc_status_table *t, unsigned value);
int rd_mlx5_tsv_parse(const char *name, const char *text,
		      struct rd_mlx5_table *t, char *err, size_t errlen);
int rd_mlx5_tsv_load(const char *path, struct rd_mlx5_table *t, char *err,
		     size_t errlen);
void rd_mlx5_table_free(struct rd_mlx5_table *t);
int rd_kmsg_tsv_parse(const char *name, const char *text,
		      struct rd_kmsg_table *t, char *err, size_t errlen);
int rd_kmsg_tsv_load(const char *path, struct rd_kmsg_table *t, char *err,
		     size_t errlen);
void rd_kmsg_table_free(struct rd_kmsg_table *t);
const struct rd_mlx5_code *rd_mlx5_find(const struct rd_mlx5_table *t,
					bool vendor, unsigned value);

/*
 * The row for a state and substate (0 = none): the substate's own row,
 * else the state's row; NULL when the table has neither.
 */
const struct rd_link_ext *rd_link_ext_find(const struct rd_link_ext_table *t,
					   unsigned state, unsigned substate);
void rd_counter_table_free(struct rd_counter_table *t);
void rd_fw_table_free(struct rd_fw_table *t);

/*
 * The first row matching (group, counter name); NULL when none. A parsed
 * table remembers each answer, so a name is pattern-matched once per table
 * (safe from several threads); its rows must not change after parsing.
 */
const struct rd_counter_info *
rd_counter_info_find(const struct rd_counter_table *t,
		     enum rd_counter_group group, const char *name);
/*
 * Whether a rising counter means trouble: the table's bad_when_rising,
 * false for counters the table does not list (or no table). The one
 * answer for the counters screen and the counter check alike.
 */
bool rd_counter_bad_when_rising(const struct rd_counter_table *t,
				enum rd_counter_group group, const char *name);
/* The unit of a counter; events (a plain count) for one the table does
 * not list, or no table. */
enum rd_counter_unit rd_counter_unit_of(const struct rd_counter_table *t,
					enum rd_counter_group group,
					const char *name);
const struct rd_fw_min *rd_fw_min_find(const struct rd_fw_table *t,
				       uint64_t vendor, uint64_t device);

/* Path of a data file (datadir lookup as above) into buf; -ENOENT. */
int rd_data_path(const char *file, char *buf, size_t size);

/*
 * The process-wide tables, loaded on first use. NULL when the file could
 * not be loaded; rd_data_error() then says why.
 */
const struct rd_counter_table *rd_data_counters(void);
const struct rd_fw_table *rd_data_firmware(void);
const struct rd_link_ext_table *rd_data_link_ext(void);
const struct rd_wc_status_table *rd_data_wc_status(void);
const struct rd_mlx5_table *rd_data_mlx5(void);
const struct rd_kmsg_table *rd_data_kmsg(void);
const char *rd_data_error(void);
/* Tests: replace the cached tables (takes ownership; NULL resets). */
void rd_data_set(struct rd_counter_table *c, struct rd_fw_table *f);

#endif
