// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The screen registry and its keys: every key name is one the console
 * knows, no key does two things, and the man page lists exactly the keys
 * the registry declares (data/rdmadiag.8, section KEYS), and the console's
 * options in its synopsis and OPTIONS exactly as its option table has them.
 */
#include "config.h"

#include "unit.h"

#include <curses.h>

#include "cmd/cli.h"
#include "core/snapshot.h"
#include "views/ui.h"

#define MAX_NAMES 256

struct names {
	char v[MAX_NAMES][24];
	size_t n;
};

static void add(struct names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return;
	assert_true(s->n < MAX_NAMES);
	assert_true(strlen(name) < sizeof(s->v[0]));
	snprintf(s->v[s->n++], sizeof(s->v[0]), "%s", name);
}

static bool has(const struct names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return true;
	return false;
}

/* Each space-separated word of keys into s. */
static void add_words(struct names *s, const char *keys)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", keys);
	for (char *w = strtok_r(buf, " ", &save); w;
	     w = strtok_r(NULL, " ", &save))
		add(s, w);
}

static void registry_names(struct names *s)
{
	char buf[8];

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < ui_n_screens; i++) {
		const struct ui_screen *sc = ui_screens[i];

		snprintf(buf, sizeof(buf), "F%d", sc->fkey);
		add(s, buf);
		snprintf(buf, sizeof(buf), "%c", sc->letter);
		add(s, buf);
		for (const struct ui_action *a = sc->actions; a && a->keys; a++)
			add_words(s, a->keys);
		for (const struct ui_action *a = sc->anywhere; a && a->keys;
		     a++)
			add_words(s, a->keys);
	}
	for (const struct ui_action *a = ui_global_actions; a->keys; a++)
		add_words(s, a->keys);
}

static void test_key_names(void **unused)
{
	assert_int_equal(ui_key_code("F10"), KEY_F(10));
	assert_int_equal(ui_key_code("F1"), KEY_F(1));
	assert_int_equal(ui_key_code("Ctrl-L"), 12);
	assert_int_equal(ui_key_code("PgUp"), KEY_PPAGE);
	assert_int_equal(ui_key_code("Shift-Tab"), KEY_BTAB);
	assert_int_equal(ui_key_code("q"), 'q');
	assert_int_equal(ui_key_code("<"), '<');
	assert_int_equal(ui_key_code("F13"), -1);
	assert_int_equal(ui_key_code("F1x"), -1);
	assert_int_equal(ui_key_code("Ctrl-l"), -1);
	assert_int_equal(ui_key_code("Bogus"), -1);
	assert_int_equal(ui_key_code(""), -1);
	assert_int_equal(ui_key_code(NULL), -1);
}

static void test_every_name_is_a_key(void **unused)
{
	struct names s;

	registry_names(&s);
	for (size_t i = 0; i < s.n; i++)
		if (ui_key_code(s.v[i]) < 0)
			fail_msg("the registry names a key the console does "
				 "not know: \"%s\"",
				 s.v[i]);
}

/* Every code a key table answers; false on a code seen twice. */
static bool claim(int *seen, size_t *n, int code)
{
	for (size_t i = 0; i < *n; i++)
		if (seen[i] == code)
			return false;
	seen[(*n)++] = code;
	return true;
}

static void claim_words(int *seen, size_t *n, const char *keys)
{
	struct names s = { .n = 0 };

	add_words(&s, keys);
	for (size_t i = 0; i < s.n; i++)
		if (!claim(seen, n, ui_key_code(s.v[i])))
			fail_msg("key \"%s\" does two things", s.v[i]);
}

static void test_no_key_does_two_things(void **unused)
{
	int global[512];
	size_t ng = 0;

	/* Screen switches and the keys of every screen are one table. */
	for (size_t i = 0; i < ui_n_screens; i++) {
		const struct ui_screen *sc = ui_screens[i];

		assert_true(sc->fkey >= 1 && sc->fkey <= 12);
		assert_non_null(sc->name);
		assert_non_null(sc->brief);
		assert_non_null(sc->help);
		assert_non_null(sc->draw);
		if (!claim(global, &ng, KEY_F(sc->fkey)) ||
		    !claim(global, &ng, sc->letter))
			fail_msg("screen %s: its F-key or letter is taken",
				 sc->name);
	}
	for (const struct ui_action *a = ui_global_actions; a->keys; a++)
		claim_words(global, &ng, a->keys);
	/* Keys a screen answers from anywhere are global keys too. */
	for (size_t i = 0; i < ui_n_screens; i++)
		for (const struct ui_action *a = ui_screens[i]->anywhere;
		     a && a->keys; a++) {
			claim_words(global, &ng, a->keys);
			assert_non_null(a->fn);
			assert_non_null(a->help);
		}
	/* A screen's own keys may shadow global ones (Esc), but never a
	 * screen switch, and never each other. */
	for (size_t i = 0; i < ui_n_screens; i++) {
		int own[128];
		size_t no = 0;

		for (const struct ui_action *a = ui_screens[i]->actions;
		     a && a->keys; a++) {
			claim_words(own, &no, a->keys);
			assert_non_null(a->help);
		}
		for (size_t k = 0; k < no; k++)
			for (size_t j = 0; j < ui_n_screens; j++)
				if (own[k] == ui_screens[j]->letter ||
				    own[k] == KEY_F(ui_screens[j]->fkey))
					fail_msg("screen %s hides the key of "
						 "screen %s",
						 ui_screens[i]->name,
						 ui_screens[j]->name);
	}
}

/* The key words of the man page's KEYS section: each .TP's .B line. */
static void man_names(struct names *s)
{
	char path[4096], line[512];
	bool in_keys = false, after_tp = false;
	FILE *f;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/rdmadiag.8", RD_SRCDATADIR);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char words[512];
		size_t j = 0;

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, ".SH ", 4) == 0) {
			in_keys = strcmp(line, ".SH KEYS") == 0;
			continue;
		}
		if (!in_keys)
			continue;
		if (strcmp(line, ".TP") == 0) {
			after_tp = true;
			continue;
		}
		if (after_tp && strncmp(line, ".B ", 3) == 0) {
			/* troff's \- is a plain hyphen here */
			for (const char *p = line + 3;
			     *p && j + 1 < sizeof(words); p++) {
				if (p[0] == '\\' && p[1] == '-')
					p++;
				words[j++] = *p;
			}
			words[j] = '\0';
			add_words(s, words);
		}
		after_tp = false;
	}
	fclose(f);
}

static void test_man_page_lists_the_keys(void **unused)
{
	struct names reg, man;

	registry_names(&reg);
	man_names(&man);
	assert_true(man.n > 10);
	for (size_t i = 0; i < reg.n; i++)
		if (!has(&man, reg.v[i]))
			fail_msg("key \"%s\" is missing from the man page's "
				 "KEYS section",
				 reg.v[i]);
	for (size_t i = 0; i < man.n; i++)
		if (!has(&reg, man.v[i]))
			fail_msg("the man page lists key \"%s\", which the "
				 "console does not have",
				 man.v[i]);
}

/* A man-page line with troff's \- as plain hyphens. */
static void man_plain(const char *line, char *out, size_t size)
{
	size_t j = 0;

	for (const char *p = line; *p && j + 1 < size; p++) {
		if (p[0] == '\\' && p[1] == '-')
			p++;
		out[j++] = *p;
	}
	out[j] = '\0';
}

/* Every "-x" and "--long" word of text into s. */
static void add_options(struct names *s, const char *text)
{
	for (const char *p = text; *p; p++) {
		size_t n;
		char name[24];

		if (*p != '-' || (p > text && p[-1] != ' ' && p[-1] != '['))
			continue;
		n = strspn(p, "-abcdefghijklmnopqrstuvwxyz");
		if (n < 2 || n >= sizeof(name) || (n == 2 && p[1] == '-'))
			continue;
		memcpy(name, p, n);
		name[n] = '\0';
		add(s, name);
		p += n - 1;
	}
}

/*
 * The console's synopsis (the lines up to the first .br under SYNOPSIS)
 * and the option names the OPTIONS section describes (.TP then .B/.BI).
 */
static void man_options(struct names *syn, struct names *described)
{
	char path[4096], line[512], plain[512];
	bool in_syn = false, syn_done = false, in_opts = false,
	     after_tp = false;
	FILE *f;

	memset(syn, 0, sizeof(*syn));
	memset(described, 0, sizeof(*described));
	snprintf(path, sizeof(path), "%s/rdmadiag.8", RD_SRCDATADIR);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, ".SH ", 4) == 0) {
			in_syn = strcmp(line, ".SH SYNOPSIS") == 0;
			in_opts = strcmp(line, ".SH OPTIONS") == 0;
			continue;
		}
		man_plain(line, plain, sizeof(plain));
		if (in_syn && !syn_done) {
			if (strcmp(line, ".br") == 0)
				syn_done = true;
			else
				add_options(syn, plain);
		}
		if (in_opts && strcmp(line, ".TP") == 0) {
			after_tp = true;
			continue;
		}
		if (in_opts && after_tp && (strncmp(plain, ".B ", 3) == 0 ||
					    strncmp(plain, ".BI ", 4) == 0)) {
			char first[64];

			snprintf(first, sizeof(first), " %s",
				 strchr(plain, ' ') + 1);
			first[strcspn(first + 1, " ") + 1] = '\0';
			add_options(described, first);
		}
		after_tp = false;
	}
	fclose(f);
}

/* Listed under its long name, or its short one (-d for --delay). */
static bool lists(const struct names *s, const struct cli_opt *o)
{
	char name[32];

	snprintf(name, sizeof(name), "--%s", o->name);
	if (has(s, name))
		return true;
	snprintf(name, sizeof(name), "-%c", o->key);
	return o->key && has(s, name);
}

static void test_man_page_lists_the_options(void **unused)
{
	struct names syn, described, table = { .n = 0 };
	char name[32];

	man_options(&syn, &described);
	assert_true(syn.n >= 4);
	for (const struct cli_opt *o = cmd_console_opts; o->name; o++) {
		snprintf(name, sizeof(name), "--%s", o->name);
		add(&table, name);
		if (o->key) {
			snprintf(name, sizeof(name), "-%c", o->key);
			add(&table, name);
		}
		if (!lists(&syn, o))
			fail_msg("option --%s is missing from the console's "
				 "synopsis", o->name);
		if (!lists(&described, o))
			fail_msg("option --%s is not described under OPTIONS",
				 o->name);
	}
	for (size_t i = 0; i < syn.n; i++)
		if (!has(&table, syn.v[i]))
			fail_msg("the console's synopsis lists %s, which its "
				 "option table does not have", syn.v[i]);
}

/*
 * A port that is not ACTIVE reaches nothing, whatever its link and PCIe
 * could carry: the Overview says so instead of a rate.
 */
static void test_reach_not_active(void **unused)
{
	struct rd_snapshot s;
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *n;
	struct rd_pci *pci;
	char line[256];

	(void)unused;
	rd_snapshot_init(&s);
	d = RD_PUSH(s.devices, s.n_devices);
	assert_non_null(d);
	d->name = rd_strdup("mlx5_0");
	d->pci_bdf = rd_strdup("0000:3b:00.0");
	p = RD_PUSH(d->ports, d->n_ports);
	assert_non_null(p);
	p->port = 1;
	p->state_num = rd_u64(4);
	p->link_layer = rd_strdup("Ethernet");
	p->netdev = rd_strdup("eth2");
	p->rate_gbps = rd_dbl(100);
	p->verbs.active_mtu = rd_u64(4096);
	n = RD_PUSH(s.netdevs, s.n_netdevs);
	assert_non_null(n);
	n->name = rd_strdup("eth2");
	n->ethtool.speed_mbps = rd_u64(100000);
	n->ethtool.lanes = rd_u64(4);
	n->mtu = rd_u64(9000);
	pci = RD_PUSH(s.pci, s.n_pci);
	assert_non_null(pci);
	pci->bdf = rd_strdup("0000:3b:00.0");
	pci->link_speed_gts = rd_dbl(16.0);
	pci->link_width = rd_u64(16);
	pci->max_payload = rd_u64(512);
	assert_int_equal(view_overview_reach(&s, d, p, line, sizeof(line)),
			 W_NORMAL);
	assert_non_null(strstr(line, "reachable "));
	/* The card's PCIe link not read: a bound, dimmed, not a rate. */
	pci->link_speed_gts.ok = false;
	assert_int_equal(view_overview_reach(&s, d, p, line, sizeof(line)),
			 W_DIM);
	assert_non_null(strstr(line, "at most"));
	assert_non_null(strstr(line, "PCIe link not read"));
	pci->link_speed_gts = rd_dbl(16.0);
	/* No cable: DOWN, whatever the link speed still says. */
	p->state_num = rd_u64(1);
	assert_int_equal(view_overview_reach(&s, d, p, line, sizeof(line)),
			 W_BAD);
	assert_string_equal(line, "not reachable: port DOWN");
	p->state_num = rd_u64(2);
	view_overview_reach(&s, d, p, line, sizeof(line));
	assert_string_equal(line, "not reachable: port INIT");
	p->state_num.ok = false;
	assert_int_equal(view_overview_reach(&s, d, p, line, sizeof(line)),
			 W_DIM);
	assert_non_null(strstr(line, "not known"));
	rd_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_every_name_is_a_key),
		cmocka_unit_test(test_no_key_does_two_things),
		cmocka_unit_test(test_man_page_lists_the_keys),
		cmocka_unit_test(test_man_page_lists_the_options),
		cmocka_unit_test(test_reach_not_active),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
