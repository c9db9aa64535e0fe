/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pluggable-module memory (EEPROM) decoders: bytes in, struct rd_xcvr out,
 * no I/O. SFF-8472 (SFP: A0h at i2c 0x50, A2h at 0x51, internal and
 * external calibration), SFF-8636 (QSFP+/QSFP28, 4 lanes) and CMIS 4/5
 * (QSFP-DD, OSFP, QSFP112, QSFP+ and SFP+ with CMIS: banks, module state,
 * data path state, per-lane flags).
 *
 * Dump layouts read by rd_xcvr_mem_from_raw/_from_hex (what ethtool writes):
 *
 *  - `ethtool -m IF raw on` / `hex on` with no page, bank or i2c: ethtool
 *    falls back to the ioctl and writes the driver's linear blob of
 *    ETHTOOL_GMODULEINFO's eeprom_len bytes from offset 0.
 *      SFP (identifier 0x01-0x03): A0h bytes 0-255 at 0, A2h 0-255 at 256
 *        (SFF-8079: 256 bytes, A0h only; SFF-8472: 512).
 *      QSFP and CMIS: the lower half at 0, page 00h upper at 128, then
 *        upper page N at 128 * (N + 1) (SFF-8636: 256 or 640 bytes, with
 *        pages 01h-03h).
 *    Any complete 128-byte half is kept; a trailing partial one is dropped.
 *  - `ethtool -m IF raw on page N [bank B] [i2c A]`: netlink, 128 bytes of
 *    one half. Nothing in the bytes says where they came from: a 128-byte
 *    binary dump is taken as the lower half at 0x50.
 *  - hex text: ethtool prints "Offset\t\tValues", "------\t\t------", then
 *    lines "0x%04x:\t\t" of up to 16 "%02x " bytes, offsets counted from
 *    the dump's offset. Several dumps may follow one another in one text.
 *    The netlink form prints the half's own offset (0x0000 or 0x0080) and
 *    no page: a line before the dump that names "page N" (and "bank B",
 *    "i2c 0xAA"), such as the ethtool command echoed into the file,
 *    places it; without one the offsets are the linear layout above.
 */
#ifndef RD_PROBES_XCVR_DECODE_H
#define RD_PROBES_XCVR_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "core/model_phy.h"

/* Module memory as read: 128-byte halves keyed by i2c address, bank, page and offset (0 = lower half, 128 = upper). */
#define RD_XCVR_MAX_HALVES 40
struct rd_xcvr_half {
	uint8_t i2c, bank, page, offset;
	uint8_t data[128];
};
struct rd_xcvr_mem {
	struct rd_xcvr_half half[RD_XCVR_MAX_HALVES];
	size_t n;
};
/* The half at that place, NULL when not read. A lower half (offset 0) is
 * always page 0 bank 0, whatever page and bank are asked. */
const uint8_t *rd_xcvr_mem_get(const struct rd_xcvr_mem *m, unsigned i2c,
			       unsigned bank, unsigned page, unsigned offset);
/* replaces an existing half; -ENOSPC when full, -EINVAL for a place that
 * cannot be (offset not 0 or 128, i2c > 0x7f, bank or page > 255) */
int rd_xcvr_mem_put(struct rd_xcvr_mem *m, unsigned i2c, unsigned bank,
		    unsigned page, unsigned offset, const uint8_t *data128);

/* What to read. A read request as MODULE_EEPROM_GET takes it (length 128). */
struct rd_xcvr_req {
	uint8_t i2c, bank, page, offset;
};
enum { RD_XCVR_IDENT = 1, RD_XCVR_DIAG = 2 };
/*
 * The halves still missing from m for a full decode, among those of the kinds asked (IDENT: pages that do not change
 * while the module stays plugged — identity, advertising, thresholds; DIAG: live monitors and flags). Needs the lower
 * half of page 0 at 0x50 first (returns exactly that request when it is missing); honours flat memory, the banks the
 * module advertises (CMIS page 01h 0x8E), SFF-8472's "DDM implemented" bit before asking for A2h, SFF-8636 page 03h
 * only when not flat. Returns the number written to out (at most max).
 *
 * Per spec, in this order:
 *   SFF-8472: A2h lower half (thresholds: IDENT; monitors: DIAG) when
 *     A0h byte 92 bit 6 says DDM is implemented. A0h's upper half is
 *     vendor space and not asked for.
 *   SFF-8636: page 00h upper (IDENT; DIAG too, its options say which
 *     signals exist), page 03h upper (IDENT) when not flat.
 *   CMIS: page 00h upper (IDENT); when not flat page 01h (IDENT; DIAG too,
 *     for the banks and the bias multiplier), page 02h (IDENT), then page
 *     11h of each advertised bank (DIAG; bank 0 only until page 01h is in).
 * A caller refreshing diagnostics drops the halves rd_xcvr_live() names
 * (the lower half among them, but for SFF-8472) and asks again.
 */
size_t rd_xcvr_plan(const struct rd_xcvr_mem *m, unsigned kinds,
		    struct rd_xcvr_req *out, size_t max);

/*
 * The halves of this module (as far as m tells) that hold live values:
 * monitors, flags and state, which a diagnostics read takes again while
 * the rest stays as read with the identification. SFF-8472: A2h's lower
 * half when DDM is implemented (A0h is identification only); SFF-8636: the
 * lower half; CMIS: the lower half and, unless flat, page 11h of each
 * bank page 01h advertises (bank 0 only until page 01h is in). Needs the
 * lower half of page 0 at 0x50 (none without it). Returns the number
 * written to out (at most max), whether or not m holds them.
 */
size_t rd_xcvr_live(const struct rd_xcvr_mem *m, struct rd_xcvr_req *out,
		    size_t max);

/* Decode everything m holds into x (which owns nothing yet, or is reset first). 0, or -EINVAL when even the identifier
 * is missing, -ENOMEM. Never fails for a partial memory: what was not read stays absent. Sets x->spec, type, media ... and
 * per-lane values; a passive DAC or a module without diagnostics gets dom=false and no_dom with the reason, and NO
 * temperature/power values (never 0 °C or -inf dBm); SFF-8636 DOM is absent when temperature is 0 or 0xFFFF with the
 * reason. Does not touch x->pages, present, error, source, read_at. */
int rd_xcvr_decode(const struct rd_xcvr_mem *m, struct rd_xcvr *x);

/* The raw pages into x->pages (hex) and back (a loaded snapshot decoded again). -EINVAL for bad hex. */
int rd_xcvr_pages_save(const struct rd_xcvr_mem *m, struct rd_xcvr *x);
int rd_xcvr_pages_load(const struct rd_xcvr *x, struct rd_xcvr_mem *m);

/*
 * A dump as `ethtool -m IF raw on` writes it (binary), or as `ethtool -m IF hex on` prints it (text), into m
 * (layouts above; m is emptied first). 0, or -EINVAL with nothing usable (not even one whole half).
 */
int rd_xcvr_mem_from_raw(const uint8_t *buf, size_t len,
			 struct rd_xcvr_mem *m);
int rd_xcvr_mem_from_hex(const char *text, size_t len, struct rd_xcvr_mem *m);
/* Either: binary if it does not look like ethtool's hex text. */
int rd_xcvr_mem_from_dump(const uint8_t *buf, size_t len,
			  struct rd_xcvr_mem *m);

/* Where a value comes from, for evidence: e.g. "A2h bytes 104-105", "page 00h bytes 22-23", "bank 0 page 11h bytes 186-187".
 * field is the JSON key of struct rd_xcvr / rd_xcvr_lane ("temperature_c", "vcc_v", "tx_bias_ma", "tx_power_mw",
 * "rx_power_mw", "rx_los", "tx_los", "rx_lol", "tx_lol", "tx_fault", "module_state", "fault_cause", "identifier",
 * "vendor", "part_number", "serial", "media", "length_m", "rx_power_limits_mw", ...); lane from 1. NULL when unknown. */
const char *rd_xcvr_where(const struct rd_xcvr *x, const char *field,
			  unsigned lane, char *buf, size_t size);

#endif
