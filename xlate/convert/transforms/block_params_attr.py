"""`block.params` (Gluon's ParameterDict of the block's own parameters) -> `_mx_block_params(block)`;
`block.collect_params` read without a call -> `_mx_collect_params_method(block)` (MX176).

Both helpers decide at run time: a torch module (a converted block) answers as Gluon's block
would, anything else (a from-scratch model's `params` list, a value of the user's) its own
attribute. So a receiver xlate cannot type is rewritten too, in a file that uses Gluon; `self`
of a class that is no block, and `self.params` of a block (its own `params.get(...)` has its
rules), are left, unless `self.params` is handed to a function (autogluon's `register_parameter(
self.params, name, ...)`, which calls its `get`): the helper's dict makes the parameter as Gluon's
`get` does."""
from xlate.convert.rulectx import Site, Skip
from xlate.convert.transforms import param_evidence
from xlate.convert.transforms.param_evidence import gluon_file


def transform(site: Site):
    node = param_evidence.receiver(site)
    what = param_evidence.block_kind(site, node)
    if what == "no" or (what == "unknown" and not gluon_file(site.conv.analysis)):
        raise Skip()
    if site.matched == ".params" and site.code(node).strip() == "self" and id(site.original) not in site.conv.arguments:
        raise Skip()  # `self.params.get(...)` has its own rules; handed to a helper (`register(self.params, ...)`) not
    helper = "_mx_block_params" if site.matched == ".params" else "_mx_collect_params_method"
    site.fixed(f"`{site.matched[1:]}` of a block -> `{helper}(...)`: Gluon's "
               + ("ParameterDict of the block's own parameters" if helper == "_mx_block_params"
                  else "bound method (`collect_params` read, not called)")
               + ("" if what == "yes" else ", decided at run time: any value that is no torch module gives its own"))
    return site.emit(f"{helper}({{b}})", b=site.receiver)
