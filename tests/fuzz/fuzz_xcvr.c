// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The module memory dump readers and decoders on arbitrary bytes.
 *
 * Input: the whole buffer goes through the dump readers (raw, hex text,
 * either); then it is cut into 132-byte records of i2c, bank, page and
 * offset bytes and a half, put as they are. Each memory is planned,
 * decoded, asked where its values come from, and its pages saved and
 * loaded again to the same bytes. Every string the decoder produces must
 * be clean text: module bytes never reach a terminal raw.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/xcvr_decode.h"

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void text(const char *s)
{
	if (s)
		fuzz_assert_text(s, strlen(s));
}

static void check_strings(const struct rd_xcvr *x)
{
	const char *const top[] = {
		x->spec,	 x->type,	  x->connector_name,
		x->media,	 x->media_detail, x->vendor,
		x->vendor_oui,	 x->part_number,  x->revision,
		x->serial,	 x->date_code,	  x->firmware,
		x->module_state, x->fault_cause,  x->no_dom,
	};

	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		text(top[i]);
	for (size_t i = 0; i < x->n_lanes; i++) {
		if (x->lanes[i].lane != i + 1)
			abort();
		text(x->lanes[i].datapath_state);
	}
}

static void check(const struct rd_xcvr_mem *m)
{
	static const char *const fields[] = {
		"temperature_c",  "rx_power_mw",    "rx_los",
		"datapath_state", "rx_power_flags", "vendor",
		"module_state",	  "nope",
	};
	struct rd_xcvr_req req[RD_XCVR_MAX_HALVES];
	struct rd_xcvr x = { 0 };
	struct rd_xcvr_mem *back = malloc(sizeof(*back));
	char w[64];
	size_t n;

	if (!back)
		return;
	n = rd_xcvr_plan(m, RD_XCVR_IDENT | RD_XCVR_DIAG, req,
			 RD_XCVR_MAX_HALVES);
	if (n > RD_XCVR_MAX_HALVES)
		abort();
	for (size_t i = 0; i < n; i++)
		if ((req[i].offset != 0 && req[i].offset != 128) ||
		    rd_xcvr_mem_get(m, req[i].i2c, req[i].bank, req[i].page,
				    req[i].offset))
			abort();
	if (rd_xcvr_decode(m, &x) == 0) {
		check_strings(&x);
		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
			for (unsigned lane = 0; lane < 34; lane += 3)
				text(rd_xcvr_where(&x, fields[f], lane, w,
						   sizeof(w)));
	}
	if (rd_xcvr_pages_save(m, &x) == 0) {
		if (rd_xcvr_pages_load(&x, back) != 0 || back->n != m->n)
			abort();
		for (size_t i = 0; i < m->n; i++) {
			const struct rd_xcvr_half *h = &m->half[i];
			const uint8_t *b = rd_xcvr_mem_get(
				back, h->i2c, h->bank, h->page, h->offset);

			if (!b || memcmp(b, h->data, 128))
				abort();
		}
	}
	rd_model_free(rd_xcvr_fields, &x);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_xcvr_mem *m = malloc(sizeof(*m));

	if (!m)
		return 0;
	if (rd_xcvr_mem_from_dump(data, size, m) == 0)
		check(m);
	if (rd_xcvr_mem_from_raw(data, size, m) == 0)
		check(m);
	if (rd_xcvr_mem_from_hex((const char *)data, size, m) == 0)
		check(m);
	m->n = 0;
	for (size_t o = 0; o + 132 <= size; o += 132)
		rd_xcvr_mem_put(m, data[o], data[o + 1], data[o + 2],
				data[o + 3], data + o + 4);
	check(m);
	free(m);
	return 0;
}
