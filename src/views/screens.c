// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The screen registry: one row per screen, in tab order. A new screen is
 * its own view_*.c file with a struct ui_screen, its extern line in ui.h
 * and one row here; keys, tabs, bar and help follow from the row.
 */
#include "config.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "views/ui.h"

const struct ui_screen *const ui_screens[] = {
	&view_overview_screen, &view_port_screen,      &view_counters_screen,
	&view_qos_screen,      &view_checklist_screen, &view_tests_screen,
	&view_explain_screen,  &view_peer_screen,      &view_events_screen,
	&view_topology_screen, &view_help_screen,
};
const size_t ui_n_screens = sizeof(ui_screens) / sizeof(ui_screens[0]);

int ui_key_code(const char *name)
{
	static const struct {
		const char *name;
		int code;
	} named[] = {
		{ "Up", KEY_UP },      { "Down", KEY_DOWN },
		{ "Left", KEY_LEFT },  { "Right", KEY_RIGHT },
		{ "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE },
		{ "Home", KEY_HOME },  { "End", KEY_END },
		{ "Enter", '\r' },     { "Esc", UI_KEY_ESC },
		{ "Tab", '\t' },       { "Shift-Tab", KEY_BTAB },
		{ "Space", ' ' },      { "Backspace", KEY_BACKSPACE },
	};
	char *end;
	long n;

	if (!name || !*name)
		return -1;
	if (!name[1])
		return (unsigned char)name[0] > ' ' &&
				       (unsigned char)name[0] < 127
			       ? name[0]
			       : -1;
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strcmp(name, named[i].name) == 0)
			return named[i].code;
	if (name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
		n = strtol(name + 1, &end, 10);
		return !*end && n >= 1 && n <= 12 ? KEY_F((int)n) : -1;
	}
	if (strncmp(name, "Ctrl-", 5) == 0 && name[5] >= 'A' &&
	    name[5] <= 'Z' && !name[6])
		return UI_KEY_CTRL(name[5]);
	return -1;
}
