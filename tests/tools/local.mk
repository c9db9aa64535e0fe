# SPDX-License-Identifier: GPL-2.0-or-later
# Tools for the tests, and checks over the source tree itself.
# Records the kernel's raw netlink answers for tests/fixtures/netlink.
check_PROGRAMS += tests/tools/nl_capture
tests_tools_nl_capture_SOURCES = tests/tools/nl_capture.c
tests_tools_nl_capture_LDADD = src/librdmadiag.a $(RD_LIBS)
TESTS += tests/tools/include_cycles.sh tests/tools/include_cycles_catches.sh
EXTRA_DIST += tests/tools/include_cycles.sh \
	tests/tools/include_cycles_catches.sh
