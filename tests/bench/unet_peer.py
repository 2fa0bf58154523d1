#!/usr/bin/env python3
"""PyTorch peer of bench_probe: a depth-4 U-Net of the same layers, with the same loss, optimizer
and settings (channels-last, no cuDNN autotuning, Adam), timed the same way (2 warm-up + N timed
steps). The network is Fisura's (peers/fisura_unet.py); bench_probe's stand-in differs only in the
order of the decoder's concatenation (upsampled, skip): the same layers, shapes and work.
Usage: unet_peer.py INPUT BASE MODE:BATCH [MODE:BATCH ...]   MODE = fp32 | tf32 | bf16
Prints one JSON object per line."""
import json
import os
import sys
import time

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from fisura_unet import UNet  # noqa: E402  (Fisura's U-Net, shared by every peer)


def main():
    size, base = int(sys.argv[1]), int(sys.argv[2])
    dev = torch.device("cuda")
    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False  # as bench_probe's default
    net = UNet(depth=4, width=base).to(dev).to(memory_format=torch.channels_last)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for spec in sys.argv[3:]:
        mode, batch = spec.split(":")
        batch = int(batch)
        torch.backends.cuda.matmul.allow_tf32 = mode == "tf32"
        torch.backends.cudnn.allow_tf32 = mode == "tf32"
        x = torch.randn(batch, 3, size, size, device=dev).contiguous(
            memory_format=torch.channels_last)
        y = (torch.rand(batch, 1, size, size, device=dev) > 0.9).float()

        def step():
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=mode == "bf16"):
                out = net(x)
            loss = nn.functional.binary_cross_entropy_with_logits(out.float(), y)
            loss.backward()
            opt.step()

        torch.cuda.reset_peak_memory_stats()
        for _ in range(2):
            step()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        steps = 5
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
        ips = batch * steps / (time.perf_counter() - t0)
        print(json.dumps({"what": "peer", "mode": mode, "batch": batch,
                          "images_per_second": round(ips, 1),
                          "peak_bytes": torch.cuda.max_memory_allocated()}), flush=True)
        del x, y
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
