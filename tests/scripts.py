"""Load a script of the repository (an example, a benchmark) as a module, to call its functions in a test."""
import importlib.util


def load_script(path, name=None):
    """The Python file at ``path`` executed as a module named ``name`` (default: its file name)."""
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
