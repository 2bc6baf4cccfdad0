"""Benchmarks: python -m benchmarks.run"""
