"""In-place updates of traced arrays, recorded as functional updates.

``x[key] = v`` writes ``x``'s memory in place, as it does untraced, and appends a node
``index_update(x, key, v)``: the gradient flows to the old ``x`` (zero where ``key`` selects)
and to ``v`` (``g[key]``, summed to ``v``'s shape). The write is recorded with the memory it
changed, and the backward pass raises if a node made earlier saved that memory.

In-place operators (``x += y``) rebind the tracer to the result of the operation: no saved
value changes, so they never invalidate the tape.
"""

from __future__ import annotations

from arrayx.autograd import _rules
from arrayx.autograd._tracer import VIEW_OPS, Node, Tracer, _traces, traced, unwrap


def setitem(x: Tracer, key, value) -> None:
    """``x[key] = value`` on a tracer."""
    if type(value) is Tracer and value.level > x.level:
        # The value belongs to an inner trace: x joins it, as a constant of that trace.
        x.value, x.node, x.level = Tracer(x.value, x.node, x.level), None, value.level
    level = x.level
    if level > len(_traces):
        raise RuntimeError("a traced array was updated after the transformation that made it "
                           "ended")
    node = x.node
    if node is not None and node.name in VIEW_OPS:
        raise ValueError(
            f"this traced array may be a view made by {node.name}; an in-place update of it "
            f"would change the array it views without the tape knowing. Update the base "
            f"array, or a copy (xp.asarray(x, copy=True))")
    if type(value) is Tracer and value.level == level:
        v, vnode = value.value, value.node
    else:
        v, vnode = value, None
    if type(v) is Tracer and type(x.value) is not Tracer:
        # The value is traced by an enclosing trace too: x's value joins it as a constant.
        x.value = Tracer(x.value, None, v.level)
    x.value[key] = v
    trace = _traces[level - 1]
    trace.mutations.append((unwrap(x.value)._base_storage, len(trace.tape), "__setitem__"))
    if node is None and vnode is None:
        return
    makers = _rules.UPDATES["index_update"]
    vjp = (None if node is None else makers[0](None, None, key, v),
           None if vnode is None else makers[2](None, None, key, v))
    new = Node(vjp, (node, vnode), x.value.shape, x.value.dtype, "__setitem__")
    trace.tape.append(new)
    x.node = new


def rebind(x: Tracer, result, op: str):
    """``x op= y``: ``x`` becomes ``result`` (of ``x``'s dtype and shape)."""
    if type(result) is not Tracer:
        return result
    if result.shape != x.shape:
        raise ValueError(f"{op} cannot change the shape {x.shape} to {result.shape}")
    if result.dtype != x.dtype:
        result = traced.astype(result, x.dtype)
    x.value, x.node, x.level = result.value, result.node, result.level
    return x
