#!/usr/bin/env bash
# log-bytes.sh LOG: the bytes of a serial log that count against the log budget
# (docs/output.md "Log budget"): from `KTAP version 1` to the end of the `# EXIT:` line, line
# ends as the wire carries them (CRLF), GRUB's screen before it and anything after left out.
# Prints the number; exits 1 (printing nothing) when the log has no KTAP or no EXIT line.
set -u
python3 - "$1" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
s = d.find(b"KTAP version 1")
e = d.find(b"# EXIT:", s if s >= 0 else 0)
if s < 0 or e < 0:
    sys.exit(1)
n = d.find(b"\n", e)
print((n + 1 if n >= 0 else len(d)) - s)
PY
