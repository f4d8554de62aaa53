//! The comparison as the text `spvsass compare` and `run --reference`
//! print: a verdict line, then one section per concern.

use super::{Comparison, Pixel, StatisticVerdict};
use std::fmt;

/// At most this many pixels are listed per kind of mismatch.
const LISTED: usize = 8;

fn pixels(f: &mut fmt::Formatter<'_>, what: &str, list: &[Pixel]) -> fmt::Result {
    if list.is_empty() {
        return Ok(());
    }
    write!(f, "  {what}: {}:", list.len())?;
    for p in list.iter().take(LISTED) {
        write!(f, " ({}, {}", p.x, p.y)?;
        if p.layer != 0 {
            write!(f, ", layer {}", p.layer)?;
        }
        write!(f, ")")?;
    }
    if list.len() > LISTED {
        write!(f, " ...")?;
    }
    writeln!(f)
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.matches() { "match" } else { "MISMATCH" };
        writeln!(
            f,
            "{}: simulator vs {}: {verdict}",
            self.run, self.reference
        )?;
        match &self.image {
            Err(e) => writeln!(f, "image: {e}")?,
            Ok(None) => {}
            Ok(Some(i)) => {
                writeln!(
                    f,
                    "image {}x{}, {} layer(s): {} pixels covered by both, {} by the simulator, \
                     {} by the reference",
                    i.width,
                    i.height,
                    i.layers,
                    i.covered_both,
                    i.covered_simulator,
                    i.covered_reference
                )?;
                pixels(f, "covered by the simulator only", &i.only_simulator)?;
                pixels(f, "covered by the reference only", &i.only_reference)?;
                let edge = self.tolerances.edge_distance;
                pixels(
                    f,
                    &format!("within {edge} px of an edge, simulator only (allowed)"),
                    &i.edge_only_simulator,
                )?;
                pixels(
                    f,
                    &format!("within {edge} px of an edge, reference only (allowed)"),
                    &i.edge_only_reference,
                )?;
                write!(
                    f,
                    "  largest colour error {:e} (allowed {:e})",
                    i.max_colour_error, self.tolerances.colour
                )?;
                if let Some(p) = i.max_colour_error_at {
                    write!(f, " at ({}, {}, layer {})", p.x, p.y, p.layer)?;
                }
                writeln!(f, "; at edge pixels {:e}", i.max_edge_colour_error)?;
            }
        }
        for b in &self.buffers {
            let how = match b.float_ulps {
                Some(n) => format!("f32 within {n} ULPs"),
                None => "integers, exact".to_owned(),
            };
            match b.slot {
                crate::sim::Slot {
                    set: 0,
                    binding,
                    element: 0,
                } => write!(f, "buffer {binding} ({how}): ")?,
                slot => write!(f, "buffer at {slot} ({how}): ")?,
            }
            match b.simulator_words {
                None => writeln!(f, "not read back by the simulator")?,
                Some(n) if n != b.reference_words => writeln!(
                    f,
                    "{n} words in the simulator, {} in the reference",
                    b.reference_words
                )?,
                Some(n) if b.differing == 0 => writeln!(f, "{n} words equal")?,
                Some(n) => {
                    write!(f, "{} of {n} words differ:", b.differing)?;
                    for w in &b.first {
                        write!(
                            f,
                            " [{}] {:#010x} vs {:#010x}",
                            w.index, w.simulator, w.reference
                        )?;
                    }
                    writeln!(f)?;
                }
            }
        }
        for s in &self.statistics {
            let show = |v: Option<u64>| v.map_or("-".to_owned(), |v| v.to_string());
            let note = match s.verdict() {
                StatisticVerdict::Equal => String::new(),
                StatisticVerdict::Differ => "  DIFFERS".into(),
                StatisticVerdict::NotModelled => "  (not modelled by the simulator)".into(),
                StatisticVerdict::PerView { views } => {
                    format!("  (counted once per view: {views} views)")
                }
                StatisticVerdict::NotCounted => continue,
            };
            writeln!(
                f,
                "{}: simulator {}, reference {}{note}",
                s.name,
                show(s.simulator),
                show(s.reference)
            )?;
        }
        Ok(())
    }
}
