"""linux_src.py: files of the installed Debian linux-source tarball, for tests that check the
hand-kept Linux records (tables.t) and decode through Linux's own tables (linux_oracle.t).

Nothing of Linux enters the repository: the files are extracted at test time into the build
directory (build/linux-src/<tarball name>/, reused by later runs) and read from there. The
tarball is Debian's linux-source-6.12 (/usr/src/linux-source-6.12.tar.xz, installed by
tools/install-deps for kunit.py); LINUX_SRC_TARBALL overrides the path. No tarball: the
callers skip with that reason.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

TARBALL = os.environ.get("LINUX_SRC_TARBALL", "/usr/src/linux-source-6.12.tar.xz")
FILES = ("Makefile", "arch/x86/include/asm/intel-family.h", "arch/x86/events/intel/core.c",
         "arch/x86/events/intel/ds.c", "arch/x86/events/perf_event.h",
         "include/uapi/linux/perf_event.h", "arch/x86/events/amd/ibs.c",
         "arch/x86/include/asm/amd-ibs.h")


def version():
    """The Debian package version of the tarball (dpkg), else its file name."""
    r = subprocess.run(["dpkg-query", "-S", TARBALL], capture_output=True, text=True)
    pkg = r.stdout.split(":")[0] if r.returncode == 0 else ""
    if pkg:
        v = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True,
                           text=True).stdout.strip()
        if v:
            return f"{pkg} {v}"
    return os.path.basename(TARBALL)


def tree(build="build"):
    """The directory holding FILES (extracting them once), or None without a tarball."""
    if not os.path.exists(TARBALL):
        return None
    top = os.path.basename(TARBALL).split(".tar")[0]
    root = os.path.join(build, "linux-src")
    if all(os.path.exists(os.path.join(root, top, f)) for f in FILES):
        return os.path.join(root, top)
    os.makedirs(root, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=root)	# tests run in parallel: extract, then rename
    subprocess.run(["tar", "-xJf", TARBALL, "-C", tmp, *[f"{top}/{f}" for f in FILES]],
                   check=True)
    try:
        os.rename(os.path.join(tmp, top), os.path.join(root, top))
    except OSError:	# another test got there first, or an older copy lacks new FILES
        for f in FILES:
            dst = os.path.join(root, top, f)
            if not os.path.exists(dst):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                os.replace(os.path.join(tmp, top, f), dst)
    shutil.rmtree(tmp, ignore_errors=True)
    return os.path.join(root, top)


def kernel_version(src):
    """VERSION.PATCHLEVEL.SUBLEVEL from the Makefile, if it was extracted, else None."""
    mk = os.path.join(src, "Makefile")
    if not os.path.exists(mk):
        return None
    m = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)", open(mk).read(), re.M))
    return f"{m['VERSION']}.{m['PATCHLEVEL']}.{m['SUBLEVEL']}"


def intel_models(src):
    """intel-family.h: INTEL_<NAME> -> "FF_MM"."""
    text = open(os.path.join(src, "arch/x86/include/asm/intel-family.h")).read()
    return {name: f"{int(fam):02X}_{int(mod, 16):02X}" for name, fam, mod in
            re.findall(r"#define\s+(INTEL_\w+)\s+IFM\((\d+),\s*(0x[0-9A-Fa-f]+)\)", text)}


def pmu_init_cases(src):
    """Models named by a case label of core.c intel_pmu_init's model switch."""
    text = open(os.path.join(src, "arch/x86/events/intel/core.c")).read()
    body = text[text.index("__init int intel_pmu_init(void)"):]
    body = body[body.index("switch (boot_cpu_data.x86_vfm)"):]
    body = body[:body.index("\n\tdefault:")]
    names = intel_models(src)
    return {names[n] for n in re.findall(r"\n\tcase (INTEL_\w+):", body) if n in names}


def block(text, start, what):
    """From the regex `start` to its matching closing brace (and a following ';')."""
    m = re.search(start, text, re.M)
    if not m:
        raise SystemExit(f"{sys.argv[0]}: {what} not found")
    i = text.index("{", m.start())
    depth = 0
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            end = j + 1
            if text[end:end + 1] == ";":
                end += 1
            return text[m.start():end] + "\n\n"
    raise SystemExit(f"{sys.argv[0]}: {what}: unbalanced braces")


def defines(text, prefix):
    """#define lines whose name starts with prefix, continuation lines included."""
    return "".join(m.group(0) + "\n" for m in
                   re.finditer(rf"^#define {prefix}\w*(?:\(.*?\))?[ \t].*?(?<!\\)$", text,
                               re.M | re.S))
