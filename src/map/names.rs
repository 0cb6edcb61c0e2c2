//! Province and coast names as players write them: ids, full names and aliases, compared
//! without case or accents, with a suggestion of the nearest names for a misspelling.
//!
//! Every name of the variant is folded once, when the variant is loaded; a name read from
//! input is folded once too, word by word, with a fast path for ASCII (nearly every order
//! line): look-ups never run Unicode normalisation on the variant's names again.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rapidfuzz::distance::{damerau_levenshtein, jaro_winkler};
use unicode_normalization::UnicodeNormalization;

use super::variant::{HouseId, ProvinceId, RegionId, StartingUnit, UnitKind};

/// Lower case, accents removed, hyphens/apostrophes/underscores as spaces, spaces collapsed:
/// `Port-Réal` and `port real` are the same name.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    fold_into(s, &mut out);
    out
}

/// Whether `fold` reads this character as a space between words.
fn is_fold_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '-' | '\'' | '’' | '_' | '.')
}

/// Appends the fold of `s` to `out` (which the caller keeps empty or ending a word).
pub fn fold_into(s: &str, out: &mut String) {
    let start = out.len();
    if s.is_ascii() {
        // The fast path: no accents, no ligatures, no Unicode case or spaces to look up.
        let mut pending_space = false;
        for b in s.bytes() {
            if b.is_ascii_whitespace() || matches!(b, b'-' | b'\'' | b'_' | b'.' | b'\x0b') {
                pending_space = out.len() > start;
                continue;
            }
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            out.push(char::from(b.to_ascii_lowercase()));
        }
        return;
    }
    let mut pending_space = false;
    for c in s.nfd() {
        if unicode_normalization::char::is_combining_mark(c) {
            continue;
        }
        if is_fold_separator(c) {
            pending_space = out.len() > start;
            continue;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        match c {
            // Ligatures that NFD keeps whole.
            'œ' | 'Œ' => out.push_str("oe"),
            'æ' | 'Æ' => out.push_str("ae"),
            _ => out.extend(c.to_lowercase()),
        }
    }
}

/// FxHash (rustc's): the keys are the variant's own short names, so a fast hash is safe
/// (input only looks up; it never inserts).
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0xf1357aea2e62a9c5;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(0xf1357aea2e62a9c5);
    }

    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

type FoldMap<V> = HashMap<Box<str>, V, BuildHasherDefault<FxHasher>>;

/// What a folded run of words is: a province's name, and/or the start of a longer name.
#[derive(Debug, Clone, Copy)]
pub struct NameEntry<T> {
    /// The thing this run names, if it is a whole name.
    pub found: Option<T>,
    /// Whether some longer name starts with this run and a space.
    pub longer: bool,
}

impl<T> Default for NameEntry<T> {
    fn default() -> Self {
        NameEntry {
            found: None,
            longer: false,
        }
    }
}

/// Coasts named by one folded run of words, with the province each belongs to.
#[derive(Debug, Clone, Default)]
pub struct CoastEntry {
    coasts: Vec<(ProvinceId, RegionId)>,
    longer: bool,
}

/// Every name of every province and coast, folded.
#[derive(Debug, Clone, Default)]
pub struct NameIndex {
    provinces: FoldMap<NameEntry<ProvinceId>>,
    /// Coast names: folded coast name → the coasts it names, by province.
    coasts: FoldMap<CoastEntry>,
    /// Display form of every name, for suggestions: (folded, shown, province).
    shown: Vec<(String, String, ProvinceId)>,
    /// Houses by folded id, name, adjective and alias (the first house wins a name).
    houses: FoldMap<HouseId>,
    /// Folded names of the variant's dragons (starting units and houses' lists).
    dragons: FoldMap<()>,
    /// Whether the variant has dragons at all (on the board or buildable).
    has_dragons: bool,
}

/// Marks every word-prefix of a folded name (`north atlantic` of `north atlantic ocean`).
fn mark_prefixes<V: Default>(map: &mut FoldMap<V>, folded: &str, mut mark: impl FnMut(&mut V)) {
    for (k, _) in folded.match_indices(' ') {
        if let Some(prefix) = folded.get(..k) {
            mark(map.entry(prefix.into()).or_default());
        }
    }
}

/// How alike a name must be to a misspelt one to be suggested for it.
const NEAR: f64 = 0.75;

/// How alike a misspelt word is to a known name, from 0 to 1, when at least `threshold`
/// (none: less). The one scorer of every "did you mean" of corbeau (provinces, houses,
/// order verbs, games, days, time zones; each place chooses its threshold): the better
/// of Jaro-Winkler, kind to a shared start (`Winterfel`), and the normalised
/// Damerau-Levenshtein similarity, kind to a swapped or missing letter anywhere
/// (`Wintrefell`). Compare folded words (see [`fold`]) where case and accents must not
/// count.
pub fn likeness(wanted: &str, known: &str, threshold: f64) -> Option<f64> {
    Wanted::new(wanted).likeness(known, threshold)
}

/// A misspelt word compared with many names: its letters counted once.
struct Wanted<'a> {
    text: &'a str,
    length: usize,
    /// How many times each letter occurs; letters beyond ASCII share the last count (an
    /// overestimate of what two words share, so the bounds it gives stay bounds).
    letters: [u16; 129],
}

impl<'a> Wanted<'a> {
    fn new(text: &'a str) -> Self {
        let mut letters = [0u16; 129];
        let mut length = 0;
        for c in text.chars() {
            length += 1;
            let slot = &mut letters[letter(c)];
            *slot = slot.saturating_add(1);
        }
        Wanted {
            text,
            length,
            letters,
        }
    }

    /// See [`likeness`].
    fn likeness(&self, known: &str, threshold: f64) -> Option<f64> {
        // A hostile mail is full of lines that are no order, each word compared with every
        // name of the map (`order::parse`): the letters the two words share bound both
        // scores, and most pairs stop there, before either is computed.
        let mut left = self.letters;
        let (mut length, mut shared) = (0usize, 0usize);
        for c in known.chars() {
            length += 1;
            let slot = &mut left[letter(c)];
            if *slot > 0 {
                *slot -= 1;
                shared += 1;
            }
        }
        let (a, b, shared) = (self.length as f64, length as f64, shared as f64);
        let longest = a.max(b);
        if longest == 0.0 {
            return (threshold <= 1.0).then_some(1.0);
        }
        // Jaro counts matching letters, at most the shared ones; Winkler's bonus for a
        // common start (at most 4 letters, 0.1 each) applies above 0.7 only.
        let jaro_bound = if shared == 0.0 {
            0.0
        } else {
            (shared / a + shared / b + 1.0) / 3.0
        };
        let winkler_bound = if jaro_bound > 0.7 {
            jaro_bound + 0.4 * (1.0 - jaro_bound)
        } else {
            jaro_bound
        };
        // Every letter of the longer word that the shorter lacks costs an edit.
        let edit_bound = shared / longest;
        if winkler_bound < threshold && edit_bound < threshold {
            return None;
        }
        let jaro = (winkler_bound >= threshold)
            .then(|| {
                jaro_winkler::normalized_similarity_with_args(
                    self.text.chars(),
                    known.chars(),
                    &jaro_winkler::Args::default().score_cutoff(threshold),
                )
            })
            .flatten();
        if edit_bound < threshold || jaro.is_some_and(|j| edit_bound <= j) {
            return jaro;
        }
        let edit = damerau_levenshtein::normalized_similarity_with_args(
            self.text.chars(),
            known.chars(),
            &damerau_levenshtein::Args::default().score_cutoff(threshold),
        );
        match (jaro, edit) {
            (Some(j), Some(e)) => Some(j.max(e)),
            (j, e) => j.or(e),
        }
    }
}

/// The count of [`Wanted::letters`] a character falls in.
fn letter(c: char) -> usize {
    usize::try_from(u32::from(c)).map_or(128, |i| i.min(128))
}

/// The candidate most alike to `wanted` (by [`likeness`], at least `threshold`); the
/// first of equals.
pub fn nearest_of<'a, T>(
    wanted: &str,
    candidates: impl IntoIterator<Item = (&'a str, T)>,
    threshold: f64,
) -> Option<T> {
    let wanted = Wanted::new(wanted);
    let mut best: Option<(f64, T)> = None;
    for (name, value) in candidates {
        if let Some(score) = wanted.likeness(name, threshold)
            && best.as_ref().is_none_or(|(s, _)| score > *s)
        {
            best = Some((score, value));
        }
    }
    best.map(|(_, value)| value)
}

impl NameIndex {
    /// Adds a name of a province; returns the province already holding it, if any.
    pub fn add_province_name(&mut self, name: &str, id: ProvinceId) -> Option<ProvinceId> {
        let folded = fold(name);
        if let Some(other) = self.provinces.get(folded.as_str()).and_then(|e| e.found) {
            return (other != id).then_some(other);
        }
        self.provinces
            .entry(folded.as_str().into())
            .or_default()
            .found = Some(id);
        mark_prefixes(&mut self.provinces, &folded, |e| e.longer = true);
        // The order reader takes a bracket after a name for a coast (`Win (co)`) unless the
        // name goes on through it: it looks such names up with their brackets as blanks.
        if folded.contains(['(', ')']) {
            let flat = folded
                .split([' ', '(', ')'])
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let entry = self.provinces.entry(flat.as_str().into()).or_default();
            if entry.found.is_none() {
                entry.found = Some(id);
                mark_prefixes(&mut self.provinces, &flat, |e| e.longer = true);
            }
        }
        self.shown.push((folded, name.to_string(), id));
        None
    }

    /// Adds a name of a coast of a province; returns false if it names another coast already.
    pub fn add_coast_name(&mut self, province: ProvinceId, name: &str, region: RegionId) -> bool {
        let folded = fold(name);
        let entry = self.coasts.entry(folded.as_str().into()).or_default();
        if let Some(&(_, other)) = entry.coasts.iter().find(|(p, _)| *p == province) {
            return other == region;
        }
        entry.coasts.push((province, region));
        mark_prefixes(&mut self.coasts, &folded, |e| e.longer = true);
        true
    }

    /// Indexes the houses' names and the dragons' names (once the variant is built).
    pub fn add_houses_and_dragons(&mut self, houses: &[super::House], units: &[StartingUnit]) {
        for (index, h) in houses.iter().enumerate() {
            let Ok(id) = u8::try_from(index) else {
                break;
            };
            let names = [&h.id, &h.name, &h.adjective]
                .into_iter()
                .chain(h.names.iter().map(|(_, n)| n))
                .chain(&h.aliases);
            for name in names {
                self.houses.entry(fold(name).into()).or_insert(HouseId(id));
            }
            for name in &h.dragon_names {
                self.dragons.insert(fold(name).into(), ());
            }
            self.has_dragons |= h.builds.contains(&UnitKind::Dragon);
        }
        for u in units {
            if let Some(name) = &u.name {
                self.dragons.insert(fold(name).into(), ());
            }
            self.has_dragons |= u.kind == UnitKind::Dragon;
        }
        self.has_dragons |= !self.dragons.is_empty();
    }

    /// The province with this name (id, name or alias, any case, with or without accents).
    pub fn province(&self, name: &str) -> Option<ProvinceId> {
        self.province_folded(&fold(name)).found
    }

    /// What a folded run of words is among the provinces' names.
    pub fn province_folded(&self, folded: &str) -> NameEntry<ProvinceId> {
        self.provinces.get(folded).copied().unwrap_or_default()
    }

    /// The coast of `province` with this name (`nc`, `north`, `nord`, `ouest`…).
    pub fn coast(&self, province: ProvinceId, name: &str) -> Option<RegionId> {
        self.coast_folded(province, &fold(name)).found
    }

    /// What a folded run of words is among the coast names of `province` (a prefix of a
    /// longer coast name of any province counts as `longer`).
    pub fn coast_folded(&self, province: ProvinceId, folded: &str) -> NameEntry<RegionId> {
        match self.coasts.get(folded) {
            Some(entry) => NameEntry {
                found: entry
                    .coasts
                    .iter()
                    .find(|(p, _)| *p == province)
                    .map(|&(_, r)| r),
                longer: entry.longer,
            },
            None => NameEntry::default(),
        }
    }

    /// The house with this folded id, name, adjective or alias.
    pub fn house_folded(&self, folded: &str) -> Option<HouseId> {
        self.houses.get(folded).copied()
    }

    /// Whether this folded word names a dragon of the variant.
    pub fn is_dragon_folded(&self, folded: &str) -> bool {
        self.dragons.contains_key(folded)
    }

    /// Whether the variant has dragons at all (on the board or buildable).
    pub fn has_dragons(&self) -> bool {
        self.has_dragons
    }

    /// Up to three names nearest to a misspelt one, best first, as written in the variant:
    /// those at least [`NEAR`] alike (Jaro-Winkler or edit distance).
    pub fn nearest(&self, name: &str) -> Vec<(String, ProvinceId)> {
        let wanted = fold(name);
        if wanted.is_empty() {
            return Vec::new();
        }
        let wanted = Wanted::new(&wanted);
        let mut scored: Vec<(f64, &str, ProvinceId)> = self
            .shown
            .iter()
            .filter_map(|(folded, shown, id)| {
                wanted
                    .likeness(folded, NEAR)
                    .map(|score| (score, shown.as_str(), *id))
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut out: Vec<(String, ProvinceId)> = Vec::new();
        for (_, shown, id) in scored {
            if out.iter().all(|(_, seen)| *seen != id) {
                out.push((shown.to_string(), id));
            }
            if out.len() == 3 {
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_ignores_case_accents_and_punctuation() {
        assert_eq!(fold("Port-Réal"), "port real");
        assert_eq!(fold("  PIERREMOUËTIER "), "pierremouetier");
        assert_eq!(
            fold("Presqu'île de Claquepince"),
            "presqu ile de claquepince"
        );
        assert_eq!(fold("Goëville"), "goeville");
        assert_eq!(fold("Cœur"), "coeur");
    }

    /// The same score, but for the last bits of a division done in another order.
    #[track_caller]
    fn assert_alike(got: Option<f64>, expected: Option<f64>, what: &str) {
        match (got, expected) {
            (Some(g), Some(e)) => assert!((g - e).abs() < 1e-12, "{what}: {g} against {e}"),
            _ => assert_eq!(got, expected, "{what}"),
        }
    }

    proptest::proptest! {
        /// The fast scorer gives the textbook score (strsim's): the same names are suggested,
        /// in the same order. Away from the threshold, so that a last bit cannot count.
        #[test]
        fn likeness_agrees_with_the_textbook_scorers(
            a in "[a-eé ]{0,12}",
            b in "[a-eé ]{0,12}",
            threshold in proptest::sample::select(vec![0.0, 0.5, 0.75, 0.9]),
        ) {
            let full = strsim::jaro_winkler(&a, &b).max(strsim::normalized_damerau_levenshtein(&a, &b));
            proptest::prop_assume!((full - threshold).abs() > 1e-9);
            assert_alike(likeness(&a, &b, threshold), (full >= threshold).then_some(full), &format!("{a:?} {b:?} {threshold}"));
        }
    }

    #[test]
    fn likeness_is_the_better_of_jaro_winkler_and_edit_distance() {
        let pairs = [
            ("winterfel", "winterfell"),
            ("wintrefell", "winterfell"),
            ("vne", "ven"),
            ("vne", "vendredi"),
            ("xyz", "roc"),
            ("europe/pariss", "europe/paris"),
            ("a", "averyveryverylongname"),
            ("", "roc"),
        ];
        for (a, b) in pairs {
            let full = strsim::jaro_winkler(a, b).max(strsim::normalized_damerau_levenshtein(a, b));
            for threshold in [0.0, 0.6, 0.75, 0.9] {
                // The shortcut that skips the edit distance never changes the answer.
                let expected = (full >= threshold).then_some(full);
                assert_alike(
                    likeness(a, b, threshold),
                    expected,
                    &format!("{a} {b} {threshold}"),
                );
            }
        }
        assert!(likeness("wintrefell", "winterfell", 0.75).is_some());
        assert_eq!(likeness("", "", 0.75), Some(1.0));
        assert_eq!(likeness("xyz", "roc", 0.5), None);
    }

    #[test]
    fn nearest_of_takes_the_best_and_the_first_of_equals() {
        let names = [("stark", 1), ("stork", 2), ("lannister", 3)];
        assert_eq!(nearest_of("strak", names, 0.8), Some(1));
        assert_eq!(nearest_of("lanister", names, 0.8), Some(3));
        assert_eq!(nearest_of("tyrell", names, 0.8), None);
        let equals = [("abc", 1), ("abc", 2)];
        assert_eq!(nearest_of("abd", equals, 0.5), Some(1));
    }

    #[test]
    fn nearest_suggests_the_close_name() {
        let mut index = NameIndex::default();
        index.add_province_name("Sombreval", ProvinceId(0));
        index.add_province_name("Som", ProvinceId(0));
        index.add_province_name("Néra", ProvinceId(1));
        let near = index.nearest("Sombrevale");
        assert_eq!(near.first().map(|n| n.1), Some(ProvinceId(0)));
    }
}
