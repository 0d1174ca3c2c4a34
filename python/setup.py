"""The PyTorch front end as an installable package: `pip install ./python` (offline: it needs
only setuptools, and PyTorch and NumPy from the system). See docs/pytorch.md "Install"."""
from setuptools import setup

setup(
    name="inrarch-torch",
    version="0.1",
    description="PyTorch front end of INR-Arch: exports gradient computations as bundles",
    packages=["inrarch_torch"],
    package_data={"inrarch_torch": ["aten_ops.txt"]},
    python_requires=">=3.9",
)
