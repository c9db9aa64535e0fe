// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counters of the selected port: sysfs counters/, hw_counters/ and the
 * ethtool statistics of its netdev, with rate, a sparkline of the last
 * minute and, for the selected one, what it means (data/counters.tsv).
 */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/data.h"
#include "views/ui.h"

enum csort { SORT_NAME, SORT_RATE, SORT_VALUE, SORT_N };
static const char *const sort_names[SORT_N] = { "name", "rate", "total" };

struct crow {
	enum rd_counter_group group;
	const char *name;
	struct rd_ou64 value;
	const struct rd_series *ser;
	double rate;
	enum rd_counter_unit unit;
	bool rate_ok;
	bool changed;
	bool bad; /* an error counter that is rising */
};

static struct {
	struct crow *rows;
	size_t n, cap;
	enum csort sort;
	bool hide_still;
	char filter[64];
	char editing[64];
	struct w_table tbl;
	char sel_name[128];
	enum rd_counter_group sel_group;
} cs = { .sort = SORT_RATE };

/* data/counters.tsv decides, as it does for the counters.errors check. */
static bool is_bad_kind(enum rd_counter_group group, const char *name)
{
	return rd_counter_bad_when_rising(rd_data_counters(), group, name);
}

static void push(struct ui *ui, enum rd_counter_group group,
		 const struct rd_counter *c,
		 const struct rd_series *ser)
{
	struct crow *r;
	uint64_t delta;
	double span;

	if (cs.filter[0] && !strstr(c->name, cs.filter))
		return;
	if (cs.n == cs.cap) {
		size_t cap = cs.cap ? cs.cap * 2 : 128;
		void *p = realloc(cs.rows, cap * sizeof(*cs.rows));

		if (!p)
			return;
		cs.rows = p;
		cs.cap = cap;
	}
	r = &cs.rows[cs.n];
	memset(r, 0, sizeof(*r));
	r->group = group;
	r->name = c->name;
	r->value = c->value;
	r->ser = ser;
	r->unit = rd_counter_unit_of(rd_data_counters(), group, c->name);
	/* The rate check and the checklist judge: the newest 10 s. */
	r->rate_ok = rd_series_rate(ser, RD_RATE_WINDOW, &r->rate);
	r->changed = rd_series_delta(ser, 1e12, &delta, &span) && delta > 0;
	if (cs.hide_still && !r->changed)
		return;
	r->bad = r->rate_ok && r->rate > 0 && is_bad_kind(group, c->name);
	cs.n++;
}

static double unit_scale(const struct crow *c)
{
	return c->unit == RD_UNIT_WORDS ? 4.0 : 1.0;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct crow *x = a, *y = b;
	int g;

	switch (cs.sort) {
	case SORT_RATE:
		if (x->rate_ok != y->rate_ok)
			return x->rate_ok ? -1 : 1;
		/* Words are bytes times 4, as the screen shows them. */
		if (x->rate * unit_scale(x) != y->rate * unit_scale(y))
			return x->rate * unit_scale(x) >
					       y->rate * unit_scale(y)
				       ? -1
				       : 1;
		break;
	case SORT_VALUE:
		if (x->value.ok != y->value.ok)
			return x->value.ok ? -1 : 1;
		/* Totals in bytes too: 4-byte words count four times. */
		if ((double)x->value.v * unit_scale(x) !=
		    (double)y->value.v * unit_scale(y))
			return (double)x->value.v * unit_scale(x) >
					       (double)y->value.v * unit_scale(y)
				       ? -1
				       : 1;
		break;
	default:
		break;
	}
	g = strcmp(x->name, y->name);
	return g ? g : (int)x->group - (int)y->group;
}

static void collect(struct ui *ui)
{
	const struct rd_device *d = ui_sel_device(ui);
	const struct rd_port *p = ui_sel_port(ui);
	const struct rd_netdev *nd = ui_port_netdev(ui, p);

	cs.n = 0;
	if (!d || !p)
		return;
	for (size_t i = 0; i < p->counters.n; i++)
		push(ui, RD_CTR_PORT, &p->counters.v[i],
		     rd_history_port(&ui->st.hist, d->name, p->port,
				     RD_CTR_PORT, p->counters.v[i].name));
	for (size_t i = 0; i < p->hw_counters.n; i++)
		push(ui, RD_CTR_HW, &p->hw_counters.v[i],
		     rd_history_port(&ui->st.hist, d->name, p->port, RD_CTR_HW,
				     p->hw_counters.v[i].name));
	for (size_t i = 0; nd && i < nd->ethtool.stats.n; i++)
		push(ui, RD_CTR_ETHTOOL, &nd->ethtool.stats.v[i],
		     rd_history_netdev(&ui->st.hist, nd->name,
				       nd->ethtool.stats.v[i].name));
	for (size_t i = 0; nd && i < nd->ethtool.fec_stats.n; i++)
		push(ui, RD_CTR_FEC, &nd->ethtool.fec_stats.v[i],
		     rd_history_counter(&ui->st.hist, d->name, p->port,
					nd->name, RD_CTR_FEC,
					nd->ethtool.fec_stats.v[i].name));
	qsort(cs.rows, cs.n, sizeof(*cs.rows), cmp_rows);
	/* Follow the selected counter when the order changes. */
	for (size_t i = 0; i < cs.n; i++)
		if (strcmp(cs.rows[i].name, cs.sel_name) == 0 &&
		    cs.rows[i].group == cs.sel_group) {
			cs.tbl.sel = i;
			break;
		}
}

static const char *group_short(enum rd_counter_group g)
{
	static const char *const names[RD_CTR_GROUPS] = {
		[RD_CTR_PORT] = "port", [RD_CTR_HW] = "hw",
		[RD_CTR_ETHTOOL] = "eth", [RD_CTR_FEC] = "fec",
	};

	return (unsigned)g < RD_CTR_GROUPS ? names[g] : "?";
}

static void draw_detail(struct ui *ui, const struct rd_rect *r)
{
	const struct rd_counter_table *t = ui->st.counters;
	const struct rd_counter_info *info;
	const struct crow *c;
	struct rd_rect in = { r->y + 1, r->x + 2, r->h - 2, r->w - 4 };
	char val[64] = "N/A", exact[80] = "", rate[32] = "-", lines[8][256];
	size_t nl;
	int row = 0;

	w_box(r, "counter");
	if (cs.tbl.sel >= cs.n)
		return;
	c = &cs.rows[cs.tbl.sel];
	info = t ? rd_counter_info_find(t, c->group, c->name) : NULL;
	if (c->value.ok) {
		w_fmt_counter_total(c->unit, c->value.v, val, sizeof(val));
		/* The exact count too, in what the hardware counts. */
		snprintf(exact, sizeof(exact), " (%" PRIu64 " %s)", c->value.v,
			 c->unit == RD_UNIT_WORDS ? "4-byte words"
						  : rd_counter_unit_name(c->unit));
	}
	if (c->rate_ok)
		w_fmt_counter_rate(c->unit, c->rate, rate, sizeof(rate));
	w_printf(&in, row++, 0, c->bad ? W_BAD : W_HEAD,
		 "%s (%s)  total %s%s  rate %s%s", c->name,
		 rd_counter_group_name(c->group), val, exact, rate,
		 c->bad ? "  RISING" : "");
	if (!info) {
		w_print(&in, row++, 0, W_DIM,
			t ? "No description in data/counters.tsv for this "
			    "counter."
			  : "data/counters.tsv could not be loaded.");
		return;
	}
	nl = w_wrap(ui_str(info->meaning), in.w, lines, 8);
	for (size_t i = 0; i < nl && row < in.h; i++)
		w_print(&in, row++, 0, W_NORMAL, lines[i]);
	if (info->bad_when_rising && row < in.h)
		w_print(&in, row++, 0, W_WARN,
			"Rising means trouble on this port.");
	if (info->hint && *info->hint) {
		nl = w_wrap(info->hint, in.w - 6, lines, 4);
		for (size_t i = 0; i < nl && row < in.h; i++)
			w_printf(&in, row++, 0, W_DIM, "%s%s",
				 i ? "      " : "hint: ", lines[i]);
	}
}

static void counters_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	/* Totals and rates in columns of their own, each with its unit. */
	struct w_column cols[] = {
		{ "COUNTER", 22, false, 0 }, { "SRC", 4, false, 0 },
		{ "TOTAL", 11, true, 0 },    { "RATE", 13, true, 0 },
		{ "LAST MINUTE", 8, false, 0 },
	};
	const struct rd_port *p = ui_sel_port(ui);
	int h = r->h - 1, spark_w;
	char title[160];

	collect(ui);
	for (size_t i = 0; i < cs.n; i++) {
		int len = (int)strlen(cs.rows[i].name);

		if (len > cols[0].want)
			cols[0].want = len;
	}
	w_columns_fit(cols, 5, r->w);
	spark_w = r->w - cols[0].width - cols[1].width - cols[2].width -
		  cols[3].width - 4;
	if (spark_w > 60)
		spark_w = 60;
	snprintf(title, sizeof(title), "%zu counter%s  sort:%s%s%s%s%s", cs.n,
		 cs.n == 1 ? "" : "s", sort_names[cs.sort], cs.hide_still ? "  changed only" : "",
		 cs.filter[0] ? "  filter:" : "", cs.filter,
		 ui->modal ? "  (typing)" : "");
	w_table_header(r, 0, cols, 5);
	if (!p) {
		w_print(r, 2, 2, W_DIM, "No port selected.");
		return;
	}
	if (ui->modal) {
		w_fill_row(ui_pane(ui, RD_PANE_BANNER), 0, W_TAG);
		w_printf(ui_pane(ui, RD_PANE_BANNER), 0, 1, W_TAG,
			 "show only counters whose name holds: %s_   (Enter: apply, Esc: clear)",
			 cs.editing);
	}
	w_print(ui_pane(ui, RD_PANE_HEAD), 0, 1, W_DIM, title);
	if (!cs.n) {
		w_print(r, 2, 2, W_DIM,
			cs.filter[0] || cs.hide_still
				? "No counter matches (/ to change the filter, "
				  "z to show all)."
				: "No counter of this port was read.");
		return;
	}
	w_table_scroll(&cs.tbl, cs.n, h);
	for (int row = 0; row < h && cs.tbl.top + (size_t)row < cs.n; row++) {
		size_t i = cs.tbl.top + (size_t)row;
		const struct crow *c = &cs.rows[i];
		double rates[128];
		size_t nr = 0, want = (size_t)(60.0 / ui->st.interval + 0.5);
		char val[32] = "N/A", rate[32] = "-", spark[512] = "";
		const char *text[5];
		enum w_style st[5] = { W_NORMAL, W_DIM, W_NORMAL, W_NORMAL,
				       W_GOOD };

		if (want > 127)
			want = 127;
		if (want < 2)
			want = 2;
		if (c->value.ok)
			w_fmt_counter_total(c->unit, c->value.v, val,
					    sizeof(val));
		if (c->rate_ok)
			w_fmt_counter_rate(c->unit, c->rate, rate,
					   sizeof(rate));
		nr = rd_series_rates(c->ser, rates, want);
		w_spark(rates, nr, spark_w, w_utf8(), spark, sizeof(spark));
		text[0] = c->name;
		text[1] = group_short(c->group);
		text[2] = val;
		text[3] = rate;
		text[4] = spark;
		if (c->bad)
			st[0] = st[2] = st[3] = st[4] = W_BAD;
		else if (!c->changed)
			st[2] = st[3] = W_DIM;
		w_table_row(r, row + 1, cols, 5, text, st, i == cs.tbl.sel);
	}
	if (cs.tbl.sel < cs.n) {
		snprintf(cs.sel_name, sizeof(cs.sel_name), "%s",
			 cs.rows[cs.tbl.sel].name);
		cs.sel_group = cs.rows[cs.tbl.sel].group;
	}
	draw_detail(ui, ui_pane(ui, RD_PANE_SIDE));
}

static void remember_sel(void)
{
	if (cs.tbl.sel < cs.n) {
		snprintf(cs.sel_name, sizeof(cs.sel_name), "%s",
			 cs.rows[cs.tbl.sel].name);
		cs.sel_group = cs.rows[cs.tbl.sel].group;
	}
}

static int filter_key(struct ui *ui, int ch)
{
	size_t len = strlen(cs.editing);

	if (ch == UI_KEY_ESC) {
		cs.filter[0] = cs.editing[0] = '\0';
		ui->modal = NULL;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		ui->modal = NULL;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len)
			cs.editing[len - 1] = '\0';
	} else if (ch >= 32 && ch < 127 && len + 1 < sizeof(cs.editing)) {
		cs.editing[len] = (char)ch;
		cs.editing[len + 1] = '\0';
	}
	/* Filter as you type. */
	snprintf(cs.filter, sizeof(cs.filter), "%s", cs.editing);
	cs.tbl.sel = cs.tbl.top = 0;
	return UI_REDO_DRAW;
}

static int counters_move(struct ui *ui, int ch)
{
	collect(ui);
	w_table_key(&cs.tbl, ch, cs.n, ui_pane(ui, RD_PANE_MAIN)->h - 1);
	remember_sel();
	return UI_REDO_DRAW;
}

static int counters_sort(struct ui *ui, int ch)
{
	cs.sort = (cs.sort + 1) % SORT_N;
	ui_msg(ui, W_NORMAL, "counters sorted by %s", sort_names[cs.sort]);
	return UI_REDO_DRAW;
}

static int counters_changed_only(struct ui *ui, int ch)
{
	cs.hide_still = !cs.hide_still;
	cs.tbl.sel = cs.tbl.top = 0;
	ui_msg(ui, W_NORMAL, "%s",
	       cs.hide_still ? "showing only counters that changed"
			     : "showing every counter");
	return UI_REDO_DRAW;
}

static int counters_filter(struct ui *ui, int ch)
{
	snprintf(cs.editing, sizeof(cs.editing), "%s", cs.filter);
	ui->modal = filter_key;
	return UI_REDO_DRAW;
}

static const struct ui_action counters_actions[] = {
	{ "Up Down PgUp PgDn Home End", counters_move, NULL,
	  "select a counter" },
	{ "s", counters_sort, "s sort", "sort by name, rate or total" },
	{ "/", counters_filter, "/ filter",
	  "filter by a substring (Enter keeps it, Esc clears it)" },
	{ "z", counters_changed_only, "z changed-only",
	  "show only the counters that changed" },
	{ NULL, NULL, NULL, NULL },
};

static const char counters_help[] =
	"Every counter of the selected port: the port counters "
	"(sysfs counters/), the driver's hw_counters and the ethtool "
	"statistics of its netdev, with the total and the rate per second "
	"over the newest 10 seconds (the window check judges) "
	"in the counter's unit (bytes and Gb/s for data, the IB 4-byte "
	"data words included; pkt/s for packets) and a sparkline of the "
	"last minute. s sorts by name, rate or "
	"total; / filters by a substring; z hides counters that "
	"never changed. Error counters that rise turn red. The pane "
	"below explains the selected counter (data/counters.tsv).";
UI_SCREEN(view_counters_screen, "Counters", "Cntr", 4, 'c', RD_LAYOUT_LIST,
	  counters_draw, counters_actions, counters_help);
