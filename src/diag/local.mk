# SPDX-License-Identifier: GPL-2.0-or-later
src_librdmadiag_a_SOURCES += \
	src/diag/diag.h src/diag/diag_int.h src/diag/diag.c \
	src/diag/result.c src/diag/facts.c src/diag/checks.c \
	src/diag/check_port.c src/diag/check_qos.c src/diag/check_host.c \
	src/diag/check_driver.c src/diag/check_firmware.c \
	src/diag/check_counters.c src/diag/check_pcie.c src/diag/check_phy.c \
	src/diag/check_health.c src/diag/check_kernel.c \
	src/diag/check_flaps.c src/diag/check_gpu.c src/diag/check_virt.c \
	src/diag/data.c src/diag/data.h \
	src/diag/qos_model.c src/diag/qos_model.h \
	src/diag/explain.c src/diag/explain.h \
	src/diag/compare.c src/diag/compare.h
