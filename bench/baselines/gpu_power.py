"""Board power of an NVIDIA GPU while the baselines run (docs/benchmarks.md "Baselines",
Energy), read by nvidia-smi: `power.draw.instant` where the driver has it (a sample, not the
driver's one-second average, so a short timed run is not blurred with the idle time around
it), else `power.draw`."""
import shutil
import subprocess
import threading
import time


def smi(query, index):
    """One nvidia-smi query's answer, or None (no nvidia-smi, or a field it does not know)."""
    if not shutil.which("nvidia-smi"):
        return None
    out = subprocess.run(["nvidia-smi", f"--id={index}", f"--query-gpu={query}", "--format=csv,noheader"],
                         capture_output=True, text=True)
    text = out.stdout.strip()
    return text if out.returncode == 0 and text and "not supported" not in text.lower() else None


def power_field(index):
    for field in ("power.draw.instant", "power.draw"):
        value = smi(field, index)
        if value is not None:
            try:
                float(value.split()[0])
                return field
            except ValueError:
                continue
    return None


class PowerMonitor:
    """nvidia-smi sampling board power every interval_ms between start() and stop()."""

    def __init__(self, index, interval_ms):
        self.field = power_field(index) or "power.draw"
        self.cmd = ["nvidia-smi", f"--id={index}", f"--query-gpu={self.field}", "--format=csv,noheader,nounits",
                    f"-lms={interval_ms}"]
        self.proc, self.samples, self.reader = None, [], None

    def start(self):
        self.samples = []
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self.reader.start()

    def _read(self, stream):
        for line in stream:
            try:
                self.samples.append(float(line.strip()))
            except ValueError:
                pass

    def stop(self):
        """{power_w_mean, power_w_max, power_samples, power_field} of the samples since start()."""
        if self.proc is None:
            return {}
        self.proc.terminate()
        self.proc.wait()
        self.reader.join(timeout=2)
        self.proc.stdout.close()
        self.proc = None
        s = self.samples
        return {"power_w_mean": sum(s) / len(s) if s else None, "power_w_max": max(s) if s else None,
                "power_samples": len(s), "power_field": self.field}


def idle_power(index, seconds=1.0):
    """Board watts with nothing of ours running: the mean of `seconds` of samples."""
    if not shutil.which("nvidia-smi"):
        return None
    mon = PowerMonitor(index, 100)
    mon.start()
    time.sleep(seconds)
    return mon.stop().get("power_w_mean")
