# SPDX-License-Identifier: GPL-2.0-or-later
# The probe table and its helpers; netlink sources; then files and
# libraries (PCI, kernel modules, host limits, ECN, verbs).
src_librdmadiag_a_SOURCES += \
	src/probes/probe.h src/probes/probes.c src/probes/read.c \
	src/probes/read.h src/probes/nl_util.c src/probes/nl_util.h \
	src/probes/ib_sysfs.c src/probes/ib_sysfs.h src/probes/rdma_nl.c \
	src/probes/rdma_nl.h src/probes/netdev.c src/probes/netdev.h \
	src/probes/ethtool.c src/probes/ethtool.h src/probes/dcb.c \
	src/probes/dcb.h src/probes/pci.c src/probes/pci.h src/probes/kmod.c \
	src/probes/kmod.h src/probes/host.c src/probes/host.h \
	src/probes/ecn.c src/probes/ecn.h src/probes/verbs.c \
	src/probes/verbs.h \
	src/probes/xcvr.c src/probes/xcvr.h \
	src/probes/devlink.c src/probes/devlink.h \
	src/probes/kmsg.c src/probes/kmsg.h \
	src/probes/topo.c src/probes/topo.h \
	src/probes/virt.c src/probes/virt.h src/probes/netns.c src/probes/netns.h
