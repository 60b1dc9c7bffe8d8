"""A rounded rectangle as a triangle mesh that fills the same pixels as Kivy's
``RoundedRectangle``, but cheaper to rasterise in software.

Kivy draws a ``RoundedRectangle`` as one fan of thin triangles from its centre to every point
of its corners; Mesa's llvmpipe bins each of those long slivers into every 64×64 tile its
bounding box touches, so a seat's panel cost about twice a rectangle of its size on each
frame. :func:`rounded_mesh` makes the same outline (Kivy's corner points, computed in single
precision in the same order as Kivy's ``RoundedRectangle.build`` and ``draw_arc``), cut into
small fans at the corners, four edge strips and the middle: the same polygon, so the same
pixels (a pixel belongs to exactly one triangle of any cutting of a polygon), and each
triangle's box is about its own size.
"""

from __future__ import annotations

import math
import struct
from array import array
from functools import lru_cache

SEGMENTS = 10  # Kivy's RoundedRectangle default: points per corner
_F32 = struct.Struct("f")


def f32(value: float) -> float:
    """``value`` rounded to single precision (a C ``float``), as Kivy's vertex code keeps it."""
    result: float = _F32.unpack(_F32.pack(value))[0]
    return result


@lru_cache(maxsize=None)
def _unit_arc(start: float, segments: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The unit circle's points of Kivy's ``RoundedRectangle.draw_arc`` from ``start`` degrees
    90 clockwise, step for step in single precision: the same for every corner that starts
    there, whatever its place and size."""
    angle_start = f32(f32(start) * 0.017453292519943295)
    angle_end = f32(f32(start - 90) * 0.017453292519943295)
    theta = f32((angle_end - angle_start) / segments)
    tangential, radial = f32(math.tan(theta)), f32(math.cos(theta))
    x, y = f32(math.cos(angle_start)), f32(math.sin(angle_start))
    xs, ys = [], []
    for _ in range(segments):
        xs.append(x)
        ys.append(y)
        fx, fy = -y, x
        x = f32(x + f32(fx * tangential))
        y = f32(y + f32(fy * tangential))
        x, y = f32(x * radial), f32(y * radial)
    return tuple(xs), tuple(ys)


@lru_cache(maxsize=None)
def _fan_indices(segments: int) -> tuple[int, ...]:
    """The mesh's triangles (they do not depend on the place or size): each corner's small fan
    from its centre over its points, the strip along each edge from one corner's closing point
    to the next one's first, and the middle between the four centres."""
    per_corner = segments + 2  # its centre, its arc's points and its closing point
    indices: list[int] = []
    for corner in range(4):
        middle = corner * per_corner
        for a in range(middle + 1, middle + per_corner - 1):
            indices.extend((middle, a, a + 1))
    for corner in range(4):
        middle, closing = corner * per_corner, corner * per_corner + per_corner - 1
        next_middle = (corner + 1) % 4 * per_corner
        indices.extend((middle, closing, next_middle + 1, middle, next_middle + 1, next_middle))
    centres = [corner * per_corner for corner in range(4)]
    indices.extend((centres[0], centres[1], centres[2], centres[0], centres[2], centres[3]))
    return tuple(indices)


@lru_cache(maxsize=None)
def _unit_arcs(segments: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The four corners' unit arcs (top left, top right, bottom right, bottom left) one after
    the other."""
    arcs = [_unit_arc(180 - 90 * corner, segments) for corner in range(4)]
    return tuple(x for xs, _ys in arcs for x in xs), tuple(y for _xs, ys in arcs for y in ys)


def _repeat(values: tuple[float, ...], times: int) -> list[float]:
    """Each value ``times`` times over, in order."""
    return [value for value in values for _ in range(times)]


def _f32s(*values: float) -> list[float]:
    """Each value rounded to single precision (:func:`f32` for several at once)."""
    return array("f", values).tolist()


@lru_cache(maxsize=512)
def rounded_mesh(x: float, y: float, w: float, h: float, radius: float,
                 segments: int = SEGMENTS) -> tuple[list[float], list[int]]:
    """Kivy ``Mesh`` vertices (x, y, u, v) and indices (mode ``"triangles"``) of a rounded
    rectangle at (``x``, ``y``) of ``w`` × ``h`` with corners of ``radius``: the pixels of
    ``RoundedRectangle(pos=(x, y), size=(w, h), radius=[radius], segments=segments)``.
    Nothing (empty lists) for a rectangle of no size, as Kivy draws nothing then.

    Each corner (top left, top right, bottom right, bottom left) is its arc's centre, its
    points (``draw_arc``: each ``(cx + x * rx, cy + y * ry)`` of its unit arc) and its closing
    point, as Kivy's ``RoundedRectangle.build`` makes them: every sum and product rounded to
    single precision, several independent ones at a time (``array("f")`` rounds a list as a
    C cast rounds one value; a sum or product of two single-precision values in double
    precision rounds to the C ``float`` result)."""
    x, y, w, h = _f32s(x, y, w, h)
    if w == 0 or h == 0:
        return [], []
    if not (radius and segments):  # sharp corners: a rectangle
        outline = [(x, f32(y + h)), (f32(x + w), f32(y + h)), (f32(x + w), y), (x, y)]
        return [c for px, py in outline for c in (px, py, 0.0, 0.0)], [0, 1, 2, 0, 2, 3]
    half_w, half_h = _f32s(w / 2, h / 2)
    rx, ry = _f32s(min(radius, half_w), min(radius, half_h))
    left, top_edge, right_edge, bottom = _f32s(x + rx, y + h, x + w, y + ry)
    top, right = _f32s(top_edge - ry, right_edge - rx)
    centres = ((left, top), (right, top), (right, bottom), (left, bottom))
    closings = ((left, top_edge), (right_edge, top), (right, y), (x, bottom))  # Kivy's sums with 0 and 1 factors
    unit_x, unit_y = _unit_arcs(segments)
    xs = array("f", [cx + p for cx, p in zip(_repeat(tuple(c[0] for c in centres), segments),
                                             array("f", [u * rx for u in unit_x]))]).tolist()
    ys = array("f", [cy + p for cy, p in zip(_repeat(tuple(c[1] for c in centres), segments),
                                             array("f", [u * ry for u in unit_y]))]).tolist()
    outline_x: list[float] = []
    outline_y: list[float] = []
    for corner, ((cx, cy), (close_x, close_y)) in enumerate(zip(centres, closings)):
        points = slice(corner * segments, corner * segments + segments)
        outline_x += [cx, *xs[points], close_x]
        outline_y += [cy, *ys[points], close_y]
    vertices = [0.0] * (4 * len(outline_x))
    vertices[0::4], vertices[1::4] = outline_x, outline_y
    return vertices, list(_fan_indices(segments))


# --------------------------------------------------------------------------- filled by clears

EDGE_MARGIN = 0.01  # an edge this close to a pixel centre is left to the rasteriser (its tie rule decides)


def pixel_span(low: float, high: float) -> tuple[int, int] | None:
    """The pixels (first, end) whose centres (``i + 0.5``) lie between ``low`` and ``high``:
    those a triangle edge at each of them covers. None if an edge lies within
    :data:`EDGE_MARGIN` of a pixel centre (where the rasteriser's tie rule and vertex
    snapping decide, so only the triangles themselves say which pixels they cover).

    >>> pixel_span(8.0, 264.0), pixel_span(12.3, 20.0), pixel_span(12.5, 20.0)
    ((8, 264), (12, 20), None)
    """
    for edge in (low, high):
        if abs(edge - 0.5 - round(edge - 0.5)) < EDGE_MARGIN:
            return None
    return math.ceil(low - 0.5), math.ceil(high - 0.5)


def pixel_box(x: float, y: float, w: float, h: float) -> tuple[int, int, int, int] | None:
    """The pixels (x, y, width, height) a rectangle covers, or None (see :func:`pixel_span`)."""
    across, up = pixel_span(x, x + w), pixel_span(y, y + h)
    if across is None or up is None:
        return None
    return across[0], up[0], across[1] - across[0], up[1] - up[0]


Box = tuple[float, float, float, float]


@lru_cache(maxsize=512)
def rounded_parts(x: float, y: float, w: float, h: float, radius: float,
                  segments: int = SEGMENTS) -> tuple[tuple[Box, ...], list[float], list[int]]:
    """:func:`rounded_mesh`'s polygon cut into its middle column (x, y, width, height: from
    the left corners' centres to the right ones', bottom to top; the whole rectangle if the
    corners are sharp) and the rest as mesh vertices and indices: the very triangles of
    :func:`rounded_mesh` for the four corners' fans and the left and right edge strips. The
    column's edges are the polygon's and the strips' own (the same single-precision values),
    so the parts together cover the pixels of the whole."""
    x, y, w, h = f32(x), f32(y), f32(w), f32(h)
    if w == 0 or h == 0:
        return (), [], []
    if not (radius and segments):
        return ((x, y, w, h),), [], []
    vertices, indices = rounded_mesh(x, y, w, h, radius, segments)
    per_corner = segments + 2  # its centre, its arc's points and its closing point
    fans = indices[:4 * 3 * segments]
    strips = indices[4 * 3 * segments:4 * 3 * segments + 4 * 6]  # top, right, bottom, left edge
    sides = strips[6:12] + strips[18:24]
    centres = [vertices[4 * per_corner * corner:4 * per_corner * corner + 2] for corner in range(4)]
    (left, top), (right, _top) = centres[0], centres[1]
    column = (left, y, f32(right - left), f32(f32(y + h) - y))
    boxes = (column,) if column[2] > 0 and column[3] > 0 else ()
    return boxes, vertices, fans + sides
