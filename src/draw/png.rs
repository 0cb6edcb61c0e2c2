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

/// Encodes as 8-bit RGB (the picture is opaque: no alpha channel to store), with the
/// strongest compression: a map is mostly flat colour, which compresses well.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PngError> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::High);
        encoder.set_filter(png::Filter::Adaptive);
        let mut writer = encoder
            .write_header()
            .map_err(|e| PngError::Encode(e.to_string()))?;
        writer
            .write_image_data(&rgb)
            .map_err(|e| PngError::Encode(e.to_string()))?;
    }
    Ok(out)
}
