# SPDX-License-Identifier: GPL-2.0-or-later
src_librdmadiag_a_SOURCES += \
	src/core/attr.c src/core/attr.h \
	src/core/roots.c src/core/roots.h \
	src/core/model.c src/core/model.h \
	src/core/model_ib.c src/core/model_ib.h \
	src/core/model_net.c src/core/model_net.h \
	src/core/model_phy.c src/core/model_phy.h \
	src/core/model_log.c src/core/model_log.h \
	src/core/model_host.c src/core/model_host.h \
	src/core/snapshot.c src/core/snapshot.h \
	src/core/json.c src/core/json.h \
	src/core/json_check.c src/core/json_check.h \
	src/core/history.c src/core/history.h \
	src/core/recording.c src/core/recording.h \
	src/core/escape.c src/core/escape.h \
	src/core/print.c src/core/print.h \
	src/core/rate.c src/core/rate.h
