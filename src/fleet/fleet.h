/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fleet reports: many hosts' `rdmadiag check --json`, gathered by pdsh
 * ("host: line"), clush -b (output grouped under a node set header) or one
 * file per host, parsed into per-host states and findings grouped across
 * hosts. Every string taken from a host is stored escaped (rd_esc), so
 * every output path prints it as it is. Memory is bounded: RD_FLEET_HOSTS_MAX
 * hosts, RD_FLEET_HOST_BYTES of output per host, RD_FLEET_INPUT_BYTES in all.
 */
#ifndef RD_FLEET_FLEET_H
#define RD_FLEET_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RD_FLEET_HOSTS_MAX 100000
#define RD_FLEET_FINDINGS_MAX 20000
#define RD_FLEET_HOST_BYTES (16u << 20)
#define RD_FLEET_INPUT_BYTES (512u << 20)
#define RD_FLEET_LINE_MAX 65536
#define RD_FLEET_NODESET_MAX 100000
#define RD_FLEET_NODESET_NUM_MAX 999999999UL /* largest number in a range */
#define RD_FLEET_HOST_INDEX 262144 /* hash slots > 2 * HOSTS_MAX */
#define RD_FLEET_INDEX 65536 /* hash slots, a power of 2 > 2 * FINDINGS_MAX */

enum rd_fleet_state {
	RD_FLEET_NO_OUTPUT, /* nothing seen yet (or only an exit line) */
	RD_FLEET_ANSWERED,  /* a complete check --json array */
	RD_FLEET_MALFORMED, /* output that is not, or not all, the array */
	RD_FLEET_NO_ANSWER, /* no JSON, and an error or exit code */
	RD_FLEET_CONFLICT,  /* output that cannot all be the host's own */
};

/* Verdict ranks as check --json names them; -1 for none. */
enum { RD_FLEET_PASS, RD_FLEET_UNKNOWN, RD_FLEET_WARN, RD_FLEET_FAIL };

struct rd_fleet_host {
	char *name; /* escaped */
	enum rd_fleet_state state;
	char *reason;	 /* escaped: why malformed / not answering */
	int exit_code;	 /* from an "exited with exit code N" line, or -1 */
	int worst;	 /* RD_FLEET_* verdict, -1 none */
	size_t count[4]; /* results per verdict */
	char *reported;	 /* the "host" of its results, escaped */
	char *time;	 /* the "time" of its results, escaped */
	bool expected;	 /* named by --hosts */
	/* parsing state */
	struct json_tokener *tok;
	size_t bytes, lines;
	bool done;   /* the array was complete (or refused) */
	bool grouped; /* named by the clush -b / dshbak group being read */
	bool prefixed; /* had "host: line" output */
	bool unnamed;  /* one stream's output: its name names no host */
	unsigned groups; /* group headers that named it */
	char *conflict; /* why its output conflicts, escaped; NULL when not */
	char *noise; /* first non-JSON line, escaped */
	char *said;  /* pdsh's or clush's first word on it (no exit code) */
};

struct rd_fleet_finding {
	int verdict;
	char *check, *cause, *summary; /* escaped */
	uint64_t hash;
	unsigned long body; /* the group body that last added a host */
	size_t *hosts, n_hosts;
};

struct rd_fleet {
	struct rd_fleet_host *hosts;
	size_t n_hosts;
	struct rd_fleet_finding *findings;
	size_t n_findings;
	size_t *index;		 /* RD_FLEET_INDEX slots: finding + 1 */
	size_t findings_dropped; /* distinct findings beyond the cap */
	size_t *host_index;	 /* RD_FLEET_HOST_INDEX slots: host + 1 */
	size_t hosts_dropped;	 /* lines of hosts beyond the cap */
	size_t bytes;		 /* input read */
	bool input_cut;		 /* stopped at RD_FLEET_INPUT_BYTES */
	size_t stray_lines;	 /* lines no host could be told for */
	char *stray;		 /* the first of them, escaped */
	/* clush -b group being read */
	int clush; /* 0 none, 1 header, 2 nodes read, 3 body */
	unsigned long body; /* number of the group body being read */
	size_t *group, n_group;
	bool tool_group; /* dshbak -c's group of pdsh's messages */
	bool in_line;	 /* a line longer than the buffer */
};

void rd_fleet_init(struct rd_fleet *f);
void rd_fleet_free(struct rd_fleet *f);

/* The host named name (raw bytes), added when new; NULL when full/no memory. */
struct rd_fleet_host *rd_fleet_host(struct rd_fleet *f, const char *name);

/*
 * Read gathered output: pdsh's "host: line" form (also clush without -b),
 * clush -b's groups, the "pdsh@node:"/"clush:" error and exit-code lines.
 * A stream that starts with '[' is one host's output, named single_name.
 * 0, or -errno (read error, out of memory).
 */
int rd_fleet_read_stream(struct rd_fleet *f, FILE *in, const char *single_name);

/* One line of gathered output (without its newline, NUL at line[len]). */
int rd_fleet_feed_line(struct rd_fleet *f, const char *line, size_t len);

/* One host's whole output (a file of a directory). */
int rd_fleet_add_output(struct rd_fleet *f, const char *host, const char *text,
			size_t len);

/*
 * Every regular file of dir (not hidden), one host each, named by the file
 * name without a ".json" ending. err gets a message on failure.
 */
int rd_fleet_read_dir(struct rd_fleet *f, const char *dir, char *err,
		      size_t errlen);

/* A list of the hosts that should have answered (one name or node set per
 * line). */
int rd_fleet_read_host_list(struct rd_fleet *f, FILE *in);

/* End of input: unfinished output becomes truncated; findings are ranked. */
void rd_fleet_finish(struct rd_fleet *f);

/*
 * Expand a node set ("n[01-03,7]x,m1") calling fn on each name; at most
 * RD_FLEET_NODESET_MAX names, numbers up to RD_FLEET_NODESET_NUM_MAX. 0,
 * -EINVAL malformed, -E2BIG too many, -ERANGE a number too large, or what
 * fn returned (non-zero stops). Nothing is expanded when the set is too
 * large or a number too large: it is checked whole first.
 */
int rd_fleet_nodeset(const char *set, int (*fn)(void *arg, const char *name),
		     void *arg);

/* "FAIL", "WARN", "UNKNOWN", "PASS"; the rank of a name or -1. */
const char *rd_fleet_verdict_name(int v);
int rd_fleet_verdict_rank(const char *name);

/* Worst verdict over answered hosts and hosts in conflict (-1 none). */
int rd_fleet_worst(const struct rd_fleet *f);

/*
 * names (in natural order, as strverscmp sorts them) folded into node sets
 * joined by ",": "n[01-03,07],login1". Cut with ",... N more hosts" to fit
 * len. Returns buf.
 */
char *rd_fleet_fold(const char *const *names, size_t n, char *buf, size_t len);

/*
 * Host names of a finding (or of a list of host indices) folded by
 * rd_fleet_fold. Returns buf.
 */
char *rd_fleet_host_list(const struct rd_fleet *f, const size_t *idx, size_t n,
			 char *buf, size_t len);

/* Print the report as a table / as JSON. 0, or -errno. */
int rd_fleet_print_text(const struct rd_fleet *f, FILE *out,
			size_t max_findings);
int rd_fleet_print_json(const struct rd_fleet *f, FILE *out);

#endif
