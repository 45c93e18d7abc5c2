"""mx.random.seed(s) -> the PyTorch determinism set, as statements."""
import libcst as cst

from xlate.convert.rulectx import Manual, Site

# what a seeded run reproduces, said at the seed (Note [random streams] in xlate/runtime/data.py)
_SEEDED = ("`mx.random.seed(s)` -> torch's seeds and the determinism set; torch's generator draws other numbers "
           "than MXNet's (initializers, dropout, nd.random.*: the same laws), while numpy's draws, Gluon's "
           "shuffled batch order among them, follow `np.random.seed` as in MXNet")
_FLAGS = ("torch.backends.cudnn.deterministic = True", "torch.backends.cudnn.benchmark = False")


def transform(site: Site):
    if site.has("ctx") and site.literal("ctx") != "all":
        raise Manual("seeding one context only: use torch.cuda.manual_seed on that device")
    seed = site.value("seed_state")
    if seed is None:
        raise Manual("seed() without a seed")
    simple = isinstance(seed, (cst.Name, cst.Attribute, cst.Integer))
    cuda_seed = site.code(seed) if simple else "torch.initial_seed()"
    lines = [site.emit("torch.manual_seed({s})", s=seed), site.emit(f"torch.cuda.manual_seed_all({cuda_seed})")]
    statement = site.conv.statement_of(site.original)
    if statement is None:  # used inside an expression: seed torch only, say so
        site.review("seed() inside an expression: only torch.manual_seed is applied here")
        return lines[0]
    small = [cst.Expr(v) for v in lines] + [cst.parse_statement(f).body[0] for f in _FLAGS]
    site.conv.torch_uses.add("torch")
    site.conv.replace_statement(statement, small)
    site.fixed(_SEEDED)
    return lines[0]
