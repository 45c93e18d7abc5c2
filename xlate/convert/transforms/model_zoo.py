"""`mxnet.gluon.model_zoo.vision`: every network, class and builder -> its Gluon-signature helper
(Note [Gluon model zoo] in xlate/runtime/zoo.py), called with the call's own arguments. Only
`pretrained=` needs a word: PyTorch cannot read or download Gluon's file, so the helper loads
the state_dict `xlate convert-weights` makes from it, and the line says the command."""
from xlate.convert.rulectx import NOT_LITERAL, Site

# where `pretrained` stands positionally (the per-network constructors take keywords only)
_PRETRAINED_AT = {"get_resnet": 2, "get_vgg": 1, "get_mobilenet": 1, "get_mobilenet_v2": 1, "get_densenet": 1,
                  "get_squeezenet": 1, "alexnet": 0, "inception_v3": 0}
# constructors whose zoo name is not their own (vision/__init__.py's get_model table)
_ZOO_NAMES = {"squeezenet1_0": "squeezenet1.0", "squeezenet1_1": "squeezenet1.1", "inception_v3": "inceptionv3",
              "mobilenet1_0": "mobilenet1.0", "mobilenet0_75": "mobilenet0.75", "mobilenet0_5": "mobilenet0.5",
              "mobilenet0_25": "mobilenet0.25", "mobilenet_v2_1_0": "mobilenetv2_1.0",
              "mobilenet_v2_0_75": "mobilenetv2_0.75", "mobilenet_v2_0_5": "mobilenetv2_0.5",
              "mobilenet_v2_0_25": "mobilenetv2_0.25"}


def _argument(site: Site, keyword: str, position):
    for i, arg in enumerate(site.node.args):
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
        if arg.keyword is None and not arg.star and i == position:
            return arg.value
    return None


def _zoo_name(site: Site, short: str):
    """The file name Gluon's pretrained weights go by, where the call's literals tell it."""
    def literal(i):
        node = _argument(site, "", i)
        return NOT_LITERAL if node is None else site.evaluate(node)

    if short == "get_model":
        name = literal(0)
        return name.lower() if isinstance(name, str) else None
    if short == "get_resnet":
        version, layers = literal(0), literal(1)
        return f"resnet{layers}_v{version}" if NOT_LITERAL not in (version, layers) else None
    if short.startswith("get_"):
        return None
    return _ZOO_NAMES.get(short, short)


def transform(site: Site):
    short = site.matched.rsplit(".", 1)[-1]
    call = site.verbatim()
    helper = site.rule.runtime_for(site.matched)
    if short in _PRETRAINED_AT or short[0].islower() and not short.startswith("_"):
        node = _argument(site, "pretrained", _PRETRAINED_AT.get(short, -1))
        pretrained = False if node is None else site.evaluate(node)
        if pretrained is not False:
            name = _zoo_name(site, short) or "NAME"
            root = "~/.mxnet/models"
            site.review(f"`{short}(pretrained={site.code(node)})` -> `{helper}(...)`, which loads {root}/{name}.pt: "
                        f"PyTorch can neither download nor read Gluon's .params file. Convert it once: `xlate "
                        f"convert-weights {root}/{name}-*.params --zoo {name} -o {root}/{name}.pt` (MXNet's "
                        f"`get_model('{name}', pretrained=True)` downloads that file); without it the call raises")
            return call
    site.fixed(f"`{short}` -> `{helper}`: Gluon's network, block for block, with Gluon's arguments")
    return call
