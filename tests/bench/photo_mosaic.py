#!/usr/bin/env python3
"""A mosaic of real crack photographs as one RGB TIFF, for `bench_infer scan OUT W H CODEC PHOTO`.

Usage: photo_mosaic.py OUT.tif DIR [DIR...]

Every .jpg/.png under each DIR's images/ (or DIR itself), in name order, cropped to at most
544 x 544 and placed row by row, 14 to a row, on grey (128). With the four crack sets of
../shared/data (UAV75, DeepCrack train + test, CrackConglomerate, CrackForest: 278 photographs)
it is 7616 x 10880. Written uncompressed and tiled (512 px) with tifffile; needs numpy, OpenCV
(cv2) and tifffile, as on the GPU hosts.
"""
import pathlib
import sys

import cv2
import numpy as np
import tifffile

CELL, COLUMNS = 544, 14


def photos(dirs):
    out = []
    for d in map(pathlib.Path, dirs):
        d = d / "images" if (d / "images").is_dir() else d
        out += [p for p in d.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png")]
    return sorted(out, key=str)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    files = photos(sys.argv[2:])
    if not files:
        sys.exit("photo_mosaic: no photographs found")
    rows = (len(files) + COLUMNS - 1) // COLUMNS
    m = np.full((rows * CELL, COLUMNS * CELL, 3), 128, np.uint8)
    for i, f in enumerate(files):
        im = cv2.imread(str(f), cv2.IMREAD_COLOR)
        if im is None:
            sys.exit(f"photo_mosaic: cannot read {f}")
        im = cv2.cvtColor(im, cv2.COLOR_BGR2RGB)[:CELL, :CELL]
        y, x = (i // COLUMNS) * CELL, (i % COLUMNS) * CELL
        m[y:y + im.shape[0], x:x + im.shape[1]] = im
    tifffile.imwrite(sys.argv[1], m, tile=(512, 512), photometric="rgb")
    print(f"{len(files)} photographs, {m.shape[1]} x {m.shape[0]}")


if __name__ == "__main__":
    main()
