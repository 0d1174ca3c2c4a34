"""Shared helpers of the Python tests: the C++ binary (env INRARCH_BIN, default
build/inrarch) and scratch folders. Tests that need the binary skip, saying so, when it is
absent."""
import inspect
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHON_DIR = os.path.join(ROOT, "python")
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)


def inrarch_bin():
    return os.environ.get("INRARCH_BIN", os.path.join(ROOT, "build", "inrarch"))


def need_bin(test):
    path = inrarch_bin()
    if not os.access(path, os.X_OK):
        test.skipTest(f"C++ binary {path} not built (set INRARCH_BIN)")
    return path


def run_bin(test, *args):
    """Runs the C++ binary; returns (exit code, stdout + stderr)."""
    p = subprocess.run([need_bin(test), *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def eval_check(test, bundle, rtol="1e-9"):
    """`inrarch eval DIR --check --rtol R` must pass (rtol None: eval's default, which it
    takes from the bundle's source dtype)."""
    tol = [] if rtol is None else ["--rtol", rtol]
    rc, out = run_bin(test, "eval", bundle, "--check", *tol, "-q")
    test.assertEqual(rc, 0, f"eval --check failed on {bundle}:\n{out}")
    test.assertIn("PASS", out)
    return out


def compile_csim(test, bundle):
    """`inrarch compile BUNDLE -q` must exit 0 with its C, threaded and trace simulations
    passing."""
    out = test.path("out_" + os.path.basename(bundle))
    rc, log = run_bin(test, "compile", bundle, "-q", "-o", out)
    test.assertEqual(rc, 0, log)
    with open(os.path.join(out, "report.json")) as f:
        v = json.load(f)["verification"]
    for mode in ("csim", "threaded", "trace"):
        test.assertTrue(v[mode]["pass"], f"{mode}: {v[mode]}")


def compile_rtl(test, *args):
    """`inrarch compile ARGS --rtl -q -o OUT` must exit 0 with a passing, bit-exact RTL run;
    returns (report.json, its verification.rtl). Skips when verilator is missing."""
    if shutil.which("verilator") is None:
        test.skipTest("verilator is not installed (scripts/install-deps.sh installs it)")
    out = test.path("out")
    rc, log = run_bin(test, "compile", *args, "--rtl", "-q", "-o", out)
    test.assertEqual(rc, 0, log)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    rtl = report["verification"]["rtl"]
    test.assertTrue(rtl["pass"], rtl)
    test.assertTrue(rtl["bit_exact"], rtl)
    return report, rtl


def compile_hls(test, bundle, out, number_type):
    """`inrarch compile BUNDLE -o OUT --type T` (its C simulations included); returns
    (exit code, output, report.json's verification or None when there is no report)."""
    rc, log = run_bin(test, "compile", bundle, "-q", "-o", out, "--type", number_type)
    path = os.path.join(out, "report.json")
    if not os.path.isfile(path):
        return rc, log, None
    with open(path) as f:
        return rc, log, json.load(f).get("verification")


def line_of(fn, text):
    """(file, line) of the first line of fn's source containing text."""
    lines, first = inspect.getsourcelines(fn)
    for k, line in enumerate(lines):
        if text in line:
            return inspect.getsourcefile(fn), first + k
    raise AssertionError(f"{text!r} not in {fn.__name__}")


def run_module(*args):
    """python3 -m inrarch_torch ARGS with this interpreter."""
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    return subprocess.run([sys.executable, "-m", "inrarch_torch", *args], capture_output=True,
                          text=True, env=env, timeout=600)


class TmpDirTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="inrarch-pt-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)
