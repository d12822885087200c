"""What changed between two archives of the same event, as a document of its own (a venue's
push, docs/venue.md): `diff(old, new)` gives a patch, `patch(old, p)` gives `new` back.

An archive of a 256-player day is 9 MB of JSON; a hand typed at a table changes one card and
adds a few entries to the audit trail, a few kilobytes. The patch follows the archive's own
nesting, so a changed hand is sent as that hand, and an audit trail that grew as its new
entries. A patch is plain JSON, one of:

- `{"=": value}`: the value replaced as a whole;
- `{"{": {key: patch, ...}, "-": [key, ...]}`: an object, its changed or new members patched
  and the listed ones removed;
- `{"[": length, "@": {"index": patch, ...}, "+": [value, ...]}`: a list of `length` items:
  the items at the given indexes patched, the rest of the old list kept up to `length` (or
  to its end), then the new items `+` appended.

Values Python holds equal inside a list or an object (1, 1.0 and true) are taken as unchanged:
comparing at C speed is what makes a diff of 9 MB cheap. The archive's typed fields never
change that way, and the digest sent beside a patch (`canonical`, `digest`) tells the other end
whether it got exactly the archive meant.

Pure: no database, no framework. A patch that does not fit the document it is applied to
raises `DeltaMismatch`, and the caller then sends, or asks for, the whole archive."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

_INDEX = re.compile(r"0|[1-9][0-9]{0,9}")


def canonical(doc: Any) -> bytes:
    """The one compact text of a document (sorted keys, no spaces, UTF-8): what its digest
    is taken of, so that both ends of a push can tell they hold the same archive.

    Written by orjson, ten times faster than the standard library's json on an archive of
    megabytes, and the same text but for how some floats are written (an archive has none
    where it matters: its values are whole numbers and text); both ends write it the same
    way. What orjson does not write (a whole number beyond 64 bits) the standard library
    does."""
    try:
        return orjson.dumps(doc, default=_fragment, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(doc, default=_read, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")


def _kept(value: Any) -> bool:
    """A card or a trail kept apart (archive.parts.Part, archive.parts.Trail): a mapping or a
    sequence that is not a dict or a list, and writes its own canonical text."""
    return (isinstance(value, (Mapping, Sequence)) and not isinstance(value, (dict, list, str))
            and callable(getattr(value, "text", None)))


def _fragment(value: Any) -> Any:
    # A card or a trail kept apart is written as its own canonical text.
    if _kept(value):
        return orjson.Fragment(value.text())
    raise TypeError(f"{type(value).__name__} is not JSON")


def _read(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if _kept(value):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _whole(value: Any) -> Any:
    """A card or a trail kept apart read whole (a dict, a list); any other value as it is."""
    if _kept(value):
        return dict(value) if isinstance(value, Mapping) else list(value)
    return value


def digest(text: bytes) -> str:
    """The SHA-256 of a canonical text, in hex."""
    return hashlib.sha256(text).hexdigest()


class DeltaMismatch(ValueError):
    """The patch does not fit the document (another base, or not a patch at all)."""


def diff(old: Any, new: Any) -> dict[str, Any] | None:
    """The patch that turns `old` into `new`; None when they are equal."""
    if old == new and type(old) is type(new):
        return None
    # A trail kept in chunks that only grew (archive.parts.Trail.tail_after): its new entries,
    # without reading the chunks both share.
    tail = new.tail_after(old) if _kept(new) and hasattr(new, "tail_after") else None
    if tail is not None:
        return {"[": len(new), "@": {}, "+": _plain(tail)}
    old, new = _whole(old), _whole(new)
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {}
        for key, value in new.items():
            if key not in old:
                changed[key] = {"=": value}
            else:
                sub = diff(old[key], value)
                if sub is not None:
                    changed[key] = sub
        out: dict[str, Any] = {"{": changed}
        removed = sorted(key for key in old if key not in new)
        if removed:
            out["-"] = removed
        return out
    if isinstance(old, list) and isinstance(new, list):
        common = min(len(old), len(new))
        changed = {}
        for i in range(common):
            sub = diff(old[i], new[i])
            if sub is not None:
                changed[str(i)] = sub
        out = {"[": len(new), "@": changed}
        if len(new) > common:
            out["+"] = _plain(new[common:])
        return out
    return {"=": _plain(new)}


def _plain(value: Any) -> Any:
    """A value to send: with every mapping that is not a dict in it read whole."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list) or _kept(value):
        return [_plain(v) for v in value]
    return value


def patch(old: Any, delta: Any) -> Any:
    """`old` with the patch `delta` applied (None: unchanged); `old` itself is not changed,
    unchanged parts are shared with it. Raises DeltaMismatch when the patch does not fit."""
    if delta is None:
        return old
    if not isinstance(delta, dict):
        raise DeltaMismatch("a patch is an object")
    if "=" in delta:
        if len(delta) != 1:
            raise DeltaMismatch("a replacement has one member")
        return delta["="]
    if "{" in delta:
        return _patch_object(old, delta)
    if "[" in delta:
        return _patch_list(old, delta)
    raise DeltaMismatch("not a patch")


def _patch_object(old: Any, delta: dict[str, Any]) -> dict[str, Any]:
    changed, removed = delta["{"], delta.get("-", [])
    old = _whole(old)
    if (not isinstance(old, dict) or not isinstance(changed, dict) or not isinstance(removed, list)
            or set(delta) - {"{", "-"}):
        raise DeltaMismatch("an object's patch on something else")
    out = dict(old)
    for key in removed:
        if not isinstance(key, str) or key not in out:
            raise DeltaMismatch(f"removes {key!r}, which is not there")
        del out[key]
    for key, sub in changed.items():
        if key not in old and not (isinstance(sub, dict) and "=" in sub):
            raise DeltaMismatch(f"patches {key!r}, which is not there")
        out[key] = patch(old.get(key), sub)
    return out


def _patch_list(old: Any, delta: dict[str, Any]) -> Any:
    length, changed, tail = delta["["], delta.get("@", {}), delta.get("+", [])
    if (_kept(old) and hasattr(old, "extended") and changed == {} and isinstance(tail, list)
            and type(length) is int and length == len(old) + len(tail) and set(delta) <= {"[", "@", "+"}):
        # New entries at the end of a trail kept in chunks: the chunks shared, unread.
        return old.extended(tail)
    old = _whole(old)
    if (not isinstance(old, list) or isinstance(length, bool) or not isinstance(length, int)
            or length < 0 or not isinstance(changed, dict) or not isinstance(tail, list)
            or set(delta) - {"[", "@", "+"}):
        raise DeltaMismatch("a list's patch on something else")
    kept = min(len(old), length)
    if kept + len(tail) != length or (tail and kept != len(old)):
        raise DeltaMismatch("the list's length does not fit")
    out = old[:kept]
    for index, sub in changed.items():
        # ASCII digits only (_INDEX): a Unicode digit such as "²" would make int() fail.
        if not (isinstance(index, str) and _INDEX.fullmatch(index) and int(index) < kept):
            raise DeltaMismatch(f"patches item {index!r}, which is not there")
        out[int(index)] = patch(out[int(index)], sub)
    return out + tail
