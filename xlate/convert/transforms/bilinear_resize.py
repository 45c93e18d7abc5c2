"""contrib.BilinearResize2D -> F.interpolate(mode="bilinear") with MXNet's align_corners=True default;
sizes from scales, `like` and the odd/even modes go through `_mx_bilinear_resize`."""
from xlate.convert.rulectx import Site
from xlate.convert.transforms import op_args as oa

_MODES = ("size", "like", "odd_scale", "to_even_down", "to_even_up", "to_odd_down", "to_odd_up")


def transform(site: Site):
    x = oa.required(site, "data")
    mode = oa.choice(site, "mode", "size", _MODES, f"write one of {', '.join(map(repr, _MODES))}")
    corners = site.literal("align_corners", True)
    sizes = [site.literal(name, 1) for name in ("height", "width")]
    # without aligned corners MXNet samples an axis resized to 1 at its first pixel, torch at its centre
    exact = corners is True or corners is False and all(isinstance(s, int) and s > 1 for s in sizes)
    if mode == "size" and site.literal("scale_height") is None and not site.has("like") and exact:
        size = f"({site.code(site.value('height')) if site.has('height') else '1'}, " \
               f"{site.code(site.value('width')) if site.has('width') else '1'})"
        corners = site.value("align_corners") if site.has("align_corners") else "True"
        return oa.call(site, "F.interpolate", [(None, x), ("size", size), ("mode", '"bilinear"'),
                                               ("align_corners", corners)])
    names = ["like", "height", "width", "scale_height", "scale_width", "mode", "align_corners"]
    return oa.call(site, "_mx_bilinear_resize", [(None, x)] + oa.passed(site, *names))
