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


def _arc(cx: float, cy: float, rx: float, ry: float, start: float, segments: int) -> list[tuple[float, float]]:
    """Kivy's ``RoundedRectangle.draw_arc``: each point ``(cx + x * rx, cy + y * ry)`` of the
    unit arc, every product and sum rounded to single precision (the sum of two floats in double
    precision rounds to the same single-precision value as the C ``float`` sum; ``array("f")``
    rounds a whole list the way :func:`f32` rounds one value, a C cast, at a fraction of the cost:
    the start-up's first layout makes a hundred of these meshes)."""
    xs, ys = _unit_arc(start, segments)
    px = array("f", [cx + p for p in array("f", [x * rx for x in xs])])
    py = array("f", [cy + p for p in array("f", [y * ry for y in ys])])
    return list(zip(px.tolist(), py.tolist()))


def _corners(x: float, y: float, w: float, h: float, radius: float,
             segments: int) -> list[tuple[tuple[float, float], list[tuple[float, float]]]]:
    """Each corner (top left, top right, bottom right, bottom left) as its arc's centre and
    its outline points, the closing point last (Kivy's ``RoundedRectangle.build``)."""
    rx = f32(min(radius, f32(w / 2)))
    ry = f32(min(radius, f32(h / 2)))
    centres = [(f32(x + rx), f32(f32(y + h) - ry)), (f32(f32(x + w) - rx), f32(f32(y + h) - ry)),
               (f32(f32(x + w) - rx), f32(y + ry)), (f32(x + rx), f32(y + ry))]
    corners = []
    for corner, (px, py) in enumerate(centres):
        dw, dh = ((0, 1), (1, 1), (1, 0), (0, 0))[corner]
        points = _arc(px, py, rx, ry, 180 - 90 * corner, segments)
        close_x = f32(f32(f32(px * (dw != dh)) + f32(x * (dw == dh))) + f32(w * (dw * dh)))
        close_y = f32(f32(f32(py * (dw == dh)) + f32(y * (dw != dh))) + f32(h * (dh > dw)))
        corners.append(((px, py), points + [(close_x, close_y)]))
    return corners


@lru_cache(maxsize=512)
def rounded_mesh(x: float, y: float, w: float, h: float, radius: float,
                 segments: int = SEGMENTS) -> tuple[list[float], list[int]]:
    """Kivy ``Mesh`` vertices (x, y, u, v) and indices (mode ``"triangles"``) of a rounded
    rectangle at (``x``, ``y``) of ``w`` × ``h`` with corners of ``radius``: the pixels of
    ``RoundedRectangle(pos=(x, y), size=(w, h), radius=[radius], segments=segments)``.
    Nothing (empty lists) for a rectangle of no size, as Kivy draws nothing then."""
    x, y, w, h = f32(x), f32(y), f32(w), f32(h)
    if w == 0 or h == 0:
        return [], []
    if not (radius and segments):  # sharp corners: a rectangle
        outline = [(x, f32(y + h)), (f32(x + w), f32(y + h)), (f32(x + w), y), (x, y)]
        return [c for px, py in outline for c in (px, py, 0.0, 0.0)], [0, 1, 2, 0, 2, 3]
    vertices: list[float] = []
    indices: list[int] = []
    ends: list[tuple[int, int, int]] = []  # per corner: its centre's, first and closing point's index

    for centre, points in _corners(x, y, w, h, radius, segments):
        middle = len(vertices) // 4  # the centre's index, then its outline's points one after the other
        for px, py in (centre, *points):
            vertices.extend((px, py, 0.0, 0.0))
        for a in range(middle + 1, middle + len(points)):  # the corner's own small fan
            indices.extend((middle, a, a + 1))
        ends.append((middle, middle + 1, middle + len(points)))
    for corner in range(4):  # the strip along each edge, from one corner's closing point to the next one's first
        middle, _first, closing = ends[corner]
        next_middle, next_first, _closing = ends[(corner + 1) % 4]
        indices.extend((middle, closing, next_first, middle, next_first, next_middle))
    centres = [end[0] for end in ends]
    indices.extend((centres[0], centres[1], centres[2], centres[0], centres[2], centres[3]))
    return vertices, indices


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
