// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Peer: a prompt for HOST[:PORT] where 'rdmadiag peer --listen' runs; the
 * exchange runs as a child process (src/peer/child.h) the loop polls, so
 * the keys stay live; then both ports, the GID pair to use and every
 * mismatch with both values and what it breaks.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "peer/child.h"
#include "views/ui.h"

/* Each message of the exchange waits at most this long. */
#define PEER_TIMEOUT_S 5

static struct {
	bool prompting, asked_once;
	bool matrix; /* the next ask runs the reachability matrix too */
	char editing[128];
	double started;
	struct w_lines page;
	size_t top;
} pv;

/* Why no host can be asked from here, or NULL when one can. */
static const char *no_peer_reason(const struct ui *ui)
{
	if (ui->o.source != CON_LIVE)
		return "a recording is no host to compare; run 'rdmadiag "
		       "peer HOST' there";
	/* A tree of files (--root) is compared as the host it describes. */
	if (!ui_sel_device(ui) || !ui_sel_port(ui))
		return "this host has no RDMA port to compare";
	return NULL;
}

/* Say at once why nothing can be asked; true when that is so. */
static bool refused(struct ui *ui)
{
	const char *why = no_peer_reason(ui);

	if (why)
		ui_msg(ui, W_WARN, "peer: %s", why);
	return why != NULL;
}

static void ask(struct ui *ui)
{
	const struct rd_device *d = ui_sel_device(ui);
	const struct rd_port *p = ui_sel_port(ui);

	pv.top = 0;
	pv.started = ui_now();
	if (ui->o.source != CON_LIVE) {
		ui_msg(ui, W_WARN, "peer: a recording is no host to compare; "
				   "run 'rdmadiag peer HOST' there");
		return;
	}
	if (con_peer_start(&ui->peer, ui->o.self_exe, ui->o.roots, pv.editing,
			   d ? d->name : NULL, p ? (unsigned)p->port : 0,
			   PEER_TIMEOUT_S, pv.matrix) < 0)
		ui_msg(ui, W_WARN, "peer: %s", ui->peer.err);
}

static int prompt_key(struct ui *ui, int ch)
{
	size_t len = strlen(pv.editing);

	if (ch >= KEY_F(1) && ch <= KEY_F(12)) {
		/* A function key leaves the prompt and does what it does. */
		pv.prompting = false;
		ui->modal = NULL;
		return UI_UNHANDLED | UI_REDO_DRAW;
	} else if (ch == UI_KEY_ESC) {
		pv.prompting = false;
		ui->modal = NULL;
	} else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
		pv.prompting = false;
		ui->modal = NULL;
		if (len)
			ask(ui);
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len)
			pv.editing[len - 1] = '\0';
	} else if (ch == UI_KEY_CTRL('U')) {
		pv.editing[0] = '\0';
	} else if (ch > 32 && ch < 127 && len + 1 < sizeof(pv.editing)) {
		pv.editing[len] = (char)ch;
		pv.editing[len + 1] = '\0';
	}
	return UI_REDO_DRAW;
}

static void open_prompt(struct ui *ui)
{
	pv.prompting = true;
	pv.asked_once = true;
	ui->modal = prompt_key;
}

/* text wrapped to width, its first line after lead, the rest indented. */
static void add_wrapped(enum w_style s, const char *lead, const char *text,
			int width)
{
	char wrapped[8][256];
	int room = width - 4 - (int)strlen(lead);
	size_t k = w_wrap(text, room > 20 ? room : 20, wrapped, 8);

	for (size_t j = 0; j < k; j++)
		w_lines_add(&pv.page, s, "%s%s", j ? "    " : lead,
			    wrapped[j]);
}

static void result_lines(const struct rd_peer_child *c, int width)
{
	const struct rd_peer_child_result *r = &c->res;

	add_wrapped(W_NORMAL, "here: ", r->here, width);
	add_wrapped(W_NORMAL, "peer: ", r->peer, width);
	add_wrapped(W_HEAD, "GID: ", r->gid, width);
	w_lines_add(&pv.page, W_NORMAL, " ");
	if (!r->n_total)
		w_lines_add(&pv.page, W_GOOD, "no mismatch found");
	else
		w_lines_add(&pv.page, W_WARN, "%zu mismatch%s", r->n_total,
			    r->n_total == 1 ? "" : "es");
	for (size_t i = 0; i < r->n_items; i++) {
		const struct rd_peer_child_item *it = &r->items[i];
		char line[512];

		snprintf(line, sizeof(line), "here %s, peer %s", it->here,
			 it->peer);
		w_lines_add(&pv.page, W_HEAD, "%s:", it->what);
		add_wrapped(W_NORMAL, "  ", line, width);
		add_wrapped(W_NORMAL, "  breaks: ", it->breaks, width);
	}
	if (r->n_total > r->n_items)
		w_lines_add(&pv.page, W_DIM, "(%zu more not shown)",
			    r->n_total - r->n_items);
	if (r->not_compared[0])
		add_wrapped(W_DIM, "not compared (unknown on one host): ",
			    r->not_compared, width);
	if (!c->matrix)
		return;
	w_lines_add(&pv.page, W_NORMAL, " ");
	if (!r->n_pairs) {
		add_wrapped(W_WARN, "reachability: not tested: ", r->matrix_not,
			    width);
		return;
	}
	w_lines_add(&pv.page, W_HEAD, "%-22s %-22s %s",
		    "REACH: GID HERE", "GID ON THE PEER", "ONE RC MESSAGE");
	for (size_t i = 0; i < r->n_pairs; i++) {
		const struct rd_peer_child_pair *p = &r->pairs[i];
		char a[32], b[32], line[512];

		snprintf(a, sizeof(a), "%lld %s %s", (long long)p->here,
			 p->roce, p->family);
		snprintf(b, sizeof(b), "%lld %s %s", (long long)p->peer,
			 p->roce, p->family);
		snprintf(line, sizeof(line), "%-22s %-22s %s%s%s", a, b,
			 p->works ? "works" : "FAILS", p->works ? "" : ": ",
			 p->works ? "" : p->why);
		add_wrapped(p->works ? W_GOOD : W_WARN, "", line, width);
	}
}

static void error_lines(const struct rd_peer_child *c, int width)
{
	char line[512];

	snprintf(line, sizeof(line), "%s: %s", c->target, c->err);
	add_wrapped(W_WARN, "", line, width);
}

static void peer_draw(struct ui *ui)
{
	const struct rd_rect *r = ui_pane(ui, RD_PANE_MAIN);
	struct rd_rect body = { r->y + 2, r->x, r->h - 2, r->w };
	const struct rd_peer_child *c = &ui->peer;

	/* The first visit opens the prompt: that is what the screen is for,
	 * where a host can be asked. */
	if (!pv.asked_once && !ui->modal && !ui->dialog.open &&
	    !no_peer_reason(ui))
		open_prompt(ui);
	if (pv.prompting) {
		w_printf(r, 0, 0, W_HEAD, "peer HOST[:PORT]: %s_", pv.editing);
		w_printf(r, 1, 0, W_DIM,
			 "where 'rdmadiag peer --listen' runs; Enter asks, "
			 "Esc cancels, Ctrl-U clears");
	} else {
		w_printf(r, 0, 0, W_HEAD, "Peer: %s",
			 c->target[0] ? c->target : "(nobody asked yet)");
		if (!no_peer_reason(ui))
			w_printf(r, 1, 0, W_DIM,
				 "Enter or / asks another host, m with the "
				 "reachability matrix; the port compared is "
				 "the one selected (< >)");
	}
	w_lines_reset(&pv.page);
	if (con_peer_running(c))
		w_lines_add(&pv.page, W_NORMAL,
			    "asking %s%s ... %.0f s (each message waits at most "
			    "%d s; Esc stops)",
			    c->target, c->matrix ? " with the matrix" : "",
			    ui_now() - pv.started, PEER_TIMEOUT_S);
	else if (c->done && !c->ok)
		error_lines(c, r->w > 24 ? r->w : 24);
	else if (c->done)
		result_lines(c, r->w > 24 ? r->w : 24);
	else if (no_peer_reason(ui))
		add_wrapped(W_WARN, "Nothing can be asked from here: ",
			    no_peer_reason(ui), r->w > 24 ? r->w : 24);
	else
		w_lines_add(&pv.page, W_DIM,
			    "Type the host where 'rdmadiag peer --listen' runs "
			    "(TCP port 18515 unless HOST:PORT says otherwise).");
	w_lines_draw(&pv.page, &body, &pv.top);
}

static int peer_prompt(struct ui *ui, int ch)
{
	(void)ch;
	pv.matrix = false;
	if (!refused(ui))
		open_prompt(ui);
	return UI_REDO_DRAW;
}

/* Ask again, the same host, with the reachability matrix. */
static int peer_matrix(struct ui *ui, int ch)
{
	(void)ch;
	if (con_peer_running(&ui->peer) || refused(ui))
		return UI_REDO_DRAW;
	pv.matrix = true;
	if (!pv.editing[0]) {
		open_prompt(ui);
		return UI_REDO_DRAW;
	}
	ask(ui);
	return UI_REDO_DRAW;
}

static int peer_scroll(struct ui *ui, int ch)
{
	w_lines_key(ch, &pv.top, ui_pane(ui, RD_PANE_MAIN)->h - 2);
	return UI_REDO_DRAW;
}

static int peer_back(struct ui *ui, int ch)
{
	(void)ch;
	if (con_peer_running(&ui->peer)) {
		con_peer_stop(&ui->peer);
		return UI_REDO_DRAW;
	}
	return ui_go(ui, ui->back);
}

static const struct ui_action peer_actions[] = {
	{ "Enter /", peer_prompt, "/ host", "ask another host" },
	{ "m", peer_matrix, "m matrix",
	  "ask again with the reachability matrix (one RDMA message per GID "
	  "pair)" },
	{ "Up Down PgUp PgDn Home End", peer_scroll, "Up/Down scroll",
	  "scroll the mismatch list" },
	{ "Esc", peer_back, "Esc back",
	  "stop the exchange, or back to the screen before" },
	{ NULL, NULL, NULL, NULL },
};

static const char peer_help[] =
	"A prompt for HOST[:PORT] where 'rdmadiag peer --listen' runs; the "
	"selected port is compared with that host's, as 'rdmadiag peer' does, "
	"in a child process: both ports, the GID index to use on each side "
	"(-x), and every mismatch with both values and what it breaks. m asks "
	"again with the reachability matrix: one RC message through each pair "
	"of GIDs, which proves which pairs work. The host can be a running "
	"'rdmadiag bw' or 'lat' server too, on its test port.";
UI_SCREEN(view_peer_screen, "Peer", "Peer", 9, 'P', RD_LAYOUT_FULL, peer_draw,
	  peer_actions, peer_help);
