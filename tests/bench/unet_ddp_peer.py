"""The PyTorch peer of Fisura's data-parallel training (gpu_multi_train.sh): the U-Net, loss, AdamW,
clipping and one-cycle schedule of unet_train_peer.py under DistributedDataParallel (NCCL,
gradient_as_bucket_view, 25 MB buckets), one process per GPU started by torchrun:
    torchrun --nproc-per-node N tests/bench/unet_ddp_peer.py --data D --batch 64 [--in-memory]
--batch is per GPU. Rank 0 prints one JSON line with the job's images/s (all GPUs)."""
import argparse, json, os, sys, time

import torch
import torch.distributed as dist
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from fisura_unet import UNet  # noqa: E402
from unet_train_peer import CrackCrops, augment_on_device, lr_at  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=64, help="per GPU")
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--workers", type=int, default=8, help="per GPU")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--in-memory", action="store_true", help="one batch kept on each GPU")
    ap.add_argument("--report-seconds", type=float, default=0.5)
    a = ap.parse_args()

    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    local = int(os.environ.get("LOCAL_RANK", rank))
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    torch.manual_seed(1)
    net = UNet(a.depth, a.width).to(dev).to(memory_format=torch.channels_last)
    ddp = torch.nn.parallel.DistributedDataParallel(net, device_ids=[local], gradient_as_bucket_view=True)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4, fused=True)
    ds = CrackCrops(a.data, a.size, gpu_aug=True)
    sampler = torch.utils.data.distributed.DistributedSampler(ds, shuffle=True, drop_last=True)
    dl = torch.utils.data.DataLoader(ds, batch_size=a.batch, sampler=sampler, drop_last=True,
                                     num_workers=a.workers, pin_memory=True, persistent_workers=a.workers > 0)
    mean = torch.full((1, 3, 1, 1), 0.5 * 255, device=dev)
    std = torch.full((1, 3, 1, 1), 0.25 * 255, device=dev)
    per_epoch = len(dl)
    total = a.epochs * per_epoch * a.batch * world
    cached = None
    if a.in_memory:
        img, mask = next(iter(dl))
        cached = [(img.to(dev), mask.to(dev))] * per_epoch
    seen, rates, losses = 0, [], []
    for ep in range(a.epochs):
        sampler.set_epoch(ep)
        ddp.train()
        dist.barrier()
        torch.cuda.synchronize()
        t0 = last = time.perf_counter()
        n = 0
        for img, mask in (cached if cached is not None else dl):
            for g in opt.param_groups:
                g["lr"] = lr_at(1e-3, seen / total)
            x, t = augment_on_device(img.to(dev, non_blocking=True), mask.to(dev, non_blocking=True))
            x = ((x.permute(0, 3, 1, 2).float() - mean) / std).contiguous(memory_format=torch.channels_last)
            t = t.unsqueeze(1).float()
            with torch.autocast("cuda", dtype=torch.bfloat16):
                out = ddp(x)
            logits = out.float()
            p = torch.sigmoid(logits)
            loss = F.binary_cross_entropy_with_logits(logits, t) + \
                1 - (2 * (p * t).sum() + 1) / (p.sum() + t.sum() + 1)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            if time.perf_counter() - last >= a.report_seconds:
                loss.item()
                last = time.perf_counter()
            n += img.shape[0] * world
            seen += img.shape[0] * world
        torch.cuda.synchronize()
        dist.barrier()
        rates.append(n / (time.perf_counter() - t0))
        losses.append(loss.item())
    if rank == 0:
        steady = rates[1:] if len(rates) > 1 else rates
        print(json.dumps({"peer": "pytorch-ddp", "torch": torch.__version__, "world": world,
                          "batch_per_gpu": a.batch, "in_memory": a.in_memory,
                          "epoch_images_per_second": rates, "epoch_loss": losses,
                          "images_per_second": sum(steady) / len(steady),
                          "device": torch.cuda.get_device_name(local)}), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
