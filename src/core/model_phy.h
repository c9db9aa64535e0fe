/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The physical layer behind a netdev: the pluggable module (its EEPROM as
 * read, and what SFF-8472, SFF-8636 or CMIS says it means). Decoded by
 * src/core/xcvr_decode.c from the raw pages, which are kept too, so a
 * loaded snapshot can be decoded again and evidence can cite page and byte.
 *
 * Units are in the field names. Optical power is mW (dBm is derived, and
 * 0 mW is "no light", never -inf); a value the module does not implement
 * is absent, never 0.
 */
#ifndef RD_CORE_MODEL_PHY_H
#define RD_CORE_MODEL_PHY_H

#include "core/model.h"

/* The module's own alarm and warning limits for one quantity. */
struct rd_xcvr_limits {
	struct rd_odbl high_alarm;
	struct rd_odbl low_alarm;
	struct rd_odbl high_warn;
	struct rd_odbl low_warn;
};

/* Alarm/warning flag bits as the module latched them (RD_XCVR_F_*). */
enum {
	RD_XCVR_F_HIGH_ALARM = 1,
	RD_XCVR_F_LOW_ALARM = 2,
	RD_XCVR_F_HIGH_WARN = 4,
	RD_XCVR_F_LOW_WARN = 8,
};

/* One lane (channel) of the module, numbered from 1 as ethtool does. */
struct rd_xcvr_lane {
	uint64_t lane;
	struct rd_odbl tx_bias_ma;
	struct rd_odbl tx_power_mw;
	struct rd_odbl rx_power_mw;
	struct rd_obool rx_los;
	struct rd_obool tx_los;
	struct rd_obool rx_lol;
	struct rd_obool tx_lol;
	struct rd_obool tx_fault;
	struct rd_ou64 tx_bias_flags; /* RD_XCVR_F_* */
	struct rd_ou64 tx_power_flags;
	struct rd_ou64 rx_power_flags;
	/* CMIS: data path state of this host lane ("DPActivated", ...) */
	char *datapath_state;
};

/*
 * 128 bytes of module memory as read: the lower half (offset 0) of an
 * address, or one upper page (offset 128) at a bank. hex is 256 lowercase
 * hex digits.
 */
struct rd_xcvr_page {
	uint64_t i2c; /* 0x50 (A0h) or 0x51 (A2h, SFF-8472 only) */
	uint64_t bank;
	uint64_t page;
	uint64_t offset; /* 0 or 128 */
	char *hex;
};

struct rd_xcvr {
	/*
	 * present: a module sits in the cage (false: the cage is empty, said
	 * by the driver's link-down reason or an EEPROM read that found
	 * nothing); absent when not known.
	 */
	struct rd_obool present;
	/* why the memory was not read or not decoded, e.g. "needs
	 * CAP_NET_ADMIN" */
	char *error;
	struct rd_ou64 error_errno; /* the kernel's errno, positive */
	char *source; /* "ethtool netlink", "ethtool ioctl", "dump" */
	char *spec;   /* "SFF-8472", "SFF-8636", "CMIS 5.0" */
	struct rd_ou64 identifier; /* SFF-8024 identifier byte */
	char *type;		   /* "SFP", "QSFP28", "QSFP-DD", "OSFP", ... */
	struct rd_ou64 connector;  /* SFF-8024 connector code */
	char *connector_name; /* "LC", "MPO 1x12", "No separable connector" */
	/*
	 * media: "passive copper", "active copper", "active optical",
	 * "optical", "BASE-T"; media_detail: the compliance or media
	 * interface ("100GBASE-SR4", "850 nm VCSEL").
	 */
	char *media;
	char *media_detail;
	char *vendor;
	char *vendor_oui; /* "00:02:c9" */
	char *part_number;
	char *revision;
	char *serial;
	char *date_code; /* "YYYY-MM-DD" (lot code, when any, dropped) */
	struct rd_odbl length_m;
	struct rd_odbl wavelength_nm;
	struct rd_ou64 nominal_mbps; /* nominal signalling rate per lane */
	struct rd_ou64 media_lanes;  /* lanes the module has */
	struct rd_ou64 power_class;
	struct rd_odbl max_power_w;
	char *firmware; /* CMIS active firmware "M.m" */
	struct rd_obool flat_memory;
	/* CMIS module state and, in ModuleFault, its cause */
	char *module_state; /* "ModuleReady", "ModuleLowPwr", ... */
	struct rd_ou64 module_state_num;
	char *fault_cause;
	/*
	 * dom: the module reports diagnostics. false with no_dom saying why
	 * ("passive copper has no diagnostics"); the values below are absent
	 * then, never 0.
	 */
	struct rd_obool dom;
	char *no_dom;
	struct rd_obool rx_power_is_oma; /* else average power */
	struct rd_obool ext_calibrated;	 /* SFF-8472 external calibration */
	struct rd_odbl temperature_c;
	struct rd_odbl vcc_v;
	struct rd_ou64 temperature_flags; /* RD_XCVR_F_* */
	struct rd_ou64 vcc_flags;
	struct rd_xcvr_limits temperature_limits; /* C */
	struct rd_xcvr_limits vcc_limits;	  /* V */
	struct rd_xcvr_limits tx_bias_limits;	  /* mA */
	struct rd_xcvr_limits tx_power_limits;	  /* mW */
	struct rd_xcvr_limits rx_power_limits;	  /* mW */
	struct rd_xcvr_lane *lanes;
	size_t n_lanes;
	struct rd_xcvr_page *pages;
	size_t n_pages;
	/* when the identification was read (seconds, CLOCK_MONOTONIC) */
	struct rd_odbl read_at;
};

extern const struct rd_field rd_xcvr_fields[];

/*
 * A cable's or a fibre's length as people write it, after lead: "1.5 m",
 * "300 m", "10 km" (never "1e+04 m"). buf gets "" (no lead either) for a
 * length not known.
 */
void rd_xcvr_length_text(const struct rd_xcvr *m, const char *lead, char *buf,
			 size_t size);

/* 10*log10(mW); false for 0 mW or less (no light: say so, never -inf). */
bool rd_mw_to_dbm(double mw, double *dbm);

/*
 * An optional power as dBm with two decimals: "-" when absent, dark
 * ("no light") for 0 mW.
 */
void rd_xcvr_fmt_dbm(char *buf, size_t size, struct rd_odbl mw,
		     const char *dark);

/*
 * The module's lanes at once: how many report receive diagnostics (a
 * power or a LOS flag), how many of those have LOS set, whether any
 * reports a transmitter fault, and the weakest received power with its
 * lane's index in m->lanes (-1 when no lane reports a power).
 */
struct rd_xcvr_rx {
	unsigned lanes;
	unsigned los;
	bool tx_fault;
	int weakest;
	double weakest_mw;
};
void rd_xcvr_rx_scan(const struct rd_xcvr *m, struct rd_xcvr_rx *rx);

/*
 * One lane's received light by the module's own judgement: dark (LOS, or
 * below its low alarm by value or flag), low (below its low warning),
 * ok, or unread when the lane reports neither power, LOS nor flags.
 */
enum rd_xcvr_rx_class {
	RD_XCVR_RX_UNREAD,
	RD_XCVR_RX_OK,
	RD_XCVR_RX_LOW,
	RD_XCVR_RX_DARK,
};
enum rd_xcvr_rx_class rd_xcvr_lane_rx(const struct rd_xcvr *m,
				      const struct rd_xcvr_lane *l);
/* "dark", "low", "ok", "unread" */
const char *rd_xcvr_rx_class_name(enum rd_xcvr_rx_class c);

/*
 * False for diagnostics no powered module reports: a supply of 0 V (the
 * module answered, so it has power), or temperature and supply limits
 * without a range. A driver that hides a failed read of the diagnostics
 * page hands back such zeros (mlx4 on ConnectX-2 does): no value of them
 * is a reading.
 */
bool rd_xcvr_dom_real(const struct rd_xcvr *m);

/* What the module says at a glance, in at most 9 characters. */
enum rd_xcvr_glance {
	RD_XCVR_G_UNKNOWN, /* "?": not read */
	RD_XCVR_G_NONE,	   /* "none": the cage is empty */
	RD_XCVR_G_NA,	   /* "-": the driver has no module memory */
	RD_XCVR_G_OK,	   /* a cable, or the weakest Rx power */
	RD_XCVR_G_BAD,	   /* "no light", "TX FAULT", "FAULT", "LOWPWR" */
};
/*
 * "DAC 3m", "AEC 2m", "AOC 3m", "-3.1dBm" (the weakest lane's Rx power),
 * "no light", "TX FAULT", "none", "?", "-".
 */
enum rd_xcvr_glance rd_xcvr_brief(const struct rd_xcvr *m, char *buf,
				  size_t size);

#endif
