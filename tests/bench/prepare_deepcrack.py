#!/usr/bin/env python3
"""DeepCrack (JPEG images, PNG masks) -> one segmentation folder of TIFFs plus a Fisura split
that trains on DeepCrack/train and validates on DeepCrack/test (used on hosts whose OpenCV build
lacks imgcodecs; the pixels are unchanged)."""
import glob, json, os, sys

import cv2
import tifffile

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(dst, "images"), exist_ok=True)
os.makedirs(os.path.join(dst, "masks"), exist_ok=True)
parts = {"train": [], "val": [], "test": []}
for part, key in (("train", "train"), ("test", "val")):
    for p in sorted(glob.glob(os.path.join(src, part, "images", "*"))):
        stem = os.path.splitext(os.path.basename(p))[0]
        m = glob.glob(os.path.join(src, part, "masks", stem + ".*"))
        if not m:
            continue
        img = cv2.cvtColor(cv2.imread(p, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        mask = cv2.imread(m[0], cv2.IMREAD_GRAYSCALE)
        tifffile.imwrite(os.path.join(dst, "images", stem + ".tif"), img, photometric="rgb")
        tifffile.imwrite(os.path.join(dst, "masks", stem + ".tif"), mask, photometric="minisblack")
        parts[key].append("images/" + stem + ".tif")
json.dump({"format": "fisura-split", "version": 1, "task": "segment", "seed": 0,
           "val_fraction": 0, "test_fraction": 0, **parts}, open(os.path.join(dst, "split.json"), "w"))
print(json.dumps({k: len(v) for k, v in parts.items()}))
