//! Read-back buffers: integers exactly, floats within a number of ULPs.

use crate::reference::Capture;
use crate::sim::Slot;
use std::collections::BTreeMap;

/// At most this many differing words are listed per buffer.
const LISTED: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordMismatch {
    pub index: usize,
    pub simulator: u32,
    pub reference: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferComparison {
    pub slot: Slot,
    /// `Some(n)`: compared as f32 within n ULPs; `None`: as integers.
    pub float_ulps: Option<u32>,
    /// Words on each side; `None` where that side did not read it back.
    pub simulator_words: Option<usize>,
    pub reference_words: usize,
    /// How many words differ beyond the tolerance, and the first few.
    pub differing: usize,
    pub first: Vec<WordMismatch>,
    /// The largest ULP distance seen (float buffers).
    pub max_ulps: u64,
}

impl BufferComparison {
    pub fn matches(&self) -> bool {
        self.simulator_words == Some(self.reference_words) && self.differing == 0
    }
}

/// The number of representable f32 values between two bit patterns (0
/// for equal values, +0 and -0 included; NaN against NaN is 0, NaN
/// against a number the maximum).
pub fn ulp_distance(a: u32, b: u32) -> u64 {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    match (fa.is_nan(), fb.is_nan()) {
        (true, true) => return 0,
        (false, false) => {}
        _ => return u64::MAX,
    }
    // Map the sign-magnitude order onto a monotonic integer line.
    let key = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -i64::from(x & 0x7fff_ffff)
        } else {
            i64::from(x)
        }
    };
    key(a).abs_diff(key(b))
}

pub fn compare(
    sim: &Capture,
    reference: &Capture,
    float_ulps: &BTreeMap<Slot, u32>,
) -> Vec<BufferComparison> {
    reference
        .result
        .buffers
        .iter()
        .map(|r| {
            let slot = Slot {
                set: r.set,
                binding: r.binding,
                element: r.element,
            };
            let ulps = float_ulps.get(&slot).copied();
            let s = sim.buffer_at(r.set, r.binding, r.element);
            let mut c = BufferComparison {
                slot,
                float_ulps: ulps,
                simulator_words: s.map(<[u32]>::len),
                reference_words: r.words.len(),
                differing: 0,
                first: Vec::new(),
                max_ulps: 0,
            };
            for (index, (&a, &b)) in s.unwrap_or(&[]).iter().zip(&r.words).enumerate() {
                let bad = match ulps {
                    Some(n) => {
                        let d = ulp_distance(a, b);
                        c.max_ulps = c.max_ulps.max(d);
                        d > u64::from(n)
                    }
                    None => a != b,
                };
                if bad {
                    c.differing += 1;
                    if c.first.len() < LISTED {
                        c.first.push(WordMismatch {
                            index,
                            simulator: a,
                            reference: b,
                        });
                    }
                }
            }
            c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulps_count_representable_values_across_zero() {
        let one = 1.0f32.to_bits();
        assert_eq!(ulp_distance(one, one + 1), 1);
        assert_eq!(ulp_distance(0.0f32.to_bits(), (-0.0f32).to_bits()), 0);
        // The smallest subnormals on each side of zero are 2 apart.
        assert_eq!(ulp_distance(1, 0x8000_0001), 2);
        assert_eq!(ulp_distance(f32::NAN.to_bits(), 0x7fc0_0001), 0);
        assert_eq!(ulp_distance(f32::NAN.to_bits(), one), u64::MAX);
    }
}
