"""Text from a file, made safe to show: control characters escaped, never obeyed.

A result file's name, answers and path are whatever someone typed or made up. Printed raw,
``\\x1b[2J`` clears the teacher's screen, a newline in a file name adds a line that looks like
the report's own, and a bidirectional override turns text around. :func:`safe` shows each
such character as its escape (``\\x1b``, ``\\n``, ``\\u202e``), so what is shown is what the
file holds. Bytes of a file name that are not UTF-8 (kept by Python as lone surrogates)
are shown as ``\\xff``.
"""

from __future__ import annotations

import unicodedata

#: Categories that are not shown as themselves: controls, format characters (bidirectional
#: overrides among them), surrogates, private use, unassigned, line and paragraph separators.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(c: str) -> str:
    if c in _NAMED:
        return _NAMED[c]
    code = ord(c)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"  # a byte of a file name that is not UTF-8
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def safe(text: str) -> str:
    """``text`` with every character that would act rather than show written as its escape."""
    if text.isprintable():
        return text
    return "".join(_escape(c) if unicodedata.category(c) in _HIDDEN else c for c in text)
