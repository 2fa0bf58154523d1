#!/usr/bin/env python3
"""few_shot.tsv -> few_shot_summary.tsv (mean and standard deviation over seeds), a Markdown
table on stdout (for tests/bench/RESULTS.md) and few_shot.svg (ODS F1 against training images,
scratch and starter, one panel per data set). Standard library only.
Usage: few_shot_summary.py FEW_SHOT_TSV OUT_DIR [BUDGET_TEXT]"""
import csv
import math
import os
import statistics
import sys
from collections import defaultdict

tsv, out = sys.argv[1], sys.argv[2]
budget = sys.argv[3] if len(sys.argv) > 3 else ""
rows = list(csv.DictReader(open(tsv), delimiter="\t"))
order = ["0", "1", "2", "5", "10", "20", "all"]
groups = defaultdict(list)
for r in rows:
    groups[(r["dataset"], r["init"], r["size"])].append(r)


def stats(rs, key):
    v = [float(r[key]) for r in rs]
    return statistics.mean(v), (statistics.stdev(v) if len(v) > 1 else 0.0)


summary = []
for (ds, init, size), rs in groups.items():
    ods, ods_sd = stats(rs, "ods_f1")
    ois, ois_sd = stats(rs, "ois_f1")
    miou, miou_sd = stats(rs, "miou")
    secs = statistics.mean(float(r["train_seconds"]) for r in rs)
    summary.append(dict(dataset=ds, init=init, size=size, images=rs[0]["images"], runs=len(rs),
                        ods=ods, ods_sd=ods_sd, ois=ois, ois_sd=ois_sd, miou=miou,
                        miou_sd=miou_sd, train_seconds=secs))
summary.sort(key=lambda s: (s["dataset"], s["init"], order.index(s["size"]) if s["size"] in order else 99))
with open(os.path.join(out, "few_shot_summary.tsv"), "w") as f:
    keys = list(summary[0].keys()) if summary else []
    f.write("\t".join(keys) + "\n")
    for s in summary:
        f.write("\t".join(("%.4f" % v) if isinstance(v, float) else str(v) for v in s.values()) + "\n")

by = {(s["dataset"], s["init"], s["size"]): s for s in summary}
datasets = sorted({s["dataset"] for s in summary})
print("| Data set | Training images | From scratch: ODS F1 | From the starter: ODS F1 | "
      "Scratch OIS / mIoU | Starter OIS / mIoU |")
print("|---|---:|---:|---:|---:|---:|")
for ds in datasets:
    for size in order:
        a, b = by.get((ds, "scratch", size)), by.get((ds, "starter", size))
        if not a and not b:
            continue
        cell = lambda s, k: "%.3f ± %.3f" % (s[k], s[k + "_sd"]) if s else "–"
        pair = lambda s: "%.3f / %.3f" % (s["ois"], s["miou"]) if s else "–"
        n = (a or b)["images"]
        label = "0 (zero-shot)" if size == "0" else ("all (%s)" % n if size == "all" else size)
        print("| %s | %s | %s | %s | %s | %s |" % (ds, label, cell(a, "ods"), cell(b, "ods"),
                                                 pair(a), pair(b)))
for ds in datasets:
    full, five = by.get((ds, "scratch", "all")), by.get((ds, "starter", "5"))
    if full and five and full["ods"] > 0:
        r = five["ods"] / full["ods"]
        print("%s: starter on 5 images reaches %.0f %% of scratch on all (%s; target >= 90 %%)"
              % (ds, 100 * r, "met" if r >= 0.9 else "NOT met"))

# The plot: one panel per data set, x = training images (categorical), y = ODS F1.
W, H, pad = 380, 260, 44
xs = [s for s in order if s != "0"]
svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
       'font-size="11">' % (W * max(1, len(datasets)), H + 46)]
colours = {"scratch": "#E69F00", "starter": "#0072B2"}  # Okabe-Ito
for p, ds in enumerate(datasets):
    ox = p * W
    x = lambda i: ox + pad + i * (W - pad - 16) / max(1, len(xs) - 1)
    y = lambda v: 16 + (1 - v) * (H - 16 - pad)
    svg.append('<text x="%d" y="12" font-weight="bold">%s</text>' % (ox + pad, ds))
    for t in [0, 0.2, 0.4, 0.6, 0.8, 1.0]:
        svg.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (ox + pad, ox + W - 16, y(t), y(t)))
        svg.append('<text x="%d" y="%.1f" text-anchor="end">%.1f</text>' % (ox + pad - 4, y(t) + 4, t))
    for i, s in enumerate(xs):
        svg.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x(i), H - pad + 16, s))
    svg.append('<text x="%.1f" y="%d" text-anchor="middle">training images</text>' % (ox + W / 2, H - pad + 32))
    svg.append('<text x="%d" y="%d" transform="rotate(-90 %d %d)" text-anchor="middle">ODS F1 @ 2 px</text>'
               % (ox + 12, H / 2, ox + 12, H / 2))
    for init in ["scratch", "starter"]:
        pts = [(i, by[(ds, init, s)]) for i, s in enumerate(xs) if (ds, init, s) in by]
        if not pts:
            continue
        c = colours[init]
        svg.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                   % (c, " ".join("%.1f,%.1f" % (x(i), y(s["ods"])) for i, s in pts)))
        for i, s in pts:
            svg.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s"/>'
                       % (x(i), x(i), y(s["ods"] - s["ods_sd"]), y(s["ods"] + s["ods_sd"]), c))
            svg.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x(i), y(s["ods"]), c))
    zero = by.get((ds, "starter", "0"))
    if zero:
        svg.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="4 3"/>'
                   % (ox + pad, ox + W - 16, y(zero["ods"]), y(zero["ods"]), colours["starter"]))
    full = by.get((ds, "scratch", "all"))
    if full:
        svg.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="2 2"/>'
                   % (ox + pad, ox + W - 16, y(0.9 * full["ods"]), y(0.9 * full["ods"])))
legend = ('<text x="%d" y="%d"><tspan fill="%s">&#9632; from scratch</tspan>  '
          '<tspan fill="%s">&#9632; from the starter (dashed: zero-shot)</tspan>  '
          '<tspan fill="#999">grey: 90 %% of scratch on all images</tspan></text>'
          '<text x="%d" y="%d">%s</text>'  # the budget on its own line: it does not fit beside
          % (pad, H + 22, colours["scratch"], colours["starter"], pad, H + 38, budget))
svg.append(legend)
svg.append("</svg>")
open(os.path.join(out, "few_shot.svg"), "w").write("\n".join(svg) + "\n")
