"""Train the marks reader (numbers, letters, underline, cross-out) and export it to ONNX.

Usage::

    python scripts/train_digits.py --n-train 120000 --epochs 6 --out models/marks_ctc.onnx

Needs the ``train`` extra (torch). The exported model runs at read time with OpenCV's dnn
module (:mod:`aggression_vision.vision.digits`); torch is never imported there.

Forgetting guard (``--distill TEACHER.pt``): fine-tune while keeping the network's outputs
(per-column CTC posteriors and the marks head) close, in KL, to the frozen teacher's on
guard crops like real handwriting (:func:`marks_data.make_guard_batch`: MNIST 0-7999 and
print-font digits, alone and in pairs, no marks, some turned), where the teacher reads them
right. Every continuation without it read synthetic photos better and real sudoku pencil
digits worse (models/marks_ctc.md).

Data: :mod:`marks_data` (next to this script) renders crops from MNIST 0-7999, TTF fonts,
Hershey fonts and, when present, the project's handwriting renderer. Training seeds are
``seed * 1000 + chunk``; the evaluation crops of ``scripts/eval_marks.py`` use seeds from
``900_000`` up, never used here.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import marks_data as md
import numpy as np
import torch
from torch import nn

from aggression_vision.vision.digits import ALPHABET, INPUT_H, INPUT_W, encode

N_CLASSES = len(ALPHABET) + 1


class MarkNetTorch(nn.Module):
    """Fully convolutional CTC reader with a global underline/cross-out head.

    Input (N, 1, 32, 128); outputs ``logits`` (N, 32, 37): per column of width 4, scores
    over blank + ALPHABET; ``marks`` (N, 2): logits of (underlined, crossed).
    """

    def __init__(self, c: tuple[int, int, int, int] = (16, 32, 48, 96)) -> None:
        super().__init__()
        c1, c2, c3, c4 = c

        def block(i, o):
            return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

        self.features = nn.Sequential(
            *block(1, c1),
            nn.MaxPool2d(2),  # 16 x 64
            *block(c1, c2),
            nn.MaxPool2d(2),  # 8 x 32
            *block(c2, c3),
            *block(c3, c3),
            nn.MaxPool2d((2, 1)),  # 4 x 32
        )
        self.collapse = nn.Sequential(
            nn.Conv2d(c3, c4, (4, 1), bias=False), nn.BatchNorm2d(c4), nn.ReLU()
        )  # 1 x 32
        self.context = nn.Sequential(
            nn.Conv2d(c4, c4, (1, 5), padding=(0, 2), bias=False), nn.BatchNorm2d(c4), nn.ReLU()
        )
        self.drop = nn.Dropout(0.15)
        self.head = nn.Conv2d(c4, N_CLASSES, 1)
        self.marks = nn.Sequential(nn.Linear(2 * c3, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, x):
        f = self.features(x)
        g = torch.cat([f.mean(dim=(2, 3)), f.amax(dim=(2, 3))], dim=1)
        marks = self.marks(g)
        h = self.context(self.collapse(f))
        logits = self.head(self.drop(h))  # N, C, 1, T
        logits = logits.squeeze(2).permute(0, 2, 1)  # N, T, C
        return logits, marks


def _chunk(args):
    seed, n, crossed_share, pair_share = args
    samples = md.make_batch(seed, n, crossed_share=crossed_share, pair_share=pair_share)
    x = np.stack([s.x for s in samples])
    x = (x * 255).round().astype(np.uint8)
    texts = [s.text for s in samples]
    marks = np.array([[s.underlined, s.crossed] for s in samples], np.float32)
    kinds = [s.kind for s in samples]
    return x, texts, marks, kinds


def generate(
    seed: int,
    n: int,
    workers: int,
    chunk: int = 2000,
    crossed_share: float = 0.0,
    pair_share: float = 0.0,
):
    """``n`` samples in chunks with seeds ``seed * 1000 + i`` (deterministic per seed);
    ``crossed_share`` of them crossed-out numbers, ``pair_share`` two-digit numbers with
    overlapping digits (:func:`marks_data.make_sample`)."""
    jobs = [
        (seed * 1000 + i, min(chunk, n - i * chunk), crossed_share, pair_share)
        for i in range((n + chunk - 1) // chunk)
    ]
    with ProcessPoolExecutor(workers) as ex:
        parts = list(ex.map(_chunk, jobs))
    x = np.concatenate([p[0] for p in parts])
    texts = [t for p in parts for t in p[1]]
    marks = np.concatenate([p[2] for p in parts])
    kinds = [k for p in parts for k in p[3]]
    return x, texts, marks, kinds


def load_or_generate(
    cache: Path,
    seed: int,
    n: int,
    workers: int,
    crossed_share: float = 0.0,
    pair_share: float = 0.0,
):
    if cache.is_file():
        d = np.load(cache, allow_pickle=False)
        return d["x"], list(d["texts"]), d["marks"], list(d["kinds"])
    t = time.time()
    x, texts, marks, kinds = generate(
        seed, n, workers, crossed_share=crossed_share, pair_share=pair_share
    )
    print(f"generated {n} samples in {time.time() - t:.0f} s", flush=True)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, x=x, texts=np.array(texts), marks=marks, kinds=np.array(kinds))
    return x, texts, marks, kinds


def _guard_chunk(args):
    seed, n = args
    x, texts, turns = md.make_guard_batch(seed, n)
    return (x * 255).round().astype(np.uint8), texts, turns


def load_or_generate_guard(cache: Path, seed: int, n: int, workers: int, low: float):
    """Guard crops (uint8 inputs), texts and turns; ``low`` of them at low resolution.

    Seeds ``500_000 + seed * 1000 + chunk``: apart from the training (below 100_000) and
    evaluation (900_000 up) crops.
    """
    if cache.is_file():
        d = np.load(cache, allow_pickle=False)
        return d["x"], list(d["texts"]), list(d["turns"])
    t = time.time()
    chunk = 2000
    jobs = [
        (500_000 + seed * 1000 + i, min(chunk, n - i * chunk))
        for i in range((n + chunk - 1) // chunk)
    ]
    with ProcessPoolExecutor(workers) as ex:
        parts = list(ex.map(_guard_chunk, jobs))
    x = np.concatenate([p[0] for p in parts])
    texts = [t for p in parts for t in p[1]]
    turns = [t for p in parts for t in p[2]]
    # The reader scales small writing up: the guard sees that blur too (fixed, once).
    rng = np.random.default_rng(500_000 + seed)
    xf = torch.from_numpy(x).float().div_(255.0).unsqueeze(1)
    for b in range(0, len(x), 256):
        xf[b : b + 256] = lowres(xf[b : b + 256], rng, low)
    x = (xf.squeeze(1).numpy() * 255).round().astype(np.uint8)
    print(f"generated {n} guard crops in {time.time() - t:.0f} s", flush=True)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, x=x, texts=np.array(texts), turns=np.array(turns))
    return x, texts, turns


def teacher_targets(teacher: nn.Module, x: np.ndarray, texts, turns, lone_weight: float):
    """The teacher's log posteriors and mark probabilities on the guard crops, and weights.

    Upright crops the teacher misreads get weight 0 (only where it is right must the new
    network stay); lone 1s and 2s (the digits earlier continuations lost on real sudoku
    photos) get ``lone_weight``; turned crops 1 (how each turn reads decides a page's
    orientation).
    """
    from aggression_vision.vision.marks import best_readings

    teacher.eval()
    lps, qs = [], []
    with torch.no_grad():
        for b in range(0, len(x), 512):
            xb = torch.from_numpy(x[b : b + 512]).float().div_(255.0).unsqueeze(1)
            lg, mk = teacher(xb)
            lps.append(lg.log_softmax(2))
            qs.append(torch.sigmoid(mk))
    lp = torch.cat(lps)
    q = torch.cat(qs)
    read, _ = best_readings(lp.numpy())
    w = np.ones(len(x), np.float32)
    for i, (t, r, turn) in enumerate(zip(texts, read, turns, strict=True)):
        if turn == 0 and r != t:
            w[i] = 0.0
        elif turn == 0 and t in ("1", "2"):
            w[i] = lone_weight
    up = np.asarray(turns) == 0
    print(
        f"guard: {len(x)} crops, teacher right on {int((w[up] > 0).sum())}/{int(up.sum())} "
        f"upright ones",
        flush=True,
    )
    return lp, q, torch.from_numpy(w)


def state_from_onnx(path: Path, model: nn.Module) -> dict[str, torch.Tensor]:
    """A state dict for ``model`` rebuilt from its ONNX export (the shipped networks'
    state dicts are lost).

    The export folds each batch norm into the convolution before it: the initializers
    hold, in the layers' order, the heads' parameters by name and each convolution's
    folded weight and bias. The convolution takes the folded weight; its batch norm
    becomes the identity plus the folded bias (running mean 0, variance 1). Exact in eval
    mode: fine-tune with ``--freeze-bn``, or the batch statistics change every output.
    """
    import onnx
    from onnx import numpy_helper

    inits = onnx.load(str(path)).graph.initializer
    named = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in inits}
    folded = [named[i.name] for i in inits if i.name.startswith("onnx::Conv")]
    state = model.state_dict()
    out: dict[str, torch.Tensor] = {}
    convs = [
        k[: -len(".weight")]
        for k, v in state.items()
        if k.endswith(".weight") and v.dim() == 4 and not k.startswith("head")
    ]
    assert len(folded) == 2 * len(convs), (len(folded), convs)
    for j, conv in enumerate(convs):
        mod, idx = conv.rsplit(".", 1)
        bn = f"{mod}.{int(idx) + 1}"
        w, b = folded[2 * j], folded[2 * j + 1]
        eps = 1e-5
        out[f"{conv}.weight"] = w
        out[f"{bn}.weight"] = torch.full_like(b, float(np.sqrt(1 + eps)))
        out[f"{bn}.bias"] = b
        out[f"{bn}.running_mean"] = torch.zeros_like(b)
        out[f"{bn}.running_var"] = torch.ones_like(b)
        out[f"{bn}.num_batches_tracked"] = torch.tensor(0)
    for k in state:
        if k not in out:
            out[k] = named[k]
    return out


def _freeze_bn(model: nn.Module) -> None:
    """Batch-norm layers in eval mode: their statistics stay the teacher's."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def train(args):
    torch.manual_seed(args.seed)
    name = f"train_s{args.seed}_n{args.n_train}"
    if args.crossed_share > 0:
        name += f"_x{args.crossed_share:g}"
    if args.pair_share > 0:
        name += f"_p{args.pair_share:g}"
    x, texts, marks, _ = load_or_generate(
        Path(args.cache) / f"{name}.npz",
        args.seed,
        args.n_train,
        args.workers,
        args.crossed_share,
        args.pair_share,
    )
    if args.extra:
        for extra in args.extra:
            d = np.load(extra, allow_pickle=False)
            x = np.concatenate([x, d["x"]])
            texts = texts + list(d["texts"])
            marks = np.concatenate([marks, d["marks"]])
    n = len(texts)
    targets = [torch.tensor(encode(t), dtype=torch.long) for t in texts]
    model = MarkNetTorch()
    if args.init.endswith(".onnx"):
        model.load_state_dict(state_from_onnx(Path(args.init), model))
    elif args.init:
        model.load_state_dict(torch.load(args.init))
    if args.text_only:
        # The trunk and the underline/cross-out head stay as they are (bit for bit in the
        # export): only the text head (collapse, context, head) learns.
        for p in [*model.features.parameters(), *model.marks.parameters()]:
            p.requires_grad_(False)
    n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"{n} samples, {n_params} parameters trained", flush=True)
    guard = None
    if args.distill:
        teacher = MarkNetTorch()
        teacher.load_state_dict(torch.load(args.distill))
        gx, gtexts, gturns = load_or_generate_guard(
            Path(args.cache) / f"guard_s{args.seed}_n{args.guard_n}.npz",
            args.seed,
            args.guard_n,
            args.workers,
            args.lowres,
        )
        glp, gq, gw = teacher_targets(teacher, gx, gtexts, gturns, args.lone_weight)
        keep = np.flatnonzero(gw.numpy() > 0)
        # The teacher's own entropy, so that the marks term logs as a KL (0 when equal).
        qc = gq.clamp(1e-7, 1 - 1e-7)
        gh = -(qc * qc.log() + (1 - qc) * (1 - qc).log())
        guard = (torch.from_numpy(gx[keep]), glp[keep], gq[keep], gw[keep], gh[keep])
        del teacher
    opt = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad], lr=args.lr, weight_decay=1e-4
    )
    steps = args.epochs * (n // args.batch)
    # With a time limit the number of steps is unknown in advance: the learning rate then
    # follows the same one-cycle shape over the elapsed fraction of the time budget (or of
    # the epochs, when they end first) instead.
    budget = args.max_minutes * 60.0
    sched = (
        None
        if budget > 0
        else torch.optim.lr_scheduler.OneCycleLR(
            opt, max_lr=args.lr, total_steps=steps, pct_start=0.15
        )
    )
    t_start = time.time()
    out_of_time = False
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    bce = nn.BCEWithLogitsLoss()
    rng = np.random.default_rng(args.seed)
    xt = torch.from_numpy(x)
    mt = torch.from_numpy(marks)
    step = 0
    for epoch in range(args.epochs):
        model.train()
        if args.freeze_bn:
            _freeze_bn(model)
        elif args.text_only:
            # (A frozen trunk keeps its batch statistics too: its export stays bit for bit.)
            _freeze_bn(model.features)
        order = rng.permutation(n)
        t0 = time.time()
        tot = 0.0
        gtot = 0.0
        for b in range(n // args.batch):
            if budget > 0:
                # Whichever runs out first, the time or the epochs, ends the schedule.
                frac = max((time.time() - t_start) / budget, step / steps)
                if frac >= 1.0:
                    out_of_time = True
                    break
                for group in opt.param_groups:
                    group["lr"] = timed_lr(args.lr, frac)
            idx = order[b * args.batch : (b + 1) * args.batch]
            xb = xt[idx].float().div_(255.0).unsqueeze(1)
            if args.lowres > 0:
                xb = lowres(xb, rng, args.lowres)
            tb = [targets[i] for i in idx]
            tl = torch.tensor([len(t) for t in tb], dtype=torch.long)
            flat = torch.cat(tb) if int(tl.sum()) > 0 else torch.zeros(0, dtype=torch.long)
            nb = len(idx)
            if guard is not None:
                gi = torch.from_numpy(rng.integers(len(guard[0]), size=args.guard_batch))
                xb = torch.cat([xb, guard[0][gi].float().div_(255.0).unsqueeze(1)])
            logits, mk = model(xb)
            lp = logits[:nb].log_softmax(2).permute(1, 0, 2)  # T, N, C
            il = torch.full((nb,), lp.shape[0], dtype=torch.long)
            loss = ctc(lp, flat, il, tl)
            if not args.text_only:
                loss = loss + 0.5 * bce(mk[:nb], mt[idx])
            if guard is not None:
                # KL(teacher || student) per column, summed over the columns; the marks
                # head's soft-target BCE less the teacher's entropy is its binary KL.
                lps = logits[nb:].log_softmax(2)
                tlp = guard[1][gi]
                kl = (tlp.exp() * (tlp - lps)).sum(dim=(1, 2))
                q = guard[2][gi]
                kl_marks = (
                    nn.functional.binary_cross_entropy_with_logits(mk[nb:], q, reduction="none")
                    - guard[4][gi]
                ).sum(1)
                g = (guard[3][gi] * (kl + kl_marks)).mean()
                loss = loss + args.guard_weight * g
                gtot += float(g.detach())
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched is not None:
                sched.step()
            step += 1
            tot += float(loss.detach())
            if b % 200 == 0:
                print(
                    f"epoch {epoch} batch {b} loss {tot / (b + 1):.4f} "
                    f"guard {gtot / (b + 1):.4f} {time.time() - t0:.0f}s",
                    flush=True,
                )
        mean = tot / max(1, b if out_of_time else n // args.batch)
        print(
            f"epoch {epoch} {'stopped (time limit)' if out_of_time else 'done'} after "
            f"{b} batches, {step} steps in all, loss {mean:.4f} in {time.time() - t0:.0f}s",
            flush=True,
        )
        torch.save(model.state_dict(), Path(args.save or Path(args.cache) / "last.pt"))
        export(model, Path(args.out))
        if args.keep_epochs:
            out = Path(args.out)
            export(model, out.with_name(f"{out.stem}_e{epoch}{out.suffix}"))
        if out_of_time:
            break
    return model


def timed_lr(peak: float, frac: float, warm: float = 0.15) -> float:
    """One-cycle learning rate at fraction ``frac`` of the time budget.

    Linear warm-up from ``peak / 25`` over the first ``warm`` of the budget, then cosine
    decay towards ``peak / 1e4`` (the shape of torch's OneCycleLR defaults).
    """
    lo, end = peak / 25.0, peak / 1e4
    if frac < warm:
        return lo + (peak - lo) * frac / warm
    t = min(1.0, (frac - warm) / (1.0 - warm))
    return end + (peak - end) * 0.5 * (1.0 + np.cos(np.pi * t))


def lowres(xb: torch.Tensor, rng: np.random.Generator, p: float) -> torch.Tensor:
    """Simulate small writing: part of the batch down-sampled (to 8-20 px high ink) and back.

    At read time a number only 8-20 px high in the working image is scaled up to the
    network's height; this makes training see the same blur and loss of detail.
    """
    sel = torch.from_numpy(rng.random(xb.shape[0]) < p)
    if not bool(sel.any()):
        return xb
    s = float(rng.uniform(0.3, 0.75))
    sub = xb[sel]
    small = nn.functional.interpolate(sub, scale_factor=s, mode="area")
    back = nn.functional.interpolate(
        small, size=(INPUT_H, INPUT_W), mode="bilinear", align_corners=False
    )
    xb = xb.clone()
    xb[sel] = back
    return xb


def export(model: nn.Module, out: Path) -> None:
    """Export to ONNX in the form OpenCV dnn loads (legacy exporter, opset 17)."""
    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(2, 1, INPUT_H, INPUT_W)
    torch.onnx.export(
        model,
        (dummy,),
        str(out),
        dynamo=False,
        opset_version=17,
        input_names=["x"],
        output_names=["logits", "marks"],
        dynamic_axes={"x": {0: "N"}, "logits": {0: "N"}, "marks": {0: "N"}},
    )
    print(f"exported {out} ({out.stat().st_size} bytes)", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n-train", type=int, default=120_000)
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--cache", default="/tmp/marks_train")
    p.add_argument(
        "--out", default=str(Path(__file__).resolve().parents[1] / "models" / "marks_ctc.onnx")
    )
    p.add_argument("--lowres", type=float, default=0.4, help="share of low-resolution samples")
    p.add_argument(
        "--init", default="", help="state dict (or exported .onnx) to start from (fine-tuning)"
    )
    p.add_argument(
        "--crossed-share",
        type=float,
        default=0.0,
        help="share of generated crops that are crossed-out numbers (the specialist's data)",
    )
    p.add_argument(
        "--pair-share",
        type=float,
        default=0.0,
        help="share of generated crops that are two-digit numbers with overlapping digits",
    )
    p.add_argument(
        "--keep-epochs", action="store_true", help="also export each epoch as OUT_eN.onnx"
    )
    p.add_argument(
        "--max-minutes",
        type=float,
        default=0.0,
        help="stop training after this many minutes (lr schedule spread over the time)",
    )
    p.add_argument("--save", default="", help="state dict path (default: CACHE/last.pt)")
    p.add_argument("--extra", nargs="*", default=[], help="more .npz sample files to train on")
    p.add_argument("--distill", default="", help="teacher state dict: the forgetting guard")
    p.add_argument("--guard-n", type=int, default=40_000, help="guard crops")
    p.add_argument("--guard-batch", type=int, default=64, help="guard crops per step")
    p.add_argument("--guard-weight", type=float, default=2.0, help="weight of the guard's KL")
    p.add_argument("--lone-weight", type=float, default=3.0, help="KL weight of lone 1s, 2s")
    p.add_argument("--freeze-bn", action="store_true", help="keep batch-norm statistics")
    p.add_argument(
        "--text-only",
        action="store_true",
        help="train the text head only (trunk and underline/cross-out head frozen)",
    )
    p.add_argument("--threads", type=int, default=2, help="torch threads")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    train(args)


if __name__ == "__main__":
    main()
