"""The static walk: every function a formulation may run to decide its answers, read from its code.

From the solver class's ``_solve``, every function it may run, followed
through those functions in turn (nothing is run):

1. names that resolve exactly: a module function or class through the module's
   imports or the function's own, ``module.f``, ``Class.method``, ``self.method`` on
   the solver's or helper's own class, ``super().method``; a class named other than as
   an attribute's receiver (called, passed on) stands for all its methods; an attribute
   that a method of the receiver's class (``self``'s, or one item 2 knows) or of a base
   (``__init__``, a ``setup``, any other) sets to such a name or to a ``functools.partial``
   built there (``self.rule = helper``, ``self.rule = partial(helper, 3)``; then
   ``self.rule(x)`` runs ``helper``, whether or not the walk reaches that method);
2. ``receiver.name`` where the receiver's class is known from annotations
   (`crosscheck.harness.independence.receivers`: an annotated parameter such as ``instance:
   Vault``, an annotated or assigned local, ``self.attr`` annotated in the class body
   or set in ``__init__``, what an annotated function returns): that class's
   ``name``, followed with ``self`` as that class; where an annotation gives the class
   (not a call of it: ``Rules(vault)`` is a `Rules`), also ``name`` on each subclass
   of it defined in the modules of item 3, followed with ``self`` as the subclass (its
   override, or the inherited method whose ``self.other()`` the subclass overrides);
3. ``receiver.name`` (called or not) where the receiver's class is not known, or not
   all of it (a list element, a loop variable, a parameter without annotation or
   annotated with a protocol, an abstract class, ``Any``): every method (function,
   property, static or class method) named ``name`` of every class defined in the
   puzzle's model module (``crosscheck.models.<puzzle>``) or in a module of the
   formulation's own package that its source imports, imported yet or not
   (`crosscheck.harness.independence.considered`), and of their subclasses there, except methods of the trusted base, methods of protocols
   (declarations: the class that runs them is another) and names of attributes of the
   built-in types (``get``, ``items``, ``append``, ``count``, dunders), which are taken
   to be the built-in's.  It errs towards sharing: a same-named method of an unrelated
   class in those modules counts;
4. ``getattr(receiver, "name")`` is ``receiver.name``; ``getattr(receiver, name)`` with
   a name built at run time is every function of the module or class ``receiver`` is,
   or every method of each class the receiver may hold (and their subclasses, as in
   item 2), and, where those may not be all, every method of every class item 3 looks
   in (built-in names left out);
5. a ``functools.partial`` (or ``partialmethod``) a name or attribute resolves to (a
   module global, a class attribute): the function it wraps, with ``self`` the class of
   the object bound as its first argument, and the functions bound as its arguments.

Still not seen statically: a module imported by a computed name
(``importlib.import_module(table[puzzle])``), a function kept in a container and
called from there (``rules[kind](cell)``), one set on an object other than by a method of its
class or called on an object of unknown class, a name looked up otherwise
than by ``getattr`` (``operator.attrgetter``, ``vars(x)[name]``), a subclass defined
outside the modules item 3 looks in, a method of a class outside those modules called
on an unknown receiver, and code outside the formulation packages.

Nothing is run.  `static_footprint` is the walk's half of a formulation's footprint
(`crosscheck.harness.independence.sharing` adds what a trace on the puzzle's corpus sees);
`variants` fingerprints the methods it runs on subclasses.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import sys
from collections.abc import Iterable, Iterator
from functools import cache, partial, partialmethod
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

from crosscheck.harness.independence.considered import Considered, local_imports, own_modules
from crosscheck.harness.independence.copies import fingerprint, fingerprint_on, unwrapped
from crosscheck.harness.independence.receivers import Receivers, assignments, definition
from crosscheck.harness.independence.trusted import is_trusted
from crosscheck.solvers.base import Solver

PACKAGE = "crosscheck"
#: The folder holding the package's folders (models/, solvers/, crosscheck/, ...).
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2]) + "/"
#: A function that may run, with the class its ``self`` is (None: a plain function).
Reached = tuple[FunctionType, type | None]


def formulation_packages() -> frozenset[str]:
    """The top-level packages (or modules) whose code counts in footprints: ``crosscheck``
    and each one that defines a `Solver` class loaded now (a plugin's own), with the modules
    beside a plain-module plugin that it imports (`crosscheck.harness.independence.considered.own_modules`)."""
    found, classes = {PACKAGE}, [Solver]
    while classes:
        solver_class = classes.pop()
        found |= own_modules(top(solver_class.__module__))
        classes.extend(solver_class.__subclasses__())
    return frozenset(found)


def top(module: str) -> str:
    """The top-level package (or module) of `module`."""
    return module.partition(".")[0]


def _in_scope(value: object, scope: frozenset[str]) -> bool:
    return top(str(getattr(value, "__module__", ""))) in scope


def _package_function(value: object, scope: frozenset[str]) -> bool:
    """A function written in a file of formulation code (not one made by exec, such as a
    dataclass's ``__eq__``, nor a wrapper from elsewhere, such as its ``__repr__``)."""
    if not (isinstance(value, FunctionType) and _in_scope(value, scope)):
        return False
    if _ours(value.__module__):
        return value.__code__.co_filename.startswith(PACKAGE_ROOT)
    return value.__code__.co_filename == getattr(sys.modules.get(value.__module__), "__file__", None)


def _functions_of(value: object, owner: type | None, scope: frozenset[str]) -> Iterator[Reached]:
    """The functions of `scope` (`formulation_packages`) `value` stands for, each with the
    class its ``self`` is: itself (a function or method of `owner`), a property's getter, a
    static or class method's function, the function a ``functools`` wrapper wraps
    (``lru_cache``), a compiled function's Python source (numba's ``py_func``: the tracer
    cannot see compiled code run), what a ``functools.partial`` runs
    (`_partial_functions`), or every method of a class and of its bases in `scope`."""
    if isinstance(value, partial | partialmethod):
        yield from _partial_functions(value, owner, scope)
        return
    value = unwrapped(value)
    if isinstance(value, FunctionType) and _package_function(value, scope):
        yield value, owner
    elif isinstance(value, type) and _in_scope(value, scope):
        for base in value.__mro__:
            if _in_scope(base, scope):
                for name in vars(base):
                    yield from _functions_of(inspect.getattr_static(value, name, None), value, scope)


def _partial_functions(value: partial[Any] | partialmethod[Any], owner: type | None,
                       scope: frozenset[str]) -> Iterator[Reached]:
    """The functions of `scope` a ``functools.partial`` (or ``partialmethod``) may run: the
    function it wraps, with ``self`` the class of the object bound as its first argument
    (``partial(Search._solve, Search())``) if that is one of `scope`, and the functions
    and classes bound as its arguments (run by the function, most likely)."""
    arguments = [*value.args, *value.keywords.values()]
    first = arguments[0] if isinstance(value, partial) and value.args else None
    if first is not None and not isinstance(first, type | FunctionType) and _in_scope(type(first), scope):
        owner = type(first)
    yield from _functions_of(value.func, owner, scope)
    for argument in arguments:
        yield from _functions_of(argument, None, scope)


def qualified(function: FunctionType) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def _resolve(node: ast.expr, function: FunctionType, owner: type | None,
             imported: dict[str, object]) -> tuple[object, type | None]:
    """The object `node` (a name or an attribute chain) denotes when it can be known
    exactly, and the class a method found on it belongs to (None: not known); `imported`:
    the names the function's own import statements bind."""
    if isinstance(node, ast.Name):
        if node.id in ("self", "cls") and owner is not None:
            return owner, owner
        return imported.get(node.id, function.__globals__.get(node.id)), None
    if isinstance(node, ast.Attribute):
        later = _searched_by_super(node.value, function, owner, imported)
        if later is not None:  # super().attr: the first later class of self's that defines attr
            return next((vars(base)[node.attr] for base in later if node.attr in vars(base)), None), owner
        base, _ = _resolve(node.value, function, owner, imported)
        if isinstance(base, type):
            return inspect.getattr_static(base, node.attr, None), base
        if isinstance(base, ModuleType):
            return getattr(base, node.attr, None), None
    return None, None


def _searched_by_super(node: ast.expr, function: FunctionType, owner: type | None,
                       imported: dict[str, object]) -> tuple[type, ...] | None:
    """When `node` is ``super()`` or ``super(Class, self)`` in `function` (a method run on
    an `owner`): the classes of `owner`'s MRO it searches, in order (none when not known);
    None when `node` is anything else."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"):
        return None
    if node.args:
        start, _ = _resolve(node.args[0], function, owner, imported)
    else:  # the class whose body defines `function`: the cell zero-argument super() reads
        cells = dict(zip(function.__code__.co_freevars, function.__closure__ or (), strict=True))
        start = cells["__class__"].cell_contents if "__class__" in cells else None
    mro = owner.__mro__ if owner is not None else ()
    return mro[mro.index(start) + 1:] if isinstance(start, type) and start in mro else ()


def _references(function: FunctionType, owner: type | None, scope: frozenset[str],
                methods: Methods) -> Iterator[Reached]:
    """The functions of `scope` `function`'s body refers to (annotations left out): exactly
    (names it imports itself included: an import put off until needed, for start-up time),
    as methods of a receiver whose class `Receivers` knows (or of its subclasses, where an
    annotation gives a class), by `methods` (rule 2) on a receiver whose class it does not
    know, and ``getattr(receiver, "name")`` as ``receiver.name``."""
    found = definition(function)
    body = found.body if found else []
    imported = local_imports(body, scope, function.__module__)

    def resolve(node: ast.expr) -> object:
        return _resolve(node, function, owner, imported)[0]

    receivers = Receivers(found, {**function.__globals__, **imported}, owner, resolve) if found else None
    nodes = [node for statement in body for node in ast.walk(statement)]
    looked_up = {id(node): lookup for node in nodes if (lookup := _getattr_of(node, function)) is not None}
    receivers_only = {id(node.value) for node in [*nodes, *looked_up.values()] if isinstance(node, ast.Attribute)}
    for node in nodes:
        lookup = looked_up.get(id(node))
        if lookup is not None and receivers is not None and not lookup.attr:  # a name built at run time
            yield from _any_attribute(lookup.value, resolve(lookup.value), receivers, scope, methods)
            continue
        node = lookup or node
        if not (isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        value, value_owner = _resolve(node, function, owner, imported)
        if isinstance(value, type) and id(node) in receivers_only:
            continue  # `Vault.passable`, `self.at`: the attribute is the reference, not the class
        if value is None and isinstance(node, ast.Attribute) and receivers is not None:
            yield from _attribute_references(node, receivers, scope, methods)
        else:
            yield from _functions_of(value, value_owner, scope)


def _getattr_of(node: ast.AST, function: FunctionType) -> ast.Attribute | None:
    """For ``getattr(receiver, name[, default])`` (the built-in): ``receiver.name`` when
    `name` is a constant string, else ``receiver.`` with an empty attribute; None for any
    other node."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
            and 2 <= len(node.args) <= 3 and function.__globals__.get("getattr", getattr) is getattr):
        return None
    name = node.args[1]
    attribute = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else ""
    return ast.copy_location(ast.Attribute(value=node.args[0], attr=attribute, ctx=ast.Load()), node)


def _any_attribute(node: ast.expr, value: object, receivers: Receivers, scope: frozenset[str],
                   methods: Methods) -> Iterator[Reached]:
    """What an attribute of `node` (denoting `value`, None when not known exactly) looked up
    by a name built at run time may run: every function of a module or class; of an object,
    every method of each class it may hold (and of their subclasses, where an annotation
    gives the class), and `Methods.every` when those may not be all."""
    if isinstance(value, ModuleType | type):
        members = vars(value).values() if isinstance(value, ModuleType) else [value]
        for member in list(members):
            yield from _functions_of(member, None, scope)
        return
    known = receivers.of(node)
    for holder in [*known.classes, *(sub for base in known.open for sub in methods.modules.subclasses(base))]:
        yield from _functions_of(holder, holder, scope)
    if not known.complete:
        yield from methods.every()


def _attribute_references(node: ast.Attribute, receivers: Receivers, scope: frozenset[str],
                          methods: Methods) -> Iterator[Reached]:
    """The functions ``receiver.name`` (`node`) may run: the name on each class the receiver
    is known to hold and on their subclasses where an annotation gives the class, and
    `methods` of the name when those may not be all (rule 2)."""
    for holder, value in receivers.attributes(node):
        yield from _functions_of(value, holder, scope)
    known = receivers.of(node.value)
    for holder in [*known.classes, *(sub for base in known.open for sub in methods.modules.subclasses(base))]:
        if inspect.getattr_static(holder, node.attr, None) is None:  # not the class's: maybe set by a method
            yield from _set_by_methods(holder, scope).get(node.attr, [])
    yield from methods.of_subclasses(node.attr, known.open)
    if not known.complete:
        yield from methods.named(node.attr)


@cache
def _set_by_methods(holder: type, scope: frozenset[str]) -> dict[str, list[Reached]]:
    """By attribute name, the functions of `scope` that a method of `holder` or of a base in
    `scope` (``__init__``, a ``setup`` it calls, any other) assigns to ``self.name``
    (``self``: its first parameter), with the class their ``self`` is: ``self.rule(x)`` runs
    them.  A plain assignment of a value that resolves exactly, as rule 1 (``self.rule =
    helper``, ``self.rule = self.method``, a partial in a global), or of a ``functools.partial``
    built there (``self.rule = partial(helper, 3)``: what it binds, `_bound_by_partial`).
    Every method counts, whether or not anything calls it: errs towards sharing."""
    found: dict[str, list[Reached]] = {}
    for base in holder.__mro__:
        methods = [unwrapped(value) for value in vars(base).values()] if _in_scope(base, scope) else []
        for method in methods:
            tree = definition(method) if isinstance(method, FunctionType) else None
            if tree is None or not isinstance(method, FunctionType) \
                    or not method.__qualname__.startswith(base.__qualname__ + "."):
                continue  # not source, or not a method of `base` (a function kept in its body)
            imported = local_imports(tree.body, scope, method.__module__)
            positional = [*tree.args.posonlyargs, *tree.args.args]
            own = positional[0].arg if positional else None  # ``self``, whatever it is called
            for node in ast.walk(tree):
                for target, value, _ in assignments(node):
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                            and target.value.id == own and value is not None:
                        found.setdefault(target.attr, []).extend(
                            _assigned(value, method, holder, imported, scope))
    return found


def _assigned(value: ast.expr, method: FunctionType, holder: type, imported: dict[str, object],
              scope: frozenset[str]) -> Iterator[Reached]:
    """The functions of `scope` that `value`, assigned to an attribute in `method` (run on a
    `holder`), may stand for: what it resolves to, or what a partial built there binds."""
    bound = _bound_by_partial(value, method, holder, imported)
    for node in [value] if bound is None else bound:
        resolved, owner = _resolve(node, method, holder, imported)
        yield from _functions_of(resolved, owner, scope)


def _bound_by_partial(value: ast.expr, method: FunctionType, holder: type,
                      imported: dict[str, object]) -> list[ast.expr] | None:
    """For ``functools.partial(f, *args, **keywords)`` (or ``partialmethod``): the nodes of
    ``f`` and of its arguments (a function bound as an argument most likely runs too); None
    when `value` is no such call."""
    if not isinstance(value, ast.Call):
        return None
    called, _ = _resolve(value.func, method, holder, imported)
    if called is not partial and called is not partialmethod:
        return None
    return [*value.args, *(keyword.value for keyword in value.keywords)]


def _ours(module: str) -> bool:
    return module == PACKAGE or module.startswith(PACKAGE + ".")


#: Names of attributes of the built-in types (``get``, ``items``, ``append``, ``count``,
#: dunders): on a receiver of unknown class, such a name is taken to be the built-in's.
BUILTIN_NAMES = frozenset(name for value in vars(builtins).values() if isinstance(value, type) for name in dir(value))


class Methods:
    """The methods a call whose target is not known exactly may run, from the classes defined
    in the modules rule 2 looks in (`crosscheck.harness.independence.considered`), untrusted ones only."""

    def __init__(self, solver_class: type[Solver], scope: frozenset[str]) -> None:
        self.modules = Considered.of(solver_class.__module__, solver_class.puzzle)
        self.scope = scope
        self._named: dict[str, list[Reached]] = {}

    def _on(self, holder: type, name: str) -> list[Reached]:
        """What ``name`` on an instance of `holder` may run (inherited or its own)."""
        member = inspect.getattr_static(holder, name, None)
        if member is None or isinstance(member, type):
            return []
        return [(function, owner) for function, owner in _functions_of(member, holder, self.scope)
                if not is_trusted(qualified(function))]

    def of_subclasses(self, name: str, classes: Iterable[type]) -> list[Reached]:
        """What ``name`` may run on an instance of a subclass of one of `classes`: an
        override, or an inherited method whose ``self`` is the subclass."""
        return [reached for base in classes for sub in self.modules.subclasses(base) for reached in self._on(sub, name)]

    def named(self, name: str) -> list[Reached]:
        """Rule 2: every method ``name`` of a class (not a protocol) of these modules, and of
        their subclasses; none for a name in `BUILTIN_NAMES`."""
        if name in BUILTIN_NAMES:
            return []
        if name not in self._named:
            definers = list(self.modules.defining(name))
            self._named[name] = [reached for holder in definers for reached in self._on(holder, name)]
            self._named[name] += self.of_subclasses(name, definers)
        return self._named[name]

    def every(self) -> Iterator[Reached]:
        """What an attribute named at run time may be on an object of unknown class: every
        method of every class of these modules, names in `BUILTIN_NAMES` left out."""
        for holder in self.modules.classes():
            for function, owner in _functions_of(holder, holder, self.scope):
                if function.__name__ not in BUILTIN_NAMES and not is_trusted(qualified(function)):
                    yield function, owner


def static_footprint(solver_class: type[Solver]) -> set[str]:
    """The untrusted functions of formulation code reachable by exact references from ``_solve``."""
    return {qualified(function) for function, _ in static_reached(solver_class)}


def static_reached(solver_class: type[Solver]) -> set[Reached]:
    """`static_footprint`'s functions, each with every class its ``self`` may be."""
    start = inspect.getattr_static(solver_class, "_solve")
    scope = formulation_packages()
    methods = Methods(solver_class, scope)
    followed: set[Reached] = set()  # one function runs on several classes' self: followed for each
    stack: list[Reached] = [(start, solver_class)]
    while stack:
        function, owner = stack.pop()
        if (function, owner) in followed or is_trusted(qualified(function)):
            continue
        followed.add((function, owner))
        stack.extend(_references(function, owner, scope, methods))
    return followed


def variants(reached: Iterable[Reached]) -> dict[str, str]:
    """``method on module.Class`` -> fingerprint, for each substantial method of `reached`
    run on a subclass of its class, where that differs from its own fingerprint: its
    ``self.name`` is the subclass's override (`crosscheck.harness.independence.copies.fingerprint_on`), so
    a copy that pastes the method beside that override is the same code."""
    found: dict[str, str] = {}
    for function, owner in reached:
        if owner is None or function.__qualname__ == f"{owner.__qualname__}.{function.__name__}":
            continue  # a plain function, or a method of `owner` itself
        value = fingerprint_on(function, owner)
        if value is not None and value != fingerprint(function):
            found[f"{qualified(function)} on {owner.__module__}.{owner.__qualname__}"] = value
    return found
