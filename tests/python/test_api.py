"""The public surface: the .pyi stubs match the extension, every public callable is documented."""

import ast
import inspect
from pathlib import Path

import tabai
import tabai.cli
from tabai import _core

STUB = Path(_core.__file__).with_name("_core.pyi")


def stub_tree():
    src = STUB.read_text() if STUB.exists() else (
        Path(__file__).resolve().parents[2] / "python" / "tabai" / "_core.pyi").read_text()
    return ast.parse(src)


def test_stub_matches_module():
    tree = stub_tree()
    funcs = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    module_funcs = {k for k, v in vars(_core).items() if callable(v) and not isinstance(v, type)}
    module_classes = {k for k, v in vars(_core).items() if isinstance(v, type)}
    assert funcs == module_funcs
    assert set(classes) - {"CpuInfo"} == module_classes
    for name in module_classes:
        cls = getattr(_core, name)
        stub_members = {n.name for n in classes[name].body if isinstance(n, ast.FunctionDef)}
        members = {k for k in vars(cls) if not k.startswith("_")} | {"__init__"}
        assert stub_members == members, name
        # the stub's parameter names are the binding's
        for n in classes[name].body:
            if isinstance(n, ast.FunctionDef) and not n.name.startswith("_") and n.decorator_list == []:
                sig = getattr(cls, n.name).__doc__.splitlines()[0]
                for a in n.args.args[1:]:
                    assert f"{a.arg}: " in sig, (name, n.name, sig)


def test_docstrings():
    for name in tabai.__all__:
        obj = getattr(tabai, name)
        if callable(obj):
            assert obj.__doc__ and len(obj.__doc__) > 40, name
        if isinstance(obj, type):
            for k, v in vars(obj).items():
                if not k.startswith("_"):
                    assert v.__doc__, f"{name}.{k}"
    assert "Raises" in tabai.powmod.__doc__ and "Time" in tabai.powmod.__doc__
    assert "Constant time" in tabai.Montgomery.mul.__doc__
    assert "Variable time" in tabai.Ohta.inv.__doc__
    assert tabai.__doc__ and inspect.getdoc(tabai.cli)


def test_version():
    assert tabai.__version__ == _core.c_version()
    assert tabai.MAX_BITS == 8192
