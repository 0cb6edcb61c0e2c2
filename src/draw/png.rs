//! SVG to PNG with resvg, a pure-Rust rasteriser: mail clients show PNG, not SVG.
//!
//! The font is compiled into the binary (DejaVu Sans, `assets/fonts/`), so that a picture
//! has its labels on a machine with no fonts installed at all, and looks the same everywhere.

use std::collections::HashMap;
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
    encode(&pixmap)
}

/// The low bits dropped from each channel before choosing the palette: invisible on a
/// map, and the shades of anti-aliasing then repeat instead of all differing.
const POSTERIZE: u8 = 0xF8;

/// Encodes as an 8-bit palette PNG (the picture is opaque: no alpha channel to store).
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PngError> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0] & POSTERIZE, p[1] & POSTERIZE, p[2] & POSTERIZE])
        .collect();
    encode_indexed(&rgb, pixmap.width(), pixmap.height())
}

/// A map has few colours: a palette PNG stores one byte a pixel instead of three. The 256
/// commonest colours make the palette (the flat areas, the inks); the rarer ones, shades of
/// anti-aliasing along lines and letters, take the nearest colour of the palette, which
/// the eye does not see at this size.
fn encode_indexed(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, PngError> {
    let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
    for p in rgb.chunks_exact(3) {
        *counts.entry([p[0], p[1], p[2]]).or_default() += 1;
    }
    let mut by_use: Vec<([u8; 3], u32)> = counts.into_iter().collect();
    // Most used first; ties by colour, so that the same picture gives the same bytes.
    by_use.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<[u8; 3]> = by_use.iter().take(256).map(|(c, _)| *c).collect();
    let mut index: HashMap<[u8; 3], u8> = HashMap::with_capacity(by_use.len());
    for (colour, _) in &by_use {
        let nearest = palette
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| {
                p.iter()
                    .zip(colour)
                    .map(|(&a, &b)| (i32::from(a) - i32::from(b)).pow(2))
                    .sum::<i32>()
            })
            .map_or(0, |(i, _)| i);
        index.insert(*colour, u8::try_from(nearest).unwrap_or(0));
    }
    let pixels: Vec<u8> = rgb
        .chunks_exact(3)
        .map(|p| index.get(&[p[0], p[1], p[2]]).copied().unwrap_or(0))
        .collect();
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(palette.concat());
        encoder.set_compression(png::Compression::High);
        let mut writer = encoder
            .write_header()
            .map_err(|e| PngError::Encode(e.to_string()))?;
        writer
            .write_image_data(&pixels)
            .map_err(|e| PngError::Encode(e.to_string()))?;
    }
    Ok(out)
}
