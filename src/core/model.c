// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void *rd_array_push(void **items, size_t *n, size_t elem_size)
{
	size_t count = *n;
	char *base = *items;

	/* Capacity is the next power of two >= count; grow when full. */
	if (count == 0 || (count & (count - 1)) == 0) {
		size_t cap = count ? count * 2 : 4;
		void *p;

		if (cap > SIZE_MAX / elem_size)
			return NULL;
		if (count >= 4 || count == 0) {
			p = realloc(base, cap * elem_size);
			if (!p)
				return NULL;
			base = p;
			*items = p;
		}
	}
	memset(base + count * elem_size, 0, elem_size);
	*n = count + 1;
	return base + count * elem_size;
}

uint64_t rd_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

uint64_t rd_hash_str(uint64_t h, const char *s)
{
	static const unsigned char end = 0xff;

	if (s)
		h = rd_hash_bytes(h, s, strlen(s));
	return rd_hash_bytes(h, &end, 1);
}

void *rd_array_push_named(void **items, size_t *n, size_t elem_size,
			  size_t name_off, const char *name)
{
	char *e = rd_array_push(items, n, elem_size);
	char *copy;

	if (!e)
		return NULL;
	copy = strdup(name);
	if (!copy) {
		(*n)--;
		return NULL;
	}
	memcpy(e + name_off, &copy, sizeof(copy));
	return e;
}

int rd_buf_reserve(void **buf, size_t *cap, size_t need, size_t first)
{
	size_t c = *cap ? *cap : first;
	void *p;

	if (need <= *cap)
		return 0;
	if (need > SIZE_MAX / 2)
		return -ENOMEM;
	while (c < need)
		c *= 2;
	p = realloc(*buf, c);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = c;
	return 0;
}

static const char *const counter_groups[RD_CTR_GROUPS] = {
	[RD_CTR_PORT] = "counters",
	[RD_CTR_HW] = "hw_counters",
	[RD_CTR_ETHTOOL] = "ethtool",
	[RD_CTR_FEC] = "fec",
};

const char *rd_counter_group_name(enum rd_counter_group g)
{
	return (unsigned)g < RD_CTR_GROUPS ? counter_groups[g] : "?";
}

int rd_counter_group_find(const char *name)
{
	for (int g = 0; name && g < RD_CTR_GROUPS; g++)
		if (strcmp(counter_groups[g], name) == 0)
			return g;
	return -1;
}

void rd_model_free_array(const struct rd_field *fields, void **items,
			 size_t *n, size_t size)
{
	for (size_t i = 0; i < *n; i++)
		rd_model_free(fields, (char *)*items + i * size);
	free(*items);
	*items = NULL;
	*n = 0;
}

int rd_model_dup_array(const struct rd_field *fields, void **items,
		       size_t *n, const void *src, size_t count, size_t size)
{
	for (size_t i = 0; i < count; i++) {
		void *dst = rd_array_push(items, n, size);

		if (!dst)
			return -ENOMEM;
		if (rd_model_dup(fields, dst, (const char *)src + i * size,
				 size) < 0) {
			(*n)--;
			return -ENOMEM;
		}
	}
	return 0;
}

char *rd_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

int rd_str_set(char **dst, const char *s)
{
	char *c = NULL;

	if (s) {
		c = strdup(s);
		if (!c)
			return -ENOMEM;
	}
	free(*dst);
	*dst = c;
	return 0;
}

struct rd_counter *rd_counters_add(struct rd_counters *c, const char *name,
				   struct rd_ou64 value)
{
	struct rd_counter *e = RD_PUSH_NAMED(c->v, c->n, name, name);

	if (e)
		e->value = value;
	return e;
}

const struct rd_counter *rd_counters_find(const struct rd_counters *c,
					  const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0)
			return &c->v[i];
	return NULL;
}

void rd_model_free(const struct rd_field *fields, void *obj)
{
	char *base = obj;

	for (const struct rd_field *f = fields; f->kind != RD_F_END; f++) {
		void *p = base + f->off;

		switch (f->kind) {
		case RD_F_STR:
			free(*(char **)p);
			*(char **)p = NULL;
			break;
		case RD_F_COUNTERS: {
			struct rd_counters *c = p;

			for (size_t i = 0; i < c->n; i++)
				free(c->v[i].name);
			free(c->v);
			c->v = NULL;
			c->n = 0;
			break;
		}
		case RD_F_ARRAY: {
			char *items = *(char **)p;
			size_t *n = (size_t *)(base + f->aux);

			for (size_t i = 0; i < *n; i++)
				rd_model_free(f->sub, items + i * f->elem_size);
			free(items);
			*(char **)p = NULL;
			*n = 0;
			break;
		}
		case RD_F_STRUCT:
			rd_model_free(f->sub, p);
			break;
		default:
			break;
		}
	}
}

void rd_model_reset(const struct rd_field *fields, void *obj, size_t size)
{
	rd_model_free(fields, obj);
	memset(obj, 0, size);
}

/* Replace every pointer a shallow copy shares with its source by its own. */
static int dup_owned(const struct rd_field *fields, char *dst)
{
	for (const struct rd_field *f = fields; f->kind != RD_F_END; f++) {
		void *p = dst + f->off;

		switch (f->kind) {
		case RD_F_STR: {
			char **sp = p;

			if (*sp && !(*sp = strdup(*sp)))
				return -ENOMEM;
			break;
		}
		case RD_F_COUNTERS: {
			struct rd_counters *c = p, src = *c;

			c->v = NULL;
			c->n = 0;
			for (size_t i = 0; i < src.n; i++)
				if (!rd_counters_add(c, src.v[i].name,
						     src.v[i].value))
					return -ENOMEM;
			break;
		}
		case RD_F_ARRAY: {
			char **items = p, *src = *items;
			size_t *n = (size_t *)(dst + f->aux), count = *n;

			*items = NULL;
			*n = 0;
			for (size_t i = 0; i < count; i++) {
				char *e = rd_array_push((void **)items, n,
							f->elem_size);

				if (!e)
					return -ENOMEM;
				memcpy(e, src + i * f->elem_size, f->elem_size);
				/* Null the copy's pointers until they are its own. */
				int r = dup_owned(f->sub, e);

				if (r < 0)
					return r;
			}
			break;
		}
		case RD_F_STRUCT: {
			int r = dup_owned(f->sub, p);

			if (r < 0)
				return r;
			break;
		}
		default:
			break;
		}
	}
	return 0;
}

int rd_model_dup(const struct rd_field *fields, void *dst, const void *src,
		 size_t size)
{
	memcpy(dst, src, size);
	if (dup_owned(fields, dst) < 0) {
		/* A half copy shares pointers with src: clear, do not free. */
		memset(dst, 0, size);
		return -ENOMEM;
	}
	return 0;
}
