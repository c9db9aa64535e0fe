/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Prometheus text exposition format (version 0.0.4): samples are added
 * in any order and come out grouped by family, each family headed by its
 * HELP and TYPE lines, in the order families were first used.
 */
#ifndef RD_EXPORT_PROM_H
#define RD_EXPORT_PROM_H

#include <stddef.h>
#include <stdint.h>

enum rd_prom_type { RD_PROM_GAUGE, RD_PROM_COUNTER };

struct rd_prom_family;

struct rd_prom {
	struct rd_prom_family *fam;
	size_t n_fam;
	int err;	/* first error (-ENOMEM, -EINVAL), sticky */
	/* Series written so far (hashes of name and labels), to drop repeats. */
	uint64_t *seen;
	size_t seen_size, n_seen;
	size_t dropped;	/* samples of a series already written */
};

void rd_prom_init(struct rd_prom *w);
void rd_prom_free(struct rd_prom *w);

/*
 * One sample. name must be a valid metric name; labels is a NULL-terminated
 * list of name, value pairs (values are any text and are escaped here).
 * The first sample of a family fixes its type and help text. A series
 * already written (a driver listing one statistic twice) is dropped: the
 * first value stands and dropped counts it.
 */
void rd_prom_u64(struct rd_prom *w, const char *name, enum rd_prom_type type,
		 const char *help, const char *const *labels, uint64_t v);
void rd_prom_dbl(struct rd_prom *w, const char *name, enum rd_prom_type type,
		 const char *help, const char *const *labels, double v);
/* A value already formatted as a Prometheus number ("0.000125"). */
void rd_prom_num(struct rd_prom *w, const char *name, enum rd_prom_type type,
		 const char *help, const char *const *labels, const char *v);

/* The whole text, malloc'd, in *out (length *len). 0 or the sticky error. */
int rd_prom_render(const struct rd_prom *w, char **out, size_t *len);

/* A metric or label name: [a-zA-Z_:][a-zA-Z0-9_:]* (no ':' in labels). */
int rd_prom_valid_name(const char *s, int label);

/* Label value escaping: backslash, double quote and newline. */
size_t rd_prom_escape_value(char *dst, size_t size, const char *s);

#endif
