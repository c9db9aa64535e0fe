// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line's number options (every count, port, size, interval
 * and window option) through cli_parse, as a command's option table is
 * read. The first byte picks the option's kind (u64, unsigned, int,
 * seconds), its range and the long or short spelling; the rest is the
 * argument.
 *
 * Properties: an accepted value is within its range and is what the
 * argument says (printed back, it parses to the same value); a refused
 * argument gives one line of text on the command's error stream with no
 * control byte; nothing else is printed.
 */
#include "config.h"

#include <limits.h>
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

/* Ranges a double carries exactly, as an option table holds them. */
static const struct {
	uint64_t lo, hi;
} ranges[] = {
	{ 1, 255 }, { 0, 255 }, { 1, 65535 }, { 1, 1u << 30 },
	{ 5, 1ull << 40 }, { 0, 4095 }, { 0, 1ull << 53 }, { 0, 10000000 },
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

static void no_usage(FILE *f)
{
	(void)f;
	abort();	/* the option is known: no usage text */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_cli cli = { .prog = "rdmadiag" };
	unsigned kind, ui = 0;
	uint64_t lo, hi, u64 = 0, v = 0, again;
	int si = 0, r;
	double secs = -1, dlo, dagain;
	char *arg, *argv[4];

	if (size < 1)
		return 0;
	kind = data[0] & 3;
	lo = ranges[(data[0] >> 2) % N_RANGES].lo;
	hi = ranges[(data[0] >> 2) % N_RANGES].hi;
	if (kind == 1 && hi > UINT_MAX)
		hi = UINT_MAX;
	if (kind == 2 && hi > INT_MAX)
		hi = INT_MAX;
	dlo = (data[0] & 0x80) ? 0.2 : 0;
	{
		const struct cli_opt opts[] = {
			CLI_U64("count", 'c', &u64, lo, hi),
			CLI_UINT("port", 'p', &ui, lo, hi),
			CLI_INT("size", 's', &si, lo, hi),
			CLI_SECONDS("window", 'w', &secs, dlo, 3600),
			CLI_END
		};
		static const char *const words[2][4] = {
			{ "--count", "--port", "--size", "--window" },
			{ "-c", "-p", "-s", "-w" },
		};

		arg = malloc(size);
		if (!arg)
			return 0;
		memcpy(arg, data + 1, size - 1);
		arg[size - 1] = '\0';
		argv[0] = (char *)"fuzz";
		argv[1] = (char *)words[(data[0] >> 5) & 1][kind];
		argv[2] = arg;
		argv[3] = NULL;
		if (capture_begin(&cli) < 0)
			goto out;
		r = cli_parse(&cli, "fuzz", opts, no_usage, 3, argv);
		capture_end(&cli, r < 0);
	}
	if (r != 3 && r != CLI_BAD)
		abort();
	if (r == CLI_BAD)
		goto out;
	if (kind == 3) {
		char buf[64];

		if (!isfinite(secs) || secs < dlo || secs > 3600)
			abort();
		snprintf(buf, sizeof(buf), "%.17g", secs);
		if (rd_parse_double(buf, &dagain) < 0 || dagain != secs)
			abort();
		goto out;
	}
	v = kind == 0 ? u64 : kind == 1 ? ui : (uint64_t)si;
	if (v < lo || v > hi)
		abort();
	{
		char buf[32];

		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		if (rd_parse_u64(buf, 0, &again) < 0 || again != v)
			abort();
	}
	/* Only digits, an 0x prefix and blanks make a number. */
	for (const char *c = arg; *c; c++)
		if (!strchr("0123456789abcdefABCDEFxX \t\n", *c))
			abort();
out:
	free(arg);
	return 0;
}
