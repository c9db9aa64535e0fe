/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What devlink says of a NIC's PCI function: its driver, serial numbers,
 * firmware versions (fixed, running, stored: "fw.psid", "fw.version") and
 * its health reporters (fw, fw_fatal, tx, rx, ...).
 */
#ifndef RD_CORE_MODEL_DEVLINK_H
#define RD_CORE_MODEL_DEVLINK_H

#include "core/model.h"

/* One version line of `devlink dev info`. */
struct rd_devlink_version {
	char *kind;	/* "fixed", "running", "stored" */
	char *name;	/* "fw.psid", "fw.version", ... */
	char *value;
};

/* One health reporter of `devlink health show`. */
struct rd_devlink_reporter {
	char *name;			/* "fw_fatal", "tx", ... */
	char *state;			/* "healthy" / "error" */
	struct rd_ou64 error_count;	/* errors reported since load */
	struct rd_ou64 recover_count;	/* recoveries made since load */
	/* last dump, wall-clock ns since the epoch (DUMP_TS_NS: the
	 * kernel's ktime_get_real_ns()), when one was taken */
	struct rd_ou64 last_dump_ns;
	struct rd_obool auto_recover;
};

struct rd_devlink {
	char *bus;		/* "pci" */
	char *dev;		/* "0000:3b:00.0" */
	char *driver;
	char *serial;
	char *board_serial;
	struct rd_devlink_version *versions;
	size_t n_versions;
	/* absent: health reporters not read (the kernel lacks the call) */
	struct rd_obool reporters_read;
	struct rd_devlink_reporter *reporters;
	size_t n_reporters;
	/*
	 * `devlink dev eswitch show` of a PF with SR-IOV: "legacy" or
	 * "switchdev"; NULL when not read (eswitch_error says why).
	 */
	char *eswitch_mode;
	char *eswitch_error;
};

extern const struct rd_field rd_devlink_fields[];

/* The value of a version line of kind ("running") and name, or NULL. */
/* The reporter's state was read and is "error" (devlink health). */
bool rd_devlink_reporter_failed(const struct rd_devlink_reporter *r);
const char *rd_devlink_version(const struct rd_devlink *d, const char *kind,
			       const char *name);

#endif
