"""Benchmarks that print every measured number beside its target: ``python -m benchmarks [NAME]``.

NAME is a family (``shovel-ready``, the default) or another benchmark module of this folder;
``python -m benchmarks --list`` lists them.
"""
