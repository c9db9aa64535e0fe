// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fleet report on arbitrary gathered output (pdsh lines, clush -b
 * groups, one host's file): it never crashes, every host ends in a state,
 * the table prints clean text and the JSON report parses.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fmemopen((void *)data, size ? size : 1, "r");
	struct rd_fleet fl;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	if (!in)
		return 0;
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
