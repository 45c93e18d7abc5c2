"""Applying the catalogue at one site: the rule a name or a method call binds to, its arguments
bound to the rule's signature, the rewrite, and the report of what was done or left (mixed into
converter.Converter)."""
from __future__ import annotations

import ast
import importlib
from typing import Callable, Optional

import libcst as cst

from xlate.convert import mx_api, names, table, untyped
from xlate.convert.leftovers import array_name, is_array
from xlate.convert.rulectx import (LOOSE, Dynamic, ForeignKeyword, Manual, Site, Skip, bind, unknown_receiver,
                                   without_ignored)
from xlate.convert.transforms import compare_dtype, module_object

STATUS = {"safe": "fixed", "review": "review", "manual": "manual"}
NO_RULE = "MX900"
NOT_IN_MXNET = "MX917"  # a name MXNet 1.9.1 does not have (Note [MXNet's own names] in mx_api.py)
AMBIGUOUS_NAME = "MX901"
NP_METHOD_LEFT = "MX798"  # a method numpy shares, on an mx.np array, with no dialect rule (Note [numpy dialect])
# Gluon classes whose `prefix=` names what they make, not a block (MX188)
_NOT_BLOCKS = frozenset({"mxnet.gluon.ParameterDict", "mxnet.gluon.parameter.ParameterDict"})


def _rewrite(site: Site):
    """The rule's rewrite of a site that is bound already (raises Manual or Skip)."""
    if site.rule.applicability == "manual":
        raise Manual(site.rule.summary)
    return _transform(site.rule.transform)(site) if site.rule.transform else table.apply(site)


_TRANSFORMS: dict[str, Callable[[Site], cst.BaseExpression]] = {}


def _transform(name: str) -> Callable[[Site], cst.BaseExpression]:
    fn = _TRANSFORMS.get(name)
    if fn is None:
        module = importlib.import_module(f"xlate.convert.transforms.{name}")
        fn = _TRANSFORMS[name] = module.transform
    return fn


# Note [out= written into]
# Every NDArray operator takes `out=`: the result is written into that array (same shape, MXNet
# checks it) and the call returns it. A rule that does not bind `out` itself (the random draws
# do) translates the call without the keyword, and `_mx_out(y, value)` copies the value into y
# and returns y; the value is computed first, so `nd.elemwise_add(x, y, out=y)` reads y's old
# values as MXNet does.
def _out_keyword(site: Site) -> Optional[cst.Arg]:
    if not isinstance(site.node, cst.Call) or site.rule.signature == ("...",) \
            or "out" in {s.lstrip("*") for s in site.rule.signature}:
        return None
    return next((a for a in site.node.args if a.keyword is not None and a.keyword.value == "out"), None)


class Applying:
    """The Converter's part that binds a site to its rule, applies the rule and reports what it
    did or left (mixed into converter.Converter)."""

    def _member_rule(self, index: dict, member: str, receiver: cst.BaseExpression) -> tuple:
        """The rule for `.member` on `receiver`, and the name it matches (Note [numpy dialect] in
        names.py): on an mx.np array (or, in a numpy-mode file, a receiver of unknown kind) the
        dialect's rule for `mxnet.numpy.ndarray.member` where there is one; an NDArray rule for a
        method numpy shares never translates an mx.np array (a rule that says so stands in). A
        method an mx.np array lacks (MXNP_ABSENT) says the receiver is an NDArray: its rule applies."""
        rule = index.get(member)
        dialect = index.get(names.NP_ARRAY + member)
        if rule is None and dialect is None:
            return None, member
        kind = self.classify(receiver)
        if dialect is not None and (kind == "mxnp" or (kind is None and self.analysis.np_mode)):
            return dialect, names.NP_ARRAY + member
        if kind == "mxnp" and rule is not None and rule.receiver == "ndarray" and member[1:] not in names.MXNP_ABSENT:
            return self.rules.all[NP_METHOD_LEFT], member
        return rule, member

    def _bound(self, site: Site, **kw):
        receiver = kw.get("receiver_node")
        kind = self.classify(receiver) if receiver is not None else "nd"
        if kind == "pt":  # a torch tensor (second pass, or code already in torch): no MXNet method
            return site.node
        if receiver is not None and self._own_member(receiver, site.matched):
            return site.node  # `self.softmax(x)` calls what the class put in `self.softmax`
        if kind is None and receiver is not None and site.rule.untyped:
            new = untyped.dispatch(self, site)  # Note [untyped receivers]
            if new is not None:
                return new
        written = _out_keyword(site)
        if written is not None:
            return self._written_into(site, written, kw)
        try:
            site.args, site.varargs = bind(site.rule, site.node, site.receiver)
        except Manual as why:
            # `*args`/`**kwargs` are the helper's to bind; an argument Gluon's signature lacks is not
            if isinstance(why, Dynamic) and self.rules.enabled(site.rule.code) \
                    and not self._suppressed(site.rule.code):
                if site.rule.runtime and site.receiver is None:
                    return self._at_run_time(site, str(why), kw.get("head"))
                # on a receiver xlate cannot type, the untyped helper has had its say (its rule may
                # take only MXNet's own keywords: `text.split(*seps)` is str's)
                if site.rule.method_runtime and site.receiver is not None \
                        and (kind is not None or site.rule.method_runtime != site.rule.untyped):
                    return self._method_at_run_time(site, site.rule.method_runtime, str(why))
            if kind not in ("nd", "mxnp") and (site.rule.receiver == "ndarray"
                                 or (receiver is not None and isinstance(why, ForeignKeyword))):
                return site.node  # numpy's method, or torch's: MXNet's would reject these arguments
            if isinstance(why, ForeignKeyword) and site.rule.ignores_keywords and receiver is None \
                    and (dropped := without_ignored(site)):  # Note [keywords MXNet ignores]
                site.review(f"{site.rule.summary}; MXNet's operator has no parameters and ignores "
                            + ", ".join(f"`{d}=`" for d in dropped) + ": dropped")
                return self._bound(site, **kw)
            return self._left(site, str(why), kw.get("head"))
        return self._apply(site, **kw)

    def _written_into(self, site: Site, written: cst.Arg, kw: dict):
        """Note [out= written into]: `op(..., out=y)` writes op's result into y and returns y, for any
        operator whose rule does not take `out` itself: the call without it, then `_mx_out(y, value)`."""
        args = [a for a in site.node.args if a is not written]
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        site.node = stripped = site.node.with_changes(args=args)
        new = self._bound(site, **kw)
        if new is stripped:  # left for a human: as written
            return site.node.with_changes(args=[*args[:-1], *([args[-1].with_changes(
                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))] if args else []), written])
        self.use_helper("_mx_out")
        return cst.Call(cst.Name("_mx_out"), [cst.Arg(written.value, comma=cst.Comma(
            whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(new)])

    def _at_run_time(self, site: Site, why: str, head: Optional[str] = None):
        """The Gluon-signature helper with the call's own arguments (Note [Gluon-signature
        modules] in xlate/runtime/layers.py): exact whatever the values turn out to be."""
        from xlate.convert.transforms import layer_args  # an initializer by name the helper cannot draw
        try:
            layer_args.named_inits(site, *(a.keyword.value for a in getattr(site.node, "args", ())
                                           if a.keyword is not None and a.keyword.value.endswith("_initializer")))
        except Manual as left:
            return self._left(site, str(left), head)
        new = site.verbatim()
        short = site.matched.rsplit(".", 1)[-1]
        self.report(site.original, site.rule.code, "fixed",
                    f"`{short}(...)` -> `{site.rule.runtime_for(site.matched)}(...)` with the same arguments, "
                    f"decided at run time as Gluon does ({why})")
        return new

    def _method_at_run_time(self, site: Site, helper: str, why: str):
        """`x.astype(*args, **kwargs)` -> `_mx_astype(x, *args, **kwargs)`: the helper binds the
        arguments by the method's own signature when they are known."""
        new = site.method_helper(helper)
        shown = self.code_for(new.func) + "(x, ...)" if "{x}" not in helper else helper.format(
            x="x", name=site.matched.rsplit(".", 1)[-1])[:-1] + ", ...)"
        self.report(site.original, site.rule.code, "fixed",
                    f"`.{site.matched.rsplit('.', 1)[-1]}(...)` -> `{shown}` with the same arguments, "
                    f"bound at run time by MXNet's signature ({why})")
        return new

    def _apply(self, site: Site, *, head: Optional[str] = None, receiver_node=None):
        rule = site.rule
        if self._suppressed(rule.code) or not self.rules.enabled(rule.code):
            if head:
                self.survivors[head] += 1
            if not self.rules.enabled(rule.code) and not self._suppressed(rule.code):
                self.report(site.original, rule.code, "manual", f"{rule.name}: rule not selected")
            return site.node
        inner = self.left_inside(site)
        if inner is not None:
            return self.left_with(site, inner, head)
        held = self.left_name_inside(site)
        if held is not None:
            return self._left(site, f"`{held}` holds an NDArray from MXNet code left for a human, so this "
                                    f"stays MXNet too (PyTorch's needs a tensor): translate that first", head)
        if receiver_node is not None:
            kind = self.classify(receiver_node)
            if kind == "pt":  # a torch tensor (second pass, or code already in torch): no MXNet method
                return site.node
            site.receiver_kind = kind if rule.receiver == "ndarray" else "nd"
            if site.receiver_kind == "np":
                return site.node
        untyped = site.receiver_kind is None and receiver_node is not None and rule.receiver == "ndarray"
        if head is not None and site.receiver is None:
            compare_dtype.handed_to_operator(site)  # Note [comparison handed to an operator]
        try:
            if rule.applicability == "manual":
                if rule.transform:  # it decides whether the match is MXNet's (and says why not)
                    _transform(rule.transform)(site)
                raise Manual(rule.summary)
            if untyped and rule.unknown == "leave":
                raise Skip()  # `s.split(",")` on a string is not MXNet's split
            if rule.transform:
                new = _transform(rule.transform)(site)
            elif untyped:
                raise Manual(unknown_receiver(site))
            else:
                new = table.apply(site)
        except Skip:
            if head:  # a resolved MXNet name is never silently skipped
                return self._left(site, f"{rule.name}: this use is not handled", head)
            return site.node
        except Dynamic as why:
            # the helper takes the operator's signature: a method call (`x.reshape(**kw)`) is not one
            if rule.runtime and isinstance(site.node, cst.Call) and site.receiver is None:
                return self._at_run_time(site, str(why), head)
            helper = getattr(why, "method_runtime", None) or rule.method_runtime
            if helper and isinstance(site.node, cst.Call) and site.receiver is not None:
                return self._method_at_run_time(site, helper, str(why))
            return self._left(site, str(why), head)
        except Manual as why:
            return self._left(site, str(why), head)
        new = self._gluon_named(site, new)
        if site.shared is not None and isinstance(new, cst.BaseExpression):  # Gluon's `params=`
            new = site.emit("_mx_shared({b}, {p})", b=new, p=site.shared)
        status = site.status or STATUS[rule.applicability]
        self.report(site.original, rule.code, status, site.message or rule.summary)
        # the source's own parentheses stay (they may hold a multi-line expression together), unless the
        # translation is a call or attribute on one line, which binds tighter than anything around it
        # (`(x > 0) * m` -> `(x > 0).float() * m`, not `((x > 0).float()) * m`)
        if getattr(site.node, "lpar", None) and isinstance(new, cst.BaseExpression) and not new.lpar \
                and not (isinstance(new, (cst.Call, cst.Attribute, cst.Subscript)) and _one_line(self, site.node)):
            new = self._moved(new, new.with_changes(lpar=site.node.lpar, rpar=site.node.rpar))
        if isinstance(new, LOOSE) and not new.lpar:
            new = self._moved(new, new.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
            self.loose[id(new)] = new
        return new

    def _gluon_named(self, site: Site, new):
        """A block built with Gluon's `prefix=` (any layer or container whose rule takes it), or a
        Gluon class whose torch translation is another's (`nn.Sequential` for Gluon's plain
        Sequential): `_mx_named(block, ...)` keeps what Gluon names it by (Note [Gluon names])."""
        alias = None
        if site.matched in _NOT_BLOCKS:
            return new
        prefix = site.value("prefix") if "prefix" in site.args else None
        if prefix is not None and site.literal("prefix", None) is None and isinstance(prefix, cst.Name) \
                and prefix.value == "None":
            prefix = None
        # only a Sequential built: `_mx_named` of the class itself (a base, an isinstance test, a value) set
        # the alias on torch's Sequential class, and every Sequential and subclass of the program took it
        if site.matched == "mxnet.gluon.nn.Sequential" and isinstance(site.original, cst.Call):
            alias = cst.SimpleString("'sequential'")
        outside = site.matched in ("mxnet.gluon.nn.Sequential", "mxnet.gluon.nn.HybridSequential") \
            and isinstance(site.original, cst.Call) and not self._name_scopes()  # a container built, not a base
        if (prefix is None and alias is None and not outside) or not isinstance(new, cst.BaseExpression):
            return new
        holes = {"b": new}
        extra = ""
        if prefix is not None:
            holes["p"], extra = prefix, ", prefix={p}"
        if alias is not None:
            holes["a"], extra = alias, extra + ", alias={a}"
        if outside:
            extra += ", outside=True"
        return site.emit("_mx_named({b}" + extra + ")", **holes)

    def _name_scopes(self) -> bool:
        """The file opens a Gluon name scope somewhere. Where it never does (d2l's style:
        `net = nn.Sequential(); net.add(nn.Dense(8))`), a container's children were built in
        no scope of its own, so Gluon names them as top-level blocks (`dense0_`, not
        `sequential0_dense0_`): `_mx_named(..., outside=True)` (Note [Gluon names])."""
        if self._scoped is None:
            self._scoped = any(isinstance(n, ast.Attribute) and n.attr == "name_scope"
                               for n in ast.walk(self.analysis.tree))
        return self._scoped

    def _moved(self, old, new):
        """A node rebuilt around the same expression keeps what rules recorded about it."""
        found = self.layers.get(id(old))
        if found is not None and found[0] is old:
            self.layers[id(new)] = (new, found[1])
        return new

    def _left(self, site: Site, message: str, head):
        if head:
            self.survivors[head] += 1
        self.report(site.original, site.rule.code, "manual", message)
        self.mark_left(site.node, len(self.found) - 1, array=is_array(site), head=head)
        return site.node

    def _no_rule(self, original, updated, head: str, resolved: str):
        found = module_object.member(self, self.rules, original, updated, resolved)
        if found is not None:
            return found
        self.survivors[head] += 1
        code, message = NO_RULE, mx_api.no_rule(resolved)
        if mx_api.absent(resolved):  # Note [MXNet's own names]
            code, message = NOT_IN_MXNET, mx_api.not_in_mxnet(resolved)
        if not self._suppressed(code):
            self.report(original, code, "manual", message)
        self.mark_left(updated, len(self.found) - 1 if not self._suppressed(code) else None,
                       array=array_name(resolved), head=head)
        return updated

    def _ambiguous(self, original, updated, head: str):
        self.survivors[head] += 1
        if not self._suppressed(AMBIGUOUS_NAME):
            self.report(original, AMBIGUOUS_NAME, "manual",
                        f"`{head}` is an MXNet import here but is also rebound in this scope; not rewritten")
        self.mark_left(updated, len(self.found) - 1 if not self._suppressed(AMBIGUOUS_NAME) else None,
                       array=False, head=head)
        return updated


def _one_line(conv, node: cst.CSTNode) -> bool:
    """`node`, its parentheses included, is written on one line with no comment."""
    text = conv.module.code_for_node(node)
    return "\n" not in text and "#" not in text
