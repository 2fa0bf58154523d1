"""Fisura's segmentation U-Net in PyTorch, for every Python peer of the benchmarks (one
definition, so that every peer runs the network Fisura runs). It mirrors UNetImpl in
core/src/models/networks.cpp layer for layer and name for name (down / bottom / upconv / up /
out, so state dicts line up): per level two 3x3 convolutions without bias, each followed by
BatchNorm and ReLU; 2x2 max pooling down; a 2x2 stride-2 transposed convolution up, whose
output follows the skip connection in the concatenation; a 1x1 convolution to one logit.
Width is clamped to >= 4 and depth to 1..6 (0 = 4), as Fisura does.

Usage, from a script beside this folder:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
    from fisura_unet import UNet
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DoubleConv(nn.Sequential):
    def __init__(self, i, o):
        super().__init__(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(True),
                         nn.Conv2d(o, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(True))


class UNet(nn.Module):
    def __init__(self, depth=4, width=32):
        super().__init__()
        width = max(4, width)
        depth = min(max(depth, 1), 6) if depth > 0 else 4
        self.down = nn.ModuleList()
        c = 3
        for i in range(depth):
            self.down.append(DoubleConv(c, width << i))
            c = width << i
        self.bottom = DoubleConv(c, width << depth)
        self.upconv = nn.ModuleList()
        self.up = nn.ModuleList()
        for i in reversed(range(depth)):
            self.upconv.append(nn.ConvTranspose2d(width << (i + 1), width << i, 2, stride=2))
            self.up.append(DoubleConv(width << (i + 1), width << i))
        self.out = nn.Conv2d(width, 1, 1)

    def forward(self, x):
        skips = []
        for d in self.down:
            x = d(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottom(x)
        for uc, u, s in zip(self.upconv, self.up, reversed(skips)):
            x = u(torch.cat([s, uc(x)], 1))
        return self.out(x)
