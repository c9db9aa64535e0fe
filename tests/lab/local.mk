# SPDX-License-Identifier: GPL-2.0-or-later
#
# Soft-RoCE lab: a Debian kernel under QEMU (TCG), real rdma_rxe, scenarios
# asserting on `rdmadiag snapshot --json`.  Not part of `make check`:
#   make check-lab                         every scenario
#   make check-lab LAB_SCENARIOS="healthy mtu"
#   make lab-prepare                       fetch the kernel, build the initramfs
# Kernel, initramfs and per-run output live under tests/lab/ in the build
# tree (.cache/ and out/).

LAB_SCENARIOS =
# Guests booted at once; each is a 2-vCPU TCG machine (a two-host scenario
# boots two and counts for two).
LAB_JOBS = 2
# Seconds one guest may run: the perftest interop scenario needs about
# 100 s on an idle 2-core machine under TCG; leave room for a loaded one.
LAB_TIMEOUT = 300
LAB_ENV = LAB_TIMEOUT='$(LAB_TIMEOUT)' LAB_TOP_BUILDDIR='$(abs_top_builddir)' \
	RDMADIAG='$(abs_top_builddir)/src/rdmadiag$(EXEEXT)'

check-lab: src/rdmadiag$(EXEEXT)
	$(LAB_ENV) bash '$(top_srcdir)/tests/lab/run' -j '$(LAB_JOBS)' $(LAB_SCENARIOS)

lab-prepare:
	$(LAB_ENV) bash '$(top_srcdir)/tests/lab/prepare' > /dev/null

lab-clean:
	rm -rf '$(top_builddir)/tests/lab/.cache' '$(top_builddir)/tests/lab/out'

.PHONY: check-lab lab-prepare lab-clean

EXTRA_DIST += \
	tests/lab/README.md \
	tests/lab/flatten.jq \
	tests/lab/guest.sh \
	tests/lab/initramfs-init \
	tests/lab/lib.sh \
	tests/lab/prepare \
	tests/lab/record-fixture \
	tests/lab/record.sh \
	tests/lab/run \
	tests/lab/vm.sh \
	tests/lab/scenarios \
	tests/lab/bench tests/lab/bench-perf.sh tests/lab/bench-pair.sh
