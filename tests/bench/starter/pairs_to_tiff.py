#!/usr/bin/env python3
"""SRC (images/ + masks/, JPEG or PNG, paired by stem) -> DST (the same pairs as TIFF, pixels
unchanged; masks as one 8-bit channel, largest colour channel of a colour mask).

For builds of Fisura without OpenCV's imgcodecs (the GPU hosts), which read TIFF only. Needs
python3 with cv2 and tifffile (both on the GPU hosts). Usage: pairs_to_tiff.py SRC DST"""
import glob
import os
import sys

import cv2
import tifffile

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(dst, "images"), exist_ok=True)
os.makedirs(os.path.join(dst, "masks"), exist_ok=True)
n = 0
for p in sorted(glob.glob(os.path.join(src, "images", "*"))):
    stem = os.path.splitext(os.path.basename(p))[0]
    masks = glob.glob(os.path.join(src, "masks", stem + ".*"))
    if not masks:
        continue
    img = cv2.imread(p, cv2.IMREAD_COLOR)
    mask = cv2.imread(masks[0], cv2.IMREAD_UNCHANGED)
    if img is None or mask is None:
        sys.exit("cannot read " + p)
    if mask.ndim == 3:
        mask = mask[:, :, :3].max(axis=2)
    tifffile.imwrite(os.path.join(dst, "images", stem + ".tif"),
                     cv2.cvtColor(img, cv2.COLOR_BGR2RGB), photometric="rgb")
    tifffile.imwrite(os.path.join(dst, "masks", stem + ".tif"), mask, photometric="minisblack")
    n += 1
print(f"{src}: {n} pairs -> {dst}")
