"""cdp.py: a headless Chromium driven over the Chrome DevTools Protocol through
`--remote-debugging-pipe` (JSON messages ending in NUL on file descriptors 3 and 4: no port,
no websocket library), for tests/scripts/dashboard.t: load a page, collect what its console
reports (script exceptions, console.error, failed resource loads: the Log domain's errors),
evaluate an expression in it, take a screenshot. Every wait is bounded."""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find():
    return next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)


class Browser:
    def __init__(self, exe, width=1280, height=1000, timeout=60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="cdp-profile.")
        to_r, self.to_w = os.pipe()        # we write commands, the browser reads fd 3
        self.from_r, from_w = os.pipe()    # the browser writes fd 4, we read
        os.set_inheritable(to_r, True)
        os.set_inheritable(from_w, True)

        def fds():
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
             "--no-first-run", "--no-default-browser-check", "--window-size=%d,%d" % (
                 width, height), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, pass_fds=(3, 4, to_r, from_w))
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", {"targetId": page["targetId"],
                                                           "flatten": True})["sessionId"]
        for dom in ("Page", "Runtime", "Log"):
            self.call(dom + ".enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            session=True)

    def _recv(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_r], [], [], left)[0]:
                raise TimeoutError("no answer from the browser in %d s" % self.timeout)
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise EOFError("the browser closed its pipe")
            self.buf += chunk
        msg, _, self.buf = self.buf.partition(b"\0")
        return json.loads(msg)

    def call(self, method, params=None, session=False):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._recv(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, method):
        deadline = time.monotonic() + self.timeout
        while True:
            for i, e in enumerate(self.events):
                if e["method"] == method:
                    return self.events.pop(i)
            self.events.append(self._recv(deadline))

    def load(self, url):
        """Navigate and wait for the load event; returns the console errors it caused."""
        self.events = []
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_event("Page.loadEventFired")
        self.call("Runtime.evaluate", {"expression": "1"}, session=True)   # drain events
        errors = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                errors.append("exception: %s" % p["exceptionDetails"].get("exception", {}).get(
                    "description", p["exceptionDetails"].get("text")))
            elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error",
                                                                                 "assert"):
                errors.append("console.%s: %s" % (p["type"], " ".join(
                    str(a.get("value", a.get("description"))) for a in p.get("args", []))))
            elif e["method"] == "Log.entryAdded" and p["entry"]["level"] == "error":
                errors.append("log: %s %s" % (p["entry"]["text"], p["entry"].get("url", "")))
        return errors

    def eval(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                      session=True)
        if "exceptionDetails" in r:
            raise RuntimeError(r["exceptionDetails"].get("text"))
        return r["result"].get("value")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except (OSError, EOFError, TimeoutError, RuntimeError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)
        shutil.rmtree(self.profile, ignore_errors=True)
