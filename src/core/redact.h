/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Identifiers taken out of text that leaves the host (rdmadiag bugreport
 * --redact): host names, serial numbers, MAC and hardware addresses,
 * GUIDs, GIDs, IPv4 and IPv6 addresses. Each distinct value gets one
 * stand-in of the same form, the same everywhere it appears, so that the
 * text still diagnoses: a port's GID still holds its netdev's (stand-in)
 * IPv4 address or MAC, two addresses of one /24 stay in one /24, a
 * link-local prefix stays link-local.
 *
 * Names and serial numbers are known values (rd_redact_word, taken from a
 * snapshot by rd_redact_snapshot); addresses are recognised by their
 * form wherever they stand in the text.
 */
#ifndef RD_CORE_REDACT_H
#define RD_CORE_REDACT_H

#include <stdbool.h>
#include <stddef.h>

struct rd_snapshot;
struct rd_redact;

struct rd_redact *rd_redact_new(void);
void rd_redact_free(struct rd_redact *r);

/*
 * The stand-in for value, a name or serial number to be replaced wherever
 * it stands as a whole word; kind names the stand-in ("host" -> "host-1").
 * Values shorter than 3 bytes are not identifiers: NULL then, and on
 * allocation failure.
 */
const char *rd_redact_word(struct rd_redact *r, const char *value,
			   const char *kind);

/*
 * Register the names and serial numbers of s (host name, its short form,
 * PCI VPD, devlink and transceiver serial numbers), and overwrite the
 * serial number in the transceivers' raw memory pages with its stand-in,
 * so a decoder reading the pages again finds the same stand-in.
 * 0, or -ENOMEM.
 */
int rd_redact_snapshot(struct rd_redact *r, struct rd_snapshot *s);

/*
 * Meet the addresses in text without replacing them: a stand-in is never
 * an address met, so no value in the result is an original one. Learn
 * every text first, then replace. 0, or -ENOMEM.
 */
int rd_redact_learn(struct rd_redact *r, const char *text, size_t len);

/*
 * text with every registered word and every address replaced, NUL
 * terminated, its length in *outlen; NULL on allocation failure.
 */
char *rd_redact_text(struct rd_redact *r, const char *text, size_t len,
		     size_t *outlen);

#endif
