"""Plotly figure builders: shared (``common``) and per family; pure functions of frames."""
