#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmadiag export --listen under a starving attack from a local user: 32
# keep-alive connections from two loopback addresses (127.0.0.2 and
# 127.0.0.3), each completing a request every 3 s and connecting again at
# once when closed. A scraper on 127.0.0.1 keeps getting answers for the
# whole attack, also when the attacker runs as nobody.
. "$(dirname "$0")/lib.sh"
need curl curl
need perl perl-base
[ -x "$bin" ] || fail "no rdmadiag binary at $bin"
trap '' PIPE
root=$fixtures/cx6dx-roce-port-down
attack_s=${ATTACK_S:-20}

start_server "$tmp/rd.log" /metrics "$bin" export --listen 127.0.0.1:@PORT@ \
	--root "$root"
url=http://127.0.0.1:$port
curl -fsS -m 2 --interface 127.0.0.2 -o /dev/null "$url/metrics" 2>/dev/null ||
	skip "cannot send from 127.0.0.2 here"

cat > "$tmp/attack.pl" <<'PERL'
use strict;
use warnings;
use IO::Socket::INET;
use IO::Select;
use Time::HiRes qw(time sleep);
my ($port, $secs) = @ARGV;
my $end = time + $secs;
my (@c, %next);
my $sel = IO::Select->new;
my $open = sub {
	my $from = shift;
	my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port,
		LocalAddr => $from, Proto => 'tcp', Blocking => 1) or return;
	$sel->add($s);
	${*$s}{from} = $from;
	$next{$s} = time + 3;
	print $s "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n";
};
for my $i (1 .. 32) { $open->($i % 2 ? '127.0.0.2' : '127.0.0.3'); }
my $held = 0;
while (time < $end) {
	for my $s ($sel->can_read(0.1)) {
		my $n = sysread($s, my $buf, 65536);
		next if $n;
		my $from = ${*$s}{from};
		$sel->remove($s); delete $next{$s}; close $s;
		$open->($from);
	}
	for my $s ($sel->handles) {
		next if time < $next{$s};
		$next{$s} = time + 3;
		print $s "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n";
	}
	$held = $sel->count if $sel->count > $held;
}
print "held $held connections\n";
PERL

# attack AS: the attack for attack_s seconds while a scraper on 127.0.0.1
# asks every second; every scrape must be answered.
attack() {
	local as=$1 ok=0 missed=0 t0 a
	if [ "$as" = nobody ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- \
			perl - "$port" "$attack_s" < "$tmp/attack.pl" > "$tmp/attack.out" 2>&1 &
	else
		perl "$tmp/attack.pl" "$port" "$attack_s" > "$tmp/attack.out" 2>&1 &
	fi
	a=$!
	pids+=("$a")
	sleep 1
	t0=$SECONDS
	while [ $((SECONDS - t0)) -lt $((attack_s - 3)) ]; do
		if curl -fsS -m 3 -o "$tmp/s.prom" "$url/metrics" 2>>"$tmp/scrape.err" &&
			grep -q '^rdmadiag_check_status' "$tmp/s.prom"; then
			ok=$((ok + 1))
		else
			missed=$((missed + 1))
		fi
		sleep 1
	done
	wait "$a" || true
	kill -0 "$server_pid" || fail "exporter died under the attack ($as)"
	[ "$missed" = 0 ] && [ "$ok" -gt 5 ] ||
		fail "attack as $as ($(cat "$tmp/attack.out")): $ok scrapes answered, $missed not: $(sort -u "$tmp/scrape.err" | head -3)"
	echo "ok: attack as $as ($(cat "$tmp/attack.out")): all $ok scrapes answered"
}

attack "$(id -un)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups -- true 2>/dev/null; then
	attack nobody
else
	echo "note: the attack as nobody needs root and setpriv"
fi
echo "PASS: a scraper is answered through a starving attack"
