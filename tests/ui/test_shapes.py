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
