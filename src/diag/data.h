/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The data files behind the checks: data/counters.tsv (what each counter
 * means and when rising is bad) and data/firmware.tsv (minimum firmware per
 * PCI id). Found in RDMADIAG_DATADIR, RD_DATADIR, then the source tree.
 */
#ifndef RD_DIAG_DATA_H
#define RD_DIAG_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

struct rd_counter_info {
	char *name;		/* fnmatch pattern: "rx_prio[0-7]_pause" */
	enum rd_counter_group group;
	char *meaning;
	bool bad_when_rising;
	double warn_rate;	/* per second; rising above it gives WARN */
	double fail_rate;	/* above it FAIL; < 0 = never FAIL */
	char *hint;
};

struct rd_counter_table {
	struct rd_counter_info *v;
	size_t n;
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
void rd_counter_table_free(struct rd_counter_table *t);
void rd_fw_table_free(struct rd_fw_table *t);

/* The first row matching (group, counter name); NULL when none. */
const struct rd_counter_info *
rd_counter_info_find(const struct rd_counter_table *t,
		     enum rd_counter_group group, const char *name);
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
const char *rd_data_error(void);
/* Tests: replace the cached tables (takes ownership; NULL resets). */
void rd_data_set(struct rd_counter_table *c, struct rd_fw_table *f);

#endif
