// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Verdicts for the fixture hosts: each tests/fixtures/NAME/snapshot.golden.json
 * is evaluated and compared with NAME/verdicts.golden, one line per result
 * ("VERDICT check target cause"). After an intended change, regenerate with
 *   RDMADIAG_REGEN_GOLDEN=1 make check TESTS=tests/unit/test_diag_golden
 * and review the diff.
 */
#include "config.h"

#include "unit.h"

#include <dirent.h>
#include <inttypes.h>

#include "core/json.h"
#include "diag/diag.h"
#include "diag_snap.h"

static char *verdict_lines(const struct rd_results *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	for (size_t i = 0; i < res->n; i++) {
		const struct rd_result *r = &res->v[i];

		fprintf(f, "%-7s %-18s %s", rd_verdict_name(r->verdict),
			r->check_id, r->device ? r->device : "host");
		if (r->port)
			fprintf(f, "/%" PRIu64, r->port);
		fprintf(f, " %s%s%s\n", r->cause, r->fix ? " fix: " : "",
			r->fix ? r->fix->command : "");
	}
	fclose(f);
	return buf;
}

/* The kinds a fixture offers, one bit each. */
static int fixes_seen;

static void check_one(const char *name)
{
	char snap[PATH_MAX], gold[PATH_MAX], err[512];
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	char *got, *want = NULL;
	size_t wlen;

	snprintf(snap, sizeof(snap), "%s/%s/snapshot.golden.json", RD_FIXTURES,
		 name);
	snprintf(gold, sizeof(gold), "%s/%s/verdicts.golden", RD_FIXTURES, name);
	if (access(snap, R_OK) != 0)
		return;
	if (rd_snapshot_load_file(snap, &s, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(rd_diag_run(&s, NULL, NULL, &res), 0);
	rd_results_sort(&res);
	/* Text for the person on call states facts, never "the guide". */
	for (size_t i = 0; i < res.n; i++) {
		const struct rd_result *r = &res.v[i];
		const char *texts[] = { r->summary, r->why, r->next_step };

		for (size_t k = 0; k < 3; k++)
			if (texts[k] && strcasestr(texts[k], "guide"))
				fail_msg("%s %s: \"%s\"", name, r->check_id,
					 texts[k]);
		if (r->fix) {
			fix_is_its_kind(name, r);
			fixes_seen |= 1 << r->fix->kind;
		}
	}
	got = verdict_lines(&res);
	if (getenv("RDMADIAG_REGEN_GOLDEN")) {
		FILE *f = fopen(gold, "w");

		assert_non_null(f);
		fputs(got, f);
		fclose(f);
	} else {
		if (rd_read_file(gold, 1 << 20, &want, &wlen) < 0)
			fail_msg("%s missing: regenerate with RDMADIAG_REGEN_GOLDEN=1",
				 gold);
		if (strcmp(got, want) != 0)
			fail_msg("%s differs from the fixture's verdicts:\n%s",
				 gold, got);
		free(want);
	}
	free(got);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

static void test_fixtures(void **state)
{
	DIR *d = opendir(RD_FIXTURES);
	struct dirent *e;
	int seen = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char p[PATH_MAX];

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s/snapshot.golden.json", RD_FIXTURES,
			 e->d_name);
		if (access(p, R_OK) != 0)
			continue;
		check_one(e->d_name);
		seen++;
	}
	closedir(d);
	assert_true(seen > 0);
	print_message("fix kinds a fixture offers: mask 0x%x\n", fixes_seen);
	assert_true(fixes_seen != 0);
}

/* The story a person reads for the port-down fixture. */
static void test_port_down_story(void **state)
{
	char snap[PATH_MAX], err[512];
	struct rd_snapshot s;
	struct rd_results res = { 0 };
	bool found = false;

	(void)state;
	snprintf(snap, sizeof(snap), "%s/cx6dx-roce-port-down/snapshot.golden.json",
		 RD_FIXTURES);
	if (rd_snapshot_load_file(snap, &s, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(rd_diag_run(&s, NULL, NULL, &res), 0);
	for (size_t i = 0; i < res.n; i++) {
		const struct rd_result *r = &res.v[i];

		if (strcmp(r->check_id, "port.state") != 0 || !r->device ||
		    strcmp(r->device, "mlx5_1") != 0)
			continue;
		assert_int_equal(r->verdict, RD_FAIL);
		assert_string_equal(r->cause, "admin_down");
		assert_non_null(r->fix);
		assert_string_equal(r->fix->command, "ip link set dev eth3 up");
		found = true;
	}
	assert_true(found);
	rd_results_free(&res);
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_port_down_story),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
