"""A library's check of its own version (`gcv.utils.check_version('0.6.0')`): the statement goes.

Note [version checks of a translated library]
GluonCV's and gluonnlp's scripts start by asserting the library's version (`check_version(min,
warning_only=False)`: AssertionError, or a warning, when the installed one is older). The
translation runs none of that library's MXNet code (what it used is translated or left at its
line), so there is nothing left to check, and the library no longer imports at all without MXNet
(GluonCV 0.10+ requires torch < 2 where MXNet is missing): the kept call would fail on import.
gluonnlp's form with `library=mx` checks MXNet's version: the translation reproduces MXNet 1.9.1
(MX590), so the check goes where 1.9.1 passes it, a literal minimum no newer than 1.9.1, and is
left for a human otherwise."""
from xlate.convert.rulectx import Manual, Site

_TRANSLATED_MXNET = (1, 9, 1)


def _version(text: str):
    parts = []
    for piece in text.split("."):
        if not piece.isdigit():
            return None
        parts.append(int(piece))
    return tuple(parts)


def transform(site: Site):
    if site.has("library"):
        minimum = site.literal("min_version")
        version = _version(minimum) if isinstance(minimum, str) else None
        if version is None or version > _TRANSLATED_MXNET:
            raise Manual("a check of the version of `library`: the translation reproduces MXNet 1.9.1 (MX590); "
                         "remove the check if 1.9.1 satisfies it")
    stmt = site.conv.statement_of(site.original)
    if stmt is None:
        raise Manual("a version check used as a value: the translation runs none of the library's code; "
                     "remove it by hand")
    site.conv.replace_statement(stmt, [])
    site.conv.dropped(site.node)  # `library=mx` no longer keeps MXNet's import
    return site.node
