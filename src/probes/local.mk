# SPDX-License-Identifier: GPL-2.0-or-later
src_librdmadiag_a_SOURCES += \
	src/probes/probe.h src/probes/probes.c \
	src/probes/read.c src/probes/read.h \
	src/probes/ib_sysfs.c src/probes/ib_sysfs.h
src_librdmadiag_a_SOURCES += \
	src/probes/nl_util.c src/probes/nl_util.h \
	src/probes/rdma_nl.c src/probes/rdma_nl.h \
	src/probes/netdev.c src/probes/netdev.h \
	src/probes/ethtool.c src/probes/ethtool.h \
	src/probes/dcb.c src/probes/dcb.h
# Files and libraries: PCI, kernel modules, host limits, ECN, verbs.
src_librdmadiag_a_SOURCES += \
	src/probes/pci.c src/probes/pci.h \
	src/probes/kmod.c src/probes/kmod.h \
	src/probes/host.c src/probes/host.h \
	src/probes/ecn.c src/probes/ecn.h \
	src/probes/verbs.c src/probes/verbs.h
if HAVE_CMOCKA
PROBE_FILE_TESTS = tests/unit/test_pci tests/unit/test_kmod \
	tests/unit/test_host tests/unit/test_ecn tests/unit/test_verbs \
	tests/unit/test_probe_read
check_PROGRAMS += $(PROBE_FILE_TESTS)
TESTS += $(PROBE_FILE_TESTS)
tests_unit_test_pci_SOURCES = tests/unit/test_pci.c tests/unit/unit.h
tests_unit_test_pci_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_pci_LDADD = $(UNIT_LDADD)
tests_unit_test_kmod_SOURCES = tests/unit/test_kmod.c tests/unit/unit.h
tests_unit_test_kmod_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_kmod_LDADD = $(UNIT_LDADD)
tests_unit_test_host_SOURCES = tests/unit/test_host.c tests/unit/unit.h
tests_unit_test_host_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_host_LDADD = $(UNIT_LDADD)
tests_unit_test_ecn_SOURCES = tests/unit/test_ecn.c tests/unit/unit.h
tests_unit_test_ecn_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ecn_LDADD = $(UNIT_LDADD)
tests_unit_test_verbs_SOURCES = tests/unit/test_verbs.c tests/unit/unit.h
tests_unit_test_verbs_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_verbs_LDADD = $(UNIT_LDADD)
tests_unit_test_probe_read_SOURCES = tests/unit/test_probe_read.c tests/unit/unit.h
tests_unit_test_probe_read_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_probe_read_LDADD = $(UNIT_LDADD)
endif
if HAVE_CMOCKA
NL_UNIT_TESTS = tests/unit/test_rdma_nl tests/unit/test_netdev \
	tests/unit/test_ethtool tests/unit/test_dcb
check_PROGRAMS += $(NL_UNIT_TESTS)
TESTS += $(NL_UNIT_TESTS)
tests_unit_test_rdma_nl_SOURCES = tests/unit/test_rdma_nl.c \
	tests/unit/nl_build.h tests/unit/unit.h
tests_unit_test_rdma_nl_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_rdma_nl_LDADD = $(UNIT_LDADD)
tests_unit_test_netdev_SOURCES = tests/unit/test_netdev.c \
	tests/unit/nl_build.h tests/unit/unit.h
tests_unit_test_netdev_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_netdev_LDADD = $(UNIT_LDADD)
tests_unit_test_ethtool_SOURCES = tests/unit/test_ethtool.c \
	tests/unit/nl_build.h tests/unit/unit.h
tests_unit_test_ethtool_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ethtool_LDADD = $(UNIT_LDADD)
tests_unit_test_dcb_SOURCES = tests/unit/test_dcb.c \
	tests/unit/nl_build.h tests/unit/unit.h
tests_unit_test_dcb_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_dcb_LDADD = $(UNIT_LDADD)
endif
