/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building blocks of the snapshot model: optional scalars (a value plus a
 * valid bit), growable arrays, counters, and field descriptors that let one
 * generic routine free, serialise and load every struct of the model.
 */
#ifndef RD_CORE_MODEL_H
#define RD_CORE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Optional scalars: ok == false means "absent" (shown as N/A, JSON null). */
struct rd_ou64 {
	uint64_t v;
	bool ok;
};
struct rd_os64 {
	int64_t v;
	bool ok;
};
struct rd_odbl {
	double v;
	bool ok;
};
struct rd_obool {
	bool v;
	bool ok;
};

static inline struct rd_ou64 rd_u64(uint64_t v)
{
	return (struct rd_ou64){ .v = v, .ok = true };
}
static inline struct rd_os64 rd_s64(int64_t v)
{
	return (struct rd_os64){ .v = v, .ok = true };
}
static inline struct rd_odbl rd_dbl(double v)
{
	return (struct rd_odbl){ .v = v, .ok = true };
}
static inline struct rd_obool rd_bool(bool v)
{
	return (struct rd_obool){ .v = v, .ok = true };
}

/* One named 64-bit counter; value.ok is false when it could not be read. */
struct rd_counter {
	char *name;
	struct rd_ou64 value;
};

struct rd_counters {
	struct rd_counter *v;
	size_t n;
};

/*
 * Where a counter comes from. The name is the one JSON, the history keys
 * and data/counters.tsv use.
 */
enum rd_counter_group {
	RD_CTR_PORT,		/* "counters": IB PMA, ports/N/counters */
	RD_CTR_HW,		/* "hw_counters": driver counters of a port */
	RD_CTR_ETHTOOL,		/* "ethtool": statistics of the port's netdev */
	RD_CTR_FEC,		/* "fec": FEC blocks and bits of the netdev */
	RD_CTR_GROUPS
};

const char *rd_counter_group_name(enum rd_counter_group g);
/* The group of that name; -1 when there is none. */
int rd_counter_group_find(const char *name);

enum rd_fkind {
	RD_F_END = 0,
	RD_F_STR,	/* char *, NULL = absent */
	RD_F_PU64,	/* plain uint64_t, always present (keys, indexes) */
	RD_F_U64,	/* struct rd_ou64 */
	RD_F_S64,	/* struct rd_os64 */
	RD_F_DBL,	/* struct rd_odbl */
	RD_F_BOOL,	/* struct rd_obool */
	RD_F_GUID,	/* struct rd_ou64 shown as "xxxx:xxxx:xxxx:xxxx" */
	RD_F_HEX,	/* struct rd_ou64 shown as "0x..." */
	RD_F_GID,	/* uint8_t[16] plus bool at aux offset */
	RD_F_COUNTERS,	/* struct rd_counters, JSON object name -> number */
	RD_F_ARRAY,	/* T *items at off, size_t count at aux */
	RD_F_STRUCT,	/* embedded struct at off */
};

struct rd_field {
	const char *key;
	enum rd_fkind kind;
	size_t off;
	size_t aux;		  /* array count / GID valid flag offset */
	size_t elem_size;	  /* arrays */
	const struct rd_field *sub; /* arrays and embedded structs */
};

#define RD_FLD(T, m, k, kind_) { (k), (kind_), offsetof(T, m), 0, 0, NULL }
#define RD_FLD_STR(T, m, k) RD_FLD(T, m, k, RD_F_STR)
#define RD_FLD_U64(T, m, k) RD_FLD(T, m, k, RD_F_U64)
#define RD_FLD_PU64(T, m, k) RD_FLD(T, m, k, RD_F_PU64)
#define RD_FLD_S64(T, m, k) RD_FLD(T, m, k, RD_F_S64)
#define RD_FLD_DBL(T, m, k) RD_FLD(T, m, k, RD_F_DBL)
#define RD_FLD_BOOL(T, m, k) RD_FLD(T, m, k, RD_F_BOOL)
#define RD_FLD_GUID(T, m, k) RD_FLD(T, m, k, RD_F_GUID)
#define RD_FLD_HEX(T, m, k) RD_FLD(T, m, k, RD_F_HEX)
#define RD_FLD_COUNTERS(T, m, k) RD_FLD(T, m, k, RD_F_COUNTERS)
#define RD_FLD_GID(T, m, okm, k) \
	{ (k), RD_F_GID, offsetof(T, m), offsetof(T, okm), 0, NULL }
#define RD_FLD_ARRAY(T, m, nm, ET, subf, k)                                \
	{ (k), RD_F_ARRAY, offsetof(T, m), offsetof(T, nm), sizeof(ET), \
	  (subf) }
#define RD_FLD_STRUCT(T, m, subf, k) \
	{ (k), RD_F_STRUCT, offsetof(T, m), 0, 0, (subf) }
#define RD_FLD_END { NULL, RD_F_END, 0, 0, 0, NULL }

/*
 * Append one zeroed element to an array of elem_size-byte items whose
 * capacity is implied by its count (grows at powers of two).
 * Returns the new element, or NULL when out of memory (array unchanged).
 */
void *rd_array_push(void **items, size_t *n, size_t elem_size);
#define RD_PUSH(arr, n) \
	((__typeof__(arr))rd_array_push((void **)&(arr), &(n), sizeof(*(arr))))

/*
 * The same, with the string member at name_off set to a copy of name.
 * NULL when out of memory (array unchanged).
 */
void *rd_array_push_named(void **items, size_t *n, size_t elem_size,
			  size_t name_off, const char *name);
#define RD_PUSH_NAMED(arr, n, member, name)                                  \
	((__typeof__(arr))rd_array_push_named(                               \
		(void **)&(arr), &(n), sizeof(*(arr)),                       \
		offsetof(__typeof__(*(arr)), member), (name)))

/*
 * FNV-1a over n bytes, going on from h (RD_HASH_INIT to start): for the
 * open-addressing indexes (history series, fleet hosts and findings,
 * exporter series, duplicate JSON keys).
 */
#define RD_HASH_INIT 14695981039346656037ull
uint64_t rd_hash_bytes(uint64_t h, const void *p, size_t n);
/* Over a string, then one 0xff byte: strings hashed in a row ("ab", "c")
 * and ("a", "bc") differ. */
uint64_t rd_hash_str(uint64_t h, const char *s);

/*
 * Room for need bytes in the buffer *buf of capacity *cap, which doubles
 * (from first when empty) until need fits. 0, or -ENOMEM with the buffer
 * unchanged.
 */
int rd_buf_reserve(void **buf, size_t *cap, size_t need, size_t first);

/* Append a counter (name copied); NULL when out of memory. */
struct rd_counter *rd_counters_add(struct rd_counters *c, const char *name,
				   struct rd_ou64 value);
const struct rd_counter *rd_counters_find(const struct rd_counters *c,
					  const char *name);

/*
 * Deep copy of a size-byte struct described by fields into dst (which owns
 * nothing yet). 0, or -ENOMEM with dst left empty (nothing to free).
 */
int rd_model_dup(const struct rd_field *fields, void *dst, const void *src,
		 size_t size);

/* Free everything a struct described by fields owns (not the struct itself). */
void rd_model_free(const struct rd_field *fields, void *obj);
/* The same, then every member of the size-byte struct absent or zero. */
void rd_model_reset(const struct rd_field *fields, void *obj, size_t size);

/* Free n size-byte structs at *items and the array; *items NULL, *n 0. */
void rd_model_free_array(const struct rd_field *fields, void **items,
			 size_t *n, size_t size);
/*
 * Append deep copies of n size-byte structs at src to the array *items of
 * *n. 0, or -ENOMEM with the copies made so far kept.
 */
int rd_model_dup_array(const struct rd_field *fields, void **items,
		       size_t *n, const void *src, size_t count, size_t size);

/* strdup that tolerates NULL. */
char *rd_strdup(const char *s);
/* Replace *dst with a copy of s (NULL clears). 0 or -ENOMEM. */
int rd_str_set(char **dst, const char *s);
/* The same where out of memory leaves the value not read (NULL). */
static inline void rd_str_put(char **dst, const char *s)
{
	(void)rd_str_set(dst, s);
}

#endif
