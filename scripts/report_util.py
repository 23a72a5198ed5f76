"""Helpers shared by report.py and its section modules: number formatting and figures
(matplotlib on the Agg backend, SVG output made deterministic so plots only change with data)."""
import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "collide"
import matplotlib.pyplot as plt  # noqa: E402,F401  (re-exported)


def fmt(x, digits=2):
    if x is None:
        return "–"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}f}"


def times(x, digits=2):
    """A ratio as "12.34x", or "–" when it was not measured."""
    return "–" if x is None else fmt(x, digits) + "x"


def verdict(got, ok):
    """A target's mark: "not measured" when its benchmark did not run, else met or missed."""
    if got is None:
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


def save_figure(fig, base):
    """Writes base.svg and base.png, closes the figure, returns base."""
    fig.tight_layout()
    fig.savefig(base + ".svg", metadata={"Date": None})
    fig.savefig(base + ".png", dpi=110)
    plt.close(fig)
    return base


def finish_loglog(fig, ax, base, xlabel, ylabel, title):
    """Log-log axes (x in powers of two), labels, grid and legend; writes the figure (base.svg,
    base.png) and returns base."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return save_figure(fig, base)
