"""The power and energy model of the baselines (docs/benchmarks.md "Energy").

The design: P = P_static + sum over resources of count x coefficient x f_clk x (toggle / 12.5 %),
the coefficients in uW per MHz at a 12.5 % toggle rate (Vivado's default toggle rate, the
rate they are stated at). Each coefficient carries its source; those marked "assumption" are
not published figures and are meant to be replaced by the part's XPE values (UG440) or a
post-route report_power. The CPU: threads x watts per thread (an assumption, stated in the doc).
"""

DEFAULT_TOGGLE = 0.125

# uW per MHz per unit at 12.5 % toggle; static in W.
DESIGN_POWER = {
    "dsp": {"value": 2.0, "unit": "uW/MHz per DSP48E2",
            "source": "assumption: about 0.6 mW per DSP at 300 MHz, a 27x18 multiply-add at 12.5 % toggle"},
    "bram18k": {"value": 2.5, "unit": "uW/MHz per BRAM18K",
                "source": "assumption: about 0.75 mW per 18 Kb block RAM read every cycle at 300 MHz"},
    "uram": {"value": 6.0, "unit": "uW/MHz per URAM288",
             "source": "assumption: about 1.8 mW per 288 Kb UltraRAM at 300 MHz"},
    "lut": {"value": 0.008, "unit": "uW/MHz per LUT",
            "source": "assumption: logic and its routing, about 2.4 uW per LUT at 300 MHz"},
    "ff": {"value": 0.004, "unit": "uW/MHz per flip-flop",
           "source": "assumption: register and clock load, about 1.2 uW per FF at 300 MHz"},
    "static": {"value": 4.0, "unit": "W (XCU50 device static)",
               "source": "assumption: the device's static power at a typical junction temperature"},
}

# The card's bound: every watt the slot may deliver (the U50 has no auxiliary power connector).
BOARD_MAX_W = {"value": 75.0, "unit": "W",
               "source": "PCIe slot power without AUX power, 75 W (AMD DS1014, 'PCIe AUX Power', "
                         "https://docs.xilinx.com/r/en-US/ds1014-u45n/PCIe-AUX-Power); the U50 draws from the slot alone"}

TOGGLE_SOURCE = ("12.5 %: Vivado's default toggle rate (UG835, set_switching_activity -default_toggle_rate, "
                 "https://docs.amd.com/r/2022.2-English/ug835-vivado-tcl-commands/set_switching_activity)")

CPU_WATTS_PER_THREAD = {"value": 10.0, "unit": "W per busy thread",
                        "source": "assumption: a server CPU's TDP over its cores (e.g. 250 W / 28 cores = 8.9 W), "
                                  "rounded up; idle cores, memory and the rest of the host are not counted"}


def design_power_w(total, clock_mhz, toggle=DEFAULT_TOGGLE, model=DESIGN_POWER):
    """Static + dynamic watts of a design with resource totals `total` at clock_mhz."""
    scale = toggle / DEFAULT_TOGGLE
    dyn = sum(total.get(k, 0) * model[k]["value"] for k in ("dsp", "bram18k", "uram", "lut", "ff"))
    return model["static"]["value"] + dyn * clock_mhz * scale * 1e-6


def design_point(d, clock_mhz=None, toggle=DEFAULT_TOGGLE):
    """Latency, power, energy per sample and energy-delay product of one compiled design.
    clock_mhz: the clock assumed (default: the part's in report.json)."""
    mhz = clock_mhz or d["clock_mhz"]
    lat = d["cycles"] / (mhz * 1e6)
    p = design_power_w(d["total"], mhz, toggle)
    return {"latency_s": lat, "power_w": p, "clock_mhz": mhz,
            "energy_per_sample_j": p * lat / d["batch"], "edp_js": p * lat * lat,
            "energy_per_sample_bound_j": BOARD_MAX_W["value"] * lat / d["batch"]}


def cpu_point(rec, watts_per_thread=CPU_WATTS_PER_THREAD["value"]):
    p = watts_per_thread * rec["threads"]
    lat = rec["median_s"]
    return {"latency_s": lat, "power_w": p, "energy_per_sample_j": p * lat / rec["batch"],
            "edp_js": p * lat * lat}
