//! SVG to PNG with resvg, a pure-Rust rasteriser: mail clients show PNG, not SVG.
//!
//! The font is compiled into the binary (DejaVu Sans, `assets/fonts/`), so that a picture
//! has its labels on a machine with no fonts installed at all, and looks the same everywhere.

use std::sync::{Arc, Mutex, OnceLock};

use resvg::{tiny_skia, usvg};

use super::svg::{BOARD, BOARD_END};

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
    let pixmap = rasterise(svg, width)?;
    encode(&pixmap, &named_colours(svg))
}

/// The SVG document drawn `width` pixels wide on white. A document of [`super::svg`]
/// marks its board (the part no position changes): the board is drawn once per document
/// head and width and kept, and each picture is drawn over a copy of it. Drawing in two
/// goes gives the same pixels as in one: the board's elements come first either way and
/// nothing is composited as a group across the mark.
fn rasterise(svg: &str, width: u32) -> Result<tiny_skia::Pixmap, PngError> {
    let Some((start, end)) = board(svg) else {
        return draw(svg, width, None);
    };
    let head = &svg[..end];
    let kept = boards().lock().ok().and_then(|boards| {
        boards
            .iter()
            .find(|(w, h, _)| *w == width && h == head)
            .map(|(_, _, base)| Arc::clone(base))
    });
    let base = match kept {
        Some(base) => base,
        None => {
            let alone = format!("{head}</svg>\n");
            let base = Arc::new(draw(&alone, width, None)?);
            if let Ok(mut boards) = boards().lock() {
                // A judge draws a handful of variants at one or two widths; more means
                // unusual documents, not worth the memory.
                if boards.len() >= BOARDS_KEPT {
                    boards.clear();
                }
                boards.push((width, head.to_string(), Arc::clone(&base)));
            }
            base
        }
    };
    let over = format!("{}{}", &svg[..start], &svg[end..]);
    // A board of another size than the picture (never seen: both come from one head)
    // would be a wrong picture; the whole document is drawn instead.
    draw(&over, width, Some(&base)).or_else(|_| draw(svg, width, None))
}

/// How many boards are kept at most (each about 4 MB at the mail's width).
const BOARDS_KEPT: usize = 8;

/// The boards drawn so far, with their width and document head (which holds the board).
/// A few at most: found by comparing the heads, which costs less than hashing them.
type Boards = Vec<(u32, String, Arc<tiny_skia::Pixmap>)>;

fn boards() -> &'static Mutex<Boards> {
    static BOARDS: OnceLock<Mutex<Boards>> = OnceLock::new();
    BOARDS.get_or_init(|| Mutex::new(Vec::new()))
}

/// Where the board starts (its mark) and where it ends (past its closing mark).
fn board(svg: &str) -> Option<(usize, usize)> {
    let start = svg.find(BOARD)?;
    let end = start + svg[start..].find(BOARD_END)? + BOARD_END.len();
    Some((start, end))
}

/// `svg` drawn `width` pixels wide, over `under` (a board of the same size), or on white.
fn draw(
    svg: &str,
    width: u32,
    under: Option<&tiny_skia::Pixmap>,
) -> Result<tiny_skia::Pixmap, PngError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).ceil() as u32;
    let mut pixmap = match under {
        Some(base) if base.width() == width && base.height() == height => base.clone(),
        Some(_) => return Err(PngError::Empty),
        None => {
            let mut blank = tiny_skia::Pixmap::new(width, height).ok_or(PngError::Empty)?;
            blank.fill(tiny_skia::Color::WHITE);
            blank
        }
    };
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// An animated PNG (APNG) of SVG documents, one frame each, shown `delay_ms` apiece and
/// looping; `width` pixels wide, as tall as the tallest frame (shorter ones on white).
/// One palette serves every frame. Each frame after the first keeps only the pixels that
/// changed, the others transparent over the frame before (palette entry 0): between two
/// phases most of the board stays, and an unchanged pixel costs next to nothing.
pub fn svgs_to_apng(svgs: &[String], width: u32, delay_ms: u16) -> Result<Vec<u8>, PngError> {
    let pixmaps = svgs
        .iter()
        .map(|svg| rasterise(svg, width))
        .collect::<Result<Vec<_>, _>>()?;
    let height = pixmaps
        .iter()
        .map(tiny_skia::Pixmap::height)
        .max()
        .ok_or(PngError::Empty)?;
    let frames: Vec<Vec<u8>> = pixmaps
        .iter()
        .map(|p| {
            let mut frame = vec![255u8; (width * height * 4) as usize];
            frame[..p.data().len()].copy_from_slice(p.data());
            frame
        })
        .collect();
    let mut named = Vec::new();
    for svg in svgs {
        for colour in named_colours(svg) {
            if !named.contains(&colour) {
                named.push(colour);
            }
        }
    }
    let refs: Vec<&[u8]> = frames.iter().map(Vec::as_slice).collect();
    let palette = Palette::of(&refs, &named, 1);
    let error = |e: png::EncodingError| PngError::Encode(e.to_string());
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(palette.colours.concat());
        let mut alpha = vec![255u8; palette.colours.len()];
        alpha[0] = 0;
        encoder.set_trns(alpha);
        encoder.set_deflate_compression(png::DeflateCompression::Level(9));
        encoder.set_filter(png::Filter::NoFilter);
        let count = u32::try_from(frames.len()).map_err(|_| PngError::Empty)?;
        encoder.set_animated(count, 0).map_err(error)?;
        encoder.set_frame_delay(delay_ms, 1000).map_err(error)?;
        let mut writer = encoder.write_header().map_err(error)?;
        let mut before: Option<Vec<u8>> = None;
        for frame in &frames {
            let pixels = palette.indices(frame);
            match &before {
                None => {
                    writer.set_blend_op(png::BlendOp::Source).map_err(error)?;
                    writer.write_image_data(&pixels).map_err(error)?;
                }
                Some(last) => {
                    writer.set_blend_op(png::BlendOp::Over).map_err(error)?;
                    let delta: Vec<u8> = pixels
                        .iter()
                        .zip(last)
                        .map(|(&now, &was)| if now == was { 0 } else { now })
                        .collect();
                    writer.write_image_data(&delta).map_err(error)?;
                }
            }
            before = Some(pixels);
        }
        writer.finish().map_err(error)?;
    }
    Ok(out)
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

/// A palette and the way to it from any colour of the pictures it was made for.
struct Palette {
    colours: Vec<[u8; 3]>,
    /// The entry of each 15-bit key's nearest colour.
    index: Vec<u8>,
    /// The first entry past the reserved ones (an APNG's transparent entry 0) of each
    /// colour the palette holds exactly, sorted by colour: a pixel of the edges is
    /// looked up here by halves rather than by a walk of the palette.
    exact: Vec<([u8; 3], u8)>,
}

impl Palette {
    /// The drawing's own colours first, so that an ink used on a few pixels only (the
    /// convoy's blue, a house's colour) keeps its exact shade; then the commonest shades
    /// of the edges and letters of `frames` (RGBA), up to [`PALETTE`]; `reserved` entries
    /// before them all.
    fn of(frames: &[&[u8]], named: &[[u8; 3]], reserved: usize) -> Palette {
        const KEYS: usize = 1 << 15;
        let mut counts = vec![0u32; KEYS];
        for data in frames {
            // Flat areas: a pixel is most often its left neighbour's colour.
            let mut last: Option<(&[u8], usize)> = None;
            for p in data.chunks_exact(4) {
                let k = match last {
                    Some((before, k)) if before == p => k,
                    _ => key(p),
                };
                last = Some((p, k));
                counts[k] += 1;
            }
        }
        let mut used: Vec<usize> = (0..KEYS).filter(|&k| counts[k] > 0).collect();
        // Most used first; ties by colour, so that the same picture gives the same bytes.
        used.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
        let mut colours: Vec<[u8; 3]> = vec![[0, 0, 0]; reserved];
        colours.extend(named.iter().take(256 - reserved).copied());
        let room = PALETTE.max(colours.len()).min(256);
        for &k in &used {
            if colours.len() >= room {
                break;
            }
            let colour = colour_of(k);
            if !colours[reserved..].contains(&colour) {
                colours.push(colour);
            }
        }
        let nearest = |colour: [u8; 3]| {
            colours[reserved..]
                .iter()
                .enumerate()
                .min_by_key(|(_, p)| distance(**p, colour))
                .map_or(reserved, |(i, _)| i + reserved)
        };
        let mut index = vec![0u8; KEYS];
        for &k in &used {
            index[k] = u8::try_from(nearest(colour_of(k))).unwrap_or(0);
        }
        let mut exact: Vec<([u8; 3], u8)> = Vec::new();
        for (i, colour) in colours.iter().enumerate().skip(reserved) {
            if let Ok(entry) = u8::try_from(i) {
                exact.push((*colour, entry));
            }
        }
        // The first entry of a colour named twice, as before.
        exact.sort_by_key(|&(colour, entry)| (colour, entry));
        exact.dedup_by_key(|&mut (colour, _)| colour);
        Palette {
            colours,
            index,
            exact,
        }
    }

    /// The palette entry of each pixel of `data` (RGBA).
    fn indices(&self, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(data.len() / 4);
        // A map is mostly flat areas: a pixel is most often its left neighbour's colour,
        // whose entry is known.
        let mut last: Option<(&[u8], u8)> = None;
        for p in data.chunks_exact(4) {
            if let Some((before, entry)) = last
                && before == p
            {
                out.push(entry);
                continue;
            }
            let entry = self.entry(p);
            last = Some((p, entry));
            out.push(entry);
        }
        out
    }

    /// The palette entry of one pixel (RGBA).
    fn entry(&self, p: &[u8]) -> u8 {
        let exact = [p[0], p[1], p[2]];
        let shade = self.index[key(p)];
        if self.colours[usize::from(shade)] == exact {
            return shade;
        }
        // A flat area's exact colour is its own entry, not its 5-bit neighbour's.
        self.exact
            .binary_search_by_key(&exact, |&(colour, _)| colour)
            .map_or(shade, |i| self.exact[i].1)
    }
}

/// Encodes as an 8-bit palette PNG: a map has few colours, and a palette stores one byte a
/// pixel instead of three or four (the picture is opaque: no alpha). The palette is
/// [`Palette::of`]'s; the rarer shades take the nearest colour of the palette, which the
/// eye does not see. Fewer colours repeat more, and deflate (level 4, rows unfiltered:
/// filters help photographs, not palette indices) halves the bytes of the fast encoder.
/// Measured on a results picture (docs/performance.md): level 6 makes it 79 KB in 16 ms,
/// level 2 84 KB in 6 ms, level 1 106 KB in 3.5 ms; at a deadline, deflate was the
/// largest share of the pass. Level 4, not 2: a Westeros results mail must stay within
/// 120 KB as sent, which level 2 passed by 4 KB.
fn encode(pixmap: &tiny_skia::Pixmap, named: &[[u8; 3]]) -> Result<Vec<u8>, PngError> {
    let palette = Palette::of(&[pixmap.data()], named, 0);
    let pixels = palette.indices(pixmap.data());
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(palette.colours.concat());
        encoder.set_deflate_compression(png::DeflateCompression::Level(4));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Picture, svg};
    use crate::judge::Position;
    use crate::lang::Lang;
    use crate::map::load_variant;

    /// A picture drawn over a kept board has the pixels of its document drawn whole, for
    /// a first picture (the board drawn then) and for a second one of another position
    /// (the board taken from the store).
    #[test]
    fn a_picture_over_the_kept_board_is_the_document_drawn_whole() {
        let v = load_variant("westeros").expect("westeros");
        let start = Position::starting(&v, None).expect("setup");
        let mut later = start.clone();
        later.owners.iter_mut().for_each(|o| *o = None);
        for position in [&start, &later, &start] {
            let picture = Picture {
                variant: &v,
                position,
                orders: &[],
                played: None,
                title: "Westeros",
                lang: Lang::Fr,
            };
            let document = svg(&picture).expect("svg");
            assert!(board(&document).is_some(), "the board is marked");
            let over = rasterise(&document, 400).expect("over the board");
            let whole = draw(&document, 400, None).expect("whole");
            assert!(over.data() == whole.data(), "the pixels differ");
        }
    }
}
