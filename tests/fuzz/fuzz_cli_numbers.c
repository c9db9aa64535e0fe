// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line's number parsers (cli_number, cli_seconds: every
 * count, port, size, interval and window option) on arbitrary arguments.
 * The first byte picks a range; the rest is the argument.
 *
 * Properties: an accepted value is within its range and is what the
 * argument says (printed back, it parses to the same value); a refused
 * argument gives one line of text on stderr with no control byte.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/attr.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
	uint64_t lo, hi;
} ranges[] = {
	{ 1, 255 }, { 0, 255 }, { 1, 65535 }, { 1, 1u << 30 },
	{ 5, 1ull << 40 }, { 0, 4095 }, { 0, UINT64_MAX }, { 0, 10000000 },
};
#define N_RANGES (sizeof(ranges) / sizeof(ranges[0]))

static char *err_buf;
static size_t err_len;

/* The command line's error stream into memory for the length of one call
 * (not the process's stderr, which libFuzzer writes to as well). */
static int capture_begin(struct rd_cli *cli)
{
	cli->err = open_memstream(&err_buf, &err_len);
	return cli->err ? 0 : -1;
}

static void capture_end(struct rd_cli *cli, bool want_line)
{
	bool one_line;

	fclose(cli->err);
	cli->err = NULL;
	fuzz_assert_text(err_buf, err_len);
	/* A refusal is exactly one line; an acceptance says nothing. */
	one_line = err_len > 0 &&
		   memchr(err_buf, '\n', err_len) == err_buf + err_len - 1;
	if (want_line ? !one_line : err_len > 0)
		abort();
	free(err_buf);
	err_buf = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_cli cli = { .prog = "rdmadiag" };
	char *arg;
	int r;

	if (size < 1)
		return 0;
	arg = malloc(size);
	if (!arg)
		return 0;
	memcpy(arg, data + 1, size - 1);
	arg[size - 1] = '\0';
	if (data[0] & 0x80) {
		double lo = (data[0] & 1) ? 0.2 : 0, hi = 3600, v = -1, again;

		if (capture_begin(&cli) < 0)
			goto out;
		r = cli_seconds(&cli, "--window", arg, lo, hi, &v);
		capture_end(&cli, r < 0);
		if (r == 0) {
			char buf[64];

			if (!isfinite(v) || v < lo || v > hi)
				abort();
			snprintf(buf, sizeof(buf), "%.17g", v);
			if (rd_parse_double(buf, &again) < 0 || again != v)
				abort();
		}
	} else {
		uint64_t lo = ranges[data[0] % N_RANGES].lo,
			 hi = ranges[data[0] % N_RANGES].hi, v = 0, again;

		if (capture_begin(&cli) < 0)
			goto out;
		r = cli_number(&cli, "-p", arg, lo, hi, &v);
		capture_end(&cli, r < 0);
		if (r == 0) {
			char buf[32];

			if (v < lo || v > hi)
				abort();
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
			if (rd_parse_u64(buf, 0, &again) < 0 || again != v)
				abort();
			/* Only digits, an 0x prefix and blanks make a number. */
			for (const char *c = arg; *c; c++)
				if (!strchr("0123456789abcdefABCDEFxX \t\n", *c))
					abort();
		}
	}
out:
	free(arg);
	return 0;
}
