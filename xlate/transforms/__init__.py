"""Structural rewrites: one module per transform, each exporting `transform(site)`.

The catalogue names the module (`transform = "reshape"`); xlate.engine imports it on first use.
"""
