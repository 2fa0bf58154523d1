#!/usr/bin/env python3
"""PyTorch peer of bench_probe: the same U-Net-like net, loss, optimizer and settings
(channels-last, no cuDNN autotuning, Adam), timed the same way (2 warm-up + N timed steps).
Usage: unet_peer.py INPUT BASE MODE:BATCH [MODE:BATCH ...]   MODE = fp32 | tf32 | bf16
Prints one JSON object per line."""
import json
import sys
import time

import torch
from torch import nn


class DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True))


class UNet(nn.Module):
    def __init__(self, base):
        super().__init__()
        c, cin = base, 3
        self.enc = nn.ModuleList()
        for _ in range(4):
            self.enc.append(DoubleConv(cin, c))
            cin, c = c, c * 2
        self.mid = DoubleConv(cin, c)
        self.up, self.dec = nn.ModuleList(), nn.ModuleList()
        for _ in range(4):
            self.up.append(nn.ConvTranspose2d(c, c // 2, 2, stride=2))
            self.dec.append(DoubleConv(c, c // 2))
            c //= 2
        self.head = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        skips = []
        for e in self.enc:
            x = e(x)
            skips.append(x)
            x = torch.max_pool2d(x, 2)
        x = self.mid(x)
        for i, (u, d) in enumerate(zip(self.up, self.dec)):
            x = d(torch.cat([u(x), skips[-1 - i]], 1))
        return self.head(x)


def main():
    size, base = int(sys.argv[1]), int(sys.argv[2])
    dev = torch.device("cuda")
    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False  # as bench_probe's default
    net = UNet(base).to(dev).to(memory_format=torch.channels_last)
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
