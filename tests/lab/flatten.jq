# SPDX-License-Identifier: GPL-2.0-or-later
#
# Flatten JSON into "key<TAB>value" lines for lib.sh's lookup tables.
# Keys join the path with dots; array elements are named by what identifies
# them (ifname/port for rdma's per-port records, else name, ifname, port or
# index, else the position), so a device's port 1 state is
# "devices.rxe0.ports.1.state" and rdma link's is "rxe0/1.state".  Every
# array and object also gets "<path>.#" = its length.  Strings are raw,
# everything else JSON.  With --arg prefix P, keys are "P:<key>"; with
# --arg prefix @file, P is the input file's name without directory and
# ".json".

def ident($i):
	if type != "object" then $i
	elif has("ifname") and has("port") then "\(.ifname)/\(.port)"
	elif has("name") then .name
	elif has("ifname") then .ifname
	elif has("port") then .port
	elif has("index") then .index
	else $i end | tostring;

def flat($p):
	if type == "object" then
		{k: ($p + ["#"]), v: length},
		(to_entries[] | .key as $k | .value | flat($p + [$k]))
	elif type == "array" then
		{k: ($p + ["#"]), v: length},
		(to_entries[] | .key as $i | .value | ident($i) as $id | flat($p + [$id]))
	else {k: $p, v: .} end;

(if $prefix == "@file" then input_filename | sub(".*/"; "") | sub("\\.json$"; "")
 else $prefix end) as $pfx
| flat([])
| (if $pfx == "" then "" else "\($pfx):" end) as $lead
| "\($lead)\(.k | join("."))\t\(.v | if type == "string" then gsub("\n"; "\\n") else tojson end)"
