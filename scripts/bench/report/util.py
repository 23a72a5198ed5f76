"""Helpers shared by the report's modules: number formatting and figures
(matplotlib on the Agg backend, SVG output made deterministic so plots only change with data)."""
import io
import math
import os
import re

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "collide"
matplotlib.rcParams["svg.fonttype"] = "none"
import matplotlib.pyplot as plt  # noqa: E402,F401  (re-exported)
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402


def fmt(x, digits=2):
    if x is None:
        return "–"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}f}"


def times(x, digits=2):
    """A ratio as "12.34x", or "–" when it was not measured."""
    return "–" if x is None else fmt(x, digits) + "x"


def verdict(got, ok, ctx=None, backend=None):
    """A target's mark: met or missed; without a figure, "not on this CPU" when the run's
    context lists the backends built for its CPU and `backend` is not one of them (a Zen 3 has
    no AVX-512), else "not measured" (its benchmark did not run)."""
    if got is None:
        built = (ctx or {}).get("collide_backends")
        if backend and built and backend not in built.split(","):
            return "not on this CPU"
        return "not measured"
    return "met" if ok else "missed"


def human_items(x):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.2f} {unit}"
    return f"{x:.0f}"


_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf"]
_LINES = ["-", "--", ":", "-."]
_MARKERS = ["o", "s", "^", "D", "v", "x"]


def series_style(i):
    """The i-th series' colour, line style and marker: ten colours, and from the eleventh series
    on another line style and marker, so no two series of a figure look alike."""
    return {"color": _COLORS[i % 10], "linestyle": _LINES[(i // 10) % 4], "marker": _MARKERS[(i // 10 + i) % 6]}


def count_text(x, _pos=None):
    """A tick of a count: 16, 256, 4k (4096), 64k, 1M (1048576) on powers of two; 10k, 2.5M,
    1G ... otherwise."""
    if x <= 0:
        return ""
    for scale, binary, unit in ((1 << 30, 1e9, "G"), (1 << 20, 1e6, "M"), (1 << 10, 1e3, "k")):
        if x >= scale and x % scale == 0:
            return f"{x / scale:g}{unit}"
        if x >= binary:
            return f"{x / binary:.3g}{unit}"
    return f"{x:.3g}"


def readable_log_axes(ax):
    """Log axes labelled in plain numbers (4k, 1M, 2.5G) rather than powers of ten; the ticks
    themselves are chosen when the figure is saved (_log_ticks), once the data is in."""
    for axis in (ax.xaxis, ax.yaxis):
        if axis.get_scale() == "log":
            axis.set_major_formatter(FuncFormatter(count_text))
            axis.set_minor_formatter(NullFormatter())


def _log_ticks(fig):
    """Labelled ticks on base-10 log axes that read: at 1, 2 and 5 of every decade over a short
    range (under two decades: otherwise no tick or one might be labelled), 1 and 3 over a few,
    decades only over a wide one."""
    for ax in fig.axes:
        for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            if axis.get_scale() != "log" or axis.get_transform().base != 10:
                continue
            low, high = sorted(limits)
            decades = math.log10(high / low) if low > 0 else 99
            subs = (1.0, 2.0, 5.0) if decades < 2 else (1.0, 3.0) if decades < 4 else (1.0,)
            axis.set_major_locator(LogLocator(base=10, subs=subs, numticks=40))


def place_legend(ax, fontsize=8):
    """The legend beside the axes (right of them), where it covers no line."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=fontsize, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def _mark_single_points(fig):
    """A series of one point is a line of no length: draw it as a large marker."""
    for ax in fig.axes:
        for line in ax.get_lines():
            if len(line.get_xdata()) == 1:
                line.set_linestyle("none")
                if line.get_marker() in (None, "None", "none", ""):
                    line.set_marker("o")
                line.set_markersize(max(8.0, line.get_markersize()))


WRITTEN = []  # the figures written (their bases), for write.py to clear out stale ones


def _write_if_changed(path, content):
    """Writes `content` (bytes) to `path` atomically, and only when the file does not already
    hold exactly these bytes: an unchanged plot keeps its file as it was."""
    try:
        with open(path, "rb") as f:
            if f.read() == content:
                return
    except OSError:
        pass
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(content)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


_TAG = re.compile(rb"<[^>]*>")
_DECIMALS = re.compile(rb"-?\d+\.\d\d+")
_METADATA = re.compile(rb"\s*<metadata>.*?</metadata>", re.S)


def _compact_svg(svg):
    """The SVG without its metadata block and with every number inside a tag (coordinates,
    sizes) to a tenth of a point, finer than a screen's pixel: the plots' files and what a
    run adds to a clone shrink by half. Text between tags (labels, tick values) is kept."""
    svg = _METADATA.sub(b"", svg)

    def tenth(tag):
        return _DECIMALS.sub(lambda m: b"%.1f" % float(m.group(0)), tag.group(0))
    return _TAG.sub(tenth, svg)


def save_figure(fig, base):
    """Writes base.svg (the legends beside the axes included), closes the figure, returns base.
    The SVG's bytes depend on the data alone (a fixed hash salt, no date), so a plot whose data
    did not change is left untouched; text stays text (svg.fonttype none: no glyph outlines)."""
    WRITTEN.append(base)
    _mark_single_points(fig)
    _log_ticks(fig)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(fig)
    _write_if_changed(base + ".svg", _compact_svg(out.getvalue()))
    return base


def finish_loglog(fig, ax, base, xlabel, ylabel, title):
    """Log-log axes (x in powers of two), labels, grid and legend; writes the figure (base.svg)
    and returns base."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    readable_log_axes(ax)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    place_legend(ax)
    return save_figure(fig, base)
