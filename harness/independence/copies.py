"""Functions compared by content: a copy of a function is the function, wherever it lives.

`crosscheck.harness.independence.sharing` compares footprints by qualified name; a formulation that
pastes another's code into its own module runs the same code under other names.  So each
function also gets a *fingerprint*: a hash of its definition's syntax tree, normalised so
that a verbatim copy in another module, or one renamed, hashes alike:

- positions, comments, docstrings and annotations are left out (none changes what runs);
- the function's own name is left out, and its parameters and local names are numbered in
  order of appearance (a copy may rename them);
- a reference to a function of the ``crosscheck`` package or of the referring function's own
  top-level package (with the modules beside a plain-module plugin that it imports) (a
  module global, a name the function's own import statements bind, ``module.f`` through
  any chain of modules, ``Class.method``, ``self.method`` or ``cls.method`` in a method of
  a class its module names) stands for that function's own content hash, its tree
  normalised so in turn (Merkle-style): a copy that pastes the helpers it calls next to it
  and renames them (``_neighbours`` -> ``nbrs``) hashes alike when the helpers are copies
  too, and a helper changed changes every function that calls it.  Functions that call
  each other (recursion) are hashed together (`content`), so a renamed copy of them all
  hashes alike.  A library's functions stay names (their source differs from one
  installation to the next); an import statement in the body whose names all resolve so
  is left out (what it binds is compared where it is used);
- a reference to a class of those packages (built, named in ``isinstance``, ``Enum.MEMBER``)
  stands for the class's content hash: its definition without its name and docstring,
  each method it defines standing for the method's content hash, under no name but a
  dunder's (a copy may rename methods; their callers are compared by their own content).
  So a copy that pastes a class under a new name matches what builds it;
- a method is also hashed as run on a subclass of its class (`fingerprint_on`, `RunOn`):
  there ``self.name`` stands for the subclass's ``name`` (an override), so a copy that
  pastes a base's method beside the override it calls through ``self`` matches it as run
  (`crosscheck.harness.independence.sharing.variants` names such a fingerprint ``method on Class``);
- ``module.name`` naming anything else (through any chain of modules:
  ``crosscheck.models.elevator.model.DOWN``) becomes the plain ``name``, as a copy that pastes it
  next to it writes it;
- other names (globals, builtins, attributes) stay as they are: a copy that changes any
  expression, or an attribute's name, is different code.

A function is compared only if it is *substantial* (`MIN_STATEMENTS` statements or
`MIN_NODES` syntax nodes, after normalising, counted on its own tree, where a function it
refers to is one name: calling a large helper makes no function substantial):
``return self.start`` in two modules is no evidence of copying.  The built-ins' fingerprints
are stored (`crosscheck.harness.independence.footprints`): they hold on every Python from 3.11 on
(`_serialised`).
"""

from __future__ import annotations

import ast
import copy
import hashlib
import inspect
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass
from functools import cache, cached_property
from types import FunctionType, ModuleType

from crosscheck.harness.independence.considered import PACKAGE, imported_or_none, local_imports, own_modules
from crosscheck.harness.independence.receivers import class_definition, definition

#: A function with fewer statements than this (its own definition not counted) and fewer
#: syntax nodes than `MIN_NODES` is too small to count as a copy when it matches.
MIN_STATEMENTS = 3
#: Syntax nodes (expression contexts such as ``Load`` not counted) that make a function
#: substantial whatever its statements.  An honest one-liner written from the rules can
#: match a built-in's node for node (``return cell.lower() if "A" <= cell <= "Z" else None``,
#: a door's key letter in a grid model, is about 15), so one expression must be long to count.
MIN_NODES = 30


@dataclass(frozen=True)
class RunOn:
    """A method as run on an object of `owner`, a subclass of the class defining it:
    ``self.name`` in it stands for `owner`'s ``name`` (an override), and so on in the
    methods it reaches through ``self``."""

    function: FunctionType
    owner: type


#: What a content hash is taken of: a function, a class, a method run on a subclass.
Node = FunctionType | type | RunOn
#: Nodes not counted in a function's size.
_CONTEXTS = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop)


def function_named(qualified: str) -> FunctionType | None:
    """The function or method a qualified name (``module.Class.method``, as footprints
    hold them) names, unwrapped as `crosscheck.harness.independence.sharing` does (a property's getter,
    a static or class method's function, numba's ``py_func``); None when it names none."""
    parts = qualified.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module = imported_or_none(".".join(parts[:split]))
        if module is not None:
            break
    else:
        return None
    value: object = module
    for part in parts[split:]:
        value = unwrapped(inspect.getattr_static(value, part, None))
    return value if isinstance(value, FunctionType) else None


def unwrapped(value: object) -> object:
    """The Python function `value` runs, where it stands for one: a property's getter (a
    ``cached_property``'s too), a static or class method's function, the function a
    ``functools`` wrapper wraps (``lru_cache``, ``wraps``), a compiled function's source
    (numba's ``py_func``); else `value` itself."""
    if isinstance(value, property):
        value = value.fget
    elif isinstance(value, cached_property):
        value = value.func
    value = getattr(value, "__func__", value)
    if callable(value):
        with suppress(ValueError):  # a wrapper loop (an object making up any attribute): left as it is
            value = inspect.unwrap(value)
    return getattr(value, "py_func", value)


@cache
def fingerprint(function: FunctionType) -> str | None:
    """`function`'s fingerprint (see the module docstring); None when its source is not
    available or it is not substantial (counted on its own tree, where a called function
    is one name: calling a large helper makes no function substantial)."""
    shape = _shape(function)
    if shape is None or (shape.statements < MIN_STATEMENTS and shape.nodes < MIN_NODES):
        return None
    return content(function)


@dataclass(frozen=True)
class _Shape:
    """A function's normalised tree (module docstring), each reference to a function
    `_followed` allows written ``@ref<i>`` for the i-th of `callees`; and its size."""

    tree: ast.AST
    callees: tuple[Node, ...]
    statements: int
    nodes: int


@cache
def _shape(node: Node) -> _Shape | None:
    """The `_Shape` of a function or class; None when its source is not available."""
    if isinstance(node, RunOn):
        normaliser = _Normalised.of_function(node.function, node.owner)
    else:
        normaliser = _Normalised.of_class(node) if isinstance(node, type) else _Normalised.of_function(node)
    if normaliser is None:
        return None
    tree = normaliser.visit(normaliser.top)
    statements = sum(isinstance(node, ast.stmt) for node in ast.walk(tree)) - 1
    nodes = sum(not isinstance(node, _CONTEXTS) for node in ast.walk(tree)) - 1
    return _Shape(tree, tuple(normaliser.callees), statements, nodes)


#: The content hash of each function or class hashed so far (`content`), whatever its size.
_CONTENT: dict[Node, str] = {}


def content(function: Node) -> str | None:
    """`function`'s content hash: its `_Shape`, each function it refers to standing for
    that function's own content hash (Merkle-style).  Functions calling each other (a
    strongly connected part of the call graph: recursion) are hashed together, in time
    linear in the calls: each member's references inside the part first stand for one
    placeholder, giving each member a first hash; a member's content hash is then its tree
    with those references standing for the callees' first hashes, and the sorted first
    hashes of the whole part.  So a renamed copy of the whole part hashes alike, whichever
    member is hashed first.  None when its source is not available."""
    if function not in _CONTENT:
        if _shape(function) is None:
            return None
        for part in _parts_below(function):
            _hash_part(part)
    return _CONTENT[function]


def _hash_part(part: list[Node]) -> None:
    """Hash the strongly connected `part` (its callees outside it already hashed)."""
    shapes = {member: _known_shape(member) for member in part}
    if len(part) == 1 and part[0] not in shapes[part[0]].callees:  # no recursion: plain Merkle
        _CONTENT[part[0]] = _digest(shapes[part[0]], {})
        return
    first = {member: _digest(shape, dict.fromkeys(part, "part")) for member, shape in shapes.items()}
    whole = "+".join(sorted(first.values()))
    for member, shape in shapes.items():
        _CONTENT[member] = _digest(shape, first, whole)


def _known_shape(function: Node) -> _Shape:
    """The `_Shape` of a function in the call graph: one with source (`_Normalised` follows
    no other)."""
    shape = _shape(function)
    assert shape is not None, function
    return shape


def _digest(shape: _Shape, inside: dict[Node, str], salt: str = "") -> str:
    """The hash of `shape`'s tree, each callee standing for ``@`` and its hash: `inside`'s
    for a callee in the part being hashed, else its content hash."""
    names = {f"@ref{index}": "@" + (inside[callee] if callee in inside else _CONTENT[callee])
             for index, callee in enumerate(shape.callees)}
    return hashlib.sha256((_serialised(shape.tree, names) + salt).encode()).hexdigest()[:24]


def _parts_below(function: Node) -> list[list[Node]]:
    """The strongly connected parts of the call graph below `function` not hashed yet,
    callees' parts before their callers' (Tarjan's algorithm, without recursion: a call
    chain may be deeper than Python's stack)."""
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    stack: list[Node] = []
    parts: list[list[Node]] = []
    work: list[tuple[Node, Iterator[Node]]] = []

    def enter(node: Node) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        work.append((node, iter(_callees(node))))

    enter(function)
    while work:
        node, callees = work[-1]
        callee = next(callees, None)
        if callee is None:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = [stack.pop()]
                while part[-1] is not node:
                    part.append(stack.pop())
                parts.append(part)
        elif callee not in index:
            enter(callee)
        elif callee in stack:
            low[node] = min(low[node], index[callee])
    return parts


def _callees(function: Node) -> list[Node]:
    """The functions `function` refers to that are not hashed yet."""
    return [callee for callee in _known_shape(function).callees if callee not in _CONTENT]


def _serialised(node: object, names: Mapping[str, str]) -> str:
    """The normalised tree as text that every Python from 3.11 on writes alike, for stored
    fingerprints to hold on all of them (``ast.dump`` does not: 3.12 adds an empty
    ``type_params``, 3.13 leaves out empty fields): each node's class and fields, fields that
    are None or empty left out, ``type_params`` too; a name in `names` written as it maps."""
    if isinstance(node, ast.Name) and node.id in names:
        return f"Name(id={names[node.id]!r}, ctx=Load())"
    if isinstance(node, ast.AST):
        fields = [f"{name}={_serialised(value, names)}" for name, value in ast.iter_fields(node)
                  if name != "type_params" and value is not None and value != []]
        return f"{type(node).__name__}({', '.join(fields)})"
    if isinstance(node, list):
        return f"[{', '.join(_serialised(item, names) for item in node)}]"
    return repr(node)


def fingerprint_on(function: FunctionType, owner: type) -> str | None:
    """`function`'s fingerprint as run on an object of `owner` (`RunOn`: ``self.name`` the
    override `owner` has, where it is a subclass of `function`'s class); None where
    `fingerprint` is None."""
    return content(RunOn(function, owner)) if fingerprint(function) is not None else None


def fingerprints(names: Iterable[str]) -> dict[str, str | None]:
    """The fingerprint of each of the qualified `names` that names a function (None for one
    not substantial); names of no function (``lemma: ...``) left out."""
    found = {name: function_named(name) for name in names if not name.startswith("lemma: ")}
    return {name: fingerprint(function) for name, function in found.items() if function is not None}


def same_code(mine: dict[str, str], theirs: dict[str, str]) -> frozenset[str]:
    """``a = b (same code)`` for each function `a` of one footprint and `b` of the other
    (each footprint given as qualified name -> fingerprint, substantial functions only)
    with one fingerprint, neither name being in both (such a name is shared anyway); the
    two names in sorted order, so that the entry reads the same from either side."""
    by_print: dict[str, list[str]] = {}
    for name, value in theirs.items():
        if name not in mine:
            by_print.setdefault(value, []).append(name)
    return frozenset(" = ".join(sorted((name, other))) + " (same code)"
                     for name, value in mine.items() if name not in theirs for other in by_print.get(value, []))


class _Normalised(ast.NodeTransformer):
    """Rewrites a function's or class's definition as `fingerprint` compares it (module
    docstring), each reference to a function or class `_followed` allows (with source) as
    ``@ref<i>``, it being the i-th of `callees`."""

    def __init__(self, module: str, namespace: dict[str, object], top: ast.AST, owner: type | None = None) -> None:
        self.module = module
        self.callees: list[Node] = []
        self.namespace = namespace
        self.top = top
        self.owner = owner  # the class `top` defines
        self.receiver: tuple[str, type] | None = None
        self.locals: dict[str, str] = {}
        self.imported: set[str] = set()
        self.run_on: type | None = None  # `self`'s class, a subclass of the method's (`RunOn`)

    @classmethod
    def of_function(cls, function: FunctionType, owner: type | None = None) -> _Normalised | None:
        """The normaliser of (a copy of) `function`'s definition: names its own imports bind
        (of the packages `_followed` allows) resolved there, its locals numbered, ``self``
        of class `owner` where that is a subclass of its class (`RunOn`); None when its
        source is not available."""
        found = definition(function)
        if found is None:
            return None
        tree = copy.deepcopy(found)  # `definition` is cached: the walk reads that tree
        imported = local_imports(tree.body, _own(function.__module__), function.__module__)
        normaliser = cls(function.__module__, {**function.__globals__, **imported}, tree)
        normaliser.imported = set(imported)
        normaliser.receiver = _receiver(function, tree)
        if owner is not None and normaliser.receiver is not None and issubclass(owner, normaliser.receiver[1]):
            normaliser.receiver = normaliser.receiver[0], owner
            normaliser.run_on = owner
        for child in ast.iter_child_nodes(tree):  # its own name is not local: a call of it is a call
            for node in ast.walk(child):  # numbered in a fixed order of the tree: alike for alike trees
                for name in _binds(node):
                    normaliser.locals.setdefault(name, f"_{len(normaliser.locals)}")
        return normaliser

    @classmethod
    def of_class(cls, owner: type) -> _Normalised | None:
        """The normaliser of (a copy of) class `owner`'s definition (its names are its
        module's); None when its source is not available."""
        found, module = class_definition(owner), sys.modules.get(owner.__module__)
        if found is None or module is None:
            return None
        return cls(owner.__module__, dict(vars(module)), copy.deepcopy(found), owner)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        """The class being fingerprinted: its name and docstring left out, each method it
        defines standing for the method's content; its methods' names too, but dunders
        (a copy may rename methods, whose callers are compared by their own content)."""
        if node is not self.top or self.owner is None:
            return self.generic_visit(node)
        node.name = ""
        node.body = _without_docstring(node.body)
        for index, statement in enumerate(node.body):
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                method = _member(self.owner, statement.name)
                called = self._called(method) if unwrapped(method) is not None else None
                name = statement.name if statement.name.startswith("__") else ""
                node.body[index] = ast.Expr(ast.Tuple(
                    [ast.Constant(name), *statement.decorator_list, called or ast.Constant(None)], ast.Load()))
        return self.generic_visit(node)

    def _def(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> ast.AST:
        if not isinstance(node, ast.Lambda):
            node.name = "" if node is self.top else self.locals.get(node.name, node.name)
            node.returns = None
            node.body = _without_docstring(node.body)
        return self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _def

    def _import(self, node: ast.Import | ast.ImportFrom) -> ast.AST | None:
        """Left out when every name it binds is resolved (each use stands for what it is)."""
        bound = [alias.asname or (alias.name.partition(".")[0] if isinstance(node, ast.Import) else alias.name)
                 for alias in node.names]
        return None if all(name in self.imported for name in bound) else node

    visit_Import = visit_ImportFrom = _import

    def visit_arg(self, node: ast.arg) -> ast.AST:
        return ast.arg(arg=self.locals.get(node.arg, node.arg))

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        node.annotation = ast.Constant(value=None)
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id not in self.locals:
            called = self._called(self.namespace.get(node.id))
            if called is not None:
                return called
        return ast.Name(id=self.locals.get(node.id, node.id), ctx=node.ctx)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        base = _lookup(node.value, self.namespace, self.locals, self.receiver)
        if isinstance(node.ctx, ast.Load) and isinstance(base, ModuleType | type):
            through_self = isinstance(node.value, ast.Name) and self.receiver is not None \
                and node.value.id == self.receiver[0] and self.run_on is not None
            inherited = through_self and node.attr not in vars(base)  # run on `run_on` as well
            called = self._called(_member(base, node.attr), self.run_on if inherited else None)
            if called is not None:
                return called
        if isinstance(base, ModuleType):
            return ast.Name(id=node.attr, ctx=node.ctx)
        return self.generic_visit(node)

    def _called(self, value: object, run_on: type | None = None) -> ast.Name | None:
        """The placeholder for a reference to `value` (module docstring), a method inherited
        by `run_on` standing for it run on that class (`RunOn`); None when it is no function
        or class followed, or one without source: the reference stays as written."""
        if isinstance(value, type):
            if not (_followed(value, self.module) and class_definition(value) is not None):
                return None
        elif not (callable(value) or isinstance(value, property | staticmethod | classmethod)):
            return None  # not unwrapped: an object that imports on look-up (`crosscheck.solvers.engines.cpsat`'s) would import
        else:
            value = unwrapped(value)
            if not (isinstance(value, FunctionType) and _followed(value, self.module)) or definition(value) is None:
                return None
            if run_on is not None:
                value = RunOn(value, run_on)
        if value not in self.callees:
            self.callees.append(value)
        return ast.Name(id=f"@ref{self.callees.index(value)}", ctx=ast.Load())


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    """`body` without its docstring (``pass`` when nothing else is left)."""
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[1:] or [ast.Pass()]
    return body


def _followed(callee: Node, module: str) -> bool:
    """Whether a reference to `callee` in code of `module` stands for `callee`'s content: a
    function or class of the ``crosscheck`` package or of the caller's own top-level package
    (a plugin's, with the modules beside a plain-module plugin that it imports), not library
    code, whose source differs from one installation to the next."""
    return _top(callee.__module__) in _own(module)


def _own(module: str) -> frozenset[str]:
    """The top-level packages (or modules) code of `module` is written with (`_followed`)."""
    return own_modules(_top(module)) | {PACKAGE}


def _top(module: str | None) -> str:
    return (module or "").partition(".")[0]


def _receiver(function: FunctionType, tree: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, type] | None:
    """For a method of a class its module names (``self``'s or ``cls``'s class known): the
    name of its first parameter and the class; else None."""
    parts = function.__qualname__.split(".")
    if len(parts) < 2 or "<locals>" in parts:
        return None
    owner = function.__globals__.get(parts[0])
    for part in parts[1:-1]:
        owner = inspect.getattr_static(owner, part, None)
    positional = [*tree.args.posonlyargs, *tree.args.args]
    if not isinstance(owner, type) or not positional or positional[0].arg not in ("self", "cls"):
        return None
    return positional[0].arg, owner


def _member(holder: ModuleType | type, name: str) -> object:
    """Attribute `name` of a module, or what a class holds under `name` (nothing run)."""
    return getattr(holder, name, None) if isinstance(holder, ModuleType) else inspect.getattr_static(holder, name, None)


def _binds(node: ast.AST) -> list[str]:
    """The local names `node` binds: a parameter, a name assigned or deleted, a nested
    function's or class's name."""
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
        return [node.id]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    return []


def _lookup(node: ast.expr, namespace: dict[str, object], local: dict[str, str],
            receiver: tuple[str, type] | None) -> object:
    """The module or class a name or attribute chain denotes in `namespace` (``self`` or
    ``cls`` of a method: `receiver`'s class); None for a local name or anything else."""
    if isinstance(node, ast.Name):
        if receiver is not None and node.id == receiver[0]:
            return receiver[1]
        return None if node.id in local else namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _lookup(node.value, namespace, local, receiver)
        return _member(base, node.attr) if isinstance(base, ModuleType | type) else None
    return None
