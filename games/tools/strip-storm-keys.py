#!/usr/bin/env python3
"""Write a variant file without the Storm of Swords keys, for checking with today's loader.

    python3 games/tools/strip-storm-keys.py games/tempete.toml > /tmp/tempete-plain.toml
    corbeau map check /tmp/tempete-plain.toml

Why: games/tempete.toml uses keys (fords, arrows, garrisons, weather, claim points, towns,
closed provinces) that a loader without those mechanics refuses. Everything else in the
file (names, borders listed on both sides, the picture) must still pass the ordinary
checks, so this script removes the new keys and turns each `[[border]]` into a plain army
border listed on both of its provinces. `[victory] points` becomes `centres` with the same
number, so the file still has a victory count. The result is for checking only: it is not a
playable version of the board (fords never close in it, arrows carry supports).
"""

import sys
import tomllib

DROPPED_TOP = {"border", "weather", "garrison"}
DROPPED_VARIANT = {"armies_only"}
DROPPED_PROVINCE = {"claim", "town"}
DROPPED_SETUP = {"closed", "neutral"}


def strip(doc):
    provinces = {p["id"]: p for p in doc.get("province", [])}
    for border in doc.get("border", []):
        a, b = border["between"]
        for here, there in ((a, b), (b, a)):
            if here in provinces:
                army = provinces[here].setdefault("army", [])
                if there not in army:
                    army.append(there)
    for key in DROPPED_TOP:
        doc.pop(key, None)
    for key in DROPPED_VARIANT:
        doc.get("variant", {}).pop(key, None)
    victory = doc.get("victory", {})
    if "points" in victory:
        victory.setdefault("centres", victory["points"])
        del victory["points"]
    victory["tie_break"] = [t for t in victory.get("tie_break", []) if t != "points"]
    if not victory["tie_break"]:
        del victory["tie_break"]
    for province in provinces.values():
        for key in DROPPED_PROVINCE:
            province.pop(key, None)
    for setup in doc.get("setup", []):
        for key in DROPPED_SETUP:
            setup.pop(key, None)
    return doc


def value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def key(k):
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else value(k)


def is_table_array(v):
    return isinstance(v, list) and v and all(isinstance(x, dict) for x in v)


def table(name, t, out, inline_dicts):
    """Scalars and inline values first, then sub-tables and arrays of tables."""
    for k, v in t.items():
        if is_table_array(v) or (isinstance(v, dict) and k not in inline_dicts):
            continue
        out.append(f"{key(k)} = {value(v)}")
    for k, v in t.items():
        path = f"{name}.{key(k)}" if name else key(k)
        if isinstance(v, dict) and k not in inline_dicts:
            out.append(f"\n[{path}]")
            table(path, v, out, inline_dicts={"names"} | set(v) if k == "places" else {"names"})
        elif is_table_array(v):
            for item in v:
                out.append(f"\n[[{path}]]")
                table(path, item, out, inline_dicts={"names"})


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: strip-storm-keys.py VARIANT.toml > PLAIN.toml")
    with open(sys.argv[1], "rb") as f:
        doc = tomllib.load(f)
    out = []
    table("", strip(doc), out, inline_dicts={"names"})
    sys.stdout.write("\n".join(out).lstrip("\n") + "\n")


if __name__ == "__main__":
    main()
