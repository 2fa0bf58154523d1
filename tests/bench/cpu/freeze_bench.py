#!/usr/bin/env python3
"""TorchScript freeze / optimize_for_inference against eager execution on the CPU, network only.

  freeze_bench.py [--width 16] [--depth 4] [--tile 512] [--batch 1] [--threads 2] [--rounds 3]
                  [--reps 4] [--only NAME,...] [--logit-std 1] [--glibc-defaults] [--json OUT.jsonl]

Fisura's U-Net (../peers/fisura_unet.py, = core/src/models/networks.cpp) with random
weights, batch 1 of 512 x 512 tiles (Fisura's CPU tile batch), on `--threads` intra-op threads and
one inter-op thread, the malloc settings of Fisura's jobs (core/src/util/malloc_tuning.cpp) unless
--glibc-defaults, and GOMP_SPINCOUNT=0 as Fisura's executables run. Every contender times the
same work Fisura's inference does per batch: the normalised float32 input -> network ->
float32 -> sigmoid. Contenders alternate within each round (reps timed calls each, after their
warm-up calls), so a background load hits all alike. Prints a markdown table: MP/s of tiles per
round, median, ratio to Fisura's choice (eager, bf16 autocast, channels-last, BatchNorm folded),
and the largest difference of each contender's map from the eager float32 map and from Fisura's
choice in grey levels
(0..255, on a smooth random scan tile and on noise; the output layer is rescaled so the logits
have standard deviation --logit-std, 1 by default: the map spans about 12..243), the set-up time (fold, trace, freeze,
optimise, three warm-up calls) and, for the TorchScript contenders, how many convolutions
became prepacked oneDNN calls (prim::mkldnn_convolution) and how many stayed ATen calls.

Contenders (`--only` takes these names):
  eager-fp32        eager, float32, NCHW, BatchNorm as trained (PyTorch's defaults)
  eager-fp32-cl-fold eager, float32, channels-last, BatchNorm folded (Fisura --precision fp32)
  eager-bf16-cl-fold eager, bf16 autocast, channels-last, BatchNorm folded (Fisura's choice)
  freeze-fp32       torch.jit.trace + torch.jit.freeze (freeze folds BatchNorm itself)
  ofi-fp32          + torch.jit.optimize_for_inference (oneDNN layout, fused conv + ReLU)
  ofi-fp32-cl       the same, input in channels-last
  ofi-fp32-fold     BatchNorm folded before tracing, then freeze + optimize_for_inference
  freeze-bf16-cl    module and input converted to bf16 (channels-last), traced, frozen
  ofi-bf16-cl       the same + optimize_for_inference
  ofi-bf16-cl-fold  BatchNorm folded first, bf16, channels-last, freeze + optimize_for_inference
(autocast inside a traced module is not folded by freeze, so bf16 means converting the module;
its transposed convolutions stay float32, as under autocast: this LibTorch has no bf16
ConvTranspose2d on the CPU.)
"""
import argparse, copy, ctypes, json, os, statistics, sys, time

os.environ.setdefault("GOMP_SPINCOUNT", "0")  # before libgomp loads, as Fisura's executables run

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
from torch.nn.utils.fusion import fuse_conv_bn_eval  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "peers"))
from fisura_unet import UNet  # noqa: E402


def tune_malloc(cores):
    """Fisura's mallopt() settings for tensor jobs (core/src/util/malloc_tuning.cpp)."""
    libc = ctypes.CDLL("libc.so.6")
    M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD, M_MMAP_MAX, M_ARENA_MAX = -1, -2, -3, -4, -8
    for k, v in ((M_MMAP_THRESHOLD, 32 << 20), (M_MMAP_MAX, 0), (M_TRIM_THRESHOLD, 1 << 30),
                 (M_TOP_PAD, 64 << 20), (M_ARENA_MAX, max(2, cores))):
        libc.mallopt(k, v)


def folded(net):
    """A copy with every Conv2d + BatchNorm2d pair of the DoubleConv blocks folded (eval)."""
    net = copy.deepcopy(net).eval()
    for m in net.modules():
        if isinstance(m, nn.Sequential):
            mods = list(m)
            out, i = [], 0
            while i < len(mods):
                if i + 1 < len(mods) and isinstance(mods[i], nn.Conv2d) and \
                        isinstance(mods[i + 1], nn.BatchNorm2d):
                    out.append(fuse_conv_bn_eval(mods[i], mods[i + 1]))
                    i += 2
                else:
                    out.append(mods[i])
                    i += 1
            for k in list(m._modules):
                del m._modules[k]
            for k, mod in enumerate(out):
                m.add_module(str(k), mod)
    return net


class Float32(nn.Module):
    """Runs the wrapped module in float32 inside a bf16 network: this LibTorch's bf16
    ConvTranspose2d on the CPU fails (it checks the weight as a convolution's), and autocast
    runs transposed convolutions in float32 too."""

    def __init__(self, m):
        super().__init__()
        self.m = m.float()

    def forward(self, x):
        return self.m(x.float()).to(x.dtype)


def to_bf16(net):
    """A bf16 copy whose transposed convolutions stay float32 (see Float32)."""
    net = copy.deepcopy(net).eval()
    for i in range(len(net.upconv)):
        net.upconv[i] = Float32(net.upconv[i])
    net = net.to(torch.bfloat16)
    for m in net.modules():
        if isinstance(m, Float32):
            m.m.float()
    return net


class Contender:
    """fn(x: float32 NCHW normalised) -> float32 probability map, and the one-time set-up cost."""

    def __init__(self, name, fn, setup_s, graph=None):
        self.name, self.fn, self.setup_s = name, fn, setup_s
        # What the TorchScript passes made of the network: prepacked oneDNN convolutions and
        # the ATen convolutions left (the 19 convolutions and 4 transposed ones of depth 4).
        self.convs = "–"
        if graph is not None:
            kinds = [n.kind() for n in graph.nodes()]
            other = sum(kinds.count(k) for k in ("aten::conv2d", "aten::_convolution",
                                                 "aten::conv_transpose2d"))
            self.convs = f"{kinds.count('prim::mkldnn_convolution')} / {other}"


def make(name, base, x):
    t0 = time.perf_counter()
    cl = torch.channels_last
    mod = None
    to_prob = lambda y: torch.sigmoid(y.float())  # noqa: E731
    if name == "eager-fp32":
        net = base
        fn = lambda x: to_prob(net(x))  # noqa: E731
    elif name in ("eager-fp32-cl-fold", "eager-bf16-cl-fold"):
        net = folded(base).to(memory_format=cl)
        bf16 = "bf16" in name

        def fn(x):
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                return to_prob(net(x.contiguous(memory_format=cl)))
    elif name in ("freeze-fp32", "ofi-fp32", "ofi-fp32-cl", "ofi-fp32-fold"):
        src = folded(base) if name.endswith("fold") else base
        fmt = cl if name.endswith("-cl") else torch.contiguous_format
        xi = x.contiguous(memory_format=fmt)
        mod = torch.jit.freeze(torch.jit.trace(copy.deepcopy(src).eval(), xi))
        if name.startswith("ofi"):
            mod = torch.jit.optimize_for_inference(mod)
        fn = lambda x: to_prob(mod(x.contiguous(memory_format=fmt)))  # noqa: E731
    elif name in ("freeze-bf16-cl", "ofi-bf16-cl", "ofi-bf16-cl-fold"):
        src = folded(base) if name.endswith("fold") else base
        src = to_bf16(src).to(memory_format=cl)
        xi = x.to(torch.bfloat16).contiguous(memory_format=cl)
        mod = torch.jit.freeze(torch.jit.trace(src, xi))
        if name.startswith("ofi"):
            mod = torch.jit.optimize_for_inference(mod)
        fn = lambda x: to_prob(mod(x.to(torch.bfloat16).contiguous(memory_format=cl)))  # noqa: E731
    else:
        raise SystemExit(f"unknown contender {name}")
    for _ in range(3):  # warm-up: the profiling executor specialises on the first calls
        fn(x)
    return Contender(name, fn, time.perf_counter() - t0, mod.graph if mod is not None else None)


NAMES = ["eager-fp32", "eager-fp32-cl-fold", "eager-bf16-cl-fold", "freeze-fp32", "ofi-fp32",
         "ofi-fp32-cl", "ofi-fp32-fold", "freeze-bf16-cl", "ofi-bf16-cl", "ofi-bf16-cl-fold"]
FISURA = "eager-bf16-cl-fold"


def spread_logits(net, x, std):
    """Rescales the output convolution so the logits on `x` have mean 0 and standard deviation
    `std`: random weights give logits within a few hundredths, whose sigmoid would hide precision
    differences; a trained crack map spans most of the 0..255 range. The factor multiplies the
    rounding errors of the features as well (bf16: about 0.4 % of each value)."""
    with torch.no_grad():
        y = net(x)
        s = std / float(y.std())
        net.out.weight.mul_(s)
        net.out.bias.sub_(float(y.mean())).mul_(s)
    return s


def inputs(a):
    """Two normalised tiles: a smooth random 'scan' with thin dark lines, and uniform noise."""
    g = torch.Generator().manual_seed(7)
    T = a.tile
    smooth = torch.nn.functional.interpolate(torch.rand(a.batch, 3, T // 32, T // 32, generator=g),
                                             size=(T, T), mode="bilinear", align_corners=False)
    yy = torch.arange(T).view(T, 1)
    xx = torch.arange(T).view(1, T)
    crack = ((yy - (xx * 0.7 + T * 0.2)).abs() < 2).float()
    smooth = (smooth * 0.6 + 0.3 - 0.35 * crack).clamp(0, 1)
    noise = torch.rand(a.batch, 3, T, T, generator=g)
    return [(t - 0.5) / 0.25 for t in (smooth, noise)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--width", type=int, default=16)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--tile", type=int, default=512)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--reps", type=int, default=4)
    p.add_argument("--only", default="")
    p.add_argument("--logit-std", type=float, default=1.0)
    p.add_argument("--glibc-defaults", action="store_true")
    p.add_argument("--json", default="")
    a = p.parse_args()
    if not a.glibc_defaults:
        tune_malloc(os.cpu_count() or 1)
    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(1)
    base = UNet(a.depth, a.width).eval()
    # Random BatchNorm statistics, so folding has something to fold and the logits spread.
    for m in base.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)
    names = a.only.split(",") if a.only else NAMES
    xs = inputs(a)
    scale = spread_logits(base, xs[0], a.logit_std)
    mp = a.batch * a.tile * a.tile / 1e6
    with torch.inference_mode():
        ref = [torch.sigmoid(base(x).float()) for x in xs]
        cons, failed = [], {}
        for n in names:
            try:
                cons.append(make(n, base, xs[0]))
            except Exception as e:  # noqa: BLE001 - a path that does not work is a result
                failed[n] = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
                print(f"{n}: failed: {failed[n]}", file=sys.stderr)
        maps = {c.name: [c.fn(x) for x in xs] for c in cons}
        grey = {n: max(float(((m - r) * 255).abs().max()) for m, r in zip(ms, ref))
                for n, ms in maps.items()}
        fis = maps.get(FISURA)
        grey_f = {n: max(float(((m - r) * 255).abs().max()) for m, r in zip(ms, fis)) if fis else
                  float("nan") for n, ms in maps.items()}
        times = {c.name: [] for c in cons}
        for r in range(a.rounds):
            for c in cons:
                ts = []
                for _ in range(a.reps):
                    t0 = time.perf_counter()
                    c.fn(xs[0])
                    ts.append(time.perf_counter() - t0)
                times[c.name].append(statistics.median(ts))
                print(f"round {r + 1}: {c.name}: {mp / times[c.name][-1]:.3f} MP/s",
                      file=sys.stderr, flush=True)
    rates = {n: [mp / t for t in ts] for n, ts in times.items()}
    med = {n: statistics.median(v) for n, v in rates.items()}
    base_rate = med.get(FISURA)
    hdr = " | ".join(f"round {i + 1}" for i in range(a.rounds))
    print(f"| contender | {hdr} | median MP/s | / Fisura's choice | max diff, grey levels: vs eager fp32 / vs Fisura's choice | set-up s | convolutions: oneDNN prepacked / ATen |")
    print(f"|---|{'---:|' * a.rounds}---:|---:|---:|---:|---:|")
    for c in cons:
        cells = " | ".join(f"{v:.3f}" for v in rates[c.name])
        ratio = f"{med[c.name] / base_rate:.2f}x" if base_rate else "–"
        print(f"| {c.name} | {cells} | **{med[c.name]:.3f}** | {ratio} | {grey[c.name]:.2f} / {grey_f[c.name]:.2f} | {c.setup_s:.1f} | {c.convs} |")
    for n, e in failed.items():
        print(f"| {n} | failed: {e} |")
    print(f"\n{a.threads} threads, batch {a.batch} x {a.tile}², {a.rounds} rounds x {a.reps} timed calls, "
          f"output layer x{scale:.0f}, torch {torch.__version__}")
    if a.json:
        with open(a.json, "a") as f:
            for c in cons:
                f.write(json.dumps({"contender": c.name, "mp_s": rates[c.name], "median": med[c.name],
                                    "grey": grey[c.name], "grey_vs_fisura": grey_f[c.name],
                                    "setup_s": c.setup_s,
                                    "threads": a.threads, "batch": a.batch, "tile": a.tile}) + "\n")


if __name__ == "__main__":
    main()
