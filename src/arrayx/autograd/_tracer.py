"""The tracer: an array-API array that records the operations applied to it.

A :class:`Tracer` wraps a value (an arrayx ``Array``, or the tracer of an enclosing trace when
transformations nest) with the :class:`Node` that produced it and the number of its trace.
Every function of the traced namespace (``traced``, filled in by ``_namespace``) unwraps the
tracers of the innermost trace among its arguments, runs on their values (again through the
traced namespace when an enclosing trace is live) and wraps the result with a new node that
holds the rule's backward closures. Nodes are appended to their trace's tape, so the tape in
reverse is a topological order for the backward pass.

Symbolic zero is ``None``: a rule returns ``None`` for an input that gets no gradient, and the
backward pass never materialises it.

Every array an operation makes inside a trace is a tracer of it, integer and boolean results
included (as constants, without a node), so that code which finds its namespace from several
arrays (``array_namespace(x, mask)``) finds one. The live traces are per thread.
"""

from __future__ import annotations

import threading
import types
import warnings

from arrayx._kernels.ops import OPERATORS
from arrayx.autograd._pytree import rebuild

# The traced namespace: every name of arrayx's, filled in by ``arrayx.autograd._namespace``.
traced = types.ModuleType("arrayx.autograd.numpy", "arrayx's namespace, recording gradients.")

# Operations whose result may share memory with their first input. When it does, the result
# remembers how it was made from its root (``Tracer.base``, see ``_mutation``): an update of
# the root is seen by the view, and an update of the view is recorded on the root. The value
# says how a view's positions in the root follow from the root's: by the same operation, or
# unchanged (a cast to the same dtype). (``real`` and ``imag`` make copies in arrayx.)
VIEW_OPS = {
    "__getitem__": "same", "reshape": "same", "permute_dims": "same",
    "matrix_transpose": "same", "expand_dims": "same", "squeeze": "same",
    "broadcast_to": "same", "flip": "same", "moveaxis": "same", "linalg.diagonal": "same",
    "linalg.matrix_transpose": "same", "astype": "identity",
}


class Trace:
    """One live transformation: its depth, its tape of nodes, and its in-place updates."""

    __slots__ = ("level", "tape", "mutations", "saved", "indexed")

    def __init__(self, level: int) -> None:
        self.level = level
        self.tape: list[Node] = []
        self.mutations: list[tuple[object, int, str]] = []
        # The saved values of the tape's first ``indexed`` nodes, by storage (``_mutation``).
        self.saved: dict = {}
        self.indexed = 0


class _Live(threading.local):
    """This thread's live traces, innermost last: ``traces[k - 1]`` has level ``k``."""

    def __init__(self) -> None:
        self.traces: list[Trace] = []


live = _Live()


def push_trace() -> Trace:
    """Open a new innermost trace in this thread."""
    traces = live.traces
    trace = Trace(len(traces) + 1)
    traces.append(trace)
    return trace


def pop_trace(trace: Trace) -> None:
    """Close ``trace`` (this thread's innermost one)."""
    traces = live.traces
    if not traces or traces[-1] is not trace:
        raise RuntimeError("traces were closed out of order")
    traces.pop()


def current_level() -> int:
    """The level of this thread's innermost live trace, 0 when none is live."""
    return len(live.traces)


class Node:
    """A step of the tape: the backward closures of one operation and where its inputs came
    from. ``vjp`` is a tuple of per-input closures (``None`` where an input needs no
    gradient) or one closure returning a tuple; ``g`` accumulates the cotangent."""

    __slots__ = ("vjp", "parents", "g", "shape", "dtype", "name", "__weakref__")

    def __init__(self, vjp, parents, shape, dtype, name):
        self.vjp = vjp
        self.parents = parents
        self.g = None
        self.shape = shape
        self.dtype = dtype
        self.name = name


class Tracer:
    """An array being differentiated: an array-API array whose namespace is the traced one.

    ``value`` is the array it stands for (or the tracer of an enclosing trace), ``node`` the
    step that made it (``None`` for a constant) and ``level`` the depth of its trace. ``base``
    is ``None``, or for a view ``(root, steps, root_node)``: the tracer whose memory it views,
    the view operations that make it from the root, and the root's node when the view's node
    was made (a root updated since makes the view's node stale).
    """

    __slots__ = ("value", "node", "level", "base", "__weakref__")

    def __init__(self, value, node, level: int) -> None:
        self.value = value
        self.node = node
        self.level = level
        self.base = None

    def __array_namespace__(self, *, api_version=None):
        """The traced namespace: arrayx's functions, recording gradients."""
        if api_version is not None and api_version not in ("2021.12", "2022.12", "2023.12",
                                                           "2024.12", "2025.12"):
            raise ValueError(f"unsupported api_version {api_version!r}")
        return traced

    shape = property(lambda self: self.value.shape, doc="The shape of the value.")
    dtype = property(lambda self: self.value.dtype, doc="The dtype of the value.")
    ndim = property(lambda self: self.value.ndim, doc="The number of dimensions.")
    size = property(lambda self: self.value.size, doc="The number of elements.")
    device = property(lambda self: self.value.device, doc="The device of the value.")
    T = property(lambda self: traced.permute_dims(self, (1, 0)) if self.ndim == 2
                 else self.value.T, doc="The transpose of a 2-D array.")
    mT = property(lambda self: traced.matrix_transpose(self),
                  doc="The transpose of the last two axes.")

    def to_device(self, device, /, *, stream=None):
        """The array on ``device`` (the CPU is the only device: the same tracer)."""
        self.value.to_device(device, stream=stream)
        return self

    def __bool__(self) -> bool:
        return bool(self.value)

    def __int__(self) -> int:
        return int(self.value)

    def __float__(self) -> float:
        _warn_lost(self, "float")
        return float(self.value)

    def __complex__(self) -> complex:
        _warn_lost(self, "complex")
        return complex(self.value)

    def __index__(self) -> int:
        return self.value.__index__()

    def __len__(self) -> int:
        return len(self.value)

    def __repr__(self) -> str:
        return f"Tracer({self.value!r}, level={self.level})"

    def __array__(self, dtype=None, copy=None):
        if carries_gradient(self):
            raise TypeError("a traced array cannot become a NumPy array: its gradient would "
                            "be lost (use arrayx.autograd.stop_gradient(x) first)")
        return unwrap(self).__array__(dtype=dtype, copy=copy)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if carries_gradient(self):
            raise TypeError("a traced array cannot be exported through DLPack: its gradient "
                            "would be lost (use arrayx.autograd.stop_gradient(x) first)")
        return unwrap(self).__dlpack__(stream=stream, max_version=max_version,
                                       dl_device=dl_device, copy=copy)

    def __dlpack_device__(self) -> tuple:
        return unwrap(self).__dlpack_device__()

    def __getitem__(self, key):
        return traced.getitem(self, plain(key))

    def __setitem__(self, key, value) -> None:
        from arrayx.autograd._mutation import setitem
        setitem(self, key, value)

    __hash__ = None


def binary_method(fn, reflected: bool):
    """The operator method that calls the binary function ``fn`` (reflected: ``other``
    first)."""
    if reflected:
        def method(self, other):
            return fn(other, self)
    else:
        def method(self, other):
            return fn(self, other)
    return method


def tracer_inplace(fn, op: str):
    """The in-place operator method of :class:`Tracer`: the result rebinds the tracer."""
    def method(self, other):
        from arrayx.autograd._mutation import rebind
        return rebind(self, fn(self, other), op)
    return method


def unary_method(fn):
    """The operator method that calls the unary function ``fn``."""
    def method(self):
        return fn(self)
    return method


# Operator -> namespace function (``ops.OPERATORS``, and ``@``); each binary one gives
# __op__, __rop__ and __iop__.
BINARY_OPERATORS = {stem: op for stem, op, form in OPERATORS if form in ("binary", "power")}
BINARY_OPERATORS["matmul"] = "matmul"
COMPARISONS = {stem: op for stem, op, form in OPERATORS if form == "comparison"}
UNARY_OPERATORS = {stem: op for stem, op, form in OPERATORS if form == "unary"}


def install_operators(cls: type, namespace: types.ModuleType, inplace) -> None:
    """Give ``cls`` its operators, from the functions of ``namespace``; ``inplace(fn, name)``
    makes an in-place method from a binary function."""
    for op, name in BINARY_OPERATORS.items():
        fn = getattr(namespace, name)
        setattr(cls, f"__{op}__", binary_method(fn, False))
        setattr(cls, f"__r{op}__", binary_method(fn, True))
        setattr(cls, f"__i{op}__", inplace(fn, f"__i{op}__"))
    for op, name in COMPARISONS.items():
        setattr(cls, f"__{op}__", binary_method(getattr(namespace, name), False))
    for op, name in UNARY_OPERATORS.items():
        setattr(cls, f"__{op}__", unary_method(getattr(namespace, name)))


class GradientLostWarning(UserWarning):
    """A traced value became a Python number: the gradient does not flow through it."""


def carries_gradient(x) -> bool:
    """Whether ``x``, or a tracer under it, was computed from an input being differentiated."""
    while type(x) is Tracer:
        if x.node is not None or (x.base is not None and x.base[0].node is not None):
            return True
        x = x.value
    return False


def _warn_lost(x: Tracer, kind: str) -> None:
    if carries_gradient(x):
        warnings.warn(f"{kind}() of a traced array is a constant: no gradient flows through "
                      f"it (use arrayx.autograd.stop_gradient(x) to say so, or keep it an "
                      f"array)", GradientLostWarning, stacklevel=3)


def plain(x):
    """``x`` with tracers (also inside lists and tuples) replaced by the arrays under them:
    for indices, shapes and other arguments that carry no gradient."""
    if type(x) is Tracer:
        return unwrap(x)
    if isinstance(x, (list, tuple)) and any(type(i) is Tracer for i in x):
        return type(x)(plain(i) for i in x)
    return x


def differentiable(dtype) -> bool:
    """Whether arrays of ``dtype`` carry gradients (real and complex floating point)."""
    return dtype.kind in "fc"


def current(a: Tracer) -> tuple:
    """``a``'s value and node, brought up to date with its root where ``a`` is a view."""
    if a.base is not None:
        refresh(a)
    return a.value, a.node


def refresh(a: Tracer) -> None:
    """Bring view ``a``'s node up to date with its root: where the root was updated in place
    since the view's node was made, the view is made again from the root (its memory is the
    same; its node now reads the update)."""
    root, steps, seen = a.base
    if root.node is seen:
        return
    t = root
    for step, _ in steps:
        t = step(t)
    a.value, a.node, a.base = t.value, t.node, (root, steps, root.node)


def _split(args, top: int):
    """The values of ``args`` one trace down, their nodes, and whether an enclosing trace's
    tracer is among them (``lower``) and whether any input is live (has a node)."""
    vals = []
    parents = []
    lower = live_ = False
    for a in args:
        if type(a) is Tracer:
            if a.level == top:
                v, node = current(a)
                vals.append(v)
                parents.append(node)
                if node is not None:
                    live_ = True
                if type(v) is Tracer:
                    lower = True
                continue
            lower = True
        vals.append(a)
        parents.append(None)
    return vals, parents, lower, live_


def _top(args) -> int:
    top = 0
    for a in args:
        if type(a) is Tracer and a.level > top:
            top = a.level
    if top > len(live.traces):
        raise RuntimeError("a traced array was used after the transformation that made it "
                           "ended")
    return top


def primitive(fun, makers, name: str):
    """``fun`` traced: a function of the traced namespace for an operation with a rule.

    ``makers`` is the rule: a tuple with one maker per positional input, each
    ``maker(ans, *args, **kw) -> (g -> gradient)``, or one joint maker whose closure returns
    a tuple of gradients. One and two tracers of one trace take a fast path; everything else
    (nested traces, more arrays) the general one. Results that carry no gradient (integer
    and boolean ones, or those of constants) are constant tracers.
    """
    per_input = type(makers) is tuple
    first = makers[0] if per_input and makers else None
    second = makers[1] if per_input and len(makers) > 1 else None

    def record(ans, vals, parents, kw, top):
        if per_input:
            vjp = tuple(None if p is None or m is None else m(ans, *vals, **kw)
                        for m, p in zip(makers, parents, strict=False))
        else:
            vjp = makers(ans, *vals, **kw)
        node = Node(vjp, tuple(parents), ans.shape, ans.dtype, name)
        live.traces[top - 1].tape.append(node)
        return Tracer(ans, node, top)

    def general(args, kw):
        top = _top(args)
        if not top:
            return fun(*args, **kw)
        vals, parents, lower, live_ = _split(args, top)
        ans = op(*vals, **kw) if lower else fun(*vals, **kw)
        if not live_ or ans.dtype.kind not in "fc":
            return Tracer(ans, None, top)
        return record(ans, vals, parents, kw, top)

    def op(*args, **kw):
        n = len(args)
        if n == 1:
            a = args[0]
            if type(a) is not Tracer:
                return fun(a, **kw)
            v, pa = current(a)
            top = a.level
            traces = live.traces
            if type(v) is Tracer or top > len(traces) or not per_input:
                return general(args, kw)
            ans = fun(v, **kw)
            if pa is None or ans.dtype.kind not in "fc":
                return Tracer(ans, None, top)
            node = Node((first(ans, v, **kw),), (pa,), ans.shape, ans.dtype, name)
            traces[top - 1].tape.append(node)
            return Tracer(ans, node, top)
        if n == 2:
            a, b = args
            ta = type(a) is Tracer
            tb = type(b) is Tracer
            if not (ta or tb):
                return fun(a, b, **kw)
            if not per_input or (ta and tb and a.level != b.level):
                return general(args, kw)
            top = a.level if ta else b.level
            traces = live.traces
            if top > len(traces):
                return general(args, kw)
            pa = pb = None
            if ta:
                a, pa = current(a)
            if tb:
                b, pb = current(b)
            if type(a) is Tracer or type(b) is Tracer:
                return general(args, kw)
            ans = fun(a, b, **kw)
            if (pa is None and pb is None) or ans.dtype.kind not in "fc":
                return Tracer(ans, None, top)
            vjp = (None if pa is None or first is None else first(ans, a, b, **kw),
                   None if pb is None or second is None else second(ans, a, b, **kw))
            node = Node(vjp, (pa, pb), ans.shape, ans.dtype, name)
            traces[top - 1].tape.append(node)
            return Tracer(ans, node, top)
        return general(args, kw)

    if name in VIEW_OPS:
        return _named(_viewing(op, VIEW_OPS[name]), fun, name)
    return _named(op, fun, name)


def _viewing(op, positions):
    """``op``, whose result, when it shares its first input's memory, remembers how it was
    made from the root of that memory (``Tracer.base``)."""
    def view(*args, **kw):
        out = op(*args, **kw)
        a = args[0]
        if (type(out) is Tracer and type(a) is Tracer and a.level == out.level
                and unwrap(out)._base_storage is unwrap(a)._base_storage):
            rest = args[1:]

            def step(b):
                return op(b, *rest, **kw)
            follow = _same if positions == "identity" else step
            if a.base is None:
                out.base = (a, ((step, follow),), a.node)
            else:
                root, steps, seen = a.base
                out.base = (root, steps + ((step, follow),), seen)
        return out
    return view


def _same(x):
    return x


def _named(op, fun, name: str):
    op.__name__ = op.__qualname__ = name.rpartition(".")[2]
    op.__doc__ = getattr(fun, "__doc__", None)
    return op


def _project(joint: Node, i: int, n: int):
    """The backward closure of output ``i`` of a multi-output node: it files its cotangent
    in the joint node's list."""
    def send(g):
        slots = joint.g
        if slots is None:
            slots = joint.g = [None] * n
        slots[i] = g if slots[i] is None else traced.add(slots[i], g)
    return send


def primitive_multi(fun, maker, name: str):
    """``fun`` traced, for an operation that returns a tuple (or named tuple) of arrays.

    ``maker(ans, *args, **kw)`` returns a closure taking the list of the outputs' cotangents
    (``None`` for none) and returning a tuple of gradients."""
    def op(*args, **kw):
        top = _top(args)
        if not top:
            return fun(*args, **kw)
        vals, parents, lower, live_ = _split(args, top)
        ans = op(*vals, **kw) if lower else fun(*vals, **kw)
        joint = None
        tape = live.traces[top - 1].tape
        if live_:
            joint = Node(maker(ans, *vals, **kw), tuple(parents), None, None, name)
            tape.append(joint)
        outs = []
        for i, a in enumerate(ans):
            node = None
            if joint is not None and differentiable(a.dtype):
                node = Node((_project(joint, i, len(ans)),), (joint,), a.shape, a.dtype, name)
                tape.append(node)
            outs.append(Tracer(a, node, top))
        return rebuild(type(ans), outs)

    return _named(op, fun, name)


def sum_to(g, shape: tuple):
    """Undo broadcasting: ``g`` summed over the axes that broadcasting added or stretched, so
    that it has ``shape``. The one place gradients of broadcast inputs are reduced.

    Parameters
    ----------
    g : Array or Tracer
        A cotangent of a broadcast result.
    shape : tuple of int
        The shape of the input that was broadcast.

    Returns
    -------
    Array or Tracer
        ``g`` reduced to ``shape``.

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import sum_to
    >>> sum_to(xp.ones((2, 3)), (1, 3))
    Array([[2., 2., 2.]], dtype=float64)
    """
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and g.shape[lead + i] != 1)
    if axes:
        g = traced.sum(g, axis=axes, keepdims=True)
    return traced.reshape(g, shape) if g.shape != shape else g


def fit(g, node: Node):
    """``g`` as a cotangent of ``node``'s value: broadcast axes summed away, the imaginary
    part dropped for a real value, cast to the value's dtype."""
    if g.dtype != node.dtype:
        if g.dtype.kind == "c" and node.dtype.kind != "c":
            g = traced.real(g)
        if g.dtype != node.dtype:
            g = traced.astype(g, node.dtype)
    if g.shape != node.shape:
        g = sum_to(g, node.shape)
    return g


def unwrap(x):
    """The plain array under any number of tracers."""
    while type(x) is Tracer:
        x = x.value
    return x
