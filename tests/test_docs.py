"""Every public name has a numpydoc docstring whose examples run, and a reference page.

The public names are those of ``arrayx.__all__``, ``arrayx.linalg.__all__`` and
``arrayx.fft.__all__``, the attributes and methods the standard gives the array object, and
the methods of the inspection object. Objects that cannot carry a docstring of their own (the
dtypes, which are NumPy's, and the constants) are documented by ``.. data::`` entries of
``docs/reference/constants.rst``, whose examples run here too. The reference pages are found
by reading the sources under ``docs/reference`` (autosummary lists, ``.. data::`` and
``.. automodule::`` directives), so these tests need no Sphinx.
"""

from __future__ import annotations

import doctest
import inspect
import re
from pathlib import Path
from types import ModuleType

import pytest

import arrayx

DOCS = Path(__file__).resolve().parents[1] / "docs"
REFERENCE = DOCS / "reference"
#: The Markdown pages whose ``>>>`` examples run here, as the docstrings' do.
PAGES = sorted(p for p in [DOCS / "index.md", *DOCS.glob("guide/*.md")] if ">>>" in p.read_text())

#: The array object's attributes and methods in the standard (2025.12).
ARRAY_ATTRIBUTES = ["T", "device", "dtype", "mT", "ndim", "shape", "size"]
ARRAY_METHODS = [
    "__abs__", "__add__", "__and__", "__array_namespace__", "__bool__", "__complex__",
    "__dlpack__", "__dlpack_device__", "__eq__", "__float__", "__floordiv__", "__ge__",
    "__getitem__", "__gt__", "__index__", "__int__", "__invert__", "__le__", "__lshift__",
    "__lt__", "__matmul__", "__mod__", "__mul__", "__ne__", "__neg__", "__or__", "__pos__",
    "__pow__", "__rshift__", "__setitem__", "__sub__", "__truediv__", "__xor__", "to_device",
]
#: Cython never attaches a docstring to ``__bool__`` (its slot is "invisible" to Cython), so
#: ``bool(x)`` is documented, with an example, in the class docstring named here.
DOCUMENTED_ELSEWHERE = {"arrayx.Array.__bool__": ("arrayx.Array", "bool(")}
INFO_METHODS = ["capabilities", "default_device", "default_dtypes", "devices", "dtypes"]

SECTION = re.compile(r"^\s*(\w[\w ]*)\n\s*-{3,}\s*$", re.MULTILINE)
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _has_docstring(obj: object) -> bool:
    """Whether ``obj`` can carry a docstring of its own (functions, classes, modules)."""
    return isinstance(obj, ModuleType) or inspect.isclass(obj) or callable(obj)


def public_objects() -> dict[str, object]:
    """Every public name that carries its own docstring, by dotted name."""
    found: dict[str, object] = {}
    for module in (arrayx, arrayx.linalg, arrayx.fft):
        for name in module.__all__:
            obj = getattr(module, name)
            if _has_docstring(obj):
                found[f"{module.__name__}.{name}"] = obj
    for name in ARRAY_ATTRIBUTES + ARRAY_METHODS:
        found[f"arrayx.Array.{name}"] = getattr(arrayx.Array, name)
    info = type(arrayx.__array_namespace_info__())
    for name in INFO_METHODS:
        found[f"arrayx._info.Info.{name}"] = getattr(info, name)
    return found


def public_data() -> list[str]:
    """The public names that cannot carry a docstring: dtypes, constants, the version."""
    return [f"arrayx.{name}" for name in arrayx.__all__
            if not _has_docstring(getattr(arrayx, name))]


OBJECTS = public_objects()


def _sections(doc: str) -> set[str]:
    return {m.group(1).strip() for m in SECTION.finditer(doc)}


def _parameters(obj: object, doc: str) -> list[str]:
    """The parameters of ``obj`` other than ``self``, from its signature or, for Cython slot
    methods, which have none, from the signature Cython embeds in the docstring."""
    try:
        return [p for p in inspect.signature(obj).parameters if p != "self"]
    except (TypeError, ValueError):
        match = re.match(r"[\w.]+\((.*?)\)", doc)
        assert match, f"no signature for {obj!r}"
        names = [p.split("=")[0].strip() for p in match.group(1).split(",")]
        return [n for n in names if n not in ("", "self", "/", "*")]


def _run_examples(text: str, name: str) -> None:
    """Run the ``>>>`` examples of ``text`` in a fresh namespace; fail on any difference."""
    test = doctest.DocTestParser().get_doctest(text, {}, name, None, 0)
    assert test.examples, f"{name}: no examples"
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert not failures, "".join(failures)


def test_array_members_are_the_standards() -> None:
    public = {n for n in dir(arrayx.Array) if not n.startswith("_")}
    assert public <= set(ARRAY_ATTRIBUTES + ARRAY_METHODS)
    for name in ARRAY_ATTRIBUTES + ARRAY_METHODS:
        assert hasattr(arrayx.Array, name), name


def test_every_name_is_covered() -> None:
    names = set(OBJECTS) | set(public_data())
    for module in (arrayx, arrayx.linalg, arrayx.fft):
        for name in module.__all__:
            assert f"{module.__name__}.{name}" in names


def _returns_none(obj: object) -> bool:
    try:
        return inspect.signature(obj).return_annotation in (None, "None")
    except (TypeError, ValueError):  # a slot wrapper shows no signature
        return False


@pytest.mark.parametrize("name", sorted(OBJECTS))
def test_numpydoc_docstring(name: str) -> None:
    if name in DOCUMENTED_ELSEWHERE:
        owner, needle = DOCUMENTED_ELSEWHERE[name]
        doc = OBJECTS[owner].__doc__ or ""
        assert needle in doc.split("Examples", 1)[-1], f"{owner} does not show {needle}"
        return
    obj = OBJECTS[name]
    doc = inspect.cleandoc(obj.__doc__ or "")
    sections = _sections(doc)
    assert "Examples" in sections, f"{name}: no Examples section"
    if isinstance(obj, ModuleType) or inspect.isclass(obj) or not callable(obj):
        return
    # numpydoc leaves out the Returns section of a function that returns None.
    assert "Returns" in sections or _returns_none(obj), f"{name}: no Returns section"
    if _parameters(obj, doc):
        assert "Parameters" in sections, f"{name}: no Parameters section"
    # Shared blocks (arrayx._docfill) are filled in: no placeholder line is left.
    assert not re.search(r"^\s*%\(\w+\)s\s*$", doc, re.MULTILINE), f"{name}: unfilled block"


@pytest.mark.parametrize("name", sorted(set(OBJECTS) - set(DOCUMENTED_ELSEWHERE)))
def test_examples_run(name: str) -> None:
    _run_examples(inspect.cleandoc(OBJECTS[name].__doc__ or ""), name)


def _reference_entries() -> set[str]:
    """The dotted names the reference sources give a page."""
    names: set[str] = set()
    for path in sorted(REFERENCE.glob("*.rst")):
        module = "arrayx"
        in_summary = in_data = False
        for line in path.read_text().splitlines():
            stripped = line.strip()
            if match := re.match(r"\.\. (?:current)?module:: (\S+)", stripped):
                module = match.group(1)
            if match := re.match(r"\.\. automodule:: (\S+)", stripped):
                names.add(match.group(1))
            # A data directive may stack several names, one a line.
            if match := re.match(r"\.\. data:: (\S+)", stripped):
                names.add(f"{module}.{match.group(1)}")
                in_data = True
                continue
            if in_data and stripped and line.startswith("   ") and " " not in stripped:
                names.add(f"{module}.{stripped}")
                continue
            in_data = False
            if stripped.startswith(".. autosummary::"):
                in_summary = True
                continue
            if in_summary:
                if line and not line[0].isspace():
                    in_summary = False
                elif stripped and not stripped.startswith(":"):
                    names.add(f"{module}.{stripped.lstrip('~')}")
    return names


def test_every_name_has_a_reference_page() -> None:
    pages = _reference_entries()
    missing = sorted(n for n in set(OBJECTS) | set(public_data()) if n not in pages)
    assert not missing, f"no reference page: {missing}"


def test_constants_page_examples_run() -> None:
    _run_examples((REFERENCE / "constants.rst").read_text(), "constants.rst")


def test_pages_with_examples_exist() -> None:
    assert DOCS / "guide" / "quickstart.md" in PAGES


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples_run(page: Path) -> None:
    # A code fence closes an example's expected output, as a blank line would.
    text = "\n".join("" if line.startswith("```") else line
                     for line in page.read_text().splitlines())
    _run_examples(text, str(page.relative_to(DOCS)))


def test_docfill_puts_each_block_at_its_placeholders_indentation() -> None:
    from arrayx._docfill import expand

    doc = "Summary.\n\n    Parameters\n    ----------\n    %(x_real)s\n    y : int\n        Y.\n"
    assert expand(doc, {"x_real": "x : Array\n    A real-valued array.\n\nmore"}) == (
        "Summary.\n\n    Parameters\n    ----------\n    x : Array\n        A real-valued "
        "array.\n\n    more\n    y : int\n        Y.\n")
    with pytest.raises(KeyError):
        expand("    %(missing)s", {})


def test_each_op_of_the_table_is_a_documented_function():
    """One public function per elementwise op of ``_kernels/ops.py``, signed as the standard
    writes it, with one row of documentation each (and none without an op)."""
    from arrayx import _elementwise, _elementwise_docs
    from arrayx._kernels.ops import BINARY, UNARY

    unary = [name for name, *_ in UNARY]
    binary = [name for name, *_ in BINARY]
    assert sorted(_elementwise_docs.DOCS) == sorted(unary + binary)
    assert set(_elementwise.__all__) == {*unary, *binary, "clip"} <= set(arrayx.__all__)
    for names, params in ((unary, ["x"]), (binary, ["x1", "x2"])):
        for name in names:
            function = getattr(arrayx, name)
            assert function.__name__ == function.__code__.co_name == name
            signature = inspect.signature(function)
            assert list(signature.parameters) == params
            assert all(p.kind is p.POSITIONAL_ONLY for p in signature.parameters.values())
            description, examples = _elementwise_docs.DOCS[name]
            doc = inspect.getdoc(function)
            assert doc.startswith(description) and doc.endswith(examples.strip())
            for section in ("Parameters", "Returns", "Examples"):
                assert f"\n{section}\n{'-' * len(section)}\n" in doc, (name, section)
