// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fleet report on arbitrary gathered output (pdsh lines, clush -b
 * groups, one host's file): it never crashes, every host ends in a state,
 * the table prints clean text and the JSON report parses. The input is
 * read twice: as it is, and after the clush -b group of a host whose
 * result is a FAIL. Whatever the input then says of that host (a forged
 * group, "host: line" output, an exit code, NUL bytes), its FAIL is never
 * hidden behind an answer without one.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char victim[] =
	"---------------\nfz-victim\n---------------\n"
	"[{\"check\":\"port.state\",\"verdict\":\"FAIL\",\"cause\":\"x\","
	"\"summary\":\"down\",\"host\":\"fz-victim\"}]\n";

/* The real group first, then the input: the FAIL must stay. */
static void victim_first(const uint8_t *data, size_t size)
{
	size_t n = sizeof(victim) - 1;
	char *text = malloc(n + size + 1);
	struct rd_fleet fl;
	FILE *in;

	if (!text)
		return;
	memcpy(text, victim, n);
	memcpy(text + n, data, size);
	in = fmemopen(text, n + size, "r");
	if (!in) {
		free(text);
		return;
	}
	rd_fleet_init(&fl);
	if (rd_fleet_read_stream(&fl, in, "one") == 0) {
		rd_fleet_finish(&fl);
		for (size_t i = 0; i < fl.n_hosts; i++) {
			const struct rd_fleet_host *h = &fl.hosts[i];

			if (strcmp(h->name, "fz-victim") == 0 &&
			    h->state == RD_FLEET_ANSWERED &&
			    h->worst != RD_FLEET_FAIL) {
				fprintf(stderr, "the victim's FAIL is hidden\n");
				abort();
			}
		}
	}
	fclose(in);
	free(text);
	rd_fleet_free(&fl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fmemopen((void *)data, size ? size : 1, "r");
	struct rd_fleet fl;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	if (!in)
		return 0;
	victim_first(data, size);
	rd_fleet_init(&fl);
	if (size == 0 || rd_fleet_read_stream(&fl, in, "one") < 0) {
		fclose(in);
		rd_fleet_free(&fl);
		return 0;
	}
	fclose(in);
	rd_fleet_finish(&fl);
	for (size_t i = 0; i < fl.n_hosts; i++)
		if (fl.hosts[i].state == RD_FLEET_NO_OUTPUT ||
		    (fl.hosts[i].state != RD_FLEET_ANSWERED &&
		     !fl.hosts[i].reason))
			abort();
	FUZZ_CHECK_PRINTED(rd_fleet_print_text(&fl, f, 40));
	out = open_memstream(&buf, &len);
	if (out) {
		struct json_object *j;

		rd_fleet_print_json(&fl, out);
		fclose(out);
		j = json_tokener_parse(buf);
		if (!j) {
			fprintf(stderr, "report JSON does not parse: %.200s\n",
				buf);
			abort();
		}
		json_object_put(j);
		free(buf);
	}
	rd_fleet_free(&fl);
	return 0;
}
