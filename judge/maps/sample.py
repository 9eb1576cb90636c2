"""Draw the bundled sample maps (``examples/maps/images``) with Pillow.

The sample is illustrative: four small maps the project draws itself, so that the map
commands and the VDI protocol can be run end to end without any third-party data. The
geometry below is the single source of truth: the images are drawn from it, the sample
questions in ``examples/maps/questions.jsonl`` were written against it, and
:func:`map_facts` turns it into plain-text facts (used by the demo responder in
``examples/maps/demo_server.py`` as its "description" of each map).

Regenerate the images with ``python -m judge.maps.sample examples/maps/images``.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 640, 440
BACKGROUND = (250, 250, 246)
INK = (34, 34, 34)
#: Palette size of the written PNGs: flat drawings need few colours, and it keeps each file small.
PALETTE_COLOURS = 48

# --- metro diagram -------------------------------------------------------------------------

STATIONS: dict[str, tuple[int, int]] = {
    "West Gate": (70, 220),
    "Harbor": (190, 220),
    "Central": (330, 220),
    "Museum": (450, 220),
    "East Park": (575, 220),
    "North Hill": (330, 70),
    "Library": (330, 145),
    "Market": (330, 310),
    "South Bay": (330, 395),
    "Old Town": (190, 310),
    "Stadium": (500, 310),
}
METRO_LINES: dict[str, tuple[tuple[int, int, int], tuple[str, ...]]] = {
    "Red": ((214, 40, 40), ("West Gate", "Harbor", "Central", "Museum", "East Park")),
    "Blue": ((30, 90, 200), ("North Hill", "Library", "Central", "Market", "South Bay")),
    "Green": ((30, 150, 70), ("Harbor", "Old Town", "Market", "Stadium")),
}

# --- evacuation plan -----------------------------------------------------------------------

#: Rooms as (x0, y0, x1, y1); the corridor runs west-east between y=210 and y=250.
ROOMS: dict[str, tuple[int, int, int, int]] = {
    "Office 101": (40, 70, 180, 210),
    "Office 102": (180, 70, 320, 210),
    "Meeting Room": (320, 70, 460, 210),
    "Kitchen": (460, 70, 600, 210),
    "Lobby": (40, 250, 220, 390),
    "Storage": (220, 250, 360, 390),
    "Office 103": (360, 250, 600, 390),
}
#: Door positions on the corridor (x, y): north rooms open at y=210, south rooms at y=250.
DOORS: dict[str, tuple[int, int]] = {
    "Office 101": (100, 210),
    "Office 102": (250, 210),
    "Meeting Room": (390, 210),
    "Kitchen": (530, 210),
    "Lobby": (150, 250),
    "Storage": (300, 250),
    "Office 103": (480, 250),
}
EXITS: dict[str, tuple[int, int]] = {"EXIT A": (40, 230), "EXIT B": (600, 230), "EXIT C": (130, 390)}
YOU_ARE_HERE = (390, 230)
EXTINGUISHERS: dict[str, tuple[int, int]] = {"Office 102": (262, 198), "Kitchen": (542, 198), "Lobby": (70, 370)}
FIRST_AID_ROOM = "Meeting Room"

# --- shaded region map ---------------------------------------------------------------------

DISTRICT_GRID: tuple[tuple[str, ...], ...] = (
    ("Northfield", "Ashford", "Brookvale"),
    ("Westmoor", "Kingsbridge", "Elmstead"),
    ("Southam", "Riverton", "Oakhurst"),
)
#: Density class per district, 1 (lowest) .. 4 (highest).
DENSITY_CLASS: dict[str, int] = {
    "Northfield": 1, "Ashford": 3, "Brookvale": 2,
    "Westmoor": 2, "Kingsbridge": 4, "Elmstead": 3,
    "Southam": 1, "Riverton": 4, "Oakhurst": 2,
}
DENSITY_LABELS: dict[int, str] = {1: "< 100", 2: "100-500", 3: "500-1000", 4: "> 1000"}
DENSITY_SHADES: dict[int, tuple[int, int, int]] = {
    1: (254, 237, 222), 2: (253, 190, 133), 3: (253, 141, 60), 4: (217, 71, 1),
}
#: The river enters at the north edge of Ashford and leaves at the south edge of Riverton.
RIVER_DISTRICTS: tuple[str, ...] = ("Ashford", "Kingsbridge", "Riverton")
REGION_ORIGIN, REGION_CELL = (40, 60), (140, 120)

# --- park map --------------------------------------------------------------------------------

PARK_TRAIL = (110, 80, 530, 380)  # the loop trail, a rectangle walked clockwise from the entrance
PARK_ENTRANCE = (320, 380)
#: Icons on the trail, listed in clockwise order from the entrance (bottom middle, heading west).
PARK_ICONS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("Cafe", (180, 380)),
    ("Restroom", (110, 230)),
    ("Viewpoint", (250, 80)),
    ("Cafe", (430, 80)),
    ("Restroom", (530, 260)),
)
PARK_ATTRACTIONS: dict[str, tuple[int, int]] = {
    "Fountain": (320, 230),
    "Rose Garden": (200, 150),
    "Lake": (440, 150),
    "Playground": (440, 320),
}


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    # Pillow's bundled font, so that the drawing does not depend on fonts installed on the machine.
    return ImageFont.load_default(size=size)


def _label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, size: int = 13,
           anchor: str = "mm", fill: tuple[int, int, int] = INK) -> None:
    draw.text(xy, text, font=_font(size), fill=fill, anchor=anchor)


def _title(draw: ImageDraw.ImageDraw, text: str) -> None:
    _label(draw, (WIDTH // 2, 22), text, size=18)
    _label(draw, (WIDTH - 6, 6), "illustrative sample - reasonjudge", size=10, anchor="rt",
           fill=(120, 120, 120))


def draw_metro() -> Image.Image:
    """Draw the metro diagram: three lines, interchanges as white rings, a legend."""
    im = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(im)
    _title(d, "City Metro - network diagram")
    # The river is scenery: it gives a describer something to mention that no question asks about.
    d.line([(0, 265), (120, 250), (260, 275), (420, 255), (640, 270)], fill=(170, 205, 235), width=14)
    for colour, stations in METRO_LINES.values():
        d.line([STATIONS[s] for s in stations], fill=colour, width=8, joint="curve")
    served: dict[str, int] = {}
    for _, stations in METRO_LINES.values():
        for s in stations:
            served[s] = served.get(s, 0) + 1
    for name, (x, y) in STATIONS.items():
        if served[name] > 1:
            d.ellipse((x - 11, y - 11, x + 11, y + 11), fill="white", outline=INK, width=3)
        else:
            d.ellipse((x - 6, y - 6, x + 6, y + 6), fill="white", outline=INK, width=2)
        dy = -22 if name not in ("South Bay", "Old Town", "Market", "Stadium") else 22
        # Labels of stations on the vertical Blue line sit to its right, off the line.
        dx = 38 if name in ("North Hill", "Library", "Central", "Market") else 0
        _label(d, (x + dx, y + dy), name)
    lx, ly = 20, 340
    d.rectangle((lx, ly, lx + 150, ly + 88), fill="white", outline=(150, 150, 150))
    for i, (line, (colour, _)) in enumerate(METRO_LINES.items()):
        y = ly + 16 + i * 20
        d.line([(lx + 10, y), (lx + 40, y)], fill=colour, width=6)
        _label(d, (lx + 48, y), f"{line} line", anchor="lm")
    y = ly + 76
    d.ellipse((lx + 18, y - 7, lx + 32, y + 7), fill="white", outline=INK, width=3)
    _label(d, (lx + 48, y), "interchange", anchor="lm")
    return im


def _arrow(d: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int], *,
           colour: tuple[int, int, int], dashed: bool = False) -> None:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    if dashed:
        t = 0.0
        while t < length - 12:
            t1 = min(t + 12, length - 12)
            d.line([(x0 + ux * t, y0 + uy * t), (x0 + ux * t1, y0 + uy * t1)], fill=colour, width=4)
            t += 20
    else:
        d.line([start, (x1 - ux * 12, y1 - uy * 12)], fill=colour, width=5)
    px, py = -uy, ux
    d.polygon([(x1, y1), (x1 - ux * 14 + px * 8, y1 - uy * 14 + py * 8),
               (x1 - ux * 14 - px * 8, y1 - uy * 14 - py * 8)], fill=colour)


def _first_aid(d: ImageDraw.ImageDraw, xy: tuple[int, int], *, size: int) -> None:
    x, y = xy
    green = (30, 150, 70)
    d.rectangle((x - size, y - size, x + size, y + size), fill=green)
    arm, bar = size * 3 // 4, max(2, size // 4)
    d.rectangle((x - bar, y - arm, x + bar, y + arm), fill="white")
    d.rectangle((x - arm, y - bar, x + arm, y + bar), fill="white")


def draw_evacuation() -> Image.Image:
    """Draw the evacuation plan: rooms off a corridor, three exits, primary and secondary routes."""
    im = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(im)
    _title(d, "Floor 1 - Evacuation Plan")
    for name, (x0, y0, x1, y1) in ROOMS.items():
        d.rectangle((x0, y0, x1, y1), fill=(236, 236, 228), outline=INK, width=3)
        _label(d, ((x0 + x1) / 2, (y0 + y1) / 2), name)
    d.rectangle((40, 210, 600, 250), fill=(255, 255, 255))
    for x, y in DOORS.values():  # door gaps in the corridor walls
        d.line([(x - 14, y), (x + 14, y)], fill=(255, 255, 255), width=5)
    for name, (x, y) in EXITS.items():
        horizontal = y == 390
        box = (x - 26, y - 8, x + 26, y + 8) if horizontal else (x - 8, y - 20, x + 8, y + 20)
        d.rectangle(box, fill=(30, 150, 70))
        offset = (4, -18) if horizontal else ((-2, -34) if x < 320 else (2, -34))
        _label(d, (x + offset[0], y + offset[1]), name, size=12, fill=(20, 110, 50))
    green = (30, 150, 70)
    _arrow(d, (YOU_ARE_HERE[0] + 16, 230), (592, 230), colour=green)
    _arrow(d, (YOU_ARE_HERE[0] - 16, 230), (48, 230), colour=green, dashed=True)
    x, y = YOU_ARE_HERE
    d.ellipse((x - 9, y - 9, x + 9, y + 9), fill=(214, 40, 40))
    _label(d, (x, y + 30), "YOU ARE HERE", size=11, fill=(214, 40, 40))
    for x, y in EXTINGUISHERS.values():
        d.rectangle((x - 6, y - 6, x + 6, y + 6), fill=(214, 40, 40))
    fx0, fy0, fx1, fy1 = ROOMS[FIRST_AID_ROOM]
    _first_aid(d, (fx1 - 26, fy0 + 26), size=14)
    ly = 418
    d.line([(40, ly), (80, ly)], fill=green, width=5)
    _label(d, (86, ly), "primary route", size=11, anchor="lm")
    for t in range(0, 40, 16):
        d.line([(190 + t, ly), (198 + t, ly)], fill=green, width=4)
    _label(d, (236, ly), "secondary route", size=11, anchor="lm")
    d.rectangle((346, ly - 6, 358, ly + 6), fill=(214, 40, 40))
    _label(d, (364, ly), "fire extinguisher", size=11, anchor="lm")
    _first_aid(d, (482, ly), size=8)
    _label(d, (494, ly), "first aid", size=11, anchor="lm")
    return im


def draw_region() -> Image.Image:
    """Draw the shaded region map: nine districts by density class, a river, a legend."""
    im = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(im)
    _title(d, "Population density by district (people per km2)")
    (ox, oy), (cw, ch) = REGION_ORIGIN, REGION_CELL
    for r, row in enumerate(DISTRICT_GRID):
        for c, name in enumerate(row):
            box = (ox + c * cw, oy + r * ch, ox + (c + 1) * cw, oy + (r + 1) * ch)
            d.rectangle(box, fill=DENSITY_SHADES[DENSITY_CLASS[name]], outline=(90, 90, 90), width=2)
            _label(d, ((box[0] + box[2]) / 2 - 22, box[1] + 18), name, size=12)
    # River: north edge of Ashford, down through Kingsbridge, out through the south edge of Riverton.
    mid = ox + cw + cw // 2 + 20
    pts = [(mid, oy), (mid - 25, oy + 60), (mid + 10, oy + 150), (mid - 20, oy + 250), (mid + 15, oy + 3 * ch)]
    d.line(pts, fill=(50, 120, 210), width=7, joint="curve")
    lx, ly = 40 + 3 * cw + 30, 90
    _label(d, (lx, ly - 20), "Density class", size=13, anchor="lm")
    for i, k in enumerate(sorted(DENSITY_LABELS, reverse=True)):
        y = ly + i * 34
        d.rectangle((lx, y, lx + 30, y + 22), fill=DENSITY_SHADES[k], outline=(90, 90, 90))
        _label(d, (lx + 40, y + 11), DENSITY_LABELS[k], anchor="lm")
    y = ly + 4 * 34 + 14
    d.line([(lx, y), (lx + 30, y)], fill=(50, 120, 210), width=6)
    _label(d, (lx + 40, y), "river", anchor="lm")
    _label(d, (lx + 15, y + 60), "N", size=16)
    d.polygon([(lx + 15, y + 28), (lx + 8, y + 48), (lx + 22, y + 48)], fill=INK)
    return im


def _icon(d: ImageDraw.ImageDraw, kind: str, xy: tuple[int, int]) -> None:
    x, y = xy
    if kind == "Cafe":
        d.ellipse((x - 11, y - 11, x + 11, y + 11), fill=(120, 72, 40))
        _label(d, (x, y), "C", size=13, fill=(255, 255, 255))
    elif kind == "Restroom":
        d.rectangle((x - 12, y - 10, x + 12, y + 10), fill=(30, 90, 200))
        _label(d, (x, y), "WC", size=11, fill=(255, 255, 255))
    elif kind == "Viewpoint":
        d.polygon([(x, y - 13), (x - 12, y + 9), (x + 12, y + 9)], fill=(30, 150, 70))
    else:  # pragma: no cover - the icon kinds are fixed above
        raise ValueError(kind)


def draw_park() -> Image.Image:
    """Draw the park map: a loop trail with icons, four attractions, an entrance."""
    # Taller than the others: the legend goes below the entrance, which sticks out of the park.
    im = Image.new("RGB", (WIDTH, HEIGHT + 30), BACKGROUND)
    d = ImageDraw.Draw(im)
    _title(d, "Greenway Park - visitor map")
    d.rectangle((60, 50, 580, 410), fill=(214, 236, 200), outline=(90, 140, 80), width=3)
    d.rounded_rectangle(PARK_TRAIL, radius=30, outline=(176, 140, 96), width=9)
    x, y = PARK_ATTRACTIONS["Lake"]
    d.ellipse((x - 55, y - 32, x + 55, y + 32), fill=(150, 200, 240))
    x, y = PARK_ATTRACTIONS["Fountain"]
    d.ellipse((x - 16, y - 16, x + 16, y + 16), fill=(150, 200, 240), outline=(80, 120, 170), width=3)
    x, y = PARK_ATTRACTIONS["Rose Garden"]
    for dx, dy in ((-14, -6), (0, 6), (14, -6), (-6, 12), (8, -14)):
        d.ellipse((x + dx - 6, y + dy - 6, x + dx + 6, y + dy + 6), fill=(220, 60, 110))
    x, y = PARK_ATTRACTIONS["Playground"]
    d.rectangle((x - 18, y - 12, x + 18, y + 12), fill=(245, 200, 60), outline=(150, 110, 20), width=2)
    for name, (x, y) in PARK_ATTRACTIONS.items():
        _label(d, (x, y + 44 if name == "Lake" else y + 28), name, size=12)
    for kind, xy in PARK_ICONS:
        _icon(d, kind, xy)
    x, y = PARK_ENTRANCE
    d.rectangle((x - 26, y - 6, x + 26, y + 40), fill=(176, 140, 96))
    _label(d, (x, y + 22), "ENTRANCE", size=10, fill=(255, 255, 255))
    ly = 452
    legend = (("Cafe", 150), ("Restroom", 280), ("Viewpoint", 430))
    for kind, lx in legend:
        _icon(d, kind, (lx, ly - 4))
        _label(d, (lx + 18, ly - 4), kind.lower(), size=11, anchor="lm")
    return im


#: File name -> drawing function, for each bundled sample map.
SAMPLE_MAPS = {
    "metro.png": draw_metro,
    "evacuation.png": draw_evacuation,
    "region.png": draw_region,
    "park.png": draw_park,
}


def save_png(im: Image.Image, path: Path) -> None:
    """Write ``im`` as a palette PNG (flat drawings lose nothing visible, and the file stays small)."""
    im.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, format="PNG", optimize=True)


def write_sample_images(folder: str | Path) -> list[Path]:
    """Draw every sample map into ``folder``; return the paths written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in SAMPLE_MAPS.items():
        path = out / name
        save_png(draw(), path)
        written.append(path)
    return written


def map_facts() -> dict[str, list[str]]:
    """Return, per sample image file, true statements about the map, most salient first.

    The order matters to the demo responder: a description cut to a small budget keeps
    the first facts only, as a real describer would mention the title before the details.
    """
    metro = ["A metro network diagram titled 'City Metro - network diagram' with three lines: Red, Blue and Green."]
    for line, (_, stations) in METRO_LINES.items():
        metro.append(f"The {line} line runs {' - '.join(stations)}.")
    served: dict[str, list[str]] = {}
    for line, (_, stations) in METRO_LINES.items():
        for s in stations:
            served.setdefault(s, []).append(line)
    inter = [s for s, lines in served.items() if len(lines) > 1]
    metro.append("Interchange stations (white rings): " + ", ".join(
        f"{s} ({'/'.join(served[s])})" for s in inter) + ".")
    metro.append("A light-blue river crosses the map from west to east just south of the Red line.")

    evac = ["A floor plan titled 'Floor 1 - Evacuation Plan' with seven rooms off a west-east corridor.",
            "A red dot marked YOU ARE HERE stands in the corridor in front of the Meeting Room door.",
            "A solid green arrow (primary route) runs east along the corridor to EXIT B at its east end.",
            "A dashed green arrow (secondary route) runs west along the corridor to EXIT A at its west end.",
            "EXIT C is in the south wall of the Lobby."]
    north = [r for r in ROOMS if ROOMS[r][1] < 210]
    south = [r for r in ROOMS if ROOMS[r][1] >= 250]
    evac.append("North of the corridor, from west to east: " + ", ".join(north) + ".")
    evac.append("South of the corridor, from west to east: " + ", ".join(south) + ".")
    doors = sorted(DOORS, key=lambda r: -DOORS[r][0])
    evac.append("Doors along the corridor from east to west: " + ", ".join(doors) + ".")
    evac.append("Fire extinguishers (red squares) are at " + ", ".join(EXTINGUISHERS) + ".")
    evac.append(f"A first-aid box (green cross) hangs in the {FIRST_AID_ROOM}.")

    region = ["A shaded map titled 'Population density by district (people per km2)' with nine "
              "districts in a three-by-three grid and a legend of four density classes."]
    for r, row in enumerate(DISTRICT_GRID):
        where = ("Top", "Middle", "Bottom")[r]
        region.append(f"{where} row, west to east: " + ", ".join(
            f"{n} ({DENSITY_LABELS[DENSITY_CLASS[n]]})" for n in row) + ".")
    region.append("A river enters at the north edge of " + RIVER_DISTRICTS[0] + " and flows south through "
                  + ", ".join(RIVER_DISTRICTS[1:]) + ", leaving at the south edge of the map.")

    park = ["A park visitor map titled 'Greenway Park - visitor map' with a loop trail and an ENTRANCE "
            "in the middle of the south side.",
            "The Fountain is at the centre; the Rose Garden is north-west, the Lake north-east and the "
            "Playground south-east of it."]
    park.append("Walking the trail clockwise from the entrance (west first) you pass: "
                + ", ".join(kind.lower() for kind, _ in PARK_ICONS) + ".")
    return {"metro.png": metro, "evacuation.png": evac, "region.png": region, "park.png": park}


def main(argv: Sequence[str] | None = None) -> int:
    """Draw the sample maps into the folder given on the command line."""
    parser = argparse.ArgumentParser(prog="python -m judge.maps.sample", description=main.__doc__)
    parser.add_argument("folder", nargs="?", default="examples/maps/images")
    args = parser.parse_args(argv)
    for path in write_sample_images(args.folder):
        print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
