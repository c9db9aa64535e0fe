// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Explain: a one-line prompt takes a pasted error line (a completion
 * status, perftest's, NCCL's or UCX's message, an mlx5 syndrome) and the
 * page shows what the explain module makes of it, its likely causes
 * ranked by the console's current snapshot, counter history and verdicts.
 * Ranking is pure on data the console already holds; the tables were
 * loaded when the console started.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/explain.h"
#include "views/ui.h"

/* Counter rises are judged over the history the console keeps. */
#define EXPLAIN_WINDOW 60.0

static struct {
	bool prompting, asked_once;
	char editing[1024];
	char asked[1024];
	char *text;	/* the explanation, lines separated by '\n' */
	struct w_page page;
} ex;

/* Seconds of counter history held, at most EXPLAIN_WINDOW; 0 if < 2. */
static double history_span(const struct rd_history *h)
{
	const struct rd_sample *a, *b;
	double span;

	if (!h->n)
		return 0;
	a = rd_series_at(&h->v[0], h->v[0].len ? h->v[0].len - 1 : 0);
	b = rd_series_at(&h->v[0], 0);
	if (!a || !b || b->t <= a->t)
		return 0;
	span = b->t - a->t;
	return span < EXPLAIN_WINDOW ? span : EXPLAIN_WINDOW;
}

/* Explain ex.asked against what the console holds now into ex.text. */
static void explain_now(struct ui *ui)
{
	const struct rd_wc_status_table *wc = rd_data_wc_status();
	const struct rd_mlx5_table *m = rd_data_mlx5();
	struct rd_explain_evidence ev = { 0 };
	struct rd_explain_input in;
	char label[160];
	size_t len = 0;
	FILE *f;
	int r;

	free(ex.text);
	ex.text = NULL;
	ex.page.top = 0;
	f = open_memstream(&ex.text, &len);
	if (!f)
		return;
	if (!wc || !m) {
		fprintf(f, "The error tables are not loaded: %s\n",
			rd_data_error() ? rd_data_error() : "unknown reason");
		fclose(f);
		return;
	}
	r = rd_explain_parse(ex.asked, wc, m, &in);
	if (r < 0) {
		fprintf(f, "Out of memory while reading the text.\n");
	} else if (r == 0) {
		fprintf(f, "No completion status recognised in this text%s%s.\n",
			in.recognised[0] ? "; found: " : "", in.recognised);
	} else {
		if (in.recognised[0])
			fprintf(f, "Recognised: %s\n\n", in.recognised);
		if (ui->st.have_snap) {
			double span = history_span(&ui->st.hist);

			ev.s = &ui->st.snap;
			/* One reading only: totals, no rise to judge. */
			ev.h = span > 0 ? &ui->st.hist : NULL;
			ev.window = span > 0 ? span + 1.0 : 0;
			ev.shown = span;
			ev.results = ui->st.have_results ? &ui->st.results :
							   NULL;
			ev.device = in.device[0] ? in.device : NULL;
			ev.port = in.port;
			snprintf(label, sizeof(label), "of %s (the console's last reading)",
				 ui->st.snap.host.hostname ?
					 ui->st.snap.host.hostname :
							"this host");
		} else {
			snprintf(label, sizeof(label), "no snapshot yet");
		}
		if (rd_explain_write(f, &in, wc, m, &ev, label) < 0)
			fprintf(f, "(out of memory while ranking the causes)\n");
	}
	if (in.truncated)
		fprintf(f, "(only the first %d bytes were read)\n",
			RD_EXPLAIN_INPUT_MAX);
	fclose(f);
}

static int prompt_key(struct ui *ui, int ch)
{
	enum w_edit_result e;

	/* A function key leaves the prompt and does what it does. */
	if (ch >= KEY_F(1) && ch <= KEY_F(12)) {
		ex.prompting = false;
		ui->modal = NULL;
		return UI_UNHANDLED | UI_REDO_DRAW;
	}
	e = w_edit_key(ex.editing, sizeof(ex.editing), ch);

	if (e == W_EDIT_TYPED)
		return UI_REDO_DRAW;
	ex.prompting = false;
	ui->modal = NULL;
	if (e == W_EDIT_DONE && ex.editing[0]) {
		snprintf(ex.asked, sizeof(ex.asked), "%s", ex.editing);
		explain_now(ui);
	}
	return UI_REDO_DRAW;
}

static void open_prompt(struct ui *ui)
{
	ex.prompting = true;
	ex.asked_once = true;
	ex.editing[0] = '\0';
	ui->modal = prompt_key;
}

static void explain_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	struct rd_rect body = { r->y + 2, r->x, r->h - 2, r->w };
	char wrapped[16][256];
	int width = r->w - 2 > 20 ? r->w - 2 : 20;

	/* The first visit opens the prompt: the key that brought the
	 * person here was the request to explain something. */
	if (!ex.asked_once && !ui->modal && !ui->dialog.open)
		open_prompt(ui);
	if (ex.prompting) {
		size_t len = strlen(ex.editing);
		size_t room = r->w > 40 ? (size_t)r->w - 40 : 1;

		/* The end of a long paste stays in view. */
		w_printf(r, 0, 0, W_HEAD, "paste: %s_",
			 ex.editing + (len > room ? len - room : 0));
		w_printf(r, 1, 0, W_DIM,
			 "Enter explains, Esc cancels, Ctrl-U clears");
	} else {
		w_printf(r, 0, 0, W_HEAD, "Explain: %s",
			 ex.asked[0] ? ex.asked : "(nothing yet)");
		w_printf(r, 1, 0, W_DIM,
			 "Enter or / pastes another line; ranked by the "
			 "reading when asked");
	}
	w_lines_reset(&ex.page.lines);
	if (!ex.text) {
		w_lines_add(&ex.page.lines, W_DIM,
			    "Paste what a job printed: \"IBV_WC_RETRY_EXC_ERR\", "
			    "\"Failed status 12: wr_id 0 syndrom 0x81\", a NCCL "
			    "or UCX error line, an mlx5 vendor error.");
	} else {
		for (const char *p = ex.text; *p;) {
			size_t n = strcspn(p, "\n"), k;
			char line[1024];

			int lead, room;

			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			/* Wrapped inside the page, never cut: continuation
			 * lines indented 4 past the line's own indent. */
			lead = (int)strspn(line, " ");
			room = width - lead - 4 > 20 ? width - lead - 4 : 20;
			k = w_wrap(line + lead, room, wrapped, 16);
			if (!k)
				w_lines_add(&ex.page.lines, W_NORMAL, " ");
			for (size_t i = 0; i < k; i++)
				w_lines_add(&ex.page.lines,
					    i == 0 && line[0] != ' ' ?
						    W_HEAD : W_NORMAL,
					    "%*s%s", lead + (i ? 4 : 0), "",
					    wrapped[i]);
			p += n;
			if (*p)
				p++;
		}
	}
	w_page_draw(&ex.page, &body);
}

static int explain_prompt(struct ui *ui, int ch)
{
	(void)ch;
	open_prompt(ui);
	return UI_REDO_DRAW;
}

static const struct ui_action explain_actions[] = {
	{ "Enter /", explain_prompt, "/ paste",
	  "paste an error line to explain" },
	UI_ACTION_SCROLL("Up/Down scroll", "scroll the explanation"),
	UI_ACTION_BACK,
	{ NULL, NULL, NULL, NULL },
};

static const char explain_help[] =
	"A prompt for a pasted error line: an ibv_wc_status name or number, "
	"perftest's, NCCL's or UCX's error, an mlx5 CQE syndrome or vendor "
	"error. The page says what it means and lists the likely causes, "
	"ranked by this console's last reading: counters that rose in the "
	"last minute, port state and the checks' verdicts, each with its "
	"evidence and next step; as 'rdmadiag explain' prints them.";
UI_PAGE_SCREEN(view_explain_screen, "Explain", "Expl", 8, 'e', RD_LAYOUT_FULL,
	       explain_draw, explain_actions, explain_help, &ex.page);
