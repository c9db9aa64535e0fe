// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag bugreport -o FILE.tar.gz [--redact]: what a support engineer
 * asks for, in one file, without a shell: a short recording of this host,
 * its last frame as the snapshot, the checklist's results over it (JSON
 * and text), the kernel log records about the RDMA devices, and the
 * versions. The tar archive is written here (ustar) and compressed with
 * zlib; the recording is first kept in an anonymous memory file so that
 * the checks read it exactly as `check --load` would.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "cmd/cli.h"
#include "cmd/evidence.h"
#include "console/capture.h"
#include "core/escape.h"
#include "core/history.h"
#include "core/json.h"
#include "core/outfile.h"
#include "core/print.h"
#include "core/recording.h"
#include "core/redact.h"
#include "fleet/nhc.h"

#define BUNDLE_DIR "rdmadiag-bugreport"

static void bugreport_usage(FILE *f)
{
	fprintf(f,
		"usage: rdmadiag bugreport -o FILE.tar.gz [--redact] "
		"[--seconds N]\n"
		"  -o, --output FILE  the bundle to write (a new file; never "
		"through a link)\n"
		"  --redact           replace host names, IPv4/IPv6 addresses, "
		"MACs,\n"
		"                     GUIDs, GIDs and serial numbers with "
		"stand-ins,\n"
		"                     the same value by the same stand-in "
		"everywhere\n"
		"  --seconds N        length of the recording (default 3 s, "
		"one\n"
		"                     snapshot a second)\n"
		"inside " BUNDLE_DIR
		"/: README.txt, version.txt, snapshot.json,\n"
		"recording.jsonl, check.json, check.txt, kernel-log.txt; load "
		"it\n"
		"with 'rdmadiag check --load " BUNDLE_DIR "/recording.jsonl'\n"
		"exit status: 0 written, 1 no bundle (the reason is printed), "
		"2 bad usage\n");
}

struct member {
	const char *name;
	char *text;
	size_t len;
	bool redact; /* identifiers in it are replaced under --redact */
};

/* ---- ustar ---- */

static void octal(char *dst, size_t width, unsigned long long v)
{
	/* width - 1 digits and a NUL, as ustar wants */
	snprintf(dst, width, "%0*llo", (int)width - 1, v);
}

static int tar_header(gzFile gz, const char *name, size_t size, char type,
		      unsigned mode, time_t mtime)
{
	unsigned char h[512];
	unsigned sum = 0;

	memset(h, 0, sizeof(h));
	if (strlen(name) >= 100)
		return -ENAMETOOLONG;
	memcpy(h, name, strlen(name));
	octal((char *)h + 100, 8, mode);
	octal((char *)h + 108, 8, 0);
	octal((char *)h + 116, 8, 0);
	octal((char *)h + 124, 12, size);
	octal((char *)h + 136, 12, (unsigned long long)mtime);
	memset(h + 148, ' ', 8);
	h[156] = (unsigned char)type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	for (size_t i = 0; i < sizeof(h); i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
	return gzwrite(gz, h, sizeof(h)) == (int)sizeof(h) ? 0 : -EIO;
}

static int tar_file(gzFile gz, const char *name, const char *data, size_t len,
		    time_t mtime)
{
	static const char zero[512];
	char path[128];
	size_t done = 0;
	int r;

	snprintf(path, sizeof(path), "%s/%s", BUNDLE_DIR, name);
	r = tar_header(gz, path, len, '0', 0644, mtime);
	while (r == 0 && done < len) {
		unsigned n = len - done > (1u << 30) ? 1u << 30
						     : (unsigned)(len - done);

		if (gzwrite(gz, data + done, n) != (int)n)
			r = -EIO;
		done += n;
	}
	if (r == 0 && len % 512 &&
	    gzwrite(gz, zero, 512 - len % 512) != (int)(512 - len % 512))
		r = -EIO;
	return r;
}

static int write_bundle(struct rd_cli *cli, const char *path,
			const struct member *m, size_t n)
{
	static const char zero[1024];
	struct rd_outfile o;
	char err[512];
	time_t now = time(NULL);
	gzFile gz;
	int fd, r;

	r = rd_outfile_open(&o, path, false, 0600, err, sizeof(err));
	if (r < 0) {
		cli_error(cli, "bugreport: %s", err);
		return r;
	}
	fd = dup(fileno(o.f));
	gz = fd >= 0 ? gzdopen(fd, "wb9") : NULL;
	if (!gz) {
		if (fd >= 0)
			close(fd);
		rd_outfile_close(&o, false, err, sizeof(err));
		cli_error(cli, "bugreport: %s: cannot compress: %s",
			  rd_esc_tmp(path), strerror(ENOMEM));
		return -ENOMEM;
	}
	r = tar_header(gz, BUNDLE_DIR "/", 0, '5', 0755, now);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = tar_file(gz, m[i].name, m[i].text, m[i].len, now);
	if (r == 0 && gzwrite(gz, zero, sizeof(zero)) != (int)sizeof(zero))
		r = -EIO;
	if (gzclose(gz) != Z_OK && r == 0)
		r = -EIO;
	if (rd_outfile_close(&o, r == 0, err, sizeof(err)) < 0 && r == 0) {
		cli_error(cli, "bugreport: %s", err);
		return -EIO;
	}
	if (r < 0)
		cli_error(cli, "bugreport: %s: cannot write: %s",
			  rd_esc_tmp(path), strerror(-r));
	return r;
}

/* ---- the members ---- */

/* Run fn into memory: the text it printed, or NULL. */
static char *text_of(void (*fn)(FILE *f, const void *arg), const void *arg,
		     size_t *len)
{
	char *p = NULL;
	FILE *f = open_memstream(&p, len);

	if (!f)
		return NULL;
	fn(f, arg);
	if (fclose(f) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

static void version_text(FILE *f, const void *arg)
{
	(void)arg;
	cli_print_version(f);
}

static void kernel_log_text(FILE *f, const void *arg)
{
	const struct rd_kmsg *k = arg;

	if (k->readable.ok && !k->readable.v) {
		fprintf(f, "the kernel log was not read: %s\n",
			k->error ? rd_esc_tmp(k->error) : "(no reason given)");
		return;
	}
	if (k->n_records == 0) {
		fprintf(f, "no kernel log record names an RDMA device, port, "
			   "netdev or PCI function of this host\n");
		return;
	}
	for (size_t i = 0; i < k->n_records; i++) {
		const struct rd_kmsg_rec *r = &k->records[i];

		if (r->ts_usec.ok)
			fprintf(f, "[%llu.%06llu s] ",
				(unsigned long long)(r->ts_usec.v / 1000000),
				(unsigned long long)(r->ts_usec.v % 1000000));
		fprintf(f, "%s: ",
			r->rdma_device ? rd_esc_tmp(r->rdma_device) : "-");
		rd_fputs_esc(r->message ? r->message : "", f);
		fputc('\n', f);
	}
}

struct check_args {
	const struct rd_results *res;
};

static void check_text(FILE *f, const void *arg)
{
	const struct check_args *a = arg;
	struct rd_printer pr;

	rd_print_begin(&pr, f, false);
	rd_results_print(&pr, a->res, true);
	rd_print_end(&pr);
}

static void readme_text(FILE *f, const void *arg)
{
	const bool *redacted = arg;

	fprintf(f,
		"rdmadiag bug report\n\n"
		"version.txt      rdmadiag's version, commit, configure "
		"options and\n"
		"                 the library versions it ran with; the kernel "
		"release\n"
		"snapshot.json    every RDMA device, port, netdev, PCI "
		"function and\n"
		"                 host setting read (rdmadiag snapshot "
		"--json)\n"
		"recording.jsonl  one snapshot a second (rdmadiag capture): "
		"replay it\n"
		"                 with 'rdmadiag --replay recording.jsonl'\n"
		"check.json       the checklist's results over the recording\n"
		"check.txt        the same as text, with evidence (check -v)\n"
		"kernel-log.txt   the kernel log records about the RDMA "
		"devices\n"
		"                 (also in snapshot.json, kernel_log)\n\n"
		"The checks again, by any rdmadiag:\n"
		"  rdmadiag check --load recording.jsonl -v\n\n");
	if (*redacted)
		fprintf(f, "Redacted: host names, IPv4 and IPv6 addresses, MAC "
			   "and hardware\n"
			   "addresses, GUIDs, GIDs and serial numbers are "
			   "stand-ins (host-1,\n"
			   "198.18.x.y, 02:00:00:00:x:y, fd00:: prefixes, "
			   "serial-1); the same\n"
			   "value has the same stand-in in every file, and a "
			   "GID still holds\n"
			   "its stand-in address or MAC.\n");
	else
		fprintf(f, "Not redacted: host names, addresses, GUIDs and "
			   "serial\n"
			   "numbers are as the host has them.\n");
}

/* The recording, frame by frame: parsed, its names registered, written again.
 */
static int reframe(struct rd_cli *cli, const char *path, struct rd_redact *rd,
		   char **out, size_t *outlen)
{
	struct rd_recording rec;
	char err[512];
	FILE *f;
	int r;

	r = rd_recording_open(path, &rec, err, sizeof(err));
	if (r < 0) {
		cli_error(cli, "bugreport: the recording: %s", err);
		return r;
	}
	f = open_memstream(out, outlen);
	if (!f) {
		rd_recording_close(&rec);
		return -ENOMEM;
	}
	for (size_t i = 0; r == 0 && i < rec.n; i++) {
		struct rd_snapshot s;

		r = rd_recording_frame(&rec, i, &s, err, sizeof(err));
		if (r < 0) {
			cli_error(cli, "bugreport: the recording: %s", err);
			break;
		}
		if (rd)
			r = rd_redact_snapshot(rd, &s);
		if (r == 0)
			r = rd_recording_append(f, &s);
		rd_snapshot_free(&s);
	}
	rd_recording_close(&rec);
	if (fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	return r;
}

int cmd_bugreport(struct rd_cli *cli, int argc, char **argv)
{
	const char *output = NULL;
	bool redact = false;
	double seconds = 3;
	const struct cli_opt opts[] = {
		CLI_TEXT("output", 'o', &output),
		CLI_FLAG("redact", 0, &redact),
		CLI_SECONDS("seconds", 0, &seconds, 1, 600),
		CLI_END,
	};
	struct member m[7] = {
		{ .name = "README.txt" },
		{ .name = "version.txt" },
		{ .name = "snapshot.json", .redact = true },
		{ .name = "recording.jsonl", .redact = true },
		{ .name = "check.json", .redact = true },
		{ .name = "check.txt", .redact = true },
		{ .name = "kernel-log.txt", .redact = true },
	};
	const size_t nm = sizeof(m) / sizeof(m[0]);
	struct rd_redact *rd = NULL;
	struct rd_snapshot s;
	struct rd_history h;
	struct rd_results res = { 0 };
	struct rd_diag_opts o;
	volatile sig_atomic_t stop = 0;
	char err[512], label[256], fdpath[64];
	double window = 0;
	size_t frames = 0;
	FILE *rf = NULL;
	int fd = -1, r, rc = 1;
	bool have_s = false;

	CLI_PARSE_OR_RETURN(cli, "bugreport", opts, bugreport_usage, argc, argv,
			    2);
	if (optind < argc) {
		cli_error(cli, "bugreport: unexpected argument \"%s\"",
			  rd_esc_tmp(argv[optind]));
		return 2;
	}
	if (!output) {
		cli_error(cli, "bugreport: -o FILE.tar.gz is needed");
		return 2;
	}
	rd_history_init(&h);
	if (redact && !(rd = rd_redact_new()))
		goto oom;

	/* 1. The recording, in a memory file that check can open by name. */
	fd = memfd_create("rdmadiag-recording", MFD_CLOEXEC);
	if (fd < 0 || !(rf = fdopen(fd, "w+"))) {
		cli_error(cli,
			  "bugreport: cannot keep the recording in memory: %s",
			  strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	fprintf(stderr, "rdmadiag: recording %.0f s of this host...\n",
		seconds);
	r = con_capture(&cli->roots, rf, "the recording", seconds, 1.0, &stop,
			&frames, err, sizeof(err));
	if (r < 0 || frames == 0 || fflush(rf) != 0) {
		cli_error(cli, "bugreport: %s",
			  r < 0 ? err : "no snapshot could be taken");
		goto out;
	}
	r = reframe(cli, fdpath, rd, &m[3].text, &m[3].len);
	if (r < 0)
		goto out;

	/* 2. The checks over it, as check --load reads it. */
	r = cli_check_evidence(cli, fdpath, &window, &s, &h, label,
			       sizeof(label));
	if (r < 0)
		goto out;
	have_s = true;
	rd_diag_opts_init(&o);
	o.counter_window = window > 0 ? window + 1.0 : 0;
	o.from_file = true;
	r = rd_diag_run(&s, window > 0 ? &h : NULL, &o, &res);
	if (r < 0) {
		cli_error(cli, "bugreport: the checks: %s", strerror(-r));
		goto out;
	}
	rd_results_sort(&res);
	if (rd && rd_redact_snapshot(rd, &s) < 0)
		goto oom;

	/* 3. The members. */
	{
		struct json_object *j = rd_fleet_results_json(&res, &s);
		const char *js =
			j ? json_object_to_json_string_ext(
				    j, JSON_C_TO_STRING_PRETTY |
					       JSON_C_TO_STRING_NOSLASHESCAPE)
			  : NULL;
		struct check_args ca = { &res };

		if (js) {
			m[4].text = strdup(js);
			m[4].len = m[4].text ? strlen(m[4].text) : 0;
		}
		json_object_put(j);
		m[2].text = rd_snapshot_to_string(&s, 1);
		m[2].len = m[2].text ? strlen(m[2].text) : 0;
		m[0].text = text_of(readme_text, &redact, &m[0].len);
		m[1].text = text_of(version_text, NULL, &m[1].len);
		m[5].text = text_of(check_text, &ca, &m[5].len);
		m[6].text = text_of(kernel_log_text, &s.kmsg, &m[6].len);
	}
	for (size_t i = 0; i < nm; i++) {
		if (!m[i].text)
			goto oom;
		if (rd && m[i].redact &&
		    rd_redact_learn(rd, m[i].text, m[i].len) < 0)
			goto oom;
	}
	for (size_t i = 0; i < nm; i++) {
		char *t;
		size_t len;

		if (!rd || !m[i].redact)
			continue;
		t = rd_redact_text(rd, m[i].text, m[i].len, &len);
		if (!t)
			goto oom;
		free(m[i].text);
		m[i].text = t;
		m[i].len = len;
	}

	/* 4. The archive. */
	if (write_bundle(cli, output, m, nm) == 0) {
		fprintf(stderr,
			"rdmadiag: %s: %zu snapshots, %zu check results%s\n",
			rd_esc_tmp(output), frames, res.n,
			redact ? ", redacted" : "");
		rc = 0;
	}
	goto out;
oom:
	cli_error(cli, "bugreport: %s", strerror(ENOMEM));
out:
	for (size_t i = 0; i < nm; i++)
		free(m[i].text);
	if (rf)
		fclose(rf);
	rd_results_free(&res);
	if (have_s)
		rd_snapshot_free(&s);
	rd_history_free(&h);
	rd_redact_free(rd);
	return rc;
}
