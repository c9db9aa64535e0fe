# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Sourced by the test libraries (tests/cli, tests/tui, tests/lab): jq 1.6
# ends -e with status 0 when its input is empty, so a check of a command
# that printed nothing, or of an empty file, passed. Here jq -e runs its
# filter on each input and fails (status 5) when there is none; every
# other use of jq is left as it is.
jq() {
	case " $* " in
	*" -e "*) ;;
	*)
		command jq "$@"
		return
		;;
	esac
	_jqs_left=$#
	_jqs_filter=
	while [ "$_jqs_left" -gt 0 ]; do
		_jqs_a=$1
		shift
		_jqs_left=$((_jqs_left - 1))
		if [ -n "$_jqs_filter" ]; then
			set -- "$@" "$_jqs_a"
			continue
		fi
		case $_jqs_a in
		--arg | --argjson)
			set -- "$@" "$_jqs_a" "$1" "$2"
			shift 2
			_jqs_left=$((_jqs_left - 2))
			;;
		-*) set -- "$@" "$_jqs_a" ;;
		*)
			_jqs_filter=1
			set -- "$@" -n "[inputs] | if length == 0 then error(\"no input\") else .[] | ($_jqs_a) end"
			;;
		esac
	done
	command jq "$@"
}
