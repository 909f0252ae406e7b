#!/usr/bin/env bash
# qemu_numa.t: the --numa K option of tests/boot/qemu-run.sh (make run NUMA=K): the QEMU
# arguments it builds (--dry-run: memory backends, -numa node with the CPU split, -numa dist
# for the SLIT) and the errors for values it cannot honour. Starts no QEMU.
set -u
cd "$(dirname "$0")/../.." || exit 1
t=$(mktemp -d "${TMPDIR:-/tmp}/numa-t.XXXXXX")
trap 'rm -rf "$t"' EXIT
n=0 fails=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi; }
run() { tests/boot/qemu-run.sh build/x.iso --dry-run --accel tcg "$@" >"$t/out" 2>"$t/err"; }
has() { grep -qF -- "$2" "$t/$1"; }

run --smp 4 --numa 2 --mem 1G; ok $? "two nodes: exit 0"
has out "-m 1G -smp 4 "; ok $? "two nodes: memory and CPUs as given"
has out "-object memory-backend-ram,id=numa0,size=512M -numa node,nodeid=0,cpus=0-1,memdev=numa0 -object memory-backend-ram,id=numa1,size=512M -numa node,nodeid=1,cpus=2-3,memdev=numa1 -numa dist,src=0,dst=1,val=21 "
ok $? "two nodes: half the memory and CPUs each, distance 21"

run --smp 4 --numa 3 --mem 768M; ok $? "three nodes over four CPUs: exit 0"
has out "cpus=0-0,memdev=numa0"; ok $? "three nodes: one CPU on node 0"
has out "-numa node,nodeid=2,cpus=2-3,memdev=numa2"; ok $? "three nodes: the last node takes the CPU left over"
has out "-numa dist,src=0,dst=2,val=21 -numa dist,src=1,dst=2,val=21"; ok $? "three nodes: every pair has a distance"

run --smp 2 --numa 1; ok $? "one node: exit 0"
! has out "-numa"; ok $? "one node: no -numa arguments"

run --smp 1 --numa 2; rc=$?
ok $(( rc != 2 )) "fewer CPUs than nodes: exit 2 (rc $rc)"
has err "--numa 2 needs --smp >= 2 and --mem divisible by 2"; ok $? "fewer CPUs than nodes: says why"
! has out "qemu-system"; ok $? "fewer CPUs than nodes: no command line"
run --smp 4 --numa 2 --mem 1000K; rc=$?
ok $(( rc != 2 )) "memory not in M or G: exit 2 (rc $rc)"
run --smp 4 --numa two; rc=$?
ok $(( rc != 2 )) "--numa not a number: exit 2 (rc $rc)"
has err "--numa K needs a number K, --smp N and --mem in M or G"; ok $? "--numa not a number: says why"
run --smp 3 --numa 2 --mem 513M; rc=$?
ok $(( rc != 2 )) "memory not divisible by the nodes: exit 2 (rc $rc)"

echo "1..$n"
exit $((fails > 0))
