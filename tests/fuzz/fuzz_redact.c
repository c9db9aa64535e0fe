// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Redaction (rdmadiag bugreport --redact) on arbitrary text: learn, then
 * replace. The result is the same for the same text from a fresh state,
 * holds no NUL, and no MAC address of the input (six pairs of hex digits
 * standing alone, neither all 0 nor all f) is left in it.
 */
#include "config.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/redact.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *run(const char *text, size_t len, size_t *n)
{
	struct rd_redact *r = rd_redact_new();
	char *out;

	if (!r)
		abort();
	if (rd_redact_learn(r, text, len) < 0)
		abort();
	out = rd_redact_text(r, text, len, n);
	rd_redact_free(r);
	if (!out)
		abort();
	return out;
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':';
}

/* A MAC standing alone at text[i], 17 characters. */
static bool mac_at(const char *t, size_t len, size_t i)
{
	bool zero = true, ones = true;

	if (i + 17 > len || (i > 0 && word_char(t[i - 1])) ||
	    (i + 17 < len && word_char(t[i + 17])))
		return false;
	for (size_t k = 0; k < 17; k++) {
		char c = t[i + k];

		if (k % 3 == 2) {
			if (c != ':')
				return false;
			continue;
		}
		if (!isxdigit((unsigned char)c))
			return false;
		zero &= c == '0';
		ones &= c == 'f' || c == 'F';
	}
	return !zero && !ones;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t n1, n2;
	char *a, *b;

	if (size > 4096)
		return 0;
	a = run(text, size, &n1);
	b = run(text, size, &n2);
	if (n1 != n2 || memcmp(a, b, n1) != 0)
		abort();
	/* a NUL of the input is copied as it is; there is no other */
	if (!memchr(text, '\0', size) && strlen(a) != n1)
		abort();
	for (size_t i = 0; i + 17 <= size; i++) {
		if (!mac_at(text, size, i))
			continue;
		for (size_t j = 0; j + 17 <= n1; j++)
			if (mac_at(a, n1, j) &&
			    strncasecmp(a + j, text + i, 17) == 0)
				abort();
	}
	free(a);
	free(b);
	return 0;
}
