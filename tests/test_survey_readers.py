"""Survey readers (engine.survey.text_readers, cloud_readers): files written by the libraries
themselves (csv, json, plyfile, laspy) read back to the same stones; bad files named with the row,
point or property that is wrong."""
import json

import laspy
import numpy as np
import plyfile
import pytest

from extrados.engine.survey.cloud_readers import read_las, read_ply
from extrados.engine.survey.stones import StoneInfo, SurveyError
from extrados.engine.survey.text_readers import read_points, read_stone_table

#: LAS stores coordinates as integers times this scale (m): a point comes back within half of it.
LAS_SCALE = 1e-5


@pytest.fixture
def cloud():
    """Three stones of 50 points each, interleaved, and 10 unlabelled points (label -1)."""
    rng = np.random.default_rng(7)
    points = rng.uniform(-2.0, 2.0, (160, 3))
    labels = np.r_[np.tile([11, 12, 13], 50), np.full(10, -1)]
    return points, labels


def expected_stones(points, labels):
    """{stone id: its points} for the labels >= 0, ids as text."""
    return {str(label): points[labels == label] for label in (11, 12, 13)}


def assert_same_stones(stones, expected, tolerance=0.0):
    assert [stone.stone for stone in stones] == list(expected)
    for stone in stones:
        np.testing.assert_allclose(stone.points, expected[stone.stone], rtol=0.0, atol=tolerance)
        assert stone.corners.shape == (0, 3)


def test_csv_points_and_corners_read_back(tmp_path):
    path = tmp_path / "wall.csv"
    path.write_text("Stone,x,y,z,corner\n"
                    "a,0,0,0,0\n"
                    "a,1,0,0,1\n"
                    "b,5,5,5,\n"
                    "\n"
                    "a,0.5,0,1,\n"
                    "a,0,0,1,2\n")
    a, b = read_points(path)
    assert (a.stone, b.stone) == ("a", "b")
    np.testing.assert_array_equal(a.points, [[0, 0, 0], [1, 0, 0], [0.5, 0, 1], [0, 0, 1]])
    np.testing.assert_array_equal(a.corners, [[0, 0, 0], [1, 0, 0], [0, 0, 1]])
    assert b.corners.shape == (0, 3)


def test_json_rows_read_as_the_csv(tmp_path):
    path = tmp_path / "wall.json"
    path.write_text(json.dumps([{"stone": "a", "x": 0, "y": 0, "z": 0}, {"stone": 7, "x": "1.5", "y": 2, "z": 3}]))
    a, seven = read_points(path)
    assert (a.stone, seven.stone) == ("a", "7")
    np.testing.assert_array_equal(seven.points, [[1.5, 2.0, 3.0]])


POINTS_HEADER = "stone,x,y,z\n"
TABLE_HEADER = "stone,type,depth,survey\n"


@pytest.mark.parametrize("reader, name, text, message", [
    # a malformed CSV row, refused with its row number (the header is row 1)
    (read_points, "wall.csv", POINTS_HEADER + "a,0,0,0\na,1,0\n", r"wall.csv, row 3: 3 fields, but the header has 4"),
    (read_points, "wall.csv", POINTS_HEADER + "a,0,0,0\na,1,zero,0\n", r"wall.csv, row 3: y is 'zero', not a number"),
    (read_points, "wall.csv", POINTS_HEADER + "a,0,0,0\n,1,0,0\n", r"wall.csv, row 3: stone must be a non-empty text"),
    (read_points, "wall.csv", POINTS_HEADER + "a,0,0,nan\n", r"wall.csv, row 2: z is 'nan', not a finite number"),
    (read_points, "wall.csv", "stone,x,y\na,0,0\n", r"wall.csv, row 2: no column 'z'"),
    (read_points, "wall.csv", "", r"wall.csv: the file is empty"),
    (read_points, "wall.csv", "stone,x,y,z,corner\na,0,0,0,1\na,1,0,0,1\n",
     r"wall.csv, row 3: stone 'a' has two corners numbered 1"),
    (read_points, "wall.json", "[{\"stone\": \"a\"", r"wall.json: malformed JSON"),
    (read_points, "wall.json", "{\"a\": 1}", r"wall.json: the file must hold a list of rows"),
    (read_points, "wall.json", "[{\"stone\": \"a\", \"x\": true, \"y\": 0, \"z\": 0}]",
     r"wall.json, item 0: x is True, not a number"),
    (read_points, "wall.txt", "", r"wall.txt: unknown file type '.txt'"),
    (read_stone_table, "stones.csv", TABLE_HEADER + "a,header,-0.2,\n",
     r"stones.csv, row 2: depth must be positive, not -0.2 m"),
    (read_stone_table, "stones.csv", TABLE_HEADER + "a,header,,underground\n",
     r"stones.csv, row 2: survey is 'underground'; it must be one of face, all_round"),
    (read_stone_table, "stones.csv", TABLE_HEADER + "a,header,,\na,stretcher,,\n",
     r"stones.csv, row 3: stone 'a' is given twice"),
    (read_stone_table, "stones.csv", "stone,station_x,station_y\na,1,2\n",
     r"stones.csv, row 2: give all of station_x, station_y, station_z or none"),
])
def test_a_bad_file_or_row_is_named(tmp_path, reader, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(SurveyError, match=message):
        reader(path)


def test_stone_table_gives_entities_depths_and_attributes(tmp_path):
    path = tmp_path / "stones.csv"
    path.write_text("stone,type,course,leaf,depth,survey,reference_volume,mason_mark,condition\n"
                    "a,header,3,outer,,,,M,eroded\n"
                    "b,core,3,,0.35,all_round,0.02,,\n")
    table = read_stone_table(path)
    assert table["a"] == StoneInfo({"stone": "a", "type": "header", "course": "3", "leaf": "outer",
                                    "attributes": {"mason_mark": "M", "condition": "eroded"}})
    assert table["b"] == StoneInfo({"stone": "b", "type": "core", "course": "3"}, 0.35, "all_round", 0.02)


def write_ply(path, points, labels, label_type):
    """A binary PLY of labelled points written by plyfile: an int label, or the label as a byte list."""
    if label_type == "text":
        vertex = np.empty(len(points), dtype=[("x", "f8"), ("y", "f8"), ("z", "f8"), ("stone", "O")])
        vertex["stone"] = [np.frombuffer(str(label).encode(), dtype=np.uint8) for label in labels]
        element = plyfile.PlyElement.describe(vertex, "vertex", len_types={"stone": "u1"}, val_types={"stone": "u1"})
    else:
        vertex = np.empty(len(points), dtype=[("x", "f8"), ("y", "f8"), ("z", "f8"), ("stone", "i4")])
        vertex["stone"] = labels
        element = plyfile.PlyElement.describe(vertex, "vertex")
    for axis, column in zip("xyz", points.T):
        vertex[axis] = column
    plyfile.PlyData([element]).write(str(path))


def test_ply_with_integer_labels_reads_back(tmp_path, cloud):
    points, labels = cloud
    write_ply(tmp_path / "scan.ply", points, labels, "int")
    assert_same_stones(read_ply(tmp_path / "scan.ply"), expected_stones(points, labels))


def test_ply_with_text_labels_reads_back(tmp_path, cloud):
    points, labels = cloud
    write_ply(tmp_path / "scan.ply", points, labels, "text")
    assert_same_stones(read_ply(tmp_path / "scan.ply", unlabelled="-1"), expected_stones(points, labels))


def test_bad_ply_files_are_named(tmp_path, cloud):
    points, labels = cloud
    write_ply(tmp_path / "scan.ply", points, labels, "int")
    with pytest.raises(SurveyError, match=r"scan.ply: the vertex element has no property 'label' \(it has: x, y, z"):
        read_ply(tmp_path / "scan.ply", label="label")
    (tmp_path / "junk.ply").write_bytes(b"not a ply file at all")
    with pytest.raises(SurveyError, match="junk.ply: not a readable PLY file"):
        read_ply(tmp_path / "junk.ply")
    points[5, 2] = np.nan
    write_ply(tmp_path / "nan.ply", points, labels, "int")
    with pytest.raises(SurveyError, match="nan.ply: point 5 has a coordinate that is not a finite number"):
        read_ply(tmp_path / "nan.ply")


@pytest.mark.parametrize("suffix", [".las", ".laz"])
def test_las_and_laz_with_point_source_ids_read_back(tmp_path, cloud, suffix):
    points, labels = cloud
    header = laspy.LasHeader(point_format=3, version="1.2")
    header.scales = np.full(3, LAS_SCALE)
    header.offsets = points.min(axis=0)
    las = laspy.LasData(header)
    las.x, las.y, las.z = points.T
    las.point_source_id = np.where(labels < 0, 0, labels)
    las.write(str(tmp_path / f"scan{suffix}"))
    stones = read_las(tmp_path / f"scan{suffix}", unlabelled=0)
    assert_same_stones(stones, expected_stones(points, labels), tolerance=LAS_SCALE / 2)
    with pytest.raises(SurveyError, match=rf"scan{suffix}: no point dimension 'stone' \(the file has: X, Y, Z"):
        read_las(tmp_path / f"scan{suffix}", label="stone")


def test_las_with_an_extra_dimension_label_reads_back(tmp_path, cloud):
    points, labels = cloud
    header = laspy.LasHeader(point_format=3, version="1.4")
    header.add_extra_dim(laspy.ExtraBytesParams(name="stone", type=np.int32))
    header.scales = np.full(3, LAS_SCALE)
    las = laspy.LasData(header)
    las.x, las.y, las.z = points.T
    las.stone = labels
    las.write(str(tmp_path / "scan.las"))
    assert_same_stones(read_las(tmp_path / "scan.las", label="stone"), expected_stones(points, labels),
                       tolerance=LAS_SCALE / 2)
    (tmp_path / "junk.las").write_bytes(b"LASF but nothing else")
    with pytest.raises(SurveyError, match="junk.las: not a readable LAS/LAZ file"):
        read_las(tmp_path / "junk.las")


def test_json_stone_table_keeps_attribute_types(tmp_path):
    path = tmp_path / "stones.json"
    path.write_text(json.dumps([{"stone": "a", "type": "quoin", "course": 12, "phase": 2, "restored": False}]))
    assert read_stone_table(path) == {"a": StoneInfo({"stone": "a", "type": "quoin", "course": "12",
                                                      "attributes": {"phase": 2, "restored": False}})}
