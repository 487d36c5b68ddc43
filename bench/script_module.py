"""Another of the suite's scripts (bench/accuracy/run.py, bench/apps/run.py) as a module, so a
script can use its runner, applications and helpers without a package around them."""
import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def load(relative_path, name):
    """The script at bench/RELATIVE_PATH, run once as module NAME; its folder is put on the path
    so its own imports of its neighbours resolve."""
    if name in sys.modules:
        return sys.modules[name]
    path = BENCH / relative_path
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
