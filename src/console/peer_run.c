// SPDX-License-Identifier: GPL-2.0-or-later
/* `rdmadiag peer HOST --json` as a child of the console: see peer_run.h. */
#include "config.h"
#include "console/peer_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/escape.h"
#include "perf/oob.h"

void con_peer_init(struct rd_peer_child *c)
{
	memset(c, 0, sizeof(*c));
	c->pid = -1;
	c->fd = -1;
}

/* HOST or HOST:PORT: a name or IPv4 address, a port 1..65535. */
static int split_target(const char *target, char *host, size_t hostlen,
			char *port, size_t portlen)
{
	const char *colon = strchr(target, ':');
	size_t n = colon ? (size_t)(colon - target) : strlen(target);
	char *end;
	unsigned long p = PERF_OOB_PORT;

	if (!n || n >= hostlen)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		char ch = target[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' ||
		      ch == '_'))
			return -EINVAL;
	}
	if (target[0] == '-')
		return -EINVAL;
	if (colon) {
		errno = 0;
		p = strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || !p || p > 65535)
			return -EINVAL;
	}
	snprintf(host, hostlen, "%.*s", (int)n, target);
	snprintf(port, portlen, "%lu", p);
	return 0;
}

int con_peer_start(struct rd_peer_child *c, const char *self_exe,
		   const struct rd_roots *roots, const char *target,
		   const char *dev, unsigned port, unsigned timeout_s,
		   bool matrix)
{
	char host[64], pstr[8], ibport[8], tstr[16];
	const char *argv[16];
	size_t n = 0;
	int pfd[2], null;
	pid_t pid;

	con_peer_stop(c);
	free(c->out);
	con_peer_init(c);
	rd_esc(c->target, sizeof(c->target), target);
	c->matrix = matrix;
	if (split_target(target, host, sizeof(host), pstr, sizeof(pstr)) < 0) {
		snprintf(c->err, sizeof(c->err),
			 "\"%s\" is not HOST or HOST:PORT (a name or IPv4 "
			 "address, a port 1 to 65535)",
			 c->target);
		return -EINVAL;
	}
	snprintf(ibport, sizeof(ibport), "%u", port);
	snprintf(tstr, sizeof(tstr), "%u", timeout_s ? timeout_s : 1);
	argv[n++] = "rdmadiag";
	argv[n++] = "peer";
	argv[n++] = host;
	argv[n++] = "-p";
	argv[n++] = pstr;
	argv[n++] = "--json";
	if (!matrix)
		argv[n++] = "--no-matrix";
	argv[n++] = "--timeout";
	argv[n++] = tstr;
	if (dev && dev[0] != '-') {
		argv[n++] = "-d";
		argv[n++] = dev;
		if (port) {
			argv[n++] = "-i";
			argv[n++] = ibport;
		}
	}
	argv[n] = NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(c->err, sizeof(c->err), "pipe: %s", strerror(errno));
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(pfd[0]);
		close(pfd[1]);
		snprintf(c->err, sizeof(c->err), "fork: %s", strerror(e));
		return -e;
	}
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		if (null >= 0)
			dup2(null, STDIN_FILENO);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		/* The host the console reads is the one compared. */
		if (roots && roots->redirected) {
			setenv("RDMADIAG_SYSFS_ROOT", roots->sysfs, 1);
			setenv("RDMADIAG_PROC_ROOT", roots->proc, 1);
			setenv("RDMADIAG_DEV_ROOT", roots->dev, 1);
			setenv("RDMADIAG_ETC_ROOT", roots->etc, 1);
		}
		execv(self_exe ? self_exe : "/proc/self/exe",
		      (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	c->pid = pid;
	c->fd = pfd[0];
	return 0;
}

bool con_peer_running(const struct rd_peer_child *c)
{
	return c->pid > 0;
}

int con_peer_fd(const struct rd_peer_child *c)
{
	return c->fd;
}

static void finish(struct rd_peer_child *c, int status)
{
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;

	close(c->fd);
	c->fd = -1;
	c->pid = -1;
	if (c->out)
		c->out[c->len] = '\0';
	rd_peer_child_parse(c, c->out ? c->out : "", code);
}

void con_peer_readable(struct rd_peer_child *c)
{
	char buf[4096];
	ssize_t n;
	int status;

	if (c->fd < 0)
		return;
	for (;;) {
		n = read(c->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return; /* EAGAIN: more later */
		if (n == 0)
			break;
		if (c->len + (size_t)n > RD_PEER_CHILD_OUT_MAX) {
			c->truncated = true;
			n = (ssize_t)(RD_PEER_CHILD_OUT_MAX - c->len);
		}
		if (n > 0) {
			char *p = realloc(c->out, c->len + (size_t)n + 1);

			if (!p) {
				c->truncated = true;
				continue;
			}
			c->out = p;
			memcpy(c->out + c->len, buf, (size_t)n);
			c->len += (size_t)n;
		}
	}
	if (waitpid(c->pid, &status, 0) != c->pid)
		status = 0x7f00;
	finish(c, status);
}

void con_peer_stop(struct rd_peer_child *c)
{
	int status;

	if (c->pid <= 0)
		return;
	kill(c->pid, SIGKILL);
	waitpid(c->pid, &status, 0);
	c->pid = -1;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->done = true;
	c->ok = false;
	snprintf(c->err, sizeof(c->err), "stopped");
}

static int peer_fd(const void *ctx)
{
	return con_peer_fd(ctx);
}

static bool peer_running(const void *ctx)
{
	return con_peer_running(ctx);
}

static void peer_readable(void *ctx)
{
	con_peer_readable(ctx);
}

static void peer_stop(void *ctx)
{
	con_peer_stop(ctx);
}

struct con_child con_peer_child(struct rd_peer_child *c)
{
	return (struct con_child){ .ctx = c,
				   .fd = peer_fd,
				   .running = peer_running,
				   .readable = peer_readable,
				   .stop = peer_stop,
				   .redraw_while_running = true };
}
