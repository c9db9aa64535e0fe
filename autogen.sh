#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Generate the configure script from a git checkout.
set -e
cd "$(dirname "$0")"
mkdir -p m4
autoreconf -fi
