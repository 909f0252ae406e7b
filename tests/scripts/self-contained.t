#!/usr/bin/env python3
# self-contained.t: the repository stands on its own and its tables stay readable (issue 13).
# TAP. Checks every tracked source and document file (without git: every file outside
# build/ and .git/):
#  1. no reference to a path outside the repository (the sibling directory the project was
#     started from, or the notes kept there);
#  2. every docs/NAME.md named anywhere exists;
#  3. every "docs/hardware.md §N.M" / "docs/latency-method.md §N" citation names a section
#     that exists (a bare §N.M in pebs/ and tests/model/ is a docs/hardware.md section);
#  4. no positional struct initialiser of more than three fields in the kernel, driver, load,
#     tool and PMU-model sources (a row must read .name = ..., .models = ..., not by commas).
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC_EXT = re.compile(r"\.(c|h|md|py|t|sh|asm|mk|cfg|ld)$")
# Built from pieces so that this file does not match its own check.
OUTSIDE = [re.escape(".." + "/" + "shared"), re.escape("shared" + "/reference"),
           r"\b" + re.escape("pebs-" + "facts.md"), r"\b" + re.escape("user-" + "needs"),
           r"(?<![\w/])" + re.escape("DES" + "IGN.md")]
POSITIONAL_DIRS = ("kernel/", "platform/", "apic/", "smp/", "sample/", "pebs/", "ibs/", "loads/",
                   "tools/", "ktests/", "init/",
                   "tests/model/pmu_model_cpus.c")
n = 0
failed = 0


def ok(cond, name, diag=()):
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        failed += 1
        for line in list(diag)[:40]:
            print("# " + line)


def files():
    """Tracked files when this is a git checkout (scratch files do not count), else a walk."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode("utf-8", "replace")
        for rel in out.split("\0"):
            if rel and (SRC_EXT.search(rel) or os.path.basename(rel) in ("Makefile", "run")) \
                    and os.path.isfile(os.path.join(ROOT, rel)):
                yield rel, os.path.join(ROOT, rel)
        return
    except (OSError, subprocess.CalledProcessError):
        pass
    for d, dirs, names in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        dirs[:] = [x for x in dirs if not (rel == "." and x in ("build", ".git"))]
        for name in names:
            if SRC_EXT.search(name) or name in ("Makefile", "run"):
                path = os.path.join(d, name)
                yield os.path.relpath(path, ROOT), path


def lines_of(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")


def sections(path, items):
    have = set()
    for line in lines_of(os.path.join(ROOT, path)):
        m = re.match(r"#{2,3} (\d+)(?:\.(\d+))?\.? ", line)
        if m:
            have.add(m.group(1) + ("." + m.group(2) if m.group(2) else ""))
    # numbered list items of a section count as §S.I ("§8.4": item 4 of §8)
    for sec, count in items:
        have |= {"%d.%d" % (sec, i) for i in range(1, count + 1)}
    return have


def numbered_items(path, sec):
    count, inside = 0, False
    for line in lines_of(os.path.join(ROOT, path)):
        if line.startswith("## "):
            inside = line.startswith("## %d." % sec)
        elif inside and re.match(r"\d+\. ", line):
            count += 1
    return (sec, count)


ALL = sorted(files())
outside, missing_docs, bad_refs, positional = [], [], [], []
hw = sections("docs/hardware.md", [numbered_items("docs/hardware.md", 8)])
lm = sections("docs/latency-method.md", [numbered_items("docs/latency-method.md", 9)])
out_re = re.compile("|".join(OUTSIDE))
cite_re = re.compile(r"(hardware|latency-method)\.md((?:[ ,/and-]*(?:items? [0-9, ]+)?\(?"
                     r"§\d+(?:\.\d+)?(?:-§?\d+(?:\.\d+)?)?\)?)*)")
# A row of an array of structs ("{ a, b, ...") or a struct declared with a positional list.
row_re = re.compile(r"^\s*\{(.*)")
decl_re = re.compile(r"(?:\bstruct\s+\w+\s+\w+\s*=|\(struct\s+\w+\))\s*\{(.*)")
# A table row written through a positional macro: [0x01] = E(L1, NONE, Y, N), / ROW(6, ...),
macro_re = re.compile(r"^\s*(?:\[[^\]]+\]\s*=\s*)?[A-Z][A-Z0-9_]*"
                      r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*,\s*$")
NUMBER = re.compile(r"^\s*-?(0x[0-9a-fA-F]+|\d+)[uUlL]*\s*$")


def positional_fields(rest):
    """Fields of a brace list that starts with `rest` (nested braces count as one field);
    0 when it is designated, empty, {0}, or a list of plain numbers (an array row)."""
    rest = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', "S", rest)
    rest = re.sub(r"\{[^{}]*\}", "X", rest)
    rest = rest.split("}")[0]
    fields = [x for x in rest.split(",") if x.strip()]
    if not fields or fields[0].lstrip().startswith((".", "[")) or rest.strip() == "0":
        return 0
    if all(NUMBER.match(x) for x in fields):
        return 0
    return len(fields) + (1 if rest.rstrip().endswith(",") else 0)

for rel, path in ALL:
    if rel == "tests/scripts/self-contained.t":
        continue
    text = lines_of(path)
    for i, line in enumerate(text, 1):
        if out_re.search(line):
            outside.append("%s:%d: %s" % (rel, i, line.strip()))
        for m in re.finditer(r"docs/([\w.-]+\.md)", line):
            if not os.path.exists(os.path.join(ROOT, "docs", m.group(1))):
                missing_docs.append("%s:%d: docs/%s" % (rel, i, m.group(1)))
        for m in cite_re.finditer(line):
            have = hw if m.group(1) == "hardware" else lm
            for s in re.findall(r"§(\d+(?:\.\d+)?)", m.group(2)):
                if s not in have:
                    bad_refs.append("%s:%d: %s.md §%s" % (rel, i, m.group(1), s))
        if (rel.startswith("pebs/") or rel.startswith("tests/model/")) and \
           "output.md" not in line and "latency-method" not in line:
            for s in re.findall(r"§(\d+(?:\.\d+)?)", line):
                if s not in hw:
                    bad_refs.append("%s:%d: bare §%s (docs/hardware.md)" % (rel, i, s))
    if rel.endswith((".c", ".h")) and rel.startswith(POSITIONAL_DIRS):
        for i, line in enumerate(text, 1):
            code = line.split("//")[0].split("/*")[0]
            if re.search(r"=\s*\{\s*$", code) and i < len(text):	# list on the next line
                code = code.rstrip() + " " + text[i].split("/*")[0].strip()
            mac = macro_re.match(code)
            if mac and len(re.sub(r"\([^()]*\)", "X", mac.group(1)).split(",")) > 3:
                positional.append("%s:%d: %s" % (rel, i, line.strip()))
                continue
            for m in (row_re.match(code), decl_re.search(code)):
                if m and positional_fields(m.group(1)) > 3:
                    positional.append("%s:%d: %s" % (rel, i, line.strip()))
                    break

ok(not outside, "no reference to a path outside the repository", outside)
ok(not missing_docs, "every docs/*.md that is named exists", missing_docs)
ok(not bad_refs, "every docs/hardware.md and docs/latency-method.md § citation resolves",
   bad_refs)
ok(not positional, "no positional struct initialiser of more than three fields", positional)
ok(len(hw) > 40 and len(lm) > 5, "the cited documents have their sections (%d, %d)" %
   (len(hw), len(lm)))
print("1..%d" % n)
sys.exit(1 if failed else 0)
