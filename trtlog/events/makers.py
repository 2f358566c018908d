"""Fast constructors for the frozen, slotted event dataclasses.

The ``__init__`` that ``dataclass(frozen=True)`` generates sets each field through
``object.__setattr__``, and a call with keywords spread from a dict (``Event(**head, ...)``) first
builds that dict. A verbose log of a large build holds millions of format combinations, timing
runners and fastest tactics, each made from what the native core read. The makers here set the slots
through their own descriptors from plain arguments, without the dict, and give exactly the object
``__init__`` gives, defaults included; ``tests/test_makers.py`` checks that for every event class.

Like ``dataclasses`` itself, they are generated as source text once per class: a function's
parameters cannot be made any other way, and a loop over the fields would cost what it saves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any

# The fields every event has, first, in this order (``Event``).
HEAD_FIELDS = ("line", "end_line", "timestamp", "severity", "producer")

_KEYWORD_MAKERS: dict[type, Callable[..., Any]] = {}
_VALUE_MAKERS: dict[type, Callable[..., Any]] = {}


def keyword_maker(cls: type) -> Callable[..., Any]:
    """``cls(...)`` as a function taking the head fields (``HEAD_FIELDS``) by position or
    keyword and the class's own fields by keyword, with the same defaults."""
    made = _KEYWORD_MAKERS.get(cls)
    if made is None:
        made = _KEYWORD_MAKERS[cls] = _generate(cls, keywords=True)
    return made


def value_maker(cls: type) -> Callable[..., Any]:
    """The object of class ``cls`` whose fields hold the arguments, in field order."""
    made = _VALUE_MAKERS.get(cls)
    if made is None:
        made = _VALUE_MAKERS[cls] = _generate(cls, keywords=False)
    return made


def _generate(cls: type, keywords: bool) -> Callable[..., Any]:
    class_fields = fields(cls)
    names = [field.name for field in class_fields]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    parameters = []
    for index, field in enumerate(class_fields):
        # Slot descriptors set a frozen instance's fields as ``__init__`` does.
        namespace[f"_set{index}"] = getattr(cls, field.name).__set__
        if not keywords:
            parameters.append(field.name)
            continue
        if index == len(HEAD_FIELDS):
            parameters.append("*")
        if field.default is MISSING:
            if field.default_factory is not MISSING:
                raise TypeError(f"{cls.__name__}.{field.name}: default factories are not made")
            parameters.append(field.name)
        else:
            namespace[f"_default{index}"] = field.default
            parameters.append(f"{field.name}=_default{index}")
    if keywords and tuple(names[: len(HEAD_FIELDS)]) != HEAD_FIELDS:
        raise TypeError(f"{cls.__name__} does not start with the event head fields")
    body = "".join(f"    _set{index}(_made, {name})\n" for index, name in enumerate(names))
    source = f"def make({', '.join(parameters)}):\n    _made = _new(_cls)\n{body}    return _made\n"
    exec(source, namespace)
    function: Callable[..., Any] = namespace["make"]
    function.__qualname__ = function.__name__ = f"make_{cls.__name__}"
    return function


__all__ = ["HEAD_FIELDS", "keyword_maker", "value_maker"]
