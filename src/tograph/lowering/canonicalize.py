"""Lowering step 2: expressions and mutations rewritten into calls the runtime can dispatch.

Input: a gast ``FunctionDef`` after ``lowering.jumps``. Output: the same function where
- ``a and b`` / ``a or b`` / ``not a`` / ``a if c else b`` / chained comparisons call ``_t.and_``,
  ``_t.or_``, ``_t.not_``, ``_t.if_exp``, ``_t.compare_chain`` with the lazily evaluated operands
  in lambdas (short-circuit semantics kept, also when the condition is a tensor; an ``and`` or
  ``or`` that is the whole test of an ``if`` or ``while`` passes ``True`` after them: only its
  truth matters); ``a is b`` calls
  ``_t.is_`` (``_t.is_not``), which compares a tensor standing for a Python bool by value;
  ``a in b`` calls ``_t.in_`` (``_t.not_in``), which searches a list of tensor values when the
  graph runs;
- ``x[i] = v`` and ``x[i] += v`` become ``x = _t.setitem(x, i, v)`` (a new value for tensors,
  in-place for Python lists and dicts), ``x.append(v)`` becomes ``x = _t.list_append(x, v)``,
  ``del x[i]`` becomes ``_t.delitem(x, i)``; a method that changes a list, dict or set in place
  called on a value from outside the function (``log.append(v)`` for a global ``log``) becomes
  ``_t.call_outside(log, 'append', v)``, which falls back for such a container; a value bound
  to two names (``b = a``), or stored into a list, tuple, dict or set (``{"k": p}``, ``[p]``,
  ``d[k] = p``, ``out.append(p)``), goes through ``_t.shared``, so that a list or dict changed
  through one name inside tensor control flow falls back; so does an attribute bound to a name,
  stored, or passed to a user function (``h = self.hist``, ``g(self.hist)``), whose list may
  grow through the attribute (``staging.attribute_lists``);
- ``obj.name = v`` and ``obj.name += v`` become ``_t.setattr_local(v, obj, 'name')`` (the value
  computed first), which refuses changing an object made before the tensor control flow around
  the write, and ``_t.setattr_outside`` for an ``obj`` from outside the function;
- ``v[i]`` read at a computed index becomes ``_t.getitem(v, i)`` (a lookup table indexed by a
  tensor);
- ``"template" % values`` becomes ``_t.percent_format("template", values)`` (a tensor's
  conversion is formatted when the graph runs);
- ``assert c, msg`` becomes ``_t.assert_(c, lambda: msg)`` and ``raise e`` becomes ``_t.raise_(e)``
  (both act when the graph runs if they sit in tensor control flow);
- ``super()`` in a method (whose ``__class__`` cell the lowered function keeps) becomes
  ``super(__class__, self)``: called from the runtime, it could not find them in its frame;
- calls go through ``_t.call(f, ...)`` so user functions are converted and builtins such as
  ``range``, ``len``, ``print`` or ``np.zeros`` accept tensors, except NumPy functions that
  dispatch to tensors by themselves and tensor methods (``x.mean()`` becomes
  ``_t.method(x, 'mean')()``, which is the tensor's own method, or a user object's method
  converted as ``_t.call`` converts it), which are left as written unless given a
  list or tuple written in the call, or a name the function binds to one or receives as a
  parameter that holds one in this call (``np.mean(segments, axis=0)`` of a list of arrays):
  NumPy would read such a list as one array, so the runtime stacks it first.
"""

from __future__ import annotations

import builtins
import types
from typing import Any

import gast
import numpy as np

from tograph.analysis import mutation
from tograph.frontend import names, nodes
from tograph.lowering import comprehensions, templates
from tograph.trace import dispatch

RUNTIME = "_t"

# Tensor methods that need no conversion; calls to them stay as written.
TENSOR_METHODS = frozenset(
    [
        "sum",
        "mean",
        "prod",
        "max",
        "min",
        "argmax",
        "argmin",
        "cumsum",
        "reshape",
        "transpose",
        "astype",
        "dot",
        "clip",
        "squeeze",
        "flatten",
        "ravel",
        "copy",
        "any",
        "all",
        "std",
        "var",
        "cumprod",
        "repeat",
        "take",
        "diagonal",
        "trace",
        "nonzero",
        "compress",
    ]
)


# NumPy functions that iterate their first argument before dispatching, often given a list built
# in a loop: they go through _t.call, which stacks a tensor list first. (Functions that dispatch
# on the argument itself, like np.mean(losses), reach SymbolicList.__array_function__.)
_TAKE_SEQUENCES = frozenset((np.stack, np.concatenate, np.vstack, np.hstack, np.column_stack))


def _mark_condition(tests: list[Any]) -> None:
    """Marks the ``and``/``or`` among ``tests`` as tested for truth only (``_t.and_``'s
    ``condition``)."""
    for test in tests:
        if isinstance(test, gast.BoolOp):
            test.condition = True


def _lam(body: Any) -> gast.Lambda:
    """``lambda: body``, an operand the runtime evaluates lazily, during the call it is given to
    (so no closure over ``body``'s names outlives it: ``names.captured`` skips it)."""
    args = gast.arguments(
        args=[], posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
    )
    lam = gast.copy_location(gast.Lambda(args=args, body=body), body)
    lam.called_at_once = True
    return lam


def _rt_call(fn: str, args: list[Any], origin: Any) -> gast.Call:
    func = gast.Attribute(value=templates.name(RUNTIME), attr=fn, ctx=gast.Load())
    call = gast.Call(func=func, args=args, keywords=[])
    return templates.set_location(call, origin)


def _first_param(fn: gast.FunctionDef) -> str | None:
    """The name of ``fn``'s first positional parameter (what ``super()`` binds), if any."""
    positional = [*fn.args.posonlyargs, *fn.args.args]
    return positional[0].id if positional else None


def _local_names(fn: gast.FunctionDef) -> set[str]:
    return set(names.params(fn)) | names.assigned(fn.body)


# The parameters of the comparisons of a chain (``lambda left, right: left < right``).
_CHAIN_OPERANDS = ("left", "right")


def _comparison(left: Any, op: Any, right: Any, origin: Any) -> Any:
    """``left op right``; ``is`` and ``is not`` as calls of the runtime's ``is_`` and ``is_not``,
    but against ``None``, which ``lowering.guards`` makes ``_t.is_none`` (for optional values);
    ``in`` and ``not in`` as ``_t.in_`` and ``_t.not_in`` (a list of tensor values is searched
    when the graph runs)."""
    if isinstance(op, (gast.Is, gast.IsNot)) and not any(
        isinstance(n, gast.Constant) and n.value is None for n in (left, right)
    ):
        return _rt_call("is_" if isinstance(op, gast.Is) else "is_not", [left, right], origin)
    if isinstance(op, (gast.In, gast.NotIn)):
        return _rt_call("in_" if isinstance(op, gast.In) else "not_in", [left, right], origin)
    return templates.set_location(gast.Compare(left=left, ops=[op], comparators=[right]), origin)


def _computed_index(index: Any) -> bool:
    """Whether a subscript's index is computed (it reads a variable or calls something) and holds
    no slice, so that it can be passed to a call as it is."""
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    if any(isinstance(p, gast.Slice) for p in parts):
        return False
    return any(isinstance(n, (gast.Name, gast.Call)) for p in parts for n in gast.walk(p))


def _root_name(node: Any) -> str | None:
    while isinstance(node, (gast.Subscript, gast.Attribute)):
        node = node.value
    return node.id if isinstance(node, gast.Name) else None


class _Canonicalize(nodes.Transformer):
    def __init__(
        self,
        globals_: dict[str, Any],
        fn: gast.FunctionDef,
        sequence_params: frozenset[str] | None = None,
        walked: list[Any] | None = None,
        class_cell: bool = False,
    ):
        self.globals = globals_
        # the first parameter of each function being visited, None where ``super()`` stays
        # (a lambda, a function without a ``__class__`` cell or without positional parameters)
        self.super_self: list[str | None] = [_first_param(fn) if class_cell else None]
        self.temporaries = 0
        # Only a function's own variables may be rebound by a functional update; a global or
        # closure list or dict is mutated in place, as Python would.
        tree = nodes.walk(fn) if walked is None else walked  # serves the names and analyses
        self.locals = [names.function_locals(fn, tree)]
        self.mutation = mutation.analyze(fn, globals_, tree)
        self.changed_containers = changed_in_place(tree)
        self.changed_aliases = _changed_aliases(tree, self.changed_containers)
        params = names.params(fn) if sequence_params is None else sequence_params
        self.sequences = _sequence_names(tree, set(params), self._resolve)

    def _is_local(self, node: Any) -> bool:
        return _root_name(node) in self.locals[-1]

    def _stored(self, node: Any) -> Any:
        """``node``, a value stored into a list, tuple, dict or set (``[p]``, ``{"k": p}``,
        ``d[k] = p``, ``out.append(p)``), through ``_t.shared`` when it is a local variable that
        some code changes in place as a container, or an attribute (``[self.hist]``): reached
        two ways, a change through one inside tensor control flow must show through the
        other, which the graph cannot do."""
        if (
            isinstance(node, gast.Name)
            and isinstance(node.ctx, gast.Load)
            and node.id in self.changed_containers
            and self._is_local(node)
        ) or _attribute_of_local(node):
            return _rt_call("shared", [node], node)
        return node

    def visit_List(self, node: gast.List) -> Any:
        self.generic_visit(node)
        if isinstance(node.ctx, gast.Load):
            node.elts = [self._stored(e) for e in node.elts]
        return node

    visit_Tuple = visit_List

    def visit_Set(self, node: gast.Set) -> Any:  # a display, always read: no ``ctx``
        self.generic_visit(node)
        node.elts = [self._stored(e) for e in node.elts]
        return node

    def visit_Dict(self, node: gast.Dict) -> Any:
        self.generic_visit(node)
        node.values = [self._stored(v) for v in node.values]
        return node

    def _local_value(self, node: Any) -> bool:
        """Whether ``node`` is a local variable, or an item of one (``x[i][j]``), not a value
        reached from outside the function (a global, a closure variable, an attribute)."""
        while isinstance(node, gast.Subscript):
            node = node.value
        return isinstance(node, gast.Name) and node.id in self.locals[-1]

    def visit_FunctionDef(self, node: gast.FunctionDef) -> Any:
        self.locals.append(_local_names(node))
        self.super_self.append(_first_param(node) if self.super_self[-1] else None)
        self.generic_visit(node)
        self.super_self.pop()
        self.locals.pop()
        return node

    def visit_Lambda(self, node: gast.Lambda) -> Any:
        self.super_self.append(None)
        self.generic_visit(node)
        self.super_self.pop()
        return node

    # ---- expressions ---------------------------------------------------------------------
    def visit_BoolOp(self, node: gast.BoolOp) -> Any:
        condition = getattr(node, "condition", False)
        if condition:  # `a and (b or c)` tested as a whole: so are its operands
            _mark_condition(node.values)
        self.generic_visit(node)
        fn = "and_" if isinstance(node.op, gast.And) else "or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            args = [_lam(value), _lam(result)]
            args += [gast.Constant(value=True, kind=None)] if condition else []
            result = _rt_call(fn, args, node)
        return result

    def visit_If(self, node: gast.If) -> Any:
        _mark_condition([node.test])
        self.generic_visit(node)
        return node

    def visit_While(self, node: gast.While) -> Any:
        _mark_condition([node.test])
        self.generic_visit(node)
        return node

    def visit_UnaryOp(self, node: gast.UnaryOp) -> Any:
        self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return _rt_call("not_", [node.operand], node)
        return node

    def visit_IfExp(self, node: gast.IfExp) -> Any:
        self.generic_visit(node)
        return _rt_call("if_exp", [node.test, _lam(node.body), _lam(node.orelse)], node)

    def visit_Compare(self, node: gast.Compare) -> Any:
        """``a is b`` as ``_t.is_(a, b)`` (tensors that are Python bools in eager code compare
        by value); a chain ``a < b < c`` as ``_t.compare_chain`` of lazily evaluated operands,
        each evaluated at most once, and comparisons taking them as parameters."""
        self.generic_visit(node)
        if len(node.ops) == 1:
            return _comparison(node.left, node.ops[0], node.comparators[0], node)
        args: list[Any] = [_lam(node.left)]
        for op, right in zip(node.ops, node.comparators):
            operands = [templates.name(p) for p in _CHAIN_OPERANDS]
            compare = _lam(_comparison(operands[0], op, operands[1], node))
            compare.args.args = [
                templates.locate_node(
                    gast.Name(id=p, ctx=gast.Param(), annotation=None, type_comment=None), node
                )
                for p in _CHAIN_OPERANDS
            ]
            args += [compare, _lam(right)]
        return _rt_call("compare_chain", args, node)

    def visit_Subscript(self, node: gast.Subscript) -> Any:
        """``table[i]`` read at an index computed in the function as ``_t.getitem(table, i)``, so
        that a NumPy array or a list of numbers made while converting (a lookup table) can be
        indexed by a tensor; an index of constants, or one holding a slice, stays as written."""
        if not isinstance(node.ctx, gast.Load):
            self._visit_target(node)
            return node
        self.generic_visit(node)
        if not _computed_index(node.slice):
            return node
        return _rt_call("getitem", [node.value, node.slice], node)

    def _visit_target(self, node: gast.Subscript) -> None:
        """Visits an assigned or deleted ``x[i][j]``, keeping its chain of subscripts (the
        writes go through it)."""
        node.slice = self.visit(node.slice)
        if isinstance(node.value, gast.Subscript):
            self._visit_target(node.value)
        else:
            node.value = self.visit(node.value)

    def visit_BinOp(self, node: gast.BinOp) -> Any:
        """``"template" % values`` as ``_t.percent_format(...)``: str's ``%`` formats any object,
        a tensor too (as its Python repr), before the tensor could take part."""
        self.generic_visit(node)
        left = node.left
        if isinstance(node.op, gast.Mod) and isinstance(left, gast.Constant):
            if isinstance(left.value, str):
                return _rt_call("percent_format", [left, node.right], node)
        return node

    def visit_JoinedStr(self, node: gast.JoinedStr) -> Any:
        """An f-string as ``_t.fstring(...)`` so that fields holding tensors print at run time."""
        parts = []
        for value in node.values:
            if not isinstance(value, gast.FormattedValue):
                parts.append(value)
                continue
            spec = value.format_spec
            if spec is not None and not all(isinstance(v, gast.Constant) for v in spec.values):
                return node  # a computed format spec: left to Python
            text = "".join(v.value for v in spec.values) if spec is not None else ""
            args = [
                self.visit(value.value),
                gast.Constant(value=value.conversion, kind=None),
                gast.Constant(value=text, kind=None),
            ]
            parts.append(_rt_call("formatted", args, node))
        return _rt_call("fstring", parts, node)

    def visit_Call(self, node: gast.Call) -> Any:
        # an argument that may be a list or tuple holding tensors: the runtime stacks it for NumPy
        sequence = any(
            _may_be_sequence(a, self.sequences, self._resolve)
            for a in [*node.args, *(k.value for k in node.keywords)]
        )
        self.generic_visit(node)
        func = node.func
        if (
            isinstance(func, gast.Name)
            and func.id == "super"
            and not node.args
            and not node.keywords
            and self.super_self[-1] is not None
        ):
            node.args = [templates.name("__class__"), templates.name(self.super_self[-1])]
        if (
            isinstance(func, gast.Attribute)
            and func.attr in names.CONTAINER_MUTATORS
            and not self._local_value(func.value)
        ):
            name = gast.Constant(value=func.attr, kind=None)
            call = _rt_call("call_outside", [func.value, name, *node.args], node)
            call.keywords = node.keywords
            return call
        if self._may_keep_arguments(func):
            node.args = [self._stored(a) for a in node.args]
            for keyword in node.keywords:
                keyword.value = self._stored(keyword.value)
        writes = any(k.arg == "out" for k in node.keywords)  # the runtime checks what it writes
        if not writes and not sequence and self._leave_as_is(node.func):
            if (
                isinstance(func, gast.Attribute)
                and func.attr in TENSOR_METHODS
                and self._resolve(func) is None
            ):
                # ``x.mean()``: a tensor's method as it is, but a user object's converted
                attr = gast.Constant(value=func.attr, kind=None)
                node.func = _rt_call("method", [func.value, attr], func)
            return node
        call = _rt_call("call", [node.func] + node.args, node)
        call.keywords = node.keywords
        return call

    def _may_keep_arguments(self, func: Any) -> bool:
        """Whether a call of ``func`` may keep an argument beyond the call or change it (a
        user function, a class, a method): an attribute passed to it (``g(self.hist)``) gets a
        second name there (``_stored``). Builtins and NumPy functions only read theirs."""
        target = self._resolve(func)
        if target is None:
            return not (isinstance(func, gast.Attribute) and func.attr in TENSOR_METHODS)
        return isinstance(target, (types.FunctionType, types.MethodType)) or (
            isinstance(target, type) and target.__module__ != "builtins"
        )

    def _leave_as_is(self, func: Any) -> bool:
        if (
            isinstance(func, gast.Attribute)
            and isinstance(func.value, gast.Name)
            and func.value.id == RUNTIME
        ):
            return True
        target = self._resolve(func)
        if target is None:
            # A method of a local value: a tensor method needs no conversion.
            return isinstance(func, gast.Attribute) and func.attr in TENSOR_METHODS
        if target in dispatch.OVERRIDES or target in _TAKE_SEQUENCES:
            return False
        if target in mutation.WRITERS:
            return False  # the runtime checks what it writes
        return target in dispatch.UFUNCS or target in dispatch.FUNCTIONS

    def _resolve(self, expr: Any) -> Any:
        """The object a global name or dotted attribute refers to now, or None."""
        if isinstance(expr, gast.Name):
            if expr.id in self.globals:
                return self.globals[expr.id]
            return getattr(builtins, expr.id, None)
        if isinstance(expr, gast.Attribute):
            base = self._resolve(expr.value)
            return None if base is None else getattr(base, expr.attr, None)
        return None

    # ---- statements ----------------------------------------------------------------------
    def visit_Raise(self, node: gast.Raise) -> Any:
        self.generic_visit(node)
        if node.exc is None or node.cause is not None:
            return node  # a bare re-raise or raise-from stays Python
        return templates.set_location(gast.Expr(value=_rt_call("raise_", [node.exc], node)), node)

    def visit_Assert(self, node: gast.Assert) -> Any:
        self.generic_visit(node)
        msg = node.msg if node.msg is not None else gast.Constant(value=None, kind=None)
        return templates.set_location(
            gast.Expr(value=_rt_call("assert_", [node.test, _lam(msg)], node)), node
        )

    def _aliases_changed_container(self, node: gast.Assign) -> bool:
        """Whether ``node`` gives a second name to a value that some name of it changes in
        place as a container (``b = a`` then ``b.append(x)``, or ``a = b = []``)."""
        targets = [t.id for t in node.targets if isinstance(t, gast.Name)]
        if isinstance(node.value, gast.Name) and comprehensions.is_accumulator(node.value.id):
            return False  # a comprehension's list handed to its target: the list's one name
        if isinstance(node.value, gast.Name) and self._is_local(node.value) and targets:
            targets.append(node.value.id)
        return len(targets) > 1 and any(t in self.changed_aliases for t in targets)

    def _wrap_binding(self, node: Any, value: Any) -> Any:
        """``value``, made a tensor if it is a concrete array that is written later
        (``analysis.mutation``)."""
        return _rt_call("fresh", [value], node) if id(node) in self.mutation.fresh else value

    def visit_Assign(self, node: gast.Assign) -> Any:
        self.generic_visit(node)
        node.value = self._wrap_binding(node, node.value)
        if self._aliases_changed_container(node) or _attribute_of_local(node.value):
            # two names for one value (``b = a``, ``a = b = []``, ``h = self.hist``): a list or
            # dict changed through one must show through the other, which tensor control flow
            # cannot do
            node.value = _rt_call("shared", [node.value], node)
        if len(node.targets) == 1 and isinstance(node.targets[0], gast.Subscript):
            return self._item_store(node.targets[0], self._stored(node.value), node)
        if len(node.targets) == 1 and self._outside_attribute(node.targets[0]):
            return self._attribute_store(node.targets[0], node.value, node)
        if len(node.targets) == 1 and isinstance(node.targets[0], gast.Attribute):
            return self._local_attribute_store(node.targets[0], node.value, node)
        if len(node.targets) == 1 and not _unpacks_into_items(node.targets[0]):
            return node
        return self._unpack(node.targets, node.value, node)

    def visit_AnnAssign(self, node: gast.AnnAssign) -> Any:
        self.generic_visit(node)
        if node.value is None:
            return node
        value = self._wrap_binding(node, node.value)
        assign = gast.Assign(targets=[node.target], value=value, type_comment=None)
        return self.visit_Assign(templates.set_location(assign, node))

    def visit_NamedExpr(self, node: gast.NamedExpr) -> Any:
        self.generic_visit(node)
        node.value = self._wrap_binding(node, node.value)
        return node

    def _item_store(self, target: gast.Subscript, value: Any, origin: Any) -> Any:
        """``base[index] = value`` as ``_t.setitem(base, index, value)``, an in-place write as
        Python's; for a local ``base`` (or ``base[i][j] = v``) as ``base = _t.setitem(...)``, so
        that the variable is state of the branches and loops around the write (the runtime
        returns the very object it wrote). The value is computed first, as Python computes it,
        where order could show."""
        stmts: list[Any] = []
        if _has_call(target) and _has_call(value):
            self.temporaries += 1
            tmp = f"value_{self.temporaries}"
            stmts = templates.quote(f"{tmp} = value", origin, value=value)
            value = templates.name(tmp)
        local = self._local_root(target)
        kind = "setitem" if local else "setitem_outside"
        write = _rt_call(kind, [_as_load(target.value), target.slice, value], origin)
        return stmts + [self._rebind(target, write, local, origin)]

    def _outside_attribute(self, target: Any) -> bool:
        """Whether ``target`` is an attribute of a value from outside the function."""
        return isinstance(target, gast.Attribute) and not self._is_local(target)

    def _attribute_store(self, target: gast.Attribute, value: Any, origin: Any) -> Any:
        """``obj.name = value`` for an ``obj`` from outside the function (a global, a closure
        variable) as ``_t.setattr_outside(obj, 'name', value)``, which falls back: the object
        would be changed once, while the graph is built, instead of on every call."""
        name = gast.Constant(value=target.attr, kind=None)
        call = _rt_call("setattr_outside", [_as_load(target.value), name, value], origin)
        return templates.set_location(gast.Expr(value=call), origin)

    def _local_attribute_store(self, target: gast.Attribute, value: Any, origin: Any) -> Any:
        """``obj.name = value`` for a local ``obj`` as ``_t.setattr_local(value, obj, 'name')``
        (the value computed first, as Python computes it), which refuses changing an object
        made before the tensor control flow around the write (``staging.objects``)."""
        name = gast.Constant(value=target.attr, kind=None)
        call = _rt_call("setattr_local", [value, _as_load(target.value), name], origin)
        return templates.set_location(gast.Expr(value=call), origin)

    def _unpack(self, targets: list[Any], value: Any, origin: Any) -> list[Any]:
        """``x[i], x[j] = v`` (or ``a = x[i] = v``) as ``tmp = v`` then one assignment per
        target and element, left to right as Python assigns."""
        self.temporaries += 1
        tmp = f"unpacked_{self.temporaries}"
        stmts = templates.quote(f"{tmp} = value", origin, value=value)
        for target in targets:
            assign = templates.set_location(
                gast.Assign(targets=[target], value=templates.name(tmp), type_comment=None), origin
            )
            result = (
                self._assign_unpacked(assign)
                if _unpacks_into_items(target)
                else self.visit_Assign(assign)
            )
            stmts.extend(result if isinstance(result, list) else [result])
        return stmts

    def _assign_unpacked(self, node: gast.Assign) -> list[Any]:
        """``(a, x[i]) = tmp``: each element assigned from ``tmp[k]``."""
        target, value = node.targets[0], node.value
        self.temporaries += 1
        tmp = f"unpacked_{self.temporaries}"
        stmts = templates.quote(f"{tmp} = value", node, value=value)
        for i, element in enumerate(target.elts):
            item = templates.quote_expr(f"{tmp}[{i}]", node)
            assign = templates.set_location(
                gast.Assign(targets=[element], value=item, type_comment=None), node
            )
            result = self.visit_Assign(assign)
            stmts.extend(result if isinstance(result, list) else [result])
        return stmts

    def visit_AugAssign(self, node: gast.AugAssign) -> Any:
        """``x[i] += v`` as ``_t.aug_setitem(x, i, 'iadd', v)``: Python's read, in-place operator
        (``operator.iadd``) and write back (``x += v`` itself is the tensors' ``__iadd__``)."""
        self.generic_visit(node)
        if isinstance(node.target, gast.Name) and node.target.id in self.mutation.checked:
            op = gast.Constant(value=_IN_PLACE[type(node.op)], kind=None)
            call = _rt_call("iop", [op, _as_load(node.target), node.value], node)
            assign = gast.Assign(targets=[node.target], value=call, type_comment=None)
            return templates.set_location(assign, node)
        if self._outside_attribute(node.target):
            # refused before anything is computed: ``+=`` on a list would extend it already
            nothing = gast.Constant(value=None, kind=None)
            return self._attribute_store(node.target, nothing, node)
        if isinstance(node.target, gast.Attribute):
            # ``obj.name op= v``: the attribute read, ``v``, the in-place operator, the write;
            # an owner that is itself an expression (``self.__class__``) is computed once, first
            stmts: list[Any] = []
            target = node.target
            if not isinstance(target.value, gast.Name):
                self.temporaries += 1
                owner = f"owner_{self.temporaries}"
                stmts = templates.quote(f"{owner} = value", node, value=target.value)
                named = gast.Attribute(
                    value=templates.name(owner), attr=target.attr, ctx=target.ctx
                )
                target = templates.set_location(named, node)
            op = gast.Constant(value=_IN_PLACE[type(node.op)], kind=None)
            value = _rt_call("iop", [op, _as_load(target), node.value], node)
            return stmts + [self._local_attribute_store(target, value, node)]
        if not isinstance(node.target, gast.Subscript):
            return node
        target = node.target
        op = gast.Constant(value=_IN_PLACE[type(node.op)], kind=None)
        local = self._local_root(target)
        kind = "aug_setitem" if local else "aug_setitem_outside"
        write = _rt_call(kind, [_as_load(target.value), target.slice, op, node.value], node)
        return self._rebind(target, write, local, node)

    def _local_root(self, target: gast.Subscript) -> bool:
        """Whether ``x[i]...[j]`` subscripts a local variable ``x``."""
        while isinstance(target.value, gast.Subscript):
            target = target.value
        return isinstance(target.value, gast.Name) and self._is_local(target.value)

    def _rebind(self, target: gast.Subscript, write: Any, local: bool, origin: Any) -> Any:
        """``write`` (a runtime write of ``target``'s base, which it returns) as a statement:
        for a local base ``x`` (``x[i][j] = v``), ``x = _t.setitem(x, i, write)``, so that ``x``
        is state of the branches and loops around it; else the bare call."""
        if not local:
            return templates.set_location(gast.Expr(value=write), origin)
        while isinstance(target.value, gast.Subscript):
            target = target.value
            write = _rt_call("write_back", [_as_load(target.value), target.slice, write], origin)
        store = templates.quote("n = 0", origin, n=target.value)[0].targets[0]
        assign = gast.Assign(targets=[store], value=write, type_comment=None)
        return templates.set_location(assign, origin)

    def visit_For(self, node: gast.For) -> Any:
        extra_test = getattr(node, "extra_test", None)
        self.generic_visit(node)
        node.iter = self._wrap_binding(node, node.iter)
        if extra_test is not None:
            _mark_condition([extra_test])
            node.extra_test = self.visit(extra_test)
        return node

    def visit_Delete(self, node: gast.Delete) -> Any:
        """``del x[i], y[j]`` as ``_t.delitem(x, i)`` and ``_t.delitem(y, j)``, which refuse
        changing an argument list or dict inside tensor control flow (``frontend.fence`` lets
        only items be deleted)."""
        self.generic_visit(node)
        return [
            templates.set_location(
                gast.Expr(value=_rt_call("delitem", [_as_load(t.value), t.slice], node)), node
            )
            for t in node.targets
        ]

    def visit_Expr(self, node: gast.Expr) -> Any:
        call = node.value
        if (
            isinstance(call, gast.Call)
            and isinstance(call.func, gast.Attribute)
            and call.func.attr == "append"
            and isinstance(call.func.value, gast.Name)
            and self._is_local(call.func.value)
            and len(call.args) == 1
            and not call.keywords
        ):
            target = call.func.value.id
            value = self._stored(self.visit(call.args[0]))
            return templates.quote(
                f"{target} = {RUNTIME}.list_append({target}, value)", node, value=value
            )[0]
        self.generic_visit(node)
        return node


def changed_in_place(tree: list[Any]) -> set[str]:
    """The names whose value a function changes in place as a list or dict would be changed:
    ``x.append(v)``, ``x[i] = v``, ``x[i] += v``, ``del x[i]``, ``x[k].append(v)``. ``tree``
    holds every node of the function (``nodes.walk``)."""
    changed: set[str] = set()
    for node in nodes.of_class(tree, (gast.Call, gast.Subscript)):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute):
            if node.func.attr in names.CONTAINER_MUTATORS:
                changed.add(_root_name(node.func.value) or "")
        elif isinstance(node, (gast.Subscript)) and isinstance(node.ctx, (gast.Store, gast.Del)):
            changed.add(_root_name(node) or "")
    return changed - {""}


def _sequence_names(tree: list[Any], params: set[str], resolve: Any) -> set[str]:
    """The names that may hold a list, tuple or dict when the function runs: passed to a NumPy
    function, such a value may hold tensors that NumPy would read as one array (through
    ``__array__``, which a tensor cannot serve while the graph is built), so the call goes through
    the runtime, which stacks them. ``params`` are the parameters that hold sequences. A name is
    one when some binding of it may be one (``_may_be_sequence``): a display, ``list(...)``, a
    call of a function that is not an array-valued NumPy one, an item or attribute of something,
    a loop's or comprehension's target, or a name grown by ``append``."""
    found = set(params)
    bindings: list[tuple[Any, list[str]]] = []
    for node in nodes.of_class(tree, (gast.Assign, gast.AugAssign, gast.NamedExpr, gast.Call)):
        if isinstance(node, gast.Call):
            if (
                isinstance(node.func, gast.Attribute)
                and node.func.attr in ("append", "extend", "insert")
                and isinstance(node.func.value, gast.Name)
            ):
                found.add(node.func.value.id)
            continue
        targets = node.targets if isinstance(node, gast.Assign) else [node.target]
        bound = [n.id for t in targets for n in nodes.of_class(nodes.walk(t), (gast.Name,))]
        bindings.append((node.value, bound))
    for node in nodes.of_class(tree, (gast.For, gast.comprehension)):
        found.update(n.id for n in nodes.of_class(nodes.walk(node.target), (gast.Name,)))
    while True:  # a name bound from another such name is one too
        grown = {
            name
            for value, bound in bindings
            if isinstance(value, (gast.List, gast.Tuple)) or _may_be_sequence(value, found, resolve)
            for name in bound
        }
        if grown <= found:
            return found
        found |= grown


# NumPy functions of arrays that return a tuple or list of arrays
_RETURN_SEQUENCES = frozenset(
    "nonzero where split array_split hsplit vsplit dsplit meshgrid gradient unique histogram "
    "histogram2d histogramdd broadcast_arrays atleast_1d atleast_2d atleast_3d unravel_index "
    "ix_ tril_indices triu_indices diag_indices eig eigh svd qr slogdet lstsq".split()
)
_ARRAY_ATTRIBUTES = frozenset(("T", "mT", "real", "imag"))


def _may_be_sequence(node: Any, sequences: set[str], resolve: Any) -> bool:
    """Whether the expression ``node`` may give a list, tuple or dict (see ``_sequence_names``):
    a conservative guess, since a call through the runtime is right either way and only a
    NumPy call made directly on a sequence of tensors fails."""
    if isinstance(node, (gast.List, gast.Tuple)):
        return any(not isinstance(item, gast.Constant) for item in node.elts)
    if isinstance(node, gast.Name):
        return node.id in sequences
    if isinstance(node, (gast.Constant, gast.UnaryOp, gast.Compare, gast.Lambda)):
        return False
    if isinstance(node, gast.BinOp):  # ``+`` joins two lists, ``*`` repeats one
        operands = [_may_be_sequence(n, sequences, resolve) for n in (node.left, node.right)]
        if isinstance(node.op, gast.Add):
            return all(operands)
        return isinstance(node.op, gast.Mult) and any(operands)
    if isinstance(node, gast.BoolOp):
        return any(_may_be_sequence(n, sequences, resolve) for n in node.values)
    if isinstance(node, gast.IfExp):
        return any(_may_be_sequence(n, sequences, resolve) for n in (node.body, node.orelse))
    if isinstance(node, gast.NamedExpr):
        return _may_be_sequence(node.value, sequences, resolve)
    if isinstance(node, gast.Subscript):
        return _may_be_sequence(node.value, sequences, resolve)
    if isinstance(node, gast.Attribute):
        if resolve(node) is not None:
            return False  # a module's or global's attribute: not a tensor's container
        if node.attr in _ARRAY_ATTRIBUTES:
            return _may_be_sequence(node.value, sequences, resolve)
        return True
    if isinstance(node, gast.Call):
        return _may_return_sequence(node, sequences, resolve)
    return True


def _may_return_sequence(node: gast.Call, sequences: set[str], resolve: Any) -> bool:
    target = resolve(node.func)
    if isinstance(target, np.ufunc):
        return bool(target.nout > 1)
    if dispatch.hashable(target) and target in dispatch.FUNCTIONS:
        return getattr(target, "__name__", "") in _RETURN_SEQUENCES
    if target is None and isinstance(node.func, gast.Attribute):
        method = node.func.attr
        if method in TENSOR_METHODS and method != "tolist":
            return _may_be_sequence(node.func.value, sequences, resolve)
    return True


def _attribute_of_local(node: Any) -> bool:
    """Whether ``node`` reads an attribute (``self.hist``, ``o.a.b``) of a name: a list it
    holds that the assignment names too may grow through the attribute in tensor control flow
    (``staging.attribute_lists``)."""
    while isinstance(node, gast.Attribute):
        node = node.value
        if isinstance(node, gast.Name):
            return True
    return False


def _changed_aliases(tree: list[Any], changed: set[str]) -> set[str]:
    """The names, among those joined by ``a = b`` or ``a = b = v``, whose value some name of
    them changes in place (``changed``) as a list or dict would be changed. ``tree`` holds
    every node of the function."""
    if not changed:
        return set()  # (only a name changed in place starts the search below)
    links: dict[str, set[str]] = {}
    for node in tree:
        if isinstance(node, gast.Assign):
            group = [t.id for t in node.targets if isinstance(t, gast.Name)]
            if isinstance(node.value, gast.Name):
                group.append(node.value.id)
            for a in group:
                links.setdefault(a, set()).update(group)
    found: set[str] = set()
    pending = [name for name in changed if name in links]
    while pending:
        name = pending.pop()
        if name not in found:
            found.add(name)
            pending.extend(links.get(name, ()))
    return found


def _unpacks_into_items(target: Any) -> bool:
    """A tuple target with a subscript among its elements and no starred element."""
    if not isinstance(target, (gast.Tuple, gast.List)):
        return False
    if any(isinstance(e, gast.Starred) for e in target.elts):
        return False
    return any(isinstance(e, gast.Subscript) or _unpacks_into_items(e) for e in target.elts)


def _has_call(node: Any) -> bool:
    return any(isinstance(n, gast.Call) for n in nodes.walk(node))


_IN_PLACE = {
    gast.Add: "iadd",
    gast.Sub: "isub",
    gast.Mult: "imul",
    gast.Div: "itruediv",
    gast.FloorDiv: "ifloordiv",
    gast.Mod: "imod",
    gast.Pow: "ipow",
    gast.MatMult: "imatmul",
    gast.BitAnd: "iand",
    gast.BitOr: "ior",
    gast.BitXor: "ixor",
    gast.LShift: "ilshift",
    gast.RShift: "irshift",
}


def _as_load(node: Any) -> Any:
    return templates.quote_expr("n", node, n=node)


def canonicalize(
    fn: gast.FunctionDef,
    globals_: dict[str, Any],
    sequence_params: frozenset[str] | None = None,
    walked: list[Any] | None = None,
    class_cell: bool = False,
) -> gast.FunctionDef:
    """Rewrites ``fn`` as described in the module docstring; ``globals_`` resolves NumPy names.
    ``sequence_params`` are the parameters that may be a list or tuple (None: any of them),
    whose NumPy calls go through the runtime; ``walked`` is every node of ``fn``
    (``nodes.walk``), if the caller has walked it as it is; ``class_cell`` says that the
    function has a ``__class__`` cell (a method that calls ``super()``)."""
    transformer = _Canonicalize(globals_, fn, sequence_params, walked, class_cell)
    body: list[Any] = []
    for stmt in fn.body:
        new = transformer.visit(stmt)
        body.extend(new if isinstance(new, list) else [new])
    fn.body = body
    return fn
