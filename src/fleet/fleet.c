// SPDX-License-Identifier: GPL-2.0-or-later
/* Fleet reports: gathered check --json per host, findings across hosts. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/model.h"
#include "fleet/fleet.h"

_Static_assert(RD_FLEET_HOST_INDEX > 2 * RD_FLEET_HOSTS_MAX &&
		       (RD_FLEET_HOST_INDEX & (RD_FLEET_HOST_INDEX - 1)) == 0,
	       "the host index must stay under half full");
_Static_assert(RD_FLEET_INDEX > 2 * RD_FLEET_FINDINGS_MAX &&
		       (RD_FLEET_INDEX & (RD_FLEET_INDEX - 1)) == 0,
	       "the finding index must stay under half full");

static const char *const verdict_names[4] = { "PASS", "UNKNOWN", "WARN",
					      "FAIL" };

const char *rd_fleet_verdict_name(int v)
{
	return v >= 0 && v < 4 ? verdict_names[v] : "NONE";
}

int rd_fleet_verdict_rank(const char *name)
{
	for (int i = 0; name && i < 4; i++)
		if (strcmp(name, verdict_names[i]) == 0)
			return i;
	return -1;
}

void rd_fleet_init(struct rd_fleet *f)
{
	memset(f, 0, sizeof(*f));
}

static void host_free(struct rd_fleet_host *h)
{
	free(h->name);
	free(h->reason);
	free(h->reported);
	free(h->time);
	free(h->noise);
	free(h->said);
	free(h->conflict);
	if (h->tok)
		json_tokener_free(h->tok);
}

void rd_fleet_free(struct rd_fleet *f)
{
	for (size_t i = 0; i < f->n_hosts; i++)
		host_free(&f->hosts[i]);
	for (size_t i = 0; i < f->n_findings; i++) {
		free(f->findings[i].check);
		free(f->findings[i].cause);
		free(f->findings[i].summary);
		free(f->findings[i].hosts);
	}
	free(f->hosts);
	free(f->findings);
	free(f->stray);
	free(f->group);
	free(f->index);
	free(f->host_index);
	memset(f, 0, sizeof(*f));
}

/* Escaped copy of at most max bytes of s (cut on a character boundary). */
static char *esc_cut(const char *s, size_t len, size_t max)
{
	char *raw, *out;

	if (len > max) {
		len = max;
		while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	raw = strndup(s, len);
	if (!raw)
		return NULL;
	out = rd_esc_dup(raw);
	free(raw);
	return out;
}

static void set_reason(struct rd_fleet_host *h, enum rd_fleet_state st,
		       const char *fmt_text)
{
	char *r = strdup(fmt_text);

	if (!r)
		return;
	free(h->reason);
	h->reason = r;
	h->state = st;
}

struct rd_fleet_host *rd_fleet_host(struct rd_fleet *f, const char *name)
{
	char *esc = rd_esc_dup(name);
	struct rd_fleet_host *h;
	size_t slot;

	if (!esc)
		return NULL;
	if (!f->host_index &&
	    !(f->host_index = calloc(RD_FLEET_HOST_INDEX, sizeof(size_t)))) {
		free(esc);
		return NULL;
	}
	slot = rd_hash_str(RD_HASH_INIT, esc) & (RD_FLEET_HOST_INDEX - 1);
	for (; f->host_index[slot];
	     slot = (slot + 1) & (RD_FLEET_HOST_INDEX - 1))
		if (strcmp(f->hosts[f->host_index[slot] - 1].name, esc) == 0) {
			free(esc);
			return &f->hosts[f->host_index[slot] - 1];
		}
	if (f->n_hosts >= RD_FLEET_HOSTS_MAX) {
		f->hosts_dropped++;
		free(esc);
		return NULL;
	}
	h = RD_PUSH_NAMED(f->hosts, f->n_hosts, name, esc);
	free(esc);
	if (!h)
		return NULL;
	h->exit_code = -1;
	h->worst = -1;
	f->host_index[slot] = f->n_hosts;
	return h;
}

/* Add host index hi to the finding (verdict, check, cause, summary). */
static int add_finding(struct rd_fleet *f, size_t hi, int verdict,
		       const char *check, const char *cause,
		       const char *summary)
{
	uint64_t hash = rd_hash_str(
		rd_hash_str(
			rd_hash_str(RD_HASH_INIT + (uint64_t)verdict, check),
			cause),
		summary);
	struct rd_fleet_finding *x = NULL;
	size_t slot = hash & (RD_FLEET_INDEX - 1);

	if (!f->index && !(f->index = calloc(RD_FLEET_INDEX, sizeof(size_t))))
		return -ENOMEM;
	/* Open addressing: the cap keeps the table under half full. */
	for (; f->index[slot]; slot = (slot + 1) & (RD_FLEET_INDEX - 1)) {
		struct rd_fleet_finding *c = &f->findings[f->index[slot] - 1];

		if (c->hash == hash && c->verdict == verdict &&
		    strcmp(c->check, check) == 0 &&
		    strcmp(c->cause, cause) == 0 &&
		    strcmp(c->summary, summary) == 0) {
			x = c;
			break;
		}
	}
	if (!x) {
		if (f->n_findings >= RD_FLEET_FINDINGS_MAX) {
			f->findings_dropped++;
			return 0;
		}
		x = RD_PUSH(f->findings, f->n_findings);
		if (!x)
			return -ENOMEM;
		x->check = strdup(check);
		x->cause = strdup(cause);
		x->summary = strdup(summary);
		if (!x->check || !x->cause || !x->summary) {
			free(x->check);
			free(x->cause);
			free(x->summary);
			f->n_findings--;
			return -ENOMEM;
		}
		x->verdict = verdict;
		x->hash = hash;
		f->index[slot] = f->n_findings;
	}
	x->body = f->body;
	if (x->n_hosts && x->hosts[x->n_hosts - 1] == hi)
		return 0;
	{
		size_t *slot_hi = RD_PUSH(x->hosts, x->n_hosts);

		if (!slot_hi)
			return -ENOMEM;
		*slot_hi = hi;
	}
	return 0;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static char *jesc(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return strdup("");
	return esc_cut(json_object_get_string(v),
		       (size_t)json_object_get_string_len(v), 400);
}

/*
 * The host's output cannot all be its own: why, the first reason kept.
 * The state becomes RD_FLEET_CONFLICT when the input is finished.
 */
static void note_conflict(struct rd_fleet_host *h, const char *why)
{
	if (!h->conflict)
		h->conflict = strdup(why);
}

/*
 * Output for a host that already had some from another source (a second
 * group, or "host: line" beside a group): a conflict, and what follows is
 * read too, so no first source hides the other's verdicts.
 */
static void another_source(struct rd_fleet_host *h, const char *why)
{
	note_conflict(h, why);
	h->done = false;
	if (h->state == RD_FLEET_MALFORMED || h->state == RD_FLEET_ANSWERED)
		h->state = RD_FLEET_NO_OUTPUT;
}

/* A complete JSON value: the check --json array, or refused as malformed. */
static int take_results(struct rd_fleet *f, struct rd_fleet_host *h,
			struct json_object *j)
{
	size_t hi = (size_t)(h - f->hosts), n, before[4];
	int worst_before = h->worst;
	char msg[160];
	int r = 0;

	if (!json_object_is_type(j, json_type_array)) {
		set_reason(h, RD_FLEET_MALFORMED,
			   "JSON that is not a check --json array");
		return 0;
	}
	n = json_object_array_length(j);
	/* A host given output twice (a conflict) keeps what both said. */
	memcpy(before, h->count, sizeof(before));
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(j, i);
		int v = rd_fleet_verdict_rank(jstr(o, "verdict"));

		if (!json_object_is_type(o, json_type_object) || v < 0 ||
		    !jstr(o, "check")) {
			snprintf(msg, sizeof(msg),
				 "element %zu of the array is not a check "
				 "result",
				 i + 1);
			set_reason(h, RD_FLEET_MALFORMED, msg);
			memcpy(h->count, before, sizeof(h->count));
			h->worst = worst_before;
			return 0;
		}
		h->count[v]++;
		if (v > h->worst)
			h->worst = v;
	}
	h->state = RD_FLEET_ANSWERED;
	free(h->reason);
	h->reason = NULL;
	if (n == 0)
		set_reason(h, RD_FLEET_ANSWERED, "no results");
	for (size_t i = 0; i < n && r == 0; i++) {
		struct json_object *o = json_object_array_get_idx(j, i);
		int v = rd_fleet_verdict_rank(jstr(o, "verdict"));
		char *check, *cause, *summary;

		if (jstr(o, "host")) {
			char *rh = jesc(o, "host");

			if (!rh)
				return -ENOMEM;
			/* Every result names the host that made it. */
			if (!h->reported)
				h->reported = rh;
			else if (strcmp(h->reported, rh) != 0) {
				note_conflict(h, "its results name more than "
						 "one host");
				free(rh);
			} else {
				free(rh);
			}
		}
		if (!h->time && jstr(o, "time"))
			h->time = jesc(o, "time");
		if (v == RD_FLEET_PASS)
			continue;
		check = jesc(o, "check");
		cause = jesc(o, "cause");
		summary = jesc(o, "summary");
		r = check && cause && summary
			    ? add_finding(f, hi, v, check, cause, summary)
			    : -ENOMEM;
		free(check);
		free(cause);
		free(summary);
	}
	return r;
}

/* One line of one host's output. */
static int host_line(struct rd_fleet *f, struct rd_fleet_host *h,
		     const char *line, size_t len)
{
	size_t sp = 0;
	enum json_tokener_error e;
	struct json_object *j;
	int r = 0;

	h->lines++;
	if (h->done || h->state == RD_FLEET_MALFORMED)
		return 0;
	h->bytes += len + 1;
	if (h->bytes > RD_FLEET_HOST_BYTES) {
		set_reason(h, RD_FLEET_MALFORMED, "output larger than 16 MiB");
		h->done = true;
		if (h->tok)
			json_tokener_free(h->tok);
		h->tok = NULL;
		return 0;
	}
	while (sp < len && (line[sp] == ' ' || line[sp] == '\t'))
		sp++;
	if (!h->tok) {
		if (sp == len)
			return 0;
		if (line[sp] != '[' && line[sp] != '{') {
			if (!h->noise)
				h->noise = esc_cut(line + sp, len - sp, 200);
			return 0;
		}
		h->tok = json_tokener_new_ex(64);
		if (!h->tok)
			return -ENOMEM;
	} else if (len - sp > 10 && strncmp(line + sp, "rdmadiag: ", 10) == 0) {
		/* Its standard error between lines of its JSON. */
		return 0;
	}
	j = json_tokener_parse_ex(h->tok, line, (int)len);
	e = json_tokener_get_error(h->tok);
	if (e == json_tokener_continue)
		return 0;
	if (j) {
		r = take_results(f, h, j);
		json_object_put(j);
	} else {
		char msg[200];

		snprintf(msg, sizeof(msg), "not valid JSON at line %zu: %s",
			 h->lines, json_tokener_error_desc(e));
		set_reason(h, RD_FLEET_MALFORMED, msg);
	}
	h->done = true;
	json_tokener_free(h->tok);
	h->tok = NULL;
	return r;
}

/*
 * A NUL byte in a line of the host's output: that line is damaged, the
 * host's output malformed; no other host's line is touched.
 */
static int host_damaged(struct rd_fleet_host *h)
{
	char msg[80];

	h->lines++;
	if (h->done || h->state == RD_FLEET_MALFORMED)
		return 0;
	snprintf(msg, sizeof(msg), "a NUL byte in its output at line %zu",
		 h->lines);
	set_reason(h, RD_FLEET_MALFORMED, msg);
	h->done = true;
	if (h->tok)
		json_tokener_free(h->tok);
	h->tok = NULL;
	return 0;
}

int rd_fleet_add_output(struct rd_fleet *f, const char *host, const char *text,
			size_t len)
{
	struct rd_fleet_host *h = rd_fleet_host(f, host);
	size_t off = 0;
	int r = 0;

	if (!h)
		return f->n_hosts >= RD_FLEET_HOSTS_MAX ? 0 : -ENOMEM;
	f->bytes += len;
	while (off < len && r == 0) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t l = nl ? (size_t)(nl - (text + off)) : len - off;

		r = memchr(text + off, '\0', l) ? host_damaged(h)
						 : host_line(f, h, text + off, l);
		off += l + 1;
	}
	return r;
}

/* "exited with exit code N" at the end of a message: N, or -1. */
static int exit_code_of(const char *msg)
{
	static const char tag[] = "exited with exit code ";
	const char *p = strstr(msg, tag);
	char *end;
	long v;

	if (!p)
		return -1;
	p += sizeof(tag) - 1;
	v = strtol(p, &end, 10);
	if (end == p || v < 0 || v > 255)
		return -1;
	return (int)v;
}

struct msg_arg {
	struct rd_fleet *f;
	const char *msg;
	int code;
};

static int note_host_msg(void *arg, const char *name)
{
	struct msg_arg *a = arg;
	struct rd_fleet_host *h = rd_fleet_host(a->f, name);

	if (!h)
		return a->f->n_hosts >= RD_FLEET_HOSTS_MAX ? 0 : -ENOMEM;
	/* The exit code says it all; other messages tell why, when nothing else
	 * does. */
	if (a->code >= 0) {
		h->exit_code = a->code;
		return 0;
	}
	/* "command timeout", "killed by signal 15", a name not resolved. */
	if (!h->said) {
		char *m = esc_cut(a->msg, strlen(a->msg), 200);

		if (!m)
			return -ENOMEM;
		h->said = m;
	}
	return 0;
}

/*
 * "pdsh@node: host: message" / "clush: nodes: message": the exit code or
 * the error of those hosts.
 */
static int tool_message(struct rd_fleet *f, const char *rest)
{
	const char *colon = strstr(rest, ": ");
	struct msg_arg a = { .f = f };
	char *nodes;
	int r;

	/* pdsh: gethostbyname("host") failed */
	if (!colon && strncmp(rest, "gethostbyname(\"", 15) == 0) {
		const char *q = strchr(rest + 15, '"');

		if (!q)
			return 0;
		nodes = strndup(rest + 15, (size_t)(q - rest - 15));
		a.msg = "host name not resolved";
		a.code = -1;
		r = nodes && note_host_msg(&a, nodes) == 0 ? 0 : -ENOMEM;
		free(nodes);
		return r;
	}
	if (!colon)
		return 0;
	nodes = strndup(rest, (size_t)(colon - rest));
	if (!nodes)
		return -ENOMEM;
	/* clush -b: "host[1-2] (2): exited ..." */
	if (strchr(nodes, ' '))
		*strchr(nodes, ' ') = '\0';
	a.msg = colon + 2;
	a.code = exit_code_of(a.msg);
	r = rd_fleet_nodeset(nodes, note_host_msg, &a);
	free(nodes);
	if (r == -EINVAL || r == -E2BIG || r == -ERANGE)
		r = 0;
	return r;
}

static bool is_separator(const char *line, size_t len)
{
	return len >= 3 && strspn(line, "-") == len;
}

/* The group being read is over: its hosts may be named again. */
static void group_reset(struct rd_fleet *f)
{
	for (size_t g = 0; g < f->n_group; g++)
		f->hosts[f->group[g]].grouped = false;
	f->n_group = 0;
}

static int add_group_host(void *arg, const char *name)
{
	struct rd_fleet *f = arg;
	struct rd_fleet_host *h = rd_fleet_host(f, name);
	size_t *p;

	if (!h)
		return f->n_hosts >= RD_FLEET_HOSTS_MAX ? 0 : -ENOMEM;
	/* A header naming a host twice ("h[1,1]") names it once. */
	if (h->grouped)
		return 0;
	/*
	 * clush -b and dshbak -c name each host once, and print its output
	 * raw: another host can print a separator and a header naming this
	 * one.
	 */
	if (h->groups++ || h->prefixed)
		another_source(h, h->prefixed
					  ? "named by a group and by "
					    "\"host: line\" output"
					  : "named by two groups of output "
					    "(another host can print a group)");
	p = reallocarray(f->group, f->n_group + 1, sizeof(*f->group));
	if (!p)
		return -ENOMEM;
	f->group = p;
	f->group[f->n_group++] = (size_t)(h - f->hosts);
	h->grouped = true;
	return 0;
}

/* End of a host's output in the middle of its JSON. */
static void truncated(struct rd_fleet_host *h)
{
	char msg[300];

	json_tokener_free(h->tok);
	h->tok = NULL;
	rd_snprintf_text(msg, sizeof(msg),
			 "truncated: the JSON ends unfinished after %zu lines%s%s%s",
			 h->lines, h->said ? " (" : "", h->said ? h->said : "",
			 h->said ? ")" : "");
	set_reason(h, RD_FLEET_MALFORMED, msg);
	h->done = true;
}

/* The group's output was read into its first host: give it to the others. */
static int end_group(struct rd_fleet *f)
{
	struct rd_fleet_host *first;
	size_t fi, *mine = NULL, n_mine = 0;
	int r = 0;

	if (f->clush != 3 || f->n_group == 0) {
		group_reset(f);
		return 0;
	}
	fi = f->group[0];
	first = &f->hosts[fi];
	if (first->tok)
		truncated(first);
	/* The first host's findings were the last added to each. */
	for (size_t i = 0; i < f->n_findings; i++) {
		struct rd_fleet_finding *x = &f->findings[i];

		if (x->body == f->body && x->n_hosts &&
		    x->hosts[x->n_hosts - 1] == fi) {
			size_t *p =
				reallocarray(mine, n_mine + 1, sizeof(*mine));

			if (!p) {
				free(mine);
				return -ENOMEM;
			}
			mine = p;
			mine[n_mine++] = i;
		}
	}
	for (size_t g = 1; g < f->n_group && r == 0; g++) {
		struct rd_fleet_host *h = &f->hosts[f->group[g]];

		if (h->conflict && (h->groups > 1 || h->prefixed)) {
			/* Output from another source too: keep both. */
			for (int v = 0; v < 4; v++)
				h->count[v] += first->count[v];
			if (first->worst > h->worst)
				h->worst = first->worst;
			if (h->state == RD_FLEET_NO_OUTPUT)
				h->state = first->state;
			h->done = first->done;
			if (first->reported && !h->reported)
				h->reported = strdup(first->reported);
			for (size_t i = 0; i < n_mine && r == 0; i++) {
				struct rd_fleet_finding *x =
					&f->findings[mine[i]];

				r = add_finding(f, f->group[g], x->verdict,
						x->check, x->cause, x->summary);
			}
			continue;
		}
		h->state = first->state;
		h->worst = first->worst;
		h->done = first->done;
		h->bytes = first->bytes;
		h->lines = first->lines;
		memcpy(h->count, first->count, sizeof(h->count));
		free(h->reason);
		free(h->reported);
		free(h->time);
		h->reason = first->reason ? strdup(first->reason) : NULL;
		h->reported = first->reported ? strdup(first->reported) : NULL;
		h->time = first->time ? strdup(first->time) : NULL;
		if (first->noise && !h->noise)
			h->noise = strdup(first->noise);
		if (first->said && !h->said)
			h->said = strdup(first->said);
		for (size_t i = 0; i < n_mine && r == 0; i++) {
			struct rd_fleet_finding *x = &f->findings[mine[i]];

			r = add_finding(f, f->group[g], x->verdict, x->check,
					x->cause, x->summary);
		}
	}
	free(mine);
	/* A truncated group stays truncated in every host it names. */
	group_reset(f);
	f->clush = 0;
	return r;
}

/* A line no host can be told for. */
static int stray_line(struct rd_fleet *f, const char *line, size_t len)
{
	f->stray_lines++;
	if (!f->stray)
		f->stray = esc_cut(line, len, 200);
	return 0;
}

int rd_fleet_feed_line(struct rd_fleet *f, const char *line, size_t len)
{
	const char *colon, *nul;
	char name[256];
	size_t plen;

	if (len && line[len - 1] == '\r')
		len--;
	/*
	 * clush's progress counter ("clush: 0/2\r") on standard error is
	 * overwritten by what follows it, as a terminal shows it.
	 */
	for (size_t i = len; len > 7 && !strncmp(line, "clush: ", 7) && i-- > 0;)
		if (line[i] == '\r') {
			line += i + 1;
			len -= i + 1;
			break;
		}
	/* Up to a NUL byte, the line can still name its host. */
	nul = memchr(line, '\0', len);
	plen = nul ? (size_t)(nul - line) : len;
	if (strncmp(line, "pdsh@", 5) == 0 &&
	    (colon = memchr(line, ':', len)) && colon + 1 < line + len &&
	    colon[1] == ' ')
		return tool_message(f, colon + 2);
	if (len > 7 && strncmp(line, "clush: ", 7) == 0)
		return tool_message(f, line + 7);
	if (is_separator(line, len)) {
		int r = 0;

		if (f->clush == 3)
			r = end_group(f);
		else if (f->clush == 2) {
			f->clush = 3;
			f->body++;
			return 0;
		}
		f->clush = 1;
		return r;
	}
	if (f->clush == 1 && nul) {
		f->clush = 0;
		return stray_line(f, line, len);
	}
	if (f->clush == 1) {
		/* "host[1-3] (3)" or "host1" */
		char *set = strndup(line, len);
		int r;

		if (!set)
			return -ENOMEM;
		if (strchr(set, ' '))
			*strchr(set, ' ') = '\0';
		group_reset(f);
		/* dshbak -c puts pdsh's own lines under "pdsh@node". */
		f->tool_group = strncmp(set, "pdsh@", 5) == 0;
		if (f->tool_group) {
			free(set);
			f->clush = 2;
			return 0;
		}
		r = rd_fleet_nodeset(set, add_group_host, f);
		free(set);
		if (r == -EINVAL || r == -E2BIG || r == -ERANGE) {
			f->clush = 0;
			return stray_line(f, line, len);
		}
		f->clush = 2;
		return r;
	}
	if (f->clush == 3 && f->tool_group)
		return tool_message(f, line);
	if (f->clush == 3 && f->n_group)
		return nul ? host_damaged(&f->hosts[f->group[0]])
			   : host_line(f, &f->hosts[f->group[0]], line, len);
	/* "host: text" (pdsh pads nothing; the host has no blank) */
	colon = memchr(line, ':', plen);
	if (colon && colon > line && (size_t)(colon - line) < sizeof(name) &&
	    (colon + 1 == line + len || colon[1] == ' ') &&
	    !memchr(line, ' ', (size_t)(colon - line)) &&
	    !memchr(line, '\t', (size_t)(colon - line))) {
		struct rd_fleet_host *h;
		size_t off = (size_t)(colon - line) + 1;

		memcpy(name, line, (size_t)(colon - line));
		name[colon - line] = '\0';
		h = rd_fleet_host(f, name);
		if (!h)
			return f->n_hosts >= RD_FLEET_HOSTS_MAX ? 0 : -ENOMEM;
		if (!h->prefixed) {
			h->prefixed = true;
			if (h->groups)
				another_source(h, "named by a group and by "
						  "\"host: line\" output");
		}
		if (off < len)
			off++;
		if (nul)
			return host_damaged(h);
		return host_line(f, h, line + off, len - off);
	}
	return len ? stray_line(f, line, len) : 0;
}

/*
 * The next piece of a line of in: up to and with its newline, at most
 * cap - 1 bytes, NUL bytes included; its length, 0 at the end. A line
 * longer than cap - 1 comes in several pieces, each without a newline but
 * the last. Bounded, unlike getline, so a stream with no newline (a
 * device of zeros) costs a buffer, not its length in memory.
 */
static size_t read_piece(FILE *in, char *buf, size_t cap)
{
	size_t len = 0;
	int c;

	while (len < cap - 1 && (c = getc_unlocked(in)) != EOF) {
		buf[len++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[len] = '\0';
	return len;
}

int rd_fleet_read_stream(struct rd_fleet *f, FILE *in, const char *single_name)
{
	char *buf = malloc(RD_FLEET_LINE_MAX);
	bool first = true, single = false;
	struct rd_fleet_host *sh = NULL;
	size_t len;
	int r = 0;

	if (!buf)
		return -ENOMEM;
	/* Every byte read counts, those after a NUL byte too. */
	while (r == 0 && (len = read_piece(in, buf, RD_FLEET_LINE_MAX))) {
		bool whole = buf[len - 1] == '\n';

		f->bytes += len;
		if (f->bytes > RD_FLEET_INPUT_BYTES) {
			f->input_cut = true;
			break;
		}
		if (whole)
			buf[--len] = '\0';
		if (first && len) {
			size_t sp = strspn(buf, " \t");

			first = false;
			single = buf[sp] == '[' || buf[sp] == '{';
			if (single) {
				sh = rd_fleet_host(f, single_name ? single_name
								  : "-");
				if (!sh) {
					r = -ENOMEM;
					break;
				}
				sh->unnamed = true;
			}
		}
		/* A line longer than the buffer: its rest is the same line. */
		if (single)
			r = memchr(buf, '\0', len) ? host_damaged(sh)
						   : host_line(f, sh, buf, len);
		else if (!f->in_line)
			r = rd_fleet_feed_line(f, buf, len);
		f->in_line = !whole;
	}
	if (ferror(in) && r == 0)
		r = -EIO;
	free(buf);
	return r;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rd_fleet_read_dir(struct rd_fleet *f, const char *dir, char *err,
		      size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	int r = 0;

	if (!d) {
		rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(dir),
			 strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		char **p;

		if (de->d_name[0] == '.')
			continue;
		if (n >= RD_FLEET_HOSTS_MAX)
			break;
		p = reallocarray(names, n + 1, sizeof(*names));
		if (!p || !(p[n] = strdup(de->d_name))) {
			names = p ? p : names;
			r = -ENOMEM;
			break;
		}
		names = p;
		n++;
	}
	/* Files in name order, so the report does not depend on readdir. */
	if (n > 1)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n && r == 0; i++) {
		int fd = openat(dirfd(d), names[i],
				O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		size_t nl = strlen(names[i]);
		struct stat st;
		char *text = NULL;
		size_t len = 0;
		ssize_t got;

		if (nl > 5 && strcmp(names[i] + nl - 5, ".json") == 0)
			names[i][nl - 5] = '\0';
		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (f->bytes + (size_t)st.st_size > RD_FLEET_INPUT_BYTES) {
			f->input_cut = true;
			close(fd);
			break;
		}
		if (st.st_size > (off_t)RD_FLEET_HOST_BYTES) {
			struct rd_fleet_host *h = rd_fleet_host(f, names[i]);

			if (h)
				set_reason(h, RD_FLEET_MALFORMED,
					   "output larger than 16 MiB");
			close(fd);
			continue;
		}
		text = malloc((size_t)st.st_size + 1);
		while (text && len < (size_t)st.st_size &&
		       (got = read(fd, text + len, (size_t)st.st_size - len)) >
			       0)
			len += (size_t)got;
		close(fd);
		if (!text) {
			r = -ENOMEM;
			break;
		}
		r = rd_fleet_add_output(f, names[i], text, len);
		free(text);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	if (r < 0)
		rd_snprintf_text(err, errlen, "%s: %s", rd_esc_tmp(dir), strerror(-r));
	return r;
}

static int expect_host(void *arg, const char *name)
{
	struct rd_fleet *f = arg;
	struct rd_fleet_host *h = rd_fleet_host(f, name);

	if (!h)
		return f->n_hosts >= RD_FLEET_HOSTS_MAX ? 0 : -ENOMEM;
	h->expected = true;
	return 0;
}

int rd_fleet_read_host_list(struct rd_fleet *f, FILE *in)
{
	char line[4096];
	int r = 0;

	while (r == 0 && fgets(line, sizeof(line), in)) {
		char *p = line + strspn(line, " \t"), *e;

		if (*p == '#' || *p == '\n' || *p == '\0')
			continue;
		e = p + strcspn(p, " \t\r\n#");
		*e = '\0';
		r = rd_fleet_nodeset(p, expect_host, f);
		if (r == -EINVAL)
			r = expect_host(f, p);
	}
	if (r == 0 && ferror(in))
		r = -EIO;
	return r;
}

static int finding_cmp(const void *a, const void *b)
{
	const struct rd_fleet_finding *x = a, *y = b;
	int c;

	if (x->verdict != y->verdict)
		return y->verdict - x->verdict;
	if (x->n_hosts != y->n_hosts)
		return x->n_hosts < y->n_hosts ? 1 : -1;
	c = strcmp(x->check, y->check);
	return c ? c : strcmp(x->summary, y->summary);
}

/* Host names in natural order: host2 before host10. */
static int host_idx_cmp(const void *a, const void *b, void *arg)
{
	const struct rd_fleet *f = arg;

	return strverscmp(f->hosts[*(const size_t *)a].name,
			  f->hosts[*(const size_t *)b].name);
}

/*
 * The name a host's results give is the one its output was filed under,
 * or that name's short form ("n1" for "n1.example.net", either way). An
 * address names no host to compare with.
 */
static bool same_host(const char *filed, const char *reported)
{
	unsigned char addr[16];
	size_t a = strlen(filed), b = strlen(reported);

	if (strcmp(filed, reported) == 0 ||
	    inet_pton(AF_INET, filed, addr) == 1 ||
	    inet_pton(AF_INET6, filed, addr) == 1)
		return true;
	if (a < b)
		return strncmp(filed, reported, a) == 0 && reported[a] == '.';
	return strncmp(filed, reported, b) == 0 && filed[b] == '.';
}

/* A host whose output cannot all be its own is in conflict, and says why. */
static void finish_conflict(struct rd_fleet_host *h)
{
	char msg[600];

	if (!h->conflict && h->state == RD_FLEET_ANSWERED) {
		/* Results, and the tool's word that it did not answer. */
		if (h->exit_code >= 3) {
			snprintf(msg, sizeof(msg),
				 "results, and the tool says it exited with "
				 "exit code %d",
				 h->exit_code);
			note_conflict(h, msg);
		} else if (h->said) {
			rd_snprintf_text(msg, sizeof(msg),
					 "results, and the tool says: %s",
					 h->said);
			note_conflict(h, msg);
		} else if (h->reported && !h->unnamed &&
			   !same_host(h->name, h->reported)) {
			rd_snprintf_text(msg, sizeof(msg),
					 "its results name host %s",
					 h->reported);
			note_conflict(h, msg);
		}
	}
	if (!h->conflict)
		return;
	free(h->reason);
	h->reason = strdup(h->conflict);
	h->state = RD_FLEET_CONFLICT;
}

void rd_fleet_finish(struct rd_fleet *f)
{
	if (f->clush == 3)
		(void)end_group(f);
	for (size_t i = 0; i < f->n_hosts; i++) {
		struct rd_fleet_host *h = &f->hosts[i];
		char msg[300];

		if (h->tok)
			truncated(h);
		if (h->state != RD_FLEET_NO_OUTPUT)
			continue;
		if (h->exit_code >= 0 || h->noise || h->said) {
			/* The host's own words first, else the tool's. */
			const char *why = h->exit_code >= 0 && h->noise ? h->noise
					  : h->said		       ? h->said
									       : h->noise;

			if (h->exit_code >= 0)
				rd_snprintf_text(msg, sizeof(msg), "exit code %d%s%s",
					 h->exit_code, why ? ": " : "",
					 why ? why : "");
			else
				rd_snprintf_text(msg, sizeof(msg), "%s", why);
			/*
			 * check exits 1 and 2 after printing its results; 3
			 * when it could not run, ssh 255, a shell 126/127.
			 * Without an exit code, the tool's word on the host
			 * (a timeout, a signal, a name not resolved) means it
			 * did not answer; text of its own means output that
			 * is not JSON.
			 */
			set_reason(h,
				   h->exit_code >= 3 ||
						   (h->exit_code < 0 && h->said)
					   ? RD_FLEET_NO_ANSWER
					   : RD_FLEET_MALFORMED,
				   msg);
			if (h->state == RD_FLEET_MALFORMED) {
				rd_snprintf_text(msg, sizeof(msg),
					 "no JSON in its output: %s",
					 h->noise ? h->noise : "");
				set_reason(h, RD_FLEET_MALFORMED, msg);
			}
		} else {
			set_reason(h, RD_FLEET_NO_ANSWER, "no output");
		}
	}
	for (size_t i = 0; i < f->n_hosts; i++)
		finish_conflict(&f->hosts[i]);
	for (size_t i = 0; i < f->n_findings; i++)
		qsort_r(f->findings[i].hosts, f->findings[i].n_hosts,
			sizeof(size_t), host_idx_cmp, f);
	if (f->n_findings > 1)
		qsort(f->findings, f->n_findings, sizeof(*f->findings),
		      finding_cmp);
}

int rd_fleet_worst(const struct rd_fleet *f)
{
	int w = -1;

	for (size_t i = 0; i < f->n_hosts; i++)
		if ((f->hosts[i].state == RD_FLEET_ANSWERED ||
		     f->hosts[i].state == RD_FLEET_CONFLICT) &&
		    f->hosts[i].worst > w)
			w = f->hosts[i].worst;
	return w;
}

char *rd_fleet_host_list(const struct rd_fleet *f, const size_t *idx, size_t n,
			 char *buf, size_t len)
{
	const char **names = calloc(n ? n : 1, sizeof(*names));

	if (!names) {
		snprintf(buf, len, "%zu hosts", n);
		return buf;
	}
	for (size_t i = 0; i < n; i++)
		names[i] = f->hosts[idx[i]].name;
	rd_fleet_fold(names, n, buf, len);
	free(names);
	return buf;
}
