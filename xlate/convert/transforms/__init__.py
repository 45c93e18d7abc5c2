"""Structural rewrites: one module per transform, each exporting `transform(site)`.

The catalogue names the module (`transform = "reshape"`); xlate.convert.engine imports it on first use.
"""
