"""``python -m benchmarks [NAME] [options]``: run one benchmark (default: shovel-ready)."""

import importlib
import pkgutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMES = sorted(m.name.replace("_", "-") for m in pkgutil.iter_modules([str(HERE)]) if not m.name.startswith("_"))

argv = sys.argv[1:]
if argv and argv[0] in ("--list", "-l"):
    print("\n".join(NAMES))
    sys.exit(0)
name = "shovel-ready"
if argv and not argv[0].startswith("-"):
    name, argv = argv[0], argv[1:]
if name not in NAMES:
    print(f"unknown benchmark {name!r} (known: {', '.join(NAMES)})", file=sys.stderr)
    sys.exit(2)
sys.exit(importlib.import_module(f"benchmarks.{name.replace('-', '_')}").main(argv))
