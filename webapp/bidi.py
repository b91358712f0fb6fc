"""Names kept in their own direction on the pages: "الدومينو 74–36 ドミノ" must not read "36–74".

A name typed in a right-to-left script, set beside numbers in a left-to-right line, takes the
numbers into its own direction: the Unicode bidirectional algorithm reorders them. Each name the
players typed is isolated where the page shows it: in a template, `{{ name|bdi }}` (a `<bdi>`
element; `dir="auto"` on a form control or an option, which hold text only); in a sentence the
server words, `name()` marks it with the Unicode isolates FSI ... PDI while `isolating()` is on
(the pages turn it on, the JSON API leaves its words plain), and the template's `|isolated`
filter turns each marked name into a `<bdi>`. The page's scripts mark names in their sentences
with the same isolates (`spinnerName` in words.js) and give an element holding only a name
`dir="auto"`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from markupsafe import Markup, escape

#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: `<bdi>` in plain text. `auth.clean_text` takes
#: them out of whatever a player types, so only the server's marks reach `isolated`.
FSI, PDI = "\u2068", "\u2069"
_MARKED = re.compile(f"{FSI}([^{FSI}{PDI}]*){PDI}")
_ISOLATING: ContextVar[bool] = ContextVar("spinner_isolating", default=False)


def name(text: object) -> object:
    """A name for a sentence: marked with the isolates while a page is being made, else as it is."""
    if not _ISOLATING.get() or not isinstance(text, str) or not text:
        return text
    return f"{FSI}{text}{PDI}"


@contextmanager
def isolating() -> Iterator[None]:
    """Sentences worded inside mark their names (`name`) for the page's `|isolated`."""
    token = _ISOLATING.set(True)
    try:
        yield
    finally:
        _ISOLATING.reset(token)


def isolated(text: object) -> Markup:
    """Text for HTML: escaped, each marked name a `<bdi>` (a stray mark is dropped)."""
    escaped = str(escape("" if text is None else text))
    return Markup(_MARKED.sub(r"<bdi>\1</bdi>", escaped).replace(FSI, "").replace(PDI, ""))


def bdi(text: object) -> Markup:
    """One name as its own `<bdi>` element."""
    return Markup("<bdi>%s</bdi>") % ("" if text is None else text)


def bdi_join(names: Iterable[object], separator: str = ", ") -> Markup:
    """Names joined, each its own `<bdi>`."""
    return Markup(escape(separator)).join(bdi(n) for n in names)
