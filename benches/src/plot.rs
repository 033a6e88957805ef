//! SVG plots of an interleaved run (plotters, SVG backend only): throughput against message
//! size per operation (one line per implementation), and the summary ratios with their
//! intervals.

use crate::interleave::Role;
use crate::report::{RowRecord, gbps, peer_column, size_label};
use plotters::prelude::*;
use std::error::Error;
use std::path::Path;

type Res = Result<(), Box<dyn Error>>;

/// The operations that have at least two sizes among `rows`, in first-seen order.
pub fn curve_ops(rows: &[RowRecord]) -> Vec<String> {
    let mut ops: Vec<String> = Vec::new();
    for r in rows {
        if !ops.contains(&r.op) && rows.iter().filter(|o| o.op == r.op).count() >= 2 {
            ops.push(r.op.clone());
        }
    }
    ops
}

/// Powers of two around `lo..hi`.
fn log2_bounds(lo: f64, hi: f64) -> (f64, f64) {
    let lo = 2f64.powf(lo.log2().floor());
    let hi = 2f64.powf(hi.log2().ceil());
    if hi <= lo { (lo, lo * 2.0) } else { (lo, hi) }
}

/// A line colour per implementation: Tessera's best backend red, its other backends in warm
/// tones, each peer family in its own colour (the same in every plot).
fn color_of(name: &str, role: Role, nth_backend: usize) -> RGBColor {
    const BACKENDS: [RGBColor; 4] = [
        RGBColor(230, 120, 0),
        RGBColor(150, 90, 30),
        RGBColor(225, 110, 170),
        RGBColor(190, 170, 0),
    ];
    match role {
        Role::Reference => RGBColor(205, 20, 30),
        Role::Backend => BACKENDS[nth_backend % BACKENDS.len()],
        Role::Peer => column_color(peer_column(name)),
    }
}

/// The colour of a summary column (peer family).
fn column_color(col: &str) -> RGBColor {
    match col {
        "ring" => RGBColor(31, 119, 180),
        "aws-lc-rs" => RGBColor(44, 160, 44),
        "libcrux" => RGBColor(70, 70, 70),
        "PQClean" => RGBColor(188, 189, 34),
        "hpke-ng" => RGBColor(140, 86, 75),
        "rust-hpke" => RGBColor(255, 127, 14),
        "hpke-rs" => RGBColor(23, 190, 207),
        _ => RGBColor(148, 103, 189),
    }
}

/// `0.25`, `1`, `16`: a power-of-two axis label.
fn fmt_gbps(y: f64) -> String {
    if y >= 1.0 {
        format!("{y:.0}")
    } else {
        let s = format!("{y:.4}");
        s.trim_end_matches('0').to_string()
    }
}

/// Throughput (GB/s, log scale) against message size (log scale) for operation `op`: one line
/// per implementation that appears in the op's rows.
pub fn throughput(path: &Path, op: &str, rows: &[RowRecord]) -> Res {
    let rows: Vec<&RowRecord> = rows.iter().filter(|r| r.op == op).collect();
    let mut names: Vec<(String, Role)> = Vec::new();
    for r in &rows {
        for m in &r.contestants {
            if !names.iter().any(|(n, _)| *n == m.name) {
                names.push((m.name.clone(), m.role));
            }
        }
    }
    let points = |name: &str| -> Vec<(f64, f64)> {
        let mut v: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| {
                r.contestants
                    .iter()
                    .find(|m| m.name == name)
                    .map(|m| (r.size as f64, gbps(r.bytes, m.time_ns.median)))
            })
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v
    };
    let all: Vec<(f64, f64)> = names.iter().flat_map(|(n, _)| points(n)).collect();
    let (xmin, xmax) = all
        .iter()
        .fold((f64::INFINITY, 0f64), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (ymin, ymax) = all
        .iter()
        .fold((f64::INFINITY, 0f64), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let (ymin, ymax) = log2_bounds(ymin, ymax);
    let (xmin, xmax) = log2_bounds(xmin, xmax);

    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let bytes = rows.first().map(|r| r.bytes / r.size.max(1)).unwrap_or(1);
    let caption = if bytes > 1 {
        format!("{op}: throughput ({bytes} messages per call)")
    } else {
        format!("{op}: throughput")
    };
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (xmin..xmax).log_scale().base(2.0),
            (ymin..ymax).log_scale().base(2.0),
        )?;
    chart
        .configure_mesh()
        .x_labels(24)
        .y_labels(24)
        .x_desc("message size (log scale)")
        .y_desc("GB/s, log scale (higher is better)")
        .x_label_formatter(&|x| size_label(x.round() as usize))
        .y_label_formatter(&|y| fmt_gbps(*y))
        .draw()?;
    let mut nth_backend = 0;
    for (name, role) in &names {
        let color = color_of(name, *role, nth_backend);
        if *role == Role::Backend {
            nth_backend += 1;
        }
        let width = if *role == Role::Reference { 3 } else { 2 };
        let pts = points(name);
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(width)))?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(width))
            });
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
    }
    legend(&mut chart, SeriesLabelPosition::LowerRight)?;
    root.present()?;
    Ok(())
}

/// Draws the series' legend at `pos`: on a translucent white box with a black frame.
fn legend<'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
    pos: SeriesLabelPosition,
) -> Res {
    chart
        .configure_series_labels()
        .position(pos)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// The summary: each peer's median ratio (dot) and 95% interval (bar) per row, log scale, with
/// the line at 1 (right of it: Tessera faster). Ties are drawn hollow.
pub fn ratios(path: &Path, rows: &[RowRecord]) -> Res {
    let cols = [
        "ring",
        "aws-lc-rs",
        "RustCrypto",
        "libcrux",
        "PQClean",
        "hpke-ng",
        "rust-hpke",
        "hpke-rs",
    ];
    let n = rows.len().max(1);
    let mut lo = 1f64;
    let mut hi = 1f64;
    for r in rows {
        for m in r.contestants.iter().filter(|m| m.role == Role::Peer) {
            lo = lo.min(m.ci95.0).min(m.ratio.median);
            hi = hi.max(m.ci95.1).max(m.ratio.median);
        }
    }
    let (lo, hi) = (lo / 1.1, hi * 1.1);
    let height = 110 + 26 * n as u32;
    let root = SVGBackend::new(path, (1000, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let labels: Vec<String> = rows.iter().map(|r| r.label()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "peer time / Tessera time (median, 95% interval; >1: Tessera faster)",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(190)
        .build_cartesian_2d(
            (lo..hi).log_scale(),
            // Row i is centred on y = n - i (row 0 at the top), where the labels are.
            0.5f64..n as f64 + 0.5,
        )?;
    chart
        .configure_mesh()
        .y_labels(n + 1)
        .y_label_formatter(&|y| {
            let k = y.round();
            if (y - k).abs() > 1e-6 || k < 1.0 || k > n as f64 {
                return String::new();
            }
            labels.get(n - k as usize).cloned().unwrap_or_default()
        })
        .x_labels(16)
        .x_label_formatter(&|x| format!("{x:.2}"))
        .x_desc("ratio (log scale)")
        .draw()?;
    chart.draw_series(LineSeries::new(
        vec![(1.0, 0.5), (1.0, n as f64 + 0.5)],
        BLACK.stroke_width(2),
    ))?;
    for (ci, col) in cols.iter().enumerate() {
        let color = column_color(col);
        // The columns side by side within a row's band, centred on it.
        let offset = ((cols.len() - 1) as f64 / 2.0 - ci as f64) * (0.72 / cols.len() as f64);
        let mut bars = Vec::new();
        let mut dots = Vec::new();
        for (i, r) in rows.iter().enumerate() {
            let y = (n - i) as f64 + offset;
            for m in r
                .contestants
                .iter()
                .filter(|m| m.role == Role::Peer && peer_column(&m.name) == *col)
            {
                bars.push(PathElement::new(
                    vec![(m.ci95.0, y), (m.ci95.1, y)],
                    color.stroke_width(2),
                ));
                dots.push((m.ratio.median, y, m.tie()));
            }
        }
        if dots.is_empty() {
            continue;
        }
        chart.draw_series(bars)?;
        chart
            .draw_series(dots.iter().map(|&(x, y, tie)| {
                let style = if tie {
                    color.stroke_width(1)
                } else {
                    color.filled()
                };
                Circle::new((x, y), 4, style)
            }))?
            .label(*col)
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    root.present()?;
    Ok(())
}
