#!/usr/bin/env python3
"""Fails when a user-visible string has no finished Spanish translation.

Runs lupdate over the GUI sources into a scratch file, then checks that every source text it
finds is translated in translations/fisura_es.ts (not unfinished, not empty) and that the
translation keeps the placeholders (%1, %n, ...) of its source.
usage: check_ts.py LUPDATE ROOT SCRATCH_DIR
"""
import os, re, subprocess, sys
import xml.etree.ElementTree as ET

lupdate, root, scratch = sys.argv[1:4]
os.makedirs(scratch, exist_ok=True)
fresh = os.path.join(scratch, "fresh_es.ts")
if os.path.exists(fresh):
    os.remove(fresh)
dirs = [os.path.join(root, d) for d in ("widgets/src", "app/gui") if os.path.isdir(os.path.join(root, d))]
subprocess.run([lupdate, "-silent", "-locations", "none", "-source-language", "en",
                "-target-language", "es", *dirs, "-ts", fresh], check=True)

def messages(path):
    out = {}
    for ctx in ET.parse(path).getroot().iter("context"):
        name = ctx.findtext("name")
        for m in ctx.iter("message"):
            out[(name, m.findtext("source"))] = m
    return out

wanted = messages(fresh)
have = messages(os.path.join(root, "translations", "fisura_es.ts"))
placeholder = re.compile(r"%(?:\d+|n)")
problems = []
for key in sorted(wanted):
    m = have.get(key)
    if m is None:
        problems.append("not in fisura_es.ts (run the update_translations target): %s / %r" % key)
        continue
    tr = m.find("translation")
    if tr.get("type") in ("unfinished", "vanished", "obsolete"):
        problems.append("unfinished: %s / %r" % key)
        continue
    forms = [f.text or "" for f in tr.findall("numerusform")] or [tr.text or ""]
    for f in forms:
        if not f.strip():
            problems.append("empty translation: %s / %r" % key)
        elif sorted(set(placeholder.findall(f))) != sorted(set(placeholder.findall(key[1]))):
            problems.append("placeholders differ: %s / %r -> %r" % (key[0], key[1], f))
# One Spanish word for crack: "fisura" (the product's name), never "grieta".
for key, m in sorted(have.items()):
    tr = m.find("translation")
    texts = [f.text or "" for f in tr.findall("numerusform")] or [tr.text or ""]
    if any(re.search(r"grieta", t, re.IGNORECASE) for t in texts):
        problems.append("'grieta' instead of 'fisura': %s / %r" % key)
for p in problems:
    print(p)
print("%d strings checked, %d problems" % (len(wanted), len(problems)))
sys.exit(1 if problems else 0)
