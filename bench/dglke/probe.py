"""dgl-ke's MXNet score functions (run by bench/dglke_scores.py), original or converted: edge_func with a stand-in
`edges`, infer, create_neg for heads and tails, and the tensor_models helpers."""
import importlib, sys, types, json
import numpy as np

side, root = sys.argv[1], sys.argv[2]          # "mx" | "pt", folder holding the mxnet/ models package
for name, path in (("dglke", None), ("dglke.models", None)):
    m = types.ModuleType(name); m.__path__ = []; sys.modules[name] = m
pkg = types.ModuleType("dglke.models.mxnet"); pkg.__path__ = [root]; sys.modules["dglke.models.mxnet"] = pkg
sf = importlib.import_module("dglke.models.mxnet.score_fun")
tm = importlib.import_module("dglke.models.mxnet.tensor_models")
if side == "mx":
    import mxnet as mx
    arr = lambda a: mx.nd.array(a, dtype=a.dtype)
    out = lambda t: t.asnumpy()
else:
    import torch
    arr = lambda a: torch.tensor(a)
    out = lambda t: t.detach().numpy()

rng = np.random.RandomState(0)
D = 8
class Edges:
    def __init__(self, h, r, t):
        self.src, self.dst, self.data = {"emb": h}, {"emb": t}, {"emb": r}
res = {}
def rec(key, fn):
    try:
        v = fn()
        res[key] = np.asarray(out(v)).tolist()
    except Exception as e:  # noqa
        res[key] = f"ERR {type(e).__name__}: {str(e)[:120]}"

cases = [("TransE_l2", lambda: sf.TransEScore(12.0, "l2"), D), ("TransE_l1", lambda: sf.TransEScore(12.0, "l1"), D),
         ("DistMult", lambda: sf.DistMultScore(), D), ("ComplEx", lambda: sf.ComplExScore(), D),
         ("RESCAL", lambda: sf.RESCALScore(D, D), D * D), ("RotatE", lambda: sf.RotatEScore(12.0, 2.0), D // 2),
         ("SimplE", lambda: sf.SimplEScore(), D)]
for name, make, rdim in cases:
    if not hasattr(sf, name.split("_")[0] + "Score") and name.split("_")[0] + "Score" not in dir(sf):
        continue
    try:
        score = make()
    except Exception as e:
        res[name] = f"ERR build {type(e).__name__}: {e}"; continue
    h = rng.uniform(-1, 1, (6, D)).astype("float32"); t = rng.uniform(-1, 1, (6, D)).astype("float32")
    r = rng.uniform(-1, 1, (6, rdim)).astype("float32")
    rec(name + ".edge_func", lambda: score.edge_func(Edges(arr(h), arr(r), arr(t)))["score"])
    rec(name + ".infer", lambda: score.infer(arr(h[:3]), arr(r[:2]), arr(t[:4])))
    for neg_head in (True, False):
        heads = rng.uniform(-1, 1, (4, D)).astype("float32"); rels = rng.uniform(-1, 1, (4, rdim)).astype("float32")
        tails = rng.uniform(-1, 1, (4, D)).astype("float32")
        rec(f"{name}.neg_head={neg_head}", lambda: score.create_neg(neg_head)(arr(heads), arr(rels), arr(tails), 2, 2, 2))
x = rng.uniform(-3, 3, (4, 5)).astype("float32"); y = rng.uniform(-3, 3, (3, 5)).astype("float32")
rec("logsigmoid", lambda: tm.logsigmoid(arr(x)))
for f in ("l2_dist", "l1_dist", "dot_dist", "cosine_dist", "extended_jaccard_dist"):
    if hasattr(tm, f):
        rec(f + ".pw", lambda: getattr(tm, f)(arr(x[:3]), arr(y), pw=True))
        rec(f, lambda: getattr(tm, f)(arr(x), arr(y), pw=False))
rec("floor_divide", lambda: tm.floor_divide(arr(np.array([7, -7, 9], "int64")), 2))
# ExternalEmbedding: a lookup traced for its gradient, then dgl-ke's sparse Adagrad step
class Args:
    gpu, lr = [-1], 0.1
values = rng.uniform(-1, 1, (6, 4)).astype("float32"); weights = rng.uniform(-1, 1, (3, 4)).astype("float32")
idx = np.array([4, 1, 2], dtype="int64")
def step():
    emb = tm.ExternalEmbedding(Args(), 6, 4, mx.cpu() if side == "mx" else torch.device("cpu"))
    emb.emb[:] = arr(values)
    if side == "mx":
        with mx.autograd.record():
            data = emb(mx.nd.array(idx, dtype="int64"))
            loss = (data * arr(weights) * data).sum()
        loss.backward()
    else:
        data = emb(torch.tensor(idx))
        (data * arr(weights) * data).sum().backward()
    emb.update()
    return emb.emb
rec("ExternalEmbedding.update", step)
json.dump(res, open(sys.argv[3], "w"))
print(sum(isinstance(v, str) for v in res.values()), "errors of", len(res))
