"""`class Dot(HybridBlock)` with no `__init__` of its own, built as `Dot(prefix='dot')` (MX177).

Note [a Gluon block without __init__]
A Gluon block class that defines only its forward inherits Gluon's `Block.__init__(prefix=None,
params=None)`, so callers build it with Gluon's naming arguments (MXFusion's tests: `Dot(prefix=
'dot')`). Its translation derives from `nn.Module`, whose `__init__` takes no argument: every such
call raised TypeError. The class gets Gluon's constructor, which hands nothing to torch's and keeps
the prefix for Gluon's names (`_mx_gluon_init`, Note [Gluon names] in xlate/runtime/naming.py).
`params=` (sharing another block's parameters) cannot be honoured by a torch module: a non-None
value raises there, naming the class, rather than building a block with parameters of its own in
silence."""
import libcst as cst

from xlate.convert.rulectx import Site, Skip

_INIT = '''
def __init__(self, prefix=None, params=None):
    super().__init__()
    _mx_gluon_init(self, prefix, params)
'''


def transform(site: Site):
    body = site.node.body
    if not isinstance(body, cst.IndentedBlock):
        raise Skip()
    init = cst.parse_module(_INIT.lstrip("\n")).body[0]
    site.conv.use_helper("_mx_gluon_init")
    site.fixed(f"`{site.original.name.value}` defines no `__init__`: it gets Gluon's `__init__(prefix=None, "
               "params=None)`, which torch's `nn.Module.__init__` lacks, so `prefix=` still names it (Note [a Gluon "
               "block without __init__])")
    statements = list(body.body)
    at = 1 if statements and _docstring(statements[0]) else 0
    statements = [s for s in statements if not _only_pass(s)]
    statements.insert(min(at, len(statements)), init)
    return site.node.with_changes(body=body.with_changes(body=statements))


def _docstring(statement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
        and isinstance(statement.body[0], cst.Expr) and isinstance(statement.body[0].value, cst.SimpleString)


def _only_pass(statement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(isinstance(s, cst.Pass) for s in statement.body)
