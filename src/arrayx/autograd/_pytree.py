"""Pytrees: arguments and results that are tuples, lists and dicts of arrays, nested.

A tree flattens to its leaves (arrays, tracers and numbers, in a fixed order: sequences in
order, dicts by sorted key) and a description of its structure that rebuilds it from new
leaves. ``None`` is an empty subtree, as in JAX. Named tuples keep their type.
"""

from __future__ import annotations

from typing import Any

# A structure: LEAF, NONE, or (type, keys, children) for a tuple, list or dict.
LEAF = "leaf"
NONE = "none"


def flatten(tree: Any) -> tuple[list, Any]:
    """The leaves of ``tree`` and its structure."""
    if tree is not None and not isinstance(tree, (dict, tuple, list)):
        return [tree], LEAF
    leaves: list = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree: Any, leaves: list):
    if tree is None:
        return NONE
    if isinstance(tree, dict):
        keys = sorted(tree)
        return (dict, tuple(keys), tuple(_flatten(tree[k], leaves) for k in keys))
    if isinstance(tree, (tuple, list)):
        return (type(tree), None, tuple(_flatten(item, leaves) for item in tree))
    leaves.append(tree)
    return LEAF


def rebuild(kind: type, items) -> Any:
    """A ``kind`` (a tuple, list or named tuple type) of ``items``."""
    return kind(*items) if hasattr(kind, "_fields") else kind(items)


def unflatten(structure: Any, leaves) -> Any:
    """The tree of ``structure`` with ``leaves`` (in order) in place of its leaves."""
    if structure is LEAF and len(leaves) == 1:
        return leaves[0]
    it = iter(leaves)
    out = _unflatten(structure, it)
    if next(it, _END) is not _END:
        raise ValueError("more leaves than the tree has")
    return out


_END = object()


def _unflatten(structure: Any, it):
    if structure == LEAF:
        item = next(it, _END)
        if item is _END:
            raise ValueError("fewer leaves than the tree has")
        return item
    if structure == NONE:
        return None
    kind, keys, children = structure
    items = [_unflatten(child, it) for child in children]
    if kind is dict:
        return dict(zip(keys, items, strict=True))
    return rebuild(kind, items)

