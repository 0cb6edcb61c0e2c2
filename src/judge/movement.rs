//! The movement phase, by Kruijswijk's guess-and-check algorithm ("The Math of
//! Adjudication"): each order has one decision (a move succeeds, a support is given, a
//! convoying fleet stays), decided recursively from attack, hold, defend and prevent
//! strengths. A cycle of decisions that admits two answers is circular movement (all
//! moves succeed); one that admits none, or a cycle through a convoy, is a convoy paradox,
//! broken by the Szykman rule (the convoyed armies in it stay). Choices in
//! docs/rules.md.

use crate::map::{Owner, ProvinceId, RegionId, Variant};

use super::edition::ConvoyUse;
use super::legality::{fleet_touches, sea_between, sea_on_route, seas_touching};
use super::outcome::{CheckedOrder, Failure, Outcome};
use super::position::{Position, Unit};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Unresolved,
    Guessing,
    Resolved,
}

/// What the movement phase decided for each unit of the position.
#[derive(Debug, Clone)]
pub(super) struct MovementResult {
    /// Outcome of each unit's command, by unit index.
    pub outcomes: Vec<Outcome>,
    /// The command each unit followed (an unmatched convoyed move becomes a hold).
    pub commands: Vec<CheckedOrder>,
    /// For each dislodged unit: the province its attacker came from, and whether the
    /// attacker came by convoy (then the dislodged unit may retreat there, DATC 6.H.11).
    pub dislodged_by: Vec<Option<(ProvinceId, bool)>>,
    /// Where each unit ends (its own region unless it moved).
    pub destinations: Vec<RegionId>,
    /// Provinces left empty by a standoff.
    pub contested: Vec<ProvinceId>,
    /// Provinces whose garrison lost: a unit of another house entered.
    pub garrisons_taken: Vec<ProvinceId>,
}

/// Adjudicates a movement phase; `commands` holds one legal command per unit.
pub(super) fn resolve_movement(
    variant: &Variant,
    position: &Position,
    commands: Vec<CheckedOrder>,
    convoy_use: ConvoyUse,
) -> MovementResult {
    if convoy_use != ConvoyUse::AnyConvoy {
        return resolve_once(variant, position, commands, convoy_use, &[]);
    }
    // Under any-convoy rules an army a convoy was ordered for goes by sea, but by land
    // when that convoy is disrupted: decide again with those armies on land, until no
    // more of them falls back (each pass moves at least one more, so it ends).
    let mut by_land = vec![false; position.units.len()];
    loop {
        let result = resolve_once(variant, position, commands.clone(), convoy_use, &by_land);
        let mut fell_back = false;
        for (i, unit) in position.units.iter().enumerate() {
            if !by_land[i]
                && let CheckedOrder::Move {
                    to,
                    via_convoy: false,
                } = commands[i]
                && unit.kind == crate::map::UnitKind::Army
                && variant.can_move(unit.kind, unit.region, to)
                && matches!(result.outcomes[i], Outcome::Failed(Failure::NoConvoyRoute))
            {
                by_land[i] = true;
                fell_back = true;
            }
        }
        if !fell_back {
            return result;
        }
    }
}

fn resolve_once(
    variant: &Variant,
    position: &Position,
    commands: Vec<CheckedOrder>,
    convoy_use: ConvoyUse,
    by_land: &[bool],
) -> MovementResult {
    // Long chains of moves recurse deeply: give big boards a thread with room for it.
    if position.units.len() > 1_500 {
        let stack = 64 * 1024 * 1024 + position.units.len() * 16 * 1024;
        let outcome = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(stack)
                .spawn_scoped(scope, || {
                    Resolver::new(variant, position, commands, convoy_use, by_land).run()
                })
                .map(|handle| handle.join())
        });
        match outcome {
            Ok(Ok(result)) => return result,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(e) => panic!("cannot start the adjudication thread: {e}"),
        }
    }
    Resolver::new(variant, position, commands, convoy_use, by_land).run()
}

/// Lists by index, stored flat (one allocation, not one per list): the items of list `k`
/// are `items[start[k]..start[k + 1]]`, in the order they were given.
#[derive(Default)]
struct Lists {
    start: Vec<u32>,
    items: Vec<usize>,
}

impl Lists {
    /// `count` lists from (list, item) pairs.
    fn build(count: usize, pairs: &[(usize, usize)]) -> Lists {
        let mut start = vec![0u32; count + 1];
        for &(k, _) in pairs {
            start[k + 1] += 1;
        }
        for k in 0..count {
            start[k + 1] += start[k];
        }
        let mut fill: Vec<u32> = start[..count].to_vec();
        let mut items = vec![0; pairs.len()];
        for &(k, item) in pairs {
            items[fill[k] as usize] = item;
            fill[k] += 1;
        }
        Lists { start, items }
    }

    /// The number of lists.
    fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }
}

impl std::ops::Index<usize> for Lists {
    type Output = [usize];

    fn index(&self, k: usize) -> &[usize] {
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

struct Resolver<'a> {
    variant: &'a Variant,
    units: &'a [Unit],
    commands: Vec<CheckedOrder>,
    province: Vec<ProvinceId>,
    /// Target province of each move (None for other orders).
    target: Vec<Option<ProvinceId>>,
    /// Whether each move goes by convoy.
    convoyed: Vec<bool>,
    unit_at: Vec<Option<usize>>,
    moves_into: Lists,
    /// Supports that match each unit's order (hold supports or move supports).
    supports: Lists,
    /// Fleets ordered to convoy each convoyed move.
    convoyers: Lists,
    /// Convoyed moves that the Szykman rule stopped.
    paradox: Vec<bool>,
    /// The garrison of each province, by province: its house and strength.
    garrison: Vec<Option<(Owner, u32)>>,
    state: Vec<State>,
    result: Vec<bool>,
    deps: Vec<usize>,
}

impl<'a> Resolver<'a> {
    fn new(
        variant: &'a Variant,
        position: &'a Position,
        commands: Vec<CheckedOrder>,
        convoy_use: ConvoyUse,
        by_land: &[bool],
    ) -> Self {
        let units = &position.units;
        let n = units.len();
        let mut garrison = vec![None; variant.provinces.len()];
        for g in &position.garrisons {
            if let Some(slot) = garrison.get_mut(usize::from(g.province.0)) {
                *slot = Some((g.owner, u32::from(g.strength)));
            }
        }
        let province: Vec<ProvinceId> = units
            .iter()
            .map(|u| variant.province_of(u.region))
            .collect();
        let mut unit_at = vec![None; variant.provinces.len()];
        for (i, &p) in province.iter().enumerate() {
            unit_at[usize::from(p.0)] = Some(i);
        }
        let mut resolver = Resolver {
            variant,
            units,
            target: vec![None; n],
            convoyed: vec![false; n],
            unit_at,
            moves_into: Lists::default(),
            supports: Lists::default(),
            convoyers: Lists::default(),
            paradox: vec![false; n],
            garrison,
            state: vec![State::Unresolved; n],
            result: vec![false; n],
            deps: Vec::new(),
            commands,
            province,
        };
        resolver.index_orders(convoy_use, by_land);
        resolver
    }

    fn index_orders(&mut self, convoy_use: ConvoyUse, by_land: &[bool]) {
        for i in 0..self.units.len() {
            if let CheckedOrder::Move { to, via_convoy } = self.commands[i] {
                self.target[i] = Some(self.variant.province_of(to));
                self.convoyed[i] = via_convoy;
            }
        }
        let n = self.units.len();
        let mut convoys = Vec::new();
        for i in 0..n {
            if let CheckedOrder::Convoy { army, to } = self.commands[i]
                && let Some(a) = self.unit_at(army)
                && self.units[a].kind == crate::map::UnitKind::Army
                && self.target[a] == Some(to)
            {
                convoys.push((a, i));
            }
        }
        self.convoyers = Lists::build(n, &convoys);
        // An army told to go to a neighbour goes by land, unless told `via convoy` or the
        // edition's convoy rule says a convoy ordered for it carries it.
        for a in 0..self.units.len() {
            if self.target[a].is_some()
                && !self.convoyed[a]
                && !by_land.get(a).copied().unwrap_or(false)
            {
                self.convoyed[a] = self.convoy_carries(a, convoy_use);
            }
        }
        convoys.retain(|&(a, _)| self.convoyed[a]);
        self.convoyers = Lists::build(n, &convoys);
        let mut moves = Vec::with_capacity(n);
        let mut supports = Vec::new();
        for i in 0..self.units.len() {
            if let Some(t) = self.target[i] {
                moves.push((usize::from(t.0), i));
            }
            match self.commands[i] {
                CheckedOrder::SupportHold { unit } => {
                    if let Some(s) = self.unit_at(unit)
                        && self.target[s].is_none()
                    {
                        supports.push((s, i));
                    }
                }
                CheckedOrder::SupportMove { unit, to, coast } => {
                    if let Some(s) = self.unit_at(unit)
                        && self.target[s] == Some(to)
                        && coast.is_none_or(
                            |c| matches!(self.commands[s], CheckedOrder::Move { to, .. } if to == c),
                        )
                    {
                        supports.push((s, i));
                    }
                }
                _ => {}
            }
        }
        self.moves_into = Lists::build(self.variant.provinces.len(), &moves);
        self.supports = Lists::build(n, &supports);
    }

    fn unit_at(&self, province: ProvinceId) -> Option<usize> {
        self.unit_at[usize::from(province.0)]
    }

    fn run(mut self) -> MovementResult {
        let n = self.units.len();
        for i in 0..n {
            if self.decides(i) {
                self.resolve(i);
            }
        }
        let destinations: Vec<RegionId> = (0..n)
            .map(|i| match self.commands[i] {
                CheckedOrder::Move { to, .. } if self.result[i] => to,
                _ => self.units[i].region,
            })
            .collect();
        let dislodged_by: Vec<Option<(ProvinceId, bool)>> = (0..n)
            .map(|i| {
                if self.target[i].is_some() && self.result[i] {
                    return None;
                }
                self.moves_into[usize::from(self.province[i].0)]
                    .iter()
                    .find(|&&k| self.result[k])
                    .map(|&k| (self.province[k], self.convoyed[k]))
            })
            .collect();
        let outcomes: Vec<Outcome> = (0..n)
            .map(|i| self.outcome(i, dislodged_by[i].map(|(p, _)| p)))
            .collect();
        let mut contested = Vec::new();
        for p in 0..self.moves_into.len() {
            let moves = &self.moves_into[p];
            let occupied_after = moves.iter().any(|&k| self.result[k])
                || self.unit_at[p].is_some_and(|u| self.target[u].is_none() || !self.result[u]);
            let standoff = moves
                .iter()
                .any(|&k| matches!(outcomes[k], Outcome::Failed(Failure::Standoff { .. })));
            if standoff && !occupied_after {
                contested.push(ProvinceId(p as u16));
            }
        }
        let garrisons_taken = (0..self.garrison.len())
            .filter(|&p| {
                self.garrison[p].is_some_and(|(owner, _)| {
                    self.moves_into[p]
                        .iter()
                        .any(|&k| self.result[k] && self.units[k].owner != owner)
                })
            })
            .map(|p| ProvinceId(p as u16))
            .collect();
        MovementResult {
            outcomes,
            commands: self.commands,
            dislodged_by,
            destinations,
            contested,
            garrisons_taken,
        }
    }

    /// Orders that carry a decision: moves, supports and convoys.
    fn decides(&self, i: usize) -> bool {
        matches!(
            self.commands[i],
            CheckedOrder::Move { .. }
                | CheckedOrder::SupportHold { .. }
                | CheckedOrder::SupportMove { .. }
                | CheckedOrder::Convoy { .. }
        )
    }

    fn resolve(&mut self, i: usize) -> bool {
        match self.state[i] {
            State::Resolved => return self.result[i],
            State::Guessing => {
                // Pushed every time, even if listed already: whoever asked depends on a
                // guess, and must not take its answer as final.
                self.deps.push(i);
                return self.result[i];
            }
            State::Unresolved => {}
        }
        let old = self.deps.len();
        self.result[i] = false;
        self.state[i] = State::Guessing;
        let first = self.adjudicate(i);
        if self.deps.len() == old {
            if self.state[i] != State::Resolved {
                self.result[i] = first;
                self.state[i] = State::Resolved;
            }
            return first;
        }
        if self.deps[old] != i {
            self.deps.push(i);
            self.result[i] = first;
            return first;
        }
        // This order starts a cycle: try the other guess.
        self.forget_from(old);
        self.result[i] = true;
        self.state[i] = State::Guessing;
        let second = self.adjudicate(i);
        if first == second {
            self.forget_from(old);
            self.result[i] = first;
            self.state[i] = State::Resolved;
            return first;
        }
        self.backup_rule(old);
        self.resolve(i)
    }

    /// Drops the guesses made since the dependency list had `len` entries.
    fn forget_from(&mut self, len: usize) {
        for &d in &self.deps[len..] {
            self.state[d] = State::Unresolved;
        }
        self.deps.truncate(len);
    }

    /// Two consistent answers or none: circular movement, or a convoy paradox.
    fn backup_rule(&mut self, old: usize) {
        let mut cycle: Vec<usize> = self.deps[old..].to_vec();
        cycle.sort_unstable();
        cycle.dedup();
        // A convoy paradox runs through a convoying fleet; a ring of moves, even with a
        // convoyed army in it, is circular movement.
        let mut paradox_armies: Vec<usize> = Vec::new();
        for &d in &cycle {
            if let CheckedOrder::Convoy { army, .. } = self.commands[d]
                && let Some(a) = self.unit_at(army)
                && self.convoyers[a].contains(&d)
                && !paradox_armies.contains(&a)
            {
                paradox_armies.push(a);
            }
        }
        self.forget_from(old);
        if paradox_armies.is_empty() {
            // Circular movement: every move of the ring succeeds.
            for &d in &cycle {
                if matches!(self.commands[d], CheckedOrder::Move { .. }) {
                    self.result[d] = true;
                    self.state[d] = State::Resolved;
                }
            }
        } else {
            // Szykman: the convoyed armies of the paradox stay where they are.
            for a in paradox_armies {
                self.paradox[a] = true;
                self.result[a] = false;
                self.state[a] = State::Resolved;
            }
        }
    }

    fn adjudicate(&mut self, i: usize) -> bool {
        match self.commands[i] {
            CheckedOrder::Move { .. } => self.adjudicate_move(i),
            CheckedOrder::SupportHold { .. } | CheckedOrder::SupportMove { .. } => {
                self.adjudicate_support(i)
            }
            CheckedOrder::Convoy { .. } => !self.is_attacked_successfully(i),
            _ => true,
        }
    }

    fn adjudicate_move(&mut self, i: usize) -> bool {
        let Some(target) = self.target[i] else {
            return false;
        };
        if self.convoyed[i] && !self.has_path(i) {
            return false;
        }
        let attack = self.attack_strength(i);
        let garrison = self.garrison_against(i, target);
        match self.head_to_head(i) {
            Some(j) => {
                if attack <= self.defend_strength(j) + garrison {
                    return false;
                }
            }
            None => {
                if attack <= self.hold_strength(target) + garrison {
                    return false;
                }
            }
        }
        // Indexed loops, not a clone of the list: this runs for every guess.
        let t = usize::from(target.0);
        for n in 0..self.moves_into[t].len() {
            let k = self.moves_into[t][n];
            if k != i && attack <= self.prevent_strength(k) {
                return false;
            }
        }
        true
    }

    /// Cut by an attack from anywhere but the province the support is aimed at, by a unit of
    /// another house; or by the supporter's dislodgement.
    fn adjudicate_support(&mut self, s: usize) -> bool {
        let exempt = match self.commands[s] {
            CheckedOrder::SupportMove { to, .. } => Some(to),
            _ => None,
        };
        let at = usize::from(self.province[s].0);
        for n in 0..self.moves_into[at].len() {
            let k = self.moves_into[at][n];
            if Some(self.province[k]) == exempt || self.units[k].owner == self.units[s].owner {
                continue;
            }
            if !self.convoyed[k] || self.has_path(k) {
                return false;
            }
        }
        !self.is_attacked_successfully(s)
    }

    /// Whether some move into this unit's province succeeds (the unit itself stays).
    fn is_attacked_successfully(&mut self, i: usize) -> bool {
        let at = usize::from(self.province[i].0);
        (0..self.moves_into[at].len()).any(|n| {
            let k = self.moves_into[at][n];
            self.resolve(k)
        })
    }

    /// The strength a garrison adds to its province's defence against unit `i`: all of it
    /// against a unit of another house, none against its own.
    fn garrison_against(&self, i: usize, province: ProvinceId) -> u32 {
        match self.garrison[usize::from(province.0)] {
            Some((owner, strength)) if owner != self.units[i].owner => strength,
            _ => 0,
        }
    }

    fn head_to_head(&self, i: usize) -> Option<usize> {
        let target = self.target[i]?;
        let j = self.unit_at(target)?;
        (self.target[j] == Some(self.province[i]) && !self.convoyed[i] && !self.convoyed[j])
            .then_some(j)
    }

    fn support_count(&mut self, i: usize, excluding: Option<Owner>) -> u32 {
        let mut count = 1;
        for n in 0..self.supports[i].len() {
            let s = self.supports[i][n];
            if excluding == Some(self.units[s].owner) {
                continue;
            }
            if self.resolve(s) {
                count += 1;
            }
        }
        count
    }

    fn hold_strength(&mut self, province: ProvinceId) -> u32 {
        let Some(u) = self.unit_at(province) else {
            return 0;
        };
        if self.target[u].is_some() {
            return if self.resolve(u) { 0 } else { 1 };
        }
        self.support_count(u, None)
    }

    fn attack_strength(&mut self, i: usize) -> u32 {
        if self.convoyed[i] && !self.has_path(i) {
            return 0;
        }
        let Some(target) = self.target[i] else {
            return 0;
        };
        let Some(d) = self.unit_at(target) else {
            return self.support_count(i, None);
        };
        let moves_away =
            self.target[d].is_some() && self.head_to_head(i) != Some(d) && self.resolve(d);
        if moves_away {
            return self.support_count(i, None);
        }
        if self.units[d].owner == self.units[i].owner {
            // No self-dislodgement.
            return 0;
        }
        self.support_count(i, Some(self.units[d].owner))
    }

    fn defend_strength(&mut self, j: usize) -> u32 {
        self.support_count(j, None)
    }

    fn prevent_strength(&mut self, k: usize) -> u32 {
        if self.convoyed[k] && !self.has_path(k) {
            return 0;
        }
        if let Some(h) = self.head_to_head(k)
            && self.resolve(h)
        {
            return 0;
        }
        self.support_count(k, None)
    }

    /// Whether convoys ordered for an army moving to a neighbour carry it: under the 2023
    /// rules, the intent to convoy (DATC v3.0 6.G: the army's own house ordered a fleet to
    /// convoy it from a sea a route needs); under the 1982 rules and the DPTG, a fleet of
    /// its own house on some route; under the 1971 rules, any convoy. Ordered fleets must
    /// form a whole route in every case.
    fn convoy_carries(&self, a: usize, convoy_use: ConvoyUse) -> bool {
        let Some(to) = self.target[a] else {
            return false;
        };
        let from = self.province[a];
        let owner = self.units[a].owner;
        let fleets = &self.convoyers[a];
        if fleets.is_empty() {
            return false;
        }
        let intent = match convoy_use {
            ConvoyUse::OwnNeededFleet => fleets.iter().any(|&f| {
                self.units[f].owner == owner
                    && sea_on_route(self.variant, from, to, self.province[f])
            }),
            ConvoyUse::OwnFleet => fleets.iter().any(|&f| {
                self.units[f].owner == owner
                    && sea_between(self.variant, from, to, self.province[f])
            }),
            ConvoyUse::AnyConvoy => true,
        };
        if !intent {
            return false;
        }
        let mut seen = vec![false; fleets.len()];
        let mut frontier: Vec<usize> = (0..fleets.len())
            .filter(|&n| seas_touching(self.variant, from).any(|s| s == self.province[fleets[n]]))
            .collect();
        for &n in &frontier {
            seen[n] = true;
        }
        while let Some(n) = frontier.pop() {
            let sea = self.province[fleets[n]];
            if fleet_touches(self.variant, sea, to) {
                return true;
            }
            for (m, &g) in fleets.iter().enumerate() {
                if !seen[m] && fleet_touches(self.variant, sea, self.province[g]) {
                    seen[m] = true;
                    frontier.push(m);
                }
            }
        }
        false
    }

    /// A chain of convoying fleets, none dislodged, from the army to its destination.
    fn has_path(&mut self, i: usize) -> bool {
        if self.paradox[i] {
            return false;
        }
        self.path_search(i)
    }

    fn path_search(&mut self, i: usize) -> bool {
        let (Some(to), from) = (self.target[i], self.province[i]) else {
            return false;
        };
        let count = self.convoyers[i].len();
        if count > 64 {
            return self.path_search_many(i, to, from);
        }
        // An army has a few fleets at most: their marks fit in a word and the frontier on
        // the stack. The fleets are tried in the same order as by `path_search_many`.
        let mut reached = 0u64;
        let mut frontier = [0usize; 64];
        let mut len = 0;
        for n in 0..count {
            let f = self.convoyers[i][n];
            if seas_touching(self.variant, from).any(|s| s == self.province[f]) {
                reached |= 1 << n;
                frontier[len] = n;
                len += 1;
            }
        }
        while len > 0 {
            len -= 1;
            let f = self.convoyers[i][frontier[len]];
            if !self.resolve(f) {
                continue;
            }
            let sea = self.province[f];
            if fleet_touches(self.variant, sea, to) {
                return true;
            }
            for m in 0..count {
                let g = self.convoyers[i][m];
                if reached & (1 << m) == 0 && fleet_touches(self.variant, sea, self.province[g]) {
                    reached |= 1 << m;
                    frontier[len] = m;
                    len += 1;
                }
            }
        }
        false
    }

    /// The same search for an army with more fleets than a word has bits.
    fn path_search_many(&mut self, i: usize, to: ProvinceId, from: ProvinceId) -> bool {
        let fleets = self.convoyers[i].to_vec();
        let mut reached = vec![false; fleets.len()];
        let mut frontier: Vec<usize> = Vec::new();
        let starts: Vec<ProvinceId> = seas_touching(self.variant, from).collect();
        for (n, &f) in fleets.iter().enumerate() {
            if starts.contains(&self.province[f]) {
                reached[n] = true;
                frontier.push(n);
            }
        }
        while let Some(n) = frontier.pop() {
            let f = fleets[n];
            if !self.resolve(f) {
                continue;
            }
            let sea = self.province[f];
            if fleet_touches(self.variant, sea, to) {
                return true;
            }
            for (m, &g) in fleets.iter().enumerate() {
                if !reached[m] && fleet_touches(self.variant, sea, self.province[g]) {
                    reached[m] = true;
                    frontier.push(m);
                }
            }
        }
        false
    }

    /// The outcome of a unit's order, with its reason, once every decision is taken.
    fn outcome(&mut self, i: usize, dislodged_by: Option<ProvinceId>) -> Outcome {
        match self.commands[i].clone() {
            CheckedOrder::Move { .. } => {
                if self.result[i] {
                    Outcome::Succeeded
                } else {
                    Outcome::Failed(self.move_failure(i))
                }
            }
            CheckedOrder::SupportHold { unit } | CheckedOrder::SupportMove { unit, .. } => {
                if let Some(by) = self.cut_by(i) {
                    return Outcome::Failed(Failure::SupportCut { by });
                }
                if let Some(by) = dislodged_by {
                    return Outcome::Failed(Failure::Dislodged { by });
                }
                let matched = self
                    .unit_at(unit)
                    .is_some_and(|s| self.supports[s].contains(&i));
                if matched {
                    Outcome::Succeeded
                } else {
                    Outcome::Failed(Failure::NotMatched)
                }
            }
            CheckedOrder::Convoy { army, .. } => {
                if let Some(by) = dislodged_by {
                    return Outcome::Failed(Failure::Dislodged { by });
                }
                let matched = self
                    .unit_at(army)
                    .is_some_and(|a| self.convoyers[a].contains(&i));
                if matched {
                    Outcome::Succeeded
                } else {
                    Outcome::Failed(Failure::NotMatched)
                }
            }
            _ => match dislodged_by {
                Some(by) => Outcome::Failed(Failure::Dislodged { by }),
                None => Outcome::Succeeded,
            },
        }
    }

    fn cut_by(&mut self, s: usize) -> Option<ProvinceId> {
        let exempt = match self.commands[s] {
            CheckedOrder::SupportMove { to, .. } => Some(to),
            _ => None,
        };
        let attackers = self.moves_into[usize::from(self.province[s].0)].to_vec();
        attackers
            .into_iter()
            .find(|&k| {
                Some(self.province[k]) != exempt
                    && self.units[k].owner != self.units[s].owner
                    && (!self.convoyed[k] || self.has_path(k))
            })
            .map(|k| self.province[k])
    }

    fn move_failure(&mut self, i: usize) -> Failure {
        if self.paradox[i] {
            return Failure::ConvoyParadox;
        }
        if self.convoyed[i] && !self.has_path(i) {
            return Failure::NoConvoyRoute;
        }
        let Some(target) = self.target[i] else {
            return Failure::NoConvoyRoute;
        };
        let attack = self.attack_strength(i);
        let garrison = self.garrison_against(i, target);
        if let Some(j) = self.head_to_head(i)
            && attack <= self.defend_strength(j) + garrison
        {
            return Failure::LostHeadToHead {
                against: self.province[j],
            };
        }
        let rivals: Vec<usize> = self.moves_into[usize::from(target.0)]
            .iter()
            .copied()
            .filter(|&k| k != i)
            .collect();
        let mut standoff = Vec::new();
        for k in rivals {
            if attack <= self.prevent_strength(k) {
                standoff.push(self.province[k]);
            }
        }
        if garrison > 0
            && self.head_to_head(i).is_none()
            && attack <= self.hold_strength(target) + garrison
            && standoff.is_empty()
        {
            return Failure::Defended { by: target };
        }
        if let Some(d) = self.unit_at(target)
            && self.head_to_head(i).is_none()
            && attack <= self.hold_strength(target)
        {
            let stays = self.target[d].is_none() || !self.result[d];
            if stays && attack == 0 && self.units[d].owner == self.units[i].owner {
                return Failure::WouldDislodgeOwnUnit;
            }
            if standoff.is_empty() {
                return Failure::Defended { by: target };
            }
        }
        if standoff.is_empty() {
            Failure::Defended { by: target }
        } else {
            Failure::Standoff { with: standoff }
        }
    }
}
