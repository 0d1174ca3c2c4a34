"""Writing model bundles (docs/formats.md): graph.json + inputs/ params/ reference/ as .npy.

A bundle is written into a temporary sibling folder and renamed into place at the end, so a
failed export never leaves a half-written folder that looks like a valid bundle.
"""
import json
import os
import shutil
import tempfile

import numpy as np


class ExportError(Exception):
    """A user-facing export failure: the message names the op / node / tensor at fault."""


def npy_name(name):
    """File name of a tensor in a bundle: a '/' in a name is written as '__'."""
    return name.replace("/", "__") + ".npy"


def _save(folder, name, value):
    os.makedirs(folder, exist_ok=True)
    # np.array, not np.ascontiguousarray: that one makes a 0-d value (a loss) shape (1,).
    arr = np.array(value, dtype=np.float64, order="C")
    np.save(os.path.join(folder, npy_name(name)), arr, allow_pickle=False)


def dtype_name(dtype):
    """torch.float32 -> 'float32' (also for a numpy dtype or a name)."""
    return str(dtype).replace("torch.", "")


def write_bundle(out_dir, graph, inputs, params, reference, source_dtype=None):
    """Writes graph (a JSON-able dict) and the tensors (dicts name -> array) atomically.
    source_dtype: the dtype PyTorch computed the reference in, recorded in meta.json so that
    `inrarch eval --check` picks its tolerance from it (docs/formats.md)."""
    out_dir = os.path.abspath(out_dir)
    parent = os.path.dirname(out_dir)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="." + os.path.basename(out_dir) + ".tmp-", dir=parent)
    try:
        os.chmod(tmp, 0o755)  # mkdtemp's 0700 is for the temporary name only
        with open(os.path.join(tmp, "graph.json"), "w") as f:
            json.dump(graph, f, allow_nan=False)
            f.write("\n")
        if source_dtype is not None:
            with open(os.path.join(tmp, "meta.json"), "w") as f:
                json.dump({"source_dtype": dtype_name(source_dtype)}, f)
                f.write("\n")
        for sub, tensors in (("inputs", inputs), ("params", params), ("reference", reference)):
            for name, value in tensors.items():
                _save(os.path.join(tmp, sub), name, value)
        _replace_dir(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _replace_dir(new, target):
    # An existing bundle is moved aside first, so the rename of the new one is atomic.
    old = None
    if os.path.lexists(target):
        old = tempfile.mkdtemp(prefix="." + os.path.basename(target) + ".old-",
                               dir=os.path.dirname(target))
        os.rmdir(old)
        os.rename(target, old)
    os.rename(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def read_npy_dir(folder):
    """Reads every .npy of a bundle subfolder into a dict name -> float64 array."""
    out = {}
    if not os.path.isdir(folder):
        return out
    for fname in sorted(os.listdir(folder)):
        if fname.endswith(".npy"):
            out[fname[:-4].replace("__", "/")] = np.load(os.path.join(folder, fname))
    return out
