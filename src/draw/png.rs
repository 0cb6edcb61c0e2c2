//! SVG to PNG with resvg, a pure-Rust rasteriser: mail clients show PNG, not SVG.
//!
//! The font is compiled into the binary (DejaVu Sans, `assets/fonts/`), so that a picture
//! has its labels on a machine with no fonts installed at all, and looks the same everywhere.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

/// The one font of every picture; its licence is `assets/fonts/LICENSE-DejaVu.txt`.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The family name the SVG asks for.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Why a picture could not be made (a bug of the renderer, never of the player's input).
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("the drawing is not valid SVG: {0}")]
    Svg(String),
    #[error("the picture has no size")]
    Empty,
    #[error("cannot encode the PNG: {0}")]
    Encode(String),
}

/// The font database, loaded once: parsing the font costs more than drawing a map.
fn fonts() -> Arc<usvg::fontdb::Database> {
    // Written once from the embedded font, which never changes: sharing it changes no
    // picture.
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(FONT.to_vec());
            db.set_sans_serif_family(FONT_FAMILY);
            Arc::new(db)
        })
        .clone()
}

/// Rasterises an SVG document to a PNG `width` pixels wide (height kept in proportion).
pub fn svg_to_png(svg: &str, width: u32) -> Result<Vec<u8>, PngError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).ceil() as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(PngError::Empty)?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap, &named_colours(svg))
}

/// Colours keep 5 bits a channel when they are counted: the low bits are invisible on a
/// map, and then the shades of anti-aliasing repeat instead of all differing. A colour is
/// then a 15-bit key.
fn key(p: &[u8]) -> usize {
    (usize::from(p[0] >> 3) << 10) | (usize::from(p[1] >> 3) << 5) | usize::from(p[2] >> 3)
}

fn colour_of(key: usize) -> [u8; 3] {
    let channel = |shift: usize| (((key >> shift) & 31) as u8) << 3;
    [channel(10), channel(5), channel(0)]
}

/// How many colours the palette holds. The drawing's own colours (about 25, with the
/// houses') take the first places; the rest go to the commonest shades of anti-aliasing.
/// Measured on the Westeros example turn at 1 000 px (`docs/drawing.md`): 256 colours
/// make 98 KB, 64 make 85 KB, 48 make 80 KB, and below 48 the letters' edges grow
/// ragged for little gain.
const PALETTE: usize = 48;

/// Every `#rrggbb` the document names: the colours a flat area or an ink has exactly.
fn named_colours(svg: &str) -> Vec<[u8; 3]> {
    let mut colours = vec![[255, 255, 255]];
    for (at, _) in svg.match_indices('#') {
        let Some(hex) = svg.get(at + 1..at + 7) else {
            continue;
        };
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        let Ok(v) = u32::from_str_radix(hex, 16) else {
            continue;
        };
        let colour = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        if !colours.contains(&colour) {
            colours.push(colour);
        }
    }
    colours
}

fn distance(a: [u8; 3], b: [u8; 3]) -> i32 {
    a.iter()
        .zip(b)
        .map(|(&x, y)| (i32::from(x) - i32::from(y)).pow(2))
        .sum()
}

/// Encodes as an 8-bit palette PNG: a map has few colours, and a palette stores one byte a
/// pixel instead of three or four (the picture is opaque: no alpha). The drawing's own
/// colours come first, so that an ink used on a few pixels only (the convoy's blue, a
/// house's colour) keeps its exact shade; then the commonest shades of the edges and
/// letters; the rarer shades take the nearest colour of the palette, which the eye does
/// not see. Fewer colours repeat more, and deflate (level 9, rows unfiltered: filters
/// help photographs, not palette indices) halves the bytes of the fast encoder.
fn encode(pixmap: &tiny_skia::Pixmap, named: &[[u8; 3]]) -> Result<Vec<u8>, PngError> {
    const KEYS: usize = 1 << 15;
    let data = pixmap.data();
    let mut counts = vec![0u32; KEYS];
    for p in data.chunks_exact(4) {
        counts[key(p)] += 1;
    }
    let mut used: Vec<usize> = (0..KEYS).filter(|&k| counts[k] > 0).collect();
    // Most used first; ties by colour, so that the same picture gives the same bytes.
    used.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
    let mut palette: Vec<[u8; 3]> = named.iter().take(256).copied().collect();
    for &k in &used {
        if palette.len() >= PALETTE.max(named.len().min(256)) {
            break;
        }
        let colour = colour_of(k);
        if !palette.contains(&colour) {
            palette.push(colour);
        }
    }
    let nearest = |colour: [u8; 3]| {
        palette
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| distance(**p, colour))
            .map_or(0, |(i, _)| u8::try_from(i).unwrap_or(0))
    };
    let mut index = vec![0u8; KEYS];
    for &k in &used {
        index[k] = nearest(colour_of(k));
    }
    let pixels: Vec<u8> = data
        .chunks_exact(4)
        .map(|p| {
            let exact = [p[0], p[1], p[2]];
            let shade = index[key(p)];
            if palette[usize::from(shade)] == exact {
                return shade;
            }
            // A flat area's exact colour is its own entry, not its 5-bit neighbour's.
            palette
                .iter()
                .position(|c| *c == exact)
                .map_or(shade, |i| u8::try_from(i).unwrap_or(shade))
        })
        .collect();
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(palette.concat());
        encoder.set_deflate_compression(png::DeflateCompression::Level(9));
        encoder.set_filter(png::Filter::NoFilter);
        let mut writer = encoder
            .write_header()
            .map_err(|e| PngError::Encode(e.to_string()))?;
        writer
            .write_image_data(&pixels)
            .map_err(|e| PngError::Encode(e.to_string()))?;
    }
    Ok(out)
}
