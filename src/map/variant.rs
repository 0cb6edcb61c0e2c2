//! A variant once loaded: provinces, their coasts, adjacency for each unit kind, houses,
//! supply centres, starting units and setups. Everything is indexed by small ids so that
//! the judge never compares strings.

use std::fmt;

use crate::lang::Lang;
use serde::{Deserialize, Serialize};

use super::names::NameIndex;

/// Index of a province in [`Variant::provinces`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProvinceId(pub u16);

/// Index of a region (a province as a whole, or one of its coasts) in [`Variant::regions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId(pub u16);

/// Index of a house in [`Variant::houses`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HouseId(pub u8);

/// Land (terrestre), coast (littorale) or sea (maritime).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProvinceKind {
    Land,
    Coast,
    Sea,
}

/// Army (Armée), fleet (Flotte) or dragon (Dragon).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    Army,
    Fleet,
    Dragon,
}

impl UnitKind {
    /// The one-letter abbreviation used in orders and reports (A, F, D).
    pub fn letter(self) -> char {
        match self {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
            UnitKind::Dragon => 'D',
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A named place on the map.
#[derive(Debug, Clone)]
pub struct Province {
    /// Canonical short id, also its abbreviation (`win`, `stp`).
    pub id: String,
    /// Display name (`Château-Noir`), in the variant's own language.
    pub name: String,
    /// The name in other languages (`en`: `Castle Black`), for readers of those.
    pub names: Vec<(Lang, String)>,
    pub kind: ProvinceKind,
    pub supply: bool,
    /// The region standing for the whole province.
    pub region: RegionId,
    /// The coasts of a multi-coast province; empty otherwise.
    pub coasts: Vec<RegionId>,
    /// The house for which this is a home centre, if any.
    pub home_of: Option<HouseId>,
    /// Claim points of a supply centre when the variant wins by points (`claim`); 0 for a
    /// province that is no centre.
    pub claim: u16,
    /// A town: a build site for armies, owned like a centre, but no supply centre.
    pub town: bool,
}

impl Province {
    /// The name a reader of `lang` sees: the translation the variant gives, else its name.
    pub fn name_in(&self, lang: Lang) -> &str {
        translated(&self.name, &self.names, lang)
    }
}

/// A province as a whole, or one of its coasts: where a unit stands.
#[derive(Debug, Clone)]
pub struct Region {
    pub province: ProvinceId,
    /// Coast id (`nc`, `ouest`) for a coast region, `None` for the whole province.
    pub coast: Option<String>,
}

/// A great house (a power, in Diplomacy's words).
#[derive(Debug, Clone)]
pub struct House {
    pub id: String,
    pub name: String,
    /// The name in other languages (`en`: `England`), for readers of those.
    pub names: Vec<(Lang, String)>,
    pub adjective: String,
    /// Other names (`ENG`, `England`) accepted in orders and case files.
    pub aliases: Vec<String>,
    pub colour: String,
    pub home: Vec<ProvinceId>,
    /// Unit kinds this house may build in winter.
    pub builds: Vec<UnitKind>,
    /// Names given, in order, to the dragons this house builds.
    pub dragon_names: Vec<String>,
    /// The house's one-letter code in njudge's shorthand (`F` for France), upper case;
    /// never `M`, which stands for the moderator.
    pub letter: Option<char>,
}

impl House {
    /// The name a reader of `lang` sees: the translation the variant gives, else its name.
    pub fn name_in(&self, lang: Lang) -> &str {
        translated(&self.name, &self.names, lang)
    }
}

/// `own` unless `names` holds a translation for `lang`.
fn translated<'a>(own: &'a str, names: &'a [(Lang, String)], lang: Lang) -> &'a str {
    names
        .iter()
        .find(|(l, _)| *l == lang)
        .map_or(own, |(_, n)| n.as_str())
}

/// Who a unit belongs to: a house, or nobody (a neutral force).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    House(HouseId),
    Neutral,
}

/// A unit of a starting setup.
#[derive(Debug, Clone)]
pub struct StartingUnit {
    pub owner: Owner,
    pub kind: UnitKind,
    pub region: RegionId,
    pub name: Option<String>,
}

/// The houses in play for one player count; the others' starting units stay as neutrals.
#[derive(Debug, Clone)]
pub struct Setup {
    pub players: u8,
    pub houses: Vec<HouseId>,
    /// Supply centres that win at once with this many players.
    pub victory_centres: u16,
    /// Provinces nobody may enter for the whole game.
    pub closed: Vec<ProvinceId>,
    /// Neutral units this setup adds to the board.
    pub neutral: Vec<StartingUnit>,
}

/// How a game is won (seed 000, adapted).
#[derive(Debug, Clone)]
pub struct Victory {
    /// Supply centres that win at once, unless the setup says otherwise.
    pub centres: u16,
    /// After the winter of this year the house with most centres wins; `None`: no limit.
    pub last_year: Option<i32>,
    /// Tie-breaks in order, then a shared victory (`points`, `centres`, `units`,
    /// `home_centres`).
    pub tie_break: Vec<String>,
    /// Claim points that win at once; when given, they replace `centres` as the test.
    pub points: Option<u16>,
}

/// A border with a kind of its own (`[[border]]`), joining two land provinces for armies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BorderKind {
    /// Carries moves and retreats, never a support.
    Arrow,
    /// Open only while the weather leaves the fords open.
    Ford,
}

/// A border of a kind of its own between two provinces.
#[derive(Debug, Clone)]
pub struct Border {
    pub between: (ProvinceId, ProvinceId),
    pub kind: BorderKind,
    /// The only house whose units may cross it, if any.
    pub house: Option<HouseId>,
}

impl Border {
    /// The other end, when `from` is one end of the border.
    pub fn from_to(&self, from: ProvinceId) -> Option<ProvinceId> {
        match self.between {
            (a, b) if a == from => Some(b),
            (a, b) if b == from => Some(a),
            _ => None,
        }
    }
}

/// What an army means to do across a border: move (or retreat), or support into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crossing {
    Move,
    Support,
}

/// Who crosses, in what weather, to do what: everything a border of a kind of its own
/// asks before it lets a unit through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Passage {
    pub owner: Owner,
    pub fords_open: bool,
    pub crossing: Crossing,
}

/// Why a border of a kind of its own refuses a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Barrier {
    /// A ford, while the weather closes the fords.
    FordClosed,
    /// A border only another house may use.
    OtherHouse,
    /// An arrow, which carries no support.
    MoveOnly,
}

/// One state of the weather (`fair`, `storm`).
#[derive(Debug, Clone)]
pub struct WeatherState {
    pub id: String,
    pub name: String,
    pub names: Vec<(Lang, String)>,
    pub fords_open: bool,
}

impl WeatherState {
    /// The name a reader of `lang` sees.
    pub fn name_in(&self, lang: Lang) -> &str {
        translated(&self.name, &self.names, lang)
    }
}

/// The weather track (`[weather]`): its states, the positions of the marker in order, where
/// it starts, and the chance that it moves one step at each new movement phase.
#[derive(Debug, Clone)]
pub struct Weather {
    pub states: Vec<WeatherState>,
    /// The state of each position of the track, by index in `states`.
    pub track: Vec<usize>,
    pub start: usize,
    pub step_percent: u8,
}

impl Weather {
    /// The state at this position of the track (the first one past the end); none only
    /// for a track the loader would refuse.
    pub fn state_at(&self, step: usize) -> Option<&WeatherState> {
        let index = self.track.get(step).or(self.track.first()).copied()?;
        self.states.get(index)
    }

    /// The position after `step`: after the last comes the first.
    pub fn next_step(&self, step: usize) -> usize {
        if self.track.is_empty() {
            0
        } else {
            (step + 1) % self.track.len()
        }
    }
}

/// A garrison the variant starts with (`[[garrison]]`): not a unit.
#[derive(Debug, Clone)]
pub struct GarrisonStart {
    pub province: ProvinceId,
    pub house: HouseId,
    pub strength: u8,
    /// The house owns the centre while the garrison stands.
    pub controls: bool,
}

/// A whole variant, validated.
#[derive(Debug, Clone)]
pub struct Variant {
    pub id: String,
    pub name: String,
    /// The variant's name in other languages (`en`: `Diplomacy (classic map)`).
    pub translations: Vec<(Lang, String)>,
    pub first_year: i32,
    pub provinces: Vec<Province>,
    pub regions: Vec<Region>,
    pub houses: Vec<House>,
    /// Army neighbours of each province (land borders).
    pub army_adjacency: Vec<Vec<ProvinceId>>,
    /// Fleet neighbours of each region (along a shared coast or open water).
    pub fleet_adjacency: Vec<Vec<RegionId>>,
    /// Dragon neighbours of each province: every border, whatever its kind.
    pub dragon_adjacency: Vec<Vec<ProvinceId>>,
    pub starting_units: Vec<StartingUnit>,
    pub setups: Vec<Setup>,
    pub victory: Victory,
    pub names: NameIndex,
    /// Where things are on the picture of the board, if the file says (`[drawing]`).
    pub drawing: Option<super::drawing::Drawing>,
    /// Borders of a kind of its own: arrows and fords, some for one house only. They are in
    /// no adjacency list above but the dragons' (a dragon flies over any border).
    pub borders: Vec<Border>,
    /// The weather track, for a variant with fords.
    pub weather: Option<Weather>,
    pub garrisons: Vec<GarrisonStart>,
    /// No fleet stands, starts nor is built anywhere.
    pub armies_only: bool,
}

impl Variant {
    /// The variant's name for a reader of `lang`.
    pub fn name_in(&self, lang: Lang) -> &str {
        translated(&self.name, &self.translations, lang)
    }

    pub fn province(&self, id: ProvinceId) -> &Province {
        &self.provinces[usize::from(id.0)]
    }

    pub fn region(&self, id: RegionId) -> &Region {
        &self.regions[usize::from(id.0)]
    }

    pub fn house(&self, id: HouseId) -> &House {
        &self.houses[usize::from(id.0)]
    }

    /// The province a region belongs to.
    pub fn province_of(&self, region: RegionId) -> ProvinceId {
        self.region(region).province
    }

    /// `stp/nc` for a coast, `stp` for a province.
    pub fn region_label(&self, region: RegionId) -> String {
        let r = self.region(region);
        let id = &self.province(r.province).id;
        match &r.coast {
            Some(coast) => format!("{id}/{coast}"),
            None => id.clone(),
        }
    }

    /// Looks a province up by its canonical id (exact, lower case).
    pub fn province_by_id(&self, id: &str) -> Option<ProvinceId> {
        self.provinces
            .iter()
            .position(|p| p.id == id)
            .and_then(|i| u16::try_from(i).ok())
            .map(ProvinceId)
    }

    /// Looks a house up by id, name or adjective, ignoring case and accents.
    /// The house whose one-letter code is `letter`, in any case (`f` is France).
    pub fn house_by_letter(&self, letter: char) -> Option<HouseId> {
        let letter = letter.to_ascii_uppercase();
        self.houses
            .iter()
            .position(|h| h.letter == Some(letter))
            .and_then(|i| u8::try_from(i).ok())
            .map(HouseId)
    }

    pub fn house_by_name(&self, name: &str) -> Option<HouseId> {
        // The names are folded once, at load (`NameIndex::add_houses_and_dragons`).
        self.names.house_folded(&super::names::fold(name))
    }

    /// The name of the house with this id or name, in `lang`; the text itself when it names
    /// no house of the variant (a house of a game stored under another variant).
    pub fn house_name_in(&self, name: &str, lang: crate::lang::Lang) -> String {
        self.house_by_name(name).map_or_else(
            || name.to_string(),
            |h| self.house(h).name_in(lang).to_string(),
        )
    }

    /// Whether a unit of this kind may stand in this region at all.
    pub fn can_stand(&self, kind: UnitKind, region: RegionId) -> bool {
        let r = self.region(region);
        let p = self.province(r.province);
        match kind {
            UnitKind::Army => p.kind != ProvinceKind::Sea && r.coast.is_none(),
            UnitKind::Dragon => r.coast.is_none(),
            UnitKind::Fleet => {
                p.kind != ProvinceKind::Land && (p.coasts.is_empty() == r.coast.is_none())
            }
        }
    }

    /// Whether a unit of this kind in `from` may move to `to` in one step (no convoy).
    pub fn can_move(&self, kind: UnitKind, from: RegionId, to: RegionId) -> bool {
        match kind {
            UnitKind::Fleet => self.fleet_adjacency[usize::from(from.0)].contains(&to),
            UnitKind::Army => {
                self.region(to).coast.is_none()
                    && self.army_adjacency[usize::from(self.province_of(from).0)]
                        .contains(&self.province_of(to))
            }
            UnitKind::Dragon => {
                self.region(to).coast.is_none()
                    && self.dragon_adjacency[usize::from(self.province_of(from).0)]
                        .contains(&self.province_of(to))
            }
        }
    }

    /// The border of a kind of its own between two provinces, if any.
    pub fn border_between(&self, a: ProvinceId, b: ProvinceId) -> Option<&Border> {
        self.borders.iter().find(|x| x.from_to(a) == Some(b))
    }

    /// Whether an army may cross the border of a kind of its own from `from` to `to`:
    /// None when there is no such border; the reason when it refuses this passage.
    pub fn special_crossing(
        &self,
        kind: UnitKind,
        from: ProvinceId,
        to: ProvinceId,
        passage: Passage,
    ) -> Option<Result<(), Barrier>> {
        // Fleets sail and dragons fly: only armies take arrows and fords.
        if kind != UnitKind::Army {
            return None;
        }
        let border = self.border_between(from, to)?;
        Some(
            if border
                .house
                .is_some_and(|h| passage.owner != Owner::House(h))
            {
                Err(Barrier::OtherHouse)
            } else if border.kind == BorderKind::Ford && !passage.fords_open {
                Err(Barrier::FordClosed)
            } else if border.kind == BorderKind::Arrow && passage.crossing == Crossing::Support {
                Err(Barrier::MoveOnly)
            } else {
                Ok(())
            },
        )
    }

    /// [`Variant::can_move`], with the borders of a kind of its own that let this passage
    /// through: the question the judge asks of a move or a retreat.
    pub fn can_move_by(
        &self,
        kind: UnitKind,
        from: RegionId,
        to: RegionId,
        passage: Passage,
    ) -> bool {
        self.can_move(kind, from, to)
            || (self.region(to).coast.is_none()
                && self.special_crossing(
                    kind,
                    self.province_of(from),
                    self.province_of(to),
                    passage,
                ) == Some(Ok(())))
    }

    /// [`Variant::can_reach_province`], with the borders of a kind of its own that let this
    /// passage through (a support: never along an arrow).
    pub fn can_reach_province_by(
        &self,
        kind: UnitKind,
        from: RegionId,
        to: ProvinceId,
        passage: Passage,
    ) -> bool {
        self.can_reach_province(kind, from, to)
            || self.special_crossing(kind, self.province_of(from), to, passage) == Some(Ok(()))
    }

    /// The provinces an army in `from` may enter by land, with the borders of a kind of its
    /// own this passage may use.
    pub fn army_neighbours_by(&self, from: ProvinceId, passage: Passage) -> Vec<ProvinceId> {
        let mut out = self.army_adjacency[usize::from(from.0)].clone();
        for border in &self.borders {
            if let Some(to) = border.from_to(from)
                && self.special_crossing(UnitKind::Army, from, to, passage) == Some(Ok(()))
                && !out.contains(&to)
            {
                out.push(to);
            }
        }
        out
    }

    /// Whether a unit of this kind in `from` could move to some region of province `to`:
    /// the reach of a support (DATC 6.B.4: a fleet may support into either coast).
    pub fn can_reach_province(&self, kind: UnitKind, from: RegionId, to: ProvinceId) -> bool {
        match kind {
            UnitKind::Fleet => self.fleet_adjacency[usize::from(from.0)]
                .iter()
                .any(|&r| self.province_of(r) == to),
            UnitKind::Army => {
                self.province(to).kind != ProvinceKind::Sea
                    && self.army_adjacency[usize::from(self.province_of(from).0)].contains(&to)
            }
            UnitKind::Dragon => {
                self.dragon_adjacency[usize::from(self.province_of(from).0)].contains(&to)
            }
        }
    }

    /// All regions (provinces and their coasts), in index order.
    pub fn region_ids(&self) -> impl Iterator<Item = RegionId> + '_ {
        (0..self.regions.len()).map(|i| RegionId(i as u16))
    }

    /// All provinces, in id order.
    pub fn province_ids(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        (0..self.provinces.len()).map(|i| ProvinceId(i as u16))
    }

    /// All houses, in file order.
    pub fn house_ids(&self) -> impl Iterator<Item = HouseId> + '_ {
        (0..self.houses.len()).map(|i| HouseId(i as u8))
    }

    /// The setup for this many players, if the variant has one.
    pub fn setup(&self, players: u8) -> Option<&Setup> {
        self.setups.iter().find(|s| s.players == players)
    }

    /// The claim points of a centre: its `claim` when the variant wins by points, else 1.
    pub fn claim_of(&self, province: ProvinceId) -> u16 {
        let p = self.province(province);
        match (p.supply, self.victory.points) {
            (false, _) => 0,
            (true, Some(_)) => p.claim,
            (true, None) => 1,
        }
    }

    /// The setup with the most players: the full game.
    pub fn full_setup(&self) -> Option<&Setup> {
        self.setups.iter().max_by_key(|s| s.players)
    }
}
