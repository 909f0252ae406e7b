#!/usr/bin/env bash
# apic_timeout.t: the runner's APIC-timer watchdog end to end under QEMU (SeaBIOS, ~2 s).
# tests=apic_hang,apic_watchdog: apic_hang hangs on purpose; the log must show the watchdog
# line, `not ok 1 apic_hang # TIMEOUT`, then the next test (apic_watchdog) still running and
# catching its own hang, the totals and the EXIT
# line, and the run's verdict must be "failed" (status 1), not a QEMU timeout.
set -u
cd "$(dirname "$0")/../.." || exit 1
iso=build/pebs-kernel.iso
log=build/boot-logs/apic-timeout.log
mkdir -p build/boot-logs
echo "1..5"
if [ ! -f "$iso" ]; then
	for i in 1 2 3 4 5; do echo "not ok $i - $iso missing (make iso)"; done
	exit 1
fi
tests/boot/qemu-run.sh "$iso" --fw bios --cpu max --mem 256M --smp 1 --timeout 60 \
	--log "$log" -- tests=apic_hang,apic_watchdog >/dev/null 2>"$log.err"
rc=$?
tr -d '\r' <"$log" >"$log.clean"
ok() { if eval "$2"; then echo "ok $1 - $3"; else echo "not ok $1 - $3"; fail=1; fi; }
fail=0
ok 1 '[ $rc = 1 ]' "run ends with the failure verdict (status $rc)"
ok 2 "grep -q '^# watchdog: test overran its 300 ms budget' '$log.clean'" "watchdog line printed"
ok 3 "grep -q '^not ok 1 apic_hang # TIMEOUT$' '$log.clean'" "apic_hang reported # TIMEOUT"
# 4: the next test runs to a result and its own watchdog catches its hang; not its verdict,
# which also holds caught_on_time, a real-time measurement of the guest under a busy host
ok 4 "grep -qE '^(not )?ok 2 apic_watchdog$' '$log.clean' && grep -q '^  ok 1 hang_caught$' '$log.clean'" \
	"the run goes on after the timeout"
ok 5 "grep -qE '^# EXIT: STATUS=1$' '$log.clean'" "totals and EXIT line"
[ $fail = 0 ] || tail -15 "$log.clean" | sed 's/^/# /'
exit $fail
