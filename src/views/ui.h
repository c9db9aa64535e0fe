/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interactive console: state shared by the screens, the screen table
 * and the helpers screens use. Screens read the state and draw; they never
 * probe, open files or sockets (the tests screen's child is run by ui.c's
 * loop through view_tests' own functions).
 */
#ifndef RD_VIEWS_UI_H
#define RD_VIEWS_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/history.h"
#include "core/recording.h"
#include "core/roots.h"
#include "core/snapshot.h"
#include "diag/diag.h"
#include "views/layout.h"
#include "views/widgets.h"

enum ui_source { UI_LIVE, UI_REPLAY, UI_DEMO };

enum ui_view {
	UI_OVERVIEW,
	UI_PORT,
	UI_COUNTERS,
	UI_QOS,
	UI_CHECKLIST,
	UI_TESTS,
	UI_HELP,
	UI_NVIEWS,
};

/* What a key action asks the loop to redo (htop style). */
enum ui_redo {
	UI_REDO_NOTHING = 0,
	UI_REDO_DRAW = 1 << 0,
	UI_REDO_PROBE = 1 << 1,	 /* take a new snapshot now */
	UI_REDO_DIAG = 1 << 2,	 /* re-run the checks */
	UI_REDO_LAYOUT = 1 << 3, /* terminal size changed */
	UI_REDO_QUIT = 1 << 4,
	UI_UNHANDLED = 1 << 5, /* a screen did not want the key */
};

#define UI_KEY_ESC 27
#define UI_KEY_CTRL(c) ((c)&0x1f)

struct ui_opts {
	enum ui_source source;
	const char *replay_path; /* recording for UI_REPLAY / UI_DEMO */
	double interval;	 /* seconds between refreshes */
	const struct rd_roots *roots;
	bool color;
	bool utf8;
	const char *self_exe;  /* binary run for bw/lat tests */
	const char *demo_path; /* offered when the host has no device */
};

struct ui_portref {
	size_t d, p; /* indexes into snap.devices / ports */
};

struct ui;
typedef int (*ui_confirm_fn)(struct ui *ui, void *arg);

struct ui_dialog {
	bool open;
	char title[64];
	char lines[16][256];
	size_t n;
	char choices[96];
	ui_confirm_fn confirm; /* NULL: information only */
	void *arg;
};

struct ui {
	struct ui_opts o;
	/* sources */
	struct rd_probe_cache *cache;
	uint64_t tick;
	struct rd_recording rec;
	bool rec_open;
	size_t frame;
	uint64_t replay_shift_ns; /* keeps time moving across a loop */
	uint64_t replay_last_ns;
	bool paused;
	/* data */
	struct rd_snapshot snap;
	bool have_snap;
	struct rd_history hist;
	struct rd_results results;
	bool have_results;
	double probe_ms; /* cost of the last refresh */
	/* selection: one row per device port */
	struct ui_portref *ports;
	size_t n_ports;
	size_t sel;
	char sel_dev[64];
	uint64_t sel_port;
	/* screen */
	enum ui_view view, back;
	struct rd_layout lay;
	int rows, cols;
	bool root;
	char msg[256];
	enum w_style msg_style;
	double msg_until;
	char source_err[256];
	/* a screen taking every key (a form, a filter prompt) */
	int (*modal)(struct ui *ui, int ch);
	struct ui_dialog dialog;
};

struct ui_screen {
	const char *name;
	int fkey; /* 1..12 */
	int letter;
	enum rd_layout_kind layout;
	const char *bar; /* the screen's own keys for the bottom bar */
	void (*draw)(struct ui *ui);
	int (*key)(struct ui *ui, int ch); /* may be NULL */
	const char *help; /* what the screen shows, for the help screen */
};

extern const struct ui_screen view_overview_screen;
extern const struct ui_screen view_port_screen;
extern const struct ui_screen view_counters_screen;
extern const struct ui_screen view_qos_screen;
extern const struct ui_screen view_checklist_screen;
extern const struct ui_screen view_tests_screen;
extern const struct ui_screen view_help_screen;
const struct ui_screen *ui_screen_of(enum ui_view v);

/* Run the console until the user quits. 0, or -errno on setup failure. */
int ui_run(const struct ui_opts *o);

/* Helpers for screens. */
double ui_now(void);
void ui_msg(struct ui *ui, enum w_style s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const struct rd_device *ui_sel_device(const struct ui *ui);
const struct rd_port *ui_sel_port(const struct ui *ui);
const struct rd_netdev *ui_port_netdev(const struct ui *ui,
				       const struct rd_port *p);
const struct rd_pci *ui_device_pci(const struct ui *ui,
				   const struct rd_device *d);
void ui_select(struct ui *ui, size_t row);
/* Worst verdict of the checks about one port (or the device, port 0). */
bool ui_port_worst(const struct ui *ui, const char *dev, uint64_t port,
		   enum rd_verdict *v);
enum w_style ui_verdict_style(enum rd_verdict v);
enum w_style ui_state_style(const struct rd_port *p);
const char *ui_str(const char *s); /* NULL -> "-" */
void ui_dialog_open(struct ui *ui, const char *title, const char *choices,
		    ui_confirm_fn confirm, void *arg);
void ui_dialog_line(struct ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct rd_rect *ui_pane(struct ui *ui, enum rd_pane p);
/* The global key table's named entries, for the help screen. */
size_t ui_global_keys(const char **names, const char **helps, size_t max);

/* The tests screen's child process, driven by the main loop. */
int view_tests_fd(void);
void view_tests_readable(struct ui *ui);
void view_tests_tick(struct ui *ui);
void view_tests_start(struct ui *ui, bool latency);
void view_tests_cleanup(void);
/* Safe from a signal handler: kill the child, if any. */
void view_tests_kill_now(void);

#endif
