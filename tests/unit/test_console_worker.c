// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probing worker: updates arrive through its pipe, fix-ups are
 * refused off a live host, and a source stuck in a wait does not hold up
 * the shutdown past its bound.
 */
#include "config.h"

#include "unit.h"

#include <dirent.h>
#include <poll.h>
#include <sys/resource.h>

#include "console/worker.h"

static char demo[4096];

/* The next update of one of the kinds wanted, within secs. */
static struct con_update *wait_update(struct con_worker *w, unsigned kinds,
				      double secs)
{
	double end = con_now() + secs;

	while (con_now() < end) {
		struct pollfd p = { .fd = con_worker_fd(w), .events = POLLIN };
		struct con_update *u;

		poll(&p, 1, 100);
		while ((u = con_worker_take(w))) {
			if (kinds & (1u << u->kind))
				return u;
			con_update_free(u);
		}
	}
	return NULL;
}

static struct con_worker *start_demo(void)
{
	struct con_source src;
	struct con_worker *w;
	char err[512];

	assert_int_equal(con_source_open_recording(&src, CON_DEMO, demo, 0.2,
						   err, sizeof(err)),
			 0);
	assert_int_equal(con_worker_start(&w, &src, 0.2, err, sizeof(err)), 0);
	return w;
}

static void test_updates_from_a_recording(void **unused)
{
	struct con_worker *w = start_demo();
	struct con_update *u = wait_update(w, 1u << CON_UP_SNAPSHOT, 5);
	size_t first;

	assert_non_null(u);
	assert_true(u->have_snap);
	assert_true(u->have_results);
	assert_int_equal(u->source, CON_DEMO);
	assert_true(u->source_changed);
	assert_true(u->n_frames > 1);
	assert_true(u->snap.n_devices > 0);
	first = u->frame;
	con_update_free(u);
	/* The timer moves on to the next frame by itself. */
	u = wait_update(w, 1u << CON_UP_SNAPSHOT, 5);
	assert_non_null(u);
	assert_false(u->source_changed);
	assert_int_equal(u->frame, (first + 1) % u->n_frames);
	con_update_free(u);
	assert_int_equal(con_worker_stop(w, 2.0), 0);
}

static void test_paused_answers_refresh(void **unused)
{
	struct con_worker *w = start_demo();
	struct con_update *u = wait_update(w, 1u << CON_UP_SNAPSHOT, 5);

	assert_non_null(u);
	con_update_free(u);
	con_worker_settings(w, 0.2, true);
	/* Drain what was on its way, then nothing comes by itself. */
	while ((u = wait_update(w, 1u << CON_UP_SNAPSHOT, 0.5)))
		con_update_free(u);
	assert_null(wait_update(w, 1u << CON_UP_SNAPSHOT, 0.6));
	con_worker_refresh(w, true);
	u = wait_update(w, 1u << CON_UP_SNAPSHOT, 5);
	assert_non_null(u);
	con_update_free(u);
	assert_int_equal(con_worker_stop(w, 2.0), 0);
}

static void test_play_another_recording(void **unused)
{
	struct con_worker *w = start_demo();
	struct con_update *u = wait_update(w, 1u << CON_UP_SNAPSHOT, 5);

	assert_non_null(u);
	con_update_free(u);
	/* A file that is not there: told why, and the demo plays on. */
	con_worker_play(w, CON_REPLAY, "/nonexistent/recording.jsonl");
	u = wait_update(w, 1u << CON_UP_NOTICE, 5);
	assert_non_null(u);
	assert_non_null(strstr(u->text, "cannot be played"));
	con_update_free(u);
	u = wait_update(w, 1u << CON_UP_SNAPSHOT, 5);
	assert_non_null(u);
	assert_int_equal(u->source, CON_DEMO);
	assert_false(u->source_changed);
	con_update_free(u);
	/* A new recording starts over: its history is its own. */
	con_worker_play(w, CON_REPLAY, demo);
	while ((u = wait_update(w, 1u << CON_UP_SNAPSHOT, 5)) &&
	       u->source != CON_REPLAY)
		con_update_free(u);
	assert_non_null(u);
	assert_true(u->source_changed);
	assert_int_equal(u->frame, 0);
	con_update_free(u);
	assert_int_equal(con_worker_stop(w, 2.0), 0);
}

/* The nice value of thread tid of this process (field 19 of its stat). */
static int task_nice(const char *tid)
{
	char path[128], buf[1024], *p;
	int nice = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%s/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return -100;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -100;
	}
	fclose(f);
	p = strrchr(buf, ')'); /* the name may hold spaces */
	if (!p || sscanf(p + 2,
			 "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
			 "%*u %*u %*d %*d %*d %d",
			 &nice) != 1)
		return -100;
	return nice;
}

/* Probing is background work: its thread yields the CPU to the loop's. */
static void test_worker_is_nicer(void **unused)
{
	struct con_worker *w = start_demo();
	struct con_update *u = wait_update(w, 1u << CON_UP_SNAPSHOT, 5);
	int mine = getpriority(PRIO_PROCESS, 0), nicer = 0;
	struct dirent *e;
	DIR *d;

	assert_non_null(u);
	con_update_free(u);
	d = opendir("/proc/self/task");
	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && task_nice(e->d_name) > mine)
			nicer++;
	closedir(d);
	if (mine <= 14)
		assert_int_equal(nicer, 1);
	assert_int_equal(con_worker_stop(w, 2.0), 0);
}

/* A fix-up the demo offers, as the checklist would ask for it. */
static bool demo_fix(struct con_update *u, struct con_fix_request *q)
{
	for (size_t i = 0; i < u->results.n; i++) {
		const struct rd_result *r = &u->results.v[i];

		if (!r->fix || !r->fix->command)
			continue;
		memset(q, 0, sizeof(*q));
		con_result_key_of(r, &q->key);
		snprintf(q->command, sizeof(q->command), "%s", r->fix->command);
		return true;
	}
	return false;
}

static void test_fix_refused_off_the_host(void **unused)
{
	struct con_worker *w = start_demo();
	struct con_update *u = wait_update(w, 1u << CON_UP_SNAPSHOT, 5);
	struct con_fix_request q;

	assert_non_null(u);
	assert_true(demo_fix(u, &q));
	con_update_free(u);
	con_worker_settings(w, 60, true); /* the same frame stays */

	/* The exact command confirmed, but a recording is not this host. */
	assert_int_equal(con_worker_fix(w, &q), 0);
	u = wait_update(w, 1u << CON_UP_FIX_DONE, 5);
	assert_non_null(u);
	assert_int_equal(u->rc, -EPERM);
	assert_non_null(strstr(u->text, "nothing changed"));
	assert_true(u->have_snap); /* read again to verify */
	con_update_free(u);

	/* A command that differs from a fresh reading: refused first. */
	snprintf(q.command, sizeof(q.command), "ip link set dev other up");
	assert_int_equal(con_worker_fix(w, &q), 0);
	u = wait_update(w, 1u << CON_UP_FIX_DONE, 5);
	assert_non_null(u);
	assert_int_equal(u->rc, -ESTALE);
	con_update_free(u);

	memset(&q, 0, sizeof(q));
	q.undo = true;
	assert_int_equal(con_worker_fix(w, &q), 0);
	u = wait_update(w, 1u << CON_UP_FIX_DONE, 5);
	assert_non_null(u);
	assert_true(u->is_undo);
	assert_int_equal(u->rc, -EPERM);
	con_update_free(u);
	assert_int_equal(con_worker_stop(w, 2.0), 0);
}

/* A source stuck in a kernel wait for 3 s at every snapshot. */
static int stuck_next(struct con_source *src, bool fresh, struct rd_snapshot *s,
		      char *err, size_t errlen)
{
	poll(NULL, 0, 3000);
	snprintf(err, errlen, "stuck");
	return -ETIMEDOUT;
}

static void stuck_close(struct con_source *src)
{
}

static const struct con_source_ops stuck_ops = { stuck_next, stuck_close };

static void test_stop_is_bounded(void **unused)
{
	struct con_source src = { .kind = CON_LIVE, .ops = &stuck_ops };
	struct con_worker *w;
	char err[128];
	double t0;

	assert_int_equal(con_worker_start(&w, &src, 1.0, err, sizeof(err)), 0);
	t0 = con_now();
	while (con_worker_busy_since(w) == 0 && con_now() - t0 < 2)
		poll(NULL, 0, 10);
	assert_true(con_worker_busy_since(w) > 0);
	t0 = con_now();
	/* The thread is left behind; the test process exits under it. */
	assert_int_equal(con_worker_stop(w, 0.2), -ETIMEDOUT);
	assert_true(con_now() - t0 < 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_updates_from_a_recording),
		cmocka_unit_test(test_paused_answers_refresh),
		cmocka_unit_test(test_play_another_recording),
		cmocka_unit_test(test_worker_is_nicer),
		cmocka_unit_test(test_fix_refused_off_the_host),
		cmocka_unit_test(test_stop_is_bounded),
	};

	setenv("RDMADIAG_DATADIR", RD_SRCDATADIR, 1);
	snprintf(demo, sizeof(demo), "%s/demo/cx6dx-demo.jsonl", RD_SRCDATADIR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
