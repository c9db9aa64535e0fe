// SPDX-License-Identifier: GPL-2.0-or-later
/* Terminal and signals: restore the tty from any exit path. */
#include "config.h"
#include "views/tty.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
/* term.h defines these as macros; widgets.h uses the names itself. */
#undef lines
#undef columns
#include <termios.h>
#include <unistd.h>

#include "console/test_run.h"
#include "views/widgets.h"

static int sig_pipe[2] = { -1, -1 };
static struct termios saved_tty;
static bool saved_tty_ok, curses_on;
static char restore_seq[128];
static size_t restore_len;

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;

	if (sig_pipe[1] >= 0 && write(sig_pipe[1], &b, 1) < 0) {
		/* A full pipe already holds a wake-up. */
	}
	errno = saved;
}

/* Crash: nothing but async-signal-safe calls, then die as intended. */
static void on_crash(int sig)
{
	con_test_kill_now();
	if (restore_len && write(STDOUT_FILENO, restore_seq, restore_len) < 0) {
		/* Nothing left to do about it. */
	}
	if (saved_tty_ok)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void add_cap(const char *name)
{
	char *s = tigetstr((char *)name);
	size_t len;

	if (!s || s == (char *)-1)
		return;
	len = strlen(s);
	if (restore_len + len < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, s, len);
		restore_len += len;
	}
}

static const int quit_sigs[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static const int crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static int signals_setup(void)
{
	struct sigaction sa;

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < N_OF(quit_sigs); i++)
		sigaction(quit_sigs[i], &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < N_OF(crash_sigs); i++)
		sigaction(crash_sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int tty_check(char *why, size_t len)
{
	const char *term = getenv("TERM");
	TERMINAL *t, *was = cur_term;
	bool moves, hardcopy;
	char *cup;
	int err = 0;

	if (!term || !*term) {
		snprintf(why, len, "TERM is not set");
		return -ENOTTY;
	}
	if (setupterm(term, STDOUT_FILENO, &err) != OK) {
		snprintf(why, len, "terminal type \"%s\" is not in the terminfo "
			 "database", term);
		return -ENOTTY;
	}
	cup = tigetstr((char *)"cup");
	moves = cup && cup != (char *)-1 && *cup;
	hardcopy = tigetflag((char *)"hc") > 0;
	t = set_curterm(was);
	if (t && t != was)
		del_curterm(t);
	if (!moves || hardcopy) {
		snprintf(why, len, "terminal type \"%s\" cannot move the cursor",
			 term);
		return -ENOTTY;
	}
	return 0;
}

int tty_start(bool color, bool utf8)
{
	int r;

	if (tcgetattr(STDIN_FILENO, &saved_tty) == 0)
		saved_tty_ok = true;
	if (!initscr())
		return -ENOTTY;
	curses_on = true;
	add_cap("sgr0");
	add_cap("cnorm");
	add_cap("rmkx");
	add_cap("rmcup");
	r = signals_setup();
	if (r < 0)
		return r;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	w_init(color, utf8);
	return 0;
}

void tty_stop(void)
{
	if (curses_on)
		endwin();
	curses_on = false;
	for (size_t i = 0; i < N_OF(quit_sigs); i++)
		signal(quit_sigs[i], SIG_DFL);
	for (size_t i = 0; i < N_OF(crash_sigs); i++)
		signal(crash_sigs[i], SIG_DFL);
	for (int i = 0; i < 2; i++)
		if (sig_pipe[i] >= 0)
			close(sig_pipe[i]);
	sig_pipe[0] = sig_pipe[1] = -1;
}

int tty_signal_fd(void)
{
	return sig_pipe[0];
}

int tty_read_signals(void)
{
	unsigned char buf[32];
	ssize_t n;
	int ev = 0;

	while ((n = read(sig_pipe[0], buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			ev |= buf[i] == SIGWINCH ? TTY_RESIZE : TTY_QUIT;
	return ev;
}

void tty_size(int *rows, int *cols)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	getmaxyx(stdscr, *rows, *cols);
}
