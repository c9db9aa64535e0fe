# SPDX-License-Identifier: GPL-2.0-or-later
# Command-line tests: the built binary against the fixture hosts.
CLI_TESTS = tests/cli/test_snapshot_cli.sh tests/cli/test_commands_documented.sh tests/cli/test_check_load_cli.sh \
	tests/cli/test_real_hosts.sh tests/cli/test_hostile_text_cli.sh \
	tests/cli/test_explain_cli.sh tests/cli/test_env_cli.sh \
	tests/cli/test_diff_cli.sh tests/cli/test_peer_cli.sh \
	tests/cli/test_peer_listen_cli.sh tests/cli/test_locale_cli.sh \
	tests/cli/test_outfile_cli.sh tests/cli/test_text_bounds_cli.sh \
	tests/cli/test_sudo_env_cli.sh \
	tests/cli/test_perf_opts_cli.sh tests/cli/test_oncall_text_cli.sh \
	tests/cli/test_check_filters_cli.sh \
	tests/cli/test_container_cli.sh tests/cli/test_record_cli.sh \
	tests/cli/test_completion_cli.sh tests/cli/test_bugreport_cli.sh \
	tests/cli/test_past_cli.sh
TESTS += $(CLI_TESTS)
EXTRA_DIST += $(CLI_TESTS) tests/cli/lib.sh
