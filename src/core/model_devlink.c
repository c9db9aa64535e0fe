// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "core/model_devlink.h"

#include <string.h>

static const struct rd_field version_fields[] = {
	RD_FLD_STR(struct rd_devlink_version, kind, "kind"),
	RD_FLD_STR(struct rd_devlink_version, name, "name"),
	RD_FLD_STR(struct rd_devlink_version, value, "value"),
	RD_FLD_END
};

static const struct rd_field reporter_fields[] = {
	RD_FLD_STR(struct rd_devlink_reporter, name, "name"),
	RD_FLD_STR(struct rd_devlink_reporter, state, "state"),
	RD_FLD_U64(struct rd_devlink_reporter, error_count, "error_count"),
	RD_FLD_U64(struct rd_devlink_reporter, recover_count, "recover_count"),
	RD_FLD_U64(struct rd_devlink_reporter, last_dump_ns, "last_dump_ns"),
	RD_FLD_BOOL(struct rd_devlink_reporter, auto_recover, "auto_recover"),
	RD_FLD_END
};

const struct rd_field rd_devlink_fields[] = {
	RD_FLD_STR(struct rd_devlink, bus, "bus"),
	RD_FLD_STR(struct rd_devlink, dev, "dev"),
	RD_FLD_STR(struct rd_devlink, driver, "driver"),
	RD_FLD_STR(struct rd_devlink, serial, "serial"),
	RD_FLD_STR(struct rd_devlink, board_serial, "board_serial"),
	RD_FLD_ARRAY(struct rd_devlink, versions, n_versions,
		     struct rd_devlink_version, version_fields, "versions"),
	RD_FLD_BOOL(struct rd_devlink, reporters_read, "reporters_read"),
	RD_FLD_ARRAY(struct rd_devlink, reporters, n_reporters,
		     struct rd_devlink_reporter, reporter_fields,
		     "health_reporters"),
	RD_FLD_STR(struct rd_devlink, eswitch_mode, "eswitch_mode"),
	RD_FLD_STR(struct rd_devlink, eswitch_error, "eswitch_error"),
	RD_FLD_END
};

const char *rd_devlink_version(const struct rd_devlink *d, const char *kind,
			       const char *name)
{
	for (size_t i = 0; d && i < d->n_versions; i++) {
		const struct rd_devlink_version *v = &d->versions[i];

		if (v->kind && v->name && !strcmp(v->kind, kind) &&
		    !strcmp(v->name, name))
			return v->value;
	}
	return NULL;
}

bool rd_devlink_reporter_failed(const struct rd_devlink_reporter *r)
{
	return r->state && strcmp(r->state, "error") == 0;
}
