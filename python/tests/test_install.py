"""The front end installs as a package with Debian's pip and setuptools, offline
(`pip install ./python`), and imports from where it was installed."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from .util import PYTHON_DIR


class InstallTest(unittest.TestCase):
    def test_pip_install_offline(self):
        with tempfile.TemporaryDirectory() as tmp:
            # From a copy: pip's in-tree build would leave build/ and *.egg-info in python/.
            src = os.path.join(tmp, "src")
            shutil.copytree(PYTHON_DIR, src, ignore=shutil.ignore_patterns("__pycache__", "tests"))
            target = os.path.join(tmp, "site")
            p = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps",
                                "--target", target, src], capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertTrue(os.path.exists(os.path.join(target, "inrarch_torch", "aten_ops.txt")))
            probe = ("import inrarch_torch, sys; "
                     "assert callable(inrarch_torch.export); print(inrarch_torch.__file__)")
            env = dict(os.environ, PYTHONPATH=target)
            p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                               cwd=tmp, env=env, timeout=300)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertTrue(p.stdout.strip().startswith(target), p.stdout)


if __name__ == "__main__":
    unittest.main()
