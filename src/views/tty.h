/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The terminal and signals (as htop's CRT): curses set-up and tear-down,
 * a self-pipe the loop polls for SIGWINCH / SIGINT / SIGTERM / SIGHUP /
 * SIGQUIT, and a crash handler that kills the test child and restores the
 * terminal before the process dies.
 */
#ifndef RD_VIEWS_TTY_H
#define RD_VIEWS_TTY_H

#include <stdbool.h>
#include <stddef.h>

enum tty_event { TTY_RESIZE = 1 << 0, TTY_QUIT = 1 << 1 };

/*
 * Whether the terminal can hold the console, asked of terminfo before
 * curses takes the screen: it must be known and able to move the cursor
 * (cup), which TERM=dumb and hard-copy terminals cannot. 0, or -ENOTTY
 * with the reason in why.
 */
int tty_check(char *why, size_t len);
/* Curses on, keys unbuffered, signals caught. 0 or -errno. */
int tty_start(bool color, bool utf8);
/* Everything back as it was. Safe to call when tty_start failed. */
void tty_stop(void);
/* Readable when a signal arrived. */
int tty_signal_fd(void);
/* What the signals that arrived ask for (enum tty_event bits). */
int tty_read_signals(void);
/* Follow the terminal's size; rows and cols as curses now sees them. */
void tty_size(int *rows, int *cols);

#endif
