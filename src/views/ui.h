/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interactive console's drawing side: the screen registry, the key
 * actions and the helpers screens use. Screens read the model
 * (ui->st, src/console/state.h) and draw; they never probe, open files or
 * sockets. Probing, checks and fix-ups run in the worker
 * (src/console/worker.h); the bw/lat child is src/console/test_run.h.
 */
#ifndef RD_VIEWS_UI_H
#define RD_VIEWS_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "console/state.h"
#include "console/test_run.h"
#include "console/worker.h"
#include "core/roots.h"
#include "console/peer_run.h"
#include "views/layout.h"
#include "views/widgets.h"

/* What a key action asks the loop to redo (htop style). */
enum ui_redo {
	UI_REDO_NOTHING = 0,
	UI_REDO_DRAW = 1 << 0,
	UI_REDO_PROBE = 1 << 1,	 /* ask the worker for a fresh snapshot */
	UI_REDO_LAYOUT = 1 << 3, /* terminal size or screen kind changed */
	UI_REDO_QUIT = 1 << 4,
	UI_UNHANDLED = 1 << 5, /* a screen did not want the key */
};

#define UI_KEY_ESC 27
#define UI_KEY_CTRL(c) ((c)&0x1f)

struct ui_opts {
	enum con_source_kind source;
	const char *replay_path; /* recording for CON_REPLAY / CON_DEMO */
	double interval;	 /* seconds between refreshes */
	const struct rd_roots *roots;
	bool color;
	bool utf8;
	const char *self_exe;  /* binary run for bw/lat tests */
	const char *demo_path; /* offered when the host has no device */
	const char *store;     /* --store: the flight recorder's store */
};

struct ui;

/*
 * A key action. keys names every key that runs it, separated by spaces,
 * as the help screen and the man page print them ("Up Down PgUp PgDn",
 * "F10 q Ctrl-C"); ui_key_code() turns a name into the curses code.
 * label is the bottom bar's text for it ("s sort"; NULL: not in the bar).
 */
struct ui_action {
	const char *keys;
	int (*fn)(struct ui *ui, int ch);
	const char *label;
	const char *help;
	/* The bar shows the label only while this says the key does
	 * something (NULL: always), e.g. "f fix-up" with a fix-up selected. */
	bool (*offered)(struct ui *ui);
};

/*
 * A screen: declared once, here and only here: its name, F-key, letter,
 * help text, its own keys and how it draws. The key table, the title's
 * tabs, the bottom bar, the help screen and the man-page test all read
 * these rows (src/views/screens.c).
 */
struct ui_screen {
	const char *name;
	const char *brief; /* the bar's short form on narrow terminals */
	int fkey;	   /* 1..12 */
	int letter;
	enum rd_layout_kind layout;
	const struct ui_action *actions; /* ends with { NULL } */
	void (*draw)(struct ui *ui);
	const char *help;    /* what the screen shows, for the help screen */
	struct w_page *page; /* a screen that is one page: what scrolls */
	/* What its F-key or letter does (ch says which); NULL: go to it. */
	int (*enter)(struct ui *ui, int ch);
	/* Keys it answers from every screen (b, l open Tests' form). */
	const struct ui_action *anywhere;
};

/* Declares a screen in one statement; the long help text is a static
 * string above it. A page screen names the page its scroll keys move. */
#define UI_SCREEN_FULL(id, name_, brief_, fkey_, letter_, layout_, draw_,      \
		       actions_, help_, page_, enter_, anywhere_)              \
	const struct ui_screen id = { .name = (name_),                         \
				      .brief = (brief_),                       \
				      .fkey = (fkey_),                         \
				      .letter = (letter_),                     \
				      .layout = (layout_),                     \
				      .draw = (draw_),                         \
				      .actions = (actions_),                   \
				      .help = (help_),                         \
				      .page = (page_),                         \
				      .enter = (enter_),                       \
				      .anywhere = (anywhere_) }
#define UI_PAGE_SCREEN(id, name_, brief_, fkey_, letter_, layout_, draw_,      \
		       actions_, help_, page_)                                 \
	UI_SCREEN_FULL(id, name_, brief_, fkey_, letter_, layout_, draw_,      \
		       actions_, help_, page_, NULL, NULL)
#define UI_SCREEN(id, name_, brief_, fkey_, letter_, layout_, draw_, actions_, \
		  help_)                                                       \
	UI_PAGE_SCREEN(id, name_, brief_, fkey_, letter_, layout_, draw_,      \
		       actions_, help_, NULL)

/* Actions any screen's table may hold: scroll the screen's page, go back
 * to the screen before. */
int ui_page_scroll(struct ui *ui, int ch);
int ui_back(struct ui *ui, int ch);
#define UI_ACTION_SCROLL(label_, help_)                                        \
	{                                                                      \
		"Up Down PgUp PgDn Home End", ui_page_scroll, (label_),        \
			(help_)                                                \
	}
#define UI_ACTION_BACK                                                         \
	{                                                                      \
		"Esc", ui_back, "Esc back", "back to the screen before"        \
	}

extern const struct ui_screen view_overview_screen;
extern const struct ui_screen view_port_screen;
extern const struct ui_screen view_counters_screen;
extern const struct ui_screen view_qos_screen;
extern const struct ui_screen view_checklist_screen;
extern const struct ui_screen view_tests_screen;
extern const struct ui_screen view_explain_screen;
extern const struct ui_screen view_peer_screen;
extern const struct ui_screen view_events_screen;
extern const struct ui_screen view_topology_screen;
extern const struct ui_screen view_help_screen;

/* The registry, in tab order, and the keys every screen answers. */
extern const struct ui_screen *const ui_screens[];
extern const size_t ui_n_screens;
extern const struct ui_action ui_global_actions[];

/* "F10" -> KEY_F(10), "Ctrl-L" -> 12, "PgUp" -> KEY_PPAGE, "q" -> 'q';
 * -1 for a name it does not know. */
int ui_key_code(const char *name);

typedef int (*ui_confirm_fn)(struct ui *ui, void *arg);

struct ui_dialog {
	bool open;
	char title[64];
	char lines[16][256];
	size_t n;
	char choices[96];
	ui_confirm_fn confirm; /* NULL: information only */
	void *arg;
	/* A dialog of its own kind; NULL: y confirms, Esc, n, q and Enter
	 * close. */
	const struct ui_dialog_kind *kind;
};

/*
 * A dialog kind with a life of its own (the keep-this-change dialog of
 * rollback.c). key answers every key while its dialog is open. While the
 * kind is live (ui->live_dialog), tick runs on every turn of the loop,
 * even after another dialog took its place, and returns the redo mask;
 * it ends the kind's life by setting ui->live_dialog to NULL. wake_ms:
 * the loop turns at least this often while the kind is live.
 */
struct ui_dialog_kind {
	int (*key)(struct ui *ui, int ch);
	int (*tick)(struct ui *ui);
	int wake_ms;
};

/* A change whose rollback timer runs: it is kept only if the person
 * presses y in time (src/views/rollback.c). */
struct ui_rollback {
	bool on;
	char id[RD_JOURNAL_ID_MAX]; /* journal entry */
	double confirm_by;	    /* CLOCK_REALTIME deadline */
	char what[256];		    /* the command that was run */
	char after[256];	    /* the check's verdict read afterwards */
	/* after the time ran out: the journal is read until it says the
	 * timer reverted the change or could not */
	bool watch;
	double watch_until, next_look; /* con_fixup_clock() seconds */
};

struct ui {
	struct ui_opts o;
	/* the model, owned by the loop */
	struct con_state st;
	struct con_worker *worker;
	struct con_test_run test;
	struct rd_peer_child peer; /* the Peer screen's exchange */
	/* The processes the loop polls: the test, the peer exchange. */
	struct con_child children[2];
	size_t n_children;
	bool root;
	bool greeted; /* "since you were last here" was considered */
	/* screen */
	const struct ui_screen *view, *back;
	/*
	 * The registry and the keys of every screen, as the loop runs them:
	 * a screen that lists them (Help) reads them here, so no screen
	 * names the registry that names it.
	 */
	const struct ui_screen *const *screens;
	size_t n_screens;
	const struct ui_action *global_actions;
	struct rd_layout lay;
	int rows, cols;
	char msg[256];
	enum w_style msg_style;
	double msg_until;
	/* a screen taking every key (a form, a filter prompt) */
	int (*modal)(struct ui *ui, int ch);
	struct ui_dialog dialog;
	/* the dialog kind whose tick the loop runs, or NULL */
	const struct ui_dialog_kind *live_dialog;
	/* a fix-up in the worker: its dialog follows the progress */
	bool fix_dialog;
	struct ui_rollback rollback;
};

/* Run the console until the user quits. 0, or -errno on a failure it
 * has already reported on stderr in one line; *stuck is set when the
 * probing thread did not end in time. */
int ui_run(const struct ui_opts *o, bool *stuck);

/* Switch screens (returns the redo mask). */
int ui_go(struct ui *ui, const struct ui_screen *sc);

/* Helpers for screens. */
double ui_now(void);
void ui_msg(struct ui *ui, enum w_style s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline const struct rd_device *ui_sel_device(const struct ui *ui)
{
	return con_sel_device(&ui->st);
}
static inline const struct rd_port *ui_sel_port(const struct ui *ui)
{
	return con_sel_port(&ui->st);
}
static inline const struct rd_netdev *ui_port_netdev(const struct ui *ui,
						     const struct rd_port *p)
{
	return con_port_netdev(&ui->st, p);
}
static inline const struct rd_pci *ui_device_pci(const struct ui *ui,
						 const struct rd_device *d)
{
	return con_device_pci(&ui->st, d);
}
static inline void ui_select(struct ui *ui, size_t row)
{
	con_select(&ui->st, row);
}
static inline bool ui_port_worst(const struct ui *ui, const char *dev,
				 uint64_t port, enum rd_verdict *v)
{
	return con_port_worst(&ui->st, dev, port, v);
}
enum w_style ui_verdict_style(enum rd_verdict v);
enum w_style ui_state_style(const struct rd_port *p);
const char *ui_str(const char *s); /* NULL -> "-" */
void ui_dialog_open(struct ui *ui, const char *title, const char *choices,
		    ui_confirm_fn confirm, void *arg);
void ui_dialog_line(struct ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct rd_rect *ui_pane(struct ui *ui, enum rd_pane p);

/*
 * The Overview's "reachable" line for a port (view_overview.c): its text
 * and style. A port not ACTIVE is "not reachable: port DOWN".
 */
enum w_style view_overview_reach(const struct rd_snapshot *s,
				 const struct rd_device *d,
				 const struct rd_port *p, char *buf,
				 size_t len);

/*
 * Inside a container or in RDMA netns mode exclusive: one line of what
 * this process can reach (container, netns mode, /dev/infiniband nodes,
 * memlock, CAP_IPC_LOCK), from view_overview.c. False on a plain host.
 */
bool view_overview_container_text(const struct rd_snapshot *s, char *buf,
				  size_t len);

/* The checklist on the most important finding, its detail on the whole
 * screen (k, from any screen). */
int view_checklist_open_finding(struct ui *ui);

/* The bw/lat form (view_tests.c), opened by b and l from any screen;
 * where no test can run it says why at once and opens nothing. */
void view_tests_open_form(struct ui *ui, bool latency);

/* rollback.c: the keep-this-change dialog after a change with a
 * rollback timer (u: its CON_UP_FIX_DONE), a dialog kind that answers
 * its own keys and, live, keeps its countdown running. */
void ui_rollback_open(struct ui *ui, const struct con_update *u,
		      const char *after);

/* chrome.c: the title, banner and key bar around every screen. */
void chrome_title(struct ui *ui);
void chrome_banner(struct ui *ui);
void chrome_bar(struct ui *ui);
void chrome_too_small(struct ui *ui);

#endif
