/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One way to print text that came from outside the program (sysfs,
 * netlink, a file, a journal, a peer): control bytes (C0, DEL, C1) and
 * invalid UTF-8 are written as visible escapes, never sent to a terminal.
 *
 *   rd_esc      "a\x1b[2Jb" -> a\x1b[2Jb
 *   rd_shquote  "e$(reboot)" -> 'e$(reboot)'  (a word a shell reads back
 *                                              as exactly the input)
 *
 * Every command printed for a person to copy builds its words with
 * rd_shquote; every other outside string goes through rd_esc.
 */
#ifndef RD_CORE_ESCAPE_H
#define RD_CORE_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Escape s into dst (always NUL-terminated when size > 0) and return the
 * length the whole escaped text needs, as snprintf does. NULL prints "".
 * Printable ASCII (backslash included) and valid UTF-8 other than C1
 * controls and the invisible format characters (bidirectional controls
 * such as U+202E, U+2028, U+2029, zero-width ones such as U+200B, U+FEFF),
 * which are escaped as C1 is, pass unchanged, so clean text - a shell-quoted command above
 * all - prints exactly as it is; '\n' becomes "\\n", '\t' "\\t", any other
 * control byte or byte of invalid UTF-8 "\\xNN". The result never holds a
 * control byte; a literal "\\x1b" in the input reads the same as an escaped
 * ESC, which is harmless: nothing invisible is ever sent.
 */
size_t rd_esc(char *dst, size_t size, const char *s);

/* The escaped text of s, malloc'd (NULL only when out of memory). */
char *rd_esc_dup(const char *s);
/*
 * As rd_esc_dup, with a backslash written "\\\\" too, so two different
 * inputs never give the same text (an ESC byte and the four characters
 * "\\x1b" differ): for keys such as a Prometheus label value.
 */
char *rd_esc_exact_dup(const char *s);

/*
 * The escaped text of s in one of a few rotating per-thread buffers, for
 * use as a printf argument: valid until RD_ESC_SLOTS more calls in the same
 * thread. Text longer than RD_ESC_MAX ends with "...".
 */
#define RD_ESC_SLOTS 8
#define RD_ESC_MAX 1024
const char *rd_esc_tmp(const char *s);

/* fputs of the escaped text; returns what fputs returns. */
int rd_fputs_esc(const char *s, FILE *f);

/*
 * True when s (len bytes) is valid UTF-8 with no control byte and no
 * invisible format character at all.
 */
bool rd_text_clean(const char *s, size_t len);

/*
 * Quote s as one POSIX shell word into dst and return the length needed
 * (as rd_esc). Safe words ([A-Za-z0-9_@%+=:,./-], not empty) are left
 * bare; others are put in single quotes with ' written '\''. A word with
 * control bytes or invalid UTF-8 is written in bash's $'...' form with
 * \xNN escapes, so nothing invisible reaches the terminal or the shell.
 */
size_t rd_shquote(char *dst, size_t size, const char *s);

/* rd_shquote into a rotating per-thread buffer, as rd_esc_tmp. */
const char *rd_shquote_tmp(const char *s);

/*
 * Length (2 to 4) of the valid UTF-8 sequence at p, of at most len bytes,
 * that encodes one code point from U+0080 up, stored in *cp; 0 when the
 * bytes there are not one (overlong, surrogate, past U+10FFFF, cut short).
 * C1 controls are valid sequences: callers decide about them.
 */
size_t rd_utf8_seq(const unsigned char *p, size_t len, uint32_t *cp);

/*
 * Drop the bytes of a UTF-8 sequence that snprintf or a fixed buffer cut
 * short at the end of s, so a truncated message stays valid text.
 */
void rd_utf8_trim_cut(char *s);

/*
 * snprintf for a message that quotes outside text into a fixed buffer:
 * when the buffer cuts it, rd_utf8_trim_cut drops the partial character.
 * Returns what snprintf returns.
 */
int rd_snprintf_text(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
