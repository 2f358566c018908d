"""The fast constructors give exactly the event ``__init__`` gives (``trtlog.events.makers``)."""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, fields

import pytest

from trtlog.events import EVENT_CLASSES, Event, FormatCombination
from trtlog.events.base import KeywordMakers
from trtlog.events.makers import HEAD_FIELDS, keyword_maker, value_maker


def _field_values(event: Event) -> dict[str, object]:
    return {field.name: getattr(event, field.name) for field in fields(event)}


def _distinct_values(cls: type[Event]) -> dict[str, object]:
    # A different value in each field: a value set into another field's slot shows.
    return {field.name: f"{field.name} of {cls.__name__}" for field in fields(cls)}


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
def test_keyword_maker_sets_every_field_as_init_does(cls: type[Event]) -> None:
    values = _distinct_values(cls)
    head = [values.pop(name) for name in HEAD_FIELDS]
    made = keyword_maker(cls)(*head, **values)
    expected = cls(**dict(zip(HEAD_FIELDS, head, strict=True)), **values)
    assert type(made) is cls
    assert _field_values(made) == _field_values(expected)
    assert made == expected and hash(made) == hash(expected)


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
def test_keyword_maker_has_the_defaults_of_init(cls: type[Event]) -> None:
    required = {
        field.name: f"{field.name}!"
        for field in fields(cls)
        if field.default is MISSING and field.default_factory is MISSING
    }
    assert _field_values(keyword_maker(cls)(**required)) == _field_values(cls(**required))


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
def test_value_maker_takes_the_fields_in_order(cls: type[Event]) -> None:
    values = _distinct_values(cls)
    made = value_maker(cls)(*values.values())
    assert type(made) is cls and _field_values(made) == values


def test_made_events_stay_frozen() -> None:
    made = keyword_maker(FormatCombination)(1, 1, inputs=(), outputs=())
    with pytest.raises(FrozenInstanceError):
        made.line = 2  # type: ignore[misc]


def test_wrong_arguments_fail_as_init_does() -> None:
    make = keyword_maker(FormatCombination)
    with pytest.raises(TypeError):
        make(1, 1, inputs=())  # outputs is required
    with pytest.raises(TypeError):
        make(1, 1, inputs=(), outputs=(), colour="red")
    with pytest.raises(TypeError):
        # Only the head is taken by position.
        make(1, 1, None, None, "trt", None)


def test_keyword_makers_are_made_once_per_class() -> None:
    makers = KeywordMakers()
    assert makers[FormatCombination] is makers[FormatCombination]
    assert makers[FormatCombination] is keyword_maker(FormatCombination)
