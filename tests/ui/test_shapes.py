"""The rounded rectangle as a mesh (ui/table/shapes.py): a proper cutting of Kivy's outline.
(That it fills the same pixels as Kivy's RoundedRectangle is shown by the screenshots of
tests/ui/test_screens.py, which stayed the same pixel for pixel.)"""

from __future__ import annotations

import math

from ui.table.shapes import f32, rounded_mesh


def _points(vertices: list[float]) -> list[tuple[float, float]]:
    return [(vertices[i], vertices[i + 1]) for i in range(0, len(vertices), 4)]


def _area(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    return abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2


def test_the_triangles_cover_the_rounded_rectangle_once() -> None:
    x, y, w, h, r = 10.5, 20.25, 256.0, 202.0, 10.0
    vertices, indices = rounded_mesh(x, y, w, h, r)
    points = _points(vertices)
    assert len(indices) % 3 == 0 and max(indices) == len(points) - 1
    covered = sum(_area(*(points[i] for i in indices[t:t + 3])) for t in range(0, len(indices), 3))
    # the outline's area: the rectangle less four corners, each a square less its 10-segment arc polygon
    arc_polygon = 10 / 2 * r * r * math.sin(math.pi / 2 / 10)
    expected = w * h - 4 * (r * r - arc_polygon)
    assert math.isclose(covered, expected, rel_tol=1e-4), (covered, expected)
    assert all(x <= px <= x + w and y <= py <= y + h for px, py in points)


def test_every_coordinate_is_a_single_precision_float() -> None:
    vertices, _ = rounded_mesh(3.1, 7.7, 123.4, 56.7, 12.0)
    assert all(f32(v) == v for v in vertices)


def test_sharp_corners_are_a_rectangle_and_no_size_is_nothing() -> None:
    vertices, indices = rounded_mesh(0, 0, 40, 30, 0)
    assert sorted(_points(vertices)) == [(0, 0), (0, 30), (40, 0), (40, 30)] and len(indices) == 6
    assert rounded_mesh(5, 5, 0, 30, 8) == ([], [])
    assert rounded_mesh(5, 5, 30, 0, 8) == ([], [])


def _kivy_arc(cx: float, cy: float, rx: float, ry: float, start: float, segments: int) -> list[tuple[float, float]]:
    """Kivy's ``RoundedRectangle.draw_arc`` step for step, one ``f32`` at a time (the reference)."""
    angle_start = f32(f32(start) * 0.017453292519943295)
    angle_end = f32(f32(start - 90) * 0.017453292519943295)
    theta = f32((angle_end - angle_start) / segments)
    tangential, radial = f32(math.tan(theta)), f32(math.cos(theta))
    x, y = f32(math.cos(angle_start)), f32(math.sin(angle_start))
    points = []
    for _ in range(segments):
        points.append((f32(cx + f32(x * rx)), f32(cy + f32(y * ry))))
        fx, fy = -y, x
        x, y = f32(x + f32(fx * tangential)), f32(y + f32(fy * tangential))
        x, y = f32(x * radial), f32(y * radial)
    return points


def test_the_arcs_are_kivys_to_the_last_bit() -> None:
    """The arcs computed from a unit arc kept per corner and rounded a list at a time (issue 20's
    cold start) are the reference's, bit for bit, at places and sizes of every kind."""
    import random

    from ui.table.shapes import _arc

    rnd = random.Random(20)
    for _ in range(3000):
        cx, cy = f32(rnd.uniform(-20, 1300)), f32(rnd.choice([rnd.uniform(0, 720), float(rnd.randint(0, 720))]))
        r = f32(rnd.choice([8.0, 10.0, 12.0, 15.0, rnd.uniform(0.1, 60)]))
        rx, ry = r, f32(min(r, rnd.uniform(0.5, 60)))
        start, segments = rnd.choice([180, 90, 0, -90]), rnd.choice([10, 10, 4, 1, 20])
        assert _arc(cx, cy, rx, ry, start, segments) == _kivy_arc(cx, cy, rx, ry, start, segments)
