"""Converted zoo models against a hand port in plain torch: train step, eval, torch.compile.

For each model (Gluon's resnet18_v1 and mobilenetv2_1.0 as the runtime builds them,
`_mx_vision_get_model`), a hand port in plain torch (nn.Conv2d, nn.BatchNorm2d, nn.ReLU6,
nn.Linear: what a person porting Gluon's model zoo by hand writes; the same modules in the
same order) gets the converted model's weights position by position (shapes checked), and the
two must give the same eval outputs before anything is timed. Then, in one process, the two
are timed alternately (warm-up first, median of N): a train step (forward, cross-entropy,
backward, SGD step) and an eval forward under no_grad. Prints converted / hand for each.
Last, for each converted model: `torch._dynamo.explain(model)(x).graph_break_count` and
whether `torch.compile(model)(x)` runs (in training mode, with a backward).

    PYTHONPATH=$PWD .venv/bin/python bench/speed_vs_hand_port.py [--size 224] [--batch 8] [-n 9]
        [--before /path/to/a/worktree/of/the/old/commit] [--no-compile]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from xlate.runtime import load  # noqa: E402


# -- hand ports: Gluon's structure in plain torch --------------------------------------------
class HandBasicBlockV1(nn.Module):
    """Gluon's BasicBlockV1: the stride on the first 3x3 conv and on the 1x1 downsample."""

    def __init__(self, in_channels, channels, stride, downsample):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(in_channels, channels, 3, stride, 1, bias=False), nn.BatchNorm2d(channels), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, 1, 1, bias=False), nn.BatchNorm2d(channels))
        self.downsample = None
        if downsample:
            self.downsample = nn.Sequential(nn.Conv2d(in_channels, channels, 1, stride, bias=False),
                                            nn.BatchNorm2d(channels))

    def forward(self, x):
        residual = x if self.downsample is None else self.downsample(x)
        return torch.relu(residual + self.body(x))


class HandResNet18V1(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        channels = [64, 64, 128, 256, 512]
        self.features = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
                                      nn.MaxPool2d(3, 2, 1))
        for i in range(4):
            stride = 1 if i == 0 else 2
            cin, c = channels[i], channels[i + 1]
            self.features.append(nn.Sequential(HandBasicBlockV1(cin, c, stride, c != cin),
                                               HandBasicBlockV1(c, c, 1, False)))
        self.features.append(nn.AdaptiveAvgPool2d(1))
        self.output = nn.Linear(512, classes)

    def forward(self, x):
        return self.output(self.features(x).flatten(1))


def _conv_bn(out, cin, cout, kernel=1, stride=1, pad=0, groups=1, active=True):
    out.append(nn.Conv2d(cin, cout, kernel, stride, pad, groups=groups, bias=False))
    out.append(nn.BatchNorm2d(cout))
    if active:
        out.append(nn.ReLU6())


class HandLinearBottleneck(nn.Module):
    def __init__(self, cin, c, t, stride):
        super().__init__()
        self.use_shortcut = stride == 1 and cin == c
        self.out = nn.Sequential()
        _conv_bn(self.out, cin, cin * t)
        _conv_bn(self.out, cin * t, cin * t, 3, stride, 1, groups=cin * t)
        _conv_bn(self.out, cin * t, c, active=False)

    def forward(self, x):
        out = self.out(x)
        return out + x if self.use_shortcut else out


class HandMobileNetV2(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        self.features = nn.Sequential()
        _conv_bn(self.features, 3, 32, 3, 2, 1)
        cins = [32, 16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3
        couts = [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3 + [320]
        ts = [1] + [6] * 16
        strides = [1, 2] * 2 + [1, 1, 2] + [1] * 6 + [2] + [1] * 3
        for cin, c, t, s in zip(cins, couts, ts, strides):
            self.features.append(HandLinearBottleneck(cin, c, t, s))
        _conv_bn(self.features, 320, 1280)
        self.features.append(nn.AdaptiveAvgPool2d(1))
        self.output = nn.Sequential(nn.Conv2d(1280, classes, 1, bias=False), nn.Flatten())

    def forward(self, x):
        return self.output(self.features(x))


MODELS = [("resnet18_v1", HandResNet18V1), ("mobilenetv2_1.0", HandMobileNetV2)]


def copy_weights(converted, hand):
    """The converted model's state, position by position (the modules are in the same order)."""
    src, dst = converted.state_dict(), hand.state_dict()
    assert len(src) == len(dst), (len(src), len(dst))
    with torch.no_grad():
        for (ks, vs), (kd, vd) in zip(src.items(), dst.items()):
            assert vs.shape == vd.shape, (ks, kd, vs.shape, vd.shape)
            vd.copy_(vs)


def randomise(model, seed):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, t in model.state_dict().items():
            if t.is_floating_point():
                if name.endswith("running_var"):
                    t.copy_(torch.rand(t.shape, generator=g) + 0.5)
                elif name.endswith(("weight",)) and t.dim() == 1:
                    t.copy_(torch.rand(t.shape, generator=g) + 0.5)
                else:
                    t.copy_(torch.randn(t.shape, generator=g) * (2.0 / max(1, t[0].numel())) ** 0.5)


def train_step(model, opt, x, y):
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()


CLOCK = time.perf_counter


def timed(fn):
    start = CLOCK()
    fn()
    return CLOCK() - start


def alternate(fns, n, warmup):
    """The median time of each function, called in turn (a b c a b c ...) after the warm-up."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times = [[] for _ in fns]
    for _ in range(n):
        for fn, t in zip(fns, times):
            t.append(timed(fn))
    return [statistics.median(t) for t in times]


def load_runtime(root):
    """Every helper of the xlate checkout at `root` (another commit's runtime, for a before/after
    comparison in the same process)."""
    import importlib.util

    init = Path(root) / "xlate" / "runtime" / "__init__.py"
    spec = importlib.util.spec_from_file_location("xlate_runtime_before", init,
                                                  submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.load()


def graph_breaks(model, x, compile_too):
    import torch._dynamo as dynamo

    dynamo.reset()
    model.train()
    breaks = dynamo.explain(model)(x).graph_break_count
    ran = "skipped"
    if compile_too:
        dynamo.reset()
        try:
            torch.compile(model)(x).sum().backward()
            ran = "yes"
        except Exception as e:  # noqa: BLE001 - reported, not raised
            ran = f"no: {type(e).__name__}: {str(e).splitlines()[0][:120]}"
    return breaks, ran


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=224)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("-n", type=int, default=9, help="timed repeats of each (median)")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--models", default=",".join(name for name, _ in MODELS))
    parser.add_argument("--no-compile", action="store_true", help="skip the torch.compile run (dynamo explain only)")
    parser.add_argument("--no-dynamo", action="store_true", help="skip the dynamo part altogether")
    parser.add_argument("--before", metavar="CHECKOUT", help="also time the converted model built by the runtime "
                        "of another xlate checkout (a worktree of the commit before a change), same weights")
    parser.add_argument("--threads", type=int, help="torch.set_num_threads (default: torch's)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="cpu: the process's CPU time (steadier on a machine others share; use --threads 1)")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.threads:
        torch.set_num_threads(args.threads)
    rt = load()
    rt_before = load_runtime(args.before) if args.before else None
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, batch {args.batch}, "
          f"{args.size}x{args.size}, median of {args.n} after {args.warmup} warm-up, alternating, {args.clock} clock")
    wanted = args.models.split(",")
    rows = []
    for name, hand_cls in MODELS:
        if name not in wanted:
            continue
        x = torch.randn(args.batch, 3, args.size, args.size)
        y = torch.randint(0, 1000, (args.batch,))
        conv = rt._mx_vision_get_model(name)
        with torch.no_grad():
            conv.eval()
            conv(x[:1])  # fixes the deferred sizes
        randomise(conv, 1)
        hand = hand_cls()
        copy_weights(conv, hand)
        conv.eval()
        hand.eval()
        with torch.no_grad():
            a, b = conv(x), hand(x)
        err = (a - b).abs().max().item() / max(1e-12, b.abs().max().item())
        assert err < 1e-4, f"{name}: converted and hand port differ (relative {err:.2e})"
        models = [conv, hand]
        if rt_before is not None:
            before = rt_before._mx_vision_get_model(name)
            with torch.no_grad():
                before.eval()(x[:1])
            before.load_state_dict(conv.state_dict())
            models.append(before)
        steps = []
        for m in models:
            m.train()
            opt = torch.optim.SGD(m.parameters(), lr=1e-4, momentum=0.9)
            steps.append(lambda m=m, opt=opt: train_step(m, opt, x, y))
        train = alternate(steps, args.n, args.warmup)
        for m in models:
            m.eval()
        with torch.no_grad():
            evals = alternate([lambda m=m: m(x) for m in models], args.n, args.warmup)
        line = (f"{name:16s} train step: converted {train[0] * 1e3:7.1f} ms, hand {train[1] * 1e3:7.1f} ms, "
                f"ratio {train[0] / train[1]:.3f}; eval: converted {evals[0] * 1e3:7.1f} ms, hand "
                f"{evals[1] * 1e3:7.1f} ms, ratio {evals[0] / evals[1]:.3f} (outputs agree: {err:.1e})")
        if rt_before is not None:
            line += (f"\n{'':16s} before: train step {train[2] * 1e3:7.1f} ms, ratio {train[2] / train[1]:.3f}; "
                     f"eval {evals[2] * 1e3:7.1f} ms, ratio {evals[2] / evals[1]:.3f}")
        print(line, flush=True)
        rows.append((name, conv, x))
    if args.no_dynamo:
        return
    for name, conv, x in rows:
        breaks, ran = graph_breaks(conv, x[:2], not args.no_compile)
        print(f"{name:16s} dynamo graph breaks: {breaks}; torch.compile(model)(x) + backward runs: {ran}", flush=True)


if __name__ == "__main__":
    main()
