// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shared option parser: a command's table of options, the common
 * root options and --help, range checks, and what a bad value returns.
 */
#include "config.h"
#include "unit.h"

#include "cmd/cli.h"
#include "core/attr.h"

static int usage_calls;

static void usage(FILE *f)
{
	(void)f;
	usage_calls++;
}

struct opts {
	bool json;
	const char *dev;
	uint64_t port;
	unsigned depth;
	int node;
	double window;
	unsigned mtu;
};

static int parse_even(struct rd_cli *cli, const char *arg, void *dst)
{
	uint64_t v;

	(void)cli;
	if (rd_parse_u64(arg, 10, &v) < 0 || v % 2)
		return -1;
	*(unsigned *)dst = (unsigned)v;
	return 0;
}

/* Parse a NULL-terminated argument list into o; returns cli_parse's value. */
static int parse(struct rd_cli *cli, struct opts *o, const char *const *args)
{
	char *argv[32];
	int argc = 0;
	const struct cli_opt table[] = {
		CLI_FLAG("json", 0, &o->json),
		CLI_TEXT("device", 'd', &o->dev),
		CLI_U64("port", 0, &o->port, 1, 255),
		CLI_UINT("depth", 't', &o->depth, 1, 16384),
		CLI_INT("node", 0, &o->node, 0, 4095),
		CLI_SECONDS("window", 0, &o->window, 0.2, 3600),
		CLI_CALL("mtu", 'm', &o->mtu, parse_even),
		CLI_END,
	};

	argv[argc++] = (char *)"test";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	memset(cli, 0, sizeof(*cli));
	rd_roots_init(&cli->roots);
	memset(o, 0, sizeof(*o));
	usage_calls = 0;
	return cli_parse(cli, "test", table, usage, argc, argv);
}

static void test_values_stored(void **state)
{
	const char *args[] = { "--json", "-d", "mlx5_0", "--port", "2",
			       "-t", "0x40", "--node=7", "--window", "1.5",
			       "-m", "4096", "HOST", NULL };
	struct rd_cli cli;
	struct opts o;
	int r;

	(void)state;
	r = parse(&cli, &o, args);
	assert_int_equal(r, 13);	/* index of "HOST" */
	assert_true(o.json);
	assert_string_equal(o.dev, "mlx5_0");
	assert_int_equal(o.port, 2);
	assert_int_equal(o.depth, 64);
	assert_int_equal(o.node, 7);
	assert_true(o.window > 1.49 && o.window < 1.51);
	assert_int_equal(o.mtu, 4096);
	assert_false(cli.roots.redirected);
}

static void test_common_options(void **state)
{
	const char *args[] = { "--sysfs-root", "/tmp/x/sys", "--json", NULL };
	const char *bad[] = { "--sysfs-root", "", NULL };
	struct rd_cli cli;
	struct opts o;

	(void)state;
	assert_int_equal(parse(&cli, &o, args), 4);
	assert_true(cli.roots.redirected);
	assert_string_equal(cli.roots.sysfs, "/tmp/x/sys");
	assert_true(o.json);
	assert_int_equal(parse(&cli, &o, bad), CLI_BAD);
}

static void test_help_and_unknown(void **state)
{
	const char *help[] = { "--json", "-h", NULL };
	const char *unknown[] = { "--bogus", NULL };
	const char *letter[] = { "-z", NULL };
	struct rd_cli cli;
	struct opts o;

	(void)state;
	assert_int_equal(parse(&cli, &o, help), CLI_HELP);
	assert_int_equal(usage_calls, 1);
	assert_int_equal(parse(&cli, &o, unknown), CLI_BAD);
	assert_int_equal(usage_calls, 1);
	assert_int_equal(parse(&cli, &o, letter), CLI_BAD);
}

static void test_bad_values(void **state)
{
	const char *const cases[][3] = {
		{ "--port", "0", NULL },	/* below the range */
		{ "--port", "256", NULL },	/* above */
		{ "--port", "-1", NULL },
		{ "--port", "2x", NULL },
		{ "-t", "0x", NULL },
		{ "--node", "4096", NULL },
		{ "--window", "0.1", NULL },
		{ "--window", "nan", NULL },
		{ "--window", "inf", NULL },
		{ "-m", "1023", NULL },		/* the call refuses it */
		{ "--device", NULL, NULL },	/* missing argument */
	};
	struct rd_cli cli;
	struct opts o;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(parse(&cli, &o, cases[i]), CLI_BAD);
	assert_int_equal(o.port, 0);	/* nothing stored from a bad value */
}

/* The exit status follows the worst verdict; UNKNOWN counts only when strict. */
static void test_verdict_status(void **state)
{
	(void)state;
	assert_int_equal(cli_verdict_status(RD_PASS, true), 0);
	assert_int_equal(cli_verdict_status(RD_UNKNOWN, false), 0);
	assert_int_equal(cli_verdict_status(RD_UNKNOWN, true), 1);
	assert_int_equal(cli_verdict_status(RD_WARN, false), 1);
	assert_int_equal(cli_verdict_status(RD_FAIL, false), 2);
	assert_int_equal(cli_verdict_status(RD_FAIL, true), 2);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_values_stored),
	cmocka_unit_test(test_common_options),
	cmocka_unit_test(test_help_and_unknown),
	cmocka_unit_test(test_bad_values),
	cmocka_unit_test(test_verdict_status),
};

int main(void)
{
	return cmocka_run_group_tests(tests, NULL, NULL);
}
