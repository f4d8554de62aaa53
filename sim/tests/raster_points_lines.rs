//! Points (squares of PointSize pixels) and lines (Vulkan's strict lines:
//! rectangles one pixel wide centred on the segment) against
//! hand-computed pixel sets.

use crate::raster_common;

use raster_common::*;

fn point(x: f32, y: f32, size: Option<f32>) -> spvsass_sim::MeshDraw {
    let mut v = at(x, y);
    v.point_size = size;
    draw("points", &[&[0]], vec![v])
}

/// Pixels (x, y) with x0 <= x <= x1 and y0 <= y <= y1.
fn square(x0: u32, x1: u32, y0: u32, y1: u32) -> Vec<(u32, u32)> {
    expected(|i, j| (x0..=x1).contains(&i) && (y0..=y1).contains(&j))
}

#[test]
fn point_of_size_1_on_a_pixel_corner_covers_the_pixel_up_and_left() {
    // The square [7.5, 8.5)² holds one centre, (7.5, 7.5).
    assert_eq!(
        covered(&point(8.0, 8.0, Some(1.0)), &state()),
        square(7, 7, 7, 7)
    );
}

#[test]
fn point_of_size_1_on_a_pixel_centre_covers_that_pixel() {
    assert_eq!(
        covered(&point(3.5, 12.5, Some(1.0)), &state()),
        square(3, 3, 12, 12)
    );
}

#[test]
fn point_of_size_4_on_a_pixel_corner_covers_4_by_4() {
    // [6, 10)²: centres 6.5..9.5.
    assert_eq!(
        covered(&point(8.0, 8.0, Some(4.0)), &state()),
        square(6, 9, 6, 9)
    );
}

#[test]
fn point_of_size_4_on_a_pixel_centre_covers_4_by_4_down_right() {
    // [1.5, 5.5) × [10.5, 14.5): centres 1.5..4.5 and 10.5..13.5.
    assert_eq!(
        covered(&point(3.5, 12.5, Some(4.0)), &state()),
        square(1, 4, 10, 13)
    );
}

#[test]
fn point_without_a_size_is_one_pixel() {
    assert_eq!(
        covered(&point(3.5, 12.5, None), &state()),
        square(3, 3, 12, 12)
    );
}

#[test]
fn point_smaller_than_the_range_is_clamped_to_one_pixel() {
    assert_eq!(
        covered(&point(3.5, 12.5, Some(0.25)), &state()),
        square(3, 3, 12, 12)
    );
}

#[test]
fn point_near_the_border_is_cut_by_the_image() {
    // [-3, 5)²: centres 0.5..4.5.
    assert_eq!(
        covered(&point(1.0, 1.0, Some(8.0)), &state()),
        square(0, 4, 0, 4)
    );
}

#[test]
fn point_outside_the_view_volume_is_discarded_whatever_its_size() {
    // Just right of the image: x_ndc > 1.
    assert!(covered(&point(16.25, 8.0, Some(64.0)), &state()).is_empty());
}

fn line(a: (f32, f32), b: (f32, f32)) -> spvsass_sim::MeshDraw {
    draw("lines", &[&[0, 1]], vec![at(a.0, a.1), at(b.0, b.1)])
}

#[test]
fn horizontal_line_covers_its_row_from_the_start_up_to_the_end() {
    // Rectangle [1.5, 12.5] × [4, 5]: the centre on the start edge
    // (left) counts, the one on the end edge (right) does not.
    assert_eq!(
        covered(&line((1.5, 4.5), (12.5, 4.5)), &state()),
        square(1, 11, 4, 4)
    );
}

#[test]
fn horizontal_line_on_a_row_boundary_takes_the_row_above() {
    // [3, 9] × [7.5, 8.5]: centres at y = 7.5 lie on the top edge (kept),
    // those at 8.5 on the bottom edge (not).
    assert_eq!(
        covered(&line((3.0, 8.0), (9.0, 8.0)), &state()),
        square(3, 8, 7, 7)
    );
}

#[test]
fn vertical_line_covers_its_column() {
    // [3, 4] × [2, 10], centres 2.5..9.5.
    assert_eq!(
        covered(&line((3.5, 2.0), (3.5, 10.0)), &state()),
        square(3, 3, 2, 9)
    );
}

#[test]
fn diagonal_line_covers_the_diagonal_pixels() {
    // 45°: the centres (i+½, i+½) lie on the segment; the neighbours
    // are 1/√2 pixel from it, outside the band of half a pixel.
    assert_eq!(
        covered(&line((0.0, 0.0), (16.0, 16.0)), &state()),
        expected(|i, j| i == j)
    );
}

#[test]
fn shallow_line_covers_one_pixel_per_column() {
    // From (0.5, 2.5) to (15.5, 7.5): y = 2.5 + (x - 0.5) / 3 at column
    // centres; each column gets the pixel whose centre is within ½.
    let c = counts(&line((0.5, 2.5), (15.5, 7.5)), &state());
    for x in 0..15usize {
        let y = 2.5 + (x as f64) / 3.0;
        let rows: Vec<usize> = (0..16).filter(|&r| c[r][x] == 1).collect();
        assert_eq!(
            rows,
            vec![(y - 0.5).round() as usize],
            "column {x}\n{}",
            picture(&c)
        );
    }
    assert!((0..16).all(|r| c[r][15] == 0), "end pixel excluded");
}

#[test]
fn segments_meeting_end_to_end_cover_the_joint_once() {
    let d = draw(
        "lines",
        &[&[0, 1], &[1, 2]],
        vec![at(1.5, 4.5), at(6.5, 4.5), at(12.5, 4.5)],
    );
    let c = counts(&d, &state());
    assert!((1..12).all(|x| c[4][x] == 1), "\n{}", picture(&c));
    assert_eq!(c.iter().flatten().sum::<u32>(), 11);
}

#[test]
fn diagonal_line_between_centres_covers_two_per_row() {
    // y = x - 1.5: the centres (j+1.5, j+½) and (j+2.5, j+½) are ½ pixel
    // to either side horizontally, 1/(2√2) ≈ 0.354 from the segment, inside
    // the rectangle; a parallelogram one pixel tall would take only one.
    let c = counts(&line((2.5, 1.0), (14.5, 13.0)), &state());
    for y in 3..11usize {
        let row: Vec<usize> = (0..16).filter(|&x| c[y][x] == 1).collect();
        assert_eq!(row, vec![y + 1, y + 2], "row {y}\n{}", picture(&c));
    }
}

#[test]
fn vertical_line_on_a_column_boundary_takes_the_column_to_the_left() {
    // [7.5, 8.5] × [2, 10]: centres at x = 7.5 lie on the left side (kept),
    // those at 8.5 on the right side (not), whichever way the line runs.
    for (a, b) in [((8.0, 2.0), (8.0, 10.0)), ((8.0, 10.0), (8.0, 2.0))] {
        assert_eq!(covered(&line(a, b), &state()), square(7, 7, 2, 9));
    }
}

#[test]
fn line_shorter_than_a_pixel_covers_the_centre_it_passes() {
    // From (3.2, 3.3) to (3.8, 3.7): the centre (3.5, 3.5) projects inside
    // the segment, 0.0055 pixel from it.
    assert_eq!(
        covered(&line((3.2, 3.3), (3.8, 3.7)), &state()),
        square(3, 3, 3, 3)
    );
    // Ending before the centre: nothing.
    assert!(covered(&line((3.0, 3.5), (3.4, 3.5)), &state()).is_empty());
}
