"""`gluonnlp.model.get_model(name, pretrained=False, vocab=...)` and the BERT family's and the
language models' own functions (`bert_12_768_12(...)`, `awd_lstm_lm_1150(...)`) -> `_mx_get_model(name, ...)`, which builds the architecture
from gluonnlp's hyper-parameters; downloads (pretrained weights, dataset vocabularies) are
left for a human."""
import libcst as cst

from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.table import EQ, commas

BERTS = ("bert_12_768_12", "bert_24_1024_16", "ernie_12_768_12", "roberta_12_768_12", "roberta_24_1024_16")
# gluonnlp/model/language_model.py: pretrained=False by default, unlike the BERT family
LANGUAGE_MODELS = ("awd_lstm_lm_1150", "awd_lstm_lm_600", "standard_lstm_lm_200", "standard_lstm_lm_650",
                   "standard_lstm_lm_1500")
BUILT = BERTS + LANGUAGE_MODELS
_LM = ("dataset_name", "vocab", "pretrained", "ctx", "root", "hparam_allow_override")
# the family functions' parameters before **kwargs (gluonnlp/model/bert.py)
_BERT = ("dataset_name", "vocab", "pretrained", "ctx", "root", "use_pooler", "use_decoder", "use_classifier",
         "pretrained_allow_missing", "hparam_allow_override")
_ROBERTA = ("dataset_name", "vocab", "pretrained", "ctx", "use_decoder", "root", "hparam_allow_override")


def _checks(site: Site, name) -> None:
    if name is not NOT_LITERAL and name not in BUILT:
        raise Manual(f"get_model({name!r}) is not translated (only the BERT family {', '.join(BERTS)} and the "
                     f"language models {', '.join(LANGUAGE_MODELS)}): translate the model's gluonnlp source with "
                     f"xlate, or write it with torch")
    pretrained = site.literal("pretrained", name not in LANGUAGE_MODELS)
    if pretrained is not False:
        raise Manual("pretrained weights come from gluonnlp's download: write pretrained=False and load the "
                     "gluonnlp .params file converted by `xlate convert-weights` (the architecture maps name for name)")
    dataset = site.literal("dataset_name", None)
    if dataset is not None:
        raise Manual(f"dataset_name={site.code(site.value('dataset_name'))} downloads gluonnlp's vocabulary: build "
                     f"the vocabulary (the translated Vocab) and pass vocab= instead")


def _helper(name) -> str:
    """A literal name needs only its family's helper; one known at run time gets both families."""
    if name is NOT_LITERAL:
        return "_mx_get_nlp_model"
    return "_mx_get_language_model" if name in LANGUAGE_MODELS else "_mx_get_model"


def transform(site: Site):
    short = site.matched.rsplit(".", 1)[-1]
    if short == "get_model":
        positional = [a for a in site.node.args if a.keyword is None and not a.star]
        site.args = {a.keyword.value: a for a in site.node.args if a.keyword is not None}
        named = positional[0] if positional else site.args.pop("name", None)  # `get_model(name=args.model, ...)`
        if any(a.star == "*" for a in site.node.args) or len(positional) > 1:
            raise Manual("get_model takes the name, then keywords: pass them by keyword so xlate can check "
                         "pretrained and dataset_name")
        if any(a.star == "**" for a in site.node.args):  # `get_model(**params)`: decided when it runs
            site.review("`get_model(**kwargs)` -> `_mx_get_nlp_model(**kwargs)`: the arguments are known at run "
                        "time; the helper builds the BERT family and the language models without downloads, and "
                        "raises on pretrained=True, a dataset_name or another model")
            return site.node.with_changes(func=site.emit("_mx_get_nlp_model"))
        if named is None:
            raise Manual("get_model without its model name")
        name = site.evaluate(named.value)
        _checks(site, name)
        if name is NOT_LITERAL:
            site.review("`get_model(name, ...)` -> `_mx_get_nlp_model(name, ...)`: the name is known at run time; "
                        "the helper builds the BERT family and the language models and raises on another")
        else:
            site.fixed(f"`get_model({name!r}, ...)` -> `{_helper(name)}(...)`: gluonnlp's architecture, uninitialised")
        return site.node.with_changes(func=site.emit(_helper(name)))
    site.bind(*(_LM if short in LANGUAGE_MODELS else _ROBERTA if short.startswith("roberta") else _BERT))
    _checks(site, short)
    args = [cst.Arg(cst.SimpleString(repr(short)))]
    for name, arg in site.args.items():
        args.append(cst.Arg(arg.value, keyword=cst.Name(name), equal=EQ))
    args += [a for a in site.node.args if a.star == "**"]
    site.fixed(f"`{short}(...)` -> `{_helper(short)}({short!r}, ...)`: gluonnlp's architecture, uninitialised")
    return cst.Call(site.emit(_helper(short)), args=commas(args))
