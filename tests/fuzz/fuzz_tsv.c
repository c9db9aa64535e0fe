// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The data/counters.tsv, firmware.tsv and link_ext_state.tsv loaders on
 * arbitrary text.
 * The first byte picks the table; the rest is the file.
 *
 * Every row loaded must be found again by the lookups the checks use, and
 * a firmware row's PCI id must be exactly the "vvvv:dddd" (four hex digits
 * each) its column holds: a laxer reading would give a device another
 * device's minimum firmware.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diag/data.h"

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool skipped(const char *l)
{
	while (*l == ' ' || *l == '\t')
		l++;
	return *l == '\0' || *l == '\n' || *l == '#' ||
	       (l[0] == '\r' && (l[1] == '\n' || l[1] == '\0'));
}

/* The pci_id column of the k-th data row (after the header), or NULL. */
static const char *nth_id(const char *text, size_t k, char *buf, size_t size)
{
	size_t row = 0;
	bool header = true;

	for (const char *l = text; l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n = strcspn(l, "\t\n");

		if (skipped(l))
			continue;
		if (header) {
			header = false;
			continue;
		}
		if (row++ == k) {
			if (n >= size)
				return NULL;
			memcpy(buf, l, n);
			buf[n] = '\0';
			return buf;
		}
	}
	return NULL;
}

static void firmware(const char *text)
{
	struct rd_fw_table t;
	char err[512], id[64], want[16];

	if (rd_firmware_tsv_parse("firmware.tsv", text, &t, err, sizeof(err)) <
	    0) {
		fuzz_assert_text(err, strlen(err));
		return;
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct rd_fw_min *m = &t.v[i];

		if (!rd_fw_min_find(&t, m->vendor, m->device))
			abort();
		snprintf(want, sizeof(want), "%04llx:%04llx",
			 (unsigned long long)m->vendor,
			 (unsigned long long)m->device);
		if (!nth_id(text, i, id, sizeof(id)) ||
		    strcasecmp(id, want) != 0)
			abort();
	}
	rd_fw_table_free(&t);
}

static void counters(const char *text)
{
	struct rd_counter_table t;
	char err[512];

	if (rd_counters_tsv_parse("counters.tsv", text, &t, err, sizeof(err)) <
	    0) {
		fuzz_assert_text(err, strlen(err));
		return;
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct rd_counter_info *c = &t.v[i];

		if (!c->name || !c->name[0] || !c->meaning ||
		    !c->hint)
			abort();
		/* The console prints these beside the counter. */
		fuzz_assert_text(c->name, strlen(c->name));
		fuzz_assert_text(c->meaning, strlen(c->meaning));
		fuzz_assert_text(c->hint, strlen(c->hint));
		if (c->warn_rate < 0 && c->bad_when_rising)
			abort();
		if ((unsigned)c->unit >= RD_UNIT_COUNT)
			abort();
		if (c->fail_rate >= 0 && c->warn_rate >= 0 &&
		    c->fail_rate < c->warn_rate)
			abort();
		(void)rd_counter_info_find(&t, c->group, c->name);
	}
	rd_counter_table_free(&t);
}

static void link_ext(const char *text)
{
	struct rd_link_ext_table t;
	char err[512];

	if (rd_link_ext_tsv_parse("link_ext_state.tsv", text, &t, err,
				  sizeof(err)) < 0)
		return;
	for (size_t i = 0; i < t.n; i++) {
		const struct rd_link_ext *e = &t.v[i];
		const struct rd_link_ext *f = rd_link_ext_find(
			&t, e->state, e->substate < 0 ? 0 : (unsigned)e->substate);

		/* Rows are unique: each is found as itself. */
		if (f != e || !e->summary[0] || !e->next_step[0])
			abort();
	}
	rd_link_ext_table_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (data[0] % 3 == 1)
		firmware(text);
	else if (data[0] % 3 == 2)
		link_ext(text);
	else
		counters(text);
	free(text);
	return 0;
}
