"""Drawn Gluon layer stacks (bench): two to five layers from ~45 constructor spellings (conv,
transposed conv, pools with ceil_mode/count_include_pad, norms with their axes and momenta,
activations, padding, dense with and without flatten, shared parameters, Lambda/HybridLambda),
in a HybridSequential or a HybridBlock, hybridized or not (never with PReLU: MXNet's own hybridized
alpha gradient is wrong there), every layer keeping (2, 4, 7, 7), checked with
xlate.check.pair.check_models (outputs, input and parameter gradients, strict float32). Prints
each failure and the count that agree.

    PYTHONPATH=. .venv/bin/python bench/drawn/layers.py [-n 40] [--seed 1] [--save DIR]
"""
from _hunt import cli, same_model

# (N, C, H, W) = (2, 4, 7, 7) in and out of every 2-D layer below (channels kept at 4)
LAYERS_2D = [
    "nn.Conv2D(4, 3, padding=1)", "nn.Conv2D(4, 3, padding=1, use_bias=False, groups=2)",
    "nn.Conv2D(4, (3, 1), padding=(1, 0), dilation=(1, 1), activation='relu')",
    "nn.Conv2D(4, 3, padding=2, dilation=2, in_channels=4)",
    "nn.Conv2DTranspose(4, 3, padding=1)", "nn.Conv2DTranspose(4, 4, strides=2, padding=1), nn.MaxPool2D(2)",
    "nn.MaxPool2D(3, 1, 1)", "nn.AvgPool2D(3, 1, 1)", "nn.AvgPool2D(3, 1, 1, count_include_pad=False)",
    "nn.MaxPool2D(2, 1, ceil_mode=True), nn.Conv2D(4, 2, padding=1)",  # 7 -> 6 -> 7
    "nn.Conv2D(4, 2, padding=1), nn.MaxPool2D(3, 2, ceil_mode=True), nn.Conv2DTranspose(4, 3, strides=2, padding=1)",
    "nn.Conv2D(4, 2, padding=1), nn.AvgPool2D(3, 2, ceil_mode=True), nn.Conv2DTranspose(4, 3, strides=2, padding=1)",
    "nn.BatchNorm()", "nn.BatchNorm(momentum=0.5, epsilon=1e-3)", "nn.BatchNorm(center=False, scale=False)",
    "nn.BatchNorm(use_global_stats=True)", "nn.InstanceNorm()", "nn.LayerNorm(axis=1)", "nn.GroupNorm(2)",
    "nn.Activation('relu')", "nn.Activation('sigmoid')", "nn.Activation('softrelu')", "nn.Activation('softsign')",
    "nn.LeakyReLU(0.2)", "nn.PReLU()", "nn.ELU(0.7)", "nn.Swish()", "nn.GELU()",
    "nn.ReflectionPad2D(1), nn.Conv2D(4, 3)", "nn.Dropout(0.0)",
    "nn.HybridLambda(lambda F, x: F.relu(x) * 2)", "nn.HybridLambda('tanh')",
    "nn.Lambda(lambda x: x * 0.5)",
]
HEADS = [
    "nn.GlobalAvgPool2D(), nn.Flatten(), nn.Dense(3)", "nn.GlobalMaxPool2D(), nn.Dense(3)",
    "nn.Dense(3)", "nn.Dense(5, activation='tanh'), nn.Dense(3, use_bias=False)",
    "nn.Flatten(), nn.Dense(3, in_units=196)",
]


def make(r):
    body = [r.choice(LAYERS_2D) for _ in range(r.randint(2, 5))]
    if any("Lambda(" in b and "Hybrid" not in b for b in body):
        seq = "Sequential"
    else:
        seq = r.choice(["HybridSequential", "Sequential"])
    head = r.choice(HEADS)
    lines = ["import mxnet as mx", "from mxnet import gluon", "from mxnet.gluon import nn", ""]
    # (nn.SELU is left out of the draw: MXNet 1.9.1's own gradient is wrong for x < 0, MX132)
    style = r.choice(["sequential", "block", "shared"])
    if style == "sequential":
        lines += ["def build():", f"    net = nn.{seq}()", f"    net.add({', '.join(body)})", f"    net.add({head})",
                  "    return net"]
    else:
        base = "HybridBlock" if seq == "HybridSequential" else "Block"
        fwd = "hybrid_forward(self, F, x)" if base == "HybridBlock" else "forward(self, x)"
        lines += [f"class Net(gluon.{base}):", "    def __init__(self, **kwargs):",
                  "        super(Net, self).__init__(**kwargs)", "        with self.name_scope():",
                  f"            self.body = nn.{seq}()", f"            self.body.add({', '.join(body)})",
                  f"            self.head = nn.{seq}()", f"            self.head.add({head})"]
        if style == "shared":
            lines += ["            self.twin = nn.Conv2D(4, 3, padding=1, in_channels=4)",
                      "            self.shared = nn.Conv2D(4, 3, padding=1, in_channels=4, params=self.twin.params)"]
        lines += ["", f"    def {fwd}:"]
        if style == "shared":
            lines += ["        x = self.shared(self.twin(x))"]
        lines += ["        return self.head(self.body(x))", "", "def build():", "    return Net()"]
    # MXNet 1.9.1's hybridized graph gives PReLU's alpha a wrong gradient where PReLU is not its first operator
    # (Swish, PReLU, Dense: 197.7 hybridized, 112.1 imperative, which float64 agrees with): imperative only
    hybridize = r.random() < 0.5 and (seq == "HybridSequential") and not any("PReLU" in b for b in body)
    return "\n".join(lines) + "\n", body + [head], {"build": "build", "shape": (2, 4, 7, 7), "hybridize": hybridize}


if __name__ == "__main__":
    cli(__doc__, make, same_model, "layers")
