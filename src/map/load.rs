//! Reading a variant from its TOML file and checking every fact in it. The format is
//! described in `docs/variant-format.md`; every problem found is reported with the file and
//! the key, all at once, so that a map maker fixes them in one pass.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::Path;

use super::pin::VariantSource;
use crate::file::{ReadError, read_text};
use crate::lang::Lang;

use serde::Deserialize;

use super::names::NameIndex;
use super::variant::{
    Border, BorderKind, GarrisonStart, House, HouseId, Owner, Province, ProvinceId, ProvinceKind,
    Region, RegionId, Setup, StartingUnit, UnitKind, Variant, Victory, Weather, WeatherState,
};

/// The variants shipped inside the binary, so that corbeau runs with no file around.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("westeros", include_str!("../../games/westeros.toml")),
    ("classique", include_str!("../../games/classique.toml")),
    ("tempete", include_str!("../../games/tempete.toml")),
];

/// Why a variant file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    #[error("{file}: cannot read the file: {reason}")]
    Unreadable { file: String, reason: String },
    /// Larger than a file may be (`crate::file`).
    #[error("{0}")]
    TooLarge(ReadError),
    #[error("{file}: not valid TOML: {reason}")]
    Syntax { file: String, reason: String },
    #[error("{file}: {} problem(s):\n{}", problems.len(), list(problems))]
    Invalid {
        file: String,
        problems: Vec<MapProblem>,
    },
    #[error(
        "unknown variant `{name}` (the built-in variants are: {known}); give a path to a .toml file instead"
    )]
    UnknownVariant { name: String, known: String },
}

impl MapError {
    /// The error in `lang` where it has words of its own (a file too large), else as
    /// [`fmt::Display`] says it: a variant's problems are the map maker's, in English.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            MapError::TooLarge(e) => e.message(lang),
            other => other.to_string(),
        }
    }
}

impl From<ReadError> for MapError {
    fn from(e: ReadError) -> MapError {
        match e {
            ReadError::Unreadable { file, reason } => MapError::Unreadable { file, reason },
            too_large @ ReadError::TooLarge { .. } => MapError::TooLarge(too_large),
        }
    }
}

/// One wrong fact in a variant file: where (`[province win] fleet`) and what.
#[derive(Debug, Clone, PartialEq)]
pub struct MapProblem {
    pub key: String,
    pub message: String,
}

impl fmt::Display for MapProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

fn list(problems: &[MapProblem]) -> String {
    problems
        .iter()
        .map(|p| format!("  {p}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What an id of a province, coast or house may be: one word, as orders and the stored
/// positions read it (`win/est`, `stark: A win`), where a space, `:`, `/`, `#` or `-`
/// would end it or mean something else. Names have no such rule.
fn is_id(id: &str) -> bool {
    !id.is_empty() && id.chars().all(|c| c.is_alphanumeric() && !c.is_uppercase())
}

const ID_RULE: &str = "the id must be one word of lower-case letters and digits, no space nor punctuation (e.g. `win`)";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileVariant {
    variant: FileHeader,
    victory: FileVictory,
    #[serde(rename = "house", default)]
    houses: Vec<FileHouse>,
    #[serde(rename = "province", default)]
    provinces: Vec<FileProvince>,
    #[serde(rename = "unit", default)]
    units: Vec<FileUnit>,
    #[serde(rename = "setup", default)]
    setups: Vec<FileSetup>,
    /// Where things are on the picture (`docs/variant-format.md`, `[drawing]`); optional.
    #[serde(default)]
    drawing: Option<super::drawing::FileDrawing>,
    /// Borders of a kind of their own: arrows and fords.
    #[serde(rename = "border", default)]
    borders: Vec<FileBorder>,
    #[serde(default)]
    weather: Option<FileWeather>,
    #[serde(rename = "garrison", default)]
    garrisons: Vec<FileGarrison>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileBorder {
    between: Vec<String>,
    kind: BorderKind,
    #[serde(default)]
    house: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileWeather {
    #[serde(default)]
    start: usize,
    track: Vec<String>,
    #[serde(default)]
    step_percent: u8,
    #[serde(rename = "state", default)]
    states: Vec<FileWeatherState>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum FordsAre {
    Open,
    Closed,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileWeatherState {
    id: String,
    name: String,
    #[serde(default)]
    names: BTreeMap<Lang, String>,
    fords: FordsAre,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileGarrison {
    at: String,
    house: String,
    strength: u8,
    #[serde(default)]
    controls: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileNeutral {
    kind: UnitKind,
    at: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileHeader {
    id: String,
    name: String,
    /// The variant's name in other languages: `names = { en = "Diplomacy (classic map)" }`.
    #[serde(default)]
    names: BTreeMap<Lang, String>,
    first_year: i32,
    #[serde(default)]
    #[allow(dead_code)] // documentation for the reader of the file
    description: Option<String>,
    /// No fleet anywhere: no sea, no fleet built or starting.
    #[serde(default)]
    armies_only: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileVictory {
    #[serde(default)]
    centres: Option<u16>,
    #[serde(default)]
    points: Option<u16>,
    #[serde(default)]
    last_year: Option<i32>,
    #[serde(default)]
    tie_break: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileHouse {
    id: String,
    name: String,
    /// The house's name in other languages: `names = { en = "England" }`.
    #[serde(default)]
    names: BTreeMap<Lang, String>,
    #[serde(default)]
    adjective: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    colour: Option<String>,
    #[serde(default)]
    home: Vec<String>,
    /// None: armies and fleets (armies only in an army-only variant).
    #[serde(default)]
    builds: Option<Vec<UnitKind>>,
    #[serde(default)]
    dragon_names: Vec<String>,
    /// The one-letter code of njudge's shorthand (`SIGNON Fgame …`, `PRESS TO FG`).
    #[serde(default)]
    letter: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileProvince {
    id: String,
    name: String,
    kind: ProvinceKind,
    /// The name in other languages: `names = { en = "Castle Black" }`.
    #[serde(default)]
    names: BTreeMap<Lang, String>,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    supply: bool,
    /// Claim points of this centre, when the variant wins by points.
    #[serde(default)]
    claim: Option<u16>,
    /// A build site for armies that is no supply centre.
    #[serde(default)]
    town: bool,
    #[serde(default)]
    army: Vec<String>,
    #[serde(default)]
    fleet: Vec<String>,
    /// Borders only a dragon may cross (over mountains, say); every army or fleet border is
    /// a dragon border already.
    #[serde(default)]
    dragon: Vec<String>,
    #[serde(default)]
    coasts: Vec<FileCoast>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCoast {
    id: String,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    fleet: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileUnit {
    house: String,
    kind: UnitKind,
    at: String,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSetup {
    players: u8,
    houses: Vec<String>,
    #[serde(default)]
    victory_centres: Option<u16>,
    #[serde(default)]
    closed: Vec<String>,
    #[serde(default)]
    neutral: Vec<FileNeutral>,
}

/// Loads a built-in variant by name, or a variant file by path.
pub fn load_variant(name_or_path: &str) -> Result<Variant, MapError> {
    let source = variant_source(name_or_path)?;
    parse_variant(&source.file, &source.text)
}

/// The text of a built-in variant (by name) or of a variant file (by path, read now,
/// relative to the current directory), not yet checked.
pub fn variant_source(name_or_path: &str) -> Result<VariantSource, MapError> {
    if let Some((name, text)) = EMBEDDED.iter().find(|(n, _)| *n == name_or_path) {
        return Ok(VariantSource {
            file: format!("games/{name}.toml"),
            text: (*text).to_string(),
        });
    }
    let path = Path::new(name_or_path);
    if path.exists() || name_or_path.ends_with(".toml") {
        let file = path.display().to_string();
        let text = read_text(path)?;
        return Ok(VariantSource { file, text });
    }
    Err(MapError::UnknownVariant {
        name: name_or_path.to_string(),
        known: EMBEDDED
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// Reads and checks a variant file.
pub fn load_variant_file(path: &Path) -> Result<Variant, MapError> {
    let file = path.display().to_string();
    let text = read_text(path)?;
    parse_variant(&file, &text)
}

/// Parses and checks variant text; `file` names it in messages.
pub fn parse_variant(file: &str, text: &str) -> Result<Variant, MapError> {
    let raw: FileVariant = toml::from_str(text).map_err(|e| MapError::Syntax {
        file: file.to_string(),
        reason: e.to_string().trim_end().to_string(),
    })?;
    let mut builder = Builder::default();
    let variant = builder.build(raw);
    if builder.problems.is_empty() {
        Ok(variant)
    } else {
        Err(MapError::Invalid {
            file: file.to_string(),
            problems: builder.problems,
        })
    }
}

#[derive(Default)]
struct Builder {
    problems: Vec<MapProblem>,
    /// Borders for one house only, by index in `Variant::borders`, with the key and the
    /// house's id as written: resolved once the houses are read.
    border_houses: Vec<(usize, String, String)>,
}

impl Builder {
    fn problem(&mut self, key: impl Into<String>, message: impl Into<String>) {
        self.problems.push(MapProblem {
            key: key.into(),
            message: message.into(),
        });
    }

    fn build(&mut self, raw: FileVariant) -> Variant {
        let mut names = NameIndex::default();
        let (provinces, regions) = self.provinces(&raw.provinces, &mut names);
        let supply_count = u16::try_from(provinces.iter().filter(|p| p.supply).count());
        let mut variant = Variant {
            id: raw.variant.id.clone(),
            name: raw.variant.name.clone(),
            translations: raw
                .variant
                .names
                .iter()
                .map(|(l, n)| (*l, n.clone()))
                .collect(),
            first_year: raw.variant.first_year,
            army_adjacency: vec![Vec::new(); provinces.len()],
            fleet_adjacency: vec![Vec::new(); regions.len()],
            dragon_adjacency: vec![Vec::new(); provinces.len()],
            provinces,
            regions,
            houses: Vec::new(),
            starting_units: Vec::new(),
            setups: Vec::new(),
            victory: Victory {
                // Without `centres`, a variant won by points: all its centres stand for the
                // count, which the points test replaces.
                centres: raw
                    .victory
                    .centres
                    .unwrap_or_else(|| supply_count.unwrap_or(u16::MAX)),
                last_year: raw.victory.last_year,
                tie_break: raw.victory.tie_break.clone(),
                points: raw.victory.points,
            },
            names,
            drawing: None,
            borders: Vec::new(),
            weather: None,
            garrisons: Vec::new(),
            armies_only: raw.variant.armies_only,
        };
        if raw.victory.centres.is_none() && raw.victory.points.is_none() {
            self.problem(
                "[victory] centres",
                "missing: give `centres` (or `points`, for a victory by claim points)",
            );
        }
        if raw.variant.id.trim().is_empty() {
            self.problem("[variant] id", "must not be empty");
        } else if !raw
            .variant
            .id
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        {
            // Written on a line of every stored position (`variant westeros`), where a
            // `#` would start a comment.
            self.problem(
                "[variant] id",
                "only letters, digits, `-` and `_` (e.g. `westeros`)",
            );
        }
        self.adjacency(&raw.provinces, &raw.borders, &mut variant);
        self.towns_and_claims(&raw.provinces, &mut variant);
        self.houses(&raw.houses, &mut variant);
        for (index, key, name) in std::mem::take(&mut self.border_houses) {
            match variant.houses.iter().position(|h| h.id == name) {
                Some(i) => variant.borders[index].house = Some(HouseId(i as u8)),
                None => self.problem(key, format!("unknown house `{name}`")),
            }
        }
        self.units(&raw.units, &mut variant);
        self.armies_only(&raw, &variant);
        self.weather(raw.weather.as_ref(), &mut variant);
        self.garrisons(&raw.garrisons, &mut variant);
        // Houses' and dragons' names, folded once for every look-up to come.
        variant
            .names
            .add_houses_and_dragons(&variant.houses, &variant.starting_units);
        self.setups(&raw.setups, &mut variant);
        self.victory(&variant);
        // The picture is checked against sound borders only: its errors would repeat theirs.
        if let Some(drawing) = raw.drawing
            && self.problems.is_empty()
        {
            match super::drawing::build(drawing, &variant) {
                Ok(drawing) => variant.drawing = Some(drawing),
                Err(problems) => self.problems.extend(problems),
            }
        }
        variant
    }

    fn provinces(
        &mut self,
        raw: &[FileProvince],
        names: &mut NameIndex,
    ) -> (Vec<Province>, Vec<Region>) {
        let mut provinces = Vec::with_capacity(raw.len());
        let mut regions = Vec::with_capacity(raw.len());
        if raw.len() >= usize::from(u16::MAX) {
            self.problem("[province]", "too many provinces");
            return (provinces, regions);
        }
        for (index, p) in raw.iter().enumerate() {
            let id = ProvinceId(index as u16);
            let key = format!("[province {}]", p.id);
            if !is_id(&p.id) {
                self.problem(&key, ID_RULE);
            }
            // Each name with the key that locates it: a translated name (`names.en`) is
            // looked up in orders like any other, so it may not name two provinces either.
            let translated = p
                .names
                .iter()
                .map(|(lang, name)| (name, format!("{key} names.{lang}")));
            for (name, at) in std::iter::once((&p.id, key.clone()))
                .chain(std::iter::once((&p.name, format!("{key} name"))))
                .chain(translated)
                .chain(p.aliases.iter().map(|a| (a, format!("{key} aliases"))))
            {
                if let Some(other) = names.add_province_name(name, id) {
                    let other = &raw[usize::from(other.0)].id;
                    self.problem(
                        at,
                        format!("the name `{name}` is already a name of province `{other}`"),
                    );
                }
            }
            let region = RegionId(regions.len() as u16);
            regions.push(Region {
                province: id,
                coast: None,
            });
            let mut coasts = Vec::new();
            if !p.coasts.is_empty() && p.kind != ProvinceKind::Coast {
                self.problem(
                    format!("{key} coasts"),
                    "only a coastal province (kind = \"coast\") can have coasts",
                );
            }
            if p.coasts.len() == 1 {
                self.problem(
                    format!("{key} coasts"),
                    "a province with one coast needs no `coasts`: list its fleet neighbours in `fleet`",
                );
            }
            for c in &p.coasts {
                if !is_id(&c.id) {
                    self.problem(format!("{key} coasts {}", c.id), ID_RULE);
                }
                let coast = RegionId(regions.len() as u16);
                regions.push(Region {
                    province: id,
                    coast: Some(c.id.clone()),
                });
                for name in std::iter::once(&c.id).chain(&c.aliases) {
                    if !names.add_coast_name(id, name, coast) {
                        self.problem(
                            format!("{key} coasts {}", c.id),
                            format!("the coast name `{name}` names two coasts of this province"),
                        );
                    }
                }
                coasts.push(coast);
            }
            provinces.push(Province {
                id: p.id.clone(),
                name: p.name.clone(),
                names: p.names.iter().map(|(l, n)| (*l, n.clone())).collect(),
                kind: p.kind,
                supply: p.supply,
                region,
                coasts,
                home_of: None,
                claim: 0,
                town: p.town,
            });
        }
        if regions.len() >= usize::from(u16::MAX) {
            self.problem("[province]", "too many coasts");
        }
        (provinces, regions)
    }

    /// Resolves `win` or `spa/nc` to a region, by canonical ids only: the file is exact.
    fn region_ref(&self, variant: &Variant, text: &str) -> Option<RegionId> {
        let (province, coast) = match text.split_once('/') {
            Some((p, c)) => (p, Some(c)),
            None => (text, None),
        };
        let p = variant.province_by_id(province)?;
        match coast {
            None => Some(variant.province(p).region),
            Some(c) => variant
                .province(p)
                .coasts
                .iter()
                .copied()
                .find(|&r| variant.region(r).coast.as_deref() == Some(c)),
        }
    }

    fn adjacency(&mut self, raw: &[FileProvince], borders: &[FileBorder], variant: &mut Variant) {
        let mut army: BTreeMap<ProvinceId, Vec<ProvinceId>> = BTreeMap::new();
        let mut fleet: BTreeMap<RegionId, Vec<RegionId>> = BTreeMap::new();
        let mut dragon_extra: BTreeMap<ProvinceId, Vec<ProvinceId>> = BTreeMap::new();
        for (index, p) in raw.iter().enumerate() {
            let from = ProvinceId(index as u16);
            let key = format!("[province {}]", p.id);
            for to in &p.army {
                let Some(target) = variant.province_by_id(to) else {
                    self.problem(format!("{key} army"), format!("unknown province `{to}`"));
                    continue;
                };
                if p.kind == ProvinceKind::Sea || variant.province(target).kind == ProvinceKind::Sea
                {
                    self.problem(
                        format!("{key} army"),
                        format!("`{to}`: an army border cannot touch a sea province"),
                    );
                }
                push_unique(army.entry(from).or_default(), target);
            }
            for to in &p.dragon {
                match variant.province_by_id(to) {
                    Some(target) => push_unique(dragon_extra.entry(from).or_default(), target),
                    None => {
                        self.problem(format!("{key} dragon"), format!("unknown province `{to}`"))
                    }
                }
            }
            let own = variant.province(from).region;
            if !p.coasts.is_empty() && !p.fleet.is_empty() {
                self.problem(
                    format!("{key} fleet"),
                    "a province with coasts lists fleet neighbours per coast, not here",
                );
            }
            let mut lists: Vec<(RegionId, String, &Vec<String>)> =
                vec![(own, format!("{key} fleet"), &p.fleet)];
            for (c, &coast) in p.coasts.iter().zip(&variant.province(from).coasts) {
                lists.push((coast, format!("{key} coasts {} fleet", c.id), &c.fleet));
            }
            for (region, list_key, list) in lists {
                if !list.is_empty() && p.kind == ProvinceKind::Land {
                    self.problem(
                        &list_key,
                        "an inland province has no fleet border (make it kind = \"coast\")",
                    );
                    continue;
                }
                for to in list {
                    let Some(target) = self.region_ref(variant, to) else {
                        self.problem(&list_key, format!("unknown province or coast `{to}`"));
                        continue;
                    };
                    let tp = variant.province(variant.province_of(target));
                    if tp.kind == ProvinceKind::Land {
                        self.problem(
                            &list_key,
                            format!(
                                "`{to}` is inland: a fleet border needs coast or sea on both sides"
                            ),
                        );
                        continue;
                    }
                    if !tp.coasts.is_empty() && variant.region(target).coast.is_none() {
                        self.problem(
                            &list_key,
                            format!(
                                "`{to}` has several coasts: name one (`{to}/{}`)",
                                variant.region(tp.coasts[0]).coast.as_deref().unwrap_or("?")
                            ),
                        );
                        continue;
                    }
                    push_unique(fleet.entry(region).or_default(), target);
                }
            }
        }
        for (&from, tos) in &army {
            for &to in tos {
                if from == to {
                    self.problem(
                        format!("[province {}] army", variant.province(from).id),
                        "a province cannot border itself",
                    );
                } else if !army.get(&to).is_some_and(|back| back.contains(&from)) {
                    self.problem(
                        format!("[province {}] army", variant.province(to).id),
                        format!(
                            "asymmetric adjacency: `{}` lists `{}` but not the other way round",
                            variant.province(from).id,
                            variant.province(to).id
                        ),
                    );
                }
            }
        }
        for (&from, tos) in &fleet {
            for &to in tos {
                if variant.province_of(from) == variant.province_of(to) {
                    self.problem(
                        format!("[province {}] fleet", variant.region_label(from)),
                        "a province cannot border itself",
                    );
                } else if !fleet.get(&to).is_some_and(|back| back.contains(&from)) {
                    self.problem(
                        format!(
                            "[province {}] fleet",
                            variant.province(variant.province_of(to)).id
                        ),
                        format!(
                            "asymmetric adjacency: `{}` lists `{}` but not the other way round",
                            variant.region_label(from),
                            variant.region_label(to)
                        ),
                    );
                }
            }
        }
        for (&from, tos) in &dragon_extra {
            for &to in tos {
                if !dragon_extra
                    .get(&to)
                    .is_some_and(|back| back.contains(&from))
                {
                    self.problem(
                        format!("[province {}] dragon", variant.province(to).id),
                        format!(
                            "asymmetric adjacency: `{}` lists `{}` but not the other way round",
                            variant.province(from).id,
                            variant.province(to).id
                        ),
                    );
                }
            }
        }
        for (from, tos) in army {
            variant.army_adjacency[usize::from(from.0)] = tos;
        }
        for (from, tos) in fleet {
            variant.fleet_adjacency[usize::from(from.0)] = tos;
        }
        self.borders(borders, variant);
        // A dragon crosses every border: land, coastline and open water alike.
        for p in variant.province_ids().collect::<Vec<_>>() {
            let mut all = variant.army_adjacency[usize::from(p.0)].clone();
            let own = variant.province(p);
            for region in std::iter::once(own.region).chain(own.coasts.iter().copied()) {
                for &to in &variant.fleet_adjacency[usize::from(region.0)] {
                    push_unique(&mut all, variant.province_of(to));
                }
            }
            for &to in dragon_extra.get(&p).into_iter().flatten() {
                push_unique(&mut all, to);
            }
            // A dragon flies over arrows and fords alike, whatever the weather.
            for border in &variant.borders {
                if let Some(to) = border.from_to(p) {
                    push_unique(&mut all, to);
                }
            }
            all.sort();
            variant.dragon_adjacency[usize::from(p.0)] = all;
        }
        for p in variant.province_ids() {
            let province = variant.province(p);
            if province.kind == ProvinceKind::Coast {
                let has_fleet_border = std::iter::once(province.region)
                    .chain(province.coasts.iter().copied())
                    .any(|r| !variant.fleet_adjacency[usize::from(r.0)].is_empty());
                if !has_fleet_border {
                    self.problem(
                        format!("[province {}] fleet", province.id),
                        "a coastal province needs at least one fleet border (or kind = \"land\")",
                    );
                }
            }
            if variant.dragon_adjacency[usize::from(p.0)].is_empty() {
                self.problem(
                    format!("[province {}]", province.id),
                    "this province borders nothing",
                );
            }
        }
    }

    fn houses(&mut self, raw: &[FileHouse], variant: &mut Variant) {
        let mut seen = HashSet::new();
        let mut letters = HashSet::new();
        if raw.is_empty() {
            self.problem("[house]", "a variant needs at least one house");
        }
        for (index, h) in raw.iter().enumerate() {
            let key = format!("[house {}]", h.id);
            let house = HouseId(index as u8);
            if !seen.insert(super::names::fold(&h.id)) || h.id == "neutral" || h.id == "neutre" {
                self.problem(
                    &key,
                    "house ids must be unique and not `neutral` nor `neutre`",
                );
            }
            if !is_id(&h.id) {
                self.problem(&key, ID_RULE);
            }
            let mut home = Vec::new();
            for centre in &h.home {
                let Some(p) = variant.province_by_id(centre) else {
                    self.problem(
                        format!("{key} home"),
                        format!("unknown province `{centre}`"),
                    );
                    continue;
                };
                let province = &mut variant.provinces[usize::from(p.0)];
                if !province.supply {
                    self.problem(
                        format!("{key} home"),
                        format!("home centre `{centre}` is not a supply centre"),
                    );
                }
                if let Some(other) = province.home_of {
                    self.problem(
                        format!("{key} home"),
                        format!(
                            "`{centre}` is already a home centre of house `{}`",
                            raw[usize::from(other.0)].id
                        ),
                    );
                }
                province.home_of = Some(house);
                home.push(p);
            }
            let builds = h.builds.clone().unwrap_or_else(|| {
                if variant.armies_only {
                    vec![UnitKind::Army]
                } else {
                    vec![UnitKind::Army, UnitKind::Fleet]
                }
            });
            if variant.armies_only && builds.contains(&UnitKind::Fleet) {
                self.problem(
                    format!("{key} builds"),
                    "the variant has armies only (`armies_only`): no fleet may be built",
                );
            }
            if builds.contains(&UnitKind::Dragon) && h.dragon_names.is_empty() {
                self.problem(
                    format!("{key} dragon_names"),
                    "a house that may build dragons needs names for them",
                );
            }
            let letter = self.letter(&key, h, &mut letters);
            variant.houses.push(House {
                letter,
                id: h.id.clone(),
                name: h.name.clone(),
                names: h.names.iter().map(|(l, n)| (*l, n.clone())).collect(),
                adjective: h.adjective.clone().unwrap_or_else(|| h.name.clone()),
                aliases: h.aliases.clone(),
                colour: h.colour.clone().unwrap_or_default(),
                home,
                builds,
                dragon_names: h.dragon_names.clone(),
            });
        }
        if raw.len() > 200 {
            self.problem("[house]", "too many houses");
        }
    }

    /// A house's shorthand letter: one ASCII letter, kept in upper case, unique in the
    /// variant, and not `M`, which a sign-on or a press header reads as the moderator.
    fn letter(&mut self, key: &str, h: &FileHouse, seen: &mut HashSet<char>) -> Option<char> {
        let written = h.letter.as_deref()?;
        let mut chars = written.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => {
                self.problem(
                    format!("{key} letter"),
                    format!("`{written}` is not one letter (A to Z)"),
                );
                return None;
            }
        };
        if letter == 'M' {
            self.problem(
                format!("{key} letter"),
                "`M` stands for the moderator: choose another letter",
            );
            return None;
        }
        if !seen.insert(letter) {
            self.problem(
                format!("{key} letter"),
                format!("`{letter}` is already the letter of another house"),
            );
            return None;
        }
        Some(letter)
    }

    fn owner(&mut self, variant: &Variant, key: &str, name: &str) -> Option<Owner> {
        if name == "neutral" {
            return Some(Owner::Neutral);
        }
        match variant.houses.iter().position(|h| h.id == name) {
            Some(i) => Some(Owner::House(HouseId(i as u8))),
            None => {
                self.problem(format!("{key} house"), format!("unknown house `{name}`"));
                None
            }
        }
    }

    fn units(&mut self, raw: &[FileUnit], variant: &mut Variant) {
        let mut occupied = HashSet::new();
        let mut dragon_names = HashSet::new();
        for u in raw {
            let key = format!("[unit {} {}]", u.kind.letter(), u.at);
            let owner = self.owner(variant, &key, &u.house);
            let Some(region) = self.region_ref(variant, &u.at) else {
                self.problem(
                    format!("{key} at"),
                    format!("unknown province or coast `{}`", u.at),
                );
                continue;
            };
            if !variant.can_stand(u.kind, region) {
                self.problem(
                    format!("{key} at"),
                    format!("a {:?} cannot stand in `{}`", u.kind, u.at).to_lowercase(),
                );
            }
            if !occupied.insert(variant.province_of(region)) {
                self.problem(format!("{key} at"), "two starting units in one province");
            }
            match (&u.name, u.kind) {
                (Some(name), UnitKind::Dragon) => {
                    if !dragon_names.insert(super::names::fold(name)) {
                        self.problem(format!("{key} name"), format!("two dragons named `{name}`"));
                    }
                    if variant.names.province(name).is_some() {
                        self.problem(
                            format!("{key} name"),
                            format!("the dragon name `{name}` is also a province name"),
                        );
                    }
                }
                (Some(_), _) => self.problem(format!("{key} name"), "only dragons have names"),
                (None, _) => {}
            }
            if let Some(owner) = owner {
                variant.starting_units.push(StartingUnit {
                    owner,
                    kind: u.kind,
                    region,
                    name: u.name.clone(),
                });
            }
        }
    }

    fn setups(&mut self, raw: &[FileSetup], variant: &mut Variant) {
        if raw.is_empty() {
            self.problem(
                "[setup]",
                "a variant needs at least one setup (player count)",
            );
        }
        let supply = variant.provinces.iter().filter(|p| p.supply).count();
        let mut counts = HashSet::new();
        for s in raw {
            let key = format!("[setup {}]", s.players);
            // Only a count the setup writes itself: an inherited one is checked (and
            // reported) once, under `[victory] centres`.
            if let Some(centres) = s.victory_centres {
                self.centres_to_win(format!("{key} victory_centres"), centres, supply);
            }
            if !counts.insert(s.players) {
                self.problem(&key, "two setups for the same player count");
            }
            if usize::from(s.players) != s.houses.len() {
                self.problem(
                    format!("{key} houses"),
                    format!("{} players but {} houses listed", s.players, s.houses.len()),
                );
            }
            let mut houses = Vec::new();
            for name in &s.houses {
                match variant.houses.iter().position(|h| &h.id == name) {
                    Some(i) if !houses.contains(&HouseId(i as u8)) => houses.push(HouseId(i as u8)),
                    Some(_) => {
                        self.problem(format!("{key} houses"), format!("`{name}` listed twice"))
                    }
                    None => {
                        self.problem(format!("{key} houses"), format!("unknown house `{name}`"))
                    }
                }
            }
            let (closed, neutral) = self.setup_board(&key, s, variant, &houses);
            variant.setups.push(Setup {
                players: s.players,
                houses,
                victory_centres: s.victory_centres.unwrap_or(variant.victory.centres),
                closed,
                neutral,
            });
        }
    }

    fn victory(&mut self, variant: &Variant) {
        let supply = variant.provinces.iter().filter(|p| p.supply).count();
        self.centres_to_win("[victory] centres", variant.victory.centres, supply);
        for rule in &variant.victory.tie_break {
            if !["points", "centres", "units", "home_centres"].contains(&rule.as_str()) {
                self.problem(
                    "[victory] tie_break",
                    format!(
                        "unknown tie-break `{rule}` (known: points, centres, units, home_centres)"
                    ),
                );
            } else if rule == "points" && variant.victory.points.is_none() {
                self.problem(
                    "[victory] tie_break",
                    "`points` needs a victory by points (`[victory] points`)",
                );
            }
        }
        if let Some(points) = variant.victory.points {
            let total: u32 = variant
                .province_ids()
                .map(|p| u32::from(variant.claim_of(p)))
                .sum();
            if points == 0 {
                self.problem("[victory] points", "0 points to win: at least 1 is needed");
            } else if u32::from(points) > total {
                self.problem(
                    "[victory] points",
                    format!("{points} points to win, but the map's centres are worth {total}"),
                );
            }
        }
        if let Some(last) = variant.victory.last_year
            && last < variant.first_year
        {
            self.problem(
                "[victory] last_year",
                "the last year is before the first year",
            );
        }
    }

    /// A victory count, at `key`, must be one a house can reach on this map.
    fn centres_to_win(&mut self, key: impl Into<String>, centres: u16, supply: usize) {
        if centres == 0 {
            self.problem(key, "0 centres to win: at least 1 is needed");
        } else if usize::from(centres) > supply {
            self.problem(
                key,
                format!("{centres} centres to win, but the map has {supply} supply centres"),
            );
        }
    }
}

impl Builder {
    /// The borders of a kind of their own (`[[border]]`): two land provinces, each pair
    /// once, and not also an ordinary army border.
    fn borders(&mut self, raw: &[FileBorder], variant: &mut Variant) {
        for b in raw {
            let key = format!("[border {}]", b.between.join("-"));
            let [a, z] = b.between.as_slice() else {
                self.problem(
                    format!("{key} between"),
                    "a border joins two provinces: `between = [\"a\", \"b\"]`",
                );
                continue;
            };
            let mut ends = Vec::new();
            for end in [a, z] {
                match variant.province_by_id(end) {
                    Some(p) => ends.push(p),
                    None => self.problem(
                        format!("{key} between"),
                        format!("unknown province `{end}`"),
                    ),
                }
            }
            let [from, to] = ends.as_slice() else {
                continue;
            };
            let (from, to) = (*from, *to);
            if from == to {
                self.problem(format!("{key} between"), "a province cannot border itself");
                continue;
            }
            let what = match b.kind {
                BorderKind::Ford => "a ford",
                BorderKind::Arrow => "an arrow",
            };
            for p in [from, to] {
                if variant.province(p).kind == ProvinceKind::Sea {
                    self.problem(
                        format!("{key} between"),
                        format!(
                            "`{}` is a sea: {what} is an army border between land provinces",
                            variant.province(p).id
                        ),
                    );
                }
            }
            if variant.army_adjacency[usize::from(from.0)].contains(&to) {
                self.problem(
                    format!("{key} between"),
                    "these provinces list each other in `army` too: a border has one kind",
                );
            }
            if variant.border_between(from, to).is_some() {
                self.problem(&key, "this border is listed twice");
                continue;
            }
            // Houses are read after the borders: their names are looked up then.
            if let Some(name) = &b.house {
                self.border_houses.push((
                    variant.borders.len(),
                    format!("{key} house"),
                    name.clone(),
                ));
            }
            variant.borders.push(Border {
                between: (from, to),
                kind: b.kind,
                house: None,
            });
        }
    }

    /// Claim points on centres, towns that are no centres, both on land.
    fn towns_and_claims(&mut self, raw: &[FileProvince], variant: &mut Variant) {
        let by_points = variant.victory.points.is_some();
        for (index, p) in raw.iter().enumerate() {
            let key = format!("[province {}]", p.id);
            let province = &mut variant.provinces[index];
            if p.town && p.supply {
                self.problem(format!("{key} town"), "a town is not a supply centre");
            }
            if p.town && p.kind == ProvinceKind::Sea {
                self.problem(format!("{key} town"), "a town stands on land, not at sea");
            }
            match p.claim {
                Some(_) if !p.supply => self.problem(
                    format!("{key} claim"),
                    "only a supply centre has claim points",
                ),
                Some(_) if !by_points => self.problem(
                    format!("{key} claim"),
                    "claim points need a victory by points (`[victory] points`)",
                ),
                Some(0) => {
                    self.problem(format!("{key} claim"), "a centre is worth at least 1 point")
                }
                Some(claim) => province.claim = claim,
                None if p.supply => province.claim = 1,
                None => {}
            }
        }
    }

    /// An army-only variant: no sea, no fleet standing anywhere.
    fn armies_only(&mut self, raw: &FileVariant, variant: &Variant) {
        if !variant.armies_only {
            return;
        }
        for p in &raw.provinces {
            if p.kind == ProvinceKind::Sea {
                self.problem(
                    format!("[province {}] kind", p.id),
                    "the variant has armies only (`armies_only`): no sea province",
                );
            }
        }
        for u in &raw.units {
            if u.kind == UnitKind::Fleet {
                self.problem(
                    format!("[unit {} {}] kind", u.kind.letter(), u.at),
                    "the variant has armies only (`armies_only`): no fleet",
                );
            }
        }
    }

    /// The weather track: needed by fords, and only by them.
    fn weather(&mut self, raw: Option<&FileWeather>, variant: &mut Variant) {
        let fords = variant.borders.iter().any(|b| b.kind == BorderKind::Ford);
        let Some(w) = raw else {
            if fords {
                self.problem("[weather]", "fords are used but there is no [weather]");
            }
            return;
        };
        if !fords {
            self.problem(
                "[weather]",
                "there is no ford: the weather would change nothing",
            );
        }
        let mut states = Vec::new();
        for s in &w.states {
            let key = format!("[weather.state {}]", s.id);
            if !is_id(&s.id) {
                self.problem(&key, ID_RULE);
            }
            if states.iter().any(|x: &WeatherState| x.id == s.id) {
                self.problem(&key, "two weather states with this id");
                continue;
            }
            states.push(WeatherState {
                id: s.id.clone(),
                name: s.name.clone(),
                names: s.names.iter().map(|(l, n)| (*l, n.clone())).collect(),
                fords_open: s.fords == FordsAre::Open,
            });
        }
        if states.is_empty() {
            self.problem("[weather] state", "the weather needs at least one state");
        }
        let mut track = Vec::new();
        for id in &w.track {
            match states.iter().position(|s| &s.id == id) {
                Some(i) => track.push(i),
                None => self.problem("[weather] track", format!("unknown weather state `{id}`")),
            }
        }
        if w.track.is_empty() {
            self.problem("[weather] track", "the track needs at least one position");
        } else if w.start >= w.track.len() {
            self.problem(
                "[weather] start",
                format!(
                    "{} is past the track's end (its positions are 0 to {})",
                    w.start,
                    w.track.len() - 1
                ),
            );
        }
        if w.step_percent > 100 {
            self.problem("[weather] step_percent", "a chance is at most 100");
        }
        variant.weather = Some(Weather {
            states,
            track,
            start: w.start,
            step_percent: w.step_percent,
        });
    }

    /// Garrisons: one a province, on land, of a known house; `controls` on a centre.
    fn garrisons(&mut self, raw: &[FileGarrison], variant: &mut Variant) {
        for g in raw {
            let key = format!("[garrison {}]", g.at);
            let house = match self.owner(variant, &key, &g.house) {
                Some(Owner::House(h)) => Some(h),
                Some(Owner::Neutral) => {
                    self.problem(format!("{key} house"), "a garrison belongs to a house");
                    None
                }
                None => None,
            };
            let Some(p) = variant.province_by_id(&g.at) else {
                self.problem(format!("{key} at"), format!("unknown province `{}`", g.at));
                continue;
            };
            if variant.province(p).kind == ProvinceKind::Sea {
                self.problem(format!("{key} at"), "a garrison stands on land, not at sea");
            }
            if g.strength == 0 {
                self.problem(
                    format!("{key} strength"),
                    "a garrison's strength is at least 1",
                );
            }
            if g.controls && !variant.province(p).supply {
                self.problem(
                    format!("{key} controls"),
                    "only a supply centre is controlled: this province is none",
                );
            }
            if variant.garrisons.iter().any(|x| x.province == p) {
                self.problem(&key, "two garrisons in one province");
                continue;
            }
            if let Some(house) = house {
                variant.garrisons.push(GarrisonStart {
                    province: p,
                    house,
                    strength: g.strength,
                    controls: g.controls,
                });
            }
        }
    }

    /// A setup's closed provinces and its added neutral units.
    fn setup_board(
        &mut self,
        key: &str,
        s: &FileSetup,
        variant: &Variant,
        houses: &[HouseId],
    ) -> (Vec<ProvinceId>, Vec<StartingUnit>) {
        let mut closed = Vec::new();
        for id in &s.closed {
            let Some(p) = variant.province_by_id(id) else {
                self.problem(format!("{key} closed"), format!("unknown province `{id}`"));
                continue;
            };
            if closed.contains(&p) {
                self.problem(format!("{key} closed"), format!("`{id}` listed twice"));
                continue;
            }
            // A starting unit may stand in a closed province (seed 001's three-player game
            // leaves Greyjoy's armies on Pyke): it holds there, and nobody may enter.
            if let Some(h) = variant.province(p).home_of
                && houses.contains(&h)
            {
                self.problem(
                    format!("{key} closed"),
                    format!(
                        "`{id}` is closed but it is a home centre of `{}`, who plays",
                        variant.house(h).id
                    ),
                );
            }
            closed.push(p);
        }
        let mut neutral: Vec<StartingUnit> = Vec::new();
        for n in &s.neutral {
            let at = format!("{key} neutral {} {}", n.kind.letter(), n.at);
            let Some(region) = self.region_ref(variant, &n.at) else {
                self.problem(at, format!("unknown province or coast `{}`", n.at));
                continue;
            };
            let p = variant.province_of(region);
            if !variant.can_stand(n.kind, region)
                || (variant.armies_only && n.kind == UnitKind::Fleet)
            {
                self.problem(
                    &at,
                    format!("a {:?} cannot stand in `{}`", n.kind, n.at).to_lowercase(),
                );
            }
            if closed.contains(&p) {
                self.problem(&at, format!("`{}` is closed in this setup", n.at));
            }
            let taken = variant
                .starting_units
                .iter()
                .chain(&neutral)
                .any(|u| variant.province_of(u.region) == p);
            if taken {
                self.problem(&at, "two starting units in one province");
            }
            neutral.push(StartingUnit {
                owner: Owner::Neutral,
                kind: n.kind,
                region,
                name: None,
            });
        }
        (closed, neutral)
    }
}

fn push_unique<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}
