//! Wrapping of integer texel coordinates, as Vulkan's "Wrapping
//! Operation" defines it for each address mode.

use super::sampler::Wrap;

/// Texel `i` of a row of `n` wrapped by `mode`; `None` where
/// clamp-to-border leaves the image (the border colour is read).
pub fn wrap(mode: Wrap, i: i64, n: u32) -> Option<i64> {
    let n = i64::from(n.max(1));
    let mirror = |i: i64| if i >= 0 { i } else { -(1 + i) };
    match mode {
        Wrap::Repeat => Some(i.rem_euclid(n)),
        Wrap::MirroredRepeat => {
            let t = i.rem_euclid(2 * n);
            Some((n - 1) - mirror(t - n))
        }
        Wrap::ClampToEdge => Some(i.clamp(0, n - 1)),
        Wrap::ClampToBorder => (0..n).contains(&i).then_some(i),
        Wrap::MirrorClampToEdge => Some(mirror(i).clamp(0, n - 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_by_hand() {
        let row = |mode| {
            (-5..9)
                .map(|i| wrap(mode, i, 4).unwrap_or(-9))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            row(Wrap::Repeat),
            [3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]
        );
        assert_eq!(
            row(Wrap::MirroredRepeat),
            [3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0]
        );
        assert_eq!(
            row(Wrap::ClampToEdge),
            [0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3]
        );
        assert_eq!(
            row(Wrap::ClampToBorder),
            [-9, -9, -9, -9, -9, 0, 1, 2, 3, -9, -9, -9, -9, -9]
        );
        assert_eq!(
            row(Wrap::MirrorClampToEdge),
            [3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3]
        );
    }
}
