"""Time zones in stored values: what a datetime's zone is saved as, and the zone it reads back
as, looked up without any import (a zone missing from the system would import `tzdata`)."""

from __future__ import annotations

import datetime as dt
import os
import re
import sys
import zoneinfo
from typing import Any


def naive_tz(value: dt.datetime | dt.time) -> Any:
    tz = value.tzinfo
    if tz is None:
        return None
    key = getattr(tz, "key", None)  # zoneinfo.ZoneInfo keeps its IANA name
    if isinstance(key, str):
        return key
    offset = tz.utcoffset(None) if isinstance(value, dt.time) else tz.utcoffset(value)
    return [offset.days, offset.seconds, offset.microseconds] if offset is not None else None


def tz_from(spec: Any) -> dt.tzinfo | None:
    if spec is None:
        return None
    if isinstance(spec, str):
        return zone(spec)
    return dt.timezone(dt.timedelta(*spec))


_ZONE_KEY = re.compile(r"[A-Za-z0-9_+-]+(?:/[A-Za-z0-9_+-]+)*")


def zone(key: Any) -> Any:
    from engine.checkpoint.serde.jsonplus import DeserializationError  # it imports this module

    if not isinstance(key, str) or not _ZONE_KEY.fullmatch(key):
        raise DeserializationError(f"invalid time zone name {key!r}")
    # for a zone the system lacks, ZoneInfo imports the `tzdata` package: which could be any
    # tzdata.py on sys.path, so look zones up only where no import can happen
    on_disk = any(os.path.isfile(os.path.join(folder, key)) for folder in zoneinfo.TZPATH)
    if not on_disk and "tzdata" not in sys.modules:
        raise DeserializationError(f"unknown time zone {key!r} (not in the system's zone files)")
    return zoneinfo.ZoneInfo(key)
