//! SVG to PNG with resvg, a pure-Rust rasteriser: mail clients show PNG, not SVG.
//!
//! The font is compiled into the binary (DejaVu Sans, `assets/fonts/`), so that a picture
//! has its labels on a machine with no fonts installed at all, and looks the same everywhere.

use std::sync::{Arc, Mutex, OnceLock};

use resvg::{tiny_skia, usvg};

use super::svg::{BOARD, BOARD_END, LABELS, LABELS_END};

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
    BUFFERS.with(|kept| {
        // Never borrowed twice on one thread (nothing here calls back into it); if it
        // were, the picture would be made in buffers of its own, as before.
        let mut fresh = Buffers::default();
        let mut borrowed = kept.try_borrow_mut().ok();
        let buffers = borrowed.as_deref_mut().unwrap_or(&mut fresh);
        let height = rasterise_into(svg, width, &mut buffers.pixels)?;
        encode(
            &buffers.pixels,
            width,
            height,
            &named_colours(svg),
            &mut buffers.entries,
        )
    })
}

/// The buffers of one picture, kept by each thread for its next one: a picture at the
/// mail's width is 4 MB of pixels and 1 MB of palette entries, which a fresh allocation
/// would have the system zero page by page at every picture.
#[derive(Default)]
struct Buffers {
    pixels: Vec<u8>,
    entries: Vec<u8>,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::default();
}

/// The SVG document drawn `width` pixels wide on white, as a pixmap of its own.
fn rasterise(svg: &str, width: u32) -> Result<tiny_skia::Pixmap, PngError> {
    let mut pixels = Vec::new();
    let height = rasterise_into(svg, width, &mut pixels)?;
    pixmap(pixels, width, height)
}

fn pixmap(pixels: Vec<u8>, width: u32, height: u32) -> Result<tiny_skia::Pixmap, PngError> {
    let size = tiny_skia::IntSize::from_wh(width, height).ok_or(PngError::Empty)?;
    tiny_skia::Pixmap::from_vec(pixels, size).ok_or(PngError::Empty)
}

/// The SVG document drawn `width` pixels wide on white into `pixels` (RGBA, replaced);
/// returns its height. A document of [`super::svg`] marks its board (the part no
/// position changes) and its provinces' names (drawn over the map, the same for every
/// position too): the board is drawn once per document head and width and kept, the
/// names once into a see-through layer, kept likewise. Each picture is drawn over a copy
/// of the board, the layer of names laid over its map, and the title and legend drawn
/// last, in the document's order. The board's elements come first either way and
/// nothing is composited as a group across a mark: the board gives the pixels of the
/// document drawn whole; the layer may differ from them by a rounding step (a name's
/// halo and letters blended once into the layer, then the layer onto the map, instead of
/// each onto the map), never visibly.
fn rasterise_into(svg: &str, width: u32, pixels: &mut Vec<u8>) -> Result<u32, PngError> {
    let Some((start, end)) = board(svg) else {
        return draw(svg, width, Under::White, pixels);
    };
    let head = &svg[..end];
    let base = kept(boards(), width, (head, ""), || {
        let alone = format!("{head}</svg>\n");
        // Drawn whole: `alone` holds the marks too.
        let mut board = Vec::new();
        let height = draw(&alone, width, Under::White, &mut board)?;
        pixmap(board, width, height)
    })?;
    let prelude = &svg[..start];
    let in_layers = labels(svg, end).and_then(|(from, to)| {
        let names = &svg[from..to];
        let layer = kept(layers(), width, (prelude, names), || {
            let alone = format!("{prelude}{names}</svg>\n");
            let mut drawn = Vec::new();
            let height = draw(&alone, width, Under::Clear, &mut drawn)?;
            Ok(Layer::of(&drawn, height))
        })
        .ok()?;
        let map = format!("{prelude}{}</svg>\n", &svg[end..from]);
        let rest = format!("{prelude}{}", &svg[to..]);
        let height = draw(&map, width, Under::Board(&base), pixels).ok()?;
        layer.over(pixels, height).ok()?;
        draw(&rest, width, Under::Drawn, pixels).ok()?;
        Some(height)
    });
    if let Some(height) = in_layers {
        return Ok(height);
    }
    // A document without the names' marks is drawn over the board in one go; a board
    // or layer of another size than the picture (never seen: all come from one head)
    // would be a wrong picture, and the whole document is drawn instead.
    let over = format!("{prelude}{}", &svg[end..]);
    draw(&over, width, Under::Board(&base), pixels)
        .or_else(|_| draw(svg, width, Under::White, pixels))
}

/// How many boards, and layers of names, are kept at most (a board is about 4 MB at the
/// mail's width, a layer of names a tenth of it).
const BOARDS_KEPT: usize = 8;

/// What was drawn once and kept, with its width and the document text it was drawn
/// from. A few at most: found by comparing the texts, which costs less than hashing them.
type Kept<T> = Vec<(u32, String, Arc<T>)>;

/// The one kept for `width` and the text `key` (its two parts end to end), or the one
/// `make` draws, then kept.
fn kept<T>(
    store: &Mutex<Kept<T>>,
    width: u32,
    key: (&str, &str),
    make: impl FnOnce() -> Result<T, PngError>,
) -> Result<Arc<T>, PngError> {
    let same = |text: &str| {
        text.len() == key.0.len() + key.1.len() && text.starts_with(key.0) && text.ends_with(key.1)
    };
    let found = store.lock().ok().and_then(|store| {
        store
            .iter()
            .find(|(w, text, _)| *w == width && same(text))
            .map(|(_, _, made)| Arc::clone(made))
    });
    if let Some(made) = found {
        return Ok(made);
    }
    let made = Arc::new(make()?);
    if let Ok(mut store) = store.lock() {
        // A judge draws a handful of variants at one or two widths; more means unusual
        // documents, not worth the memory.
        if store.len() >= BOARDS_KEPT {
            store.clear();
        }
        store.push((width, format!("{}{}", key.0, key.1), Arc::clone(&made)));
    }
    Ok(made)
}

fn boards() -> &'static Mutex<Kept<tiny_skia::Pixmap>> {
    static BOARDS: OnceLock<Mutex<Kept<tiny_skia::Pixmap>>> = OnceLock::new();
    BOARDS.get_or_init(|| Mutex::new(Vec::new()))
}

fn layers() -> &'static Mutex<Kept<Layer>> {
    static LAYERS: OnceLock<Mutex<Kept<Layer>>> = OnceLock::new();
    LAYERS.get_or_init(|| Mutex::new(Vec::new()))
}

/// Where the board starts (its mark) and where it ends (past its closing mark).
fn board(svg: &str) -> Option<(usize, usize)> {
    let start = svg.find(BOARD)?;
    let end = start + svg[start..].find(BOARD_END)? + BOARD_END.len();
    Some((start, end))
}

/// Where the provinces' names start (past their mark) and end (at their closing mark),
/// searched from `from`.
fn labels(svg: &str, from: usize) -> Option<(usize, usize)> {
    let start = from + svg.get(from..)?.find(LABELS)? + LABELS.len();
    let end = start + svg[start..].find(LABELS_END)?;
    Some((start, end + LABELS_END.len()))
}

/// A see-through drawing kept as the runs of pixels it covers (premultiplied RGBA): the
/// provinces' names cover a few hundredths of a picture, and laying them over a picture
/// touches those pixels only.
struct Layer {
    height: u32,
    /// Each run's first pixel and length.
    runs: Vec<(usize, usize)>,
    /// The runs' pixels, end to end.
    pixels: Vec<[u8; 4]>,
}

impl Layer {
    fn of(data: &[u8], height: u32) -> Layer {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut pixels = Vec::new();
        for (i, &p) in data.as_chunks::<4>().0.iter().enumerate() {
            if p[3] == 0 {
                continue;
            }
            match runs.last_mut() {
                Some((first, length)) if *first + *length == i => *length += 1,
                _ => runs.push((i, 1)),
            }
            pixels.push(p);
        }
        Layer {
            height,
            runs,
            pixels,
        }
    }

    /// Laid over `data` (premultiplied RGBA, `height` rows), as the rasteriser blends a
    /// shape over what is drawn: each channel `s + (d × (255 − sα) + 255) / 256`.
    fn over(&self, data: &mut [u8], height: u32) -> Result<(), PngError> {
        let (dst, _) = data.as_chunks_mut::<4>();
        let fits = self
            .runs
            .last()
            .is_none_or(|&(first, length)| first + length <= dst.len());
        if height != self.height || !fits {
            return Err(PngError::Empty);
        }
        let mut source = self.pixels.iter();
        for &(first, length) in &self.runs {
            for (d, s) in dst[first..first + length].iter_mut().zip(source.by_ref()) {
                let inverse = 255 - u16::from(s[3]);
                for c in 0..4 {
                    let under = (u16::from(d[c]) * inverse + 255) >> 8;
                    d[c] = s[c].saturating_add(under as u8);
                }
            }
        }
        Ok(())
    }
}

/// What a drawing is made on.
#[derive(Clone, Copy)]
enum Under<'a> {
    /// Opaque white.
    White,
    /// Nothing: every pixel transparent.
    Clear,
    /// A copy of a board of the same size.
    Board(&'a tiny_skia::Pixmap),
    /// What the buffer holds already, a picture of the same size.
    Drawn,
}

/// `svg` drawn `width` pixels wide into `pixels` (RGBA), over `under`; returns the
/// height.
fn draw(svg: &str, width: u32, under: Under<'_>, pixels: &mut Vec<u8>) -> Result<u32, PngError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).ceil() as u32;
    let bytes = (width as usize)
        .checked_mul(height as usize)
        .and_then(|n| n.checked_mul(4))
        .ok_or(PngError::Empty)?;
    // Copied over what the buffer held: a kept buffer is neither zeroed nor faulted in
    // again.
    match under {
        Under::Board(base) if base.width() == width && base.height() == height => {
            pixels.clear();
            pixels.extend_from_slice(base.data());
        }
        Under::Board(_) => return Err(PngError::Empty),
        Under::Drawn if pixels.len() == bytes => {}
        Under::Drawn => return Err(PngError::Empty),
        Under::White | Under::Clear => {
            pixels.clear();
            // Opaque white, premultiplied: every byte 255; transparent: every byte 0.
            let fill = if matches!(under, Under::White) {
                255
            } else {
                0
            };
            pixels.resize(bytes, fill);
        }
    }
    let mut canvas =
        tiny_skia::PixmapMut::from_bytes(pixels, width, height).ok_or(PngError::Empty)?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut canvas,
    );
    Ok(height)
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
fn key(p: [u8; 4]) -> usize {
    (usize::from(p[0] >> 3) << 10) | (usize::from(p[1] >> 3) << 5) | usize::from(p[2] >> 3)
}

fn colour_of(key: usize) -> [u8; 3] {
    let channel = |shift: usize| (((key >> shift) & 31) as u8) << 3;
    [channel(10), channel(5), channel(0)]
}

/// The pixels of `data` (RGBA), each one word: two pixels are compared in one instruction.
fn pixels(data: &[u8]) -> impl Iterator<Item = (u32, [u8; 4])> + '_ {
    data.as_chunks::<4>()
        .0
        .iter()
        .map(|&p| (u32::from_ne_bytes(p), p))
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

/// How many 15-bit keys there are.
const KEYS: usize = 1 << 15;

/// A table of one value per 15-bit key, on the heap (it is 32 K entries).
fn table<T: Copy>(value: T) -> Box<[T; KEYS]> {
    let boxed = vec![value; KEYS].into_boxed_slice();
    // Of KEYS entries by construction: the conversion cannot fail.
    boxed.try_into().unwrap_or_else(|_| Box::new([value; KEYS]))
}

/// A palette and the way to it from any colour of the pictures it was made for.
struct Palette {
    colours: Vec<[u8; 3]>,
    /// The entry of each 15-bit key's nearest colour (an array: a key, made of three
    /// 5-bit parts, is always within it, and the lookup needs no bounds check).
    index: Box<[u8; KEYS]>,
    /// Where in `exact` the colours the palette holds exactly of this 15-bit key begin,
    /// plus one (0: none has it). Only in such a key can a pixel be a palette colour
    /// other than the key's nearest one; most shades of the edges fall in no such key
    /// and skip the search, and in one there is most often a single colour to compare.
    first: Box<[u16; KEYS]>,
    /// The first entry past the reserved ones (an APNG's transparent entry 0) of each
    /// colour the palette holds exactly, sorted by key, then by colour.
    exact: Vec<([u8; 3], u8)>,
}

impl Palette {
    /// The drawing's own colours first, so that an ink used on a few pixels only (the
    /// convoy's blue, a house's colour) keeps its exact shade; then the commonest shades
    /// of the edges and letters of `frames` (RGBA), up to [`PALETTE`]; `reserved` entries
    /// before them all.
    fn of(frames: &[&[u8]], named: &[[u8; 3]], reserved: usize) -> Palette {
        let mut counts = vec![0u32; KEYS];
        for data in frames {
            // Flat areas: a pixel is most often its left neighbour's colour, so the
            // pixels are counted a run of equal ones at a time.
            let mut run: Option<(u32, usize, u32)> = None;
            for (word, p) in pixels(data) {
                match &mut run {
                    Some((before, _, length)) if *before == word => *length += 1,
                    _ => {
                        if let Some((_, k, length)) = run {
                            counts[k] += length;
                        }
                        run = Some((word, key(p), 1));
                    }
                }
            }
            if let Some((_, k, length)) = run {
                counts[k] += length;
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
        let mut index = table(0u8);
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
        let key_of = |c: [u8; 3]| key([c[0], c[1], c[2], 0]);
        exact.sort_by_key(|&(colour, _)| (key_of(colour), colour));
        let mut first = table(0u16);
        for (at, &(colour, _)) in exact.iter().enumerate().rev() {
            first[key_of(colour)] = u16::try_from(at + 1).unwrap_or(0);
        }
        Palette {
            colours,
            index,
            first,
            exact,
        }
    }

    /// The palette entry of each pixel of `data` (RGBA).
    fn indices(&self, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        self.indices_into(data, &mut out);
        out
    }

    /// The palette entry of each pixel of `data` (RGBA), written into `out` (emptied
    /// first): a buffer kept from one picture to the next is not allocated again.
    fn indices_into(&self, data: &[u8], out: &mut Vec<u8>) {
        out.clear();
        out.reserve(data.len() / 4);
        // A map is mostly flat areas: a pixel is most often its left neighbour's colour,
        // whose entry is known.
        let mut last: Option<(u32, u8)> = None;
        out.extend(pixels(data).map(|(word, p)| match last {
            Some((before, entry)) if before == word => entry,
            _ => {
                let entry = self.entry(p);
                last = Some((word, entry));
                entry
            }
        }));
    }

    /// The palette entry of one pixel (RGBA).
    #[inline]
    fn entry(&self, p: [u8; 4]) -> u8 {
        let k = key(p);
        let shade = self.index[k];
        let first = usize::from(self.first[k]);
        if first == 0 {
            return shade;
        }
        let exact = [p[0], p[1], p[2]];
        if self.colours[usize::from(shade)] == exact {
            return shade;
        }
        // A flat area's exact colour is its own entry, not its 5-bit neighbour's.
        let same_key =
            |&&(colour, _): &&([u8; 3], u8)| key([colour[0], colour[1], colour[2], 0]) == k;
        self.exact
            .get(first - 1..)
            .unwrap_or_default()
            .iter()
            .take_while(same_key)
            .find(|&&(colour, _)| colour == exact)
            .map_or(shade, |&(_, entry)| entry)
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
fn encode(
    data: &[u8],
    width: u32,
    height: u32,
    named: &[[u8; 3]],
    entries: &mut Vec<u8>,
) -> Result<Vec<u8>, PngError> {
    let palette = Palette::of(&[data], named, 0);
    palette.indices_into(data, entries);
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(palette.colours.concat());
        encoder.set_deflate_compression(png::DeflateCompression::Level(4));
        encoder.set_filter(png::Filter::NoFilter);
        let mut writer = encoder
            .write_header()
            .map_err(|e| PngError::Encode(e.to_string()))?;
        writer
            .write_image_data(entries)
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

    /// A picture drawn over a kept board, with the kept layer of names laid over it, has
    /// the pixels of its document drawn whole within two rounding steps: every channel of
    /// every pixel within 2, and every pixel outside the names exactly; for a first
    /// picture (the board and the layer drawn then) and for a second one of another
    /// position (both taken from the store).
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
            let (start, end) = board(&document).expect("the board");
            let (from, to) = labels(&document, end).expect("the names are marked");
            let over = rasterise(&document, 400).expect("over the board");
            let mut whole = Vec::new();
            draw(&document, 400, Under::White, &mut whole).expect("whole");
            assert_eq!(over.data().len(), whole.len(), "the sizes differ");
            let worst = over
                .data()
                .iter()
                .zip(&whole)
                .map(|(a, b)| a.abs_diff(*b))
                .max();
            assert!(worst <= Some(2), "a channel differs by {worst:?}");
            // Outside the names, the very pixels.
            let names = format!("{}{}</svg>\n", &document[..start], &document[from..to]);
            let mut layer = Vec::new();
            draw(&names, 400, Under::Clear, &mut layer).expect("names");
            let mut differ = 0;
            for ((a, b), l) in over
                .data()
                .as_chunks::<4>()
                .0
                .iter()
                .zip(whole.as_chunks::<4>().0)
                .zip(layer.as_chunks::<4>().0)
            {
                assert!(a == b || l[3] != 0, "a pixel outside the names differs");
                differ += usize::from(a != b);
            }
            // Most pixels even of the names are the same.
            let covered = layer
                .as_chunks::<4>()
                .0
                .iter()
                .filter(|l| l[3] != 0)
                .count();
            eprintln!("{differ} pixels of {covered} under the names differ");
            assert!(differ * 2 < covered, "{differ} pixels of {covered} differ");
        }
    }
    /// A thread's kept buffers change no picture: pictures of two variants (of two
    /// sizes) made in turn on one thread are byte for byte those made each on a thread
    /// of its own, with buffers of its own.
    #[test]
    fn a_picture_made_in_kept_buffers_is_the_one_made_in_fresh_ones() {
        let documents = example_documents();
        let alone: Vec<Vec<u8>> = documents
            .iter()
            .map(|d| {
                let d = d.clone();
                std::thread::spawn(move || svg_to_png(&d, 600).expect("png"))
                    .join()
                    .expect("thread")
            })
            .collect();
        for round in 0..2 {
            for (n, document) in documents.iter().enumerate().rev() {
                let png = svg_to_png(document, 600).expect("png");
                assert!(
                    png == alone[n],
                    "round {round}, picture {n}: the bytes differ"
                );
            }
        }
    }

    /// The palette as it was first written (each pixel a slice of four bytes, every
    /// shade searched among the exact colours): the reference the faster one must equal.
    struct Reference {
        colours: Vec<[u8; 3]>,
        index: Vec<u8>,
        exact: Vec<([u8; 3], u8)>,
    }

    fn slice_key(p: &[u8]) -> usize {
        (usize::from(p[0] >> 3) << 10) | (usize::from(p[1] >> 3) << 5) | usize::from(p[2] >> 3)
    }

    impl Reference {
        fn of(frames: &[&[u8]], named: &[[u8; 3]], reserved: usize) -> Reference {
            const KEYS: usize = 1 << 15;
            let mut counts = vec![0u32; KEYS];
            for data in frames {
                for p in data.chunks_exact(4) {
                    counts[slice_key(p)] += 1;
                }
            }
            let mut used: Vec<usize> = (0..KEYS).filter(|&k| counts[k] > 0).collect();
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
            let mut exact: Vec<([u8; 3], u8)> = colours
                .iter()
                .enumerate()
                .skip(reserved)
                .map(|(i, c)| (*c, u8::try_from(i).expect("256 entries at most")))
                .collect();
            exact.sort_by_key(|&(colour, entry)| (colour, entry));
            exact.dedup_by_key(|&mut (colour, _)| colour);
            Reference {
                colours,
                index,
                exact,
            }
        }

        fn indices(&self, data: &[u8]) -> Vec<u8> {
            data.chunks_exact(4)
                .map(|p| {
                    let exact = [p[0], p[1], p[2]];
                    let shade = self.index[slice_key(p)];
                    if self.colours[usize::from(shade)] == exact {
                        return shade;
                    }
                    self.exact
                        .binary_search_by_key(&exact, |&(colour, _)| colour)
                        .map_or(shade, |i| self.exact[i].1)
                })
                .collect()
        }
    }

    /// The example pictures: the start of each bundled variant with a drawing, and the
    /// Westeros start with its owners cleared, in both languages.
    fn example_documents() -> Vec<String> {
        let mut documents = Vec::new();
        for id in ["westeros", "classique"] {
            let v = load_variant(id).expect("variant");
            let start = Position::starting(&v, None).expect("setup");
            let mut bare = start.clone();
            bare.owners.iter_mut().for_each(|o| *o = None);
            for (position, lang) in [(&start, Lang::Fr), (&bare, Lang::En)] {
                let picture = Picture {
                    variant: &v,
                    position,
                    orders: &[],
                    played: None,
                    title: id,
                    lang,
                };
                documents.push(svg(&picture).expect("svg"));
            }
        }
        documents
    }

    /// The palette read a word a pixel, its searches skipped where no exact colour can
    /// be, gives the very palette and entries of the one it replaced: the same bytes.
    #[test]
    fn the_faster_palette_gives_the_same_entries_as_the_first_one() {
        let documents = example_documents();
        let mut frames = Vec::new();
        for (n, document) in documents.iter().enumerate() {
            let width = if n % 2 == 0 { 1000 } else { 500 };
            let pixmap = rasterise(document, width).expect("rasterise");
            let named = named_colours(document);
            let data = pixmap.data();
            let new = Palette::of(&[data], &named, 0);
            let old = Reference::of(&[data], &named, 0);
            assert_eq!(new.colours, old.colours, "picture {n}: the palette differs");
            assert!(
                new.indices(data) == old.indices(data),
                "picture {n}: the entries differ"
            );
            if width == 500 {
                frames.push((pixmap, named));
            }
        }
        // An animated picture: several frames, one palette, its entry 0 reserved.
        let datas: Vec<&[u8]> = frames.iter().map(|(p, _)| p.data()).collect();
        let named: Vec<[u8; 3]> = frames.iter().flat_map(|(_, n)| n.clone()).collect();
        let new = Palette::of(&datas, &named, 1);
        let old = Reference::of(&datas, &named, 1);
        assert_eq!(new.colours, old.colours, "the animation's palette differs");
        for data in datas {
            assert!(
                new.indices(data) == old.indices(data),
                "a frame's entries differ"
            );
        }
    }
}
