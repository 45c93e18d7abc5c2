"""Imports every family module so that their families register (see xlate.check.mapping)."""
