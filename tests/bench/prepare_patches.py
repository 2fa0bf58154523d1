#!/usr/bin/env python3
"""A crack / no-crack patch set (SDNET2018-style class folders) cut from the segmentation sets in
../shared/data, for `fisura-cli train --task classify`.

Each image is cut into non-overlapping SIZE x SIZE patches. A patch is "cracked" when the central
CENTER fraction of it (e.g. the middle 48 x 48 px of a 96 px patch) holds at least MIN_FRACTION
crack pixels, "uncracked" when the whole patch holds none; all others (cracks only near the
border, a few stray pixels) are dropped as ambiguous. Whole images go to train or test, never
both: DeepCrack keeps its own train/test folders, the other sets are split by image with a fixed
seed. Patches are written as Deflate TIFF (readable by Fisura with or without OpenCV's imgcodecs)
to OUT/{cracked,uncracked}/, with OUT/split.json (train = train images, val = test images) and
OUT/summary.json (counts per set, split and class).

Usage: prepare_patches.py DATA_DIR OUT_DIR [--size 96] [--center 0.5] [--min-fraction 0.01]
                          [--test-fraction 0.2] [--seed 1]
Needs numpy and Pillow (Debian: python3-numpy, python3-pil), or else OpenCV's Python module and
tifffile (the GPU host; patches are then written uncompressed)."""
import argparse, glob, json, os, random, sys

import numpy as np

try:
    from PIL import Image

    def read_rgb(p):
        return np.asarray(Image.open(p).convert("RGB"))

    def read_gray(p):
        return np.asarray(Image.open(p).convert("L"))

    def write_tiff(p, a):
        Image.fromarray(a).save(p, compression="tiff_deflate")
except ImportError:
    import cv2
    import tifffile

    def read_rgb(p):
        return cv2.cvtColor(cv2.imread(p, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)

    def read_gray(p):
        return cv2.imread(p, cv2.IMREAD_GRAYSCALE)

    def write_tiff(p, a):
        tifffile.imwrite(p, a, photometric="rgb")

SETS = [("CrackForest", "CrackForest", None), ("DeepCrack", "DeepCrack/train", "train"),
        ("DeepCrack", "DeepCrack/test", "test"), ("UAV75", "UAV75", None),
        ("CrackConglomerate", "CrackConglomerate", None)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--size", type=int, default=96)
    ap.add_argument("--center", type=float, default=0.5)
    ap.add_argument("--min-fraction", type=float, default=0.01)
    ap.add_argument("--test-fraction", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    for c in ("cracked", "uncracked"):
        os.makedirs(os.path.join(a.out, c), exist_ok=True)
    rng = random.Random(a.seed)
    s = a.size
    c0 = int(round(s * (1 - a.center) / 2))
    c1 = s - c0
    min_px = a.min_fraction * (c1 - c0) ** 2
    split = {"train": [], "val": [], "test": []}
    counts = {}
    for name, folder, part in SETS:
        images = sorted(glob.glob(os.path.join(a.data, folder, "images", "*")))
        if not images:
            sys.exit(f"no images in {os.path.join(a.data, folder, 'images')}")
        if part is None:  # split by image, seeded
            order = images[:]
            rng.shuffle(order)
            n_test = max(1, round(a.test_fraction * len(order)))
            test = set(order[:n_test])
        else:
            test = set(images) if part == "test" else set()
        for p in images:
            stem = os.path.splitext(os.path.basename(p))[0]
            masks = glob.glob(os.path.join(a.data, folder, "masks", stem + ".*"))
            if not masks:
                print(f"skipped {p}: no mask", file=sys.stderr)
                continue
            img = read_rgb(p)
            crack = read_gray(masks[0]) > 127
            if crack.shape != img.shape[:2]:
                print(f"skipped {p}: mask size differs", file=sys.stderr)
                continue
            where = "test" if p in test else "train"
            key = "val" if where == "test" else "train"  # Fisura validates on the test images
            h, w = crack.shape
            for y in range(0, h - s + 1, s):
                for x in range(0, w - s + 1, s):
                    m = crack[y:y + s, x:x + s]
                    if m[c0:c1, c0:c1].sum() >= min_px:
                        cls = "cracked"
                    elif not m.any():
                        cls = "uncracked"
                    else:
                        cls = "ambiguous"
                    k = (name, where, cls)
                    counts[k] = counts.get(k, 0) + 1
                    if cls == "ambiguous":
                        continue
                    rel = f"{cls}/{name}_{stem}_{y}_{x}.tif"
                    write_tiff(os.path.join(a.out, rel), np.ascontiguousarray(img[y:y + s, x:x + s]))
                    split[key].append(rel)
    for k in split:
        split[k].sort()
    json.dump({"format": "fisura-split", "version": 1, "task": "classify", "seed": a.seed,
               "val_fraction": 0, "test_fraction": 0, **split},
              open(os.path.join(a.out, "split.json"), "w"), indent=1)
    summary = {"size": s, "center": [c0, c1], "min_crack_pixels_in_center": min_px,
               "test_fraction": a.test_fraction, "seed": a.seed,
               "patches": {f"{n}/{w}/{c}": v for (n, w, c), v in sorted(counts.items())}}
    for where in ("train", "test"):
        for cls in ("cracked", "uncracked", "ambiguous"):
            summary[f"{where}_{cls}"] = sum(v for (n, w, c), v in counts.items()
                                            if w == where and c == cls)
    json.dump(summary, open(os.path.join(a.out, "summary.json"), "w"), indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "patches"}))


if __name__ == "__main__":
    main()
