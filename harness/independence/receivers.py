"""The classes an expression of a function's body may hold, read from annotations.

`crosscheck.harness.independence.sharing` follows ``receiver.method`` only where the receiver's
class is known; this module says which classes that is, from the code alone (nothing
is run, no type checker is called).  Known, for an expression of one function:

- a name: every binding of it in the function (flow-insensitive: a name rebound to
  another class holds either) -- an annotated parameter (``instance: Vault``), an
  annotated local (``vault: Vault = ...``), an assignment of an expression whose class
  is known; ``self`` is the class the method runs on; a module-level object is its own
  type;
- ``x.attr``: the annotation of ``attr`` in the body of ``x``'s class or a base
  (``vault: Vault`` in a dataclass), its assignment in ``__init__`` (``self.vault =
  vault``, ``vault`` an annotated parameter), or a property's return annotation;
- a call: a class called makes an instance of it; a function or method called (found
  as `sharing` finds references, or on a receiver known here) returns its return
  annotation.

An annotation names classes through the module's names (strings and ``X | None``,
``Optional[X]``, ``Union[X, Y]`` are read; ``None`` adds nothing).  What is not known:
a binding the rules above do not cover (a loop variable, an unpacked tuple, a
parameter without annotation or annotated ``Any``/``object``/a type variable, an
element of a container, an attribute nobody annotated).  A `Known` says which classes
were found and whether that is all of them (`complete`): when it is not, `sharing`
also applies its rule for unknown receivers.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
import threading
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from types import FunctionType, ModuleType

#: Resolves a name or attribute chain of the function being read (its imports, ``self``,
#: ``super()``) to the object it denotes exactly, None when not known.
Resolver = Callable[[ast.expr], object]


@dataclass(frozen=True)
class Known:
    """The classes an expression may hold, whether they are all it may hold, and which of
    them it may hold an instance of a subclass of (`open`: one an annotation names; not one
    made by calling the class, nor ``self``, whose class is the one the method runs on)."""

    classes: frozenset[type] = frozenset()
    complete: bool = False
    open: frozenset[type] = frozenset()

    def __or__(self, other: Known) -> Known:
        return Known(self.classes | other.classes, self.complete and other.complete, self.open | other.open)


UNKNOWN = Known()
NOTHING = Known(complete=True)  # ``None`` in an annotation: no class to add
#: Annotations that say nothing about the methods an object has.
_UNINFORMATIVE: tuple[object, ...] = (object, typing.Any)


#: ``ast.parse`` may fail spuriously when threads parse at once on CPython 3.11 ("AST
#: constructor recursion depth mismatch", python/cpython#106905), and footprints are worked
#: out in the threads of in-process runs: every parse here takes this lock.
_PARSING = threading.Lock()


def parse_module(text: str, filename: str = "<unknown>") -> ast.Module:
    """`text` parsed as a module, one thread at a time (`_PARSING`)."""
    with _PARSING:
        return ast.parse(text, filename=filename)


def parse_expression(text: str) -> ast.expr:
    """`text` parsed as one expression, one thread at a time (`_PARSING`)."""
    with _PARSING:
        return ast.parse(text, mode="eval").body


@cache
def definition(function: FunctionType) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The syntax tree of `function`'s definition (None when its source is not available)."""
    try:
        tree = parse_module(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return None
    node = tree.body[0] if tree.body else None
    return node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None


@cache
def _module_tree(module: str) -> ast.Module | None:
    """The syntax tree of module `module`'s source (None when not available)."""
    try:
        return parse_module(inspect.getsource(sys.modules[module]))
    except (KeyError, OSError, TypeError, SyntaxError):
        return None


@cache
def class_definition(cls: type) -> ast.ClassDef | None:
    """The syntax tree of `cls`'s definition, found by its qualified name among the class
    statements of its module's source (the last of a name, as the last one run wins); None
    when the source is not available or no class statement there has that name (a class
    made in a function, by ``type()``, or in an ``if``)."""
    tree = _module_tree(cls.__module__)
    body: list[ast.stmt] = tree.body if tree is not None else []
    found: ast.ClassDef | None = None
    for part in cls.__qualname__.split("."):
        found = next((node for node in reversed(body) if isinstance(node, ast.ClassDef) and node.name == part), None)
        if found is None:
            return None
        body = found.body
    return found


def _lookup(node: ast.expr, namespace: dict[str, object]) -> object:
    """What a name or attribute chain denotes in `namespace` (modules and classes followed)."""
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _lookup(node.value, namespace)
        if isinstance(base, ModuleType | type):
            return getattr(base, node.attr, None)
    return None


def annotated(node: ast.expr | None, namespace: dict[str, object]) -> Known:
    """The classes the annotation `node` names, looked up in `namespace`."""
    if node is None:
        return UNKNOWN
    if isinstance(node, ast.Constant):
        if node.value is None:
            return NOTHING
        if isinstance(node.value, str):
            try:
                return annotated(parse_expression(node.value), namespace)
            except SyntaxError:
                return UNKNOWN
        return UNKNOWN
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return annotated(node.left, namespace) | annotated(node.right, namespace)
    if isinstance(node, ast.Subscript):
        origin = _lookup(node.value, namespace)
        if origin in (typing.Optional, typing.Union):
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            known = NOTHING
            for item in items:
                known = known | annotated(item, namespace)
            return known
        return _class_of(origin)  # list[Vault] is a list
    return _class_of(_lookup(node, namespace))


def _class_of(value: object, exact: bool = False) -> Known:
    """A class an annotation names (or, `exact`, the class of an object made by calling it,
    or of a module-level object): it or a subclass of it, but for a protocol (it declares
    methods some unknown class implements: unknown) and an abstract class (its methods and
    those of unknown subclasses: not complete)."""
    if not isinstance(value, type) or value in _UNINFORMATIVE or is_protocol(value):
        return UNKNOWN
    return Known(frozenset({value}), not inspect.isabstract(value), frozenset() if exact else frozenset({value}))


def is_protocol(value: type) -> bool:
    """Whether `value` is a `typing.Protocol` (declares methods, implements none)."""
    return bool(getattr(value, "_is_protocol", False))


def _annotation_value(value: object, namespace: dict[str, object]) -> Known:
    """The classes a runtime annotation (a string under ``from __future__ import
    annotations``, else the object) names."""
    if isinstance(value, str):
        return annotated(ast.Constant(value), namespace)
    return _class_of(value)


def returned(function: FunctionType) -> Known:
    """The classes `function`'s return annotation names."""
    found = definition(function)
    return annotated(found.returns if found else None, function.__globals__)


def attribute(owner: type, name: str) -> Known:
    """The classes attribute `name` of an instance of `owner` holds: its annotation in the
    class body of `owner` or a base, a property's return annotation, or what ``__init__``
    assigns to ``self.name``."""
    value = inspect.getattr_static(owner, name, None)
    if isinstance(value, property) and isinstance(value.fget, FunctionType):
        return returned(value.fget)
    for base in owner.__mro__:
        namespace = vars(sys.modules[base.__module__]) if base.__module__ in sys.modules else {}
        annotations = inspect.get_annotations(base)
        if name in annotations:
            return _annotation_value(annotations[name], namespace)
    if owner in _attribute_in_progress:  # an __init__ reading an attribute of its own class
        return UNKNOWN
    _attribute_in_progress.add(owner)
    try:
        return _assigned_in_init(owner, name)
    finally:
        _attribute_in_progress.discard(owner)


_attribute_in_progress: set[type] = set()


def _assigned_in_init(owner: type, name: str) -> Known:
    """What ``owner.__init__`` assigns to ``self.name`` (unknown when it does not)."""
    init = inspect.getattr_static(owner, "__init__", None)
    found = definition(init) if isinstance(init, FunctionType) else None
    if found is None or not isinstance(init, FunctionType):
        return UNKNOWN
    names = Receivers(found, init.__globals__, owner, lambda node: _lookup(node, init.__globals__))
    known: Known | None = None
    for node in ast.walk(found):
        for target, value, annotation in assignments(node):
            if (isinstance(target, ast.Attribute) and target.attr == name and isinstance(target.value, ast.Name)
                    and target.value.id == "self"):
                this = annotated(annotation, init.__globals__) if annotation else names.of(value)
                known = this if known is None else known | this
    return known or UNKNOWN


def assignments(node: ast.AST) -> Iterator[tuple[ast.expr, ast.expr | None, ast.expr | None]]:
    """(target, value, annotation) of each binding `node` makes by plain assignment, a
    tuple assigned to a tuple of targets item by item (``a, b = x, y``)."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            yield from _paired(target, node.value)
    elif isinstance(node, ast.AnnAssign):
        yield node.target, node.value, node.annotation
    elif isinstance(node, ast.NamedExpr):
        yield node.target, node.value, None


def _paired(target: ast.expr, value: ast.expr) -> Iterator[tuple[ast.expr, ast.expr | None, ast.expr | None]]:
    items = (target.elts, value.elts) if isinstance(target, ast.Tuple | ast.List) and \
        isinstance(value, ast.Tuple | ast.List) else None
    if items and len(items[0]) == len(items[1]) and not any(isinstance(item, ast.Starred) for item in items[0]):
        for item_target, item_value in zip(*items, strict=True):
            yield from _paired(item_target, item_value)
    else:
        yield target, value, None


class Receivers:
    """The classes the expressions of one function's body may hold (see the module docstring)."""

    def __init__(self, function: ast.FunctionDef | ast.AsyncFunctionDef, namespace: dict[str, object],
                 owner: type | None, resolve: Resolver) -> None:
        self.namespace, self.owner, self.resolve = namespace, owner, resolve
        self.bindings: dict[str, list[tuple[ast.expr | None, ast.expr | None]]] = {}
        arguments = function.args
        positional = [*arguments.posonlyargs, *arguments.args]
        if owner is not None and positional and positional[0].arg in ("self", "cls"):
            positional = positional[1:]  # the class the method runs on: `_name`
        for argument in [*positional, *arguments.kwonlyargs]:
            self.bindings.setdefault(argument.arg, []).append((None, argument.annotation))
        for extra in (arguments.vararg, arguments.kwarg):  # *args, **kwargs: a tuple, a dict
            if extra is not None:
                self.bindings.setdefault(extra.arg, []).append((None, None))
        self._read_bindings(function)
        self._in_progress: set[str] = set()

    def _read_bindings(self, function: ast.AST) -> None:
        """Every name the body binds, with what it is bound to where that is a plain
        assignment (value, annotation), else (None, None): unknown."""
        plain: set[int] = set()
        for node in ast.walk(function):
            for target, value, annotation in assignments(node):
                if isinstance(target, ast.Name):
                    plain.add(id(target))
                    self.bindings.setdefault(target.id, []).append((value, annotation))
        for node in ast.walk(function):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in plain:
                self.bindings.setdefault(node.id, []).append((None, None))

    def of(self, node: ast.expr | None) -> Known:
        """The classes `node` may hold."""
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.Attribute):
            holders = self.of(node.value)
            known = Known(complete=holders.complete)
            for holder in holders.classes:
                known = known | attribute(holder, node.attr)
            return known
        if isinstance(node, ast.Call):
            return self._called(node.func)
        return UNKNOWN

    def _name(self, node: ast.Name) -> Known:
        if node.id in ("self", "cls") and self.owner is not None and node.id not in self.bindings:
            return Known(frozenset({self.owner}), True)
        if node.id not in self.bindings:
            value = self.resolve(node)
            return UNKNOWN if value is None or isinstance(value, ModuleType | type) else _class_of(type(value), True)
        if node.id in self._in_progress:  # x = x.next(): the other bindings decide
            return NOTHING
        self._in_progress.add(node.id)
        try:
            known = NOTHING
            for value, annotation in self.bindings[node.id]:
                known = known | (annotated(annotation, self.namespace) if annotation else self.of(value))
            return known
        finally:
            self._in_progress.discard(node.id)

    def _called(self, callee: ast.expr) -> Known:
        """The classes a call of `callee` returns."""
        value = self.resolve(callee)
        if value is None and isinstance(callee, ast.Attribute):
            known = NOTHING
            for function in self.methods(callee):
                known = known | returned(function)
            return known if self.of(callee.value).complete else known | UNKNOWN
        value = getattr(value, "__func__", value)
        if isinstance(value, type):
            return _class_of(value, exact=True)
        return returned(value) if isinstance(value, FunctionType) else UNKNOWN

    def methods(self, node: ast.Attribute) -> Iterator[FunctionType]:
        """The functions ``node`` (``receiver.name``) denotes on each known class of its receiver."""
        for _, value in self.attributes(node):
            value = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
            if isinstance(value, FunctionType):
                yield value

    def attributes(self, node: ast.Attribute) -> Iterator[tuple[type, object]]:
        """(class, what the class holds under the name) for each known class of the receiver
        of ``node`` (``receiver.name``) that has the name."""
        for holder in self.of(node.value).classes:
            value = inspect.getattr_static(holder, node.attr, None)
            if value is not None:
                yield holder, value
