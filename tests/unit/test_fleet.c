// SPDX-License-Identifier: GPL-2.0-or-later
/* Fleet report parsing: pdsh lines, clush -b groups, files, bad output. */
#include "config.h"

#include "unit.h"

#include <json-c/json.h>
#include <time.h>

#include "core/escape.h"
#include "fleet/fleet.h"

/* One host's check --json, pretty-printed as check prints it. */
static const char *const host_ok =
	"[\n"
	"  {\n"
	"    \"check\": \"qos.pfc\",\n"
	"    \"verdict\": \"WARN\",\n"
	"    \"cause\": \"pfc_off\",\n"
	"    \"summary\": \"eth2: PFC off on priority 3\",\n"
	"    \"time\": \"2026-11-30T10:00:00Z\"\n"
	"  },\n"
	"  {\n"
	"    \"check\": \"port.state\",\n"
	"    \"verdict\": \"PASS\",\n"
	"    \"cause\": \"ok\",\n"
	"    \"summary\": \"mlx5_0/1 ACTIVE\"\n"
	"  }\n"
	"]\n";

static const char *const host_fail =
	"[\n"
	"  { \"check\": \"port.state\", \"verdict\": \"FAIL\", \"cause\": "
	"\"no_carrier\",\n"
	"    \"summary\": \"mlx5_0/1 DOWN\" },\n"
	"  { \"check\": \"qos.pfc\", \"verdict\": \"WARN\", \"cause\": "
	"\"pfc_off\",\n"
	"    \"summary\": \"eth2: PFC off on priority 3\" }\n"
	"]\n";

/* Feed text as gathered output with "host: " before every line. */
static void feed_prefixed(struct rd_fleet *f, const char *host,
			  const char *text)
{
	char line[512];

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int n = snprintf(line, sizeof(line), "%s: %.*s", host, (int)len,
				 p);

		assert_int_equal(rd_fleet_feed_line(f, line, (size_t)n), 0);
		p += len + (nl ? 1 : 0);
	}
}

static struct rd_fleet_host *find(struct rd_fleet *f, const char *name)
{
	for (size_t i = 0; i < f->n_hosts; i++)
		if (strcmp(f->hosts[i].name, name) == 0)
			return &f->hosts[i];
	fail_msg("no host %s", name);
	return NULL;
}

static void test_pdsh_grouping(void **state)
{
	struct rd_fleet f;
	static const char exit_line[] =
		"pdsh@head: n4: rdmadiag exited with exit code 3";
	static const char err_line[] = "n4: rdmadiag: cannot take a snapshot: "
				       "/sys: No such file or directory";

	(void)state;
	rd_fleet_init(&f);
	feed_prefixed(&f, "n1", host_ok);
	feed_prefixed(&f, "n2", host_fail);
	feed_prefixed(&f, "n3", host_ok);
	/* A line of n5's standard error inside its JSON is not part of it. */
	feed_prefixed(&f, "n5", "[\nrdmadiag: a message\n]");
	assert_int_equal(rd_fleet_feed_line(&f, err_line, strlen(err_line)), 0);
	assert_int_equal(rd_fleet_feed_line(&f, exit_line, strlen(exit_line)),
			 0);
	rd_fleet_finish(&f);
	assert_int_equal(f.n_hosts, 5);
	assert_int_equal(find(&f, "n5")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "n1")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "n1")->worst, RD_FLEET_WARN);
	assert_null(find(&f, "n1")->reported);
	assert_string_equal(find(&f, "n1")->time, "2026-11-30T10:00:00Z");
	assert_int_equal(find(&f, "n2")->worst, RD_FLEET_FAIL);
	assert_int_equal(find(&f, "n4")->state, RD_FLEET_NO_ANSWER);
	assert_int_equal(find(&f, "n4")->exit_code, 3);
	assert_non_null(
		strstr(find(&f, "n4")->reason, "cannot take a snapshot"));
	/* FAIL first, then the WARN all three answering hosts share. */
	assert_int_equal(f.n_findings, 2);
	assert_int_equal(f.findings[0].verdict, RD_FLEET_FAIL);
	assert_int_equal(f.findings[0].n_hosts, 1);
	assert_string_equal(f.findings[1].summary,
			    "eth2: PFC off on priority 3");
	assert_int_equal(f.findings[1].n_hosts, 3);
	assert_int_equal(rd_fleet_worst(&f), RD_FLEET_FAIL);
	rd_fleet_free(&f);
}

/* Lines of two hosts interleaved, as pdsh prints them. */
static void test_pdsh_interleaved(void **state)
{
	struct rd_fleet f;
	const char *a = host_ok, *b = host_ok;
	char line[256];

	(void)state;
	rd_fleet_init(&f);
	while (*a || *b) {
		for (int k = 0; k < 2; k++) {
			const char **p = k ? &b : &a;
			const char *nl;
			int n;

			if (!**p)
				continue;
			nl = strchr(*p, '\n');
			n = snprintf(line, sizeof(line), "%s: %.*s",
				     k ? "b" : "a", (int)(nl - *p), *p);
			assert_int_equal(
				rd_fleet_feed_line(&f, line, (size_t)n), 0);
			*p = nl + 1;
		}
	}
	rd_fleet_finish(&f);
	assert_int_equal(f.n_hosts, 2);
	assert_int_equal(f.hosts[0].state, RD_FLEET_ANSWERED);
	assert_int_equal(f.hosts[1].state, RD_FLEET_ANSWERED);
	assert_int_equal(f.n_findings, 1);
	assert_int_equal(f.findings[0].n_hosts, 2);
	rd_fleet_free(&f);
}

static void feed_text(struct rd_fleet *f, const char *text)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(in);
	assert_int_equal(rd_fleet_read_stream(f, in, NULL), 0);
	fclose(in);
}

/* A fresh fleet read from the gathered output fmt makes, and finished. */
__attribute__((format(printf, 2, 3)))
static void fleet_of(struct rd_fleet *f, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	assert_true(vasprintf(&text, fmt, ap) > 0);
	va_end(ap);
	rd_fleet_init(f);
	feed_text(f, text);
	rd_fleet_finish(f);
	free(text);
}

static void test_clush_groups(void **state)
{
	struct rd_fleet f;

	(void)state;
	fleet_of(&f,
		 "clush: c9: exited with exit code 255\n"
		 "---------------\nc[01-03,07] (4)\n---------------\n%s"
		 "---------------\nc5\n---------------\n%s"
		 "----\npdsh@head\n----\nc11: ssh exited with exit "
		 "code 255\n",
		 host_ok, host_fail);
	assert_int_equal(f.n_hosts, 7);
	/* dshbak -c's group of pdsh's own lines names no host "pdsh@head". */
	assert_int_equal(find(&f, "c11")->state, RD_FLEET_NO_ANSWER);
	assert_int_equal(find(&f, "c11")->exit_code, 255);
	assert_int_equal(find(&f, "c01")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "c07")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "c07")->worst, RD_FLEET_WARN);
	assert_int_equal(find(&f, "c5")->worst, RD_FLEET_FAIL);
	assert_int_equal(find(&f, "c9")->state, RD_FLEET_NO_ANSWER);
	assert_int_equal(f.findings[1].n_hosts, 5);
	rd_fleet_free(&f);
}

/*
 * A group header that names a host twice, first or later ("c[01-02,01]"),
 * or a host of an earlier group again: each host once per finding.
 */
static void test_clush_host_twice(void **state)
{
	struct rd_fleet f;

	(void)state;
	fleet_of(&f,
		 "---------------\nc[01-02,01,02] (4)\n---------------\n%s"
		 "---------------\nc[02,03,03] (3)\n---------------\n%s",
		 host_ok, host_ok);
	assert_int_equal(f.n_hosts, 3);
	assert_int_equal(find(&f, "c01")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "c03")->state, RD_FLEET_ANSWERED);
	/* Named by two groups: another host may have printed one. */
	assert_int_equal(find(&f, "c02")->state, RD_FLEET_CONFLICT);
	assert_int_equal(find(&f, "c02")->count[RD_FLEET_WARN], 2);
	for (size_t i = 0; i < f.n_findings; i++)
		assert_int_equal(f.findings[i].n_hosts, 3);
	rd_fleet_free(&f);
}

/*
 * A host's raw output in a group can forge a group for another host, or
 * break the groups and print "host: line" for it: either way the host is
 * a conflict and keeps the verdicts of both, so its FAIL is not hidden.
 */
static void test_forged_group(void **state)
{
	struct rd_fleet f;

	(void)state;
	fleet_of(&f,
		 "---------------\nevil\n---------------\n[]\n"
		 "---------------\nv1\n---------------\n[]\n"
		 "---------------\nv1\n---------------\n%s"
		 "---------------\nv2\n---------------\n%s"
		 "---------------\n[bad\nv2: []\n"
		 "clush: v3: exited with exit code 255\n"
		 "---------------\nv3\n---------------\n[]\n"
		 "clush: v4: command timeout\n"
		 "---------------\nv4\n---------------\n[]\n",
		 host_fail, host_fail);
	assert_int_equal(find(&f, "evil")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "v1")->state, RD_FLEET_CONFLICT);
	assert_non_null(strstr(find(&f, "v1")->reason, "two groups"));
	assert_int_equal(find(&f, "v1")->worst, RD_FLEET_FAIL);
	assert_int_equal(find(&f, "v2")->state, RD_FLEET_CONFLICT);
	assert_int_equal(find(&f, "v2")->worst, RD_FLEET_FAIL);
	assert_int_equal(find(&f, "v3")->state, RD_FLEET_CONFLICT);
	assert_non_null(strstr(find(&f, "v3")->reason, "exit code 255"));
	assert_int_equal(find(&f, "v4")->state, RD_FLEET_CONFLICT);
	assert_non_null(strstr(find(&f, "v4")->reason, "command timeout"));
	assert_int_equal(rd_fleet_worst(&f), RD_FLEET_FAIL);
	rd_fleet_free(&f);
}

/* Results naming two hosts, or one other than the name filed under. */
static void test_reported_host(void **state)
{
	static const char two[] = "[{\"check\":\"a\",\"verdict\":\"PASS\","
				  "\"host\":\"h1\"},{\"check\":\"b\","
				  "\"verdict\":\"PASS\",\"host\":\"h2\"}]";
	static const char h1[] = "[{\"check\":\"a\",\"verdict\":\"PASS\","
				 "\"host\":\"h1\"}]";
	struct rd_fleet f;

	(void)state;
	rd_fleet_init(&f);
	feed_prefixed(&f, "h1", two);
	feed_prefixed(&f, "h2", h1);
	feed_prefixed(&f, "h1.example.net", h1);
	feed_prefixed(&f, "192.0.2.1", h1);
	rd_fleet_finish(&f);
	assert_int_equal(find(&f, "h1")->state, RD_FLEET_CONFLICT);
	assert_int_equal(find(&f, "h2")->state, RD_FLEET_CONFLICT);
	assert_string_equal(find(&f, "h2")->reason,
			    "its results name host h1");
	assert_int_equal(find(&f, "h1.example.net")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "192.0.2.1")->state, RD_FLEET_ANSWERED);
	rd_fleet_free(&f);
}

/* A NUL byte damages its own host's line; every byte is counted. */
static void test_nul_byte(void **state)
{
	static const char text[] = "evil: x\0y\nvictim: [ ]\n"
				   "---------------\ng1\n---------------\n"
				   "[ \0 ]\n---------------\ng2\0x\n"
				   "after: [ ]\n";
	struct rd_fleet f;
	FILE *in;

	(void)state;
	rd_fleet_init(&f);
	in = fmemopen((void *)text, sizeof(text) - 1, "r");
	assert_non_null(in);
	assert_int_equal(rd_fleet_read_stream(&f, in, NULL), 0);
	fclose(in);
	rd_fleet_finish(&f);
	assert_int_equal(f.bytes, sizeof(text) - 1);
	assert_int_equal(find(&f, "evil")->state, RD_FLEET_MALFORMED);
	assert_non_null(strstr(find(&f, "evil")->reason, "NUL"));
	assert_int_equal(find(&f, "victim")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "g1")->state, RD_FLEET_MALFORMED);
	assert_int_equal(find(&f, "after")->state, RD_FLEET_ANSWERED);
	assert_int_equal(f.n_hosts, 4);
	rd_fleet_free(&f);
}

/*
 * The tools' own words on a host without an exit code: pdsh's timeout and
 * signal lines, clush -b's behind its progress counter. Such a host did
 * not answer; one that only printed text of its own is malformed.
 */
static void test_tool_words(void **state)
{
	struct rd_fleet f;
	static const char text[] =
		"pdsh@head: t1: command timeout\n"
		"sending signal 15 to t1 [rdmadiag] pid 4242\n"
		"t2: [\n"
		"t2:   {\n"
		"pdsh@head: t2: command timeout\n"
		"pdsh@head: t1: rdmadiag killed by signal 15\n"
		"pdsh@head: t3: rdmadiag killed by signal 9\n"
		"t4: bash: some text\n"
		"clush: 0/2\r           \rclush: 2/2\rclush: k[1-2]: command timeout\n";

	(void)state;
	rd_fleet_init(&f);
	feed_text(&f, text);
	rd_fleet_finish(&f);
	assert_int_equal(find(&f, "t1")->state, RD_FLEET_NO_ANSWER);
	assert_string_equal(find(&f, "t1")->reason, "command timeout");
	assert_int_equal(find(&f, "t2")->state, RD_FLEET_MALFORMED);
	assert_non_null(strstr(find(&f, "t2")->reason, "truncated"));
	assert_non_null(strstr(find(&f, "t2")->reason, "(command timeout)"));
	assert_int_equal(find(&f, "t3")->state, RD_FLEET_NO_ANSWER);
	assert_string_equal(find(&f, "t3")->reason,
			    "rdmadiag killed by signal 9");
	assert_int_equal(find(&f, "t4")->state, RD_FLEET_MALFORMED);
	assert_int_equal(find(&f, "k1")->state, RD_FLEET_NO_ANSWER);
	assert_int_equal(find(&f, "k2")->state, RD_FLEET_NO_ANSWER);
	/* No host is named after the progress counter. */
	assert_int_equal(f.n_hosts, 6);
	assert_int_equal(f.stray_lines, 1);
	rd_fleet_free(&f);
}

/* A truncated host, a garbage host and a wrong-shape host: the rest stays. */
/*
 * A long reason quoting a host's output is cut by its buffer: whatever
 * the alignment, the cut never leaves part of a UTF-8 character.
 */
static void test_reason_cut_utf8(void **state)
{
	struct rd_fleet f;
	char line[600], exit_line[80];

	(void)state;
	rd_fleet_init(&f);
	for (int p = 0; p < 6; p++) {
		int n = snprintf(line, sizeof(line), "u%d: %.*s", p, p, "abcdef");

		/* Each \x01 is stored as four characters, each é as two bytes. */
		while (n < 400)
			n += snprintf(line + n, sizeof(line) - (size_t)n,
				      "\x01\xc3\xa9");
		assert_int_equal(rd_fleet_feed_line(&f, line, (size_t)n), 0);
		if (p % 2) {
			snprintf(exit_line, sizeof(exit_line),
				 "pdsh@head: u%d: rdmadiag exited with exit code 3",
				 p);
			assert_int_equal(rd_fleet_feed_line(&f, exit_line,
							    strlen(exit_line)),
					 0);
		}
	}
	rd_fleet_finish(&f);
	for (size_t i = 0; i < f.n_hosts; i++) {
		const char *r = f.hosts[i].reason;

		assert_non_null(r);
		assert_true(strlen(r) > 250);
		if (!rd_text_clean(r, strlen(r)))
			fail_msg("%s: reason is not clean text", f.hosts[i].name);
	}
	rd_fleet_free(&f);
}

static void test_bad_output(void **state)
{
	struct rd_fleet f;
	char cut[200];
	static const char esc[] = "g: \x1b[2J not json";

	(void)state;
	rd_fleet_init(&f);
	feed_prefixed(&f, "good", host_ok);
	snprintf(cut, sizeof(cut), "%.120s", host_ok);
	feed_prefixed(&f, "cut", cut);
	assert_int_equal(rd_fleet_feed_line(&f, esc, strlen(esc)), 0);
	feed_prefixed(&f, "bad", "[ { \"check\": \"x\", \"verdict\": 7 } ]");
	feed_prefixed(&f, "syntax", "[ { \"check\": } ]");
	feed_prefixed(&f, "obj", "{ \"check\": \"x\" }");
	rd_fleet_finish(&f);
	assert_int_equal(find(&f, "good")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "cut")->state, RD_FLEET_MALFORMED);
	assert_non_null(strstr(find(&f, "cut")->reason, "truncated"));
	assert_int_equal(find(&f, "g")->state, RD_FLEET_MALFORMED);
	/* The escape byte is stored escaped, never raw. */
	assert_null(strchr(find(&f, "g")->reason, '\x1b'));
	assert_non_null(strstr(find(&f, "g")->reason, "\\x1b[2J"));
	assert_int_equal(find(&f, "bad")->state, RD_FLEET_MALFORMED);
	assert_int_equal(find(&f, "syntax")->state, RD_FLEET_MALFORMED);
	assert_int_equal(find(&f, "obj")->state, RD_FLEET_MALFORMED);
	assert_int_equal(f.n_findings, 1);
	assert_int_equal(f.findings[0].n_hosts, 1);
	rd_fleet_free(&f);
}

static void test_directory(void **state)
{
	char dir[] = "/tmp/test_fleet.XXXXXX", path[PATH_MAX], err[256];
	struct rd_fleet f;
	FILE *hl;

	(void)state;
	assert_non_null(mkdtemp(dir));
	unit_put(dir, "a1.json", host_ok);
	unit_put(dir, "a2.json", host_fail);
	unit_put(dir, "a3", "[ {\"check\": \"qos.pfc\",");
	unit_put(dir, ".hidden", "garbage");
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	rd_fleet_init(&f);
	hl = fmemopen((void *)"# expected\na[1-4]\n", 18, "r");
	assert_int_equal(rd_fleet_read_host_list(&f, hl), 0);
	fclose(hl);
	assert_int_equal(rd_fleet_read_dir(&f, dir, err, sizeof(err)), 0);
	rd_fleet_finish(&f);
	assert_int_equal(f.n_hosts, 4);
	assert_int_equal(find(&f, "a1")->state, RD_FLEET_ANSWERED);
	assert_int_equal(find(&f, "a2")->worst, RD_FLEET_FAIL);
	assert_int_equal(find(&f, "a3")->state, RD_FLEET_MALFORMED);
	assert_int_equal(find(&f, "a4")->state, RD_FLEET_NO_ANSWER);
	assert_string_equal(find(&f, "a4")->reason, "no output");
	rd_fleet_free(&f);
	assert_int_not_equal(
		rd_fleet_read_dir(&f, "/nonexistent/x", err, sizeof(err)), 0);
	unit_rmtree(dir);
}

static int collect(void *arg, const char *name)
{
	char *buf = arg;

	strcat(buf, name);
	strcat(buf, " ");
	return 0;
}

/*
 * A directory of many hosts is read in name order within a few seconds
 * (an insertion sort of 40000 names took longer than that on its own).
 */
static void test_directory_many(void **state)
{
	/* Under valgrind (its preload) or ASan: the order, not the time. */
#ifdef __SANITIZE_ADDRESS__
	const bool slowed = true;
#else
	const char *pre = getenv("LD_PRELOAD");
	const bool slowed = pre && strstr(pre, "vgpreload");
#endif
	const int n = slowed ? 2000 : 40000;
	char dir[] = "/tmp/test_fleet.XXXXXX", name[32], err[256];
	struct rd_fleet f;
	clock_t t0;
	double cpu;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int i = n; i-- > 0;) {
		snprintf(name, sizeof(name), "n%05d.json", (i * 7919) % n);
		unit_put(dir, name, "[]");
	}
	rd_fleet_init(&f);
	t0 = clock();
	assert_int_equal(rd_fleet_read_dir(&f, dir, err, sizeof(err)), 0);
	cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_int_equal(f.n_hosts, (size_t)n);
	for (size_t i = 1; i < f.n_hosts; i++)
		assert_true(strcmp(f.hosts[i - 1].name, f.hosts[i].name) < 0);
	rd_fleet_free(&f);
	unit_rmtree(dir);
	print_message("%d files read in %.2f s of CPU\n", n, cpu);
	assert_true(slowed || cpu < 5.0);
}

static void test_nodeset(void **state)
{
	char buf[512];

	(void)state;
	buf[0] = '\0';
	assert_int_equal(rd_fleet_nodeset("n[08-10,3]x,m", collect, buf), 0);
	assert_string_equal(buf, "n08x n09x n10x n3x m ");
	buf[0] = '\0';
	assert_int_equal(rd_fleet_nodeset("r[1-2]c[1-2]", collect, buf), 0);
	assert_string_equal(buf, "r1c1 r1c2 r2c1 r2c2 ");
	buf[0] = '\0';
	assert_int_equal(rd_fleet_nodeset("n[3-1]", collect, buf), -EINVAL);
	assert_int_equal(rd_fleet_nodeset("n[1-", collect, buf), -EINVAL);
	assert_int_equal(rd_fleet_nodeset("n[]", collect, buf), -EINVAL);
	assert_int_equal(rd_fleet_nodeset("a,,b", collect, buf), -EINVAL);
	assert_int_equal(rd_fleet_nodeset("n[1-9999999]", collect, buf),
			 -E2BIG);
}

static int count_name(void *arg, const char *name)
{
	(void)name;
	(*(size_t *)arg)++;
	return 0;
}

/*
 * A number past the bound (n[18446744073709551615] wrapped around and
 * named 100000 hosts) or a set naming too many: refused, and nothing is
 * named.
 */
static void test_nodeset_bounds(void **state)
{
	size_t n = 0;

	(void)state;
	assert_int_equal(rd_fleet_nodeset("n[18446744073709551615]",
					  count_name, &n),
			 -ERANGE);
	assert_int_equal(rd_fleet_nodeset("n[999999999-1000000000]",
					  count_name, &n),
			 -ERANGE);
	assert_int_equal(rd_fleet_nodeset("n[1-60000],m[1-60000]",
					  count_name, &n),
			 -E2BIG);
	assert_int_equal(n, 0);
	assert_int_equal(rd_fleet_nodeset("n[999999998-999999999]",
					  count_name, &n),
			 0);
	assert_int_equal(n, 2);
}

static void test_fold(void **state)
{
	const char *names[] = { "c01",	 "c02", "c03", "c07", "c10", "c9x",
				"login", "n1",	"n2",  "n3",  "n5",  "z0" };
	const char *pair[] = { "host1", "host3" };
	char buf[256], small[40];

	(void)state;
	assert_string_equal(rd_fleet_fold(names, 12, buf, sizeof(buf)),
			    "c[01-03,07,10],c9x,login,n[1-3,5],z0");
	assert_string_equal(rd_fleet_fold(pair, 2, buf, sizeof(buf)),
			    "host[1,3]");
	assert_string_equal(rd_fleet_fold(names, 1, buf, sizeof(buf)), "c01");
	/* Too long: cut, with the count of the hosts left out. */
	rd_fleet_fold(names, 12, small, sizeof(small));
	assert_string_equal(small, "c[01-03,07,10],c9x,... 6 more hosts");
}

static void test_output(void **state)
{
	struct json_object *j, *v;
	struct rd_fleet f;
	char *out = NULL;
	size_t len = 0;
	FILE *o;

	(void)state;
	rd_fleet_init(&f);
	feed_prefixed(&f, "n1", host_ok);
	feed_prefixed(&f, "n2", host_ok);
	feed_prefixed(&f, "n3", "[ {");
	rd_fleet_finish(&f);
	o = open_memstream(&out, &len);
	assert_int_equal(rd_fleet_print_text(&f, o, 0), 0);
	fclose(o);
	assert_non_null(strstr(out, "3 hosts: 2 answered"));
	assert_non_null(strstr(out, "2 hosts: eth2: PFC off on priority 3"));
	assert_non_null(strstr(out, "on n[1-2]"));
	assert_non_null(strstr(out, "n3"));
	free(out);
	o = open_memstream(&out, &len);
	assert_int_equal(rd_fleet_print_json(&f, o), 0);
	fclose(o);
	j = json_tokener_parse(out);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "malformed", &v));
	assert_int_equal(json_object_get_int(v), 1);
	assert_true(json_object_object_get_ex(j, "findings", &v));
	assert_int_equal(json_object_array_length(v), 1);
	json_object_put(j);
	free(out);
	rd_fleet_free(&f);
}

/* More distinct findings than the cap: counted, the rest still grouped. */
static void test_findings_cap(void **state)
{
	size_t n = RD_FLEET_FINDINGS_MAX + 5, len = 0;
	char *text = malloc(n * 80 + 16);
	struct rd_fleet f;

	(void)state;
	assert_non_null(text);
	len += (size_t)sprintf(text, "[");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len,
				       "%s{\"check\":\"c\",\"verdict\":"
				       "\"WARN\",\"summary\":\"s%zu\"}\n",
				       i ? "," : "", i);
	len += (size_t)sprintf(text + len, "]\n");
	rd_fleet_init(&f);
	assert_int_equal(rd_fleet_add_output(&f, "a", text, len), 0);
	assert_int_equal(rd_fleet_add_output(&f, "b", text, len), 0);
	rd_fleet_finish(&f);
	assert_int_equal(f.n_findings, RD_FLEET_FINDINGS_MAX);
	assert_int_equal(f.findings_dropped, 10);
	assert_int_equal(f.findings[0].n_hosts, 2);
	assert_int_equal(f.hosts[1].count[RD_FLEET_WARN], n);
	free(text);
	rd_fleet_free(&f);
}

/* More hosts than the cap: the rest counted, never stored. */
static void test_hosts_cap(void **state)
{
	struct rd_fleet f;
	char line[64];

	(void)state;
	rd_fleet_init(&f);
	for (int i = 0; i < RD_FLEET_HOSTS_MAX + 5; i++) {
		int n = snprintf(line, sizeof(line), "h%d: [ ]", i);

		assert_int_equal(rd_fleet_feed_line(&f, line, (size_t)n), 0);
	}
	/* A known host still finds its entry past the cap. */
	assert_int_equal(rd_fleet_feed_line(&f, "h7: [ ]", 7), 0);
	rd_fleet_finish(&f);
	assert_int_equal(f.n_hosts, RD_FLEET_HOSTS_MAX);
	assert_int_equal(f.hosts_dropped, 5);
	assert_int_equal(f.hosts[7].state, RD_FLEET_ANSWERED);
	rd_fleet_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pdsh_grouping),
		cmocka_unit_test(test_pdsh_interleaved),
		cmocka_unit_test(test_clush_groups),
		cmocka_unit_test(test_clush_host_twice),
		cmocka_unit_test(test_forged_group),
		cmocka_unit_test(test_reported_host),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_tool_words),
		cmocka_unit_test(test_bad_output),
		cmocka_unit_test(test_reason_cut_utf8),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_directory_many),
		cmocka_unit_test(test_nodeset),
		cmocka_unit_test(test_nodeset_bounds),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_findings_cap),
		cmocka_unit_test(test_hosts_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
