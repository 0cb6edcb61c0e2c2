//! Province and coast names as players write them: ids, full names and aliases, compared
//! without case or accents, with a suggestion of the nearest names for a misspelling.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;

use super::variant::{ProvinceId, RegionId};

/// Lower case, accents removed, hyphens/apostrophes/underscores as spaces, spaces collapsed:
/// `Port-Réal` and `port real` are the same name.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for c in s.nfd() {
        if unicode_normalization::char::is_combining_mark(c) {
            continue;
        }
        if c.is_whitespace() || matches!(c, '-' | '\'' | '’' | '_' | '.') {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        out.extend(c.to_lowercase());
    }
    // Ligatures that NFD keeps whole.
    if out.contains(['œ', 'æ']) {
        out = out.replace('œ', "oe").replace('æ', "ae");
    }
    out
}

/// Every name of every province and coast, folded.
#[derive(Debug, Clone, Default)]
pub struct NameIndex {
    provinces: HashMap<String, ProvinceId>,
    /// Coast names per province: folded coast name → coast region.
    coasts: HashMap<(ProvinceId, String), RegionId>,
    /// Display form of every name, for suggestions: (folded, shown, province).
    shown: Vec<(String, String, ProvinceId)>,
}

/// How alike a name must be to a misspelt one to be suggested for it.
const NEAR: f64 = 0.75;

impl NameIndex {
    /// Adds a name of a province; returns the province already holding it, if any.
    pub fn add_province_name(&mut self, name: &str, id: ProvinceId) -> Option<ProvinceId> {
        let folded = fold(name);
        if let Some(&other) = self.provinces.get(&folded) {
            return (other != id).then_some(other);
        }
        self.provinces.insert(folded.clone(), id);
        self.shown.push((folded, name.to_string(), id));
        None
    }

    /// Adds a name of a coast of a province; returns false if it names another coast already.
    pub fn add_coast_name(&mut self, province: ProvinceId, name: &str, region: RegionId) -> bool {
        match self.coasts.get(&(province, fold(name))) {
            Some(&other) => other == region,
            None => {
                self.coasts.insert((province, fold(name)), region);
                true
            }
        }
    }

    /// The province with this name (id, name or alias, any case, with or without accents).
    pub fn province(&self, name: &str) -> Option<ProvinceId> {
        self.provinces.get(&fold(name)).copied()
    }

    /// The coast of `province` with this name (`nc`, `north`, `nord`, `ouest`…).
    pub fn coast(&self, province: ProvinceId, name: &str) -> Option<RegionId> {
        self.coasts.get(&(province, fold(name))).copied()
    }

    /// Up to three names nearest to a misspelt one, best first, as written in the variant:
    /// those at least [`NEAR`] alike (Jaro-Winkler or edit distance).
    pub fn nearest(&self, name: &str) -> Vec<(String, ProvinceId)> {
        let wanted = fold(name);
        if wanted.is_empty() {
            return Vec::new();
        }
        let wanted_len = wanted.chars().count();
        let mut scored: Vec<(f64, &str, ProvinceId)> = self
            .shown
            .iter()
            .map(|(folded, shown, id)| {
                let jaro = strsim::jaro_winkler(&wanted, folded);
                // The edit distance is at least the difference of lengths: when that
                // alone keeps it under the threshold, it is not computed (it is most of
                // the cost of a line that is no order, and hostile mail is full of them).
                let len = folded.chars().count();
                let longest = wanted_len.max(len).max(1) as f64;
                let best_edit = 1.0 - wanted_len.abs_diff(len) as f64 / longest;
                let score = if best_edit < NEAR {
                    jaro
                } else {
                    jaro.max(strsim::normalized_damerau_levenshtein(&wanted, folded))
                };
                (score, shown.as_str(), *id)
            })
            .filter(|(score, _, _)| *score >= NEAR)
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
