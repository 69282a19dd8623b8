"""In-place updates of traced arrays, recorded as functional updates.

``x[key] = v`` writes ``x``'s memory in place, as it does untraced, and records a node
``index_update(x, key, v)``: the gradient flows to the old ``x`` (zero where ``key`` selects)
and to ``v`` (``g[key]``, summed to ``v``'s shape). In-place operators (``x += y``) are the
same update with every element selected.

Three things keep the tape right when memory changes under it (what PyTorch does with
version counters, view tracking and ``CopySlices``, without refusing what it refuses):

- **Saved values are kept.** Before the write, every value that a node of the trace saved for
  its backward pass and that lives in the written memory is replaced, in that node's closure,
  by a copy of itself: the backward pass sees the values the forward pass used.
- **An update through a view is an update of its root.** A view (``Tracer.base``) knows the
  operations that made it from the tracer that owns its memory; the update is recorded on
  that root as an update of the root's positions that the view selects.
- **A view sees updates of its root.** A view whose root was updated since its node was made
  is made again from the root when it is next used (``_tracer.refresh``).
"""

from __future__ import annotations

import math

import arrayx
from arrayx.autograd import _rules
from arrayx.autograd._backward import saved_values
from arrayx.autograd._tracer import Node, Tracer, current, live, plain, refresh, traced, unwrap


def setitem(x: Tracer, key, value) -> None:
    """``x[key] = value`` on a tracer."""
    key = plain(key)
    if type(value) is Tracer and value.level > x.level:
        # The value belongs to an inner trace: x joins it, as a constant of that trace.
        outer = Tracer(x.value, x.node, x.level)
        outer.base = x.base
        x.value, x.node, x.level, x.base = outer, None, value.level, None
    level = x.level
    if level > len(live.traces):
        raise RuntimeError("a traced array was updated after the transformation that made it "
                           "ended")
    if x.base is not None:
        refresh(x)
    if type(value) is Tracer and value.level == level:
        v, vnode = current(value)
    else:
        v, vnode = plain(value), None
    if type(v) is Tracer and type(x.value) is not Tracer:
        # The value is traced by an enclosing trace too: x's value joins it as a constant.
        x.value = Tracer(x.value, None, v.level)
    trace = live.traces[level - 1]
    storage = unwrap(x.value)._base_storage
    keep_saved(trace, storage)
    x.value[key] = v
    trace.mutations.append((storage, len(trace.tape), "__setitem__"))
    if x.base is None:
        _record(trace, x, key, v, vnode)
    else:
        _record_on_root(trace, x, key, vnode)


def _record(trace, x: Tracer, key, v, vnode) -> None:
    node = x.node
    if node is None and vnode is None:
        return
    if key is Ellipsis and vnode is not None and v.shape == x.shape and v.dtype == x.dtype:
        x.node = vnode
        return
    makers = _rules.UPDATES["index_update"]
    vjp = (None if node is None else makers[0](None, None, key, v),
           None if vnode is None else makers[2](None, None, key, v))
    new = Node(vjp, (node, vnode), x.value.shape, x.value.dtype, "__setitem__")
    trace.tape.append(new)
    x.node = new


def _record_on_root(trace, view: Tracer, key, vnode) -> None:
    """The update ``view[key] = v`` recorded on the view's root, at the root's positions
    that the view selects."""
    root, steps, _ = view.base
    if root.node is None and vnode is None:
        return
    positions = arrayx.reshape(arrayx.arange(math.prod(root.shape), dtype=arrayx.int64),
                               root.shape)
    for _, follow in steps:
        positions = follow(positions)
    selected = unwrap(positions)[key]
    flat = arrayx.reshape(selected, (-1,))
    shape = root.shape
    makers = _rules.UPDATES["flat_update"]
    vjp = (None if root.node is None else makers[0](shape, flat),
           None if vnode is None else makers[1](selected.shape, flat))
    new = Node(vjp, (root.node, vnode), shape, root.dtype, "__setitem__")
    trace.tape.append(new)
    root.node = new


def rebind(x: Tracer, result, op: str):
    """``x op= y``: ``result`` written into ``x`` (of ``x``'s dtype and shape), in place."""
    if type(result) is not Tracer:
        return result
    if result.shape != x.shape:
        raise ValueError(f"{op} cannot change the shape {x.shape} to {result.shape}")
    if result.dtype != x.dtype:
        result = traced.astype(result, x.dtype)
    setitem(x, Ellipsis, result)
    return x


def keep_saved(trace, storage) -> None:
    """Replace each value that a node of ``trace`` saved in ``storage`` by a copy, before
    that memory is written. The saved values are indexed once per node, by storage."""
    index = trace.saved
    tape = trace.tape
    for node in tape[trace.indexed:]:
        for cell, slot, array in saved_values(node):
            index.setdefault(array._base_storage, []).append((cell, slot))
    trace.indexed = len(tape)
    for cell, slot in index.pop(storage, ()):
        content = cell.cell_contents
        if slot < 0:
            cell.cell_contents = _copy(content)
        elif isinstance(content, list):
            content[slot] = _copy(content[slot])
        else:
            cell.cell_contents = content[:slot] + (_copy(content[slot]),) + content[slot + 1:]


def _copy(item):
    """A copy of a saved value: the same tracer levels over a copy of the memory."""
    if type(item) is Tracer:
        return Tracer(_copy(item.value), item.node, item.level)
    return arrayx.asarray(item, copy=True)
