"""The backward pass: a tape walked in reverse, cotangents accumulated on its nodes."""

from __future__ import annotations

from arrayx._array import Array
from arrayx.autograd._tracer import Node, Trace, fit, unwrap


def backward(trace: Trace, outs: list, retain: bool) -> None:
    """Send the cotangents of ``outs`` (pairs of a node and its cotangent) back through
    ``trace``'s tape to the input nodes.

    Each node's closures run once, newest node first (the tape's order is a topological
    order); a node whose cotangent is still ``None`` (a symbolic zero) is skipped. Unless
    ``retain``, each node lets its closures, and so its saved values, go as soon as they have
    run.
    """
    tape = trace.tape
    mutations = trace.mutations
    for out, cotangent in outs:
        out.g = cotangent if out.g is None else out.g + cotangent
    for i in range(len(tape) - 1, -1, -1):
        node = tape[i]
        g = node.g
        if g is None:
            continue
        node.g = None
        vjp = node.vjp
        if mutations:
            check_saved(node, i, mutations)
        if not retain:
            node.vjp = None
        grads = None if type(vjp) is tuple else vjp(g)
        for k, parent in enumerate(node.parents):
            if parent is None:
                continue
            if grads is None:
                fn = vjp[k]
                if fn is None:
                    continue
                pg = fn(g)
            else:
                pg = grads[k]
            if pg is None:
                continue
            if pg.shape != parent.shape or pg.dtype != parent.dtype:
                pg = fit(pg, parent)
            held = parent.g
            parent.g = pg if held is None else held + pg


def saved_values(node: Node):
    """Where ``node``'s backward closures hold arrays: ``(cell, slot, array)`` for each, with
    ``slot`` the index in the tuple or list the cell holds (-1 for the cell's own value) and
    ``array`` the plain array under any tracers."""
    vjp = node.vjp
    for fn in vjp if type(vjp) is tuple else (vjp,):
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            many = isinstance(value, (tuple, list))
            for slot, item in enumerate(value) if many else ((-1, value),):
                item = unwrap(item)
                if isinstance(item, Array):
                    yield cell, slot, item


def check_saved(node: Node, index: int, mutations: list) -> None:
    """Raise if ``node`` (the ``index``-th of its tape) saved an array whose memory an
    in-place update made after it then changed, as PyTorch's version counters do."""
    for _, _, array in saved_values(node):
        storage = array._base_storage
        for changed, at, op in mutations:
            if at > index and changed is storage:
                raise RuntimeError(
                    f"{node.name} saved a value for the backward pass that {op} then "
                    f"modified in place; the gradient would be wrong. Update a copy "
                    f"(xp.asarray(x, copy=True)) or update before {node.name} uses it")
